// The page's questions to the history routes of `replay serve`: an item's or a section's life,
// the ids ever stored that contain a text, and the changes between any two revisions. Ids and
// titles travel as percent-encoded path segments (spaces, slashes, quotes, non-ASCII). The
// addresses are built by `Api.urls`, which is pure.

import { fetchJSON } from "./http.mjs";
import { MetaFilter } from "./meta-filter.mjs";

export const Api = { urls: {} };

// `text` as one path segment: every character but unreserved ASCII percent-encoded.
Api.segment = function (text) {
  return encodeURIComponent(text).replace(/[!'()*]/g, ch => "%" + ch.charCodeAt(0).toString(16).toUpperCase());
};

// The query of a history route: `from`, `to`, `since`, `until` when given, and `where` clauses.
function historyQuery(options) {
  const o = options || {}, parts = [];
  for (const name of ["from", "to", "since", "until"]) {
    if (o[name] !== undefined && o[name] !== null) parts.push(name + "=" + encodeURIComponent(String(o[name])));
  }
  if (o.where && o.where.length > 0) parts.push(MetaFilter.query(o.where));
  return parts.length > 0 ? "?" + parts.join("&") : "";
}

Api.urls.itemHistory = (id, options) => "api/items/" + Api.segment(id) + "/history" + historyQuery(options);
Api.urls.sectionHistory = (title, options) =>
  "api/sections/" + Api.segment(title) + "/history" + historyQuery(options);
Api.urls.search = (text, limit) => "api/items?search=" + Api.segment(text) + "&limit=" + (limit || 50);
Api.urls.compare = (from, to) => "api/compare?from=" + from + "&to=" + to;

// `{ id, events }`, oldest first.
Api.itemHistory = (id, options) => fetchJSON(Api.urls.itemHistory(id, options));
// `{ title, events }`, oldest first.
Api.sectionHistory = (title, options) => fetchJSON(Api.urls.sectionHistory(title, options));
// `[{ id, firstRevision, lastRevision }]`, ordered by id.
Api.search = async (text, limit) => (await fetchJSON(Api.urls.search(text, limit))).items;
// `{ from, to, changes }`: the changes that take `from`'s snapshot to `to`'s.
Api.compare = (from, to) => fetchJSON(Api.urls.compare(from, to));
