//! An agent that talks to `warrant serve` over HTTP and waits for the user's approval.
//!
//! The agent posts each tool call to `POST /v1/sessions/{id}/tool-calls` and gets the
//! decision. For an `ask`, it follows the session's AG-UI events (`GET
//! /v1/sessions/{id}/events`, server-sent events) until the `tool_permission_resolution`
//! arrives. The user acts through `POST /v1/approvals/{toolCallId}` (the web UI does this);
//! here a task stands in for the user.
//!
//! Run it with `cargo run -p warrant-examples --example http_approval`.

use std::process::Stdio;
use std::time::Duration;

use serde_json::{Value, json};
use tokio::process::Command;
use warrant_examples::{custom, scratch_dir, warrant_binary};

const TOKEN: &str = "example-token";

/// A client of one `warrant serve`.
#[derive(Clone)]
struct Api {
    http: reqwest::Client,
    base: String,
}

impl Api {
    async fn post(&self, path: &str, body: Value) -> Value {
        let response = self
            .http
            .post(format!("{}{path}", self.base))
            .bearer_auth(TOKEN)
            .json(&body)
            .send()
            .await
            .expect("the server answers");
        assert!(
            response.status().is_success(),
            "POST {path}: {}",
            response.status()
        );
        response.json().await.expect("a JSON body")
    }

    /// Follows the session's events until the resolution of `tool_call_id`.
    async fn resolution(&self, session: &str, tool_call_id: &str) -> Value {
        let url = format!("{}/v1/sessions/{session}/events", self.base);
        let mut stream = self
            .http
            .get(url)
            .bearer_auth(TOKEN)
            .send()
            .await
            .expect("events");
        let mut pending = String::new();
        while let Some(chunk) = stream.chunk().await.expect("the stream reads") {
            pending.push_str(&String::from_utf8_lossy(&chunk));
            while let Some(end) = pending.find("\n\n") {
                let frame: String = pending.drain(..end + 2).collect();
                for data in frame.lines().filter_map(|l| l.strip_prefix("data:")) {
                    let event: Value = serde_json::from_str(data.trim()).expect("JSON events");
                    if let Some(value) = custom(&event, "tool_permission_resolution", tool_call_id)
                    {
                        return value.clone();
                    }
                }
            }
        }
        panic!("the event stream ended before the resolution of {tool_call_id}")
    }
}

async fn serve() -> (tokio::process::Child, Api) {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port();
    let dir = scratch_dir("http");
    let child = Command::new(warrant_binary())
        .args([
            "serve",
            "--addr",
            &format!("127.0.0.1:{port}"),
            "--data-dir",
        ])
        .arg(dir.join(".warrant"))
        .current_dir(&dir)
        .env("WARRANT_TOKEN", TOKEN)
        .stdout(Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .expect("warrant serve starts");
    let api = Api {
        http: reqwest::Client::new(),
        base: format!("http://127.0.0.1:{port}"),
    };
    let up = async {
        while api
            .http
            .get(format!("{}/healthz", api.base))
            .send()
            .await
            .is_err()
        {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    };
    tokio::time::timeout(Duration::from_secs(20), up)
        .await
        .expect("the server comes up");
    (child, api)
}

#[tokio::main]
async fn main() {
    let (_server, api) = serve().await;
    let call = json!({"toolCallId": "c1", "toolName": "Bash",
                      "input": {"command": "npm install left-pad"}});
    let decision = api.post("/v1/sessions/s1/tool-calls", call).await;
    println!("c1: {} ({})", decision["behavior"], decision["reasonCode"]);
    assert_eq!(
        decision["behavior"], "ask",
        "an unknown command waits for the user"
    );

    // The agent waits on the event stream while the user decides.
    let agent = tokio::spawn({
        let api = api.clone();
        async move { api.resolution("s1", "c1").await }
    });
    let user = api
        .post("/v1/approvals/c1", json!({"actionId": "allow_once"}))
        .await;
    println!("the user chose {}", user["actionId"]);

    let resolution = tokio::time::timeout(Duration::from_secs(20), agent)
        .await
        .expect("the resolution arrives")
        .expect("the agent's task ends");
    assert_eq!(resolution["behavior"], "allow");
    assert_eq!(resolution["scope"], "once");
    println!("c1 approved once by the user: the agent runs it");
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_agent_waits_for_the_users_approval_over_http() {
        super::main();
    }
}
