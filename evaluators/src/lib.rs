//! Warrant's built-in evaluators: `policy`, `rule`, `auto_classifier` and `full_access`, and
//! the grant scoper that keys approvals by meaning.
//!
//! The CLI builds everything from one [`EvaluatorsConfig`]:
//!
//! ```
//! use warrant_core::catalog::ToolCatalog;
//! use warrant_evaluators::{EvaluatorsConfig, default_chain, grant_scoper};
//!
//! let config: EvaluatorsConfig = toml::from_str(r#"
//!     [rules.user]
//!     allow = ["Bash(npm run test:*)"]
//!     deny = ["Bash(git push:*)"]
//! "#).unwrap();
//! let chain = default_chain(&config, &ToolCatalog::builtin()).unwrap();
//! assert_eq!(chain.evaluator_names(), ["policy", "rule", "auto_classifier", "full_access"]);
//! let _scoper = grant_scoper(&config, ".");
//! ```

pub mod classifier;
mod error;
pub mod full_access;
mod grants;
pub(crate) mod paths;
mod plugin;
pub mod policy;
mod process_env;
pub mod programs;
pub mod rule;
pub mod shell;

use std::path::PathBuf;

use serde::Deserialize;
use warrant_core::catalog::ToolCatalog;
use warrant_core::chain::{Chain, ChainBuilder};

pub use classifier::{AutoClassifier, Classifier, ClassifierConfig};
pub use error::ConfigError;
pub use full_access::FullAccess;
pub use grants::CanonicalGrantScoper;
pub use policy::{PolicyConfig, PolicyEvaluator};
pub use rule::{RuleEvaluator, RulesConfig};

/// The configuration of every built-in evaluator; every field has a working default, so an
/// empty configuration gives the policy, no rules, the embedded reviewer and Full Access.
///
/// ```toml
/// [policy]
/// sensitive_paths = ["secrets/**"]
///
/// [rules.project]
/// allow = ["Bash(npm run test:*)", "Edit(src/**)"]
/// ask = ["Bash(git push:*)"]
///
/// [[rules.files]]
/// path = "/etc/warrant/managed-rules.toml"
/// layer = "managed"
///
/// [classifier.openai]
/// base_url = "http://127.0.0.1:8000/v1"
/// model = "qwen2.5-7b-instruct"
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct EvaluatorsConfig {
    /// The `policy` evaluator.
    pub policy: PolicyConfig,
    /// The `rule` evaluator's rules.
    pub rules: RulesConfig,
    /// The `auto_classifier` evaluator's reviewer.
    pub classifier: ClassifierConfig,
}

/// The built-in chain: `policy`, `rule`, `auto_classifier` (the embedded reviewer unless an
/// OpenAI-compatible endpoint is configured) and `full_access`. Rules are checked against
/// `catalog`, the tool ids the workspace knows.
///
/// # Errors
///
/// A [`ConfigError`] naming the offending rule, glob or classifier setting.
pub fn default_chain(
    config: &EvaluatorsConfig,
    catalog: &ToolCatalog,
) -> Result<Chain, ConfigError> {
    Ok(default_chain_builder(config, catalog)?.build())
}

/// The built-in chain's builder, to add evaluators of one's own to it (the chain combines
/// verdicts by strength, never by order, so an added evaluator cannot weaken a built-in deny).
///
/// ```
/// use warrant_core::catalog::ToolCatalog;
/// use warrant_core::prelude::*;
/// use warrant_core::testkit::evaluator_fn;
/// use warrant_evaluators::{EvaluatorsConfig, default_chain_builder};
///
/// let no_deploys = evaluator_fn("no_deploys", PermissionDecisionSource::Policy, |call, _| {
///     if call.tool_name == "deploy" {
///         Verdict::decide(
///             Stance::HardDeny,
///             Rationale::new("plugin_no_deploys_deny", "Deploys are off.", Risk::High),
///         )
///     } else {
///         Verdict::Abstain
///     }
/// });
/// let chain = default_chain_builder(&EvaluatorsConfig::default(), &ToolCatalog::builtin())
///     .unwrap()
///     .evaluator(no_deploys)
///     .build();
/// assert_eq!(
///     chain.evaluator_names(),
///     ["policy", "rule", "auto_classifier", "full_access", "no_deploys"]
/// );
/// ```
///
/// # Errors
///
/// As [`default_chain`].
pub fn default_chain_builder(
    config: &EvaluatorsConfig,
    catalog: &ToolCatalog,
) -> Result<ChainBuilder, ConfigError> {
    let policy = PolicyEvaluator::new(&config.policy)?;
    let rules = RuleEvaluator::new(&config.rules, catalog, policy.home_dir().map(PathBuf::from))?;
    let (classifier, wait) = config.classifier.evaluator(&policy)?;
    let builder = Chain::builder().evaluator(policy).evaluator(rules);
    let builder = match wait {
        Some(wait) => builder.evaluator_with_timeout(classifier, wait),
        None => builder.evaluator(classifier),
    };
    Ok(builder.evaluator(FullAccess))
}

/// The grant scoper for a workspace at `workspace_root`: grants keyed by each command's exact
/// words for shell commands, by directory for file tools, by host for web URLs, all bound to
/// the workspace (see [`CanonicalGrantScoper`]).
pub fn grant_scoper(
    config: &EvaluatorsConfig,
    workspace_root: impl Into<PathBuf>,
) -> CanonicalGrantScoper {
    CanonicalGrantScoper::new(workspace_root, config.policy.home())
}

/// The version of the built-in evaluators, streamed with their decisions.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
