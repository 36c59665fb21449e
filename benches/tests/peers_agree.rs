//! Warrant, Cedar and Rego decide every call of the corpus alike, before anything is timed.

use warrant_benches::calls::Outcome;
use warrant_benches::compare::SideBySide;
use warrant_benches::rules::Effect;

#[test]
fn the_three_engines_agree_on_the_corpus_at_100_and_1000_rules() {
    for n in [100, 1_000] {
        let engines = SideBySide::new(n);
        assert!(engines.corpus.len() > 30, "the corpus covers every shape");
    }
}

#[test]
fn the_corpus_holds_hits_of_every_effect_and_misses() {
    let engines = SideBySide::new(100);
    for expected in [
        Outcome::Ruled(Effect::Allow),
        Outcome::Ruled(Effect::Ask),
        Outcome::Ruled(Effect::Deny),
        Outcome::NoRule,
    ] {
        assert!(
            engines.corpus.iter().any(|c| c.expected == expected),
            "no call expects {expected:?}"
        );
    }
}
