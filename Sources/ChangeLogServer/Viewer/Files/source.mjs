// Where the viewer's revisions come from: the server's routes (`/api/log`, `/api/revisions`,
// `/api/subscribe`, every request with the token when there is one) or the revision lines embedded
// in a static page by `replay view`. Both answer the same questions: the range held, the lines of a
// range (for the timeline's windows), the same with their snapshots (for the checks), one
// revision with the one before it, the text of a range to export, an item's life, the ids that hold a text and the changes between two revisions.

import { fetchJSON, fetchText, streamLines } from "./http.mjs";
import { Api } from "./api.mjs";
import { Life } from "./life.mjs";
import { EventStream } from "./sse.mjs";

export const Source = {};

Source.server = {
  name: "server",
  label: "live from replay serve",
  live: true,
  // The log's range: { oldest, latest }, latest 0 for an empty log.
  async info() {
    const log = await fetchJSON("api/log");
    return { oldest: log.oldest || 1, latest: log.latest };
  },
  // Calls `each` with the lines of revisions from..to, without their snapshots.
  range(from, to, each) {
    return streamLines("api/revisions?from=" + from + "&to=" + to + "&changes-only=1", each);
  },
  // Calls `each` with the lines of revisions from..to, with their snapshots.
  lines(from, to, each) { return streamLines("api/revisions?from=" + from + "&to=" + to, each); },
  // The line of `revision` and, when the log still holds it, the line before it.
  async pair(revision, oldest) {
    if (revision - 1 >= oldest) {
      const lines = [];
      await streamLines("api/revisions?from=" + (revision - 1) + "&to=" + revision, line => lines.push(line));
      return { previous: lines[0], line: lines[1] };
    }
    return { previous: null, line: await fetchJSON("api/revisions/" + revision) };
  },
  line(revision) { return fetchJSON("api/revisions/" + revision); },
  exportText(from, to) { return fetchText("api/revisions?from=" + from + "&to=" + to); },
  itemHistory(id) { return Api.itemHistory(id); },
  search(text, limit) { return Api.search(text, limit); },
  compare(from, to) { return Api.compare(from, to); },
  // Live lines from `from` on, without snapshots, through the fetch-based event stream.
  subscribe(from, handlers) {
    return EventStream.open("api/subscribe?from=" + from, {
      event: event => { if (event.type === "revision") handlers.line(JSON.parse(event.data)); },
      opened: handlers.opened, reconnecting: handlers.reconnecting, failed: handlers.failed
    });
  }
};

// A page written by `replay view`: its revision lines sit in a script element, the first of
// them possibly the revision before the range (for the rows its first revision deleted).
Source.embedded = function (node) {
  const texts = node.textContent.split("\n").filter(text => text.trim().length > 0);
  return Source.lines(texts.map(text => JSON.parse(text)), Number(node.getAttribute("data-from")),
                      Number(node.getAttribute("data-to")), "from a file written by replay view", texts);
};

// Revision lines held by the page (`from` to `to`, possibly with the one before `from`), from a
// static page or a dropped file: the same questions answered from them, the history questions by
// reading the lines (`compare` needs the server). `texts`, when given, are the lines as written,
// which the export gives back as they were.
Source.lines = function (list, from, to, label, texts) {
  const lines = new Map(list.map(line => [line.revision, line]));
  const written = new Map(list.map((line, k) => [line.revision, texts ? texts[k] : JSON.stringify(line)]));
  const held = () => list.filter(line => line.revision >= from && line.revision <= to);
  return {
    name: "file",
    label,
    live: false,
    async info() { return { oldest: from, latest: to }; },
    async range(first, last, each) {
      for (let r = Math.max(first, from); r <= Math.min(last, to); r += 1) if (lines.has(r)) each(lines.get(r));
    },
    lines(first, last, each) { return this.range(first, last, each); },
    async pair(revision) {
      if (!lines.has(revision)) throw new Error("revision " + revision + " is not in this file (" + from + " to " + to + ")");
      return { previous: lines.get(revision - 1) || null, line: lines.get(revision) };
    },
    async line(revision) { return (await this.pair(revision)).line; },
    async exportText(first, last) {
      const out = [];
      for (let r = first; r <= last; r += 1) if (lines.has(r)) out.push(written.get(r) + "\n");
      return out.join("");
    },
    async itemHistory(id) {
      const before = lines.get(from - 1);
      return { id, events: Life.scan(held(), id, before ? before.snapshot : null) };
    },
    async search(text, limit) { return Life.searchLines(held(), text, limit); },
    async compare() { throw new Error("comparing two revisions needs replay serve (this page reads a file)"); }
  };
};
