//! The `Transport` trait: where events about a session go.

mod memory;

use std::sync::Arc;

use async_trait::async_trait;

pub use memory::MemoryTransport;

use crate::event::Event;

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
/// # Errors
///
/// Returns a [`TransportError`] when the event cannot be delivered; the engine logs it and
/// goes on (the audit log and the store already hold the decision).
#[async_trait]
pub trait Transport: Send + Sync {
    /// Emits one event of a session.
    async fn emit(&self, session_id: &str, event: &Event) -> Result<(), TransportError>;
}

#[async_trait]
impl<T: Transport + ?Sized> Transport for Arc<T> {
    async fn emit(&self, session_id: &str, event: &Event) -> Result<(), TransportError> {
        (**self).emit(session_id, event).await
    }
}

/// Every transport in the list gets every event; the first error is returned after all tried.
#[async_trait]
impl Transport for Vec<Arc<dyn Transport>> {
    async fn emit(&self, session_id: &str, event: &Event) -> Result<(), TransportError> {
        let mut first_error = None;
        for transport in self {
            if let Err(e) = transport.emit(session_id, event).await {
                first_error.get_or_insert(e);
            }
        }
        first_error.map_or(Ok(()), Err)
    }
}
