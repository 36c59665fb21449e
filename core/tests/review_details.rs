//! Only the security reviewer speaks of its review: review details another evaluator puts on
//! its rationale never reach the decision.

use warrant_core::decision::{ReviewDetails, ReviewerFallback};
use warrant_core::prelude::*;
use warrant_core::testkit::evaluator_fn;

fn review() -> ReviewDetails {
    ReviewDetails {
        reviewer_embedded: Some(true),
        reviewer_prompt_version: Some("v9".into()),
        reviewer_latency_ms: Some(5),
        reviewer_fallback: Some(ReviewerFallback::Embedded),
        reviewer_fallback_reason: Some("down".into()),
    }
}

#[tokio::test]
async fn a_policy_decision_carries_no_review_and_a_reviewers_does() {
    let claims = evaluator_fn("claims", PermissionDecisionSource::Policy, |_, _| {
        let mut r = Rationale::new("plugin_claims_deny", "No.", Risk::High);
        r.review = review();
        Verdict::decide(Stance::HardDeny, r)
    });
    let chain = Chain::builder().evaluator(claims).build();
    let cx = EvaluationContext::new(PermissionMode::Default, "/srv/project");
    let call = ToolCall::new("s1", "c1", "deploy", serde_json::json!({}));
    let decision = chain.decide(&call, &cx).await.decision;
    assert_eq!(decision.behavior, Behavior::Deny);
    assert!(decision.review.is_empty(), "{decision:?}");

    let reviewer = evaluator_fn(
        "reviewer",
        PermissionDecisionSource::AutoClassifier,
        |_, _| {
            let mut r = Rationale::new("auto_classifier_ask", "Worth a look.", Risk::Medium);
            r.review = review();
            Verdict::settle(Behavior::Ask, r)
        },
    )
    .with_role(Role::Settle(PermissionMode::Auto));
    let chain = Chain::builder().evaluator(reviewer).build();
    let cx = EvaluationContext::new(PermissionMode::Auto, "/srv/project");
    let decision = chain.decide(&call, &cx).await.decision;
    assert_eq!(decision.review, review());
}
