//! The workspace changes both transports offer, through the engine's serialized
//! [`update_workspace`](Engine::update_workspace).

use std::sync::Arc;

use axum::http::StatusCode;

use warrant_core::engine::Engine;
use warrant_core::workspace::{
    self, Pattern, SessionApprovalSettingsRequest, WorkspaceState, update_session_approval_settings,
};

use crate::error::ApiError;

/// Adds an idle chat session with this id when the workspace has none, so that its approval
/// settings can be changed later.
///
/// # Errors
///
/// A store failure.
pub async fn ensure_session(engine: &Engine, session_id: &str) -> Result<(), ApiError> {
    warrant_core::workspace::check_session_id(session_id).map_err(|e| {
        ApiError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid_value",
            e.to_string(),
        )
    })?;
    engine.add_session(session_id).await?;
    Ok(())
}

/// `savePattern`: saves a pattern, rejecting unknown tool ids.
///
/// # Errors
///
/// See [`workspace::save_pattern`]; or a store failure.
pub async fn save_pattern(
    engine: &Engine,
    pattern: Pattern,
) -> Result<Arc<WorkspaceState>, ApiError> {
    Ok(engine
        .update_workspace(|state, runtime| workspace::save_pattern(state, pattern, runtime))
        .await?)
}

/// `savePattern` of the pattern `make` builds from the current workspace (read and saved
/// under the engine's workspace lock, so a merge never loses a concurrent change).
///
/// # Errors
///
/// See [`workspace::save_pattern`]; or a store failure.
pub async fn save_pattern_with(
    engine: &Engine,
    make: impl FnOnce(&WorkspaceState) -> Pattern,
) -> Result<Arc<WorkspaceState>, ApiError> {
    Ok(engine
        .update_workspace(|state, runtime| workspace::save_pattern(state, make(state), runtime))
        .await?)
}

/// `updateSessionApprovalSettings`: sets (`Some`, `[]` included) or clears (`None`) a
/// session's tool auto-approval override.
///
/// # Errors
///
/// See [`update_session_approval_settings`]; or a store failure.
pub async fn update_session_settings(
    engine: &Engine,
    session_id: &str,
    auto_approved_tool_names: Option<Vec<String>>,
) -> Result<Arc<WorkspaceState>, ApiError> {
    let request = SessionApprovalSettingsRequest::new(session_id, auto_approved_tool_names);
    Ok(engine
        .update_workspace(|state, runtime| {
            update_session_approval_settings(state, &request, runtime)
        })
        .await?)
}
