//! A subscriber to every session: live from the moment it subscribes, each session's events
//! in order, each once; on falling behind, it resumes the sessions it missed from the store.

use std::collections::{HashMap, VecDeque};
use std::pin::Pin;
use std::sync::{Arc, Mutex as StdMutex, Weak};
use std::task::{Context, Poll};

use tokio::sync::{Notify, watch};

use super::pump::{Pump, Source};
use super::subscription::{Item, PAGE};
use super::{Shared, leave, lock};
use crate::ids::SessionId;
use crate::store::{Store, StoredEvent};

/// One item of an [`AllSubscription`]: what happened in which session.
#[derive(Debug, Clone, PartialEq)]
pub struct SessionItem {
    /// The session.
    pub session_id: Arc<str>,
    /// The session's next event (with its position in the session's log), or the positions
    /// the store no longer holds.
    pub item: Item,
}

/// The live window of one subscriber to every session, filled by publishers.
pub(super) struct Queue {
    inner: StdMutex<Window>,
    notify: Notify,
    capacity: usize,
}

#[derive(Default)]
struct Window {
    items: VecDeque<(Arc<str>, Arc<StoredEvent>)>,
    /// Sessions with events dropped for want of room, each with the position to resume
    /// after when the subscriber has not seen the session yet.
    missed: HashMap<Arc<str>, u64>,
}

impl Queue {
    pub(super) fn new(capacity: usize) -> Self {
        Self {
            inner: StdMutex::new(Window::default()),
            notify: Notify::new(),
            capacity,
        }
    }

    /// Called under the session's order lock, so a session's events arrive in order.
    pub(super) fn push(&self, session: &Arc<str>, event: &Arc<StoredEvent>) {
        {
            let mut window = lock(&self.inner);
            if window.items.len() < self.capacity && !window.missed.contains_key(session) {
                window
                    .items
                    .push_back((Arc::clone(session), Arc::clone(event)));
            } else {
                window
                    .missed
                    .entry(Arc::clone(session))
                    .or_insert(event.seq.saturating_sub(1));
            }
        }
        self.notify.notify_one();
    }

    pub(super) fn wake(&self) {
        self.notify.notify_one();
    }
}

/// The events of every session, from the moment of subscribing: a [`futures::Stream`] of
/// [`SessionItem`]s, made by [`EventHub::subscribe_all`](super::EventHub::subscribe_all) or
/// [`Engine::subscribe_all`](crate::engine::Engine::subscribe_all).
///
/// Each session's events come in its log's order, each exactly once. Live events wait in a
/// bounded window; when the window is full the subscriber is behind, and the sessions whose
/// events did not fit are read back from the store's event log (after the last position
/// yielded for a session already seen, or before the first event dropped for a session not
/// seen yet), so nothing is skipped or repeated. Events the store no longer retains come as
/// [`Item::Missed`]. It remembers the last position of every session it yielded.
///
/// [`next`](Self::next) is cancel-safe.
pub struct AllSubscription {
    pump: Pump<State>,
    queue: Arc<Queue>,
    hub: Weak<Shared>,
}

impl std::fmt::Debug for AllSubscription {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AllSubscription").finish_non_exhaustive()
    }
}

struct State {
    store: Arc<dyn Store>,
    queue: Arc<Queue>,
    closed: watch::Receiver<bool>,
    /// The last position yielded (or skipped as missed) per session.
    cursors: HashMap<Arc<str>, u64>,
    /// Sessions to read back from the store, with the position to resume after when unseen.
    resume: HashMap<Arc<str>, u64>,
    backlog: VecDeque<SessionItem>,
}

impl AllSubscription {
    pub(super) fn new(
        store: Arc<dyn Store>,
        queue: Arc<Queue>,
        closed: watch::Receiver<bool>,
        hub: Weak<Shared>,
    ) -> Self {
        Self {
            pump: Pump::new(State {
                store,
                queue: Arc::clone(&queue),
                closed,
                cursors: HashMap::new(),
                resume: HashMap::new(),
                backlog: VecDeque::new(),
            }),
            queue,
            hub,
        }
    }

    /// The next item; `None` once the hub shut down or the store failed.
    pub async fn next(&mut self) -> Option<SessionItem> {
        self.pump.next().await
    }
}

impl Drop for AllSubscription {
    fn drop(&mut self) {
        leave(&self.hub, &self.queue);
    }
}

impl futures::Stream for AllSubscription {
    type Item = SessionItem;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<SessionItem>> {
        self.get_mut().pump.poll(cx)
    }
}

impl Source for State {
    type Out = SessionItem;

    async fn next(&mut self) -> Option<SessionItem> {
        loop {
            if *self.closed.borrow() {
                return None;
            }
            if let Some(item) = self.backlog.pop_front() {
                return Some(item);
            }
            let next = {
                let mut window = lock(&self.queue.inner);
                for (session, after) in window.missed.drain() {
                    self.resume.entry(session).or_insert(after);
                }
                window.items.pop_front()
            };
            if let Some((session, event)) = next {
                let gap = match self.cursors.get(&session) {
                    Some(&seen) if event.seq <= seen => continue,
                    Some(&seen) => event.seq > seen + 1,
                    // Not seen yet: queued before its first dropped event, or after it.
                    None => self.resume.get(&session).is_some_and(|&a| event.seq > a),
                };
                if gap {
                    // The log has the events between.
                    self.read_back(&session).await?;
                    continue;
                }
                self.cursors.insert(Arc::clone(&session), event.seq);
                return Some(SessionItem {
                    session_id: session,
                    item: Item::Event(event),
                });
            }
            if let Some(session) = self.resume.keys().next().cloned() {
                self.read_back(&session).await?;
                continue;
            }
            tokio::select! {
                _ = self.closed.changed() => return None,
                () = self.queue.notify.notified() => {}
            }
        }
    }
}

impl State {
    /// Reads a session's logged events after its cursor into the backlog, up to the end of
    /// the log. `None` when the store failed.
    async fn read_back(&mut self, session: &Arc<str>) -> Option<()> {
        let Some(mut after) = self
            .cursors
            .get(session)
            .or_else(|| self.resume.get(session))
            .copied()
        else {
            return Some(());
        };
        // The queue names sessions by a shared `Arc<str>`; the store wants the typed id.
        let session_id = SessionId::new(&**session);
        loop {
            let page = match self.store.events_since(&session_id, after, PAGE).await {
                Ok(page) => page,
                Err(e) => {
                    tracing::warn!(session_id = %session, error = %e, "event log unreadable; subscription ends");
                    return None;
                }
            };
            let full = page.len() >= PAGE;
            for event in page {
                if event.seq <= after {
                    continue;
                }
                if event.seq > after + 1 {
                    self.backlog.push_back(SessionItem {
                        session_id: Arc::clone(session),
                        item: Item::Missed {
                            first: after + 1,
                            last: event.seq - 1,
                        },
                    });
                }
                after = event.seq;
                self.backlog.push_back(SessionItem {
                    session_id: Arc::clone(session),
                    item: Item::Event(Arc::new(event)),
                });
            }
            self.cursors.insert(Arc::clone(session), after);
            if !full {
                break;
            }
        }
        self.resume.remove(session);
        Some(())
    }
}
