//! An in-memory transport: a broadcast channel per session.

use crate::ids::SessionId;
use async_trait::async_trait;
use dashmap::DashMap;
use tokio::sync::broadcast;

use super::{Transport, TransportError};
use crate::event::Event;

/// The events each subscriber may fall behind by before it misses some.
pub const DEFAULT_CAPACITY: usize = 1024;

/// Broadcasts each session's events to every subscriber of that session, from the moment it
/// subscribes; a subscriber more than the capacity behind misses events.
///
/// To follow a session without losing events, resuming from an event id, use
/// [`Engine::subscribe`](crate::engine::Engine::subscribe) instead: the engine logs every
/// event whatever its transport.
pub struct MemoryTransport {
    sessions: DashMap<SessionId, broadcast::Sender<Event>>,
    capacity: usize,
}

impl std::fmt::Debug for MemoryTransport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MemoryTransport")
            .field("sessions", &self.sessions.len())
            .field("capacity", &self.capacity)
            .finish()
    }
}

impl Default for MemoryTransport {
    fn default() -> Self {
        Self::with_capacity(DEFAULT_CAPACITY)
    }
}

impl MemoryTransport {
    /// A transport with the default per-subscriber buffer.
    pub fn new() -> Self {
        Self::default()
    }

    /// A transport whose subscribers may fall `capacity` events behind.
    pub fn with_capacity(capacity: usize) -> Self {
        Self {
            sessions: DashMap::new(),
            capacity: capacity.max(1),
        }
    }

    fn sender(&self, session_id: &SessionId) -> broadcast::Sender<Event> {
        if let Some(s) = self.sessions.get(session_id) {
            return s.clone();
        }
        self.sessions
            .entry(session_id.to_owned())
            .or_insert_with(|| broadcast::channel(self.capacity).0)
            .clone()
    }

    /// Subscribes to a session's events from now on.
    pub fn subscribe(&self, session_id: &SessionId) -> broadcast::Receiver<Event> {
        self.sender(session_id).subscribe()
    }
}

#[async_trait]
impl Transport for MemoryTransport {
    async fn emit(&self, session_id: &SessionId, event: &Event) -> Result<(), TransportError> {
        // No subscriber is not an error: nobody is watching this session right now.
        let _ = self.sender(session_id).send(event.clone());
        Ok(())
    }
}
