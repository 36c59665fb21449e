//! A session's routes: its event stream, sidecar tool calls and their results, its persisted
//! messages, and its approval settings.

use axum::Extension;
use axum::Json;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use serde::Deserialize;
use serde_json::Value;
use warrant_core::call::{PermissionMode, ToolCall};
use warrant_core::decision::ToolPermissionDecision;
use warrant_core::engine::AuthorizeOptions;
use warrant_core::part::Message;
use warrant_core::workspace::WorkspaceState;

use super::{Caller, JsonBody, PathParams, ServerState, sse_response};
use warrant_core::ids::{SessionId, ToolCallId};
use warrant_transports::error::ApiError;
use warrant_transports::sse::{EventStream, StopAt};
use warrant_transports::workspace::{ensure_session, update_session_settings};

/// `GET /v1/sessions/{id}/events`: the session's events after `Last-Event-ID` (from the oldest
/// retained one without it), then live ones, until the client leaves.
pub(super) async fn events(
    State(state): State<ServerState>,
    PathParams(id): PathParams<SessionId>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let after = match headers.get("last-event-id") {
        None => 0,
        Some(value) => {
            let shown = String::from_utf8_lossy(value.as_bytes())
                .chars()
                .take(100)
                .collect::<String>();
            let after = value
                .to_str()
                .ok()
                .and_then(|v| v.trim().parse::<u64>().ok())
                .filter(|n| i64::try_from(*n).is_ok())
                .ok_or_else(|| {
                    ApiError::bad_request(
                        "invalid_last_event_id",
                        format!(
                            "Last-Event-ID must be an event id (a whole number), got {shown:?}"
                        ),
                    )
                })?;
            // An id past the session's last event was never sent: resuming after it would
            // silently skip every event up to it.
            if after > 0
                && state
                    .hub()
                    .store()
                    .events_since(&id, after - 1, 1)
                    .await?
                    .is_empty()
            {
                return Err(ApiError::bad_request(
                    "invalid_last_event_id",
                    format!(
                        "Last-Event-ID {shown:?} is past the last event of session \"{id}\"; reconnect without it to read from the start"
                    ),
                ));
            }
            after
        }
    };
    let subscription = state.hub().subscribe(&id, after);
    let stream = EventStream::new(subscription, state.config().keep_alive, StopAt::Never);
    Ok(sse_response(stream))
}

/// A sidecar's tool call.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(super) struct ToolCallRequest {
    #[serde(default)]
    tool_call_id: Option<String>,
    tool_name: String,
    input: Value,
    #[serde(default)]
    mode: Option<PermissionMode>,
    #[serde(default)]
    agent_id: Option<String>,
    #[serde(default)]
    message_id: Option<String>,
    /// Emit `TOOL_CALL_START`/`ARGS`/`END` for the call (default: yes).
    #[serde(default)]
    announce: Option<bool>,
}

/// `POST /v1/sessions/{id}/tool-calls`: decides the call and answers with the decision. An
/// `ask` stays pending until `POST /v1/approvals/{toolCallId}`.
pub(super) async fn tool_call(
    State(state): State<ServerState>,
    caller: Option<Extension<Caller>>,
    PathParams(session_id): PathParams<SessionId>,
    JsonBody(request): JsonBody<ToolCallRequest>,
) -> Result<Json<ToolPermissionDecision>, ApiError> {
    let mut request = request;
    if let Some(Extension(Caller::Agent(agent))) = &caller {
        // An agent's credential names the agent: the call is its own, whatever the body says.
        match request.agent_id.as_deref() {
            Some(named) if named != agent => {
                return Err(ApiError::new(
                    StatusCode::FORBIDDEN,
                    "agent_mismatch",
                    format!(
                        "the call names agent \"{named}\" but the credential is agent \"{agent}\"'s"
                    ),
                ));
            }
            _ => request.agent_id = Some(agent.clone()),
        }
        if let Some(mode) = request.mode
            && !state.config().agent_modes.contains(&mode)
        {
            return Err(ApiError::new(
                StatusCode::FORBIDDEN,
                "mode_not_allowed",
                format!(
                    "an agent may not ask for mode \"{}\"; the server lets agents ask for {}",
                    mode.as_str(),
                    state
                        .config()
                        .agent_modes
                        .iter()
                        .map(|m| format!("\"{}\"", m.as_str()))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            ));
        }
    }
    if request.tool_name.trim().is_empty() {
        return Err(ApiError::bad_request(
            "invalid_body",
            "request body: toolName must name a tool",
        ));
    }
    let tool_call_id = match request.tool_call_id {
        Some(id) if id.trim().is_empty() => {
            return Err(ApiError::bad_request(
                "invalid_body",
                "request body: toolCallId must not be blank (leave it out to have one made)",
            ));
        }
        Some(id) => id,
        None => format!("call-{}", uuid::Uuid::new_v4().simple()),
    };
    let new_session = state.engine().workspace().session(&session_id).is_none();
    ensure_session(state.engine(), &session_id).await?;
    // A session an agent's credential opens is that agent's (it may then mark it running).
    if new_session && let Some(Extension(Caller::Agent(agent))) = &caller {
        warrant_transports::workspace::set_session_origin(
            state.engine(),
            &session_id,
            Some(agent),
            None,
        )
        .await?;
    }
    let mut call = ToolCall::new(session_id, tool_call_id, request.tool_name, request.input);
    call.agent_id = request.agent_id;
    call.message_id = request.message_id;
    let options = AuthorizeOptions {
        mode: request.mode.unwrap_or(state.config().mode),
        announce: request.announce.unwrap_or(true),
    };
    let authorization = state.engine().authorize(call, options).await?;
    Ok(Json(authorization.decision))
}

/// A call's result.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct ToolResult {
    /// The result: text, or any JSON (sent as its JSON text).
    content: Value,
}

/// `POST /v1/sessions/{id}/tool-calls/{toolCallId}/result`: reports what an allowed call of
/// the session returned (`TOOL_CALL_RESULT`); its tool part completes. 404 for an unknown
/// call; 409 for a call of another session, denied, awaiting approval or already completed.
pub(super) async fn tool_result(
    State(state): State<ServerState>,
    PathParams((session_id, tool_call_id)): PathParams<(SessionId, ToolCallId)>,
    JsonBody(result): JsonBody<ToolResult>,
) -> Result<StatusCode, ApiError> {
    let content = match result.content {
        Value::String(text) => text,
        other => other.to_string(),
    };
    state
        .engine()
        .complete(&session_id, &tool_call_id, &content)
        .await?;
    Ok(StatusCode::NO_CONTENT)
}

/// `GET /v1/sessions/{id}/messages`: the persisted messages with their tool parts.
pub(super) async fn messages(
    State(state): State<ServerState>,
    PathParams(session_id): PathParams<SessionId>,
) -> Result<Json<Vec<Message>>, ApiError> {
    Ok(Json(state.engine().store().messages(&session_id).await?))
}

/// The body of `PUT …/approval-settings`.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(super) struct ApprovalSettings {
    #[serde(default)]
    auto_approved_tool_names: Option<Vec<String>>,
}

/// `PUT /v1/sessions/{id}/approval-settings`: `{autoApprovedToolNames?}` sets the session's
/// override (absent or `null` clears it) and answers with the workspace state.
pub(super) async fn approval_settings(
    State(state): State<ServerState>,
    PathParams(session_id): PathParams<SessionId>,
    JsonBody(body): JsonBody<ApprovalSettings>,
) -> Result<Json<WorkspaceState>, ApiError> {
    let workspace =
        update_session_settings(state.engine(), &session_id, body.auto_approved_tool_names).await?;
    Ok(Json(WorkspaceState::clone(&workspace)))
}
