// The reference UI: one session's timeline streamed over SSE, the approval dock, and the
// tool auto-approval settings. Everything model-provided is rendered as text (see dom.js).

import { ApiError, adoptToken, authHeaders, forgetToken, request, saveToken } from "./api.js";
import { ApprovalDock } from "./dock.js";
import { h, replaceChildren } from "./dom.js";
import { formatTime } from "./decision.js";
import { HistoryView } from "./history.js";
import { addUserMessage, applyStreamEvent, emptyTimeline, timelineFromMessages } from "./reducer.js";
import { grantList, renderActivity, renderGrants, renderInbox, renderPatternEditor, renderSessions, toolList } from "./settings.js";
import { followEventStream, readEventStream } from "./sse.js";
import { TimelineView } from "./timeline.js";

const $ = (id) => document.getElementById(id);
const VERBOSE_KEY = "warrant.verboseSecurityView";
const DEFAULT_SESSION = "demo";
const TITLE = "Warrant";
/** How often the approvals inbox asks the server what waits in other sessions. */
const INBOX_POLL_MS = 3000;
const TABS = ["activity", "patterns", "grants", "inbox", "sessions", "history"];

const app = {
  token: "",
  sessionId: DEFAULT_SESSION,
  timeline: emptyTimeline(),
  /** Tool calls read from persistence that the replayed stream has not rebuilt yet. */
  persisted: new Set(),
  workspace: null,
  tools: [],
  settingsAvailable: true,
  activity: { busy: false, error: null },
  patterns: { busy: false, error: null, selectedId: null },
  grants: { list: [], loaded: false, busy: null, error: null },
  inbox: { requests: [], error: null },
  stream: null,
  drawQueued: false,
};

const timelineView = new TimelineView($("timeline"));
const dock = new ApprovalDock($("dock"), $("approval-banner"), {
  onAction: async (part, action, message) => {
    const body = message ? { actionId: action.id, message } : { actionId: action.id };
    const answer = await call(`/v1/approvals/${encodeURIComponent(part.toolCallId)}`, { method: "POST", body });
    loadInbox();
    if (action.scope === "session" || action.scope === "global") loadGrants();
    return answer;
  },
  onRequest: (part) => scrollToCall(part.toolCallId),
  onLeave: () => $("composer-input").focus({ preventScroll: true }),
});

/** Scrolls the timeline so a call is in view above the dock. */
function scrollToCall(toolCallId) {
  requestAnimationFrame(() => {
    const el = [...$("timeline").querySelectorAll("details.tool")].find((d) => d.dataset.toolCallId === toolCallId);
    el?.scrollIntoView({ block: "nearest" });
  });
}

const historyView = new HistoryView($("history"), { call, download, onOpenCall: openCall, formatTime });

/** Calls the API with the token; a 401 asks for a new token. */
async function call(path, options) {
  try {
    return await request(app.token, path, options);
  } catch (e) {
    if (e instanceof ApiError && e.status === 401) askForToken();
    throw e;
  }
}

/**
 * Fetches a file from the API with the token and saves it under `name`; resolves to the
 * response's `Warrant-Audit-Chain` header (the audit log's state an export was made in).
 */
async function download(path, name) {
  const response = await fetch(path, { headers: authHeaders(app.token), cache: "no-store" });
  if (response.status === 401) askForToken();
  if (!response.ok) {
    const error = await response.json().catch(() => null);
    throw new ApiError(response.status, error?.error?.code ?? "http_error", error?.error?.message ?? `The server answered ${response.status}.`);
  }
  const url = URL.createObjectURL(await response.blob());
  const link = h("a", { href: url, download: name, hidden: true });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return response.headers.get("warrant-audit-chain");
}

/** Opens a call in its session (from the history): the session, then the call, unfolded. */
async function openCall(sessionId, toolCallId) {
  if (sessionId !== app.sessionId) await openSession(sessionId);
  const url = new URL(window.location.href);
  url.searchParams.set("call", toolCallId);
  window.history.replaceState(window.history.state, "", url.pathname + url.search + url.hash);
  focusCall(toolCallId);
}

/** Unfolds a call of the timeline and scrolls to it, once it is drawn; says so when it is not there. */
function focusCall(toolCallId, tries = 60) {
  requestAnimationFrame(() => {
    const el = [...$("timeline").querySelectorAll("details.tool")].find((d) => d.dataset.toolCallId === toolCallId);
    if (!el) {
      if (tries > 0) setTimeout(() => focusCall(toolCallId, tries - 1), 50);
      else notice(`The call ${toolCallId} is not in this session's timeline.`);
      return;
    }
    for (const other of $("timeline").querySelectorAll("details.tool[data-focused]")) delete other.dataset.focused;
    el.open = true;
    el.dataset.focused = "true";
    el.scrollIntoView({ block: "center" });
  });
}

function askForToken() {
  forgetToken();
  app.token = "";
  app.stream?.abort();
  $("token-form").hidden = false;
  setConnection("stopped", "Token needed");
}

function setConnection(state, text) {
  const el = $("connection");
  el.dataset.state = state;
  el.textContent = text ?? { connecting: "Connecting…", live: "Live", reconnecting: "Reconnecting…", stopped: "Offline" }[state];
}

function notice(message) {
  const el = $("notice");
  el.hidden = !message;
  el.textContent = message ?? "";
}

/** Draws the timeline and the dock on the next frame, once per frame. */
function draw() {
  if (app.drawQueued) return;
  app.drawQueued = true;
  requestAnimationFrame(() => {
    app.drawQueued = false;
    const { timeline } = app;
    timelineView.render(timeline);
    dock.update(timeline.parts);
    drawTitle();
    $("empty").hidden = timeline.items.length > 0;
    $("run-error").hidden = !timeline.error;
    $("run-error").textContent = timeline.error ? `The run failed: ${timeline.error}` : "";
    $("composer-send").disabled = timeline.running;
    $("composer").dataset.running = String(timeline.running);
  });
}

function drawSettings() {
  const running = app.timeline.running;
  if (!app.settingsAvailable) {
    replaceChildren($("activity"), h("p", { class: "note" }, "This server does not offer tool auto-approval settings."));
    $("patterns").replaceChildren();
    return;
  }
  renderActivity($("activity"), {
    workspace: app.workspace,
    tools: app.tools,
    sessionId: app.sessionId,
    running,
    ...app.activity,
    onChange: changeSessionSettings,
  });
  renderPatternEditor($("patterns"), {
    workspace: app.workspace,
    tools: app.tools,
    ...app.patterns,
    onSelect: (id) => {
      app.patterns.selectedId = id;
      drawSettings();
    },
    onSave: savePattern,
  });
}

async function changeSessionSettings(autoApprovedToolNames) {
  app.activity = { busy: true, error: null };
  drawSettings();
  try {
    const body = autoApprovedToolNames === undefined ? {} : { autoApprovedToolNames };
    const answer = await call(`/v1/sessions/${encodeURIComponent(app.sessionId)}/approval-settings`, { method: "PUT", body });
    app.workspace = answer?.sessions ? answer : await call("/v1/workspace");
    app.activity = { busy: false, error: null };
  } catch (e) {
    app.activity = { busy: false, error: e.message };
  }
  drawSettings();
}

async function savePattern(pattern, { onSaved } = {}) {
  app.patterns = { ...app.patterns, busy: true, error: null, selectedId: pattern.id };
  drawSettings();
  try {
    await call(`/v1/patterns/${encodeURIComponent(pattern.id)}`, { method: "PUT", body: pattern });
    onSaved?.();
    app.workspace = await call("/v1/workspace");
    app.patterns = { ...app.patterns, busy: false };
  } catch (e) {
    app.patterns = { ...app.patterns, busy: false, error: e.message };
  }
  drawSettings();
}

async function loadGrants() {
  try {
    app.grants = { ...app.grants, list: grantList(await call("/v1/grants")), loaded: true, error: null };
  } catch (e) {
    if (e instanceof ApiError && e.status === 401) return;
    const missing = e instanceof ApiError && e.status === 404;
    app.grants = { ...app.grants, loaded: true, error: missing ? "This server does not list grants." : e.message };
  }
  drawPanels();
}

async function revokeGrant(grant) {
  app.grants = { ...app.grants, busy: grant.id, error: null };
  drawPanels();
  try {
    await call(`/v1/grants/${encodeURIComponent(grant.id)}`, { method: "DELETE" });
    app.grants = { ...app.grants, busy: null };
  } catch (e) {
    // 404: revoked meanwhile; the refreshed list shows it gone.
    app.grants = { ...app.grants, busy: null, error: e.status === 404 ? null : e.message };
  }
  await loadGrants();
}

let inboxTimer = null;

/** Reads what waits for the user in every session, and polls on. */
async function loadInbox() {
  clearTimeout(inboxTimer);
  try {
    const answer = await call("/v1/approvals");
    const list = Array.isArray(answer) ? answer : Array.isArray(answer?.requests) ? answer.requests : [];
    app.inbox = { requests: list.filter((r) => r && typeof r.toolCallId === "string"), error: null };
  } catch (e) {
    if (e instanceof ApiError && e.status === 401) return;
    app.inbox = { ...app.inbox, error: e instanceof ApiError && e.status === 404 ? null : e.message };
  }
  drawPanels();
  // Calls may overlap (an event and the timer): one timer stays.
  clearTimeout(inboxTimer);
  if (app.token) inboxTimer = setTimeout(loadInbox, INBOX_POLL_MS);
}

/** The number of requests waiting: the server's inbox, and this session's open dock. */
function waitingCount() {
  const ids = new Set(app.inbox.requests.map((r) => r.toolCallId));
  for (const p of dock.pending) ids.add(p.toolCallId);
  return ids.size;
}

function drawPanels() {
  renderGrants($("grants"), {
    grants: app.grants.list,
    sessionId: app.sessionId,
    busy: app.grants.busy,
    error: app.grants.error,
    loaded: app.grants.loaded,
    onRevoke: revokeGrant,
    formatTime,
  });
  renderInbox($("inbox"), { requests: app.inbox.requests, sessionId: app.sessionId, error: app.inbox.error, onOpen: openSession });
  renderSessions($("sessions"), { sessions: app.workspace?.sessions, sessionId: app.sessionId, onOpen: openSession });
  drawTitle();
}

/** The tab title and the inbox tab carry the number waiting: "(2) Warrant". */
function drawTitle() {
  const n = waitingCount();
  document.title = n > 0 ? `(${n}) ${TITLE}` : TITLE;
  $("tab-inbox").textContent = n > 0 ? `Approvals (${n})` : "Approvals";
}

async function loadSettings() {
  try {
    const [workspace, tools] = await Promise.all([call("/v1/workspace"), call("/v1/tools")]);
    app.workspace = workspace;
    app.tools = toolList(tools);
    app.settingsAvailable = true;
  } catch (e) {
    if (e instanceof ApiError && e.status === 401) return;
    app.settingsAvailable = !(e instanceof ApiError && e.status === 404);
    app.activity.error = app.settingsAvailable ? e.message : null;
  }
  drawSettings();
}

function onEvent(event) {
  const wasRunning = app.timeline.running;
  app.timeline = applyStreamEvent(app.timeline, event, app.persisted);
  if (app.timeline.running !== wasRunning) {
    drawSettings();
    loadSettings();
  }
  if (event?.type === "CUSTOM") {
    if (event.name === "tool_approval_request" || event.name === "tool_permission_resolution") loadInbox();
    if (event.name === "tool_permission_resolution" && event.value?.scope !== "once") loadGrants();
  }
  draw();
}

async function openSession(sessionId) {
  app.stream?.abort();
  app.sessionId = sessionId;
  app.timeline = emptyTimeline();
  app.persisted = new Set();
  $("session-input").value = sessionId;
  const url = new URL(window.location.href);
  url.searchParams.set("session", sessionId);
  url.searchParams.delete("call");
  window.history.replaceState(window.history.state, "", url.pathname + url.search + url.hash);
  notice(null);
  draw();
  loadSettings();
  loadGrants();
  loadInbox();
  try {
    const messages = await call(`/v1/sessions/${encodeURIComponent(sessionId)}/messages`);
    const list = Array.isArray(messages) ? messages : messages?.messages;
    app.timeline = timelineFromMessages(list);
    app.persisted = new Set(app.timeline.parts.map((p) => p.toolCallId));
  } catch (e) {
    if (e instanceof ApiError && e.status === 401) return;
    if (!(e instanceof ApiError && e.status === 404)) notice(`Could not load this session's history: ${e.message}`);
  }
  draw();
  const controller = new AbortController();
  app.stream = controller;
  followEventStream({
    url: `/v1/sessions/${encodeURIComponent(sessionId)}/events`,
    headers: authHeaders(app.token),
    signal: controller.signal,
    onEvent,
    // A stream replaced by another session's says nothing more.
    onState: (state) => {
      if (!controller.signal.aborted) setConnection(state);
    },
    onRejected: (e) => {
      if (e.status === 401) askForToken();
      else notice(`The event stream was refused: ${e.message}`);
    },
  });
}

/** A random id (`crypto.randomUUID` exists only in secure contexts; this works in any). */
function randomId() {
  return Array.from(crypto.getRandomValues(new Uint8Array(12)), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Starts a run of the agent with the user's message; its events arrive on the session stream. */
async function send(text) {
  const messageId = `msg-${randomId()}`;
  app.timeline = addUserMessage(app.timeline, messageId, text);
  draw();
  const body = {
    threadId: app.sessionId,
    runId: `run-${randomId()}`,
    messages: [{ id: messageId, role: "user", content: text }],
    state: {},
    tools: [],
    context: [],
    // Keep the run open while the dock waits for the user, instead of ending it with an
    // AG-UI interrupt that a second run would have to resume.
    forwardedProps: { waitForApproval: true },
  };
  try {
    const response = await fetch("/v1/agent", {
      method: "POST",
      headers: { ...authHeaders(app.token), "Content-Type": "application/json", Accept: "text/event-stream" },
      body: JSON.stringify(body),
    });
    if (response.status === 401) return askForToken();
    if (!response.ok) {
      const error = await response.json().catch(() => null);
      notice(`The agent refused the run: ${error?.error?.message ?? `status ${response.status}`}`);
      return;
    }
    // The session stream shows the run; reading this reply to its end keeps the run attached.
    await readEventStream(response, () => {});
  } catch (e) {
    notice(`The agent could not be reached: ${e.message}`);
  }
}

function selectTab(name) {
  for (const tab of TABS) {
    $(`tab-${tab}`).setAttribute("aria-selected", String(tab === name));
    $(tab).hidden = tab !== name;
  }
  if (name === "grants") loadGrants();
  if (name === "inbox") loadInbox();
  if (name === "sessions") loadSettings().then(drawPanels);
  if (name === "history") historyView.show();
}

/** Keeps the page's bottom padding equal to the dock's height, so the dock hides nothing. */
function reserveDockSpace() {
  const observer = new ResizeObserver(() => {
    const height = $("dock").hidden ? 0 : $("dock").offsetHeight;
    document.documentElement.style.setProperty("--dock-height", `${height}px`);
  });
  observer.observe($("dock"));
}

function start() {
  reserveDockSpace();
  app.token = adoptToken();
  const verbose = localStorage.getItem(VERBOSE_KEY) === "true";
  $("verbose-toggle").checked = verbose;
  timelineView.setVerbose(verbose);
  $("verbose-toggle").addEventListener("change", (e) => {
    localStorage.setItem(VERBOSE_KEY, String(e.target.checked));
    timelineView.setVerbose(e.target.checked);
    draw();
  });
  for (const tab of TABS) $(`tab-${tab}`).addEventListener("click", () => selectTab(tab));
  $("session-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const id = $("session-input").value.trim();
    if (id && id !== app.sessionId) openSession(id);
  });
  $("composer").addEventListener("submit", (e) => {
    e.preventDefault();
    const text = $("composer-input").value.trim();
    if (!text || app.timeline.running) return;
    $("composer-input").value = "";
    send(text);
  });
  $("token-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const token = $("token-input").value.trim();
    if (!token) return;
    saveToken(token);
    app.token = token;
    $("token-form").hidden = true;
    openSession(app.sessionId);
  });
  const sessionId = new URLSearchParams(window.location.search).get("session") || DEFAULT_SESSION;
  if (!app.token) {
    app.sessionId = sessionId;
    $("session-input").value = sessionId;
    askForToken();
    return;
  }
  const callId = new URLSearchParams(window.location.search).get("call");
  openSession(sessionId).then(() => callId && focusCall(callId));
}

start();
