//! An agent that embeds the production engine: the setup `warrant serve` runs, from
//! configuration, with one evaluator of the agent's own added to the default chain.
//!
//! It decides a read (allowed), a push (asked, then allowed once by "the user"), and a
//! deploy (denied by its own evaluator); follows the session's events as they are emitted;
//! reports the allowed calls' results with the permits the engine gave; reads the tool parts
//! back from the store; and verifies the audit log.
//!
//! Run it with `cargo run -p warrant-examples --example embedded_default`.

use std::sync::Arc;

use serde_json::json;
use warrant::{Config, Setup};
use warrant_core::approval::ApprovalChoice;
use warrant_core::events::Item;
use warrant_core::part::MessagePart;
use warrant_core::prelude::*;

/// The agent's own rule: nothing it runs may deploy.
struct NoDeploys;

#[warrant_core::async_trait]
impl Evaluator for NoDeploys {
    fn name(&self) -> &str {
        "no_deploys"
    }

    fn source(&self) -> PermissionDecisionSource {
        PermissionDecisionSource::Policy
    }

    fn version(&self) -> Option<&str> {
        Some("1.0.0")
    }

    async fn evaluate(
        &self,
        call: &ToolCall,
        _cx: &EvaluationContext,
    ) -> Result<Verdict, EvaluatorError> {
        let command = call.input["command"].as_str().unwrap_or_default();
        Ok(if command.contains("deploy") {
            Verdict::decide(
                Stance::HardDeny,
                Rationale::new(
                    "plugin_no_deploys_deny",
                    "This agent never deploys.",
                    Risk::High,
                ),
            )
        } else {
            Verdict::Abstain
        })
    }
}

fn shell(id: &str, command: &str) -> ToolCall {
    ToolCall::new("session-1", id, "Bash", json!({ "command": command }))
}

/// What the agent saw: each call's behaviour, the events it followed, the parts stored.
#[derive(Debug)]
struct Outcome {
    behaviors: Vec<(String, Behavior)>,
    event_types: Vec<String>,
    completed_parts: usize,
    audit_records: u64,
}

async fn run(config: Config) -> Outcome {
    // The production engine: configured chain, grant scoper, workspace root, SQLite store in
    // the data directory; plus the agent's own evaluator, after the configured ones.
    let engine = Setup::new(config)
        .evaluator(|_cx| Ok(Arc::new(NoDeploys)))
        .build()
        .await
        .expect("the engine starts");

    // Follow the session from its first event; the engine logs every event in the store, so
    // a subscriber that joins later (or falls behind) resumes from the log.
    let session = SessionId::new("session-1");
    let mut events = engine.subscribe(&session, 0);

    let mut behaviors = Vec::new();
    for (id, command) in [
        ("c1", "git status"),
        ("c2", "git push origin main"),
        ("c3", "./scripts/deploy prod"),
    ] {
        let authorization = engine
            .authorize(shell(id, command), AuthorizeOptions::default())
            .await
            .expect("the decision is audited");
        let decision = &authorization.decision;
        let by = decision.evaluator.as_ref().map_or("-", |e| e.name.as_str());
        println!(
            "{id} `{command}`: {:?} by {by} ({}): {}",
            decision.behavior, decision.reason_code, decision.reason
        );
        if let Some(pending) = &authorization.approval {
            // Stand in for the user: allow this one call.
            let request = &pending.request;
            println!("  approval requested: {}", request.title);
            engine
                .resolve_choice(&request.tool_call_id, ApprovalChoice::AllowOnce)
                .await
                .expect("the request is pending");
        }
        let behavior = match authorization.permit().await {
            Ok(permit) => {
                // Run the call here; report what it printed, consuming the permit.
                engine
                    .report(permit, "done")
                    .await
                    .expect("an allowed call's result is accepted");
                Behavior::Allow
            }
            Err(refused) => {
                println!("  not run: {refused}");
                Behavior::Deny
            }
        };
        behaviors.push((id.to_owned(), behavior));
    }

    // Every event of the session, in the contract's order, each with its event id.
    let mut event_types = Vec::new();
    let mut last_seq = 0;
    while let Some(item) =
        tokio::time::timeout(std::time::Duration::from_millis(200), events.next())
            .await
            .ok()
            .flatten()
    {
        if let Item::Event(stored) = item {
            assert_eq!(stored.seq, last_seq + 1, "no gap, no duplicate");
            last_seq = stored.seq;
            event_types.push(event_type(&stored.event));
        }
    }

    // The tool parts as the chat persisted them.
    let messages = engine
        .store()
        .messages(&"session-1".into())
        .await
        .expect("the store reads");
    let completed_parts = messages
        .iter()
        .flat_map(|m| &m.parts)
        .filter(|p| matches!(p, MessagePart::Tool(t) if t.output.is_some()))
        .count();

    // The audit log is hash-chained; verify it through the engine.
    let verification = engine.verify_audit(None).await.expect("the log reads");
    assert!(verification.is_intact(), "the audit log verifies");
    Outcome {
        behaviors,
        event_types,
        completed_parts,
        audit_records: verification.records,
    }
}

fn event_type(event: &Event) -> String {
    serde_json::to_value(event)
        .ok()
        .and_then(|v| v["type"].as_str().map(str::to_owned))
        .unwrap_or_default()
}

#[tokio::main]
async fn main() {
    let workspace = tempfile::tempdir().expect("a workspace");
    let data = tempfile::tempdir().expect("a data directory");
    let config = Config {
        workspace: Some(workspace.path().to_path_buf()),
        data_dir: data.path().to_path_buf(),
        ..Config::default()
    };

    let outcome = run(config).await;
    println!("{outcome:#?}");
    assert_eq!(
        outcome.behaviors,
        [
            ("c1".to_owned(), Behavior::Allow),
            ("c2".to_owned(), Behavior::Allow),
            ("c3".to_owned(), Behavior::Deny),
        ],
        "the read runs, the push runs once allowed, the deploy never"
    );
    assert_eq!(outcome.completed_parts, 2, "two results were reported");
    // Three evaluations and one resolution.
    assert_eq!(outcome.audit_records, 4);
    assert!(outcome.event_types.iter().any(|t| t == "TOOL_CALL_RESULT"));
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_production_engine_decides_asks_resolves_streams_stores_and_verifies() {
        super::main();
    }
}
