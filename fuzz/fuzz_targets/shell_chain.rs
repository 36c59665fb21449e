//! A shell command through the whole deterministic chain `warrant check` builds with an empty
//! configuration (`policy`, `rule`, the heuristic `auto_classifier`, `full_access`), in every
//! permission mode, on a thread with a tokio worker's stack.
//!
//! Byte 0 picks the shell tool's spelling and the input's shape (`command` as text or as an
//! argv vector, with or without a `workdir`); the rest is the command.
//!
//! Asserts: no panic, none swallowed by the chain either (a `panic` in the trace fails);
//! a decision is always produced, for the call asked about, with a reason code; judges do not
//! depend on the mode: the stance is the same in every mode, and a decided call has the same
//! behaviour in every mode; an open call asks in `default` mode and is allowed in
//! `full_access`. And a command holding a NUL, if allowed, is allowed both as bash reading it
//! from a script sees it (NULs dropped) and as `execve` passes it (cut at the first NUL),
//! unless that reading does not parse (then the shell runs nothing).
#![no_main]

use libfuzzer_sys::fuzz_target;
use serde_json::{Value, json};
use warrant_core::call::{EvaluationContext, PermissionMode, ToolCall};
use warrant_core::chain::{Chain, ChainOutcome};
use warrant_core::decision::Behavior;
use warrant_evaluators::shell::parse;
use warrant_fuzz::{assert_decision_well_formed, assert_no_evaluator_panicked, chain, on_worker_stack, runtime, workspace};

const TOOLS: [&str; 8] = [
    "Bash", "bash", "shell", "run_terminal_cmd", "execute_command", "run_shell_command", "local_shell", "exec_command",
];
const MODES: [PermissionMode; 3] = [PermissionMode::Default, PermissionMode::Auto, PermissionMode::FullAccess];

fn input(shape: u8, command: &str) -> Value {
    match shape % 4 {
        0 => json!({ "command": command }),
        1 => json!({ "command": ["bash", "-lc", command] }),
        2 => json!({ "command": command, "workdir": "sub/dir" }),
        _ => json!({ "command": command, "cwd": "/tmp" }),
    }
}

async fn decide(chain: &Chain, tool: &str, input: Value, mode: PermissionMode) -> ChainOutcome {
    let call = ToolCall::new("fuzz", "call-1", tool, input);
    let cx = EvaluationContext::new(mode, workspace());
    let outcome = chain.decide(&call, &cx).await;
    let what = format!("{tool} {} in {mode:?}", call.input);
    assert_no_evaluator_panicked(&outcome.trace, &what);
    assert_decision_well_formed(&outcome.decision, &what);
    assert_eq!(outcome.decision.tool_call_id, "call-1", "{what}");
    outcome
}

fuzz_target!(|data: &[u8]| {
    let Some((&selector, rest)) = data.split_first() else {
        return;
    };
    let command = String::from_utf8_lossy(rest).into_owned();
    let tool = TOOLS[usize::from(selector) % TOOLS.len()];
    let shape = selector / 8;
    on_worker_stack(move || {
        let chain = chain();
        runtime().block_on(async {
            let mut outcomes = Vec::new();
            for mode in MODES {
                outcomes.push(decide(&chain, tool, input(shape, &command), mode).await);
            }
            let what = format!("{tool} {command:?}");
            let [default, auto, full] = &outcomes[..] else { unreachable!() };
            assert_eq!(default.stance, auto.stance, "the stance depends on the mode: {what}");
            assert_eq!(default.stance, full.stance, "the stance depends on the mode: {what}");
            match default.stance {
                Some(_) => {
                    for other in [auto, full] {
                        assert_eq!(
                            default.decision.behavior, other.decision.behavior,
                            "a decided call changes with the mode: {what}"
                        );
                    }
                }
                None => {
                    assert_eq!(default.decision.behavior, Behavior::Ask, "an open call in default mode: {what}");
                    assert_eq!(full.decision.behavior, Behavior::Allow, "an open call in full_access: {what}");
                }
            }
            if command.contains('\0') && default.decision.behavior == Behavior::Allow {
                let dropped = command.replace('\0', "");
                let cut = command.split('\0').next().unwrap_or_default().to_owned();
                for (how, variant) in [("NULs dropped", dropped), ("cut at the NUL", cut)] {
                    // Text the shell cannot read runs nothing (bash refuses it too).
                    if parse(&variant).is_err() {
                        continue;
                    }
                    let outcome = decide(&chain, tool, input(shape, &variant), PermissionMode::Default).await;
                    assert_eq!(
                        outcome.decision.behavior,
                        Behavior::Allow,
                        "{what} is allowed, but {how} it reads {variant:?}, which is {:?} ({})",
                        outcome.decision.behavior,
                        outcome.decision.reason_code
                    );
                }
            }
        });
    });
});
