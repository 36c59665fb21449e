//! Decision latency of the `rule` evaluator and of the deterministic chain (`policy` +
//! `rule`) at 100, 1k, 10k and 100k rules, for a path and a command, hit and miss.

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, criterion_main};
use warrant_benches::benchmarking;
use warrant_benches::calls::probes;
use warrant_benches::rules::generate;
use warrant_benches::warrant::{
    chain_decision, clock_runtime, context, deterministic_chain, for_call, now, rule_evaluator,
};
use warrant_core::call::ToolCall;
use warrant_core::evaluator::Evaluator;

fn sizes() -> &'static [usize] {
    if benchmarking() {
        &[100, 1_000, 10_000, 100_000]
    } else {
        &[100]
    }
}

fn probe_id(kind: &str, hit: bool, n: usize) -> BenchmarkId {
    BenchmarkId::new(format!("{kind}_{}", if hit { "hit" } else { "miss" }), n)
}

/// Times every probe at every size, with a decider built once per size.
fn bench_probes<D>(
    c: &mut Criterion,
    name: &str,
    build: impl Fn(usize) -> D,
    decide: impl Fn(&D, &ToolCall),
) {
    let mut group = c.benchmark_group(name);
    for &n in sizes() {
        let decider = build(n);
        for p in probes(n) {
            group.bench_function(probe_id(p.kind, p.hit, n), |b| {
                b.iter(|| decide(&decider, black_box(&p.call)))
            });
        }
    }
    group.finish();
}

fn rule_decision(c: &mut Criterion) {
    let cx = context();
    let build = |n| rule_evaluator(&generate(n));
    bench_probes(c, "rule_decision", build, |evaluator, call| {
        black_box(now(evaluator.evaluate(call, &for_call(&cx))).ok());
    });
}

fn chain_decision_latency(c: &mut Criterion) {
    let runtime = clock_runtime();
    let _inside = runtime.enter();
    let cx = context();
    let build = |n| deterministic_chain(&generate(n));
    bench_probes(c, "chain_decision", build, |chain, call| {
        black_box(chain_decision(chain, call, &for_call(&cx)));
    });
}

/// The benchmark group (in a private module: criterion's macro makes an undocumented `pub fn`).
mod group {
    criterion::criterion_group!(benches, super::rule_decision, super::chain_decision_latency);
}

criterion_main!(group::benches);
