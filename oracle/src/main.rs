//! `warrant-oracle`: decide calls with the policy, run them in a sandbox under a syscall
//! tracer, and fail on every false allow.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::Parser;
use serde_json::json;
use warrant_oracle::decide::PolicyChoice;
use warrant_oracle::run::{Options, Report, run};
use warrant_oracle::sandbox::Limits;

/// Runs the commands the policy allows in a sandbox and checks they only read.
#[derive(Debug, Parser)]
#[command(name = "warrant-oracle", version)]
struct Args {
    /// The CI run: the corpora, the file-reading cases and 2,000 distinct generated commands
    /// with a fixed seed, a quarter of the asked and denied calls sampled, short time limits.
    #[arg(long)]
    quick: bool,
    /// How many distinct commands to generate (default: 2,000 with --quick, else 10,000).
    #[arg(long, value_name = "N")]
    count: Option<usize>,
    /// The generator's seed (default: 1 with --quick, else taken from the clock).
    #[arg(long, value_name = "S")]
    seed: Option<u64>,
    /// A JSON-lines corpus to check as well (`{"tool", "input", "expect"?}` per line).
    #[arg(long = "corpus", value_name = "FILE")]
    corpora: Vec<PathBuf>,
    /// The directory of `*.jsonl` corpora read by default.
    #[arg(long, value_name = "DIR", default_value = "tests/corpus")]
    corpus_dir: PathBuf,
    /// Skip the corpus directory and the built-in file-reading cases (only --corpus files and
    /// generated commands).
    #[arg(long)]
    no_default_cases: bool,
    /// Parallel sandboxes.
    #[arg(long, value_name = "N", default_value_t = 2)]
    workers: usize,
    /// Time limit per allowed call, in milliseconds.
    #[arg(long, value_name = "MS")]
    timeout_ms: Option<u64>,
    /// Percent of asked and denied calls to run as well, for precision (default: 25 with
    /// --quick, else 100).
    #[arg(long, value_name = "PERCENT")]
    sample: Option<u64>,
    /// Write every false allow as one JSON line to FILE.
    #[arg(long, value_name = "FILE")]
    false_allows: Option<PathBuf>,
    /// List every precision miss, not only their count.
    #[arg(long)]
    list_precision_misses: bool,
    /// Print one line per call run (to stderr).
    #[arg(long)]
    verbose: bool,
    /// Tests of the oracle only: a policy stub that allows every call.
    #[arg(long, hide = true)]
    allow_all: bool,
}

fn main() -> ExitCode {
    let args = Args::parse();
    let seed = args.seed.unwrap_or_else(|| {
        if args.quick {
            1
        } else {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_secs())
                .unwrap_or_default()
        }
    });
    let count = args
        .count
        .unwrap_or(if args.quick { 2_000 } else { 10_000 });
    let timeout =
        Duration::from_millis(
            args.timeout_ms
                .unwrap_or(if args.quick { 3_000 } else { 5_000 }),
        );
    let limits = Limits {
        timeout,
        ..Limits::default()
    };
    let options = Options {
        seed,
        count,
        corpus_dir: (!args.no_default_cases).then(|| args.corpus_dir.clone()),
        corpora: args.corpora.clone(),
        view_cases: !args.no_default_cases,
        workers: args.workers,
        limits,
        sample_limits: Limits {
            timeout: timeout.min(Duration::from_secs(2)),
            ..limits
        },
        sample_percent: args
            .sample
            .unwrap_or(if args.quick { 25 } else { 100 })
            .min(100),
        policy: if args.allow_all {
            PolicyChoice::AllowAll
        } else {
            PolicyChoice::Builtin
        },
        verbose: args.verbose,
    };
    let report = match run(&options) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("warrant-oracle: {e}");
            return ExitCode::from(2);
        }
    };
    if let Some(path) = &args.false_allows
        && let Err(e) = write_false_allows(path, &report)
    {
        eprintln!("warrant-oracle: cannot write {}: {e}", path.display());
    }
    print_report(&report, args.list_precision_misses);
    if report.passed() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// A call's text on one line, cut to a readable length.
fn one_line(text: &str) -> String {
    const LONGEST: usize = 2_000;
    let flat = text.replace('\n', "\\n");
    if flat.len() <= LONGEST {
        return flat;
    }
    let cut = (0..=LONGEST)
        .rev()
        .find(|&i| flat.is_char_boundary(i))
        .unwrap_or(0);
    format!("{}… ({} bytes)", &flat[..cut], text.len())
}

fn print_report(report: &Report, list_misses: bool) {
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "== execution oracle (seed {})", report.seed);
    for fa in &report.false_allows {
        let _ = writeln!(
            out,
            "FALSE ALLOW: {} {}",
            fa.case.tool,
            one_line(&fa.case.text())
        );
        let _ = writeln!(out, "  from:     {}", fa.case.origin);
        let _ = writeln!(out, "  decision: {}", fa.decision.describe());
        for v in fa.violations.iter().take(5) {
            let _ = writeln!(out, "  {}: {}", v.kind.as_str(), v.detail);
            let _ = writeln!(out, "    syscall: {}", v.evidence);
        }
        if fa.violations.len() > 5 {
            let _ = writeln!(out, "  … and {} more", fa.violations.len() - 5);
        }
    }
    for e in &report.errors {
        let _ = writeln!(out, "ERROR: {e}");
    }
    if list_misses {
        for (case, decision) in &report.precision_misses {
            let _ = writeln!(
                out,
                "precision miss: {} {} [{}]",
                case.tool,
                one_line(&case.text()),
                decision.describe()
            );
        }
    }
    let _ = writeln!(out, "decisions:");
    for (reason, n) in &report.reasons {
        let _ = writeln!(out, "  {n:>6}  {reason}");
    }
    let _ = writeln!(
        out,
        "{} calls ({} generated, {} allowed); {} run in the sandbox in {:.1?} ({} hit the time limit); {} other tools skipped",
        report.commands,
        report.generated,
        report.allowed,
        report.ran,
        report.elapsed,
        report.timeouts,
        report.skipped_tools
    );
    let _ = writeln!(
        out,
        "false allows: {}; errors: {}; precision misses (asked or denied, yet ran read-only): {}; unjudged samples: {}; corpus expectations not met: {}",
        report.false_allows.len(),
        report.errors.len(),
        report.precision_misses.len(),
        report.unjudged,
        report.expectation_mismatches
    );
    let _ = writeln!(out, "{}", if report.passed() { "PASS" } else { "FAIL" });
    let _ = writeln!(out, "{}", report.json_line());
}

fn write_false_allows(path: &PathBuf, report: &Report) -> std::io::Result<()> {
    let mut f = std::fs::File::create(path)?;
    for fa in &report.false_allows {
        let first = fa.violations.first();
        let line = json!({
            "tool": fa.case.tool,
            "input": fa.case.input,
            "decision": fa.decision.describe(),
            "kind": first.map(|v| v.kind.as_str()),
            "detail": first.map(|v| v.detail.clone()),
            "syscall": first.map(|v| v.evidence.clone()),
            "violations": fa.violations.len(),
        });
        writeln!(f, "{line}")?;
    }
    Ok(())
}
