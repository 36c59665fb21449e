//! The registry: built-ins register by name with `inventory`, configuration selects and
//! orders them, and an unknown name lists the known ones and the nearest.

mod common;

use std::sync::Arc;

use async_trait::async_trait;
use common::{bash, decide};
use serde_json::{Value, json};
use warrant_core::prelude::*;
use warrant_plugins::{
    BuildContext, BuiltinPlugin, PluginError, PluginKind, PluginsConfig, assemble, builtins,
};

/// Denies the tool named in its table (`{"tool": "…"}`), abstains otherwise.
struct DenyTool {
    name: &'static str,
    tool: String,
}

#[async_trait]
impl Evaluator for DenyTool {
    fn name(&self) -> &str {
        self.name
    }
    fn source(&self) -> PermissionDecisionSource {
        PermissionDecisionSource::Rule
    }
    async fn evaluate(
        &self,
        call: &ToolCall,
        _: &EvaluationContext,
    ) -> Result<Verdict, EvaluatorError> {
        Ok(if call.tool_name == self.tool {
            Verdict::decide(
                Stance::HardDeny,
                Rationale::new("normalized_rule_deny", "Denied.", Risk::High),
            )
        } else {
            Verdict::Abstain
        })
    }
}

fn deny_tool(name: &'static str, cx: &BuildContext) -> Result<Arc<dyn Evaluator>, String> {
    let tool = cx
        .table(name)
        .get("tool")
        .and_then(Value::as_str)
        .ok_or("key \"tool\" is missing")?;
    Ok(Arc::new(DenyTool {
        name,
        tool: tool.to_owned(),
    }))
}

warrant_plugins::inventory::submit! {
    BuiltinPlugin::evaluator("deny_tool", "1.2.3", "Denies one tool.", |cx| deny_tool("deny_tool", cx))
}

warrant_plugins::inventory::submit! {
    BuiltinPlugin::evaluator("deny_other", "0.0.1", "Denies another tool.", |cx| deny_tool("deny_other", cx))
}

warrant_plugins::inventory::submit! {
    BuiltinPlugin {
        name: "scratch",
        version: "0.1.0",
        description: "A store that keeps nothing.",
        constructor: warrant_plugins::Constructor::Store(|_| Ok(Arc::new(MemoryStore::new()))),
    }
}

fn only(names: &[&str]) -> PluginsConfig {
    PluginsConfig {
        evaluators: Some(names.iter().map(|n| (*n).to_owned()).collect()),
        ..PluginsConfig::default()
    }
}

#[test]
fn every_registration_is_listed_with_its_kind_name_and_version() {
    let listed: Vec<_> = builtins().map(|p| (p.kind(), p.name, p.version)).collect();
    assert!(
        listed.contains(&(PluginKind::Evaluator, "deny_tool", "1.2.3")),
        "{listed:?}"
    );
    assert!(
        listed.contains(&(PluginKind::Store, "scratch", "0.1.0")),
        "{listed:?}"
    );
}

#[tokio::test]
async fn configuration_selects_built_ins_by_name_in_order_with_their_tables() {
    let tables = json!({ "deny_tool": { "tool": "deploy" }, "deny_other": { "tool": "rm" } });
    let assembly = assemble(
        &only(&["deny_other", "deny_tool"]),
        &BuildContext::new(tables.clone()),
    )
    .await
    .unwrap();
    assert_eq!(
        assembly.chain.evaluator_names(),
        ["deny_other", "deny_tool"]
    );

    let outcome = decide(
        &assembly.chain,
        &ToolCall::new("s", "c1", "deploy", json!({})),
    )
    .await;
    assert_eq!(outcome.decision.behavior, Behavior::Deny);
    assert_eq!(outcome.trace.decided_by.as_deref(), Some("deny_tool"));
    let other = decide(&assembly.chain, &bash("c2", "ls")).await;
    assert_eq!(other.decision.behavior, Behavior::Ask);
}

#[tokio::test]
async fn an_unknown_name_lists_the_known_ones_and_the_nearest() {
    let err = assemble(&only(&["deny_tol"]), &BuildContext::new(json!({})))
        .await
        .unwrap_err();
    let PluginError::UnknownName { nearest, known, .. } = &err else {
        panic!("expected an unknown name, got {err:?}")
    };
    assert_eq!(nearest.as_deref(), Some("deny_tool"));
    assert!(known.contains(&"deny_other".to_owned()), "{known:?}");
    assert!(
        err.to_string()
            .starts_with("unknown evaluator \"deny_tol\" (did you mean \"deny_tool\"?)"),
        "{err}"
    );
}

#[tokio::test]
async fn a_broken_table_names_the_plugin_and_the_key() {
    let err = assemble(&only(&["deny_tool"]), &BuildContext::new(json!({})))
        .await
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "evaluator \"deny_tool\": key \"tool\" is missing"
    );
}

#[tokio::test]
async fn a_name_listed_twice_is_an_error() {
    let tables = json!({ "deny_tool": { "tool": "x" } });
    let err = assemble(
        &only(&["deny_tool", "deny_tool"]),
        &BuildContext::new(tables.clone()),
    )
    .await
    .unwrap_err();
    assert!(err.to_string().contains("named twice"), "{err}");
}
