//! Grant keys: the canonical form of what a `session` or `global` approval covers, so that the
//! approval request can say how broad the grant will be before the user confirms.

use std::path::{Path, PathBuf};

use serde_json::Value;
use warrant_core::call::ToolCall;
use warrant_core::catalog::{SHELL_TOOL, ToolCatalog, is_shell_tool};
use warrant_core::grant::{GrantKey, GrantScoper};

use crate::paths::Places;
use crate::policy::filesystem;
use crate::shell::{self, SimpleCommand, WorkingDir};
use warrant_core::call::EvaluationContext;

/// Programs whose first positional argument names what they do (`git push`, `npm run`).
const WITH_SUBCOMMANDS: &[&str] = &[
    "git",
    "npm",
    "pnpm",
    "yarn",
    "bun",
    "cargo",
    "go",
    "docker",
    "podman",
    "kubectl",
    "helm",
    "terraform",
    "gh",
    "pip",
    "pip3",
    "uv",
    "poetry",
    "dotnet",
    "make",
    "just",
    "brew",
    "apt",
    "apt-get",
    "dnf",
    "yum",
    "systemctl",
    "rustup",
    "deno",
    "mvn",
    "gradle",
    "npx",
    "bundle",
    "rake",
    "composer",
    "mix",
    "aws",
    "gcloud",
    "az",
];

/// Options of `git` that take the next word.
const GIT_WITH_VALUE: &[&str] = &["-C", "-c", "--git-dir", "--work-tree", "--namespace"];

/// Keys grants narrowly, by meaning:
///
/// - a shell command: one key per command that runs, its program and subcommand
///   (`git push`, `npm run`, `python build.py`, `sudo apt`), never every command; a part that
///   cannot be read keys the whole command text;
/// - a file tool: the tool and the directory of the file (`"Edit" calls on "src/"`, files
///   directly in that directory);
/// - a tool with a `url`: the tool and the URL's host;
/// - any other tool: the tool.
#[derive(Debug, Clone)]
pub struct CanonicalGrantScoper {
    root: PathBuf,
    home: Option<PathBuf>,
    catalog: ToolCatalog,
}

impl CanonicalGrantScoper {
    /// A scoper for the workspace at `root`, with `~` standing for `home`.
    pub fn new(root: impl Into<PathBuf>, home: Option<PathBuf>) -> Self {
        Self {
            root: root.into(),
            home,
            catalog: ToolCatalog::builtin(),
        }
    }

    fn shell_keys(&self, command: &str, cx: Option<&EvaluationContext>) -> Vec<GrantKey> {
        let exact = || vec![shell_key(command.trim())];
        let parsed = match cx {
            Some(cx) => shell::parse_in(cx, command),
            None => std::sync::Arc::new(shell::parse(command)),
        };
        let Ok(script) = &*parsed else {
            return exact();
        };
        if !script.unreadable.is_empty() {
            return exact();
        }
        let mut keys: Vec<GrantKey> = Vec::new();
        for (i, cmd) in script.leaves() {
            let plain = std::iter::once(cmd)
                .chain(script.ancestors(i).map(|(_, c)| c))
                .all(generalizable);
            if !plain {
                return exact();
            }
            if cmd.words.is_empty() {
                continue;
            }
            let Some(mut spec) = command_key(cmd) else {
                return exact();
            };
            if cmd.elevated {
                spec = format!("sudo {spec}");
            }
            let key = shell_key(&spec);
            if !keys.contains(&key) {
                keys.push(key);
            }
        }
        if keys.is_empty() { exact() } else { keys }
    }

    fn directory_key(&self, tool: &str, raw: &str) -> GrantKey {
        let places = Places::new(&self.root, self.home.as_deref(), None);
        let located = places.locate(raw, &WorkingDir::Root);
        let dir = located
            .path
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_default();
        let spec = match places.relative(&dir) {
            Some(rel) if rel.as_os_str().is_empty() => "./".to_owned(),
            Some(rel) => format!("{}/", rel.display()),
            None => format!("{}/", dir.display().to_string().trim_end_matches('/')),
        };
        GrantKey {
            tool_name: tool.to_owned(),
            specifier: Some(spec),
        }
    }
}

fn shell_key(spec: &str) -> GrantKey {
    GrantKey {
        tool_name: SHELL_TOOL.to_owned(),
        specifier: Some(spec.to_owned()),
    }
}

/// `program subcommand` of one command; `None` when the text does not tell.
/// Whether a command may be widened to a program/subcommand key: no assignments (`PATH=…`,
/// `env LD_PRELOAD=…`), no write redirection but to `/dev/null`, no `git -c`/`--exec-path`/
/// `--git-dir`/`--work-tree`/`--config-env`, and a first word that is a bare name.
fn generalizable(cmd: &SimpleCommand) -> bool {
    let writes = cmd
        .redirects
        .iter()
        .any(|r| r.kind == shell::RedirectKind::Write && r.target.literal() != Some("/dev/null"));
    let first_is_bare = cmd
        .words
        .first()
        .is_none_or(|w| w.literal().is_some_and(|t| !t.contains('/')));
    let risky_arg = |t: &str| match cmd.program() {
        Some("env") => t.contains('='),
        Some("git") => [
            "-c",
            "--exec-path",
            "--git-dir",
            "--work-tree",
            "--config-env",
        ]
        .iter()
        .any(|p| t.starts_with(p)),
        _ => false,
    };
    let args_plain = cmd.args().iter().all(|w| {
        w.literal().is_some_and(|t| !risky_arg(t)) || !matches!(cmd.program(), Some("env" | "git"))
    });
    !writes && cmd.assignments.is_empty() && first_is_bare && args_plain
}

fn command_key(cmd: &SimpleCommand) -> Option<String> {
    let program = cmd.program()?;
    let args = cmd.args();
    let first_positional = |skip_values: &[&str]| {
        let mut i = 0;
        while let Some(w) = args.get(i) {
            match w.literal() {
                Some(t) if skip_values.contains(&t) => i += 2,
                Some(t) if t.starts_with('-') => i += 1,
                _ => return Some(w),
            }
        }
        None
    };
    if WITH_SUBCOMMANDS.contains(&program) {
        let values = if program == "git" {
            GIT_WITH_VALUE
        } else {
            &[]
        };
        return match first_positional(values) {
            Some(sub) => sub.literal().map(|s| format!("{program} {s}")),
            None => Some(program.to_owned()),
        };
    }
    if shell::INTERPRETERS.contains(&program) {
        let inline = args
            .iter()
            .any(|w| matches!(w.literal(), Some("-c" | "-e" | "-E" | "-r" | "--eval")));
        if inline {
            let words: Option<Vec<&str>> = cmd.literals().collect();
            return words.map(|w| w.join(" "));
        }
        return match first_positional(&[]) {
            Some(script) => script.literal().map(|s| format!("{program} {s}")),
            None => Some(program.to_owned()),
        };
    }
    Some(program.to_owned())
}

impl GrantScoper for CanonicalGrantScoper {
    fn keys(&self, call: &ToolCall) -> Vec<GrantKey> {
        self.keys_of(call, None)
    }

    fn keys_in(&self, call: &ToolCall, cx: &EvaluationContext) -> Vec<GrantKey> {
        self.keys_of(call, Some(cx))
    }

    fn describe(&self, keys: &[GrantKey]) -> String {
        self.describe_keys(keys)
    }
}

impl CanonicalGrantScoper {
    fn keys_of(&self, call: &ToolCall, cx: Option<&EvaluationContext>) -> Vec<GrantKey> {
        let tool = call.tool_name.as_str();
        if is_shell_tool(tool) {
            return match warrant_core::catalog::shell_command(&call.input) {
                Some(command) => self.shell_keys(&command, cx),
                None => vec![shell_key(&call.input.to_string())],
            };
        }
        if filesystem::access(tool, &self.catalog).is_some()
            && let Some(raw) = filesystem::paths(&call.input).first()
        {
            return vec![self.directory_key(tool, raw)];
        }
        if let Some(url) = call.input.get("url").and_then(Value::as_str) {
            let host = url
                .split("://")
                .nth(1)
                .unwrap_or(url)
                .split(['/', '?', '#'])
                .next()
                .unwrap_or(url);
            return vec![GrantKey {
                tool_name: tool.to_owned(),
                specifier: Some(host.to_owned()),
            }];
        }
        vec![GrantKey {
            tool_name: tool.to_owned(),
            specifier: None,
        }]
    }

    fn describe_keys(&self, keys: &[GrantKey]) -> String {
        let shell_specs: Option<Vec<String>> = keys
            .iter()
            .map(|k| {
                k.specifier
                    .as_ref()
                    .filter(|_| is_shell_tool(&k.tool_name))
                    .map(|s| format!("\"{s}\""))
            })
            .collect();
        match shell_specs {
            Some(specs) if specs.len() > 1 => {
                let (last, rest) = specs.split_last().unwrap_or((&specs[0], &[]));
                format!("{} and {last} commands", rest.join(", "))
            }
            _ => keys
                .iter()
                .map(GrantKey::describe)
                .collect::<Vec<_>>()
                .join(" and "),
        }
    }
}
