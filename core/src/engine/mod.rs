//! The engine: authorize a call through the chain, audit it, emit its events, ask the user
//! when needed, and accept the user's resolution.

mod builder;
mod calls;
mod error;
mod grants;
mod resolve;
mod result;
mod workspace;

use crate::ids::{SessionId, ToolCallId};
use std::collections::VecDeque;
use std::path::PathBuf;
use std::sync::atomic::AtomicU64;
use std::sync::{Arc, Mutex};
use std::task::Poll;

use arc_swap::ArcSwap;
use dashmap::DashMap;
use serde_json::Value;
use tokio::sync::oneshot;

pub use builder::EngineBuilder;
pub use calls::EngineLimits;
pub use error::{
    Abandoned, EngineError, ResolveError, ResultError, RevokeError, WorkspaceUpdateError,
};
pub use resolve::{Arbiter, WorkspaceLock};

use calls::{Awaiting, Outcome, Settled, Stage, Tracked};

use crate::approval::{Recommendation, ToolApprovalRequest};
use crate::audit::{AuditEvent, AuditRecord, digest_of_json};
use crate::call::{EvaluationContext, PermissionMode, ToolCall};
use crate::catalog::ToolCatalog;
use crate::chain::{Chain, ChainTrace};
use crate::decision::{Behavior, ToolPermissionDecision, ToolPermissionResolution};
use crate::event::{
    AgentEvent, Event, ToolCallArgs, ToolCallEnd, ToolCallStart, WarrantEvent, now_millis,
};
use crate::events::{AllSubscription, EventHub, Subscription};
use crate::grant::{Grant, GrantScoper};
use crate::part::ToolPart;
use crate::sanitize;
use crate::store::{DecisionRecord, PendingApproval, Store};
use crate::transport::Transport;
use crate::workspace::WorkspaceState;

/// How one call is to be authorized.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct AuthorizeOptions {
    /// The permission mode.
    pub mode: PermissionMode,
    /// Emit `TOOL_CALL_START`/`ARGS`/`END` for the call before deciding it (leave off when
    /// the agent already streamed them).
    pub announce: bool,
}

/// The outcome of [`Engine::authorize`]: the decision, and for `ask` the pending approval.
#[derive(Debug)]
pub struct Authorization {
    /// The decision, as streamed.
    pub decision: ToolPermissionDecision,
    /// The trace of the chain (kept in the audit log; never streamed).
    pub trace: ChainTrace,
    /// Present when the decision is `ask`.
    pub approval: Option<PendingResolution>,
    /// The session of the call (for the [`Permit`]).
    session_id: SessionId,
}

/// Proof that a call may run: made only by [`Authorization::permit`] for an allowed call (by
/// the decision or the user), and consumed by [`Engine::report`], so a result can only be
/// reported for a call that was allowed, once.
#[derive(Debug)]
#[must_use = "run the call, then report its result with Engine::report"]
pub struct Permit {
    session_id: SessionId,
    tool_call_id: ToolCallId,
}

impl Permit {
    /// The call it permits.
    pub fn tool_call_id(&self) -> &ToolCallId {
        &self.tool_call_id
    }
}

/// Why a call may not run.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum NotPermitted {
    /// The decision or the user denied it.
    #[error("tool call \"{0}\" was denied")]
    Denied(ToolCallId),
    /// Its approval request ended unanswered (expired, cancelled, interrupted).
    #[error(transparent)]
    Abandoned(#[from] Abandoned),
}

impl Authorization {
    /// Waits for the user when the decision asked; answers a [`Permit`] when the call may
    /// run.
    ///
    /// # Errors
    ///
    /// [`NotPermitted`]: denied, or the request ended unanswered. The call must not run.
    pub async fn permit(self) -> Result<Permit, NotPermitted> {
        let session_id = self.session_id.clone();
        let tool_call_id = self.decision.tool_call_id.clone();
        match self.settled().await? {
            (Behavior::Allow, _) => Ok(Permit {
                session_id,
                tool_call_id,
            }),
            _ => Err(NotPermitted::Denied(tool_call_id)),
        }
    }

    /// Waits for the user when the decision asked; returns the final behaviour (`allow` or
    /// `deny`) with the resolution when there was one.
    ///
    /// # Errors
    ///
    /// [`Abandoned`] when the request can no longer be resolved; the call must not run.
    pub async fn settled(self) -> Result<(Behavior, Option<ToolPermissionResolution>), Abandoned> {
        match self.approval {
            None => Ok((self.decision.behavior, None)),
            Some(pending) => {
                let resolution = pending.resolution().await?;
                Ok((resolution.behavior.into(), Some(resolution)))
            }
        }
    }
}

/// A pending approval request and the means to wait for its resolution.
///
/// Dropping it without waiting leaves the request to the user's other channels (the UI,
/// `POST /v1/approvals`): that is how transports hand a request over. Waiting and then giving
/// up — dropping the [`resolution`](Self::resolution) future, as a timeout around it does —
/// withdraws the request: it is audited as `Cancel` and can no longer be resolved.
#[derive(Debug)]
pub struct PendingResolution {
    /// The request, as streamed.
    pub request: ToolApprovalRequest,
    receiver: oneshot::Receiver<ToolPermissionResolution>,
    engine: std::sync::Weak<Inner>,
}

impl PendingResolution {
    /// Waits for the user's resolution.
    ///
    /// # Errors
    ///
    /// [`Abandoned`] when the request ended unresolved (expired, cancelled, interrupted) or
    /// the engine went away: the call must not run.
    pub async fn resolution(self) -> Result<ToolPermissionResolution, Abandoned> {
        let id = self.request.tool_call_id.clone();
        let mut guard = GiveUp {
            engine: self.engine,
            tool_call_id: id.clone(),
            armed: true,
        };
        let answer = self.receiver.await;
        guard.armed = false;
        answer.map_err(|_| Abandoned(id))
    }
}

/// Withdraws a request whose waiter was dropped before the user answered.
struct GiveUp {
    engine: std::sync::Weak<Inner>,
    tool_call_id: ToolCallId,
    armed: bool,
}

impl Drop for GiveUp {
    fn drop(&mut self) {
        if !self.armed {
            return;
        }
        let (Some(inner), Ok(runtime)) =
            (self.engine.upgrade(), tokio::runtime::Handle::try_current())
        else {
            return;
        };
        let engine = Engine { inner };
        let id = std::mem::take(&mut self.tool_call_id);
        runtime.spawn(async move {
            // Already resolved or ended: nothing to withdraw.
            let _ = engine
                .cancel(&id, "the agent stopped waiting for the user's answer")
                .await;
        });
    }
}

struct Pending {
    session_id: SessionId,
    message_id: String,
    request: ToolApprovalRequest,
    waiter: Option<oneshot::Sender<ToolPermissionResolution>>,
    grant_keys: Vec<crate::grant::GrantKey>,
    tool_name: String,
    /// The agent whose call asked (empty when unknown, as for a request restored from a store).
    agent: String,
    /// Set while one resolution is being recorded: concurrent ones are refused (409).
    resolving: bool,
}

struct Inner {
    chain: Chain,
    store: Arc<dyn Store>,
    transport: Arc<dyn Transport>,
    /// Logs every event in the store's event log, then hands it to live subscribers.
    events: EventHub,
    scoper: Arc<dyn GrantScoper>,
    workspace_root: PathBuf,
    workspace: ArcSwap<WorkspaceState>,
    catalog: ArcSwap<ToolCatalog>,
    /// Serializes workspace changes (read, apply, persist, install); never taken by decisions.
    workspace_writer: tokio::sync::Mutex<()>,
    grants: ArcSwap<Vec<Grant>>,
    pending: DashMap<ToolCallId, Pending>,
    /// The pending ids, oldest first (ids resolved meanwhile are skipped).
    pending_order: Mutex<VecDeque<ToolCallId>>,
    tracked: DashMap<ToolCallId, Tracked>,
    awaiting: Mutex<Awaiting>,
    settled: DashMap<ToolCallId, Settled>,
    settled_count: AtomicU64,
    limits: EngineLimits,
    /// What instances sharing the store arbitrate (unset: this one alone).
    instances: std::sync::OnceLock<Arc<dyn Arbiter>>,
}

/// A tool part's write, started before the event that reports it.
enum PartWrite {
    /// No part to write.
    Nothing,
    /// Queued in the store; resolves once durable.
    Started(futures::future::BoxFuture<'static, Result<(), crate::store::StoreError>>),
    /// The store does not start upserts: written, awaited, before the event (session,
    /// message, part).
    Unstarted(Box<(SessionId, String, ToolPart)>),
}

/// Authorizes tool calls: chain → audit → emit → (ask → resolve) → result.
///
/// Cheap to clone; every clone shares the same pending approvals. Many sessions and calls run
/// concurrently: the decision path takes no global lock.
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// use warrant_core::prelude::*;
/// use warrant_core::testkit::evaluator_fn;
///
/// // Deploys wait for a person; everything else is left open (`default` mode asks).
/// let guard = evaluator_fn("deploy_guard", PermissionDecisionSource::Policy, |call, _cx| {
///     if call.tool_name == "read" {
///         Verdict::decide(Stance::PolicyAllow, Rationale::new("plugin_guard_read", "Reads are harmless.", Risk::Safe))
///     } else {
///         Verdict::Abstain
///     }
/// });
/// let engine = Engine::builder(Chain::builder().evaluator(guard).build())
///     .build()
///     .await
///     .unwrap();
///
/// let read = ToolCall::new("s1", "c1", "read", serde_json::json!({"path": "README.md"}));
/// let authorization = engine.authorize(read, AuthorizeOptions::default()).await.unwrap();
/// assert_eq!(authorization.decision.behavior, Behavior::Allow);
///
/// let deploy = ToolCall::new("s1", "c2", "deploy", serde_json::json!({"env": "prod"}));
/// let authorization = engine.authorize(deploy, AuthorizeOptions::default()).await.unwrap();
/// assert_eq!(authorization.decision.behavior, Behavior::Ask);
/// engine.resolve(&ToolCallId::new("c2"), "deny").await.unwrap();
/// let (behavior, _) = authorization.settled().await.unwrap();
/// assert_eq!(behavior, Behavior::Deny);
/// # }
/// ```
#[derive(Clone)]
pub struct Engine {
    inner: Arc<Inner>,
}

impl std::fmt::Debug for Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let inner = &self.inner;
        f.debug_struct("Engine")
            .field("chain", &inner.chain)
            .field("workspace_root", &inner.workspace_root)
            .field("pending", &inner.pending.len())
            .field("tracked", &inner.tracked.len())
            .field("grants", &inner.grants.load().len())
            .field("limits", &inner.limits)
            .finish_non_exhaustive()
    }
}

impl Engine {
    /// Starts an engine around a chain.
    pub fn builder(chain: Chain) -> EngineBuilder {
        EngineBuilder::new(chain)
    }

    /// The store.
    pub fn store(&self) -> &Arc<dyn Store> {
        &self.inner.store
    }

    /// The hub every event of this engine is logged and published through (the store's
    /// event log, then live subscribers, then the transports).
    pub fn events(&self) -> &EventHub {
        &self.inner.events
    }

    /// A session's events after position `after` (its event id, SSE's `Last-Event-ID`; 0
    /// for the oldest event the store retains): the logged ones first, then the live ones,
    /// each exactly once and in the order they were emitted, whatever the transports.
    ///
    /// A subscriber that falls behind the live feed resumes from the store's event log with
    /// no gap and no duplicate; events the store no longer retains come as
    /// [`Item::Missed`](crate::events::Item::Missed).
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() {
    /// use futures::StreamExt;
    /// use warrant_core::engine::Engine;
    /// use warrant_core::event::{AgentEvent, TextMessageContent};
    /// use warrant_core::events::Item;
    /// use warrant_core::chain::Chain;
    /// use warrant_core::SessionId;
    ///
    /// let engine = Engine::builder(Chain::builder().build()).build().await.unwrap();
    /// let session = SessionId::new("s1");
    /// let say = |text: &str| {
    ///     AgentEvent::TextMessageContent(TextMessageContent {
    ///         message_id: "m1".into(),
    ///         delta: text.into(),
    ///         timestamp: None,
    ///     })
    /// };
    /// engine.emit(&session, say("one")).await;
    /// engine.emit(&session, say("two")).await;
    ///
    /// // A client that saw event 1 resumes with event 2, then follows live.
    /// let mut events = engine.subscribe(&session, 1);
    /// let Some(Item::Event(two)) = events.next().await else { panic!() };
    /// assert_eq!(two.seq, 2);
    /// engine.emit(&session, say("three")).await;
    /// let Some(Item::Event(three)) = events.next().await else { panic!() };
    /// assert_eq!(three.seq, 3);
    /// # }
    /// ```
    pub fn subscribe(&self, session_id: &SessionId, after: u64) -> Subscription {
        self.inner.events.subscribe(session_id, after)
    }

    /// The events of every session from now on, each tagged with its session and its
    /// position in that session's log. Nothing logged before is replayed; a subscriber that
    /// falls behind resumes each session it missed events of from the store's event log, so
    /// every session's events come in order, each once. See [`AllSubscription`].
    pub fn subscribe_all(&self) -> AllSubscription {
        self.inner.events.subscribe_all()
    }

    /// The chain.
    pub fn chain(&self) -> &Chain {
        &self.inner.chain
    }

    /// The current workspace state.
    pub fn workspace(&self) -> Arc<WorkspaceState> {
        self.inner.workspace.load_full()
    }

    /// The grants in force.
    pub fn grants(&self) -> Arc<Vec<Grant>> {
        self.inner.grants.load_full()
    }

    /// The agent whose call a pending request is about (empty when unknown); `None` when no
    /// request of that id is pending.
    pub fn request_agent(&self, tool_call_id: &ToolCallId) -> Option<String> {
        self.inner
            .pending
            .get(tool_call_id)
            .map(|p| p.agent.clone())
    }

    /// The approval requests awaiting the user, oldest first.
    pub fn pending_requests(&self) -> Vec<ToolApprovalRequest> {
        let mut out: Vec<ToolApprovalRequest> = self
            .inner
            .pending
            .iter()
            .map(|p| p.request.clone())
            .collect();
        out.sort_by_key(|r| (r.requested_at, r.tool_call_id.clone()));
        out
    }

    /// The context a call of a session is evaluated in.
    pub fn context(&self, call: &ToolCall, mode: PermissionMode) -> EvaluationContext {
        let grants: Vec<Grant> = self
            .inner
            .grants
            .load()
            .iter()
            .filter(|g| g.applies_in(&call.session_id))
            .cloned()
            .collect();
        let mut cx = EvaluationContext {
            mode,
            workspace_root: self.inner.workspace_root.clone(),
            policy: Arc::new(
                self.inner
                    .workspace
                    .load()
                    .effective_policy(&call.session_id),
            ),
            catalog: self.inner.catalog.load_full(),
            grants: Arc::new(grants),
            grant_keys: Vec::new(),
            open_risk: None,
            analysis: crate::call::Analysis::default(),
        };
        cx.grant_keys = self.inner.scoper.keys_in(call, &cx);
        cx
    }

    /// Decides one call.
    ///
    /// The decision is audited before anything about it is emitted; then
    /// `tool_permission_decision` is emitted, and for `ask` a `tool_approval_request` too.
    /// Await [`Authorization::settled`] to wait for the user.
    ///
    /// # Errors
    ///
    /// [`EngineError`] when the decision could not be audited or the id is already pending:
    /// the call must not run.
    #[tracing::instrument(
        level = "debug",
        name = "authorize",
        skip_all,
        fields(
            session_id = %call.session_id,
            tool_call_id = %call.tool_call_id,
            tool = %call.tool_name,
            mode = ?options.mode,
        )
    )]
    pub async fn authorize(
        &self,
        call: ToolCall,
        options: AuthorizeOptions,
    ) -> Result<Authorization, EngineError> {
        let inner = &self.inner;
        let message_id = call
            .message_id
            .clone()
            .unwrap_or_else(|| format!("msg-{}", call.tool_call_id));
        // The input as it may be streamed and stored, redacted once for the part and for the
        // announcement's arguments.
        let redacted_input = sanitize::redact_value(&call.input);
        // The input encoded once: its size (bounding what is kept in memory) and its digest
        // (in the audit record).
        let input_json = serde_json::to_vec(&call.input).unwrap_or_default();
        // Reserve the id atomically: an id in flight, pending or settled is never reused, so
        // a second call cannot overwrite the part or the approval of the first.
        match inner.tracked.entry(call.tool_call_id.clone()) {
            dashmap::Entry::Occupied(_) => {
                return Err(EngineError::DuplicateCall(call.tool_call_id));
            }
            dashmap::Entry::Vacant(slot) => {
                if inner.pending.contains_key(&call.tool_call_id)
                    || inner.settled.contains_key(&call.tool_call_id)
                {
                    return Err(EngineError::DuplicateCall(call.tool_call_id));
                }
                let mut part = ToolPart::new(call.tool_call_id.clone(), call.tool_name.clone());
                // The (redacted) input rides with the part, so a request restored after a
                // restart can derive the same grant its actions promised.
                part.input = Some(redacted_input.clone());
                slot.insert(Tracked {
                    session_id: call.session_id.clone(),
                    message_id: message_id.clone(),
                    part: Some(part),
                    stage: Stage::Deciding,
                    size: input_json.len(),
                });
            }
        }
        let cx = self.context(&call, options.mode);
        let mut announcement = options
            .announce
            .then(|| self.announcement(&call, &message_id, &redacted_input));
        // A chain that decides without waiting (every built-in evaluator) lets the
        // announcement and the audit record share one commit below. One that waits (a
        // reviewer, a plugin) gets the announcement out first, so the call shows while it is
        // being decided.
        let outcome = {
            let mut deciding = std::pin::pin!(inner.chain.decide(&call, &cx));
            match futures::poll!(deciding.as_mut()) {
                Poll::Ready(outcome) => outcome,
                Poll::Pending => {
                    if let Some(events) = announcement.take() {
                        let batch = inner.events.start_batch(&call.session_id, &events).await;
                        self.deliver_batch(&call.session_id, batch).await;
                    }
                    deciding.await
                }
            }
        };
        let mut decision = outcome.decision;
        sanitize::decision(&mut decision);
        let mut trace = outcome.trace;
        sanitize::trace(&mut trace);

        let at = now_millis();
        let input_digest = digest_of_json(&input_json);
        drop(input_json);
        let record = || AuditRecord {
            at,
            session_id: call.session_id.clone(),
            tool_call_id: call.tool_call_id.clone(),
            tool_name: call.tool_name.clone(),
            event: AuditEvent::Evaluation {
                mode: options.mode,
                input_digest: input_digest.clone(),
                decision: decision.clone(),
                trace: trace.clone(),
            },
        };
        let id = call.tool_call_id.clone();
        // An allow or a deny is settled by its decision: its announcement (when it was not
        // sent while the chain waited), audit record, tool part and decision event go to the
        // store as one unit, one write and one commit to wait for, and are handed out in that
        // order once durable. An ask opens a request before its decision is emitted, so it is
        // audited first, its announcement queued just before (one commit can hold both; the
        // announcement is handed out once durable, the decision only once the audit record
        // is).
        let mut batch = None;
        let (audit, decision_event) = if decision.behavior == Behavior::Ask {
            if let Some(events) = &announcement {
                batch = Some(inner.events.start_batch(&call.session_id, events).await);
            }
            (self.start_audit(record()), None)
        } else {
            let event = WarrantEvent::Decision(decision.clone()).into_event(Some(now_millis()));
            let mut events = announcement.take().unwrap_or_default();
            events.push(event);
            let unit = DecisionRecord {
                audit: record(),
                message_id: message_id.clone(),
                part: self.merge_decision_into_part(&id, &decision),
                events,
            };
            match Box::pin(inner.events.start_decision(&call.session_id, unit)).await {
                Ok(started) => {
                    let allowed = decision.behavior == Behavior::Allow;
                    let durable = started
                        .finish(|_| {
                            // Before the decision leaves: a result may follow it at once.
                            if allowed {
                                self.set_stage(&id, Stage::Allowed);
                            }
                        })
                        .await;
                    let logged = match durable {
                        Ok(logged) => logged,
                        Err(source) => return Err(self.unaudited(call.tool_call_id, source)),
                    };
                    for event in logged {
                        self.deliver(&call.session_id, &event.event, Ok(Arc::clone(&event)))
                            .await;
                    }
                    self.settle_decided(&id, decision.behavior);
                    return Ok(Authorization {
                        decision,
                        trace,
                        approval: None,
                        session_id: call.session_id.clone(),
                    });
                }
                // The store writes it in two steps: the announcement (as a batch of events)
                // and the audit record queued first, below; then the decision event.
                Err(unit) => {
                    let DecisionRecord {
                        audit, mut events, ..
                    } = *unit;
                    let decision_event = events.pop();
                    if !events.is_empty() {
                        announcement = Some(events);
                        if let Some(events) = &announcement {
                            batch = Some(inner.events.start_batch(&call.session_id, events).await);
                        }
                    }
                    (self.start_audit(audit), decision_event)
                }
            }
        };
        if let Some(batch) = batch {
            self.deliver_batch(&call.session_id, batch).await;
        }
        if let Err(source) = audit.await {
            return Err(self.unaudited(call.tool_call_id, source));
        }

        let approval = match decision.behavior {
            Behavior::Ask => {
                match Box::pin(self.open_request(&call, &message_id, &decision, &cx.grant_keys))
                    .await
                {
                    Ok(pending) => Some(pending),
                    Err(e) => {
                        inner.tracked.remove(&id);
                        return Err(e);
                    }
                }
            }
            Behavior::Allow => {
                self.set_stage(&id, Stage::Allowed);
                None
            }
            Behavior::Deny => None,
        };
        let decision_event = decision_event.unwrap_or_else(|| {
            WarrantEvent::Decision(decision.clone()).into_event(Some(now_millis()))
        });
        self.send(&call.session_id, decision_event).await;
        if let Some(p) = &approval {
            self.send(
                &call.session_id,
                WarrantEvent::ApprovalRequest(p.request.clone()).into_event(Some(now_millis())),
            )
            .await;
        }
        self.settle_decided(&id, decision.behavior);
        if decision.behavior == Behavior::Ask {
            self.spill_if_large(&id);
            Box::pin(self.expire_beyond_limit()).await;
        }
        Ok(Authorization {
            decision,
            trace,
            approval,
            session_id: call.session_id.clone(),
        })
    }

    /// Starts appending an audit record: queued now when the store starts appends, so the
    /// writes queued next share its commit; otherwise appended when awaited.
    fn start_audit(&self, record: AuditRecord) -> crate::store::PendingAppend {
        let store = &self.inner.store;
        // `start_append_audit` takes the record; a store that does not start appends gets a
        // copy to append when awaited.
        let copy = record.clone();
        store.start_append_audit(record).unwrap_or_else(|| {
            let store = Arc::clone(store);
            Box::pin(async move { store.append_audit(copy).await })
        })
    }

    /// The error for a decision whose audit record was not written; the call is forgotten
    /// and must not run.
    fn unaudited(&self, tool_call_id: ToolCallId, source: crate::store::StoreError) -> EngineError {
        self.inner.tracked.remove(&tool_call_id);
        // The store remembers every evaluated id, across restarts: a repeat is a duplicate
        // call (409), not an outage.
        if source.kind == crate::store::StoreErrorKind::Duplicate {
            return EngineError::DuplicateCall(tool_call_id);
        }
        EngineError::Audit {
            tool_call_id,
            source,
        }
    }

    /// What follows an emitted decision for the call's tracking: a denied call never runs,
    /// so nothing more about it can come (forgotten); an allowed one awaits its result.
    fn settle_decided(&self, tool_call_id: &ToolCallId, behavior: Behavior) {
        match behavior {
            Behavior::Deny => self.untrack(tool_call_id, Outcome::Denied),
            Behavior::Allow => self.await_result(tool_call_id),
            Behavior::Ask => {}
        }
    }

    /// Merges the call's decision into its tracked part, as its `tool_permission_decision`
    /// event would be merged ([`ToolPart::apply`]) but without reading the decision back from
    /// the event's JSON, and returns a copy to persist with it; `None` when the part is not in
    /// memory.
    fn merge_decision_into_part(
        &self,
        tool_call_id: &ToolCallId,
        decision: &ToolPermissionDecision,
    ) -> Option<ToolPart> {
        let mut tracked = self.inner.tracked.get_mut(tool_call_id)?;
        let part = tracked.part.as_mut()?;
        if decision.tool_call_id == part.tool_call_id {
            part.permission_decision = Some(decision.clone());
        }
        Some(part.clone())
    }

    /// The call's `TOOL_CALL_START`/`ARGS`/`END` (its arguments the `redacted_input`), merged
    /// into its tracked part (persisted with the decision that follows).
    fn announcement(
        &self,
        call: &ToolCall,
        message_id: &str,
        redacted_input: &Value,
    ) -> Vec<Event> {
        let now = Some(now_millis());
        let id = call.tool_call_id.as_str();
        let args = redacted_input.to_string();
        // Room for the decision event, which follows the announcement in one write.
        let mut events = Vec::with_capacity(4);
        events.extend([
            Event::ToolCallStart(ToolCallStart {
                tool_call_id: id.to_owned(),
                tool_call_name: call.tool_name.clone(),
                parent_message_id: Some(message_id.to_owned()),
                timestamp: now,
            }),
            Event::ToolCallArgs(ToolCallArgs {
                tool_call_id: id.to_owned(),
                delta: args,
                timestamp: now,
            }),
            Event::ToolCallEnd(ToolCallEnd {
                tool_call_id: id.to_owned(),
                timestamp: now,
            }),
        ]);
        if let Some(mut tracked) = self.inner.tracked.get_mut(call.tool_call_id.as_str())
            && let Some(part) = tracked.part.as_mut()
        {
            for event in &events {
                part.apply(event);
            }
        }
        events
    }

    /// Waits until a started batch of events is logged, then hands each to the transports.
    async fn deliver_batch(&self, session_id: &SessionId, batch: crate::events::StartedBatch<'_>) {
        let events = batch.events();
        for (event, logged) in events.iter().zip(batch.finish().await) {
            self.deliver(session_id, event, logged).await;
        }
    }

    fn set_stage(&self, tool_call_id: &ToolCallId, stage: Stage) {
        if let Some(mut t) = self.inner.tracked.get_mut(tool_call_id) {
            t.stage = stage;
        }
    }

    async fn open_request(
        &self,
        call: &ToolCall,
        message_id: &str,
        decision: &ToolPermissionDecision,
        grant_keys: &[crate::grant::GrantKey],
    ) -> Result<PendingResolution, EngineError> {
        let tool = &call.tool_name;
        let mut request = ToolApprovalRequest {
            tool_call_id: call.tool_call_id.clone(),
            session_id: Some(call.session_id.clone()),
            tool_name: (!tool.is_empty()).then(|| tool.clone()),
            title: if tool.is_empty() {
                "Approve tool call".to_owned()
            } else {
                format!("Approve {tool}")
            },
            detail: format!(
                "Agent \"{}\" requested permission for tool \"{tool}\" in session \"{}\".",
                call.agent(),
                call.session_id
            ),
            risk: decision.risk,
            reason: decision.reason.clone(),
            recommendation: Recommendation::from(decision),
            actions: crate::grant::offered_actions(self.inner.scoper.as_ref(), grant_keys),
            requested_at: Some(now_millis()),
            input: Some(sanitize::redact_value(&call.input)),
        };
        sanitize::approval_request(&mut request);
        let pending = PendingApproval {
            session_id: call.session_id.clone(),
            message_id: message_id.to_owned(),
            request: request.clone(),
        };
        self.inner.store.put_pending_approval(&pending).await?;
        let (tx, rx) = oneshot::channel();
        self.set_stage(&call.tool_call_id, Stage::Pending);
        calls::lock(&self.inner.pending_order).push_back(call.tool_call_id.clone());
        self.inner.pending.insert(
            call.tool_call_id.clone(),
            Pending {
                session_id: call.session_id.clone(),
                message_id: message_id.to_owned(),
                request: request.clone(),
                waiter: Some(tx),
                grant_keys: grant_keys.to_vec(),
                tool_name: call.tool_name.clone(),
                agent: call.agent().to_owned(),
                resolving: false,
            },
        );
        if let Some(wait) = self.inner.limits.approval_timeout {
            let engine = Arc::downgrade(&self.inner);
            let id = call.tool_call_id.clone();
            tokio::spawn(async move {
                tokio::time::sleep(wait).await;
                if let Some(inner) = engine.upgrade() {
                    Engine { inner }.expire_if_waiting(&id, wait).await;
                }
            });
        }
        Ok(PendingResolution {
            request,
            receiver: rx,
            engine: Arc::downgrade(&self.inner),
        })
    }

    /// Emits an embedder's event of a session (text, run lifecycle, state, its own CUSTOM
    /// events). Decisions, approval requests, resolutions and tool-call events come only from
    /// the engine's own operations, so an [`AgentEvent`] cannot carry them.
    pub async fn emit(&self, session_id: &SessionId, event: AgentEvent) {
        self.publish(session_id, &event.into_event()).await;
    }

    /// Logs an event in the store's event log and hands it to live subscribers, then to the
    /// transports. An event that could not be logged still reaches the transports, unlogged.
    pub(super) async fn publish(&self, session_id: &SessionId, event: &Event) {
        let logged = self.inner.events.publish_logged(session_id, event).await;
        self.deliver(session_id, event, logged).await;
    }

    /// Hands an event the hub logged (or failed to log) to the transports.
    async fn deliver(
        &self,
        session_id: &SessionId,
        event: &Event,
        logged: Result<Arc<crate::store::StoredEvent>, crate::store::StoreError>,
    ) {
        let inner = &self.inner;
        match logged {
            Ok(logged) => {
                if let Err(e) = inner
                    .transport
                    .emit_logged(session_id, &logged, &inner.events)
                    .await
                {
                    tracing::warn!(%session_id, error = %e, "event not delivered");
                }
            }
            Err(e) => {
                tracing::warn!(%session_id, error = %e, "event not logged");
                if let Err(e) = inner.transport.emit(session_id, event).await {
                    tracing::warn!(%session_id, error = %e, "event not delivered");
                }
            }
        }
    }

    /// Emits one of the engine's own events: merged into the call's tool part (persisted),
    /// then sent.
    async fn send(&self, session_id: &SessionId, event: Event) {
        let inner = &self.inner;
        // The announcement alone changes nothing worth a durable write: the decision that
        // follows persists the part with everything merged so far.
        let announcement = matches!(
            event,
            Event::ToolCallStart(_) | Event::ToolCallArgs(_) | Event::ToolCallEnd(_)
        );
        let mut write = PartWrite::Nothing;
        if let Some(id) = event.tool_call_id()
            && let Some(mut tracked) = inner.tracked.get_mut(id)
        {
            let tracked = &mut *tracked;
            if let Some(part) = tracked.part.as_mut() {
                part.apply(&event);
                if !announcement {
                    write = self.start_part_write(&tracked.session_id, &tracked.message_id, part);
                }
            }
        }
        self.persist_and_publish(session_id, &event, write).await;
    }

    /// Starts persisting a tool part: queued now when the store
    /// [starts upserts](crate::store::Conversations::start_upsert_tool_part), so the event
    /// queued next shares its commit; otherwise a copy is kept to upsert before the event.
    fn start_part_write(
        &self,
        session_id: &SessionId,
        message_id: &str,
        part: &ToolPart,
    ) -> PartWrite {
        match self
            .inner
            .store
            .start_upsert_tool_part(session_id, message_id, part)
        {
            Some(started) => PartWrite::Started(started),
            None => PartWrite::Unstarted(Box::new((
                session_id.clone(),
                message_id.to_owned(),
                part.clone(),
            ))),
        }
    }

    /// Logs and sends an event once the part write before it is done. A started write was
    /// queued before the event, so the event is durable (and leaves) only after the part is;
    /// a part that could not be persisted is logged as such, and the event still goes.
    async fn persist_and_publish(&self, session_id: &SessionId, event: &Event, write: PartWrite) {
        let store = &self.inner.store;
        let (started, result) = match write {
            PartWrite::Nothing => (None, Ok(())),
            PartWrite::Started(started) => (Some(started), Ok(())),
            PartWrite::Unstarted(write) => {
                let (session_id, message_id, part) = &*write;
                (
                    None,
                    store.upsert_tool_part(session_id, message_id, part).await,
                )
            }
        };
        self.publish(session_id, event).await;
        let result = match started {
            Some(started) => started.await,
            None => result,
        };
        if let Err(e) = result {
            let tool_call_id = event.tool_call_id().unwrap_or_default();
            tracing::warn!(tool_call_id, error = %e, "tool part not persisted");
        }
    }
}

#[cfg(test)]
mod tests {
    use async_trait::async_trait;
    use serde_json::json;
    use tokio::sync::Notify;

    use super::*;
    use crate::decision::{PermissionDecisionSource, Risk};
    use crate::evaluator::{Evaluator, EvaluatorError, Rationale, Stance, Verdict};
    use crate::store::{AuditLog, MemoryStore};
    use crate::transport::MemoryTransport;

    /// Allows every call once released: a chain that waits, as a reviewer does.
    struct Waiting(Arc<Notify>);

    #[async_trait]
    impl Evaluator for Waiting {
        fn name(&self) -> &str {
            "waiting"
        }
        fn source(&self) -> PermissionDecisionSource {
            PermissionDecisionSource::Policy
        }
        async fn evaluate(
            &self,
            _call: &ToolCall,
            _cx: &EvaluationContext,
        ) -> Result<Verdict, EvaluatorError> {
            self.0.notified().await;
            Ok(Verdict::decide(
                Stance::PolicyAllow,
                Rationale::new("waited", "Released.", Risk::Safe),
            ))
        }
    }

    fn names(events: &[Event]) -> Vec<&'static str> {
        events.iter().map(Event::type_name).collect()
    }

    #[tokio::test]
    async fn a_chain_that_waits_gets_the_announcement_out_before_the_decision() {
        let release = Arc::new(Notify::new());
        let store = Arc::new(MemoryStore::new());
        let transport = Arc::new(MemoryTransport::new());
        let chain = Chain::builder()
            .evaluator(Waiting(Arc::clone(&release)))
            .build();
        let engine = Engine::builder(chain)
            .store(store.clone())
            .transport(transport.clone())
            .build()
            .await
            .unwrap();
        let mut events = transport.subscribe(&"s1".into());
        let call = ToolCall::new("s1", "c1", "Bash", json!({"command": "ls"}));
        let options = AuthorizeOptions {
            announce: true,
            ..AuthorizeOptions::default()
        };
        let deciding = tokio::spawn({
            let engine = engine.clone();
            async move { engine.authorize(call, options).await }
        });
        let mut seen = Vec::new();
        while seen.len() < 3 {
            let next = tokio::time::timeout(std::time::Duration::from_secs(10), events.recv());
            seen.push(
                next.await
                    .expect("announced while the chain waits")
                    .unwrap(),
            );
        }
        assert_eq!(
            names(&seen),
            ["TOOL_CALL_START", "TOOL_CALL_ARGS", "TOOL_CALL_END"]
        );
        assert!(
            store
                .audit_records(&crate::store::AuditQuery::all())
                .await
                .unwrap()
                .is_empty(),
            "nothing is audited while the chain waits"
        );
        release.notify_one();
        let authorization = deciding.await.unwrap().unwrap();
        assert_eq!(authorization.decision.behavior, Behavior::Allow);
        let decision = events.recv().await.unwrap();
        assert!(
            matches!(&decision, Event::Custom(c) if c.name == crate::event::TOOL_PERMISSION_DECISION),
            "{decision:?}"
        );
        assert!(events.try_recv().is_err(), "the announcement came once");
    }

    /// A grant scoper that panics on every call.
    struct PanickingScoper;

    impl GrantScoper for PanickingScoper {
        fn keys(&self, _call: &ToolCall) -> Vec<crate::grant::GrantKey> {
            panic!("scoper bug")
        }
    }

    #[tokio::test]
    async fn a_panicking_grant_scoper_leaves_the_call_to_the_chain_and_offers_no_grant() {
        let asking = crate::testkit::MockEvaluator::new("asking", PermissionDecisionSource::Policy)
            .always(Verdict::decide(
                Stance::RequireAsk,
                Rationale::new("asked", "Asks.", Risk::Medium),
            ));
        let engine = Engine::builder(Chain::builder().evaluator(asking).build())
            .grant_scoper(Arc::new(PanickingScoper))
            .build()
            .await
            .unwrap();
        let call = ToolCall::new("s1", "c1", "Bash", json!({"command": "ls"}));
        let authorization = engine
            .authorize(call, AuthorizeOptions::default())
            .await
            .expect("a scoper panic does not end the authorization");
        assert_eq!(authorization.decision.behavior, Behavior::Ask);
        let requests = engine.pending_requests();
        assert_eq!(requests.len(), 1);
        let scopes: Vec<_> = requests[0].actions.iter().map(|a| a.scope).collect();
        assert_eq!(
            scopes,
            [crate::decision::Scope::Once, crate::decision::Scope::Once],
            "only the one-call actions: nothing a grant could cover"
        );
        let err = engine
            .resolve(&"c1".into(), crate::approval::ALLOW_SESSION)
            .await;
        assert!(err.is_err(), "a session grant is not on offer: {err:?}");
    }
}
