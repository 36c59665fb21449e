//! SSE fan-out: many subscribers framing one session's events; the time from publishing an
//! event (logged durably first) until the last subscriber has its frame.

use std::sync::Arc;
use std::time::Instant;
use warrant_core::ids::SessionId;

use tempfile::TempDir;
use tokio::sync::mpsc;
use warrant_core::event::{Event, TextMessageContent};
use warrant_stores::sqlite::SqliteStore;
use warrant_transports::sse::{DEFAULT_KEEP_ALIVE, EventStream, SseHub, StopAt};

use crate::timing::Stats;

/// The session every subscriber follows.
const SESSION: &str = "fanout";

/// What a fan-out run measured.
#[derive(Debug, Clone, Copy)]
pub struct FanOut {
    /// From `publish` until the last subscriber has the frame, one figure per event.
    pub last: Stats,
    /// The `publish` call alone (logging in the store, handing to the live feed).
    pub publish: Stats,
}

fn event(i: usize) -> Event {
    Event::TextMessageContent(TextMessageContent {
        message_id: "m1".to_owned(),
        delta: format!("event {i}"),
        timestamp: None,
    })
}

/// Attaches `subscribers` SSE streams to one session of a hub over SQLite, then publishes
/// `events` events one at a time, each after every subscriber had the previous one.
///
/// # Panics
///
/// When the store fails or a stream ends early.
pub async fn fan_out(subscribers: usize, events: usize) -> FanOut {
    let dir: TempDir = tempfile::tempdir().expect("a temporary directory");
    let store = Arc::new(SqliteStore::open(dir.path().join("warrant.db")).expect("opens"));
    let hub = SseHub::new(store);
    let (arrived, mut arrivals) = mpsc::unbounded_channel::<Instant>();
    let mut streams = Vec::with_capacity(subscribers);
    for _ in 0..subscribers {
        let sub = hub.subscribe(&SessionId::from(SESSION), 0);
        let mut stream = EventStream::new(sub, DEFAULT_KEEP_ALIVE, StopAt::Never);
        let arrived = arrived.clone();
        streams.push(tokio::spawn(async move {
            // The warm-up event, then the timed ones.
            for _ in 0..=events {
                let frame = stream.next_frame().await.expect("the stream goes on");
                assert!(frame.starts_with(b"id:"), "an event frame, not {frame:?}");
                arrived.send(Instant::now()).expect("the bench listens");
            }
        }));
    }
    let mut last = Vec::with_capacity(events);
    let mut publish = Vec::with_capacity(events);
    let session = SessionId::from(SESSION);
    for i in 0..=events {
        let started = Instant::now();
        hub.publish(&session, &event(i)).await.expect("logged");
        let published = started.elapsed();
        let mut latest = started;
        for _ in 0..subscribers {
            latest = latest.max(arrivals.recv().await.expect("every subscriber reports"));
        }
        if i > 0 {
            last.push(latest - started);
            publish.push(published);
        }
    }
    for s in streams {
        s.await.expect("a subscriber");
    }
    FanOut {
        last: Stats::of(last),
        publish: Stats::of(publish),
    }
}
