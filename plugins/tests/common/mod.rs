//! Shared by the plugin tests: building the fixture libraries, and calls to decide.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use serde_json::{Value, json};
use warrant_core::call::{EvaluationContext, PermissionMode, ToolCall};
use warrant_core::chain::{Chain, ChainOutcome, TraceOutcome};
use warrant_core::decision::Behavior;

/// The libraries the tests load, built once per test binary.
const LIBRARIES: [&str; 3] = [
    "warrant-hours-plugin",
    "warrant-faulty-plugin",
    "warrant-stale-plugin",
];

/// The absolute path of a fixture library (`warrant-hours-plugin`), built when needed.
pub fn library(package: &str) -> PathBuf {
    static BUILT: OnceLock<PathBuf> = OnceLock::new();
    let dir = BUILT.get_or_init(|| {
        let mut cargo = Command::new(env!("CARGO"));
        cargo.arg("build").current_dir(env!("CARGO_MANIFEST_DIR"));
        for p in LIBRARIES {
            cargo.args(["-p", p]);
        }
        let status = cargo.status().expect("cargo runs");
        assert!(status.success(), "building the fixture libraries failed");
        // The test binary lives in target/<profile>/deps.
        let exe = std::env::current_exe().expect("the test binary has a path");
        exe.parent()
            .and_then(Path::parent)
            .expect("target/<profile>")
            .to_owned()
    });
    let file = format!(
        "{}{}{}",
        std::env::consts::DLL_PREFIX,
        package.replace('-', "_"),
        std::env::consts::DLL_SUFFIX
    );
    dir.join(file)
}

/// The absolute path of a file under the workspace root.
pub fn workspace_file(relative: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(relative)
}

/// A `Bash` call running `command`.
pub fn bash(id: &str, command: &str) -> ToolCall {
    ToolCall::new("s1", id, "Bash", json!({ "command": command }))
}

/// A call of `tool` with `input`.
pub fn call(id: &str, tool: &str, input: Value) -> ToolCall {
    ToolCall::new("s1", id, tool, input)
}

/// A default-mode context in a temporary workspace.
pub fn context() -> EvaluationContext {
    EvaluationContext::new(PermissionMode::Default, std::env::temp_dir())
}

/// Decides `call` with `chain` in default mode.
pub async fn decide(chain: &Chain, call: &ToolCall) -> ChainOutcome {
    chain.decide(call, &context()).await
}

/// Asserts the outcome asked because `evaluator` failed, and returns the failure's message.
pub fn assert_failed_to_ask(outcome: &ChainOutcome, evaluator: &str) -> String {
    assert_eq!(outcome.decision.behavior, Behavior::Ask, "{outcome:?}");
    let entry = outcome
        .trace
        .entry(evaluator)
        .expect("the evaluator is in the trace");
    match &entry.outcome {
        TraceOutcome::Failed { error, .. } => error.clone(),
        other => panic!("expected {evaluator} to fail, got {other:?}"),
    }
}
