//! The conservative built-in runtime tools, used until a runtime reports its own.

use serde_json::{Value, json};

use super::RuntimeTool;

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
            // `path`, or Claude Code's `file_path`: the policy requires one of them.
            object(
                &[],
                json!({"path": s, "file_path": s, "old_string": s, "new_string": s}),
            ),
        ),
        tool(
            "Write",
            "Create or overwrite a file.",
            object(&[], json!({"path": s, "file_path": s, "content": s})),
        ),
        tool(
            "web_fetch",
            "Fetch a URL.",
            object(&["url"], json!({"url": s})),
        ),
    ]
}
