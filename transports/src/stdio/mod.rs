//! `warrant stdio`: JSON lines in, AG-UI events out, one per line, nothing else on stdout.
//!
//! Tool calls are decided concurrently, so a call that asks (or a slow classifier) never
//! holds up later lines: approvals arrive on later lines. A malformed line is answered with
//! a `RUN_ERROR` naming the problem, and serving goes on; at the end of the input every call
//! in flight is decided, the output is flushed, and [`serve`] returns.

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
use warrant_core::event::{Custom, Event, now_millis};

pub use input::{
    ApprovalLine, Command, INPUT_TYPES, SessionSettingsLine, ToolCallLine, ToolResultLine, parse,
};
pub use lines::{DEFAULT_MAX_LINE, Line, Lines};
pub use output::LineTransport;

use crate::error::ApiError;
use crate::workspace::{ensure_session, update_session_settings};

/// The CUSTOM event answering a `session_settings` line: its value is the session record.
pub const SESSION_APPROVAL_SETTINGS: &str = "session_approval_settings";

/// How `warrant stdio` serves.
#[derive(Debug, Clone, Copy)]
pub struct StdioOptions {
    /// The permission mode of tool calls that name none.
    pub mode: PermissionMode,
    /// The longest input line accepted, in bytes.
    pub max_line: usize,
}

impl Default for StdioOptions {
    fn default() -> Self {
        Self {
            mode: PermissionMode::Default,
            max_line: DEFAULT_MAX_LINE,
        }
    }
}

/// A call this process saw: its session, and whether its decision is out yet.
struct Seen {
    session_id: String,
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
    let calls: Arc<DashMap<String, Seen>> = Arc::new(DashMap::new());
    let mut tasks = JoinSet::new();
    while let Some((number, line)) = lines.next().await? {
        if matches!(&line, Line::Text(t) if t.trim().is_empty()) {
            continue;
        }
        let handled = match parse(number, line, options.max_line) {
            Err(e) => Err(e),
            Ok(command) => {
                let context = (&engine, &calls, &mut tasks, &out);
                handle(command, context, options).await
            }
        };
        if let Err(e) = handled {
            out.write(&e.to_event()).await?;
        }
        while tasks.try_join_next().is_some() {}
    }
    while tasks.join_next().await.is_some() {}
    out.flush().await
}

type Context<'a> = (
    &'a Engine,
    &'a Arc<DashMap<String, Seen>>,
    &'a mut JoinSet<()>,
    &'a Arc<LineTransport>,
);

async fn handle(
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
            let (engine, out) = (engine.clone(), Arc::clone(out));
            tasks.spawn(async move {
                if let Err(e) = decide(&engine, line, options.mode).await {
                    report(&out, &e).await;
                }
                decided_tx.send_replace(true);
            });
            Ok(())
        }
        Command::Approval(line) => {
            engine.resolve(&line.tool_call_id, &line.action_id).await?;
            Ok(())
        }
        Command::ToolResult(line) => {
            let seen = calls
                .get(&line.tool_call_id)
                .map(|s| (s.session_id.clone(), s.decided.clone()));
            let (session_id, mut decided) = match (seen, line.session_id) {
                (Some(seen), _) => seen,
                (None, Some(session_id)) => (session_id, watch::channel(true).1),
                (None, None) => {
                    return Err(ApiError::not_found(
                        "unknown_tool_call",
                        format!(
                            "tool_result for unknown tool call \"{}\" (send its tool_call first, or give its sessionId)",
                            line.tool_call_id
                        ),
                    ));
                }
            };
            let content = match line.content {
                Value::String(text) => text,
                other => other.to_string(),
            };
            let (engine, calls) = (engine.clone(), Arc::clone(calls));
            tasks.spawn(async move {
                // The result follows the call's decision, never precedes it.
                let _ = decided.wait_for(|d| *d).await;
                engine
                    .complete(&session_id, &line.tool_call_id, &content)
                    .await;
                calls.remove(&line.tool_call_id);
            });
            Ok(())
        }
        Command::SessionSettings(line) => {
            ensure_session(engine, &line.session_id).await?;
            let workspace =
                update_session_settings(engine, &line.session_id, line.auto_approved_tool_names)
                    .await?;
            let record = workspace
                .session(&line.session_id)
                .map(serde_json::to_value);
            if let Some(Ok(value)) = record {
                let event = Event::Custom(Custom {
                    name: SESSION_APPROVAL_SETTINGS.to_owned(),
                    value,
                    timestamp: Some(now_millis()),
                });
                engine.emit(&line.session_id, event).await;
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
