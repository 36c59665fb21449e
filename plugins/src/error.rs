//! Why a plugin could not be selected, configured or loaded.

use crate::registry::PluginKind;

/// Why a plugin could not be selected, configured or loaded. Each message names the offending
/// value and how to fix it.
#[derive(Debug, thiserror::Error)]
pub enum PluginError {
    /// Configuration names a plugin nobody registered or configured.
    #[error("unknown {kind} \"{name}\"{}; known: {}", did_you_mean(.nearest), list(.known))]
    UnknownName {
        /// What was looked for.
        kind: PluginKind,
        /// The name as configured.
        name: String,
        /// Every known name of that kind, sorted.
        known: Vec<String>,
        /// The known name nearest to it, when one is close.
        nearest: Option<String>,
    },
    /// Two plugins of one kind share a name.
    #[error("two {kind}s are named \"{name}\": give one of them another name")]
    Duplicate {
        /// Their kind.
        kind: PluginKind,
        /// The shared name.
        name: String,
    },
    /// A plugin's configuration is wrong.
    #[error("{kind} \"{name}\": {message}")]
    Config {
        /// Its kind.
        kind: PluginKind,
        /// Its name.
        name: String,
        /// What is wrong, naming the key.
        message: String,
    },
    /// A dynamic library was refused or could not be loaded.
    #[error("plugin library {path}: {message}")]
    Library {
        /// The library's path.
        path: String,
        /// Why it was refused.
        message: String,
    },
}

impl PluginError {
    /// An unknown `name` of `kind`, with the `known` names (sorted here) and the nearest.
    pub fn unknown(kind: PluginKind, name: &str, mut known: Vec<String>) -> Self {
        known.sort();
        known.dedup();
        let nearest = nearest(name, known.iter().map(String::as_str)).map(str::to_owned);
        Self::UnknownName {
            kind,
            name: name.to_owned(),
            known,
            nearest,
        }
    }
}

fn did_you_mean(nearest: &Option<String>) -> String {
    nearest
        .as_ref()
        .map(|n| format!(" (did you mean \"{n}\"?)"))
        .unwrap_or_default()
}

fn list(known: &[String]) -> String {
    if known.is_empty() {
        "none".to_owned()
    } else {
        known.join(", ")
    }
}

/// The known name nearest to `unknown`, if within a third of its length (at least one edit).
fn nearest<'a>(unknown: &str, known: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let budget = (unknown.chars().count() / 3).max(1);
    known
        .into_iter()
        .map(|k| (strsim::osa_distance(unknown, k), k))
        .filter(|&(distance, _)| distance <= budget)
        .min_by_key(|&(distance, _)| distance)
        .map(|(_, k)| k)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unknown_name_lists_the_known_ones_and_the_nearest() {
        let known = ["rule", "policy", "auto_classifier"]
            .map(str::to_owned)
            .to_vec();
        let err = PluginError::unknown(PluginKind::Evaluator, "polcy", known);
        assert_eq!(
            err.to_string(),
            "unknown evaluator \"polcy\" (did you mean \"policy\"?); known: auto_classifier, policy, rule"
        );
    }

    #[test]
    fn a_far_name_has_no_nearest() {
        assert_eq!(nearest("deploy_guard", ["policy", "rule"]), None);
    }
}
