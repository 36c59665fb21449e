//! Dynamic plugins: `cdylib` libraries named by absolute path in configuration, spoken to
//! through the versioned C ABI of [`warrant_plugin_sdk::abi`].
//!
//! A library whose versions do not match is refused with a clear error; when the chain is
//! assembled anyway, the refused evaluator fails every call, so its calls ask.

mod compat;
mod loader;

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use warrant_core::call::{EvaluationContext, PermissionMode, ToolCall};
use warrant_core::decision::PermissionDecisionSource;
use warrant_core::evaluator::{Evaluator, EvaluatorError, Role, Verdict};
use warrant_plugin_sdk::wire::{EvaluationRequest, Manifest, Reply};

use crate::error::PluginError;
use crate::registry::PluginKind;

/// One dynamic plugin as configured (`[[plugins.library]]`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LibraryConfig {
    /// The name configuration selects it by, and traces show.
    pub name: String,
    /// The library's absolute path.
    pub path: PathBuf,
    /// How long one call may take, in milliseconds.
    #[serde(default = "default_timeout_ms")]
    pub timeout_ms: u64,
    /// The provenance stamped on its decisions (default: what the plugin declares).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<PermissionDecisionSource>,
    /// Set to a mode to make it settle that mode's open calls (default: what it declares).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub settles: Option<PermissionMode>,
    /// Its configuration table, handed to the plugin's `create`.
    #[serde(default)]
    pub config: Value,
}

fn default_timeout_ms() -> u64 {
    5_000
}

impl LibraryConfig {
    /// The library at `path`, selected as `name`, with the default timeout.
    pub fn new(name: impl Into<String>, path: impl Into<PathBuf>) -> Self {
        Self {
            name: name.into(),
            path: path.into(),
            timeout_ms: default_timeout_ms(),
            source: None,
            settles: None,
            config: Value::Null,
        }
    }

    /// How long one call may take.
    pub fn timeout(&self) -> Duration {
        Duration::from_millis(self.timeout_ms)
    }

    /// Checks what can be checked without loading: the path is absolute.
    ///
    /// # Errors
    ///
    /// [`PluginError::Config`] for a relative path.
    pub fn validate(&self) -> Result<(), PluginError> {
        if self.path.is_absolute() {
            Ok(())
        } else {
            Err(PluginError::Config {
                kind: PluginKind::Evaluator,
                name: self.name.clone(),
                message: format!(
                    "library path {} is relative; name plugin libraries by absolute path",
                    self.path.display()
                ),
            })
        }
    }
}

struct Loaded {
    manifest: Manifest,
    instance: Arc<loader::Instance>,
}

/// An evaluator that lives in a dynamic library.
pub struct LibraryEvaluator {
    config: LibraryConfig,
    loaded: Result<Loaded, String>,
}

impl std::fmt::Debug for LibraryEvaluator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LibraryEvaluator")
            .field("name", &self.config.name)
            .field("path", &self.config.path)
            .field("refused", &self.refusal())
            .finish()
    }
}

impl LibraryEvaluator {
    /// Loads the library, checks its versions and makes an instance from its config table.
    ///
    /// # Errors
    ///
    /// [`PluginError::Config`] for a relative path; [`PluginError::Library`] when the library
    /// cannot be loaded, was built for another ABI, core or compiler, or refused its config.
    pub fn load(config: LibraryConfig) -> Result<Self, PluginError> {
        config.validate()?;
        let loaded = Self::open(&config).map_err(|message| PluginError::Library {
            path: config.path.display().to_string(),
            message,
        })?;
        Ok(Self {
            config,
            loaded: Ok(loaded),
        })
    }

    /// As [`load`](Self::load), but a library that fails to load becomes an evaluator that
    /// fails every call with the reason, so its calls ask and the audit log says why.
    ///
    /// # Errors
    ///
    /// [`PluginError::Config`] for a relative path.
    pub fn load_or_refuse(config: LibraryConfig) -> Result<Self, PluginError> {
        config.validate()?;
        let loaded = Self::open(&config);
        if let Err(reason) = &loaded {
            tracing::error!(plugin = %config.name, path = %config.path.display(), "{reason}");
        }
        Ok(Self { config, loaded })
    }

    fn open(config: &LibraryConfig) -> Result<Loaded, String> {
        let plugin = loader::open(&config.path)?;
        let manifest: Manifest = serde_json::from_slice(&plugin.describe()?)
            .map_err(|e| format!("its manifest is malformed: {e}"))?;
        let table = serde_json::to_vec(&config.config).map_err(|e| e.to_string())?;
        let instance = Arc::new(plugin.create(&table)?);
        Ok(Loaded { manifest, instance })
    }

    /// Its configuration.
    pub fn config(&self) -> &LibraryConfig {
        &self.config
    }

    /// What the plugin declared, when it loaded.
    pub fn manifest(&self) -> Option<&Manifest> {
        self.loaded.as_ref().ok().map(|l| &l.manifest)
    }

    /// Why the library was refused, when it was.
    pub fn refusal(&self) -> Option<&str> {
        self.loaded.as_ref().err().map(String::as_str)
    }

    fn error(&self, message: &str) -> EvaluatorError {
        crate::failure::error("library", &self.config.name, message)
    }
}

#[async_trait]
impl Evaluator for LibraryEvaluator {
    fn name(&self) -> &str {
        &self.config.name
    }

    fn source(&self) -> PermissionDecisionSource {
        let declared = self.manifest().map(|m| m.source);
        self.config
            .source
            .or(declared)
            .unwrap_or(PermissionDecisionSource::Policy)
    }

    fn role(&self) -> Role {
        let declared = self.manifest().and_then(|m| m.settles);
        self.config
            .settles
            .or(declared)
            .map_or(Role::Judge, Role::Settle)
    }

    async fn evaluate(
        &self,
        call: &ToolCall,
        cx: &EvaluationContext,
    ) -> Result<Verdict, EvaluatorError> {
        let loaded = self.loaded.as_ref().map_err(|reason| self.error(reason))?;
        let request = serde_json::to_vec(&EvaluationRequest::new(call, cx))
            .map_err(|e| self.error(&e.to_string()))?;
        let instance = Arc::clone(&loaded.instance);
        // A plugin that never returns holds one blocking thread; the chain's timeout still
        // answers the call.
        let answer = tokio::task::spawn_blocking(move || instance.evaluate(&request))
            .await
            .map_err(|e| self.error(&format!("the call did not finish: {e}")))?
            .map_err(|e| self.error(&e))?;
        let reply: Reply = serde_json::from_slice(&answer).map_err(|e| {
            let text = String::from_utf8_lossy(&answer);
            let clipped: String = text.chars().take(200).collect();
            self.error(&format!("malformed reply ({e}): {clipped}"))
        })?;
        crate::failure::verdict("library", &self.config.name, reply)
    }
}
