//! Tool parts, the UI's record of one tool call, and the reducer that builds them from events.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::approval::ToolApprovalRequest;
use crate::decision::{ToolPermissionDecision, ToolPermissionResolution};
use crate::event::{Event, WarrantEvent};

/// Where a tool call's execution stands. Permission metadata never changes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
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
    pub tool_call_id: String,
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
}

impl ToolPart {
    /// A new part in the streaming state.
    pub fn new(tool_call_id: impl Into<String>, tool_name: impl Into<String>) -> Self {
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
        }
    }
}

/// One part of a message.
// Most parts are tool parts, so boxing the large variant would only add an allocation.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
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
    pub fn get(&self, tool_call_id: &str) -> Option<&ToolPart> {
        self.parts.iter().find(|p| p.tool_call_id == tool_call_id)
    }

    fn part_mut(&mut self, tool_call_id: &str, tool_name: Option<&str>) -> &mut ToolPart {
        let index = match self
            .parts
            .iter()
            .position(|p| p.tool_call_id == tool_call_id)
        {
            Some(i) => i,
            None => {
                self.parts
                    .push(ToolPart::new(tool_call_id, tool_name.unwrap_or_default()));
                self.parts.len() - 1
            }
        };
        let part = &mut self.parts[index];
        if let Some(name) = tool_name.filter(|n| !n.is_empty())
            && part.tool_name.is_empty()
        {
            part.tool_name = name.to_owned();
        }
        part
    }

    /// Applies one event. Events that are not about tool calls are ignored, and so are
    /// Warrant CUSTOM events whose value is malformed.
    pub fn apply(&mut self, event: &Event) {
        match event {
            Event::ToolCallStart(e) => {
                let part = self.part_mut(&e.tool_call_id, Some(&e.tool_call_name));
                part.tool_name = e.tool_call_name.clone();
            }
            Event::ToolCallArgs(e) => {
                let part = self.part_mut(&e.tool_call_id, None);
                part.args_text.push_str(&e.delta);
            }
            Event::ToolCallEnd(e) => {
                let part = self.part_mut(&e.tool_call_id, None);
                if let Ok(input) = serde_json::from_str::<Value>(&part.args_text) {
                    part.input = Some(input);
                    part.args_text.clear();
                }
                if part.state == ToolState::Streaming {
                    part.state = ToolState::Running;
                }
            }
            Event::ToolCallResult(e) => {
                let part = self.part_mut(&e.tool_call_id, None);
                part.output = Some(e.content.clone());
                part.state = ToolState::Completed;
            }
            Event::Custom(c) => match WarrantEvent::from_custom(c) {
                Some(Ok(WarrantEvent::Decision(d))) => {
                    let id = d.tool_call_id.clone();
                    self.part_mut(&id, None).permission_decision = Some(d);
                }
                Some(Ok(WarrantEvent::ApprovalRequest(r))) => {
                    let id = r.tool_call_id.clone();
                    let name = r.tool_name.clone();
                    self.part_mut(&id, name.as_deref()).permission = Some(r);
                }
                Some(Ok(WarrantEvent::Resolution(r))) => {
                    let id = r.tool_call_id.clone();
                    self.part_mut(&id, None).permission_resolution = Some(r);
                }
                _ => {}
            },
            _ => {}
        }
    }
}
