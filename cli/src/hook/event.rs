//! A hook payload read into what Warrant needs: which event, which session, which tool call.

use std::path::PathBuf;
use warrant_core::ids::{SessionId, ToolCallId};

use serde_json::Value;

use super::Agent;

/// What happened in the agent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum EventKind {
    /// A tool is about to run: decide it (`PreToolUse`, `BeforeTool`).
    PreTool,
    /// A tool ran (`PostToolUse`, `PostToolUseFailure`, `AfterTool`): the user let it run.
    PostTool,
    /// The agent refused a call (`PermissionDenied`).
    Denied,
    /// The agent's turn ended (`Stop`, `AfterAgent`): calls still waiting were not run.
    TurnEnd,
    /// Any other event: nothing to record.
    Other(String),
}

/// One tool call as the agent reports it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ToolUse {
    /// The agent's tool name (`Bash`, `run_shell_command`, `mcp__git__status`).
    pub name: String,
    /// The agent's tool input.
    pub input: Value,
    /// The agent's call id, when it gives one (Gemini CLI does not).
    pub id: Option<ToolCallId>,
    /// What the tool returned (post-tool events).
    pub response: Option<Value>,
}

/// A hook event, read.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct HookEvent {
    /// The event.
    pub kind: EventKind,
    /// The agent's session id: the Warrant session.
    pub session_id: SessionId,
    /// The agent's working directory: the workspace root.
    pub cwd: PathBuf,
    /// The tool call, for tool events.
    pub tool: Option<ToolUse>,
}

/// Why a payload cannot be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct PayloadError {
    /// The event named by the payload, when it names one (a broken `PreToolUse` is still
    /// answered as a `PreToolUse`).
    pub event: Option<String>,
    /// What is wrong, naming the field or value.
    pub message: String,
}

impl PayloadError {
    fn new(event: Option<&str>, message: impl Into<String>) -> Self {
        Self {
            event: event.map(str::to_owned),
            message: message.into(),
        }
    }
}

/// Reads a payload of `agent`.
///
/// # Errors
///
/// A [`PayloadError`] naming the bad field or value.
pub(crate) fn parse(agent: Agent, text: &str) -> Result<HookEvent, PayloadError> {
    let value: Value = warrant_core::json::from_str_unique(text).map_err(|e| {
        PayloadError::new(None, format!("the hook payload is not valid JSON ({e})"))
    })?;
    let Some(object) = value.as_object() else {
        return Err(PayloadError::new(
            None,
            "the hook payload must be a JSON object",
        ));
    };
    let event = object
        .get("hook_event_name")
        .and_then(Value::as_str)
        .ok_or_else(|| PayloadError::new(None, "the payload has no string \"hook_event_name\""))?;
    let kind = kind_of(agent, event);
    let text_field = |name: &str| -> Result<String, PayloadError> {
        match object.get(name) {
            Some(Value::String(s)) if !s.trim().is_empty() => Ok(s.clone()),
            Some(other) => Err(PayloadError::new(
                Some(event),
                format!("{event}: \"{name}\" must be a non-blank string, got {other}"),
            )),
            None => Err(PayloadError::new(
                Some(event),
                format!("{event}: the payload has no \"{name}\""),
            )),
        }
    };
    let session_id = text_field("session_id")?;
    let cwd = PathBuf::from(text_field("cwd")?);
    let tool = match kind {
        EventKind::PreTool | EventKind::PostTool | EventKind::Denied => {
            let name = text_field("tool_name")?;
            let input = object.get("tool_input").cloned().unwrap_or(Value::Null);
            if !input.is_object() {
                return Err(PayloadError::new(
                    Some(event),
                    format!("{event}: \"tool_input\" of {name} must be a JSON object, got {input}"),
                ));
            }
            let id = match object.get("tool_use_id") {
                None | Some(Value::Null) => None,
                Some(Value::String(s)) if !s.trim().is_empty() => Some(s.clone()),
                Some(other) => {
                    return Err(PayloadError::new(
                        Some(event),
                        format!("{event}: \"tool_use_id\" must be a non-blank string, got {other}"),
                    ));
                }
            };
            if id.is_none() && agent != Agent::Gemini {
                return Err(PayloadError::new(
                    Some(event),
                    format!("{event}: the payload has no \"tool_use_id\""),
                ));
            }
            let response = object
                .get("tool_response")
                .or_else(|| object.get("error"))
                .cloned();
            Some(ToolUse {
                name,
                input,
                id: id.map(ToolCallId::from),
                response,
            })
        }
        EventKind::TurnEnd | EventKind::Other(_) => None,
    };
    Ok(HookEvent {
        kind,
        session_id: session_id.into(),
        cwd,
        tool,
    })
}

/// The event an agent's `hook_event_name` stands for.
fn kind_of(agent: Agent, event: &str) -> EventKind {
    match (agent, event) {
        (Agent::ClaudeCode | Agent::Codex, "PreToolUse") | (Agent::Gemini, "BeforeTool") => {
            EventKind::PreTool
        }
        (Agent::ClaudeCode, "PostToolUse" | "PostToolUseFailure")
        | (Agent::Codex, "PostToolUse")
        | (Agent::Gemini, "AfterTool") => EventKind::PostTool,
        (Agent::ClaudeCode, "PermissionDenied") => EventKind::Denied,
        (Agent::ClaudeCode | Agent::Codex, "Stop") | (Agent::Gemini, "AfterAgent") => {
            EventKind::TurnEnd
        }
        (_, other) => EventKind::Other(other.to_owned()),
    }
}

/// Whether an event name is the agent's pre-tool event (answered with a decision).
pub(crate) fn is_pre_tool(agent: Agent, event: &str) -> bool {
    kind_of(agent, event) == EventKind::PreTool
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pre(tool_input: &str) -> String {
        format!(
            r#"{{"session_id":"s","cwd":"/w","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{tool_input},"tool_use_id":"t1"}}"#
        )
    }

    #[test]
    fn a_pre_tool_use_payload_reads_as_its_call() {
        let event = parse(Agent::ClaudeCode, &pre(r#"{"command":"ls"}"#)).unwrap();
        assert_eq!(event.kind, EventKind::PreTool);
        assert_eq!(event.session_id, "s");
        let tool = event.tool.unwrap();
        assert_eq!(
            (tool.name.as_str(), tool.id.as_ref().map(ToolCallId::as_str)),
            ("Bash", Some("t1"))
        );
    }

    #[test]
    fn a_tool_input_that_is_not_an_object_is_named_with_its_value() {
        let e = parse(Agent::ClaudeCode, &pre(r#""ls""#)).unwrap_err();
        assert_eq!(e.event.as_deref(), Some("PreToolUse"));
        assert!(e.message.contains("\"tool_input\"") && e.message.contains("\"ls\""));
    }

    #[test]
    fn a_repeated_key_in_the_payload_is_refused() {
        let e = parse(
            Agent::ClaudeCode,
            &pre(r#"{"command":"rm -rf ~","command":"ls"}"#),
        )
        .unwrap_err();
        assert!(
            e.message.contains("`/tool_input/command` is repeated"),
            "{}",
            e.message
        );
    }

    #[test]
    fn only_gemini_may_leave_out_the_call_id() {
        let text = r#"{"session_id":"s","cwd":"/w","hook_event_name":"BeforeTool","tool_name":"read_file","tool_input":{}}"#;
        assert!(
            parse(Agent::Gemini, text)
                .unwrap()
                .tool
                .unwrap()
                .id
                .is_none()
        );
        let text = text.replace("BeforeTool", "PreToolUse");
        let e = parse(Agent::Codex, &text).unwrap_err();
        assert!(e.message.contains("tool_use_id"), "{}", e.message);
    }

    #[test]
    fn events_are_named_in_each_agents_terms() {
        assert_eq!(
            kind_of(Agent::Gemini, "PreToolUse"),
            EventKind::Other("PreToolUse".into())
        );
        assert_eq!(kind_of(Agent::Gemini, "AfterAgent"), EventKind::TurnEnd);
        assert_eq!(
            kind_of(Agent::ClaudeCode, "PostToolUseFailure"),
            EventKind::PostTool
        );
        assert_eq!(
            kind_of(Agent::Codex, "PermissionDenied"),
            EventKind::Other("PermissionDenied".into())
        );
    }
}
