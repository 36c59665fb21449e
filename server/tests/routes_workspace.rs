//! The catalog, patterns and workspace routes.

mod support;

use axum::http::{Method, StatusCode};
use serde_json::json;
use warrant_server::ServerConfig;

use support::failing::FailingStore;
use support::{Server, TOKEN};

#[tokio::test]
async fn tools_lists_the_catalog() {
    let server = Server::new().await;
    let reply = server.send(Method::GET, "/v1/tools", None).await;
    assert_eq!(reply.status, StatusCode::OK);
    let tools = reply.json();
    let ids: Vec<&str> = tools
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["id"].as_str().unwrap())
        .collect();
    assert!(ids.contains(&"Bash") && ids.contains(&"view"), "{ids:?}");
    assert_eq!(tools[0]["kind"], "builtin");
    assert!(tools[0]["label"].is_string());
}

#[tokio::test]
async fn patterns_start_with_the_default_pattern() {
    let server = Server::new().await;
    let patterns = server.send(Method::GET, "/v1/patterns", None).await.json();
    assert_eq!(patterns[0]["id"], "default");
    assert_eq!(
        patterns[0]["approvalPolicy"]["rules"][0]["kind"],
        "tool-call"
    );
}

#[tokio::test]
async fn a_pattern_is_saved_under_its_path_id() {
    let server = Server::new().await;
    let body = json!({"name": "Reviewers", "approvalPolicy": {"rules": [], "autoApprovedToolNames": ["view"]}});
    let reply = server
        .send(Method::PUT, "/v1/patterns/reviewers", Some(body))
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    let saved = &reply.json()["patterns"][1];
    assert_eq!(saved["id"], "reviewers");
    assert_eq!(
        saved["approvalPolicy"]["autoApprovedToolNames"],
        json!(["view"])
    );
    let patterns = server.send(Method::GET, "/v1/patterns", None).await.json();
    assert_eq!(patterns[1]["name"], "Reviewers");
}

#[tokio::test]
async fn a_pattern_naming_unknown_tools_is_422() {
    let server = Server::new().await;
    let body = json!({"approvalPolicy": {"rules": [], "autoApprovedToolNames": ["lsp_ts_hovr"]}});
    server
        .send(Method::PUT, "/v1/patterns/p1", Some(body))
        .await
        .assert_error(StatusCode::UNPROCESSABLE_ENTITY, "unknown_tool_ids");
}

#[tokio::test]
async fn a_pattern_whose_id_disagrees_with_the_path_or_is_not_an_object_is_400() {
    let server = Server::new().await;
    server
        .send(Method::PUT, "/v1/patterns/p1", Some(json!({"id": "p2"})))
        .await
        .assert_error(StatusCode::BAD_REQUEST, "id_mismatch");
    server
        .send(Method::PUT, "/v1/patterns/p1", Some(json!(["p1"])))
        .await
        .assert_error(StatusCode::BAD_REQUEST, "invalid_body");
    server
        .send(
            Method::PUT,
            "/v1/patterns/p1",
            Some(json!({"approvalPolicy": {"rules": "all"}})),
        )
        .await
        .assert_error(StatusCode::BAD_REQUEST, "invalid_body");
}

#[tokio::test]
async fn a_pattern_that_cannot_be_saved_is_503() {
    let store = FailingStore::new();
    let server = Server::with(store.clone(), ServerConfig::new(TOKEN)).await;
    store.fail();
    server
        .send(Method::PUT, "/v1/patterns/p1", Some(json!({"name": "P"})))
        .await
        .assert_error(StatusCode::SERVICE_UNAVAILABLE, "store_unavailable");
}

#[tokio::test]
async fn workspace_holds_tooling_patterns_and_sessions() {
    let server = Server::new().await;
    let reply = server.send(Method::GET, "/v1/workspace", None).await;
    assert_eq!(reply.status, StatusCode::OK);
    let workspace = reply.json();
    assert!(workspace["settings"].is_object(), "{workspace}");
    assert_eq!(workspace["patterns"][0]["id"], "default");
    assert_eq!(workspace["sessions"], json!([]));
}
