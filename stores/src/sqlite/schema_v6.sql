-- Version 6: the event log as rows in the order they were appended, found by session through
-- an index. Keyed by (session, seq) itself, every decision's events went into the middle of
-- the table (the leaf of their session), and a full leaf was split by redistributing it with
-- its neighbours: at 256 sessions each decision of a commit wrote about 2.9 pages of the
-- event log to the write-ahead log (its leaf, its neighbours, their parent). Appended by row
-- id, a commit's events fill the table's last pages one after the other, and what each
-- session adds to its own place is the narrow index entry. The index is unique, as the key
-- was: an event never takes a seq its session already holds.
CREATE TABLE events_by_arrival (
    id         INTEGER PRIMARY KEY,
    session_id TEXT NOT NULL,
    seq        INTEGER NOT NULL,
    at         INTEGER NOT NULL,
    body       TEXT NOT NULL
);
INSERT INTO events_by_arrival (session_id, seq, at, body)
SELECT session_id, seq, at, body FROM events ORDER BY session_id, seq;
DROP TABLE events;
ALTER TABLE events_by_arrival RENAME TO events;
CREATE UNIQUE INDEX events_by_session ON events (session_id, seq);
