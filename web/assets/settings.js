// Tool auto-approval settings: the pattern editor (defaults per pattern) and the activity
// panel (a session's override). Tool ids come only from `GET /v1/tools`: the browser never
// derives one.

import { h, replaceChildren } from "./dom.js";

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
  replaceChildren(
    container,
    heading,
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
      disabled: locked,
      onToggle: (id, on) => onChange(toggledIds(tools, effective, id, on)),
    }),
  );
}

/**
 * The pattern editor: pick a pattern, switch its default auto-approved tools on and off.
 * `onSave(pattern)` saves the changed pattern.
 */
export function renderPatternEditor(container, { workspace, tools, selectedId, busy, error, onSelect, onSave }) {
  const patterns = workspace?.patterns ?? [];
  const pattern = patterns.find((p) => p.id === selectedId) ?? patterns[0];
  if (!pattern) {
    replaceChildren(container, h("h3", {}, "Patterns"), h("p", { class: "note" }, "No patterns yet."));
    return;
  }
  const defaults = pattern.approvalPolicy?.autoApprovedToolNames ?? [];
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
    h("p", { class: "note" }, "Tools auto-approved by default in every session of this pattern, unless the session sets its own list."),
    error && h("p", { class: "error", role: "alert" }, error),
    toolToggles(tools, defaults, {
      name: "pattern",
      disabled: busy,
      onToggle: (id, on) =>
        onSave({
          ...pattern,
          approvalPolicy: { ...pattern.approvalPolicy, autoApprovedToolNames: toggledIds(tools, defaults, id, on) },
        }),
    }),
  );
}
