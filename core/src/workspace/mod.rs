//! The workspace state of seed 002: tooling, patterns with their approval policy, sessions,
//! the effective policy a session's calls are judged by, and the operations that change them.
//!
//! Every operation is a function from the current state to the next one
//! (`&WorkspaceState -> Result<WorkspaceState, ApprovalError>`): a rejected change leaves the
//! state untouched, and the caller persists the new state through its
//! [`Store`](crate::store::Store). Operations that read tool ids take the runtime's tools when
//! known (`Some`) and derive every id through [`crate::catalog`].

mod error;
mod lists;
mod patterns;
mod policy;
mod records;
mod repair;
mod retooling;
mod session_id;
mod session_settings;
mod tooling;
mod validate;

use serde::{Deserialize, Serialize};

pub use error::{ApprovalError, PolicyOwner, UnknownToolId};
pub use patterns::{delete_pattern, save_pattern};
pub use policy::{ApprovalCheckpointRule, ApprovalPolicy, CheckpointKind, EffectivePolicy};
pub use records::{
    MAX_SESSION_AGENT_CHARS, MAX_SESSION_CWD_CHARS, Pattern, SessionApprovalSettings, SessionKind,
    SessionRecord, SessionStatus,
};
pub use repair::{load_workspace, normalize_approval_state, prune_stale_tool_ids};
pub use retooling::{delete_lsp_profile, delete_mcp_server, save_lsp_profile, save_mcp_server};
pub use session_id::{MAX_SESSION_ID_BYTES, SessionIdTooLong, check_session_id};
pub use session_settings::{SessionApprovalSettingsRequest, update_session_approval_settings};
pub use tooling::{LspProfile, McpServer, Tooling, WorkspaceSettings};

/// The agent a call belongs to when the runtime does not say.
pub const PRIMARY_AGENT: &str = "primary";

/// The id of the pattern sessions use when they name none.
pub const DEFAULT_PATTERN_ID: &str = "default";

/// Everything a workspace holds: settings, patterns and sessions.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WorkspaceState {
    /// Settings, tooling among them.
    #[serde(default)]
    pub settings: WorkspaceSettings,
    /// Patterns.
    #[serde(default)]
    pub patterns: Vec<Pattern>,
    /// Sessions.
    #[serde(default)]
    pub sessions: Vec<SessionRecord>,
}

impl Default for WorkspaceState {
    fn default() -> Self {
        Self {
            settings: WorkspaceSettings::default(),
            patterns: vec![Pattern::default_pattern()],
            sessions: Vec::new(),
        }
    }
}

impl WorkspaceState {
    /// The session with this id.
    pub fn session(&self, id: &(impl AsRef<str> + ?Sized)) -> Option<&SessionRecord> {
        let id = id.as_ref();
        self.sessions.iter().find(|s| s.id == id)
    }

    /// The pattern with this id.
    pub fn pattern(&self, id: &str) -> Option<&Pattern> {
        self.patterns.iter().find(|p| p.id == id)
    }

    /// Whether any pattern default or session override names this tool id.
    pub fn references_tool(&self, id: &str) -> bool {
        let in_patterns = self.patterns.iter().any(|p| {
            p.approval_policy
                .auto_approved_tool_names
                .as_ref()
                .is_some_and(|ids| ids.iter().any(|t| t == id))
        });
        in_patterns
            || self.sessions.iter().any(|s| {
                s.approval_settings
                    .as_ref()
                    .is_some_and(|o| o.auto_approved_tool_names.iter().any(|t| t == id))
            })
    }
}
