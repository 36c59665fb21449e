//! Rule decisions at 100, 1k, 10k and 100k rules, for a call a rule matches and one none
//! does: compiled matchers keep the cost flat as rules grow.
// criterion's macros generate public items that cannot carry docs.
#![allow(missing_docs)]

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use serde_json::json;
use warrant_core::call::{EvaluationContext, PermissionMode, ToolCall};
use warrant_core::catalog::ToolCatalog;
use warrant_core::evaluator::Evaluator;
use warrant_evaluators::rule::RuleSet;
use warrant_evaluators::{RuleEvaluator, RulesConfig};

/// `n` rules: a third command prefixes, a third exact commands, a third path globs, spread
/// over allow, ask and deny.
fn rules(n: usize) -> RuleEvaluator {
    let mut set = RuleSet::default();
    for i in 0..n {
        let rule = match i % 3 {
            0 => format!("Bash(tool{i} run:*)"),
            1 => format!("Bash(tool{i} status)"),
            _ => format!("Edit(src/module{i}/**)"),
        };
        match i % 4 {
            0 | 1 => set.allow.push(rule),
            2 => set.ask.push(rule),
            _ => set.deny.push(rule),
        }
    }
    let config = RulesConfig {
        user: set,
        ..RulesConfig::default()
    };
    RuleEvaluator::new(&config, &ToolCatalog::builtin(), None).expect("rules compile")
}

fn bench(c: &mut Criterion) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("runtime");
    let root = std::env::temp_dir();
    let cx = EvaluationContext::new(PermissionMode::Default, &root);
    let mut group = c.benchmark_group("rule_decision");
    for n in [100usize, 1_000, 10_000, 100_000] {
        let evaluator = rules(n);
        let middle = (n / 2) / 3 * 3;
        let calls = [
            (
                "command_hit",
                ToolCall::new(
                    "s",
                    "c",
                    "Bash",
                    json!({"command": format!("tool{middle} run --fast && cd x")}),
                ),
            ),
            (
                "command_miss",
                ToolCall::new(
                    "s",
                    "c",
                    "Bash",
                    json!({"command": "cargo build --release && ls -la"}),
                ),
            ),
            (
                "path_hit",
                ToolCall::new(
                    "s",
                    "c",
                    "Edit",
                    json!({"path": format!("src/module{}/lib.rs", middle + 2)}),
                ),
            ),
            (
                "path_miss",
                ToolCall::new("s", "c", "Edit", json!({"path": "docs/readme.md"})),
            ),
        ];
        for (name, call) in &calls {
            group.bench_with_input(BenchmarkId::new(*name, n), call, |b, call| {
                b.iter(|| runtime.block_on(evaluator.evaluate(black_box(call), &cx)))
            });
        }
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
