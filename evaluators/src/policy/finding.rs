//! What the policy found about a call or a part of it, and how parts combine.

use warrant_core::decision::Risk;
use warrant_core::evaluator::{Rationale, Stance, Verdict};
use warrant_core::sanitize;

use crate::shell::SimpleCommand;

/// One thing the policy found, with the stance it takes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Finding {
    /// How it binds.
    pub stance: Stance,
    /// Its reason code.
    pub code: &'static str,
    /// Why, in words.
    pub reason: String,
    /// How much harm it could do.
    pub risk: Risk,
}

impl Finding {
    /// A finding.
    pub(crate) fn new(
        stance: Stance,
        code: &'static str,
        risk: Risk,
        reason: impl Into<String>,
    ) -> Self {
        Self {
            stance,
            code,
            reason: reason.into(),
            risk,
        }
    }

    /// The verdict it stands for.
    pub(crate) fn verdict(self) -> Verdict {
        Verdict::decide(
            self.stance,
            Rationale::new(self.code, self.reason, self.risk),
        )
    }

    /// Orders findings so that the most restrictive (deny, ask, allow), then the riskiest,
    /// is the greatest.
    /// The behaviour's restrictiveness, then whether no mode settles it (a binding ask beats
    /// an open one whatever their risks: the call must not become settleable because a
    /// riskier open finding stands for it), then the risk.
    fn weight(&self) -> (u8, bool, Risk) {
        (
            self.stance.behavior().restrictiveness(),
            self.stance == Stance::RequireAsk,
            self.risk,
        )
    }
}

/// The finding that decides: the most restrictive, then a binding one, then the riskiest;
/// the first among equals.
pub(crate) fn most_restrictive(findings: impl IntoIterator<Item = Finding>) -> Option<Finding> {
    findings.into_iter().fold(None, |best, f| match best {
        Some(b) if b.weight() >= f.weight() => Some(b),
        _ => Some(f),
    })
}

/// How a command reads in a reason: its words as written, bounded.
pub(crate) fn quote(cmd: &SimpleCommand) -> String {
    // Sized for the words and the spaces between them, so that it is not grown word by word.
    let mut text = String::with_capacity(cmd.words.iter().map(|w| w.raw.len() + 1).sum());
    if cmd.words.is_empty() {
        for (i, name) in cmd.assignments.iter().enumerate() {
            if i > 0 {
                text.push(' ');
            }
            text.push_str(name);
            text.push_str("=…");
        }
    } else {
        for (i, word) in cmd.words.iter().enumerate() {
            if i > 0 {
                text.push(' ');
            }
            text.push_str(&word.raw);
        }
    }
    quote_text(&text)
}

/// Bounded text in backticks.
pub(crate) fn quote_text(text: &str) -> String {
    let bounded = sanitize::bound(text.trim(), 80);
    let mut quoted = String::with_capacity(bounded.len() + 2);
    quoted.push('`');
    quoted.push_str(&bounded);
    quoted.push('`');
    quoted
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deny_beats_ask_beats_allow_whatever_the_order() {
        let allow = Finding::new(Stance::PolicyAllow, "shell_read_only", Risk::Safe, "reads");
        let ask = Finding::new(Stance::DefaultAsk, "shell_write", Risk::Medium, "writes");
        let deny = Finding::new(
            Stance::HardDeny,
            "shell_destructive",
            Risk::Critical,
            "wipes",
        );
        let all = [allow.clone(), ask.clone(), deny.clone()];
        assert_eq!(most_restrictive(all.clone()).unwrap(), deny);
        assert_eq!(most_restrictive(all.into_iter().rev()).unwrap(), deny);
        assert_eq!(most_restrictive([allow, ask.clone()]).unwrap(), ask);
    }
}
