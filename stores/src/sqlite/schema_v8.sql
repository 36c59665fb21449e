-- Version 8: a tool call id's entries in one tree. Up to version 7 a decision added a key to
-- two trees of its own besides the tables' appended pages: its claim in `evaluated_calls`
-- (keyed by tool call id) and its part's `(message, tool_call_id)` entry in the unique index
-- of `tool_parts`; each cost the commit about one write-ahead-log page per decision. From
-- version 8 both are rows of `calls`, keyed by the tool call id, so a decision's claim and
-- its part's entry sit side by side in one leaf:
--
-- * kind 0 (message 0): the id's evaluation, `target` the audit seq of its record; at most
--   one per id, so an id is evaluated once, restarts included;
-- * kind 1: the id's part in `message`, `target` the part's row id in `tool_parts`; at most
--   one per message and id, as the key of `tool_parts` allowed.
--
-- `tool_parts` is rebuilt without that key (its rows keep their row ids, now `id`), and
-- found by message through `tool_parts_by_ordinal` as before.
CREATE TABLE calls (
    tool_call_id TEXT NOT NULL,
    kind         INTEGER NOT NULL CHECK (kind IN (0, 1)),
    message      INTEGER NOT NULL,
    target       INTEGER NOT NULL,
    PRIMARY KEY (tool_call_id, kind, message),
    CHECK (kind = 1 OR message = 0)
) WITHOUT ROWID;

CREATE TABLE tool_parts_v8 (
    id           INTEGER PRIMARY KEY,
    message      INTEGER NOT NULL REFERENCES messages (id),
    tool_call_id TEXT NOT NULL,
    ordinal      INTEGER NOT NULL,
    part         TEXT NOT NULL,
    tool_name    TEXT NOT NULL DEFAULT '',
    decision     TEXT,
    resolution   TEXT
);
INSERT INTO tool_parts_v8 (id, message, tool_call_id, ordinal, part, tool_name, decision, resolution)
SELECT rowid, message, tool_call_id, ordinal, part, tool_name, decision, resolution
FROM tool_parts ORDER BY rowid;
DROP TABLE tool_parts;
ALTER TABLE tool_parts_v8 RENAME TO tool_parts;
CREATE INDEX tool_parts_by_ordinal ON tool_parts (message, ordinal);

INSERT INTO calls (tool_call_id, kind, message, target)
SELECT tool_call_id, 0, 0, seq FROM evaluated_calls;
INSERT INTO calls (tool_call_id, kind, message, target)
SELECT tool_call_id, 1, message, id FROM tool_parts;
DROP TABLE evaluated_calls;
