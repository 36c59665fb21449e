//! Sessions: rows of their own, with bounded ids, and idle empty ones expire.

use warrant_core::event::now_millis;
use warrant_core::ids::SessionId;
use warrant_core::store::StoreErrorKind;
use warrant_core::workspace::{
    MAX_SESSION_ID_BYTES, SessionApprovalSettings, SessionRecord, WorkspaceState,
};

use super::Subject;
use super::sample;

/// A session id of `n` bytes.
fn id_of(n: usize) -> String {
    "s".repeat(n)
}

fn ids(state: &WorkspaceState) -> Vec<&str> {
    state.sessions.iter().map(|s| s.id.as_str()).collect()
}

/// A 257-byte session id is refused by every write naming it.
pub async fn a_257_byte_session_id_is_refused_by_every_write_naming_it(s: Subject) {
    let long = id_of(MAX_SESSION_ID_BYTES + 1);
    let mut workspace = WorkspaceState::default();
    workspace.sessions.push(SessionRecord::new(long.clone()));
    let mut part = sample::decided_part("c1");
    part.tool_call_id = "c1".to_owned().into();
    let errors = [
        s.store
            .append_audit(sample::evaluation(&long, "c1"))
            .await
            .unwrap_err(),
        s.store.save_workspace(&workspace).await.unwrap_err(),
        s.store
            .put_session(&SessionRecord::new(long.clone()))
            .await
            .unwrap_err(),
        s.store
            .upsert_tool_part(&SessionId::from(&long), "m1", &part)
            .await
            .unwrap_err(),
        s.store
            .put_pending_approval(&sample::pending(&long, "c1"))
            .await
            .unwrap_err(),
        s.store
            .put_grant(&sample::grant(&long, "c1", "git status"))
            .await
            .unwrap_err(),
        s.store
            .append_event(&SessionId::from(&long), &sample::event("c1"))
            .await
            .unwrap_err(),
    ];
    for err in errors {
        assert_eq!(err.kind, StoreErrorKind::Invalid, "{err}");
        assert!(err.message.contains(&long), "names the id: {err}");
        assert!(err.message.contains("257 bytes"), "{err}");
    }
    assert_eq!(s.store.load_workspace().await.unwrap(), None);
    assert_eq!(s.store.evaluation_of(&"c1".into()).await.unwrap(), None);
}

/// A 256-byte session id is accepted.
pub async fn a_256_byte_session_id_is_accepted(s: Subject) {
    let longest = id_of(MAX_SESSION_ID_BYTES);
    s.store
        .put_session(&SessionRecord::new(longest.clone()))
        .await
        .unwrap();
    s.store
        .append_audit(sample::evaluation(&longest, "c1"))
        .await
        .unwrap();
    let workspace = s.store.load_workspace().await.unwrap().unwrap();
    assert_eq!(ids(&workspace), [longest.as_str()]);
}

/// `put_session` adds or replaces one session and survives a restart.
pub async fn put_session_adds_or_replaces_one_session_and_survives_a_restart(mut s: Subject) {
    let mut workspace = WorkspaceState::default();
    workspace.sessions.push(SessionRecord::new("a"));
    s.store.save_workspace(&workspace).await.unwrap();
    s.store.put_session(&SessionRecord::new("b")).await.unwrap();
    let mut a = SessionRecord::new("a");
    a.approval_settings = Some(SessionApprovalSettings::default());
    s.store.put_session(&a).await.unwrap();
    s.restart();
    let loaded = s.store.load_workspace().await.unwrap().unwrap();
    assert_eq!(
        ids(&loaded),
        ["a", "b"],
        "a replaced session keeps its place"
    );
    assert_eq!(loaded.sessions[0], a);
    assert_eq!(loaded.patterns, WorkspaceState::default().patterns);
}

/// Saving the workspace adds and changes sessions and keeps the others.
pub async fn saving_the_workspace_adds_and_changes_sessions_and_keeps_the_others(mut s: Subject) {
    let mut workspace = WorkspaceState::default();
    for id in ["a", "b", "c"] {
        workspace.sessions.push(SessionRecord::new(id));
    }
    s.store.save_workspace(&workspace).await.unwrap();
    // Added meanwhile by another writer, unknown to the next save.
    s.store.put_session(&SessionRecord::new("x")).await.unwrap();
    workspace.sessions.remove(1);
    workspace.sessions[0].approval_settings = Some(SessionApprovalSettings {
        auto_approved_tool_names: vec!["view".to_owned()],
    });
    workspace.sessions.push(SessionRecord::new("d"));
    s.store.save_workspace(&workspace).await.unwrap();
    s.restart();
    let loaded = s.store.load_workspace().await.unwrap().unwrap();
    assert_eq!(ids(&loaded), ["a", "b", "c", "x", "d"]);
    assert_eq!(loaded.sessions[0], workspace.sessions[0]);
    assert_eq!(loaded.patterns, workspace.patterns);
}

/// Idle empty sessions expire and the others stay.
pub async fn idle_empty_sessions_expire_and_the_others_stay(mut s: Subject) {
    let mut workspace = WorkspaceState::default();
    for id in ["empty", "busy", "pending", "granted", "overridden", "noisy"] {
        workspace.sessions.push(SessionRecord::new(id));
    }
    workspace.sessions[4].approval_settings = Some(SessionApprovalSettings::default());
    s.store.save_workspace(&workspace).await.unwrap();
    s.store
        .upsert_tool_part(&"busy".into(), "m1", &sample::decided_part("c1"))
        .await
        .unwrap();
    s.store
        .put_pending_approval(&sample::pending("pending", "c2"))
        .await
        .unwrap();
    s.store
        .put_grant(&sample::grant("granted", "c3", "git status"))
        .await
        .unwrap();
    let written = now_millis();

    // Nothing is idle an hour before the writes.
    let none = s
        .store
        .expire_idle_sessions(written - 3_600_000)
        .await
        .unwrap();
    assert!(none.is_empty(), "{none:?}");

    // Everything was written before the cutoff; only "noisy" sends an event after it.
    std::thread::sleep(std::time::Duration::from_millis(3));
    let cutoff = now_millis();
    std::thread::sleep(std::time::Duration::from_millis(3));
    s.store
        .append_event(&"noisy".into(), &sample::event("c4"))
        .await
        .unwrap();
    let expired = s.store.expire_idle_sessions(cutoff).await.unwrap();
    assert_eq!(expired, ["empty"]);
    s.restart();
    let loaded = s.store.load_workspace().await.unwrap().unwrap();
    assert_eq!(
        ids(&loaded),
        ["busy", "pending", "granted", "overridden", "noisy"]
    );
}
