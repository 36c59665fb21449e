// The server's HTTP API, with the bearer token.
//
// The token never appears in the static page: the server prints a URL carrying it in the
// fragment (`/#token=…`), which browsers never send to a server. The UI moves it into this
// tab's sessionStorage and removes it from the address bar, so it is not kept in history,
// bookmarks or Referer headers, and a page of another origin cannot read it.

const TOKEN_KEY = "warrant.token";

/** An error answered by the server: its status, its code and its message. */
export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/**
 * Moves a `token` from the URL fragment into sessionStorage and removes it from the address
 * bar (other fragment parameters stay). Returns the token to use, or "" when there is none.
 */
export function adoptToken(win = window) {
  const params = new URLSearchParams(win.location.hash.replace(/^#/, ""));
  const fromFragment = params.get("token");
  if (fromFragment) {
    win.sessionStorage.setItem(TOKEN_KEY, fromFragment);
    params.delete("token");
    const rest = params.toString();
    const url = win.location.pathname + win.location.search + (rest ? `#${rest}` : "");
    win.history.replaceState(win.history.state, "", url);
  }
  return win.sessionStorage.getItem(TOKEN_KEY) ?? "";
}

/** Stores a token typed by the user. */
export function saveToken(token, win = window) {
  win.sessionStorage.setItem(TOKEN_KEY, token);
}

/** Forgets the stored token (after the server rejected it). */
export function forgetToken(win = window) {
  win.sessionStorage.removeItem(TOKEN_KEY);
}

/** The Authorization header for a token. */
export function authHeaders(token) {
  return token ? { Authorization: `Bearer ${token}` } : {};
}

/**
 * Calls a JSON route and returns its parsed body (null for an empty one).
 *
 * Throws an [`ApiError`] carrying the server's `{"error": {code, message}}` on a non-2xx.
 */
export async function request(token, path, { method = "GET", body } = {}) {
  const headers = { ...authHeaders(token), Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const response = await fetch(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    cache: "no-store",
  });
  const text = await response.text();
  let json = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = null;
  }
  if (!response.ok) {
    const error = json?.error ?? {};
    throw new ApiError(
      response.status,
      typeof error.code === "string" ? error.code : "http_error",
      typeof error.message === "string" && error.message ? error.message : `The server answered ${response.status}.`,
    );
  }
  return json;
}
