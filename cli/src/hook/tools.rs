//! Agents' tool names and inputs mapped onto Warrant's runtime tool ids, so rules, grants and
//! auto-approved tool lists apply to every agent alike. A tool with no Warrant counterpart
//! (MCP tools, sub-agents, web search) keeps its name and input: it is decided as the tool it
//! is, never as a known one.

use std::path::Path;

use serde_json::{Map, Value, json};
use warrant_core::catalog::{SHELL_TOOL, is_shell_tool, names_shell_directory, shell_command};

/// A call as Warrant decides it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct MappedCall {
    /// The runtime tool id (`Bash`, `view`, `Edit`, or the agent's own name).
    pub tool: String,
    /// The input in Warrant's shape.
    pub input: Value,
}

/// The input fields that name the file a tool works on, as agents spell them.
const PATH_FIELDS: [&str; 5] = [
    "file_path",
    "absolute_path",
    "notebook_path",
    "dir_path",
    "path",
];

/// Maps an agent's tool call onto Warrant's ids and input shapes; a shell call that names no
/// directory of its own runs in `call_dir` when given (the agent's shell is elsewhere than
/// the project), which its input then names as `cwd`.
pub(crate) fn map(name: &str, input: &Value, call_dir: Option<&Path>) -> MappedCall {
    let keep = || MappedCall {
        tool: name.to_owned(),
        input: input.clone(),
    };
    if name.starts_with("mcp__") {
        return keep();
    }
    if is_shell_tool(name) {
        let mut input = shell_input(input);
        if let Some(dir) = call_dir
            && !names_shell_directory(&input)
            && let Some(object) = input.as_object_mut()
        {
            object.insert(
                "cwd".to_owned(),
                Value::String(dir.to_string_lossy().into_owned()),
            );
        }
        return MappedCall {
            tool: SHELL_TOOL.to_owned(),
            input,
        };
    }
    let id = match name {
        "Read" | "read_file" | "LS" | "list_directory" => "view",
        "Glob" | "glob" => "glob",
        "Grep" | "search_file_content" | "grep_search" => "grep",
        "Write" | "write_file" => "Write",
        "Edit" | "MultiEdit" | "NotebookEdit" | "replace" => "Edit",
        "WebFetch" | "web_fetch" => "web_fetch",
        "apply_patch" => return apply_patch(input).unwrap_or_else(keep),
        _ => return keep(),
    };
    MappedCall {
        tool: id.to_owned(),
        input: with_path(input),
    }
}

/// A shell call's input with its command under `command` (Codex's `exec_command` names it
/// `cmd`) as the agent gave it: a line stays a line, and an argument vector such as Codex's
/// `["bash", "-lc", "ls"]` stays a vector, so the policy knows the agent's runtime starts
/// that program itself (a line that reads the same, typed into a shell, is a shell the command
/// starts: `'bash' '-lc' …` reads the person's start-up files). Every other field stays as it
/// came: the directory it runs in (Codex's `workdir`, `cwd`, Gemini CLI's `dir_path`), which
/// the policy honours, and any field the policy does not model (`env`), on which it asks.
/// Without a readable command the input is kept as given, which the policy refuses as
/// invalid rather than guessing.
fn shell_input(input: &Value) -> Value {
    let mut input = input.clone();
    if shell_command(&input).is_some()
        && let Some(object) = input.as_object_mut()
        && !object.contains_key("command")
        && let Some(cmd) = object.remove("cmd")
    {
        object.insert("command".to_owned(), cmd);
    }
    input
}

/// The input with its path under `path` (the first of the agent's path fields), every other
/// field kept: a second path field (`absolute_path` beside `file_path`) stays under its own
/// name, where the policy judges it too, since the agent's tool may take either.
fn with_path(input: &Value) -> Value {
    let Some(object) = input.as_object() else {
        return input.clone();
    };
    let mut out = Map::new();
    // With a `path` of its own, nothing is renamed.
    let first = PATH_FIELDS
        .iter()
        .find(|f| object.contains_key(**f))
        .filter(|_| !object.contains_key("path"));
    if let Some(first) = first {
        out.insert("path".to_owned(), object[*first].clone());
    }
    for (key, value) in object {
        if first != Some(&key.as_str()) {
            out.insert(key.clone(), value.clone());
        }
    }
    Value::Object(out)
}

/// Codex's `apply_patch` (the patch in `command`) touching exactly one file: an `Edit` of
/// that file. A patch over several files stays `apply_patch`, and so does a patch that moves
/// its file (`*** Move to: <path>` names a second path the patch writes).
fn apply_patch(input: &Value) -> Option<MappedCall> {
    let patch = input.get("command").and_then(Value::as_str)?;
    let mut paths = patch.lines().filter_map(|line| {
        [
            "*** Update File: ",
            "*** Add File: ",
            "*** Delete File: ",
            "*** Move to: ",
        ]
        .iter()
        .find_map(|p| line.strip_prefix(p))
        .map(str::trim)
    });
    let first = paths.next()?;
    if paths.any(|p| p != first) || first.is_empty() {
        return None;
    }
    Some(MappedCall {
        tool: "Edit".to_owned(),
        input: json!({ "path": first, "patch": patch }),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shell_tools_of_every_agent_become_bash_with_their_command() {
        for name in ["Bash", "shell", "run_shell_command"] {
            let mapped = map(name, &json!({"command": "ls", "description": "list"}), None);
            assert_eq!(mapped.tool, "Bash");
            assert_eq!(
                mapped.input,
                json!({"command": "ls", "description": "list"})
            );
        }
    }

    #[test]
    fn a_shell_call_keeps_its_directory_and_every_field_the_policy_does_not_model() {
        // A directory of its own stands, wherever the agent's shell is.
        let mapped = map(
            "shell",
            &json!({"command": ["cat", "passwd"], "workdir": "/etc", "env": {"A": "1"}, "timeout_ms": 5}),
            Some(Path::new("/home/u")),
        );
        assert_eq!(
            mapped.input,
            json!({"command": ["cat", "passwd"], "workdir": "/etc", "env": {"A": "1"}, "timeout_ms": 5})
        );
        let mapped = map(
            "run_shell_command",
            &json!({"command": "ls", "dir_path": "sub dir"}),
            None,
        );
        assert_eq!(
            mapped.input,
            json!({"command": "ls", "dir_path": "sub dir"})
        );
        // None: the directory the agent's shell is in, when that is not the project.
        assert_eq!(
            map(
                "Bash",
                &json!({"command": "cat .bashrc"}),
                Some(Path::new("/home/u"))
            )
            .input,
            json!({"command": "cat .bashrc", "cwd": "/home/u"})
        );
        assert_eq!(
            map(
                "Bash",
                &json!({"command": "ls", "cwd": null}),
                Some(Path::new("/h"))
            )
            .input,
            json!({"command": "ls", "cwd": "/h"})
        );
        // No readable command: as given.
        let odd = json!({"command": 7, "cwd": "/"});
        assert_eq!(map("Bash", &odd, None).input, odd);
    }

    #[test]
    fn an_argument_vector_stays_one_and_a_line_stays_a_line() {
        // The runtime starts the vector's program itself: the policy reads that from the
        // input, never from a line that reads the same.
        let vector = json!({"command": ["bash", "-lc", "cargo test"]});
        let mapped = map("shell", &vector, None);
        assert_eq!(mapped.input, vector);
        assert!(warrant_core::catalog::shell_command_is_vector(
            &mapped.input
        ));
        let line = json!({"command": "'bash' '-lc' 'cargo test'"});
        let mapped = map("Bash", &line, None);
        assert_eq!(mapped.input, line);
        assert!(!warrant_core::catalog::shell_command_is_vector(
            &mapped.input
        ));
        // Codex's `exec_command` names its command `cmd`: read as `command`, and only once.
        assert_eq!(
            map(
                "exec_command",
                &json!({"cmd": ["ls"], "yield_time_ms": 5}),
                None
            )
            .input,
            json!({"command": ["ls"], "yield_time_ms": 5})
        );
        assert_eq!(
            map("exec_command", &json!({"cmd": "ls"}), None).input,
            json!({"command": "ls"})
        );
        // Both given: both kept, each judged.
        let both = json!({"command": "ls", "cmd": "rm -rf x"});
        assert_eq!(map("exec_command", &both, None).input, both);
    }

    #[test]
    fn a_second_path_field_is_kept_for_the_policy_to_judge() {
        let mapped = map(
            "read_file",
            &json!({"file_path": "src/main.rs", "absolute_path": "/home/u/.ssh/id_rsa"}),
            None,
        );
        assert_eq!(
            mapped.input,
            json!({"path": "src/main.rs", "absolute_path": "/home/u/.ssh/id_rsa"})
        );
        let both = json!({"file_path": "a", "path": "/home/u/.ssh/id_rsa"});
        assert_eq!(map("Read", &both, None).input, both);
    }

    #[test]
    fn readers_become_view_with_path() {
        let mapped = map("Read", &json!({"file_path": "/w/a.txt", "limit": 5}), None);
        assert_eq!(mapped.tool, "view");
        assert_eq!(mapped.input, json!({"path": "/w/a.txt", "limit": 5}));
        assert_eq!(
            map("read_file", &json!({"absolute_path": "/w/a"}), None).input,
            json!({"path": "/w/a"})
        );
    }

    #[test]
    fn mcp_and_unknown_tools_keep_their_name_and_input() {
        let input = json!({"path": "/etc/passwd"});
        assert_eq!(map("mcp__fs__view", &input, None).tool, "mcp__fs__view");
        assert_eq!(map("Task", &input, None).tool, "Task");
        assert_eq!(map("Task", &input, None).input, input);
    }

    #[test]
    fn a_one_file_patch_is_an_edit_and_a_patch_over_many_files_stays_apply_patch() {
        let one = "*** Begin Patch\n*** Update File: src/a.rs\n@@\n-a\n+b\n*** End Patch";
        let mapped = map("apply_patch", &json!({ "command": one }), None);
        assert_eq!(mapped.tool, "Edit");
        assert_eq!(mapped.input["path"], "src/a.rs");
        let two = "*** Begin Patch\n*** Add File: a\n+x\n*** Delete File: b\n*** End Patch";
        assert_eq!(
            map("apply_patch", &json!({ "command": two }), None).tool,
            "apply_patch"
        );
    }

    #[test]
    fn a_patch_that_moves_its_file_stays_apply_patch() {
        let moved = "*** Begin Patch\n*** Update File: src/a.rs\n*** Move to: ~/.bashrc\n@@\n-a\n+b\n*** End Patch";
        let mapped = map("apply_patch", &json!({ "command": moved }), None);
        assert_eq!(mapped.tool, "apply_patch");
        assert_eq!(mapped.input, json!({ "command": moved }));
        // A move onto the very same path is still one file.
        let same = "*** Begin Patch\n*** Update File: src/a.rs\n*** Move to: src/a.rs\n@@\n-a\n+b\n*** End Patch";
        assert_eq!(
            map("apply_patch", &json!({ "command": same }), None).tool,
            "Edit"
        );
    }
}
