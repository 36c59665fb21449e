//! Where calls are decided: an engine in this process (standalone, the SQLite store in the
//! data directory), or a running `warrant serve` over its HTTP API.

use serde_json::{Value, json};
use warrant_core::call::{PermissionMode, ToolCall};
use warrant_core::decision::{Behavior, ResolutionBehavior};
use warrant_core::engine::{AuthorizeOptions, Engine, PendingResolution};
use warrant_core::ids::{SessionId, ToolCallId};
use warrant_core::workspace::{McpServer, save_mcp_server};

mod remote;

pub use remote::RemoteServer;
use remote::segment;

/// The decision of one call, as the gateway needs it.
#[derive(Debug)]
pub struct Decided {
    /// allow, ask or deny.
    pub behavior: Behavior,
    /// Why, in words the agent may read.
    pub reason: String,
    /// The reason code.
    pub reason_code: String,
    /// For `ask` in standalone mode: the engine's pending request.
    pub(crate) pending: Option<PendingResolution>,
}

/// Decides calls and records what became of them.
#[derive(Clone)]
pub enum Decider {
    /// An engine in this process.
    Local(Engine),
    /// A running `warrant serve`.
    Remote(RemoteServer),
}

impl std::fmt::Debug for Decider {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Local(_) => f.write_str("Decider::Local"),
            Self::Remote(r) => f.debug_tuple("Decider::Remote").field(r).finish(),
        }
    }
}

impl Decider {
    /// Records a session's existence (standalone: the session appears in the workspace).
    pub async fn open_session(&self, session_id: &SessionId) -> Result<(), String> {
        match self {
            Self::Local(engine) => engine
                .add_session(session_id)
                .await
                .map(|_| ())
                .map_err(|e| e.to_string()),
            // The server adds the session with its first call.
            Self::Remote(_) => Ok(()),
        }
    }

    /// Records the tools an MCP server listed, so the catalog (and with it the patterns'
    /// auto-approved tools and the rules) knows them by their raw names. Through a server
    /// this needs the person's token (`PUT /v1/mcp-servers/{id}`).
    ///
    /// # Errors
    ///
    /// The workspace could not be saved, or the server refused the change.
    pub async fn register_tools(&self, server_id: &str, tools: Vec<String>) -> Result<(), String> {
        match self {
            Self::Local(engine) => {
                let server = McpServer {
                    id: server_id.to_owned(),
                    name: server_id.to_owned(),
                    tools,
                };
                engine
                    .update_workspace(|state, runtime| save_mcp_server(state, server, runtime))
                    .await
                    .map(|_| ())
                    .map_err(|e| e.to_string())
            }
            Self::Remote(server) => {
                let path = format!("/v1/mcp-servers/{}", segment(server_id));
                server
                    .put(&path, json!({"name": server_id, "tools": tools}))
                    .await
                    .map(|_| ())
            }
        }
    }

    /// Decides one call.
    ///
    /// # Errors
    ///
    /// The call could not be decided (store, network, refusal): it must not run.
    pub async fn decide(&self, call: ToolCall, mode: PermissionMode) -> Result<Decided, String> {
        match self {
            Self::Local(engine) => {
                let authorization = engine
                    .authorize(
                        call,
                        AuthorizeOptions {
                            mode,
                            announce: true,
                        },
                    )
                    .await
                    .map_err(|e| e.to_string())?;
                Ok(Decided {
                    behavior: authorization.decision.behavior,
                    reason: authorization.decision.reason.clone(),
                    reason_code: authorization.decision.reason_code.clone(),
                    pending: authorization.approval,
                })
            }
            Self::Remote(server) => {
                let path = format!(
                    "/v1/sessions/{}/tool-calls",
                    segment(call.session_id.as_str())
                );
                let body = json!({
                    "toolCallId": call.tool_call_id,
                    "toolName": call.tool_name,
                    "input": call.input,
                    "mode": mode.as_str(),
                    "announce": true,
                });
                let decision = server.post(&path, body).await?;
                let behavior = match decision.get("behavior").and_then(Value::as_str) {
                    Some("allow") => Behavior::Allow,
                    Some("ask") => Behavior::Ask,
                    Some("deny") => Behavior::Deny,
                    other => {
                        return Err(format!("{path}: the decision has no behavior ({other:?})"));
                    }
                };
                let text = |field: &str| {
                    decision
                        .get(field)
                        .and_then(Value::as_str)
                        .unwrap_or_default()
                        .to_owned()
                };
                Ok(Decided {
                    behavior,
                    reason: text("reason"),
                    reason_code: text("reasonCode"),
                    pending: None,
                })
            }
        }
    }

    /// Waits for the resolution of an `ask` (from the dock, the HTTP API, a hook, or
    /// [`Decider::resolve`]).
    ///
    /// # Errors
    ///
    /// The request was abandoned or the server cannot be reached: the call must not run.
    pub async fn resolution(
        &self,
        session_id: &SessionId,
        tool_call_id: &ToolCallId,
        pending: Option<PendingResolution>,
    ) -> Result<Behavior, String> {
        match (self, pending) {
            (Self::Local(_), Some(pending)) => pending
                .resolution()
                .await
                .map(|r| Behavior::from(r.behavior))
                .map_err(|e| e.to_string()),
            (Self::Local(_), None) => Err(format!("no approval request for {tool_call_id}")),
            (Self::Remote(server), _) => server.resolution(session_id, tool_call_id).await,
        }
    }

    /// Resolves a pending request with one of its actions (`allow_once`, `deny`).
    ///
    /// # Errors
    ///
    /// The request is not pending any more (someone resolved it first), the action is not
    /// offered, or the resolution could not be recorded.
    pub async fn resolve(
        &self,
        tool_call_id: &ToolCallId,
        action_id: &str,
    ) -> Result<Behavior, String> {
        match self {
            Self::Local(engine) => engine
                .resolve(tool_call_id, action_id)
                .await
                .map(|r| r.behavior.into())
                .map_err(|e| e.to_string()),
            Self::Remote(server) => {
                let path = format!("/v1/approvals/{}", segment(tool_call_id.as_str()));
                let resolution = server.post(&path, json!({"actionId": action_id})).await?;
                Ok(match resolution.get("behavior").and_then(Value::as_str) {
                    Some("allow") => ResolutionBehavior::Allow,
                    _ => ResolutionBehavior::Deny,
                }
                .into())
            }
        }
    }

    /// Withdraws a pending request the gateway stopped waiting for (the client cancelled the
    /// call, or nobody answered in time): audited as `cancel`, its call never runs.
    ///
    /// # Errors
    ///
    /// The request is not pending any more (someone resolved it first) or the withdrawal
    /// could not be recorded.
    pub async fn withdraw(&self, tool_call_id: &ToolCallId, reason: &str) -> Result<(), String> {
        match self {
            Self::Local(engine) => engine
                .cancel(tool_call_id, reason)
                .await
                .map_err(|e| e.to_string()),
            Self::Remote(server) => {
                let path = format!("/v1/approvals/{}", segment(tool_call_id.as_str()));
                server
                    .delete(&path, json!({"reason": reason}))
                    .await
                    .map(|_| ())
            }
        }
    }

    /// Records what an allowed call returned (`TOOL_CALL_RESULT`; the tool part completes).
    pub async fn completed(
        &self,
        session_id: &SessionId,
        tool_call_id: &ToolCallId,
        content: &str,
    ) {
        let outcome = match self {
            Self::Local(engine) => engine
                .complete(session_id, tool_call_id, content)
                .await
                .map_err(|e| e.to_string()),
            Self::Remote(server) => {
                let path = format!(
                    "/v1/sessions/{}/tool-calls/{}/result",
                    segment(session_id.as_str()),
                    segment(tool_call_id.as_str())
                );
                server
                    .post(&path, json!({"content": content}))
                    .await
                    .map(|_| ())
            }
        };
        if let Err(e) = outcome {
            tracing::warn!(%tool_call_id, error = %e, "the call's result was not recorded");
        }
    }

    /// Records that a denied call did not run, and why.
    pub async fn not_run(&self, session_id: &SessionId, tool_call_id: &ToolCallId, why: &str) {
        if let Self::Local(engine) = self
            && let Err(e) = engine.report_not_run(session_id, tool_call_id, why).await
        {
            tracing::debug!(%tool_call_id, error = %e, "not-run result not recorded");
        }
    }
}
