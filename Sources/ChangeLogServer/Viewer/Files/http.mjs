// Requests to the server, with the token when there is one: a refused one is an `HTTPError`.

import { Auth } from "./auth.mjs";

// A refused request: its status (401 asks for a token) and the server's message.
export class HTTPError extends Error {
  constructor(url, status, message) {
    super(url + ": " + status + " " + message);
    this.status = status;
  }
  static async from(url, response) {
    const text = await response.text();
    let message = text;
    try { message = JSON.parse(text).error; } catch (e) { /* not JSON: the text as it is */ }
    return new HTTPError(url, response.status, message);
  }
}

export async function request(url) {
  const response = await fetch(url, { headers: Auth.headers(), cache: "no-store" });
  if (!response.ok) throw await HTTPError.from(url, response);
  return response;
}

export async function fetchJSON(url) { return JSON.parse(await (await request(url)).text()); }
export async function fetchText(url) { return (await request(url)).text(); }

// Calls `each` with every line of a JSON Lines response, as it arrives.
export async function streamLines(url, each) {
  const response = await request(url);
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let pending = "";
  for (;;) {
    const { value, done } = await reader.read();
    pending += decoder.decode(value || new Uint8Array(), { stream: !done });
    let newline;
    while ((newline = pending.indexOf("\n")) >= 0) {
      const line = pending.slice(0, newline);
      pending = pending.slice(newline + 1);
      if (line.length > 0) each(JSON.parse(line));
    }
    if (done) break;
  }
  if (pending.length > 0) each(JSON.parse(pending));
}
