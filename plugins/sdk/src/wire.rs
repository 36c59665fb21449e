//! The JSON messages a plugin reads and writes, shared by the process protocol and the C ABI.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};
pub use warrant_core::call::{PermissionMode, ToolCall};
pub use warrant_core::decision::{Behavior, Confidence, PermissionDecisionSource, Risk};
pub use warrant_core::workspace::EffectivePolicy;

use warrant_core::call::EvaluationContext;
use warrant_core::evaluator::{Rationale, Stance, Verdict};

/// What a plugin says about itself: its stable name, version and role in the chain.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Manifest {
    /// The stable name configuration selects it by (`office_hours`).
    pub name: String,
    /// The plugin's own version.
    pub version: String,
    /// One line on what it does.
    #[serde(default)]
    pub description: String,
    /// The provenance stamped on its decisions (`policy` unless it says otherwise).
    #[serde(default = "default_source")]
    pub source: PermissionDecisionSource,
    /// Present when it settles open calls of one mode instead of judging every call.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub settles: Option<PermissionMode>,
}

fn default_source() -> PermissionDecisionSource {
    PermissionDecisionSource::Policy
}

impl Manifest {
    /// A judging evaluator with `policy` provenance.
    pub fn new(name: impl Into<String>, version: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            version: version.into(),
            description: String::new(),
            source: default_source(),
            settles: None,
        }
    }

    /// Sets the one-line description.
    pub fn description(mut self, description: impl Into<String>) -> Self {
        self.description = description.into();
        self
    }
}

/// What an evaluator sees of the call's context.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RequestContext {
    /// The active permission mode.
    pub mode: PermissionMode,
    /// The workspace root; relative paths resolve against it.
    pub workspace_root: PathBuf,
    /// The session's effective approval policy.
    pub policy: EffectivePolicy,
    /// For settlers: the highest risk the judges rated.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub open_risk: Option<Risk>,
}

/// One call to evaluate, with its context.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EvaluationRequest {
    /// The call.
    pub call: ToolCall,
    /// Its context.
    pub context: RequestContext,
}

impl EvaluationRequest {
    /// The request for `call` in `cx`.
    pub fn new(call: &ToolCall, cx: &EvaluationContext) -> Self {
        Self {
            call: call.clone(),
            context: RequestContext {
                mode: cx.mode,
                workspace_root: cx.workspace_root.clone(),
                policy: (*cx.policy).clone(),
                open_risk: cx.open_risk,
            },
        }
    }
}

/// How strongly a judging plugin's decision binds: core's [`Stance`], which serializes as
/// `hard_deny`, `require_ask`, `user_allow`, `policy_allow` or `default_ask`.
pub type WireStance = Stance;

/// Why, as the decision contract spells it: core's [`Rationale`] (camelCase, optional fields
/// left out).
pub type WireRationale = Rationale;

/// A plugin's answer to one [`EvaluationRequest`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Reply {
    /// Nothing to say about this call.
    Abstain,
    /// A judge's stance.
    Decision {
        /// How strongly it binds.
        stance: WireStance,
        /// Why.
        #[serde(flatten)]
        rationale: WireRationale,
    },
    /// A settler's answer for an open call.
    Settle {
        /// What happens to the call.
        behavior: Behavior,
        /// Why.
        #[serde(flatten)]
        rationale: WireRationale,
    },
    /// The plugin could not judge; the call asks.
    Error {
        /// What went wrong.
        message: String,
    },
}

impl Reply {
    /// A judge's decision.
    pub fn decide(stance: WireStance, rationale: WireRationale) -> Self {
        Reply::Decision { stance, rationale }
    }

    /// The verdict this reply stands for, or the plugin's own error message.
    ///
    /// # Errors
    ///
    /// The message of a [`Reply::Error`].
    pub fn into_verdict(self) -> Result<Verdict, String> {
        match self {
            Reply::Abstain => Ok(Verdict::Abstain),
            Reply::Decision { stance, rationale } => Ok(Verdict::decide(stance, rationale)),
            Reply::Settle {
                behavior,
                rationale,
            } => Ok(Verdict::Settle {
                behavior,
                rationale,
            }),
            Reply::Error { message } => Err(message),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_decision_reads_as_the_contract_spells_it() {
        let line = r#"{"type":"decision","stance":"hard_deny","reason":"No.","reasonCode":"policy_x","risk":"high"}"#;
        let reply: Reply = serde_json::from_str(line).unwrap();
        let verdict = reply.into_verdict().unwrap();
        let Verdict::Decide { stance, rationale } = verdict else {
            panic!("expected a decision, got {verdict:?}")
        };
        assert_eq!(stance, Stance::HardDeny);
        assert_eq!(rationale.reason_code, "policy_x");
    }

    #[test]
    fn a_manifest_defaults_to_a_judge_with_policy_provenance() {
        let manifest: Manifest = serde_json::from_str(r#"{"name":"x","version":"1"}"#).unwrap();
        assert_eq!(manifest.source, PermissionDecisionSource::Policy);
        assert_eq!(manifest.settles, None);
    }
}
