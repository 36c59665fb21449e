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
    }
    for (c, i, rev) in marks {
        let word = &mut script.commands[c].words[i];
        *word = Word::read_as(word.raw.clone(), &rev);
    }
}

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
    /// The words of the last git command `code` runs whose subcommand is `sub`, each as
    /// read (`None` when only known when it runs).
    fn read(code: &str, sub: &str) -> Vec<Option<String>> {
        let script = crate::shell::parse(code).unwrap();
        let reader = script
            .commands
            .iter()
            .rev()
            .find(|c| {
                c.program() == Some("git") && c.args().iter().any(|w| w.literal() == Some(sub))
            })
            .unwrap();
        reader
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
}
