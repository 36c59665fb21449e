//! `savePattern` and `deletePattern`.

use super::lists::{clean_ids, require_id, upsert};
use super::validate::check_tool_ids;
use super::{
    ApprovalError, DEFAULT_PATTERN_ID, Pattern, PolicyOwner, SessionStatus, WorkspaceState,
};
use crate::catalog::RuntimeTool;
use crate::ids::SessionId;

/// The workspace with `pattern` saved: it replaces the pattern with the same id, or is
/// added. Its `autoApprovedToolNames` are cleaned (blank ids and repeats dropped) and checked
/// against the catalog; they may be kept while `tool-call` checkpoints are off, when they
/// have no effect at runtime.
///
/// # Errors
///
/// [`BlankId`](ApprovalError::BlankId) for a pattern without an id;
/// [`UnknownToolIds`](ApprovalError::UnknownToolIds) naming every id the catalog does not
/// offer.
pub fn save_pattern(
    state: &WorkspaceState,
    mut pattern: Pattern,
    runtime_tools: Option<&[RuntimeTool]>,
) -> Result<WorkspaceState, ApprovalError> {
    require_id("pattern", &pattern.id)?;
    let defaults = &mut pattern.approval_policy.auto_approved_tool_names;
    if let Some(ids) = defaults.take() {
        let ids = clean_ids(ids);
        check_tool_ids(
            state,
            PolicyOwner::Pattern(pattern.id.clone()),
            &ids,
            runtime_tools,
        )?;
        *defaults = Some(ids);
    }
    let mut next = state.clone();
    upsert(&mut next.patterns, pattern, |p| &p.id);
    Ok(next)
}

/// The workspace without the pattern; the idle sessions that used it move to the default
/// pattern (keeping their own overrides).
///
/// # Errors
///
/// [`DefaultPatternRequired`](ApprovalError::DefaultPatternRequired) for the default pattern;
/// [`UnknownPattern`](ApprovalError::UnknownPattern) when no pattern has the id;
/// [`PatternInUse`](ApprovalError::PatternInUse) when running sessions use it.
pub fn delete_pattern(
    state: &WorkspaceState,
    pattern_id: &str,
) -> Result<WorkspaceState, ApprovalError> {
    if pattern_id == DEFAULT_PATTERN_ID {
        return Err(ApprovalError::DefaultPatternRequired);
    }
    if state.pattern(pattern_id).is_none() {
        return Err(ApprovalError::UnknownPattern {
            pattern_id: pattern_id.to_owned(),
        });
    }
    let running: Vec<SessionId> = state
        .sessions
        .iter()
        .filter(|s| s.pattern_id == pattern_id && s.status == SessionStatus::Running)
        .map(|s| s.id.clone())
        .collect();
    if !running.is_empty() {
        return Err(ApprovalError::PatternInUse {
            pattern_id: pattern_id.to_owned(),
            session_ids: running,
        });
    }
    let mut next = state.clone();
    next.patterns.retain(|p| p.id != pattern_id);
    for session in next
        .sessions
        .iter_mut()
        .filter(|s| s.pattern_id == pattern_id)
    {
        session.pattern_id = DEFAULT_PATTERN_ID.to_owned();
    }
    Ok(next)
}
