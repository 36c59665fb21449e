//! The audit log's JSON uses one naming style: camelCase field names, snake_case values
//! (`kind`, `outcome`, reason codes). Records written before with snake_case fields still read.

use warrant_core::audit::AuditEvent;
use warrant_core::chain::{TraceEntry, TraceOutcome};
use warrant_core::decision::Behavior;

#[test]
fn trace_entries_write_camel_case_fields_and_read_the_old_spelling() {
    let entry = TraceEntry {
        evaluator: "policy".into(),
        outcome: TraceOutcome::Decided {
            behavior: Behavior::Allow,
            strength: Some(2),
            reason_code: "shell_read_only".into(),
        },
        elapsed_micros: 7,
    };
    let json = serde_json::to_value(&entry).unwrap();
    assert_eq!(
        json,
        serde_json::json!({
            "evaluator": "policy",
            "outcome": "decided",
            "behavior": "allow",
            "strength": 2,
            "reasonCode": "shell_read_only",
            "elapsedMicros": 7
        })
    );
    let old = r#"{"evaluator":"policy","outcome":"decided","behavior":"allow","strength":2,"reason_code":"shell_read_only","elapsedMicros":7}"#;
    assert_eq!(serde_json::from_str::<TraceEntry>(old).unwrap(), entry);
}

#[test]
fn audit_events_write_camel_case_fields_and_read_the_old_spelling() {
    let revoked = AuditEvent::GrantRevoked {
        grant_id: "grt_0123456789abcdef".into(),
        description: "Bash(git push:*)".into(),
    };
    let json = serde_json::to_value(&revoked).unwrap();
    assert_eq!(json["kind"], "grant_revoked");
    assert_eq!(json["grantId"], "grt_0123456789abcdef");

    let old = serde_json::json!({
        "kind": "evaluation",
        "mode": "default",
        "input_digest": "ab".repeat(32),
        "decision": serde_json::from_str::<serde_json::Value>(include_str!(
            "../../tests/fixtures/contract/decision_provenance.json"
        ))
        .unwrap()[0],
        "trace": { "entries": [] }
    });
    let parsed: Result<AuditEvent, _> = serde_json::from_value(old);
    let AuditEvent::Evaluation { input_digest, .. } = parsed.unwrap() else {
        panic!("an evaluation");
    };
    assert_eq!(input_digest, "ab".repeat(32));
}
