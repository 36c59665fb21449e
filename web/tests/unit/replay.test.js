// Policy replay's helpers: the request body and the sentences of a report.
import { test } from "node:test";
import assert from "node:assert/strict";
import { chainNote, fromText, notesOf, replayBody, summaryText } from "../../assets/replay.js";

test("the body carries the proposal and the filters, leaving blank values out", () => {
  assert.deepStrictEqual(replayBody({ config: "  ", patterns: [], session: " ", since: "" }), {});
  assert.deepStrictEqual(
    replayBody({ config: "mode = \"auto\"\n", patterns: [{ id: "default" }], session: " s1 ", since: "2026-11-30 " }),
    { config: "mode = \"auto\"\n", patterns: [{ id: "default" }], session: "s1", since: "2026-11-30" },
  );
});

test("the summary counts the calls by the behaviour they would now get", () => {
  assert.equal(summaryText({ replayed: 1, changed: 0 }), "1 recorded call decided again: none would be decided differently.");
  assert.equal(
    summaryText({ replayed: 5, changed: 3, now: { allowed: 0, asked: 2, denied: 1 } }),
    "5 recorded calls decided again: 3 would be decided differently (2 now asked, 1 now denied).",
  );
  assert.equal(fromText({ allow: 2, deny: 1 }), "2 from allow, 1 from deny");
});

test("the notes say what was unchanged, skipped or cut off", () => {
  assert.deepStrictEqual(notesOf({ unchanged: 4 }), ["4 unchanged."]);
  assert.deepStrictEqual(notesOf({ unchanged: 4, reasonChanged: 1, skipped: { no_input: 2 }, limited: true }), [
    "4 unchanged (1 for another reason).",
    "2 calls skipped: the chat keeps no input for them.",
    "Only the newest recorded calls were read: narrow with a session or a date.",
  ]);
});

test("calls left to the model reviewer are said apart from calls with no input", () => {
  assert.deepStrictEqual(notesOf({ unchanged: 1, skipped: { no_input: 1, needs_reviewer: 2 }, needsReviewer: 2 }), [
    "1 unchanged.",
    "1 call skipped: the chat keeps no input for them.",
    "2 calls not decided: the model reviewer would review them, and a preview never calls it (run warrant replay --with FILE to include them).",
  ]);
});

test("a chain that did not verify is said, with how far the replay went", () => {
  assert.equal(chainNote({ status: "intact", verifiedThrough: 9 }), null);
  assert.equal(
    chainNote({ status: "broken", verifiedThrough: 4, message: "audit log broken: audit record 5 is missing" }),
    "The audit log is broken: only records 1 to 4 verified and were decided again. audit log broken: audit record 5 is missing",
  );
  assert.match(chainNote({ status: "broken", verifiedThrough: 0, message: "" }), /no record verified/);
  assert.match(chainNote({ status: "unanchored", verifiedThrough: 9, message: "" }), /not anchored/);
  assert.match(chainNote(undefined), /did not say/);
});
