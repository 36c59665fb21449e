// The SSE parser the session stream is read with.
import { test } from "node:test";
import assert from "node:assert/strict";
import { SseParser, errorMessage, readEventStream } from "../../assets/sse.js";

test("frames split across chunks are joined, with their ids", () => {
  const parser = new SseParser();
  assert.deepStrictEqual(parser.feed("id: 1\ndata: {\"a\""), []);
  assert.deepStrictEqual(parser.feed(":1}\n\nid: 2\ndata: x\n"), [{ id: "1", event: "message", data: "{\"a\":1}" }]);
  assert.deepStrictEqual(parser.feed("\n"), [{ id: "2", event: "message", data: "x" }]);
  assert.equal(parser.lastEventId, "2");
});

test("comments and keep-alives dispatch nothing; multi-line data joins with newlines", () => {
  const parser = new SseParser();
  assert.deepStrictEqual(parser.feed(": keep-alive\n\n"), []);
  assert.deepStrictEqual(parser.feed("event: e\ndata: a\ndata: b\n\n"), [{ id: "", event: "e", data: "a\nb" }]);
});

test("a frame without an id keeps the last id, and CR before LF is tolerated", () => {
  const parser = new SseParser();
  parser.feed("id: 7\ndata: a\n\n");
  assert.deepStrictEqual(parser.feed("data: b\r\n\r\n"), [{ id: "7", event: "message", data: "b" }]);
});

test("readEventStream hands over JSON frames with their ids and skips the rest", async () => {
  const body = "id: 1\ndata: {\"type\":\"RUN_STARTED\"}\n\ndata: not json\n\nid: 3\ndata: {\"type\":\"RUN_FINISHED\"}\n\n";
  const bytes = new TextEncoder().encode(body);
  const response = new Response(new ReadableStream({
    start(controller) {
      // Split inside a multi-byte-free frame boundary to exercise buffering.
      controller.enqueue(bytes.slice(0, 10));
      controller.enqueue(bytes.slice(10));
      controller.close();
    },
  }));
  const seen = [];
  const last = await readEventStream(response, (json, id) => seen.push([json.type, id]));
  assert.deepStrictEqual(seen, [["RUN_STARTED", "1"], ["RUN_FINISHED", "3"]]);
  assert.equal(last, "3");
});

test("error bodies give the server's message", () => {
  assert.equal(errorMessage('{"error":{"code":"x","message":"unknown tool id"}}', 422), "unknown tool id");
  assert.equal(errorMessage("oops", 500), "The server answered 500.");
});
