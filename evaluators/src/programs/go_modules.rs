//! Whether a Go build compiles code from outside the workspace through the module files it
//! reads: a `replace` whose target is a directory (`=> ../../elsewhere`, `=> /tmp/x`) builds
//! that directory's code in place of the module, and a `go.work` `use` adds a module from
//! there. Both are read from the main module's `go.mod` and the workspace file, the way the
//! `go` command reads them (the replacements of other modules are ignored).

use std::path::{Path, PathBuf};

/// The most module files read for one build.
const MAX_FILES: usize = 64;

/// The directives of a module file, single-line or in a block, each as its verb and the rest
/// of its line (comments removed, trimmed).
fn directives(text: &str) -> Vec<(&str, &str)> {
    let mut out = Vec::new();
    let mut block: Option<&str> = None;
    for line in text.lines() {
        let line = line.split("//").next().unwrap_or_default().trim();
        if line.is_empty() {
            continue;
        }
        match block {
            Some(_) if line == ")" => block = None,
            Some(verb) => out.push((verb, line)),
            None => {
                let (verb, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
                let rest = rest.trim();
                if rest == "(" {
                    block = Some(verb);
                } else {
                    out.push((verb, rest));
                }
            }
        }
    }
    out
}

/// The local directories a module file's `replace` and `use` directives name, single-line or
/// in a block, as written (quotes removed). A target is a directory when it starts with `./`,
/// `../` or `/` (or is `.`/`..`); a module path with a version is the module proxy's.
fn local_targets(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (verb, rest) in directives(text) {
        let target = match verb {
            "replace" => rest.split_once("=>").map(|(_, t)| t.trim()),
            "use" => Some(rest),
            _ => None,
        };
        let Some(target) = target else { continue };
        let path = unquoted(target.split_whitespace().next().unwrap_or_default());
        if is_local(path) {
            out.push(path.to_owned());
        }
    }
    out
}

/// A module path or version without the quotes a module file may put around it.
fn unquoted(word: &str) -> &str {
    word.trim_matches(['"', '`'])
}

/// Whether a `replace` or `use` target names a directory rather than a module.
fn is_local(path: &str) -> bool {
    path == "."
        || path == ".."
        || path.starts_with("./")
        || path.starts_with("../")
        || path.starts_with('/')
        || path.starts_with('\\')
        || path.contains('\\')
}

/// Why a `go` build in `start` may download modules, in words; `None` when the nearest
/// `go.mod` requires nothing, vendors its modules (go 1.14 on), or — for go 1.17 on, whose
/// `go.mod` lists every module a build needs — every module it requires is unpacked in
/// the module cache (`GOMODCACHE`, else `GOPATH`'s first entry's `pkg/mod`, else `~/go/pkg/mod`,
/// each read from this process's environment and then the user's `go env -w` file). A
/// workspace file (`go.work`), a module replaced by another module, or a file that cannot be
/// read is not proven.
pub(crate) fn downloads(start: &Path, home: Option<&Path>) -> Option<String> {
    if let Some(dir) = start.ancestors().find(|d| d.join("go.work").exists()) {
        return Some(format!(
            "`{}` chooses the modules, which is not read",
            dir.join("go.work").display()
        ));
    }
    let dir = start.ancestors().find(|d| d.join("go.mod").is_file())?;
    let text = match crate::paths::small_file::read_text(&dir.join("go.mod")) {
        Ok(Some(text)) => text,
        _ => return Some("its `go.mod` cannot be read".to_owned()),
    };
    // The language version the module says it is written for: go uses `vendor/` by default
    // from 1.14, and from 1.17 `go.mod` lists every module a build of its packages needs
    // (before, the requirements of its requirements are loaded too, and may be fetched).
    let version = language_version(&text);
    if version >= Some((1, 14)) && dir.join("vendor/modules.txt").is_file() {
        return None;
    }
    let mut required = Vec::new();
    for (verb, rest) in directives(&text) {
        match verb {
            "require" => {
                let mut words = rest.split_whitespace().map(unquoted);
                match (words.next(), words.next()) {
                    (Some(path), Some(version)) => required.push((path, version)),
                    _ => {
                        return Some(format!(
                            "`go.mod` has a requirement it cannot read: `{rest}`"
                        ));
                    }
                }
            }
            "replace" => {
                let target = rest.split_once("=>").map_or("", |(_, t)| t.trim());
                if !is_local(unquoted(
                    target.split_whitespace().next().unwrap_or_default(),
                )) {
                    return Some(format!("`go.mod` replaces a module by another: `{rest}`"));
                }
            }
            _ => {}
        }
    }
    if required.is_empty() {
        return None;
    }
    if version < Some((1, 17)) {
        return Some(
            "`go.mod` is for a go before 1.17, so the build loads the requirements of its \
             requirements, which it does not list"
                .to_owned(),
        );
    }
    let Some(cache) = module_cache(home) else {
        return Some("the module cache is not known".to_owned());
    };
    required.into_iter().find_map(|(path, version)| {
        let unpacked = cache.join(format!("{}@{}", escaped(path), escaped(version)));
        (!unpacked.is_dir()).then(|| {
            format!("`{path} {version}` is not in the module cache, so go would download it")
        })
    })
}

/// The language version a module file's `go` directive gives (`go 1.21.3` → `(1, 21)`;
/// `go 1.22rc1` → `(1, 22)`); `None` when there is none or it is not read.
fn language_version(text: &str) -> Option<(u32, u32)> {
    let (_, rest) = directives(text)
        .into_iter()
        .find(|(verb, _)| *verb == "go")?;
    let mut parts = rest.split('.');
    let major = parts.next()?.parse().ok()?;
    let minor: String = parts
        .next()?
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    Some((major, minor.parse().ok()?))
}

/// The module cache the `go` command uses, as [`downloads`] reads it; `None` when it is not
/// known.
fn module_cache(home: Option<&Path>) -> Option<PathBuf> {
    let env = crate::programs::go_toolchain::Environment::of_process(home);
    // A `go env -w` file that cannot be read may name another cache: not known.
    if let Some(cache) = env.setting("GOMODCACHE").ok()? {
        return Some(PathBuf::from(cache));
    }
    if let Some(gopath) = env.setting("GOPATH").ok()? {
        let first = std::env::split_paths(&gopath).next()?;
        return Some(first.join("pkg/mod"));
    }
    home.map(|h| h.join("go/pkg/mod"))
}

/// A module path or version as the module cache spells it: every capital letter as `!` and
/// the letter in lower case.
fn escaped(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_ascii_uppercase() {
            out.push('!');
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// What a `go` build started in any of `starts` (directories inside the workspace `root`,
/// resolved) compiles from outside the workspace through a `replace` or `use` directive, in
/// words; `None` when nothing. A module file that cannot be read counts.
pub(crate) fn code_outside(root: &Path, starts: &[PathBuf]) -> Option<String> {
    let mut files: Vec<PathBuf> = Vec::new();
    for start in starts {
        for dir in start.ancestors().take_while(|d| d.starts_with(root)) {
            for name in ["go.mod", "go.work"] {
                let file = dir.join(name);
                if file.exists() && !files.contains(&file) {
                    files.push(file);
                }
            }
        }
    }
    let mut at = 0;
    while let Some(file) = files.get(at).cloned() {
        at += 1;
        if files.len() > MAX_FILES {
            return Some(format!(
                "the build reads more than {MAX_FILES} module files"
            ));
        }
        let shown = file
            .strip_prefix(root)
            .unwrap_or(&file)
            .display()
            .to_string();
        let text = match crate::paths::small_file::read_text(&file) {
            Ok(Some(text)) => text,
            _ => return Some(format!("`{shown}` cannot be read")),
        };
        let dir = file.parent().unwrap_or(root);
        for target in local_targets(&text) {
            let full = dir.join(&target);
            // The nearest part that exists, links followed.
            let real = full.ancestors().find_map(|a| std::fs::canonicalize(a).ok());
            if target.contains('\\') || !real.is_some_and(|r| r.starts_with(root)) {
                return Some(format!(
                    "`{shown}` builds `{target}`, outside the workspace, in place of a module"
                ));
            }
            // A module a workspace file uses brings its own replacements.
            let used = full.join("go.mod");
            if file.ends_with("go.work") && used.exists() && !files.contains(&used) {
                files.push(used);
            }
        }
    }
    None
}

/// The import path of the Go module a command in `cwd` (below the workspace `root`) builds:
/// the `module` directive of the nearest `go.mod` at or above its directory, up to the root;
/// `None` when there is none, it cannot be read, or the directory is only known when it runs.
pub(crate) fn module_path(root: &Path, cwd: &crate::shell::WorkingDir) -> Option<String> {
    let start = match cwd {
        crate::shell::WorkingDir::Root => root.to_path_buf(),
        crate::shell::WorkingDir::Dir(d) => root.join(d),
        crate::shell::WorkingDir::Unknown => return None,
    };
    let root = std::fs::canonicalize(root).ok()?;
    let start = std::fs::canonicalize(start).ok()?;
    let dir = start
        .ancestors()
        .take_while(|d| d.starts_with(&root))
        .find(|d| d.join("go.mod").is_file())?;
    let text = crate::paths::small_file::read_text(&dir.join("go.mod"))
        .ok()
        .flatten()?;
    text.lines().find_map(|line| {
        let line = line.split("//").next().unwrap_or_default().trim();
        let path = line.strip_prefix("module")?;
        if !path.starts_with([' ', '\t', '"']) {
            return None;
        }
        let path = path.trim().trim_matches('"');
        (!path.is_empty() && !path.contains(char::is_whitespace)).then(|| path.to_owned())
    })
}

#[cfg(test)]
mod tests {
    use super::{code_outside, local_targets};

    #[test]
    fn replace_and_use_directives_name_local_directories() {
        let text = "module example.com/demo\n\ngo 1.22\n\nreplace example.com/a => ../a\n\
                    replace example.com/b v1.0.0 => example.com/c v1.1.0\n\
                    replace (\n\texample.com/d => \"/tmp/d\" // moved\n\texample.com/e => ./e\n)\n\
                    use (\n\t./x\n\t../y\n)\nuse ./z\n";
        assert_eq!(
            local_targets(text),
            vec!["../a", "/tmp/d", "./e", "./x", "../y", "./z"]
        );
    }

    #[test]
    fn a_module_replaced_by_a_directory_outside_is_code_from_elsewhere() {
        let outer = tempfile::tempdir().expect("dir");
        let root = outer.path().join("ws");
        std::fs::create_dir_all(root.join("lib")).expect("lib");
        let root = std::fs::canonicalize(&root).expect("root");
        let starts = vec![root.clone()];
        let module = |text: &str| std::fs::write(root.join("go.mod"), text).expect("go.mod");
        module("module example.com/demo\n\ngo 1.22\n\nreplace example.com/lib => ./lib\n");
        assert_eq!(code_outside(&root, &starts), None);
        module(
            "module example.com/demo\n\nreplace example.com/lib v1.2.0 => example.com/fork v1.2.1\n",
        );
        assert_eq!(code_outside(&root, &starts), None);
        for text in [
            "module m\n\nreplace example.com/lib => ../evil\n",
            "module m\n\nreplace (\n\texample.com/lib => /tmp/evil\n)\n",
            "module m\n\nreplace example.com/lib => \"../../evil\"\n",
        ] {
            module(text);
            assert!(code_outside(&root, &starts).is_some(), "{text}");
        }
        module("module m\n");
        std::fs::write(
            root.join("go.work"),
            "go 1.22\n\nuse (\n\t.\n\t../other\n)\n",
        )
        .expect("go.work");
        assert!(code_outside(&root, &starts).is_some());
        std::fs::write(root.join("go.work"), "go 1.22\n\nuse ./lib\n").expect("go.work");
        std::fs::write(
            root.join("lib/go.mod"),
            "module l\n\nreplace x => ../../evil\n",
        )
        .expect("lib go.mod");
        assert!(code_outside(&root, &starts).is_some());
        std::fs::write(root.join("lib/go.mod"), "module l\n").expect("lib go.mod");
        assert_eq!(code_outside(&root, &starts), None);
    }

    #[test]
    fn the_language_version_is_the_go_directive_s() {
        let version = |t: &str| super::language_version(t);
        assert_eq!(version("module m\n\ngo 1.21.3\n"), Some((1, 21)));
        assert_eq!(version("module m\ngo 1.22rc1 // next\n"), Some((1, 22)));
        assert_eq!(version("module m\ngo 1.9\n"), Some((1, 9)));
        assert_eq!(version("module m\n"), None);
        assert_eq!(version("module m\ngo one\n"), None);
        assert!(version("go 1.9") < Some((1, 14)) && version("go 1.14") >= Some((1, 14)));
    }

    #[test]
    fn the_module_path_is_the_nearest_go_mod_s() {
        let dir = tempfile::tempdir().expect("dir");
        let root = dir.path();
        let here = crate::shell::WorkingDir::Root;
        assert_eq!(super::module_path(root, &here), None);
        std::fs::write(
            root.join("go.mod"),
            "// c\nmodule example.com/demo // x\n\ngo 1.22\n",
        )
        .expect("go.mod");
        assert_eq!(
            super::module_path(root, &here).as_deref(),
            Some("example.com/demo")
        );
        std::fs::create_dir_all(root.join("sub/deep")).expect("dirs");
        std::fs::write(root.join("sub/go.mod"), "module \"example.com/sub\"\n").expect("go.mod");
        let deep = crate::shell::WorkingDir::Dir("sub/deep".into());
        assert_eq!(
            super::module_path(root, &deep).as_deref(),
            Some("example.com/sub")
        );
        assert_eq!(
            super::module_path(root, &crate::shell::WorkingDir::Unknown),
            None
        );
    }
}
