// The labels, tones and rows a part's permission metadata reads as.
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  EXPANDED_REASON_CHARS,
  TOOLTIP_REASON_CHARS,
  badgeFor,
  decisionSections,
  dockProvenance,
  statusOf,
} from "../../assets/decision.js";

const decision = (over) => ({
  toolCallId: "c",
  behavior: "allow",
  source: "auto_classifier",
  reason: "This is a local workspace edit requested by the user.",
  reasonCode: "auto_classifier_allow",
  risk: "low",
  confidence: "high",
  riskCategories: [],
  reviewerModel: "openai/gpt-4.1-mini",
  ...over,
});
const part = (over) => ({ toolCallId: "c", toolName: "Edit", state: "completed", ...over });
const badge = (p, opts) => badgeFor(p, opts) && [badgeFor(p, opts).label, badgeFor(p, opts).tone];

test("each decision kind has the seed's label and colour", () => {
  assert.deepStrictEqual(badge(part({ permissionDecision: decision() })), ["Auto allowed · high conf", "green"]);
  assert.deepStrictEqual(badge(part({ permissionDecision: decision({ behavior: "ask", risk: "high" }) })), ["Review required · high", "amber"]);
  const policyWrite = decision({ source: "policy", reasonCode: "filesystem_write_inside_workspace", confidence: undefined, reviewerModel: undefined });
  assert.deepStrictEqual(badge(part({ permissionDecision: policyWrite })), ["Policy allowed", "neutral"]);
  const ruleAllow = decision({ source: "rule", reasonCode: "explicit_tool_auto_approved", confidence: undefined });
  assert.deepStrictEqual(badge(part({ permissionDecision: ruleAllow })), ["Policy allowed", "neutral"]);
  const full = decision({ source: "full_access", reasonCode: "mode_full_access", confidence: undefined, reviewerModel: undefined });
  assert.deepStrictEqual(badge(part({ permissionDecision: full })), ["Full Access · Not reviewed", "violet"]);
  assert.deepStrictEqual(badge(part({ permissionDecision: decision({ behavior: "deny", source: "policy", risk: "critical" }) })), ["Denied · critical", "red"]);
  const asked = decision({ behavior: "ask", risk: "high" });
  const resolution = (behavior) => ({ toolCallId: "c", behavior, source: "user", actionId: behavior === "allow" ? "allow_once" : "deny", scope: "once" });
  assert.deepStrictEqual(badge(part({ permissionDecision: asked, permissionResolution: resolution("allow") })), ["User approved", "blue"]);
  assert.deepStrictEqual(badge(part({ permissionDecision: asked, permissionResolution: resolution("deny") })), ["User denied", "red"]);
});

test("routine read-only policy allows show a badge only in the verbose view", () => {
  for (const reasonCode of ["shell_read_only", "read_only_tool", "filesystem_read_inside_workspace"]) {
    const p = part({ permissionDecision: decision({ source: "policy", reasonCode, confidence: undefined, reviewerModel: undefined }) });
    assert.equal(badgeFor(p), null, reasonCode);
    assert.deepStrictEqual(badge(p, { verbose: true }), ["Policy allowed", "neutral"]);
  }
  // A rule allow with a read-only-looking code is not policy: it keeps its badge.
  const rule = part({ permissionDecision: decision({ source: "rule", reasonCode: "read_only_tool" }) });
  assert.equal(badgeFor(rule).label, "Policy allowed");
});

test("a part without a decision has no badge and no decision section", () => {
  assert.equal(badgeFor(part({})), null);
  assert.deepStrictEqual(decisionSections(part({})), []);
});

test("the tooltip is truncated and the expanded reason bounded", () => {
  const long = "x".repeat(5000);
  const p = part({ permissionDecision: decision({ reason: long }) });
  const tip = badgeFor(p).tooltip;
  assert.equal(Array.from(tip).length, TOOLTIP_REASON_CHARS);
  assert.ok(tip.endsWith("…"));
  const reason = decisionSections(p)[0].rows.find(([k]) => k === "Reason")[1];
  assert.equal(Array.from(reason).length, EXPANDED_REASON_CHARS);
});

test("an auto allow expands to outcome, evaluator, reviewer, confidence, risk, categories and reason", () => {
  assert.deepStrictEqual(decisionSections(part({ permissionDecision: decision() })), [
    {
      title: "Permission decision",
      rows: [
        ["Outcome", "Auto allowed"],
        ["Evaluator", "Security reviewer"],
        ["Reviewer", "openai/gpt-4.1-mini"],
        ["Confidence", "High"],
        ["Risk", "Low"],
        ["Categories", "None"],
        ["Reason", "This is a local workspace edit requested by the user."],
      ],
    },
  ]);
});

test("Full Access expands to allowed without review and never names a reviewer or confidence", () => {
  const full = decision({ source: "full_access", reasonCode: "mode_full_access", reason: "Approval prompts are disabled by the active permission mode." });
  assert.deepStrictEqual(decisionSections(part({ permissionDecision: full })), [
    {
      title: "Permission decision",
      rows: [
        ["Outcome", "Allowed without review"],
        ["Evaluator", "Full Access"],
        ["Reason", "Approval prompts are disabled by the active permission mode."],
      ],
    },
  ]);
});

test("an escalation keeps the recommendation and shows each resolution", () => {
  const asked = decision({ behavior: "ask", risk: "high", reason: "The action modifies an external system.", riskCategories: ["external_system"] });
  const pending = decisionSections(part({ state: "running", permissionDecision: asked }));
  assert.equal(pending[1].title, "Review");
  assert.deepStrictEqual(pending[1].rows[0], ["Recommendation", "Review required"]);
  assert.deepStrictEqual(pending[1].rows.at(-1), ["Resolution", "Not yet resolved"]);
  const cases = [
    ["allow", "once", "User allowed once"],
    ["allow", "session", "User allowed for this session"],
    ["allow", "global", "User allowed in every session"],
    ["deny", "once", "User denied"],
  ];
  for (const [behavior, scope, text] of cases) {
    const resolution = { toolCallId: "c", behavior, source: "user", actionId: "x", scope };
    const [outcome, review] = decisionSections(part({ permissionDecision: asked, permissionResolution: resolution }));
    assert.deepStrictEqual(outcome.rows, [["Outcome", behavior === "allow" ? "User approved" : "User denied"]]);
    assert.deepStrictEqual(review.rows.at(-1), ["Resolution", text]);
    assert.ok(review.rows.some(([k, v]) => k === "Reason" && v === "The action modifies an external system."));
    assert.ok(review.rows.some(([k, v]) => k === "Categories" && v === "external_system"));
  }
});

test("the dock line names the evaluator, confidence, categories and model, and labels AI recommendations", () => {
  const request = {
    toolCallId: "c",
    title: "Approve Deploy",
    detail: "d",
    risk: "high",
    reason: "r",
    recommendation: { behavior: "ask", source: "auto_classifier", reasonCode: "auto_classifier_ask", confidence: "medium", riskCategories: ["external_system", "network"], reviewerModel: "openai/gpt-4.1-mini" },
    actions: [],
  };
  assert.deepStrictEqual(dockProvenance(part({ permission: request })), {
    aiRecommendation: true,
    line: "Auto reviewer · Medium confidence · Categories: external_system, network · openai/gpt-4.1-mini",
  });
  const policy = { ...request, recommendation: { behavior: "ask", source: "policy", reasonCode: "filesystem_write_inside_workspace" } };
  assert.deepStrictEqual(dockProvenance(part({ permission: policy })), { aiRecommendation: false, line: "Policy · No risk categories" });
  const rule = { ...request, recommendation: { behavior: "ask", source: "rule", reasonCode: "normalized_rule_ask" } };
  assert.equal(dockProvenance(part({ permission: rule })).line, "Rule · No risk categories");
});

test("status reads denied for denials, waiting for open requests, and follows execution otherwise", () => {
  assert.equal(statusOf(part({ permissionDecision: decision({ behavior: "deny" }) })).label, "Denied");
  assert.equal(statusOf(part({ state: "running", permission: { actions: [] } })).label, "Waiting for approval");
  assert.equal(statusOf(part({ state: "running" })).label, "Running");
  assert.equal(statusOf(part({})).label, "Completed");
  assert.equal(statusOf(part({ state: "streaming" })).label, "Streaming");
});
