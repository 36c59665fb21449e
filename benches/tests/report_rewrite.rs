//! Rewriting `BENCHMARKS.md` replaces the measured part and keeps the hand-written analysis.

use std::time::Duration;

use warrant_benches::endtoend::Throughput;
use warrant_benches::report::{KEEP_MARKER, Machine, OnPostgres, Results};
use warrant_benches::timing::Stats;

fn empty_results() -> Results {
    Results {
        machine: Machine {
            cpu: "Test CPU".to_owned(),
            cores: 2,
        },
        latencies: Vec::new(),
        peers: Vec::new(),
        engine: Vec::new(),
        engine_postgres: OnPostgres::NotRun,
        fanout: None,
        reload: None,
        http: Vec::new(),
        stdio: None,
        wall: Duration::from_secs(42),
    }
}

#[test]
fn the_analysis_below_the_marker_survives_a_rewrite() {
    let previous = format!("# Old figures\n\n{KEEP_MARKER}\n\n## Analysis\n\nWhy it is so.\n");
    let written = empty_results().markdown("quick", Some(&previous));
    assert!(!written.contains("Old figures"));
    assert!(written.ends_with("## Analysis\n\nWhy it is so.\n"));
    assert_eq!(written.matches(KEEP_MARKER).count(), 1);
}

#[test]
fn targets_not_measured_say_so_rather_than_pass() {
    let written = empty_results().markdown("quick", None);
    assert!(written.contains("2 cores, Test CPU"));
    assert!(written.contains("| not measured |"));
    assert!(!written.contains("| yes |"));
}

#[test]
fn postgresql_rows_say_not_run_without_a_server_and_stand_beside_sqlite_with_one() {
    let not_run = empty_results().figures();
    assert!(
        not_run.contains(
            "| engine end to end, PostgreSQL (durable audit, SSE subscriber) | not run (no PostgreSQL) |"
        ),
        "{not_run}"
    );
    let measured = |per_second| Throughput {
        per_second,
        latency: Stats::of(vec![Duration::from_millis(2); 10]),
    };
    let results = Results {
        engine: vec![(8, measured(3_000.0))],
        engine_postgres: OnPostgres::Ran {
            server: "PostgreSQL 15.4, fsync on, synchronous_commit on".to_owned(),
            runs: vec![(8, measured(1_200.0))],
        },
        ..empty_results()
    };
    let figures = results.figures();
    assert!(!figures.contains("not run"), "{figures}");
    let sqlite = figures
        .find("| engine end to end, SQLite (durable audit, SSE subscriber), 8 concurrent sessions | 3 000 /s;")
        .expect("the SQLite row");
    let postgres = figures
        .find(
            "| engine end to end, PostgreSQL 15.4, fsync on, synchronous_commit on (durable audit, SSE subscriber), 8 concurrent sessions | 1 200 /s;",
        )
        .expect("the PostgreSQL row");
    assert!(sqlite < postgres, "side by side, SQLite first: {figures}");
}
