//! Whether `go version` or `go env` would switch toolchains: since Go 1.21 a `go` or
//! `toolchain` line of `go.mod`/`go.work` newer than the installed Go makes the `go` command
//! download that toolchain and run it instead (`GOTOOLCHAIN=auto`). The query only reads when
//! no `go` is installed (nothing runs), or when the installed one is at least as new as what
//! the module asks for and nothing else names a toolchain.

use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};

use crate::paths::small_file;

type Result<T> = std::result::Result<T, String>;

/// What the `go` command would read to choose its toolchain.
pub(crate) struct Environment {
    /// `PATH`, where `go` is looked up.
    pub path: Option<OsString>,
    /// `GOTOOLCHAIN`, when set.
    pub gotoolchain: Option<OsString>,
    /// The user's `go env -w` file (`$GOENV`, else the configuration directory's `go/env`).
    pub env_file: Option<PathBuf>,
}

impl Environment {
    /// The evaluating process's environment (the agent's, for a hook).
    pub(crate) fn of_process(home: Option<&Path>) -> Self {
        let var =
            |name: &str| crate::process_env::non_empty(name).map(std::borrow::Cow::into_owned);
        let env_file = var("GOENV").map(PathBuf::from).or_else(|| {
            var("XDG_CONFIG_HOME")
                .map(PathBuf::from)
                .or_else(|| home.map(|h| h.join(".config")))
                .map(|c| c.join("go/env"))
        });
        Self {
            path: var("PATH"),
            gotoolchain: var("GOTOOLCHAIN"),
            env_file,
        }
    }
}

impl Environment {
    /// The value the `go` command takes for `name`: this process's environment's, else the
    /// user's `go env -w` file's; an empty value is none.
    ///
    /// # Errors
    ///
    /// The file cannot be read.
    pub(crate) fn setting(&self, name: &str) -> Result<Option<String>> {
        if let Some(v) = crate::process_env::non_empty(name) {
            return Ok(Some(v.to_string_lossy().into_owned()));
        }
        match &self.env_file {
            Some(file) => Ok(setting(file, name)?.filter(|v| !v.is_empty())),
            None => Ok(None),
        }
    }
}

/// Whether the `go` command, run in `cwd`, keeps the installed toolchain.
///
/// # Errors
///
/// Why it may download and run another toolchain, or why that cannot be told.
pub(crate) fn keeps_local(cwd: &Path, env: &Environment) -> Result<()> {
    let Some(go) = env.path.as_deref().and_then(find_go) else {
        // No `go` to run: the command fails before it reads anything.
        return Ok(());
    };
    let choice = match &env.gotoolchain {
        Some(v) => Some(v.to_string_lossy().into_owned()),
        None => match &env.env_file {
            Some(file) => setting(file, "GOTOOLCHAIN")?,
            None => None,
        },
    };
    match choice.as_deref() {
        Some("local") => return Ok(()),
        None | Some("auto" | "path" | "local+auto" | "local+path") => {}
        Some(other) => return Err(format!("`GOTOOLCHAIN={other}` names a toolchain to run")),
    }
    let installed = installed_version(&go)?;
    let Some((file, text)) = module_file(cwd)? else {
        return Ok(());
    };
    for line in text.lines() {
        let mut words = line.split("//").next().unwrap_or("").split_whitespace();
        let wanted = match (words.next(), words.next(), words.next()) {
            (Some("go"), Some(v), None) => v.to_owned(),
            (Some("toolchain"), Some("default"), None) => continue,
            (Some("toolchain"), Some(v), None) => v
                .strip_prefix("go")
                .ok_or_else(|| format!("`{}` names the toolchain `{v}`", file.display()))?
                .to_owned(),
            (Some("go" | "toolchain"), ..) => {
                return Err(format!(
                    "`{}` has a line it cannot read: `{line}`",
                    file.display()
                ));
            }
            _ => continue,
        };
        let wanted = version(&wanted)
            .ok_or_else(|| format!("`{}` asks for Go `{wanted}`", file.display()))?;
        if wanted > installed {
            return Err(format!(
                "`{}` asks for a newer Go than the installed one, which the `go` command downloads and runs",
                file.display()
            ));
        }
    }
    Ok(())
}

/// The `go` program `PATH` finds, if any.
fn find_go(path: &OsStr) -> Option<PathBuf> {
    std::env::split_paths(path)
        .filter(|dir| dir.is_absolute())
        .map(|dir| dir.join("go"))
        .find(|candidate| candidate.is_file())
}

/// The version of the installed Go: its root's `VERSION` file (`go1.22.5`), the root being
/// the directory above the real program's `bin`.
fn installed_version(go: &Path) -> Result<Version> {
    let real = std::fs::canonicalize(go)
        .map_err(|e| format!("cannot resolve `{}` ({e})", go.display()))?;
    let root = real
        .parent()
        .and_then(Path::parent)
        .ok_or_else(|| format!("`{}` is not in a Go installation", go.display()))?;
    let file = root.join("VERSION");
    let text = small_file::read_text(&file)?.ok_or_else(|| {
        format!(
            "the installed Go at `{}` has no VERSION file",
            root.display()
        )
    })?;
    text.lines()
        .next()
        .and_then(|l| l.trim().strip_prefix("go"))
        .and_then(version)
        .ok_or_else(|| format!("`{}` does not say a Go version", file.display()))
}

/// The nearest `go.work` (workspace mode wins), else `go.mod`, from `cwd` up, with its text.
fn module_file(cwd: &Path) -> Result<Option<(PathBuf, String)>> {
    for name in ["go.work", "go.mod"] {
        let mut dir = Some(cwd);
        while let Some(d) = dir {
            let file = d.join(name);
            if let Some(text) = small_file::read_text(&file)? {
                return Ok(Some((file, text)));
            }
            dir = d.parent();
        }
    }
    Ok(None)
}

/// The value `file` (a `go env -w` file: `NAME=value` lines) gives `name`, if any.
fn setting(file: &Path, name: &str) -> Result<Option<String>> {
    let Some(text) = small_file::read_text(file)? else {
        return Ok(None);
    };
    Ok(text
        .lines()
        .filter_map(|l| l.split_once('='))
        .filter(|(k, _)| k.trim() == name)
        .map(|(_, v)| v.trim().to_owned())
        .next_back())
}

/// A Go release: major, minor, patch (a language version such as `1.21` is older than every
/// release `1.21.x`). Release candidates and betas are not read.
type Version = (u32, u32, Option<u32>);

fn version(text: &str) -> Option<Version> {
    let mut parts = text.split('.');
    let major = parts.next()?.parse().ok()?;
    let minor = parts.next()?.parse().ok()?;
    let patch = match parts.next() {
        Some(p) => Some(p.parse().ok()?),
        None => None,
    };
    parts.next().is_none().then_some((major, minor, patch))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An installed Go of `version` (its `bin/go` and `VERSION`), returned with its `bin`.
    fn install(version: &str) -> (tempfile::TempDir, PathBuf) {
        let root = tempfile::tempdir().unwrap();
        let bin = root.path().join("bin");
        std::fs::create_dir_all(&bin).unwrap();
        std::fs::write(bin.join("go"), "").unwrap();
        std::fs::write(
            root.path().join("VERSION"),
            format!("go{version}\ntime x\n"),
        )
        .unwrap();
        (root, bin)
    }

    fn env(path: &OsStr, gotoolchain: Option<&str>) -> Environment {
        Environment {
            path: Some(path.to_owned()),
            gotoolchain: gotoolchain.map(OsString::from),
            env_file: None,
        }
    }

    fn module(text: &str) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("go.mod"), text).unwrap();
        dir
    }

    #[test]
    fn a_module_no_newer_than_the_installed_go_keeps_it() {
        let (_go, bin) = install("1.22.5");
        let path = bin.as_os_str();
        for text in [
            "module x\n\ngo 1.21\n",
            "module x\ngo 1.22\n",
            "module x\ngo 1.22.5\ntoolchain go1.22.5\n",
            "module x\ngo 1.20 // old\ntoolchain default\n",
        ] {
            let m = module(text);
            assert_eq!(keeps_local(m.path(), &env(path, None)), Ok(()), "{text}");
        }
        // No module at all, and no Go at all.
        let empty = tempfile::tempdir().unwrap();
        assert_eq!(keeps_local(empty.path(), &env(path, None)), Ok(()));
        let m = module("module x\ngo 1.99\n");
        assert_eq!(
            keeps_local(m.path(), &env(OsStr::new("/nonexistent"), None)),
            Ok(())
        );
    }

    #[test]
    fn a_newer_or_unread_toolchain_is_not_proven() {
        let (_go, bin) = install("1.22.5");
        let path = bin.as_os_str();
        for text in [
            "module x\ngo 1.22.6\n",
            "module x\ngo 1.23\n",
            "module x\ngo 1.22\ntoolchain go1.23.0\n",
            "module x\ngo 1.22rc1\n",
            "module x\ntoolchain evil\n",
            "module x\ngo 1.21 1.22\n",
        ] {
            let m = module(text);
            assert!(keeps_local(m.path(), &env(path, None)).is_err(), "{text}");
        }
        // A go.work above wins over the module's own file.
        let outer = tempfile::tempdir().unwrap();
        std::fs::write(outer.path().join("go.work"), "go 1.30\n").unwrap();
        let inner = outer.path().join("m");
        std::fs::create_dir_all(&inner).unwrap();
        std::fs::write(inner.join("go.mod"), "module x\ngo 1.21\n").unwrap();
        assert!(keeps_local(&inner, &env(path, None)).is_err());
    }

    #[test]
    fn gotoolchain_decides_first() {
        let (_go, bin) = install("1.22.5");
        let path = bin.as_os_str();
        let m = module("module x\ngo 1.30\n");
        assert_eq!(keeps_local(m.path(), &env(path, Some("local"))), Ok(()));
        let plain = module("module x\ngo 1.21\n");
        assert!(keeps_local(plain.path(), &env(path, Some("go1.23.0"))).is_err());
        // From the user's `go env -w` file too.
        let conf = tempfile::tempdir().unwrap();
        let file = conf.path().join("env");
        std::fs::write(&file, "GOTOOLCHAIN=go1.23.0+auto\n").unwrap();
        let from_file = Environment {
            path: Some(path.to_owned()),
            gotoolchain: None,
            env_file: Some(file),
        };
        assert!(keeps_local(plain.path(), &from_file).is_err());
    }

    #[test]
    fn go_versions_order_as_go_orders_them() {
        assert!(version("1.21").unwrap() < version("1.21.0").unwrap());
        assert!(version("1.21.9").unwrap() < version("1.22").unwrap());
        assert!(version("1.22rc1").is_none());
        assert!(version("1").is_none());
    }
}
