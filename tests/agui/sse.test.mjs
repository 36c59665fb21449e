// Every event `warrant serve` streams validates against @ag-ui/core's EventSchemas and passes
// the client's own verifyEvents; a resumed connection (Last-Event-ID) gets exactly what it
// missed.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { from, lastValueFrom, toArray } from "rxjs";
import { verifyEvents } from "@ag-ui/client";
import { assertValid, postRun, readEvents, startServe, userMessage } from "./harness.mjs";

let server;
before(async () => {
  server = await startServe();
});
after(async () => {
  await server?.stop();
});

async function verified(events) {
  return lastValueFrom(from(events).pipe(verifyEvents(false), toArray()));
}

async function tour(threadId) {
  const messages = [userMessage("u1", "Show me around")];
  const first = await postRun(server, { threadId, runId: `${threadId}-r1`, messages });
  const interrupt = first.at(-1).event.outcome.interrupts[0];
  const resume = [{ interruptId: interrupt.id, status: "resolved", payload: { actionId: "allow_once" } }];
  const second = await postRun(server, { threadId, runId: `${threadId}-r2`, messages, resume });
  return { first, second };
}

test("healthz answers without a token; the API needs one", async () => {
  const health = await fetch(`${server.url}/healthz`);
  assert.deepEqual([health.status, await health.json()], [200, { status: "ok" }]);
  const denied = await fetch(`${server.url}/v1/workspace`);
  assert.equal(denied.status, 401);
  assert.equal((await denied.json()).error.code, "missing_token");
  const foreign = await fetch(`${server.url}/v1/workspace`, {
    headers: { ...server.headers, Origin: "http://evil.example" },
  });
  assert.equal(foreign.status, 403);
});

test("every event of a run and of its resume validates against EventSchemas and verifyEvents", async () => {
  const { first, second } = await tour("sse-schemas");
  for (const run of [first, second]) {
    const events = run.map((f) => f.event);
    events.forEach(assertValid);
    assert.equal(events[0].type, "RUN_STARTED");
    assert.equal(events.at(-1).type, "RUN_FINISHED");
    assert.equal((await verified(events)).length, events.length);
    const ids = run.map((f) => f.id);
    ids.forEach((id, i) => i > 0 && assert.equal(id, ids[i - 1] + 1, "consecutive ids"));
  }
  assert.equal(first.at(-1).event.outcome.type, "interrupt");
  assert.equal(second.at(-1).event.outcome.type, "success");
  const sources = [...first, ...second]
    .map((f) => f.event)
    .filter((e) => e.type === "CUSTOM" && e.name === "tool_permission_decision")
    .map((e) => `${e.value.behavior}:${e.value.source}`);
  assert.ok(sources.includes("allow:policy"), sources.join(" "));
  assert.ok(sources.includes("deny:policy"), sources.join(" "));
  assert.ok(sources.some((s) => s.startsWith("ask:")), sources.join(" "));
  assert.ok(sources.some((s) => s.endsWith(":auto_classifier")), sources.join(" "));
  assert.ok(sources.includes("allow:full_access"), sources.join(" "));
});

test("the session stream replays every logged event, each valid", async () => {
  const { first, second } = await tour("sse-replay");
  const logged = [...first, ...second];
  const replay = await readEvents(server, "sse-replay", logged.length);
  assert.deepEqual(replay, logged);
  replay.forEach((f) => assertValid(f.event));
  assert.equal((await verified(replay.map((f) => f.event))).length, logged.length);
});

test("a connection resumed with Last-Event-ID receives exactly the events it missed", async () => {
  const messages = [userMessage("u1", "Show me around")];
  const first = await postRun(server, { threadId: "sse-resume", runId: "r1", messages });
  const seenBeforeDrop = await readEvents(server, "sse-resume", 5);
  const lastSeen = seenBeforeDrop.at(-1).id;
  // While the client is away, the thread goes on.
  const interrupt = first.at(-1).event.outcome.interrupts[0];
  const resume = [{ interruptId: interrupt.id, status: "cancelled" }];
  const second = await postRun(server, { threadId: "sse-resume", runId: "r2", messages, resume });
  const all = [...first, ...second];
  const missed = all.filter((f) => f.id > lastSeen);
  const resumed = await readEvents(server, "sse-resume", missed.length, lastSeen);
  assert.deepEqual(resumed, missed);
  assert.deepEqual([...seenBeforeDrop, ...resumed], all, "no gap and no duplicate");
});
