//! The store as the engine uses it: audit before emit, pending approvals restored at build,
//! tool parts upserted per event.

use std::sync::{Arc, Mutex};
use warrant_core::ids::SessionId;

use async_trait::async_trait;
use serde_json::json;
use warrant_core::audit::AuditEvent;
use warrant_core::call::{EvaluationContext, PermissionMode, ToolCall};
use warrant_core::chain::Chain;
use warrant_core::decision::{Behavior, PermissionDecisionSource, Risk};
use warrant_core::engine::{AuthorizeOptions, Engine};
use warrant_core::evaluator::{Evaluator, EvaluatorError, Rationale, Stance, Verdict};
use warrant_core::event::{Event, WarrantEvent};
use warrant_core::events::Item;
use warrant_core::part::ToolPart;
use warrant_core::store::{AuditQuery, Store};
use warrant_core::transport::{Transport, TransportError};

use super::Subject;

/// Allows `view` as a read-only policy would, and has nothing to say about anything else.
pub(crate) struct ViewIsReadOnly;

#[async_trait]
impl Evaluator for ViewIsReadOnly {
    fn name(&self) -> &str {
        "policy"
    }

    fn source(&self) -> PermissionDecisionSource {
        PermissionDecisionSource::Policy
    }

    async fn evaluate(
        &self,
        call: &ToolCall,
        _: &EvaluationContext,
    ) -> Result<Verdict, EvaluatorError> {
        Ok(match call.tool_name.as_str() {
            "view" => Verdict::decide(
                Stance::PolicyAllow,
                Rationale::new(
                    "read_only_tool",
                    "Reading a file changes nothing.",
                    Risk::Safe,
                ),
            ),
            _ => Verdict::Abstain,
        })
    }
}

pub(crate) async fn engine(
    store: &Arc<dyn Store>,
    transport: Option<Arc<dyn Transport>>,
) -> Engine {
    let chain = Chain::builder().evaluator(ViewIsReadOnly).build();
    let mut builder = Engine::builder(chain).store(Arc::clone(store));
    if let Some(transport) = transport {
        builder = builder.transport(transport);
    }
    builder
        .build()
        .await
        .expect("the engine builds from the store")
}

/// A call that asks (`Bash`) or one the policy allows (`view`).
pub(crate) fn call(id: &str, tool: &str) -> ToolCall {
    ToolCall::new(
        "s1",
        id,
        tool,
        json!({"command": "git push", "path": "README.md"}),
    )
}

pub(crate) const OPTIONS: AuthorizeOptions = AuthorizeOptions {
    mode: PermissionMode::Default,
    announce: true,
};

async fn part(store: &Arc<dyn Store>, id: &str) -> ToolPart {
    let parts = super::sample::tool_parts(store.messages(&"s1".into()).await.unwrap());
    let part = parts.into_iter().find(|p| p.tool_call_id == id);
    part.expect("the call's tool part is persisted")
}

/// A pending approval ends as interrupted at an engine restart.
pub async fn a_pending_approval_ends_as_interrupted_at_an_engine_restart(mut s: Subject) {
    let first = engine(&s.store, None).await;
    let asked = first.authorize(call("c1", "Bash"), OPTIONS).await.unwrap();
    assert_eq!(asked.decision.behavior, Behavior::Ask);
    drop((asked, first));

    s.restart();
    let second = engine(&s.store, None).await;
    assert!(second.pending_requests().is_empty());
    assert!(
        second.resolve(&"c1".into(), "allow_once").await.is_err(),
        "a request cut short by a restart never becomes an allow"
    );
    assert!(s.store.pending_approvals().await.unwrap().is_empty());
    let audit = s
        .store
        .audit_records(&AuditQuery::session("s1"))
        .await
        .unwrap();
    let kinds: Vec<&str> = audit
        .iter()
        .map(|r| match r.record.event {
            AuditEvent::Evaluation { .. } => "evaluation",
            AuditEvent::Resolution { .. } => "resolution",
            AuditEvent::Expiry { .. } => "expiry",
            AuditEvent::Cancel { .. } => "cancel",
            AuditEvent::GrantRevoked { .. } => "grant revoked",
            _ => "other",
        })
        .collect();
    assert_eq!(kinds, ["evaluation", "expiry"]);
    let part = part(&s.store, "c1").await;
    assert!(part.interrupted);
    assert_eq!(
        part.permission_decision.map(|d| d.behavior),
        Some(Behavior::Ask)
    );
    assert_eq!(part.permission_resolution, None);

    // A second restart finds nothing left to interrupt.
    s.restart();
    let third = engine(&s.store, None).await;
    assert!(third.pending_requests().is_empty());
    let records = s.store.audit_records(&AuditQuery::session("s1")).await;
    assert_eq!(records.unwrap().len(), 2);
}

/// Records, for every decision event, whether the store already held its audit record.
struct AuditedFirst {
    store: Arc<dyn Store>,
    seen: Mutex<Vec<(String, bool)>>,
}

#[async_trait]
impl Transport for AuditedFirst {
    async fn emit(&self, session_id: &SessionId, event: &Event) -> Result<(), TransportError> {
        if let Some(Ok(WarrantEvent::Decision(d))) = event.warrant() {
            let records = self
                .store
                .audit_records(&AuditQuery::session(session_id))
                .await;
            let records = records.map_err(|e| TransportError::new(e.to_string()))?;
            let audited = records.iter().any(|r| {
                r.record.tool_call_id == d.tool_call_id
                    && matches!(r.record.event, AuditEvent::Evaluation { .. })
            });
            self.seen
                .lock()
                .unwrap()
                .push((d.tool_call_id.to_string(), audited));
        }
        Ok(())
    }
}

/// A decision is audited before it is emitted.
pub async fn a_decision_is_audited_before_it_is_emitted(s: Subject) {
    let wire = Arc::new(AuditedFirst {
        store: Arc::clone(&s.store),
        seen: Mutex::new(Vec::new()),
    });
    let engine = engine(&s.store, Some(wire.clone())).await;
    engine.authorize(call("c1", "view"), OPTIONS).await.unwrap();
    engine.authorize(call("c2", "Bash"), OPTIONS).await.unwrap();
    let seen = wire.seen.lock().unwrap().clone();
    assert_eq!(seen, [("c1".to_owned(), true), ("c2".to_owned(), true)]);
}

/// A decision reaches the session's subscribers (the SSE feed) only once its audit record
/// and its tool part are in the store: an allow (one unit, where the store records
/// decisions as one) and an ask.
pub async fn a_decision_reaches_subscribers_only_once_audited(s: Subject) {
    let engine = engine(&s.store, None).await;
    let mut sub = engine.subscribe(&"s1".into(), 0);
    let store = Arc::clone(&s.store);
    let watch = async move {
        let mut seen = Vec::new();
        while seen.len() < 2 {
            let item = tokio::time::timeout(std::time::Duration::from_secs(10), sub.next()).await;
            let Ok(Some(Item::Event(logged))) = item else {
                panic!("expected an event, got {item:?}");
            };
            if let Some(Ok(WarrantEvent::Decision(d))) = logged.event.warrant() {
                let id = d.tool_call_id.clone();
                let audited = store.evaluation_of(&id).await.unwrap().is_some();
                let parts = super::sample::tool_parts(store.messages(&"s1".into()).await.unwrap());
                let persisted = parts
                    .iter()
                    .any(|p| p.tool_call_id == id && p.permission_decision.is_some());
                seen.push((id.to_string(), audited, persisted));
            }
        }
        seen
    };
    let decide = async {
        let allowed = engine.authorize(call("c1", "view"), OPTIONS).await.unwrap();
        assert_eq!(allowed.decision.behavior, Behavior::Allow);
        let asked = engine.authorize(call("c2", "Bash"), OPTIONS).await.unwrap();
        assert_eq!(asked.decision.behavior, Behavior::Ask);
    };
    let (seen, ()) = tokio::join!(watch, decide);
    assert_eq!(
        seen,
        [("c1".to_owned(), true, true), ("c2".to_owned(), true, true)]
    );
}

/// A settled call never enters the pending list.
pub async fn a_settled_call_never_enters_the_pending_list(s: Subject) {
    let engine = engine(&s.store, None).await;
    let allowed = engine.authorize(call("c1", "view"), OPTIONS).await.unwrap();
    assert_eq!(allowed.decision.behavior, Behavior::Allow);
    assert!(s.store.pending_approvals().await.unwrap().is_empty());
    assert_eq!(
        part(&s.store, "c1").await.permission_decision,
        Some(allowed.decision)
    );
}
