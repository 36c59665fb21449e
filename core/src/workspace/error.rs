//! Why a workspace operation was rejected: one variant per broken rule.

use std::fmt;

use super::DEFAULT_PATTERN_ID;
use crate::ids::SessionId;

/// Whose tool list an error is about.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum PolicyOwner {
    /// A pattern's defaults (`approvalPolicy.autoApprovedToolNames`).
    Pattern(String),
    /// A session's override (`approvalSettings.autoApprovedToolNames`).
    Session(SessionId),
}

impl fmt::Display for PolicyOwner {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Pattern(id) => write!(f, "pattern \"{id}\""),
            Self::Session(id) => write!(f, "session \"{id}\""),
        }
    }
}

/// A tool id the catalog does not offer, with the nearest id it does offer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownToolId {
    /// The id as given.
    pub id: String,
    /// The nearest known id, when one is close enough to be a likely typo.
    pub suggestion: Option<String>,
}

impl fmt::Display for UnknownToolId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "\"{}\"", self.id)?;
        match &self.suggestion {
            Some(s) => write!(f, " (did you mean \"{s}\"?)"),
            None => Ok(()),
        }
    }
}

/// A rejected change to the workspace's approval state. Each variant names the rule it broke,
/// the offending value, and how to fix it; the state is left as it was.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ApprovalError {
    /// No session has this id.
    #[error("unknown session \"{session_id}\": check the session id")]
    UnknownSession {
        /// The id given.
        session_id: SessionId,
    },
    /// The session is running; its approval settings cannot change mid-run.
    #[error(
        "session \"{session_id}\" is running: approval settings cannot change while a session runs; retry once it is idle"
    )]
    SessionRunning {
        /// The running session.
        session_id: SessionId,
    },
    /// A scratchpad session was given a non-empty override.
    #[error(
        "session \"{session_id}\" is a scratchpad: scratchpad sessions accept no tool auto-approval override (got {}); omit autoApprovedToolNames to inherit, or pass []",
        quoted(.tool_ids)
    )]
    ScratchpadOverride {
        /// The scratchpad session.
        session_id: SessionId,
        /// The ids it was given.
        tool_ids: Vec<String>,
    },
    /// Tool ids the catalog does not offer.
    #[error(
        "{owner} names unknown tool {} {}: use ids listed by the tool catalog",
        if .ids.len() == 1 { "id" } else { "ids" },
        listed(.ids)
    )]
    UnknownToolIds {
        /// Whose list named them.
        owner: PolicyOwner,
        /// Each unknown id, in the order given.
        ids: Vec<UnknownToolId>,
    },
    /// No pattern has this id.
    #[error("unknown pattern \"{pattern_id}\": check the pattern id")]
    UnknownPattern {
        /// The id given.
        pattern_id: String,
    },
    /// The default pattern cannot be deleted.
    #[error(
        "pattern \"{DEFAULT_PATTERN_ID}\" cannot be deleted: sessions fall back to it; save it with the policy you want instead"
    )]
    DefaultPatternRequired,
    /// Running sessions use the pattern.
    #[error(
        "pattern \"{pattern_id}\" is used by running session {}: delete it once they are idle",
        quoted(.session_ids)
    )]
    PatternInUse {
        /// The pattern.
        pattern_id: String,
        /// The running sessions that use it.
        session_ids: Vec<SessionId>,
    },
    /// No MCP server has this id.
    #[error("unknown MCP server \"{server_id}\": check the server id")]
    UnknownMcpServer {
        /// The id given.
        server_id: String,
    },
    /// No LSP profile has this id.
    #[error("unknown LSP profile \"{profile_id}\": check the profile id")]
    UnknownLspProfile {
        /// The id given.
        profile_id: String,
    },
    /// A pattern, MCP server or LSP profile was saved without an id.
    #[error("{what} has a blank id: give it a non-blank id")]
    BlankId {
        /// What was saved: `pattern`, `MCP server`, `LSP profile`.
        what: &'static str,
    },
}

impl ApprovalError {
    /// A stable, machine-readable name of the broken rule (`session_running`), for error
    /// bodies and logs.
    pub fn code(&self) -> &'static str {
        match self {
            Self::UnknownSession { .. } => "unknown_session",
            Self::SessionRunning { .. } => "session_running",
            Self::ScratchpadOverride { .. } => "scratchpad_override",
            Self::UnknownToolIds { .. } => "unknown_tool_ids",
            Self::UnknownPattern { .. } => "unknown_pattern",
            Self::DefaultPatternRequired => "default_pattern_required",
            Self::PatternInUse { .. } => "pattern_in_use",
            Self::UnknownMcpServer { .. } => "unknown_mcp_server",
            Self::UnknownLspProfile { .. } => "unknown_lsp_profile",
            Self::BlankId { .. } => "blank_id",
        }
    }

    /// Whether the error is about something that does not exist (a session, pattern, MCP
    /// server or LSP profile), as opposed to a change that breaks a rule.
    pub fn is_not_found(&self) -> bool {
        matches!(
            self,
            Self::UnknownSession { .. }
                | Self::UnknownPattern { .. }
                | Self::UnknownMcpServer { .. }
                | Self::UnknownLspProfile { .. }
        )
    }
}

fn quoted(items: &[impl fmt::Display]) -> String {
    let quoted: Vec<String> = items.iter().map(|i| format!("\"{i}\"")).collect();
    quoted.join(", ")
}

fn listed(ids: &[UnknownToolId]) -> String {
    let listed: Vec<String> = ids.iter().map(ToString::to_string).collect();
    listed.join(", ")
}
