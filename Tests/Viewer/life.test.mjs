// An item's life over a history with known answers (Tests/Viewer/fixtures/life-history.jsonl,
// whose item leaves and comes back, goes with a deleted section, moves across sections and
// changes summary in the same revision, and leaves a deleted section for another one): the
// events as the history route answers them (life-history.item.json), stepping through them,
// told in words; and the search at a revision and across the lines.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { Format } from "../../Sources/ChangeLogServer/Viewer/Files/format.mjs";
import { Life } from "../../Sources/ChangeLogServer/Viewer/Files/life.mjs";

const read = name => readFileSync(new URL("fixtures/" + name, import.meta.url), "utf8");
const lines = read("life-history.jsonl").split("\n").filter(l => l.length > 0).map(l => JSON.parse(l));
const expected = JSON.parse(read("life-history.item.json"));

test("the fixture's lines are a valid history: each revision's changes give its snapshot", () => {
  let previous = { sections: [] };
  for (const line of lines) {
    assert.deepEqual(Format.apply(previous, line.changes), line.snapshot, "revision " + line.revision);
    previous = line.snapshot;
  }
});

test("scanning the lines gives the item's events exactly as the history route's contract shapes them", () => {
  assert.deepEqual(Life.scan(lines, expected.id), expected.events);
  for (const event of expected.events) {
    assert.deepEqual(Object.keys(event).sort(), ["after", "before", "kinds", "meta", "revision", "summaryAfter",
      "summaryBefore", "time", "withSection"]);
  }
});

test("an item never stored has no events; an item only moved along with its section has none", () => {
  assert.deepEqual(Life.scan(lines, "never"), []);
  assert.deepEqual(Life.scan(lines, "y").map(e => [e.revision, e.kinds, e.withSection]),
    [[1, ["inserted"], "inserted"], [3, ["deleted"], "deleted"]]);
  assert.deepEqual(Life.scan(lines, "x").map(e => [e.revision, e.kinds]), [[1, ["inserted"]], [6, ["updated"]]]);
});

test("a scan that starts after revision 1 needs the snapshot before it, else its first line tells nothing", () => {
  assert.deepEqual(Life.scan(lines.slice(2), expected.id).map(e => e.revision), [4, 5, 7]);
  assert.deepEqual(Life.scan(lines.slice(2), expected.id, lines[1].snapshot).map(e => e.revision), [3, 4, 5, 7]);
});

test("step goes to the next and previous event from any revision, null past the ends", () => {
  const events = expected.events;
  assert.equal(Life.step(events, 1, 1), 2);
  assert.equal(Life.step(events, 5, 1), 7);
  assert.equal(Life.step(events, 6, -1), 5);
  assert.equal(Life.step(events, 7, 1), null);
  assert.equal(Life.step(events, 1, -1), null);
  assert.equal(Life.step([], 3, 1), null);
});

test("describe tells each event in words, with the sections, paths and summaries", () => {
  const words = expected.events.map(Life.describe);
  assert.equal(words[0], "inserted at \u201cPinned / \"top\"\u201d [0, 1] with its section");
  assert.equal(words[1], "moved from \u201cPinned / \"top\"\u201d [0, 1] to \u201cToday\u201d [1, 0]; "
    + "updated: \u201cs1\u201d to \u201cs2\u201d");
  assert.equal(words[2], "deleted from \u201cToday\u201d [1, 0] with its section");
  assert.equal(words[4], "moved from \u201cLater\u201d [1, 0] to \u201cPinned / \"top\"\u201d [0, 0], leaving its deleted section");
  assert.equal(Life.describe({ kinds: ["moved"], before: { index: 2 }, after: { index: 0 } }), "moved from at 2 to at 0");
});

test("findAt finds items by id or summary, ignoring case, in the list's order", () => {
  const snapshot = lines[1].snapshot;
  assert.deepEqual(Life.findAt(snapshot, "\u00c9").map(f => [f.id, f.section, f.indexPath]),
    [[expected.id, "Today", [1, 0]]]);
  assert.deepEqual(Life.findAt(snapshot, "X1").map(f => f.id), ["x"]);
  assert.deepEqual(Life.findAt(snapshot, ""), []);
  assert.deepEqual(Life.findAt(lines[0].snapshot, "", 5), []);
  assert.equal(Life.findAt(lines[0].snapshot, "s", 1).length, 1);
});

test("searchLines answers as the search route: ids holding the text, their first and last revision, by id", () => {
  assert.deepEqual(Life.searchLines(lines, "A/B"), [{ id: expected.id, firstRevision: 1, lastRevision: 7 }]);
  assert.deepEqual(Life.searchLines(lines, "").map(i => i.id), [expected.id, "x", "y"]);
  assert.deepEqual(Life.searchLines(lines, "", 2).map(i => i.id), [expected.id, "x"]);
});
