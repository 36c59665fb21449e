//! The workspace changes both transports offer, through the engine's serialized
//! [`update_workspace`](Engine::update_workspace).

use std::sync::Arc;
use warrant_core::ids::SessionId;

use axum::http::StatusCode;

use warrant_core::catalog::RuntimeTool;
use warrant_core::engine::Engine;
use warrant_core::workspace::{
    self, Pattern, SessionApprovalSettingsRequest, SessionStatus, WorkspaceState,
    update_session_approval_settings,
};

use crate::error::ApiError;

/// Adds an idle chat session with this id when the workspace has none, so that its approval
/// settings can be changed later.
///
/// # Errors
///
/// A store failure.
pub async fn ensure_session(engine: &Engine, session_id: &SessionId) -> Result<(), ApiError> {
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
    session_id: &SessionId,
    auto_approved_tool_names: Option<Vec<String>>,
) -> Result<Arc<WorkspaceState>, ApiError> {
    let request = SessionApprovalSettingsRequest::new(session_id, auto_approved_tool_names);
    Ok(engine
        .update_workspace(|state, runtime| {
            update_session_approval_settings(state, &request, runtime)
        })
        .await?)
}

/// Marks a session running or idle (adding it when new), so that `session_running` refuses
/// approval-settings changes while it runs. Nothing is written when the status is already
/// the one asked for.
///
/// # Errors
///
/// An invalid session id (422) or a store failure.
pub async fn set_session_status(
    engine: &Engine,
    session_id: &SessionId,
    status: SessionStatus,
) -> Result<Arc<WorkspaceState>, ApiError> {
    update_session(
        engine,
        session_id,
        |s| s.status == status,
        |s| s.status = status,
    )
    .await
}

/// Adds the session when new, then changes its record with `change` unless `done` says it
/// already is as asked.
async fn update_session(
    engine: &Engine,
    session_id: &SessionId,
    done: impl Fn(&warrant_core::workspace::SessionRecord) -> bool,
    change: impl Fn(&mut warrant_core::workspace::SessionRecord),
) -> Result<Arc<WorkspaceState>, ApiError> {
    ensure_session(engine, session_id).await?;
    let current = engine.workspace();
    if current.session(session_id.as_str()).is_some_and(&done) {
        return Ok(current);
    }
    Ok(engine
        .update_workspace(|state, _| {
            let mut next = state.clone();
            let session = next
                .sessions
                .iter_mut()
                .find(|s| s.id == session_id)
                .ok_or_else(|| workspace::ApprovalError::UnknownSession {
                    session_id: session_id.clone(),
                })?;
            change(session);
            Ok(next)
        })
        .await?)
}

/// Records which agent runs a session and where (shown in the UI's session list). A value
/// left out keeps the recorded one; an over-long one is refused naming the field (422).
///
/// # Errors
///
/// `invalid_value` for a value over its limit; the errors of a workspace update.
pub async fn set_session_origin(
    engine: &Engine,
    session_id: &SessionId,
    agent: Option<&str>,
    cwd: Option<&str>,
) -> Result<Arc<WorkspaceState>, ApiError> {
    use warrant_core::workspace::{MAX_SESSION_AGENT_CHARS, MAX_SESSION_CWD_CHARS};
    for (field, value, max) in [
        ("agent", agent, MAX_SESSION_AGENT_CHARS),
        ("cwd", cwd, MAX_SESSION_CWD_CHARS),
    ] {
        if let Some(v) = value
            && (v.chars().count() > max || v.chars().any(char::is_control))
        {
            return Err(ApiError::unprocessable(
                "invalid_value",
                format!("{field} must be at most {max} characters with no control characters"),
            ));
        }
    }
    update_session(
        engine,
        session_id,
        |s| {
            agent.is_none_or(|a| s.agent.as_deref() == Some(a))
                && cwd.is_none_or(|c| s.cwd.as_deref() == Some(c))
        },
        |s| {
            if let Some(a) = agent {
                s.agent = Some(a.to_owned());
            }
            if let Some(c) = cwd {
                s.cwd = Some(c.to_owned());
            }
        },
    )
    .await
}

/// Checks a runtime's tool list: every name non-blank, none twice.
///
/// # Errors
///
/// 422 `invalid_tool_name` naming the blank or repeated name and its position.
pub fn check_runtime_tools(tools: &[RuntimeTool]) -> Result<(), ApiError> {
    let mut seen = std::collections::HashSet::new();
    for (at, tool) in tools.iter().enumerate() {
        if tool.name.trim().is_empty() {
            return Err(ApiError::unprocessable(
                "invalid_tool_name",
                format!(
                    "tools[{at}]: the name {:?} is blank; give every tool its runtime id",
                    tool.name
                ),
            ));
        }
        if !seen.insert(tool.name.as_str()) {
            return Err(ApiError::unprocessable(
                "invalid_tool_name",
                format!(
                    "tools[{at}]: the tool \"{}\" is listed twice; list each tool once",
                    tool.name
                ),
            ));
        }
    }
    Ok(())
}
