//! Following the events other instances log: several Warrant instances share one store, and
//! each hub hands the events the others logged to its own live subscribers.
//!
//! The store announces every event it logs, from whichever instance, as an [`EventNotice`]
//! (PostgreSQL: `LISTEN`/`NOTIFY`). [`EventHub::follow`] starts a task that, woken by those
//! notices, reads each followed session's new events from the shared log and hands out, in
//! log order, those this hub has not handed out itself. A catch-up pass at a fixed interval
//! (and right after the listening connection is opened again) reads every followed session's
//! log too, so a notice lost with a connection only delays an event.
//!
//! # Order and uniqueness
//!
//! A session is followed while it has a live subscriber here (or a subscriber to every
//! session exists, or the [observer](LoggedElsewhere) asks for it). The follower watches
//! the session's live feed, and hands out an event of the log only while holding the
//! session's order lock (the lock a local publisher holds from logging an event to handing
//! it out) and only when its position is past every position that feed has handed out: the
//! feed's positions only grow, so no event is handed out twice and none out of order.
//!
//! What a feed handed out before the follower began watching it is unknown. Every event it
//! handed out is logged by then, though, so when the watch begins the follower hands out the
//! log's last event alone (a subscriber that already has it drops it by its position; one
//! that misses earlier events sees the gap and reads them from the log), and from then on
//! exactly the events the feed has not handed out.
//!
//! An event logged elsewhere can be overtaken: this instance logs a later event of the same
//! session, and hands it out, before the follower read the earlier one. The follower then
//! leaves the earlier one out (handing it out after the later one would break the order);
//! a session's subscriber receiving the later one sees the gap and reads both from the log,
//! in order, as it does whenever the live feed skips ahead. A subscriber to every session
//! fills such a gap the same way for the sessions it has seen; for a session it had not seen
//! yet it starts at the later event.

use crate::ids::SessionId;
use std::collections::HashMap;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Weak};
use std::time::Duration;

use async_trait::async_trait;
use futures::stream::BoxStream;
use futures::{FutureExt, StreamExt};
use tokio::sync::broadcast::{self, error::TryRecvError};

use super::subscription::PAGE;
use super::{Channel, EventHub, Shared};
use crate::store::{StoreError, StoredEvent};

/// How often, by default, every followed session's log is read even without a notice.
pub const DEFAULT_CATCH_UP_INTERVAL: Duration = Duration::from_secs(2);

/// The most notices read before the sessions they name are caught up.
const NOTICE_BATCH: usize = 1024;

/// An event some instance logged in the shared store: its session and its position there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EventNotice {
    /// The session.
    pub session_id: SessionId,
    /// The event's position in the session's log.
    pub seq: u64,
}

/// The notices of logged events, in the order the events were logged. An `Err` item says
/// the source lost its connection (notices may have been missed); the stream then ends.
pub type EventNotices = BoxStream<'static, Result<EventNotice, StoreError>>;

/// A store that announces the events any instance logs in it.
#[async_trait]
pub trait NoticeSource: Send + Sync {
    /// Starts listening: every event logged from now on is announced, in log order.
    ///
    /// # Errors
    ///
    /// A [`StoreError`] when the listening connection cannot be opened.
    async fn listen(&self) -> Result<EventNotices, StoreError>;

    /// The position of the last event logged for a session (`None` when it has none).
    ///
    /// # Errors
    ///
    /// A [`StoreError`] when the store cannot be read.
    async fn last_seq(&self, session_id: &SessionId) -> Result<Option<u64>, StoreError>;
}

/// Told of the events the follower reads from the shared log (the engine: a resolution
/// recorded by another instance ends the request waiting here).
#[async_trait]
pub trait LoggedElsewhere: Send + Sync {
    /// Whether the session must be followed even without a live subscriber here.
    fn follows(&self, session_id: &SessionId) -> bool;

    /// Every session it [follows](Self::follows), for the catch-up to read even when no
    /// notice named them.
    fn sessions(&self) -> Vec<SessionId>;

    /// An event of a followed session as the shared log holds it. Every event read is
    /// passed, this instance's own included, each once, in log order: handling one must be
    /// harmless when this instance logged it.
    async fn logged(&self, session_id: &SessionId, event: &StoredEvent);
}

/// The follower [`EventHub::follow`] started. Dropping the handle leaves it running until
/// the hub shuts down or is dropped; [`stop`](Self::stop) ends it at once.
#[derive(Debug)]
pub struct Following {
    task: tokio::task::JoinHandle<()>,
}

impl Following {
    /// Ends the follower.
    pub fn stop(self) {
        self.task.abort();
    }

    /// Whether the follower has ended (its hub shut down or was dropped).
    pub fn is_finished(&self) -> bool {
        self.task.is_finished()
    }
}

impl EventHub {
    /// Hands the events other instances log in the shared store to this hub's live
    /// subscribers, woken by `source`'s notices and catching up every `catch_up_every` (see
    /// the [module documentation](self)); `observer` is told of every event read.
    ///
    /// Call it once per hub, within a Tokio runtime.
    pub fn follow(
        &self,
        source: Arc<dyn NoticeSource>,
        observer: Option<Arc<dyn LoggedElsewhere>>,
        catch_up_every: Duration,
    ) -> Following {
        let follower = Follower {
            hub: Arc::downgrade(&self.shared),
            observer,
            followed: HashMap::new(),
        };
        let closed = self.shared.closed.subscribe();
        let every = catch_up_every.max(Duration::from_millis(10));
        Following {
            task: tokio::spawn(follower.run(source, closed, every)),
        }
    }
}

/// What the follower knows of one session.
struct Followed {
    /// The last position read from the log (`None` until the first notice or catch-up).
    read: Option<u64>,
    /// The last position this hub handed out for the session, by a local publisher or the
    /// follower.
    handed: u64,
    /// The session's live feed as this follower watches it.
    tap: Option<Tap>,
}

struct Tap {
    channel: Arc<Channel>,
    feed: broadcast::Receiver<Arc<StoredEvent>>,
}

struct Follower {
    hub: Weak<Shared>,
    observer: Option<Arc<dyn LoggedElsewhere>>,
    followed: HashMap<SessionId, Followed>,
}

impl Follower {
    async fn run(
        mut self,
        source: Arc<dyn NoticeSource>,
        mut closed: tokio::sync::watch::Receiver<bool>,
        every: Duration,
    ) {
        let mut ticker = tokio::time::interval(every);
        ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let mut notices: Option<EventNotices> = None;
        loop {
            if *closed.borrow() {
                return;
            }
            if notices.is_none() {
                match source.listen().await {
                    Ok(stream) => {
                        notices = Some(stream);
                        // Notices sent before the connection opened were never received.
                        if !self.catch_up_all(&*source).await {
                            return;
                        }
                    }
                    Err(e) => {
                        tracing::warn!(error = %e, "cannot listen for other instances' events; retrying");
                    }
                }
            }
            let received = async {
                match notices.as_mut() {
                    Some(stream) => stream.next().await,
                    None => std::future::pending().await,
                }
            };
            tokio::select! {
                changed = closed.changed() => {
                    if changed.is_err() {
                        return;
                    }
                }
                _ = ticker.tick() => {
                    if !self.catch_up_all(&*source).await {
                        return;
                    }
                }
                first = received => match first {
                    Some(Ok(first)) => {
                        let mut batch = vec![first];
                        if let Some(stream) = notices.as_mut() {
                            while batch.len() < NOTICE_BATCH {
                                match stream.next().now_or_never() {
                                    Some(Some(Ok(notice))) => batch.push(notice),
                                    Some(Some(Err(e))) => {
                                        tracing::warn!(error = %e, "lost the notices of other instances' events; catching up");
                                        notices = None;
                                        break;
                                    }
                                    Some(None) => {
                                        notices = None;
                                        break;
                                    }
                                    None => break,
                                }
                            }
                        }
                        if !self.on_notices(&*source, batch).await {
                            return;
                        }
                    }
                    Some(Err(e)) => {
                        tracing::warn!(error = %e, "lost the notices of other instances' events; catching up");
                        notices = None;
                    }
                    None => {
                        tracing::warn!("the notices of other instances' events ended; listening again");
                        notices = None;
                    }
                },
            }
            if notices.is_none() {
                // Listening again right away could spin on a server that refuses: wait for
                // the next catch-up.
                tokio::select! {
                    _ = closed.changed() => {}
                    _ = ticker.tick() => {}
                }
            }
        }
    }

    /// Catches up the sessions a batch of notices names, each once. `false` once the hub
    /// is gone.
    async fn on_notices(&mut self, source: &dyn NoticeSource, batch: Vec<EventNotice>) -> bool {
        let Some(shared) = self.hub.upgrade() else {
            return false;
        };
        let mut order: Vec<SessionId> = Vec::new();
        let mut first_seq: HashMap<SessionId, u64> = HashMap::new();
        for notice in batch {
            if let std::collections::hash_map::Entry::Vacant(slot) =
                first_seq.entry(notice.session_id)
            {
                order.push(slot.key().clone());
                slot.insert(notice.seq);
            }
        }
        for session in order {
            let seq = first_seq[&session];
            if !self.followed.contains_key(&session) && !self.wanted(&shared, &session) {
                continue;
            }
            let followed = self.followed.entry(session.clone()).or_insert(Followed {
                read: None,
                handed: 0,
                tap: None,
            });
            // Earlier events of a session followed from now on were logged before it had a
            // subscriber here (else they would have started following it): its subscribers
            // read them from the log.
            let read = *followed.read.get_or_insert(seq.saturating_sub(1));
            if seq > read {
                self.catch_up(&shared, source, &session).await;
            }
        }
        true
    }

    /// Drops the sessions nobody here needs any more and catches up the others. `false`
    /// once the hub is gone.
    async fn catch_up_all(&mut self, source: &dyn NoticeSource) -> bool {
        let Some(shared) = self.hub.upgrade() else {
            return false;
        };
        // Sessions with a subscriber here that no notice named yet: watched from now on, so
        // the events they hand out are known.
        let listened: Vec<SessionId> = shared
            .channels
            .iter()
            .filter(|c| !self.followed.contains_key(c.key()))
            .map(|c| c.key().clone())
            .collect();
        for session in listened {
            self.followed.insert(
                session,
                Followed {
                    read: None,
                    handed: 0,
                    tap: None,
                },
            );
        }
        // Sessions the observer needs that no notice named: their whole retained log, once
        // (the observer may need an event older than the last).
        if let Some(observer) = &self.observer {
            for session in observer.sessions() {
                self.followed.entry(session).or_insert(Followed {
                    read: Some(0),
                    handed: 0,
                    tap: None,
                });
            }
        }
        let sessions: Vec<SessionId> = self.followed.keys().cloned().collect();
        for session in sessions {
            // A session followed only for the subscribers to every session is dropped at
            // each pass (they need no history), and followed again from its next notice:
            // only the sessions active since the last pass are held.
            if !self.needed(&shared, &session) {
                if let Some(followed) = self.followed.remove(&session) {
                    release(&shared, &session, followed.tap);
                }
                continue;
            }
            let Some(followed) = self.followed.get_mut(&session) else {
                continue;
            };
            if followed.read.is_none() {
                // No notice named it yet (or it was lost): from its last event on. A
                // subscriber that missed earlier ones sees the gap that event leaves and
                // reads them from the log.
                match source.last_seq(&session).await {
                    Ok(last) => {
                        followed.read = Some(last.unwrap_or(0).saturating_sub(1));
                    }
                    Err(e) => {
                        tracing::warn!(session_id = %session, error = %e, "cannot read another instance's events; retrying at the next catch-up");
                        continue;
                    }
                }
            }
            self.catch_up(&shared, source, &session).await;
        }
        true
    }

    /// Whether a notice of the session is to be followed: [`needed`](Self::needed), or a
    /// subscriber to every session exists.
    fn wanted(&self, shared: &Shared, session: &SessionId) -> bool {
        shared.everyone_count.load(Ordering::Acquire) > 0 || self.needed(shared, session)
    }

    /// Whether the session has a subscriber here (besides this follower's own watch) or the
    /// observer asks for it.
    fn needed(&self, shared: &Shared, session: &SessionId) -> bool {
        let tap = self.followed.get(session).and_then(|f| f.tap.as_ref());
        let listened = shared.channels.get(session).is_some_and(|c| {
            let watching = tap.is_some_and(|t| Arc::ptr_eq(&t.channel, &c));
            c.live.receiver_count() > usize::from(watching)
        });
        listened || self.observer.as_ref().is_some_and(|o| o.follows(session))
    }

    /// Reads a followed session's log past what was read, hands out what this hub has not,
    /// and tells the observer.
    async fn catch_up(
        &mut self,
        shared: &Arc<Shared>,
        source: &dyn NoticeSource,
        session: &SessionId,
    ) {
        let hub = EventHub {
            shared: Arc::clone(shared),
        };
        loop {
            let Some(followed) = self.followed.get_mut(session) else {
                return;
            };
            let after = followed.read.unwrap_or(0);
            let page = match shared.store.events_since(session, after, PAGE).await {
                Ok(page) => page,
                Err(e) => {
                    tracing::warn!(session_id = %session, error = %e, "cannot read another instance's events; retrying at the next catch-up");
                    return;
                }
            };
            let full = page.len() >= PAGE;
            let page: Vec<Arc<StoredEvent>> = page
                .into_iter()
                .filter(|e| e.seq > after)
                .map(Arc::new)
                .collect();
            let Some(last) = page.last().map(|e| e.seq) else {
                return;
            };
            hand_out(&hub, source, session, followed, &page).await;
            followed.read = Some(last);
            if let Some(observer) = &self.observer {
                for event in &page {
                    observer.logged(session, event).await;
                }
            }
            if !full {
                return;
            }
        }
    }
}

/// Hands out, under the session's order lock, the events of `page` past every position the
/// session's live feed has handed out.
async fn hand_out(
    hub: &EventHub,
    source: &dyn NoticeSource,
    session: &SessionId,
    followed: &mut Followed,
    page: &[Arc<StoredEvent>],
) {
    let shared = &*hub.shared;
    loop {
        let existing = shared.channels.get(session).map(|c| Arc::clone(&c));
        let channel = match existing {
            Some(channel) => channel,
            None if shared.everyone_count.load(Ordering::Acquire) > 0 => Arc::clone(
                &shared
                    .channels
                    .entry(session.to_owned())
                    .or_insert_with(|| hub.new_channel()),
            ),
            None => {
                // Nobody listens here: what this hub hands out later comes after these.
                followed.tap = None;
                if let Some(last) = page.last() {
                    followed.handed = followed.handed.max(last.seq);
                }
                return;
            }
        };
        let _in_order = channel.order.lock().await;
        if channel.retired.load(Ordering::Acquire) {
            continue;
        }
        let watched = followed
            .tap
            .as_ref()
            .is_some_and(|t| Arc::ptr_eq(&t.channel, &channel));
        if !watched {
            // What the feed handed out before it was watched is unknown; but every event it
            // handed out is logged (publishers log first, under this lock), so the log's
            // last event is at or past all of them. Handing out that one alone keeps the
            // feed in order; a subscriber that misses earlier ones sees the gap it leaves
            // and reads them from the log.
            followed.tap = Some(Tap {
                channel: Arc::clone(&channel),
                feed: channel.live.subscribe(),
            });
            match last_event(&*shared.store, source, session).await {
                Ok(Some(last)) if last.seq > followed.handed => {
                    hub.hand_to_everyone(session, &last);
                    let _ = channel.live.send(Arc::clone(&last));
                    followed.handed = last.seq;
                }
                Ok(_) => {}
                Err(e) => {
                    tracing::warn!(session_id = %session, error = %e, "cannot read another instance's events; retrying at the next catch-up");
                    followed.tap = None;
                    return;
                }
            }
        }
        if let Some(tap) = followed.tap.as_mut() {
            followed.handed = followed.handed.max(drain(&mut tap.feed));
        }
        for event in page {
            if event.seq <= followed.handed {
                continue;
            }
            hub.hand_to_everyone(session, event);
            let _ = channel.live.send(Arc::clone(event));
            followed.handed = event.seq;
        }
        if let Some(tap) = followed.tap.as_mut() {
            drain(&mut tap.feed);
        }
        return;
    }
}

/// A session's last logged event, if any.
async fn last_event(
    store: &dyn crate::store::Store,
    source: &dyn NoticeSource,
    session: &SessionId,
) -> Result<Option<Arc<StoredEvent>>, StoreError> {
    let Some(last) = source.last_seq(session).await? else {
        return Ok(None);
    };
    let page = store
        .events_since(session, last.saturating_sub(1), 1)
        .await?;
    Ok(page.into_iter().find(|e| e.seq == last).map(Arc::new))
}

/// The last position a watched feed handed out since it was last read (0 for none).
fn drain(feed: &mut broadcast::Receiver<Arc<StoredEvent>>) -> u64 {
    let mut last = 0;
    loop {
        match feed.try_recv() {
            Ok(event) => last = last.max(event.seq),
            // Behind: the newer events tell the last position.
            Err(TryRecvError::Lagged(_)) => {}
            Err(TryRecvError::Empty | TryRecvError::Closed) => return last,
        }
    }
}

/// Stops watching a session nobody here needs; its channel goes once nothing else holds it.
fn release(shared: &Shared, session: &SessionId, tap: Option<Tap>) {
    if let Some(Tap { channel, feed }) = tap {
        drop(feed);
        if channel.live.receiver_count() == 0 {
            channel.retire_if_unused(&shared.channels, session);
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Mutex;

    use futures::StreamExt;
    use tokio::sync::mpsc;

    use super::*;
    use crate::event::{Event, TextMessageContent};
    use crate::events::Item;
    use crate::store::{MemoryStore, Store};

    /// Notices the test sends by hand, standing for a store's `NOTIFY`.
    struct Notices {
        store: Arc<dyn Store>,
        listeners: Mutex<Vec<mpsc::UnboundedSender<Result<EventNotice, StoreError>>>>,
    }

    impl Notices {
        fn new(store: Arc<dyn Store>) -> Arc<Self> {
            Arc::new(Self {
                store,
                listeners: Mutex::new(Vec::new()),
            })
        }

        fn notify(&self, session: &str, seq: u64) {
            let notice = EventNotice {
                session_id: session.to_owned().into(),
                seq,
            };
            for listener in self.listeners.lock().unwrap().iter() {
                let _ = listener.send(Ok(notice.clone()));
            }
        }
    }

    #[async_trait]
    impl NoticeSource for Notices {
        async fn listen(&self) -> Result<EventNotices, StoreError> {
            let (send, receive) = mpsc::unbounded_channel();
            self.listeners.lock().unwrap().push(send);
            Ok(futures::stream::unfold(
                receive,
                |mut r| async move { r.recv().await.map(|n| (n, r)) },
            )
            .boxed())
        }

        async fn last_seq(&self, session_id: &SessionId) -> Result<Option<u64>, StoreError> {
            let mut last = None;
            loop {
                let page = self
                    .store
                    .events_since(session_id, last.unwrap_or(0), PAGE)
                    .await?;
                match page.last() {
                    Some(e) => last = Some(e.seq),
                    None => return Ok(last),
                }
            }
        }
    }

    fn text(n: u64) -> Event {
        Event::TextMessageContent(TextMessageContent {
            message_id: "m1".into(),
            delta: format!("text {n}"),
            timestamp: None,
        })
    }

    /// Two hubs on one store, as two instances on one database, with `a` following.
    fn instances(every: Duration) -> (EventHub, EventHub, Arc<Notices>, Following) {
        let store: Arc<dyn Store> = Arc::new(MemoryStore::new());
        let notices = Notices::new(Arc::clone(&store));
        let a = EventHub::new(Arc::clone(&store));
        let b = EventHub::new(store);
        let following = a.follow(Arc::clone(&notices) as _, None, every);
        (a, b, notices, following)
    }

    async fn next_seq(sub: &mut crate::events::Subscription) -> u64 {
        match tokio::time::timeout(Duration::from_secs(5), sub.next()).await {
            Ok(Some(Item::Event(e))) => e.seq,
            other => panic!("expected an event, got {other:?}"),
        }
    }

    async fn nothing_more(sub: &mut crate::events::Subscription) {
        let more = tokio::time::timeout(Duration::from_millis(200), sub.next()).await;
        assert!(more.is_err(), "nothing more expected, got {more:?}");
    }

    /// What the session's live feed on `hub` carries from now on (every hand-out).
    fn feed(hub: &EventHub, session: &str) -> broadcast::Receiver<Arc<StoredEvent>> {
        hub.shared.channels.get(session).unwrap().live.subscribe()
    }

    fn drained(feed: &mut broadcast::Receiver<Arc<StoredEvent>>) -> Vec<u64> {
        let mut out = Vec::new();
        while let Ok(e) = feed.try_recv() {
            out.push(e.seq);
        }
        out
    }

    /// Waits until the follower listens (it listens as it starts).
    async fn listening(notices: &Notices) {
        for _ in 0..500 {
            if !notices.listeners.lock().unwrap().is_empty() {
                return;
            }
            tokio::time::sleep(Duration::from_millis(2)).await;
        }
        panic!("the follower never listened");
    }

    /// A subscriber on `a` to a session followed and watched from its first event on
    /// (logged by `b`, received), and `a`'s live feed of it from then on.
    async fn watched(
        a: &EventHub,
        b: &EventHub,
        notices: &Notices,
    ) -> (
        crate::events::Subscription,
        broadcast::Receiver<Arc<StoredEvent>>,
    ) {
        listening(notices).await;
        let mut sub = a.subscribe(&"s1".into(), 0);
        nothing_more(&mut sub).await;
        let seq = b.publish(&"s1".into(), &text(1)).await.unwrap();
        notices.notify("s1", seq);
        assert_eq!(next_seq(&mut sub).await, 1);
        (sub, feed(a, "s1"))
    }

    #[tokio::test]
    async fn events_logged_elsewhere_reach_local_subscribers_in_order_each_once() {
        let (a, b, notices, _following) = instances(Duration::from_secs(60));
        let (mut sub, mut live) = watched(&a, &b, &notices).await;
        for n in 2..=4 {
            let seq = b.publish(&"s1".into(), &text(n)).await.unwrap();
            notices.notify("s1", seq);
        }
        for n in 2..=4 {
            assert_eq!(next_seq(&mut sub).await, n);
        }
        // This instance's own event, and its notice: handed out once, by its publisher.
        let seq = a.publish(&"s1".into(), &text(5)).await.unwrap();
        notices.notify("s1", seq);
        assert_eq!(next_seq(&mut sub).await, 5);
        nothing_more(&mut sub).await;
        assert_eq!(drained(&mut live), vec![2, 3, 4, 5], "each hand-out once");
    }

    #[tokio::test]
    async fn a_local_event_overtaking_one_logged_elsewhere_keeps_the_order() {
        let (a, b, notices, _following) = instances(Duration::from_secs(60));
        let (mut sub, mut live) = watched(&a, &b, &notices).await;
        // B logs 2, whose notice is late; A logs and hands out 3 meanwhile.
        let elsewhere = b.publish(&"s1".into(), &text(2)).await.unwrap();
        let here = a.publish(&"s1".into(), &text(3)).await.unwrap();
        assert_eq!((elsewhere, here), (2, 3));
        assert_eq!(next_seq(&mut sub).await, 2, "the earlier event first");
        assert_eq!(next_seq(&mut sub).await, 3);
        notices.notify("s1", elsewhere);
        notices.notify("s1", here);
        nothing_more(&mut sub).await;
        // The follower never hands out 2 after 3, nor 3 again.
        assert_eq!(drained(&mut live), vec![3]);
        // And later events logged elsewhere still come.
        let seq = b.publish(&"s1".into(), &text(4)).await.unwrap();
        notices.notify("s1", seq);
        assert_eq!(next_seq(&mut sub).await, 4);
        nothing_more(&mut sub).await;
        assert_eq!(drained(&mut live), vec![4]);
    }

    #[tokio::test]
    async fn an_overtaken_event_before_the_feed_is_watched_keeps_the_order_too() {
        let (a, b, notices, _following) = instances(Duration::from_secs(60));
        listening(&notices).await;
        let mut sub = a.subscribe(&"s1".into(), 0);
        nothing_more(&mut sub).await;
        let mut live = feed(&a, "s1");
        let elsewhere = b.publish(&"s1".into(), &text(1)).await.unwrap();
        let here = a.publish(&"s1".into(), &text(2)).await.unwrap();
        notices.notify("s1", elsewhere);
        notices.notify("s1", here);
        assert_eq!(next_seq(&mut sub).await, 1);
        assert_eq!(next_seq(&mut sub).await, 2);
        nothing_more(&mut sub).await;
        let handed = drained(&mut live);
        assert!(
            handed.windows(2).all(|w| w[0] <= w[1]) && !handed.contains(&1),
            "the feed never goes back: {handed:?}"
        );
    }

    #[tokio::test]
    async fn a_subscriber_to_every_session_gets_events_logged_elsewhere() {
        let (a, b, notices, _following) = instances(Duration::from_millis(20));
        listening(&notices).await;
        let mut all = a.subscribe_all();
        for (session, n) in [("s1", 1), ("s2", 1), ("s1", 2)] {
            let seq = b
                .publish(&SessionId::from(session), &text(n))
                .await
                .unwrap();
            notices.notify(session, seq);
            let next = tokio::time::timeout(Duration::from_secs(5), all.next())
                .await
                .expect("an event within 5 s")
                .expect("the subscription goes on");
            assert_eq!(&*next.session_id, session);
            assert!(matches!(next.item, Item::Event(ref e) if e.seq == seq));
        }
        drop(all);
        // Nobody listens any more: the channels made for it go at the next pass.
        for _ in 0..100 {
            if a.live_sessions() == 0 {
                return;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        panic!("{} channels outlived their subscriber", a.live_sessions());
    }

    #[tokio::test]
    async fn a_lost_notice_only_delays_an_event() {
        let (a, b, notices, _following) = instances(Duration::from_millis(50));
        listening(&notices).await;
        let mut sub = a.subscribe(&"s1".into(), 0);
        nothing_more(&mut sub).await;
        // No notice at all: the catch-up reads it.
        b.publish(&"s1".into(), &text(1)).await.unwrap();
        assert_eq!(next_seq(&mut sub).await, 1);
        b.publish(&"s1".into(), &text(2)).await.unwrap();
        b.publish(&"s1".into(), &text(3)).await.unwrap();
        assert_eq!(next_seq(&mut sub).await, 2);
        assert_eq!(next_seq(&mut sub).await, 3);
        nothing_more(&mut sub).await;
    }

    #[tokio::test]
    async fn a_session_nobody_follows_here_is_not_read_and_its_channel_goes() {
        let (a, b, notices, following) = instances(Duration::from_millis(20));
        listening(&notices).await;
        let seq = b.publish(&"quiet".into(), &text(1)).await.unwrap();
        notices.notify("quiet", seq);
        {
            let mut sub = a.subscribe(&"s1".into(), 0);
            let seq = b.publish(&"s1".into(), &text(1)).await.unwrap();
            notices.notify("s1", seq);
            assert_eq!(next_seq(&mut sub).await, 1);
        }
        // The subscriber left: the follower lets the channel go at its next pass.
        for _ in 0..100 {
            if a.live_sessions() == 0 {
                break;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        assert_eq!(a.live_sessions(), 0, "no channel is kept for nobody");
        a.shutdown();
        for _ in 0..100 {
            if following.is_finished() {
                return;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        panic!("the follower outlived its hub's shutdown");
    }
}
