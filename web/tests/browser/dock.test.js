// The approval dock: its actions, risk, reason and one provenance line; the banner and the
// queue naming the tool; the actions inside the first viewport on desktop and phone.

import { test } from "node:test";
import assert from "node:assert/strict";
import { api, ask, newPage, openSession, screenshot, toolCall, until, serverAndBrowser } from "./support.js";

const env = serverAndBrowser();

/** The open approval request of a session, as the server holds it. */
async function pendingRequest(session) {
  return until(async () => {
    const { body } = await api(env.server, "/v1/approvals");
    return body.find((r) => r.sessionId === session);
  }, `a pending request in ${session}`);
}

/** Asks for a sidecar tool call the policy escalates (a push), without waiting for it. */
function sidecarPush(session, toolCallId, command = "git push origin main") {
  return api(env.server, `/v1/sessions/${session}/tool-calls`, {
    method: "POST",
    body: { toolCallId, toolName: "Bash", input: { command } },
  });
}

test("the dock shows the request's actions, risk, reason and one provenance line", async () => {
  const page = await newPage(env.browser);
  await openSession(page, env.server, "dock-content");
  await ask(page, "push");
  const dock = page.locator("#dock");
  await dock.waitFor();
  const request = await pendingRequest("dock-content");
  const labels = await dock.locator(".dock-actions button").allTextContents();
  assert.deepStrictEqual(labels, request.actions.map((a) => a.label));
  const ids = await dock.locator(".dock-actions button").evaluateAll((b) => b.map((e) => e.dataset.actionId));
  assert.deepStrictEqual(ids, request.actions.map((a) => a.id));
  assert.equal(await dock.locator(".dock-risk").textContent(), `Risk: ${request.risk[0].toUpperCase()}${request.risk.slice(1)}`);
  assert.equal(await dock.locator(".dock-reason").textContent(), request.reason);
  assert.equal(await dock.locator(".dock-title").textContent(), request.title);
  const meta = dock.locator(".dock-meta");
  const evaluator = { policy: "Policy", rule: "Rule", auto_classifier: "Auto reviewer" }[request.recommendation.source];
  assert.ok((await meta.textContent()).startsWith(evaluator), await meta.textContent());
  // One secondary line: it never wraps.
  const lines = await meta.evaluate((el) => Math.round(el.getBoundingClientRect().height / parseFloat(getComputedStyle(el).lineHeight)));
  assert.equal(lines, 1);
  assert.equal(await dock.locator(".ai-label").count(), request.recommendation.source === "auto_classifier" ? 1 : 0);
  await screenshot(dock, "dock");
  await dock.locator("[data-action-id=deny]").click();
  await dock.waitFor({ state: "hidden" });
  assert.deepStrictEqual(page.problems, []);
});

test("an AI recommendation is labelled and shows confidence, categories and reviewer model", async () => {
  const page = await newPage(env.browser);
  await openSession(page, env.server, "dock-ai");
  // In auto mode the classifier reviews the push; a request it escalates carries its provenance.
  const posted = await api(env.server, "/v1/sessions/dock-ai/tool-calls", {
    method: "POST",
    body: { toolCallId: "ai-1", toolName: "Bash", input: { command: "curl -X POST https://deploy.example/prod" }, mode: "auto" },
  });
  assert.ok(posted.status < 300, JSON.stringify(posted.body));
  const request = await pendingRequest("dock-ai");
  assert.equal(request.recommendation.source, "auto_classifier", JSON.stringify(request));
  const dock = page.locator("#dock");
  await dock.locator(".ai-label", { hasText: "AI recommendation" }).waitFor();
  const meta = await dock.locator(".dock-meta").textContent();
  assert.ok(meta.startsWith("Auto reviewer"), meta);
  const rec = request.recommendation;
  if (rec.confidence) assert.ok(meta.includes(`${rec.confidence[0].toUpperCase()}${rec.confidence.slice(1)} confidence`), meta);
  if (rec.reviewerModel) assert.ok(meta.includes(rec.reviewerModel), meta);
  for (const category of rec.riskCategories ?? []) assert.ok(meta.includes(category), meta);
  await screenshot(dock, "dock-ai-recommendation");
  await dock.locator("[data-action-id=deny]").click();
  await dock.waitFor({ state: "hidden" });
  assert.deepStrictEqual(page.problems, []);
});

for (const [width, height] of [[1280, 720], [390, 844]]) {
  test(`the dock's actions stay inside the initial ${width}×${height} viewport`, async () => {
    const page = await newPage(env.browser, { width, height });
    const session = `dock-viewport-${width}`;
    await openSession(page, env.server, session);
    await ask(page, "tour");
    const dock = page.locator("#dock");
    await dock.waitFor();
    for (const button of await dock.locator(".dock-actions button").all()) {
      const box = await button.boundingBox();
      assert.ok(box, "the action is rendered");
      assert.ok(box.x >= 0 && box.y >= 0 && box.x + box.width <= width && box.y + box.height <= height, `${await button.textContent()}: ${JSON.stringify(box)}`);
      assert.equal(await button.isVisible(), true);
    }
    const scroll = await page.evaluate(() => window.scrollY);
    assert.equal(scroll, 0);
    await screenshot(page, `dock-${width}x${height}`);
    await dock.locator("[data-action-id=allow_once]").click();
    await page.locator("text=That's all for now.").waitFor();
    assert.deepStrictEqual(page.problems, []);
  });
}

test("the banner and the queued approvals show toolName, and a queued request can be picked", async () => {
  const page = await newPage(env.browser, { width: 390, height: 844 });
  await openSession(page, env.server, "dock-queue");
  const first = sidecarPush("dock-queue", "queue-1");
  await page.locator("#dock[data-tool-call-id=queue-1]").waitFor();
  const second = sidecarPush("dock-queue", "queue-2", "git push origin release");
  await page.locator("#dock .queued[data-tool-call-id=queue-2]").waitFor();
  const requests = (await api(env.server, "/v1/approvals")).body.filter((r) => r.sessionId === "dock-queue");
  assert.deepStrictEqual(requests.map((r) => r.toolName), ["Bash", "Bash"]);
  assert.equal(await page.locator("#approval-banner .banner-tool").textContent(), "Bash");
  assert.match(await page.locator("#approval-banner").textContent(), /\+1 queued/);
  assert.equal(await page.locator("#dock .dock-tool").textContent(), "Bash");
  assert.equal(await page.locator("#dock .queued").textContent(), "Bash");
  await screenshot(page, "dock-queue");
  await page.locator("#dock .queued[data-tool-call-id=queue-2]").click();
  await page.locator("#dock[data-tool-call-id=queue-2]").waitFor();
  await page.locator("#dock [data-action-id=deny]").click();
  await page.locator("#dock[data-tool-call-id=queue-1]").waitFor();
  await page.locator("#dock [data-action-id=allow_once]").click();
  await page.locator("#dock").waitFor({ state: "hidden" });
  await page.locator("#approval-banner").waitFor({ state: "hidden" });
  await Promise.all([first, second]);
  await toolCall(page, "Bash", 0).locator(".badge", { hasText: "User approved" }).waitFor();
  await toolCall(page, "Bash", 1).locator(".badge", { hasText: "User denied" }).waitFor();
  assert.deepStrictEqual(page.problems, []);
});
