//! The behaviour every [`Transport`] must show, as a suite any transport runs.
//!
//! The [`Transport`] contract: events reach `emit` sanitized and in order, and the transport
//! keeps that order per session; it never blocks the engine on a slow subscriber; and when it
//! cannot deliver, it returns a [`TransportError`](warrant_core::transport::TransportError)
//! that the engine logs before going on, since the audit log and the store already hold the
//! decision. Each behaviour below checks one of those promises through a [`Subject`]: the
//! transport, the store an engine over it uses, and a way to watch what it delivers.
//!
//! ```no_run
//! use std::sync::Arc;
//! use warrant_core::store::MemoryStore;
//! use warrant_core::transport::MemoryTransport;
//! use warrant_testkit::transport::{Observer, Subject};
//!
//! /// A fresh transport per test, and how to watch what it delivers for a session.
//! fn subject() -> Subject {
//!     let transport = Arc::new(MemoryTransport::new());
//!     let watched = Arc::clone(&transport);
//!     Subject::new(transport, Arc::new(MemoryStore::new()), move |session| {
//!         Observer::broadcast(watched.subscribe(session))
//!     })
//! }
//!
//! warrant_testkit::transport_behaviours!(subject);
//! # fn main() {}
//! ```

use std::any::Any;
use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;
use warrant_core::ids::{SessionId, ToolCallId};

use futures::StreamExt;
use futures::stream::BoxStream;
use tokio::io::{AsyncBufReadExt, AsyncRead, BufReader};
use tokio::sync::broadcast;
use warrant_core::audit::AuditEvent;
use warrant_core::decision::Behavior;
use warrant_core::event::{Event, TextMessageContent, ToolCallStart, WarrantEvent};
use warrant_core::events::EventHub;
use warrant_core::store::{AuditQuery, MemoryStore, Store, StoredEvent};
use warrant_core::transport::Transport;

use crate::store::engine::{OPTIONS, call, engine};

/// How long a behaviour waits for an event it expects before it fails.
pub const DELIVERY_TIMEOUT: Duration = Duration::from_secs(5);

/// What a transport delivered for a session, from the moment it was observed.
///
/// A transport with one output for every session (a line of stdout, …) may deliver other
/// sessions' events too: the behaviours tell them apart by their content.
pub struct Observer {
    events: BoxStream<'static, Event>,
}

impl std::fmt::Debug for Observer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Observer").finish_non_exhaustive()
    }
}

impl Observer {
    /// An observer of the events a stream yields, in the order they were delivered. The
    /// stream ends when the transport can deliver nothing more.
    pub fn new(events: BoxStream<'static, Event>) -> Self {
        Self { events }
    }

    /// An observer of a broadcast channel's events. A receiver that lagged behind the
    /// channel's capacity ends the stream: events were lost.
    pub fn broadcast(receiver: broadcast::Receiver<Event>) -> Self {
        let events = futures::stream::unfold(receiver, |mut receiver| async move {
            receiver.recv().await.ok().map(|event| (event, receiver))
        });
        Self::new(events.boxed())
    }

    /// An observer of events written as JSON lines (one event per line) to the other end of
    /// `reader`. A line that is not an event ends the stream, as does the end of the output.
    pub fn json_lines(reader: impl AsyncRead + Send + Unpin + 'static) -> Self {
        let lines = BufReader::new(reader).lines();
        let events = futures::stream::unfold(lines, |mut lines| async move {
            let line = lines.next_line().await.ok()??;
            let event = serde_json::from_str::<Event>(&line).ok()?;
            Some((event, lines))
        });
        Self::new(events.boxed())
    }

    /// The next event delivered, waiting at most [`DELIVERY_TIMEOUT`].
    ///
    /// # Panics
    ///
    /// When nothing is delivered in time, or the stream ended: the event was lost.
    pub async fn next(&mut self) -> Event {
        match tokio::time::timeout(DELIVERY_TIMEOUT, self.events.next()).await {
            Ok(Some(event)) => event,
            Ok(None) => panic!("the transport stopped delivering before the expected event"),
            Err(_) => panic!("no event was delivered within {DELIVERY_TIMEOUT:?}"),
        }
    }

    /// The next `n` events tagged with `tag` (see [`tagged`]), skipping events of other tags.
    ///
    /// # Panics
    ///
    /// As [`next`](Self::next).
    pub async fn tagged(&mut self, tag: &str, n: usize) -> Vec<(String, u64)> {
        let mut seen = Vec::with_capacity(n);
        while seen.len() < n {
            if let Some((t, i)) = tag_of(&self.next().await)
                && t == tag
            {
                seen.push((t, i));
            }
        }
        seen
    }

    /// The next event that is a Warrant event matching `pick`, skipping the others.
    ///
    /// # Panics
    ///
    /// As [`next`](Self::next).
    pub async fn warrant<T>(&mut self, pick: impl Fn(WarrantEvent) -> Option<T>) -> T {
        loop {
            if let Some(Ok(event)) = self.next().await.warrant()
                && let Some(found) = pick(event)
            {
                return found;
            }
        }
    }
}

type Observe = Box<dyn Fn(&SessionId) -> Observer + Send + Sync>;
type Disconnect = Box<dyn Fn() + Send + Sync>;

/// A transport under test: the transport, the store an engine over it uses, how to watch a
/// session's deliveries, and how to cut every subscriber off.
pub struct Subject {
    /// The transport.
    pub transport: Arc<dyn Transport>,
    /// The store an engine over the transport uses (for a transport that is an event hub,
    /// the hub's own store).
    pub store: Arc<dyn Store>,
    observe: Observe,
    disconnect: Disconnect,
    guard: Option<Box<dyn Any + Send + Sync>>,
}

impl std::fmt::Debug for Subject {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Subject").finish_non_exhaustive()
    }
}

impl Subject {
    /// A subject whose `observe(session)` starts watching what the transport delivers for a
    /// session from now on.
    pub fn new(
        transport: Arc<dyn Transport>,
        store: Arc<dyn Store>,
        observe: impl Fn(&SessionId) -> Observer + Send + Sync + 'static,
    ) -> Self {
        Self {
            transport,
            store,
            observe: Box::new(observe),
            disconnect: Box::new(|| {}),
            guard: None,
        }
    }

    /// How to cut every subscriber off, as clients that went away (close the output, end the
    /// subscriptions, …). By default, observers are only dropped.
    pub fn disconnecting(mut self, disconnect: impl Fn() + Send + Sync + 'static) -> Self {
        self.disconnect = Box::new(disconnect);
        self
    }

    /// Keeps `guard` alive as long as the subject.
    pub fn keeping(mut self, guard: impl Any + Send + Sync) -> Self {
        self.guard = Some(Box::new(guard));
        self
    }

    /// Starts watching a session's deliveries.
    pub fn observe(&self, session_id: &SessionId) -> Observer {
        (self.observe)(session_id)
    }
}

/// A text event tagged `tag` and numbered `i`: its message id is `tag`, its delta `i`.
pub fn tagged(tag: &str, i: u64) -> Event {
    Event::TextMessageContent(TextMessageContent {
        message_id: tag.to_owned(),
        delta: i.to_string(),
        timestamp: None,
    })
}

/// The tag and number of an event made by [`tagged`].
fn tag_of(event: &Event) -> Option<(String, u64)> {
    match event {
        Event::TextMessageContent(t) => Some((t.message_id.clone(), t.delta.parse().ok()?)),
        _ => None,
    }
}

fn numbered(tag: &str, n: u64) -> Vec<(String, u64)> {
    (0..n).map(|i| (tag.to_owned(), i)).collect()
}

/// A session's events arrive in the order they were emitted, each once and unchanged, of
/// every kind (text, tool calls, Warrant's custom events).
pub async fn events_of_a_session_arrive_in_order_and_intact(s: Subject) {
    let mut observer = s.observe(&"s1".into());
    let start = Event::ToolCallStart(ToolCallStart {
        tool_call_id: "c1".to_owned(),
        tool_call_name: "Bash".to_owned(),
        parent_message_id: Some("m1".to_owned()),
        timestamp: Some(1_700_000_000_000),
    });
    let decision = crate::store::sample::decision("c1");
    let custom = WarrantEvent::Decision(decision).into_event(Some(1_700_000_000_000));
    let mut sent = vec![start, custom];
    sent.extend((0..40).map(|i| tagged("s1", i)));
    for event in &sent {
        s.transport
            .emit(&"s1".into(), event)
            .await
            .expect("delivered");
    }
    for (i, event) in sent.iter().enumerate() {
        assert_eq!(&observer.next().await, event, "event {i} of the session");
    }
}

/// Emitters racing on one session: every event arrives once, and each emitter's events in
/// the order it emitted them.
pub async fn concurrent_emitters_on_one_session_keep_each_ones_order(s: Subject) {
    const EMITTERS: u64 = 4;
    const EACH: u64 = 25;
    let mut observer = s.observe(&"s1".into());
    let tasks: Vec<_> = (0..EMITTERS)
        .map(|e| {
            let transport = Arc::clone(&s.transport);
            tokio::spawn(async move {
                for i in 0..EACH {
                    let event = tagged(&format!("emitter-{e}"), i);
                    transport
                        .emit(&"s1".into(), &event)
                        .await
                        .expect("delivered");
                    tokio::task::yield_now().await;
                }
            })
        })
        .collect();
    for task in tasks {
        task.await.expect("the emitter ran");
    }
    let mut by_emitter: HashMap<String, Vec<u64>> = HashMap::new();
    for _ in 0..EMITTERS * EACH {
        let (tag, i) = tag_of(&observer.next().await).expect("only tagged events were sent");
        by_emitter.entry(tag).or_default().push(i);
    }
    for e in 0..EMITTERS {
        let got = by_emitter
            .remove(&format!("emitter-{e}"))
            .unwrap_or_default();
        assert_eq!(got, (0..EACH).collect::<Vec<_>>(), "emitter {e}");
    }
    assert!(by_emitter.is_empty(), "unexpected events: {by_emitter:?}");
}

/// Two sessions emitted in turn: each session's observer gets that session's events in
/// order.
pub async fn sessions_keep_their_own_order(s: Subject) {
    let mut one = s.observe(&"s1".into());
    let mut two = s.observe(&"s2".into());
    for i in 0..20 {
        s.transport
            .emit(&"s1".into(), &tagged("s1", i))
            .await
            .expect("s1");
        s.transport
            .emit(&"s2".into(), &tagged("s2", i))
            .await
            .expect("s2");
    }
    assert_eq!(one.tagged("s1", 20).await, numbered("s1", 20));
    assert_eq!(two.tagged("s2", 20).await, numbered("s2", 20));
}

/// A subscriber that never reads does not block the emitter: thousands of events are
/// emitted in bounded time, and a reading subscriber still gets the latest.
pub async fn a_subscriber_that_does_not_read_never_blocks_emit(s: Subject) {
    const EVENTS: u64 = 5_000;
    let _stalled = s.observe(&"s1".into());
    let emitted = tokio::time::timeout(Duration::from_secs(30), async {
        for i in 0..EVENTS {
            s.transport
                .emit(&"s1".into(), &tagged("s1", i))
                .await
                .expect("delivered");
        }
    })
    .await;
    assert!(
        emitted.is_ok(),
        "emitting was blocked by a stalled subscriber"
    );
    let mut reader = s.observe(&"s1".into());
    s.transport
        .emit(&"s1".into(), &tagged("after", 0))
        .await
        .expect("delivered");
    assert_eq!(reader.tagged("after", 1).await, numbered("after", 1));
}

/// [`emit_logged`](Transport::emit_logged) with an event another hub logged delivers that
/// event.
pub async fn an_event_logged_by_another_hub_is_delivered(s: Subject) {
    let mut observer = s.observe(&"s1".into());
    let other = EventHub::new(Arc::new(MemoryStore::new()));
    let logged = Arc::new(StoredEvent {
        seq: 1,
        event: tagged("logged", 0),
    });
    s.transport
        .emit_logged(&"s1".into(), &logged, &other)
        .await
        .expect("delivered");
    assert_eq!(observer.tagged("logged", 1).await, numbered("logged", 1));
}

/// An engine over the transport delivers its decisions to the session's subscribers, as it
/// returned them.
pub async fn the_engine_s_decisions_reach_subscribers(s: Subject) {
    let engine = engine(&s.store, Some(Arc::clone(&s.transport))).await;
    let mut observer = s.observe(&"s1".into());
    for (id, tool) in [("c1", "view"), ("c2", "Bash")] {
        let returned = engine.authorize(call(id, tool), OPTIONS).await.unwrap();
        let delivered = observer
            .warrant(|e| match e {
                WarrantEvent::Decision(d) if d.tool_call_id == id => Some(d),
                _ => None,
            })
            .await;
        assert_eq!(delivered, returned.decision, "call {id}");
    }
}

/// With every subscriber gone (the client went away), the engine still decides, audits and
/// logs every call: a transport that cannot deliver never costs a decision, and never turns
/// an `ask` into an `allow`.
pub async fn a_transport_without_subscribers_never_costs_a_decision(s: Subject) {
    drop(s.observe(&"s1".into()));
    (s.disconnect)();
    // Whatever the transport answers now, an error or not, emitting returns.
    let emitted = tokio::time::timeout(
        DELIVERY_TIMEOUT,
        s.transport.emit(&"s1".into(), &tagged("s1", 0)),
    )
    .await;
    assert!(emitted.is_ok(), "emit hung after its subscribers left");

    let engine = engine(&s.store, Some(Arc::clone(&s.transport))).await;
    let allowed = engine.authorize(call("c1", "view"), OPTIONS).await.unwrap();
    assert_eq!(allowed.decision.behavior, Behavior::Allow);
    let asked = engine.authorize(call("c2", "Bash"), OPTIONS).await.unwrap();
    assert_eq!(asked.decision.behavior, Behavior::Ask);

    let audited: Vec<ToolCallId> = s
        .store
        .audit_records(&AuditQuery::session("s1"))
        .await
        .unwrap()
        .into_iter()
        .filter(|r| matches!(r.record.event, AuditEvent::Evaluation { .. }))
        .map(|r| r.record.tool_call_id)
        .collect();
    assert_eq!(audited, ["c1", "c2"]);
    let pending = s.store.pending_approvals().await.unwrap();
    assert_eq!(
        pending
            .iter()
            .map(|p| p.request.tool_call_id.as_str())
            .collect::<Vec<_>>(),
        ["c2"]
    );
}

/// Instantiates one `#[test]` per transport behaviour of
/// [`warrant_testkit::transport`](crate::transport), each on a fresh
/// [`Subject`](crate::transport::Subject) from `$factory` (a path to a `fn() -> Subject`,
/// called on the behaviour's tokio runtime). Invoke it once per transport, in a module of its
/// own.
#[macro_export]
macro_rules! transport_behaviours {
    ($factory:path) => {
        $crate::transport_behaviours!(@tests $factory;
            events_of_a_session_arrive_in_order_and_intact,
            concurrent_emitters_on_one_session_keep_each_ones_order,
            sessions_keep_their_own_order,
            a_subscriber_that_does_not_read_never_blocks_emit,
            an_event_logged_by_another_hub_is_delivered,
            the_engine_s_decisions_reach_subscribers,
            a_transport_without_subscribers_never_costs_a_decision,
        );
    };
    (@tests $factory:path; $($test:ident),* $(,)?) => {
        $(
            #[test]
            fn $test() {
                $crate::run(async { $crate::transport::$test($factory()).await });
            }
        )*
    };
}
