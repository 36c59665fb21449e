//! The SQLite writer numbers events and tool parts from what it knows of its own commits, and
//! forgets it when another connection wrote the database: two handles on one file writing
//! the same session in turn, and rows deleted from outside, still number every event and
//! part as the database's contents say.

use std::sync::Arc;

use rusqlite::Connection;
use warrant_core::store::{DecisionRecord, Store};
use warrant_stores::SqliteConfig;
use warrant_stores::sqlite::SqliteStore;
use warrant_testkit::store::sample;

#[path = "common/mod.rs"]
mod common;

fn decision(session: &str, id: &str) -> DecisionRecord {
    DecisionRecord {
        audit: sample::evaluation(session, id),
        message_id: "m".to_owned(),
        part: Some(sample::decided_part(id)),
        events: vec![sample::event(id), sample::event(id)],
    }
}

fn part_ids(store: &SqliteStore, runtime: &tokio::runtime::Runtime) -> Vec<String> {
    let messages = runtime
        .block_on(warrant_core::store::Conversations::messages(
            store,
            &"s".into(),
        ))
        .unwrap();
    common::tool_parts(messages)
        .into_iter()
        .map(|p| p.tool_call_id.into_string())
        .collect()
}

#[test]
fn two_handles_writing_one_session_in_turn_number_it_without_gaps_or_repeats() {
    let runtime = common::runtime();
    let dir = tempfile::tempdir().unwrap();
    let config = SqliteConfig::in_dir(dir.path());
    let a: Arc<dyn Store> = Arc::new(SqliteStore::with_config(config.clone()).unwrap());
    let b: Arc<dyn Store> = Arc::new(SqliteStore::with_config(config.clone()).unwrap());
    let mut event_seqs = Vec::new();
    let mut ids = Vec::new();
    runtime.block_on(async {
        for i in 0..6 {
            let store = if i % 2 == 0 { &a } else { &b };
            let id = format!("c{i}");
            let recorded = store.write_decision(decision("s", &id)).await.unwrap();
            event_seqs.extend(recorded.event_seqs);
            ids.push(id.clone());
            // A plain part and event of the same message and session, from the same handle.
            let plain = format!("p{i}");
            store
                .upsert_tool_part(&"s".into(), "m", &sample::decided_part(plain.as_str()))
                .await
                .unwrap();
            ids.push(plain.clone());
            event_seqs.push(
                store
                    .append_event(&"s".into(), &sample::event(plain.as_str()))
                    .await
                    .unwrap(),
            );
        }
    });
    assert_eq!(event_seqs, (1..=18).collect::<Vec<u64>>());
    let events = runtime
        .block_on(a.events_since(&"s".into(), 0, usize::MAX))
        .unwrap();
    assert_eq!(
        events.iter().map(|e| e.seq).collect::<Vec<_>>(),
        (1..=18).collect::<Vec<u64>>()
    );
    let reader = SqliteStore::with_config(config).unwrap();
    assert_eq!(part_ids(&reader, &runtime), ids);
    let ordinals: Vec<i64> = Connection::open(dir.path().join("warrant.db"))
        .unwrap()
        .prepare("SELECT ordinal FROM tool_parts ORDER BY ordinal")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(ordinals, (1..=12).collect::<Vec<i64>>());
    let verified = runtime.block_on(reader.verify_audit()).unwrap();
    assert!(verified.is_intact(), "{verified:?}");
}

#[test]
fn rows_deleted_from_outside_are_not_counted_by_the_next_write() {
    let runtime = common::runtime();
    let dir = tempfile::tempdir().unwrap();
    let config = SqliteConfig::in_dir(dir.path());
    let store: Arc<dyn Store> = Arc::new(SqliteStore::with_config(config.clone()).unwrap());
    let append = |id: &str| {
        runtime
            .block_on(store.append_event(&"s".into(), &sample::event(id)))
            .unwrap()
    };
    assert_eq!(append("a"), 1);
    assert_eq!(append("b"), 2);
    // What expiring the session does to its log, by another connection.
    Connection::open(&config.path)
        .unwrap()
        .execute("DELETE FROM events WHERE session_id = 's'", [])
        .unwrap();
    // The log is numbered from what it holds, as it always was.
    assert_eq!(append("c"), 1);
    assert_eq!(append("d"), 2);
}

#[test]
fn two_handles_adding_parts_to_one_message_in_turn_keep_their_order() {
    let runtime = common::runtime();
    let dir = tempfile::tempdir().unwrap();
    let config = SqliteConfig::in_dir(dir.path());
    let a: Arc<dyn Store> = Arc::new(SqliteStore::with_config(config.clone()).unwrap());
    let b: Arc<dyn Store> = Arc::new(SqliteStore::with_config(config.clone()).unwrap());
    let ids: Vec<String> = (0..6).map(|i| format!("p{i}")).collect();
    runtime.block_on(async {
        for (i, id) in ids.iter().enumerate() {
            let store = if i % 2 == 0 { &a } else { &b };
            store
                .upsert_tool_part(&"s".into(), "m", &sample::decided_part(id.as_str()))
                .await
                .unwrap();
        }
    });
    let reader = SqliteStore::with_config(config).unwrap();
    assert_eq!(part_ids(&reader, &runtime), ids);
    let ordinals: Vec<i64> = Connection::open(dir.path().join("warrant.db"))
        .unwrap()
        .prepare("SELECT ordinal FROM tool_parts ORDER BY rowid")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(ordinals, (1..=6).collect::<Vec<i64>>());
}
