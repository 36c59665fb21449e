//! The event log's rows are appended in the order they arrive and found by session through an
//! index (schema version 6): a commit of many sessions' events fills the table's last pages
//! instead of a leaf of each session's, and every read and bound of a session's log goes
//! through the index, never by walking the whole table (SQLite's own query plan says so).

use rusqlite::{Connection, params};
use warrant_core::store::EventLog;
use warrant_stores::SqliteConfig;

#[path = "common/mod.rs"]
mod common;

#[tokio::test]
async fn events_are_rows_in_arrival_order_whatever_their_sessions() {
    let dir = tempfile::tempdir().unwrap();
    let config = SqliteConfig::in_dir(dir.path());
    let path = config.path.clone();
    let store = config.open().unwrap();
    for (session, id) in [("b", "x"), ("a", "y"), ("b", "z"), ("a", "w")] {
        store
            .append_event(&session.into(), &common::event(id))
            .await
            .unwrap();
    }
    let conn = Connection::open(&path).unwrap();
    let order: Vec<(String, u64)> = conn
        .prepare("SELECT session_id, seq FROM events ORDER BY rowid")
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    let expected = [("b", 1), ("a", 1), ("b", 2), ("a", 2)].map(|(s, n)| (s.to_owned(), n));
    assert_eq!(order, expected);
    // Each session's log still reads in its own order.
    let a = store.events_since(&"a".into(), 0, 10).await.unwrap();
    assert_eq!(a.iter().map(|e| e.seq).collect::<Vec<_>>(), [1, 2]);
    assert_eq!(a[1].event, common::event("w"));
}

#[test]
fn a_sessions_log_is_read_numbered_and_bounded_through_its_index() {
    let dir = tempfile::tempdir().unwrap();
    let conn = common::fresh_database(dir.path());
    for sql in [
        // `events_since`
        "SELECT seq, body FROM events WHERE session_id = 's' AND seq > 3 ORDER BY seq LIMIT 10",
        // numbering an event the writer does not know the session's end of
        "SELECT coalesce(max(seq), 0) + 1 FROM events WHERE session_id = 's'",
        // the retention bound
        "DELETE FROM events WHERE session_id = 's' AND seq <= 7",
        // expiring a session
        "DELETE FROM events WHERE session_id = 's'",
    ] {
        let plan = common::plan(&conn, sql);
        assert!(plan.contains("events_by_session"), "{sql}: {plan}");
        assert!(!plan.contains("TEMP B-TREE"), "{sql}: {plan}");
    }
}

#[test]
fn a_seq_its_session_holds_already_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let conn = common::fresh_database(dir.path());
    let insert = "INSERT INTO events (session_id, seq, at, body) VALUES (?1, ?2, 0, '{}')";
    conn.execute(insert, params!["s", 1]).unwrap();
    conn.execute(insert, params!["t", 1]).unwrap();
    assert!(conn.execute(insert, params!["s", 1]).is_err());
}
