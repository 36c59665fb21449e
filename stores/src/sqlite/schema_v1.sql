-- Schema version 1: one table per thing the Store trait keeps. Frozen: never edit a shipped
-- migration; add the next version instead.

CREATE TABLE audit (
    seq          INTEGER PRIMARY KEY,
    session_id   TEXT NOT NULL,
    tool_call_id TEXT NOT NULL,
    at           INTEGER NOT NULL,
    record       TEXT NOT NULL
);
CREATE INDEX audit_by_session ON audit (session_id, seq);

CREATE TABLE messages (
    id         INTEGER PRIMARY KEY,
    session_id TEXT NOT NULL,
    message_id TEXT NOT NULL,
    role       TEXT NOT NULL,
    UNIQUE (session_id, message_id)
);

CREATE TABLE tool_parts (
    message      INTEGER NOT NULL REFERENCES messages (id),
    tool_call_id TEXT NOT NULL,
    ordinal      INTEGER NOT NULL,
    part         TEXT NOT NULL,
    PRIMARY KEY (message, tool_call_id)
);

CREATE TABLE pending_approvals (
    tool_call_id TEXT PRIMARY KEY,
    session_id   TEXT NOT NULL,
    message_id   TEXT NOT NULL,
    request      TEXT NOT NULL
);

CREATE TABLE grants (
    id         INTEGER PRIMARY KEY,
    session_id TEXT NOT NULL,
    body       TEXT NOT NULL
);

CREATE TABLE workspace (
    id    INTEGER PRIMARY KEY CHECK (id = 1),
    state TEXT NOT NULL
);
