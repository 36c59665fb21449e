//! A session's routes: sidecar tool calls and their results, persisted messages, approval
//! settings — each with its success and every error status.

mod support;

use axum::http::{Method, StatusCode};
use serde_json::{Value, json};
use warrant_core::workspace::{SessionKind, SessionRecord, SessionStatus};
use warrant_server::ServerConfig;

use support::failing::FailingStore;
use support::{Server, TOKEN};

async fn tool_call(server: &Server, session: &str, body: Value) -> support::Reply {
    let path = format!("/v1/sessions/{session}/tool-calls");
    server.send(Method::POST, &path, Some(body)).await
}

#[tokio::test]
async fn a_tool_call_gets_its_decision() {
    let server = Server::new().await;
    let reply = tool_call(
        &server,
        "s1",
        json!({"toolCallId": "c1", "toolName": "view", "input": {"path": "a.txt"}}),
    )
    .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    let decision = reply.json();
    assert_eq!(decision["toolCallId"], "c1");
    assert_eq!(decision["behavior"], "allow");
    assert_eq!(decision["source"], "policy");
    assert_eq!(decision["reasonCode"], "read_only_view");
}

#[tokio::test]
async fn a_tool_call_without_an_id_gets_one_and_the_mode_is_honoured() {
    let server = Server::new().await;
    let body = json!({"toolName": "Write", "input": {"path": "a.txt"}, "mode": "full_access"});
    let decision = tool_call(&server, "s1", body).await.json();
    assert!(
        decision["toolCallId"]
            .as_str()
            .unwrap()
            .starts_with("call-"),
        "{decision}"
    );
    assert_eq!(decision["source"], "full_access");
    assert_eq!(decision["reasonCode"], "mode_full_access");
}

#[tokio::test]
async fn a_tool_call_registers_its_session_in_the_workspace() {
    let server = Server::new().await;
    tool_call(
        &server,
        "fresh",
        json!({"toolName": "view", "input": {"path": "a"}}),
    )
    .await;
    let workspace = server.send(Method::GET, "/v1/workspace", None).await.json();
    let ids: Vec<&Value> = workspace["sessions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| &s["id"])
        .collect();
    assert_eq!(ids, [&json!("fresh")]);
}

#[tokio::test]
async fn a_malformed_tool_call_is_400() {
    let server = Server::new().await;
    for body in [
        json!({"toolName": "view"}),
        json!({"toolName": " ", "input": {}}),
        json!({"toolCallId": "", "toolName": "view", "input": {}}),
        json!({"toolName": "view", "input": {}, "mode": "yolo"}),
        json!({"toolName": "view", "input": {}, "approve": true}),
    ] {
        tool_call(&server, "s1", body.clone())
            .await
            .assert_error(StatusCode::BAD_REQUEST, "invalid_body");
    }
}

#[tokio::test]
async fn a_second_call_with_a_pending_id_is_409() {
    let server = Server::new().await;
    let body = json!({"toolCallId": "c1", "toolName": "Bash", "input": {"command": "git push"}});
    assert_eq!(
        tool_call(&server, "s1", body.clone()).await.json()["behavior"],
        "ask"
    );
    tool_call(&server, "s1", body)
        .await
        .assert_error(StatusCode::CONFLICT, "duplicate_tool_call");
}

#[tokio::test]
async fn a_tool_call_that_cannot_be_audited_is_503_never_an_allow() {
    let store = FailingStore::new();
    let server = Server::with(store.clone(), ServerConfig::new(TOKEN)).await;
    tool_call(
        &server,
        "s1",
        json!({"toolName": "view", "input": {"path": "a"}}),
    )
    .await;
    store.fail();
    tool_call(
        &server,
        "s1",
        json!({"toolName": "view", "input": {"path": "a"}}),
    )
    .await
    .assert_error(StatusCode::SERVICE_UNAVAILABLE, "store_unavailable");
}

#[tokio::test]
async fn a_result_completes_the_persisted_tool_part() {
    let server = Server::new().await;
    let body =
        json!({"toolCallId": "c1", "toolName": "view", "input": {"path": "a"}, "messageId": "m1"});
    tool_call(&server, "s1", body).await;
    let reply = server
        .send(
            Method::POST,
            "/v1/sessions/s1/tool-calls/c1/result",
            Some(json!({"content": "hello"})),
        )
        .await;
    assert_eq!(reply.status, StatusCode::NO_CONTENT, "{}", reply.text);
    let messages = server
        .send(Method::GET, "/v1/sessions/s1/messages", None)
        .await;
    assert_eq!(messages.status, StatusCode::OK);
    let messages = messages.json();
    assert_eq!(messages[0]["id"], "m1");
    let part = &messages[0]["parts"][0];
    assert_eq!(part["toolCallId"], "c1");
    assert_eq!(part["state"], "completed");
    assert_eq!(part["output"], "hello");
    assert_eq!(part["permissionDecision"]["behavior"], "allow");
}

#[tokio::test]
async fn a_result_without_content_is_400() {
    let server = Server::new().await;
    server
        .send(
            Method::POST,
            "/v1/sessions/s1/tool-calls/c1/result",
            Some(json!({"output": "x"})),
        )
        .await
        .assert_error(StatusCode::BAD_REQUEST, "invalid_body");
}

#[tokio::test]
async fn messages_of_an_unknown_session_are_empty_and_a_store_failure_is_503() {
    let store = FailingStore::new();
    let server = Server::with(store.clone(), ServerConfig::new(TOKEN)).await;
    let reply = server
        .send(Method::GET, "/v1/sessions/none/messages", None)
        .await;
    assert_eq!((reply.status, reply.json()), (StatusCode::OK, json!([])));
    store.fail();
    server
        .send(Method::GET, "/v1/sessions/none/messages", None)
        .await
        .assert_error(StatusCode::SERVICE_UNAVAILABLE, "store_unavailable");
}

async fn settings(server: &Server, session: &str, body: Value) -> support::Reply {
    let path = format!("/v1/sessions/{session}/approval-settings");
    server.send(Method::PUT, &path, Some(body)).await
}

async fn add_session(server: &Server, record: SessionRecord) {
    server
        .engine()
        .update_workspace(|state, _| {
            let mut next = state.clone();
            next.sessions.push(record);
            Ok(next)
        })
        .await
        .expect("saved");
}

#[tokio::test]
async fn approval_settings_set_empty_and_clear_an_override() {
    let server = Server::new().await;
    add_session(&server, SessionRecord::new("s1")).await;
    let reply = settings(
        &server,
        "s1",
        json!({"autoApprovedToolNames": ["view", "view", ""]}),
    )
    .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    assert_eq!(
        reply.json()["sessions"][0]["approvalSettings"],
        json!({"autoApprovedToolNames": ["view"]})
    );
    let reply = settings(&server, "s1", json!({"autoApprovedToolNames": []})).await;
    assert_eq!(
        reply.json()["sessions"][0]["approvalSettings"],
        json!({"autoApprovedToolNames": []})
    );
    let reply = settings(&server, "s1", json!({})).await;
    assert!(
        reply.json()["sessions"][0]
            .get("approvalSettings")
            .is_none(),
        "{}",
        reply.text
    );
}

#[tokio::test]
async fn approval_settings_of_an_unknown_session_are_404() {
    let server = Server::new().await;
    settings(&server, "ghost", json!({"autoApprovedToolNames": ["view"]}))
        .await
        .assert_error(StatusCode::NOT_FOUND, "unknown_session");
}

#[tokio::test]
async fn approval_settings_of_a_running_session_are_409() {
    let server = Server::new().await;
    let mut record = SessionRecord::new("busy");
    record.status = SessionStatus::Running;
    add_session(&server, record).await;
    settings(&server, "busy", json!({"autoApprovedToolNames": ["view"]}))
        .await
        .assert_error(StatusCode::CONFLICT, "session_running");
}

#[tokio::test]
async fn approval_settings_naming_unknown_tools_or_overriding_a_scratchpad_are_422() {
    let server = Server::new().await;
    add_session(&server, SessionRecord::new("s1")).await;
    let reply = settings(
        &server,
        "s1",
        json!({"autoApprovedToolNames": ["web_fetc"]}),
    )
    .await;
    reply.assert_error(StatusCode::UNPROCESSABLE_ENTITY, "unknown_tool_ids");
    assert!(reply.text.contains("did you mean"), "{}", reply.text);
    let mut pad = SessionRecord::new("pad");
    pad.kind = SessionKind::Scratchpad;
    add_session(&server, pad).await;
    settings(&server, "pad", json!({"autoApprovedToolNames": ["view"]}))
        .await
        .assert_error(StatusCode::UNPROCESSABLE_ENTITY, "scratchpad_override");
}

#[tokio::test]
async fn approval_settings_with_a_misspelt_field_are_400() {
    let server = Server::new().await;
    add_session(&server, SessionRecord::new("s1")).await;
    settings(&server, "s1", json!({"autoApprovedTools": ["view"]}))
        .await
        .assert_error(StatusCode::BAD_REQUEST, "invalid_body");
}

#[tokio::test]
async fn approval_settings_that_cannot_be_saved_are_503() {
    let store = FailingStore::new();
    let server = Server::with(store.clone(), ServerConfig::new(TOKEN)).await;
    add_session(&server, SessionRecord::new("s1")).await;
    store.fail();
    settings(&server, "s1", json!({"autoApprovedToolNames": ["view"]}))
        .await
        .assert_error(StatusCode::SERVICE_UNAVAILABLE, "store_unavailable");
}
