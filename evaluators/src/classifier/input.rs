//! How the embedded reviewer reads a tool's input before it allows the call for what the
//! policy found there (a file edit inside the workspace): a tool is allowed by its name only
//! when the reviewer reads all of its input. Every field must be one the file tool's model
//! knows, every value of the shape that field takes (a nested object the reviewer does not
//! walk may hold a place of its own), the tool must be the runtime's own or the filesystem
//! server's (another server's tool of the same name may do anything), and every path it names
//! must lie inside the workspace and be no secret.

use serde_json::Value;
use warrant_core::catalog::{ToolCatalog, ToolKind};

use crate::paths::{Place, Places};
use crate::policy::filesystem;
use crate::shell::WorkingDir;

/// The commands of the text editor tool (`str_replace_based_edit_tool`, `str_replace_editor`).
const EDITOR_COMMANDS: &[&str] = &["view", "create", "str_replace", "insert", "undo_edit"];

/// The keys of one entry of an `edits` list besides path fields: the text replaced and how
/// (Claude Code's `MultiEdit`, the MCP filesystem server's `edit_file`).
const EDIT_KEYS: &[&str] = &[
    "old_string",
    "new_string",
    "replace_all",
    "oldText",
    "newText",
];

/// Whether a value is one scalar (text, a number, a flag, nothing).
fn scalar(v: &Value) -> bool {
    !matches!(v, Value::Array(_) | Value::Object(_))
}

/// Why the reviewer cannot read all of the input of `tool`, if it cannot: then the call is
/// never allowed by the tool's name.
pub(super) fn unread(
    tool: &str,
    input: &Value,
    catalog: &ToolCatalog,
    places: &Places<'_>,
) -> Option<String> {
    let Some(access) = filesystem::access_of(tool, input, catalog) else {
        return Some(format!("`{tool}` is not a file tool whose input it reads"));
    };
    // A name the runtime's tools share with an MCP server's: the server's tool is its own.
    if !tool.starts_with("mcp__")
        && catalog
            .get(tool)
            .is_some_and(|t| !matches!(t.kind, ToolKind::Builtin | ToolKind::Lsp))
    {
        return Some(format!(
            "`{tool}` is offered by an MCP server, whose tool of that name may do anything"
        ));
    }
    let Value::Object(map) = input else {
        return Some("the input is not an object".to_owned());
    };
    if !filesystem::modeled_input(tool, input, catalog) {
        return Some("the input has a field, or a path of a shape, it does not read".to_owned());
    }
    let editor = matches!(tool, "str_replace_based_edit_tool" | "str_replace_editor");
    for (key, value) in map {
        let understood = match key.as_str() {
            // Their shapes are the policy's to check (a path, a list of paths).
            k if filesystem::is_path_field(k) => true,
            "position" => true,
            "command" if editor => value.as_str().is_some_and(|c| EDITOR_COMMANDS.contains(&c)),
            "edits" => value.as_array().is_some_and(|edits| {
                edits.iter().all(|e| {
                    e.as_object().is_some_and(|e| {
                        e.iter().all(|(k, v)| {
                            (EDIT_KEYS.contains(&k.as_str()) && scalar(v))
                                || (filesystem::is_path_field(k) && v.is_string())
                        })
                    })
                })
            }),
            // A writer's lists are numbers (`view_range`); a reader's may be names too
            // (`ignore`, `excludePatterns`).
            _ => match value {
                Value::Array(items) => {
                    items.iter().all(Value::is_number)
                        || (access == filesystem::Access::Read && items.iter().all(scalar))
                }
                other => scalar(other),
            },
        };
        if !understood {
            return Some(format!("its field `{key}` holds what it does not read"));
        }
    }
    let mut named: Vec<String> = filesystem::paths(input);
    let mut nested = Vec::new();
    filesystem::nested_names(input, None, true, 0, &mut nested);
    named.extend(nested.into_iter().map(str::to_owned));
    for path in &named {
        if path == filesystem::UNREAD_NAME {
            return Some("it names a file it cannot read the name of".to_owned());
        }
        match places.locate(path, &WorkingDir::Root).place {
            Place::Inside => {}
            Place::Sensitive(what) => return Some(format!("`{path}` is {what}")),
            _ => return Some(format!("`{path}` is not a path inside the workspace")),
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use serde_json::json;
    use warrant_core::catalog::ToolCatalog;

    use super::unread;

    fn workspace() -> tempfile::TempDir {
        let dir = tempfile::tempdir().expect("dir");
        std::fs::create_dir_all(dir.path().join("src")).expect("src");
        std::fs::write(dir.path().join("src/main.rs"), "fn main() {}\n").expect("file");
        std::fs::write(dir.path().join(".env"), "TOKEN=x\n").expect("file");
        dir
    }

    #[test]
    fn only_inputs_read_in_full_are_read() {
        let ws = workspace();
        let sensitive = crate::paths::SensitivePaths::with_protected(&[], &[]).expect("globs");
        let places = crate::paths::Places::new(ws.path(), None, Some(&sensitive));
        let catalog = ToolCatalog::builtin();
        let check = |tool: &str, input: serde_json::Value| unread(tool, &input, &catalog, &places);
        for (tool, input) in [
            ("Write", json!({"file_path": "src/x.rs", "content": "x"})),
            (
                "Edit",
                json!({"file_path": "src/main.rs", "old_string": "a", "new_string": "b", "replace_all": true}),
            ),
            (
                "MultiEdit",
                json!({"file_path": "src/main.rs", "edits": [{"old_string": "a", "new_string": "b"}]}),
            ),
            (
                "mcp__fs__write_file",
                json!({"path": "src/x.rs", "content": "x"}),
            ),
            (
                "mcp__fs__edit_file",
                json!({"path": "src/main.rs", "edits": [{"oldText": "a", "newText": "b"}], "dryRun": false}),
            ),
            ("mcp__fs__read_file", json!({"path": "src/main.rs"})),
            (
                "str_replace_based_edit_tool",
                json!({"command": "create", "path": "src/x.rs", "file_text": "x"}),
            ),
        ] {
            assert_eq!(check(tool, input.clone()), None, "{tool} {input}");
        }
        for (tool, input) in [
            // Fields and values it does not read.
            (
                "mcp__fs__read_file",
                json!({"path": "src/main.rs", "path2": "/etc/passwd"}),
            ),
            (
                "mcp__fs__read_file",
                json!({"path": "src/main.rs", "follow": {"to": "/etc"}}),
            ),
            (
                "MultiEdit",
                json!({"file_path": "src/main.rs", "edits": [{"old_string": "a", "new_string": "b", "target": "/etc/passwd"}]}),
            ),
            (
                "MultiEdit",
                json!({"file_path": "src/main.rs", "edits": ["/etc/passwd"]}),
            ),
            (
                "mcp__fs__edit_file",
                json!({"path": "src/main.rs", "edits": [], "dryRun": {"x": "/etc"}}),
            ),
            (
                "write_file",
                json!({"path": "src/a.rs", "content": "x", "explanation": {"to": "~/.bashrc"}}),
            ),
            (
                "str_replace_based_edit_tool",
                json!({"command": "delete", "path": "src/x.rs"}),
            ),
            (
                "str_replace_based_edit_tool",
                json!({"command": ["create"], "path": "src/x.rs"}),
            ),
            // Paths outside the workspace or secrets.
            (
                "mcp__fs__read_file",
                json!({"uri": "file:///home/u/.ssh/id_rsa"}),
            ),
            (
                "mcp__fs__read_file",
                json!({"paths": ["src/main.rs", "../x"]}),
            ),
            ("Write", json!({"file_path": ".env", "content": "x"})),
            ("Write", json!({"file_path": "/tmp/x", "content": "x"})),
            // Not a file tool, or not an object.
            ("mcp__docs__read_file", json!({"path": "src/main.rs"})),
            ("Write", json!("src/x.rs")),
        ] {
            assert!(check(tool, input.clone()).is_some(), "{tool} {input}");
        }
    }
}
