//! The tool catalog: the runtime tool identifiers that approvals, rules and the UI agree on.
//!
//! [`list_approval_tool_definitions`] is the one place tool ids are derived: runtime tools
//! by their names, MCP tools by their raw names, LSP tools as `lsp_{profileId}_{operation}`.
//! Validation, pruning, the rule evaluator and the UI all read its output.

mod builtin;
mod list;
mod suggest;

use serde::{Deserialize, Serialize};
use serde_json::Value;

pub use builtin::builtin_runtime_tools;
pub use list::{
    LSP_OPERATIONS, RUNTIME_PROVIDER_ID, RUNTIME_PROVIDER_NAME, known_runtime_tools,
    list_approval_tool_definitions, lsp_tool_id,
};

use crate::workspace::Tooling;

/// The shell tool's runtime id.
pub const SHELL_TOOL: &str = "Bash";

/// Whether a tool name is the shell tool or one of its accepted spellings: `bash`, `shell`,
/// and the shell tools of other agents (Cursor's `run_terminal_cmd`, Cline's
/// `execute_command`, Gemini CLI's `run_shell_command`, Codex's `local_shell` and
/// `exec_command`).
pub fn is_shell_tool(name: &str) -> bool {
    matches!(
        name,
        "Bash"
            | "bash"
            | "shell"
            | "Shell"
            | "run_terminal_cmd"
            | "execute_command"
            | "run_shell_command"
            | "local_shell"
            | "exec_command"
            | "shell_command"
    )
}

/// The command line of a shell tool's input: `command` as a string, or as an argument vector
/// (`["bash", "-lc", "ls"]`) quoted back into one line; `None` when it is neither.
pub fn shell_command(input: &serde_json::Value) -> Option<String> {
    match input.get("command")? {
        serde_json::Value::String(s) => Some(s.clone()),
        serde_json::Value::Array(items) => {
            let words: Option<Vec<&str>> = items.iter().map(serde_json::Value::as_str).collect();
            let words = words?;
            if words.is_empty() {
                return None;
            }
            Some(
                words
                    .iter()
                    .map(|w| format!("'{}'", w.replace('\'', "'\\''")))
                    .collect::<Vec<_>>()
                    .join(" "),
            )
        }
        _ => None,
    }
}

/// Where a tool comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum ToolKind {
    /// A runtime (built-in) tool.
    Builtin,
    /// A tool of a configured MCP server.
    Mcp,
    /// A tool derived from an LSP profile.
    Lsp,
    /// An id offered by more than one kind.
    Mixed,
}

/// One tool as the catalog lists it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolDefinition {
    /// The runtime tool identifier used by approvals.
    pub id: String,
    /// The label to show.
    pub label: String,
    /// Where it comes from.
    pub kind: ToolKind,
    /// The ids of the providers that offer it.
    #[serde(default)]
    pub provider_ids: Vec<String>,
    /// The names of the providers that offer it.
    #[serde(default)]
    pub provider_names: Vec<String>,
    /// A description, when the runtime gives one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The tool's input JSON schema, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input_schema: Option<Value>,
}

/// A runtime tool as the runtime reports it in its capability payload.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RuntimeTool {
    /// The tool's name, its runtime id.
    pub name: String,
    /// Its description.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Its input schema.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input_schema: Option<Value>,
}

/// The tools known to a workspace, in the stable order of [`list_approval_tool_definitions`].
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct ToolCatalog {
    /// The tools.
    pub tools: Vec<ToolDefinition>,
    /// The runtime's own tools the catalog was built from, once the runtime reported them;
    /// `None` while the conservative built-in catalog stands in. Pass it back to the workspace
    /// operations so they validate and prune against the same runtime.
    #[serde(skip)]
    pub runtime_tools: Option<Vec<RuntimeTool>>,
}

impl ToolCatalog {
    /// The catalog of a workspace's tooling plus the runtime's tools when known (`None`: the
    /// conservative built-in catalog stands in for them).
    pub fn new(tooling: &Tooling, runtime_tools: Option<&[RuntimeTool]>) -> Self {
        Self {
            tools: list_approval_tool_definitions(tooling, runtime_tools),
            runtime_tools: known_runtime_tools(runtime_tools).map(<[RuntimeTool]>::to_vec),
        }
    }

    /// A catalog of the conservative built-in runtime tools alone.
    pub fn builtin() -> Self {
        Self::new(&Tooling::default(), None)
    }

    /// The runtime's tools, when the runtime reported them.
    pub fn runtime_tools(&self) -> Option<&[RuntimeTool]> {
        self.runtime_tools.as_deref()
    }

    /// The tool with this id.
    pub fn get(&self, id: &str) -> Option<&ToolDefinition> {
        self.tools.iter().find(|t| t.id == id)
    }

    /// Whether the catalog knows this id.
    pub fn contains(&self, id: &str) -> bool {
        self.get(id).is_some()
    }

    /// The known ids, in catalog order.
    pub fn ids(&self) -> impl Iterator<Item = &str> {
        self.tools.iter().map(|t| t.id.as_str())
    }

    /// The known id nearest to an unknown one, when one is close enough to be a likely typo
    /// (`lsp_ts_hovr` → `lsp_ts_hover`).
    pub fn suggest(&self, unknown: &str) -> Option<&str> {
        suggest::nearest(unknown, self.ids())
    }
}
