// The viewer's behaviour: choosing a revision (`#rev=N`, the scrubber, the keys, the timeline, a
// search), checking every revision shown against the one before it, playing a range by applying
// each revision's changes, finding the next or previous failing revision, following live
// revisions, asking for the server's token when it needs one, and exporting a range.

import { Auth, fragmentPairs } from "./auth.mjs";
import { Checks } from "./checks.mjs";
import { Format } from "./format.mjs";
import { HTTPError } from "./http.mjs";
import { List, element } from "./list.mjs";
import { Source } from "./source.mjs";
import { EventStream, sleep } from "./sse.mjs";
import { Timeline } from "./timeline.mjs";
import { TimelineView } from "./timeline-view.mjs";

const App = { source: null, current: null, seekToken: 0, playing: false, playToken: 0, speed: 1,
              skipEmpty: false, playTo: null, events: null, searchToken: 0, followNotice: false,
              readingMore: false };
const $ = id => document.getElementById(id);

function status(text, isError) {
  const node = $("status");
  node.textContent = text;
  node.className = isError ? "error" : "";
  if (isError) document.body.setAttribute("data-error", text); else document.body.removeAttribute("data-error");
}

function setHash() {
  const hash = "#rev=" + App.current.revision;
  if (location.hash !== hash) history.replaceState(null, "", hash);
}

// Checks `line` against `old`, the stored snapshot of the revision before it (null when the log
// no longer holds it), and records the result on the timeline. Returns the result of applying its
// changes to `old` when they apply, else null.
function check(line, old) {
  if (!old && line.revision !== 1) return null;
  const { reason, applied } = Checks.check(old || { sections: [] }, line);
  Checks.record(line.revision, reason);
  if (reason) Timeline.fail(line.revision, reason);
  return applied;
}

// Shows revision `line` (its stored snapshot, or `shown` when given: what applying its changes
// gave), with the rows its changes touched from `old` and the operations in words, naming the
// items at `from` paths in `old` and at `to` paths in the stored snapshot.
function show(line, old, shown) {
  const revision = line.revision, snapshot = shown || line.snapshot, time = line.time, meta = line.meta;
  const c = Format.complete(line.changes);
  App.current = { revision, snapshot };
  const view = $("view");
  view.setAttribute("data-revision", String(revision));
  $("revision-number").textContent = String(revision);
  const failure = Timeline.failures.get(revision);
  const checked = failure !== undefined || Checks.failures.has(revision)
    || Checks.checked.some(([a, b]) => a <= revision && revision <= b);
  view.setAttribute("data-check", failure !== undefined ? "failed" : checked ? "passed" : "unchecked");
  $("revision-check").textContent = failure !== undefined ? "check failed"
    : checked ? "checked" : "not checked: revision " + (revision - 1) + " is not available";
  List.render($("list"), List.model(old, snapshot, c));
  $("panel-time").textContent = time || "";
  const meta$ = $("panel-meta");
  meta$.replaceChildren(...Object.keys(meta || {}).sort().map(k => {
    const row = element("div", "meta-row");
    row.append(element("dt", null, k), element("dd", null, meta[k]));
    return row;
  }));
  if (Object.keys(meta || {}).length === 0) meta$.append(element("div", "none", "no metadata"));
  const words = List.words(old, line.snapshot, c);
  const operations = $("panel-operations");
  operations.replaceChildren(...words.map(w => element("li", null, w)));
  if (words.length === 0) operations.append(element("li", "none", "no operations"));
  if (!old && revision > 1 && c.items.deleted.length + c.sections.deleted.length > 0) {
    operations.append(element("li", "none", "revision " + (revision - 1) + " is not available: deleted rows are not shown"));
  }
  $("panel-failure").textContent = failure ? "This revision fails its check: " + failure : "";
  $("scrubber").value = String(revision);
  drawTimeline();
  setHash();
}

function choose(revision) { pause(); seek(revision); }

function drawTimeline() {
  const current = App.current ? App.current.revision : null;
  TimelineView.drawScrubber($("scrubber"), $("marks"), current);
  TimelineView.drawList($("revisions"), current, choose);
}

// When `error` is the server's 401: shows the token form (saying whether a token was refused)
// and returns true once one was entered, for the caller to try again; else false.
async function needToken(error) {
  if (!(error instanceof HTTPError) || error.status !== 401) return false;
  App.playToken += 1;
  App.playTo = null;
  const { message, refused } = Auth.refusal();
  status(refused ? message : "", refused);
  await Auth.ask(message, refused);
  status("");
  return true;
}

// Shows `revision`: fetches it and the one before it, and the timeline's window around it.
async function seek(revision) {
  if (Timeline.isEmpty()) return;
  revision = Math.min(Math.max(revision, Timeline.oldest), Timeline.latest);
  const token = ++App.seekToken;
  try {
    const [{ previous, line }] = await Promise.all([App.source.pair(revision, Timeline.oldest), Timeline.ensure(revision)]);
    if (token !== App.seekToken) return;
    check(line, previous ? previous.snapshot : null);
    show(line, previous ? previous.snapshot : null);
    status("");
  } catch (error) {
    if (token !== App.seekToken) return;
    if (await needToken(error)) {
      await seek(revision);
      document.body.setAttribute("data-state", "ready");
      return;
    }
    status("Could not show revision " + revision + ": " + error.message, true);
  }
}

// Applies `line`'s changes to the list shown, as a renderer would, and checks the result
// against the line's snapshot; a mismatch or a refused batch is a failure on the timeline.
function step(line) {
  const old = App.current ? App.current.snapshot : { sections: [] };
  const applied = check(line, old);
  show(line, old, applied);
  // The next revision applies to the stored snapshot, so that one failure is reported once.
  App.current.snapshot = line.snapshot;
}

function setPlaying(playing) {
  App.playing = playing;
  $("play").textContent = playing ? "Pause" : "Play";
  document.body.setAttribute("data-state", playing ? "playing" : "ready");
}

// Plays from the revision shown to `App.playTo` (else the latest), one revision per second
// divided by the speed; revisions with no operations are passed over when asked.
async function play() {
  if (App.playing || !App.current) return;
  const token = ++App.playToken;
  App.seekToken += 1;
  setPlaying(true);
  try {
    for (;;) {
      const limit = Math.min(App.playTo === null ? Timeline.latest : App.playTo, Timeline.latest);
      if (token !== App.playToken || App.current.revision >= limit) break;
      let next = App.current.revision + 1;
      await Timeline.ensure(next);
      while (App.skipEmpty && next < limit) {
        if (!Timeline.entry(next)) await Timeline.ensure(next);
        const entry = Timeline.entry(next);
        if (!entry || entry.counts.total !== 0) break;
        next += 1;
      }
      if (token !== App.playToken) break;
      const line = await App.source.line(next);
      if (token !== App.playToken) break;
      step(line);
      if (next < limit) await sleep(1000 / App.speed);
    }
  } catch (error) {
    status("Playing stopped: " + error.message, true);
  } finally {
    if (token === App.playToken) { App.playTo = null; setPlaying(false); }
  }
}

function pause() { App.playToken += 1; App.playTo = null; setPlaying(false); }

function follow(on) {
  if (App.events) { App.events.close(); App.events = null; }
  $("follow").checked = on && App.source.live;
  if (!on || !App.source.live) return;
  App.events = App.source.subscribe(Timeline.latest + 1, {
    line: line => {
      const atEnd = !App.current || App.current.revision === Timeline.latest;
      if (Timeline.addLive(line) === null) return;
      Checks.latest = Timeline.latest;
      if (atEnd && !App.playing) step(line); else drawTimeline();
      $("export-to").max = $("export-from").max = String(Timeline.latest);
    },
    opened: () => {
      if (App.followNotice) status("");
      App.followNotice = false;
    },
    reconnecting: (reason, ms) => {
      App.followNotice = true;
      status("Follow: " + reason + "; reconnecting in " + (ms / 1000) + " s");
    },
    failed: async error => {
      App.events = null;
      App.followNotice = false;
      $("follow").checked = false;
      if (await needToken(error)) {
        await seek(App.current ? App.current.revision : Timeline.latest);
        document.body.setAttribute("data-state", "ready");
        follow(true);
        return;
      }
      status("Follow stopped: " + error.message, true);
    }
  });
}

async function exportRange() {
  const from = Number($("export-from").value), to = Number($("export-to").value);
  if (!(from >= Timeline.oldest && to <= Timeline.latest && from <= to)) {
    status("Export needs a range inside " + Timeline.oldest + " to " + Timeline.latest + ", from before to", true);
    return;
  }
  try {
    let text = await App.source.exportText(from, to);
    let name = "revisions-" + from + "-" + to + ".jsonl";
    if ($("export-kind").value === "snapshots") {
      text = text.split("\n").filter(t => t.length > 0).map(t => {
        const line = JSON.parse(t);
        return JSON.stringify({ meta: line.meta || {}, sections: line.snapshot.sections }) + "\n";
      }).join("");
      name = "snapshots-" + from + "-" + to + ".jsonl";
    }
    const link = $("export-link");
    if (link.href) URL.revokeObjectURL(link.href);
    link.href = URL.createObjectURL(new Blob([text], { type: "application/x-ndjson" }));
    link.download = name;
    link.textContent = "Download " + name;
    link.click();
    status("Exported revisions " + from + " to " + to);
  } catch (error) {
    status("Export failed: " + error.message, true);
  }
}

function hashOptions() {
  const options = new Map(fragmentPairs().map(pair => [pair.name, pair.value]));
  const number = name => options.has(name) && /^[0-9]+$/.test(options.get(name)) ? Number(options.get(name)) : null;
  return { rev: number("rev"), play: number("play"), speed: number("speed"), skip: options.get("skip") === "1",
           follow: options.get("follow") === "1" };
}

function setSpeed(speed) {
  App.speed = [1, 2, 4, 8].includes(speed) ? speed : 1;
  $("speed").value = String(App.speed);
}

// Goes to the next (1) or previous (-1) marker, reading the timeline on window by window until
// one is found (the status says how far the search is); stops at the ends of the log. Another
// seek or search cancels it.
function marker(direction) {
  return searchAndSeek(direction, "marker", "read",
    (progress, cancelled) => Timeline.findMarker(App.current.revision, direction, progress, cancelled),
    async which => {
      await Timeline.ensure(App.current.revision);
      drawTimeline();
      status("No " + which + " marker: revision " + App.current.revision + " has none "
        + (direction > 0 ? "after it" : "before it"));
    });
}

// Goes to the next (1) or previous (-1) failing revision, checking the revisions not checked yet
// window by window (the status says how far the search is); stops at the ends of the log. Another
// seek or search cancels it.
function failure(direction) {
  const failed = (revision, reason) => { Timeline.fail(revision, reason); drawTimeline(); };
  return searchAndSeek(direction, "failure", "checked",
    (progress, cancelled) => Checks.findFailure(App.current.revision, direction, progress, cancelled, failed),
    async which => {
      status("No " + which + " failure: every revision " + (direction > 0 ? "after " : "before ")
        + App.current.revision + " passes its check");
    });
}

// Searches from the revision shown for the next (1) or previous (-1) `noun` with
// `find(progress, cancelled)`, saying in the status how far it has `done`, and seeks to what it
// finds; `none(which)` says that there is none. A later seek or search cancels it.
async function searchAndSeek(direction, noun, done, find, none) {
  if (!App.current) return;
  pause();
  const token = ++App.searchToken, seekAtStart = App.seekToken;
  const cancelled = () => token !== App.searchToken || App.seekToken !== seekAtStart;
  const which = direction > 0 ? "next" : "previous";
  const progress = at => {
    if (!cancelled()) status("Looking for the " + which + " " + noun + ": " + done + " to revision " + at
      + " (the log holds " + Timeline.oldest + " to " + Timeline.latest + ")");
  };
  try {
    const found = await find(progress, cancelled);
    if (cancelled()) return;
    if (found === null) {
      await none(which);
      return;
    }
    await seek(found);
  } catch (error) {
    if (cancelled()) return;
    if (await needToken(error)) { document.body.setAttribute("data-state", "ready"); return; }
    status("Looking for the " + which + " " + noun + " failed: " + error.message, true);
  }
}

// Reads the timeline's next chunk after (1) or before (-1) its window, keeping the rows in view
// where they were.
async function readMore(direction) {
  const list = $("revisions");
  const edge = direction < 0 ? Timeline.windowFrom() : Timeline.windowTo();
  if (App.readingMore || edge === null || edge === (direction < 0 ? Timeline.oldest : Timeline.latest)) return;
  App.readingMore = true;
  try {
    const anchor = [...list.querySelectorAll("[data-timeline-revision]")]
      .find(row => row.offsetTop + row.offsetHeight > list.scrollTop);
    const shift = anchor ? anchor.offsetTop - list.scrollTop : 0;
    await Timeline.extend(direction);
    drawTimeline();
    const again = anchor && list.querySelector('[data-timeline-revision="' + anchor.getAttribute("data-timeline-revision") + '"]');
    if (again) list.scrollTop = again.offsetTop - shift;
  } catch (error) {
    status("Could not read more of the timeline: " + error.message, true);
  } finally {
    App.readingMore = false;
  }
}

function bindControls() {
  $("prev").onclick = () => { pause(); seek(App.current.revision - 1); };
  $("next").onclick = () => { pause(); seek(App.current.revision + 1); };
  $("prev-marker").onclick = () => marker(-1);
  $("next-marker").onclick = () => marker(1);
  $("prev-failure").onclick = () => failure(-1);
  $("next-failure").onclick = () => failure(1);
  $("play").onclick = () => App.playing ? pause() : play();
  $("speed").onchange = () => setSpeed(Number($("speed").value));
  $("skip-empty").onchange = () => { App.skipEmpty = $("skip-empty").checked; };
  $("follow").onchange = () => follow($("follow").checked);
  $("scrubber").oninput = () => { pause(); seek(Number($("scrubber").value)); };
  $("export").onclick = exportRange;
  const list = $("revisions");
  list.addEventListener("scroll", () => {
    if (list.scrollTop < 60) readMore(-1);
    else if (list.scrollHeight - list.scrollTop - list.clientHeight < 60) readMore(1);
  });
  list.addEventListener("click", event => {
    const more = event.target.closest("[data-more]");
    if (more) readMore(Number(more.getAttribute("data-more")));
  });
  window.addEventListener("hashchange", () => {
    if (Auth.takeFromFragment() && Auth.asking !== null) {
      $("token-input").value = Auth.token || "";
      $("token-form").requestSubmit();
    }
    const options = hashOptions();
    if (options.rev !== null && (!App.current || options.rev !== App.current.revision)) { pause(); seek(options.rev); }
  });
  document.addEventListener("keydown", event => {
    if (event.target instanceof HTMLInputElement && event.target.type !== "range" && event.target.type !== "checkbox") return;
    if (event.target instanceof HTMLSelectElement || !App.current || event.ctrlKey || event.metaKey || event.altKey) return;
    const actions = {
      ArrowLeft: () => { pause(); seek(App.current.revision - 1); },
      ArrowRight: () => { pause(); seek(App.current.revision + 1); },
      Home: () => { pause(); seek(Timeline.oldest); },
      End: () => { pause(); seek(Timeline.latest); },
      p: () => marker(-1), n: () => marker(1), F: () => failure(-1), f: () => failure(1),
      " ": () => App.playing ? pause() : play()
    };
    if (actions[event.key]) { event.preventDefault(); actions[event.key](); }
  });
}

async function start() {
  // A fault of the page itself is shown, and set on the body for tests, not only logged.
  window.addEventListener("error", event => status("Script error: " + event.message, true));
  window.addEventListener("unhandledrejection", event => status("Script error: " + event.reason, true));
  bindControls();
  Auth.takeFromFragment();
  const embedded = $("embedded-revisions");
  App.source = embedded ? Source.embedded(embedded) : Source.server;
  $("source").textContent = embedded ? "from a file written by replay view" : "live from replay serve";
  $("follow-control").hidden = !App.source.live;
  const options = hashOptions();
  App.skipEmpty = options.skip;
  $("skip-empty").checked = options.skip;
  setSpeed(options.speed || 1);
  let range = null;
  while (range === null) {
    try {
      range = await App.source.info();
    } catch (error) {
      if (await needToken(error)) continue;
      status("Could not read the log: " + error.message, true);
      document.body.setAttribute("data-state", "failed");
      return;
    }
  }
  Timeline.reset(App.source, range.oldest, range.latest);
  Checks.reset(App.source, range.oldest, range.latest);
  $("export-from").min = $("export-to").min = String(Timeline.oldest);
  $("export-from").max = $("export-to").max = String(Timeline.latest);
  if (Timeline.isEmpty()) {
    status("The log is empty" + (App.source.live ? ": follow it to see revisions as they arrive" : ""));
    document.body.setAttribute("data-state", "ready");
    if (options.follow) follow(true);
    return;
  }
  const first = options.rev === null ? Timeline.latest : options.rev;
  await seek(first);
  $("export-from").value = $("export-to").value = String(App.current ? App.current.revision : Timeline.oldest);
  document.body.setAttribute("data-state", "ready");
  if (options.follow) follow(true);
  if (options.play !== null && App.current) { App.playTo = options.play; play(); }
}

// The page's state, its pure parts and its player, for tests and users' scripts in the browser's
// console: a module's names are not globals.
globalThis.viewer = Object.freeze({ App, Format, Checks, Timeline, EventStream, play, setSpeed });

start();
