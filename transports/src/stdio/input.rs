//! The input lines of `warrant stdio`: JSON objects with a `type`.

use serde::Deserialize;
use serde_json::Value;
use warrant_core::call::PermissionMode;
use warrant_core::ids::{SessionId, ToolCallId};

use super::lines::Line;
use crate::error::ApiError;

/// The input types understood.
pub const INPUT_TYPES: [&str; 6] = [
    "tool_call",
    "approval",
    "tool_result",
    "session_settings",
    "runtime_tools",
    "revoke_grant",
];

/// One input line, read.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Command {
    /// `{"type":"tool_call","sessionId","toolCallId","toolName","input","mode"?}`: decide a call.
    ToolCall(ToolCallLine),
    /// `{"type":"approval","toolCallId","actionId","message"?}`: the user's action on a
    /// pending request (a denial may carry a message to the agent).
    Approval(ApprovalLine),
    /// `{"type":"tool_result","toolCallId","content"}`: what an allowed call returned.
    ToolResult(ToolResultLine),
    /// `{"type":"session_settings","sessionId","autoApprovedToolNames"?}`: set or clear a
    /// session's tool auto-approval override.
    SessionSettings(SessionSettingsLine),
    /// `{"type":"runtime_tools","tools":[{"name","description"?,"inputSchema"?}]}`: the tools
    /// the runtime reports; stale tool ids are pruned and the catalog rebuilt.
    RuntimeTools(RuntimeToolsLine),
    /// `{"type":"revoke_grant","grantId"}`: revoke a grant; calls it covered ask again.
    RevokeGrant(RevokeGrantLine),
}

/// A grant to revoke.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RevokeGrantLine {
    /// The grant's id (`grt_…`).
    pub grant_id: String,
}

/// The tools the runtime reports.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RuntimeToolsLine {
    /// The tools, each with its runtime id as `name`.
    pub tools: Vec<warrant_core::catalog::RuntimeTool>,
}

/// A tool call to decide.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolCallLine {
    /// The session.
    pub session_id: SessionId,
    /// The call's id.
    pub tool_call_id: ToolCallId,
    /// The runtime tool id.
    pub tool_name: String,
    /// The call's arguments.
    pub input: Value,
    /// The permission mode (the configured one when absent).
    #[serde(default)]
    pub mode: Option<PermissionMode>,
    /// The agent making the call (`primary` when absent).
    #[serde(default)]
    pub agent_id: Option<String>,
    /// The assistant message the call belongs to.
    #[serde(default)]
    pub message_id: Option<String>,
    /// Emit `TOOL_CALL_START`/`ARGS`/`END` before the decision (default: yes).
    #[serde(default)]
    pub announce: Option<bool>,
}

/// An answer to an approval request.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ApprovalLine {
    /// The call awaiting approval.
    pub tool_call_id: ToolCallId,
    /// One of the offered actions.
    pub action_id: String,
    /// What to tell the agent with a denial.
    #[serde(default)]
    pub message: Option<String>,
}

/// A call's result.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolResultLine {
    /// The call.
    pub tool_call_id: ToolCallId,
    /// The result: text, or any JSON (sent as its JSON text).
    pub content: Value,
    /// The session, for a call this process did not see.
    #[serde(default)]
    pub session_id: Option<SessionId>,
}

/// A session's tool auto-approval override.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SessionSettingsLine {
    /// The session.
    pub session_id: SessionId,
    /// The override: a list sets it (`[]` auto-approves nothing); absent or `null` clears it.
    #[serde(default)]
    pub auto_approved_tool_names: Option<Vec<String>>,
}

/// Reads line `number`, or says what is wrong with it (naming the line).
///
/// # Errors
///
/// `line_too_long`, `invalid_utf8`, `invalid_json`, `unknown_type` or `invalid_line`.
pub fn parse(number: usize, line: Line, max: usize) -> Result<Command, ApiError> {
    let bad =
        |code: &str, why: String| ApiError::bad_request(code, format!("line {number}: {why}"));
    let text = match line {
        Line::Text(text) => text,
        Line::TooLong => {
            return Err(bad(
                "line_too_long",
                format!("longer than {max} bytes; skipped"),
            ));
        }
        Line::NotUtf8 => return Err(bad("invalid_utf8", "not UTF-8 text".to_owned())),
    };
    let value: Value = warrant_core::json::from_str_unique(&text)
        .map_err(|e| bad("invalid_json", format!("not valid JSON ({e})")))?;
    let Some(kind) = value.get("type").cloned() else {
        return Err(bad(
            "invalid_line",
            "a line must be a JSON object with a \"type\"".to_owned(),
        ));
    };
    let Some(kind) = kind.as_str().filter(|k| INPUT_TYPES.contains(k)) else {
        return Err(bad(
            "unknown_type",
            format!(
                "unknown type {kind} (expected one of {})",
                INPUT_TYPES.join(", ")
            ),
        ));
    };
    let command: Command =
        serde_json::from_value(value).map_err(|e| bad("invalid_line", format!("{kind}: {e}")))?;
    let blank = match &command {
        Command::ToolCall(c) => [
            ("sessionId", c.session_id.as_str()),
            ("toolCallId", c.tool_call_id.as_str()),
            ("toolName", c.tool_name.as_str()),
        ]
        .into_iter()
        .find(|(_, v)| v.trim().is_empty()),
        Command::Approval(a) => [
            ("toolCallId", a.tool_call_id.as_str()),
            ("actionId", a.action_id.as_str()),
        ]
        .into_iter()
        .find(|(_, v)| v.trim().is_empty()),
        Command::ToolResult(r) => {
            Some(("toolCallId", r.tool_call_id.as_str())).filter(|(_, v)| v.trim().is_empty())
        }
        Command::SessionSettings(s) => {
            Some(("sessionId", s.session_id.as_str())).filter(|(_, v)| v.trim().is_empty())
        }
        Command::RevokeGrant(g) => {
            Some(("grantId", g.grant_id.as_str())).filter(|(_, v)| v.trim().is_empty())
        }
        Command::RuntimeTools(r) => {
            crate::workspace::check_runtime_tools(&r.tools)
                .map_err(|e| bad("invalid_line", format!("{kind}: {}", e.message)))?;
            None
        }
    };
    match blank {
        Some((field, _)) => Err(bad(
            "invalid_line",
            format!("{kind}: {field} must not be blank"),
        )),
        None => Ok(command),
    }
}
