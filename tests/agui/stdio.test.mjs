// `warrant stdio`: every line written is one AG-UI event that validates against EventSchemas;
// malformed lines get a RUN_ERROR and serving goes on; the end of the input exits 0.
import { test } from "node:test";
import assert from "node:assert/strict";
import { assertValid, startStdio } from "./harness.mjs";

const call = (toolCallId, toolName, input, extra = {}) => ({
  type: "tool_call",
  sessionId: "stdio-1",
  toolCallId,
  toolName,
  input,
  ...extra,
});
const named = (name, id) => (e) => e.type === "CUSTOM" && e.name === name && e.value.toolCallId === id;

test("tool calls, approvals, results and settings over stdio, every line a valid event", async () => {
  const stdio = startStdio();
  stdio.send(call("read-1", "view", { path: "README.md" }));
  const read = await stdio.until(named("tool_permission_decision", "read-1"));
  assert.deepEqual(read.map((e) => e.type), ["TOOL_CALL_START", "TOOL_CALL_ARGS", "TOOL_CALL_END", "CUSTOM"]);
  assert.equal(read.at(-1).value.behavior, "allow");
  stdio.send({ type: "tool_result", toolCallId: "read-1", content: "# readme" });
  assert.equal((await stdio.next()).type, "TOOL_CALL_RESULT");

  stdio.send(call("push-1", "Bash", { command: "git push origin main" }));
  await stdio.until(named("tool_approval_request", "push-1"));
  // The pending approval does not hold up later lines.
  stdio.send(call("wipe-1", "Bash", { command: "rm -rf /" }));
  const wipe = await stdio.until(named("tool_permission_decision", "wipe-1"));
  assert.equal(wipe.at(-1).value.behavior, "deny");
  stdio.send({ type: "approval", toolCallId: "push-1", actionId: "allow_once" });
  const resolution = await stdio.until(named("tool_permission_resolution", "push-1"));
  assert.equal(resolution.at(-1).value.behavior, "allow");

  stdio.send(call("write-1", "Write", { path: "notes.md", content: "x" }, { mode: "full_access" }));
  const write = await stdio.until(named("tool_permission_decision", "write-1"));
  assert.equal(write.at(-1).value.source, "full_access");

  stdio.send({ type: "session_settings", sessionId: "stdio-1", autoApprovedToolNames: ["view"] });
  const settings = await stdio.next();
  assert.equal(settings.name, "session_approval_settings");

  const { code } = await stdio.close();
  assert.equal(code, 0);
  stdio.seen.forEach(assertValid);
});

test("malformed lines are answered with a RUN_ERROR naming the problem, and serving goes on", async () => {
  const stdio = startStdio();
  const cases = [
    ["{not json", "invalid_json"],
    [JSON.stringify({ type: "teleport" }), "unknown_type"],
    [JSON.stringify({ type: "tool_call", sessionId: "s" }), "invalid_line"],
    [JSON.stringify({ type: "approval", toolCallId: "ghost", actionId: "deny" }), "approval_not_found"],
  ];
  for (const [line, code] of cases) {
    stdio.send(line);
    const error = await stdio.next();
    assert.equal(error.type, "RUN_ERROR");
    assert.equal(error.code, code, JSON.stringify(error));
    assert.ok(error.message.length > 0);
  }
  stdio.send(call("after-1", "view", { path: "a.txt" }));
  await stdio.until(named("tool_permission_decision", "after-1"));
  const { code } = await stdio.close();
  assert.equal(code, 0);
  stdio.seen.forEach(assertValid);
});
