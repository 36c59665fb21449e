//! The engine installs workspace changes with their catalog, and judges later calls by them.

use std::sync::Arc;

use serde_json::json;
use warrant_core::catalog::RuntimeTool;
use warrant_core::engine::WorkspaceUpdateError;
use warrant_core::prelude::*;
use warrant_core::workspace::{
    McpServer, SessionApprovalSettingsRequest, SessionRecord, WorkspaceState, save_mcp_server,
    update_session_approval_settings,
};

async fn engine(store: Arc<MemoryStore>) -> Engine {
    Engine::builder(Chain::builder().build())
        .store(store)
        .build()
        .await
        .unwrap()
}

fn with_session(ws: &WorkspaceState) -> WorkspaceState {
    let mut next = ws.clone();
    next.sessions.push(SessionRecord::new("s1"));
    next
}

#[tokio::test]
async fn saved_mcp_tools_join_the_catalog_and_persist() {
    let store = Arc::new(MemoryStore::new());
    let engine = engine(store.clone()).await;
    let server = McpServer {
        id: "git".into(),
        name: "Git".into(),
        tools: vec!["git.status".into()],
    };
    engine
        .update_workspace(|ws, rt| save_mcp_server(ws, server, rt))
        .await
        .unwrap();
    assert!(engine.catalog().contains("git.status"));
    assert!(
        store
            .load_workspace()
            .await
            .unwrap()
            .unwrap()
            .settings
            .tooling
            .mcp_servers
            .len()
            == 1
    );
    // A new engine on the same store sees the same catalog.
    assert!(self::engine(store).await.catalog().contains("git.status"));
}

#[tokio::test]
async fn session_override_reaches_the_evaluation_context() {
    let engine = engine(Arc::new(MemoryStore::new())).await;
    engine
        .update_workspace(|ws, _| Ok(with_session(ws)))
        .await
        .unwrap();
    let request: SessionApprovalSettingsRequest =
        serde_json::from_value(json!({"sessionId": "s1", "autoApprovedToolNames": ["view"]}))
            .unwrap();
    engine
        .update_workspace(|ws, rt| update_session_approval_settings(ws, &request, rt))
        .await
        .unwrap();
    let call = ToolCall::new("s1", "c", "view", json!({"path": "a"}));
    let cx = engine.context(&call, PermissionMode::Default);
    assert!(cx.policy.session_override);
    assert!(cx.policy.auto_approves("view"));
}

#[tokio::test]
async fn rejected_change_leaves_the_workspace_as_it_was() {
    let engine = engine(Arc::new(MemoryStore::new())).await;
    engine
        .update_workspace(|ws, _| Ok(with_session(ws)))
        .await
        .unwrap();
    let before = engine.workspace();
    let request: SessionApprovalSettingsRequest = serde_json::from_value(
        json!({"sessionId": "s1", "autoApprovedToolNames": ["lsp_ts_hovr"]}),
    )
    .unwrap();
    let err = engine
        .update_workspace(|ws, rt| update_session_approval_settings(ws, &request, rt))
        .await
        .unwrap_err();
    assert!(matches!(err, WorkspaceUpdateError::Rejected(_)));
    assert!(err.to_string().contains("lsp_ts_hovr"), "{err}");
    assert_eq!(engine.workspace(), before);
}

#[tokio::test]
async fn runtime_tools_replace_the_builtin_catalog_and_prune_stale_ids() {
    let engine = engine(Arc::new(MemoryStore::new())).await;
    engine
        .update_workspace(|ws, _| Ok(with_session(ws)))
        .await
        .unwrap();
    let request: SessionApprovalSettingsRequest = serde_json::from_value(
        json!({"sessionId": "s1", "autoApprovedToolNames": ["web_fetch", "view"]}),
    )
    .unwrap();
    engine
        .update_workspace(|ws, rt| update_session_approval_settings(ws, &request, rt))
        .await
        .unwrap();
    let tool = |name: &str| RuntimeTool {
        name: name.into(),
        description: None,
        input_schema: None,
    };
    let state = engine
        .set_runtime_tools(vec![tool("view"), tool("deploy")])
        .await
        .unwrap();
    assert!(engine.catalog().contains("deploy"));
    assert!(!engine.catalog().contains("web_fetch"));
    let names = &state
        .session("s1")
        .unwrap()
        .approval_settings
        .as_ref()
        .unwrap()
        .auto_approved_tool_names;
    assert_eq!(names, &vec!["view".to_owned()]);
}

#[tokio::test]
async fn sessions_the_last_run_left_running_are_idle_after_a_restart() {
    use warrant_core::workspace::{SessionRecord, SessionStatus};
    let store = std::sync::Arc::new(warrant_core::store::MemoryStore::new());
    let mut running = SessionRecord::new("busy");
    running.status = SessionStatus::Running;
    warrant_core::store::WorkspaceStore::put_session(&*store, &running)
        .await
        .unwrap();
    warrant_core::store::WorkspaceStore::put_session(&*store, &SessionRecord::new("calm"))
        .await
        .unwrap();
    let engine =
        warrant_core::engine::Engine::builder(warrant_core::chain::Chain::builder().build())
            .store(store.clone())
            .build()
            .await
            .unwrap();
    let workspace = engine.workspace();
    assert_eq!(
        workspace.session("busy").unwrap().status,
        SessionStatus::Idle
    );
    assert_eq!(
        workspace.session("calm").unwrap().status,
        SessionStatus::Idle
    );
    let stored = warrant_core::store::WorkspaceStore::load_workspace(&*store)
        .await
        .unwrap()
        .unwrap();
    assert!(
        stored
            .sessions
            .iter()
            .all(|s| s.status == SessionStatus::Idle),
        "written back to the store"
    );
}
