//! One subscriber's view of a session: the logged events after its position, then the live
//! ones, resuming from the store whenever the live feed skips ahead.

use std::collections::VecDeque;
use std::sync::Arc;

use tokio::sync::broadcast::error::RecvError;
use tokio::sync::{broadcast, watch};
use warrant_core::store::{Store, StoredEvent};

use super::Release;

/// How many logged events one store read returns.
const PAGE: usize = 256;

/// What a subscription yields.
#[derive(Debug, Clone, PartialEq)]
pub enum Item {
    /// The next event, in log order.
    Event(Arc<StoredEvent>),
    /// The log no longer holds the events from `first` to `last` (dropped by retention);
    /// the subscriber resumed after them and should resynchronize.
    Missed {
        /// The first position missed.
        first: u64,
        /// The last position missed.
        last: u64,
    },
}

/// A session's events after a position, each exactly once and in order.
///
/// [`next`](Self::next) is cancel-safe: a call dropped before it returns loses nothing.
pub struct Subscription {
    store: Arc<dyn Store>,
    session_id: String,
    live: broadcast::Receiver<Arc<StoredEvent>>,
    closed: watch::Receiver<bool>,
    last_seq: u64,
    backlog: VecDeque<Arc<StoredEvent>>,
    read_store: bool,
    resumed: bool,
    /// Dropped after `live` (fields drop in order): retires the channel once unused.
    _release: Release,
}

impl Subscription {
    pub(super) fn new(
        store: Arc<dyn Store>,
        session_id: String,
        live: broadcast::Receiver<Arc<StoredEvent>>,
        closed: watch::Receiver<bool>,
        after_seq: u64,
        release: Release,
    ) -> Self {
        Self {
            store,
            session_id,
            live,
            closed,
            last_seq: after_seq,
            backlog: VecDeque::new(),
            read_store: true,
            resumed: after_seq > 0,
            _release: release,
        }
    }

    /// The session subscribed to.
    pub fn session_id(&self) -> &str {
        &self.session_id
    }

    /// The position of the last event yielded (or the starting position).
    pub fn last_seq(&self) -> u64 {
        self.last_seq
    }

    /// The next item; `None` once the hub shut down or the store failed (the subscriber may
    /// reconnect from [`last_seq`](Self::last_seq)).
    pub async fn next(&mut self) -> Option<Item> {
        loop {
            if *self.closed.borrow() {
                return None;
            }
            if let Some(item) = self.pop_backlog() {
                return Some(item);
            }
            if self.read_store {
                if !self.fill_from_store().await? {
                    self.read_store = false;
                }
                continue;
            }
            tokio::select! {
                _ = self.closed.changed() => return None,
                received = self.live.recv() => match received {
                    Ok(event) if event.seq <= self.last_seq => {}
                    Ok(event) if event.seq == self.last_seq + 1 => {
                        self.last_seq = event.seq;
                        return Some(Item::Event(event));
                    }
                    // Skipped ahead (an emitter raced us) or fell behind: the log has it all.
                    Ok(_) | Err(RecvError::Lagged(_)) => self.read_store = true,
                    Err(RecvError::Closed) => return None,
                },
            }
        }
    }

    /// Only what the log holds now: the next logged item, `None` once caught up.
    pub async fn next_logged(&mut self) -> Option<Item> {
        if let Some(item) = self.pop_backlog() {
            return Some(item);
        }
        self.fill_from_store().await?;
        self.pop_backlog()
    }

    fn pop_backlog(&mut self) -> Option<Item> {
        let event = self.backlog.pop_front()?;
        let expected = self.last_seq + 1;
        if event.seq > expected && (self.resumed || self.last_seq > 0) {
            let last = event.seq - 1;
            self.last_seq = last;
            self.backlog.push_front(event);
            return Some(Item::Missed {
                first: expected,
                last,
            });
        }
        self.last_seq = event.seq;
        Some(Item::Event(event))
    }

    /// Reads the next page of the log into the backlog: `Some(true)` when the page was full
    /// (more may follow), `Some(false)` when caught up, `None` when the store failed.
    async fn fill_from_store(&mut self) -> Option<bool> {
        let page = match self
            .store
            .events_since(&self.session_id, self.last_seq, PAGE)
            .await
        {
            Ok(page) => page,
            Err(e) => {
                tracing::warn!(session_id = %self.session_id, error = %e, "event log unreadable; subscription ends");
                return None;
            }
        };
        let full = page.len() >= PAGE;
        self.backlog.extend(
            page.into_iter()
                .filter(|e| e.seq > self.last_seq)
                .map(Arc::new),
        );
        Some(full)
    }
}
