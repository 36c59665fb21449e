//! Sample values shared by the tests and the bench (those of the store behaviour suite:
//! audit records, tool parts, approvals, grants and events shaped as the engine writes
//! them), and small helpers around them.
#![allow(dead_code, unused_imports)]

pub use warrant_testkit::store::sample::*;

/// A small multi-threaded runtime, for the programs that drive the store themselves.
pub fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a runtime")
}

/// What `EXPLAIN QUERY PLAN` says of a statement, its steps joined by `; `.
pub fn plan(conn: &rusqlite::Connection, sql: &str) -> String {
    let mut stmt = conn.prepare(&format!("EXPLAIN QUERY PLAN {sql}")).unwrap();
    let rows = stmt
        .query_map([], |r| r.get::<_, String>(3))
        .unwrap()
        .collect::<Result<Vec<_>, _>>()
        .unwrap();
    rows.join("; ")
}

/// A connection to a new database in `dir`, at the current schema.
pub fn fresh_database(dir: &std::path::Path) -> rusqlite::Connection {
    let config = warrant_stores::SqliteConfig::in_dir(dir);
    let path = config.path.clone();
    drop(config.open().unwrap());
    rusqlite::Connection::open(&path).unwrap()
}

/// The schema of version 7, as its migrations' SQL creates it.
pub fn schema_v7() -> rusqlite::Connection {
    let conn = rusqlite::Connection::open_in_memory().unwrap();
    for sql in [
        include_str!("../../src/sqlite/schema_v1.sql"),
        include_str!("../../src/sqlite/schema_v2.sql"),
        include_str!("../../src/sqlite/schema_v3.sql"),
        include_str!("../../src/sqlite/schema_v4.sql"),
        include_str!("../../src/sqlite/schema_v5.sql"),
        include_str!("../../src/sqlite/schema_v6.sql"),
        include_str!("../../src/sqlite/schema_v7.sql"),
    ] {
        conn.execute_batch(sql).unwrap();
    }
    conn
}

/// Every object of a database's schema: type, name, SQL.
pub fn schema_of(conn: &rusqlite::Connection) -> Vec<(String, String, Option<String>)> {
    conn.prepare("SELECT type, name, sql FROM sqlite_master ORDER BY name")
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
}

/// Puts a database written by this build back into the layout of version 7 (the claims in
/// `evaluated_calls`, the parts keyed by message and id, the same row ids), checking that
/// the result is exactly version 7's schema.
pub fn downgrade_to_v7(conn: &rusqlite::Connection) {
    let reference = schema_v7();
    let sql = |name: &str| -> String {
        reference
            .query_row(
                "SELECT sql FROM sqlite_master WHERE name = ?1",
                [name],
                |r| r.get(0),
            )
            .unwrap()
    };
    conn.execute_batch(&format!(
        "BEGIN;
         CREATE TEMP TABLE parts_copy AS SELECT * FROM tool_parts;
         DROP TABLE tool_parts;
         {parts};
         INSERT INTO tool_parts (rowid, message, tool_call_id, ordinal, part, tool_name,
                                 decision, resolution)
         SELECT id, message, tool_call_id, ordinal, part, tool_name, decision, resolution
         FROM temp.parts_copy ORDER BY id;
         {by_ordinal};
         {claims};
         INSERT INTO evaluated_calls (tool_call_id, seq)
         SELECT tool_call_id, target FROM calls WHERE kind = 0;
         DROP TABLE calls;
         DROP TABLE temp.parts_copy;
         PRAGMA user_version = 7;
         COMMIT;",
        parts = sql("tool_parts"),
        by_ordinal = sql("tool_parts_by_ordinal"),
        claims = sql("evaluated_calls"),
    ))
    .unwrap();
    assert_eq!(schema_of(conn), schema_of(&reference));
}
