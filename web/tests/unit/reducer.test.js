// The browser reducer against the fixtures the Rust reducer is tested with.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import {
  addUserMessage,
  applyTimelineEvent,
  applyStreamEvent,
  emptyTimeline,
  readPersistedToolPart,
  reduceToolParts,
  timelineFromMessages,
} from "../../assets/reducer.js";

const FIXTURES = new URL("../../../tests/fixtures/reducer/", import.meta.url).pathname;
const fixtures = readdirSync(FIXTURES).filter((f) => f.endsWith(".json")).sort();

test("the shared fixtures are all there", () => {
  assert.ok(fixtures.length >= 8, `found ${fixtures.length} fixtures`);
});

for (const file of fixtures) {
  const fixture = JSON.parse(readFileSync(join(FIXTURES, file), "utf8"));
  test(`fixture: ${fixture.description}`, () => {
    assert.deepStrictEqual(reduceToolParts(fixture.events), fixture.parts);
  });
  test(`fixture through the timeline: ${fixture.description}`, () => {
    const timeline = fixture.events.reduce(applyTimelineEvent, emptyTimeline());
    assert.deepStrictEqual(timeline.parts, fixture.parts);
    assert.deepStrictEqual(
      timeline.items.filter((i) => i.kind === "tool").map((i) => i.id),
      fixture.parts.map((p) => p.toolCallId),
    );
  });
}

test("events that are not objects or lack required fields change nothing", () => {
  const start = { type: "TOOL_CALL_START", toolCallId: "c", toolCallName: "Bash" };
  const parts = reduceToolParts([start]);
  for (const bad of [null, 7, "x", [], {}, { type: "TOOL_CALL_ARGS", toolCallId: "c" }, { type: "TOOL_CALL_RESULT", toolCallId: "c", content: "x" }, { type: "CUSTOM", value: {} }]) {
    assert.deepStrictEqual(reduceToolParts([start, bad]), parts);
  }
});

test("a decision with a wrong enum value, a null optional or an extra field reads like serde", () => {
  const base = { toolCallId: "c", behavior: "allow", source: "policy", reason: "r", reasonCode: "shell_read_only", risk: "safe" };
  const custom = (value) => ({ type: "CUSTOM", name: "tool_permission_decision", value });
  assert.deepStrictEqual(reduceToolParts([custom({ ...base, risk: "severe" })]), []);
  assert.deepStrictEqual(reduceToolParts([custom({ ...base, confidence: "sure" })]), []);
  assert.deepStrictEqual(reduceToolParts([custom({ ...base, riskCategories: [1] })]), []);
  const [part] = reduceToolParts([custom({ ...base, confidence: null, extra: "<b>x</b>" })]);
  assert.deepStrictEqual(part.permissionDecision, base);
});

test("a resolution needs source user and an offered scope", () => {
  const value = { toolCallId: "c", behavior: "allow", source: "user", actionId: "allow_once", scope: "once" };
  const custom = (v) => ({ type: "CUSTOM", name: "tool_permission_resolution", value: v });
  assert.deepStrictEqual(reduceToolParts([custom({ ...value, source: "model" })]), []);
  assert.deepStrictEqual(reduceToolParts([custom({ ...value, behavior: "ask" })]), []);
  assert.deepStrictEqual(reduceToolParts([custom(value)])[0].permissionResolution, value);
});

test("persisted parts without the new fields read as plain parts", () => {
  assert.deepStrictEqual(readPersistedToolPart({ type: "tool", toolCallId: "c", toolName: "Bash", output: "ok" }), {
    toolCallId: "c",
    toolName: "Bash",
    state: "completed",
    output: "ok",
  });
  assert.equal(readPersistedToolPart({ toolName: "no id" }), null);
  const part = readPersistedToolPart({ toolCallId: "c", state: "running", permissionDecision: { behavior: "allow" } });
  assert.equal(part.permissionDecision, undefined);
});

test("a timeline of persisted messages keeps text and tool parts in order and skips junk", () => {
  const timeline = timelineFromMessages([
    { id: "m1", role: "user", parts: [{ type: "text", text: "hi" }] },
    { id: "m2", role: "assistant", parts: [{ type: "tool", toolCallId: "c1", toolName: "Bash", state: "completed" }, null, { type: "image" }] },
    "junk",
    { id: "m3" },
  ]);
  assert.deepStrictEqual(timeline.items.map((i) => `${i.kind}:${i.kind === "text" ? i.text : i.id}`), ["text:hi", "tool:c1"]);
  assert.deepStrictEqual(timelineFromMessages(null), emptyTimeline());
});

test("text messages stream into one item and runs toggle the running flag", () => {
  const events = [
    { type: "RUN_STARTED", threadId: "t", runId: "r" },
    { type: "TEXT_MESSAGE_START", messageId: "m", role: "assistant" },
    { type: "TEXT_MESSAGE_CONTENT", messageId: "m", delta: "Hello, " },
    { type: "TEXT_MESSAGE_CONTENT", messageId: "m", delta: "world" },
    { type: "TEXT_MESSAGE_END", messageId: "m" },
  ];
  const running = events.reduce(applyTimelineEvent, emptyTimeline());
  assert.equal(running.running, true);
  assert.deepStrictEqual(running.items, [{ kind: "text", id: "m", role: "assistant", text: "Hello, world" }]);
  const failed = applyTimelineEvent(running, { type: "RUN_ERROR", message: "boom" });
  assert.equal(failed.running, false);
  assert.equal(failed.error, "boom");
});

/** Replays `events` over a persisted running `ls` call `c`; `ids` are the calls not yet rebuilt. */
function replayOverPersisted(events, ids) {
  const persisted = timelineFromMessages([
    { id: "m", role: "assistant", parts: [{ type: "tool", toolCallId: "c", toolName: "Bash", state: "running", input: { command: "ls" } }] },
  ]);
  return events.reduce((t, e) => applyStreamEvent(t, e, ids), persisted);
}

test("a replayed stream rebuilds persisted calls in stream order without doubling their arguments", () => {
  const events = [
    { type: "TEXT_MESSAGE_START", messageId: "t", role: "assistant" },
    { type: "TEXT_MESSAGE_CONTENT", messageId: "t", delta: "Listing." },
    { type: "TOOL_CALL_START", toolCallId: "c", toolCallName: "Bash" },
    { type: "TOOL_CALL_ARGS", toolCallId: "c", delta: "{\"command\":\"ls\"}" },
    { type: "TOOL_CALL_END", toolCallId: "c" },
  ];
  const ids = new Set(["c"]);
  const replayed = replayOverPersisted(events, ids);
  assert.deepStrictEqual(replayed.parts, [{ toolCallId: "c", toolName: "Bash", state: "running", input: { command: "ls" } }]);
  assert.deepStrictEqual(replayed.items.map((i) => i.kind), ["text", "tool"]);
  assert.equal(ids.size, 0);
});

test("a persisted call whose start is no longer retained keeps its input and takes later metadata", () => {
  const events = [
    { type: "TOOL_CALL_ARGS", toolCallId: "c", delta: "\"ls\"}" },
    { type: "TOOL_CALL_END", toolCallId: "c" },
    { type: "CUSTOM", name: "tool_permission_decision", value: { toolCallId: "c", behavior: "allow", source: "policy", reason: "r", reasonCode: "shell_read_only", risk: "safe" } },
    { type: "TOOL_CALL_RESULT", messageId: "r", toolCallId: "c", content: "a b" },
  ];
  const [part] = replayOverPersisted(events, new Set(["c"])).parts;
  assert.deepStrictEqual(part.input, { command: "ls" });
  assert.equal(part.argsText, undefined);
  assert.equal(part.state, "completed");
  assert.equal(part.permissionDecision.reasonCode, "shell_read_only");
});

/** A persisted session whose call `c` was waiting for approval when the server stopped. */
function interruptedSession() {
  return timelineFromMessages([
    {
      id: "m",
      role: "assistant",
      parts: [
        {
          type: "tool",
          toolCallId: "c",
          toolName: "Bash",
          state: "output-error",
          interrupted: true,
          errorText: "Interrupted: the server restarted before this call ran.",
          input: { command: "git push" },
          permission: { toolCallId: "c", title: "Approve Bash", detail: "d", risk: "high", reason: "r", recommendation: { behavior: "ask", source: "policy", reasonCode: "policy_default_ask" }, actions: [] },
        },
      ],
    },
  ]);
}

test("a persisted interrupted call keeps its state, and its replayed run no longer runs", () => {
  const timeline = interruptedSession();
  assert.deepStrictEqual(
    { state: timeline.parts[0].state, interrupted: timeline.parts[0].interrupted, errorText: timeline.parts[0].errorText },
    { state: "output-error", interrupted: true, errorText: "Interrupted: the server restarted before this call ran." },
  );
  // The retained stream replays the dead run: it started, and the call asked.
  const ids = new Set(["c"]);
  const events = [
    { type: "RUN_STARTED", threadId: "t", runId: "r" },
    { type: "TOOL_CALL_START", toolCallId: "c", toolCallName: "Bash" },
    { type: "TOOL_CALL_ARGS", toolCallId: "c", delta: "{\"command\":\"git push\"}" },
    { type: "TOOL_CALL_END", toolCallId: "c" },
    { type: "CUSTOM", name: "tool_permission_decision", value: { toolCallId: "c", behavior: "ask", source: "policy", reason: "r", reasonCode: "policy_default_ask", risk: "high" } },
  ];
  const replayed = events.reduce((t, e) => applyStreamEvent(t, e, ids), timeline);
  assert.equal(replayed.running, false);
  assert.equal(replayed.parts[0].state, "output-error");
  assert.equal(replayed.parts[0].interrupted, true);
  assert.equal(replayed.parts[0].permissionDecision.behavior, "ask");
  // A new run after the restart runs.
  const next = applyStreamEvent(replayed, { type: "RUN_STARTED", threadId: "t", runId: "r2" }, ids);
  assert.equal(next.running, true);
});

test("the user's own message shows at once and a stream echo of it replaces it", () => {
  let timeline = addUserMessage(emptyTimeline(), "u1", "push");
  assert.deepStrictEqual(timeline.items, [{ kind: "text", id: "u1", role: "user", text: "push" }]);
  assert.equal(addUserMessage(timeline, "u1", "push"), timeline);
  for (const event of [
    { type: "TEXT_MESSAGE_START", messageId: "u1", role: "user" },
    { type: "TEXT_MESSAGE_CONTENT", messageId: "u1", delta: "push" },
    { type: "TEXT_MESSAGE_END", messageId: "u1" },
  ]) timeline = applyTimelineEvent(timeline, event);
  assert.deepStrictEqual(timeline.items, [{ kind: "text", id: "u1", role: "user", text: "push" }]);
});
