//! Rewriting `BENCHMARKS.md` replaces the measured part and keeps the hand-written analysis.

use std::time::Duration;

use warrant_benches::report::{KEEP_MARKER, Machine, Results};

fn empty_results() -> Results {
    Results {
        machine: Machine {
            cpu: "Test CPU".to_owned(),
            cores: 2,
        },
        latencies: Vec::new(),
        peers: Vec::new(),
        engine: Vec::new(),
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
