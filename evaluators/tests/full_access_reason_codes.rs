//! The `full_access` evaluator's one reason code, and what its decisions never carry.

mod support;

use support::{bash, context, workspace};
use warrant_core::call::PermissionMode;
use warrant_core::decision::{Behavior, PermissionDecisionSource, Risk};
use warrant_core::evaluator::{Evaluator, Role, Verdict};
use warrant_evaluators::full_access::{FULL_ACCESS_REASON, FullAccess, MODE_FULL_ACCESS};

async fn settle(mode: PermissionMode, open_risk: Option<Risk>) -> Verdict {
    let ws = workspace();
    let mut cx = context(mode, ws.path());
    cx.open_risk = open_risk;
    FullAccess.evaluate(&bash("touch a"), &cx).await.unwrap()
}

#[tokio::test]
async fn every_full_access_reason_code_has_a_row() {
    let rows = [
        (Some(Risk::Medium), Risk::Medium, MODE_FULL_ACCESS),
        (None, Risk::Medium, MODE_FULL_ACCESS),
        (Some(Risk::High), Risk::High, MODE_FULL_ACCESS),
    ];
    for (open, risk, code) in rows {
        let Verdict::Settle {
            behavior,
            rationale,
        } = settle(PermissionMode::FullAccess, open).await
        else {
            panic!("expected a settling verdict");
        };
        assert_eq!(
            (behavior, rationale.reason_code.as_str(), rationale.risk),
            (Behavior::Allow, code, risk)
        );
        assert_eq!(
            rationale.reason,
            "Approval prompts are disabled by the active permission mode."
        );
        assert_eq!(rationale.reason, FULL_ACCESS_REASON);
        assert_eq!(
            (
                rationale.confidence,
                rationale.reviewer_model,
                rationale.risk_categories
            ),
            (None, None, None)
        );
    }
}

#[tokio::test]
async fn full_access_settles_only_in_its_mode() {
    assert_eq!(FullAccess.role(), Role::Settle(PermissionMode::FullAccess));
    assert_eq!(FullAccess.source(), PermissionDecisionSource::FullAccess);
    assert_eq!(settle(PermissionMode::Auto, None).await, Verdict::Abstain);
}

#[test]
fn the_reason_claims_no_review() {
    let lower = FULL_ACCESS_REASON.to_lowercase();
    for word in ["review", "safe", "checked", "approved"] {
        assert!(!lower.contains(word), "{word}");
    }
}
