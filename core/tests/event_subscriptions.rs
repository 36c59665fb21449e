//! The engine's event log and its subscriptions: every event is logged once by the engine,
//! whatever the transport, and `Engine::subscribe` / `subscribe_all` stream it resumably, in
//! the contract's order, with no gap and no duplicate.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use futures::StreamExt;
use serde_json::json;
use warrant_core::event::{
    TOOL_APPROVAL_REQUEST, TOOL_PERMISSION_DECISION, TOOL_PERMISSION_RESOLUTION, TextMessageContent,
};
use warrant_core::events::{EventHub, Item, SessionItem};
use warrant_core::prelude::*;
use warrant_core::testkit::evaluator_fn;

/// Asks for `Bash`, allows everything else.
fn chain() -> Chain {
    Chain::builder()
        .evaluator(evaluator_fn(
            "judge",
            PermissionDecisionSource::Policy,
            |call, _| {
                let stance = if call.tool_name == "Bash" {
                    Stance::RequireAsk
                } else {
                    Stance::PolicyAllow
                };
                Verdict::decide(stance, Rationale::new("test_rule", "because", Risk::Low))
            },
        ))
        .build()
}

async fn engine_with(store: Arc<MemoryStore>, transport: Option<Arc<dyn Transport>>) -> Engine {
    let mut builder = Engine::builder(chain()).store(store);
    if let Some(transport) = transport {
        builder = builder.transport(transport);
    }
    builder.build().await.unwrap()
}

fn say(n: usize) -> AgentEvent {
    AgentEvent::TextMessageContent(TextMessageContent {
        message_id: "m1".into(),
        delta: format!("event {n}"),
        timestamp: None,
    })
}

fn name(event: &Event) -> String {
    match event {
        Event::Custom(c) => c.name.clone(),
        other => other.type_name().to_owned(),
    }
}

fn announced() -> AuthorizeOptions {
    AuthorizeOptions {
        announce: true,
        ..AuthorizeOptions::default()
    }
}

async fn next_event(stream: &mut (impl futures::Stream<Item = Item> + Unpin)) -> (u64, Event) {
    match tokio::time::timeout(Duration::from_secs(5), stream.next()).await {
        Ok(Some(Item::Event(e))) => (e.seq, e.event.clone()),
        other => panic!("expected an event, got {other:?}"),
    }
}

async fn logged(store: &MemoryStore, session: &str) -> Vec<(u64, String)> {
    store
        .events_since(&SessionId::from(session), 0, 10_000)
        .await
        .unwrap()
        .into_iter()
        .map(|e| (e.seq, name(&e.event)))
        .collect()
}

#[tokio::test]
async fn the_engine_logs_every_event_without_a_logging_transport() {
    let store = Arc::new(MemoryStore::new());
    let transport = Arc::new(MemoryTransport::new());
    let engine = engine_with(store.clone(), Some(transport.clone())).await;
    let mut rx = transport.subscribe(&"s1".into());
    engine
        .authorize(ToolCall::new("s1", "c1", "Read", json!({})), announced())
        .await
        .unwrap();
    let log = logged(&store, "s1").await;
    assert_eq!(
        log,
        vec![
            (1, "TOOL_CALL_START".to_owned()),
            (2, "TOOL_CALL_ARGS".to_owned()),
            (3, "TOOL_CALL_END".to_owned()),
            (4, TOOL_PERMISSION_DECISION.to_owned()),
        ]
    );
    // The transport still gets every event, in the same order.
    let sent: Vec<String> = std::iter::from_fn(|| rx.try_recv().ok())
        .map(|e| name(&e))
        .collect();
    assert_eq!(sent, log.into_iter().map(|(_, n)| n).collect::<Vec<_>>());
}

#[tokio::test]
async fn subscribing_after_an_event_id_resumes_with_the_next_one() {
    let store = Arc::new(MemoryStore::new());
    let engine = engine_with(store.clone(), None).await;
    for n in 1..=5 {
        engine.emit(&"s1".into(), say(n)).await;
    }
    let mut events = engine.subscribe(&"s1".into(), 3);
    assert_eq!(next_event(&mut events).await.0, 4);
    assert_eq!(next_event(&mut events).await.0, 5);
    assert_eq!(events.last_seq(), 5);
    // Then live.
    engine.emit(&"s1".into(), say(6)).await;
    let (seq, event) = next_event(&mut events).await;
    assert_eq!(seq, 6);
    assert!(matches!(event, Event::TextMessageContent(t) if t.delta == "event 6"));
    // From 0: the whole retained log.
    let mut all = engine.subscribe(&"s1".into(), 0);
    let mut seqs = Vec::new();
    for _ in 0..6 {
        seqs.push(next_event(&mut all).await.0);
    }
    assert_eq!(seqs, vec![1, 2, 3, 4, 5, 6]);
}

#[tokio::test]
async fn a_lagging_subscriber_resumes_from_the_log_without_gap_or_duplicate() {
    let store = Arc::new(MemoryStore::new());
    // A hub on the engine's store, given as the transport, becomes the engine's hub.
    let hub = Arc::new(EventHub::with_window(store.clone(), 2));
    let engine = engine_with(store.clone(), Some(hub.clone())).await;
    assert!(engine.events().same_hub(&hub));
    let mut events = engine.subscribe(&"s1".into(), 0);
    for n in 1..=100 {
        engine.emit(&"s1".into(), say(n)).await;
    }
    let mut seqs = Vec::new();
    for _ in 0..100 {
        seqs.push(next_event(&mut events).await.0);
    }
    assert_eq!(seqs, (1..=100).collect::<Vec<u64>>());
    // Logged once each, though the hub is also the engine's transport.
    assert_eq!(logged(&store, "s1").await.len(), 100);
    // Nothing more is pending.
    assert!(
        tokio::time::timeout(Duration::from_millis(50), events.next())
            .await
            .is_err()
    );
}

#[tokio::test]
async fn a_hub_on_another_store_is_a_transport_like_any_other() {
    let store = Arc::new(MemoryStore::new());
    let elsewhere = Arc::new(MemoryStore::new());
    let hub = Arc::new(EventHub::new(elsewhere.clone()));
    let engine = engine_with(store.clone(), Some(hub.clone())).await;
    assert!(!engine.events().same_hub(&hub));
    engine.emit(&"s1".into(), say(1)).await;
    assert_eq!(logged(&store, "s1").await.len(), 1);
    assert_eq!(logged(&elsewhere, "s1").await.len(), 1);
}

#[tokio::test]
async fn the_stream_keeps_the_contracts_order() {
    let store = Arc::new(MemoryStore::new());
    let engine = engine_with(store.clone(), None).await;
    let mut events = engine.subscribe(&"s1".into(), 0);
    let mut everything = engine.subscribe_all();
    let asked = engine
        .authorize(
            ToolCall::new("s1", "c1", "Bash", json!({"command": "ls"})),
            announced(),
        )
        .await
        .unwrap();
    assert_eq!(asked.decision.behavior, Behavior::Ask);
    engine.resolve(&"c1".into(), "allow_once").await.unwrap();
    let expected = [
        "TOOL_CALL_START",
        "TOOL_CALL_ARGS",
        "TOOL_CALL_END",
        TOOL_PERMISSION_DECISION,
        TOOL_APPROVAL_REQUEST,
        TOOL_PERMISSION_RESOLUTION,
    ];
    let mut streamed = Vec::new();
    for n in 1..=expected.len() {
        let (seq, event) = next_event(&mut events).await;
        assert_eq!(seq, n as u64);
        if let Some(id) = event.tool_call_id() {
            assert_eq!(id, "c1");
        }
        streamed.push(name(&event));
    }
    assert_eq!(streamed, expected);
    let mut tagged = Vec::new();
    for _ in 0..expected.len() {
        let SessionItem { session_id, item } = everything.next().await.unwrap();
        assert_eq!(&*session_id, "s1");
        let Item::Event(e) = item else {
            panic!("an event")
        };
        tagged.push((e.seq, name(&e.event)));
    }
    assert_eq!(tagged, logged(&store, "s1").await);
}

#[tokio::test]
async fn subscribe_all_is_live_from_now_and_tags_each_session() {
    let store = Arc::new(MemoryStore::new());
    let engine = engine_with(store.clone(), None).await;
    engine.emit(&"s1".into(), say(0)).await;
    let mut everything = engine.subscribe_all();
    engine.emit(&"s2".into(), say(1)).await;
    engine.emit(&"s1".into(), say(2)).await;
    let first = everything.next().await.unwrap();
    assert_eq!(&*first.session_id, "s2");
    assert!(matches!(&first.item, Item::Event(e) if e.seq == 1));
    let second = everything.next().await.unwrap();
    assert_eq!(&*second.session_id, "s1");
    // s1's event 1 came before the subscription: not replayed.
    assert!(matches!(&second.item, Item::Event(e) if e.seq == 2));
    assert!(
        tokio::time::timeout(Duration::from_millis(50), everything.next())
            .await
            .is_err()
    );
}

#[tokio::test]
async fn a_lagging_subscriber_to_every_session_resumes_each_from_the_log() {
    let store = Arc::new(MemoryStore::new());
    let hub = Arc::new(EventHub::with_window(store.clone(), 3));
    let engine = engine_with(store.clone(), Some(hub)).await;
    // Seen before the lag: s1's cursor is known.
    engine.emit(&"s1".into(), say(0)).await;
    let mut everything = engine.subscribe_all();
    engine.emit(&"s1".into(), say(1)).await;
    let first = everything.next().await.unwrap();
    assert!(matches!(&first.item, Item::Event(e) if e.seq == 2));
    // Far more than the window, across sessions seen and unseen.
    for n in 0..60 {
        let session = ["s1", "s2", "s3"][n % 3];
        engine.emit(&SessionId::from(session), say(n)).await;
    }
    let mut per_session: HashMap<String, Vec<u64>> = HashMap::new();
    for _ in 0..60 {
        let item = tokio::time::timeout(Duration::from_secs(5), everything.next())
            .await
            .unwrap()
            .unwrap();
        let Item::Event(e) = item.item else {
            panic!("nothing is lost to retention here")
        };
        per_session
            .entry(item.session_id.to_string())
            .or_default()
            .push(e.seq);
    }
    assert_eq!(per_session["s1"], (3..=22).collect::<Vec<u64>>());
    assert_eq!(per_session["s2"], (1..=20).collect::<Vec<u64>>());
    assert_eq!(per_session["s3"], (1..=20).collect::<Vec<u64>>());
    assert!(
        tokio::time::timeout(Duration::from_millis(50), everything.next())
            .await
            .is_err()
    );
}

#[tokio::test]
async fn events_dropped_by_retention_are_reported_as_missed() {
    let store = Arc::new(MemoryStore::with_event_retention(3));
    let engine = engine_with(store.clone(), None).await;
    for n in 1..=6 {
        engine.emit(&"s1".into(), say(n)).await;
    }
    let mut events = engine.subscribe(&"s1".into(), 1);
    match events.next().await {
        Some(Item::Missed { first, last }) => assert_eq!((first, last), (2, 3)),
        other => panic!("expected a gap, got {other:?}"),
    }
    assert_eq!(next_event(&mut events).await.0, 4);
}

#[tokio::test]
async fn a_shut_down_hub_ends_every_stream() {
    let engine = engine_with(Arc::new(MemoryStore::new()), None).await;
    let mut one = engine.subscribe(&"s1".into(), 0);
    let mut everything = engine.subscribe_all();
    engine.events().shutdown();
    assert!(one.next().await.is_none());
    assert!(everything.next().await.is_none());
}

#[tokio::test]
async fn dropping_a_subscriber_to_every_session_leaves_the_hub_as_it_was() {
    let engine = engine_with(Arc::new(MemoryStore::new()), None).await;
    let everything = engine.subscribe_all();
    engine.emit(&"s1".into(), say(1)).await;
    drop(everything);
    engine.emit(&"s1".into(), say(2)).await;
    assert_eq!(engine.events().live_sessions(), 0);
}
