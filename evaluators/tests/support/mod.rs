//! Helpers shared by the evaluator tests.
#![allow(dead_code)]

use std::path::Path;

use serde_json::{Value, json};
use warrant_core::call::{EvaluationContext, PermissionMode, ToolCall};
use warrant_core::evaluator::{Evaluator, Rationale, Stance, Verdict};
use warrant_evaluators::{PolicyConfig, PolicyEvaluator};

/// The home directory the tests' policy uses for `~`.
pub const HOME: &str = "/home/tester";

/// A fresh workspace directory with `src/main.rs` in it.
pub fn workspace() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::create_dir_all(dir.path().join("src")).expect("src");
    std::fs::write(dir.path().join("src/main.rs"), "fn main() {}\n").expect("main.rs");
    dir
}

/// A context for `root` in `mode`, with the default policy and the built-in catalog.
pub fn context(mode: PermissionMode, root: &Path) -> EvaluationContext {
    EvaluationContext::new(mode, root)
}

/// A call of `tool` with `input`.
pub fn call(tool: &str, input: Value) -> ToolCall {
    ToolCall::new("s1", "call-1", tool, input)
}

/// A `Bash` call running `command`.
pub fn bash(command: &str) -> ToolCall {
    call("Bash", json!({ "command": command }))
}

/// The policy evaluator with `~` at [`HOME`].
pub fn policy() -> PolicyEvaluator {
    PolicyEvaluator::new(&PolicyConfig {
        home_dir: Some(HOME.into()),
        sensitive_paths: Vec::new(),
        protected_paths: Vec::new(),
    })
    .expect("policy")
}

/// What an evaluator says.
pub async fn verdict(e: &dyn Evaluator, call: &ToolCall, cx: &EvaluationContext) -> Verdict {
    e.evaluate(call, cx).await.expect("evaluator answers")
}

/// The stance and rationale of a judging verdict.
pub fn decided(v: Verdict) -> (Stance, Rationale) {
    match v {
        Verdict::Decide { stance, rationale } => (stance, rationale),
        other => panic!("expected a decision, got {other:?}"),
    }
}

/// The built-in catalog plus an LSP profile `ts` and an MCP server `git` offering `git.status`.
pub fn catalog() -> warrant_core::catalog::ToolCatalog {
    use warrant_core::catalog::{ToolCatalog, ToolDefinition, ToolKind};
    let mut c = ToolCatalog::builtin();
    for op in [
        "hover",
        "definition",
        "references",
        "workspace_symbols",
        "document_symbols",
    ] {
        c.tools.push(ToolDefinition {
            id: format!("lsp_ts_{op}"),
            label: format!("lsp_ts_{op}"),
            kind: ToolKind::Lsp,
            provider_ids: vec!["ts".to_owned()],
            provider_names: vec!["TypeScript".to_owned()],
            description: None,
            input_schema: None,
        });
    }
    for tool in ["git.status", "git.push"] {
        c.tools.push(ToolDefinition {
            id: tool.to_owned(),
            label: tool.to_owned(),
            kind: ToolKind::Mcp,
            provider_ids: vec!["git".to_owned()],
            provider_names: vec!["Git".to_owned()],
            description: None,
            input_schema: None,
        });
    }
    c
}

/// A context over [`catalog`].
pub fn context_with_catalog(mode: PermissionMode, root: &Path) -> EvaluationContext {
    let mut cx = context(mode, root);
    cx.catalog = std::sync::Arc::new(catalog());
    cx
}

/// A rule set from short rules.
pub fn rule_set(allow: &[&str], ask: &[&str], deny: &[&str]) -> warrant_evaluators::rule::RuleSet {
    let own = |l: &[&str]| l.iter().map(|s| (*s).to_owned()).collect();
    warrant_evaluators::rule::RuleSet {
        allow: own(allow),
        ask: own(ask),
        deny: own(deny),
        rule: Vec::new(),
    }
}

/// A rule evaluator with `user` rules, over [`catalog`].
pub fn user_rules(
    allow: &[&str],
    ask: &[&str],
    deny: &[&str],
) -> warrant_evaluators::RuleEvaluator {
    let config = warrant_evaluators::RulesConfig {
        user: rule_set(allow, ask, deny),
        ..Default::default()
    };
    warrant_evaluators::RuleEvaluator::new(&config, &catalog(), Some(HOME.into()))
        .expect("rules compile")
}

/// The reason code of a judging verdict, or `None` for an abstention.
pub fn code(v: Verdict) -> Option<String> {
    match v {
        Verdict::Decide { rationale, .. } | Verdict::Settle { rationale, .. } => {
            Some(rationale.reason_code)
        }
        Verdict::Abstain => None,
    }
}

/// Asserts the reason code of each call (`None`: the evaluator abstains), listing every
/// mismatch at once.
pub async fn assert_codes(
    e: &dyn Evaluator,
    cx: &EvaluationContext,
    rows: &[(ToolCall, Option<&str>)],
) {
    let mut wrong = Vec::new();
    for (c, expected) in rows {
        let v = verdict(e, c, cx).await;
        let reason = match &v {
            Verdict::Decide { rationale, .. } | Verdict::Settle { rationale, .. } => {
                rationale.reason.clone()
            }
            Verdict::Abstain => String::new(),
        };
        let got = code(v);
        if got.as_deref() != *expected {
            wrong.push(format!(
                "{} {}: expected {expected:?}, got {got:?} ({reason})",
                c.tool_name, c.input
            ));
        }
    }
    assert!(wrong.is_empty(), "\n{}", wrong.join("\n"));
}

/// Asserts that a table's rows cover every reason code an evaluator has.
pub fn assert_every_code(seen: &std::collections::BTreeSet<&str>, all: &[&str]) {
    let all: std::collections::BTreeSet<&str> = all.iter().copied().collect();
    assert_eq!(seen, &all, "every reason code has a table row");
}

/// Whether the first `program` on this process's `PATH` is a version manager's shim rather
/// than the program's own binary (the ground truth the selector checks depend on): not an
/// ELF file once links are followed, named for another program, or below a `shims`
/// directory. A program found nowhere counts as a shim (nothing proves otherwise).
#[allow(dead_code)]
pub fn version_manager_shim(program: &str) -> bool {
    use std::io::Read;
    let path = std::env::var_os("PATH").unwrap_or_default();
    let Some(found) = std::env::split_paths(&path)
        .map(|d| d.join(program))
        .find(|p| p.is_file())
    else {
        return true;
    };
    let real = std::fs::canonicalize(found).expect("a program found is canonical");
    let mut head = [0u8; 4];
    let elf = std::fs::File::open(&real)
        .and_then(|mut f| f.read_exact(&mut head))
        .is_ok_and(|()| &head == b"\x7fELF");
    let name = real
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or_default();
    let shims = real.components().any(|c| c.as_os_str() == "shims");
    !elf || !(name.starts_with(program) || name == "rustup") || shims
}
