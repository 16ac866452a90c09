// The timeline's window arithmetic, over a source of generated revision lines: the window around
// the revision shown, bounded in size, extended a chunk at a time; the ranges whose markers are
// known; live revisions; and the search for the next or previous marker across unread windows.
import assert from "node:assert/strict";
import { beforeEach, test } from "node:test";
import { Timeline } from "../../Sources/ChangeLogServer/Viewer/Files/timeline.mjs";

// A log of revisions 1...latest whose revisions in `markers` delete a section; records each read.
function source(latest, markers = []) {
  const marked = new Set(markers);
  const reads = [];
  return {
    reads,
    async range(from, to, each) {
      assert.ok(from >= 1 && to <= latest && from <= to, "read " + from + "..." + to + " of 1..." + latest);
      reads.push([from, to]);
      for (let r = from; r <= to; r += 1) {
        each({ revision: r, time: "t" + r, meta: {}, changes: marked.has(r) ? { sections: { deleted: [0] } } : {} });
      }
    }
  };
}

function windowRange() { return [Timeline.windowFrom(), Timeline.windowTo()]; }

beforeEach(() => Object.assign(Timeline, { chunk: 10, limit: 40, margin: 4, searchLimit: 40 }));

test("ensure reads a window of a chunk on each side of a revision, clamped to the log", async () => {
  const log = source(100);
  Timeline.reset(log, 1, 100);
  await Timeline.ensure(50);
  assert.deepEqual(windowRange(), [40, 60]);
  assert.deepEqual(log.reads, [[40, 60]]);
  Timeline.reset(log, 1, 100);
  await Timeline.ensure(3);
  assert.deepEqual(windowRange(), [1, 13]);
  await Timeline.ensure(500);
  assert.deepEqual(windowRange(), [90, 100]);
  assert.equal(Timeline.entry(95).revision, 95);
  assert.equal(Timeline.entry(89), undefined);
});

test("near the window's edge, ensure extends it by a chunk; far from it, it reads a new window", async () => {
  const log = source(200);
  Timeline.reset(log, 1, 200);
  await Timeline.ensure(50);
  await Timeline.ensure(58);
  assert.deepEqual(windowRange(), [40, 70]);
  assert.deepEqual(log.reads.at(-1), [61, 70]);
  await Timeline.ensure(150);
  assert.deepEqual(windowRange(), [140, 160]);
  assert.equal(Timeline.fetched, 21 + 10 + 21);
});

test("the window never holds more than limit revisions: extending drops the far end", async () => {
  const log = source(200);
  Timeline.reset(log, 1, 200);
  await Timeline.ensure(20);
  for (let k = 0; k < 5; k += 1) await Timeline.extend(1);
  assert.deepEqual(windowRange(), [41, 80]);
  assert.equal(Timeline.entries.length, Timeline.limit);
  for (let k = 0; k < 5; k += 1) await Timeline.extend(-1);
  assert.deepEqual(windowRange(), [1, 40]);
  // Entries are consecutive.
  Timeline.entries.forEach((entry, k) => assert.equal(entry.revision, 1 + k));
});

test("covered ranges merge when they touch or overlap, and stay apart otherwise", () => {
  Timeline.reset(source(100), 1, 100);
  Timeline.cover(10, 20);
  Timeline.cover(30, 40);
  assert.deepEqual(Timeline.covered, [[10, 20], [30, 40]]);
  Timeline.cover(21, 25);
  assert.deepEqual(Timeline.covered, [[10, 25], [30, 40]]);
  Timeline.cover(26, 29);
  assert.deepEqual(Timeline.covered, [[10, 40]]);
  Timeline.cover(1, 5);
  Timeline.cover(50, 60);
  Timeline.cover(3, 55);
  assert.deepEqual(Timeline.covered, [[1, 60]]);
});

test("a live revision grows the log, joins the window when it touches it, and is not taken twice", async () => {
  const log = source(30, [31]);
  Timeline.reset(log, 1, 30);
  await Timeline.ensure(30);
  const entry = Timeline.addLive({ revision: 31, changes: { sections: { deleted: [0] } } });
  assert.deepEqual(entry.markers, ["section-delete"]);
  assert.equal(Timeline.latest, 31);
  assert.equal(Timeline.windowTo(), 31);
  assert.deepEqual(Timeline.markerRevisions, [31]);
  assert.equal(Timeline.addLive({ revision: 31, changes: {} }), null);
  // A window far from the end does not take it.
  Timeline.reset(log, 1, 30);
  await Timeline.ensure(5);
  Timeline.addLive({ revision: 31, changes: {} });
  assert.equal(Timeline.windowTo(), 15);
  // From an empty log, the first live revision is the oldest.
  Timeline.reset(log, 1, 0);
  assert.ok(Timeline.isEmpty());
  Timeline.addLive({ revision: 7, changes: {} });
  assert.deepEqual([Timeline.oldest, Timeline.latest, ...windowRange()], [7, 7, 7, 7]);
});

test("findMarker reads on, windows doubling, until it finds the next or previous marker", async () => {
  const log = source(1000, [3, 900]);
  Timeline.reset(log, 1, 1000);
  await Timeline.ensure(100);
  const seen = [];
  const next = await Timeline.findMarker(100, 1, at => seen.push(at), () => false);
  assert.equal(next, 900);
  // Reads of 10, 20, 40, 40, ... revisions after the window, each starting where the last ended.
  const after = log.reads.slice(1);
  assert.deepEqual(after.slice(0, 3), [[111, 120], [121, 140], [141, 180]]);
  after.forEach(([from, to]) => assert.ok(to - from + 1 <= Timeline.searchLimit));
  assert.ok(seen.every((at, k) => k === 0 || at >= seen[k - 1]));
  // The window moved to the marker found, and nothing is read again for it.
  assert.ok(Timeline.entry(900));
  const reads = log.reads.length;
  assert.equal(await Timeline.findMarker(500, 1, () => {}, () => false), 900);
  assert.equal(log.reads.length, reads);
  assert.equal(await Timeline.findMarker(900, -1, () => {}, () => false), 3);
  assert.equal(await Timeline.findMarker(900, 1, () => {}, () => false), null);
  assert.equal(await Timeline.findMarker(3, -1, () => {}, () => false), null);
});

test("a cancelled search stops after its current read", async () => {
  const log = source(1000, [999]);
  Timeline.reset(log, 1, 1000);
  await Timeline.ensure(1);
  assert.equal(await Timeline.findMarker(1, 1, () => {}, () => true), null);
  assert.equal(log.reads.length, 2);
});

test("a failed revision is a marker", () => {
  Timeline.reset(source(10), 1, 10);
  Timeline.fail(4, "the result differs");
  assert.deepEqual(Timeline.markerRevisions, [4]);
  assert.equal(Timeline.failures.get(4), "the result differs");
});
