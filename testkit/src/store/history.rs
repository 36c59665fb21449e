//! The decision history's queries: every filter, and paging from the newest record back.

use warrant_core::audit::{AuditEvent, AuditRecord};
use warrant_core::decision::{Behavior, PermissionDecisionSource};
use warrant_core::store::{AuditKind, AuditQuery};

use super::Subject;
use super::sample;

/// An evaluation of `tool` at `at` that decided `behavior`, from `source`, with `code`.
fn decided(
    session: &str,
    call: &str,
    tool: &str,
    at: i64,
    (behavior, source, code): (Behavior, PermissionDecisionSource, &str),
) -> AuditRecord {
    let mut record = sample::evaluation(session, call);
    record.at = at;
    record.tool_name = tool.to_owned();
    if let AuditEvent::Evaluation { decision, .. } = &mut record.event {
        decision.behavior = behavior;
        decision.source = source;
        decision.reason_code = code.to_owned();
        decision.reason = format!("{tool} said \"{code}\"");
    }
    record
}

const POLICY_ALLOW: (Behavior, PermissionDecisionSource, &str) = (
    Behavior::Allow,
    PermissionDecisionSource::Policy,
    "read_only_view",
);
const POLICY_DENY: (Behavior, PermissionDecisionSource, &str) = (
    Behavior::Deny,
    PermissionDecisionSource::Policy,
    "shell_destructive",
);
const RULE_ASK: (Behavior, PermissionDecisionSource, &str) = (
    Behavior::Ask,
    PermissionDecisionSource::Rule,
    "normalized_rule_ask",
);

/// Seven records: 1 view allow (s1), 2 Bash deny (s1), 3 Bash ask (s2), 4 its resolution
/// (allow, s2), 5 an expiry of Edit (s1), 6 Write ask (s1), 7 view allow (s2); `at` is 1000 × seq.
async fn seven(s: &Subject) {
    let records = [
        decided("s1", "c1", "view", 1_000, POLICY_ALLOW),
        decided("s1", "c2", "Bash", 2_000, POLICY_DENY),
        decided("s2", "c3", "Bash", 3_000, RULE_ASK),
        AuditRecord {
            at: 4_000,
            tool_name: "Bash".into(),
            ..sample::resolution_record("s2", "c3")
        },
        AuditRecord {
            at: 5_000,
            tool_name: "Edit".into(),
            ..sample::expiry_record("s1", "c4")
        },
        decided("s1", "c6", "Write", 6_000, RULE_ASK),
        decided("s2", "c7", "view", 7_000, POLICY_ALLOW),
    ];
    for record in records {
        s.store.append_audit(record).await.unwrap();
    }
}

async fn seqs(s: &Subject, query: AuditQuery) -> Vec<u64> {
    let records = s.store.audit_records(&query).await.unwrap();
    for r in &records {
        assert!(query.matches_stored(r), "{query:?} returned {r:?}");
    }
    records.iter().map(|r| r.seq).collect()
}

/// Every history filter selects its records.
pub async fn every_history_filter_selects_its_records(s: Subject) {
    seven(&s).await;
    let all = AuditQuery::all;
    assert_eq!(seqs(&s, all()).await, [1, 2, 3, 4, 5, 6, 7]);
    assert_eq!(seqs(&s, AuditQuery::session("s2")).await, [3, 4, 7]);
    let tool = AuditQuery {
        tool_name: Some("Bash".into()),
        ..all()
    };
    assert_eq!(seqs(&s, tool).await, [2, 3, 4]);
    let kind = AuditQuery {
        kind: Some(AuditKind::Resolution),
        ..all()
    };
    assert_eq!(seqs(&s, kind).await, [4]);
    let expiries = AuditQuery {
        kind: Some(AuditKind::Expiry),
        ..all()
    };
    assert_eq!(seqs(&s, expiries).await, [5]);
    let allowed = AuditQuery {
        outcome: Some(Behavior::Allow),
        ..all()
    };
    assert_eq!(
        seqs(&s, allowed).await,
        [1, 4, 7],
        "the user's allow counts"
    );
    let asked = AuditQuery {
        outcome: Some(Behavior::Ask),
        ..all()
    };
    assert_eq!(seqs(&s, asked).await, [3, 6]);
    let rule = AuditQuery {
        source: Some(PermissionDecisionSource::Rule),
        ..all()
    };
    assert_eq!(seqs(&s, rule).await, [3, 6]);
    let code = AuditQuery {
        reason_code: Some("shell_destructive".into()),
        ..all()
    };
    assert_eq!(seqs(&s, code).await, [2]);
    let family = AuditQuery {
        reason_code: Some("normalized_rule_*".into()),
        ..all()
    };
    assert_eq!(seqs(&s, family).await, [3, 6]);
    let range = AuditQuery {
        since: Some(2_000),
        until: Some(5_000),
        ..all()
    };
    assert_eq!(
        seqs(&s, range).await,
        [2, 3, 4],
        "since included, until not"
    );
    let combined = AuditQuery {
        tool_name: Some("view".into()),
        outcome: Some(Behavior::Allow),
        ..AuditQuery::session("s2")
    };
    assert_eq!(seqs(&s, combined).await, [7]);
    let nothing = AuditQuery {
        tool_name: Some("Bash".into()),
        kind: Some(AuditKind::Expiry),
        ..all()
    };
    assert!(seqs(&s, nothing).await.is_empty());
}

/// The text filter ignores ASCII case, finds text holding a quote, and never matches a key.
pub async fn the_text_filter_ignores_ascii_case_and_reads_quotes(s: Subject) {
    seven(&s).await;
    let text = |t: &str| AuditQuery {
        text: Some(t.into()),
        ..AuditQuery::all()
    };
    assert_eq!(seqs(&s, text("SHELL_DESTRUCT")).await, [2]);
    assert_eq!(seqs(&s, text("write")).await, [6], "the tool's name");
    assert_eq!(seqs(&s, text("c3")).await, [3, 4], "the call id");
    // A quote is escaped in the stored JSON: the filter still finds it.
    assert_eq!(seqs(&s, text("said \"read_only")).await, [1, 7]);
    assert!(
        seqs(&s, text("toolName")).await.is_empty(),
        "keys are not text"
    );
}

/// History pages run from the newest record back.
pub async fn history_pages_run_from_the_newest_record_back(s: Subject) {
    seven(&s).await;
    let page = |before: Option<u64>, limit| AuditQuery {
        before_seq: before,
        limit: Some(limit),
        ..AuditQuery::all()
    };
    assert_eq!(
        seqs(&s, page(None, 3)).await,
        [5, 6, 7],
        "the newest, oldest first"
    );
    assert_eq!(seqs(&s, page(Some(5), 3)).await, [2, 3, 4]);
    assert_eq!(
        seqs(&s, page(Some(2), 3)).await,
        [1],
        "the last page is short"
    );
    assert!(
        seqs(&s, page(Some(1), 3)).await.is_empty(),
        "nothing before 1"
    );
    assert_eq!(
        seqs(&s, page(Some(100), 2)).await,
        [6, 7],
        "a cursor past the end"
    );
    assert!(seqs(&s, page(None, 0)).await.is_empty());
    let filtered = AuditQuery {
        tool_name: Some("Bash".into()),
        ..page(Some(4), 1)
    };
    assert_eq!(seqs(&s, filtered).await, [3], "the page holds matches only");
    let unlimited = AuditQuery {
        before_seq: Some(3),
        ..AuditQuery::all()
    };
    assert_eq!(seqs(&s, unlimited).await, [1, 2]);
}
