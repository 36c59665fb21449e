//! Whether a routine build fetches what it compiles or runs from the network: cargo and go
//! download the dependencies their lock and module files name when the machine's cache lacks
//! them (and then run their build scripts and compile their code), a newer toolchain than the
//! installed one for go; Maven, Gradle and `dotnet` resolve theirs from remote repositories
//! unless told to stay offline. What was fetched is code from outside the workspace, which the
//! reviewer never calls routine; what the caches already hold was fetched before, pinned by
//! the lock file, and is read as it is.

use std::path::{Path, PathBuf};

use crate::shell::{Script, WorkingDir};

/// The cargo subcommands that never resolve dependencies.
const CARGO_RESOLVES_NOTHING: &[&str] = &["fmt"];

/// The go subcommands that load the module's packages, fetching what is missing.
const GO_LOADS_PACKAGES: &[&str] = &["build", "test", "vet", "run", "list"];

/// The options that keep each JVM and .NET build tool from the network.
const OFFLINE: &[(&str, &[&str])] = &[
    ("mvn", &["-o", "--offline"]),
    ("gradle", &["--offline"]),
    ("dotnet", &["--no-restore", "--no-build"]),
];

/// What the builds of `script` (run from the workspace `root`) may download, in words;
/// `None` when every one is proven to find everything on the machine. `home` is the user's
/// home, where cargo's and go's caches are.
pub(super) fn what_builds_download(
    root: &Path,
    script: &Script,
    home: Option<&Path>,
) -> Option<String> {
    for (_, cmd) in script.leaves() {
        let Some(program) = cmd.program() else {
            continue;
        };
        let words: Vec<&str> = cmd
            .args()
            .iter()
            .map(|w| w.literal().unwrap_or("\0"))
            .collect();
        // The words after `--` are the program's or the test runner's, not the tool's.
        let own = words
            .iter()
            .position(|w| *w == "--")
            .map_or(&words[..], |end| &words[..end]);
        let sub = own.iter().find(|w| !w.starts_with(['-', '+'])).copied();
        let why = match program {
            "cargo" => {
                if sub.is_none_or(|s| CARGO_RESOLVES_NOTHING.contains(&s))
                    || own.iter().any(|w| matches!(*w, "--offline" | "--frozen"))
                {
                    continue;
                }
                let start = match start_dir(root, &cmd.cwd, manifest_dir(own)) {
                    Ok(start) => start,
                    Err(why) => return Some(why),
                };
                crate::programs::cargo_lock::fetches_nothing_in_homes(&start, home)
                    .err()
                    .map(|why| format!("cargo may download crates and run their build code: {why}"))
            }
            "go" => {
                if !sub.is_some_and(|s| GO_LOADS_PACKAGES.contains(&s)) {
                    continue;
                }
                let start = match start_dir(root, &cmd.cwd, None) {
                    Ok(start) => start,
                    Err(why) => return Some(why),
                };
                let env = crate::programs::go_toolchain::Environment::of_process(home);
                crate::programs::go_toolchain::keeps_local(&start, &env)
                    .err()
                    .or_else(|| crate::programs::go_modules::downloads(&start, home))
                    .map(|why| format!("go may download code: {why}"))
            }
            p => match OFFLINE.iter().find(|(tool, _)| *tool == p) {
                Some((tool, flags)) if !own.iter().any(|w| flags.contains(w)) => Some(format!(
                    "`{tool}` fetches the dependencies and plugins the cache lacks unless given `{}`",
                    flags.join("` or `")
                )),
                _ => continue,
            },
        };
        if why.is_some() {
            return why;
        }
    }
    None
}

/// The directory `--manifest-path` names the manifest of, as written, when the words give
/// one.
fn manifest_dir<'a>(own: &[&'a str]) -> Option<&'a str> {
    own.iter().enumerate().find_map(|(k, w)| {
        let value = match w.strip_prefix("--manifest-path")? {
            "" => own.get(k + 1).copied()?,
            v => v.strip_prefix('=')?,
        };
        Some(value.rsplit_once('/').map_or(".", |(dir, _)| dir))
    })
}

/// The directory a build starts from (its working directory, then `--manifest-path`'s),
/// links followed, or why it cannot be told.
fn start_dir(root: &Path, cwd: &WorkingDir, manifest: Option<&str>) -> Result<PathBuf, String> {
    let base = match cwd {
        WorkingDir::Root => root.to_path_buf(),
        WorkingDir::Dir(d) => root.join(d),
        WorkingDir::Unknown => {
            return Err("a build runs in a directory only known when it runs".to_owned());
        }
    };
    let dir = match manifest {
        Some(m) => base.join(m),
        None => base,
    };
    std::fs::canonicalize(&dir).map_err(|e| {
        format!(
            "the build's directory `{}` cannot be read: {e}",
            dir.display()
        )
    })
}

#[cfg(test)]
mod tests {
    use super::what_builds_download;
    use crate::shell::{WorkingDir, parse_given};

    fn downloads(root: &std::path::Path, home: &std::path::Path, line: &str) -> Option<String> {
        let script = parse_given(line, WorkingDir::Root, false).expect("parsed");
        what_builds_download(root, &script, Some(home))
    }

    #[test]
    fn a_cargo_build_with_a_registry_package_not_on_the_machine_downloads() {
        let ws = tempfile::tempdir().expect("ws");
        let home = tempfile::tempdir().expect("home");
        let root = ws.path();
        // No manifest: nothing is built, nothing fetched.
        assert_eq!(downloads(root, home.path(), "cargo build"), None);
        std::fs::write(
            root.join("Cargo.toml"),
            "[package]\nname = \"x\"\nversion = \"0.1.0\"\n\n[dependencies]\nserde = \"1\"\n",
        )
        .expect("manifest");
        for line in [
            "cargo build",
            "cargo check",
            "cargo test",
            "cargo run -- --offline",
            "cargo +nightly clippy",
            "cargo build --manifest-path ./Cargo.toml",
            "cargo fmt && cargo doc",
        ] {
            let why = downloads(root, home.path(), line);
            assert!(
                why.as_deref()
                    .is_some_and(|w| w.contains("cargo may download")),
                "{line}: {why:?}"
            );
        }
        for line in [
            "cargo build --offline",
            "cargo test --frozen",
            "cargo fmt",
            "cargo",
        ] {
            assert_eq!(downloads(root, home.path(), line), None, "{line}");
        }
        // Only the workspace's own packages: nothing to fetch.
        std::fs::write(
            root.join("Cargo.toml"),
            "[package]\nname = \"x\"\nversion = \"0.1.0\"\n",
        )
        .expect("manifest");
        assert_eq!(downloads(root, home.path(), "cargo build"), None);
    }

    #[test]
    fn a_go_build_of_a_module_not_in_the_module_cache_downloads() {
        let ws = tempfile::tempdir().expect("ws");
        let home = tempfile::tempdir().expect("home");
        let root = ws.path();
        std::fs::write(root.join("go.mod"), "module example.com/demo\n\ngo 1.21\n").expect("mod");
        assert_eq!(downloads(root, home.path(), "go build ./..."), None);
        std::fs::write(
            root.join("go.mod"),
            "module example.com/demo\n\ngo 1.21\n\nrequire (\n\tgithub.com/Warrant-Test/Missing v1.2.3 // indirect\n)\n",
        )
        .expect("mod");
        for line in [
            "go build ./...",
            "go test ./...",
            "go vet",
            "go run .",
            "go list -m all",
        ] {
            assert!(downloads(root, home.path(), line).is_some(), "{line}");
        }
        assert_eq!(downloads(root, home.path(), "go fmt ./..."), None);
        assert_eq!(downloads(root, home.path(), "go version"), None);
        // Unpacked in the cache under the module cache's spelling (capitals escaped).
        let env_sets_cache = ["GOMODCACHE", "GOPATH"]
            .iter()
            .any(|v| crate::process_env::non_empty(v).is_some());
        if !env_sets_cache {
            std::fs::create_dir_all(
                home.path()
                    .join("go/pkg/mod/github.com/!warrant-!test/!missing@v1.2.3"),
            )
            .expect("cache");
            assert_eq!(downloads(root, home.path(), "go build ./..."), None);
        }
        // Before go 1.17, the requirements of requirements are loaded too: unlisted.
        let older = "module example.com/demo\n\ngo 1.16\n\nrequire github.com/Warrant-Test/Missing v1.2.3\n";
        std::fs::write(root.join("go.mod"), older).expect("mod");
        assert!(downloads(root, home.path(), "go build ./...").is_some());
        // Vendored modules are not fetched, from go 1.14 on (before, or with no `go` line,
        // `vendor/` is not used); a module replaced by another one, or a workspace file, is
        // not read.
        std::fs::create_dir_all(root.join("vendor")).expect("vendor");
        std::fs::write(root.join("vendor/modules.txt"), "").expect("modules.txt");
        assert_eq!(downloads(root, home.path(), "go test ./..."), None);
        for unvendored in [
            "module example.com/demo\n\ngo 1.13\n\nrequire github.com/Warrant-Test/Missing v1.2.3\n",
            "module example.com/demo\n\nrequire github.com/Warrant-Test/Missing v1.2.3\n",
        ] {
            std::fs::write(root.join("go.mod"), unvendored).expect("mod");
            assert!(
                downloads(root, home.path(), "go test ./...").is_some(),
                "{unvendored}"
            );
        }
        std::fs::remove_dir_all(root.join("vendor")).expect("vendor removed");
        std::fs::write(
            root.join("go.mod"),
            "module example.com/demo\n\nreplace example.com/a => example.com/b v1.0.0\n",
        )
        .expect("mod");
        assert!(downloads(root, home.path(), "go build").is_some());
        std::fs::write(root.join("go.mod"), "module example.com/demo\n").expect("mod");
        std::fs::write(root.join("go.work"), "go 1.21\n\nuse .\n").expect("work");
        assert!(downloads(root, home.path(), "go build").is_some());
    }

    #[test]
    fn jvm_and_dotnet_builds_must_be_told_to_stay_offline() {
        let ws = tempfile::tempdir().expect("ws");
        let home = tempfile::tempdir().expect("home");
        for line in ["mvn test", "mvn package", "gradle build", "dotnet test"] {
            assert!(downloads(ws.path(), home.path(), line).is_some(), "{line}");
        }
        for line in [
            "mvn -o test",
            "mvn --offline verify",
            "gradle --offline check",
            "dotnet build --no-restore",
        ] {
            assert_eq!(downloads(ws.path(), home.path(), line), None, "{line}");
        }
    }
}
