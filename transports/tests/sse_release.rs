//! A session's live channel lives only while someone listens: streams opened and left without
//! a single event leave nothing behind, and a subscriber arriving while nobody else listens
//! still gets every event.

mod support;

use std::sync::Arc;

use warrant_core::event::{Event, TextMessageContent};
use warrant_core::store::MemoryStore;
use warrant_transports::sse::{Item, SseHub};

fn text(delta: &str) -> Event {
    Event::TextMessageContent(TextMessageContent {
        message_id: "m".into(),
        delta: delta.into(),
        timestamp: None,
    })
}

#[tokio::test]
async fn subscriptions_to_quiet_sessions_leave_no_channel() {
    let hub = SseHub::new(Arc::new(MemoryStore::new()));
    for n in 0..1000 {
        let subscription = hub.subscribe(&format!("quiet-{n}").into(), 0);
        assert_eq!(hub.live_sessions(), 1);
        drop(subscription);
    }
    assert_eq!(hub.live_sessions(), 0);
}

#[tokio::test]
async fn publishing_with_nobody_listening_keeps_no_channel_and_logs_the_event() {
    let hub = SseHub::new(Arc::new(MemoryStore::new()));
    assert_eq!(hub.publish(&"s1".into(), &text("a")).await.unwrap(), 1);
    assert_eq!(hub.live_sessions(), 0);
    let mut late = hub.subscribe(&"s1".into(), 0);
    let Some(Item::Event(first)) = late.next().await else {
        panic!("the logged event")
    };
    assert_eq!(first.seq, 1);
    hub.publish(&"s1".into(), &text("b")).await.unwrap();
    let Some(Item::Event(second)) = late.next().await else {
        panic!("the live event")
    };
    assert_eq!(second.seq, 2);
    drop(late);
    assert_eq!(hub.live_sessions(), 0);
}
