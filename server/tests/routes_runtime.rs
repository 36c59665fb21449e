//! The runtime's tools, MCP servers, LSP profiles and a session's run: each change validates
//! ids and prunes the tool ids no longer offered; bad input is a 4xx naming the bad value.

mod support;

use axum::http::{Method, StatusCode};
use serde_json::{Value, json};
use warrant_core::catalog::RuntimeTool;

use support::Server;

fn ids(tools: &Value) -> Vec<String> {
    tools
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["id"].as_str().unwrap().to_owned())
        .collect()
}

async fn auto_approve(server: &Server, ids: &[&str]) -> Value {
    let reply = server
        .send(
            Method::PUT,
            "/v1/patterns/default",
            Some(json!({"approvalPolicy": {"autoApprovedToolNames": ids}})),
        )
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    reply.json()
}

#[tokio::test]
async fn runtime_tools_replace_the_builtin_catalog_and_prune_stale_ids() {
    let server = Server::new().await;
    auto_approve(&server, &["view", "glob"]).await;
    let reply = server
        .send(
            Method::PUT,
            "/v1/runtime-tools",
            Some(json!({"tools": [
                {"name": "view", "description": "Read a file"},
                {"name": "shell", "inputSchema": {"type": "object"}}
            ]})),
        )
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    assert_eq!(ids(&reply.json()), ["view", "shell"]);
    let patterns = server.send(Method::GET, "/v1/patterns", None).await.json();
    assert_eq!(
        patterns[0]["approvalPolicy"]["autoApprovedToolNames"],
        json!(["view"]),
        "glob is no longer a runtime tool"
    );
}

#[tokio::test]
async fn runtime_tools_with_a_blank_or_repeated_name_are_422() {
    let server = Server::new().await;
    for tools in [
        json!([{"name": " "}]),
        json!([{"name": "view"}, {"name": "view"}]),
    ] {
        let reply = server
            .send(
                Method::PUT,
                "/v1/runtime-tools",
                Some(json!({ "tools": tools })),
            )
            .await;
        reply.assert_error(StatusCode::UNPROCESSABLE_ENTITY, "invalid_tool_name");
        assert!(reply.text.contains("tools["), "{}", reply.text);
    }
}

#[tokio::test]
async fn runtime_tools_of_the_wrong_shape_are_400() {
    let server = Server::new().await;
    for body in [
        json!(["view"]),
        json!({"tools": [{"nme": "view"}]}),
        json!({"tools": "view"}),
    ] {
        server
            .send(Method::PUT, "/v1/runtime-tools", Some(body))
            .await
            .assert_error(StatusCode::BAD_REQUEST, "invalid_body");
    }
}

#[tokio::test]
async fn an_mcp_server_offers_its_tools_and_deleting_it_prunes_them() {
    let server = Server::new().await;
    let reply = server
        .send(
            Method::PUT,
            "/v1/mcp-servers/git",
            Some(json!({"name": "Git", "tools": ["git.status", "git.log"]})),
        )
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    assert_eq!(
        reply.json()["settings"]["tooling"]["mcpServers"][0]["id"],
        "git"
    );
    let tools = server.send(Method::GET, "/v1/tools", None).await.json();
    assert!(ids(&tools).contains(&"git.status".to_owned()));
    auto_approve(&server, &["view", "git.status", "git.log"]).await;

    // Saving it without git.log prunes git.log only.
    server
        .send(
            Method::PUT,
            "/v1/mcp-servers/git",
            Some(json!({"tools": ["git.status"]})),
        )
        .await;
    let patterns = server.send(Method::GET, "/v1/patterns", None).await.json();
    assert_eq!(
        patterns[0]["approvalPolicy"]["autoApprovedToolNames"],
        json!(["view", "git.status"])
    );

    let reply = server
        .send(Method::DELETE, "/v1/mcp-servers/git", None)
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    let patterns = server.send(Method::GET, "/v1/patterns", None).await.json();
    assert_eq!(
        patterns[0]["approvalPolicy"]["autoApprovedToolNames"],
        json!(["view"])
    );
}

#[tokio::test]
async fn mcp_server_errors_name_the_bad_value() {
    let server = Server::new().await;
    server
        .send(Method::DELETE, "/v1/mcp-servers/ghost", None)
        .await
        .assert_error(StatusCode::NOT_FOUND, "unknown_mcp_server");
    let reply = server
        .send(
            Method::PUT,
            "/v1/mcp-servers/git",
            Some(json!({"id": "svn"})),
        )
        .await;
    reply.assert_error(StatusCode::BAD_REQUEST, "id_mismatch");
    assert!(reply.text.contains("svn"), "{}", reply.text);
    server
        .send(
            Method::PUT,
            "/v1/mcp-servers/git",
            Some(json!({"tools": ["git.status", ""]})),
        )
        .await
        .assert_error(StatusCode::UNPROCESSABLE_ENTITY, "invalid_tool_name");
    server
        .send(
            Method::PUT,
            "/v1/mcp-servers/git",
            Some(json!({"tols": []})),
        )
        .await
        .assert_error(StatusCode::BAD_REQUEST, "invalid_body");
    server
        .send(Method::PUT, "/v1/mcp-servers/%20", Some(json!({})))
        .await
        .assert_error(StatusCode::BAD_REQUEST, "blank_id");
}

#[tokio::test]
async fn an_lsp_profile_offers_its_operations_and_deleting_it_prunes_them() {
    let server = Server::new().await;
    let reply = server
        .send(
            Method::PUT,
            "/v1/lsp-profiles/ts",
            Some(json!({"name": "TypeScript"})),
        )
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    let tools = server.send(Method::GET, "/v1/tools", None).await.json();
    assert!(ids(&tools).contains(&"lsp_ts_hover".to_owned()));
    auto_approve(&server, &["lsp_ts_hover"]).await;
    let reply = server
        .send(Method::DELETE, "/v1/lsp-profiles/ts", None)
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    assert_eq!(
        reply.json()["patterns"][0]["approvalPolicy"]["autoApprovedToolNames"],
        json!([])
    );
}

#[tokio::test]
async fn lsp_profile_errors_name_the_bad_value() {
    let server = Server::new().await;
    server
        .send(Method::DELETE, "/v1/lsp-profiles/ts", None)
        .await
        .assert_error(StatusCode::NOT_FOUND, "unknown_lsp_profile");
    let reply = server
        .send(
            Method::PUT,
            "/v1/lsp-profiles/type%20script",
            Some(json!({})),
        )
        .await;
    reply.assert_error(StatusCode::UNPROCESSABLE_ENTITY, "invalid_profile_id");
    assert!(reply.text.contains("type script"), "{}", reply.text);
    server
        .send(
            Method::PUT,
            "/v1/lsp-profiles/ts",
            Some(json!({"id": "py"})),
        )
        .await
        .assert_error(StatusCode::BAD_REQUEST, "id_mismatch");
}

#[tokio::test]
async fn a_running_session_refuses_settings_changes_until_it_finishes() {
    let server = Server::new().await;
    let reply = server
        .send(
            Method::POST,
            "/v1/sessions/s1/run",
            Some(json!({"action": "start"})),
        )
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    assert_eq!(reply.json()["status"], "running");
    // Starting again is harmless.
    let again = server
        .send(
            Method::POST,
            "/v1/sessions/s1/run",
            Some(json!({"action": "start"})),
        )
        .await;
    assert_eq!(again.status, StatusCode::OK);
    server
        .send(
            Method::PUT,
            "/v1/sessions/s1/approval-settings",
            Some(json!({"autoApprovedToolNames": ["view"]})),
        )
        .await
        .assert_error(StatusCode::CONFLICT, "session_running");
    let reply = server
        .send(
            Method::POST,
            "/v1/sessions/s1/run",
            Some(json!({"action": "finish"})),
        )
        .await;
    assert_eq!(reply.json()["status"], "idle");
    let reply = server
        .send(
            Method::PUT,
            "/v1/sessions/s1/approval-settings",
            Some(json!({"autoApprovedToolNames": ["view"]})),
        )
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
}

#[tokio::test]
async fn run_errors_name_the_bad_value() {
    let server = Server::new().await;
    server
        .send(
            Method::POST,
            "/v1/sessions/ghost/run",
            Some(json!({"action": "finish"})),
        )
        .await
        .assert_error(StatusCode::NOT_FOUND, "unknown_session");
    let reply = server
        .send(
            Method::POST,
            "/v1/sessions/s1/run",
            Some(json!({"action": "pause"})),
        )
        .await;
    reply.assert_error(StatusCode::BAD_REQUEST, "invalid_body");
    assert!(reply.text.contains("pause"), "{}", reply.text);
}

#[tokio::test]
async fn an_agent_token_cannot_change_the_runtime_or_tooling() {
    let mut config = warrant_server::ServerConfig::new(support::TOKEN);
    config.agents = vec![warrant_server::AgentCredential::new("bot", "bot-token")];
    let server = Server::with(
        std::sync::Arc::new(warrant_core::store::MemoryStore::new()),
        config,
    )
    .await;
    let request = support::request(Method::PUT, "/v1/runtime-tools")
        .header("authorization", "Bearer bot-token")
        .body(axum::body::Body::from(json!({"tools": []}).to_string()))
        .unwrap();
    server
        .raw(request)
        .await
        .assert_error(StatusCode::FORBIDDEN, "person_only");
}

#[tokio::test]
async fn engine_runtime_tools_are_what_the_route_set() {
    let server = Server::new().await;
    server
        .send(
            Method::PUT,
            "/v1/runtime-tools",
            Some(json!({"tools": [{"name": "view"}]})),
        )
        .await;
    let catalog = server.engine().catalog();
    assert_eq!(
        catalog.runtime_tools(),
        Some(
            &[RuntimeTool {
                name: "view".into(),
                description: None,
                input_schema: None
            }][..]
        )
    );
}
