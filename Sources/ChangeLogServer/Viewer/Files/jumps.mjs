// The jumps to the next or previous marker and failing revision: each reads or checks the
// timeline on, window by window, from the revision shown, says in the status how far it has
// looked, and shows what it finds; a later seek or search cancels it.

import { Checks } from "./checks.mjs";
import { Timeline } from "./timeline.mjs";

// `host`: { app, pause(), seekNow(revision), status(text, isError), failed(error), redraw() }.
export const Jumps = { host: null };

Jumps.bind = function (host) { Jumps.host = host; };

// Goes to the next (1) or previous (-1) marker, reading the timeline on window by window until
// one is found (the status says how far the search is); stops at the ends of the log. Another
// seek or search cancels it.
Jumps.marker = function (direction) {
  return searchAndSeek(direction, "marker", "read",
    (progress, cancelled) => Timeline.findMarker(Jumps.host.app.current.revision, direction, progress, cancelled),
    async which => {
      await Timeline.ensure(Jumps.host.app.current.revision);
      Jumps.host.redraw();
      Jumps.host.status("No " + which + " marker: revision " + Jumps.host.app.current.revision + " has none "
        + (direction > 0 ? "after it" : "before it"));
    });
};

// Goes to the next (1) or previous (-1) failing revision, checking the revisions not checked yet
// window by window (the status says how far the search is); stops at the ends of the log. Another
// seek or search cancels it.
Jumps.failure = function (direction) {
  const failed = (revision, reason) => { Timeline.fail(revision, reason); Jumps.host.redraw(); };
  return searchAndSeek(direction, "failure", "checked",
    (progress, cancelled) => Checks.findFailure(Jumps.host.app.current.revision, direction, progress, cancelled, failed),
    async which => {
      Jumps.host.status("No " + which + " failure: every revision " + (direction > 0 ? "after " : "before ")
        + Jumps.host.app.current.revision + " passes its check");
    });
};

// Searches from the revision shown for the next (1) or previous (-1) `noun` with
// `find(progress, cancelled)`, saying in the status how far it has `done`, and seeks to what it
// finds; `none(which)` says that there is none. A later seek or search cancels it.
async function searchAndSeek(direction, noun, done, find, none) {
  if (!Jumps.host.app.current) return;
  Jumps.host.pause();
  const token = ++Jumps.host.app.searchToken, seekAtStart = Jumps.host.app.seekToken;
  const cancelled = () => token !== Jumps.host.app.searchToken || Jumps.host.app.seekToken !== seekAtStart;
  const which = direction > 0 ? "next" : "previous";
  const progress = at => {
    if (!cancelled()) Jumps.host.status("Looking for the " + which + " " + noun + ": " + done + " to revision " + at
      + " (the log holds " + Timeline.oldest + " to " + Timeline.latest + ")");
  };
  try {
    const found = await find(progress, cancelled);
    if (cancelled()) return;
    if (found === null) {
      await none(which);
      return;
    }
    await Jumps.host.seekNow(found);
  } catch (error) {
    if (cancelled()) return;
    if (await Jumps.host.failed(error)) { document.body.setAttribute("data-state", "ready"); return; }
    Jumps.host.status("Looking for the " + which + " " + noun + " failed: " + error.message, true);
  }
}
