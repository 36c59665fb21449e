//! Warrant's core: the decision contract, the evaluator chain, the engine and the traits every plugin implements.
//!
//! Warrant decides, explains and records how every tool call of an AI agent was authorized.
//! This crate has no I/O of its own: evaluators, transports and stores plug in through the
//! [`Evaluator`](evaluator::Evaluator), [`Transport`](transport::Transport) and
//! [`Store`](store::Store) traits (a store is the sum of five small ones: see [`store`]), and
//! the [`Engine`](engine::Engine) ties them together.

pub mod approval;
pub mod audit;
pub mod call;
pub mod catalog;
pub mod chain;
pub mod decision;
pub mod engine;
pub mod evaluator;
pub mod event;
pub mod events;
pub mod grant;
pub mod ids;
pub mod json;
pub mod part;
pub mod sanitize;
pub mod store;
#[cfg(any(test, feature = "testkit"))]
pub mod testkit;
pub mod transport;
pub mod workspace;

pub use ids::{SessionId, ToolCallId};

/// Re-exported: [`Evaluator`](evaluator::Evaluator), [`Store`](store::Store) and
/// [`Transport`](transport::Transport) are implemented with `#[async_trait]`.
pub use async_trait::async_trait;

/// The names most users need.
pub mod prelude {
    pub use crate::approval::{ApprovalAction, ToolApprovalRequest};
    pub use crate::call::{EvaluationContext, PermissionMode, ToolCall};
    pub use crate::chain::{Chain, ChainOutcome};
    pub use crate::decision::{
        AutoApprovalOrigin, Behavior, Confidence, DecidingEvaluator, PermissionDecisionSource,
        Provenance, ResolutionBehavior, Risk, Scope, ToolPermissionDecision,
        ToolPermissionResolution,
    };
    pub use crate::engine::{Authorization, AuthorizeOptions, Engine, NotPermitted, Permit};
    pub use crate::evaluator::{Evaluator, EvaluatorError, Rationale, Role, Stance, Verdict};
    pub use crate::event::{AgentEvent, AppCustom, Event, WarrantEvent};
    pub use crate::ids::{SessionId, ToolCallId};
    pub use crate::store::{
        Approvals, AuditLog, Conversations, EventLog, MemoryStore, Store, WorkspaceStore,
    };
    pub use crate::transport::{MemoryTransport, Transport};
}
