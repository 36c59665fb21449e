// Metadata survives completion and reload; old persisted chats and old servers render
// without errors.

import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { api, ask, framesUntil, newPage, openSession, screenshot, sectionRows, startServer, TOKEN, toolCall, serverAndBrowser } from "./support.js";

const env = serverAndBrowser();

/** Every call's badge and expanded decision rows, in timeline order. */
async function snapshot(page) {
  const calls = await page.locator("details.tool").all();
  const out = [];
  for (const call of calls) {
    if (!(await call.evaluate((d) => d.open))) await call.locator("summary").click();
    out.push({
      tool: await call.locator(".tool-name").textContent(),
      status: await call.getAttribute("data-status"),
      badge: (await call.locator(".badge").count()) ? await call.locator(".badge").textContent() : null,
      decision: await sectionRows(call, "permission-decision"),
      review: await sectionRows(call, "review"),
    });
  }
  return out;
}

async function runTour(page, session) {
  await openSession(page, env.server, session);
  await page.locator("#verbose-toggle").check();
  await ask(page, "tour");
  await page.locator("#dock [data-action-id=allow_session]").click();
  await page.locator("text=That's all for now.").waitFor();
  await page.locator("#composer-send:enabled").waitFor();
}

test("metadata stays attached after completion and after a reload", async () => {
  const page = await newPage(env.browser);
  await runTour(page, "reload");
  const before = await snapshot(page);
  assert.equal(before.length, 5);
  assert.ok(before.every((c) => c.status === "completed" || c.status === "denied"), JSON.stringify(before));
  assert.deepStrictEqual(before.map((c) => c.badge), [
    "Policy allowed",
    before[1].badge.startsWith("Denied · ") ? before[1].badge : "Denied · ?",
    "User approved",
    before[3].badge.startsWith("Auto allowed · ") ? before[3].badge : "Auto allowed · ?",
    "Full Access · Not reviewed",
  ]);
  assert.equal(before[2].review.Resolution, "User allowed for this session");
  // The user's own message is shown as it is sent; the server does not replay it.
  const order = () => page.locator(".timeline > :not([data-role=user])").evaluateAll((els) => els.map((e) => e.textContent.slice(0, 40)));
  const orderBefore = await order();
  await page.reload();
  await page.locator("text=That's all for now.").waitFor();
  const after = await snapshot(page);
  assert.deepStrictEqual(after, before);
  assert.deepStrictEqual(await order(), orderBefore);
  await screenshot(page, "after-reload");
  assert.deepStrictEqual(page.problems, []);
});

test("the persisted parts alone render every badge and detail", async () => {
  const first = await newPage(env.browser);
  await runTour(first, "persisted-only");
  const expected = await snapshot(first);
  // A new tab with no stream at all: everything comes from GET /v1/sessions/{id}/messages.
  const page = await newPage(env.browser);
  await page.route("**/v1/sessions/*/events", (route) => route.abort());
  await page.goto(`${env.server.url}/?session=persisted-only#token=${TOKEN}`);
  await page.locator("details.tool").nth(4).waitFor();
  await page.locator("#verbose-toggle").check();
  assert.deepStrictEqual(await snapshot(page), expected);
  assert.deepStrictEqual(page.problems.filter((p) => !p.includes("ERR_FAILED")), []);
});

test("a persisted chat without the new fields renders without errors", async () => {
  const page = await newPage(env.browser);
  const oldChat = [
    { id: "m1", role: "assistant", parts: [{ type: "text", text: "Listing files." }, { type: "tool", toolCallId: "old-1", toolName: "Bash", state: "completed", input: { command: "ls" }, output: "a b" }] },
    // Older still: no state, no input, an approval contract of an older shape, junk parts.
    { id: "m2", role: "assistant", parts: [{ type: "tool", toolCallId: "old-2", toolName: "Deploy", output: "done", permission: { title: "Approve Deploy", risk: "high" } }, { type: "image", url: "x" }, null] },
    { id: "m3", role: "assistant", parts: [{ type: "tool", toolCallId: "old-3", toolName: "Edit", permissionDecision: { behavior: "allow", reason: "half a decision" } }] },
  ];
  await page.route("**/v1/sessions/old-chat/messages", (route) => route.fulfill({ json: oldChat }));
  await openSession(page, env.server, "old-chat");
  await toolCall(page, "Edit").waitFor();
  assert.deepStrictEqual(await page.locator(".tool-name").allTextContents(), ["Bash", "Deploy", "Edit"]);
  assert.equal(await page.locator(".badge").count(), 0);
  assert.equal(await page.locator("#dock").isHidden(), true);
  for (const call of await page.locator("details.tool").all()) await call.locator("summary").click();
  assert.equal(await page.locator("section.permission-decision").count(), 0);
  assert.equal(await toolCall(page, "Bash").locator(".tool-output pre").textContent(), "a b");
  assert.equal(await page.locator(".text-item").first().textContent(), "Listing files.");
  await screenshot(page, "old-chat");
  assert.deepStrictEqual(page.problems, []);
});

test("a server that sends no decision events gives a working timeline without badges", async () => {
  const page = await newPage(env.browser);
  // An older server: the same AG-UI tool events, none of Warrant's CUSTOM events, no
  // persisted messages and no settings routes.
  const events = [
    { type: "RUN_STARTED", threadId: "old-server", runId: "r1" },
    { type: "TEXT_MESSAGE_START", messageId: "t1", role: "assistant" },
    { type: "TEXT_MESSAGE_CONTENT", messageId: "t1", delta: "Running the tests." },
    { type: "TEXT_MESSAGE_END", messageId: "t1" },
    { type: "TOOL_CALL_START", toolCallId: "c1", toolCallName: "Bash" },
    { type: "TOOL_CALL_ARGS", toolCallId: "c1", delta: "{\"command\":" },
    { type: "TOOL_CALL_ARGS", toolCallId: "c1", delta: "\"cargo test\"}" },
    { type: "TOOL_CALL_END", toolCallId: "c1" },
    { type: "TOOL_CALL_RESULT", messageId: "c1-r", toolCallId: "c1", content: "test result: ok", role: "tool" },
    { type: "CUSTOM", name: "some_other_event", value: { toolCallId: "c1" } },
    { type: "TOOL_CALL_START", toolCallId: "c2", toolCallName: "Write" },
    { type: "TOOL_CALL_END", toolCallId: "c2" },
    { type: "RUN_FINISHED", threadId: "old-server", runId: "r1" },
  ];
  const frames = events.map((e, i) => `id: ${i + 1}\ndata: ${JSON.stringify(e)}\n\n`).join("");
  await page.route("**/v1/sessions/old-server/events", (route, request) => {
    const resumed = request.headers()["last-event-id"];
    return route.fulfill({ status: 200, headers: { "content-type": "text/event-stream" }, body: resumed ? "" : frames });
  });
  await page.route("**/v1/sessions/old-server/messages", (route) => route.fulfill({ status: 404, json: { error: { code: "not_found", message: "no route" } } }));
  for (const path of ["**/v1/tools", "**/v1/workspace"]) {
    await page.route(path, (route) => route.fulfill({ status: 404, json: { error: { code: "not_found", message: "no route" } } }));
  }
  await page.goto(`${env.server.url}/?session=old-server#token=${TOKEN}`);
  const bash = toolCall(page, "Bash");
  await bash.locator(".status[data-status=completed]").waitFor();
  await toolCall(page, "Write").locator(".status[data-status=running]").waitFor();
  assert.equal(await page.locator(".badge").count(), 0);
  await bash.locator("summary").click();
  assert.equal(await bash.locator("section.permission-decision").count(), 0);
  assert.match(await bash.locator(".tool-input pre").textContent(), /"command": "cargo test"/);
  assert.equal(await bash.locator(".tool-output pre").textContent(), "test result: ok");
  assert.equal(await page.locator("#composer-send").isEnabled(), true);
  assert.match(await page.locator("#activity").textContent(), /does not offer tool auto-approval settings/);
  assert.equal(await page.locator("#notice").isHidden(), true);
  await screenshot(page, "old-server");
  assert.deepStrictEqual(page.problems, []);
});

test("the stream resumes after a dropped connection without gaps or repeats", async () => {
  // A finished run in the session's log.
  const run = await fetch(`${env.server.url}/v1/agent`, {
    method: "POST",
    headers: { Authorization: `Bearer ${TOKEN}`, "Content-Type": "application/json", Accept: "text/event-stream" },
    body: JSON.stringify({ threadId: "resume", runId: "resume-run", messages: [{ id: "u1", role: "user", content: "full" }] }),
  });
  await run.text();
  const page = await newPage(env.browser);
  const lastIds = [];
  await page.route("**/v1/sessions/resume/messages", (route) => route.fulfill({ json: [] }));
  await page.route("**/v1/sessions/resume/events", async (route, request) => {
    lastIds.push(request.headers()["last-event-id"] ?? "");
    if (lastIds.length > 1) return route.continue();
    // The first connection drops after four events.
    let count = 0;
    const frames = await framesUntil(env.server, "resume", () => ++count === 4);
    return route.fulfill({ status: 200, headers: { "content-type": "text/event-stream" }, body: frames });
  });
  await page.goto(`${env.server.url}/?session=resume#token=${TOKEN}`);
  const call = toolCall(page, "Write");
  await call.locator(".badge", { hasText: "Full Access · Not reviewed" }).waitFor();
  await page.locator("text=That's all for now.").waitFor();
  assert.deepStrictEqual(lastIds.slice(0, 2), ["", "4"]);
  assert.equal(await page.locator("details.tool").count(), 1);
  const texts = await page.locator(".text-item").allTextContents();
  assert.equal(new Set(texts).size, texts.length, JSON.stringify(texts));
  const { body } = await api(env.server, "/v1/sessions/resume/messages");
  const part = body.flatMap((m) => m.parts).find((p) => p.type === "tool");
  await call.locator("summary").click();
  assert.equal(await call.locator(".tool-input pre").textContent(), JSON.stringify(part.input, null, 2));
  assert.equal(await call.locator(".tool-output pre").textContent(), part.output);
  assert.deepStrictEqual(page.problems, []);
});

test("a call pending when the server stops reads as interrupted after a restart, and the composer works", async () => {
  const home = mkdtempSync(join(tmpdir(), "warrant-restart-"));
  const dirs = { dataDir: join(home, "data"), workspace: join(home, "workspace") };
  let server = await startServer(dirs);
  try {
    const before = await newPage(env.browser);
    await openSession(before, server, "restart");
    await ask(before, "push");
    await before.locator("#dock").waitFor();
    await before.context().close();
    await server.stop();
    // The same data directory, a new process: nobody can answer the old request any more.
    server = await startServer(dirs);
    assert.deepStrictEqual((await api(server, "/v1/approvals")).body, []);
    const page = await newPage(env.browser);
    await openSession(page, server, "restart");
    const call = toolCall(page, "Bash");
    await call.locator(".status[data-status=interrupted]").waitFor();
    assert.equal(await call.locator(".status-text").textContent(), "Interrupted — never ran");
    assert.equal(await call.getAttribute("data-status"), "interrupted");
    assert.equal(await page.locator("#dock").isHidden(), true);
    assert.equal(await page.locator("#approval-banner").isHidden(), true);
    await page.locator("#composer-send:enabled").waitFor();
    await call.locator("summary").click();
    await call.locator(".tool-error h4", { hasText: "Interrupted — never ran" }).waitFor();
    assert.match(await call.locator(".tool-error").textContent(), /never ran/);
    assert.equal((await sectionRows(call, "permission-decision")).Outcome, "Interrupted — never ran");
    await screenshot(page, "interrupted-after-restart");
    // The session goes on.
    await ask(page, "read");
    await toolCall(page, "view").locator(".status[data-status=completed]").waitFor();
    await page.locator("#composer-send:enabled").waitFor();
    assert.equal(await call.getAttribute("data-status"), "interrupted");
    assert.deepStrictEqual(page.problems, []);
  } finally {
    await server.stop();
    rmSync(home, { recursive: true, force: true });
  }
});
