// An item's life: the events of its history (the shape `GET /api/items/{id}/history` answers),
// found by reading revision lines when there is no server to ask (a file), stepped through mark
// by mark, and told in words; and the items of a snapshot whose id or summary holds a text. Pure.

import { Format } from "./format.mjs";

export const Life = {};

function samePath(a, b) { return a[0] === b[0] && a[1] === b[1]; }

// Where `id` is in `snapshot`: { section, indexPath, summary }, or null.
Life.locate = function (snapshot, id) {
  const sections = (snapshot && snapshot.sections) || [];
  for (let s = 0; s < sections.length; s += 1) {
    const items = sections[s].items || [];
    for (let i = 0; i < items.length; i += 1) {
      if (items[i].id === id) return { section: sections[s].title, indexPath: [s, i], summary: items[i].summary };
    }
  }
  return null;
};

// The event of `line` (a revision line with its changes and snapshot) for `id`, given the
// snapshot before it, or null when the revision did not touch the item.
Life.event = function (previous, line, id) {
  const c = Format.complete(line.changes);
  const before = Life.locate(previous, id), after = Life.locate(line.snapshot, id);
  const kinds = [];
  let withSection = null;
  const sectionGone = before !== null && c.sections.deleted.includes(before.indexPath[0]);
  const left = before !== null && (sectionGone || c.items.deleted.some(p => samePath(p, before.indexPath)));
  if (before && after) {
    // Deleted (or taken with its section) and inserted elsewhere at once: a move, as the index tells it.
    if (left || c.items.moved.some(m => samePath(m.from, before.indexPath))) kinds.push("moved");
    if (c.items.updated.some(u => samePath(u.to, after.indexPath)) || before.summary !== after.summary) {
      kinds.push("updated");
    }
    if (sectionGone) withSection = "deleted";
  } else if (before) {
    kinds.push("deleted");
    if (sectionGone) withSection = "deleted";
  } else if (after) {
    kinds.push("inserted");
    if (c.sections.inserted.some(s => s.index === after.indexPath[0])) withSection = "inserted";
  }
  if (kinds.length === 0) return null;
  const place = p => p ? { section: p.section, indexPath: p.indexPath } : null;
  const summary = p => p && p.summary !== undefined ? p.summary : null;
  return { revision: line.revision, time: line.time, meta: line.meta || {}, kinds, withSection,
           before: place(before), after: place(after), summaryBefore: summary(before), summaryAfter: summary(after) };
};

// The events of `id` over `lines` (consecutive revision lines with snapshots, oldest first); the
// first line is compared with `previous`, the snapshot before it (null when unknown: then the
// first line tells nothing, unless it is revision 1, which starts from the empty list).
Life.scan = function (lines, id, previous) {
  const events = [];
  let old = previous || null;
  for (const line of lines) {
    if (old === null && line.revision === 1) old = { sections: [] };
    if (old !== null) {
      const event = Life.event(old, line, id);
      if (event) events.push(event);
    }
    old = line.snapshot;
  }
  return events;
};

// The revision of the event after (direction 1) or before (-1) `revision`, or null.
Life.step = function (events, revision, direction) {
  if (direction > 0) {
    for (const e of events) if (e.revision > revision) return e.revision;
  } else {
    for (let k = events.length - 1; k >= 0; k -= 1) if (events[k].revision < revision) return events[k].revision;
  }
  return null;
};

function lifeQuoted(text) { return text === null || text === undefined ? "no summary" : "\u201c" + text + "\u201d"; }
function lifePlace(p) {
  return p.section !== undefined ? lifeQuoted(p.section) + " [" + p.indexPath[0] + ", " + p.indexPath[1] + "]"
    : "at " + p.index;
}

// The event in words: "moved from “Pinned” [0, 3] to “Today” [1, 0]; updated: “a” to “b”".
Life.describe = function (event) {
  const parts = [];
  for (const kind of event.kinds) {
    if (kind === "inserted") {
      parts.push("inserted" + (event.after ? " at " + lifePlace(event.after) : "")
        + (event.withSection === "inserted" ? " with its section" : ""));
    } else if (kind === "deleted") {
      parts.push("deleted" + (event.before ? " from " + lifePlace(event.before) : "")
        + (event.withSection === "deleted" ? " with its section" : ""));
    } else if (kind === "moved") {
      parts.push("moved" + (event.before ? " from " + lifePlace(event.before) : "")
        + (event.after ? " to " + lifePlace(event.after) : "")
        + (event.withSection === "deleted" ? ", leaving its deleted section" : ""));
    } else if (kind === "updated") {
      parts.push("updated: " + lifeQuoted(event.summaryBefore) + " to " + lifeQuoted(event.summaryAfter));
    }
  }
  return parts.join("; ");
};

// The items of `snapshot` whose id or summary holds `text` (ignoring case), at most `limit`:
// [{ id, summary, section, indexPath }] in the list's order.
Life.findAt = function (snapshot, text, limit) {
  const needle = text.toLowerCase(), found = [];
  if (needle.length === 0) return found;
  for (const [s, section] of ((snapshot && snapshot.sections) || []).entries()) {
    for (const [i, item] of (section.items || []).entries()) {
      const summary = item.summary === undefined ? "" : item.summary;
      if (item.id.toLowerCase().includes(needle) || summary.toLowerCase().includes(needle)) {
        found.push({ id: item.id, summary: item.summary, section: section.title, indexPath: [s, i] });
        if (found.length >= (limit || 50)) return found;
      }
    }
  }
  return found;
};

// The ids of `lines`' snapshots that hold `text` (ignoring case), as the search route answers:
// [{ id, firstRevision, lastRevision }] ordered by id, at most `limit`; the last revision is the
// last that touched the item (the one that deleted it, when one did).
Life.searchLines = function (lines, text, limit) {
  const needle = text.toLowerCase(), seen = new Map();
  let previous = new Set();
  for (const line of lines) {
    const present = new Set();
    for (const section of (line.snapshot && line.snapshot.sections) || []) {
      for (const item of section.items || []) {
        if (!item.id.toLowerCase().includes(needle)) continue;
        present.add(item.id);
        const known = seen.get(item.id);
        if (known) known.lastRevision = line.revision;
        else seen.set(item.id, { id: item.id, firstRevision: line.revision, lastRevision: line.revision });
      }
    }
    for (const id of previous) if (!present.has(id)) seen.get(id).lastRevision = line.revision;
    previous = present;
  }
  return [...seen.values()].sort((a, b) => a.id < b.id ? -1 : a.id > b.id ? 1 : 0).slice(0, limit || 50);
};
