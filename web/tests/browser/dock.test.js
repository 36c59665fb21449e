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
    // The timeline scrolled to the waiting call: it shows above the dock.
    const waiting = page.locator(`details.tool[data-tool-call-id="${await dock.getAttribute("data-tool-call-id")}"] summary`);
    const dockTop = (await dock.boundingBox()).y;
    await until(async () => {
      const box = await waiting.boundingBox();
      return box && box.y >= 0 && box.y + box.height <= dockTop;
    }, "the waiting call to be in view above the dock");
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

/** A 2,000-character command: a POST whose payload the person must be able to read. */
const LONG_COMMAND = (() => {
  const head = "curl -X POST https://deploy.example/api/v1/releases -H 'Content-Type: application/json' -d '";
  const tail = "'";
  let body = "";
  for (let i = 0; head.length + body.length + tail.length < 2000; i++) body += `{"k${i}":"v${i}"},`;
  return (head + body).slice(0, 2000 - tail.length) + tail;
})();

for (const [width, height] of [[1280, 720], [390, 844]]) {
  test(`the dock shows a 2,000-character command in full, scrollable and copyable, with its actions in view at ${width}×${height}`, async () => {
    assert.equal(LONG_COMMAND.length, 2000);
    const page = await newPage(env.browser, { width, height });
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: env.server.url });
    const session = `dock-long-${width}`;
    await openSession(page, env.server, session);
    await sidecarPush(session, `long-${width}`, LONG_COMMAND);
    const dock = page.locator("#dock");
    await dock.waitFor();
    const text = dock.locator(".subject-text");
    assert.equal(await dock.locator(".subject-label").textContent(), "Command");
    // Every character is there: nothing is cut.
    assert.equal(await text.textContent(), LONG_COMMAND);
    assert.equal(await text.evaluate((el) => getComputedStyle(el).fontFamily.includes("monospace")), true);
    const { scrollable, overflow } = await text.evaluate((el) => ({ scrollable: el.scrollHeight > el.clientHeight, overflow: getComputedStyle(el).overflowY }));
    assert.equal(scrollable, true);
    assert.equal(overflow, "auto");
    // It is on screen, several lines of it, above the actions.
    const box = await text.boundingBox();
    const firstAction = await dock.locator(".dock-actions button").first().boundingBox();
    assert.ok(box.height >= 60 && box.y >= 0 && box.y + box.height <= firstAction.y, `${JSON.stringify(box)} above ${JSON.stringify(firstAction)}`);
    // Its end can be scrolled into view.
    await text.evaluate((el) => { el.scrollTop = el.scrollHeight; });
    assert.ok((await text.evaluate((el) => el.scrollTop)) > 0);
    for (const button of await dock.locator(".dock-actions button").all()) {
      const box = await button.boundingBox();
      assert.ok(box.y >= 0 && box.y + box.height <= height && box.x >= 0 && box.x + box.width <= width, `${await button.textContent()}: ${JSON.stringify(box)}`);
    }
    await dock.locator("button.copy").click();
    await dock.locator("button.copy", { hasText: "Copied" }).waitFor();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), LONG_COMMAND);
    await screenshot(page, `dock-long-command-${width}x${height}`);
    await dock.locator("[data-action-id=deny]").click();
    await dock.waitFor({ state: "hidden" });
    assert.deepStrictEqual(page.problems, []);
  });
}

test("the dock words the verdict and colours the risk", async () => {
  const page = await newPage(env.browser);
  await openSession(page, env.server, "dock-verdict");
  await sidecarPush("dock-verdict", "verdict-1");
  const dock = page.locator("#dock");
  await dock.waitFor();
  const request = await pendingRequest("dock-verdict");
  const lead = { policy: "The policy asks for your review:", auto_classifier: "The reviewer recommends review:", rule: "A rule asks for your review:" }[request.recommendation.source];
  assert.equal(await dock.locator(".dock-verdict").textContent(), `${lead} ${request.reason}`);
  const risk = dock.locator(".dock-risk");
  assert.equal(await risk.getAttribute("data-risk"), request.risk);
  const colours = await risk.evaluate((el) => [getComputedStyle(el).color, getComputedStyle(el).backgroundColor]);
  assert.notEqual(colours[1], "rgba(0, 0, 0, 0)");
  await dock.locator("[data-action-id=deny]").click();
  await dock.waitFor({ state: "hidden" });
  assert.deepStrictEqual(page.problems, []);
});

test("keyboard only: the request takes focus, a digit acts, Escape leaves, focus returns to the composer", async () => {
  const page = await newPage(env.browser);
  await openSession(page, env.server, "dock-keyboard");
  // Tab to the composer, as a keyboard user does.
  for (let i = 0; i < 30 && !(await page.evaluate(() => document.activeElement?.id === "composer-input")); i++) await page.keyboard.press("Tab");
  assert.equal(await page.evaluate(() => document.activeElement?.id), "composer-input");
  await page.keyboard.type("push");
  await page.keyboard.press("Enter");
  // The user's own message is in the timeline.
  await page.locator(".text-item[data-role=user]", { hasText: "push" }).waitFor();
  const dock = page.locator("#dock");
  await dock.waitFor();
  await until(() => page.evaluate(() => document.activeElement?.id === "dock"), "focus on the dock");
  // The shortcuts are shown on the actions.
  const keys = await dock.locator(".dock-actions button").evaluateAll((b) => b.map((e) => e.getAttribute("aria-keyshortcuts")));
  assert.deepStrictEqual(keys, keys.map((_, i) => String(i + 1)));
  assert.match(await dock.locator(".dock-keys").textContent(), /Esc/);
  await screenshot(page, "dock-keyboard");
  // Escape leaves the dock (the request stays): the composer has focus.
  await page.keyboard.press("Escape");
  await until(() => page.evaluate(() => document.activeElement?.id === "composer-input"), "focus back on the composer");
  assert.equal(await dock.isVisible(), true);
  // Alt+A comes back to the waiting request from anywhere.
  await page.keyboard.press("Alt+A");
  await until(() => page.evaluate(() => document.activeElement?.id === "dock"), "focus back on the dock");
  await page.keyboard.press("1");
  await toolCall(page, "Bash").locator(".badge", { hasText: "User approved" }).waitFor();
  await dock.waitFor({ state: "hidden" });
  await until(() => page.evaluate(() => document.activeElement?.id === "composer-input"), "focus back on the composer after acting");
  await page.locator("#composer-send:enabled").waitFor();
  // The composer is ready for the next message, by keyboard again.
  await page.keyboard.type("push");
  await page.keyboard.press("Enter");
  await until(() => page.evaluate(() => document.activeElement?.id === "dock" && document.querySelector("#dock").dataset.toolCallId), "focus on the second request");
  const deny = await page.evaluate(() => [...document.querySelectorAll("#dock .dock-actions button")].findIndex((b) => b.dataset.actionId === "deny"));
  await page.keyboard.press(String(deny + 1));
  await toolCall(page, "Bash", 1).locator(".badge", { hasText: "User denied" }).waitFor();
  await until(() => page.evaluate(() => document.activeElement?.id === "composer-input"), "focus back on the composer after denying");
  assert.deepStrictEqual(page.problems, []);
});

test("a denial can carry a message to the agent", async () => {
  const page = await newPage(env.browser);
  await openSession(page, env.server, "dock-deny-message");
  await ask(page, "push");
  const dock = page.locator("#dock");
  await dock.waitFor();
  const message = "Open a pull request instead of pushing to main.";
  await dock.locator("input.deny-message").fill(message);
  // Typing in the message is not a shortcut.
  await dock.locator("input.deny-message").press("1");
  await dock.locator("input.deny-message").press("Backspace");
  assert.equal(await dock.isVisible(), true);
  const sent = page.waitForRequest((r) => r.url().includes("/v1/approvals/") && r.method() === "POST");
  await dock.locator("[data-action-id=deny]").click();
  assert.deepStrictEqual(JSON.parse((await sent).postData()), { actionId: "deny", message });
  const call = toolCall(page, "Bash");
  await call.locator(".badge", { hasText: "User denied" }).waitFor();
  await call.locator("summary").click();
  const persisted = async () => {
    const { body } = await api(env.server, "/v1/sessions/dock-deny-message/messages");
    return body.flatMap((m) => m.parts).find((p) => p.type === "tool");
  };
  const part = await until(async () => (await persisted()).permissionResolution && persisted(), "the resolution");
  if (part.permissionResolution.message !== undefined) {
    assert.equal(part.permissionResolution.message, message);
    await call.locator("dd[data-row='Message to the agent']", { hasText: message }).waitFor();
  }
  await screenshot(call, "expanded-deny-message");
  assert.deepStrictEqual(page.problems, []);
});

test("the approvals inbox lists requests of every session and the tab title counts them", async () => {
  const page = await newPage(env.browser);
  await openSession(page, env.server, "inbox-here");
  await until(async () => (await page.title()) === "Warrant", "the plain title");
  const waiting = sidecarPush("inbox-elsewhere", "inbox-1", "git push origin inbox");
  await until(async () => (await page.title()) === "(1) Warrant", "the title to count one", 20_000);
  await page.locator("#tab-inbox", { hasText: "Approvals (1)" }).waitFor();
  await page.locator("#tab-inbox").click();
  const item = page.locator("#inbox .inbox-item[data-tool-call-id=inbox-1]");
  await item.waitFor();
  assert.equal(await item.getAttribute("data-session-id"), "inbox-elsewhere");
  assert.equal(await item.locator(".inbox-tool").textContent(), "Bash");
  await screenshot(page.locator(".panel"), "approvals-inbox");
  await item.locator("button.open-session").click();
  await page.locator("#dock[data-tool-call-id=inbox-1]").waitFor();
  assert.equal(await page.locator("#session-input").inputValue(), "inbox-elsewhere");
  assert.equal(await page.title(), "(1) Warrant");
  await page.locator("#dock [data-action-id=deny]").click();
  await until(async () => (await page.title()) === "Warrant", "the title back to plain");
  await waiting;
  assert.deepStrictEqual(page.problems, []);
});
