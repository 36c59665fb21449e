//! Shared by the transport tests: a chain that decides the demo's calls like the real one
//! (read-only allow, destructive deny, writes open), transports that drop or fail, and readers
//! for SSE bodies.
#![allow(dead_code)]

pub mod chain;
pub mod discard;
pub mod failing;
pub mod sse;
