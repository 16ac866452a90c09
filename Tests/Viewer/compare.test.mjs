// Compare mode's models over an answer shaped as `/api/compare` gives it
// (fixtures/life-history.compare-2-5.json, revisions 2 and 5 of life-history.jsonl): what leaves
// R1's list marked on the left, what arrives in R2's on the right; the `#compare=R1..R2` fragment;
// and the list's links between an item's row in a deleted section and its row elsewhere.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { Compare } from "../../Sources/ChangeLogServer/Viewer/Files/compare.mjs";
import { Format } from "../../Sources/ChangeLogServer/Viewer/Files/format.mjs";
import { List } from "../../Sources/ChangeLogServer/Viewer/Files/list.mjs";

const read = name => readFileSync(new URL("fixtures/" + name, import.meta.url), "utf8");
const lines = read("life-history.jsonl").split("\n").filter(l => l.length > 0).map(l => JSON.parse(l));
const compared = JSON.parse(read("life-history.compare-2-5.json"));
const snapshot = revision => lines[revision - 1].snapshot;
const rows = model => model.map(s => [s.title, s.marks.join(","), s.items.map(i => i.id + ":" + i.marks.join(","))]);

test("the fixture's changes take revision 2's snapshot to revision 5's", () => {
  assert.deepEqual(Format.apply(snapshot(2), compared.changes), snapshot(5));
});

test("the left side is R1's list with what leaves it marked; the right side R2's with what arrives", () => {
  const id = lines[0].snapshot.sections[0].items[1].id;
  const model = Compare.models(snapshot(2), snapshot(5), compared.changes);
  assert.deepEqual(rows(model.left), [
    ["Pinned / \"top\"", "", ["x:"]],
    ["Today", "deleted", [id + ":deleted", "y:deleted"]]]);
  assert.ok(model.left[1].deleted && model.left[1].items.every(i => i.deleted));
  assert.deepEqual(rows(model.right), [["Pinned / \"top\"", "", [id + ":inserted", "x:"]]]);
  assert.deepEqual(model.counts, { sections: { inserted: 0, deleted: 1, moved: 0, updated: 0 },
                                   items: { inserted: 1, deleted: 0, moved: 0, updated: 0 } });
  assert.equal(model.words.length, 2);
  assert.match(model.words[0], /^Deleted section \u201cToday\u201d/);
});

test("moves and updates are marked where they leave on the left and where they arrive on the right", () => {
  const model = Compare.models(snapshot(1), snapshot(2), lines[1].changes);
  const id = lines[0].snapshot.sections[0].items[1].id;
  assert.deepEqual(rows(model.left)[0][2], ["x:", id + ":moved,updated"]);
  assert.deepEqual(rows(model.right)[1][2], [id + ":moved,updated", "y:"]);
});

test("the fragment reads R1..R2 either way round and nothing else", () => {
  assert.deepEqual(Compare.parse("3..9"), { from: 3, to: 9 });
  assert.deepEqual(Compare.parse("9..3"), { from: 9, to: 3 });
  for (const bad of ["", "3", "3..", "..9", "3...9", "a..b", "-1..2", undefined]) assert.equal(Compare.parse(bad), null, bad);
  assert.equal(Compare.hash(3, 9), "#compare=3..9");
});

test("an item that leaves a deleted section for another is linked across both rows; others are not", () => {
  const id = lines[0].snapshot.sections[0].items[1].id;
  const model = List.model(snapshot(4), snapshot(5), Format.complete(lines[4].changes));
  const deleted = model.find(s => s.deleted);
  assert.equal(deleted.title, "Later");
  assert.equal(deleted.items[0].nowIn, "Pinned / \"top\"");
  const arrived = model.find(s => !s.deleted).items.find(i => i.id === id);
  assert.equal(arrived.wasIn, "Later");
  const plain = List.model(snapshot(2), snapshot(3), Format.complete(lines[2].changes));
  assert.ok(plain.every(s => s.items.every(i => i.wasIn === undefined && i.nowIn === undefined)));
});

test("an inserted section of one item is told as 1 item, not 1 items", () => {
  const words = List.words(snapshot(3), snapshot(4), Format.complete(lines[3].changes));
  assert.deepEqual(words, ["Inserted section \u201cLater\u201d at 1 with 1 item"]);
});
