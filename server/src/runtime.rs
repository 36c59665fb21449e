//! What the runtime reports and what the workspace configures: the runtime's tools, MCP
//! servers, LSP profiles (each change validates ids and prunes the tool ids no longer
//! offered), and whether a session is running.

use axum::extract::State;
use axum::http::StatusCode;
use axum::{Extension, Json};
use serde::Deserialize;
use serde_json::Value;
use warrant_core::catalog::{RuntimeTool, ToolDefinition};
use warrant_core::workspace::{
    self, LspProfile, McpServer, SessionRecord, SessionStatus, WorkspaceState,
};

use super::{Caller, JsonBody, PathParams, ServerState};
use warrant_core::ids::SessionId;
use warrant_transports::error::ApiError;
use warrant_transports::workspace::{check_runtime_tools, set_session_status};

/// The body of `PUT /v1/runtime-tools`: `{"tools": [{"name", "description"?, "inputSchema"?}]}`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RuntimeToolsBody {
    tools: Vec<RuntimeToolBody>,
}

/// One runtime tool as reported.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(super) struct RuntimeToolBody {
    name: String,
    #[serde(default)]
    description: Option<String>,
    #[serde(default)]
    input_schema: Option<Value>,
}

/// `PUT /v1/runtime-tools`: sets the tools the runtime reported; stale tool ids are pruned
/// from every pattern and session, and the answer is the new catalog (as `GET /v1/tools`).
pub(super) async fn put_runtime_tools(
    State(state): State<ServerState>,
    JsonBody(body): JsonBody<RuntimeToolsBody>,
) -> Result<Json<Vec<ToolDefinition>>, ApiError> {
    let tools: Vec<RuntimeTool> = body
        .tools
        .into_iter()
        .map(|t| RuntimeTool {
            name: t.name,
            description: t.description,
            input_schema: t.input_schema,
        })
        .collect();
    check_runtime_tools(&tools)?;
    state.engine().set_runtime_tools(tools).await?;
    Ok(Json(state.engine().catalog().tools.clone()))
}

/// The body of `PUT /v1/mcp-servers/{id}`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct McpServerBody {
    #[serde(default)]
    id: Option<String>,
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    tools: Vec<String>,
}

/// `PUT /v1/mcp-servers/{id}`: saves the server (replacing the one with this id) and answers
/// with the workspace state; tool ids its old tool list offered and the new one does not are
/// pruned.
pub(super) async fn put_mcp_server(
    State(state): State<ServerState>,
    PathParams(id): PathParams<String>,
    JsonBody(body): JsonBody<McpServerBody>,
) -> Result<Json<WorkspaceState>, ApiError> {
    same_id(body.id.as_deref(), &id)?;
    if let Some(at) = body.tools.iter().position(|t| t.trim().is_empty()) {
        return Err(ApiError::unprocessable(
            "invalid_tool_name",
            format!(
                "tools[{at}]: the name {:?} is blank; list the server's tool names",
                body.tools[at]
            ),
        ));
    }
    let server = McpServer {
        id,
        name: body.name.unwrap_or_default(),
        tools: body.tools,
    };
    let next = state
        .engine()
        .update_workspace(|s, runtime| workspace::save_mcp_server(s, server, runtime))
        .await?;
    Ok(Json(WorkspaceState::clone(&next)))
}

/// `DELETE /v1/mcp-servers/{id}`: removes the server (404 when none has the id) and prunes
/// the tool ids only it offered.
pub(super) async fn delete_mcp_server(
    State(state): State<ServerState>,
    PathParams(id): PathParams<String>,
) -> Result<Json<WorkspaceState>, ApiError> {
    let next = state
        .engine()
        .update_workspace(|s, runtime| workspace::delete_mcp_server(s, &id, runtime))
        .await?;
    Ok(Json(WorkspaceState::clone(&next)))
}

/// The body of `PUT /v1/lsp-profiles/{id}`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct LspProfileBody {
    #[serde(default)]
    id: Option<String>,
    #[serde(default)]
    name: Option<String>,
}

/// `PUT /v1/lsp-profiles/{id}`: saves the profile, whose tools are `lsp_{id}_{operation}`;
/// the id is letters, digits, `-` and `_` only, so every derived tool id reads back.
pub(super) async fn put_lsp_profile(
    State(state): State<ServerState>,
    PathParams(id): PathParams<String>,
    JsonBody(body): JsonBody<LspProfileBody>,
) -> Result<Json<WorkspaceState>, ApiError> {
    same_id(body.id.as_deref(), &id)?;
    if !id.trim().is_empty()
        && !id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    {
        return Err(ApiError::unprocessable(
            "invalid_profile_id",
            format!(
                "LSP profile id \"{id}\" may hold only letters, digits, '-' and '_' (its tools are lsp_{{id}}_{{operation}})"
            ),
        ));
    }
    let profile = LspProfile {
        id,
        name: body.name.unwrap_or_default(),
    };
    let next = state
        .engine()
        .update_workspace(|s, runtime| workspace::save_lsp_profile(s, profile, runtime))
        .await?;
    Ok(Json(WorkspaceState::clone(&next)))
}

/// `DELETE /v1/lsp-profiles/{id}`: removes the profile (404 when none has the id) and prunes
/// its tool ids.
pub(super) async fn delete_lsp_profile(
    State(state): State<ServerState>,
    PathParams(id): PathParams<String>,
) -> Result<Json<WorkspaceState>, ApiError> {
    let next = state
        .engine()
        .update_workspace(|s, runtime| workspace::delete_lsp_profile(s, &id, runtime))
        .await?;
    Ok(Json(WorkspaceState::clone(&next)))
}

/// The body of `POST /v1/sessions/{id}/run`: `{"action": "start", "agent"?, "cwd"?}` or
/// `{"action": "finish"}`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RunBody {
    action: RunAction,
    /// The agent running the session (shown in the session list).
    #[serde(default)]
    agent: Option<String>,
    /// The directory it works in.
    #[serde(default)]
    cwd: Option<String>,
}

/// A sidecar's run of a session starting or finishing.
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(rename_all = "lowercase")]
enum RunAction {
    Start,
    Finish,
}

/// `POST /v1/sessions/{id}/run`: a sidecar's run starts (the session is running: its
/// approval settings cannot change, 409 `session_running`) or finishes (idle again). Both are
/// idempotent; `start` adds an unknown session, `finish` of an unknown session is 404.
pub(super) async fn run(
    State(state): State<ServerState>,
    caller: Option<Extension<Caller>>,
    PathParams(session_id): PathParams<SessionId>,
    JsonBody(body): JsonBody<RunBody>,
) -> Result<Json<SessionRecord>, ApiError> {
    let mut body = body;
    // An agent's credential runs only its own sessions: new ones (which become its own) or
    // those it opened; never the person's, nor another agent's.
    if let Some(Extension(Caller::Agent(agent))) = &caller {
        if body.agent.as_deref().is_some_and(|named| named != agent) {
            return Err(ApiError::new(
                StatusCode::FORBIDDEN,
                "agent_mismatch",
                format!("the body names another agent; the credential is agent \"{agent}\"'s"),
            ));
        }
        let owner = state
            .engine()
            .workspace()
            .session(&session_id)
            .map(|s| s.agent.clone());
        if let Some(owner) = owner
            && owner.as_deref() != Some(agent.as_str())
        {
            return Err(ApiError::new(
                StatusCode::FORBIDDEN,
                "agent_mismatch",
                format!(
                    "session \"{session_id}\" is not agent \"{agent}\"'s; an agent runs only the sessions it opened"
                ),
            ));
        }
        body.agent = Some(agent.clone());
    }
    let status = match body.action {
        RunAction::Start => SessionStatus::Running,
        RunAction::Finish => {
            if state.engine().workspace().session(&session_id).is_none() {
                return Err(workspace::ApprovalError::UnknownSession { session_id }.into());
            }
            SessionStatus::Idle
        }
    };
    if body.agent.is_some() || body.cwd.is_some() {
        warrant_transports::workspace::set_session_origin(
            state.engine(),
            &session_id,
            body.agent.as_deref(),
            body.cwd.as_deref(),
        )
        .await?;
    }
    let next = set_session_status(state.engine(), &session_id, status).await?;
    let record = next
        .session(&session_id)
        .cloned()
        .unwrap_or_else(|| SessionRecord::new(session_id));
    Ok(Json(record))
}

/// A body's `id`, when given, must be the path's.
fn same_id(given: Option<&str>, path: &str) -> Result<(), ApiError> {
    match given {
        Some(given) if given != path => Err(ApiError::bad_request(
            "id_mismatch",
            format!("the body's id \"{given}\" does not match the path's \"{path}\""),
        )),
        _ => Ok(()),
    }
}
