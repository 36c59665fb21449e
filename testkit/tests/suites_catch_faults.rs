//! The suites fail on what they guard against: a store that forgets at a restart, a
//! transport that reorders a session's events, a judge that allows a malformed call, and an
//! evaluator whose answer changes from one call to the next.

use std::panic::AssertUnwindSafe;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use warrant_core::ids::SessionId;

use async_trait::async_trait;
use tokio::sync::Mutex;
use warrant_core::decision::{PermissionDecisionSource, Risk};
use warrant_core::evaluator::{Rationale, Stance, Verdict};
use warrant_core::event::Event;
use warrant_core::store::{MemoryStore, Store};
use warrant_core::transport::{MemoryTransport, Transport, TransportError};
use warrant_testkit::{evaluator, evaluator_fn, store, transport};

/// Whether running the behaviour panicked (a failed assertion).
fn fails(behaviour: impl std::future::Future<Output = ()>) -> bool {
    std::panic::catch_unwind(AssertUnwindSafe(|| warrant_testkit::run(behaviour))).is_err()
}

#[test]
fn a_store_that_forgets_at_a_restart_fails_the_store_suite() {
    let amnesiac = || {
        store::Subject::new(store::EVENT_RETENTION, || -> Arc<dyn Store> {
            Arc::new(MemoryStore::with_event_retention(store::EVENT_RETENTION))
        })
    };
    assert!(fails(async {
        store::audit::records_survive_a_restart_and_numbering_continues(amnesiac()).await
    }));
    assert!(fails(async {
        store::approvals::a_pending_approval_survives_a_restart(amnesiac()).await
    }));
    // The same suite passes on a store that remembers.
    assert!(!fails(async {
        let store: Arc<dyn Store> = Arc::new(MemoryStore::new());
        let subject = store::Subject::new(store::EVENT_RETENTION, move || Arc::clone(&store));
        store::approvals::a_pending_approval_survives_a_restart(subject).await
    }));
}

/// Delivers each pair of events in reverse: the second before the first.
struct Swapping {
    inner: Arc<MemoryTransport>,
    held: Mutex<Option<Event>>,
}

#[async_trait]
impl Transport for Swapping {
    async fn emit(&self, session_id: &SessionId, event: &Event) -> Result<(), TransportError> {
        let mut held = self.held.lock().await;
        match held.take() {
            None => *held = Some(event.clone()),
            Some(first) => {
                self.inner.emit(session_id, event).await?;
                self.inner.emit(session_id, &first).await?;
            }
        }
        Ok(())
    }
}

#[test]
fn a_transport_that_reorders_fails_the_transport_suite() {
    assert!(fails(async {
        let inner = Arc::new(MemoryTransport::new());
        let watched = Arc::clone(&inner);
        let swapping = Arc::new(Swapping {
            inner,
            held: Mutex::new(None),
        });
        let subject = transport::Subject::new(swapping, Arc::new(MemoryStore::new()), move |s| {
            transport::Observer::broadcast(watched.subscribe(s))
        });
        transport::events_of_a_session_arrive_in_order_and_intact(subject).await
    }));
}

#[test]
fn a_judge_that_allows_everything_fails_the_evaluator_suite() {
    let lenient = evaluator_fn("lenient", PermissionDecisionSource::Rule, |_, _| {
        Verdict::decide(
            Stance::UserAllow,
            Rationale::new("plugin_lenient_allow", "Everything goes.", Risk::Low),
        )
    });
    let subject = evaluator::Subject::new(Arc::new(lenient));
    assert!(fails(
        evaluator::a_judge_never_allows_a_malformed_or_oversized_call(subject.clone())
    ));
    // Everything else it does is within the contract.
    assert!(!fails(evaluator::every_answer_explains_itself(subject)));
}

#[test]
fn an_evaluator_whose_answer_drifts_fails_the_evaluator_suite() {
    let asked = AtomicU64::new(0);
    let drifting = evaluator_fn("drifting", PermissionDecisionSource::Policy, move |_, _| {
        // Abstains the first time it is asked anything, asks ever after.
        if asked.fetch_add(1, Ordering::Relaxed) == 0 {
            Verdict::Abstain
        } else {
            Verdict::decide(
                Stance::RequireAsk,
                Rationale::new("plugin_drifting_ask", "Sometimes.", Risk::Medium),
            )
        }
    });
    let subject = evaluator::Subject::new(Arc::new(drifting));
    assert!(fails(evaluator::the_same_call_gets_the_same_answer(
        subject
    )));
}
