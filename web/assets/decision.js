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
  switch (decision.source) {
    case "full_access":
      return { label: "Full Access · Not reviewed", tone: "violet", tooltip };
    case "auto_classifier":
      return {
        label: decision.confidence ? `Auto allowed · ${decision.confidence} conf` : "Auto allowed",
        tone: "green",
        tooltip,
      };
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

/** The rows a decision's evaluator adds: who, which model, how sure, how risky, about what. */
function provenanceRows(decision) {
  const rows = [["Evaluator", EVALUATORS[decision.source]]];
  if (decision.reviewerModel) rows.push(["Reviewer", decision.reviewerModel]);
  if (decision.confidence) rows.push(["Confidence", capitalize(decision.confidence)]);
  rows.push(["Risk", capitalize(decision.risk)], ["Categories", categories(decision.riskCategories)]);
  rows.push(["Reason", truncate(decision.reason, EXPANDED_REASON_CHARS)]);
  return rows;
}

/** Policy and rule allows share the outcome "Policy allowed"; the Evaluator row tells them apart. */
function allowOutcome(source) {
  return source === "auto_classifier" ? "Auto allowed" : "Policy allowed";
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
      ["Evaluator", "Full Access"],
      ["Reason", truncate(decision.reason, EXPANDED_REASON_CHARS)],
    ];
    return [{ title: "Permission decision", rows }];
  }
  if (decision.behavior !== "ask") {
    const outcome = decision.behavior === "deny" ? "Denied" : allowOutcome(decision.source);
    return [{ title: "Permission decision", rows: [["Outcome", outcome], ...provenanceRows(decision)] }];
  }
  const outcome = resolution
    ? resolution.behavior === "allow" ? "User approved" : "User denied"
    : "Waiting for your decision";
  const review = [["Recommendation", "Review required"], ...provenanceRows(decision)];
  review.push(["Resolution", resolution ? resolutionText(resolution) : "Not yet resolved"]);
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
  if (source) bits.push(DOCK_EVALUATORS[source] ?? source);
  if (confidence && source !== "full_access") bits.push(`${capitalize(confidence)} confidence`);
  bits.push(Array.isArray(cats) && cats.length > 0 ? `Categories: ${cats.join(", ")}` : "No risk categories");
  if (model && source !== "full_access") bits.push(model);
  return { aiRecommendation: source === "auto_classifier", line: bits.join(" · ") };
}

/** Where a call stands, as the collapsed header shows it: `{icon, label}`. */
export function statusOf(part) {
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
  return Boolean(part.permission) && !part.permissionResolution && part.state !== "completed";
}
