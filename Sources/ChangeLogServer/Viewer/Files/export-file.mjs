// A history exported by `replay export` (revision lines, JSON, one a line), read from a file
// dropped on the page: plain or gzipped. `ExportFile.parse` is pure.

export const ExportFile = {};

// The revision lines of `text`: { lines, from, to }. Throws an Error naming the line that is not
// a revision line as `replay export` writes it, or that breaks the order (the lines must be
// consecutive revisions, as an export without --where is).
ExportFile.parse = function (text, name) {
  const lines = [];
  const where = k => (name ? name + ": " : "") + "line " + (k + 1) + ": ";
  text.split("\n").forEach((raw, k) => {
    if (raw.trim().length === 0) return;
    let line;
    try { line = JSON.parse(raw); } catch (error) { throw new Error(where(k) + "not JSON (" + error.message + ")"); }
    if (line === null || typeof line !== "object" || !Number.isInteger(line.revision) || line.revision < 1) {
      throw new Error(where(k) + "no revision number: not a revision line as replay export writes"
        + (line && line.sections ? " (this looks like a snapshot line for replay import)" : ""));
    }
    if (!line.snapshot || !Array.isArray(line.snapshot.sections)) {
      throw new Error(where(k) + "revision " + line.revision + " has no snapshot");
    }
    const previous = lines[lines.length - 1];
    if (previous && line.revision !== previous.revision + 1) {
      throw new Error(where(k) + "revision " + line.revision + " follows revision " + previous.revision
        + ": the file must hold consecutive revisions");
    }
    lines.push(line);
  });
  if (lines.length === 0) throw new Error((name ? name + ": " : "") + "no revision lines");
  return { lines, from: lines[0].revision, to: lines[lines.length - 1].revision };
};

// The text of `file` (a File or Blob), gunzipped when it starts as gzip does.
ExportFile.read = async function (file) {
  const head = new Uint8Array(await file.slice(0, 2).arrayBuffer());
  if (head[0] === 0x1f && head[1] === 0x8b) {
    const stream = file.stream().pipeThrough(new DecompressionStream("gzip"));
    return new Response(stream).text();
  }
  return file.text();
};
