//! One oracle run: decide every call, run the ones that need running in the sandbox (every
//! allowed one; a sample of the rest), and judge what they did.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use crate::analysis::named_programs;
use crate::corpus::{self, Case, Request};
use crate::decide::{Decider, Decision, PolicyChoice};
use crate::effects::{absolute, command_effects};
use crate::generate::{Rng, default_programs};
use crate::layout::{HOME, WORKSPACE};
use crate::sandbox::{Limits, PAYLOAD, RunOutput, Sandbox};
use crate::trace::{parse_cut_trace, parse_trace};
use crate::verdict::{Expectation, Violation, outside_reads, violations};

/// What to check and how.
#[derive(Debug, Clone)]
pub struct Options {
    /// The generator's seed.
    pub seed: u64,
    /// How many commands to generate.
    pub count: usize,
    /// Directory of `*.jsonl` corpora (skipped when missing).
    pub corpus_dir: Option<PathBuf>,
    /// More corpus files.
    pub corpora: Vec<PathBuf>,
    /// Whether to add the built-in file-reading cases.
    pub view_cases: bool,
    /// Parallel sandboxes.
    pub workers: usize,
    /// Limits for allowed calls.
    pub limits: Limits,
    /// Limits for the sample of asked and denied calls.
    pub sample_limits: Limits,
    /// Percent of asked and denied calls that are run too.
    pub sample_percent: u64,
    /// The policy under test.
    pub policy: PolicyChoice,
    /// Print a line per call run.
    pub verbose: bool,
}

/// A call the policy allowed that did more than read.
#[derive(Debug, Clone)]
pub struct FalseAllow {
    /// The call.
    pub case: Case,
    /// The decision.
    pub decision: Decision,
    /// What it did.
    pub violations: Vec<Violation>,
}

/// The result of a run.
#[derive(Debug, Default)]
pub struct Report {
    /// The seed.
    pub seed: u64,
    /// Distinct calls considered.
    pub commands: usize,
    /// Of those, distinct generated commands.
    pub generated: usize,
    /// Calls allowed.
    pub allowed: usize,
    /// Calls run in the sandbox.
    pub ran: usize,
    /// Calls of tools the oracle cannot run.
    pub skipped_tools: usize,
    /// False allows.
    pub false_allows: Vec<FalseAllow>,
    /// Asked or denied calls that ran read-only: (call, decision).
    pub precision_misses: Vec<(Case, Decision)>,
    /// Errors that make the run fail (allowed calls that could not be checked, bad corpora).
    pub errors: Vec<String>,
    /// Asked or denied calls whose run could not be judged (information).
    pub unjudged: usize,
    /// Runs the time limit ended.
    pub timeouts: usize,
    /// Decisions by behaviour and reason code.
    pub reasons: BTreeMap<String, usize>,
    /// Corpus cases whose decision differs from their `expect`.
    pub expectation_mismatches: usize,
    /// Wall time.
    pub elapsed: Duration,
}

impl Report {
    /// Whether the run passes: no false allow and no error.
    pub fn passed(&self) -> bool {
        self.false_allows.is_empty() && self.errors.is_empty()
    }

    /// The last line: one JSON object with the counts, in this order.
    pub fn json_line(&self) -> String {
        format!(
            "{{\"commands\":{},\"allowed\":{},\"falseAllows\":{},\"precisionMisses\":{},\"seed\":{},\"errors\":{}}}",
            self.commands,
            self.allowed,
            self.false_allows.len(),
            self.precision_misses.len(),
            self.seed,
            self.errors.len()
        )
    }
}

struct Job {
    case: Case,
    decision: Decision,
}

enum Judged {
    Clean { read_only: bool },
    Violations(Vec<Violation>),
    Failed(String),
}

/// Runs the oracle.
///
/// # Errors
///
/// When the policy cannot be built. Everything else is reported in the [`Report`].
pub fn run(options: &Options) -> Result<Report, String> {
    let started = Instant::now();
    let mut report = Report {
        seed: options.seed,
        ..Report::default()
    };

    let mut cases: Vec<Case> = Vec::new();
    let mut files: Vec<PathBuf> = options
        .corpus_dir
        .as_deref()
        .map(corpus::corpus_files)
        .unwrap_or_default();
    files.extend(options.corpora.iter().cloned());
    for file in &files {
        match corpus::load(file) {
            Ok(c) => cases.extend(c),
            Err(e) => report.errors.push(e),
        }
    }
    if options.view_cases {
        cases.extend(corpus::view_cases());
    }
    let given = cases.len();
    cases.extend(corpus::generated(
        options.seed,
        options.count,
        default_programs(),
    ));
    let mut seen = BTreeSet::new();
    let mut index = 0;
    cases.retain(|c| {
        let keep = seen.insert(c.key());
        if keep && index >= given {
            report.generated += 1;
        }
        index += 1;
        keep
    });
    report.commands = cases.len();

    // The fixture is built first: the policy reads the files a command will find (names,
    // links, git's index), so it judges against a copy of the same tree.
    let token = canary_token(options.seed);
    let prepared = Sandbox::prepare(&token);
    let decider = match &prepared {
        Ok(sandbox) => Decider::at(options.policy, &sandbox.fixture_home())?,
        Err(_) => Decider::new(options.policy)?,
    };
    let mut sampler = Rng::new(options.seed ^ 0x05EE_D0F0_AC1E);
    let mut jobs = Vec::new();
    for case in cases {
        if case.request() == Request::Other {
            report.skipped_tools += 1;
            continue;
        }
        let decision = decider.decide(&case.tool, &case.input);
        *report.reasons.entry(decision.describe()).or_default() += 1;
        let denied = decision.behavior == warrant_core::decision::Behavior::Deny;
        if case.expectation_met(decision.allowed(), denied) == Some(false) {
            report.expectation_mismatches += 1;
        }
        if decision.allowed() {
            report.allowed += 1;
            jobs.push(Job { case, decision });
        } else if sampler.chance(options.sample_percent) && !fork_bomb(&case) {
            jobs.push(Job { case, decision });
        }
    }
    // Allowed calls first, so a time-boxed run checks all of them.
    jobs.sort_by_key(|j| !j.decision.allowed());

    if jobs.is_empty() {
        report.elapsed = started.elapsed();
        return Ok(report);
    }
    let sandbox = match prepared {
        Ok(s) => s,
        Err(e) => {
            report.errors.push(format!("the sandbox cannot start: {e}"));
            report.elapsed = started.elapsed();
            return Ok(report);
        }
    };

    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let results: Mutex<Vec<(usize, Judged, bool)>> = Mutex::new(Vec::new());
    let total = jobs.len();
    std::thread::scope(|scope| {
        for _ in 0..options.workers.max(1) {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(job) = jobs.get(i) else { break };
                    let limits = if job.decision.allowed() {
                        &options.limits
                    } else {
                        &options.sample_limits
                    };
                    let (judged, timed_out) = check(&sandbox, job, limits);
                    if options.verbose {
                        let limit = if timed_out { " (time limit)" } else { "" };
                        eprintln!(
                            "[{}] {} -> {}{limit}",
                            job.decision.describe(),
                            job.case.text().replace('\n', "\\n"),
                            summary(&judged)
                        );
                    }
                    let n = done.fetch_add(1, Ordering::Relaxed) + 1;
                    if n.is_multiple_of(1000) {
                        eprintln!("oracle: {n}/{total} run ({:.0?})", started.elapsed());
                    }
                    if let Ok(mut r) = results.lock() {
                        r.push((i, judged, timed_out));
                    }
                }
            });
        }
    });

    let mut results = results.into_inner().unwrap_or_default();
    results.sort_by_key(|(i, _, _)| *i);
    for (i, judged, timed_out) in results {
        let job = &jobs[i];
        report.ran += 1;
        report.timeouts += usize::from(timed_out);
        let allowed = job.decision.allowed();
        match judged {
            Judged::Violations(v) if allowed => report.false_allows.push(FalseAllow {
                case: job.case.clone(),
                decision: job.decision.clone(),
                violations: v,
            }),
            Judged::Failed(e) if allowed => report.errors.push(format!(
                "{} ({}): could not be checked: {e}",
                job.case.text(),
                job.case.origin
            )),
            Judged::Failed(_) => report.unjudged += 1,
            Judged::Clean { read_only: true } if !allowed => report
                .precision_misses
                .push((job.case.clone(), job.decision.clone())),
            _ => {}
        }
    }
    report.elapsed = started.elapsed();
    Ok(report)
}

fn summary(judged: &Judged) -> String {
    match judged {
        Judged::Clean { read_only } => format!("clean (read-only: {read_only})"),
        Judged::Violations(v) => v
            .iter()
            .map(|v| format!("{}: {}", v.kind.as_str(), v.detail))
            .collect::<Vec<_>>()
            .join("; "),
        Judged::Failed(e) => format!("error: {e}"),
    }
}

fn fork_bomb(case: &Case) -> bool {
    match case.request() {
        Request::Shell(c) => warrant_evaluators::shell::parse(&c)
            .map(|s| !s.fork_bombs.is_empty())
            .unwrap_or(false),
        _ => false,
    }
}

/// A token no command can guess, for the planted secrets' content.
fn canary_token(seed: u64) -> String {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u64(seed);
    h.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or_default(),
    );
    format!("cnry{:016x}", h.finish())
}

/// The paths a file-reading tool might read for `path`: as given (relative to the workspace),
/// with `~` expanded, and decoded from a `file:` URI.
pub fn view_candidates(path: &str) -> Vec<String> {
    let mut out = vec![path.to_owned()];
    if path == "~" || path.starts_with("~/") {
        out.push(format!("{HOME}{}", &path[1..]));
    }
    if let Some(rest) = path.strip_prefix("file://") {
        let rest = rest.strip_prefix("localhost").unwrap_or(rest);
        out.push(percent_decode(rest));
    }
    out.retain(|p| !p.is_empty());
    out.dedup();
    out
}

fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && let Some(v) = s
                .get(i + 1..i + 3)
                .and_then(|h| u8::from_str_radix(h, 16).ok())
        {
            out.push(v);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The longest command passed as an argument (the kernel's limit for one is 128 KiB).
const LONGEST_ARGUMENT: usize = 100 * 1024;

/// The probe that opens every candidate path the way the kernel would, from the workspace.
const VIEW_PROBE: &str = "for p; do { : < \"$p\"; } 2>/dev/null; done";

/// Runs one job and judges it; also says whether the time limit ended it.
fn check(sandbox: &Sandbox, job: &Job, limits: &Limits) -> (Judged, bool) {
    // The kernel passes arguments as C strings: a NUL byte ends them, as it would for a real
    // shell or file-reading tool.
    let before_nul = |s: String| s.split('\0').next().unwrap_or_default().to_owned();
    let mut payload = None;
    let (argv, text, targets) = match job.case.request() {
        Request::Shell(command) => {
            let command = before_nul(command);
            // A command longer than one argument may be (128 KiB) reaches bash through a file
            // and `eval`, which runs it the same way.
            let script = if command.len() > LONGEST_ARGUMENT {
                payload = Some(command.clone());
                format!("eval \"$(< {PAYLOAD})\"")
            } else {
                command.clone()
            };
            (
                vec!["/bin/bash".to_owned(), "-c".to_owned(), script],
                command,
                Vec::new(),
            )
        }
        Request::View(path) => {
            let path = before_nul(path);
            let candidates = view_candidates(&path);
            let mut argv = vec![
                "/bin/bash".to_owned(),
                "-c".to_owned(),
                VIEW_PROBE.to_owned(),
                "view".to_owned(),
            ];
            argv.extend(candidates.iter().cloned());
            let targets = candidates
                .iter()
                .map(|c| absolute(Some(WORKSPACE), c))
                .collect();
            (argv, path, targets)
        }
        Request::Other => return (Judged::Failed("not a runnable tool".into()), false),
    };
    let output: RunOutput = match sandbox.run(&argv, payload.as_deref(), limits) {
        Ok(o) => o,
        Err(e) => return (Judged::Failed(e), false),
    };
    let timed_out = output.timed_out;
    let parsed = if output.timed_out || output.limited {
        parse_cut_trace(&output.trace)
    } else {
        parse_trace(&output.trace)
    };
    let events = match parsed {
        Ok(e) => e,
        Err(e) => return (Judged::Failed(e.to_string()), timed_out),
    };
    let observed = match command_effects(&events) {
        Ok(o) => o,
        Err(e) => {
            let said = output
                .stderr
                .lines()
                .take(3)
                .collect::<Vec<_>>()
                .join(" / ");
            return (
                Judged::Failed(format!("{e}; the sandbox said: {said}")),
                timed_out,
            );
        }
    };
    let named = match job.case.request() {
        Request::Shell(_) => named_programs(&text),
        _ => BTreeSet::new(),
    };
    let expect = Expectation {
        text: &text,
        named: &named,
        view_targets: &targets,
        leaked: output.leaked.clone(),
    };
    let found = violations(&observed, &expect);
    if !found.is_empty() {
        return (Judged::Violations(found), timed_out);
    }
    let read_only = output.exit == Some(0)
        && !output.timed_out
        && !output.limited
        && outside_reads(&observed, &text).is_empty();
    (Judged::Clean { read_only }, timed_out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn view_candidates_cover_tilde_and_file_uris() {
        assert_eq!(view_candidates("README.md"), ["README.md"]);
        assert_eq!(
            view_candidates("~/.bashrc"),
            ["~/.bashrc", "/home/agent/.bashrc"]
        );
        assert_eq!(
            view_candidates("file://localhost/home/agent/project/%2E%2E/.env"),
            [
                "file://localhost/home/agent/project/%2E%2E/.env",
                "/home/agent/project/../.env"
            ]
        );
        assert_eq!(view_candidates(""), Vec::<String>::new());
    }

    #[test]
    fn the_last_line_has_the_counts_the_readme_names() {
        let report = Report {
            seed: 9,
            commands: 3,
            allowed: 2,
            ..Report::default()
        };
        assert_eq!(
            report.json_line(),
            r#"{"commands":3,"allowed":2,"falseAllows":0,"precisionMisses":0,"seed":9,"errors":0}"#
        );
        let v: serde_json::Value = serde_json::from_str(&report.json_line()).unwrap();
        assert_eq!(v["commands"], 3);
        assert_eq!(v["allowed"], 2);
        assert_eq!(v["falseAllows"], 0);
        assert_eq!(v["precisionMisses"], 0);
        assert_eq!(v["seed"], 9);
        assert!(report.passed());
    }
}
