//! The seed's payloads deserialize and serialize back to equal JSON values.

use serde_json::Value;
use warrant_core::event::{Custom, Event, WarrantEvent};
use warrant_core::prelude::*;

fn fixture(name: &str) -> Value {
    let path = format!(
        "{}/../tests/fixtures/contract/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap()
}

#[test]
fn seed_decision_payload_round_trips() {
    let payload = fixture("decision.json");
    let decision: ToolPermissionDecision =
        serde_json::from_value(payload["value"].clone()).unwrap();
    assert_eq!(decision.source, PermissionDecisionSource::AutoClassifier);
    assert_eq!(decision.confidence, Some(Confidence::High));
    assert_eq!(decision.risk, Risk::Low);
    assert_eq!(serde_json::to_value(&decision).unwrap(), payload["value"]);
}

#[test]
fn every_provenance_kind_round_trips_and_old_clients_read_on() {
    let Value::Array(payloads) = fixture("decision_provenance.json") else {
        panic!("an array of decisions");
    };
    let kinds: Vec<Option<&str>> = payloads
        .iter()
        .map(|p| p["provenance"]["kind"].as_str())
        .collect();
    assert_eq!(
        kinds,
        [
            Some("user_rule"),
            Some("grant"),
            Some("auto_approved"),
            Some("checkpoints_off"),
            None
        ]
    );
    for payload in &payloads {
        let decision: ToolPermissionDecision = serde_json::from_value(payload.clone()).unwrap();
        assert_eq!(serde_json::to_value(&decision).unwrap(), *payload);
        assert!(decision.evaluator.is_some());
    }
    let grant: ToolPermissionDecision = serde_json::from_value(payloads[1].clone()).unwrap();
    assert_eq!(
        grant.provenance,
        Some(Provenance::Grant {
            grant_id: "grt_0123456789abcdef".into(),
            scope: Scope::Session,
            granted_at: 1_700_000_000_000,
            tool_call_id: "call-earlier".into(),
            action_id: "allow_session".into(),
            description: "Allow all \"git push origin main\" commands for this session".into(),
        })
    );
    // A client that knows only the seed's fields reads the seed's fields.
    #[derive(serde::Deserialize)]
    #[serde(rename_all = "camelCase")]
    #[allow(dead_code)]
    struct SeedOnly {
        tool_call_id: String,
        behavior: Behavior,
        source: PermissionDecisionSource,
        reason: String,
        reason_code: String,
        risk: Risk,
    }
    for payload in payloads {
        serde_json::from_value::<SeedOnly>(payload).unwrap();
    }
}

#[test]
fn seed_resolution_payload_round_trips() {
    let payload = fixture("resolution.json");
    let resolution: ToolPermissionResolution =
        serde_json::from_value(payload["value"].clone()).unwrap();
    assert_eq!(resolution.scope, Scope::Once);
    assert_eq!(serde_json::to_value(&resolution).unwrap(), payload["value"]);
}

#[test]
fn seed_custom_events_round_trip_as_ag_ui_events() {
    for name in ["decision.json", "resolution.json"] {
        let mut payload = fixture(name);
        payload["type"] = Value::String("CUSTOM".into());
        let event: Event = serde_json::from_value(payload.clone()).unwrap();
        assert!(matches!(event.warrant(), Some(Ok(_))), "{name}");
        assert_eq!(serde_json::to_value(&event).unwrap(), payload);
    }
}

#[test]
fn old_server_payload_without_optional_fields_deserializes() {
    let decision: ToolPermissionDecision =
        serde_json::from_value(fixture("decision_old_server.json")).unwrap();
    assert_eq!(decision.confidence, None);
    assert_eq!(decision.risk_categories, None);
    assert_eq!(decision.reviewer_model, None);
    let json = serde_json::to_string(&decision).unwrap();
    assert!(
        !json.contains("null"),
        "absent fields are left out, never null: {json}"
    );
    assert!(!json.contains("confidence"));
}

#[test]
fn enums_use_the_seeds_lowercase_names() {
    let names = |v: Vec<Value>| {
        v.into_iter()
            .map(|v| v.as_str().unwrap().to_owned())
            .collect::<Vec<_>>()
    };
    assert_eq!(
        names(vec![
            serde_json::to_value(PermissionDecisionSource::Policy).unwrap(),
            serde_json::to_value(PermissionDecisionSource::Rule).unwrap(),
            serde_json::to_value(PermissionDecisionSource::AutoClassifier).unwrap(),
            serde_json::to_value(PermissionDecisionSource::FullAccess).unwrap(),
        ]),
        ["policy", "rule", "auto_classifier", "full_access"]
    );
    assert_eq!(
        names(
            [
                Risk::Safe,
                Risk::Low,
                Risk::Medium,
                Risk::High,
                Risk::Critical
            ]
            .iter()
            .map(|r| serde_json::to_value(r).unwrap())
            .collect()
        ),
        ["safe", "low", "medium", "high", "critical"]
    );
    assert_eq!(
        names(
            [Behavior::Allow, Behavior::Ask, Behavior::Deny]
                .iter()
                .map(|r| serde_json::to_value(r).unwrap())
                .collect()
        ),
        ["allow", "ask", "deny"]
    );
    assert_eq!(
        names(
            [Scope::Once, Scope::Session, Scope::Global]
                .iter()
                .map(|r| serde_json::to_value(r).unwrap())
                .collect()
        ),
        ["once", "session", "global"]
    );
}

#[test]
fn unknown_enum_values_are_rejected_naming_the_value() {
    let mut payload = fixture("decision.json")["value"].clone();
    payload["risk"] = Value::String("apocalyptic".into());
    let err = serde_json::from_value::<ToolPermissionDecision>(payload).unwrap_err();
    assert!(err.to_string().contains("apocalyptic"), "{err}");
}

#[test]
fn reason_code_families_map_to_their_source() {
    use PermissionDecisionSource as S;
    let table = [
        ("auto_classifier_allow", S::AutoClassifier),
        ("auto_classifier_unavailable", S::AutoClassifier),
        ("normalized_rule_deny", S::Rule),
        ("explicit_tool_auto_approved", S::Rule),
        ("mode_full_access", S::FullAccess),
        ("shell_read_only", S::Policy),
        ("filesystem_sensitive_path", S::Policy),
        ("read_only_tool", S::Policy),
        ("validation_invalid_input", S::Policy),
        ("policy_default_ask", S::Policy),
    ];
    for (code, source) in table {
        assert_eq!(
            PermissionDecisionSource::for_reason_code(code),
            Some(source),
            "{code}"
        );
    }
    assert_eq!(PermissionDecisionSource::for_reason_code("made_up"), None);
}

#[test]
fn custom_event_with_a_malformed_warrant_value_is_reported_not_trusted() {
    let custom = Custom {
        name: "tool_permission_decision".into(),
        value: serde_json::json!({"behavior": "allow"}),
        timestamp: None,
    };
    assert!(matches!(WarrantEvent::from_custom(&custom), Some(Err(_))));
    let other = Custom {
        name: "something_else".into(),
        value: Value::Null,
        timestamp: None,
    };
    assert!(WarrantEvent::from_custom(&other).is_none());
}

#[test]
fn ag_ui_events_serialize_with_screaming_type_camel_fields_and_integer_timestamps() {
    let event = Event::ToolCallStart(warrant_core::event::ToolCallStart {
        tool_call_id: "call-1".into(),
        tool_call_name: "Bash".into(),
        parent_message_id: None,
        timestamp: Some(1_764_000_000_123),
    });
    let json = serde_json::to_value(&event).unwrap();
    assert_eq!(
        json,
        serde_json::json!({"type": "TOOL_CALL_START", "toolCallId": "call-1", "toolCallName": "Bash", "timestamp": 1_764_000_000_123_i64})
    );
    let finished: Event = serde_json::from_value(serde_json::json!({
        "type": "RUN_FINISHED", "threadId": "t", "runId": "r",
        "outcome": {"type": "interrupt", "interrupts": [{"id": "i1", "reason": "tool_call", "toolCallId": "call-1"}]}
    }))
    .unwrap();
    assert_eq!(finished.type_name(), "RUN_FINISHED");
}
