// The settings helpers: tool ids straight from the catalog, lists kept in catalog order.
import { test } from "node:test";
import assert from "node:assert/strict";
import { checkpointState, checkpointText, grantKeyText, grantList, patternOf, toggledIds, toolList, withToolCallCheckpoints } from "../../assets/settings.js";
import { adoptToken } from "../../assets/api.js";

const tools = [{ id: "Bash" }, { id: "view" }, { id: "git.status" }, { id: "lsp_ts_hover" }];

test("the tool list is read from either answer shape, and items without an id are dropped", () => {
  assert.deepStrictEqual(toolList(tools), tools);
  assert.deepStrictEqual(toolList({ tools }), tools);
  assert.deepStrictEqual(toolList([{ label: "no id" }, null, { id: "" }, { id: "view" }]), [{ id: "view" }]);
  assert.deepStrictEqual(toolList(null), []);
});

test("toggling keeps catalog order and drops ids the catalog no longer offers", () => {
  assert.deepStrictEqual(toggledIds(tools, ["lsp_ts_hover"], "Bash", true), ["Bash", "lsp_ts_hover"]);
  assert.deepStrictEqual(toggledIds(tools, ["Bash", "gone"], "Bash", false), []);
  assert.deepStrictEqual(toggledIds(tools, [], "git.status", true), ["git.status"]);
});

test("a session's pattern is its own, else the default, else the first", () => {
  const workspace = { patterns: [{ id: "a" }, { id: "default" }] };
  assert.equal(patternOf(workspace, { patternId: "a" }).id, "a");
  assert.equal(patternOf(workspace, { patternId: "missing" }).id, "default");
  assert.equal(patternOf(workspace, undefined).id, "default");
  assert.equal(patternOf({ patterns: [{ id: "only" }] }, undefined).id, "only");
  assert.equal(patternOf(null, undefined), null);
});

function fakeWindow(href) {
  const url = new URL(href);
  const store = new Map();
  const win = {
    location: { hash: url.hash, pathname: url.pathname, search: url.search },
    sessionStorage: { getItem: (k) => store.get(k) ?? null, setItem: (k, v) => store.set(k, v), removeItem: (k) => store.delete(k) },
    history: { state: null, replaceState: (_s, _t, next) => { win.replaced = next; } },
  };
  return win;
}

test("the token moves from the fragment to sessionStorage and out of the address", () => {
  const win = fakeWindow("http://127.0.0.1:7878/?session=s#token=abc&x=1");
  assert.equal(adoptToken(win), "abc");
  assert.equal(win.sessionStorage.getItem("warrant.token"), "abc");
  assert.equal(win.replaced, "/?session=s#x=1");
  const later = fakeWindow("http://127.0.0.1:7878/?session=s");
  later.sessionStorage.setItem("warrant.token", "kept");
  assert.equal(adoptToken(later), "kept");
  assert.equal(later.replaced, undefined);
});

test("checkpoints are on for every agent, some agents, or off, and toggling keeps other checkpoints", () => {
  const pattern = (rules) => ({ id: "p", approvalPolicy: { rules, autoApprovedToolNames: ["view"] } });
  assert.deepStrictEqual(checkpointState(pattern([{ kind: "tool-call" }])), { on: true, agents: null });
  assert.deepStrictEqual(checkpointState(pattern([{ kind: "tool-call", agentIds: ["a", "b"] }])), { on: true, agents: ["a", "b"] });
  assert.deepStrictEqual(checkpointState(pattern([{ kind: "final-response" }])), { on: false, agents: null });
  assert.deepStrictEqual(checkpointState({}), { on: false, agents: null });
  const both = pattern([{ kind: "final-response" }, { kind: "tool-call", agentIds: ["a"] }]);
  assert.deepStrictEqual(withToolCallCheckpoints(both, false), [{ kind: "final-response" }]);
  assert.deepStrictEqual(withToolCallCheckpoints(both, true), [{ kind: "final-response" }, { kind: "tool-call" }]);
  assert.match(checkpointText({ on: false, agents: null }), /^Approvals off/);
});

test("grants are read from the answer and their keys written as rules", () => {
  assert.deepStrictEqual(grantList({ grants: [{ id: "grt_1" }, { id: "" }, null] }), [{ id: "grt_1" }]);
  assert.deepStrictEqual(grantList(null), []);
  assert.equal(grantKeyText({ toolName: "Bash", specifier: "git push origin main" }), "Bash(git push origin main)");
  assert.equal(grantKeyText({ toolName: "view" }), "view");
});
