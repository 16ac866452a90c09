// The timeline drawn: the scrubber over the log's whole range with a tick per marked stretch of
// what is known, and the revision list of the window, with a row at each end that reads the next
// chunk. Both are redrawn only when the timeline changed; choosing another revision only moves the
// highlight.

import { element } from "./list.mjs";
import { Timeline } from "./timeline.mjs";

export const TimelineView = {};

// `sections +0 -0 ~0 *0  items +1 -0 ~2 *1`, as `replay log` prints a revision's counts.
function countsText(apart) {
  const group = g => "+" + g.inserted + " -" + g.deleted + " ~" + g.moved + " *" + g.updated;
  return "sections " + group(apart.sections) + "  items " + group(apart.items);
}
// The left edge of `revision`'s place on the scrubber, in percent.
function scrubberPercent(revision) {
  return (revision - Timeline.oldest) / Math.max(1, Timeline.latest - Timeline.oldest) * 100;
}

function metaText(meta) {
  return Object.keys(meta).sort().map(k => k + "=" + meta[k]).join(" ");
}
const markerNames = { "section-move": "moves sections", "cross-section-move": "moves items across sections",
                      "section-delete": "deletes sections" };

// The scrubber's range and ticks: one tick per marked stretch of the timeline, so that a long
// history draws a bounded number of elements.
TimelineView.drawScrubber = function (scrubber, marks, current) {
  scrubber.min = String(Timeline.oldest);
  scrubber.max = String(Math.max(Timeline.latest, Timeline.oldest));
  scrubber.disabled = Timeline.isEmpty();
  if (current !== null) scrubber.value = String(current);
  if (marks.drawnVersion === Timeline.version) return;
  marks.drawnVersion = Timeline.version;
  const span = Math.max(1, Timeline.latest - Timeline.oldest);
  const buckets = new Map();
  for (const revision of Timeline.markerRevisions) {
    const bucket = Math.round((revision - Timeline.oldest) / span * 500);
    const failed = Timeline.failures.has(revision);
    if (!buckets.has(bucket) || failed) buckets.set(bucket, { revision, failed });
  }
  const fragment = document.createDocumentFragment();
  for (const [bucket, tick] of buckets) {
    const node = element("span", tick.failed ? "tick failed" : "tick");
    node.style.left = (bucket / 5) + "%";
    node.title = "revision " + tick.revision;
    if (tick.failed) node.setAttribute("data-failed-revision", String(tick.revision));
    fragment.append(node);
  }
  marks.replaceChildren(fragment);
};

function revisionRow(entry, onChoose, lens) {
  const row = element("li", "revision");
  if (!lens.visible(entry)) row.hidden = true;
  row.setAttribute("data-timeline-revision", String(entry.revision));
  if (entry.counts.total === 0) row.classList.add("empty");
  row.append(element("span", "number", String(entry.revision)));
  row.append(element("span", "time", (entry.time || "").replace("T", " ")));
  row.append(element("span", "counts", countsText(entry.apart)));
  for (const kind of entry.markers) row.append(element("span", "marker " + kind, markerNames[kind]));
  if (Timeline.failures.has(entry.revision)) {
    row.classList.add("failed");
    row.setAttribute("data-failed-revision", String(entry.revision));
    row.append(element("span", "marker failed", "apply failed"));
  }
  const life = lens.life.get(entry.revision);
  if (life) {
    row.classList.add("life");
    row.setAttribute("data-life-revision", String(entry.revision));
    row.append(element("span", "life-badge", life));
  }
  row.append(element("span", "meta", metaText(entry.meta)));
  row.addEventListener("click", () => onChoose(entry.revision));
  return row;
}

// What the list shows besides the timeline: which rows the metadata filter keeps
// (`visible(entry)`), the chosen item's events in words by revision (`life`), and a `key` that
// changes when either does.
TimelineView.plainLens = { visible: () => true, life: new Map(), key: "" };

// The revision list: the window's rows, with "earlier" and "later" rows (data-more -1 and 1) where
// the log holds more; `current` is highlighted, and scrolled to when it changed. Rows the lens's
// filter leaves out are hidden; `note` says how many of the window's rows it keeps.
TimelineView.drawList = function (list, current, onChoose, lens, note) {
  lens = lens || TimelineView.plainLens;
  if (list.drawnVersion !== Timeline.version || list.drawnLens !== lens.key) {
    list.drawnVersion = Timeline.version;
    list.drawnLens = lens.key;
    const fragment = document.createDocumentFragment();
    const from = Timeline.windowFrom(), to = Timeline.windowTo();
    const more = (direction, count) => {
      const row = element("li", "more", count + (direction < 0 ? " earlier" : " later")
        + (count === 1 ? " revision" : " revisions") + ": scroll or click to read more");
      row.setAttribute("data-more", String(direction));
      return row;
    };
    if (from !== null && from > Timeline.oldest) fragment.append(more(-1, from - Timeline.oldest));
    let kept = 0;
    for (const entry of Timeline.entries) {
      const row = revisionRow(entry, onChoose, lens);
      if (!row.hidden) kept += 1;
      fragment.append(row);
    }
    if (note) {
      note.textContent = lens.filtered ? kept + " of the " + Timeline.entries.length + " revisions read ("
        + Timeline.windowFrom() + " to " + Timeline.windowTo() + ") match the filter" : "";
    }
    if (to !== null && to < Timeline.latest) fragment.append(more(1, Timeline.latest - to));
    list.replaceChildren(fragment);
  }
  const previous = list.querySelector(".chosen");
  if (previous) previous.classList.remove("chosen");
  const chosen = current === null ? null : list.querySelector('[data-timeline-revision="' + current + '"]');
  if (chosen) chosen.classList.add("chosen");
  if (chosen && list.drawnCurrent !== current && chosen.scrollIntoView) chosen.scrollIntoView({ block: "nearest" });
  list.drawnCurrent = current;
};

TimelineView.countsText = countsText;
TimelineView.metaText = metaText;
TimelineView.scrubberPercent = scrubberPercent;
