//! git commands that change git's own state or print what it keeps, judged whatever the
//! program table makes of them: a write of git's configuration (`git config KEY VALUE`,
//! `git remote add`/`set-url`, `git maintenance register`), a template whose hooks `git init`
//! or `git clone` copies into the repository, `git clean` deleting protected configuration or
//! secrets, and remote URLs printed while the configuration puts a credential in them.
//!
//! Git's configuration names programs git runs (`core.fsmonitor`, `core.pager`,
//! `core.sshCommand`, aliases starting with `!`), where its hooks are (`core.hooksPath`), which
//! file it loads (`include.path`) and where it sends the code (`remote.<name>.url`): writing it
//! is writing protected configuration, which a person edits, never a call.
//!
//! Other subcommands write the repository's configuration too, only keys that run nothing
//! (git 2.47, checked on a scratch repository): `git branch -u`/`--set-upstream-to`/`--track`,
//! `git checkout --track`, `git switch --track=inherit` and `git push -u` write
//! `branch.<name>.remote`, `.merge` (and `.rebase` under `branch.autoSetupRebase`);
//! `git submodule init`/`sync` copy a submodule's `url` and `update` from `.gitmodules` with
//! `active` (git refuses an `update = !command` there: "invalid value"), `git sparse-checkout
//! init` writes `extensions.worktreeConfig` and `core.sparseCheckout`, `git worktree add`
//! writes only below `.git/worktrees`. They are judged as the writes of the repository they
//! are, never as writes of its configuration.

use warrant_core::decision::Risk;
use warrant_core::evaluator::Stance;

use super::judge::Judge;
use crate::paths::{Place, git_config};
use crate::policy::codes::{FILESYSTEM_PROTECTED_CONFIG, FILESYSTEM_SENSITIVE_PATH};
use crate::policy::finding::quote;
use crate::shell::{SimpleCommand, Word, WorkingDir};

/// `git config` options that take the next word as their value.
const CONFIG_WITH_VALUE: &[&str] = &[
    "-f",
    "--file",
    "--blob",
    "--type",
    "--default",
    "--comment",
    "--value",
    "--url",
];

/// `git config` options and subcommands that only read.
const CONFIG_READS: &[&str] = &[
    "--get",
    "--get-all",
    "--get-regexp",
    "--get-urlmatch",
    "--get-color",
    "--get-colorbool",
    "-l",
    "--list",
    "get",
    "list",
    "get-color",
    "get-colorbool",
];

/// `git config` options and subcommands that write.
const CONFIG_WRITES: &[&str] = &[
    "--add",
    "--replace-all",
    "--unset",
    "--unset-all",
    "--rename-section",
    "--remove-section",
    "-e",
    "--edit",
    "set",
    "unset",
    "rename-section",
    "remove-section",
    "edit",
];

/// A git command split where git splits it.
pub(super) struct Git<'c> {
    /// Its own options, before the subcommand.
    pub global: &'c [Word],
    /// The subcommand, when it is written literally.
    pub sub: Option<&'c str>,
    /// What follows the subcommand.
    pub rest: &'c [Word],
}

pub(super) fn split(cmd: &SimpleCommand) -> Git<'_> {
    let args = cmd.args();
    let mut i = 0;
    while let Some(text) = args.get(i).and_then(Word::literal) {
        if !text.starts_with('-') {
            break;
        }
        i += super::git::global_span(text);
    }
    let at = i.min(args.len());
    Git {
        global: &args[..at],
        sub: args.get(at).and_then(Word::literal),
        rest: args.get(at + 1..).unwrap_or_default(),
    }
}

/// Variables naming a configuration file git reads (`GIT_CONFIG` only for `git config`).
const CONFIG_FILE_VARIABLES: &[&str] = &["GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM", "GIT_CONFIG"];

/// Every variable assigned for the command `cmd` (`NAME=V git …`) or exported anywhere in
/// the script (`export`, `declare`, `typeset`, `env`), with its value when literal and how it
/// is written.
pub(super) fn assigned(
    j: &Judge<'_>,
    cmd: &SimpleCommand,
) -> Vec<(String, Option<String>, String)> {
    let mut vars: Vec<(String, Option<String>, String)> = Vec::new();
    for (name, value) in cmd.assignments.iter().zip(&cmd.assignment_values) {
        vars.push((name.clone(), value.clone(), name.clone()));
    }
    for c in &j.script.commands {
        if !matches!(c.program(), Some("export" | "declare" | "typeset" | "env")) {
            continue;
        }
        for w in c.words.iter().skip(1) {
            match w.literal() {
                Some(t) => {
                    if let Some((n, v)) = t.split_once('=') {
                        vars.push((n.to_owned(), Some(v.to_owned()), w.raw.clone()));
                    }
                }
                None => {
                    if let Some((n, _)) = w.raw.split_once('=') {
                        vars.push((n.to_owned(), None, w.raw.clone()));
                    }
                }
            }
        }
    }
    vars
}

/// The configuration files the script's environment and git's own options make the git
/// command `cmd` (split as `git`) read: the values of [`CONFIG_FILE_VARIABLES`], and the
/// files included by entries given as variables (`GIT_CONFIG_KEY_<n>=include.path` with its
/// `GIT_CONFIG_VALUE_<n>`) or with `-c include.path=F` (`includeIf.<cond>.path` alike),
/// assigned for it (`NAME=F git …`, through `env`) or exported anywhere in the script (a
/// loop may export it before). `Err` names a value only known when it runs, an include
/// given through `GIT_CONFIG_PARAMETERS` or `--config-env`.
fn config_files_of(
    j: &Judge<'_>,
    cmd: &SimpleCommand,
    git: &Git<'_>,
) -> Result<Vec<String>, String> {
    let vars = assigned(j, cmd);
    let unknown = |raw: &str| format!("`{raw}` names a configuration file only known when it runs");
    let includes = |key: &str| {
        let key = key.to_ascii_lowercase();
        key.starts_with("include") && key.ends_with(".path")
    };
    let mut found = Vec::new();
    for (name, value, raw) in &vars {
        if CONFIG_FILE_VARIABLES.contains(&name.as_str()) {
            match value {
                Some(v) if v.is_empty() => {}
                Some(v) => found.push(v.clone()),
                None => return Err(unknown(raw)),
            }
        } else if name == "GIT_CONFIG_PARAMETERS"
            && value
                .as_ref()
                .is_none_or(|v| v.to_ascii_lowercase().contains("include"))
        {
            return Err(format!("`{raw}` may include a configuration file"));
        } else if let Some(n) = name.strip_prefix("GIT_CONFIG_KEY_") {
            let Some(key) = value else {
                return Err(unknown(raw));
            };
            if !includes(key) {
                continue;
            }
            let file = vars
                .iter()
                .find(|(v, _, _)| *v == format!("GIT_CONFIG_VALUE_{n}"))
                .and_then(|(_, v, _)| v.clone());
            match file {
                Some(f) => found.push(f),
                None => return Err(unknown(raw)),
            }
        }
    }
    let mut words = git.global.iter();
    while let Some(w) = words.next() {
        let Some(t) = w.literal() else {
            continue;
        };
        let pair = if t == "-c" {
            words.next()
        } else if t.starts_with("--config-env") {
            // `--config-env=KEY=VAR` or `--config-env KEY=VAR`: the file is the variable's.
            let spec = match t.strip_prefix("--config-env=") {
                Some(spec) => Some(spec),
                None => words.next().and_then(Word::literal),
            };
            if spec.is_none_or(|spec| includes(spec.split('=').next().unwrap_or(spec))) {
                return Err(format!(
                    "`{t}` may include a configuration file from the environment"
                ));
            }
            continue;
        } else if t.starts_with("-c") {
            Some(w)
        } else {
            continue;
        };
        let Some(pair) = pair else {
            continue;
        };
        let Some(text) = pair.literal() else {
            return Err(unknown(&pair.raw));
        };
        let text = if std::ptr::eq(pair, w) {
            &text[2..]
        } else {
            text
        };
        if let Some((key, file)) = text.split_once('=')
            && includes(key)
        {
            found.push(file.to_owned());
        }
    }
    Ok(found)
}

/// A configuration file the environment names for git ([`config_files_of`]) is read by git
/// as configuration, whatever the command: it is a read of that file (a secret by name
/// stops the call, one outside the workspace is judged as such), relative to a directory
/// only known when `-C` moves it.
fn environment_configs(
    j: &mut Judge<'_>,
    cmd: &SimpleCommand,
    git: &Git<'_>,
) -> Vec<std::path::PathBuf> {
    let files = match config_files_of(j, cmd, git) {
        Ok(files) => files,
        Err(why) => {
            binding(
                j,
                cmd,
                FILESYSTEM_SENSITIVE_PATH,
                &format!("reads git configuration the environment names, and {why}"),
            );
            return Vec::new();
        }
    };
    let moved = git.global.iter().any(|w| {
        w.literal().is_none_or(|t| {
            t.starts_with("-C") || t.starts_with("--git-dir") || t.starts_with("--work-tree")
        })
    });
    let mut paths = Vec::new();
    for f in files {
        if moved && !f.starts_with(['/', '~']) {
            binding(
                j,
                cmd,
                FILESYSTEM_SENSITIVE_PATH,
                &format!("reads `{f}` as git configuration, relative to a directory `-C` chooses"),
            );
            continue;
        }
        let word = Word::literal_text(&f);
        j.read(cmd, &word);
        paths.push(j.places.locate(&f, &cmd.cwd).path);
    }
    paths
}

/// Judges the git command `cmd` for what it does to git's own state.
pub(super) fn judge(j: &mut Judge<'_>, cmd: &SimpleCommand) {
    let canonical = super::git::options::canonical(cmd);
    let cmd = canonical.as_ref();
    let git = split(cmd);
    // File contents printed from the objects, and commits or objects dropped for good.
    if let Some(sub) = git.sub {
        super::git::blobs::judge(j, cmd, sub, git.rest);
        super::git::blobs::configured_discards(j, cmd, &git);
    }
    let env_files = environment_configs(j, cmd, &git);
    match git.sub {
        Some("config") => config(j, cmd, &git, &env_files),
        Some("remote") => remote(j, cmd, &git),
        Some("init" | "clone") => template(j, cmd, &git),
        Some("clean") => clean(j, cmd, &git),
        Some("stash") => stash_untracked(j, cmd, &git),
        // `git var -l` lists the configuration as `git config -l` does; a variable
        // (`GIT_AUTHOR_IDENT`, `GIT_EDITOR`) prints a setting's value.
        Some("var") => {
            let keys = match git.rest.iter().map(Word::literal).collect::<Vec<_>>()[..] {
                [Some(name)] => var_keys(name),
                _ => None,
            };
            let printed: Vec<_> = match keys {
                Some(keys) => keys.iter().map(|k| git_config::Printed::Key(k)).collect(),
                None => vec![git_config::Printed::Every],
            };
            printed_config(j, cmd, &git, "", &printed, None, &env_files);
        }
        // `git ls-remote --get-url` prints a remote's URL (rewritten) without contacting it.
        Some("ls-remote")
            if git
                .rest
                .iter()
                .any(|w| w.literal().is_none_or(|t| t.starts_with("--get-url"))) =>
        {
            remote_urls(j, cmd, &git);
        }
        // A word only known when it runs before the subcommand may be an option of git
        // (`-cinclude.path=FILE`) or the subcommand itself.
        None if cmd
            .args()
            .get(git.global.len())
            .is_some_and(|w| w.prefix.is_empty() || w.prefix.starts_with('-')) =>
        {
            binding(
                j,
                cmd,
                FILESYSTEM_SENSITIVE_PATH,
                "is given an option or subcommand only known when it runs, which may make it print or include any configuration",
            );
        }
        // `git credential fill` and a helper's `get` (`git credential-store get`) print the
        // password a helper keeps; `approve`/`reject` and a helper's `store`/`erase` write or
        // erase it (`~/.git-credentials` for `store`).
        Some(sub) if sub == "credential" || sub.starts_with("credential-") => binding(
            j,
            cmd,
            FILESYSTEM_SENSITIVE_PATH,
            "asks git's credential helpers for stored credentials, which it prints, stores or erases",
        ),
        // `git lfs install --local` (`--worktree`; `uninstall` removes them) writes the
        // `filter.lfs.*` programs into the repository's configuration.
        Some("lfs")
            if git
                .rest
                .first()
                .and_then(Word::literal)
                .is_some_and(|t| matches!(t, "install" | "uninstall"))
                && git.rest.iter().any(|w| {
                    w.literal()
                        .is_none_or(|t| matches!(t, "--local" | "--worktree"))
                }) =>
        {
            deny(
                j,
                cmd,
                "writes `filter.lfs.*` in the repository's git configuration (`.git/config`), whose keys name programs git runs",
            );
        }
        Some("maintenance")
            if git
                .rest
                .first()
                .is_none_or(|w| w.literal().is_none_or(|t| t != "run")) =>
        {
            binding(
                j,
                cmd,
                FILESYSTEM_PROTECTED_CONFIG,
                "registers the repository in the global git configuration and may schedule jobs there",
            );
        }
        _ => {}
    }
}

/// The binding ask (no mode settles it) of the git command `cmd`, which `what`.
pub(super) fn binding(j: &mut Judge<'_>, cmd: &SimpleCommand, code: &'static str, what: &str) {
    let reason = format!("{} {what}: no mode settles it.", quote(cmd));
    j.add(Stance::RequireAsk, code, Risk::High, reason);
}

fn deny(j: &mut Judge<'_>, cmd: &SimpleCommand, what: &str) {
    protected_config(
        j,
        cmd,
        Stance::HardDeny,
        &format!("{what}, protected configuration"),
    );
}

/// The one finding of a git command that writes (`Stance::HardDeny`) or may write
/// (`Stance::RequireAsk`) protected configuration: `what` says what it writes, and the
/// reason adds that a person edits it, never a call.
pub(super) fn protected_config(j: &mut Judge<'_>, cmd: &SimpleCommand, stance: Stance, what: &str) {
    let risk = if stance == Stance::HardDeny {
        Risk::Critical
    } else {
        Risk::High
    };
    let reason = format!("{} {what}: a person edits it, never a call.", quote(cmd));
    j.add(stance, FILESYSTEM_PROTECTED_CONFIG, risk, reason);
}

/// `git config`: a write of a key not [`git_config::harmless_to_set`] (or of a key, or in a way, only
/// known when it runs) is the hard deny of writing the configuration; a command that prints
/// remote URLs is checked for credentials.
fn config(j: &mut Judge<'_>, cmd: &SimpleCommand, git: &Git<'_>, env_files: &[std::path::PathBuf]) {
    let mut operands: Vec<&Word> = Vec::new();
    let (mut reads, mut writes, mut lists, mut file, mut scope) = (false, false, false, None, "");
    let mut options_done = false;
    let mut maybe_option = None;
    let mut k = 0;
    while let Some(w) = git.rest.get(k) {
        k += 1;
        let Some(t) = w.literal() else {
            // A word only known when it runs before the key may be an option, any action
            // among them (git reads no option after the key).
            if !options_done
                && operands.is_empty()
                && (w.prefix.is_empty() || w.prefix.starts_with('-'))
            {
                maybe_option.get_or_insert(w);
            }
            operands.push(w);
            continue;
        };
        // git reads no option after the key: `git config core.pager CMD --get` sets it.
        if options_done || !operands.is_empty() || !t.starts_with('-') || t == "-" {
            if operands.is_empty() && !options_done && CONFIG_WRITES.contains(&t) {
                writes = true;
                continue;
            }
            if operands.is_empty() && !options_done && CONFIG_READS.contains(&t) {
                reads = true;
                lists |= t == "list";
                continue;
            }
            operands.push(w);
            continue;
        }
        if t == "--" {
            options_done = true;
            continue;
        }
        let name = t.split_once('=').map_or(t, |(n, _)| n);
        if matches!(name, "-f" | "--file") || (t.starts_with("-f") && t.len() > 2) {
            file = Some(
                t.split_once('=')
                    .map(|(_, v)| v.to_owned())
                    .or_else(|| {
                        t.strip_prefix("-f")
                            .filter(|v| !v.is_empty())
                            .map(str::to_owned)
                    })
                    .or_else(|| git.rest.get(k).map(|w| w.raw.clone()))
                    .unwrap_or_default(),
            );
        }
        if matches!(name, "--global" | "--system" | "--local" | "--worktree") {
            scope = name;
        }
        if name == "--blob" {
            // A blob is read, never written.
            file = Some(String::new());
        }
        reads |= CONFIG_READS.contains(&name);
        // A long option git's table does not hold (git rejects an ambiguous prefix) may be
        // any action: it is read as one that prints every value.
        lists |= super::git::options::is_long_option("config", name) == Some(false);
        lists |= matches!(
            name,
            "-l" | "--list" | "--get-regexp" | "--get-urlmatch" | "--regexp"
        );
        writes |= CONFIG_WRITES.contains(&name);
        if CONFIG_WITH_VALUE.contains(&t) {
            k += 1;
        }
    }
    // `git config KEY VALUE` sets; `git config KEY` gets.
    let sets = writes || (!reads && operands.len() >= 2);
    if sets {
        // `--file` and `--blob` name a file judged by its name elsewhere.
        if file.is_some() {
            return;
        }
        let key = operands.first().map(|w| w.literal());
        let harmless = match key {
            Some(Some(key)) => git_config::harmless_to_set(key),
            _ => false,
        };
        // Renaming or removing a section, or editing, changes keys no word names.
        let named_only = !git.rest.iter().any(|w| {
            w.literal().is_some_and(|t| {
                matches!(
                    t,
                    "--rename-section"
                        | "--remove-section"
                        | "-e"
                        | "--edit"
                        | "rename-section"
                        | "remove-section"
                        | "edit"
                )
            })
        });
        if !(harmless && named_only) {
            let which = if scope == "--global" || scope == "--system" {
                "the user's or system's git configuration"
            } else {
                "the repository's git configuration (`.git/config`)"
            };
            let key = operands.first().map_or("a key", |w| w.raw.as_str());
            return deny(
                j,
                cmd,
                &format!(
                    "writes `{key}` in {which}, whose keys name programs git runs, its hooks and its remotes"
                ),
            );
        }
    }
    if let Some(w) = maybe_option {
        let what = format!(
            "may write git's configuration in any way (`{}` is only known when it runs and may be an option)",
            w.raw
        );
        return binding(j, cmd, FILESYSTEM_PROTECTED_CONFIG, &what);
    }
    if sets {
        return;
    }
    let printed = match operands.first().map(|w| w.literal()) {
        _ if lists => git_config::Printed::Every,
        None | Some(None) => git_config::Printed::Every,
        // A key named for no credential may still hold one (`core.editor = env TOKEN=… vim`):
        // its value is read as any other's.
        Some(Some(key)) => git_config::Printed::Key(key),
    };
    printed_config(j, cmd, git, scope, &[printed], file, env_files);
}

/// The configuration keys whose values `git var NAME` prints (`GIT_EDITOR` prints
/// `core.editor`); `None` for a variable not known here, which may print any.
fn var_keys(name: &str) -> Option<&'static [&'static str]> {
    Some(match name {
        "GIT_EDITOR" => &["core.editor"],
        "GIT_SEQUENCE_EDITOR" => &["sequence.editor", "core.editor"],
        "GIT_PAGER" => &["core.pager"],
        "GIT_AUTHOR_IDENT" => &["author.name", "author.email", "user.name", "user.email"],
        "GIT_COMMITTER_IDENT" => &[
            "committer.name",
            "committer.email",
            "user.name",
            "user.email",
        ],
        "GIT_DEFAULT_BRANCH" => &["init.defaultbranch"],
        "GIT_ATTR_GLOBAL" => &["core.attributesfile"],
        "GIT_SHELL_PATH" | "GIT_ATTR_SYSTEM" | "GIT_CONFIG_SYSTEM" | "GIT_CONFIG_GLOBAL" => &[],
        _ => return None,
    })
}

/// A reading of git's configuration (`git config`, `git var`): what it prints (`printed`:
/// every key, or the values of some) is looked for a secret in the files `scope` (or
/// `--file`) names and the files they include ([`git_config::printed_secret`]); one found
/// is a binding ask, as reading `.git/config` itself is.
fn printed_config(
    j: &mut Judge<'_>,
    cmd: &SimpleCommand,
    git: &Git<'_>,
    scope: &str,
    printed: &[git_config::Printed<'_>],
    file: Option<String>,
    env_files: &[std::path::PathBuf],
) {
    let home = j.places.home();
    // Files the environment names replace the global and system ones, or (`GIT_CONFIG`)
    // the repository's: all are read.
    let mut files = env_files.to_vec();
    match file {
        // A blob of the repository is not read here.
        Some(f) if f.is_empty() => return,
        Some(f) => files.push(j.places.locate(&f, &cmd.cwd).path),
        None => {
            if !matches!(scope, "--global" | "--system") {
                match printing_repository(j, cmd, git) {
                    Ok(root) => files.extend(crate::paths::git_index::local_configs(&root)),
                    Err(why) => {
                        let what = format!("prints git configuration, and {why}");
                        return binding(j, cmd, FILESYSTEM_SENSITIVE_PATH, &what);
                    }
                }
            }
            if scope != "--local" && scope != "--worktree" {
                files.extend(git_config::outer_configs(home));
            }
        }
    }
    if let Some(why) = files.iter().find_map(|f| {
        printed
            .iter()
            .find_map(|p| git_config::printed_secret(f, home, *p))
    }) {
        binding(
            j,
            cmd,
            FILESYSTEM_SENSITIVE_PATH,
            &format!("prints git configuration, and {why}"),
        );
    }
}

/// `git remote`: adding, renaming, removing remotes or changing their URLs writes the
/// repository's configuration (a URL says where the code goes, and `ext::` runs a command);
/// `-v`, `get-url` and `show` print the URLs.
fn remote(j: &mut Judge<'_>, cmd: &SimpleCommand, git: &Git<'_>) {
    let first = git
        .rest
        .iter()
        .find(|w| w.literal().is_none_or(|t| !t.starts_with('-')));
    let first = first.map(|w| w.literal());
    match first {
        None => {
            if git
                .rest
                .iter()
                .any(|w| w.literal().is_none_or(|t| t == "-v" || t == "--verbose"))
            {
                remote_urls(j, cmd, git);
            }
        }
        Some(Some("get-url" | "show")) => remote_urls(j, cmd, git),
        Some(Some("update" | "prune")) => {}
        Some(_) => binding(
            j,
            cmd,
            FILESYSTEM_PROTECTED_CONFIG,
            "changes the remotes in the repository's git configuration, which say where code is sent and fetched from",
        ),
    }
}

/// A remote URL the command prints may carry a credential (`https://user:TOKEN@host/…`):
/// the repository's configuration (unless `scope` names another) and the global and system
/// ones are read for one, and any found stops the call in every mode, as reading
/// `.git/config` itself does.
fn remote_urls(j: &mut Judge<'_>, cmd: &SimpleCommand, git: &Git<'_>) {
    let root = match printing_repository(j, cmd, git) {
        Ok(root) => root,
        Err(why) => {
            let what = format!("prints remote URLs, and {why}");
            return binding(j, cmd, FILESYSTEM_SENSITIVE_PATH, &what);
        }
    };
    let mut files = crate::paths::git_index::local_configs(&root);
    files.extend(git_config::outer_configs(j.places.home()));
    if let Some(why) = files
        .iter()
        .find_map(|file| git_config::remote_url_credential(file))
    {
        binding(
            j,
            cmd,
            FILESYSTEM_SENSITIVE_PATH,
            &format!("prints remote URLs, and {why}"),
        );
    }
}

/// Variables that choose the repository git uses.
const REPOSITORY_VARIABLES: &[&str] = &["GIT_DIR", "GIT_COMMON_DIR", "GIT_WORK_TREE"];

/// The work tree whose repository's configuration a printing git command reads: the
/// workspace's, or a nested repository's that holds the directory the command runs in. `Err`
/// says why git may use a repository whose configuration is not read here: `-C`,
/// `--git-dir`, `--work-tree`, a variable of [`REPOSITORY_VARIABLES`] assigned for it or
/// exported in the script, a directory only known when it runs or outside the workspace.
fn printing_repository(
    j: &Judge<'_>,
    cmd: &SimpleCommand,
    git: &Git<'_>,
) -> Result<std::path::PathBuf, String> {
    let elsewhere = "git may use another repository, whose configuration is not read here";
    if git.global.iter().any(|w| {
        w.literal().is_none_or(|t| {
            t.starts_with("-C") || t.starts_with("--git-dir") || t.starts_with("--work-tree")
        })
    }) {
        return Err(format!("{elsewhere} (`-C`, `--git-dir`, `--work-tree`)"));
    }
    let assigned = cmd
        .assignments
        .iter()
        .any(|a| REPOSITORY_VARIABLES.contains(&a.as_str()))
        || j.script.commands.iter().any(|c| {
            matches!(c.program(), Some("export" | "declare" | "typeset" | "env"))
                && c.words.iter().skip(1).any(|w| {
                    let name = w.raw.split('=').next().unwrap_or_default();
                    REPOSITORY_VARIABLES.contains(&name)
                })
        });
    if assigned {
        return Err(format!("{elsewhere} (`GIT_DIR`, `GIT_WORK_TREE`)"));
    }
    let root = j.places.root().to_path_buf();
    match &cmd.cwd {
        WorkingDir::Root => Ok(root),
        WorkingDir::Unknown => Err(format!("{elsewhere} (a directory only known when it runs)")),
        WorkingDir::Dir(_) => {
            let dir = j.places.locate(".", &cmd.cwd).path;
            if !dir.starts_with(&root) {
                return Err(format!("{elsewhere} (a directory outside the workspace)"));
            }
            Ok(dir
                .ancestors()
                .take_while(|a| a.starts_with(&root) && *a != root)
                .find(|a| std::fs::symlink_metadata(a.join(".git")).is_ok())
                .map_or(root.clone(), std::path::Path::to_path_buf))
        }
    }
}

/// `git init` / `git clone` with a template (`--template`, `-c init.templateDir=…`,
/// `GIT_TEMPLATE_DIR`): the template's hooks are copied into the repository's hooks, which
/// the next commit or checkout runs.
fn template(j: &mut Judge<'_>, cmd: &SimpleCommand, git: &Git<'_>) {
    let words = git.global.iter().chain(git.rest.iter());
    // git reads a long option from any unambiguous prefix of its name (`--tem=DIR`).
    let named = |t: &str| {
        let t = t.to_ascii_lowercase();
        let name = t.split('=').next().unwrap_or(&t);
        name.strip_prefix("--")
            .is_some_and(|n| !n.is_empty() && "template".starts_with(n))
            || t.starts_with("--temp")
            || t.contains("init.templatedir")
    };
    let variable = j.script.commands.iter().any(|c| {
        c.assignments.iter().any(|a| a == "GIT_TEMPLATE_DIR")
            || c.words.iter().any(|w| w.raw.contains("GIT_TEMPLATE_DIR"))
    });
    if variable || words.clone().any(|w| w.literal().is_some_and(named)) {
        return deny(
            j,
            cmd,
            "copies a template's hooks into the repository's `.git/hooks`",
        );
    }
    // A word only known when it runs may be `--template=DIR`.
    if let Some(w) = words
        .clone()
        .find(|w| w.literal().is_none() && (w.prefix.is_empty() || w.prefix.starts_with('-')))
    {
        let what = format!(
            "may be given a template whose hooks it copies into the repository (`{}` is only known when it runs)",
            w.raw
        );
        return binding(j, cmd, FILESYSTEM_PROTECTED_CONFIG, &what);
    }
    // `git clone -c KEY=VALUE` writes the key into the new repository's configuration.
    if git.sub == Some("clone") {
        let mut rest = git.rest.iter().filter_map(Word::literal);
        while let Some(t) = rest.next() {
            let value = if t == "-c" || (t.starts_with("--con") && !t.contains('=')) {
                rest.next()
            } else if let Some((_, v)) = t.split_once('=').filter(|_| t.starts_with("--con")) {
                Some(v)
            } else {
                t.strip_prefix("-c")
                    .filter(|v| !v.is_empty() && !t.starts_with("--"))
            };
            let Some(key) = value.map(|v| v.split('=').next().unwrap_or_default()) else {
                continue;
            };
            if !git_config::harmless_to_set(key) {
                return deny(
                    j,
                    cmd,
                    &format!(
                        "writes `{key}` in the cloned repository's git configuration, whose keys name programs git runs and its hooks"
                    ),
                );
            }
        }
    }
}

/// `git clean` with `-f`: it deletes untracked (with `-x`/`-X` ignored) files, protected
/// configuration and secrets among them, which `rm` may not delete either. A path it is
/// given that is or holds protected configuration is the hard deny; otherwise any protected
/// configuration or secret that git clean would delete (at any depth of the work tree, see
/// [`clean_reaches`]) is a binding ask.
fn clean(j: &mut Judge<'_>, cmd: &SimpleCommand, git: &Git<'_>) {
    let how = CleanOptions::read(git.rest);
    if how.dry && !how.forced {
        return;
    }
    for w in &how.paths {
        j.protected_tree(cmd, w, false);
    }
    if let Some(why) = clean_reaches(j, cmd, &how) {
        binding(
            j,
            cmd,
            FILESYSTEM_PROTECTED_CONFIG,
            &format!("deletes files git does not track, and {why}"),
        );
    }
}

/// `git stash` (`push`, `save`) with `-u`/`--include-untracked`, or `-a`/`--all` (ignored
/// files too), deletes the untracked files it stashes from the work tree at any depth, as
/// `git clean -d` (`-dx`) would (checked on a scratch repository: an untracked
/// `app/.claude/settings.json` and `new/deep/.envrc` are gone after `git stash -u`). Any
/// protected configuration or secret among them is a binding ask ([`clean_reaches`]; its
/// pathspecs are not read, so the whole tree counts).
fn stash_untracked(j: &mut Judge<'_>, cmd: &SimpleCommand, git: &Git<'_>) {
    let first = git.rest.first().map(Word::literal);
    let pushes = match first {
        None => true,
        Some(None) => true,
        Some(Some(t)) => matches!(t, "push" | "save") || t.starts_with('-'),
    };
    if !pushes {
        return;
    }
    let (mut untracked, mut ignored) = (false, false);
    for w in git.rest {
        match w.literal() {
            None => (untracked, ignored) = (true, true),
            Some("--") => break,
            Some("--include-untracked") => untracked = true,
            Some("--all") => (untracked, ignored) = (true, true),
            Some(t) if t.starts_with("--") => {}
            Some(t) if t.starts_with('-') => {
                // `-m MESSAGE` takes the rest of its cluster.
                let flags = t[1..].split('m').next().unwrap_or_default();
                untracked |= flags.contains(['u', 'a']);
                ignored |= flags.contains('a');
            }
            Some(_) => {}
        }
    }
    if !untracked {
        return;
    }
    let how = CleanOptions {
        forced: true,
        dirs: true,
        ignored,
        ..CleanOptions::default()
    };
    if let Some(why) = clean_reaches(j, cmd, &how) {
        binding(
            j,
            cmd,
            FILESYSTEM_PROTECTED_CONFIG,
            &format!("stashes and deletes files git does not track, and {why}"),
        );
    }
}

/// Whether the `git clean` options `rest` only list what it would delete (`-n` without `-f`).
pub(super) fn clean_is_dry_run(rest: &[Word]) -> bool {
    let how = CleanOptions::read(rest);
    how.dry && !how.forced
}

/// What a `git clean` command line asks for, read as git reads it (short options clustered,
/// `-e PATTERN` taking the rest of its cluster or the next word); a word only known when it
/// runs counts as every option that widens what is deleted.
#[derive(Default)]
struct CleanOptions<'w> {
    /// `-n`, `--dry-run`.
    dry: bool,
    /// `-f`, `--force` (or a word only known when it runs).
    forced: bool,
    /// `-f` given twice: nested repositories are deleted too (with `-d`).
    forced_twice: bool,
    /// `-d`: untracked directories are entered and deleted.
    dirs: bool,
    /// `-x` or `-X`: ignored files are deleted too (`-X` only them; read here as `-x`).
    ignored: bool,
    /// The pathspecs.
    paths: Vec<&'w Word>,
}

impl<'w> CleanOptions<'w> {
    fn read(rest: &'w [Word]) -> Self {
        let mut how = Self::default();
        let mut forces = 0;
        let mut options_done = false;
        let mut skip = false;
        for w in rest {
            if std::mem::take(&mut skip) {
                continue;
            }
            let Some(t) = w.literal() else {
                if options_done || !(w.prefix.is_empty() || w.prefix.starts_with('-')) {
                    how.paths.push(w);
                } else {
                    // May be any option, or a pathspec.
                    forces += 2;
                    how.dirs = true;
                    how.ignored = true;
                    how.paths.push(w);
                }
                continue;
            };
            if options_done || !t.starts_with('-') || t == "-" {
                how.paths.push(w);
                continue;
            }
            match t {
                "--" => options_done = true,
                "--force" => forces += 1,
                "--dry-run" => how.dry = true,
                "--exclude" => skip = true,
                _ if t.starts_with("--") => {
                    // `--exclude=P`, `--quiet`, `--interactive`: no wider reach. An unknown
                    // or abbreviated option (`--forc`) may be `--force`.
                    if !t.starts_with("--exclude=")
                        && !matches!(t, "--quiet" | "--interactive" | "--no-quiet")
                    {
                        forces += 1;
                    }
                }
                _ => {
                    for (i, c) in t.char_indices().skip(1) {
                        match c {
                            'f' => forces += 1,
                            'n' => how.dry = true,
                            'd' => how.dirs = true,
                            'x' | 'X' => how.ignored = true,
                            'e' => {
                                skip = i + 1 == t.len();
                                break;
                            }
                            _ => {}
                        }
                    }
                }
            }
        }
        how.forced = forces > 0;
        how.forced_twice = forces > 1;
        // With a pathspec, untracked directories are entered whatever `-d` says.
        how.dirs |= !how.paths.is_empty();
        how
    }
}

/// The most entries of the work tree [`clean_reaches`] looks at; past it the call is
/// unmodeled.
const MAX_CLEAN_ENTRIES: usize = 50_000;

/// Why `git clean` as `how` asks may delete protected configuration or a secret, if it
/// may. The work tree is walked as git clean walks it, at every depth: the repository's
/// own `.git` and submodules (gitlinks) are left, untracked directories are entered only
/// with `-d` (or a pathspec), a nested repository only with `-ff`, and files `.gitignore`
/// and `.git/info/exclude` ignore are left unless `-x`/`-X`. Every file the index does not
/// track below the pathspecs (a pathspec with a glob or magic: the whole tree) is one git
/// may delete: `-e` patterns, the user's own excludes file and `-X` (which keeps files that
/// are not ignored) are not read, which only widens what counts. A path only known when it
/// runs, an entry that cannot be read, an index that cannot be read and a tree larger than
/// [`MAX_CLEAN_ENTRIES`] count too.
fn clean_reaches(j: &Judge<'_>, cmd: &SimpleCommand, how: &CleanOptions<'_>) -> Option<String> {
    let root = j.places.root().to_path_buf();
    // A repository with no index yet (nothing ever added) tracks nothing.
    let fresh = root.join(".git").is_dir() && !root.join(".git/index").exists();
    let tracked = crate::paths::git_index::tracked(&root).or_else(|| fresh.then(Vec::new));
    let Some(tracked) = tracked else {
        return Some("the repository's index cannot be read".to_owned());
    };
    let mut prefixes = Vec::new();
    for w in &how.paths {
        let Some(t) = w.literal() else {
            return Some(format!("`{}` is only known when it runs", w.raw));
        };
        if t.starts_with(':') || t.contains(['*', '?', '[', '\\']) {
            prefixes.push(String::new());
            continue;
        }
        let located = j.places.locate(t, &cmd.cwd);
        match j.places.relative(&located.path) {
            Some(rel) => prefixes.push(rel.to_string_lossy().into_owned()),
            None => return Some(format!("`{t}` is not a path of the workspace")),
        }
    }
    let below = |rel: &str| {
        prefixes.is_empty()
            || prefixes.iter().any(|p| {
                p.is_empty()
                    || p == "."
                    || rel == p
                    || rel.starts_with(&format!("{p}/"))
                    || p.starts_with(&format!("{rel}/"))
            })
    };
    let files: std::collections::HashSet<String> = tracked.iter().cloned().collect();
    let mut dirs: std::collections::HashSet<String> = std::collections::HashSet::new();
    for t in &tracked {
        let mut at = t.as_str();
        while let Some((parent, _)) = at.rsplit_once('/') {
            if !dirs.insert(parent.to_owned()) {
                break;
            }
            at = parent;
        }
    }
    let at_risk = |rel: &str, is_dir: bool| -> Option<String> {
        let located = j.places.locate(rel, &WorkingDir::Root);
        if let Place::Sensitive(what) = &located.place {
            return Some(format!("the work tree holds `{rel}`, {what}"));
        }
        if is_dir {
            return None;
        }
        j.places
            .protected(&located, rel, &WorkingDir::Root)
            .map(|what| format!("the work tree holds `{rel}`, {what}"))
    };
    let files = std::sync::Arc::new(files);
    let (dirs_entered, forced_twice) = (how.dirs, how.forced_twice);
    let filter = {
        let (root, files) = (root.clone(), files.clone());
        move |entry: &ignore::DirEntry| {
            let path = entry.path();
            if !entry.file_type().is_some_and(|t| t.is_dir()) || path == root {
                return true;
            }
            let Some(rel) = path.strip_prefix(&root).ok().and_then(|r| r.to_str()) else {
                // A name that is not text: entered, and judged by what it holds.
                return true;
            };
            // The repository's own git directory, a submodule, and (without `-ff`) a
            // nested repository are left whole; so is an untracked directory without `-d`.
            let nested = path.join(".git").exists() || rel.ends_with("/.git");
            let leave = rel == ".git"
                || files.contains(rel)
                || (nested && !forced_twice)
                || (!dirs_entered && !dirs.contains(rel));
            !leave
        }
    };
    let walker = ignore::WalkBuilder::new(&root)
        .standard_filters(false)
        .hidden(false)
        .parents(false)
        .ignore(false)
        .git_global(false)
        .git_ignore(!how.ignored)
        .git_exclude(!how.ignored)
        .require_git(false)
        .follow_links(false)
        .filter_entry(filter)
        .build();
    for (seen, entry) in walker.enumerate() {
        if seen > MAX_CLEAN_ENTRIES {
            return Some(format!(
                "the work tree holds more than {MAX_CLEAN_ENTRIES} entries, more than are looked at"
            ));
        }
        let entry = match entry {
            Ok(entry) => entry,
            Err(e) => return Some(format!("the work tree cannot be read in full ({e})")),
        };
        let path = entry.path();
        if path == root {
            continue;
        }
        let Some(rel) = path.strip_prefix(&root).ok().map(|r| r.to_string_lossy()) else {
            return Some(format!("`{}` is not below the work tree", path.display()));
        };
        let is_dir = entry.file_type().is_some_and(|t| t.is_dir());
        if files.contains(rel.as_ref()) || !below(&rel) {
            continue;
        }
        if let Some(why) = at_risk(&rel, is_dir) {
            return Some(why);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use warrant_core::call::{EvaluationContext, PermissionMode, ToolCall};
    use warrant_core::evaluator::{Evaluator, Stance, Verdict};

    use crate::{PolicyConfig, PolicyEvaluator};

    /// Runs `git` with `args` in `dir`, quietly; whether it succeeded.
    fn git(dir: &std::path::Path, args: &[&str]) -> bool {
        std::process::Command::new("git")
            .args([
                "-c",
                "user.name=t",
                "-c",
                "user.email=t@t",
                "-c",
                "core.hooksPath=/dev/null",
            ])
            .args(args)
            .current_dir(dir)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    }

    /// Writes `text` at `rel` below `root`, with its directories.
    pub(super) fn put(root: &std::path::Path, rel: &str, text: &str) {
        let path = root.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    /// A workspace whose repository tracks `tracked` (committed), then holds `untracked`.
    pub(super) fn repository(tracked: &[&str], untracked: &[&str]) -> Option<tempfile::TempDir> {
        let ws = tempfile::tempdir().unwrap();
        if !git(ws.path(), &["init", "-q"]) {
            return None;
        }
        for rel in tracked {
            put(ws.path(), rel, "x\n");
        }
        if !tracked.is_empty() {
            assert!(git(ws.path(), &["add", "-A"]));
            assert!(git(ws.path(), &["commit", "-qm", "i"]));
        }
        for rel in untracked {
            put(ws.path(), rel, "SECRET=1\n");
        }
        Some(ws)
    }

    /// The policy's stance on `command` in `mode`, in the workspace `root`, with `home`.
    pub(super) async fn stance(
        root: &std::path::Path,
        home: &std::path::Path,
        mode: PermissionMode,
        command: &str,
    ) -> (Stance, String) {
        let policy = PolicyEvaluator::new(&PolicyConfig {
            home_dir: Some(home.to_path_buf()),
            sensitive_paths: Vec::new(),
            protected_paths: Vec::new(),
        })
        .unwrap();
        let call = ToolCall::new(
            "s1",
            "c1",
            "Bash",
            serde_json::json!({ "command": command }),
        );
        let cx = EvaluationContext::new(mode, root);
        match policy.evaluate(&call, &cx).await.unwrap() {
            Verdict::Decide { stance, rationale } => (stance, rationale.reason),
            other => panic!("{command}: {other:?}"),
        }
    }

    /// Each command's stance in Full Access, every mismatch listed at once.
    async fn expect(root: &std::path::Path, rows: &[(&str, bool)]) {
        let home = tempfile::tempdir().unwrap();
        let mut wrong = Vec::new();
        for (command, stops) in rows {
            let (s, why) = stance(root, home.path(), PermissionMode::FullAccess, command).await;
            let stopped = matches!(s, Stance::HardDeny | Stance::RequireAsk);
            if stopped != *stops {
                wrong.push(format!("{command}: {s:?} ({why})"));
            }
        }
        assert!(wrong.is_empty(), "\n{}", wrong.join("\n"));
    }

    #[tokio::test]
    async fn git_clean_reaches_protected_files_at_any_depth() {
        let Some(ws) = repository(
            &["app/main.rs", "sub/keep", ".gitignore"],
            &["app/.env", "notes.txt"],
        ) else {
            return;
        };
        expect(
            ws.path(),
            &[
                // app/ is tracked: `-f` alone deletes its untracked `.env`.
                ("git clean -f", true),
                ("git clean --force", true),
                ("git clean -f app", true),
                ("git clean -f -- '*.env'", true),
                ("git clean -f sub", false),
                ("git clean -n", false),
                ("git clean -fn", true),
            ],
        )
        .await;
        // Deeper, in a directory git does not track: only `-d` (or a pathspec) enters it.
        let Some(ws) = repository(&["a.txt"], &["sub/dir/.envrc"]) else {
            return;
        };
        expect(
            ws.path(),
            &[
                ("git clean -f", false),
                ("git clean -fd", true),
                ("git clean -f -d", true),
                ("git clean -fdx", true),
                ("git clean -f sub", true),
                ("git clean -fd other", false),
            ],
        )
        .await;
        // Ignored: only `-x`/`-X` delete it.
        let Some(ws) = repository(&["a.txt", "lib/x.rs"], &[]) else {
            return;
        };
        put(ws.path(), ".gitignore", "*.env\n");
        put(ws.path(), "lib/.env", "K=1\n");
        expect(
            ws.path(),
            &[
                ("git clean -fd", false),
                ("git clean -fdx", true),
                ("git clean -fX", true),
                ("git clean -f -x -e foo", true),
            ],
        )
        .await;
        // A nested repository is deleted only with `-ff`.
        let Some(ws) = repository(&["a.txt"], &["nested/.env"]) else {
            return;
        };
        assert!(git(&ws.path().join("nested"), &["init", "-q"]));
        expect(
            ws.path(),
            &[("git clean -fd", false), ("git clean -ffd", true)],
        )
        .await;
    }

    #[tokio::test]
    async fn git_config_reads_that_print_secrets_bind_in_every_mode() {
        let Some(ws) = repository(&["a.txt"], &[]) else {
            return;
        };
        let config = ws.path().join(".git/config");
        let mut text = std::fs::read_to_string(&config).unwrap();
        text.push_str("[http \"https://github.com/\"]\n\textraheader = AUTHORIZATION: basic eA==\n[user]\n\tname = A\n[remote \"origin\"]\n\turl = https://github.com/a/b\n");
        std::fs::write(&config, &text).unwrap();
        expect(
            ws.path(),
            &[
                ("git config -l", true),
                ("git config --list --show-origin", true),
                ("git config --local --list", true),
                ("git config --get-regexp http", true),
                ("git config get --all --regexp 'extra'", true),
                ("git config list", true),
                (
                    "git config --get http.https://github.com/.extraheader",
                    true,
                ),
                ("git config get http.https://github.com/.extraHeader", true),
                ("git config --get user.name", false),
                ("git config user.name", false),
                ("git config --get remote.origin.url", false),
                ("git config --global --list", false),
            ],
        )
        .await;
        // A file the configuration includes is printed too.
        text.push_str("[include]\n\tpath = extra.cfg\n");
        std::fs::write(&config, &text).unwrap();
        put(
            ws.path(),
            ".git/extra.cfg",
            "[gitlab]\n\ttoken = glpat-abc\n",
        );
        expect(
            ws.path(),
            &[
                ("git config --get gitlab.token", true),
                ("git config --get user.email", false),
            ],
        )
        .await;
    }

    #[tokio::test]
    async fn git_subcommands_that_write_only_keys_running_nothing_are_not_stopped() {
        let Some(ws) = repository(&["a.txt"], &[]) else {
            return;
        };
        assert!(git(ws.path(), &["branch", "feature"]));
        expect(
            ws.path(),
            &[
                ("git branch -u origin/main", false),
                ("git branch --set-upstream-to=origin/main feature", false),
                ("git branch --track t5 origin/main", false),
                ("git switch -c t3 --track=inherit feature", false),
                ("git submodule init", false),
                ("git submodule sync", false),
                ("git sparse-checkout init", false),
                // Writing the keys themselves, or the remotes, stays stopped.
                ("git config submodule.sm.update '!sh x'", true),
                ("git config branch.main.remote origin", true),
                ("git remote rename origin up", true),
            ],
        )
        .await;
    }

    #[tokio::test]
    async fn an_alias_of_a_configuration_file_is_judged_as_what_it_runs() {
        let Some(ws) = repository(&["a.txt"], &[]) else {
            return;
        };
        let home = tempfile::tempdir().unwrap();
        let config = ws.path().join(".git/config");
        let mut text = std::fs::read_to_string(&config).unwrap();
        text.push_str(
            "[alias]\n\tx = !rm -rf ~\n\tp = push --force\n\tq = \"!f() { cat ~/.ssh/id_rsa; }; f\"\n\tl = log --oneline\n",
        );
        std::fs::write(&config, text).unwrap();
        let full = PermissionMode::FullAccess;
        for command in ["git x", "git X", "git p origin main", "git q", "git -p x"] {
            let (s, why) = stance(ws.path(), home.path(), full, command).await;
            assert_eq!(s, Stance::HardDeny, "{command}: {why}");
        }
        // Git's own commands come before aliases; a name no file defines runs `git-NAME`.
        for command in ["git l", "git lfs pull", "git status", "git log"] {
            let (s, why) = stance(ws.path(), home.path(), full, command).await;
            assert!(
                !matches!(s, Stance::HardDeny | Stance::RequireAsk),
                "{command}: {why}"
            );
        }
        // Another repository's aliases are not read here; a bare one in the workspace is.
        let (s, why) = stance(ws.path(), home.path(), full, "git -C /tmp x").await;
        assert_eq!(s, Stance::RequireAsk, "{why}");
        assert!(git(ws.path(), &["init", "-q", "--bare", "r.git"]));
        put(ws.path(), "r.git/config", "[alias]\n\ty = !rm -rf ~\n");
        let (s, why) = stance(ws.path(), home.path(), full, "cd r.git && git y").await;
        assert_eq!(s, Stance::HardDeny, "{why}");
        let (s, why) = stance(ws.path(), home.path(), full, "git y").await;
        assert!(!matches!(s, Stance::HardDeny), "{why}");
        if std::env::var_os("GIT_CONFIG_GLOBAL").is_some()
            || std::env::var_os("XDG_CONFIG_HOME").is_some()
        {
            return;
        }
        // The user's configuration and the files it includes.
        put(
            home.path(),
            ".gitconfig",
            "[include]\n\tpath = ~/.more\n[alias]\n\tst = status\n",
        );
        put(home.path(), ".more", "[alias]\n\tnuke = \"!rm -rf ~\"\n");
        let (s, why) = stance(ws.path(), home.path(), full, "git nuke").await;
        assert_eq!(s, Stance::HardDeny, "{why}");
        let (s, why) = stance(ws.path(), home.path(), full, "git st").await;
        assert!(!matches!(s, Stance::HardDeny | Stance::RequireAsk), "{why}");
        // A configuration that cannot be read may define any alias.
        put(home.path(), ".more", "[alias\n\tnuke = x\n");
        let (s, why) = stance(ws.path(), home.path(), full, "git nuke").await;
        assert_eq!(s, Stance::RequireAsk, "{why}");
    }

    #[tokio::test]
    async fn git_credential_helpers_print_and_store_passwords_in_every_mode() {
        let Some(ws) = repository(&["a.txt"], &[]) else {
            return;
        };
        expect(
            ws.path(),
            &[
                (
                    "printf 'protocol=https\\nhost=github.com\\n\\n' | git credential fill",
                    true,
                ),
                ("git credential approve < creds.txt", true),
                ("git credential reject", true),
                ("echo host=github.com | git credential-store get", true),
                ("git credential-cache get", true),
                ("git --no-pager credential fill", true),
                ("git help credential", false),
            ],
        )
        .await;
    }

    #[tokio::test]
    async fn a_configuration_file_the_environment_names_is_read_as_git_reads_it() {
        let Some(ws) = repository(&["a.txt"], &[]) else {
            return;
        };
        put(ws.path(), ".env", "TOKEN=abc\n");
        put(ws.path(), "tok.cfg", "[hub]\n\toauthtoken = abc\n");
        put(ws.path(), "plain.cfg", "[user]\n\tname = a\n");
        expect(
            ws.path(),
            &[
                ("GIT_CONFIG_GLOBAL=.env git config -l", true),
                ("GIT_CONFIG_SYSTEM=.env git status", true),
                ("export GIT_CONFIG_GLOBAL=.env; git log", true),
                ("env GIT_CONFIG_GLOBAL=.env git status", true),
                ("GIT_CONFIG=.env git config --list", true),
                ("GIT_CONFIG_GLOBAL=tok.cfg git config -l", true),
                (
                    "GIT_CONFIG_GLOBAL=tok.cfg git config --get hub.oauthtoken",
                    true,
                ),
                ("GIT_CONFIG_GLOBAL=plain.cfg git -C src config -l", true),
                ("GIT_CONFIG_GLOBAL=plain.cfg git config -l", false),
                (
                    "GIT_CONFIG_GLOBAL=plain.cfg git config --get user.name",
                    false,
                ),
            ],
        )
        .await;
    }

    #[tokio::test]
    async fn git_writes_of_protected_configuration_speak_with_one_voice() {
        let Some(ws) = repository(&["a.txt", ".claude/settings.json"], &[]) else {
            return;
        };
        let home = tempfile::tempdir().unwrap();
        for (command, want) in [
            ("git config core.pager less", Stance::HardDeny),
            ("git lfs install --local", Stance::HardDeny),
            ("git stash", Stance::RequireAsk),
            ("git reset --hard", Stance::RequireAsk),
        ] {
            let (s, why) =
                stance(ws.path(), home.path(), PermissionMode::FullAccess, command).await;
            assert_eq!(s, want, "{command}: {why}");
            assert!(
                why.ends_with(": a person edits it, never a call."),
                "{command}: {why}"
            );
        }
    }

    #[tokio::test]
    async fn configuration_included_or_listed_by_other_means_is_read_too() {
        let Some(ws) = repository(&["a.txt"], &[]) else {
            return;
        };
        let config = ws.path().join(".git/config");
        let mut text = std::fs::read_to_string(&config).unwrap();
        text.push_str("[remote \"origin\"]\n\turl = https://u:ghp_x@github.com/a/b\n");
        std::fs::write(&config, &text).unwrap();
        put(ws.path(), ".env", "TOKEN=abc\n");
        let env = ws.path().join(".env").display().to_string();
        let rows = [
            ("git var -l".to_owned(), true),
            ("git ls-remote --get-url origin".to_owned(), true),
            (format!("git -c include.path={env} config -l"), true),
            (format!("git -cinclude.path={env} status"), true),
            (
                format!(
                    "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=include.path GIT_CONFIG_VALUE_0={env} git log"
                ),
                true,
            ),
            (
                format!("GIT_CONFIG_PARAMETERS=\"'include.path'='{env}'\" git status"),
                true,
            ),
            ("git --config-env=include.path=F config -l".to_owned(), true),
            ("git \"$X\" config -l".to_owned(), true),
            ("git var GIT_EDITOR".to_owned(), false),
            (
                "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=user.name GIT_CONFIG_VALUE_0=a git log"
                    .to_owned(),
                false,
            ),
        ];
        let rows: Vec<(&str, bool)> = rows.iter().map(|(c, b)| (c.as_str(), *b)).collect();
        expect(ws.path(), &rows).await;
    }

    #[tokio::test]
    async fn a_linked_worktree_prints_its_repository_configuration() {
        let Some(ws) = repository(&["a.txt"], &[]) else {
            return;
        };
        let config = ws.path().join(".git/config");
        let mut text = std::fs::read_to_string(&config).unwrap();
        text.push_str("[remote \"origin\"]\n\turl = https://u:ghp_x@github.com/a/b\n");
        std::fs::write(&config, &text).unwrap();
        let wt = ws.path().join("wt");
        assert!(git(ws.path(), &["worktree", "add", "-q", "wt"]));
        expect(
            &wt,
            &[
                ("git config -l", true),
                ("git remote -v", true),
                ("git config --get remote.origin.url", true),
                ("git config --get user.name", false),
            ],
        )
        .await;
        std::fs::write(&config, "[core]\n\tbare = false\n").unwrap();
        expect(&wt, &[("git config -l", false), ("git remote -v", false)]).await;
    }

    #[tokio::test]
    async fn git_stash_of_untracked_files_reaches_protected_files_at_any_depth() {
        let Some(ws) = repository(&["app/a.rs", ".gitignore"], &["app/.claude/settings.json"])
        else {
            return;
        };
        expect(
            ws.path(),
            &[
                ("git stash -u", true),
                ("git stash push --include-untracked", true),
                ("git stash save -u wip", true),
                ("git stash -a", true),
                ("git stash push -um wip", true),
                ("git stash", false),
                ("git stash list", false),
                // It prints the stash's untracked files, which may be any file stashed
                // earlier: binding for its content, whatever the work tree holds now.
                ("git stash show -u", true),
                ("git stash push -m u", false),
            ],
        )
        .await;
    }

    #[tokio::test]
    async fn git_clean_over_a_tree_larger_than_is_walked_binds() {
        let Some(ws) = repository(&["a.txt"], &[]) else {
            return;
        };
        let dir = ws.path().join("many");
        std::fs::create_dir(&dir).unwrap();
        for i in 0..=super::MAX_CLEAN_ENTRIES {
            std::fs::write(dir.join(i.to_string()), "").unwrap();
        }
        expect(
            ws.path(),
            &[
                ("git clean -fd", true),
                // Without `-d` the untracked directory is not entered.
                ("git clean -f", false),
            ],
        )
        .await;
    }

    #[tokio::test]
    async fn printed_configuration_is_the_repository_git_would_use() {
        let Some(ws) = repository(&["a.txt", "sub/b.txt"], &[]) else {
            return;
        };
        let nested = ws.path().join("nested");
        std::fs::create_dir(&nested).unwrap();
        assert!(git(&nested, &["init", "-q"]));
        let config = nested.join(".git/config");
        let mut text = std::fs::read_to_string(&config).unwrap();
        text.push_str("[remote \"origin\"]\n\turl = https://u:ghp_x@github.com/a/b\n[http]\n\textraheader = Authorization: x\n");
        std::fs::write(&config, &text).unwrap();
        expect(
            ws.path(),
            &[
                ("cd nested && git config -l", true),
                ("cd nested && git remote -v", true),
                ("cd nested/ && git config --get http.extraheader", true),
                ("git -C nested config -l", true),
                ("git --git-dir=nested/.git remote -v", true),
                ("GIT_DIR=nested/.git git config -l", true),
                ("export GIT_DIR=nested/.git; git remote -v", true),
                ("cd $D && git config -l", true),
                ("git config -l", false),
                ("git remote -v", false),
                ("cd sub && git config -l", false),
                ("cd nested && git config --get user.name", false),
            ],
        )
        .await;
    }
}
