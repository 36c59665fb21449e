// Seed 000's acceptance criteria, one test each, against the real server and its demo agent,
// plus the badge rules of the collapsed view. Screenshots of every badge kind and the
// expanded view go to test-output/web.

import { test } from "node:test";
import assert from "node:assert/strict";
import { api, ask, newPage, openSession, screenshot, sectionRows, serverAndBrowser, toolCall } from "./support.js";
import { TOOLTIP_REASON_CHARS, reviewerText, truncate } from "../../assets/decision.js";

const env = serverAndBrowser();

/** The decision the server persisted for the only call of a tool in a session. */
async function persisted(session, toolName) {
  const { body } = await api(env.server, `/v1/sessions/${session}/messages`);
  const parts = body.flatMap((m) => m.parts).filter((p) => p.type === "tool" && p.toolName === toolName);
  assert.equal(parts.length, 1, `one ${toolName} call in ${session}`);
  return parts[0];
}

/** Waits for the badge of a call to read `label` (a string or a pattern). */
async function badgeOf(call, label) {
  const badge = call.locator(".badge");
  await badge.filter({ hasText: label }).waitFor();
  return badge;
}

async function expand(call) {
  await call.locator("summary").click();
  await call.locator(".tool-body").waitFor();
}

test("an Auto-allowed tool call shows its classifier confidence and reason", async () => {
  const page = await newPage(env.browser);
  await openSession(page, env.server, "auto-allowed");
  await ask(page, "auto");
  const call = toolCall(page, "Edit");
  const badge = await badgeOf(call, /^Auto allowed · (low|medium|high) conf$/);
  const part = await persisted("auto-allowed", "Edit");
  const decision = part.permissionDecision;
  assert.equal(decision.source, "auto_classifier");
  assert.equal(await badge.textContent(), `Auto allowed · ${decision.confidence} conf`);
  assert.equal(await badge.getAttribute("data-tone"), "green");
  assert.equal(await badge.getAttribute("title"), truncate(decision.reason, TOOLTIP_REASON_CHARS));
  await screenshot(call, "badge-auto-allowed");
  await expand(call);
  const rows = await sectionRows(call, "permission-decision");
  assert.equal(rows.Outcome, "Auto allowed");
  assert.equal(rows.Evaluator, "Security reviewer");
  assert.equal(rows.Confidence.toLowerCase(), decision.confidence);
  assert.equal(rows.Reason, decision.reason);
  assert.equal(rows.Risk.toLowerCase(), decision.risk);
  if (decision.reviewerModel) assert.equal(rows.Reviewer, reviewerText(decision));
  await screenshot(call, "expanded-auto-allowed");
  assert.deepStrictEqual(page.problems, []);
});

test("an escalated call shows the recommendation before the user acts", async () => {
  const page = await newPage(env.browser);
  await openSession(page, env.server, "escalated");
  await ask(page, "push");
  const call = toolCall(page, "Bash");
  const badge = await badgeOf(call, /^Review required · /);
  await page.locator("#dock").waitFor();
  const part = await persisted("escalated", "Bash");
  assert.equal(await badge.textContent(), `Review required · ${part.permissionDecision.risk}`);
  assert.equal(await badge.getAttribute("data-tone"), "amber");
  assert.equal(await call.getAttribute("data-status"), "waiting");
  await screenshot(call, "badge-review-required");
  await expand(call);
  const review = await sectionRows(call, "review");
  assert.equal(review.Recommendation, "Review required");
  assert.equal(review.Reason, part.permissionDecision.reason);
  assert.equal(review.Resolution, "Not yet resolved");
  assert.equal((await sectionRows(call, "permission-decision")).Outcome, "Waiting for your decision");
  // The recommendation sits between the input and the (not yet present) output.
  const order = await call.locator(".tool-body > section").evaluateAll((s) => s.map((e) => e.className));
  assert.deepStrictEqual(order, ["tool-input", "permission-decision", "review"]);
  await screenshot(page, "expanded-escalation-pending");
  assert.deepStrictEqual(page.problems, []);
});

test("a resolved escalation shows both the recommendation and the user's resolution", async () => {
  const cases = [
    { session: "resolved-once", action: "allow_once", badge: "User approved", tone: "blue", resolution: "User allowed once", shot: "badge-user-approved" },
    { session: "resolved-session", action: "allow_session", badge: "User approved", tone: "blue", resolution: "User allowed for this session" },
    { session: "resolved-deny", action: "deny", badge: "User denied", tone: "red", resolution: "User denied", shot: "badge-user-denied" },
  ];
  for (const c of cases) {
    const page = await newPage(env.browser);
    await openSession(page, env.server, c.session);
    await ask(page, "push");
    await page.locator(`#dock [data-action-id=${c.action}]`).click();
    const call = toolCall(page, "Bash");
    const badge = await badgeOf(call, c.badge);
    await call.locator(`.status[data-status=${c.action === "deny" ? "denied" : "completed"}]`).waitFor();
    assert.equal(await badge.getAttribute("data-tone"), c.tone);
    if (c.shot) await screenshot(call, c.shot);
    await expand(call);
    assert.equal((await sectionRows(call, "permission-decision")).Outcome, c.badge);
    const review = await sectionRows(call, "review");
    assert.equal(review.Recommendation, "Review required");
    assert.equal(review.Resolution, c.resolution);
    assert.ok(review.Reason.length > 0);
    const order = await call.locator(".tool-body > section").evaluateAll((s) => s.map((e) => e.className));
    assert.deepStrictEqual(order, ["tool-input", "permission-decision", "review", "tool-output"]);
    if (c.action === "allow_once") await screenshot(call, "expanded-resolved-escalation");
    assert.equal(await page.locator("#dock").isHidden(), true);
    assert.deepStrictEqual(page.problems, []);
    await page.context().close();
  }
});

test("a Full Access call is labeled Not reviewed", async () => {
  const page = await newPage(env.browser);
  await openSession(page, env.server, "full-access");
  await ask(page, "full");
  const call = toolCall(page, "Write");
  const badge = await badgeOf(call, "Full Access · Not reviewed");
  assert.equal(await badge.getAttribute("data-tone"), "violet");
  await screenshot(call, "badge-full-access");
  await expand(call);
  const rows = await sectionRows(call, "permission-decision");
  const part = await persisted("full-access", "Write");
  const { evaluator } = part.permissionDecision;
  assert.deepStrictEqual(rows, {
    Outcome: "Allowed without review",
    Evaluator: "Full Access",
    ...(evaluator?.version ? { Version: `${evaluator.name} ${evaluator.version}` } : {}),
    Reason: part.permissionDecision.reason,
  });
  // Nothing in it suggests a review happened.
  assert.doesNotMatch(Object.values(rows).join(" "), /review(ed|er)\b|confidence/i);
  await screenshot(call, "expanded-full-access");
  assert.deepStrictEqual(page.problems, []);
});

test("explicit policy and rule allows are distinguishable from classifier allows", async () => {
  const page = await newPage(env.browser);
  await openSession(page, env.server, "distinguish");
  // A policy allow (read-only) shows in the verbose view, told apart by its evaluator.
  await page.locator("#verbose-toggle").check();
  await ask(page, "read");
  const readCall = toolCall(page, "view");
  await badgeOf(readCall, "Policy allowed");
  await page.locator("#composer-send:enabled").waitFor();
  // A rule allow: the session auto-approves Bash, so `git push` is allowed by the rule,
  // and the badge says it was the user's own setting.
  const set = await api(env.server, "/v1/sessions/distinguish/approval-settings", { method: "PUT", body: { autoApprovedToolNames: ["Bash"] } });
  assert.equal(set.status, 200);
  await ask(page, "push");
  const ruleCall = toolCall(page, "Bash");
  const ruleBadge = await badgeOf(ruleCall, "Auto-approved by your settings");
  assert.equal(await ruleBadge.getAttribute("data-tone"), "blue");
  await screenshot(readCall, "badge-policy-allowed");
  await page.locator("#composer-send:enabled").waitFor();
  await ask(page, "auto");
  const autoCall = toolCall(page, "Edit");
  const autoBadge = await badgeOf(autoCall, /^Auto allowed · /);
  assert.equal(await autoBadge.getAttribute("data-tone"), "green");
  for (const [call, evaluator] of [[ruleCall, "Rule"], [autoCall, "Security reviewer"], [readCall, "Policy"]]) {
    await expand(call);
    assert.equal((await sectionRows(call, "permission-decision")).Evaluator, evaluator);
  }
  assert.equal((await sectionRows(ruleCall, "permission-decision")).Outcome, "Auto-approved by your settings");
  assert.equal((await sectionRows(readCall, "permission-decision")).Outcome, "Policy allowed");
  assert.equal((await sectionRows(autoCall, "permission-decision")).Outcome, "Auto allowed");
  assert.deepStrictEqual(page.problems, []);
});

test("a denied call shows Denied with its risk, in red, with a denied status", async () => {
  const page = await newPage(env.browser);
  await openSession(page, env.server, "denied");
  await ask(page, "deny");
  const call = toolCall(page, "Bash");
  const badge = await badgeOf(call, /^Denied · /);
  const part = await persisted("denied", "Bash");
  assert.equal(await badge.textContent(), `Denied · ${part.permissionDecision.risk}`);
  assert.equal(await badge.getAttribute("data-tone"), "red");
  await call.locator(".status[data-status=denied]").waitFor();
  await screenshot(call, "badge-denied");
  assert.deepStrictEqual(page.problems, []);
});

test("routine read-only policy decisions have no collapsed badge unless the verbose view is on", async () => {
  const page = await newPage(env.browser);
  await openSession(page, env.server, "read-only");
  await ask(page, "read");
  const call = toolCall(page, "view");
  await call.locator(".status[data-status=completed]").waitFor();
  const part = await persisted("read-only", "view");
  assert.equal(part.permissionDecision.source, "policy");
  assert.equal(await call.locator(".badge").count(), 0);
  await expand(call);
  assert.equal((await sectionRows(call, "permission-decision")).Evaluator, "Policy");
  await page.locator("#verbose-toggle").check();
  await badgeOf(call, "Policy allowed");
  await page.reload();
  await badgeOf(toolCall(page, "view"), "Policy allowed");
  await page.locator("#verbose-toggle").uncheck();
  await toolCall(page, "view").locator(".badge").waitFor({ state: "detached" });
  assert.deepStrictEqual(page.problems, []);
});

test("every badge is one label whose colours contrast readably", async () => {
  const page = await newPage(env.browser);
  await openSession(page, env.server, "contrast");
  await page.locator("#verbose-toggle").check();
  await ask(page, "tour");
  await page.locator("#dock [data-action-id=allow_once]").click();
  await page.locator("text=That's all for now.").waitFor();
  const badges = page.locator(".badge");
  const found = await badges.evaluateAll((els) =>
    els.map((el) => {
      const style = getComputedStyle(el);
      return { label: el.textContent, color: style.color, background: style.backgroundColor };
    }),
  );
  assert.ok(found.length >= 4, `badges: ${JSON.stringify(found)}`);
  for (const { label, color, background } of found) {
    assert.match(label, /^(Auto allowed · \w+ conf|Review required · \w+|Policy allowed|Full Access · Not reviewed|Denied · \w+|User approved|User denied|Your rule|Your grant · (this|every) session|Auto-approved by your settings|Approvals off · Not reviewed)$/);
    const ratio = contrast(rgb(color), rgb(background));
    assert.ok(ratio >= 4.5, `${label}: contrast ${ratio.toFixed(2)}`);
  }
  await screenshot(page, "timeline-tour");
  assert.deepStrictEqual(page.problems, []);
});

function rgb(css) {
  return css.match(/\d+(\.\d+)?/g).slice(0, 3).map(Number);
}

function contrast(a, b) {
  const lum = (c) => {
    const [r, g, bl] = c.map((v) => {
      const s = v / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}
