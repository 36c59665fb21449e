//! `POST /v1/replay`: the route hands the proposal to the host's replayer and answers its
//! report; its errors become 422 / 404 / 400 / 409 / 503 naming the bad value; without a replayer
//! it is 501; it is a person's route; the body is bounded.

mod support;

use std::sync::{Arc, Mutex};

use axum::body::Body;
use axum::http::{Method, StatusCode, header};
use serde_json::{Value, json};
use warrant_core::store::MemoryStore;
use warrant_server::{
    AgentCredential, ProposedConfig, ReplayError, ReplayRequest, Replayer, ServerConfig,
};

use support::{Server, TOKEN, request};

/// A replayer that keeps the requests it got and answers `answer`.
struct Recording {
    requests: Mutex<Vec<ReplayRequest>>,
    answer: Result<Value, ReplayError>,
}

#[async_trait::async_trait]
impl Replayer for Recording {
    async fn replay(&self, request: ReplayRequest) -> Result<Value, ReplayError> {
        self.requests.lock().unwrap().push(request);
        self.answer.clone()
    }
}

async fn server_with(
    answer: Result<Value, ReplayError>,
    body_limit: usize,
) -> (Server, Arc<Recording>) {
    let config = ServerConfig {
        agents: vec![AgentCredential::new("coder", "agent-token")],
        body_limit,
        ..ServerConfig::new(TOKEN)
    };
    let server = Server::with(Arc::new(MemoryStore::new()), config).await;
    let replayer = Arc::new(Recording {
        requests: Mutex::new(Vec::new()),
        answer,
    });
    assert!(server.state.set_replayer(replayer.clone()));
    (server, replayer)
}

#[tokio::test]
async fn the_proposal_reaches_the_replayer_and_its_report_comes_back() {
    let report = json!({"changed": 2, "groups": []});
    let (server, replayer) = server_with(Ok(report.clone()), 64 * 1024).await;

    let toml = "[evaluators.rules.user]\nask = [\"Run(git status)\"]\n";
    let reply = server
        .send(
            Method::POST,
            "/v1/replay",
            Some(json!({"config": toml, "session": "s1", "since": "2026-11-30"})),
        )
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    assert_eq!(reply.json(), report);

    let table = json!({"evaluators": {"rules": {"user": {"deny": ["Run(git push)"]}}}});
    let patterns = json!([{"id": "default", "approvalPolicy": {"rules": []}}]);
    let reply = server
        .send(
            Method::POST,
            "/v1/replay",
            Some(json!({"config": table, "patterns": patterns})),
        )
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);

    let requests = replayer.requests.lock().unwrap().clone();
    assert_eq!(
        requests,
        [
            ReplayRequest {
                config: Some(ProposedConfig::Toml(toml.to_owned())),
                patterns: None,
                session: Some("s1".to_owned()),
                since: Some("2026-11-30".to_owned()),
            },
            ReplayRequest {
                config: Some(ProposedConfig::Json(table.as_object().unwrap().clone())),
                patterns: Some(patterns.as_array().unwrap().clone()),
                session: None,
                since: None,
            },
        ]
    );
}

#[tokio::test]
async fn replayer_errors_keep_their_status_and_message() {
    for (error, status, code) in [
        (
            ReplayError::InvalidConfig(
                "key \"evaluators.rules.user.ask\": expected a sequence".into(),
            ),
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid_config",
        ),
        (
            ReplayError::UnknownSession("unknown session \"nope\"".into()),
            StatusCode::NOT_FOUND,
            "unknown_session",
        ),
        (
            ReplayError::InvalidFilter("invalid time \"yesterday\"".into()),
            StatusCode::BAD_REQUEST,
            "invalid_filter",
        ),
        (
            ReplayError::Store("cannot read the store".into()),
            StatusCode::SERVICE_UNAVAILABLE,
            "store_unavailable",
        ),
        (
            ReplayError::Busy("another policy replay is running".into()),
            StatusCode::CONFLICT,
            "replay_busy",
        ),
        (
            ReplayError::Timeout("the policy replay took longer than 60 s".into()),
            StatusCode::SERVICE_UNAVAILABLE,
            "replay_timeout",
        ),
    ] {
        let message = error.to_string();
        let (server, _) = server_with(Err(error), 64 * 1024).await;
        let reply = server
            .send(Method::POST, "/v1/replay", Some(json!({})))
            .await;
        reply.assert_error(status, code);
        assert_eq!(reply.json()["error"]["message"], message);
    }
}

#[tokio::test]
async fn malformed_and_oversized_bodies_never_reach_the_replayer() {
    let (server, replayer) = server_with(Ok(json!({})), 1024).await;
    let reply = server
        .send(Method::POST, "/v1/replay", Some(json!({"config": 5})))
        .await;
    reply.assert_error(StatusCode::BAD_REQUEST, "invalid_body");
    let reply = server
        .send(Method::POST, "/v1/replay", Some(json!({"filter": "s1"})))
        .await;
    reply.assert_error(StatusCode::BAD_REQUEST, "invalid_body");
    assert!(
        reply.json()["error"]["message"]
            .as_str()
            .unwrap()
            .contains("filter")
    );
    let big = "x".repeat(4096);
    let reply = server
        .send(Method::POST, "/v1/replay", Some(json!({"config": big})))
        .await;
    reply.assert_error(StatusCode::PAYLOAD_TOO_LARGE, "body_too_large");
    assert!(replayer.requests.lock().unwrap().is_empty());
}

#[tokio::test]
async fn replay_is_a_persons_route() {
    let (server, replayer) = server_with(Ok(json!({})), 64 * 1024).await;
    let reply = server
        .raw(
            request(Method::POST, "/v1/replay")
                .header(header::AUTHORIZATION, "Bearer agent-token")
                .body(Body::from("{}"))
                .unwrap(),
        )
        .await;
    reply.assert_error(StatusCode::FORBIDDEN, "person_only");
    let reply = server
        .raw(
            request(Method::POST, "/v1/replay")
                .body(Body::from("{}"))
                .unwrap(),
        )
        .await;
    reply.assert_error(StatusCode::UNAUTHORIZED, "missing_token");
    assert!(replayer.requests.lock().unwrap().is_empty());
}

#[tokio::test]
async fn without_a_replayer_the_route_says_so() {
    let server = Server::new().await;
    let reply = server
        .send(Method::POST, "/v1/replay", Some(json!({})))
        .await;
    reply.assert_error(StatusCode::NOT_IMPLEMENTED, "replay_unavailable");
}
