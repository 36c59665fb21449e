//! `save_pattern` and `delete_pattern`, and the effective policy a pattern gives its
//! sessions.

mod approval_support;

use approval_support::*;
use warrant_core::workspace::{
    ApprovalCheckpointRule, ApprovalError, ApprovalPolicy, CheckpointKind, DEFAULT_PATTERN_ID,
    Pattern, PolicyOwner, SessionStatus, WorkspaceState, delete_pattern, save_pattern,
};

fn pattern(id: &str, rules: Vec<ApprovalCheckpointRule>, list: Option<&[&str]>) -> Pattern {
    Pattern {
        id: id.into(),
        name: id.into(),
        approval_policy: ApprovalPolicy {
            rules,
            auto_approved_tool_names: list.map(ids),
        },
    }
}

fn tool_call_on() -> Vec<ApprovalCheckpointRule> {
    ApprovalPolicy::checkpoints_on().rules
}

#[test]
fn save_pattern_rejects_unknown_auto_approved_tool_names() {
    let p = pattern("p", tool_call_on(), Some(&["view", "git.stat"]));
    let err = save_pattern(&seed_workspace(), p, None).expect_err("rejected");
    let ApprovalError::UnknownToolIds { owner, ids } = &err else {
        panic!("wrong rule: {err}");
    };
    assert_eq!(owner, &PolicyOwner::Pattern("p".into()));
    assert_eq!(ids.len(), 1);
    assert_eq!(ids[0].id, "git.stat");
    assert_eq!(ids[0].suggestion.as_deref(), Some("git.status"));
    assert!(
        err.to_string()
            .starts_with("pattern \"p\" names unknown tool id \"git.stat\""),
        "{err}"
    );
}

#[test]
fn save_pattern_accepts_runtime_mcp_and_lsp_ids() {
    let p = pattern(
        "p",
        tool_call_on(),
        Some(&["view", "git.diff", "lsp_ts_references"]),
    );
    let state = save_pattern(&seed_workspace(), p, None).expect("known ids");
    assert_eq!(
        defaults_of(&state, "p"),
        Some(ids(&["view", "git.diff", "lsp_ts_references"]))
    );
}

#[test]
fn pattern_may_keep_defaults_while_tool_call_checkpoints_are_off() {
    let final_only = vec![ApprovalCheckpointRule {
        kind: CheckpointKind::FinalResponse,
        agent_ids: None,
    }];
    let state = save_pattern(
        &seed_workspace(),
        pattern("p", final_only, Some(&["view"])),
        None,
    )
    .expect("defaults kept without tool-call checkpoints");
    assert_eq!(defaults_of(&state, "p"), Some(ids(&["view"])));
}

#[test]
fn effective_policy_keeps_defaults_but_reports_tool_call_checkpoints_off() {
    let mut state = seed_workspace();
    state.sessions[0].pattern_id = "reviewed".into();
    let policy = state.effective_policy("inherits");
    assert!(!policy.tool_call_checkpoint("primary"));
    assert!(
        policy.auto_approves("lsp_ts_hover"),
        "the list is still there, unused"
    );
}

#[test]
fn tool_call_checkpoint_applies_per_agent() {
    let only_reviewer = vec![ApprovalCheckpointRule {
        kind: CheckpointKind::ToolCall,
        agent_ids: Some(ids(&["reviewer"])),
    }];
    let mut state =
        save_pattern(&seed_workspace(), pattern("p", only_reviewer, None), None).expect("saved");
    state.sessions[0].pattern_id = "p".into();
    let policy = state.effective_policy("inherits");
    assert!(policy.tool_call_checkpoint("reviewer"));
    assert!(!policy.tool_call_checkpoint("primary"));
}

#[test]
fn save_pattern_replaces_the_pattern_with_the_same_id() {
    let state = seed_workspace();
    let next = save_pattern(&state, pattern("reviewed", vec![], Some(&[])), None).expect("saved");
    assert_eq!(next.patterns.len(), state.patterns.len());
    assert_eq!(defaults_of(&next, "reviewed"), Some(vec![]));
}

#[test]
fn save_pattern_rejects_a_blank_id() {
    let err =
        save_pattern(&seed_workspace(), pattern(" ", vec![], None), None).expect_err("rejected");
    assert_eq!(err, ApprovalError::BlankId { what: "pattern" });
}

#[test]
fn deleting_a_pattern_moves_its_idle_sessions_to_the_default_pattern() {
    let mut state = seed_workspace();
    state.sessions[0].pattern_id = "reviewed".into();
    let next = delete_pattern(&state, "reviewed").expect("deleted");
    assert!(next.pattern("reviewed").is_none());
    assert_eq!(
        next.session("inherits").expect("kept").pattern_id,
        DEFAULT_PATTERN_ID
    );
}

#[test]
fn the_default_pattern_cannot_be_deleted() {
    let err = delete_pattern(&seed_workspace(), DEFAULT_PATTERN_ID).expect_err("rejected");
    assert_eq!(err, ApprovalError::DefaultPatternRequired);
}

#[test]
fn a_pattern_used_by_a_running_session_cannot_be_deleted() {
    let mut state = seed_workspace();
    let busy = state
        .sessions
        .iter_mut()
        .find(|s| s.status == SessionStatus::Running);
    busy.expect("fixture has a running session").pattern_id = "reviewed".into();
    let err = delete_pattern(&state, "reviewed").expect_err("rejected");
    assert_eq!(
        err,
        ApprovalError::PatternInUse {
            pattern_id: "reviewed".into(),
            session_ids: vec!["busy".into()]
        }
    );
}

#[test]
fn deleting_an_unknown_pattern_is_rejected() {
    let err = delete_pattern(&seed_workspace(), "ghost").expect_err("rejected");
    assert_eq!(
        err,
        ApprovalError::UnknownPattern {
            pattern_id: "ghost".into()
        }
    );
}

#[test]
fn with_no_configuration_tool_call_checkpoints_are_on_and_nothing_is_auto_approved() {
    let policy = WorkspaceState::default().effective_policy("any-session");
    assert!(policy.tool_call_checkpoint("primary"));
    assert!(policy.auto_approved_tool_names.is_empty());
}

#[test]
fn a_session_whose_pattern_is_missing_gets_the_default_pattern() {
    let mut state = seed_workspace();
    state.sessions[0].pattern_id = "ghost".into();
    assert_eq!(effective(&state, "inherits"), ids(&["view", "glob"]));
}
