//! Decision latency of the `rule` evaluator and of the deterministic chain, per rule count,
//! for calls a rule matches and calls none does; and the shell parser's share of it.

use std::time::Duration;

use warrant_core::chain::Chain;
use warrant_core::evaluator::Evaluator;
use warrant_evaluators::RuleEvaluator;

use crate::calls::{Probe, probes};
use crate::rules::generate;
use crate::timing::{Stats, timings, timings_with};
use crate::warrant::{
    chain_decision, clock_runtime, context, deterministic_chain, for_call, now, parsed_for_call,
    rule_evaluator,
};

/// The latencies of one probe call at one rule count.
#[derive(Debug, Clone)]
pub struct Latency {
    /// How many rules.
    pub rules: usize,
    /// The kind of call (`path`, `command`).
    pub kind: &'static str,
    /// Whether a rule matches it.
    pub hit: bool,
    /// The `rule` evaluator alone (for a command, its own parse included).
    pub rule: Stats,
    /// The `rule` evaluator with the command already parsed (as the engine's grant scoper
    /// leaves it): rule evaluation with shell parsing excluded. For a path, as [`Self::rule`].
    pub rule_parsed: Stats,
    /// The deterministic chain (`policy` + `rule`).
    pub chain: Stats,
    /// Parsing the command once, for commands.
    pub parse: Option<Stats>,
}

/// Rounds the runs are spread over, every size and probe taking its turn in each, so that
/// the machine's changing load falls alike on every size.
const ROUNDS: usize = 10;

/// Raw timings of one probe at one size.
struct Timed {
    rules: usize,
    probe: Probe,
    rule: Vec<Duration>,
    rule_parsed: Vec<Duration>,
    chain: Vec<Duration>,
    parse: Vec<Duration>,
}

/// Times every probe of [`probes`] `runs` times at each rule count, in interleaved rounds.
pub fn measure(sizes: &[usize], runs: usize) -> Vec<Latency> {
    let runtime = clock_runtime();
    let _inside = runtime.enter();
    let cx = context();
    let deciders: Vec<(usize, RuleEvaluator, Chain)> = sizes
        .iter()
        .map(|&n| {
            let rules = generate(n);
            (n, rule_evaluator(&rules), deterministic_chain(&rules))
        })
        .collect();
    let mut timed: Vec<Timed> = sizes
        .iter()
        .flat_map(|&n| probes(n).into_iter().map(move |probe| (n, probe)))
        .map(|(rules, probe)| Timed {
            rules,
            probe,
            rule: Vec::new(),
            rule_parsed: Vec::new(),
            chain: Vec::new(),
            parse: Vec::new(),
        })
        .collect();
    let chunk = (runs / ROUNDS).max(1);
    for _ in 0..ROUNDS {
        for t in &mut timed {
            let (_, evaluator, chain) = deciders
                .iter()
                .find(|(n, ..)| *n == t.rules)
                .expect("built");
            let call = &t.probe.call;
            // Each decision gets a context of its own, made untimed, as the engine makes one
            // per call: the analysis the evaluators share (the parsed command) is the call's.
            t.rule.extend(timings_with(
                chunk,
                || for_call(&cx),
                |cx| now(evaluator.evaluate(call, &cx)),
            ));
            t.rule_parsed.extend(timings_with(
                chunk,
                || parsed_for_call(&cx, call),
                |cx| now(evaluator.evaluate(call, &cx)),
            ));
            t.chain.extend(timings_with(
                chunk,
                || for_call(&cx),
                |cx| chain_decision(chain, call, &cx),
            ));
            if let Some(command) = call.input.get("command").and_then(|c| c.as_str()) {
                t.parse
                    .extend(timings(chunk, || warrant_evaluators::shell::parse(command)));
            }
        }
    }
    timed
        .into_iter()
        .map(|t| Latency {
            rules: t.rules,
            kind: t.probe.kind,
            hit: t.probe.hit,
            rule: Stats::of(t.rule),
            rule_parsed: Stats::of(t.rule_parsed),
            chain: Stats::of(t.chain),
            parse: (!t.parse.is_empty()).then(|| Stats::of(t.parse)),
        })
        .collect()
}
