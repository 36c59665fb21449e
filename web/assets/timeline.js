// The session's timeline: text messages and tool calls, each call collapsed with its status
// and one decision badge, expanded with its input, PERMISSION DECISION and output.

import { h, replaceChildren } from "./dom.js";
import { badgeFor, decisionSections, statusOf, truncate } from "./decision.js";

/** The longest input summary of a collapsed call. */
const SUMMARY_CHARS = 80;

/**
 * Renders a timeline into `container`, reusing the element of every item whose data did not
 * change, so expanded calls stay expanded while events stream in.
 */
export class TimelineView {
  constructor(container) {
    this.container = container;
    this.rendered = new Map();
    this.verbose = false;
  }

  /** Turns the verbose security view on or off (routine read-only policy badges). */
  setVerbose(verbose) {
    if (this.verbose === verbose) return;
    this.verbose = verbose;
    for (const entry of this.rendered.values()) entry.data = null;
  }

  /** Shows `timeline` (see reducer.js). */
  render(timeline) {
    const parts = new Map(timeline.parts.map((p) => [p.toolCallId, p]));
    const keep = new Set();
    let previous = null;
    for (const item of timeline.items) {
      const key = `${item.kind}:${item.id}`;
      const data = item.kind === "tool" ? parts.get(item.id) : item;
      if (!data) continue;
      keep.add(key);
      let entry = this.rendered.get(key);
      if (!entry) {
        entry = { el: item.kind === "tool" ? toolElement() : h("p", { class: "text-item" }), data: null };
        this.rendered.set(key, entry);
      }
      if (entry.data !== data) {
        if (item.kind === "tool") updateTool(entry.el, data, this.verbose);
        else updateText(entry.el, data);
        entry.data = data;
      }
      const expectedNext = previous ? previous.nextSibling : this.container.firstChild;
      if (expectedNext !== entry.el) this.container.insertBefore(entry.el, expectedNext);
      previous = entry.el;
    }
    for (const [key, entry] of this.rendered) {
      if (!keep.has(key)) {
        entry.el.remove();
        this.rendered.delete(key);
      }
    }
  }
}

function updateText(el, item) {
  el.dataset.role = item.role;
  replaceChildren(el, item.text);
}

function toolElement() {
  const summary = h("summary", { class: "tool-header" });
  const body = h("div", { class: "tool-body" });
  return h("details", { class: "tool" }, summary, body);
}

function updateTool(el, part, verbose) {
  const [summary, body] = el.children;
  const status = statusOf(part);
  el.dataset.toolCallId = part.toolCallId;
  el.dataset.status = status.key;
  const badge = badgeFor(part, { verbose });
  replaceChildren(
    summary,
    h("span", { class: "status", "data-status": status.key, role: "img", "aria-label": status.label, title: status.label }, status.icon),
    h("span", { class: "tool-name" }, part.toolName || "Tool"),
    h("span", { class: "tool-summary" }, inputSummary(part)),
    (status.key === "interrupted" || status.key === "failed") && h("span", { class: "status-text", "data-status": status.key }, status.label),
    badge && h("span", { class: "badge", "data-tone": badge.tone, title: badge.tooltip }, badge.label),
  );
  replaceChildren(
    body,
    (part.input !== undefined || part.argsText) && section("tool-input", "Input", h("pre", {}, inputText(part))),
    decisionSections(part).map((s) =>
      section(s.title === "Review" ? "review" : "permission-decision", s.title, rowsList(s.rows)),
    ),
    part.interrupted
      ? section(
          "tool-error",
          "Interrupted — never ran",
          h("p", { class: "never-ran" }, "This call never ran: its run ended before it could (the server restarted, or its approval request expired). Ask the agent again if it is still needed."),
          (part.errorText ?? part.output) && h("pre", {}, part.errorText ?? part.output),
        )
      : [
          part.output !== undefined && section("tool-output", "Output", h("pre", {}, part.output)),
          part.state === "output-error" && section("tool-error", "Error", h("pre", {}, part.errorText ?? "The call failed.")),
        ],
  );
}

function section(cls, title, ...content) {
  return h("section", { class: cls }, h("h4", {}, title), ...content);
}

function rowsList(rows) {
  return h(
    "dl",
    { class: "rows" },
    rows.map(([label, value]) => [h("dt", {}, label), h("dd", { "data-row": label }, value)]),
  );
}

/** The input as the expanded view shows it: pretty JSON, or the raw text still streaming. */
function inputText(part) {
  if (part.input !== undefined) return JSON.stringify(part.input, null, 2);
  return part.argsText ?? "";
}

/** One short line about the input: a command, a path, or the compact JSON. */
function inputSummary(part) {
  const input = part.input;
  if (input && typeof input === "object" && !Array.isArray(input)) {
    for (const key of ["command", "path", "file_path", "url", "query"]) {
      if (typeof input[key] === "string") return truncate(input[key], SUMMARY_CHARS);
    }
  }
  if (input === undefined) return truncate(part.argsText ?? "", SUMMARY_CHARS);
  return truncate(JSON.stringify(input), SUMMARY_CHARS);
}
