// The History tab's pure helpers: the query it sends, the export path, the link to a call,
// what a row says of each kind of record, and what it says of the audit log's chain.

import { test } from "node:test";
import assert from "node:assert/strict";
import { callHref, chainNotice, emptyFilters, exportChainNotice, exportPath, historyQuery, recordSummary, toMillis } from "../../assets/history.js";

test("the query leaves out empty filters and converts times to milliseconds", () => {
  const filters = { ...emptyFilters(), session: " s1 ", outcome: "deny", since: "2026-11-30T10:00", until: 1_800_000_000_000, q: "git push" };
  const params = new URLSearchParams(historyQuery(filters, { cursor: "42", limit: 25 }));
  assert.deepEqual([...params.keys()], ["session", "outcome", "since", "until", "q", "cursor", "limit"]);
  assert.equal(params.get("session"), "s1");
  assert.equal(params.get("since"), String(new Date("2026-11-30T10:00").getTime()));
  assert.equal(params.get("until"), "1800000000000");
  assert.equal(params.get("q"), "git push");
  assert.equal(params.get("cursor"), "42");
  assert.equal(historyQuery(emptyFilters()), "", "no filter, no parameter");
});

test("times read as milliseconds, local date-times, or nothing", () => {
  assert.equal(toMillis(""), "");
  assert.equal(toMillis(undefined), "");
  assert.equal(toMillis("1700000000000"), "1700000000000");
  assert.equal(toMillis(12.7), "12");
  assert.equal(toMillis("not a time"), "");
});

test("the export path carries the filters and the format, and the call link its session", () => {
  const path = exportPath({ ...emptyFilters(), tool: "Bash", reasonCode: "shell_*" }, "csv");
  assert.equal(path, "/v1/audit/export?tool=Bash&reasonCode=shell_*&format=csv");
  assert.equal(callHref({ sessionId: "s 1", toolCallId: "c&1" }), "?session=s+1&call=c%261");
});

test("every kind of record reads as a row", () => {
  const evaluation = recordSummary({
    seq: 3,
    kind: "evaluation",
    at: 1,
    sessionId: "s1",
    toolCallId: "c1",
    toolName: "Bash",
    decision: { behavior: "deny", source: "policy", reasonCode: "shell_destructive", reason: "rm -rf" },
  });
  assert.deepEqual(
    [evaluation.label, evaluation.tone, evaluation.source, evaluation.reasonCode, evaluation.reason, evaluation.outcome],
    ["Denied", "red", "Policy", "shell_destructive", "rm -rf", "deny"],
  );
  const classifier = recordSummary({ kind: "evaluation", decision: { behavior: "allow", source: "auto_classifier" } });
  assert.equal(classifier.source, "Security reviewer");
  const resolution = recordSummary({ kind: "resolution", toolName: "Write", resolution: { behavior: "allow", actionId: "allow_session" } });
  assert.deepEqual([resolution.label, resolution.tone, resolution.source, resolution.reasonCode], ["You allowed", "green", "You", "allow_session"]);
  assert.equal(recordSummary({ kind: "expiry", reason: "timed out" }).reason, "timed out");
  assert.equal(recordSummary({ kind: "cancel", reason: "agent left" }).label, "Cancelled");
  assert.equal(recordSummary({ kind: "grant_revoked", description: "git push" }).label, "Grant revoked");
  assert.equal(recordSummary({ kind: "something_new" }).label, "something_new", "an unknown kind still shows");
});

test("a broken chain is said plainly, with what is withheld", () => {
  const broken = chainNotice({
    status: "broken",
    verified: false,
    verifiedThrough: 4,
    firstBad: { seq: 5, problem: "edited", detail: "its keyed hash does not match" },
  });
  assert.equal(broken.level, "error");
  assert.match(broken.text, /record 5 was edited/);
  assert.match(broken.text, /Only records 1 to 4 are shown/);
  assert.match(broken.text, /warrant audit --verify/);
  const none = chainNotice({ status: "broken", verifiedThrough: 0, firstBad: { seq: 1, problem: "missing" } });
  assert.match(none.text, /record 1 is missing.*No record is shown/);
  assert.equal(chainNotice({ status: "unanchored", firstBad: { seq: 9, problem: "unanchored" } }).level, "warning");
  const intact = chainNotice({ status: "intact", verified: true, keyed: true, checked: 7, verifiedThrough: 7 });
  assert.deepEqual(intact, { level: "ok", text: "Audit log verified: 7 records, through record 7." });
  const unkeyed = chainNotice({ status: "intact", keyed: false, checked: 2, verifiedThrough: 2 });
  assert.match(unkeyed.text, /no keyed chain, so an edited record cannot be told from the original/);
  assert.equal(unkeyed.level, "warning");
  // Keyed, with older records only on the unkeyed chain: not "no keyed chain", the legacy part named.
  const legacy = chainNotice({ status: "intact", keyed: true, legacyRecords: 3, checked: 9, verifiedThrough: 9 });
  assert.equal(legacy.level, "warning");
  assert.doesNotMatch(legacy.text, /no keyed chain/);
  assert.match(legacy.text, /with the audit key from record 4 on/);
  assert.match(legacy.text, /Records 1 to 3 predate the keyed chain/);
  assert.equal(chainNotice(undefined).level, "warning");
});

test("an export's chain header is said when the log did not verify whole", () => {
  assert.equal(exportChainNotice("intact; verified-through=12", "csv"), null);
  const broken = exportChainNotice("broken; verified-through=4; first-bad=5; problem=missing", "csv");
  assert.equal(broken.level, "error");
  assert.equal(
    broken.text,
    "The audit log is broken at record 5 (missing): the CSV export holds only records 1 to 4, and says so in the file; run `warrant audit --verify`.",
  );
  assert.match(exportChainNotice("broken; verified-through=0; first-bad=1; problem=edited", "jsonl").text, /JSON lines export holds no record/);
  assert.equal(exportChainNotice("unanchored; verified-through=9", "csv").level, "warning");
  assert.match(exportChainNotice(null, "csv").text, /did not say whether the audit log verified/);
});
