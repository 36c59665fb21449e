//! Normalization on load, and pruning of stale tool ids once the runtime's tools are known.

use std::collections::HashSet;

use super::lists::{clean_ids, for_each_tool_list};
use super::{DEFAULT_PATTERN_ID, Pattern, SessionKind, WorkspaceState};
use crate::catalog::{RuntimeTool, ToolCatalog, known_runtime_tools};
use crate::store::{Store, StoreError};

/// The stored workspace, normalized by [`normalize_approval_state`]; the default workspace
/// when the store holds none.
///
/// # Errors
///
/// A [`StoreError`] when the store cannot be read.
pub async fn load_workspace(store: &dyn Store) -> Result<WorkspaceState, StoreError> {
    let state = store.load_workspace().await?.unwrap_or_default();
    Ok(normalize_approval_state(state))
}

/// The workspace with its approval state repaired, without consulting any catalog: tool-id
/// lists lose blank ids and repeats (first occurrence kept); the default pattern is added
/// when missing; sessions naming a missing pattern move to the default pattern; a
/// scratchpad's non-empty override becomes `[]` (auto-approve nothing, the conservative
/// repair). Unknown ids stay: they may be runtime tools the runtime has not reported yet.
pub fn normalize_approval_state(mut state: WorkspaceState) -> WorkspaceState {
    for_each_tool_list(&mut state, |ids| *ids = clean_ids(std::mem::take(ids)));
    if state.pattern(DEFAULT_PATTERN_ID).is_none() {
        state.patterns.insert(0, Pattern::default_pattern());
    }
    let pattern_ids: HashSet<String> = state.patterns.iter().map(|p| p.id.clone()).collect();
    for session in &mut state.sessions {
        if !pattern_ids.contains(&session.pattern_id) {
            session.pattern_id = DEFAULT_PATTERN_ID.to_owned();
        }
        if session.kind == SessionKind::Scratchpad
            && let Some(over) = &mut session.approval_settings
        {
            over.auto_approved_tool_names.clear();
        }
    }
    state
}

/// The normalized workspace without the tool ids the catalog no longer offers, now that the
/// runtime has reported `runtime_tools`. An empty report means the runtime could not list
/// its tools: nothing is pruned then, since stored runtime ids cannot be told from stale ones.
pub fn prune_stale_tool_ids(
    state: WorkspaceState,
    runtime_tools: &[RuntimeTool],
) -> WorkspaceState {
    let mut state = normalize_approval_state(state);
    let Some(runtime_tools) = known_runtime_tools(Some(runtime_tools)) else {
        return state;
    };
    let catalog = ToolCatalog::new(&state.settings.tooling, Some(runtime_tools));
    for_each_tool_list(&mut state, |ids| ids.retain(|id| catalog.contains(id)));
    state
}
