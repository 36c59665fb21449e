//! Decision records on SQLite through the event hub, with the database's write lock held
//! from outside so that the writer's group commits are known: a decision is handed out only
//! once its unit is committed, and a unit refused inside a group commit is skipped without
//! a gap, a repeat or a broken chain, while the other writes of that commit stand.

use std::sync::Arc;
use std::time::Duration;

use rusqlite::Connection;
use warrant_core::event::WarrantEvent;
use warrant_core::events::{EventHub, Item, Subscription};
use warrant_core::ids::SessionId;
use warrant_core::store::{AuditQuery, Store, StoreErrorKind};
use warrant_stores::SqliteConfig;
use warrant_stores::sqlite::SqliteStore;
use warrant_testkit::store::decisions::record;

#[path = "common/mod.rs"]
mod sample;

struct Db {
    store: Arc<dyn Store>,
    config: SqliteConfig,
    _dir: tempfile::TempDir,
}

fn open() -> Db {
    let dir = tempfile::tempdir().unwrap();
    let config = SqliteConfig::in_dir(dir.path());
    let store: Arc<dyn Store> = Arc::new(SqliteStore::with_config(config.clone()).unwrap());
    Db {
        store,
        config,
        _dir: dir,
    }
}

/// A connection holding the database's write lock until [`release`]d: the writer's next
/// commit waits for it (within its busy timeout).
fn hold_write_lock(db: &Db) -> Connection {
    let raw = Connection::open(&db.config.path).unwrap();
    raw.execute_batch("BEGIN IMMEDIATE").unwrap();
    raw
}

fn release(raw: &Connection) {
    raw.execute_batch("COMMIT").unwrap();
}

/// How many audit records of a tool call id another connection sees committed.
fn committed_audit(db: &Db, tool_call_id: &str) -> i64 {
    Connection::open(&db.config.path)
        .unwrap()
        .query_row(
            "SELECT count(*) FROM audit WHERE tool_call_id = ?1",
            [tool_call_id],
            |r| r.get(0),
        )
        .unwrap()
}

/// The next event a subscription yields (a gap report fails the test).
async fn next_event(sub: &mut Subscription) -> Arc<warrant_core::store::StoredEvent> {
    match tokio::time::timeout(Duration::from_secs(10), sub.next()).await {
        Ok(Some(Item::Event(event))) => event,
        other => panic!("expected an event, got {other:?}"),
    }
}

fn decision_of(event: &warrant_core::store::StoredEvent) -> Option<String> {
    match event.event.warrant() {
        Some(Ok(WarrantEvent::Decision(d))) => Some(d.tool_call_id.as_str().to_owned()),
        _ => None,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_decision_leaves_the_hub_only_once_its_unit_is_committed() {
    let db = open();
    let hub = EventHub::new(Arc::clone(&db.store));
    let session = SessionId::new("s1");
    hub.publish(&session, &sample::event("c0")).await.unwrap();
    let mut sub = hub.subscribe(&session, 0);
    assert_eq!(next_event(&mut sub).await.seq, 1);

    let raw = hold_write_lock(&db);
    let started = hub
        .start_decision(&session, record("s1", "c1"))
        .await
        .expect("SQLite records decisions as one unit");
    let finishing = started.finish(|_| {});
    tokio::pin!(finishing);
    tokio::select! {
        done = &mut finishing => panic!("finished before its commit: {done:?}"),
        item = sub.next() => panic!("handed out before its commit: {item:?}"),
        () = tokio::time::sleep(Duration::from_millis(300)) => {}
    }
    assert_eq!(committed_audit(&db, "c1"), 0, "nothing committed yet");
    release(&raw);
    let logged = finishing.await.unwrap();
    assert_eq!(logged.len(), 1);
    assert_eq!(logged[0].seq, 2);
    let handed = next_event(&mut sub).await;
    assert_eq!(
        (handed.seq, decision_of(&handed).as_deref()),
        (2, Some("c1"))
    );
    assert_eq!(committed_audit(&db, "c1"), 1, "committed before handed out");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_unit_refused_inside_a_group_commit_is_skipped_and_the_others_stand() {
    let db = open();
    let hub = EventHub::new(Arc::clone(&db.store));
    let session = SessionId::new("s1");
    // c1 is evaluated: event 1, audit record 1.
    hub.start_decision(&session, record("s1", "c1"))
        .await
        .unwrap()
        .finish(|_| {})
        .await
        .unwrap();
    let mut sub = hub.subscribe(&session, 0);
    let first = next_event(&mut sub).await;
    assert_eq!(decision_of(&first).as_deref(), Some("c1"));

    // A unit of session "boom" fails after its audit record was appended (at its event).
    Connection::open(&db.config.path)
        .unwrap()
        .execute_batch(
            "CREATE TRIGGER boom BEFORE INSERT ON events WHEN NEW.session_id = 'boom' \
             BEGIN SELECT RAISE(ABORT, 'boom'); END;",
        )
        .unwrap();
    let boom_session = SessionId::new("boom");

    let raw = hold_write_lock(&db);
    // The writer takes this one alone and waits for the lock with it...
    let first = [sample::event("a")];
    let first = hub.start_batch(&session, &first).await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    // ...so these queue meanwhile and are committed together: a refused unit (c1 again)
    // between a unit and events of the same session, a unit failing after its audit record,
    // and an audit record of another session.
    let refused = hub
        .start_decision(&session, record("s1", "c1"))
        .await
        .unwrap();
    let accepted = hub
        .start_decision(&session, record("s1", "c2"))
        .await
        .unwrap();
    let failed = hub
        .start_decision(&boom_session, record("boom", "c5"))
        .await
        .unwrap();
    let last = [sample::event("b")];
    let last = hub.start_batch(&session, &last).await;
    let other = db
        .store
        .start_append_audit(sample::evaluation("s2", "c3"))
        .expect("SQLite starts appends");
    release(&raw);

    let (first, refused, accepted, failed, last, other) = tokio::join!(
        first.finish(),
        refused.finish(|_| panic!("a refused unit is never durable")),
        accepted.finish(|_| {}),
        failed.finish(|_| panic!("a failed unit is never durable")),
        last.finish(),
        other,
    );
    let err = failed.unwrap_err();
    assert!(err.message.contains("boom"), "{err}");
    assert_eq!(db.store.evaluation_of(&"c5".into()).await.unwrap(), None);
    assert!(db.store.messages(&boom_session).await.unwrap().is_empty());
    assert_eq!(first[0].as_ref().unwrap().seq, 2);
    let err = refused.unwrap_err();
    assert_eq!(err.kind, StoreErrorKind::Duplicate, "{err}");
    assert_eq!(accepted.unwrap()[0].seq, 3, "the refused unit left no gap");
    assert_eq!(last[0].as_ref().unwrap().seq, 4);
    assert_eq!(
        other.unwrap(),
        3,
        "audit: c1, c2, c3 (c5 undone, its head restored)"
    );

    // Handed out in order, each once, the refused decision never.
    let handed: Vec<(u64, Option<String>)> = [
        next_event(&mut sub).await,
        next_event(&mut sub).await,
        next_event(&mut sub).await,
    ]
    .iter()
    .map(|e| (e.seq, decision_of(e)))
    .collect();
    assert_eq!(
        handed,
        [(2, None), (3, Some("c2".to_owned())), (4, None)],
        "the feed"
    );
    let logged = logged_seqs(&db, &session).await;
    assert_eq!(logged, [1, 2, 3, 4]);
    let audit: Vec<(u64, String)> = db
        .store
        .audit_records(&AuditQuery::all())
        .await
        .unwrap()
        .into_iter()
        .map(|r| (r.seq, r.record.tool_call_id.as_str().to_owned()))
        .collect();
    assert_eq!(
        audit,
        [(1, "c1".into()), (2, "c2".into()), (3, "c3".into())]
    );
    let report = db.store.verify_audit(None).await.unwrap();
    assert!(report.is_intact(), "{report}");

    // The next commit continues the chain from the restored head, and the file reopens
    // and verifies once the store (and its threads) are gone.
    let next = db.store.write_decision(record("s1", "c4")).await.unwrap();
    assert_eq!((next.audit_seq, next.event_seqs), (4, vec![5]));
    drop(sub);
    drop(hub);
    let Db {
        store,
        config,
        _dir,
    } = db;
    drop(store);
    let integrity: String = Connection::open(&config.path)
        .unwrap()
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .unwrap();
    assert_eq!(integrity, "ok");
    let reopened = SqliteStore::with_config(config).unwrap();
    let report = reopened.verify_audit().await.unwrap();
    assert!(report.is_intact(), "{report}");
}

/// The seqs of a session's logged events, oldest first.
async fn logged_seqs(db: &Db, session: &SessionId) -> Vec<u64> {
    let logged = db.store.events_since(session, 0, 100).await.unwrap();
    logged.iter().map(|e| e.seq).collect()
}

/// Queues an event of `session` on the writer (SQLite starts appends) without waiting.
fn start_event(db: &Db, session: &SessionId, id: &str) -> warrant_core::store::PendingAppend {
    db.store
        .start_append_event(session, &sample::event(id))
        .expect("SQLite starts appends")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn events_after_a_unit_undone_past_its_first_event_are_numbered_without_a_gap() {
    let db = open();
    let session = SessionId::new("s1");
    start_event(&db, &session, "e1").await.unwrap();
    // The unit's second event fails, after its first was appended in the same commit.
    Connection::open(&db.config.path)
        .unwrap()
        .execute_batch(
            "CREATE TRIGGER boom BEFORE INSERT ON events WHEN NEW.body LIKE '%boom%' \
             BEGIN SELECT RAISE(ABORT, 'boom'); END;",
        )
        .unwrap();
    let mut unit = record("s1", "c1");
    unit.events = vec![sample::event("appended"), sample::event("boom")];

    let raw = hold_write_lock(&db);
    // The writer takes this one alone and waits for the lock with it...
    let second = start_event(&db, &session, "e2");
    tokio::time::sleep(Duration::from_millis(200)).await;
    // ...so these are committed together: an event, the unit undone after its first event,
    // and events of the same session after it.
    let third = start_event(&db, &session, "e3");
    let failed = match db.store.record_decision(unit) {
        warrant_core::store::DecisionWrite::Queued(written) => written,
        other => panic!("SQLite queues decision records: {other:?}"),
    };
    let fourth = start_event(&db, &session, "e4");
    let fifth = start_event(&db, &session, "e5");
    release(&raw);

    let (second, third, failed, fourth, fifth) = tokio::join!(second, third, failed, fourth, fifth);
    let err = failed.unwrap_err();
    assert!(err.message.contains("boom"), "{err}");
    let seqs = [second, third, fourth, fifth].map(Result::unwrap);
    assert_eq!(seqs, [2, 3, 4, 5]);
    let logged = logged_seqs(&db, &session).await;
    assert_eq!(logged, [1, 2, 3, 4, 5], "no gap, nothing of the unit");
    assert_eq!(db.store.evaluation_of(&"c1".into()).await.unwrap(), None);
}
