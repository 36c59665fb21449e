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
    // Other agents' readers: Gemini CLI, Cline, Cursor.
    "read_file",
    "list_directory",
    "list_dir",
    "list_files",
    "search_file_content",
    "grep_search",
    "file_search",
    // The MCP filesystem server's readers.
    "read_text_file",
    "read_media_file",
    "read_multiple_files",
    "list_directory_with_sizes",
    "directory_tree",
    "search_files",
    "get_file_info",
];

/// Tools that read every file of a tree (searches).
const SEARCH_TOOLS: &[&str] = &["grep", "Grep", "search_file_content", "grep_search"];

/// Tools that create or change files.
const WRITE_TOOLS: &[&str] = &[
    "Edit",
    "Write",
    "edit",
    "create",
    "write",
    "MultiEdit",
    "NotebookEdit",
    // Other agents' writers: Gemini CLI, Cline, Cursor, Codex, the text editor tool.
    "write_file",
    "create_file",
    "write_to_file",
    "replace",
    "replace_in_file",
    "edit_file",
    "search_replace",
    "apply_patch",
    "str_replace_based_edit_tool",
    "str_replace_editor",
    // The MCP filesystem server's writers.
    "create_directory",
    "move_file",
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
    "target_file",
    "absolute_path",
    "dir_path",
    "directory",
    // The MCP filesystem server's `move_file`.
    "source",
    "destination",
];

/// Input fields that hold a list of paths (`read_multiple_files`).
const PATH_LIST_FIELDS: &[&str] = &["paths", "file_paths", "files"];

/// A tool's own name: an MCP tool called by its qualified id (`mcp__fs__read_file`) is known
/// by the name its server gives it.
fn own_name(tool: &str) -> &str {
    tool.strip_prefix("mcp__")
        .and_then(|rest| rest.split_once("__"))
        .map_or(tool, |(_, name)| name)
}

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
    access_of(tool, &Value::Null, catalog)
}

/// How a call of `tool` with `input` touches files: the text editor tool reads with `view`.
pub(crate) fn access_of(tool: &str, input: &Value, catalog: &ToolCatalog) -> Option<Access> {
    if matches!(tool, "str_replace_based_edit_tool" | "str_replace_editor")
        && input.get("command").and_then(Value::as_str) == Some("view")
    {
        return Some(Access::Read);
    }
    let name = own_name(tool);
    if READ_TOOLS.contains(&name) || is_lsp_query(tool, catalog) {
        Some(Access::Read)
    } else if WRITE_TOOLS.contains(&name) {
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

/// Whether `tool` searches every file of a tree.
pub(crate) fn is_search(tool: &str) -> bool {
    SEARCH_TOOLS.contains(&tool)
}

/// The directory a glob tool's pattern reaches (`src` for `src/**/*.rs`), when `tool` is one.
pub(crate) fn glob_base(tool: &str, input: &Value) -> Option<String> {
    if !matches!(tool, "glob" | "Glob") {
        return None;
    }
    let pattern = input.get("pattern").and_then(Value::as_str)?;
    Some(literal_base(pattern))
}

/// Input fields of read-only tools that steer nothing but how much is shown.
const READ_FIELDS: &[&str] = &[
    "ignore",
    "respect_git_ignore",
    "should_read_entire_file",
    "start_line_one_indexed",
    "end_line_one_indexed_inclusive",
    "explanation",
    "query",
    "include_pattern",
    "exclude_pattern",
    "recursive",
    "command",
    "pattern",
    "offset",
    "limit",
    "view_range",
    "glob",
    "type",
    "output_mode",
    "-i",
    "-n",
    "-A",
    "-B",
    "-C",
    "context",
    "multiline",
    "head_limit",
    "include",
    "case_sensitive",
    "ignore_case",
    "line_numbers",
    "max_results",
    "start_line",
    "end_line",
    "description",
];

/// The paths a call names, as written: its path fields, and the files a patch touches
/// (`*** Update File: PATH`, `+++ b/PATH`).
fn raw_paths(input: &Value) -> Vec<&str> {
    let mut out: Vec<&str> = PATH_FIELDS
        .iter()
        .filter_map(|f| input.get(*f).and_then(Value::as_str))
        .collect();
    for field in PATH_LIST_FIELDS {
        if let Some(items) = input.get(*field).and_then(Value::as_array) {
            out.extend(items.iter().filter_map(Value::as_str));
        }
    }
    for field in ["input", "patch", "diff"] {
        let Some(patch) = input.get(field).and_then(Value::as_str) else {
            continue;
        };
        for line in patch.lines().map(str::trim) {
            let named = [
                "*** Add File: ",
                "*** Update File: ",
                "*** Delete File: ",
                "*** Move to: ",
                "+++ ",
                "--- ",
            ]
            .iter()
            .find_map(|p| line.strip_prefix(p));
            if let Some(path) = named {
                let path = path.trim();
                let path = path
                    .strip_prefix("a/")
                    .or_else(|| path.strip_prefix("b/"))
                    .unwrap_or(path);
                if path != "/dev/null" && !path.is_empty() {
                    out.push(path);
                }
            }
        }
    }
    out
}

/// The paths a call names, each with every path it may stand for (a `file:` URI for its
/// path, a percent-encoded path for its decoding too).
pub(crate) fn paths(input: &Value) -> Vec<String> {
    raw_paths(input)
        .into_iter()
        .flat_map(|raw| meanings(raw).unwrap_or_else(|_| vec![raw.to_owned()]))
        .collect()
}

/// The paths a written path may stand for: a `file:` URI (any case) for its path, a
/// percent-encoded path for itself and its decoding.
///
/// # Errors
///
/// Why the path is not modeled: another scheme, a remote host, a NUL byte.
fn meanings(raw: &str) -> Result<Vec<String>, String> {
    if raw.contains('\0') {
        return Err(format!("the path {raw:?} holds a NUL byte"));
    }
    let mut path = raw.to_owned();
    let scheme_end = raw.find(':').filter(|&i| {
        i > 1
            && raw[..i]
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '.' | '-'))
            && raw.starts_with(|c: char| c.is_ascii_alphabetic())
    });
    if let Some(i) = scheme_end {
        let scheme = raw[..i].to_ascii_lowercase();
        if scheme != "file" {
            return Err(format!("`{raw}` is a `{scheme}:` address, not a path"));
        }
        let rest = &raw[i + 1..];
        path = match rest.strip_prefix("//") {
            Some(after) => {
                let (host, tail) = after.split_at(after.find('/').unwrap_or(after.len()));
                if !(host.is_empty() || host.eq_ignore_ascii_case("localhost")) {
                    return Err(format!("`{raw}` names a file on the host `{host}`"));
                }
                if tail.is_empty() {
                    "/".to_owned()
                } else {
                    tail.to_owned()
                }
            }
            None => rest.to_owned(),
        };
    }
    let mut out = vec![path.clone()];
    if let Some(decoded) = percent_decode(&path)
        && decoded != path
    {
        if decoded.contains('\0') {
            return Err(format!("the path {raw:?} holds an encoded NUL byte"));
        }
        out.push(decoded);
    }
    Ok(out)
}

/// `%2e%2e` → `..`; `None` when nothing is encoded.
fn percent_decode(text: &str) -> Option<String> {
    if !text.contains('%') {
        return None;
    }
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        if bytes[i] == b'%'
            && let (Some(h), Some(l)) = (
                bytes.get(i + 1).copied().and_then(hex),
                bytes.get(i + 2).copied().and_then(hex),
            )
        {
            out.push((h * 16 + l) as u8);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    Some(String::from_utf8_lossy(&out).into_owned())
}

/// Judges a file tool's call; `None` when `tool` is not a file tool.
pub(crate) fn judge(
    tool: &str,
    input: &Value,
    catalog: &ToolCatalog,
    places: &Places<'_>,
) -> Option<Finding> {
    let Some(access) = access_of(tool, input, catalog) else {
        return unknown_tool(tool, input, places);
    };
    let mut named: Vec<String> = Vec::new();
    for raw in raw_paths(input) {
        match meanings(raw) {
            Ok(m) => named.extend(m),
            Err(why) if why.contains("NUL") => {
                return Some(Finding::new(
                    Stance::HardDeny,
                    VALIDATION_INVALID_INPUT,
                    Risk::High,
                    format!("Invalid input for \"{tool}\": {why}."),
                ));
            }
            Err(why) => {
                return Some(Finding::new(
                    Stance::DefaultAsk,
                    FILESYSTEM_OUTSIDE_WORKSPACE,
                    Risk::Medium,
                    format!("`{tool}` cannot be checked: {why}."),
                ));
            }
        }
    }
    // A reader with a field the policy does not model is open, but never less than what its
    // paths already say (a secret among them is still a hard deny).
    if access == Access::Read
        && let Some(map) = input.as_object()
        && let Some(field) = map.keys().find(|k| {
            let k = k.as_str();
            !PATH_FIELDS.contains(&k) && !PATH_LIST_FIELDS.contains(&k) && !READ_FIELDS.contains(&k)
        })
    {
        let open = Finding::new(
            Stance::DefaultAsk,
            FILESYSTEM_OUTSIDE_WORKSPACE,
            Risk::Medium,
            format!("`{tool}` has an input field `{field}` the policy does not model."),
        );
        let found = named.iter().filter_map(|p| place(tool, p, access, places));
        return most_restrictive(found.chain(std::iter::once(open)));
    }
    // A glob pattern reaches as far as its literal directory (`../**`, `/etc/*`).
    if matches!(tool, "glob" | "Glob")
        && let Some(pattern) = input.get("pattern").and_then(Value::as_str)
    {
        // Braces first: `{../x,y}/*` reaches `../x`.
        let mut alternatives = Vec::new();
        super::shell::judge::expand_braces(pattern, &mut alternatives);
        named.extend(alternatives.iter().map(|p| literal_base(p)));
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
    // A search reads every file of its tree: the tree must hold no secret.
    if SEARCH_TOOLS.contains(&tool) {
        let roots = if named.is_empty() {
            vec![".".to_owned()]
        } else {
            named.clone()
        };
        for root in roots {
            let located = places.locate(&root, &WorkingDir::Root);
            let found = match places.tree_secret(&located.path, true, false) {
                Ok(None) => continue,
                Ok(Some((path, what))) => format!(
                    "`{tool}` searches every file under `{root}`, which holds `{}`, {what}.",
                    places.shown(&path)
                ),
                Err(_) => {
                    format!("`{tool}` searches more files under `{root}` than can be checked.")
                }
            };
            return Some(Finding::new(
                Stance::DefaultAsk,
                super::codes::FILESYSTEM_SENSITIVE_TREE,
                Risk::High,
                found,
            ));
        }
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

/// A tool no profile knows: what it does with the paths in its input cannot be read, so it is
/// never allowed by the policy, but a secret, protected configuration or a place outside the
/// workspace among them is named (a `file:` URL counts as its path). `None` when it names no
/// path.
fn unknown_tool(tool: &str, input: &Value, places: &Places<'_>) -> Option<Finding> {
    if warrant_core::catalog::is_shell_tool(tool) {
        return None;
    }
    let mut raws: Vec<&str> = raw_paths(input);
    // Any other string that reads as a path or a `file:` URL, at any depth: what the tool
    // does with it is unknown, so it is checked as a path too.
    path_like(input, &mut raws);
    raws.sort_unstable();
    raws.dedup();
    let mut findings = Vec::new();
    for raw in raws {
        let named = match meanings(raw) {
            Ok(m) => m,
            Err(why) => {
                findings.push(Finding::new(
                    Stance::DefaultAsk,
                    FILESYSTEM_OUTSIDE_WORKSPACE,
                    Risk::Medium,
                    format!("`{tool}` cannot be checked: {why}."),
                ));
                continue;
            }
        };
        for p in named {
            let located = places.locate(&p, &WorkingDir::Root);
            let f = |stance, code, risk, reason: String| Finding::new(stance, code, risk, reason);
            if let Some(what) = places.protected(&located, &p, &WorkingDir::Root) {
                findings.push(f(
                    Stance::HardDeny,
                    super::codes::FILESYSTEM_PROTECTED_CONFIG,
                    Risk::Critical,
                    format!("`{tool}` names `{p}`, {what}: a tool whose effects are unknown may write it."),
                ));
                continue;
            }
            match located.place {
                Place::Sensitive(what) => findings.push(f(
                    Stance::HardDeny,
                    FILESYSTEM_SENSITIVE_PATH,
                    Risk::Critical,
                    format!("`{tool}` touches `{p}`, {what}."),
                )),
                Place::Inside | Place::HarmlessDevice => {}
                _ => findings.push(f(
                    Stance::DefaultAsk,
                    FILESYSTEM_OUTSIDE_WORKSPACE,
                    Risk::High,
                    format!("`{tool}` names `{p}`, outside the workspace, and what it does there is unknown."),
                )),
            }
        }
    }
    most_restrictive(findings)
}

/// The strings of `value`, at any depth, that read as paths (`/…`, `~…`, `./…`, `../…`) or
/// `file:` URLs; at most a few hundred are looked at.
fn path_like<'v>(value: &'v Value, out: &mut Vec<&'v str>) {
    const MAX_STRINGS: usize = 512;
    match value {
        Value::String(s) if out.len() < MAX_STRINGS => {
            let t = s.trim_start();
            let file_url = t.get(..5).is_some_and(|p| p.eq_ignore_ascii_case("file:"));
            let path = t.starts_with(['/', '~']) || t.starts_with("./") || t.starts_with("../");
            if (file_url || path) && !t.contains('\n') {
                out.push(t);
            }
        }
        Value::Array(items) => items.iter().for_each(|v| path_like(v, out)),
        Value::Object(map) => map.values().for_each(|v| path_like(v, out)),
        _ => {}
    }
}

fn place(tool: &str, raw: &str, access: Access, places: &Places<'_>) -> Option<Finding> {
    let located = places.locate(raw, &WorkingDir::Root);
    let f = |stance, code, risk, reason: String| Some(Finding::new(stance, code, risk, reason));
    if access == Access::Write
        && let Some(what) = places.protected(&located, raw, &WorkingDir::Root)
    {
        return f(
            Stance::HardDeny,
            super::codes::FILESYSTEM_PROTECTED_CONFIG,
            Risk::Critical,
            format!("`{tool}` would write `{raw}`, {what}: a person edits it, never a call."),
        );
    }
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
        // Of the devices, a file tool reads only `/dev/null` without asking: `/dev/tty` is
        // the user's terminal, `/dev/stdout` and `/dev/fd/N` the tool's own streams.
        (Place::HarmlessDevice, Access::Read)
            if located.path != std::path::Path::new("/dev/null") =>
        {
            f(
                Stance::DefaultAsk,
                FILESYSTEM_OUTSIDE_WORKSPACE,
                Risk::Medium,
                format!("`{tool}` reads `{raw}`, a device whose content is not a file's."),
            )
        }
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
