//! An agent that runs `warrant stdio` beside itself and asks it about every tool call.
//!
//! The agent writes one JSON line per tool call on the sidecar's stdin and reads AG-UI events,
//! one per line, from its stdout: a `tool_permission_decision` for every call, and for a call
//! that asks, a `tool_approval_request` and, once the user acted, a `tool_permission_resolution`.
//! Here the agent approves on the user's behalf with an `approval` line.
//!
//! Run it with `cargo run -p warrant-examples --example stdio_sidecar`.

use std::process::Stdio;
use std::time::Duration;

use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, Lines};
use tokio::process::{ChildStdin, ChildStdout, Command};
use warrant_examples::{custom, scratch_dir, warrant_binary};

/// The sidecar's pipes.
struct Sidecar {
    stdin: ChildStdin,
    events: Lines<BufReader<ChildStdout>>,
}

impl Sidecar {
    async fn send(&mut self, line: Value) {
        let text = format!("{line}\n");
        self.stdin
            .write_all(text.as_bytes())
            .await
            .expect("the sidecar reads");
        self.stdin.flush().await.expect("the sidecar reads");
    }

    /// Reads events until the `name` event about `tool_call_id`, and returns its value.
    async fn wait(&mut self, name: &str, tool_call_id: &str) -> Value {
        let read = async {
            while let Some(line) = self.events.next_line().await.expect("the sidecar writes") {
                let event: Value = serde_json::from_str(&line).expect("every line is an event");
                if let Some(value) = custom(&event, name, tool_call_id) {
                    return value.clone();
                }
            }
            panic!("the sidecar stopped before {name} for {tool_call_id}")
        };
        tokio::time::timeout(Duration::from_secs(20), read)
            .await
            .unwrap_or_else(|_| panic!("no {name} for {tool_call_id}"))
    }

    /// Asks about one call and returns the decision.
    async fn decide(&mut self, id: &str, tool: &str, input: Value) -> Value {
        let call = json!({"type": "tool_call", "sessionId": "s1", "toolCallId": id,
                          "toolName": tool, "input": input});
        self.send(call).await;
        let decision = self.wait("tool_permission_decision", id).await;
        println!(
            "{id} {tool}: {} ({})",
            decision["behavior"], decision["reasonCode"]
        );
        decision
    }
}

#[tokio::main]
async fn main() {
    let dir = scratch_dir("stdio");
    std::fs::write(dir.join("README.md"), "# notes\n").expect("the workspace has a file");
    let mut child = Command::new(warrant_binary())
        .arg("stdio")
        .current_dir(&dir)
        .env("WARRANT_DATA_DIR", dir.join(".warrant"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("warrant stdio starts");
    let mut sidecar = Sidecar {
        stdin: child.stdin.take().expect("piped"),
        events: BufReader::new(child.stdout.take().expect("piped")).lines(),
    };

    let read = sidecar
        .decide("c1", "view", json!({"path": "README.md"}))
        .await;
    assert_eq!(read["behavior"], "allow", "reading a workspace file runs");
    let wipe = sidecar
        .decide("c2", "Bash", json!({"command": "rm -rf /"}))
        .await;
    assert_eq!(wipe["behavior"], "deny", "a destructive command never runs");

    let install = sidecar
        .decide("c3", "Bash", json!({"command": "npm install left-pad"}))
        .await;
    assert_eq!(
        install["behavior"], "ask",
        "an unknown command waits for the user"
    );
    let request = sidecar.wait("tool_approval_request", "c3").await;
    println!("approval requested: {}", request["title"]);
    sidecar
        .send(json!({"type": "approval", "toolCallId": "c3", "actionId": "allow_once"}))
        .await;
    let resolution = sidecar.wait("tool_permission_resolution", "c3").await;
    assert_eq!(resolution["behavior"], "allow");
    println!("c3 approved once by the user: the agent runs it");

    drop(sidecar);
    let status = tokio::time::timeout(Duration::from_secs(10), child.wait()).await;
    assert!(
        matches!(status, Ok(Ok(s)) if s.success()),
        "the sidecar exits at end of input"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_agent_decides_through_the_sidecar_and_approves() {
        super::main();
    }
}
