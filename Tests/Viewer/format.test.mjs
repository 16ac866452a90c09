// The viewer's format module: its `apply` over the conformance cases that the Swift `apply`
// runs too (Tests/Fixtures/apply-conformance/cases.jsonl, read by ApplyConformanceTests), and the
// completion, counts and markers the timeline shows.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { Format } from "../../Sources/ChangeLogServer/Viewer/Files/format.mjs";

const file = new URL("../Fixtures/apply-conformance/cases.jsonl", import.meta.url);
const cases = readFileSync(file, "utf8").split("\n").filter(line => line.length > 0).map((line, k) => {
  try { return JSON.parse(line); } catch (error) { throw new Error(file.pathname + ":" + (k + 1) + ": " + error.message); }
});

test("the conformance file holds valid and invalid cases", () => {
  assert.ok(cases.filter(c => c.new).length >= 10);
  assert.ok(cases.filter(c => c.error).length >= 35);
});

for (const c of cases) {
  if (c.new) {
    test("apply: " + c.name, () => {
      const applied = Format.apply(structuredClone(c.old), structuredClone(c.changes));
      assert.deepEqual(applied, c.new);
      assert.ok(Format.equal(applied, c.new));
    });
  } else {
    test("apply refuses: " + c.name, () => {
      // The Swift apply says: c.error.message. The JavaScript one names the rule in its own words.
      assert.throws(() => Format.apply(structuredClone(c.old), structuredClone(c.changes)), error => {
        assert.ok(error instanceof Error && error.message.length > 0, String(error));
        return true;
      }, "expected an error like the Swift one: " + c.error.message);
    });
  }
}

test("apply leaves its arguments as they were", () => {
  const c = cases.find(c => c.new && c.changes.items.moved.length > 0);
  const old = structuredClone(c.old), changes = structuredClone(c.changes);
  Format.apply(old, changes);
  assert.deepEqual(old, c.old);
  assert.deepEqual(changes, c.changes);
});

test("complete gives version 1 changes (no sections.updated) and missing lists empty lists", () => {
  const empty = { deleted: [], inserted: [], moved: [], updated: [] };
  assert.deepEqual(Format.complete(undefined), { sections: empty, items: empty });
  assert.deepEqual(Format.complete({ sections: { deleted: [1], inserted: [], moved: [] } }),
    { sections: { ...empty, deleted: [1] }, items: empty });
});

test("counts add sections and items of each kind", () => {
  const c = Format.complete({
    sections: { deleted: [0], inserted: [{ index: 0, title: "N", items: [] }], updated: [{ from: 1, to: 1, summary: "s" }] },
    items: { deleted: [[1, 0], [1, 1]], moved: [{ from: [1, 2], to: [1, 0] }], inserted: [{ at: [1, 1], id: "x" }] }
  });
  assert.deepEqual(Format.counts(c), { inserted: 2, deleted: 3, moved: 1, updated: 1, total: 7 });
});

test("markers: section moves, moves across sections (after section arithmetic), section deletions", () => {
  const none = Format.complete({});
  assert.deepEqual(Format.markers(none), []);
  // Section 0 is deleted, so O section 1 is N section 0: a move from [1, 0] to [0, 1] stays in its section.
  const within = Format.complete({ sections: { deleted: [0] }, items: { moved: [{ from: [1, 0], to: [0, 1] }] } });
  assert.deepEqual(Format.markers(within), ["section-delete"]);
  const across = Format.complete({ items: { moved: [{ from: [1, 0], to: [0, 1] }] } });
  assert.deepEqual(Format.markers(across), ["cross-section-move"]);
  const moved = Format.complete({ sections: { moved: [{ from: 0, to: 2 }] } });
  assert.deepEqual(Format.markers(moved), ["section-move"]);
});

test("sectionTarget follows deletions, insertions and moves", () => {
  const c = Format.complete({ sections: { deleted: [0], inserted: [{ index: 0, title: "N", items: [] }], moved: [{ from: 3, to: 1 }] } });
  // O: 0 deleted, 1, 2, 3 moved to 1. N slots: [N, O3, _, _]: O1 at 2, O2 at 3.
  assert.equal(Format.sectionTarget(c, 1), 2);
  assert.equal(Format.sectionTarget(c, 2), 3);
  assert.equal(Format.sectionTarget(c, 3), 1);
});

test("equal tells an absent summary from any string, and compares order", () => {
  const a = { sections: [{ title: "A", items: [{ id: "a" }] }] };
  assert.ok(Format.equal(a, structuredClone(a)));
  assert.ok(!Format.equal(a, { sections: [{ title: "A", items: [{ id: "a", summary: "" }] }] }));
  assert.ok(!Format.equal(a, { sections: [{ title: "A", summary: "", items: [{ id: "a" }] }] }));
  assert.ok(!Format.equal({ sections: [{ title: "A", items: [{ id: "a" }, { id: "b" }] }] },
    { sections: [{ title: "A", items: [{ id: "b" }, { id: "a" }] }] }));
});

test("countsApart keeps sections and items apart, as replay log prints them", async () => {
  const { TimelineView } = await import("../../Sources/ChangeLogServer/Viewer/Files/timeline-view.mjs");
  const c = Format.complete({ sections: { deleted: [0], moved: [{ from: 1, to: 0 }] },
                              items: { inserted: [{ at: [0, 0], id: "a" }], updated: [{ from: [0, 1], to: [0, 2] }] } });
  const apart = Format.countsApart(c);
  assert.deepEqual(apart, { sections: { inserted: 0, deleted: 1, moved: 1, updated: 0 },
                            items: { inserted: 1, deleted: 0, moved: 0, updated: 1 } });
  assert.equal(TimelineView.countsText(apart), "sections +0 -1 ~1 *0  items +1 -0 ~0 *1");
});
