//! Tool parts, the UI's record of one tool call, and the reducer that builds them from events.

use crate::ids::ToolCallId;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::approval::ToolApprovalRequest;
use crate::decision::{ToolPermissionDecision, ToolPermissionResolution};
use crate::event::{Event, WarrantEvent};

/// Where a tool call's execution stands. Permission metadata never changes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum ToolState {
    /// Its arguments are streaming in.
    #[default]
    Streaming,
    /// Its arguments are complete; it is being decided or executed.
    Running,
    /// It has a result.
    Completed,
}

/// One tool call as the UI shows it (`AGUIPart`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolPart {
    /// The call's id.
    pub tool_call_id: ToolCallId,
    /// The tool's name.
    pub tool_name: String,
    /// The execution state.
    #[serde(default)]
    pub state: ToolState,
    /// The arguments, once complete and parseable.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input: Option<Value>,
    /// The raw argument text received so far.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub args_text: String,
    /// The result text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output: Option<String>,
    /// The approval contract, while or after the call asked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub permission: Option<ToolApprovalRequest>,
    /// How the call was decided.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub permission_decision: Option<ToolPermissionDecision>,
    /// What the user did, after an escalation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub permission_resolution: Option<ToolPermissionResolution>,
    /// The call ended without running: its approval request expired or was cut short by a
    /// restart. `output` then says why; a result is refused from then on.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub interrupted: bool,
}

impl ToolPart {
    /// A new part in the streaming state.
    pub fn new(tool_call_id: impl Into<ToolCallId>, tool_name: impl Into<String>) -> Self {
        Self {
            tool_call_id: tool_call_id.into(),
            tool_name: tool_name.into(),
            state: ToolState::Streaming,
            input: None,
            args_text: String::new(),
            output: None,
            permission: None,
            permission_decision: None,
            permission_resolution: None,
            interrupted: false,
        }
    }
}

/// One part of a message.
// Most parts are tool parts, so boxing the large variant would only add an allocation.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
#[non_exhaustive]
pub enum MessagePart {
    /// Text.
    Text {
        /// The text.
        text: String,
    },
    /// A tool call.
    Tool(ToolPart),
}

/// A persisted chat message with its parts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Message {
    /// The message's id.
    pub id: String,
    /// `assistant`, `user` or `tool`.
    pub role: String,
    /// Its parts, in order.
    #[serde(default)]
    pub parts: Vec<MessagePart>,
}

/// Applies AG-UI events to an ordered list of tool parts.
///
/// Parts are located by `toolCallId`; decision and resolution metadata is merged without
/// changing execution state and kept when the part completes. Events about unknown calls
/// create the part, so metadata arriving first is never lost.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ToolParts {
    /// The parts, in the order their calls first appeared.
    pub parts: Vec<ToolPart>,
}

impl ToolParts {
    /// The part of a call.
    pub fn get(&self, tool_call_id: &ToolCallId) -> Option<&ToolPart> {
        self.parts.iter().find(|p| p.tool_call_id == tool_call_id)
    }

    /// Applies one event. Events that are not about tool calls are ignored, and so are
    /// Warrant CUSTOM events whose value is malformed.
    pub fn apply(&mut self, event: &Event) {
        let Some((tool_call_id, change)) = Change::of(event) else {
            return;
        };
        let index = match self
            .parts
            .iter()
            .position(|p| p.tool_call_id == tool_call_id)
        {
            Some(i) => i,
            None => {
                self.parts.push(ToolPart::new(tool_call_id, ""));
                self.parts.len() - 1
            }
        };
        self.parts[index].merge(change);
    }
}

/// What one event changes in the part of its call.
// Lives only while one event is applied; boxing the Warrant variant would only allocate.
#[allow(clippy::large_enum_variant)]
enum Change<'a> {
    Start(&'a str),
    Args(&'a str),
    End,
    Result(&'a str),
    Warrant(WarrantEvent),
}

impl<'a> Change<'a> {
    /// The call an event is about and what it changes; `None` for events about no tool part.
    fn of(event: &'a Event) -> Option<(String, Self)> {
        Some(match event {
            Event::ToolCallStart(e) => (e.tool_call_id.clone(), Change::Start(&e.tool_call_name)),
            Event::ToolCallArgs(e) => (e.tool_call_id.clone(), Change::Args(&e.delta)),
            Event::ToolCallEnd(e) => (e.tool_call_id.clone(), Change::End),
            Event::ToolCallResult(e) => (e.tool_call_id.clone(), Change::Result(&e.content)),
            Event::Custom(c) => {
                let warrant = WarrantEvent::from_custom(c)?.ok()?;
                (
                    warrant.tool_call_id().as_str().to_owned(),
                    Change::Warrant(warrant),
                )
            }
            _ => return None,
        })
    }
}

impl ToolPart {
    /// Applies one event about this part (events about other calls or no call are ignored).
    pub fn apply(&mut self, event: &Event) {
        if let Some((tool_call_id, change)) = Change::of(event)
            && tool_call_id == self.tool_call_id
        {
            self.merge(change);
        }
    }

    fn merge(&mut self, change: Change<'_>) {
        match change {
            Change::Start(name) => self.tool_name = name.to_owned(),
            Change::Args(delta) => self.args_text.push_str(delta),
            Change::End => {
                if let Ok(input) = serde_json::from_str::<Value>(&self.args_text) {
                    self.input = Some(input);
                    self.args_text.clear();
                }
                if self.state == ToolState::Streaming {
                    self.state = ToolState::Running;
                }
            }
            Change::Result(content) => {
                self.output = Some(content.to_owned());
                self.state = ToolState::Completed;
            }
            Change::Warrant(WarrantEvent::Decision(d)) => self.permission_decision = Some(d),
            Change::Warrant(WarrantEvent::ApprovalRequest(r)) => {
                if self.tool_name.is_empty()
                    && let Some(name) = r.tool_name.as_deref().filter(|n| !n.is_empty())
                {
                    self.tool_name = name.to_owned();
                }
                self.permission = Some(r);
            }
            Change::Warrant(WarrantEvent::Resolution(r)) => self.permission_resolution = Some(r),
        }
    }
}
