//! Saving and deleting MCP servers and LSP profiles. Each change prunes the tool ids it no
//! longer provides from every pattern default and session override.

use std::collections::HashSet;

use super::lists::{clean_ids, for_each_tool_list, require_id, upsert};
use super::{ApprovalError, LspProfile, McpServer, Tooling, WorkspaceState};
use crate::catalog::{RuntimeTool, ToolCatalog};

/// The workspace with `server` saved (replacing the server with the same id, or added);
/// ids its old tool list offered and the new tooling no longer does are pruned. The
/// server's tool names are cleaned (blank names and repeats dropped).
///
/// # Errors
///
/// [`BlankId`](ApprovalError::BlankId) for a server without an id.
pub fn save_mcp_server(
    state: &WorkspaceState,
    mut server: McpServer,
    runtime_tools: Option<&[RuntimeTool]>,
) -> Result<WorkspaceState, ApprovalError> {
    server.tools = clean_ids(server.tools);
    save(state, server, runtime_tools)
}

/// The workspace without the MCP server; the ids only it provided are pruned.
///
/// # Errors
///
/// [`UnknownMcpServer`](ApprovalError::UnknownMcpServer) when no server has the id.
pub fn delete_mcp_server(
    state: &WorkspaceState,
    server_id: &str,
    runtime_tools: Option<&[RuntimeTool]>,
) -> Result<WorkspaceState, ApprovalError> {
    delete::<McpServer>(state, server_id, runtime_tools)
}

/// The workspace with `profile` saved (replacing the profile with the same id, or added).
///
/// # Errors
///
/// [`BlankId`](ApprovalError::BlankId) for a profile without an id.
pub fn save_lsp_profile(
    state: &WorkspaceState,
    profile: LspProfile,
    runtime_tools: Option<&[RuntimeTool]>,
) -> Result<WorkspaceState, ApprovalError> {
    save(state, profile, runtime_tools)
}

/// The workspace without the LSP profile; its `lsp_{id}_*` ids are pruned unless another
/// provider still offers them.
///
/// # Errors
///
/// [`UnknownLspProfile`](ApprovalError::UnknownLspProfile) when no profile has the id.
pub fn delete_lsp_profile(
    state: &WorkspaceState,
    profile_id: &str,
    runtime_tools: Option<&[RuntimeTool]>,
) -> Result<WorkspaceState, ApprovalError> {
    delete::<LspProfile>(state, profile_id, runtime_tools)
}

/// A tool provider the tooling keeps in a list by id.
trait Provider: Sized {
    /// What it is called in errors.
    const WHAT: &'static str;
    fn id(&self) -> &str;
    fn list(tooling: &mut Tooling) -> &mut Vec<Self>;
    fn not_found(id: &str) -> ApprovalError;
}

impl Provider for McpServer {
    const WHAT: &'static str = "MCP server";
    fn id(&self) -> &str {
        &self.id
    }
    fn list(tooling: &mut Tooling) -> &mut Vec<Self> {
        &mut tooling.mcp_servers
    }
    fn not_found(id: &str) -> ApprovalError {
        ApprovalError::UnknownMcpServer {
            server_id: id.to_owned(),
        }
    }
}

impl Provider for LspProfile {
    const WHAT: &'static str = "LSP profile";
    fn id(&self) -> &str {
        &self.id
    }
    fn list(tooling: &mut Tooling) -> &mut Vec<Self> {
        &mut tooling.lsp_profiles
    }
    fn not_found(id: &str) -> ApprovalError {
        ApprovalError::UnknownLspProfile {
            profile_id: id.to_owned(),
        }
    }
}

fn save<P: Provider>(
    state: &WorkspaceState,
    provider: P,
    runtime_tools: Option<&[RuntimeTool]>,
) -> Result<WorkspaceState, ApprovalError> {
    require_id(P::WHAT, provider.id())?;
    Ok(retool(state, runtime_tools, |t| {
        upsert(P::list(t), provider, P::id)
    }))
}

fn delete<P: Provider>(
    state: &WorkspaceState,
    id: &str,
    runtime_tools: Option<&[RuntimeTool]>,
) -> Result<WorkspaceState, ApprovalError> {
    let mut found = false;
    let next = retool(state, runtime_tools, |t| {
        let list = P::list(t);
        let before = list.len();
        list.retain(|p| p.id() != id);
        found = list.len() < before;
    });
    if found {
        Ok(next)
    } else {
        Err(P::not_found(id))
    }
}

/// Applies a tooling change and prunes exactly the ids the catalog offered before and no
/// longer offers. Ids the catalog never offered (runtime tools not reported yet) are left
/// for [`prune_stale_tool_ids`](super::prune_stale_tool_ids).
fn retool(
    state: &WorkspaceState,
    runtime_tools: Option<&[RuntimeTool]>,
    change: impl FnOnce(&mut Tooling),
) -> WorkspaceState {
    let before = ToolCatalog::new(&state.settings.tooling, runtime_tools);
    let mut next = state.clone();
    change(&mut next.settings.tooling);
    let after = ToolCatalog::new(&next.settings.tooling, runtime_tools);
    let gone: HashSet<&str> = before.ids().filter(|id| !after.contains(id)).collect();
    for_each_tool_list(&mut next, |ids| {
        ids.retain(|id| !gone.contains(id.as_str()))
    });
    next
}
