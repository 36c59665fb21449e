-- Schema version 3: sessions as rows of their own, durable uniqueness of evaluations, and the
-- metadata of the keyed audit chain. The migration's code signs the records of versions 1
-- and 2 as legacy (unkeyed) records.

-- One row per session; the workspace document keeps settings and patterns only.
CREATE TABLE sessions (
    ordinal    INTEGER PRIMARY KEY,
    id         TEXT NOT NULL UNIQUE,
    record     TEXT NOT NULL,
    touched_at INTEGER NOT NULL
);
CREATE INDEX sessions_by_touch ON sessions (touched_at);
INSERT OR IGNORE INTO sessions (id, record, touched_at)
SELECT json_extract(s.value, '$.id'), s.value, CAST(strftime('%s', 'now') AS INTEGER) * 1000
FROM workspace w, json_each(w.state, '$.sessions') s
WHERE json_valid(w.state) AND json_type(s.value, '$.id') = 'text'
ORDER BY CAST(s.key AS INTEGER);
UPDATE workspace SET state = json_remove(state, '$.sessions') WHERE json_valid(state);

-- At most one evaluation per tool call id, across restarts. A log that already holds
-- several keeps them; the first one is the evaluation of record.
CREATE TABLE evaluated_calls (
    tool_call_id TEXT PRIMARY KEY,
    seq          INTEGER NOT NULL
) WITHOUT ROWID;
INSERT OR IGNORE INTO evaluated_calls (tool_call_id, seq)
SELECT tool_call_id, seq FROM audit
WHERE json_valid(record) AND json_extract(record, '$.kind') = 'evaluation'
ORDER BY seq;

-- Small named values of the audit chain: the id of its key, the signed legacy boundary.
CREATE TABLE audit_meta (
    name  TEXT PRIMARY KEY,
    value TEXT NOT NULL
) WITHOUT ROWID;

-- What a session's expiry looks up.
CREATE INDEX pending_by_session ON pending_approvals (session_id);
CREATE INDEX grants_by_session ON grants (session_id);
