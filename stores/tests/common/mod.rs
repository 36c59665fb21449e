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
