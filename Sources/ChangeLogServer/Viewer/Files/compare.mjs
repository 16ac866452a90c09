// Compare mode: two revisions side by side, `#compare=R1..R2`, with the changes that take R1's
// list to R2's highlighted in both: on the left what leaves (deleted) or goes (moved, updated)
// from R1's list, on the right what arrives in R2's. Pure: the list models `List.render` draws.

import { Format } from "./format.mjs";
import { List } from "./list.mjs";

export const Compare = {};

// The two revisions of a fragment value `R1..R2`: { from, to }, or null when it is not that.
Compare.parse = function (text) {
  const match = /^([0-9]+)\.\.([0-9]+)$/.exec(text || "");
  return match ? { from: Number(match[1]), to: Number(match[2]) } : null;
};

// The fragment that opens compare mode on `from` and `to`.
Compare.hash = function (from, to) { return "#compare=" + from + ".." + to; };

// R1's list (`old`) with the rows the changes `c` take from it marked: deleted sections and
// their items, deleted items, and the sources of moves and updates.
Compare.left = function (old, c) {
  const sections = old.sections.map((s, k) => ({
    title: s.title, summary: s.summary, marks: [], deleted: false,
    items: s.items.map(i => ({ id: i.id, summary: i.summary, marks: [], deleted: false }))
  }));
  const mark = (row, what) => { if (row && !row.marks.includes(what)) row.marks.push(what); };
  const at = p => sections[p[0]] && sections[p[0]].items[p[1]];
  for (const s of c.sections.deleted) {
    if (!sections[s]) continue;
    mark(sections[s], "deleted");
    sections[s].deleted = true;
    for (const item of sections[s].items) { mark(item, "deleted"); item.deleted = true; }
  }
  for (const m of c.sections.moved) mark(sections[m.from], "moved");
  for (const u of c.sections.updated) mark(sections[u.from], "updated");
  for (const p of c.items.deleted) {
    const row = at(p);
    if (row) { mark(row, "deleted"); row.deleted = true; }
  }
  for (const m of c.items.moved) mark(at(m.from), "moved");
  for (const u of c.items.updated) mark(at(u.from), "updated");
  return sections;
};

// Both sides and the operations in words: { left, right, words }, `changes` taking `old` (R1's
// snapshot) to `snapshot` (R2's).
Compare.models = function (old, snapshot, changes) {
  const c = Format.complete(changes);
  return { left: Compare.left(old, c), right: List.model(null, snapshot, c), words: List.words(old, snapshot, c),
           counts: Format.countsApart(c) };
};
