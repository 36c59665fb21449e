//! The chain's required properties (DESIGN.md, "Evaluators and the chain"), one test each.

mod common;

use common::*;
use proptest::prelude::*;
use warrant_core::chain::TraceOutcome;
use warrant_core::prelude::*;

use PermissionDecisionSource as Src;
use PermissionMode::{Auto, Default as DefaultMode, FullAccess};

#[tokio::test]
async fn hard_denies_win_in_every_mode() {
    for mode in ALL_MODES {
        let out = decide(
            vec![
                policy(Stance::HardDeny, "shell_destructive"),
                rule(Stance::UserAllow, "normalized_rule_allow"),
                classifier(Behavior::Allow),
                full_access(),
            ],
            mode,
        )
        .await;
        assert_eq!(out.decision.behavior, Behavior::Deny, "{mode:?}");
        assert_eq!(out.decision.source, Src::Policy);
        assert_eq!(out.decision.reason_code, "shell_destructive");
    }
}

#[tokio::test]
async fn deny_rule_wins_in_every_mode() {
    for mode in ALL_MODES {
        let out = decide(
            vec![
                rule(Stance::HardDeny, "normalized_rule_deny"),
                policy(Stance::PolicyAllow, "shell_read_only"),
                full_access(),
            ],
            mode,
        )
        .await;
        assert_eq!(out.decision.behavior, Behavior::Deny);
        assert_eq!(out.decision.source, Src::Rule);
    }
}

#[tokio::test]
async fn user_ask_rules_hold_in_every_mode_full_access_included() {
    for mode in ALL_MODES {
        let out = decide(
            vec![
                rule(Stance::RequireAsk, "normalized_rule_ask"),
                policy(Stance::PolicyAllow, "shell_read_only"),
                classifier(Behavior::Allow),
                full_access(),
            ],
            mode,
        )
        .await;
        assert_eq!(out.decision.behavior, Behavior::Ask, "{mode:?}");
        assert_eq!(out.decision.reason_code, "normalized_rule_ask");
        assert_eq!(out.decision.source, Src::Rule);
    }
}

#[tokio::test]
async fn user_allow_beats_a_policy_default_ask() {
    let out = decide(
        vec![
            policy(Stance::DefaultAsk, "filesystem_write_inside_workspace"),
            rule(Stance::UserAllow, "normalized_rule_allow"),
        ],
        DefaultMode,
    )
    .await;
    assert_eq!(out.decision.behavior, Behavior::Allow);
    assert_eq!(out.decision.source, Src::Rule);
}

#[tokio::test]
async fn user_allow_never_beats_a_deny() {
    let out = decide(
        vec![
            rule(Stance::UserAllow, "explicit_tool_auto_approved"),
            policy(Stance::HardDeny, "filesystem_sensitive_path"),
        ],
        DefaultMode,
    )
    .await;
    assert_eq!(out.decision.behavior, Behavior::Deny);
    assert_eq!(out.decision.reason_code, "filesystem_sensitive_path");
}

#[tokio::test]
async fn classifier_is_asked_only_in_auto_mode() {
    for mode in [DefaultMode, FullAccess] {
        let out = decide(
            vec![
                policy(Stance::DefaultAsk, "shell_write"),
                classifier(Behavior::Allow),
            ],
            mode,
        )
        .await;
        assert_ne!(out.decision.source, Src::AutoClassifier, "{mode:?}");
        assert_eq!(
            out.trace.entry("auto_classifier").unwrap().outcome,
            TraceOutcome::Skipped
        );
    }
    let out = decide(
        vec![
            policy(Stance::DefaultAsk, "shell_write"),
            classifier(Behavior::Allow),
        ],
        Auto,
    )
    .await;
    assert_eq!(out.decision.source, Src::AutoClassifier);
    assert_eq!(out.decision.behavior, Behavior::Allow);
    assert_eq!(out.decision.confidence, Some(Confidence::High));
}

#[tokio::test]
async fn classifier_is_asked_only_for_an_open_call() {
    for stance in [
        Stance::HardDeny,
        Stance::RequireAsk,
        Stance::UserAllow,
        Stance::PolicyAllow,
    ] {
        let out = decide(
            vec![policy(stance, "policy_fixed"), classifier(Behavior::Allow)],
            Auto,
        )
        .await;
        assert_eq!(out.decision.behavior, stance.behavior(), "{stance:?}");
        assert_eq!(out.decision.source, Src::Policy);
        assert_eq!(
            out.trace.entry("auto_classifier").unwrap().outcome,
            TraceOutcome::Skipped,
            "{stance:?}"
        );
    }
}

#[tokio::test]
async fn classifier_cannot_turn_a_deny_into_an_allow() {
    let out = decide(
        vec![
            policy(Stance::HardDeny, "shell_destructive"),
            classifier(Behavior::Allow),
        ],
        Auto,
    )
    .await;
    assert_eq!(out.decision.behavior, Behavior::Deny);
}

#[tokio::test]
async fn classifier_deny_settles_an_open_call() {
    let out = decide(
        vec![
            policy(Stance::DefaultAsk, "shell_write"),
            classifier(Behavior::Deny),
        ],
        Auto,
    )
    .await;
    assert_eq!(out.decision.behavior, Behavior::Deny);
    assert_eq!(out.decision.source, Src::AutoClassifier);
}

#[tokio::test]
async fn full_access_allows_open_calls_without_review() {
    let out = decide(
        vec![
            policy(Stance::DefaultAsk, "shell_write"),
            full_access(),
            classifier(Behavior::Deny),
        ],
        FullAccess,
    )
    .await;
    assert_eq!(out.decision.behavior, Behavior::Allow);
    assert_eq!(out.decision.source, Src::FullAccess);
    assert_eq!(out.decision.reason_code, "mode_full_access");
    assert_eq!(out.decision.confidence, None);
    assert_eq!(out.decision.reviewer_model, None);
}

#[tokio::test]
async fn settlers_see_the_risk_the_judges_rated() {
    let out = decide(
        vec![policy(Stance::DefaultAsk, "shell_write"), full_access()],
        FullAccess,
    )
    .await;
    assert_eq!(
        out.decision.risk,
        Risk::Low,
        "the judge rated low; full access keeps that rating"
    );
}

#[tokio::test]
async fn evaluator_error_yields_ask_never_allow() {
    for mode in ALL_MODES {
        let out = decide(
            vec![
                Fixed::judge("policy", Src::Policy, Answer::Fail),
                rule(Stance::UserAllow, "normalized_rule_allow"),
                full_access(),
            ],
            mode,
        )
        .await;
        assert_eq!(out.decision.behavior, Behavior::Ask, "{mode:?}");
        assert_eq!(out.decision.reason_code, "policy_evaluator_error");
        assert!(out.decision.reason.contains("\"policy\""));
        assert!(
            matches!(&out.trace.entry("policy").unwrap().outcome, TraceOutcome::Failed { kind, error } if kind == "error" && error == "backend down")
        );
    }
}

#[tokio::test]
async fn evaluator_panic_yields_ask_never_allow() {
    let out = decide(
        vec![
            Fixed::judge("policy", Src::Policy, Answer::Panic),
            policy(Stance::PolicyAllow, "shell_read_only"),
            full_access(),
        ],
        FullAccess,
    )
    .await;
    assert_eq!(out.decision.behavior, Behavior::Ask);
    assert_eq!(out.decision.reason_code, "policy_evaluator_panic");
}

/// An evaluator that panics when it is called, before it returns its future (as an
/// implementation written without `async_trait` may).
struct PanicsWhenCalled;

impl Evaluator for PanicsWhenCalled {
    fn name(&self) -> &str {
        "policy"
    }

    fn source(&self) -> PermissionDecisionSource {
        Src::Policy
    }

    fn evaluate<'e, 'c, 'x, 'f>(
        &'e self,
        _call: &'c ToolCall,
        _cx: &'x EvaluationContext,
    ) -> std::pin::Pin<
        Box<dyn std::future::Future<Output = Result<Verdict, EvaluatorError>> + Send + 'f>,
    >
    where
        'e: 'f,
        'c: 'f,
        'x: 'f,
        Self: 'f,
    {
        panic!("called")
    }
}

#[tokio::test]
async fn evaluator_panicking_before_its_future_yields_ask_never_allow() {
    let chain = Chain::builder()
        .evaluator(PanicsWhenCalled)
        .evaluator(policy(Stance::PolicyAllow, "shell_read_only"))
        .evaluator(full_access())
        .build();
    let out = chain.decide(&call("x"), &cx(FullAccess)).await;
    assert_eq!(out.decision.behavior, Behavior::Ask);
    assert_eq!(out.decision.reason_code, "policy_evaluator_panic");
}

#[tokio::test(start_paused = true)]
async fn evaluator_timeout_yields_ask_never_allow() {
    let out = decide(
        vec![
            Fixed::judge("slow", Src::Policy, Answer::Hang),
            rule(Stance::UserAllow, "normalized_rule_allow"),
            full_access(),
        ],
        FullAccess,
    )
    .await;
    assert_eq!(out.decision.behavior, Behavior::Ask);
    assert_eq!(out.decision.reason_code, "policy_evaluator_timeout");
}

#[tokio::test]
async fn failed_evaluator_still_loses_to_a_hard_deny() {
    let out = decide(
        vec![
            Fixed::judge("x", Src::Rule, Answer::Fail),
            policy(Stance::HardDeny, "shell_destructive"),
        ],
        DefaultMode,
    )
    .await;
    assert_eq!(out.decision.behavior, Behavior::Deny);
}

#[tokio::test]
async fn failing_classifier_yields_ask_never_allow() {
    let broken = Fixed::settler("auto_classifier", Src::AutoClassifier, Auto, Answer::Fail);
    let out = decide(
        vec![policy(Stance::DefaultAsk, "shell_write"), broken],
        Auto,
    )
    .await;
    assert_eq!(out.decision.behavior, Behavior::Ask);
    assert_eq!(out.decision.reason_code, "policy_evaluator_error");
}

#[tokio::test]
async fn judge_answering_like_a_settler_fails_closed() {
    let rogue = Fixed::judge(
        "rogue",
        Src::Rule,
        Answer::Settle(Behavior::Allow, "normalized_rule_allow"),
    );
    let out = decide(vec![rogue], FullAccess).await;
    assert_eq!(out.decision.behavior, Behavior::Ask);
    assert_eq!(out.decision.reason_code, "policy_evaluator_protocol");
}

#[tokio::test]
async fn nobody_decides_yields_ask_policy_default_ask() {
    for evaluators in [
        vec![],
        vec![Fixed::judge("quiet", Src::Rule, Answer::Abstain)],
    ] {
        let out = decide(evaluators, DefaultMode).await;
        assert_eq!(out.decision.behavior, Behavior::Ask);
        assert_eq!(out.decision.source, Src::Policy);
        assert_eq!(out.decision.reason_code, "policy_default_ask");
    }
}

#[tokio::test]
async fn default_mode_asks_with_the_policys_reason_code() {
    let out = decide(
        vec![
            policy(Stance::DefaultAsk, "filesystem_outside_workspace"),
            full_access(),
            classifier(Behavior::Allow),
        ],
        DefaultMode,
    )
    .await;
    assert_eq!(out.decision.behavior, Behavior::Ask);
    assert_eq!(out.decision.reason_code, "filesystem_outside_workspace");
}

#[tokio::test]
async fn policy_allow_settles_without_the_mode() {
    let out = decide(
        vec![
            policy(Stance::PolicyAllow, "shell_read_only"),
            classifier(Behavior::Deny),
        ],
        Auto,
    )
    .await;
    assert_eq!(out.decision.behavior, Behavior::Allow);
    assert_eq!(out.decision.reason_code, "shell_read_only");
}

#[tokio::test]
async fn full_access_mode_without_a_full_access_evaluator_asks() {
    let out = decide(vec![policy(Stance::DefaultAsk, "shell_write")], FullAccess).await;
    assert_eq!(out.decision.behavior, Behavior::Ask);
}

#[tokio::test]
async fn trace_records_every_evaluators_verdict_and_time() {
    let out = decide(
        vec![
            policy(Stance::DefaultAsk, "shell_write"),
            Fixed::judge("rule", Src::Rule, Answer::Abstain),
            Fixed::judge("broken", Src::Rule, Answer::Fail),
            classifier(Behavior::Allow),
            full_access(),
        ],
        Auto,
    )
    .await;
    let names: Vec<&str> = out
        .trace
        .entries
        .iter()
        .map(|e| e.evaluator.as_str())
        .collect();
    assert_eq!(
        names,
        ["policy", "rule", "broken", "auto_classifier", "full_access"]
    );
    assert!(matches!(
        out.trace.entries[0].outcome,
        TraceOutcome::Decided {
            behavior: Behavior::Ask,
            strength: Some(5),
            ..
        }
    ));
    assert_eq!(out.trace.entries[1].outcome, TraceOutcome::Abstained);
    assert!(matches!(
        out.trace.entries[2].outcome,
        TraceOutcome::Failed { .. }
    ));
    assert_eq!(out.trace.entries[4].outcome, TraceOutcome::Skipped);
    assert_eq!(
        out.trace.decided_by.as_deref(),
        Some("broken"),
        "the failure's ask binds at strength 2"
    );
    let json = serde_json::to_value(&out.trace).unwrap();
    assert!(json["entries"][0]["elapsedMicros"].is_u64());
}

#[tokio::test]
async fn default_pattern_asks_for_an_unknown_command() {
    // With no configuration the context's policy has tool-call checkpoints on and auto-approves
    // nothing, so a chain that finds nothing to say asks.
    let cx = cx(DefaultMode);
    assert!(cx.policy.tool_call_checkpoint("primary"));
    assert!(cx.policy.auto_approved_tool_names.is_empty());
    let out = Chain::builder()
        .build()
        .decide(&call("frobnicate --all"), &cx)
        .await;
    assert_eq!(out.decision.behavior, Behavior::Ask);
}

fn answer() -> impl Strategy<Value = Answer> {
    prop_oneof![
        Just(Answer::Abstain),
        Just(Answer::Fail),
        prop::sample::select(vec![
            Stance::HardDeny,
            Stance::RequireAsk,
            Stance::UserAllow,
            Stance::PolicyAllow,
            Stance::DefaultAsk
        ])
        .prop_flat_map(|s| prop::sample::select(vec![
            "shell_a",
            "shell_b",
            "normalized_rule_x"
        ])
        .prop_map(move |c| Answer::Decide(s, c))),
    ]
}

fn evaluator() -> impl Strategy<Value = Fixed> {
    (
        answer(),
        prop::sample::select(vec!["policy", "rule", "plugin"]),
        any::<bool>(),
    )
        .prop_map(|(answer, name, settler)| {
            if settler {
                let behavior = match answer {
                    Answer::Decide(s, _) => s.behavior(),
                    _ => Behavior::Allow,
                };
                Fixed::settler(
                    name,
                    Src::AutoClassifier,
                    Auto,
                    Answer::Settle(behavior, "auto_classifier_x"),
                )
            } else {
                Fixed::judge(name, Src::Policy, answer)
            }
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]
    #[test]
    fn shuffling_evaluators_never_changes_a_decision(
        evaluators in prop::collection::vec(evaluator(), 0..6),
        seed in any::<u64>(),
        mode in prop::sample::select(ALL_MODES.to_vec()),
    ) {
        let rt = tokio::runtime::Builder::new_current_thread().enable_time().build().unwrap();
        let mut shuffled = evaluators.clone();
        // A deterministic Fisher-Yates from the seed.
        let mut state = seed | 1;
        for i in (1..shuffled.len()).rev() {
            state ^= state << 13; state ^= state >> 7; state ^= state << 17;
            shuffled.swap(i, (state % (i as u64 + 1)) as usize);
        }
        let a = rt.block_on(decide(evaluators, mode));
        let b = rt.block_on(decide(shuffled, mode));
        prop_assert_eq!(a.decision, b.decision);
    }
}
