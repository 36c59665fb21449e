//! The JSON body extractor: a body over the limit is 413, one that does not arrive in time
//! is 408, malformed JSON or a body of the wrong shape is 400, each with a message naming
//! the problem.

use axum::body::Bytes;
use axum::extract::{FromRequest, Request};
use axum::http::StatusCode;
use serde::de::DeserializeOwned;

use super::ServerState;
use warrant_transports::error::ApiError;

/// A request body read as JSON of type `T` (whatever its content type).
#[derive(Debug, Clone)]
pub struct JsonBody<T>(pub T);

impl<T: DeserializeOwned> FromRequest<ServerState> for JsonBody<T> {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &ServerState) -> Result<Self, ApiError> {
        let limit = state.config().body_timeout;
        let read = tokio::time::timeout(limit, Bytes::from_request(request, state));
        let bytes = read
            .await
            .map_err(|_| {
                ApiError::new(
                    StatusCode::REQUEST_TIMEOUT,
                    "body_timeout",
                    format!(
                        "the request body did not arrive within {} seconds",
                        limit.as_secs_f64()
                    ),
                )
            })?
            .map_err(|rejection| {
                if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
                    ApiError::new(
                        StatusCode::PAYLOAD_TOO_LARGE,
                        "body_too_large",
                        format!(
                            "the request body exceeds the limit of {} bytes",
                            state.config().body_limit
                        ),
                    )
                } else {
                    ApiError::bad_request("unreadable_body", rejection.body_text())
                }
            })?;
        let parsed = serde_json::from_slice(&bytes).map(JsonBody).map_err(|e| {
            let code = if e.is_data() {
                "invalid_body"
            } else {
                "invalid_json"
            };
            ApiError::bad_request(code, format!("request body: {e}"))
        })?;
        // Parsers disagree on which of two equal keys wins: a body holding one is refused.
        let text = std::str::from_utf8(&bytes).unwrap_or_default();
        if let Some(path) = warrant_core::json::repeated_key(text) {
            return Err(ApiError::bad_request(
                "invalid_json",
                format!("request body: the key `{path}` is repeated"),
            ));
        }
        Ok(parsed)
    }
}
