// The reference UI: one session's timeline streamed over SSE, the approval dock, and the
// tool auto-approval settings. Everything model-provided is rendered as text (see dom.js).

import { ApiError, adoptToken, authHeaders, forgetToken, request, saveToken } from "./api.js";
import { ApprovalDock } from "./dock.js";
import { h, replaceChildren } from "./dom.js";
import { applyStreamEvent, emptyTimeline, timelineFromMessages } from "./reducer.js";
import { renderActivity, renderPatternEditor, toolList } from "./settings.js";
import { followEventStream, readEventStream } from "./sse.js";
import { TimelineView } from "./timeline.js";

const $ = (id) => document.getElementById(id);
const VERBOSE_KEY = "warrant.verboseSecurityView";
const DEFAULT_SESSION = "demo";

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
  stream: null,
  drawQueued: false,
};

const timelineView = new TimelineView($("timeline"));
const dock = new ApprovalDock($("dock"), $("approval-banner"), (part, action) =>
  call(`/v1/approvals/${encodeURIComponent(part.toolCallId)}`, { method: "POST", body: { actionId: action.id } }),
);

/** Calls the API with the token; a 401 asks for a new token. */
async function call(path, options) {
  try {
    return await request(app.token, path, options);
  } catch (e) {
    if (e instanceof ApiError && e.status === 401) askForToken();
    throw e;
  }
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
    $("empty").hidden = timeline.items.length > 0;
    $("run-error").hidden = !timeline.error;
    $("run-error").textContent = timeline.error ? `The run failed: ${timeline.error}` : "";
    $("composer-send").disabled = timeline.running;
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

async function savePattern(pattern) {
  app.patterns = { ...app.patterns, busy: true, error: null, selectedId: pattern.id };
  drawSettings();
  try {
    await call(`/v1/patterns/${encodeURIComponent(pattern.id)}`, { method: "PUT", body: pattern });
    app.workspace = await call("/v1/workspace");
    app.patterns = { ...app.patterns, busy: false };
  } catch (e) {
    app.patterns = { ...app.patterns, busy: false, error: e.message };
  }
  drawSettings();
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
  window.history.replaceState(window.history.state, "", url.pathname + url.search + url.hash);
  notice(null);
  draw();
  loadSettings();
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
  const body = {
    threadId: app.sessionId,
    runId: `run-${randomId()}`,
    messages: [{ id: `msg-${randomId()}`, role: "user", content: text }],
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
  for (const tab of ["activity", "patterns"]) {
    $(`tab-${tab}`).setAttribute("aria-selected", String(tab === name));
    $(tab).hidden = tab !== name;
  }
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
  $("tab-activity").addEventListener("click", () => selectTab("activity"));
  $("tab-patterns").addEventListener("click", () => selectTab("patterns"));
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
  openSession(sessionId);
}

start();
