// Policy replay: before a rules change or a pattern edit is saved, the recorded calls are
// decided again under it (`POST /v1/replay`, which writes nothing) and the calls that would
// now be allowed, asked or denied differently are listed, grouped by reason code.

import { adoptToken, request } from "./api.js";
import { h, replaceChildren } from "./dom.js";

/** What the configuration box starts with: a user rule that asks before pushing. */
export const EXAMPLE_RULES = '[evaluators.rules.user]\nask = ["Run(git push)"]\n';

/**
 * The body of `POST /v1/replay`: the proposed configuration (TOML text), proposed patterns,
 * and the session and since filters; blank values are left out.
 */
export function replayBody({ config, patterns, session, since } = {}) {
  const body = {};
  if (typeof config === "string" && config.trim() !== "") body.config = config;
  if (Array.isArray(patterns) && patterns.length > 0) body.patterns = patterns;
  if (typeof session === "string" && session.trim() !== "") body.session = session.trim();
  if (typeof since === "string" && since.trim() !== "") body.since = since.trim();
  return body;
}

const NOW = { allow: "allowed", ask: "asked", deny: "denied" };

function plural(n, word) {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/** One sentence saying what a report found. */
export function summaryText(report) {
  const replayed = report?.replayed ?? 0;
  const changed = report?.changed ?? 0;
  const head = `${plural(replayed, "recorded call")} decided again`;
  if (changed === 0) return `${head}: none would be decided differently.`;
  const now = report.now ?? {};
  const parts = [];
  if (now.allowed) parts.push(`${now.allowed} now allowed`);
  if (now.asked) parts.push(`${now.asked} now asked`);
  if (now.denied) parts.push(`${now.denied} now denied`);
  return `${head}: ${changed} would be decided differently (${parts.join(", ")}).`;
}

/** "2 from allow, 1 from deny" for a group's `from` counts. */
export function fromText(from) {
  return Object.entries(from ?? {})
    .map(([behavior, n]) => `${n} from ${behavior}`)
    .join(", ");
}

/**
 * What a report says of the audit log's chain, when not every record verified (`null` when
 * intact): only the records before the break were decided again.
 */
export function chainNote(chain) {
  if (!chain) return "The server did not say whether the audit log verified.";
  if (chain.status === "intact") return null;
  if (chain.status !== "unanchored" && chain.status !== "broken") return `The audit log's state is unknown (${chain.status}).`;
  if (chain.status === "unanchored") {
    return `The audit log is not anchored: records 1 to ${chain.verifiedThrough} verified, but nothing outside the database says where the log ends. ${chain.message ?? ""}`.trim();
  }
  const through = chain.verifiedThrough > 0 ? `only records 1 to ${chain.verifiedThrough} verified and were decided again` : "no record verified, so none was decided again";
  return `The audit log is broken: ${through}. ${chain.message ?? ""}`.trim();
}

/** The notes under the summary: unchanged calls, calls skipped, a cut-off read. */
export function notesOf(report) {
  const notes = [];
  const unchanged = report?.unchanged ?? 0;
  const reason = report?.reasonChanged ?? 0;
  notes.push(reason > 0 ? `${unchanged} unchanged (${reason} for another reason).` : `${unchanged} unchanged.`);
  const skipped = report?.skipped ?? {};
  const noInput = skipped.no_input ?? 0;
  if (noInput > 0) notes.push(`${plural(noInput, "call")} skipped: the chat keeps no input for them.`);
  const reviewer = report?.needsReviewer ?? skipped.needs_reviewer ?? 0;
  if (reviewer > 0) {
    notes.push(`${plural(reviewer, "call")} not decided: the model reviewer would review them, and a preview never calls it (run warrant replay --with FILE to include them).`);
  }
  const other = Object.entries(skipped).filter(([why]) => why !== "no_input" && why !== "needs_reviewer");
  for (const [why, n] of other) notes.push(`${plural(n, "call")} skipped (${why}).`);
  if (report?.limited) notes.push("Only the newest recorded calls were read: narrow with a session or a date.");
  return notes;
}

/** A report as elements: the summary, then one block per group of changed calls. */
export function renderReport(report) {
  const groups = Array.isArray(report?.groups) ? report.groups : [];
  return h(
    "div",
    { class: "replay-report", "data-changed": String(report?.changed ?? 0) },
    h("p", { class: "replay-summary" }, summaryText(report)),
    notesOf(report).map((note) => h("p", { class: "note replay-note" }, note)),
    chainNote(report?.chain) && h("p", { class: "replay-chain", role: "alert" }, chainNote(report.chain)),
    groups.map((group) =>
      h(
        "div",
        { class: "replay-group", "data-to": group.to, "data-reason-code": group.reasonCode },
        h(
          "h4",
          { class: "replay-group-head" },
          h("span", { class: "replay-to", "data-to": group.to }, `Now ${NOW[group.to] ?? group.to}`),
          " · ",
          h("code", { class: "replay-code" }, group.reasonCode),
          h("span", { class: "replay-count" }, ` (${group.count}: ${fromText(group.from)})`),
        ),
        h(
          "ul",
          { class: "replay-calls" },
          (group.calls ?? []).map((call) =>
            h(
              "li",
              { class: "replay-call", "data-tool-call-id": call.toolCallId },
              h("span", { class: "replay-change" }, `${call.before?.behavior} → ${call.after?.behavior}`),
              " ",
              h("span", { class: "replay-tool" }, call.toolName),
              " ",
              h("code", { class: "replay-input" }, call.input),
              h(
                "div",
                { class: "note replay-meta" },
                `Session ${call.sessionId} · was ${call.before?.source}: ${call.before?.reasonCode}`,
                call.inputRedacted ? " · decided on the redacted input" : "",
              ),
              call.after?.reason && h("div", { class: "replay-reason" }, call.after.reason),
            ),
          ),
        ),
      ),
    ),
  );
}

/** Posts a proposal to `/v1/replay` with this tab's token; resolves to the report. */
export function postReplay(body, token = adoptToken()) {
  return request(token, "/v1/replay", { method: "POST", body });
}

/**
 * The preview panel: a proposed configuration (TOML), optional filters, a "Preview effect"
 * button, and the report of the last preview (of the configuration or of a pattern draft).
 * Its element is kept across renders of the view it sits in.
 */
export class ReplayPreview {
  constructor({ post = postReplay } = {}) {
    this.post = post;
    this.state = { config: EXAMPLE_RULES, session: "", since: "", busy: false, error: null, report: null, subject: null };
    this.root = h("section", { class: "replay", "aria-label": "Preview a policy change" });
    this.render();
  }

  /** Previews the configuration in the box. */
  previewConfig() {
    const { config, session, since } = this.state;
    return this.preview(replayBody({ config, session, since }), "the proposed configuration");
  }

  /** Previews a pattern not yet saved, under the server's configuration. */
  previewPattern(pattern) {
    const { session, since } = this.state;
    const name = pattern?.name || pattern?.id || "pattern";
    return this.preview(replayBody({ patterns: [pattern], session, since }), `the unsaved pattern "${name}"`);
  }

  async preview(body, subject) {
    this.state = { ...this.state, busy: true, error: null, subject };
    this.render();
    try {
      const report = await this.post(body);
      this.state = { ...this.state, busy: false, report };
    } catch (e) {
      this.state = { ...this.state, busy: false, report: null, error: e?.message || String(e) };
    }
    this.render();
  }

  render() {
    const { config, session, since, busy, error, report, subject } = this.state;
    const set = (key) => (e) => {
      this.state = { ...this.state, [key]: e.target.value };
    };
    replaceChildren(
      this.root,
      h("h3", {}, "Preview a policy change"),
      h(
        "p",
        { class: "note" },
        "Decides the recorded calls again under proposed rules (or the pattern draft above) and lists those that would be allowed, asked or denied differently. The proposed configuration is merged over the server's own: what it sets replaces the server's values, key by key, and everything else (other rules, the reviewer, the store) stays the server's. Only records the audit log verified are used, and the model reviewer is never called. Nothing is saved or sent to the agent.",
      ),
      h(
        "label",
        { class: "replay-config-label" },
        "Proposed changes to the server's configuration (warrant.toml keys)",
        h("textarea", { class: "replay-config", rows: "5", spellcheck: "false", value: config, onInput: set("config") }),
      ),
      h(
        "div",
        { class: "replay-filters" },
        h("label", {}, "Session ", h("input", { class: "replay-session", value: session, placeholder: "every session", onInput: set("session") })),
        h("label", {}, "Since ", h("input", { class: "replay-since", value: since, placeholder: "2026-11-30", onInput: set("since") })),
      ),
      h(
        "button",
        { type: "button", class: "replay-preview", disabled: busy, onClick: () => this.previewConfig() },
        busy ? "Previewing…" : "Preview effect",
      ),
      h(
        "div",
        { class: "replay-result", "data-state": busy ? "busy" : error ? "error" : report ? "done" : "idle", "aria-live": "polite" },
        error && h("p", { class: "error", role: "alert" }, error),
        report && subject && h("p", { class: "note replay-subject" }, `Under ${subject}:`),
        report && renderReport(report),
      ),
    );
  }
}

let shared = null;

/** The page's one preview panel (made on first use). */
export function replayPanel() {
  shared ??= new ReplayPreview();
  return shared;
}
