// Starts the real `warrant` binary (serve or stdio) in a scratch directory, and reads what it
// says: SSE frames over HTTP, JSON lines over stdio.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import assert from "node:assert/strict";
import { EventSchemas } from "@ag-ui/core/schemas";

export const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const binary = process.env.WARRANT_BIN ?? path.join(repo, "target/debug/warrant");

/** A scratch directory, removed by `remove()`. */
export function scratch() {
  const dir = mkdtempSync(path.join(tmpdir(), "warrant-agui-"));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The environment without any WARRANT_* variable of the caller, plus `extra`. */
export function cleanEnv(extra = {}) {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("WARRANT_")));
  return { ...env, ...extra };
}

/** Runs the binary to completion: its exit code, stdout and stderr. */
export async function runBinary(args, { cwd, env = {}, input } = {}) {
  const stdin = input === undefined ? "ignore" : "pipe";
  const child = spawn(binary, args, { cwd, env: cleanEnv(env), stdio: [stdin, "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (c) => (stdout += c));
  child.stderr.on("data", (c) => (stderr += c));
  if (input !== undefined) {
    // A process that exits before reading its input is judged by its exit code, not EPIPE.
    child.stdin.on("error", () => {});
    child.stdin.end(input);
  }
  const [code] = await once(child, "exit");
  return { code, stdout, stderr };
}

/** `warrant serve --addr 127.0.0.1:0` in a scratch directory; resolves once it listens. */
export async function startServe({ env = {} } = {}) {
  const { dir, remove } = scratch();
  const args = ["serve", "--addr", "127.0.0.1:0", "--data-dir", path.join(dir, "data")];
  const child = spawn(binary, args, { cwd: dir, env: cleanEnv(env), stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  const started = await new Promise((resolve, reject) => {
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
      const url = stderr.match(/warrant listening on (http:\/\/\S+)/);
      const token = stderr.match(/warrant token: (\S+)/)?.[1] ?? env.WARRANT_TOKEN;
      if (url && token) resolve({ url: url[1], token });
    });
    child.on("exit", (code) => reject(new Error(`warrant serve exited (${code}): ${stderr}`)));
  });
  assert.match(started.url, /^http:\/\/127\.0\.0\.1:\d+$/);
  return {
    ...started,
    headers: { Authorization: `Bearer ${started.token}` },
    async stop() {
      child.kill("SIGTERM");
      if (child.exitCode === null) await once(child, "exit");
      remove();
    },
  };
}

/** `warrant stdio` in a scratch directory: send lines, read events, close. */
export function startStdio() {
  const { dir, remove } = scratch();
  const args = ["stdio", "--data-dir", path.join(dir, "data")];
  const child = spawn(binary, args, { cwd: dir, env: cleanEnv(), stdio: ["pipe", "pipe", "pipe"] });
  child.stdin.on("error", () => {});
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const seen = [];
  let stderr = "";
  child.stderr.on("data", (c) => (stderr += c));
  return {
    seen,
    send(value) {
      child.stdin.write((typeof value === "string" ? value : JSON.stringify(value)) + "\n");
    },
    /** The next event written. */
    async next() {
      const { value, done } = await lines.next();
      assert.ok(!done, `stdout ended early; stderr: ${stderr}`);
      const event = JSON.parse(value);
      seen.push(event);
      return event;
    },
    /** Events up to and including the first that matches. */
    async until(match) {
      const out = [];
      for (;;) {
        const event = await this.next();
        out.push(event);
        if (match(event)) return out;
      }
    },
    /** Ends the input; resolves with the exit code and the events still written. */
    async close() {
      child.stdin.end();
      const rest = [];
      for (;;) {
        const { value, done } = await lines.next();
        if (done) break;
        rest.push(JSON.parse(value));
      }
      const code = child.exitCode ?? (await once(child, "exit"))[0];
      seen.push(...rest);
      remove();
      return { code, rest, stderr };
    },
  };
}

/** Parses an SSE body, checking its framing: LF only, each event an `id:` and one `data:` line. */
export function parseFrames(text) {
  assert.ok(!text.includes("\r"), "LF only");
  assert.ok(text === "" || text.endsWith("\n\n"), "frames end with a blank line");
  const frames = [];
  for (const frame of text.split("\n\n").slice(0, -1)) {
    const lines = frame.split("\n");
    if (lines.length === 1 && lines[0].startsWith(":")) continue;
    assert.equal(lines.length, 2, `an id line and one data line: ${JSON.stringify(frame)}`);
    assert.match(lines[0], /^id: \d+$/);
    assert.match(lines[1], /^data: \{/);
    frames.push({ id: Number(lines[0].slice(4)), event: JSON.parse(lines[1].slice(6)) });
  }
  return frames;
}

/** Posts a RunAgentInput and returns the run's frames. */
export async function postRun(server, input) {
  const response = await fetch(`${server.url}/v1/agent`, {
    method: "POST",
    headers: { ...server.headers, "Content-Type": "application/json", Accept: "text/event-stream" },
    body: JSON.stringify({ tools: [], context: [], state: {}, forwardedProps: {}, ...input }),
  });
  assert.equal(response.status, 200, await response.clone().text());
  assert.equal(response.headers.get("content-type"), "text/event-stream");
  return parseFrames(await response.text());
}

/** Opens a session's event stream and reads `count` event frames, then closes it. */
export async function readEvents(server, session, count, lastEventId) {
  const controller = new AbortController();
  const headers = { ...server.headers };
  if (lastEventId !== undefined) headers["Last-Event-ID"] = String(lastEventId);
  const response = await fetch(`${server.url}/v1/sessions/${session}/events`, { headers, signal: controller.signal });
  assert.equal(response.status, 200);
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  const frames = [];
  while (frames.length < count) {
    const { value, done } = await reader.read();
    assert.ok(!done, "the stream stays open");
    buffer += decoder.decode(value, { stream: true });
    const end = buffer.lastIndexOf("\n\n");
    if (end < 0) continue;
    frames.push(...parseFrames(buffer.slice(0, end + 2)));
    buffer = buffer.slice(end + 2);
  }
  controller.abort();
  return frames.slice(0, count);
}

/** Asserts that an event validates against @ag-ui/core's EventSchemas, unchanged. */
export function assertValid(event) {
  const parsed = EventSchemas.safeParse(event);
  assert.ok(parsed.success, `${JSON.stringify(event)}: ${parsed.error}`);
  const nulls = nullPaths(event, "");
  assert.deepEqual(nulls, [], `optional fields are left out, never null: ${JSON.stringify(event)}`);
}

function nullPaths(value, at) {
  if (value === null) return [at];
  if (typeof value !== "object") return [];
  return Object.entries(value).flatMap(([k, v]) => nullPaths(v, `${at}/${k}`));
}

/** A user message. */
export function userMessage(id, content) {
  return { id, role: "user", content };
}
