// The check of each revision the page shows, and the search for the next or previous failing
// revision. A revision passes when its changes are valid for the previous snapshot under the
// format's rules, which are UIKit's batch-update rules, and applying them to the previous snapshot
// gives its stored snapshot (what `replay play --into strict` would refuse beyond the rules:
// UIKit's own extra rules, an item both moved and updated and the like, are met by delivering such
// a batch in stages, as `UIKitStrictRenderer` does).
// Checking needs both snapshots, which the timeline's windows do not carry (they are read with
// `changes-only=1`), so the search reads whole revision lines, a window at a time, from the
// revision shown on, and remembers the ranges it checked. Pure: its source is given
// (`lines(from, to, each)`, revision lines with their snapshots).

import { Format } from "./format.mjs";
import { mergedRanges, rangeHolding } from "./timeline.mjs";

export const Checks = {
  oldest: 1, latest: 0, source: null,
  checked: [],   // sorted, disjoint, non-adjacent [from, to] ranges whose revisions were checked
  failures: new Map(),  // revision -> reason, for every revision found failing
  fetched: 0,    // revision lines read by searches
  chunk: 100, searchLimit: 800
};

// Starts over with a source whose log holds `oldest` to `latest`.
Checks.reset = function (source, oldest, latest) {
  Object.assign(Checks, { source, oldest, latest, checked: [], fetched: 0 });
  Checks.failures = new Map();
};

// Why `line` fails against `old`, the snapshot of the revision before it (the empty snapshot
// before revision 1), or null when it passes. Also returns the result of applying the changes
// when they apply: { reason, applied }.
Checks.check = function (old, line) {
  let applied = null;
  try {
    applied = Format.apply(old, line.changes);
  } catch (error) {
    return { reason: "its changes are not valid for the previous snapshot: " + error.message, applied };
  }
  if (line.snapshot && !Format.equal(applied, line.snapshot)) {
    return { reason: "applying its changes to the previous snapshot does not give the stored snapshot", applied };
  }
  return { reason: null, applied };
};

// Records the check of `revision`: its failure (a reason) or its pass (null).
Checks.record = function (revision, reason) {
  if (reason) Checks.failures.set(revision, reason); else Checks.failures.delete(revision);
  Checks.cover(revision, revision);
};

// Records that `from`..`to` were checked, merging the checked ranges.
Checks.cover = function (from, to) {
  Checks.checked = mergedRanges(Checks.checked, from, to);
};

function checkedSpan(revision) {
  return rangeHolding(Checks.checked, revision);
}

// Reads `from`..`to` with the revision before `from` (when the log holds it) and checks each; the
// log's oldest revision, when revisions before it were dropped, has nothing to be checked against
// and passes. Calls `onFailure(revision, reason)` for each failing one.
async function checkRange(from, to, onFailure) {
  let previous = from === 1 ? { sections: [] } : null;
  const first = from > Checks.oldest ? from - 1 : from;
  await Checks.source.lines(first, to, line => {
    Checks.fetched += 1;
    if (line.revision >= from) {
      const reason = previous ? Checks.check(previous, line).reason : null;
      if (reason) { Checks.failures.set(line.revision, reason); onFailure(line.revision, reason); }
    }
    previous = line.snapshot;
  });
  Checks.cover(from, to);
}

// The nearest failing revision after (direction 1) or before (-1) `revision`, checking the
// revisions not checked yet a window at a time (each twice the last, up to `searchLimit`): null at
// an end of the log or when `cancelled()`. `progress(at)` is told how far the search has looked;
// `onFailure(revision, reason)` is told of every failure found on the way.
Checks.findFailure = async function (revision, direction, progress, cancelled, onFailure) {
  let cursor = revision, size = Checks.chunk;
  for (;;) {
    const next = cursor + direction;
    if (next < Checks.oldest || next > Checks.latest) return null;
    const span = checkedSpan(next);
    if (span === null) {
      let from, to;
      if (direction > 0) {
        from = next;
        to = Math.min(Checks.latest, next + size - 1);
        for (const [a] of Checks.checked) if (a > next) { to = Math.min(to, a - 1); break; }
      } else {
        to = next;
        from = Math.max(Checks.oldest, next - size + 1);
        for (const [, b] of Checks.checked) if (b < next) from = Math.max(from, b + 1);
      }
      await checkRange(from, to, onFailure);
      size = Math.min(size * 2, Checks.searchLimit);
      if (cancelled()) return null;
      continue;
    }
    const inSpan = [...Checks.failures.keys()].filter(r => r >= span[0] && r <= span[1] && (r - revision) * direction > 0);
    if (inSpan.length > 0) return direction > 0 ? Math.min(...inSpan) : Math.max(...inSpan);
    cursor = direction > 0 ? span[1] : span[0];
    progress(cursor);
  }
};
