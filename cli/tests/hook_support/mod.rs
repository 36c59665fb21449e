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
    /// The hook's `XDG_CONFIG_HOME`: where it looks for its token file.
    pub config: PathBuf,
}

impl Workspace {
    pub fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("project");
        std::fs::create_dir_all(&root).unwrap();
        std::fs::write(root.join("notes.txt"), "hello\n").unwrap();
        let root = std::fs::canonicalize(root).unwrap();
        let data = dir.path().join("data");
        let config = dir.path().join("config");
        Self {
            _dir: dir,
            root,
            data,
            config,
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
        let mut args: Vec<&std::ffi::OsStr> = vec!["--data-dir".as_ref(), self.data.as_ref()];
        args.extend(extra.iter().map(std::ffi::OsStr::new));
        self.run_hook(agent, stdin, &args, &[])
    }

    /// Runs `warrant hook AGENT` with exactly `args` after the agent's name (no `--data-dir`
    /// of the test's own) and `env` set (`Some`) or removed (`None`).
    pub fn run_hook<A: AsRef<std::ffi::OsStr>>(
        &self,
        agent: &str,
        stdin: &str,
        args: &[A],
        env: &[(&str, Option<&Path>)],
    ) -> Answer {
        self.run_hook_from(agent, stdin, args, env, &self.root)
    }

    /// [`Self::run_hook`] with the hook process started in `dir`.
    pub fn run_hook_from<A: AsRef<std::ffi::OsStr>>(
        &self,
        agent: &str,
        stdin: &str,
        args: &[A],
        env: &[(&str, Option<&Path>)],
        dir: &Path,
    ) -> Answer {
        let mut command = Command::new(env!("CARGO_BIN_EXE_warrant"));
        command
            .args(["hook", agent])
            .args(args)
            .current_dir(dir)
            .env_remove("WARRANT_TOKEN")
            .env_remove("WARRANT_DATA_DIR")
            .env_remove("CLAUDE_PROJECT_DIR")
            .env_remove("GEMINI_PROJECT_DIR")
            .env("XDG_CONFIG_HOME", &self.config);
        for (name, value) in env {
            match value {
                Some(value) => command.env(name, value),
                None => command.env_remove(name),
            };
        }
        let mut child = command
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

    /// The default token file of the hook (under [`Self::config`]), written with `mode`.
    pub fn write_token(&self, token: &str, mode: u32) -> PathBuf {
        use std::os::unix::fs::PermissionsExt;
        let path = self.config.join("warrant/hook-token");
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, format!("{token}\n")).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(mode)).unwrap();
        path
    }

    /// A Codex `PreToolUse` payload for `tool_name` with `tool_input`, call id `id`.
    pub fn codex_pre_tool(&self, id: &str, tool_name: &str, tool_input: Value) -> String {
        serde_json::json!({
            "session_id": "0199a1b2-codex",
            "turn_id": "turn-1",
            "transcript_path": null,
            "cwd": self.root,
            "hook_event_name": "PreToolUse",
            "model": "gpt-5-codex",
            "permission_mode": "default",
            "tool_name": tool_name,
            "tool_input": tool_input,
            "tool_use_id": id,
        })
        .to_string()
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
