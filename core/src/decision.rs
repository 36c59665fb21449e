//! The decision contract: what was decided about a tool call, by whom, and what the user did.

use crate::ids::ToolCallId;
use serde::{Deserialize, Serialize};

/// What happens to a tool call.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Behavior {
    /// The call runs.
    Allow,
    /// The user is asked first.
    Ask,
    /// The call does not run.
    Deny,
}

impl Behavior {
    /// How restrictive this behaviour is: `deny` > `ask` > `allow`.
    pub fn restrictiveness(self) -> u8 {
        match self {
            Behavior::Allow => 0,
            Behavior::Ask => 1,
            Behavior::Deny => 2,
        }
    }

    /// The wire name (`allow`, `ask`, `deny`).
    pub fn as_str(self) -> &'static str {
        match self {
            Behavior::Allow => "allow",
            Behavior::Ask => "ask",
            Behavior::Deny => "deny",
        }
    }
}

/// Which evaluator produced a decision. Set by the engine, never inferred from a reason code.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PermissionDecisionSource {
    /// Deterministic policy: shell, filesystem, read-only and validation decisions.
    Policy,
    /// The user's rules, grants and auto-approved tools.
    Rule,
    /// The LLM security classifier (`auto` mode only).
    AutoClassifier,
    /// Full Access mode: allowed without review.
    FullAccess,
}

impl PermissionDecisionSource {
    /// The wire name (`policy`, `rule`, `auto_classifier`, `full_access`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Policy => "policy",
            Self::Rule => "rule",
            Self::AutoClassifier => "auto_classifier",
            Self::FullAccess => "full_access",
        }
    }

    /// The source a reason code belongs to, by the family table of the contract.
    ///
    /// For migration and tests only: the engine sets `source` directly.
    pub fn for_reason_code(reason_code: &str) -> Option<Self> {
        if reason_code.starts_with("auto_classifier_") {
            Some(Self::AutoClassifier)
        } else if reason_code.starts_with("normalized_rule_")
            || reason_code.starts_with("explicit_tool_")
        {
            Some(Self::Rule)
        } else if reason_code == "mode_full_access" {
            Some(Self::FullAccess)
        } else if [
            "shell_",
            "filesystem_",
            "read_only_",
            "validation_",
            "policy_",
        ]
        .iter()
        .any(|p| reason_code.starts_with(p))
        {
            Some(Self::Policy)
        } else {
            None
        }
    }
}

/// The engine's rating of how much harm a call could do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Risk {
    /// No harm possible.
    Safe,
    /// Little harm possible.
    Low,
    /// Some harm possible.
    Medium,
    /// Serious harm possible.
    High,
    /// Irreversible or system-wide harm possible.
    Critical,
}

impl Risk {
    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            Risk::Safe => "safe",
            Risk::Low => "low",
            Risk::Medium => "medium",
            Risk::High => "high",
            Risk::Critical => "critical",
        }
    }
}

/// The classifier's self-reported confidence. Never a risk score.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Confidence {
    /// Low confidence.
    Low,
    /// Medium confidence.
    Medium,
    /// High confidence.
    High,
}

/// How far a user's approval reaches.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Scope {
    /// This call only.
    Once,
    /// Matching calls for the rest of this session.
    Session,
    /// Matching calls in every session.
    Global,
}

/// How a decision was reached, with its provenance (`tool_permission_decision`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolPermissionDecision {
    /// The tool call this decision is about.
    pub tool_call_id: ToolCallId,
    /// What happens to the call.
    pub behavior: Behavior,
    /// Which evaluator decided.
    pub source: PermissionDecisionSource,
    /// Why, in words (bounded, sanitized, untrusted when it comes from a model).
    pub reason: String,
    /// Why, as a stable machine-readable code.
    pub reason_code: String,
    /// The engine's risk rating.
    pub risk: Risk,
    /// The classifier's own confidence; only on classifier decisions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub confidence: Option<Confidence>,
    /// Risk categories named by the evaluator.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub risk_categories: Option<Vec<String>>,
    /// The classifier model that reviewed the call; only on classifier decisions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reviewer_model: Option<String>,
    /// Which kind of user decision it was, when the `rule` source decided: the user's own
    /// rule, a grant from an earlier approval, auto-approval, or checkpoints that are off.
    /// Optional: clients that do not know it keep reading `source`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub provenance: Option<Provenance>,
    /// The evaluator that decided (its name and version), alongside the four-valued
    /// `source`; absent when no evaluator decided (an open call left to the user).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub evaluator: Option<DecidingEvaluator>,
    /// How the security reviewer reviewed the call (classifier decisions only): flattened
    /// beside `reviewerModel` as `reviewerEmbedded`, `reviewerPromptVersion`,
    /// `reviewerLatencyMs`, `reviewerFallback`, `reviewerFallbackReason`.
    #[serde(flatten, default)]
    pub review: ReviewDetails,
}

/// How a classifier decision was reviewed: by the embedded heuristic reviewer or a model, with
/// which prompt, how long it took, and what stood in when the configured reviewer was down or
/// slow. Every field is optional on the wire; all are absent on other decisions.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ReviewDetails {
    /// Whether the embedded heuristic reviewer decided.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reviewer_embedded: Option<bool>,
    /// The version of the review prompt a model was sent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reviewer_prompt_version: Option<String>,
    /// How long the review took, in milliseconds (the fallback included).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reviewer_latency_ms: Option<u64>,
    /// What stood in for the configured reviewer when it was down or slow.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reviewer_fallback: Option<ReviewerFallback>,
    /// Why the configured reviewer gave no verdict (bounded, redacted).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reviewer_fallback_reason: Option<String>,
}

impl ReviewDetails {
    /// Whether nothing is said (a decision no reviewer made).
    pub fn is_empty(&self) -> bool {
        *self == Self::default()
    }
}

/// What decides a call when the configured security reviewer is down, slow or answers outside
/// the schema (`fallback` of `[reviewer]`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ReviewerFallback {
    /// The call asks the user (the default: a reviewer failure never allows).
    #[default]
    Ask,
    /// The embedded heuristic reviewer decides instead.
    Embedded,
}

impl ReviewerFallback {
    /// The wire name (`ask`, `embedded`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Ask => "ask",
            Self::Embedded => "embedded",
        }
    }
}

/// Which kind of user decision a `rule`-sourced decision was (`provenance` on the wire).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[non_exhaustive]
pub enum Provenance {
    /// One of the user's rules matched.
    UserRule {
        /// The rule as written (`Bash(git push:*)`).
        rule: String,
        /// Its layer: `managed`, `project`, `user` or `session`.
        layer: String,
        /// Where it was written: `FILE:LINE` for a rule file, else the configuration layer.
        origin: String,
    },
    /// A grant from an earlier `session` or `global` approval covers the call.
    #[serde(rename_all = "camelCase")]
    Grant {
        /// The grant's id (`GET /v1/grants`, `DELETE /v1/grants/{id}`).
        grant_id: String,
        /// `session` or `global`.
        scope: Scope,
        /// When it was granted (Unix milliseconds).
        granted_at: i64,
        /// The call whose approval made it.
        tool_call_id: ToolCallId,
        /// The action the user chose on that call.
        action_id: String,
        /// What it covers, as the approval described it.
        description: String,
    },
    /// The tool is auto-approved by the session's settings or the pattern's defaults.
    AutoApproved {
        /// Where the auto-approval comes from.
        from: AutoApprovalOrigin,
    },
    /// The pattern's `tool-call` checkpoints are off for the agent: nothing was reviewed.
    CheckpointsOff {
        /// The agent whose checkpoints are off.
        agent: String,
    },
}

/// Where an auto-approval comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum AutoApprovalOrigin {
    /// The session's own override of the pattern's settings.
    Session,
    /// The pattern's defaults.
    Pattern,
}

/// The evaluator that decided, as streamed (`evaluator` on the wire).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DecidingEvaluator {
    /// Its stable name (`policy`, `rule`, a plugin's own name).
    pub name: String,
    /// Its version, when it reports one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
}

/// What the user decided about a call that asked (`behavior` of a resolution).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ResolutionBehavior {
    /// The user allowed the call.
    Allow,
    /// The user denied the call.
    Deny,
}

impl From<ResolutionBehavior> for Behavior {
    fn from(value: ResolutionBehavior) -> Self {
        match value {
            ResolutionBehavior::Allow => Behavior::Allow,
            ResolutionBehavior::Deny => Behavior::Deny,
        }
    }
}

/// The source of every resolution: the user.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum ResolutionSource {
    /// The user acted on an approval request.
    #[default]
    User,
}

/// What the user did with an approval request (`tool_permission_resolution`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolPermissionResolution {
    /// The tool call that was resolved.
    pub tool_call_id: ToolCallId,
    /// Allowed or denied.
    pub behavior: ResolutionBehavior,
    /// Always `user`.
    pub source: ResolutionSource,
    /// The action the user took, one of those the request offered.
    pub action_id: String,
    /// How far the resolution reaches.
    pub scope: Scope,
    /// What the user told the agent with a denial (redacted, at most
    /// [`MAX_DENIAL_MESSAGE_CHARS`] characters).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

/// The longest message a denial may carry to the agent, in characters.
pub const MAX_DENIAL_MESSAGE_CHARS: usize = 2000;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deny_is_more_restrictive_than_ask_than_allow() {
        assert!(Behavior::Deny.restrictiveness() > Behavior::Ask.restrictiveness());
        assert!(Behavior::Ask.restrictiveness() > Behavior::Allow.restrictiveness());
    }

    #[test]
    fn risks_order_from_safe_to_critical() {
        assert!(Risk::Safe < Risk::Low && Risk::Low < Risk::Medium);
        assert!(Risk::Medium < Risk::High && Risk::High < Risk::Critical);
    }
}
