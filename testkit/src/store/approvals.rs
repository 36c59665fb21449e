//! Pending approvals (unresolved only), grants and the workspace state.

use serde_json::json;
use warrant_core::workspace::WorkspaceState;

use super::Subject;
use super::sample;

fn ids(pending: &[warrant_core::store::PendingApproval]) -> Vec<&str> {
    pending
        .iter()
        .map(|p| p.request.tool_call_id.as_str())
        .collect()
}

/// A pending approval is listed until removed.
pub async fn a_pending_approval_is_listed_until_removed(s: Subject) {
    assert!(s.store.pending_approvals().await.unwrap().is_empty());
    s.store
        .put_pending_approval(&sample::pending("s1", "a"))
        .await
        .unwrap();
    s.store
        .put_pending_approval(&sample::pending("s2", "b"))
        .await
        .unwrap();
    let listed = s.store.pending_approvals().await.unwrap();
    assert_eq!(ids(&listed), ["a", "b"]);
    assert_eq!(listed[0], sample::pending("s1", "a"));
    s.store.remove_pending_approval(&"a".into()).await.unwrap();
    assert_eq!(ids(&s.store.pending_approvals().await.unwrap()), ["b"]);
}

/// Putting a request again keeps one.
pub async fn putting_a_request_again_keeps_one(s: Subject) {
    s.store
        .put_pending_approval(&sample::pending("s1", "a"))
        .await
        .unwrap();
    s.store
        .put_pending_approval(&sample::pending("s1", "b"))
        .await
        .unwrap();
    let mut again = sample::pending("s1", "a");
    again.request.reason = "asked again".to_owned();
    s.store.put_pending_approval(&again).await.unwrap();
    let listed = s.store.pending_approvals().await.unwrap();
    assert_eq!(ids(&listed), ["b", "a"]);
    assert_eq!(listed[1].request.reason, "asked again");
}

/// Removing an unknown approval is not an error.
pub async fn removing_an_unknown_approval_is_not_an_error(s: Subject) {
    s.store
        .put_pending_approval(&sample::pending("s1", "a"))
        .await
        .unwrap();
    s.store
        .remove_pending_approval(&"never-asked".into())
        .await
        .unwrap();
    assert_eq!(ids(&s.store.pending_approvals().await.unwrap()), ["a"]);
}

/// A pending approval survives a restart.
pub async fn a_pending_approval_survives_a_restart(mut s: Subject) {
    s.store
        .put_pending_approval(&sample::pending("s1", "a"))
        .await
        .unwrap();
    s.restart();
    assert_eq!(
        s.store.pending_approvals().await.unwrap(),
        [sample::pending("s1", "a")]
    );
    s.store.remove_pending_approval(&"a".into()).await.unwrap();
    s.restart();
    assert!(s.store.pending_approvals().await.unwrap().is_empty());
}

/// Grants read back in order after a restart.
pub async fn grants_read_back_in_order_after_a_restart(mut s: Subject) {
    assert!(s.store.grants().await.unwrap().is_empty());
    let written = [
        sample::grant("s1", "a", "git push"),
        sample::grant("s2", "b", "npm test"),
    ];
    for grant in &written {
        s.store.put_grant(grant).await.unwrap();
    }
    s.restart();
    assert_eq!(s.store.grants().await.unwrap(), written);
}

/// A removed grant is gone after a restart.
pub async fn a_removed_grant_is_gone_after_a_restart(mut s: Subject) {
    let kept = sample::grant("s1", "a", "git push");
    let revoked = sample::grant("s1", "b", "npm test");
    // A grant recorded before grants had ids is removed by the id derived from it.
    let old = warrant_core::grant::Grant {
        id: String::new(),
        ..sample::grant("s2", "c", "make")
    };
    for grant in [&kept, &revoked, &old] {
        s.store.put_grant(grant).await.unwrap();
    }
    assert!(s.store.remove_grant(&revoked.id).await.unwrap());
    assert!(
        !s.store.remove_grant(&revoked.id).await.unwrap(),
        "a second removal removes nothing"
    );
    assert!(!s.store.remove_grant("grt_unknown").await.unwrap());
    assert!(
        s.store
            .remove_grant(&warrant_core::grant::Grant::id_for(
                &"s2".into(),
                &"c".into()
            ))
            .await
            .unwrap()
    );
    s.restart();
    assert_eq!(s.store.grants().await.unwrap(), [kept]);
}

/// The workspace is `None` before the first save.
pub async fn the_workspace_is_none_before_the_first_save(s: Subject) {
    assert_eq!(s.store.load_workspace().await.unwrap(), None);
}

/// The saved workspace survives a restart.
pub async fn the_saved_workspace_survives_a_restart(mut s: Subject) {
    let workspace: WorkspaceState = serde_json::from_value(json!({
        "patterns": [{"id": "default", "name": "Default", "approvalPolicy": {
            "rules": [{"kind": "tool-call"}], "autoApprovedToolNames": ["view"]}}],
        "sessions": [{"id": "s1", "patternId": "default",
            "approvalSettings": {"autoApprovedToolNames": []}}]
    }))
    .unwrap();
    s.store
        .save_workspace(&WorkspaceState::default())
        .await
        .unwrap();
    s.store.save_workspace(&workspace).await.unwrap();
    s.restart();
    assert_eq!(s.store.load_workspace().await.unwrap(), Some(workspace));
}
