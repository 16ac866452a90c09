// The interchange format (FORMAT.md): changes of version 1 or 2 completed to version 2, operation
// counts, timeline markers, the reference `apply` and snapshot equality. Pure: no DOM, no network.

export const Format = {};

// Version 1 changes have no sections.updated: every list is completed, empty where absent.
Format.complete = function (changes) {
  const c = changes || {}, s = c.sections || {}, i = c.items || {};
  return {
    sections: { deleted: s.deleted || [], inserted: s.inserted || [], moved: s.moved || [],
                updated: s.updated || [] },
    items: { deleted: i.deleted || [], inserted: i.inserted || [], moved: i.moved || [],
             updated: i.updated || [] }
  };
};

Format.counts = function (c) {
  const inserted = c.sections.inserted.length + c.items.inserted.length;
  const deleted = c.sections.deleted.length + c.items.deleted.length;
  const moved = c.sections.moved.length + c.items.moved.length;
  const updated = c.sections.updated.length + c.items.updated.length;
  return { inserted, deleted, moved, updated, total: inserted + deleted + moved + updated };
};

// The counts of sections and of items apart, as `replay log` prints them:
// { sections: { inserted, deleted, moved, updated }, items: { ... } }.
Format.countsApart = function (c) {
  const of = group => ({ inserted: group.inserted.length, deleted: group.deleted.length, moved: group.moved.length,
                         updated: group.updated.length });
  return { sections: of(c.sections), items: of(c.items) };
};

// The N index of the surviving section at O index `from`, from the changes alone: a section
// that does not move keeps its rank among the sections that neither leave nor move.
Format.sectionTarget = function (c, from) {
  for (const m of c.sections.moved) if (m.from === from) return m.to;
  let rank = from;
  for (const d of c.sections.deleted) if (d < from) rank -= 1;
  for (const m of c.sections.moved) if (m.from < from) rank -= 1;
  const taken = new Set(c.sections.inserted.map(s => s.index).concat(c.sections.moved.map(m => m.to)));
  let slot = 0;
  for (;; slot += 1) {
    if (taken.has(slot)) continue;
    if (rank === 0) return slot;
    rank -= 1;
  }
};

// The kinds of marker a revision's changes carry on the timeline.
Format.markers = function (c) {
  const kinds = [];
  if (c.sections.moved.length > 0) kinds.push("section-move");
  if (c.items.moved.some(m => Format.sectionTarget(c, m.from[0]) !== m.to[0])) kinds.push("cross-section-move");
  if (c.sections.deleted.length > 0) kinds.push("section-delete");
  return kinds;
};

function fail(message) { throw new Error(message); }
function key(path) { return path[0] + "," + path[1]; }
function copyItem(item) {
  const copy = { id: item.id };
  if (item.summary !== undefined) copy.summary = item.summary;
  return copy;
}
function setSummary(target, summary) {
  if (summary === undefined) delete target.summary; else target.summary = summary;
}
function checkUnique(list, what) {
  const seen = new Set();
  for (const k of list) {
    if (seen.has(k)) fail(what + " " + k + " appears twice");
    seen.add(k);
  }
}

// apply(O, C): the format's reference procedure. Throws an Error naming the first rule broken.
Format.apply = function (old, changes) {
  const c = Format.complete(changes);
  const oldSections = old.sections || [];
  const deletedSections = new Set(c.sections.deleted);
  const movedSections = new Map(c.sections.moved.map(m => [m.from, m.to]));
  checkUnique(c.sections.deleted.concat(c.sections.moved.map(m => m.from)), "O section");
  for (const s of deletedSections.keys()) {
    if (!(s >= 0 && s < oldSections.length)) fail("deleted section " + s + " is not in O");
  }
  // 1. Removals, in O coordinates.
  const removed = new Set(c.items.deleted.map(key).concat(c.items.moved.map(m => key(m.from))));
  checkUnique(c.items.deleted.map(key).concat(c.items.moved.map(m => key(m.from))), "O path");
  for (const p of c.items.deleted.concat(c.items.moved.map(m => m.from))) {
    const section = oldSections[p[0]];
    if (!section || deletedSections.has(p[0]) || !(p[1] >= 0 && p[1] < section.items.length)) {
      fail("O path [" + p + "] is not an item of a surviving section");
    }
  }
  const movedItems = c.items.moved.map(m => copyItem(oldSections[m.from[0]].items[m.from[1]]));
  const kept = oldSections.map((section, s) => ({
    title: section.title, summary: section.summary,
    items: section.items.filter((_, i) => !removed.has(s + "," + i)).map(copyItem)
  }));
  // 2. Section order, in N coordinates.
  const size = oldSections.length - deletedSections.size + c.sections.inserted.length;
  const slots = new Array(size).fill(null);
  const inserted = new Set();
  const targetOf = new Map();
  for (const s of c.sections.inserted) {
    if (!(s.index >= 0 && s.index < size) || slots[s.index]) fail("inserted section index " + s.index + " is taken or outside N");
    const section = { title: s.title, items: (s.items || []).map(copyItem) };
    if (s.summary !== undefined) section.summary = s.summary;
    slots[s.index] = section;
    inserted.add(s.index);
  }
  for (const [from, to] of movedSections) {
    if (!(from >= 0 && from < oldSections.length)) fail("moved section " + from + " is not in O");
    if (!(to >= 0 && to < size) || slots[to]) fail("section move target " + to + " is taken or outside N");
    slots[to] = kept[from];
    targetOf.set(from, to);
  }
  let free = 0;
  for (let s = 0; s < oldSections.length; s += 1) {
    if (deletedSections.has(s) || movedSections.has(s)) continue;
    while (free < size && slots[free]) free += 1;
    if (free >= size) fail("more surviving sections than slots");
    slots[free] = kept[s];
    targetOf.set(s, free);
  }
  // 3. Item order, in N coordinates, for each section that was not inserted.
  const arrivals = slots.map(() => []);
  for (const item of c.items.inserted) arrivals[item.at[0]] ? arrivals[item.at[0]].push([item.at[1], copyItem(item)])
    : fail("inserted item path [" + item.at + "] is outside N");
  c.items.moved.forEach((m, k) => arrivals[m.to[0]] ? arrivals[m.to[0]].push([m.to[1], movedItems[k]])
    : fail("moved item target [" + m.to + "] is outside N"));
  slots.forEach((section, s) => {
    if (arrivals[s].length === 0) return;
    if (inserted.has(s)) fail("an item arrives in inserted section " + s);
    const itemSlots = new Array(section.items.length + arrivals[s].length).fill(null);
    for (const [at, item] of arrivals[s]) {
      if (!(at >= 0 && at < itemSlots.length) || itemSlots[at]) fail("N path [" + s + "," + at + "] is taken or outside N");
      itemSlots[at] = item;
    }
    let next = 0;
    for (const item of section.items) {
      while (itemSlots[next]) next += 1;
      itemSlots[next] = item;
    }
    section.items = itemSlots;
  });
  // 4. Updates.
  const updatedItems = new Set();
  for (const u of c.items.updated) {
    const section = slots[u.to[0]];
    const target = section && section.items[u.to[1]];
    const source = oldSections[u.from[0]] && oldSections[u.from[0]].items[u.from[1]];
    if (!target || !source || target.id !== source.id) fail("item update [" + u.from + "] to [" + u.to + "] does not name one item");
    if (updatedItems.has(target.id)) fail("item " + target.id + " is updated twice");
    updatedItems.add(target.id);
    setSummary(target, u.summary);
  }
  const updatedSections = new Set();
  for (const u of c.sections.updated) {
    const target = slots[u.to], source = oldSections[u.from];
    if (!target || !source || target.title !== source.title) fail("section update " + u.from + " to " + u.to + " does not name one section");
    if (updatedSections.has(u.to)) fail("section " + target.title + " is updated twice");
    updatedSections.add(u.to);
    setSummary(target, u.summary);
  }
  // 5. The result is a snapshot: titles unique, identifiers unique across it.
  const titles = new Map(), ids = new Map();
  slots.forEach((section, s) => {
    if (titles.has(section.title)) fail("the result has section title " + JSON.stringify(section.title) + " twice");
    titles.set(section.title, s);
    section.items.forEach((item, i) => {
      if (ids.has(item.id)) fail("the result has item id " + JSON.stringify(item.id) + " at [" + ids.get(item.id) + "] and [" + s + "," + i + "]");
      ids.set(item.id, s + "," + i);
    });
  });
  return { sections: slots.map(s => {
    const section = { title: s.title, items: s.items };
    if (s.summary !== undefined) section.summary = s.summary;
    return section;
  }) };
};

// Whether two snapshots hold the same sections and items, in the same order, with the same
// summaries (an absent summary differs from any string).
Format.equal = function (a, b) {
  const x = a.sections || [], y = b.sections || [];
  if (x.length !== y.length) return false;
  for (let s = 0; s < x.length; s += 1) {
    if (x[s].title !== y[s].title || x[s].summary !== y[s].summary) return false;
    const p = x[s].items || [], q = y[s].items || [];
    if (p.length !== q.length) return false;
    for (let i = 0; i < p.length; i += 1) {
      if (p[i].id !== q[i].id || p[i].summary !== q[i].summary) return false;
    }
  }
  return true;
};
