//! Audit records: the authoritative account of every evaluation and resolution.

use crate::ids::{SessionId, ToolCallId};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

mod verification;

pub use verification::{
    AuditBreak, AuditChainState, AuditHead, AuditProblem, AuditVerification, GENESIS,
    verify_unkeyed,
};

use crate::call::PermissionMode;
use crate::chain::ChainTrace;
use crate::decision::{ToolPermissionDecision, ToolPermissionResolution};

/// What an audit record is about.
// Most records are evaluations, so boxing the large variant would only add an allocation.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
// Kinds are snake_case values; field names are camelCase like every other name in the log
// (records written before read `input_digest` too).
#[serde(
    rename_all = "snake_case",
    rename_all_fields = "camelCase",
    tag = "kind"
)]
#[non_exhaustive]
pub enum AuditEvent {
    /// A call was evaluated.
    Evaluation {
        /// The permission mode in force.
        mode: PermissionMode,
        /// SHA-256 of the call's input (canonical JSON), so the input is never stored.
        #[serde(alias = "input_digest")]
        input_digest: String,
        /// The decision, sanitized as it was streamed.
        decision: ToolPermissionDecision,
        /// What every evaluator did.
        trace: ChainTrace,
    },
    /// The user resolved an approval request.
    Resolution {
        /// The resolution.
        resolution: ToolPermissionResolution,
    },
    /// A pending approval could no longer be resolved (its waiter went away or it expired).
    Expiry {
        /// Why.
        reason: String,
    },
    /// The agent (or its host) withdrew a pending approval request: the call never ran.
    Cancel {
        /// Why.
        reason: String,
    },
    /// The user revoked a grant: calls it covered ask again.
    GrantRevoked {
        /// The grant's id.
        grant_id: String,
        /// What it covered, as the approval described it.
        description: String,
    },
}

/// One audit record, before a store gives it a sequence number.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AuditRecord {
    /// When (Unix milliseconds).
    pub at: i64,
    /// The session.
    pub session_id: SessionId,
    /// The call.
    pub tool_call_id: ToolCallId,
    /// The runtime tool id.
    pub tool_name: String,
    /// What happened.
    #[serde(flatten)]
    pub event: AuditEvent,
}

/// The SHA-256 digest (hex) of a JSON value.
pub fn digest(value: &serde_json::Value) -> String {
    digest_of_json(&serde_json::to_vec(value).unwrap_or_default())
}

/// [`digest`] of a value already encoded (`serde_json::to_vec` of it).
pub fn digest_of_json(bytes: &[u8]) -> String {
    hex::encode(Sha256::digest(bytes))
}
