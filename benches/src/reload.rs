//! Reload: a session of many tool parts, written by the engine as it decides, read back from
//! SQLite in one go (what a client gets when it reopens a chat).

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};
use warrant_core::ids::SessionId;

use crate::endtoend::Rig;
use crate::timing::Stats;
use warrant_core::store::Conversations;

/// The session that is filled and reloaded.
const SESSION: &str = "reload";

/// What a reload run measured.
#[derive(Debug, Clone, Copy)]
pub struct Reload {
    /// How many calls the engine decided at a time while filling the session.
    pub writers: usize,
    /// The time the engine took to decide and persist every part.
    pub fill: Duration,
    /// Reading the whole session back.
    pub read: Stats,
}

/// Fills the session with `parts` tool parts, `per_message` to a message, as the engine
/// writes them when it decides (`writers` calls at a time); returns how long it took.
///
/// # Panics
///
/// When the engine fails.
pub async fn fill(rig: &Arc<Rig>, parts: usize, per_message: usize, writers: usize) -> Duration {
    let started = Instant::now();
    let next = Arc::new(AtomicUsize::new(0));
    let tasks: Vec<_> = (0..writers)
        .map(|_| {
            let (rig, next) = (Arc::clone(rig), Arc::clone(&next));
            tokio::spawn(async move {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= parts {
                        break;
                    }
                    let message = format!("m{}", i / per_message);
                    rig.decide(SESSION, &message, format!("reload-{i}"), rig.command(i))
                        .await;
                }
            })
        })
        .collect();
    for t in tasks {
        t.await.expect("a writer");
    }
    started.elapsed()
}

/// Reads the filled session back once; returns how long it took.
///
/// # Panics
///
/// When the store fails or the session does not hold `parts` tool parts.
pub async fn read(rig: &Rig, parts: usize) -> Duration {
    let started = Instant::now();
    let messages = rig
        .store
        .messages(&SessionId::from(SESSION))
        .await
        .expect("readable");
    let took = started.elapsed();
    let count: usize = messages.iter().map(|m| m.parts.len()).sum();
    assert_eq!(count, parts, "the session reads back whole");
    took
}

/// A runtime of two workers, as the quick run drives the reload with.
///
/// # Panics
///
/// When the runtime cannot be built.
pub fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a runtime")
}

/// [`fill`]s the session, then [`read`]s it back `runs` times.
pub async fn reload(
    rig: &Arc<Rig>,
    parts: usize,
    per_message: usize,
    writers: usize,
    runs: usize,
) -> Reload {
    let fill = fill(rig, parts, per_message, writers).await;
    let mut timings = Vec::with_capacity(runs);
    for _ in 0..runs {
        timings.push(read(rig, parts).await);
    }
    Reload {
        writers,
        fill,
        read: Stats::of(timings),
    }
}
