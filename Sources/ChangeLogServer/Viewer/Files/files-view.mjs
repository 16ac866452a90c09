// The page and files: exporting a range of revisions as `replay export` writes them (or as
// snapshots that `replay import` reads), and opening a history exported by `replay export`
// dropped on the page (plain or gzipped), read and checked by the page's own modules.

import { ExportFile } from "./export-file.mjs";
import { Source } from "./source.mjs";
import { Timeline } from "./timeline.mjs";

// `host`: { source(), status(text, isError), open(source) }.
export const FilesView = { host: null };

const fileNode = id => document.getElementById(id);

FilesView.bind = function (host) {
  FilesView.host = host;
  fileNode("export").addEventListener("click", () => FilesView.exportRange());
  const carriesFiles = event => event.dataTransfer && [...event.dataTransfer.types].includes("Files");
  document.addEventListener("dragover", event => {
    if (!carriesFiles(event)) return;
    event.preventDefault();
    document.body.classList.add("dragging");
  });
  document.addEventListener("dragleave", () => document.body.classList.remove("dragging"));
  document.addEventListener("drop", event => {
    if (!carriesFiles(event)) return;
    event.preventDefault();
    document.body.classList.remove("dragging");
    const file = event.dataTransfer.files[0];
    if (file) FilesView.openFile(file);
  });
};

// Opens `file` (a File), written by `replay export`, in place of the page's source.
FilesView.openFile = async function (file) {
  FilesView.host.status("Reading " + file.name + "\u2026");
  let parsed;
  try {
    parsed = ExportFile.parse(await ExportFile.read(file), file.name);
  } catch (error) {
    FilesView.host.status("Could not open the file: " + error.message, true);
    return;
  }
  await FilesView.host.open(Source.lines(parsed.lines, parsed.from, parsed.to,
    "from " + file.name + " (revisions " + parsed.from + " to " + parsed.to + ")"));
};

// Downloads the range the export fields hold.
FilesView.exportRange = async function () {
  const from = Number(fileNode("export-from").value), to = Number(fileNode("export-to").value);
  const status = FilesView.host.status;
  if (!(from >= Timeline.oldest && to <= Timeline.latest && from <= to)) {
    status("Export needs a range inside " + Timeline.oldest + " to " + Timeline.latest + ", from before to", true);
    return;
  }
  try {
    let text = await FilesView.host.source().exportText(from, to);
    let name = "revisions-" + from + "-" + to + ".jsonl";
    if (fileNode("export-kind").value === "snapshots") {
      text = text.split("\n").filter(t => t.length > 0).map(t => {
        const line = JSON.parse(t);
        return JSON.stringify({ meta: line.meta || {}, sections: line.snapshot.sections }) + "\n";
      }).join("");
      name = "snapshots-" + from + "-" + to + ".jsonl";
    }
    const link = fileNode("export-link");
    if (link.href) URL.revokeObjectURL(link.href);
    link.href = URL.createObjectURL(new Blob([text], { type: "application/x-ndjson" }));
    link.download = name;
    link.textContent = "Download " + name;
    link.click();
    status("Exported revisions " + from + " to " + to);
  } catch (error) {
    status("Export failed: " + error.message, true);
  }
};
