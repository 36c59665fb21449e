//! Words of revision ids that git prints, read as the revisions they stand for.

use super::simple::{loop_variable, whole_substitution};
use crate::shell::{Script, SimpleCommand, Word, WorkingDir};

/// Reads each word of a git command whose every value is a revision's id printed by git in
/// the same repository as that revision ([`crate::programs::printed_revision`]): `git log
/// -1 $(git rev-parse HEAD~2)` is read as `git log -1 HEAD~2`, `for c in $(git rev-list -n3
/// main); do git show --stat $c; done` as `git show --stat main` (an ancestor's history is
/// the revision's). Only where the reader takes revisions: before `--`, in a subcommand of
/// [`REVISION_READERS`]. Both commands must use the same repository: the same directory,
/// the same wrapper and privileges, no variable assigned for either (`GIT_DIR`), and the
/// reader's subcommand first (no `-C` or `--git-dir` before it). Nothing is read so when
/// the script may send a command's errors to its output ([`Script::errors_to_output`]):
/// git's warnings (`refname 'HEAD' is ambiguous`) would be words too.
pub(in crate::shell) fn mark(script: &mut Script) {
    if script.errors_to_output {
        return;
    }
    let same_repository = |reader: &SimpleCommand, printer: &SimpleCommand| {
        printer.program() == Some("git")
            && printer.assignments.is_empty()
            && printer.cwd == reader.cwd
            && printer.parent == reader.parent
            && printer.elevated == reader.elevated
    };
    let mut marks = Vec::new();
    for (c, reader) in script.commands.iter().enumerate() {
        let plain_reader = reader.program() == Some("git")
            && reader.cwd != WorkingDir::Unknown
            && reader.assignments.is_empty()
            && !reader.extra_args
            && reader
                .args()
                .first()
                .and_then(Word::literal)
                .is_some_and(|sub| REVISION_READERS.contains(&sub));
        if !plain_reader {
            continue;
        }
        let mut found = Vec::new();
        for (i, word) in reader.words.iter().enumerate().skip(2) {
            if word.literal() == Some("--") {
                break;
            }
            // The word is the expansion alone: `$c:.env` is a file of a tree, `$c~1` a parent.
            let whole = whole_substitution(&word.raw) || loop_variable(&word.raw).is_some();
            let Some(domain) = word.domain.as_ref().filter(|_| whole) else {
                continue;
            };
            let [p] = domain.producers.as_slice() else {
                continue;
            };
            let Some(printer) = script.commands.get(*p) else {
                continue;
            };
            if !domain.values.is_empty() || !same_repository(reader, printer) {
                continue;
            }
            let args: Option<Vec<&str>> = printer.args().iter().map(Word::literal).collect();
            if let Some(rev) = args.and_then(|a| crate::programs::printed_revision(&a)) {
                found.push((i, rev));
            }
        }
        if diff_of_revisions(reader, &found) {
            marks.extend(found.into_iter().map(|(i, rev)| (c, i, rev)));
        }
        if let Some((i, end)) = printed_range(reader, &script.commands, same_repository) {
            marks.push((c, i, end));
        }
    }
    for (c, i, rev) in marks {
        let word = &mut script.commands[c].words[i];
        *word = Word::read_as(word.raw.clone(), &rev);
    }
}

/// The word of `reader` (a git command of [`RANGE_WALKERS`]) that is a range starting with
/// the one revision's id its substitution prints (`$(git merge-base main HEAD)..HEAD`,
/// `$(git rev-parse v1)..topic`), and the range's end it is read as: the commits the range
/// walks are the end's, less those the start reaches. The substitution must be that one
/// printer, in the reader's repository (`same_repository`): two commands print two words,
/// the first a revision walked whole (`$(echo other; echo HEAD)..HEAD`), and a tag's name
/// `git describe` prints is the tag object's own, any text. Every other word of the reader
/// must be literal, none `--not` (which turns the start into commits walked) or `--stdin`
/// (which may read one); the word must come before `--`.
fn printed_range(
    reader: &SimpleCommand,
    commands: &[SimpleCommand],
    same_repository: impl Fn(&SimpleCommand, &SimpleCommand) -> bool,
) -> Option<(usize, String)> {
    let sub = reader.args().first().and_then(Word::literal)?;
    let [p] = reader.feeds.as_slice() else {
        return None;
    };
    let printer = commands.get(*p)?;
    let args: Option<Vec<&str>> = printer.args().iter().map(Word::literal).collect();
    // One id: a printer of one a line (`rev-list -n2`) would give each a word.
    let one_id = args.is_some_and(|a| {
        matches!(a.first(), Some(&("rev-parse" | "merge-base")))
            && crate::programs::printed_revision(&a).is_some()
    });
    if !RANGE_WALKERS.contains(&sub) || !one_id || !same_repository(reader, printer) {
        return None;
    }
    let mut found = None;
    for (i, word) in reader.words.iter().enumerate().skip(2) {
        match word.literal() {
            Some("--") => break,
            // `--stdin` reads more revisions, `--not` among them.
            Some(t) if t.starts_with("--not") || t.starts_with("--stdin") => return None,
            Some(_) => {}
            None => {
                let end = range_end(&word.raw)?;
                if found.replace((i, end)).is_some() {
                    return None;
                }
            }
        }
    }
    // Words after `--` are paths: every one literal too.
    let (at, end) = found?;
    let others_literal = reader
        .words
        .iter()
        .enumerate()
        .all(|(i, w)| i == at || w.literal().is_some());
    others_literal.then_some((at, end))
}

/// The end of a range written as one command substitution and `..` (`$(…)..REV`,
/// `"$(…)"..REV`, `` `…`..REV ``): `REV` when it is a plain revision, `HEAD` when none
/// follows. A substitution holding another, or parentheses, is none.
fn range_end(raw: &str) -> Option<String> {
    let (quoted, text) = match raw.strip_prefix('"') {
        Some(rest) => (true, rest),
        None => (false, raw),
    };
    let (body, rest) = if let Some(r) = text.strip_prefix("$(") {
        r.split_once(')')?
    } else {
        text.strip_prefix('`')?.split_once('`')?
    };
    let rest = if quoted {
        rest.strip_prefix('"')?
    } else {
        rest
    };
    if body.contains(['(', '$', '`', '"', '\'']) {
        return None;
    }
    let end = rest.strip_prefix("..")?;
    match end {
        "" => Some("HEAD".to_owned()),
        _ if !end.starts_with('.') && crate::programs::plain_revision(end) => Some(end.to_owned()),
        _ => None,
    }
}

/// The git subcommands that walk a range's commits (`A..B`: those `B` reaches and `A` does
/// not), printing each against its own parents: what they print of a range is what they
/// print of its end, less some commits.
const RANGE_WALKERS: &[&str] = &["log", "shortlog", "rev-list", "whatchanged"];

/// Whether `git diff`'s words are revisions once the words at the `found` indices are read
/// as theirs, not two files of the file system: no `--no-index` (or an abbreviation of it),
/// and every other word literal and inside the repository (an operand outside it, or only
/// known when it runs, makes git compare two paths, `--no-index` implied). Any other
/// subcommand: always.
fn diff_of_revisions(reader: &SimpleCommand, found: &[(usize, String)]) -> bool {
    if reader.args().first().and_then(Word::literal) != Some("diff") {
        return true;
    }
    reader.words.iter().enumerate().skip(2).all(|(i, w)| {
        found.iter().any(|(at, _)| *at == i)
            || w.literal().is_some_and(|t| {
                !t.starts_with("--no-i") && !crate::programs::outside_repository(t)
            })
    })
}

/// The git subcommands whose words before `--` are revisions (or paths): a revision's
/// printed id is read there as the revision.
const REVISION_READERS: &[&str] = &[
    "log",
    "show",
    "diff",
    "diff-tree",
    "whatchanged",
    "shortlog",
    "rev-list",
    "rev-parse",
    "merge-base",
    "name-rev",
    "describe",
    "cat-file",
    "ls-tree",
];

#[cfg(test)]
mod tests {
    /// The last git command of `script` with the word `sub`.
    fn reader<'s>(script: &'s crate::shell::Script, sub: &str) -> &'s crate::shell::SimpleCommand {
        script
            .commands
            .iter()
            .rev()
            .find(|c| {
                c.program() == Some("git") && c.args().iter().any(|w| w.literal() == Some(sub))
            })
            .unwrap()
    }

    /// The words of the last git command `code` runs whose subcommand is `sub`, each as
    /// read (`None` when only known when it runs).
    fn read(code: &str, sub: &str) -> Vec<Option<String>> {
        let script = crate::shell::parse(code).unwrap();
        reader(&script, sub)
            .words
            .iter()
            .map(|w| w.literal().map(str::to_owned))
            .collect()
    }

    #[test]
    fn a_revisions_printed_id_is_read_as_the_revision() {
        for (code, sub, rev) in [
            (
                "git log -1 --format=%s $(git rev-parse HEAD~2)",
                "log",
                "HEAD~2",
            ),
            ("git show `git rev-parse v1`", "show", "v1"),
            (
                "git diff \"$(git merge-base main topic)\" topic",
                "diff",
                "main",
            ),
            (
                "for c in $(git rev-list -n3 main); do git show $c; done",
                "show",
                "main",
            ),
            (
                "git log --format=%H -3 | while read h; do git show \"$h\"; done",
                "show",
                "HEAD",
            ),
            ("h=$(git rev-parse HEAD~1); git show $h", "show", "HEAD~1"),
            (
                "git show $(git rev-parse HEAD~1 2>/dev/null)",
                "show",
                "HEAD~1",
            ),
            (
                "git diff --stat $(git rev-parse HEAD~1) HEAD",
                "diff",
                "HEAD~1",
            ),
        ] {
            let words = read(code, sub);
            assert!(words.contains(&Some(rev.to_owned())), "{code}: {words:?}");
            assert!(words.iter().all(Option::is_some), "{code}: {words:?}");
        }
    }

    #[test]
    fn an_id_from_elsewhere_or_of_another_kind_stays_unknown() {
        for (code, sub) in [
            // Another repository, or another way to name one.
            ("git show $(cd /tmp && git rev-parse HEAD)", "show"),
            ("git show $(GIT_DIR=/tmp/r git rev-parse HEAD)", "show"),
            ("GIT_DIR=/tmp/r git show $(git rev-parse HEAD)", "show"),
            ("git -C /tmp show $(git rev-parse HEAD)", "show"),
            ("git show $(sudo git rev-parse HEAD)", "show"),
            ("h=$(git rev-parse HEAD); cd sub; git show $h", "show"),
            // Not the expansion alone, or not a revision's place.
            (
                "for c in $(git rev-list -n1 HEAD); do git show $c:.env; done",
                "show",
            ),
            ("git show \"$(git rev-parse HEAD)\":.env", "show"),
            ("git show $(git rev-parse HEAD)~1", "show"),
            ("git log -- $(git rev-parse HEAD)", "log"),
            ("git checkout $(git rev-parse HEAD)", "checkout"),
            // Output that is not one revision's ids.
            ("git show $(git rev-parse HEAD:.env)", "show"),
            // An abbreviated id is read as a ref of that name first.
            ("git show $(git rev-parse --short HEAD)", "show"),
            (
                "git log --format=%h -3 | while read h; do git show $h; done",
                "show",
            ),
            ("git show $(git rev-parse HEAD; git rev-parse v1)", "show"),
            ("git show $(git tag)", "show"),
            ("git show $(git rev-list --all)", "show"),
            ("git show $(git log --format=%H -g)", "show"),
            (
                "git log --format=%h | head -3 | while read h; do git show $h; done",
                "show",
            ),
            (
                "h=$(git rev-parse HEAD); [ -n \"$x\" ] && h=stash; git show $h",
                "show",
            ),
            // Errors sent to the output are words too (`refname 'HEAD' is ambiguous`).
            ("git show $(git rev-parse HEAD~1 2>&1)", "show"),
            (
                "git rev-parse HEAD~1 |& while read h; do git show $h; done",
                "show",
            ),
            (
                "for c in $({ git rev-parse HEAD~1; } 2>&1); do git show $c; done",
                "show",
            ),
            ("git show $(git rev-parse HEAD~1 2>/dev/stdout)", "show"),
            ("git show $(git rev-parse HEAD~1 2>/dev/fd/1)", "show"),
            ("git show $(git rev-parse HEAD~1 2>/proc/self/fd/1)", "show"),
            ("git show $(git rev-parse HEAD~1 2>e) $(cat e)", "show"),
            // `git diff` comparing two files of the file system.
            ("git diff --no-index $(git rev-parse HEAD) empty", "diff"),
            ("git diff --no-i $(git rev-parse HEAD) empty", "diff"),
            ("git diff $(git rev-parse HEAD) /dev/null", "diff"),
            ("git diff $(git rev-parse HEAD) ../x", "diff"),
            // The loop's variable read from another input than the producer's.
            (
                "git log --format=%H -1 | while read h <&3; do git show $h; done 3<<< x",
                "show",
            ),
            (
                "git log --format=%H -1 | while read h <<< x; do git show $h; done",
                "show",
            ),
            (
                "git log --format=%H -1 | while { read h; } <&3; do git show $h; done 3<<< x",
                "show",
            ),
        ] {
            let words = read(code, sub);
            assert!(words.iter().any(Option::is_none), "{code}: {words:?}");
        }
    }

    #[test]
    fn a_range_from_a_printed_id_is_read_as_its_end() {
        for (code, end) in [
            (
                "git log --oneline $(git merge-base main HEAD)..HEAD",
                "HEAD",
            ),
            ("git log \"$(git rev-parse v1)\"..main~1", "main~1"),
            ("git shortlog -sn `git merge-base main topic`..", "HEAD"),
            (
                "git rev-list --count $(git rev-parse HEAD~3)..topic",
                "topic",
            ),
        ] {
            let script = crate::shell::parse(code).unwrap();
            let reader = script.commands.last().unwrap();
            let ends = reader.words[2..]
                .iter()
                .filter(|w| w.literal() == Some(end));
            assert_eq!(ends.count(), 1, "{code}");
            assert!(reader.words.iter().all(|w| w.literal().is_some()), "{code}");
        }
        for code in [
            "git diff $(git merge-base main HEAD)..HEAD",
            "git log --not $(git merge-base main HEAD)..HEAD",
            "echo --not | git log --stdin $(git merge-base main HEAD)..HEAD",
            "git log $(git merge-base main HEAD)...HEAD",
            "git log $(git merge-base main HEAD)..HEAD~1:.env",
            "git log $(git merge-base main HEAD)..HEAD $(git rev-parse v1)",
            "git log $(git merge-base main HEAD)..HEAD -- $x",
            "git log -- $(git merge-base main HEAD)..HEAD",
            "git log $(cd sub; git merge-base main HEAD)..HEAD",
            "git log $(GIT_DIR=x git rev-parse v1)..HEAD",
            "git log $(git rev-parse v1)..HEAD 2>&1",
            // Two words: the first a revision walked whole.
            "git log $(git rev-parse v1; git rev-parse v2)..HEAD",
            "git log $(echo other; echo HEAD)..HEAD",
            "git log $(git merge-base main HEAD || echo HEAD)..HEAD",
            "git log $(git rev-list -n2 main)..HEAD",
            "git log $(git log --format=%H -1 main)..HEAD",
            // A tag's name `git describe` prints is the tag object's own, any text.
            "git log $(git describe --tags --abbrev=0)..HEAD",
            "git log $(git rev-parse --short v1)..HEAD",
        ] {
            let script = crate::shell::parse(code).unwrap();
            let sub = if code.starts_with("git diff") {
                "diff"
            } else {
                "log"
            };
            let reader = reader(&script, sub);
            assert!(reader.words.iter().any(|w| w.literal().is_none()), "{code}");
        }
    }
}
