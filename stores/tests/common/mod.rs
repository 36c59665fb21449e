//! Sample values shared by the tests and the bench (those of the store behaviour suite:
//! audit records, tool parts, approvals, grants and events shaped as the engine writes
//! them), and small helpers around them.
#![allow(dead_code)]

pub use warrant_testkit::store::sample::*;

/// A small multi-threaded runtime, for the programs that drive the store themselves.
pub fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a runtime")
}
