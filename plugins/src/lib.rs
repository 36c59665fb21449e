//! Warrant's plugins: built-ins registered by name, out-of-process evaluators, dynamic libraries.
//!
//! - [`registry`]: every built-in evaluator, classifier backend, transport and store submits a
//!   [`BuiltinPlugin`] with `inventory`; configuration selects and orders them by name.
//! - [`process`]: evaluators in any language, speaking JSON lines on stdin/stdout
//!   (`PROTOCOL.md`), with a timeout per call and a restart after a crash.
//! - [`library`]: `cdylib` evaluators loaded by absolute path through a versioned C ABI
//!   ([`warrant_plugin_sdk::abi`]); the only `unsafe` code of the host is its loader.
//! - [`assemble`] builds the chain a [`PluginsConfig`] names, and [`list`] shows every plugin.
//!
//! Every failure of a plugin at run time — a crash, a timeout, a wrong version, a panic, a
//! malformed reply — is an evaluator error, which the chain turns into `ask` and records.

mod assemble;
mod config;
mod error;
mod failure;
mod info;
pub mod library;
pub mod process;
pub mod registry;

pub use assemble::{Assembly, assemble, assemble_builder, list};
pub use config::{DEFAULT_EVALUATORS, PluginsConfig};
pub use error::PluginError;
pub use info::{Origin, PluginInfo, render_table};
pub use registry::{BuildContext, BuiltinPlugin, Constructor, PluginKind, builtins};

/// Re-exported so that a crate registers with `warrant_plugins::inventory::submit!`.
pub use inventory;
