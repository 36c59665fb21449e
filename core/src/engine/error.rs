//! Errors of the engine and of resolving approvals.

use crate::ids::ToolCallId;
use crate::store::StoreError;

/// Why the engine could not decide a call. The call must not run.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum EngineError {
    /// The audit record could not be made durable, so no decision was emitted.
    #[error("the decision for tool call \"{tool_call_id}\" could not be audited: {source}")]
    Audit {
        /// The call.
        tool_call_id: ToolCallId,
        /// The store's error.
        source: StoreError,
    },
    /// A call with this id was already authorized (in flight, awaiting approval or settled).
    #[error("tool call id \"{0}\" is already in use; every call needs a new toolCallId")]
    DuplicateCall(ToolCallId),
    /// A store operation failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Why a workspace change was refused or not saved.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum WorkspaceUpdateError {
    /// The change breaks a rule of the approval model; nothing changed.
    #[error(transparent)]
    Rejected(#[from] crate::workspace::ApprovalError),
    /// The new state could not be saved; the old one stays in force.
    #[error(transparent)]
    Engine(#[from] EngineError),
}

/// Why a resolution was refused.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ResolveError {
    /// No call with this id was ever seen (HTTP 404).
    #[error("no approval request for tool call \"{0}\"")]
    Unknown(ToolCallId),
    /// The call is known but has no pending request: it never asked or is already resolved
    /// (HTTP 409).
    #[error(
        "tool call \"{0}\" has no pending approval request (it never asked, or it was already resolved)"
    )]
    NotPending(ToolCallId),
    /// The action is not one the request offered (HTTP 422).
    #[error(
        "action \"{action_id}\" is not offered for tool call \"{tool_call_id}\" (offered: {offered})"
    )]
    ActionNotOffered {
        /// The call.
        tool_call_id: ToolCallId,
        /// The refused action.
        action_id: String,
        /// The offered action ids, comma-separated.
        offered: String,
    },
    /// A message the resolution cannot carry (HTTP 422): with an allowing action, or too long.
    #[error("{0}")]
    MessageRefused(String),
    /// The resolution could not be audited; the request stays pending.
    #[error("the resolution could not be audited, the request stays pending: {0}")]
    Store(#[from] StoreError),
}

/// Why a grant could not be revoked.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RevokeError {
    /// No grant in force has this id (HTTP 404).
    #[error("no grant \"{0}\" is in force")]
    Unknown(String),
    /// The store could not remove it; it stays in force.
    #[error("the grant could not be removed from the store and stays in force: {0}")]
    Store(StoreError),
    /// It is revoked, but the revocation could not be audited.
    #[error("the grant is revoked, but the revocation could not be audited: {0}")]
    Unaudited(StoreError),
}

/// Why a call's result was refused.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ResultError {
    /// No call with this id is known in the session (HTTP 404).
    #[error("no tool call \"{0}\" is known in this session")]
    Unknown(ToolCallId),
    /// The call may not have a result: another session's, denied, awaiting the user, still
    /// being decided, or already completed (HTTP 409).
    #[error("a result for tool call \"{tool_call_id}\" is not accepted: {reason}")]
    NotAccepted {
        /// The call.
        tool_call_id: ToolCallId,
        /// Why not.
        reason: String,
    },
    /// The store could not be read to check the call.
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Why waiting for a resolution ended without one.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the approval request for tool call \"{0}\" was abandoned before the user acted")]
pub struct Abandoned(pub ToolCallId);
