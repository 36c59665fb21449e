//! The guard in front of every route: a `Host` that does not name the server is refused
//! (421, DNS rebinding), so are browser requests from a foreign origin (403) and overlong
//! URIs (414); every `/v1/` route needs the bearer token (401).

use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use super::{Caller, ServerConfig, ServerState};
use warrant_transports::error::ApiError;

/// The longest request target accepted (path and query), in bytes.
pub(super) const MAX_URI_BYTES: usize = 8 * 1024;

/// Checks the URI's length, the host, the origin, then the token, then passes the request on.
pub(super) async fn guard(
    State(state): State<ServerState>,
    request: Request,
    next: Next,
) -> Response {
    let target = request
        .uri()
        .path_and_query()
        .map_or(0, |p| p.as_str().len());
    if target > MAX_URI_BYTES {
        return ApiError::new(
            StatusCode::URI_TOO_LONG,
            "uri_too_long",
            format!("the request URI is {target} bytes long; the limit is {MAX_URI_BYTES}"),
        )
        .into_response();
    }
    if let Some(host) = request.headers().get(header::HOST) {
        let allowed = host.to_str().is_ok_and(|h| state.host_allowed(h));
        if !allowed {
            let shown: String = String::from_utf8_lossy(host.as_bytes())
                .chars()
                .take(200)
                .collect();
            return ApiError::new(
                StatusCode::MISDIRECTED_REQUEST,
                "foreign_host",
                format!("Host \"{shown}\" does not name this server: use its address, localhost or an IP address, or add the name to allowed_hosts"),
            )
            .into_response();
        }
    }
    if let Some(origin) = request.headers().get(header::ORIGIN) {
        let allowed = origin.to_str().is_ok_and(|o| state.origin_allowed(o));
        if !allowed {
            let shown: String = String::from_utf8_lossy(origin.as_bytes())
                .chars()
                .take(200)
                .collect();
            return ApiError::new(
                StatusCode::FORBIDDEN,
                "foreign_origin",
                format!("requests from origin \"{shown}\" are refused: only the server's own origin (or one listed in allowed_origins) may call it"),
            )
            .into_response();
        }
    }
    let mut request = request;
    if request.uri().path().starts_with("/v1/") {
        let caller = match caller(request.headers(), state.config()) {
            Ok(caller) => caller,
            Err(e) => {
                let mut response = e.into_response();
                response
                    .headers_mut()
                    .insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
                return response;
            }
        };
        if let Caller::Agent(id) = &caller
            && !agent_route(request.method(), request.uri().path())
        {
            return ApiError::new(
                StatusCode::FORBIDDEN,
                "person_only",
                format!(
                    "{} {} is a person's route; the agent \"{id}\" may post its tool calls, report their results and read its session's events and the tool catalog",
                    request.method(),
                    request.uri().path()
                ),
            )
            .into_response();
        }
        request.extensions_mut().insert(caller);
    }
    next.run(request).await
}

/// The routes an agent's credential opens: its calls, their results, the session's events
/// and the tool catalog. Approvals, patterns, settings and the AG-UI chat are a person's.
fn agent_route(method: &axum::http::Method, path: &str) -> bool {
    let parts: Vec<&str> = path.trim_end_matches('/').split('/').collect();
    matches!(
        (method.as_str(), parts.as_slice()),
        ("POST", ["", "v1", "sessions", _, "tool-calls"])
            | ("POST", ["", "v1", "sessions", _, "tool-calls", _, "result"])
            | ("GET", ["", "v1", "sessions", _, "events"])
            | ("GET", ["", "v1", "tools"])
            | ("DELETE", ["", "v1", "approvals", _])
            | ("POST", ["", "v1", "sessions", _, "run"])
    )
}

/// Who the request's bearer token names: the person's token, or an agent's.
fn caller(headers: &HeaderMap, config: &ServerConfig) -> Result<Caller, ApiError> {
    let presented = presented(headers)?;
    if !config.token.is_empty() && same(presented.as_bytes(), config.token.as_bytes()) {
        return Ok(Caller::Person);
    }
    // Every credential is compared, so the time taken does not tell which one matched.
    let mut found = None;
    for agent in &config.agents {
        if !agent.token.is_empty() && same(presented.as_bytes(), agent.token.as_bytes()) {
            found = Some(agent.id.clone());
        }
    }
    found.map(Caller::Agent).ok_or_else(|| {
        ApiError::fixed(
            StatusCode::UNAUTHORIZED,
            "invalid_token",
            "the bearer token is not valid for this server",
        )
    })
}

/// The token of an `Authorization: Bearer <token>` header.
fn presented(headers: &HeaderMap) -> Result<String, ApiError> {
    let unauthorized =
        |code, message: &'static str| ApiError::fixed(StatusCode::UNAUTHORIZED, code, message);
    let Some(value) = headers.get(header::AUTHORIZATION) else {
        return Err(unauthorized(
            "missing_token",
            "this route needs \"Authorization: Bearer <token>\" (the token is configured as WARRANT_TOKEN, or printed by warrant serve at start)",
        ));
    };
    value
        .to_str()
        .ok()
        .and_then(|v| v.trim().split_once(' '))
        .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("bearer"))
        .map(|(_, presented)| presented.trim().to_owned())
        .ok_or_else(|| {
            unauthorized(
                "invalid_token",
                "the Authorization header must read \"Bearer <token>\"",
            )
        })
}

/// Compares in time independent of where the inputs differ.
fn same(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}
