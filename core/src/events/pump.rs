//! Drives a subscriber's state as a [`futures::Stream`] while keeping its inherent, cancel-safe
//! `next`: the state lives behind an async mutex, so a dropped call loses nothing.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use futures::future::BoxFuture;
use tokio::sync::Mutex;

/// A subscriber's state: yields its next item, cancel-safely.
pub(super) trait Source: Send + 'static {
    /// What it yields.
    type Out: Send + 'static;

    /// The next item; `None` at the end.
    fn next(&mut self) -> impl Future<Output = Option<Self::Out>> + Send + '_;
}

/// A [`Source`] and the call in flight when polled as a stream.
pub(super) struct Pump<S: Source> {
    state: Arc<Mutex<S>>,
    in_flight: Option<BoxFuture<'static, Option<S::Out>>>,
}

impl<S: Source> Pump<S> {
    pub(super) fn new(state: S) -> Self {
        Self {
            state: Arc::new(Mutex::new(state)),
            in_flight: None,
        }
    }

    /// The next item, finishing a call a stream poll started.
    pub(super) async fn next(&mut self) -> Option<S::Out> {
        if let Some(call) = self.in_flight.as_mut() {
            let out = call.await;
            self.in_flight = None;
            return out;
        }
        self.state.lock().await.next().await
    }

    /// The state, once no call is in flight (one a stream poll started is dropped: the
    /// state's `next` is cancel-safe).
    pub(super) async fn state(&mut self) -> tokio::sync::MutexGuard<'_, S> {
        self.in_flight = None;
        self.state.lock().await
    }

    pub(super) fn poll(&mut self, cx: &mut Context<'_>) -> Poll<Option<S::Out>> {
        let call = self.in_flight.get_or_insert_with(|| {
            let state = Arc::clone(&self.state);
            Box::pin(async move {
                let mut state = state.lock_owned().await;
                state.next().await
            })
        });
        let out = std::task::ready!(Pin::new(call).poll(cx));
        self.in_flight = None;
        Poll::Ready(out)
    }
}
