//! The tool catalog: the runtime tool identifiers that approvals, rules and the UI agree on.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

/// The shell tool's runtime id.
pub const SHELL_TOOL: &str = "Bash";

/// Whether a tool name is the shell tool or one of its accepted spellings (`bash`, `shell`).
pub fn is_shell_tool(name: &str) -> bool {
    matches!(name, "Bash" | "bash" | "shell" | "Shell")
}

/// Where a tool comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
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

/// The tools known to a workspace, in a stable order.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct ToolCatalog {
    /// The tools.
    pub tools: Vec<ToolDefinition>,
}

impl ToolCatalog {
    /// A catalog of the conservative built-in runtime tools.
    pub fn builtin() -> Self {
        Self {
            tools: builtin_runtime_tools()
                .into_iter()
                .map(|t| ToolDefinition {
                    label: t.name.clone(),
                    id: t.name,
                    kind: ToolKind::Builtin,
                    provider_ids: vec!["runtime".to_owned()],
                    provider_names: vec!["Runtime".to_owned()],
                    description: t.description,
                    input_schema: t.input_schema,
                })
                .collect(),
        }
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
}

fn tool(name: &str, description: &str, schema: Value) -> RuntimeTool {
    RuntimeTool {
        name: name.to_owned(),
        description: Some(description.to_owned()),
        input_schema: Some(schema),
    }
}

fn object(required: &[&str], properties: Value) -> Value {
    json!({"type": "object", "required": required, "properties": properties})
}

/// The conservative built-in runtime tools, used until a runtime reports its own.
pub fn builtin_runtime_tools() -> Vec<RuntimeTool> {
    let s = json!({"type": "string"});
    vec![
        tool(
            "Bash",
            "Run a shell command in the workspace.",
            object(
                &["command"],
                json!({"command": s, "timeout": {"type": "integer"}}),
            ),
        ),
        tool(
            "view",
            "Read a file or list a directory.",
            object(&["path"], json!({"path": s})),
        ),
        tool(
            "glob",
            "Find files by glob pattern.",
            object(&["pattern"], json!({"pattern": s, "path": s})),
        ),
        tool(
            "grep",
            "Search file contents.",
            object(&["pattern"], json!({"pattern": s, "path": s})),
        ),
        tool(
            "Edit",
            "Replace text in a file.",
            object(
                &["path"],
                json!({"path": s, "old_string": s, "new_string": s}),
            ),
        ),
        tool(
            "Write",
            "Create or overwrite a file.",
            object(&["path"], json!({"path": s, "content": s})),
        ),
        tool(
            "web_fetch",
            "Fetch a URL.",
            object(&["url"], json!({"url": s})),
        ),
    ]
}
