// Who really decided: a grant, the user's own rule, auto-approval and checkpoints that are
// off each have their own badge; grants can be seen and revoked; checkpoints toggle off and
// on in the pattern editor.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { api, ask, newPage, openSession, screenshot, sectionRows, serverAndBrowser, startServer, toolCall, until } from "./support.js";

const env = serverAndBrowser();

async function expand(call) {
  if (!(await call.evaluate((d) => d.open))) await call.locator("summary").click();
  await call.locator(".tool-body").waitFor();
}

/** Waits for the run to end (the composer's Send is enabled again). */
async function idle(page) {
  await page.locator("#composer-send:enabled").waitFor();
}

/** The persisted decision of the `nth` call of a tool in a session. */
async function persistedDecision(server, session, toolName, nth) {
  const { body } = await api(server, `/v1/sessions/${session}/messages`);
  return body.flatMap((m) => m.parts).filter((p) => p.type === "tool" && p.toolName === toolName)[nth]?.permissionDecision;
}

test("allow for this session becomes a grant: its badge, the grants panel, and once revoked the call asks again", async () => {
  const page = await newPage(env.browser);
  await openSession(page, env.server, "grant");
  await ask(page, "push");
  await page.locator("#dock [data-action-id=allow_session]").click();
  await toolCall(page, "Bash", 0).locator(".badge", { hasText: "User approved" }).waitFor();
  await idle(page);
  // The same call again: the grant decides, and says so.
  await ask(page, "push");
  const second = toolCall(page, "Bash", 1);
  const badge = second.locator(".badge", { hasText: "Your grant · this session" });
  await badge.waitFor();
  assert.equal(await badge.getAttribute("data-tone"), "blue");
  assert.equal(await page.locator("#dock").isHidden(), true);
  const decision = await persistedDecision(env.server, "grant", "Bash", 1);
  assert.equal(decision.provenance.kind, "grant");
  await screenshot(second, "badge-grant-session");
  await expand(second);
  const rows = await sectionRows(second, "permission-decision");
  assert.equal(rows.Outcome, "Allowed by your grant");
  assert.equal(rows["Decided by"], "Your grant for this session");
  assert.equal(rows.Scope, "This session");
  assert.equal(rows["Grant id"], decision.provenance.grantId);
  assert.equal(rows.Grant, decision.provenance.description);
  assert.equal(rows.Risk.toLowerCase(), decision.risk);
  await screenshot(second, "expanded-grant");
  await idle(page);
  // The grants panel lists it, with where it came from, and revokes it.
  await page.locator("#tab-grants").click();
  const item = page.locator(`#grants .grant[data-grant-id="${decision.provenance.grantId}"]`);
  await item.waitFor();
  assert.equal(await item.locator(".grant-scope").textContent(), "This session");
  assert.match(await item.locator(".grant-origin").textContent(), new RegExp(`approving call ${decision.provenance.toolCallId}`));
  assert.match(await item.locator(".grant-keys").textContent(), /Bash\(git push origin main\)/);
  await screenshot(page.locator(".panel"), "grants-panel");
  const revoked = page.waitForResponse((r) => r.url().includes("/v1/grants/") && r.request().method() === "DELETE");
  await item.locator("button.revoke").click();
  assert.equal((await revoked).status(), 200);
  await page.locator("#grants [data-note=no-grants]").waitFor();
  assert.deepStrictEqual((await api(env.server, "/v1/grants")).body.grants, []);
  // Revoked: the same call asks again.
  await ask(page, "push");
  await page.locator("#dock").waitFor();
  await toolCall(page, "Bash", 2).locator(".badge", { hasText: /^Review required · / }).waitFor();
  await page.locator("#dock [data-action-id=deny]").click();
  await idle(page);
  assert.deepStrictEqual(page.problems, []);
  // Risk is the action's, whoever decided: the push a grant let through is as risky as the
  // push that asked.
  const asked = await persistedDecision(env.server, "grant", "Bash", 0);
  assert.equal(decision.risk, asked.risk, "a grant keeps the action's risk");
});

test("allow in every session shows as a grant in another session; an unknown grant is 404", async () => {
  const page = await newPage(env.browser);
  await openSession(page, env.server, "grant-global-a");
  await ask(page, "push");
  await page.locator("#dock [data-action-id=allow_global]").click();
  await idle(page);
  await page.goto(`${env.server.url}/?session=grant-global-b`);
  await page.locator("#connection[data-state=live]").waitFor();
  await ask(page, "push");
  const call = toolCall(page, "Bash");
  await call.locator(".badge", { hasText: "Your grant · every session" }).waitFor();
  await screenshot(call, "badge-grant-global");
  await idle(page);
  const { body } = await api(env.server, "/v1/grants");
  const grant = body.grants.find((g) => g.scope === "global");
  assert.ok(grant, JSON.stringify(body));
  const revoked = await api(env.server, `/v1/grants/${grant.id}`, { method: "DELETE" });
  assert.equal(revoked.status, 200);
  assert.equal(revoked.body.revoked.id, grant.id);
  const again = await api(env.server, `/v1/grants/${grant.id}`, { method: "DELETE" });
  assert.equal(again.status, 404);
  assert.equal(again.body.error.code, "grant_not_found");
  assert.deepStrictEqual(page.problems, []);
});

test("a tool auto-approved by the session's settings says so", async () => {
  const page = await newPage(env.browser);
  await openSession(page, env.server, "auto-approved");
  await ask(page, "read");
  await idle(page);
  await page.locator('#activity input[data-tool-id="Bash"]').check();
  await page.locator("#activity .settings-status", { hasText: "Custom for this session" }).waitFor();
  await ask(page, "push");
  const call = toolCall(page, "Bash");
  const badge = call.locator(".badge", { hasText: "Auto-approved by your settings" });
  await badge.waitFor();
  assert.equal(await badge.getAttribute("data-tone"), "blue");
  await screenshot(call, "badge-auto-approved");
  await expand(call);
  const rows = await sectionRows(call, "permission-decision");
  assert.equal(rows.Outcome, "Auto-approved by your settings");
  assert.equal(rows.Setting, "This session's auto-approved tools");
  assert.equal(rows.Evaluator, "Rule");
  await idle(page);
  await page.locator("#activity .reset-to-pattern").click();
  await page.locator("#activity .settings-status", { hasText: "Inheriting pattern defaults" }).waitFor();
  assert.deepStrictEqual(page.problems, []);
});

test("checkpoints toggled off in the pattern editor: calls run unreviewed and say so; toggled on they ask again", async () => {
  const page = await newPage(env.browser);
  await openSession(page, env.server, "checkpoints");
  await ask(page, "read");
  await idle(page);
  await page.locator("#tab-patterns").click();
  const toggle = page.locator("#patterns .checkpoints-switch");
  assert.equal(await toggle.isChecked(), true);
  assert.equal(await page.locator("#patterns .checkpoints-state").textContent(), "Approvals on");
  let saved = page.waitForResponse((r) => r.url().endsWith("/v1/patterns/default") && r.request().method() === "PUT");
  await toggle.uncheck();
  assert.equal((await saved).status(), 200);
  await page.locator("#patterns .checkpoints-state", { hasText: "Approvals off · Not reviewed" }).waitFor();
  const pattern = async () => {
    const { body } = await api(env.server, "/v1/patterns");
    return (Array.isArray(body) ? body : body.patterns).find((p) => p.id === "default");
  };
  assert.ok(!(await pattern()).approvalPolicy.rules.some((r) => r.kind === "tool-call"));
  // The auto-approve switches look inactive while nothing is reviewed.
  for (const input of await page.locator("#patterns [data-list=pattern] input").all()) assert.equal(await input.isDisabled(), true);
  await screenshot(page.locator(".panel"), "pattern-checkpoints-off");
  await page.locator("#tab-activity").click();
  await page.locator("#activity [data-note=checkpoints-off]").waitFor();
  for (const input of await page.locator("#activity [data-list=session] input").all()) assert.equal(await input.isDisabled(), true);
  // A push runs without a prompt, and its badge says nobody reviewed it.
  await ask(page, "push");
  const call = toolCall(page, "Bash");
  const badge = call.locator(".badge", { hasText: "Approvals off · Not reviewed" });
  await badge.waitFor();
  assert.equal(await badge.getAttribute("data-tone"), "violet");
  assert.equal(await page.locator("#dock").isHidden(), true);
  await screenshot(call, "badge-checkpoints-off");
  await expand(call);
  const rows = await sectionRows(call, "permission-decision");
  assert.equal(rows.Outcome, "Allowed without review");
  assert.match(rows.Checkpoints, /nothing reviewed this call/);
  await idle(page);
  // Back on: the switches come alive and the push asks again.
  await page.locator("#tab-patterns").click();
  saved = page.waitForResponse((r) => r.url().endsWith("/v1/patterns/default") && r.request().method() === "PUT");
  await toggle.check();
  assert.equal((await saved).status(), 200);
  await page.locator("#patterns .checkpoints-state", { hasText: "Approvals on" }).waitFor();
  assert.ok((await pattern()).approvalPolicy.rules.some((r) => r.kind === "tool-call"));
  for (const input of await page.locator("#patterns [data-list=pattern] input").all()) assert.equal(await input.isDisabled(), false);
  await ask(page, "push");
  await page.locator("#dock").waitFor();
  await toolCall(page, "Bash", 1).locator(".badge", { hasText: /^Review required · / }).waitFor();
  await page.locator("#dock [data-action-id=deny]").click();
  await idle(page);
  assert.deepStrictEqual(page.problems, []);
});

test("a call allowed by the user's own rule names the rule and the file it is written in", async () => {
  const server = await startServer({
    files: {
      "warrant.toml": '[[evaluators.rules.files]]\npath = "rules.toml"\nlayer = "project"\n',
      "rules.toml": '# The project\'s rules.\nallow = ["Bash(git push:*)"]\n',
    },
  });
  try {
    const page = await newPage(env.browser);
    await openSession(page, server, "user-rule");
    await ask(page, "push");
    const call = toolCall(page, "Bash");
    const badge = call.locator(".badge", { hasText: "Your rule" });
    await badge.waitFor();
    assert.equal(await badge.getAttribute("data-tone"), "blue");
    assert.equal(await page.locator("#dock").isHidden(), true);
    await screenshot(call, "badge-user-rule");
    const decision = await persistedDecision(server, "user-rule", "Bash", 0);
    assert.equal(decision.provenance.kind, "user_rule");
    await expand(call);
    const rows = await sectionRows(call, "permission-decision");
    assert.equal(rows.Outcome, "Allowed by your rule");
    assert.equal(rows.Rule, decision.provenance.rule);
    assert.equal(rows.Layer, "Project");
    assert.equal(rows["Written in"], decision.provenance.origin);
    assert.match(rows["Written in"], /rules\.toml:2/);
    await screenshot(call, "expanded-user-rule");
    await idle(page);
    assert.deepStrictEqual(page.problems, []);
  } finally {
    await server.stop();
  }
});

test("persisted parts of every provenance kind render their badges and who decided, plugins included", async () => {
  const dir = new URL("../../../tests/fixtures/reducer/", import.meta.url);
  const files = [
    "rule_allow_by_user_rule_keeps_provenance_and_evaluator.json",
    "grant_allow_names_the_grant_and_the_approval_that_made_it.json",
    "auto_approved_allow_says_which_settings_approved_it.json",
    "checkpoints_off_allow_is_kept_as_not_reviewed.json",
    "user_rule_ask_and_plugin_deny_keep_who_decided.json",
  ];
  const parts = files.flatMap((f) => JSON.parse(readFileSync(new URL(f, dir), "utf8")).parts);
  const messages = [{ id: "m1", role: "assistant", parts: parts.map((p) => ({ type: "tool", ...p })) }];
  const page = await newPage(env.browser);
  await page.route("**/v1/sessions/provenance-persisted/messages", (route) => route.fulfill({ json: messages }));
  await openSession(page, env.server, "provenance-persisted");
  await page.locator("details.tool").nth(parts.length - 1).waitFor();
  const badges = await page.locator("details.tool").evaluateAll((calls) => calls.map((c) => c.querySelector(".badge")?.textContent ?? null));
  assert.deepStrictEqual(badges, [
    "Your rule",
    "Your grant · this session",
    "Your grant · every session",
    "Auto-approved by your settings",
    "Auto-approved by your settings",
    "Approvals off · Not reviewed",
    "User denied",
    "Denied · high",
  ]);
  await screenshot(page, "badges-provenance");
  const plugin = page.locator("details.tool[data-tool-call-id=call-p1]");
  await expand(plugin);
  assert.equal((await sectionRows(plugin, "permission-decision")).Evaluator, "Decided by plugin branch_guard 1.2.0");
  const asked = page.locator("details.tool[data-tool-call-id=call-q1]");
  await expand(asked);
  const review = await sectionRows(asked, "review");
  assert.equal(review.Rule, "Run(git push)");
  assert.equal(review["Message to the agent"], "Open a pull request instead.");
  await screenshot(asked, "expanded-user-rule-ask-denied-with-message");
  assert.deepStrictEqual(page.problems, []);
});
