//! An agent that embeds the engine, tested with mocked evaluators.
//!
//! This is how an agent builder tests their own integration: mock the evaluators with
//! `mockall` so each decision is known in advance, then check that the agent runs what is
//! allowed, skips what is denied, and waits for the user on what asks.
//!
//! Run it with `cargo run -p warrant-examples --example embedded_mock`.

use async_trait::async_trait;
use mockall::mock;
use serde_json::json;
use warrant_core::prelude::*;

mock! {
    /// A mocked evaluator.
    pub Guard {}

    #[async_trait]
    impl Evaluator for Guard {
        fn name(&self) -> &str;
        fn source(&self) -> PermissionDecisionSource;
        fn role(&self) -> Role;
        async fn evaluate(&self, call: &ToolCall, cx: &EvaluationContext) -> Result<Verdict, EvaluatorError>;
    }
}

/// A mocked guard that allows `view`, denies `deploy`, and has nothing to say about the rest.
fn guard() -> MockGuard {
    let mut guard = MockGuard::new();
    guard.expect_name().return_const("guard".to_owned());
    guard
        .expect_source()
        .return_const(PermissionDecisionSource::Policy);
    guard.expect_role().return_const(Role::Judge);
    guard.expect_evaluate().times(3).returning(|call, _cx| {
        Ok(match call.tool_name.as_str() {
            "view" => Verdict::decide(
                Stance::PolicyAllow,
                Rationale::new(
                    "read_only_view",
                    "Reading a file changes nothing.",
                    Risk::Safe,
                ),
            ),
            "deploy" => Verdict::decide(
                Stance::HardDeny,
                Rationale::new("policy_no_deploys", "Deploys are off.", Risk::High),
            ),
            _ => Verdict::Abstain,
        })
    });
    guard
}

/// The agent's loop: ask the engine about each tool call, and run only what ends in `allow`.
async fn agent(engine: &Engine) -> Vec<(ToolCallId, Behavior)> {
    let calls = [
        ToolCall::new("s1", "c1", "view", json!({"path": "README.md"})),
        ToolCall::new("s1", "c2", "deploy", json!({"env": "prod"})),
        ToolCall::new("s1", "c3", "Edit", json!({"path": "src/main.rs"})),
    ];
    let mut ran = Vec::new();
    for call in calls {
        let id = call.tool_call_id.clone();
        let authorization = engine
            .authorize(call, AuthorizeOptions::default())
            .await
            .expect("the decision is audited");
        println!(
            "{}",
            serde_json::to_string(&authorization.decision).expect("JSON")
        );
        if let Some(pending) = &authorization.approval {
            // Stand in for the user: allow this one call.
            println!("approval requested: {}", pending.request.title);
            engine
                .resolve(&id, "allow_once")
                .await
                .expect("the request is pending");
        }
        let (behavior, _resolution) = authorization.settled().await.expect("settled");
        ran.push((id, behavior));
    }
    ran
}

#[tokio::main]
async fn main() {
    let chain = Chain::builder().evaluator(guard()).build();
    let engine = Engine::builder(chain)
        .build()
        .await
        .expect("the engine starts");
    let ran = agent(&engine).await;
    let expected = [
        (ToolCallId::new("c1"), Behavior::Allow),
        (ToolCallId::new("c2"), Behavior::Deny),
        (ToolCallId::new("c3"), Behavior::Allow),
    ];
    assert_eq!(
        ran, expected,
        "view runs, deploy is denied, the edit runs once approved"
    );
    println!(
        "the agent ran {} of {} calls",
        ran.iter().filter(|(_, b)| *b == Behavior::Allow).count(),
        ran.len()
    );
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_agent_runs_what_is_allowed_and_waits_for_approval() {
        super::main();
    }
}
