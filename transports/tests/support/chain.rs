//! A chain that decides like the real evaluators for the demo's calls.

use async_trait::async_trait;
use warrant_core::prelude::*;

/// Judges: `view` is read-only (allow), `rm -rf` is destructive (deny), anything else is an
/// open write. Settlers: a classifier that allows in auto mode, and Full Access.
pub fn demo() -> Chain {
    Chain::builder()
        .evaluator(Policy)
        .evaluator(Settler(PermissionMode::Auto))
        .evaluator(Settler(PermissionMode::FullAccess))
        .build()
}

struct Policy;

#[async_trait]
impl Evaluator for Policy {
    fn name(&self) -> &str {
        "policy"
    }
    fn source(&self) -> PermissionDecisionSource {
        PermissionDecisionSource::Policy
    }
    async fn evaluate(
        &self,
        call: &ToolCall,
        _: &EvaluationContext,
    ) -> Result<Verdict, EvaluatorError> {
        let command = call
            .input
            .get("command")
            .and_then(|c| c.as_str())
            .unwrap_or_default();
        Ok(if call.tool_name == "view" {
            Verdict::decide(
                Stance::PolicyAllow,
                Rationale::new(
                    "read_only_view",
                    "Reading a file changes nothing.",
                    Risk::Safe,
                ),
            )
        } else if command.starts_with("rm -rf") {
            Verdict::decide(
                Stance::HardDeny,
                Rationale::new(
                    "shell_destructive",
                    "The command deletes files recursively.",
                    Risk::Critical,
                ),
            )
        } else {
            Verdict::decide(
                Stance::DefaultAsk,
                Rationale::new(
                    "filesystem_write",
                    "The call changes the workspace or beyond.",
                    Risk::Medium,
                ),
            )
        })
    }
}

struct Settler(PermissionMode);

#[async_trait]
impl Evaluator for Settler {
    fn name(&self) -> &str {
        match self.0 {
            PermissionMode::Auto => "auto_classifier",
            _ => "full_access",
        }
    }
    fn source(&self) -> PermissionDecisionSource {
        match self.0 {
            PermissionMode::Auto => PermissionDecisionSource::AutoClassifier,
            _ => PermissionDecisionSource::FullAccess,
        }
    }
    fn role(&self) -> Role {
        Role::Settle(self.0)
    }
    async fn evaluate(
        &self,
        _: &ToolCall,
        cx: &EvaluationContext,
    ) -> Result<Verdict, EvaluatorError> {
        let risk = cx.open_risk.unwrap_or(Risk::Low);
        let rationale = if self.0 == PermissionMode::Auto {
            let mut r = Rationale::new(
                "auto_classifier_allow",
                "A local edit the user asked for.",
                risk,
            );
            r.confidence = Some(Confidence::High);
            r.reviewer_model = Some("test/reviewer".to_owned());
            r
        } else {
            Rationale::new(
                "mode_full_access",
                "Approval prompts are disabled by the active permission mode.",
                risk,
            )
        };
        Ok(Verdict::Settle {
            behavior: Behavior::Allow,
            rationale,
        })
    }
}
