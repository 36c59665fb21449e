// The approval dock: the open approval request with its actions, risk, reason and one
// secondary provenance line, the queued requests, and the banner naming the waiting tool.
//
// The dock reads the approval contract from `part.permission`; the decision only adds
// provenance. It never decides anything itself: an action is a request to the server,
// which accepts it only for a pending call and an offered action.

import { h, replaceChildren } from "./dom.js";
import { awaitsApproval, capitalize, dockProvenance, truncate } from "./decision.js";

/** The longest reason the dock shows (the full one is in the expanded call). */
const DOCK_REASON_CHARS = 300;

export class ApprovalDock {
  /**
   * `dock` and `banner` are the elements to fill; `onAction(part, action)` sends an action
   * and resolves once the server answered (or throws its error).
   */
  constructor(dock, banner, onAction) {
    this.dock = dock;
    this.banner = banner;
    this.onAction = onAction;
    this.sent = new Set();
    this.selected = null;
    this.busy = null;
    this.error = null;
    this.pending = [];
    this.parts = [];
  }

  /** Shows the open requests among `parts`. */
  update(parts) {
    this.parts = parts;
    this.draw();
  }

  draw() {
    this.pending = this.parts.filter((p) => awaitsApproval(p) && !this.sent.has(p.toolCallId));
    const active = this.pending.find((p) => p.toolCallId === this.selected) ?? this.pending[0];
    if (!active) {
      this.dock.hidden = true;
      this.banner.hidden = true;
      replaceChildren(this.dock);
      replaceChildren(this.banner);
      return;
    }
    this.selected = active.toolCallId;
    this.renderBanner(active);
    this.renderDock(active);
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
    );
  }

  renderDock(part) {
    const request = part.permission;
    const provenance = dockProvenance(part);
    this.dock.hidden = false;
    this.dock.dataset.toolCallId = part.toolCallId;
    const queued = this.pending.filter((p) => p !== part);
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
        ),
        h("div", { class: "dock-title" }, request.title),
        h("div", { class: "dock-reason", title: truncate(request.reason, DOCK_REASON_CHARS) }, truncate(request.reason, DOCK_REASON_CHARS)),
        h("div", { class: "dock-meta", title: provenance.line }, provenance.line),
        this.error && h("div", { class: "dock-error", role: "alert" }, this.error),
      ),
      h(
        "div",
        { class: "dock-actions" },
        request.actions.map((action) =>
          h(
            "button",
            {
              type: "button",
              class: action.behavior === "deny" ? "action deny" : "action allow",
              "data-action-id": action.id,
              disabled: this.busy === part.toolCallId,
              onClick: () => this.act(part, action),
            },
            action.label,
          ),
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

  select(toolCallId) {
    this.selected = toolCallId;
    this.error = null;
    this.draw();
  }

  async act(part, action) {
    this.busy = part.toolCallId;
    this.error = null;
    this.draw();
    try {
      await this.onAction(part, action);
      this.sent.add(part.toolCallId);
      this.selected = null;
    } catch (e) {
      // 409: someone resolved it already; the resolution event will follow.
      if (e.status === 409) this.sent.add(part.toolCallId);
      else this.error = e.message;
    } finally {
      this.busy = null;
      this.draw();
    }
  }
}

function toolNameOf(part) {
  return part.permission?.toolName || part.toolName || "Tool";
}
