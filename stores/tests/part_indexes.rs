//! Writing a part to a long message stays cheap: the statements that number a new part and
//! bound the decision map find a message's parts by ordinal through an index, never by
//! walking every part of the message (SQLite's own query plan says so).

use rusqlite::Connection;
use warrant_stores::SqliteConfig;

fn plan(conn: &Connection, sql: &str) -> String {
    let mut stmt = conn.prepare(&format!("EXPLAIN QUERY PLAN {sql}")).unwrap();
    let rows = stmt
        .query_map([], |r| r.get::<_, String>(3))
        .unwrap()
        .collect::<Result<Vec<_>, _>>()
        .unwrap();
    rows.join("; ")
}

#[test]
fn a_messages_parts_are_found_by_ordinal_through_an_index() {
    let dir = tempfile::tempdir().unwrap();
    let config = SqliteConfig::in_dir(dir.path());
    let path = config.path.clone();
    drop(config.open().unwrap());
    let conn = Connection::open(&path).unwrap();

    let next = plan(
        &conn,
        "SELECT coalesce(max(ordinal), 0) + 1 FROM tool_parts WHERE message = 1",
    );
    assert!(next.contains("tool_parts_by_ordinal"), "{next}");

    let bound = plan(
        &conn,
        "SELECT ordinal FROM part_decisions WHERE message = 1 ORDER BY ordinal DESC LIMIT 1 OFFSET 5",
    );
    assert!(bound.contains("part_decisions_by_ordinal"), "{bound}");
    assert!(
        !bound.contains("TEMP B-TREE"),
        "no sort of the whole message: {bound}"
    );
}
