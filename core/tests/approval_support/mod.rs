//! Fixtures and small builders shared by the approval and catalog tests.
#![allow(dead_code)]

use warrant_core::catalog::RuntimeTool;
use warrant_core::workspace::{
    SessionApprovalSettingsRequest, WorkspaceState, update_session_approval_settings,
};

/// The seed-shaped workspace: MCP server `git` (`git.status`, `git.diff`), LSP profile `ts`,
/// patterns `default` (tool-call on; `view`, `glob`) and `reviewed` (tool-call off;
/// `lsp_ts_hover`, `git.status`), sessions `inherits`, `empty-override` (`[]`),
/// `list-override` (`web_fetch`), scratchpad `pad` and running `busy`.
pub const SEED_WORKSPACE: &str =
    include_str!("../../../tests/fixtures/workspace/seed_workspace.json");

/// A stored workspace in need of repair: no default pattern, repeated and blank ids, an
/// orphaned session, a scratchpad with an override, a dynamic runtime id `task` and a stale
/// id `gone.tool`.
pub const NEEDS_REPAIR: &str = include_str!("../../../tests/fixtures/workspace/needs_repair.json");

/// The seed-shaped workspace.
pub fn seed_workspace() -> WorkspaceState {
    serde_json::from_str(SEED_WORKSPACE).expect("seed workspace fixture parses")
}

/// The workspace in need of repair, as stored.
pub fn needs_repair() -> WorkspaceState {
    serde_json::from_str(NEEDS_REPAIR).expect("repair fixture parses")
}

/// Owned ids.
pub fn ids(ids: &[&str]) -> Vec<String> {
    ids.iter().map(|id| (*id).to_owned()).collect()
}

/// A runtime capability payload naming these tools.
pub fn runtime_tools(names: &[&str]) -> Vec<RuntimeTool> {
    names
        .iter()
        .map(|name| RuntimeTool {
            name: (*name).to_owned(),
            description: Some(format!("The {name} tool.")),
            input_schema: None,
        })
        .collect()
}

/// The effective auto-approved list of a session.
pub fn effective(state: &WorkspaceState, session_id: &str) -> Vec<String> {
    state.effective_policy(session_id).auto_approved_tool_names
}

/// The session's stored override.
pub fn override_of(state: &WorkspaceState, session_id: &str) -> Option<Vec<String>> {
    let session = state.session(session_id).expect("session exists");
    session
        .approval_settings
        .as_ref()
        .map(|o| o.auto_approved_tool_names.clone())
}

/// The pattern's stored defaults.
pub fn defaults_of(state: &WorkspaceState, pattern_id: &str) -> Option<Vec<String>> {
    let pattern = state.pattern(pattern_id).expect("pattern exists");
    pattern.approval_policy.auto_approved_tool_names.clone()
}

/// Sets a session's override (`None` clears) with the built-in runtime catalog, expecting
/// success.
pub fn with_override(
    state: &WorkspaceState,
    session_id: &str,
    list: Option<&[&str]>,
) -> WorkspaceState {
    let request = SessionApprovalSettingsRequest::new(session_id, list.map(ids));
    update_session_approval_settings(state, &request, None).expect("update accepted")
}
