//! An example dynamic plugin: denies network tools outside working hours.
//!
//! Build it with `cargo build -p warrant-hours-plugin` and name the library in `warrant.toml`:
//!
//! ```toml
//! [[plugins.library]]
//! name = "office_hours"
//! path = "/absolute/path/to/target/debug/libwarrant_hours_plugin.so"
//! config = { start_hour = 9, end_hour = 18, utc_offset_minutes = 60 }
//! ```
//!
//! It writes no `unsafe` code: [`warrant_plugin_sdk::export_evaluator!`] exports it.

mod network;
mod window;

use serde::Deserialize;
use warrant_plugin_sdk::PluginEvaluator;
use warrant_plugin_sdk::wire::{
    EvaluationRequest, Manifest, Reply, Risk, WireRationale, WireStance,
};

pub use network::NetworkTools;
pub use window::WorkingHours;

/// The reason code of its denials (a `policy_*` code, as its provenance is `policy`).
pub const REASON_CODE: &str = "policy_network_outside_working_hours";

/// The plugin's configuration table.
#[derive(Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
struct Config {
    #[serde(flatten)]
    hours: WorkingHours,
    #[serde(flatten)]
    network: NetworkTools,
}

/// Denies network tools (`web_fetch`, shell commands such as `curl` and `wget`) outside
/// working hours, and abstains on everything else.
#[derive(Debug)]
pub struct OfficeHours {
    hours: WorkingHours,
    network: NetworkTools,
}

impl PluginEvaluator for OfficeHours {
    fn manifest() -> Manifest {
        Manifest::new("office_hours", env!("CARGO_PKG_VERSION"))
            .description("Denies network tools outside working hours.")
    }

    fn create(config: serde_json::Value) -> Result<Self, String> {
        let config: Config = if config.is_null() {
            Config::default()
        } else {
            serde_json::from_value(config).map_err(|e| format!("invalid configuration: {e}"))?
        };
        config.hours.validate()?;
        Ok(Self {
            hours: config.hours,
            network: config.network,
        })
    }

    fn evaluate(&self, request: &EvaluationRequest) -> Result<Reply, String> {
        let Some(what) = self
            .network
            .describe(&request.call.tool_name, &request.call.input)
        else {
            return Ok(Reply::Abstain);
        };
        if self.hours.contains_now() {
            return Ok(Reply::Abstain);
        }
        let reason = format!(
            "{what} reaches the network, which is off outside working hours ({}).",
            self.hours
        );
        Ok(Reply::decide(
            WireStance::HardDeny,
            WireRationale::new(REASON_CODE, reason, Risk::High),
        ))
    }
}

warrant_plugin_sdk::export_evaluator!(OfficeHours);
