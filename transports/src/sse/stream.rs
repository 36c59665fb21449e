//! A subscription as an SSE response body: event frames, keep-alive comments while idle,
//! and, for an agent run, an end once the run is over.

use std::convert::Infallible;
use std::time::Duration;

use axum::body::{Body, Bytes};
use tokio::sync::oneshot;
use warrant_core::event::Event;

use super::frame::{KEEP_ALIVE, comment_frame, event_frame};
use warrant_core::events::{Item, Subscription};

/// How long a stream stays silent before it sends a keep-alive comment.
pub const DEFAULT_KEEP_ALIVE: Duration = Duration::from_secs(15);

/// Where an event stream ends.
#[derive(Debug)]
pub enum StopAt {
    /// Never: the stream lasts until the client leaves or the hub shuts down.
    Never,
    /// After the run's `RUN_FINISHED` or a `RUN_ERROR`; or, should those never be logged,
    /// once `done` fires (the run's task is over) and the log holds nothing more.
    RunEnd {
        /// The run.
        run_id: String,
        /// Fires (or is dropped) when the run's task ends.
        done: oneshot::Receiver<()>,
    },
}

/// A session's events as SSE frames.
pub struct EventStream {
    sub: Subscription,
    keep_alive: Duration,
    run_id: Option<String>,
    done: Option<oneshot::Receiver<()>>,
    draining: bool,
    finished: bool,
}

impl std::fmt::Debug for EventStream {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EventStream")
            .field("session_id", &self.sub.session_id())
            .field("last_seq", &self.sub.last_seq())
            .field("keep_alive", &self.keep_alive)
            .field("finished", &self.finished)
            .finish_non_exhaustive()
    }
}

impl EventStream {
    /// Frames `sub`'s events, with a keep-alive comment after `keep_alive` of silence.
    pub fn new(sub: Subscription, keep_alive: Duration, stop: StopAt) -> Self {
        let (run_id, done) = match stop {
            StopAt::Never => (None, None),
            StopAt::RunEnd { run_id, done } => (Some(run_id), Some(done)),
        };
        Self {
            sub,
            keep_alive,
            run_id,
            done,
            draining: false,
            finished: false,
        }
    }

    /// The next frame; `None` at the end of the stream.
    pub async fn next_frame(&mut self) -> Option<Bytes> {
        loop {
            if self.finished {
                return None;
            }
            if self.draining {
                let item = self.sub.next_logged().await;
                return self.frame(item);
            }
            tokio::select! {
                biased;
                item = tokio::time::timeout(self.keep_alive, self.sub.next()) => {
                    return match item {
                        Err(_) => Some(Bytes::from_static(KEEP_ALIVE)),
                        Ok(item) => self.frame(item),
                    };
                }
                _ = async {
                    match self.done.as_mut() {
                        Some(done) => drop(done.await),
                        None => std::future::pending().await,
                    }
                } => {
                    self.done = None;
                    self.draining = true;
                }
            }
        }
    }

    /// The stream as a response body.
    pub fn into_body(self) -> Body {
        Body::from_stream(futures::stream::unfold(self, |mut s| async move {
            s.next_frame()
                .await
                .map(|frame| (Ok::<_, Infallible>(frame), s))
        }))
    }

    fn frame(&mut self, item: Option<Item>) -> Option<Bytes> {
        match item {
            None => {
                self.finished = true;
                None
            }
            Some(Item::Missed { first, last }) => Some(comment_frame(&format!(
                "events {first} to {last} are no longer retained; resynchronize"
            ))),
            Some(Item::Event(stored)) => {
                if self.ends_run(&stored.event) {
                    self.finished = true;
                }
                Some(event_frame(stored.seq, &stored.event))
            }
        }
    }

    fn ends_run(&self, event: &Event) -> bool {
        match (&self.run_id, event) {
            (Some(run_id), Event::RunFinished(f)) => &f.run_id == run_id,
            (Some(_), Event::RunError(_)) => true,
            _ => false,
        }
    }
}
