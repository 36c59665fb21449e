//! What a routine compile or format reads and may print: the files a C compiler is given
//! and those their `#include`s name (whole with `-E`, quoted in its diagnostics), the files
//! rustfmt formats (those given, or every one of the workspace for `cargo fmt`) and the
//! modules their `#[path]` names (quoted in its parse errors). A secret among them — by its
//! name, where it lies, or by its content — is printed by a command the reviewer would call
//! routine. What a crate's sources `include!` (`cargo build`) is not read: its build
//! script runs at build time anyway, the workspace's own code that routine builds run.

use std::path::{Path, PathBuf};

use crate::paths::{Place, Places};
use crate::shell::{Script, WorkingDir};

/// The most source files read for one build.
const MAX_SOURCES: usize = 4_096;

/// The most bytes of sources read for one build.
const MAX_SOURCE_BYTES: u64 = 64 * 1024 * 1024;

/// How deep `#include`s are followed.
const MAX_INCLUDE_DEPTH: usize = 16;

/// Why a build of `script` may print a secret its sources name, in words; `None` when every
/// file its sources pull in is the workspace's own and no secret.
pub(super) fn secret_read(places: &Places<'_>, script: &Script) -> Option<String> {
    let mut budget = Budget::default();
    for (_, cmd) in script.leaves() {
        let base = match &cmd.cwd {
            WorkingDir::Root => places.root().to_path_buf(),
            WorkingDir::Dir(d) => places.root().join(d),
            WorkingDir::Unknown => {
                return Some("a build runs in a directory only known when it runs".to_owned());
            }
        };
        let words: Vec<&str> = cmd
            .args()
            .iter()
            .filter_map(crate::shell::Word::literal)
            .collect();
        let why = match cmd.program() {
            Some(p) if super::routine_options::is_c_compiler(p) => {
                // The directories `-I` adds to the search, in order.
                let mut dirs = Vec::new();
                let mut sources = Vec::new();
                let mut it = words.iter();
                while let Some(w) = it.next() {
                    if matches!(*w, "-o" | "-D" | "-U" | "-L" | "-l") {
                        it.next();
                        continue;
                    }
                    // A response file holds more of the command line, and options that move
                    // the system's headers elsewhere make where `<name>` is found unknown.
                    if w.starts_with('@') && base.join(&w[1..]).exists() {
                        return Some(format!("the compile reads its options from `{w}`"));
                    }
                    if ["--sysroot", "-isysroot", "-iprefix", "-iwithprefix", "-I="]
                        .iter()
                        .any(|o| w.starts_with(o))
                    {
                        return Some(format!("`{w}` moves where the compiler looks for headers"));
                    }
                    if let Some(d) = ["-isystem", "-iquote", "-idirafter"]
                        .iter()
                        .find_map(|o| w.strip_prefix(o))
                    {
                        let d = if d.is_empty() {
                            it.next().copied()
                        } else {
                            Some(d)
                        };
                        dirs.extend(d.map(|d| base.join(d)));
                        continue;
                    }
                    match w.strip_prefix("-I") {
                        Some("") => dirs.extend(it.next().map(|d| base.join(d))),
                        Some(d) => dirs.push(base.join(d)),
                        // An option's value (`-o out`) is no source; a file that does not
                        // exist is not compiled.
                        None if !w.starts_with('-') => sources.push(base.join(w)),
                        None => {}
                    }
                }
                sources
                    .iter()
                    .filter(|p| p.is_file())
                    .find_map(|source| c_source(places, source, &dirs, 0, &mut budget))
            }
            Some("cargo") if words.iter().find(|w| !w.starts_with(['-', '+'])) == Some(&"fmt") => {
                rust_sources(places, places.root(), &mut budget)
            }
            Some("rustfmt") => words
                .iter()
                .filter(|w| !w.starts_with('-'))
                .map(|w| base.join(w))
                .filter(|p| p.is_file())
                .find_map(|source| rust_file(places, &source, true, &mut budget)),
            _ => None,
        };
        if why.is_some() {
            return why;
        }
    }
    None
}

/// What has been read so far.
#[derive(Default)]
struct Budget {
    files: usize,
    bytes: u64,
    seen: std::collections::HashSet<PathBuf>,
}

impl Budget {
    /// The text of `path` when it is within the budget and not read before (`Ok(None)`);
    /// `Err` when the budget is spent.
    fn read(&mut self, path: &Path) -> Result<Option<Vec<u8>>, String> {
        let key = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
        if !self.seen.insert(key) {
            return Ok(None);
        }
        self.files += 1;
        if self.files > MAX_SOURCES {
            return Err("the build reads more source files than are checked".to_owned());
        }
        let bytes = std::fs::read(path).unwrap_or_default();
        self.bytes += bytes.len() as u64;
        if self.bytes > MAX_SOURCE_BYTES {
            return Err("the build reads more source text than is checked".to_owned());
        }
        Ok(Some(bytes))
    }
}

/// Why the file `path` a build reads is one it must not print: a secret by its name or
/// place, one outside the workspace, or one whose content is a secret.
fn unfit(places: &Places<'_>, path: &Path, named: &str, by: &Path) -> Option<String> {
    let shown = by
        .strip_prefix(places.root())
        .unwrap_or(by)
        .display()
        .to_string();
    let raw = path.to_string_lossy();
    let located = places.locate(&raw, &WorkingDir::Root);
    match located.place {
        Place::Sensitive(what) => Some(format!("`{shown}` includes `{named}`, {what}")),
        Place::Inside => crate::paths::tracked_file_secret(&located.path)
            .map(|what| format!("`{shown}` includes `{named}`, {what}")),
        _ if !path.exists() => None,
        _ => Some(format!(
            "`{shown}` includes `{named}`, a file outside the workspace"
        )),
    }
}

/// Why a C source (or a file it includes, to [`MAX_INCLUDE_DEPTH`]) pulls in a file a build
/// must not print; the source itself is checked too.
fn c_source(
    places: &Places<'_>,
    source: &Path,
    include_dirs: &[PathBuf],
    depth: usize,
    budget: &mut Budget,
) -> Option<String> {
    if let Some(why) = unfit(places, source, &source.display().to_string(), source) {
        return Some(why);
    }
    if depth > MAX_INCLUDE_DEPTH {
        return Some(format!(
            "`{}` includes files deeper than are checked",
            source.display()
        ));
    }
    let text = match budget.read(source) {
        Ok(Some(text)) => text,
        Ok(None) => return None,
        Err(why) => return Some(why),
    };
    let shown = || {
        source
            .strip_prefix(places.root())
            .unwrap_or(source)
            .display()
            .to_string()
    };
    let scan = super::c_directives::scan(&text);
    if scan.assembly {
        return Some(format!(
            "`{}` may hand the assembler text of its own (inline assembly, pasted tokens, \
             `.incbin`), whose files are not checked",
            shown()
        ));
    }
    let assembly_source = source
        .extension()
        .is_some_and(|e| ["s", "S", "sx", "asm"].iter().any(|a| e == *a));
    if assembly_source {
        let lower = text.to_ascii_lowercase();
        if [b"inc".as_slice(), b".macro", b".irp", b".rept"]
            .iter()
            .any(|n| lower.windows(n.len()).any(|w| w == *n))
        {
            return Some(format!(
                "`{}` is assembly whose directives may read files not checked",
                shown()
            ));
        }
    }
    let dir = source.parent().unwrap_or(places.root());
    for header in scan.headers {
        let (named, quoted) = match &header {
            super::c_directives::Header::Quoted(n) => (n.as_str(), true),
            super::c_directives::Header::Angle(n) => (n.as_str(), false),
            super::c_directives::Header::Other => {
                // A macro names the file: not read here.
                return Some(format!("`{}` includes a file a macro names", shown()));
            }
        };
        // Where it may be found: beside the source (quoted), in each `-I` directory, or
        // where an absolute name says; a system header found on the system's path is not
        // the workspace's to judge.
        let mut candidates: Vec<PathBuf> = Vec::new();
        if named.starts_with('/') {
            candidates.push(PathBuf::from(named));
        } else {
            if quoted {
                candidates.push(dir.join(named));
            }
            candidates.extend(include_dirs.iter().map(|d| d.join(named)));
        }
        let mut found = false;
        for path in candidates.iter().filter(|p| p.exists()) {
            found = true;
            if let Some(why) = unfit(places, path, named, source) {
                return Some(why);
            }
            if path.is_file()
                && let Some(why) = c_source(places, path, include_dirs, depth + 1, budget)
            {
                return Some(why);
            }
        }
        // A name that climbs (`<../../etc/shadow>`) or is absolute, found nowhere checked,
        // is looked up in the system's directories too, and leads anywhere from there.
        let climbs = named.starts_with('/')
            || Path::new(named)
                .components()
                .any(|c| c == std::path::Component::ParentDir);
        if climbs && !found {
            return Some(format!(
                "`{}` includes `{named}`, which the compiler may find outside the workspace",
                shown()
            ));
        }
    }
    None
}

/// Why a Rust source under `dir` (`target`, `node_modules` and hidden directories aside)
/// names a module rustfmt must not read ([`rust_file`]).
fn rust_sources(places: &Places<'_>, dir: &Path, budget: &mut Budget) -> Option<String> {
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for entry in entries.flatten() {
            let name = entry.file_name();
            let name = name.to_string_lossy();
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            if kind.is_dir() {
                if !name.starts_with('.') && name != "target" && name != "node_modules" {
                    stack.push(entry.path());
                }
            } else if name.ends_with(".rs")
                && let Some(why) = rust_file(places, &entry.path(), false, budget)
            {
                return Some(why);
            }
        }
    }
    None
}

/// Why a Rust source rustfmt formats names a secret as a module rustfmt reads
/// (`#[path = …]`), or is one itself when `given` on the command line; a value that is not
/// a plain string literal counts.
fn rust_file(
    places: &Places<'_>,
    source: &Path,
    given: bool,
    budget: &mut Budget,
) -> Option<String> {
    // A file named on the command line is the caller's choice; the workspace's own sources
    // (`cargo fmt`) are its code, keys in their test fixtures among them.
    if given && let Some(why) = unfit(places, source, &source.display().to_string(), source) {
        return Some(why);
    }
    let text = match budget.read(source) {
        Ok(Some(text)) => text,
        Ok(None) => return None,
        Err(why) => return Some(why),
    };
    let text = String::from_utf8_lossy(&text);
    if !text.contains("#[path") {
        return None;
    }
    // Line comments (doc comments among them) name nothing.
    let text: String = text
        .lines()
        .map(|l| l.split_once("//").map_or(l, |(code, _)| code))
        .collect::<Vec<_>>()
        .join("\n");
    let dir = source.parent().unwrap_or(places.root());
    let shown = || {
        source
            .strip_prefix(places.root())
            .unwrap_or(source)
            .display()
            .to_string()
    };
    let mut names: Vec<&str> = Vec::new();
    for (at, _) in text.match_indices("#[path") {
        let rest = &text[at + "#[path".len()..];
        if !rest.starts_with([' ', '\t', '=']) {
            continue;
        }
        // The attribute's value is a string literal, plain or raw (`r"…"`, `r#"…"#`);
        // anything else is no attribute (the text of a string, say).
        let Some(value) = rest.trim_start().strip_prefix('=').map(str::trim_start) else {
            continue;
        };
        let raw = value.strip_prefix('r').map(|r| r.trim_start_matches('#'));
        let Some(quoted) = raw.unwrap_or(value).strip_prefix('"') else {
            continue;
        };
        match quoted.split_once('"') {
            Some((name, _)) if raw.is_some() || !name.contains('\\') => names.push(name),
            _ => return Some(format!("`{}` has a `#[path]` not read here", shown())),
        }
    }
    names
        .into_iter()
        .find_map(|name| unfit(places, &dir.join(name), name, source))
}
