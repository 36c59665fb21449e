//! The test kit: closures as evaluators, scripted mocks, settling verdicts, and timeouts on
//! a paused clock.

use std::time::Duration;

use async_trait::async_trait;
use serde_json::json;
use warrant_core::evaluator::{EvaluatorError, Role};
use warrant_core::prelude::*;
use warrant_core::testkit::{MockEvaluator, evaluator_fn};

fn call(id: &str) -> ToolCall {
    ToolCall::new("s1", id, "deploy", json!({"env": "prod"}))
}

fn cx(mode: PermissionMode) -> EvaluationContext {
    EvaluationContext::new(mode, "/tmp")
}

#[tokio::test]
async fn a_mock_answers_its_script_in_order_then_its_fallback_and_records_calls() {
    let mock = std::sync::Arc::new(
        MockEvaluator::new("scripted", PermissionDecisionSource::Policy)
            .then(Verdict::decide(
                Stance::HardDeny,
                Rationale::new("plugin_scripted_deny", "No.", Risk::High),
            ))
            .then_fail("the backend is down")
            .always(Verdict::decide(
                Stance::PolicyAllow,
                Rationale::new("plugin_scripted_allow", "Fine.", Risk::Safe),
            )),
    );
    let chain = Chain::builder().shared(mock.clone()).build();
    let mut behaviors = Vec::new();
    for id in ["a", "b", "c"] {
        let d = chain
            .decide(&call(id), &cx(PermissionMode::Default))
            .await
            .decision;
        behaviors.push((d.behavior, d.reason_code));
    }
    assert_eq!(
        behaviors,
        [
            (Behavior::Deny, "plugin_scripted_deny".to_owned()),
            (Behavior::Ask, "policy_evaluator_error".to_owned()),
            (Behavior::Allow, "plugin_scripted_allow".to_owned()),
        ]
    );
    assert_eq!(mock.seen(), ["a", "b", "c"]);
}

#[tokio::test]
async fn a_closure_settles_open_calls_in_auto_mode_only() {
    let settler = evaluator_fn(
        "reviewer",
        PermissionDecisionSource::AutoClassifier,
        |_, _| {
            Verdict::settle(
                Behavior::Allow,
                Rationale::new("auto_classifier_allow", "Looks fine.", Risk::Low),
            )
        },
    )
    .with_role(Role::Settle(PermissionMode::Auto));
    let chain = Chain::builder().evaluator(settler).build();
    let auto = chain
        .decide(&call("a"), &cx(PermissionMode::Auto))
        .await
        .decision;
    assert_eq!(auto.behavior, Behavior::Allow);
    assert_eq!(auto.source, PermissionDecisionSource::AutoClassifier);
    assert_eq!(auto.evaluator.map(|e| e.name), Some("reviewer".to_owned()));
    let default = chain
        .decide(&call("b"), &cx(PermissionMode::Default))
        .await
        .decision;
    assert_eq!(
        default.behavior,
        Behavior::Ask,
        "default mode asks the user"
    );
}

/// Sleeps an hour before answering.
struct Slow;

#[async_trait]
impl Evaluator for Slow {
    fn name(&self) -> &str {
        "slow"
    }
    fn source(&self) -> PermissionDecisionSource {
        PermissionDecisionSource::Policy
    }
    async fn evaluate(
        &self,
        _call: &ToolCall,
        _cx: &EvaluationContext,
    ) -> Result<Verdict, EvaluatorError> {
        tokio::time::sleep(Duration::from_secs(3600)).await;
        Ok(Verdict::decide(
            Stance::PolicyAllow,
            Rationale::new("plugin_slow_allow", "Too late.", Risk::Safe),
        ))
    }
}

#[tokio::test(start_paused = true)]
async fn a_timeout_is_tested_on_a_paused_clock_and_asks() {
    let chain = Chain::builder()
        .evaluator_with_timeout(Slow, Duration::from_secs(2))
        .build();
    let started = std::time::Instant::now();
    let outcome = chain.decide(&call("a"), &cx(PermissionMode::Default)).await;
    assert_eq!(outcome.decision.behavior, Behavior::Ask);
    assert_eq!(outcome.decision.reason_code, "policy_evaluator_timeout");
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "the paused clock skipped the wait"
    );
}
