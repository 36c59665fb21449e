//! Finding a built-in plugin by kind and name.

use std::sync::Arc;

use warrant_core::evaluator::Evaluator;

use super::{BuildContext, BuiltinPlugin, Constructor, PluginKind, builtins};
use crate::error::PluginError;

/// The built-in plugin of `kind` named `name`.
///
/// # Errors
///
/// [`PluginError::UnknownName`] listing the known names of that kind and the nearest one;
/// [`PluginError::Duplicate`] when two crates registered the name.
pub fn builtin(kind: PluginKind, name: &str) -> Result<&'static BuiltinPlugin, PluginError> {
    let mut matches = builtins().filter(|p| p.kind() == kind && p.name == name);
    match (matches.next(), matches.next()) {
        (Some(plugin), None) => Ok(plugin),
        (Some(_), Some(_)) => Err(PluginError::Duplicate {
            kind,
            name: name.to_owned(),
        }),
        (None, _) => Err(PluginError::unknown(kind, name, builtin_names(kind))),
    }
}

/// The names of every built-in plugin of `kind`, sorted.
pub(crate) fn builtin_names(kind: PluginKind) -> Vec<String> {
    builtins()
        .filter(|p| p.kind() == kind)
        .map(|p| p.name.to_owned())
        .collect()
}

/// Makes the built-in evaluator `name` from the configuration in `cx`.
///
/// # Errors
///
/// As [`builtin`]; [`PluginError::Config`] when the table is wrong.
pub fn builtin_evaluator(name: &str, cx: &BuildContext) -> Result<Arc<dyn Evaluator>, PluginError> {
    let plugin = builtin(PluginKind::Evaluator, name)?;
    let Constructor::Evaluator(build) = plugin.constructor else {
        unreachable!("builtin() filtered by kind")
    };
    build(cx).map_err(|message| PluginError::Config {
        kind: PluginKind::Evaluator,
        name: name.to_owned(),
        message,
    })
}
