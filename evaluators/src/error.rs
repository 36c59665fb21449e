//! The one error type of configuration: what is wrong, where, and how to fix it.

use std::path::PathBuf;

/// A configuration that cannot be used. Every variant names the offending value.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    /// A glob in `policy.sensitive_paths` does not compile.
    #[error("sensitive path glob {glob:?} is invalid: {message}")]
    SensitivePath {
        /// The glob.
        glob: String,
        /// The glob compiler's complaint.
        message: String,
    },
    /// A rule names a tool the catalog does not know.
    #[error("unknown tool id {id:?}{} in rule {rule:?} ({origin})", did_you_mean(.suggestion))]
    UnknownTool {
        /// The rule as written.
        rule: String,
        /// Where the rule came from (`file:line:column` or layer and list position).
        origin: String,
        /// The unknown id.
        id: String,
        /// The nearest known id.
        suggestion: Option<String>,
    },
    /// A rule cannot be read.
    #[error("malformed rule {rule:?} ({origin}): {problem}")]
    MalformedRule {
        /// The rule as written.
        rule: String,
        /// Where the rule came from.
        origin: String,
        /// What is wrong with it.
        problem: String,
    },
    /// A rule file cannot be read or is not valid TOML.
    #[error("rule file {}: {message}", path.display())]
    RuleFile {
        /// The file.
        path: PathBuf,
        /// What went wrong, with the line and column when known.
        message: String,
    },
    /// The classifier backend's configuration is unusable.
    #[error("classifier configuration: {0}")]
    Classifier(String),
}

fn did_you_mean(suggestion: &Option<String>) -> String {
    suggestion
        .as_ref()
        .map(|s| format!(" (did you mean {s:?}?)"))
        .unwrap_or_default()
}
