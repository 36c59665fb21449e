//! The registry of built-in plugins: each crate submits a [`BuiltinPlugin`] with `inventory`,
//! and configuration selects them by name.
//!
//! Registrations live in the crate that implements the plugin:
//!
//! ```
//! use std::sync::Arc;
//! use warrant_plugins::{BuiltinPlugin, PluginKind};
//! # use warrant_core::prelude::*;
//! # struct Quiet;
//! # #[async_trait::async_trait]
//! # impl Evaluator for Quiet {
//! #     fn name(&self) -> &str { "quiet" }
//! #     fn source(&self) -> PermissionDecisionSource { PermissionDecisionSource::Policy }
//! #     async fn evaluate(&self, _: &ToolCall, _: &EvaluationContext) -> Result<Verdict, EvaluatorError> { Ok(Verdict::Abstain) }
//! # }
//!
//! warrant_plugins::inventory::submit! {
//!     BuiltinPlugin::evaluator("quiet", env!("CARGO_PKG_VERSION"), "Abstains on every call.", |_cx| {
//!         Ok(Arc::new(Quiet))
//!     })
//! }
//!
//! assert!(warrant_plugins::builtins().any(|p| p.kind() == PluginKind::Evaluator && p.name == "quiet"));
//! ```
//!
//! A registration in a `cdylib` lands in the library's own copy of the registry, which the
//! host never sees: dynamic libraries go through [`library`](crate::library) instead. And the
//! linker drops submissions from crates nothing references, so the binary must reference every
//! built-in crate.

mod select;

use std::any::Any;
use std::path::PathBuf;
use std::sync::Arc;

use serde::Serialize;
use serde_json::Value;
use warrant_core::catalog::ToolCatalog;
use warrant_core::evaluator::Evaluator;
use warrant_core::store::Store;
use warrant_core::transport::Transport;

pub use select::{builtin, builtin_evaluator};

/// What a plugin is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PluginKind {
    /// An [`Evaluator`].
    Evaluator,
    /// A backend of the `auto_classifier` evaluator.
    ClassifierBackend,
    /// A [`Transport`].
    Transport,
    /// A [`Store`].
    Store,
}

impl PluginKind {
    /// The name used in messages and listings.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Evaluator => "evaluator",
            Self::ClassifierBackend => "classifier_backend",
            Self::Transport => "transport",
            Self::Store => "store",
        }
    }
}

impl std::fmt::Display for PluginKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What a built-in plugin is made from: the configuration and what the host already has.
#[derive(Clone)]
pub struct BuildContext {
    /// The configuration tables, keyed by section (the `[evaluators]` table: `policy`,
    /// `rules`, `classifier`, or a plugin's own name). `null` when there is none.
    pub tables: Value,
    /// The tool ids the workspace knows (rules are checked against them when they load).
    pub catalog: Arc<ToolCatalog>,
    /// Where the host keeps its data (the SQLite store's folder).
    pub data_dir: PathBuf,
    /// The host's store, for plugins that need one (the SSE transport logs events in it).
    pub store: Option<Arc<dyn Store>>,
}

impl BuildContext {
    /// A context with these tables, the built-in catalog, `./.warrant` and no store.
    pub fn new(tables: Value) -> Self {
        Self {
            tables,
            catalog: Arc::new(ToolCatalog::builtin()),
            data_dir: PathBuf::from(".warrant"),
            store: None,
        }
    }

    /// The table of one section (`null` when absent).
    pub fn table(&self, section: &str) -> &Value {
        self.tables.get(section).unwrap_or(&Value::Null)
    }
}

impl Default for BuildContext {
    fn default() -> Self {
        Self::new(Value::Null)
    }
}

impl std::fmt::Debug for BuildContext {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BuildContext")
            .field(
                "sections",
                &self
                    .tables
                    .as_object()
                    .map(|o| o.keys().collect::<Vec<_>>()),
            )
            .field("data_dir", &self.data_dir)
            .field("store", &self.store.is_some())
            .finish()
    }
}

/// How a built-in plugin is made. An `Err` names the offending key.
#[derive(Clone, Copy)]
pub enum Constructor {
    /// Makes an evaluator.
    Evaluator(fn(&BuildContext) -> Result<Arc<dyn Evaluator>, String>),
    /// Makes a classifier backend. Its trait lives with the `auto_classifier` evaluator, so
    /// the value is that crate's `Arc<dyn …>` behind `Any`, and that crate downcasts it.
    ClassifierBackend(fn(&BuildContext) -> Result<Arc<dyn Any + Send + Sync>, String>),
    /// Makes a transport.
    Transport(fn(&BuildContext) -> Result<Arc<dyn Transport>, String>),
    /// Makes a store.
    Store(fn(&BuildContext) -> Result<Arc<dyn Store>, String>),
}

impl std::fmt::Debug for Constructor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Self::Evaluator(_) => "Constructor::Evaluator",
            Self::ClassifierBackend(_) => "Constructor::ClassifierBackend",
            Self::Transport(_) => "Constructor::Transport",
            Self::Store(_) => "Constructor::Store",
        })
    }
}

/// A built-in plugin, submitted with `inventory::submit!` by the crate that implements it.
#[derive(Clone, Copy)]
pub struct BuiltinPlugin {
    /// The stable name configuration selects it by.
    pub name: &'static str,
    /// Its version (`env!("CARGO_PKG_VERSION")` of its crate).
    pub version: &'static str,
    /// One line on what it does.
    pub description: &'static str,
    /// How it is made.
    pub constructor: Constructor,
}

impl BuiltinPlugin {
    /// An evaluator's registration.
    pub const fn evaluator(
        name: &'static str,
        version: &'static str,
        description: &'static str,
        build: fn(&BuildContext) -> Result<Arc<dyn Evaluator>, String>,
    ) -> Self {
        Self {
            name,
            version,
            description,
            constructor: Constructor::Evaluator(build),
        }
    }

    /// What it is.
    pub fn kind(&self) -> PluginKind {
        match self.constructor {
            Constructor::Evaluator(_) => PluginKind::Evaluator,
            Constructor::ClassifierBackend(_) => PluginKind::ClassifierBackend,
            Constructor::Transport(_) => PluginKind::Transport,
            Constructor::Store(_) => PluginKind::Store,
        }
    }
}

impl std::fmt::Debug for BuiltinPlugin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BuiltinPlugin")
            .field("kind", &self.kind())
            .field("name", &self.name)
            .field("version", &self.version)
            .finish()
    }
}

inventory::collect!(BuiltinPlugin);

/// Every built-in plugin linked into this program, sorted by kind and name.
pub fn builtins() -> impl Iterator<Item = &'static BuiltinPlugin> {
    let mut all: Vec<&'static BuiltinPlugin> = inventory::iter::<BuiltinPlugin>().collect();
    all.sort_by_key(|p| (p.kind(), p.name));
    all.into_iter()
}
