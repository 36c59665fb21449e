//! Where a routine build writes through links: cargo writes `target/` and `Cargo.lock`, a C
//! compiler the names it derives from its sources (`main.s`, `main.d`, `main.o`, `a.out`),
//! and a link among them, or any link the repository tracks, may lead the write into `.git`
//! (an executable hook installed), into other protected configuration or out of the
//! workspace. The names written on the command line are checked where they resolve
//! elsewhere ([`super::heuristic`]); these are the ones the build chooses itself.

use std::path::{Component, Path, PathBuf};

use crate::paths::Places;
use crate::shell::{Script, WorkingDir};

/// The most entries of `target/` looked at, two levels down.
const MAX_TARGET_ENTRIES: usize = 1_024;

/// The extensions of sources a C compiler derives output names from.
const C_SOURCES: &[&str] = &["c", "cc", "cpp", "cxx", "c++", "s", "S", "m"];

/// The extensions of what a C compiler writes beside a source's stem (`-S`, `-MMD`, `-c`,
/// `-save-temps`).
const C_OUTPUTS: &[&str] = &["s", "d", "o", "i", "ii", "bc"];

/// Why a build of `script` may write through a link somewhere it must not, in words; `None`
/// when no link it may write through leaves the workspace or leads into protected
/// configuration.
pub(super) fn written_through(places: &Places<'_>, script: &Script) -> Option<String> {
    let root = places.root();
    let mut candidates: Vec<PathBuf> = Vec::new();
    if let Some(index) = crate::paths::git_index::Index::of(root) {
        candidates.extend(index.symlinks().map(|p| root.join(p)));
    }
    for (_, cmd) in script.leaves() {
        let base = match &cmd.cwd {
            WorkingDir::Root => root.to_path_buf(),
            WorkingDir::Dir(d) => root.join(d),
            WorkingDir::Unknown => {
                return Some("a build runs in a directory only known when it runs".to_owned());
            }
        };
        match cmd.program() {
            Some("cargo") => {
                candidates.push(base.join("Cargo.lock"));
                candidates.push(root.join("Cargo.lock"));
                for dir in [base.join("target"), root.join("target")] {
                    if let Err(why) = tree_links(&dir, &mut candidates) {
                        return Some(why);
                    }
                }
            }
            Some(p) if super::routine_options::is_c_compiler(p) => {
                candidates.push(base.join("a.out"));
                for word in cmd.args().iter().filter_map(crate::shell::Word::literal) {
                    let source = Path::new(word);
                    let (Some(stem), Some(ext)) = (source.file_stem(), source.extension()) else {
                        continue;
                    };
                    if !C_SOURCES.iter().any(|e| ext == *e) {
                        continue;
                    }
                    for out in C_OUTPUTS {
                        let mut name = stem.to_os_string();
                        name.push(".");
                        name.push(out);
                        candidates.push(base.join(name));
                    }
                }
            }
            _ => {}
        }
    }
    candidates
        .into_iter()
        .find_map(|path| leads_away(places, &path))
}

/// Puts `dir` itself, its entries and theirs (two levels) into `out` when it exists.
fn tree_links(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), String> {
    out.push(dir.to_path_buf());
    let mut level = vec![dir.to_path_buf()];
    let mut seen = 0;
    for _ in 0..2 {
        let mut next = Vec::new();
        for d in &level {
            // Through a link the write goes where it leads: that is judged for the link.
            if std::fs::symlink_metadata(d).is_ok_and(|m| m.file_type().is_symlink()) {
                continue;
            }
            let Ok(entries) = std::fs::read_dir(d) else {
                continue;
            };
            for entry in entries.flatten() {
                seen += 1;
                if seen > MAX_TARGET_ENTRIES {
                    return Err(format!(
                        "`{}` holds more entries than are checked for links",
                        dir.display()
                    ));
                }
                let path = entry.path();
                if entry.file_type().is_ok_and(|t| t.is_dir()) {
                    next.push(path.clone());
                }
                out.push(path);
            }
        }
        level = next;
    }
    Ok(())
}

/// Why writing `path` may land where a build must not write, when it is a link: out of the
/// workspace, into a git directory, or onto protected configuration.
fn leads_away(places: &Places<'_>, path: &Path) -> Option<String> {
    let meta = std::fs::symlink_metadata(path).ok()?;
    if !meta.file_type().is_symlink() {
        return None;
    }
    let root = places.root();
    let shown = path
        .strip_prefix(root)
        .unwrap_or(path)
        .display()
        .to_string();
    let Ok(written) = std::fs::read_link(path) else {
        return Some(format!("`{shown}` is a link that cannot be read"));
    };
    let parent = path.parent().unwrap_or(root);
    // Where it leads: resolved when it exists, else as written (a dangling link is created
    // by the write).
    let lexical = normalized(&parent.join(&written));
    let target = std::fs::canonicalize(path).unwrap_or(lexical);
    let real_root = std::fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf());
    let inside = target.starts_with(&real_root) || target.starts_with(root);
    let relative = target
        .strip_prefix(&real_root)
        .or_else(|_| target.strip_prefix(root))
        .ok();
    let into_git = relative.is_some_and(|r| {
        r.components()
            .any(|c| matches!(c, Component::Normal(n) if n.eq_ignore_ascii_case(".git")))
    });
    if !inside || into_git {
        return Some(format!(
            "`{shown}` is a link to `{}`, so the build writes there",
            written.display()
        ));
    }
    let raw = target.to_string_lossy().into_owned();
    let located = places.locate(&raw, &WorkingDir::Root);
    places
        .protected(&located, &raw, &WorkingDir::Root)
        .map(|what| format!("`{shown}` is a link to `{}`, {what}", written.display()))
}

/// `path` with `.` and `..` components resolved lexically.
fn normalized(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}
