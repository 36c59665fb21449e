//! The decisions under test: the built-in chain as `warrant check` builds it in default mode,
//! or a stub that allows everything (to prove the oracle catches a false allow).

use async_trait::async_trait;
use serde_json::Value;
use warrant_core::call::{EvaluationContext, PermissionMode, ToolCall};
use warrant_core::catalog::ToolCatalog;
use warrant_core::chain::Chain;
use warrant_core::decision::{Behavior, PermissionDecisionSource, Risk};
use warrant_core::evaluator::{Evaluator, EvaluatorError, Rationale, Stance, Verdict};
use warrant_evaluators::EvaluatorsConfig;

use crate::layout::{HOME, WORKSPACE};

/// Which policy decides.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PolicyChoice {
    /// The built-in chain with its default configuration.
    Builtin,
    /// A stub that answers a policy allow for every call (tests of the oracle only).
    AllowAll,
}

/// A decision, reduced to what the oracle reports.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decision {
    /// allow, ask or deny.
    pub behavior: Behavior,
    /// Who decided (`policy`, `rule`, …).
    pub source: PermissionDecisionSource,
    /// The reason code.
    pub reason_code: String,
}

impl Decision {
    /// Whether the call runs without asking.
    pub fn allowed(&self) -> bool {
        self.behavior == Behavior::Allow
    }

    /// `allow (policy, shell_read_only)`.
    pub fn describe(&self) -> String {
        let behavior = match self.behavior {
            Behavior::Allow => "allow",
            Behavior::Ask => "ask",
            Behavior::Deny => "deny",
        };
        format!(
            "{behavior} ({}, {})",
            self.source.as_str(),
            self.reason_code
        )
    }
}

/// Decides calls the way `warrant check` does in default mode, with the sandbox's home and
/// workspace.
pub struct Decider {
    chain: Chain,
    cx: EvaluationContext,
    runtime: tokio::runtime::Runtime,
}

impl Decider {
    /// The decider for `choice`.
    ///
    /// # Errors
    ///
    /// When the chain cannot be configured or the runtime cannot start.
    pub fn new(choice: PolicyChoice) -> Result<Self, String> {
        Self::at(choice, std::path::Path::new(HOME))
    }

    /// The decider for `choice` judging against the home at `home` and the workspace at
    /// `home/project`: the host's copy of the sandbox's fixture, so that what the policy
    /// reads of the files (names, links, git's index) is what the command will find.
    ///
    /// # Errors
    ///
    /// When the chain cannot be configured or the runtime cannot start.
    pub fn at(choice: PolicyChoice, home: &std::path::Path) -> Result<Self, String> {
        let workspace = if home == std::path::Path::new(HOME) {
            std::path::PathBuf::from(WORKSPACE)
        } else {
            home.join("project")
        };
        let chain = match choice {
            PolicyChoice::Builtin => {
                let mut config = EvaluatorsConfig::default();
                config.policy.home_dir = Some(home.to_path_buf());
                warrant_evaluators::default_chain(&config, &ToolCatalog::builtin())
                    .map_err(|e| format!("cannot build the policy chain: {e}"))?
            }
            PolicyChoice::AllowAll => Chain::builder().evaluator(AllowAll).build(),
        };
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| format!("cannot start the runtime: {e}"))?;
        Ok(Self {
            chain,
            cx: EvaluationContext::new(PermissionMode::Default, workspace),
            runtime,
        })
    }

    /// Decides one call of `tool` with `input`.
    pub fn decide(&self, tool: &str, input: &Value) -> Decision {
        let call = ToolCall::new("oracle", "oracle-call", tool, input.clone());
        let outcome = self.runtime.block_on(self.chain.decide(&call, &self.cx));
        Decision {
            behavior: outcome.decision.behavior,
            source: outcome.decision.source,
            reason_code: outcome.decision.reason_code,
        }
    }
}

/// Allows every call as the policy would allow a read-only one.
struct AllowAll;

#[async_trait]
impl Evaluator for AllowAll {
    fn name(&self) -> &str {
        "allow_all"
    }

    fn source(&self) -> PermissionDecisionSource {
        PermissionDecisionSource::Policy
    }

    async fn evaluate(
        &self,
        _call: &ToolCall,
        _cx: &EvaluationContext,
    ) -> Result<Verdict, EvaluatorError> {
        Ok(Verdict::decide(
            Stance::PolicyAllow,
            Rationale::new(
                "oracle_allow_all",
                "The oracle's test stub allows everything.",
                Risk::Safe,
            ),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_stub_allows_what_the_policy_denies() {
        let stub = Decider::new(PolicyChoice::AllowAll).unwrap();
        let policy = Decider::new(PolicyChoice::Builtin).unwrap();
        let input = json!({"command": "rm -rf /"});
        assert!(stub.decide("Bash", &input).allowed());
        assert_eq!(policy.decide("Bash", &input).behavior, Behavior::Deny);
    }
}
