//! What a git command prints of the files stored in the repository's objects, and which git
//! commands drop commits or objects for good.
//!
//! A file committed once lives on in the objects: `git show HEAD:.env` names it, but a diff, a
//! patch log, a grep of a revision, an export, an archive or an object printed by its id
//! prints it too without naming it. Such a command is judged as a recursive read of the
//! tree under its pathspecs, the files the index tracks and every file the history holds (a
//! secret committed once and removed since is still printed by `git log -p`): a secret there
//! is printed, as by `cat` of the secret itself (binding in every mode). An object named by
//! its id or read from the command's input may be any file of any commit: binding as well.

use warrant_core::decision::Risk;
use warrant_core::evaluator::Stance;

use super::super::judge::Judge;
use crate::paths::Place;
use crate::paths::git_index::{Revision, revision};
use crate::policy::codes::{FILESYSTEM_SENSITIVE_TREE, SHELL_DESTRUCTIVE};
use crate::policy::finding::quote;
use crate::shell::{SimpleCommand, Word, WorkingDir};

/// Diff options that print file contents (git reads them exactly: no prefixes; clusters such
/// as `-ap` are read in [`printed`]).
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
    /// Contents of files under these pathspecs (every file when empty), from any commit the
    /// command reaches: those the index tracks and those the history holds.
    Tracked(Vec<String>),
    /// Contents of files under these pathspecs that the index tracks (`git grep --cached`).
    Index(Vec<String>),
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
    let root = j.places.root().to_path_buf();
    if let Some(what) = discards(&root, sub, rest) {
        super::super::git_state::binding(j, cmd, SHELL_DESTRUCTIVE, what);
    }
    let found = match printed(&root, sub, rest) {
        Prints::Nothing => return,
        Prints::AnyObject(why) => Some(why.to_owned()),
        Prints::Tracked(specs) => {
            // Another command of the script may point HEAD elsewhere first.
            let reach = match reach(&root, sub, rest) {
                Reach::All => Reach::All,
                _ if super::moved_by_another(j, cmd).is_some() => Reach::All,
                reach => reach,
            };
            secret_under(j, cmd, &specs, Scope::History(reach))
        }
        Prints::Index(specs) => secret_under(j, cmd, &specs, Scope::Index),
        Prints::Changed(specs) => secret_under(j, cmd, &specs, Scope::Changed),
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

/// Which commits a command printing contents from the objects may print files of.
#[derive(Clone, PartialEq, Eq, Debug)]
enum Reach {
    /// These commits alone, each a revision word `git rev-list` reads (`HEAD^{commit}^@`:
    /// HEAD's parents): `git show` prints a commit against its parents, `git diff A B` two
    /// commits.
    Commits(Vec<String>),
    /// The commits `git rev-list` lists given these words, each with its parents: `git log
    /// -p -3` prints each of the three commits against its parents.
    Walked(Vec<String>),
    /// Those of HEAD's history (`git log -p`, `git show HEAD~3..`).
    Head,
    /// Any commit a ref, a reflog entry or a stash holds.
    All,
}

/// Options of `git log` and its kin that walk refs other than HEAD (prefixes: `--branches=`,
/// `--exclude=…`), or read revisions from the input.
const OTHER_REFS: &[&str] = &[
    "--all",
    "--branches",
    "--tags",
    "--remotes",
    "--glob",
    "--exclude",
    "--reflog",
    "-g",
    "--walk-reflogs",
    "--stdin",
    "--not",
    "--bisect",
    "--alternate-refs",
    "--indexed-objects",
    "--single-worktree",
    "--merge",
    "--source",
];

/// Which commits the git subcommand `sub` with `rest` prints files of, in the workspace
/// whose top is `root`: HEAD's history for `git log`, `git whatchanged`, `git show`,
/// `git diff` and `git diff-index` given no revision, no option walking other refs and no
/// word only known when it runs; any commit otherwise.
fn reach(root: &std::path::Path, sub: &str, rest: &[Word]) -> Reach {
    // While HEAD is unborn (no commit yet) git prints nothing of it: HEAD's history below
    // is empty, where naming `HEAD^{commit}` would fail.
    let born = revision(&root.join(".git"), "HEAD") != Revision::None;
    if born && let Some(commits) = commits_compared(root, sub, rest) {
        return Reach::Commits(commits);
    }
    if born && let Some(walk) = commits_walked(root, sub, rest) {
        return Reach::Walked(walk);
    }
    if born && let Some(stash) = stash_shown(sub, rest) {
        // `git stash show` prints the stash's work tree against the commit it was made on.
        return Reach::Commits(vec![format!("{stash}^{{commit}}"), format!("{stash}^1")]);
    }
    if !matches!(
        sub,
        "log" | "whatchanged" | "show" | "diff" | "diff-index" | "range-diff"
    ) {
        return Reach::All;
    }
    let git_dir = root.join(".git");
    let mut words = rest.iter();
    while let Some(w) = words.next() {
        let Some(t) = w.literal() else {
            return Reach::All;
        };
        if t == "--" {
            break;
        }
        let walks = OTHER_REFS
            .iter()
            .any(|o| t == *o || t.starts_with(&format!("{o}=")));
        if walks || t == "-" {
            return Reach::All;
        }
        // The value of an option given as the next word is no revision.
        if SEPARATE_VALUES.contains(&t) {
            words.next();
            continue;
        }
        // Any operand but a path of the workspace no ref is named after is a revision: one
        // of HEAD's own history keeps the reach HEAD's.
        let path = path_operand(root, &git_dir, rest, t);
        if !(t.starts_with('-') || path || within_head(&git_dir, t)) {
            return Reach::All;
        }
    }
    Reach::Head
}

/// The stash `git stash show` (`sub` `stash`, `rest` after it) prints, as a revision
/// (`stash@{2}`), when its words say exactly which: none (the latest), `N` or `stash@{N}`,
/// after options that are all literal.
fn stash_shown(sub: &str, rest: &[Word]) -> Option<String> {
    let texts: Vec<&str> = rest.iter().map(Word::literal).collect::<Option<_>>()?;
    let [_show @ "show", words @ ..] = texts.as_slice() else {
        return None;
    };
    if sub != "stash" {
        return None;
    }
    let operands: Vec<&str> = words
        .iter()
        .copied()
        .filter(|t| !t.starts_with('-'))
        .collect();
    let n = match operands.as_slice() {
        [] => "0",
        [t] => t
            .strip_prefix("stash@{")
            .and_then(|t| t.strip_suffix('}'))
            .unwrap_or(t),
        _ => return None,
    };
    (!n.is_empty() && n.bytes().all(|b| b.is_ascii_digit())).then(|| format!("stash@{{{n}}}"))
}

/// The commits whose files `git show` or `git diff` with `rest` prints, when its words say
/// exactly which: each revision `git show` names (HEAD when none) with its parents, each
/// commit `git diff` compares (`A..B`: `A` and `B`; HEAD for `--cached` alone). Every word
/// before `--` must be literal, every option one of [`VIEW_OPTIONS`] (how each file is
/// printed, never which commits), no revision a range `git show` walks, a `...` (a merge
/// base) or a file of a tree (`REV:path`). Each is given as `REV^{commit}`, which `git
/// rev-list` refuses for a tag of a file or a directory.
fn commits_compared(root: &std::path::Path, sub: &str, rest: &[Word]) -> Option<Vec<String>> {
    let show = match sub {
        "show" => true,
        "diff" => false,
        _ => return None,
    };
    let git_dir = root.join(".git");
    let mut revisions = Vec::new();
    let mut cached = false;
    for w in rest {
        let t = w.literal()?;
        // Paths: the walk of the whole history is limited to them instead.
        if t == "--" {
            return None;
        }
        if t.starts_with('-') {
            if !view_option(t) {
                return None;
            }
            cached |= matches!(t, "--cached" | "--staged");
            continue;
        }
        if path_operand(root, &git_dir, rest, t) {
            return None;
        }
        if t.contains("...") || t.contains(':') || t.starts_with('^') || (show && t.contains(".."))
        {
            return None;
        }
        match t.split_once("..") {
            Some((a, b)) => {
                revisions.push(if a.is_empty() { "HEAD" } else { a });
                revisions.push(if b.is_empty() { "HEAD" } else { b });
            }
            None => revisions.push(t),
        }
    }
    if revisions.is_empty() {
        if show || cached {
            revisions.push("HEAD");
        } else {
            return None;
        }
    }
    let mut commits = Vec::new();
    for r in revisions {
        commits.push(format!("{r}^{{commit}}"));
        if show {
            commits.push(format!("{r}^{{commit}}^@"));
        }
    }
    Some(commits)
}

/// The most commits `git log -p -N` may print for [`commits_walked`] to list them.
const MAX_WALKED: u32 = 100;

/// The words `git rev-list` lists the commits of `git log` with `rest` from, when they say
/// exactly which: a count of at most [`MAX_WALKED`] (`-3`, `-n 3`, `--max-count=3`), the
/// revisions (HEAD when none; no range, no `^REV`, no `REV:path`), every other option one
/// of [`VIEW_OPTIONS`] (how each commit is printed, not which). `git log` and `git
/// rev-list` walk alike given the same revisions and count. No path: given one, `git log`
/// follows its renames when the configuration says so (`log.follow`), through commits
/// `git rev-list` does not list.
pub(in crate::policy::shell) fn commits_walked(
    root: &std::path::Path,
    sub: &str,
    rest: &[Word],
) -> Option<Vec<String>> {
    if sub != "log" {
        return None;
    }
    let git_dir = root.join(".git");
    let mut count = None;
    let mut revisions = Vec::new();
    let mut words = rest.iter();
    while let Some(w) = words.next() {
        let t = w.literal()?;
        let number = |n: &str| {
            n.parse::<u32>()
                .ok()
                .filter(|n| (1..=MAX_WALKED).contains(n))
        };
        if let Some(n) = t
            .strip_prefix("--max-count=")
            .or_else(|| t.strip_prefix("-n").filter(|n| !n.is_empty()))
            .or_else(|| {
                t.strip_prefix('-')
                    .filter(|n| n.bytes().all(|b| b.is_ascii_digit()))
            })
        {
            count = Some(number(n)?);
            continue;
        }
        if t == "-n" || t == "--max-count" {
            count = Some(number(words.next()?.literal()?)?);
            continue;
        }
        if t.starts_with('-') {
            if !view_option(t) {
                return None;
            }
            continue;
        }
        let path = path_operand(root, &git_dir, rest, t);
        if t == "--" || path || t.contains("..") || t.contains(':') || t.starts_with('^') {
            return None;
        }
        revisions.push(format!("{t}^{{commit}}"));
    }
    if revisions.is_empty() {
        revisions.push("HEAD^{commit}".to_owned());
    }
    let mut walk = vec![format!("--max-count={}", count?)];
    walk.extend(revisions);
    walk.push("--".to_owned());
    Some(walk)
}

/// Options of `git show` and `git diff` that change how each file is printed, never which
/// commits or objects are read, nor what runs ([`commits_compared`]).
const VIEW_OPTIONS: &[&str] = &[
    "-p",
    "-u",
    "--patch",
    "-s",
    "--no-patch",
    "--stat",
    "--shortstat",
    "--numstat",
    "--summary",
    "--compact-summary",
    "--name-only",
    "--name-status",
    "--raw",
    "--oneline",
    "--cached",
    "--staged",
    "-w",
    "-b",
    "--ignore-all-space",
    "--ignore-space-change",
    "--ignore-space-at-eol",
    "--ignore-blank-lines",
    "--minimal",
    "--patience",
    "--histogram",
    "--no-renames",
    "-R",
    "--no-color",
    "--color",
    "--exit-code",
    "--quiet",
    "--abbrev-commit",
    "--no-abbrev-commit",
    "--full-index",
    "--check",
    "--no-prefix",
    "--no-ext-diff",
    "--no-textconv",
];

/// Whether `t` is one of [`VIEW_OPTIONS`], or one given with a value
/// ([`VIEW_OPTION_PREFIXES`]).
fn view_option(t: &str) -> bool {
    VIEW_OPTIONS.contains(&t) || VIEW_OPTION_PREFIXES.iter().any(|p| t.starts_with(p))
}

/// Prefixes of [`VIEW_OPTIONS`] given with a value (`--stat=80`, `-U5`, `--format=%H`).
const VIEW_OPTION_PREFIXES: &[&str] = &[
    "--stat=",
    "--format=",
    "--pretty=",
    "--color=",
    "--unified=",
    "-U",
    "--word-diff",
    "--color-words",
    "--abbrev=",
    "--diff-algorithm=",
    "--dirstat",
    "--color-moved",
    "--inter-hunk-context=",
    "--stat-width=",
    "-M",
    "--find-renames",
];

/// Whether `t`, a word of a git command whose words are `rest`, is read as a path rather
/// than a revision: it names an existing path of the workspace whose top is `root`, no ref
/// of the repository in `git_dir` has its name, and the command holds no `--` (before one,
/// git reads every word as a revision, whatever files exist).
fn path_operand(root: &std::path::Path, git_dir: &std::path::Path, rest: &[Word], t: &str) -> bool {
    !rest.iter().any(|w| w.literal() == Some("--"))
        && root.join(t).exists()
        && revision(git_dir, t) == Revision::None
}

/// Options of `git log` and its kin whose value may be the next word (`-n 5`, `-L 1,9:f`).
const SEPARATE_VALUES: &[&str] = &[
    "-n",
    "-L",
    "--max-count",
    "--skip",
    "--since",
    "--until",
    "--after",
    "--before",
    "--author",
    "--committer",
    "--grep",
];

/// The revision each side of the revision word `t` starts from (`v1.2~3` → `v1.2`;
/// `main...topic` → `main`, `topic`; an omitted side is `""`, HEAD), with `~N`/`^N` steps to
/// its ancestors and `^!`, `^@`, `^-N` ends read off; `None` when what follows a base is no
/// such steps (`v1.2^{tree}`, `main~x`). No ref's name holds `~` or `^`.
fn revision_bases(t: &str) -> Option<Vec<&str>> {
    let sides: Vec<&str> = match t.split_once("...").or_else(|| t.split_once("..")) {
        Some((a, b)) => vec![a, b],
        None => vec![t],
    };
    let mut bases = Vec::with_capacity(sides.len());
    for side in sides {
        let side = side.strip_prefix('^').unwrap_or(side);
        // Peeled to its commit (`v1^{commit}`, or `v1^{}` of a tag that leads to one): the
        // same commit, which callers require the ref to lead to.
        let side = side
            .strip_suffix("^{commit}")
            .or_else(|| side.strip_suffix("^{}"))
            .unwrap_or(side);
        let (base, mut steps) = side.split_at(side.find(['~', '^']).unwrap_or(side.len()));
        for end in ["^!", "^@"] {
            steps = steps.strip_suffix(end).unwrap_or(steps);
        }
        if let Some(at) = steps.rfind("^-")
            && steps[at + 2..].bytes().all(|b| b.is_ascii_digit())
        {
            steps = &steps[..at];
        }
        let well_formed = steps
            .split(['~', '^'])
            .skip(1)
            .all(|n| n.bytes().all(|b| b.is_ascii_digit()));
        if !well_formed {
            return None;
        }
        bases.push(base);
    }
    Some(bases)
}

/// The ref a branch's upstream or push target names (`@{u}`, `main@{upstream}`,
/// `@{push}`), as git resolves it (`refs/remotes/origin/main`); `None` for any other `@{…}`
/// (a reflog entry, `@{-1}`) or when git cannot say.
fn upstream_ref(root: &std::path::Path, base: &str) -> Option<String> {
    let (branch, suffix) = base.split_once("@{")?;
    let suffix = suffix.to_ascii_lowercase();
    if !matches!(suffix.as_str(), "u}" | "upstream}" | "push}") || branch.contains(['@', '{']) {
        return None;
    }
    let mut full = None;
    run_git(
        root,
        &["rev-parse", "--symbolic-full-name", base, "--"],
        None,
        |line| {
            // The name, then the `--` echoed.
            if full.is_none() && !line.is_empty() {
                full = Some(line.to_owned());
            }
            true
        },
    )
    .ok()?;
    full.filter(|f| f.starts_with("refs/remotes/") || f.starts_with("refs/heads/"))
}

/// Whether every side of the revision word `t` is HEAD's history: HEAD (or `@`, or an
/// omitted side), or a ref naming the very commit HEAD names, and their ancestors.
fn within_head(git_dir: &std::path::Path, t: &str) -> bool {
    let Some(bases) = revision_bases(t) else {
        return false;
    };
    let head = || match revision(git_dir, "HEAD") {
        Revision::Object(id) => Some(id),
        _ => None,
    };
    bases.iter().all(|base| {
        matches!(*base, "" | "HEAD" | "@")
            || matches!(revision(git_dir, base), Revision::Object(id) if Some(&id) == head().as_ref())
    })
}

/// Which files a command printing contents from the objects may print.
#[derive(Clone, PartialEq, Eq)]
enum Scope {
    /// Those the index tracks and those the commits it reaches hold.
    History(Reach),
    /// Those the index tracks.
    Index,
    /// Those the index tracks that the work tree holds otherwise.
    Changed,
}

/// Why a file under `specs` (relative to the workspace; every file when empty) in `scope` may
/// be a secret, if one may: its name or where its link leads is secret, or the index or the
/// history cannot be read.
fn secret_under(
    j: &Judge<'_>,
    cmd: &SimpleCommand,
    specs: &[String],
    scope: Scope,
) -> Option<String> {
    let root = j.places.root();
    if std::fs::symlink_metadata(root.join(".git")).is_err() {
        // No repository of its own: the checks of the repository git finds speak.
        return None;
    }
    if let Some(why) = stored_by_another(j, cmd) {
        return Some(why);
    }
    let Some(index) = crate::paths::git_index::Index::of(root) else {
        return Some("the repository's index cannot be read".to_owned());
    };
    if index.len() > crate::paths::MAX_TREE_ENTRIES {
        return Some("the repository tracks more files than can be checked".to_owned());
    }
    // Pathspecs are relative to the command's directory: elsewhere than the top, every file.
    let all = specs.is_empty() || cmd.cwd != WorkingDir::Root;
    let secret = |p: &str| match j.places.locate(p, &WorkingDir::Root).place {
        Place::Sensitive(what) if all || specs.iter().any(|s| covers(s, p)) => Some(what),
        _ => None,
    };
    let changed = scope == Scope::Changed;
    let tracked = index.paths().find_map(|p| {
        let what = secret(p)?;
        let unchanged = changed && index.unchanged(p);
        (!unchanged).then(|| format!("the repository tracks `{p}`, {what}"))
    });
    // A key by its content (or a hard link to a file elsewhere) is stored and printed
    // whatever its name: what git stored of a tracked file is what its work tree holds,
    // unless changed since.
    let covered = |p: &str| all || specs.iter().any(|s| covers(s, p));
    let tracked = tracked.or_else(|| {
        index.paths().filter(|p| covered(p)).find_map(|p| {
            let what = crate::paths::tracked_file_secret(&root.join(p))?;
            let unchanged = changed && index.unchanged(p);
            (!unchanged).then(|| format!("the repository tracks `{p}`, {what}"))
        })
    });
    // What the index holds of a file the work tree holds otherwise (`git add`, then an
    // edit): printed by `git diff`, `git diff --cached`, `git show :PATH`, and not what the
    // work tree's file showed above.
    let tracked = tracked.or_else(|| {
        let Some(staged) = index.staged_otherwise() else {
            return Some("the repository's index cannot be read".to_owned());
        };
        let staged: Vec<(String, String)> = staged
            .into_iter()
            .filter(|(p, _)| covered(p))
            .map(|(p, id)| (id, p))
            .collect();
        match objects_secret(root, &staged) {
            Ok(None) => None,
            Ok(Some((p, what))) => Some(format!("the repository's index holds `{p}`, {what}")),
            Err(why) => Some(why),
        }
    });
    let Scope::History(reach) = scope else {
        return tracked;
    };
    if tracked.is_some() {
        return tracked;
    }
    // The walk is limited to the pathspecs when each is plain, from the top.
    let within: Vec<String> = if all || !specs.iter().all(|s| plain_pathspec(s)) {
        Vec::new()
    } else {
        specs
            .iter()
            .map(|s| s.trim_start_matches("./").trim_end_matches('/').to_owned())
            .collect()
    };
    let history = match history_names(root, reach, &within) {
        Ok(history) => history,
        Err(why) => return Some(why),
    };
    if let Some(found) = history
        .names
        .iter()
        .find_map(|p| secret(p).map(|what| format!("the repository's history holds `{p}`, {what}")))
    {
        return Some(found);
    }
    // A key committed under a name that says nothing, in a commit since changed.
    match objects_secret(root, &history.objects) {
        Ok(None) => None,
        Ok(Some((p, what))) => Some(format!("the repository's history holds `{p}`, {what}")),
        Err(why) => Some(why),
    }
}

/// Why another git command of the script may store files of the work tree in the index or
/// the objects, untracked ones among them (`git add -f .`, `git add -N .`, `git stash -u`,
/// `git update-index --add`, `git hash-object -w`, a subcommand only known when it runs),
/// whose contents a command printing from the objects then prints, before or after it (a
/// loop runs a later one first): the first secret the work tree holds, or that it is too
/// large to check. Storing tracked files (`git commit -a`, a plain `git stash`) adds no name
/// the index does not hold.
fn stored_by_another(j: &Judge<'_>, cmd: &SimpleCommand) -> Option<String> {
    let root = j.places.root();
    j.script
        .commands
        .iter()
        .filter(|c| !std::ptr::eq(*c, cmd) && c.words != cmd.words && c.program() == Some("git"))
        .find_map(|c| {
            let git = super::super::git_state::split(c);
            let any = |names: &[&str]| {
                git.rest
                    .iter()
                    .any(|w| w.literal().is_none_or(|t| names.contains(&t)))
            };
            let whole = vec![root.to_path_buf()];
            let trees = match git.sub {
                None if c.args().len() > git.global.len() => whole,
                Some("add") => added_trees(root, c, git.rest).unwrap_or(whole),
                Some("stash")
                    if any(&["-u", "--include-untracked", "-a", "--all"])
                        || git.rest.iter().any(|w| {
                            w.literal().is_some_and(|t| {
                                t.starts_with('-') && !t.starts_with("--") && t.contains(['u', 'a'])
                            })
                        }) =>
                {
                    whole
                }
                Some("update-index") if any(&["--add"]) => whole,
                Some("hash-object") if any(&["-w"]) => whole,
                _ => return None,
            };
            trees
                .iter()
                .find_map(|tree| match j.places.tree_secret(tree, true, false) {
                    Ok(Some((path, what))) => {
                        let rel = path.strip_prefix(root).unwrap_or(&path);
                        Some(format!(
                            "{} may store `{}`, {what}, in the repository",
                            quote(c),
                            rel.display()
                        ))
                    }
                    Ok(None) => None,
                    Err(_) => Some(format!(
                        "{} may store files of a work tree larger than can be checked",
                        quote(c)
                    )),
                })
        })
}

/// The trees below which `git add` (the command `cmd`, with `rest` after the subcommand)
/// stores files, when its pathspecs name them plainly from the top of the work tree (no
/// glob, magic, `.` or `..`, no word only known when it runs, no pathspec read from a
/// file); `None` for the whole work tree. `git add -u` stores only tracked files: no tree.
fn added_trees(
    root: &std::path::Path,
    cmd: &SimpleCommand,
    rest: &[Word],
) -> Option<Vec<std::path::PathBuf>> {
    let mut operands = Vec::new();
    let mut options_end = false;
    for w in rest {
        let t = w.literal()?;
        if !options_end && t == "--" {
            options_end = true;
        } else if !options_end && t.starts_with('-') {
            if t.starts_with("--pathspec-from-file") {
                return None;
            }
        } else {
            operands.push(t);
        }
    }
    let update_only = rest
        .iter()
        .any(|w| matches!(w.literal(), Some("-u" | "--update")));
    if operands.is_empty() {
        return if update_only { Some(Vec::new()) } else { None };
    }
    if cmd.cwd != WorkingDir::Root {
        return None;
    }
    operands
        .iter()
        .map(|t| {
            let t = t.trim_start_matches("./").trim_end_matches('/');
            let plain = !t.is_empty()
                && t != "."
                && !t.starts_with(':')
                && !t.starts_with('/')
                && !t.contains(['*', '?', '[', '\\'])
                && !t.split('/').any(|part| part == ".." || part == ".");
            plain.then(|| root.join(t))
        })
        .collect()
}

/// The most objects read from the history, and the most distinct names among them, before
/// the history counts as too large to check.
const MAX_HISTORY_OBJECTS: usize = 2_000_000;
/// The most distinct file and directory names of the history checked.
const MAX_HISTORY_NAMES: usize = 5 * crate::paths::MAX_TREE_ENTRIES;
/// How long the history may take to list before it counts as too large to check.
const HISTORY_TIME: std::time::Duration = std::time::Duration::from_secs(3);
/// The most files (distinct objects with a path) of the history listed for their content.
const MAX_HISTORY_FILES: usize = 500_000;
/// The most bytes of files' contents read from the objects for one command; more counts as
/// a history too large to check.
const MAX_CONTENT_BYTES: u64 = 256 * 1024 * 1024;

/// Every path (files and directories, from the top of the work tree) the repository at `root`
/// holds in a commit `reach` covers (HEAD's history, or every commit a ref, a reflog entry or
/// HEAD holds, stashes among them), as `git rev-list --objects` names them. `Err` says why it
/// cannot tell: git failed, HEAD names no commit, or the history is larger or slower to list
/// than the limits.
///
/// `within`: plain pathspecs the command is limited to ([`plain_pathspec`]), or none.
///
/// The walk starts from commits only. Given an object a tip names directly (a tag of a file
/// or a directory, a line written into a reflog), git would list it without a path, and
/// list it once: the same file met later in a commit's tree, a `.env`, would go unnamed.
/// Such an object is no commit's file; the commands this check guards print it only when a
/// word names it, and each checks that a revision it reads leads to a commit.
fn history_names(
    root: &std::path::Path,
    reach: Reach,
    within: &[String],
) -> Result<History, String> {
    let mut names = std::collections::BTreeSet::new();
    let mut objects = Vec::new();
    let each = |line: &str| {
        // `ID PATH`; a line that is not (a name holding a newline) is a name as a whole.
        let name = match line.split_once(' ') {
            Some((id, name)) if id.bytes().all(|b| b.is_ascii_hexdigit()) => {
                objects.push((id.to_owned(), name.to_owned()));
                name
            }
            None if line.bytes().all(|b| b.is_ascii_hexdigit()) => "",
            _ => line,
        };
        if !name.is_empty() {
            names.insert(name.to_owned());
        }
        names.len() <= MAX_HISTORY_NAMES && objects.len() <= MAX_HISTORY_FILES
    };
    // `git show`, `git grep x HEAD` print whatever HEAD names, a file among them.
    head_names_a_commit(root)?;
    // Limited to pathspecs, the walk reads only their trees: a file under them is named
    // there even when the same content is also another file's outside them (git lists an
    // object once, under the first name it meets). Every commit holding one is walked.
    let mut limited: Vec<String> = Vec::new();
    if !within.is_empty() {
        limited.extend(["--full-history".to_owned(), "--".to_owned()]);
        limited.extend(within.iter().cloned());
    }
    match reach {
        Reach::Head => {
            let mut args = vec!["--objects", "--ignore-missing", "HEAD"];
            args.extend(limited.iter().map(String::as_str));
            rev_list(root, &args, each)?;
        }
        Reach::Commits(commits) => {
            let mut args = vec!["--objects", "--no-walk"];
            args.extend(commits.iter().map(String::as_str));
            args.push("--");
            rev_list(root, &args, each)?;
        }
        Reach::Walked(walk) => {
            // Each commit listed, and its parents (`ID^@`), read by the second walk.
            let args: Vec<&str> = walk.iter().map(String::as_str).collect();
            let commits: String = listed_commits(root, &args)?
                .iter()
                .map(|id| format!("{id}\n{id}^@\n"))
                .collect();
            if !commits.is_empty() {
                run_git(
                    root,
                    &["rev-list", "--objects", "--no-walk", "--stdin"],
                    Some(commits),
                    each,
                )?;
            }
        }
        Reach::All => {
            // The commits the tips lead to (annotated tags followed), without their history;
            // what is no commit is left out.
            let tips: String = listed_commits(root, &["--no-walk", "--all", "--reflog"])?
                .iter()
                .map(|id| format!("{id}\n"))
                .collect();
            if !tips.is_empty() {
                let mut args = vec!["rev-list", "--objects", "--stdin"];
                args.extend(limited.iter().map(String::as_str));
                run_git(root, &args, Some(tips), each)?;
            }
        }
    }
    Ok(History { names, objects })
}

/// What [`history_names`] found of the commits a command reaches.
#[derive(Debug)]
struct History {
    /// Every path (files and directories, from the top of the work tree) the commits hold.
    names: std::collections::BTreeSet<String>,
    /// Each object (a file's content or a directory) listed with its path, as `(ID, PATH)`:
    /// what the commits hold under names that say nothing is checked by its content.
    objects: Vec<(String, String)>,
}

/// Why the history's check fails when git cannot be run or prints what it should not.
const UNREADABLE: &str = "the repository's history cannot be read";

/// The commit ids `git rev-list ARGS` lists in `root`; `Err` when it fails, or lists a line
/// that is no id.
fn listed_commits(root: &std::path::Path, args: &[&str]) -> Result<Vec<String>, String> {
    let mut ids = Vec::new();
    let mut malformed = false;
    rev_list(root, args, |line| {
        malformed |= line.is_empty() || !line.bytes().all(|b| b.is_ascii_hexdigit());
        ids.push(line.to_owned());
        !malformed
    })
    .map_err(|why| {
        if malformed {
            UNREADABLE.to_owned()
        } else {
            why
        }
    })?;
    Ok(ids)
}

/// `Ok` when HEAD names a commit, or nothing yet (unborn); `Err` says why not, or why it
/// cannot tell. A HEAD naming a file, a directory or a tag (a ref's file written by hand) is
/// printed whole by `git show`, `git grep x HEAD`, `git cat-file -p HEAD`.
fn head_names_a_commit(root: &std::path::Path) -> Result<(), String> {
    // The filter leaves HEAD's commit, listed as a bare id, or what HEAD names if it is no
    // commit, listed `ID NAME` (git lists the objects it is given).
    let mut named = false;
    let head = [
        "--objects",
        "--no-walk",
        "--filter=object:type=commit",
        "--ignore-missing",
        "HEAD",
    ];
    rev_list(root, &head, |line| {
        named |= line.contains(' ');
        true
    })?;
    if named {
        Err("the repository's HEAD names no commit".to_owned())
    } else {
        Ok(())
    }
}

/// Whether git's configuration for the repository at `root` sets the boolean `key` (`log.follow`:
/// `git log` given one path follows its renames), or it cannot tell.
fn configured(root: &std::path::Path, key: &str) -> bool {
    let mut value = String::new();
    let read = run_git(
        root,
        &["config", "--type=bool", "--default=false", "--get", key],
        None,
        |line| {
            value = line.to_owned();
            true
        },
    );
    read.is_err() || value != "false"
}

/// Runs `git rev-list ARGS` in `root` through [`run_git`].
fn rev_list(
    root: &std::path::Path,
    args: &[&str],
    each: impl FnMut(&str) -> bool,
) -> Result<(), String> {
    let mut full = Vec::with_capacity(args.len() + 1);
    full.push("rev-list");
    full.extend_from_slice(args);
    run_git(root, &full, None, each)
}

/// Runs `git ARGS` in `root` (`input`, if any, on its standard input), giving `each` every
/// line of its output until it says stop (`false`: too much to check). `Err` says why the
/// history cannot be told: git failed, or it printed more than [`MAX_HISTORY_OBJECTS`]
/// lines, or took longer than [`HISTORY_TIME`], or `each` stopped it.
fn run_git(
    root: &std::path::Path,
    args: &[&str],
    input: Option<String>,
    mut each: impl FnMut(&str) -> bool,
) -> Result<(), String> {
    use std::io::BufRead;
    run_git_reading(root, args, input, |out| {
        for (n, line) in out.split(b'\n').enumerate() {
            let Ok(line) = line else { break };
            if n >= MAX_HISTORY_OBJECTS || !each(&String::from_utf8_lossy(&line)) {
                return Read::Over;
            }
        }
        Read::Done
    })
}

/// How reading a git command's output ended.
enum Read {
    /// All of it was read.
    Done,
    /// As much as was needed was read: git is stopped, and what it says after is not
    /// heard.
    Enough,
    /// It was more than can be checked: git is stopped.
    Over,
    /// It was not what git prints.
    Malformed,
}

/// Runs `git ARGS` in `root` (`input`, if any, on its standard input), giving `read` its
/// output. `Err` says why the history cannot be told: git failed, took longer than
/// [`HISTORY_TIME`], or `read` found too much ([`Read::Over`]) or what git does not print.
///
/// git runs with none of the caller's `GIT_*` variables, fetches no missing object from a
/// promisor remote (`GIT_NO_LAZY_FETCH`), and is given plumbing that reads no configuration
/// naming programs. Since that plumbing runs nothing a repository's configuration names, a
/// repository another user owns is read as well (`safe.directory`): a checker running
/// beside the agent under another account tells its history as the agent's git would.
fn run_git_reading(
    root: &std::path::Path,
    args: &[&str],
    input: Option<String>,
    read: impl FnOnce(&mut dyn std::io::BufRead) -> Read,
) -> Result<(), String> {
    let unreadable = || UNREADABLE.to_owned();
    let large = || "the repository's history is larger than can be checked".to_owned();
    let mut git = std::process::Command::new("git");
    git.args([
        "--no-pager",
        "-c",
        "core.fsmonitor=false",
        "-c",
        "safe.directory=*",
    ])
    .args(args)
    .current_dir(root)
    .stdin(if input.is_some() {
        std::process::Stdio::piped()
    } else {
        std::process::Stdio::null()
    })
    .stdout(std::process::Stdio::piped())
    .stderr(std::process::Stdio::null());
    for (name, _) in std::env::vars_os() {
        if name.to_string_lossy().starts_with("GIT_") {
            git.env_remove(name);
        }
    }
    git.env("GIT_NO_LAZY_FETCH", "1")
        .env("GIT_TERMINAL_PROMPT", "0")
        .env("GIT_OPTIONAL_LOCKS", "0")
        .env("LC_ALL", "C");
    let mut child = git.spawn().map_err(|_| unreadable())?;
    let stdout = child.stdout.take().ok_or_else(unreadable)?;
    // The input is written by a thread of its own, so that a full output pipe cannot stop
    // git while it waits for the rest of its input; closing it ends git's input.
    let writer = match (input, child.stdin.take()) {
        (Some(text), Some(mut stdin)) => Some(std::thread::spawn(move || {
            use std::io::Write;
            let _ = stdin.write_all(text.as_bytes());
        })),
        (Some(_), None) => return Err(unreadable()),
        _ => None,
    };
    let child = std::sync::Arc::new(std::sync::Mutex::new(child));
    let (done, stopped) = std::sync::mpsc::channel::<()>();
    let watched = std::sync::Arc::clone(&child);
    let watch = std::thread::spawn(move || {
        let late = matches!(
            stopped.recv_timeout(HISTORY_TIME),
            Err(std::sync::mpsc::RecvTimeoutError::Timeout)
        );
        if late && let Ok(mut c) = watched.lock() {
            let _ = c.kill();
        }
        late
    });
    let kill = || {
        if let Ok(mut c) = child.lock() {
            let _ = c.kill();
        }
    };
    let ended = read(&mut std::io::BufReader::new(stdout));
    if !matches!(ended, Read::Done) {
        kill();
    }
    drop(done);
    let late = watch.join().unwrap_or(true);
    let written = writer.is_none_or(|w| w.join().is_ok());
    let status = child.lock().map_err(|_| unreadable())?.wait();
    match ended {
        Read::Over => return Err(large()),
        Read::Malformed => return Err(unreadable()),
        Read::Enough => return Ok(()),
        Read::Done if late => return Err(large()),
        Read::Done => {}
    }
    match status {
        Ok(s) if s.success() && written => Ok(()),
        _ => Err(unreadable()),
    }
}

/// The file contents of the repository at `root` known to hold no secret, each by the
/// repository's objects directory and the object's id (an object's id is a hash of its
/// content, so what it holds never changes), so that a long-lived process reads each file of
/// the history once. Forgotten whole when it grows past [`MAX_KNOWN_CLEAN`].
static KNOWN_CLEAN: std::sync::LazyLock<
    std::sync::Mutex<std::collections::HashSet<(std::path::PathBuf, String)>>,
> = std::sync::LazyLock::new(Default::default);

/// The most objects [`KNOWN_CLEAN`] keeps.
const MAX_KNOWN_CLEAN: usize = 1_000_000;

/// The most bytes of messages [`messages_secret`] reads.
const MAX_MESSAGE_BYTES: u64 = 64 * 1024 * 1024;

/// What secret a message of the repository git finds from `dir` holds, if one does: the
/// message (and the identities) of every commit and annotated tag its objects hold, whatever reaches it (a ref
/// outside `refs/tags`, a tag of a tag, `ORIG_HEAD`, a dangling id) — or only of the
/// commits `walk` lists, when the command walks that few ([`commits_walked`]). Each object
/// is read raw (`git cat-file --batch`), headers and all (a `mergetag` header carries a
/// tag's message), as `git cat-file -p` and `--encoding=none` print it; then what it keeps
/// beside them ([`kept_texts_secret`]). `Err` when they
/// cannot all be read (git failing, more than [`MAX_MESSAGE_BYTES`]) or one names another
/// encoding than UTF-8, which `git log` prints re-encoded.
pub(in crate::policy::shell) fn messages_secret(
    dir: &std::path::Path,
    walk: Option<&[String]>,
) -> Result<Option<&'static str>, String> {
    let mut ids = Vec::new();
    // A walk git cannot start (an unborn HEAD) falls back to every message.
    let walked = walk.is_some_and(|w| {
        let args: Vec<&str> = w.iter().map(String::as_str).collect();
        rev_list(dir, &args, |id| {
            if !id.is_empty() {
                ids.push(id.to_owned());
            }
            true
        })
        .is_ok()
    });
    if !walked {
        ids.clear();
        run_git(
            dir,
            &[
                "cat-file",
                "--batch-all-objects",
                "--unordered",
                "--batch-check=%(objecttype) %(objectname)",
            ],
            None,
            |line| {
                if let Some(id) = line
                    .strip_prefix("commit ")
                    .or_else(|| line.strip_prefix("tag "))
                {
                    ids.push(id.to_owned());
                }
                true
            },
        )?;
    }
    match messages_of(dir, &ids)? {
        Some(what) => Ok(Some(what)),
        // A bounded walk prints no reflog (`-g` is none of the options it takes).
        None => kept_texts_secret(dir, !walked),
    }
}

/// What secret the state the git directory `git_dir` keeps beside the objects holds, if
/// one does: what `git status` prints of an operation in progress (a rebase's todo list and
/// done commands, an `am` session's, a cherry-pick's or revert's, the branch a bisect
/// started from), the branch `HEAD` names and the upstream the configuration names, why
/// each worktree is locked (`git worktree list -v`), and the pattern files `patterns` names:
/// every ignore pattern (the repository's `info/exclude`, each `.gitignore` below the work
/// tree's top `top`), every attribute (`info/attributes`, each `.gitattributes`). `Err`
/// when it cannot be read or is more than [`MAX_MESSAGE_BYTES`].
pub(in crate::policy::shell) fn in_progress_secret(
    git_dir: &std::path::Path,
    top: &std::path::Path,
    patterns: Patterns,
) -> Result<Option<&'static str>, String> {
    let dirs: Vec<std::path::PathBuf> = ["rebase-merge", "rebase-apply", "sequencer"]
        .iter()
        .map(|d| git_dir.join(d))
        .collect();
    let common = crate::paths::git_index::common_dir(git_dir).unwrap_or(git_dir.to_path_buf());
    let mut files = vec![git_dir.join("BISECT_START"), git_dir.join("HEAD")];
    // Why each worktree is locked (`git worktree lock --reason`).
    if let Ok(worktrees) = std::fs::read_dir(common.join("worktrees")) {
        files.extend(worktrees.flatten().map(|w| w.path().join("locked")));
    }
    // The ignore patterns (`git check-ignore -v` prints the one that matches) and the
    // attributes (`git check-attr` prints their values): the repository's own files and
    // every `.gitignore` or `.gitattributes` of the work tree.
    let mut tree = Vec::new();
    if patterns.ignores {
        files.push(common.join("info/exclude"));
    }
    if patterns.attributes {
        files.push(common.join("info/attributes"));
    }
    if patterns.ignores || patterns.attributes {
        tree.push(top.to_path_buf());
    }
    files.extend(files_below(tree, |entry| {
        let name = entry.file_name();
        Ok(match entry.file_type() {
            Ok(t) if t.is_dir() && name != ".git" => Found::Directory,
            _ if patterns.ignores && name == ".gitignore" => Found::File,
            _ if patterns.attributes && name == ".gitattributes" => Found::File,
            _ => Found::Other,
        })
    })?);
    files.extend(files_below(dirs, |entry| {
        Ok(match entry.file_type() {
            Ok(t) if t.is_dir() => Found::Directory,
            _ => Found::File,
        })
    })?);
    // The upstream each branch names (`Your branch is behind 'origin/main'`): the branch
    // sections' lines of the configuration, not its remotes' URLs.
    let mut upstreams = Vec::new();
    for config in [common.join("config"), git_dir.join("config.worktree")] {
        match std::fs::read(&config) {
            Ok(text) => upstreams.extend(branch_lines(&text)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(_) => return Err("the repository's configuration cannot be read".to_owned()),
        }
    }
    if let Some(what) = crate::paths::bytes_secret(&upstreams) {
        return Ok(Some(what));
    }
    let mut total = 0u64;
    for file in files {
        let text = match std::fs::read(&file) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
            Err(_) => return Err("the state of an operation in progress cannot be read".to_owned()),
        };
        total += text.len() as u64;
        if total > MAX_MESSAGE_BYTES {
            return Err(
                "the state of an operation in progress is larger than can be checked".to_owned(),
            );
        }
        if let Some(what) = crate::paths::bytes_secret(&text) {
            return Ok(Some(what));
        }
    }
    Ok(None)
}

/// What secret a name of a ref, a branch's upstream or a remote of the git directory
/// `git_dir` holds, if one does: each loose ref's path below `refs/` (its own and, for a
/// linked worktree, the common directory's), each name `packed-refs` lists, what `HEAD`
/// names, and the configuration's section headers (`[remote "origin"]`, `[branch "main"]`)
/// with its upstream settings. `Err` when they cannot be read, are kept in a reftable, or
/// are more than [`MAX_MESSAGE_BYTES`].
pub(in crate::policy::shell) fn ref_names_secret(
    git_dir: &std::path::Path,
) -> Result<Option<&'static str>, String> {
    const UNREAD: &str = "the repository's refs cannot be read";
    let common = crate::paths::git_index::common_dir(git_dir).ok_or(UNREAD)?;
    if common.join("reftable").exists() {
        return Err("the refs are kept in a reftable, which is not read here".to_owned());
    }
    let mut names = Vec::new();
    let mut roots = vec![common.join("refs")];
    if common != git_dir {
        roots.push(git_dir.join("refs"));
    }
    for path in files_below(roots, |entry| {
        Ok(match entry.file_type() {
            Ok(t) if t.is_dir() => Found::Directory,
            _ => Found::File,
        })
    })? {
        let name = path
            .strip_prefix(&common)
            .or_else(|_| path.strip_prefix(git_dir));
        names.extend_from_slice(name.unwrap_or(&path).as_os_str().as_encoded_bytes());
        names.push(b'\n');
    }
    let read = |file: std::path::PathBuf| match std::fs::read(file) {
        Ok(text) => Ok(text),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Vec::new()),
        Err(_) => Err(UNREAD.to_owned()),
    };
    // `packed-refs`: `ID NAME` lines, `^ID` peeled ones and a `#` header; the names count.
    let packed = read(common.join("packed-refs"))?;
    for line in packed.split(|&b| b == b'\n') {
        if let Some(at) = line.iter().position(|&b| b == b' ')
            && !line.starts_with(b"#")
        {
            names.extend_from_slice(&line[at + 1..]);
            names.push(b'\n');
        }
    }
    names.extend(read(git_dir.join("HEAD"))?);
    // Linked worktrees (`git worktree list` prints where each is, from its `gitdir`) and
    // submodules' git directories, by name.
    for (kept, gitdir) in [("worktrees", true), ("modules", false)] {
        let Ok(entries) = std::fs::read_dir(common.join(kept)) else {
            continue;
        };
        for entry in entries {
            let entry = entry.map_err(|_| UNREAD.to_owned())?;
            names.extend_from_slice(entry.file_name().as_encoded_bytes());
            names.push(b'\n');
            if gitdir {
                names.extend(read(entry.path().join("gitdir"))?);
            }
        }
    }
    for config in [common.join("config"), git_dir.join("config.worktree")] {
        let text = read(config)?;
        names.extend(branch_lines(&text));
        for line in text.split(|&b| b == b'\n') {
            if line.trim_ascii_start().starts_with(b"[") {
                names.extend_from_slice(line);
                names.push(b'\n');
            }
        }
    }
    if names.len() as u64 > MAX_MESSAGE_BYTES {
        return Err("the repository's ref names are more than can be checked".to_owned());
    }
    Ok(crate::paths::bytes_secret(&names))
}

/// What secret a name of a file the repository at `top` holds is, if one is
/// ([`crate::paths::name_secret`]): each path its index lists, each name its work tree's walk
/// finds outside what its ignore files leave out ([`crate::paths::work_tree_names_secret`];
/// with `ignored`, every name of the tree: [`crate::paths::names_secret`]),
/// and with `history` each path any commit a ref, a reflog entry or a stash holds. `Err` when
/// they cannot be read or are more than can be checked.
pub(in crate::policy::shell) fn path_names_secret(
    top: &std::path::Path,
    history: Option<&HistoryNames<'_>>,
    ignored: bool,
) -> Result<Option<&'static str>, String> {
    // A repository nothing was ever added to has no index: it lists nothing.
    let index = match crate::paths::git_index::Index::of(top) {
        Some(index) => Some(index),
        None if std::fs::symlink_metadata(
            crate::paths::git_index::git_dir_of(top).join("index"),
        )
        .is_err_and(|e| e.kind() == std::io::ErrorKind::NotFound) =>
        {
            None
        }
        None => return Err("the repository's index cannot be read".to_owned()),
    };
    if let Some(what) = index
        .iter()
        .flat_map(|i| i.paths())
        .find_map(|p| crate::paths::name_secret(p.as_bytes()))
    {
        return Ok(Some(what));
    }
    let walked = if ignored {
        crate::paths::names_secret(top, true).map(|found| found.map(|(_, what)| what))
    } else {
        crate::paths::work_tree_names_secret(top)
    };
    if let Some(what) =
        walked.map_err(|_| "the work tree holds more names than can be checked".to_owned())?
    {
        return Ok(Some(what));
    }
    let Some(history) = history else {
        return Ok(None);
    };
    // The commits the command itself reaches, when it runs at the top of the workspace's own
    // repository and nothing else in the script moves HEAD; any commit otherwise.
    let reach = match history.sub {
        Some((sub, rest)) if !history.moved && top == history.root => names_reach(top, sub, rest),
        _ => Reach::All,
    };
    // Its own commits may not list (`git show v9 --stat` of no such tag prints nothing but
    // an error): then the names of every commit the refs and reflogs hold, which holds them
    // when they are any of those, are checked.
    let walked = match history_names(top, reach.clone(), &[]) {
        Err(_) if reach != Reach::All => history_names(top, Reach::All, &[])?,
        walked => walked?,
    };
    Ok(walked
        .names
        .iter()
        .find_map(|p| crate::paths::name_secret(p.as_bytes())))
}

/// Which commits the git subcommand `sub` with `rest` may print names of files of, from the
/// top `root` of the workspace's repository: HEAD's tree for `git status`, and for `git diff`,
/// `git grep`, `git blame` given no revision (a file staged for deletion is named by HEAD
/// alone); every commit for `git stash` (a stash's untracked files are a commit of their own);
/// what [`reach`] says otherwise.
fn names_reach(root: &std::path::Path, sub: &str, rest: &[Word]) -> Reach {
    let head = || Reach::Commits(vec!["HEAD^{commit}".to_owned()]);
    let git_dir = root.join(".git");
    let revisions = || {
        let texts: Vec<Option<&str>> = rest.iter().map(Word::literal).collect();
        let before = &texts[..texts
            .iter()
            .position(|t| *t == Some("--"))
            .unwrap_or(texts.len())];
        let given = before
            .iter()
            .any(|t| t.is_some_and(|t| t == "-e" || t == "-f" || t.starts_with("--regexp")));
        let words = if sub == "grep" {
            grep_operands(before)
        } else {
            before.to_vec()
        };
        let skip = usize::from(sub == "grep" && !given);
        words.iter().skip(skip).any(|t| {
            t.is_none_or(|t| {
                (!t.starts_with('-') || t == "-") && !path_operand(root, &git_dir, rest, t)
            })
        })
    };
    match sub {
        "status" => head(),
        "stash" => Reach::All,
        "diff" | "diff-index" | "grep" | "blame" | "annotate" if !revisions() => head(),
        _ => reach(root, sub, rest),
    }
}

/// What a command printing the names of files commits hold says of which commits.
pub(in crate::policy::shell) struct HistoryNames<'a> {
    /// The workspace's top.
    pub root: &'a std::path::Path,
    /// Its git subcommand and the words after it, when it runs at that top with no global
    /// option; `None` otherwise (any commit counts).
    pub sub: Option<(&'a str, &'a [Word])>,
    /// Whether another command of the script may move HEAD or the refs first.
    pub moved: bool,
}

/// Which pattern files of the work tree a command prints lines or values of.
#[derive(Debug, Clone, Copy)]
pub(in crate::policy::shell) struct Patterns {
    /// The ignore patterns (`git check-ignore -v`): `.gitignore` files and `info/exclude`.
    pub ignores: bool,
    /// The attributes and their values (`git check-attr`): `.gitattributes` files and
    /// `info/attributes`.
    pub attributes: bool,
}

/// The lines of a git configuration file that name a branch's upstream: its `[branch …]`
/// section headers and `remote`/`merge` settings (each with the lines a trailing `\`
/// continues), one to a line.
fn branch_lines(text: &[u8]) -> Vec<u8> {
    let mut kept = Vec::new();
    let mut continued = false;
    for line in text.split(|&b| b == b'\n') {
        let trimmed = line.trim_ascii_start().to_ascii_lowercase();
        if continued
            || ["[branch", "remote", "merge"]
                .iter()
                .any(|k| trimmed.starts_with(k.as_bytes()))
        {
            kept.extend_from_slice(line);
            kept.push(b'\n');
            continued = line.trim_ascii_end().ends_with(b"\\");
        }
    }
    kept
}

/// The most entries [`files_below`] looks at.
const MAX_BELOW: usize = 200_000;

/// What [`files_below`] does with an entry.
enum Found {
    /// A directory to walk.
    Directory,
    /// A file to read.
    File,
    /// Neither.
    Other,
}

/// The files below the directories `dirs` that `sort` keeps, walking the directories it
/// says are ones; a directory that cannot be read holds nothing (git reads none of it).
/// `Err` from `sort`, or past [`MAX_BELOW`] entries.
fn files_below(
    mut dirs: Vec<std::path::PathBuf>,
    mut sort: impl FnMut(&std::fs::DirEntry) -> Result<Found, String>,
) -> Result<Vec<std::path::PathBuf>, String> {
    let mut files = Vec::new();
    let mut visited = 0usize;
    while let Some(d) = dirs.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for entry in entries.flatten() {
            visited += 1;
            if visited > MAX_BELOW {
                return Err(format!(
                    "`{}` holds more entries than are looked at",
                    d.display()
                ));
            }
            match sort(&entry)? {
                Found::Directory => dirs.push(entry.path()),
                Found::File => files.push(entry.path()),
                Found::Other => {}
            }
        }
    }
    Ok(files)
}

/// The most bytes of one reflog [`kept_texts_secret`] scans at once.
const REFLOG_CHUNK: usize = 256 * 1024;

/// What secret the texts a repository keeps beside its objects hold, if one does: every
/// reflog when `reflogs` (`git reflog`, `git stash list`, `%gs`: each entry's message and
/// identity) and the work tree's `.mailmap` (the names `%aN`, `git shortlog` and `git blame` print). `Err`
/// when they cannot be read: reflogs kept in a reftable, a `.mailmap` that is a link, more
/// than [`MAX_MESSAGE_BYTES`].
fn kept_texts_secret(dir: &std::path::Path, reflogs: bool) -> Result<Option<&'static str>, String> {
    let mut places = Vec::new();
    let rev_parse = |args: &[&str], places: &mut Vec<std::path::PathBuf>| {
        run_git(dir, args, None, |line| {
            if !line.is_empty() {
                places.push(std::path::PathBuf::from(line));
            }
            true
        })
    };
    rev_parse(
        &[
            "rev-parse",
            "--path-format=absolute",
            "--git-dir",
            "--git-common-dir",
            "--is-bare-repository",
        ],
        &mut places,
    )?;
    // A bare repository has no work tree; its `.mailmap` is the blob `HEAD:.mailmap`.
    let bare = places.last().is_some_and(|b| b.as_os_str() == "true");
    if bare {
        if run_git(dir, &["cat-file", "-e", "HEAD:.mailmap"], None, |_| true).is_ok() {
            return Err("a bare repository's `.mailmap` is not read here".to_owned());
        }
    } else {
        rev_parse(&["rev-parse", "--show-toplevel"], &mut places)?;
    }
    let (git_dir, common, top) = match places.as_slice() {
        [git_dir, common, _, top] => (git_dir, common, Some(top)),
        [git_dir, common, _] if bare => (git_dir, common, None),
        _ => return Err(UNREADABLE.to_owned()),
    };
    if reflogs && common.join("reftable").exists() {
        return Err("the reflogs are kept in a reftable, which is not read here".to_owned());
    }
    let mut files = Vec::new();
    let mut logs = Vec::new();
    if reflogs {
        logs.push(git_dir.join("logs"));
        if common != git_dir {
            logs.push(common.join("logs"));
        }
    }
    files.extend(files_below(logs, |entry| match entry.file_type() {
        Ok(t) if t.is_dir() => Ok(Found::Directory),
        Ok(t) if t.is_file() => Ok(Found::File),
        _ => Err(UNREADABLE.to_owned()),
    })?);
    if let Some(top) = top {
        let mailmap = top.join(".mailmap");
        match std::fs::symlink_metadata(&mailmap) {
            Ok(m) if m.is_file() => files.push(mailmap),
            Ok(_) => return Err("`.mailmap` is not a plain file".to_owned()),
            Err(_) => {}
        }
    }
    let mut total = 0u64;
    for file in files {
        let text = std::fs::read(&file).map_err(|_| UNREADABLE.to_owned())?;
        total += text.len() as u64;
        if total > MAX_MESSAGE_BYTES {
            return Err("the repository's reflogs are larger than can be checked".to_owned());
        }
        // In chunks of whole lines: an entry is one line.
        let mut rest = text.as_slice();
        while !rest.is_empty() {
            let end = if rest.len() <= REFLOG_CHUNK {
                rest.len()
            } else {
                rest[..REFLOG_CHUNK]
                    .iter()
                    .rposition(|&b| b == b'\n')
                    .map_or(REFLOG_CHUNK, |at| at + 1)
            };
            if let Some(what) = crate::paths::bytes_secret(&rest[..end]) {
                return Ok(Some(what));
            }
            rest = &rest[end..];
        }
    }
    Ok(None)
}

/// What secret the raw commit or tag objects `ids` (whole ids) of the repository git finds
/// from `dir` hold, if one does ([`messages_secret`]); those known clean are not read
/// again ([`KNOWN_CLEAN`]).
fn messages_of(dir: &std::path::Path, ids: &[String]) -> Result<Option<&'static str>, String> {
    let store = crate::paths::git_index::git_dir_of(dir);
    let store = crate::paths::git_index::common_dir(&store).unwrap_or(store);
    let wanted: Vec<&String> = {
        let guard = KNOWN_CLEAN.lock().ok();
        let mut key = (store.clone(), String::new());
        ids.iter()
            .filter(|id| {
                !guard.as_ref().is_some_and(|k| {
                    key.1.clear();
                    key.1.push_str(id);
                    k.contains(&key)
                })
            })
            .collect()
    };
    if wanted.is_empty() {
        return Ok(None);
    }
    let input: String = wanted.iter().map(|id| format!("{id}\n")).collect();
    let mut found = None;
    let mut other_encoding = None;
    let mut clean = Vec::new();
    run_git_reading(dir, &["cat-file", "--batch"], Some(input), |out| {
        let mut total: u64 = 0;
        for id in &wanted {
            // `ID TYPE SIZE`, the object and a newline.
            let mut header = Vec::new();
            if out.read_until(b'\n', &mut header).is_err() {
                return Read::Malformed;
            }
            let header = String::from_utf8_lossy(&header);
            let Some((listed, _, size)) = batch_header(&header) else {
                return Read::Malformed;
            };
            if listed != id.as_str() {
                return Read::Malformed;
            }
            total += size;
            if total > MAX_MESSAGE_BYTES {
                return Read::Over;
            }
            let Some(object) = batch_content(out, size) else {
                return Read::Malformed;
            };
            if let Some(name) = message_encoding(&object) {
                other_encoding = Some(name);
                return Read::Enough;
            }
            match crate::paths::bytes_secret(&object) {
                Some(what) => {
                    found = Some(what);
                    return Read::Enough;
                }
                None => clean.push((*id).clone()),
            }
        }
        Read::Done
    })?;
    if let Some(name) = other_encoding {
        return Err(format!(
            "a message is written in `{name}`, which git prints re-encoded"
        ));
    }
    if let Ok(mut k) = KNOWN_CLEAN.lock() {
        if k.len() + clean.len() > MAX_KNOWN_CLEAN {
            k.clear();
        }
        k.extend(clean.into_iter().map(|id| (store.clone(), id)));
    }
    Ok(found)
}

/// The id, type and size of the object `git cat-file --batch` prints next, from its header
/// line (`ID TYPE SIZE`).
fn batch_header(header: &str) -> Option<(&str, &str, u64)> {
    let mut fields = header.trim_end().split(' ');
    match (fields.next(), fields.next(), fields.next(), fields.next()) {
        (Some(id), Some(kind), Some(size), None) => Some((id, kind, size.parse().ok()?)),
        _ => None,
    }
}

/// The `size` bytes of the object `git cat-file --batch` prints after its header, and the
/// newline that ends them; `None` when `out` does not hold them.
fn batch_content(out: &mut dyn std::io::BufRead, size: u64) -> Option<Vec<u8>> {
    use std::io::Read as _;
    let mut content = Vec::new();
    let read = out.take(size + 1).read_to_end(&mut content).ok()?;
    (read as u64 == size + 1 && content.pop() == Some(b'\n')).then_some(content)
}

/// The encoding the raw commit or tag `object` says its message is in (its `encoding`
/// header), when it is not UTF-8.
fn message_encoding(object: &[u8]) -> Option<String> {
    let headers = object
        .split(|&b| b == b'\n')
        .take_while(|line| !line.is_empty());
    for line in headers {
        if let Some(name) = line.strip_prefix(b"encoding ") {
            let name = String::from_utf8_lossy(name).trim().to_owned();
            let utf8 = name.eq_ignore_ascii_case("utf-8") || name.eq_ignore_ascii_case("utf8");
            return (!utf8).then_some(name);
        }
    }
    None
}

/// What secret the object `name` (`REV:PATH`, `:PATH`, as `git cat-file` reads it in the
/// repository at `root`, from its top) holds, if it is a file: `Err` when it cannot be read.
pub(in crate::policy::shell) fn named_object_secret(
    root: &std::path::Path,
    name: &str,
) -> Result<Option<&'static str>, String> {
    if name.contains('\n') {
        return Err(UNREADABLE.to_owned());
    }
    let named = [(name.to_owned(), name.to_owned())];
    Ok(objects_secret(root, &named)?.map(|(_, what)| what))
}

/// The first of `objects` (`(ID, PATH)`, files and directories of the repository at `root`;
/// an ID may be any name of an object `git cat-file` reads) whose content is a secret ([`crate::paths::bytes_secret`]), with what it is, read from
/// the objects by `git cat-file --batch`. `Err` when they cannot be read (an object missing,
/// git failing) or are more than [`MAX_CONTENT_BYTES`] in all.
fn objects_secret(
    root: &std::path::Path,
    objects: &[(String, String)],
) -> Result<Option<(String, &'static str)>, String> {
    let store = crate::paths::git_index::git_dir_of(root);
    let store = crate::paths::git_index::common_dir(&store).unwrap_or(store);
    // An object named otherwise than by its whole id (`HEAD~1:notes.md`) is whatever the
    // name leads to now.
    let whole_id =
        |id: &str| matches!(id.len(), 40 | 64) && id.bytes().all(|b| b.is_ascii_hexdigit());
    let mut wanted: Vec<&(String, String)> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    {
        // One lock for the whole filter; a poisoned one knows nothing.
        let guard = KNOWN_CLEAN.lock().ok();
        let mut key = (store.clone(), String::new());
        for object in objects {
            let known = whole_id(&object.0)
                && guard.as_ref().is_some_and(|k| {
                    key.1.clear();
                    key.1.push_str(&object.0);
                    k.contains(&key)
                });
            if seen.insert(object.0.as_str()) && !known {
                wanted.push(object);
            }
        }
    }
    if wanted.is_empty() {
        return Ok(None);
    }
    let input: String = wanted.iter().map(|(id, _)| format!("{id}\n")).collect();
    let mut found = None;
    let mut clean = Vec::new();
    run_git_reading(root, &["cat-file", "--batch"], Some(input), |out| {
        let mut total: u64 = 0;
        for (id, path) in &wanted {
            // `ID TYPE SIZE`, the content and a newline; `ID missing` for no such object.
            let mut header = Vec::new();
            if out.read_until(b'\n', &mut header).is_err() {
                return Read::Malformed;
            }
            let header = String::from_utf8_lossy(&header);
            // A name that leads to no object (`HEAD:no-such-file`) is printed by no command;
            // an object named by its id that the objects lack may be fetched when printed.
            if !whole_id(id)
                && matches!(
                    header.trim_end().strip_prefix(id.as_str()),
                    Some(" missing" | " ambiguous")
                )
            {
                continue;
            }
            let Some((listed, kind, size)) = batch_header(&header) else {
                return Read::Malformed;
            };
            if whole_id(id) && listed != id || !whole_id(listed) {
                return Read::Malformed;
            }
            total += size;
            if total > MAX_CONTENT_BYTES {
                return Read::Over;
            }
            if kind == "blob" && size > crate::paths::CONTENT_SCAN_BYTES {
                found = Some((path.clone(), crate::paths::LONGER_THAN_SCANNED));
                return Read::Enough;
            }
            let Some(content) = batch_content(out, size) else {
                return Read::Malformed;
            };
            if kind != "blob" {
                continue;
            }
            match crate::paths::bytes_secret(&content) {
                Some(what) => {
                    found = Some((path.clone(), what));
                    return Read::Enough;
                }
                None => clean.push(listed.to_owned()),
            }
        }
        Read::Done
    })?;
    if let Ok(mut k) = KNOWN_CLEAN.lock() {
        if k.len() + clean.len() > MAX_KNOWN_CLEAN {
            k.clear();
        }
        k.extend(clean.into_iter().map(|id| (store.clone(), id)));
    }
    Ok(found)
}

/// Whether the revision word `t` (`v1.2`, `main~2`, `main...topic`, `^origin/main`,
/// `3f2a1bc`, `topic:src/lib.rs`) names only commits the refs of the repository at `root` reach: each side of a
/// range is HEAD or a branch, tag or remote-tracking ref, followed by `~N`/`^N` steps, or a
/// commit id (whole or abbreviated) that `git rev-list --all --reflog` lists. What
/// `git rev-list --objects --all --reflog` names is what the history's check reads, so such
/// a commit's files are checked for secrets. A pseudo-ref (`FETCH_HEAD`, `ORIG_HEAD`) may
/// name a commit no ref holds: not reached.
pub(in crate::policy::shell) fn reached_by_refs(root: &std::path::Path, t: &str) -> bool {
    let git_dir = root.join(".git");
    // `REV:path`: a file of REV's tree.
    let t = match t.split_once(':') {
        Some((rev, _)) if !rev.is_empty() => rev,
        Some(_) => return false,
        None => t,
    };
    let Some(bases) = revision_bases(t) else {
        return false;
    };
    let mut ids = Vec::new();
    let mut refs: Vec<std::borrow::Cow<'_, str>> = Vec::new();
    for base in bases {
        let hex = base.len() >= 4 && base.bytes().all(|b| b.is_ascii_hexdigit());
        if base.is_empty() || matches!(base, "HEAD" | "@") {
            continue;
        }
        // A branch's upstream or push target (`@{u}`, `main@{push}`): the ref it names.
        if base.contains("@{") {
            match upstream_ref(root, base) {
                Some(full) if matches!(revision(&git_dir, &full), Revision::Object(_)) => {
                    refs.push(full.into());
                    continue;
                }
                _ => return false,
            }
        }
        if hex {
            ids.push(base.to_ascii_lowercase());
            continue;
        }
        let pseudo = base.bytes().all(|b| b.is_ascii_uppercase() || b == b'_');
        if pseudo || !matches!(revision(&git_dir, base), Revision::Object(_)) {
            return false;
        }
        refs.push(base.into());
    }
    // A tag may name a blob (printed whole, with no path the history's check could read) or
    // a tree: each ref must lead to a commit (`REF^{commit}` fails otherwise).
    if !refs.is_empty() {
        let peeled: Vec<String> = refs.iter().map(|r| format!("{r}^{{commit}}")).collect();
        let mut args = vec!["--no-walk"];
        args.extend(peeled.iter().map(String::as_str));
        args.push("--");
        if rev_list(root, &args, |_| true).is_err() {
            return false;
        }
    }
    if ids.is_empty() {
        return true;
    }
    // Each id must be the start of exactly one listed commit (git refuses an ambiguous one).
    let mut found = vec![0usize; ids.len()];
    let listed = rev_list(root, &["--all", "--reflog"], |commit| {
        for (id, n) in ids.iter().zip(found.iter_mut()) {
            if commit.starts_with(id.as_str()) {
                *n += 1;
            }
        }
        true
    });
    listed.is_ok() && found.iter().all(|n| *n == 1)
}

/// Whether the pathspec `spec` may cover the tracked path `path`: magic (`:(glob)`), globs,
/// an absolute path and a spelling git normalises (`..`, `config/.`, `a//b`) may cover
/// anything; names are compared without case (`git --icase-pathspecs`, a case-insensitive
/// file system).
fn covers(spec: &str, path: &str) -> bool {
    if !plain_pathspec(spec) {
        return true;
    }
    let spec = spec.trim_start_matches("./").trim_end_matches('/');
    let (spec, path) = (spec.to_ascii_lowercase(), path.to_ascii_lowercase());
    path == spec || path.strip_prefix(&spec).is_some_and(|r| r.starts_with('/'))
}

/// Whether the pathspec `spec` names a file or a directory from the top as written (a
/// leading `./` and a trailing `/` aside): no magic (`:(glob)`), glob, absolute path or
/// spelling git normalises (`..`, `config/.`, `a//b`), any of which may cover anything.
fn plain_pathspec(spec: &str) -> bool {
    let spec = spec.trim_start_matches("./").trim_end_matches('/');
    !spec.is_empty()
        && !spec
            .split('/')
            .any(|c| c.is_empty() || c == "." || c == "..")
        && !spec.starts_with([':', '/'])
        && !spec.contains(['*', '?', '[', '\\'])
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
    // Short options run together (`-ap`, `-Rp`, `-pU1`) or with a value: any that may hold
    // one printing contents.
    let clustered = before.iter().flatten().any(|t| {
        t.len() > 2
            && t.starts_with('-')
            && !t.starts_with("--")
            && t.contains(['p', 'u', 'W', 'U', 'L', 'c', 'm'])
    });
    // A search of the contents (`-S`, `-G`, `--find-object`) answers whether a file held a
    // text, which asked again and again prints it.
    let pickaxe = has_prefix(&["-S", "-G", "--pickaxe", "--find-object"]);
    let patch = unknown || has(PATCH) || has_prefix(PATCH_PREFIXES) || clustered || pickaxe;
    let no_patch = has(NO_PATCH) || has_prefix(&["--dirstat=", "--stat="]);
    // The pathspecs after `--` (a word only known when it runs: every file). With
    // `--full-diff` they only pick commits, each printed whole: every file.
    let after: Vec<String> = match dashdash {
        _ if has_prefix(&["--full-diff"]) => Vec::new(),
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
    // Given one path, `git log` and `git show` follow its renames with `--follow` (or an
    // abbreviation) or when the configuration says so (`log.follow`): they print the file
    // under its older names, `.env` among them, which the path does not cover.
    let followed = |specs: Vec<String>| {
        let asked = unknown
            || before
                .iter()
                .flatten()
                .any(|t| t.len() > 2 && "--follow".starts_with(t));
        if specs.len() == 1 && (asked || configured(root, "log.follow")) {
            Vec::new()
        } else {
            specs
        }
    };
    let git_dir = root.join(".git");
    // Notes are blobs a notes ref names, printed by `git log`, `git show` and their kin when
    // asked (`--notes`, `%N`) or by default when no format is given, unless `--no-notes`, and
    // by `git notes show`: `git notes add -C ID` makes any blob of the objects a note, a file
    // removed since among them.
    let asked = before.iter().any(|t| {
        t.is_none_or(|t| {
            t.starts_with("--notes") || t.starts_with("--show-notes") || t.contains("%N")
        })
    });
    let shows_notes = match sub {
        "log" | "show" | "whatchanged" | "reflog" => {
            let formatted = has(&["--oneline", "--pretty", "--format"])
                || has_prefix(&["--pretty=", "--format="]);
            asked || !(formatted || has(&["--no-notes"]))
        }
        // Only when asked.
        "diff-tree" | "rev-list" | "range-diff" | "shortlog" => asked,
        "notes" => texts.iter().any(|t| t.is_none_or(|t| t == "show")),
        _ => false,
    };
    // `git show` prints each object the refs it walks name (`--all`, `--tags`, `--glob=…`):
    // a tag naming a blob is printed whole, whatever the diff options (`-s`, `--stat`).
    let walks_refs = before.iter().any(|t| {
        t.is_none_or(|t| {
            OTHER_REFS
                .iter()
                .any(|o| t == *o || t.starts_with(&format!("{o}=")))
        })
    });
    if sub == "show" && walks_refs {
        return Prints::AnyObject(
            "it prints every object the refs name, a blob a tag names among them, whole",
        );
    }
    if shows_notes && holds_notes(&git_dir) {
        return Prints::AnyObject(
            "it prints notes, which may be any file of any commit (`git notes add -C`)",
        );
    }
    // A word before `--` is a path when it is one in the workspace and no ref has its name.
    let is_path = |t: &str| path_operand(root, &git_dir, rest, t);
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
                Some(Some(t)) if t.ends_with("^{commit}") || t.ends_with("^{tree}") => {
                    Prints::Nothing
                }
                Some(Some(t)) if matches!(*t, "HEAD" | "@") => match head_names_a_commit(root) {
                    Ok(()) => Prints::Nothing,
                    Err(_) => Prints::AnyObject("it prints what HEAD names, which is no commit"),
                },
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
            let untracked = has(&["-u", "--include-untracked", "--only-untracked"])
                || configured(root, "stash.showIncludeUntracked");
            if no_patch && !patch {
                Prints::Nothing
            } else if untracked {
                Prints::AnyObject("it prints stashed changes, untracked files among them")
            } else {
                // The stashed changes of tracked files: a stash's commits are among those the
                // refs reach.
                Prints::Tracked(Vec::new())
            }
        }
        "grep" => {
            if has(&["--no-index", "--untracked"]) {
                return Prints::Nothing;
            }
            if has(&["--cached"]) {
                return Prints::Index(after);
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
                } else if sub == "show" {
                    followed(specs)
                } else {
                    specs
                })
            }
        }
        "log" | "whatchanged" | "reflog" if patch => Prints::Tracked(followed(after)),
        _ => Prints::Nothing,
    }
}

/// Whether the repository whose git directory is `git_dir` may hold notes: a ref under
/// `refs/notes/`, loose or packed, or refs the policy does not read (reftable).
fn holds_notes(git_dir: &std::path::Path) -> bool {
    if std::fs::symlink_metadata(git_dir.join("refs/notes")).is_ok()
        || std::fs::symlink_metadata(git_dir.join("reftable")).is_ok()
    {
        return true;
    }
    match crate::paths::small_file::read_text(&git_dir.join("packed-refs")) {
        Ok(Some(text)) => {
            text.contains("refs/notes/") || !crate::paths::git_index::packed_refs_well_formed(&text)
        }
        Ok(None) => false,
        Err(_) => true,
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

/// Whether the configuration key `key` may steer what git drops for good: git's garbage
/// collection (`gc.pruneExpire`, `gc.reflogExpire`, `gc.auto`, which any command that
/// collects garbage by itself follows) and scheduled maintenance.
fn steers_collection(key: &str) -> bool {
    let key = key.to_ascii_lowercase();
    key.starts_with("gc.") || key.starts_with("maintenance.")
}

/// The binding ask of a git command given configuration of its garbage collection for this
/// run ([`steers_collection`]: `git -c gc.pruneExpire=now gc`, `--config-env`,
/// `GIT_CONFIG_KEY_<n>` or `GIT_CONFIG_PARAMETERS` assigned or exported), or configuration
/// only known when it runs: unreachable objects pruned and reflog entries expired now are
/// commits and files dropped for good, as by `git gc --prune=now`.
pub(in crate::policy::shell) fn configured_discards(
    j: &mut Judge<'_>,
    cmd: &SimpleCommand,
    git: &super::super::git_state::Git<'_>,
) {
    let mut found: Option<String> = None;
    let mut global = git.global.iter();
    while let Some(w) = global.next() {
        let Some(t) = w.literal() else {
            found = Some(format!("`{}`", w.raw));
            break;
        };
        let entry = match t {
            "-c" | "--config-env" => global.next().map(|v| v.literal().ok_or(&v.raw)),
            _ => t
                .strip_prefix("--config-env=")
                .or_else(|| t.strip_prefix("-c"))
                .filter(|_| t.starts_with("-c") || t.starts_with("--config-env="))
                .map(Ok),
        };
        match entry {
            Some(Ok(e)) if !steers_collection(e.split('=').next().unwrap_or(e)) => {}
            Some(Ok(e)) => found = Some(format!("`{e}`")),
            Some(Err(raw)) => found = Some(format!("`{raw}`")),
            None => {}
        }
        if found.is_some() {
            break;
        }
    }
    if found.is_none() {
        found = super::super::git_state::assigned(j, cmd)
            .into_iter()
            .find(|(name, value, _)| {
                (name.starts_with("GIT_CONFIG_KEY_")
                    && value.as_deref().is_none_or(steers_collection))
                    || (name == "GIT_CONFIG_PARAMETERS"
                        && value.as_deref().is_none_or(|v| {
                            let v = v.to_ascii_lowercase();
                            v.contains("gc.") || v.contains("maintenance.")
                        }))
            })
            .map(|(name, value, raw)| match value {
                Some(v) if raw == name => format!("`{name}={v}`"),
                _ => format!("`{raw}`"),
            });
    }
    if let Some(entry) = found {
        super::super::git_state::binding(
            j,
            cmd,
            SHELL_DESTRUCTIVE,
            &format!(
                "is given {entry} as configuration, which may make git collect garbage now: unreachable objects pruned and reflog entries expired are commits dropped for good"
            ),
        );
    }
}

/// What the git subcommand `sub` with `rest` drops for good, if it drops commits, refs or
/// objects git cannot recover afterwards: a branch deleted unmerged (`-D`, `-d -f`) or
/// overwritten (`-M`, `-C`), reflog entries expired or deleted (the only way back to commits
/// no branch holds), unreachable objects pruned (`git prune`, `git gc --prune=…`), stash
/// entries dropped, a linked work tree removed with its changes (`--force`), a tag deleted or
/// moved (tags keep no reflog), packed unreachable objects dropped by `git repack -a -d`, the
/// records of linked work trees whose directory is gone pruned (their HEAD and its reflog).
/// `root` is the top of the workspace.
fn discards(root: &std::path::Path, sub: &str, rest: &[Word]) -> Option<&'static str> {
    let texts: Vec<Option<&str>> = rest.iter().map(Word::literal).collect();
    // A word only known when it runs may be any option unless its known start says it is
    // none (`"v$X"`), as the argument cursor reads it.
    let short = |c: char| {
        rest.iter().any(|w| match w.literal() {
            Some(t) => t.starts_with('-') && !t.starts_with("--") && t.contains(c),
            None => w.prefix.is_empty() || w.prefix.starts_with('-'),
        })
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
                || ((short('d') || long(&["--delete"])) && (short('f') || long(&["--force"])))
                // `git branch -f NAME [START]` resets an existing branch: its commits go.
                || short('f')
                || long(&["--force"]) =>
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
        // Only the records of linked work trees are pruned; with none, nothing is.
        "worktree" if first == Some("prune") && !dry && linked_work_trees(root) => Some(
            "drops the records of linked work trees whose directory is gone, with their HEAD and its reflog, which may be the only way to their commits",
        ),
        "tag"
            if short('d')
                || short('f')
                || long(&["--delete", "--force"])
                || abbreviates("--delete")
                || abbreviates("--force") =>
        {
            Some(
                "deletes or moves a tag, which keeps no reflog: commits and tag objects only it holds are dropped for good",
            )
        }
        // `-a -d` drops the packs it replaces with their unreachable objects (`-A` keeps them
        // loose, `--keep-unreachable` packed).
        "repack"
            if short('d')
                && short('a')
                && !short('A')
                && !short('k')
                && !long(&["--keep-unreachable"]) =>
        {
            Some("drops unreachable packed objects for good")
        }
        "repack" if long(&["--cruft-expiration"]) => Some("deletes unreachable objects for good"),
        _ => None,
    }
}

/// Whether the repository at `root` may record linked work trees (its `worktrees` directory
/// has an entry, or cannot be read).
fn linked_work_trees(root: &std::path::Path) -> bool {
    let Some(common) =
        crate::paths::git_index::common_dir(&crate::paths::git_index::git_dir_of(root))
    else {
        return true;
    };
    match std::fs::read_dir(common.join("worktrees")) {
        Ok(mut entries) => entries.next().is_some(),
        Err(e) => e.kind() != std::io::ErrorKind::NotFound,
    }
}

#[cfg(test)]
mod tests {
    use super::{Prints, discards, printed};
    use crate::shell::Word;

    /// Words split at blanks; one with a `$` is only known when it runs, its known start
    /// what comes before the `$` (quotes dropped).
    fn words(text: &str) -> Vec<Word> {
        text.split_whitespace()
            .map(|t| match t.split_once('$') {
                Some((start, _)) => Word::dynamic(t, start.trim_start_matches('"')),
                None => Word::literal_text(t),
            })
            .collect()
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
            // No repository: what HEAD names cannot be told.
            ("cat-file", "-p HEAD"),
            ("unpack-file", "1234abcd"),
            ("pack-objects", "--stdout"),
            // No repository: whether its configuration shows untracked files cannot be told.
            ("stash", "show -p"),
            ("stash", "show -u"),
            ("stash", "show"),
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
            ("fast-export", "HEAD"),
            ("format-patch", "-1 --stdout"),
            ("bundle", "create - HEAD"),
            ("archive", "HEAD"),
            ("range-diff", "a b c"),
        ] {
            assert_eq!(
                prints(sub, rest),
                Prints::Tracked(Vec::new()),
                "{sub} {rest}"
            );
        }
        // Short options run together, and searches of the contents.
        for (sub, rest) in [
            ("log", "-ap"),
            ("log", "-Rp old"),
            ("log", "-pU1"),
            ("log", "--oneline -up"),
            ("log", "--format=%h -G KEY"),
            ("log", "-SKEY --oneline"),
            ("log", "--pickaxe-regex -S x"),
            ("show", "-s -Rp HEAD~2"),
            ("diff", "--stat -ap HEAD~2"),
        ] {
            assert!(
                matches!(prints(sub, rest), Prints::Tracked(_)),
                "{sub} {rest}"
            );
        }
        // One path: without a repository, whether git follows its renames (`log.follow`)
        // cannot be told, and they may lead anywhere. Two: git follows none.
        assert_eq!(prints("log", "-p -- src"), Prints::Tracked(Vec::new()));
        assert_eq!(
            prints("log", "-p -- src docs"),
            Prints::Tracked(vec!["src".to_owned(), "docs".to_owned()])
        );
        assert_eq!(
            prints("archive", "--prefix x/ HEAD src"),
            Prints::Tracked(vec!["src".to_owned()])
        );
        assert_eq!(prints("grep", "--cached x"), Prints::Index(Vec::new()));
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
    fn the_commits_show_and_diff_compare_are_read_off_their_words() {
        let root = std::path::Path::new("/nonexistent-root");
        let compared = |sub: &str, rest: &str| super::commits_compared(root, sub, &words(rest));
        let some = |c: &[&str]| Some(c.iter().map(|c| (*c).to_owned()).collect::<Vec<_>>());
        assert_eq!(
            compared("show", ""),
            some(&["HEAD^{commit}", "HEAD^{commit}^@"])
        );
        assert_eq!(
            compared("show", "--stat -p v1"),
            some(&["v1^{commit}", "v1^{commit}^@"])
        );
        assert_eq!(compared("diff", "--cached"), some(&["HEAD^{commit}"]));
        assert_eq!(
            compared("diff", "-U5 main..topic"),
            some(&["main^{commit}", "topic^{commit}"])
        );
        assert_eq!(
            compared("diff", "main.."),
            some(&["main^{commit}", "HEAD^{commit}"])
        );
        assert_eq!(
            compared("diff", "HEAD~2 HEAD"),
            some(&["HEAD~2^{commit}", "HEAD^{commit}"])
        );
        // Which commits is not said exactly, or not only by the words.
        for (sub, rest) in [
            ("diff", ""),
            ("diff", "main...topic"),
            // Paths: the walk of the history is limited to them instead.
            ("show", "v1 -- src"),
            ("diff", "HEAD~1 -- src"),
            ("diff", "--merge-base main"),
            ("diff", "HEAD:a HEAD~1:a"),
            ("diff", "$REV"),
            ("diff", "--submodule=diff HEAD~1"),
            ("diff", "--ext-diff HEAD~1"),
            ("diff", "--output=x HEAD~1"),
            ("show", "HEAD~3..HEAD"),
            ("show", "^HEAD~1 HEAD"),
            ("show", "--do-walk HEAD"),
            ("show", "-n 3 HEAD"),
            ("show", "-m HEAD"),
            ("show", "--all"),
            ("show", "--first-parent"),
            ("log", "-p -1"),
            ("grep", "x HEAD"),
        ] {
            assert_eq!(compared(sub, rest), None, "{sub} {rest}");
        }
    }

    #[test]
    fn commands_that_drop_commits_or_objects_for_good() {
        let root = std::path::Path::new("/nonexistent-root");
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
            ("tag", "-d v1"),
            ("tag", "--delete v1"),
            ("tag", "--del v1"),
            ("tag", "-f v1 HEAD~1"),
            ("tag", "-fa -m x v1"),
            ("repack", "-a -d"),
            ("repack", "-adf"),
            ("repack", "--cruft --cruft-expiration=now -d"),
            // Words only known when they run, which may be `-d`.
            ("tag", "-l \"$P\""),
            ("tag", "-l $P"),
            ("tag", "\"-$X\" v1"),
            ("tag", "\"--$X\" v1"),
            ("branch", "--list \"$P\""),
        ] {
            assert!(discards(root, sub, &words(rest)).is_some(), "{sub} {rest}");
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
            ("tag", ""),
            ("tag", "-l v*"),
            // A pattern whose known start is no option's.
            ("tag", "-l \"v$X\""),
            ("tag", "-l \"v$X*\""),
            ("tag", "-a -m release v2"),
            ("tag", "--sort=-creatordate"),
            ("repack", "-A -d"),
            ("repack", "-a -d --keep-unreachable"),
            ("repack", "-d"),
            ("worktree", "prune"),
        ] {
            assert!(discards(root, sub, &words(rest)).is_none(), "{sub} {rest}");
        }
        // Records of linked work trees are pruned only when there are some.
        let ws = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(ws.path().join(".git/worktrees/wt")).unwrap();
        assert!(discards(ws.path(), "worktree", &words("prune")).is_some());
        assert!(discards(ws.path(), "worktree", &words("prune -n")).is_none());
        std::fs::remove_dir(ws.path().join(".git/worktrees/wt")).unwrap();
        assert!(discards(ws.path(), "worktree", &words("prune")).is_none());
    }

    #[test]
    fn pathspecs_cover_what_they_name() {
        assert!(super::covers("src", "src/main.rs"));
        assert!(super::covers("./", ".env"));
        assert!(super::covers("*.rs", ".env"));
        assert!(super::covers(":(exclude)x", ".env"));
        assert!(!super::covers("src", ".env"));
        assert!(!super::covers("src", "srcx/.env"));
        // Spellings git normalises, and case.
        for spec in [
            "config/.",
            "./config/.",
            "/tmp/ws",
            "a/../config",
            "config//x",
            "CONFIG",
        ] {
            assert!(super::covers(spec, "config/x/.env"), "{spec}");
        }
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

    /// Each command of `cases` whose stop (a hard deny or an ask in full access) is not the
    /// one given, with why.
    async fn wrong_stops(root: &std::path::Path, cases: &[(&str, bool)]) -> Vec<String> {
        let mut wrong = Vec::new();
        for (command, stop) in cases {
            let (stopped, why) = stops(root, command).await;
            if stopped != *stop {
                wrong.push(format!("{command}: stopped {stopped} ({why})"));
            }
        }
        wrong
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

    /// A repository another user owns is read as the agent's own git would read it: git's
    /// ownership check (`safe.directory`) leaves neither the allow of a command printing
    /// nothing secret nor the stop of one printing a secret untold. Run as root only (the
    /// repository is given to `nobody`).
    #[tokio::test]
    async fn a_repository_another_user_owns_is_read() {
        use warrant_core::call::PermissionMode::Default;
        use warrant_core::evaluator::Stance;
        let Some(ws) = repository() else { return };
        let git = |args: &[&str]| {
            std::process::Command::new("git")
                .args(["-c", "user.name=t", "-c", "user.email=t@t"])
                .args(args)
                .current_dir(ws.path())
                .output()
                .is_ok_and(|o| o.status.success())
        };
        assert!(git(&["rm", "-q", "--cached", ".env"]) && git(&["commit", "-qm", "two"]));
        std::fs::remove_file(ws.path().join(".env")).unwrap();
        std::fs::write(ws.path().join("src/main.rs"), "fn main() { 1; }\n").unwrap();
        assert!(git(&["commit", "-qam", "three"]));
        let given = |dir: &std::path::Path| std::os::unix::fs::chown(dir, Some(65534), None);
        let mut dirs = vec![ws.path().to_path_buf()];
        while let Some(dir) = dirs.pop() {
            if given(&dir).is_err() {
                eprintln!("not run: the repository cannot be given to another user");
                return;
            }
            if dir.is_dir() && !dir.is_symlink() {
                dirs.extend(std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()));
            }
        }
        let mut wrong = Vec::new();
        for (command, allowed) in [
            ("git status", true),
            ("git diff --stat", true),
            ("git log --stat -1", true),
            ("git log -p -1", true),
            ("git log -p", false),
            ("git show HEAD~1:.env", false),
        ] {
            let (s, why) = stance(ws.path(), Default, command).await;
            if (s == Stance::PolicyAllow) != allowed {
                wrong.push(format!("`{command}`: {s:?} ({why})"));
            }
        }
        assert!(wrong.is_empty(), "\n{}", wrong.join("\n"));
    }

    #[tokio::test]
    async fn a_tracked_secret_printed_from_the_objects_binds_in_full_access() {
        let Some(ws) = repository() else { return };
        let mut wrong = Vec::new();
        wrong.extend(
            wrong_stops(
                ws.path(),
                &[
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
                ],
            )
            .await,
        );
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

    /// Runs git with `args` in `dir` as a fixed author; whether it succeeded.
    fn git_in(dir: &std::path::Path, args: &[&str]) -> bool {
        std::process::Command::new("git")
            .args(["-c", "user.name=t", "-c", "user.email=t@t"])
            .args(["-c", "core.hooksPath=/dev/null"])
            .args(args)
            .current_dir(dir)
            .output()
            .is_ok_and(|o| o.status.success())
    }

    /// A repository whose history holds `.env`, committed and then removed, with commits
    /// changing `src/main.rs` before and after; `None` without git.
    fn removed_secret() -> Option<tempfile::TempDir> {
        let ws = repository()?;
        let git = |args: &[&str]| assert!(git_in(ws.path(), args), "git {args:?}");
        std::fs::write(ws.path().join("src/main.rs"), "fn main() { 1; }\n").unwrap();
        git(&["commit", "-qam", "two"]);
        git(&["rm", "-q", ".env"]);
        git(&["commit", "-qm", "three"]);
        std::fs::write(ws.path().join("src/main.rs"), "fn main() { 2; }\n").unwrap();
        git(&["commit", "-qam", "four"]);
        Some(ws)
    }

    /// A key under a name that says nothing (`notes.md`), committed once and replaced since,
    /// or staged and then replaced in the work tree, is printed from the objects: found by
    /// its content there, not by the work tree's file.
    #[tokio::test]
    async fn a_key_the_objects_hold_under_a_plain_name_binds_in_full_access() {
        let Some(ws) = tempfile::tempdir().ok() else {
            return;
        };
        let git = |args: &[&str]| git_in(ws.path(), args);
        if !git(&["init", "-q", "-b", "main"]) {
            return;
        }
        let key = "-----BEGIN PRIVATE KEY-----\nMC4CAQAw\n-----END PRIVATE KEY-----\n";
        std::fs::write(ws.path().join("README.md"), "hello\n").unwrap();
        assert!(git(&["add", "."]) && git(&["commit", "-qm", "one"]));
        std::fs::write(ws.path().join("notes.md"), key).unwrap();
        assert!(git(&["add", "."]) && git(&["commit", "-qm", "key"]));
        std::fs::write(ws.path().join("notes.md"), "clean\n").unwrap();
        assert!(git(&["commit", "-qam", "clean"]));
        std::fs::write(ws.path().join("README.md"), "hello again\n").unwrap();
        assert!(git(&["commit", "-qam", "readme"]));
        let mut wrong = wrong_stops(
            ws.path(),
            &[
                ("git show HEAD~2", true),
                ("git show HEAD~1", true),
                ("git diff HEAD~3 HEAD~2", true),
                ("git log -p", true),
                ("git log -p -- notes.md", true),
                ("git log -p -3", true),
                ("git show HEAD~2:notes.md", true),
                ("git cat-file -p HEAD~2:notes.md", true),
                ("git show HEAD~2:./notes.md", true),
                // The commits and files that do not hold it.
                ("git show", false),
                ("git log -p -1", false),
                ("git log -p -- README.md", false),
                ("git show HEAD:notes.md", false),
                ("git show HEAD~2:README.md", false),
                ("git show HEAD~3:notes.md", false),
                ("git diff HEAD~1", false),
                ("git diff HEAD~3 HEAD", false),
                ("git diff", false),
                ("git diff --cached", false),
            ],
        )
        .await;
        // A stash of a tracked file's change prints that change alone, not the history.
        std::fs::write(ws.path().join("README.md"), "stashed\n").unwrap();
        assert!(git(&["stash", "-q"]));
        wrong.extend(
            wrong_stops(
                ws.path(),
                &[
                    ("git stash show -p", false),
                    ("git stash show -p stash@{0}", false),
                    ("git stash show -p 0", false),
                    ("git stash show -p -u", true),
                    ("git stash show -p stash@{1}", true),
                ],
            )
            .await,
        );
        // Staged, then replaced in the work tree: the index holds it.
        std::fs::write(ws.path().join("staged.txt"), key).unwrap();
        assert!(git(&["add", "staged.txt"]));
        std::fs::write(ws.path().join("staged.txt"), "clean\n").unwrap();
        wrong.extend(
            wrong_stops(
                ws.path(),
                &[
                    ("git diff", true),
                    ("git diff --cached", true),
                    ("git show :staged.txt", true),
                    ("git diff -- README.md", false),
                    ("git show HEAD:README.md", false),
                ],
            )
            .await,
        );
        assert!(wrong.is_empty(), "\n{}", wrong.join("\n"));
    }

    #[tokio::test]
    async fn a_secret_the_history_holds_printed_from_the_objects_binds_in_full_access() {
        let Some(ws) = removed_secret() else { return };
        let mut wrong = Vec::new();
        wrong.extend(
            wrong_stops(
                ws.path(),
                &[
                    ("git log -p", true),
                    ("git log -p --all", true),
                    ("git log --stat -p", true),
                    ("git log -p -- .", true),
                    ("git show HEAD~1", true),
                    ("git diff HEAD~3 HEAD", true),
                    ("git diff HEAD~3", true),
                    ("git diff-tree -p HEAD~1", true),
                    ("git whatchanged -p", true),
                    ("git grep KEY $(git rev-list --all)", true),
                    ("git grep KEY HEAD~3", true),
                    ("git archive HEAD~3", true),
                    ("git fast-export --all", true),
                    ("git format-patch -3 --stdout", true),
                    ("git bundle create - --all", true),
                    ("git range-diff HEAD~3...HEAD~1", true),
                    // The last two commits: the one that removed the secret prints it.
                    ("git log -p -2", true),
                    ("git log -p -n 1 HEAD~1", true),
                    ("git log -p -2 --follow -- src/main.rs", true),
                    ("git show HEAD~1 HEAD", true),
                    ("git diff HEAD~2 HEAD~1", true),
                    // Names and counts, files the pathspecs leave out, the work tree and the index;
                    // commits (and their parents) that hold no secret.
                    ("git log -p -1", false),
                    ("git log -p --max-count=1 --stat", false),
                    ("git show", false),
                    ("git show -U1 HEAD", false),
                    ("git diff HEAD~1", false),
                    ("git diff HEAD~1..HEAD", false),
                    ("git diff --cached", false),
                    ("git log --oneline", false),
                    ("git log --stat", false),
                    ("git log --name-only --all", false),
                    ("git show --stat HEAD~1", false),
                    ("git diff --stat HEAD~3", false),
                    ("git diff", false),
                    ("git log -p -- src", false),
                    ("git show HEAD~2 -- src", false),
                    ("git grep --cached KEY", false),
                    ("git show HEAD:src/main.rs", false),
                ],
            )
            .await,
        );
        assert!(wrong.is_empty(), "\n{}", wrong.join("\n"));
    }

    /// `git log --follow` (or `log.follow` in the configuration) given one path prints the
    /// file under its older names: the path covers no name then.
    #[tokio::test]
    async fn a_followed_path_covers_the_names_it_had() {
        let Some(ws) = removed_secret() else { return };
        let git = |args: &[&str]| assert!(git_in(ws.path(), args), "git {args:?}");
        // `.env` was removed at HEAD~1; a copy of it under another name, changed since.
        git(&["checkout", "-q", "HEAD~2"]);
        git(&["mv", ".env", "notes.txt"]);
        std::fs::write(ws.path().join("notes.txt"), "API_KEY=1\nmore\n").unwrap();
        git(&["commit", "-qam", "renamed"]);
        std::fs::write(ws.path().join("notes.txt"), "nothing\n").unwrap();
        git(&["commit", "-qam", "cleared"]);
        assert!(!super::configured(ws.path(), "log.follow"));
        let mut wrong = Vec::new();
        wrong.extend(
            wrong_stops(
                ws.path(),
                &[
                    ("git log -p --follow -- notes.txt", true),
                    ("git log -p --fol -- notes.txt", true),
                    ("git log -p -- notes.txt", false),
                ],
            )
            .await,
        );
        assert!(wrong.is_empty(), "\n{}", wrong.join("\n"));
        git(&["config", "log.follow", "true"]);
        assert!(super::configured(ws.path(), "log.follow"));
        assert!(super::configured(
            std::path::Path::new("/nonexistent-root"),
            "log.follow"
        ));
    }

    #[tokio::test]
    async fn a_secret_only_another_branch_holds_is_printed_by_what_walks_it() {
        let Some(ws) = removed_secret() else { return };
        let git = |args: &[&str]| assert!(git_in(ws.path(), args), "git {args:?}");
        // `main` starts after the secret was removed; `side` still holds it.
        git(&["branch", "side"]);
        git(&["checkout", "-q", "--orphan", "main"]);
        git(&["commit", "-qm", "fresh"]);
        git(&["reflog", "expire", "--expire=all", "HEAD"]);
        let mut wrong = Vec::new();
        wrong.extend(
            wrong_stops(
                ws.path(),
                &[
                    ("git log -p --all", true),
                    ("git log -p --branches", true),
                    ("git log -p side", true),
                    ("git log -p main side", true),
                    ("git log -p main..side", true),
                    ("git log -p -g", true),
                    ("git show side~1", true),
                    ("git show side:.env", true),
                    ("git diff side~3 main", true),
                    ("git diff --stat -p side~3..side", true),
                    ("git diff side~3", true),
                    ("git diff main...side", true),
                    ("git grep KEY side", true),
                    ("git log -p \"$REV\"", true),
                    ("git symbolic-ref HEAD refs/heads/side && git log -p", true),
                    ("git reset -q --soft side && git show", true),
                    ("git log -p", false),
                    ("git log -p -3", false),
                    ("git show", false),
                    ("git diff --cached", false),
                    ("git log -p src", false),
                    // A commit and its parent, or two commits, holding no secret (it was removed in
                    // the parent's parent): what is printed is theirs alone.
                    ("git show side", false),
                    ("git show --stat -p side", false),
                    ("git diff side~1 side", false),
                    ("git diff side~1..side -- src", false),
                    // Another file of a commit the refs reach.
                    ("git show side~2:src/main.rs", false),
                ],
            )
            .await,
        );
        assert!(wrong.is_empty(), "\n{}", wrong.join("\n"));
    }

    #[tokio::test]
    async fn a_secret_only_head_holds_is_printed_by_a_diff_of_the_index() {
        let Some(ws) = repository() else { return };
        assert!(git_in(ws.path(), &["rm", "-q", "--cached", ".env"]));
        for command in [
            "git diff --cached",
            "git diff HEAD",
            "git diff-index -p HEAD",
        ] {
            let (stopped, why) = stops(ws.path(), command).await;
            assert!(stopped, "{command}: {why}");
        }
    }

    #[tokio::test]
    async fn a_secret_another_command_stores_is_printed_from_the_objects() {
        // A repository whose history holds no secret, with `.env` ignored in its work tree.
        let ws = tempfile::tempdir().unwrap();
        let root = ws.path();
        std::fs::create_dir(root.join("src")).unwrap();
        std::fs::write(root.join("src/main.rs"), "fn main() {}\n").unwrap();
        std::fs::write(root.join(".gitignore"), ".env\n").unwrap();
        if !git_in(root, &["init", "-q"]) {
            return;
        }
        assert!(git_in(root, &["add", "-A"]) && git_in(root, &["commit", "-qm", "i"]));
        std::fs::write(root.join(".env"), "API_KEY=1\n").unwrap();
        let mut wrong = Vec::new();
        wrong.extend(
            wrong_stops(
                root,
                &[
                    ("git add -A -f && git commit -qm x && git show", true),
                    ("git add --force . && git diff --cached", true),
                    ("git add -f -N . && git diff", true),
                    ("git stash -u && git log -p --all", true),
                    ("git stash --all && git log -p --all", true),
                    ("git add -f . ; git grep --cached KEY", true),
                    ("for i in 1 2; do git log -p; git add -f .; done", true),
                    ("git update-index --add x && git diff --cached", true),
                    ("git add 'src/*' . && git diff --cached -- src", true),
                    ("git add \"$D\" && git diff --cached -- src", true),
                    ("git add --pathspec-from-file=l && git diff --cached", true),
                    ("git add -f && git diff --cached", true),
                    // Files the additions leave out, tracked files only, names and counts.
                    ("git add src && git diff --cached", false),
                    ("git add ./src/main.rs src/ && git show", false),
                    ("git add -u && git diff --cached", false),
                    ("git commit -qam x && git show", false),
                    ("git add -A -f && git log --stat", false),
                    ("git add -A -f && git diff --cached --name-only", false),
                    ("git log -p", false),
                ],
            )
            .await,
        );
        assert!(wrong.is_empty(), "\n{}", wrong.join("\n"));
    }

    #[tokio::test]
    async fn configuration_of_garbage_collection_binds_in_full_access() {
        let Some(ws) = repository() else { return };
        let mut wrong = Vec::new();
        wrong.extend(
            wrong_stops(
                ws.path(),
                &[
                    ("git -c gc.pruneExpire=now gc", true),
                    (
                        "git -c gc.reflogExpire=now -c gc.reflogExpireUnreachable=now gc",
                        true,
                    ),
                    ("git -cgc.pruneExpire=now gc", true),
                    ("git -c GC.PRUNEEXPIRE=now gc", true),
                    ("git --config-env=gc.pruneExpire=X gc", true),
                    ("git --config-env gc.pruneExpire=X gc", true),
                    ("git -c gc.auto=1 -c gc.pruneExpire=now commit -m x", true),
                    ("git -c \"$K\"=now gc", true),
                    (
                        "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=gc.pruneExpire GIT_CONFIG_VALUE_0=now git gc",
                        true,
                    ),
                    (
                        "export GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=gc.reflogExpire GIT_CONFIG_VALUE_0=now; git gc",
                        true,
                    ),
                    ("git -c core.quotepath=off log", false),
                    ("git gc", false),
                    ("git log --oneline", false),
                ],
            )
            .await,
        );
        assert!(wrong.is_empty(), "\n{}", wrong.join("\n"));
    }

    #[test]
    fn the_history_lists_every_name_it_holds() {
        let Some(ws) = removed_secret() else { return };
        let names = super::history_names(ws.path(), super::Reach::All, &[])
            .unwrap()
            .names;
        assert!(
            names.contains(".env") && names.contains("src/main.rs"),
            "{names:?}"
        );
        let empty = tempfile::tempdir().unwrap();
        assert!(git_in(empty.path(), &["init", "-q"]));
        assert!(
            super::history_names(empty.path(), super::Reach::Head, &[])
                .unwrap()
                .names
                .is_empty()
        );
        let none = tempfile::tempdir().unwrap();
        assert!(
            super::history_names(none.path(), super::Reach::All, &[]).is_err(),
            "no repository"
        );
    }

    /// A tip naming a file or a directory hides no path of the history's (walked from it, git
    /// would list the object once, without a path, and never under the name a commit gives
    /// it); a HEAD naming one leaves the history untold. Either way a command printing the
    /// secret is stopped. An annotated tag of a commit is an ordinary tip.
    #[tokio::test]
    async fn a_tip_naming_a_file_or_a_directory_hides_no_name_of_the_history() {
        let Some(plain) = removed_secret() else {
            return;
        };
        let rev = |dir: &std::path::Path, what: &str| {
            let out = std::process::Command::new("git")
                .args(["rev-parse", what])
                .current_dir(dir)
                .output()
                .unwrap();
            String::from_utf8(out.stdout).unwrap().trim().to_owned()
        };
        assert!(git_in(
            plain.path(),
            &["tag", "-a", "-m", "m", "v1", "HEAD"]
        ));
        let names = super::history_names(plain.path(), super::Reach::All, &[])
            .unwrap()
            .names;
        assert!(names.contains(".env"), "{names:?}");
        let mut wrong = Vec::new();
        for command in ["git cat-file -p HEAD", "git log --stat"] {
            let (stopped, why) = stops(plain.path(), command).await;
            if stopped {
                wrong.push(format!("`{command}` stopped ({why})"));
            }
        }
        /// Makes a tip of the repository in the directory name the file's blob or the
        /// directory's tree (the 2nd and 3rd arguments).
        type Tip = fn(&std::path::Path, &str, &str);
        let cases: [(&str, Tip); 5] = [
            ("a tag of the file", |d, blob, _| {
                assert!(git_in(d, &["tag", "k", blob]))
            }),
            ("an annotated tag of the file", |d, blob, _| {
                assert!(git_in(d, &["tag", "-a", "-m", "m", "k", blob]))
            }),
            ("a tag of a directory", |d, _, tree| {
                assert!(git_in(d, &["tag", "k", tree]))
            }),
            ("a reflog entry", |d, blob, _| {
                use std::io::Write;
                let zero = "0".repeat(blob.len());
                let mut log = std::fs::OpenOptions::new()
                    .append(true)
                    .open(d.join(".git/logs/HEAD"))
                    .unwrap();
                writeln!(log, "{zero} {blob} t <t@t> 1700000000 +0000\tx").unwrap();
            }),
            ("the branch HEAD is on", |d, blob, _| {
                let out = std::process::Command::new("git")
                    .args(["symbolic-ref", "HEAD"])
                    .current_dir(d)
                    .output()
                    .unwrap();
                let branch = String::from_utf8(out.stdout).unwrap();
                std::fs::write(d.join(".git").join(branch.trim()), format!("{blob}\n")).unwrap();
            }),
        ];
        for (what, make) in cases {
            let Some(ws) = removed_secret() else { return };
            let (blob, tree) = (rev(ws.path(), "HEAD~3:.env"), rev(ws.path(), "HEAD~3:src"));
            make(ws.path(), &blob, &tree);
            let reach = if what.starts_with("the branch") {
                super::Reach::Head
            } else {
                super::Reach::All
            };
            match super::history_names(ws.path(), reach, &[]).map(|h| h.names) {
                Ok(names) if !names.contains(".env") => {
                    wrong.push(format!("{what}: `.env` not among {names:?}"));
                }
                Ok(_) if what.starts_with("the branch") => {
                    wrong.push(format!("{what}: the history told"));
                }
                _ => {}
            }
            let commands: &[&str] = if what.starts_with("the branch") {
                &[
                    "git show",
                    "git log -p",
                    "git grep API HEAD",
                    "git cat-file -p HEAD",
                ]
            } else {
                // A branch holding the secret: its commits are read through the names of
                // every ref's history.
                assert!(git_in(ws.path(), &["branch", "old", "HEAD~3"]));
                &["git show old", "git diff HEAD old"]
            };
            for command in commands {
                let (stopped, why) = stops(ws.path(), command).await;
                if !stopped {
                    wrong.push(format!("{what}: `{command}` not stopped ({why})"));
                }
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

    #[tokio::test]
    async fn commits_the_refs_reach_are_proven_when_no_history_holds_a_secret() {
        use warrant_core::evaluator::Stance;
        let Some(ws) = tempfile::tempdir().ok() else {
            return;
        };
        let git = |args: &[&str]| git_in(ws.path(), args);
        if !git(&["init", "-q", "-b", "main"]) {
            return;
        }
        std::fs::create_dir(ws.path().join("src")).unwrap();
        std::fs::write(ws.path().join("src/main.rs"), "fn main() {}\n").unwrap();
        assert!(git(&["add", "."]) && git(&["commit", "-qm", "one"]));
        assert!(git(&["tag", "v0.1.0"]) && git(&["branch", "topic"]));
        std::fs::write(ws.path().join("src/main.rs"), "fn main() { 1; }\n").unwrap();
        assert!(git(&["commit", "-qam", "two"]));
        let id = |rev: &str| {
            let out = std::process::Command::new("git")
                .args(["rev-parse", rev])
                .current_dir(ws.path())
                .output()
                .unwrap();
            String::from_utf8(out.stdout).unwrap().trim().to_owned()
        };
        let (first, second) = (id("HEAD~1"), id("HEAD"));
        // A commit no ref reaches (only `FETCH_HEAD` names it).
        std::fs::write(ws.path().join("src/main.rs"), "fn main() { 2; }\n").unwrap();
        assert!(git(&["commit", "-qam", "three"]));
        let loose = id("HEAD");
        assert!(git(&["reset", "-q", "--hard", "HEAD~1"]));
        assert!(git(&["reflog", "expire", "--expire=all", "--all"]));
        std::fs::write(ws.path().join(".git/FETCH_HEAD"), format!("{loose}\n")).unwrap();
        // A tag naming a blob, and one naming a tree: no commit of theirs.
        let out = std::process::Command::new("git")
            .args(["hash-object", "-w", "src/main.rs"])
            .current_dir(ws.path())
            .output()
            .unwrap();
        let blob = String::from_utf8(out.stdout).unwrap().trim().to_owned();
        assert!(git(&["tag", "blobtag", &blob]) && git(&["tag", "treetag", "HEAD^{tree}"]));
        let mut wrong = Vec::new();
        let proven = [
            "git show HEAD~1".to_owned(),
            "git show v0.1.0".to_owned(),
            "git show topic".to_owned(),
            "git show topic:src/main.rs".to_owned(),
            "git diff v0.1.0..main".to_owned(),
            "git diff main...topic".to_owned(),
            "git diff topic main".to_owned(),
            "git log -p topic..main".to_owned(),
            "git grep -n main v0.1.0".to_owned(),
            "git grep -n main HEAD".to_owned(),
            format!("git show {}", &first[..7]),
            format!("git show {second}"),
            format!("git diff {}~0 {}", &first[..10], &second[..7]),
        ];
        let asked = [
            "git show blobtag".to_owned(),
            "git show treetag".to_owned(),
            "git diff treetag HEAD".to_owned(),
            "git show FETCH_HEAD".to_owned(),
            "git show FETCH_HEAD:src/main.rs".to_owned(),
            "git show nosuchref".to_owned(),
            "git show main~x".to_owned(),
            format!("git show {loose}"),
            format!("git show {}", &loose[..8]),
            "git show \"$REV\"".to_owned(),
        ];
        for (commands, allowed) in [(&proven[..], true), (&asked[..], false)] {
            for command in commands {
                let (s, why) = stance(
                    ws.path(),
                    warrant_core::call::PermissionMode::Default,
                    command,
                )
                .await;
                if (s == Stance::PolicyAllow) != allowed {
                    wrong.push(format!("{command}: {s:?} ({why})"));
                }
            }
        }
        assert!(wrong.is_empty(), "\n{}", wrong.join("\n"));
    }
}
