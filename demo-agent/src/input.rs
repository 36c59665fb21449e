//! The AG-UI `RunAgentInput` as the demo agent reads it, and the resume entries that answer
//! an interrupted run.

use serde::Deserialize;
use serde_json::Value;
use warrant_core::call::PermissionMode;

use warrant_transports::error::ApiError;

/// A request to run the agent (`RunAgentInput`); fields the demo does not use are ignored.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RunAgentInput {
    /// The thread: the session whose events the run emits.
    pub thread_id: String,
    /// The run.
    pub run_id: String,
    /// The run this one continues.
    #[serde(default)]
    pub parent_run_id: Option<String>,
    /// The conversation so far.
    pub messages: Vec<Value>,
    /// Answers to the thread's open interrupts.
    #[serde(default)]
    pub resume: Option<Vec<ResumeEntry>>,
    /// Options: `mode` (`default`, `auto`, `full_access`) overrides every step's permission
    /// mode; `waitForApproval: true` keeps the run open until an approval is resolved instead
    /// of ending it with an interrupt.
    #[serde(default)]
    pub forwarded_props: Option<Value>,
}

/// One answer to an open interrupt.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ResumeEntry {
    /// The interrupt answered.
    pub interrupt_id: String,
    /// Resolved (with a payload) or cancelled.
    pub status: ResumeStatus,
    /// `{"actionId": "allow_session"}`, or `{"approved": true|false}`.
    #[serde(default)]
    pub payload: Option<Value>,
}

/// How an interrupt was answered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ResumeStatus {
    /// The user answered.
    Resolved,
    /// The user dismissed it: the call is denied.
    Cancelled,
}

/// What the forwarded props ask of a run.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RunOptions {
    /// A mode for every step, instead of the script's own.
    pub mode: Option<PermissionMode>,
    /// Wait for approvals inside the run rather than interrupting it.
    pub wait_for_approval: bool,
}

impl RunAgentInput {
    /// Checks the ids and reads the options.
    ///
    /// # Errors
    ///
    /// 400 for a blank id or a malformed option, naming it.
    pub fn options(&self) -> Result<RunOptions, ApiError> {
        for (name, id) in [("threadId", &self.thread_id), ("runId", &self.run_id)] {
            if id.trim().is_empty() {
                return Err(ApiError::bad_request(
                    "invalid_input",
                    format!("{name} must not be blank"),
                ));
            }
        }
        let props = self.forwarded_props.as_ref();
        let mode = match props.and_then(|p| p.get("mode")) {
            None | Some(Value::Null) => None,
            Some(Value::String(s)) => Some(s.parse::<PermissionMode>().map_err(|e| {
                ApiError::bad_request("invalid_input", format!("forwardedProps.mode: {e}"))
            })?),
            Some(other) => {
                return Err(ApiError::bad_request(
                    "invalid_input",
                    format!("forwardedProps.mode must be a string, got {other}"),
                ));
            }
        };
        let wait_for_approval = match props.and_then(|p| p.get("waitForApproval")) {
            None | Some(Value::Null) => false,
            Some(Value::Bool(b)) => *b,
            Some(other) => {
                return Err(ApiError::bad_request(
                    "invalid_input",
                    format!("forwardedProps.waitForApproval must be a boolean, got {other}"),
                ));
            }
        };
        Ok(RunOptions {
            mode,
            wait_for_approval,
        })
    }

    /// The text of the latest user message (text parts joined), empty when there is none.
    pub fn last_user_text(&self) -> String {
        self.last_user_message()
            .map(|(_, text)| text)
            .unwrap_or_default()
    }

    /// The id (when the client gave one) and text of the latest user message.
    pub fn last_user_message(&self) -> Option<(Option<String>, String)> {
        let message = self
            .messages
            .iter()
            .rev()
            .find(|m| m.get("role").and_then(Value::as_str) == Some("user"))?;
        let id = message.get("id").and_then(Value::as_str).map(str::to_owned);
        Some((id, Self::text_of(message)))
    }

    fn text_of(message: &Value) -> String {
        match message.get("content") {
            Some(Value::String(text)) => text.clone(),
            Some(Value::Array(parts)) => parts
                .iter()
                .filter(|p| p.get("type").and_then(Value::as_str) == Some("text"))
                .filter_map(|p| p.get("text").and_then(Value::as_str))
                .collect::<Vec<_>>()
                .join(" "),
            _ => String::new(),
        }
    }
}
