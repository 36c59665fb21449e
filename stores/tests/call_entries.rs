//! A tool call id's entries in one tree (schema version 8): its evaluation's claim and its
//! part's entry in each message are rows of `calls`, keyed by the id, side by side. The
//! guarantees they carry are those of the two trees they replace: an id is evaluated once,
//! restarts included; a refused duplicate leaves no part and no event; a message holds one
//! part per id, written in place; and a database of version 7 keeps every row and its
//! numbering through the migration.

use std::path::Path;

use rusqlite::{Connection, params};
use warrant_core::part::{Message, ToolPart, ToolState};
use warrant_core::store::{AuditLog, AuditQuery, Conversations, EventLog, Store, StoreErrorKind};
use warrant_stores::SqliteConfig;
use warrant_stores::sqlite::{SCHEMA_VERSION, SqliteStore};
use warrant_testkit::store::decisions::record;

#[path = "common/mod.rs"]
mod sample;

fn open(dir: &Path) -> SqliteStore {
    SqliteConfig::in_dir(dir).open().unwrap()
}

fn raw(dir: &Path) -> Connection {
    Connection::open(SqliteConfig::in_dir(dir).path).unwrap()
}

/// The rows of `calls` for an id: (kind, message, target), in key order.
fn entries(conn: &Connection, tool_call_id: &str) -> Vec<(i64, i64, i64)> {
    conn.prepare("SELECT kind, message, target FROM calls WHERE tool_call_id = ?1")
        .unwrap()
        .query_map([tool_call_id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
}

/// The row id of a message.
fn message_row(conn: &Connection, session: &str, message: &str) -> i64 {
    conn.query_row(
        "SELECT id FROM messages WHERE session_id = ?1 AND message_id = ?2",
        params![session, message],
        |r| r.get(0),
    )
    .unwrap()
}

/// Every part as stored: id, message, tool call id, ordinal, JSON, tool name, map columns.
type PartRowTuple = (
    i64,
    i64,
    String,
    i64,
    String,
    String,
    Option<String>,
    Option<String>,
);

fn part_rows(conn: &Connection, id_column: &str) -> Vec<PartRowTuple> {
    conn.prepare(&format!(
        "SELECT {id_column}, message, tool_call_id, ordinal, part, tool_name, decision, \
         resolution FROM tool_parts ORDER BY {id_column}"
    ))
    .unwrap()
    .query_map([], |r| {
        Ok((
            r.get(0)?,
            r.get(1)?,
            r.get(2)?,
            r.get(3)?,
            r.get(4)?,
            r.get(5)?,
            r.get(6)?,
            r.get(7)?,
        ))
    })
    .unwrap()
    .collect::<Result<_, _>>()
    .unwrap()
}

fn part(id: &str, state: ToolState) -> ToolPart {
    ToolPart {
        state,
        ..ToolPart::new(id, "Bash")
    }
}

#[tokio::test]
async fn a_decisions_claim_and_part_entry_are_neighbours_in_one_tree() {
    let dir = tempfile::tempdir().unwrap();
    let store = open(dir.path());
    let written = (&store as &dyn Store)
        .write_decision(record("s1", "c1"))
        .await
        .unwrap();
    let conn = raw(dir.path());
    let message = message_row(&conn, "s1", "m-c1");
    let part: i64 = conn
        .query_row(
            "SELECT id FROM tool_parts WHERE tool_call_id = 'c1'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(
        entries(&conn, "c1"),
        [(0, 0, written.audit_seq as i64), (1, message, part)]
    );
    // No other tree keyed by the id or by (message, id): the part's table has the one index
    // by ordinal, and the claims' table of version 7 is gone.
    let indexes: Vec<String> = conn
        .prepare("SELECT name FROM pragma_index_list('tool_parts')")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(indexes, ["tool_parts_by_ordinal"]);
    let old: i64 = conn
        .query_row(
            "SELECT count(*) FROM sqlite_master WHERE name = 'evaluated_calls'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(old, 0);
    // A part is found by its id through `calls`, not by scanning the parts.
    let plan = sample::plan(
        &conn,
        "SELECT c.target, p.ordinal FROM calls c LEFT JOIN tool_parts p \
         ON p.id = c.target AND p.message = c.message AND p.tool_call_id = c.tool_call_id \
         WHERE c.tool_call_id = 'c1' AND c.kind = 1 AND c.message = 1",
    );
    assert!(!plan.contains("SCAN"), "{plan}");
}

#[tokio::test]
async fn a_refused_duplicate_after_a_restart_adds_no_entry_part_or_event() {
    let dir = tempfile::tempdir().unwrap();
    let store = open(dir.path());
    (&store as &dyn Store)
        .write_decision(record("s1", "c1"))
        .await
        .unwrap();
    let before = entries(&raw(dir.path()), "c1");
    drop(store);
    let store = open(dir.path());
    // The same id again, in another session's message, and in its own message.
    let mut elsewhere = record("s2", "c1");
    elsewhere.message_id = "m-other".to_owned();
    for again in [elsewhere, record("s1", "c1")] {
        let err = (&store as &dyn Store)
            .write_decision(again)
            .await
            .unwrap_err();
        assert_eq!(err.kind, StoreErrorKind::Duplicate, "{err}");
    }
    let conn = raw(dir.path());
    assert_eq!(entries(&conn, "c1"), before, "no entry added");
    let parts: i64 = conn
        .query_row("SELECT count(*) FROM tool_parts", [], |r| r.get(0))
        .unwrap();
    assert_eq!(parts, 1);
    assert!(store.messages(&"s2".into()).await.unwrap().is_empty());
    assert!(
        store
            .events_since(&"s2".into(), 0, 10)
            .await
            .unwrap()
            .is_empty()
    );
    assert_eq!(
        store.events_since(&"s1".into(), 0, 10).await.unwrap().len(),
        1
    );
    assert_eq!(
        sample::tool_parts(store.messages(&"s1".into()).await.unwrap()),
        [sample::decided_part("c1")]
    );
}

#[tokio::test]
async fn a_part_is_never_taken_for_an_evaluation_nor_an_evaluation_for_a_part() {
    let dir = tempfile::tempdir().unwrap();
    let store = open(dir.path());
    let session = "s1".into();
    // Part row 1 of call "x", and evaluation seq 1 of call "c7": the two entries' targets
    // are both 1.
    let x = part("x", ToolState::Running);
    store.upsert_tool_part(&session, "m1", &x).await.unwrap();
    let seq = store
        .append_audit(sample::evaluation("s1", "c7"))
        .await
        .unwrap();
    assert_eq!(seq, 1);
    // A part written for "c7" is a new part: the claim names no part.
    let c7 = sample::decided_part("c7");
    store.upsert_tool_part(&session, "m1", &c7).await.unwrap();
    assert_eq!(
        sample::tool_parts(store.messages(&session).await.unwrap()),
        [x, c7]
    );
    // "x" has a part and no evaluation: it is not evaluated, and may be once.
    assert_eq!(store.evaluation_of(&"x".into()).await.unwrap(), None);
    let seq = store
        .append_audit(sample::evaluation("s1", "x"))
        .await
        .unwrap();
    assert_eq!(store.evaluation_of(&"x".into()).await.unwrap(), Some(seq));
    assert_eq!(store.evaluation_of(&"c7".into()).await.unwrap(), Some(1));
    for id in ["x", "c7"] {
        let err = store
            .append_audit(sample::evaluation("s1", id))
            .await
            .unwrap_err();
        assert_eq!(err.kind, StoreErrorKind::Duplicate, "{err}");
    }
}

#[tokio::test]
async fn a_message_holds_one_part_per_call_id_written_in_place() {
    let dir = tempfile::tempdir().unwrap();
    let store = open(dir.path());
    let session = "s1".into();
    for state in [
        ToolState::Streaming,
        ToolState::Running,
        ToolState::Completed,
    ] {
        store
            .upsert_tool_part(&session, "m1", &part("c1", state))
            .await
            .unwrap();
    }
    store
        .upsert_tool_part(&session, "m2", &part("c1", ToolState::Running))
        .await
        .unwrap();
    store
        .upsert_tool_part(&session, "m1", &part("c2", ToolState::Running))
        .await
        .unwrap();
    let conn = raw(dir.path());
    let (m1, m2) = (
        message_row(&conn, "s1", "m1"),
        message_row(&conn, "s1", "m2"),
    );
    let rows: Vec<(i64, i64, String, i64)> = part_rows(&conn, "id")
        .into_iter()
        .map(|(id, message, call, ordinal, ..)| (id, message, call, ordinal))
        .collect();
    assert_eq!(
        rows,
        [
            (1, m1, "c1".to_owned(), 1),
            (2, m2, "c1".to_owned(), 1),
            (3, m1, "c2".to_owned(), 2)
        ]
    );
    assert_eq!(entries(&conn, "c1"), [(1, m1, 1), (1, m2, 2)]);
    assert_eq!(entries(&conn, "c2"), [(1, m1, 3)]);
    let messages: Vec<Message> = store.messages(&session).await.unwrap();
    assert_eq!(
        sample::tool_parts(messages),
        [
            part("c1", ToolState::Completed),
            part("c2", ToolState::Running),
            part("c1", ToolState::Running)
        ]
    );
}

#[tokio::test]
async fn an_entry_naming_a_missing_or_other_part_fails_closed() {
    let dir = tempfile::tempdir().unwrap();
    let store = open(dir.path());
    let session = "s1".into();
    store
        .upsert_tool_part(&session, "m1", &part("c1", ToolState::Running))
        .await
        .unwrap();
    store
        .upsert_tool_part(&session, "m1", &part("c2", ToolState::Running))
        .await
        .unwrap();
    let conn = raw(dir.path());
    // c1's entry pointed at c2's part: writing c1 again must not overwrite c2.
    conn.execute(
        "UPDATE calls SET target = 2 WHERE tool_call_id = 'c1' AND kind = 1",
        [],
    )
    .unwrap();
    let err = store
        .upsert_tool_part(&session, "m1", &part("c1", ToolState::Completed))
        .await
        .unwrap_err();
    assert_eq!(err.kind, StoreErrorKind::Corrupt, "{err}");
    // c1's part gone, its entry kept: no second part is made under the entry.
    conn.execute_batch(
        "UPDATE calls SET target = 1 WHERE tool_call_id = 'c1' AND kind = 1; \
         DELETE FROM tool_parts WHERE id = 1;",
    )
    .unwrap();
    let err = store
        .upsert_tool_part(&session, "m1", &part("c1", ToolState::Completed))
        .await
        .unwrap_err();
    assert_eq!(err.kind, StoreErrorKind::Corrupt, "{err}");
    let rows: Vec<(i64, String, String)> = part_rows(&conn, "id")
        .into_iter()
        .map(|(id, _, call, _, json, ..)| (id, call, json))
        .collect();
    assert_eq!(rows.len(), 1);
    assert_eq!((rows[0].0, rows[0].1.as_str()), (2, "c2"));
    assert!(rows[0].2.contains("running"), "{}", rows[0].2);
}

#[tokio::test]
async fn a_version_7_database_keeps_every_claim_part_and_numbering() {
    let dir = tempfile::tempdir().unwrap();
    let path = SqliteConfig::in_dir(dir.path()).path;
    let store = open(dir.path());
    let session = "s1".into();
    for id in ["c1", "c2", "c3"] {
        (&store as &dyn Store)
            .write_decision(record("s1", id))
            .await
            .unwrap();
    }
    // One id with parts in two messages, a part without an evaluation, an evaluation
    // without a part, a record that claims nothing, a part written twice.
    for id in ["c1", "p9", "c2"] {
        store
            .upsert_tool_part(&session, "m-shared", &part(id, ToolState::Running))
            .await
            .unwrap();
    }
    store
        .upsert_tool_part(&session, "m-shared", &part("p9", ToolState::Completed))
        .await
        .unwrap();
    store
        .append_audit(sample::evaluation("s1", "e5"))
        .await
        .unwrap();
    store
        .append_audit(sample::resolution_record("s1", "c1"))
        .await
        .unwrap();
    let messages = store.messages(&session).await.unwrap();
    let audit = store.audit_records(&AuditQuery::all()).await.unwrap();
    let events = store.events_since(&session, 0, 100).await.unwrap();
    let ids = ["c1", "c2", "c3", "p9", "e5"];
    let mut evaluations = Vec::new();
    for id in ids {
        evaluations.push(store.evaluation_of(&id.into()).await.unwrap());
    }
    assert_eq!(
        evaluations,
        [Some(1), Some(2), Some(3), None, Some(4)],
        "the resolution of c1 claims nothing"
    );
    drop(store);
    let parts_before = part_rows(&Connection::open(&path).unwrap(), "id");
    sample::downgrade_to_v7(&Connection::open(&path).unwrap());
    let parts_v7 = part_rows(&Connection::open(&path).unwrap(), "rowid");
    assert_eq!(parts_v7, parts_before);

    let store = open(dir.path());
    assert_eq!(store.migrated_from(), 7);
    assert_eq!(SCHEMA_VERSION, 8);
    let conn = raw(dir.path());
    assert_eq!(
        part_rows(&conn, "id"),
        parts_before,
        "every part, its id kept"
    );
    let c1_messages = (
        message_row(&conn, "s1", "m-c1"),
        message_row(&conn, "s1", "m-shared"),
    );
    assert_eq!(
        entries(&conn, "c1"),
        [(0, 0, 1), (1, c1_messages.0, 1), (1, c1_messages.1, 4)]
    );
    assert_eq!(entries(&conn, "e5"), [(0, 0, 4)]);
    assert_eq!(entries(&conn, "p9"), [(1, c1_messages.1, 5)]);
    let count: i64 = conn
        .query_row("SELECT count(*) FROM calls", [], |r| r.get(0))
        .unwrap();
    assert_eq!(count, 4 + 6, "four claims, six parts");
    assert_eq!(store.messages(&session).await.unwrap(), messages);
    assert_eq!(
        store.audit_records(&AuditQuery::all()).await.unwrap(),
        audit
    );
    assert_eq!(store.events_since(&session, 0, 100).await.unwrap(), events);
    for (id, expected) in ids.into_iter().zip(&evaluations) {
        assert_eq!(
            store.evaluation_of(&id.into()).await.unwrap(),
            *expected,
            "{id}"
        );
    }
    let report = store.verify_audit().await.unwrap();
    assert!(report.is_intact(), "{report}");

    // An id evaluated before the upgrade is not evaluated again, and its refusal writes
    // nothing; one that was not is, and numbering goes on after the old rows.
    for id in ["c2", "e5"] {
        let err = (&store as &dyn Store)
            .write_decision(record("s2", id))
            .await
            .unwrap_err();
        assert_eq!(err.kind, StoreErrorKind::Duplicate, "{err}");
    }
    assert!(store.messages(&"s2".into()).await.unwrap().is_empty());
    let mut p9 = record("s1", "p9");
    p9.message_id = "m-shared".to_owned();
    let written = (&store as &dyn Store).write_decision(p9).await.unwrap();
    assert_eq!(written.audit_seq, 6);
    assert_eq!(written.event_seqs, [events.len() as u64 + 1]);
    // p9's part was written in place (its row and ordinal kept), and a new part of the
    // shared message takes the next ordinal and row id.
    store
        .upsert_tool_part(&session, "m-shared", &part("n1", ToolState::Running))
        .await
        .unwrap();
    let after: Vec<(i64, String, i64)> = part_rows(&conn, "id")
        .into_iter()
        .filter(|row| row.1 == c1_messages.1)
        .map(|(id, _, call, ordinal, ..)| (id, call, ordinal))
        .collect();
    assert_eq!(
        after,
        [
            (4, "c1".to_owned(), 1),
            (5, "p9".to_owned(), 2),
            (6, "c2".to_owned(), 3),
            (7, "n1".to_owned(), 4)
        ]
    );
    let p9 = sample::tool_parts(store.messages(&session).await.unwrap())
        .into_iter()
        .find(|p| p.tool_call_id.as_str() == "p9")
        .unwrap();
    assert_eq!(p9, sample::decided_part("p9"));
    assert_eq!(entries(&conn, "p9"), [(0, 0, 6), (1, c1_messages.1, 5)]);
    assert!(store.verify_audit().await.unwrap().is_intact());
}
