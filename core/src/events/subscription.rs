//! One subscriber's view of a session: the logged events after its position, then the live
//! ones, resuming from the store whenever the live feed skips ahead.

use std::collections::VecDeque;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::task::{Context, Poll};

use tokio::sync::broadcast::error::RecvError;
use tokio::sync::{broadcast, watch};

use super::Release;
use super::pump::{Pump, Source};
use crate::ids::SessionId;
use crate::store::{Store, StoredEvent};

/// How many logged events one store read returns.
pub(super) const PAGE: usize = 256;

/// What a subscription yields.
#[derive(Debug, Clone, PartialEq)]
pub enum Item {
    /// The next event, in log order, with its position in the session's log (its event id).
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

/// A session's events after a position, each exactly once and in order: the logged ones
/// first, then the live ones. A [`futures::Stream`] of [`Item`]s.
///
/// [`next`](Self::next) is cancel-safe: a call dropped before it returns loses nothing.
pub struct Subscription {
    session_id: SessionId,
    last_seq: Arc<AtomicU64>,
    pump: Pump<State>,
}

impl std::fmt::Debug for Subscription {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Subscription")
            .field("session_id", &self.session_id)
            .field("last_seq", &self.last_seq())
            .finish_non_exhaustive()
    }
}

struct State {
    store: Arc<dyn Store>,
    session_id: SessionId,
    live: broadcast::Receiver<Arc<StoredEvent>>,
    closed: watch::Receiver<bool>,
    last_seq: u64,
    shared_seq: Arc<AtomicU64>,
    backlog: VecDeque<Arc<StoredEvent>>,
    read_store: bool,
    resumed: bool,
    /// Dropped after `live` (fields drop in order): retires the channel once unused.
    _release: Release,
}

impl Subscription {
    pub(super) fn new(
        store: Arc<dyn Store>,
        session_id: SessionId,
        live: broadcast::Receiver<Arc<StoredEvent>>,
        closed: watch::Receiver<bool>,
        after_seq: u64,
        release: Release,
    ) -> Self {
        let last_seq = Arc::new(AtomicU64::new(after_seq));
        Self {
            session_id: session_id.clone(),
            last_seq: Arc::clone(&last_seq),
            pump: Pump::new(State {
                store,
                session_id,
                live,
                closed,
                last_seq: after_seq,
                shared_seq: last_seq,
                backlog: VecDeque::new(),
                read_store: true,
                resumed: after_seq > 0,
                _release: release,
            }),
        }
    }

    /// The session subscribed to.
    pub fn session_id(&self) -> &SessionId {
        &self.session_id
    }

    /// The position of the last event yielded (or the starting position).
    pub fn last_seq(&self) -> u64 {
        self.last_seq.load(Ordering::Acquire)
    }

    /// The next item; `None` once the hub shut down or the store failed (the subscriber may
    /// reconnect from [`last_seq`](Self::last_seq)).
    pub async fn next(&mut self) -> Option<Item> {
        self.pump.next().await
    }

    /// Only what the log holds now: the next logged item, `None` once caught up.
    pub async fn next_logged(&mut self) -> Option<Item> {
        self.pump.state().await.next_logged().await
    }
}

impl futures::Stream for Subscription {
    type Item = Item;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Item>> {
        self.get_mut().pump.poll(cx)
    }
}

impl Source for State {
    type Out = Item;

    async fn next(&mut self) -> Option<Item> {
        let item = self.next_item().await;
        self.shared_seq.store(self.last_seq, Ordering::Release);
        item
    }
}

impl State {
    async fn next_item(&mut self) -> Option<Item> {
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

    async fn next_logged(&mut self) -> Option<Item> {
        let item = match self.pop_backlog() {
            Some(item) => Some(item),
            None => {
                self.fill_from_store().await?;
                self.pop_backlog()
            }
        };
        self.shared_seq.store(self.last_seq, Ordering::Release);
        item
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
