//! Which audit records to read: the filters of the decision history and its paging.

use crate::ids::SessionId;
use serde::{Deserialize, Serialize};

use super::StoredAuditRecord;
use crate::audit::{AuditEvent, AuditRecord};
use crate::decision::{Behavior, PermissionDecisionSource, Provenance};

/// The kind of an audit record, as its `kind` field names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AuditKind {
    /// A call was evaluated.
    Evaluation,
    /// The user resolved an approval request.
    Resolution,
    /// A pending approval expired.
    Expiry,
    /// A pending approval was withdrawn.
    Cancel,
    /// The user revoked a grant.
    GrantRevoked,
}

impl AuditKind {
    /// Every kind, in the order of [`AuditEvent`]'s variants.
    pub const ALL: [AuditKind; 5] = [
        AuditKind::Evaluation,
        AuditKind::Resolution,
        AuditKind::Expiry,
        AuditKind::Cancel,
        AuditKind::GrantRevoked,
    ];

    /// The kind of an event.
    pub fn of(event: &AuditEvent) -> Self {
        match event {
            AuditEvent::Evaluation { .. } => Self::Evaluation,
            AuditEvent::Resolution { .. } => Self::Resolution,
            AuditEvent::Expiry { .. } => Self::Expiry,
            AuditEvent::Cancel { .. } => Self::Cancel,
            AuditEvent::GrantRevoked { .. } => Self::GrantRevoked,
        }
    }

    /// The wire name (`evaluation`, `resolution`, `expiry`, `cancel`, `grant_revoked`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Evaluation => "evaluation",
            Self::Resolution => "resolution",
            Self::Expiry => "expiry",
            Self::Cancel => "cancel",
            Self::GrantRevoked => "grant_revoked",
        }
    }

    /// The kind a wire name names, `None` for any other text.
    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|k| k.as_str() == name)
    }
}

/// Which audit records to read. Every filter that is set must match (they combine with
/// AND); the default reads every record.
///
/// `before_seq` and `limit` page through the log from its end: a query with a `limit`
/// reads the newest `limit` matching records below `before_seq`, still returned oldest
/// first. Stores read no more of the log than the page needs when they can.
///
/// ```
/// use warrant_core::decision::Behavior;
/// use warrant_core::store::AuditQuery;
///
/// // The 50 newest denials of `Bash` in session s1, before record 120.
/// let query = AuditQuery {
///     tool_name: Some("Bash".into()),
///     outcome: Some(Behavior::Deny),
///     before_seq: Some(120),
///     limit: Some(50),
///     ..AuditQuery::session("s1")
/// };
/// assert_eq!(query.session_id.as_ref().map(|id| id.as_str()), Some("s1"));
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AuditQuery {
    /// Only this session's records; every session's when `None`.
    pub session_id: Option<SessionId>,
    /// Only records of this tool (its runtime id, exactly).
    pub tool_name: Option<String>,
    /// Only records of this kind.
    pub kind: Option<AuditKind>,
    /// Only evaluations that decided this behaviour and resolutions that resolved to it
    /// (`allow` or `deny`); records of other kinds never match.
    pub outcome: Option<Behavior>,
    /// Only evaluations whose decision came from this source.
    pub source: Option<PermissionDecisionSource>,
    /// Only evaluations with this reason code; a code ending in `*` matches every code that
    /// starts with what comes before it (`shell_*`).
    pub reason_code: Option<String>,
    /// Only records written at or after this time (Unix milliseconds).
    pub since: Option<i64>,
    /// Only records written before this time (Unix milliseconds).
    pub until: Option<i64>,
    /// Only records where one of the texts a person reads (session, call id, tool, reason,
    /// reason code, reviewer model, evaluator, provenance, action, message, description)
    /// contains this text, ignoring ASCII case.
    pub text: Option<String>,
    /// Only records numbered below this seq.
    pub before_seq: Option<u64>,
    /// At most this many records: the newest that match.
    pub limit: Option<usize>,
}

impl AuditQuery {
    /// Every record.
    pub fn all() -> Self {
        Self::default()
    }

    /// One session's records.
    pub fn session(session_id: impl Into<SessionId>) -> Self {
        Self {
            session_id: Some(session_id.into()),
            ..Self::default()
        }
    }

    /// Whether a record matches the filters (every field but `before_seq` and `limit`).
    pub fn matches(&self, record: &AuditRecord) -> bool {
        let evaluation = match &record.event {
            AuditEvent::Evaluation { decision, .. } => Some(decision),
            _ => None,
        };
        self.session_id
            .as_ref()
            .is_none_or(|id| record.session_id == id)
            && self
                .tool_name
                .as_deref()
                .is_none_or(|name| record.tool_name == name)
            && self
                .kind
                .is_none_or(|kind| AuditKind::of(&record.event) == kind)
            && self
                .outcome
                .is_none_or(|outcome| outcome_of(&record.event) == Some(outcome))
            && self
                .source
                .is_none_or(|source| evaluation.is_some_and(|d| d.source == source))
            && self.reason_code.as_deref().is_none_or(|code| {
                evaluation.is_some_and(|d| reason_code_matches(code, &d.reason_code))
            })
            && self.since.is_none_or(|since| record.at >= since)
            && self.until.is_none_or(|until| record.at < until)
            && self.text.as_deref().is_none_or(|text| {
                text.is_empty()
                    || texts(record)
                        .iter()
                        .any(|t| contains_ignoring_ascii_case(t, text))
            })
    }

    /// Whether a stored record matches the filters and lies below `before_seq`.
    pub fn matches_stored(&self, stored: &StoredAuditRecord) -> bool {
        self.before_seq.is_none_or(|before| stored.seq < before) && self.matches(&stored.record)
    }
}

/// What a record decided: an evaluation's behaviour, a resolution's; `None` for the others.
fn outcome_of(event: &AuditEvent) -> Option<Behavior> {
    match event {
        AuditEvent::Evaluation { decision, .. } => Some(decision.behavior),
        AuditEvent::Resolution { resolution } => Some(resolution.behavior.into()),
        _ => None,
    }
}

/// Whether a reason code matches a filter: equal, or starting with the part of a filter that
/// ends in `*` before it.
fn reason_code_matches(filter: &str, code: &str) -> bool {
    match filter.strip_suffix('*') {
        Some(prefix) => code.starts_with(prefix),
        None => code == filter,
    }
}

/// The texts of a record a person reads, which the free-text filter searches.
fn texts(record: &AuditRecord) -> Vec<&str> {
    let mut out = vec![
        record.session_id.as_str(),
        record.tool_call_id.as_str(),
        record.tool_name.as_str(),
    ];
    match &record.event {
        AuditEvent::Evaluation { decision, .. } => {
            out.extend([decision.reason.as_str(), decision.reason_code.as_str()]);
            out.extend(decision.reviewer_model.as_deref());
            if let Some(fallback) = decision.review.reviewer_fallback {
                // `q=fallback` finds every call the configured reviewer failed on.
                out.extend(["reviewer fallback", fallback.as_str()]);
                out.extend(decision.review.reviewer_fallback_reason.as_deref());
            }
            out.extend(decision.evaluator.as_ref().map(|e| e.name.as_str()));
            out.extend(
                decision
                    .risk_categories
                    .iter()
                    .flatten()
                    .map(String::as_str),
            );
            match &decision.provenance {
                Some(Provenance::UserRule { rule, origin, .. }) => {
                    out.extend([rule.as_str(), origin.as_str()]);
                }
                Some(Provenance::Grant { description, .. }) => out.push(description),
                Some(Provenance::CheckpointsOff { agent }) => out.push(agent),
                _ => {}
            }
        }
        AuditEvent::Resolution { resolution } => {
            out.push(&resolution.action_id);
            out.extend(resolution.message.as_deref());
        }
        AuditEvent::Expiry { reason } | AuditEvent::Cancel { reason } => out.push(reason),
        AuditEvent::GrantRevoked {
            grant_id,
            description,
        } => out.extend([grant_id.as_str(), description.as_str()]),
    }
    out
}

/// Whether `haystack` contains `needle`, ignoring ASCII case (other characters compare
/// exactly).
fn contains_ignoring_ascii_case(haystack: &str, needle: &str) -> bool {
    let (h, n) = (haystack.as_bytes(), needle.as_bytes());
    n.is_empty() || h.windows(n.len()).any(|w| w.eq_ignore_ascii_case(n))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::call::PermissionMode;
    use crate::chain::ChainTrace;
    use crate::decision::{
        ResolutionBehavior, ResolutionSource, Risk, Scope, ToolPermissionDecision,
        ToolPermissionResolution,
    };

    fn evaluation(
        tool: &str,
        behavior: Behavior,
        source: PermissionDecisionSource,
        code: &str,
    ) -> AuditRecord {
        AuditRecord {
            at: 1_000,
            session_id: "s1".into(),
            tool_call_id: "c1".into(),
            tool_name: tool.into(),
            event: AuditEvent::Evaluation {
                mode: PermissionMode::Default,
                input_digest: "00".repeat(32),
                decision: ToolPermissionDecision {
                    tool_call_id: "c1".into(),
                    behavior,
                    source,
                    reason: "Pushing to the Remote needs approval".into(),
                    reason_code: code.into(),
                    risk: Risk::Medium,
                    confidence: None,
                    risk_categories: None,
                    reviewer_model: None,
                    review: Default::default(),
                    provenance: None,
                    evaluator: None,
                },
                trace: ChainTrace::default(),
            },
        }
    }

    fn resolution(behavior: ResolutionBehavior) -> AuditRecord {
        AuditRecord {
            at: 2_000,
            session_id: "s2".into(),
            tool_call_id: "c2".into(),
            tool_name: "Bash".into(),
            event: AuditEvent::Resolution {
                resolution: ToolPermissionResolution {
                    tool_call_id: "c2".into(),
                    behavior,
                    source: ResolutionSource::User,
                    action_id: "deny".into(),
                    scope: Scope::Once,
                    message: Some("not on main".into()),
                },
            },
        }
    }

    fn expiry() -> AuditRecord {
        AuditRecord {
            at: 3_000,
            session_id: "s1".into(),
            tool_call_id: "c3".into(),
            tool_name: "Write".into(),
            event: AuditEvent::Expiry {
                reason: "the approval timed out".into(),
            },
        }
    }

    fn ask() -> AuditRecord {
        evaluation(
            "Bash",
            Behavior::Ask,
            PermissionDecisionSource::Policy,
            "shell_git_push",
        )
    }

    #[test]
    fn the_empty_query_matches_every_record() {
        for record in [ask(), resolution(ResolutionBehavior::Deny), expiry()] {
            assert!(AuditQuery::all().matches(&record));
        }
    }

    #[test]
    fn the_text_filter_finds_the_calls_a_reviewer_failed_on() {
        let mut fell_back = evaluation(
            "Bash",
            Behavior::Ask,
            PermissionDecisionSource::AutoClassifier,
            "auto_classifier_unavailable",
        );
        if let AuditEvent::Evaluation { decision, .. } = &mut fell_back.event {
            decision.review.reviewer_fallback = Some(crate::decision::ReviewerFallback::Ask);
            decision.review.reviewer_fallback_reason = Some("no answer within 5000 ms".into());
        }
        let query = |q: &str| AuditQuery {
            text: Some(q.into()),
            ..AuditQuery::all()
        };
        assert!(query("fallback").matches(&fell_back));
        assert!(query("5000 ms").matches(&fell_back));
        assert!(!query("fallback").matches(&ask()));
    }

    #[test]
    fn session_and_tool_match_exactly() {
        assert!(AuditQuery::session("s1").matches(&ask()));
        assert!(!AuditQuery::session("s").matches(&ask()));
        let bash = AuditQuery {
            tool_name: Some("Bash".into()),
            ..AuditQuery::all()
        };
        assert!(bash.matches(&ask()));
        assert!(!bash.matches(&expiry()));
        let lower = AuditQuery {
            tool_name: Some("bash".into()),
            ..AuditQuery::all()
        };
        assert!(!lower.matches(&ask()), "tool ids are compared exactly");
    }

    #[test]
    fn the_outcome_is_an_evaluations_behaviour_or_a_resolutions() {
        let deny = AuditQuery {
            outcome: Some(Behavior::Deny),
            ..AuditQuery::all()
        };
        assert!(deny.matches(&resolution(ResolutionBehavior::Deny)));
        assert!(!deny.matches(&resolution(ResolutionBehavior::Allow)));
        assert!(!deny.matches(&ask()));
        assert!(!deny.matches(&expiry()), "an expiry decides nothing");
        let asks = AuditQuery {
            outcome: Some(Behavior::Ask),
            ..AuditQuery::all()
        };
        assert!(asks.matches(&ask()));
    }

    #[test]
    fn source_and_reason_code_match_evaluations_only() {
        let policy = AuditQuery {
            source: Some(PermissionDecisionSource::Policy),
            ..AuditQuery::all()
        };
        assert!(policy.matches(&ask()));
        assert!(!policy.matches(&resolution(ResolutionBehavior::Deny)));
        let code = |c: &str| AuditQuery {
            reason_code: Some(c.into()),
            ..AuditQuery::all()
        };
        assert!(code("shell_git_push").matches(&ask()));
        assert!(code("shell_*").matches(&ask()));
        assert!(code("*").matches(&ask()));
        assert!(
            !code("shell_").matches(&ask()),
            "without * the code is exact"
        );
        assert!(!code("rule_*").matches(&ask()));
        assert!(!code("*").matches(&expiry()));
    }

    #[test]
    fn the_time_range_includes_since_and_excludes_until() {
        let range = |since, until| AuditQuery {
            since,
            until,
            ..AuditQuery::all()
        };
        assert!(range(Some(1_000), Some(1_001)).matches(&ask()));
        assert!(!range(Some(1_001), None).matches(&ask()));
        assert!(!range(None, Some(1_000)).matches(&ask()));
    }

    #[test]
    fn the_kind_names_the_records_event() {
        for kind in AuditKind::ALL {
            assert_eq!(AuditKind::parse(kind.as_str()), Some(kind));
            let json = serde_json::to_value(kind).unwrap();
            assert_eq!(json, kind.as_str());
        }
        assert_eq!(AuditKind::parse("Evaluation"), None);
        let expiries = AuditQuery {
            kind: Some(AuditKind::Expiry),
            ..AuditQuery::all()
        };
        assert!(expiries.matches(&expiry()));
        assert!(!expiries.matches(&ask()));
    }

    #[test]
    fn text_searches_what_a_person_reads_ignoring_ascii_case() {
        let text = |t: &str| AuditQuery {
            text: Some(t.into()),
            ..AuditQuery::all()
        };
        assert!(text("the remote").matches(&ask()));
        assert!(text("GIT_PUSH").matches(&ask()));
        assert!(text("NOT ON MAIN").matches(&resolution(ResolutionBehavior::Deny)));
        assert!(text("timed out").matches(&expiry()));
        assert!(text("").matches(&expiry()));
        assert!(
            !text("evaluation").matches(&ask()),
            "keys of the record are not searched"
        );
        assert!(
            !text("0000").matches(&ask()),
            "the input digest is not searched"
        );
    }

    #[test]
    fn before_seq_bounds_stored_records() {
        let stored = StoredAuditRecord {
            seq: 5,
            record: ask(),
        };
        let before = |seq| AuditQuery {
            before_seq: Some(seq),
            ..AuditQuery::all()
        };
        assert!(before(6).matches_stored(&stored));
        assert!(!before(5).matches_stored(&stored));
        assert!(AuditQuery::all().matches_stored(&stored));
    }
}
