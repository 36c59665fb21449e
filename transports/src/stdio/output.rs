//! The output side: AG-UI events as JSON lines, one per line, flushed as they go.

use async_trait::async_trait;
use tokio::io::{AsyncWrite, AsyncWriteExt};
use tokio::sync::{Mutex, watch};
use warrant_core::event::Event;
use warrant_core::ids::SessionId;
use warrant_core::transport::{Transport, TransportError};

/// Writes each event as one line of JSON. A [`Transport`]; nothing else is ever written.
pub struct LineTransport {
    out: Mutex<Box<dyn AsyncWrite + Send + Unpin>>,
    /// Set once a write failed: the reader went away.
    closed: watch::Sender<bool>,
}

impl std::fmt::Debug for LineTransport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LineTransport")
            .field("closed", &*self.closed.borrow())
            .finish_non_exhaustive()
    }
}

impl LineTransport {
    /// Events go to `out` (stdout for `warrant stdio`).
    pub fn new(out: impl AsyncWrite + Send + Unpin + 'static) -> Self {
        Self {
            out: Mutex::new(Box::new(out)),
            closed: watch::Sender::new(false),
        }
    }

    /// Completes once a write failed (the output closed; nobody reads any more).
    pub async fn closed(&self) {
        let mut closed = self.closed.subscribe();
        let _ = closed.wait_for(|c| *c).await;
    }

    /// Whether a write failed.
    pub fn is_closed(&self) -> bool {
        *self.closed.borrow()
    }

    /// Writes one event as one line, and flushes.
    ///
    /// # Errors
    ///
    /// An I/O error of the output; every later write fails too, and [`closed`](Self::closed)
    /// completes.
    pub async fn write(&self, event: &Event) -> std::io::Result<()> {
        if self.is_closed() {
            return Err(std::io::Error::new(
                std::io::ErrorKind::BrokenPipe,
                "the output is closed",
            ));
        }
        let mut line = serde_json::to_vec(event).map_err(std::io::Error::other)?;
        line.push(b'\n');
        let mut out = self.out.lock().await;
        let written = match out.write_all(&line).await {
            Ok(()) => out.flush().await,
            Err(e) => Err(e),
        };
        if written.is_err() {
            self.closed.send_replace(true);
        }
        written
    }

    /// Flushes the output.
    ///
    /// # Errors
    ///
    /// An I/O error of the output.
    pub async fn flush(&self) -> std::io::Result<()> {
        self.out.lock().await.flush().await
    }
}

#[async_trait]
impl Transport for LineTransport {
    async fn emit(&self, _session_id: &SessionId, event: &Event) -> Result<(), TransportError> {
        self.write(event)
            .await
            .map_err(|e| TransportError::new(format!("output closed: {e}")))
    }
}
