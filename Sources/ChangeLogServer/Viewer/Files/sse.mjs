// Server-Sent Events read with `fetch`: `EventSource` cannot send an `Authorization` header, so
// the viewer reads `/api/subscribe` as a streamed body, parses it as the WHATWG HTML standard
// defines the `text/event-stream` format (`id`, `event`, `data`, `retry`, comments; lines ended by
// CRLF, LF or CR), and reconnects after the retry interval with `Last-Event-ID`, with a token or
// without one.

import { Auth } from "./auth.mjs";
import { HTTPError } from "./http.mjs";

export const EventStream = {};

// A parser fed text as it arrives; `state` carries the last event id and the retry interval
// across connections. Calls `handlers.event({ type, data, lastEventId })` per dispatched
// event and `handlers.comment(text)` per comment line.
EventStream.parser = function (state, handlers) {
  let pending = "", data = "", type = "";
  function field(line) {
    if (line.startsWith(":")) { handlers.comment(line.slice(1).replace(/^ /, "")); return; }
    const colon = line.indexOf(":");
    const name = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (name === "event") type = value;
    else if (name === "data") data += value + "\n";
    else if (name === "id") { if (!value.includes("\u0000")) state.idBuffer = value; }
    else if (name === "retry") { if (/^[0-9]+$/.test(value)) state.retry = Number(value); }
  }
  function dispatch() {
    state.lastEventId = state.idBuffer;
    if (data.length === 0) { type = ""; return; }
    const event = { type: type.length > 0 ? type : "message", data: data.slice(0, -1), lastEventId: state.lastEventId };
    data = "";
    type = "";
    handlers.event(event);
  }
  return {
    push(text) {
      pending += text;
      for (;;) {
        const end = pending.search(/[\r\n]/);
        if (end < 0) return;
        // A CR at the end of what arrived may be the first half of a CRLF: wait for more.
        if (pending[end] === "\r" && end === pending.length - 1) return;
        const line = pending.slice(0, end);
        pending = pending.slice(end + (pending[end] === "\r" && pending[end + 1] === "\n" ? 2 : 1));
        if (line.length === 0) dispatch(); else field(line);
      }
    },
    // The stream ended: a lone CR ends its line; an event not ended by a blank line is dropped.
    end() {
      if (pending.endsWith("\r")) {
        const line = pending.slice(0, -1);
        pending = "";
        if (line.length === 0) dispatch(); else field(line);
      }
      pending = "";
      data = "";
      type = "";
    }
  };
};

export function sleep(ms) { return new Promise(resolve => setTimeout(resolve, ms)); }

// Follows `url`, reconnecting when the stream ends or the network fails, after the server's
// `retry` interval, with `Last-Event-ID` set to the last event id received. A 4xx answer (or
// an answer that is not an event stream) stops it: reconnecting cannot help. Handlers:
// event(event), opened(), reconnecting(reason, ms), failed(error). Returns { close() }.
EventStream.open = function (url, handlers) {
  const state = { idBuffer: "", lastEventId: "", retry: 3000 };
  let closed = false, controller = null;
  async function connection() {
    controller = new AbortController();
    const headers = Auth.headers(state.lastEventId.length > 0 ? { "Last-Event-ID": state.lastEventId } : {});
    const response = await fetch(url, { headers, cache: "no-store", signal: controller.signal });
    if (!response.ok && response.status < 500) return { failed: await HTTPError.from(url, response) };
    if (!response.ok) throw await HTTPError.from(url, response);
    const kind = (response.headers.get("content-type") || "").split(";")[0].trim();
    if (kind !== "text/event-stream") return { failed: new Error(url + ": the answer is " + kind + ", not an event stream") };
    handlers.opened();
    let said = null;
    state.idBuffer = state.lastEventId;
    const parser = EventStream.parser(state, { event: handlers.event, comment: text => { if (text.startsWith("closed")) said = text; } });
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    for (;;) {
      const { value, done } = await reader.read();
      if (closed) { reader.cancel().catch(() => {}); return {}; }
      if (done) break;
      parser.push(decoder.decode(value, { stream: true }));
    }
    parser.push(decoder.decode());
    parser.end();
    return { ended: said !== null ? said : "the server ended the stream" };
  }
  (async () => {
    while (!closed) {
      let reason;
      try {
        const outcome = await connection();
        if (closed) return;
        if (outcome.failed) { handlers.failed(outcome.failed); return; }
        reason = outcome.ended;
      } catch (error) {
        if (closed) return;
        reason = error.message;
      }
      handlers.reconnecting(reason, state.retry);
      await sleep(state.retry);
    }
  })();
  return { close() { closed = true; if (controller) controller.abort(); } };
};
