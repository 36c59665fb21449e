//! One hook event, handled: a pre-tool event is decided; a post-tool event records that the
//! user let the call run ("User approved" for a call that asked) and its result; a denial or
//! the end of a turn records "User denied" for calls that asked and never ran.

use std::path::Path;

use serde_json::Value;
use warrant_core::call::ToolCall;
use warrant_core::decision::{Behavior, ToolPermissionDecision};
use warrant_core::ids::{SessionId, ToolCallId};
use warrant_core::part::{ToolPart, ToolState};
use warrant_core::sanitize::redact_value;

use super::Agent;
use super::answer::Verdict;
use super::backend::Backend;
use super::event::{EventKind, HookEvent, ToolUse};
use super::tools::{MappedCall, map};

/// The action that records a call that asked as run by the user's leave.
const APPROVE_ONCE: &str = "allow_once";
/// The action that records a call that asked as refused.
const DENY: &str = "deny";

/// Handles one event.
///
/// # Errors
///
/// What went wrong, for the caller to answer in the agent's fail-closed terms.
pub(crate) async fn handle<B: Backend>(
    agent: Agent,
    event: &HookEvent,
    backend: &B,
    project: &Path,
) -> Result<Verdict, String> {
    let session = &event.session_id;
    // A shell call the agent runs away from the project is judged where it runs.
    let call_dir = (!same_dir(&event.cwd, project)).then_some(event.cwd.as_path());
    match (&event.kind, &event.tool) {
        (EventKind::PreTool, Some(tool)) => {
            let cwd = event.cwd.to_string_lossy();
            backend.start(session, agent.id(), &cwd).await?;
            decide(agent, session, tool, backend, call_dir).await
        }
        (EventKind::PostTool, Some(tool)) => {
            let id = call_id(session, tool, backend, call_dir).await?;
            backend.resolve(&id, APPROVE_ONCE).await?;
            backend
                .complete(session, &id, &result_text(tool.response.as_ref()))
                .await?;
            Ok(Verdict::Nothing)
        }
        (EventKind::Denied, Some(tool)) => {
            let id = call_id(session, tool, backend, call_dir).await?;
            backend.resolve(&id, DENY).await?;
            Ok(Verdict::Nothing)
        }
        (EventKind::TurnEnd, _) => {
            for id in backend.pending(session).await? {
                backend.resolve(&id, DENY).await?;
            }
            backend.finish(session).await?;
            Ok(Verdict::Nothing)
        }
        _ => Ok(Verdict::Nothing),
    }
}

async fn decide<B: Backend>(
    agent: Agent,
    session: &SessionId,
    tool: &ToolUse,
    backend: &B,
    call_dir: Option<&Path>,
) -> Result<Verdict, String> {
    let MappedCall { tool: name, input } = map(&tool.name, &tool.input, call_dir);
    let id = tool
        .id
        .clone()
        .unwrap_or_else(|| format!("{}-{}", agent.id(), uuid::Uuid::new_v4().simple()).into());
    // What the engine records as the call's part: a recorded decision answers only the
    // very call it was made for.
    let recorded_input = redact_value(&input);
    let mut call = ToolCall::new(session, id.clone(), name.clone(), input);
    call.agent_id = Some(agent.id().to_owned());
    let decision = match backend.decide(call).await {
        Ok(decision) => decision,
        // Asked again about a call already decided (a retried hook): the recorded decision
        // stands, but only for the same tool and input under that id. Anything else (another
        // call reusing the id, any other error) fails closed.
        Err(e) if e.duplicate => backend
            .parts(session)
            .await
            .ok()
            .and_then(|parts| parts.into_iter().find(|p| p.tool_call_id == id))
            .filter(|p| p.tool_name == name && p.input.as_ref() == Some(&recorded_input))
            .and_then(|p| p.permission_decision)
            .ok_or(e.message)?,
        Err(e) => return Err(e.message),
    };
    Ok(verdict(&decision))
}

/// Whether `a` and `b` are one directory (a directory that cannot be resolved is no other's).
fn same_dir(a: &Path, b: &Path) -> bool {
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

/// Warrant's decision as a verdict whose reason says who decided and why.
fn verdict(decision: &ToolPermissionDecision) -> Verdict {
    let reason = format!(
        "Warrant ({}, {}): {}",
        decision.source.as_str(),
        decision.reason_code,
        decision.reason
    );
    match decision.behavior {
        Behavior::Allow => Verdict::Allow(reason),
        Behavior::Ask => Verdict::Ask(reason),
        Behavior::Deny => Verdict::Deny(reason),
    }
}

/// The Warrant id of a call a post-tool event reports: the agent's own id, or (Gemini CLI
/// gives none) the latest unfinished call of the session with the same tool and input.
async fn call_id<B: Backend>(
    session: &SessionId,
    tool: &ToolUse,
    backend: &B,
    call_dir: Option<&Path>,
) -> Result<ToolCallId, String> {
    if let Some(id) = &tool.id {
        return Ok(id.clone());
    }
    let mapped = map(&tool.name, &tool.input, call_dir);
    let input = redact_value(&mapped.input);
    backend
        .parts(session)
        .await?
        .into_iter()
        .rev()
        .find(|p| same_call(p, &mapped.tool, &input))
        .map(|p| p.tool_call_id)
        .ok_or_else(|| {
            format!(
                "no unfinished {} call of session \"{session}\" matches this {} result",
                mapped.tool, tool.name
            )
        })
}

fn same_call(part: &ToolPart, tool: &str, input: &Value) -> bool {
    part.tool_name == tool
        && part.state != ToolState::Completed
        && part.input.as_ref() == Some(input)
}

/// A tool's response as result text: text as is, anything else as its JSON text.
fn result_text(response: Option<&Value>) -> String {
    match response {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(text)) => text.clone(),
        Some(other) => other.to_string(),
    }
}
