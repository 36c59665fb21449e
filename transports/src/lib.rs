//! Warrant's transports: AG-UI events over SSE and over stdio.
//!
//! - [`sse`]: the [`SseHub`](sse::SseHub), a [`Transport`](warrant_core::transport::Transport)
//!   that logs every event of a session in the store and streams it to subscribers, resumable
//!   with `Last-Event-ID` (the HTTP API that serves it is the `warrant-server` crate);
//! - [`stdio`]: JSON lines in, AG-UI events out, one per line (`warrant stdio`);
//! - [`workspace`]: the workspace changes both transports offer;
//! - [`error`]: the JSON error both answer with.

pub mod error;
mod plugin;
pub mod sse;
pub mod stdio;
pub mod workspace;

pub use error::ApiError;
