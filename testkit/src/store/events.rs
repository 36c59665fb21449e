//! The session event log that SSE resumption reads.

use warrant_core::store::StoredEvent;

use super::Subject;
use super::sample;

fn seqs(events: &[StoredEvent]) -> Vec<u64> {
    events.iter().map(|e| e.seq).collect()
}

/// Events are numbered per session.
pub async fn events_are_numbered_per_session(s: Subject) {
    assert_eq!(
        s.store
            .append_event(&"s1".into(), &sample::event("a"))
            .await
            .unwrap(),
        1
    );
    assert_eq!(
        s.store
            .append_event(&"s2".into(), &sample::event("b"))
            .await
            .unwrap(),
        1
    );
    assert_eq!(
        s.store
            .append_event(&"s1".into(), &sample::event("c"))
            .await
            .unwrap(),
        2
    );
    let s1 = s.store.events_since(&"s1".into(), 0, 100).await.unwrap();
    assert_eq!(seqs(&s1), [1, 2]);
    assert_eq!(s1[1].event, sample::event("c"));
    assert!(
        s.store
            .events_since(&"nobody".into(), 0, 100)
            .await
            .unwrap()
            .is_empty()
    );
}

/// `events_since` returns the later events, up to the limit.
pub async fn events_since_returns_later_events_up_to_the_limit(s: Subject) {
    for i in 0..5 {
        s.store
            .append_event(&"s1".into(), &sample::event(format!("c{i}")))
            .await
            .unwrap();
    }
    assert_eq!(
        seqs(&s.store.events_since(&"s1".into(), 2, 100).await.unwrap()),
        [3, 4, 5]
    );
    assert_eq!(
        seqs(&s.store.events_since(&"s1".into(), 1, 2).await.unwrap()),
        [2, 3]
    );
    assert!(
        s.store
            .events_since(&"s1".into(), 5, 100)
            .await
            .unwrap()
            .is_empty()
    );
}

/// The event log keeps only the latest events.
pub async fn the_event_log_keeps_only_the_latest_events(s: Subject) {
    let total = s.event_retention as u64 + 5;
    for i in 0..total {
        s.store
            .append_event(&"s1".into(), &sample::event(format!("c{i}")))
            .await
            .unwrap();
    }
    s.store
        .append_event(&"s2".into(), &sample::event("other"))
        .await
        .unwrap();
    let kept = s
        .store
        .events_since(&"s1".into(), 0, usize::MAX)
        .await
        .unwrap();
    // The reader sees the gap: the first event it gets is past the one it asked after.
    assert_eq!(seqs(&kept), (6..=total).collect::<Vec<_>>());
    assert_eq!(
        seqs(&s.store.events_since(&"s2".into(), 0, 10).await.unwrap()),
        [1]
    );
}

/// The event log survives a restart and numbering continues.
pub async fn the_event_log_survives_a_restart_and_numbering_continues(mut s: Subject) {
    s.store
        .append_event(&"s1".into(), &sample::event("a"))
        .await
        .unwrap();
    s.restart();
    assert_eq!(
        s.store
            .append_event(&"s1".into(), &sample::event("b"))
            .await
            .unwrap(),
        2
    );
    let events = s.store.events_since(&"s1".into(), 0, 10).await.unwrap();
    assert_eq!(
        events.into_iter().map(|e| e.event).collect::<Vec<_>>(),
        [sample::event("a"), sample::event("b")]
    );
}
