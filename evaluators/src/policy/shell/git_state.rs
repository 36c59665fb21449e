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

use warrant_core::decision::Risk;
use warrant_core::evaluator::Stance;

use super::judge::Judge;
use crate::paths::{Place, git_config};
use crate::policy::codes::{FILESYSTEM_PROTECTED_CONFIG, FILESYSTEM_SENSITIVE_PATH};
use crate::policy::finding::quote;
use crate::shell::{SimpleCommand, Word, WorkingDir};

/// Configuration keys (lower case) whose values only choose among git's own behaviours and
/// name no program, path, remote or other file: writing them changes nothing that runs.
const HARMLESS_KEYS: &[&str] = &[
    "user.name",
    "user.email",
    "init.defaultbranch",
    "pull.rebase",
    "pull.ff",
    "push.default",
    "push.autosetupremote",
    "fetch.prune",
    "merge.conflictstyle",
    "rebase.autosquash",
    "rebase.autostash",
    "diff.algorithm",
    "color.ui",
    "core.autocrlf",
    "core.filemode",
    "core.ignorecase",
    "core.quotepath",
    "advice.detachedhead",
];

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
        i += if super::git::GLOBAL_WITH_VALUE.contains(&text) || text == "--config-env" {
            2
        } else {
            1
        };
    }
    let at = i.min(args.len());
    Git {
        global: &args[..at],
        sub: args.get(at).and_then(Word::literal),
        rest: args.get(at + 1..).unwrap_or_default(),
    }
}

/// Judges the git command `cmd` for what it does to git's own state.
pub(super) fn judge(j: &mut Judge<'_>, cmd: &SimpleCommand) {
    let git = split(cmd);
    match git.sub {
        Some("config") => config(j, cmd, &git),
        Some("remote") => remote(j, cmd, &git),
        Some("init" | "clone") => template(j, cmd, &git),
        Some("clean") => clean(j, cmd, &git),
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

fn binding(j: &mut Judge<'_>, cmd: &SimpleCommand, code: &'static str, what: &str) {
    let reason = format!("{} {what}: no mode settles it.", quote(cmd));
    j.add(Stance::RequireAsk, code, Risk::High, reason);
}

fn deny(j: &mut Judge<'_>, cmd: &SimpleCommand, what: &str) {
    let reason = format!(
        "{} {what}, protected configuration: a person edits it, never a call.",
        quote(cmd)
    );
    j.add(
        Stance::HardDeny,
        FILESYSTEM_PROTECTED_CONFIG,
        Risk::Critical,
        reason,
    );
}

/// `git config`: a write of a key not in [`HARMLESS_KEYS`] (or of a key, or in a way, only
/// known when it runs) is the hard deny of writing the configuration; a command that prints
/// remote URLs is checked for credentials.
fn config(j: &mut Judge<'_>, cmd: &SimpleCommand, git: &Git<'_>) {
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
            Some(Some(key)) => HARMLESS_KEYS.contains(&key.to_ascii_lowercase().as_str()),
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
    if file.is_some() {
        return;
    }
    let url_key = operands.iter().any(|w| {
        w.literal().is_none_or(|t| {
            let t = t.to_ascii_lowercase();
            t.ends_with("url") || t.starts_with("url.") || t.starts_with("remote.")
        })
    });
    if lists || url_key || operands.is_empty() {
        remote_urls(j, cmd, scope);
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
                remote_urls(j, cmd, "");
            }
        }
        Some(Some("get-url" | "show")) => remote_urls(j, cmd, ""),
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
fn remote_urls(j: &mut Judge<'_>, cmd: &SimpleCommand, scope: &str) {
    let root = j.places.root();
    let mut files = Vec::new();
    if !matches!(scope, "--global" | "--system") {
        files.push(root.join(".git/config"));
    }
    if scope != "--local" && scope != "--worktree" {
        files.extend(git_config::outer_configs(j.places.home()));
    }
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

/// `git init` / `git clone` with a template (`--template`, `-c init.templateDir=…`,
/// `GIT_TEMPLATE_DIR`): the template's hooks are copied into the repository's hooks, which
/// the next commit or checkout runs.
fn template(j: &mut Judge<'_>, cmd: &SimpleCommand, git: &Git<'_>) {
    let words = git.global.iter().chain(git.rest.iter());
    let named = |t: &str| {
        let t = t.to_ascii_lowercase();
        t.starts_with("--temp") || t.contains("init.templatedir")
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
            if !HARMLESS_KEYS.contains(&key.to_ascii_lowercase().as_str()) {
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
/// configuration or secret the work tree holds (at its top or in its dot-directories) and
/// the index does not track is a binding ask.
fn clean(j: &mut Judge<'_>, cmd: &SimpleCommand, git: &Git<'_>) {
    let texts: Vec<Option<&str>> = git.rest.iter().map(Word::literal).collect();
    let short = |t: &str, c: char| t.starts_with('-') && !t.starts_with("--") && t.contains(c);
    let dry = texts
        .iter()
        .any(|t| t.is_some_and(|t| short(t, 'n') || t == "--dry-run"));
    let forced = texts
        .iter()
        .any(|t| t.is_none_or(|t| short(t, 'f') || t == "--force"));
    if dry && !forced {
        return;
    }
    let mut options_done = false;
    let mut paths = Vec::new();
    let mut skip = false;
    for (w, t) in git.rest.iter().zip(&texts) {
        if std::mem::take(&mut skip) {
            continue;
        }
        match t {
            Some("--") if !options_done => options_done = true,
            Some("-e" | "--exclude") if !options_done => skip = true,
            Some(t) if !options_done && t.starts_with('-') => {}
            _ => paths.push(w),
        }
    }
    for w in &paths {
        j.protected_tree(cmd, w, false);
    }
    if let Some(why) = clean_reaches(j, cmd, &paths) {
        binding(
            j,
            cmd,
            FILESYSTEM_PROTECTED_CONFIG,
            &format!("deletes files git does not track, and {why}"),
        );
    }
}

/// Why `git clean` given `paths` (none: the whole work tree) may delete protected
/// configuration or a secret, if it may: such a file at the top of the work tree or in one of
/// its dot-directories, below the paths, that the index does not track; a path only known
/// when it runs, a directory that cannot be listed or an index that cannot be read.
fn clean_reaches(j: &Judge<'_>, cmd: &SimpleCommand, paths: &[&Word]) -> Option<String> {
    let root = j.places.root().to_path_buf();
    // A repository with no index yet (nothing ever added) tracks nothing.
    let fresh = root.join(".git").is_dir() && !root.join(".git/index").exists();
    let tracked = crate::paths::git_index::tracked(&root).or_else(|| fresh.then(Vec::new));
    let Some(tracked) = tracked else {
        return Some("the repository's index cannot be read".to_owned());
    };
    let mut prefixes = Vec::new();
    for w in paths {
        let Some(t) = w.literal() else {
            return Some(format!("`{}` is only known when it runs", w.raw));
        };
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
    let at_risk = |rel: &str, is_dir: bool| -> Option<String> {
        if !below(rel) || tracked.iter().any(|t| t == rel) {
            return None;
        }
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
    super::git::first_in_work_tree(&root, at_risk)
}
