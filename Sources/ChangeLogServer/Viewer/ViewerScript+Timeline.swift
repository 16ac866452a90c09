extension ViewerPage {
    /// The timeline in JavaScript: one entry per revision (time, meta, operation counts,
    /// markers), the scrubber with its marker ticks, the revision list around the chosen
    /// revision, and the search for the next or previous marker.
    static let timelineScript = #"""
        const Timeline = { entries: [], oldest: 0, latest: 0, failures: new Map(), markerRevisions: [] };

        Timeline.reset = function (oldest) {
          Timeline.entries = [];
          Timeline.oldest = oldest;
          Timeline.latest = oldest - 1;
          Timeline.markerRevisions = [];
        };

        // Adds the revision line's entry; lines arrive in order, without gaps.
        Timeline.add = function (line) {
          const c = Format.complete(line.changes);
          if (Timeline.entries.length === 0) Timeline.oldest = line.revision;
          const entry = { revision: line.revision, time: line.time, meta: line.meta || {}, counts: Format.counts(c),
                          markers: Format.markers(c) };
          Timeline.entries.push(entry);
          Timeline.latest = line.revision;
          if (entry.markers.length > 0) Timeline.markerRevisions.push(entry.revision);
          return entry;
        };

        Timeline.entry = function (revision) { return Timeline.entries[revision - Timeline.oldest]; };

        Timeline.fail = function (revision, reason) {
          Timeline.failures.set(revision, reason);
          if (!Timeline.markerRevisions.includes(revision)) {
            Timeline.markerRevisions.push(revision);
            Timeline.markerRevisions.sort((a, b) => a - b);
          }
        };

        // The nearest marker after (direction 1) or before (-1) `revision`, or null.
        Timeline.nextMarker = function (revision, direction) {
          const list = Timeline.markerRevisions;
          let low = 0, high = list.length;
          while (low < high) {
            const middle = (low + high) >> 1;
            if (list[middle] <= revision) low = middle + 1; else high = middle;
          }
          if (direction > 0) return low < list.length ? list[low] : null;
          let k = low - 1;
          if (k >= 0 && list[k] === revision) k -= 1;
          return k >= 0 ? list[k] : null;
        };

        function countsText(counts) {
          return "+" + counts.inserted + " \u2212" + counts.deleted + " ~" + counts.moved + " *" + counts.updated;
        }
        function metaText(meta) {
          return Object.keys(meta).sort().map(k => k + "=" + meta[k]).join(" ");
        }
        const markerNames = { "section-move": "moves sections", "cross-section-move": "moves items across sections",
                              "section-delete": "deletes sections" };

        // The scrubber's range and ticks: one tick per marked stretch of the timeline, so that a long
        // history draws a bounded number of elements.
        Timeline.drawScrubber = function (scrubber, marks, current) {
          scrubber.min = String(Timeline.oldest);
          scrubber.max = String(Math.max(Timeline.latest, Timeline.oldest));
          scrubber.disabled = Timeline.entries.length === 0;
          if (current !== null) scrubber.value = String(current);
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

        // The revision list: the rows around `current`, so that a long history draws a bounded number.
        Timeline.drawList = function (list, current, onChoose) {
          const position = current === null ? 0 : current - Timeline.oldest;
          const start = Math.max(0, position - 100), end = Math.min(Timeline.entries.length, position + 101);
          const fragment = document.createDocumentFragment();
          if (start > 0) fragment.append(element("li", "more", start + " earlier revisions"));
          for (let k = start; k < end; k += 1) {
            const entry = Timeline.entries[k];
            const row = element("li", "revision");
            row.setAttribute("data-timeline-revision", String(entry.revision));
            if (entry.revision === current) row.classList.add("chosen");
            if (entry.counts.total === 0) row.classList.add("empty");
            row.append(element("span", "number", String(entry.revision)));
            row.append(element("span", "time", (entry.time || "").replace("T", " ")));
            row.append(element("span", "counts", countsText(entry.counts)));
            for (const kind of entry.markers) row.append(element("span", "marker " + kind, markerNames[kind]));
            if (Timeline.failures.has(entry.revision)) {
              row.classList.add("failed");
              row.setAttribute("data-failed-revision", String(entry.revision));
              row.append(element("span", "marker failed", "apply failed"));
            }
            row.append(element("span", "meta", metaText(entry.meta)));
            row.addEventListener("click", () => onChoose(entry.revision));
            fragment.append(row);
          }
          if (end < Timeline.entries.length) fragment.append(element("li", "more", (Timeline.entries.length - end) + " later revisions"));
          list.replaceChildren(fragment);
          const chosen = list.querySelector(".chosen");
          if (chosen && chosen.scrollIntoView) chosen.scrollIntoView({ block: "nearest" });
        };

        Timeline.countsText = countsText;
        Timeline.metaText = metaText;
        """#
}
