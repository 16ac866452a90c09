// The search box and the chosen item's life: items whose id or summary holds the text at the
// revision shown (from its snapshot) and ids across the history (from the source), and, once one
// is chosen, its events as marks under the scrubber, as rows marked on the timeline and as a list
// in words, with `[` and `]` to step to the previous and next mark.

import { element } from "./list.mjs";
import { Life } from "./life.mjs";
import { Timeline } from "./timeline.mjs";
import { TimelineView } from "./timeline-view.mjs";

// `host`: { source(), current(), seek(revision), status(text, isError), redraw(), failed(error) }.
export const LifeView = { host: null, id: null, events: [], token: 0 };

const byId = id => document.getElementById(id);

LifeView.bind = function (host) {
  LifeView.host = host;
  const box = byId("search");
  box.addEventListener("input", () => LifeView.search(box.value));
  box.addEventListener("keydown", event => {
    if (event.key === "Escape") { box.value = ""; LifeView.search(""); box.blur(); }
    if (event.key === "Enter") {
      const first = byId("search-results").querySelector("[data-result-id]");
      if (first) LifeView.choose(first.getAttribute("data-result-id"));
    }
  });
  byId("life-close").addEventListener("click", () => LifeView.choose(null));
};

function resultRow(id, detail) {
  const row = element("li", "result");
  row.setAttribute("data-result-id", id);
  row.append(element("code", "id", id), element("span", "detail", detail));
  row.addEventListener("click", () => LifeView.choose(id));
  return row;
}

// Lists the items that hold `text`: at the revision shown at once, across the history when the
// source answers (a later search overtakes an earlier one).
LifeView.search = async function (text) {
  const token = ++LifeView.token, here = byId("search-here"), across = byId("search-history");
  const results = byId("search-results");
  results.hidden = text.length === 0;
  if (text.length === 0) return;
  const current = LifeView.host.current();
  const found = current ? Life.findAt(current.snapshot, text, 20) : [];
  here.replaceChildren(...found.map(f => resultRow(f.id, "in " + (f.section === "" ? "(untitled)" : f.section)
    + (f.summary !== undefined ? ": " + f.summary : ""))));
  if (found.length === 0) here.append(element("li", "none", "none at revision " + (current ? current.revision : "")));
  across.replaceChildren(element("li", "none", "searching\u2026"));
  try {
    const items = await LifeView.host.source().search(text, 20);
    if (token !== LifeView.token) return;
    across.replaceChildren(...items.map(i => resultRow(i.id, "revisions " + i.firstRevision + " to " + i.lastRevision)));
    if (items.length === 0) across.append(element("li", "none", "no id holds it"));
  } catch (error) {
    if (token !== LifeView.token || await LifeView.host.failed(error)) return;
    across.replaceChildren(element("li", "none", "could not search the history: " + error.message));
  }
};

// Chooses item `id` (null: none): reads its life and draws it.
LifeView.choose = async function (id) {
  const token = ++LifeView.token;
  byId("search-results").hidden = true;
  LifeView.id = id;
  LifeView.events = [];
  if (id !== null) {
    try {
      const history = await LifeView.host.source().itemHistory(id);
      if (token !== LifeView.token) return;
      LifeView.events = history.events || [];
    } catch (error) {
      if (token !== LifeView.token || await LifeView.host.failed(error)) return;
      LifeView.host.status("Could not read the life of " + JSON.stringify(id) + ": " + error.message, true);
    }
  }
  LifeView.draw();
  LifeView.host.redraw();
};

// The lens the timeline's list draws the life with: event kinds by revision.
LifeView.life = function () {
  return new Map(LifeView.events.map(e => [e.revision, e.kinds.join(", ") + (e.withSection ? " with its section" : "")]));
};

// The panel of the life, its marks under the scrubber, and the item highlighted in the list.
LifeView.draw = function () {
  const panel = byId("life"), marks = byId("life-marks");
  panel.hidden = LifeView.id === null;
  panel.setAttribute("data-life-id", LifeView.id === null ? "" : LifeView.id);
  byId("life-id").textContent = LifeView.id === null ? "" : LifeView.id;
  const events = byId("life-events");
  events.replaceChildren(...LifeView.events.map(e => {
    const row = element("li", "life-event");
    row.setAttribute("data-life-event", String(e.revision));
    const link = element("a", null, "revision " + e.revision);
    link.href = "#rev=" + e.revision;
    row.append(link, element("span", "life-words", " " + Life.describe(e)));
    return row;
  }));
  if (LifeView.id !== null && LifeView.events.length === 0) events.append(element("li", "none", "no revision touched it"));
  marks.replaceChildren(...LifeView.events.filter(e => e.revision >= Timeline.oldest && e.revision <= Timeline.latest)
    .map(e => {
      const mark = element("span", "life-mark " + e.kinds[0]);
      mark.style.left = TimelineView.scrubberPercent(e.revision) + "%";
      mark.title = "revision " + e.revision + ": " + Life.describe(e);
      mark.setAttribute("data-life-mark", String(e.revision));
      mark.addEventListener("click", () => LifeView.host.seek(e.revision));
      return mark;
    }));
  LifeView.highlight();
};

// Marks the chosen item's row in the list shown.
LifeView.highlight = function () {
  for (const row of document.querySelectorAll("#list .life-item")) row.classList.remove("life-item");
  if (LifeView.id === null) return;
  const row = byId("list").querySelector("[data-item-id=\"" + CSS.escape(LifeView.id) + "\"]");
  if (row) row.classList.add("life-item");
  const current = LifeView.host.current();
  for (const row of document.querySelectorAll("#life-events .chosen")) row.classList.remove("chosen");
  const event = current && byId("life-events").querySelector("[data-life-event=\"" + current.revision + "\"]");
  if (event) event.classList.add("chosen");
};

// Goes to the chosen item's next (1) or previous (-1) mark from the revision shown.
LifeView.step = function (direction) {
  const current = LifeView.host.current();
  if (LifeView.id === null || !current) return;
  const revision = Life.step(LifeView.events, current.revision, direction);
  if (revision === null) {
    LifeView.host.status("No " + (direction > 0 ? "later" : "earlier") + " mark of " + JSON.stringify(LifeView.id)
      + " than revision " + current.revision);
    return;
  }
  LifeView.host.seek(revision);
};
