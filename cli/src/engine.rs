//! The engine every command builds the same way: the configured chain by name (built-ins,
//! process and library plugins), the canonical grant scoper and the workspace root.

use std::path::PathBuf;
use std::sync::Arc;

use warrant_core::catalog::ToolCatalog;
use warrant_core::engine::Engine;
use warrant_core::store::Store;
use warrant_core::transport::Transport;
use warrant_core::workspace::load_workspace;
use warrant_evaluators::EvaluatorsConfig;
use warrant_plugins::BuildContext;

use crate::config::Config;

/// The configured workspace root, else the current directory; it must be a directory.
pub(crate) fn workspace_root(config: &Config) -> Result<PathBuf, String> {
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

/// The engine of the configured chain over `store`, emitting through `transport`.
pub(crate) async fn build_engine(
    config: &Config,
    store: Arc<dyn Store>,
    transport: Arc<dyn Transport>,
) -> Result<Engine, String> {
    let root = workspace_root(config)?;
    // Rules are checked against the workspace's own tools (MCP servers, LSP profiles).
    let stored = load_workspace(&*store).await.map_err(|e| e.to_string())?;
    let cx = BuildContext {
        tables: config.evaluators.clone(),
        catalog: Arc::new(ToolCatalog::new(&stored.settings.tooling, None)),
        data_dir: config.data_dir.clone(),
        store: Some(store.clone()),
    };
    let assembly = warrant_plugins::assemble(&config.plugins, &cx)
        .await
        .map_err(|e| e.to_string())?;
    let evaluators: EvaluatorsConfig = match &config.evaluators {
        serde_json::Value::Null => EvaluatorsConfig::default(),
        table => serde_json::from_value(table.clone()).map_err(|e| format!("[evaluators]: {e}"))?,
    };
    let scoper = warrant_evaluators::grant_scoper(&evaluators, &root);
    Engine::builder(assembly.chain)
        .store(store)
        .transport(transport)
        .grant_scoper(Arc::new(scoper))
        .workspace_root(root)
        .build()
        .await
        .map_err(|e| e.to_string())
}
