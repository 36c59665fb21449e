//! The approval request (`tool_approval_request`) and the actions it offers.

use crate::ids::{SessionId, ToolCallId};
use serde::{Deserialize, Serialize};

use crate::decision::{
    Behavior, Confidence, PermissionDecisionSource, ResolutionBehavior, Risk, Scope,
    ToolPermissionDecision,
};

/// Action id: allow this call once.
pub const ALLOW_ONCE: &str = "allow_once";
/// Action id: allow matching calls for this session.
pub const ALLOW_SESSION: &str = "allow_session";
/// Action id: allow matching calls in every session.
pub const ALLOW_GLOBAL: &str = "allow_global";
/// Action id: deny this call.
pub const DENY: &str = "deny";

/// One action an approval request offers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ApprovalAction {
    /// The action id the resolution must name.
    pub id: String,
    /// What the button says (`Allow all "git push" Bash calls for this session`).
    pub label: String,
    /// Allow or deny.
    pub behavior: ResolutionBehavior,
    /// How far it reaches.
    pub scope: Scope,
}

/// Where the recommendation of an approval request came from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Recommendation {
    /// The behaviour recommended (`ask` for a request).
    pub behavior: Behavior,
    /// The evaluator that made it.
    pub source: PermissionDecisionSource,
    /// Its reason code.
    pub reason_code: String,
    /// The classifier's confidence, when the classifier made it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub confidence: Option<Confidence>,
    /// Risk categories.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub risk_categories: Option<Vec<String>>,
    /// The reviewing model, when the classifier made it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reviewer_model: Option<String>,
}

impl From<&ToolPermissionDecision> for Recommendation {
    fn from(d: &ToolPermissionDecision) -> Self {
        Self {
            behavior: d.behavior,
            source: d.source,
            reason_code: d.reason_code.clone(),
            confidence: d.confidence,
            risk_categories: d.risk_categories.clone(),
            reviewer_model: d.reviewer_model.clone(),
        }
    }
}

/// A request for the user's approval. It owns the actions the user may take.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolApprovalRequest {
    /// The call awaiting approval.
    pub tool_call_id: ToolCallId,
    /// The session it belongs to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session_id: Option<SessionId>,
    /// The runtime tool id, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_name: Option<String>,
    /// `Approve <toolName>`.
    pub title: String,
    /// One line naming the agent, the tool and the session.
    pub detail: String,
    /// The engine's risk rating.
    pub risk: Risk,
    /// Why approval is needed.
    pub reason: String,
    /// The provenance of the recommendation.
    pub recommendation: Recommendation,
    /// The actions the user may take.
    pub actions: Vec<ApprovalAction>,
    /// When the request was made (Unix milliseconds).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub requested_at: Option<i64>,
    /// The call's input, redacted: what the approver is asked about, in full.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input: Option<serde_json::Value>,
}

/// The user's choice among the standard actions, typed (`allow_once`, `allow_session`,
/// `allow_global`, `deny` on the wire).
///
/// ```
/// use warrant_core::approval::ApprovalChoice;
///
/// assert_eq!(ApprovalChoice::AllowSession.action_id(), "allow_session");
/// assert_eq!("deny".parse::<ApprovalChoice>().unwrap(), ApprovalChoice::Deny);
/// assert!("allow_forever".parse::<ApprovalChoice>().unwrap_err().contains("allow_forever"));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ApprovalChoice {
    /// This call only.
    AllowOnce,
    /// Matching calls for the rest of the session (a grant).
    AllowSession,
    /// Matching calls in every session (a grant).
    AllowGlobal,
    /// The call does not run.
    Deny,
}

impl ApprovalChoice {
    /// The action id it stands for.
    pub fn action_id(self) -> &'static str {
        match self {
            Self::AllowOnce => ALLOW_ONCE,
            Self::AllowSession => ALLOW_SESSION,
            Self::AllowGlobal => ALLOW_GLOBAL,
            Self::Deny => DENY,
        }
    }
}

impl std::str::FromStr for ApprovalChoice {
    type Err = String;

    fn from_str(id: &str) -> Result<Self, String> {
        [
            Self::AllowOnce,
            Self::AllowSession,
            Self::AllowGlobal,
            Self::Deny,
        ]
        .into_iter()
        .find(|c| c.action_id() == id)
        .ok_or_else(|| {
            format!(
                "unknown action \"{id}\" (expected {ALLOW_ONCE}, {ALLOW_SESSION}, {ALLOW_GLOBAL} or {DENY})"
            )
        })
    }
}

impl ToolApprovalRequest {
    /// The offered action with this id.
    pub fn action(&self, id: &str) -> Option<&ApprovalAction> {
        self.actions.iter().find(|a| a.id == id)
    }
}

/// The standard actions, with labels that say how broad a grant will be.
pub fn standard_actions(grant_phrase: &str) -> Vec<ApprovalAction> {
    let action = |id: &str, label: String, behavior, scope| ApprovalAction {
        id: id.to_owned(),
        label,
        behavior,
        scope,
    };
    vec![
        action(
            ALLOW_ONCE,
            "Allow once".to_owned(),
            ResolutionBehavior::Allow,
            Scope::Once,
        ),
        action(
            ALLOW_SESSION,
            format!("Allow all {grant_phrase} for this session"),
            ResolutionBehavior::Allow,
            Scope::Session,
        ),
        action(
            ALLOW_GLOBAL,
            format!("Allow all {grant_phrase} in every session"),
            ResolutionBehavior::Allow,
            Scope::Global,
        ),
        action(
            DENY,
            "Deny".to_owned(),
            ResolutionBehavior::Deny,
            Scope::Once,
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn standard_actions_offer_once_session_global_and_deny() {
        let actions = standard_actions("\"git push\" commands");
        let summary: Vec<(&str, ResolutionBehavior, Scope)> = actions
            .iter()
            .map(|a| (a.id.as_str(), a.behavior, a.scope))
            .collect();
        assert_eq!(
            summary,
            [
                (ALLOW_ONCE, ResolutionBehavior::Allow, Scope::Once),
                (ALLOW_SESSION, ResolutionBehavior::Allow, Scope::Session),
                (ALLOW_GLOBAL, ResolutionBehavior::Allow, Scope::Global),
                (DENY, ResolutionBehavior::Deny, Scope::Once),
            ]
        );
        assert_eq!(
            actions[1].label,
            "Allow all \"git push\" commands for this session"
        );
    }
}
