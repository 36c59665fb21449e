//! Building an [`Engine`]: its chain, store, transport, grant scoper and workspace root.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicU64;

use arc_swap::ArcSwap;
use dashmap::DashMap;

use crate::call::ToolCall;
use crate::catalog::{RuntimeTool, ToolCatalog};
use crate::chain::Chain;
use crate::event::Event;
use crate::grant::{ExactInputScoper, GrantScoper};
use crate::store::{MemoryStore, Store};
use crate::transport::Transport;
use crate::workspace::{load_workspace, prune_stale_tool_ids};

use super::{Engine, EngineError, Inner, Pending};

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

impl EngineBuilder {
    pub(super) fn new(chain: Chain) -> Self {
        Self {
            chain,
            store: Arc::new(MemoryStore::new()),
            transport: Arc::new(Nowhere),
            scoper: Arc::new(ExactInputScoper),
            workspace_root: std::env::current_dir().unwrap_or_else(|_| PathBuf::from(".")),
            runtime_tools: None,
        }
    }
}
