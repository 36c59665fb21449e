//! The engine `warrant serve` runs, as one library call: the configured chain by name
//! (built-ins, process and library plugins) and any evaluator of the host's own, the
//! canonical grant scoper, the workspace root, the store and the transports.
//!
//! ```no_run
//! # async fn run() -> Result<(), warrant::SetupError> {
//! use warrant::{Config, Setup};
//!
//! // `warrant.toml` (when present) and `WARRANT_*` variables, then the defaults.
//! let config = Config::load(None)?;
//! let engine = Setup::new(config).build().await?;
//! # drop(engine);
//! # Ok(())
//! # }
//! ```

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

use warrant_core::catalog::{RuntimeTool, ToolCatalog};
use warrant_core::chain::{Chain, DEFAULT_EVALUATOR_TIMEOUT};
use warrant_core::engine::{Engine, EngineError, EngineLimits};
use warrant_core::evaluator::Evaluator;
use warrant_core::events::remote::DEFAULT_CATCH_UP_INTERVAL;
use warrant_core::store::{Store, StoreError};
use warrant_core::transport::Transport;
use warrant_core::workspace::load_workspace;
use warrant_evaluators::EvaluatorsConfig;
use warrant_plugins::{BuildContext, PluginError};
use warrant_plugins::{Constructor, PluginKind};
use warrant_stores::{PostgresStore, SqliteConfig};

use crate::config::{Config, ConfigError, DEFAULT_STORE};

/// Why the engine could not be set up. Each message names the bad value or file.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SetupError {
    /// The configuration could not be read.
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// The workspace root is not a directory, or the current directory cannot be read.
    #[error("{0}")]
    Workspace(String),
    /// The configured store could not be opened.
    #[error("cannot open the {kind} store: {message}")]
    Store {
        /// The store's name (`[store] kind`).
        kind: String,
        /// What it said, naming the file or the key.
        message: String,
    },
    /// The stored workspace could not be read.
    #[error("cannot read the workspace from the store: {0}")]
    Load(StoreError),
    /// The chain named in `[plugins]` could not be built.
    #[error(transparent)]
    Plugins(#[from] PluginError),
    /// An `[evaluators]` table is malformed.
    #[error("[evaluators]: {0}")]
    Evaluators(String),
    /// An evaluator added with [`Setup::evaluator`] could not be made.
    #[error("evaluator {name}: {message}")]
    Evaluator {
        /// The position it was added at (`extra evaluator 1`, …) or its own name.
        name: String,
        /// What its factory said.
        message: String,
    },
    /// The engine refused to start (the store failed while restoring its state).
    #[error(transparent)]
    Engine(#[from] EngineError),
}

/// Makes one of the host's own evaluators from what the configured ones are made from: the
/// `[evaluators]` tables (a plugin reads its own section), the engine's tool catalog, the data
/// directory and the store.
type Factory = Box<dyn FnOnce(&BuildContext) -> Result<Arc<dyn Evaluator>, String> + Send>;

/// The production engine, configured: [`Setup::new`] then [`Setup::build`].
///
/// By default it is exactly what `warrant serve` runs: the chain named by `[plugins]` (the
/// default chain `policy`, `rule`, `auto_classifier`, `full_access` when none is named), the
/// canonical grant scoper, the configured workspace root (else the current directory), the
/// SQLite store in the data directory, Warrant's own files protected from every call.
pub struct Setup {
    config: Config,
    store: Option<Arc<dyn Store>>,
    transports: Vec<Arc<dyn Transport>>,
    factories: Vec<(Factory, Duration)>,
    runtime_tools: Option<Vec<RuntimeTool>>,
    limits: Option<EngineLimits>,
    adopt_pending: bool,
}

impl std::fmt::Debug for Setup {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Setup")
            .field("config", &self.config)
            .field("store", &self.store.is_some())
            .field("transports", &self.transports.len())
            .field("extra_evaluators", &self.factories.len())
            .field("runtime_tools", &self.runtime_tools.as_ref().map(Vec::len))
            .field("limits", &self.limits)
            .field("adopt_pending", &self.adopt_pending)
            .finish()
    }
}

impl Setup {
    /// The engine `config` describes.
    pub fn new(config: Config) -> Self {
        Self {
            config,
            store: None,
            transports: Vec::new(),
            factories: Vec::new(),
            runtime_tools: None,
            limits: None,
            adopt_pending: false,
        }
    }

    /// [`Config::load`] then [`Setup::new`]: `file` (else `./warrant.toml` when present) and
    /// the `WARRANT_*` variables over the defaults.
    ///
    /// # Errors
    ///
    /// [`SetupError::Config`] naming the file, the key and what was expected.
    pub fn load(file: Option<&Path>) -> Result<Self, SetupError> {
        Ok(Self::new(Config::load(file)?))
    }

    /// The configuration this engine is made from.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// Uses `store` instead of the SQLite store in the data directory.
    pub fn store(mut self, store: Arc<dyn Store>) -> Self {
        self.store = Some(store);
        self
    }

    /// Adds a transport; every added transport gets every event, in order.
    pub fn transport(mut self, transport: Arc<dyn Transport>) -> Self {
        self.transports.push(transport);
        self
    }

    /// Adds an evaluator of the host's own after the configured ones, made from the same
    /// context as theirs (its `tables` hold the `[evaluators]` configuration, its `catalog`
    /// is the catalog the engine starts with). It gets the chain's default time limit.
    pub fn evaluator<F>(self, factory: F) -> Self
    where
        F: FnOnce(&BuildContext) -> Result<Arc<dyn Evaluator>, String> + Send + 'static,
    {
        self.evaluator_with_timeout(factory, DEFAULT_EVALUATOR_TIMEOUT)
    }

    /// [`Setup::evaluator`] with its own time limit (an evaluator that has not answered by
    /// then asks).
    pub fn evaluator_with_timeout<F>(mut self, factory: F, timeout: Duration) -> Self
    where
        F: FnOnce(&BuildContext) -> Result<Arc<dyn Evaluator>, String> + Send + 'static,
    {
        self.factories.push((Box::new(factory), timeout));
        self
    }

    /// The tools the agent's runtime reported (default: the conservative built-in catalog).
    pub fn runtime_tools(mut self, tools: Vec<RuntimeTool>) -> Self {
        self.runtime_tools = Some(tools);
        self
    }

    /// The engine's bounds (pending approvals, approval timeout, …).
    pub fn limits(mut self, limits: EngineLimits) -> Self {
        self.limits = Some(limits);
        self
    }

    /// For a short-lived process sharing the store with a server or other processes (agent
    /// hooks, the MCP gateway): requests pending in the store are adopted, not ended as
    /// interrupted, and none expires to make room for this process's own.
    pub fn adopt_pending(mut self) -> Self {
        self.adopt_pending = true;
        self
    }

    /// Opens the store (unless one was given), builds the chain and starts the engine.
    ///
    /// On a PostgreSQL store opened from configuration (here or by [`open_store`]), the
    /// engine joins the other instances on its database
    /// ([`Engine::join_instances`](warrant_core::engine::Engine::join_instances)): requests
    /// pending in the store are adopted as with [`adopt_pending`](Self::adopt_pending), a
    /// request can be resolved on any instance, once, and the events any instance logs reach
    /// this one's subscribers.
    ///
    /// # Errors
    ///
    /// A [`SetupError`] naming what is wrong: the workspace root, the database, a plugin, an
    /// `[evaluators]` table, an added evaluator, or the store while restoring state.
    pub async fn build(self) -> Result<Engine, SetupError> {
        let Self {
            mut config,
            store,
            transports,
            factories,
            runtime_tools,
            limits,
            adopt_pending,
        } = self;
        // A configuration made in code gets the same last steps as a loaded one (the
        // `[reviewer]` role mapped, `[telemetry]` checked); settling twice changes nothing.
        config
            .settle()
            .map_err(|e| SetupError::Config(ConfigError::Invalid(e)))?;
        let root = workspace_root(&config).map_err(SetupError::Workspace)?;
        let store = match store {
            Some(store) => store,
            None => open_configured(&config)?,
        };
        // A PostgreSQL store opened from configuration is shared with other instances: their
        // requests are adopted, not ended as interrupted, and their events followed.
        let shared = shared_postgres(&store);
        let adopt_pending = adopt_pending || shared.is_some();
        // Rules are checked against the workspace's own tools (MCP servers, LSP profiles):
        // the catalog the engine starts with, made from the same workspace and runtime tools.
        let stored = load_workspace(&*store).await.map_err(SetupError::Load)?;
        let catalog = ToolCatalog::new(&stored.settings.tooling, runtime_tools.as_deref());
        let cx = build_context(&config, Arc::clone(&store), Arc::new(catalog));
        let (mut chain, _) = warrant_plugins::assemble_builder(&config.plugins, &cx).await?;
        for (i, (factory, timeout)) in factories.into_iter().enumerate() {
            let evaluator = factory(&cx).map_err(|message| SetupError::Evaluator {
                name: format!("extra evaluator {}", i + 1),
                message,
            })?;
            chain = chain.evaluator_with_timeout(evaluator, timeout);
        }
        let evaluators: EvaluatorsConfig = match &cx.tables {
            serde_json::Value::Null => EvaluatorsConfig::default(),
            table => serde_json::from_value(table.clone())
                .map_err(|e| SetupError::Evaluators(e.to_string()))?,
        };
        let scoper = warrant_evaluators::grant_scoper(&evaluators, &root);
        let transport: Arc<dyn Transport> = match transports.len() {
            1 => transports.into_iter().next().expect("one transport"),
            _ => Arc::new(transports),
        };
        let mut builder = Engine::builder(chain.build())
            .store(store)
            .transport(transport)
            .grant_scoper(Arc::new(scoper))
            .workspace_root(root);
        if let Some(tools) = runtime_tools {
            builder = builder.runtime_tools(tools);
        }
        let limits = match (limits, adopt_pending) {
            // Requests adopted from the store are other processes' too: none may expire to
            // make room for this process's own.
            (limits, true) => Some(EngineLimits {
                max_pending_approvals: usize::MAX,
                ..limits.unwrap_or_default()
            }),
            (limits, false) => limits,
        };
        if let Some(limits) = limits {
            builder = builder.limits(limits);
        }
        if adopt_pending {
            builder = builder.adopt_pending();
        }
        let engine = builder.build().await?;
        if let Some(postgres) = shared {
            // Runs until the engine's event hub shuts down or goes.
            drop(engine.join_instances(
                Arc::clone(&postgres) as _,
                postgres,
                DEFAULT_CATCH_UP_INTERVAL,
            ));
        }
        Ok(engine)
    }
}

/// The PostgreSQL stores opened from configuration (by [`open_store`] or [`Setup::build`]),
/// so that the engine built on one of them joins the other instances on its database.
static SHARED_STORES: Mutex<Vec<Weak<PostgresStore>>> = Mutex::new(Vec::new());

/// Remembers a PostgreSQL store opened from configuration.
fn remember_shared(store: &Arc<PostgresStore>) {
    let mut stores = SHARED_STORES
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    stores.retain(|s| s.strong_count() > 0);
    stores.push(Arc::downgrade(store));
}

/// The PostgreSQL store behind `store`, when configuration opened it.
fn shared_postgres(store: &Arc<dyn Store>) -> Option<Arc<PostgresStore>> {
    let stores = SHARED_STORES
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let wanted = Arc::as_ptr(store).cast::<()>();
    stores
        .iter()
        .filter_map(Weak::upgrade)
        .find(|s| std::ptr::eq(Arc::as_ptr(s).cast::<()>(), wanted))
}

/// What the configured evaluators are made from: the `[evaluators]` tables with Warrant's own
/// files protected, `catalog`, the data directory and `store`.
pub fn build_context(
    config: &Config,
    store: Arc<dyn Store>,
    catalog: Arc<ToolCatalog>,
) -> BuildContext {
    BuildContext {
        tables: with_own_files_protected(&config.evaluators, config),
        catalog,
        data_dir: config.data_dir.clone(),
        store: Some(store),
    }
}

/// The chain `config` names (`[plugins]`, `[evaluators]`), made as [`Setup::build`] makes it
/// but without an engine: for judging calls again under another configuration (policy
/// replay). Process plugins are started, library plugins loaded.
///
/// # Errors
///
/// [`SetupError::Plugins`] for an unknown name or a broken table.
pub async fn configured_chain(
    config: &Config,
    store: Arc<dyn Store>,
    catalog: Arc<ToolCatalog>,
) -> Result<Chain, SetupError> {
    let cx = build_context(config, store, catalog);
    Ok(warrant_plugins::assemble(&config.plugins, &cx).await?.chain)
}

/// The engine `config` describes, in one call: [`Setup::new`] then [`Setup::build`].
///
/// # Errors
///
/// As [`Setup::build`].
pub async fn engine(config: Config) -> Result<Engine, SetupError> {
    Setup::new(config).build().await
}

/// The configured workspace root, else the current directory; it must be a directory.
///
/// # Errors
///
/// A message naming the root that is not a directory.
pub fn workspace_root(config: &Config) -> Result<PathBuf, String> {
    let root = match &config.workspace {
        Some(dir) => dir.clone(),
        None => std::env::current_dir()
            .map_err(|e| format!("cannot read the current directory: {e}"))?,
    };
    if !root.is_dir() {
        return Err(format!("workspace {} is not a directory", root.display()));
    }
    Ok(root)
}

/// The store `[store]` names (by default the SQLite store in the data directory, created
/// when missing).
///
/// # Errors
///
/// A message naming the data directory and what failed.
pub fn open_store(config: &Config) -> Result<Arc<dyn Store>, String> {
    open_configured(config).map_err(|e| e.to_string())
}

/// The store `[store]` names, made by its registered constructor from its own keys. The
/// SQLite store defaults to the file in the data directory and the configured
/// `event_retention`.
fn open_configured(config: &Config) -> Result<Arc<dyn Store>, SetupError> {
    link_builtin_plugins();
    let selection = &config.store;
    let plugin = warrant_plugins::registry::builtin(PluginKind::Store, &selection.kind)?;
    let Constructor::Store(open) = plugin.constructor else {
        unreachable!("builtin() returned a plugin of the kind asked for")
    };
    let mut options = selection.options.clone();
    if selection.kind == DEFAULT_STORE {
        let sqlite = sqlite_config(config).map_err(|message| SetupError::Store {
            kind: selection.kind.clone(),
            message,
        })?;
        if let Ok(serde_json::Value::Object(table)) = serde_json::to_value(&sqlite) {
            options = table;
        }
    } else if selection.kind == "postgres" {
        options
            .entry("event_retention")
            .or_insert_with(|| serde_json::json!(config.event_retention));
    }
    let mut tables = serde_json::Map::new();
    tables.insert(selection.kind.clone(), serde_json::Value::Object(options));
    let cx = BuildContext {
        tables: serde_json::Value::Object(tables),
        catalog: Arc::new(ToolCatalog::builtin()),
        data_dir: config.data_dir.clone(),
        store: None,
    };
    if selection.kind == "postgres" {
        // Opened as its registered constructor opens it, but kept by type: the engine on it
        // joins the other instances on the database.
        let store = PostgresStore::from_table(cx.table("postgres"), &cx.data_dir)
            .map(Arc::new)
            .map_err(|message| SetupError::Store {
                kind: selection.kind.clone(),
                message,
            })?;
        remember_shared(&store);
        return Ok(store);
    }
    open(&cx).map_err(|message| SetupError::Store {
        kind: selection.kind.clone(),
        message,
    })
}

/// The SQLite store's configuration as `[store]` gives it (its own keys over the file in the
/// data directory and the configured `event_retention`), for commands that read the SQLite
/// file itself (`warrant audit`).
///
/// # Errors
///
/// A message naming the store when `[store]` picks another kind, or the bad key.
pub fn sqlite_config(config: &Config) -> Result<SqliteConfig, String> {
    if config.store.kind != DEFAULT_STORE {
        return Err(format!(
            "this command reads the sqlite store, but [store] kind is \"{}\"",
            config.store.kind
        ));
    }
    let mut options = config.store.options.clone();
    let defaults = SqliteConfig::in_dir(&config.data_dir);
    if !options.contains_key("path") {
        let path = serde_json::to_value(&defaults.path)
            .map_err(|_| format!("the path {} is not valid UTF-8", defaults.path.display()))?;
        options.insert("path".into(), path);
    }
    options
        .entry("event_retention")
        .or_insert_with(|| serde_json::json!(config.event_retention));
    serde_json::from_value(serde_json::Value::Object(options))
        .map_err(|e| format!("[store] (sqlite): {e}"))
}

/// The built-in crates register their plugins (stores, transports, evaluators) with
/// `inventory`; a linker keeps those registrations only from crates the program references,
/// so this references every one of them. [`Setup::build`] calls it; a program that reads the
/// registry itself (`warrant plugins`) calls it first.
pub fn link_builtin_plugins() {
    std::hint::black_box((
        warrant_evaluators::default_chain as *const () as usize,
        SqliteConfig::open as *const () as usize,
        warrant_transports::sse::SseHub::new as *const () as usize,
    ));
}

/// The `[evaluators]` tables with Warrant's own files added to `policy.protected_paths`:
/// the data directory (database, audit key and checkpoint), the configuration file and the
/// rule files. No call writes them, whatever a rule or grant says; and all but the rule
/// files to `policy.sensitive_paths`: the configuration may hold the token (whatever the
/// file is called), the data directory the audit key.
fn with_own_files_protected(tables: &serde_json::Value, config: &Config) -> serde_json::Value {
    let absolute = |p: &std::path::Path| {
        let joined = if p.is_absolute() {
            p.to_path_buf()
        } else {
            std::env::current_dir().map_or_else(|_| p.to_path_buf(), |cwd| cwd.join(p))
        };
        std::fs::canonicalize(&joined).unwrap_or(joined)
    };
    let mut own: Vec<String> = Vec::new();
    let data = absolute(&config.data_dir);
    let root = workspace_root(config).map(|r| absolute(&r));
    if root.as_ref().is_ok_and(|r| r.starts_with(&data)) {
        // The data directory holds the workspace (`--data-dir .`): only the database and its
        // companions (WAL, shared memory, audit key, head checkpoint) are Warrant's.
        own.push(format!(
            "{}/{}*",
            data.display(),
            warrant_stores::DEFAULT_FILE_NAME
        ));
        // The PostgreSQL store's audit key and head checkpoint default to the data directory.
        own.push(format!("{}/postgres.audit-*", data.display()));
    } else {
        own.push(data.display().to_string());
        own.push(format!("{}/**", data.display()));
    }
    if let Some(file) = &config.source {
        own.push(absolute(file).display().to_string());
    }
    // A store's files configured outside the data directory (the database and its
    // companions, the audit key, the head checkpoint) are Warrant's too.
    for key in ["path", "audit_key_file", "checkpoint_file"] {
        if let Some(file) = config
            .store
            .options
            .get(key)
            .and_then(serde_json::Value::as_str)
        {
            own.push(format!(
                "{}*",
                absolute(std::path::Path::new(file)).display()
            ));
        }
    }
    // Everything so far may hold a credential (the configuration the token, the data
    // directory the audit key): read-sensitive as well. Rule files are not secret.
    let secret = own.clone();
    let rule_files = tables
        .pointer("/rules/files")
        .and_then(serde_json::Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|f| f.get("path").and_then(serde_json::Value::as_str));
    own.extend(rule_files.map(|p| absolute(std::path::Path::new(p)).display().to_string()));
    let mut tables = match tables {
        serde_json::Value::Null => serde_json::json!({}),
        t => t.clone(),
    };
    if let Some(map) = tables.as_object_mut() {
        let policy = map.entry("policy").or_insert_with(|| serde_json::json!({}));
        if let Some(policy) = policy.as_object_mut() {
            let list = policy
                .entry("protected_paths")
                .or_insert_with(|| serde_json::json!([]));
            if let Some(list) = list.as_array_mut() {
                list.extend(own.into_iter().map(serde_json::Value::String));
            }
            let list = policy
                .entry("sensitive_paths")
                .or_insert_with(|| serde_json::json!([]));
            if let Some(list) = list.as_array_mut() {
                list.extend(secret.into_iter().map(serde_json::Value::String));
            }
        }
    }
    tables
}

/// The engine of the configured chain over `store`, emitting through `transport`.
///
/// # Errors
///
/// As [`Setup::build`], as a message.
pub async fn build_engine(
    config: &Config,
    store: Arc<dyn Store>,
    transport: Arc<dyn Transport>,
) -> Result<Engine, String> {
    Setup::new(config.clone())
        .store(store)
        .transport(transport)
        .build()
        .await
        .map_err(|e| e.to_string())
}

/// [`build_engine`] for a short-lived process sharing the store with a server or other
/// hooks ([`Setup::adopt_pending`]).
///
/// # Errors
///
/// As [`Setup::build`], as a message.
pub async fn build_shared_engine(
    config: &Config,
    store: Arc<dyn Store>,
    transport: Arc<dyn Transport>,
) -> Result<Engine, String> {
    Setup::new(config.clone())
        .store(store)
        .transport(transport)
        .adopt_pending()
        .build()
        .await
        .map_err(|e| e.to_string())
}
