// The list at a revision: its sections and items with the highlights of the revision's changes,
// the deleted rows in their old place, and the operations in words.

export const List = {};

export function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

// The sections to show: N's, each row marked with what the changes did to it, and O's deleted
// sections and items placed before the next O neighbour that survives (else at the end).
List.model = function (old, snapshot, c) {
  const sections = snapshot.sections.map(s => ({
    title: s.title, summary: s.summary, marks: [], deleted: false,
    items: s.items.map(i => ({ id: i.id, summary: i.summary, marks: [], deleted: false }))
  }));
  const mark = (row, what) => { if (row && !row.marks.includes(what)) row.marks.push(what); };
  for (const s of c.sections.inserted) mark(sections[s.index], "inserted");
  for (const m of c.sections.moved) mark(sections[m.to], "moved");
  for (const u of c.sections.updated) mark(sections[u.to], "updated");
  const at = p => sections[p[0]] && sections[p[0]].items[p[1]];
  for (const i of c.items.inserted) mark(at(i.at), "inserted");
  for (const m of c.items.moved) mark(at(m.to), "moved");
  for (const u of c.items.updated) mark(at(u.to), "updated");
  for (const s of sections) if (s.marks.includes("inserted")) s.items.forEach(i => mark(i, "inserted"));
  if (!old) return sections;

  const byTitle = new Map(sections.map(s => [s.title, s]));
  const deletedPaths = new Set(c.items.deleted.map(p => p[0] + "," + p[1]));
  old.sections.forEach((oldSection, s) => {
    const section = byTitle.get(oldSection.title);
    if (!section || c.sections.deleted.includes(s)) return;
    const ids = new Map(section.items.map((item, k) => [item.id, k]));
    const before = new Map();
    let anchor = null;
    for (let i = oldSection.items.length - 1; i >= 0; i -= 1) {
      const item = oldSection.items[i];
      if (deletedPaths.has(s + "," + i)) {
        if (!before.has(anchor)) before.set(anchor, []);
        before.get(anchor).unshift({ id: item.id, summary: item.summary, marks: ["deleted"], deleted: true });
      } else if (ids.has(item.id)) {
        anchor = item.id;
      }
    }
    if (before.size === 0) return;
    const rows = [];
    for (const item of section.items) rows.push(...(before.get(item.id) || []), item);
    rows.push(...(before.get(null) || []));
    section.items = rows;
  });
  // An item that leaves a deleted section for another one (deleted with it and inserted there,
  // as the format has no move out of a deleted section) is linked across both rows.
  const liveRows = new Map();
  for (const section of sections) for (const item of section.items) if (!item.deleted) liveRows.set(item.id, [item, section]);
  const nowIn = new Map();
  for (const s of c.sections.deleted) {
    for (const item of (old.sections[s] && old.sections[s].items) || []) {
      const live = liveRows.get(item.id);
      if (!live) continue;
      live[0].wasIn = old.sections[s].title;
      nowIn.set(item.id, live[1].title);
    }
  }
  const placed = new Map();
  let anchor = null;
  for (let s = old.sections.length - 1; s >= 0; s -= 1) {
    const oldSection = old.sections[s];
    if (c.sections.deleted.includes(s)) {
      if (!placed.has(anchor)) placed.set(anchor, []);
      placed.get(anchor).unshift({
        title: oldSection.title, summary: oldSection.summary, marks: ["deleted"], deleted: true,
        items: oldSection.items.map(i => ({ id: i.id, summary: i.summary, marks: ["deleted"], deleted: true,
                                            nowIn: nowIn.get(i.id) }))
      });
    } else if (byTitle.has(oldSection.title)) {
      anchor = oldSection.title;
    }
  }
  const result = [];
  for (const section of sections) result.push(...(placed.get(section.title) || []), section);
  result.push(...(placed.get(null) || []));
  return result;
};

// The DOM of the list: the contract that tests and users' scripts read (data-section-title,
// data-section-summary, data-item-id, data-summary; data-deleted-section-title and
// data-deleted-item-id for what the revision deleted).
List.render = function (container, model) {
  const fragment = document.createDocumentFragment();
  for (const section of model) {
    const node = element("section", ["section"].concat(section.marks).join(" "));
    if (section.deleted) node.setAttribute("data-deleted-section-title", section.title);
    else node.setAttribute("data-section-title", section.title);
    if (section.summary !== undefined) {
      node.setAttribute(section.deleted ? "data-deleted-section-summary" : "data-section-summary", section.summary);
    }
    const header = element("h2", "section-header");
    header.append(element("span", "title", section.title === "" ? "(untitled)" : section.title));
    if (section.summary !== undefined) header.append(element("span", "summary", section.summary));
    // A deleted section counts the items it had.
    const count = section.deleted ? section.items.length : section.items.filter(i => !i.deleted).length;
    header.append(element("span", "count", count + (count === 1 ? " item" : " items")));
    node.append(header);
    const list = element("ol", "items");
    for (const item of section.items) {
      const row = element("li", ["item"].concat(item.marks).join(" "));
      if (item.deleted) {
        row.setAttribute("data-deleted-item-id", item.id);
        if (item.summary !== undefined) row.setAttribute("data-deleted-summary", item.summary);
      } else {
        row.setAttribute("data-item-id", item.id);
        if (item.summary !== undefined) row.setAttribute("data-summary", item.summary);
      }
      row.append(element("code", "id", item.id));
      if (item.summary !== undefined) row.append(element("span", "summary", item.summary));
      if (item.wasIn !== undefined) row.append(rowLink("was in " + titleText(item.wasIn), "data-deleted-item-id", item.id));
      if (item.nowIn !== undefined) row.append(rowLink("now in " + titleText(item.nowIn), "data-item-id", item.id));
      for (const what of item.marks) row.append(element("span", "badge " + what, what));
      list.append(row);
    }
    node.append(list);
    fragment.append(node);
  }
  container.replaceChildren(fragment);
};

function titleText(title) { return title === "" ? "(untitled)" : title; }

// A link to the row of the list whose `attribute` is `id`: following it scrolls that row into
// view and flashes it.
function rowLink(text, attribute, id) {
  const link = element("a", "row-link", text);
  link.href = "#";
  link.addEventListener("click", event => {
    event.preventDefault();
    const target = link.closest("#list, .compare-pane, body").querySelector("[" + attribute + "=\"" + CSS.escape(id) + "\"]");
    if (!target) return;
    if (target.scrollIntoView) target.scrollIntoView({ block: "nearest" });
    target.classList.remove("flash");
    void target.offsetWidth;
    target.classList.add("flash");
  });
  return link;
}

function quoted(text) { return text === undefined ? "no summary" : "\u201c" + text + "\u201d"; }
function path(p) { return "[" + p[0] + ", " + p[1] + "]"; }

// The operations of `c` in words. Each names its section or item at a `from` path in O (when
// known) and at a `to` path in N, so that a wrong operation reads as what it does: a move whose
// `to` holds another item in N says so.
List.words = function (old, snapshot, c) {
  const lines = [];
  const oldSection = s => old && old.sections[s];
  const newSection = s => snapshot.sections[s];
  const oldTitle = s => oldSection(s) ? quoted(oldSection(s).title) : "at " + s;
  const newTitle = s => newSection(s) ? quoted(newSection(s).title) : "at " + s;
  const oldItem = p => old && old.sections[p[0]] && old.sections[p[0]].items[p[1]];
  const newItem = p => snapshot.sections[p[0]] && snapshot.sections[p[0]].items[p[1]];
  // The name of what an operation takes from `from` (O) to `to` (N), and what N holds at `to`
  // when that is something else.
  const itemName = (from, to) => {
    const source = old ? oldItem(from) : newItem(to), target = newItem(to);
    return { name: source ? quoted(source.id) + " " : "",
             other: old && source && (!target || target.id !== source.id)
               ? (target ? ", where the snapshot has " + quoted(target.id) : ", outside the snapshot") : "" };
  };
  const sectionName = (from, to) => {
    const source = old ? oldSection(from) : newSection(to), target = newSection(to);
    return { name: source ? quoted(source.title) : "at " + from,
             other: old && source && (!target || target.title !== source.title)
               ? (target ? ", where the snapshot has " + quoted(target.title) : ", outside the snapshot") : "" };
  };
  for (const s of c.sections.deleted) lines.push("Deleted section " + oldTitle(s) + " (it was at " + s + ")");
  for (const s of c.sections.inserted) {
    const target = newSection(s.index);
    const other = target && target.title !== s.title ? ", where the snapshot has " + quoted(target.title) : "";
    lines.push("Inserted section " + quoted(s.title) + " at " + s.index + other + " with " + (s.items || []).length
      + ((s.items || []).length === 1 ? " item" : " items"));
  }
  for (const m of c.sections.moved) {
    const { name, other } = sectionName(m.from, m.to);
    lines.push("Moved section " + name + " from " + m.from + " to " + m.to + other);
  }
  for (const u of c.sections.updated) {
    const { name, other } = sectionName(u.from, u.to);
    lines.push("Updated section " + name + other + ": its summary is now " + quoted(u.summary));
  }
  for (const p of c.items.deleted) {
    const item = oldItem(p);
    lines.push("Deleted item " + (item ? quoted(item.id) + " " : "") + "at " + path(p) + " (in " + oldTitle(p[0]) + ")");
  }
  for (const i of c.items.inserted) {
    const target = newItem(i.at);
    const other = target && target.id !== i.id ? ", where the snapshot has " + quoted(target.id) : "";
    lines.push("Inserted item " + quoted(i.id) + " at " + path(i.at) + " (in " + newTitle(i.at[0]) + other + "), summary "
      + quoted(i.summary));
  }
  for (const m of c.items.moved) {
    const { name, other } = itemName(m.from, m.to);
    lines.push("Moved item " + name + "from " + path(m.from) + " (in " + oldTitle(m.from[0])
      + ") to " + path(m.to) + " (in " + newTitle(m.to[0]) + other + ")");
  }
  for (const u of c.items.updated) {
    const { name, other } = itemName(u.from, u.to);
    lines.push("Updated item " + name + "at " + path(u.to) + other + ": its summary is now " + quoted(u.summary));
  }
  return lines;
};
