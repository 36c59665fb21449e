//! Building the chain from configuration: every evaluator by name, in order, whatever its
//! origin, and listing every plugin.

use std::collections::HashSet;
use std::sync::Arc;
use std::time::Duration;

use warrant_core::chain::{Chain, ChainBuilder, DEFAULT_EVALUATOR_TIMEOUT};
use warrant_core::evaluator::Evaluator;

use crate::config::PluginsConfig;
use crate::error::PluginError;
use crate::info::PluginInfo;
use crate::library::LibraryEvaluator;
use crate::process::ProcessEvaluator;
use crate::registry::{BuildContext, PluginKind, builtin_evaluator, builtins};

/// A chain built from configuration, with what is in it.
#[derive(Debug)]
pub struct Assembly {
    /// The chain.
    pub chain: Chain,
    /// Its evaluators, in configuration order.
    pub evaluators: Vec<PluginInfo>,
}

/// Builds the chain `config` names. Built-in evaluators are made from `cx` (they read their
/// own sections of its tables, the `[evaluators]` configuration); process plugins are
/// started, library plugins loaded.
///
/// A process or library plugin that cannot start is kept: it fails every call, so its calls
/// ask and the audit log says why.
///
/// # Errors
///
/// An unknown or duplicated name, a relative library path, or a built-in's broken table.
pub async fn assemble(config: &PluginsConfig, cx: &BuildContext) -> Result<Assembly, PluginError> {
    let (builder, evaluators) = assemble_builder(config, cx).await?;
    Ok(Assembly {
        chain: builder.build(),
        evaluators,
    })
}

/// [`assemble`] stopped before the chain is sealed: the builder holds the configured
/// evaluators in order, so a host may add its own before building it.
///
/// # Errors
///
/// As [`assemble`].
pub async fn assemble_builder(
    config: &PluginsConfig,
    cx: &BuildContext,
) -> Result<(ChainBuilder, Vec<PluginInfo>), PluginError> {
    check_names(config)?;
    let mut builder = Chain::builder();
    let mut evaluators = Vec::new();
    for name in config.evaluator_names() {
        let (evaluator, timeout, info): (Arc<dyn Evaluator>, Duration, PluginInfo) =
            if let Some(p) = config.process.iter().find(|p| p.name == name) {
                let evaluator = ProcessEvaluator::new(p.clone());
                let info = PluginInfo::process(&evaluator).await;
                if let Some(error) = &info.error {
                    tracing::error!(plugin = %name, "{error}");
                }
                // The chain's own limit is a backstop: a restart may come before the call.
                let limit = p.timeout() + Duration::from_millis(p.startup_timeout_ms);
                (Arc::new(evaluator), limit, info)
            } else if let Some(l) = config.library.iter().find(|l| l.name == name) {
                let evaluator = LibraryEvaluator::load_or_refuse(l.clone())?;
                let info = PluginInfo::library(&evaluator);
                (Arc::new(evaluator), l.timeout(), info)
            } else {
                let evaluator = builtin_evaluator(&name, cx).map_err(|e| widen(e, config))?;
                let plugin = builtins()
                    .find(|p| p.kind() == PluginKind::Evaluator && p.name == name)
                    .map(PluginInfo::builtin);
                // A built-in that needs longer than the default (a model reviewer) says so.
                let limit = evaluator.time_limit().unwrap_or(DEFAULT_EVALUATOR_TIMEOUT);
                (evaluator, limit, plugin.expect("found above"))
            };
        builder = builder.evaluator_with_timeout(evaluator, timeout);
        evaluators.push(info);
    }
    for unused in config
        .process
        .iter()
        .map(|p| &p.name)
        .chain(config.library.iter().map(|l| &l.name))
    {
        if !evaluators.iter().any(|e| &e.name == unused) {
            tracing::warn!(plugin = %unused, "configured but not named in plugins.evaluators");
        }
    }
    Ok((builder, evaluators))
}

/// Every plugin: the built-ins of every kind, then each configured process and library
/// plugin, started or loaded to ask its version.
///
/// # Errors
///
/// A duplicated name or a relative library path.
pub async fn list(config: &PluginsConfig) -> Result<Vec<PluginInfo>, PluginError> {
    check_names(config)?;
    let mut plugins: Vec<PluginInfo> = builtins().map(PluginInfo::builtin).collect();
    for p in &config.process {
        plugins.push(PluginInfo::process(&ProcessEvaluator::new(p.clone())).await);
    }
    for l in &config.library {
        plugins.push(PluginInfo::library(&LibraryEvaluator::load_or_refuse(
            l.clone(),
        )?));
    }
    Ok(plugins)
}

/// Names are unique among evaluators, and library paths absolute.
fn check_names(config: &PluginsConfig) -> Result<(), PluginError> {
    let mut seen: HashSet<String> = builtins()
        .filter(|p| p.kind() == PluginKind::Evaluator)
        .map(|p| p.name.to_owned())
        .collect();
    let plugged = config
        .process
        .iter()
        .map(|p| &p.name)
        .chain(config.library.iter().map(|l| &l.name));
    for name in plugged {
        if !seen.insert(name.clone()) {
            return Err(PluginError::Duplicate {
                kind: PluginKind::Evaluator,
                name: name.clone(),
            });
        }
    }
    let mut listed = HashSet::new();
    for name in config.evaluators.iter().flatten() {
        if !listed.insert(name) {
            return Err(PluginError::Config {
                kind: PluginKind::Evaluator,
                name: name.clone(),
                message: "named twice in plugins.evaluators".to_owned(),
            });
        }
    }
    config.library.iter().try_for_each(|l| l.validate())
}

/// An unknown built-in name also lists the configured plugins among the known names.
fn widen(error: PluginError, config: &PluginsConfig) -> PluginError {
    match error {
        PluginError::UnknownName {
            kind,
            name,
            mut known,
            ..
        } => {
            known.extend(config.process.iter().map(|p| p.name.clone()));
            known.extend(config.library.iter().map(|l| l.name.clone()));
            PluginError::unknown(kind, &name, known)
        }
        other => other,
    }
}
