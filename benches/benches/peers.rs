//! Warrant's `rule` evaluator, Cedar and Rego over the same rules and the same corpus of
//! calls, side by side at 100, 1k and 10k rules; the engines must agree on every call first.

use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_main};
use warrant_benches::benchmarking;
use warrant_benches::calls::Outcome;
use warrant_benches::compare::SideBySide;
use warrant_core::call::ToolCall;

fn sizes() -> &'static [usize] {
    if benchmarking() {
        &[100, 1_000, 10_000]
    } else {
        &[100]
    }
}

/// Decides every call of the corpus with one engine.
fn decide_all(s: &SideBySide, decide: impl Fn(&ToolCall) -> Outcome) {
    for case in &s.corpus {
        black_box(decide(&case.call));
    }
}

fn decisions_over_corpus(c: &mut Criterion) {
    let mut group = c.benchmark_group("decision_over_corpus");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(10));
    for &n in sizes() {
        let s = SideBySide::new(n);
        group.throughput(Throughput::Elements(s.corpus.len() as u64));
        group.bench_function(BenchmarkId::new("warrant", n), |b| {
            b.iter(|| decide_all(&s, |call| s.warrant(call)))
        });
        group.bench_function(BenchmarkId::new("cedar", n), |b| {
            b.iter(|| decide_all(&s, |call| s.cedar.decide(call)))
        });
        group.bench_function(BenchmarkId::new("rego", n), |b| {
            b.iter(|| decide_all(&s, |call| s.rego.decide(call)))
        });
    }
    group.finish();
}

/// The benchmark group (in a private module: criterion's macro makes an undocumented `pub fn`).
mod group {
    criterion::criterion_group!(benches, super::decisions_over_corpus);
}

criterion_main!(group::benches);
