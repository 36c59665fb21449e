//! Idle empty sessions expire in the SQLite store: when it opens, and when asked; a caller
//! that still holds an expired session does not bring it back by saving it unchanged.

use rusqlite::Connection;
use warrant_core::event::now_millis;
use warrant_core::store::{Conversations, EventLog, WorkspaceStore};
use warrant_core::workspace::{SessionApprovalSettings, SessionRecord, WorkspaceState};
use warrant_stores::SqliteConfig;
use warrant_stores::sqlite::SqliteStore;

#[path = "common/mod.rs"]
mod sample;

fn workspace(ids: &[&str]) -> WorkspaceState {
    let mut state = WorkspaceState::default();
    state
        .sessions
        .extend(ids.iter().map(|id| SessionRecord::new(*id)));
    state
}

fn rows(path: &std::path::Path) -> Vec<String> {
    Connection::open(path)
        .unwrap()
        .prepare("SELECT id FROM sessions ORDER BY ordinal")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect()
}

#[tokio::test]
async fn sessions_idle_longer_than_the_expiry_go_when_the_store_opens() {
    let dir = tempfile::tempdir().unwrap();
    let config = SqliteConfig::in_dir(dir.path()).session_idle_expiry_secs(3_600);
    let store = config.clone().open().unwrap();
    store
        .save_workspace(&workspace(&["old-empty", "old-busy", "fresh"]))
        .await
        .unwrap();
    store
        .upsert_tool_part(&"old-busy".into(), "m1", &sample::decided_part("c1"))
        .await
        .unwrap();
    drop(store);
    Connection::open(&config.path)
        .unwrap()
        .execute(
            "UPDATE sessions SET touched_at = ?1 WHERE id LIKE 'old-%'",
            [now_millis() - 7_200_000],
        )
        .unwrap();

    let store = config.open().unwrap();
    let loaded = store.load_workspace().await.unwrap().unwrap();
    let ids: Vec<&str> = loaded.sessions.iter().map(|s| s.id.as_str()).collect();
    assert_eq!(ids, ["old-busy", "fresh"]);
}

#[tokio::test]
async fn an_expired_session_saved_back_unchanged_stays_expired() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("warrant.db");
    let store = SqliteStore::open(&path).unwrap();
    let mut state = workspace(&["a", "b"]);
    store.save_workspace(&state).await.unwrap();
    store
        .append_event(&"b".into(), &sample::event("c1"))
        .await
        .unwrap();
    let expired = store
        .expire_idle_sessions(now_millis() - 60_000)
        .await
        .unwrap();
    assert!(expired.is_empty(), "{expired:?}");
    std::thread::sleep(std::time::Duration::from_millis(3));
    let expired = store.expire_idle_sessions(now_millis()).await.unwrap();
    assert_eq!(expired, ["a", "b"]);
    assert!(rows(&path).is_empty());
    assert!(
        store
            .events_since(&"b".into(), 0, 10)
            .await
            .unwrap()
            .is_empty(),
        "an expired session's events go with it"
    );

    // The engine still holds both; saving them unchanged does not bring them back ...
    store.save_workspace(&state).await.unwrap();
    assert!(rows(&path).is_empty());
    // ... but a change does.
    state.sessions[1].approval_settings = Some(SessionApprovalSettings::default());
    store.save_workspace(&state).await.unwrap();
    assert_eq!(rows(&path), ["b"]);
}

#[tokio::test]
async fn a_new_session_is_one_row_written_and_the_document_is_left_alone() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("warrant.db");
    let store = SqliteStore::open(&path).unwrap();
    store.save_workspace(&workspace(&["a"])).await.unwrap();
    let raw = Connection::open(&path).unwrap();
    let touched_before: i64 = raw
        .query_row("SELECT touched_at FROM sessions WHERE id = 'a'", [], |r| {
            r.get(0)
        })
        .unwrap();
    raw.execute(
        "UPDATE workspace SET state = json_set(state, '$.marker', 1)",
        [],
    )
    .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(3));
    store.save_workspace(&workspace(&["a", "b"])).await.unwrap();
    let document: String = raw
        .query_row("SELECT state FROM workspace", [], |r| r.get(0))
        .unwrap();
    assert!(
        document.contains("marker"),
        "the document was not rewritten"
    );
    let touched: i64 = raw
        .query_row("SELECT touched_at FROM sessions WHERE id = 'a'", [], |r| {
            r.get(0)
        })
        .unwrap();
    assert_eq!(
        touched, touched_before,
        "the other session was not rewritten"
    );
    assert_eq!(rows(&path), ["a", "b"]);
}
