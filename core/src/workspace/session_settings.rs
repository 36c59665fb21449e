//! `updateSessionApprovalSettings`: set, empty or clear a session's tool auto-approval
//! override.

use crate::ids::SessionId;
use serde::{Deserialize, Serialize};

use super::lists::clean_ids;
use super::validate::check_tool_ids;
use super::{
    ApprovalError, PolicyOwner, SessionApprovalSettings, SessionKind, SessionStatus, WorkspaceState,
};
use crate::catalog::RuntimeTool;

/// A request to change a session's override, as the seed's JSON spells it:
/// `{"sessionId": "s1", "autoApprovedToolNames": ["view"]}`.
///
/// `autoApprovedToolNames` absent (or `null`) clears the override so the session inherits
/// its pattern's defaults; `[]` keeps an explicit override that auto-approves nothing; a list
/// sets the override. Unknown fields are rejected, so a misspelt field cannot silently clear
/// an override.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SessionApprovalSettingsRequest {
    /// The session to change.
    pub session_id: SessionId,
    /// The override; `None` clears it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub auto_approved_tool_names: Option<Vec<String>>,
}

impl SessionApprovalSettingsRequest {
    /// A request for `session_id`: `Some(list)` sets the override (`[]` included), `None`
    /// clears it.
    pub fn new(
        session_id: impl Into<SessionId>,
        auto_approved_tool_names: Option<Vec<String>>,
    ) -> Self {
        Self {
            session_id: session_id.into(),
            auto_approved_tool_names,
        }
    }
}

/// The workspace with the session's override set, emptied or cleared as `request` says.
/// The list is cleaned (blank ids and repeats dropped) and checked against the catalog of the
/// workspace's tooling plus `runtime_tools` when known.
///
/// # Errors
///
/// Checked in this order, each naming the rule it broke:
/// [`UnknownSession`](ApprovalError::UnknownSession) when no session has the id;
/// [`SessionRunning`](ApprovalError::SessionRunning) for any request while the session runs;
/// [`ScratchpadOverride`](ApprovalError::ScratchpadOverride) for a non-empty list on a
/// scratchpad session (`[]` and clearing are accepted);
/// [`UnknownToolIds`](ApprovalError::UnknownToolIds) naming every id the catalog does not
/// offer.
pub fn update_session_approval_settings(
    state: &WorkspaceState,
    request: &SessionApprovalSettingsRequest,
    runtime_tools: Option<&[RuntimeTool]>,
) -> Result<WorkspaceState, ApprovalError> {
    let session_id = &request.session_id;
    let at = state
        .sessions
        .iter()
        .position(|s| s.id == session_id)
        .ok_or_else(|| ApprovalError::UnknownSession {
            session_id: session_id.clone(),
        })?;
    let session = &state.sessions[at];
    if session.status == SessionStatus::Running {
        return Err(ApprovalError::SessionRunning {
            session_id: session_id.clone(),
        });
    }
    let settings = match &request.auto_approved_tool_names {
        None => None,
        Some(ids) => {
            let ids = clean_ids(ids.clone());
            if session.kind == SessionKind::Scratchpad && !ids.is_empty() {
                return Err(ApprovalError::ScratchpadOverride {
                    session_id: session_id.clone(),
                    tool_ids: ids,
                });
            }
            let owner = PolicyOwner::Session(session_id.clone());
            check_tool_ids(state, owner, &ids, runtime_tools)?;
            Some(SessionApprovalSettings {
                auto_approved_tool_names: ids,
            })
        }
    };
    let mut next = state.clone();
    next.sessions[at].approval_settings = settings;
    Ok(next)
}
