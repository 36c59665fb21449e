//! Building an [`Engine`]: its chain, store, transport, grant scoper and workspace root.

use crate::ids::SessionId;
use std::collections::VecDeque;
use std::path::PathBuf;
use std::sync::atomic::AtomicU64;
use std::sync::{Arc, Mutex};

use arc_swap::ArcSwap;
use dashmap::DashMap;

use crate::catalog::{RuntimeTool, ToolCatalog};
use crate::chain::Chain;
use crate::event::Event;
use crate::events::EventHub;
use crate::grant::{ExactInputScoper, GrantScoper};
use crate::store::{MemoryStore, Store};
use crate::transport::Transport;
use crate::workspace::{load_workspace, prune_stale_tool_ids};

use super::{Engine, EngineError, EngineLimits, Inner, Pending, calls};

/// Builds an [`Engine`].
///
/// Every setting has a default: the in-memory store, no transport (events still reach
/// subscribers and the store's event log), the exact-input grant scoper, the current
/// directory as the workspace root. For the engine `warrant serve` runs (configured chain,
/// SQLite store, canonical grant scoper), use the `warrant` crate's `Setup`.
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// use std::sync::Arc;
/// use std::time::Duration;
/// use warrant_core::engine::EngineLimits;
/// use warrant_core::prelude::*;
///
/// let mut limits = EngineLimits::default();
/// limits.approval_timeout = Some(Duration::from_secs(600));
/// let engine = Engine::builder(Chain::builder().build())
///     .store(Arc::new(MemoryStore::new()))
///     .workspace_root("/srv/project")
///     .limits(limits)
///     .build()
///     .await
///     .unwrap();
/// assert!(engine.pending_requests().is_empty());
/// # }
/// ```
pub struct EngineBuilder {
    chain: Chain,
    store: Arc<dyn Store>,
    transport: Arc<dyn Transport>,
    scoper: Arc<dyn GrantScoper>,
    workspace_root: PathBuf,
    runtime_tools: Option<Vec<RuntimeTool>>,
    limits: EngineLimits,
    adopt_pending: bool,
}

impl std::fmt::Debug for EngineBuilder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EngineBuilder")
            .field("chain", &self.chain)
            .field("workspace_root", &self.workspace_root)
            .field("runtime_tools", &self.runtime_tools.as_ref().map(Vec::len))
            .field("limits", &self.limits)
            .field("adopt_pending", &self.adopt_pending)
            .finish_non_exhaustive()
    }
}

impl EngineBuilder {
    /// Sets how much the engine keeps in memory ([`EngineLimits::default`] unless set).
    pub fn limits(mut self, limits: EngineLimits) -> Self {
        self.limits = limits;
        self
    }

    /// Sets the store (in-memory by default).
    pub fn store(mut self, store: Arc<dyn Store>) -> Self {
        self.store = store;
        self
    }

    /// Sets the transport (events go nowhere by default). Whatever the transport, the engine
    /// logs every event in the store's event log first (see [`Engine::subscribe`]); a
    /// transport that is an [`EventHub`] on the engine's store becomes the engine's hub.
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

    /// For a short-lived process that shares its store with others (an agent's hook beside
    /// `warrant serve`, or another instance on the same database): requests left pending in
    /// the store are adopted as they are, their session and global actions granting what they
    /// promise (derived again from the stored input when that provably gives the grant the
    /// user was shown: an input stored redacted, or one this engine reads differently, keeps
    /// only its one-call actions), instead of being ended as interrupted. Nothing pending in the store is changed unless this engine
    /// resolves it.
    pub fn adopt_pending(mut self) -> Self {
        self.adopt_pending = true;
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
        let grants = super::grants::loaded(self.store.grants().await?);
        // A request left pending by the last run can no longer be answered to the agent that
        // asked (it lost its waiter with the process): each ends, audited, as interrupted.
        let stored = self.store.pending_approvals().await?;
        let pending = |p: crate::store::PendingApproval, grant_keys| Pending {
            tool_name: p.request.tool_name.clone().unwrap_or_default(),
            session_id: p.session_id,
            message_id: p.message_id,
            grant_keys,
            request: p.request,
            agent: String::new(),
            waiter: None,
            resolving: false,
        };
        // A transport that is a hub on this store is the engine's hub: every event is
        // logged once, and that hub's subscribers see the engine's events.
        let events = match self.transport.event_hub() {
            Some(hub) if hub.logs_into(&self.store) => hub,
            _ => EventHub::new(Arc::clone(&self.store)),
        };
        let engine = Engine {
            inner: Arc::new(Inner {
                chain: self.chain,
                store: self.store,
                transport: self.transport,
                events,
                scoper: Arc::new(crate::grant::GuardedScoper(self.scoper)),
                workspace_root: self.workspace_root,
                workspace: ArcSwap::from_pointee(workspace),
                catalog: ArcSwap::from_pointee(catalog),
                workspace_writer: tokio::sync::Mutex::new(()),
                grants: ArcSwap::from_pointee(grants),
                pending: DashMap::new(),
                pending_order: Mutex::new(VecDeque::new()),
                tracked: DashMap::new(),
                awaiting: Mutex::default(),
                settled: DashMap::new(),
                settled_count: AtomicU64::new(0),
                limits: self.limits,
                instances: std::sync::OnceLock::new(),
            }),
        };
        if self.adopt_pending {
            for stored in stored {
                // The grant its session and global actions promise, derived again from its
                // input when that is provably what the user was shown; otherwise only its
                // one-call actions stay.
                let tool_name = stored.request.tool_name.clone().unwrap_or_default();
                let grant_keys = engine.grant_keys_of_stored(&stored, &tool_name);
                let faithful = grant_keys.is_some();
                let mut adopted = pending(stored, grant_keys.unwrap_or_default());
                if !faithful {
                    adopted
                        .request
                        .actions
                        .retain(|a| a.scope == crate::decision::Scope::Once);
                }
                let id = adopted.request.tool_call_id.clone();
                calls::lock(&engine.inner.pending_order).push_back(id.clone());
                engine.inner.pending.insert(id, adopted);
            }
            return Ok(engine);
        }
        for pending in stored.into_iter().map(|p| pending(p, Vec::new())) {
            engine
                .end_unresolved(
                    pending,
                    crate::audit::AuditEvent::Expiry {
                        reason: "interrupted: the engine restarted before the request was resolved"
                            .to_owned(),
                    },
                    "Interrupted: Warrant restarted while this call waited for approval, so it never ran.",
                )
                .await;
        }
        engine.idle_sessions_of_the_last_run().await;
        Ok(engine)
    }
}

struct Nowhere;

#[async_trait::async_trait]
impl Transport for Nowhere {
    async fn emit(
        &self,
        _session_id: &SessionId,
        _event: &Event,
    ) -> Result<(), crate::transport::TransportError> {
        Ok(())
    }
}

impl EngineBuilder {
    pub(super) fn new(chain: Chain) -> Self {
        Self {
            chain,
            store: Arc::new(MemoryStore::new()),
            transport: Arc::new(Nowhere),
            scoper: Arc::new(ExactInputScoper),
            workspace_root: std::env::current_dir().unwrap_or_else(|_| PathBuf::from(".")),
            runtime_tools: None,
            limits: EngineLimits::default(),
            adopt_pending: false,
        }
    }
}
