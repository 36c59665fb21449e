//! The event hub over SQLite: events are queued in the writer under the session's order lock
//! and waited for outside it, yet every subscriber gets each session's events in log order,
//! each once, and a publisher giving up mid-commit never holds the later events back.

use std::sync::Arc;
use std::time::Duration;

use warrant_core::event::{Event, TextMessageContent};
use warrant_core::events::{EventHub, Item};
use warrant_core::store::EventLog;
use warrant_stores::sqlite::SqliteStore;

fn text(n: usize) -> Event {
    Event::TextMessageContent(TextMessageContent {
        message_id: "m1".into(),
        delta: format!("event {n}"),
        timestamp: None,
    })
}

fn delta(event: &Event) -> String {
    match event {
        Event::TextMessageContent(t) => t.delta.clone(),
        other => panic!("unexpected {other:?}"),
    }
}

async fn next_seq(sub: &mut warrant_core::events::Subscription) -> (u64, String) {
    match tokio::time::timeout(Duration::from_secs(10), sub.next()).await {
        Ok(Some(Item::Event(e))) => (e.seq, delta(&e.event)),
        other => panic!("expected an event, got {other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_publishers_of_a_session_are_handed_out_in_log_order() {
    let dir = tempfile::tempdir().unwrap();
    let store = Arc::new(SqliteStore::open(dir.path().join("w.db")).unwrap());
    let hub = EventHub::new(store.clone());
    let mut sub = hub.subscribe(&"s1".into(), 0);
    let mut everything = hub.subscribe_all();
    let mut tasks = Vec::new();
    for n in 0..200 {
        let hub = hub.clone();
        tasks.push(tokio::spawn(async move {
            hub.publish(&"s1".into(), &text(n)).await.unwrap()
        }));
    }
    let mut seqs = Vec::new();
    for t in tasks {
        seqs.push(t.await.unwrap());
    }
    seqs.sort_unstable();
    assert_eq!(seqs, (1..=200).collect::<Vec<u64>>());
    let logged = store.events_since(&"s1".into(), 0, 1_000).await.unwrap();
    assert_eq!(logged.len(), 200);
    for expected in &logged {
        assert_eq!(
            next_seq(&mut sub).await,
            (expected.seq, delta(&expected.event))
        );
        let item = everything.next().await.unwrap();
        let Item::Event(e) = item.item else {
            panic!("an event")
        };
        assert_eq!(
            (e.seq, delta(&e.event)),
            (expected.seq, delta(&expected.event))
        );
    }
    drop(sub);
    drop(everything);
    hub.publish(&"s1".into(), &text(200)).await.unwrap();
    assert_eq!(hub.live_sessions(), 0, "the channel is released");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_publisher_giving_up_never_holds_later_events_back() {
    let dir = tempfile::tempdir().unwrap();
    let store = Arc::new(SqliteStore::open(dir.path().join("w.db")).unwrap());
    let hub = EventHub::new(store.clone());
    let mut sub = hub.subscribe(&"s1".into(), 0);
    // Publishers dropped at once, mid-way: their events may or may not be logged.
    for n in 0..20 {
        let event = text(n);
        let _ =
            tokio::time::timeout(Duration::from_nanos(1), hub.publish(&"s1".into(), &event)).await;
    }
    let last = hub.publish(&"s1".into(), &text(99)).await.unwrap();
    let logged = store.events_since(&"s1".into(), 0, 1_000).await.unwrap();
    assert_eq!(logged.last().map(|e| e.seq), Some(last));
    // The subscriber gets every logged event, in order, the last one included.
    for expected in &logged {
        assert_eq!(
            next_seq(&mut sub).await,
            (expected.seq, delta(&expected.event))
        );
    }
    drop(sub);
    hub.publish(&"s1".into(), &text(100)).await.unwrap();
    assert_eq!(hub.live_sessions(), 0, "the channel is released");
}

struct AllowAll;

#[warrant_core::async_trait]
impl warrant_core::evaluator::Evaluator for AllowAll {
    fn name(&self) -> &str {
        "allow_all"
    }

    fn source(&self) -> warrant_core::decision::PermissionDecisionSource {
        warrant_core::decision::PermissionDecisionSource::Policy
    }

    async fn evaluate(
        &self,
        _call: &warrant_core::call::ToolCall,
        _cx: &warrant_core::call::EvaluationContext,
    ) -> Result<warrant_core::evaluator::Verdict, warrant_core::evaluator::EvaluatorError> {
        use warrant_core::evaluator::{Rationale, Stance, Verdict};
        Ok(Verdict::decide(
            Stance::PolicyAllow,
            Rationale::new("test_allow", "allowed", warrant_core::decision::Risk::Low),
        ))
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_announced_calls_of_a_session_stream_in_the_contracts_order() {
    use warrant_core::engine::{AuthorizeOptions, Engine};
    let dir = tempfile::tempdir().unwrap();
    let store = Arc::new(SqliteStore::open(dir.path().join("w.db")).unwrap());
    let engine = Engine::builder(
        warrant_core::chain::Chain::builder()
            .evaluator(AllowAll)
            .build(),
    )
    .store(store.clone())
    .build()
    .await
    .unwrap();
    let mut sub = engine.subscribe(&"s1".into(), 0);
    let mut tasks = Vec::new();
    for n in 0..40 {
        let engine = engine.clone();
        tasks.push(tokio::spawn(async move {
            let call = warrant_core::call::ToolCall::new(
                "s1",
                format!("c{n}"),
                "Read",
                serde_json::json!({"path": "README.md"}),
            );
            let options = AuthorizeOptions {
                announce: true,
                ..AuthorizeOptions::default()
            };
            engine.authorize(call, options).await.unwrap();
        }));
    }
    for t in tasks {
        t.await.unwrap();
    }
    let logged = store.events_since(&"s1".into(), 0, 1_000).await.unwrap();
    assert_eq!(logged.len(), 160);
    let mut stage: std::collections::HashMap<String, usize> = Default::default();
    let order = [
        "TOOL_CALL_START",
        "TOOL_CALL_ARGS",
        "TOOL_CALL_END",
        "CUSTOM",
    ];
    for expected in &logged {
        let Some(Item::Event(e)) = tokio::time::timeout(Duration::from_secs(10), sub.next())
            .await
            .unwrap()
        else {
            panic!("an event")
        };
        assert_eq!(e.as_ref(), expected);
        let id = e.event.tool_call_id().unwrap().to_owned();
        let at = stage.entry(id).or_default();
        assert_eq!(
            e.event.type_name(),
            order[*at],
            "each call's events in order"
        );
        *at += 1;
    }
    assert!(stage.values().all(|&n| n == 4));
}
