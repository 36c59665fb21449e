//! A hook's engine logs each session event in the store once: the engine writes the event
//! log itself, and the hook's deferred log keeps only what the engine could not log.

mod hook_support;

use std::sync::Arc;

use hook_support::Workspace;
use warrant_core::store::EventLog;
use warrant_stores::sqlite::SqliteStore;

const AGENT: &str = "claude-code";

#[test]
fn a_hooks_events_are_logged_once_in_order() {
    let ws = Workspace::new();
    let answer = ws.hook(AGENT, &ws.payload(AGENT, "pre_tool_use_read"));
    assert_eq!(
        answer.json()["hookSpecificOutput"]["permissionDecision"],
        "allow"
    );
    let store = Arc::new(SqliteStore::open(ws.data.join("warrant.db")).unwrap());
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let events = runtime
        .block_on(store.events_since(&"abc123-claude".into(), 0, 1_000))
        .unwrap();
    let seqs: Vec<u64> = events.iter().map(|e| e.seq).collect();
    assert_eq!(seqs, (1..=events.len() as u64).collect::<Vec<_>>());
    let decisions: Vec<_> = events
        .iter()
        .filter(|e| e.event.tool_call_id() == Some("toolu_01ReadNotes"))
        .map(|e| e.event.type_name())
        .collect();
    assert!(!decisions.is_empty(), "{events:?}");
    let mut unique = decisions.clone();
    unique.sort_unstable();
    unique.dedup();
    assert_eq!(
        unique.len(),
        decisions.len(),
        "each event logged once: {decisions:?}"
    );
    assert_eq!(decisions.last(), Some(&"CUSTOM"), "the decision last");
}
