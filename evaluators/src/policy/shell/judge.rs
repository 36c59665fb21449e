//! The judge of one shell command: collects findings about its parts and the paths they touch.

use warrant_core::decision::Risk;
use warrant_core::evaluator::Stance;

use super::producer;
use crate::paths::{Located, Place, Places, Scan};
use crate::paths::{content_secret, git_config, hard_linked};
use crate::policy::codes::{
    FILESYSTEM_OUTSIDE_WORKSPACE, FILESYSTEM_PROTECTED_CONFIG, FILESYSTEM_SENSITIVE_PATH,
    FILESYSTEM_SENSITIVE_TREE, SHELL_DESTRUCTIVE, SHELL_READ_ONLY, SHELL_UNKNOWN_COMMAND,
    SHELL_WRITE,
};
use crate::policy::finding::{Finding, quote};
use crate::programs::{Effects, Tree};
use crate::shell::{Domain, Script, SimpleCommand, Word, WorkingDir};
use std::path::Path;

/// What a path argument names, as far as the text tells.
pub(super) enum Target {
    /// A literal path (globs cut back to the directory they search).
    Known(Located),
    /// A path built at run time below a known directory (`/tmp/$X`, `build/$X`).
    Below(Located),
    /// A path built entirely at run time.
    Unknown,
}

/// How a command uses a path whose value is only known when it runs.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Access {
    /// Reads the file's contents.
    Read,
    /// Looks at the path (name, size, type), never its contents; `one_level` when it looks
    /// at most one level down, as [`Judge::meta`] takes it.
    Look {
        /// Whether the look goes at most one level below the path.
        one_level: bool,
    },
}

/// Collects findings about the parts of one script.
pub(super) struct Judge<'a> {
    pub places: &'a Places<'a>,
    pub script: &'a Script,
    pub findings: Vec<Finding>,
    /// Why the command being judged is not modeled by the program table, if it is not: then
    /// it is never allowed, whatever else is found about it.
    pub unmodeled: Option<String>,
    /// Whether the command being judged prints only a digest of what it reads
    /// ([`Effects::digest`]): a file that is a secret by its content alone is then read, not
    /// printed.
    pub digest: bool,
}

impl Judge<'_> {
    pub(super) fn add(&mut self, stance: Stance, code: &'static str, risk: Risk, reason: String) {
        self.findings.push(Finding::new(stance, code, risk, reason));
    }

    /// [`add`](Self::add), unless the same finding is already there (a command several
    /// checks reach, or a check run for each of its words).
    pub(super) fn add_once(
        &mut self,
        stance: Stance,
        code: &'static str,
        risk: Risk,
        reason: String,
    ) {
        let f = Finding::new(stance, code, risk, reason);
        if !self.findings.contains(&f) {
            self.findings.push(f);
        }
    }

    pub(super) fn destructive(&mut self, cmd: &SimpleCommand, what: &str) {
        let reason = format!("{} {what}.", quote(cmd));
        self.add(Stance::HardDeny, SHELL_DESTRUCTIVE, Risk::Critical, reason);
    }

    /// A part the older readers found harmless: allowed only when the program table proves
    /// it; an unmodeled part has its ask already.
    pub(super) fn read_only(&mut self, cmd: &SimpleCommand) {
        const CANNOT: &str = " cannot be proven harmless: ";
        let why = self
            .unmodeled
            .as_deref()
            .unwrap_or("the program table does not model it");
        let mut reason = quote(cmd);
        reason.reserve(CANNOT.len() + why.len() + 1);
        reason.push_str(CANNOT);
        reason.push_str(why);
        reason.push('.');
        self.add(
            Stance::DefaultAsk,
            SHELL_UNKNOWN_COMMAND,
            Risk::Medium,
            reason,
        );
    }

    /// A part the program table modeled: its effects are judged, and it is allowed when none
    /// of them is restricted.
    pub(super) fn effects(&mut self, cmd: &SimpleCommand, effects: &Effects) {
        let moved;
        let cmd = match &effects.cwd {
            Some(WorkingDir::Dir(dir)) => {
                let mut c = cmd.clone();
                c.cwd = match (&cmd.cwd, dir.starts_with(['/', '~'])) {
                    (_, true) => WorkingDir::Dir(dir.clone()),
                    (WorkingDir::Root, false) => WorkingDir::Dir(dir.clone()),
                    (WorkingDir::Dir(base), false) => {
                        WorkingDir::Dir(format!("{}/{dir}", base.trim_end_matches('/')))
                    }
                    (WorkingDir::Unknown, false) => WorkingDir::Unknown,
                };
                moved = c;
                &moved
            }
            Some(WorkingDir::Unknown) => {
                return self.unknown(
                    cmd,
                    "runs in a directory only known when it runs",
                    Risk::Medium,
                );
            }
            _ => cmd,
        };
        let before = self.findings.len();
        // A decompressor or decoder given no file decodes its standard input: what a command
        // before it printed (`cat x.gz | zcat`), whose bytes the content check read encoded;
        // text the command itself holds (`echo aGk= | base64 -d`) is no file's. A file
        // redirected to it is judged as a file it reads.
        let fed_by_its_own_text = !cmd.feeds.is_empty()
            && cmd.feeds.iter().all(|&f| {
                self.script.commands.get(f).is_some_and(|c| {
                    matches!(c.program(), Some("echo" | "printf"))
                        && c.feeds.is_empty()
                        && c.redirects.is_empty()
                        && c.args().iter().all(|w| w.literal().is_some())
                })
            });
        if (prints_decoded_text(cmd) || prints_decompressed(cmd))
            && !fed_by_its_own_text
            && !cmd
                .args()
                .iter()
                .any(|w| w.literal().is_none_or(|t| !t.starts_with('-')))
            && !cmd
                .redirects
                .iter()
                .any(|r| r.kind == crate::shell::RedirectKind::Read)
        {
            self.unknown(
                cmd,
                "decodes its standard input, bytes the content check never saw decoded",
                Risk::High,
            );
        }
        // Which file the name runs: a PATH that may find it in the workspace runs the
        // workspace's program, not the one the table models.
        if let Some(name) = cmd.words.first().and_then(Word::literal)
            && !self.places.process_path_outside()
            && let Some(why) = crate::process_env::var("PATH").and_then(|path| {
                path_reaches_workspace(name, &path, self.places.root(), self.places.root_is_real())
            })
        {
            self.unknown(cmd, &why, Risk::High);
        }
        // Where it runs: outside the workspace, what it reads by default (`.`) and the
        // configuration it finds there are not the workspace's.
        let here = self.places.locate(".", &cmd.cwd);
        if !matches!(here.place, Place::Inside) {
            let reason = format!(
                "{} runs in `{}`, outside the workspace or in a directory that does not exist.",
                quote(cmd),
                here.path.display()
            );
            self.add(
                Stance::DefaultAsk,
                FILESYSTEM_OUTSIDE_WORKSPACE,
                Risk::Medium,
                reason,
            );
        }
        self.digest = effects.digest;
        for w in &effects.reads {
            self.read(cmd, w);
        }
        if let Some(why) = &effects.unproven {
            self.unknown(cmd, why, Risk::Medium);
        }
        // A word read as a file only when one of that name exists (`yq .env`): judged as a
        // read when it names a file, or may (a name only known when it runs).
        for w in &effects.reads_if_file {
            let file = w.literal().is_none_or(|t| {
                let located = self.places.locate(t, &cmd.cwd);
                located.place == Place::Unknown
                    || std::fs::metadata(&located.path).is_ok_and(|m| !m.is_dir())
            });
            if file {
                self.read(cmd, w);
            }
        }
        if effects.lists {
            for w in &effects.reads {
                super::files::listed_reads(self, cmd, w);
            }
        }
        for w in &effects.meta {
            self.meta(cmd, w, effects.meta_one_level);
        }
        if effects.walks_links {
            for w in &effects.meta {
                self.walked_links(cmd, w);
            }
        }
        for t in &effects.trees {
            self.tree(cmd, t);
        }
        self.digest = false;
        for w in &effects.writes {
            self.write(cmd, w, None);
        }
        for w in &effects.objects {
            self.object(cmd, w);
        }
        if effects.repository
            && let Some(repo) = self.nested_repository(cmd)
        {
            let why = format!(
                "runs git in `{repo}`, a repository other than the workspace's, whose configuration can run programs"
            );
            self.unknown(cmd, &why, Risk::High);
        }
        if effects.repository
            && let Some(why) = workspace_git_unproven(
                self.places.root(),
                self.places.home(),
                GitUse::Reads {
                    contents: super::git::reads_objects(cmd),
                },
            )
        {
            self.unknown(cmd, &why, Risk::High);
        }
        if effects.repository
            && let Some(why) = repository_above(
                self.places.root(),
                self.places.home(),
                effects.history || !effects.objects.is_empty(),
                super::git::reads_objects(cmd),
            )
        {
            self.unknown(cmd, &why, Risk::High);
        }
        // What the repository holds beside the files that the command prints: its messages
        // and identities, the state of an operation in progress.
        let printed = [
            effects.messages.then(|| self.messages_secret(cmd)),
            effects
                .in_progress
                .then(|| self.in_progress_secret(cmd, effects)),
            effects.ref_names.then(|| self.ref_names_secret(cmd)),
            effects
                .path_names
                .then(|| self.path_names_secret(cmd, effects.history_names, effects.ignored_names)),
        ];
        for why in printed.into_iter().flatten().flatten() {
            let reason = format!("{} {why}.", quote(cmd));
            self.add(
                Stance::RequireAsk,
                FILESYSTEM_SENSITIVE_PATH,
                Risk::High,
                reason,
            );
        }
        if effects.remote_urls
            && let Some(why) =
                workspace_git_config_credentials(self.places.root(), self.places.home())
        {
            self.unknown(cmd, &why, Risk::High);
        }
        // A version manager's selector files choose what a shim runs, and nothing else reads
        // them.
        let direct = cmd
            .program()
            .is_some_and(crate::programs::build_config::runs_directly);
        for w in &effects.forbids {
            if direct && crate::programs::VERSION_SELECTORS.contains(&w.text()) {
                continue;
            }
            if let Some(found) = self.found_upwards(cmd, w.text()) {
                let why = format!(
                    "would read `{found}`, configuration in the workspace that can name programs to run"
                );
                self.unknown(cmd, &why, Risk::Medium);
            }
        }
        if effects.python_std_modules
            && let Some(why) = self.python_shadowed(cmd)
        {
            self.unknown(cmd, &why, Risk::Medium);
        }
        for w in &effects.paths_not_revisions {
            // A path only when git cannot read the word as a revision: a word that is both is
            // refused by git, and a revision's printed id read as the revision
            // (`$(git rev-parse v1)` read as `v1`) is a revision whatever files exist.
            // Before a `--`, git reads every word as a revision, whatever files exist.
            let dashdash_after = cmd
                .words
                .iter()
                .skip_while(|x| *x != w)
                .any(|x| x.literal() == Some("--"));
            let located = w.literal().filter(|t| {
                let l = self.places.locate(t, &cmd.cwd);
                !dashdash_after
                    && l.place == Place::Inside
                    && l.path.exists()
                    && crate::paths::git_index::revision(&self.places.root().join(".git"), t)
                        == crate::paths::git_index::Revision::None
            });
            // Commits the refs reach: what they hold is checked with the history.
            let reached = || {
                w.literal()
                    .is_some_and(|t| super::git::blobs::reached_by_refs(self.places.root(), t))
            };
            if located.is_none() && !reached() {
                let why = format!(
                    "reads `{}` as a revision, whose files may hold a secret removed since",
                    w.raw
                );
                self.unknown(cmd, &why, Risk::Medium);
            }
        }
        if cmd.enters_toplevel
            && let Some(above) = crate::paths::git_index::repository_above(self.places.root())
        {
            let why = format!(
                "moves to the top level git prints, which is `{above}`'s, above the workspace, when git finds no repository of the workspace's own"
            );
            self.unknown(cmd, &why, Risk::Medium);
        }
        if effects.cargo_resolve
            && let Some(why) = self.cargo_resolves(cmd)
        {
            self.unknown(cmd, &why, Risk::Medium);
        }
        if effects.go_toolchain
            && let Some(why) = self.go_switches(cmd)
        {
            self.unknown(cmd, &why, Risk::Medium);
        }
        if effects.go_packages
            && let Some(why) = self.go_fetches(cmd)
        {
            self.unknown(cmd, &why, Risk::Medium);
        }
        for w in &effects.regular_files {
            let dir = self.places.locate(".", &cmd.cwd);
            let regular = dir.place != Place::Unknown
                && std::fs::symlink_metadata(dir.path.join(w.text())).is_ok_and(|m| m.is_file());
            if !regular {
                let why = format!(
                    "loads `{}` as data only if it is a regular file, which it is not",
                    w.text()
                );
                self.unknown(cmd, &why, Risk::Medium);
            }
        }
        for w in &effects.requires {
            let located = self.places.locate(w.text(), &cmd.cwd);
            if located.place != Place::Inside || !located.path.exists() {
                let why = format!("would write `{}`, which does not exist yet", w.text());
                self.unknown(cmd, &why, Risk::Medium);
            }
        }
        if self.findings.len() == before {
            let reason = format!("{} only reads.", quote(cmd));
            self.add(Stance::PolicyAllow, SHELL_READ_ONLY, Risk::Safe, reason);
        }
    }

    /// The repository git would use from the command's directory, when it is not the
    /// workspace's own: a `.git` or a bare repository between the directory and the root.
    fn nested_repository(&self, cmd: &SimpleCommand) -> Option<String> {
        let start = self.places.locate(".", &cmd.cwd);
        if start.place == Place::Unknown {
            return Some("a directory an earlier `cd` chose".to_owned());
        }
        let root = self.places.root();
        let mut dir = start.path.as_path();
        // git takes a directory for a repository by its `HEAD`, or by a `commondir` or
        // `gitdir` file naming another directory whose objects, refs and configuration it
        // then uses: any one of them (or anything git could be told to read through them)
        // is a repository the workspace's configuration checks do not cover.
        let bare = |dir: &std::path::Path| {
            ["HEAD", "commondir", "gitdir"]
                .iter()
                .any(|n| std::fs::symlink_metadata(dir.join(n)).is_ok())
        };
        if dir == root && !root.join(".git").exists() && bare(root) {
            return Some(".".to_owned());
        }
        while dir != root && dir.starts_with(root) {
            let bare = bare(dir);
            if dir.join(".git").exists() || bare || dir.file_name().is_some_and(|n| n == ".git") {
                return Some(
                    self.places
                        .relative(dir)
                        .map_or_else(|| dir.display().to_string(), |r| r.display().to_string()),
                );
            }
            dir = dir.parent()?;
        }
        None
    }

    /// The first of `name` found in the command's directory or any directory above it up to
    /// the filesystem's root, shown relative to the workspace root when inside it.
    /// Why `cmd` (`cargo tree`, `cargo metadata`) may download or rewrite `Cargo.lock`;
    /// `None` when its lock file and cargo's cache answer everything.
    fn cargo_resolves(&self, cmd: &SimpleCommand) -> Option<String> {
        let start = self.places.locate(".", &cmd.cwd);
        if start.place != Place::Inside {
            return Some("runs in a directory outside the workspace".to_owned());
        }
        let why =
            crate::programs::cargo_lock::resolves_nothing_in_homes(&start.path, self.places.home())
                .err()?;
        Some(format!(
            "may download packages or rewrite `Cargo.lock`: {why}"
        ))
    }

    /// Why the `go` command `cmd` may download and run another toolchain; `None` when it
    /// keeps the installed one (or none is installed).
    fn go_switches(&self, cmd: &SimpleCommand) -> Option<String> {
        let start = self.places.locate(".", &cmd.cwd);
        if start.place != Place::Inside {
            return Some("runs in a directory outside the workspace".to_owned());
        }
        let env = crate::programs::go_toolchain::Environment::of_process(self.places.home());
        crate::programs::go_toolchain::keeps_local(&start.path, &env).err()
    }

    /// Why the messages of commits and annotated tags the git command `cmd` prints may be a
    /// secret ([`super::git::blobs::messages_secret`], read in the repository git finds from
    /// the command's directory); `None` when none is, or no repository is found there.
    fn messages_secret(&self, cmd: &SimpleCommand) -> Option<String> {
        let dir = self.places.locate(".", &cmd.cwd);
        if dir.place == Place::Unknown {
            return Some(
                "prints commit messages of a repository found from a directory only known when it runs"
                    .to_owned(),
            );
        }
        let in_repository = dir
            .path
            .ancestors()
            .any(|d| std::fs::symlink_metadata(d.join(".git")).is_ok());
        if !in_repository {
            return None;
        }
        // A bounded `git log` (`-5`, `-n 3 main`) from the top of the workspace's own
        // repository prints the messages of the commits it walks, listed alike.
        let canonical = super::git::options::canonical(cmd);
        let git = super::git_state::split(canonical.as_ref());
        let own_top = cmd.cwd == WorkingDir::Root
            && git.global.is_empty()
            && std::fs::symlink_metadata(self.places.root().join(".git")).is_ok();
        let walk = own_top
            .then(|| super::git::blobs::commits_walked(self.places.root(), git.sub?, git.rest))
            .flatten();
        match super::git::blobs::messages_secret(&dir.path, walk.as_deref()) {
            Ok(None) => None,
            Ok(Some(what)) => Some(format!(
                "prints commit or tag messages, and one of the repository's holds {what}"
            )),
            Err(why) => Some(format!(
                "prints commit or tag messages, which cannot be checked: {why}"
            )),
        }
    }

    /// Why what `git status` (`cmd`) prints of an operation in progress in the repository
    /// git finds from its directory may be a secret
    /// ([`super::git::blobs::in_progress_secret`]); `None` when none is.
    fn in_progress_secret(
        &self,
        cmd: &SimpleCommand,
        effects: &crate::programs::Effects,
    ) -> Option<String> {
        let patterns = super::git::blobs::Patterns {
            ignores: effects.ignore_patterns,
            attributes: effects.attribute_values,
        };
        self.git_dir_secret(
            cmd,
            "prints the state of an operation in progress",
            |git_dir, top| super::git::blobs::in_progress_secret(git_dir, top, patterns),
        )
    }

    /// Why the names of refs, upstreams and remotes of the repository git finds from the
    /// directory of `cmd` may be a secret ([`super::git::blobs::ref_names_secret`]); `None`
    /// when none is.
    fn ref_names_secret(&self, cmd: &SimpleCommand) -> Option<String> {
        self.git_dir_secret(
            cmd,
            "may print the names of refs, remotes or worktrees",
            |git_dir, _| super::git::blobs::ref_names_secret(git_dir),
        )
    }

    /// Why the names of files the repository git finds from the directory of `cmd` holds
    /// in its index, its work tree and, when `history`, any commit may be a secret
    /// ([`super::git::blobs::path_names_secret`]); `None` when none is.
    fn path_names_secret(
        &self,
        cmd: &SimpleCommand,
        history: bool,
        ignored: bool,
    ) -> Option<String> {
        let canonical = super::git::options::canonical(cmd);
        let git = super::git_state::split(canonical.as_ref());
        let root = self.places.root();
        let own_top = cmd.cwd == WorkingDir::Root && git.global.is_empty();
        let names = history.then(|| super::git::blobs::HistoryNames {
            root,
            sub: own_top.then(|| git.sub.map(|s| (s, git.rest))).flatten(),
            moved: super::git::moved_by_another(self, cmd).is_some(),
        });
        self.git_dir_secret(
            cmd,
            "may print the names of files the repository holds",
            |_, top| super::git::blobs::path_names_secret(top, names.as_ref(), ignored),
        )
    }

    /// Why what `cmd` `prints` of the git directory of the work tree git finds from the
    /// command's directory may be a secret, as `check` (given the git directory and the
    /// work tree's top) finds; `None` when it finds none, or no work tree is found there.
    fn git_dir_secret(
        &self,
        cmd: &SimpleCommand,
        prints: &str,
        check: impl FnOnce(&std::path::Path, &std::path::Path) -> Result<Option<&'static str>, String>,
    ) -> Option<String> {
        let dir = self.places.locate(".", &cmd.cwd);
        if dir.place == Place::Unknown {
            return Some(format!(
                "{prints} of a repository found from a directory only known when it runs"
            ));
        }
        let top = dir
            .path
            .ancestors()
            .find(|d| std::fs::symlink_metadata(d.join(".git")).is_ok())?;
        let git_dir = crate::paths::git_index::git_dir_of(top);
        match check(&git_dir, top) {
            Ok(None) => None,
            Ok(Some(what)) => Some(format!("{prints}, and what it prints holds {what}")),
            Err(why) => Some(format!("{prints}, which cannot be checked: {why}")),
        }
    }

    /// Why the `go` command `cmd`, loading the module's packages, may download modules or
    /// take other build flags (`GOFLAGS`, from this process's environment or the user's
    /// `go env -w` file); `None` when the module cache holds every module it requires.
    fn go_fetches(&self, cmd: &SimpleCommand) -> Option<String> {
        let start = self.places.locate(".", &cmd.cwd);
        if start.place != Place::Inside {
            return Some("runs in a directory outside the workspace".to_owned());
        }
        let env = crate::programs::go_toolchain::Environment::of_process(self.places.home());
        if env.setting("GOFLAGS").map_or(true, |v| v.is_some()) {
            return Some(
                "`GOFLAGS` gives the `go` command flags that are not read here".to_owned(),
            );
        }
        crate::programs::go_modules::downloads(&start.path, self.places.home())
            .map(|why| format!("may download modules: {why}"))
    }

    /// Why Python run in the command's directory may import a file of it in place of a
    /// standard module, if it may: an entry named as one, a directory not known now or not
    /// listed.
    fn python_shadowed(&self, cmd: &SimpleCommand) -> Option<String> {
        let dir = self.places.locate(".", &cmd.cwd);
        if dir.place == Place::Unknown {
            return Some(
                "imports standard modules, which a file of a directory an earlier `cd` chose may replace"
                    .to_owned(),
            );
        }
        let shown = match self.places.shown(&dir.path) {
            s if s.is_empty() => ".".to_owned(),
            s => s,
        };
        match crate::programs::inline::shadowing_entry(&dir.path) {
            Ok(None) => None,
            Ok(Some(name)) => Some(format!(
                "imports standard modules, and Python would run `{name}` of `{shown}` in place of one"
            )),
            Err(e) => Some(format!(
                "imports standard modules, and `{shown}` cannot be listed to rule out one of its files replacing them ({e})"
            )),
        }
    }

    fn found_upwards(&self, cmd: &SimpleCommand, name: &str) -> Option<String> {
        let start = self.places.locate(".", &cmd.cwd);
        if start.place == Place::Unknown {
            return Some(format!("{name} (in a directory an earlier `cd` chose)"));
        }
        // Toolchains read their configuration from every directory up to the filesystem's
        // root, not only the workspace's; a check that fails is a finding (fail closed).
        let mut dir = Some(start.path.as_path());
        while let Some(d) = dir {
            let candidate = d.join(name);
            match std::fs::symlink_metadata(&candidate) {
                // The home directory's own files are the user's configuration, not the
                // project's; files whose settings are read count only when they name programs.
                Ok(_)
                    if (self.places.home() == Some(d) && d != self.places.root())
                        || !crate::programs::build_config::names_program(&candidate) => {}
                Ok(_) => return Some(self.places.shown(&candidate)),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(e) if e.kind() == std::io::ErrorKind::NotADirectory => {}
                Err(e) => return Some(format!("{} ({e})", self.places.shown(&candidate))),
            }
            dir = d.parent();
        }
        None
    }

    /// The command walks the tree at `word` through its symlinks, looking at names and sizes:
    /// a link below it that leaves the workspace shows what lies outside.
    fn walked_links(&mut self, cmd: &SimpleCommand, word: &Word) {
        let Some(text) = word.literal() else {
            // A run-time word was asked about by `meta` already, or its domain checked.
            if word.domain.is_none() {
                return;
            }
            let why = format!(
                "walks `{}` through its links, a path only known when it runs",
                word.raw
            );
            return self.unknown(cmd, &why, Risk::Medium);
        };
        for path in self.expanded(cmd, text) {
            let Some(path) = path else {
                return self.unknown(cmd, "walks more paths than can be checked", Risk::Medium);
            };
            let located = self.places.locate(&path, &cmd.cwd);
            if located.place == Place::Unknown {
                return;
            }
            match link_leaving(&located.path, self.places.root()) {
                Ok(None) => {}
                Ok(Some(link)) => {
                    let reason = format!(
                        "{} walks `{}` through its links: `{}` leads outside the workspace.",
                        quote(cmd),
                        word.raw,
                        self.places.shown(&link)
                    );
                    return self.add(
                        Stance::DefaultAsk,
                        FILESYSTEM_OUTSIDE_WORKSPACE,
                        Risk::Medium,
                        reason,
                    );
                }
                Err(()) => {
                    return self.unknown(
                        cmd,
                        "walks more links or files than can be checked",
                        Risk::Medium,
                    );
                }
            }
        }
    }

    /// The command looks at `word` (its name, size, type), never its contents: a secret
    /// inside the workspace may be looked at; anything outside asks, unless the command
    /// looks `one_level` down at most (`ls ~/.ssh`, `stat /etc/hosts`): names, sizes and
    /// types of a path and of a directory's entries hold no file's contents.
    pub(super) fn meta(&mut self, cmd: &SimpleCommand, word: &Word, one_level: bool) {
        let shown = &word.raw;
        if let Some(domain) = &word.domain {
            return self.domain(cmd, word, domain, Access::Look { one_level });
        }
        let Some(text) = word.literal().or_else(|| braces_only(word)) else {
            return self.unknown(
                cmd,
                &format!("looks at `{shown}`, a path only known when it runs"),
                Risk::Medium,
            );
        };
        let base = std::iter::once(Some(glob_base(text).into_owned()));
        for path in base.chain(self.expanded(cmd, text)) {
            let Some(path) = path else {
                return self.unknown(
                    cmd,
                    &format!("expands `{shown}` past what can be checked"),
                    Risk::Medium,
                );
            };
            let located = self.places.locate(&path, &cmd.cwd);
            // Inside only as the kernel resolves it: `link/.ssh` through a link out of the
            // workspace is the outside directory, whatever its spelling.
            let inside = located.path.starts_with(self.places.root())
                && crate::paths::resolve(&located.path).is_some_and(|real| {
                    crate::paths::resolve(self.places.root()).is_some_and(|r| real.starts_with(r))
                });
            match located.place {
                Place::Inside | Place::HarmlessDevice => {}
                Place::Sensitive(_) if inside => {}
                Place::Sensitive(_) | Place::Outside | Place::System if one_level => {}
                Place::Unknown => {
                    return self.unknown(
                        cmd,
                        &format!("looks at `{shown}` in a directory an earlier `cd` chose"),
                        Risk::Medium,
                    );
                }
                _ => {
                    let reason =
                        format!("{} looks at `{shown}`, outside the workspace.", quote(cmd));
                    return self.add(
                        Stance::DefaultAsk,
                        FILESYSTEM_OUTSIDE_WORKSPACE,
                        Risk::Medium,
                        reason,
                    );
                }
            }
            // As written: a link's own name and target are what is listed, not where it leads.
            let written = self.places.joined(&path, &cmd.cwd);
            self.listed_names(cmd, written.as_ref().unwrap_or(&located.path), !one_level);
        }
    }

    /// The names the shell puts in place of the globs of `cmd`'s words (a loop's values
    /// among them), whatever the program does with them: `echo`, `printf`, `head` and `wc`
    /// print them, and a name holding a secret ([`crate::paths::name_secret`]: a branch under
    /// `.git/refs`, a file) asks in every mode.
    pub(super) fn globbed_names(&mut self, cmd: &SimpleCommand) {
        let globbed = |t: &str| t.contains(['*', '?', '[']);
        let mut texts: Vec<&str> = cmd.assigned_globs.iter().map(String::as_str).collect();
        for w in &cmd.words {
            match (w.literal().or_else(|| braces_only(w)), &w.domain) {
                (Some(t), _) if globbed(&w.raw) => texts.push(t),
                (None, Some(d)) => texts.extend(d.values.iter().map(String::as_str)),
                // A glob in a directory only known when it runs (`/proc/$$/cwd/*`, `$d/*`).
                (None, None) if unquoted_glob(&w.raw) => {
                    let why = format!(
                        "expands `{}`, a glob whose names are only known when it runs",
                        w.raw
                    );
                    return self.unknown(cmd, &why, Risk::Medium);
                }
                _ => {}
            }
        }
        for text in texts.into_iter().filter(|t| globbed(t)) {
            // A process's links (`/proc/$$/cwd/*`): what the command's own process reaches.
            if text.starts_with("/proc/") {
                let why = format!("expands `{text}`, names that a process's links lead to");
                return self.unknown(cmd, &why, Risk::Medium);
            }
            let expanded = self.expanded(cmd, text);
            // Past the expansion's bounds (or a name that reads as an option) the names are
            // not all known.
            if expanded.iter().any(Option::is_none) {
                let why = format!("expands `{text}` past what can be checked");
                return self.unknown(cmd, &why, Risk::Medium);
            }
            let named = expanded
                .into_iter()
                .flatten()
                .find_map(|p| crate::paths::name_secret(p.as_bytes()));
            if let Some(what) = named {
                let reason = format!("{} expands `{text}` to a name holding {what}.", quote(cmd));
                self.add(
                    Stance::RequireAsk,
                    FILESYSTEM_SENSITIVE_PATH,
                    Risk::High,
                    reason,
                );
            }
        }
    }

    /// The names a command that looks at `path` prints, where it finds them: a name holding
    /// a secret ([`crate::paths::names_secret`]: a branch, a file, a link's target) asks in
    /// every mode, as printing a file holding it would.
    pub(super) fn listed_names(&mut self, cmd: &SimpleCommand, path: &Path, recursive: bool) {
        // `/proc/$$/cwd`, `/proc/self/root`: the names are those the command's own process
        // sees (the workspace, the whole file system), not this one's.
        let mut parts = path.components().skip(1);
        if parts.next().is_some_and(|p| p.as_os_str() == "proc")
            && parts.next().is_some()
            && parts.next().is_some_and(|p| {
                ["cwd", "root", "fd", "map_files"]
                    .iter()
                    .any(|n| p.as_os_str() == *n)
            })
        {
            return self.unknown(
                cmd,
                &format!(
                    "lists `{}`, whose names are what the command's own process reaches",
                    path.display()
                ),
                Risk::Medium,
            );
        }
        match crate::paths::names_secret(path, recursive) {
            Ok(None) => {}
            // The name itself is not repeated: it holds the secret.
            Ok(Some((found, what))) => {
                let which = if found == path {
                    "where the link leads"
                } else {
                    "a name found there"
                };
                let shown = self.places.shown(path);
                let reason = format!(
                    "{} lists `{}`: {which} holds {what}.",
                    quote(cmd),
                    if shown.is_empty() { "." } else { &shown }
                );
                self.add(
                    Stance::RequireAsk,
                    FILESYSTEM_SENSITIVE_PATH,
                    Risk::High,
                    reason,
                );
            }
            Err(_) => self.unknown(
                cmd,
                &format!(
                    "lists the names under `{}`, more than can be checked",
                    self.places.shown(path)
                ),
                Risk::Medium,
            ),
        }
    }

    /// A run-time word with a known domain: every value is checked as the word would be,
    /// used as `access` says, and every path a producer can print is checked against secrets.
    fn domain(&mut self, cmd: &SimpleCommand, word: &Word, domain: &Domain, access: Access) {
        let meta = access != Access::Read;
        for v in &domain.values {
            if !self.value(cmd, word, v, access) {
                return;
            }
        }
        for &p in &domain.producers {
            // A path `which` prints is a program's file, looked at as its literal would be;
            // what other producers print counts as a level of its own.
            let access = match access {
                Access::Look { one_level } => Access::Look {
                    one_level: one_level
                        && self.script.commands.get(p).and_then(SimpleCommand::program)
                            == Some("which"),
                },
                Access::Read => Access::Read,
            };
            let outputs = match producer::domain_outputs(self.script, cmd, p, domain) {
                Ok(o) => o,
                Err(why) => {
                    let reason = format!(
                        "reads `{}`, paths printed by a command that {why}",
                        word.raw
                    );
                    return self.unknown_path(cmd, &reason, meta);
                }
            };
            for out in outputs {
                match out {
                    producer::Output::Listed(v) => {
                        let dir = self.expanded(cmd, &v).into_iter().any(|p| {
                            p.is_none_or(|p| self.places.locate(&p, &cmd.cwd).path.is_dir())
                        });
                        if dir {
                            let reason =
                                format!("reads `{}`, the entries `ls {v}` lists", word.raw);
                            return self.unknown_path(cmd, &reason, meta);
                        }
                        if !self.value(cmd, word, &v, access) {
                            return;
                        }
                    }
                    producer::Output::Value(v) => {
                        if !self.value(cmd, word, &v, access) {
                            return;
                        }
                    }
                    producer::Output::Tree {
                        root,
                        names,
                        cwd,
                        tracked,
                        ignores,
                    } => {
                        if cwd != cmd.cwd {
                            let reason =
                                format!("reads `{}`, paths printed in another directory", word.raw);
                            return self.unknown_path(cmd, &reason, meta);
                        }
                        // A root the shell globbed (`find ~/.s?h …`) prints paths from
                        // every directory the pattern names.
                        let mut roots = Vec::new();
                        for r in self.expanded(cmd, &root) {
                            let Some(r) = r else {
                                let reason = format!(
                                    "reads `{}`, paths printed from `{root}`, which expands past what can be checked",
                                    word.raw
                                );
                                return self.unknown_path(cmd, &reason, meta);
                            };
                            let located = self.places.locate(&r, &cmd.cwd);
                            if let Place::Sensitive(what) = &located.place {
                                return self.sensitive(cmd, &word.raw, what);
                            }
                            roots.push(located);
                        }
                        let names: Vec<String> = names.into_iter().collect();
                        for located in roots {
                            let scan = Scan {
                                hidden: true,
                                follow: !meta,
                                names: &names,
                                excludes: &[],
                                ignores,
                                dash_names: true,
                                secrets: !meta,
                                contents: true,
                            };
                            let in_index = tracked
                                .then(|| self.places.tracked_secret(&located.path, &scan))
                                .flatten();
                            match in_index
                                .unwrap_or_else(|| self.places.scan_tree(&located.path, &scan))
                            {
                                Ok(None) => {}
                                Ok(Some((found, what))) => {
                                    let shown = self.places.shown(&found);
                                    let reason = format!(
                                        "{} reads `{}`, paths printed from `{root}`, which holds `{shown}`, {what}.",
                                        quote(cmd),
                                        word.raw
                                    );
                                    return self.secret_in_tree(reason);
                                }
                                Err(_) => {
                                    return self.unknown(
                                        cmd,
                                        "reads more paths than can be checked",
                                        Risk::Medium,
                                    );
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// What a command prints or packs holds a secret's content, as `cat` of the secret
    /// itself would (the hard deny): binding in every mode.
    fn secret_in_tree(&mut self, reason: String) {
        self.add(
            Stance::RequireAsk,
            FILESYSTEM_SENSITIVE_TREE,
            Risk::High,
            reason,
        );
    }

    /// One value of a run-time word, checked as the shell will use it: an unquoted word is
    /// globbed and split on blanks, and what `xargs` appends is read again for quotes. `false`
    /// when the value cannot be checked (an ask was added).
    fn value(&mut self, cmd: &SimpleCommand, word: &Word, value: &str, access: Access) -> bool {
        let unquoted = !word.raw.starts_with('"');
        let from_xargs = word.raw == crate::shell::XARGS_INPUT;
        let expansions: Vec<Option<String>> = if unquoted {
            self.expanded(cmd, value)
        } else {
            vec![Some(value.to_owned())]
        };
        for expansion in expansions {
            let Some(expansion) = expansion else {
                let reason = format!(
                    "reads `{}`, which expands past what can be checked",
                    word.raw
                );
                self.unknown(cmd, &reason, Risk::Medium);
                return false;
            };
            if from_xargs && expansion.contains(['\'', '"', '\\']) {
                let reason = format!("reads `{expansion}`, whose quotes `xargs` reads again");
                self.unknown(cmd, &reason, Risk::Medium);
                return false;
            }
            let pieces: Vec<&str> = if unquoted || from_xargs {
                expansion.split_whitespace().collect()
            } else {
                vec![expansion.as_str()]
            };
            for piece in pieces {
                if piece.starts_with('-') {
                    let reason = format!("reads `{}`, which may be `{piece}`, an option", word.raw);
                    self.unknown(cmd, &reason, Risk::Medium);
                    return false;
                }
                let w = Word::literal_text(piece.to_owned());
                match access {
                    Access::Look { one_level } => self.meta(cmd, &w, one_level),
                    Access::Read => self.read(cmd, &w),
                }
            }
        }
        true
    }

    /// The command reads every file under a tree: the tree must hold no secret.
    pub(super) fn tree(&mut self, cmd: &SimpleCommand, tree: &Tree) {
        let before = self.findings.len();
        self.read(cmd, &tree.root);
        if self.findings.len() > before {
            return;
        }
        let Some(text) = tree.root.literal() else {
            return;
        };
        for path in self.expanded(cmd, text) {
            let Some(path) = path else {
                return self.unknown(cmd, "searches more files than can be checked", Risk::Medium);
            };
            let located = self.places.locate(&path, &cmd.cwd);
            let scan = Scan {
                hidden: tree.hidden,
                follow: tree.follow,
                names: &tree.names,
                excludes: &tree.excludes,
                ignores: tree.ignores,
                dash_names: false,
                secrets: true,
                contents: !self.digest,
            };
            let tracked = tree
                .tracked
                .then(|| self.places.tracked_secret(&located.path, &scan))
                .flatten();
            match tracked.unwrap_or_else(|| self.places.scan_tree(&located.path, &scan)) {
                Ok(None) => {}
                Ok(Some((found, what))) => {
                    let shown = self.places.shown(&found);
                    let reason = format!(
                        "{} reads every file under `{}`, which holds `{shown}`, {what}.",
                        quote(cmd),
                        tree.root.raw
                    );
                    // Binding: the secret's content is in what the command prints or packs,
                    // as it would be in `cat` of the secret itself (the hard deny).
                    return self.secret_in_tree(reason);
                }
                Err(_) => {
                    return self.unknown(
                        cmd,
                        "searches more files than can be checked",
                        Risk::Medium,
                    );
                }
            }
        }
    }

    /// The command prints a repository object (`HEAD:path`, a pathspec): a secret's history
    /// is a secret.
    pub(super) fn object(&mut self, cmd: &SimpleCommand, word: &Word) {
        let Some(text) = word.literal() else {
            return self.unknown(
                cmd,
                &format!("prints `{}`, an object only known when it runs", word.raw),
                Risk::Medium,
            );
        };
        let path = text.split_once(':').map_or(text, |(_, p)| p);
        if path.is_empty() {
            return;
        }
        let candidate = Word::literal_text(path);
        if let Some(what) = self.glob_secret(cmd, &candidate) {
            return self.sensitive(cmd, text, &what);
        }
        if let Place::Sensitive(what) = self.places.locate(path, &cmd.cwd).place {
            return self.sensitive(cmd, text, &what);
        }
        // A key by its content (or a hard link) is printed from the objects whatever its
        // name: what git stored of the file is what the work tree holds, unless changed
        // since. `REV:path` is from the top of the work tree, `REV:./path` from the command's
        // directory.
        for dir in [&WorkingDir::Root, &cmd.cwd] {
            let located = self.places.locate(path, dir);
            if located.place == Place::Inside
                && let Some(what) = crate::paths::tracked_file_secret(&located.path)
            {
                let reason = format!("{} prints `{text}`, {what}.", quote(cmd));
                return self.add(
                    Stance::RequireAsk,
                    FILESYSTEM_SENSITIVE_PATH,
                    Risk::High,
                    reason,
                );
            }
        }
        // What the objects hold under that name (an earlier commit's file, the index's) may
        // be a key the work tree no longer holds: read from the objects. `REV:./path` is
        // from the command's directory, which the read from the top does not follow.
        // Without a repository of its own, the checks of the repository git finds speak.
        let repository = std::fs::symlink_metadata(self.places.root().join(".git")).is_ok();
        if text.contains(':') && !text.starts_with(":/") && repository && self.places.root_is_real()
        {
            let relative = path.starts_with("./") || path.starts_with("../");
            let found = if relative && cmd.cwd != WorkingDir::Root {
                Err("it is relative to a directory the check does not follow".to_owned())
            } else {
                super::git::blobs::named_object_secret(self.places.root(), text)
            };
            let why = match found {
                Ok(None) => return,
                Ok(Some(what)) => what.to_owned(),
                Err(why) => format!("whose content cannot be checked: {why}"),
            };
            let reason = format!("{} prints `{text}`, {why}.", quote(cmd));
            self.add(
                Stance::RequireAsk,
                FILESYSTEM_SENSITIVE_PATH,
                Risk::High,
                reason,
            );
        }
    }

    /// The paths a literal word names: itself, or what its braces and globs expand to now
    /// (`None` for an expansion past the limits); a glob that matches nothing stays as
    /// written, as the shell leaves it (and is judged as that name).
    fn expanded(&self, cmd: &SimpleCommand, text: &str) -> Vec<Option<String>> {
        if !text.contains(['*', '?', '[', '{']) {
            return vec![Some(text.to_owned())];
        }
        let dotglob = self.dotglob();
        let mut alternatives = Vec::new();
        brace_readings(text, &mut alternatives);
        let mut out = Vec::new();
        for alt in alternatives {
            if !alt.contains(['*', '?', '[']) {
                out.push(Some(alt));
                continue;
            }
            match self.places.expand_glob(&alt, &cmd.cwd, dotglob) {
                // A name that reads as an option changes how the program reads the rest.
                Ok(paths) if paths.iter().any(|p| p.starts_with('-')) => out.push(None),
                Ok(paths) if paths.is_empty() => out.push(Some(alt)),
                Ok(paths) => out.extend(paths.into_iter().map(Some)),
                Err(_) => out.push(None),
            }
        }
        out
    }

    /// Whether the script may make globs match names starting with `.` (`dotglob`,
    /// `GLOBIGNORE`, zsh's `globdots`) or ignore case (`nocaseglob`).
    pub(super) fn dotglob(&self) -> bool {
        self.script.commands.iter().any(|c| {
            c.assignments.iter().any(|a| a == "GLOBIGNORE")
                || c.words.iter().any(|w| {
                    [
                        "dotglob",
                        "globdots",
                        "dot_glob",
                        "GLOBIGNORE",
                        "nocaseglob",
                    ]
                    .iter()
                    .any(|k| w.raw.contains(k))
                })
        })
    }

    /// The command reads (or, with `meta`, looks at) a path only known when it runs: a read
    /// may be a secret's, which no mode lets a call print unasked (a binding ask, as a write
    /// of such a path is); a look is an ask.
    fn unknown_path(&mut self, cmd: &SimpleCommand, why: &str, meta: bool) {
        if meta {
            return self.unknown(cmd, why, Risk::Medium);
        }
        let reason = format!("{} {why}.", quote(cmd));
        self.add(
            Stance::RequireAsk,
            SHELL_UNKNOWN_COMMAND,
            Risk::Medium,
            reason,
        );
    }

    /// [`unknown`](Self::unknown) that no mode settles: what runs or is printed is unseen.
    pub(super) fn unknown_binding(&mut self, cmd: &SimpleCommand, why: &str) {
        let reason = format!("{} {why}.", quote(cmd));
        self.add(
            Stance::RequireAsk,
            SHELL_UNKNOWN_COMMAND,
            Risk::High,
            reason,
        );
    }

    pub(super) fn unknown(&mut self, cmd: &SimpleCommand, why: &str, risk: Risk) {
        let mut reason = quote(cmd);
        reason.push(' ');
        reason.push_str(why);
        reason.push('.');
        self.add(Stance::DefaultAsk, SHELL_UNKNOWN_COMMAND, risk, reason);
    }

    /// The command extracts an archive into the directory `word`, members unnamed: it may
    /// create or overwrite any file below it. Like deleting the tree (`rm -rf ~`), that is a
    /// hard deny on the system, in a secret directory, and in or above the home directory
    /// (whose dotfiles run programs); elsewhere outside the workspace it is a write outside,
    /// inside it a write (protected configuration checked by the caller).
    pub(super) fn extract_tree(&mut self, cmd: &SimpleCommand, word: &Word) {
        let shown = word.raw.as_str();
        let located = match self.target(cmd, word) {
            Target::Known(l) | Target::Below(l) => l,
            Target::Unknown => {
                let what =
                    format!("extracts an archive into `{shown}`, a path only known when it runs");
                return self.write_inside(cmd, &what, Risk::High);
            }
        };
        let what =
            format!("extracts an archive into `{shown}`, which may overwrite any file below it");
        match located.place {
            Place::Sensitive(secret) => self.sensitive(cmd, shown, &secret),
            Place::System | Place::Device => {
                self.destructive(
                    cmd,
                    &format!("{what}: part of the operating system or a device"),
                );
            }
            Place::Outside => {
                let home = self.places.locate("~", &WorkingDir::Root).path;
                let near_home = !home.is_absolute()
                    || located.path.starts_with(&home)
                    || home.starts_with(&located.path);
                if near_home {
                    self.destructive(cmd, &format!("{what}, in or above the home directory"));
                } else {
                    self.write(cmd, word, None);
                }
            }
            Place::HarmlessDevice | Place::Unknown | Place::Inside => self.write(cmd, word, None),
        }
    }

    pub(super) fn write_inside(&mut self, cmd: &SimpleCommand, what: &str, risk: Risk) {
        let reason = format!("{} {what}.", quote(cmd));
        self.add(Stance::DefaultAsk, SHELL_WRITE, risk, reason);
    }

    /// What a path word names.
    pub(super) fn target(&self, cmd: &SimpleCommand, word: &Word) -> Target {
        match word.literal() {
            Some(text) => Target::Known(self.places.locate(&glob_base(text), &cmd.cwd)),
            None => {
                let dir = match word.prefix.rfind('/') {
                    Some(i) => &word.prefix[..=i],
                    None if word.prefix.starts_with('~') => "~",
                    None => return Target::Unknown,
                };
                Target::Below(self.places.locate(dir, &cmd.cwd))
            }
        }
    }

    /// The command reads `word`.
    pub(super) fn read(&mut self, cmd: &SimpleCommand, word: &Word) {
        let shown = &word.raw;
        // `~+/x`, `$PWD/x`, `$(pwd)/x`: `./x` in the directory the command runs in.
        if let Some(relative) = cwd_relative(word) {
            return self.read(cmd, &relative);
        }
        // A path only known when it runs whose known beginning is already inside a secret
        // directory (`~/.ssh/$k`, `find ~/.ssh -exec cat {} +`) reads a secret whatever
        // follows.
        if word.literal().is_none()
            && let Target::Below(l) = self.target(cmd, word)
            && let Place::Sensitive(what) = l.place
        {
            return self.sensitive(cmd, shown, &what);
        }
        if let Some(domain) = &word.domain {
            return self.domain(cmd, word, domain, Access::Read);
        }
        if let Some(what) = self.glob_secret(cmd, word) {
            return self.sensitive(cmd, shown, &what);
        }
        let Some(text) = word.literal().or_else(|| braces_only(word)) else {
            // Whatever the run-time beginning, a literal end naming a secret (`$(pwd)/.env`,
            // `~-/.ssh/id_rsa`) reads that secret.
            if let Some(tail) = runtime_tail(&word.raw) {
                let located = self
                    .places
                    .locate(&format!("/{RUNTIME_BASE}{tail}"), &cmd.cwd);
                if let Place::Sensitive(what) = located.place {
                    return self.sensitive(cmd, shown, &what);
                }
            }
            return self.unknown_path(
                cmd,
                &format!("reads `{shown}`, a path only known when it runs"),
                false,
            );
        };
        // zsh (the shell an agent may run) reads `**/` as every directory below, and `***/`
        // as every directory below through symlinks: the files of that whole tree are read.
        if text.contains("**") && word.domain.is_none() {
            let tree = crate::programs::Tree::whole(
                Word::literal_text(glob_base(text).into_owned()),
                text.contains("***"),
            );
            self.tree(cmd, &tree);
        }
        if text.contains(['*', '?', '[', '{']) {
            for path in self.expanded(cmd, text) {
                match path {
                    Some(p) if p != text => self.read(cmd, &Word::literal_text(p)),
                    Some(_) => {}
                    None => {
                        return self.unknown(
                            cmd,
                            &format!("expands `{shown}` past what can be checked"),
                            Risk::Medium,
                        );
                    }
                }
            }
        }
        if word.literal().is_none() {
            // Braces alone: each alternative was read above.
            return;
        }
        match self.target(cmd, word) {
            Target::Known(l) | Target::Below(l) => match l.place {
                Place::Sensitive(what) => self.sensitive(cmd, shown, &what),
                // Reading the terminal reads what the user types.
                Place::HarmlessDevice if reads_terminal(&l.path) => self.unknown(
                    cmd,
                    &format!("reads `{shown}`, the user's terminal"),
                    Risk::Medium,
                ),
                Place::Inside if hard_linked(&l.path) => {
                    let reason = format!(
                        "{} reads `{shown}`, a file with more than one name (a hard link), which may be a file outside the workspace.",
                        quote(cmd)
                    );
                    // Binding: the other name may be a secret's.
                    self.add(
                        Stance::RequireAsk,
                        FILESYSTEM_OUTSIDE_WORKSPACE,
                        Risk::Medium,
                        reason,
                    );
                }
                Place::Inside => {
                    // A secret by its content only (a key in a test fixture may be one too):
                    // not proven harmless, and not refused outright either; unless the
                    // command prints only a digest of it (`wc -l`, `grep -c`).
                    if let Some(what) = content_secret(&l.path).filter(|_| !self.digest) {
                        let reason = format!("{} reads `{shown}`, {what}.", quote(cmd));
                        self.add(
                            Stance::DefaultAsk,
                            FILESYSTEM_SENSITIVE_PATH,
                            Risk::High,
                            reason,
                        );
                    } else if prints_decoded_text(cmd)
                        || (prints_decompressed(cmd) && !crate::paths::plain_text(&l.path))
                    {
                        // What a decompressor or a decoder prints is not the bytes the content
                        // check read (a plain text file passes through as it is).
                        let reason = format!(
                            "prints the decoded content of `{shown}`, which is not searched for keys"
                        );
                        self.unknown(cmd, &reason, Risk::High);
                    }
                }
                Place::HarmlessDevice => {}
                Place::Unknown => self.unknown(
                    cmd,
                    &format!("reads `{shown}` from a directory an earlier `cd` chose"),
                    Risk::Medium,
                ),
                Place::Outside if is_public_key(&l.path) => {}
                Place::Outside | Place::System if crate::paths::public_system_file(&l.path) => {}
                Place::Outside | Place::System | Place::Device => {
                    let reason = format!("{} reads `{shown}`, outside the workspace.", quote(cmd));
                    self.add(
                        Stance::DefaultAsk,
                        FILESYSTEM_OUTSIDE_WORKSPACE,
                        Risk::Medium,
                        reason,
                    );
                }
            },
            Target::Unknown => self.unknown(
                cmd,
                &format!("reads `{shown}`, a path only known when it runs"),
                Risk::Medium,
            ),
        }
    }

    /// The command creates, changes or (with `delete`) removes `word`; `recursive` for whole trees.
    pub(super) fn write(&mut self, cmd: &SimpleCommand, word: &Word, delete: Option<bool>) {
        let shown = word.raw.as_str();
        let verb = match delete {
            Some(true) => "deletes the tree",
            Some(false) => "deletes",
            None => "writes",
        };
        // `find ROOT … -exec rm {} +` (or `shred`, `truncate`, `mv`, `chmod` …): `{}` is every
        // path found below ROOT, one by one, so the tree at ROOT is what is destroyed.
        if word.raw == "{}"
            && word.literal().is_none()
            && cmd
                .parent
                .and_then(|p| self.script.commands.get(p))
                .is_some_and(|p| p.program() == Some("find"))
        {
            let root = word.prefix.trim_end_matches('/');
            let root = Word::literal_text(if root.is_empty() { "/" } else { root });
            self.write(cmd, &root, Some(true));
            let find = cmd.parent.and_then(|p| self.script.commands.get(p));
            if let Some((true, all)) = find.map(super::destructive::find_follows) {
                super::destructive::deleted_through_links(self, cmd, &root, all);
            }
            // Each path found is changed: protected configuration among them is too.
            if let Some(find) = find.cloned() {
                super::destructive::reached_protected(self, &find, &root, "change");
            }
            return;
        }
        let recursive = delete == Some(true);
        // The command's own output and error, by the names the kernel gives them in the
        // command's process (`dd of=/proc/self/fd/1`): `/dev/stdout` and `/dev/stderr`.
        if delete.is_none()
            && matches!(
                word.literal(),
                Some(
                    "/proc/self/fd/1"
                        | "/proc/self/fd/2"
                        | "/proc/thread-self/fd/1"
                        | "/proc/thread-self/fd/2"
                )
            )
        {
            return;
        }
        if let Some(what) = self.glob_secret(cmd, word) {
            return self.sensitive(cmd, shown, &what);
        }
        let (located, exact) = match self.target(cmd, word) {
            Target::Known(l) => (l, true),
            Target::Below(l) => (l, false),
            Target::Unknown => {
                // `rm -rf "$X"/` is `rm -rf /` when `X` is empty.
                let root_suffix = word.raw.ends_with('/') || word.raw.ends_with("/*");
                if recursive && root_suffix {
                    return self.destructive(
                        cmd,
                        &format!("deletes `{shown}`, which is `/` when its variable is empty"),
                    );
                }
                // `rm -rf ~+/..`, `rm -rf "$PWD/.."`: a parent of a directory only known when
                // it runs (the workspace's own parent, or home's) is no tree the call owns.
                let parent = word
                    .raw
                    .trim_matches(['"', '\''])
                    .trim_end_matches('/')
                    .split('/')
                    .any(|c| c == "..");
                if recursive && parent {
                    return self.destructive(
                        cmd,
                        &format!(
                            "deletes `{shown}`, a parent of a directory only known when it runs"
                        ),
                    );
                }
                let what = format!("{verb} `{shown}`, a path only known when it runs");
                return self.write_inside(cmd, &what, Risk::High);
            }
        };
        if exact && let Some(what) = self.places.protected(&located, &glob_base(shown), &cmd.cwd) {
            let reason = format!(
                "{} {verb} `{shown}`, {what}: a person edits it, never a call.",
                quote(cmd)
            );
            return self.add(
                Stance::HardDeny,
                FILESYSTEM_PROTECTED_CONFIG,
                Risk::Critical,
                reason,
            );
        }
        match located.place {
            Place::Sensitive(what) => self.sensitive(cmd, shown, &what),
            Place::HarmlessDevice => {}
            Place::System | Place::Device => {
                self.destructive(
                    cmd,
                    &format!("{verb} `{shown}`, part of the operating system or a device"),
                );
            }
            Place::Outside if recursive => {
                self.destructive(cmd, &format!("{verb} `{shown}`, outside the workspace"));
            }
            Place::Inside if delete.is_none() && hard_linked(&located.path) => {
                let reason = format!(
                    "{} {verb} `{shown}`, a file with more than one name (a hard link), which may be a file outside the workspace.",
                    quote(cmd)
                );
                // Binding: the other name may be protected configuration's.
                self.add(
                    Stance::RequireAsk,
                    FILESYSTEM_OUTSIDE_WORKSPACE,
                    Risk::High,
                    reason,
                );
            }
            Place::Outside => {
                let reason = format!("{} {verb} `{shown}`, outside the workspace.", quote(cmd));
                self.add(
                    Stance::DefaultAsk,
                    FILESYSTEM_OUTSIDE_WORKSPACE,
                    Risk::High,
                    reason,
                );
            }
            // A tree deleted in a directory only known when it runs (after `cd -`, `su -`,
            // `sudo -i`) may be the home directory or the root: no mode settles it.
            Place::Unknown if recursive => {
                let reason = format!(
                    "{} {verb} `{shown}` in a directory only known when it runs, which may be the home directory or the root.",
                    quote(cmd)
                );
                self.add(
                    Stance::RequireAsk,
                    SHELL_DESTRUCTIVE,
                    Risk::Critical,
                    reason,
                );
            }
            Place::Unknown => {
                self.write_inside(
                    cmd,
                    &format!("{verb} `{shown}` in a directory an earlier `cd` chose"),
                    Risk::High,
                );
            }
            Place::Inside => {
                let whole = located.path == self.places.root();
                let risk = if whole || !exact || recursive {
                    Risk::High
                } else {
                    Risk::Medium
                };
                let what = if whole {
                    format!("{verb} `{shown}`, the whole workspace")
                } else {
                    format!("{verb} `{shown}` inside the workspace")
                };
                self.write_inside(cmd, &what, risk);
            }
        }
    }

    /// The command may write `word` or create files below it whose names the text does not
    /// show (an archive's members, a tree restored from git or copied): protected
    /// configuration that is `word`, or that a directory like `word` holds (`.claude` holds
    /// `.claude/settings.json`; with `any_name`, any file name below it too), is the hard
    /// deny. Nothing else is judged here.
    pub(super) fn protected_tree(&mut self, cmd: &SimpleCommand, word: &Word, any_name: bool) {
        let Some(text) = word.literal() else { return };
        if text.starts_with('-') {
            return;
        }
        let located = self.places.locate(&glob_base(text), &cmd.cwd);
        let what = self
            .places
            .protected(&located, &glob_base(text), &cmd.cwd)
            .or_else(|| {
                self.places
                    .protected_below(&located, &glob_base(text), &cmd.cwd, !any_name)
            });
        if let Some(what) = what {
            let reason = format!(
                "{} may write `{text}` or files below it, {what}: a person edits it, never a call.",
                quote(cmd)
            );
            self.add(
                Stance::HardDeny,
                FILESYSTEM_PROTECTED_CONFIG,
                Risk::Critical,
                reason,
            );
        }
    }

    pub(super) fn sensitive(&mut self, cmd: &SimpleCommand, shown: &str, what: &str) {
        let reason = format!("{} touches `{shown}`, {what}.", quote(cmd));
        self.add(
            Stance::HardDeny,
            FILESYSTEM_SENSITIVE_PATH,
            Risk::Critical,
            reason,
        );
    }

    /// Denies when any argument of the command names a secret (`-d @~/.aws/credentials`).
    pub(super) fn scan_for_secrets(&mut self, cmd: &SimpleCommand) {
        for word in cmd.args() {
            let Some(text) = word.literal() else { continue };
            let candidate = text
                .rsplit('=')
                .next()
                .unwrap_or(text)
                .trim_start_matches('@');
            // A byte search for `:` first: most words hold none.
            let url = candidate.contains(':') && candidate.contains("://");
            if candidate.is_empty() || url || candidate.starts_with('-') {
                continue;
            }
            let base = glob_base(candidate);
            if let Place::Sensitive(what) = self.places.locate(&base, &cmd.cwd).place {
                self.sensitive(cmd, candidate, &what);
            } else if matches!(base, std::borrow::Cow::Owned(_))
                && let Some(what) = self.glob_secret(cmd, &Word::literal_text(candidate.to_owned()))
            {
                self.sensitive(cmd, candidate, &what);
            }
        }
        for word in cmd.args().iter().filter(|w| w.literal().is_none()) {
            if let Some(what) = self.glob_secret(cmd, word) {
                self.sensitive(cmd, &word.raw, &what);
            }
        }
    }

    /// The secret a path word with glob or brace characters could expand to, if any
    /// (`~/.ss?/id_rsa`, `~/{.ssh,x}/id_rsa`, `/e*/shadow`). Braces are expanded into their
    /// alternatives (a `{a..b}` sequence counts as `*`) and each alternative is compared with
    /// [`Places::glob_sensitive`]. Words with other run-time parts than `$HOME` are left to
    /// the ordinary checks.
    pub(super) fn glob_secret(&self, cmd: &SimpleCommand, word: &Word) -> Option<String> {
        let text = match word.literal() {
            Some(t) => t.to_owned(),
            None => {
                let t = word
                    .raw
                    .replace("${HOME}", "~")
                    .replace("$HOME", "~")
                    .replace(['\'', '"'], "");
                if t.contains(['$', '`']) {
                    return None;
                }
                t
            }
        };
        if !text.contains(['*', '?', '[', '{']) {
            return None;
        }
        let dotglob = self.dotglob();
        let mut alternatives = Vec::new();
        brace_readings(&text, &mut alternatives);
        alternatives.iter().find_map(|alt| {
            if let Place::Sensitive(what) = self.places.locate(alt, &cmd.cwd).place {
                return Some(what);
            }
            if !alt.contains(['*', '?', '[']) {
                return None;
            }
            self.places.glob_sensitive(alt, &cmd.cwd, dotglob)
        })
    }
}

/// Whether the shell word `raw` holds a glob character outside quotes, escapes and
/// expansions (`$((x*2))`, `${a[*]}`, `$(ls *)` hold none of the word's own).
fn unquoted_glob(raw: &str) -> bool {
    let mut quote: Option<char> = None;
    let mut chars = raw.chars().peekable();
    while let Some(c) = chars.next() {
        if quote != Some('\'') && c == '$' && matches!(chars.peek(), Some('(' | '{')) {
            let mut depth = 0usize;
            for d in chars.by_ref() {
                match d {
                    '(' | '{' => depth += 1,
                    ')' | '}' => {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    }
                    _ => {}
                }
            }
            continue;
        }
        if quote.is_none() && c == '`' {
            chars.by_ref().find(|&d| d == '`');
            continue;
        }
        // `$?`, `$*`, `$@`: special parameters, no glob of the word's own.
        if quote != Some('\'')
            && c == '$'
            && matches!(chars.peek(), Some('?' | '*' | '@' | '#' | '$' | '!' | '-'))
        {
            chars.next();
            continue;
        }
        match (quote, c) {
            (None, '\\') | (Some('"'), '\\') => {
                chars.next();
            }
            (None, '\'' | '"') => quote = Some(c),
            (Some(q), c) if c == q => quote = None,
            (None, '*' | '?' | '[') => return true,
            _ => {}
        }
    }
    false
}

/// The most alternatives a word's braces are expanded into; past it, the rest count as `*`.
const MAX_BRACE_ALTERNATIVES: usize = 256;

/// Expands the shell's braces in `text` into `out` (`a{b,c}d` → `abd`, `acd`); a sequence
/// `{x..y}` becomes `*`, and expansion past [`MAX_BRACE_ALTERNATIVES`] collapses the braces
/// into `*` (either way the result matches at least what the shell would produce).
pub(crate) fn expand_braces(text: &str, out: &mut Vec<String>) {
    let Some((open, close, parts)) = first_brace(text) else {
        out.push(text.to_owned());
        return;
    };
    let (before, after) = (&text[..open], &text[close + 1..]);
    if out.len() >= MAX_BRACE_ALTERNATIVES || parts.is_empty() {
        return expand_braces(&format!("{before}*{after}"), out);
    }
    for part in parts {
        expand_braces(&format!("{before}{part}{after}"), out);
    }
}

/// Every name `text` may stand for, whichever of its brace groups the shell expands: each
/// group's alternatives, and the group as written, which bash keeps when it is quoted or
/// escaped (`{"{a,b}",x}` names `{a,b}` and `x`), comes from a variable (`for f in "{a,b}"`),
/// or brace expansion is off. Past [`MAX_BRACE_ALTERNATIVES`] the rest count as `*`.
pub(crate) fn brace_readings(text: &str, out: &mut Vec<String>) {
    fn go(done: &str, rest: &str, out: &mut Vec<String>) {
        let Some((open, close, parts)) = first_brace(rest) else {
            out.push(format!("{done}{rest}"));
            return;
        };
        let (before, group, after) = (&rest[..open], &rest[open..=close], &rest[close + 1..]);
        if out.len() >= MAX_BRACE_ALTERNATIVES || parts.is_empty() {
            return go(done, &format!("{before}*{after}"), out);
        }
        for part in parts {
            go(done, &format!("{before}{part}{after}"), out);
        }
        go(&format!("{done}{before}{group}"), after, out);
    }
    go("", text, out);
}

/// The first brace group: its bounds and alternatives (none for a `{x..y}` sequence).
fn first_brace(text: &str) -> Option<(usize, usize, Vec<&str>)> {
    let bytes = text.as_bytes();
    for (open, &b) in bytes.iter().enumerate() {
        if b != b'{' {
            continue;
        }
        let mut depth = 0usize;
        let mut parts = Vec::new();
        let mut start = open + 1;
        for (i, &c) in bytes.iter().enumerate().skip(open) {
            match c {
                b'{' => depth += 1,
                b'}' => {
                    depth -= 1;
                    if depth == 0 {
                        let inner = &text[open + 1..i];
                        if !parts.is_empty() {
                            parts.push(&text[start..i]);
                            return Some((open, i, parts));
                        }
                        if inner.contains("..") {
                            return Some((open, i, Vec::new()));
                        }
                        break;
                    }
                }
                b',' if depth == 1 => {
                    parts.push(&text[start..i]);
                    start = i + 1;
                }
                _ => {}
            }
        }
    }
    None
}

/// Whether a resolved path is an SSH public key (`~/.ssh/id_ed25519.pub`): public by design.
fn is_public_key(path: &std::path::Path) -> bool {
    let name = path
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or_default();
    let in_ssh = path
        .parent()
        .and_then(|p| p.file_name())
        .is_some_and(|d| d == ".ssh");
    in_ssh && name.ends_with(".pub") && name.len() > 4
}

/// A directory name standing for the run-time beginning of a path, which names no secret.
const RUNTIME_BASE: &str = "run-time-directory";

/// A word naming a path in the directory the command runs in through the shell's own idea of
/// it (`~+/x`, `$PWD/x`, `"$(pwd)"/x`, `` `pwd`/x ``), as the literal `./x`: the rest must
/// be literal.
fn cwd_relative(word: &Word) -> Option<Word> {
    if word.literal().is_some() || word.raw.contains(['\'', '\\']) {
        return None;
    }
    let text = word.raw.replace('"', "");
    let rest = ["~+", "$PWD", "${PWD}", "$(pwd)", "`pwd`"]
        .iter()
        .find_map(|p| text.strip_prefix(p))?;
    let literal = (rest.is_empty() || rest.starts_with('/'))
        && !rest.contains(['$', '`', '~', '(', ')', '{', '}']);
    literal.then(|| Word::literal_text(format!(".{rest}")))
}

/// The literal end of a run-time word, from the first `/` after its last run-time part
/// (`$(pwd)/.env` → `/.env`, `~-/.ssh/id_rsa` → `/.ssh/id_rsa`), when it has one.
fn runtime_tail(raw: &str) -> Option<String> {
    let cut = raw.rfind(['$', '`', ')', '}', '~'])?;
    let tail = raw[cut + 1..].replace('"', "");
    let tail = &tail[tail.find('/')?..];
    (tail.len() > 1 && !tail.contains(['\'', '\\', '$', '`'])).then(|| tail.to_owned())
}

/// The text of a word whose only run-time part is brace expansion (`src/{a,b}.rs`).
pub(crate) fn braces_only(word: &Word) -> Option<&str> {
    let raw = word.raw.as_str();
    let expands = raw.contains('{') && (raw.contains(',') || raw.contains(".."));
    (expands && !raw.contains(['$', '`', '"', '\'', '\\', '~'])).then_some(raw)
}

/// A path with any glob cut back to the directory searched (`/*` → `/`, `src/*.o` → `src`).
fn glob_base(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.contains(['*', '?', '[', '{']) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut kept = Vec::new();
    for part in text.split('/') {
        if part.contains(['*', '?', '[']) {
            break;
        }
        kept.push(part);
    }
    std::borrow::Cow::Owned(match kept.join("/") {
        s if s.is_empty() && text.starts_with('/') => "/".to_owned(),
        s if s.is_empty() => ".".to_owned(),
        s => s,
    })
}

/// The positional arguments: words that are not options (all of them after `--`).
pub(super) fn positional(args: &[Word]) -> Vec<&Word> {
    let mut out = Vec::new();
    let mut options_done = false;
    for w in args {
        match w.literal() {
            Some("--") if !options_done => options_done = true,
            Some(t) if !options_done && t.starts_with('-') && t != "-" => {}
            _ => out.push(w),
        }
    }
    out
}

/// Whether a short-option cluster or a long option among the arguments sets `short` or `long`.
pub(super) fn has_flag(args: &[Word], short: char, long: &str) -> bool {
    args.iter().filter_map(Word::literal).any(|t| {
        t == long || (t.starts_with('-') && !t.starts_with("--") && t[1..].contains(short))
    })
}

/// Whether reading `path` reads the user's terminal (`/dev/stdin` is the command's own input
/// and stays harmless).
fn reads_terminal(path: &std::path::Path) -> bool {
    path == std::path::Path::new("/dev/tty")
}

/// Why printing the workspace repository's remote URLs may print a credential, if it may:
/// the repository's configuration (see [`git_config::credential`]), or the global and system
/// ones, whose remotes and URL rewrites show in them too (see
/// [`git_config::remote_url_credential`]).
fn workspace_git_config_credentials(
    root: &std::path::Path,
    home: Option<&std::path::Path>,
) -> Option<String> {
    git_config::credential(&root.join(".git/config"))
        .or_else(|| {
            git_config::outer_configs(home)
                .iter()
                .find_map(|file| git_config::remote_url_credential(file))
        })
        .map(|why| format!("prints remote URLs, and {why}"))
}

/// Hooks git runs only from commands that change the repository or talk to another one
/// (commit, merge, rebase, checkout, am, push, receive, send-email, `gc --auto`): the
/// program table models none of those as only reading, so such a hook runs under no
/// allowed command. Any other executable hook may: `post-index-change` runs whenever
/// `git status` or `git diff` rewrites the index after refreshing it, `reference-transaction`
/// on any change of a ref, and a name git adds later is not known here.
const WRITE_ONLY_HOOKS: &[&str] = &[
    "applypatch-msg",
    "pre-applypatch",
    "post-applypatch",
    "pre-commit",
    "pre-merge-commit",
    "prepare-commit-msg",
    "commit-msg",
    "post-commit",
    "pre-rebase",
    "post-checkout",
    "post-merge",
    "pre-push",
    "pre-receive",
    "update",
    "proc-receive",
    "post-receive",
    "post-update",
    "push-to-checkout",
    "pre-auto-gc",
    "post-rewrite",
    "sendemail-validate",
];

/// The most entries of a hooks directory, or directories under a repository's `modules`,
/// that are looked at; more is not modeled.
const MAX_GIT_DIR_ENTRIES: usize = 2_000;

/// The most levels of submodules (a submodule's own submodules) followed.
const MAX_SUBMODULE_DEPTH: usize = 8;

/// The work tree a repository's configuration may name (`core.worktree`).
#[derive(Clone, Copy)]
enum WorkTree<'a> {
    /// Exactly this directory (the workspace's own repository).
    Exactly(&'a std::path::Path),
    /// Any directory inside this one (a submodule of it).
    Inside(&'a std::path::Path),
}

/// What holds for every repository git may use while it runs in one.
struct GitRun<'a> {
    /// The user's home directory, for `~/` in hook paths.
    home: Option<&'a std::path::Path>,
    /// `core.hooksPath` of the configurations git reads besides the repository's own.
    outer_hooks: Vec<String>,
    /// Whether the command reads objects' contents (a partial clone fetches missing ones).
    contents: bool,
    /// Whether the command writes the repository ([`GitUse::Writes`]).
    writes: bool,
    /// Git directories already proven.
    seen: std::collections::HashSet<std::path::PathBuf>,
}

/// What a git command does that decides which of a repository's settings may run programs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum GitUse {
    /// It only reads, file contents from the objects among them or not.
    Reads {
        /// Whether it reads objects' contents.
        contents: bool,
    },
    /// It writes the repository (`git commit`, `git tag -a`, `git checkout -b`): the editor
    /// the repository's configuration names runs, so does the signing program it sets up, and
    /// so do the hooks of writing commands
    /// in a hooks directory outside the workspace (those inside are the workspace's code).
    Writes,
}

/// Why git run in the workspace's own repository (its work tree `root`) may run a program,
/// read files outside the workspace or reach the network, if it may (see
/// [`GitRun::repository`]), for a command that does what `usage` says. A `.git` file
/// (`gitdir: PATH`, a linked worktree or a separate git directory) is followed to the
/// directory git uses; one that cannot be followed is a reason too.
pub(crate) fn workspace_git_unproven(
    root: &std::path::Path,
    home: Option<&std::path::Path>,
    usage: GitUse,
) -> Option<String> {
    let (contents, writes) = match usage {
        GitUse::Reads { contents } => (contents, false),
        GitUse::Writes => (true, true),
    };
    let git = match git_dir_of(root) {
        Ok(Some(git)) => git,
        Ok(None) => return None,
        Err(why) => return Some(why),
    };
    let outer_hooks = match git_config::outer_hooks_paths(home) {
        Ok(paths) => paths,
        Err(why) => {
            return Some(format!(
                "runs git with the user's configuration, which is not proven: {why}"
            ));
        }
    };
    let mut run = GitRun {
        home,
        outer_hooks,
        contents,
        writes,
        seen: std::collections::HashSet::new(),
    };
    run.repository(&git, WorkTree::Exactly(root), root, 0)
}

impl GitRun<'_> {
    /// Why git using the repository at `git` (its git directory) may run a program, read
    /// files outside `workspace` or reach the network, if it may. Its configuration (the git
    /// directory's and, for a linked worktree, the common directory's `config` and
    /// `config.worktree`) must hold only keys known to run nothing
    /// ([`git_config::program_free`]); the work tree it names must be `expected`; a partial
    /// clone may fetch what a command reading contents needs; an executable hook in any
    /// hooks directory it may use (its own, `core.hooksPath` of any configuration) may run
    /// ([`WRITE_ONLY_HOOKS`] aside); and git recurses into its submodules (`git status`,
    /// `git diff`), each a repository of its own under the same rules: every git directory
    /// under `modules`, and every submodule of its index checked out with a `.git`.
    fn repository(
        &mut self,
        git: &std::path::Path,
        expected: WorkTree<'_>,
        workspace: &std::path::Path,
        depth: usize,
    ) -> Option<String> {
        if depth > MAX_SUBMODULE_DEPTH {
            return Some("runs git in submodules nested deeper than are checked".to_owned());
        }
        let key = std::fs::canonicalize(git).unwrap_or_else(|_| git.to_path_buf());
        if !self.seen.insert(key) {
            return None;
        }
        let mut dirs = vec![git.to_path_buf()];
        match crate::paths::small_file::read_text(&git.join("commondir")) {
            Ok(Some(common)) => dirs.push(git.join(common.trim())),
            Ok(None) => {}
            Err(why) => return Some(why),
        }
        let mut settings = git_config::RepoSettings::default();
        let mut hooks_paths = Vec::new();
        // The work tree: the one expected, or the one its configuration names.
        let mut top = match expected {
            WorkTree::Exactly(top) => Some(top.to_path_buf()),
            WorkTree::Inside(_) => None,
        };
        for dir in &dirs {
            for name in ["config", "config.worktree"] {
                let path = dir.join(name);
                let text = match crate::paths::small_file::read_text(&path) {
                    Ok(Some(t)) => t,
                    Ok(None) => continue,
                    Err(why) => return Some(why),
                };
                let found = match git_config::program_free(&text) {
                    Ok(found) => found,
                    Err(what) => {
                        return Some(format!(
                            "runs git with `{}` holding {what}, which this policy cannot prove runs nothing",
                            path.display()
                        ));
                    }
                };
                if let Some(written) = found.worktree {
                    match work_tree_named(dir, &written, expected) {
                        Ok(named) => top = Some(named),
                        Err(why) => {
                            return Some(format!(
                                "runs git with `{}`, which {why}",
                                path.display()
                            ));
                        }
                    }
                }
                hooks_paths.extend(found.hooks_path);
                if self.writes && found.editor {
                    return Some(format!(
                        "writes the repository with `{}` naming an editor, a program git runs for a message",
                        path.display()
                    ));
                }
                if self.writes && found.signing {
                    return Some(format!(
                        "writes the repository with `{}` setting how commits are signed, by a program git runs with a key it names",
                        path.display()
                    ));
                }
                settings.partial_clone |= found.partial_clone;
                settings.sha256 |= found.sha256;
            }
        }
        if settings.partial_clone && self.contents {
            return Some(format!(
                "runs git in `{}`, a partial clone: reading contents it lacks fetches them from its promisor remote, over the network and through the transport its configuration names",
                git.display()
            ));
        }
        if self.contents
            && let Some(dir) = dirs.iter().find(|d| holds_replace_refs(d))
        {
            return Some(format!(
                "runs git with `{}`, whose replace refs make git print other objects than those a name gives (`git show HEAD:README.md` printing a file of another commit)",
                dir.display()
            ));
        }
        let mut hooks: Vec<std::path::PathBuf> = dirs.iter().map(|d| d.join("hooks")).collect();
        for written in hooks_paths.iter().chain(&self.outer_hooks) {
            let path = std::path::Path::new(written);
            let dir = if path.is_absolute() {
                path.to_path_buf()
            } else if let Some(rest) = written.strip_prefix("~/") {
                match self.home {
                    Some(home) => home.join(rest),
                    None => {
                        return Some(format!(
                            "runs git with hooks in `{written}`, under a home directory that is not known"
                        ));
                    }
                }
            } else if written.starts_with('~') || written.starts_with("%(") {
                return Some(format!(
                    "runs git with hooks in `{written}`, a directory not known here"
                ));
            } else {
                match &top {
                    Some(top) => top.join(path),
                    None => {
                        return Some(format!(
                            "runs git in submodule `{}` with hooks in `{written}`, relative to a work tree not known here",
                            git.display()
                        ));
                    }
                }
            };
            hooks.push(dir);
        }
        for dir in &hooks {
            // A writing command runs the hooks of writes too: those of a directory outside
            // the workspace are code from elsewhere.
            let outside = self.writes
                && !std::fs::canonicalize(dir)
                    .ok()
                    .zip(std::fs::canonicalize(workspace).ok())
                    .is_some_and(|(d, w)| d.starts_with(w));
            match live_hook(dir, outside) {
                Ok(None) => {}
                Ok(Some(hook)) => {
                    return Some(format!(
                        "runs git in a repository whose hook `{}` is executable, and git runs hooks even from commands that only read (an index refresh runs `post-index-change`)",
                        hook.display()
                    ));
                }
                Err(why) => return Some(why),
            }
        }
        // Submodules: absorbed ones under `modules`, then those the index names.
        let mut modules = Vec::new();
        let mut budget = MAX_GIT_DIR_ENTRIES;
        for dir in &dirs {
            if let Err(why) = module_git_dirs(&dir.join("modules"), &mut modules, &mut budget) {
                return Some(why);
            }
        }
        for module in &modules {
            if let Some(why) =
                self.repository(module, WorkTree::Inside(workspace), workspace, depth + 1)
            {
                return Some(why);
            }
        }
        let links = match crate::paths::git_index::gitlinks_of(git, settings.sha256) {
            Ok(links) => links,
            Err(why) => return Some(why),
        };
        if links.is_empty() {
            return None;
        }
        let Some(top) = top else {
            return Some(format!(
                "runs git in `{}`, whose submodules' work tree is not known here",
                git.display()
            ));
        };
        for link in links {
            let sub_git = match git_dir_of(&top.join(&link)) {
                Ok(Some(git)) => git,
                Ok(None) => continue,
                Err(why) => return Some(why),
            };
            let sub_top = top.join(&link);
            if let Some(why) =
                self.repository(&sub_git, WorkTree::Exactly(&sub_top), workspace, depth + 1)
            {
                return Some(why);
            }
        }
        None
    }
}

/// The work tree `core.worktree` (`written`, relative to the git directory `dir`) names,
/// when it is the one `expected`; else why not, in words.
fn work_tree_named(
    dir: &std::path::Path,
    written: &str,
    expected: WorkTree<'_>,
) -> Result<std::path::PathBuf, String> {
    let outside = || {
        format!(
            "sets `core.worktree` to `{written}`, a work tree other than the workspace's, whose files git then reads"
        )
    };
    if written.starts_with('~') {
        return Err(outside());
    }
    let named = std::fs::canonicalize(dir.join(written)).map_err(|_| outside())?;
    let ok = match expected {
        WorkTree::Exactly(top) => std::fs::canonicalize(top).is_ok_and(|t| t == named),
        WorkTree::Inside(root) => std::fs::canonicalize(root).is_ok_and(|r| named.starts_with(r)),
    };
    if ok { Ok(named) } else { Err(outside()) }
}

/// The first executable file in the hooks directory `dir` git may run from a command that
/// only reads (not a `*.sample`, not one of [`WRITE_ONLY_HOOKS`] unless `writes_too`);
/// `None` when there is none or no such directory.
///
/// # Errors
///
/// The directory cannot be read, or holds more than [`MAX_GIT_DIR_ENTRIES`] entries.
fn live_hook(
    dir: &std::path::Path,
    writes_too: bool,
) -> Result<Option<std::path::PathBuf>, String> {
    use std::os::unix::fs::PermissionsExt as _;
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) if e.kind() == std::io::ErrorKind::NotADirectory => return Ok(None),
        Err(e) => {
            return Err(format!(
                "cannot read the hooks directory `{}` ({e})",
                dir.display()
            ));
        }
    };
    for (n, entry) in entries.enumerate() {
        if n >= MAX_GIT_DIR_ENTRIES {
            return Err(format!(
                "the hooks directory `{}` holds more files than are checked",
                dir.display()
            ));
        }
        let entry = entry
            .map_err(|e| format!("cannot read the hooks directory `{}` ({e})", dir.display()))?;
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if name.ends_with(".sample") || (!writes_too && WRITE_ONLY_HOOKS.contains(&name.as_ref())) {
            continue;
        }
        let path = entry.path();
        // Git runs a hook through its links.
        let Ok(meta) = std::fs::metadata(&path) else {
            continue;
        };
        if meta.is_file() && meta.permissions().mode() & 0o111 != 0 {
            return Ok(Some(path));
        }
    }
    Ok(None)
}

/// The git directories under a repository's `modules` directory (absorbed submodules, whose
/// names may hold `/`): each directory holding a `HEAD`, and those under its own `modules`.
///
/// # Errors
///
/// A directory that cannot be read, or more than `budget` directories.
fn module_git_dirs(
    dir: &std::path::Path,
    out: &mut Vec<std::path::PathBuf>,
    budget: &mut usize,
) -> Result<(), String> {
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::NotADirectory => return Ok(()),
        Err(e) => return Err(format!("cannot read `{}` ({e})", dir.display())),
    };
    for entry in entries {
        let entry = entry.map_err(|e| format!("cannot read `{}` ({e})", dir.display()))?;
        *budget = budget
            .checked_sub(1)
            .ok_or_else(|| format!("`{}` holds more submodules than are checked", dir.display()))?;
        let path = entry.path();
        if !path.is_dir() {
            continue;
        }
        if std::fs::symlink_metadata(path.join("HEAD")).is_ok() {
            out.push(path);
        } else {
            module_git_dirs(&path, out, budget)?;
        }
    }
    Ok(())
}

/// Why git run in a workspace that is no repository of its own is not modeled, if it is not:
/// git looks for the repository above the workspace root, up to the filesystem's root, and a
/// repository there (a monorepo around a package, a home directory under version control)
/// has a configuration that may run programs and a top level outside the workspace, so the
/// contents it prints (`contents`: diffs, objects) are files outside the workspace. That
/// repository is judged as the workspace's own would be ([`workspace_git_unproven`], with
/// `home` and `objects`, whether the command reads objects' contents).
fn repository_above(
    root: &std::path::Path,
    home: Option<&std::path::Path>,
    contents: bool,
    objects: bool,
) -> Option<String> {
    let signature = |dir: &std::path::Path, names: &[&str]| {
        names
            .iter()
            .any(|n| std::fs::symlink_metadata(dir.join(n)).is_ok())
    };
    if signature(root, &[".git", "HEAD", "commondir", "gitdir"]) {
        return None;
    }
    let mut dir = root.parent();
    while let Some(d) = dir {
        if signature(d, &[".git"]) {
            if let Some(why) = workspace_git_unproven(d, home, GitUse::Reads { contents: objects })
            {
                return Some(why);
            }
            if let Some(why) = git_config::credential(&d.join(".git/config"))
                .map(|why| format!("prints remote URLs, and {why}"))
            {
                return Some(why);
            }
            return contents.then(|| {
                format!(
                    "prints contents of the repository at `{}`, above the workspace, whose files lie outside it",
                    d.display()
                )
            });
        }
        if signature(d, &["HEAD", "commondir", "gitdir"]) {
            return Some(format!(
                "runs git in `{}`, a repository above the workspace, whose configuration can run programs",
                d.display()
            ));
        }
        dir = d.parent();
    }
    None
}

/// Whether the git directory `dir` may hold a replace ref (`refs/replace/…`, loose or named
/// anywhere in `packed-refs`, whose lines git also reads with a tab after the id): git then
/// reads the replacement wherever the replaced object is named. What cannot be read may.
fn holds_replace_refs(dir: &std::path::Path) -> bool {
    let loose = match std::fs::read_dir(dir.join("refs/replace")) {
        Ok(mut entries) => entries.next().is_some(),
        Err(e) => e.kind() != std::io::ErrorKind::NotFound,
    };
    loose
        || crate::paths::small_file::read_text(&dir.join("packed-refs"))
            .map_or(true, |t| t.unwrap_or_default().contains("refs/replace/"))
}

/// The git directory of the work tree `top`: its `.git` directory, or the one its `.git`
/// file names; `None` when it has no `.git` and is no repository itself.
///
/// # Errors
///
/// A `.git` file that cannot be followed, a `.git` that is a link, a git directory git does
/// not accept ([`accepted_git_dir`]: git then looks further), or `top` laid out as a bare
/// repository.
pub(super) fn git_dir_of(top: &std::path::Path) -> Result<Option<std::path::PathBuf>, String> {
    let dot_git = top.join(".git");
    // A link is the work tree's own choice of another repository, whose files git then
    // prints as the workspace's (a linked worktree or a submodule names its git directory
    // with a `.git` file instead).
    if std::fs::symlink_metadata(&dot_git).is_ok_and(|m| m.file_type().is_symlink()) {
        return Err(format!(
            "runs git where `{}` is a link to another directory, whose repository git would use",
            dot_git.display()
        ));
    }
    let dir = if dot_git.is_dir() {
        dot_git
    } else if dot_git.exists() {
        followed_git_dir(&dot_git)?
    } else if accepted_git_dir(top) {
        return Err(format!(
            "runs git in `{}`, laid out as a bare repository, whose configuration git reads",
            top.display()
        ));
    } else {
        return Ok(None);
    };
    if !accepted_git_dir(&dir) {
        return Err(format!(
            "runs git where `{}` is no repository git accepts (its `HEAD`, `objects` or `refs` is missing or unreadable): git looks for one in the work tree itself and the directories above",
            dir.display()
        ));
    }
    // Objects borrowed from another repository (`git clone --shared`, `--reference`): git
    // reads its objects and refs (`--alternate-refs`), which the workspace's checks never
    // see.
    let common = crate::paths::git_index::common_dir(&dir).unwrap_or_else(|| dir.clone());
    for name in ["alternates", "http-alternates"] {
        let listed = common.join("objects/info").join(name);
        if std::fs::symlink_metadata(&listed).is_ok() {
            return Err(format!(
                "runs git in a repository whose objects come partly from another one (`{}`), whose files the checks do not read",
                listed.display()
            ));
        }
    }
    Ok(Some(dir))
}

/// Whether git takes `dir` for a git directory: a `HEAD` naming a ref or an object id, and
/// `objects` and `refs` in it or in the common directory its `commondir` names.
fn accepted_git_dir(dir: &std::path::Path) -> bool {
    let head = crate::paths::small_file::read_text(&dir.join("HEAD"))
        .ok()
        .flatten()
        .unwrap_or_default();
    let head = head.trim();
    let hex = |t: &str| matches!(t.len(), 40 | 64) && t.bytes().all(|b| b.is_ascii_hexdigit());
    let head_ok = head
        .strip_prefix("ref:")
        .is_some_and(|r| r.trim().starts_with("refs/"))
        || hex(head);
    let common = crate::paths::git_index::common_dir(dir).unwrap_or_else(|| dir.to_path_buf());
    head_ok && common.join("objects").is_dir() && common.join("refs").exists()
}

/// The directory a `.git` file names (`gitdir: PATH`, relative to the file's directory).
fn followed_git_dir(dot_git: &std::path::Path) -> Result<std::path::PathBuf, String> {
    let shown = dot_git.display();
    let text = crate::paths::small_file::read_text(dot_git)?
        .ok_or_else(|| format!("cannot read `{shown}` (it is gone)"))?;
    let written = text
        .lines()
        .find_map(|l| {
            let l = l.trim();
            l.get(..7)
                .filter(|p| p.eq_ignore_ascii_case("gitdir:"))
                .and_then(|_| l.get(7..))
                .map(str::trim)
        })
        .filter(|t| !t.is_empty())
        .ok_or_else(|| format!("`{shown}` names no `gitdir:`"))?;
    let dir = dot_git
        .parent()
        .unwrap_or_else(|| std::path::Path::new("/"))
        .join(written);
    if dir.is_dir() {
        Ok(dir)
    } else {
        Err(format!(
            "`{shown}` names `{written}`, which is not a directory"
        ))
    }
}

/// The most entries [`link_leaving`] visits before giving up (an ask).
const MAX_WALKED_ENTRIES: usize = 20_000;

/// The first symlink under `root` (a walk that follows links, as `find -L` does) that leads
/// outside `workspace`; `Err` when the walk is too large, or a link cannot be resolved.
pub(super) fn link_leaving(
    root: &std::path::Path,
    workspace: &std::path::Path,
) -> Result<Option<std::path::PathBuf>, ()> {
    let mut stack = vec![root.to_path_buf()];
    let mut seen = 0usize;
    // Directories walked already: a link back up the tree is not walked again.
    let mut walked = std::collections::HashSet::new();
    while let Some(path) = stack.pop() {
        seen += 1;
        if seen > MAX_WALKED_ENTRIES {
            return Err(());
        }
        let Ok(meta) = std::fs::symlink_metadata(&path) else {
            continue;
        };
        let dir = if meta.file_type().is_symlink() {
            let real = crate::paths::resolve(&path).ok_or(())?;
            if !real.starts_with(workspace) {
                return Ok(Some(path));
            }
            // A link back into the workspace is walked where it leads, once.
            if real.is_dir() && path != root {
                stack.push(real);
            }
            false
        } else {
            meta.is_dir()
        };
        if !dir || !walked.insert(path.clone()) {
            continue;
        }
        let Ok(entries) = std::fs::read_dir(&path) else {
            continue;
        };
        for entry in entries.flatten() {
            stack.push(entry.path());
        }
    }
    Ok(None)
}

/// Shell builtins bash, zsh and dash run without a PATH search.
const BUILTINS: &[&str] = &[
    ".", ":", "[", "alias", "bg", "builtin", "cd", "command", "declare", "dirs", "echo", "eval",
    "exec", "exit", "export", "false", "fg", "getopts", "hash", "help", "history", "jobs", "let",
    "local", "popd", "printf", "pushd", "pwd", "read", "readonly", "return", "set", "shift",
    "shopt", "source", "test", "times", "trap", "true", "type", "typeset", "ulimit", "umask",
    "unalias", "unset", "wait",
];

/// Programs that print a compressed file's content decompressed (`zcat`, `zgrep`, `gzip -dc`):
/// the key a file holds compressed is not seen by the content check of its bytes.
const DECOMPRESSORS: &[&str] = &[
    "zcat",
    "gzcat",
    "zgrep",
    "zegrep",
    "zfgrep",
    "zless",
    "zmore",
    "zdiff",
    "zcmp",
    "zhead",
    "xzcat",
    "lzcat",
    "xzgrep",
    "xzegrep",
    "xzfgrep",
    "xzless",
    "xzmore",
    "xzdiff",
    "bzcat",
    "bzgrep",
    "bzegrep",
    "bzfgrep",
    "bzless",
    "bzmore",
    "bzdiff",
    "zstdcat",
    "zstdgrep",
    "zstdless",
    "lz4cat",
    "gzip",
    "gunzip",
    "xz",
    "unxz",
    "lzma",
    "unlzma",
    "bzip2",
    "bunzip2",
    "zstd",
    "unzstd",
    "lz4",
    "brotli",
    "uncompress",
    "pigz",
    "unpigz",
    "pbzip2",
    "pixz",
];

/// Whether `cmd` decodes text it reads into other bytes: `base64 -d`, `base32 --decode`,
/// `basenc -d`, `xxd -r`, `uudecode`. What it prints is not what the content check read,
/// whatever the file.
fn prints_decoded_text(cmd: &SimpleCommand) -> bool {
    let decodes = |letter: char| {
        cmd.args().iter().any(|w| {
            w.literal().is_none_or(|t| {
                t == "--decode"
                    || t == "--revert"
                    || (t.starts_with('-') && !t.starts_with("--") && t.contains(letter))
            })
        })
    };
    match cmd.program() {
        Some("base64" | "base32" | "basenc") => decodes('d'),
        Some("xxd") => decodes('r'),
        Some("uudecode") => true,
        _ => false,
    }
}

/// Whether `cmd` is a decompressor ([`DECOMPRESSORS`]) that may print what it decompresses:
/// not when it only tells its usage (`--help`), nor when a compressor itself only lists or
/// tests its files (`gzip -l`, `xz -t`; the wrappers `zgrep`, `zless`, `zdiff` pass their
/// short options to the program they run).
fn prints_decompressed(cmd: &SimpleCommand) -> bool {
    let Some(program) = cmd.program().filter(|p| DECOMPRESSORS.contains(p)) else {
        return false;
    };
    let wrapper = ["grep", "less", "more", "diff", "cmp", "head"]
        .iter()
        .any(|w| program.ends_with(w));
    !cmd.args().iter().filter_map(Word::literal).any(|t| {
        matches!(t, "--help" | "--version")
            || (!wrapper
                && (matches!(t, "--list" | "--test" | "--license")
                    || (t.starts_with('-')
                        && !t.starts_with("--")
                        && t.contains(['l', 't', 'h', 'V', 'L']))))
    })
}

/// Why the program `name` may be found through `path` (a PATH value) inside the workspace
/// `root`: an empty or relative entry (the command's directory decides it), or an entry inside
/// the workspace, before the first entry outside it that holds `name`. `root_is_real`: `root`
/// is known to be its own real path (resolving it again, a `readlink` per component, would
/// give it back).
fn path_reaches_workspace(
    name: &str,
    path: &std::ffi::OsStr,
    root: &std::path::Path,
    root_is_real: bool,
) -> Option<String> {
    if name.contains('/') || BUILTINS.contains(&name) {
        return None;
    }
    let real_root = if root_is_real {
        Some(std::borrow::Cow::Borrowed(root))
    } else {
        std::fs::canonicalize(root)
            .ok()
            .map(std::borrow::Cow::Owned)
    };
    for entry in std::env::split_paths(path) {
        if entry.as_os_str().is_empty() || entry.is_relative() {
            return Some(format!(
                "finds `{name}` through PATH, whose entry `{}` is relative to the command's directory, where a program of that name may run instead",
                entry.display()
            ));
        }
        let real = std::fs::canonicalize(&entry).unwrap_or_else(|_| entry.clone());
        let inside = entry.starts_with(root)
            || real.starts_with(root)
            || real_root.as_deref().is_some_and(|r| real.starts_with(r));
        if inside {
            return Some(format!(
                "finds `{name}` through PATH, whose entry `{}` is inside the workspace, where a program of that name may run instead",
                entry.display()
            ));
        }
        if entry.join(name).is_file() {
            return None;
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replace_refs_are_found_loose_or_packed_with_any_separator() {
        let dir = tempfile::tempdir().expect("dir");
        let git = dir.path();
        assert!(!holds_replace_refs(git));
        let id = "1".repeat(40);
        std::fs::write(git.join("packed-refs"), format!("{id} refs/heads/main\n")).expect("w");
        assert!(!holds_replace_refs(git));
        for line in [
            format!("{id} refs/replace/{id}"),
            format!("{id}\trefs/replace/{id}"),
        ] {
            std::fs::write(git.join("packed-refs"), format!("{line}\n")).expect("w");
            assert!(holds_replace_refs(git), "{line}");
        }
        std::fs::write(git.join("packed-refs"), "").expect("w");
        std::fs::create_dir_all(git.join("refs/replace")).expect("dir");
        assert!(!holds_replace_refs(git));
        std::fs::write(git.join("refs/replace").join(&id), &id).expect("w");
        assert!(holds_replace_refs(git));
    }

    #[test]
    fn brace_readings_keep_every_group_as_written_too() {
        let readings = |text: &str| {
            let mut out = Vec::new();
            brace_readings(text, &mut out);
            out
        };
        // Quoted inside a group: bash names `{a,b}` and `x`.
        let nested = readings("{{a,b},x}");
        for name in ["{a,b}", "x", "a", "b"] {
            assert!(nested.iter().any(|n| n == name), "{name}: {nested:?}");
        }
        // A loop's value, or braces off.
        assert!(readings("{a,b}").contains(&"{a,b}".to_owned()));
        assert!(readings("src/{a,b}.rs").contains(&"src/a.rs".to_owned()));
        assert_eq!(readings("plain"), ["plain"]);
    }

    /// The stance deciding `command` in an empty workspace, with the default secrets.
    fn decided(command: &str) -> Stance {
        let ws = tempfile::tempdir().expect("workspace");
        let sensitive = crate::paths::SensitivePaths::new(&[]).expect("sensitive");
        let places = crate::paths::Places::new(
            ws.path(),
            Some(std::path::Path::new("/home/u")),
            Some(&sensitive),
        );
        let script = crate::shell::parse(command).expect("parses");
        super::super::judge_script(&script, &places).0.stance
    }

    #[test]
    fn files_describing_the_system_are_read_as_uname_prints_it() {
        for command in [
            "cat /etc/os-release",
            "grep PRETTY_NAME /etc/os-release",
            "grep -c processor /proc/cpuinfo",
            "head -3 /proc/meminfo",
            "cat /proc/loadavg /proc/uptime /proc/version",
        ] {
            if std::path::Path::new("/proc/cpuinfo").exists() {
                assert_eq!(decided(command), Stance::PolicyAllow, "{command}");
            }
        }
        // Anything else of the system, and another process's files, are not.
        for command in [
            "cat /etc/passwd",
            "cat /proc/1/cmdline",
            "cat /proc/self/environ",
            "cat /etc/os-release /etc/shadow",
            "cat /etc/../etc/ssh/ssh_host_rsa_key",
        ] {
            assert_ne!(decided(command), Stance::PolicyAllow, "{command}");
        }
    }

    #[test]
    fn fd_exec_runs_its_command_on_the_files_fd_finds() {
        let ws = tempfile::tempdir().expect("workspace");
        std::fs::write(ws.path().join(".env"), "K=v").unwrap();
        std::fs::write(ws.path().join("a.rs"), "fn main() {}").unwrap();
        let sensitive = crate::paths::SensitivePaths::new(&[]).expect("sensitive");
        let places = crate::paths::Places::new(
            ws.path(),
            Some(std::path::Path::new("/home/u")),
            Some(&sensitive),
        );
        let decided = |command: &str| {
            let script = crate::shell::parse(command).expect("parses");
            super::super::judge_script(&script, &places).0.stance
        };
        // A reader over a walk that can reach `.env`: the same verdict `find -exec` gets.
        for command in [
            "fd -H env -x cat",
            "fd -x cat",
            "fd . -X cat",
            "fd -H -X cat {}",
            "fdfind --hidden --exec-batch head -n 5",
            "fd -u -x cat {} \\;",
            "fd -x cat {/}",
            "fd -x sh -c 'cat {}'",
            "find . -exec cat {} +",
        ] {
            assert_eq!(decided(command), Stance::RequireAsk, "{command}");
        }
        // A walk narrowed to files that are no secret: fd is its walk, the command a reader.
        for command in ["fd -e rs -x wc -l", "fd -e rs -X cat"] {
            assert_eq!(decided(command), Stance::PolicyAllow, "{command}");
        }
    }

    #[test]
    fn reads_of_paths_known_only_at_run_time() {
        // The shell's own name of the command's directory, or a secret's literal end.
        for command in [
            "cat ~+/.env",
            "cat $(pwd)/.env",
            "cat `pwd`/.env",
            "cat \"$PWD\"/.env",
            "cat ${PWD}/.env",
            "cat ~+/../home/.ssh/id_rsa",
            "cat ~-/.ssh/id_rsa",
            "cat $OLDPWD/.env",
            "cat $(echo ~)/.ssh/id_rsa",
            "cat \"$(dirname $PWD)\"/home/.aws/credentials",
        ] {
            assert_eq!(decided(command), Stance::HardDeny, "{command}");
        }
        // Anything else only known when it runs: binding, as such a write is.
        for command in [
            "cat \"$f\"",
            "cat $(printf '.%s' env)",
            "ls -a | grep env | xargs cat",
            "cat $OLDPWD/notes.txt",
        ] {
            assert_eq!(decided(command), Stance::RequireAsk, "{command}");
        }
        // The directory's own files, named through it, are the files.
        for command in [
            "cat ~+/README.md",
            "cat \"$PWD/README.md\"",
            "cat $(pwd)/a.txt",
        ] {
            assert!(
                !matches!(decided(command), Stance::HardDeny | Stance::RequireAsk),
                "{command}"
            );
        }
        assert_eq!(
            cwd_relative(&Word::dynamic("~+", "~+")),
            Some(Word::literal_text("."))
        );
        assert_eq!(runtime_tail("$x.env"), None);
        assert_eq!(runtime_tail("${x}a/b").as_deref(), Some("/b"));
    }

    #[test]
    fn a_path_that_may_find_a_program_in_the_workspace_is_named() {
        let ws = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("cat"), "").unwrap();
        std::fs::create_dir(ws.path().join("bin")).unwrap();
        let out = outside.path().display().to_string();
        let inside = ws.path().join("bin").display().to_string();
        let reaches = |path: &str, name: &str| {
            path_reaches_workspace(name, std::ffi::OsStr::new(path), ws.path(), false)
        };
        // A relative or empty entry: the command's directory decides.
        for path in ["bin", "./node_modules/.bin", ""] {
            assert!(
                reaches(&format!("{path}:{out}"), "cat").is_some(),
                "{path:?}"
            );
        }
        assert!(
            reaches(&format!("{out}:"), "ls").is_some(),
            "a trailing empty entry"
        );
        // An absolute entry inside the workspace, before the program's real place.
        assert!(reaches(&format!("{inside}:{out}"), "cat").is_some());
        // Found outside first, a builtin, or a path: nothing else is searched.
        assert!(reaches(&format!("{out}:{inside}"), "cat").is_none());
        assert!(reaches(&format!("bin:{out}"), "echo").is_none());
        assert!(reaches(&format!("bin:{out}"), "./x").is_none());
        assert!(reaches(&out, "ls").is_none());
    }

    #[test]
    fn an_entry_linked_into_a_real_root_is_named_without_resolving_the_root_again() {
        let ws = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(ws.path()).unwrap();
        std::fs::create_dir(root.join("bin")).unwrap();
        let links = tempfile::tempdir().unwrap();
        let link = links.path().join("tools");
        std::os::unix::fs::symlink(root.join("bin"), &link).unwrap();
        let path = format!("{}:/usr/bin", link.display());
        for root_is_real in [true, false] {
            assert!(
                path_reaches_workspace("cat", std::ffi::OsStr::new(&path), &root, root_is_real)
                    .is_some(),
                "{root_is_real}"
            );
        }
    }
}
