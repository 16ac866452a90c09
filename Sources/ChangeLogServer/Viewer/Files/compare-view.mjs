// Compare mode drawn: `#compare=R1..R2` shows R1's list and R2's side by side, the operations
// between them (the server's `/api/compare`) highlighted in both and told in words. The element
// `#compare` carries `data-compare="R1..R2"` once both are drawn.

import { Compare } from "./compare.mjs";
import { List, element } from "./list.mjs";
import { TimelineView } from "./timeline-view.mjs";

// `host`: { source(), status(text, isError), failed(error) }.
export const CompareView = { host: null, token: 0, shown: null };

const compareNode = id => document.getElementById(id);

CompareView.bind = function (host) {
  CompareView.host = host;
  compareNode("compare-go").addEventListener("click", () => {
    const from = Number(compareNode("compare-from").value), to = Number(compareNode("compare-to").value);
    location.hash = Compare.hash(from, to);
  });
  compareNode("compare-close").addEventListener("click", event => {
    event.preventDefault();
    CompareView.close();
  });
};

// Shows `from` and `to` side by side.
CompareView.open = async function (from, to) {
  const token = ++CompareView.token, section = compareNode("compare");
  section.hidden = false;
  document.body.setAttribute("data-mode", "compare");
  section.setAttribute("data-compare", "");
  compareNode("compare-from").value = String(from);
  compareNode("compare-to").value = String(to);
  compareNode("compare-title").textContent = "Revision " + from + " and revision " + to;
  const link = compareNode("compare-link");
  link.href = Compare.hash(from, to);
  link.textContent = "link to this comparison";
  try {
    const source = CompareView.host.source();
    const [a, b, compared] = await Promise.all([source.line(from), source.line(to), source.compare(from, to)]);
    if (token !== CompareView.token) return;
    const model = Compare.models(a.snapshot, b.snapshot, compared.changes);
    compareNode("compare-left-title").textContent = "Revision " + from + (a.time ? " (" + a.time + ")" : "");
    compareNode("compare-right-title").textContent = "Revision " + to + (b.time ? " (" + b.time + ")" : "");
    List.render(compareNode("compare-left"), model.left);
    List.render(compareNode("compare-right"), model.right);
    compareNode("compare-counts").textContent = TimelineView.countsText(model.counts);
    const operations = compareNode("compare-operations");
    operations.replaceChildren(...model.words.map(w => element("li", null, w)));
    if (model.words.length === 0) operations.append(element("li", "none", "no operations: the lists are the same"));
    section.setAttribute("data-compare", from + ".." + to);
    CompareView.shown = { from, to };
    CompareView.host.status("");
  } catch (error) {
    if (token !== CompareView.token || await CompareView.host.failed(error)) return;
    CompareView.host.status("Could not compare revisions " + from + " and " + to + ": " + error.message, true);
  }
};

// Leaves compare mode for the revision shown.
CompareView.close = function () {
  CompareView.token += 1;
  CompareView.shown = null;
  compareNode("compare").hidden = true;
  compareNode("compare").setAttribute("data-compare", "");
  // The panes hold no rows while hidden: the list's DOM contract reads one list.
  compareNode("compare-left").replaceChildren();
  compareNode("compare-right").replaceChildren();
  document.body.removeAttribute("data-mode");
  CompareView.host.closed();
};
