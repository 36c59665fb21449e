// How a tool call's permission metadata reads to a person: the collapsed badge, the expanded
// PERMISSION DECISION rows, and the approval dock's provenance line. Pure functions of a part.
//
// Only `source` says who decided; the reason code is never used to guess it. Colour is a
// tone name the stylesheet maps to a palette: the label alone tells the story.

/** The longest reason the collapsed tooltip shows. */
export const TOOLTIP_REASON_CHARS = 140;

/** The longest reason the expanded view shows (the server bounds reasons too). */
export const EXPANDED_REASON_CHARS = 2000;

/** The evaluator names of the expanded view. */
const EVALUATORS = {
  policy: "Policy",
  rule: "Rule",
  auto_classifier: "Security reviewer",
  full_access: "Full Access",
};

/** The evaluator names of the approval dock. */
const DOCK_EVALUATORS = {
  policy: "Policy",
  rule: "Rule",
  auto_classifier: "Auto reviewer",
  full_access: "Full Access",
};

/** The evaluators that ship with Warrant (and the chain's own grant check). */
const BUILT_IN_EVALUATORS = new Set(["policy", "rule", "auto_classifier", "full_access", "grants"]);

/** The collapsed badge of an allow, by the kind of user decision it was. */
const PROVENANCE_BADGES = {
  user_rule: () => ({ label: "Your rule", tone: "blue" }),
  grant: (p) => ({ label: p.scope === "global" ? "Your grant · every session" : "Your grant · this session", tone: "blue" }),
  auto_approved: () => ({ label: "Auto-approved by your settings", tone: "blue" }),
  // Nothing was reviewed: like Full Access, it must never look like a review.
  checkpoints_off: () => ({ label: "Approvals off · Not reviewed", tone: "violet" }),
};

/** The model id the embedded heuristic reviewer reports as `reviewerModel`. */
export const EMBEDDED_REVIEWER_MODEL = "warrant/heuristic-v1";

/** The label of the embedded heuristic reviewer wherever it decided. */
export const EMBEDDED_REVIEWER_LABEL = "Embedded reviewer (heuristic)";

/** The classifier's reason codes for a review that failed, so the call asks. */
const FAILED_REVIEW_CODES = new Set(["auto_classifier_unavailable", "auto_classifier_invalid_output"]);

/** The sentence the server opens a reason with when the embedded reviewer stood in. */
const EMBEDDED_STOOD_IN = /^The security reviewer .* was unavailable \((.*)\), so the embedded reviewer decided\./;

const RESOLUTIONS = {
  once: "User allowed once",
  session: "User allowed for this session",
  global: "User allowed in every session",
};

/** `high` → `High`. */
export function capitalize(word) {
  return typeof word === "string" && word ? word[0].toUpperCase() + word.slice(1) : "";
}

/** `text` cut to `max` characters, with an ellipsis when it was longer. */
export function truncate(text, max) {
  const chars = Array.from(String(text ?? ""));
  return chars.length <= max ? chars.join("") : `${chars.slice(0, max - 1).join("").trimEnd()}…`;
}

/** Whether the embedded heuristic reviewer made a classifier decision. */
export function isEmbeddedReviewer(decision) {
  if (!decision?.reviewerModel) return false;
  return decision.reviewerEmbedded === true || decision.reviewerModel === EMBEDDED_REVIEWER_MODEL;
}

/**
 * Who reviewed a classifier decision, as a person reads it: "Embedded reviewer (heuristic)"
 * with its id, or the model's name. Empty when no reviewer is named.
 */
export function reviewerText(decision) {
  const model = decision?.reviewerModel;
  if (!model) return "";
  return isEmbeddedReviewer(decision) ? `${EMBEDDED_REVIEWER_LABEL} · ${model}` : model;
}

/**
 * The fallback that decided a classifier call because the configured reviewer was down,
 * slow or answered outside the schema: `{kind: "embedded" | "ask", reason}`, or null. Read
 * from `reviewerFallback` when the server sends it, else from the reason code (a failed review
 * asks) or the reason's opening sentence (the embedded reviewer stood in).
 */
export function reviewerFallback(decision) {
  if (!decision || decision.source !== "auto_classifier") return null;
  const why = typeof decision.reviewerFallbackReason === "string" ? decision.reviewerFallbackReason : "";
  if (decision.reviewerFallback === "embedded" || decision.reviewerFallback === "ask") {
    return { kind: decision.reviewerFallback, reason: why };
  }
  if (FAILED_REVIEW_CODES.has(decision.reasonCode)) return { kind: "ask", reason: why };
  const stoodIn = isEmbeddedReviewer(decision) && EMBEDDED_STOOD_IN.exec(String(decision.reason ?? ""));
  return stoodIn ? { kind: "embedded", reason: stoodIn[1] } : null;
}

/** A fallback in words, for the expanded view and the dock. */
export function fallbackText(fallback) {
  if (!fallback) return "";
  const why = fallback.reason ? ` (${fallback.reason})` : "";
  return fallback.kind === "embedded"
    ? `Reviewer unavailable${why}: the embedded reviewer decided`
    : `Reviewer unavailable${why}: the call asks for your review`;
}

/**
 * Whether a decision is a routine read-only policy allow: those get no collapsed badge
 * unless the verbose security view is on.
 */
export function isRoutineReadOnly(decision) {
  if (!decision || decision.source !== "policy" || decision.behavior !== "allow") return false;
  const code = decision.reasonCode;
  return code === "shell_read_only" || code.startsWith("read_only_") || code.startsWith("filesystem_read");
}

/**
 * The collapsed badge of a part: `{label, tone, tooltip}`, or null when it shows none (no
 * decision, or a routine read-only policy allow outside the verbose view).
 */
export function badgeFor(part, { verbose = false } = {}) {
  const decision = part.permissionDecision;
  const resolution = part.permissionResolution;
  const reason = decision?.reason ?? part.permission?.reason ?? "";
  const tooltip = truncate(reason, TOOLTIP_REASON_CHARS);
  if (resolution) {
    return resolution.behavior === "allow"
      ? { label: "User approved", tone: "blue", tooltip }
      : { label: "User denied", tone: "red", tooltip };
  }
  if (!decision) return null;
  if (decision.behavior === "deny") {
    return { label: `Denied · ${decision.risk}`, tone: "red", tooltip };
  }
  if (decision.behavior === "ask") {
    return { label: `Review required · ${decision.risk}`, tone: "amber", tooltip };
  }
  const kind = decision.provenance?.kind;
  if (kind && PROVENANCE_BADGES[kind]) return { ...PROVENANCE_BADGES[kind](decision.provenance), tooltip };
  switch (decision.source) {
    case "full_access":
      return { label: "Full Access · Not reviewed", tone: "violet", tooltip };
    case "auto_classifier": {
      const label = decision.confidence ? `Auto allowed · ${decision.confidence} conf` : "Auto allowed";
      return { label: reviewerFallback(decision) ? `${label} · fallback` : label, tone: "green", tooltip };
    }
    default:
      if (isRoutineReadOnly(decision) && !verbose) return null;
      return { label: "Policy allowed", tone: "neutral", tooltip };
  }
}

/** `once` / `session` / `global` allows, and denies, as the expanded view words them. */
export function resolutionText(resolution) {
  if (resolution.behavior === "deny") return "User denied";
  return RESOLUTIONS[resolution.scope] ?? "User allowed";
}

function categories(list) {
  return Array.isArray(list) && list.length > 0 ? list.join(", ") : "None";
}

/** `1764470000000` → a local date and time a person reads. */
export function formatTime(ms) {
  const date = new Date(ms);
  if (!Number.isFinite(date.getTime())) return "";
  return date.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}

/** `session` → `This session`, `global` → `Every session`. */
export function scopeText(scope) {
  return scope === "global" ? "Every session" : scope === "session" ? "This session" : capitalize(scope);
}

/**
 * The Evaluator row: the built-in evaluator by source, or the plugin that decided, named
 * with its version ("Decided by plugin branch_guard 1.2.0").
 */
export function evaluatorText(decision) {
  const evaluator = decision.evaluator;
  if (evaluator && !BUILT_IN_EVALUATORS.has(evaluator.name)) {
    return ["Decided by plugin", evaluator.name, evaluator.version].filter(Boolean).join(" ");
  }
  return EVALUATORS[decision.source] ?? decision.source;
}

/** The built-in evaluator's name and version, when the decision carries them. */
function versionRow(decision) {
  const evaluator = decision.evaluator;
  if (!evaluator || !BUILT_IN_EVALUATORS.has(evaluator.name) || !evaluator.version) return [];
  return [["Version", `${evaluator.name} ${evaluator.version}`]];
}

/** The rows saying which of the user's own decisions applied: the rule, grant or setting. */
export function userDecisionRows(provenance) {
  switch (provenance?.kind) {
    case "user_rule":
      return [
        ["Decided by", "Your rule"],
        ["Rule", provenance.rule],
        ["Layer", capitalize(provenance.layer)],
        ["Written in", provenance.origin],
      ];
    case "grant":
      return [
        ["Decided by", provenance.scope === "global" ? "Your grant for every session" : "Your grant for this session"],
        ["Grant", provenance.description],
        ["Scope", scopeText(provenance.scope)],
        ["Granted", formatTime(provenance.grantedAt)],
        ["Approved on call", provenance.actionId ? `${provenance.toolCallId} (${provenance.actionId})` : provenance.toolCallId],
        ["Grant id", provenance.grantId],
      ];
    case "auto_approved":
      return [
        ["Decided by", "Auto-approved by your settings"],
        ["Setting", provenance.from === "session" ? "This session's auto-approved tools" : "The pattern's default auto-approved tools"],
      ];
    case "checkpoints_off":
      return [
        ["Decided by", "Approvals off · Not reviewed"],
        ["Checkpoints", `Tool-call approvals are off for agent "${provenance.agent}": nothing reviewed this call.`],
      ];
    default:
      return [];
  }
}

/** The rows a decision's evaluator adds: who, which model, how sure, how risky, about what. */
function provenanceRows(decision) {
  const rows = [["Evaluator", evaluatorText(decision)], ...versionRow(decision), ...userDecisionRows(decision.provenance)];
  if (decision.reviewerModel) rows.push(["Reviewer", reviewerText(decision)]);
  const fallback = reviewerFallback(decision);
  if (fallback) rows.push(["Reviewer fallback", fallbackText(fallback)]);
  if (typeof decision.reviewerPromptVersion === "string") rows.push(["Prompt version", decision.reviewerPromptVersion]);
  if (Number.isFinite(decision.reviewerLatencyMs)) rows.push(["Review time", `${decision.reviewerLatencyMs} ms`]);
  if (decision.confidence) rows.push(["Confidence", capitalize(decision.confidence)]);
  rows.push(["Risk", capitalize(decision.risk)], ["Categories", categories(decision.riskCategories)]);
  rows.push(["Reason", truncate(decision.reason, EXPANDED_REASON_CHARS)]);
  return rows;
}

/** The outcome of an allow, by the kind of user decision it was. */
const PROVENANCE_OUTCOMES = {
  user_rule: "Allowed by your rule",
  grant: "Allowed by your grant",
  auto_approved: "Auto-approved by your settings",
  checkpoints_off: "Allowed without review",
};

/**
 * Policy and rule allows without provenance share the outcome "Policy allowed"; the
 * Evaluator row tells them apart.
 */
function allowOutcome(decision) {
  const kind = decision.provenance?.kind;
  if (kind && PROVENANCE_OUTCOMES[kind]) return PROVENANCE_OUTCOMES[kind];
  return decision.source === "auto_classifier" ? "Auto allowed" : "Policy allowed";
}

/**
 * The expanded view's PERMISSION DECISION, as sections of `[label, value]` rows:
 * `[{title, rows}]`. Empty when the part carries no decision (an old server or chat).
 *
 * Full Access reads "Allowed without review" and never names a reviewer or a confidence. An
 * escalation keeps both stages: the REVIEW recommendation, then the user's resolution (or
 * that the user has not acted yet).
 */
export function decisionSections(part) {
  const decision = part.permissionDecision;
  const resolution = part.permissionResolution;
  if (!decision) {
    return resolution ? [{ title: "Permission decision", rows: [["Outcome", resolutionText(resolution)]] }] : [];
  }
  if (decision.source === "full_access" && decision.behavior === "allow") {
    const rows = [
      ["Outcome", "Allowed without review"],
      ["Evaluator", evaluatorText(decision)],
      ...versionRow(decision),
      ["Reason", truncate(decision.reason, EXPANDED_REASON_CHARS)],
    ];
    return [{ title: "Permission decision", rows }];
  }
  if (decision.behavior !== "ask") {
    const outcome = decision.behavior === "deny" ? "Denied" : allowOutcome(decision);
    return [{ title: "Permission decision", rows: [["Outcome", outcome], ...provenanceRows(decision)] }];
  }
  const interrupted = part.interrupted === true && !resolution;
  const outcome = resolution
    ? resolution.behavior === "allow" ? "User approved" : "User denied"
    : interrupted ? "Interrupted — never ran" : "Waiting for your decision";
  const review = [["Recommendation", "Review required"], ...provenanceRows(decision)];
  const unresolved = interrupted ? "Never resolved: the request ended before you acted" : "Not yet resolved";
  review.push(["Resolution", resolution ? resolutionText(resolution) : unresolved]);
  if (resolution?.message) review.push(["Message to the agent", resolution.message]);
  return [
    { title: "Permission decision", rows: [["Outcome", outcome]] },
    { title: "Review", rows: review },
  ];
}

/**
 * The approval dock's provenance of a request: `{aiRecommendation, line}` where `line` is the
 * one secondary line (evaluator, confidence, categories, reviewer model). It reads the
 * request's recommendation, and the part's decision where the recommendation is silent.
 */
export function dockProvenance(part) {
  const rec = part.permission?.recommendation ?? {};
  const decision = part.permissionDecision ?? {};
  const source = rec.source ?? decision.source;
  const confidence = rec.confidence ?? decision.confidence;
  const cats = rec.riskCategories ?? decision.riskCategories;
  const model = rec.reviewerModel ?? decision.reviewerModel;
  const bits = [];
  const plugin = decision.evaluator && !BUILT_IN_EVALUATORS.has(decision.evaluator.name);
  if (plugin) bits.push(evaluatorText(decision));
  else if (source) bits.push(DOCK_EVALUATORS[source] ?? source);
  if (confidence && source !== "full_access") bits.push(`${capitalize(confidence)} confidence`);
  bits.push(Array.isArray(cats) && cats.length > 0 ? `Categories: ${cats.join(", ")}` : "No risk categories");
  if (model && source !== "full_access") bits.push(reviewerText({ ...decision, reviewerModel: model }));
  const fallback = reviewerFallback(decision);
  if (fallback) bits.push(fallbackText(fallback));
  return { aiRecommendation: source === "auto_classifier", line: bits.join(" · ") };
}

/**
 * The dock's verdict in words: who asks for the user's review, and why. The reason is
 * kept apart so it renders as plain text beside the lead.
 */
export function dockVerdict(part) {
  const request = part.permission ?? {};
  const rec = request.recommendation ?? {};
  const decision = part.permissionDecision ?? {};
  const source = rec.source ?? decision.source;
  const reason = request.reason ?? decision.reason ?? "";
  const provenance = decision.provenance;
  let lead;
  if (source === "auto_classifier") lead = "The reviewer recommends review:";
  else if (provenance?.kind === "user_rule") lead = `Your rule ${provenance.rule} asks for review:`;
  else if (source === "rule") lead = "A rule asks for your review:";
  else if (source === "policy") lead = "The policy asks for your review:";
  else lead = "Review required:";
  return { lead, reason };
}

/** Builds a line-by-line diff of an edit's old and new text (`-` old, `+` new). */
function editDiff(path, oldText, newText) {
  const lines = [`--- ${path}`, `+++ ${path}`];
  for (const line of String(oldText).split("\n")) lines.push(`-${line}`);
  for (const line of String(newText).split("\n")) lines.push(`+${line}`);
  return lines.join("\n");
}

/**
 * What a call is about, exactly and in full, for the dock: `{kind, label, text}` where
 * `kind` is `command`, `diff`, `path`, `url` or `input`. Never truncated.
 */
export function subjectOf(part) {
  const input = part.input;
  if (input && typeof input === "object" && !Array.isArray(input)) {
    const path = [input.path, input.file_path, input.filePath].find((p) => typeof p === "string");
    if (typeof input.command === "string") return { kind: "command", label: "Command", text: input.command };
    if (typeof input.patch === "string") return { kind: "diff", label: "Diff", text: input.patch };
    if (typeof input.diff === "string") return { kind: "diff", label: "Diff", text: input.diff };
    if (path !== undefined && typeof input.old_string === "string" && typeof input.new_string === "string") {
      return { kind: "diff", label: `Diff of ${path}`, text: editDiff(path, input.old_string, input.new_string) };
    }
    if (path !== undefined && typeof input.content === "string") {
      return { kind: "diff", label: `New content of ${path}`, text: input.content };
    }
    if (path !== undefined) return { kind: "path", label: "Path", text: path };
    if (typeof input.url === "string") return { kind: "url", label: "URL", text: input.url };
  }
  if (input === undefined) return { kind: "input", label: "Input", text: part.argsText ?? "" };
  return { kind: "input", label: "Input", text: JSON.stringify(input, null, 2) };
}

/** Where a call stands, as the collapsed header shows it: `{icon, label}`. */
export function statusOf(part) {
  if (part.interrupted === true) return { icon: "⊘", label: "Interrupted — never ran", key: "interrupted" };
  if (part.state === "output-error") return { icon: "✕", label: "Failed", key: "failed" };
  const denied =
    part.permissionResolution?.behavior === "deny" ||
    (!part.permissionResolution && part.permissionDecision?.behavior === "deny");
  if (denied && part.state !== "streaming") return { icon: "✕", label: "Denied", key: "denied" };
  if (part.state === "completed") return { icon: "✓", label: "Completed", key: "completed" };
  if (awaitsApproval(part)) return { icon: "●", label: "Waiting for approval", key: "waiting" };
  if (part.state === "running") return { icon: "●", label: "Running", key: "running" };
  return { icon: "…", label: "Streaming", key: "streaming" };
}

/** Whether a part's approval request is still open. */
export function awaitsApproval(part) {
  return (
    Boolean(part.permission) &&
    !part.permissionResolution &&
    part.state !== "completed" &&
    part.state !== "output-error" &&
    part.interrupted !== true
  );
}
