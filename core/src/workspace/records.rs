//! Patterns and sessions as the workspace stores them.

use serde::{Deserialize, Serialize};

use super::{ApprovalPolicy, DEFAULT_PATTERN_ID};
use crate::ids::SessionId;

/// A pattern: a reusable agent setup with its approval policy.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Pattern {
    /// The pattern's id.
    pub id: String,
    /// Its display name.
    #[serde(default)]
    pub name: String,
    /// Its approval policy; absent means checkpoints on (a missing policy never turns
    /// approvals off).
    #[serde(default = "ApprovalPolicy::checkpoints_on")]
    pub approval_policy: ApprovalPolicy,
}

impl Pattern {
    /// The built-in default pattern: `tool-call` checkpoints on, nothing auto-approved.
    pub fn default_pattern() -> Self {
        Self {
            id: DEFAULT_PATTERN_ID.to_owned(),
            name: "Default".to_owned(),
            approval_policy: ApprovalPolicy::checkpoints_on(),
        }
    }
}

/// The kind of a session.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum SessionKind {
    /// A chat session.
    #[default]
    Chat,
    /// A scratchpad session (no tool auto-approval overrides).
    Scratchpad,
}

/// Whether a session is running.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum SessionStatus {
    /// Not running.
    #[default]
    Idle,
    /// Running: its approval settings cannot change.
    Running,
}

/// A session's override of its pattern's auto-approved tools.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SessionApprovalSettings {
    /// The tool ids auto-approved for this session (`[]`: none).
    #[serde(default)]
    pub auto_approved_tool_names: Vec<String>,
}

/// A session.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SessionRecord {
    /// The session's id.
    pub id: SessionId,
    /// The pattern it runs.
    #[serde(default = "default_pattern_id")]
    pub pattern_id: String,
    /// Chat or scratchpad.
    #[serde(default)]
    pub kind: SessionKind,
    /// Idle or running.
    #[serde(default)]
    pub status: SessionStatus,
    /// The session's override; inherits the pattern's defaults when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub approval_settings: Option<SessionApprovalSettings>,
    /// The agent that runs the session, when it said (`claude-code`, a sidecar's name).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent: Option<String>,
    /// The directory the agent works in, when it said.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cwd: Option<String>,
}

/// The longest agent name a session record keeps, in characters.
pub const MAX_SESSION_AGENT_CHARS: usize = 128;
/// The longest working directory a session record keeps, in characters.
pub const MAX_SESSION_CWD_CHARS: usize = 4096;

fn default_pattern_id() -> String {
    DEFAULT_PATTERN_ID.to_owned()
}

impl SessionRecord {
    /// An idle chat session on the default pattern that inherits its defaults.
    pub fn new(id: impl Into<SessionId>) -> Self {
        Self {
            id: id.into(),
            pattern_id: default_pattern_id(),
            kind: SessionKind::Chat,
            status: SessionStatus::Idle,
            approval_settings: None,
            agent: None,
            cwd: None,
        }
    }

    /// Whether the session holds nothing of its own: idle, and no approval override. A blank
    /// session with no messages, approvals or grants may expire (see
    /// [`Store::expire_idle_sessions`](crate::store::WorkspaceStore::expire_idle_sessions)).
    pub fn is_blank(&self) -> bool {
        self.status == SessionStatus::Idle && self.approval_settings.is_none()
    }
}
