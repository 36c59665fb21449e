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

/// Whether a tool that is not one of the shell tool's accepted spellings ([`is_shell_tool`])
/// may still run shell commands: a spelling a runtime may fold into one of them (`BASH`,
/// `Bash ` , full-width letters, invisible characters), an MCP tool whose own name is one
/// (`mcp__x__bash`), or any tool whose name says it runs commands (`shell`, `bash`, `exec`,
/// `command`, `terminal`, `run`, …). Such a tool is never known to run only what its input
/// says, so it is never allowed by what the command looks like; what the command would do is
/// still judged.
pub fn may_be_shell_tool(name: &str) -> bool {
    if is_shell_tool(name) {
        return false;
    }
    let folded = fold_tool_name(name);
    let own = folded
        .strip_prefix("mcp__")
        .and_then(|rest| rest.split_once("__"))
        .map_or(folded.as_str(), |(_, own)| own);
    if [folded.as_str(), own]
        .iter()
        .any(|n| SHELL_SPELLINGS.contains(n))
    {
        return true;
    }
    const WORDS: &[&str] = &[
        "shell",
        "bash",
        "sh",
        "zsh",
        "fish",
        "pwsh",
        "powershell",
        "cmd",
        "command",
        "commands",
        "exec",
        "execute",
        "terminal",
        "run",
        "spawn",
        "subprocess",
        "console",
    ];
    tool_words(name).iter().any(|w| WORDS.contains(&w.as_str()))
}

/// The shell tool's accepted spellings, folded ([`fold_tool_name`]).
const SHELL_SPELLINGS: &[&str] = &[
    "bash",
    "shell",
    "run_terminal_cmd",
    "execute_command",
    "run_shell_command",
    "local_shell",
    "exec_command",
    "shell_command",
];

/// A tool name as a runtime that normalizes names may read it: full-width forms as ASCII,
/// white space and invisible characters removed, letters in lower case.
fn fold_tool_name(name: &str) -> String {
    name.chars()
        .filter_map(|c| {
            let c = match c as u32 {
                // Full-width ASCII (`ＢＡＳＨ`).
                0xFF01..=0xFF5E => char::from_u32(c as u32 - 0xFEE0).unwrap_or(c),
                _ => c,
            };
            let invisible = c.is_whitespace()
                || c.is_control()
                || matches!(c as u32, 0x200B..=0x200F | 0x2060..=0x2064 | 0xFEFF | 0x00AD);
            (!invisible).then(|| c.to_lowercase().next().unwrap_or(c))
        })
        .collect()
}

/// The words of a tool name, folded: split at anything but letters and digits and where a
/// lower-case letter meets an upper-case one (`runCommand` → `run`, `command`).
fn tool_words(name: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut current = String::new();
    let mut prev_lower = false;
    for c in name.chars() {
        let c = match c as u32 {
            0xFF01..=0xFF5E => char::from_u32(c as u32 - 0xFEE0).unwrap_or(c),
            _ => c,
        };
        if !c.is_alphanumeric() {
            if !current.is_empty() {
                words.push(std::mem::take(&mut current));
            }
            prev_lower = false;
            continue;
        }
        if c.is_uppercase() && prev_lower && !current.is_empty() {
            words.push(std::mem::take(&mut current));
        }
        prev_lower = c.is_lowercase() || c.is_ascii_digit();
        current.extend(c.to_lowercase());
    }
    if !current.is_empty() {
        words.push(current);
    }
    words
}

/// Input fields of shell tools that name the directory the command runs in (Codex's
/// `workdir`, `cwd`, Gemini CLI's `dir_path`, `directory`): the policy honours them.
pub const SHELL_DIRECTORY_FIELDS: &[&str] = &["workdir", "cwd", "directory", "dir_path"];

/// Whether a shell tool's input names the directory its command runs in (any of
/// [`SHELL_DIRECTORY_FIELDS`], not null).
pub fn names_shell_directory(input: &serde_json::Value) -> bool {
    SHELL_DIRECTORY_FIELDS
        .iter()
        .any(|f| input.get(*f).is_some_and(|v| !v.is_null()))
}

/// The command line of a shell tool's input: `command` (else `cmd`, as Codex's
/// `exec_command` names it) as a string, or as an argument vector (`["bash", "-lc", "ls"]`)
/// quoted back into one line; `None` when it is neither. Every evaluator reads the command
/// through this one function, so none judges another text than the others.
pub fn shell_command(input: &serde_json::Value) -> Option<String> {
    shell_command_text(input).map(std::borrow::Cow::into_owned)
}

/// [`shell_command`], borrowing the command when the input spells it as one string.
pub fn shell_command_text(input: &serde_json::Value) -> Option<std::borrow::Cow<'_, str>> {
    match input.get("command").or_else(|| input.get("cmd"))? {
        serde_json::Value::String(s) => Some(std::borrow::Cow::Borrowed(s)),
        serde_json::Value::Array(items) => {
            let words: Option<Vec<&str>> = items.iter().map(serde_json::Value::as_str).collect();
            let words = words?;
            if words.is_empty() {
                return None;
            }
            Some(std::borrow::Cow::Owned(
                words
                    .iter()
                    .map(|w| format!("'{}'", w.replace('\'', "'\\''")))
                    .collect::<Vec<_>>()
                    .join(" "),
            ))
        }
        _ => None,
    }
}

/// Whether a shell tool's input gives its command (`command`, else `cmd`) as an argument
/// vector (`["bash", "-lc", "ls"]`) that [`shell_command`] quotes back into a line: the
/// runtime starts that program with those arguments, no shell reads a line first. Only the
/// input tells it: the same line given as a string (`'bash' '-lc' 'ls'`) is one the runtime's
/// own shell reads, so whatever the line starts is the command's doing, not the runtime's.
pub fn shell_command_is_vector(input: &serde_json::Value) -> bool {
    match input.get("command").or_else(|| input.get("cmd")) {
        Some(serde_json::Value::Array(items)) => {
            !items.is_empty() && items.iter().all(serde_json::Value::is_string)
        }
        _ => false,
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
///
/// [`ToolCatalog::get`] finds a tool through an index by id, built on first use. `tools` stays
/// a public list: the index serves only while the list's length and buffer are those it was
/// built from, and every position it gives is checked against the id asked for, so an id it
/// does not know (or a list edited since) is looked up in the list itself.
#[derive(Default, Serialize, Deserialize)]
pub struct ToolCatalog {
    /// The tools.
    pub tools: Vec<ToolDefinition>,
    /// The runtime's own tools the catalog was built from, once the runtime reported them;
    /// `None` while the conservative built-in catalog stands in. Pass it back to the workspace
    /// operations so they validate and prune against the same runtime.
    #[serde(skip)]
    pub runtime_tools: Option<Vec<RuntimeTool>>,
    /// The position of each id in `tools` (its first), built on first lookup.
    #[serde(skip)]
    index: std::sync::OnceLock<ToolIndex>,
}

/// The positions of a catalog's ids, and the list they were taken from (its length and
/// buffer), so that a list changed since is noticed.
struct ToolIndex {
    len: usize,
    buffer: usize,
    positions: std::collections::HashMap<String, usize>,
}

impl ToolIndex {
    fn of(tools: &[ToolDefinition]) -> Self {
        let mut positions = std::collections::HashMap::with_capacity(tools.len());
        for (i, t) in tools.iter().enumerate() {
            positions.entry(t.id.clone()).or_insert(i);
        }
        Self {
            len: tools.len(),
            buffer: tools.as_ptr() as usize,
            positions,
        }
    }

    /// Whether this index was taken from `tools` as they are (same length, same buffer).
    fn describes(&self, tools: &[ToolDefinition]) -> bool {
        self.len == tools.len() && self.buffer == tools.as_ptr() as usize
    }
}

impl Clone for ToolCatalog {
    fn clone(&self) -> Self {
        // The copy has a buffer of its own: its index is built anew when first needed.
        Self {
            tools: self.tools.clone(),
            runtime_tools: self.runtime_tools.clone(),
            index: std::sync::OnceLock::new(),
        }
    }
}

impl PartialEq for ToolCatalog {
    fn eq(&self, other: &Self) -> bool {
        self.tools == other.tools && self.runtime_tools == other.runtime_tools
    }
}

impl std::fmt::Debug for ToolCatalog {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ToolCatalog")
            .field("tools", &self.tools)
            .field("runtime_tools", &self.runtime_tools)
            .finish()
    }
}

impl ToolCatalog {
    /// The catalog of a workspace's tooling plus the runtime's tools when known (`None`: the
    /// conservative built-in catalog stands in for them).
    pub fn new(tooling: &Tooling, runtime_tools: Option<&[RuntimeTool]>) -> Self {
        Self {
            tools: list_approval_tool_definitions(tooling, runtime_tools),
            runtime_tools: known_runtime_tools(runtime_tools).map(<[RuntimeTool]>::to_vec),
            index: std::sync::OnceLock::new(),
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

    /// The tool with this id (ids are unique in a catalog built by [`ToolCatalog::new`]).
    pub fn get(&self, id: &str) -> Option<&ToolDefinition> {
        let index = self.index.get_or_init(|| ToolIndex::of(&self.tools));
        if index.describes(&self.tools)
            && let Some(&at) = index.positions.get(id)
            && let Some(tool) = self.tools.get(at)
            && tool.id == id
        {
            return Some(tool);
        }
        // An id the index does not know, or a list changed since: an id renamed in place
        // keeps the length and the buffer, so only the list itself can say it is absent.
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

#[cfg(test)]
mod index_tests {
    use super::*;

    fn tool(id: &str) -> ToolDefinition {
        ToolDefinition {
            id: id.to_owned(),
            label: id.to_owned(),
            kind: ToolKind::Builtin,
            provider_ids: Vec::new(),
            provider_names: Vec::new(),
            description: None,
            input_schema: None,
        }
    }

    #[test]
    fn lookups_by_id_follow_the_list_as_it_is_edited() {
        let mut catalog = ToolCatalog::builtin();
        let first = catalog.tools[0].id.clone();
        assert_eq!(catalog.get(&first).map(|t| &t.id), Some(&first));
        assert!(catalog.get("no_such_tool").is_none());
        // Pushed after the index was built: found in the list.
        catalog.tools.push(tool("added_later"));
        assert!(catalog.contains("added_later"));
        // Renamed in place (same length and buffer): the old id is gone, the new one found.
        let last = catalog.tools.len() - 1;
        catalog.tools.reserve(0);
        catalog.tools[last].id = "renamed".to_owned();
        assert!(catalog.get("added_later").is_none());
        assert_eq!(
            catalog.get("renamed").map(|t| t.id.as_str()),
            Some("renamed")
        );
        catalog.tools[0].id = "renamed_first".to_owned();
        assert!(catalog.get(&first).is_none(), "a stale position is checked");
        let copy = catalog.clone();
        assert_eq!(copy, catalog);
        assert!(copy.contains("renamed_first") && copy.contains("renamed"));
    }
}

#[cfg(test)]
mod shell_input_tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn only_an_argument_vector_in_the_input_is_one() {
        let vector = json!({"command": ["bash", "-lc", "ls"]});
        assert!(shell_command_is_vector(&vector));
        assert_eq!(shell_command(&vector).as_deref(), Some("'bash' '-lc' 'ls'"));
        assert!(shell_command_is_vector(&json!({"cmd": ["ls"]})));
        // The same line typed as a string is read by the runtime's shell: not a vector.
        for line in [
            json!({"command": "'bash' '-lc' 'ls'"}),
            json!({"command": "bash -lc ls"}),
            json!({"cmd": "'bash' '-lc' 'ls'"}),
            json!({"command": []}),
            json!({"command": ["bash", 7]}),
            // `command` is read before `cmd`, as `shell_command` reads it.
            json!({"command": "'ls'", "cmd": ["ls"]}),
            json!({}),
        ] {
            assert!(!shell_command_is_vector(&line), "{line}");
        }
    }
}
