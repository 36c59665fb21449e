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
    match crate::paths::git_index::Index::of(root) {
        Some(index) => candidates.extend(index.symlinks().map(|p| root.join(p))),
        // A split index, or one not read as a whole: every path it may record is looked at
        // (a link among them is judged where it leads), and one that cannot be read at all
        // may track any link, so none is known to stay.
        None => match crate::paths::git_index::tracked_paths(root) {
            Ok(paths) => candidates.extend(paths.into_iter().flatten().map(|p| root.join(p))),
            Err(why) => {
                return Some(format!(
                    "the links the repository tracks are unknown ({why})"
                ));
            }
        },
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
                let words: Vec<&str> = cmd
                    .args()
                    .iter()
                    .filter_map(crate::shell::Word::literal)
                    .collect();
                let derived = match c_derived(&base, &words) {
                    Ok(derived) => derived,
                    Err(why) => return Some(why),
                };
                for prefix in derived.prefixes {
                    for out in C_OUTPUTS {
                        let mut name = prefix.clone().into_os_string();
                        name.push(".");
                        name.push(out);
                        candidates.push(PathBuf::from(name));
                    }
                    if let Err(why) = prefixed_links(&prefix, &mut candidates) {
                        return Some(why);
                    }
                }
                candidates.extend(derived.named);
            }
            _ => {}
        }
    }
    candidates
        .into_iter()
        .find_map(|path| leads_away(places, &path, "so the build writes there"))
}

/// The files a C compile writes beyond those named on its command line.
struct Derived {
    /// What the names of the files it derives begin with (`main` for `main.s`, `main.d`,
    /// `main.c.005t.original`; `app` for `app.d` of `-o app`; `app-main` for gcc's
    /// auxiliary `app-main.i`).
    prefixes: Vec<PathBuf>,
    /// The files it is told to write (`-o`, `-MF`).
    named: Vec<PathBuf>,
}

/// The names a C compile in `base` with arguments `words` derives from its sources and its
/// `-o`, or why they are not known (`-dumpdir` and `-dumpbase` choose them).
fn c_derived(base: &Path, words: &[&str]) -> Result<Derived, String> {
    let mut stems: Vec<std::ffi::OsString> = Vec::new();
    let mut outputs: Vec<PathBuf> = Vec::new();
    let mut named: Vec<PathBuf> = Vec::new();
    let mut it = words.iter();
    while let Some(w) = it.next() {
        if w.starts_with("-dumpdir") || w.starts_with("-dumpbase") {
            return Err(format!(
                "`{w}` chooses where the compiler writes its auxiliary files"
            ));
        }
        match *w {
            "-o" => outputs.extend(it.next().map(|o| base.join(o))),
            "-MF" => named.extend(it.next().map(|o| base.join(o))),
            _ if w.starts_with("-o") => outputs.push(base.join(&w[2..])),
            _ if w.starts_with("-MF") => named.push(base.join(&w[3..])),
            _ => {
                let source = Path::new(w);
                if let (Some(stem), Some(ext)) = (source.file_stem(), source.extension())
                    && C_SOURCES.iter().any(|e| ext == *e)
                {
                    stems.push(stem.to_os_string());
                }
            }
        }
    }
    let mut prefixes: Vec<PathBuf> = stems.iter().map(|s| base.join(s)).collect();
    // Without `-o` a link writes `a.out`, and gcc names the auxiliary files `a-main.*`.
    if outputs.is_empty() {
        named.push(base.join("a.out"));
        prefixes.extend(stems.iter().map(|s| {
            let mut name = std::ffi::OsString::from("a-");
            name.push(s);
            base.join(name)
        }));
    }
    for out in &outputs {
        named.push(out.clone());
        // `app.d` of `-o app`, `x.d` of `-o x.o`, `app-main.i` of `-save-temps -o app`.
        let bare = out.with_extension("");
        prefixes.push(bare.clone());
        for s in &stems {
            let mut name = bare.clone().into_os_string();
            name.push("-");
            name.push(s);
            prefixes.push(PathBuf::from(name));
        }
    }
    Ok(Derived { prefixes, named })
}

/// The most entries of a directory looked at for links a compile's derived names may be.
const MAX_DIR_ENTRIES: usize = 16_384;

/// Puts into `out` the links in `prefix`'s directory whose names begin with its name: the
/// files a compile derives from it (dumps, `-save-temps`, `.su`) are among them.
fn prefixed_links(prefix: &Path, out: &mut Vec<PathBuf>) -> Result<(), String> {
    let (Some(dir), Some(start)) = (prefix.parent(), prefix.file_name()) else {
        return Ok(());
    };
    let start = start.as_encoded_bytes();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Ok(());
    };
    for (n, entry) in entries.flatten().enumerate() {
        if n >= MAX_DIR_ENTRIES {
            return Err(format!(
                "`{}` holds more entries than are checked for links",
                dir.display()
            ));
        }
        if entry.file_name().as_encoded_bytes().starts_with(start)
            && entry.file_type().is_ok_and(|t| t.is_symlink())
        {
            out.push(entry.path());
        }
    }
    Ok(())
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

/// The most entries of the workspace [`workspace_links`] looks at.
const MAX_WORKSPACE_ENTRIES: usize = 200_000;

/// Why a build may read or write through a link of the workspace somewhere it must not, in
/// words: a link anywhere in the workspace (tracked or not, in ignored directories too) that
/// leads out of it, into a git directory or onto protected configuration, or a file with
/// another name outside the workspace (a hard link). A build finds most of what it reads and
/// writes by itself (pytest's test directories and `conftest.py`, cargo's `build.rs` and
/// `src/`, tsc's `outDir`, the tools' caches): through `tests -> /elsewhere` it runs code from
/// there, through `out/a.js -> ~/.bashrc` it rewrites a shell's start-up file, and writing
/// `dist/a.js`, a hard link of `~/.bashrc`, rewrites that file. Left alone: a virtual
/// environment's interpreter leading to a compiled program (`.venv/bin/python ->
/// /usr/bin/python3`, which builds run and never write), links into the read-only Nix store,
/// and the hard links of installed packages ([`PACKAGE_DIRS`]: a package manager's store
/// links every file it installs). The git directory is not entered; a directory that cannot be read cannot be
/// reached through either. `None` when no such link is found.
pub(super) fn workspace_links(places: &Places<'_>) -> Option<String> {
    use std::os::unix::fs::MetadataExt;
    let root = places.root();
    let mut dirs = vec![(root.to_path_buf(), false)];
    let mut seen = 0usize;
    // Each file with more than one name: its names found in the workspace, its count of
    // names, and one of its paths.
    let mut linked: rustc_hash::FxHashMap<(u64, u64), (u64, u64, PathBuf)> =
        rustc_hash::FxHashMap::default();
    while let Some((dir, packages)) = dirs.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            seen += 1;
            if seen > MAX_WORKSPACE_ENTRIES {
                return Some(format!(
                    "the workspace holds more than {MAX_WORKSPACE_ENTRIES} entries, more than are checked for links"
                ));
            }
            let Ok(kind) = entry.file_type() else {
                return Some(format!(
                    "the kind of `{}` cannot be read",
                    entry.path().display()
                ));
            };
            let path = entry.path();
            if kind.is_symlink() {
                if !known_harmless(&path)
                    && let Some(why) = leads_away(
                        places,
                        &path,
                        "so the build may run, read or write what it finds there",
                    )
                {
                    return Some(why);
                }
            } else if kind.is_dir() && entry.file_name() != ".git" {
                let packages = packages || PACKAGE_DIRS.iter().any(|d| entry.file_name() == *d);
                dirs.push((path, packages));
            } else if kind.is_file()
                && let Ok(meta) = entry.metadata()
                && meta.nlink() > 1
            {
                let names =
                    linked
                        .entry((meta.dev(), meta.ino()))
                        .or_insert((0, meta.nlink(), path));
                // A file of `node_modules` counts as found wherever its other names are.
                names.0 += if packages { meta.nlink() } else { 1 };
            }
        }
    }
    linked
        .into_values()
        .find(|(found, names, _)| found < names)
        .map(|(_, _, path)| {
            format!(
                "`{}` is a file with a name outside the workspace (a hard link), so the build may write there",
                path.strip_prefix(root).unwrap_or(&path).display()
            )
        })
}

/// The directories whose files a package manager installs from its store by linking them
/// (pnpm and bun into `node_modules`, uv and conda into a virtual environment's
/// `site-packages`): their other names are the store's.
const PACKAGE_DIRS: &[&str] = &[
    "node_modules",
    "site-packages",
    "dist-packages",
    ".venv",
    "venv",
    ".tox",
    ".nox",
    "__pypackages__",
    ".conda",
];

/// Whether the link at `path` is one every environment of a kind holds and a build only reads
/// or runs: a virtual environment's interpreter (`VENV/bin/python3.12` beside
/// `VENV/pyvenv.cfg`) leading to a compiled program (an ELF or Mach-O file, not a script a
/// build would run as the interpreter), a link into the Nix store, which is mounted
/// read-only, or into the system's own `/usr` (not `/usr/local`), owned by the administrator
/// and writable by no one else.
fn known_harmless(path: &Path) -> bool {
    let Ok(target) = std::fs::canonicalize(path) else {
        return false;
    };
    if target.starts_with("/nix/store/") {
        return true;
    }
    // The system's own files (`.venv/system-site -> /usr/lib/python3/dist-packages`): code
    // every build runs anyway, which only the administrator writes.
    if target.starts_with("/usr/") && !target.starts_with("/usr/local/") {
        use std::os::unix::fs::MetadataExt;
        return std::fs::metadata(&target).is_ok_and(|m| m.uid() == 0 && m.mode() & 0o022 == 0);
    }
    let interpreter = path
        .file_name()
        .is_some_and(|n| n.as_encoded_bytes().starts_with(b"python"));
    let venv = path
        .parent()
        .filter(|bin| bin.file_name().is_some_and(|n| n == "bin"))
        .and_then(Path::parent)
        .is_some_and(|env| env.join("pyvenv.cfg").is_file());
    interpreter && venv && target.is_file() && compiled(&target)
}

/// Whether the file at `path` begins as a compiled program does (ELF, Mach-O).
fn compiled(path: &Path) -> bool {
    use std::io::Read;
    let mut magic = [0u8; 4];
    std::fs::File::open(path)
        .and_then(|mut f| f.read_exact(&mut magic))
        .is_ok()
        && matches!(
            magic,
            [0x7f, b'E', b'L', b'F']
                | [0xcf, 0xfa, 0xed, 0xfe]
                | [0xfe, 0xed, 0xfa, 0xcf]
                | [0xca, 0xfe, 0xba, 0xbe]
        )
}

/// Why writing `path` may land where a build must not write, when it is a link: out of the
/// workspace, into a git directory, or onto protected configuration.
///
/// `effect` says what the build does there (`so the build writes there`).
fn leads_away(places: &Places<'_>, path: &Path, effect: &str) -> Option<String> {
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
            "`{shown}` is a link to `{}`, {effect}",
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Why `command`, run at the top of `root`, writes through a link.
    fn why(root: &Path, command: &str) -> Option<String> {
        let places = Places::new(root, None, None);
        written_through(&places, &crate::shell::parse(command).expect("parses"))
    }

    fn git(root: &Path, args: &[&str]) {
        let out = std::process::Command::new("git")
            .args(args)
            .current_dir(root)
            .output()
            .expect("git runs");
        assert!(out.status.success(), "{args:?}: {out:?}");
    }

    #[test]
    fn the_names_a_compile_derives_from_its_output_are_checked() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir_all(root.join(".git")).unwrap();
        std::fs::create_dir_all(root.join("src")).unwrap();
        std::fs::write(root.join("src/main.c"), "int main(void) { return 0; }\n").unwrap();
        assert_eq!(why(root, "cc -MMD -o app src/main.c"), None);
        std::os::unix::fs::symlink(".git/config", root.join("app.d")).unwrap();
        std::os::unix::fs::symlink(".git/config", root.join("x.d")).unwrap();
        std::os::unix::fs::symlink(".git/config", root.join("dep.mk")).unwrap();
        std::os::unix::fs::symlink(".git/hooks/pre-commit", root.join("main.c.005t.original"))
            .unwrap();
        for c in [
            "cc -MMD -o app src/main.c",
            "gcc -MMD -MP -oapp src/main.c",
            "cc -c -MMD -o x.o src/main.c",
            "cc -MMD -MF dep.mk -c src/main.c",
            "cc -fdump-tree-original -c src/main.c",
            "cc -dumpbase z -c src/main.c",
        ] {
            assert!(why(root, c).is_some(), "{c}");
        }
        std::fs::remove_file(root.join("main.c.005t.original")).unwrap();
        assert_eq!(why(root, "cc -c -o y.o src/main.c"), None);
    }

    #[test]
    fn a_split_index_is_read_with_its_shared_index_and_one_not_read_leaves_links_unknown() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        git(root, &["init", "-q"]);
        std::fs::write(root.join("main.c"), "int main(void) { return 0; }\n").unwrap();
        git(root, &["add", "main.c"]);
        assert_eq!(why(root, "cc -c main.c"), None);
        git(root, &["update-index", "--split-index"]);
        assert_eq!(why(root, "cc -c main.c"), None);
        // A link in the shared index, and one the split index adds.
        std::os::unix::fs::symlink(".git/config", root.join("t.d")).unwrap();
        git(root, &["add", "t.d"]);
        git(root, &["update-index", "--split-index"]);
        std::os::unix::fs::symlink(".git/config", root.join("u.d")).unwrap();
        git(root, &["add", "u.d"]);
        assert!(crate::paths::git_index::Index::of(root).is_none());
        let paths = crate::paths::git_index::tracked_paths(root)
            .unwrap()
            .unwrap();
        assert!(paths.contains(&"t.d".to_owned()), "{paths:?}");
        assert!(paths.contains(&"u.d".to_owned()), "{paths:?}");
        assert!(why(root, "cc -c main.c").is_some());
        // A shared index that is gone leaves them unknown.
        std::fs::remove_file(root.join("t.d")).unwrap();
        std::fs::remove_file(root.join("u.d")).unwrap();
        assert_eq!(why(root, "cc -c main.c"), None);
        for e in std::fs::read_dir(root.join(".git")).unwrap().flatten() {
            if e.file_name().to_string_lossy().starts_with("sharedindex.") {
                std::fs::remove_file(e.path()).unwrap();
            }
        }
        assert!(why(root, "cc -c main.c").is_some());
    }
}
