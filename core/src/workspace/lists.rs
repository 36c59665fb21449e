//! Small list chores shared by the operations: cleaning tool-id lists, upserting by id, and
//! visiting every stored tool-id list.

use std::collections::HashSet;

use super::{ApprovalError, WorkspaceState};

/// The ids without blanks and without repeats, first occurrence kept. Ids are exact: no
/// trimming, so `" view"` stays unknown rather than silently becoming `view`.
pub(super) fn clean_ids(ids: Vec<String>) -> Vec<String> {
    let mut seen = HashSet::new();
    ids.into_iter()
        .filter(|id| !id.trim().is_empty() && seen.insert(id.clone()))
        .collect()
}

/// Replaces the item with the same id in place, or appends it.
pub(super) fn upsert<T>(items: &mut Vec<T>, item: T, id: impl Fn(&T) -> &str) {
    match items.iter().position(|i| id(i) == id(&item)) {
        Some(at) => items[at] = item,
        None => items.push(item),
    }
}

/// Rejects a blank id for `what`.
pub(super) fn require_id(what: &'static str, id: &str) -> Result<(), ApprovalError> {
    if id.trim().is_empty() {
        Err(ApprovalError::BlankId { what })
    } else {
        Ok(())
    }
}

/// Applies `f` to every stored tool-id list: each pattern's defaults and each session's
/// override.
pub(super) fn for_each_tool_list(state: &mut WorkspaceState, mut f: impl FnMut(&mut Vec<String>)) {
    let patterns = state
        .patterns
        .iter_mut()
        .filter_map(|p| p.approval_policy.auto_approved_tool_names.as_mut());
    patterns.for_each(&mut f);
    let sessions = state
        .sessions
        .iter_mut()
        .filter_map(|s| s.approval_settings.as_mut())
        .map(|o| &mut o.auto_approved_tool_names);
    sessions.for_each(f);
}
