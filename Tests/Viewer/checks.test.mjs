// The checks of the revisions the page shows and the search for failing revisions, over a log
// whose revision 7 stores a move with its `to` one past where the item lands (as
// BrokenMoveHistory in the Swift tests), and the operations in words, which name a move's item at
// its `from`.
import assert from "node:assert/strict";
import { beforeEach, test } from "node:test";
import { Checks } from "../../Sources/ChangeLogServer/Viewer/Files/checks.mjs";
import { Format } from "../../Sources/ChangeLogServer/Viewer/Files/format.mjs";
import { List } from "../../Sources/ChangeLogServer/Viewer/Files/list.mjs";

function snapshot(ids) { return { sections: [{ title: "Inbox", items: ids.map(id => ({ id })) }] }; }
const ids = snapshot => snapshot.sections.length ? snapshot.sections[0].items.map(i => i.id) : [];

// Revision 7 moves "b" from [0, 2] to [0, 4] (where it lands) but stores [0, 5], where "f" is.
const wrongMove = { items: { moved: [{ from: [0, 2], to: [0, 5] }] } };
const before7 = snapshot(["i", "a", "b", "c", "d", "f", "g"]);
const at7 = snapshot(["i", "a", "c", "d", "b", "f", "g"]);

// A log of `latest` revisions: the first inserts the section, each next appends one item, but revision 6 replaces the list with
// before7 and revision 7 is the wrong move. Records each read.
function source(latest) {
  const reads = [];
  const lines = new Map();
  let previous = { sections: [] };
  for (let r = 1; r <= latest; r += 1) {
    const old = ids(previous);
    let line;
    if (r === 6) {
      line = { snapshot: before7, changes: { items: {
        deleted: old.map((_, k) => [0, k]), inserted: ids(before7).map((id, k) => ({ at: [0, k], id })) } } };
    } else if (r === 1) {
      line = { snapshot: snapshot(["n1"]), changes: { sections: { inserted: [{ index: 0, title: "Inbox", items: [{ id: "n1" }] }] } } };
    } else if (r === 7) {
      line = { snapshot: at7, changes: wrongMove };
    } else {
      line = { snapshot: snapshot(old.concat(["n" + r])),
               changes: { items: { inserted: [{ at: [0, old.length], id: "n" + r }] } } };
    }
    line.revision = r;
    lines.set(r, line);
    previous = line.snapshot;
  }
  return {
    reads, byRevision: lines,
    async lines(from, to, each) {
      assert.ok(from >= 1 && to <= latest && from <= to, "read " + from + "..." + to + " of 1..." + latest);
      reads.push([from, to]);
      for (let r = from; r <= to; r += 1) each(lines.get(r));
    }
  };
}

beforeEach(() => Object.assign(Checks, { chunk: 4, searchLimit: 16 }));

test("the generated log is valid but for revision 7", () => {
  const log = source(12);
  assert.equal(log.byRevision.size, 12);
  let previous = { sections: [] };
  for (let r = 1; r <= 12; r += 1) {
    const { reason } = Checks.check(previous, log.byRevision.get(r));
    assert.equal(reason !== null, r === 7, "revision " + r + ": " + reason);
    previous = log.byRevision.get(r).snapshot;
  }
});

test("a wrong move fails its check against the stored snapshot", () => {
  const { reason, applied } = Checks.check(before7, { revision: 7, changes: wrongMove, snapshot: at7 });
  assert.equal(reason, "applying its changes to the previous snapshot does not give the stored snapshot");
  assert.deepEqual(applied.sections[0].items.map(i => i.id), ["i", "a", "c", "d", "f", "b", "g"]);
});

test("changes that break a format rule fail with the rule", () => {
  const { reason } = Checks.check(before7, { revision: 7, changes: { items: { deleted: [[0, 9]] } }, snapshot: at7 });
  assert.match(reason, /^its changes are not valid for the previous snapshot: O path \[0,9\]/);
});

test("a move and an update of one item pass: UIKit code delivers them in two stages", () => {
  const old = snapshot(["a", "b", "c"]);
  const line = { revision: 2, snapshot: { sections: [{ title: "Inbox", items: [{ id: "a" }, { id: "c" }, { id: "b", summary: "x" }] }] },
                 changes: { items: { moved: [{ from: [0, 1], to: [0, 2] }], updated: [{ from: [0, 1], to: [0, 2], summary: "x" }] } } };
  assert.equal(Checks.check(old, line).reason, null);
});

test("the next failure is found from revision 1 window by window, without playing", async () => {
  const log = source(40);
  Checks.reset(log, 1, 40);
  const told = [];
  const found = await Checks.findFailure(1, 1, () => {}, () => false, (r, reason) => told.push([r, reason]));
  assert.equal(found, 7);
  assert.deepEqual(log.reads, [[1, 5], [5, 13]]);
  assert.deepEqual(told.map(([r]) => r), [7]);
  // Searching again reads nothing: the checked ranges are remembered.
  assert.equal(await Checks.findFailure(6, 1, () => {}, () => false, () => {}), 7);
  assert.equal(log.reads.length, 2);
});

test("the previous failure is found from the end; none past it", async () => {
  const log = source(40);
  Checks.reset(log, 1, 40);
  assert.equal(await Checks.findFailure(40, -1, () => {}, () => false, () => {}), 7);
  assert.equal(await Checks.findFailure(7, 1, () => {}, () => false, () => {}), null);
  assert.equal(await Checks.findFailure(7, -1, () => {}, () => false, () => {}), null);
  assert.deepEqual(Checks.checked, [[1, 40]]);
});

test("a search stops when cancelled", async () => {
  const log = source(40);
  Checks.reset(log, 1, 40);
  assert.equal(await Checks.findFailure(10, 1, () => {}, () => true, () => {}), null);
  assert.equal(log.reads.length, 1);
});

test("the operations panel names a move's item at its from in the old snapshot", () => {
  const words = List.words(before7, at7, Format.complete(wrongMove));
  assert.deepEqual(words, [
    "Moved item \u201cb\u201d from [0, 2] (in \u201cInbox\u201d) to [0, 5] (in \u201cInbox\u201d, where the snapshot has \u201cf\u201d)"
  ]);
  // A right move names its item once; without the old snapshot, the item at `to` is named.
  const right = Format.complete({ items: { moved: [{ from: [0, 2], to: [0, 4] }] } });
  assert.deepEqual(List.words(before7, at7, right),
                   ["Moved item \u201cb\u201d from [0, 2] (in \u201cInbox\u201d) to [0, 4] (in \u201cInbox\u201d)"]);
  assert.deepEqual(List.words(null, at7, right),
                   ["Moved item \u201cb\u201d from [0, 2] (in at 0) to [0, 4] (in \u201cInbox\u201d)"]);
});

test("an update names its item at from, and what the snapshot holds at to when that differs", () => {
  const c = Format.complete({ items: { updated: [{ from: [0, 2], to: [0, 5], summary: "x" }] } });
  assert.deepEqual(List.words(before7, at7, c),
                   ["Updated item \u201cb\u201d at [0, 5], where the snapshot has \u201cf\u201d: its summary is now \u201cx\u201d"]);
});
