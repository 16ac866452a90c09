extension ViewerPage {
    /// Where the viewer's revisions come from, in JavaScript: the server's routes
    /// (`/api/log`, `/api/revisions`, `/api/subscribe`) or the revision lines embedded in a
    /// static page by `replay view`.
    static let sourceScript = #"""
        const Source = {};

        async function fetchJSON(url) {
          const response = await fetch(url);
          const text = await response.text();
          if (!response.ok) {
            let message = text;
            try { message = JSON.parse(text).error; } catch (e) { /* not JSON: the text as it is */ }
            throw new Error(url + ": " + response.status + " " + message);
          }
          return JSON.parse(text);
        }

        async function fetchText(url) {
          const response = await fetch(url);
          const text = await response.text();
          if (!response.ok) throw new Error(url + ": " + response.status + " " + text);
          return text;
        }

        // Calls `each` with every line of a JSON Lines response, as it arrives.
        async function streamLines(url, each) {
          const response = await fetch(url);
          if (!response.ok) throw new Error(url + ": " + response.status + " " + await response.text());
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

        Source.server = {
          name: "server",
          live: true,
          // Fills the timeline from the revision lines without their snapshots.
          async load() {
            const log = await fetchJSON("api/log");
            Timeline.reset(log.oldest || 1);
            if (log.latest === 0) return;
            await streamLines("api/revisions?from=" + log.oldest + "&to=" + log.latest + "&changes-only=1", Timeline.add);
          },
          // The line of `revision` and, when the log still holds it, the line before it.
          async pair(revision) {
            if (revision - 1 >= Timeline.oldest) {
              const lines = [];
              await streamLines("api/revisions?from=" + (revision - 1) + "&to=" + revision, line => lines.push(line));
              return { previous: lines[0], line: lines[1] };
            }
            return { previous: null, line: await fetchJSON("api/revisions/" + revision) };
          },
          line(revision) { return fetchJSON("api/revisions/" + revision); },
          exportText(from, to) { return fetchText("api/revisions?from=" + from + "&to=" + to); },
          subscribe(from, onLine, onError) {
            const events = new EventSource("api/subscribe?from=" + from);
            events.addEventListener("revision", event => onLine(JSON.parse(event.data)));
            events.onerror = () => onError(events.readyState === EventSource.CLOSED);
            return events;
          }
        };

        // A page written by `replay view`: its revision lines sit in a script element, the first of
        // them possibly the revision before the range (for the rows its first revision deleted).
        Source.embedded = function (node) {
          const texts = new Map(), lines = new Map();
          for (const text of node.textContent.split("\n")) {
            if (text.trim().length === 0) continue;
            const line = JSON.parse(text);
            texts.set(line.revision, text);
            lines.set(line.revision, line);
          }
          const from = Number(node.getAttribute("data-from")), to = Number(node.getAttribute("data-to"));
          return {
            name: "file",
            live: false,
            async load() {
              Timeline.reset(from);
              for (let r = from; r <= to; r += 1) if (lines.has(r)) Timeline.add(lines.get(r));
            },
            async pair(revision) {
              if (!lines.has(revision)) throw new Error("revision " + revision + " is not in this file (" + from + " to " + to + ")");
              return { previous: lines.get(revision - 1) || null, line: lines.get(revision) };
            },
            async line(revision) { return (await this.pair(revision)).line; },
            async exportText(from, to) {
              const out = [];
              for (let r = from; r <= to; r += 1) out.push(texts.get(r) + "\n");
              return out.join("");
            }
          };
        };
        """#
}
