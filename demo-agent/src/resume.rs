//! AG-UI's standard human in the loop: the interrupt an approval request becomes, and the
//! resume entries that answer it, checked before anything is resolved.

use std::collections::HashMap;

use serde_json::{Value, json};
use warrant_core::approval::{ALLOW_ONCE, DENY, ToolApprovalRequest};
use warrant_core::engine::PendingResolution;
use warrant_core::event::Interrupt;
use warrant_core::ids::ToolCallId;

use super::input::{ResumeEntry, ResumeStatus};
use super::script::Step;
use warrant_transports::error::ApiError;

/// The `reason` of an interrupt that waits for a tool call's approval.
pub const TOOL_CALL_REASON: &str = "tool_call";

/// A call an interrupted run waits on.
pub(super) struct Waiting {
    /// The interrupt the run ended with.
    pub interrupt: Interrupt,
    /// The call.
    pub tool_call_id: ToolCallId,
    /// The step it belongs to (unknown for requests restored after a restart).
    pub step: Option<Step>,
    /// Learns the resolution, whoever resolves it (absent after a restart).
    pub pending: Option<PendingResolution>,
}

/// An interrupted run: what it waits on and what is left to do.
pub(super) struct Suspended {
    pub waiting: Vec<Waiting>,
    pub remaining: Vec<Step>,
    pub closing: &'static str,
}

/// The interrupt id of a call's approval.
pub fn interrupt_id(tool_call_id: &str) -> String {
    format!("approval:{tool_call_id}")
}

/// The interrupt for an approval request: the offered actions go in `responseSchema` and
/// `metadata`, so a stock client can answer with `{"actionId": …}` or `{"approved": …}`.
pub fn interrupt_for(request: &ToolApprovalRequest) -> Interrupt {
    let ids: Vec<&str> = request.actions.iter().map(|a| a.id.as_str()).collect();
    let mut metadata = json!({"actions": request.actions, "risk": request.risk});
    if let Some(name) = &request.tool_name {
        metadata["toolName"] = json!(name);
    }
    Interrupt {
        id: interrupt_id(request.tool_call_id.as_str()),
        reason: TOOL_CALL_REASON.to_owned(),
        tool_call_id: Some(request.tool_call_id.as_str().to_owned()),
        message: Some(format!("{}: {}", request.title, request.reason)),
        response_schema: Some(json!({
            "type": "object",
            "properties": {
                "actionId": {"type": "string", "enum": ids},
                "approved": {"type": "boolean"}
            }
        })),
        expires_at: None,
        metadata: Some(metadata),
    }
}

/// What the thread waits on after a restart: its pending requests, without their steps.
pub(super) fn restored(thread_id: &str, pending: &[ToolApprovalRequest]) -> Option<Suspended> {
    let waiting: Vec<Waiting> = pending
        .iter()
        .filter(|r| r.session_id.as_ref().is_some_and(|s| s == thread_id))
        .map(|r| Waiting {
            interrupt: interrupt_for(r),
            tool_call_id: r.tool_call_id.clone(),
            step: None,
            pending: None,
        })
        .collect();
    (!waiting.is_empty()).then(|| Suspended {
        waiting,
        remaining: Vec::new(),
        closing: "Picked up where the interrupted run left off.",
    })
}

/// The action to resolve each still-pending call with, keyed by call id; calls already
/// resolved elsewhere (`POST /v1/approvals/…`) get none.
///
/// # Errors
///
/// 409 `interrupt_not_open` for an entry naming no open interrupt; 409 `interrupt_pending`
/// when there is no resume but a call still waits; 422 `resume_incomplete` when pending calls
/// are left unanswered; 422 `invalid_resume_payload` or `action_not_offered` for an answer
/// that names no offered action.
pub(super) fn answers(
    thread_id: &str,
    waiting: &[Waiting],
    resume: Option<&[ResumeEntry]>,
    pending: &[ToolApprovalRequest],
) -> Result<HashMap<ToolCallId, String>, ApiError> {
    let open: Vec<&str> = waiting.iter().map(|w| w.interrupt.id.as_str()).collect();
    let request_of = |w: &Waiting| pending.iter().find(|r| r.tool_call_id == w.tool_call_id);
    let Some(resume) = resume else {
        let still: Vec<&str> = waiting
            .iter()
            .filter(|w| request_of(w).is_some())
            .map(|w| w.interrupt.id.as_str())
            .collect();
        if still.is_empty() {
            return Ok(HashMap::new());
        }
        return Err(ApiError::conflict(
            "interrupt_pending",
            format!(
                "thread \"{thread_id}\" waits on interrupt {}: answer with RunAgentInput.resume, or resolve through POST /v1/approvals/{{toolCallId}}",
                still.join(", ")
            ),
        ));
    };
    for entry in resume {
        if !open.contains(&entry.interrupt_id.as_str()) {
            return Err(ApiError::conflict(
                "interrupt_not_open",
                format!(
                    "interrupt \"{}\" is not open on thread \"{thread_id}\" (open: {})",
                    entry.interrupt_id,
                    if open.is_empty() {
                        "none".to_owned()
                    } else {
                        open.join(", ")
                    }
                ),
            ));
        }
    }
    let mut actions = HashMap::new();
    for w in waiting {
        let Some(request) = request_of(w) else {
            continue;
        };
        let Some(entry) = resume.iter().find(|e| e.interrupt_id == w.interrupt.id) else {
            return Err(ApiError::unprocessable(
                "resume_incomplete",
                format!(
                    "resume does not answer the open interrupt \"{}\"",
                    w.interrupt.id
                ),
            ));
        };
        let action = action_of(entry)?;
        if request.action(&action).is_none() {
            let offered: Vec<&str> = request.actions.iter().map(|a| a.id.as_str()).collect();
            return Err(ApiError::unprocessable(
                "action_not_offered",
                format!(
                    "action \"{action}\" is not offered for interrupt \"{}\" (offered: {})",
                    entry.interrupt_id,
                    offered.join(", ")
                ),
            ));
        }
        actions.insert(w.tool_call_id.clone(), action);
    }
    Ok(actions)
}

/// The action an entry asks for: cancelled denies; resolved names `actionId`, or says
/// `approved`. Anything else is refused rather than guessed.
fn action_of(entry: &ResumeEntry) -> Result<String, ApiError> {
    if entry.status == ResumeStatus::Cancelled {
        return Ok(DENY.to_owned());
    }
    let payload = entry.payload.as_ref();
    if let Some(id) = payload.and_then(|p| p.get("actionId")) {
        return match id {
            Value::String(id) => Ok(id.clone()),
            other => Err(invalid_payload(
                entry,
                &format!("actionId must be a string, got {other}"),
            )),
        };
    }
    match payload.and_then(|p| p.get("approved")) {
        Some(Value::Bool(true)) => Ok(ALLOW_ONCE.to_owned()),
        Some(Value::Bool(false)) => Ok(DENY.to_owned()),
        Some(other) => Err(invalid_payload(
            entry,
            &format!("approved must be a boolean, got {other}"),
        )),
        None => Err(invalid_payload(
            entry,
            "a resolved entry needs a payload with \"actionId\" or \"approved\"",
        )),
    }
}

fn invalid_payload(entry: &ResumeEntry, why: &str) -> ApiError {
    ApiError::unprocessable(
        "invalid_resume_payload",
        format!(
            "resume entry for interrupt \"{}\": {why}",
            entry.interrupt_id
        ),
    )
}
