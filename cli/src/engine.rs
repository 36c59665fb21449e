//! The engine every command builds the same way: the configured chain by name (built-ins,
//! process and library plugins), the canonical grant scoper and the workspace root.

use std::path::PathBuf;
use std::sync::Arc;

use warrant_core::catalog::ToolCatalog;
use warrant_core::engine::{Engine, EngineLimits};
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

/// The `[evaluators]` tables with Warrant's own files added to `policy.protected_paths`:
/// the data directory (database, audit key and checkpoint), the configuration file and the
/// rule files. No call writes them, whatever a rule or grant says.
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
    } else {
        own.push(data.display().to_string());
        own.push(format!("{}/**", data.display()));
    }
    if let Some(file) = &config.source {
        own.push(absolute(file).display().to_string());
    }
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
        }
    }
    tables
}

/// The engine of the configured chain over `store`, emitting through `transport`.
pub(crate) async fn build_engine(
    config: &Config,
    store: Arc<dyn Store>,
    transport: Arc<dyn Transport>,
) -> Result<Engine, String> {
    build(config, store, transport, false).await
}

/// [`build_engine`] for a short-lived process sharing the store with a server or other
/// hooks: requests pending in the store are adopted, not ended as interrupted.
pub(crate) async fn build_shared_engine(
    config: &Config,
    store: Arc<dyn Store>,
    transport: Arc<dyn Transport>,
) -> Result<Engine, String> {
    build(config, store, transport, true).await
}

async fn build(
    config: &Config,
    store: Arc<dyn Store>,
    transport: Arc<dyn Transport>,
    adopt_pending: bool,
) -> Result<Engine, String> {
    let root = workspace_root(config)?;
    // Rules are checked against the workspace's own tools (MCP servers, LSP profiles).
    let stored = load_workspace(&*store).await.map_err(|e| e.to_string())?;
    let cx = BuildContext {
        tables: with_own_files_protected(&config.evaluators, config),
        catalog: Arc::new(ToolCatalog::new(&stored.settings.tooling, None)),
        data_dir: config.data_dir.clone(),
        store: Some(store.clone()),
    };
    let assembly = warrant_plugins::assemble(&config.plugins, &cx)
        .await
        .map_err(|e| e.to_string())?;
    let evaluators: EvaluatorsConfig = match &cx.tables {
        serde_json::Value::Null => EvaluatorsConfig::default(),
        table => serde_json::from_value(table.clone()).map_err(|e| format!("[evaluators]: {e}"))?,
    };
    let scoper = warrant_evaluators::grant_scoper(&evaluators, &root);
    let builder = Engine::builder(assembly.chain)
        .store(store)
        .transport(transport)
        .grant_scoper(Arc::new(scoper))
        .workspace_root(root);
    let builder = if adopt_pending {
        // Requests adopted from the store are other processes' too: none may expire to make
        // room for this process's own.
        builder.adopt_pending().limits(EngineLimits {
            max_pending_approvals: usize::MAX,
            ..EngineLimits::default()
        })
    } else {
        builder
    };
    builder.build().await.map_err(|e| e.to_string())
}
