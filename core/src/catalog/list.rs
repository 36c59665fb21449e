//! The canonical tool listing: runtime, MCP and LSP tools merged into one stable list.

use std::collections::HashMap;

use super::{RuntimeTool, ToolDefinition, ToolKind, builtin_runtime_tools};
use crate::workspace::Tooling;

/// The LSP operations every profile offers, in catalog order.
pub const LSP_OPERATIONS: [&str; 5] = [
    "workspace_symbols",
    "document_symbols",
    "definition",
    "hover",
    "references",
];

/// The labels of [`LSP_OPERATIONS`], index for index.
const OPERATION_LABELS: [&str; 5] = [
    "Workspace symbols",
    "Document symbols",
    "Definition",
    "Hover",
    "References",
];

/// The provider id of runtime tools (reported or built-in).
pub const RUNTIME_PROVIDER_ID: &str = "runtime";

/// The provider name of runtime tools.
pub const RUNTIME_PROVIDER_NAME: &str = "Runtime";

/// The runtime id of an LSP operation of a profile: `lsp_ts_hover` for `ts` and `hover`.
pub fn lsp_tool_id(profile_id: &str, operation: &str) -> String {
    format!("lsp_{profile_id}_{operation}")
}

/// The runtime's tools when they are known: a payload naming at least one tool. `None` and a
/// payload with no usable name both mean the runtime could not report its tools.
pub fn known_runtime_tools(runtime_tools: Option<&[RuntimeTool]>) -> Option<&[RuntimeTool]> {
    runtime_tools.filter(|tools| tools.iter().any(|t| !is_blank(&t.name)))
}

/// Every tool a workspace can auto-approve, one item per runtime id.
///
/// Runtime tools come from `runtime_tools` when the runtime reported them (see
/// [`known_runtime_tools`]), else from [`builtin_runtime_tools`]; MCP tools are the raw names
/// in each server's `tools`; each LSP profile offers `lsp_{profileId}_{operation}` for every
/// operation of [`LSP_OPERATIONS`]. Blank names and blank profile ids offer nothing.
///
/// The order is stable: runtime tools in the runtime's order, then MCP servers in their
/// configured order (each server's tools in its order), then LSP profiles in their configured
/// order (operations in [`LSP_OPERATIONS`] order). An id offered again joins the item where it
/// first appeared, adding its provider; when the offers differ in kind, the item becomes
/// [`ToolKind::Mixed`].
pub fn list_approval_tool_definitions(
    tooling: &Tooling,
    runtime_tools: Option<&[RuntimeTool]>,
) -> Vec<ToolDefinition> {
    let mut listing = Listing::default();
    let fallback;
    let runtime = match known_runtime_tools(runtime_tools) {
        Some(tools) => tools,
        None => {
            fallback = builtin_runtime_tools();
            &fallback
        }
    };
    let runtime_provider = (RUNTIME_PROVIDER_ID, RUNTIME_PROVIDER_NAME);
    for tool in runtime {
        let mut item = offer(
            &tool.name,
            tool.name.clone(),
            ToolKind::Builtin,
            runtime_provider,
        );
        item.description = tool.description.clone();
        item.input_schema = tool.input_schema.clone();
        listing.add(item);
    }
    for server in &tooling.mcp_servers {
        let provider = (server.id.as_str(), display_name(&server.name, &server.id));
        for name in &server.tools {
            listing.add(offer(name, name.clone(), ToolKind::Mcp, provider));
        }
    }
    for profile in tooling.lsp_profiles.iter().filter(|p| !is_blank(&p.id)) {
        let provider = (
            profile.id.as_str(),
            display_name(&profile.name, &profile.id),
        );
        for (operation, operation_label) in LSP_OPERATIONS.into_iter().zip(OPERATION_LABELS) {
            let label = format!("{}: {operation_label}", provider.1);
            let id = lsp_tool_id(&profile.id, operation);
            listing.add(offer(&id, label, ToolKind::Lsp, provider));
        }
    }
    listing.items
}

fn offer(id: &str, label: String, kind: ToolKind, (pid, pname): (&str, &str)) -> ToolDefinition {
    ToolDefinition {
        id: id.to_owned(),
        label,
        kind,
        provider_ids: vec![pid.to_owned()],
        provider_names: vec![pname.to_owned()],
        description: None,
        input_schema: None,
    }
}

#[derive(Default)]
struct Listing {
    items: Vec<ToolDefinition>,
    index: HashMap<String, usize>,
}

impl Listing {
    fn add(&mut self, offer: ToolDefinition) {
        if is_blank(&offer.id) {
            return;
        }
        let Some(&at) = self.index.get(&offer.id) else {
            self.index.insert(offer.id.clone(), self.items.len());
            self.items.push(offer);
            return;
        };
        let item = &mut self.items[at];
        if item.kind != offer.kind {
            item.kind = ToolKind::Mixed;
        }
        for (pid, pname) in offer.provider_ids.into_iter().zip(offer.provider_names) {
            if !item.provider_ids.contains(&pid) {
                item.provider_ids.push(pid);
                item.provider_names.push(pname);
            }
        }
        item.description = item.description.take().or(offer.description);
        item.input_schema = item.input_schema.take().or(offer.input_schema);
    }
}

fn display_name<'a>(name: &'a str, id: &'a str) -> &'a str {
    if is_blank(name) { id } else { name }
}

fn is_blank(s: &str) -> bool {
    s.trim().is_empty()
}
