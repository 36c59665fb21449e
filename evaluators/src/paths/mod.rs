//! Paths as the evaluators see them: resolved against the workspace root (`..`, `~`,
//! symlinks) and placed inside, outside, among the system's own files, or among secrets.

use std::borrow::Cow;
use std::path::{Component, Path, PathBuf};

mod credentials;
mod effective;
pub(crate) mod git_config;
pub(crate) mod git_index;
mod sensitive;
pub(crate) mod small_file;
mod tokens;
mod watch;

pub(crate) use sensitive::{SensitivePaths, compile, compile_folded, fold};

use crate::shell::WorkingDir;

/// Directories of the operating system itself; writing there is never routine.
const SYSTEM: &[&str] = &[
    "/etc",
    "/boot",
    "/bin",
    "/sbin",
    "/usr",
    "/lib",
    "/lib32",
    "/lib64",
    "/libx32",
    "/sys",
    "/proc",
    "/System",
    "/private/etc",
];

/// Files of the operating system that describe it and hold nothing of anyone's (its release,
/// its host name and time zone, the kernel's version, the processors, memory and load): read,
/// they print what `uname`, `nproc` or `uptime` print. Compared with a path as resolved
/// (`/etc/os-release` is a link to `/usr/lib/os-release`); no user can write them.
const PUBLIC_SYSTEM_FILES: &[&str] = &[
    "/etc/os-release",
    "/usr/lib/os-release",
    "/etc/lsb-release",
    "/etc/debian_version",
    "/etc/alpine-release",
    "/etc/redhat-release",
    "/etc/fedora-release",
    "/etc/system-release",
    "/etc/issue",
    "/etc/hostname",
    "/etc/timezone",
    "/etc/shells",
    "/proc/cpuinfo",
    "/proc/meminfo",
    "/proc/loadavg",
    "/proc/uptime",
    "/proc/version",
];

/// Directories of the operating system whose files are published with it and hold nothing
/// of anyone's: C headers and packages' documentation. Compared with a path as resolved (a
/// link inside to a key elsewhere is that key).
const PUBLIC_SYSTEM_TREES: &[&str] = &["/usr/include", "/usr/share/doc", "/usr/share/man"];

/// Whether the resolved path `path` is a file describing the operating system that anyone
/// may read ([`PUBLIC_SYSTEM_FILES`]), or one published with it ([`PUBLIC_SYSTEM_TREES`]).
pub(crate) fn public_system_file(path: &Path) -> bool {
    PUBLIC_SYSTEM_FILES.iter().any(|f| path == Path::new(f))
        || PUBLIC_SYSTEM_TREES.iter().any(|t| path.starts_with(t))
}

/// Devices that are safe to read and write.
const HARMLESS_DEVICES: &[&str] = &[
    "/dev/null",
    "/dev/zero",
    "/dev/stdin",
    "/dev/stdout",
    "/dev/stderr",
    "/dev/random",
    "/dev/urandom",
];

/// The most directory entries one tree walk or glob expansion visits before the call is left
/// unmodeled.
pub(crate) const MAX_TREE_ENTRIES: usize = 20_000;

/// How a tree is walked.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Scan<'a> {
    /// Whether names starting with `.` are visited.
    pub hidden: bool,
    /// Whether symlinks inside the tree are followed.
    pub follow: bool,
    /// Only files whose name matches one of these globs count (`find -name '*.rs'`,
    /// `grep --include`, `rg -g`, `rg -t`); none: every file.
    pub names: &'a [String],
    /// Files whose name matches one of these globs are not read (`--exclude`, `rg -g '!…'`).
    pub excludes: &'a [String],
    /// Whether `.gitignore`-style files are honoured, as `rg` does.
    pub ignores: bool,
    /// Whether a name starting with `-` counts as a finding (the tree's paths become words).
    pub dash_names: bool,
    /// Whether secrets count (not when only names are looked at).
    pub secrets: bool,
    /// Whether a file that is a secret by its content alone counts: not when the command
    /// prints only a digest of what it reads (counts, sums, names; `grep -c`, `wc`).
    pub contents: bool,
}

/// What one entry of a walk is.
enum Visit {
    /// A finding: the path and what it is.
    Found((PathBuf, String)),
    /// Nothing to look at (gone, a link not followed).
    Skip,
    /// A file.
    File,
    /// A directory to descend into.
    Dir,
}

/// The most entries the walks of one evaluation visit together (a command may name many
/// trees, each under [`MAX_TREE_ENTRIES`]): past it the call is left unmodeled, so one call
/// cannot hold the evaluator for long.
pub(crate) const MAX_EVALUATION_ENTRIES: usize = 60_000;

/// A walk or an expansion went past [`MAX_TREE_ENTRIES`] or could not be done.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Limit;

/// Where a path is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Place {
    /// A secret (the label says which kind).
    Sensitive(String),
    /// `/dev/null` and its kin.
    HarmlessDevice,
    /// Another device (a disk, a partition).
    Device,
    /// The filesystem root or a system directory.
    System,
    /// Inside the workspace.
    Inside,
    /// Outside the workspace.
    Outside,
    /// Somewhere the text does not tell (a relative path after an unknown `cd`).
    Unknown,
}

/// A path resolved and placed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Located {
    /// Where it is.
    pub place: Place,
    /// The resolved path (symlinks followed as far as they exist).
    pub path: PathBuf,
}

/// What resolving a word found, before secrets are looked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Found {
    /// A harmless device, named exactly.
    Device,
    /// A path that could not be resolved (too many links) or is unknown.
    Unresolved,
    /// The resolved path, and where it is.
    Real(PathBuf, Place),
}

/// A word resolved and placed, as a call's analysis keeps it for every evaluator of the call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct PlacedWord {
    /// The path as written, `.` and `..` removed as text (`None`: unknown).
    pub lexical: Option<PathBuf>,
    /// What resolving it found.
    pub found: Found,
    /// For each set of secrets it was compared with (by [`SensitivePaths::id`]): which form
    /// is a secret (`true`: as written) and what secret, or `None`.
    pub secrets: Vec<(u64, Option<(bool, String)>)>,
}

/// Resolves and places paths for one workspace.
pub(crate) struct Places<'a> {
    root: PathBuf,
    /// Whether `root` is real (canonical): paths below it are resolved from it.
    root_real: bool,
    /// Whether `root` is in normal form (it is, unless it could not be made so).
    root_plain: bool,
    home: Option<&'a Path>,
    sensitive: Option<&'a SensitivePaths>,
    /// The call's shared analysis, whose resolutions are reused (see [`Places::sharing`]),
    /// and the scope these places have in it (their root and home).
    shared: Option<(std::sync::Arc<crate::shell::CallAnalysis>, usize)>,
    /// The entries the walks of these places visited so far (see [`MAX_EVALUATION_ENTRIES`]).
    walked: std::sync::atomic::AtomicUsize,
    /// The search path whose directories are protected, when given (by tests); `None`: the
    /// process's `PATH`, read when the protected places are first needed (most evaluations
    /// never need them).
    path_var: Option<Option<std::ffi::OsString>>,
    /// The protected places only the machine tells, found at their first use.
    effective: std::sync::OnceLock<std::sync::Arc<effective::Effective>>,
}

impl<'a> Places<'a> {
    /// Places relative to `root`, with `~` naming `home`; secrets are recognized when
    /// `sensitive` is given.
    pub(crate) fn new(
        root: &Path,
        home: Option<&'a Path>,
        sensitive: Option<&'a SensitivePaths>,
    ) -> Self {
        let (root, root_real, root_plain) = placed_root(root);
        Self {
            root_plain,
            root,
            root_real,
            home,
            sensitive,
            shared: None,
            walked: std::sync::atomic::AtomicUsize::new(0),
            path_var: None,
            effective: std::sync::OnceLock::new(),
        }
    }

    /// These places with `path_var` as the search path whose directories are protected.
    #[cfg(test)]
    pub(crate) fn with_path_var(mut self, path_var: Option<&str>) -> Self {
        self.path_var = Some(path_var.map(std::ffi::OsString::from));
        self.effective = std::sync::OnceLock::new();
        self
    }

    /// The protected places of the machine: the hooks directory git uses, a separate git
    /// directory, the directories of the `PATH` (see [`effective::Effective::of`]).
    fn effective(&self) -> &effective::Effective {
        self.effective.get_or_init(|| {
            let process = self
                .path_var
                .is_none()
                .then(|| crate::process_env::var("PATH"))
                .flatten();
            let path_var = self
                .path_var
                .as_ref()
                .map_or(process.as_deref(), Option::as_deref);
            effective::Effective::kept(&self.root, self.home, path_var)
        })
    }

    /// Whether no program name can be found inside the workspace through the process's
    /// `PATH`: no entry of it is relative, empty or inside the workspace, as written or
    /// resolved (found once and kept while nothing it was found from changes, see
    /// [`effective::Effective::kept`]). `false` when these places protect another search
    /// path (a test's) or the workspace root is not known to be real.
    pub(crate) fn process_path_outside(&self) -> bool {
        self.path_var.is_none() && self.root_real && self.effective().path_outside()
    }

    /// Counts one entry a walk visits against the evaluation's budget.
    ///
    /// # Errors
    ///
    /// [`Limit`] once the walks of this evaluation visited [`MAX_EVALUATION_ENTRIES`].
    fn charge(&self) -> Result<(), Limit> {
        let before = self
            .walked
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        if before >= MAX_EVALUATION_ENTRIES {
            Err(Limit)
        } else {
            Ok(())
        }
    }

    /// These places, resolving paths through the analysis of the call evaluated in `cx`: a
    /// path another evaluator of the same call has resolved is not looked at on disk again.
    pub(crate) fn sharing(mut self, cx: &warrant_core::call::EvaluationContext) -> Self {
        let analysis = crate::shell::CallAnalysis::of(cx);
        let scope = analysis.scope(&self.root, self.root_real, self.home);
        self.shared = Some((analysis, scope));
        self
    }

    /// What configuration a located path is, when no call may write it (Warrant's own, an
    /// agent's settings): the path as written and as resolved are both compared.
    pub(crate) fn protected(
        &self,
        located: &Located,
        raw: &str,
        cwd: &WorkingDir,
    ) -> Option<String> {
        let sensitive = self.sensitive?;
        if let Some(what) = sensitive.protects(&located.path, self.home, Some(&self.root)) {
            return Some(what.to_owned());
        }
        if let Some(what) = self.effective().protects(&located.path) {
            return Some(what.to_owned());
        }
        let lexical = self.lexical_besides(located, raw, cwd)?;
        sensitive
            .protects(&lexical, self.home, Some(&self.root))
            .or_else(|| self.effective().protects(&lexical))
            .map(str::to_owned)
    }

    /// What protected configuration a write of a tree into `located` (the directory `raw`
    /// names in `cwd`) may create, whose names the text does not show: see
    /// [`SensitivePaths::protects_below`].
    pub(crate) fn protected_below(
        &self,
        located: &Located,
        raw: &str,
        cwd: &WorkingDir,
        within_config: bool,
    ) -> Option<String> {
        let sensitive = self.sensitive?;
        if let Some(what) =
            sensitive.protects_below(&located.path, within_config, self.home, Some(&self.root))
        {
            return Some(what.to_owned());
        }
        if let Some(what) = self
            .effective()
            .protects_below(&located.path, within_config)
        {
            return Some(what.to_owned());
        }
        let lexical = self.lexical_besides(located, raw, cwd)?;
        sensitive
            .protects_below(&lexical, within_config, self.home, Some(&self.root))
            .or_else(|| self.effective().protects_below(&lexical, within_config))
            .map(str::to_owned)
    }

    /// What protected configuration a tree of files whose names are not known may create
    /// when it lands in the directory `located` (`raw` in `cwd`): see
    /// [`SensitivePaths::protects_any_name_below`].
    pub(crate) fn protected_any_name_below(
        &self,
        located: &Located,
        raw: &str,
        cwd: &WorkingDir,
    ) -> Option<String> {
        let sensitive = self.sensitive?;
        if let Some(what) =
            sensitive.protects_any_name_below(&located.path, self.home, Some(&self.root))
        {
            return Some(what.to_owned());
        }
        if let Some(what) = self.effective().protects_below(&located.path, false) {
            return Some(what.to_owned());
        }
        let lexical = self.lexical_besides(located, raw, cwd)?;
        sensitive
            .protects_any_name_below(&lexical, self.home, Some(&self.root))
            .or_else(|| self.effective().protects_below(&lexical, false))
            .map(str::to_owned)
    }

    /// A name of protected configuration that the name filter `admits` accepts (`find -name
    /// settings.json`), with what it is: see [`SensitivePaths::protected_name`].
    pub(crate) fn protected_name(&self, admits: &dyn Fn(&str) -> bool) -> Option<(String, String)> {
        let (name, what) = self.sensitive?.protected_name(admits)?;
        Some((name.to_owned(), what.to_owned()))
    }

    /// What a file of the glob pattern `raw` (a file tool's path, relative to the root) may
    /// be when a tool expands it: a secret some name it matches is, or (for a write)
    /// protected configuration; `None` when no name it matches is either, or when the path
    /// is unknown.
    pub(crate) fn pattern_may_be(&self, raw: &str, write: bool) -> Option<String> {
        let sensitive = self.sensitive?;
        let pattern = self.lexical(raw, &WorkingDir::Root)?;
        sensitive
            .pattern_secret(&pattern)
            .or_else(|| {
                write
                    .then(|| sensitive.pattern_protected(&pattern))
                    .flatten()
            })
            .map(str::to_owned)
    }

    /// What protected configuration a file of the glob pattern `raw` (absolute, or relative
    /// to the root) may be, secrets left aside: `None` when no name it matches is.
    pub(crate) fn pattern_protected(&self, raw: &str) -> Option<String> {
        let pattern = self.lexical(raw, &WorkingDir::Root)?;
        self.sensitive?
            .pattern_protected(&pattern)
            .map(str::to_owned)
    }

    /// The workspace root, resolved.
    pub(crate) fn root(&self) -> &Path {
        &self.root
    }

    /// Whether the workspace root exists and [`root`](Self::root) is its real path (no
    /// symlink in it), so resolving it again would give it back.
    pub(crate) fn root_is_real(&self) -> bool {
        self.root_real
    }

    /// The home directory `~` stands for, when known.
    pub(crate) fn home(&self) -> Option<&Path> {
        self.home
    }

    /// The path `raw` names when used in `cwd` as [`Self::lexical`] gives it, when it is not
    /// `located`'s resolved path byte for byte (no symlink or `..` made them differ); `None`
    /// when it is, or when unknown. The protection checks ask of the path as written only
    /// what they asked of the resolved one: for the same bytes they answer the same.
    fn lexical_besides(&self, located: &Located, raw: &str, cwd: &WorkingDir) -> Option<PathBuf> {
        self.lexical(raw, cwd)
            .filter(|lexical| lexical.as_os_str() != located.path.as_os_str())
    }

    /// The path `raw` names when used in `cwd`, with `.` and `..` removed as text (before
    /// symlinks); `None` when unknown.
    fn lexical(&self, raw: &str, cwd: &WorkingDir) -> Option<PathBuf> {
        self.joined(raw, cwd).map(|p| normalize(&p))
    }

    /// The path `raw` names when used in `cwd`, as written (`..` kept); `None` when unknown.
    pub(crate) fn joined(&self, raw: &str, cwd: &WorkingDir) -> Option<PathBuf> {
        if !raw.starts_with(['~', '/']) && matches!(cwd, WorkingDir::Root) {
            // Room for both up front: `push` would grow a clone of the root.
            let root = self.root.as_os_str();
            let mut path = PathBuf::with_capacity(root.len() + 1 + raw.len());
            path.push(root);
            path.push(raw);
            return Some(path);
        }
        let expanded = self.expand_home(raw)?;
        if expanded.is_absolute() {
            return Some(expanded);
        }
        let base = match cwd {
            WorkingDir::Root => self.root.clone(),
            WorkingDir::Dir(dir) => {
                let dir = self.expand_home(dir)?;
                let dir = if dir.is_absolute() {
                    dir
                } else {
                    self.root.join(dir)
                };
                // A `cd` into something that is not a directory fails and moves nothing:
                // where the command then runs is not what the text says.
                if !dir.is_dir() {
                    return None;
                }
                // bash's `cd` is logical (`link/..` is the directory holding `link`), the
                // kernel's physical (the link's target's parent), and bash falls back to the
                // physical one when the logical one fails: the directory is known only when
                // both agree.
                if !logical_is_physical(&dir) {
                    return None;
                }
                dir
            }
            WorkingDir::Unknown => return None,
        };
        Some(base.join(expanded))
    }

    fn expand_home(&self, raw: &str) -> Option<PathBuf> {
        let Some(rest) = raw.strip_prefix('~') else {
            return Some(PathBuf::from(raw));
        };
        // Slashes after the home are one (`~//.ssh` is `~/.ssh`): joined as written, the
        // rest would read as an absolute path of its own.
        if let Some(tail) = rest.strip_prefix('/').or((rest.is_empty()).then_some("")) {
            return Some(self.home?.join(tail.trim_start_matches('/')));
        }
        // `~user/…`: another user's home.
        let (user, tail) = rest.split_once('/').unwrap_or((rest, ""));
        Some(
            Path::new("/home")
                .join(user)
                .join(tail.trim_start_matches('/')),
        )
    }

    /// Resolves `raw` (used in `cwd`) and places it.
    pub(crate) fn locate(&self, raw: &str, cwd: &WorkingDir) -> Located {
        match &self.shared {
            Some((shared, scope)) => {
                shared.placed(*scope, raw, cwd, self, |p| self.assemble(p, raw))
            }
            None => self.assemble(&self.place_word(raw, cwd), raw),
        }
    }

    /// What `use_it` makes of the path `raw` (used in `cwd`) names as [`Places::locate`]
    /// places it, and of it as written (`.` and `..` removed as text; `None` when unknown),
    /// both borrowed: for places that look for no secret, nothing is copied. `use_it` must
    /// not place words itself (it runs while the call's placed words are locked).
    pub(crate) fn with_located_paths<T>(
        &self,
        raw: &str,
        cwd: &WorkingDir,
        use_it: impl FnOnce(&Path, Option<&Path>) -> T,
    ) -> T {
        let borrowed = |p: &PlacedWord| {
            let lexical = p.lexical.as_deref();
            match (&p.found, lexical) {
                (_, None) => use_it(Path::new(raw), None),
                (Found::Real(real, _), Some(_)) if self.sensitive.is_none() => {
                    use_it(real, lexical)
                }
                (Found::Device | Found::Unresolved, Some(l)) => use_it(l, lexical),
                (Found::Real(..), Some(_)) => use_it(&self.assemble(p, raw).path, lexical),
            }
        };
        match &self.shared {
            Some((shared, scope)) => shared.placed(*scope, raw, cwd, self, borrowed),
            None => borrowed(&self.place_word(raw, cwd)),
        }
    }

    /// What resolving `raw` (used in `cwd`) finds, before secrets are looked for: what
    /// [`Places::locate`] reads, and what a call's analysis keeps of a word for every
    /// evaluator whose places have the same root and home.
    pub(crate) fn place_word(&self, raw: &str, cwd: &WorkingDir) -> PlacedWord {
        let Some(joined) = self.joined(raw, cwd) else {
            return PlacedWord {
                lexical: None,
                found: Found::Unresolved,
                secrets: Vec::new(),
            };
        };
        // In normal form already (the usual case), the joined path is its own normal form.
        let joined_plain = plain(&joined);
        let (joined, lexical) = if joined_plain {
            (None, joined)
        } else {
            let lexical = normalize(&joined);
            (Some(joined), lexical)
        };
        let joined = joined.as_deref().unwrap_or(&lexical);
        // A device named exactly (`/dev/null`, `/dev/fd/63`), never through `..`.
        let found = if harmless_device(&lexical) && !has_dot_dot(raw) {
            Found::Device
        } else {
            // The kernel follows each symlink before the `..` after it: `link/../x` with
            // `link` pointing to `/` is `/x`, not `x` inside the workspace.
            let start = self
                .root_real
                .then_some((self.root.as_path(), self.root_plain));
            match resolve_known(joined, joined_plain, start) {
                // A device node (`mknod disk b 8 0` in the workspace) is the device, wherever
                // it is: never a plain file.
                Some((real, _, true)) if !harmless_device(&real) => {
                    Found::Real(real, Place::Device)
                }
                Some((real, real_plain, _)) => {
                    let place = self.place_known(&real, real_plain);
                    Found::Real(real, place)
                }
                None => Found::Unresolved,
            }
        };
        PlacedWord {
            lexical: Some(lexical),
            found,
            secrets: Vec::new(),
        }
    }

    /// What secret the file at `path` (absolute, normal) is: by its name, or as a file the
    /// repository's configuration names (included, or a credential store), which holds what
    /// `.git/config` may (tokens).
    fn secret_at(&self, path: &Path) -> Option<&str> {
        let sensitive = self.sensitive?;
        sensitive
            .matches(path)
            .or_else(|| self.effective().secret_file(path))
    }

    /// The secret a placed word is, by these places' secrets: which form names it (the
    /// path as written, else as resolved) and what it is.
    pub(crate) fn secret_of(&self, placed: &PlacedWord) -> Option<(bool, String)> {
        let (Some(lexical), Found::Real(real, _)) = (&placed.lexical, &placed.found) else {
            return None;
        };
        if let Some(what) = self.secret_at(lexical) {
            return Some((true, what.to_owned()));
        }
        if lexical != real
            && let Some(what) = self.secret_at(real)
        {
            return Some((false, what.to_owned()));
        }
        None
    }

    /// The identity of these places' secrets (`None`: secrets are not looked for), the part
    /// of a placed word's answer that differs between evaluators.
    pub(crate) fn secrets_id(&self) -> Option<u64> {
        self.sensitive.map(SensitivePaths::id)
    }

    /// The located path of a placed word (`raw` as written), its secret looked up by these
    /// places' own secrets unless `placed` already holds the answer for them.
    fn assemble(&self, placed: &PlacedWord, raw: &str) -> Located {
        let Some(lexical) = &placed.lexical else {
            return self.unknown_named(raw);
        };
        match &placed.found {
            Found::Device => Located {
                place: Place::HarmlessDevice,
                path: lexical.clone(),
            },
            Found::Unresolved => Located {
                place: Place::Unknown,
                path: lexical.clone(),
            },
            Found::Real(real, place) => {
                let kept = self.secrets_id().and_then(|id| {
                    placed
                        .secrets
                        .iter()
                        .find(|(k, _)| *k == id)
                        .map(|(_, s)| s.clone())
                });
                let secret = match kept {
                    Some(secret) => secret,
                    None => self.secret_of(placed),
                };
                match secret {
                    Some((written, what)) => Located {
                        place: Place::Sensitive(what),
                        path: if written { lexical } else { real }.clone(),
                    },
                    None => Located {
                        place: place.clone(),
                        path: real.clone(),
                    },
                }
            }
        }
    }

    /// What secret a glob pattern `raw` (used in `cwd`, braces already expanded) could expand
    /// to, if any.
    ///
    /// The rule, conservative by design: the pattern is resolved like a path, then compared
    /// component by component against well-known secret locations (`~/.ssh/id_rsa`,
    /// `~/.aws/credentials`, `/etc/shadow`, …), each pattern component used as a glob on the
    /// matching component of the secret. A pattern component matches a secret's name starting
    /// with `.` only when it starts with `.` itself (the shell's default), unless `dotglob` is
    /// set. A `**` in the pattern may reach any depth. When the working directory is unknown,
    /// a relative pattern is compared against the secrets from every depth (fail-closed).
    pub(crate) fn glob_sensitive(
        &self,
        raw: &str,
        cwd: &WorkingDir,
        dotglob: bool,
    ) -> Option<String> {
        let sensitive = self.sensitive?;
        let pattern = match self.lexical(raw, cwd) {
            Some(p) => p.to_string_lossy().into_owned(),
            None => format!("/**/{raw}"),
        };
        let home = self.home.map(|h| h.to_string_lossy().into_owned());
        for candidate in secret_candidates(home.as_deref()) {
            if glob_reaches(&pattern, &candidate, dotglob)
                && let Some(what) = sensitive.matches(Path::new(&candidate))
            {
                return Some(what.to_owned());
            }
        }
        None
    }

    /// Where the resolved path `real` is, told whether it is in normal form.
    fn place_known(&self, real: &Path, real_plain: bool) -> Place {
        if harmless_device(real) {
            return Place::HarmlessDevice;
        }
        if below_both(real, real_plain, &self.root, self.root_plain) {
            return Place::Inside;
        }
        if below_known(real, real_plain, Path::new("/dev")) {
            return Place::Device;
        }
        if real == Path::new("/")
            || SYSTEM
                .iter()
                .any(|s| below_known(real, real_plain, Path::new(s)))
        {
            return Place::System;
        }
        Place::Outside
    }

    /// The first secret under the tree at `root` (a resolved path), as its path and what it
    /// is: files whose name starts with `.` are skipped unless `hidden`; symlinks are skipped
    /// unless `follow`, and then a link leaving the workspace counts as a secret too.
    ///
    /// # Errors
    ///
    /// [`Limit`] when the tree holds more than [`MAX_TREE_ENTRIES`] entries.
    pub(crate) fn tree_secret(
        &self,
        root: &Path,
        hidden: bool,
        follow: bool,
    ) -> Result<Option<(PathBuf, String)>, Limit> {
        self.scan_tree(
            root,
            &Scan {
                hidden,
                follow,
                names: &[],
                excludes: &[],
                ignores: false,
                dash_names: false,
                secrets: true,
                contents: true,
            },
        )
    }

    /// Walks the tree at `root` as [`Places::tree_secret`] does, with the options of `scan`.
    ///
    /// # Errors
    ///
    /// [`Limit`] when the tree holds more than [`MAX_TREE_ENTRIES`] entries.
    pub(crate) fn scan_tree(
        &self,
        root: &Path,
        scan: &Scan<'_>,
    ) -> Result<Option<(PathBuf, String)>, Limit> {
        if scan.ignores {
            return self.scan_ignoring(root, scan);
        }
        let mut stack = vec![root.to_path_buf()];
        let mut seen = 0usize;
        while let Some(path) = stack.pop() {
            seen += 1;
            if seen > MAX_TREE_ENTRIES {
                return Err(Limit);
            }
            self.charge()?;
            let dir = match self.visit(&path, root, scan)? {
                Visit::Found(found) => return Ok(Some(found)),
                Visit::Skip => continue,
                Visit::File => false,
                Visit::Dir => true,
            };
            if !dir {
                continue;
            }
            let Ok(entries) = std::fs::read_dir(&path) else {
                continue;
            };
            for entry in entries.flatten() {
                let name = entry.file_name();
                if !scan.hidden && name.to_string_lossy().starts_with('.') {
                    continue;
                }
                stack.push(entry.path());
            }
        }
        Ok(None)
    }

    /// Walks as `rg` does by default: `.gitignore`, `.ignore` and `.rgignore` files are
    /// honoured, so an ignored secret is never read.
    fn scan_ignoring(
        &self,
        root: &Path,
        scan: &Scan<'_>,
    ) -> Result<Option<(PathBuf, String)>, Limit> {
        // The ignore rules are read here as a newer `ignore` than the installed `rg` may
        // read them: a byte-order mark, a line that is no UTF-8, or a `.jj` directory taken
        // for a repository (which rg 13 does not) change which files are left out. Any of
        // them, and the walk cannot vouch for what rg reads.
        if root.ancestors().any(|d| d.join(".jj").exists())
            || !plain_ignore_file(&self.root.join(".git/info/exclude"))
        {
            return Err(Limit);
        }
        let walker = ignore::WalkBuilder::new(root)
            .hidden(!scan.hidden)
            .follow_links(scan.follow)
            .add_custom_ignore_filename(".rgignore")
            .build();
        for (seen, entry) in walker.enumerate() {
            if seen > MAX_TREE_ENTRIES {
                return Err(Limit);
            }
            self.charge()?;
            let Ok(entry) = entry else {
                // A loop of links or an unreadable directory: the walk cannot vouch for it.
                return Err(Limit);
            };
            if entry.file_type().is_some_and(|t| t.is_dir())
                && [".gitignore", ".ignore", ".rgignore"]
                    .iter()
                    .any(|n| !plain_ignore_file(&entry.path().join(n)))
            {
                return Err(Limit);
            }
            if let Visit::Found(found) = self.visit(entry.path(), root, scan)? {
                return Ok(Some(found));
            }
        }
        Ok(None)
    }

    /// One entry of a walk: a finding, or what it is.
    fn visit(&self, path: &Path, root: &Path, scan: &Scan<'_>) -> Result<Visit, Limit> {
        let found = |what: &str| Ok(Visit::Found((path.to_path_buf(), what.to_owned())));
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        // An exclusion is matched as the program matches it, with case: a looser match would
        // leave out a file the program reads.
        let excluded = scan.excludes.iter().any(|g| excluded_by(g, &name));
        let named = !excluded
            && (scan.names.is_empty()
                || scan.names.iter().any(|g| component_matches(g, &name, true)));
        let Ok(meta) = std::fs::symlink_metadata(path) else {
            return Ok(Visit::Skip);
        };
        // What reads a tree prints names of its files (`grep -r` before each line, `head`
        // above each file): a name holding a secret, or a link's target, is printed. The
        // directory holding it is named, never the name itself.
        if scan.secrets && path != root {
            let what = name_secret(name.as_bytes())
                .map(|w| ("a name there", w))
                .or_else(|| {
                    meta.file_type()
                        .is_symlink()
                        .then(|| link_secret(path))
                        .flatten()
                        .map(|w| ("the target of a link there", w))
                });
            if let Some((which, what)) = what {
                let dir = path.parent().unwrap_or(root).to_path_buf();
                return Ok(Visit::Found((dir, format!("{which} holds {what}"))));
            }
        }
        let is_dir = meta.is_dir();
        if scan.secrets
            && (named || is_dir)
            && let Some(what) = self.secret_at(path)
            && !git_config::is_clean_git_config(path, &meta)
        {
            // A directory that is a secret (`.ssh`) holds only secrets; a file counts when
            // its name is among those read.
            if !is_dir || named || scan.names.is_empty() {
                return found(what);
            }
        }
        // A file with another name may be that name's file outside the workspace (a hard
        // link to `~/.ssh/id_ed25519` reads as any name here).
        if scan.secrets && named && meta.is_file() && hard_linked(path) {
            return found(
                "a file with more than one name (a hard link), which may be a file outside the workspace",
            );
        }
        // A file whose content is a key whatever its name (`deploy/dk` holding a PEM block).
        if scan.secrets
            && scan.contents
            && named
            && meta.is_file()
            && let Some(what) = content_secret(path)
        {
            return found(what);
        }
        if scan.dash_names && path != root && name.starts_with('-') {
            return found("a name that reads as an option");
        }
        if scan.dash_names
            && path != root
            && name.contains(|c: char| c.is_whitespace() || "'\"\\*?[".contains(c))
        {
            return found("a name that word splitting, globbing or `xargs` would change");
        }
        if meta.file_type().is_symlink() {
            // Links inside the tree are skipped unless followed; the root is always.
            if !scan.follow && path != root {
                return Ok(Visit::Skip);
            }
            let real = resolve(path).ok_or(Limit)?;
            if scan.secrets && !real.starts_with(&self.root) {
                return found("a link that leaves the workspace");
            }
            if scan.secrets
                && let Some(what) = self.secret_at(&real)
            {
                return found(what);
            }
            return Ok(if real.is_dir() {
                Visit::Dir
            } else {
                Visit::File
            });
        }
        Ok(if is_dir { Visit::Dir } else { Visit::File })
    }

    /// The first secret among the files git tracks under `root` (a resolved path inside the
    /// workspace), checked as [`Places::scan_tree`] checks a walked tree: by name, and a
    /// tracked symlink by where it leads. `None` when the workspace has no readable index.
    pub(crate) fn tracked_secret(
        &self,
        root: &Path,
        scan: &Scan<'_>,
    ) -> Option<Result<Option<(PathBuf, String)>, Limit>> {
        let files = git_index::tracked(&self.root)?;
        let prefix = root.strip_prefix(&self.root).ok()?;
        if files.len() > MAX_TREE_ENTRIES {
            return Some(Err(Limit));
        }
        for file in files {
            let rel = Path::new(&file);
            if !rel.starts_with(prefix) {
                continue;
            }
            let path = self.root.join(rel);
            let name = rel
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            // git prints a name with a byte past ASCII or a control character quoted and
            // escaped (`"\303\251.md"`), which the reader opens as written: another file.
            let odd = |c: std::path::Component<'_>| {
                let n = c.as_os_str().to_string_lossy();
                n.starts_with('-')
                    || n.contains(|ch: char| {
                        ch.is_whitespace()
                            || "'\"\\*?[".contains(ch)
                            || !ch.is_ascii()
                            || ch.is_control()
                    })
            };
            if scan.dash_names && rel.components().any(odd) {
                return Some(Ok(Some((
                    path,
                    "a name that reads as an option, or that git prints quoted or word splitting changes".to_owned(),
                ))));
            }
            let named = scan.names.is_empty()
                || scan.names.iter().any(|g| component_matches(g, &name, true));
            let excluded = scan.excludes.iter().any(|g| excluded_by(g, &name));
            if !scan.secrets || !named || excluded {
                continue;
            }
            if let Some(what) = self.secret_at(&path) {
                return Some(Ok(Some((path, what.to_owned()))));
            }
            let is_link =
                std::fs::symlink_metadata(&path).is_ok_and(|m| m.file_type().is_symlink());
            if is_link {
                let Some(real) = resolve(&path) else {
                    return Some(Err(Limit));
                };
                if !real.starts_with(&self.root) {
                    return Some(Ok(Some((
                        path,
                        "a link that leaves the workspace".to_owned(),
                    ))));
                }
                if let Some(what) = self.secret_at(&real) {
                    return Some(Ok(Some((path, what.to_owned()))));
                }
            }
            // git reads the work tree's file as a recursive read would: a key by its content
            // or a hard link is read whatever its name.
            if let Some(what) = tracked_file_secret(&path)
                && (scan.contents || hard_linked(&path))
            {
                return Some(Ok(Some((path, what.to_owned()))));
            }
        }
        Some(Ok(None))
    }

    /// The paths a glob `pattern` (braces already expanded) matches now, as the shell
    /// expands it in `cwd`: `*`, `?` and `[…]` never match a leading `.` unless `dotglob`.
    ///
    /// # Errors
    ///
    /// [`Limit`] when the expansion visits more than [`MAX_TREE_ENTRIES`] entries, or the
    /// directory is unknown.
    pub(crate) fn expand_glob(
        &self,
        pattern: &str,
        cwd: &WorkingDir,
        dotglob: bool,
    ) -> Result<Vec<String>, Limit> {
        // `*/` matches directories only.
        if let Some(dirs) = pattern.strip_suffix('/').filter(|p| !p.is_empty()) {
            let found = self.expand_glob(dirs, cwd, dotglob)?;
            return Ok(found
                .into_iter()
                .filter(|p| self.lexical(p, cwd).is_some_and(|l| l.is_dir()))
                .map(|p| format!("{p}/"))
                .collect());
        }
        let (base, rest) = if pattern.starts_with('/') || pattern.starts_with('~') {
            let first_glob = pattern.find(['*', '?', '[']).unwrap_or(pattern.len());
            let cut = pattern[..first_glob].rfind('/').map_or(0, |i| i + 1);
            (pattern[..cut].to_owned(), &pattern[cut..])
        } else {
            (String::new(), pattern)
        };
        let mut current = vec![base];
        let mut visited = 0usize;
        for part in rest.split('/') {
            let mut next = Vec::new();
            for prefix in &current {
                if !part.contains(['*', '?', '[']) {
                    next.push(format!("{prefix}{part}/"));
                    continue;
                }
                let dir = if prefix.is_empty() {
                    "."
                } else {
                    prefix.as_str()
                };
                let located = self.lexical(dir, cwd).ok_or(Limit)?;
                // POSIX sh (dash), ksh and bash before 5.2 let a component that begins with a
                // literal `.` match the entries `.` and `..`, which `read_dir` never yields:
                // `.?` is `..`, `.*` includes it. The least safe shell is modeled.
                if part.starts_with('.') {
                    for dots in [".", ".."] {
                        if component_matches(part, dots, dotglob) {
                            next.push(format!("{prefix}{dots}/"));
                        }
                    }
                }
                let Ok(entries) = std::fs::read_dir(&located) else {
                    continue;
                };
                for entry in entries.flatten() {
                    visited += 1;
                    if visited > MAX_TREE_ENTRIES {
                        return Err(Limit);
                    }
                    self.charge()?;
                    let name = entry.file_name().to_string_lossy().into_owned();
                    if component_matches(part, &name, dotglob) {
                        next.push(format!("{prefix}{name}/"));
                    }
                }
            }
            current = next;
        }
        Ok(current
            .into_iter()
            .map(|p| p.trim_end_matches('/').to_owned())
            .filter(|p| !p.is_empty())
            .collect())
    }

    /// How a resolved path reads in a reason: relative to the workspace root when inside it,
    /// else absolute.
    pub(crate) fn shown(&self, path: &Path) -> String {
        self.relative(path)
            .map_or_else(|| path.display().to_string(), |r| r.display().to_string())
    }

    /// The path relative to the workspace root, when inside it.
    pub(crate) fn relative<'p>(&self, real: &'p Path) -> Option<&'p Path> {
        real.strip_prefix(&self.root).ok()
    }
}

/// Concrete secret locations a glob is compared against (see [`Places::glob_sensitive`]).
fn secret_candidates(home: Option<&str>) -> Vec<String> {
    const IN_HOME: &[&str] = &[
        ".ssh",
        ".ssh/id_rsa",
        ".ssh/id_dsa",
        ".ssh/id_ecdsa",
        ".ssh/id_ed25519",
        ".ssh/authorized_keys",
        ".ssh/config",
        ".aws",
        ".aws/credentials",
        ".aws/config",
        ".gnupg",
        ".gnupg/private-keys-v1.d",
        ".config/gcloud/credentials.db",
        ".config/gcloud/application_default_credentials.json",
        ".config/gh",
        ".config/gh/hosts.yml",
        ".azure/accessTokens.json",
        ".kube/config",
        ".docker/config.json",
        ".netrc",
        ".pgpass",
        ".npmrc",
        ".pypirc",
        ".git-credentials",
        ".password-store/x",
        ".vault-token",
        ".env",
        "Library/Keychains/login.keychain-db",
    ];
    const SYSTEM_SECRETS: &[&str] = &[
        "/etc/shadow",
        "/etc/gshadow",
        "/etc/master.passwd",
        "/etc/sudoers",
        "/etc/sudoers.d/x",
        "/etc/ssh/ssh_host_rsa_key",
        "/etc/ssh/ssh_host_ed25519_key",
        "/etc/ssh/ssh_host_ecdsa_key",
        "/proc/1/environ",
        "/proc/self/environ",
        "/root/.ssh/id_rsa",
        "/root/.aws/credentials",
    ];
    let mut out: Vec<String> = SYSTEM_SECRETS.iter().map(|s| (*s).to_owned()).collect();
    for base in home.into_iter().chain(["/home/*", "/Users/*"]) {
        let base = base.trim_end_matches('/');
        out.extend(IN_HOME.iter().map(|rel| format!("{base}/{rel}")));
    }
    out
}

/// Whether the glob `pattern` could expand to `candidate` (both absolute; a `*` component in
/// the candidate stands for any name, such as another user's home).
fn glob_reaches(pattern: &str, candidate: &str, dotglob: bool) -> bool {
    let pat: Vec<&str> = pattern.split('/').filter(|c| !c.is_empty()).collect();
    let cand: Vec<&str> = candidate.split('/').filter(|c| !c.is_empty()).collect();
    reaches(&pat, &cand, dotglob)
}

fn reaches(pat: &[&str], cand: &[&str], dotglob: bool) -> bool {
    match (pat.split_first(), cand.split_first()) {
        (None, None) => true,
        (Some((&"**", rest)), _) => {
            (0..=cand.len()).any(|skip| reaches(rest, &cand[skip..], dotglob))
        }
        (Some((p, prest)), Some((c, crest))) => {
            component_matches(p, c, dotglob) && reaches(prest, crest, dotglob)
        }
        _ => false,
    }
}

/// Whether a name is left out by an exclusion glob, matched as the program matches it: with
/// case (a looser match would leave out a file the program reads).
fn excluded_by(glob: &str, name: &str) -> bool {
    globset::GlobBuilder::new(glob)
        .literal_separator(true)
        .build()
        .is_ok_and(|g| g.compile_matcher().is_match(name))
}

/// Whether the glob matcher of the walks (globset: `*`, `?`, `[…]` with `!` or `^`, and
/// `{a,b}` when `braces`) reads `glob` as the program it stands for reads it. fnmatch(3)
/// (`find -name`, `grep --include`), ripgrep's globset and git's wildmatch read a backslash
/// as escaping the next character (`\.env` is `.env`) and fnmatch reads POSIX bracket forms
/// (`[[:alpha:]]`, `[[=e=]]`, `[[.e.]]`); without `braces`, a brace is text to the program
/// (fnmatch) and is refused too. A glob outside this subset limits nothing.
pub(crate) fn glob_read_exactly(glob: &str, braces: bool) -> bool {
    !glob.contains('\\')
        && !["[[", "[:", "[=", "[."].iter().any(|f| glob.contains(f))
        && (braces || !glob.contains(['{', '}']))
}

/// Whether one glob component could match one name (`*` as a name matches anything). A
/// pattern the matcher may read otherwise than the program does matches anything.
fn component_matches(pattern: &str, name: &str, dotglob: bool) -> bool {
    if name == "*" || !glob_read_exactly(pattern, true) {
        return true;
    }
    if name.starts_with('.') && !pattern.starts_with('.') && !dotglob {
        return false;
    }
    if pattern.eq_ignore_ascii_case(name) {
        return true;
    }
    // Without a wildcard or a brace group (`{.env,x}`, ripgrep's alternatives), a name.
    if !pattern.contains(['*', '?', '[', '{']) {
        return false;
    }
    // A pattern that does not compile is matched as if it could be anything (fail-closed).
    sensitive::compile_secret(pattern).map_or(true, |g| g.compile_matcher().is_match(name))
}

/// The workspace root resolved, remembered per thread for the last root asked.
/// The workspace root resolved, and whether it is real (it exists and holds no symlink),
/// remembered per thread for the last root asked.
fn canonical_root(lexical: &Path) -> (PathBuf, bool) {
    match std::fs::canonicalize(lexical) {
        Ok(v) => (v, true),
        Err(_) => (lexical.to_path_buf(), false),
    }
}

/// The workspace root `root` as places keep it: absolute (a relative root is relative to the
/// process's directory, never to nothing), `.` and `..` removed, resolved when it exists;
/// whether it was resolved, and whether the result is in normal form ([`plain`]). The last
/// absolute root asked for is remembered per thread: a decision builds places several times
/// for the same workspace (each evaluator of a call, each call of a session).
fn placed_root(root: &Path) -> (PathBuf, bool, bool) {
    type Memo = Option<(PathBuf, PathBuf, bool, bool)>;
    thread_local! {
        static LAST: std::cell::RefCell<Memo> = const { std::cell::RefCell::new(None) };
    }
    let place = |root: &Path| {
        let absolute = if root.is_relative() {
            Cow::Owned(
                std::env::current_dir().map_or_else(|_| root.to_path_buf(), |cwd| cwd.join(root)),
            )
        } else {
            Cow::Borrowed(root)
        };
        let lexical = if plain(&absolute) {
            absolute
        } else {
            Cow::Owned(normalize(&absolute))
        };
        let (real, is_real) = canonical_root(&lexical);
        let real_plain = plain(&real);
        (real, is_real, real_plain)
    };
    // A relative root depends on the process's directory, which may change: never kept.
    if root.is_relative() {
        return place(root);
    }
    LAST.with(|last| {
        if let Some((k, v, real, v_plain)) = &*last.borrow()
            && k.as_path() == root
        {
            return (v.clone(), *real, *v_plain);
        }
        let (v, real, v_plain) = place(root);
        *last.borrow_mut() = Some((root.to_path_buf(), v.clone(), real, v_plain));
        (v, real, v_plain)
    })
}

/// A path whose place the text does not tell (a relative path after an unknown `cd`).
impl Places<'_> {
    /// A relative path used in a directory not known here (`CDPATH=~ cd .ssh && cat id_rsa`):
    /// unknown, unless its name alone is a secret's wherever it lies (`id_rsa`, `.env`,
    /// `.aws/credentials`), which is that secret.
    fn unknown_named(&self, raw: &str) -> Located {
        let relative = !raw.starts_with(['/', '~']) && !raw.contains("..");
        let what = self.sensitive.filter(|_| relative).and_then(|sensitive| {
            let probe = Path::new("/").join(raw.trim_start_matches("./"));
            sensitive.matches(&probe).map(str::to_owned)
        });
        match what {
            Some(what) => Located {
                place: Place::Sensitive(what),
                path: PathBuf::from(raw),
            },
            None => unknown(raw),
        }
    }
}

fn unknown(raw: &str) -> Located {
    Located {
        place: Place::Unknown,
        path: PathBuf::from(raw),
    }
}

/// Whether the ignore file at `path` is absent, or UTF-8 with no byte-order mark: read alike
/// by every version of the `ignore` rules.
fn plain_ignore_file(path: &Path) -> bool {
    match std::fs::read(path) {
        Ok(bytes) => !bytes.starts_with(b"\xEF\xBB\xBF") && std::str::from_utf8(&bytes).is_ok(),
        Err(e) => matches!(
            e.kind(),
            std::io::ErrorKind::NotFound | std::io::ErrorKind::NotADirectory
        ),
    }
}

/// Whether `path` is a device that reads as empty or discards what is written
/// (`/dev/null`, `/dev/fd/N`, …), named exactly.
fn harmless_device(path: &Path) -> bool {
    if !path.as_os_str().as_encoded_bytes().starts_with(b"/dev/") {
        return false;
    }
    let text = path.to_string_lossy();
    let fd = text
        .strip_prefix("/dev/fd/")
        .is_some_and(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()));
    HARMLESS_DEVICES.contains(&text.as_ref()) || fd
}

/// Whether `path` is already in normal form: no `.` or `..` component, no empty component
/// (`a//b`), no trailing `/`.
/// Whether `text` holds `..` anywhere (a byte scan: the words looked at are short, and a
/// substring search builds a searcher first).
pub(crate) fn has_dot_dot(text: &str) -> bool {
    text.as_bytes().windows(2).any(|w| w == b"..")
}

fn plain(path: &Path) -> bool {
    let bytes = path.as_os_str().as_encoded_bytes();
    let body = bytes.strip_prefix(b"/").unwrap_or(bytes);
    if body.is_empty() {
        return true;
    }
    // One pass over the bytes: each component (between slashes) must be neither empty nor
    // `.` nor `..`. (Called several times per path word: kept to a tight loop.)
    let mut start = 0;
    for (i, &b) in body.iter().enumerate() {
        if b == b'/' {
            if !plain_component(&body[start..i]) {
                return false;
            }
            start = i + 1;
        }
    }
    plain_component(&body[start..])
}

/// Whether one component of a path is a name: neither empty nor `.` nor `..`.
fn plain_component(c: &[u8]) -> bool {
    match c.len() {
        0 => false,
        1 => c[0] != b'.',
        2 => c != b"..",
        _ => true,
    }
}

/// Whether `path` is `base` or below it, component by component (`/ab` is not below `/a`).
fn below(path: &Path, base: &Path) -> bool {
    below_known(path, plain(path), base)
}

/// [`below`], told whether `path` is in normal form ([`plain`]).
fn below_known(path: &Path, path_plain: bool, base: &Path) -> bool {
    below_both(path, path_plain, base, plain(base))
}

/// [`below`], told whether `path` and `base` are in normal form ([`plain`]).
fn below_both(path: &Path, path_plain: bool, base: &Path, base_plain: bool) -> bool {
    if !(path_plain && base_plain) {
        return path.starts_with(base);
    }
    let (path, base) = (
        path.as_os_str().as_encoded_bytes(),
        base.as_os_str().as_encoded_bytes(),
    );
    path.strip_prefix(base)
        .is_some_and(|rest| rest.is_empty() || rest[0] == b'/' || base.ends_with(b"/"))
}

/// The bytes of a file read first to tell whether its content is a secret: most files are
/// shorter, and are read once.
const CONTENT_SNIFF_BYTES: u64 = 4096;

/// The most bytes of a file searched for a secret by its content; a longer file is not
/// proven free of one.
pub(crate) const CONTENT_SCAN_BYTES: u64 = 16 * 1024 * 1024;

/// What a file longer than [`CONTENT_SCAN_BYTES`] is, as far as its content is searched.
pub(crate) const LONGER_THAN_SCANNED: &str =
    "a file longer than is searched for keys (by its content)";

/// What secret a regular file's content is, whatever its name: a private key
/// (`-----BEGIN … PRIVATE KEY-----`, also base64-encoded, in UTF-16 or UTF-32 or written with
/// JSON escapes; a binary DER key or PKCS#12 file, or one base64-encoded; OpenPGP secret
/// packets under any armor label; a JWK with its private part; a WireGuard, minisign or
/// signify key), a cloud service account key or OAuth
/// credentials, AWS-style access keys, registry and signing passwords, a Kubernetes Secret,
/// a repository's git configuration ([`secret_text`]). The whole file is searched, up to
/// [`CONTENT_SCAN_BYTES`]: a key after a page of notes counts as one at the start, and a
/// longer file is not proven free of one. A file that cannot be read is judged by its name
/// alone.
pub(crate) fn content_secret(path: &Path) -> Option<&'static str> {
    let head = small_file::read_head(path, CONTENT_SNIFF_BYTES)?;
    if let Some(what) = secret_text(&head) {
        return Some(what);
    }
    if (head.len() as u64) < CONTENT_SNIFF_BYTES {
        return None;
    }
    let all = small_file::read_head(path, CONTENT_SCAN_BYTES + 1)?;
    bytes_secret(&all)
}

/// What secret a name printed by a command holds, if one does: a file's, a directory's or
/// a ref's name, a link's target, a path a listing or a glob prints. A name is text like a
/// file's, so the families of [`secret_text`] are searched in it, after the cheap search of
/// their markers ([`secret_markers`]) finds one: `deploy-ghp_…` or `key=…` in a name prints
/// the secret as `cat` of a file holding it would.
pub(crate) fn name_secret(name: &[u8]) -> Option<&'static str> {
    if secret_markers().is_some_and(|m| !m.is_match(name)) {
        return None;
    }
    secret_text(name)
}

/// The most entries [`names_secret`] reads before the names count as more than can be
/// checked. Names are read from the directories alone (no file is opened or looked at), so
/// the bound is larger than a walk's that reads files ([`MAX_TREE_ENTRIES`]).
pub(crate) const MAX_NAMES: usize = 200_000;

/// What secret where the link at `path` leads holds, as a name ([`name_secret`]): `ls -l`,
/// `readlink` and `stat` print it. Nothing when `path` is no link.
fn link_secret(path: &Path) -> Option<&'static str> {
    std::fs::read_link(path)
        .ok()
        .and_then(|target| name_secret(target.as_os_str().as_encoded_bytes()))
}

/// The first name a listing of `path` prints that holds a secret ([`name_secret`]), with what
/// it is: where `path` leads when it is a symbolic link (`ls -l`, `readlink`, `stat`), and the
/// name of each entry of a directory and where each link among them leads, its whole tree
/// when `recursive` (`ls -R`, `find`, `du -a`), hidden entries and a repository's git
/// directory included (ref, worktree and module names are names of files there). The loose
/// objects of a git directory (`objects/` beside its `HEAD`), named by git after their ids,
/// are not read. A path that does not exist lists nothing.
///
/// # Errors
///
/// [`Limit`] past [`MAX_NAMES`] entries, or when a directory of the tree cannot be read.
pub(crate) fn names_secret(
    path: &Path,
    recursive: bool,
) -> Result<Option<(PathBuf, &'static str)>, Limit> {
    let Ok(meta) = std::fs::symlink_metadata(path) else {
        return Ok(None);
    };
    if meta.file_type().is_symlink()
        && let Some(what) = link_secret(path)
    {
        return Ok(Some((path.to_path_buf(), what)));
    }
    if !std::fs::metadata(path).is_ok_and(|m| m.is_dir()) {
        return Ok(None);
    }
    let mut dirs = vec![path.to_path_buf()];
    let mut seen = 0usize;
    while let Some(dir) = dirs.pop() {
        let entries = std::fs::read_dir(&dir).map_err(|_| Limit)?;
        let git_dir = recursive && dir.join("HEAD").is_file() && dir.join("refs").is_dir();
        for entry in entries {
            let entry = entry.map_err(|_| Limit)?;
            seen += 1;
            if seen > MAX_NAMES {
                return Err(Limit);
            }
            let name = entry.file_name();
            if let Some(what) = name_secret(name.as_encoded_bytes()) {
                return Ok(Some((entry.path(), what)));
            }
            let Ok(kind) = entry.file_type() else {
                return Err(Limit);
            };
            if kind.is_symlink()
                && let Some(what) = link_secret(&entry.path())
            {
                return Ok(Some((entry.path(), what)));
            }
            if recursive && kind.is_dir() && !(git_dir && name == "objects") {
                dirs.push(entry.path());
            }
        }
    }
    Ok(None)
}

/// The first name a walk of the work tree at `top` finds that holds a secret
/// ([`name_secret`]), as git walks it for untracked files: hidden names included, what its
/// `.gitignore` files, `info/exclude` and the global excludes leave out left out (the
/// `ignore` crate's reading; `.ignore` files, which git does not read, are not honoured),
/// the git directory not entered.
///
/// # Errors
///
/// [`Limit`] past [`MAX_NAMES`] entries, or an entry that cannot be read.
pub(crate) fn work_tree_names_secret(top: &Path) -> Result<Option<&'static str>, Limit> {
    let walker = ignore::WalkBuilder::new(top)
        .hidden(false)
        .ignore(false)
        .parents(false)
        .require_git(false)
        .filter_entry(|e| e.file_name() != ".git")
        .build();
    for (seen, entry) in walker.enumerate() {
        if seen > MAX_NAMES {
            return Err(Limit);
        }
        let entry = entry.map_err(|_| Limit)?;
        if let Some(what) = name_secret(entry.file_name().as_encoded_bytes()) {
            return Ok(Some(what));
        }
    }
    Ok(None)
}

/// What secret the bytes of a whole file are ([`content_secret`] for a file read from
/// elsewhere than the file system: a blob of the repository's objects). More than
/// [`CONTENT_SCAN_BYTES`] is not proven free of one.
pub(crate) fn bytes_secret(all: &[u8]) -> Option<&'static str> {
    if all.len() as u64 > CONTENT_SCAN_BYTES {
        return Some(LONGER_THAN_SCANNED);
    }
    // A binary key has no text marker.
    if let Some(what) = der_private_key(all) {
        return Some(what);
    }
    // The whole text is read only where a secret's marker appears ([`secret_markers`]): in
    // the bytes, in their ASCII read as UTF-16 or UTF-32, or in wrapped base64 joined.
    if all.len() as u64 > CONTENT_SNIFF_BYTES
        && let Some(markers) = secret_markers()
        && !markers.is_match(all)
        && !wrapped_base64_marker(all, markers)
        && !wide_ascii(all)
            .is_some_and(|ascii| markers.is_match(&ascii) || wrapped_base64_marker(&ascii, markers))
    {
        return None;
    }
    secret_text(all)
}

/// Whether a marker appears in a run of lines of base64 (`base64` wraps at 76 columns,
/// PEM at 64) joined without their line breaks: a marker the breaks cut.
fn wrapped_base64_marker(all: &[u8], markers: &aho_corasick::AhoCorasick) -> bool {
    let mut run: Vec<u8> = Vec::new();
    let mut lines = 0;
    for line in all.split(|b| *b == b'\n') {
        let line = line.trim_ascii();
        let base64 = !line.is_empty()
            && line
                .iter()
                .all(|b| b.is_ascii_alphanumeric() || b"+/=-_".contains(b));
        if base64 {
            run.extend_from_slice(line);
            lines += 1;
            continue;
        }
        if lines > 1 && markers.is_match(&run) {
            return true;
        }
        run.clear();
        lines = 0;
    }
    lines > 1 && markers.is_match(&run)
}

/// Whether the regular file at `path` is plain text, as far as its first
/// [`CONTENT_SNIFF_BYTES`] tell (UTF-8 without NUL bytes): what a decompressor passes through
/// as it is (`zcat -f`). Anything else (a compressed stream of any format, lzma's included,
/// which has no fixed magic) may decode to anything. A file that cannot be read is not.
pub(crate) fn plain_text(path: &Path) -> bool {
    small_file::read_head(path, CONTENT_SNIFF_BYTES).is_some_and(|head| {
        !head.contains(&0)
            && match std::str::from_utf8(&head) {
                Ok(_) => true,
                // Cut inside a character at the end of what was read.
                Err(e) => e.error_len().is_none(),
            }
    })
}

/// Texts at least one of which every secret [`secret_text`] recognizes holds (ASCII case
/// ignored) in its bytes, its ASCII read as UTF-16 or UTF-32 or its wrapped base64 joined
/// ([`bytes_secret`]); a JSON escape (`\u00`) stands for what it may hide, and a binary DER
/// key is found by its structure without one. A cheap search of a long file before it is
/// read as text. `None` if the search could not be built: every long file is then read as
/// text.
fn secret_markers() -> Option<&'static aho_corasick::AhoCorasick> {
    static MARKERS: std::sync::OnceLock<Option<aho_corasick::AhoCorasick>> =
        std::sync::OnceLock::new();
    MARKERS
        .get_or_init(|| {
            let mut markers: Vec<&[u8]> = vec![
                b"-----begin",
                b"-\0-\0-\0-\0-\0",
                b"-\0\0\0-\0\0\0-\0\0\0-\0\0\0-",
                b"\\u00",
                b"ufjjvkfursblrv",
                b"bssvzbveugs0vz",
                b"qukwqvrfietfw",
                b"50524956415445204b4559",
                b"age-secret-key-1",
                b"putty-user-key-file-",
                b"private_key",
                b"service_account",
                b"authorized_user",
                b"external_account",
                b"refresh_token",
                b"\"kty\"",
                b"[interface]",
                b"[peer]",
                b"privatekey",
                b"private key",
                b"presharedkey",
                b"preshared key",
                b"untrusted comment:",
                b"secret_access_key",
                b"secret access key",
                b"_authtoken",
                b"npmauthtoken",
                b"oauth_token",
                b"secret_key",
                b"client_secret",
                b"clientsecret",
                b"[pypi]",
                b"[testpypi]",
                b"\"credentials\"",
                b"users:",
                b"_password",
                b"storepassword",
                b"keypassword",
                b"\"auths\"",
                b"<password>",
                b"cleartextpassword",
                b"repositoryformatversion",
                // `[registry]`, `[ registries.x ]`.
                b"registr",
                // A Kubernetes Secret however spaced (`"kind" : "Secret"`, `kind : Secret`).
                b"kind",
                b"openvpn static key",
                b"ed25519v1-secret",
                b"machine ",
                b"_auth",
                b"identitytoken",
                b"registrytoken",
                b"secretaccesskey",
                // A URL's password, a bearer token, a JSON Web Token, a password given.
                b"://",
                b"bearer",
                // A user's password hash (`root:$6$…`, `admin:{SHA}…`).
                b":$",
                b":{s",
                b"eyj",
                b"password",
                b"passwd",
                b"begin",
                // A value given to a name for a secret (`SENDGRID_API_KEY=…`, `;AccountKey=…`).
                b"key",
                b"token",
                b"secret",
                b"pwd",
                b"auth",
                b"credential",
                b"pass",
                b"psk",
                b"creds",
                // A password on a command line, an AWS key pair without names
                // (`credentials::apart`).
                b"curl",
                b"wget",
                b"mysql",
                b"mariadb",
                b"sshpass",
                b"smbclient",
                b"ldap",
                b"redis-cli",
                b"--user",
                b"--proxy-user",
                b"akia",
                b"asia",
                // A `.pgpass` line (`host:5432:db:user:password`, `*:*:*:user:password`).
                b":5432:",
                b":6432:",
                b":*:",
                b"identified by",
                b"docker",
                b"mongo",
            ];
            // Every name a secret may be given ([`SECRET_NAME_ENDS`]: `SMTP_PW=…`).
            markers.extend(SECRET_NAME_ENDS.iter().map(|e| e.as_bytes()));
            markers.extend(
                BASE64_DER_KEYS
                    .iter()
                    .map(|p| base64_der_anchor(p).1.as_bytes()),
            );
            markers.extend(tokens::prefixes().map(str::as_bytes));
            aho_corasick::AhoCorasick::builder()
                .ascii_case_insensitive(true)
                .build(markers)
                .ok()
        })
        .as_ref()
}

/// What secret the work tree's tracked file `path` may hold whatever its name, when git
/// reads or prints it (`git grep` in the work tree; `git show`, `git log -p` and `git diff`
/// of the objects git stored from it): a regular file with more than one name (a hard link:
/// another of its names may be a secret outside the workspace) or whose content is a secret
/// ([`content_secret`]). A link or a file that cannot be looked at is judged elsewhere.
pub(crate) fn tracked_file_secret(path: &Path) -> Option<&'static str> {
    if !std::fs::symlink_metadata(path).is_ok_and(|m| m.is_file()) {
        return None;
    }
    if hard_linked(path) {
        return Some(
            "a file with more than one name (a hard link), which may be a file outside the workspace",
        );
    }
    content_secret(path)
}

/// What secret a file's text (or its beginning) is, by the families of key headers and
/// credential markers. Every family holds one of [`secret_markers`].
fn secret_text(head: &[u8]) -> Option<&'static str> {
    secret_layers(head, 0)
}

/// The most decoding layers (wide characters, JSON escapes) [`secret_layers`] takes off one
/// text before its families are searched again.
const MAX_TEXT_LAYERS: u8 = 2;

/// [`secret_text`] of `head` after `depth` decoding layers were taken off: its families, then
/// those of its ASCII read as UTF-16 or UTF-32 ([`wide_ascii`]) and of its JSON strings'
/// escapes decoded ([`json_unescaped`]).
fn secret_layers(head: &[u8], depth: u8) -> Option<&'static str> {
    if let Some(what) = text_families(head) {
        return Some(what);
    }
    if depth >= MAX_TEXT_LAYERS {
        return None;
    }
    if let Some(ascii) = wide_ascii(head)
        && let Some(what) = secret_layers(&ascii, depth + 1)
    {
        return Some(what);
    }
    let text = String::from_utf8_lossy(head);
    if let Some(decoded) = json_unescaped(&text)
        && let Some(what) = secret_layers(decoded.as_bytes(), depth + 1)
    {
        return Some(what);
    }
    // A secret base64-encoded into a value (a registry's `auths`, a CI variable, a
    // Kubernetes Secret's data): each long run of base64 that decodes to text is read as
    // text too.
    if let Some(decoded) = byte_escapes_decoded(&text)
        && let Some(what) = secret_layers(&decoded, depth + 1)
    {
        return Some(what);
    }
    base64_texts(&text)
        .chain(hex_and_base32_texts(&text))
        .find_map(|decoded| secret_layers(&decoded, depth + 1))
}

/// The text each long run of hexadecimal digits (`xxd -p`, an even count of at least
/// [`MIN_BASE64_RUN`]) or of base32 (`base32`: upper-case letters and `2`–`7`, padding
/// aside) in `text` decodes to, when that is text ([`printable_text`]).
fn hex_and_base32_texts(text: &str) -> impl Iterator<Item = Vec<u8>> + '_ {
    let hex = text
        .split(|c: char| !c.is_ascii_hexdigit())
        .filter(|run| run.len() >= MIN_BASE64_RUN && run.len() % 2 == 0)
        .take(MAX_BASE64_RUNS)
        .map(|run| {
            run.as_bytes()
                .chunks(2)
                .filter_map(|pair| u8::from_str_radix(std::str::from_utf8(pair).ok()?, 16).ok())
                .collect::<Vec<u8>>()
        });
    let base32 = text
        .split(|c: char| !(c.is_ascii_uppercase() || ('2'..='7').contains(&c)))
        .filter(|run| run.len() >= MIN_BASE64_RUN)
        .take(MAX_BASE64_RUNS)
        .map(base32_decoded);
    hex.chain(base32).filter_map(as_text)
}

/// Decoded bytes as text: as they are when printable ([`printable_text`]), or their ASCII
/// when they are UTF-16 or UTF-32 ([`wide_ascii`]).
fn as_text(decoded: Vec<u8>) -> Option<Vec<u8>> {
    if printable_text(&decoded) {
        return Some(decoded);
    }
    wide_ascii(&decoded).filter(|ascii| printable_text(ascii))
}

/// `text` with its escapes of single bytes decoded, when it holds at least eight: `\xHH`
/// (C, Python, JavaScript), `%HH` (URLs) and `&#NN;`/`&#xHH;` (HTML).
fn byte_escapes_decoded(text: &str) -> Option<Vec<u8>> {
    let count =
        text.matches("\\x").count() + text.matches('%').count() + text.matches("&#").count();
    if count < 8 {
        return None;
    }
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    let hex = |s: &[u8]| {
        std::str::from_utf8(s)
            .ok()
            .and_then(|t| u8::from_str_radix(t, 16).ok())
    };
    while i < bytes.len() {
        let rest = &bytes[i..];
        if (rest.starts_with(b"\\x") || rest.starts_with(b"%"))
            && let Some(b) = rest
                .get(if rest[0] == b'%' { 1..3 } else { 2..4 })
                .and_then(hex)
        {
            out.push(b);
            i += if rest[0] == b'%' { 3 } else { 4 };
            continue;
        }
        if rest.starts_with(b"&#")
            && let Some(end) = rest.iter().take(8).position(|b| *b == b';')
        {
            let body = &rest[2..end];
            let value = match body.first() {
                Some(b'x' | b'X') => hex(&body[1..]),
                _ => std::str::from_utf8(body)
                    .ok()
                    .and_then(|t| t.parse::<u8>().ok()),
            };
            if let Some(b) = value {
                out.push(b);
                i += end + 1;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    Some(out)
}

/// The bytes of base32 text (RFC 4648's alphabet) up to its first other character.
fn base32_decoded(text: &str) -> Vec<u8> {
    bits_decoded(text, 5, |b| match b {
        b'A'..=b'Z' => Some(Some(b - b'A')),
        b'2'..=b'7' => Some(Some(b - b'2' + 26)),
        _ => None,
    })
}

/// The bytes of text whose characters each carry `width` bits, as `digit` reads a
/// character: `Some(Some(value))`, `Some(None)` for one skipped (a blank), `None` for one
/// that ends the text.
fn bits_decoded(text: &str, width: u32, digit: impl Fn(u8) -> Option<Option<u8>>) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len() * width as usize / 8);
    let (mut acc, mut bits) = (0u32, 0u32);
    for b in text.bytes() {
        let Some(v) = digit(b) else { break };
        let Some(v) = v else { continue };
        acc = (acc << width | u32::from(v)) & 0xff_ffff;
        bits += width;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
        }
    }
    out
}

/// Whether decoded bytes are text: at least 16 of them, printable ASCII and blanks only.
fn printable_text(decoded: &[u8]) -> bool {
    decoded.len() >= 16
        && decoded
            .iter()
            .all(|b| b.is_ascii_graphic() || matches!(b, b' ' | b'\t' | b'\r' | b'\n'))
}

/// The shortest run of base64 characters read as an encoded value (18 bytes of text).
const MIN_BASE64_RUN: usize = 24;

/// The most runs of base64 in one text that are decoded.
const MAX_BASE64_RUNS: usize = 32;

/// The text that each run of base64 in `text` (at least [`MIN_BASE64_RUN`] characters of the
/// standard or URL-safe alphabet, its padding aside) decodes to, when that is text: printable
/// ASCII and blanks only (an image, a hash or a key's binary is not; a binary key is
/// [`der_private_key`]'s).
fn base64_texts(text: &str) -> impl Iterator<Item = Vec<u8>> + '_ {
    let is_b64 = |c: char| c.is_ascii_alphanumeric() || matches!(c, '+' | '/' | '-' | '_');
    text.split(move |c: char| !is_b64(c))
        .filter(|run| run.len() >= MIN_BASE64_RUN)
        .take(MAX_BASE64_RUNS)
        .map(base64_decoded)
        .filter_map(as_text)
}

/// The families of [`secret_text`] in the bytes as they are.
fn text_families(head: &[u8]) -> Option<&'static str> {
    if let Some(what) = der_private_key(head) {
        return Some(what);
    }
    // Key stores by their magic numbers: Java's JKS and JCEKS (whose default password,
    // `changeit`, opens the keys), and a Kerberos credential cache (version 4, its header's
    // length after it).
    if head.starts_with(&[0xFE, 0xED, 0xFE, 0xED]) || head.starts_with(&[0xCE, 0xCE, 0xCE, 0xCE]) {
        return Some("a Java keystore (by its content)");
    }
    if head.starts_with(&[0x05, 0x04, 0x00, 0x0C]) {
        return Some("a Kerberos credential cache (by its content)");
    }
    if head.starts_with(&[0x05, 0x02, 0x00, 0x00]) {
        return Some("a Kerberos keytab (by its content)");
    }
    if openpgp_secret_packet(head) {
        return Some("an OpenPGP secret key (by its content)");
    }
    let text = String::from_utf8_lossy(head);
    // `-----BEGIN [ANY] PRIVATE KEY-----`, `… PRIVATE KEY BLOCK-----` (PGP armor), other
    // armors (`---- BEGIN SSH2 ENCRYPTED PRIVATE KEY ----`): a header followed by a key's
    // body (a header alone, a constant or a pattern in code, holds none).
    if text.contains("BEGIN")
        && (text.contains("PRIVATE KEY") || text.contains("OpenVPN Static key"))
        && armored_key_body(&text)
    {
        return Some("a private key (by its content)");
    }
    // OpenPGP armor under any label (`PGP PUBLIC KEY BLOCK`, `PGP MESSAGE`) whose packets
    // are a secret key's.
    if text.contains("-----BEGIN PGP ") && openpgp_armored_secret(&text) {
        return Some("an OpenPGP secret key (by its content)");
    }
    if text.contains("ed25519v1-secret") {
        return Some("a Tor onion service key (by its content)");
    }
    if netrc_password(&text) {
        return Some("netrc credentials (by its content)");
    }
    if pgpass_line(&text) {
        return Some("a PostgreSQL password file's entry (by its content)");
    }
    // gpg-agent's key files (`private-keys-v1.d/*.key`): an s-expression holding the key,
    // in the clear when it was made without a passphrase.
    if text.contains("(private-key") || text.contains("(protected-private-key") {
        return Some("a gpg-agent private key (by its content)");
    }
    // The same in UTF-16 or UTF-32 (either byte order): its ASCII with NULs beside each byte.
    if text.contains('\0') {
        let ascii: String = text.chars().filter(|c| *c != '\0').collect();
        if ascii.contains("-----BEGIN") && ascii.contains("PRIVATE KEY") {
            return Some("a private key in UTF-16 or UTF-32 (by its content)");
        }
    }
    // A private key's header base64-encoded at any of the three alignments (a Kubernetes
    // `tls.key`, a CI variable's file) or hex-encoded (`xxd -p`), line breaks removed.
    let compact: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    if ["UFJJVkFURSBLRV", "BSSVZBVEUgS0VZ", "QUklWQVRFIEtFW"]
        .iter()
        .any(|m| compact.contains(m))
    {
        return Some("a base64-encoded private key (by its content)");
    }
    // A DER private key base64-encoded on its own (a property's value, a JSON string).
    if base64_der_key(&compact) {
        return Some("a base64-encoded private key (by its content)");
    }
    let compact_lower = compact.to_ascii_lowercase();
    if compact_lower.contains("50524956415445204b4559") {
        return Some("a hex-encoded private key (by its content)");
    }
    if text.contains("AGE-SECRET-KEY-1") {
        return Some("an age private key (by its content)");
    }
    if text.contains("PuTTY-User-Key-File-") {
        return Some("a PuTTY private key (by its content)");
    }
    let lower = text.to_ascii_lowercase();
    if wireguard_key(&lower) {
        return Some("a WireGuard private key (by its content)");
    }
    // A minisign or signify secret key (`untrusted comment: … secret key`).
    if lower.lines().any(|l| {
        let l = l.trim_start();
        l.starts_with("untrusted comment:") && l.contains("secret key")
    }) {
        return Some("a minisign or signify secret key (by its content)");
    }
    if compact.contains("\"private_key\":\"") || compact.contains("\"type\":\"service_account\"") {
        return Some("a cloud service account key (by its content)");
    }
    // Google OAuth credentials (application default credentials, workload identity).
    if compact.contains("\"type\":\"authorized_user\"")
        || compact.contains("\"type\":\"external_account\"")
        || (compact.contains("\"client_secret\":\"") && compact.contains("\"refresh_token\":\""))
    {
        return Some("OAuth credentials (by its content)");
    }
    // A JSON Web Key with its private part `d`.
    if compact.contains("\"kty\":\"") && compact.contains("\"d\":\"") {
        return Some("a private JSON Web Key (by its content)");
    }
    // AWS credentials files and exports (a value given to the name); the CSV the console
    // downloads (`Access key ID,Secret access key`); the JSON of `aws sts`
    // (`"SecretAccessKey": "…"`).
    if secret_assigned(&lower, "secret_access_key")
        || lower
            .lines()
            .any(|l| l.contains("secret access key") && l.contains(','))
        || compact_lower
            .match_indices("\"secretaccesskey\":\"")
            .any(|(at, key)| {
                compact_lower
                    .as_bytes()
                    .get(at + key.len())
                    .is_some_and(|b| *b != b'"')
            })
    {
        return Some("cloud access keys (by its content)");
    }
    // Credential files by their form: git's credential store (every line a URL with a
    // password), a kubeconfig with a user's token, key or password, the GitHub CLI's hosts
    // (`oauth_token:`), Terraform's credentials (`"credentials"` with a `"token"`), a
    // `.pypirc` (`[pypi]` with a password), s3cmd's `secret_key`, a service principal's
    // `clientSecret`. A store of credential URLs is a short file: one longer than the first
    // read ([`CONTENT_SNIFF_BYTES`]) is not one (no marker of [`secret_markers`] finds it).
    let credential_urls = head.len() as u64 <= CONTENT_SNIFF_BYTES && {
        let mut lines = text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .peekable();
        lines.peek().is_some()
            && lines.all(|l| {
                l.split_once("://").is_some_and(|(scheme, rest)| {
                    !scheme.is_empty()
                        && scheme
                            .bytes()
                            .all(|b| b.is_ascii_alphanumeric() || b == b'+')
                        && rest.split_once('@').is_some_and(|(user, _)| {
                            user.split_once(':')
                                .is_some_and(|(_, pass)| !pass.is_empty())
                        })
                })
            })
    };
    let kubeconfig = compact_lower.contains("kind:config")
        && compact_lower.contains("users:")
        && ["token", "client-key-data", "password"]
            .iter()
            .any(|k| token_assigned(&lower, k));
    let pypirc = (lower.contains("[pypi]") || lower.contains("[testpypi]"))
        && token_assigned(&lower, "password");
    let terraform = compact_lower.contains("\"credentials\":{") && token_assigned(&lower, "token");
    if credential_urls
        || kubeconfig
        || pypirc
        || terraform
        || ["oauth_token", "secret_key", "client_secret", "clientsecret"]
            .iter()
            .any(|k| token_assigned(&lower, k))
    {
        return Some("credentials (by its content)");
    }
    // A repository's git configuration wherever it lies (a bare clone, a mirror, a separate
    // git directory) that may hold a credential, as `.git/config` may: a remote URL with a
    // user, a header, anything its reading does not show is free of one.
    if lower.contains("repositoryformatversion") && git_config::unproven(&text).is_some() {
        return Some("a Git config, which may hold tokens (by its content)");
    }
    if npmrc_auth(&lower, "_authtoken")
        || npmrc_auth(&lower, "_password")
        || secret_assigned(&lower, "npmauthtoken")
        || compact_lower.contains("storepassword=")
        || compact_lower.contains("keypassword=")
        || npmrc_auth(&lower, "_auth")
        || (compact_lower.contains("\"auths\":{")
            && [
                "\"auth\":\"",
                "\"identitytoken\":\"",
                "\"registrytoken\":\"",
            ]
            .iter()
            .any(|k| compact_lower.contains(k)))
        || (compact_lower.contains("<password>") && compact_lower.contains("</password>"))
        || compact_lower.contains("cleartextpassword")
        || ((compact_lower.contains("[registry]") || compact_lower.contains("[registries."))
            && compact_lower.contains("token"))
    {
        return Some("registry or signing credentials (by its content)");
    }
    if let Some(what) = tokens::known_token(head) {
        return Some(what);
    }
    if url_password(&text) {
        return Some("a URL with a password (by its content)");
    }
    if bearer_token(&text) || json_web_token(&text) {
        return Some("an access token (by its content)");
    }
    if password_hash(&text) {
        return Some("a password hash (by its content)");
    }
    if assigned(&lower, "password", secret_shaped) || assigned(&lower, "passwd", secret_shaped) {
        return Some("a password (by its content)");
    }
    if named_secret(&text) {
        return Some("a value given to a name for a secret (by its content)");
    }
    if let Some(what) = credentials::apart(&text) {
        return Some(what);
    }
    if [
        "kind:secret",
        "kind:\"secret\"",
        "kind:'secret'",
        "\"kind\":\"secret\"",
    ]
    .iter()
    .any(|k| compact_lower.contains(k))
    {
        return Some("a Kubernetes Secret (by its content)");
    }
    None
}

/// Whether a value is shaped as a secret rather than a word or a placeholder: eight
/// characters or more, letters and digits among them, not a variable or template (`$X`,
/// `${…}`, `<pass>`, `%s`, `***`) nor a sample (`example`, `changeme`, `your…`).
fn secret_shaped(value: &str) -> bool {
    let lower = value.to_ascii_lowercase();
    value.len() >= 8
        && value.bytes().any(|b| b.is_ascii_digit())
        && value.bytes().any(|b| b.is_ascii_alphabetic())
        && !value.starts_with(['$', '<', '{', '%', '*', '.'])
        && ![
            "example",
            "changeme",
            "password",
            "your",
            "xxxx",
            "placeholder",
        ]
        .iter()
        .any(|p| lower.contains(p))
}

/// The last words of names given secrets (`SENDGRID_API_KEY`, `AccountKey`, `DISCORD_TOKEN`,
/// `db.password`), lower-cased.
const SECRET_NAME_ENDS: &[&str] = &[
    "key",
    "token",
    "secret",
    "password",
    "passwd",
    "pwd",
    "credential",
    "credentials",
    "auth",
    "pass",
    "pw",
    "psk",
    "passphrase",
    "bearer",
    "secret_key_base",
    "secrets",
    "creds",
    "tokens",
    "keys",
    "passwords",
    "authtok",
    "cookie",
    "authorization",
];

/// The last words of names ending in `key` that name no secret, lower-cased and without
/// separators: a database's or a cache's key, a public key, a key's id.
const PUBLIC_KEY_NAMES: &[&str] = &[
    "primarykey",
    "foreignkey",
    "sortkey",
    "partitionkey",
    "rangekey",
    "hashkey",
    "cachekey",
    "idempotencykey",
    "routingkey",
    "publickey",
    "pubkey",
    "signingkey",
    "hostkey",
    "hotkey",
];

/// Whether a line of `text` holding `BEGIN` and `PRIVATE KEY` (or `OpenVPN Static key`) is
/// followed by a key's body: within the next lines a run of forty base64 characters or more
/// with digits and letters of both cases among them, whatever separates the lines (breaks,
/// `\n` escapes in a string, quotes, concatenations); or, before its `END` line, a body of
/// any length in base64's letters (a short or fake key is still shaped as one). A header
/// alone, or code between a header and an end (`_SK_END = b"-----END …`), is none.
fn armored_key_body(text: &str) -> bool {
    text.contains("BEGIN OpenVPN Static key")
        || long_key_body(text)
        || short_key_body(text)
        || ended_key(text)
}

/// [`armored_key_body`]'s header and `END` line with anything but code between them (a fake
/// key's body, `not a real key`, is still one's shape; `_SK_END = b"-----END …` is code).
fn ended_key(text: &str) -> bool {
    text.match_indices("BEGIN").any(|(at, _)| {
        let rest = &text[at..];
        let Some(header_end) = rest.find("KEY").map(|k| k + 3) else {
            return false;
        };
        let after = &rest[header_end..];
        let limit = after.len().min(65_536);
        // `-----END …` or `---- END …` (an armor's own end line).
        let Some(end) = after
            .get(..limit)
            .and_then(|a| a.find("-END ").or_else(|| a.find("- END ")))
        else {
            return false;
        };
        let between = after[..end].trim_matches(|c: char| c.is_whitespace() || c == '-');
        let code = [" = ", "=b\"", "= b\"", "\";", "');", "\")", "\",", "',"]
            .iter()
            .any(|m| between.contains(m));
        !between.is_empty() && !code && after[end..].contains("KEY")
    })
}

/// [`armored_key_body`]'s first line after the header: a line of base64's letters (`-`, `.`
/// and `_` too, a fake key's), four or more, however the header's line ends (a break, a
/// `\n` escape, a closing quote).
fn short_key_body(text: &str) -> bool {
    text.match_indices("BEGIN").any(|(at, _)| {
        let rest = &text[at..];
        let Some(header_end) = rest.find("KEY").map(|k| k + 3) else {
            return false;
        };
        let mut after = &rest[header_end..];
        // The header's end and what separates it from the body.
        loop {
            let trimmed = after.trim_start_matches(|c: char| {
                c.is_whitespace() || matches!(c, '-' | '"' | '\'' | ',' | '+')
            });
            match trimmed
                .strip_prefix("\\n")
                .or_else(|| trimmed.strip_prefix("\\r"))
            {
                Some(more) => after = more,
                None => {
                    after = trimmed;
                    break;
                }
            }
        }
        let line_end = after
            .find(['\n', '\r', '"', '\'', '\\'])
            .unwrap_or(after.len());
        let line = &after[..line_end];
        line.len() >= 4
            && line
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"+/=.-_".contains(&b))
    })
}

/// [`armored_key_body`]'s long run of base64.
fn long_key_body(text: &str) -> bool {
    text.match_indices("BEGIN").any(|(at, _)| {
        let line_end = text[at..].find('\n').map_or(text.len(), |n| at + n);
        let header = &text[at..line_end];
        if !(header.contains("PRIVATE KEY") || header.contains("OpenVPN Static key")) {
            // The header may end on this line after an escaped break (`…-----\nMIIE…`).
            let escaped = &text[at..text.len().min(at + 80)];
            if !(escaped.contains("PRIVATE KEY") || escaped.contains("OpenVPN Static key")) {
                return false;
            }
        }
        let window_end = text.len().min(at + 1200);
        let mut end = window_end;
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        let window = &text[at..end];
        let mut run = 0usize;
        let (mut digit, mut upper, mut lower) = (false, false, false);
        let bytes = window.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            let b = bytes[i];
            // A literal `\n` or `\r` inside a string separates lines too.
            if b == b'\\' && matches!(bytes.get(i + 1), Some(b'n' | b'r')) {
                run = 0;
                (digit, upper, lower) = (false, false, false);
                i += 2;
                continue;
            }
            if b.is_ascii_alphanumeric() || b == b'+' || b == b'/' || b == b'=' {
                run += 1;
                digit |= b.is_ascii_digit();
                upper |= b.is_ascii_uppercase();
                lower |= b.is_ascii_lowercase();
                if run >= 40 && digit && upper && lower {
                    return true;
                }
            } else {
                run = 0;
                (digit, upper, lower) = (false, false, false);
            }
            i += 1;
        }
        false
    })
}

/// Whether `text` gives a name that ends in a secret's word ([`SECRET_NAME_ENDS`]) a value
/// shaped as one ([`secret_shaped`]): `NAME=VALUE`, `NAME: VALUE`, `export NAME="VALUE"`,
/// and each `NAME=VALUE` of a connection string (`…;AccountKey=…;`). Not a value: a path, a
/// URL (its password is looked at on its own), code (a call, an index, a variable).
fn named_secret(text: &str) -> bool {
    // Each field of a line: a connection string's (`;`), and each member of a JSON or YAML
    // flow map written on one line (`{"user":"a","api_key":"…"}`). PHP's `define('NAME',
    // 'VALUE')` is read as `NAME=VALUE`. A field cut where a call opens (`key =
    // base64.b16encode(…)`, `let key = Key::from(…)`) gives a callee, no value.
    text.lines()
        .map(|l| match l.split_once("define(") {
            Some((_, args)) => std::borrow::Cow::Owned(args.replacen(',', "=", 1)),
            None => std::borrow::Cow::Borrowed(l),
        })
        .any(|l| {
            let mut start = 0;
            l.char_indices()
                .filter(|(_, c)| matches!(c, ';' | ',' | '{' | '}' | '('))
                .map(|(at, c)| (at, Some(c)))
                .chain(std::iter::once((l.len(), None)))
                .any(|(end, closing)| {
                    let field = &l[start..end];
                    start = end + closing.map_or(0, char::len_utf8);
                    closing != Some('(') && named_secret_field(field)
                })
                // Words giving values side by side (`host ansible_user=root
                // ansible_password=…`, a command's `NAME=VALUE` prefixes).
                || l.split_whitespace()
                    .skip(1)
                    .filter(|w| w.contains('='))
                    .any(named_secret_field)
        })
}

/// The words that declare a name in code (`let key = …`, `const apiKey = …`, `pub token:
/// …`), taken off before the name.
const DECLARATORS: &[&str] = &[
    "let mut ",
    "let ",
    "const ",
    "var ",
    "val ",
    "pub ",
    "static ",
    "readonly ",
    "private ",
    "public ",
    "protected ",
    "final ",
    "my ",
    "our ",
    "local ",
    "declare ",
];

/// Whether one field of a line ([`named_secret`]) gives a name for a secret a value shaped as
/// one.
fn named_secret_field(field: &str) -> bool {
    let mut field = field.trim_start();
    field = field.strip_prefix("export ").unwrap_or(field).trim_start();
    while let Some(rest) = DECLARATORS.iter().find_map(|d| field.strip_prefix(d)) {
        field = rest.trim_start();
    }
    // PowerShell's `$env:NAME = "VALUE"`; fish's `set -x NAME VALUE` and csh's
    // `setenv NAME VALUE`, read as `NAME=VALUE`.
    let field = field.strip_prefix("$env:").unwrap_or(field);
    // A Ruby symbol as a YAML key (`:rubygems_api_key: …`).
    let field = field.strip_prefix(':').unwrap_or(field);
    let spaced = ["setenv ", "set -x ", "set -gx ", "set -Ux "]
        .iter()
        .find_map(|p| field.strip_prefix(p))
        .and_then(|rest| rest.trim_start().split_once([' ', '\t']))
        .map(|(name, value)| format!("{name}={}", value.trim_start()));
    let field = spaced.as_deref().unwrap_or(field);
    let Some(at) = field.find(['=', ':']) else {
        return false;
    };
    // The name as code writes it: a call's keyword argument (`OpenAI(api_key=…`), a
    // variable (`$db_password = …`), a subscript (`$config['db_password'] = …`); of words
    // before it, the last (`mysql -u root --password=…`).
    let name = field[..at].trim();
    let name = name.rsplit([' ', '\t']).next().unwrap_or(name);
    let name = name.strip_prefix('$').unwrap_or(name);
    let name = match name.rsplit_once('[') {
        Some((_, inner)) => inner.trim_end_matches(']'),
        None => name,
    };
    let name = name.trim().trim_matches(['"', '\'']);
    if !secret_name(name) {
        return false;
    }
    // `=>` (a PHP array's member) gives a value as `=` does; a type after `:` is followed
    // by the value after `=` (`val apiKey: String = "…"`, `API_KEY: &str = "…"`).
    let mut rest = field[at + 1..].trim_start_matches(['=', '>', ' ', '\t']);
    if field[at..].starts_with(':')
        && let Some((ty, value)) = rest.split_once('=')
        && !ty.is_empty()
        && ty
            .chars()
            .all(|c| c.is_alphanumeric() || " _<>[]?&.:'".contains(c))
    {
        rest = value.trim_start_matches(['>', ' ', '\t']);
    }
    let quoted = rest.starts_with(['"', '\'']);
    let mut value = first_value(rest);
    // A header's scheme before its credentials (`Authorization: Basic …`, `Token …`).
    if !quoted
        && ["basic", "token", "bearer", "digest", "apikey"]
            .iter()
            .any(|s| value.eq_ignore_ascii_case(s))
    {
        value = first_value(rest[value.len()..].trim_start());
    }
    // A dotted path of names (`client.pool.h1_key`, `config.token`) is code; a part that
    // does not read as a name (`S3cr3t.Pa55w0rd`, Vault's `hvs.CAES…`) makes it none.
    let dotted = !quoted && value.contains('.') && value.split('.').all(code_name);
    if dotted {
        return false;
    }
    // A password need not look random (`DB_PASSWORD=mellon7friend`); a key or a token does.
    named_value(name, value)
}

/// Whether `part` (of a dotted path) reads as a name code gives: a letter or `_` first, then
/// letters, digits and `_`, shorter than a random value's 16 characters, and no digit
/// between two letters (`h1_key`, `v2`, `sha256` are names; `S3cr3t`, `Pa55w0rd` are not).
fn code_name(part: &str) -> bool {
    let bytes = part.as_bytes();
    bytes
        .first()
        .is_some_and(|c| c.is_ascii_alphabetic() || *c == b'_')
        && part.len() < 16
        && bytes
            .iter()
            .all(|c| c.is_ascii_alphanumeric() || *c == b'_')
        && !bytes.windows(3).any(|w| {
            w[0].is_ascii_alphabetic() && w[1].is_ascii_digit() && w[2].is_ascii_alphabetic()
        })
}

/// Whether `value`, given to the secret's name `name`, is shaped as a secret: a password's
/// as one ([`password_name`]: it need not look random), another's as a random value
/// ([`secret_value`]).
fn named_value(name: &str, value: &str) -> bool {
    if password_name(name) {
        secret_value_shaped(value, false)
    } else {
        secret_value(value)
    }
}

/// Whether `name` (a secret's name, [`secret_name`]) names a password or a secret rather
/// than a key or a token.
fn password_name(name: &str) -> bool {
    let lower = secret_name_stem(&snake_case(name));
    [
        "password",
        "passwd",
        "pwd",
        "pass",
        "passphrase",
        "pw",
        "psk",
        "secret",
        "secret_key",
        "authtok",
    ]
    .iter()
    .any(|end| lower.ends_with(end))
}

/// The value that starts `rest`: up to its closing quote when it starts with one, else up to
/// a blank or a comma.
fn first_value(rest: &str) -> &str {
    match rest.chars().next() {
        Some(q @ ('"' | '\'')) => rest[1..].split(q).next().unwrap_or_default(),
        _ => rest.split([' ', '\t', ',']).next().unwrap_or_default(),
    }
}

/// Whether `name` (unquoted) names a secret: it ends in a secret's word
/// ([`SECRET_NAME_ENDS`]), qualifiers after it aside ([`secret_name_stem`]; `apiKeyProd` read
/// as `api_key_prod`), and is not a key that names none ([`PUBLIC_KEY_NAMES`]).
fn secret_name(name: &str) -> bool {
    !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"_-. ".contains(&b))
        && {
            let lower = secret_name_stem(&snake_case(name));
            let squeezed: String = lower.chars().filter(char::is_ascii_alphanumeric).collect();
            // Not a bare `key`/`auth` (a list item's key, an option), nor a key that
            // names no secret (`primary_key`, `publicKey`, `user.signingkey`).
            !matches!(lower.as_str(), "key" | "auth")
                && !PUBLIC_KEY_NAMES.iter().any(|end| squeezed.ends_with(end))
                && SECRET_NAME_ENDS.iter().any(|end| lower.ends_with(end))
        }
}

/// `name` lower-cased, with `_` before each upper-case letter that follows a lower-case one or
/// a digit (`apiKeyProd` → `api_key_prod`; `API_KEY` → `api_key`).
fn snake_case(name: &str) -> String {
    let mut out = String::with_capacity(name.len() + 4);
    let mut previous: Option<char> = None;
    for c in name.chars() {
        if c.is_ascii_uppercase()
            && previous.is_some_and(|p| p.is_ascii_lowercase() || p.is_ascii_digit())
        {
            out.push('_');
        }
        out.push(c.to_ascii_lowercase());
        previous = Some(c);
    }
    out
}

/// Whether `value`, given to a name for a secret, is shaped as one: not code or a place (a
/// call, an index, a variable, a type, a URL, a path), random rather than a name with a
/// number (`row-12345`, `v1-deps-2024`: letters of both cases and digits, or sixteen
/// characters or more), and [`secret_shaped`].
fn secret_value(value: &str) -> bool {
    secret_value_shaped(value, true)
}

/// [`secret_value`], the value's randomness asked for only when `random`.
fn secret_value_shaped(value: &str, random: bool) -> bool {
    let code_or_place = value.contains(['(', ')', '[', ']', '{', '}', '$', '<', '>'])
        || value.contains("::")
        || value.contains("://")
        || value.starts_with(['/', '~', '.']);
    let looks_random = value.len() >= 16
        || (value.bytes().any(|b| b.is_ascii_uppercase())
            && value.bytes().any(|b| b.is_ascii_lowercase()));
    !code_or_place && (looks_random || !random) && secret_shaped(value)
}

/// A name without the qualifiers that may follow its secret's word (`PASSWORD_PROD`,
/// `API_KEY_2`, `TOKEN_V2`, `ENCRYPTION_KEY_V1_OLD`): trailing parts that are a number, a
/// version or a deployment's name, two at most.
fn secret_name_stem(lower: &str) -> String {
    const QUALIFIERS: &[&str] = &[
        "prod",
        "production",
        "dev",
        "development",
        "staging",
        "stage",
        "test",
        "live",
        "local",
        "old",
        "new",
        "primary",
        "secondary",
        "backup",
        "ci",
    ];
    // A number glued to the word (`password1`, `token2`).
    let mut stem = lower
        .trim_end_matches(|c: char| c.is_ascii_digit())
        .trim_end_matches(['_', '-', '.']);
    if stem.is_empty() {
        stem = lower;
    }
    for _ in 0..2 {
        let Some(at) = stem.rfind(['_', '-', '.']) else {
            break;
        };
        let last = &stem[at + 1..];
        let version = last.strip_prefix('v').unwrap_or(last);
        let qualifier = QUALIFIERS.contains(&last)
            || (!version.is_empty() && version.bytes().all(|b| b.is_ascii_digit()));
        if !qualifier || at == 0 {
            break;
        }
        stem = &stem[..at];
    }
    stem.to_owned()
}

/// Whether `text` holds a netrc entry giving a password: `machine NAME` (or `default`), then
/// `login`, `account`, `port` or `password` each with its value, however the words are laid
/// over lines (`.netrc` puts one a line as often as all on one).
fn netrc_password(text: &str) -> bool {
    // Each word, and whether it starts its line; a line starting with `#` is a comment,
    // however it falls inside an entry.
    let words: Vec<(&str, bool)> = text
        .lines()
        .filter(|l| !l.trim_start().starts_with('#'))
        .flat_map(|l| l.split_whitespace().enumerate().map(|(i, w)| (w, i == 0)))
        .collect();
    words.iter().enumerate().any(|(at, (w, first))| {
        // An entry starts a line (prose saying "the default password is" is none).
        let entry = match (*w, *first) {
            ("machine", true) => at + 2,
            ("default", true) => at + 1,
            _ => return false,
        };
        let pairs: Vec<(&str, &str)> = words
            .get(entry..)
            .unwrap_or_default()
            .chunks(2)
            .map_while(|p| match p {
                [(k @ ("login" | "account" | "port" | "password"), _), (v, _)] => Some((*k, *v)),
                _ => None,
            })
            .collect();
        let login = pairs.iter().any(|(k, _)| *k == "login");
        pairs
            .iter()
            .any(|(k, v)| *k == "password" && (login || secret_shaped(v)))
    })
}

/// Whether a line of `text` is a `.pgpass` entry: `host:port:database:user:password`, the
/// port a number or `*`, the password shaped as a secret ([`secret_shaped`]).
fn pgpass_line(text: &str) -> bool {
    text.lines().any(|line| {
        // `\:` and `\\` are a field's own characters.
        let line = line.trim().replace("\\\\", "_").replace("\\:", "_");
        let fields: Vec<&str> = line.splitn(5, ':').collect();
        // A host name, an address or `*`; a database and a user as names; a password of one
        // word: a log line, a time, an address or a fingerprint is none.
        let name = |f: &str| {
            !f.is_empty()
                && f.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"._-*".contains(&b))
        };
        fields.len() == 5
            && name(fields[0])
            && (fields[1] == "*"
                || (!fields[1].is_empty() && fields[1].bytes().all(|b| b.is_ascii_digit())))
            && name(fields[2])
            && name(fields[3])
            && !fields[4].trim_end_matches(':').contains([':', ' ', '\t'])
            && secret_shaped(fields[4].trim_end_matches(':'))
    })
}

/// Whether `text` holds a URL with a password shaped as a secret
/// (`postgres://admin:S3cr3tP4ss@db/prod`, [`secret_shaped`]).
fn url_password(text: &str) -> bool {
    text.match_indices("://").any(|(at, sep)| {
        let rest = &text[at + sep.len()..];
        let end = rest
            .find(|c: char| c.is_whitespace() || "/?#\"'<>`".contains(c))
            .unwrap_or(rest.len());
        let authority = &rest[..end];
        authority
            .rsplit_once('@')
            .and_then(|(user, _)| user.split_once(':'))
            .is_some_and(|(_, pass)| secret_shaped(pass))
    })
}

/// Whether a line of `text` is a user's password hash as `/etc/shadow` and `.htpasswd`
/// keep one (`root:$6$salt$…`, `admin:$2y$05$…`, `user:{SHA}…`): a name, a colon, then a
/// crypt(3) hash of a known scheme or an LDAP-style digest, twenty characters or more. A
/// hash is a password to whoever can guess it offline.
fn password_hash(text: &str) -> bool {
    const SCHEMES: &[&str] = &[
        "$1$",
        "$2a$",
        "$2b$",
        "$2x$",
        "$2y$",
        "$5$",
        "$6$",
        "$7$",
        "$y$",
        "$gy$",
        "$apr1$",
        "$argon2",
        "$sha1$",
        "$md5",
        "{SHA}",
        "{SSHA}",
        "{SHA256}",
        "{SSHA256}",
        "{SHA512}",
        "{SSHA512}",
    ];
    text.lines().any(|line| {
        let Some((user, rest)) = line.trim_start().split_once(':') else {
            return false;
        };
        let hash = rest.split(':').next().unwrap_or(rest).trim_end();
        !user.is_empty()
            && user
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"_.-@".contains(&b))
            && hash.len() >= 20
            && SCHEMES.iter().any(|s| hash.starts_with(s))
            && !hash.contains(char::is_whitespace)
    })
}

/// Whether `text` gives a bearer token (`Authorization: Bearer …`, `bearer …`), or basic
/// credentials after `Authorization:` (`Authorization: Basic dXNlcjpwYXNz…`): twenty
/// characters or more of a token's alphabet after the word.
fn bearer_token(text: &str) -> bool {
    let lower = text.to_ascii_lowercase();
    let basic = lower.match_indices("basic").filter(|(at, _)| {
        lower[..*at]
            .trim_end()
            .strip_suffix(':')
            .is_some_and(|b| b.trim_end().ends_with("authorization"))
    });
    lower
        .match_indices("bearer")
        .chain(basic)
        .any(|(at, word)| {
            let rest = &text[at + word.len()..];
            let Some(token) = rest.strip_prefix([' ', '\t']) else {
                return false;
            };
            let token = token.trim_start();
            let len = token
                .bytes()
                .take_while(|b| b.is_ascii_alphanumeric() || b"-._~+/=".contains(b))
                .count();
            len >= 20 && secret_shaped(&token[..len])
        })
}

/// Whether `text` holds a JSON Web Token: a base64url JSON header (`eyJ…`), a base64url
/// payload and a signature, joined by dots.
fn json_web_token(text: &str) -> bool {
    let part = |s: &str| {
        s.bytes()
            .take_while(|b| b.is_ascii_alphanumeric() || *b == b'_' || *b == b'-')
            .count()
    };
    text.match_indices("eyJ").any(|(at, _)| {
        let rest = &text[at..];
        let header = part(rest);
        let Some(rest) = rest[header..].strip_prefix('.') else {
            return false;
        };
        let payload = part(rest);
        let Some(rest) = rest[payload..].strip_prefix('.') else {
            return false;
        };
        header >= 10 && payload >= 10 && part(rest) >= 16
    })
}

/// Whether the lower-cased text gives the name `key` a value that may be a secret: the name
/// (after `export`, in quotes or not), then `=` or `:`, then a quoted value, or a bare one
/// ending its line. Not a value: nothing, a variable or template (`$X`, `${{ … }}`,
/// `<key>`, `%(x)s`), a placeholder (`none`, `changeme`, `your-…`, `…example…`, `***`), and
/// a bare word followed by code (`key=key,` passes an argument).
fn secret_assigned(lower: &str, key: &str) -> bool {
    assigned(lower, key, |_| true)
}

/// [`secret_assigned`] with a value shaped as a token: eight characters or more, letters and
/// digits among them (not a word: `str`, `dev`, `secret`, a type or a variable's name).
fn token_assigned(lower: &str, key: &str) -> bool {
    assigned(lower, key, |v| {
        v.len() >= 8
            && v.bytes().any(|b| b.is_ascii_digit())
            && v.bytes().any(|b| b.is_ascii_alphabetic())
    })
}

/// Whether the lower-cased text gives the name `key` a value ([`secret_assigned`]) that
/// `shaped` admits.
fn assigned(lower: &str, key: &str, shaped: impl Fn(&str) -> bool) -> bool {
    lower.lines().any(|line| {
        line.match_indices(key).any(|(at, _)| {
            let before = line[..at].chars().next_back();
            if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
                && !line[..at].ends_with("aws_")
            {
                return false;
            }
            let rest = line[at + key.len()..]
                .trim_start_matches(['"', '\''])
                .trim_start();
            let Some(rest) = rest.strip_prefix(['=', ':']) else {
                return false;
            };
            let rest = rest.trim();
            let value = match rest.chars().next() {
                Some(q @ ('"' | '\'')) => rest[1..].split(q).next().unwrap_or_default(),
                _ if rest.contains([',', ')', '(', ';', ' ', '.']) => return false,
                _ => rest,
            };
            let placeholder = value.is_empty()
                || value.starts_with(['$', '<', '{', '%', '*', '.'])
                || value.starts_with("your")
                || value.contains("example")
                || matches!(
                    value,
                    "none" | "null" | "nil" | "changeme" | "xxx" | "secret"
                );
            !placeholder && shaped(value)
        })
    })
}

/// Whether the lower-cased text is a WireGuard configuration with a key: a `[Interface]` or
/// `[Peer]` section and a `PrivateKey` or `PresharedKey` line. `wg` removes every space of a
/// line and ignores the case of names (`Private Key = …`, `[ peer ]`), and so is this read;
/// `#` starts a comment.
fn wireguard_key(lower: &str) -> bool {
    if !lower.contains("interface") && !lower.contains("peer") {
        return false;
    }
    // Whether `line` without its spaces and comment starts with `prefix` (or is it, `whole`).
    let squeezed = |line: &str, prefix: &str, whole: bool| {
        let line = line.split('#').next().unwrap_or_default();
        let mut chars = line.chars().filter(|c| !c.is_whitespace());
        prefix.chars().all(|p| chars.next() == Some(p)) && (!whole || chars.next().is_none())
    };
    let (mut section, mut key) = (false, false);
    for line in lower.lines() {
        section = section || squeezed(line, "[interface]", true) || squeezed(line, "[peer]", true);
        key = key || squeezed(line, "privatekey", false) || squeezed(line, "presharedkey", false);
        if section && key {
            return true;
        }
    }
    false
}

/// Whether the lower-cased text has an npmrc's `key` with a value: a registry's entry
/// (`//registry.example/:_authtoken=…`) anywhere, or the name at the start of a line
/// (`_auth = …`), not an attribute in code (`self._auth = x`, `this._authToken = t`) nor a
/// variable's reference (`${NPM_TOKEN}`).
fn npmrc_auth(lower: &str, key: &str) -> bool {
    let scoped = format!("/:{key}");
    let valued = |rest: &str| {
        rest.trim_start()
            .strip_prefix('=')
            .map(|v| v.trim().trim_matches(['\'', '"']))
            .is_some_and(|v| !v.is_empty() && !v.starts_with('$'))
    };
    lower.lines().any(|l| {
        // A registry's own entry (`//host/:_authtoken=…`) wherever the line holds it (a
        // script writing an npmrc), or the name opening the line.
        l.match_indices(&scoped)
            .any(|(at, _)| valued(&l[at + scoped.len()..]))
            || l.trim_start().strip_prefix(key).is_some_and(valued)
    })
}

/// The beginnings of DER private keys base64-encoded, `.` standing for any character: PKCS#8
/// RSA, DSA, EC, Ed25519/X25519/Ed448/X448 (short and long lengths), PKCS#1 RSA and DSA,
/// SEC1 EC, encrypted PKCS#8 (PBES2, PKCS#12 PBE) and PKCS#12 files, each from the `M` of
/// the outer SEQUENCE, as generated keys of each size encode them.
const BASE64_DER_KEYS: &[&str] = &[
    "MI....IBADANBgkqhkiG9w0BAQEFAAS",
    "MI....IBADCC...GByqGSM44BAE",
    "M..CAQAwBQYDK2V",
    "M..CAQEwBQYDK2V",
    "MI..AgEAMAUGAytl",
    "MI..AgEBMAUGAytl",
    "MI..AgEAMB.GByqGSM49AgEG",
    "M..CAQAw..YHKoZIzj0CAQY",
    "MI....IBADA.BgcqhkjOPQIB",
    "MI....IBAAKC",
    "MI....IBAAKBg",
    "MI....IBAAJB",
    "M..CAQEEI",
    "M..CAQEEM",
    "M..CAQEEQ",
    "MI..AgEBBCA",
    "MI..AgEBBDA",
    "MI..AgEBBEI",
    "MI....IBAQQg",
    "MI....IBAQQw",
    "MI....IBAQRC",
    "MI..M..GCSqGSIb3DQEFDT",
    "MI......BgkqhkiG9w0BBQ0w",
    "MI....CB.gYJKoZIhvcNAQUN",
    "MI..MBwGCiqGSIb3DQEMAQ",
    "MI....AcBgoqhkiG9w0BDAE",
    "MI....IBAzCC...GCSqGSIb3DQEH",
    "MI....IBAzCABgkqhkiG9w0BBw",
    "MIM....CAQMwg.....gYJKoZIhvcNAQc",
    "MIACAQMwgAYJKoZIhvcNAQc",
];

/// The longest run without `.` of a [`BASE64_DER_KEYS`] pattern and where it starts: what is
/// searched for, and a marker of [`secret_markers`].
fn base64_der_anchor(pattern: &str) -> (usize, &str) {
    let mut best = (0, "");
    let mut at = 0;
    for run in pattern.split('.') {
        if run.len() > best.1.len() {
            best = (at, run);
        }
        at += run.len() + 1;
    }
    best
}

/// Whether the text with its spaces removed holds a DER private key base64-encoded
/// ([`BASE64_DER_KEYS`]). The anchors are searched at once; a pattern is matched where its
/// anchor is. `true` if the search could not be built.
fn base64_der_key(compact: &str) -> bool {
    static ANCHORS: std::sync::OnceLock<Option<aho_corasick::AhoCorasick>> =
        std::sync::OnceLock::new();
    let Some(anchors) = ANCHORS
        .get_or_init(|| {
            aho_corasick::AhoCorasick::new(BASE64_DER_KEYS.iter().map(|p| base64_der_anchor(p).1))
                .ok()
        })
        .as_ref()
    else {
        return true;
    };
    let bytes = compact.as_bytes();
    anchors.find_overlapping_iter(bytes).any(|m| {
        let Some(pattern) = BASE64_DER_KEYS.get(m.pattern().as_usize()) else {
            return true;
        };
        let (offset, _) = base64_der_anchor(pattern);
        m.start()
            .checked_sub(offset)
            .and_then(|start| bytes.get(start..start + pattern.len()))
            .is_some_and(|found| {
                found
                    .iter()
                    .zip(pattern.bytes())
                    .all(|(f, p)| p == b'.' || *f == p)
            })
    })
}

/// One DER element at the start of `der`: its tag, its content and what follows it; BER's
/// indefinite length runs to the end. `None` where the header is not one (a long-form tag, a
/// length of more than four bytes) or the content is cut short: a file's first look at a
/// longer key is followed by a read of the whole, and a template of a key's first bytes
/// (ring's PKCS#8 templates) holds no key.
fn der_element(der: &[u8]) -> Option<(u8, &[u8], &[u8])> {
    let (&tag, rest) = der.split_first()?;
    if tag & 0x1f == 0x1f {
        return None;
    }
    let (&first, rest) = rest.split_first()?;
    let (len, rest) = match first {
        0..=0x7f => (usize::from(first), rest),
        0x80 => (rest.len(), rest),
        0x81..=0x84 => {
            let (digits, rest) = rest.split_at_checked(usize::from(first & 0x7f))?;
            let len = digits.iter().try_fold(0usize, |l, d| {
                l.checked_mul(256)?.checked_add(usize::from(*d))
            })?;
            (len, rest)
        }
        _ => return None,
    };
    let (content, after) = rest.split_at_checked(len)?;
    Some((tag, content, after))
}

/// The value of a DER INTEGER's content of one byte (a version).
fn der_small_int(content: &[u8]) -> Option<u8> {
    match content {
        [v] if *v < 0x80 => Some(*v),
        _ => None,
    }
}

/// What private key the bytes are by their ASN.1 structure, whatever the file's name: PKCS#8
/// (`SEQUENCE { INTEGER 0|1, SEQUENCE { OID … }, OCTET STRING … }`), an encrypted one
/// (`SEQUENCE { SEQUENCE { OID of PKCS#5 or PKCS#12 encryption … }, OCTET STRING }`), PKCS#1
/// RSA or OpenSSL's DSA (`SEQUENCE { INTEGER 0|1, INTEGER n, INTEGER, INTEGER … }`), SEC1 EC
/// (`SEQUENCE { INTEGER 1, OCTET STRING k … }`) or a PKCS#12 file (`SEQUENCE { INTEGER 3,
/// SEQUENCE { OID data or encryptedData … } … }`). Certificates and public keys are none.
fn der_private_key(der: &[u8]) -> Option<&'static str> {
    const PKCS: &[u8] = &[0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01];
    let (0x30, body, _) = der_element(der)? else {
        return None;
    };
    let (tag, first, rest) = der_element(body)?;
    if tag == 0x30 {
        let (0x06, oid, _) = der_element(first)? else {
            return None;
        };
        let encryption = oid
            .strip_prefix(PKCS)
            .is_some_and(|o| o.first() == Some(&0x05) || o.starts_with(&[0x0c, 0x01]));
        let (0x04, _, _) = der_element(rest)? else {
            return None;
        };
        return encryption.then_some("an encrypted private key (by its content)");
    }
    if tag != 0x02 {
        return None;
    }
    let version = der_small_int(first)?;
    let (tag, second, rest) = der_element(rest)?;
    match (version, tag) {
        (0 | 1, 0x30) => {
            let (0x06, _, _) = der_element(second)? else {
                return None;
            };
            let (0x04, _, _) = der_element(rest)? else {
                return None;
            };
            Some("a private key (PKCS#8, by its content)")
        }
        (0 | 1, 0x02) if second.len() >= 32 => {
            let (0x02, _, rest) = der_element(rest)? else {
                return None;
            };
            let (0x02, _, _) = der_element(rest)? else {
                return None;
            };
            Some("an RSA or DSA private key (by its content)")
        }
        (1, 0x04) if (16..=72).contains(&second.len()) => {
            Some("an EC private key (by its content)")
        }
        (3, 0x30) => {
            let (0x06, oid, _) = der_element(second)? else {
                return None;
            };
            let content = oid.strip_prefix(PKCS)?;
            (content == [0x07, 0x01] || content == [0x07, 0x06])
                .then_some("a PKCS#12 key store (by its content)")
        }
        _ => None,
    }
}

/// The most base64 characters of one armored OpenPGP block decoded to look for secret-key
/// packets.
const MAX_ARMOR_CHARS: usize = 1 << 20;

/// Whether an ASCII-armored OpenPGP block of `text` holds a secret-key packet, whatever its
/// label says: its base64 body (after the armor headers, before the `=` checksum) decoded
/// and its packets walked ([`openpgp_packets_secret`]).
fn openpgp_armored_secret(text: &str) -> bool {
    const BEGIN: &str = "-----BEGIN PGP ";
    let mut rest = text;
    while let Some(at) = rest.find(BEGIN) {
        let block = rest.get(at..).unwrap_or_default();
        let mut body = String::new();
        let mut in_body = false;
        for line in block.lines().skip(1) {
            let line = line.trim();
            if line.starts_with("-----") || body.len() > MAX_ARMOR_CHARS {
                break;
            }
            if !in_body {
                // Armor headers (`Version: …`, `Comment: …`) and the blank line after them.
                if line.is_empty() || line.contains(':') {
                    continue;
                }
                in_body = true;
            }
            if line.starts_with('=') {
                break;
            }
            body.push_str(line);
        }
        if openpgp_packets_secret(&base64_decoded(&body), true) {
            return true;
        }
        rest = block.get(BEGIN.len()..).unwrap_or_default();
    }
    false
}

/// The bytes of base64 text (standard or URL-safe alphabet, spaces skipped) up to its end,
/// its padding or its first other character.
fn base64_decoded(text: &str) -> Vec<u8> {
    bits_decoded(text, 6, |b| match b {
        b'A'..=b'Z' => Some(Some(b - b'A')),
        b'a'..=b'z' => Some(Some(b - b'a' + 26)),
        b'0'..=b'9' => Some(Some(b - b'0' + 52)),
        b'+' | b'-' => Some(Some(62)),
        b'/' | b'_' => Some(Some(63)),
        b' ' | b'\t' | b'\r' | b'\n' => Some(None),
        _ => None,
    })
}

/// The most OpenPGP packets walked in one armored block.
const MAX_OPENPGP_PACKETS: usize = 4096;

/// Whether the OpenPGP packets of `bytes` include a secret key or subkey (tag 5 or 7) of a
/// known key version: each packet's header read (old and new formats) and skipped, a literal
/// data packet's content walked as packets too (once, `inner`). A packet whose length is
/// not given (partial or indeterminate) ends the walk.
fn openpgp_packets_secret(bytes: &[u8], inner: bool) -> bool {
    let mut p = bytes;
    for _ in 0..MAX_OPENPGP_PACKETS {
        let Some(&h) = p.first() else {
            return false;
        };
        if h & 0x80 == 0 {
            return false;
        }
        let be = |from: usize, n: usize| {
            p.get(from..from + n)
                .map(|d| d.iter().fold(0usize, |l, b| l << 8 | usize::from(*b)))
        };
        let (tag, header, len) = if h & 0x40 != 0 {
            match p.get(1) {
                Some(&l) if l < 192 => (h & 0x3f, 2, Some(usize::from(l))),
                Some(&l) if l < 224 => (
                    h & 0x3f,
                    3,
                    p.get(2)
                        .map(|b| (usize::from(l) - 192) * 256 + usize::from(*b) + 192),
                ),
                Some(255) => (h & 0x3f, 6, be(2, 4)),
                _ => (h & 0x3f, 2, None),
            }
        } else {
            let tag = (h >> 2) & 0x0f;
            match h & 3 {
                0 => (tag, 2, be(1, 1)),
                1 => (tag, 3, be(1, 2)),
                2 => (tag, 5, be(1, 4)),
                _ => (tag, 1, None),
            }
        };
        if (tag == 5 || tag == 7) && p.get(header).is_some_and(|v| (3..=6).contains(v)) {
            return true;
        }
        let Some(len) = len else {
            return false;
        };
        let content = p.get(header..).unwrap_or_default();
        let content = content.get(..len).unwrap_or(content);
        // A literal data packet: format, name length, name, date, then the data.
        if tag == 11 && inner {
            let data = content
                .get(1)
                .and_then(|n| content.get(2 + usize::from(*n) + 4..));
            if data.is_some_and(|d| openpgp_packets_secret(d, false)) {
                return true;
            }
        }
        let Some(next) = p.get(header + len..) else {
            return false;
        };
        p = next;
    }
    false
}

/// The ASCII of a text in UTF-16 or UTF-32 (either byte order, a byte-order mark or none):
/// its bytes without NULs, when the NULs fall where such a text has them (at least half of
/// the bytes of each position a character's high bytes take, of every 2 or 4, and few of the
/// others). `None` for other bytes.
fn wide_ascii(bytes: &[u8]) -> Option<Vec<u8>> {
    if !bytes.contains(&0) {
        return None;
    }
    let (mut nul, mut all) = ([0usize; 4], [0usize; 4]);
    for (i, b) in bytes.iter().enumerate() {
        all[i % 4] += 1;
        nul[i % 4] += usize::from(*b == 0);
    }
    let mostly = |r: usize| nul[r] * 2 >= all[r] && all[r] > 0;
    let rarely = |r: usize| nul[r] * 10 <= all[r];
    let wide = [
        [false, true, false, true],
        [true, false, true, false],
        [false, true, true, true],
        [true, true, true, false],
    ]
    .iter()
    .any(|zeros| (0..4).all(|r| if zeros[r] { mostly(r) } else { rarely(r) }));
    wide.then(|| bytes.iter().copied().filter(|b| *b != 0).collect())
}

/// The text of a JSON document (its first character `{` or `[`) with its strings' escapes
/// decoded (`\u002d`, `\n`, `\/`, surrogate pairs): what `jq -r` prints of it. `None` for
/// other text, and for JSON without escapes.
fn json_unescaped(text: &str) -> Option<String> {
    let start = text.trim_start_matches('\u{feff}').trim_start();
    if !(start.starts_with('{') || start.starts_with('[')) || !text.contains('\\') {
        return None;
    }
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let hex = |at: usize| {
        bytes
            .get(at..at + 4)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u32::from_str_radix(h, 16).ok())
    };
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        i += 1;
        if b != b'\\' {
            out.push(b);
            continue;
        }
        let Some(&e) = bytes.get(i) else {
            out.push(b);
            break;
        };
        i += 1;
        let c = match e {
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'/' | b'\\' | b'"' => char::from(e),
            b'u' => match hex(i) {
                Some(high @ 0xd800..=0xdbff)
                    if bytes.get(i + 4..i + 6) == Some(b"\\u")
                        && hex(i + 6).is_some_and(|l| (0xdc00..=0xdfff).contains(&l)) =>
                {
                    let low = hex(i + 6).unwrap_or_default();
                    i += 10;
                    char::from_u32(0x10000 + ((high - 0xd800) << 10) + (low - 0xdc00))
                        .unwrap_or('\u{fffd}')
                }
                Some(unit) => {
                    i += 4;
                    char::from_u32(unit).unwrap_or('\u{fffd}')
                }
                None => {
                    out.extend_from_slice(b"\\u");
                    continue;
                }
            },
            _ => {
                out.extend_from_slice(&[b, e]);
                continue;
            }
        };
        let mut buf = [0u8; 4];
        out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
    }
    Some(String::from_utf8_lossy(&out).into_owned())
}

/// Whether `head` starts with an OpenPGP secret-key or secret-subkey packet (tag 5 or 7, old
/// or new format) of a known key version: a GnuPG secret keyring or an exported secret key.
fn openpgp_secret_packet(head: &[u8]) -> bool {
    let version_at = match head.first() {
        Some(0x94 | 0x9c) => 2,
        Some(0x95 | 0x9d) => 3,
        Some(0x96 | 0x9e) => 5,
        Some(0xC5 | 0xC7) => match head.get(1) {
            Some(&l) if l < 192 => 2,
            Some(&l) if l < 224 => 3,
            Some(255) => 6,
            _ => return false,
        },
        _ => return false,
    };
    head.get(version_at).is_some_and(|v| (3..=6).contains(v))
}

/// Whether `path` is a regular file with more than one name (hard links): another of its
/// names may lie outside the workspace (`~/.ssh/id_ed25519`, another project's `.env`), so
/// its path inside proves nothing about which file it is. A file that cannot be looked at is
/// not one (whatever else is wrong with it is judged by its path).
pub(crate) fn hard_linked(path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.nlink() > 1)
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        false
    }
}

/// Whether `dir`, an absolute path as a `cd` wrote it, names the same directory when its
/// `..` are removed as text (bash's logical `cd`) as when the kernel follows it (the
/// physical one): true when every directory a `..` leaves is free of symlinks.
fn logical_is_physical(dir: &Path) -> bool {
    use std::path::Component;
    if !dir.components().any(|c| c == Component::ParentDir) {
        return true;
    }
    let mut at = PathBuf::new();
    for c in dir.components() {
        match c {
            Component::ParentDir => {
                if std::fs::canonicalize(&at).ok().as_deref() != Some(at.as_path()) {
                    return false;
                }
                at.pop();
            }
            Component::CurDir => {}
            other => at.push(other),
        }
    }
    true
}

/// Removes `.` and `..` without touching the filesystem.
pub(crate) fn normalize(path: &Path) -> PathBuf {
    if plain(path) {
        return path.to_path_buf();
    }
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    out.push("..");
                }
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

/// The most symlinks followed in one path, as Linux allows (`MAXSYMLINKS`).
const MAX_SYMLINKS: usize = 40;

/// Resolves an absolute path component by component, as the kernel does: each symlink is
/// followed before the next component (so `..` after a link leaves the link's target), a
/// component that does not exist is kept with the rest of the path as text, and a dangling
/// link is followed to where a write would land. `None` when more than [`MAX_SYMLINKS`]
/// links are met (the kernel's `ELOOP`): the path is not modeled.
pub(crate) fn resolve(path: &Path) -> Option<PathBuf> {
    resolve_from(path, None)
}

/// As [`resolve`], starting from `real` when `path` lies below it: `real` must be a real
/// path (canonical, no symlink in it), so its components need not be looked at again.
fn resolve_from(path: &Path, real: Option<&Path>) -> Option<PathBuf> {
    resolve_known(path, plain(path), real.map(|r| (r, plain(r)))).map(|(p, _, _)| p)
}

/// [`resolve_from`], told whether `path` and the real directory are in normal form
/// ([`plain`]); with the resolved path, whether it is known to be in normal form.
fn resolve_known(
    path: &Path,
    path_plain: bool,
    real: Option<(&Path, bool)>,
) -> Option<(PathBuf, bool, bool)> {
    if let Some((root, true)) = real
        && path_plain
        && let (Some(text), Some(base)) = (path.to_str(), root.to_str())
        && below_both(path, true, root, true)
        && let Some((resolved, device)) = resolve_plain_below(text, base)
    {
        return Some((resolved, true, device));
    }
    resolve_walk(path, real.map(|(r, _)| r)).map(|(p, device)| (p, false, device))
}

/// Whether a file type (as `lstat` gave it while resolving) is a device node.
fn device_node(kind: std::fs::FileType) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        kind.is_block_device() || kind.is_char_device()
    }
    #[cfg(not(unix))]
    {
        let _ = kind;
        false
    }
}

/// [`resolve_from`] for the usual case: `path` (UTF-8, in normal form) below the real
/// directory `base` (in normal form), walked component by component as text: the result is
/// in normal form. `None` when a component is a symlink: then the path is walked by
/// [`resolve_walk`], which follows links. With it, whether the path is a device node.
fn resolve_plain_below(path: &str, base: &str) -> Option<(PathBuf, bool)> {
    let rest = path[base.len()..].trim_start_matches('/');
    let mut out = String::with_capacity(base.len() + rest.len() + 1);
    out.push_str(base);
    let mut parts = rest.split('/').filter(|p| !p.is_empty());
    let mut device = false;
    while let Some(part) = parts.next() {
        if !out.ends_with('/') {
            out.push('/');
        }
        out.push_str(part);
        match std::fs::symlink_metadata(&out) {
            Ok(meta) if meta.file_type().is_symlink() => return None,
            Ok(meta) => device = device_node(meta.file_type()),
            // It does not exist: the rest is kept as text.
            Err(_) => {
                device = false;
                for part in parts {
                    out.push('/');
                    out.push_str(part);
                }
                break;
            }
        }
    }
    Some((PathBuf::from(out), device))
}

/// [`resolve_from`], component by component, links followed; with it, whether the path is a
/// device node.
fn resolve_walk(path: &Path, real: Option<&Path>) -> Option<(PathBuf, bool)> {
    use std::borrow::Cow;
    use std::ffi::OsStr;
    fn parts(path: &Path) -> impl DoubleEndedIterator<Item = &OsStr> {
        path.components().filter_map(|c| match c {
            Component::Normal(n) => Some(n),
            Component::ParentDir => Some(OsStr::new("..")),
            _ => None,
        })
    }
    let below_real = |r: &'_ Path| -> Option<&Path> {
        // Both in normal form and UTF-8 (the usual case): a prefix of text is a prefix of
        // components; otherwise component by component.
        match (path.to_str(), r.to_str()) {
            (Some(p), Some(base)) if plain(path) && plain(r) && below(path, r) => {
                Some(Path::new(p[base.len()..].trim_start_matches('/')))
            }
            _ => path.strip_prefix(r).ok(),
        }
    };
    let (start, rest) = match real.and_then(|r| below_real(r).map(|rest| (r, rest))) {
        Some((r, rest)) => (r, rest),
        None => (Path::new("/"), path),
    };
    // Room for the whole path up front: it grows one component at a time.
    let mut out = PathBuf::with_capacity(start.as_os_str().len() + rest.as_os_str().len() + 1);
    out.push(start);
    // The components still to walk, last first: borrowed from `path`, owned once a link's
    // target adds its own.
    let mut pending: Vec<Cow<'_, OsStr>> = parts(rest).rev().map(Cow::Borrowed).collect();
    let mut links = 0usize;
    let mut exists = true;
    let mut device = false;
    while let Some(part) = pending.pop() {
        device = false;
        if part == OsStr::new("..") {
            out.pop();
            continue;
        }
        out.push(&part);
        if !exists {
            continue;
        }
        match std::fs::symlink_metadata(&out) {
            // The process file system's links (`/proc/self`, `/proc/<pid>/cwd`, `fd/N`)
            // point where the process that opens them is: the tool's, never this one's. The
            // rest is kept as text, below `/proc`.
            Ok(meta) if meta.file_type().is_symlink() && out.starts_with("/proc") => {
                exists = false;
            }
            Ok(meta) if meta.file_type().is_symlink() => {
                links += 1;
                if links > MAX_SYMLINKS {
                    return None;
                }
                let target = std::fs::read_link(&out).ok()?;
                out.pop();
                if target.is_absolute() {
                    out = PathBuf::from("/");
                }
                pending.extend(parts(&target).rev().map(|p| Cow::Owned(p.to_os_string())));
            }
            Ok(meta) => device = device_node(meta.file_type()),
            Err(_) => exists = false,
        }
    }
    Some((out, device))
}

#[cfg(test)]
mod tests {

    /// Code that names a key, a token or a password is no secret; a password given plainly,
    /// a typed constant and a password file's line in a long file are.
    #[test]
    fn code_is_no_secret_and_plain_passwords_are() {
        for text in [
            "let key = PrivatePkcs8KeyDer::from(cert.signing_key.serialize_der());\n",
            "let key = client.pool.h1_key(\"http://mock.local\");\n",
            "let tokens = proc_macro2::TokenStream::from_str(self)?;\n",
            "server_handshake_secret: OnceLock<Vec<u8>>,\n",
            "fn retain_ordered(keys: Large<Vec<i8>>, remove: Vec<i8>) {}\n",
            "keys = _get_end2end_headers(headers)\n",
            "password = base64.b16encode(random_bytes[8:])\n",
            "const b64Key = util_1.encoding.base64Encode(publicKey);\n",
            "let child_token1 = token1.child_token();\n",
            "13.28.24.13 - - [10/Mar/2016:19:29:25 +0100] \"GET /x\"\n",
            "src/main.rs:12:5: error[E0308]: mismatched types 1234abc\n",
            "DB:45:3D:1B:B0:9A:7F:11:22:33\n",
            "2024-01-01 12:00:01 INFO worker:42:main: started job 7f3a9c\n",
            "_SK_START = b\"-----BEGIN OPENSSH PRIVATE KEY-----\"\n_SK_END = b\"-----END OPENSSH PRIVATE KEY-----\"\n",
            "static RE: &str = r\"-----BEGIN PRIVATE KEY-----\";\n",
            "api_key = settings.openai.api_key_v2\n",
            // Base64 of text that holds no secret, of a hash, of an image.
            "note: anVzdCBzb21lIG9yZGluYXJ5IHRleHQgdGhhdCBob2xkcyBub3RoaW5nIGF0IGFsbA==\n",
            "integrity sha512-z4PhNX7vuL3xVChQ1m2AB9Yg5AULVxXcg/SpIdNs6c5H0NE8XYXysP+DGNKHfuwvY7kxvUdBeoGlODJ6+SfaPg==\n",
            "url(data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==)\n",
            "password: config.db.sha256_password\n",
        ] {
            assert_eq!(secret_text(text.as_bytes()), None, "{text}");
        }
        for text in [
            "DB_PASSWORD=mellon7friend\n",
            "  - POSTGRES_PASSWORD=hunter2rocks\n",
            "Server=db;Database=app;User Id=sa;Password=p4ssw0rd!;\n",
            "JWT_SECRET=MYSECRET123XYZ\n",
            // A secret base64-encoded into a value.
            "auths:\n  x: QUtJQTRRN1pLM00yWDlXTEJUNVI6OWRLM21RN3hMMnZUNnlCMW5aM2NGNWhKMHdQOGFFMnVTcjR0WXExVw==\n",
            "ENCODED=eG94Yi0yNzM0NTY3ODkwMTIzLTI3MzQ1Njc4OTAxMjMtQWIxQ2QyRWYzR2g0SWo1S2w2TW43T3A4\n",
            // Dotted, but no path of names: a part no name is.
            "DB_PASSWORD=S3cr3t.Pa55w0rd\n",
            "db:\n  password: S3cr3t.Pa55w0rd\n",
            "API_KEY=Ab1Cd2Ef3Gh4.Ij5Kl6Mn7Op8Qr9St0\n",
            "AUTH_TOKEN: x.Ab1Cd2Ef3Gh4Ij5Kl6Mn7Op8Qr9St0Uv\n",
            "VAULT_TOKEN=hvs.abcdefghijklmnopqrstuvwxyz0123456789ABCD\n",
            "val apiKey: String = \"a8f5f167f44f4964e6c998dee827110c\"\n",
            "const API_TOKEN: &str = \"Rk4stbPy6cq3jPPqjiChkVvv\";\n",
            "db.example.com:5432:app:admin:Mellon7Friend\n",
            "web1 ansible_host=10.0.0.5 ansible_user=root ansible_password=mellon7friend\n",
            "app.config['SECRET_KEY'] = 'mellon7friend'\n",
            "ldap_default_authtok = mellon7friend\n",
            "Set-Cookie: sessionid=8f14e45fceea167a5a36dedd4bea2543; Path=/\n",
            "Authorization: Basic YWRtaW46bWVsbG9uN2ZyaWVuZA==\n",
            "{\"name\": \"Cookie\", \"value\": \"_gh_sess=Mellon7Friend9abcdEFGH1234\"}\n",
            "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXk\n-----END OPENSSH PRIVATE KEY-----\n",
            "-----BEGIN RSA PRIVATE KEY-----\nnot a real key, for the tests\n-----END RSA PRIVATE KEY-----\n",
            "{\"key\": \"-----BEGIN PRIVATE KEY-----\\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7\\n\"}\n",
        ] {
            assert!(secret_text(text.as_bytes()).is_some(), "{text}");
        }
        // After the first read of a long file, the markers still find every family.
        for line in [
            "db.example.com:5432:app:admin:Mellon7Friend",
            "SMTP_PW=Mellon7Friend9",
        ] {
            let mut long = "filler line of text\n".repeat(400);
            long.push_str(line);
            long.push('\n');
            assert!(bytes_secret(long.as_bytes()).is_some(), "{line}");
        }
    }
    use super::*;

    #[test]
    fn a_name_glob_the_walk_may_read_otherwise_matches_any_name() {
        for glob in [
            r"\.env",
            r".\e\n\v",
            r"**\.ENV",
            ".[[.e.]]nv",
            ".[[=e=]]nv",
            ".[[:alpha:]]nv",
            "{.env,x}",
            "{X,.ENV}",
        ] {
            assert!(component_matches(glob, ".env", true), "{glob}");
        }
        assert!(!component_matches("*.rs", ".env", true));
        assert!(!component_matches("*.{rs,toml}", ".env", true));
        assert!(component_matches("*.{rs,toml}", "Cargo.toml", true));
        assert!(glob_read_exactly("*.{rs,toml}", true));
        assert!(!glob_read_exactly("*.{rs,toml}", false));
        assert!(glob_read_exactly("[!.]*.rs", false));
    }

    fn places<'a>(root: &Path, sensitive: &'a SensitivePaths) -> Places<'a> {
        Places::new(root, Some(Path::new("/home/u")), Some(sensitive))
    }

    /// Slashes after `~` are one: `~//.ssh` is the home's `.ssh`, never `/.ssh`, whether
    /// placed or globbed.
    #[test]
    fn doubled_slashes_after_the_home_stay_in_the_home() {
        let ws = tempfile::tempdir().unwrap();
        let home = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(home.path().join(".ssh")).unwrap();
        std::fs::write(home.path().join(".ssh/id_rsa"), "k").unwrap();
        let s = SensitivePaths::new(&[]).unwrap();
        let p = Places::new(ws.path(), Some(home.path()), Some(&s));
        for raw in ["~//.ssh/id_rsa", "~///.ssh/id_rsa", "~/.ssh//id_rsa"] {
            assert_eq!(
                p.lexical(raw, &WorkingDir::Root).as_deref(),
                Some(home.path().join(".ssh/id_rsa").as_path()),
                "{raw}"
            );
            assert!(
                matches!(p.locate(raw, &WorkingDir::Root).place, Place::Sensitive(_)),
                "{raw}"
            );
        }
        for pattern in ["~//.ssh/id_*", "~//.ss?/id_rsa", "~///.ssh/*"] {
            let found = p.expand_glob(pattern, &WorkingDir::Root, false).unwrap();
            assert_eq!(found.len(), 1, "{pattern}: {found:?}");
            assert!(
                matches!(
                    p.locate(&found[0], &WorkingDir::Root).place,
                    Place::Sensitive(_)
                ),
                "{pattern}: {found:?}"
            );
        }
    }

    #[test]
    fn the_machines_protected_places_are_protected_where_written_and_below() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join(".git")).unwrap();
        std::fs::write(
            dir.path().join(".git/config"),
            "[core]\n\thooksPath = tools/hooks\n",
        )
        .unwrap();
        let s = SensitivePaths::new(&[]).unwrap();
        let p = places(dir.path(), &s).with_path_var(Some("/opt/p/bin:/usr/bin"));
        let protected = |raw: &str, cwd: &WorkingDir| {
            let located = p.locate(raw, cwd);
            p.protected(&located, raw, cwd)
        };
        for raw in [
            "tools/hooks/pre-commit",
            ".git/HEAD",
            ".git/objects/ab/cd",
            ".git/refs/heads/main",
            "/opt/p/bin/git",
        ] {
            assert!(protected(raw, &WorkingDir::Root).is_some(), "{raw}");
        }
        let in_git = WorkingDir::Dir(".git".to_owned());
        assert!(protected("index", &in_git).is_some());
        for raw in [
            "src/main.rs",
            "tools/other.sh",
            ".git/info/exclude",
            ".bashrc",
        ] {
            assert_eq!(protected(raw, &WorkingDir::Root), None, "{raw}");
        }
        // A tree written into the workspace may hold the hooks; one into src may not.
        let root = p.locate(".", &WorkingDir::Root);
        assert!(
            p.protected_any_name_below(&root, ".", &WorkingDir::Root)
                .is_some()
        );
        let src = p.locate("src", &WorkingDir::Root);
        assert_eq!(
            p.protected_any_name_below(&src, "src", &WorkingDir::Root),
            None
        );
        let objects = p.locate(".git/objects", &WorkingDir::Root);
        assert!(
            p.protected_below(&objects, ".git/objects", &WorkingDir::Root, true)
                .is_some()
        );
    }

    #[test]
    fn the_walks_of_one_evaluation_share_one_budget() {
        // Each walk is under the per-tree cap; together they reach the evaluation's budget
        // (one command naming the same tree many times, or many trees).
        let dir = tempfile::tempdir().unwrap();
        for i in 0..999 {
            std::fs::write(dir.path().join(format!("f{i}")), "x").unwrap();
        }
        let s = SensitivePaths::new(&[]).unwrap();
        let p = places(dir.path(), &s);
        let walks = MAX_EVALUATION_ENTRIES / 1000;
        for _ in 0..walks {
            assert_eq!(p.tree_secret(dir.path(), true, false), Ok(None));
        }
        assert_eq!(p.tree_secret(dir.path(), true, false), Err(Limit));
        // Other places (another evaluation) start afresh.
        assert_eq!(
            places(dir.path(), &s).tree_secret(dir.path(), true, false),
            Ok(None)
        );
    }

    #[test]
    fn normal_form_is_the_same_whether_or_not_the_quick_path_is_taken() {
        for (raw, want) in [
            ("/a/b", "/a/b"),
            ("/", "/"),
            ("", ""),
            ("a/b", "a/b"),
            ("/a//b", "/a/b"),
            ("/a/b/", "/a/b"),
            ("/a/./b", "/a/b"),
            ("/a/../b", "/b"),
            ("./a", "a"),
            ("../a", "../a"),
            ("/a/.b/c..", "/a/.b/c.."),
            ("//a", "/a"),
        ] {
            let got = normalize(Path::new(raw));
            assert_eq!(got.as_os_str(), want, "normalize({raw:?})");
        }
    }

    #[test]
    fn below_compares_whole_components() {
        for (path, base, want) in [
            ("/a/b", "/a", true),
            ("/a", "/a", true),
            ("/ab", "/a", false),
            ("/a/b", "/", true),
            ("/", "/", true),
            ("/a/./b", "/a", true),
            ("/a//b", "/a/b", true),
            ("a/b", "a", true),
            ("/b", "/a", false),
        ] {
            assert_eq!(
                below(Path::new(path), Path::new(base)),
                Path::new(path).starts_with(base),
                "below({path:?}, {base:?}) differs from Path::starts_with"
            );
            assert_eq!(
                below(Path::new(path), Path::new(base)),
                want,
                "{path} {base}"
            );
        }
    }

    #[test]
    fn dot_dot_leaves_the_workspace() {
        let s = SensitivePaths::new(&[]).unwrap();
        let p = places(Path::new("/nonexistent/ws"), &s);
        assert_eq!(p.locate("src/../a", &WorkingDir::Root).place, Place::Inside);
        assert_eq!(p.locate("../x", &WorkingDir::Root).place, Place::Outside);
        assert_eq!(
            p.locate("/etc/hosts", &WorkingDir::Root).place,
            Place::System
        );
        assert_eq!(
            p.locate("/dev/null", &WorkingDir::Root).place,
            Place::HarmlessDevice
        );
        assert_eq!(p.locate("/dev/sda", &WorkingDir::Root).place, Place::Device);
    }

    #[test]
    fn a_device_node_in_the_workspace_is_a_device() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        // Only a privileged user may make a device node (`c 1 3` is the null device).
        let made = std::process::Command::new("mknod")
            .arg(root.join("disk"))
            .args(["c", "1", "3"])
            .status()
            .is_ok_and(|s| s.success());
        if !made {
            eprintln!("skipped: mknod is not permitted here");
            return;
        }
        std::fs::create_dir(root.join("sub")).unwrap();
        std::os::unix::fs::symlink(root.join("disk"), root.join("sub/link")).unwrap();
        std::fs::write(root.join("file"), "x").unwrap();
        let s = SensitivePaths::new(&[]).unwrap();
        let p = places(&root, &s);
        for raw in ["disk", "./disk", "sub/link", "sub/../disk"] {
            assert_eq!(
                p.locate(raw, &WorkingDir::Root).place,
                Place::Device,
                "{raw}"
            );
        }
        assert_eq!(p.locate("file", &WorkingDir::Root).place, Place::Inside);
        assert_eq!(p.locate("disk/x", &WorkingDir::Root).place, Place::Inside);
    }

    #[test]
    fn names_holding_a_token_or_a_key_are_secrets_and_everyday_names_are_not() {
        let token = "ghp_R8s7dK2mQ9xL4vT6yB1nZ3cF5hJ0wP8aE2uS";
        for name in [
            format!("b-{token}"),
            format!("refs/heads/{token}"),
            format!("cfg-{token}.txt"),
            format!("/opt/keys/{token}"),
            "password=hunter2-prod".to_owned(),
            "https://user:s3cr3tpass@example.com".to_owned(),
        ] {
            assert!(name_secret(name.as_bytes()).is_some(), "{name}");
        }
        for name in [
            "src/auth.rs",
            "api_key.rs",
            "token_store.go",
            "tokenizer.py",
            "secret_manager.ts",
            "password_reset.html",
            "keyboard.c",
            "credentials_test.go",
            "jwt.rs",
            "id_ed25519.pub",
            "private_key_test.go",
            "refs/heads/main",
            "refs/remotes/origin/feature/add-auth-token-refresh",
            "node_modules/.bin/eslint",
            "secret-key-rotation.md",
            "AuthProvider.tsx",
        ] {
            assert_eq!(name_secret(name.as_bytes()), None, "{name}");
        }
    }

    #[test]
    fn secrets_are_recognized_wherever_they_are() {
        let s = SensitivePaths::new(&["secrets/**".to_owned()]).unwrap();
        let p = places(Path::new("/nonexistent/ws"), &s);
        for raw in [
            "~/.ssh/id_rsa",
            "~/.aws/credentials",
            ".env",
            "certs/server.pem",
            "/etc/shadow",
            "secrets/a",
        ] {
            assert!(
                matches!(p.locate(raw, &WorkingDir::Root).place, Place::Sensitive(_)),
                "{raw}"
            );
        }
        assert_eq!(
            p.locate(".env.example", &WorkingDir::Root).place,
            Place::Inside
        );
    }

    #[test]
    fn symlinks_are_followed_out_of_the_workspace() {
        let ws = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        std::os::unix::fs::symlink(outside.path(), ws.path().join("link")).unwrap();
        std::os::unix::fs::symlink("/etc/nowhere-file", ws.path().join("dangling")).unwrap();
        let s = SensitivePaths::new(&[]).unwrap();
        let p = places(ws.path(), &s);
        assert_eq!(
            p.locate("link/new.txt", &WorkingDir::Root).place,
            Place::Outside
        );
        assert_eq!(p.locate("dangling", &WorkingDir::Root).place, Place::System);
        assert_eq!(
            p.locate("plain.txt", &WorkingDir::Root).place,
            Place::Inside
        );
    }

    #[test]
    fn a_relative_root_is_taken_from_the_current_directory() {
        let s = SensitivePaths::new(&[]).unwrap();
        for root in [".", "no-such-dir"] {
            let p = places(Path::new(root), &s);
            assert!(p.root().is_absolute(), "{root}");
            assert_eq!(
                p.locate("/etc/hosts", &WorkingDir::Root).place,
                Place::System
            );
            assert_eq!(p.locate("a.txt", &WorkingDir::Root).place, Place::Inside);
        }
    }

    #[test]
    fn an_unknown_working_directory_leaves_relative_paths_unknown() {
        let s = SensitivePaths::new(&[]).unwrap();
        let p = places(Path::new("/nonexistent/ws"), &s);
        assert_eq!(p.locate("x", &WorkingDir::Unknown).place, Place::Unknown);
        assert_eq!(
            p.locate("x", &WorkingDir::Dir("/tmp".into())).place,
            Place::Outside
        );
        // A name that is a secret's wherever it lies stays that secret.
        for secret in ["id_rsa", "./.env", ".aws/credentials"] {
            assert!(
                matches!(
                    p.locate(secret, &WorkingDir::Unknown).place,
                    Place::Sensitive(_)
                ),
                "{secret}"
            );
        }
        assert_eq!(
            p.locate("id_rsa.pub", &WorkingDir::Unknown).place,
            Place::Unknown
        );
    }

    /// Keys generated by `openssl genpkey … -outform DER` (and `pkcs8 -topk8`), base64.
    const ED25519_PKCS8: &str = "MC4CAQAwBQYDK2VwBCIEIAr8rK+DI7bK6sDxPs4JSvo5YkkWWwAsblIVErKMe7lF";
    const X25519_PKCS8: &str = "MC4CAQAwBQYDK2VuBCIEIPiwEWlzGCgfXByvT+mjLDveUpbThmlGry5TbMiX4Stj";
    const EC_PKCS8: &str = "MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg8ZPtDFt8Aj5C0mXTjWg0WjI+tYueHi86pKObtHXLV8OhRANCAASTHZboLcpD4q98ox6TVITCg9NGUZA51EGa3Se6hn9EYa7KF4XOxwDZUtbVMUNRIOqjWwVfouWCM4xjcYiaD8qa";
    const EC_SEC1: &str = "MHcCAQEEIPGT7QxbfAI+QtJl041oNFoyPrWLnh4vOqSjm7R1y1fDoAoGCCqGSM49AwEHoUQDQgAEkx2W6C3KQ+KvfKMek1SEwoPTRlGQOdRBmt0nuoZ/RGGuyheFzscA2VLW1TFDUSDqo1sFX6LlgjOMY3GImg/Kmg==";
    const RSA_PKCS1: &str = "MIIBOgIBAAJBAKcXMBLQ6P2qXbslqG55+mUIUyALZAPgTFx/PQtz/oGufsDCgAr3X26nffXb0Plt3NIELdDCi9wf9r/7RTYZtXkCAwEAAQJASSmGCzceTbQDRqa+kWEnmoWCoE1chbX4uaec+x7XGcCw5G51FALC70TxxV2629odzWHk5f8mCSr67jvO7dQ8AQIhANOiZvMmuIqoYeF6hPOuge5NHdykyuS7ZqTOrQOcfeORAiEAyh5Kw+UacUSqzZAcsmLJKQvKGyWCEoj8FbJMWsdT72kCIBKzVAOCVWYzMMr6x4q8zdBf0hawHRmPEafYd2NNTbZxAiA07mfwE3CwVyZP/Ty2rs41lKPSJimBRySVXgNHBsqBeQIhALqPdeXkz0nz5Tn2adKlNgRyfupCmQ6fMdY7dGkpbL5A";
    const RSA_PKCS8: &str = "MIIBVAIBADANBgkqhkiG9w0BAQEFAASCAT4wggE6AgEAAkEApxcwEtDo/apduyWobnn6ZQhTIAtkA+BMXH89C3P+ga5+wMKACvdfbqd99dvQ+W3c0gQt0MKL3B/2v/tFNhm1eQIDAQABAkBJKYYLNx5NtANGpr6RYSeahYKgTVyFtfi5p5z7HtcZwLDkbnUUAsLvRPHFXbrb2h3NYeTl/yYJKvruO87t1DwBAiEA06Jm8ya4iqhh4XqE866B7k0d3KTK5LtmpM6tA5x945ECIQDKHkrD5RpxRKrNkByyYskpC8obJYISiPwVskxax1PvaQIgErNUA4JVZjMwyvrHirzN0F/SFrAdGY8Rp9h3Y01NtnECIDTuZ/ATcLBXJk/9PLauzjWUo9ImKYFHJJVeA0cGyoF5AiEAuo915eTPSfPlOfZp0qU2BHJ+6kKZDp8x1jt0aSlsvkA=";
    const DSA_PKCS8: &str = "MIIBWgIBADCCATMGByqGSM44BAEwggEmAoGBAPra/KYXNr01phxG6NleESOKvxSj4IO/QSl55lUIJ7WQQTdROl+m2gcJLMPFu4b5mmSP4pXEGiR1bn03VcszmU0p76xSruv+fgzEdqHRHgnoM158VqMdlPirj0r2MXMti/FVXq7AL7jGL6sg1O8GP0LmoDQuJa5IiOk7GSoonvI7Ah0AzfhXJsYeUR+q5a8YUeFRjnpkk5lIFiM/+uloHwKBgFuckvwZXm4egC2Qbj4xky2i/pYjK+giIjS5ZQ5ODZiI+eu2FC+xoQZT+w1oAZU5JsZxuDn4Kg4CPpWcCIozTIqmJEmqbeEQtW+ImRwvRz4E+Fi29Lxd73Cj+eVWPXQXQ0rhVp1iRvYofjmZJhY6jGV8u/obXLi8YTmQL5Ou3QMcBB4CHEMpWoda9n7DHD8rA9Bdu+3Sc4X90EIHPY1IaZw=";
    /// `openssl pkcs8 -topk8 -passout pass:x` of the Ed25519 key (PBES2).
    const ENCRYPTED_PKCS8: &str = "MIGbMFcGCSqGSIb3DQEFDTBKMCkGCSqGSIb3DQEFDDAcBAicbDQqKcqTIwICCAAwDAYIKoZIhvcNAgkFADAdBglghkgBZQMEASoEELnWYj5H5s5PSa5hJaSQCBQEQCEoO9yCtmJKVSLeCori3FyxjHdDR4Ib3iUC7vlezRrHeS489HtueNqg7UZHZSCKzKq4+O9nYOcFCH69qBQF1oc=";
    /// The first 64 bytes of an `openssl pkcs12 -export -passout pass:` file (2,515 bytes).
    const PKCS12_HEAD: &str =
        "MIIJzwIBAzCCCYUGCSqGSIb3DQEHAaCCCXYEgglyMIIJbjCCA+IGCSqGSIb3DQEHBqCCA9MwggPPAgEAMIIDyA==";
    /// Public data: a certificate's first 120 bytes, SPKI and PKCS#1 public keys.
    const PUBLIC_DER: &[&str] = &[
        "MIIC+TCCAeGgAwIBAgIUU43XnIBukqmdm9eBtD70dWoIsSIwDQYJKoZIhvcNAQELBQAwDDEKMAgGA1UEAwwBdDAeFw0yNjEyMDMxODQ5MDlaFw0yNjEyMDQxODQ5MDlaMAwxCjAIBgNVBAMMAXQwggEiMA0GCSqG",
        "MCowBQYDK2VwAyEA2J7hblVwOVE39dDtzss56MYFdxMNo7b6zkugJoG9h6s=",
        "MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEkx2W6C3KQ+KvfKMek1SEwoPTRlGQOdRBmt0nuoZ/RGGuyheFzscA2VLW1TFDUSDqo1sFX6LlgjOMY3GImg/Kmg==",
        "MIIBCgKCAQEAtiMKaIPqLh5Gb7xH6O0ViRt7dQDQIrOqVLx87eUelIJZJNxEvipEa+I0qqdUnJCBfzV2KxW+kOhUAtdSomyEv9kNoZzMvizwpCLSlXFPsGiyXDnkdtLrZY5CeVSxEHf3n06w9QPPdscY37keMf4cybxuWXmd8JfXTEObar3zgfldNoPTmwmsjBoUhNc1uFxieMrFUx6RPVlcbcXgAnpW3ex4ZIqER6eAdIBKPIC9m0RN0HwUb/mTEc9/fHCb0EKVaQW0+UCQpDZyvRcUWN+hRCDaBC0lrFTrF1TzpKjAbh9WEUua0aTGVa3J5rp7LReFcpWrC4i/HmTbo7KZwikWVwIDAQAB",
    ];
    const PRIVATE_DER: &[&str] = &[
        ED25519_PKCS8,
        X25519_PKCS8,
        EC_PKCS8,
        EC_SEC1,
        RSA_PKCS1,
        RSA_PKCS8,
        DSA_PKCS8,
        ENCRYPTED_PKCS8,
        PKCS12_HEAD,
    ];
    /// `gpg --quick-gen-key t@x ed25519` exported with `--armor --export-secret-keys`, its
    /// label to be replaced, and the same key's public export.
    const PGP_SECRET_BODY: &str = "\nlFgEaxG68BYJKwYBBAHaRw8BAQdAvpUNyqDwkx9dq8fx0KnAIxuZ+4RhU42JW0CC\ngeyhKHoAAP43/L5XzA0hfcR+J6WAVdRIYtUjEvO2bXRp3OTzoKIe3BIKtAN0QHiI\nkAQTFggAOBYhBE2s7mBoZsHxmtp4vKS9/5G2Uk/pBQJrEbrwAhsDBQsJCAcCBhUK\nCQgLAgQWAgMBAh4BAheAAAoJEKS9/5G2Uk/pHLYBANED8nYiJdWmLvrXV/Fx0RXF\nm10tZT82wV3G46Uiwkk6AQCrX7ew9twdj38480jp83WNvjFEqAzedzW5m665N4Rk\nCQ==\n=cdx1\n";
    const PGP_PUBLIC: &str = "-----BEGIN PGP PUBLIC KEY BLOCK-----\n\nmDMEaxG68BYJKwYBBAHaRw8BAQdAvpUNyqDwkx9dq8fx0KnAIxuZ+4RhU42JW0CC\ngeyhKHq0A3RAeIiQBBMWCAA4FiEETazuYGhmwfGa2ni8pL3/kbZST+kFAmsRuvAC\nGwMFCwkIBwIGFQoJCAsCBBYCAwECHgECF4AACgkQpL3/kbZST+kctgEA0QPydiIl\n1aYu+tdX8XHRFcWbXS1lPzbBXcbjpSLCSToBAKtft7D23B2PfzjzSOnzdY2+MUSo\nDN53Nbmbrrk3hGQJ\n=rauk\n-----END PGP PUBLIC KEY BLOCK-----\n";
    const PEM: &str = "-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIAr8rK+DI7bK6sDxPs4JSvo5YkkWWwAsblIVErKMe7lF\n-----END PRIVATE KEY-----\n";

    /// Four KiB and more of notes before what follows, past the first look.
    fn notes() -> String {
        (0..100)
            .map(|i| format!("line {i}: notes about the deployment and its rotation\n"))
            .collect()
    }

    /// `base64` of `bytes`, wrapped at `width` columns (0: one line).
    fn base64_of(bytes: &[u8], width: usize) -> String {
        use base64::Engine as _;
        let out = base64::engine::general_purpose::STANDARD.encode(bytes);
        if width == 0 {
            return out;
        }
        out.as_bytes()
            .chunks(width)
            .map(|l| String::from_utf8_lossy(l).into_owned() + "\n")
            .collect()
    }

    #[test]
    fn der_private_keys_are_secrets_by_their_structure() {
        for key in PRIVATE_DER {
            let der = base64_decoded(key);
            // The head of a key store is not one; a whole one is, below.
            if *key != PKCS12_HEAD {
                assert!(bytes_secret(&der).is_some(), "{key}");
                // Nor is a template of a key's first bytes.
                assert_eq!(bytes_secret(&der[..der.len() - 1]), None, "{key}");
            }
            // A key store longer than the first look, under any name.
            let mut long = der.clone();
            long.resize(64 * 1024, 0x5a);
            assert!(bytes_secret(&long).is_some(), "{key}");
        }
        for public in PUBLIC_DER {
            assert_eq!(bytes_secret(&base64_decoded(public)), None, "{public}");
        }
        // Malformed DER is no key, and reading it does not fail.
        for bytes in [
            &b"\x30"[..],
            b"\x30\x85\x01\x02\x03\x04\x05",
            b"\x30\x84\xff\xff\xff\xff\x02\x01",
            b"\x30\x03\x02\x01\x00",
            b"\x30\x06\x02\x01\x00\x30\x01\x06",
            b"0.1.2 is a version\n",
        ] {
            assert_eq!(bytes_secret(bytes), None, "{bytes:?}");
        }
    }

    #[test]
    fn base64_der_private_keys_in_text_are_secrets() {
        for key in PRIVATE_DER {
            let properties = format!("server.port=8080\njwt.signing-key={key}\n");
            assert!(bytes_secret(properties.as_bytes()).is_some(), "{key}");
            let json = format!("{{\"name\": \"signer\", \"key\": \"{key}\"}}\n");
            assert!(bytes_secret(json.as_bytes()).is_some(), "{key}");
            let long = format!("{}key: {key}\n", notes());
            assert!(bytes_secret(long.as_bytes()).is_some(), "{key}");
        }
        for public in PUBLIC_DER {
            let json = format!("{}{{\"key\": \"{public}\"}}\n", notes());
            assert_eq!(bytes_secret(json.as_bytes()), None, "{public}");
        }
    }

    #[test]
    fn wrapped_base64_of_a_key_file_past_the_first_look_is_a_secret() {
        for width in [64, 76] {
            for offset in 0..3 {
                // The PEM key after a few bytes, so its marker falls at each alignment and
                // across line breaks.
                let file = format!("{}{PEM}", "#".repeat(offset));
                let wrapped = format!("{}{}", notes(), base64_of(file.as_bytes(), width));
                assert!(
                    bytes_secret(wrapped.as_bytes()).is_some(),
                    "{width} {offset}"
                );
            }
            let der = base64_of(&base64_decoded(RSA_PKCS8), width);
            let wrapped = format!("{}{der}", notes());
            assert!(bytes_secret(wrapped.as_bytes()).is_some(), "{width}");
        }
        let plain = format!("{}{}", notes(), base64_of(notes().as_bytes(), 76));
        assert_eq!(bytes_secret(plain.as_bytes()), None);
    }

    #[test]
    fn a_key_in_utf32_is_a_secret() {
        let text = format!("{}{PEM}", notes());
        let le: Vec<u8> = text
            .chars()
            .flat_map(|c| (c as u32).to_le_bytes())
            .collect();
        let be: Vec<u8> = text
            .chars()
            .flat_map(|c| (c as u32).to_be_bytes())
            .collect();
        let with_bom: Vec<u8> = [0xff, 0xfe, 0, 0].into_iter().chain(le.clone()).collect();
        for bytes in [&le, &be, &with_bom] {
            assert!(bytes_secret(bytes).is_some());
        }
        // Other families as well: AWS keys in UTF-32.
        let aws = format!("{}aws_secret_access_key = canary\n", notes());
        let aws: Vec<u8> = aws.chars().flat_map(|c| (c as u32).to_le_bytes()).collect();
        assert!(bytes_secret(&aws).is_some());
        let plain: Vec<u8> = notes()
            .chars()
            .flat_map(|c| (c as u32).to_le_bytes())
            .collect();
        assert_eq!(bytes_secret(&plain), None);
        assert_eq!(
            wide_ascii(b"\x01\x00\x00\x00\x02\x00\x00\x00"),
            Some(vec![1, 2])
        );
        assert_eq!(wide_ascii(b"plain"), None);
    }

    #[test]
    fn a_key_written_with_json_escapes_is_a_secret() {
        let escaped: String = PEM
            .chars()
            .map(|c| format!("\\u{:04x}", c as u32))
            .collect();
        for json in [
            format!("{{\"key\": \"{escaped}\"}}"),
            "{\"key\": \"\\u002d\\u002d\\u002d\\u002d\\u002dBEGIN PRIVATE KEY\\u002d\\u002d\\u002d\\u002d\\u002d\\nMC4C\\n\"}"
                .to_owned(),
            format!("{{\"notes\": {:?}, \"key\": \"{escaped}\"}}", notes()),
            "[{\"k\": \"\\u0070rivate_key\", \"private_key\": \"\\u002d\"}]".to_owned(),
        ] {
            assert!(bytes_secret(json.as_bytes()).is_some(), "{json}");
        }
        let ordinary = format!(
            "{{\"name\": \"caf\\u00e9\", \"path\": \"a\\/b\", \"emoji\": \"\\ud83d\\ude00\", \"notes\": {:?}}}",
            notes()
        );
        assert_eq!(bytes_secret(ordinary.as_bytes()), None);
        assert_eq!(
            json_unescaped("{\"a\": \"\\u0041\\n\\/\\ud83d\\ude00\\u12\"}").as_deref(),
            Some("{\"a\": \"A\n/\u{1f600}\\u12\"}")
        );
        assert_eq!(json_unescaped("plain \\u0041"), None);
    }

    #[test]
    fn openpgp_armor_under_any_label_holding_secret_packets_is_a_secret() {
        for label in [
            "PGP PUBLIC KEY BLOCK",
            "PGP MESSAGE",
            "PGP SIGNATURE",
            "PGP ARMORED FILE",
        ] {
            let armor = format!(
                "-----BEGIN {label}-----\nComment: x\n{PGP_SECRET_BODY}-----END {label}-----\n"
            );
            assert!(bytes_secret(armor.as_bytes()).is_some(), "{label}");
            let long = format!("{}{armor}", notes());
            assert!(bytes_secret(long.as_bytes()).is_some(), "{label}");
        }
        assert_eq!(bytes_secret(PGP_PUBLIC.as_bytes()), None);
        assert_eq!(
            bytes_secret(b"-----BEGIN PGP PUBLIC KEY BLOCK-----\n\n...\n-----END PGP PUBLIC KEY BLOCK-----\n"),
            None
        );
        // Secret packets in binary: a secret key, a secret subkey, lengths cut short.
        let body: String = PGP_SECRET_BODY.lines().take(7).collect();
        let binary = base64_decoded(&body);
        assert!(bytes_secret(&binary).is_some());
        assert!(openpgp_packets_secret(&[0xc7, 0x01, 0x04], true));
        assert!(!openpgp_packets_secret(&[0xc6, 0xff, 0xff], true));
        assert!(!openpgp_packets_secret(&[0x99, 0xff], true));
    }

    #[test]
    fn wireguard_keys_in_any_spelling_wg_accepts_are_secrets() {
        for conf in [
            "[Interface]\nPrivateKey = canary=\n",
            "[interface]\nprivatekey=canary=\n",
            "[ Interface ]\nPrivate Key = canary=\n",
            "[Peer]\nPublicKey = x=\nPresharedKey = canary=\n",
            "[PEER]\n  presharedkey\t=\tcanary= # shared\n",
        ] {
            assert!(bytes_secret(conf.as_bytes()).is_some(), "{conf}");
            let long = format!("{}{conf}", notes());
            assert!(bytes_secret(long.as_bytes()).is_some(), "{conf}");
        }
        for conf in [
            "[Peer]\nPublicKey = x=\nAllowedIPs = 0.0.0.0/0\n",
            "[Interface]\n# PrivateKey is kept elsewhere\nAddress = 10.0.0.2/32\n",
            "interface Signer { privateKey: string }\n",
        ] {
            assert_eq!(bytes_secret(conf.as_bytes()), None, "{conf}");
        }
    }

    #[test]
    fn credential_names_in_code_are_not_credentials() {
        for code in [
            "class Client:\n    def __init__(self):\n        self._auth = None\n        self._auth = x\n",
            "cfg := aws.Config{\n\tSecretAccessKey: os.Getenv(\"AWS_SECRET\"),\n}\ntype Creds struct {\n\tSecretAccessKey string `json:\"SecretAccessKey\"`\n}\n",
            "{\"SecretAccessKey\": \"\"}\n",
            "this._authToken = token;\nconst _authToken = null;\n",
            "//registry.npmjs.org/:_authToken=\n",
            "echo \"//registry.npmjs.org/:_authToken=${NPM_TOKEN}\" > .npmrc\n",
            "AWS_ACCESS_KEY_ID=\nAWS_SECRET_ACCESS_KEY=\n",
            "Set `AWS_SECRET_ACCESS_KEY` in your shell.\n",
            "env:\n  AWS_SECRET_ACCESS_KEY: ${{ secrets.AWS_SECRET_ACCESS_KEY }}\n",
            "os.environ[\"AWS_SECRET_ACCESS_KEY\"] = secret\n",
            "boto3.client(aws_secret_access_key=key, region_name=r)\n",
            "aws_secret_access_key = creds.secret_key\n",
            "aws_secret_access_key = <your secret access key>\n",
            "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\n",
            "export AWS_SECRET_ACCESS_KEY=$(vault read -field=key aws)\n",
            "DATABASE_URL=postgres://postgres:postgres@localhost/app\nDEBUG=1\n",
            "class Client:\n    client_secret: str\n    oauth_token: Optional[str] = None\n",
            "app.secret_key = 'dev'\nSECRET_KEY = os.environ['KEY']\n",
            "[pypi]\nusername = me\npassword = <token>\n",
        ] {
            assert_eq!(bytes_secret(code.as_bytes()), None, "{code}");
        }
        for secret in [
            "[default]\naws_secret_access_key = canary\n",
            "export AWS_SECRET_ACCESS_KEY=\"kD8s9Fh2Lq0Zm3Xc7Vb5\"\n",
            "SECRET_ACCESS_KEY: kD8s9Fh2Lq0Zm3Xc7Vb5\n",
            "{\"aws_secret_access_key\": \"kD8s9Fh2\"}\n",
            "Access key ID,Secret access key\nAKIA4Q7ZJ2M5N8P3R6T9,kD8s9Fh2Lq0Zm3Xc7Vb5\n",
            "//registry.npmjs.org/:_authToken=npm_x\n",
            "echo '//registry.npmjs.org/:_authToken=canary' > ~/.npmrc\n",
            "_password=cGFzcw==\n",
            "npmRegistryServer: x\nnpmAuthToken: canary\n",
            "_auth=dXNlcjpwYXNz\n",
            "https://u:ghs_t0ken99@github.com\nhttps://x:y2@gitlab.com\n",
            "apiVersion: v1\nkind: Config\nusers:\n- name: u\n  user:\n    token: sk-live-123\n",
            "github.com:\n    oauth_token: gho_16C7e42F292c\n    user: u\n",
            "{\"credentials\":{\"app.terraform.io\":{\"token\":\"sk-live-123\"}}}\n",
            "[pypi]\nusername = __token__\npassword = sk-live-123\n",
            "[default]\naccess_key = x\nsecret_key = sk-live-123\n",
            "{\"clientId\": \"a\", \"clientSecret\": \"sk-live-123\"}\n",
            "  _auth = dXNlcjpwYXNz\n",
            "//registry.example.com/:_auth=dXNlcjpwYXNz\n",
            "{\"SecretAccessKey\" : \"canary\"}\n",
        ] {
            assert!(bytes_secret(secret.as_bytes()).is_some(), "{secret}");
        }
    }

    #[test]
    fn passwords_tokens_and_keys_given_anywhere_are_secrets() {
        for secret in [
            "production:\n  url: postgres://admin:S3cr3tP4ss@db.example.com:5432/prod\n",
            "REDIS_URL=redis://:R3disP4ssw0rd@cache.internal:6379/0\n",
            "Authorization: Bearer eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0In0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9P\n",
            "token=eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c\n",
            "---- BEGIN SSH2 ENCRYPTED PRIVATE KEY ----\nP2/56wAAAi4AAAA3aWYtbW9kbntzaWdu\n---- END SSH2 ENCRYPTED PRIVATE KEY ----\n",
            "db:\n  user: app\n  password: hunter2-Pr0d!\n",
            "Server=tcp:db.example.net;Database=app;User Id=sa;Password=Sup3rS3cret!;\n",
            "DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=Zm9vYmFyYmF6cXV4Zm9vYmFyYmF6cXV4==;\n",
            "SENDGRID_API_KEY=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\n",
            "TELEGRAM_BOT_TOKEN=123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw0\n",
            "DATABRICKS_TOKEN=dapi0123456789abcdef0123456789abcdef\n",
            "export DISCORD_TOKEN=\"MTIzNDU2Nzg5MDEyMzQ1Njc4.GaBcDe.aB3dE5fG7hJ9kL1mN2pQ4rS6tU8vW0\"\n",
            // Without a name for a secret: by their form.
            "https://hooks.slack.com/services/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\n",
            "admin:$2y$05$Lr3v8QmK1pWz6uXyNc0eB.Hq9dJt4fGs7aRk2lMn5oPb8cVw1xYzS\n",
            "root:$6$rounds=5000$Vq2Zx8$Kp3mN7rT1wYb5dHf9jLs2uQx6cVz0aEg4iOk8nRt3yWm7pBv1sDh5fJl9gXc2eA:19000:0:99999:7:::\n",
            "curl -H 'Authorization: Basic YWRtaW46UzNjcjN0UDRzc3cwcmQ=' https://api.example.com\n",
        ] {
            assert!(bytes_secret(secret.as_bytes()).is_some(), "{secret}");
        }
        for text in [
            "DATABASE_URL=postgres://postgres:postgres@localhost/app\n",
            "url = \"https://user:${PASSWORD}@host/x\"\n",
            "items.map(item => ({ key: 'row-12345', label: item }))\n",
            "cache-key: v1-deps-2024\n",
            "let api_key: String = std::env::var(\"API_KEY\")?;\n",
            "TOKEN_FILE=/run/secrets/token1\n",
            "password: changeme123\n",
            "AUTH_URL=https://auth.example.com/v2/token\n",
            "Use the header `Authorization: Bearer <token>`.\n",
            "[user]\n\tsigningkey = 3AA5C34371567BD2\n",
            "  publicKey: MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE\n",
            "primary_key: user_id_2024_accounts\n",
            "root:x:0:0:root:/root:/bin/bash\n",
            "nobody:*:19000:0:99999:7:::\n",
            "Basic authentication is described in RFC 7617.\n",
            "price: $5$ per seat\n",
        ] {
            assert_eq!(bytes_secret(text.as_bytes()), None, "{text}");
        }
    }
}
