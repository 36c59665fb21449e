//! The `Transport` trait: where events about a session go.

mod memory;

use crate::ids::SessionId;
use std::sync::Arc;

use async_trait::async_trait;

pub use memory::MemoryTransport;

use crate::event::Event;
use crate::events::EventHub;
use crate::store::StoredEvent;

/// Why an event could not be emitted.
#[derive(Debug, thiserror::Error)]
#[error("transport: {message}")]
pub struct TransportError {
    /// What went wrong.
    pub message: String,
}

impl TransportError {
    /// An error with the given message.
    pub fn new(message: impl Into<String>) -> Self {
        Self {
            message: message.into(),
        }
    }
}

/// Delivers a session's events to any number of subscribers.
///
/// Events reach `emit` already sanitized and in the contract's order; a transport must keep
/// that order per session and must not block the engine on a slow subscriber.
///
/// An [`Engine`](crate::engine::Engine) logs every event in its store's event log through its
/// [`EventHub`] first, then hands the logged event to its transports with
/// [`emit_logged`](Self::emit_logged), which calls [`emit`](Self::emit) unless a transport
/// overrides it.
///
/// # Errors
///
/// Returns a [`TransportError`] when the event cannot be delivered; the engine logs it and
/// goes on (the audit log and the store already hold the decision).
#[async_trait]
pub trait Transport: Send + Sync {
    /// Emits one event of a session.
    async fn emit(&self, session_id: &SessionId, event: &Event) -> Result<(), TransportError>;

    /// Emits one event of a session that `hub` already logged (`event.seq` is its position
    /// in the session's log). The default emits `event.event`; a transport that is `hub`
    /// itself has nothing left to do.
    async fn emit_logged(
        &self,
        session_id: &SessionId,
        event: &Arc<StoredEvent>,
        hub: &EventHub,
    ) -> Result<(), TransportError> {
        let _ = hub;
        self.emit(session_id, &event.event).await
    }

    /// The event hub this transport is (or holds), if any. An engine given a transport whose
    /// hub logs into the engine's own store publishes through that hub, so the events are
    /// logged once and the hub's subscribers see the engine's events. `None` by default.
    fn event_hub(&self) -> Option<EventHub> {
        None
    }
}

#[async_trait]
impl<T: Transport + ?Sized> Transport for Arc<T> {
    async fn emit(&self, session_id: &SessionId, event: &Event) -> Result<(), TransportError> {
        (**self).emit(session_id, event).await
    }

    async fn emit_logged(
        &self,
        session_id: &SessionId,
        event: &Arc<StoredEvent>,
        hub: &EventHub,
    ) -> Result<(), TransportError> {
        (**self).emit_logged(session_id, event, hub).await
    }

    fn event_hub(&self) -> Option<EventHub> {
        (**self).event_hub()
    }
}

/// Every transport in the list gets every event; the first error is returned after all tried.
/// Its [`event_hub`](Transport::event_hub) is the first hub among its members.
#[async_trait]
impl Transport for Vec<Arc<dyn Transport>> {
    async fn emit(&self, session_id: &SessionId, event: &Event) -> Result<(), TransportError> {
        let mut first_error = None;
        for transport in self {
            if let Err(e) = transport.emit(session_id, event).await {
                first_error.get_or_insert(e);
            }
        }
        first_error.map_or(Ok(()), Err)
    }

    async fn emit_logged(
        &self,
        session_id: &SessionId,
        event: &Arc<StoredEvent>,
        hub: &EventHub,
    ) -> Result<(), TransportError> {
        let mut first_error = None;
        for transport in self {
            if let Err(e) = transport.emit_logged(session_id, event, hub).await {
                first_error.get_or_insert(e);
            }
        }
        first_error.map_or(Ok(()), Err)
    }

    fn event_hub(&self) -> Option<EventHub> {
        self.iter().find_map(|t| t.event_hub())
    }
}
