//! The chain's trace: what every evaluator said about one call, and how long it took.

use serde::{Deserialize, Serialize};

use crate::decision::Behavior;

/// What one evaluator did for one call.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
// Outcomes are snake_case values; field names are camelCase like the rest of the trace
// (traces written before read `reason_code` too).
#[serde(
    rename_all = "snake_case",
    rename_all_fields = "camelCase",
    tag = "outcome"
)]
#[non_exhaustive]
pub enum TraceOutcome {
    /// It took a stance or settled the call.
    Decided {
        /// The behaviour it stood for.
        behavior: Behavior,
        /// The strength of its stance (1 binds most); absent for a settling verdict.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        strength: Option<u8>,
        /// Its reason code.
        #[serde(alias = "reason_code")]
        reason_code: String,
    },
    /// It had nothing to say.
    Abstained,
    /// It errored, panicked, timed out or broke the protocol; the chain asked instead.
    Failed {
        /// `error`, `panic`, `timeout` or `protocol`.
        kind: String,
        /// What went wrong.
        error: String,
    },
    /// It was not consulted (a settler for another mode, or the call was not open).
    Skipped,
}

/// One evaluator's line in the trace.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TraceEntry {
    /// The evaluator's name.
    pub evaluator: String,
    /// What it did.
    #[serde(flatten)]
    pub outcome: TraceOutcome,
    /// How long it took, in microseconds.
    pub elapsed_micros: u64,
}

/// Every evaluator's verdict for one call, for the audit log. Never sent to a UI.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ChainTrace {
    /// One entry per configured evaluator, in configuration order.
    pub entries: Vec<TraceEntry>,
    /// The evaluator whose verdict became the decision (`None` when nobody spoke).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decided_by: Option<String>,
}

impl ChainTrace {
    /// The entry of the named evaluator.
    pub fn entry(&self, evaluator: &str) -> Option<&TraceEntry> {
        self.entries.iter().find(|e| e.evaluator == evaluator)
    }
}
