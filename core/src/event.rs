//! AG-UI 1.0 events as Warrant emits them, and typed values for its three CUSTOM events.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::approval::ToolApprovalRequest;
use crate::decision::{ToolPermissionDecision, ToolPermissionResolution};
use crate::ids::ToolCallId;

/// CUSTOM event name of a decision.
pub const TOOL_PERMISSION_DECISION: &str = "tool_permission_decision";
/// CUSTOM event name of an approval request.
pub const TOOL_APPROVAL_REQUEST: &str = "tool_approval_request";
/// CUSTOM event name of a resolution.
pub const TOOL_PERMISSION_RESOLUTION: &str = "tool_permission_resolution";

macro_rules! event_structs {
    ($( $(#[$meta:meta])* $name:ident { $( $(#[$fmeta:meta])* $field:ident : $ty:ty ),* $(,)? } )*) => {
        $(
            $(#[$meta])*
            #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
            #[serde(rename_all = "camelCase")]
            pub struct $name {
                $( $(#[$fmeta])* pub $field: $ty, )*
                /// When the event was made (integer Unix milliseconds).
                #[serde(default, skip_serializing_if = "Option::is_none")]
                pub timestamp: Option<i64>,
            }
        )*
    };
}

event_structs! {
    /// A run started.
    RunStarted {
        /// The thread.
        thread_id: String,
        /// The run.
        run_id: String,
        /// The run this one continues.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        parent_run_id: Option<String>,
    }
    /// A run finished.
    RunFinished {
        /// The thread.
        thread_id: String,
        /// The run.
        run_id: String,
        /// The run's result.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        result: Option<Value>,
        /// How it ended: success, interrupt or cancelled.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        outcome: Option<RunOutcome>,
    }
    /// A run failed.
    RunError {
        /// What went wrong.
        message: String,
        /// A machine-readable code.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        code: Option<String>,
    }
    /// A tool call started.
    ToolCallStart {
        /// The call.
        tool_call_id: String,
        /// The tool's name.
        tool_call_name: String,
        /// The assistant message it belongs to.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        parent_message_id: Option<String>,
    }
    /// A piece of a tool call's JSON arguments.
    ToolCallArgs {
        /// The call.
        tool_call_id: String,
        /// A piece of the arguments' JSON text.
        delta: String,
    }
    /// A tool call's arguments are complete.
    ToolCallEnd {
        /// The call.
        tool_call_id: String,
    }
    /// A tool call's result.
    ToolCallResult {
        /// The tool message's id.
        message_id: String,
        /// The call.
        tool_call_id: String,
        /// The result text.
        content: String,
        /// Always `tool` when present.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        role: Option<String>,
    }
    /// A text message started.
    TextMessageStart {
        /// The message.
        message_id: String,
        /// Its role.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        role: Option<String>,
    }
    /// A piece of a text message.
    TextMessageContent {
        /// The message.
        message_id: String,
        /// The text.
        delta: String,
    }
    /// A text message ended.
    TextMessageEnd {
        /// The message.
        message_id: String,
    }
    /// The whole shared state.
    StateSnapshot {
        /// The state.
        snapshot: Value,
    }
    /// The whole message list.
    MessagesSnapshot {
        /// The messages.
        messages: Vec<Value>,
    }
    /// An event from another system, passed through.
    Raw {
        /// The event.
        event: Value,
        /// Where it came from.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        source: Option<String>,
    }
    /// An application-defined event.
    Custom {
        /// Its name.
        name: String,
        /// Its value (always present).
        value: Value,
    }
}

/// How a run ended.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", tag = "type")]
#[non_exhaustive]
pub enum RunOutcome {
    /// It completed.
    Success,
    /// It stopped for the user; a new run with `resume` continues it.
    Interrupt {
        /// What it waits for.
        interrupts: Vec<Interrupt>,
    },
    /// It was cancelled.
    Cancelled,
}

/// One thing an interrupted run waits for.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Interrupt {
    /// The interrupt's id, named by the resume.
    pub id: String,
    /// Why (`tool_call`).
    pub reason: String,
    /// The call awaiting approval.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_call_id: Option<String>,
    /// A message for the user.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// The schema of the expected resume payload.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub response_schema: Option<Value>,
    /// When it expires.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expires_at: Option<String>,
    /// Anything else.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Value>,
}

/// An AG-UI event. Serializes with a SCREAMING_SNAKE `type` and camelCase fields.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "SCREAMING_SNAKE_CASE")]
#[allow(missing_docs)]
#[non_exhaustive]
pub enum Event {
    RunStarted(RunStarted),
    RunFinished(RunFinished),
    RunError(RunError),
    ToolCallStart(ToolCallStart),
    ToolCallArgs(ToolCallArgs),
    ToolCallEnd(ToolCallEnd),
    ToolCallResult(ToolCallResult),
    TextMessageStart(TextMessageStart),
    TextMessageContent(TextMessageContent),
    TextMessageEnd(TextMessageEnd),
    StateSnapshot(StateSnapshot),
    MessagesSnapshot(MessagesSnapshot),
    Raw(Raw),
    Custom(Custom),
}

/// Warrant's CUSTOM events, typed.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum WarrantEvent {
    /// `tool_permission_decision`.
    Decision(ToolPermissionDecision),
    /// `tool_approval_request`.
    ApprovalRequest(ToolApprovalRequest),
    /// `tool_permission_resolution`.
    Resolution(ToolPermissionResolution),
}

impl WarrantEvent {
    /// The CUSTOM event's name.
    pub fn name(&self) -> &'static str {
        match self {
            WarrantEvent::Decision(_) => TOOL_PERMISSION_DECISION,
            WarrantEvent::ApprovalRequest(_) => TOOL_APPROVAL_REQUEST,
            WarrantEvent::Resolution(_) => TOOL_PERMISSION_RESOLUTION,
        }
    }

    /// The call it is about.
    pub fn tool_call_id(&self) -> &ToolCallId {
        match self {
            WarrantEvent::Decision(d) => &d.tool_call_id,
            WarrantEvent::ApprovalRequest(r) => &r.tool_call_id,
            WarrantEvent::Resolution(r) => &r.tool_call_id,
        }
    }

    /// Reads a CUSTOM event: `None` for another name, `Some(Err)` for a Warrant name whose
    /// value does not have the contract's shape.
    pub fn from_custom(custom: &Custom) -> Option<Result<Self, serde_json::Error>> {
        let value = custom.value.clone();
        Some(match custom.name.as_str() {
            TOOL_PERMISSION_DECISION => serde_json::from_value(value).map(Self::Decision),
            TOOL_APPROVAL_REQUEST => serde_json::from_value(value).map(Self::ApprovalRequest),
            TOOL_PERMISSION_RESOLUTION => serde_json::from_value(value).map(Self::Resolution),
            _ => return None,
        })
    }

    /// The AG-UI event carrying it.
    pub fn into_event(self, timestamp: Option<i64>) -> Event {
        let name = self.name().to_owned();
        let value = match self {
            WarrantEvent::Decision(d) => serde_json::to_value(d),
            WarrantEvent::ApprovalRequest(r) => serde_json::to_value(r),
            WarrantEvent::Resolution(r) => serde_json::to_value(r),
        }
        .unwrap_or(Value::Null);
        Event::Custom(Custom {
            name,
            value,
            timestamp,
        })
    }
}

impl Event {
    /// The event's `type` on the wire (`TOOL_CALL_START`, `CUSTOM`, …).
    pub fn type_name(&self) -> &'static str {
        match self {
            Event::RunStarted(_) => "RUN_STARTED",
            Event::RunFinished(_) => "RUN_FINISHED",
            Event::RunError(_) => "RUN_ERROR",
            Event::ToolCallStart(_) => "TOOL_CALL_START",
            Event::ToolCallArgs(_) => "TOOL_CALL_ARGS",
            Event::ToolCallEnd(_) => "TOOL_CALL_END",
            Event::ToolCallResult(_) => "TOOL_CALL_RESULT",
            Event::TextMessageStart(_) => "TEXT_MESSAGE_START",
            Event::TextMessageContent(_) => "TEXT_MESSAGE_CONTENT",
            Event::TextMessageEnd(_) => "TEXT_MESSAGE_END",
            Event::StateSnapshot(_) => "STATE_SNAPSHOT",
            Event::MessagesSnapshot(_) => "MESSAGES_SNAPSHOT",
            Event::Raw(_) => "RAW",
            Event::Custom(_) => "CUSTOM",
        }
    }

    /// The Warrant CUSTOM event this is, if any.
    pub fn warrant(&self) -> Option<Result<WarrantEvent, serde_json::Error>> {
        match self {
            Event::Custom(c) => WarrantEvent::from_custom(c),
            _ => None,
        }
    }

    /// The tool call this event is about, if any.
    pub fn tool_call_id(&self) -> Option<&str> {
        match self {
            Event::ToolCallStart(e) => Some(&e.tool_call_id),
            Event::ToolCallArgs(e) => Some(&e.tool_call_id),
            Event::ToolCallEnd(e) => Some(&e.tool_call_id),
            Event::ToolCallResult(e) => Some(&e.tool_call_id),
            Event::Custom(c) => c.value.get("toolCallId").and_then(Value::as_str),
            _ => None,
        }
    }
}

/// The current time in integer Unix milliseconds.
pub fn now_millis() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
        .unwrap_or(0)
}

/// Why an embedder's event was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "CUSTOM event name \"{0}\" is reserved: decisions, approval requests and resolutions come only from the engine"
)]
pub struct ReservedEventName(pub String);

/// A CUSTOM event of the embedder's own: any name but Warrant's three.
#[derive(Debug, Clone, PartialEq)]
pub struct AppCustom {
    name: String,
    value: Value,
}

impl AppCustom {
    /// A CUSTOM event named `name` carrying `value`.
    ///
    /// # Errors
    ///
    /// [`ReservedEventName`] for `tool_permission_decision`, `tool_approval_request` and
    /// `tool_permission_resolution`, which only the engine emits.
    pub fn new(name: impl Into<String>, value: Value) -> Result<Self, ReservedEventName> {
        let name = name.into();
        if [
            TOOL_PERMISSION_DECISION,
            TOOL_APPROVAL_REQUEST,
            TOOL_PERMISSION_RESOLUTION,
        ]
        .contains(&name.as_str())
        {
            return Err(ReservedEventName(name));
        }
        Ok(Self { name, value })
    }

    /// Its name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Its value.
    pub fn value(&self) -> &Value {
        &self.value
    }
}

/// An event an embedder may emit through [`Engine::emit`](crate::engine::Engine::emit):
/// run lifecycle, text, state, raw and its own CUSTOM events. Tool-call events, decisions,
/// approval requests, resolutions and results come only from the engine's own operations
/// (`authorize`, `resolve`, `complete`), so no variant can carry them.
#[derive(Debug, Clone, PartialEq)]
#[allow(missing_docs)]
#[non_exhaustive]
pub enum AgentEvent {
    RunStarted(RunStarted),
    RunFinished(RunFinished),
    RunError(RunError),
    TextMessageStart(TextMessageStart),
    TextMessageContent(TextMessageContent),
    TextMessageEnd(TextMessageEnd),
    StateSnapshot(StateSnapshot),
    MessagesSnapshot(MessagesSnapshot),
    Raw(Raw),
    Custom(AppCustom),
}

impl AgentEvent {
    /// The AG-UI event.
    pub fn into_event(self) -> Event {
        match self {
            AgentEvent::RunStarted(e) => Event::RunStarted(e),
            AgentEvent::RunFinished(e) => Event::RunFinished(e),
            AgentEvent::RunError(e) => Event::RunError(e),
            AgentEvent::TextMessageStart(e) => Event::TextMessageStart(e),
            AgentEvent::TextMessageContent(e) => Event::TextMessageContent(e),
            AgentEvent::TextMessageEnd(e) => Event::TextMessageEnd(e),
            AgentEvent::StateSnapshot(e) => Event::StateSnapshot(e),
            AgentEvent::MessagesSnapshot(e) => Event::MessagesSnapshot(e),
            AgentEvent::Raw(e) => Event::Raw(e),
            AgentEvent::Custom(c) => Event::Custom(Custom {
                name: c.name,
                value: c.value,
                timestamp: Some(now_millis()),
            }),
        }
    }
}

/// Why an AG-UI event cannot be emitted by an embedder.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NotAnAgentEvent {
    /// A tool-call event (`TOOL_CALL_START`, `…_ARGS`, `…_END`, `…_RESULT`).
    #[error(
        "{0} events come only from the engine (announce the call with authorize, report its result with complete)"
    )]
    ToolCall(&'static str),
    /// One of Warrant's CUSTOM events.
    #[error(transparent)]
    Reserved(#[from] ReservedEventName),
}

impl TryFrom<Event> for AgentEvent {
    type Error = NotAnAgentEvent;

    fn try_from(event: Event) -> Result<Self, Self::Error> {
        Ok(match event {
            Event::RunStarted(e) => AgentEvent::RunStarted(e),
            Event::RunFinished(e) => AgentEvent::RunFinished(e),
            Event::RunError(e) => AgentEvent::RunError(e),
            Event::TextMessageStart(e) => AgentEvent::TextMessageStart(e),
            Event::TextMessageContent(e) => AgentEvent::TextMessageContent(e),
            Event::TextMessageEnd(e) => AgentEvent::TextMessageEnd(e),
            Event::StateSnapshot(e) => AgentEvent::StateSnapshot(e),
            Event::MessagesSnapshot(e) => AgentEvent::MessagesSnapshot(e),
            Event::Raw(e) => AgentEvent::Raw(e),
            Event::Custom(c) => AgentEvent::Custom(AppCustom::new(c.name, c.value)?),
            other @ (Event::ToolCallStart(_)
            | Event::ToolCallArgs(_)
            | Event::ToolCallEnd(_)
            | Event::ToolCallResult(_)) => {
                return Err(NotAnAgentEvent::ToolCall(other.type_name()));
            }
        })
    }
}
