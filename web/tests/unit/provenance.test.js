// Who really decided: the badges, rows and dock words of each provenance kind, the
// evaluator that decided, and what the dock shows of the call.
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  awaitsApproval,
  badgeFor,
  decisionSections,
  dockProvenance,
  dockVerdict,
  evaluatorText,
  statusOf,
  subjectOf,
} from "../../assets/decision.js";
import { reduceToolParts } from "../../assets/reducer.js";
import { existsSync, readFileSync } from "node:fs";

/** The decision examples of the Rust contract tests, shared with this UI. */
const CONTRACT = new URL("../../../tests/fixtures/contract/decision_provenance.json", import.meta.url).pathname;

const ruleAllow = (provenance, over = {}) => ({
  toolCallId: "c",
  behavior: "allow",
  source: "rule",
  reason: "r",
  reasonCode: "normalized_rule_allow",
  risk: "high",
  provenance,
  evaluator: { name: "rule", version: "0.1.0" },
  ...over,
});
const part = (decision, over = {}) => ({ toolCallId: "c", toolName: "Bash", state: "completed", permissionDecision: decision, ...over });
const label = (decision) => {
  const b = badgeFor(part(decision));
  return b && [b.label, b.tone];
};
const rows = (decision) => Object.fromEntries(decisionSections(part(decision)).flatMap((s) => s.rows));

const USER_RULE = { kind: "user_rule", rule: "Bash(git push:*)", layer: "project", origin: "/abs/path/rules.toml:12" };
const GRANT = {
  kind: "grant",
  grantId: "grt_0123456789abcdef",
  scope: "session",
  grantedAt: 1764470000000,
  toolCallId: "call-0",
  actionId: "allow_session",
  description: '"git push" commands',
};

test("each provenance kind has its own badge; the seed's seven keep theirs", () => {
  assert.deepStrictEqual(label(ruleAllow(USER_RULE)), ["Your rule", "blue"]);
  assert.deepStrictEqual(label(ruleAllow(GRANT)), ["Your grant · this session", "blue"]);
  assert.deepStrictEqual(label(ruleAllow({ ...GRANT, scope: "global" })), ["Your grant · every session", "blue"]);
  assert.deepStrictEqual(label(ruleAllow({ kind: "auto_approved", from: "session" })), ["Auto-approved by your settings", "blue"]);
  assert.deepStrictEqual(label(ruleAllow({ kind: "auto_approved", from: "pattern" })), ["Auto-approved by your settings", "blue"]);
  assert.deepStrictEqual(label(ruleAllow({ kind: "checkpoints_off", agent: "primary" })), ["Approvals off · Not reviewed", "violet"]);
  // Without provenance a rule allow reads as before.
  assert.deepStrictEqual(label(ruleAllow(undefined)), ["Policy allowed", "neutral"]);
  // An ask or a deny keeps the seed's labels and the action's risk, whoever decided.
  assert.deepStrictEqual(label(ruleAllow(USER_RULE, { behavior: "ask" })), ["Review required · high", "amber"]);
  assert.deepStrictEqual(label(ruleAllow(USER_RULE, { behavior: "deny", risk: "critical" })), ["Denied · critical", "red"]);
  // The user's resolution still wins the badge.
  const resolved = part(ruleAllow(USER_RULE, { behavior: "ask" }), {
    permissionResolution: { toolCallId: "c", behavior: "allow", source: "user", actionId: "allow_once", scope: "once" },
  });
  assert.equal(badgeFor(resolved).label, "User approved");
});

test("the expanded view names the rule, the grant, the setting or the checkpoints, and keeps the risk", () => {
  const rule = rows(ruleAllow(USER_RULE));
  assert.equal(rule.Outcome, "Allowed by your rule");
  assert.equal(rule.Evaluator, "Rule");
  assert.equal(rule.Version, "rule 0.1.0");
  assert.equal(rule.Rule, "Bash(git push:*)");
  assert.equal(rule.Layer, "Project");
  assert.equal(rule["Written in"], "/abs/path/rules.toml:12");
  assert.equal(rule.Risk, "High");

  const grant = rows(ruleAllow(GRANT, { evaluator: { name: "grants" } }));
  assert.equal(grant.Outcome, "Allowed by your grant");
  assert.equal(grant["Decided by"], "Your grant for this session");
  assert.equal(grant.Grant, '"git push" commands');
  assert.equal(grant.Scope, "This session");
  assert.equal(grant["Grant id"], "grt_0123456789abcdef");
  assert.equal(grant["Approved on call"], "call-0 (allow_session)");
  assert.ok(grant.Granted.length > 0);
  assert.equal(grant.Version, undefined);
  assert.equal(rows(ruleAllow({ ...GRANT, scope: "global" })).Scope, "Every session");

  assert.equal(rows(ruleAllow({ kind: "auto_approved", from: "session" })).Setting, "This session's auto-approved tools");
  assert.equal(rows(ruleAllow({ kind: "auto_approved", from: "pattern" })).Setting, "The pattern's default auto-approved tools");

  const off = rows(ruleAllow({ kind: "checkpoints_off", agent: "primary" }));
  assert.equal(off.Outcome, "Allowed without review");
  assert.equal(off["Decided by"], "Approvals off · Not reviewed");
  assert.match(off.Checkpoints, /agent "primary"/);

  // An ask by the user's rule keeps the rule in its REVIEW section.
  const review = decisionSections(part(ruleAllow(USER_RULE, { behavior: "ask" }), { state: "running" }))[1];
  assert.ok(review.rows.some(([k, v]) => k === "Rule" && v === "Bash(git push:*)"));
});

test("a plugin that decided is named with its version; built-ins keep their names", () => {
  const plugin = ruleAllow(undefined, { source: "policy", behavior: "deny", evaluator: { name: "branch_guard", version: "1.2.0" } });
  assert.equal(evaluatorText(plugin), "Decided by plugin branch_guard 1.2.0");
  assert.equal(rows(plugin).Evaluator, "Decided by plugin branch_guard 1.2.0");
  assert.equal(rows(plugin).Version, undefined);
  assert.equal(evaluatorText({ ...plugin, evaluator: { name: "branch_guard" } }), "Decided by plugin branch_guard");
  for (const [name, source, text] of [["policy", "policy", "Policy"], ["rule", "rule", "Rule"], ["auto_classifier", "auto_classifier", "Security reviewer"], ["full_access", "full_access", "Full Access"]]) {
    assert.equal(evaluatorText({ source, evaluator: { name, version: "0.1.0" } }), text);
  }
  const asked = { ...plugin, behavior: "ask" };
  assert.ok(dockProvenance(part(asked)).line.startsWith("Decided by plugin branch_guard 1.2.0"));
});

test("the dock words the verdict by who asks", () => {
  const request = (source) => ({ reason: "Pushes to a remote.", recommendation: { behavior: "ask", source, reasonCode: "x" } });
  const verdict = (source, decision = {}) => dockVerdict({ permission: request(source), permissionDecision: decision });
  assert.deepStrictEqual(verdict("auto_classifier"), { lead: "The reviewer recommends review:", reason: "Pushes to a remote." });
  assert.equal(verdict("policy").lead, "The policy asks for your review:");
  assert.equal(verdict("rule").lead, "A rule asks for your review:");
  assert.equal(verdict("rule", { provenance: USER_RULE }).lead, "Your rule Bash(git push:*) asks for review:");
});

test("the dock shows the exact command, diff or path, in full", () => {
  const long = `curl -d '${"x".repeat(2000)}' https://example.com`;
  assert.deepStrictEqual(subjectOf({ input: { command: long } }), { kind: "command", label: "Command", text: long });
  const edit = subjectOf({ input: { path: "a.md", old_string: "one\ntwo", new_string: "three" } });
  assert.equal(edit.kind, "diff");
  assert.equal(edit.text, "--- a.md\n+++ a.md\n-one\n-two\n+three");
  assert.deepStrictEqual(subjectOf({ input: { path: "README.md" } }), { kind: "path", label: "Path", text: "README.md" });
  assert.equal(subjectOf({ input: { path: "n.md", content: "body" } }).text, "body");
  assert.equal(subjectOf({ input: { url: "https://x" } }).kind, "url");
  assert.equal(subjectOf({ input: { a: 1 } }).text, '{\n  "a": 1\n}');
  assert.equal(subjectOf({ argsText: '{"comm' }).text, '{"comm');
});

test("an interrupted call reads as never ran and no longer waits for approval", () => {
  const interrupted = {
    toolCallId: "c",
    toolName: "Bash",
    state: "output-error",
    interrupted: true,
    errorText: "Interrupted: the server restarted before this call ran.",
    permission: { actions: [] },
  };
  assert.deepStrictEqual(statusOf(interrupted), { icon: "⊘", label: "Interrupted — never ran", key: "interrupted" });
  assert.equal(awaitsApproval(interrupted), false);
  assert.equal(statusOf({ ...interrupted, interrupted: undefined }).key, "failed");
  const asked = { toolCallId: "c", behavior: "ask", source: "policy", reason: "r", reasonCode: "shell_network", risk: "high" };
  const [outcome, review] = decisionSections({ ...interrupted, permissionDecision: asked });
  assert.deepStrictEqual(outcome.rows, [["Outcome", "Interrupted — never ran"]]);
  assert.match(review.rows.at(-1)[1], /^Never resolved/);
});

test("provenance and evaluator are read as strictly as the contract", () => {
  const custom = (value) => ({ type: "CUSTOM", name: "tool_permission_decision", value });
  const read = (value) => reduceToolParts([custom(value)])[0]?.permissionDecision ?? null;
  assert.deepStrictEqual(read(ruleAllow(GRANT)), ruleAllow(GRANT));
  // Extra fields are dropped, a null optional is absent.
  assert.equal(read(ruleAllow(USER_RULE, { evaluator: null })).evaluator, undefined);
  assert.deepStrictEqual(read(ruleAllow({ ...USER_RULE, extra: 1 })).provenance, USER_RULE);
  // An unknown kind, a missing field or a wrong type: the whole decision is ignored.
  for (const bad of [
    { kind: "telepathy" },
    { kind: "user_rule", rule: "x", layer: "user" },
    { ...GRANT, grantedAt: 1.5 },
    { ...GRANT, scope: "forever" },
    { kind: "auto_approved", from: "elsewhere" },
    { kind: "checkpoints_off" },
    "user_rule",
  ]) {
    assert.equal(read(ruleAllow(bad)), null, JSON.stringify(bad));
  }
  assert.equal(read(ruleAllow(undefined, { evaluator: { version: "1" } })), null);
  assert.equal(read(ruleAllow(undefined, { evaluator: { name: "x", version: 1 } })), null);
});

test("the contract's provenance examples read back unchanged and each gets its badge", { skip: !existsSync(CONTRACT) && "no contract fixture" }, () => {
  const decisions = JSON.parse(readFileSync(CONTRACT, "utf8"));
  for (const d of decisions) {
    const read = reduceToolParts([{ type: "CUSTOM", name: "tool_permission_decision", value: d }])[0]?.permissionDecision;
    assert.deepStrictEqual(read, d, d.toolCallId);
  }
  assert.deepStrictEqual(
    decisions.map((d) => badgeFor(part(d)).label),
    ["Your rule", "Your grant · this session", "Auto-approved by your settings", "Approvals off · Not reviewed", "Denied · high"],
  );
  assert.equal(evaluatorText(decisions.at(-1)), "Decided by plugin friday 2.1.0");
});
