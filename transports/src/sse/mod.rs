//! The SSE hub: every event of a session is logged in the store (its position there is the
//! SSE `id:`), then handed to the session's live subscribers.
//!
//! Each subscriber reads the live feed through its own bounded window of a broadcast
//! channel, so a slow one never blocks the engine or the others; one that falls behind
//! notices and resumes from the store's event log, with no gap and no duplicate.

mod frame;
mod stream;
mod subscription;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use async_trait::async_trait;
use dashmap::DashMap;
use tokio::sync::{Mutex, broadcast, watch};
use warrant_core::event::Event;
use warrant_core::store::{Store, StoreError, StoredEvent};
use warrant_core::transport::{Transport, TransportError};

pub use frame::{KEEP_ALIVE, comment_frame, event_frame};
pub use stream::{DEFAULT_KEEP_ALIVE, EventStream, StopAt};
pub use subscription::{Item, Subscription};

/// How many live events a subscriber may fall behind before it resumes from the store.
pub const DEFAULT_LIVE_WINDOW: usize = 256;

/// One session's live feed.
struct Channel {
    /// Held from logging an event to handing it out, so the feed keeps the log's order.
    order: Mutex<()>,
    live: broadcast::Sender<Arc<StoredEvent>>,
    /// Set once the channel left the map; emitters then fetch the new one.
    retired: AtomicBool,
}

/// Logs each session's events and fans them out to its subscribers. A [`Transport`].
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// use std::sync::Arc;
/// use warrant_core::event::{Event, TextMessageContent};
/// use warrant_core::store::MemoryStore;
/// use warrant_transports::sse::{Item, SseHub};
///
/// let hub = SseHub::new(Arc::new(MemoryStore::new()));
/// let hello = Event::TextMessageContent(TextMessageContent {
///     message_id: "m1".into(),
///     delta: "hello".into(),
///     timestamp: None,
/// });
/// assert_eq!(hub.publish("s1", &hello).await.unwrap(), 1);
/// assert_eq!(hub.publish("s1", &hello).await.unwrap(), 2);
///
/// // A client that saw event 1 (`Last-Event-ID: 1`) resumes with event 2.
/// let mut resumed = hub.subscribe("s1", 1);
/// let Some(Item::Event(next)) = resumed.next().await else { panic!() };
/// assert_eq!(next.seq, 2);
/// # }
/// ```
pub struct SseHub {
    store: Arc<dyn Store>,
    channels: Arc<DashMap<String, Arc<Channel>>>,
    window: usize,
    closed: watch::Sender<bool>,
}

impl SseHub {
    /// A hub logging into `store`, with the default live window.
    pub fn new(store: Arc<dyn Store>) -> Self {
        Self::with_window(store, DEFAULT_LIVE_WINDOW)
    }

    /// A hub whose subscribers may fall `window` live events behind before they resume from
    /// the store (at least 1).
    pub fn with_window(store: Arc<dyn Store>, window: usize) -> Self {
        Self {
            store,
            channels: Arc::new(DashMap::new()),
            window: window.max(1),
            closed: watch::Sender::new(false),
        }
    }

    /// The store holding the event log.
    pub fn store(&self) -> &Arc<dyn Store> {
        &self.store
    }

    /// Logs an event of a session, hands it to the live subscribers, and returns its position
    /// in the session's log.
    ///
    /// # Errors
    ///
    /// A [`StoreError`] when the event could not be logged; it is then not handed out either,
    /// since a subscriber could never resume past it.
    pub async fn publish(&self, session_id: &str, event: &Event) -> Result<u64, StoreError> {
        loop {
            let Some(channel) = self.channels.get(session_id).map(|c| Arc::clone(&c)) else {
                // Nobody listens: the log is all there is. A subscriber arriving meanwhile
                // reads the log after subscribing, and is handed the event if it subscribed
                // before the event was logged, so it never misses it.
                let seq = self.store.append_event(session_id, event).await?;
                if let Some(channel) = self.channels.get(session_id).map(|c| Arc::clone(&c)) {
                    let _ = channel.live.send(Arc::new(StoredEvent {
                        seq,
                        event: event.clone(),
                    }));
                }
                return Ok(seq);
            };
            let _in_order = channel.order.lock().await;
            if channel.retired.load(Ordering::Acquire) {
                continue;
            }
            let seq = self.store.append_event(session_id, event).await?;
            let stored = Arc::new(StoredEvent {
                seq,
                event: event.clone(),
            });
            if channel.live.send(stored).is_err() {
                // Nobody listens any more: drop the channel, unless someone subscribed
                // meanwhile.
                let removed = self.channels.remove_if(session_id, |_, c| {
                    Arc::ptr_eq(c, &channel) && c.live.receiver_count() == 0
                });
                if removed.is_some() {
                    channel.retired.store(true, Ordering::Release);
                }
            }
            return Ok(seq);
        }
    }

    /// Subscribes to a session's events after position `after_seq` (0: from the oldest
    /// event the log retains): the logged ones first, then the live ones.
    pub fn subscribe(&self, session_id: &str, after_seq: u64) -> Subscription {
        // Subscribing under the map's entry lock: a channel is never retired while it has
        // a subscriber, and never subscribed to once retired.
        let (channel, live) = {
            let entry = self
                .channels
                .entry(session_id.to_owned())
                .or_insert_with(|| self.new_channel());
            (Arc::clone(&entry), entry.live.subscribe())
        };
        let release = Release {
            channels: Arc::clone(&self.channels),
            session_id: session_id.to_owned(),
            channel,
        };
        Subscription::new(
            Arc::clone(&self.store),
            session_id.to_owned(),
            live,
            self.closed.subscribe(),
            after_seq,
            release,
        )
    }

    /// How many sessions have a live channel (a subscriber, or an event being published).
    pub fn live_sessions(&self) -> usize {
        self.channels.len()
    }

    /// Ends every subscription (for a graceful shutdown); later subscriptions end at once.
    pub fn shutdown(&self) {
        self.closed.send_replace(true);
    }

    fn new_channel(&self) -> Arc<Channel> {
        Arc::new(Channel {
            order: Mutex::new(()),
            live: broadcast::channel(self.window).0,
            retired: AtomicBool::new(false),
        })
    }
}

/// Retires a session's channel when its last subscriber leaves, so sessions subscribed to
/// but never published to leave nothing behind.
pub(crate) struct Release {
    channels: Arc<DashMap<String, Arc<Channel>>>,
    session_id: String,
    channel: Arc<Channel>,
}

impl Drop for Release {
    fn drop(&mut self) {
        // A publisher holding the order lock retires the channel itself when it finds no
        // subscriber; otherwise the lock keeps publishers out while the channel goes.
        let Ok(_in_order) = self.channel.order.try_lock() else {
            return;
        };
        let removed = self.channels.remove_if(&self.session_id, |_, c| {
            Arc::ptr_eq(c, &self.channel) && c.live.receiver_count() == 0
        });
        if removed.is_some() {
            self.channel.retired.store(true, Ordering::Release);
        }
    }
}

#[async_trait]
impl Transport for SseHub {
    async fn emit(&self, session_id: &str, event: &Event) -> Result<(), TransportError> {
        self.publish(session_id, event)
            .await
            .map(drop)
            .map_err(|e| TransportError::new(format!("event not logged: {e}")))
    }
}
