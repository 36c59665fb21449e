//! `git`: which subcommands only read, which write the work tree, which talk to remotes, and
//! which rewrite a remote's history.

use warrant_core::decision::Risk;
use warrant_core::evaluator::Stance;

use super::judge::Judge;
use crate::paths::git_index::{Revision, revision};
use crate::policy::codes::{SHELL_NETWORK, SHELL_UNKNOWN_COMMAND};
use crate::policy::finding::quote;
use crate::shell::{SimpleCommand, Word, WorkingDir};

pub(super) mod blobs;
pub(super) mod options;

/// Subcommands that only read the repository.
const READ_ONLY: &[&str] = &[
    "status",
    "log",
    "diff",
    "show",
    "blame",
    "describe",
    "shortlog",
    "rev-parse",
    "rev-list",
    "ls-files",
    "ls-tree",
    "cat-file",
    "grep",
    "show-ref",
    "show-branch",
    "whatchanged",
    "merge-base",
    "name-rev",
    "for-each-ref",
    "count-objects",
    "check-ignore",
    "var",
    "version",
    "help",
    "diff-tree",
    "diff-files",
    "diff-index",
    "cherry",
    "range-diff",
];

/// Subcommands that talk to remotes.
const NETWORK: &[&str] = &["fetch", "pull", "clone", "ls-remote", "remote-update"];

/// Subcommands that discard work in the tree.
const DISCARDING: &[&str] = &["reset", "clean", "restore", "checkout", "stash"];

/// How many words git's own option `t` spans, itself and its value (one for an option git
/// does not know).
pub(super) fn global_span(t: &str) -> usize {
    crate::programs::global_option_span(t).unwrap_or(1)
}

pub(super) fn judge(j: &mut Judge<'_>, cmd: &SimpleCommand) {
    let canonical = options::canonical(cmd);
    let cmd = canonical.as_ref();
    let args = cmd.args();
    let mut i = 0;
    // Whether git may use a repository other than the workspace's.
    let mut elsewhere = match &cmd.cwd {
        WorkingDir::Root => false,
        WorkingDir::Dir(_) => j.places.locate(".", &cmd.cwd).place != crate::paths::Place::Inside,
        WorkingDir::Unknown => true,
    };
    while let Some(w) = args.get(i) {
        let Some(text) = w.literal() else { break };
        if !text.starts_with('-') {
            break;
        }
        elsewhere |= text.starts_with("-C")
            || text.starts_with("--git-dir")
            || text.starts_with("--work-tree");
        if text == "-C"
            && let Some(dir) = args.get(i + 1)
        {
            j.read(cmd, dir);
        }
        let display_only = text == "-c"
            && args
                .get(i + 1)
                .and_then(Word::literal)
                .is_some_and(crate::programs::display_setting);
        if !display_only
            && (text.starts_with("-c")
                || text.starts_with("--config-env")
                || text.starts_with("--exec-path"))
        {
            // Configuration can name programs git runs (`core.pager`, `core.fsmonitor`); what
            // binds of the command without it binds (`git -c x=y push --force`).
            let mut without = cmd.clone();
            let skip = usize::from(text == "-c" || text == "--config-env" || text == "--exec-path");
            without
                .words
                .drain(i + 1..=i + 1 + skip.min(args.len() - i - 1));
            let binding = super::reach::binding(j, &without, true);
            j.findings.extend(binding);
            // A setting that names a program git runs (`-c core.pager='sh -c …'`): code no
            // mode lets run unread. One only known when it runs may be such a setting.
            let setting = if text == "-c" {
                args.get(i + 1).map(Word::literal)
            } else {
                Some(text.strip_prefix("-c"))
            };
            let runs_program = match setting {
                Some(Some(s)) => {
                    let name = s.split('=').next().unwrap_or(s).to_ascii_lowercase();
                    let section = name.split('.').next().unwrap_or_default();
                    let key = name.rsplit('.').next().unwrap_or_default();
                    crate::paths::git_config::program_key(section, key)
                }
                Some(None) => true,
                None => false,
            };
            if runs_program {
                j.unknown_binding(
                    cmd,
                    "sets a program git runs for this run, which is not read here",
                );
            }
            return j.unknown(
                cmd,
                "overrides git's configuration for this run",
                Risk::High,
            );
        }
        if crate::programs::global_option_span(text).is_none() {
            return j.unknown(
                cmd,
                "takes an option of git's own it does not know",
                Risk::High,
            );
        }
        i += global_span(text);
    }
    let Some(sub) = args.get(i) else {
        return j.read_only(cmd);
    };
    let Some(name) = sub.literal() else {
        return j.unknown(
            cmd,
            "runs a git subcommand only known when it runs",
            Risk::Medium,
        );
    };
    let rest = &args[i + 1..];
    configured_alias(j, cmd, &args[..i], name, rest, elsewhere);
    for (k, w) in rest.iter().enumerate() {
        match w.literal() {
            Some("--output") => {
                if let Some(file) = rest.get(k + 1) {
                    j.write(cmd, file, None);
                }
            }
            Some(t) if t.starts_with("--output=") => {
                j.write(cmd, &Word::literal_text(&t["--output=".len()..]), None);
            }
            // `git archive -o FILE` (`-oFILE`, `-vo FILE`) writes FILE as `--output` does.
            Some(t)
                if name == "archive"
                    && !t.starts_with("--")
                    && let Some(at) = t.strip_prefix('-').and_then(|c| c.find('o')) =>
            {
                let attached = &t[at + 2..];
                if attached.is_empty() {
                    if let Some(file) = rest.get(k + 1) {
                        j.write(cmd, file, None);
                    }
                } else {
                    j.write(cmd, &Word::literal_text(attached), None);
                }
            }
            Some(t) if runs_configured_program(t) => {
                return j.unknown(cmd, "runs a program of git's configuration", Risk::High);
            }
            None if name == "grep" => {
                return j.unknown(
                    cmd,
                    "passes git grep options only known when it runs",
                    Risk::Medium,
                );
            }
            _ => {}
        }
    }
    // Paths restored from the repository (`git checkout REV -- PATH`, `git restore PATH`)
    // are written: protected configuration among them, or below a directory named, is the
    // hard deny.
    if matches!(
        name,
        "checkout" | "restore" | "reset" | "stash" | "switch" | "mv" | "rm" | "add"
    ) {
        for w in rest {
            j.protected_tree(cmd, w, false);
        }
    }
    // A configuration file named to `git config` (`-f F`) is written unless the command
    // plainly reads; `git lfs install` writes the global configuration (`--local` and
    // `--worktree` the repository's). The user's is protected configuration.
    named_files_written(j, cmd, name, rest);
    match configuration_file_written(name, rest) {
        Some(Some(file)) => j.write(cmd, &file, None),
        Some(None) => binding(
            j,
            cmd,
            "writes a configuration file only known when it runs, which",
        ),
        None => {}
    }
    // What the index records is what later commands write into the work tree: an entry of
    // protected configuration given by name is the hard deny of writing it, and a command
    // that rewrites the work tree from the repository may write it.
    index_entries(j, cmd, name, rest);
    if let Some((what, source)) = rewrites_work_tree(j, name, rest) {
        let why = if elsewhere {
            protected_in_repository(j, true, None, false)
        } else if let Some(why) = moved_by_another(j, cmd) {
            Some(why)
        } else {
            let specs = match &source {
                Source::Index(specs) => Some(specs.as_slice()),
                _ => None,
            };
            unread_tree(j, &source).or_else(|| {
                let specs = specs.filter(|_| cmd.cwd == WorkingDir::Root);
                // A checkout or restore from the index writes only files that differ from
                // it; `git stash` also puts back the staged ones, which need HEAD's tree.
                let unchanged_stay = matches!(name, "checkout" | "restore") && specs.is_some();
                protected_in_repository(j, false, specs, unchanged_stay)
            })
        };
        if let Some(why) = why {
            binding(j, cmd, &format!("{what}, and {why}: it"));
        }
    }
    match name {
        n if READ_ONLY.contains(&n) => j.read_only(cmd),
        "branch"
            if only_options(
                rest,
                &[
                    "-a",
                    "-r",
                    "-v",
                    "-vv",
                    "-l",
                    "--list",
                    "--all",
                    "--remotes",
                    "--show-current",
                    "--verbose",
                    "--no-color",
                    "--color",
                ],
            ) =>
        {
            j.read_only(cmd)
        }
        "tag" if rest.is_empty() || first_is(rest, &["-l", "--list"]) => j.read_only(cmd),
        "remote" if rest.is_empty() || first_is(rest, &["-v", "--verbose", "show", "get-url"]) => {
            j.read_only(cmd)
        }
        "config"
            if rest
                .iter()
                .filter_map(Word::literal)
                .any(|t| t.starts_with("--get") || t == "--list" || t == "-l") =>
        {
            j.read_only(cmd)
        }
        "stash" | "worktree" | "notes" | "reflog" | "submodule"
            if first_is(rest, &["list", "show", "status"])
                || (name == "reflog" && rest.is_empty()) =>
        {
            j.read_only(cmd)
        }
        // `send-pack` is the push under `git push`: the same refspecs and `--force`.
        "push" | "send-pack" => push(j, cmd, rest),
        n if NETWORK.contains(&n) => {
            let reason = format!("{} talks to a remote repository.", quote(cmd));
            j.add(Stance::DefaultAsk, SHELL_NETWORK, Risk::Medium, reason);
        }
        "reset" if rest.iter().any(|w| w.literal() == Some("--hard")) => {
            j.write_inside(cmd, "discards uncommitted work", Risk::High);
        }
        // A dry run only lists what it would delete.
        "clean" if super::git_state::clean_is_dry_run(rest) => j.read_only(cmd),
        "clean"
            if rest
                .iter()
                .filter_map(Word::literal)
                .any(|t| t.starts_with('-') && t.contains('f')) =>
        {
            j.write_inside(cmd, "deletes untracked files", Risk::High);
        }
        n if DISCARDING.contains(&n) => j.write_inside(cmd, "changes the work tree", Risk::Medium),
        _ => j.write_inside(cmd, "changes the repository", Risk::Medium),
    }
}

/// The most aliases of configuration files followed one within another (an alias whose code
/// runs git with another alias).
const MAX_ALIAS_DEPTH: usize = 4;

std::thread_local! {
    /// How many aliases of configuration files are being judged one within another.
    static ALIAS_DEPTH: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// `git NAME` where NAME is none of git's own commands runs the alias NAME of git's
/// configuration files (the system's, the user's, the repository's and those they include)
/// when one defines it: `!CODE` is shell code git runs from the top of the work tree, any
/// other definition a git command with the same options of git's own. Each definition is
/// judged as that command would be, its findings the command's own. When the repository
/// is not the workspace's (`elsewhere`: `-C`, `--git-dir`, a directory outside it or only
/// known when it runs), or a configuration cannot be read, what the alias runs is only
/// known when it runs: a binding ask.
fn configured_alias(
    j: &mut Judge<'_>,
    cmd: &SimpleCommand,
    global: &[Word],
    name: &str,
    rest: &[Word],
    elsewhere: bool,
) {
    if crate::programs::is_git_command(name) {
        return;
    }
    let unknown = |j: &mut Judge<'_>, why: &str| alias_unknown(j, cmd, name, why);
    let home = j.places.home();
    let mut files = crate::paths::git_config::outer_configs(home);
    if elsewhere {
        return unknown(j, "the repository it uses is not the workspace's");
    }
    // The repository git finds from the directory it runs in, or above it.
    let here = match &cmd.cwd {
        WorkingDir::Dir(_) => j.places.locate(".", &cmd.cwd).path,
        _ => j.places.root().to_path_buf(),
    };
    let Some(top) = here
        .ancestors()
        .find(|d| d.join(".git").exists() || bare(d))
    else {
        return alias_runs(j, cmd, global, name, rest, &files);
    };
    let found = if bare(top) {
        Ok(Some(top.to_path_buf()))
    } else {
        super::judge::git_dir_of(top)
    };
    let git_dir = match found {
        Ok(Some(dir)) => dir,
        Ok(None) => return alias_runs(j, cmd, global, name, rest, &files),
        Err(why) => return unknown(j, &why),
    };
    let mut dirs = vec![git_dir.clone()];
    match crate::paths::small_file::read_text(&git_dir.join("commondir")) {
        Ok(Some(common)) => dirs.insert(0, git_dir.join(common.trim())),
        Ok(None) => {}
        Err(why) => return unknown(j, &why),
    }
    for dir in &dirs {
        files.push(dir.join("config"));
        files.push(dir.join("config.worktree"));
    }
    alias_runs(j, cmd, global, name, rest, &files);
}

/// Whether git takes the directory `dir` for a git directory itself (a bare repository, or
/// the inside of `.git`) when it runs there: it holds `HEAD`, `objects` and `refs`.
fn bare(dir: &std::path::Path) -> bool {
    ["HEAD", "objects", "refs"]
        .iter()
        .all(|n| std::fs::symlink_metadata(dir.join(n)).is_ok())
}

/// The binding ask of `git NAME` whose alias NAME runs what is only known when it runs, as
/// `why` says.
fn alias_unknown(j: &mut Judge<'_>, cmd: &SimpleCommand, name: &str, why: &str) {
    super::git_state::binding(
        j,
        cmd,
        SHELL_UNKNOWN_COMMAND,
        &format!(
            "may run the git alias `{name}`, and {why}, so what it runs is only known when it runs"
        ),
    );
}

/// Judges what the alias `name` of the configuration `files` runs ([`configured_alias`]).
fn alias_runs(
    j: &mut Judge<'_>,
    cmd: &SimpleCommand,
    global: &[Word],
    name: &str,
    rest: &[Word],
    files: &[std::path::PathBuf],
) {
    let unknown = |j: &mut Judge<'_>, why: &str| alias_unknown(j, cmd, name, why);
    let definitions =
        match crate::paths::git_config::alias_definitions(files, j.places.home(), name) {
            Ok(found) => found,
            Err(why) => return unknown(j, &format!("git's configuration cannot be read: {why}")),
        };
    if definitions.is_empty() {
        return;
    }
    let depth = ALIAS_DEPTH.with(std::cell::Cell::get);
    if depth >= MAX_ALIAS_DEPTH {
        return unknown(j, "its aliases run one another deeper than is followed");
    }
    let words = |ws: &[Word]| {
        ws.iter()
            .map(|w| w.raw.as_str())
            .collect::<Vec<_>>()
            .join(" ")
    };
    for definition in definitions {
        // `!CODE` runs as `sh -c 'CODE "$@"' CODE ARGS…` from the work tree's top.
        let (code, start) = match definition.strip_prefix('!') {
            Some(code) => (format!("{code} {}", words(rest)), WorkingDir::Root),
            None => (
                format!("git {} {definition} {}", words(global), words(rest)),
                cmd.cwd.clone(),
            ),
        };
        let Ok(script) = crate::shell::parse_given(&code, start, false) else {
            unknown(j, &format!("its definition `{definition}` cannot be read"));
            continue;
        };
        ALIAS_DEPTH.with(|d| d.set(depth + 1));
        let (_, found) = super::judge_script(&script, j.places);
        ALIAS_DEPTH.with(|d| d.set(depth));
        j.findings.extend(found);
    }
}

/// Files and directories a git command writes by name: `git merge-file CURRENT BASE OTHER`
/// writes the merge into CURRENT (unless `-p`/`--stdout`), `git format-patch -o DIR` its
/// patches below DIR, `git bundle create FILE` the bundle. A protected name among them is
/// the hard deny, as its direct write.
fn named_files_written(j: &mut Judge<'_>, cmd: &SimpleCommand, name: &str, rest: &[Word]) {
    let literal = |k: usize| rest.get(k).and_then(Word::literal);
    match name {
        "merge-file" => {
            let mut k = 0;
            while let Some(w) = rest.get(k) {
                match w.literal() {
                    Some("-p" | "--stdout") => return,
                    Some("-L") => k += 1,
                    Some("--") => {
                        if let Some(current) = rest.get(k + 1) {
                            j.write(cmd, current, None);
                        }
                        return;
                    }
                    Some(t) if t.starts_with('-') => {}
                    _ => {
                        // A word only known when it runs may be `-p`: the write is judged.
                        return j.write(cmd, w, None);
                    }
                }
                k += 1;
            }
        }
        "format-patch" => {
            for (k, w) in rest.iter().enumerate() {
                let dir = match w.literal() {
                    Some("-o" | "--output-directory") => rest.get(k + 1).cloned(),
                    Some(t) if t.starts_with("--output-directory=") => {
                        Some(Word::literal_text(&t["--output-directory=".len()..]))
                    }
                    Some(t) if t.starts_with("-o") => Some(Word::literal_text(&t[2..])),
                    _ => None,
                };
                if let Some(dir) = dir {
                    j.protected_tree(cmd, &dir, false);
                    j.write(cmd, &dir, None);
                }
            }
        }
        "bundle" if literal(0) == Some("create") => {
            if let Some(file) = rest[1..]
                .iter()
                .find(|w| w.literal().is_none_or(|t| !t.starts_with('-')))
            {
                j.write(cmd, file, None);
            }
        }
        _ => {}
    }
}

/// The file `git config --file F` (`-f F`, `--file=F`, `-fF`) writes, unless the command
/// plainly reads (`--get…`, `-l`, `--list`, `get`, `list`); the global configuration
/// `git lfs install`/`uninstall` writes without `--local`, `--worktree` or `--system`.
/// `Some(None)` when the file is only known when it runs (`--file=$F`).
fn configuration_file_written(name: &str, rest: &[Word]) -> Option<Option<Word>> {
    let texts: Vec<Option<&str>> = rest.iter().map(Word::literal).collect();
    if name == "lfs" {
        let scoped = texts
            .iter()
            .any(|t| matches!(t, Some("--local" | "--worktree" | "--system")));
        return (first_is(rest, &["install", "uninstall"]) && !scoped)
            .then(|| Some(Word::literal_text("~/.gitconfig")));
    }
    if name != "config" {
        return None;
    }
    let reads = texts
        .iter()
        .any(|t| t.is_some_and(|t| t.starts_with("--get") || t == "-l" || t == "--list"))
        || texts
            .iter()
            .find(|t| t.is_none_or(|t| !t.starts_with('-')))
            .is_some_and(|t| matches!(t, Some("get" | "list")));
    if reads {
        return None;
    }
    rest.iter()
        .enumerate()
        .find_map(|(k, w)| match w.literal() {
            Some("-f" | "--file") => Some(rest.get(k + 1).cloned()),
            Some(t) if t.starts_with("--file=") => {
                Some(Some(Word::literal_text(&t["--file=".len()..])))
            }
            Some(t) if t.starts_with("-f") && !t.starts_with("--") => {
                Some(Some(Word::literal_text(&t[2..])))
            }
            None if w.raw.starts_with("--file") || w.raw.starts_with("-f") => Some(None),
            _ => None,
        })
}

/// Subcommands that read refs, the index or the configuration but no object's contents
/// (commits aside, which a partial clone always has).
const NO_CONTENTS: &[&str] = &[
    "rev-parse",
    "branch",
    "tag",
    "config",
    "remote",
    "show-ref",
    "for-each-ref",
    "symbolic-ref",
    "version",
    "help",
    "var",
    "worktree",
    "count-objects",
    "ls-files",
];

/// Options of `git ls-files` that read files' contents from the objects: `--eol`, `--format`
/// (`%(objectsize)`), `--with-tree` and the ignore rules of `.gitignore` files
/// (`--exclude-standard`, `--exclude-per-directory`, `--ignored`).
const LS_FILES_CONTENTS: &[&str] = &["--eol", "--format", "--with-tree", "--exclude", "--ignored"];

/// Whether the git command `cmd` may read the contents of the repository's objects (files,
/// trees), which a partial clone fetches from its promisor remote when they are missing:
/// any subcommand but those of [`NO_CONTENTS`] (`ls-files` with [`LS_FILES_CONTENTS`] and
/// `rev-parse REV:PATH` read objects), and
/// any command whose subcommand is not found here (a wrapper before `git`).
pub(super) fn reads_objects(cmd: &SimpleCommand) -> bool {
    let is_git = cmd
        .words
        .first()
        .and_then(Word::literal)
        .is_some_and(|w| w == "git" || w.ends_with("/git"));
    if !is_git {
        return true;
    }
    let args = cmd.args();
    let mut i = 0;
    while let Some(text) = args.get(i).and_then(Word::literal) {
        if !text.starts_with('-') {
            let rest = &args[i + 1..];
            // `git rev-parse REV:PATH` reads the trees down to the file.
            let tree_path = rest
                .iter()
                .any(|w| w.literal().is_none_or(|t| t.contains(':')));
            // `git ls-files` prints what it reads of files' contents (`--eol`, `--format`'s
            // sizes), reads a tree (`--with-tree`) and, like `git check-ignore`, the
            // `.gitignore` files the index holds outside a sparse checkout.
            let ls_contents = rest.iter().any(|w| {
                w.literal().is_none_or(|t| {
                    LS_FILES_CONTENTS.iter().any(|o| t.starts_with(o))
                        || (t.starts_with('-')
                            && !t.starts_with("--")
                            && t.contains(['i', 'x', 'X']))
                })
            });
            return !NO_CONTENTS.contains(&text)
                || (text == "ls-files" && ls_contents)
                || (text == "rev-parse" && tree_path);
        }
        i += global_span(text);
    }
    // No subcommand (`git --version`), or one only known when it runs.
    args.get(i).is_some()
}

/// `git push --force`, `-f`, `--force-with-lease`, `--mirror`, `+refspec`: rewrites a remote;
/// `--delete`, `-d`, `:refspec` and `--prune` delete its branches. (The lowering writes
/// abbreviated options out in full: `--mirr` is `--mirror`.)
fn push(j: &mut Judge<'_>, cmd: &SimpleCommand, rest: &[Word]) {
    let forced = rest.iter().filter_map(Word::literal).any(|t| {
        t.starts_with("--force")
            || matches!(t, "--mirror" | "--delete" | "--prune")
            || (t.starts_with('-') && !t.starts_with("--") && t.contains(['f', 'd']))
            || ((t.starts_with('+') || t.starts_with(':')) && t.len() > 1)
    }) || rest.iter().any(|w| {
        // A refspec forced or deleting whatever its run-time rest (`+$(echo main)`), an
        // option only known when it runs (`-$F`).
        w.literal().is_none() && w.prefix.starts_with(['+', ':', '-'])
    });
    if forced {
        return j.destructive(
            cmd,
            "force-pushes or deletes remote branches, rewriting the remote's history",
        );
    }
    let reason = format!("{} publishes commits to a remote repository.", quote(cmd));
    j.add(Stance::DefaultAsk, SHELL_NETWORK, Risk::High, reason);
}

fn only_options(rest: &[Word], allowed: &[&str]) -> bool {
    rest.iter().all(|w| {
        w.literal().is_some_and(|t| {
            allowed.contains(&t)
                || t.starts_with("--sort=")
                || t.starts_with("--format=")
                || t.starts_with("--contains")
                || t.starts_with("--merged")
                || t.starts_with("--no-merged")
        })
    })
}

fn first_is(rest: &[Word], names: &[&str]) -> bool {
    rest.first()
        .and_then(Word::literal)
        .is_some_and(|t| names.contains(&t))
}

/// `--ext-diff`, `--textconv` (git accepts abbreviated long options): options that run a
/// program of git's configuration (`diff.external`, `diff.<driver>.textconv`). Options
/// whose value is the program (`git grep -O`, `git rebase -x`) are lowered with the code
/// they run.
fn runs_configured_program(t: &str) -> bool {
    t.starts_with("--ext") || t.starts_with("--textc")
}

/// The entries a git command writes into the index by name: `update-index` (`--cacheinfo
/// MODE,OBJECT,PATH` hides the path in a comma field; `--index-info` reads them from its
/// input), `apply`/`am` (the names are in the patch or mailbox, read when it is a file of
/// the workspace), `read-tree` and `checkout-index` (a whole tree or index); objects and refs
/// built by hand (`hash-object -w`, `mktree`, `commit-tree`, `update-ref`, …), whose files a
/// later checkout writes. A protected name among them is the hard deny; names the policy
/// cannot read are a binding ask.
fn index_entries(j: &mut Judge<'_>, cmd: &SimpleCommand, name: &str, rest: &[Word]) {
    let binding = |j: &mut Judge<'_>, what: &str| binding(j, cmd, &format!("{what}, which"));
    match name {
        "update-index" => {
            for w in rest {
                let Some(text) = w.literal() else {
                    return binding(
                        j,
                        "writes index entries whose names are only known when it runs",
                    );
                };
                if text == "--index-info" || text == "--stdin" || text == "-z" {
                    return binding(j, "writes index entries named in its input");
                }
                if text.starts_with('-') {
                    continue;
                }
                // `MODE,OBJECT,PATH` (a path may hold commas: every tail is a candidate).
                for (k, _) in text.match_indices(',') {
                    j.protected_tree(cmd, &Word::literal_text(&text[k + 1..]), false);
                }
                j.protected_tree(cmd, w, false);
            }
        }
        "apply" | "am" => {
            let texts: Vec<Option<&str>> = rest.iter().map(Word::literal).collect();
            let only_reports = name == "apply"
                && !texts
                    .iter()
                    .any(|t| matches!(t, Some("--apply" | "--index" | "--cached")))
                && texts
                    .iter()
                    .any(|t| matches!(t, Some("--check" | "--stat" | "--numstat" | "--summary")));
            if only_reports
                || (name == "am" && first_is(rest, &["--abort", "--quit", "--show-current-patch"]))
            {
                return;
            }
            let mut files = Vec::new();
            for (w, t) in rest.iter().zip(&texts) {
                match t {
                    None => return binding(j, "applies changes only known when it runs"),
                    Some(t)
                        if t.starts_with("--directory")
                            || *t == "-p"
                            || t.starts_with("--include")
                            || t.starts_with("--exclude")
                            || (t.starts_with("-p") && t.len() > 2) =>
                    {
                        return binding(j, "applies a patch with its names changed");
                    }
                    Some(t) if t.starts_with('-') => {}
                    Some(_) => files.push(w),
                }
            }
            if files.is_empty() {
                return binding(j, "applies changes read from its input");
            }
            for w in files {
                let located = j.places.locate(w.text(), &cmd.cwd);
                let text = match crate::paths::small_file::read_text(&located.path) {
                    Ok(Some(text)) => text,
                    _ => return binding(j, &format!("applies `{}`, which cannot be read", w.raw)),
                };
                let mut names = Vec::new();
                crate::policy::filesystem::patch_names(&text, &mut names);
                for n in names {
                    if n == crate::policy::filesystem::UNREAD_NAME {
                        return binding(
                            j,
                            &format!("applies `{}`, whose names cannot all be read", w.raw),
                        );
                    }
                    j.protected_tree(cmd, &Word::literal_text(n), false);
                }
            }
        }
        "read-tree" => binding(
            j,
            "writes the index from a tree whose files the policy cannot see",
        ),
        "checkout-index" => binding(j, "writes the index's files into the work tree"),
        // Objects and refs built by hand hold files no call named; a checkout writes them.
        "hash-object"
            if rest.iter().any(|w| {
                w.literal().is_none_or(|t| {
                    t == "-w" || (t.starts_with('-') && !t.starts_with("--") && t.contains('w'))
                })
            }) =>
        {
            binding(
                j,
                "stores a file's contents as an object a checkout may write as any file",
            )
        }
        "mktree" | "commit-tree" | "update-ref" | "fast-import" | "unpack-objects"
        | "index-pack" | "replace" | "mktag" => binding(
            j,
            "builds objects or refs whose files the policy cannot see",
        ),
        _ => {}
    }
}

/// Where the files a git command writes into the work tree come from.
enum Source {
    /// The current commit, the index or patches whose names are read: what the repository
    /// holds now ([`protected_in_repository`] tells).
    Current,
    /// The index's files under these pathspecs (every tracked file when empty): a checkout
    /// or restore of paths, a stash of tracked changes. Untracked files stay.
    Index(Vec<String>),
    /// The trees of these revisions (as written), known only when each names the current
    /// commit.
    Revisions(Vec<String>),
    /// Trees the policy does not read: other commits (picked, merged, rebased, stashed,
    /// bisected, a submodule's) or a remote's (pulled, cloned).
    Unread,
}

/// What a git command writes into the work tree from the repository without naming the
/// files, if it does, and where they come from: a branch or commit checked out, a merge,
/// rebase or pick, a stash restored, a hard reset, a tree read with `-u`, commits pulled or
/// mailed in, a repository cloned. A word before `--` is a revision unless it is a path of
/// the workspace and no ref of that name exists (git takes a word that is both for the
/// revision).
fn rewrites_work_tree(j: &Judge<'_>, name: &str, rest: &[Word]) -> Option<(&'static str, Source)> {
    let texts: Vec<Option<&str>> = rest.iter().map(Word::literal).collect();
    let has = |f: &dyn Fn(&str) -> bool| texts.iter().any(|t| t.is_none_or(f));
    let dashdash = texts.iter().position(|t| *t == Some("--"));
    let before = &rest[..dashdash.unwrap_or(rest.len())];
    let git_dir = j.places.root().join(".git");
    let is_path = |t: &str| {
        dashdash.is_none()
            && j.places.locate(t, &WorkingDir::Root).path.exists()
            && match std::fs::symlink_metadata(&git_dir) {
                // No repository of its own: git finds none, or one above it.
                Err(_) => true,
                Ok(meta) => meta.is_dir() && revision(&git_dir, t) == Revision::None,
            }
    };
    // The revision operands before `--` (`-` is the previous branch), skipping the values
    // of `skip_values`.
    let revisions = |skip_values: &[&str]| {
        let mut skip = false;
        let mut found = Vec::new();
        for w in before {
            if std::mem::take(&mut skip) {
                continue;
            }
            match w.literal() {
                Some(t) if skip_values.contains(&t) => skip = true,
                Some(t) if t.starts_with('-') && t != "-" => {}
                Some(t) if is_path(t) => {}
                _ => found.push(w),
            }
        }
        found
    };
    let of = |found: Vec<&Word>| {
        if found.is_empty() {
            Source::Current
        } else if found.iter().any(|w| w.literal().is_none()) {
            Source::Unread
        } else {
            Source::Revisions(found.iter().map(|w| w.raw.clone()).collect())
        }
    };
    match name {
        "reset" => {
            let found = revisions(&[]);
            if has(&|t| matches!(t, "--hard" | "--merge" | "--keep")) {
                Some(("resets the work tree to a commit", of(found)))
            } else if dashdash.is_none()
                && found
                    .iter()
                    .any(|w| w.literal().is_none_or(|t| t != "HEAD"))
            {
                Some(("resets the index to another commit", Source::Current))
            } else {
                None
            }
        }
        "checkout" | "switch" => {
            const CREATES: &[&str] = &[
                "-b",
                "-B",
                "-c",
                "-C",
                "--orphan",
                "--create",
                "--force-create",
            ];
            let found = revisions(CREATES);
            let creates = has(&|t| CREATES.contains(&t));
            let forced = has(&|t| {
                t == "-f"
                    || t == "--force"
                    || t == "--discard-changes"
                    || t.starts_with("--merge")
                    || t == "-m"
            });
            if !found.is_empty() {
                Some(("checks out files of another branch or commit", of(found)))
            } else if forced {
                Some(("checks out files of the current commit", Source::Current))
            } else if name == "checkout"
                && !creates
                && let Some(specs) = pathspecs(rest)
            {
                Some(("restores files from the index", Source::Index(specs)))
            } else if !creates
                && name == "switch"
                && dashdash.is_none()
                && before
                    .iter()
                    .any(|w| w.literal().is_none_or(|t| !t.starts_with('-') || t == "-"))
            {
                Some(("checks out another branch", Source::Unread))
            } else {
                None
            }
        }
        "restore" => {
            // `--source=REV`, `--source REV`, `-sREV`, `-s REV`.
            let mut source = None;
            for (k, t) in texts.iter().enumerate() {
                let rev = match t {
                    None => return Some(("restores files from another commit", Source::Unread)),
                    Some("-s" | "--source") => rest.get(k + 1).and_then(Word::literal),
                    Some(t) if t.starts_with("--source=") => Some(&t["--source=".len()..]),
                    Some(t) if t.starts_with("-s") => Some(&t[2..]),
                    Some(_) => continue,
                };
                source = Some(match rev {
                    Some(rev) => Source::Revisions(vec![rev.to_owned()]),
                    None => Source::Unread,
                });
            }
            match source {
                Some(s) => Some(("restores files from another commit", s)),
                None => pathspecs(rest)
                    .map(|specs| ("restores files from the index", Source::Index(specs))),
            }
        }
        "merge" | "rebase" | "cherry-pick" | "revert" | "pull" => {
            Some(("writes files of other commits", Source::Unread))
        }
        "am" | "apply" => Some(("writes files of patches", Source::Current)),
        "stash" if first_is(rest, &["pop", "apply", "branch"]) => {
            Some(("restores stashed files", Source::Unread))
        }
        // `git stash` (push, save) puts tracked files back as the current commit has them,
        // and with `-u`/`-a` deletes untracked (and ignored) files.
        "stash"
            if rest.is_empty()
                || first_is(rest, &["push", "save"])
                || texts
                    .first()
                    .is_some_and(|t| t.is_none_or(|t| t.starts_with('-'))) =>
        {
            let untracked = has(&|t| {
                matches!(t, "-u" | "-a" | "--include-untracked" | "--all")
                    || (t.starts_with('-') && !t.starts_with("--") && t.contains(['u', 'a']))
            });
            Some((
                "puts files back as the current commit has them",
                if untracked {
                    Source::Current
                } else {
                    Source::Index(Vec::new())
                },
            ))
        }
        "read-tree" if has(&|t| t == "-u" || t == "--reset" || t == "-m") => {
            Some(("writes a tree into the work tree", Source::Current))
        }
        "checkout-index" => Some((
            "writes files of the index into a work tree",
            Source::Current,
        )),
        "filter-branch" => Some(("rewrites every commit's files", Source::Unread)),
        "worktree" if first_is(rest, &["add"]) => Some(("checks out a work tree", Source::Unread)),
        "submodule" if first_is(rest, &["update", "add"]) => {
            Some(("checks out submodules", Source::Unread))
        }
        "submodule" if first_is(rest, &["init", "absorbgitdirs"]) => {
            Some(("changes submodules", Source::Current))
        }
        "bisect" if !first_is(rest, &["log", "visualize", "view", "terms", "help"]) => {
            Some(("checks out other commits", Source::Unread))
        }
        "sparse-checkout" if !first_is(rest, &["list", "help"]) => {
            Some(("checks out files of the index", Source::Current))
        }
        "clone" if !has(&|t| matches!(t, "--bare" | "--mirror" | "-n" | "--no-checkout")) => {
            Some(("checks out a repository it clones", Source::Unread))
        }
        _ => None,
    }
}

/// Why the work tree a command writes from the current commit or the index may hold files
/// of a tree the policy does not read, if it may: another git command of the script moves
/// HEAD, the current branch or the index to another commit (`git reset --soft REV`,
/// `git reset REV`, `git symbolic-ref HEAD REF`, `git update-ref`, `git read-tree REV`,
/// `git replace`, `git fetch --update-head-ok`, `git update-index --index-info`; git refuses
/// `git branch -f`/`-M` onto a branch a work tree has checked out). Any other command of the script counts, before or after
/// (a loop runs a later one first); a git subcommand only known when it runs may be one.
pub(super) fn moved_by_another(j: &Judge<'_>, cmd: &SimpleCommand) -> Option<String> {
    let git_dir = j.places.root().join(".git");
    j.script
        .commands
        .iter()
        .filter(|c| !std::ptr::eq(*c, cmd) && c.words != cmd.words && c.program() == Some("git"))
        .find_map(|c| {
            let git = super::git_state::split(c);
            let moves = match git.sub {
                None => c.args().len() > git.global.len(),
                Some(sub) => moves_head(j, &git_dir, c, sub, git.rest),
            };
            moves.then(|| {
                format!(
                    "{} may move HEAD, the current branch or the index to a commit whose files the policy does not read",
                    quote(c)
                )
            })
        })
}

/// Whether the git subcommand `sub` with `rest` may point HEAD, the current branch or the
/// index at another commit ([`moved_by_another`]).
fn moves_head(
    j: &Judge<'_>,
    git_dir: &std::path::Path,
    c: &SimpleCommand,
    sub: &str,
    rest: &[Word],
) -> bool {
    let texts: Vec<Option<&str>> = rest.iter().map(Word::literal).collect();
    let dashdash = texts.iter().position(|t| *t == Some("--"));
    let before = &texts[..dashdash.unwrap_or(texts.len())];
    let operands = || {
        before
            .iter()
            .filter(|t| t.is_none_or(|t| !t.starts_with('-') || t == "-"))
    };
    let has = |f: &dyn Fn(&str) -> bool| texts.iter().any(|t| t.is_none_or(f));
    match sub {
        "reset" => operands().any(|t| match t {
            None => true,
            Some("HEAD" | "@") => false,
            Some(t) => {
                dashdash.is_some()
                    || !j.places.locate(t, &c.cwd).path.exists()
                    || revision(git_dir, t) != Revision::None
            }
        }),
        "symbolic-ref" => operands().count() >= 2,
        "update-ref" | "read-tree" => true,
        "replace" => {
            !has(&|t| matches!(t, "-l" | "--list" | "-d" | "--delete")) && operands().count() > 0
        }
        "fetch" | "pull" => has(&|t| t == "-u" || t == "--update-head-ok"),
        "update-index" => has(&|t| t == "--index-info"),
        _ => false,
    }
}

/// The pathspecs of a `git checkout`/`git restore` that restores paths from the index: the
/// operands after `--`, else those that are not options (a word only known when it runs, or
/// `--pathspec-from-file`, is `.`, every file); `None` when there is none.
fn pathspecs(rest: &[Word]) -> Option<Vec<String>> {
    if rest.iter().any(|w| {
        w.literal()
            .is_some_and(|t| t.starts_with("--pathspec-from-file"))
    }) {
        return Some(vec![".".to_owned()]);
    }
    let dashdash = rest.iter().position(|w| w.literal() == Some("--"));
    let words = match dashdash {
        Some(d) => &rest[d + 1..],
        None => rest,
    };
    let mut specs: Vec<String> = words
        .iter()
        .filter_map(|w| match w.literal() {
            None => Some(".".to_owned()),
            Some(t) if t.starts_with('-') && dashdash.is_none() => None,
            Some(t) => Some(t.to_owned()),
        })
        .collect();
    // `-p`/`--patch` (`-fp`, `--patc`) without a pathspec picks hunks of every file.
    let patch = rest[..dashdash.unwrap_or(rest.len())].iter().any(|w| {
        w.literal().is_some_and(|t| {
            t.starts_with("--patc")
                || (t.starts_with('-')
                    && !t.starts_with("--")
                    && !t[1..].starts_with(['b', 'B', 'c', 'C', 's', 'U'])
                    && t.contains('p'))
        })
    });
    if patch && specs.is_empty() {
        specs.push(".".to_owned());
    }
    (!specs.is_empty()).then_some(specs)
}

/// Why the files a rewrite of the work tree writes from `source` are not known, if they are
/// not: trees of other commits or of a remote, which the policy does not read (objects are
/// compressed and packed; `git ls-tree` would run git). A revision naming the current commit
/// (read from the refs: `git checkout main` on `main`, `git reset --hard origin/main` level
/// with it) writes the current commit's files.
fn unread_tree(j: &Judge<'_>, source: &Source) -> Option<String> {
    let git_dir = j.places.root().join(".git");
    let unread = "the policy does not read";
    match source {
        Source::Current | Source::Index(_) => None,
        Source::Unread => Some(format!("the trees it writes are ones {unread}")),
        // No repository of its own: [`protected_in_repository`] tells.
        Source::Revisions(_) if std::fs::symlink_metadata(&git_dir).is_err() => None,
        Source::Revisions(revs) => {
            let head = revision(&git_dir, "HEAD");
            revs.iter().find_map(|rev| {
                let same = matches!(&head, Revision::Object(h) if revision(&git_dir, rev) == Revision::Object(h.clone()));
                (!same).then(|| {
                    format!("`{rev}` may name a commit other than the current one, whose files {unread}")
                })
            })
        }
    }
}

/// Why the workspace's repository may carry protected configuration, if it may: its index
/// tracks a protected path, the index cannot be read, or the repository git would use is
/// one above the workspace or, when `elsewhere` (`-C`, `--git-dir`, `--work-tree`, a
/// directory outside the workspace or only known when it runs), any other. Without any
/// repository git changes nothing. With `index_only`, only tracked files under those
/// pathspecs (all when empty) count, and the work tree's untracked files do not. With
/// `unchanged_stay`, a tracked file the work tree holds as the index records it (git's stat
/// check, [`crate::paths::git_index::Index::unchanged`]) is not written and does not
/// count. `git stash` and `git reset --hard` also put back what the index records differently
/// from HEAD, whose tree the policy does not read: every tracked protected file counts there.
fn protected_in_repository(
    j: &Judge<'_>,
    elsewhere: bool,
    index_only: Option<&[String]>,
    unchanged_stay: bool,
) -> Option<String> {
    let root = j.places.root();
    if elsewhere {
        return Some("the repository it uses may not be the workspace's".to_owned());
    }
    if std::fs::symlink_metadata(root.join(".git")).is_err() {
        // No repository of its own: git finds one above it, or fails.
        return root
            .ancestors()
            .skip(1)
            .any(|dir| std::fs::symlink_metadata(dir.join(".git")).is_ok())
            .then(|| "the repository is not the workspace's own".to_owned());
    }
    if index_only.is_none()
        && let Some(why) = protected_on_disk(j)
    {
        return Some(why);
    }
    let Some(index) = crate::paths::git_index::Index::of(root) else {
        return Some("the repository's index cannot be read".to_owned());
    };
    let specs = index_only.unwrap_or_default();
    let under = |p: &str| {
        specs.is_empty()
            || specs.iter().any(|spec| {
                let spec = spec.trim_start_matches("./").trim_end_matches('/');
                spec.is_empty()
                    || spec == "."
                    || spec.starts_with(':')
                    || spec.contains(['*', '?', '[', '\\'])
                    || spec.contains("..")
                    || p == spec
                    || p.strip_prefix(spec).is_some_and(|r| r.starts_with('/'))
            })
    };
    let changed = |p: &str| !unchanged_stay || !index.unchanged(p);
    index.paths().filter(|p| under(p)).find_map(|p| {
        let located = j.places.locate(p, &WorkingDir::Root);
        j.places
            .protected(&located, p, &WorkingDir::Root)
            .filter(|_| changed(p))
            .map(|what| format!("the repository tracks `{p}`, {what}"))
    })
}

/// The binding ask of a git command that `what` may write protected configuration
/// (`what` ends with the subject of "may write …").
fn binding(j: &mut Judge<'_>, cmd: &SimpleCommand, what: &str) {
    super::git_state::protected_config(
        j,
        cmd,
        Stance::RequireAsk,
        &format!("{what} may write protected configuration"),
    );
}

/// Protected configuration in the work tree, tracked or not (a checkout overwrites an ignored
/// file the commit it checks out holds): the workspace's entries and those of its
/// dot-directories (`.claude/settings.local.json`); a directory that cannot be listed may
/// hold one.
fn protected_on_disk(j: &Judge<'_>) -> Option<String> {
    first_in_work_tree(j.places.root(), |rel, _| {
        let located = j.places.locate(rel, &WorkingDir::Root);
        j.places
            .protected(&located, rel, &WorkingDir::Root)
            .map(|what| format!("the work tree holds `{rel}`, {what}"))
    })
}

/// The first answer `found` gives for an entry of the work tree at `root` (its path relative
/// to `root`, and whether it is a directory): the entries at its top but `.git`, and those
/// of its dot-directories; or why a directory among them cannot be listed.
pub(super) fn first_in_work_tree(
    root: &std::path::Path,
    found: impl Fn(&str, bool) -> Option<String>,
) -> Option<String> {
    let top = match work_tree_entries(root, "") {
        Ok(top) => top,
        Err(why) => return Some(why),
    };
    for (rel, dir) in top {
        if rel == ".git" {
            continue;
        }
        if let Some(why) = found(&rel, dir) {
            return Some(why);
        }
        if dir && rel.starts_with('.') {
            match work_tree_entries(root, &rel) {
                Ok(inner) => {
                    if let Some(why) = inner.iter().find_map(|(r, d)| found(r, *d)) {
                        return Some(why);
                    }
                }
                Err(why) => return Some(why),
            }
        }
    }
    None
}

/// The entries of the directory `rel` of the work tree at `root` (`""`: its top), as paths
/// relative to `root`, each with whether it is a directory; or why it cannot be listed.
fn work_tree_entries(root: &std::path::Path, rel: &str) -> Result<Vec<(String, bool)>, String> {
    let dir = root.join(rel);
    let entries = std::fs::read_dir(&dir)
        .map_err(|e| format!("`{}` cannot be listed: {e}", dir.display()))?;
    Ok(entries
        .filter_map(Result::ok)
        .map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            let dir = e.file_type().is_ok_and(|t| t.is_dir());
            (
                if rel.is_empty() {
                    name
                } else {
                    format!("{rel}/{name}")
                },
                dir,
            )
        })
        .collect())
}
