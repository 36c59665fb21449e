// The browser's event-to-part reducer: AG-UI events in, tool parts and the timeline out.
//
// It mirrors warrant-core's `ToolParts` reducer and is checked against the same JSON fixtures
// (tests/fixtures/reducer). Warrant's CUSTOM values are read as strictly as the Rust contract
// reads them: a value that does not have the contract's shape is ignored, never half-applied.

export const TOOL_PERMISSION_DECISION = "tool_permission_decision";
export const TOOL_APPROVAL_REQUEST = "tool_approval_request";
export const TOOL_PERMISSION_RESOLUTION = "tool_permission_resolution";

const BEHAVIORS = ["allow", "ask", "deny"];
const RESOLUTION_BEHAVIORS = ["allow", "deny"];
const SOURCES = ["policy", "rule", "auto_classifier", "full_access"];
const RISKS = ["safe", "low", "medium", "high", "critical"];
const CONFIDENCES = ["low", "medium", "high"];
const REVIEWER_FALLBACKS = ["ask", "embedded"];
const SCOPES = ["once", "session", "global"];
const STATES = ["streaming", "running", "completed", "output-error"];
const AUTO_APPROVAL_ORIGINS = ["session", "pattern"];

/** Thrown inside the readers when a value breaks the contract; never escapes this module. */
class Malformed extends Error {}

function isObject(value) {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function str(obj, key) {
  const v = obj[key];
  if (typeof v !== "string") throw new Malformed(key);
  return v;
}

function oneOf(obj, key, allowed) {
  const v = str(obj, key);
  if (!allowed.includes(v)) throw new Malformed(key);
  return v;
}

/** Copies an optional field: absent or null is left out, anything else must pass `read`. */
function optional(out, obj, key, read) {
  if (obj[key] === undefined || obj[key] === null) return;
  out[key] = read(obj, key);
}

function strings(obj, key) {
  const v = obj[key];
  if (!Array.isArray(v) || v.some((s) => typeof s !== "string")) throw new Malformed(key);
  return [...v];
}

function boolean(obj, key) {
  const v = obj[key];
  if (typeof v !== "boolean") throw new Malformed(key);
  return v;
}

function integer(obj, key) {
  const v = obj[key];
  if (!Number.isSafeInteger(v)) throw new Malformed(key);
  return v;
}

function object(obj, key) {
  const v = obj[key];
  if (!isObject(v)) throw new Malformed(key);
  return v;
}

/**
 * Which kind of user decision a `rule` decision was (`provenance`), by its `kind`. A kind
 * this reader does not know, or a missing field, makes the whole value malformed, as the
 * Rust contract's tagged enum reads it.
 */
const PROVENANCE_KINDS = {
  user_rule: (v) => ({ rule: str(v, "rule"), layer: str(v, "layer"), origin: str(v, "origin") }),
  grant: (v) => ({
    grantId: str(v, "grantId"),
    scope: oneOf(v, "scope", SCOPES),
    grantedAt: integer(v, "grantedAt"),
    toolCallId: str(v, "toolCallId"),
    actionId: str(v, "actionId"),
    description: str(v, "description"),
  }),
  auto_approved: (v) => ({ from: oneOf(v, "from", AUTO_APPROVAL_ORIGINS) }),
  checkpoints_off: (v) => ({ agent: str(v, "agent") }),
};

function decisionProvenance(obj, key) {
  const v = object(obj, key);
  const kind = str(v, "kind");
  if (!Object.hasOwn(PROVENANCE_KINDS, kind)) throw new Malformed(key);
  return { kind, ...PROVENANCE_KINDS[kind](v) };
}

/** The evaluator that decided: its name, and its version when it reports one. */
function decidingEvaluator(obj, key) {
  const v = object(obj, key);
  const out = { name: str(v, "name") };
  optional(out, v, "version", str);
  return out;
}

/** The provenance fields a decision and a recommendation share. */
function provenance(out, v) {
  optional(out, v, "confidence", (o, k) => oneOf(o, k, CONFIDENCES));
  optional(out, v, "riskCategories", strings);
  optional(out, v, "reviewerModel", str);
  return out;
}

function strict(read) {
  return (value) => {
    if (!isObject(value)) return null;
    try {
      return read(value);
    } catch (e) {
      if (e instanceof Malformed) return null;
      throw e;
    }
  };
}

/** A `ToolPermissionDecision` in its canonical shape, or null when `value` is not one. */
export const readDecision = strict((v) => {
  const out = provenance(
    {
      toolCallId: str(v, "toolCallId"),
      behavior: oneOf(v, "behavior", BEHAVIORS),
      source: oneOf(v, "source", SOURCES),
      reason: str(v, "reason"),
      reasonCode: str(v, "reasonCode"),
      risk: oneOf(v, "risk", RISKS),
    },
    v,
  );
  optional(out, v, "provenance", decisionProvenance);
  optional(out, v, "evaluator", decidingEvaluator);
  // How the security reviewer reviewed it (classifier decisions only).
  optional(out, v, "reviewerEmbedded", boolean);
  optional(out, v, "reviewerPromptVersion", str);
  optional(out, v, "reviewerLatencyMs", integer);
  optional(out, v, "reviewerFallback", (o, k) => oneOf(o, k, REVIEWER_FALLBACKS));
  optional(out, v, "reviewerFallbackReason", str);
  return out;
});

/** A `ToolPermissionResolution` in its canonical shape, or null when `value` is not one. */
export const readResolution = strict((v) => {
  const out = {
    toolCallId: str(v, "toolCallId"),
    behavior: oneOf(v, "behavior", RESOLUTION_BEHAVIORS),
    source: oneOf(v, "source", ["user"]),
    actionId: str(v, "actionId"),
    scope: oneOf(v, "scope", SCOPES),
  };
  // What the user told the agent with a denial.
  optional(out, v, "message", str);
  return out;
});

function readAction(a) {
  if (!isObject(a)) throw new Malformed("action");
  return {
    id: str(a, "id"),
    label: str(a, "label"),
    behavior: oneOf(a, "behavior", RESOLUTION_BEHAVIORS),
    scope: oneOf(a, "scope", SCOPES),
  };
}

/** A `ToolApprovalRequest` in its canonical shape, or null when `value` is not one. */
export const readApprovalRequest = strict((v) => {
  const out = { toolCallId: str(v, "toolCallId") };
  optional(out, v, "sessionId", str);
  optional(out, v, "toolName", str);
  out.title = str(v, "title");
  out.detail = str(v, "detail");
  out.risk = oneOf(v, "risk", RISKS);
  out.reason = str(v, "reason");
  const rec = object(v, "recommendation");
  out.recommendation = provenance(
    {
      behavior: oneOf(rec, "behavior", BEHAVIORS),
      source: oneOf(rec, "source", SOURCES),
      reasonCode: str(rec, "reasonCode"),
    },
    rec,
  );
  if (!Array.isArray(v.actions)) throw new Malformed("actions");
  out.actions = v.actions.map(readAction);
  optional(out, v, "requestedAt", integer);
  return out;
});

const WARRANT_READERS = {
  [TOOL_PERMISSION_DECISION]: ["permissionDecision", readDecision],
  [TOOL_APPROVAL_REQUEST]: ["permission", readApprovalRequest],
  [TOOL_PERMISSION_RESOLUTION]: ["permissionResolution", readResolution],
};

/** A new part in the streaming state. */
function newPart(toolCallId, toolName) {
  return { toolCallId, toolName, state: "streaming" };
}

/** The fields each event type must carry as strings; an event without them is ignored. */
const REQUIRED = {
  TOOL_CALL_START: ["toolCallId", "toolCallName"],
  TOOL_CALL_ARGS: ["toolCallId", "delta"],
  TOOL_CALL_END: ["toolCallId"],
  TOOL_CALL_RESULT: ["messageId", "toolCallId", "content"],
  TEXT_MESSAGE_START: ["messageId"],
  TEXT_MESSAGE_CONTENT: ["messageId", "delta"],
  TEXT_MESSAGE_END: ["messageId"],
  CUSTOM: ["name"],
};

function wellFormed(event) {
  if (!isObject(event) || typeof event.type !== "string") return false;
  const fields = REQUIRED[event.type] ?? [];
  return fields.every((f) => typeof event[f] === "string");
}

/**
 * The tool call an event is about, or null. For a Warrant CUSTOM event this is the id of
 * its value only when the value has the contract's shape.
 */
export function toolCallIdOf(event) {
  if (!wellFormed(event)) return null;
  if (event.type === "CUSTOM") {
    const entry = WARRANT_READERS[event.name];
    return entry ? (entry[1](event.value)?.toolCallId ?? null) : null;
  }
  return REQUIRED[event.type]?.includes("toolCallId") ? event.toolCallId : null;
}

/**
 * Applies one AG-UI event to an ordered list of tool parts and returns the next list (the
 * input is not changed). Parts are located by `toolCallId`; decision, approval request and
 * resolution are merged without changing execution state and kept when the part completes;
 * events about unknown calls create the part, so metadata arriving first is never lost.
 * Events that are not about tool calls, and Warrant CUSTOM events whose value is malformed,
 * leave the list as it is.
 */
export function applyToolEvent(parts, event) {
  if (!wellFormed(event)) return parts;
  let change;
  let id;
  let name;
  switch (event.type) {
    case "TOOL_CALL_START":
      id = event.toolCallId;
      name = event.toolCallName;
      change = (p) => ({ ...p, toolName: event.toolCallName });
      break;
    case "TOOL_CALL_ARGS":
      id = event.toolCallId;
      change = (p) => ({ ...p, argsText: (p.argsText ?? "") + event.delta });
      break;
    case "TOOL_CALL_END":
      id = event.toolCallId;
      change = endArguments;
      break;
    case "TOOL_CALL_RESULT":
      id = event.toolCallId;
      change = (p) => ({ ...p, output: event.content, state: "completed" });
      break;
    case "CUSTOM": {
      const entry = WARRANT_READERS[event.name];
      const value = entry && entry[1](event.value);
      if (!value) return parts;
      const [field] = entry;
      id = value.toolCallId;
      if (field === "permission") name = value.toolName;
      change = (p) => ({ ...p, [field]: value });
      break;
    }
    default:
      return parts;
  }
  return updatePart(parts, id, name, change);
}

/** The arguments are complete: parse them when they are JSON, and start running. */
function endArguments(p) {
  const next = { ...p };
  try {
    next.input = JSON.parse(p.argsText ?? "");
    delete next.argsText;
  } catch {
    // Not (yet) JSON: keep the raw text so the user still sees what arrived.
  }
  if (next.state === "streaming") next.state = "running";
  return next;
}

function updatePart(parts, id, name, change) {
  const at = parts.findIndex((p) => p.toolCallId === id);
  let part = at === -1 ? newPart(id, name ?? "") : parts[at];
  if (name && part.toolName === "") part = { ...part, toolName: name };
  part = change(part);
  if (part.argsText === "") delete part.argsText;
  const next = [...parts];
  if (at === -1) next.push(part);
  else next[at] = part;
  return next;
}

/** The tool parts a sequence of events builds, from nothing. */
export function reduceToolParts(events) {
  return events.reduce(applyToolEvent, []);
}

/**
 * A persisted tool part as the UI can show it, or null when it has no call id. Persisted
 * chats may predate any field: missing metadata is simply absent, and metadata that does not
 * have the contract's shape is dropped rather than shown half-read.
 */
export function readPersistedToolPart(raw) {
  if (!isObject(raw) || typeof raw.toolCallId !== "string") return null;
  const part = newPart(raw.toolCallId, typeof raw.toolName === "string" ? raw.toolName : "");
  const hasOutput = typeof raw.output === "string";
  part.state = STATES.includes(raw.state) ? raw.state : hasOutput ? "completed" : "running";
  if (raw.input !== undefined) part.input = raw.input;
  if (typeof raw.argsText === "string" && raw.argsText !== "") part.argsText = raw.argsText;
  if (hasOutput) part.output = raw.output;
  if (typeof raw.errorText === "string") part.errorText = raw.errorText;
  if (raw.interrupted === true) part.interrupted = true;
  for (const [field, read] of Object.values(WARRANT_READERS)) {
    const value = read(raw[field]);
    if (value) part[field] = value;
  }
  return part;
}

/**
 * The timeline of a session: its items in order (text messages and tool calls), the tool
 * parts they refer to, and whether a run is active.
 */
export function emptyTimeline() {
  return { items: [], parts: [], running: false, error: null, interrupted: {} };
}

/**
 * Whether a part is a call that never ran because its run died (the server marks a call
 * that was pending or running when it stopped: `interrupted`, state `output-error`).
 */
export function isInterrupted(part) {
  return part?.interrupted === true;
}

/** The fields that make a part interrupted, as persistence reported them. */
function interruptedFields(part) {
  const out = { state: part.state, interrupted: true };
  if (typeof part.errorText === "string") out.errorText = part.errorText;
  if (typeof part.output === "string") out.output = part.output;
  return out;
}

/** The timeline of persisted messages (`GET /v1/sessions/{id}/messages`). */
export function timelineFromMessages(messages) {
  const timeline = emptyTimeline();
  for (const message of Array.isArray(messages) ? messages : []) {
    if (!isObject(message) || !Array.isArray(message.parts)) continue;
    const role = typeof message.role === "string" ? message.role : "assistant";
    message.parts.forEach((raw, index) => {
      if (!isObject(raw)) return;
      if (raw.type === "text" && typeof raw.text === "string") {
        timeline.items.push({ kind: "text", id: `${message.id}#${index}`, role, text: raw.text });
      } else if (raw.type === "tool") {
        const part = readPersistedToolPart(raw);
        if (!part || timeline.parts.some((p) => p.toolCallId === part.toolCallId)) return;
        if (isInterrupted(part)) timeline.interrupted[part.toolCallId] = interruptedFields(part);
        timeline.parts.push(part);
        timeline.items.push({ kind: "tool", id: part.toolCallId });
      }
    });
  }
  return timeline;
}

/**
 * Applies one event to a timeline and returns the next one. Tool events go through
 * [`applyToolEvent`]; text messages and the run's state are tracked beside them.
 */
export function applyTimelineEvent(timeline, event) {
  if (!wellFormed(event)) return timeline;
  switch (event.type) {
    case "RUN_STARTED":
      return { ...timeline, running: true, error: null };
    case "RUN_FINISHED":
      return { ...timeline, running: false };
    case "RUN_ERROR":
      return {
        ...timeline,
        running: false,
        error: typeof event.message === "string" ? event.message : "The run failed.",
      };
    case "TEXT_MESSAGE_START":
    case "TEXT_MESSAGE_CONTENT":
    case "TEXT_MESSAGE_END":
      return applyText(timeline, event);
    default:
      break;
  }
  let parts = applyToolEvent(timeline.parts, event);
  if (parts === timeline.parts) return timeline;
  const id = toolCallIdOf(event);
  const items = timeline.items.some((i) => i.kind === "tool" && i.id === id)
    ? timeline.items
    : [...timeline.items, { kind: "tool", id }];
  // A call persistence reports as interrupted stays so whatever its replayed events say:
  // its run is over, so the timeline is no longer running either.
  const dead = timeline.interrupted?.[id];
  if (dead) {
    parts = parts.map((p) => (p.toolCallId === id ? { ...p, ...dead } : p));
    return { ...timeline, parts, items, running: false };
  }
  return { ...timeline, parts, items };
}

/**
 * Adds the user's own message to the timeline as it is sent (the stream may echo it later
 * under the same id, which then replaces it).
 */
export function addUserMessage(timeline, id, text) {
  if (timeline.items.some((i) => i.kind === "text" && i.id === id)) return timeline;
  return { ...timeline, items: [...timeline.items, { kind: "text", id, role: "user", text }] };
}

function applyText(timeline, event) {
  const id = event.messageId;
  const at = timeline.items.findIndex((i) => i.kind === "text" && i.id === id);
  if (event.type === "TEXT_MESSAGE_END") return timeline;
  const items = [...timeline.items];
  if (at === -1) {
    const role = typeof event.role === "string" ? event.role : "assistant";
    items.push({ kind: "text", id, role, text: event.delta ?? "" });
  } else if (event.type === "TEXT_MESSAGE_START") {
    // The stream (re)starts a message shown already, such as the user's own: it rebuilds it.
    const role = typeof event.role === "string" ? event.role : items[at].role;
    items[at] = { ...items[at], role, text: "" };
  } else if (event.type === "TEXT_MESSAGE_CONTENT") {
    items[at] = { ...items[at], text: items[at].text + event.delta };
  }
  return { ...timeline, items };
}

/**
 * Applies an event of a stream that replays the session from its start on top of a timeline
 * read from persistence. `persisted` holds the ids of persisted calls the stream has not
 * rebuilt yet, and is updated in place.
 *
 * A replayed `TOOL_CALL_START` of a persisted call drops the persisted copy so the stream
 * rebuilds it in stream order, between the texts it replays; a call whose start is no longer
 * retained keeps its persisted copy, which its argument events must not extend.
 */
export function applyStreamEvent(timeline, event, persisted) {
  const id = isObject(event) ? event.toolCallId : undefined;
  if (typeof id === "string" && persisted.has(id)) {
    if (event.type === "TOOL_CALL_START") {
      persisted.delete(id);
      timeline = {
        ...timeline,
        parts: timeline.parts.filter((p) => p.toolCallId !== id),
        items: timeline.items.filter((i) => !(i.kind === "tool" && i.id === id)),
      };
    } else if (event.type === "TOOL_CALL_ARGS" || event.type === "TOOL_CALL_END") {
      return timeline;
    }
  }
  return applyTimelineEvent(timeline, event);
}
