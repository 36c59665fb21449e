//! Configuration: `warrant.toml`, then `WARRANT_*` variables, then flags, over defaults that work.

use std::path::{Path, PathBuf};

use figment::Figment;
use figment::providers::{Env, Format, Toml};
use serde::Deserialize;
use warrant_core::call::PermissionMode;

/// The configuration file read when none is named and it exists.
pub const DEFAULT_CONFIG_FILE: &str = "warrant.toml";

/// Everything Warrant can be configured with. Every field has a default that works.
#[derive(Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    /// The permission mode for calls that do not name one.
    #[serde(default)]
    pub mode: PermissionMode,
    /// The workspace root (default: the current directory).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub workspace: Option<PathBuf>,
    /// The address `warrant serve` binds (loopback by default).
    #[serde(default = "default_addr")]
    pub addr: String,
    /// Where the database and everything else written lives.
    #[serde(default = "default_data_dir")]
    pub data_dir: PathBuf,
    /// The bearer token of the HTTP API; generated and printed at start when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub token: Option<String>,
    /// The agents' credentials (`[[agents]] id = "…", token = "…"`): an agent's token posts
    /// its own tool calls and reports their results, never approves, changes patterns or
    /// settings. When none is configured, `warrant serve` makes one (agent `agent`) and
    /// prints it beside the person's token.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub agents: Vec<AgentEntry>,
    /// The permission modes an agent's call may ask for (default `["default", "auto"]`).
    #[serde(default = "default_agent_modes")]
    pub agent_modes: Vec<PermissionMode>,
    /// Browser origins allowed to call `warrant serve` besides its own (`http://localhost:5173`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub allowed_origins: Vec<String>,
    /// The largest request body (`warrant serve`) or input line (`warrant stdio`), in bytes.
    #[serde(default = "default_body_limit")]
    pub body_limit: usize,
    /// How many of the latest events per session the event log keeps (how far back SSE
    /// resumption with `Last-Event-ID` reaches).
    #[serde(default = "default_event_retention")]
    pub event_retention: usize,
    /// Seconds of silence before an event stream sends a keep-alive comment.
    #[serde(default = "default_keep_alive_secs")]
    pub keep_alive_secs: u64,
    /// The evaluators' configuration (`[evaluators]` table: `policy`, `rules`, `classifier`,
    /// and any plugin's own section), kept as written and handed to each evaluator's
    /// constructor. [`Config::load`] checks the built-in sections.
    #[serde(default)]
    pub evaluators: serde_json::Value,
    /// The chain by name, and the process and library plugins (`[plugins]` table).
    #[serde(default)]
    pub plugins: warrant_plugins::PluginsConfig,
    /// The configuration file this was read from, if any.
    #[serde(skip)]
    pub source: Option<PathBuf>,
}

/// One agent's credential in the configuration.
#[derive(Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AgentEntry {
    /// The agent id its calls carry.
    pub id: String,
    /// Its bearer token.
    pub token: String,
}

impl std::fmt::Debug for AgentEntry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AgentEntry")
            .field("id", &self.id)
            .field("token", &"[hidden]")
            .finish()
    }
}

fn default_agent_modes() -> Vec<PermissionMode> {
    vec![PermissionMode::Default, PermissionMode::Auto]
}

impl std::fmt::Debug for Config {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Config")
            .field("mode", &self.mode)
            .field("workspace", &self.workspace)
            .field("addr", &self.addr)
            .field("agents", &self.agents)
            .field("agent_modes", &self.agent_modes)
            .field("data_dir", &self.data_dir)
            .field("token", &self.token.as_ref().map(|_| "[hidden]"))
            .field("allowed_origins", &self.allowed_origins)
            .field("body_limit", &self.body_limit)
            .field("event_retention", &self.event_retention)
            .field("keep_alive_secs", &self.keep_alive_secs)
            .field("evaluators", &self.evaluators)
            .field("plugins", &self.plugins)
            .finish()
    }
}

fn default_addr() -> String {
    "127.0.0.1:7878".to_owned()
}

fn default_data_dir() -> PathBuf {
    PathBuf::from(".warrant")
}

fn default_body_limit() -> usize {
    1024 * 1024
}

fn default_event_retention() -> usize {
    1_000
}

fn default_keep_alive_secs() -> u64 {
    15
}

impl Default for Config {
    fn default() -> Self {
        Self {
            mode: PermissionMode::default(),
            workspace: None,
            addr: default_addr(),
            data_dir: default_data_dir(),
            token: None,
            agents: Vec::new(),
            agent_modes: default_agent_modes(),
            allowed_origins: Vec::new(),
            body_limit: default_body_limit(),
            event_retention: default_event_retention(),
            keep_alive_secs: default_keep_alive_secs(),
            evaluators: serde_json::Value::Null,
            plugins: Default::default(),
            source: None,
        }
    }
}

/// The top-level keys, as `WARRANT_*` variables may set them.
const KEYS: &[&str] = &[
    "mode",
    "workspace",
    "addr",
    "data_dir",
    "token",
    "agents",
    "agent_modes",
    "allowed_origins",
    "body_limit",
    "event_retention",
    "keep_alive_secs",
    "evaluators",
    "plugins",
];

/// Whether an environment key (`TOKEN`, `DATA_DIR`, `EVALUATORS.RULES…`) sets one of [`KEYS`].
fn is_setting(key: &str) -> bool {
    let top = key.split(['.']).next().unwrap_or_default();
    let top = top.split("__").next().unwrap_or_default();
    KEYS.iter().any(|k| k.eq_ignore_ascii_case(top))
}

/// Why the configuration could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// A file named with `--config` does not exist.
    #[error("config file {0} does not exist")]
    Missing(PathBuf),
    /// A value is malformed.
    #[error("{0}")]
    Invalid(String),
}

impl Config {
    /// Reads defaults, then the config file (the named one, or `warrant.toml` when it exists),
    /// then `WARRANT_*` variables (`WARRANT_DATA_DIR`, `WARRANT_TOKEN`,
    /// `WARRANT_EVALUATORS__…` for nested keys).
    ///
    /// # Errors
    ///
    /// A [`ConfigError`] naming the file, the key and what was expected.
    pub fn load(file: Option<&Path>) -> Result<Self, ConfigError> {
        let mut figment = Figment::new();
        match file {
            Some(path) if !path.exists() => return Err(ConfigError::Missing(path.to_owned())),
            Some(path) => figment = figment.merge(Toml::file_exact(path)),
            // No file named and no ./warrant.toml: the defaults and the environment suffice.
            None if Path::new(DEFAULT_CONFIG_FILE).exists() => {
                figment = figment.merge(Toml::file_exact(DEFAULT_CONFIG_FILE))
            }
            None => {}
        }
        // Only the configuration's own keys: other WARRANT_* variables (WARRANT_LOG) are not
        // settings.
        figment = figment.merge(
            Env::prefixed("WARRANT_")
                .split("__")
                .filter(|key| is_setting(key.as_str())),
        );
        let mut config: Config = figment
            .extract()
            .map_err(|e| ConfigError::Invalid(describe(e)))?;
        config.source = match file {
            Some(path) => Some(path.to_owned()),
            None if Path::new(DEFAULT_CONFIG_FILE).exists() => Some(DEFAULT_CONFIG_FILE.into()),
            None => None,
        };
        if figment.contains("evaluators") {
            figment
                .extract_inner::<warrant_evaluators::EvaluatorsConfig>("evaluators")
                .map_err(|e| ConfigError::Invalid(describe(e)))?;
        }
        Ok(config)
    }
}

/// One line per problem: where (file or variable), which key, and what was expected.
fn describe(error: figment::Error) -> String {
    error
        .into_iter()
        .map(|e| {
            let key = if e.path.is_empty() {
                "(top level)".to_owned()
            } else {
                e.path.join(".")
            };
            let origin = e
                .metadata
                .as_ref()
                .and_then(|m| {
                    m.source
                        .as_ref()
                        .map(|s| s.to_string())
                        .or_else(|| Some(m.name.to_string()))
                })
                .unwrap_or_else(|| "configuration".to_owned());
            format!(
                "invalid configuration in {origin}: key \"{key}\": {}",
                e.kind
            )
        })
        .collect::<Vec<_>>()
        .join("; ")
}
