//! Repeats one decision in a loop, for a profiler (`perf record`, `valgrind
//! --tool=callgrind`) to attribute its cost.
//!
//! ```text
//! cargo build --release -p warrant-benches --bin profile
//! valgrind --tool=callgrind target/release/profile chain command hit 10000 2000
//! ```
//!
//! Arguments: `rule|parsed|chain|parse` (`parsed`: the rule evaluator with the command
//! already parsed), `path|command`, `hit|miss`, the rule count, the repetitions;
//! or `engine`, the concurrent sessions, the decisions per session (1,000 rules, SQLite, SSE).

/// The allocator the program runs with (the benchmarks measure the same): a decision makes
/// about a hundred small allocations, which mimalloc serves in fewer instructions than the
/// system allocator.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::hint::black_box;
use std::time::Instant;

use warrant_benches::calls::probes;
use warrant_benches::endtoend::Rig;
use warrant_benches::rules::generate;
use warrant_benches::warrant::{
    chain_decision, clock_runtime, context, deterministic_chain, for_call, now, parsed_for_call,
    rule_evaluator,
};
use warrant_core::evaluator::Evaluator;

fn usage() -> ! {
    eprintln!("usage: profile rule|parsed|chain|parse path|command hit|miss RULES REPETITIONS");
    eprintln!("       profile engine SESSIONS DECISIONS_PER_SESSION");
    std::process::exit(2)
}

fn engine(sessions: &str, per_session: &str) {
    let (Ok(sessions), Ok(per_session)) = (sessions.parse::<usize>(), per_session.parse::<usize>())
    else {
        usage()
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a runtime");
    runtime.block_on(async {
        let rig = std::sync::Arc::new(Rig::new(1_000).await);
        let t = rig.run("profile", sessions, per_session).await;
        eprintln!("{:.0} decisions/s, p99 {:?}", t.per_second, t.latency.p99);
    });
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let [what, sessions, per_session] = args.as_slice()
        && what == "engine"
    {
        return engine(sessions, per_session);
    }
    let [what, kind, hit, rules, repetitions] = args.as_slice() else {
        usage()
    };
    let (Ok(rules), Ok(repetitions)) = (rules.parse::<usize>(), repetitions.parse::<usize>())
    else {
        usage()
    };
    let hit = match hit.as_str() {
        "hit" => true,
        "miss" => false,
        _ => usage(),
    };
    let Some(probe) = probes(rules)
        .into_iter()
        .find(|p| p.kind == kind && p.hit == hit)
    else {
        usage()
    };
    let runtime = clock_runtime();
    let _inside = runtime.enter();
    let cx = context();
    let call = &probe.call;
    // The loop's wall time per repetition goes to standard error (setup excluded): a rough
    // figure next to what the profiler counts.
    let started;
    match what.as_str() {
        "rule" => {
            let evaluator = rule_evaluator(&generate(rules));
            started = Instant::now();
            for _ in 0..repetitions {
                black_box(now(evaluator.evaluate(black_box(call), &for_call(&cx))).ok());
            }
        }
        "parsed" => {
            // The rule evaluator with the command already parsed (parse excluded).
            let evaluator = rule_evaluator(&generate(rules));
            started = Instant::now();
            for _ in 0..repetitions {
                let cx = parsed_for_call(&cx, call);
                black_box(now(evaluator.evaluate(black_box(call), &cx)).ok());
            }
        }
        "chain" => {
            let chain = deterministic_chain(&generate(rules));
            started = Instant::now();
            for _ in 0..repetitions {
                black_box(chain_decision(&chain, black_box(call), &for_call(&cx)));
            }
        }
        "parse" => {
            let command = call
                .input
                .get("command")
                .and_then(|c| c.as_str())
                .unwrap_or_else(|| usage());
            started = Instant::now();
            for _ in 0..repetitions {
                black_box(warrant_evaluators::shell::parse(black_box(command)).ok());
            }
        }
        _ => usage(),
    }
    let per = started.elapsed() / u32::try_from(repetitions.max(1)).unwrap_or(u32::MAX);
    eprintln!("{per:?} per repetition (wall, loop only)");
}
