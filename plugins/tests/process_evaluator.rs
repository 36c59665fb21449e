//! Out-of-process evaluators: the Python example decides; a crash, a timeout, garbage, a
//! stray reply or a wrong protocol version asks, and a crashed process is restarted.

mod common;

use std::sync::Arc;
use std::time::Duration;

use common::{assert_failed_to_ask, bash, call, decide, workspace_file};
use serde_json::json;
use warrant_core::chain::{Chain, TraceOutcome};
use warrant_core::decision::{Behavior, PermissionDecisionSource};
use warrant_core::evaluator::Evaluator;
use warrant_plugins::process::{ProcessConfig, ProcessEvaluator};

fn branch_guard() -> ProcessConfig {
    let script = workspace_file("examples/process-evaluator/branch_guard.py");
    let mut config = ProcessConfig::new("branch_guard", "python3", &[script.to_str().unwrap()]);
    config.config = json!({ "protected": ["main", "release"] });
    config
}

fn faulty(args: &[&str]) -> Arc<ProcessEvaluator> {
    let script = workspace_file("plugins/tests/fixtures/faulty_evaluator.py");
    let mut all = vec![script.to_str().unwrap()];
    all.extend_from_slice(args);
    let mut config = ProcessConfig::new("faulty", "python3", &all);
    config.timeout_ms = 300;
    Arc::new(ProcessEvaluator::new(config))
}

fn chain_of(evaluator: Arc<ProcessEvaluator>) -> Chain {
    Chain::builder()
        .evaluator_with_timeout(evaluator as Arc<dyn Evaluator>, Duration::from_secs(10))
        .build()
}

#[tokio::test]
async fn the_python_example_denies_a_push_to_a_protected_branch() {
    let chain = chain_of(Arc::new(ProcessEvaluator::new(branch_guard())));
    let outcome = decide(&chain, &bash("c1", "git add . && git push origin release")).await;
    assert_eq!(outcome.decision.behavior, Behavior::Deny);
    assert_eq!(outcome.decision.source, PermissionDecisionSource::Policy);
    assert_eq!(outcome.decision.reason_code, "policy_protected_branch_push");
    assert!(
        outcome.decision.reason.contains("release"),
        "{}",
        outcome.decision.reason
    );
}

#[tokio::test]
async fn the_python_example_asks_for_a_force_push_and_abstains_on_the_rest() {
    let evaluator = Arc::new(ProcessEvaluator::new(branch_guard()));
    let chain = chain_of(Arc::clone(&evaluator));
    let forced = decide(&chain, &bash("c1", "git push --force origin feature")).await;
    assert_eq!(forced.decision.behavior, Behavior::Ask);
    assert_eq!(forced.decision.reason_code, "policy_force_push");

    for (id, tool) in [
        ("c2", bash("c2", "git status")),
        ("c3", call("c3", "view", json!({"path": "a"}))),
    ] {
        let outcome = decide(&chain, &tool).await;
        let entry = outcome.trace.entry("branch_guard").unwrap();
        assert_eq!(entry.outcome, TraceOutcome::Abstained, "{id}");
    }
    assert_eq!(evaluator.starts(), 1, "one process answers every call");
}

#[tokio::test]
async fn the_hello_names_the_plugin_and_its_version() {
    let manifest = ProcessEvaluator::new(branch_guard())
        .handshake()
        .await
        .unwrap();
    assert_eq!(
        (manifest.name.as_str(), manifest.version.as_str()),
        ("branch_guard", "1.0.0")
    );
}

#[tokio::test]
async fn a_crash_asks_and_the_process_is_restarted_for_the_next_call() {
    let evaluator = faulty(&[]);
    let chain = chain_of(Arc::clone(&evaluator));
    let first = decide(&chain, &bash("c1", "ls")).await;
    let crashed = decide(&chain, &call("c2", "crash", json!({}))).await;
    let error = assert_failed_to_ask(&crashed, "faulty");
    assert!(error.contains("exited"), "{error}");

    let after = decide(&chain, &bash("c3", "ls")).await;
    assert_eq!(
        after.decision.behavior,
        Behavior::Deny,
        "the restarted process answers"
    );
    assert_ne!(
        first.decision.reason, after.decision.reason,
        "another pid answers"
    );
    assert_eq!(evaluator.starts(), 2);
}

#[tokio::test]
async fn a_timeout_asks_and_the_stuck_process_is_replaced() {
    let evaluator = faulty(&[]);
    let chain = chain_of(Arc::clone(&evaluator));
    let stuck = decide(&chain, &call("c1", "hang", json!({}))).await;
    let error = assert_failed_to_ask(&stuck, "faulty");
    assert!(error.contains("no reply within 300 ms"), "{error}");

    let after = decide(&chain, &bash("c2", "ls")).await;
    assert_eq!(after.decision.behavior, Behavior::Deny);
    assert_eq!(evaluator.starts(), 2);
}

#[tokio::test]
async fn garbage_asks() {
    let chain = chain_of(faulty(&[]));
    let outcome = decide(&chain, &call("c1", "garbage", json!({}))).await;
    let error = assert_failed_to_ask(&outcome, "faulty");
    assert!(
        error.contains("malformed reply") && error.contains("definitely not JSON"),
        "{error}"
    );
}

#[tokio::test]
async fn a_reply_to_another_request_asks() {
    let chain = chain_of(faulty(&[]));
    let outcome = decide(&chain, &call("c1", "stray", json!({}))).await;
    let error = assert_failed_to_ask(&outcome, "faulty");
    assert!(error.contains("replied to request"), "{error}");
}

#[tokio::test]
async fn a_plugin_of_another_protocol_version_asks() {
    let chain = chain_of(faulty(&["--protocol", "2"]));
    let outcome = decide(&chain, &bash("c1", "ls")).await;
    let error = assert_failed_to_ask(&outcome, "faulty");
    assert!(
        error.contains("speaks protocol version 2, this host speaks 1"),
        "{error}"
    );
}

#[tokio::test]
async fn a_command_that_does_not_exist_asks() {
    let evaluator =
        ProcessEvaluator::new(ProcessConfig::new("ghost", "/nonexistent/evaluator", &[]));
    let outcome = decide(&chain_of(Arc::new(evaluator)), &bash("c1", "ls")).await;
    let error = assert_failed_to_ask(&outcome, "ghost");
    assert!(
        error.contains("cannot start /nonexistent/evaluator"),
        "{error}"
    );
}

#[tokio::test]
async fn a_call_cancelled_mid_request_leaves_no_stale_reply_behind() {
    let evaluator = faulty(&[]);
    let chain = Chain::builder()
        .evaluator_with_timeout(
            Arc::clone(&evaluator) as Arc<dyn Evaluator>,
            Duration::from_millis(100),
        )
        .build();
    let cancelled = decide(&chain, &call("c1", "hang", json!({}))).await;
    assert_failed_to_ask(&cancelled, "faulty");
    let after = decide(&chain_of(Arc::clone(&evaluator)), &bash("c2", "ls")).await;
    assert_eq!(after.decision.behavior, Behavior::Deny);
    assert_eq!(evaluator.starts(), 2);
}
