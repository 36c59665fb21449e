//! `Last-Event-ID` on `GET /v1/sessions/{id}/events` (through the public router), and the SSE
//! framing of what is then streamed.
//!
//! Three events are logged in session `s1` first. Asserts: no panic; the header is either
//! accepted (200) — and then it is a whole number — or refused with 400
//! `invalid_last_event_id`; a stream resumed after `N` starts with event `N + 1` when there is
//! one, and otherwise sends no event the client already saw. The same bytes, as an event's
//! text, as a comment, and (when they are JSON) as a whole event, frame as SSE clients read
//! them: `id:` line, one `data:` line with no CR or LF inside, blank line; the data reads back
//! as the same event.
#![no_main]

use std::net::SocketAddr;
use std::sync::Arc;

use axum::body::Body;
use axum::http::{HeaderValue, Request, StatusCode, header};
use futures::StreamExt;
use libfuzzer_sys::fuzz_target;
use serde_json::Value;
use tower::ServiceExt;
use warrant_core::engine::Engine;
use warrant_core::event::{Event, TextMessageContent};
use warrant_core::store::MemoryStore;
use warrant_fuzz::{chain, paused_runtime};
use warrant_server::{ServerConfig, ServerState, router};
use warrant_transports::sse::{SseHub, comment_frame, event_frame};

const TOKEN: &str = "fuzz-token";
const LOGGED: u64 = 3;

fn text(delta: String) -> Event {
    Event::TextMessageContent(TextMessageContent {
        message_id: "m".to_owned(),
        delta,
        timestamp: None,
    })
}

/// Checks one event frame and returns its data line.
fn check_event_frame(seq: u64, event: &Event) -> String {
    let frame = event_frame(seq, event);
    let frame = std::str::from_utf8(&frame).expect("frames are UTF-8");
    let body = frame.strip_suffix("\n\n").expect("a frame ends with a blank line");
    let (id, data) = body.split_once('\n').expect("an id line and a data line");
    assert_eq!(id, format!("id: {seq}"));
    let data = data.strip_prefix("data: ").expect("a data line");
    assert!(!data.contains(['\n', '\r']), "a line break inside the data: {frame:?}");
    data.to_owned()
}

fuzz_target!(|data: &[u8]| {
    // The framing of the same bytes.
    let lossy = String::from_utf8_lossy(data).into_owned();
    let event = text(lossy.clone());
    let line = check_event_frame(7, &event);
    let back: Event = serde_json::from_str(&line).expect("the data is the event's JSON");
    assert_eq!(back, event, "the event does not read back");
    let comment = comment_frame(&lossy);
    let comment = std::str::from_utf8(&comment).expect("UTF-8");
    let inner = comment
        .strip_prefix(": ")
        .and_then(|c| c.strip_suffix("\n\n"))
        .expect("a comment frame");
    assert!(!inner.contains(['\n', '\r']), "a line break inside a comment: {comment:?}");
    if let Ok(any) = serde_json::from_slice::<Event>(data) {
        let line = check_event_frame(1, &any);
        let back: Event = serde_json::from_str(&line).expect("the data is the event's JSON");
        // Without serde_json's `float_roundtrip`, a float may come back one ulp off.
        if !data.iter().any(|b| b".eE".contains(b)) {
            assert_eq!(back, any, "the event does not read back");
        }
    }

    // Resumption.
    let Ok(value) = HeaderValue::from_bytes(data) else {
        return;
    };
    let rt = paused_runtime();
    rt.block_on(async {
        let store = Arc::new(MemoryStore::new());
        let hub = Arc::new(SseHub::new(store.clone()));
        for n in 1..=LOGGED {
            hub.publish(&"s1".into(), &text(n.to_string())).await.expect("logged");
        }
        let engine = Engine::builder(chain())
            .store(store)
            .transport(hub.clone())
            .build()
            .await
            .expect("an engine");
        let addr: SocketAddr = "127.0.0.1:7878".parse().expect("an address");
        // Held to the end: a stream ends when its hub goes away.
        let _hub = Arc::clone(&hub);
        let app = router(ServerState::new(engine, hub, ServerConfig::new(TOKEN), addr));
        let request = Request::builder()
            .uri("/v1/sessions/s1/events")
            .header(header::AUTHORIZATION, format!("Bearer {TOKEN}"))
            .header("last-event-id", value)
            .body(Body::empty())
            .expect("a request");
        let response = app.oneshot(request).await.expect("infallible");
        let status = response.status();
        if status == StatusCode::BAD_REQUEST {
            let bytes = axum::body::to_bytes(response.into_body(), 1 << 20).await.expect("a body");
            let error: Value = serde_json::from_slice(&bytes).expect("a JSON error");
            assert_eq!(error["error"]["code"], "invalid_last_event_id", "{error}");
            return;
        }
        assert_eq!(status, StatusCode::OK, "Last-Event-ID {data:?}");
        let trimmed = std::str::from_utf8(data).expect("an accepted id is text").trim();
        let digits = trimmed.strip_prefix('+').unwrap_or(trimmed);
        assert!(
            !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()),
            "accepted a Last-Event-ID that is not a whole number: {data:?}"
        );
        let after: u64 = digits.parse().expect("a whole number that fits");
        // The first frame: the next event, or (none left) a keep-alive after the paused clock
        // jumps ahead.
        let mut stream = response.into_body().into_data_stream();
        let mut buffer = String::new();
        while !buffer.contains("\n\n") {
            let chunk = stream.next().await.expect("the stream goes on").expect("a chunk");
            buffer.push_str(std::str::from_utf8(&chunk).expect("UTF-8 frames"));
        }
        let first = buffer.split("\n\n").next().unwrap_or_default();
        if after < LOGGED {
            assert!(
                first.starts_with(&format!("id: {}\n", after + 1)),
                "resumed after {after}, first frame {first:?}"
            );
        } else {
            assert!(
                first.starts_with(": "),
                "resumed after {after} with {LOGGED} logged, yet got {first:?}"
            );
        }
    });
});
