//! `GET /v1/approvals`, `POST /v1/approvals/{toolCallId}` and `DELETE …`: the pending
//! requests, the user's action on one of them, and the agent withdrawing one.

use axum::extract::State;
use axum::http::StatusCode;
use axum::{Extension, Json};
use serde::Deserialize;
use warrant_core::approval::ToolApprovalRequest;
use warrant_core::decision::ToolPermissionResolution;

use super::{Caller, JsonBody, PathParams, ServerState};
use warrant_core::ids::ToolCallId;
use warrant_transports::error::ApiError;

/// The body of a resolution.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct Resolve {
    action_id: String,
    /// What to tell the agent with a denial.
    #[serde(default)]
    message: Option<String>,
}

/// Every pending approval request, oldest first.
pub(super) async fn pending(State(state): State<ServerState>) -> Json<Vec<ToolApprovalRequest>> {
    Json(state.engine().pending_requests())
}

/// `{actionId, message?}` → the resolution: 404 unknown call, 409 not pending, 422 action not
/// offered or a message refused.
pub(super) async fn resolve(
    State(state): State<ServerState>,
    PathParams(tool_call_id): PathParams<ToolCallId>,
    JsonBody(body): JsonBody<Resolve>,
) -> Result<Json<ToolPermissionResolution>, ApiError> {
    Ok(Json(
        state
            .engine()
            .resolve_with_message(&tool_call_id, &body.action_id, body.message.as_deref())
            .await?,
    ))
}

/// The body of a withdrawal (optional).
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(super) struct Withdraw {
    /// Why, for the audit log.
    #[serde(default)]
    reason: Option<String>,
}

/// `DELETE /v1/approvals/{toolCallId}` `{reason?}`: the agent withdraws its request (it stopped
/// waiting); audited as `cancel`, the call never runs → 204. An agent's credential withdraws
/// only its own agent's requests (403 `agent_mismatch`); 404 unknown, 409 not pending.
pub(super) async fn cancel(
    State(state): State<ServerState>,
    caller: Option<Extension<Caller>>,
    PathParams(tool_call_id): PathParams<ToolCallId>,
    body: axum::body::Bytes,
) -> Result<StatusCode, ApiError> {
    let body: Withdraw = if body.iter().all(u8::is_ascii_whitespace) {
        Withdraw::default()
    } else {
        serde_json::from_slice(&body).map_err(|e| {
            ApiError::bad_request(
                "invalid_body",
                format!("the body must be {{\"reason\"?: string}} ({e})"),
            )
        })?
    };
    if let Some(Extension(Caller::Agent(agent))) = &caller
        && let Some(owner) = state.engine().request_agent(&tool_call_id)
        && owner != *agent
    {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            "agent_mismatch",
            format!(
                "the request of tool call \"{tool_call_id}\" belongs to another agent; the credential is agent \"{agent}\"'s"
            ),
        ));
    }
    let reason = body
        .reason
        .map(|r| warrant_core::sanitize::clean(&r, warrant_core::sanitize::MAX_REASON_CHARS))
        .unwrap_or_else(|| "the agent withdrew the request".to_owned());
    state.engine().cancel(&tool_call_id, &reason).await?;
    Ok(StatusCode::NO_CONTENT)
}
