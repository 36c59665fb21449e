//! A database written by an older schema opens, migrates and keeps everything it held.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use rusqlite::{Connection, params};
use warrant_core::chain::Chain;
use warrant_core::decision::Behavior;
use warrant_core::engine::Engine;
use warrant_core::part::{ToolPart, ToolState};
use warrant_core::store::{AuditLog, Conversations, WorkspaceStore};
use warrant_core::store::{AuditQuery, Store, StoreErrorKind};
use warrant_stores::sqlite::{AuditProblem, GENESIS, SCHEMA_VERSION, SqliteStore};

#[path = "common/mod.rs"]
mod sample;

const FIXTURE: &str = include_str!("fixtures/schema_v1.sql");
const SCHEMA_V1: &str = include_str!("../src/sqlite/schema_v1.sql");
const SCHEMA_V2: &str = include_str!("../src/sqlite/schema_v2.sql");

/// Writes the version-1 fixture into a fresh database file.
fn v1_database(dir: &Path) -> PathBuf {
    let path = dir.join("warrant.db");
    Connection::open(&path)
        .unwrap()
        .execute_batch(FIXTURE)
        .unwrap();
    path
}

fn schema_of(conn: &Connection) -> Vec<(String, String, Option<String>)> {
    let mut stmt = conn
        .prepare("SELECT type, name, sql FROM sqlite_master ORDER BY name")
        .unwrap();
    stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect()
}

#[test]
fn the_fixture_has_exactly_the_tables_schema_v1_created() {
    let fixture = Connection::open_in_memory().unwrap();
    fixture.execute_batch(FIXTURE).unwrap();
    let migrated = Connection::open_in_memory().unwrap();
    migrated.execute_batch(SCHEMA_V1).unwrap();
    assert_eq!(schema_of(&fixture), schema_of(&migrated));
}

#[tokio::test]
async fn a_v1_database_migrates_and_keeps_its_audit_log_verifiable() {
    let dir = tempfile::tempdir().unwrap();
    let store = SqliteStore::open(v1_database(dir.path())).unwrap();
    assert_eq!(store.migrated_from(), 1);

    let records = store.audit_records(&AuditQuery::all()).await.unwrap();
    assert_eq!(records.iter().map(|r| r.seq).collect::<Vec<_>>(), [1, 2]);
    let report = store.verify_audit().await.unwrap();
    assert!(report.is_intact(), "{report}");
    assert_eq!(report.records, 2);
    assert_eq!(report.legacy_records, 2, "never reported as keyed");
    assert!(!report.is_keyed());

    let seq = store
        .append_audit(sample::evaluation("s-old", "call-6"))
        .await
        .unwrap();
    assert_eq!(seq, 3);
    let entries = store.audit_entries(&AuditQuery::all()).await.unwrap();
    assert_eq!(entries[2].prev_hash, entries[1].hash);
    let report = store.verify_audit().await.unwrap();
    assert!(report.is_intact(), "{report}");
    assert_eq!((report.records, report.legacy_records), (3, 2));
}

#[tokio::test]
async fn old_tool_parts_load_and_an_unrestorable_part_keeps_its_decision() {
    let dir = tempfile::tempdir().unwrap();
    let store = SqliteStore::open(v1_database(dir.path())).unwrap();
    let parts = sample::tool_parts(store.messages(&"s-old".into()).await.unwrap());
    let ids: Vec<&str> = parts.iter().map(|p| p.tool_call_id.as_str()).collect();
    assert_eq!(ids, ["call-1", "call-2", "call-3", "call-4"]);

    // Written before the decision fields existed.
    assert_eq!(parts[0].state, ToolState::Completed);
    assert_eq!(parts[0].permission_decision, None);
    assert_eq!(parts[0].output.as_deref(), Some("pushed"));
    // Written with a decision.
    let decision = parts[1].permission_decision.as_ref().unwrap();
    assert_eq!(decision.reason_code, "explicit_tool_auto_approved");
    // A state this build does not know: rebuilt, its decision kept.
    assert_eq!(parts[2].tool_name, "Deploy");
    let decision = parts[2].permission_decision.as_ref().unwrap();
    assert_eq!(
        (decision.behavior, decision.reason_code.as_str()),
        (Behavior::Ask, "auto_classifier_escalate")
    );
    // JSON cut short: the part is still there, under its id.
    assert_eq!(parts[3], ToolPart::new("call-4", ""));
}

#[test]
fn the_decision_map_of_an_old_database_becomes_the_parts_columns() {
    let dir = tempfile::tempdir().unwrap();
    let path = v1_database(dir.path());
    drop(SqliteStore::open(&path).unwrap());
    let conn = Connection::open(&path).unwrap();
    let tables: i64 = conn
        .query_row(
            "SELECT count(*) FROM sqlite_master WHERE name LIKE 'part_decisions%'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(tables, 0, "the map's own table and index are gone");
    let mut stmt = conn
        .prepare(
            "SELECT tool_call_id, decision IS NOT NULL FROM tool_parts p \
             JOIN messages m ON m.id = p.message WHERE m.session_id = 's-old' ORDER BY p.ordinal",
        )
        .unwrap();
    let decided: Vec<(String, bool)> = stmt
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    let expected = [
        ("call-1", false),
        ("call-2", true),
        ("call-3", true),
        ("call-4", false),
    ]
    .map(|(id, d)| (id.to_owned(), d));
    assert_eq!(decided, expected);
}

#[tokio::test]
async fn a_v1_pending_approval_ends_as_interrupted_and_a_v1_grant_gets_its_id_after_the_upgrade() {
    let dir = tempfile::tempdir().unwrap();
    let store: Arc<dyn Store> = Arc::new(SqliteStore::open(v1_database(dir.path())).unwrap());
    assert_eq!(store.grants().await.unwrap().len(), 1);
    let workspace = store
        .load_workspace()
        .await
        .unwrap()
        .expect("the v1 workspace");
    assert_eq!(workspace.sessions[0].id, "s-old");

    let engine = Engine::builder(Chain::builder().build())
        .store(Arc::clone(&store))
        .build()
        .await
        .unwrap();
    assert!(
        engine
            .resolve(&"call-5".into(), "allow_once")
            .await
            .is_err()
    );
    assert!(store.pending_approvals().await.unwrap().is_empty());
    let grants = engine.grants();
    let id = &grants[0].id;
    assert_eq!(
        *id,
        warrant_core::grant::Grant::id_for(&grants[0].session_id, &grants[0].tool_call_id)
    );
    let revoked = engine.revoke_grant(id).await.unwrap();
    assert_eq!(revoked.id, *id);
    assert!(
        store.grants().await.unwrap().is_empty(),
        "revoked in the store too"
    );
}

#[test]
fn reopening_a_current_database_migrates_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let path = v1_database(dir.path());
    drop(SqliteStore::open(&path).unwrap());
    let again = SqliteStore::open(&path).unwrap();
    assert_eq!(again.migrated_from(), SCHEMA_VERSION);
}

/// Writes a version-2 database: the version-1 fixture, the version-2 schema, and the
/// unkeyed SHA-256 chain version 2 computed over its records.
fn v2_database(dir: &Path) -> PathBuf {
    let path = v1_database(dir);
    let conn = Connection::open(&path).unwrap();
    conn.execute_batch(SCHEMA_V2).unwrap();
    rechain_unkeyed(&conn);
    conn.pragma_update(None, "user_version", 2).unwrap();
    path
}

/// Recomputes the unkeyed chain of every record and the head, as version 2 did (and as
/// anyone who can write a version-2 database can).
fn rechain_unkeyed(conn: &Connection) {
    let rows: Vec<(u64, String)> = conn
        .prepare("SELECT seq, record FROM audit ORDER BY seq")
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    let mut prev = GENESIS.to_owned();
    for (seq, record) in rows {
        let hash = sha256_link(&prev, &record);
        conn.execute(
            "UPDATE audit SET prev_hash = ?2, hash = ?3 WHERE seq = ?1",
            params![seq, prev, hash],
        )
        .unwrap();
        conn.execute(
            "INSERT INTO audit_head (id, seq, hash) VALUES (1, ?1, ?2) \
             ON CONFLICT (id) DO UPDATE SET seq = excluded.seq, hash = excluded.hash",
            params![seq, hash],
        )
        .unwrap();
        prev = hash;
    }
}

fn sha256_link(prev: &str, record: &str) -> String {
    use sha2::{Digest, Sha256};
    hex::encode(Sha256::digest(format!("{prev}\n{record}").as_bytes()))
}

#[tokio::test]
async fn a_v2_log_verifies_as_legacy_and_never_as_keyed() {
    let dir = tempfile::tempdir().unwrap();
    let store = SqliteStore::open(v2_database(dir.path())).unwrap();
    assert_eq!(store.migrated_from(), 2);
    let report = store.verify_audit().await.unwrap();
    assert!(report.is_intact(), "{report}");
    assert!(!report.is_keyed(), "{report}");
    assert_eq!(report.legacy_records, 2);
    let said = report.to_string();
    assert!(
        said.contains("records 1 to 2 predate the keyed chain"),
        "{said}"
    );
    assert!(said.contains("unkeyed"), "{said}");
    let json = serde_json::to_value(&report).unwrap();
    assert_eq!(json["legacyRecords"], 2);
}

#[tokio::test]
async fn a_v2_log_rewritten_before_the_upgrade_is_still_only_legacy() {
    // Unkeyed links can be recomputed by anyone: the upgrade cannot vouch for them, and the
    // report says so rather than calling them intact under the key.
    let dir = tempfile::tempdir().unwrap();
    let path = v2_database(dir.path());
    let raw = Connection::open(&path).unwrap();
    raw.execute(
        "UPDATE audit SET record = replace(record, 'call-1', 'call-X') WHERE seq = 1",
        [],
    )
    .unwrap();
    rechain_unkeyed(&raw);
    let store = SqliteStore::open(&path).unwrap();
    let report = store.verify_audit().await.unwrap();
    assert_eq!(report.legacy_records, 2);
    assert!(!report.is_keyed());
}

#[tokio::test]
async fn a_legacy_record_edited_after_the_upgrade_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let path = v2_database(dir.path());
    let store = SqliteStore::open(&path).unwrap();
    let raw = Connection::open(&path).unwrap();
    raw.execute(
        "UPDATE audit SET record = replace(record, 'Bash', 'Sh') WHERE seq = 2",
        [],
    )
    .unwrap();
    let bad = store.verify_audit().await.unwrap().first_bad.unwrap();
    assert_eq!((bad.seq, bad.problem), (2, AuditProblem::Edited));
}

#[tokio::test]
async fn keyed_records_cannot_be_passed_off_as_legacy() {
    let dir = tempfile::tempdir().unwrap();
    let path = v2_database(dir.path());
    let store = SqliteStore::open(&path).unwrap();
    store
        .append_audit(sample::evaluation("s-old", "call-6"))
        .await
        .unwrap();
    let raw = Connection::open(&path).unwrap();

    // Moving the signed boundary past a keyed record breaks its signature.
    raw.execute(
        "UPDATE audit_meta SET value = '3' || substr(value, instr(value, ':')) \
         WHERE name = 'legacy_through'",
        [],
    )
    .unwrap();
    let bad = store.verify_audit().await.unwrap().first_bad.unwrap();
    assert_eq!(bad.problem, AuditProblem::Edited);
    assert!(
        bad.detail.contains("not signed with the audit key"),
        "{bad}"
    );

    // Removing it makes the legacy records fail the key instead.
    raw.execute("DELETE FROM audit_meta WHERE name = 'legacy_through'", [])
        .unwrap();
    let bad = store.verify_audit().await.unwrap().first_bad.unwrap();
    assert_eq!((bad.seq, bad.problem), (1, AuditProblem::Edited));
}

#[tokio::test]
async fn an_old_log_with_two_evaluations_of_one_id_migrates_and_refuses_a_third() {
    let dir = tempfile::tempdir().unwrap();
    let path = v1_database(dir.path());
    let raw = Connection::open(&path).unwrap();
    let record: String = raw
        .query_row("SELECT record FROM audit WHERE seq = 1", [], |r| r.get(0))
        .unwrap();
    raw.execute(
        "INSERT INTO audit (seq, session_id, tool_call_id, at, record) \
         VALUES (3, 's-old', 'call-1', 1700000009000, ?1)",
        [record],
    )
    .unwrap();
    drop(raw);
    let store = SqliteStore::open(&path).unwrap();
    assert_eq!(
        store.evaluation_of(&"call-1".into()).await.unwrap(),
        Some(1)
    );
    let err = store
        .append_audit(sample::evaluation("s-old", "call-1"))
        .await
        .unwrap_err();
    assert_eq!(err.kind, StoreErrorKind::Duplicate, "{err}");
    assert!(store.verify_audit().await.unwrap().is_intact());
}

#[tokio::test]
async fn the_sessions_of_an_old_workspace_document_become_rows() {
    let dir = tempfile::tempdir().unwrap();
    let path = v1_database(dir.path());
    let store = SqliteStore::open(&path).unwrap();
    let raw = Connection::open(&path).unwrap();
    let rows: Vec<String> = raw
        .prepare("SELECT id FROM sessions ORDER BY ordinal")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert_eq!(rows, ["s-old"]);
    let document: String = raw
        .query_row("SELECT state FROM workspace", [], |r| r.get(0))
        .unwrap();
    assert!(!document.contains("sessions"), "{document}");
    let workspace = store.load_workspace().await.unwrap().unwrap();
    assert_eq!(workspace.sessions.len(), 1);
    assert_eq!(workspace.patterns[0].id, "default");
}

#[test]
fn a_database_from_a_newer_schema_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("future.db");
    Connection::open(&path)
        .unwrap()
        .pragma_update(None, "user_version", 99)
        .unwrap();
    let err = SqliteStore::open(&path).unwrap_err();
    assert_eq!(err.kind, StoreErrorKind::Corrupt);
    assert!(err.message.contains("schema version 99"), "{err}");
}

#[test]
fn a_file_that_is_not_a_database_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("notes.db");
    std::fs::write(&path, "these are not the pages of a database, ".repeat(200)).unwrap();
    let err = SqliteStore::open(&path).unwrap_err();
    assert_eq!(err.kind, StoreErrorKind::Corrupt, "{err}");
}

/// Writes events of two sessions, interleaved, into an old database's event log (keyed by
/// session and seq up to version 5).
fn old_events(path: &Path) -> Vec<(&'static str, u64, warrant_core::event::Event)> {
    let events = vec![
        ("s-b", 1, sample::event("b1")),
        ("s-a", 1, sample::event("a1")),
        ("s-b", 2, sample::event("b2")),
        ("s-a", 2, sample::event("a2")),
        ("s-a", 3, sample::event("a3")),
    ];
    let conn = Connection::open(path).unwrap();
    for (session, seq, event) in &events {
        conn.execute(
            "INSERT INTO events (session_id, seq, at, body) VALUES (?1, ?2, 1, ?3)",
            params![session, seq, serde_json::to_string(event).unwrap()],
        )
        .unwrap();
    }
    events
}

/// Each session's log reads back as it was written before the upgrade, and goes on from its
/// last seq.
async fn assert_old_events_kept(
    store: &SqliteStore,
    events: &[(&'static str, u64, warrant_core::event::Event)],
) {
    use warrant_core::store::EventLog;
    for session in ["s-a", "s-b"] {
        let expected: Vec<(u64, warrant_core::event::Event)> = events
            .iter()
            .filter(|(s, _, _)| *s == session)
            .map(|(_, seq, event)| (*seq, event.clone()))
            .collect();
        let read: Vec<(u64, warrant_core::event::Event)> = store
            .events_since(&session.into(), 0, 100)
            .await
            .unwrap()
            .into_iter()
            .map(|e| (e.seq, e.event))
            .collect();
        assert_eq!(read, expected, "{session}");
        let next = store
            .append_event(&session.into(), &sample::event("new"))
            .await
            .unwrap();
        assert_eq!(next, expected.len() as u64 + 1, "{session}");
    }
}

#[tokio::test]
async fn the_event_logs_of_a_v2_database_keep_their_events_and_numbering() {
    let dir = tempfile::tempdir().unwrap();
    let path = v2_database(dir.path());
    let events = old_events(&path);
    let store = SqliteStore::open(&path).unwrap();
    assert_eq!(store.migrated_from(), 2);
    assert_old_events_kept(&store, &events).await;
    let report = store.verify_audit().await.unwrap();
    assert!(report.is_intact(), "{report}");
}

#[tokio::test]
async fn the_event_logs_of_a_v5_database_keep_their_events_and_numbering() {
    let dir = tempfile::tempdir().unwrap();
    let path = v2_database(dir.path());
    {
        // The schema steps of versions 3 to 5 (their code only signs legacy audit records,
        // which this test does not read).
        let conn = Connection::open(&path).unwrap();
        for sql in [
            include_str!("../src/sqlite/schema_v3.sql"),
            include_str!("../src/sqlite/schema_v4.sql"),
            include_str!("../src/sqlite/schema_v5.sql"),
        ] {
            conn.execute_batch(sql).unwrap();
        }
        conn.pragma_update(None, "user_version", 5).unwrap();
    }
    let events = old_events(&path);
    let store = SqliteStore::open(&path).unwrap();
    assert_eq!(store.migrated_from(), 5);
    assert_old_events_kept(&store, &events).await;
    let indexes: Vec<String> = Connection::open(&path)
        .unwrap()
        .prepare("SELECT name FROM pragma_index_list('events')")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(indexes, ["events_by_session"]);
}
