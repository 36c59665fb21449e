//! Dynamic-library evaluators: the example plugin decides; a wrong ABI is refused; a panic,
//! garbage or an unknown status asks, and the host keeps running.

mod common;

use std::time::Duration;

use common::{assert_failed_to_ask, bash, call, decide, library};
use serde_json::json;
use warrant_core::chain::{Chain, TraceOutcome};
use warrant_core::decision::{Behavior, PermissionDecisionSource};
use warrant_plugins::PluginError;
use warrant_plugins::library::{LibraryConfig, LibraryEvaluator};

fn hours(config: serde_json::Value) -> LibraryConfig {
    LibraryConfig {
        config,
        ..LibraryConfig::new("office_hours", library("warrant-hours-plugin"))
    }
}

fn chain_of(evaluator: LibraryEvaluator) -> Chain {
    Chain::builder()
        .evaluator_with_timeout(evaluator, Duration::from_secs(5))
        .build()
}

#[tokio::test]
async fn the_hours_plugin_denies_network_tools_outside_working_hours() {
    // Equal hours make a window that is never open, whatever the clock says.
    let evaluator = LibraryEvaluator::load(hours(json!({"start_hour": 3, "end_hour": 3}))).unwrap();
    assert_eq!(evaluator.manifest().unwrap().name, "office_hours");
    let chain = chain_of(evaluator);

    let outcome = decide(&chain, &bash("c1", "curl -s https://example.org")).await;
    assert_eq!(outcome.decision.behavior, Behavior::Deny);
    assert_eq!(outcome.decision.source, PermissionDecisionSource::Policy);
    assert_eq!(
        outcome.decision.reason_code,
        "policy_network_outside_working_hours"
    );
    assert!(
        outcome.decision.reason.contains("`curl`"),
        "{}",
        outcome.decision.reason
    );

    let fetch = decide(
        &chain,
        &call("c2", "web_fetch", json!({"url": "https://x"})),
    )
    .await;
    assert_eq!(fetch.decision.behavior, Behavior::Deny);

    let local = decide(&chain, &bash("c3", "ls -la")).await;
    assert_eq!(
        local.trace.entry("office_hours").unwrap().outcome,
        TraceOutcome::Abstained
    );
}

#[tokio::test]
async fn the_hours_plugin_abstains_within_working_hours() {
    let evaluator =
        LibraryEvaluator::load(hours(json!({"start_hour": 0, "end_hour": 24}))).unwrap();
    let outcome = decide(
        &chain_of(evaluator),
        &bash("c1", "wget https://example.org"),
    )
    .await;
    assert_eq!(
        outcome.trace.entry("office_hours").unwrap().outcome,
        TraceOutcome::Abstained
    );
}

#[test]
fn a_plugin_that_rejects_its_configuration_is_refused_with_its_message() {
    let err = LibraryEvaluator::load(hours(json!({"start_hour": 30}))).unwrap_err();
    assert!(err.to_string().contains("start_hour 30"), "{err}");
}

#[tokio::test]
async fn a_library_of_another_abi_version_is_refused_and_its_calls_ask() {
    let config = LibraryConfig::new("stale", library("warrant-stale-plugin"));
    let err = LibraryEvaluator::load(config.clone()).unwrap_err();
    assert!(matches!(err, PluginError::Library { .. }), "{err:?}");
    let message = err.to_string();
    assert!(
        message.contains("built for plugin ABI version 9999"),
        "{message}"
    );
    assert!(message.contains("this host speaks version 1"), "{message}");

    let refused = LibraryEvaluator::load_or_refuse(config).unwrap();
    assert!(refused.refusal().is_some());
    let outcome = decide(&chain_of(refused), &bash("c1", "ls")).await;
    let error = assert_failed_to_ask(&outcome, "stale");
    assert!(error.contains("ABI version 9999"), "{error}");
}

#[test]
fn a_relative_library_path_is_rejected() {
    let err = LibraryEvaluator::load(LibraryConfig::new("x", "target/debug/libx.so")).unwrap_err();
    assert!(err.to_string().contains("is relative"), "{err}");
}

async fn faulty(fault: &str) -> String {
    let config = LibraryConfig {
        config: json!({ "fault": fault }),
        ..LibraryConfig::new("faulty", library("warrant-faulty-plugin"))
    };
    let chain = chain_of(LibraryEvaluator::load(config).unwrap());
    let outcome = decide(&chain, &bash("c1", "ls")).await;
    let error = assert_failed_to_ask(&outcome, "faulty");
    // The host is still here, and the plugin still answers.
    let again = decide(&chain, &bash("c2", "ls")).await;
    assert_eq!(again.decision.behavior, Behavior::Ask);
    error
}

#[tokio::test]
async fn a_panic_inside_the_plugin_is_caught_there_and_asks() {
    let error = faulty("panic").await;
    assert!(
        error.contains("panic: the faulty plugin lost its footing"),
        "{error}"
    );
}

#[tokio::test]
async fn garbage_from_a_plugin_asks() {
    let error = faulty("garbage").await;
    assert!(error.contains("malformed reply"), "{error}");
}

#[tokio::test]
async fn an_unknown_status_from_a_plugin_asks() {
    let error = faulty("status").await;
    assert!(error.contains("unknown status 77"), "{error}");
}

#[tokio::test]
async fn an_error_reported_by_a_plugin_asks() {
    let error = faulty("error").await;
    assert!(error.contains("backend is down"), "{error}");
}
