//! The embedded reviewer: deterministic heuristics over the call, with no network, so that
//! `auto` mode works with no configuration. It reports under its own model id.

use async_trait::async_trait;
use serde_json::Value;
use warrant_core::catalog::is_shell_tool;
use warrant_core::decision::{Behavior, Confidence, Risk};

use super::{Classification, Classifier, ClassifierError, Review};
use crate::policy::PolicyEvaluator;
use crate::policy::codes as policy;
use crate::shell;

/// The model id the embedded reviewer reports as `reviewerModel`.
pub const HEURISTIC_MODEL_ID: &str = "warrant/heuristic-v1";

/// Development tools and the subcommands that build, check, test or format a project.
const DEV_TOOLS: &[(&str, &[&str])] = &[
    (
        "cargo",
        &[
            "build", "check", "test", "clippy", "fmt", "doc", "bench", "run", "tree", "metadata",
            "nextest",
        ],
    ),
    ("npm", &["test", "run", "ci", "ls", "audit", "outdated"]),
    ("pnpm", &["test", "run", "ls", "lint", "build"]),
    ("yarn", &["test", "run", "lint", "build"]),
    ("bun", &["test", "run"]),
    ("go", &["build", "test", "vet", "fmt", "run", "list", "mod"]),
    ("make", &[]),
    ("just", &[]),
    ("mvn", &["test", "compile", "package", "verify"]),
    ("gradle", &["test", "build", "check"]),
    ("dotnet", &["build", "test", "format"]),
    ("pytest", &[]),
    ("jest", &[]),
    ("vitest", &[]),
    ("tsc", &[]),
    ("eslint", &[]),
    ("prettier", &[]),
    ("ruff", &[]),
    ("black", &[]),
    ("mypy", &[]),
    ("rustfmt", &[]),
];

/// Words in a tool's name that suggest it only reads.
const READ_WORDS: &[&str] = &[
    "get",
    "list",
    "read",
    "search",
    "find",
    "fetch",
    "query",
    "show",
    "view",
    "status",
    "describe",
    "lookup",
    "hover",
    "definition",
    "references",
    "symbols",
    "diff",
    "log",
];

/// Words in a tool's name that suggest it changes something outside the agent.
const CHANGE_WORDS: &[&str] = &[
    "delete", "remove", "drop", "destroy", "purge", "deploy", "publish", "push", "send", "email",
    "pay", "transfer", "write", "create", "update", "exec", "run", "kill", "merge",
];

/// Reviews with fixed rules: routine workspace edits and project builds are allowed, anything
/// reaching outside the workspace or the machine is escalated.
#[derive(Debug, Clone)]
pub struct HeuristicClassifier {
    policy: PolicyEvaluator,
}

impl HeuristicClassifier {
    /// A reviewer that reads calls the way `policy` does.
    pub fn new(policy: PolicyEvaluator) -> Self {
        Self { policy }
    }
}

fn verdict(
    behavior: Behavior,
    risk: Risk,
    confidence: Confidence,
    category: &str,
    reason: String,
) -> Classification {
    Classification {
        behavior,
        risk,
        confidence,
        risk_categories: if category.is_empty() {
            Vec::new()
        } else {
            vec![category.to_owned()]
        },
        reason,
    }
}

/// Whether every command that runs is a development tool doing routine work.
fn routine_builds(command: &str) -> bool {
    let Ok(script) = shell::parse(command) else {
        return false;
    };
    let mut any = false;
    for (_, cmd) in script.leaves() {
        let Some(program) = cmd.program() else {
            return false;
        };
        let sub = cmd
            .args()
            .iter()
            .find_map(|w| w.literal().filter(|t| !t.starts_with('-')));
        let known = DEV_TOOLS.iter().find(|(p, _)| *p == program);
        match known {
            Some((_, subs)) if subs.is_empty() || sub.is_some_and(|s| subs.contains(&s)) => {
                any = true
            }
            // Parts the policy already reads as harmless do not spoil the build.
            _ if matches!(
                program,
                "cd" | "echo" | "true" | "ls" | "cat" | "grep" | "head" | "tail"
            ) => {}
            _ => return false,
        }
    }
    any
}

fn name_words(tool: &str) -> Vec<String> {
    tool.split(|c: char| !c.is_ascii_alphanumeric())
        .flat_map(|part| {
            // camelCase → camel, case
            let mut words = vec![String::new()];
            for c in part.chars() {
                if c.is_ascii_uppercase() && !words.last().is_some_and(String::is_empty) {
                    words.push(String::new());
                }
                if let Some(w) = words.last_mut() {
                    w.push(c.to_ascii_lowercase());
                }
            }
            words
        })
        .filter(|w| !w.is_empty())
        .collect()
}

/// A tool the policy knows nothing about, judged by its name.
fn by_name(tool: &str) -> Classification {
    let words = name_words(tool);
    let has = |list: &[&str]| words.iter().any(|w| list.contains(&w.as_str()));
    if has(CHANGE_WORDS) {
        verdict(
            Behavior::Ask,
            Risk::Medium,
            Confidence::Medium,
            "external_side_effect",
            format!(
                "`{tool}` looks like it changes something outside the workspace, so the user should confirm it."
            ),
        )
    } else if has(READ_WORDS) {
        verdict(
            Behavior::Allow,
            Risk::Low,
            Confidence::Medium,
            "",
            format!("`{tool}` looks like it only reads data, judging by its name."),
        )
    } else {
        verdict(
            Behavior::Ask,
            Risk::Medium,
            Confidence::Low,
            "unknown_tool",
            format!("Nothing tells what `{tool}` does, so the user should confirm it."),
        )
    }
}

#[async_trait]
impl Classifier for HeuristicClassifier {
    fn model_id(&self) -> &str {
        HEURISTIC_MODEL_ID
    }

    async fn classify(&self, review: &Review<'_>) -> Result<Classification, ClassifierError> {
        let call = review.call;
        let Some(finding) = self.policy.judge(call, review.context) else {
            return Ok(by_name(&call.tool_name));
        };
        let command = call
            .input
            .get("command")
            .and_then(Value::as_str)
            .unwrap_or_default();
        let risk = finding.risk;
        let c = match finding.code {
            policy::FILESYSTEM_WRITE_INSIDE_WORKSPACE => verdict(
                Behavior::Allow,
                risk,
                Confidence::High,
                "workspace_write",
                "A file edit inside the workspace is routine work.".to_owned(),
            ),
            policy::SHELL_WRITE if risk <= Risk::Medium => verdict(
                Behavior::Allow,
                risk,
                Confidence::Medium,
                "workspace_write",
                "The command changes files inside the workspace only.".to_owned(),
            ),
            policy::SHELL_WRITE => verdict(
                Behavior::Ask,
                risk,
                Confidence::Medium,
                "data_loss",
                "The command may discard work inside the workspace.".to_owned(),
            ),
            policy::SHELL_UNKNOWN_COMMAND
                if is_shell_tool(&call.tool_name) && routine_builds(command) =>
            {
                verdict(
                    Behavior::Allow,
                    Risk::Medium,
                    Confidence::Medium,
                    "code_execution",
                    "The command builds, checks or tests the project with its usual tools."
                        .to_owned(),
                )
            }
            policy::SHELL_UNKNOWN_COMMAND => verdict(
                Behavior::Ask,
                risk,
                Confidence::Low,
                "code_execution",
                "The command runs a program whose effects are not known.".to_owned(),
            ),
            policy::SHELL_NETWORK => verdict(
                Behavior::Ask,
                risk,
                Confidence::Medium,
                "network",
                "The command talks to other machines.".to_owned(),
            ),
            policy::SHELL_PRIVILEGED => verdict(
                Behavior::Ask,
                risk.max(Risk::High),
                Confidence::High,
                "privilege_escalation",
                "The command runs with raised privileges.".to_owned(),
            ),
            policy::FILESYSTEM_OUTSIDE_WORKSPACE => verdict(
                Behavior::Ask,
                risk,
                Confidence::High,
                "outside_workspace",
                "The call reaches outside the workspace.".to_owned(),
            ),
            policy::SHELL_UNPARSEABLE => verdict(
                Behavior::Ask,
                risk,
                Confidence::High,
                "unparseable",
                "The command cannot be read reliably.".to_owned(),
            ),
            _ => verdict(
                Behavior::Ask,
                risk,
                Confidence::Low,
                "",
                format!("The policy flagged this call ({}).", finding.code),
            ),
        };
        Ok(c)
    }
}
