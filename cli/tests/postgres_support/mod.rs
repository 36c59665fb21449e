//! For the tests of `warrant` on PostgreSQL: a fresh database per test on the server that
//! `WARRANT_TEST_POSTGRES_URL` names (`scripts/with-postgres` starts a throwaway one; without
//! it these tests fail, saying how to run them), a configuration file selecting it, `warrant
//! serve` processes on it, and `warrant audit` over it.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::Duration;

use serde_json::Value;
use warrant_stores::sqlite::AUDIT_KEY_ENV;

#[path = "../../../stores/tests/postgres_common/mod.rs"]
mod pg;

pub use pg::Database;

/// The bearer token every `warrant serve` of these tests accepts.
pub const TOKEN: &str = "postgres-test-token";

/// Writes `warrant.toml` in `dir`: `[store] kind = "postgres"` on `database`, plus `extra`
/// lines of that table (`audit_key_file = "…"`).
pub fn write_config(dir: &Path, database: &Database, extra: &[String]) -> PathBuf {
    let mut text = format!(
        "[store]\nkind = \"postgres\"\nurl = {}\n",
        toml_string(&database.url)
    );
    for line in extra {
        text.push_str(line);
        text.push('\n');
    }
    let path = dir.join("warrant.toml");
    std::fs::write(&path, text).unwrap();
    path
}

/// `warrant.toml` in `dir` for several instances on `database`: one audit key file for all
/// (`dir/shared.audit-key`), each instance's checkpoint file in its own data directory.
pub fn shared_config(dir: &Path, database: &Database) -> PathBuf {
    let key_file = dir.join("shared.audit-key");
    write_config(dir, database, &[path_setting("audit_key_file", &key_file)])
}

/// `value` as a TOML basic string.
pub fn toml_string(value: &str) -> String {
    serde_json::to_string(value).unwrap()
}

/// A `key = "path"` line of the `[store]` table.
pub fn path_setting(key: &str, path: &Path) -> String {
    format!("{key} = {}", toml_string(&path.display().to_string()))
}

/// A running `warrant serve`, killed when dropped.
pub struct Serve {
    /// The process.
    pub child: Child,
    /// Its address (`127.0.0.1:PORT`).
    pub addr: String,
}

impl Serve {
    /// Starts `warrant serve` on a free port with `config` and its own `data_dir`, and
    /// waits until it listens.
    pub fn start(config: &Path, data_dir: &Path) -> Self {
        let mut child = Command::new(env!("CARGO_BIN_EXE_warrant"))
            .arg("--config")
            .arg(config)
            .args(["serve", "--addr", "127.0.0.1:0", "--data-dir"])
            .arg(data_dir)
            .current_dir(config.parent().unwrap())
            .env("WARRANT_TOKEN", TOKEN)
            .env_remove(AUDIT_KEY_ENV)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
        let mut said = Vec::new();
        let addr = loop {
            let Some(line) = lines.next() else {
                let status = child.wait().unwrap();
                panic!("warrant serve exited ({status}) before listening: {said:#?}");
            };
            let line = line.unwrap();
            if let Some(rest) = line.strip_prefix("warrant listening on http://") {
                break rest.trim().to_owned();
            }
            said.push(line);
        };
        // Keep draining stderr so the server never blocks on it.
        std::thread::spawn(move || for _ in lines {});
        Self { child, addr }
    }

    /// Ends it with SIGKILL: no shutdown code runs.
    pub fn kill(mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
    }
}

impl Drop for Serve {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One HTTP/1.0 exchange (the body is never chunked, the connection closes after it):
/// the status and the body, `None` when the server could not be reached or answered
/// nothing within `timeout`.
pub fn http(
    addr: &str,
    method: &str,
    path: &str,
    body: Option<&str>,
    timeout: Duration,
) -> Option<(u16, String)> {
    let mut stream = TcpStream::connect(addr).ok()?;
    stream.set_read_timeout(Some(timeout)).ok()?;
    stream.set_write_timeout(Some(timeout)).ok()?;
    let body = body.unwrap_or("");
    let request = format!(
        "{method} {path} HTTP/1.0\r\nHost: {addr}\r\nAuthorization: Bearer {TOKEN}\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).ok()?;
    let mut response = String::new();
    stream.read_to_string(&mut response).ok()?;
    let (head, body) = response.split_once("\r\n\r\n")?;
    let status = head.split(' ').nth(1)?.parse().ok()?;
    Some((status, body.to_owned()))
}

/// POSTs one read-only shell call; its `toolCallId` when the server answered 200 with a
/// decision for it.
pub fn post_call(addr: &str, session: &str, id: &str) -> Option<String> {
    let body =
        format!(r#"{{"toolCallId":"{id}","toolName":"Bash","input":{{"command":"ls -la"}}}}"#);
    let path = format!("/v1/sessions/{session}/tool-calls");
    let (status, body) = http(addr, "POST", &path, Some(&body), Duration::from_secs(5))?;
    if status != 200 {
        return None;
    }
    let json: Value = serde_json::from_str(&body).ok()?;
    json["toolCallId"].as_str().map(str::to_owned)
}

/// Runs `warrant --config CONFIG audit --data-dir DATA_DIR ARGS…`, with `key` (hex) as
/// `WARRANT_AUDIT_KEY` when given and none otherwise.
pub fn audit(config: &Path, data_dir: &Path, args: &[&str], key: Option<&str>) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_warrant"));
    command
        .arg("--config")
        .arg(config)
        .arg("audit")
        .arg("--data-dir")
        .arg(data_dir)
        .args(args)
        .current_dir(config.parent().unwrap())
        .env_remove(AUDIT_KEY_ENV);
    if let Some(key) = key {
        command.env(AUDIT_KEY_ENV, key);
    }
    command.output().unwrap()
}

/// The JSON lines `warrant audit` printed.
pub fn lines(out: &Output) -> Vec<Value> {
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

/// The verification object of `--verify`'s last stdout line.
pub fn verification(out: &Output) -> Value {
    let lines = lines(out);
    let last = lines.last().expect("a verification line");
    last["verification"].clone()
}

/// The tool call ids of the evaluation records `warrant audit` printed.
pub fn evaluated_ids(out: &Output) -> Vec<String> {
    lines(out)
        .iter()
        .filter(|v| v["record"]["kind"] == "evaluation")
        .filter_map(|v| v["record"]["toolCallId"].as_str().map(str::to_owned))
        .collect()
}

/// Stdout and stderr, for an assertion's message.
pub fn shown(out: &Output) -> String {
    format!(
        "exit {:?}\nstdout:\n{}\nstderr:\n{}",
        out.status.code(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}
