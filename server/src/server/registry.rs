//! The open connections, oldest first, and which of them are serving a request: when the
//! server is full, the oldest connection that is not serving one (idle keep-alive, or still
//! sending its headers) is closed to make room, so slow clients cannot crowd out real ones.

use std::collections::BTreeMap;
use std::pin::Pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};

use axum::body::Body;
use axum::http::{Request, Response};
use futures::future::BoxFuture;
use tokio::sync::Notify;

/// One open connection, as the registry sees it.
struct Entry {
    /// Requests being served on it (their response bodies included).
    active: Arc<AtomicUsize>,
    /// Closes it.
    shed: Arc<Notify>,
}

/// The open connections.
#[derive(Default)]
pub(super) struct Registry {
    next: AtomicUsize,
    open: Mutex<BTreeMap<usize, Entry>>,
}

/// A connection's registration: its id, its request counter and its close signal.
pub(super) struct Registration {
    pub id: usize,
    pub active: Arc<AtomicUsize>,
    pub shed: Arc<Notify>,
}

impl Registry {
    fn open(&self) -> std::sync::MutexGuard<'_, BTreeMap<usize, Entry>> {
        self.open
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    pub(super) fn register(&self) -> Registration {
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        let active = Arc::new(AtomicUsize::new(0));
        let shed = Arc::new(Notify::new());
        self.open().insert(
            id,
            Entry {
                active: Arc::clone(&active),
                shed: Arc::clone(&shed),
            },
        );
        Registration { id, active, shed }
    }

    pub(super) fn unregister(&self, id: usize) {
        self.open().remove(&id);
    }

    /// Closes the oldest connection serving no request; `false` when every one is busy.
    pub(super) fn shed_oldest_idle(&self) -> bool {
        let mut open = self.open();
        let Some(id) = open
            .iter()
            .find(|(_, e)| e.active.load(Ordering::Acquire) == 0)
            .map(|(id, _)| *id)
        else {
            return false;
        };
        if let Some(entry) = open.remove(&id) {
            entry.shed.notify_one();
        }
        true
    }
}

/// Counts a connection's requests in flight, from the call until the response body ends.
#[derive(Clone)]
pub(super) struct Counted<S> {
    pub inner: S,
    pub active: Arc<AtomicUsize>,
}

/// Decrements the counter when the response body is done (or dropped).
struct InFlight(Arc<AtomicUsize>);

impl Drop for InFlight {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

/// A response body that keeps its request counted while it streams.
struct CountedBody {
    inner: Body,
    _in_flight: InFlight,
}

impl http_body::Body for CountedBody {
    type Data = axum::body::Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<http_body::Frame<Self::Data>, Self::Error>>> {
        Pin::new(&mut self.inner).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> http_body::SizeHint {
        self.inner.size_hint()
    }
}

impl<S, B> tower::Service<Request<B>> for Counted<S>
where
    S: tower::Service<Request<B>, Response = Response<Body>> + Clone + Send + 'static,
    S::Future: Send + 'static,
    B: Send + 'static,
{
    type Response = Response<Body>;
    type Error = S::Error;
    type Future = BoxFuture<'static, Result<Response<Body>, S::Error>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: Request<B>) -> Self::Future {
        self.active.fetch_add(1, Ordering::AcqRel);
        let in_flight = InFlight(Arc::clone(&self.active));
        let future = self.inner.call(request);
        Box::pin(async move {
            let response = future.await?;
            Ok(response.map(|inner| {
                Body::new(CountedBody {
                    inner,
                    _in_flight: in_flight,
                })
            }))
        })
    }
}
