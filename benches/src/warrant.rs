//! Warrant's side: the `rule` evaluator and the deterministic chain (`policy` + `rule`) over a
//! generated rule set, decided without a runtime's scheduling in the way.

use std::future::Future;
use std::path::PathBuf;
use std::sync::Arc;

use futures::FutureExt;
use warrant_core::call::{Analysis, EvaluationContext, PermissionMode, ToolCall};
use warrant_core::chain::{Chain, ChainOutcome};
use warrant_core::evaluator::{Evaluator, Verdict};
use warrant_evaluators::rule::codes;
use warrant_evaluators::{PolicyConfig, PolicyEvaluator, RuleEvaluator};

use crate::calls::Outcome;
use crate::rules::{self, Effect, Rule};

/// The workspace root the calls are judged in: an existing directory, as in real use, so
/// that resolving paths costs what it costs there (the files named need not exist).
///
/// # Panics
///
/// When the directory cannot be created.
pub fn workspace_root() -> PathBuf {
    let root = std::env::temp_dir().join("warrant-bench-workspace");
    std::fs::create_dir_all(&root).unwrap_or_else(|e| panic!("creating {}: {e}", root.display()));
    root
}

/// The context every call is decided in: default mode, the rules' catalog, no grants.
///
/// A context carries its call's analysis (the parsed command every evaluator shares), so a
/// decision needs a context of its own, as the engine builds one per call: decide with
/// [`for_call`] of this one, never with this one again and again (the second call of the
/// same command would find it parsed already).
pub fn context() -> EvaluationContext {
    let mut cx = EvaluationContext::new(PermissionMode::Default, workspace_root());
    cx.catalog = Arc::new(rules::catalog());
    cx
}

/// A context for one call: `base`'s settings with an empty analysis, so that the decision
/// parses and analyses its call itself.
pub fn for_call(base: &EvaluationContext) -> EvaluationContext {
    let mut cx = base.clone();
    cx.analysis = Analysis::default();
    cx
}

/// A context for one call whose command (for a shell call) is already parsed, as the
/// engine's grant scoper leaves it: what the `rule` evaluator costs with parsing excluded.
pub fn parsed_for_call(base: &EvaluationContext, call: &ToolCall) -> EvaluationContext {
    let cx = for_call(base);
    if warrant_core::catalog::is_shell_tool(&call.tool_name)
        && let Some(command) = warrant_core::catalog::shell_command(&call.input)
    {
        let vector = warrant_core::catalog::shell_command_is_vector(&call.input);
        std::hint::black_box(warrant_evaluators::shell::parse_in(&cx, &command, vector));
    }
    cx
}

/// Compiles the rules into Warrant's `rule` evaluator.
///
/// # Panics
///
/// When the rules do not compile (the generator and the evaluator disagree on syntax).
pub fn rule_evaluator(rules: &[Rule]) -> RuleEvaluator {
    RuleEvaluator::new(&rules::to_warrant(rules), &rules::catalog(), None)
        .unwrap_or_else(|e| panic!("the generated rules compile: {e}"))
}

/// The deterministic chain: the `policy` evaluator (real shell parser) and the rules.
pub fn deterministic_chain(rules: &[Rule]) -> Chain {
    let policy = PolicyEvaluator::new(&PolicyConfig::default()).expect("the default policy");
    Chain::builder()
        .evaluator(policy)
        .evaluator(rule_evaluator(rules))
        .build()
}

/// Drives a future that never waits to its end on the calling thread.
///
/// # Panics
///
/// When the future waits: the deterministic evaluators never do.
pub fn now<F: Future>(future: F) -> F::Output {
    future
        .now_or_never()
        .expect("deterministic evaluation completes without waiting")
}

/// What the `rule` evaluator makes of a call, in a context of its own made from `cx` (see
/// [`for_call`]; making it is part of what is timed).
///
/// # Panics
///
/// When the evaluator fails, or decides without a rule (the context has no grant and no
/// auto-approval, so it cannot).
pub fn rule_outcome(evaluator: &RuleEvaluator, call: &ToolCall, cx: &EvaluationContext) -> Outcome {
    match now(evaluator.evaluate(call, &for_call(cx))).expect("the rule evaluator answers") {
        Verdict::Abstain => Outcome::NoRule,
        Verdict::Decide { stance, rationale } => {
            let effect = match rationale.reason_code.as_str() {
                codes::NORMALIZED_RULE_ALLOW | codes::EXPLICIT_TOOL_ALLOW => Effect::Allow,
                codes::NORMALIZED_RULE_ASK | codes::EXPLICIT_TOOL_ASK => Effect::Ask,
                codes::NORMALIZED_RULE_DENY | codes::EXPLICIT_TOOL_DENY => Effect::Deny,
                code => panic!("no rule decides with {code} ({stance:?})"),
            };
            Outcome::Ruled(effect)
        }
        other => panic!("the rule evaluator settled instead of judging: {other:?}"),
    }
}

/// A current-thread runtime with a clock: the chain reads tokio's clock, so it must run
/// inside such a runtime's context (`Runtime::enter`), though nothing is ever scheduled.
///
/// # Panics
///
/// When the runtime cannot be built.
pub fn clock_runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .expect("a runtime")
}

/// Decides a call through the chain, in `cx` as given (a context of its own, see
/// [`for_call`]). The chain times its evaluators with tokio's clock, so the calling thread
/// must be inside a runtime (`Runtime::enter`).
pub fn chain_decision(chain: &Chain, call: &ToolCall, cx: &EvaluationContext) -> ChainOutcome {
    now(chain.decide(call, cx))
}
