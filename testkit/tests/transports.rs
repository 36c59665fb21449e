//! The transport behaviour suite, run against the built-in transports: the in-memory
//! broadcast ([`MemoryTransport`]), the SSE hub ([`SseHub`], the engine's event hub) and the
//! JSON-lines output of `warrant stdio` ([`LineTransport`]).

use std::sync::{Arc, Mutex};

use futures::StreamExt;
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::sync::broadcast;
use warrant_core::event::Event;
use warrant_core::store::MemoryStore;
use warrant_core::transport::MemoryTransport;
use warrant_testkit::transport::{Observer, Subject};
use warrant_transports::sse::{Item, SseHub};
use warrant_transports::stdio::LineTransport;

/// A broadcast per session; a subscriber that went away is simply gone.
fn memory() -> Subject {
    let transport = Arc::new(MemoryTransport::new());
    let watched = Arc::clone(&transport);
    Subject::new(transport, Arc::new(MemoryStore::new()), move |session| {
        Observer::broadcast(watched.subscribe(session))
    })
}

/// The event hub over a memory store: an observer is a subscription from the session's
/// start; disconnecting shuts the hub down, ending every subscription.
fn sse() -> Subject {
    let hub = Arc::new(SseHub::new(Arc::new(MemoryStore::new())));
    let (watched, stopped) = (Arc::clone(&hub), Arc::clone(&hub));
    let store = Arc::clone(hub.store());
    Subject::new(hub, store, move |session| {
        let events = watched.subscribe(session, 0).filter_map(|item| async move {
            match item {
                Item::Event(logged) => Some(logged.event.clone()),
                Item::Missed { .. } => None,
            }
        });
        Observer::new(events.boxed())
    })
    .disconnecting(move || stopped.shutdown())
}

/// JSON lines written into a pipe whose other end a reader task parses and fans out to the
/// observers (the output has one reader, the process at the other end of stdout: it never
/// lags behind on its own). Disconnecting stops the reader and closes the pipe, so every
/// later write fails.
fn stdio() -> Subject {
    let (writer, reader) = tokio::io::duplex(64 * 1024);
    let (fan_out, _) = broadcast::channel(16 * 1024);
    let sender = fan_out.clone();
    let reading = tokio::spawn(async move {
        let mut lines = BufReader::new(reader).lines();
        while let Ok(Some(line)) = lines.next_line().await {
            let event: Event = serde_json::from_str(&line).expect("every line is one event");
            let _ = sender.send(event);
        }
    });
    let reading = Arc::new(Mutex::new(Some(reading)));
    let stop = Arc::clone(&reading);
    Subject::new(
        Arc::new(LineTransport::new(writer)),
        Arc::new(MemoryStore::new()),
        move |_session| Observer::broadcast(fan_out.subscribe()),
    )
    .disconnecting(move || {
        if let Some(task) = stop.lock().unwrap().take() {
            task.abort();
        }
    })
    .keeping(reading)
}

mod memory_transport {
    warrant_testkit::transport_behaviours!(crate::memory);
}

mod sse_hub {
    warrant_testkit::transport_behaviours!(crate::sse);
}

mod line_transport {
    warrant_testkit::transport_behaviours!(crate::stdio);
}
