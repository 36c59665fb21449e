//! `update_session_approval_settings`: inherit, `[]` and a list; replace, not merge; and the
//! rules that reject a change.

mod approval_support;

use approval_support::*;
use warrant_core::workspace::{
    ApprovalError, PolicyOwner, SessionApprovalSettingsRequest, UnknownToolId,
    update_session_approval_settings,
};

fn update(list: Option<&[&str]>, session_id: &str) -> Result<(), ApprovalError> {
    let request = SessionApprovalSettingsRequest::new(session_id, list.map(ids));
    update_session_approval_settings(&seed_workspace(), &request, None).map(|_| ())
}

#[test]
fn session_without_approval_settings_inherits_pattern_defaults() {
    let state = seed_workspace();
    let policy = state.effective_policy("inherits");
    assert_eq!(policy.auto_approved_tool_names, ids(&["view", "glob"]));
    assert!(!policy.session_override);
}

#[test]
fn omitted_auto_approved_tool_names_clears_the_override_and_inherits() {
    let state = with_override(&seed_workspace(), "list-override", None);
    assert_eq!(override_of(&state, "list-override"), None);
    assert_eq!(effective(&state, "list-override"), ids(&["view", "glob"]));
}

#[test]
fn empty_list_keeps_an_explicit_override_that_auto_approves_nothing() {
    let state = with_override(&seed_workspace(), "inherits", Some(&[]));
    assert_eq!(override_of(&state, "inherits"), Some(vec![]));
    let policy = state.effective_policy("inherits");
    assert!(policy.session_override);
    assert!(
        !policy.auto_approves("view"),
        "[] must not fall back to the pattern"
    );
}

#[test]
fn populated_list_sets_an_explicit_session_override() {
    let state = with_override(
        &seed_workspace(),
        "inherits",
        Some(&["lsp_ts_hover", "git.diff"]),
    );
    assert_eq!(
        override_of(&state, "inherits"),
        Some(ids(&["lsp_ts_hover", "git.diff"]))
    );
    assert_eq!(
        effective(&state, "inherits"),
        ids(&["lsp_ts_hover", "git.diff"])
    );
}

#[test]
fn session_override_replaces_pattern_defaults() {
    let state = seed_workspace();
    let policy = state.effective_policy("list-override");
    assert_eq!(policy.auto_approved_tool_names, ids(&["web_fetch"]));
    assert!(
        !policy.auto_approves("view"),
        "pattern default must not merge in"
    );
    let pattern_rules = &state
        .pattern("default")
        .expect("default")
        .approval_policy
        .rules;
    assert_eq!(
        &policy.rules, pattern_rules,
        "the pattern's rules still apply"
    );
}

#[test]
fn update_cleans_blank_and_repeated_ids() {
    let state = with_override(
        &seed_workspace(),
        "inherits",
        Some(&["view", "", "view", "glob"]),
    );
    assert_eq!(
        override_of(&state, "inherits"),
        Some(ids(&["view", "glob"]))
    );
}

#[test]
fn scratchpad_sessions_reject_non_empty_overrides() {
    let err = update(Some(&["view"]), "pad").expect_err("rejected");
    assert_eq!(
        err,
        ApprovalError::ScratchpadOverride {
            session_id: "pad".into(),
            tool_ids: ids(&["view"]),
        }
    );
    assert!(err.to_string().contains("scratchpad"), "{err}");
}

#[test]
fn scratchpad_sessions_accept_an_empty_override_and_clearing() {
    let emptied = with_override(&seed_workspace(), "pad", Some(&[]));
    assert_eq!(override_of(&emptied, "pad"), Some(vec![]));
    let cleared = with_override(&emptied, "pad", None);
    assert_eq!(override_of(&cleared, "pad"), None);
}

#[test]
fn running_session_rejects_any_approval_settings_change() {
    for list in [Some(&["view"][..]), Some(&[][..]), None] {
        let err = update(list, "busy").expect_err("rejected while running");
        assert_eq!(
            err,
            ApprovalError::SessionRunning {
                session_id: "busy".into()
            }
        );
        assert!(err.to_string().contains("is running"), "{err}");
    }
}

#[test]
fn unknown_session_is_rejected() {
    let err = update(None, "nope").expect_err("rejected");
    assert_eq!(
        err,
        ApprovalError::UnknownSession {
            session_id: "nope".into()
        }
    );
    assert!(err.is_not_found());
}

#[test]
fn update_rejects_unknown_tool_ids_naming_each_with_suggestions() {
    let err =
        update(Some(&["view", "lsp_ts_hovr", "deploy_prod"]), "inherits").expect_err("rejected");
    let expected = vec![
        UnknownToolId {
            id: "lsp_ts_hovr".into(),
            suggestion: Some("lsp_ts_hover".into()),
        },
        UnknownToolId {
            id: "deploy_prod".into(),
            suggestion: None,
        },
    ];
    assert_eq!(
        err,
        ApprovalError::UnknownToolIds {
            owner: PolicyOwner::Session("inherits".into()),
            ids: expected
        }
    );
    assert_eq!(
        err.to_string(),
        "session \"inherits\" names unknown tool ids \"lsp_ts_hovr\" (did you mean \"lsp_ts_hover\"?), \
         \"deploy_prod\": use ids listed by the tool catalog"
    );
    assert_eq!(err.code(), "unknown_tool_ids");
}

#[test]
fn update_accepts_runtime_ids_the_runtime_reported() {
    let state = seed_workspace();
    let runtime = runtime_tools(&["view", "task"]);
    let request = SessionApprovalSettingsRequest::new("inherits", Some(ids(&["task"])));
    let next = update_session_approval_settings(&state, &request, Some(&runtime)).expect("known");
    assert_eq!(override_of(&next, "inherits"), Some(ids(&["task"])));
}

#[test]
fn update_request_distinguishes_absent_from_empty_list() {
    let absent: SessionApprovalSettingsRequest =
        serde_json::from_str(r#"{"sessionId": "s1"}"#).expect("parses");
    assert_eq!(absent, SessionApprovalSettingsRequest::new("s1", None));
    let empty: SessionApprovalSettingsRequest =
        serde_json::from_str(r#"{"sessionId": "s1", "autoApprovedToolNames": []}"#)
            .expect("parses");
    assert_eq!(
        empty,
        SessionApprovalSettingsRequest::new("s1", Some(vec![]))
    );
    let list: SessionApprovalSettingsRequest =
        serde_json::from_str(r#"{"sessionId": "s1", "autoApprovedToolNames": ["view"]}"#)
            .expect("parses");
    assert_eq!(list.auto_approved_tool_names, Some(ids(&["view"])));
}

#[test]
fn update_request_rejects_a_misspelt_field_instead_of_clearing() {
    let typo = serde_json::from_str::<SessionApprovalSettingsRequest>(
        r#"{"sessionId": "s1", "autoApprovedTools": ["view"]}"#,
    );
    assert!(
        typo.is_err(),
        "a typo must not read as 'clear the override'"
    );
}
