//! Tools that are neither shells nor file tools but whose effect the policy can still prove:
//! the agent's own bookkeeping (a task list kept in the agent), and git servers' read-only
//! queries, judged as the git command they run.

use serde_json::Value;
use warrant_core::call::EvaluationContext;
use warrant_core::catalog::ToolKind;
use warrant_core::decision::Risk;
use warrant_core::evaluator::Stance;

use super::codes::READ_ONLY_TOOL;
use super::finding::Finding;
use crate::paths::Places;
use crate::shell::WorkingDir;

/// Runtime tools whose only effect is the agent's own task list (Claude Code, Codex, Gemini
/// CLI, Cursor, Copilot): they read and write no file, run nothing and reach no host.
const BOOKKEEPING_TOOLS: &[&str] = &[
    "TodoWrite",
    "TodoRead",
    "todo_write",
    "todo_read",
    "update_plan",
    "write_todos",
    "manage_todo_list",
];

/// The input fields the runtimes' bookkeeping tools take (`todos`, Cursor's `merge`, Codex's
/// `plan` and `explanation`, Copilot's `todoList` and `operation`): any other field is not
/// the task list's, and is not modeled.
const BOOKKEEPING_FIELDS: &[&str] = &[
    "todos",
    "merge",
    "plan",
    "explanation",
    "todoList",
    "operation",
];

/// Read-only queries of git tool servers (`git.status`, `git_diff_staged`), by the name
/// after `git.` or `git_`, and the git command each runs.
const GIT_QUERIES: &[(&str, &str)] = &[
    ("status", "git status"),
    ("diff", "git diff"),
    ("diff_unstaged", "git diff"),
    ("diff_staged", "git diff --cached"),
    ("log", "git log"),
];

/// What the policy finds about a bookkeeping tool or a git query, when `tool` is one; `None`
/// for any other tool, or a git query with an input field the policy does not model.
pub(crate) fn judge(
    tool: &str,
    input: &Value,
    cx: &EvaluationContext,
    places: &Places<'_>,
) -> Option<Finding> {
    // The same name offered by an MCP server is that server's tool, not the agent's own.
    let runtime = cx
        .catalog
        .get(tool)
        .is_none_or(|t| t.kind == ToolKind::Builtin);
    let known_fields = match input {
        Value::Object(m) => m.keys().all(|k| BOOKKEEPING_FIELDS.contains(&k.as_str())),
        Value::Null => true,
        _ => false,
    };
    if runtime && BOOKKEEPING_TOOLS.contains(&tool) && known_fields {
        return Some(Finding::new(
            Stance::PolicyAllow,
            READ_ONLY_TOOL,
            Risk::Safe,
            format!(
                "`{tool}` only updates the agent's own task list: it reads and writes no file, \
                 runs nothing and reaches no host."
            ),
        ));
    }
    git_query(tool, input, cx, places)
}

/// A git server's query, judged as the git command it runs in its repository (`repo_path`):
/// every check of that command applies (the repository's configuration, diff drivers, the
/// directory being inside the workspace). `None` (not modeled) unless the tool is the git
/// server's (`mcp__<git server>__git_*`, or a bare name the catalog says only a git server
/// offers), the input is an object of known fields, and `repo_path` is an absolute path
/// (the server resolves a relative one against its own directory, which need not be the
/// workspace, and expands `~` and variables).
fn git_query(
    tool: &str,
    input: &Value,
    cx: &EvaluationContext,
    places: &Places<'_>,
) -> Option<Finding> {
    // An MCP server's tool is the git server's query only when the server is the git server
    // (`mcp-server-git`): another server's `git_status` is its own tool, judged by nobody's
    // name (as the filesystem tools of other servers are).
    let name = match tool.strip_prefix("mcp__") {
        Some(rest) => match rest.split_once("__") {
            Some((server, name)) if git_server(server) => name,
            _ => return None,
        },
        None => {
            let served_by_git = cx.catalog.get(tool).is_some_and(|t| {
                t.kind == ToolKind::Mcp
                    && !t.provider_ids.is_empty()
                    && t.provider_ids.iter().all(|p| git_server(p))
            });
            if !served_by_git {
                return None;
            }
            tool
        }
    };
    let query = name
        .strip_prefix("git.")
        .or_else(|| name.strip_prefix("git_"))?;
    let (_, command) = GIT_QUERIES.iter().find(|(q, _)| *q == query)?;
    let mut command = (*command).to_owned();
    let mut start = None;
    for (key, value) in input.as_object()? {
        match (key.as_str(), value) {
            ("repo_path", Value::String(dir))
                if dir.starts_with('/') && !dir.contains(['~', '$', '%', '`']) =>
            {
                start = Some(WorkingDir::Dir(dir.clone()));
            }
            ("context_lines", Value::Number(n)) if command.starts_with("git diff") => {
                command.push_str(&format!(" -U{}", n.as_u64()?));
            }
            ("max_count", Value::Number(n)) if command == "git log" => {
                command.push_str(&format!(" -n {}", n.as_u64()?));
            }
            _ => return None,
        }
    }
    let start = start?;
    let (mut found, _) = super::shell::judge_command(cx, &command, false, places, &start);
    found.reason = format!("`{tool}` runs `{command}`: {}", found.reason);
    Some(found)
}

/// Whether an MCP server, by the name the user's configuration gives it, is the git server
/// (`mcp-server-git`): `git`, `server-git`, `git-server`, `mcp-git`, … (case, `-`, `_` and
/// `.` aside).
fn git_server(server: &str) -> bool {
    matches!(
        super::filesystem::server_name(server).as_str(),
        "git" | "servergit" | "gitserver" | "mcpgit" | "mcpservergit" | "gittools"
    )
}
