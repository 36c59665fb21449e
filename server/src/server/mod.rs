//! The connection loop of `warrant serve`: hyper's HTTP/1.1 server with a header-read
//! timeout (which also closes idle keep-alive connections), a cap on open connections (when
//! full, the oldest connection serving no request makes room), a body-read timeout, and a
//! graceful shutdown with a deadline.

mod registry;
mod shape;

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;

use super::{ServerState, router};

/// How long a client may take to send a request's headers, and how long a keep-alive
/// connection may stay idle between requests, unless configured.
pub const DEFAULT_HEADER_TIMEOUT: Duration = Duration::from_secs(10);
/// How long a client may take to send a request's body unless configured.
pub const DEFAULT_BODY_TIMEOUT: Duration = Duration::from_secs(30);
/// The most connections open at once unless configured. A client beyond it closes the
/// oldest connection serving no request; when every one is serving, it waits.
pub const DEFAULT_MAX_CONNECTIONS: usize = 512;
/// How long a graceful shutdown waits for open requests unless configured.
pub const DEFAULT_SHUTDOWN_DEADLINE: Duration = Duration::from_secs(10);

/// Pause after a failed `accept` (out of descriptors, say) before trying again.
const ACCEPT_BACKOFF: Duration = Duration::from_millis(50);

/// Serves until `shutdown` completes; then no connection is accepted, every event stream
/// ends, and open requests get until the configured deadline to finish.
///
/// # Errors
///
/// None today: a failed `accept` (such as running out of file descriptors) is logged and
/// retried, never fatal. The signature keeps room for listener errors.
pub async fn serve(
    listener: TcpListener,
    state: ServerState,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let config = state.config().clone();
    let hub = Arc::clone(state.hub());
    let app = router(state);
    let permits = Arc::new(Semaphore::new(config.max_connections.max(1)));
    let registry = Arc::new(registry::Registry::default());
    let graceful = GracefulShutdown::new();
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(config.header_timeout)
        .keep_alive(true);
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        let stream = tokio::select! {
            () = &mut shutdown => break,
            accepted = listener.accept() => match accepted {
                Ok((stream, _peer)) => stream,
                Err(e) => {
                    tracing::warn!(error = %e, "cannot accept a connection; retrying");
                    tokio::time::sleep(ACCEPT_BACKOFF).await;
                    continue;
                }
            },
        };
        let permit = match Arc::clone(&permits).try_acquire_owned() {
            Ok(permit) => permit,
            Err(_) => {
                // Full: the oldest connection that serves no request makes room.
                registry.shed_oldest_idle();
                tokio::select! {
                    () = &mut shutdown => break,
                    permit = Arc::clone(&permits).acquire_owned() => match permit {
                        Ok(permit) => permit,
                        Err(_) => break,
                    },
                }
            }
        };
        let _ = stream.set_nodelay(true);
        let io = TokioIo::new(shape::ErrorShaped::new(stream));
        let registration = registry.register();
        let service = TowerToHyperService::new(registry::Counted {
            inner: app.clone(),
            active: Arc::clone(&registration.active),
        });
        let connection = graceful.watch(http.serve_connection(io, service));
        let registry = Arc::clone(&registry);
        tokio::spawn(async move {
            tokio::select! {
                ended = connection => if let Err(e) = ended {
                    tracing::debug!(error = %e, "connection ended with an error");
                },
                () = registration.shed.notified() => {
                    tracing::debug!("idle connection closed to make room for a new one");
                }
            }
            registry.unregister(registration.id);
            drop(permit);
        });
    }
    drop(listener);
    hub.shutdown();
    tokio::select! {
        () = graceful.shutdown() => {}
        () = tokio::time::sleep(config.shutdown_deadline) => {
            tracing::warn!(
                deadline_secs = config.shutdown_deadline.as_secs_f64(),
                "connections still open at the shutdown deadline are dropped"
            );
        }
    }
    Ok(())
}
