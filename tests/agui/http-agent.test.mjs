// The official HttpAgent runs the demo agent end to end: its own verifyEvents accepts every
// run, the three Warrant CUSTOM events reach onCustomEvent, and an AG-UI interrupt is
// approved by resuming the thread.
import { after, afterEach, before, beforeEach, test } from "node:test";
import assert from "node:assert/strict";
import { HttpAgent } from "@ag-ui/client";
import { startServe, userMessage } from "./harness.mjs";

let server;
let warnings;
const originalWarn = console.warn;
before(async () => {
  server = await startServe();
});
after(async () => {
  await server?.stop();
});
beforeEach(() => {
  warnings = [];
  console.warn = (...args) => warnings.push(args.join(" "));
});
afterEach(() => {
  console.warn = originalWarn;
});

function agent(threadId, text) {
  const a = new HttpAgent({ url: `${server.url}/v1/agent`, headers: server.headers, threadId });
  a.addMessage(userMessage(`${threadId}-u1`, text));
  return a;
}

function recorder() {
  const seen = { customs: [], outcomes: [], errors: [] };
  return {
    seen,
    onCustomEvent: ({ event }) => void seen.customs.push(event.name),
    onRunFinishedEvent: ({ outcome }) => void seen.outcomes.push(outcome),
    onRunErrorEvent: ({ event }) => void seen.errors.push(event),
  };
}

test("an interrupted run is approved by resuming it, and every event passes the client", async () => {
  const tourist = agent("client-tour", "Show me around");
  const subscriber = recorder();
  tourist.subscribe(subscriber);

  await tourist.runAgent();
  assert.deepEqual(subscriber.seen.outcomes, ["interrupt"]);
  assert.equal(tourist.pendingInterrupts.length, 1);
  const [interrupt] = tourist.pendingInterrupts;
  assert.equal(interrupt.reason, "tool_call");
  assert.ok(interrupt.toolCallId);
  assert.ok(interrupt.responseSchema.properties.actionId.enum.includes("allow_once"));

  await tourist.runAgent({
    resume: [{ interruptId: interrupt.id, status: "resolved", payload: { actionId: "allow_once" } }],
  });
  assert.deepEqual(subscriber.seen.outcomes, ["interrupt", "success"]);
  assert.deepEqual(tourist.pendingInterrupts, []);
  assert.deepEqual(subscriber.seen.errors, []);

  const names = new Set(subscriber.seen.customs);
  assert.deepEqual(
    [...names].sort(),
    ["tool_approval_request", "tool_permission_decision", "tool_permission_resolution"],
  );
  const toolMessages = tourist.messages.filter((m) => m.role === "tool");
  const approved = toolMessages.find((m) => m.toolCallId === interrupt.toolCallId);
  assert.match(approved.content, /main -> main/);
  assert.deepEqual(warnings.filter((w) => w.includes("[ag-ui]")), [], "nothing stripped or dropped");
});

test("a cancelled interrupt denies the call and the thread goes on", async () => {
  const pusher = agent("client-cancel", "Please push the branch");
  const subscriber = recorder();
  pusher.subscribe(subscriber);
  await pusher.runAgent();
  const [interrupt] = pusher.pendingInterrupts;
  await pusher.runAgent({ resume: [{ interruptId: interrupt.id, status: "cancelled" }] });
  assert.deepEqual(subscriber.seen.outcomes, ["interrupt", "success"]);
  const result = pusher.messages.find((m) => m.role === "tool" && m.toolCallId === interrupt.toolCallId);
  assert.equal(result.content, "Not run: the user denied it");
});

test("a run needing no approval finishes in one go", async () => {
  const reader = agent("client-read", "Read the README");
  const subscriber = recorder();
  reader.subscribe(subscriber);
  const { newMessages } = await reader.runAgent();
  assert.deepEqual(subscriber.seen.outcomes, ["success"]);
  assert.deepEqual(subscriber.seen.customs, ["tool_permission_decision"]);
  assert.ok(newMessages.some((m) => m.role === "tool"));
});
