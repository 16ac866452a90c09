// The timeline's data, read in windows: the log's range (which the scrubber spans), a window of
// consecutive entries (time, meta, operation counts, markers) around the revision shown, extended
// as the user scrolls, seeks, plays or follows and bounded in size, the ranges whose markers are
// known, and the search for the next or previous marker, which reads on window by window until it
// finds one or reaches an end of the log. Pure: its source is given (`range(from, to, each)`).

import { Format } from "./format.mjs";

export const Timeline = {
  oldest: 1, latest: 0, source: null,
  entries: [],          // the window: consecutive revisions from entries[0].revision
  covered: [],          // sorted, disjoint, non-adjacent [from, to] ranges whose markers are known
  markerRevisions: [],  // sorted: the markers of the covered ranges, and the revisions that failed
  failures: new Map(),
  fetched: 0,           // revision lines read for the timeline, all windows together
  version: 0,           // changes whenever the window, the markers or the range change
  chunk: 250, limit: 1000, margin: 100, searchLimit: 4000,
  queue: Promise.resolve(), ticket: 0
};

// Starts over with a source whose log holds `oldest` to `latest` (nothing when latest < oldest).
Timeline.reset = function (source, oldest, latest) {
  Object.assign(Timeline, { source, oldest, latest, entries: [], covered: [], markerRevisions: [], fetched: 0 });
  Timeline.failures = new Map();
  Timeline.version += 1;
};

Timeline.isEmpty = function () { return Timeline.latest < Timeline.oldest; };
Timeline.windowFrom = function () { return Timeline.entries.length > 0 ? Timeline.entries[0].revision : null; };
Timeline.windowTo = function () {
  return Timeline.entries.length > 0 ? Timeline.entries[Timeline.entries.length - 1].revision : null;
};
// The entry of `revision` when the window holds it, else undefined.
Timeline.entry = function (revision) {
  return Timeline.entries.length > 0 ? Timeline.entries[revision - Timeline.entries[0].revision] : undefined;
};

function entryOf(line) {
  const c = Format.complete(line.changes);
  return { revision: line.revision, time: line.time, meta: line.meta || {}, counts: Format.counts(c),
           apart: Format.countsApart(c), markers: Format.markers(c) };
}

// The index of the first value of the sorted `list` that is not below `value`.
function lowerBound(list, value) {
  let low = 0, high = list.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (list[middle] < value) low = middle + 1; else high = middle;
  }
  return low;
}

function addMarker(revision) {
  const k = lowerBound(Timeline.markerRevisions, revision);
  if (Timeline.markerRevisions[k] !== revision) Timeline.markerRevisions.splice(k, 0, revision);
}

// `ranges` (ascending and apart) with `from`..`to` added: ranges that touch or overlap merge.
export function mergedRanges(ranges, from, to) {
  const result = [];
  let a = from, b = to, placed = false;
  for (const [x, y] of ranges) {
    if (y < a - 1) {
      result.push([x, y]);
    } else if (x > b + 1) {
      if (!placed) { result.push([a, b]); placed = true; }
      result.push([x, y]);
    } else {
      a = Math.min(a, x);
      b = Math.max(b, y);
    }
  }
  if (!placed) result.push([a, b]);
  return result;
}

// The range of `ranges` that holds `revision`, or null.
export function rangeHolding(ranges, revision) {
  for (const range of ranges) if (range[0] <= revision && revision <= range[1]) return range;
  return null;
}

// Records that the markers of `from`..`to` are known, merging the covered ranges.
Timeline.cover = function (from, to) {
  Timeline.covered = mergedRanges(Timeline.covered, from, to);
};

// The covered range that holds `revision`, or null.
function coveredSpan(revision) {
  return rangeHolding(Timeline.covered, revision);
}

// Reads the entries of `from`..`to` from the source; their markers become known.
async function read(from, to) {
  const entries = [];
  if (from > to) return entries;
  await Timeline.source.range(from, to, line => entries.push(entryOf(line)));
  Timeline.fetched += entries.length;
  Timeline.cover(from, to);
  for (const entry of entries) if (entry.markers.length > 0) addMarker(entry.revision);
  Timeline.version += 1;
  return entries;
}

// Joins `entries` to the window when they touch it (or it is empty), then drops entries from
// the far end, so that the window never holds more than `limit` revisions.
function merge(entries) {
  if (entries.length === 0) return;
  const from = Timeline.windowFrom(), to = Timeline.windowTo();
  const first = entries[0].revision, last = entries[entries.length - 1].revision;
  if (from === null) {
    Timeline.entries = entries.slice(0, Timeline.limit);
  } else if (first === to + 1) {
    Timeline.entries = Timeline.entries.concat(entries);
    const excess = Timeline.entries.length - Timeline.limit;
    if (excess > 0) Timeline.entries.splice(0, excess);
  } else if (last === from - 1) {
    Timeline.entries = entries.concat(Timeline.entries);
    Timeline.entries.splice(Timeline.limit);
  } else {
    return;
  }
  Timeline.version += 1;
}

// Runs `task` after the window's earlier changes, one at a time.
function serially(task) {
  const run = Timeline.queue.then(task);
  Timeline.queue = run.catch(() => {});
  return run;
}

async function extendNow(direction) {
  const from = Timeline.windowFrom(), to = Timeline.windowTo();
  if (from === null) return;
  if (direction > 0 && to < Timeline.latest) merge(await read(to + 1, Math.min(Timeline.latest, to + Timeline.chunk)));
  if (direction < 0 && from > Timeline.oldest) merge(await read(Math.max(Timeline.oldest, from - Timeline.chunk), from - 1));
}

// Reads one more chunk of the window after (1) or before (-1) it.
Timeline.extend = function (direction) { return serially(() => extendNow(direction)); };

// Makes the window hold `revision` and `margin` revisions on each side of it (where the log has
// them): extends it by a chunk when it is near, reads a new window around it when it is far.
// A call that a later one overtook before it ran does nothing.
Timeline.ensure = function (revision) {
  const ticket = ++Timeline.ticket;
  return serially(async () => {
    if (ticket !== Timeline.ticket || Timeline.isEmpty()) return;
    revision = Math.min(Math.max(revision, Timeline.oldest), Timeline.latest);
    const from = Timeline.windowFrom(), to = Timeline.windowTo();
    if (from === null || revision < from - Timeline.chunk || revision > to + Timeline.chunk) {
      const entries = await read(Math.max(Timeline.oldest, revision - Timeline.chunk),
                                 Math.min(Timeline.latest, revision + Timeline.chunk));
      Timeline.entries = [];
      merge(entries);
      return;
    }
    if (revision - from < Timeline.margin) await extendNow(-1);
    if (Timeline.windowTo() - revision < Timeline.margin) await extendNow(1);
  });
};

// Adds a live revision line: the log's range grows, its markers are known, and the window takes
// it when the window reaches the previous latest revision. Returns its entry, or null for a
// revision already known.
Timeline.addLive = function (line) {
  if (line.revision <= Timeline.latest) return null;
  const entry = entryOf(line);
  if (Timeline.isEmpty()) Timeline.oldest = line.revision;
  const touches = Timeline.entries.length === 0 || Timeline.windowTo() === line.revision - 1;
  Timeline.latest = line.revision;
  Timeline.cover(line.revision, line.revision);
  if (entry.markers.length > 0) addMarker(line.revision);
  if (touches) merge([entry]);
  Timeline.version += 1;
  return entry;
};

Timeline.fail = function (revision, reason) {
  Timeline.failures.set(revision, reason);
  addMarker(revision);
  Timeline.version += 1;
};

// Reads the markers of up to `size` revisions from `next` on (1) or back (-1), stopping at the
// log's end and at ranges already covered; the entries join the window when they touch it.
// Returns the entries read (none when `next` was covered meanwhile).
async function scan(next, direction, size) {
  if (coveredSpan(next) !== null) return [];
  let from, to;
  if (direction > 0) {
    from = next;
    to = Math.min(Timeline.latest, next + size - 1);
    for (const [a] of Timeline.covered) if (a > next) { to = Math.min(to, a - 1); break; }
  } else {
    to = next;
    from = Math.max(Timeline.oldest, next - size + 1);
    for (const [, b] of Timeline.covered) if (b < next) from = Math.max(from, b + 1);
  }
  const entries = await read(from, to);
  merge(entries);
  return entries;
}

// Makes the entries around `revision` the window when the window does not hold it and
// `entries` (consecutive) do, so that landing on a marker a search found reads nothing again.
function adopt(entries, revision) {
  if (Timeline.entry(revision) || entries.length === 0) return;
  const k = revision - entries[0].revision;
  if (k < 0 || k >= entries.length) return;
  Timeline.entries = entries.slice(Math.max(0, k - Timeline.chunk), k + Timeline.chunk + 1);
  Timeline.version += 1;
}

// The nearest marker after (direction 1) or before (-1) `revision`, reading the timeline on, a
// window at a time (each twice the last, up to `searchLimit`), until one is found: null at an
// end of the log or when `cancelled()`. `progress(at)` is told how far the search has looked.
Timeline.findMarker = async function (revision, direction, progress, cancelled) {
  let cursor = revision, size = Timeline.chunk, recent = [];
  const found = marker => serially(() => adopt(recent, marker)).then(() => marker);
  for (;;) {
    const next = cursor + direction;
    if (next < Timeline.oldest || next > Timeline.latest) return null;
    const span = coveredSpan(next);
    if (span === null) {
      recent = (await serially(() => scan(next, direction, size))) || [];
      size = Math.min(size * 2, Timeline.searchLimit);
      if (cancelled()) return null;
      continue;
    }
    const list = Timeline.markerRevisions;
    if (direction > 0) {
      const k = lowerBound(list, next);
      if (k < list.length && list[k] <= span[1]) return found(list[k]);
      cursor = span[1];
    } else {
      const k = lowerBound(list, next + 1) - 1;
      if (k >= 0 && list[k] >= span[0]) return found(list[k]);
      cursor = span[0];
    }
    progress(cursor);
  }
};
