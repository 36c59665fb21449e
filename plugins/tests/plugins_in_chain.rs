//! A configuration naming an out-of-process evaluator and a dynamic-library evaluator runs
//! both in the chain, and the listing shows both.

mod common;

use common::{bash, decide, library, workspace_file};
use serde_json::json;
use warrant_core::chain::TraceOutcome;
use warrant_core::decision::Behavior;
use warrant_plugins::{BuildContext, Origin, PluginsConfig, assemble, list};

fn config() -> PluginsConfig {
    let script = workspace_file("examples/process-evaluator/branch_guard.py");
    let toml = format!(
        r#"
        evaluators = ["branch_guard", "office_hours"]

        [[process]]
        name = "branch_guard"
        command = "python3"
        args = [{script:?}]
        timeout_ms = 2000

        [[library]]
        name = "office_hours"
        path = {path:?}
        config = {{ start_hour = 4, end_hour = 4 }}
        "#,
        script = script.display().to_string(),
        path = library("warrant-hours-plugin").display().to_string(),
    );
    toml::from_str(&toml).expect("the configuration parses")
}

#[tokio::test]
async fn both_plugins_decide_in_one_chain() {
    let assembly = assemble(&config(), &BuildContext::new(json!({})))
        .await
        .unwrap();
    assert_eq!(
        assembly.chain.evaluator_names(),
        ["branch_guard", "office_hours"]
    );

    let push = decide(&assembly.chain, &bash("c1", "git push origin main")).await;
    assert_eq!(push.decision.behavior, Behavior::Deny);
    assert_eq!(push.trace.decided_by.as_deref(), Some("branch_guard"));

    let fetch = decide(&assembly.chain, &bash("c2", "curl https://example.org")).await;
    assert_eq!(fetch.decision.behavior, Behavior::Deny);
    assert_eq!(fetch.trace.decided_by.as_deref(), Some("office_hours"));
    let guard = fetch.trace.entry("branch_guard").unwrap();
    assert_eq!(guard.outcome, TraceOutcome::Abstained);
}

#[tokio::test]
async fn the_listing_shows_both_with_their_versions_and_origins() {
    let plugins = list(&config()).await.unwrap();
    let found = |name: &str| plugins.iter().find(|p| p.name == name).cloned().unwrap();
    let process = found("branch_guard");
    assert_eq!(
        (process.origin, process.version.as_deref()),
        (Origin::Process, Some("1.0.0"))
    );
    let library = found("office_hours");
    assert_eq!(library.origin, Origin::Library);
    assert_eq!(library.version.as_deref(), Some(env!("CARGO_PKG_VERSION")));
    assert_eq!(library.error, None);
}
