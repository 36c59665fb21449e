//! The engine's order and bookkeeping, proven with mockall mocks of `Evaluator`, `Store` and
//! `Transport`, and with the in-memory implementations.

use std::sync::Arc;

use async_trait::async_trait;
use mockall::{Sequence, mock, predicate};
use serde_json::json;
use warrant_core::audit::{AuditEvent, AuditRecord};
use warrant_core::engine::{EngineError, ResolveError};
use warrant_core::event::{TOOL_APPROVAL_REQUEST, TOOL_PERMISSION_DECISION};
use warrant_core::grant::Grant;
use warrant_core::part::{Message, MessagePart, ToolPart, ToolState};
use warrant_core::prelude::*;
use warrant_core::store::{
    AuditQuery, PendingApproval, StoreError, StoreErrorKind, StoredAuditRecord, StoredEvent,
};
use warrant_core::transport::TransportError;
use warrant_core::workspace::WorkspaceState;

mock! {
    pub Eval {}
    #[async_trait]
    impl Evaluator for Eval {
        fn name(&self) -> &str;
        fn source(&self) -> PermissionDecisionSource;
        fn role(&self) -> Role;
        async fn evaluate(&self, call: &ToolCall, cx: &EvaluationContext) -> Result<Verdict, EvaluatorError>;
    }
}

mock! {
    pub Db {}
    #[async_trait]
    impl AuditLog for Db {
        async fn append_audit(&self, record: AuditRecord) -> Result<u64, StoreError>;
        async fn audit_records(&self, query: &AuditQuery) -> Result<Vec<StoredAuditRecord>, StoreError>;
    }
    #[async_trait]
    impl EventLog for Db {
        async fn append_event(&self, session_id: &SessionId, event: &Event) -> Result<u64, StoreError>;
        async fn events_since(&self, session_id: &SessionId, after_seq: u64, limit: usize) -> Result<Vec<StoredEvent>, StoreError>;
    }
    #[async_trait]
    impl Conversations for Db {
        async fn upsert_tool_part(&self, session_id: &SessionId, message_id: &str, part: &ToolPart) -> Result<(), StoreError>;
        async fn messages(&self, session_id: &SessionId) -> Result<Vec<Message>, StoreError>;
    }
    #[async_trait]
    impl Approvals for Db {
        async fn put_pending_approval(&self, pending: &PendingApproval) -> Result<(), StoreError>;
        async fn remove_pending_approval(&self, tool_call_id: &ToolCallId) -> Result<(), StoreError>;
        async fn pending_approvals(&self) -> Result<Vec<PendingApproval>, StoreError>;
        async fn put_grant(&self, grant: &Grant) -> Result<(), StoreError>;
        async fn grants(&self) -> Result<Vec<Grant>, StoreError>;
        async fn remove_grant(&self, grant_id: &str) -> Result<bool, StoreError>;
    }
    #[async_trait]
    impl WorkspaceStore for Db {
        async fn load_workspace(&self) -> Result<Option<WorkspaceState>, StoreError>;
        async fn save_workspace(&self, workspace: &WorkspaceState) -> Result<(), StoreError>;
    }
}

mock! {
    pub Wire {}
    #[async_trait]
    impl Transport for Wire {
        async fn emit(&self, session_id: &SessionId, event: &Event) -> Result<(), TransportError>;
    }
}

fn judge(stance: Stance, code: &'static str) -> MockEval {
    let mut e = MockEval::new();
    e.expect_name().return_const("policy".to_owned());
    e.expect_source()
        .return_const(PermissionDecisionSource::Policy);
    e.expect_role().return_const(Role::Judge);
    e.expect_evaluate().returning(move |_, _| {
        Ok(Verdict::decide(
            stance,
            Rationale::new(code, "because", Risk::Medium),
        ))
    });
    e
}

fn empty_store() -> MockDb {
    let mut db = MockDb::new();
    db.expect_load_workspace().returning(|| Ok(None));
    db.expect_grants().returning(|| Ok(vec![]));
    db.expect_pending_approvals().returning(|| Ok(vec![]));
    db.expect_upsert_tool_part().returning(|_, _, _| Ok(()));
    db.expect_append_event().returning(|_, _| Ok(1));
    db
}

/// An engine over mocked parts.
async fn mocked(judge: MockEval, db: MockDb, wire: MockWire) -> Engine {
    Engine::builder(Chain::builder().evaluator(judge).build())
        .store(Arc::new(db))
        .transport(Arc::new(wire))
        .build()
        .await
        .unwrap()
}

fn is_custom(name: &'static str) -> impl Fn(&Event) -> bool {
    move |e| matches!(e, Event::Custom(c) if c.name == name)
}

fn call(id: &str) -> ToolCall {
    ToolCall::new("s1", id, "Bash", json!({"command": "make deploy"}))
}

async fn engine(
    stance: Stance,
    code: &'static str,
) -> (Engine, Arc<MemoryStore>, Arc<MemoryTransport>) {
    let store = Arc::new(MemoryStore::new());
    let transport = Arc::new(MemoryTransport::new());
    let engine = Engine::builder(Chain::builder().evaluator(judge(stance, code)).build())
        .store(store.clone())
        .transport(transport.clone())
        .build()
        .await
        .unwrap();
    (engine, store, transport)
}

fn drain(rx: &mut tokio::sync::broadcast::Receiver<Event>) -> Vec<Event> {
    std::iter::from_fn(|| rx.try_recv().ok()).collect()
}

fn names(events: &[Event]) -> Vec<String> {
    events
        .iter()
        .map(|e| match e {
            Event::Custom(c) => c.name.clone(),
            other => other.type_name().to_owned(),
        })
        .collect()
}

#[tokio::test]
async fn audit_is_recorded_before_the_decision_is_emitted() {
    let mut seq = Sequence::new();
    let mut db = empty_store();
    let mut wire = MockWire::new();
    db.expect_append_audit()
        .times(1)
        .in_sequence(&mut seq)
        .withf(|r| matches!(r.event, AuditEvent::Evaluation { .. }))
        .returning(|_| Ok(1));
    db.expect_put_pending_approval()
        .times(1)
        .in_sequence(&mut seq)
        .returning(|_| Ok(()));
    wire.expect_emit()
        .with(
            predicate::eq(SessionId::new("s1")),
            predicate::function(is_custom(TOOL_PERMISSION_DECISION)),
        )
        .times(1)
        .in_sequence(&mut seq)
        .returning(|_, _| Ok(()));
    wire.expect_emit()
        .with(
            predicate::eq(SessionId::new("s1")),
            predicate::function(is_custom(TOOL_APPROVAL_REQUEST)),
        )
        .times(1)
        .in_sequence(&mut seq)
        .returning(|_, _| Ok(()));
    let engine = mocked(judge(Stance::DefaultAsk, "shell_write"), db, wire).await;
    let auth = engine
        .authorize(call("c1"), AuthorizeOptions::default())
        .await
        .unwrap();
    assert_eq!(auth.decision.behavior, Behavior::Ask);
}

#[tokio::test]
async fn audit_failure_emits_nothing_and_the_call_does_not_run() {
    let mut db = empty_store();
    db.expect_append_audit()
        .returning(|_| Err(StoreError::new(StoreErrorKind::Unavailable, "disk full")));
    let mut wire = MockWire::new();
    wire.expect_emit().never();
    let engine = mocked(judge(Stance::PolicyAllow, "shell_read_only"), db, wire).await;
    let err = engine
        .authorize(call("c1"), AuthorizeOptions::default())
        .await
        .unwrap_err();
    assert!(matches!(err, EngineError::Audit { .. }));
    assert!(err.to_string().contains("disk full"), "{err}");
}

#[tokio::test]
async fn exactly_one_decision_event_per_evaluated_call() {
    for (stance, code) in [
        (Stance::PolicyAllow, "shell_read_only"),
        (Stance::HardDeny, "shell_destructive"),
        (Stance::DefaultAsk, "shell_write"),
    ] {
        let (engine, _, transport) = engine(stance, code).await;
        let mut rx = transport.subscribe(&"s1".into());
        engine
            .authorize(call("c1"), AuthorizeOptions::default())
            .await
            .unwrap();
        let events = drain(&mut rx);
        let decisions = names(&events)
            .iter()
            .filter(|n| *n == TOOL_PERMISSION_DECISION)
            .count();
        assert_eq!(decisions, 1, "{code}");
    }
}

#[tokio::test]
async fn approval_request_only_for_ask() {
    for (stance, code, asks) in [
        (Stance::PolicyAllow, "shell_read_only", false),
        (Stance::HardDeny, "shell_destructive", false),
        (Stance::RequireAsk, "normalized_rule_ask", true),
        (Stance::DefaultAsk, "shell_write", true),
    ] {
        let (engine, store, transport) = engine(stance, code).await;
        let mut rx = transport.subscribe(&"s1".into());
        let auth = engine
            .authorize(call("c1"), AuthorizeOptions::default())
            .await
            .unwrap();
        let names = names(&drain(&mut rx));
        assert_eq!(
            names.contains(&TOOL_APPROVAL_REQUEST.to_owned()),
            asks,
            "{code}: {names:?}"
        );
        assert_eq!(auth.approval.is_some(), asks);
        assert_eq!(
            store.pending_approvals().await.unwrap().len(),
            usize::from(asks)
        );
    }
}

#[tokio::test]
async fn announced_call_streams_start_args_end_then_decision() {
    let (engine, _, transport) = engine(Stance::DefaultAsk, "shell_write").await;
    let mut rx = transport.subscribe(&"s1".into());
    let mut c = call("c1");
    c.input = json!({"command": "curl -H 'Authorization: Bearer sk-live-abcdefghijklmnopqrstu' https://x"});
    let auth = engine
        .authorize(
            c,
            AuthorizeOptions {
                announce: true,
                ..Default::default()
            },
        )
        .await
        .unwrap();
    let events = drain(&mut rx);
    assert_eq!(
        names(&events),
        [
            "TOOL_CALL_START",
            "TOOL_CALL_ARGS",
            "TOOL_CALL_END",
            TOOL_PERMISSION_DECISION,
            TOOL_APPROVAL_REQUEST
        ]
    );
    for e in &events {
        assert_eq!(
            e.tool_call_id(),
            Some("c1"),
            "the events share the toolCallId"
        );
    }
    let args = serde_json::to_string(&events[1]).unwrap();
    assert!(
        !args.contains("sk-live-abcdefghijklmnopqrstu"),
        "secrets never reach a stream: {args}"
    );
    let request = auth.approval.unwrap().request;
    assert_eq!(request.title, "Approve Bash");
    assert_eq!(request.tool_name.as_deref(), Some("Bash"));
    let ids: Vec<&str> = request.actions.iter().map(|a| a.id.as_str()).collect();
    assert_eq!(ids, ["allow_once", "allow_session", "allow_global", "deny"]);
}

#[tokio::test]
async fn decision_request_and_resolution_share_the_tool_call_id() {
    let (engine, store, transport) = engine(Stance::DefaultAsk, "shell_write").await;
    let mut rx = transport.subscribe(&"s1".into());
    let auth = engine
        .authorize(
            call("c9"),
            AuthorizeOptions {
                announce: true,
                ..Default::default()
            },
        )
        .await
        .unwrap();
    let resolution = engine.resolve(&"c9".into(), "allow_once").await.unwrap();
    assert_eq!(
        auth.settled().await.unwrap(),
        (Behavior::Allow, Some(resolution.clone()))
    );
    engine
        .complete(&"s1".into(), &"c9".into(), "deployed")
        .await
        .unwrap();
    let events = drain(&mut rx);
    assert_eq!(names(&events).last().unwrap(), "TOOL_CALL_RESULT");
    let ids: Vec<&str> = events.iter().filter_map(|e| e.tool_call_id()).collect();
    assert!(ids.iter().all(|id| *id == "c9"), "{ids:?}");
    // The part is persisted with both stages, through completion.
    let messages = store.messages(&"s1".into()).await.unwrap();
    let MessagePart::Tool(part) = &messages[0].parts[0] else {
        panic!("tool part expected")
    };
    assert_eq!(part.state, ToolState::Completed);
    assert_eq!(
        part.permission_decision.as_ref().unwrap().behavior,
        Behavior::Ask
    );
    assert_eq!(part.permission_resolution.as_ref(), Some(&resolution));
    // The pending list holds only unresolved requests.
    assert!(store.pending_approvals().await.unwrap().is_empty());
    // The resolution is audited after the evaluation.
    let audit = store
        .audit_records(&AuditQuery::session("s1"))
        .await
        .unwrap();
    assert!(matches!(
        audit[0].record.event,
        AuditEvent::Evaluation { .. }
    ));
    assert!(matches!(
        audit[1].record.event,
        AuditEvent::Resolution { .. }
    ));
}

#[tokio::test]
async fn resolution_rejected_when_unknown() {
    let (engine, _, _) = engine(Stance::DefaultAsk, "shell_write").await;
    assert!(
        matches!(engine.resolve(&"nope".into(), "allow_once").await, Err(ResolveError::Unknown(id)) if id == "nope")
    );
}

#[tokio::test]
async fn resolution_rejected_when_action_not_offered() {
    let (engine, _, _) = engine(Stance::DefaultAsk, "shell_write").await;
    engine
        .authorize(call("c1"), AuthorizeOptions::default())
        .await
        .unwrap();
    let err = engine
        .resolve(&"c1".into(), "allow_forever")
        .await
        .unwrap_err();
    assert!(matches!(err, ResolveError::ActionNotOffered { .. }));
    assert!(
        err.to_string().contains("allow_forever") && err.to_string().contains("allow_once"),
        "{err}"
    );
    // Still pending: a valid action is accepted afterwards.
    engine.resolve(&"c1".into(), "deny").await.unwrap();
}

#[tokio::test]
async fn resolution_rejected_when_repeated() {
    let (engine, store, _) = engine(Stance::DefaultAsk, "shell_write").await;
    engine
        .authorize(call("c1"), AuthorizeOptions::default())
        .await
        .unwrap();
    engine.resolve(&"c1".into(), "deny").await.unwrap();
    assert!(matches!(
        engine.resolve(&"c1".into(), "allow_once").await,
        Err(ResolveError::NotPending(_))
    ));
    let resolutions = store
        .audit_records(&AuditQuery::all())
        .await
        .unwrap()
        .into_iter()
        .filter(|r| matches!(r.record.event, AuditEvent::Resolution { .. }))
        .count();
    assert_eq!(resolutions, 1);
}

#[tokio::test]
async fn resolution_rejected_for_a_call_that_never_asked() {
    let (engine, _, _) = engine(Stance::PolicyAllow, "shell_read_only").await;
    engine
        .authorize(call("c1"), AuthorizeOptions::default())
        .await
        .unwrap();
    assert!(matches!(
        engine.resolve(&"c1".into(), "allow_once").await,
        Err(ResolveError::NotPending(_))
    ));
}

#[tokio::test]
async fn concurrent_resolutions_accept_exactly_one() {
    let (engine, _, _) = engine(Stance::DefaultAsk, "shell_write").await;
    engine
        .authorize(call("c1"), AuthorizeOptions::default())
        .await
        .unwrap();
    let tasks: Vec<_> = (0..16)
        .map(|i| {
            let engine = engine.clone();
            tokio::spawn(async move {
                engine
                    .resolve(&"c1".into(), if i % 2 == 0 { "allow_once" } else { "deny" })
                    .await
                    .is_ok()
            })
        })
        .collect();
    let mut accepted = 0;
    for t in tasks {
        accepted += usize::from(t.await.unwrap());
    }
    assert_eq!(accepted, 1);
}

#[tokio::test]
async fn user_denial_settles_as_deny() {
    let (engine, _, _) = engine(Stance::DefaultAsk, "shell_write").await;
    let auth = engine
        .authorize(call("c1"), AuthorizeOptions::default())
        .await
        .unwrap();
    engine.resolve(&"c1".into(), "deny").await.unwrap();
    assert_eq!(auth.settled().await.unwrap().0, Behavior::Deny);
}

#[tokio::test]
async fn session_and_global_scopes_become_grants() {
    let (engine, store, _) = engine(Stance::DefaultAsk, "shell_write").await;
    engine
        .authorize(call("c1"), AuthorizeOptions::default())
        .await
        .unwrap();
    engine.resolve(&"c1".into(), "allow_session").await.unwrap();
    engine
        .authorize(
            ToolCall::new("s2", "c2", "Bash", json!({"command": "make test"})),
            AuthorizeOptions::default(),
        )
        .await
        .unwrap();
    engine.resolve(&"c2".into(), "allow_global").await.unwrap();
    // The session grant covers "make deploy" in s1 from now on, whatever the chain.
    let covered = engine
        .authorize(call("c3"), AuthorizeOptions::default())
        .await
        .unwrap();
    assert_eq!(covered.decision.behavior, Behavior::Allow);
    assert!(matches!(
        covered.decision.provenance,
        Some(Provenance::Grant { ref action_id, scope: Scope::Session, .. }) if action_id == "allow_session"
    ));
    engine
        .authorize(
            ToolCall::new("s1", "c5", "Bash", json!({"command": "make clean"})),
            AuthorizeOptions::default(),
        )
        .await
        .unwrap();
    engine.resolve(&"c5".into(), "allow_once").await.unwrap();
    let grants = engine.grants();
    assert_eq!(grants.len(), 2, "allow_once grants nothing");
    assert_eq!(grants[0].scope, Scope::Session);
    assert!(grants[0].applies_in(&"s1".into()) && !grants[0].applies_in(&"s2".into()));
    assert!(
        grants[1].applies_in(&"s1".into()),
        "a global grant applies everywhere"
    );
    assert_eq!(store.grants().await.unwrap(), *grants);
    // The next call's context carries the grants and the keys they must cover.
    let cx = engine.context(&call("c4"), PermissionMode::Default);
    assert!(cx.grants.iter().any(|g| g.covers(&cx.grant_keys)));
}

#[tokio::test]
async fn identical_grants_are_kept_once_and_a_revoked_grant_stops_allowing() {
    let (engine, store, _) = engine(Stance::DefaultAsk, "shell_write").await;
    // Two calls of the same reach wait at once; both are approved for the session.
    for id in ["c1", "c2"] {
        engine
            .authorize(call(id), AuthorizeOptions::default())
            .await
            .unwrap();
    }
    engine.resolve(&"c1".into(), "allow_session").await.unwrap();
    engine.resolve(&"c2".into(), "allow_session").await.unwrap();
    let grants = engine.grants();
    assert_eq!(grants.len(), 1, "the second grant adds nothing: {grants:?}");
    assert_eq!(grants[0].tool_call_id, "c1");
    assert_eq!(store.grants().await.unwrap().len(), 1);

    let revoked = engine.revoke_grant(&grants[0].id).await.unwrap();
    assert_eq!(revoked.id, grants[0].id);
    assert!(engine.grants().is_empty() && store.grants().await.unwrap().is_empty());
    assert!(matches!(
        engine.revoke_grant(&revoked.id).await,
        Err(warrant_core::engine::RevokeError::Unknown(_))
    ));
    let again = engine
        .authorize(call("c3"), AuthorizeOptions::default())
        .await
        .unwrap();
    assert_eq!(again.decision.behavior, Behavior::Ask);
}

#[tokio::test]
async fn approval_actions_say_how_broad_the_grant_is() {
    let (engine, _, _) = engine(Stance::DefaultAsk, "shell_write").await;
    let auth = engine
        .authorize(call("c1"), AuthorizeOptions::default())
        .await
        .unwrap();
    let request = auth.approval.unwrap().request;
    assert_eq!(
        request.action("allow_session").unwrap().label,
        "Allow all \"make deploy\" commands for this session"
    );
}

#[tokio::test]
async fn a_pending_call_id_cannot_be_authorized_twice() {
    let (engine, _, _) = engine(Stance::DefaultAsk, "shell_write").await;
    engine
        .authorize(call("c1"), AuthorizeOptions::default())
        .await
        .unwrap();
    assert!(matches!(
        engine
            .authorize(call("c1"), AuthorizeOptions::default())
            .await,
        Err(EngineError::DuplicateCall(_))
    ));
}

#[tokio::test]
async fn pending_approvals_end_as_interrupted_at_an_engine_restart() {
    let store = Arc::new(MemoryStore::new());
    let chain = || {
        Chain::builder()
            .evaluator(judge(Stance::DefaultAsk, "shell_write"))
            .build()
    };
    let first = Engine::builder(chain())
        .store(store.clone())
        .build()
        .await
        .unwrap();
    first
        .authorize(
            call("c1"),
            AuthorizeOptions {
                announce: true,
                ..Default::default()
            },
        )
        .await
        .unwrap();
    drop(first);
    let second = Engine::builder(chain())
        .store(store.clone())
        .build()
        .await
        .unwrap();
    // The agent that asked lost its waiter with the first engine: the request can no longer
    // become an allow for a call that never ran.
    assert!(second.pending_requests().is_empty());
    assert!(store.pending_approvals().await.unwrap().is_empty());
    assert!(matches!(
        second.resolve(&"c1".into(), "allow_once").await,
        Err(ResolveError::NotPending(_))
    ));
    assert!(
        second
            .complete(&"s1".into(), &"c1".into(), "ran anyway")
            .await
            .is_err()
    );
    let messages = store.messages(&"s1".into()).await.unwrap();
    let MessagePart::Tool(part) = &messages[0].parts[0] else {
        panic!()
    };
    assert!(part.interrupted, "{part:?}");
    assert!(
        part.output.as_deref().unwrap().starts_with("Interrupted"),
        "{part:?}"
    );
    assert!(
        part.permission_decision.is_some(),
        "the part keeps its decision"
    );
    assert!(part.permission_resolution.is_none());
    let audit = store
        .audit_records(&warrant_core::store::AuditQuery::all())
        .await
        .unwrap();
    assert!(matches!(
        audit.last().unwrap().record.event,
        AuditEvent::Expiry { ref reason } if reason.contains("restarted")
    ));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn many_sessions_decide_concurrently() {
    let (engine, store, _) = engine(Stance::PolicyAllow, "shell_read_only").await;
    let tasks: Vec<_> = (0..400)
        .map(|i| {
            let engine = engine.clone();
            tokio::spawn(async move {
                let c = ToolCall::new(
                    format!("s{}", i % 20),
                    format!("c{i}"),
                    "Bash",
                    json!({"command": "ls"}),
                );
                engine
                    .authorize(c, AuthorizeOptions::default())
                    .await
                    .unwrap()
                    .decision
                    .behavior
            })
        })
        .collect();
    for t in tasks {
        assert_eq!(t.await.unwrap(), Behavior::Allow);
    }
    assert_eq!(
        store.audit_records(&AuditQuery::all()).await.unwrap().len(),
        400
    );
}

#[tokio::test]
async fn a_settled_call_id_cannot_be_reused_for_another_input() {
    let (engine, store, _) = engine(Stance::PolicyAllow, "shell_read_only").await;
    engine
        .authorize(call("x1"), AuthorizeOptions::default())
        .await
        .unwrap();
    let mut other = call("x1");
    other.input = json!({"command": "./evil"});
    assert!(matches!(
        engine.authorize(other, AuthorizeOptions::default()).await,
        Err(EngineError::DuplicateCall(_))
    ));
    assert_eq!(
        store.audit_records(&AuditQuery::all()).await.unwrap().len(),
        1
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_calls_with_one_id_are_accepted_once() {
    let (engine, _, _) = engine(Stance::DefaultAsk, "shell_write").await;
    let tasks: Vec<_> = (0..8)
        .map(|_| {
            let engine = engine.clone();
            tokio::spawn(async move {
                engine
                    .authorize(call("same"), AuthorizeOptions::default())
                    .await
                    .is_ok()
            })
        })
        .collect();
    let mut accepted = 0;
    for t in tasks {
        accepted += usize::from(t.await.unwrap());
    }
    assert_eq!(accepted, 1);
}

/// The kinds of a session's audit records, in order.
async fn audit_kinds(store: &MemoryStore) -> Vec<&'static str> {
    store
        .audit_records(&warrant_core::store::AuditQuery::session("s1"))
        .await
        .unwrap()
        .iter()
        .map(|r| match r.record.event {
            AuditEvent::Evaluation { .. } => "evaluation",
            AuditEvent::Resolution { .. } => "resolution",
            AuditEvent::Expiry { .. } => "expiry",
            AuditEvent::Cancel { .. } => "cancel",
            AuditEvent::GrantRevoked { .. } => "grant revoked",
            _ => "other",
        })
        .collect()
}

async fn interrupted_part(store: &MemoryStore, id: &str) -> ToolPart {
    let messages = store.messages(&"s1".into()).await.unwrap();
    let part = messages
        .into_iter()
        .flat_map(|m| m.parts)
        .find_map(|p| match p {
            MessagePart::Tool(t) if t.tool_call_id == id => Some(t),
            _ => None,
        })
        .expect("the part");
    assert!(part.interrupted, "{part:?}");
    part
}

#[tokio::test]
async fn a_cancelled_request_is_audited_says_it_never_ran_and_cannot_be_resolved() {
    let (engine, store, _) = engine(Stance::DefaultAsk, "shell_write").await;
    let auth = engine
        .authorize(call("c1"), AuthorizeOptions::default())
        .await
        .unwrap();
    engine
        .cancel(&"c1".into(), "the run was stopped")
        .await
        .unwrap();
    assert!(engine.pending_requests().is_empty());
    assert!(store.pending_approvals().await.unwrap().is_empty());
    assert!(matches!(
        engine.resolve(&"c1".into(), "allow_once").await,
        Err(ResolveError::NotPending(_))
    ));
    assert!(matches!(
        engine.cancel(&"c1".into(), "again").await,
        Err(ResolveError::NotPending(_))
    ));
    assert!(matches!(
        engine.cancel(&"nope".into(), "unknown").await,
        Err(ResolveError::Unknown(_))
    ));
    assert!(
        auth.settled().await.is_err(),
        "the waiter learns it was abandoned"
    );
    assert_eq!(audit_kinds(&store).await, ["evaluation", "cancel"]);
    let part = interrupted_part(&store, "c1").await;
    assert!(part.output.unwrap().starts_with("Cancelled"));
}

#[tokio::test(start_paused = true)]
async fn an_unanswered_request_expires_after_the_configured_wait() {
    let store = Arc::new(MemoryStore::new());
    let engine = Engine::builder(
        Chain::builder()
            .evaluator(judge(Stance::DefaultAsk, "shell_write"))
            .build(),
    )
    .store(store.clone())
    .limits(warrant_core::engine::EngineLimits {
        approval_timeout: Some(std::time::Duration::from_secs(60)),
        ..Default::default()
    })
    .build()
    .await
    .unwrap();
    let auth = engine
        .authorize(call("c1"), AuthorizeOptions::default())
        .await
        .unwrap();
    tokio::time::sleep(std::time::Duration::from_secs(30)).await;
    assert_eq!(engine.pending_requests().len(), 1, "not yet");
    assert!(
        auth.settled().await.is_err(),
        "expired after 60 s: never runs"
    );
    assert!(engine.pending_requests().is_empty());
    assert!(matches!(
        engine.resolve(&"c1".into(), "allow_once").await,
        Err(ResolveError::NotPending(_))
    ));
    assert_eq!(audit_kinds(&store).await, ["evaluation", "expiry"]);
    interrupted_part(&store, "c1").await;

    // A request resolved in time is not touched by its timer.
    let auth = engine
        .authorize(call("c2"), AuthorizeOptions::default())
        .await
        .unwrap();
    engine.resolve(&"c2".into(), "allow_once").await.unwrap();
    assert_eq!(auth.settled().await.unwrap().0, Behavior::Allow);
    tokio::time::sleep(std::time::Duration::from_secs(120)).await;
    assert_eq!(
        audit_kinds(&store).await,
        ["evaluation", "expiry", "evaluation", "resolution"]
    );
}

#[tokio::test(start_paused = true)]
async fn an_agent_that_stops_waiting_withdraws_its_request() {
    let (engine, store, _) = engine(Stance::DefaultAsk, "shell_write").await;
    let auth = engine
        .authorize(call("c1"), AuthorizeOptions::default())
        .await
        .unwrap();
    let waited = tokio::time::timeout(std::time::Duration::from_secs(5), auth.settled()).await;
    assert!(waited.is_err(), "nobody answered within 5 s");
    // The withdrawal runs on the runtime once the wait is dropped.
    for _ in 0..10 {
        if engine.pending_requests().is_empty() {
            break;
        }
        tokio::task::yield_now().await;
    }
    assert!(engine.pending_requests().is_empty());
    assert_eq!(audit_kinds(&store).await, ["evaluation", "cancel"]);
    assert!(engine.resolve(&"c1".into(), "allow_once").await.is_err());

    // Dropping the handle without waiting hands the request to the user's other channels.
    let handed_over = engine
        .authorize(call("c2"), AuthorizeOptions::default())
        .await
        .unwrap();
    drop(handed_over);
    tokio::task::yield_now().await;
    assert_eq!(engine.pending_requests().len(), 1);
    engine.resolve(&"c2".into(), "allow_once").await.unwrap();
}

#[tokio::test]
async fn revoking_a_grant_removes_its_stored_duplicates_too() {
    let (engine, store, _) = engine(Stance::DefaultAsk, "shell_write").await;
    engine
        .authorize(call("c1"), AuthorizeOptions::default())
        .await
        .unwrap();
    engine.resolve(&"c1".into(), "allow_session").await.unwrap();
    let kept = engine.grants()[0].clone();
    // Another process recorded the same reach under another approval.
    let twin = Grant {
        id: Grant::id_for(&"s1".into(), &"elsewhere".into()),
        tool_call_id: "elsewhere".to_owned().into(),
        ..kept.clone()
    };
    store.put_grant(&twin).await.unwrap();
    engine.revoke_grant(&kept.id).await.unwrap();
    assert!(
        store.grants().await.unwrap().is_empty(),
        "no duplicate survives to allow again after a restart"
    );
    let restarted = Engine::builder(
        Chain::builder()
            .evaluator(judge(Stance::DefaultAsk, "shell_write"))
            .build(),
    )
    .store(store.clone())
    .build()
    .await
    .unwrap();
    let again = restarted
        .authorize(call("c2"), AuthorizeOptions::default())
        .await
        .unwrap();
    assert_eq!(again.decision.behavior, Behavior::Ask);
}

#[tokio::test]
async fn a_request_carries_the_redacted_input_and_takes_a_typed_choice() {
    use warrant_core::approval::ApprovalChoice;
    let (engine, _, _) = engine(Stance::DefaultAsk, "shell_write").await;
    let secret = "ghp_abcdefghijklmnopqrstuvwxyz0123456789";
    let auth = engine
        .authorize(
            ToolCall::new(
                "s1",
                "c1",
                "Bash",
                json!({"command": format!("curl -H 'Authorization: token {secret}' https://api.github.com")}),
            ),
            AuthorizeOptions::default(),
        )
        .await
        .unwrap();
    let request = &auth.approval.as_ref().unwrap().request;
    let command = request.input.as_ref().unwrap()["command"].as_str().unwrap();
    assert!(command.starts_with("curl -H"), "{command}");
    assert!(!command.contains(secret), "redacted: {command}");
    let resolution = engine
        .resolve_choice(&"c1".into(), ApprovalChoice::AllowSession)
        .await
        .unwrap();
    assert_eq!(resolution.action_id, "allow_session");
    assert_eq!(resolution.scope, Scope::Session);
}

#[tokio::test]
async fn the_engine_verifies_its_stores_audit_log() {
    let (engine, _, _) = engine(Stance::DefaultAsk, "shell_write").await;
    engine
        .authorize(call("c1"), AuthorizeOptions::default())
        .await
        .unwrap();
    engine.resolve(&"c1".into(), "deny").await.unwrap();
    let report = engine.verify_audit(None).await.unwrap();
    assert!(report.is_intact(), "{report}");
    assert_eq!(report.records, 2);
    assert!(!report.is_keyed(), "the memory store keeps no keyed chain");
    assert!(report.to_string().contains("no keyed chain"), "{report}");
}

#[tokio::test]
async fn a_result_is_reported_with_the_permit_of_an_allowed_call_only() {
    let (engine, store, _) = engine(Stance::DefaultAsk, "shell_write").await;
    let asked = engine
        .authorize(call("c1"), AuthorizeOptions::default())
        .await
        .unwrap();
    let denied = engine
        .authorize(call("c2"), AuthorizeOptions::default())
        .await
        .unwrap();
    engine.resolve(&"c1".into(), "allow_once").await.unwrap();
    engine.resolve(&"c2".into(), "deny").await.unwrap();
    let permit = asked.permit().await.unwrap();
    assert_eq!(permit.tool_call_id(), "c1");
    engine.report(permit, "done").await.unwrap();
    assert!(matches!(
        denied.permit().await,
        Err(NotPermitted::Denied(id)) if id == "c2"
    ));
    let messages = store.messages(&"s1".into()).await.unwrap();
    let done = messages
        .iter()
        .flat_map(|m| &m.parts)
        .any(|p| matches!(p, MessagePart::Tool(t) if t.tool_call_id == "c1" && t.output.as_deref() == Some("done")));
    assert!(done);
}

#[tokio::test]
async fn an_announced_call_refused_by_the_audit_log_logs_and_streams_nothing() {
    let (engine, store, _) = engine(Stance::PolicyAllow, "shell_read_only").await;
    let announced = AuthorizeOptions {
        announce: true,
        ..Default::default()
    };
    engine.authorize(call("r1"), announced).await.unwrap();
    let logged = store.events_since(&"s1".into(), 0, 100).await.unwrap();
    assert_eq!(
        names(&logged.iter().map(|e| e.event.clone()).collect::<Vec<_>>()),
        [
            "TOOL_CALL_START",
            "TOOL_CALL_ARGS",
            "TOOL_CALL_END",
            TOOL_PERMISSION_DECISION
        ],
        "the announcement and the decision are logged together, in order"
    );
    // After a restart the engine no longer holds the id; the store refuses its second
    // evaluation, and the decision is written as one unit with its announcement.
    let transport = Arc::new(MemoryTransport::new());
    let restarted = Engine::builder(
        Chain::builder()
            .evaluator(judge(Stance::PolicyAllow, "shell_read_only"))
            .build(),
    )
    .store(store.clone())
    .transport(transport.clone())
    .build()
    .await
    .unwrap();
    let mut rx = transport.subscribe(&"s1".into());
    assert!(matches!(
        restarted.authorize(call("r1"), announced).await,
        Err(EngineError::DuplicateCall(_))
    ));
    assert!(
        drain(&mut rx).is_empty(),
        "nothing of the refused call is streamed"
    );
    assert_eq!(
        store
            .events_since(&"s1".into(), 0, 100)
            .await
            .unwrap()
            .len(),
        logged.len(),
        "nothing of the refused call is logged"
    );
    assert_eq!(
        store.audit_records(&AuditQuery::all()).await.unwrap().len(),
        1
    );
}
