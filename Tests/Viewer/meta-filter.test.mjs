// The timeline's metadata filter in the tool's --where syntax, and the history routes' addresses
// (ids and titles as percent-encoded path segments).
import assert from "node:assert/strict";
import { test } from "node:test";
import { Api } from "../../Sources/ChangeLogServer/Viewer/Files/api.mjs";
import { MetaFilter } from "../../Sources/ChangeLogServer/Viewer/Files/meta-filter.mjs";

test("parse reads key=value and key~substring clauses, spaces apart, quotes holding spaces", () => {
  assert.deepEqual(MetaFilter.parse("job=sync  step~1").clauses,
    [{ key: "job", op: "=", value: "sync" }, { key: "step", op: "~", value: "1" }]);
  assert.deepEqual(MetaFilter.parse("job=\"sync job\" \"note~a \\\"b\\\"\"").clauses,
    [{ key: "job", op: "=", value: "sync job" }, { key: "note", op: "~", value: "a \"b\"" }]);
  assert.deepEqual(MetaFilter.parse("url=a=b~c").clauses, [{ key: "url", op: "=", value: "a=b~c" }]);
  assert.deepEqual(MetaFilter.parse("empty=").clauses, [{ key: "empty", op: "=", value: "" }]);
  assert.deepEqual(MetaFilter.parse("  ").clauses, []);
});

test("parse says which clause is wrong and why", () => {
  assert.equal(MetaFilter.parse("job=a nokey").error, "clause 2 (\"nokey\") has neither = nor ~: write key=value or key~substring");
  assert.equal(MetaFilter.parse("=x").error, "clause 1 (\"=x\") has no key before its =");
  assert.equal(MetaFilter.parse("a=\"open").error, "a double quote is not closed");
});

test("matches holds when every clause does: = exactly, ~ as a substring, a missing key never", () => {
  const meta = { job: "sync job", step: "12" };
  const holds = text => MetaFilter.matches(MetaFilter.parse(text).clauses, meta);
  assert.ok(holds(""));
  assert.ok(holds("job=\"sync job\""));
  assert.ok(!holds("job=sync"));
  assert.ok(holds("job~sync step~2"));
  assert.ok(!holds("job~sync step~3"));
  assert.ok(!holds("job~Sync"));
  assert.ok(!holds("other~"));
  assert.ok(MetaFilter.matches([{ key: "k", op: "=", value: "" }], { k: "" }));
  assert.ok(!MetaFilter.matches([{ key: "k", op: "~", value: "" }], undefined));
});

test("text writes clauses that parse reads back", () => {
  for (const text of ["job=a step~1", "job=\"sync job\"", "\"n~a \\\"b\\\" \\\\\""]) {
    const { clauses } = MetaFilter.parse(text);
    assert.deepEqual(MetaFilter.parse(MetaFilter.text(clauses)).clauses, clauses, text);
  }
});

test("ids and titles with spaces, slashes, quotes and non-ASCII are one percent-encoded path segment", () => {
  assert.equal(Api.urls.itemHistory("a/b \"q\" '\u00e9' (1)*!"),
    "api/items/a%2Fb%20%22q%22%20%27%C3%A9%27%20%281%29%2A%21/history");
  assert.equal(Api.urls.sectionHistory("To do/\u4eca\u65e5"), "api/sections/To%20do%2F%E4%BB%8A%E6%97%A5/history");
  assert.equal(decodeURIComponent(Api.urls.itemHistory("x/\u{1F600}").split("/")[2]), "x/\u{1F600}");
});

test("history queries carry the range, the times and the where clauses; search and compare their parameters", () => {
  assert.equal(Api.urls.itemHistory("i", { from: 3, to: 9, since: "-2h",
    where: MetaFilter.parse("job=\"sync job\" n~&").clauses }),
    "api/items/i/history?from=3&to=9&since=-2h&where=job%3Dsync%20job&where=n~%26");
  assert.equal(Api.urls.itemHistory("i", {}), "api/items/i/history");
  assert.equal(Api.urls.search("a/b c"), "api/items?search=a%2Fb%20c&limit=50");
  assert.equal(Api.urls.search("x", 1000), "api/items?search=x&limit=1000");
  assert.equal(Api.urls.compare(9, 3), "api/compare?from=9&to=3");
});
