//! SSE frames are what AG-UI clients parse: LF only, an `id:` line and one `data:` line of
//! one-line JSON, comments for keep-alives; a run's stream ends with its run.

mod support;

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::oneshot;
use warrant_core::event::{Event, RunFinished, RunOutcome, RunStarted, TextMessageContent};
use warrant_core::store::MemoryStore;
use warrant_transports::sse::{
    EventStream, KEEP_ALIVE, SseHub, StopAt, comment_frame, event_frame,
};

fn text(delta: &str) -> Event {
    Event::TextMessageContent(TextMessageContent {
        message_id: "m1".to_owned(),
        delta: delta.to_owned(),
        timestamp: Some(1_700_000_000_123),
    })
}

fn started(run: &str) -> Event {
    Event::RunStarted(RunStarted {
        thread_id: "t1".to_owned(),
        run_id: run.to_owned(),
        parent_run_id: None,
        timestamp: None,
    })
}

fn finished(run: &str) -> Event {
    Event::RunFinished(RunFinished {
        thread_id: "t1".to_owned(),
        run_id: run.to_owned(),
        result: None,
        outcome: Some(RunOutcome::Success),
        timestamp: None,
    })
}

#[test]
fn an_event_frame_is_an_id_line_and_one_data_line_ending_in_lf() {
    let frame = event_frame(7, &text("two\nlines\r\nand CRLF"));
    let frame = std::str::from_utf8(&frame).expect("UTF-8");
    assert!(!frame.contains('\r'), "{frame:?}");
    assert!(frame.starts_with("id: 7\ndata: {"), "{frame:?}");
    assert!(frame.ends_with("}\n\n"), "{frame:?}");
    assert_eq!(frame.matches('\n').count(), 3, "{frame:?}");
    let parsed = support::sse::parse(frame);
    let data = parsed[0].event().expect("an event");
    assert_eq!(data["type"], "TEXT_MESSAGE_CONTENT");
    assert_eq!(data["delta"], "two\nlines\r\nand CRLF");
    assert_eq!(data["timestamp"], 1_700_000_000_123_i64);
}

#[test]
fn a_comment_frame_stays_on_one_line() {
    let frame = comment_frame("a\nb\rc");
    assert_eq!(&frame[..], b": a b c\n\n");
    assert_eq!(KEEP_ALIVE, b": keep-alive\n\n");
}

#[tokio::test(start_paused = true)]
async fn an_idle_stream_sends_keep_alive_comments_then_the_next_event() {
    let hub = SseHub::new(Arc::new(MemoryStore::new()));
    let sub = hub.subscribe(&"s1".into(), 0);
    let mut stream = EventStream::new(sub, Duration::from_secs(15), StopAt::Never);
    let before = tokio::time::Instant::now();
    let frame = stream.next_frame().await.expect("a frame");
    assert_eq!(&frame[..], KEEP_ALIVE);
    assert_eq!(before.elapsed(), Duration::from_secs(15));
    hub.publish(&"s1".into(), &text("hello"))
        .await
        .expect("logged");
    let frame = stream.next_frame().await.expect("a frame");
    assert!(frame.starts_with(b"id: 1\ndata: "), "{frame:?}");
}

#[tokio::test]
async fn a_run_stream_ends_after_its_own_run_finished() {
    let hub = SseHub::new(Arc::new(MemoryStore::new()));
    let (_task, done) = oneshot::channel::<()>();
    for event in [
        finished("earlier"),
        started("r1"),
        text("hi"),
        finished("r1"),
        text("after"),
    ] {
        hub.publish(&"t1".into(), &event).await.expect("logged");
    }
    let sub = hub.subscribe(&"t1".into(), 1);
    let run_id = "r1".to_owned();
    let mut stream = EventStream::new(
        sub,
        Duration::from_secs(15),
        StopAt::RunEnd { run_id, done },
    );
    let mut types = Vec::new();
    while let Some(frame) = stream.next_frame().await {
        let frames = support::sse::parse(std::str::from_utf8(&frame).expect("UTF-8"));
        types.push(frames[0].event().expect("an event")["type"].clone());
    }
    assert_eq!(
        types,
        ["RUN_STARTED", "TEXT_MESSAGE_CONTENT", "RUN_FINISHED"]
    );
}

#[tokio::test]
async fn a_run_stream_ends_once_its_task_is_over_even_without_run_finished() {
    let hub = SseHub::new(Arc::new(MemoryStore::new()));
    let (task, done) = oneshot::channel::<()>();
    hub.publish(&"t1".into(), &started("r1"))
        .await
        .expect("logged");
    let sub = hub.subscribe(&"t1".into(), 0);
    let run_id = "r1".to_owned();
    let mut stream = EventStream::new(
        sub,
        Duration::from_secs(15),
        StopAt::RunEnd { run_id, done },
    );
    assert!(stream.next_frame().await.is_some());
    hub.publish(&"t1".into(), &text("last words"))
        .await
        .expect("logged");
    drop(task);
    let last = stream
        .next_frame()
        .await
        .expect("the logged event still arrives");
    assert!(last.starts_with(b"id: 2\n"), "{last:?}");
    assert!(stream.next_frame().await.is_none());
}
