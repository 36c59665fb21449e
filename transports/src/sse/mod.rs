//! AG-UI events over server-sent events: the engine's [`EventHub`](warrant_core::events::EventHub)
//! (re-exported as [`SseHub`]) logs every event of a session in the store (its position there
//! is the SSE `id:`) and hands it to the session's live subscribers; this module frames a
//! subscription as an SSE response body.
//!
//! Each subscriber reads the live feed through its own bounded window, so a slow one never
//! blocks the engine or the others; one that falls behind notices and resumes from the
//! store's event log, with no gap and no duplicate.
//!
//! ```
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() {
//! use std::sync::Arc;
//! use warrant_core::SessionId;
//! use warrant_core::event::{Event, TextMessageContent};
//! use warrant_core::store::MemoryStore;
//! use warrant_transports::sse::{Item, SseHub};
//!
//! let hub = SseHub::new(Arc::new(MemoryStore::new()));
//! let session = SessionId::new("s1");
//! let hello = Event::TextMessageContent(TextMessageContent {
//!     message_id: "m1".into(),
//!     delta: "hello".into(),
//!     timestamp: None,
//! });
//! assert_eq!(hub.publish(&session, &hello).await.unwrap(), 1);
//! assert_eq!(hub.publish(&session, &hello).await.unwrap(), 2);
//!
//! // A client that saw event 1 (`Last-Event-ID: 1`) resumes with event 2.
//! let mut resumed = hub.subscribe(&session, 1);
//! let Some(Item::Event(next)) = resumed.next().await else { panic!() };
//! assert_eq!(next.seq, 2);
//! # }
//! ```

mod frame;
mod stream;

pub use frame::{KEEP_ALIVE, comment_frame, event_frame};
pub use stream::{DEFAULT_KEEP_ALIVE, EventStream, StopAt};
pub use warrant_core::events::{DEFAULT_LIVE_WINDOW, Item, Subscription};

/// The hub the SSE endpoints subscribe through: the engine's
/// [`EventHub`](warrant_core::events::EventHub). Give the same hub to the engine (as its
/// transport, on the engine's store) and to the server, or take the engine's with
/// [`Engine::events`](warrant_core::engine::Engine::events), so each event is logged once.
pub use warrant_core::events::EventHub as SseHub;
