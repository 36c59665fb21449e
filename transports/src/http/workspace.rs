//! The tool catalog, patterns and workspace routes.

use axum::Json;
use axum::extract::{Path, State};
use serde_json::Value;
use warrant_core::catalog::ToolDefinition;
use warrant_core::workspace::{Pattern, WorkspaceState};

use super::{JsonBody, ServerState};
use crate::error::ApiError;
use crate::workspace;

/// `GET /v1/tools`: the catalog (`listApprovalToolDefinitions`).
pub(super) async fn tools(State(state): State<ServerState>) -> Json<Vec<ToolDefinition>> {
    Json(state.engine().catalog().tools.clone())
}

/// `GET /v1/patterns`.
pub(super) async fn patterns(State(state): State<ServerState>) -> Json<Vec<Pattern>> {
    Json(state.engine().workspace().patterns.clone())
}

/// `PUT /v1/patterns/{id}`: saves the pattern (its `id` may be left out; when present it
/// must match the path) and answers with the workspace state. Unknown tool ids: 422.
pub(super) async fn save_pattern(
    State(state): State<ServerState>,
    Path(id): Path<String>,
    JsonBody(mut body): JsonBody<Value>,
) -> Result<Json<WorkspaceState>, ApiError> {
    let Some(fields) = body.as_object_mut() else {
        return Err(ApiError::bad_request(
            "invalid_body",
            "request body: a pattern must be a JSON object",
        ));
    };
    match fields.get("id") {
        None => {
            fields.insert("id".to_owned(), Value::String(id.clone()));
        }
        Some(Value::String(given)) if *given == id => {}
        Some(given) => {
            return Err(ApiError::bad_request(
                "id_mismatch",
                format!("the body's id {given} does not match the path's \"{id}\""),
            ));
        }
    }
    let pattern: Pattern = serde_json::from_value(body)
        .map_err(|e| ApiError::bad_request("invalid_body", format!("request body: {e}")))?;
    let saved = workspace::save_pattern(state.engine(), pattern).await?;
    Ok(Json(WorkspaceState::clone(&saved)))
}

/// `GET /v1/workspace`: tooling, patterns and sessions.
pub(super) async fn workspace(State(state): State<ServerState>) -> Json<WorkspaceState> {
    Json(WorkspaceState::clone(&state.engine().workspace()))
}
