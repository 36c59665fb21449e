//! Approval policies: a pattern's checkpoints and defaults, and the effective policy of a
//! session (an override replaces the pattern's list, never merges with it).

use serde::{Deserialize, Serialize};

use super::{DEFAULT_PATTERN_ID, Pattern, WorkspaceState};

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

impl EffectivePolicy {
    /// The effective policy as the pattern-shaped [`ApprovalPolicy`] a runtime receives: the
    /// rules, and the effective list as the pattern's defaults.
    pub fn approval_policy(&self) -> ApprovalPolicy {
        ApprovalPolicy {
            rules: self.rules.clone(),
            auto_approved_tool_names: Some(self.auto_approved_tool_names.clone()),
        }
    }
}

impl WorkspaceState {
    /// The effective policy of a session: its pattern's rules, plus its override when present
    /// (even `[]`), else the pattern's defaults. An unknown session, or a session whose
    /// pattern is missing, gets the default pattern, so an unknown call still asks.
    pub fn effective_policy(&self, session_id: &(impl AsRef<str> + ?Sized)) -> EffectivePolicy {
        let session = self.session(session_id);
        let fallback;
        let pattern = match session
            .and_then(|s| self.pattern(&s.pattern_id))
            .or_else(|| self.pattern(DEFAULT_PATTERN_ID))
        {
            Some(p) => p,
            None => {
                fallback = Pattern::default_pattern();
                &fallback
            }
        };
        let policy = &pattern.approval_policy;
        let (auto_approved_tool_names, session_override) =
            match session.and_then(|s| s.approval_settings.as_ref()) {
                Some(over) => (over.auto_approved_tool_names.clone(), true),
                None => (
                    policy.auto_approved_tool_names.clone().unwrap_or_default(),
                    false,
                ),
            };
        EffectivePolicy {
            rules: policy.rules.clone(),
            auto_approved_tool_names,
            session_override,
        }
    }
}
