//! Protected places that only the machine tells: the hooks directory git actually uses
//! (`core.hooksPath` of the repository's and the user's configuration), the repository's
//! own state below its git directory (objects, refs, index, `HEAD`), and the directories of
//! the real `PATH`. A write there is what a write of protected configuration is: a hook or
//! a program on `PATH` planted runs later, outside any call's review, and a file of the
//! repository's state removed or overwritten destroys its history as removing `.git` does.

use std::path::{Path, PathBuf};

/// What a file of the hooks directory `core.hooksPath` names is.
const HOOKS: &str = "Git hooks (the directory core.hooksPath names), which git runs";

/// What a file below a git directory is.
pub(crate) const GIT_STATE: &str = "the repository's own state (objects, refs, index, HEAD), which only git writes: writing or removing it destroys history as removing `.git` does";

/// What a file the repository's configuration includes is.
const INCLUDED: &str = "a file the repository's Git config includes, which may hold tokens";

/// What a file the repository's credential helpers or `http.cookieFile` name is.
const STORE: &str = "a file the repository's Git config keeps credentials in";

/// What a file a program of the repository's configuration names is.
const RUN_BY_GIT: &str = "a program the repository's Git config runs by itself (core.fsmonitor, a diff driver, a filter, an alias), which git runs later";

/// What a file or directory a workspace's `.envrc` loads is.
const LOADED_BY_DIRENV: &str = "a file the workspace's `.envrc` loads (direnv), which runs in the user's shell when they enter the directory";

/// What a directory of the `PATH` is.
const ON_PATH: &str = "a directory of the PATH, whose programs run in place of the system's";

/// The most `PATH` entries read; the rest are read as none (a longer `PATH` is not one a
/// person set up).
const MAX_PATH_ENTRIES: usize = 256;

/// The most workspaces whose protected places are kept at once (the least recently used
/// is dropped).
const MAX_KEPT: usize = 8;

/// The most times [`Effective::kept`] finds the places before it gives up keeping them.
const MAX_FINDINGS: usize = 4;

/// What protected places were found for. The variables naming git's configuration files
/// (`GIT_CONFIG_GLOBAL`, `GIT_CONFIG_SYSTEM`, `XDG_CONFIG_HOME`) are the process's, read
/// once ([`crate::process_env`]), so they are the same for every key.
#[derive(Debug, PartialEq, Eq)]
struct Key {
    root: PathBuf,
    home: Option<PathBuf>,
    path_var: Option<std::ffi::OsString>,
}

impl Key {
    /// Whether this is the key of `root`, `home` and `path_var`, compared without copying
    /// them.
    fn is(&self, root: &Path, home: Option<&Path>, path_var: Option<&std::ffi::OsStr>) -> bool {
        self.root == root && self.home.as_deref() == home && self.path_var.as_deref() == path_var
    }
}

/// Protected places kept, with the watch of what they were found from.
#[derive(Debug)]
struct Kept {
    key: Key,
    found: std::sync::Arc<Effective>,
    watch: super::watch::Watch,
}

/// The places kept, the most recently used last.
static KEPT: std::sync::Mutex<Vec<Kept>> = std::sync::Mutex::new(Vec::new());

/// The protected directories of one workspace, found once per evaluation.
#[derive(Debug, Default)]
pub(crate) struct Effective {
    /// Directories below which every path is protected, with what they are.
    dirs: Vec<(PathBuf, &'static str)>,
    /// Files that hold what `.git/config` may (tokens), with what they are: the files the
    /// repository's configuration includes (`include.path`, `includeIf`) and the files its
    /// credential helpers and `http.cookieFile` keep credentials in, as written and as
    /// resolved.
    secret_files: Vec<(PathBuf, &'static str)>,
    /// Whether every entry of the search path is an absolute directory outside the
    /// workspace (as written and as resolved), all of them read: then no program name is
    /// found inside the workspace through it, whatever the name.
    path_outside: bool,
}

impl Effective {
    /// The protected directories of the workspace `root` (the user's home `home`, when
    /// known) with the search path `path_var`: the hooks directories that `core.hooksPath`
    /// of the repository's configuration and of the user's name, the git directory a
    /// `.git` file names (and its common directory), and each absolute directory of
    /// `path_var` outside the workspace (a project's own `node_modules/.bin` is its own).
    /// A configuration that cannot be read adds nothing here: git run over it is judged
    /// where git runs.
    pub(crate) fn of(root: &Path, home: Option<&Path>, path_var: Option<&std::ffi::OsStr>) -> Self {
        let mut dirs = Vec::new();
        let mut add = |dir: PathBuf, what: &'static str| {
            if let Ok(real) = super::watch::canonicalize(&dir)
                && real != dir
            {
                dirs.push((real, what));
            }
            dirs.push((super::normalize(&dir), what));
        };
        // The repository's git directory when `.git` is a file (a linked worktree, a
        // separate git directory): its state and its common directory's. A `.git`
        // directory is protected by name wherever it lies.
        let git_dir = super::git_index::git_dir_of(root);
        let common = super::git_index::common_dir(&git_dir);
        if root.join(".git").is_file() {
            add(git_dir.clone(), GIT_STATE);
            if let Some(common) = &common {
                add(common.clone(), GIT_STATE);
            }
        }
        let mut hooks = Vec::new();
        let mut secret_files = Vec::new();
        let mut configs = vec![git_dir.join("config"), git_dir.join("config.worktree")];
        if let Some(common) = &common {
            configs.push(common.join("config"));
        }
        for config in &configs {
            {
                // What the configuration names that can be read counts, whatever of it
                // cannot be.
                let named = super::git_config::named_so_far(config, home);
                hooks.extend(named.hooks);
                // A program git runs by itself is run in the work tree's top.
                for line in &named.programs {
                    for file in command_files(line) {
                        add(root.join(file), RUN_BY_GIT);
                    }
                }
                // A relative store is relative to where git runs: the work tree's top is
                // where it usually does.
                let stores = named.stores.into_iter().map(|f| (root.join(f), STORE));
                for (file, what) in named
                    .included
                    .into_iter()
                    .map(|f| (f, INCLUDED))
                    .chain(stores)
                {
                    if let Ok(real) = super::watch::canonicalize(&file) {
                        secret_files.push((real, what));
                    }
                    secret_files.push((super::normalize(&file), what));
                }
            }
        }
        if let Ok(found) = super::git_config::outer_hooks_paths(home) {
            hooks.extend(found);
        }
        for written in hooks {
            let dir = if let Some(rest) = written.strip_prefix("~/") {
                match home {
                    Some(home) => home.join(rest),
                    None => continue,
                }
            } else if written.starts_with('~') || written.starts_with("%(") {
                continue;
            } else {
                // A relative hooks path is read from the work tree's top.
                root.join(&written)
            };
            add(dir, HOOKS);
        }
        for file in direnv_loads(root) {
            add(file, LOADED_BY_DIRENV);
        }
        let mut path_outside = true;
        if let Some(path_var) = path_var {
            let entries = std::env::split_paths(path_var);
            path_outside = std::env::split_paths(path_var)
                .nth(MAX_PATH_ENTRIES)
                .is_none();
            for dir in entries.take(MAX_PATH_ENTRIES) {
                // A relative entry is the directory a command runs in; `/` alone would
                // protect every path.
                if !dir.is_absolute() {
                    path_outside = false;
                    continue;
                }
                let normal = super::normalize(&dir);
                let real = super::watch::canonicalize(&normal).unwrap_or_else(|_| normal.clone());
                let inside =
                    dir.starts_with(root) || normal.starts_with(root) || real.starts_with(root);
                path_outside &= !inside;
                if normal == Path::new("/") {
                    continue;
                }
                // The system's own directories (`/usr/local/bin`) are judged as the
                // system's, more strictly.
                let system = |d: &Path| super::SYSTEM.iter().any(|s| d.starts_with(s));
                if inside || system(&normal) {
                    continue;
                }
                add(normal, ON_PATH);
            }
        }
        Self {
            dirs,
            secret_files,
            path_outside,
        }
    }

    /// Whether no entry of the search path these places were found with is relative, empty
    /// or inside the workspace, as written or resolved: a program name is then never found
    /// in the workspace through it.
    pub(crate) fn path_outside(&self) -> bool {
        self.path_outside
    }

    /// [`Effective::of`], kept between evaluations while nothing it was found from changes
    /// (see [`super::watch`]): the configuration files read, every name looked up resolving
    /// the directories it names. The answer depends on the evaluating process's variables
    /// naming git's configuration too, which are read once for the process; while
    /// `GIT_CONFIG_COUNT` gives entries of its own, nothing is kept.
    pub(crate) fn kept(
        root: &Path,
        home: Option<&Path>,
        path_var: Option<&std::ffi::OsStr>,
    ) -> std::sync::Arc<Self> {
        if crate::process_env::var("GIT_CONFIG_COUNT").is_some() {
            return std::sync::Arc::new(Self::of(root, home, path_var));
        }
        let mut kept = KEPT
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(at) = kept.iter().position(|k| k.key.is(root, home, path_var)) {
            if !kept[at].watch.changed() {
                let found = std::sync::Arc::clone(&kept[at].found);
                // The most recently used last (most calls find it there already).
                if at + 1 != kept.len() {
                    let entry = kept.remove(at);
                    kept.push(entry);
                }
                return found;
            }
            kept.remove(at);
        }
        drop(kept);
        let key = Key {
            root: root.to_path_buf(),
            home: home.map(Path::to_path_buf),
            path_var: path_var.map(std::ffi::OsStr::to_os_string),
        };
        let Some(mut watch) = super::watch::Watch::new() else {
            return std::sync::Arc::new(Self::of(root, home, path_var));
        };
        let mut watched: Vec<PathBuf> = Vec::new();
        // Found, then every name it was found from watched, then found again: what the
        // second finding read was watched before it read it. A finding that reads names the
        // one before did not is watched and found again, a few times at most.
        for _ in 0..MAX_FINDINGS {
            let (found, noted) = super::watch::collecting(|| Self::of(root, home, path_var));
            let found = std::sync::Arc::new(found);
            let Some(noted) = noted else {
                return found;
            };
            let new: Vec<PathBuf> = noted.into_iter().filter(|p| !watched.contains(p)).collect();
            if new.is_empty() && !watched.is_empty() {
                let mut kept = KEPT
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner);
                if kept.len() >= MAX_KEPT {
                    kept.remove(0);
                }
                kept.push(Kept {
                    key,
                    found: std::sync::Arc::clone(&found),
                    watch,
                });
                return found;
            }
            for path in new {
                if !watch.add(&path) {
                    return found;
                }
                watched.push(path);
            }
        }
        std::sync::Arc::new(Self::of(root, home, path_var))
    }

    /// What `path` (absolute, normal) is, when the repository's configuration names it as a
    /// file that holds what `.git/config` may (tokens): included, or a credential store.
    pub(crate) fn secret_file(&self, path: &Path) -> Option<&'static str> {
        self.secret_files
            .iter()
            .find(|(p, _)| p == path)
            .map(|(_, what)| *what)
    }

    /// What `path` (absolute, normal) is, if it lies in a protected directory or is a file
    /// of a git directory ([`git_state`]).
    pub(crate) fn protects(&self, path: &Path) -> Option<&'static str> {
        if git_state(path) {
            return Some(GIT_STATE);
        }
        self.dirs
            .iter()
            .find(|(dir, _)| path.starts_with(dir))
            .map(|(_, what)| *what)
    }

    /// What a write of a tree into the directory `dir` may reach: a protected directory
    /// `dir` lies in or (unless `within`) holds.
    pub(crate) fn protects_below(&self, dir: &Path, within: bool) -> Option<&'static str> {
        if git_state(dir) {
            return Some(GIT_STATE);
        }
        self.dirs
            .iter()
            .find(|(d, _)| dir.starts_with(d) || (!within && d.starts_with(dir)))
            .map(|(_, what)| *what)
    }
}

/// Whether `path` is a git directory `.git` or lies below one (any case, as a
/// case-insensitive file system opens `.GIT`), but the ignore list `.git/info/exclude`,
/// which holds no history and runs nothing.
pub(crate) fn git_state(path: &Path) -> bool {
    // A component `.git` in any case is four bytes of the path: most paths hold none.
    let bytes = path.as_os_str().as_encoded_bytes();
    if !bytes.windows(4).any(|w| w.eq_ignore_ascii_case(b".git")) {
        return false;
    }
    let parts: Vec<&std::ffi::OsStr> = path
        .components()
        .filter_map(|c| match c {
            std::path::Component::Normal(n) => Some(n),
            _ => None,
        })
        .collect();
    let Some(at) = parts
        .iter()
        .position(|p| p.to_str().is_some_and(|p| p.eq_ignore_ascii_case(".git")))
    else {
        return false;
    };
    let rest: Vec<String> = parts[at + 1..]
        .iter()
        .map(|p| p.to_string_lossy().to_ascii_lowercase())
        .collect();
    rest != ["info", "exclude"]
}

/// The files of the workspace a command line a configuration gives names, relative to
/// where it runs: the program when written with a `/` (`tools/fsm.sh`, `./x`), and every
/// word after it that is no option (`sh tools/st.sh`, `python3 fsm.py`); an alias's `!` is
/// its shell. Words that name the directory itself or above it are left out.
fn command_files(line: &str) -> Vec<PathBuf> {
    let line = line.trim().trim_start_matches('!');
    let words: Vec<&str> = line
        .split_whitespace()
        .map(|w| w.trim_matches(['"', '\'']))
        .collect();
    words
        .iter()
        .enumerate()
        .filter(|(i, w)| {
            !w.is_empty()
                && !w.starts_with(['-', '$', '~', '/', '|', '&', ';', '<', '>'])
                && (*i > 0 || w.contains('/'))
        })
        .map(|(_, w)| super::normalize(Path::new(w)))
        .filter(|p| {
            !p.as_os_str().is_empty()
                && p.components()
                    .all(|c| matches!(c, std::path::Component::Normal(_)))
        })
        .collect()
}

/// The files and directories the workspace's `.envrc` has direnv load into the user's shell:
/// what `source_env`, `source_env_if_exists`, `dotenv`, `dotenv_if_exists`, `source` and `.`
/// read, the directories `PATH_add`, `path_add`, `MANPATH_add` and `load_prefix` put on a
/// search path, the Nix files `use nix` and `use flake` evaluate, and `.direnv`, where
/// `layout` keeps the environment whose `bin` it puts first on `PATH`. Nothing when there
/// is no `.envrc`.
fn direnv_loads(root: &Path) -> Vec<PathBuf> {
    let Ok(Some(text)) = super::small_file::read_text(&root.join(".envrc")) else {
        return Vec::new();
    };
    let mut out = vec![root.join(".direnv")];
    for line in text.lines() {
        let words: Vec<&str> = line
            .split_whitespace()
            .map(|w| w.trim_matches(['"', '\'']))
            .take_while(|w| !w.starts_with('#'))
            .collect();
        let Some((command, args)) = words.split_first() else {
            continue;
        };
        let named: Vec<&str> = match *command {
            "source_env"
            | "source_env_if_exists"
            | "source"
            | "."
            | "PATH_add"
            | "MANPATH_add"
            | "load_prefix" => args.to_vec(),
            "dotenv" | "dotenv_if_exists" if args.is_empty() => vec![".env"],
            "dotenv" | "dotenv_if_exists" => args.to_vec(),
            "path_add" => args.iter().skip(1).copied().collect(),
            "use" | "use_nix" | "use_flake" => {
                vec!["shell.nix", "default.nix", "flake.nix", "flake.lock"]
            }
            _ => continue,
        };
        out.extend(
            named
                .into_iter()
                .filter(|w| !w.is_empty() && !w.starts_with(['-', '$', '~', '/']))
                .map(|w| super::normalize(&root.join(w)))
                .filter(|p| p.starts_with(root) && p != root),
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_path_below_a_git_directory_is_its_state_but_the_ignore_list() {
        for p in [
            "/w/.git",
            "/w/.git/HEAD",
            "/w/.git/index",
            "/w/.git/packed-refs",
            "/w/.git/objects",
            "/w/.git/objects/aa/bb",
            "/w/.git/refs/heads/main",
            "/w/sub/.GIT/config",
            "/w/.git/worktrees/x/HEAD",
        ] {
            assert!(git_state(Path::new(p)), "{p}");
        }
        for p in [
            "/w/.git/info/exclude",
            "/w/.gitignore",
            "/w/.github/workflows/ci.yml",
            "/w/src/git/x.rs",
            "/w/.gitattributes",
        ] {
            assert!(!git_state(Path::new(p)), "{p}");
        }
    }

    #[test]
    fn a_search_path_is_outside_only_when_no_entry_may_reach_the_workspace() {
        let ws = tempfile::tempdir().unwrap();
        let out = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(ws.path()).unwrap();
        std::fs::create_dir_all(root.join("bin")).unwrap();
        // A directory outside whose real path is the workspace's `bin`.
        let link = out.path().join("tools");
        std::os::unix::fs::symlink(root.join("bin"), &link).unwrap();
        let outside = |path: &str| {
            Effective::of(&root, None, Some(std::ffi::OsStr::new(path))).path_outside()
        };
        assert!(outside("/usr/local/bin:/usr/bin:/bin"));
        assert!(outside("/"));
        let inside = format!("{}/bin:/usr/bin", root.display());
        let dotted = format!("/usr/bin:{}/../{}/bin", root.display(), {
            root.file_name().unwrap().to_string_lossy()
        });
        for path in [
            "/usr/bin::/bin",
            ":/usr/bin",
            "/usr/bin:",
            "bin:/usr/bin",
            "./node_modules/.bin:/usr/bin",
            inside.as_str(),
            dotted.as_str(),
            link.to_str().unwrap(),
        ] {
            assert!(!outside(path), "{path}");
        }
        // More entries than are read: the ones past the limit are not known to be outside.
        let long = vec!["/usr/bin"; MAX_PATH_ENTRIES + 1].join(":");
        assert!(!outside(&long));
        let full = vec!["/usr/bin"; MAX_PATH_ENTRIES].join(":");
        assert!(outside(&full));
    }

    #[test]
    fn the_hooks_directory_the_repository_names_is_protected() {
        let ws = tempfile::tempdir().unwrap();
        let home = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(ws.path().join(".git")).unwrap();
        let root = std::fs::canonicalize(ws.path()).unwrap();
        let none = Effective::of(&root, Some(home.path()), None);
        assert_eq!(none.protects(&root.join(".githooks/pre-commit")), None);
        std::fs::write(
            ws.path().join(".git/config"),
            "[core]\n\thooksPath = .githooks\n",
        )
        .unwrap();
        let found = Effective::of(&root, Some(home.path()), None);
        assert_eq!(
            found.protects(&root.join(".githooks/pre-commit")),
            Some(HOOKS)
        );
        assert_eq!(found.protects(&root.join(".githooks")), Some(HOOKS));
        assert_eq!(found.protects(&root.join("src/main.rs")), None);
        // A tree written into the workspace may hold it; one written into src may not.
        assert_eq!(found.protects_below(&root, false), Some(HOOKS));
        assert_eq!(found.protects_below(&root.join("src"), false), None);
        assert_eq!(found.protects_below(&root, true), None);
    }

    #[test]
    fn the_programs_the_repository_runs_by_itself_and_what_envrc_loads_are_protected() {
        let ws = tempfile::tempdir().unwrap();
        let home = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(ws.path().join(".git")).unwrap();
        let root = std::fs::canonicalize(ws.path()).unwrap();
        std::fs::write(
            ws.path().join(".git/config"),
            "[core]\n\tfsmonitor = tools/fsm.sh\n\tpager = less -R\n             [alias]\n\tst = !sh scripts/st.sh\n\tlg = log --oneline src/main.rs\n             [diff \"tx\"]\n\ttextconv = python3 conv.py\n             [filter \"lfs\"]\n\tclean = git-lfs clean -- %f\n",
        )
        .unwrap();
        let found = Effective::of(&root, Some(home.path()), None);
        for file in ["tools/fsm.sh", "scripts/st.sh", "conv.py"] {
            assert_eq!(found.protects(&root.join(file)), Some(RUN_BY_GIT), "{file}");
        }
        // An alias without `!` runs git, whose words name no program; options and programs
        // found on the PATH are no files of the workspace.
        for file in ["src/main.rs", "less", "-R", "README.md", "tools/other.sh"] {
            assert_eq!(found.protects(&root.join(file)), None, "{file}");
        }
        assert_eq!(found.protects_below(&root.join("src"), false), None);
        // What a `.envrc` loads into the user's shell.
        std::fs::write(
            ws.path().join(".envrc"),
            "source_env_if_exists .envrc.local\nPATH_add bin\ndotenv\nwatch_file package.json\nuse flake\nsource_up\nPATH_add /opt/x # a comment\n",
        )
        .unwrap();
        let found = Effective::of(&root, Some(home.path()), None);
        for file in [
            ".envrc.local",
            "bin/git",
            ".env",
            "flake.nix",
            ".direnv/python/bin/x",
        ] {
            assert_eq!(
                found.protects(&root.join(file)),
                Some(LOADED_BY_DIRENV),
                "{file}"
            );
        }
        for file in ["package.json", "src/main.rs", "comment"] {
            assert_eq!(found.protects(&root.join(file)), None, "{file}");
        }
        std::fs::remove_file(ws.path().join(".envrc")).unwrap();
        let found = Effective::of(&root, Some(home.path()), None);
        assert_eq!(found.protects(&root.join(".envrc.local")), None);
    }

    #[test]
    fn the_files_the_repositorys_credential_helpers_keep_credentials_in_are_known() {
        let ws = tempfile::tempdir().unwrap();
        let home = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(ws.path().join(".git")).unwrap();
        let root = std::fs::canonicalize(ws.path()).unwrap();
        // An included file's helper counts as the repository's own.
        std::fs::write(
            ws.path().join(".git/config"),
            "[credential]\n\thelper = store --file=.git/git-creds\n\
             [credential \"https://github.com\"]\n\thelper = \"store --file creds.txt\"\n\
             [http]\n\tcookieFile = ~/cookies.txt\n[include]\n\tpath = more.inc\n",
        )
        .unwrap();
        std::fs::write(
            ws.path().join(".git/more.inc"),
            "[credential]\n\thelper = netrc -f /srv/auth-netrc\n\thelper = cache --timeout 60\n",
        )
        .unwrap();
        let found = Effective::of(&root, Some(home.path()), None);
        for store in [
            root.join(".git/git-creds"),
            root.join("creds.txt"),
            home.path().join("cookies.txt"),
            std::path::PathBuf::from("/srv/auth-netrc"),
        ] {
            assert_eq!(
                found.secret_file(&store),
                Some(STORE),
                "{}",
                store.display()
            );
        }
        assert_eq!(
            found.secret_file(&root.join(".git/more.inc")),
            Some(INCLUDED)
        );
        assert_eq!(found.secret_file(&root.join("60")), None);
        assert_eq!(found.secret_file(&root.join("README.md")), None);
    }

    #[test]
    fn the_files_the_repositorys_configuration_includes_are_known() {
        let ws = tempfile::tempdir().unwrap();
        let home = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(ws.path().join(".git")).unwrap();
        std::fs::create_dir_all(ws.path().join("conf")).unwrap();
        let root = std::fs::canonicalize(ws.path()).unwrap();
        std::fs::write(
            ws.path().join(".git/config"),
            "[include]\n\tpath = extra.inc\n[includeIf \"gitdir:/\"]\n\tpath = ../conf/git.inc\n",
        )
        .unwrap();
        for (name, text) in [
            (
                ".git/extra.inc",
                "[http]\n\textraheader = AUTHORIZATION: bearer x\n",
            ),
            ("conf/git.inc", "[user]\n\tname = x\n"),
        ] {
            std::fs::write(ws.path().join(name), text).unwrap();
        }
        let found = Effective::of(&root, Some(home.path()), None);
        assert!(found.secret_file(&root.join(".git/extra.inc")).is_some());
        assert!(found.secret_file(&root.join("conf/git.inc")).is_some());
        assert!(found.secret_file(&root.join("conf/other.inc")).is_none());
        assert!(found.secret_file(&root.join(".git/config")).is_none());
    }

    #[test]
    fn the_hooks_directory_of_the_users_configuration_is_protected() {
        let ws = tempfile::tempdir().unwrap();
        let home = tempfile::tempdir().unwrap();
        std::fs::write(
            home.path().join(".gitconfig"),
            "[core]\n\thooksPath = ~/hooks\n",
        )
        .unwrap();
        let found = Effective::of(ws.path(), Some(home.path()), None);
        assert_eq!(
            found.protects(&home.path().join("hooks/pre-push")),
            Some(HOOKS)
        );
    }

    #[test]
    fn a_separate_git_directory_is_the_repositorys_state() {
        let ws = tempfile::tempdir().unwrap();
        let store = tempfile::tempdir().unwrap();
        let git = store.path().join("repo.d");
        std::fs::create_dir_all(&git).unwrap();
        std::fs::write(
            ws.path().join(".git"),
            format!("gitdir: {}\n", git.display()),
        )
        .unwrap();
        let found = Effective::of(ws.path(), None, None);
        assert_eq!(found.protects(&git.join("HEAD")), Some(GIT_STATE));
        assert_eq!(
            found.protects(&git.join("objects/pack/x.pack")),
            Some(GIT_STATE)
        );
        assert_eq!(found.protects(&store.path().join("other")), None);
    }

    #[test]
    fn every_directory_of_the_path_outside_the_workspace_is_protected() {
        let ws = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(ws.path()).unwrap();
        let var = std::ffi::OsString::from(format!(
            "/opt/tools/bin:relative/bin::/:{}/node_modules/.bin:/root/.pyenv/bin:/usr/local/bin",
            root.display()
        ));
        let found = Effective::of(&root, None, Some(&var));
        assert_eq!(
            found.protects(Path::new("/opt/tools/bin/git")),
            Some(ON_PATH)
        );
        assert_eq!(
            found.protects(Path::new("/root/.pyenv/bin/ls")),
            Some(ON_PATH)
        );
        assert_eq!(found.protects(Path::new("/root/.pyenv/bin")), Some(ON_PATH));
        assert_eq!(found.protects(Path::new("/opt/tools/lib/x")), None);
        assert_eq!(found.protects(Path::new("/tmp/x")), None);
        // The system's directories are the system's.
        assert_eq!(found.protects(Path::new("/usr/local/bin/x")), None);
        // The project's own programs and relative entries are not the machine's.
        assert_eq!(found.protects(&root.join("node_modules/.bin/tsc")), None);
        assert_eq!(found.protects(&root.join("relative/bin/x")), None);
        // Removing or replacing a tree holding a PATH directory reaches it.
        assert_eq!(
            found.protects_below(Path::new("/root/.pyenv"), false),
            Some(ON_PATH)
        );
        assert_eq!(found.protects_below(Path::new("/root/.pyenv"), true), None);
    }

    /// Every change of what kept places were found from is seen by the next evaluation:
    /// the repository's configuration written, the user's created, a `.git` file naming a
    /// separate git directory, a directory of the `PATH` replaced by a link; and unchanged,
    /// the places are the ones kept.
    #[test]
    fn kept_places_follow_every_change_of_what_they_were_found_from() {
        let ws = tempfile::tempdir().unwrap();
        let home = tempfile::tempdir().unwrap();
        let tools = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(ws.path()).unwrap();
        let home = std::fs::canonicalize(home.path()).unwrap();
        let tools = std::fs::canonicalize(tools.path()).unwrap();
        std::fs::create_dir_all(root.join(".git")).unwrap();
        std::fs::create_dir_all(tools.join("bin")).unwrap();
        let var = std::ffi::OsString::from(format!("{}/bin", tools.display()));
        let kept = || Effective::kept(&root, Some(&home), Some(&var));

        let first = kept();
        assert!(
            std::sync::Arc::ptr_eq(&first, &kept()),
            "kept while unchanged"
        );
        assert_eq!(first.protects(&root.join(".githooks/pre-commit")), None);

        // The repository's configuration written in place.
        std::fs::write(
            root.join(".git/config"),
            "[core]\n\thooksPath = .githooks\n",
        )
        .unwrap();
        let after = kept();
        assert_eq!(after.protects(&root.join(".githooks/x")), Some(HOOKS));
        assert!(std::sync::Arc::ptr_eq(&after, &kept()));

        // The user's configuration created.
        assert_eq!(after.protects(&home.join("h/pre-push")), None);
        std::fs::write(home.join(".gitconfig"), "[core]\n\thooksPath = ~/h\n").unwrap();
        assert_eq!(kept().protects(&home.join("h/pre-push")), Some(HOOKS));

        // A directory of the PATH replaced by a link to another: both are protected.
        let elsewhere = tools.join("elsewhere");
        std::fs::create_dir_all(&elsewhere).unwrap();
        assert_eq!(kept().protects(&elsewhere.join("git")), None);
        std::fs::rename(tools.join("bin"), tools.join("old")).unwrap();
        std::os::unix::fs::symlink(&elsewhere, tools.join("bin")).unwrap();
        assert_eq!(kept().protects(&elsewhere.join("git")), Some(ON_PATH));

        // A `.git` directory replaced by a file naming a separate git directory.
        let store = tempfile::tempdir().unwrap();
        let git = std::fs::canonicalize(store.path()).unwrap().join("repo.d");
        std::fs::create_dir_all(&git).unwrap();
        assert_eq!(kept().protects(&git.join("HEAD")), None);
        std::fs::remove_dir_all(root.join(".git")).unwrap();
        std::fs::write(root.join(".git"), format!("gitdir: {}\n", git.display())).unwrap();
        assert_eq!(kept().protects(&git.join("HEAD")), Some(GIT_STATE));

        // A name created in a directory of a looked-up path but not looked up itself
        // changes nothing: the places stay kept.
        let now = kept();
        std::fs::write(root.join("notes.txt"), "x").unwrap();
        std::fs::write(home.join("unrelated"), "x").unwrap();
        assert!(std::sync::Arc::ptr_eq(&now, &kept()));
    }

    /// A name that cannot be resolved to an absolute path is not kept by.
    #[test]
    fn places_found_from_a_relative_name_are_not_kept() {
        let ws = tempfile::tempdir().unwrap();
        let a = Effective::kept(Path::new("relative/ws"), None, None);
        let b = Effective::kept(Path::new("relative/ws"), None, None);
        assert!(!std::sync::Arc::ptr_eq(&a, &b));
        let root = std::fs::canonicalize(ws.path()).unwrap();
        let c = Effective::kept(&root, None, None);
        assert!(std::sync::Arc::ptr_eq(
            &c,
            &Effective::kept(&root, None, None)
        ));
    }
}
