//! The results of a run and `BENCHMARKS.md`: the figures, the targets and whether each is
//! met, and the hand-written analysis below the marker, which a rewrite keeps.

mod machine;
mod targets;
pub mod units;

use std::fmt::Write as _;
use std::time::Duration;

pub use machine::Machine;
pub use targets::{Target, evaluate};

use crate::endtoend::Throughput;
use crate::fanout::FanOut;
use crate::latency::Latency;
use crate::reload::Reload;
use crate::sidecar::{HttpThroughput, StdioThroughput};
use crate::timing::Stats;
use units::{duration, rate, ratio};

/// The line after which `BENCHMARKS.md` is written by hand and kept by every rewrite.
pub const KEEP_MARKER: &str =
    "<!-- Everything below this line is kept when the quick run rewrites this file. -->";

/// Warrant and the peers over one rule set: time per decision over the corpus.
#[derive(Debug, Clone)]
pub struct PeerTiming {
    /// How many rules.
    pub rules: usize,
    /// How many calls the corpus has.
    pub calls: usize,
    /// Warrant's `rule` evaluator.
    pub warrant: Stats,
    /// Cedar.
    pub cedar: Stats,
    /// Rego.
    pub rego: Stats,
}

/// The engine end to end on PostgreSQL: run when a server was named, else reported as not
/// run (never a figure of its own making).
#[derive(Debug, Clone, Default)]
pub enum OnPostgres {
    /// No server was named.
    #[default]
    NotRun,
    /// Run on `server` (its version, and whether its commits reach the disk).
    Ran {
        /// `PostgreSQL 15.4, fsync on, synchronous_commit on`.
        server: String,
        /// Per number of concurrent sessions, as [`Results::engine`].
        runs: Vec<(usize, Throughput)>,
    },
}

/// Everything one run measured.
#[derive(Debug, Clone)]
pub struct Results {
    /// Where.
    pub machine: Machine,
    /// Rule evaluator and chain latencies.
    pub latencies: Vec<Latency>,
    /// Side by side with the peers.
    pub peers: Vec<PeerTiming>,
    /// The engine end to end on SQLite, per number of concurrent sessions.
    pub engine: Vec<(usize, Throughput)>,
    /// The engine end to end on PostgreSQL, in the same run, when a server was named.
    pub engine_postgres: OnPostgres,
    /// Fan-out, with the number of subscribers.
    pub fanout: Option<(usize, FanOut)>,
    /// Reload, with the number of parts.
    pub reload: Option<(usize, Reload)>,
    /// `warrant serve` over HTTP with keep-alive clients: announced calls (the route's
    /// default, which the target is about), and possibly unannounced ones for comparison.
    pub http: Vec<HttpThroughput>,
    /// `warrant stdio` fed a file of tool-call lines.
    pub stdio: Option<StdioThroughput>,
    /// How long the run took.
    pub wall: Duration,
}

/// A rate of `what`: `21 300 lines/s`.
fn rate_of(per_second: f64, what: &str) -> String {
    format!("{} {what}/s", rate(per_second).trim_end_matches(" /s"))
}

fn spread(s: &Stats) -> String {
    format!("median {}, p99 {}", duration(s.median), duration(s.p99))
}

/// A row of Warrant's own figure, with no peer.
fn own(figure: String, value: String) -> [String; 4] {
    [figure, value, "—".to_owned(), "—".to_owned()]
}

/// The probe a latency is of: `command hit, 1000 rules`.
fn probe(l: &Latency) -> String {
    format!("{} {}, {} rules", l.kind, hit(l.hit), l.rules)
}

fn hit(h: bool) -> &'static str {
    if h { "hit" } else { "miss" }
}

impl Results {
    /// The figures table: figure, value, peer, ratio, machine.
    pub fn figures(&self) -> String {
        let mut rows: Vec<[String; 4]> = Vec::new();
        for l in &self.latencies {
            let note = if l.kind == "command" {
                " (its own parse included)"
            } else {
                ""
            };
            rows.push(own(
                format!("`rule` evaluator, {}{note}", probe(l)),
                spread(&l.rule),
            ));
            if l.kind == "command" {
                rows.push(own(
                    format!(
                        "`rule` evaluator, {} (command already parsed: parse excluded)",
                        probe(l)
                    ),
                    spread(&l.rule_parsed),
                ));
            }
        }
        for l in &self.latencies {
            rows.push(own(
                format!("chain (`policy` + `rule`), {}", probe(l)),
                spread(&l.chain),
            ));
        }
        let parses = self
            .latencies
            .iter()
            .filter_map(|l| l.parse.map(|p| (l.hit, p)));
        for (h, p) in parses.take(2) {
            rows.push(own(
                format!("shell parser alone, command {}", hit(h)),
                spread(&p),
            ));
        }
        for p in &self.peers {
            for (name, s) in [("Cedar", &p.cedar), ("Rego", &p.rego)] {
                rows.push([
                    format!(
                        "{} rules, mean per decision over {} calls, Warrant vs {name}",
                        p.rules, p.calls
                    ),
                    duration(p.warrant.mean),
                    format!("{name} {}", duration(s.mean)),
                    ratio(p.warrant.mean, s.mean),
                ]);
            }
        }
        let engine_row = |store: &str, sessions: &usize, t: &Throughput| {
            own(
                format!(
                    "engine end to end, {store} (durable audit, SSE subscriber), {sessions} \
                     concurrent sessions"
                ),
                format!("{}; latency {}", rate(t.per_second), spread(&t.latency)),
            )
        };
        for (sessions, t) in &self.engine {
            rows.push(engine_row("SQLite", sessions, t));
        }
        match &self.engine_postgres {
            OnPostgres::Ran { server, runs } => {
                for (sessions, t) in runs {
                    rows.push(engine_row(server, sessions, t));
                }
            }
            OnPostgres::NotRun => rows.push(own(
                "engine end to end, PostgreSQL (durable audit, SSE subscriber)".to_owned(),
                "not run (no PostgreSQL)".to_owned(),
            )),
        }
        if let Some((subscribers, f)) = &self.fanout {
            let until_last =
                format!("SSE fan-out to {subscribers} subscribers, until the last has the event");
            rows.push(own(until_last, spread(&f.last)));
            let publish = format!(
                "SSE fan-out, `publish` alone (durable log) with {subscribers} subscribers"
            );
            rows.push(own(publish, spread(&f.publish)));
        }
        if let Some((parts, r)) = &self.reload {
            rows.push(own(
                format!("reload of a session of {parts} tool parts from SQLite"),
                spread(&r.read),
            ));
            let fill = format!(
                "writing those {parts} parts through the engine ({} calls at a time)",
                r.writers
            );
            rows.push(own(fill, rate(*parts as f64 / r.fill.as_secs_f64())));
        }
        for h in &self.http {
            let announced = if h.announce {
                "announced calls, the default"
            } else {
                "`\"announce\": false`"
            };
            let figure = format!(
                "`warrant serve` over HTTP, `POST /v1/sessions/{{id}}/tool-calls`, {} keep-alive \
                 clients, {announced} (durable audit; {} calls counted)",
                h.clients, h.calls
            );
            rows.push(own(
                figure,
                format!(
                    "{}; latency {}",
                    rate_of(h.per_second, "calls"),
                    spread(&h.latency)
                ),
            ));
        }
        if let Some(s) = &self.stdio {
            let figure = format!(
                "`warrant stdio`, {} `tool_call` lines over {} sessions, until every decision \
                 is written (durable audit)",
                s.lines, s.sessions
            );
            rows.push(own(figure, rate_of(s.per_second, "lines")));
        }
        let machine = format!("{}", self.machine);
        let mut out = String::from(
            "| figure | value | peer | ratio (Warrant / peer) | machine |\n|---|---|---|---|---|\n",
        );
        for [figure, value, peer, r] in rows {
            let _ = writeln!(out, "| {figure} | {value} | {peer} | {r} | {machine} |");
        }
        out
    }

    /// The targets table: target, measured, met.
    pub fn targets(&self) -> String {
        let mut out = String::from(
            "| target | measured | met | if missed: why, and what would fix it |\n|---|---|---|---|\n",
        );
        for t in evaluate(self) {
            let (met, why) = match t.met {
                Some(true) => ("yes", "—"),
                Some(false) => ("**no**", t.why),
                None => ("not measured", "—"),
            };
            let _ = writeln!(out, "| {} | {} | {met} | {why} |", t.text, t.measured);
        }
        out
    }

    /// `BENCHMARKS.md` for these results, keeping what `previous` had below [`KEEP_MARKER`].
    pub fn markdown(&self, command: &str, previous: Option<&str>) -> String {
        let kept = previous
            .and_then(|p| p.split_once(KEEP_MARKER))
            .map(|(_, rest)| rest.trim_start_matches('\n').to_owned())
            .unwrap_or_default();
        format!(
            "# Benchmarks\n\n\
             Written by `{command}` on {machine} in {wall} (compiling excluded). \
             Every figure comes from that one run: the peers ran side by side with Warrant, \
             on the same rules and the same calls, after all three agreed on every call. \
             The machine is shared, so figures move between runs; ratios measured in one run \
             move less.\n\n\
             ## Figures\n\n{figures}\n\
             ## Targets\n\n{targets}\n\
             {KEEP_MARKER}\n\n{kept}",
            machine = self.machine,
            wall = duration(self.wall),
            figures = self.figures(),
            targets = self.targets(),
        )
    }
}
