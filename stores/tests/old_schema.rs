//! A database written by an older schema opens, migrates and keeps everything it held.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use rusqlite::Connection;
use warrant_core::chain::Chain;
use warrant_core::decision::Behavior;
use warrant_core::engine::Engine;
use warrant_core::part::{ToolPart, ToolState};
use warrant_core::store::{AuditQuery, Store, StoreErrorKind};
use warrant_stores::sqlite::{SCHEMA_VERSION, SqliteStore};

#[path = "common/mod.rs"]
mod sample;

const FIXTURE: &str = include_str!("fixtures/schema_v1.sql");
const SCHEMA_V1: &str = include_str!("../src/sqlite/schema_v1.sql");

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

    let seq = store
        .append_audit(sample::evaluation("s-old", "call-6"))
        .await
        .unwrap();
    assert_eq!(seq, 3);
    let entries = store.audit_entries(&AuditQuery::all()).await.unwrap();
    assert_eq!(entries[2].prev_hash, entries[1].hash);
    assert!(store.verify_audit().await.unwrap().is_intact());
}

#[tokio::test]
async fn old_tool_parts_load_and_an_unrestorable_part_keeps_its_decision() {
    let dir = tempfile::tempdir().unwrap();
    let store = SqliteStore::open(v1_database(dir.path())).unwrap();
    let parts = sample::tool_parts(store.messages("s-old").await.unwrap());
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

#[tokio::test]
async fn a_v1_pending_approval_can_be_resolved_after_the_upgrade() {
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
    let resolution = engine.resolve("call-5", "allow_once").await.unwrap();
    assert_eq!(resolution.action_id, "allow_once");
    assert!(store.pending_approvals().await.unwrap().is_empty());
}

#[test]
fn reopening_a_current_database_migrates_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let path = v1_database(dir.path());
    drop(SqliteStore::open(&path).unwrap());
    let again = SqliteStore::open(&path).unwrap();
    assert_eq!(again.migrated_from(), SCHEMA_VERSION);
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
