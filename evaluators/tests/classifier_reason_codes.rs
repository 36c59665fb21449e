//! Every reason code of the `auto_classifier` evaluator, one table row each, with stub
//! reviewers; and the metadata every classifier decision carries.

mod support;

use std::collections::BTreeSet;
use std::sync::Arc;

use async_trait::async_trait;
use support::{assert_every_code, bash, context, workspace};
use warrant_core::call::PermissionMode;
use warrant_core::decision::{Behavior, Confidence, Risk};
use warrant_core::evaluator::{Evaluator, Role, Verdict};
use warrant_evaluators::classifier::{
    AutoClassifier, Classification, Classifier, ClassifierError, Review, codes,
};

/// A reviewer that always gives the same answer.
struct Stub(Result<Classification, ClassifierError>);

#[async_trait]
impl Classifier for Stub {
    fn model_id(&self) -> &str {
        "test/stub"
    }
    async fn classify(&self, _review: &Review<'_>) -> Result<Classification, ClassifierError> {
        self.0.clone()
    }
}

fn says(behavior: Behavior, risk: Risk) -> Result<Classification, ClassifierError> {
    Ok(Classification {
        behavior,
        risk,
        confidence: Confidence::High,
        risk_categories: vec!["workspace_write".to_owned()],
        reason: "Looks routine.".to_owned(),
    })
}

async fn settle(
    answer: Result<Classification, ClassifierError>,
    open_risk: Option<Risk>,
) -> Verdict {
    let ws = workspace();
    let mut cx = context(PermissionMode::Auto, ws.path());
    cx.open_risk = open_risk;
    let e = AutoClassifier::new(Arc::new(Stub(answer)));
    e.evaluate(&bash("touch a"), &cx).await.unwrap()
}

#[tokio::test]
async fn every_classifier_reason_code_has_a_row() {
    let rows = [
        (
            says(Behavior::Allow, Risk::Low),
            Behavior::Allow,
            codes::AUTO_CLASSIFIER_ALLOW,
        ),
        (
            says(Behavior::Ask, Risk::Medium),
            Behavior::Ask,
            codes::AUTO_CLASSIFIER_ASK,
        ),
        (
            says(Behavior::Deny, Risk::Critical),
            Behavior::Deny,
            codes::AUTO_CLASSIFIER_DENY,
        ),
        (
            Err(ClassifierError::Unavailable("HTTP 503".to_owned())),
            Behavior::Ask,
            codes::AUTO_CLASSIFIER_UNAVAILABLE,
        ),
        (
            Err(ClassifierError::InvalidOutput("not JSON".to_owned())),
            Behavior::Ask,
            codes::AUTO_CLASSIFIER_INVALID_OUTPUT,
        ),
    ];
    let mut seen = BTreeSet::new();
    for (answer, behavior, code) in rows {
        match settle(answer, None).await {
            Verdict::Settle {
                behavior: b,
                rationale,
            } => {
                assert_eq!((b, rationale.reason_code.as_str()), (behavior, code));
                assert_eq!(rationale.reviewer_model.as_deref(), Some("test/stub"));
            }
            other => panic!("expected a settling verdict, got {other:?}"),
        }
        seen.insert(code);
    }
    assert_every_code(&seen, codes::ALL);
}

#[tokio::test]
async fn a_verdict_carries_the_models_confidence_and_categories() {
    let Verdict::Settle { rationale, .. } = settle(says(Behavior::Allow, Risk::Low), None).await
    else {
        panic!("expected a settling verdict");
    };
    assert_eq!(rationale.confidence, Some(Confidence::High));
    assert_eq!(
        rationale.risk_categories,
        Some(vec!["workspace_write".to_owned()])
    );
    assert_eq!(rationale.reason, "Looks routine.");
}

#[tokio::test]
async fn a_failed_review_carries_no_confidence_and_asks() {
    let Verdict::Settle {
        behavior,
        rationale,
    } = settle(
        Err(ClassifierError::Unavailable(
            "no answer within 10000 ms".to_owned(),
        )),
        Some(Risk::High),
    )
    .await
    else {
        panic!("expected a settling verdict");
    };
    assert_eq!(
        (behavior, rationale.confidence, rationale.risk),
        (Behavior::Ask, None, Risk::High)
    );
    assert!(
        rationale.reason.contains("no answer within 10000 ms"),
        "{}",
        rationale.reason
    );
}

#[tokio::test]
async fn the_risk_never_drops_below_what_the_judges_rated() {
    let Verdict::Settle { rationale, .. } =
        settle(says(Behavior::Allow, Risk::Safe), Some(Risk::Medium)).await
    else {
        panic!("expected a settling verdict");
    };
    assert_eq!(rationale.risk, Risk::Medium);
}

#[tokio::test]
async fn an_allow_the_reviewer_itself_rates_high_asks_instead() {
    let Verdict::Settle {
        behavior,
        rationale,
    } = settle(says(Behavior::Allow, Risk::High), None).await
    else {
        panic!("expected a settling verdict");
    };
    assert_eq!(
        (behavior, rationale.reason_code.as_str()),
        (Behavior::Ask, codes::AUTO_CLASSIFIER_ASK)
    );
}

#[tokio::test]
async fn the_classifier_settles_only_in_auto_mode() {
    let e = AutoClassifier::new(Arc::new(Stub(says(Behavior::Allow, Risk::Low))));
    assert_eq!(e.role(), Role::Settle(PermissionMode::Auto));
    let ws = workspace();
    let cx = context(PermissionMode::Default, ws.path());
    assert_eq!(
        e.evaluate(&bash("touch a"), &cx).await.unwrap(),
        Verdict::Abstain
    );
}

#[tokio::test]
async fn an_allow_on_a_call_the_judges_rated_high_asks_instead() {
    let Verdict::Settle {
        behavior,
        rationale,
    } = settle(says(Behavior::Allow, Risk::Low), Some(Risk::High)).await
    else {
        panic!("expected a settling verdict");
    };
    assert_eq!(
        (behavior, rationale.reason_code.as_str()),
        (Behavior::Ask, codes::AUTO_CLASSIFIER_ASK)
    );
}
