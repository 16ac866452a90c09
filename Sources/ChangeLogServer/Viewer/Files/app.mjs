// The viewer's behaviour: choosing a revision (`#rev=N`, the scrubber, the keys, the timeline, a
// search), checking every revision shown against the one before it, playing a range by applying
// each revision's changes, finding the next or previous failing revision, following live
// revisions, asking for the server's token when it needs one, filtering the timeline by
// metadata, and handing the search, compare mode and files to their views.

import { Auth, fragmentPairs } from "./auth.mjs";
import { Checks } from "./checks.mjs";
import { Compare } from "./compare.mjs";
import { CompareView } from "./compare-view.mjs";
import { FilesView } from "./files-view.mjs";
import { Format } from "./format.mjs";
import { HTTPError } from "./http.mjs";
import { Jumps } from "./jumps.mjs";
import { LifeView } from "./life-view.mjs";
import { List, element } from "./list.mjs";
import { MetaFilter } from "./meta-filter.mjs";
import { Source } from "./source.mjs";
import { EventStream, sleep } from "./sse.mjs";
import { Timeline } from "./timeline.mjs";
import { TimelineView } from "./timeline-view.mjs";

const App = { source: null, current: null, seekToken: 0, playing: false, playToken: 0, speed: 1,
              skipEmpty: false, playTo: null, events: null, searchToken: 0, followNotice: false,
              readingMore: false, filter: [] };
const $ = id => document.getElementById(id);

function status(text, isError) {
  const node = $("status");
  node.textContent = text;
  node.className = isError ? "error" : "";
  if (isError) document.body.setAttribute("data-error", text); else document.body.removeAttribute("data-error");
}

function setHash() {
  if (CompareView.shown) return;
  const filter = App.filter.length > 0 ? "&where=" + encodeURIComponent(MetaFilter.text(App.filter)) : "";
  const hash = "#rev=" + App.current.revision + filter;
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
  // The export range follows the revision shown.
  $("export-from").value = $("export-to").value = String(revision);
  drawTimeline();
  LifeView.highlight();
  setHash();
}

function choose(revision) { pause(); seek(revision); }

function drawTimeline() {
  const current = App.current ? App.current.revision : null;
  TimelineView.drawScrubber($("scrubber"), $("marks"), current);
  const clauses = App.filter;
  const lens = { visible: entry => MetaFilter.matches(clauses, entry.meta), life: LifeView.life(),
                 key: MetaFilter.text(clauses) + "\n" + LifeView.id + "\n" + LifeView.events.length,
                 filtered: clauses.length > 0 };
  TimelineView.drawList($("revisions"), current, choose, lens, $("filter-note"));
}

// Filters the timeline by the metadata clauses of `text` (the tool's --where syntax).
function setFilter(text) {
  const { clauses, error } = MetaFilter.parse(text);
  $("filter").classList.toggle("invalid", error !== null);
  if (error !== null) { status("Filter: " + error, true); return; }
  if (document.body.getAttribute("data-error")?.startsWith("Filter: ")) status("");
  App.filter = clauses;
  drawTimeline();
  if (App.current) setHash();
}

// Puts `text` (a filter, from `#where=` or the one a static page was written with) in the filter
// box before the page opens; returns its error, or null.
function presetFilter(text) {
  $("filter").value = text;
  const { clauses, error } = MetaFilter.parse(text);
  $("filter").classList.toggle("invalid", error !== null);
  if (error === null) App.filter = clauses;
  return error;
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
  $("follow").checked = Boolean(on && App.source && App.source.live);
  if (!on || !App.source || !App.source.live) return;
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

function hashOptions() {
  const options = new Map(fragmentPairs().map(pair => [pair.name, pair.value]));
  const number = name => options.has(name) && /^[0-9]+$/.test(options.get(name)) ? Number(options.get(name)) : null;
  return { rev: number("rev"), play: number("play"), speed: number("speed"), skip: options.get("skip") === "1",
           follow: options.get("follow") === "1", compare: Compare.parse(options.get("compare")),
           where: options.has("where") ? options.get("where") : null };
}

function setSpeed(speed) {
  App.speed = [1, 2, 4, 8].includes(speed) ? speed : 1;
  $("speed").value = String(App.speed);
}

function marker(direction) { return Jumps.marker(direction); }
function failure(direction) { return Jumps.failure(direction); }

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
  $("filter").addEventListener("change", () => setFilter($("filter").value));
  $("filter").addEventListener("keydown", event => { if (event.key === "Enter") setFilter($("filter").value); });
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
    if (options.compare) { pause(); CompareView.open(options.compare.from, options.compare.to); return; }
    if (CompareView.shown) CompareView.close();
    if (options.where !== null && options.where !== $("filter").value) setFilter($("filter").value = options.where);
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
      "[": () => { pause(); LifeView.step(-1); }, "]": () => { pause(); LifeView.step(1); },
      "/": () => $("search").focus(),
      " ": () => App.playing ? pause() : play()
    };
    if (actions[event.key]) { event.preventDefault(); actions[event.key](); }
  });
}

// Reads `source` (the server, a static page's lines or a dropped file) and shows the revision
// `options` choose (else the latest), compare mode when they ask for it, follows and plays.
async function open(source, options) {
  pause();
  document.body.setAttribute("data-state", "loading");
  follow(false);
  App.source = source;
  App.current = null;
  $("source").textContent = source.label;
  $("follow-control").hidden = !source.live;
  let range = null;
  while (range === null) {
    try {
      range = await source.info();
    } catch (error) {
      if (await needToken(error)) continue;
      status("Could not read the log: " + error.message, true);
      document.body.setAttribute("data-state", "failed");
      return;
    }
  }
  Timeline.reset(source, range.oldest, range.latest);
  Checks.reset(source, range.oldest, range.latest);
  $("export-from").min = $("export-to").min = $("compare-from").min = $("compare-to").min = String(Timeline.oldest);
  $("export-from").max = $("export-to").max = $("compare-from").max = $("compare-to").max = String(Timeline.latest);
  if (LifeView.id !== null) await LifeView.choose(LifeView.id);
  if (Timeline.isEmpty()) {
    status("The log is empty" + (source.live ? ": follow it to see revisions as they arrive" : ""));
    document.body.setAttribute("data-state", "ready");
    if (options.follow) follow(true);
    return;
  }
  const first = options.compare ? options.compare.to : options.rev === null ? Timeline.latest : options.rev;
  await seek(first);
  if (!App.current) { document.body.setAttribute("data-state", "ready"); return; }
  $("compare-from").value = String(Math.max(Timeline.oldest, App.current.revision - 1));
  $("compare-to").value = String(App.current.revision);
  if (options.compare) await CompareView.open(options.compare.from, options.compare.to);
  document.body.setAttribute("data-state", "ready");
  if (options.follow) follow(true);
  if (options.play !== null) { App.playTo = options.play; play(); }
}

// What the views ask of the page.
const host = {
  app: App,
  pause: () => pause(),
  seekNow: revision => seek(revision),
  source: () => App.source,
  current: () => App.current,
  seek: revision => choose(revision),
  status,
  redraw: drawTimeline,
  failed: error => needToken(error),
  closed: () => { if (App.current) { setHash(); drawTimeline(); } },
  open: source => open(source, { rev: null, play: null, follow: false, compare: null })
};

async function start() {
  // A fault of the page itself is shown, and set on the body for tests, not only logged.
  window.addEventListener("error", event => status("Script error: " + event.message, true));
  window.addEventListener("unhandledrejection", event => status("Script error: " + event.reason, true));
  bindControls();
  Jumps.bind(host);
  LifeView.bind(host);
  CompareView.bind(host);
  FilesView.bind(host);
  Auth.takeFromFragment();
  const embedded = $("embedded-revisions");
  const options = hashOptions();
  App.skipEmpty = options.skip;
  $("skip-empty").checked = options.skip;
  setSpeed(options.speed || 1);
  const preset = options.where !== null ? options.where : embedded ? embedded.getAttribute("data-where") : null;
  const filterError = preset !== null ? presetFilter(preset) : null;
  await open(embedded ? Source.embedded(embedded) : Source.server, options);
  if (filterError !== null) status("Filter: " + filterError, true);
}

// The page's state, its pure parts and its player, for tests and users' scripts in the browser's
// console: a module's names are not globals.
globalThis.viewer = Object.freeze({ App, Format, Checks, Timeline, EventStream, LifeView, CompareView, FilesView,
                                    play, setSpeed });

start();
