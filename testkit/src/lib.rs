//! Behaviour suites for Warrant's plugin traits, so that any implementation — ours or a third
//! party's — runs the same tests as the built-in ones.
//!
//! - [`store`]: every [`Store`](warrant_core::store::Store) behaviour, instantiated by
//!   [`store_behaviours!`] for a factory of fresh stores.
//! - [`transport`]: every [`Transport`](warrant_core::transport::Transport) behaviour,
//!   instantiated by [`transport_behaviours!`].
//! - [`evaluator`]: every [`Evaluator`](warrant_core::evaluator::Evaluator) behaviour,
//!   instantiated by [`evaluator_behaviours!`].
//!
//! Each macro expands to one `#[test]` per behaviour, named after it, so a failure names the
//! behaviour that broke. Invoke each macro in a module of its own (one per implementation).
//!
//! ```no_run
//! mod my_store {
//!     use std::sync::Arc;
//!     use warrant_core::store::MemoryStore;
//!     use warrant_testkit::store::{EVENT_RETENTION, Subject};
//!
//!     fn subject() -> Subject {
//!         let store = Arc::new(MemoryStore::with_event_retention(EVENT_RETENTION));
//!         Subject::new(EVENT_RETENTION, move || store.clone())
//!     }
//!
//!     warrant_testkit::store_behaviours!(subject);
//! }
//! # fn main() {}
//! ```
//!
//! The evaluator test doubles of `warrant-core` ([`evaluator_fn`], [`MockEvaluator`]) are
//! re-exported here.

pub mod evaluator;
pub mod store;
pub mod transport;

pub use warrant_core::testkit::{FnEvaluator, MockEvaluator, evaluator_fn};

/// Runs a behaviour on a runtime like `#[tokio::test]`'s (current thread, time and I/O
/// enabled). Used by the suites' macros, so that their callers need no tokio attribute.
///
/// # Panics
///
/// When the runtime cannot be built, or when the behaviour panics (a failed assertion).
#[doc(hidden)]
pub fn run<F: std::future::Future<Output = ()>>(behaviour: F) {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a tokio runtime for the behaviour")
        .block_on(behaviour);
}
