//! Tool results are accepted only for allowed calls of their session, once; approvals left
//! pending by a restart end as interrupted and are refused; concurrent approvals of one call
//! get one winner and 409s.

mod support;

use std::sync::Arc;
use std::sync::atomic::Ordering;

use axum::http::{Method, StatusCode};
use serde_json::{Value, json};
use warrant_core::call::ToolCall;
use warrant_core::engine::{AuthorizeOptions, Engine, EngineLimits, ResolveError, ResultError};
use warrant_core::store::{MemoryStore, Store};
use warrant_server::ServerConfig;

use support::failing::FailingStore;
use support::{Server, TOKEN};

async fn call(server: &Server, session: &str, id: &str, tool: &str, input: Value) -> Value {
    let path = format!("/v1/sessions/{session}/tool-calls");
    let body = json!({"toolCallId": id, "toolName": tool, "input": input});
    server.send(Method::POST, &path, Some(body)).await.json()
}

async fn result(server: &Server, session: &str, id: &str) -> support::Reply {
    let path = format!("/v1/sessions/{session}/tool-calls/{id}/result");
    server
        .send(Method::POST, &path, Some(json!({"content": "output"})))
        .await
}

fn part_of(messages: &Value, id: &str) -> Value {
    messages
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|m| m["parts"].as_array().unwrap().iter())
        .find(|p| p["toolCallId"] == id)
        .cloned()
        .unwrap_or_else(|| panic!("no part {id} in {messages}"))
}

#[tokio::test]
async fn a_result_for_a_denied_call_is_409_and_its_part_stays_uncompleted() {
    let server = Server::new().await;
    let decision = call(&server, "s1", "rm", "Bash", json!({"command": "rm -rf /"})).await;
    assert_eq!(decision["behavior"], "deny");
    result(&server, "s1", "rm")
        .await
        .assert_error(StatusCode::CONFLICT, "result_not_accepted");
    let messages = server
        .send(Method::GET, "/v1/sessions/s1/messages", None)
        .await
        .json();
    let part = part_of(&messages, "rm");
    assert_ne!(part["state"], "completed", "{part}");
    assert!(part.get("output").is_none(), "{part}");
}

#[tokio::test]
async fn a_result_for_a_pending_call_is_409() {
    let server = Server::new().await;
    let decision = call(
        &server,
        "s1",
        "push",
        "Bash",
        json!({"command": "git push"}),
    )
    .await;
    assert_eq!(decision["behavior"], "ask");
    let reply = result(&server, "s1", "push").await;
    reply.assert_error(StatusCode::CONFLICT, "result_not_accepted");
    assert!(reply.text.contains("awaits the user"), "{}", reply.text);
}

#[tokio::test]
async fn a_result_for_an_unknown_call_is_404() {
    let server = Server::new().await;
    result(&server, "s1", "never-made")
        .await
        .assert_error(StatusCode::NOT_FOUND, "tool_call_not_found");
}

#[tokio::test]
async fn a_result_for_another_sessions_call_is_409() {
    let server = Server::new().await;
    call(&server, "s1", "v1", "view", json!({"path": "a"})).await;
    let reply = result(&server, "s2", "v1").await;
    reply.assert_error(StatusCode::CONFLICT, "result_not_accepted");
    assert!(reply.text.contains("another session"), "{}", reply.text);
}

#[tokio::test]
async fn an_allowed_call_takes_one_result_only() {
    let server = Server::new().await;
    call(&server, "s1", "v1", "view", json!({"path": "a"})).await;
    assert_eq!(
        result(&server, "s1", "v1").await.status,
        StatusCode::NO_CONTENT
    );
    result(&server, "s1", "v1")
        .await
        .assert_error(StatusCode::CONFLICT, "result_not_accepted");
    let messages = server
        .send(Method::GET, "/v1/sessions/s1/messages", None)
        .await
        .json();
    assert_eq!(part_of(&messages, "v1")["output"], "output");
}

fn view(id: &str) -> ToolCall {
    ToolCall::new("s1", id, "view", json!({"path": id}))
}

#[tokio::test]
async fn results_for_calls_forgotten_from_memory_or_decided_before_a_restart_are_checked_in_the_store()
 {
    let store = Arc::new(MemoryStore::new());
    let limits = EngineLimits {
        max_awaiting_results: 1,
        ..EngineLimits::default()
    };
    let engine = Engine::builder(support::chain::demo())
        .store(store.clone())
        .limits(limits)
        .build()
        .await
        .unwrap();
    let announce = AuthorizeOptions {
        announce: true,
        ..Default::default()
    };
    for id in ["a", "b", "c"] {
        engine.authorize(view(id), announce).await.unwrap();
    }
    let denied = ToolCall::new("s1", "d", "Bash", json!({"command": "rm -rf /"}));
    engine.authorize(denied, announce).await.unwrap();
    assert!(
        engine.memory_footprint().0 <= 1,
        "only one part awaits in memory"
    );
    // "a" left memory: its result is checked against the store and accepted once.
    engine
        .complete(&"s1".into(), &"a".into(), "done")
        .await
        .unwrap();
    assert!(matches!(
        engine.complete(&"s1".into(), &"a".into(), "again").await,
        Err(ResultError::NotAccepted { .. })
    ));
    // A restart: "b" was allowed, "d" denied; only "b" takes a result.
    let restarted = Engine::builder(support::chain::demo())
        .store(store.clone())
        .build()
        .await
        .unwrap();
    restarted
        .complete(&"s1".into(), &"b".into(), "done")
        .await
        .unwrap();
    assert!(matches!(
        restarted
            .complete(&"s1".into(), &"d".into(), "deleted everything")
            .await,
        Err(ResultError::NotAccepted { .. })
    ));
    assert!(matches!(
        restarted
            .complete(&"s2".into(), &"c".into(), "wrong session")
            .await,
        Err(ResultError::Unknown(_))
    ));
}

fn push() -> ToolCall {
    ToolCall::new(
        "s1",
        "push",
        "Bash",
        json!({"command": "git push origin main"}),
    )
}

#[tokio::test]
async fn an_approval_left_pending_by_a_restart_is_interrupted_and_refused_over_http() {
    let store: Arc<dyn Store> = Arc::new(MemoryStore::new());
    let before = Engine::builder(support::chain::demo())
        .store(store.clone())
        .build()
        .await
        .unwrap();
    let auth = before
        .authorize(push(), AuthorizeOptions::default())
        .await
        .unwrap();
    assert!(auth.approval.is_some());
    drop((auth, before));

    let server = Server::with(store.clone(), ServerConfig::new(TOKEN)).await;
    let pending = server.send(Method::GET, "/v1/approvals", None).await;
    assert_eq!(pending.json(), json!([]));
    server
        .send(
            Method::POST,
            "/v1/approvals/push",
            Some(json!({"actionId": "allow_session"})),
        )
        .await
        .assert_error(StatusCode::CONFLICT, "approval_not_pending");
    assert!(
        server.engine().grants().is_empty(),
        "no grant from a dead request"
    );
    let messages = server
        .send(Method::GET, "/v1/sessions/s1/messages", None)
        .await
        .json();
    let part = part_of(&messages, "push");
    assert_eq!(part["interrupted"], json!(true), "{part}");
    assert!(
        part["output"].as_str().unwrap().starts_with("Interrupted"),
        "{part}"
    );
    let late = result(&server, "s1", "push").await;
    late.assert_error(StatusCode::CONFLICT, "result_not_accepted");
}

#[tokio::test]
async fn concurrent_approvals_of_one_call_get_one_winner_and_409s_never_404() {
    let store = FailingStore::new();
    let server = Server::with(store.clone(), ServerConfig::new(TOKEN)).await;
    call(
        &server,
        "s1",
        "push",
        "Bash",
        json!({"command": "git push"}),
    )
    .await;
    store.resolution_delay_ms.store(200, Ordering::SeqCst);
    let engine = server.engine().clone();
    let attempts: Vec<_> = (0..8)
        .map(|_| {
            let engine = engine.clone();
            tokio::spawn(async move { engine.resolve(&"push".into(), "allow_once").await })
        })
        .collect();
    let mut won = 0;
    for attempt in attempts {
        match attempt.await.unwrap() {
            Ok(_) => won += 1,
            Err(ResolveError::NotPending(_)) => {}
            Err(other) => panic!("a loser must get 409, got {other:?}"),
        }
    }
    assert_eq!(won, 1);
    // After the winner, still 409.
    let reply = server
        .send(
            Method::POST,
            "/v1/approvals/push",
            Some(json!({"actionId": "deny"})),
        )
        .await;
    reply.assert_error(StatusCode::CONFLICT, "approval_not_pending");
}
