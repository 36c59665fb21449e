//! `POST /v1/replay`: policy replay. The recorded calls are decided again under a proposed
//! configuration (or proposed patterns) and the difference from what was recorded comes back;
//! nothing is emitted or persisted.
//!
//! The server does not build chains itself: the host injects a [`Replayer`] with
//! [`ServerState::set_replayer`](super::ServerState::set_replayer) (`warrant serve` does).
//! Without one the route answers 501 `replay_unavailable`.

use async_trait::async_trait;
use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};

use super::{JsonBody, ServerState};
use warrant_transports::error::ApiError;

/// The proposed configuration of a replay.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(untagged)]
pub enum ProposedConfig {
    /// The configuration file's text (TOML).
    Toml(String),
    /// The same configuration as a JSON object of the same shape.
    Json(serde_json::Map<String, serde_json::Value>),
}

/// What to replay: the body of `POST /v1/replay`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ReplayRequest {
    /// The configuration to decide the recorded calls under; the server's own when absent.
    #[serde(default)]
    pub config: Option<ProposedConfig>,
    /// Patterns to use instead of the stored ones with the same id (a pattern edit not yet
    /// saved), as `GET /v1/workspace` lists them.
    #[serde(default)]
    pub patterns: Option<Vec<serde_json::Value>>,
    /// Only this session's calls.
    #[serde(default)]
    pub session: Option<String>,
    /// Only calls recorded at or after this time (RFC 3339, or a plain date `YYYY-MM-DD`).
    #[serde(default)]
    pub since: Option<String>,
}

/// Why a replay could not be made. Each message names the bad value.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReplayError {
    /// The proposed configuration (or a proposed pattern) is malformed; the message names
    /// the key. Answered 422 `invalid_config`.
    #[error("{0}")]
    InvalidConfig(String),
    /// The session filter names no session with recorded calls. Answered 404
    /// `unknown_session`.
    #[error("{0}")]
    UnknownSession(String),
    /// A filter value cannot be read (`since`). Answered 400 `invalid_filter`.
    #[error("{0}")]
    InvalidFilter(String),
    /// The store could not be read. Answered 503 `store_unavailable`.
    #[error("{0}")]
    Store(String),
    /// Another replay is running: one runs at a time. Answered 409 `replay_busy`.
    #[error("{0}")]
    Busy(String),
    /// The replay did not finish within its deadline. Answered 503 `replay_timeout`.
    #[error("{0}")]
    Timeout(String),
}

impl From<ReplayError> for ApiError {
    fn from(e: ReplayError) -> Self {
        match e {
            ReplayError::InvalidConfig(m) => ApiError::unprocessable("invalid_config", m),
            ReplayError::UnknownSession(m) => ApiError::not_found("unknown_session", m),
            ReplayError::InvalidFilter(m) => ApiError::bad_request("invalid_filter", m),
            ReplayError::Store(m) => {
                ApiError::new(StatusCode::SERVICE_UNAVAILABLE, "store_unavailable", m)
            }
            ReplayError::Busy(m) => ApiError::new(StatusCode::CONFLICT, "replay_busy", m),
            ReplayError::Timeout(m) => {
                ApiError::new(StatusCode::SERVICE_UNAVAILABLE, "replay_timeout", m)
            }
        }
    }
}

/// Decides recorded calls again under a proposed configuration and reports the difference,
/// writing nothing.
#[async_trait]
pub trait Replayer: Send + Sync {
    /// The replay's report, as JSON (the same object `warrant replay --json` prints).
    ///
    /// # Errors
    ///
    /// A [`ReplayError`] naming the bad configuration key, session or filter value.
    async fn replay(&self, request: ReplayRequest) -> Result<serde_json::Value, ReplayError>;
}

/// `POST /v1/replay`: 200 with the report; 422 `invalid_config`, 404 `unknown_session`,
/// 400 `invalid_filter`, 409 `replay_busy` while another replay runs, 503 `replay_timeout`
/// past the replayer's deadline, 501 when the server has no replayer.
pub(super) async fn replay(
    State(state): State<ServerState>,
    JsonBody(request): JsonBody<ReplayRequest>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let Some(replayer) = state.replayer() else {
        return Err(ApiError::fixed(
            StatusCode::NOT_IMPLEMENTED,
            "replay_unavailable",
            "this server was started without policy replay",
        ));
    };
    Ok(Json(replayer.replay(request).await?))
}
