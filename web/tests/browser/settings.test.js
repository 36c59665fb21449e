// Seed 002's UX: the pattern editor and the activity panel, with tool ids from the catalog.

import { test } from "node:test";
import assert from "node:assert/strict";
import { api, ask, newPage, openSession, screenshot, toolCall, until, serverAndBrowser } from "./support.js";

let catalog;
const env = serverAndBrowser(async ({ server }) => {
  const { body } = await api(server, "/v1/tools");
  catalog = Array.isArray(body) ? body : body.tools;
});

async function session(id) {
  const { body } = await api(env.server, "/v1/workspace");
  return body.sessions.find((s) => s.id === id);
}

test("the pattern editor has one toggle per tool of GET /v1/tools, and saves the pattern's defaults", async () => {
  const page = await newPage(env.browser);
  await openSession(page, env.server, "patterns");
  await page.locator("#tab-patterns").click();
  const toggles = page.locator("#patterns [data-list=pattern] input[type=checkbox]");
  await toggles.first().waitFor();
  const ids = await toggles.evaluateAll((els) => els.map((e) => e.dataset.toolId));
  assert.deepStrictEqual(ids, catalog.map((t) => t.id));
  const labels = await page.locator("#patterns .toggle-label").allTextContents();
  assert.deepStrictEqual(labels, catalog.map((t) => t.label || t.id));
  const target = catalog[1] ?? catalog[0];
  const saved = page.waitForResponse((r) => r.url().endsWith("/v1/patterns/default") && r.request().method() === "PUT");
  await page.locator(`#patterns input[data-tool-id="${target.id}"]`).check();
  assert.equal((await saved).status(), 200);
  const pattern = await until(async () => {
    const { body } = await api(env.server, "/v1/patterns");
    const list = Array.isArray(body) ? body : body.patterns;
    const p = list.find((x) => x.id === "default");
    return p.approvalPolicy.autoApprovedToolNames?.includes(target.id) && p;
  }, "the saved default");
  assert.deepStrictEqual(pattern.approvalPolicy.autoApprovedToolNames, [target.id]);
  await screenshot(page.locator(".panel"), "pattern-editor");
  // Uncheck again so other tests see the built-in default.
  await page.locator(`#patterns input[data-tool-id="${target.id}"]`).uncheck();
  await until(async () => {
    const { body } = await api(env.server, "/v1/patterns");
    const list = Array.isArray(body) ? body : body.patterns;
    return (list.find((x) => x.id === "default").approvalPolicy.autoApprovedToolNames ?? []).length === 0;
  }, "the default restored");
  assert.deepStrictEqual(page.problems, []);
});

test("the activity panel inherits, customizes per tool, and resets to the pattern", async () => {
  const page = await newPage(env.browser);
  await openSession(page, env.server, "activity");
  // A session has settings once it has run.
  await page.locator("#activity [data-note=no-session]").waitFor();
  await ask(page, "read");
  await page.locator("#composer-send:enabled").waitFor();
  const status = page.locator("#activity .settings-status");
  await status.filter({ hasText: "Inheriting pattern defaults" }).waitFor();
  assert.equal(await page.locator("#activity .reset-to-pattern").isDisabled(), true);
  const ids = await page.locator("#activity [data-list=session] input").evaluateAll((els) => els.map((e) => e.dataset.toolId));
  assert.deepStrictEqual(ids, catalog.map((t) => t.id));
  await page.locator('#activity input[data-tool-id="Bash"]').check();
  await status.filter({ hasText: "Custom for this session" }).waitFor();
  assert.deepStrictEqual((await session("activity")).approvalSettings, { autoApprovedToolNames: ["Bash"] });
  await screenshot(page.locator(".panel"), "activity-custom");
  // The override takes effect: the push is now allowed by the rule, without a prompt.
  await ask(page, "push");
  await toolCall(page, "Bash").locator(".badge", { hasText: "Auto-approved by your settings" }).waitFor();
  await page.locator("#composer-send:enabled").waitFor();
  // Unchecking the last tool keeps an explicit, empty override.
  await page.locator('#activity input[data-tool-id="Bash"]').uncheck();
  await until(async () => (await session("activity")).approvalSettings?.autoApprovedToolNames?.length === 0, "an empty override");
  assert.equal(await status.textContent(), "Custom for this session");
  await page.locator("#activity .reset-to-pattern").click();
  await status.filter({ hasText: "Inheriting pattern defaults" }).waitFor();
  assert.equal((await session("activity")).approvalSettings, undefined);
  await screenshot(page.locator(".panel"), "activity-inheriting");
  assert.deepStrictEqual(page.problems, []);
});

test("the session's controls are disabled while it runs", async () => {
  const page = await newPage(env.browser);
  await openSession(page, env.server, "running");
  await ask(page, "push");
  await page.locator("#dock").waitFor();
  await page.locator('#activity [data-note=running]').waitFor();
  for (const input of await page.locator("#activity input[type=checkbox]").all()) assert.equal(await input.isDisabled(), true);
  assert.equal(await page.locator("#activity .reset-to-pattern").isDisabled(), true);
  await screenshot(page.locator(".panel"), "activity-running");
  await page.locator("#dock [data-action-id=allow_once]").click();
  await page.locator("#composer-send:enabled").waitFor();
  await page.locator("#activity [data-note=running]").waitFor({ state: "detached" });
  for (const input of await page.locator("#activity input[type=checkbox]").all()) assert.equal(await input.isDisabled(), false);
  assert.deepStrictEqual(page.problems, []);
});

test("a scratchpad session shows a non-interactive explanation", async () => {
  const page = await newPage(env.browser);
  // The workspace as a server holding a scratchpad session reports it.
  await page.route("**/v1/workspace", async (route) => {
    const response = await route.fetch();
    const workspace = await response.json();
    workspace.sessions = [...workspace.sessions.filter((s) => s.id !== "pad"), { id: "pad", patternId: "default", kind: "scratchpad", status: "idle" }];
    await route.fulfill({ response, json: workspace });
  });
  await openSession(page, env.server, "pad");
  const note = page.locator("#activity [data-note=scratchpad]");
  await note.waitFor();
  assert.match(await note.textContent(), /Scratchpad sessions cannot auto-approve tools/);
  assert.equal(await page.locator("#activity input, #activity button").count(), 0);
  await screenshot(page.locator(".panel"), "activity-scratchpad");
  assert.deepStrictEqual(page.problems, []);
});

test("a rejected change shows the server's error and leaves the toggles as the server has them", async () => {
  const page = await newPage(env.browser);
  await page.route("**/v1/sessions/rejected/approval-settings", (route) =>
    route.fulfill({ status: 409, json: { error: { code: "session_running", message: "session \"rejected\" is running: its approval settings cannot change" } } }),
  );
  await openSession(page, env.server, "rejected");
  await ask(page, "read");
  await page.locator('#activity input[data-tool-id="Bash"]').waitFor();
  // A plain click: the switch must fall back, which `check()` would keep retrying.
  await page.locator('#activity input[data-tool-id="Bash"]').click();
  await page.locator("#activity .error", { hasText: "is running" }).waitFor();
  assert.equal(await page.locator('#activity input[data-tool-id="Bash"]').isChecked(), false);
  assert.equal(await page.locator("#activity .settings-status").textContent(), "Inheriting pattern defaults");
  assert.deepStrictEqual(page.problems, []);
});
