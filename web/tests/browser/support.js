// What the browser tests share: Debian's Chromium driven by playwright-core, the real
// `warrant serve` binary on a free loopback port, and the page helpers.

import { execFileSync, spawn } from "node:child_process";
import { after, before } from "node:test";
import { mkdirSync, mkdtempSync, rmSync, existsSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { chromium } from "playwright-core";
import { SseParser } from "../../assets/sse.js";

export const ROOT = resolve(new URL("../../..", import.meta.url).pathname);
export const OUTPUT = join(ROOT, "test-output", "web");
export const TOKEN = "browser-test-token-0123456789";

/** The Chromium on PATH (run-tests.sh installs Debian's `chromium` when it is missing). */
export function chromiumPath() {
  for (const name of ["chromium", "chromium-browser"]) {
    try {
      return execFileSync("sh", ["-c", `command -v ${name}`], { encoding: "utf8" }).trim();
    } catch {
      // Not this name.
    }
  }
  throw new Error("chromium is not on PATH: run web/run-tests.sh, which installs Debian's chromium");
}

/** Launches headless Chromium; never downloads a browser. */
export function launchBrowser() {
  return chromium.launch({
    executablePath: chromiumPath(),
    headless: true,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--no-first-run",
      "--disable-sync",
      "--disable-quic",
    ],
  });
}

/** The warrant binary under test (`WARRANT_BIN`, else target/debug/warrant). */
export function warrantBinary() {
  const bin = process.env.WARRANT_BIN ? resolve(process.env.WARRANT_BIN) : join(ROOT, "target", "debug", "warrant");
  if (!existsSync(bin)) throw new Error(`${bin} does not exist: build it with cargo build -p warrant`);
  return bin;
}

/**
 * Starts `warrant serve` on 127.0.0.1, port 0, with a fresh data dir and workspace (or the
 * given ones, which are kept when it stops), and waits until it prints its address and
 * answers /healthz. `files` are written into the workspace first (`warrant.toml`, rule
 * files). Returns `{url, dataDir, workspace, stop}`.
 */
export async function startServer({ env = {}, dataDir, workspace: workspaceDir, files = {} } = {}) {
  const home = mkdtempSync(join(tmpdir(), "warrant-web-"));
  const data = dataDir ?? join(home, "data");
  const workspace = workspaceDir ?? join(home, "workspace");
  mkdirSync(workspace, { recursive: true });
  for (const [name, content] of Object.entries(files)) writeFileSync(join(workspace, name), content);
  const child = spawn(warrantBinary(), ["serve", "--addr", "127.0.0.1:0", "--data-dir", data], {
    cwd: workspace,
    env: { ...process.env, WARRANT_TOKEN: TOKEN, WARRANT_LOG: process.env.WARRANT_LOG ?? "warn", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const url = await new Promise((resolveUrl, reject) => {
    const timer = setTimeout(() => reject(new Error(`warrant serve printed no address in 30 s:\n${output}`)), 30_000);
    const read = (chunk) => {
      output += chunk;
      const match = output.match(/http:\/\/127\.0\.0\.1:(\d+)/);
      if (match && match[1] !== "0") {
        clearTimeout(timer);
        resolveUrl(`http://127.0.0.1:${match[1]}`);
      }
    };
    child.stdout.setEncoding("utf8").on("data", read);
    child.stderr.setEncoding("utf8").on("data", read);
    child.on("error", (e) => {
      clearTimeout(timer);
      reject(new Error(`warrant serve could not start: ${e.message}`));
    });
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`warrant serve exited with ${code}:\n${output}`));
    });
  });
  await until(async () => (await fetch(`${url}/healthz`)).ok, "the server to answer /healthz");
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      await exited;
    }
    rmSync(home, { recursive: true, force: true });
  };
  return { url, dataDir: data, workspace, stop, output: () => output };
}

/**
 * Starts a server and a browser before a test file's tests (then runs `ready(env)`, when
 * given) and stops them after: returns the object whose `server` and `browser` the tests use.
 */
export function serverAndBrowser(ready, options) {
  const env = {};
  before(async () => {
    env.server = await startServer(options);
    env.browser = await launchBrowser();
    await ready?.(env);
  });
  after(async () => {
    await env.browser?.close();
    await env.server?.stop();
  });
  return env;
}

/** Polls `check` until it returns a truthy value (or 15 s pass). */
export async function until(check, what, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  let last;
  for (;;) {
    try {
      const value = await check();
      if (value) return value;
    } catch (e) {
      last = e;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${last ? `: ${last.message}` : ""}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Calls the server's API as a test (not through the page). */
export async function api(server, path, { method = "GET", body } = {}) {
  const response = await fetch(server.url + path, {
    method,
    headers: { Authorization: `Bearer ${TOKEN}`, "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

/**
 * A new page at a viewport, recording uncaught page errors and console errors so tests can
 * assert there were none.
 */
export async function newPage(browser, { width = 1280, height = 720 } = {}) {
  const context = await browser.newContext({ viewport: { width, height } });
  const page = await context.newPage();
  page.problems = [];
  page.on("pageerror", (e) => page.problems.push(`pageerror: ${e.message}`));
  page.on("console", (m) => {
    if (m.type() === "error" && !m.text().startsWith("Failed to load resource")) page.problems.push(`console: ${m.text()}`);
  });
  page.on("dialog", (d) => {
    page.problems.push(`dialog: ${d.message()}`);
    d.dismiss();
  });
  return page;
}

/** Opens the UI on a session, handing it the token in the URL fragment. */
export async function openSession(page, server, session) {
  await page.goto(`${server.url}/?session=${encodeURIComponent(session)}#token=${TOKEN}`);
  await page.locator("#connection[data-state=live]").waitFor();
}

/** Sends a message to the demo agent through the composer. */
export async function ask(page, text) {
  await page.locator("#composer-input").fill(text);
  await page.locator("#composer-send").click();
}

/** The collapsed call of a tool, by its position among that tool's calls (0 first). */
export function toolCall(page, toolName, nth = 0) {
  return page.locator("details.tool").filter({ has: page.locator(".tool-name", { hasText: new RegExp(`^${toolName}$`) }) }).nth(nth);
}

/** The text of the rows of an expanded call's section, as `{label: value}`. */
export async function sectionRows(call, sectionClass) {
  const section = call.locator(`section.${sectionClass}`);
  const labels = await section.locator("dt").allTextContents();
  const values = await section.locator("dd").allTextContents();
  return Object.fromEntries(labels.map((l, i) => [l, values[i]]));
}

/** Writes a screenshot under test-output/web. */
export async function screenshot(target, name) {
  mkdirSync(OUTPUT, { recursive: true });
  await target.screenshot({ path: join(OUTPUT, `${name}.png`) });
}

/**
 * A session's logged events as SSE text, read by the test itself from the start of the log
 * up to and including the first event for which `last(event)` is true.
 */
export async function framesUntil(server, session, last) {
  const controller = new AbortController();
  const response = await fetch(`${server.url}/v1/sessions/${session}/events`, {
    headers: { Authorization: `Bearer ${TOKEN}` },
    signal: controller.signal,
  });
  const parser = new SseParser();
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return text;
      for (const frame of parser.feed(decoder.decode(value, { stream: true }))) {
        text += `id: ${frame.id}\ndata: ${frame.data}\n\n`;
        if (last(JSON.parse(frame.data))) return text;
      }
    }
  } finally {
    controller.abort();
  }
}
