//! Building blocks for evaluators and their tests: [`evaluator_fn`] turns a closure into an
//! [`Evaluator`], and [`MockEvaluator`] answers scripted verdicts and records what it saw.
//!
//! ```
//! use warrant_core::prelude::*;
//! use warrant_core::testkit::evaluator_fn;
//!
//! # tokio_test_block(async {
//! // Denies every `deploy` call; abstains on the rest.
//! let no_deploys = evaluator_fn("no_deploys", PermissionDecisionSource::Policy, |call, _cx| {
//!     if call.tool_name == "deploy" {
//!         Verdict::decide(
//!             Stance::HardDeny,
//!             Rationale::new("plugin_no_deploys_deny", "Deploys are off.", Risk::High),
//!         )
//!     } else {
//!         Verdict::Abstain
//!     }
//! });
//! let chain = Chain::builder().evaluator(no_deploys).build();
//! let call = ToolCall::new("s1", "c1", "deploy", serde_json::json!({}));
//! let cx = EvaluationContext::new(PermissionMode::Default, "/tmp");
//! let decision = chain.decide(&call, &cx).await.decision;
//! assert_eq!(decision.behavior, Behavior::Deny);
//! assert_eq!(decision.evaluator.unwrap().name, "no_deploys");
//! # });
//! # fn tokio_test_block(f: impl std::future::Future<Output = ()>) {
//! #     tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(f)
//! # }
//! ```
//!
//! Timeouts are tested on a paused clock (`#[tokio::test(start_paused = true)]`, tokio's
//! `test-util` feature): an evaluator that sleeps past its link's timeout is turned into an
//! `ask` at once, with no real waiting (see `core/tests/testkit.rs`).

use std::collections::VecDeque;
use std::sync::Mutex;

use async_trait::async_trait;

use crate::call::{EvaluationContext, ToolCall};
use crate::decision::PermissionDecisionSource;
use crate::evaluator::{Evaluator, EvaluatorError, Role, Verdict};
use crate::ids::ToolCallId;

/// An [`Evaluator`] made of a name, a source and a function of the call and its context.
pub struct FnEvaluator<F> {
    name: String,
    source: PermissionDecisionSource,
    role: Role,
    judge: F,
}

impl<F> std::fmt::Debug for FnEvaluator<F> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FnEvaluator")
            .field("name", &self.name)
            .field("source", &self.source)
            .field("role", &self.role)
            .finish_non_exhaustive()
    }
}

/// An evaluator that judges every call with `judge` (see the [module docs](self)).
pub fn evaluator_fn<F>(
    name: impl Into<String>,
    source: PermissionDecisionSource,
    judge: F,
) -> FnEvaluator<F>
where
    F: Fn(&ToolCall, &EvaluationContext) -> Verdict + Send + Sync,
{
    FnEvaluator {
        name: name.into(),
        source,
        role: Role::Judge,
        judge,
    }
}

impl<F> FnEvaluator<F> {
    /// The same evaluator, consulted in `role` (a settler answers with [`Verdict::settle`]).
    pub fn with_role(mut self, role: Role) -> Self {
        self.role = role;
        self
    }
}

#[async_trait]
impl<F> Evaluator for FnEvaluator<F>
where
    F: Fn(&ToolCall, &EvaluationContext) -> Verdict + Send + Sync,
{
    fn name(&self) -> &str {
        &self.name
    }

    fn source(&self) -> PermissionDecisionSource {
        self.source
    }

    fn role(&self) -> Role {
        self.role
    }

    async fn evaluate(
        &self,
        call: &ToolCall,
        cx: &EvaluationContext,
    ) -> Result<Verdict, EvaluatorError> {
        Ok((self.judge)(call, cx))
    }
}

/// A scripted evaluator for tests: answers its queued verdicts (or errors) in order, then
/// its fallback, and records the id of every call it saw.
#[derive(Debug)]
pub struct MockEvaluator {
    name: String,
    source: PermissionDecisionSource,
    role: Role,
    script: Mutex<VecDeque<Result<Verdict, String>>>,
    fallback: Verdict,
    seen: Mutex<Vec<ToolCallId>>,
}

impl MockEvaluator {
    /// A judge that abstains unless told otherwise.
    pub fn new(name: impl Into<String>, source: PermissionDecisionSource) -> Self {
        Self {
            name: name.into(),
            source,
            role: Role::Judge,
            script: Mutex::new(VecDeque::new()),
            fallback: Verdict::Abstain,
            seen: Mutex::new(Vec::new()),
        }
    }

    /// Consulted in `role`.
    pub fn with_role(mut self, role: Role) -> Self {
        self.role = role;
        self
    }

    /// Answers `verdict` once the queued answers before it are used.
    pub fn then(self, verdict: Verdict) -> Self {
        self.lock_script().push_back(Ok(verdict));
        self
    }

    /// Fails once with `message` (the chain turns it into an `ask`).
    pub fn then_fail(self, message: impl Into<String>) -> Self {
        self.lock_script().push_back(Err(message.into()));
        self
    }

    /// Answers `verdict` whenever nothing is queued.
    pub fn always(mut self, verdict: Verdict) -> Self {
        self.fallback = verdict;
        self
    }

    /// The ids of the calls it was asked about, in order.
    pub fn seen(&self) -> Vec<ToolCallId> {
        self.seen
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone()
    }

    fn lock_script(&self) -> std::sync::MutexGuard<'_, VecDeque<Result<Verdict, String>>> {
        self.script
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

#[async_trait]
impl Evaluator for MockEvaluator {
    fn name(&self) -> &str {
        &self.name
    }

    fn source(&self) -> PermissionDecisionSource {
        self.source
    }

    fn role(&self) -> Role {
        self.role
    }

    async fn evaluate(
        &self,
        call: &ToolCall,
        _cx: &EvaluationContext,
    ) -> Result<Verdict, EvaluatorError> {
        self.seen
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .push(call.tool_call_id.clone());
        match self.lock_script().pop_front() {
            Some(Ok(verdict)) => Ok(verdict),
            Some(Err(message)) => Err(EvaluatorError::new(message)),
            None => Ok(self.fallback.clone()),
        }
    }
}
