//! File tools: read-only tools (view, glob, grep, LSP queries) and file writers (Edit, Write),
//! judged by where their paths resolve.

use serde_json::Value;
use warrant_core::catalog::{ToolCatalog, ToolKind};
use warrant_core::decision::Risk;
use warrant_core::evaluator::Stance;

use super::codes::{
    FILESYSTEM_OUTSIDE_WORKSPACE, FILESYSTEM_SENSITIVE_PATH, FILESYSTEM_SYSTEM_PATH,
    FILESYSTEM_WRITE_INSIDE_WORKSPACE, READ_ONLY_TOOL, VALIDATION_INVALID_INPUT,
};
use super::finding::{Finding, most_restrictive};
use crate::paths::{Place, Places};
use crate::shell::WorkingDir;

/// Tools that only read files.
const READ_TOOLS: &[&str] = &[
    "view",
    "Read",
    "read",
    "glob",
    "Glob",
    "grep",
    "Grep",
    "LS",
    "NotebookRead",
];

/// Tools that create or change files.
const WRITE_TOOLS: &[&str] = &[
    "Edit",
    "Write",
    "edit",
    "create",
    "write",
    "MultiEdit",
    "NotebookEdit",
];

/// The operations of LSP tools (`lsp_{profile}_{operation}`): all queries.
pub(crate) const LSP_OPERATIONS: &[&str] = &[
    "workspace_symbols",
    "document_symbols",
    "definition",
    "hover",
    "references",
];

/// Input fields that name a path.
const PATH_FIELDS: &[&str] = &[
    "path",
    "file_path",
    "filePath",
    "file",
    "uri",
    "notebook_path",
];

/// How a tool touches files.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Access {
    /// It only reads.
    Read,
    /// It creates or changes files.
    Write,
}

/// How `tool` touches files, if it is a file tool.
pub(crate) fn access(tool: &str, catalog: &ToolCatalog) -> Option<Access> {
    if READ_TOOLS.contains(&tool) || is_lsp_query(tool, catalog) {
        Some(Access::Read)
    } else if WRITE_TOOLS.contains(&tool) {
        Some(Access::Write)
    } else {
        None
    }
}

fn is_lsp_query(tool: &str, catalog: &ToolCatalog) -> bool {
    let derived = tool.strip_prefix("lsp_").is_some_and(|rest| {
        LSP_OPERATIONS
            .iter()
            .any(|op| rest.ends_with(&format!("_{op}")))
    });
    derived || catalog.get(tool).is_some_and(|t| t.kind == ToolKind::Lsp)
}

/// The paths a call names (a `file://` URI counts as its path).
pub(crate) fn paths(input: &Value) -> Vec<&str> {
    PATH_FIELDS
        .iter()
        .filter_map(|f| input.get(*f).and_then(Value::as_str))
        .map(|p| p.strip_prefix("file://").unwrap_or(p))
        .collect()
}

/// Judges a file tool's call; `None` when `tool` is not a file tool.
pub(crate) fn judge(
    tool: &str,
    input: &Value,
    catalog: &ToolCatalog,
    places: &Places<'_>,
) -> Option<Finding> {
    let access = access(tool, catalog)?;
    let mut named: Vec<String> = paths(input).into_iter().map(str::to_owned).collect();
    // A glob pattern reaches as far as its literal directory (`../**`, `/etc/*`).
    if matches!(tool, "glob" | "Glob")
        && let Some(pattern) = input.get("pattern").and_then(Value::as_str)
    {
        named.push(literal_base(pattern));
    }
    if access == Access::Write && named.is_empty() {
        let reason = format!("Invalid input for \"{tool}\": field \"path\" is required.");
        return Some(Finding::new(
            Stance::HardDeny,
            VALIDATION_INVALID_INPUT,
            Risk::High,
            reason,
        ));
    }
    let decided = most_restrictive(named.iter().filter_map(|p| place(tool, p, access, places)));
    // Only reads inside the workspace are left; a write always has a finding of its own.
    if decided.is_some() || access == Access::Write {
        return decided;
    }
    let reason = match named.first() {
        Some(p) => format!("`{tool}` only reads `{p}`, inside the workspace."),
        None => format!("`{tool}` only reads the workspace."),
    };
    Some(Finding::new(
        Stance::PolicyAllow,
        READ_ONLY_TOOL,
        Risk::Safe,
        reason,
    ))
}

fn place(tool: &str, raw: &str, access: Access, places: &Places<'_>) -> Option<Finding> {
    let located = places.locate(raw, &WorkingDir::Root);
    let f = |stance, code, risk, reason: String| Some(Finding::new(stance, code, risk, reason));
    match (located.place, access) {
        (Place::Sensitive(what), _) => f(
            Stance::HardDeny,
            FILESYSTEM_SENSITIVE_PATH,
            Risk::Critical,
            format!("`{tool}` touches `{raw}`, {what}."),
        ),
        (Place::System | Place::Device, Access::Write) => f(
            Stance::HardDeny,
            FILESYSTEM_SYSTEM_PATH,
            Risk::Critical,
            format!("`{tool}` would write `{raw}`, part of the operating system or a device."),
        ),
        (Place::Inside, Access::Write) => f(
            Stance::DefaultAsk,
            FILESYSTEM_WRITE_INSIDE_WORKSPACE,
            Risk::Low,
            format!("`{tool}` writes `{raw}` inside the workspace."),
        ),
        (Place::Inside | Place::HarmlessDevice, Access::Read) => None,
        (_, access) => {
            let (verb, risk) = match access {
                Access::Read => ("reads", Risk::Medium),
                Access::Write => ("writes", Risk::High),
            };
            f(
                Stance::DefaultAsk,
                FILESYSTEM_OUTSIDE_WORKSPACE,
                risk,
                format!("`{tool}` {verb} `{raw}`, outside the workspace."),
            )
        }
    }
}

/// The literal directory a glob pattern starts from.
fn literal_base(pattern: &str) -> String {
    let parts: Vec<&str> = pattern
        .split('/')
        .take_while(|p| !p.contains(['*', '?', '[', '{']))
        .collect();
    match parts.join("/") {
        s if s.is_empty() && pattern.starts_with('/') => "/".to_owned(),
        s if s.is_empty() => ".".to_owned(),
        s => s,
    }
}
