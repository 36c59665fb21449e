//! Shared by the hook tests: a workspace with a data directory, the golden payloads of
//! `tests/fixtures/hooks/`, and the real `warrant hook` binary run over them.
#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use serde_json::Value;

/// A workspace (with `notes.txt`) and a data directory of its own.
pub struct Workspace {
    _dir: tempfile::TempDir,
    /// The workspace root: the agent's `cwd`.
    pub root: PathBuf,
    /// Warrant's data directory.
    pub data: PathBuf,
}

impl Workspace {
    pub fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("project");
        std::fs::create_dir_all(&root).unwrap();
        std::fs::write(root.join("notes.txt"), "hello\n").unwrap();
        let root = std::fs::canonicalize(root).unwrap();
        let data = dir.path().join("data");
        Self {
            _dir: dir,
            root,
            data,
        }
    }

    /// A golden payload with `{{CWD}}` replaced by the workspace root.
    pub fn payload(&self, agent: &str, name: &str) -> String {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../tests/fixtures/hooks")
            .join(agent)
            .join(format!("{name}.json"));
        std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
            .replace("{{CWD}}", self.root.to_str().unwrap())
    }

    /// Runs `warrant hook AGENT` (locally, on this workspace's data directory) over `stdin`.
    pub fn hook(&self, agent: &str, stdin: &str) -> Answer {
        self.hook_with(agent, stdin, &[])
    }

    pub fn hook_with(&self, agent: &str, stdin: &str, extra: &[&str]) -> Answer {
        let mut child = Command::new(env!("CARGO_BIN_EXE_warrant"))
            .args(["hook", agent, "--data-dir"])
            .arg(&self.data)
            .args(extra)
            .current_dir(&self.root)
            .env_remove("WARRANT_TOKEN")
            .env_remove("WARRANT_DATA_DIR")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(stdin.as_bytes())
            .unwrap();
        Answer::from(child.wait_with_output().unwrap())
    }

    /// The audit log as JSON records.
    pub fn audit(&self) -> Vec<Value> {
        let out = Command::new(env!("CARGO_BIN_EXE_warrant"))
            .args(["audit", "--data-dir"])
            .arg(&self.data)
            .current_dir(&self.root)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str::<Value>(l).unwrap()["record"].clone())
            .collect()
    }

    /// The audit records of one tool call.
    pub fn audit_of(&self, tool_call_id: &str) -> Vec<Value> {
        self.audit()
            .into_iter()
            .filter(|r| r["toolCallId"] == tool_call_id)
            .collect()
    }
}

/// What the hook printed and how it exited.
#[derive(Debug)]
pub struct Answer {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl From<Output> for Answer {
    fn from(out: Output) -> Self {
        Self {
            code: out.status.code().unwrap_or(-1),
            stdout: String::from_utf8(out.stdout).unwrap(),
            stderr: String::from_utf8(out.stderr).unwrap(),
        }
    }
}

impl Answer {
    /// stdout as the one JSON object it must be.
    pub fn json(&self) -> Value {
        let lines: Vec<&str> = self.stdout.lines().collect();
        assert_eq!(lines.len(), 1, "one JSON line expected: {self:?}");
        serde_json::from_str(lines[0]).unwrap_or_else(|e| panic!("{e}: {self:?}"))
    }
}
