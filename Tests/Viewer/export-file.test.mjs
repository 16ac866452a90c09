// A history exported by `replay export`, dropped on the page: its revision lines read, or an error
// that names the line and says what is wrong with it.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { ExportFile } from "../../Sources/ChangeLogServer/Viewer/Files/export-file.mjs";

const text = readFileSync(new URL("fixtures/life-history.jsonl", import.meta.url), "utf8");

test("an export's lines are read with their range, blank lines passed over", () => {
  const { lines, from, to } = ExportFile.parse(text + "\n\n");
  assert.equal(lines.length, 7);
  assert.deepEqual([from, to], [1, 7]);
  const part = ExportFile.parse(text.split("\n").slice(2, 5).join("\n"));
  assert.deepEqual([part.from, part.to], [3, 5]);
});

test("what is not an export is refused, naming the file and the line", () => {
  const rows = text.split("\n");
  assert.throws(() => ExportFile.parse(rows[0] + "\n{oops", "h.jsonl"), /^Error: h\.jsonl: line 2: not JSON/);
  assert.throws(() => ExportFile.parse("{\"sections\": []}", "s.jsonl"),
    /line 1: no revision number: not a revision line as replay export writes \(this looks like a snapshot line/);
  assert.throws(() => ExportFile.parse("{\"revision\": 3, \"changes\": {}}"), /line 1: revision 3 has no snapshot/);
  assert.throws(() => ExportFile.parse(rows[0] + "\n" + rows[2]), /line 2: revision 3 follows revision 1/);
  assert.throws(() => ExportFile.parse("\n \n", "e.jsonl"), /e\.jsonl: no revision lines/);
  assert.throws(() => ExportFile.parse("[1]"), /line 1: no revision number/);
});

test("read gives a file's text, gunzipping it when it is gzipped", async () => {
  const { gzipSync } = await import("node:zlib");
  assert.equal(await ExportFile.read(new Blob([text])), text);
  assert.equal(await ExportFile.read(new Blob([gzipSync(Buffer.from(text))])), text);
});
