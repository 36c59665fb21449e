//! The `Evaluator` trait: look at one tool call in its context and decide or abstain.

use std::sync::Arc;

use async_trait::async_trait;
use serde::{Deserialize, Serialize};

use crate::call::{EvaluationContext, PermissionMode, ToolCall};
use crate::decision::{
    Behavior, Confidence, PermissionDecisionSource, Provenance, ReviewDetails, Risk,
};

/// How strongly an evaluator's decision binds, by the chain's strength table.
///
/// Lower strengths win over higher ones whatever the order evaluators are configured in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stance {
    /// Strength 1: a hard deny (invalid input, destructive command, sensitive path, deny rule).
    /// Holds in every mode.
    HardDeny,
    /// Strength 2: the user's own `ask` rule, or an evaluator failure. Holds in every mode.
    RequireAsk,
    /// Strength 3: a user allow (allow rule, grant, auto-approved tool, checkpoint off).
    UserAllow,
    /// Strength 4: a deterministic policy allow (read-only).
    PolicyAllow,
    /// Strength 5: an open call with a reason (a write, a path outside the workspace, a
    /// program the policy does not model): settled by the permission mode. Input the policy
    /// could not read completely (unparseable, past a parser limit) is a [`Stance::RequireAsk`]
    /// instead: no mode settles what was never read.
    DefaultAsk,
}

impl Stance {
    /// The behaviour this stance stands for.
    pub fn behavior(self) -> Behavior {
        match self {
            Stance::HardDeny => Behavior::Deny,
            Stance::RequireAsk | Stance::DefaultAsk => Behavior::Ask,
            Stance::UserAllow | Stance::PolicyAllow => Behavior::Allow,
        }
    }

    /// The stance's strength (1 binds most).
    pub fn strength(self) -> u8 {
        match self {
            Stance::HardDeny => 1,
            Stance::RequireAsk => 2,
            Stance::UserAllow => 3,
            Stance::PolicyAllow => 4,
            Stance::DefaultAsk => 5,
        }
    }
}

/// The explanation that comes with a decision.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Rationale {
    /// Why, in words.
    pub reason: String,
    /// Why, as a stable code (see the reason-code families).
    pub reason_code: String,
    /// The evaluator's risk rating.
    pub risk: Risk,
    /// The classifier's own confidence (classifiers only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub confidence: Option<Confidence>,
    /// Risk categories.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub risk_categories: Option<Vec<String>>,
    /// The reviewing model (classifiers only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reviewer_model: Option<String>,
    /// Which kind of user decision it was (the `rule` source only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub provenance: Option<Provenance>,
    /// How the security reviewer reviewed the call (classifiers only).
    #[serde(flatten, default)]
    pub review: ReviewDetails,
}

impl Rationale {
    /// A rationale with a reason, a code and a risk, and no classifier metadata.
    pub fn new(reason_code: impl Into<String>, reason: impl Into<String>, risk: Risk) -> Self {
        Self {
            reason: reason.into(),
            reason_code: reason_code.into(),
            risk,
            confidence: None,
            risk_categories: None,
            reviewer_model: None,
            provenance: None,
            review: ReviewDetails::default(),
        }
    }

    /// The same rationale, saying which kind of user decision it was.
    pub fn with_provenance(mut self, provenance: Provenance) -> Self {
        self.provenance = Some(provenance);
        self
    }
}

/// What a judging evaluator says about a call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// The evaluator has nothing to say about this call.
    Abstain,
    /// The evaluator takes a stance.
    Decide {
        /// How strongly it binds.
        stance: Stance,
        /// Why.
        rationale: Rationale,
    },
    /// A settling evaluator's answer for an open call (only from [`Role::Settle`]).
    Settle {
        /// What happens to the call.
        behavior: Behavior,
        /// Why.
        rationale: Rationale,
    },
}

impl Verdict {
    /// A decision with the given stance.
    pub fn decide(stance: Stance, rationale: Rationale) -> Self {
        Verdict::Decide { stance, rationale }
    }

    /// A settling evaluator's answer for an open call (see [`Role::Settle`]).
    pub fn settle(behavior: Behavior, rationale: Rationale) -> Self {
        Verdict::Settle {
            behavior,
            rationale,
        }
    }
}

/// When the chain consults an evaluator.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Role {
    /// Consulted for every call; answers with [`Verdict::Decide`] or [`Verdict::Abstain`].
    Judge,
    /// Consulted only for an open call in the given mode; answers with [`Verdict::Settle`]
    /// (or abstains, which leaves the call to the user).
    Settle(PermissionMode),
}

/// Why an evaluator could not give a verdict. The chain turns every failure into `ask`.
#[derive(Debug, thiserror::Error)]
#[error("{message}")]
pub struct EvaluatorError {
    /// What went wrong, naming the offending value.
    pub message: String,
}

impl EvaluatorError {
    /// An error with the given message.
    pub fn new(message: impl Into<String>) -> Self {
        Self {
            message: message.into(),
        }
    }
}

/// Looks at one tool call and decides or abstains.
///
/// An evaluator never sees the others: the [`Chain`](crate::chain::Chain) combines verdicts by
/// strength. A deny is a normal verdict, never an `Err`; an `Err`, a panic or a timeout is
/// turned into `ask` by the chain.
///
/// ```
/// use async_trait::async_trait;
/// use warrant_core::prelude::*;
///
/// /// Denies every call to a tool named `deploy`.
/// struct NoDeploys;
///
/// #[async_trait]
/// impl Evaluator for NoDeploys {
///     fn name(&self) -> &str { "no_deploys" }
///     fn source(&self) -> PermissionDecisionSource { PermissionDecisionSource::Policy }
///     fn version(&self) -> Option<&str> { Some("1.0.0") }
///     async fn evaluate(&self, call: &ToolCall, _cx: &EvaluationContext) -> Result<Verdict, EvaluatorError> {
///         Ok(if call.tool_name == "deploy" {
///             Verdict::decide(Stance::HardDeny, Rationale::new("plugin_no_deploys_deny", "Deploys are off.", Risk::High))
///         } else {
///             Verdict::Abstain
///         })
///     }
/// }
/// ```
///
/// Decisions stream with the evaluator's [`source`](Evaluator::source) (one of the seed's
/// four) and, beside it, its [`name`](Evaluator::name) and [`version`](Evaluator::version)
/// (`evaluator` on the wire), so a UI can say which plugin decided. Reason codes of
/// third-party evaluators belong to the `plugin_<name>_…` family; the built-in families
/// (`shell_`, `normalized_rule_`, `auto_classifier_`, …) are the built-in evaluators' own.
/// For closures and test doubles, see the `testkit` feature ([`evaluator_fn`], `MockEvaluator`).
///
/// [`evaluator_fn`]: https://docs.rs/warrant-core/latest/warrant_core/testkit/fn.evaluator_fn.html
///
/// # Errors
///
/// Return an [`EvaluatorError`] when the evaluator cannot judge (a backend is down, its
/// configuration is broken). The chain records it in the trace and the call asks.
#[async_trait]
pub trait Evaluator: Send + Sync {
    /// The evaluator's stable name (`policy`, `rule`, …), used in traces and configuration.
    fn name(&self) -> &str;

    /// The provenance the engine stamps on decisions this evaluator makes.
    fn source(&self) -> PermissionDecisionSource;

    /// The evaluator's version, streamed with its decisions (`evaluator.version`). None by
    /// default; a plugin reports its own.
    fn version(&self) -> Option<&str> {
        None
    }

    /// When the chain consults this evaluator. Judges by default.
    fn role(&self) -> Role {
        Role::Judge
    }

    /// How long this evaluator needs at most, when it knows better than the chain's default
    /// (a reviewer whose own timeout is longer). Configuration-built chains give it that
    /// long; past it, the call asks.
    fn time_limit(&self) -> Option<std::time::Duration> {
        None
    }

    /// Looks at one call.
    async fn evaluate(
        &self,
        call: &ToolCall,
        cx: &EvaluationContext,
    ) -> Result<Verdict, EvaluatorError>;
}

#[async_trait]
impl<E: Evaluator + ?Sized> Evaluator for Arc<E> {
    fn name(&self) -> &str {
        (**self).name()
    }
    fn source(&self) -> PermissionDecisionSource {
        (**self).source()
    }
    fn version(&self) -> Option<&str> {
        (**self).version()
    }
    fn role(&self) -> Role {
        (**self).role()
    }
    fn time_limit(&self) -> Option<std::time::Duration> {
        (**self).time_limit()
    }
    async fn evaluate(
        &self,
        call: &ToolCall,
        cx: &EvaluationContext,
    ) -> Result<Verdict, EvaluatorError> {
        (**self).evaluate(call, cx).await
    }
}

#[async_trait]
impl<E: Evaluator + ?Sized> Evaluator for Box<E> {
    fn name(&self) -> &str {
        (**self).name()
    }
    fn source(&self) -> PermissionDecisionSource {
        (**self).source()
    }
    fn version(&self) -> Option<&str> {
        (**self).version()
    }
    fn role(&self) -> Role {
        (**self).role()
    }
    fn time_limit(&self) -> Option<std::time::Duration> {
        (**self).time_limit()
    }
    async fn evaluate(
        &self,
        call: &ToolCall,
        cx: &EvaluationContext,
    ) -> Result<Verdict, EvaluatorError> {
        (**self).evaluate(call, cx).await
    }
}
