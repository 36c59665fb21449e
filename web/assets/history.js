// The decision history: the audit log read through `GET /v1/audit`, newest first, with its
// filters, paging, the state of the log's chain, export, and a link from each record to its
// call in its session. The pure helpers are exported for the unit tests.

import { h, replaceChildren } from "./dom.js";

/** The page sizes offered; the server accepts 1 to 200. */
export const PAGE_SIZES = [10, 25, 50, 100];

/** The filters, as the server names them, with empty values. */
export function emptyFilters() {
  return { session: "", tool: "", kind: "", outcome: "", source: "", reasonCode: "", since: "", until: "", q: "" };
}

/**
 * A time filter as Unix milliseconds: a number stays, a `datetime-local` value
 * (`2026-11-30T10:00`, the browser's local time) is converted; "" when empty or unreadable.
 */
export function toMillis(value) {
  if (value === "" || value === null || value === undefined) return "";
  if (typeof value === "number") return Number.isFinite(value) ? String(Math.trunc(value)) : "";
  if (/^\d+$/.test(value)) return value;
  const ms = new Date(value).getTime();
  return Number.isFinite(ms) ? String(ms) : "";
}

/** The query string (without `?`) of filters, a cursor and a page size; empty values are left out. */
export function historyQuery(filters, { cursor, limit, format } = {}) {
  const params = new URLSearchParams();
  for (const [name, raw] of Object.entries(filters ?? {})) {
    const value = name === "since" || name === "until" ? toMillis(raw) : String(raw ?? "").trim();
    if (value !== "") params.set(name, value);
  }
  if (cursor) params.set("cursor", String(cursor));
  if (limit) params.set("limit", String(limit));
  if (format) params.set("format", format);
  return params.toString();
}

/** The path of an export of the filtered history (`csv` or `jsonl`). */
export function exportPath(filters, format) {
  return `/v1/audit/export?${historyQuery(filters, { format })}`;
}

/** The address of a record's call in its session: `?session=S&call=C`. */
export function callHref(record) {
  const params = new URLSearchParams({ session: record.sessionId ?? "", call: record.toolCallId ?? "" });
  return `?${params}`;
}

const SOURCES = { policy: "Policy", rule: "Your rules", auto_classifier: "Security reviewer", full_access: "Full Access" };

/**
 * What a record says, in a row's words: `{kind, outcome, label, tone, tool, source, reasonCode,
 * reason, at, sessionId, toolCallId}`.
 */
export function recordSummary(record) {
  const base = {
    kind: record.kind,
    tool: record.toolName ?? "",
    at: record.at,
    sessionId: record.sessionId ?? "",
    toolCallId: record.toolCallId ?? "",
    outcome: "",
    source: "",
    reasonCode: "",
    reason: "",
  };
  switch (record.kind) {
    case "evaluation": {
      const d = record.decision ?? {};
      const label = { allow: "Allowed", ask: "Asked", deny: "Denied" }[d.behavior] ?? String(d.behavior ?? "Decided");
      const tone = { allow: "green", ask: "amber", deny: "red" }[d.behavior] ?? "neutral";
      return {
        ...base,
        outcome: d.behavior ?? "",
        label,
        tone,
        source: SOURCES[d.source] ?? String(d.source ?? ""),
        reasonCode: d.reasonCode ?? "",
        reason: d.reason ?? "",
      };
    }
    case "resolution": {
      const r = record.resolution ?? {};
      const allowed = r.behavior === "allow";
      return {
        ...base,
        outcome: r.behavior ?? "",
        label: allowed ? "You allowed" : "You denied",
        tone: allowed ? "green" : "red",
        source: "You",
        reasonCode: r.actionId ?? "",
        reason: r.message ?? "",
      };
    }
    case "expiry":
      return { ...base, label: "Expired", tone: "neutral", reason: record.reason ?? "" };
    case "cancel":
      return { ...base, label: "Cancelled", tone: "neutral", reason: record.reason ?? "" };
    case "grant_revoked":
      return { ...base, label: "Grant revoked", tone: "violet", reason: record.description ?? "" };
    default:
      return { ...base, label: String(record.kind ?? "Record"), tone: "neutral" };
  }
}

/**
 * What the history says of the log's chain: `{level: "ok" | "warning" | "error", text}`. A
 * broken chain is said plainly, with what is withheld.
 */
export function chainNotice(chain) {
  if (!chain) return { level: "warning", text: "The server did not say whether the audit log verified." };
  const bad = chain.firstBad;
  if (chain.status === "broken") {
    const what = bad ? `record ${bad.seq} ${bad.problem === "missing" ? "is missing" : bad.problem === "edited" ? "was edited" : "cannot be checked"}` : "a record does not verify";
    const shown = chain.verifiedThrough > 0 ? `Only records 1 to ${chain.verifiedThrough} are shown` : "No record is shown";
    return {
      level: "error",
      text: `The audit log is broken: ${what}${bad?.detail ? ` (${bad.detail})` : ""}. ${shown}; run \`warrant audit --verify\`.`,
    };
  }
  if (chain.status === "unanchored") {
    return {
      level: "warning",
      text: `Every record verified, but nothing outside the database says where the log ends: a truncation cannot be ruled out${bad?.detail ? ` (${bad.detail})` : ""}.`,
    };
  }
  if (!chain.keyed) {
    return {
      level: "warning",
      text: `${chain.checked} records, numbered without gaps; this store keeps no keyed chain, so an edited record cannot be told from the original.`,
    };
  }
  const legacy = chain.legacyRecords ?? 0;
  if (legacy > 0) {
    return {
      level: "warning",
      text: `Audit log verified: ${chain.checked} records, through record ${chain.verifiedThrough}, with the audit key from record ${legacy + 1} on. Records 1 to ${legacy} predate the keyed chain and are checked only against an unkeyed SHA-256 chain, which anyone who could write the database could have recomputed.`,
    };
  }
  return { level: "ok", text: `Audit log verified: ${chain.checked} records, through record ${chain.verifiedThrough}.` };
}

/**
 * What an export's `Warrant-Audit-Chain` header (`broken; verified-through=4; first-bad=5;
 * problem=missing`) says, when the log did not verify whole: `{level, text}`, or `null` for
 * an intact log. A missing header is a warning: the file's state is unknown.
 */
export function exportChainNotice(header, format) {
  const file = format ? `The ${format === "csv" ? "CSV" : "JSON lines"} export` : "The export";
  if (typeof header !== "string" || header.trim() === "") {
    return { level: "warning", text: `${file} did not say whether the audit log verified.` };
  }
  const [status, ...rest] = header.split(";").map((p) => p.trim());
  const fields = Object.fromEntries(rest.map((p) => p.split("=")).filter((kv) => kv.length === 2));
  if (status === "intact") return null;
  const through = Number(fields["verified-through"] ?? 0);
  if (status === "unanchored") {
    return {
      level: "warning",
      text: `${file} holds records 1 to ${through}, all verified, but nothing outside the database says where the log ends: a truncation cannot be ruled out.`,
    };
  }
  const bad = fields["first-bad"] ? ` at record ${fields["first-bad"]}${fields.problem ? ` (${fields.problem})` : ""}` : "";
  const held = through > 0 ? `holds only records 1 to ${through}` : "holds no record";
  return {
    level: "error",
    text: `The audit log is broken${bad}: ${file.charAt(0).toLowerCase() + file.slice(1)} ${held}, and says so in the file; run \`warrant audit --verify\`.`,
  };
}

/**
 * The History tab: a filter form, the page of records, paging and export. `call(path)` reads
 * the API with the token; `download(path, name)` saves an export and resolves to its
 * `Warrant-Audit-Chain` header; `onOpenCall(sessionId,
 * toolCallId)` opens a record's call; `formatTime(ms)` writes a time.
 */
export class HistoryView {
  constructor(container, { call, download, onOpenCall, formatTime }) {
    this.container = container;
    this.call = call;
    this.download = download;
    this.onOpenCall = onOpenCall;
    this.formatTime = formatTime;
    this.filters = emptyFilters();
    this.limit = 25;
    /** The cursors of the pages before this one (`undefined` is the newest page). */
    this.cursors = [];
    this.cursor = undefined;
    this.page = null;
    this.error = null;
    /** What the last export's header said of the chain, when not intact. */
    this.exportNotice = null;
    this.busy = false;
    this.loaded = false;
    this.render();
  }

  /** Loads the newest page when the tab is first shown, else refreshes the current one. */
  show() {
    this.load();
  }

  async load() {
    this.busy = true;
    this.render();
    try {
      this.page = await this.call(`/v1/audit?${historyQuery(this.filters, { cursor: this.cursor, limit: this.limit })}`);
      this.error = null;
    } catch (e) {
      this.error = e.message;
    }
    this.busy = false;
    this.loaded = true;
    this.render();
  }

  apply(form) {
    const data = new FormData(form);
    this.filters = Object.fromEntries(Object.keys(emptyFilters()).map((k) => [k, String(data.get(k) ?? "")]));
    this.limit = Number(data.get("limit")) || this.limit;
    this.cursors = [];
    this.cursor = undefined;
    this.load();
  }

  older() {
    if (!this.page?.nextCursor) return;
    this.cursors.push(this.cursor);
    this.cursor = this.page.nextCursor;
    this.load();
  }

  newer() {
    if (this.cursors.length === 0) return;
    this.cursor = this.cursors.pop();
    this.load();
  }

  /** Saves an export; `download` resolves to its `Warrant-Audit-Chain` header. */
  async exportAs(format) {
    try {
      const chain = await this.download(exportPath(this.filters, format), `warrant-audit.${format}`);
      this.exportNotice = exportChainNotice(chain, format);
    } catch (e) {
      this.exportNotice = null;
      this.error = `The export failed: ${e.message}`;
    }
    this.render();
  }

  render() {
    const f = this.filters;
    const field = (name, label, props = {}) =>
      h("label", { class: "history-field" }, h("span", {}, label), h("input", { name, value: f[name], autocomplete: "off", spellcheck: "false", ...props }));
    const select = (name, label, options) =>
      h(
        "label",
        { class: "history-field" },
        h("span", {}, label),
        h("select", { name }, options.map(([value, text]) => h("option", { value, selected: f[name] === value }, text))),
      );
    const form = h(
      "form",
      {
        class: "history-filters",
        id: "history-filters",
        onSubmit: (e) => {
          e.preventDefault();
          this.apply(e.currentTarget);
        },
      },
      field("session", "Session"),
      field("tool", "Tool"),
      select("outcome", "Outcome", [["", "Any"], ["allow", "Allowed"], ["ask", "Asked"], ["deny", "Denied"]]),
      select("source", "Source", [["", "Any"], ["policy", "Policy"], ["rule", "Your rules"], ["auto_classifier", "Security reviewer"], ["full_access", "Full Access"]]),
      select("kind", "Record", [["", "Any"], ["evaluation", "Decision"], ["resolution", "Your answer"], ["expiry", "Expiry"], ["cancel", "Cancel"], ["grant_revoked", "Grant revoked"]]),
      field("reasonCode", "Reason code", { placeholder: "shell_*" }),
      field("since", "From", { type: "datetime-local" }),
      field("until", "Until", { type: "datetime-local" }),
      field("q", "Text", { type: "search" }),
      h(
        "label",
        { class: "history-field" },
        h("span", {}, "Per page"),
        h("select", { name: "limit" }, PAGE_SIZES.map((n) => h("option", { value: String(n), selected: n === this.limit }, String(n)))),
      ),
      h("button", { type: "submit", class: "history-apply", disabled: this.busy }, "Apply"),
    );
    const records = this.page?.records ?? [];
    const notice = this.page ? chainNotice(this.page.chain) : null;
    replaceChildren(
      this.container,
      h("h3", {}, "History"),
      form,
      h(
        "div",
        { class: "history-export" },
        h("span", { class: "note" }, "Export:"),
        h("button", { type: "button", class: "history-export-csv", onClick: () => this.exportAs("csv") }, "CSV"),
        h("button", { type: "button", class: "history-export-jsonl", onClick: () => this.exportAs("jsonl") }, "JSON lines"),
      ),
      notice && h("p", { class: "history-chain", "data-level": notice.level, role: notice.level === "error" ? "alert" : "status" }, notice.text),
      this.exportNotice &&
        h("p", { class: "history-export-chain", "data-level": this.exportNotice.level, role: this.exportNotice.level === "error" ? "alert" : "status" }, this.exportNotice.text),
      this.error && h("p", { class: "error history-error", role: "alert" }, this.error),
      this.loaded && !this.error && records.length === 0 && h("p", { class: "note", "data-note": "history-empty" }, "No record matches."),
      records.length > 0 && h("ol", { class: "history-list" }, records.map((r) => this.row(r))),
      h(
        "div",
        { class: "history-paging" },
        h("button", { type: "button", class: "history-newer", disabled: this.busy || this.cursors.length === 0, onClick: () => this.newer() }, "Newer"),
        h("button", { type: "button", class: "history-older", disabled: this.busy || !this.page?.nextCursor, onClick: () => this.older() }, "Older"),
      ),
    );
  }

  row(record) {
    const s = recordSummary(record);
    return h(
      "li",
      { class: "history-item", "data-seq": String(record.seq), "data-kind": s.kind, "data-outcome": s.outcome },
      h(
        "div",
        { class: "history-head" },
        h("span", { class: "badge history-outcome", "data-tone": s.tone }, s.label),
        h("strong", { class: "history-tool" }, s.tool),
        h("span", { class: "note history-time" }, this.formatTime(s.at)),
      ),
      (s.source || s.reasonCode) &&
        h("div", { class: "note history-why" }, [s.source, s.reasonCode && h("code", { class: "history-code" }, s.reasonCode)].filter(Boolean).map((x, i) => (i ? [" · ", x] : x))),
      s.reason && h("div", { class: "history-reason" }, s.reason),
      h(
        "a",
        {
          class: "history-call",
          href: callHref(record),
          onClick: (e) => {
            if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey) return;
            e.preventDefault();
            this.onOpenCall(s.sessionId, s.toolCallId);
          },
        },
        `#${record.seq} · ${s.sessionId} · ${s.toolCallId}`,
      ),
    );
  }
}
