-- Schema version 2: a tamper-evident audit chain, the per-message decision map that serves
-- when a tool part cannot be restored, and the session event log for SSE resumption.
-- The audit chain of rows written by version 1 is computed by the migration's code.

ALTER TABLE audit ADD COLUMN prev_hash TEXT NOT NULL DEFAULT '';
ALTER TABLE audit ADD COLUMN hash TEXT NOT NULL DEFAULT '';

-- The last link of the chain, written with every append, so a truncated tail is detected.
CREATE TABLE audit_head (
    id   INTEGER PRIMARY KEY CHECK (id = 1),
    seq  INTEGER NOT NULL,
    hash TEXT NOT NULL
);

-- The tool's name beside the part, so a part whose JSON cannot be read still shows it.
ALTER TABLE tool_parts ADD COLUMN tool_name TEXT NOT NULL DEFAULT '';
UPDATE tool_parts
SET tool_name = coalesce(json_extract(part, '$.toolName'), '')
WHERE json_valid(part);

CREATE TABLE part_decisions (
    message      INTEGER NOT NULL REFERENCES messages (id),
    tool_call_id TEXT NOT NULL,
    ordinal      INTEGER NOT NULL,
    decision     TEXT,
    resolution   TEXT,
    PRIMARY KEY (message, tool_call_id)
);
INSERT INTO part_decisions (message, tool_call_id, ordinal, decision, resolution)
SELECT message, tool_call_id, ordinal, decision, resolution
FROM (
    SELECT message, tool_call_id, ordinal,
           CASE WHEN json_valid(part) THEN json_extract(part, '$.permissionDecision') END
               AS decision,
           CASE WHEN json_valid(part) THEN json_extract(part, '$.permissionResolution') END
               AS resolution
    FROM tool_parts
)
WHERE decision IS NOT NULL OR resolution IS NOT NULL;

CREATE TABLE events (
    session_id TEXT NOT NULL,
    seq        INTEGER NOT NULL,
    at         INTEGER NOT NULL,
    body       TEXT NOT NULL,
    PRIMARY KEY (session_id, seq)
) WITHOUT ROWID;
