//! Which matching rule decides: the highest layer, then deny over ask over allow. An allow
//! rule covers a shell command only when every part that runs is covered.

use std::cmp::Reverse;
use std::collections::HashMap;

use super::compile::CompiledRule;
use super::config::RuleAction;
use super::index::Hit;
use crate::shell::{RedirectKind, Script, SimpleCommand};

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

/// Whether an allow rule may cover this command at all: no write redirection (other than to
/// `/dev/null`), no environment assignments (`PATH=./bin`, `env LD_PRELOAD=…`), and a first
/// word that is a bare name (`./npm` or `/tmp/x/npm` is another program than the rule's).
fn coverable(cmd: &SimpleCommand) -> bool {
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

/// The rule that decides, among the hits.
pub(crate) fn decide(
    rules: &[CompiledRule],
    hits: &[Hit],
    script: Option<&Script>,
) -> Option<usize> {
    let mut candidates: Vec<usize> = hits
        .iter()
        .filter(|h| rules[h.rule].action != RuleAction::Allow || h.command.is_none())
        .map(|h| h.rule)
        .collect();
    if let Some(script) = script.filter(|s| s.unreadable.is_empty()) {
        candidates.extend(covering_allow(rules, hits, script));
    }
    candidates
        .into_iter()
        .min_by_key(|&r| (rules[r].layer, Reverse(restrictiveness(rules[r].action)), r))
}

/// The allow rule that covers every part of the script, reported by its weakest layer.
fn covering_allow(rules: &[CompiledRule], hits: &[Hit], script: &Script) -> Option<usize> {
    let mut best: HashMap<usize, usize> = HashMap::new();
    for h in hits
        .iter()
        .filter(|h| rules[h.rule].action == RuleAction::Allow && !h.loose)
    {
        if let Some(c) = h.command {
            let slot = best.entry(c).or_insert(h.rule);
            if rules[h.rule].layer < rules[*slot].layer {
                *slot = h.rule;
            }
        }
    }
    if best.is_empty() {
        return None;
    }
    let mut weakest: Option<usize> = None;
    for (i, leaf) in script.leaves() {
        let chain = std::iter::once(i).chain(script.ancestors(i).map(|(j, _)| j));
        let cover = chain
            .filter_map(|j| best.get(&j).copied())
            .min_by_key(|&r| rules[r].layer);
        let clean = std::iter::once(leaf)
            .chain(script.ancestors(i).map(|(_, c)| c))
            .all(coverable);
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
