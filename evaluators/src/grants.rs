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

/// Keys grants narrowly: a grant covers what its label shows, and nothing wider.
///
/// - a shell command: one key per command that runs, its words exactly as approved
///   (`git push origin main`, never `git push` with other options, remotes or
///   repositories), with the directory it runs in when a `cd` moved it; a part that cannot
///   be read keys the whole command text;
/// - a file tool: the tool and the directory of the file (`"Edit" calls on "src/"`, files
///   directly in that directory; Warrant's and the agents' configuration stays a hard deny
///   whatever a grant covers);
/// - a shell call with a field that moves where or how its command runs (`workdir`, `cwd`,
///   `dir_path`, `env`, any field the policy does not model): its whole input, so a grant
///   given without such a field covers no call with one, and one given with it only the
///   same input;
/// - a tool with a `url`: the tool and the URL's host as parsed (`https://docs.rs/…` →
///   `docs.rs`); a URL without a host (`file:`) is keyed whole, and so is a request other
///   than a plain read (a `method` but `GET`/`HEAD`, a body, headers, data or any other
///   field);
/// - any other tool: the tool.
///
/// Every key names the workspace it was given in: a grant never covers a call of another
/// workspace served from the same data directory.
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

    /// `vector`: the command was given as an argument vector ([`shell::parse_given`]).
    fn shell_keys(
        &self,
        command: &str,
        vector: bool,
        cx: Option<&EvaluationContext>,
    ) -> Vec<GrantKey> {
        let exact = || vec![self.key(SHELL_TOOL, Some(exact_spec(command)))];
        let parsed = match cx {
            Some(cx) => shell::parse_in(cx, command, vector),
            None => std::sync::Arc::new(shell::parse_given(command, WorkingDir::Root, vector)),
        };
        let Ok(script) = &*parsed else {
            return exact();
        };
        // What a command reads on its standard input from a file, a here-document or a
        // here-string (`python3 - < a.rs`, `sh <<EOF`) is part of what it does: the key is
        // the whole command.
        if !script.unreadable.is_empty() || command.contains("<<") {
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
            // A `cd` only moves the shell: the keys of what then runs name the directory.
            let moves = matches!(cmd.program(), Some("cd" | "pushd" | "popd"))
                && cmd.words.iter().all(|w| w.literal().is_some());
            if cmd.words.is_empty() || moves {
                continue;
            }
            let Some(runners) = runner_words(script, i) else {
                return exact();
            };
            let Some(spec) = command_key(cmd, &runners) else {
                return exact();
            };
            let key = self.key(SHELL_TOOL, Some(spec));
            if !keys.contains(&key) {
                keys.push(key);
            }
        }
        if keys.is_empty() { exact() } else { keys }
    }

    /// A key of this scoper's workspace.
    fn key(&self, tool: &str, specifier: Option<String>) -> GrantKey {
        GrantKey {
            tool_name: tool.to_owned(),
            specifier,
            workspace: Some(self.root.to_string_lossy().into_owned()),
        }
    }

    /// The key of a path itself, as named from the workspace (or absolute), with `suffix`
    /// (`/**` for a tree).
    fn path_key(&self, tool: &str, raw: &str, suffix: &str) -> GrantKey {
        let places = Places::new(&self.root, self.home.as_deref(), None);
        let located = places.locate(raw, &WorkingDir::Root);
        let spec = match places.relative(&located.path) {
            Some(rel) if rel.as_os_str().is_empty() => format!(".{suffix}"),
            Some(rel) => format!("{}{suffix}", rel.display()),
            None => format!(
                "{}{suffix}",
                located.path.display().to_string().trim_end_matches('/')
            ),
        };
        self.key(tool, Some(spec))
    }

    /// Whether a path is a file that runs code later or instructs an agent, by its name or
    /// where it resolves.
    fn runs_code_later(&self, raw: &str) -> bool {
        let places = Places::new(&self.root, self.home.as_deref(), None);
        let located = places.locate(raw, &WorkingDir::Root);
        let resolved = match places.relative(&located.path) {
            Some(rel) => rel.to_string_lossy().into_owned(),
            None => located.path.to_string_lossy().into_owned(),
        };
        crate::classifier::runs_code_later(raw) || crate::classifier::runs_code_later(&resolved)
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
        self.key(tool, Some(spec))
    }
}

/// The fields of a shell tool's input that change what its command does besides the
/// command itself (a directory, an environment, a field the policy does not model), with the
/// command, when there is one; `None` when the input holds only the command and fields that
/// change nothing.
fn shell_fields(input: &Value) -> Option<serde_json::Map<String, Value>> {
    let Value::Object(map) = input else {
        return None;
    };
    let harmless = |k: &str| {
        crate::policy::SHELL_FIELDS.contains(&k) || (k == "cmd" && !map.contains_key("command"))
    };
    if map.keys().all(|k| harmless(k)) {
        return None;
    }
    Some(
        map.iter()
            .filter(|(k, _)| !harmless(k) || matches!(k.as_str(), "command" | "cmd"))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect(),
    )
}

/// The key of a whole command line: its text, trimmed. A text that reads as a JSON object is
/// keyed as the input `{"command": TEXT}` would be, so that no command line shares its key
/// with a whole input that has more fields (a directory, an environment), nor reads as one.
fn exact_spec(command: &str) -> String {
    let text = command.trim();
    if serde_json::from_str::<serde_json::Map<String, Value>>(text).is_ok() {
        return serde_json::json!({ "command": text }).to_string();
    }
    text.to_owned()
}

/// How a grant keyed by a shell call's whole input (see [`shell_fields`]) reads in an approval
/// action, every field shown: `"make test" commands run in "/tmp"`, `"ls" commands with env
/// {"A":"1"}`; `None` for a key that is not a whole input.
fn describe_whole_input(spec: &str) -> Option<String> {
    let fields: serde_json::Map<String, Value> = serde_json::from_str(spec).ok()?;
    let input = Value::Object(fields);
    let line = warrant_core::catalog::shell_command(&input);
    let read = match (&line, input.get("command")) {
        (None, _) => None,
        (Some(_), Some(_)) => Some("command"),
        (Some(_), None) => Some("cmd"),
    };
    let mut parts: Vec<String> = Vec::new();
    for (field, value) in input.as_object()? {
        if Some(field.as_str()) == read {
            continue;
        }
        let shown = value.to_string();
        if warrant_core::catalog::SHELL_DIRECTORY_FIELDS.contains(&field.as_str()) {
            parts.push(format!("run in {shown} (`{field}`)"));
        } else {
            parts.push(format!("with `{field}` {shown}"));
        }
    }
    let what = match line {
        Some(line) if warrant_core::catalog::shell_command_is_vector(&input) => {
            format!("\"{line}\" commands (an argument vector)")
        }
        Some(line) => format!("\"{line}\" commands"),
        None => "shell calls".to_owned(),
    };
    Some(if parts.is_empty() {
        what
    } else {
        format!("{what} {}", parts.join(", "))
    })
}

/// Whether a URL tool's input is a plain read of its URL: a `method`, when given, `GET` or
/// `HEAD`, and otherwise only the fields a host rule covers (no body, headers or data; see
/// [`crate::rule::plain_fetch`]).
fn plain_fetch(input: &Value) -> bool {
    let Value::Object(map) = input else {
        return false;
    };
    let read = map.get("method").is_none_or(|m| {
        m.as_str()
            .is_some_and(|m| m.eq_ignore_ascii_case("GET") || m.eq_ignore_ascii_case("HEAD"))
    });
    let mut rest = map.clone();
    rest.remove("method");
    read && crate::rule::plain_fetch(&Value::Object(rest))
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
    let reads_stdin = cmd
        .redirects
        .iter()
        .any(|r| r.kind == shell::RedirectKind::Read);
    !writes && !reads_stdin && cmd.assignments.is_empty() && first_is_bare && args_plain
}

/// The words of the privileged runners the command at `index` runs under (`sudo -u nobody`,
/// `sudo --preserve-env=PATH`, `doas`, `setpriv --reuid=1000`), outermost first, each with
/// every option it is given: they choose the user, the environment and the root the command
/// runs with, so a grant for `sudo make test` covers no `sudo -u nobody make test` nor
/// `sudo -E make test`. `None` when a runner's own words cannot be told apart from what it
/// runs (`su -c CODE`), when another wrapper's options are not modeled (a login shell
/// `bash -lc CMD` typed into the command, which first runs the person's start-up files), or
/// when the command runs raised with no runner found.
fn runner_words(script: &shell::Script, index: usize) -> Option<Vec<String>> {
    let leaf = script.commands.get(index)?;
    let mut runners: Vec<String> = Vec::new();
    let mut child = leaf;
    for (_, wrapper) in script.ancestors(index) {
        if wrapper.program().is_some_and(shell::is_privileged_runner) {
            // The wrapper's words before those of the command it runs.
            let own = wrapper.words.len().checked_sub(child.words.len())?;
            let runs_child = wrapper.words[own..]
                .iter()
                .zip(&child.words)
                .all(|(a, b)| a.literal().is_some() && a.literal() == b.literal());
            if !runs_child || own == 0 {
                return None;
            }
            let words: Vec<String> = wrapper.words[..own]
                .iter()
                .map(|w| w.literal().map(quoted))
                .collect::<Option<_>>()?;
            runners.splice(0..0, words);
        } else if matches!(
            crate::programs::model(wrapper),
            crate::programs::Model::Unmodeled(_)
        ) {
            // A wrapper whose options change how the command runs in a way not modeled.
            return None;
        }
        child = wrapper;
    }
    if leaf.elevated && runners.is_empty() {
        return None;
    }
    Some(runners)
}

/// One command's key: the privileged runners it runs under (see [`runner_words`]), then its
/// words exactly (quoted where the shell would need it), with the directory a `cd` moved it
/// to; `None` when a word or the directory is only known at run time, or the command is given
/// more words when it runs.
fn command_key(cmd: &SimpleCommand, runners: &[String]) -> Option<String> {
    if cmd.extra_args {
        return None;
    }
    let words: Vec<String> = cmd
        .words
        .iter()
        .map(|w| w.literal().map(quoted))
        .collect::<Option<_>>()?;
    let mut spec = words.join(" ");
    if !runners.is_empty() {
        spec = format!("{} {spec}", runners.join(" "));
    }
    match &cmd.cwd {
        WorkingDir::Root => {}
        WorkingDir::Dir(dir) => spec = format!("cd {} && {spec}", quoted(dir)),
        WorkingDir::Unknown => return None,
    }
    Some(spec)
}

/// A word as the shell would need it written to stay one word.
fn quoted(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./:=@%+,^".contains(c));
    if plain {
        word.to_owned()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
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
            // A field that moves where the command runs or what it runs with (`workdir`,
            // `cwd`, `dir_path`, `env`, any the policy does not model): only this very input,
            // its fields that change nothing aside.
            if let Some(fields) = shell_fields(&call.input) {
                return vec![self.key(SHELL_TOOL, Some(Value::Object(fields).to_string()))];
            }
            let vector = warrant_core::catalog::shell_command_is_vector(&call.input);
            return match warrant_core::catalog::shell_command(&call.input) {
                Some(command) => self.shell_keys(&command, vector, cx),
                None => vec![self.key(SHELL_TOOL, Some(call.input.to_string()))],
            };
        }
        if filesystem::access(tool, &self.catalog).is_some() {
            let paths = filesystem::paths(&call.input);
            if !paths.is_empty() {
                // A field that may move where the tool reads or writes: only this very input.
                if !filesystem::modeled_input(tool, &call.input, &self.catalog) {
                    return vec![self.key(tool, Some(call.input.to_string()))];
                }
                // Every directory the call names, each one needed (a patch, a move). A search
                // is keyed by the tree it searches: a grant for one tree covers no other, nor
                // its parent's other trees (one may hold a secret). A file that runs code later
                // or instructs an agent (CI, hooks, shell start-up, toolchain selectors,
                // agent instructions) is keyed by itself: a grant for its directory's ordinary
                // files does not cover it.
                let search = filesystem::is_search(tool);
                let mut keys: Vec<GrantKey> = Vec::new();
                for raw in &paths {
                    let key = if search {
                        self.path_key(tool, raw, "/**")
                    } else if self.runs_code_later(raw) {
                        self.path_key(tool, raw, "")
                    } else {
                        self.directory_key(tool, raw)
                    };
                    if !keys.contains(&key) {
                        keys.push(key);
                    }
                }
                return keys;
            }
        }
        if let Some(url) = call.input.get("url").and_then(Value::as_str) {
            // A request that is not a plain read of the URL (another method, a body, headers,
            // any field but those of a fetch): only this very input.
            if !plain_fetch(&call.input) {
                return vec![self.key(tool, Some(call.input.to_string()))];
            }
            let web = url.get(..8).is_some_and(|p| {
                p.eq_ignore_ascii_case("https://") || p[..7].eq_ignore_ascii_case("http://")
            });
            let spec = match crate::rule::host_of(url) {
                Some(host) if web => host,
                _ => url.to_owned(),
            };
            return vec![self.key(tool, Some(spec))];
        }
        vec![self.key(tool, None)]
    }

    fn describe_keys(&self, keys: &[GrantKey]) -> String {
        if let [key] = keys
            && is_shell_tool(&key.tool_name)
            && let Some(whole) = key.specifier.as_deref().and_then(describe_whole_input)
        {
            return whole;
        }
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
