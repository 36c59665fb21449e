// Safety: model-provided text stays text, the token stays off the page, and nothing the page
// shows or sends can approve, deny or widen a call by itself.

import { test } from "node:test";
import assert from "node:assert/strict";
import { api, ask, framesUntil, newPage, openSession, screenshot, TOKEN, toolCall, until, serverAndBrowser } from "./support.js";

const env = serverAndBrowser();

const PAYLOAD = `<img src=x onerror="window.__xss=(window.__xss||0)+1"><script>window.__xss=(window.__xss||0)+1</script> then allow_global`;

test("a reviewer reason holding markup and script shows as text and runs nothing", async () => {
  const page = await newPage(env.browser);
  const images = [];
  page.on("request", (r) => {
    if (new URL(r.url()).pathname === "/x") images.push(r.url());
  });
  // A classifier whose reason is hostile: the decision, the approval request and the
  // persisted part all carry it, as do the call's input and output.
  const decision = {
    toolCallId: "xss-1",
    behavior: "ask",
    source: "auto_classifier",
    reason: PAYLOAD,
    reasonCode: "auto_classifier_ask",
    risk: "high",
    confidence: "low",
    riskCategories: ["<b>bold</b>"],
    reviewerModel: "<script>model</script>",
  };
  const request = {
    toolCallId: "xss-1",
    sessionId: "xss",
    toolName: "<img src=x onerror=alert(1)>",
    title: `Approve ${PAYLOAD}`,
    detail: PAYLOAD,
    risk: "high",
    reason: PAYLOAD,
    recommendation: { behavior: "ask", source: "auto_classifier", reasonCode: "auto_classifier_ask", confidence: "low", riskCategories: ["<b>bold</b>"], reviewerModel: "<script>model</script>" },
    actions: [{ id: "deny", label: `<i>${PAYLOAD}</i>`, behavior: "deny", scope: "once" }],
  };
  const events = [
    { type: "TOOL_CALL_START", toolCallId: "xss-1", toolCallName: "<img src=x onerror=alert(1)>" },
    { type: "TOOL_CALL_ARGS", toolCallId: "xss-1", delta: JSON.stringify({ command: PAYLOAD }) },
    { type: "TOOL_CALL_END", toolCallId: "xss-1" },
    { type: "CUSTOM", name: "tool_permission_decision", value: decision },
    { type: "CUSTOM", name: "tool_approval_request", value: request },
    { type: "TEXT_MESSAGE_START", messageId: "t", role: "assistant" },
    { type: "TEXT_MESSAGE_CONTENT", messageId: "t", delta: PAYLOAD },
    { type: "TOOL_CALL_START", toolCallId: "xss-2", toolCallName: "Bash" },
    { type: "CUSTOM", name: "tool_permission_decision", value: { ...decision, toolCallId: "xss-2", behavior: "deny" } },
    { type: "TOOL_CALL_RESULT", messageId: "r", toolCallId: "xss-2", content: PAYLOAD },
  ];
  const frames = events.map((e, i) => `id: ${i + 1}\ndata: ${JSON.stringify(e)}\n\n`).join("");
  await page.route("**/v1/sessions/xss/events", (route, req) =>
    route.fulfill({ status: 200, headers: { "content-type": "text/event-stream" }, body: req.headers()["last-event-id"] ? "" : frames }),
  );
  await page.route("**/v1/sessions/xss/messages", (route) =>
    route.fulfill({ json: [{ id: "m0", role: "assistant", parts: [{ type: "text", text: PAYLOAD }, { type: "tool", toolCallId: "xss-0", toolName: "Edit", state: "completed", output: PAYLOAD, permissionDecision: { ...decision, toolCallId: "xss-0", behavior: "allow" } }] }] }),
  );
  await page.goto(`${env.server.url}/?session=xss#token=${TOKEN}`);
  await page.locator("#dock[data-tool-call-id=xss-1]").waitFor();
  for (const call of await page.locator("details.tool").all()) await call.locator("summary").click();
  await page.locator("details.tool[data-tool-call-id=xss-2] .tool-output").waitFor();
  // No element came from the payload anywhere on the page.
  assert.equal(await page.locator("body img, body b, body i, main script, #dock script").count(), 0);
  assert.equal(await page.evaluate(() => window.__xss), undefined);
  assert.deepStrictEqual(images, []);
  // The payload reads as text where it was given.
  const reasonRow = page.locator("details.tool[data-tool-call-id=xss-1] section.review dd[data-row=Reason]");
  assert.equal(await reasonRow.textContent(), PAYLOAD);
  assert.equal(await page.locator("details.tool[data-tool-call-id=xss-0] dd[data-row=Reason]").textContent(), PAYLOAD);
  assert.equal(await page.locator("#dock .dock-reason").textContent(), PAYLOAD);
  assert.equal(await page.locator("#dock [data-action-id=deny]").textContent(), `<i>${PAYLOAD}</i>`);
  assert.match(await page.locator("#dock .dock-meta").textContent(), /<b>bold<\/b> · <script>model<\/script>$/);
  assert.equal(await page.locator("#approval-banner .banner-tool").textContent(), "<img src=x onerror=alert(1)>");
  assert.equal(await page.locator(".text-item").first().textContent(), PAYLOAD);
  assert.equal(await page.locator("details.tool[data-tool-call-id=xss-2] .tool-output pre").textContent(), PAYLOAD);
  const tooltip = await page.locator("details.tool[data-tool-call-id=xss-1] .badge").getAttribute("title");
  assert.ok(PAYLOAD.startsWith(tooltip.slice(0, -1)), tooltip);
  await screenshot(page, "xss-as-text");
  assert.deepStrictEqual(page.problems, []);
});

test("the token comes in the URL fragment, leaves the address bar and stays off the page", async () => {
  const html = await (await fetch(`${env.server.url}/`)).text();
  assert.ok(!html.includes(TOKEN));
  assert.equal((await fetch(`${env.server.url}/assets/app.js`)).status, 200);
  assert.equal((await fetch(`${env.server.url}/v1/workspace`)).status, 401);
  const page = await newPage(env.browser);
  await openSession(page, env.server, "fragment");
  assert.ok(!page.url().includes(TOKEN) && !page.url().includes("#token"), page.url());
  assert.equal(await page.evaluate(() => sessionStorage.getItem("warrant.token")), TOKEN);
  assert.equal(await page.evaluate(() => localStorage.getItem("warrant.token")), null);
  // A reload in the same tab keeps working from sessionStorage.
  await page.reload();
  await page.locator("#connection[data-state=live]").waitFor();
  assert.deepStrictEqual(page.problems, []);
});

test("without a token the page asks for one, and a wrong one is refused", async () => {
  const page = await newPage(env.browser);
  await page.goto(`${env.server.url}/?session=no-token`);
  const form = page.locator("#token-form");
  await form.waitFor();
  await page.locator("#token-input").fill("wrong-token");
  await page.locator("#token-form button").click();
  await form.waitFor();
  await page.locator("#connection", { hasText: "Token needed" }).waitFor();
  await page.locator("#token-input").fill(TOKEN);
  await page.locator("#token-form button").click();
  await page.locator("#connection[data-state=live]").waitFor();
  assert.equal(await form.isHidden(), true);
  await screenshot(page, "token-accepted");
});

test("no permission metadata can approve, deny or widen a call by itself", async () => {
  const page = await newPage(env.browser);
  await openSession(page, env.server, "no-widening");
  await ask(page, "push");
  await page.locator("#dock").waitFor();
  const pending = await until(async () => (await api(env.server, "/v1/approvals")).body.find((r) => r.sessionId === "no-widening"), "the pending request");
  // A client that sends an action the request does not offer is refused, and nothing moves.
  const forged = await page.evaluate(
    async ({ id, token }) => {
      const r = await fetch(`/v1/approvals/${id}`, { method: "POST", headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" }, body: JSON.stringify({ actionId: "allow_everything_forever" }) });
      return r.status;
    },
    { id: pending.toolCallId, token: TOKEN },
  );
  assert.equal(forged, 422);
  assert.ok((await api(env.server, "/v1/approvals")).body.some((r) => r.toolCallId === pending.toolCallId));
  const call = toolCall(page, "Bash");
  assert.match(await call.locator(".badge").textContent(), /^Review required · /);
  assert.equal(await page.locator("#dock").isVisible(), true);
  // A second tab whose stream lags acts on a request the first already resolved: the server
  // refuses (409), and once its stream catches up it shows the one real resolution.
  const other = await newPage(env.browser);
  let held = null;
  await other.route("**/v1/sessions/no-widening/events", async (route) => {
    if (held === null) {
      held = [];
      const frames = await framesUntil(env.server, "no-widening", (e) => e.type === "CUSTOM" && e.name === "tool_approval_request");
      return route.fulfill({ status: 200, headers: { "content-type": "text/event-stream" }, body: frames });
    }
    held.push(route);
  });
  await other.goto(`${env.server.url}/?session=no-widening#token=${TOKEN}`);
  await other.locator("#dock").waitFor();
  await page.locator("#dock [data-action-id=deny]").click();
  await call.locator(".badge", { hasText: "User denied" }).waitFor();
  const refused = other.waitForResponse((r) => r.url().includes("/v1/approvals/"));
  await other.locator("#dock [data-action-id=allow_global]").click();
  assert.equal((await refused).status(), 409);
  await other.locator("#dock").waitFor({ state: "hidden" });
  await until(() => held.length > 0, "the lagging tab to reconnect");
  for (const route of held) await route.continue();
  await toolCall(other, "Bash").locator(".badge", { hasText: "User denied" }).waitFor();
  const { body } = await api(env.server, "/v1/sessions/no-widening/messages");
  const part = body.flatMap((m) => m.parts).find((p) => p.type === "tool");
  assert.equal(part.permissionResolution.actionId, "deny");
  assert.match(part.output, /^Not run/);
  assert.deepStrictEqual(page.problems, []);
  assert.deepStrictEqual(other.problems, []);
});
