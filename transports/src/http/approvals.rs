//! `GET /v1/approvals` and `POST /v1/approvals/{toolCallId}`: the pending requests, and the
//! user's action on one of them.

use axum::Json;
use axum::extract::State;
use serde::Deserialize;
use warrant_core::approval::ToolApprovalRequest;
use warrant_core::decision::ToolPermissionResolution;

use super::{JsonBody, PathParams, ServerState};
use crate::error::ApiError;

/// The body of a resolution.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct Resolve {
    action_id: String,
}

/// Every pending approval request, oldest first.
pub(super) async fn pending(State(state): State<ServerState>) -> Json<Vec<ToolApprovalRequest>> {
    Json(state.engine().pending_requests())
}

/// `{actionId}` → the resolution: 404 unknown call, 409 not pending, 422 action not offered.
pub(super) async fn resolve(
    State(state): State<ServerState>,
    PathParams(tool_call_id): PathParams<String>,
    JsonBody(body): JsonBody<Resolve>,
) -> Result<Json<ToolPermissionResolution>, ApiError> {
    Ok(Json(
        state
            .engine()
            .resolve(&tool_call_id, &body.action_id)
            .await?,
    ))
}
