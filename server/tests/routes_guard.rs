//! The guard and the shared error shapes: 401 without the token on every `/v1/` route, 403
//! for a foreign origin, 404/405 as JSON, 413 over the body limit, 400 naming bad JSON.

mod support;

use std::sync::Arc;

use axum::body::Body;
use axum::http::{Method, StatusCode, header};
use serde_json::json;
use warrant_core::store::MemoryStore;
use warrant_server::ServerConfig;

use support::{Server, TOKEN, request};

/// Every `/v1/` route, with a body where it takes one.
const ROUTES: [(&str, &str); 13] = [
    ("POST", "/v1/agent"),
    ("GET", "/v1/sessions/s1/events"),
    ("POST", "/v1/sessions/s1/tool-calls"),
    ("POST", "/v1/sessions/s1/tool-calls/c1/result"),
    ("GET", "/v1/sessions/s1/messages"),
    ("PUT", "/v1/sessions/s1/approval-settings"),
    ("GET", "/v1/approvals"),
    ("POST", "/v1/approvals/c1"),
    ("GET", "/v1/tools"),
    ("GET", "/v1/patterns"),
    ("PUT", "/v1/patterns/p1"),
    ("GET", "/v1/workspace"),
    ("GET", "/v1/no-such-route"),
];

#[tokio::test]
async fn healthz_answers_without_a_token() {
    let server = Server::new().await;
    let reply = server
        .raw(
            request(Method::GET, "/healthz")
                .body(Body::empty())
                .unwrap(),
        )
        .await;
    assert_eq!(reply.status, StatusCode::OK);
    assert_eq!(reply.json(), json!({"status": "ok"}));
}

#[tokio::test]
async fn the_ui_page_answers_without_a_token() {
    let server = Server::new().await;
    let reply = server
        .raw(request(Method::GET, "/").body(Body::empty()).unwrap())
        .await;
    assert_eq!(reply.status, StatusCode::OK);
    assert!(
        reply.content_type.starts_with("text/html"),
        "{}",
        reply.content_type
    );
    assert!(reply.text.contains("<html"), "{}", reply.text);
}

#[tokio::test]
async fn every_api_route_needs_the_token() {
    let server = Server::new().await;
    for (method, path) in ROUTES {
        let method: Method = method.parse().unwrap();
        let reply = server
            .raw(
                request(method.clone(), path)
                    .body(Body::from("{}"))
                    .unwrap(),
            )
            .await;
        reply.assert_error(StatusCode::UNAUTHORIZED, "missing_token");
        let response = server
            .open(request(method, path).body(Body::from("{}")).unwrap())
            .await;
        assert_eq!(
            response.headers()[header::WWW_AUTHENTICATE],
            "Bearer",
            "{path}"
        );
    }
}

#[tokio::test]
async fn a_wrong_token_or_scheme_is_refused() {
    let server = Server::new().await;
    for value in ["Bearer nope", "Basic dGVzdA==", "test-token"] {
        let reply = server
            .raw(
                request(Method::GET, "/v1/workspace")
                    .header(header::AUTHORIZATION, value)
                    .body(Body::empty())
                    .unwrap(),
            )
            .await;
        reply.assert_error(StatusCode::UNAUTHORIZED, "invalid_token");
    }
}

#[tokio::test]
async fn an_empty_configured_token_lets_nobody_in() {
    let server = Server::with(Arc::new(MemoryStore::new()), ServerConfig::new("")).await;
    let reply = server
        .raw(
            request(Method::GET, "/v1/workspace")
                .header(header::AUTHORIZATION, "Bearer ")
                .body(Body::empty())
                .unwrap(),
        )
        .await;
    reply.assert_error(StatusCode::UNAUTHORIZED, "invalid_token");
}

#[tokio::test]
async fn the_bearer_scheme_is_case_insensitive() {
    let server = Server::new().await;
    let reply = server
        .raw(
            request(Method::GET, "/v1/workspace")
                .header(header::AUTHORIZATION, format!("bearer {TOKEN}"))
                .body(Body::empty())
                .unwrap(),
        )
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
}

#[tokio::test]
async fn a_foreign_origin_is_refused_on_every_route() {
    let server = Server::new().await;
    for path in ["/healthz", "/", "/v1/workspace"] {
        let reply = server
            .raw(
                request(Method::GET, path)
                    .header(header::ORIGIN, "http://evil.example:7878")
                    .header(header::AUTHORIZATION, format!("Bearer {TOKEN}"))
                    .body(Body::empty())
                    .unwrap(),
            )
            .await;
        reply.assert_error(StatusCode::FORBIDDEN, "foreign_origin");
    }
}

#[tokio::test]
async fn the_servers_own_and_configured_origins_are_accepted() {
    let mut config = ServerConfig::new(TOKEN);
    config.allowed_origins = vec!["http://localhost:5173".to_owned()];
    let server = Server::with(Arc::new(MemoryStore::new()), config).await;
    for origin in [
        "http://127.0.0.1:7878",
        "http://localhost:7878",
        "http://localhost:5173",
    ] {
        let reply = server
            .raw(
                request(Method::GET, "/v1/workspace")
                    .header(header::ORIGIN, origin)
                    .header(header::AUTHORIZATION, format!("Bearer {TOKEN}"))
                    .body(Body::empty())
                    .unwrap(),
            )
            .await;
        assert_eq!(reply.status, StatusCode::OK, "{origin}: {}", reply.text);
    }
}

#[tokio::test]
async fn unknown_routes_and_methods_answer_json() {
    let server = Server::new().await;
    server
        .send(Method::GET, "/v1/no-such-route", None)
        .await
        .assert_error(StatusCode::NOT_FOUND, "not_found");
    server
        .send(Method::DELETE, "/v1/workspace", None)
        .await
        .assert_error(StatusCode::METHOD_NOT_ALLOWED, "method_not_allowed");
}

#[tokio::test]
async fn a_body_over_the_limit_is_413() {
    let mut config = ServerConfig::new(TOKEN);
    config.body_limit = 64;
    let server = Server::with(Arc::new(MemoryStore::new()), config).await;
    let big = json!({"actionId": "x".repeat(100)});
    let reply = server
        .send(Method::POST, "/v1/approvals/c1", Some(big))
        .await;
    reply.assert_error(StatusCode::PAYLOAD_TOO_LARGE, "body_too_large");
    assert!(reply.text.contains("64 bytes"), "{}", reply.text);
}

#[tokio::test]
async fn a_repeated_key_is_400_naming_it() {
    let server = Server::new().await;
    let reply = server
        .raw(
            request(Method::POST, "/v1/sessions/s1/tool-calls")
                .header(header::AUTHORIZATION, format!("Bearer {TOKEN}"))
                .header(header::CONTENT_TYPE, "application/json")
                .body(Body::from(
                    r#"{"toolCallId":"c1","toolName":"Bash","input":{"command":"rm -rf ~","command":"ls"}}"#,
                ))
                .unwrap(),
        )
        .await;
    reply.assert_error(StatusCode::BAD_REQUEST, "invalid_json");
    let message = reply.json()["error"]["message"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(
        message.contains("`/input/command` is repeated"),
        "{message}"
    );
}

#[tokio::test]
async fn malformed_json_is_400_naming_the_problem() {
    let server = Server::new().await;
    let reply = server
        .raw(
            request(Method::POST, "/v1/approvals/c1")
                .header(header::AUTHORIZATION, format!("Bearer {TOKEN}"))
                .body(Body::from("{\"actionId\": "))
                .unwrap(),
        )
        .await;
    reply.assert_error(StatusCode::BAD_REQUEST, "invalid_json");
    assert!(
        reply.json()["error"]["message"]
            .as_str()
            .unwrap()
            .contains("line 1"),
        "{}",
        reply.text
    );
}

#[tokio::test]
async fn a_body_of_the_wrong_shape_is_400_naming_the_field() {
    let server = Server::new().await;
    let reply = server
        .send(
            Method::POST,
            "/v1/approvals/c1",
            Some(json!({"action": "allow_once"})),
        )
        .await;
    reply.assert_error(StatusCode::BAD_REQUEST, "invalid_body");
    assert!(reply.text.contains("actionId"), "{}", reply.text);
}
