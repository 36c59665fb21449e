//! Resumption: `Last-Event-ID` resumes with no gap and no duplicate; a subscriber that falls
//! behind resumes from the store; events lost to retention are reported, never hidden.

mod support;

use std::sync::Arc;

use axum::http::{Method, StatusCode, header};
use warrant_core::event::{Event, TextMessageContent};
use warrant_core::store::MemoryStore;
use warrant_transports::sse::{Item, SseHub};

use support::Server;
use support::sse::Reader;

fn text(n: usize) -> Event {
    Event::TextMessageContent(TextMessageContent {
        message_id: "m".to_owned(),
        delta: n.to_string(),
        timestamp: None,
    })
}

async fn seqs(sub: &mut warrant_transports::sse::Subscription, n: usize) -> Vec<u64> {
    let mut out = Vec::new();
    while out.len() < n {
        match sub.next().await.expect("more") {
            Item::Event(e) => out.push(e.seq),
            Item::Missed { first, last } => panic!("missed {first}..{last}"),
        }
    }
    out
}

#[tokio::test]
async fn last_event_id_resumes_after_it_then_goes_live() {
    let hub = SseHub::new(Arc::new(MemoryStore::new()));
    for n in 1..=5 {
        hub.publish(&"s1".into(), &text(n)).await.expect("logged");
    }
    let mut sub = hub.subscribe(&"s1".into(), 2);
    assert_eq!(seqs(&mut sub, 3).await, [3, 4, 5]);
    hub.publish(&"s1".into(), &text(6)).await.expect("logged");
    assert_eq!(seqs(&mut sub, 1).await, [6]);
}

#[tokio::test]
async fn a_subscriber_that_falls_behind_resumes_from_the_store() {
    let hub = SseHub::with_window(Arc::new(MemoryStore::new()), 2);
    let mut slow = hub.subscribe(&"s1".into(), 0);
    hub.publish(&"s1".into(), &text(1)).await.expect("logged");
    assert_eq!(
        seqs(&mut slow, 1).await,
        [1],
        "caught up: now on the live feed"
    );
    // Publishing never waits for the slow subscriber, which falls 49 behind a window of 2.
    for n in 2..=50 {
        hub.publish(&"s1".into(), &text(n)).await.expect("logged");
    }
    assert_eq!(seqs(&mut slow, 49).await, (2..=50).collect::<Vec<_>>());
    hub.publish(&"s1".into(), &text(51)).await.expect("logged");
    assert_eq!(seqs(&mut slow, 1).await, [51]);
}

#[tokio::test]
async fn events_dropped_by_retention_are_reported_as_missed() {
    let hub = SseHub::new(Arc::new(MemoryStore::with_event_retention(3)));
    for n in 1..=6 {
        hub.publish(&"s1".into(), &text(n)).await.expect("logged");
    }
    let mut sub = hub.subscribe(&"s1".into(), 1);
    assert_eq!(sub.next().await, Some(Item::Missed { first: 2, last: 3 }));
    assert_eq!(seqs(&mut sub, 3).await, [4, 5, 6]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_publishers_reach_a_subscriber_in_log_order() {
    let hub = Arc::new(SseHub::with_window(Arc::new(MemoryStore::new()), 8));
    let mut sub = hub.subscribe(&"s1".into(), 0);
    let publishers: Vec<_> = (0..4)
        .map(|_| {
            let hub = Arc::clone(&hub);
            tokio::spawn(async move {
                for n in 0..50 {
                    hub.publish(&"s1".into(), &text(n)).await.expect("logged");
                }
            })
        })
        .collect();
    assert_eq!(seqs(&mut sub, 200).await, (1..=200).collect::<Vec<_>>());
    for p in publishers {
        p.await.expect("published");
    }
}

#[tokio::test]
async fn sessions_do_not_see_each_others_events() {
    let hub = SseHub::new(Arc::new(MemoryStore::new()));
    let mut other = hub.subscribe(&"s2".into(), 0);
    hub.publish(&"s1".into(), &text(1)).await.expect("logged");
    hub.publish(&"s2".into(), &text(2)).await.expect("logged");
    match other.next().await.expect("an item") {
        Item::Event(e) => assert_eq!((e.seq, e.event.clone()), (1, text(2))),
        missed => panic!("{missed:?}"),
    }
}

#[tokio::test]
async fn shutting_the_hub_down_ends_every_subscription() {
    let hub = SseHub::new(Arc::new(MemoryStore::new()));
    let mut sub = hub.subscribe(&"s1".into(), 0);
    hub.shutdown();
    assert_eq!(sub.next().await, None);
}

#[tokio::test]
async fn the_events_route_resumes_from_last_event_id() {
    let server = Server::new().await;
    for n in 1..=4 {
        server
            .state
            .hub()
            .publish(&"s1".into(), &text(n))
            .await
            .expect("logged");
    }
    let request = support::request(Method::GET, "/v1/sessions/s1/events")
        .header(header::AUTHORIZATION, format!("Bearer {}", support::TOKEN))
        .header("Last-Event-ID", "2")
        .body(axum::body::Body::empty())
        .expect("a request");
    let response = server.open(request).await;
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(
        response.headers()[header::CONTENT_TYPE],
        "text/event-stream"
    );
    let mut reader = Reader::new(response.into_body());
    let first = reader.events(2).await;
    assert_eq!(first.iter().map(|(id, _)| *id).collect::<Vec<_>>(), [3, 4]);
    assert_eq!(first[0].1["delta"], "3");
    server
        .state
        .hub()
        .publish(&"s1".into(), &text(5))
        .await
        .expect("logged");
    assert_eq!(reader.events(1).await[0].0, 5);
}

#[tokio::test]
async fn the_events_route_refuses_a_malformed_last_event_id() {
    let server = Server::new().await;
    let request = support::request(Method::GET, "/v1/sessions/s1/events")
        .header(header::AUTHORIZATION, format!("Bearer {}", support::TOKEN))
        .header("Last-Event-ID", "seven")
        .body(axum::body::Body::empty())
        .expect("a request");
    server
        .raw(request)
        .await
        .assert_error(StatusCode::BAD_REQUEST, "invalid_last_event_id");
}
