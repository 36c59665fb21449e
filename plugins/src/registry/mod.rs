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
//!     BuiltinPlugin::evaluator("quiet", env!("CARGO_PKG_VERSION"), "Abstains on every call.", |_table| {
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
use std::sync::Arc;

use serde::Serialize;
use serde_json::Value;
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

/// How a built-in plugin is made from its configuration table (`null` when there is none).
/// An `Err` names the offending key.
#[derive(Clone, Copy)]
pub enum Constructor {
    /// Makes an evaluator.
    Evaluator(fn(&Value) -> Result<Arc<dyn Evaluator>, String>),
    /// Makes a classifier backend. Its trait lives with the `auto_classifier` evaluator, so
    /// the value is that crate's `Arc<dyn …>` behind `Any`, and that crate downcasts it.
    ClassifierBackend(fn(&Value) -> Result<Arc<dyn Any + Send + Sync>, String>),
    /// Makes a transport.
    Transport(fn(&Value) -> Result<Arc<dyn Transport>, String>),
    /// Makes a store.
    Store(fn(&Value) -> Result<Arc<dyn Store>, String>),
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
        build: fn(&Value) -> Result<Arc<dyn Evaluator>, String>,
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
