// Server-sent events over `fetch`: EventSource cannot send an Authorization header, so the
// stream is read with a streaming body reader and parsed here, resuming with Last-Event-ID.

/**
 * An incremental parser of the `text/event-stream` format. Feed it text as it arrives; it
 * returns the events completed so far. Frames end with a blank line; `data:` lines are
 * joined with newlines; `id:` sets the id the stream resumes from; comments are skipped.
 */
export class SseParser {
  constructor() {
    this.buffer = "";
    this.data = [];
    this.event = "";
    this.lastEventId = "";
  }

  /** Parses a chunk of text; returns the completed events as `{id, event, data}`. */
  feed(chunk) {
    this.buffer += chunk;
    const events = [];
    let newline;
    while ((newline = this.buffer.indexOf("\n")) !== -1) {
      let line = this.buffer.slice(0, newline);
      this.buffer = this.buffer.slice(newline + 1);
      if (line.endsWith("\r")) line = line.slice(0, -1);
      const event = this.line(line);
      if (event) events.push(event);
    }
    return events;
  }

  line(line) {
    if (line === "") {
      const dispatch = this.data.length > 0;
      const event = { id: this.lastEventId, event: this.event || "message", data: this.data.join("\n") };
      this.data = [];
      this.event = "";
      return dispatch ? event : null;
    }
    if (line.startsWith(":")) return null;
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "data") this.data.push(value);
    else if (field === "event") this.event = value;
    else if (field === "id" && !value.includes("\0")) this.lastEventId = value;
    return null;
  }
}

/** Why a stream stopped for good (it is not retried). */
export class StreamRejected extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

/**
 * Reads one SSE response to its end, calling `onEvent(json, id)` for each `data:` frame that
 * holds JSON. Frames that are not JSON are skipped. Resolves with the parser's last event id.
 */
export async function readEventStream(response, onEvent, parser = new SseParser()) {
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  for (;;) {
    const { value, done } = await reader.read();
    const text = done ? decoder.decode() : decoder.decode(value, { stream: true });
    for (const frame of parser.feed(text)) {
      let json;
      try {
        json = JSON.parse(frame.data);
      } catch {
        continue;
      }
      onEvent(json, frame.id);
    }
    if (done) return parser.lastEventId;
  }
}

/**
 * Follows a resumable event stream: connects, reads, and on any end or network error
 * reconnects after a short back-off with `Last-Event-ID` set to the last id seen, so no event
 * is missed or repeated. Stops when `signal` aborts or the server rejects the request with a
 * 4xx status (`onRejected` is called with a [`StreamRejected`]).
 */
export async function followEventStream({ url, headers, lastEventId = "", signal, onEvent, onState, onRejected }) {
  let delay = 250;
  let last = lastEventId;
  while (!signal.aborted) {
    onState?.("connecting");
    try {
      const requestHeaders = { ...headers, Accept: "text/event-stream" };
      if (last) requestHeaders["Last-Event-ID"] = last;
      const response = await fetch(url, { headers: requestHeaders, signal, cache: "no-store" });
      if (response.status >= 400 && response.status < 500) {
        const body = await response.text().catch(() => "");
        onRejected?.(new StreamRejected(response.status, errorMessage(body, response.status)));
        onState?.("stopped");
        return;
      }
      if (!response.ok || !response.body) throw new Error(`HTTP ${response.status}`);
      onState?.("live");
      delay = 250;
      const parser = new SseParser();
      parser.lastEventId = last;
      await readEventStream(response, (json, id) => {
        last = id;
        onEvent(json, id);
      }, parser);
    } catch (e) {
      if (signal.aborted) break;
      onState?.("reconnecting", e);
    }
    if (signal.aborted) break;
    await wait(delay, signal);
    delay = Math.min(delay * 2, 5000);
  }
  onState?.("stopped");
}

/** The message of a Warrant JSON error body, or a generic one. */
export function errorMessage(body, status) {
  try {
    const parsed = JSON.parse(body);
    const message = parsed?.error?.message;
    if (typeof message === "string" && message) return message;
  } catch {
    // Not JSON: fall through.
  }
  return `The server answered ${status}.`;
}

function wait(ms, signal) {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => {
      clearTimeout(timer);
      resolve();
    }, { once: true });
  });
}
