//! `GET /metrics`: the decision, reviewer and approval counters in the Prometheus text
//! exposition format 0.0.4, for the person's token only (an agent's token is refused).

use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};

use super::ServerState;
use crate::telemetry::Metrics;
use warrant_transports::error::ApiError;

/// The content type of the text exposition format.
const CONTENT_TYPE: &str = "text/plain; version=0.0.4; charset=utf-8";

/// Renders [`Metrics::global`] with the approvals pending now.
pub(super) async fn metrics(State(state): State<ServerState>, headers: HeaderMap) -> Response {
    if !is_person(&headers, &state.config().token) {
        let mut response = ApiError::fixed(
            StatusCode::UNAUTHORIZED,
            "invalid_token",
            "GET /metrics needs \"Authorization: Bearer <token>\" with the person's token",
        )
        .into_response();
        response
            .headers_mut()
            .insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
        return response;
    }
    let pending = state.engine().pending_requests().len();
    let mut response = Metrics::global().render(pending).into_response();
    response
        .headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static(CONTENT_TYPE));
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

/// Whether the request carries the person's bearer token (compared in constant time).
fn is_person(headers: &HeaderMap, token: &str) -> bool {
    let presented = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().split_once(' '))
        .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("bearer"))
        .map(|(_, t)| t.trim().as_bytes());
    match presented {
        Some(p) if !token.is_empty() && p.len() == token.len() => {
            p.iter()
                .zip(token.as_bytes())
                .fold(0u8, |acc, (x, y)| acc | (x ^ y))
                == 0
        }
        _ => false,
    }
}
