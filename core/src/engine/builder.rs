//! Building an [`Engine`]: its chain, store, transport, grant scoper and workspace root.

use std::collections::{HashMap, VecDeque};
use std::path::PathBuf;
use std::sync::atomic::AtomicU64;
use std::sync::{Arc, Mutex};

use arc_swap::ArcSwap;
use dashmap::DashMap;

use crate::approval::{ToolApprovalRequest, standard_actions};
use crate::call::ToolCall;
use crate::catalog::{RuntimeTool, ToolCatalog};
use crate::chain::Chain;
use crate::decision::Scope;
use crate::event::Event;
use crate::grant::GrantKey;
use crate::grant::{ExactInputScoper, GrantScoper};
use crate::part::{Message, MessagePart};
use crate::store::{MemoryStore, Store};
use crate::transport::Transport;
use crate::workspace::{load_workspace, prune_stale_tool_ids};

use super::{Engine, EngineError, EngineLimits, Inner, Pending};

/// Builds an [`Engine`].
pub struct EngineBuilder {
    chain: Chain,
    store: Arc<dyn Store>,
    transport: Arc<dyn Transport>,
    scoper: Arc<dyn GrantScoper>,
    workspace_root: PathBuf,
    runtime_tools: Option<Vec<RuntimeTool>>,
    limits: EngineLimits,
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
        let mut order = VecDeque::new();
        let mut sessions: HashMap<String, Vec<Message>> = HashMap::new();
        for mut p in self.store.pending_approvals().await? {
            if !sessions.contains_key(&p.session_id) {
                let messages = self.store.messages(&p.session_id).await?;
                sessions.insert(p.session_id.clone(), messages);
            }
            let input = stored_input(&sessions[&p.session_id], &p.request.tool_call_id);
            let grant_keys = restored_keys(&*self.scoper, &p.session_id, &mut p.request, input);
            order.push_back(p.request.tool_call_id.clone());
            pending.insert(
                p.request.tool_call_id.clone(),
                Pending {
                    tool_name: p.request.tool_name.clone().unwrap_or_default(),
                    session_id: p.session_id,
                    message_id: p.message_id,
                    grant_keys,
                    request: p.request,
                    waiter: None,
                    resolving: false,
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
                pending_order: Mutex::new(order),
                tracked: DashMap::new(),
                awaiting: Mutex::default(),
                settled: DashMap::new(),
                settled_count: AtomicU64::new(0),
                limits: self.limits,
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
            limits: EngineLimits::default(),
        }
    }
}

/// The (redacted) input the call's persisted part holds.
fn stored_input(messages: &[Message], tool_call_id: &str) -> Option<serde_json::Value> {
    messages
        .iter()
        .flat_map(|m| &m.parts)
        .find_map(|p| match p {
            MessagePart::Tool(t) if t.tool_call_id == tool_call_id => t.input.clone(),
            _ => None,
        })
}

/// The grant keys of a request restored after a restart, derived again from the call's
/// input. When they cannot be derived, or do not read as the labels the user was shown, the
/// request keeps only its one-call actions: a broader grant than promised is never made.
fn restored_keys(
    scoper: &dyn GrantScoper,
    session_id: &str,
    request: &mut ToolApprovalRequest,
    input: Option<serde_json::Value>,
) -> Vec<GrantKey> {
    let tool = request.tool_name.clone().unwrap_or_default();
    let keys = input
        .map(|input| {
            let call = ToolCall::new(session_id, request.tool_call_id.clone(), tool, input);
            scoper.keys(&call)
        })
        .unwrap_or_default();
    let promised = standard_actions(&scoper.describe(&keys));
    let faithful = !keys.is_empty()
        && request
            .actions
            .iter()
            .filter(|a| a.scope != Scope::Once)
            .all(|a| promised.iter().any(|p| p.id == a.id && p.label == a.label));
    if faithful {
        return keys;
    }
    tracing::warn!(
        tool_call_id = %request.tool_call_id,
        "restored approval request offers only one-call actions: its grant cannot be derived again"
    );
    request.actions.retain(|a| a.scope == Scope::Once);
    Vec::new()
}
