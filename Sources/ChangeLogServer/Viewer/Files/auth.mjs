// The bearer token: taken from the URL fragment (`#token=…`, which a browser never sends to the
// server) or asked for in a form when the server answers 401; kept in `sessionStorage` (this tab
// only), removed from the visible address, and sent as `Authorization: Bearer …` with every
// request. Also reads the fragment's options.

export const Auth = { key: "replay-viewer-token", token: null, asking: null };

// The fragment's `name=value` pairs, each value percent-decoded (a `+` stays a `+`), in order.
export function fragmentPairs() {
  return location.hash.replace(/^#/, "").split("&").filter(part => part.length > 0).map(part => {
    const equals = part.indexOf("=");
    const name = equals < 0 ? part : part.slice(0, equals), raw = equals < 0 ? "" : part.slice(equals + 1);
    let value = raw;
    try { value = decodeURIComponent(raw); } catch (e) { /* a malformed escape: the text as it is */ }
    return { name, value, part };
  });
}

// Whether `token` can go in an Authorization header: printable ASCII without spaces.
Auth.acceptable = function (token) { return /^[\x21-\x7e]+$/.test(token); };

// Keeps `token` for this tab (or forgets it, given null).
Auth.set = function (token) {
  Auth.token = token !== null && token.length > 0 ? token : null;
  try {
    if (Auth.token === null) sessionStorage.removeItem(Auth.key); else sessionStorage.setItem(Auth.key, Auth.token);
  } catch (e) {
    // Storage refused (a private mode, a file opened from disk): the token lives as long as the page.
  }
};

// Reads the kept token, then moves a `token=` of the fragment into storage and rewrites the
// address without it (the other options stay). Returns whether the fragment had one.
Auth.takeFromFragment = function () {
  if (Auth.token === null) {
    try { Auth.token = sessionStorage.getItem(Auth.key); } catch (e) { Auth.token = null; }
  }
  const pairs = fragmentPairs();
  const given = pairs.filter(p => p.name === "token");
  if (given.length === 0) return false;
  Auth.set(given[given.length - 1].value);
  const rest = pairs.filter(p => p.name !== "token").map(p => p.part).join("&");
  history.replaceState(null, "", location.pathname + location.search + (rest.length > 0 ? "#" + rest : ""));
  return true;
};

// `headers` with the Authorization header added when there is a token.
Auth.headers = function (headers) {
  const all = Object.assign({}, headers || {});
  if (Auth.token !== null && Auth.acceptable(Auth.token)) all.Authorization = "Bearer " + Auth.token;
  return all;
};

// Shows the token form with `message` and resolves once a token was entered; the page shows no
// list meanwhile (body data-state "needs-token"). `refused` says the token given was wrong.
Auth.ask = function (message, refused) {
  const form = document.getElementById("token-form");
  const input = document.getElementById("token-input");
  document.getElementById("token-message").textContent = message;
  form.classList.toggle("refused", refused);
  form.hidden = false;
  document.getElementById("view").hidden = true;
  document.getElementById("timeline").hidden = true;
  document.body.setAttribute("data-state", "needs-token");
  if (refused) document.body.setAttribute("data-error", message); else document.body.removeAttribute("data-error");
  input.value = "";
  input.focus();
  if (Auth.asking === null) {
    Auth.asking = new Promise(resolve => {
      form.onsubmit = event => {
        event.preventDefault();
        const token = input.value.trim();
        if (!Auth.acceptable(token)) {
          document.getElementById("token-message").textContent =
            "A token is printable characters without spaces, as in the server's token file.";
          return;
        }
        Auth.set(token);
        form.hidden = true;
        form.onsubmit = null;
        document.getElementById("view").hidden = false;
        document.getElementById("timeline").hidden = false;
        document.body.removeAttribute("data-error");
        document.body.setAttribute("data-state", "loading");
        Auth.asking = null;
        resolve();
      };
    });
  }
  return Auth.asking;
};

// The message for a 401 answer: the token is missing, or the one given was refused.
Auth.refusal = function () {
  return Auth.token === null
    ? { message: "This server needs a token to show its log: enter the token of its --token-file.", refused: false }
    : { message: "The server refused the token given: check it against the server's --token-file and enter it again.",
        refused: true };
};
