//! The event hub: every event of a session is logged in the store (its position there is its
//! event id, SSE's `id:`), then handed to the session's live subscribers.
//!
//! The [`Engine`](crate::engine::Engine) owns one hub and publishes each of its events through
//! it before handing the logged event to its transports, so the store's event log is written
//! once, whatever the transports. Each subscriber reads the live feed through its own bounded
//! window, so a slow one never blocks the engine or the others; one that falls behind notices
//! and resumes from the store's event log, with no gap and no duplicate.

mod all;
mod pump;
pub mod remote;
mod subscription;

use crate::ids::SessionId;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex as StdMutex};

use async_trait::async_trait;
use dashmap::DashMap;
use tokio::sync::{Mutex, broadcast, watch};

pub use all::{AllSubscription, SessionItem};
pub use remote::{EventNotice, EventNotices, Following, LoggedElsewhere, NoticeSource};
pub use subscription::{Item, Subscription};

use crate::event::Event;
use crate::store::{
    DecisionRecord, DecisionWrite, PendingAppend, RecordedDecision, Store, StoreError,
    StoreErrorKind, StoredEvent,
};
use crate::transport::{Transport, TransportError};

/// How many live events a subscriber may fall behind before it resumes from the store.
pub const DEFAULT_LIVE_WINDOW: usize = 256;

/// One session's live feed.
struct Channel {
    /// Held from logging an event to handing it out, so the feed keeps the log's order; with
    /// a store that [starts appends](crate::store::EventLog::start_append_event), only while queueing the
    /// event and taking its turn.
    order: Mutex<()>,
    live: broadcast::Sender<Arc<StoredEvent>>,
    /// Set once the channel left the map; emitters then fetch the new one.
    retired: AtomicBool,
    /// Events queued in the store and not handed out yet, handed out in queue order.
    turns: StdMutex<Turns>,
}

#[derive(Default)]
struct Turns {
    /// Turns given out (the next event queued takes this one).
    issued: u64,
    /// The turn to hand out next.
    next: u64,
    /// Turns whose write finished before their predecessors': the logged event, or `None`
    /// when the write failed or its publisher gave up.
    ready: BTreeMap<u64, Option<Arc<StoredEvent>>>,
}

impl Channel {
    /// Retires the channel when nobody subscribes and nothing is being published.
    fn retire_if_unused(
        &self,
        channels: &DashMap<SessionId, Arc<Channel>>,
        session_id: &SessionId,
    ) {
        // The order lock keeps publishers out while the channel goes; a publisher holding it
        // retires the channel itself once done.
        let Ok(_in_order) = self.order.try_lock() else {
            return;
        };
        {
            let turns = lock(&self.turns);
            if turns.next != turns.issued {
                return;
            }
        }
        let removed = channels.remove_if(session_id, |_, c| {
            std::ptr::eq(Arc::as_ptr(c), self) && c.live.receiver_count() == 0
        });
        if removed.is_some() {
            self.retired.store(true, Ordering::Release);
        }
    }
}

/// A publisher's turn to hand out its event; handed back as failed if the publisher gives up
/// before its write is durable, so later turns are never held up.
struct Turn<'a> {
    hub: &'a EventHub,
    session_id: &'a SessionId,
    channel: Arc<Channel>,
    ticket: u64,
    done: bool,
}

impl Turn<'_> {
    /// Hands out this turn's event (or skips it) and every later one already durable, in
    /// queue order.
    fn finish(&mut self, logged: Option<Arc<StoredEvent>>) {
        self.done = true;
        let idle = {
            let mut turns = lock(&self.channel.turns);
            turns.ready.insert(self.ticket, logged);
            loop {
                let next = turns.next;
                let Some(logged) = turns.ready.remove(&next) else {
                    break;
                };
                turns.next += 1;
                if let Some(logged) = logged {
                    self.hub.hand_to_everyone(self.session_id, &logged);
                    let _ = self.channel.live.send(logged);
                }
            }
            turns.next == turns.issued
        };
        if idle && self.channel.live.receiver_count() == 0 {
            self.channel
                .retire_if_unused(&self.hub.shared.channels, self.session_id);
        }
    }
}

impl Drop for Turn<'_> {
    fn drop(&mut self) {
        if !self.done {
            self.finish(None);
        }
    }
}

/// Events of a session queued by [`EventHub::start_batch`] and not handed out yet.
#[must_use = "finish the batch to hand its events out"]
pub struct StartedBatch<'a> {
    hub: &'a EventHub,
    session_id: &'a SessionId,
    events: &'a [Event],
    queued: Queued<'a>,
}

/// How a batch's events were queued.
enum Queued<'a> {
    /// Through the session's channel, each with its turn (a turn dropped unfinished is
    /// skipped, so later events are never held back).
    InTurn(Vec<(PendingAppend, Turn<'a>)>),
    /// The session had no channel: the log's order is all there is to keep.
    Unwatched(Vec<PendingAppend>),
    /// The store does not start appends: published one by one when finishing.
    NotStarted,
}

impl std::fmt::Debug for StartedBatch<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StartedBatch")
            .field("session_id", &self.session_id)
            .field("events", &self.events.len())
            .finish_non_exhaustive()
    }
}

impl<'a> StartedBatch<'a> {
    /// The events, in order.
    pub fn events(&self) -> &'a [Event] {
        self.events
    }

    /// Waits until each event is durable and hands it out, in order; one result per event
    /// (an event that could not be logged is not handed out).
    pub async fn finish(self) -> Vec<Result<Arc<StoredEvent>, StoreError>> {
        let StartedBatch {
            hub,
            session_id,
            events,
            queued,
        } = self;
        let mut out = Vec::with_capacity(events.len());
        match queued {
            Queued::InTurn(turns) => {
                for ((pending, mut turn), event) in turns.into_iter().zip(events) {
                    let logged = logged(pending.await, event);
                    turn.finish(logged.as_ref().ok().cloned());
                    out.push(logged);
                }
            }
            Queued::Unwatched(pending) => {
                for (pending, event) in pending.into_iter().zip(events) {
                    let logged = logged(pending.await, event);
                    if let Ok(logged) = &logged {
                        hub.hand_to_late_subscribers(session_id, std::slice::from_ref(logged));
                    }
                    out.push(logged);
                }
            }
            Queued::NotStarted => {
                for event in events {
                    out.push(hub.publish_logged(session_id, event).await);
                }
            }
        }
        out
    }
}

/// A decision record queued by [`EventHub::start_decision`], its events not handed out yet.
#[must_use = "finish the decision to hand its events out"]
pub struct StartedDecision<'a> {
    hub: &'a EventHub,
    session_id: &'a SessionId,
    events: Vec<Event>,
    written: DecisionWritten<'a>,
}

/// How a decision record is being written.
enum DecisionWritten<'a> {
    /// Queued in the store: with a turn per event when the session has a channel, `None`
    /// when nobody listened (the log's order is all there is to keep).
    Queued(
        futures::future::BoxFuture<'static, Result<RecordedDecision, StoreError>>,
        Option<Vec<Turn<'a>>>,
    ),
    /// Written when finishing, in the session's order.
    OnAwait(futures::future::BoxFuture<'a, Result<RecordedDecision, StoreError>>),
}

impl std::fmt::Debug for StartedDecision<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StartedDecision")
            .field("session_id", &self.session_id)
            .field("events", &self.events.len())
            .finish_non_exhaustive()
    }
}

impl StartedDecision<'_> {
    /// Waits until the decision record is durable, calls `durable` with where it landed, and
    /// only then hands its events out, in order; returns them as logged.
    ///
    /// # Errors
    ///
    /// The store's error when the record was not written (its audit record refused, or any
    /// write of the unit failed): nothing of it is durable, and no event is handed out.
    pub async fn finish(
        self,
        durable: impl FnOnce(&RecordedDecision),
    ) -> Result<Vec<Arc<StoredEvent>>, StoreError> {
        let StartedDecision {
            hub,
            session_id,
            events,
            written,
        } = self;
        match written {
            DecisionWritten::Queued(written, turns) => {
                // A turn dropped unfinished (on an error) is skipped.
                let logged = logged_all(written.await, events)?;
                durable(&logged.0);
                match turns {
                    Some(turns) => {
                        for (mut turn, event) in turns.into_iter().zip(&logged.1) {
                            turn.finish(Some(Arc::clone(event)));
                        }
                    }
                    None => hub.hand_to_late_subscribers(session_id, &logged.1),
                }
                Ok(logged.1)
            }
            DecisionWritten::OnAwait(written) => {
                hub.write_in_order(session_id, events, written, durable)
                    .await
            }
        }
    }
}

struct Shared {
    store: Arc<dyn Store>,
    channels: Arc<DashMap<SessionId, Arc<Channel>>>,
    /// The subscribers to every session.
    everyone: StdMutex<Vec<Arc<all::Queue>>>,
    /// How many entries `everyone` holds (read without its lock on every publish).
    everyone_count: AtomicUsize,
    window: usize,
    closed: watch::Sender<bool>,
}

/// Logs each session's events and fans them out to its subscribers. A [`Transport`].
///
/// Cheap to clone: every clone is the same hub. An engine given a hub as its transport (on
/// the engine's own store) publishes through that hub instead of a hub of its own, so a
/// server sharing the hub with the engine serves the engine's events, logged once.
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// use std::sync::Arc;
/// use warrant_core::SessionId;
/// use warrant_core::event::{Event, TextMessageContent};
/// use warrant_core::events::{EventHub, Item};
/// use warrant_core::store::MemoryStore;
///
/// let hub = EventHub::new(Arc::new(MemoryStore::new()));
/// let session = SessionId::new("s1");
/// let hello = Event::TextMessageContent(TextMessageContent {
///     message_id: "m1".into(),
///     delta: "hello".into(),
///     timestamp: None,
/// });
/// assert_eq!(hub.publish(&session, &hello).await.unwrap(), 1);
/// assert_eq!(hub.publish(&session, &hello).await.unwrap(), 2);
///
/// // A client that saw event 1 (`Last-Event-ID: 1`) resumes with event 2.
/// let mut resumed = hub.subscribe(&session, 1);
/// let Some(Item::Event(next)) = resumed.next().await else { panic!() };
/// assert_eq!(next.seq, 2);
/// # }
/// ```
#[derive(Clone)]
pub struct EventHub {
    shared: Arc<Shared>,
}

impl std::fmt::Debug for EventHub {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EventHub")
            .field("live_sessions", &self.shared.channels.len())
            .field(
                "all_subscribers",
                &self.shared.everyone_count.load(Ordering::Relaxed),
            )
            .field("window", &self.shared.window)
            .finish_non_exhaustive()
    }
}

impl EventHub {
    /// A hub logging into `store`, with the default live window.
    pub fn new(store: Arc<dyn Store>) -> Self {
        Self::with_window(store, DEFAULT_LIVE_WINDOW)
    }

    /// A hub whose subscribers may fall `window` live events behind before they resume from
    /// the store (at least 1).
    pub fn with_window(store: Arc<dyn Store>, window: usize) -> Self {
        Self {
            shared: Arc::new(Shared {
                store,
                channels: Arc::new(DashMap::new()),
                everyone: StdMutex::new(Vec::new()),
                everyone_count: AtomicUsize::new(0),
                window: window.max(1),
                closed: watch::Sender::new(false),
            }),
        }
    }

    /// The store holding the event log.
    pub fn store(&self) -> &Arc<dyn Store> {
        &self.shared.store
    }

    /// Whether `other` is this very hub (a clone of it).
    pub fn same_hub(&self, other: &EventHub) -> bool {
        Arc::ptr_eq(&self.shared, &other.shared)
    }

    /// Whether this hub logs into `store` (the same store object, not an equal one).
    pub fn logs_into(&self, store: &Arc<dyn Store>) -> bool {
        std::ptr::addr_eq(Arc::as_ptr(&self.shared.store), Arc::as_ptr(store))
    }

    /// Logs an event of a session, hands it to the live subscribers, and returns its position
    /// in the session's log.
    ///
    /// # Errors
    ///
    /// A [`StoreError`] when the event could not be logged; it is then not handed out either,
    /// since a subscriber could never resume past it.
    pub async fn publish(&self, session_id: &SessionId, event: &Event) -> Result<u64, StoreError> {
        self.publish_logged(session_id, event).await.map(|e| e.seq)
    }

    /// [`publish`](Self::publish), returning the logged event as subscribers receive it.
    ///
    /// # Errors
    ///
    /// A [`StoreError`] when the event could not be logged (then it is not handed out).
    pub async fn publish_logged(
        &self,
        session_id: &SessionId,
        event: &Event,
    ) -> Result<Arc<StoredEvent>, StoreError> {
        let shared = &*self.shared;
        loop {
            let Some(channel) = self.channel_for(session_id) else {
                // Nobody listens: the log is all there is.
                let seq = shared.store.append_event(session_id, event).await?;
                let stored = Arc::new(StoredEvent {
                    seq,
                    event: event.clone(),
                });
                self.hand_to_late_subscribers(session_id, std::slice::from_ref(&stored));
                return Ok(stored);
            };
            let in_order = channel.order.lock().await;
            if channel.retired.load(Ordering::Acquire) {
                continue;
            }
            if let Some(pending) = shared.store.start_append_event(session_id, event) {
                // Queued in order: wait for the disk without holding the session up.
                let mut turn = self.turn(session_id, &channel, take_tickets(&channel, 1));
                drop(in_order);
                let logged = logged(pending.await, event);
                turn.finish(logged.as_ref().ok().cloned());
                return logged;
            }
            let seq = shared.store.append_event(session_id, event).await?;
            let stored = Arc::new(StoredEvent {
                seq,
                event: event.clone(),
            });
            self.hand_to_everyone(session_id, &stored);
            if channel.live.send(Arc::clone(&stored)).is_err() {
                // Nobody listens any more: drop the channel, unless someone subscribed
                // meanwhile.
                let removed = shared.channels.remove_if(session_id, |_, c| {
                    Arc::ptr_eq(c, &channel) && c.live.receiver_count() == 0
                });
                if removed.is_some() {
                    channel.retired.store(true, Ordering::Release);
                }
            }
            return Ok(stored);
        }
    }

    /// [`publish_logged`](Self::publish_logged) for several events of a session, in order:
    /// with a store that [starts appends](crate::store::EventLog::start_append_event), all are queued at once
    /// and reach the disk together. One result per event.
    pub async fn publish_batch(
        &self,
        session_id: &SessionId,
        events: &[Event],
    ) -> Vec<Result<Arc<StoredEvent>, StoreError>> {
        self.start_batch(session_id, events).await.finish().await
    }

    /// Queues several events of a session in the store's log, in order, without waiting for
    /// the disk, so that writes the caller starts next (an audit record, a tool part) queue
    /// behind them and can share their commit. [`StartedBatch::finish`] waits until they are
    /// durable and hands them out in order; a batch dropped unfinished is never handed out
    /// (its events stay in the log) and holds no later event of the session back.
    ///
    /// With a store that does not [start appends](crate::store::EventLog::start_append_event), nothing is
    /// queued here: [`finish`](StartedBatch::finish) publishes the events one after another.
    pub async fn start_batch<'a>(
        &'a self,
        session_id: &'a SessionId,
        events: &'a [Event],
    ) -> StartedBatch<'a> {
        let queued = loop {
            let Some(channel) = self.channel_for(session_id) else {
                // Nobody listens: the log's order is all there is to keep.
                break match self.start_all(session_id, events) {
                    Some(pending) => Queued::Unwatched(pending),
                    None => Queued::NotStarted,
                };
            };
            let in_order = channel.order.lock().await;
            if channel.retired.load(Ordering::Acquire) {
                continue;
            }
            let Some(pending) = self.start_all(session_id, events) else {
                break Queued::NotStarted;
            };
            let turns = self.issue_turns(session_id, &channel, pending.len());
            drop(in_order);
            break Queued::InTurn(pending.into_iter().zip(turns).collect());
        };
        StartedBatch {
            hub: self,
            session_id,
            events,
            queued,
        }
    }

    /// Hands a decision record to the store (its audit record, tool part and events, written
    /// as one unit; see [`AuditLog::record_decision`](crate::store::AuditLog::record_decision))
    /// and takes its events' place in the session's order: queued now when the store queues
    /// it, so that writes started next (by anyone) follow it. [`StartedDecision::finish`]
    /// waits until it is durable and hands the events out; nothing of it is handed out
    /// before.
    ///
    /// # Errors
    ///
    /// The record, handed back untouched, when the store does not write a decision as one
    /// unit: nothing was written or queued.
    pub async fn start_decision<'a>(
        &'a self,
        session_id: &'a SessionId,
        record: DecisionRecord,
    ) -> Result<StartedDecision<'a>, Box<DecisionRecord>> {
        debug_assert_eq!(&record.audit.session_id, session_id);
        let shared = &*self.shared;
        let events = record.events.clone();
        let written = loop {
            let Some(channel) = self.channel_for(session_id) else {
                break match shared.store.record_decision(record) {
                    DecisionWrite::Queued(written) => DecisionWritten::Queued(written, None),
                    DecisionWrite::OnAwait(written) => DecisionWritten::OnAwait(written),
                    DecisionWrite::Unsupported(record) => return Err(record),
                };
            };
            let in_order = channel.order.lock().await;
            if channel.retired.load(Ordering::Acquire) {
                continue;
            }
            break match shared.store.record_decision(record) {
                DecisionWrite::Queued(written) => {
                    let turns = self.issue_turns(session_id, &channel, events.len());
                    drop(in_order);
                    DecisionWritten::Queued(written, Some(turns))
                }
                // Its place is taken when it is written (see `write_in_order`).
                DecisionWrite::OnAwait(written) => DecisionWritten::OnAwait(written),
                DecisionWrite::Unsupported(record) => return Err(record),
            };
        };
        Ok(StartedDecision {
            hub: self,
            session_id,
            events,
            written,
        })
    }

    /// Writes a unit holding `events` of a session (a decision record the store writes when
    /// awaited), holding the session's order across the write, as an awaited append does;
    /// calls `durable` before handing the events out.
    async fn write_in_order(
        &self,
        session_id: &SessionId,
        events: Vec<Event>,
        written: futures::future::BoxFuture<'_, Result<RecordedDecision, StoreError>>,
        durable: impl FnOnce(&RecordedDecision),
    ) -> Result<Vec<Arc<StoredEvent>>, StoreError> {
        loop {
            let channel = self.channel_for(session_id);
            let in_order = match &channel {
                Some(channel) => {
                    let in_order = channel.order.lock().await;
                    if channel.retired.load(Ordering::Acquire) {
                        continue;
                    }
                    Some(in_order)
                }
                None => None,
            };
            // Turns keep these events behind any queued before them, and anything queued
            // after them behind these.
            let turns = channel
                .as_ref()
                .map(|channel| self.issue_turns(session_id, channel, events.len()));
            let outcome = logged_all(written.await, events);
            if let Ok((recorded, logged)) = &outcome {
                durable(recorded);
                match turns {
                    Some(turns) => {
                        for (mut turn, event) in turns.into_iter().zip(logged) {
                            turn.finish(Some(Arc::clone(event)));
                        }
                    }
                    None => self.hand_to_late_subscribers(session_id, logged),
                }
            }
            drop(in_order);
            if let Some(channel) = channel
                && channel.live.receiver_count() == 0
            {
                channel.retire_if_unused(&self.shared.channels, session_id);
            }
            return outcome.map(|(_, logged)| logged);
        }
    }

    /// The session's channel; `None` when nobody listens to it. Subscribers to every session
    /// need each session's order kept: with any, every session gets a channel (retired again
    /// when no one reads it).
    fn channel_for(&self, session_id: &SessionId) -> Option<Arc<Channel>> {
        let shared = &*self.shared;
        match shared.channels.get(session_id).map(|c| Arc::clone(&c)) {
            Some(channel) => Some(channel),
            None if shared.everyone_count.load(Ordering::Acquire) > 0 => Some(Arc::clone(
                &shared
                    .channels
                    .entry(session_id.to_owned())
                    .or_insert_with(|| self.new_channel()),
            )),
            None => None,
        }
    }

    /// Takes the next `count` turns of a session's channel; call with its order lock held.
    fn issue_turns<'a>(
        &'a self,
        session_id: &'a SessionId,
        channel: &Arc<Channel>,
        count: usize,
    ) -> Vec<Turn<'a>> {
        let first = take_tickets(channel, count);
        (first..first + count as u64)
            .map(|ticket| self.turn(session_id, channel, ticket))
            .collect()
    }

    fn turn<'a>(
        &'a self,
        session_id: &'a SessionId,
        channel: &Arc<Channel>,
        ticket: u64,
    ) -> Turn<'a> {
        Turn {
            hub: self,
            session_id,
            channel: Arc::clone(channel),
            ticket,
            done: false,
        }
    }

    /// Hands events logged while the session had no channel to a subscriber that arrived
    /// meanwhile: it reads the log after subscribing and is handed them if it subscribed
    /// before they were logged, so it never misses them.
    fn hand_to_late_subscribers(&self, session_id: &SessionId, logged: &[Arc<StoredEvent>]) {
        if let Some(channel) = self.shared.channels.get(session_id).map(|c| Arc::clone(&c)) {
            for event in logged {
                let _ = channel.live.send(Arc::clone(event));
            }
        }
    }

    /// Starts appending every event, in order; `None` when the store does not start appends.
    fn start_all(&self, session_id: &SessionId, events: &[Event]) -> Option<Vec<PendingAppend>> {
        let store = &self.shared.store;
        let (first, rest) = events.split_first()?;
        let mut started = vec![store.start_append_event(session_id, first)?];
        started.extend(rest.iter().map(|event| {
            store
                .start_append_event(session_id, event)
                .unwrap_or_else(|| {
                    Box::pin(std::future::ready(Err(StoreError::new(
                        StoreErrorKind::Unavailable,
                        "the store stopped starting appends",
                    ))))
                })
        }));
        Some(started)
    }

    /// Subscribes to a session's events after position `after_seq` (0: from the oldest
    /// event the log retains): the logged ones first, then the live ones.
    pub fn subscribe(&self, session_id: &SessionId, after_seq: u64) -> Subscription {
        let shared = &*self.shared;
        // Subscribing under the map's entry lock: a channel is never retired while it has
        // a subscriber, and never subscribed to once retired.
        let (channel, live) = {
            let entry = shared
                .channels
                .entry(session_id.to_owned())
                .or_insert_with(|| self.new_channel());
            (Arc::clone(&entry), entry.live.subscribe())
        };
        let release = Release {
            channels: Arc::clone(&shared.channels),
            session_id: session_id.to_owned(),
            channel,
        };
        Subscription::new(
            Arc::clone(&shared.store),
            session_id.to_owned(),
            live,
            shared.closed.subscribe(),
            after_seq,
            release,
        )
    }

    /// Subscribes to the events of every session published from now on.
    ///
    /// Each item names its session; a session's events come in its log's order, each once.
    /// A subscriber that falls more than the hub's window behind resumes, from the store's
    /// event log, every session whose events it missed (sessions it has seen, from the last
    /// position it yielded; sessions it had not seen yet, from the first event it missed):
    /// no gap and no duplicate. Events logged before the subscription are not replayed; to
    /// read a session's history, [`subscribe`](Self::subscribe) to it from a position.
    pub fn subscribe_all(&self) -> AllSubscription {
        let queue = Arc::new(all::Queue::new(self.shared.window));
        {
            let mut everyone = lock(&self.shared.everyone);
            everyone.push(Arc::clone(&queue));
            self.shared
                .everyone_count
                .store(everyone.len(), Ordering::Release);
        }
        AllSubscription::new(
            Arc::clone(&self.shared.store),
            queue,
            self.shared.closed.subscribe(),
            Arc::downgrade(&self.shared),
        )
    }

    /// How many sessions have a live channel (a subscriber, or an event being published).
    pub fn live_sessions(&self) -> usize {
        self.shared.channels.len()
    }

    /// Ends every subscription (for a graceful shutdown); later subscriptions end at once.
    pub fn shutdown(&self) {
        self.shared.closed.send_replace(true);
        for queue in lock(&self.shared.everyone).iter() {
            queue.wake();
        }
    }

    fn hand_to_everyone(&self, session_id: &SessionId, stored: &Arc<StoredEvent>) {
        if self.shared.everyone_count.load(Ordering::Acquire) == 0 {
            return;
        }
        let session: Arc<str> = Arc::from(session_id.as_str());
        for queue in lock(&self.shared.everyone).iter() {
            queue.push(&session, stored);
        }
    }

    fn new_channel(&self) -> Arc<Channel> {
        Arc::new(Channel {
            order: Mutex::new(()),
            live: broadcast::channel(self.shared.window).0,
            retired: AtomicBool::new(false),
            turns: StdMutex::new(Turns::default()),
        })
    }
}

/// The logged event, as subscribers receive it.
fn logged(seq: Result<u64, StoreError>, event: &Event) -> Result<Arc<StoredEvent>, StoreError> {
    seq.map(|seq| {
        Arc::new(StoredEvent {
            seq,
            event: event.clone(),
        })
    })
}

/// Takes the next `count` tickets of a channel's turns and returns the first; call with its
/// order lock held.
fn take_tickets(channel: &Channel, count: usize) -> u64 {
    let count = count as u64;
    let mut turns = lock(&channel.turns);
    turns.issued += count;
    turns.issued - count
}

/// A unit's events as logged, checked against the positions the store answered.
fn logged_all(
    recorded: Result<RecordedDecision, StoreError>,
    events: Vec<Event>,
) -> Result<(RecordedDecision, Vec<Arc<StoredEvent>>), StoreError> {
    let recorded = recorded?;
    if recorded.event_seqs.len() != events.len() {
        return Err(StoreError::new(
            StoreErrorKind::Corrupt,
            format!(
                "the store numbered {} events of a decision record holding {}",
                recorded.event_seqs.len(),
                events.len()
            ),
        ));
    }
    let logged = recorded
        .event_seqs
        .iter()
        .zip(events)
        .map(|(&seq, event)| Arc::new(StoredEvent { seq, event }))
        .collect();
    Ok((recorded, logged))
}

fn lock<T>(mutex: &StdMutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Removes a subscriber to every session from its hub.
fn leave(shared: &std::sync::Weak<Shared>, queue: &Arc<all::Queue>) {
    let Some(shared) = shared.upgrade() else {
        return;
    };
    let mut everyone = lock(&shared.everyone);
    everyone.retain(|q| !Arc::ptr_eq(q, queue));
    shared
        .everyone_count
        .store(everyone.len(), Ordering::Release);
}

/// Retires a session's channel when its last subscriber leaves, so sessions subscribed to
/// but never published to leave nothing behind.
struct Release {
    channels: Arc<DashMap<SessionId, Arc<Channel>>>,
    session_id: SessionId,
    channel: Arc<Channel>,
}

impl Drop for Release {
    fn drop(&mut self) {
        self.channel
            .retire_if_unused(&self.channels, &self.session_id);
    }
}

#[async_trait]
impl Transport for EventHub {
    async fn emit(&self, session_id: &SessionId, event: &Event) -> Result<(), TransportError> {
        self.publish(session_id, event)
            .await
            .map(drop)
            .map_err(|e| TransportError::new(format!("event not logged: {e}")))
    }

    async fn emit_logged(
        &self,
        session_id: &SessionId,
        event: &Arc<StoredEvent>,
        hub: &EventHub,
    ) -> Result<(), TransportError> {
        if self.same_hub(hub) {
            // Logged and handed out already.
            return Ok(());
        }
        self.emit(session_id, &event.event).await
    }

    fn event_hub(&self) -> Option<EventHub> {
        Some(self.clone())
    }
}
