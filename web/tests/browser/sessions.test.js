// The sessions list: sessions an agent's hook or a sidecar started show the agent and the
// directory it works in, whether they are running, and open with one click.

import { test } from "node:test";
import assert from "node:assert/strict";
import { api, newPage, openSession, screenshot, serverAndBrowser } from "./support.js";

const env = serverAndBrowser();

test("a hook's session shows its agent, its directory and its state, and opens", async () => {
  const started = await api(env.server, "/v1/sessions/claude-s1/run", {
    method: "POST",
    body: { action: "start", agent: "claude-code", cwd: "/home/me/project" },
  });
  assert.equal(started.status, 200);
  assert.equal(started.body.agent, "claude-code");
  const refused = await api(env.server, "/v1/sessions/claude-s2/run", {
    method: "POST",
    body: { action: "start", agent: "x".repeat(129) },
  });
  assert.equal(refused.status, 422);
  assert.match(refused.body.error.message, /agent must be at most 128 characters/);

  const page = await newPage(env.browser);
  await openSession(page, env.server, "mine");
  await page.locator("#tab-sessions").click();
  const item = page.locator('#sessions .session-item[data-session-id="claude-s1"]');
  await item.waitFor();
  assert.equal(await item.locator(".session-agent").textContent(), "Agent: claude-code");
  assert.equal(await item.locator(".session-cwd").textContent(), "In /home/me/project");
  assert.equal(await item.locator(".session-status").textContent(), "Running");
  await screenshot(page.locator("#sessions"), "sessions-list");

  await api(env.server, "/v1/sessions/claude-s1/run", { method: "POST", body: { action: "finish" } });
  await page.locator("#tab-activity").click();
  await page.locator("#tab-sessions").click();
  await item.locator(".session-status", { hasText: "Idle" }).waitFor();
  assert.equal(await item.locator(".session-agent").textContent(), "Agent: claude-code", "finishing keeps who ran it");
  await item.locator("button.open-session").click();
  await page.waitForFunction(() => document.querySelector("#session-input")?.value === "claude-s1");
});
