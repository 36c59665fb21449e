//! Errors as both transports report them: a status, a stable code and a message that names
//! the problem (`{"error":{"code","message"}}` over HTTP, `RUN_ERROR` over stdio).

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::json;
use warrant_core::engine::{
    EngineError, ResolveError, ResultError, RevokeError, WorkspaceUpdateError,
};
use warrant_core::event::{Event, RunError, now_millis};
use warrant_core::store::{StoreError, StoreErrorKind};
use warrant_core::workspace::ApprovalError;

/// A refused or failed request: what went wrong, as a status, a code and a message.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{code}: {message}")]
pub struct ApiError {
    /// The HTTP status that fits.
    pub status: StatusCode,
    /// A stable, machine-readable code (`action_not_offered`).
    pub code: String,
    /// What went wrong, naming the offending value.
    pub message: String,
}

impl ApiError {
    /// An error with this status, code and message. The message often quotes the request
    /// (a serde error names the bad value), so secrets are redacted and its length bounded.
    pub fn new(status: StatusCode, code: impl Into<String>, message: impl Into<String>) -> Self {
        Self {
            status,
            code: code.into(),
            message: warrant_core::sanitize::clean(
                &message.into(),
                warrant_core::sanitize::MAX_REASON_CHARS,
            ),
        }
    }

    /// An error whose message is the server's own fixed text (help such as
    /// `"Authorization: Bearer <token>"`): it quotes nothing from a request, so it is shown as
    /// written, never redacted.
    pub fn fixed(status: StatusCode, code: impl Into<String>, message: &'static str) -> Self {
        Self {
            status,
            code: code.into(),
            message: message.to_owned(),
        }
    }

    /// 400: the request is malformed.
    pub fn bad_request(code: impl Into<String>, message: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, code, message)
    }

    /// 404: the thing named does not exist.
    pub fn not_found(code: impl Into<String>, message: impl Into<String>) -> Self {
        Self::new(StatusCode::NOT_FOUND, code, message)
    }

    /// 409: the request conflicts with the current state.
    pub fn conflict(code: impl Into<String>, message: impl Into<String>) -> Self {
        Self::new(StatusCode::CONFLICT, code, message)
    }

    /// 422: the request is well-formed but names something not allowed.
    pub fn unprocessable(code: impl Into<String>, message: impl Into<String>) -> Self {
        Self::new(StatusCode::UNPROCESSABLE_ENTITY, code, message)
    }

    /// The JSON body: `{"error":{"code","message"}}`.
    pub fn body(&self) -> serde_json::Value {
        json!({"error": {"code": self.code, "message": self.message}})
    }

    /// The error as an AG-UI `RUN_ERROR` event.
    pub fn to_event(&self) -> Event {
        Event::RunError(RunError {
            message: self.message.clone(),
            code: Some(self.code.clone()),
            timestamp: Some(now_millis()),
        })
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.status, axum::Json(self.body())).into_response()
    }
}

impl From<StoreError> for ApiError {
    fn from(e: StoreError) -> Self {
        match e.kind {
            StoreErrorKind::Invalid => Self::new(
                StatusCode::UNPROCESSABLE_ENTITY,
                "invalid_value",
                e.to_string(),
            ),
            StoreErrorKind::Duplicate => Self::conflict("duplicate_tool_call", e.to_string()),
            _ => Self::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "store_unavailable",
                e.to_string(),
            ),
        }
    }
}

impl From<EngineError> for ApiError {
    fn from(e: EngineError) -> Self {
        match e {
            EngineError::DuplicateCall(_) => Self::conflict("duplicate_tool_call", e.to_string()),
            EngineError::Store(e) => e.into(),
            EngineError::Audit { .. } => Self::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "store_unavailable",
                e.to_string(),
            ),
            _ => Self::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                "internal_error",
                e.to_string(),
            ),
        }
    }
}

impl From<ResolveError> for ApiError {
    fn from(e: ResolveError) -> Self {
        match &e {
            ResolveError::Unknown(_) => Self::not_found("approval_not_found", e.to_string()),
            ResolveError::NotPending(_) => Self::conflict("approval_not_pending", e.to_string()),
            ResolveError::ActionNotOffered { .. } => {
                Self::unprocessable("action_not_offered", e.to_string())
            }
            ResolveError::MessageRefused(_) => {
                Self::unprocessable("message_refused", e.to_string())
            }
            ResolveError::Store(_) => Self::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "store_unavailable",
                e.to_string(),
            ),
            _ => Self::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                "internal_error",
                e.to_string(),
            ),
        }
    }
}

impl From<ResultError> for ApiError {
    fn from(e: ResultError) -> Self {
        match &e {
            ResultError::Unknown(_) => Self::not_found("tool_call_not_found", e.to_string()),
            ResultError::NotAccepted { .. } => Self::conflict("result_not_accepted", e.to_string()),
            ResultError::Store(_) => Self::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "store_unavailable",
                e.to_string(),
            ),
            _ => Self::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                "internal_error",
                e.to_string(),
            ),
        }
    }
}

impl From<ApprovalError> for ApiError {
    fn from(e: ApprovalError) -> Self {
        let status = if e.is_not_found() {
            StatusCode::NOT_FOUND
        } else {
            match e {
                ApprovalError::SessionRunning { .. } | ApprovalError::PatternInUse { .. } => {
                    StatusCode::CONFLICT
                }
                ApprovalError::BlankId { .. } => StatusCode::BAD_REQUEST,
                _ => StatusCode::UNPROCESSABLE_ENTITY,
            }
        };
        Self::new(status, e.code(), e.to_string())
    }
}

impl From<WorkspaceUpdateError> for ApiError {
    fn from(e: WorkspaceUpdateError) -> Self {
        match e {
            WorkspaceUpdateError::Rejected(e) => e.into(),
            WorkspaceUpdateError::Engine(e) => e.into(),
            _ => Self::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                "internal_error",
                e.to_string(),
            ),
        }
    }
}

impl From<RevokeError> for ApiError {
    fn from(e: RevokeError) -> Self {
        match &e {
            RevokeError::Unknown(_) => Self::not_found("grant_not_found", e.to_string()),
            _ => Self::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "store_unavailable",
                e.to_string(),
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_messages_never_echo_secrets() {
        let key = "sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789";
        let error = ApiError::bad_request("invalid_line", format!("unknown variant `bogus_{key}`"));
        assert!(!error.message.contains(key), "{}", error.message);
        assert!(error.message.contains("unknown variant"));
    }
}
