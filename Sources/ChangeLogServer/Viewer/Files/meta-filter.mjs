// The timeline's filter by metadata, in the syntax of the tool's `--where`: clauses `key=value`
// (the value is exactly that) and `key~substring` (the value contains it), all of which must
// hold. In the page's box the clauses are separated by spaces; a clause or a part of it in double
// quotes may hold spaces (`note="two words"`, a backslash escapes a quote or a backslash). Pure.

export const MetaFilter = {};

// The clauses of `text`: { clauses: [{ key, op, value }], error: null }, or an error that says
// which clause is wrong and why (clauses empty).
MetaFilter.parse = function (text) {
  const words = [];
  let word = null, quoted = false;
  for (let k = 0; k < text.length; k += 1) {
    const ch = text[k];
    if (quoted) {
      if (ch === "\\" && k + 1 < text.length) { word += text[k + 1]; k += 1; }
      else if (ch === "\"") quoted = false;
      else word += ch;
    } else if (ch === "\"") {
      quoted = true;
      if (word === null) word = "";
    } else if (/\s/.test(ch)) {
      if (word !== null) words.push(word);
      word = null;
    } else {
      word = (word || "") + ch;
    }
  }
  if (quoted) return { clauses: [], error: "a double quote is not closed" };
  if (word !== null) words.push(word);
  const clauses = [];
  for (const [k, w] of words.entries()) {
    const at = w.search(/[=~]/);
    const name = "clause " + (k + 1) + " (" + JSON.stringify(w) + ")";
    if (at < 0) return { clauses: [], error: name + " has neither = nor ~: write key=value or key~substring" };
    if (at === 0) return { clauses: [], error: name + " has no key before its " + w[0] };
    clauses.push({ key: w.slice(0, at), op: w[at], value: w.slice(at + 1) });
  }
  return { clauses, error: null };
};

// Whether `meta` (string values) meets every clause; a key the meta lacks meets none.
MetaFilter.matches = function (clauses, meta) {
  const m = meta || {};
  return clauses.every(c => Object.prototype.hasOwnProperty.call(m, c.key)
    && (c.op === "=" ? m[c.key] === c.value : String(m[c.key]).includes(c.value)));
};

// The clauses as the routes' query parameters: `where=` each clause, percent-encoded.
MetaFilter.query = function (clauses) {
  return clauses.map(c => "where=" + encodeURIComponent(c.key + c.op + c.value)).join("&");
};

// The clauses as text that `parse` reads back to them.
MetaFilter.text = function (clauses) {
  return clauses.map(c => {
    const clause = c.key + c.op + c.value;
    return /[\s"\\]/.test(clause) ? "\"" + clause.replace(/[\\"]/g, s => "\\" + s) + "\"" : clause;
  }).join(" ");
};
