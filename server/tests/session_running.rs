//! Sessions know when they run: a `/v1/agent` run marks its thread running until it ends;
//! and a runtime reports its tools over stdio with a `runtime_tools` line.

mod support;

use std::sync::Arc;

use axum::http::{Method, StatusCode};
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use warrant_core::engine::Engine;
use warrant_core::store::MemoryStore;
use warrant_core::workspace::SessionStatus;
use warrant_transports::stdio::{LineTransport, StdioOptions, serve};

use support::{Server, TOKEN};

fn status(server: &Server, id: &str) -> Option<SessionStatus> {
    server.engine().workspace().session(id).map(|s| s.status)
}

#[tokio::test]
async fn an_agent_run_marks_its_thread_running_until_it_ends() {
    let server = Server::new().await;
    let body = json!({
        "threadId": "t1", "runId": "r1", "state": {}, "tools": [], "context": [],
        "forwardedProps": {"waitForApproval": true},
        "messages": [{"id": "m1", "role": "user", "content": "push"}]
    });
    let request = support::request(Method::POST, "/v1/agent")
        .header("authorization", format!("Bearer {TOKEN}"))
        .body(axum::body::Body::from(body.to_string()))
        .unwrap();
    let response = tower::ServiceExt::oneshot(server.router.clone(), request)
        .await
        .unwrap();
    let mut reader = support::sse::Reader::new(response.into_body());
    let mut call = None;
    while call.is_none() {
        let (_, event) = reader.events(1).await.pop().unwrap();
        if event["name"] == "tool_approval_request" {
            call = event["value"]["toolCallId"].as_str().map(str::to_owned);
        }
    }
    assert_eq!(status(&server, "t1"), Some(SessionStatus::Running));
    server
        .send(
            Method::PUT,
            "/v1/sessions/t1/approval-settings",
            Some(json!({"autoApprovedToolNames": []})),
        )
        .await
        .assert_error(StatusCode::CONFLICT, "session_running");
    let path = format!("/v1/approvals/{}", call.unwrap());
    server
        .send(Method::POST, &path, Some(json!({"actionId": "allow_once"})))
        .await;
    while reader.frame().await.is_some() {}
    assert_eq!(status(&server, "t1"), Some(SessionStatus::Idle));
}

async fn stdio_lines(lines: &[Value]) -> Vec<Value> {
    let (mut input, server_in) = tokio::io::duplex(1 << 16);
    let (server_out, output) = tokio::io::duplex(1 << 16);
    let out = Arc::new(LineTransport::new(server_out));
    let engine = Engine::builder(support::chain::demo())
        .store(Arc::new(MemoryStore::new()))
        .transport(out.clone())
        .build()
        .await
        .unwrap();
    let task = tokio::spawn(serve(server_in, engine, out, StdioOptions::default()));
    for line in lines {
        input
            .write_all(format!("{line}\n").as_bytes())
            .await
            .unwrap();
    }
    drop(input);
    task.await.unwrap().unwrap();
    let mut events = Vec::new();
    let mut reader = BufReader::new(output).lines();
    while let Some(line) = reader.next_line().await.unwrap() {
        events.push(serde_json::from_str(&line).unwrap());
    }
    events
}

#[tokio::test]
async fn a_runtime_tools_line_answers_with_the_new_catalog() {
    let events = stdio_lines(&[json!({
        "type": "runtime_tools",
        "tools": [{"name": "view"}, {"name": "shell", "description": "Run a command"}]
    })])
    .await;
    assert_eq!(events.len(), 1, "{events:?}");
    assert_eq!(events[0]["type"], "CUSTOM");
    assert_eq!(events[0]["name"], "tool_catalog");
    let ids: Vec<&str> = events[0]["value"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["view", "shell"]);
}

#[tokio::test]
async fn a_runtime_tools_line_with_a_repeated_name_is_an_error_naming_it() {
    let events = stdio_lines(&[json!({
        "type": "runtime_tools",
        "tools": [{"name": "view"}, {"name": "view"}]
    })])
    .await;
    assert_eq!(events[0]["type"], "RUN_ERROR");
    let message = events[0]["message"].as_str().unwrap();
    assert!(
        message.contains("line 1") && message.contains("\"view\""),
        "{message}"
    );
}
