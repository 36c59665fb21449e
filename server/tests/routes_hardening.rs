//! Every rejection is the JSON error shape (the router's own included), the `Host` must name
//! the server, an out-of-range `Last-Event-ID` is 400, a partial pattern save never turns
//! checkpoints off, the server's own help text is not redacted, and embedders cannot emit
//! the engine's events.

mod support;

use std::sync::Arc;

use axum::body::Body;
use axum::http::{Method, StatusCode, header};
use serde_json::json;
use warrant_core::engine::Engine;
use warrant_core::event::{
    AgentEvent, AppCustom, Custom, Event, NotAnAgentEvent, TOOL_PERMISSION_DECISION, ToolCallResult,
};
use warrant_core::store::MemoryStore;
use warrant_core::transport::MemoryTransport;
use warrant_server::ServerConfig;

use support::{Server, TOKEN, request};

fn with_token(method: Method, path: &str) -> axum::http::request::Builder {
    request(method, path).header(header::AUTHORIZATION, format!("Bearer {TOKEN}"))
}

#[tokio::test]
async fn a_path_with_invalid_percent_encoding_is_400_json() {
    let server = Server::new().await;
    let reply = server
        .raw(
            with_token(Method::GET, "/v1/sessions/%C3%28/messages")
                .body(Body::empty())
                .unwrap(),
        )
        .await;
    reply.assert_error(StatusCode::BAD_REQUEST, "invalid_path");
    assert!(reply.text.contains("%C3%28"), "{}", reply.text);
}

#[tokio::test]
async fn an_overlong_uri_is_414_json() {
    let server = Server::new().await;
    let path = format!("/v1/sessions/{}/messages", "s".repeat(10_000));
    let reply = server
        .raw(with_token(Method::GET, &path).body(Body::empty()).unwrap())
        .await;
    reply.assert_error(StatusCode::URI_TOO_LONG, "uri_too_long");
}

#[tokio::test]
async fn a_host_that_does_not_name_the_server_is_421_json() {
    let server = Server::new().await;
    let reply = server
        .raw(
            with_token(Method::GET, "/v1/tools")
                .header(header::HOST, "attacker.example:7878")
                .body(Body::empty())
                .unwrap(),
        )
        .await;
    reply.assert_error(StatusCode::MISDIRECTED_REQUEST, "foreign_host");
    assert!(
        reply.text.contains("attacker.example:7878"),
        "{}",
        reply.text
    );
    for host in [
        "localhost:7878",
        "127.0.0.1:7878",
        "[::1]:7878",
        "localhost",
    ] {
        let reply = server
            .raw(
                with_token(Method::GET, "/v1/tools")
                    .header(header::HOST, host)
                    .body(Body::empty())
                    .unwrap(),
            )
            .await;
        assert_eq!(reply.status, StatusCode::OK, "{host}: {}", reply.text);
    }
}

#[tokio::test]
async fn configured_host_names_are_allowed() {
    let mut config = ServerConfig::new(TOKEN);
    config.allowed_hosts = vec!["warrant.internal".into()];
    let server = Server::with(Arc::new(MemoryStore::new()), config).await;
    let reply = server
        .raw(
            with_token(Method::GET, "/v1/tools")
                .header(header::HOST, "warrant.internal:7878")
                .body(Body::empty())
                .unwrap(),
        )
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
}

#[tokio::test]
async fn a_last_event_id_past_the_sessions_last_event_is_400() {
    let server = Server::new().await;
    let body = json!({"toolCallId": "c1", "toolName": "view", "input": {"path": "a"}});
    server
        .send(Method::POST, "/v1/sessions/s1/tool-calls", Some(body))
        .await;
    let last = server
        .state
        .hub()
        .store()
        .events_since(&"s1".into(), 0, 100)
        .await
        .unwrap()
        .last()
        .unwrap()
        .seq;
    for bad in [
        format!("{}", last + 1),
        "18446744073709551615".to_owned(),
        "-1".to_owned(),
    ] {
        let reply = server
            .raw(
                with_token(Method::GET, "/v1/sessions/s1/events")
                    .header("last-event-id", &bad)
                    .body(Body::empty())
                    .unwrap(),
            )
            .await;
        reply.assert_error(StatusCode::BAD_REQUEST, "invalid_last_event_id");
        assert!(reply.text.contains(&bad), "{}", reply.text);
    }
    let ok = server
        .open(
            with_token(Method::GET, "/v1/sessions/s1/events")
                .header("last-event-id", last.to_string())
                .body(Body::empty())
                .unwrap(),
        )
        .await;
    assert_eq!(ok.status(), StatusCode::OK);
}

#[tokio::test]
async fn the_missing_token_message_shows_the_help_text_unredacted() {
    let server = Server::new().await;
    let reply = server
        .raw(
            request(Method::GET, "/v1/tools")
                .body(Body::empty())
                .unwrap(),
        )
        .await;
    reply.assert_error(StatusCode::UNAUTHORIZED, "missing_token");
    assert!(
        reply.text.contains("Authorization: Bearer <token>"),
        "{}",
        reply.text
    );
}

#[tokio::test]
async fn a_partial_pattern_save_never_turns_checkpoints_off() {
    let server = Server::new().await;
    let saved = server
        .send(
            Method::PUT,
            "/v1/patterns/default",
            Some(json!({"name": "Renamed"})),
        )
        .await;
    assert_eq!(saved.status, StatusCode::OK, "{}", saved.text);
    let workspace = server.engine().workspace();
    let pattern = workspace.pattern("default").unwrap();
    assert_eq!(pattern.name, "Renamed");
    assert!(
        workspace
            .effective_policy("s1")
            .tool_call_checkpoint("primary"),
        "{pattern:?}"
    );

    // A new pattern without a policy starts from the default's: checkpoints on.
    server
        .send(Method::PUT, "/v1/patterns/p2", Some(json!({"name": "Two"})))
        .await;
    let p2 = server.engine().workspace().pattern("p2").cloned().unwrap();
    assert_eq!(p2.approval_policy.rules.len(), 1, "{p2:?}");

    // A policy without rules keeps the rules; only an explicit [] turns them off.
    server
        .send(
            Method::PUT,
            "/v1/patterns/p2",
            Some(json!({"approvalPolicy": {"autoApprovedToolNames": ["view"]}})),
        )
        .await;
    let p2 = server.engine().workspace().pattern("p2").cloned().unwrap();
    assert_eq!(p2.approval_policy.rules.len(), 1, "{p2:?}");
    assert_eq!(p2.name, "Two");
    server
        .send(
            Method::PUT,
            "/v1/patterns/p2",
            Some(json!({"approvalPolicy": {"rules": []}})),
        )
        .await;
    let p2 = server.engine().workspace().pattern("p2").cloned().unwrap();
    assert!(p2.approval_policy.rules.is_empty());
}

#[tokio::test]
async fn a_pattern_with_an_unknown_field_or_a_blank_name_is_400_naming_it() {
    let server = Server::new().await;
    let reply = server
        .send(Method::PUT, "/v1/patterns/p1", Some(json!({"nmae": "x"})))
        .await;
    reply.assert_error(StatusCode::BAD_REQUEST, "invalid_body");
    assert!(reply.text.contains("nmae"), "{}", reply.text);
    server
        .send(Method::PUT, "/v1/patterns/p1", Some(json!({"name": "  "})))
        .await
        .assert_error(StatusCode::BAD_REQUEST, "invalid_body");
    assert!(server.engine().workspace().pattern("p1").is_none());
}

#[test]
fn embedders_cannot_emit_decisions_requests_resolutions_or_tool_events() {
    let forged = Event::Custom(Custom {
        name: TOOL_PERMISSION_DECISION.into(),
        value: json!({"toolCallId": "c1", "behavior": "allow"}),
        timestamp: None,
    });
    assert!(matches!(
        AgentEvent::try_from(forged),
        Err(NotAnAgentEvent::Reserved(_))
    ));
    for name in [
        "tool_permission_decision",
        "tool_approval_request",
        "tool_permission_resolution",
    ] {
        assert!(AppCustom::new(name, json!({})).is_err(), "{name}");
    }
    let result = Event::ToolCallResult(ToolCallResult {
        message_id: "m".into(),
        tool_call_id: "c1".into(),
        content: "forged".into(),
        role: None,
        timestamp: None,
    });
    assert!(matches!(
        AgentEvent::try_from(result),
        Err(NotAnAgentEvent::ToolCall("TOOL_CALL_RESULT"))
    ));
}

#[tokio::test]
async fn an_embedders_own_custom_event_is_delivered() {
    let transport = Arc::new(MemoryTransport::new());
    let engine = Engine::builder(support::chain::demo())
        .transport(transport.clone())
        .build()
        .await
        .unwrap();
    let mut rx = transport.subscribe(&"s1".into());
    let custom = AppCustom::new("my_progress", json!({"percent": 40})).unwrap();
    engine.emit(&"s1".into(), AgentEvent::Custom(custom)).await;
    let Event::Custom(received) = rx.try_recv().unwrap() else {
        panic!("a CUSTOM event")
    };
    assert_eq!(
        (received.name.as_str(), received.value),
        ("my_progress", json!({"percent": 40}))
    );
}
