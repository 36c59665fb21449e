//! Validation of tool ids against the catalog of the workspace's tooling.

use super::{ApprovalError, PolicyOwner, UnknownToolId, WorkspaceState};
use crate::catalog::{RuntimeTool, ToolCatalog};

/// Rejects the ids the catalog does not offer, naming each with its nearest known id.
///
/// While the runtime's tools are not known yet, ids the workspace already stores are
/// accepted too: they may be runtime tools the built-in catalog does not list, and they are
/// kept until the runtime reports its tools (then [`prune_stale_tool_ids`] settles them).
///
/// [`prune_stale_tool_ids`]: super::prune_stale_tool_ids
pub(super) fn check_tool_ids(
    state: &WorkspaceState,
    owner: PolicyOwner,
    ids: &[String],
    runtime_tools: Option<&[RuntimeTool]>,
) -> Result<(), ApprovalError> {
    let catalog = ToolCatalog::new(&state.settings.tooling, runtime_tools);
    let runtime_pending = catalog.runtime_tools().is_none();
    let known = |id: &str| catalog.contains(id) || (runtime_pending && state.references_tool(id));
    let unknown: Vec<UnknownToolId> = ids
        .iter()
        .filter(|id| !known(id))
        .map(|id| UnknownToolId {
            id: id.clone(),
            suggestion: catalog.suggest(id).map(str::to_owned),
        })
        .collect();
    if unknown.is_empty() {
        Ok(())
    } else {
        Err(ApprovalError::UnknownToolIds {
            owner,
            ids: unknown,
        })
    }
}
