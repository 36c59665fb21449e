//! The engine: authorize a call through the chain, audit it, emit its events, ask the user
//! when needed, and accept the user's resolution.

mod error;

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use arc_swap::ArcSwap;
use dashmap::DashMap;
use tokio::sync::oneshot;

pub use error::{Abandoned, EngineError, ResolveError, WorkspaceUpdateError};

use crate::approval::{Recommendation, ToolApprovalRequest, standard_actions};
use crate::audit::{AuditEvent, AuditRecord, digest};
use crate::call::{EvaluationContext, PermissionMode, ToolCall};
use crate::catalog::{RuntimeTool, ToolCatalog};
use crate::chain::{Chain, ChainTrace};
use crate::decision::{
    Behavior, ResolutionSource, Scope, ToolPermissionDecision, ToolPermissionResolution,
};
use crate::event::{
    Event, ToolCallArgs, ToolCallEnd, ToolCallResult, ToolCallStart, WarrantEvent, now_millis,
};
use crate::grant::{ExactInputScoper, Grant, GrantScoper};
use crate::part::{ToolPart, ToolParts};
use crate::sanitize;
use crate::store::{PendingApproval, Store};
use crate::transport::Transport;
use crate::workspace::{ApprovalError, WorkspaceState, load_workspace, prune_stale_tool_ids};

/// How many settled call ids the engine remembers, to answer 409 rather than 404.
const SETTLED_MEMORY: u64 = 65_536;

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
}

impl Authorization {
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
#[derive(Debug)]
pub struct PendingResolution {
    /// The request, as streamed.
    pub request: ToolApprovalRequest,
    receiver: oneshot::Receiver<ToolPermissionResolution>,
}

impl PendingResolution {
    /// Waits for the user's resolution.
    ///
    /// # Errors
    ///
    /// [`Abandoned`] when the engine went away before the user acted.
    pub async fn resolution(self) -> Result<ToolPermissionResolution, Abandoned> {
        let id = self.request.tool_call_id.clone();
        self.receiver.await.map_err(|_| Abandoned(id))
    }
}

struct Pending {
    session_id: String,
    message_id: String,
    request: ToolApprovalRequest,
    waiter: Option<oneshot::Sender<ToolPermissionResolution>>,
    grant_keys: Vec<crate::grant::GrantKey>,
    tool_name: String,
}

struct Tracked {
    session_id: String,
    message_id: String,
    part: ToolPart,
}

struct Inner {
    chain: Chain,
    store: Arc<dyn Store>,
    transport: Arc<dyn Transport>,
    scoper: Arc<dyn GrantScoper>,
    workspace_root: PathBuf,
    workspace: ArcSwap<WorkspaceState>,
    catalog: ArcSwap<ToolCatalog>,
    /// Serializes workspace changes (read, apply, persist, install); never taken by decisions.
    workspace_writer: tokio::sync::Mutex<()>,
    grants: ArcSwap<Vec<Grant>>,
    pending: DashMap<String, Pending>,
    tracked: DashMap<String, Tracked>,
    settled: DashMap<String, u64>,
    settled_count: AtomicU64,
}

/// Authorizes tool calls: chain → audit → emit → (ask → resolve) → result.
///
/// Cheap to clone; every clone shares the same pending approvals. Many sessions and calls run
/// concurrently: the decision path takes no global lock.
#[derive(Clone)]
pub struct Engine {
    inner: Arc<Inner>,
}

/// Builds an [`Engine`].
pub struct EngineBuilder {
    chain: Chain,
    store: Arc<dyn Store>,
    transport: Arc<dyn Transport>,
    scoper: Arc<dyn GrantScoper>,
    workspace_root: PathBuf,
    runtime_tools: Option<Vec<RuntimeTool>>,
}

impl EngineBuilder {
    /// Sets the store (in-memory by default).
    pub fn store(mut self, store: Arc<dyn Store>) -> Self {
        self.store = store;
        self
    }

    /// Sets the transport (events go nowhere by default).
    pub fn transport(mut self, transport: Arc<dyn Transport>) -> Self {
        self.transport = transport;
        self
    }

    /// Sets how grants are keyed (exact input by default: the narrowest).
    pub fn grant_scoper(mut self, scoper: Arc<dyn GrantScoper>) -> Self {
        self.scoper = scoper;
        self
    }

    /// Sets the workspace root (the current directory by default).
    pub fn workspace_root(mut self, root: impl Into<PathBuf>) -> Self {
        self.workspace_root = root.into();
        self
    }

    /// Sets the runtime tools the agent's runtime reported (the conservative built-in catalog
    /// stands in until then). MCP and LSP tools come from the workspace's tooling.
    pub fn runtime_tools(mut self, tools: Vec<RuntimeTool>) -> Self {
        self.runtime_tools = Some(tools);
        self
    }

    /// Loads the workspace, grants and pending approvals from the store, and builds.
    ///
    /// # Errors
    ///
    /// A [`StoreError`](crate::store::StoreError) when the store cannot be read.
    pub async fn build(self) -> Result<Engine, EngineError> {
        let mut workspace = load_workspace(&*self.store).await?;
        if let Some(tools) = &self.runtime_tools {
            workspace = prune_stale_tool_ids(workspace, tools);
        }
        let catalog = ToolCatalog::new(&workspace.settings.tooling, self.runtime_tools.as_deref());
        let grants = self.store.grants().await?;
        let pending = DashMap::new();
        for p in self.store.pending_approvals().await? {
            let call = ToolCall::new(
                p.session_id.clone(),
                p.request.tool_call_id.clone(),
                p.request.tool_name.clone().unwrap_or_default(),
                serde_json::Value::Null,
            );
            pending.insert(
                p.request.tool_call_id.clone(),
                Pending {
                    tool_name: call.tool_name.clone(),
                    session_id: p.session_id,
                    message_id: p.message_id,
                    grant_keys: self.scoper.keys(&call),
                    request: p.request,
                    waiter: None,
                },
            );
        }
        Ok(Engine {
            inner: Arc::new(Inner {
                chain: self.chain,
                store: self.store,
                transport: self.transport,
                scoper: self.scoper,
                workspace_root: self.workspace_root,
                workspace: ArcSwap::from_pointee(workspace),
                catalog: ArcSwap::from_pointee(catalog),
                workspace_writer: tokio::sync::Mutex::new(()),
                grants: ArcSwap::from_pointee(grants),
                pending,
                tracked: DashMap::new(),
                settled: DashMap::new(),
                settled_count: AtomicU64::new(0),
            }),
        })
    }
}

struct Nowhere;

#[async_trait::async_trait]
impl Transport for Nowhere {
    async fn emit(
        &self,
        _session_id: &str,
        _event: &Event,
    ) -> Result<(), crate::transport::TransportError> {
        Ok(())
    }
}

impl Engine {
    /// Starts an engine around a chain.
    pub fn builder(chain: Chain) -> EngineBuilder {
        EngineBuilder {
            chain,
            store: Arc::new(crate::store::MemoryStore::new()),
            transport: Arc::new(Nowhere),
            scoper: Arc::new(ExactInputScoper),
            workspace_root: std::env::current_dir().unwrap_or_else(|_| PathBuf::from(".")),
            runtime_tools: None,
        }
    }

    /// The store.
    pub fn store(&self) -> &Arc<dyn Store> {
        &self.inner.store
    }

    /// The chain.
    pub fn chain(&self) -> &Chain {
        &self.inner.chain
    }

    /// The current workspace state.
    pub fn workspace(&self) -> Arc<WorkspaceState> {
        self.inner.workspace.load_full()
    }

    /// Applies a change to the workspace (one of the operations of
    /// [`workspace`](crate::workspace), given the state and the runtime tools), persists the
    /// result and installs it with its catalog. Changes are serialized; decisions never wait.
    ///
    /// # Errors
    ///
    /// The operation's [`ApprovalError`] (nothing changes), or a store error (the old state
    /// stays in force).
    pub async fn update_workspace<F>(
        &self,
        change: F,
    ) -> Result<Arc<WorkspaceState>, WorkspaceUpdateError>
    where
        F: FnOnce(&WorkspaceState, Option<&[RuntimeTool]>) -> Result<WorkspaceState, ApprovalError>,
    {
        let _writer = self.inner.workspace_writer.lock().await;
        let catalog = self.inner.catalog.load_full();
        let runtime_tools = catalog.runtime_tools();
        let next = change(&self.inner.workspace.load(), runtime_tools)?;
        self.install_workspace(next, runtime_tools).await
    }

    /// Records the tools the runtime reported: stale ids are pruned from every pattern and
    /// session, and the catalog is rebuilt.
    ///
    /// # Errors
    ///
    /// A store error; the old state stays in force.
    pub async fn set_runtime_tools(
        &self,
        tools: Vec<RuntimeTool>,
    ) -> Result<Arc<WorkspaceState>, WorkspaceUpdateError> {
        let _writer = self.inner.workspace_writer.lock().await;
        let next =
            prune_stale_tool_ids(WorkspaceState::clone(&self.inner.workspace.load()), &tools);
        self.install_workspace(next, Some(&tools)).await
    }

    async fn install_workspace(
        &self,
        workspace: WorkspaceState,
        runtime_tools: Option<&[RuntimeTool]>,
    ) -> Result<Arc<WorkspaceState>, WorkspaceUpdateError> {
        self.inner
            .store
            .save_workspace(&workspace)
            .await
            .map_err(EngineError::from)?;
        let catalog = ToolCatalog::new(&workspace.settings.tooling, runtime_tools);
        let workspace = Arc::new(workspace);
        self.inner.workspace.store(workspace.clone());
        self.inner.catalog.store(Arc::new(catalog));
        Ok(workspace)
    }

    /// The current tool catalog (`listApprovalToolDefinitions` of the workspace's tooling and
    /// the runtime's tools).
    pub fn catalog(&self) -> Arc<ToolCatalog> {
        self.inner.catalog.load_full()
    }

    /// The grants in force.
    pub fn grants(&self) -> Arc<Vec<Grant>> {
        self.inner.grants.load_full()
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
        EvaluationContext {
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
            grant_keys: self.inner.scoper.keys(call),
            open_risk: None,
        }
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
    pub async fn authorize(
        &self,
        call: ToolCall,
        options: AuthorizeOptions,
    ) -> Result<Authorization, EngineError> {
        let inner = &self.inner;
        if inner.pending.contains_key(&call.tool_call_id) {
            return Err(EngineError::DuplicateCall(call.tool_call_id));
        }
        let message_id = call
            .message_id
            .clone()
            .unwrap_or_else(|| format!("msg-{}", call.tool_call_id));
        inner.tracked.insert(
            call.tool_call_id.clone(),
            Tracked {
                session_id: call.session_id.clone(),
                message_id: message_id.clone(),
                part: ToolPart::new(call.tool_call_id.clone(), call.tool_name.clone()),
            },
        );
        if options.announce {
            self.announce(&call, &message_id).await;
        }

        let cx = self.context(&call, options.mode);
        let outcome = inner.chain.decide(&call, &cx).await;
        let mut decision = outcome.decision;
        sanitize::decision(&mut decision);

        let record = AuditRecord {
            at: now_millis(),
            session_id: call.session_id.clone(),
            tool_call_id: call.tool_call_id.clone(),
            tool_name: call.tool_name.clone(),
            event: AuditEvent::Evaluation {
                mode: options.mode,
                input_digest: digest(&call.input),
                decision: decision.clone(),
                trace: outcome.trace.clone(),
            },
        };
        if let Err(source) = inner.store.append_audit(record).await {
            inner.tracked.remove(&call.tool_call_id);
            return Err(EngineError::Audit {
                tool_call_id: call.tool_call_id,
                source,
            });
        }

        let approval = if decision.behavior == Behavior::Ask {
            Some(
                self.open_request(&call, &message_id, &decision, &cx.grant_keys)
                    .await?,
            )
        } else {
            self.remember_settled(&call.tool_call_id);
            None
        };
        self.emit(
            &call.session_id,
            WarrantEvent::Decision(decision.clone()).into_event(Some(now_millis())),
        )
        .await;
        if let Some(p) = &approval {
            self.emit(
                &call.session_id,
                WarrantEvent::ApprovalRequest(p.request.clone()).into_event(Some(now_millis())),
            )
            .await;
        }
        Ok(Authorization {
            decision,
            trace: outcome.trace,
            approval,
        })
    }

    async fn announce(&self, call: &ToolCall, message_id: &str) {
        let now = Some(now_millis());
        let id = call.tool_call_id.clone();
        let args = sanitize::redact_value(&call.input).to_string();
        let events = [
            Event::ToolCallStart(ToolCallStart {
                tool_call_id: id.clone(),
                tool_call_name: call.tool_name.clone(),
                parent_message_id: Some(message_id.to_owned()),
                timestamp: now,
            }),
            Event::ToolCallArgs(ToolCallArgs {
                tool_call_id: id.clone(),
                delta: args,
                timestamp: now,
            }),
            Event::ToolCallEnd(ToolCallEnd {
                tool_call_id: id,
                timestamp: now,
            }),
        ];
        for event in events {
            self.emit(&call.session_id, event).await;
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
            actions: standard_actions(&self.inner.scoper.describe(grant_keys)),
            requested_at: Some(now_millis()),
        };
        sanitize::approval_request(&mut request);
        let pending = PendingApproval {
            session_id: call.session_id.clone(),
            message_id: message_id.to_owned(),
            request: request.clone(),
        };
        self.inner.store.put_pending_approval(&pending).await?;
        let (tx, rx) = oneshot::channel();
        self.inner.pending.insert(
            call.tool_call_id.clone(),
            Pending {
                session_id: call.session_id.clone(),
                message_id: message_id.to_owned(),
                request: request.clone(),
                waiter: Some(tx),
                grant_keys: grant_keys.to_vec(),
                tool_name: call.tool_name.clone(),
            },
        );
        Ok(PendingResolution {
            request,
            receiver: rx,
        })
    }

    /// Accepts the user's action on a pending approval request.
    ///
    /// Accepted only for a pending request, only with an offered action, only once. The
    /// resolution is audited, emitted as `tool_permission_resolution`, merged into the tool
    /// part, and a `session` or `global` scope becomes a grant.
    ///
    /// # Errors
    ///
    /// [`ResolveError`]: unknown call (404), not pending (409), action not offered (422), or
    /// a store failure (the request then stays pending).
    pub async fn resolve(
        &self,
        tool_call_id: &str,
        action_id: &str,
    ) -> Result<ToolPermissionResolution, ResolveError> {
        let inner = &self.inner;
        let action = match inner.pending.get(tool_call_id) {
            None if inner.settled.contains_key(tool_call_id) => {
                return Err(ResolveError::NotPending(tool_call_id.to_owned()));
            }
            None => return Err(ResolveError::Unknown(tool_call_id.to_owned())),
            Some(p) => match p.request.action(action_id) {
                Some(a) => a.clone(),
                None => {
                    let offered: Vec<&str> =
                        p.request.actions.iter().map(|a| a.id.as_str()).collect();
                    return Err(ResolveError::ActionNotOffered {
                        tool_call_id: tool_call_id.to_owned(),
                        action_id: action_id.to_owned(),
                        offered: offered.join(", "),
                    });
                }
            },
        };
        // Removing is the one atomic step: of two concurrent resolutions, one wins.
        let Some((_, mut pending)) = inner.pending.remove(tool_call_id) else {
            return Err(ResolveError::NotPending(tool_call_id.to_owned()));
        };
        let resolution = ToolPermissionResolution {
            tool_call_id: tool_call_id.to_owned(),
            behavior: action.behavior,
            source: ResolutionSource::User,
            action_id: action.id.clone(),
            scope: action.scope,
        };
        let record = AuditRecord {
            at: now_millis(),
            session_id: pending.session_id.clone(),
            tool_call_id: tool_call_id.to_owned(),
            tool_name: pending.tool_name.clone(),
            event: AuditEvent::Resolution {
                resolution: resolution.clone(),
            },
        };
        if let Err(e) = inner.store.append_audit(record).await {
            inner.pending.insert(tool_call_id.to_owned(), pending);
            return Err(ResolveError::Store(e));
        }
        self.remember_settled(tool_call_id);
        if let Err(e) = inner.store.remove_pending_approval(tool_call_id).await {
            tracing::warn!(tool_call_id, error = %e, "resolved approval stays in the store's pending list");
        }
        if resolution.scope != Scope::Once && !pending.grant_keys.is_empty() {
            let grant = Grant {
                keys: pending.grant_keys.clone(),
                scope: resolution.scope,
                session_id: pending.session_id.clone(),
                tool_call_id: tool_call_id.to_owned(),
                granted_at: now_millis(),
                description: action.label.clone(),
            };
            if let Err(e) = inner.store.put_grant(&grant).await {
                tracing::warn!(tool_call_id, error = %e, "grant kept in memory only");
            }
            inner.grants.rcu(|grants| {
                let mut next = Vec::clone(grants);
                next.push(grant.clone());
                next
            });
        }
        if !inner.tracked.contains_key(tool_call_id) {
            // A request restored after a restart: its part lives in the store.
            self.restore_part(&pending).await;
        }
        self.emit(
            &pending.session_id,
            WarrantEvent::Resolution(resolution.clone()).into_event(Some(now_millis())),
        )
        .await;
        if let Some(waiter) = pending.waiter.take() {
            let _ = waiter.send(resolution.clone());
        }
        Ok(resolution)
    }

    async fn restore_part(&self, pending: &Pending) {
        let messages = self
            .inner
            .store
            .messages(&pending.session_id)
            .await
            .unwrap_or_default();
        let part = messages
            .into_iter()
            .flat_map(|m| m.parts)
            .find_map(|p| match p {
                crate::part::MessagePart::Tool(t)
                    if t.tool_call_id == pending.request.tool_call_id =>
                {
                    Some(t)
                }
                _ => None,
            })
            .unwrap_or_else(|| {
                ToolPart::new(
                    pending.request.tool_call_id.clone(),
                    pending.tool_name.clone(),
                )
            });
        self.inner.tracked.insert(
            pending.request.tool_call_id.clone(),
            Tracked {
                session_id: pending.session_id.clone(),
                message_id: pending.message_id.clone(),
                part,
            },
        );
    }

    /// Reports a call's result (`TOOL_CALL_RESULT`); the tool part completes and is persisted
    /// with its decision and resolution.
    pub async fn complete(&self, session_id: &str, tool_call_id: &str, content: &str) {
        let event = Event::ToolCallResult(ToolCallResult {
            message_id: format!("{tool_call_id}-result"),
            tool_call_id: tool_call_id.to_owned(),
            content: sanitize::redact(content),
            role: Some("tool".to_owned()),
            timestamp: Some(now_millis()),
        });
        self.emit(session_id, event).await;
        self.inner.tracked.remove(tool_call_id);
    }

    /// Emits an event of a session: merged into the call's tool part (persisted), then sent.
    pub async fn emit(&self, session_id: &str, event: Event) {
        let inner = &self.inner;
        let part = event.tool_call_id().and_then(|id| {
            let mut tracked = inner.tracked.get_mut(id)?;
            let mut parts = ToolParts {
                parts: vec![tracked.part.clone()],
            };
            parts.apply(&event);
            tracked.part = parts.parts.pop()?;
            Some((
                tracked.session_id.clone(),
                tracked.message_id.clone(),
                tracked.part.clone(),
            ))
        });
        if let Some((sid, mid, part)) = part
            && let Err(e) = inner.store.upsert_tool_part(&sid, &mid, &part).await
        {
            tracing::warn!(tool_call_id = %part.tool_call_id, error = %e, "tool part not persisted");
        }
        if let Err(e) = inner.transport.emit(session_id, &event).await {
            tracing::warn!(session_id, error = %e, "event not delivered");
        }
    }

    fn remember_settled(&self, tool_call_id: &str) {
        let inner = &self.inner;
        let n = inner.settled_count.fetch_add(1, Ordering::Relaxed);
        inner.settled.insert(tool_call_id.to_owned(), n);
        if n > 0 && n.is_multiple_of(SETTLED_MEMORY) {
            let floor = n.saturating_sub(SETTLED_MEMORY);
            inner.settled.retain(|_, seen| *seen >= floor);
        }
    }
}
