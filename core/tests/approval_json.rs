//! The workspace types read and write the seed's JSON shape.

mod approval_support;

use approval_support::*;
use serde_json::{Value, json};
use warrant_core::workspace::{
    CheckpointKind, DEFAULT_PATTERN_ID, Pattern, SessionKind, SessionRecord, SessionStatus,
    WorkspaceState,
};

#[test]
fn seed_shaped_workspace_round_trips_unchanged() {
    let fixture: Value = serde_json::from_str(SEED_WORKSPACE).expect("fixture is JSON");
    let state: WorkspaceState = serde_json::from_value(fixture.clone()).expect("parses");
    assert_eq!(serde_json::to_value(&state).expect("serializes"), fixture);
}

#[test]
fn seed_field_names_map_to_the_model() {
    let state = seed_workspace();
    let reviewed = state.pattern("reviewed").expect("pattern");
    assert_eq!(
        reviewed.approval_policy.rules[0].kind,
        CheckpointKind::FinalResponse
    );
    assert_eq!(
        reviewed.approval_policy.rules[0].agent_ids,
        Some(ids(&["primary"]))
    );
    assert_eq!(
        state.session("pad").expect("session").kind,
        SessionKind::Scratchpad
    );
    assert_eq!(
        state.session("busy").expect("session").status,
        SessionStatus::Running
    );
    assert_eq!(override_of(&state, "empty-override"), Some(vec![]));
    assert_eq!(
        state.settings.tooling.mcp_servers[0].tools,
        ids(&["git.status", "git.diff"])
    );
    assert_eq!(state.settings.tooling.lsp_profiles[0].id, "ts");
}

#[test]
fn absent_approval_settings_stay_absent_and_empty_ones_stay_empty() {
    let inherits = serde_json::to_value(seed_workspace().session("inherits")).expect("serializes");
    assert!(inherits.get("approvalSettings").is_none());
    let empty =
        serde_json::to_value(seed_workspace().session("empty-override")).expect("serializes");
    assert_eq!(
        empty["approvalSettings"],
        json!({"autoApprovedToolNames": []})
    );
}

#[test]
fn pattern_without_defaults_serializes_without_the_field() {
    let pattern: Pattern = serde_json::from_value(json!({
        "id": "p",
        "approvalPolicy": {"rules": [{"kind": "tool-call"}]}
    }))
    .expect("parses");
    assert_eq!(pattern.approval_policy.auto_approved_tool_names, None);
    let written = serde_json::to_value(&pattern).expect("serializes");
    assert_eq!(
        written["approvalPolicy"],
        json!({"rules": [{"kind": "tool-call"}]})
    );
}

#[test]
fn minimal_session_reads_as_an_idle_chat_on_the_default_pattern() {
    let session: SessionRecord = serde_json::from_value(json!({"id": "s1"})).expect("parses");
    assert_eq!(session, SessionRecord::new("s1"));
    assert_eq!(session.pattern_id, DEFAULT_PATTERN_ID);
}

#[test]
fn effective_policy_serializes_as_the_runtime_sees_it() {
    let policy = seed_workspace().effective_policy("list-override");
    assert_eq!(
        serde_json::to_value(policy.approval_policy()).expect("serializes"),
        json!({"rules": [{"kind": "tool-call"}], "autoApprovedToolNames": ["web_fetch"]})
    );
}
