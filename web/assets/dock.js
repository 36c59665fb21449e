// The approval dock: the open approval request with exactly what it asks about (the full
// command, path or diff), the verdict in words, the risk, one secondary provenance line and
// the actions; the queued requests, and the banner naming the waiting tool.
//
// The dock reads the approval contract from `part.permission`; the decision only adds
// provenance. It never decides anything itself: an action is a request to the server,
// which accepts it only for a pending call and an offered action.
//
// Keyboard: focus moves to the dock when a request arrives; the digits 1–9 take the
// actions in order, Escape leaves the dock, Alt+A comes back to it from anywhere, and focus
// returns to the composer after.

import { h, replaceChildren } from "./dom.js";
import { awaitsApproval, capitalize, dockProvenance, dockVerdict, subjectOf, truncate } from "./decision.js";

/** The longest reason the dock shows (the full one is in the expanded call). */
const DOCK_REASON_CHARS = 300;

/** The longest message a denial carries to the agent. */
export const DENY_MESSAGE_CHARS = 2000;

/** The shortcut of the action at `index` (0-based): "1" to "9", none beyond. */
export function shortcutOf(index) {
  return index < 9 ? String(index + 1) : null;
}

export class ApprovalDock {
  /**
   * `dock` and `banner` are the elements to fill; `onAction(part, action, message)` sends an
   * action (with the deny message, when there is one) and resolves once the server
   * answered (or throws its error). `onRequest(part)` is called when a request is shown for
   * the first time; `onLeave()` when the user leaves the dock or has acted on the last
   * request (the app puts focus back on the composer).
   */
  constructor(dock, banner, { onAction, onRequest = () => {}, onLeave = () => {} }) {
    this.dock = dock;
    this.banner = banner;
    this.onAction = onAction;
    this.onRequest = onRequest;
    this.onLeave = onLeave;
    this.sent = new Set();
    this.announced = new Set();
    this.selected = null;
    this.busy = null;
    this.error = null;
    this.copied = null;
    this.messages = new Map();
    this.pending = [];
    this.parts = [];
    this.drawn = null;
    this.dock.tabIndex = -1;
    this.dock.addEventListener("keydown", (e) => this.onKey(e));
    document.addEventListener("keydown", (e) => {
      if (e.altKey && !e.ctrlKey && !e.metaKey && e.code === "KeyA" && !this.dock.hidden) {
        e.preventDefault();
        this.dock.focus();
      }
    });
  }

  /** Shows the open requests among `parts`. */
  update(parts) {
    this.parts = parts;
    this.draw();
  }

  /** The request the dock shows, or undefined. */
  get active() {
    return this.pending.find((p) => p.toolCallId === this.selected);
  }

  draw() {
    this.pending = this.parts.filter((p) => awaitsApproval(p) && !this.sent.has(p.toolCallId));
    const active = this.pending.find((p) => p.toolCallId === this.selected) ?? this.pending[0];
    if (!active) {
      const hadFocus = this.dock.contains(document.activeElement);
      this.selected = null;
      this.drawn = null;
      this.dock.hidden = true;
      this.banner.hidden = true;
      replaceChildren(this.dock);
      replaceChildren(this.banner);
      if (hadFocus) this.onLeave();
      return;
    }
    this.selected = active.toolCallId;
    // Redraw only what changed, so focus, selection and a typed message stay put.
    const key = [active, this.busy, this.error, this.copied, ...this.pending.map((p) => p.toolCallId)];
    if (this.drawn && key.length === this.drawn.length && key.every((k, i) => k === this.drawn[i])) return;
    this.drawn = key;
    const focus = this.focusedControl();
    this.renderBanner(active);
    this.renderDock(active);
    this.restoreFocus(focus);
    if (!this.announced.has(active.toolCallId)) {
      this.announced.add(active.toolCallId);
      this.onRequest(active);
      this.dock.focus({ preventScroll: true });
    }
  }

  /** Which control of the dock has focus, to give it back after a redraw. */
  focusedControl() {
    const el = document.activeElement;
    if (!el || !this.dock.contains(el)) return null;
    if (el === this.dock) return { dock: true };
    return {
      selector: el.dataset.actionId ? `[data-action-id="${CSS.escape(el.dataset.actionId)}"]` : el.dataset.focusKey ? `[data-focus-key="${el.dataset.focusKey}"]` : null,
      start: el.selectionStart,
      end: el.selectionEnd,
    };
  }

  restoreFocus(focus) {
    if (!focus) return;
    if (focus.dock) return this.dock.focus({ preventScroll: true });
    const el = focus.selector && this.dock.querySelector(focus.selector);
    if (!el || el.disabled) return this.dock.focus({ preventScroll: true });
    el.focus({ preventScroll: true });
    if (typeof focus.start === "number" && typeof el.setSelectionRange === "function") el.setSelectionRange(focus.start, focus.end);
  }

  renderBanner(active) {
    this.banner.hidden = false;
    const more = this.pending.length - 1;
    replaceChildren(
      this.banner,
      h("span", { class: "banner-icon", "aria-hidden": "true" }, "●"),
      " Approval needed: ",
      h("strong", { class: "banner-tool" }, toolNameOf(active)),
      more > 0 ? ` (+${more} queued)` : "",
      " ",
      h("button", { type: "button", class: "banner-go", "aria-keyshortcuts": "Alt+A", onClick: () => this.dock.focus() }, "Review (Alt+A)"),
    );
  }

  renderDock(part) {
    const request = part.permission;
    const provenance = dockProvenance(part);
    const verdict = dockVerdict(part);
    const subject = subjectOf(part);
    const id = part.toolCallId;
    this.dock.hidden = false;
    this.dock.dataset.toolCallId = id;
    const queued = this.pending.filter((p) => p !== part);
    const keys = request.actions.map((_, i) => shortcutOf(i)).filter(Boolean);
    const reason = truncate(verdict.reason, DOCK_REASON_CHARS);
    replaceChildren(
      this.dock,
      h(
        "div",
        { class: "dock-info" },
        h(
          "div",
          { class: "dock-head" },
          provenance.aiRecommendation && h("span", { class: "ai-label" }, "AI recommendation"),
          h("span", { class: "dock-tool" }, toolNameOf(part)),
          h("span", { class: "dock-risk", "data-risk": request.risk }, `Risk: ${capitalize(request.risk)}`),
          h("span", { class: "dock-title" }, request.title),
        ),
        h(
          "p",
          { class: "dock-verdict" },
          h("span", { class: "verdict-lead" }, verdict.lead),
          " ",
          h("span", { class: "dock-reason", title: reason }, reason),
        ),
        h("div", { class: "dock-meta", title: provenance.line }, provenance.line),
        h(
          "div",
          { class: "dock-subject", "data-kind": subject.kind },
          h(
            "div",
            { class: "subject-head" },
            h("span", { class: "subject-label", id: `subject-label-${id}` }, subject.label),
            h(
              "button",
              { type: "button", class: "copy", "data-focus-key": "copy", onClick: () => this.copy(id, subject.text) },
              this.copied === id ? "Copied" : "Copy",
            ),
          ),
          h("pre", { class: "subject-text", tabindex: "0", "data-focus-key": "subject", "aria-labelledby": `subject-label-${id}` }, subject.text),
        ),
        this.error && h("div", { class: "dock-error", role: "alert" }, this.error),
      ),
      h(
        "label",
        { class: "dock-message" },
        h("span", {}, "Message to the agent if you deny (optional)"),
        h("input", {
          type: "text",
          class: "deny-message",
          "data-focus-key": "message",
          maxlength: String(DENY_MESSAGE_CHARS),
          autocomplete: "off",
          value: this.messages.get(id) ?? "",
          onInput: (e) => this.messages.set(id, e.target.value),
        }),
      ),
      h(
        "div",
        { class: "dock-actions" },
        request.actions.map((action, i) =>
          h(
            "button",
            {
              type: "button",
              class: action.behavior === "deny" ? "action deny" : "action allow",
              "data-action-id": action.id,
              title: action.label,
              "data-key": shortcutOf(i),
              "aria-keyshortcuts": shortcutOf(i),
              disabled: this.busy === id,
              onClick: () => this.act(part, action),
            },
            action.label,
          ),
        ),
        keys.length > 0 &&
          h(
            "span",
            { class: "dock-keys", "aria-hidden": "true" },
            `Keys: ${keys.length > 1 ? `${keys[0]}–${keys.at(-1)}` : keys[0]} act · Esc leaves · Alt+A returns`,
          ),
      ),
      queued.length > 0 &&
        h(
          "div",
          { class: "dock-queue" },
          h("span", { class: "queue-label" }, `Queued (${queued.length}):`),
          queued.map((p) =>
            h(
              "button",
              { type: "button", class: "queued", "data-tool-call-id": p.toolCallId, onClick: () => this.select(p.toolCallId) },
              toolNameOf(p),
            ),
          ),
        ),
    );
  }

  onKey(e) {
    const part = this.active;
    if (!part || e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.key === "Escape") {
      e.preventDefault();
      this.onLeave();
      return;
    }
    // Typing a message is typing, not a shortcut.
    if (e.target instanceof HTMLInputElement || e.target instanceof HTMLTextAreaElement) return;
    if (/^[1-9]$/.test(e.key)) {
      const action = part.permission.actions[Number(e.key) - 1];
      if (action && this.busy !== part.toolCallId) {
        e.preventDefault();
        this.act(part, action);
      }
    }
  }

  async copy(id, text) {
    try {
      await navigator.clipboard.writeText(text);
      this.copied = id;
    } catch {
      // No clipboard access: select the text so the user can copy it.
      const pre = this.dock.querySelector(".subject-text");
      if (pre) window.getSelection()?.selectAllChildren(pre);
    }
    this.draw();
  }

  select(toolCallId) {
    this.selected = toolCallId;
    this.error = null;
    this.draw();
  }

  async act(part, action) {
    const id = part.toolCallId;
    const message = action.behavior === "deny" ? (this.messages.get(id) ?? "").trim() : "";
    const engaged = this.dock.contains(document.activeElement);
    this.busy = id;
    this.error = null;
    this.draw();
    try {
      await this.onAction(part, action, message || undefined);
      this.sent.add(id);
      this.messages.delete(id);
      this.selected = null;
    } catch (e) {
      // 409: someone resolved it already; the resolution event will follow.
      if (e.status === 409) this.sent.add(id);
      else this.error = e.message;
    } finally {
      this.busy = null;
      this.draw();
      // Someone working the dock by keyboard stays in it while requests remain, and is
      // handed back to the composer after the last one.
      if (engaged && this.pending.length === 0) this.onLeave();
      else if (engaged && !this.dock.contains(document.activeElement)) this.dock.focus({ preventScroll: true });
    }
  }
}

function toolNameOf(part) {
  return part.permission?.toolName || part.toolName || "Tool";
}
