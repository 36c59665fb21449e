//! Which matching rule decides: the highest layer, then deny over ask over allow. An allow
//! rule covers a shell command only when every part that runs is covered.

use std::cmp::Reverse;

use super::compile::CompiledRule;
use super::config::RuleAction;
use super::effects::Models;
use super::index::{Doubt, Hit, PRIVILEGED};
use crate::paths::{Place, Places};
use crate::programs::{self, Model};
use crate::shell::{RedirectKind, Script, SimpleCommand, Word, WorkingDir};

/// Parts that change nothing a rule could care about, covered by any allow rule.
const NEUTRAL: &[&str] = &["cd", "pushd", "popd", "true", ":"];

fn restrictiveness(action: RuleAction) -> u8 {
    match action {
        RuleAction::Allow => 0,
        RuleAction::Ask => 1,
        RuleAction::Deny => 2,
    }
}

fn is_neutral(cmd: &SimpleCommand) -> bool {
    let plain = cmd.words.iter().all(|w| w.literal().is_some()) && cmd.redirects.is_empty();
    plain && cmd.program().is_none_or(|p| NEUTRAL.contains(&p))
}

/// Whether a command runs as another user or with other privileges: a privileged runner, or
/// what one runs.
fn privileged(cmd: &SimpleCommand) -> bool {
    cmd.elevated || cmd.program().is_some_and(|p| PRIVILEGED.contains(&p))
}

/// Whether an allow rule may cover this command at all: no write redirection (other than to
/// `/dev/null`), no environment assignments (`PATH=./bin`, `env LD_PRELOAD=…`), a first
/// word that is a bare name (`./npm` or `/tmp/x/npm` is another program than the rule's),
/// and no other user or privileges: neither a privileged runner (`sudo`, `pkexec`, `run0`,
/// `chroot`, …) nor what one runs (`Bash(npm test)` does not cover `sudo npm test`).
fn coverable(cmd: &SimpleCommand) -> bool {
    if privileged(cmd) {
        return false;
    }
    let writes = cmd
        .redirects
        .iter()
        .any(|r| r.kind == RedirectKind::Write && r.target.literal() != Some("/dev/null"));
    let first_is_bare = cmd
        .words
        .first()
        .is_none_or(|w| w.literal().is_some_and(|t| !t.contains('/')));
    let env_assigns = cmd.program() == Some("env")
        && cmd
            .args()
            .iter()
            .any(|w| w.literal().is_none_or(|t| t.contains('=')));
    !writes && cmd.assignments.is_empty() && first_is_bare && !env_assigns
}

/// Whether `cmd`, covered by an allow rule naming its first `named` words, does nothing the
/// rule's plain form (those words alone) would not: never wider than shown.
///
/// - Modeled by the program table: every path it reads, searches or writes is inside the
///   workspace, and it writes only if the plain form may write (`git diff` never writes, so
///   `git diff --output=…` is not covered, `git diff --stat` is).
/// - Not modeled: what it adds are plain operands: no option (`--script-shell=…`, `--eval`),
///   no `NAME=value`, no word only known at run time, no path outside the workspace.
fn within_plain_form<'m>(
    cmd: &SimpleCommand,
    model: impl FnOnce() -> &'m Model,
    named: usize,
    places: &Places<'_>,
) -> bool {
    if named >= cmd.words.len() && !cmd.extra_args {
        return true;
    }
    let inside_from = |w: &Word, cwd: &WorkingDir| {
        w.literal().is_some_and(|t| {
            matches!(
                places.locate(t, cwd).place,
                Place::Inside | Place::HarmlessDevice
            )
        })
    };
    let inside = |w: &Word| inside_from(w, &cmd.cwd);
    match model() {
        Model::Modeled(e) if !cmd.extra_args => {
            // Where it works: moved by the program itself (`git -C DIR`), inside the
            // workspace, and every path it names read from there (the directory it moves to
            // from where it starts).
            let Some(cwd) = super::effects::moved(&cmd.cwd, e.cwd.as_ref()) else {
                return false;
            };
            let moved_inside = match (&e.cwd, &cwd) {
                (None, _) => true,
                (Some(_), WorkingDir::Dir(d)) => {
                    places.locate(d, &WorkingDir::Root).place == Place::Inside
                }
                _ => false,
            };
            let plain_writes = {
                let mut plain = cmd.clone();
                plain.words.truncate(named.max(1));
                !matches!(programs::model(&plain), Model::Modeled(p) if p.writes.is_empty())
            };
            moved_inside
                && (plain_writes || e.writes.is_empty())
                && e.reads
                    .iter()
                    .chain(&e.meta)
                    .chain(&e.writes)
                    .all(|w| inside_from(w, &cwd))
                && e.meta.iter().all(inside)
                && e.trees.iter().all(|t| inside_from(&t.root, &cwd))
        }
        Model::Modeled(_) => false,
        Model::Unmodeled(_) => {
            !cmd.extra_args
                && cmd.words[named.min(cmd.words.len())..].iter().all(|w| {
                    w.literal().is_some_and(|t| {
                        let path_like = t.contains('/')
                            || t.starts_with(['~', '.'])
                            || crate::paths::has_dot_dot(t);
                        !t.starts_with('-') && !t.contains('=') && (!path_like || inside(w))
                    })
                })
        }
    }
}

/// The rule that decides a call, and what it does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Decided {
    /// The rule.
    pub rule: usize,
    /// What it does: its own action, or `Ask` for a deny rule that only may apply.
    pub action: RuleAction,
    /// Why it only may apply, when it matched in doubt only.
    pub doubt: Option<Doubt>,
}

/// The rule that decides, among the hits (`script`: a shell call's command, and what its
/// commands do). A deny rule that only may apply (every hit in doubt) asks.
pub(crate) fn decide(
    rules: &[CompiledRule],
    hits: &[Hit],
    script: Option<(&Script, &Models<'_>)>,
    places: &Places<'_>,
) -> Option<Decided> {
    // An allow on the whole shell tool or on its command text does not cover a command run
    // with other privileges either.
    let run_as = script.is_some_and(|(s, _)| s.commands.iter().any(privileged));
    let mut candidates: Vec<(usize, Option<Doubt>)> = hits
        .iter()
        .filter(|h| {
            rules[h.rule].action != RuleAction::Allow || h.command.is_none() && !h.loose && !run_as
        })
        .map(|h| (h.rule, h.doubt))
        .collect();
    if let Some((script, models)) = script.filter(|(s, _)| s.unreadable.is_empty()) {
        candidates.extend(covering_allow(rules, hits, script, models, places).map(|r| (r, None)));
    }
    // A rule matched for certain anywhere is not in doubt.
    candidates.sort_unstable_by_key(|&(r, doubt)| (r, doubt.is_some()));
    candidates.dedup_by_key(|&mut (r, _)| r);
    candidates
        .into_iter()
        .map(|(rule, doubt)| {
            let own = rules[rule].action;
            let action = match (own, doubt) {
                (RuleAction::Deny, Some(_)) => RuleAction::Ask,
                _ => own,
            };
            Decided {
                rule,
                action,
                doubt: doubt.filter(|_| own != RuleAction::Allow),
            }
        })
        .min_by_key(|d| {
            (
                rules[d.rule].layer,
                Reverse(restrictiveness(d.action)),
                d.rule,
            )
        })
}

/// The allow rule that covers every part of the script, reported by its weakest layer.
fn covering_allow(
    rules: &[CompiledRule],
    hits: &[Hit],
    script: &Script,
    models: &Models<'_>,
    places: &Places<'_>,
) -> Option<usize> {
    // The covering allow of each command (by index), the strongest layer's.
    let mut best: Vec<(usize, usize)> = Vec::new();
    for h in hits
        .iter()
        .filter(|h| rules[h.rule].action == RuleAction::Allow && !h.loose)
    {
        if let Some(c) = h.command
            && within_plain_form(&script.commands[c], || models.of(c), h.words, places)
        {
            match best.iter_mut().find(|(command, _)| *command == c) {
                Some((_, slot)) => {
                    if rules[h.rule].layer < rules[*slot].layer {
                        *slot = h.rule;
                    }
                }
                None => best.push((c, h.rule)),
            }
        }
    }
    if best.is_empty() {
        return None;
    }
    let best_of = |j: usize| best.iter().find(|(c, _)| *c == j).map(|&(_, r)| r);
    let mut weakest: Option<usize> = None;
    for (i, leaf) in script.leaves() {
        let chain = std::iter::once(i).chain(script.ancestors(i).map(|(j, _)| j));
        let cover = chain.filter_map(best_of).min_by_key(|&r| rules[r].layer);
        // A wrapper the program table does not model changes how what it runs runs (a
        // login shell typed into the command, `bash -lc 'cargo test'`, first runs the
        // person's start-up files): the allow of what it runs does not cover it.
        let clean = coverable(leaf)
            && script
                .ancestors(i)
                .all(|(j, c)| coverable(c) && matches!(models.of(j), Model::Modeled(_)));
        match cover {
            Some(_) if !clean => return None,
            Some(r) => {
                if weakest.is_none_or(|w| rules[r].layer > rules[w].layer) {
                    weakest = Some(r);
                }
            }
            None if is_neutral(leaf) => {}
            None => return None,
        }
    }
    weakest
}
