//! Helpers shared by the core integration tests.
#![allow(dead_code)]

use std::time::Duration;

use async_trait::async_trait;
use serde_json::json;
use warrant_core::prelude::*;

/// An evaluator that always answers the same way.
#[derive(Clone, Debug)]
pub struct Fixed {
    pub name: String,
    pub source: PermissionDecisionSource,
    pub role: Role,
    pub answer: Answer,
}

/// What a [`Fixed`] evaluator does.
#[derive(Clone, Debug)]
pub enum Answer {
    Abstain,
    Decide(Stance, &'static str),
    Settle(Behavior, &'static str),
    Fail,
    Panic,
    Hang,
}

impl Fixed {
    pub fn judge(name: &str, source: PermissionDecisionSource, answer: Answer) -> Self {
        Self {
            name: name.to_owned(),
            source,
            role: Role::Judge,
            answer,
        }
    }

    pub fn settler(
        name: &str,
        source: PermissionDecisionSource,
        mode: PermissionMode,
        answer: Answer,
    ) -> Self {
        Self {
            name: name.to_owned(),
            source,
            role: Role::Settle(mode),
            answer,
        }
    }
}

/// A policy judge taking `stance` with `code`.
pub fn policy(stance: Stance, code: &'static str) -> Fixed {
    Fixed::judge(
        "policy",
        PermissionDecisionSource::Policy,
        Answer::Decide(stance, code),
    )
}

/// A rule judge taking `stance` with `code`.
pub fn rule(stance: Stance, code: &'static str) -> Fixed {
    Fixed::judge(
        "rule",
        PermissionDecisionSource::Rule,
        Answer::Decide(stance, code),
    )
}

/// A classifier that settles open calls in auto mode with `behavior`.
pub fn classifier(behavior: Behavior) -> Fixed {
    Fixed::settler(
        "auto_classifier",
        PermissionDecisionSource::AutoClassifier,
        PermissionMode::Auto,
        Answer::Settle(behavior, "auto_classifier_verdict"),
    )
}

/// The full-access settler.
pub fn full_access() -> Fixed {
    Fixed::settler(
        "full_access",
        PermissionDecisionSource::FullAccess,
        PermissionMode::FullAccess,
        Answer::Settle(Behavior::Allow, "mode_full_access"),
    )
}

#[async_trait]
impl Evaluator for Fixed {
    fn name(&self) -> &str {
        &self.name
    }
    fn source(&self) -> PermissionDecisionSource {
        self.source
    }
    fn role(&self) -> Role {
        self.role
    }
    async fn evaluate(
        &self,
        _call: &ToolCall,
        cx: &EvaluationContext,
    ) -> Result<Verdict, EvaluatorError> {
        match &self.answer {
            Answer::Abstain => Ok(Verdict::Abstain),
            Answer::Decide(stance, code) => Ok(Verdict::decide(
                *stance,
                Rationale::new(*code, format!("{} says {code}", self.name), Risk::Low),
            )),
            Answer::Settle(behavior, code) => {
                let mut rationale = Rationale::new(
                    *code,
                    format!("{} settles", self.name),
                    cx.open_risk.unwrap_or(Risk::Low),
                );
                if self.source == PermissionDecisionSource::AutoClassifier {
                    rationale.confidence = Some(Confidence::High);
                    rationale.reviewer_model = Some("test/model".to_owned());
                }
                Ok(Verdict::Settle {
                    behavior: *behavior,
                    rationale,
                })
            }
            Answer::Fail => Err(EvaluatorError::new("backend down")),
            Answer::Panic => panic!("evaluator bug"),
            Answer::Hang => {
                tokio::time::sleep(Duration::from_secs(3600)).await;
                Ok(Verdict::Abstain)
            }
        }
    }
}

/// A shell call in session `s1`.
pub fn call(command: &str) -> ToolCall {
    ToolCall::new("s1", "call-1", "Bash", json!({ "command": command }))
}

/// A context in `mode` rooted at a fixed workspace.
pub fn cx(mode: PermissionMode) -> EvaluationContext {
    EvaluationContext::new(mode, "/work/project")
}

/// Decides `call("x")` with a chain of `evaluators` in `mode`.
pub async fn decide(evaluators: Vec<Fixed>, mode: PermissionMode) -> ChainOutcome {
    let mut builder = Chain::builder();
    for e in evaluators {
        builder = builder.evaluator_with_timeout(e, Duration::from_secs(5));
    }
    builder.build().decide(&call("x"), &cx(mode)).await
}

pub const ALL_MODES: [PermissionMode; 3] = [
    PermissionMode::Default,
    PermissionMode::Auto,
    PermissionMode::FullAccess,
];
