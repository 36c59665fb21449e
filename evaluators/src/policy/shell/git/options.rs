//! git's options as git reads them: its subcommands parse their options with `parse-options`,
//! which takes any unique prefix of a long option (`--mirr` is `--mirror`, `--no-ver` is
//! `--no-verify`) and rejects an ambiguous one. The policy reads a git command with each
//! abbreviation written out in full, so its checks see the option git runs.

use std::borrow::Cow;

use crate::shell::{SimpleCommand, Word};

/// Long options of each subcommand (`NAME`, `[no-]NAME` when it can be negated, `=v` when it
/// takes a value that may be the next word, `=?` an optional attached one), and its short
/// options that take a value, as `git SUB -h` lists them (git 2.47).
const SUBCOMMANDS: &[(&str, &str, &str)] = &[
    (
        "push",
        "[no-]verbose [no-]quiet [no-]repo=v [no-]all [no-]branches [no-]mirror [no-]delete [no-]tags [no-]dry-run [no-]porcelain [no-]force [no-]force-with-lease=? [no-]force-if-includes [no-]recurse-submodules=v [no-]thin [no-]receive-pack=v [no-]exec=v [no-]set-upstream [no-]progress [no-]prune no-verify verify [no-]follow-tags [no-]signed=? [no-]atomic [no-]push-option=v ipv4 ipv6",
        "o",
    ),
    (
        "clean",
        "[no-]quiet [no-]dry-run [no-]force [no-]interactive exclude=v",
        "e",
    ),
    (
        "reset",
        "[no-]quiet no-refresh refresh mixed soft hard merge keep [no-]recurse-submodules=? [no-]patch [no-]intent-to-add [no-]pathspec-from-file=v [no-]pathspec-file-nul",
        "",
    ),
    (
        "checkout",
        "[no-]guess [no-]overlay [no-]quiet [no-]recurse-submodules=? [no-]progress [no-]merge [no-]conflict=v [no-]detach [no-]track=? [no-]force [no-]orphan=v [no-]overwrite-ignore [no-]ignore-other-worktrees ours theirs [no-]patch [no-]ignore-skip-worktree-bits [no-]pathspec-from-file=v [no-]pathspec-file-nul",
        "bB",
    ),
    (
        "switch",
        "[no-]create=v [no-]force-create=v [no-]guess [no-]discard-changes [no-]quiet [no-]recurse-submodules=? [no-]progress [no-]merge [no-]conflict=v [no-]detach [no-]track=? [no-]force [no-]orphan=v [no-]overwrite-ignore [no-]ignore-other-worktrees",
        "cC",
    ),
    (
        "restore",
        "[no-]source=v [no-]staged [no-]worktree [no-]ignore-unmerged [no-]overlay [no-]quiet [no-]recurse-submodules=? [no-]progress [no-]merge [no-]conflict=v ours theirs [no-]patch [no-]ignore-skip-worktree-bits [no-]pathspec-from-file=v [no-]pathspec-file-nul",
        "s",
    ),
    (
        "branch",
        "[no-]verbose [no-]quiet [no-]track=? [no-]set-upstream-to=v [no-]unset-upstream [no-]color=? remotes contains=v no-contains=v [no-]abbrev=? all [no-]delete [no-]move [no-]omit-empty [no-]copy [no-]list [no-]show-current [no-]create-reflog [no-]edit-description [no-]force merged=v no-merged=v [no-]column=? [no-]sort=v [no-]points-at=v [no-]ignore-case [no-]recurse-submodules [no-]format=v",
        "u",
    ),
    (
        "tag",
        "list delete verify [no-]annotate message=v [no-]file=v trailer=v [no-]edit [no-]sign [no-]cleanup=v [no-]local-user=v [no-]force [no-]create-reflog [no-]column=? contains=v no-contains=v merged=v no-merged=v [no-]omit-empty [no-]sort=v [no-]points-at=v [no-]format=v [no-]color=? [no-]ignore-case",
        "mFu",
    ),
    (
        "stash",
        "[no-]keep-index [no-]staged [no-]patch [no-]quiet [no-]include-untracked [no-]all [no-]message=v [no-]pathspec-from-file=v [no-]pathspec-file-nul",
        "m",
    ),
    (
        "rebase",
        "[no-]onto=v [no-]keep-base no-verify verify [no-]quiet [no-]verbose no-stat stat [no-]signoff [no-]committer-date-is-author-date [no-]reset-author-date [no-]ignore-whitespace [no-]whitespace=v [no-]force-rebase no-ff ff continue skip abort quit edit-todo show-current-patch apply merge interactive [no-]rerere-autoupdate empty=v [no-]autosquash [no-]update-refs [no-]gpg-sign=? [no-]autostash [no-]exec=v [no-]rebase-merges=? [no-]fork-point [no-]strategy=v [no-]strategy-option=v [no-]root [no-]reschedule-failed-exec [no-]reapply-cherry-picks",
        "xsX",
    ),
    (
        "merge",
        "[no-]stat [no-]summary=v [no-]log=? [no-]squash [no-]commit [no-]edit [no-]cleanup=v [no-]ff ff-only [no-]rerere-autoupdate [no-]verify-signatures [no-]strategy=v [no-]strategy-option=v [no-]message=v file=v [no-]into-name=v [no-]verbose [no-]quiet [no-]abort [no-]quit [no-]continue [no-]allow-unrelated-histories [no-]progress [no-]gpg-sign=? [no-]autostash [no-]overwrite-ignore [no-]signoff no-verify verify",
        "sXmF",
    ),
    (
        "commit",
        "[no-]quiet [no-]verbose [no-]file=v [no-]author=v [no-]date=v [no-]message=v [no-]reedit-message=v [no-]reuse-message=v [no-]fixup [no-]squash=v [no-]reset-author trailer=v [no-]signoff [no-]template=v [no-]edit [no-]cleanup=v [no-]status [no-]gpg-sign=? [no-]all [no-]include [no-]interactive [no-]patch [no-]only no-verify verify [no-]dry-run [no-]short [no-]branch [no-]ahead-behind [no-]porcelain [no-]long [no-]null [no-]amend no-post-rewrite post-rewrite [no-]untracked-files=? [no-]pathspec-from-file=v [no-]pathspec-file-nul",
        "FmcCt",
    ),
    (
        "difftool",
        "[no-]gui [no-]dir-diff no-prompt [no-]symlinks [no-]tool=v [no-]tool-help [no-]trust-exit-code [no-]extcmd=v no-index index",
        "tx",
    ),
    (
        "add",
        "[no-]dry-run [no-]verbose [no-]interactive [no-]patch [no-]edit [no-]force [no-]update [no-]renormalize [no-]intent-to-add [no-]all [no-]ignore-removal [no-]refresh [no-]ignore-errors [no-]ignore-missing [no-]sparse [no-]chmod=v [no-]pathspec-from-file=v [no-]pathspec-file-nul",
        "",
    ),
    (
        "rm",
        "[no-]dry-run [no-]quiet [no-]cached [no-]force [no-]ignore-unmatch [no-]sparse [no-]pathspec-from-file=v [no-]pathspec-file-nul",
        "",
    ),
    ("mv", "[no-]verbose [no-]dry-run [no-]force [no-]sparse", ""),
    (
        "fetch",
        "[no-]verbose [no-]quiet [no-]all [no-]set-upstream [no-]append [no-]atomic [no-]upload-pack=v [no-]force [no-]multiple [no-]tags [no-]jobs=v [no-]prefetch [no-]prune [no-]prune-tags [no-]recurse-submodules=? [no-]dry-run [no-]porcelain [no-]write-fetch-head [no-]keep [no-]update-head-ok [no-]progress [no-]depth=v [no-]shallow-since=v [no-]shallow-exclude=v [no-]deepen=v unshallow refetch [no-]update-shallow refmap=v [no-]server-option=v ipv4 ipv6 [no-]negotiation-tip=v [no-]negotiate-only [no-]filter=v [no-]auto-maintenance [no-]auto-gc [no-]show-forced-updates [no-]write-commit-graph [no-]stdin",
        "jo",
    ),
    (
        "pull",
        "[no-]verbose [no-]quiet [no-]progress [no-]recurse-submodules=? [no-]rebase=? [no-]stat [no-]log=? [no-]signoff=? [no-]squash [no-]commit [no-]edit [no-]cleanup=v [no-]ff ff-only [no-]verify [no-]verify-signatures [no-]autostash [no-]strategy=v [no-]strategy-option=v [no-]gpg-sign=? [no-]allow-unrelated-histories [no-]all [no-]append [no-]upload-pack=v [no-]force [no-]tags [no-]prune [no-]jobs=? [no-]dry-run [no-]keep [no-]depth=v [no-]shallow-since=v [no-]shallow-exclude=v [no-]deepen=v unshallow [no-]update-shallow refmap=v [no-]server-option=v [no-]ipv4 [no-]ipv6 [no-]negotiation-tip=v [no-]show-forced-updates [no-]set-upstream",
        "sXo",
    ),
    (
        "cherry-pick",
        "quit continue abort skip [no-]cleanup=v no-commit commit [no-]edit [no-]signoff [no-]mainline=v [no-]rerere-autoupdate [no-]strategy=v [no-]strategy-option=v [no-]gpg-sign=? [no-]ff [no-]allow-empty [no-]allow-empty-message [no-]keep-redundant-commits empty=v",
        "mX",
    ),
    (
        "revert",
        "quit continue abort skip [no-]cleanup=v no-commit commit [no-]edit [no-]signoff [no-]mainline=v [no-]rerere-autoupdate [no-]strategy=v [no-]strategy-option=v [no-]gpg-sign=? [no-]reference",
        "mX",
    ),
    (
        "am",
        "[no-]interactive no-verify verify [no-]quiet [no-]signoff [no-]utf8 [no-]keep [no-]keep-non-patch [no-]message-id [no-]keep-cr [no-]scissors quoted-cr=v [no-]whitespace=v [no-]ignore-space-change [no-]ignore-whitespace [no-]directory=v [no-]exclude=v [no-]include=v [no-]patch-format=v [no-]reject [no-]resolvemsg continue resolved skip abort quit show-current-patch=? retry allow-empty [no-]committer-date-is-author-date [no-]ignore-date [no-]rerere-autoupdate [no-]gpg-sign=? empty=v",
        "",
    ),
    (
        "apply",
        "exclude=v include=v no-add add [no-]stat [no-]numstat [no-]summary [no-]check [no-]index [no-]intent-to-add [no-]cached [no-]unsafe-paths [no-]apply ours theirs union [no-]build-fake-ancestor=v [no-]whitespace=v [no-]ignore-space-change [no-]ignore-whitespace [no-]reverse [no-]unidiff-zero [no-]reject [no-]allow-overlap [no-]verbose [no-]quiet [no-]inaccurate-eof [no-]recount [no-]directory=v [no-]allow-empty",
        "",
    ),
    (
        "gc",
        "[no-]quiet [no-]prune=? [no-]cruft max-cruft-size=v [no-]aggressive [no-]auto [no-]detach [no-]force [no-]keep-largest-pack",
        "",
    ),
    (
        "config",
        "[no-]global [no-]system [no-]local [no-]worktree [no-]file=v [no-]blob=v get get-all get-regexp get-urlmatch replace-all add unset unset-all rename-section remove-section list [no-]fixed-value edit get-color get-colorbool [no-]type=v bool int bool-or-int bool-or-str path expiry-date no-type [no-]null [no-]name-only [no-]includes [no-]show-origin [no-]show-scope [no-]default=v [no-]comment=v [no-]all [no-]regexp [no-]value=v [no-]url=v",
        "ft",
    ),
    (
        "ls-remote",
        "[no-]quiet [no-]upload-pack=v [no-]tags [no-]branches heads [no-]refs [no-]get-url [no-]sort=v [no-]exit-code [no-]symref [no-]server-option=v",
        "o",
    ),
    ("var", "", ""),
    ("remote", "[no-]verbose", ""),
    (
        "clone",
        "[no-]verbose [no-]quiet [no-]progress [no-]reject-shallow no-checkout checkout [no-]bare [no-]mirror [no-]local no-hardlinks hardlinks [no-]shared [no-]recurse-submodules=? [no-]recursive=? [no-]jobs=v [no-]template=v [no-]reference=v [no-]reference-if-able=v [no-]dissociate [no-]origin=v [no-]branch=v [no-]upload-pack=v [no-]depth=v [no-]shallow-since=v [no-]shallow-exclude=v [no-]single-branch no-tags tags [no-]shallow-submodules [no-]separate-git-dir=v [no-]ref-format=v [no-]config=v [no-]server-option=v ipv4 ipv6 [no-]filter=v [no-]also-filter-submodules [no-]remote-submodules [no-]sparse [no-]bundle-uri=v",
        "jobuc",
    ),
];

/// Every long name of `spec`, negations written out, with whether it takes a value that may
/// be the next word.
fn names(spec: &str) -> Vec<(String, bool)> {
    let mut all = Vec::new();
    for item in spec.split_whitespace() {
        let (item, separate) = match item.split_once('=') {
            Some((name, kind)) => (name, kind == "v"),
            None => (item, false),
        };
        match item.strip_prefix("[no-]") {
            Some(name) => {
                all.push((name.to_owned(), separate));
                all.push((format!("no-{name}"), false));
            }
            None => all.push((item.to_owned(), separate)),
        }
    }
    all
}

/// Whether `--NAME` (written out in full) is a long option of the subcommand `sub`; `None`
/// when the subcommand's options are not in the table.
pub(in crate::policy::shell) fn is_long_option(sub: &str, name: &str) -> Option<bool> {
    let (_, spec, _) = SUBCOMMANDS.iter().find(|(s, _, _)| *s == sub)?;
    let name = name.strip_prefix("--")?;
    Some(names(spec).iter().any(|(n, _)| n == name))
}

/// Writes out in full every abbreviated long option of the git command `words` (`git` first)
/// whose subcommand git parses with `parse-options`: a unique prefix of one of its options.
/// An ambiguous prefix (which git rejects) and words after `--` stay as written.
pub(super) fn canonical_words(words: &mut [Word]) {
    let mut i = 1;
    while let Some(t) = words.get(i).and_then(Word::literal) {
        if !t.starts_with('-') {
            break;
        }
        i += super::global_span(t);
    }
    let Some(sub) = words.get(i).and_then(Word::literal) else {
        return;
    };
    let Some((_, spec, short_values)) = SUBCOMMANDS.iter().find(|(s, _, _)| *s == sub) else {
        return;
    };
    // `git stash push` takes the options `git stash` alone does.
    if sub == "stash" && words.get(i + 1).and_then(Word::literal) == Some("push") {
        i += 1;
    }
    let all = names(spec);
    let mut k = i + 1;
    while k < words.len() {
        let Some(t) = words[k].literal().map(str::to_owned) else {
            k += 1;
            continue;
        };
        if t == "--" {
            return;
        }
        if let Some(long) = t.strip_prefix("--") {
            let (name, value) = match long.split_once('=') {
                Some((n, v)) => (n, Some(v)),
                None => (long, None),
            };
            let exact = all.iter().find(|(n, _)| n.as_str() == name);
            let found = exact.or_else(|| {
                let mut prefixed = all.iter().filter(|(n, _)| n.starts_with(name));
                match (prefixed.next(), prefixed.next()) {
                    (Some(one), None) if !name.is_empty() => Some(one),
                    _ => None,
                }
            });
            if let Some((full, separate)) = found {
                if full != name {
                    let text = match value {
                        Some(v) => format!("--{full}={v}"),
                        None => format!("--{full}"),
                    };
                    words[k] = Word::literal_text(text);
                }
                if *separate && value.is_none() {
                    k += 1;
                }
            }
        } else if let Some(cluster) = t.strip_prefix('-') {
            // A short option taking a value takes the rest of the word, or the next word.
            if let Some(at) = cluster.find(|c| short_values.contains(c))
                && at + 1 == cluster.len()
            {
                k += 1;
            }
        }
        k += 1;
    }
}

/// The git command `cmd` with its abbreviated long options written out
/// ([`canonical_words`]); `cmd` itself when it has none.
pub(in crate::policy::shell) fn canonical(cmd: &SimpleCommand) -> Cow<'_, SimpleCommand> {
    let mut words = cmd.words.clone();
    canonical_words(&mut words);
    if words == cmd.words {
        Cow::Borrowed(cmd)
    } else {
        Cow::Owned(SimpleCommand {
            words,
            ..cmd.clone()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn canon(line: &str) -> String {
        let mut words: Vec<Word> = line.split(' ').map(Word::literal_text).collect();
        canonical_words(&mut words);
        words
            .iter()
            .map(|w| w.raw.as_str())
            .collect::<Vec<_>>()
            .join(" ")
    }

    #[test]
    fn unique_prefixes_are_written_out_as_git_reads_them() {
        assert_eq!(canon("git push --mirr origin"), "git push --mirror origin");
        assert_eq!(
            canon("git push --del origin x"),
            "git push --delete origin x"
        );
        assert_eq!(canon("git push --pru origin"), "git push --prune origin");
        assert_eq!(
            canon("git push --force-w=main origin"),
            "git push --force-with-lease=main origin"
        );
        assert_eq!(
            canon("git push --no-mir origin"),
            "git push --no-mirror origin"
        );
        assert_eq!(canon("git clean --dry"), "git clean --dry-run");
        assert_eq!(canon("git reset --har"), "git reset --hard");
        assert_eq!(
            canon("git rebase --exe make main"),
            "git rebase --exec make main"
        );
        assert_eq!(
            canon("git stash push --inc"),
            "git stash push --include-untracked"
        );
        assert_eq!(canon("git -C d push --mirr"), "git -C d push --mirror");
        assert_eq!(
            canon("git --attr-source HEAD push --mirr"),
            "git --attr-source HEAD push --mirror"
        );
        assert_eq!(canon("git config --get-r ."), "git config --get-regexp .");
        assert_eq!(
            canon("git config --get-u x y"),
            "git config --get-urlmatch x y"
        );
        assert_eq!(canon("git config --li"), "git config --list");
        assert_eq!(canon("git ls-remote --get-u"), "git ls-remote --get-url");
        assert_eq!(canon("git remote --verb"), "git remote --verbose");
        assert_eq!(is_long_option("config", "--get-regexp"), Some(true));
        assert_eq!(is_long_option("config", "--get-"), Some(false));
        assert_eq!(is_long_option("log", "--oneline"), None);
    }

    #[test]
    fn ambiguous_prefixes_values_and_operands_stay() {
        // git rejects these.
        assert_eq!(canon("git push --forc origin"), "git push --forc origin");
        assert_eq!(canon("git push --no-fo origin"), "git push --no-fo origin");
        // Values of options and words after `--`.
        assert_eq!(
            canon("git push -o --mirr origin"),
            "git push -o --mirr origin"
        );
        assert_eq!(canon("git push --repo --mirr"), "git push --repo --mirr");
        assert_eq!(canon("git clean -f -e --dry"), "git clean -f -e --dry");
        assert_eq!(canon("git checkout -- --pat"), "git checkout -- --pat");
        // Subcommands parsed otherwise, and git's own options.
        assert_eq!(canon("git log --foll x"), "git log --foll x");
        assert_eq!(canon("git --git-d=x push"), "git --git-d=x push");
    }
}
