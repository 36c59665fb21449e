//! Normalization on load, and pruning of stale ids once the runtime's tools are known.

mod approval_support;

use approval_support::*;
use warrant_core::store::{MemoryStore, WorkspaceStore};
use warrant_core::workspace::{
    ApprovalError, DEFAULT_PATTERN_ID, Pattern, SessionApprovalSettingsRequest, load_workspace,
    normalize_approval_state, prune_stale_tool_ids, save_pattern, update_session_approval_settings,
};

#[test]
fn load_normalization_drops_blank_and_repeated_ids() {
    let state = normalize_approval_state(needs_repair());
    assert_eq!(
        defaults_of(&state, "team"),
        Some(ids(&["view", "task", "git.status"]))
    );
    assert_eq!(
        override_of(&state, "chat"),
        Some(ids(&["task", "gone.tool"]))
    );
}

#[test]
fn load_normalization_adds_a_missing_default_pattern() {
    let state = normalize_approval_state(needs_repair());
    assert_eq!(state.patterns[0], Pattern::default_pattern());
    assert!(state.pattern("team").is_some());
}

#[test]
fn load_normalization_moves_sessions_of_a_missing_pattern_to_the_default() {
    let state = normalize_approval_state(needs_repair());
    assert_eq!(
        state.session("orphan").expect("kept").pattern_id,
        DEFAULT_PATTERN_ID
    );
    assert_eq!(state.session("chat").expect("kept").pattern_id, "team");
}

#[test]
fn load_normalization_empties_a_scratchpad_override() {
    let state = normalize_approval_state(needs_repair());
    assert_eq!(override_of(&state, "pad"), Some(vec![]));
}

#[test]
fn dynamic_runtime_ids_are_kept_until_runtime_tools_load() {
    let state = normalize_approval_state(needs_repair());
    assert!(
        defaults_of(&state, "team")
            .expect("list")
            .contains(&"task".to_owned())
    );
    assert!(
        override_of(&state, "chat")
            .expect("list")
            .contains(&"gone.tool".to_owned())
    );
}

#[test]
fn stale_ids_are_pruned_once_runtime_tools_are_known() {
    let state = prune_stale_tool_ids(needs_repair(), &runtime_tools(&["view", "task"]));
    assert_eq!(
        defaults_of(&state, "team"),
        Some(ids(&["view", "task", "git.status"]))
    );
    assert_eq!(override_of(&state, "chat"), Some(ids(&["task"])));
}

#[test]
fn runtime_ids_the_runtime_no_longer_reports_are_pruned() {
    let state = prune_stale_tool_ids(needs_repair(), &runtime_tools(&["glob"]));
    assert_eq!(defaults_of(&state, "team"), Some(ids(&["git.status"])));
    assert_eq!(
        override_of(&state, "chat"),
        Some(vec![]),
        "an emptied override stays explicit"
    );
}

#[test]
fn an_empty_runtime_report_prunes_nothing() {
    let state = prune_stale_tool_ids(needs_repair(), &[]);
    assert_eq!(state, normalize_approval_state(needs_repair()));
}

#[test]
fn stored_dynamic_ids_can_be_saved_again_until_runtime_tools_load() {
    let state = normalize_approval_state(needs_repair());
    let request = SessionApprovalSettingsRequest::new("orphan", Some(ids(&["task"])));
    let next = update_session_approval_settings(&state, &request, None).expect("kept id");
    assert_eq!(override_of(&next, "orphan"), Some(ids(&["task"])));

    let known = runtime_tools(&["view"]);
    let err = update_session_approval_settings(&state, &request, Some(&known)).expect_err("stale");
    assert!(matches!(err, ApprovalError::UnknownToolIds { .. }), "{err}");
}

#[test]
fn ids_never_stored_are_rejected_before_runtime_tools_load() {
    let state = normalize_approval_state(needs_repair());
    let mut team = state.pattern("team").expect("team").clone();
    team.approval_policy.auto_approved_tool_names = Some(ids(&["task", "brand_new"]));
    let err = save_pattern(&state, team, None).expect_err("unknown");
    let ApprovalError::UnknownToolIds { ids: unknown, .. } = err else {
        panic!("wrong rule");
    };
    assert_eq!(unknown.len(), 1);
    assert_eq!(unknown[0].id, "brand_new");
}

#[tokio::test]
async fn loading_a_stored_workspace_normalizes_it() {
    let store = MemoryStore::new();
    store.save_workspace(&needs_repair()).await.expect("saved");
    let loaded = load_workspace(&store).await.expect("loaded");
    assert_eq!(loaded, normalize_approval_state(needs_repair()));
}

#[tokio::test]
async fn loading_an_empty_store_gives_the_default_workspace() {
    let loaded = load_workspace(&MemoryStore::new()).await.expect("loaded");
    assert_eq!(loaded.patterns, vec![Pattern::default_pattern()]);
}
