//! What a store writes for a tool part and for a pending approval, encoded once by the
//! caller (the same JSON whichever store keeps it).

use warrant_core::part::ToolPart;
use warrant_core::store::{PendingApproval, StoreError};
use warrant_core::workspace::check_session_id;

use crate::error::to_json;

/// A tool part ready to write: where it goes, its JSON, and its decision and resolution for
/// the message's decision map.
pub(crate) struct PartRow {
    pub session_id: String,
    pub message_id: String,
    pub tool_call_id: String,
    pub tool_name: String,
    pub json: String,
    pub decision: Option<String>,
    pub resolution: Option<String>,
}

impl PartRow {
    /// Encodes a part of a message, refusing an over-long session id.
    pub(crate) fn new(
        session_id: &str,
        message_id: &str,
        part: &ToolPart,
    ) -> Result<Self, StoreError> {
        check_session_id(session_id)?;
        Ok(Self {
            session_id: session_id.to_owned(),
            message_id: message_id.to_owned(),
            tool_call_id: part.tool_call_id.as_str().to_owned(),
            tool_name: part.tool_name.clone(),
            json: to_json("a tool part", part)?,
            decision: part
                .permission_decision
                .as_ref()
                .map(|d| to_json("a permission decision", d))
                .transpose()?,
            resolution: part
                .permission_resolution
                .as_ref()
                .map(|r| to_json("a permission resolution", r))
                .transpose()?,
        })
    }
}

/// An approval request ready to write.
pub(crate) struct PendingRow {
    pub tool_call_id: String,
    pub session_id: String,
    pub message_id: String,
    pub request: String,
}

impl PendingRow {
    /// Encodes a pending approval, refusing an over-long session id.
    pub(crate) fn new(pending: &PendingApproval) -> Result<Self, StoreError> {
        check_session_id(&pending.session_id)?;
        Ok(Self {
            tool_call_id: pending.request.tool_call_id.as_str().to_owned(),
            session_id: pending.session_id.as_str().to_owned(),
            message_id: pending.message_id.clone(),
            request: to_json("an approval request", &pending.request)?,
        })
    }
}
