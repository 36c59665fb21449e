// Policy replay in the UI: under the pattern editor, a proposed rules change or an unsaved
// pattern edit is previewed against the recorded calls (POST /v1/replay) before anything is
// saved, and the calls that would be decided differently are listed by reason code.

import { test } from "node:test";
import assert from "node:assert/strict";
import { api, newPage, openSession, screenshot, serverAndBrowser, until } from "./support.js";

const SESSION = "replay-ui";

const env = serverAndBrowser(async ({ server }) => {
  for (const [toolCallId, command] of [
    ["rp-status", "git status"],
    ["rp-log", "git log"],
  ]) {
    const posted = await api(server, `/v1/sessions/${SESSION}/tool-calls`, {
      method: "POST",
      body: { toolCallId, toolName: "Bash", input: { command } },
    });
    assert.ok(posted.status < 300, JSON.stringify(posted.body));
    assert.equal(posted.body.behavior ?? posted.body.decision?.behavior, "allow", JSON.stringify(posted.body));
  }
  // A push asks; it is denied by hand, so its recorded decision stays `ask`.
  api(server, `/v1/sessions/${SESSION}/tool-calls`, {
    method: "POST",
    body: { toolCallId: "rp-push", toolName: "Bash", input: { command: "git push origin main" } },
  });
  await until(async () => {
    const { body } = await api(server, "/v1/approvals");
    const list = Array.isArray(body) ? body : body.approvals ?? body.requests ?? [];
    return list.some((r) => (r.toolCallId ?? r.request?.toolCallId) === "rp-push");
  }, "the push to wait for approval");
  const resolved = await api(server, "/v1/approvals/rp-push", { method: "POST", body: { actionId: "deny" } });
  assert.ok(resolved.status < 300, JSON.stringify(resolved.body));
});

async function storedPattern() {
  const { body } = await api(env.server, "/v1/patterns");
  const list = Array.isArray(body) ? body : body.patterns;
  return list.find((p) => p.id === "default");
}

test("a proposed rule is previewed against the recorded calls, grouped by reason code, without saving anything", async () => {
  const page = await newPage(env.browser);
  await openSession(page, env.server, SESSION);
  const before = await api(env.server, `/v1/sessions/${SESSION}/messages`);
  await page.locator("#tab-patterns").click();
  const panel = page.locator("#patterns .replay");
  await panel.waitFor();

  await panel.locator(".replay-config").fill('[evaluators.rules.user]\nask = ["Run(git status)"]\n');
  await panel.locator(".replay-session").fill(SESSION);
  const sent = page.waitForRequest((r) => r.url().endsWith("/v1/replay") && r.method() === "POST");
  await panel.locator(".replay-preview").click();
  assert.deepStrictEqual(JSON.parse((await sent).postData()), {
    config: '[evaluators.rules.user]\nask = ["Run(git status)"]\n',
    session: SESSION,
  });
  await panel.locator(".replay-result[data-state=done]").waitFor();
  assert.equal(
    await panel.locator(".replay-summary").textContent(),
    "3 recorded calls decided again: 1 would be decided differently (1 now asked).",
  );
  const group = panel.locator(".replay-group[data-to=ask][data-reason-code=normalized_rule_ask]");
  assert.equal(await group.locator(".replay-count").textContent(), " (1: 1 from allow)");
  const call = group.locator(".replay-call[data-tool-call-id=rp-status]");
  assert.equal(await call.locator(".replay-change").textContent(), "allow → ask");
  assert.match(await call.locator(".replay-input").textContent(), /git status/);
  assert.match(await call.locator(".replay-meta").textContent(), /was policy: shell_read_only/);
  assert.equal(await panel.locator(".replay-call").count(), 1);
  await screenshot(page.locator(".panel"), "replay-rules");

  // A bad configuration is named, and nothing else is shown.
  await panel.locator(".replay-config").fill("[evaluators.rules.user]\nask = 5\n");
  await panel.locator(".replay-preview").click();
  await panel.locator(".replay-result[data-state=error]").waitFor();
  assert.match(await panel.locator(".replay-result [role=alert]").textContent(), /evaluators\.rules\.user\.ask/);
  assert.equal(await panel.locator(".replay-report").count(), 0);

  const after = await api(env.server, `/v1/sessions/${SESSION}/messages`);
  assert.deepStrictEqual(after.body, before.body, "the chat is unchanged");
  assert.deepStrictEqual(page.problems, []);
});

test("a pattern edit is a draft while previewed: nothing is saved until Save", async () => {
  const page = await newPage(env.browser);
  await openSession(page, env.server, SESSION);
  await page.locator("#tab-patterns").click();
  const puts = [];
  page.on("request", (r) => {
    if (r.method() === "PUT" && r.url().includes("/v1/patterns/")) puts.push(r.url());
  });
  await page.locator("#patterns .preview-first-switch").check();
  // Turning approvals off becomes a draft, not a save.
  await page.locator("#patterns .checkpoints-switch").uncheck();
  await page.locator("#patterns .pattern-draft").waitFor();
  assert.equal(await page.locator("#patterns .checkpoints-state").textContent(), "Approvals off · Not reviewed");
  assert.deepStrictEqual(puts, []);
  const stored = await storedPattern();
  assert.ok(stored.approvalPolicy.rules.some((r) => r.kind === "tool-call"), "the stored pattern keeps its checkpoints");

  const panel = page.locator("#patterns .replay");
  await panel.locator(".replay-session").fill(SESSION);
  const sent = page.waitForRequest((r) => r.url().endsWith("/v1/replay") && r.method() === "POST");
  await page.locator("#patterns .draft-preview").click();
  const body = JSON.parse((await sent).postData());
  assert.equal(body.config, undefined, "the server's configuration, with the draft pattern");
  assert.equal(body.patterns[0].id, "default");
  assert.deepStrictEqual(body.patterns[0].approvalPolicy.rules.filter((r) => r.kind === "tool-call"), []);
  await panel.locator(".replay-result[data-state=done]").waitFor();
  assert.match(await panel.locator(".replay-subject").textContent(), /unsaved pattern "Default"/);
  const group = panel.locator(".replay-group[data-to=allow]");
  const call = group.locator(".replay-call[data-tool-call-id=rp-push]");
  assert.equal(await call.locator(".replay-change").textContent(), "ask → allow");
  assert.match(await group.locator(".replay-count").textContent(), /1 from ask/);
  await screenshot(page.locator(".panel"), "replay-pattern-draft");

  // Discard drops the draft; nothing was ever saved.
  await page.locator("#patterns .draft-discard").click();
  await page.locator("#patterns .pattern-draft").waitFor({ state: "detached" });
  assert.equal(await page.locator("#patterns .checkpoints-state").textContent(), "Approvals on");
  assert.deepStrictEqual(puts, []);

  // Save sends the draft; a save that fails keeps it, to try again.
  await page.locator("#patterns .checkpoints-switch").uncheck();
  await page.locator("#patterns .pattern-draft").waitFor();
  const failing = (route) =>
    route.request().method() === "PUT"
      ? route.fulfill({
          status: 503,
          contentType: "application/json",
          body: JSON.stringify({ error: { code: "store_unavailable", message: "the store is down for a moment" } }),
        })
      : route.continue();
  await page.route("**/v1/patterns/default", failing);
  await page.locator("#patterns .draft-save").click();
  await page.locator("#patterns .error", { hasText: "the store is down for a moment" }).waitFor();
  assert.equal(await page.locator("#patterns .pattern-draft").count(), 1, "the draft survives a failed save");
  assert.equal(await page.locator("#patterns .checkpoints-state").textContent(), "Approvals off · Not reviewed");
  await page.unroute("**/v1/patterns/default", failing);
  const saved = page.waitForResponse((r) => r.url().endsWith("/v1/patterns/default") && r.request().method() === "PUT");
  await page.locator("#patterns .draft-save").click();
  assert.equal((await saved).status(), 200);
  await until(async () => !(await storedPattern()).approvalPolicy.rules.some((r) => r.kind === "tool-call"), "the saved pattern");
  await page.locator("#patterns .pattern-draft").waitFor({ state: "detached" });

  // Approvals on again, saved straight away once previewing is off.
  await page.locator("#patterns .preview-first-switch").uncheck();
  await page.locator("#patterns .checkpoints-switch").check();
  await until(async () => (await storedPattern()).approvalPolicy.rules.some((r) => r.kind === "tool-call"), "the restored pattern");
  assert.deepStrictEqual(page.problems, []);
});
