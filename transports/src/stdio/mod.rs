//! `warrant stdio`: JSON lines in, AG-UI events out, one per line, nothing else on stdout.
//!
//! Tool calls are decided concurrently, so a call that asks (or a slow classifier) never
//! holds up later lines: approvals arrive on later lines (an approval or a result for a call
//! still being decided waits for its decision). A malformed line, or one that cannot be
//! handled, is answered with a `RUN_ERROR` naming the problem and its line number, and
//! serving goes on; at the end of the input every call in flight is decided, the output is
//! flushed, and [`serve`] returns. When the output closes, nobody reads the decisions any
//! more: [`serve`] stops at once (calls in flight are abandoned) and returns an error.

use warrant_core::ids::{SessionId, ToolCallId};
mod input;
mod lines;
mod output;

use std::sync::Arc;

use dashmap::DashMap;
use serde_json::Value;
use tokio::io::AsyncRead;
use tokio::sync::watch;
use tokio::task::JoinSet;
use warrant_core::call::{PermissionMode, ToolCall};
use warrant_core::engine::{AuthorizeOptions, Engine};
use warrant_core::event::{AgentEvent, AppCustom};

pub use input::{
    ApprovalLine, Command, INPUT_TYPES, RuntimeToolsLine, SessionSettingsLine, ToolCallLine,
    ToolResultLine, parse,
};
pub use lines::{DEFAULT_MAX_LINE, Line, Lines};
pub use output::LineTransport;

use crate::error::ApiError;
use crate::workspace::{ensure_session, update_session_settings};

/// The CUSTOM event answering a `session_settings` line: its value is the session record.
pub const SESSION_APPROVAL_SETTINGS: &str = "session_approval_settings";

/// The CUSTOM event answering a `revoke_grant` line: its value is the revoked grant.
pub const GRANT_REVOKED: &str = "grant_revoked";

/// The CUSTOM event answering a `runtime_tools` line: its value is the new tool catalog.
pub const TOOL_CATALOG: &str = "tool_catalog";

/// How `warrant stdio` serves.
#[derive(Debug, Clone, Copy)]
pub struct StdioOptions {
    /// The permission mode of tool calls that name none.
    pub mode: PermissionMode,
    /// The longest input line accepted, in bytes.
    pub max_line: usize,
    /// The most lines handled at once; further input is read once one is done, so a writer
    /// faster than the decisions is slowed down rather than buffered without bound.
    pub max_in_flight: usize,
}

/// The most lines handled at once unless configured.
pub const DEFAULT_MAX_IN_FLIGHT: usize = 256;

impl Default for StdioOptions {
    fn default() -> Self {
        Self {
            mode: PermissionMode::Default,
            max_line: DEFAULT_MAX_LINE,
            max_in_flight: DEFAULT_MAX_IN_FLIGHT,
        }
    }
}

/// A call being decided: its session, and whether its decision is out yet. Forgotten once
/// decided (the engine remembers what follows).
struct Seen {
    session_id: SessionId,
    decided: watch::Receiver<bool>,
}

/// Serves until the input ends. `engine` must emit through `out`.
///
/// # Errors
///
/// An I/O error of the input or the output.
pub async fn serve(
    input: impl AsyncRead + Unpin,
    engine: Engine,
    out: Arc<LineTransport>,
    options: StdioOptions,
) -> std::io::Result<()> {
    let mut lines = Lines::new(input, options.max_line);
    let calls: Arc<DashMap<ToolCallId, Seen>> = Arc::new(DashMap::new());
    let mut tasks = JoinSet::new();
    loop {
        let next = tokio::select! {
            next = lines.next() => next,
            () = out.closed() => {
                tasks.abort_all();
                return Err(output_closed());
            }
        };
        let Some((number, line)) = next? else { break };
        if matches!(&line, Line::Text(t) if t.trim().is_empty()) {
            continue;
        }
        while tasks.len() >= options.max_in_flight.max(1) {
            tokio::select! {
                _ = tasks.join_next() => {}
                () = out.closed() => {
                    tasks.abort_all();
                    return Err(output_closed());
                }
            }
        }
        let handled = match parse(number, line, options.max_line) {
            Err(e) => Err(e),
            Ok(command) => {
                let context = (&engine, &calls, &mut tasks, &out);
                handle(number, command, context, options)
                    .await
                    .map_err(|e| at_line(number, e))
            }
        };
        if let Err(e) = handled
            && out.write(&e.to_event()).await.is_err()
        {
            tasks.abort_all();
            return Err(output_closed());
        }
        while tasks.try_join_next().is_some() {}
    }
    loop {
        tokio::select! {
            next = tasks.join_next() => if next.is_none() { break },
            () = out.closed() => {
                tasks.abort_all();
                return Err(output_closed());
            }
        }
    }
    out.flush().await
}

fn output_closed() -> std::io::Error {
    std::io::Error::new(
        std::io::ErrorKind::BrokenPipe,
        "the output closed; nobody reads the decisions",
    )
}

/// The error, naming the line it answers (once).
fn at_line(number: usize, mut error: ApiError) -> ApiError {
    let prefix = format!("line {number}: ");
    if !error.message.starts_with(&prefix) {
        error.message = format!("{prefix}{}", error.message);
    }
    error
}

type Context<'a> = (
    &'a Engine,
    &'a Arc<DashMap<ToolCallId, Seen>>,
    &'a mut JoinSet<()>,
    &'a Arc<LineTransport>,
);

async fn handle(
    number: usize,
    command: Command,
    (engine, calls, tasks, out): Context<'_>,
    options: StdioOptions,
) -> Result<(), ApiError> {
    match command {
        Command::ToolCall(line) => {
            if calls.contains_key(&line.tool_call_id) {
                return Err(ApiError::conflict(
                    "duplicate_tool_call",
                    format!(
                        "tool call \"{}\" was already sent; use a new toolCallId",
                        line.tool_call_id
                    ),
                ));
            }
            let (decided_tx, decided) = watch::channel(false);
            let session_id = line.session_id.clone();
            calls.insert(
                line.tool_call_id.clone(),
                Seen {
                    session_id,
                    decided,
                },
            );
            let (engine, out, calls) = (engine.clone(), Arc::clone(out), Arc::clone(calls));
            tasks.spawn(async move {
                let id = line.tool_call_id.clone();
                if let Err(e) = decide(&engine, line, options.mode).await {
                    report(&out, &at_line(number, e)).await;
                }
                decided_tx.send_replace(true);
                calls.remove(&id);
            });
            Ok(())
        }
        Command::Approval(line) => {
            let Some(mut decided) = calls.get(&line.tool_call_id).map(|s| s.decided.clone()) else {
                engine
                    .resolve_with_message(
                        &line.tool_call_id,
                        &line.action_id,
                        line.message.as_deref(),
                    )
                    .await?;
                return Ok(());
            };
            // The call is still being decided: its request opens with the decision.
            let (engine, out) = (engine.clone(), Arc::clone(out));
            tasks.spawn(async move {
                let _ = decided.wait_for(|d| *d).await;
                let resolved = engine
                    .resolve_with_message(
                        &line.tool_call_id,
                        &line.action_id,
                        line.message.as_deref(),
                    )
                    .await;
                if let Err(e) = resolved {
                    report(&out, &at_line(number, e.into())).await;
                }
            });
            Ok(())
        }
        Command::ToolResult(line) => {
            let seen = calls
                .get(&line.tool_call_id)
                .map(|s| (s.session_id.clone(), s.decided.clone()));
            let known = || engine.call_session(&line.tool_call_id);
            let (session_id, mut decided) = match (seen, line.session_id.clone()) {
                (Some(seen), _) => seen,
                (None, Some(session_id)) => (session_id, watch::channel(true).1),
                (None, None) => match known() {
                    Some(session_id) => (session_id, watch::channel(true).1),
                    None => {
                        return Err(ApiError::not_found(
                            "unknown_tool_call",
                            format!(
                                "tool_result for unknown tool call \"{}\" (send its tool_call first, or give its sessionId)",
                                line.tool_call_id
                            ),
                        ));
                    }
                },
            };
            let content = match line.content {
                Value::String(text) => text,
                other => other.to_string(),
            };
            let (engine, out) = (engine.clone(), Arc::clone(out));
            tasks.spawn(async move {
                // The result follows the call's decision, never precedes it.
                let _ = decided.wait_for(|d| *d).await;
                if let Err(e) = engine
                    .complete(&session_id, &line.tool_call_id, &content)
                    .await
                {
                    report(&out, &at_line(number, e.into())).await;
                }
            });
            Ok(())
        }
        Command::SessionSettings(line) => {
            ensure_session(engine, &line.session_id).await?;
            let workspace =
                update_session_settings(engine, &line.session_id, line.auto_approved_tool_names)
                    .await?;
            let record = workspace
                .session(line.session_id.as_str())
                .map(serde_json::to_value);
            if let Some(Ok(value)) = record
                && let Ok(custom) = AppCustom::new(SESSION_APPROVAL_SETTINGS, value)
            {
                engine
                    .emit(&line.session_id, AgentEvent::Custom(custom))
                    .await;
            }
            Ok(())
        }
        Command::RevokeGrant(line) => {
            let grant = engine.revoke_grant(&line.grant_id).await?;
            let value = serde_json::to_value(&grant)
                .map_err(|e| ApiError::bad_request("invalid_line", e.to_string()))?;
            if let Ok(custom) = AppCustom::new(GRANT_REVOKED, value) {
                let event = AgentEvent::Custom(custom).into_event();
                out.write(&event)
                    .await
                    .map_err(|e| ApiError::bad_request("output_failed", e.to_string()))?;
            }
            Ok(())
        }
        Command::RuntimeTools(line) => {
            engine.set_runtime_tools(line.tools).await?;
            let catalog = serde_json::to_value(&engine.catalog().tools)
                .map_err(|e| ApiError::bad_request("invalid_line", e.to_string()))?;
            if let Ok(custom) = AppCustom::new(TOOL_CATALOG, catalog) {
                let event = AgentEvent::Custom(custom).into_event();
                out.write(&event)
                    .await
                    .map_err(|e| ApiError::bad_request("output_failed", e.to_string()))?;
            }
            Ok(())
        }
    }
}

async fn decide(engine: &Engine, line: ToolCallLine, mode: PermissionMode) -> Result<(), ApiError> {
    ensure_session(engine, &line.session_id).await?;
    let mut call = ToolCall::new(
        line.session_id,
        line.tool_call_id,
        line.tool_name,
        line.input,
    );
    call.agent_id = line.agent_id;
    call.message_id = line.message_id;
    let options = AuthorizeOptions {
        mode: line.mode.unwrap_or(mode),
        announce: line.announce.unwrap_or(true),
    };
    engine.authorize(call, options).await?;
    Ok(())
}

async fn report(out: &LineTransport, error: &ApiError) {
    if let Err(e) = out.write(&error.to_event()).await {
        tracing::warn!(error = %e, "error event not written");
    }
}
