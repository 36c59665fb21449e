//! The workspace state of seed 002: tooling, patterns with their approval policy, sessions,
//! and the effective policy a session's calls are judged by.

use serde::{Deserialize, Serialize};

/// The agent a call belongs to when the runtime does not say.
pub const PRIMARY_AGENT: &str = "primary";

/// The id of the pattern sessions use when they name none.
pub const DEFAULT_PATTERN_ID: &str = "default";

/// The kinds of approval checkpoint.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CheckpointKind {
    /// Approve the agent's final response.
    FinalResponse,
    /// Approve tool calls.
    ToolCall,
}

/// One approval checkpoint of a pattern, for some or all of its agents.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ApprovalCheckpointRule {
    /// The checkpoint this rule turns on.
    pub kind: CheckpointKind,
    /// The agents it applies to; every agent when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent_ids: Option<Vec<String>>,
}

impl ApprovalCheckpointRule {
    /// Whether this rule applies to `agent`.
    pub fn applies_to(&self, agent: &str) -> bool {
        self.agent_ids
            .as_ref()
            .is_none_or(|ids| ids.iter().any(|id| id == agent))
    }
}

/// A pattern's approval policy.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ApprovalPolicy {
    /// The checkpoints that are on.
    #[serde(default)]
    pub rules: Vec<ApprovalCheckpointRule>,
    /// Runtime tool ids auto-approved by default (independent of `rules`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub auto_approved_tool_names: Option<Vec<String>>,
}

impl ApprovalPolicy {
    /// The policy of the built-in default pattern: `tool-call` checkpoints on for every agent,
    /// nothing auto-approved.
    pub fn checkpoints_on() -> Self {
        Self {
            rules: vec![ApprovalCheckpointRule {
                kind: CheckpointKind::ToolCall,
                agent_ids: None,
            }],
            auto_approved_tool_names: Some(Vec::new()),
        }
    }
}

/// The approval policy a session's calls are judged by: the pattern's rules, plus the
/// session's override list when present, else the pattern's defaults.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EffectivePolicy {
    /// The pattern's checkpoint rules.
    pub rules: Vec<ApprovalCheckpointRule>,
    /// The tool ids auto-approved for this session.
    pub auto_approved_tool_names: Vec<String>,
    /// Whether the list comes from a session override (`false`: inherited from the pattern).
    pub session_override: bool,
}

impl Default for EffectivePolicy {
    fn default() -> Self {
        let policy = ApprovalPolicy::checkpoints_on();
        Self {
            rules: policy.rules,
            auto_approved_tool_names: Vec::new(),
            session_override: false,
        }
    }
}

impl EffectivePolicy {
    /// Whether `tool-call` approval is on for `agent`.
    pub fn tool_call_checkpoint(&self, agent: &str) -> bool {
        self.rules
            .iter()
            .any(|r| r.kind == CheckpointKind::ToolCall && r.applies_to(agent))
    }

    /// Whether `tool_name` is auto-approved.
    pub fn auto_approves(&self, tool_name: &str) -> bool {
        self.auto_approved_tool_names.iter().any(|t| t == tool_name)
    }
}

/// A configured MCP server and the tools it offers.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct McpServer {
    /// The server's id.
    pub id: String,
    /// Its display name.
    #[serde(default)]
    pub name: String,
    /// The raw names of the tools it offers (the runtime ids).
    #[serde(default)]
    pub tools: Vec<String>,
}

/// A configured language-server profile.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LspProfile {
    /// The profile's id (`ts`), part of its tool ids (`lsp_ts_hover`).
    pub id: String,
    /// Its display name.
    #[serde(default)]
    pub name: String,
}

/// The tooling a workspace configures.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Tooling {
    /// MCP servers.
    #[serde(default)]
    pub mcp_servers: Vec<McpServer>,
    /// LSP profiles.
    #[serde(default)]
    pub lsp_profiles: Vec<LspProfile>,
}

/// Workspace settings.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WorkspaceSettings {
    /// The configured tooling.
    #[serde(default)]
    pub tooling: Tooling,
}

/// A pattern: a reusable agent setup with its approval policy.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Pattern {
    /// The pattern's id.
    pub id: String,
    /// Its display name.
    #[serde(default)]
    pub name: String,
    /// Its approval policy.
    #[serde(default)]
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
    pub id: String,
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
}

fn default_pattern_id() -> String {
    DEFAULT_PATTERN_ID.to_owned()
}

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
    pub fn session(&self, id: &str) -> Option<&SessionRecord> {
        self.sessions.iter().find(|s| s.id == id)
    }

    /// The pattern with this id.
    pub fn pattern(&self, id: &str) -> Option<&Pattern> {
        self.patterns.iter().find(|p| p.id == id)
    }

    /// The effective policy of a session: its pattern's rules, plus its override when present,
    /// else the pattern's defaults. An unknown session or pattern gets the built-in default
    /// pattern, so an unknown call still asks.
    pub fn effective_policy(&self, session_id: &str) -> EffectivePolicy {
        let session = self.session(session_id);
        let fallback;
        let pattern = match session.and_then(|s| self.pattern(&s.pattern_id)) {
            Some(p) => p,
            None => match self.pattern(DEFAULT_PATTERN_ID) {
                Some(p) => p,
                None => {
                    fallback = Pattern::default_pattern();
                    &fallback
                }
            },
        };
        let policy = &pattern.approval_policy;
        match session.and_then(|s| s.approval_settings.as_ref()) {
            Some(over) => EffectivePolicy {
                rules: policy.rules.clone(),
                auto_approved_tool_names: over.auto_approved_tool_names.clone(),
                session_override: true,
            },
            None => EffectivePolicy {
                rules: policy.rules.clone(),
                auto_approved_tool_names: policy
                    .auto_approved_tool_names
                    .clone()
                    .unwrap_or_default(),
                session_override: false,
            },
        }
    }
}
