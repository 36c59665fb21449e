//! The tool catalog, patterns and workspace routes.

use axum::Json;
use axum::extract::State;
use serde::Deserialize;
use serde_json::Value;
use warrant_core::catalog::ToolDefinition;
use warrant_core::workspace::{ApprovalCheckpointRule, ApprovalPolicy, Pattern, WorkspaceState};

use super::{JsonBody, PathParams, ServerState};
use warrant_transports::error::ApiError;
use warrant_transports::workspace;

/// `GET /v1/tools`: the catalog (`listApprovalToolDefinitions`).
pub(super) async fn tools(State(state): State<ServerState>) -> Json<Vec<ToolDefinition>> {
    Json(state.engine().catalog().tools.clone())
}

/// `GET /v1/patterns`.
pub(super) async fn patterns(State(state): State<ServerState>) -> Json<Vec<Pattern>> {
    Json(state.engine().workspace().patterns.clone())
}

/// The body of `PUT /v1/patterns/{id}`: every field is optional, and a field left out (or
/// `null`) keeps the saved pattern's value, or for a new pattern the default pattern's
/// (`tool-call` checkpoints on, nothing auto-approved; the name is the id). Only an explicit
/// `"rules": []` turns checkpoints off. Unknown fields are refused.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(super) struct PatternBody {
    #[serde(default)]
    id: Option<String>,
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    approval_policy: Option<PolicyBody>,
}

/// The `approvalPolicy` of a pattern body: each field optional, merged like the pattern's.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(super) struct PolicyBody {
    #[serde(default)]
    rules: Option<Vec<ApprovalCheckpointRule>>,
    #[serde(default)]
    auto_approved_tool_names: Option<Vec<String>>,
}

impl PatternBody {
    /// The pattern saved: the body's fields over `saved` (or over the default pattern's).
    fn over(self, id: &str, saved: Option<&Pattern>) -> Pattern {
        let mut pattern = saved.cloned().unwrap_or_else(|| Pattern {
            id: id.to_owned(),
            name: id.to_owned(),
            approval_policy: ApprovalPolicy::checkpoints_on(),
        });
        if let Some(name) = self.name {
            pattern.name = name;
        }
        if let Some(policy) = self.approval_policy {
            if let Some(rules) = policy.rules {
                pattern.approval_policy.rules = rules;
            }
            if let Some(ids) = policy.auto_approved_tool_names {
                pattern.approval_policy.auto_approved_tool_names = Some(ids);
            }
        }
        pattern
    }
}

/// `PUT /v1/patterns/{id}`: saves the pattern, merging the body over the saved one (see
/// [`PatternBody`]; its `id` may be left out, and when present must match the path), and
/// answers with the workspace state. Unknown tool ids: 422.
pub(super) async fn save_pattern(
    State(state): State<ServerState>,
    PathParams(id): PathParams<String>,
    JsonBody(body): JsonBody<Value>,
) -> Result<Json<WorkspaceState>, ApiError> {
    if !body.is_object() {
        return Err(ApiError::bad_request(
            "invalid_body",
            "request body: a pattern must be a JSON object",
        ));
    }
    let body: PatternBody = serde_json::from_value(body)
        .map_err(|e| ApiError::bad_request("invalid_body", format!("request body: {e}")))?;
    if let Some(given) = &body.id
        && *given != id
    {
        return Err(ApiError::bad_request(
            "id_mismatch",
            format!("the body's id \"{given}\" does not match the path's \"{id}\""),
        ));
    }
    if body.name.as_deref().is_some_and(|n| n.trim().is_empty()) {
        return Err(ApiError::bad_request(
            "invalid_body",
            "request body: name must not be blank (leave it out to keep the saved one)",
        ));
    }
    let saved = workspace::save_pattern_with(state.engine(), |current| {
        body.over(&id, current.pattern(&id))
    })
    .await?;
    Ok(Json(WorkspaceState::clone(&saved)))
}

/// `GET /v1/workspace`: tooling, patterns and sessions.
pub(super) async fn workspace(State(state): State<ServerState>) -> Json<WorkspaceState> {
    Json(WorkspaceState::clone(&state.engine().workspace()))
}
