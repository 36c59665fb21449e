//! The calls to check: JSON-lines corpora (`{"tool": "Bash", "input": {"command": "…"},
//! "expect": "allow", …}` per line) and generated commands.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::generate::{Generator, ProgramSpec};

/// What a call asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Request {
    /// A shell command (`Bash`, `bash`, `shell`).
    Shell(String),
    /// A file read (`view`).
    View(String),
    /// A tool the oracle cannot run.
    Other,
}

/// One call to decide and maybe run.
#[derive(Debug, Clone, PartialEq)]
pub struct Case {
    /// The tool id as given.
    pub tool: String,
    /// The call's input.
    pub input: Value,
    /// The corpus's expected behaviour, when it gives one (`allow`, `ask`, `deny`,
    /// `ask-or-deny`).
    pub expect: Option<String>,
    /// The permission mode the corpus meant the expectation for (the oracle decides in
    /// `default` mode, so expectations for other modes are not compared).
    pub mode: Option<String>,
    /// Where the call came from (`tests/corpus/x.jsonl:12`, `generated #5`).
    pub origin: String,
}

impl Case {
    /// A generated shell command.
    pub fn shell(command: String, origin: String) -> Self {
        Self {
            tool: "Bash".to_owned(),
            input: json!({ "command": command }),
            expect: None,
            mode: None,
            origin,
        }
    }

    /// Whether the decision meets the corpus's expectation; `None` when there is none to
    /// compare (no `expect`, or one meant for another mode).
    pub fn expectation_met(&self, allowed: bool, denied: bool) -> Option<bool> {
        let expect = self.expect.as_deref()?;
        if self.mode.as_deref().is_some_and(|m| m != "default") {
            return None;
        }
        Some(match expect {
            "allow" => allowed,
            "ask" => !allowed && !denied,
            "deny" => denied,
            _ => !allowed,
        })
    }

    /// What the call asks for.
    pub fn request(&self) -> Request {
        let field = |name: &str| {
            self.input
                .get(name)
                .and_then(Value::as_str)
                .map(str::to_owned)
        };
        match self.tool.as_str() {
            "Bash" | "bash" | "shell" => field("command").map_or(Request::Other, Request::Shell),
            "view" => field("path").map_or(Request::Other, Request::View),
            _ => Request::Other,
        }
    }

    /// The text the call is about (the command or the path), for reports.
    pub fn text(&self) -> String {
        match self.request() {
            Request::Shell(s) | Request::View(s) => s,
            Request::Other => self.input.to_string(),
        }
    }

    /// A key that is the same for the same call.
    pub fn key(&self) -> String {
        let tool = match self.request() {
            Request::Shell(_) => "Bash",
            _ => self.tool.as_str(),
        };
        format!("{tool}\u{0}{}", self.input)
    }
}

/// The `*.jsonl` files of `dir`, sorted; none when the directory does not exist.
pub fn corpus_files(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
        .collect();
    files.sort();
    files
}

/// Reads one corpus file.
///
/// # Errors
///
/// When the file cannot be read, or a line is not an object with a string `tool` and an
/// `input` (naming the file and line).
pub fn load(path: &Path) -> Result<Vec<Case>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let mut cases = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with("//") {
            continue;
        }
        let origin = format!("{}:{}", path.display(), i + 1);
        let value: Value =
            serde_json::from_str(line).map_err(|e| format!("{origin}: not JSON ({e})"))?;
        let tool = value
            .get("tool")
            .and_then(Value::as_str)
            .ok_or_else(|| format!("{origin}: no \"tool\""))?;
        let input = value
            .get("input")
            .cloned()
            .ok_or_else(|| format!("{origin}: no \"input\""))?;
        cases.push(Case {
            tool: tool.to_owned(),
            input,
            expect: value
                .get("expect")
                .and_then(Value::as_str)
                .map(str::to_owned),
            mode: value.get("mode").and_then(Value::as_str).map(str::to_owned),
            origin,
        });
    }
    Ok(cases)
}

/// `count` distinct generated shell commands from `seed` (fewer only if the grammar runs out
/// of new ones: after ten times as many attempts).
pub fn generated(seed: u64, count: usize, programs: Vec<ProgramSpec>) -> Vec<Case> {
    let mut generator = Generator::new(seed, programs);
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::with_capacity(count);
    for i in 0..count.saturating_mul(10) {
        if out.len() == count {
            break;
        }
        let command = generator.command();
        if seen.insert(command.clone()) {
            out.push(Case::shell(
                command,
                format!("generated #{i} (seed {seed})"),
            ));
        }
    }
    out
}

/// File-reading calls: paths inside the workspace, outside it, through symlinks and as URIs.
pub fn view_cases() -> Vec<Case> {
    [
        "README.md",
        "src/main.rs",
        "./docs/guide.md",
        "/home/agent/project/Cargo.toml",
        "src",
        ".",
        "link-out",
        "link-etc/passwd",
        "link-etc/shadow",
        "../.ssh/id_rsa",
        "~/.ssh/id_rsa",
        "~/.aws/credentials",
        "~/.bashrc",
        "/etc/shadow",
        "/etc/passwd",
        ".env",
        "server.key",
        "src/../.env",
        "src/../../.gitconfig",
        "/proc/self/environ",
        "/proc/self/root/etc/shadow",
        "file:///etc/shadow",
        "file:///home/agent/project/README.md",
        "file://localhost/home/agent/.ssh/id_rsa",
        "file:///home/agent/project/%2E%2E/.bashrc",
        "/home/agent/project/../.gitconfig",
        "/home/agent/project/link-out",
        "/run/oracle-fixture/home/.ssh/id_rsa",
        ".git/config",
        "~",
        "",
    ]
    .iter()
    .enumerate()
    .map(|(i, p)| Case {
        tool: "view".to_owned(),
        input: json!({ "path": p }),
        expect: None,
        mode: None,
        origin: format!("view #{i}"),
    })
    .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corpus_lines_become_cases_and_bad_lines_name_their_place() {
        let dir = std::env::temp_dir().join(format!("oracle-corpus-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let good = dir.join("a.jsonl");
        std::fs::write(
            &good,
            "{\"tool\":\"Bash\",\"input\":{\"command\":\"ls\"},\"expect\":\"allow\",\"class\":\"x\",\"why\":\"y\"}\n\n{\"tool\":\"view\",\"input\":{\"path\":\"README.md\"}}\n",
        )
        .unwrap();
        let cases = load(&good).unwrap();
        assert_eq!(cases.len(), 2);
        assert_eq!(cases[0].request(), Request::Shell("ls".into()));
        assert_eq!(cases[0].expect.as_deref(), Some("allow"));
        assert_eq!(cases[1].request(), Request::View("README.md".into()));
        assert!(
            cases[1].origin.ends_with("a.jsonl:3"),
            "{}",
            cases[1].origin
        );
        assert_eq!(cases[0].expectation_met(true, false), Some(true));
        assert_eq!(cases[0].expectation_met(false, true), Some(false));
        assert_eq!(cases[1].expectation_met(true, false), None);

        let bad = dir.join("b.jsonl");
        std::fs::write(&bad, "{\"tool\":\"Bash\"}\n").unwrap();
        let err = load(&bad).unwrap_err();
        assert!(err.contains("b.jsonl:1") && err.contains("input"), "{err}");
        assert_eq!(corpus_files(&dir), [good, bad]);
        assert!(corpus_files(&dir.join("missing")).is_empty());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn generation_gives_the_count_asked_for_all_distinct() {
        let cases = generated(5, 500, crate::generate::default_programs());
        assert_eq!(cases.len(), 500);
        let distinct: std::collections::HashSet<String> = cases.iter().map(Case::key).collect();
        assert_eq!(distinct.len(), 500);
        assert_eq!(generated(5, 0, crate::generate::default_programs()), []);
    }

    #[test]
    fn aliases_of_the_shell_tool_are_the_same_call() {
        let a = Case::shell("ls".into(), "a".into());
        let mut b = a.clone();
        b.tool = "shell".into();
        assert_eq!(a.key(), b.key());
        let mut c = a.clone();
        c.tool = "Edit".into();
        assert_eq!(c.request(), Request::Other);
    }
}
