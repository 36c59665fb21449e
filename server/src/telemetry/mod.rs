//! Telemetry of decisions: an [`Observer`] transport that reads each decision the engine
//! emits, counts it in [`Metrics`] (rendered by `GET /metrics`) and hands a summary to
//! [`DecisionSink`]s, such as the OTLP span exporter (`otel` feature).
//!
//! Only what a decision says about itself is read: behaviour, source, risk, reason code, the
//! tool's name and the reviewer's report. A call's input never reaches a counter or a span.

mod counters;
#[cfg(feature = "otel")]
pub mod otel;

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::SystemTime;
use warrant_core::ids::SessionId;

use async_trait::async_trait;
use serde_json::Value;
use warrant_core::event::{
    Event, TOOL_APPROVAL_REQUEST, TOOL_PERMISSION_DECISION, TOOL_PERMISSION_RESOLUTION,
};
use warrant_core::sanitize;
use warrant_core::transport::{Transport, TransportError};

pub use counters::Metrics;

/// How many announced calls the observer remembers the tool of until their decision.
const REMEMBERED_CALLS: usize = 1024;
/// The longest tool name or reason code kept, in characters.
const MAX_LABEL_CHARS: usize = 128;

/// What the reviewer reported about a classifier decision.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReviewSummary {
    /// The model that decided (`reviewerModel`).
    pub model: String,
    /// Whether the embedded heuristic reviewer decided.
    pub embedded: bool,
    /// The review prompt's version, when a model was prompted.
    pub prompt_version: Option<String>,
    /// How long the review took, in milliseconds, when reported.
    pub latency_ms: Option<u64>,
    /// The fallback that stood in for the configured reviewer (`embedded`, `ask`).
    pub fallback: Option<String>,
}

/// One decision as telemetry sees it: no input, no reason text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecisionSummary {
    /// The call decided.
    pub tool_call_id: String,
    /// The tool's name, when the call was announced.
    pub tool: Option<String>,
    /// `allow`, `ask`, `deny` (anything else is counted as unreadable).
    pub behavior: &'static str,
    /// `policy`, `rule`, `auto_classifier`, `full_access`.
    pub source: &'static str,
    /// `safe` … `critical`.
    pub risk: &'static str,
    /// The stable reason code (bounded).
    pub reason_code: String,
    /// The reviewer's report, on classifier decisions.
    pub review: Option<ReviewSummary>,
    /// When the call was announced, if it was.
    pub started: Option<SystemTime>,
}

/// Reads a word of a closed set, or `"unknown"`.
fn word(value: &Value, key: &str, set: &[&'static str]) -> &'static str {
    let found = value.get(key).and_then(Value::as_str).unwrap_or_default();
    set.iter()
        .copied()
        .find(|w| *w == found)
        .unwrap_or("unknown")
}

impl DecisionSummary {
    /// Reads a `tool_permission_decision` value (a classifier decision carries the reviewer's
    /// account: `reviewerEmbedded`, `reviewerLatencyMs`, `reviewerFallback`, …).
    pub fn read(value: &Value, tool: Option<String>, started: Option<SystemTime>) -> Self {
        let text = |key: &str| value.get(key).and_then(Value::as_str);
        let source = word(
            value,
            "source",
            &["policy", "rule", "auto_classifier", "full_access"],
        );
        let review = match (source, text("reviewerModel")) {
            ("auto_classifier", Some(model)) => Some(ReviewSummary {
                model: sanitize::clean(model, sanitize::MAX_MODEL_CHARS),
                embedded: value
                    .get("reviewerEmbedded")
                    .and_then(Value::as_bool)
                    .unwrap_or(false),
                prompt_version: text("reviewerPromptVersion")
                    .map(|v| sanitize::clean(v, MAX_LABEL_CHARS)),
                latency_ms: value.get("reviewerLatencyMs").and_then(Value::as_u64),
                fallback: text("reviewerFallback").map(|f| sanitize::clean(f, 16)),
            }),
            _ => None,
        };
        Self {
            tool_call_id: sanitize::clean(text("toolCallId").unwrap_or_default(), MAX_LABEL_CHARS),
            tool,
            behavior: word(value, "behavior", &["allow", "ask", "deny"]),
            source,
            risk: word(
                value,
                "risk",
                &["safe", "low", "medium", "high", "critical"],
            ),
            reason_code: text("reasonCode")
                .unwrap_or_default()
                .chars()
                .filter(|c| c.is_ascii_alphanumeric() || *c == '_')
                .take(MAX_LABEL_CHARS)
                .collect(),
            review,
            started,
        }
    }
}

/// Receives every decision the observer reads (an exporter).
pub trait DecisionSink: Send + Sync {
    /// One decision. Must not block: queue, do not send.
    fn decision(&self, decision: &DecisionSummary);
}

/// A [`Transport`] that reads the engine's decisions for telemetry and delivers nothing: add
/// it beside the transports that stream events.
pub struct Observer {
    metrics: Arc<Metrics>,
    sinks: Vec<Arc<dyn DecisionSink>>,
    announced: Mutex<VecDeque<(String, String, SystemTime)>>,
}

impl std::fmt::Debug for Observer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Observer")
            .field("sinks", &self.sinks.len())
            .finish()
    }
}

impl Observer {
    /// An observer counting into `metrics`.
    pub fn new(metrics: Arc<Metrics>) -> Self {
        Self {
            metrics,
            sinks: Vec::new(),
            announced: Mutex::new(VecDeque::new()),
        }
    }

    /// Hands every decision to `sink` as well.
    #[must_use]
    pub fn with_sink(mut self, sink: Arc<dyn DecisionSink>) -> Self {
        self.sinks.push(sink);
        self
    }

    /// The counters.
    pub fn metrics(&self) -> &Arc<Metrics> {
        &self.metrics
    }

    /// Reads one event: remembers an announced call's tool, counts decisions, approval
    /// requests and resolutions.
    pub fn observe(&self, session_id: &SessionId, event: &Event) {
        match event {
            Event::ToolCallStart(start) => {
                if let Ok(mut announced) = self.announced.lock() {
                    if announced.len() >= REMEMBERED_CALLS {
                        announced.pop_front();
                    }
                    announced.push_back((
                        format!("{session_id}\u{0}{}", start.tool_call_id),
                        sanitize::clean(&start.tool_call_name, MAX_LABEL_CHARS),
                        SystemTime::now(),
                    ));
                }
            }
            Event::Custom(custom) => match custom.name.as_str() {
                TOOL_PERMISSION_DECISION => self.decision(session_id, &custom.value),
                TOOL_APPROVAL_REQUEST => self.metrics.approval_requested(),
                TOOL_PERMISSION_RESOLUTION => self.metrics.resolved(
                    custom
                        .value
                        .get("behavior")
                        .and_then(Value::as_str)
                        .unwrap_or_default(),
                ),
                _ => {}
            },
            _ => {}
        }
    }

    fn decision(&self, session_id: &SessionId, value: &Value) {
        let id = value
            .get("toolCallId")
            .and_then(Value::as_str)
            .unwrap_or_default();
        let key = format!("{session_id}\u{0}{id}");
        let (tool, started) = self
            .announced
            .lock()
            .ok()
            .and_then(|mut announced| {
                let i = announced.iter().rposition(|(k, _, _)| *k == key)?;
                announced
                    .remove(i)
                    .map(|(_, tool, at)| (Some(tool), Some(at)))
            })
            .unwrap_or((None, None));
        let summary = DecisionSummary::read(value, tool, started);
        self.metrics.decision(&summary);
        for sink in &self.sinks {
            sink.decision(&summary);
        }
    }
}

#[async_trait]
impl Transport for Observer {
    async fn emit(&self, session_id: &SessionId, event: &Event) -> Result<(), TransportError> {
        self.observe(session_id, event);
        Ok(())
    }
}
