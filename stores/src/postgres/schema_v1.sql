-- Schema version 1 of the PostgreSQL store. Frozen: never edit a shipped migration; add the
-- next version instead.

-- The append-only audit log. `record` is the record's canonical JSON, kept as text because
-- the chain's hash covers its exact bytes.
CREATE TABLE audit (
    seq          BIGINT PRIMARY KEY CHECK (seq > 0),
    session_id   TEXT NOT NULL,
    tool_call_id TEXT NOT NULL,
    at           BIGINT NOT NULL,
    record       TEXT NOT NULL,
    prev_hash    TEXT NOT NULL,
    hash         TEXT NOT NULL
);
CREATE INDEX audit_by_session ON audit (session_id, seq);
CREATE INDEX audit_by_time ON audit (at);

-- The chain's last link; its row lock makes one writer per chain at a time.
CREATE TABLE audit_head (
    id   INTEGER PRIMARY KEY CHECK (id = 1),
    seq  BIGINT NOT NULL,
    hash TEXT NOT NULL
);
INSERT INTO audit_head (id, seq, hash)
VALUES (1, 0, '0000000000000000000000000000000000000000000000000000000000000000');

-- Small named values of the audit chain: the id of its key (never the key).
CREATE TABLE audit_meta (
    name  TEXT PRIMARY KEY,
    value TEXT NOT NULL
);

-- Each evaluated tool call id once, so an id is never evaluated twice.
CREATE TABLE evaluated_calls (
    tool_call_id TEXT PRIMARY KEY,
    seq          BIGINT NOT NULL
);

CREATE TABLE messages (
    id         BIGSERIAL PRIMARY KEY,
    session_id TEXT NOT NULL,
    message_id TEXT NOT NULL,
    role       TEXT NOT NULL,
    UNIQUE (session_id, message_id)
);

CREATE TABLE tool_parts (
    message      BIGINT NOT NULL REFERENCES messages (id) ON DELETE CASCADE,
    tool_call_id TEXT NOT NULL,
    ordinal      BIGINT NOT NULL,
    part         TEXT NOT NULL,
    tool_name    TEXT NOT NULL,
    PRIMARY KEY (message, tool_call_id)
);

-- The per-message decision map, bounded to the newest calls of each message.
CREATE TABLE part_decisions (
    message      BIGINT NOT NULL REFERENCES messages (id) ON DELETE CASCADE,
    tool_call_id TEXT NOT NULL,
    ordinal      BIGINT NOT NULL,
    decision     TEXT,
    resolution   TEXT,
    PRIMARY KEY (message, tool_call_id)
);

-- Unresolved approval requests; a request put again moves last (a new ordinal).
CREATE TABLE pending_approvals (
    tool_call_id TEXT PRIMARY KEY,
    ordinal      BIGSERIAL NOT NULL,
    session_id   TEXT NOT NULL,
    message_id   TEXT NOT NULL,
    request      TEXT NOT NULL
);
CREATE INDEX pending_by_session ON pending_approvals (session_id);

CREATE TABLE grants (
    id         BIGSERIAL PRIMARY KEY,
    session_id TEXT NOT NULL,
    body       TEXT NOT NULL
);
CREATE INDEX grants_by_session ON grants (session_id);

-- The workspace's settings and patterns as one JSON document.
CREATE TABLE workspace (
    id    INTEGER PRIMARY KEY CHECK (id = 1),
    state TEXT NOT NULL
);

-- One row per session, in the order they were added.
CREATE TABLE sessions (
    ordinal    BIGSERIAL PRIMARY KEY,
    id         TEXT NOT NULL UNIQUE,
    record     TEXT NOT NULL,
    touched_at BIGINT NOT NULL
);
CREATE INDEX sessions_by_touch ON sessions (touched_at);

-- Each session's last event position: its row lock numbers a session's events one at a time.
CREATE TABLE event_heads (
    session_id TEXT PRIMARY KEY,
    last_seq   BIGINT NOT NULL
);

-- Each session's event log for SSE resumption, bounded to the latest events per session.
CREATE TABLE events (
    session_id TEXT NOT NULL,
    seq        BIGINT NOT NULL,
    at         BIGINT NOT NULL,
    body       TEXT NOT NULL,
    PRIMARY KEY (session_id, seq)
);
CREATE INDEX events_by_time ON events (session_id, at);
