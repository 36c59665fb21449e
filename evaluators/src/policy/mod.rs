//! The `policy` evaluator: deterministic checks of input validity, shell commands and file
//! access, answering with `validation_*`, `shell_*`, `filesystem_*` and `read_only_*` codes.

mod agent_tools;
pub mod codes;
pub(crate) mod filesystem;
pub(crate) mod finding;
pub(crate) mod shell;
mod validation;

use std::path::PathBuf;

use async_trait::async_trait;
use serde::Deserialize;
use warrant_core::call::{EvaluationContext, ToolCall};
use warrant_core::catalog::{SHELL_TOOL, is_shell_tool};
use warrant_core::decision::{PermissionDecisionSource, Risk};
use warrant_core::evaluator::{Evaluator, EvaluatorError, Stance, Verdict};

use crate::error::ConfigError;
use crate::paths::{Places, SensitivePaths};
use codes::VALIDATION_INVALID_INPUT;
use finding::Finding;

/// The name the policy evaluator goes by in traces and configuration.
pub const NAME: &str = "policy";

/// How the policy evaluator is set up. Every field has a safe default.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PolicyConfig {
    /// The home directory `~` stands for (the `HOME` environment variable by default).
    pub home_dir: Option<PathBuf>,
    /// More secrets to protect, as globs matched against absolute paths (a glob without a
    /// leading `/` or `**` matches at any depth: `secrets/**`).
    pub sensitive_paths: Vec<String>,
    /// More configuration no call may write, besides Warrant's own and the agents' settings
    /// files (`warrant.toml`, `.warrant/`, `.claude/settings.json`, …): globs as for
    /// `sensitive_paths`. `warrant` adds its data directory and configuration file.
    pub protected_paths: Vec<String>,
}

impl PolicyConfig {
    /// The home directory `~` stands for: the configured one, else `HOME`.
    pub fn home(&self) -> Option<PathBuf> {
        self.home_dir
            .clone()
            .or_else(|| crate::process_env::var("HOME").map(|h| PathBuf::from(&*h)))
    }
}

/// Judges shell commands, file access and input validity without asking anyone.
///
/// Hard denies (invalid input, destructive commands, secrets) hold in every mode; reads
/// inside the workspace are allowed; writes and anything outside the workspace stay open for
/// the permission mode to settle. Tools it knows nothing about are left to the others.
#[derive(Debug, Clone)]
pub struct PolicyEvaluator {
    home: Option<PathBuf>,
    sensitive: SensitivePaths,
}

impl PolicyEvaluator {
    /// A policy evaluator.
    ///
    /// # Errors
    ///
    /// [`ConfigError::SensitivePath`] when a configured glob does not compile.
    pub fn new(config: &PolicyConfig) -> Result<Self, ConfigError> {
        let sensitive =
            SensitivePaths::with_protected(&config.sensitive_paths, &config.protected_paths)?;
        Ok(Self {
            home: config.home(),
            sensitive,
        })
    }

    /// The home directory `~` stands for, when known.
    pub fn home_dir(&self) -> Option<&std::path::Path> {
        self.home.as_deref()
    }

    /// What the policy finds about a call, if anything.
    pub(crate) fn judge(&self, call: &ToolCall, cx: &EvaluationContext) -> Option<Finding> {
        self.judge_all(call, cx).map(|(decided, _)| decided)
    }

    /// What the policy finds about a call: the finding that decides, and every finding about
    /// every part of it (the reviewer weighs them all).
    pub(crate) fn judge_all(
        &self,
        call: &ToolCall,
        cx: &EvaluationContext,
    ) -> Option<(Finding, Vec<Finding>)> {
        let one = |f: Finding| (f.clone(), vec![f]);
        let tool = call.tool_name.as_str();
        let shell_tool = is_shell_tool(tool);
        // Codex's `exec_command` names its command `cmd`: read as `command` when that is the
        // only one.
        let renamed = shell_tool
            .then(|| call.input.as_object())
            .flatten()
            .filter(|m| !m.contains_key("command"))
            .and_then(|m| {
                let cmd = m.get("cmd")?;
                let mut m = m.clone();
                m.remove("cmd");
                m.insert("command".to_owned(), cmd.clone());
                Some(serde_json::Value::Object(m))
            });
        let given = renamed.as_ref().unwrap_or(&call.input);
        // Another agent's shell tool may give its command as an argument vector: it is
        // validated and judged as the line it stands for.
        let command = shell_tool
            .then(|| warrant_core::catalog::shell_command(given))
            .flatten();
        // An argument vector is validated as the line it stands for; a string is left as is.
        // Only the input tells a vector: the same line typed as a string is a shell the
        // command starts (`'bash' '-lc' …` reads the person's start-up files), never the
        // runtime's own.
        let vector = shell_tool && warrant_core::catalog::shell_command_is_vector(given);
        let input = match (&command, given.as_object()) {
            (Some(c), Some(map)) if vector => {
                let mut map = map.clone();
                map.insert("command".to_owned(), serde_json::Value::String(c.clone()));
                std::borrow::Cow::Owned(serde_json::Value::Object(map))
            }
            _ => std::borrow::Cow::Borrowed(given),
        };
        let catalog_id = if shell_tool { SHELL_TOOL } else { tool };
        if let Some(schema) = cx
            .catalog
            .get(catalog_id)
            .and_then(|t| t.input_schema.as_ref())
            && let Err(problem) = validation::check(schema, &input)
        {
            return Some(one(invalid(tool, &problem)));
        }
        let places = self.places(cx);
        if shell_tool {
            let start = shell_start(&input);
            let (mut decided, mut all) = match &command {
                Some(command) => shell::judge_command(cx, command, vector, &places, &start),
                None => one(invalid(tool, "field \"command\" must be a string")),
            };
            // Working-directory fields that are not one directory (not text, or several
            // naming different ones): where the command runs is not read, so no mode settles
            // it (its hard denies were judged against an unknown directory).
            if start == crate::shell::WorkingDir::Unknown {
                all.push(Finding::new(
                    Stance::RequireAsk,
                    codes::SHELL_UNKNOWN_COMMAND,
                    Risk::High,
                    format!("`{tool}` names its working directory in a way that is not read."),
                ));
                decided = finding::most_restrictive(all.iter().cloned()).unwrap_or(decided);
            }
            // A runtime detaches a command it is asked to run in the background, as `&` with
            // no `wait` does: it may keep running after the call ends.
            if ["run_in_background", "is_background"]
                .iter()
                .filter_map(|f| input.get(*f))
                .any(|v| !matches!(v, serde_json::Value::Null | serde_json::Value::Bool(false)))
            {
                all.push(Finding::new(
                    Stance::DefaultAsk,
                    codes::SHELL_UNPARSEABLE,
                    Risk::Medium,
                    format!(
                        "`{tool}` runs its command in the background: it may keep running after the call ends."
                    ),
                ));
                decided = finding::most_restrictive(all.iter().cloned()).unwrap_or(decided);
            }
            // Codex applies a patch given to `apply_patch` on its shell tool itself (as an
            // argument or a here-document): every file the patch names is written.
            if let Some(command) = &command
                && let Some(patch) = shell_patch(command)
                && let Some(found) = filesystem::judge("apply_patch", &patch, &cx.catalog, &places)
            {
                all.push(found);
                decided = finding::most_restrictive(all.iter().cloned()).unwrap_or(decided);
            }
            // A second command in another field a runtime may run instead (`cmd`, `script`):
            // its hard denies hold, and the call asks in every mode.
            if let Some(map) = input.as_object() {
                for (field, value) in map {
                    // Beside `command`, any field another shell tool gives its command in.
                    // `input` is Codex's patch for `apply_patch` (judged above); any other
                    // text there may be a command.
                    let patch_input = field == "input"
                        && value
                            .as_str()
                            .is_some_and(|v| v.trim_start().starts_with("*** Begin Patch"));
                    if field == "command"
                        || patch_input
                        || !COMMAND_FIELDS.contains(&field.as_str())
                    {
                        continue;
                    }
                    let lines = shell_like_commands(&serde_json::json!({ "command": value }));
                    for line in lines {
                        let (first, found) =
                            shell::judge_command(cx, &line, false, &places, &start);
                        all.extend(
                            std::iter::once(first)
                                .chain(found)
                                .filter(|f| f.stance == Stance::HardDeny),
                        );
                    }
                    all.push(Finding::new(
                        Stance::RequireAsk,
                        codes::SHELL_UNKNOWN_COMMAND,
                        Risk::High,
                        format!(
                            "`{tool}` names a second command in `{field}`, which a runtime may run instead."
                        ),
                    ));
                    decided = finding::most_restrictive(all.iter().cloned()).unwrap_or(decided);
                }
            }
            let unknown_field = input.as_object().and_then(|m| {
                m.keys().find(|k| {
                    !SHELL_FIELDS.contains(&k.as_str())
                        && !warrant_core::catalog::SHELL_DIRECTORY_FIELDS.contains(&k.as_str())
                })
            });
            let Some(field) = unknown_field else {
                return Some((decided, all));
            };
            // Binding: a field naming a directory or an environment (`working_directory`,
            // `env`) changes what every part of the command does, which nothing judged.
            all.push(Finding::new(
                Stance::RequireAsk,
                codes::SHELL_UNKNOWN_COMMAND,
                Risk::High,
                format!(
                    "`{tool}` has an input field `{field}` the policy does not model (a \
                     directory or environment it would run in)."
                ),
            ));
            let decided = finding::most_restrictive(all.iter().cloned()).unwrap_or(decided);
            return Some((decided, all));
        }
        if warrant_core::catalog::may_be_shell_tool(tool)
            && filesystem::access_of(tool, &call.input, &cx.catalog).is_none()
        {
            return Some(self.judge_shell_like(tool, &call.input, cx, &places));
        }
        if let Some(found) = agent_tools::judge(tool, &call.input, cx, &places) {
            return Some(one(found));
        }
        filesystem::judge(tool, &call.input, &cx.catalog, &places).map(one)
    }

    /// A tool that may run shell commands without being a shell tool the policy knows
    /// (`mcp__x__bash`, `BASH`, `run_command`): never allowed by the policy, but every command
    /// its input holds is judged, and what would be a hard deny on the shell tool is one here.
    fn judge_shell_like(
        &self,
        tool: &str,
        input: &serde_json::Value,
        cx: &EvaluationContext,
        places: &Places<'_>,
    ) -> (Finding, Vec<Finding>) {
        let mut all = vec![Finding::new(
            Stance::DefaultAsk,
            codes::SHELL_UNKNOWN_COMMAND,
            Risk::High,
            format!(
                "`{tool}` may run shell commands, and it is not a shell tool the policy knows."
            ),
        )];
        let start = shell_start(input);
        for line in shell_like_commands(input) {
            let (decided, found) = shell::judge_command(cx, &line, false, places, &start);
            all.extend(
                std::iter::once(decided)
                    .chain(found)
                    .filter(|f| f.stance == Stance::HardDeny),
            );
        }
        if let Some(paths) = filesystem::judge(tool, input, &cx.catalog, places) {
            all.push(paths);
        }
        let decided =
            finding::most_restrictive(all.iter().cloned()).unwrap_or_else(|| all[0].clone());
        (decided, all)
    }

    /// Paths resolved for the call's workspace.
    pub(crate) fn places<'a>(&'a self, cx: &EvaluationContext) -> Places<'a> {
        Places::new(
            &cx.workspace_root,
            self.home.as_deref(),
            Some(&self.sensitive),
        )
        .sharing(cx)
    }
}

/// The patch a shell command hands to `apply_patch` (Codex's own edit command), as that
/// tool's input; `None` when the command names no such patch.
fn shell_patch(command: &str) -> Option<serde_json::Value> {
    // The marker first: most commands hold none, and one search then settles it.
    let runs = command.as_bytes().contains(&b'*')
        && command.contains("*** Begin Patch")
        && ["apply_patch", "applypatch"]
            .iter()
            .any(|p| command.contains(p));
    runs.then(|| serde_json::json!({ "input": command }))
}

/// The command lines the input of a tool that may run shell commands holds: a command (a
/// string or an argument vector) in any of the fields such tools use.
fn shell_like_commands(input: &serde_json::Value) -> Vec<String> {
    let mut out = Vec::new();
    for f in COMMAND_FIELDS {
        match input.get(*f) {
            Some(serde_json::Value::String(s)) => out.push(s.clone()),
            Some(v @ serde_json::Value::Array(items)) => {
                match warrant_core::catalog::shell_command(&serde_json::json!({ "command": v })) {
                    Some(line) => out.push(line),
                    None => out.extend(
                        items
                            .iter()
                            .filter_map(serde_json::Value::as_str)
                            .map(str::to_owned),
                    ),
                }
            }
            _ => {}
        }
    }
    out
}

/// The fields tools that may run shell commands give a command in.
const COMMAND_FIELDS: &[&str] = &[
    "command",
    "cmd",
    "commands",
    "script",
    "commandLine",
    "command_line",
    "args",
    "argv",
    "input",
    "code",
];

/// Input fields of shell tools that change nothing about what the command does.
pub(crate) const SHELL_FIELDS: &[&str] = &[
    "command",
    "description",
    "timeout",
    "timeout_ms",
    "run_in_background",
    "is_background",
    "requires_approval",
    "explanation",
    "justification",
    // Codex's `exec_command`: how long to wait and how much output to return.
    "yield_time_ms",
    "max_output_tokens",
];

/// The directory a shell tool runs its command in (Codex's `workdir`, `cwd`, Gemini's
/// `directory`): unknown when it is not a string or several fields name one.
pub(crate) fn shell_start(input: &serde_json::Value) -> crate::shell::WorkingDir {
    // A null field is no field; several fields naming one directory name it.
    let named: Vec<&serde_json::Value> = warrant_core::catalog::SHELL_DIRECTORY_FIELDS
        .iter()
        .filter_map(|f| input.get(*f))
        .filter(|v| !v.is_null())
        .collect();
    match named.as_slice() {
        [] => crate::shell::WorkingDir::Root,
        [first, rest @ ..] if rest.iter().all(|v| v == first) => first
            .as_str()
            .map_or(crate::shell::WorkingDir::Unknown, |d| {
                crate::shell::WorkingDir::Dir(d.to_owned())
            }),
        _ => crate::shell::WorkingDir::Unknown,
    }
}

fn invalid(tool: &str, problem: &str) -> Finding {
    Finding::new(
        Stance::HardDeny,
        VALIDATION_INVALID_INPUT,
        Risk::High,
        format!("Invalid input for \"{tool}\": {problem}."),
    )
}

#[async_trait]
impl Evaluator for PolicyEvaluator {
    fn name(&self) -> &str {
        NAME
    }

    fn source(&self) -> PermissionDecisionSource {
        PermissionDecisionSource::Policy
    }

    fn version(&self) -> Option<&str> {
        Some(crate::VERSION)
    }

    async fn evaluate(
        &self,
        call: &ToolCall,
        cx: &EvaluationContext,
    ) -> Result<Verdict, EvaluatorError> {
        Ok(self
            .judge(call, cx)
            .map_or(Verdict::Abstain, Finding::verdict))
    }
}
