-- Version 2: a call's result is taken once across instances. A row is inserted by the
-- instance that accepts the result; a second insert of the same call finds it.
CREATE TABLE result_claims (
    tool_call_id TEXT PRIMARY KEY,
    taken_at     BIGINT NOT NULL
);
