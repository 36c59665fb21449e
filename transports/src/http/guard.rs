//! The guard in front of every route: a `Host` that does not name the server is refused
//! (421, DNS rebinding), so are browser requests from a foreign origin (403) and overlong
//! URIs (414); every `/v1/` route needs the bearer token (401).

use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use super::ServerState;
use crate::error::ApiError;

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
    if request.uri().path().starts_with("/v1/")
        && let Err(e) = check_token(request.headers(), &state.config().token)
    {
        let mut response = e.into_response();
        response
            .headers_mut()
            .insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
        return response;
    }
    next.run(request).await
}

fn check_token(headers: &HeaderMap, token: &str) -> Result<(), ApiError> {
    let unauthorized =
        |code, message: &'static str| ApiError::fixed(StatusCode::UNAUTHORIZED, code, message);
    let Some(value) = headers.get(header::AUTHORIZATION) else {
        return Err(unauthorized(
            "missing_token",
            "this route needs \"Authorization: Bearer <token>\" (the token is configured as WARRANT_TOKEN, or printed by warrant serve at start)",
        ));
    };
    let presented = value
        .to_str()
        .ok()
        .and_then(|v| v.trim().split_once(' '))
        .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("bearer"))
        .map(|(_, presented)| presented.trim());
    match presented {
        // An empty configured token never matches: no token is not an open door.
        Some(presented) if !token.is_empty() && same(presented.as_bytes(), token.as_bytes()) => {
            Ok(())
        }
        Some(_) => Err(unauthorized(
            "invalid_token",
            "the bearer token is not valid for this server",
        )),
        None => Err(unauthorized(
            "invalid_token",
            "the Authorization header must read \"Bearer <token>\"",
        )),
    }
}

/// Compares in time independent of where the inputs differ.
fn same(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}
