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
    // Cursor's `list_dir`.
    "relative_workspace_path",
    // The MCP filesystem server's `move_file`.
    "source",
    "destination",
];

/// Input fields that hold a list of paths (`read_multiple_files`).
const PATH_LIST_FIELDS: &[&str] = &["paths", "file_paths", "files"];

/// A tool's own name: an MCP tool called by its qualified id (`mcp__fs__read_file`) is known
/// by the name its server gives it only when the server is the filesystem server (see
/// [`filesystem_server`]). A tool of any other server keeps its qualified id, which names no
/// file tool: what a database's, a cloud drive's or a chat service's `read` or `search_files`
/// touches is not the workspace, so it is an unknown tool.
fn own_name(tool: &str) -> &str {
    match tool
        .strip_prefix("mcp__")
        .and_then(|rest| rest.split_once("__"))
    {
        Some((server, name)) if filesystem_server(server) => name,
        _ => tool,
    }
}

/// Whether an MCP server, by the name the user's configuration gives it, is the filesystem
/// server (`@modelcontextprotocol/server-filesystem`): `fs`, `filesystem`, `files`,
/// `server-filesystem`, `local_fs`, … (case, `-` and `_` aside).
fn filesystem_server(server: &str) -> bool {
    matches!(
        server_name(server).as_str(),
        "fs" | "filesystem"
            | "files"
            | "serverfilesystem"
            | "filesystemserver"
            | "mcpfilesystem"
            | "localfs"
            | "localfilesystem"
            | "workspacefs"
            | "workspacefilesystem"
    )
}

/// An MCP server's name as the name checks compare it: lower case, without `-`, `_` and `.`
/// (`Server-FileSystem` is `serverfilesystem`).
pub(crate) fn server_name(server: &str) -> String {
    server
        .chars()
        .filter(|c| !matches!(c, '-' | '_' | '.'))
        .flat_map(char::to_lowercase)
        .collect()
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
    SEARCH_TOOLS.contains(&own_name(tool))
}

/// Whether `tool` lists the files a glob pattern matches.
fn is_glob(tool: &str) -> bool {
    matches!(own_name(tool), "glob" | "Glob")
}

/// The directory a glob tool's pattern reaches (`src` for `src/**/*.rs`), when `tool` is one.
pub(crate) fn glob_base(tool: &str, input: &Value) -> Option<String> {
    if !is_glob(tool) {
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
    // Claude Code's `Read` of a PDF; the MCP filesystem server's and Gemini CLI's listing
    // options.
    "pages",
    "head",
    "tail",
    "excludePatterns",
    "sortBy",
    "file_filtering_options",
    // A position in the file an LSP query (hover, definition, references) is about.
    "line",
    "character",
    "column",
    "position",
];

/// Input fields of file writers that carry the text written or how it is placed, never a
/// place: any other field (`cwd`, `workdir`, `new_path`, …) may move where the write lands.
const WRITE_FIELDS: &[&str] = &[
    "content",
    "contents",
    "old_string",
    "new_string",
    "replace_all",
    "edits",
    "expected_replacements",
    "instruction",
    "instructions",
    "code_edit",
    "explanation",
    "description",
    "cell_id",
    "cell_type",
    "edit_mode",
    "new_source",
    "command",
    "file_text",
    "old_str",
    "new_str",
    "insert_line",
    "insert_text",
    "view_range",
    "input",
    "patch",
    "diff",
    "dryRun",
    "modified_by_user",
];

/// The paths a call names, as written: its path fields, and the files a patch touches
/// (`*** Update File: PATH`, `+++ b/PATH`).
fn raw_paths(input: &Value) -> Vec<&str> {
    raw_paths_shaped(input).0
}

/// [`raw_paths`], and the first path field whose value is not of the shape a path has (a
/// string; a list of strings for a list field). Every string such a field holds, at any
/// depth, is among the paths: a tool may take any of them as its path.
fn raw_paths_shaped(input: &Value) -> (Vec<&str>, Option<&'static str>) {
    let mut out: Vec<&str> = Vec::new();
    let mut misshapen = None;
    for f in PATH_FIELDS {
        match field(input, f) {
            None => {}
            Some(Value::String(s)) => out.push(s),
            Some(other) => {
                misshapen.get_or_insert(*f);
                all_strings(other, &mut out);
            }
        }
    }
    for name in PATH_LIST_FIELDS {
        match field(input, name) {
            None => {}
            Some(Value::Array(items)) if items.iter().all(Value::is_string) => {
                out.extend(items.iter().filter_map(Value::as_str));
            }
            Some(other) => {
                misshapen.get_or_insert(*name);
                all_strings(other, &mut out);
            }
        }
    }
    // Path fields nested in other fields (`edits[].file_path`: a runtime may honour them) and
    // the names a patch's headers give.
    if let Value::Object(map) = input {
        for (key, value) in map {
            if !is_path_field(key) {
                nested_names(value, Some(key), false, 0, &mut out);
            }
        }
    }
    (out, misshapen)
}

/// Whether `name` is an input field that names a path or a list of paths.
pub(crate) fn is_path_field(name: &str) -> bool {
    PATH_FIELDS.contains(&name) || PATH_LIST_FIELDS.contains(&name)
}

/// A name that stands for one no reader can tell: a patch header's quoted name with escapes
/// (git's `"caf\303\251"`), which `git apply` decodes to any name at all.
pub(crate) const UNREAD_NAME: &str = "\u{0}";

/// Every name `value` (the field `key` of an input, at `depth`) may make a file tool touch:
/// strings of path fields at any depth (`edits[].file_path`), and the names of the patch in a
/// `patch`, `diff`, `input` or `command` field — or, with `patch_like_anywhere`, in any string that
/// starts like a patch.
pub(crate) fn nested_names<'v>(
    value: &'v Value,
    key: Option<&str>,
    patch_like_anywhere: bool,
    depth: usize,
    out: &mut Vec<&'v str>,
) {
    if depth > 32 || out.len() > 4096 {
        // What lies past the limits is not read: it may name anything.
        if out.last() != Some(&UNREAD_NAME) {
            out.push(UNREAD_NAME);
        }
        return;
    }
    match value {
        Value::String(s) => {
            if depth > 0 && key.is_some_and(is_path_field) {
                out.push(s);
            }
            // `command` is where Codex's `apply_patch` tool gives its patch.
            let patch_field =
                key.is_some_and(|k| matches!(k, "patch" | "diff" | "input" | "command"));
            let patch_like = patch_like_anywhere
                && ["diff --git ", "--- ", "*** Begin Patch", "Index: "]
                    .iter()
                    .any(|h| s.trim_start().starts_with(h));
            if patch_field || patch_like {
                patch_names(s, out);
            }
        }
        Value::Array(items) => items
            .iter()
            .for_each(|v| nested_names(v, key, patch_like_anywhere, depth + 1, out)),
        Value::Object(map) => map
            .iter()
            .for_each(|(k, v)| nested_names(v, Some(k), patch_like_anywhere, depth + 1, out)),
        _ => {}
    }
}

/// The names a patch's header lines give: a unified diff's `---`/`+++` names (cut at a TAB,
/// where a timestamp may follow), git's `diff --git a/X b/Y`, `rename`/`copy from`/`to`,
/// `Index:`, and the `*** Add/Update/Delete File:`/`*** Move to:` headers. Each word counts
/// (a name with spaces is over-read, never under-read), `a/`/`b/` and quotes removed; a
/// quoted name with escapes adds [`UNREAD_NAME`].
pub(crate) fn patch_names<'t>(text: &'t str, out: &mut Vec<&'t str>) {
    const HEADERS: &[&str] = &[
        "+++ ",
        "--- ",
        "diff --git ",
        "diff --cc ",
        "rename from ",
        "rename to ",
        "copy from ",
        "copy to ",
        "Index: ",
        "*** Add File: ",
        "*** Update File: ",
        "*** Delete File: ",
        "*** Move to: ",
        "*** ",
    ];
    for line in text.lines() {
        let line = line.trim_start();
        let Some(rest) = HEADERS.iter().find_map(|h| line.strip_prefix(h)) else {
            continue;
        };
        out.extend(
            rest.split(['\t', ' ', '"'])
                .map(|w| {
                    w.strip_prefix("a/")
                        .or_else(|| w.strip_prefix("b/"))
                        .unwrap_or(w)
                })
                .filter(|w| !w.is_empty() && *w != "/dev/null"),
        );
        if rest.contains('"') && rest.contains('\\') {
            out.push(UNREAD_NAME);
        }
    }
}

/// Whether a call's input names a path: a path field, or any string that reads as a path or
/// a `file:` URL.
pub(crate) fn names_paths(input: &Value) -> bool {
    let mut found = raw_paths(input);
    path_like(input, &mut found);
    !found.is_empty()
}

/// Every string of `value`, at any depth (at most a few hundred).
pub(crate) fn strings_of<'v>(value: &'v Value, out: &mut Vec<&'v str>) {
    all_strings(value, out);
}

/// Every string of `value`, at any depth (at most a few hundred).
fn all_strings<'v>(value: &'v Value, out: &mut Vec<&'v str>) {
    match value {
        Value::String(s) if out.len() < 512 => out.push(s),
        Value::Array(items) => items.iter().for_each(|v| all_strings(v, out)),
        Value::Object(map) => map.values().for_each(|v| all_strings(v, out)),
        _ => {}
    }
}

/// The field `name` of an input object: what `input.get(name)` is, found by comparing the
/// names of a small object's few fields rather than hashing `name` (asked for each of the
/// many fields a path may be in).
fn field<'v>(input: &'v Value, name: &str) -> Option<&'v Value> {
    match input {
        Value::Object(map) if map.len() <= 16 => {
            map.iter().find(|(k, _)| k.as_str() == name).map(|(_, v)| v)
        }
        _ => input.get(name),
    }
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
    if let Some(what) = foreign_syntax(raw) {
        return Err(format!(
            "`{raw}` holds {what}, which this policy does not read as POSIX"
        ));
    }
    if let Some(what) = unknown_expansion(raw) {
        return Err(format!("`{raw}` holds {what}, whose value is not known"));
    }
    // A tool that hands the path to a program as an argument (`rg PATTERN PATH`) has it read
    // as an option (`--pre=COMMAND` runs COMMAND on every file).
    if raw.starts_with('-') {
        return Err(format!(
            "`{raw}` starts with `-`, which a program given it as an argument reads as an option"
        ));
    }
    let mut path = raw.to_owned();
    // The path a URI parser reads: the query and the fragment dropped, then decoded.
    let mut uri_path = None;
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
        let before_query = path.find(['?', '#']).map_or(path.as_str(), |i| &path[..i]);
        let before_query = if before_query.is_empty() {
            "/"
        } else {
            before_query
        };
        uri_path = Some(percent_decode(before_query).unwrap_or_else(|| before_query.to_owned()));
    }
    let mut out = vec![path.clone()];
    // A tool that expands variables reads a leading `$HOME` / `${HOME}` as the home
    // directory; one that does not, as a directory of that name: the path stands for both.
    if let Some(tail) = path
        .strip_prefix("${HOME}")
        .or_else(|| path.strip_prefix("$HOME"))
        .filter(|tail| tail.is_empty() || tail.starts_with('/'))
    {
        out.push(format!("~{tail}"));
    }
    if let Some(decoded) = percent_decode(&path)
        && decoded != path
    {
        if decoded.contains('\0') {
            return Err(format!("the path {raw:?} holds an encoded NUL byte"));
        }
        out.push(decoded);
    }
    if let Some(parsed) = uri_path
        && !out.contains(&parsed)
    {
        if parsed.contains('\0') {
            return Err(format!("the path {raw:?} holds an encoded NUL byte"));
        }
        out.push(parsed);
    }
    Ok(out)
}

/// What in a `file:` URI `raw` readers read differently, if anything: a query or a
/// fragment (a URI parser drops it, a tool that takes the text as a name keeps it), or an
/// encoded separator, query or fragment mark (decoded by some, kept by others). Both
/// readings are judged (see [`meanings`]), and the call is not modeled.
fn uri_unmodeled(raw: &str) -> Option<&'static str> {
    let rest = raw
        .get(..5)
        .filter(|scheme| scheme.eq_ignore_ascii_case("file:"))
        .map(|_| &raw[5..])?;
    if rest.contains(['?', '#']) {
        return Some("a query or a fragment");
    }
    let lower = rest.to_ascii_lowercase();
    ["%3f", "%23", "%2f", "%5c", "%00", "%25"]
        .iter()
        .any(|code| lower.contains(code))
        .then_some("an encoded separator, query or fragment mark")
}

/// The findings of a file tool's paths as glob patterns (`.en?`, `*.pem`, `{a,.env}`): a
/// tool that expands a pattern reads (or writes) the files it matches, so a pattern one of
/// whose names is a secret, or for a writer protected configuration, is a binding ask,
/// whatever this tool does with it.
fn pattern_findings(
    tool: &str,
    input: &Value,
    access: Access,
    places: &Places<'_>,
) -> Vec<Finding> {
    let mut out = Vec::new();
    for raw in raw_paths(input) {
        // A pattern with a backslash reads as a glob reads it (`\x` is `x`: `.\en?` matches
        // `.env`), and as Windows reads it (a separator).
        let mut readings = meanings(raw).unwrap_or_default();
        if raw.contains('\\') && raw.contains(['*', '?', '[', '{']) {
            let other = [Some(glob_unescaped(raw)), windows_reading(raw)];
            for text in other.into_iter().flatten() {
                readings.extend(meanings(&text).unwrap_or_default());
            }
        }
        for meaning in readings {
            if !meaning.contains(['*', '?', '[', '{']) {
                continue;
            }
            let mut alternatives = Vec::new();
            super::shell::judge::expand_braces(&meaning, &mut alternatives);
            let found = alternatives
                .iter()
                .find_map(|alt| places.pattern_may_be(alt, access == Access::Write));
            if let Some(what) = found {
                let code = if access == Access::Write {
                    super::codes::FILESYSTEM_PROTECTED_CONFIG
                } else {
                    FILESYSTEM_SENSITIVE_PATH
                };
                out.push(Finding::new(
                    Stance::RequireAsk,
                    code,
                    Risk::High,
                    format!(
                        "`{tool}` names `{raw}`, a pattern that a tool expanding it reads as {what}."
                    ),
                ));
            }
        }
    }
    out
}

/// The glob pattern `raw` with each `\x` read as `x`, as a glob reads an escaped
/// character: every name the escaped pattern matches, the result matches too (a lone
/// backslash at the end is dropped).
fn glob_unescaped(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut chars = raw.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            if let Some(next) = chars.next() {
                out.push(next);
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// What in `raw` reads one way on Windows and another here: a backslash (a separator
/// there, `..\\..\\x`), an alternate data stream (`x::$DATA`), a name ending in a dot or a
/// space (which Windows drops: `settings.json.` is `settings.json`); and a name that starts
/// or ends with white space or a control character (`.env\n`), which a host that trims its
/// tools' paths drops.
fn foreign_syntax(raw: &str) -> Option<&'static str> {
    if raw.contains('\\') {
        return Some("a backslash");
    }
    // A byte search for `:` first: most paths hold none, and it costs less than setting up
    // the search for `::`.
    if raw.contains(':') && raw.contains("::") {
        return Some("a stream name");
    }
    let trailing = raw.split('/').any(|c| {
        !matches!(c, "" | "." | "..")
            && (c.ends_with(['.', ' ']) || c.ends_with(trimmed) || c.starts_with(trimmed))
    });
    trailing.then_some("a name ending in a dot, white space or a control character")
}

/// What a host may trim from a name's ends: white space and control characters.
fn trimmed(c: char) -> bool {
    c.is_whitespace() || c.is_control()
}

/// `raw` as Windows reads it (`\\` a separator, trailing dots and spaces and a stream name
/// dropped), when that differs from how it reads here.
fn windows_reading(raw: &str) -> Option<String> {
    foreign_syntax(raw)?;
    let slashed = raw.replace('\\', "/");
    let parts: Vec<&str> = slashed
        .split('/')
        .map(|c| {
            let c = c.split("::").next().unwrap_or(c);
            let c = c.split(':').next().filter(|_| c.len() > 2).unwrap_or(c);
            if matches!(c, "." | "..") {
                c
            } else {
                c.trim_end_matches(|ch: char| ch == '.' || trimmed(ch))
                    .trim_start_matches(trimmed)
            }
        })
        .collect();
    Some(parts.join("/"))
}

/// What in `raw` a tool that expands variables would replace, besides the home directory
/// (`$HOME`, `${HOME}`, `~`, which are modeled): another variable (`$PWD`, `${XDG_…}`), a
/// command substitution (`$(…)`, `` `…` ``).
fn unknown_expansion(raw: &str) -> Option<&'static str> {
    if raw.contains('`') {
        return Some("a command substitution");
    }
    let bytes = raw.as_bytes();
    for (i, _) in raw.match_indices('$') {
        let rest = &raw[i + 1..];
        let home = rest.strip_prefix("{HOME}").is_some()
            || rest.strip_prefix("HOME").is_some_and(|after| {
                !after.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_')
            });
        if home {
            continue;
        }
        match bytes.get(i + 1) {
            Some(b'(') => return Some("a command substitution"),
            Some(c) if c.is_ascii_alphanumeric() || matches!(c, b'_' | b'{') => {
                return Some("a variable");
            }
            _ => {}
        }
    }
    None
}

/// The hard deny for a path whose parts known only at run time (`$X/.env`,
/// `$(…)/.ssh/id_rsa`, `~/.ssh/$KEY`) may make it a secret: its literal tail wherever a
/// run-time part may put it (a value may hold `/` and start with `.`), or its literal
/// directory before the first run-time part.
fn run_time_secret(tool: &str, raw: &str, places: &Places<'_>) -> Option<Finding> {
    unknown_expansion(raw)?;
    let first = raw.find(['$', '`'])?;
    let deny = |what: String| {
        Finding::new(
            Stance::HardDeny,
            FILESYSTEM_SENSITIVE_PATH,
            Risk::Critical,
            format!("`{tool}` touches `{raw}`, which may be {what} when it runs."),
        )
    };
    // The literal directory it starts in (`~/.ssh/` of `~/.ssh/$KEY`).
    if let Some(slash) = raw[..first].rfind('/') {
        let dir = &raw[..=slash];
        if let Place::Sensitive(what) = places.locate(dir, &WorkingDir::Root).place {
            return Some(deny(what));
        }
    }
    // The longest literal tail after a `/` past the first run-time part.
    let tail = raw[first..]
        .match_indices('/')
        .map(|(i, _)| &raw[first + i + 1..])
        .find(|t| !t.is_empty() && !t.contains(['$', '`', ')', '}']))?;
    places
        .glob_sensitive(&format!("/**/{tail}"), &WorkingDir::Root, true)
        .map(deny)
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

/// Whether a file tool's input holds only fields the policy models, each path field a path
/// (or a list of them) whose meaning is known.
pub(crate) fn modeled_input(tool: &str, input: &Value, catalog: &ToolCatalog) -> bool {
    let Some(access) = access_of(tool, input, catalog) else {
        return false;
    };
    let (raws, misshapen) = raw_paths_shaped(input);
    misshapen.is_none()
        && raws
            .iter()
            .all(|r| meanings(r).is_ok() && uri_unmodeled(r).is_none())
        && unmodeled_field(tool, input, access).is_none()
}

/// Fields of a search or listing tool whose values a runtime may hand to a program (`rg`,
/// `grep`, `find`) as arguments of their own.
const ARGUMENT_FIELDS: &[&str] = &[
    "pattern",
    "query",
    "glob",
    "type",
    "include",
    "include_pattern",
    "includePattern",
    "exclude_pattern",
    "excludePatterns",
    "ignore",
];

/// The first field of `input` a runtime may pass to a program as an argument whose value
/// (or one of whose values) starts with `-`, with that value: a runtime that builds
/// `rg PATTERN PATH` runs `rg --pre=sh PATH` for the pattern `--pre=sh`, and `--pre` runs a
/// program on every file. (Paths are refused alike by [`meanings`].)
fn option_like_field(input: &Value) -> Option<(&'static str, &str)> {
    fn dashed(v: &Value) -> Option<&str> {
        v.as_str().filter(|t| t.starts_with('-'))
    }
    ARGUMENT_FIELDS.iter().find_map(|field| {
        let value = input.get(*field)?;
        let found = match value {
            Value::Array(items) => items.iter().find_map(dashed),
            other => dashed(other),
        };
        found.map(|t| (*field, t))
    })
}

/// The first field of a file tool's input the policy does not model, if any. `command` steers
/// nothing only for the text editor tool (whose `view` reads); `query` only for a runtime's
/// own search tools, not for an MCP server's, whose query may be a statement it runs.
fn unmodeled_field<'a>(tool: &str, input: &'a Value, access: Access) -> Option<&'a str> {
    let modeled = match access {
        Access::Read => READ_FIELDS,
        Access::Write => WRITE_FIELDS,
    };
    let editor = matches!(tool, "str_replace_based_edit_tool" | "str_replace_editor");
    let count = |v: &Value| v.as_u64().is_some();
    let inert = |k: &str, v: &Value| match k {
        "command" => editor,
        "query" => !tool.starts_with("mcp__"),
        // A position is numbers, and nothing else (LSP's `TextDocumentPositionParams` nests
        // a document's URI beside it): anything more is not modeled.
        "line" | "character" | "column" => access == Access::Read && count(v),
        "position" => {
            access == Access::Read
                && v.as_object().is_some_and(|p| {
                    p.len() == 2
                        && p.get("line").is_some_and(count)
                        && p.get("character").is_some_and(count)
                })
        }
        // A reader's other fields steer how much is shown: one value or a list of them. A
        // nested object may name a place of its own, which is not read.
        _ => {
            modeled.contains(&k)
                && (access == Access::Write
                    || match v {
                        Value::Array(items) => {
                            items.iter().all(|i| !i.is_array() && !i.is_object())
                        }
                        Value::Object(m) => {
                            k == "file_filtering_options" && m.values().all(Value::is_boolean)
                        }
                        _ => true,
                    })
        }
    };
    input.as_object().and_then(|map| {
        map.iter()
            .find(|(k, v)| {
                let k = k.as_str();
                !PATH_FIELDS.contains(&k) && !PATH_LIST_FIELDS.contains(&k) && !inert(k, v)
            })
            .map(|(k, _)| k.as_str())
    })
}

/// Judges a file tool's call; `None` when `tool` is not a file tool.
pub(crate) fn judge(
    tool: &str,
    input: &Value,
    catalog: &ToolCatalog,
    places: &Places<'_>,
) -> Option<Finding> {
    let decided = judge_paths(tool, input, catalog, places);
    let Some(access) = access_of(tool, input, catalog) else {
        return decided;
    };
    // A URI read two ways is judged both ways (its meanings), and is not modeled.
    let uri = raw_paths(input).into_iter().find_map(|raw| {
        uri_unmodeled(raw).map(|what| {
            Finding::new(
                Stance::DefaultAsk,
                FILESYSTEM_OUTSIDE_WORKSPACE,
                Risk::Medium,
                format!(
                    "`{tool}` cannot be checked: `{raw}` holds {what}, which readers of URIs read differently."
                ),
            )
        })
    });
    // The filesystem server resolves a relative path against its own allowed directories
    // (the first that holds the result), not the workspace: which file it names is not known.
    let relative = (own_name(tool) != tool)
        .then(|| {
            raw_paths(input)
                .into_iter()
                .find(|raw| !raw.starts_with('/') && !raw.starts_with('~'))
        })
        .flatten()
        .map(|raw| {
            Finding::new(
                Stance::RequireAsk,
                FILESYSTEM_OUTSIDE_WORKSPACE,
                Risk::High,
                format!(
                    "`{tool}` is given `{raw}`, a relative path its server resolves against its own allowed directories, not the workspace: which file it names is not known."
                ),
            )
        });
    let patterns = pattern_findings(tool, input, access, places);
    if uri.is_none() && relative.is_none() && patterns.is_empty() {
        return decided;
    }
    most_restrictive(
        decided
            .into_iter()
            .chain(uri)
            .chain(relative)
            .chain(patterns),
    )
}

/// Judges a file tool's call by where its paths resolve; `None` when `tool` is not a file
/// tool.
fn judge_paths(
    tool: &str,
    input: &Value,
    catalog: &ToolCatalog,
    places: &Places<'_>,
) -> Option<Finding> {
    let Some(access) = access_of(tool, input, catalog) else {
        return unknown_tool(tool, input, places);
    };
    let mut named: Vec<String> = Vec::new();
    let (raws, misshapen) = raw_paths_shaped(input);
    if raws.contains(&UNREAD_NAME) {
        // What was not read may be anything, a protected file too: no mode settles it.
        return Some(Finding::new(
            Stance::RequireAsk,
            FILESYSTEM_OUTSIDE_WORKSPACE,
            Risk::High,
            format!("`{tool}` names a file in git's quoted form, which is not read."),
        ));
    }
    for raw in raws {
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
                let open = Finding::new(
                    Stance::DefaultAsk,
                    FILESYSTEM_OUTSIDE_WORKSPACE,
                    Risk::Medium,
                    format!("`{tool}` cannot be checked: {why}."),
                );
                // Read as Windows reads it, the path may still name a secret or protected
                // configuration: that stays the hard deny; so does a secret its parts known
                // only at run time may make it.
                let windows = windows_reading(raw).and_then(|p| place(tool, &p, access, places));
                let run_time = run_time_secret(tool, raw, places);
                return most_restrictive(std::iter::once(open).chain(windows).chain(run_time));
            }
        }
    }
    // A call with a field the policy does not model (for a writer: one that may move where
    // it writes, `cwd`, `new_path`), or a path field that is not a path's shape, is open, but
    // never less than what its paths already say (a secret among them is still a hard deny).
    let unmodeled = unmodeled_field(tool, input, access);
    let problem = match (misshapen, unmodeled, option_like_field(input)) {
        (Some(field), _, _) => Some(format!(
            "`{tool}` has a path field `{field}` that is not a path (a string) or a list of paths."
        )),
        (None, Some(field), _) => Some(format!(
            "`{tool}` has an input field `{field}` the policy does not model."
        )),
        (None, None, Some((field, value))) => Some(format!(
            "`{tool}`'s `{field}` is {}, which starts with `-`: a program given it as an argument reads it as an option.",
            super::finding::quote_text(value)
        )),
        (None, None, None) => None,
    };
    if let Some(problem) = problem {
        let open = Finding::new(
            Stance::DefaultAsk,
            FILESYSTEM_OUTSIDE_WORKSPACE,
            Risk::Medium,
            problem,
        );
        let found = named.iter().filter_map(|p| place(tool, p, access, places));
        // A search still reads the trees it names.
        let tree = (is_search(tool) && access == Access::Read)
            .then(|| search_tree(tool, input, &named, places))
            .flatten();
        return most_restrictive(found.chain(tree).chain(std::iter::once(open)));
    }
    // A glob pattern reaches as far as its literal directory (`../**`, `/etc/*`).
    if is_glob(tool)
        && let Some(pattern) = input.get("pattern").and_then(Value::as_str)
    {
        // Braces first: `{../x,y}/*` reaches `../x`.
        let mut alternatives = Vec::new();
        super::shell::judge::expand_braces(pattern, &mut alternatives);
        if let Some(what) = alternatives.iter().find_map(|p| unknown_expansion(p)) {
            let open = Finding::new(
                Stance::DefaultAsk,
                FILESYSTEM_OUTSIDE_WORKSPACE,
                Risk::Medium,
                format!(
                    "`{tool}` cannot be checked: `{pattern}` holds {what}, whose value is not known."
                ),
            );
            let found = named.iter().filter_map(|p| place(tool, p, access, places));
            return most_restrictive(found.chain(std::iter::once(open)));
        }
        named.extend(alternatives.iter().flat_map(|p| {
            let base = literal_base(p);
            meanings(&base).unwrap_or_else(|_| vec![base])
        }));
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
    if access == Access::Write {
        return decided;
    }
    // A search reads every file of its tree: the tree must hold no secret.
    if is_search(tool) {
        let tree = search_tree(tool, input, &named, places);
        if decided.is_some() || tree.is_some() {
            return most_restrictive(decided.into_iter().chain(tree));
        }
    } else if decided.is_some() {
        // Only reads inside the workspace are left.
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

/// What a search tool (`tool` with `input`, its roots `named`) finds in the trees it reads,
/// as the shell's recursive searches are judged: a tree outside the workspace that holds a
/// secret (`~` holding `~/.ssh/id_rsa`) is the hard deny of reading it, and one too large
/// to look through a binding ask. Inside the workspace only the files the search's filter
/// (`glob`, `include`, a ripgrep `type`) admits are looked at: a secret by its place
/// (`.env`, a key's name) among them is the hard deny (a binding ask when there is no
/// filter), a secret by its content only (a key in a test fixture) asks.
fn search_tree(
    tool: &str,
    input: &Value,
    named: &[String],
    places: &Places<'_>,
) -> Option<Finding> {
    /// How many secrets by content only are passed over, looking for one by its place.
    const MAX_PASSED: usize = 8;
    let roots = if named.is_empty() {
        vec![".".to_owned()]
    } else {
        named.to_vec()
    };
    // The file filter, as file names (a path glob's last part admits no fewer files); a
    // file type (`"type": "rust"`, ripgrep's) is its names, and one not known limits nothing.
    let globs: Vec<&str> = ["glob", "include", "includePattern", "include_pattern"]
        .iter()
        .filter_map(|f| input.get(*f).and_then(Value::as_str))
        .collect();
    // A brace group is each of its alternatives (`*.{ts,tsx}`), and one may hold a path
    // (`{*.rs,**/.env}`): each alternative's last part is a name the filter admits.
    let mut filter: Vec<String> = Vec::new();
    let mut braced_path = false;
    for g in &globs {
        let mut alternatives = Vec::new();
        super::shell::judge::expand_braces(g, &mut alternatives);
        for a in alternatives {
            braced_path |= a.contains(['{', '}', ',']);
            let name = a.rsplit('/').next().unwrap_or(&a);
            if !name.is_empty() {
                filter.push(name.to_owned());
            }
        }
    }
    // A negated glob (`!*.py`, ripgrep's) admits every other file, as does a list a tool
    // splits on commas or blanks, or braces not read as a group: each limits nothing.
    // (ripgrep searches what a glob admits whatever the type: a type then limits nothing.)
    let unread = braced_path
        || globs
            .iter()
            .any(|g| g.contains('!') || g.contains(char::is_whitespace));
    if unread {
        filter.clear();
    }
    let typed = input
        .get("type")
        .and_then(Value::as_str)
        .map(crate::programs::rg_type);
    match typed {
        Some([]) => filter.clear(),
        Some(names) if filter.is_empty() && !unread => {
            filter.extend(names.iter().map(|n| (*n).to_owned()));
        }
        // Both: a file must pass each; the globs alone admit no fewer.
        _ => {}
    }
    let by_place = |path: &std::path::Path| {
        matches!(
            places
                .locate(&path.to_string_lossy(), &WorkingDir::Root)
                .place,
            Place::Sensitive(_)
        )
    };
    let mut findings = Vec::new();
    for root in roots {
        let located = places.locate(&root, &WorkingDir::Root);
        let inside = matches!(located.place, Place::Inside);
        if !inside {
            // Outside the workspace a key is no test fixture: by its place or its content,
            // it is the secret read.
            if !matches!(located.place, Place::Outside | Place::System) || !located.path.is_dir() {
                continue;
            }
            findings.push(match places.tree_secret(&located.path, true, false) {
                Ok(None) => continue,
                Ok(Some((path, what))) => Finding::new(
                    Stance::HardDeny,
                    FILESYSTEM_SENSITIVE_PATH,
                    Risk::Critical,
                    format!(
                        "`{tool}` searches every file under `{root}`, which holds `{}`, {what}.",
                        places.shown(&path)
                    ),
                ),
                Err(_) => Finding::new(
                    Stance::RequireAsk,
                    super::codes::FILESYSTEM_SENSITIVE_TREE,
                    Risk::High,
                    format!(
                        "`{tool}` searches every file under `{root}`, outside the workspace: more than can be checked for secrets."
                    ),
                ),
            });
            continue;
        }
        // Whether the tool follows the tree's symlinks is its own choice (`grep -R`,
        // `rg -L`, servers that walk with their own code): they are taken as followed.
        let mut passed: Vec<String> = Vec::new();
        let mut first: Option<(std::path::PathBuf, String)> = None;
        let mut placed: Option<(std::path::PathBuf, String)> = None;
        let mut too_many = false;
        while passed.len() <= MAX_PASSED {
            let scan = crate::paths::Scan {
                hidden: true,
                follow: true,
                names: &filter,
                excludes: &passed,
                ignores: false,
                dash_names: false,
                secrets: true,
                contents: true,
            };
            match places.scan_tree(&located.path, &scan) {
                Ok(None) => break,
                Ok(Some((path, what))) => {
                    if by_place(&path) {
                        placed = Some((path, what));
                        break;
                    }
                    let name = path
                        .file_name()
                        .map(|n| n.to_string_lossy().into_owned())
                        .unwrap_or_default();
                    first.get_or_insert((path, what));
                    if name.is_empty() || passed.contains(&name) {
                        break;
                    }
                    passed.push(name);
                }
                Err(_) => {
                    too_many = true;
                    break;
                }
            }
        }
        if placed.is_none() && !too_many {
            // The walk stops again at the same entry when it is a link leaving the
            // workspace (its name is not what is passed over): the tree's own files, links
            // left aside, may still hold a secret by its place (`.env` beside `link -> ~`).
            let scan = crate::paths::Scan {
                hidden: true,
                follow: false,
                names: &filter,
                excludes: &passed,
                ignores: false,
                dash_names: false,
                secrets: true,
                contents: true,
            };
            match places.scan_tree(&located.path, &scan) {
                Ok(Some((path, what))) if by_place(&path) => placed = Some((path, what)),
                Ok(_) => {}
                Err(_) => too_many = true,
            }
        }
        if let Some((path, what)) = placed {
            // The walk looked only at the files the filter admits (a search tool reads only
            // them): a secret by its place among them is printed.
            let admitted = !filter.is_empty();
            let stance = if admitted {
                Stance::HardDeny
            } else {
                Stance::RequireAsk
            };
            findings.push(Finding::new(
                stance,
                if admitted {
                    FILESYSTEM_SENSITIVE_PATH
                } else {
                    super::codes::FILESYSTEM_SENSITIVE_TREE
                },
                Risk::High,
                format!(
                    "`{tool}` searches every file under `{root}`, which holds `{}`, {what}.",
                    places.shown(&path)
                ),
            ));
            continue;
        }
        // A walk cut short after a secret by its content: one by its place may lie beyond.
        let stance = if too_many && first.is_some() {
            Stance::RequireAsk
        } else {
            Stance::DefaultAsk
        };
        let found = match (first, too_many) {
            (Some((path, what)), _) => format!(
                "`{tool}` searches every file under `{root}`, which holds `{}`, {what}.",
                places.shown(&path)
            ),
            (None, true) => {
                format!("`{tool}` searches more files under `{root}` than can be checked.")
            }
            (None, false) => continue,
        };
        findings.push(Finding::new(
            stance,
            super::codes::FILESYSTEM_SENSITIVE_TREE,
            Risk::High,
            found,
        ));
    }
    most_restrictive(findings)
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
                findings.extend(run_time_secret(tool, raw, places));
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

/// The strings of `value`, at any depth, that read as paths or `file:` URLs: absolute or
/// home paths (`/…`, `~…`), relative ones (`./…`, `../…`, a word with a `/` or starting with
/// a dot: `.claude/settings.json`, `.env`), and any one-line string of a field whose name
/// says it holds a path (`relative_path`, `pathInProject`, `target_file`, `dirPath`); at
/// most a few hundred are looked at. A relative name inside the workspace raises nothing
/// unless it names a secret or protected configuration.
fn path_like<'v>(value: &'v Value, out: &mut Vec<&'v str>) {
    path_like_in(value, None, out);
}

fn path_like_in<'v>(value: &'v Value, key: Option<&str>, out: &mut Vec<&'v str>) {
    const MAX_STRINGS: usize = 512;
    match value {
        Value::String(s) if out.len() < MAX_STRINGS => {
            let t = s.trim_start();
            if t.is_empty() || t.contains('\n') {
                return;
            }
            let file_url = t.get(..5).is_some_and(|p| p.eq_ignore_ascii_case("file:"));
            // A word, not a URL of another scheme (`https://…` names no file).
            let word = !t.contains(char::is_whitespace) && !t.contains("://");
            let path = t.starts_with(['/', '~'])
                || (word && (t.contains('/') || t.starts_with('.')))
                || key.is_some_and(path_field_name);
            if file_url || path {
                out.push(t);
            }
        }
        Value::Array(items) => items.iter().for_each(|v| path_like_in(v, key, out)),
        Value::Object(map) => map.iter().for_each(|(k, v)| path_like_in(v, Some(k), out)),
        _ => {}
    }
}

/// Whether a field's name says it holds a path, whatever the tool: it names a path, a file,
/// a directory or a folder (`relative_path`, `pathInProject`, `target_file`, `dirPath`,
/// `folder`), not a file's content (`file_text`, `fileContent`).
fn path_field_name(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    let content = ["content", "text", "body", "data", "source_code"]
        .iter()
        .any(|w| lower.contains(w));
    !content
        && (lower.contains("path")
            || lower.ends_with("file")
            || lower.ends_with("filename")
            || lower.ends_with("file_name")
            || lower.ends_with("dir")
            || lower.ends_with("directory")
            || lower.ends_with("folder"))
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
        // A file with another name may be that name's file outside the workspace, a secret
        // or protected configuration (`ln .claude/settings.json s`, then write `s`): the
        // text does not tell which, and no mode settles it.
        (Place::Inside, access) if crate::paths::hard_linked(&located.path) => f(
            Stance::RequireAsk,
            FILESYSTEM_OUTSIDE_WORKSPACE,
            if access == Access::Write {
                Risk::High
            } else {
                Risk::Medium
            },
            format!(
                "`{tool}` touches `{raw}`, a file with more than one name (a hard link), which may be a file outside the workspace."
            ),
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
        (Place::Inside, Access::Read) => {
            crate::paths::content_secret(&located.path).and_then(|what| {
                f(
                    Stance::DefaultAsk,
                    FILESYSTEM_SENSITIVE_PATH,
                    Risk::High,
                    format!("`{tool}` reads `{raw}`, {what}."),
                )
            })
        }
        (Place::HarmlessDevice, Access::Read) => None,
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

/// The literal directory a glob pattern starts from, climbed once more for each `..` after a
/// wildcard that goes above it (`src/*/../../x/*` reaches `src/..`): a glob engine walks a
/// pattern segment by segment, so a `..` after a wildcard climbs again.
fn literal_base(pattern: &str) -> String {
    let wild = |p: &str| p.contains(['*', '?', '[', '{']);
    let segments: Vec<&str> = pattern.split('/').collect();
    let literal = segments.iter().take_while(|p| !wild(p)).count();
    // Below the literal directory: a `*` segment is one level down, `**` none or more (so
    // counted as none), `..` one up.
    let (mut depth, mut lowest) = (0i64, 0i64);
    for seg in &segments[literal..] {
        match *seg {
            ".." => depth -= 1,
            "" | "." | "**" => {}
            _ => depth += 1,
        }
        lowest = lowest.min(depth);
    }
    let mut parts: Vec<&str> = segments[..literal].to_vec();
    parts.extend(std::iter::repeat_n(
        "..",
        usize::try_from(-lowest).unwrap_or(0),
    ));
    match parts.join("/") {
        s if s.is_empty() && pattern.starts_with('/') => "/".to_owned(),
        s if s.is_empty() => ".".to_owned(),
        s => s,
    }
}

#[cfg(test)]
mod position_tests {
    use super::*;

    #[test]
    fn positions_are_numbers_and_nothing_else() {
        let catalog = ToolCatalog::builtin();
        let read = |input: Value| modeled_input("Read", &input, &catalog);
        assert!(read(
            serde_json::json!({"file_path": "src/main.rs", "line": 3})
        ));
        assert!(read(
            serde_json::json!({"file_path": "src/main.rs", "position": {"line": 1, "character": 2}})
        ));
        for input in [
            serde_json::json!({"file_path": "src/main.rs", "line": "$(id)"}),
            serde_json::json!({"file_path": "src/main.rs", "column": "../../../root/.ssh/id_rsa"}),
            serde_json::json!({"file_path": "src/main.rs", "line": -1}),
            serde_json::json!({"file_path": "src/main.rs", "position": {"textDocument": {"uri": "file:///root/.ssh/id_rsa"}}}),
            serde_json::json!({"file_path": "src/main.rs", "position": {"line": 1, "character": 2, "uri": "x"}}),
        ] {
            assert!(!read(input.clone()), "{input}");
        }
    }
}

#[cfg(test)]
mod uri_and_pattern_tests {
    use super::*;
    use crate::paths::SensitivePaths;

    fn judged(input: Value) -> (Stance, String) {
        let ws = tempfile::tempdir().unwrap();
        std::fs::write(ws.path().join(".env"), "KEY=1\n").unwrap();
        std::fs::write(ws.path().join("notes.md"), "x\n").unwrap();
        let sensitive = SensitivePaths::with_protected(&[], &[]).unwrap();
        let places = Places::new(
            ws.path(),
            Some(std::path::Path::new("/h")),
            Some(&sensitive),
        );
        let input =
            serde_json::from_str(&input.to_string().replace("WS", ws.path().to_str().unwrap()))
                .unwrap();
        let f = judge("view", &input, &ToolCatalog::builtin(), &places).unwrap();
        (f.stance, f.code.to_string())
    }

    #[test]
    fn a_file_uri_is_read_as_a_uri_parser_reads_it_too() {
        for path in [
            "file:///WS/.env?x",
            "file:///WS/.env#x",
            "FILE:///WS/.env?",
            "file://localhost/WS/.env#frag",
            "file:WS/.env?x=1",
            "file:///WS/notes.md%2F..%2F.env",
        ] {
            let (stance, code) = judged(serde_json::json!({ "path": path }));
            assert_eq!(stance, Stance::HardDeny, "{path}: {code}");
        }
        // A query or an encoded mark is not modeled even where neither reading is a secret.
        for path in [
            "file:///WS/notes.md?x",
            "file:///WS/notes.md#top",
            "file:///WS/notes%3Fmd",
        ] {
            let (stance, _) = judged(serde_json::json!({ "path": path }));
            assert_eq!(stance, Stance::DefaultAsk, "{path}");
            assert!(!modeled_input(
                "view",
                &serde_json::json!({ "path": path }),
                &ToolCatalog::builtin()
            ));
        }
        let (stance, _) = judged(serde_json::json!({"path": "file:///WS/notes.md"}));
        assert_eq!(stance, Stance::PolicyAllow);
    }

    #[test]
    fn a_pattern_in_a_file_tools_path_is_the_secrets_it_may_name() {
        for path in [
            ".en?",
            ".e*",
            "[.]env",
            "WS/.en[v]",
            "{notes.md,.env}",
            "*.pem",
        ] {
            let (stance, code) = judged(serde_json::json!({ "path": path }));
            assert!(
                matches!(stance, Stance::RequireAsk | Stance::HardDeny),
                "{path}: {stance:?} {code}"
            );
        }
        for path in ["notes.md", "note?.md", "src/[id]/page.tsx"] {
            let (stance, code) = judged(serde_json::json!({ "path": path }));
            assert_eq!(stance, Stance::PolicyAllow, "{path}: {code}");
        }
    }
}
