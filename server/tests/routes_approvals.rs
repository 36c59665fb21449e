//! `GET /v1/approvals` and `POST /v1/approvals/{toolCallId}`: 200 with the resolution, 404
//! unknown, 409 not pending or already resolved, 422 action not offered, 503 store down.

mod support;

use axum::http::{Method, StatusCode};
use serde_json::{Value, json};
use warrant_server::ServerConfig;

use support::failing::FailingStore;
use support::{Server, TOKEN};

async fn call(server: &Server, id: &str, tool: &str, input: Value) -> Value {
    let body = json!({"toolCallId": id, "toolName": tool, "input": input});
    let reply = server
        .send(Method::POST, "/v1/sessions/s1/tool-calls", Some(body))
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    reply.json()
}

async fn resolve(server: &Server, id: &str, action: &str) -> support::Reply {
    let path = format!("/v1/approvals/{id}");
    server
        .send(Method::POST, &path, Some(json!({"actionId": action})))
        .await
}

#[tokio::test]
async fn pending_requests_are_listed_and_resolved_once() {
    let server = Server::new().await;
    let decision = call(&server, "c1", "Bash", json!({"command": "git push"})).await;
    assert_eq!(decision["behavior"], "ask");
    let pending = server.send(Method::GET, "/v1/approvals", None).await.json();
    assert_eq!(pending[0]["toolCallId"], "c1");
    assert_eq!(pending[0]["toolName"], "Bash");

    let reply = resolve(&server, "c1", "allow_once").await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    assert_eq!(
        reply.json(),
        json!({"toolCallId": "c1", "behavior": "allow", "source": "user", "actionId": "allow_once", "scope": "once"})
    );
    let pending = server.send(Method::GET, "/v1/approvals", None).await.json();
    assert_eq!(pending, json!([]));
}

#[tokio::test]
async fn an_unknown_call_is_404() {
    let server = Server::new().await;
    resolve(&server, "nobody", "allow_once")
        .await
        .assert_error(StatusCode::NOT_FOUND, "approval_not_found");
}

#[tokio::test]
async fn a_second_resolution_is_409() {
    let server = Server::new().await;
    call(&server, "c1", "Bash", json!({"command": "git push"})).await;
    assert_eq!(resolve(&server, "c1", "deny").await.status, StatusCode::OK);
    resolve(&server, "c1", "allow_once")
        .await
        .assert_error(StatusCode::CONFLICT, "approval_not_pending");
}

#[tokio::test]
async fn a_call_that_never_asked_is_409() {
    let server = Server::new().await;
    let decision = call(&server, "c1", "view", json!({"path": "README.md"})).await;
    assert_eq!(decision["behavior"], "allow");
    resolve(&server, "c1", "allow_once")
        .await
        .assert_error(StatusCode::CONFLICT, "approval_not_pending");
}

#[tokio::test]
async fn an_action_not_offered_is_422_and_the_request_stays_pending() {
    let server = Server::new().await;
    call(&server, "c1", "Bash", json!({"command": "git push"})).await;
    let reply = resolve(&server, "c1", "allow_forever").await;
    reply.assert_error(StatusCode::UNPROCESSABLE_ENTITY, "action_not_offered");
    assert!(
        reply.text.contains("allow_once"),
        "names the offered actions: {}",
        reply.text
    );
    assert_eq!(
        resolve(&server, "c1", "allow_once").await.status,
        StatusCode::OK
    );
}

#[tokio::test]
async fn a_store_failure_is_503_and_the_request_stays_pending() {
    let store = FailingStore::new();
    let server = Server::with(store.clone(), ServerConfig::new(TOKEN)).await;
    call(&server, "c1", "Bash", json!({"command": "git push"})).await;
    store.fail();
    resolve(&server, "c1", "allow_once")
        .await
        .assert_error(StatusCode::SERVICE_UNAVAILABLE, "store_unavailable");
    let pending = server.send(Method::GET, "/v1/approvals", None).await.json();
    assert_eq!(pending[0]["toolCallId"], "c1");
}
