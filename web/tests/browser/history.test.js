// The History tab: the audit log newest first, filtered and paged, each record opening its
// call in its session, exports of what the filters select, and a broken chain said plainly.

import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { TOKEN, api, newPage, openSession, screenshot, serverAndBrowser } from "./support.js";

const env = serverAndBrowser();

/** Posts a sidecar tool call and returns its decision. */
async function decide(session, toolName, input) {
  const { status, body } = await api(env.server, `/v1/sessions/${session}/tool-calls`, { method: "POST", body: { toolName, input } });
  assert.equal(status, 200, JSON.stringify(body));
  return body;
}

/** The seqs of the rows shown, in order. */
async function rowSeqs(page) {
  return page.locator("#history .history-item").evaluateAll((items) => items.map((i) => Number(i.dataset.seq)));
}

/** Sets the filter form's fields and applies it; waits for the page that answers. */
async function applyFilters(page, fields) {
  const form = page.locator("#history-filters");
  for (const [name, value] of Object.entries(fields)) {
    const field = form.locator(`[name="${name}"]`);
    if ((await field.evaluate((el) => el.tagName)) === "SELECT") await field.selectOption(value);
    else await field.fill(value);
  }
  const answered = page.waitForResponse((r) => r.url().includes("/v1/audit?") || r.url().endsWith("/v1/audit"));
  await form.locator(".history-apply").click();
  await answered;
  await page.locator("#history .history-apply:enabled").waitFor();
}

/** Clicks an export button and returns the downloaded file's name and text. */
async function exported(page, button) {
  const download = page.waitForEvent("download");
  await page.locator(button).click();
  const file = await download;
  return { name: file.suggestedFilename(), text: readFileSync(await file.path(), "utf8") };
}

test("the history lists decisions newest first, filters, pages, exports and opens a call", async () => {
  const view = await decide("hist-a", "view", { path: "a.txt" });
  const denied = await decide("hist-a", "Bash", { command: "rm -rf /" });
  assert.equal(denied.behavior, "deny");
  for (let i = 0; i < 12; i += 1) await decide("hist-b", "view", { path: `file-${i}.txt` });

  const page = await newPage(env.browser);
  await openSession(page, env.server, "elsewhere");
  await page.locator("#tab-history").click();
  await page.locator("#history .history-item").first().waitFor();
  assert.deepEqual(await rowSeqs(page), [14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1], "newest first");
  const chain = page.locator("#history .history-chain");
  assert.equal(await chain.getAttribute("data-level"), "ok");
  assert.equal(await chain.textContent(), "Audit log verified: 14 records, through record 14.");
  await screenshot(page.locator(".panel"), "history-tab");

  // One filter: the denial alone, with what decided it.
  await applyFilters(page, { outcome: "deny" });
  assert.deepEqual(await rowSeqs(page), [2]);
  const row = page.locator("#history .history-item").first();
  assert.equal(await row.locator(".history-outcome").textContent(), "Denied");
  assert.equal(await row.locator(".history-tool").textContent(), "Bash");
  assert.equal(await row.locator(".history-code").textContent(), "shell_destructive");
  assert.match(await row.locator(".history-why").textContent(), /^Policy · shell_destructive$/);
  assert.match(await row.locator(".history-call").textContent(), new RegExp(`^#2 · hist-a · ${denied.toolCallId}$`));

  // The export carries the filters: one row, escaped, newest first.
  const csv = await exported(page, "#history .history-export-csv");
  assert.equal(csv.name, "warrant-audit.csv");
  const lines = csv.text.trimEnd().split("\r\n");
  assert.equal(lines.length, 3, csv.text);
  assert.equal(lines[0], "# chain: intact; verified-through=14", "the file says the log verified");
  lines.shift();
  assert.equal(await page.locator("#history .history-export-chain").count(), 0, "nothing to warn of");
  assert.match(lines[0], /^seq,time,at,sessionId,toolCallId,toolName,kind,outcome,source,reasonCode,/);
  assert.match(lines[1], new RegExp(`^2,[^,]+,\\d+,hist-a,${denied.toolCallId},Bash,evaluation,deny,policy,shell_destructive,`));

  // Filters combine; text and session narrow further; nothing matching says so.
  await applyFilters(page, { outcome: "", session: "hist-b", q: "FILE-1" });
  assert.deepEqual(await rowSeqs(page), [14, 13, 4], "file-11, file-10, file-1");
  await applyFilters(page, { q: "no such text" });
  await page.locator('#history [data-note="history-empty"]').waitFor();

  // Paging: ten a page, then the rest; back to the newest.
  await applyFilters(page, { session: "", q: "", limit: "10" });
  assert.deepEqual(await rowSeqs(page), [14, 13, 12, 11, 10, 9, 8, 7, 6, 5]);
  assert.equal(await page.locator("#history .history-newer").isDisabled(), true);
  await page.locator("#history .history-older").click();
  await page.locator('#history .history-item[data-seq="4"]').waitFor();
  assert.deepEqual(await rowSeqs(page), [4, 3, 2, 1]);
  assert.equal(await page.locator("#history .history-older").isDisabled(), true, "the last page");
  await page.locator("#history .history-newer").click();
  await page.locator('#history .history-item[data-seq="14"]').waitFor();

  const jsonl = await exported(page, "#history .history-export-jsonl");
  const records = jsonl.text.trimEnd().split("\n").map((l) => JSON.parse(l));
  assert.equal(records.length, 15, "every record and the chain's line");
  assert.deepEqual(records.at(-1).chain.status, "intact");
  assert.ok(records.every((r) => !("input" in r)), "inputs never reach an export");

  // A record opens its call, unfolded, in its session.
  await applyFilters(page, { tool: "view", session: "hist-a", limit: "25" });
  assert.deepEqual(await rowSeqs(page), [1]);
  await page.locator("#history .history-call").click();
  await page.waitForFunction(() => document.querySelector("#session-input")?.value === "hist-a");
  const call = page.locator(`details.tool[data-tool-call-id="${view.toolCallId}"]`);
  await call.and(page.locator('[data-focused="true"]')).waitFor();
  assert.equal(await call.evaluate((d) => d.open), true);
  const url = new URL(page.url());
  assert.equal(url.searchParams.get("session"), "hist-a");
  assert.equal(url.searchParams.get("call"), view.toolCallId);
  await screenshot(page, "history-opened-call");

  // The link is an address too: loaded on its own, it opens the same call.
  const direct = await newPage(env.browser);
  await direct.goto(`${env.server.url}/?session=hist-a&call=${encodeURIComponent(denied.toolCallId)}#token=${TOKEN}`);
  await direct.locator(`details.tool[data-tool-call-id="${denied.toolCallId}"][data-focused="true"]`).waitFor();
  assert.deepStrictEqual(page.problems, []);
  assert.deepStrictEqual(direct.problems, []);
});

function hasSqlite3() {
  try {
    execFileSync("sqlite3", ["-version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

test("an edited record breaks the chain: the history says so and shows only what verified", { skip: !hasSqlite3() && "needs the sqlite3 command to edit the database" }, async () => {
  await decide("tamper", "view", { path: "one.txt" });
  await decide("tamper", "view", { path: "two.txt" });
  const { body } = await api(env.server, "/v1/audit?session=tamper");
  const [newest, older] = body.records;
  // Edit the older of the two records behind the server's back.
  execFileSync("sqlite3", [join(env.server.dataDir, "warrant.db"), `UPDATE audit SET record = replace(record, '"allow"', '"deny"') WHERE seq = ${older.seq}`]);

  const page = await newPage(env.browser);
  await openSession(page, env.server, "tamper");
  await page.locator("#tab-history").click();
  const chain = page.locator('#history .history-chain[data-level="error"]');
  await chain.waitFor();
  const text = await chain.textContent();
  assert.match(text, new RegExp(`The audit log is broken: record ${older.seq} was edited`));
  assert.match(text, new RegExp(`Only records 1 to ${older.seq - 1} are shown`));
  assert.equal(await chain.getAttribute("role"), "alert");
  const seqs = await rowSeqs(page);
  assert.ok(seqs.length > 0 && seqs.every((s) => s < older.seq), `only verified records: ${seqs}`);
  assert.ok(!seqs.includes(newest.seq));
  await screenshot(page.locator(".panel"), "history-broken-chain");

  // An export says so in the file, and the view says so after the download.
  const csv = await exported(page, "#history .history-export-csv");
  const first = csv.text.split("\r\n")[0];
  assert.equal(first, `# chain: broken; verified-through=${older.seq - 1}; first-bad=${older.seq}; problem=edited`);
  const notice = page.locator('#history .history-export-chain[data-level="error"]');
  await notice.waitFor();
  assert.match(await notice.textContent(), new RegExp(`broken at record ${older.seq} \\(edited\\): the CSV export holds only records 1 to ${older.seq - 1}`));
  assert.deepStrictEqual(page.problems, []);
});
