// The security reviewer as the decision views name it: the embedded heuristic reviewer is
// labelled as such, a model by its name, and a fallback is always visible.
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  EMBEDDED_REVIEWER_LABEL,
  EMBEDDED_REVIEWER_MODEL,
  badgeFor,
  decisionSections,
  dockProvenance,
  reviewerFallback,
  reviewerText,
} from "../../assets/decision.js";

const decision = (over) => ({
  toolCallId: "c",
  behavior: "allow",
  source: "auto_classifier",
  reason: "The command changes files inside the workspace only.",
  reasonCode: "auto_classifier_allow",
  risk: "low",
  confidence: "high",
  riskCategories: [],
  reviewerModel: "openai/gpt-4.1-mini",
  ...over,
});

const rowsOf = (d) => Object.fromEntries(decisionSections({ permissionDecision: d }).flatMap((s) => s.rows));

test("the embedded reviewer is labelled as such, a model by its name", () => {
  const embedded = decision({ reviewerModel: EMBEDDED_REVIEWER_MODEL });
  assert.equal(reviewerText(embedded), `${EMBEDDED_REVIEWER_LABEL} · ${EMBEDDED_REVIEWER_MODEL}`);
  assert.equal(rowsOf(embedded).Reviewer, "Embedded reviewer (heuristic) · warrant/heuristic-v1");
  assert.equal(rowsOf(decision({})).Reviewer, "openai/gpt-4.1-mini");
  assert.equal(reviewerText(decision({ reviewerModel: "x/y", reviewerEmbedded: true })), `${EMBEDDED_REVIEWER_LABEL} · x/y`);
  assert.equal(reviewerText(decision({ reviewerModel: undefined })), "");
  const dock = dockProvenance({ permissionDecision: embedded });
  assert.ok(dock.line.includes(EMBEDDED_REVIEWER_LABEL) && dock.line.includes(EMBEDDED_REVIEWER_MODEL), dock.line);
});

test("a failed review reads as a fallback to ask", () => {
  const failed = decision({
    behavior: "ask",
    reasonCode: "auto_classifier_unavailable",
    reason: "The security reviewer could not be reached (no answer within 300 ms), so this call needs approval.",
    risk: "medium",
  });
  assert.deepEqual(reviewerFallback(failed), { kind: "ask", reason: "" });
  const rows = Object.fromEntries(decisionSections({ permissionDecision: failed })[1].rows);
  assert.equal(rows["Reviewer fallback"], "Reviewer unavailable: the call asks for your review");
  const dock = dockProvenance({ permissionDecision: failed });
  assert.ok(dock.line.includes("Reviewer unavailable"), dock.line);
});

test("the embedded reviewer standing in is visible in the badge and the rows", () => {
  const stoodIn = decision({
    reviewerModel: EMBEDDED_REVIEWER_MODEL,
    confidence: "medium",
    reason:
      'The security reviewer "qwen2.5:7b" was unavailable (no answer within 500 ms), so the embedded reviewer decided. The command changes files inside the workspace only.',
  });
  assert.deepEqual(reviewerFallback(stoodIn), { kind: "embedded", reason: "no answer within 500 ms" });
  assert.equal(badgeFor({ permissionDecision: stoodIn }).label, "Auto allowed · medium conf · fallback");
  assert.equal(
    rowsOf(stoodIn)["Reviewer fallback"],
    "Reviewer unavailable (no answer within 500 ms): the embedded reviewer decided",
  );
  // The same reason from a model reviewer is only text: no fallback is claimed.
  assert.equal(reviewerFallback({ ...stoodIn, reviewerModel: "m" }), null);
});

test("the server's reviewer fields, when sent, are shown", () => {
  const d = decision({
    reviewerModel: EMBEDDED_REVIEWER_MODEL,
    reviewerEmbedded: true,
    reviewerFallback: "embedded",
    reviewerFallbackReason: "HTTP 503",
    reviewerLatencyMs: 812,
  });
  const rows = rowsOf(d);
  assert.equal(rows["Reviewer fallback"], "Reviewer unavailable (HTTP 503): the embedded reviewer decided");
  assert.equal(rows["Review time"], "812 ms");
  assert.equal(rowsOf(decision({ reviewerPromptVersion: "review-v1" }))["Prompt version"], "review-v1");
});

test("a working model reviewer shows no fallback, and other sources never do", () => {
  assert.equal(reviewerFallback(decision({})), null);
  assert.equal(badgeFor({ permissionDecision: decision({}) }).label, "Auto allowed · high conf");
  assert.equal(reviewerFallback(decision({ source: "policy", reasonCode: "auto_classifier_unavailable" })), null);
  assert.equal(rowsOf(decision({}))["Reviewer fallback"], undefined);
});

test("the reducer keeps the reviewer's account of a classifier decision, and refuses a malformed one", async () => {
  const { readDecision } = await import("../../assets/reducer.js");
  const streamed = decision({
    reviewerEmbedded: false,
    reviewerPromptVersion: "review-v1",
    reviewerLatencyMs: 812,
    reviewerFallback: "ask",
    reviewerFallbackReason: "no answer within 5000 ms",
  });
  const read = readDecision(streamed);
  assert.deepEqual(read, streamed);
  assert.deepEqual(rowsOf(read)["Prompt version"], "review-v1");
  assert.equal(readDecision(decision({ reviewerFallback: "allow" })), null);
  assert.equal(readDecision(decision({ reviewerLatencyMs: "fast" })), null);
  assert.equal(readDecision(decision({ reviewerEmbedded: "yes" })), null);
});
