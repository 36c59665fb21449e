//! `git`: which subcommands only read, which write the work tree, which talk to remotes, and
//! which rewrite a remote's history.

use warrant_core::decision::Risk;
use warrant_core::evaluator::Stance;

use super::judge::Judge;
use crate::policy::codes::SHELL_NETWORK;
use crate::policy::finding::quote;
use crate::shell::{SimpleCommand, Word};

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

/// Options of `git` itself that take the next word.
const GLOBAL_WITH_VALUE: &[&str] = &[
    "-C",
    "-c",
    "--git-dir",
    "--work-tree",
    "--namespace",
    "--exec-path",
];

pub(super) fn judge(j: &mut Judge<'_>, cmd: &SimpleCommand) {
    let args = cmd.args();
    let mut i = 0;
    while let Some(w) = args.get(i) {
        let Some(text) = w.literal() else { break };
        if !text.starts_with('-') {
            break;
        }
        if text == "-C"
            && let Some(dir) = args.get(i + 1)
        {
            j.read(cmd, dir);
        }
        if text.starts_with("-c")
            || text.starts_with("--config-env")
            || text.starts_with("--exec-path")
        {
            // Configuration can name programs git runs (`core.pager`, `core.fsmonitor`).
            return j.unknown(
                cmd,
                "overrides git's configuration for this run",
                Risk::High,
            );
        }
        i += if GLOBAL_WITH_VALUE.contains(&text) {
            2
        } else {
            1
        };
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
            Some(t) if runs_configured_program(name, t) => {
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
        "checkout" | "restore" | "reset" | "stash" | "switch" | "mv" | "rm"
    ) {
        for w in rest {
            j.protected_tree(cmd, w, false);
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
        "push" => push(j, cmd, rest),
        n if NETWORK.contains(&n) => {
            let reason = format!("{} talks to a remote repository.", quote(cmd));
            j.add(Stance::DefaultAsk, SHELL_NETWORK, Risk::Medium, reason);
        }
        "reset" if rest.iter().any(|w| w.literal() == Some("--hard")) => {
            j.write_inside(cmd, "discards uncommitted work", Risk::High);
        }
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
    "check-ignore",
    "ls-files",
];

/// Whether the git command `cmd` may read the contents of the repository's objects (files,
/// trees), which a partial clone fetches from its promisor remote when they are missing:
/// any subcommand but those of [`NO_CONTENTS`] (`ls-files --with-tree` reads a tree), and
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
            let with_tree = rest
                .iter()
                .any(|w| w.literal().is_none_or(|t| t.starts_with("--with-tree")));
            return !NO_CONTENTS.contains(&text) || (text == "ls-files" && with_tree);
        }
        i += if GLOBAL_WITH_VALUE.contains(&text) {
            2
        } else {
            1
        };
    }
    // No subcommand (`git --version`), or one only known when it runs.
    args.get(i).is_some()
}

/// `git push --force`, `-f`, `--force-with-lease`, `--mirror`, `+refspec`: rewrites a remote.
fn push(j: &mut Judge<'_>, cmd: &SimpleCommand, rest: &[Word]) {
    let forced = rest.iter().filter_map(Word::literal).any(|t| {
        t.starts_with("--force")
            || t == "--mirror"
            || (t.starts_with('-') && !t.starts_with("--") && t.contains('f'))
            || (t.starts_with('+') && t.len() > 1)
    });
    if forced {
        return j.destructive(cmd, "force-pushes, rewriting the remote's history");
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

/// `git grep -O[PAGER]` / `--open-files-in-pager[=PAGER]`, `--ext-diff`, `--textconv`:
/// options that run a program (git accepts abbreviated long options and clustered short ones).
fn runs_configured_program(sub: &str, t: &str) -> bool {
    let grep_pager = sub == "grep"
        && (t.starts_with("--op")
            || (t.starts_with('-') && !t.starts_with("--") && t.contains('O')));
    grep_pager || t.starts_with("--ext") || t.starts_with("--textc")
}
