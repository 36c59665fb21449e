//! What a git command prints of the files stored in the repository's objects, and which git
//! commands drop commits or objects for good.
//!
//! A file committed once lives on in the objects: `git show HEAD:.env` names it, but a diff, a
//! patch log, a grep of a revision, an export, an archive or an object printed by its id
//! prints it too without naming it. Such a command is judged as a recursive read of the
//! tracked tree under its pathspecs: a secret tracked there is printed, as by `cat` of the
//! secret itself (binding in every mode). An object named by its id or read from the
//! command's input may be any file of any commit, removed ones among them: binding as well.

use warrant_core::decision::Risk;
use warrant_core::evaluator::Stance;

use super::super::judge::Judge;
use crate::paths::Place;
use crate::paths::git_index::{Revision, revision};
use crate::policy::codes::{FILESYSTEM_SENSITIVE_TREE, SHELL_DESTRUCTIVE};
use crate::policy::finding::quote;
use crate::shell::{SimpleCommand, Word, WorkingDir};

/// Diff options that print file contents (git reads them exactly: no prefixes, no clusters).
const PATCH: &[&str] = &[
    "-p",
    "-u",
    "--patch",
    "--patch-with-raw",
    "--patch-with-stat",
    "-W",
    "--function-context",
    "--binary",
    "--cc",
    "-c",
    "--dd",
    "--remerge-diff",
    "-m",
    "--check",
    "--full-diff",
];

/// Diff options with a value that print file contents (`-U3`, `--unified=3`, `-L1,5:f`).
const PATCH_PREFIXES: &[&str] = &[
    "-U",
    "--unified",
    "--word-diff",
    "--color-words",
    "-L",
    "--diff-merges",
];

/// Options that print names or counts instead of the patch a command prints by default.
const NO_PATCH: &[&str] = &[
    "-s",
    "--no-patch",
    "--stat",
    "--numstat",
    "--shortstat",
    "--dirstat",
    "--summary",
    "--name-only",
    "--name-status",
    "--raw",
    "--compact-summary",
    "--quiet",
];

/// What of the repository's objects a git command prints.
#[derive(Debug, PartialEq, Eq)]
enum Prints {
    /// No file contents from the objects (or only files it names, judged by name).
    Nothing,
    /// Contents of tracked files under these pathspecs (every file when empty), from any
    /// commit the command reaches.
    Tracked(Vec<String>),
    /// Contents of tracked files under these pathspecs that differ between the work tree and
    /// the index (`git diff` without revisions): a file the work tree holds as the index
    /// records it is not printed.
    Changed(Vec<String>),
    /// Objects that may be any file of any commit (`why` says how they are named).
    AnyObject(&'static str),
}

/// Judges the git subcommand `sub` with its words `rest`: file contents from the objects
/// that may hold a secret are a binding ask, and so is dropping commits or objects git can
/// no longer recover.
pub(in crate::policy::shell) fn judge(
    j: &mut Judge<'_>,
    cmd: &SimpleCommand,
    sub: &str,
    rest: &[Word],
) {
    if let Some(what) = discards(sub, rest) {
        super::super::git_state::binding(j, cmd, SHELL_DESTRUCTIVE, what);
    }
    let root = j.places.root().to_path_buf();
    let found = match printed(&root, sub, rest) {
        Prints::Nothing => return,
        Prints::AnyObject(why) => Some(why.to_owned()),
        Prints::Tracked(specs) => secret_under(j, cmd, &specs, false),
        Prints::Changed(specs) => secret_under(j, cmd, &specs, true),
    };
    if let Some(why) = found {
        let reason = format!(
            "{} prints file contents from the repository's objects, and {why}: the secret's content is printed, as by reading it.",
            quote(cmd)
        );
        j.add(
            Stance::RequireAsk,
            FILESYSTEM_SENSITIVE_TREE,
            Risk::High,
            reason,
        );
    }
}

/// Why a tracked file under `specs` (relative to the workspace; every file when empty) may be
/// a secret, if one may: its name or where its link leads is secret, or the index cannot be
/// read. With `changed`, a file the work tree holds as the index records it does not count.
fn secret_under(
    j: &Judge<'_>,
    cmd: &SimpleCommand,
    specs: &[String],
    changed: bool,
) -> Option<String> {
    let root = j.places.root();
    if std::fs::symlink_metadata(root.join(".git")).is_err() {
        // No repository of its own: the checks of the repository git finds speak.
        return None;
    }
    let Some(paths) = crate::paths::git_index::tracked(root) else {
        return Some("the repository's index cannot be read".to_owned());
    };
    if paths.len() > crate::paths::MAX_TREE_ENTRIES {
        return Some("the repository tracks more files than can be checked".to_owned());
    }
    // Pathspecs are relative to the command's directory: elsewhere than the top, every file.
    let all = specs.is_empty() || cmd.cwd != WorkingDir::Root;
    paths
        .iter()
        .filter(|p| all || specs.iter().any(|s| covers(s, p)))
        .find_map(|p| match j.places.locate(p, &WorkingDir::Root).place {
            Place::Sensitive(what) => {
                let unchanged = changed && crate::paths::git_index::unchanged_in_work_tree(root, p);
                (!unchanged).then(|| format!("the repository tracks `{p}`, {what}"))
            }
            _ => None,
        })
}

/// Whether the pathspec `spec` may cover the tracked path `path`: magic (`:(glob)`), globs
/// and `..` may cover anything.
fn covers(spec: &str, path: &str) -> bool {
    let spec = spec.trim_start_matches("./").trim_end_matches('/');
    spec.is_empty()
        || spec == "."
        || spec.starts_with(':')
        || spec.contains(['*', '?', '[', '\\'])
        || spec.contains("..")
        || path == spec
        || path.strip_prefix(spec).is_some_and(|r| r.starts_with('/'))
}

/// What the git subcommand `sub` with `rest` prints of the repository's objects, in the
/// workspace whose top is `root`.
fn printed(root: &std::path::Path, sub: &str, rest: &[Word]) -> Prints {
    let texts: Vec<Option<&str>> = rest.iter().map(Word::literal).collect();
    let dashdash = texts.iter().position(|t| *t == Some("--"));
    let before = &texts[..dashdash.unwrap_or(texts.len())];
    let has = |names: &[&str]| before.iter().any(|t| t.is_some_and(|t| names.contains(&t)));
    let has_prefix = |names: &[&str]| {
        before
            .iter()
            .any(|t| t.is_some_and(|t| names.iter().any(|n| t.starts_with(n))))
    };
    // A word only known when it runs may be any option.
    let unknown = before.iter().any(Option::is_none);
    let patch = unknown || has(PATCH) || has_prefix(PATCH_PREFIXES);
    let no_patch = has(NO_PATCH) || has_prefix(&["--dirstat=", "--stat="]);
    // The pathspecs after `--` (a word only known when it runs: every file).
    let after: Vec<String> = match dashdash {
        Some(d) if texts[d + 1..].iter().all(Option::is_some) => texts[d + 1..]
            .iter()
            .flatten()
            .map(|t| (*t).to_owned())
            .collect(),
        _ => Vec::new(),
    };
    let operands: Vec<Option<&str>> = before
        .iter()
        .copied()
        .filter(|t| t.is_none_or(|t| !t.starts_with('-') || t == "-"))
        .collect();
    let git_dir = root.join(".git");
    // A word before `--` is a path when it is one in the workspace and no ref has its name.
    let is_path = |t: &str| root.join(t).exists() && revision(&git_dir, t) == Revision::None;
    match sub {
        "cat-file" => {
            if has_prefix(&["--batch-command"])
                || before
                    .iter()
                    .any(|t| t.is_some_and(|t| t == "--batch" || t.starts_with("--batch=")))
            {
                return Prints::AnyObject(
                    "it prints objects its input names, which may be any file of any commit",
                );
            }
            if has_prefix(&["--batch-check"]) || has(&["-t", "-s", "-e"]) {
                return Prints::Nothing;
            }
            match operands.last() {
                None => Prints::Nothing,
                Some(Some(t)) if t.contains(':') && !t.starts_with(":/") => Prints::Nothing,
                Some(Some(t))
                    if matches!(*t, "HEAD" | "@")
                        || t.ends_with("^{commit}")
                        || t.ends_with("^{tree}") =>
                {
                    Prints::Nothing
                }
                Some(_) => Prints::AnyObject(
                    "it prints an object named by its id or a ref, which may be any file of any commit",
                ),
            }
        }
        "unpack-file" | "pack-objects" => Prints::AnyObject(
            "it copies objects named by id or by its input, which may be any file of any commit",
        ),
        // `stash.showPatch` makes a plain `git stash show` print the patch, and
        // `-u` (or `stash.showIncludeUntracked`) the stashed untracked files.
        "stash" if texts.first() == Some(&Some("show")) => {
            if patch || has(&["-u", "--include-untracked", "--only-untracked"]) {
                Prints::AnyObject("it prints stashed changes, untracked files among them")
            } else if no_patch {
                Prints::Nothing
            } else {
                Prints::Tracked(Vec::new())
            }
        }
        "grep" => {
            if has(&["--no-index", "--untracked"]) {
                return Prints::Nothing;
            }
            if has(&["--cached"]) {
                return Prints::Tracked(after);
            }
            // The pattern is the first operand unless an option gives it.
            let given = before.iter().any(|t| {
                t.is_some_and(|t| {
                    t == "-e" || t == "-f" || t.starts_with("--regexp") || t.starts_with("--file")
                })
            });
            let words = grep_operands(&texts[..dashdash.unwrap_or(texts.len())]);
            let revisions = words
                .iter()
                .skip(usize::from(!given))
                .any(|t| t.is_none_or(|t| !is_path(t)));
            if revisions {
                Prints::Tracked(after)
            } else {
                Prints::Nothing
            }
        }
        "fast-export" if !has(&["--no-data"]) => Prints::Tracked(after),
        "bundle" if texts.first() == Some(&Some("create")) => Prints::Tracked(Vec::new()),
        "merge-tree" => Prints::Tracked(Vec::new()),
        "archive" if !has(&["-l", "--list"]) && !has_prefix(&["--remote"]) => {
            let words = valued_operands(
                &texts,
                &[
                    "-o",
                    "--output",
                    "--prefix",
                    "--format",
                    "--add-file",
                    "--add-virtual-file",
                    "--mtime",
                    "--exec",
                ],
            );
            match words.split_first() {
                Some((_, specs)) if !specs.is_empty() && specs.iter().all(Option::is_some) => {
                    Prints::Tracked(specs.iter().flatten().map(|t| (*t).to_owned()).collect())
                }
                _ => Prints::Tracked(Vec::new()),
            }
        }
        "format-patch" => Prints::Tracked(after),
        "diff" | "diff-files" | "diff-index" | "diff-tree" | "show" | "range-diff" => {
            let by_default = matches!(sub, "diff" | "show" | "range-diff");
            if !(patch || (by_default && !no_patch)) || has(&["--no-index"]) {
                return Prints::Nothing;
            }
            // `git show REV:path …`: only the files it names, judged by name.
            if sub == "show"
                && !operands.is_empty()
                && operands
                    .iter()
                    .all(|t| t.is_some_and(|t| t.contains(':') && !t.starts_with(":/")))
            {
                return Prints::Nothing;
            }
            let revisions = operands.iter().any(|t| t.is_none_or(|t| !is_path(t)));
            let mut specs = after;
            if dashdash.is_none() {
                specs.extend(operands.iter().flatten().map(|t| (*t).to_owned()));
            }
            let index_side = has(&["--cached", "--staged"]) || has_prefix(&["--merge-base"]);
            if (sub == "diff" && !revisions && !index_side) || sub == "diff-files" {
                Prints::Changed(specs)
            } else {
                Prints::Tracked(if revisions && dashdash.is_none() {
                    Vec::new()
                } else {
                    specs
                })
            }
        }
        "log" | "whatchanged" | "reflog" if patch => Prints::Tracked(after),
        _ => Prints::Nothing,
    }
}

/// The operands of `git grep` before `--`: words that are no option nor an option's value.
fn grep_operands<'t>(texts: &[Option<&'t str>]) -> Vec<Option<&'t str>> {
    valued_operands(
        texts,
        &[
            "-e",
            "-f",
            "-A",
            "-B",
            "-C",
            "-m",
            "--max-depth",
            "--threads",
            "--max-count",
            "--after-context",
            "--before-context",
            "--context",
            "--regexp",
            "--file",
        ],
    )
}

/// The words of `texts` that are no option nor the separate value of one of `valued`.
fn valued_operands<'t>(texts: &[Option<&'t str>], valued: &[&str]) -> Vec<Option<&'t str>> {
    let mut skip = false;
    let mut found = Vec::new();
    for t in texts {
        if std::mem::take(&mut skip) {
            continue;
        }
        match t {
            Some(t) if valued.contains(t) => skip = true,
            Some(t) if t.starts_with('-') && *t != "-" => {}
            _ => found.push(*t),
        }
    }
    found
}

/// What the git subcommand `sub` with `rest` drops for good, if it drops commits, refs or
/// objects git cannot recover afterwards: a branch deleted unmerged (`-D`, `-d -f`) or
/// overwritten (`-M`, `-C`), reflog entries expired or deleted (the only way back to commits
/// no branch holds), unreachable objects pruned (`git prune`, `git gc --prune=…`), stash
/// entries dropped, a linked work tree removed with its changes (`--force`).
fn discards(sub: &str, rest: &[Word]) -> Option<&'static str> {
    let texts: Vec<Option<&str>> = rest.iter().map(Word::literal).collect();
    let short = |c: char| {
        texts
            .iter()
            .any(|t| t.is_none_or(|t| t.starts_with('-') && !t.starts_with("--") && t.contains(c)))
    };
    let long = |names: &[&str]| {
        texts.iter().any(|t| {
            t.is_some_and(|t| {
                names
                    .iter()
                    .any(|n| t == *n || t.starts_with(&format!("{n}=")))
            })
        })
    };
    // `parse-options` takes any unique prefix of a long option this subcommand reads as is.
    let abbreviates = |full: &str| {
        texts
            .iter()
            .any(|t| t.is_some_and(|t| t.len() > 3 && full.starts_with(t)))
    };
    let first = texts
        .iter()
        .find(|t| t.is_none_or(|t| !t.starts_with('-')))
        .copied()
        .flatten();
    // A dry run only when a literal word says so.
    let dry = texts.iter().flatten().any(|t| {
        *t == "--dry-run" || (t.starts_with('-') && !t.starts_with("--") && t.contains('n'))
    });
    match sub {
        "branch"
            if short('D')
                || short('M')
                || short('C')
                || ((short('d') || long(&["--delete"])) && (short('f') || long(&["--force"]))) =>
        {
            Some(
                "deletes or overwrites a branch whose commits may be held by nothing else, which discards them for good",
            )
        }
        "reflog"
            if matches!(first, Some("expire" | "delete" | "drop"))
                || texts.iter().any(Option::is_none) =>
        {
            Some("drops reflog entries, the only way back to commits no branch holds")
        }
        "prune" if !dry => Some("deletes unreachable objects for good"),
        "gc" if long(&["--prune"]) && !long(&["--no-prune"]) => {
            Some("deletes unreachable objects for good")
        }
        "stash"
            if matches!(first, Some("clear" | "drop"))
                || texts.first().is_some_and(Option::is_none) =>
        {
            Some("drops stashed changes for good")
        }
        "worktree" if first == Some("remove") && (short('f') || abbreviates("--force")) => {
            Some("deletes a linked work tree with its uncommitted changes")
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::{Prints, discards, printed};
    use crate::shell::Word;

    fn words(text: &str) -> Vec<Word> {
        text.split_whitespace().map(Word::literal_text).collect()
    }

    fn prints(sub: &str, rest: &str) -> Prints {
        printed(std::path::Path::new("/nonexistent-root"), sub, &words(rest))
    }

    #[test]
    fn objects_named_by_id_or_input_may_be_any_file() {
        for (sub, rest) in [
            ("cat-file", "--batch"),
            ("cat-file", "--batch=%(objectname)"),
            ("cat-file", "--batch-command"),
            ("cat-file", "-p 1234abcd"),
            ("cat-file", "blob 1234abcd"),
            ("cat-file", "-p main"),
            ("unpack-file", "1234abcd"),
            ("pack-objects", "--stdout"),
            ("stash", "show -p"),
            ("stash", "show -u"),
        ] {
            assert!(
                matches!(prints(sub, rest), Prints::AnyObject(_)),
                "{sub} {rest}"
            );
        }
        for (sub, rest) in [
            ("cat-file", "-t 1234abcd"),
            ("cat-file", "-s 1234abcd"),
            ("cat-file", "--batch-check"),
            ("cat-file", "-p HEAD"),
            ("cat-file", "-p HEAD~2^{tree}"),
            ("cat-file", "-p HEAD:src/main.rs"),
            ("stash", "show --stat"),
        ] {
            assert_eq!(prints(sub, rest), Prints::Nothing, "{sub} {rest}");
        }
    }

    #[test]
    fn diffs_logs_greps_exports_print_tracked_contents() {
        for (sub, rest) in [
            ("log", "-p"),
            ("log", "--all -p -1"),
            ("log", "-U1"),
            ("log", "--word-diff=plain"),
            ("whatchanged", "-p"),
            ("diff-tree", "-p HEAD"),
            ("diff-tree", "--cc HEAD"),
            ("diff", "4b825dc642cb6eb9a060e54bf8d69288fbee4904 HEAD"),
            ("diff", "--cached"),
            ("diff", "HEAD --stat -p"),
            ("show", ""),
            ("show", "--binary"),
            ("show", "HEAD HEAD:src/main.rs"),
            ("grep", "API HEAD"),
            ("grep", "-e x main"),
            ("grep", "--cached x"),
            ("fast-export", "HEAD"),
            ("format-patch", "-1 --stdout"),
            ("bundle", "create - HEAD"),
            ("archive", "HEAD"),
            ("range-diff", "a b c"),
            ("stash", "show"),
        ] {
            assert_eq!(
                prints(sub, rest),
                Prints::Tracked(Vec::new()),
                "{sub} {rest}"
            );
        }
        assert_eq!(
            prints("log", "-p -- src"),
            Prints::Tracked(vec!["src".to_owned()])
        );
        assert_eq!(
            prints("archive", "--prefix x/ HEAD src"),
            Prints::Tracked(vec!["src".to_owned()])
        );
        assert_eq!(prints("diff", ""), Prints::Changed(Vec::new()));
        assert_eq!(prints("diff-files", "-p"), Prints::Changed(Vec::new()));
    }

    #[test]
    fn names_and_counts_print_no_contents() {
        for (sub, rest) in [
            ("log", ""),
            ("log", "--stat"),
            ("log", "--oneline --graph --all"),
            ("diff", "--stat"),
            ("diff", "HEAD --name-only"),
            ("diff-tree", "-r HEAD"),
            ("show", "--stat"),
            ("show", "-s HEAD"),
            ("show", "HEAD:src/main.rs"),
            ("grep", "TODO"),
            ("grep", "-e TODO -- src"),
            ("fast-export", "--no-data HEAD"),
            ("archive", "--list"),
            ("status", ""),
        ] {
            assert_eq!(prints(sub, rest), Prints::Nothing, "{sub} {rest}");
        }
    }

    #[test]
    fn commands_that_drop_commits_or_objects_for_good() {
        for (sub, rest) in [
            ("branch", "-D feature"),
            ("branch", "-d -f feature"),
            ("branch", "--delete --force feature"),
            ("branch", "-M main"),
            ("reflog", "expire --expire=now --all"),
            ("reflog", "delete HEAD@{1}"),
            ("prune", ""),
            ("gc", "--prune=now"),
            ("stash", "clear"),
            ("stash", "drop"),
            ("worktree", "remove --force x"),
        ] {
            assert!(discards(sub, &words(rest)).is_some(), "{sub} {rest}");
        }
        for (sub, rest) in [
            ("branch", "-d feature"),
            ("branch", "-a"),
            ("reflog", ""),
            ("reflog", "show"),
            ("prune", "-n"),
            ("gc", ""),
            ("stash", "list"),
            ("stash", "show -p"),
            ("worktree", "remove x"),
            ("worktree", "list"),
        ] {
            assert!(discards(sub, &words(rest)).is_none(), "{sub} {rest}");
        }
    }

    #[test]
    fn pathspecs_cover_what_they_name() {
        assert!(super::covers("src", "src/main.rs"));
        assert!(super::covers("./", ".env"));
        assert!(super::covers("*.rs", ".env"));
        assert!(super::covers(":(exclude)x", ".env"));
        assert!(!super::covers("src", ".env"));
        assert!(!super::covers("src", "srcx/.env"));
    }

    /// The policy's stance on `command` in `mode` in the workspace `root`, with why.
    async fn stance(
        root: &std::path::Path,
        mode: warrant_core::call::PermissionMode,
        command: &str,
    ) -> (warrant_core::evaluator::Stance, String) {
        use warrant_core::call::{EvaluationContext, ToolCall};
        use warrant_core::evaluator::{Evaluator, Verdict};
        let home = tempfile::tempdir().unwrap();
        let policy = crate::PolicyEvaluator::new(&crate::PolicyConfig {
            home_dir: Some(home.path().to_path_buf()),
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

    /// Whether the policy stops `command` in Full Access in the workspace `root` (a hard
    /// deny or a binding ask), with why.
    async fn stops(root: &std::path::Path, command: &str) -> (bool, String) {
        use warrant_core::evaluator::Stance;
        let (s, why) = stance(
            root,
            warrant_core::call::PermissionMode::FullAccess,
            command,
        )
        .await;
        (matches!(s, Stance::HardDeny | Stance::RequireAsk), why)
    }

    /// A repository tracking `.env` and `src/main.rs`, committed; `None` without git.
    fn repository() -> Option<tempfile::TempDir> {
        let ws = tempfile::tempdir().unwrap();
        let git = |args: &[&str]| {
            std::process::Command::new("git")
                .args(["-c", "user.name=t", "-c", "user.email=t@t"])
                .args(["-c", "core.hooksPath=/dev/null"])
                .args(args)
                .current_dir(ws.path())
                .output()
                .is_ok_and(|o| o.status.success())
        };
        if !git(&["init", "-q"]) {
            return None;
        }
        std::fs::create_dir(ws.path().join("src")).unwrap();
        std::fs::write(ws.path().join(".env"), "API_KEY=1\n").unwrap();
        std::fs::write(ws.path().join("src/main.rs"), "fn main() {}\n").unwrap();
        // Past the second the files were written in when the index is: git's stat check
        // trusts it.
        std::thread::sleep(std::time::Duration::from_millis(1100));
        assert!(git(&["add", "-A"]) && git(&["commit", "-qm", "i"]));
        Some(ws)
    }

    #[tokio::test]
    async fn a_tracked_secret_printed_from_the_objects_binds_in_full_access() {
        let Some(ws) = repository() else { return };
        let mut wrong = Vec::new();
        for (command, stop) in [
            ("git cat-file --batch <<< HEAD:.env", true),
            ("git cat-file -p $(git rev-parse HEAD:.env)", true),
            ("git cat-file blob 1234abcd", true),
            ("git unpack-file 1234abcd", true),
            ("git grep API HEAD", true),
            ("git grep -e x $(git rev-list --all)", true),
            ("git fast-export HEAD", true),
            (
                "git diff 4b825dc642cb6eb9a060e54bf8d69288fbee4904 HEAD",
                true,
            ),
            ("git diff-tree -p HEAD", true),
            ("git log -p", true),
            ("git log -p --all -1", true),
            ("git whatchanged -p", true),
            ("git format-patch -1 --stdout", true),
            ("git bundle create - HEAD", true),
            ("git archive HEAD", true),
            ("git show", true),
            ("git show --binary", true),
            ("git stash show -p", true),
            ("git diff --cached", true),
            ("git branch -D feature", true),
            ("git reflog expire --expire=now --all", true),
            ("git gc --prune=now", true),
            ("git prune", true),
            ("git stash drop", true),
            ("git stash clear", true),
            ("git worktree remove --force x", true),
            // Names and counts only, files the pathspecs leave out, a secret unchanged.
            ("git diff --stat", false),
            ("git diff", false),
            ("git diff -- src", false),
            ("git log -p -- src", false),
            ("git diff HEAD -- src", false),
            ("git log --stat", false),
            ("git show --stat", false),
            ("git grep TODO -- src", false),
            ("git gc", false),
            ("git branch -d feature", false),
            ("git worktree remove x", false),
        ] {
            let (stopped, why) = stops(ws.path(), command).await;
            if stopped != stop {
                wrong.push(format!("{command}: stopped {stopped} ({why})"));
            }
        }
        // A changed secret is in the diff.
        std::fs::write(ws.path().join(".env"), "API_KEY=2\n").unwrap();
        for command in ["git diff", "git diff -- .", "git diff-files -p"] {
            let (stopped, why) = stops(ws.path(), command).await;
            if !stopped {
                wrong.push(format!("{command} (changed): not stopped ({why})"));
            }
        }
        assert!(wrong.is_empty(), "\n{}", wrong.join("\n"));
    }

    #[tokio::test]
    async fn names_counts_and_unchanged_secrets_are_proven_in_default_mode() {
        use warrant_core::evaluator::Stance;
        let Some(ws) = repository() else { return };
        let mut wrong = Vec::new();
        for command in [
            "git diff --stat",
            "git diff",
            "git diff -- src",
            "git log -p -- src",
            "git log --stat",
            "git show --stat",
            "git diff --name-only HEAD",
        ] {
            let (s, why) = stance(
                ws.path(),
                warrant_core::call::PermissionMode::Default,
                command,
            )
            .await;
            if s != Stance::PolicyAllow {
                wrong.push(format!("{command}: {s:?} ({why})"));
            }
        }
        assert!(wrong.is_empty(), "\n{}", wrong.join("\n"));
    }
}
