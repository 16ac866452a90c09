// The viewer's text/event-stream parser, as the WHATWG HTML standard defines the format: fields,
// comments, CRLF, LF and CR line ends, events dispatched by a blank line, ids and retry kept
// across connections, whatever the chunks the text arrives in.
import assert from "node:assert/strict";
import { test } from "node:test";
import { EventStream } from "../../Sources/ChangeLogServer/Viewer/Files/sse.mjs";

// Feeds `chunks` to a new parser, then ends the stream; returns what it saw and its state.
function parse(chunks, state = { idBuffer: "", lastEventId: "", retry: 3000 }) {
  const seen = [];
  const parser = EventStream.parser(state, {
    event: e => seen.push(e.type + "|" + e.data + "|" + e.lastEventId),
    comment: c => seen.push(":" + c)
  });
  for (const chunk of chunks) parser.push(chunk);
  parser.end();
  return { seen, state };
}

const mixed = "retry: 1500\n\nid: 1\nevent: revision\ndata: {\"a\":1}\n\n: keep-alive\n\n"
  + "id: 2\r\nevent: revision\r\ndata: x\r\ndata:y\r\rid: 3\u0000\ndata\n\nretry: soon\nno colon\ndata:  z\n\ndata: dropped\n";
const expected = ["revision|{\"a\":1}|1", ":keep-alive", "revision|x\ny|2", "message||2", "message| z|2"];

test("fields, comments and line ends as the standard reads them", () => {
  const { seen, state } = parse([mixed]);
  assert.deepEqual(seen, expected);
  assert.equal(state.retry, 1500);
  assert.equal(state.lastEventId, "2");
});

test("the same events whatever the chunks, a CRLF split between two chunks included", () => {
  for (let size = 1; size <= 7; size += 1) {
    const chunks = [];
    for (let k = 0; k < mixed.length; k += size) chunks.push(mixed.slice(k, k + size));
    assert.deepEqual(parse(chunks).seen, expected, "chunks of " + size);
  }
  // Split at every position into two chunks.
  for (let k = 0; k <= mixed.length; k += 1) {
    assert.deepEqual(parse([mixed.slice(0, k), mixed.slice(k)]).seen, expected, "split at " + k);
  }
});

test("a CR at the end of the stream ends its line; an event not ended by a blank line is dropped", () => {
  assert.deepEqual(parse(["data: a\r\r"]).seen, ["message|a|"]);
  assert.deepEqual(parse(["data: a\n"]).seen, []);
  assert.deepEqual(parse(["data: a"]).seen, []);
});

test("the last event id carries over to the next connection, an empty id clears it", () => {
  const state = { idBuffer: "", lastEventId: "", retry: 3000 };
  parse(["id: 7\ndata: a\n\n"], state);
  assert.equal(state.lastEventId, "7");
  state.idBuffer = state.lastEventId;
  const { seen } = parse(["data: b\n\nid\ndata: c\n\n"], state);
  assert.deepEqual(seen, ["message|b|7", "message|c|"]);
  assert.equal(state.lastEventId, "");
});

test("retry takes only ASCII digits; a blank line with no data dispatches nothing but sets the id", () => {
  const { seen, state } = parse(["retry: 12a\nretry: -5\nretry: 250\nid: 9\n\n"]);
  assert.deepEqual(seen, []);
  assert.equal(state.retry, 250);
  assert.equal(state.lastEventId, "9");
});

test("an event type resets after each event; data lines join with newlines, a lone space is stripped once", () => {
  const { seen } = parse(["event: a\ndata:  one\ndata:two\n\ndata: three\n\n"]);
  assert.deepEqual(seen, ["a| one\ntwo|", "message|three|"]);
});
