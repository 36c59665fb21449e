// Tool auto-approval settings: the pattern editor (defaults per pattern) and the activity
// panel (a session's override). Tool ids come only from `GET /v1/tools`: the browser never
// derives one.

import { h, replaceChildren } from "./dom.js";
import { replayPanel } from "./replay.js";

/**
 * Pattern edits not yet saved, by pattern id, while "Preview before saving" is on: the
 * editor shows the draft, the replay panel previews it, and only Save sends it.
 */
const drafts = new Map();
let previewFirst = false;

/** The tools of a `GET /v1/tools` answer (a list, or `{tools: [...]}`). */
export function toolList(answer) {
  const list = Array.isArray(answer) ? answer : Array.isArray(answer?.tools) ? answer.tools : [];
  return list.filter((t) => t && typeof t.id === "string" && t.id !== "");
}

/** The ids in `selected` after setting `id` on or off, in catalog order. */
export function toggledIds(tools, selected, id, on) {
  const chosen = new Set(selected);
  if (on) chosen.add(id);
  else chosen.delete(id);
  return tools.map((t) => t.id).filter((t) => chosen.has(t));
}

/** A list with one switch per tool; `onToggle(id, on)` is called on change. */
export function toolToggles(tools, selected, { disabled = false, onToggle, name }) {
  const chosen = new Set(selected);
  return h(
    "ul",
    { class: "tool-toggles", "data-list": name },
    tools.map((tool) =>
      h(
        "li",
        { class: "tool-toggle" },
        h(
          "label",
          {},
          h("input", {
            type: "checkbox",
            role: "switch",
            "data-tool-id": tool.id,
            checked: chosen.has(tool.id),
            disabled,
            onChange: (e) => onToggle(tool.id, e.target.checked),
          }),
          h("span", { class: "toggle-label" }, tool.label || tool.id),
          tool.label && tool.label !== tool.id && h("code", { class: "toggle-id" }, tool.id),
          tool.kind && h("span", { class: "toggle-kind" }, tool.kind),
        ),
        tool.description && h("div", { class: "toggle-description" }, tool.description),
      ),
    ),
  );
}

/**
 * Where a pattern's `tool-call` checkpoints stand: `{on, agents}` where `agents` lists the
 * agents they are limited to (null: every agent).
 */
export function checkpointState(pattern) {
  const rules = (pattern?.approvalPolicy?.rules ?? []).filter((r) => r && r.kind === "tool-call");
  if (rules.length === 0) return { on: false, agents: null };
  if (rules.some((r) => !Array.isArray(r.agentIds))) return { on: true, agents: null };
  return { on: true, agents: [...new Set(rules.flatMap((r) => r.agentIds))] };
}

/**
 * The pattern's checkpoint rules with `tool-call` checkpoints on for every agent, or off:
 * other checkpoints (`final-response`) are kept as they are.
 */
export function withToolCallCheckpoints(pattern, on) {
  const others = (pattern?.approvalPolicy?.rules ?? []).filter((r) => r && r.kind !== "tool-call");
  return on ? [...others, { kind: "tool-call" }] : others;
}

/** The sentence saying what a pattern's checkpoint state means. */
export function checkpointText(state) {
  if (!state.on) return "Approvals off: tool calls of this pattern run without review, and auto-approval has no effect.";
  if (state.agents) return `Approvals on for ${state.agents.join(", ")}: their tool calls need your approval unless a rule, a grant or auto-approval allows them.`;
  return "Approvals on: tool calls need your approval unless a rule, a grant or auto-approval allows them.";
}

/** The pattern a session runs (its own, else `default`, else the first). */
export function patternOf(workspace, session) {
  const patterns = workspace?.patterns ?? [];
  return (
    patterns.find((p) => p.id === (session?.patternId ?? "default")) ??
    patterns.find((p) => p.id === "default") ??
    patterns[0] ??
    null
  );
}

/**
 * The activity panel of one session: whether it inherits its pattern's defaults or has its
 * own list, a reset, and one switch per tool. Disabled while the session runs; a scratchpad
 * session gets an explanation instead of controls.
 */
export function renderActivity(container, { workspace, tools, sessionId, running, busy, error, onChange }) {
  const session = (workspace?.sessions ?? []).find((s) => s.id === sessionId);
  const pattern = patternOf(workspace, session);
  const heading = h("h3", {}, "Tool auto-approval");
  if (!session) {
    replaceChildren(
      container,
      heading,
      h("p", { class: "note", "data-note": "no-session" }, "This session has no settings yet: they appear once it has run. Until then its calls follow the default pattern."),
    );
    return;
  }
  if (session.kind === "scratchpad") {
    replaceChildren(
      container,
      heading,
      h(
        "p",
        { class: "note scratchpad-note", "data-note": "scratchpad" },
        "Scratchpad sessions cannot auto-approve tools: every tool call that needs approval asks you. Use a chat session to customize tool auto-approval.",
      ),
    );
    return;
  }
  const custom = session.approvalSettings !== undefined && session.approvalSettings !== null;
  const effective = custom
    ? session.approvalSettings.autoApprovedToolNames ?? []
    : pattern?.approvalPolicy?.autoApprovedToolNames ?? [];
  const locked = running || session.status === "running" || busy;
  const checkpoints = checkpointState(pattern);
  replaceChildren(
    container,
    heading,
    !checkpoints.on &&
      h(
        "p",
        { class: "note checkpoints-off-note", "data-note": "checkpoints-off" },
        "Approvals are off for this session's pattern: nothing is reviewed, so these switches have no effect until approvals are on again (Patterns tab).",
      ),
    h(
      "div",
      { class: "settings-head" },
      h("span", { class: "settings-status", "data-custom": String(custom) }, custom ? "Custom for this session" : "Inheriting pattern defaults"),
      h(
        "button",
        { type: "button", class: "reset-to-pattern", disabled: locked || !custom, onClick: () => onChange(undefined) },
        "Reset to pattern",
      ),
    ),
    h("p", { class: "note" }, `Pattern: ${pattern?.name || pattern?.id || "default"}`),
    (running || session.status === "running") &&
      h("p", { class: "note running-note", "data-note": "running" }, "The session is running: its settings can change once the run ends."),
    error && h("p", { class: "error", role: "alert" }, error),
    toolToggles(tools, effective, {
      name: "session",
      disabled: locked || !checkpoints.on,
      onToggle: (id, on) => onChange(toggledIds(tools, effective, id, on)),
    }),
  );
}

/**
 * The pattern editor: pick a pattern, switch its default auto-approved tools on and off.
 * `onSave(pattern, { onSaved })` saves the changed pattern and calls `onSaved()` once the
 * server took it (before drawing again). With "Preview before saving" on, changes make a
 * draft instead, which the policy replay panel below previews and Save sends; the draft
 * stays until a save succeeds.
 */
export function renderPatternEditor(container, props) {
  const { workspace, tools, selectedId, busy, error, onSelect, onSave } = props;
  const rerender = () => renderPatternEditor(container, props);
  const patterns = workspace?.patterns ?? [];
  const stored = patterns.find((p) => p.id === selectedId) ?? patterns[0];
  if (!stored) {
    replaceChildren(container, h("h3", {}, "Patterns"), h("p", { class: "note" }, "No patterns yet."), replayPanel().root);
    return;
  }
  const draft = drafts.get(stored.id);
  const pattern = draft ?? stored;
  const defaults = pattern.approvalPolicy?.autoApprovedToolNames ?? [];
  const checkpoints = checkpointState(pattern);
  const save = (approvalPolicy) => {
    const changed = { ...pattern, approvalPolicy: { ...pattern.approvalPolicy, ...approvalPolicy } };
    if (!previewFirst) return onSave(changed);
    drafts.set(stored.id, changed);
    rerender();
  };
  // The draft is dropped only once the save succeeded: a failed save keeps it to try again.
  const saveDraft = () =>
    onSave(draft, {
      onSaved: () => {
        if (drafts.get(stored.id) === draft) drafts.delete(stored.id);
      },
    });
  const discard = () => {
    drafts.delete(stored.id);
    rerender();
  };
  replaceChildren(
    container,
    h("h3", {}, "Pattern defaults"),
    h(
      "label",
      { class: "pattern-picker" },
      "Pattern ",
      h(
        "select",
        { class: "pattern-select", onChange: (e) => onSelect(e.target.value) },
        patterns.map((p) => h("option", { value: p.id, selected: p.id === pattern.id }, p.name || p.id)),
      ),
    ),
    h(
      "div",
      { class: "checkpoints", "data-on": String(checkpoints.on) },
      h(
        "label",
        { class: "checkpoints-toggle" },
        h("input", {
          type: "checkbox",
          role: "switch",
          class: "checkpoints-switch",
          checked: checkpoints.on,
          disabled: busy,
          onChange: (e) => save({ rules: withToolCallCheckpoints(pattern, e.target.checked) }),
        }),
        h("span", { class: "checkpoints-label" }, "Ask before tool calls (tool-call checkpoints)"),
      ),
      h("span", { class: "checkpoints-state", "data-on": String(checkpoints.on) }, checkpoints.on ? "Approvals on" : "Approvals off · Not reviewed"),
      h("p", { class: "note checkpoints-note" }, checkpointText(checkpoints)),
    ),
    h("h4", { class: "subhead" }, "Auto-approved tools"),
    h(
      "p",
      { class: "note" },
      checkpoints.on
        ? "Tools auto-approved by default in every session of this pattern, unless the session sets its own list."
        : "Kept for when approvals are on again: while they are off, every tool call runs without review.",
    ),
    error && h("p", { class: "error", role: "alert" }, error),
    toolToggles(tools, defaults, {
      name: "pattern",
      disabled: busy || !checkpoints.on,
      onToggle: (id, on) => save({ autoApprovedToolNames: toggledIds(tools, defaults, id, on) }),
    }),
    h(
      "label",
      { class: "preview-first" },
      h("input", {
        type: "checkbox",
        role: "switch",
        class: "preview-first-switch",
        checked: previewFirst,
        disabled: busy || draft !== undefined,
        onChange: (e) => {
          previewFirst = e.target.checked;
          rerender();
        },
      }),
      " Preview before saving",
    ),
    draft &&
      h(
        "div",
        { class: "pattern-draft", role: "status" },
        h("span", { class: "draft-state" }, "Unsaved changes to this pattern"),
        h("button", { type: "button", class: "draft-preview", disabled: busy, onClick: () => replayPanel().previewPattern(draft) }, "Preview effect"),
        h("button", { type: "button", class: "draft-save", disabled: busy, onClick: saveDraft }, "Save"),
        h("button", { type: "button", class: "draft-discard", disabled: busy, onClick: discard }, "Discard"),
      ),
    replayPanel().root,
  );
}

/** `grants` of a `GET /v1/grants` answer, dropping items without an id. */
export function grantList(answer) {
  const list = Array.isArray(answer?.grants) ? answer.grants : Array.isArray(answer) ? answer : [];
  return list.filter((g) => g && typeof g.id === "string" && g.id !== "");
}

/** `Bash(git push origin main)`, or the bare tool name when the key has no specifier. */
export function grantKeyText(key) {
  if (!key || typeof key.toolName !== "string") return "";
  return typeof key.specifier === "string" && key.specifier !== "" ? `${key.toolName}(${key.specifier})` : key.toolName;
}

/**
 * The grants panel: every standing approval the user has given (session and global), what
 * it covers, where it came from, and a button to revoke it. `onRevoke(grant)` revokes.
 */
export function renderGrants(container, { grants, sessionId, busy, error, loaded, onRevoke, formatTime }) {
  const heading = h("h3", {}, "Grants you have given");
  const intro = h(
    "p",
    { class: "note" },
    "Each \"allow for this session\" or \"in every session\" approval lets later matching calls run without asking. Revoke one and those calls ask again.",
  );
  if (!loaded && !error) return replaceChildren(container, heading, intro, h("p", { class: "note" }, "Loading…"));
  const list = grants ?? [];
  replaceChildren(
    container,
    heading,
    intro,
    error && h("p", { class: "error", role: "alert" }, error),
    list.length === 0
      ? h("p", { class: "note", "data-note": "no-grants" }, "No grants: every call that needs approval asks you.")
      : h(
          "ul",
          { class: "grant-list" },
          list.map((g) =>
            h(
              "li",
              { class: "grant", "data-grant-id": g.id, "data-scope": g.scope },
              h(
                "div",
                { class: "grant-head" },
                h("span", { class: "grant-description" }, g.description || (g.keys ?? []).map(grantKeyText).join(", ") || g.id),
                h(
                  "span",
                  { class: "grant-scope", "data-scope": g.scope },
                  g.scope === "global" ? "Every session" : g.sessionId === sessionId ? "This session" : `Session ${g.sessionId}`,
                ),
              ),
              (g.keys ?? []).length > 0 && h("div", { class: "grant-keys" }, (g.keys ?? []).map((k) => h("code", {}, grantKeyText(k)))),
              h(
                "div",
                { class: "grant-origin note" },
                [
                  Number.isSafeInteger(g.grantedAt) ? `Granted ${formatTime(g.grantedAt)}` : "Granted",
                  g.toolCallId ? `approving call ${g.toolCallId}${g.actionId ? ` (${g.actionId})` : ""}` : null,
                  g.scope !== "global" && g.sessionId ? `in session ${g.sessionId}` : null,
                ]
                  .filter(Boolean)
                  .join(", "),
              ),
              h(
                "button",
                { type: "button", class: "revoke", "data-grant-id": g.id, disabled: busy === g.id, onClick: () => onRevoke(g) },
                "Revoke",
              ),
            ),
          ),
        ),
  );
}

/**
 * The approvals inbox: every request waiting for the user, in every session
 * (`GET /v1/approvals`). `onOpen(sessionId)` opens a session; the current one's requests
 * are in the dock.
 */
export function renderInbox(container, { requests, sessionId, error, onOpen }) {
  const list = requests ?? [];
  replaceChildren(
    container,
    h("h3", {}, "Waiting for you"),
    error && h("p", { class: "error", role: "alert" }, error),
    list.length === 0
      ? h("p", { class: "note", "data-note": "inbox-empty" }, "Nothing is waiting for your approval.")
      : h(
          "ul",
          { class: "inbox-list" },
          list.map((r) =>
            h(
              "li",
              { class: "inbox-item", "data-tool-call-id": r.toolCallId, "data-session-id": r.sessionId ?? "" },
              h(
                "div",
                { class: "inbox-head" },
                h("strong", { class: "inbox-tool" }, r.toolName || "Tool"),
                h("span", { class: "dock-risk", "data-risk": r.risk }, `Risk: ${r.risk ? r.risk[0].toUpperCase() + r.risk.slice(1) : "?"}`),
              ),
              h("div", { class: "inbox-title" }, r.title ?? ""),
              h(
                "div",
                { class: "inbox-session note" },
                r.sessionId === sessionId ? "In this session (see the dock)" : `Session ${r.sessionId ?? "?"}`,
              ),
              r.sessionId &&
                r.sessionId !== sessionId &&
                h("button", { type: "button", class: "open-session", "data-session-id": r.sessionId, onClick: () => onOpen(r.sessionId) }, "Open session"),
            ),
          ),
        ),
  );
}

/**
 * The workspace's sessions: each with the agent that runs it and where, when it said so (a
 * hook or a sidecar), whether it is running, and a button to open it.
 */
export function renderSessions(container, { sessions, sessionId, onOpen }) {
  const list = sessions ?? [];
  replaceChildren(
    container,
    h("h3", {}, "Sessions"),
    list.length === 0
      ? h("p", { class: "note", "data-note": "sessions-empty" }, "No session yet.")
      : h(
          "ul",
          { class: "inbox-list session-list" },
          list.map((s) =>
            h(
              "li",
              { class: "inbox-item session-item", "data-session-id": s.id },
              h(
                "div",
                { class: "inbox-head" },
                h("strong", { class: "session-id" }, s.id),
                h("span", { class: "note session-status" }, s.status === "running" ? "Running" : "Idle"),
              ),
              h("div", { class: "session-agent note" }, s.agent ? `Agent: ${s.agent}` : "Agent: not reported"),
              s.cwd && h("div", { class: "session-cwd note", title: s.cwd }, `In ${s.cwd}`),
              s.id === sessionId
                ? h("div", { class: "note" }, "Open in this tab")
                : h("button", { type: "button", class: "open-session", "data-session-id": s.id, onClick: () => onOpen(s.id) }, "Open session"),
            ),
          ),
        ),
  );
}
