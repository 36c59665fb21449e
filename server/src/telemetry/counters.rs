//! Prometheus-style counters of decisions, reviews and approvals: atomics, rendered in the
//! text exposition format 0.0.4 by `GET /metrics`.

use std::fmt::Write as _;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};

use super::DecisionSummary;

/// The behaviours counted, in label order.
const BEHAVIORS: [&str; 3] = ["allow", "ask", "deny"];
/// The sources counted, in label order.
const SOURCES: [&str; 4] = ["policy", "rule", "auto_classifier", "full_access"];
/// The risks counted, in label order.
const RISKS: [&str; 5] = ["safe", "low", "medium", "high", "critical"];
/// The fallbacks counted, in label order.
const FALLBACKS: [&str; 2] = ["embedded", "ask"];
/// The upper bounds of the reviewer latency histogram's buckets, in seconds (`+Inf` after).
const LATENCY_BUCKETS: [f64; 11] = [
    0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0,
];

fn index(list: &[&str], word: &str) -> Option<usize> {
    list.iter().position(|w| *w == word)
}

/// Counters of what the server decided. Cheap to update (relaxed atomics, no locks).
#[derive(Debug)]
pub struct Metrics {
    decisions: [AtomicU64; BEHAVIORS.len() * SOURCES.len() * RISKS.len()],
    unreadable_decisions: AtomicU64,
    reviews: [AtomicU64; 2],
    fallbacks: [AtomicU64; FALLBACKS.len()],
    latency_buckets: [AtomicU64; LATENCY_BUCKETS.len() + 1],
    latency_sum_micros: AtomicU64,
    approval_requests: AtomicU64,
    resolutions: [AtomicU64; 2],
    export_failures: AtomicU64,
}

impl Default for Metrics {
    fn default() -> Self {
        Self::new()
    }
}

impl Metrics {
    /// All counters at zero.
    pub fn new() -> Self {
        Self {
            decisions: std::array::from_fn(|_| AtomicU64::new(0)),
            unreadable_decisions: AtomicU64::new(0),
            reviews: std::array::from_fn(|_| AtomicU64::new(0)),
            fallbacks: std::array::from_fn(|_| AtomicU64::new(0)),
            latency_buckets: std::array::from_fn(|_| AtomicU64::new(0)),
            latency_sum_micros: AtomicU64::new(0),
            approval_requests: AtomicU64::new(0),
            resolutions: std::array::from_fn(|_| AtomicU64::new(0)),
            export_failures: AtomicU64::new(0),
        }
    }

    /// The process's counters, which `GET /metrics` renders.
    pub fn global() -> &'static Arc<Metrics> {
        static GLOBAL: OnceLock<Arc<Metrics>> = OnceLock::new();
        GLOBAL.get_or_init(|| Arc::new(Metrics::new()))
    }

    /// Counts one decision (and its review, when the classifier decided).
    pub fn decision(&self, d: &DecisionSummary) {
        let slot = match (
            index(&BEHAVIORS, d.behavior),
            index(&SOURCES, d.source),
            index(&RISKS, d.risk),
        ) {
            (Some(b), Some(s), Some(r)) => {
                &self.decisions[(b * SOURCES.len() + s) * RISKS.len() + r]
            }
            _ => &self.unreadable_decisions,
        };
        slot.fetch_add(1, Ordering::Relaxed);
        let Some(review) = &d.review else {
            return;
        };
        self.reviews[usize::from(review.embedded)].fetch_add(1, Ordering::Relaxed);
        if let Some(i) = review
            .fallback
            .as_deref()
            .and_then(|f| index(&FALLBACKS, f))
        {
            self.fallbacks[i].fetch_add(1, Ordering::Relaxed);
        }
        if let Some(ms) = review.latency_ms {
            let seconds = ms as f64 / 1000.0;
            let bucket = LATENCY_BUCKETS
                .iter()
                .position(|le| seconds <= *le)
                .unwrap_or(LATENCY_BUCKETS.len());
            self.latency_buckets[bucket].fetch_add(1, Ordering::Relaxed);
            self.latency_sum_micros
                .fetch_add(ms.saturating_mul(1000), Ordering::Relaxed);
        }
    }

    /// Counts an approval request.
    pub fn approval_requested(&self) {
        self.approval_requests.fetch_add(1, Ordering::Relaxed);
    }

    /// Counts a user's resolution (`allow` or `deny`).
    pub fn resolved(&self, behavior: &str) {
        match behavior {
            "allow" => self.resolutions[0].fetch_add(1, Ordering::Relaxed),
            "deny" => self.resolutions[1].fetch_add(1, Ordering::Relaxed),
            _ => 0,
        };
    }

    /// Counts a batch of decision spans the OTLP exporter could not deliver.
    pub fn export_failed(&self) {
        self.export_failures.fetch_add(1, Ordering::Relaxed);
    }

    /// How many decisions were counted with these labels.
    pub fn decisions(&self, behavior: &str, source: &str, risk: &str) -> u64 {
        match (
            index(&BEHAVIORS, behavior),
            index(&SOURCES, source),
            index(&RISKS, risk),
        ) {
            (Some(b), Some(s), Some(r)) => {
                self.decisions[(b * SOURCES.len() + s) * RISKS.len() + r].load(Ordering::Relaxed)
            }
            _ => 0,
        }
    }

    /// How many classifier decisions a fallback (`embedded` or `ask`) made.
    pub fn fallbacks(&self, fallback: &str) -> u64 {
        index(&FALLBACKS, fallback).map_or(0, |i| self.fallbacks[i].load(Ordering::Relaxed))
    }

    /// The counters in the Prometheus text exposition format 0.0.4, with the approvals
    /// pending now (a gauge the caller reads from the engine).
    pub fn render(&self, approvals_pending: usize) -> String {
        let load = |a: &AtomicU64| a.load(Ordering::Relaxed);
        let mut out = String::with_capacity(4096);
        out.push_str(
            "# HELP warrant_decisions_total Permission decisions by behavior, deciding source and risk.\n\
             # TYPE warrant_decisions_total counter\n",
        );
        let mut lines = String::new();
        for (b, behavior) in BEHAVIORS.iter().enumerate() {
            for (s, source) in SOURCES.iter().enumerate() {
                for (r, risk) in RISKS.iter().enumerate() {
                    let n = load(&self.decisions[(b * SOURCES.len() + s) * RISKS.len() + r]);
                    if n > 0 {
                        let _ = writeln!(
                            lines,
                            "warrant_decisions_total{{decision=\"{behavior}\",source=\"{source}\",risk=\"{risk}\"}} {n}"
                        );
                    }
                }
            }
        }
        out.push_str(&lines);
        let mut simple = |name: &str, kind: &str, help: &str, samples: &[(&str, u64)]| {
            let _ = writeln!(out, "# HELP {name} {help}\n# TYPE {name} {kind}");
            for (labels, n) in samples {
                let _ = writeln!(out, "{name}{labels} {n}");
            }
        };
        simple(
            "warrant_decisions_unreadable_total",
            "counter",
            "Decision events whose behavior, source or risk was not recognised.",
            &[("", load(&self.unreadable_decisions))],
        );
        simple(
            "warrant_reviewer_reviews_total",
            "counter",
            "Classifier decisions by the reviewer that made them (a model, or the embedded heuristic reviewer).",
            &[
                ("{reviewer=\"model\"}", load(&self.reviews[0])),
                ("{reviewer=\"embedded\"}", load(&self.reviews[1])),
            ],
        );
        simple(
            "warrant_reviewer_fallbacks_total",
            "counter",
            "Classifier decisions made by a fallback because the configured reviewer was down, slow or answered outside the schema.",
            &[
                ("{fallback=\"embedded\"}", load(&self.fallbacks[0])),
                ("{fallback=\"ask\"}", load(&self.fallbacks[1])),
            ],
        );
        simple(
            "warrant_approvals_pending",
            "gauge",
            "Approval requests awaiting the user.",
            &[("", approvals_pending as u64)],
        );
        simple(
            "warrant_approval_requests_total",
            "counter",
            "Approval requests opened.",
            &[("", load(&self.approval_requests))],
        );
        simple(
            "warrant_approval_resolutions_total",
            "counter",
            "Approval requests the user resolved, by behavior.",
            &[
                ("{behavior=\"allow\"}", load(&self.resolutions[0])),
                ("{behavior=\"deny\"}", load(&self.resolutions[1])),
            ],
        );
        simple(
            "warrant_otlp_export_failures_total",
            "counter",
            "Batches of decision spans the OTLP exporter could not deliver.",
            &[("", load(&self.export_failures))],
        );
        let name = "warrant_reviewer_latency_seconds";
        let _ = writeln!(
            out,
            "# HELP {name} How long classifier reviews took, fallback included.\n# TYPE {name} histogram"
        );
        let mut cumulative = 0;
        for (i, le) in LATENCY_BUCKETS.iter().enumerate() {
            cumulative += load(&self.latency_buckets[i]);
            let _ = writeln!(out, "{name}_bucket{{le=\"{le}\"}} {cumulative}");
        }
        cumulative += load(&self.latency_buckets[LATENCY_BUCKETS.len()]);
        let sum = load(&self.latency_sum_micros) as f64 / 1_000_000.0;
        let _ = writeln!(out, "{name}_bucket{{le=\"+Inf\"}} {cumulative}");
        let _ = writeln!(out, "{name}_sum {sum}");
        let _ = writeln!(out, "{name}_count {cumulative}");
        out
    }
}

#[cfg(test)]
mod tests {
    use super::super::ReviewSummary;
    use super::*;

    fn summary(behavior: &'static str, review: Option<ReviewSummary>) -> DecisionSummary {
        DecisionSummary {
            tool_call_id: "c1".to_owned(),
            tool: Some("Bash".to_owned()),
            behavior,
            source: "auto_classifier",
            risk: "medium",
            reason_code: "auto_classifier_ask".to_owned(),
            review,
            started: None,
        }
    }

    #[test]
    fn decisions_and_reviews_are_counted_and_rendered() {
        let m = Metrics::new();
        m.decision(&summary(
            "ask",
            Some(ReviewSummary {
                model: "warrant/heuristic-v1".to_owned(),
                embedded: true,
                prompt_version: None,
                latency_ms: Some(300),
                fallback: Some("embedded".to_owned()),
            }),
        ));
        m.decision(&summary("allow", None));
        m.approval_requested();
        m.resolved("deny");
        let text = m.render(2);
        for line in [
            "warrant_decisions_total{decision=\"ask\",source=\"auto_classifier\",risk=\"medium\"} 1",
            "warrant_decisions_total{decision=\"allow\",source=\"auto_classifier\",risk=\"medium\"} 1",
            "warrant_reviewer_reviews_total{reviewer=\"embedded\"} 1",
            "warrant_reviewer_fallbacks_total{fallback=\"embedded\"} 1",
            "warrant_reviewer_fallbacks_total{fallback=\"ask\"} 0",
            "warrant_reviewer_latency_seconds_bucket{le=\"0.25\"} 0",
            "warrant_reviewer_latency_seconds_bucket{le=\"0.5\"} 1",
            "warrant_reviewer_latency_seconds_bucket{le=\"+Inf\"} 1",
            "warrant_reviewer_latency_seconds_sum 0.3",
            "warrant_reviewer_latency_seconds_count 1",
            "warrant_approvals_pending 2",
            "warrant_approval_requests_total 1",
            "warrant_approval_resolutions_total{behavior=\"deny\"} 1",
            "# TYPE warrant_decisions_total counter",
            "# TYPE warrant_reviewer_latency_seconds histogram",
        ] {
            assert!(
                text.lines().any(|l| l == line),
                "missing {line:?} in\n{text}"
            );
        }
        assert_eq!(m.decisions("ask", "auto_classifier", "medium"), 1);
        assert_eq!(m.fallbacks("embedded"), 1);
    }

    #[test]
    fn unknown_labels_are_counted_apart() {
        let m = Metrics::new();
        m.decision(&summary("maybe", None));
        assert!(m.render(0).contains("warrant_decisions_unreadable_total 1"));
    }
}
