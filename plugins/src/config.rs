//! The `[plugins]` configuration: which evaluators make the chain, in order, and the
//! out-of-process and dynamic plugins.

use serde::{Deserialize, Serialize};

use crate::library::LibraryConfig;
use crate::process::ProcessConfig;

/// The built-in evaluators a chain has when configuration names none.
pub const DEFAULT_EVALUATORS: [&str; 4] = ["policy", "rule", "auto_classifier", "full_access"];

/// The `[plugins]` table.
///
/// ```toml
/// [plugins]
/// evaluators = ["policy", "rule", "auto_classifier", "full_access", "branch_guard", "office_hours"]
///
/// [[plugins.process]]
/// name = "branch_guard"
/// command = "python3"
/// args = ["/opt/warrant/branch_guard.py"]
/// timeout_ms = 2000
/// config = { protected = ["main"] }
///
/// [[plugins.library]]
/// name = "office_hours"
/// path = "/opt/warrant/libwarrant_hours_plugin.so"
/// config = { start_hour = 9, end_hour = 18 }
/// ```
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PluginsConfig {
    /// The evaluators of the chain by name: built-ins, process and library plugins alike.
    /// Absent: [`DEFAULT_EVALUATORS`], then every process and library plugin configured.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub evaluators: Option<Vec<String>>,
    /// Out-of-process evaluators.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub process: Vec<ProcessConfig>,
    /// Dynamic-library evaluators.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub library: Vec<LibraryConfig>,
}

impl PluginsConfig {
    /// The evaluator names of the chain, in order.
    pub fn evaluator_names(&self) -> Vec<String> {
        match &self.evaluators {
            Some(names) => names.clone(),
            None => DEFAULT_EVALUATORS
                .iter()
                .map(|n| (*n).to_owned())
                .chain(self.process.iter().map(|p| p.name.clone()))
                .chain(self.library.iter().map(|l| l.name.clone()))
                .collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn without_a_list_the_chain_is_the_built_ins_then_every_configured_plugin() {
        let config: PluginsConfig =
            toml::from_str("[[process]]\nname = \"guard\"\ncommand = \"guard\"").unwrap();
        assert_eq!(
            config.evaluator_names(),
            ["policy", "rule", "auto_classifier", "full_access", "guard"]
        );
    }

    #[test]
    fn a_list_picks_and_orders_the_evaluators() {
        let config: PluginsConfig = toml::from_str(r#"evaluators = ["rule", "policy"]"#).unwrap();
        assert_eq!(config.evaluator_names(), ["rule", "policy"]);
    }
}
