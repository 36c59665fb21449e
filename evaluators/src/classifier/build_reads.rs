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
            // rustfmt reads the modules a file declares (`mod x;`), beside it and below.
            Some("rustfmt") => words
                .iter()
                .filter(|w| !w.starts_with('-'))
                .map(|w| base.join(w))
                .filter(|p| p.is_file())
                .find_map(|source| {
                    rust_file(places, &source, true, &mut budget).or_else(|| {
                        let text = std::fs::read(&source).unwrap_or_default();
                        declares_modules(&String::from_utf8_lossy(&text)).then(|| {
                            rust_sources(places, source.parent().unwrap_or(&base), &mut budget)
                        })?
                    })
                }),
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

/// The names of directories a Rust source walk passes over unless they hold modules:
/// build output and packages.
const SKIPPED_DIRS: &[&str] = &["target", "node_modules"];

/// Why a Rust source under `dir` (hidden directories aside, and build output or packages
/// that hold no module) names a module rustfmt must not read ([`rust_file`]), or is a link
/// that leads to one: a link named as a module (`src/e.rs -> ../.env`) or a directory of
/// modules leading out of the workspace, to a secret, or where the walk does not look.
fn rust_sources(places: &Places<'_>, dir: &Path, budget: &mut Budget) -> Option<String> {
    let real_root =
        std::fs::canonicalize(places.root()).unwrap_or_else(|_| places.root().to_path_buf());
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
            let path = entry.path();
            if kind.is_symlink() {
                if let Some(why) = linked_source(places, &real_root, &path, &name) {
                    return Some(why);
                }
                if name.ends_with(".rs")
                    && path.is_file()
                    && let Some(why) = rust_file(places, &path, false, budget)
                {
                    return Some(why);
                }
            } else if kind.is_dir() {
                let holds_modules = || {
                    std::fs::symlink_metadata(path.join("mod.rs")).is_ok()
                        || std::fs::symlink_metadata(d.join(format!("{name}.rs"))).is_ok()
                };
                if !name.starts_with('.')
                    && (!SKIPPED_DIRS.contains(&name.as_ref()) || holds_modules())
                {
                    stack.push(path);
                }
            } else if name.ends_with(".rs")
                && let Some(why) = rust_file(places, &path, false, budget)
            {
                return Some(why);
            }
        }
    }
    None
}

/// Why the link `path` (named `name`) among the Rust sources may lead rustfmt to a file it
/// must not read: a module file (`*.rs`) or a directory leading to a secret or out of the
/// workspace ([`unfit`]), or where [`rust_sources`] does not look.
fn linked_source(places: &Places<'_>, real_root: &Path, path: &Path, name: &str) -> Option<String> {
    let Ok(target) = std::fs::canonicalize(path) else {
        // A link to nothing is read as nothing.
        return None;
    };
    if !(name.ends_with(".rs") || target.is_dir()) {
        return None;
    }
    if let Some(why) = unfit(places, path, name, path) {
        return Some(why);
    }
    // Where the walk does not look (`.git/config`, a hidden directory, build output), a
    // file or directory of modules is not known to be the workspace's code.
    let walked = target.strip_prefix(real_root).is_ok_and(|rel| {
        rel.components().all(|c| {
            let c = c.as_os_str().to_string_lossy();
            !c.starts_with('.') && !SKIPPED_DIRS.contains(&c.as_ref())
        })
    });
    if !walked {
        return Some(format!(
            "`{}` is a link to sources where they are not checked",
            path.strip_prefix(places.root()).unwrap_or(path).display()
        ));
    }
    None
}

/// The module paths a Rust source's text may name: every `path` followed (past blanks and
/// comments) by `=` and a string literal, plain or raw, wherever it may stand in an
/// attribute (a `cfg_attr`, or text that is none: an extra name only costs a check);
/// `Err` for a value with escapes, not read here.
fn module_paths(text: &str) -> Result<Vec<String>, ()> {
    let bytes = text.as_bytes();
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_' || c >= 0x80;
    let mut names = Vec::new();
    for (at, _) in text.match_indices("path") {
        if at > 0 && ident(bytes[at - 1]) {
            continue;
        }
        let mut i = at + 4;
        if bytes.get(i).is_some_and(|&c| ident(c)) || !attribute_like(text, at) {
            continue;
        }
        i = skip_rust_blanks(bytes, i);
        if bytes.get(i) != Some(&b'=') {
            continue;
        }
        i = skip_rust_blanks(bytes, i + 1);
        let rest = &text[i..];
        if let Some(raw) = rest.strip_prefix('r') {
            let hashes = raw.len() - raw.trim_start_matches('#').len();
            let Some(body) = raw[hashes..].strip_prefix('"') else {
                continue;
            };
            let close = format!("\"{}", "#".repeat(hashes));
            match body.find(&close) {
                Some(end) => names.push(body[..end].to_owned()),
                None => return Err(()),
            }
        } else if let Some(body) = rest.strip_prefix('"') {
            match body.split_once('"') {
                Some((name, _)) if !name.contains('\\') => names.push(name.to_owned()),
                _ => return Err(()),
            }
        }
    }
    Ok(names)
}

/// Whether `path` at `at` may stand in an attribute: not after what ends a name, a field
/// access or a statement (`let path =`, `self.path =`, `; path =`), unless a line comment
/// may stand between (`#[cfg_attr(x, // …` then `path = …`).
fn attribute_like(text: &str, at: usize) -> bool {
    let before = text[..at].trim_end();
    let Some(prev) = before.bytes().last() else {
        return true;
    };
    let ends_code =
        prev.is_ascii_alphanumeric() || matches!(prev, b'_' | b'.' | b';' | b'{' | b'}');
    let on_earlier_line = text[before.len()..at].contains('\n');
    let line = &before[before.rfind('\n').map_or(0, |n| n + 1)..];
    !ends_code || (on_earlier_line && line.contains("//"))
}

/// The offset past the blanks and comments (`//…`, nested `/* … */`) at `i`.
fn skip_rust_blanks(b: &[u8], mut i: usize) -> usize {
    loop {
        match b.get(i) {
            Some(c) if c.is_ascii_whitespace() => i += 1,
            Some(b'/') if b.get(i + 1) == Some(&b'/') => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            Some(b'/') if b.get(i + 1) == Some(&b'*') => {
                let mut depth = 0usize;
                while i < b.len() {
                    if b[i..].starts_with(b"/*") {
                        depth += 1;
                        i += 2;
                    } else if b[i..].starts_with(b"*/") {
                        depth -= 1;
                        i += 2;
                        if depth == 0 {
                            break;
                        }
                    } else {
                        i += 1;
                    }
                }
            }
            _ => return i,
        }
    }
}

/// Whether a Rust source's text may declare a module in a file of its own (`mod NAME;`).
fn declares_modules(text: &str) -> bool {
    let bytes = text.as_bytes();
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_' || c >= 0x80;
    text.match_indices("mod").any(|(at, _)| {
        if (at > 0 && ident(bytes[at - 1])) || bytes.get(at + 3).is_some_and(|&c| ident(c)) {
            return false;
        }
        let mut end = skip_rust_blanks(bytes, at + 3);
        if text[end..].starts_with("r#") {
            end += 2;
        }
        let start = end;
        while end < bytes.len() && ident(bytes[end]) {
            end += 1;
        }
        end > start && bytes.get(skip_rust_blanks(bytes, end)) == Some(&b';')
    })
}

/// The names of the inline modules (`mod NAME {`) a Rust source's text may declare.
fn inline_modules(text: &str) -> Vec<&str> {
    let bytes = text.as_bytes();
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_' || c >= 0x80;
    let mut names = Vec::new();
    for (at, _) in text.match_indices("mod") {
        if (at > 0 && ident(bytes[at - 1])) || bytes.get(at + 3).is_some_and(|&c| ident(c)) {
            continue;
        }
        let start = skip_rust_blanks(bytes, at + 3);
        let start = if text[start..].starts_with("r#") {
            start + 2
        } else {
            start
        };
        let mut end = start;
        while end < bytes.len() && ident(bytes[end]) {
            end += 1;
        }
        if end > start && bytes.get(skip_rust_blanks(bytes, end)) == Some(&b'{') {
            names.push(&text[start..end]);
        }
    }
    names
}

/// Why a Rust source rustfmt formats names a secret as a module rustfmt reads
/// (`#[path = …]`, in a `cfg_attr` too), or is one itself when `given` on the command line;
/// a value that is not a plain string literal counts.
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
    let dir = source.parent().unwrap_or(places.root());
    let shown = || {
        source
            .strip_prefix(places.root())
            .unwrap_or(source)
            .display()
            .to_string()
    };
    let Ok(names) = module_paths(&text) else {
        return Some(format!("`{}` has a `#[path]` not read here", shown()));
    };
    if names.is_empty() {
        return None;
    }
    // A `#[path]` within inline modules is found below them (`dir/a/name`, or
    // `dir/stem/a/name` beside a file not `mod.rs`), or below another `#[path]`.
    let inline = inline_modules(&text);
    if inline.len() > 1 {
        return Some(format!(
            "`{}` has a `#[path]` among nested inline modules, not followed here",
            shown()
        ));
    }
    let mut dirs = vec![dir.to_path_buf()];
    if let Some(stem) = source.file_stem() {
        dirs.push(dir.join(stem));
    }
    let nested: Vec<PathBuf> = dirs
        .iter()
        .flat_map(|d| {
            inline
                .iter()
                .map(|m| d.join(m))
                .chain(names.iter().map(|n| d.join(n)))
                .collect::<Vec<_>>()
        })
        .collect();
    dirs.extend(nested);
    for name in &names {
        let climbs = Path::new(name)
            .components()
            .any(|c| c == std::path::Component::ParentDir);
        if climbs && !inline.is_empty() {
            return Some(format!(
                "`{}` has a `#[path]` leading up from an inline module, not followed here",
                shown()
            ));
        }
        for d in &dirs {
            let path = d.join(name);
            if let Some(why) = unfit(places, &path, name, source) {
                return Some(why);
            }
            if path.is_file()
                && let Some(why) = rust_file(places, &path, false, budget)
            {
                return Some(why);
            }
            // Its modules are found beside it, where a walk may not have looked (a hidden
            // directory).
            if path.is_file()
                && declares_modules(&String::from_utf8_lossy(
                    &std::fs::read(&path).unwrap_or_default(),
                ))
                && let Some(dir) = path.parent()
                && let Some(why) = rust_sources(places, dir, budget)
            {
                return Some(why);
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_module_path_an_attribute_may_give_is_found() {
        let found = |t: &str| module_paths(t).expect("read");
        assert_eq!(
            found("#[cfg_attr(all(), path = \"../.env\")]\nmod e;\n"),
            ["../.env"]
        );
        assert_eq!(
            found("let s = \"//\"; #[path = \"../.env\"] mod x;\n"),
            ["../.env"]
        );
        assert_eq!(
            found("#[cfg_attr(x, // c\n path = \"a.rs\")]\nmod a;\n"),
            ["a.rs"]
        );
        assert_eq!(
            found("#[ /* c */ path /* d */ = r#\"a.rs\"#]\nmod a;\n"),
            ["a.rs"]
        );
        assert!(found("let path = \"/tmp/x\";\nself.path = \"/tmp\";\n").is_empty());
        assert!(module_paths("#[path = \"a\\x2e.rs\"]\nmod a;\n").is_err());
        assert_eq!(
            inline_modules("mod a { #[path = \"x\"] mod b; }\nmod c;\n"),
            ["a"]
        );
    }

    #[test]
    fn a_module_file_that_is_a_link_out_is_not_read_routinely() {
        let dir = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir_all(root.join("src")).unwrap();
        std::fs::write(root.join("src/main.rs"), "mod e;\nfn main() {}\n").unwrap();
        std::fs::write(outside.path().join("k"), "TOKEN=x\n").unwrap();
        let places = Places::new(root, None, None);
        let why =
            |command: &str| secret_read(&places, &crate::shell::parse(command).expect("parses"));
        std::fs::write(root.join("src/e.rs"), "\n").unwrap();
        assert_eq!(why("rustfmt src/main.rs"), None);
        assert_eq!(why("cargo fmt"), None);
        std::fs::remove_file(root.join("src/e.rs")).unwrap();
        std::os::unix::fs::symlink(outside.path().join("k"), root.join("src/e.rs")).unwrap();
        assert!(why("rustfmt src/main.rs").is_some());
        assert!(why("cargo fmt").is_some());
        std::fs::remove_file(root.join("src/e.rs")).unwrap();
        std::os::unix::fs::symlink(outside.path(), root.join("src/e")).unwrap();
        assert!(why("cargo fmt").is_some());
        std::fs::remove_file(root.join("src/e")).unwrap();
        std::fs::create_dir_all(root.join(".git")).unwrap();
        std::fs::write(root.join(".git/config"), "[core]\n").unwrap();
        std::os::unix::fs::symlink("../.git/config", root.join("src/e.rs")).unwrap();
        assert!(why("cargo fmt").is_some());
        std::fs::remove_file(root.join("src/e.rs")).unwrap();
        // A module beside one a `#[path]` names in a hidden directory.
        std::fs::write(root.join("src/e.rs"), "\n").unwrap();
        std::fs::create_dir_all(root.join("src/.h")).unwrap();
        std::fs::write(root.join("src/.h/x.rs"), "mod y;\n").unwrap();
        std::fs::write(root.join("src/m.rs"), "#[path = \".h/x.rs\"]\nmod x;\n").unwrap();
        assert_eq!(why("cargo fmt"), None);
        std::os::unix::fs::symlink(outside.path().join("k"), root.join("src/.h/y.rs")).unwrap();
        assert!(why("cargo fmt").is_some());
        std::fs::remove_file(root.join("src/m.rs")).unwrap();
        // A module under a directory named like build output is still read.
        std::fs::create_dir_all(root.join("src/target")).unwrap();
        std::os::unix::fs::symlink(outside.path().join("k"), root.join("src/target/mod.rs"))
            .unwrap();
        assert!(why("cargo fmt").is_some());
    }
}
