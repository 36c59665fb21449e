//! The `full_access` evaluator: in `full_access` mode, open calls run without review.

use async_trait::async_trait;
use warrant_core::call::{EvaluationContext, PermissionMode, ToolCall};
use warrant_core::decision::{Behavior, PermissionDecisionSource, Risk};
use warrant_core::evaluator::{Evaluator, EvaluatorError, Rationale, Role, Verdict};

/// The name the Full Access evaluator goes by in traces and configuration.
pub const NAME: &str = "full_access";

/// The one reason code of Full Access.
pub const MODE_FULL_ACCESS: &str = "mode_full_access";

/// The one reason of Full Access: it says no review happened, because none did.
pub const FULL_ACCESS_REASON: &str = "Approval prompts are disabled by the active permission mode.";

/// Allows open calls in `full_access` mode, without review.
///
/// The chain consults it only for open calls, so hard denies and the user's own deny and ask
/// rules still hold. Its decisions carry no confidence and no reviewer model; the risk the
/// judges rated is kept (an unrated call counts as `medium`).
#[derive(Debug, Clone, Copy, Default)]
pub struct FullAccess;

#[async_trait]
impl Evaluator for FullAccess {
    fn name(&self) -> &str {
        NAME
    }

    fn source(&self) -> PermissionDecisionSource {
        PermissionDecisionSource::FullAccess
    }

    fn version(&self) -> Option<&str> {
        Some(crate::VERSION)
    }

    fn role(&self) -> Role {
        Role::Settle(PermissionMode::FullAccess)
    }

    async fn evaluate(
        &self,
        _call: &ToolCall,
        cx: &EvaluationContext,
    ) -> Result<Verdict, EvaluatorError> {
        if cx.mode != PermissionMode::FullAccess {
            return Ok(Verdict::Abstain);
        }
        let risk = cx.open_risk.unwrap_or(Risk::Medium);
        Ok(Verdict::Settle {
            behavior: Behavior::Allow,
            rationale: Rationale::new(MODE_FULL_ACCESS, FULL_ACCESS_REASON, risk),
        })
    }
}
