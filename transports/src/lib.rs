//! Warrant's transports: AG-UI events over SSE/HTTP (`warrant serve`) and over stdio (`warrant stdio`).
//!
//! - [`sse`]: the [`SseHub`](sse::SseHub), a [`Transport`](warrant_core::transport::Transport)
//!   that logs every event of a session in the store and streams it to subscribers, resumable
//!   with `Last-Event-ID`;
//! - [`http`]: the HTTP API of `warrant serve` (axum), the AG-UI endpoint among its routes;
//! - [`agent`]: the scripted demo agent behind `POST /v1/agent`, whose tools are mocked but
//!   whose permission decisions are real;
//! - [`stdio`]: JSON lines in, AG-UI events out, one per line;
//! - [`telemetry`]: decision counters for `GET /metrics` and, with the `otel` feature, a span
//!   per decision exported over OTLP/HTTP.

pub mod agent;
pub mod error;
pub mod http;
mod plugin;
pub mod sse;
pub mod stdio;
pub mod telemetry;
pub mod workspace;

pub use error::ApiError;
