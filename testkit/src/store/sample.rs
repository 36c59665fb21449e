//! Sample values for store tests: audit records, tool parts, approvals, grants and events
//! shaped as the engine writes them, and small helpers around them.

use serde_json::json;
use warrant_core::approval::{Recommendation, ToolApprovalRequest, standard_actions};
use warrant_core::audit::{AuditEvent, AuditRecord};
use warrant_core::call::PermissionMode;
use warrant_core::chain::{ChainTrace, TraceEntry, TraceOutcome};
use warrant_core::decision::{
    Behavior, Confidence, DecidingEvaluator, PermissionDecisionSource, ResolutionBehavior,
    ResolutionSource, Risk, Scope, ToolPermissionDecision, ToolPermissionResolution,
};
use warrant_core::event::{Event, ToolCallStart};
use warrant_core::grant::{Grant, GrantKey};
use warrant_core::ids::{SessionId, ToolCallId};
use warrant_core::part::{Message, MessagePart, ToolPart, ToolState};
use warrant_core::store::PendingApproval;

/// A classifier's `allow` for a call, with every optional field set.
pub fn decision(tool_call_id: impl Into<ToolCallId>) -> ToolPermissionDecision {
    ToolPermissionDecision {
        tool_call_id: tool_call_id.into(),
        behavior: Behavior::Allow,
        source: PermissionDecisionSource::AutoClassifier,
        reason: "This is a local workspace edit requested by the user.".to_owned(),
        reason_code: "auto_classifier_allow".to_owned(),
        risk: Risk::Low,
        confidence: Some(Confidence::High),
        risk_categories: Some(Vec::new()),
        reviewer_model: Some("openai/gpt-4.1-mini".to_owned()),
        review: Default::default(),
        provenance: None,
        evaluator: Some(DecidingEvaluator {
            name: "auto_classifier".to_owned(),
            version: Some("0.1.0".to_owned()),
        }),
    }
}

/// The user's `allow_once` of a call.
pub fn resolution(tool_call_id: impl Into<ToolCallId>) -> ToolPermissionResolution {
    ToolPermissionResolution {
        tool_call_id: tool_call_id.into(),
        behavior: ResolutionBehavior::Allow,
        source: ResolutionSource::User,
        action_id: "allow_once".to_owned(),
        scope: Scope::Once,
        message: None,
    }
}

/// An evaluation record of a call, with a two-line trace.
pub fn evaluation(
    session_id: impl Into<SessionId>,
    tool_call_id: impl Into<ToolCallId>,
) -> AuditRecord {
    let tool_call_id = tool_call_id.into();
    let entry = |evaluator: &str, outcome| TraceEntry {
        evaluator: evaluator.to_owned(),
        outcome,
        elapsed_micros: 42,
    };
    AuditRecord {
        at: 1_700_000_000_000,
        session_id: session_id.into(),
        tool_call_id: tool_call_id.clone(),
        tool_name: "Bash".to_owned(),
        event: AuditEvent::Evaluation {
            mode: PermissionMode::Auto,
            input_digest: "ab".repeat(32),
            decision: decision(tool_call_id),
            trace: ChainTrace {
                entries: vec![
                    entry("policy", TraceOutcome::Abstained),
                    entry(
                        "auto_classifier",
                        TraceOutcome::Decided {
                            behavior: Behavior::Allow,
                            strength: None,
                            reason_code: "auto_classifier_allow".to_owned(),
                        },
                    ),
                ],
                decided_by: Some("auto_classifier".to_owned()),
            },
        },
    }
}

/// A resolution record of a call.
pub fn resolution_record(
    session_id: impl Into<SessionId>,
    tool_call_id: impl Into<ToolCallId>,
) -> AuditRecord {
    let tool_call_id = tool_call_id.into();
    AuditRecord {
        event: AuditEvent::Resolution {
            resolution: resolution(&tool_call_id),
        },
        ..evaluation(session_id, tool_call_id)
    }
}

/// An expiry record of a call.
pub fn expiry_record(
    session_id: impl Into<SessionId>,
    tool_call_id: impl Into<ToolCallId>,
) -> AuditRecord {
    AuditRecord {
        event: AuditEvent::Expiry {
            reason: "the server restarted and the request outlived its deadline".to_owned(),
        },
        ..evaluation(session_id, tool_call_id)
    }
}

/// A completed tool part carrying a decision and a resolution.
pub fn decided_part(tool_call_id: impl Into<ToolCallId>) -> ToolPart {
    let tool_call_id = tool_call_id.into();
    ToolPart {
        state: ToolState::Completed,
        input: Some(json!({"command": "cargo test"})),
        output: Some("ok".to_owned()),
        permission_decision: Some(decision(&tool_call_id)),
        permission_resolution: Some(resolution(&tool_call_id)),
        ..ToolPart::new(tool_call_id, "Bash")
    }
}

/// An approval request of a call, as the engine opens it.
pub fn request(
    session_id: impl Into<SessionId>,
    tool_call_id: impl Into<ToolCallId>,
) -> ToolApprovalRequest {
    let (session_id, tool_call_id) = (session_id.into(), tool_call_id.into());
    let decision = ToolPermissionDecision {
        behavior: Behavior::Ask,
        source: PermissionDecisionSource::Policy,
        reason_code: "policy_default_ask".to_owned(),
        risk: Risk::Medium,
        confidence: None,
        risk_categories: None,
        reviewer_model: None,
        review: Default::default(),
        ..decision(&tool_call_id)
    };
    ToolApprovalRequest {
        tool_call_id,
        session_id: Some(session_id.clone()),
        tool_name: Some("Bash".to_owned()),
        title: "Approve Bash".to_owned(),
        detail: format!(
            "Agent \"primary\" requested permission for tool \"Bash\" in session \"{session_id}\"."
        ),
        risk: Risk::Medium,
        reason: "Writes need the user's approval.".to_owned(),
        recommendation: Recommendation::from(&decision),
        actions: standard_actions("\"git push\" commands"),
        requested_at: Some(1_700_000_000_000),
        input: Some(serde_json::json!({"command": "git push"})),
    }
}

/// A pending approval of a call in message `msg-<call>`.
pub fn pending(
    session_id: impl Into<SessionId>,
    tool_call_id: impl Into<ToolCallId>,
) -> PendingApproval {
    let (session_id, tool_call_id) = (session_id.into(), tool_call_id.into());
    PendingApproval {
        session_id: session_id.clone(),
        message_id: format!("msg-{tool_call_id}"),
        request: request(session_id, tool_call_id),
    }
}

/// A session grant made by approving a call.
pub fn grant(
    session_id: impl Into<SessionId>,
    tool_call_id: impl Into<ToolCallId>,
    command: &str,
) -> Grant {
    let (session_id, tool_call_id) = (session_id.into(), tool_call_id.into());
    Grant {
        id: Grant::id_for(&session_id, &tool_call_id),
        action_id: "allow_session".to_owned(),
        keys: vec![GrantKey {
            tool_name: "Bash".to_owned(),
            specifier: Some(command.to_owned()),
            workspace: None,
        }],
        scope: Scope::Session,
        session_id,
        tool_call_id,
        granted_at: 1_700_000_000_000,
        description: format!("Allow all \"{command}\" commands for this session"),
    }
}

/// A `TOOL_CALL_START` event of a call.
pub fn event(tool_call_id: impl Into<ToolCallId>) -> Event {
    Event::ToolCallStart(ToolCallStart {
        tool_call_id: tool_call_id.into().into_string(),
        tool_call_name: "Bash".to_owned(),
        parent_message_id: None,
        timestamp: Some(1_700_000_000_000),
    })
}

/// The tool parts of messages, in order.
pub fn tool_parts(messages: Vec<Message>) -> Vec<ToolPart> {
    messages
        .into_iter()
        .flat_map(|m| m.parts)
        .filter_map(|p| match p {
            MessagePart::Tool(t) => Some(t),
            _ => None,
        })
        .collect()
}
