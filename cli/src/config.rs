//! Configuration: `warrant.toml`, then `WARRANT_*` variables, then flags, over defaults that work.

use std::path::{Path, PathBuf};

use figment::Figment;
use figment::providers::{Env, Format, Toml};
use serde::Deserialize;
use serde_json::{Map, Value, json};
use warrant_core::call::PermissionMode;
use warrant_core::decision::Confidence;
use warrant_evaluators::classifier::{
    Fallback, OpenAiCompatibleClassifier, OpenAiCompatibleConfig,
};

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
    /// Where the database and everything else written lives (default: this directory's own
    /// folder in the user's data directory, [`project_data_dir`]; never a folder of the
    /// project, which a checkout could ship with grants in it).
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
    /// Which registered store keeps everything (`[store]` table: `kind`, then that store's
    /// own keys); the SQLite file in the data directory by default.
    #[serde(default)]
    pub store: StoreSelection,
    /// The security reviewer role (`[reviewer]` table): the model `auto` mode asks about open
    /// calls, and what decides when it is down or slow. Absent: the embedded heuristic
    /// reviewer (or `[evaluators.classifier.openai]`, which it is mapped onto).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reviewer: Option<ReviewerConfig>,
    /// Telemetry (`[telemetry]` table): where decision spans are exported.
    #[serde(default)]
    pub telemetry: TelemetryConfig,
    /// The configuration file this was read from, if any.
    #[serde(skip)]
    pub source: Option<PathBuf>,
}

/// The security reviewer role, `[reviewer]`:
///
/// ```toml
/// [reviewer]
/// model = "qwen2.5:7b"                    # "embedded" (or no endpoint): the heuristic reviewer
/// endpoint = "http://127.0.0.1:11434/v1"  # OpenAI-compatible, the part before /chat/completions
/// prompt_version = "review-v1"            # pin the review prompt (default: this build's)
/// timeout_ms = 5000                       # slower is "down"
/// fallback = "embedded"                   # or "ask" (default) when it is down or slow
/// api_key_env = "OPENAI_API_KEY"          # default WARRANT_CLASSIFIER_API_KEY
/// min_confidence = "medium"               # a less confident allow asks
/// ```
///
/// It is mapped onto `[evaluators.classifier]` when the configuration is loaded; setting a
/// model endpoint in both places is an error.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReviewerConfig {
    /// The reviewing model's id, or `embedded` for the embedded heuristic reviewer.
    #[serde(default)]
    pub model: Option<String>,
    /// The OpenAI-compatible endpoint's base URL.
    #[serde(default)]
    pub endpoint: Option<String>,
    /// The review prompt's version.
    #[serde(default)]
    pub prompt_version: Option<String>,
    /// How long a review may take, in milliseconds.
    #[serde(default)]
    pub timeout_ms: Option<u64>,
    /// What decides when the model is down or slow: `ask` or `embedded`.
    #[serde(default)]
    pub fallback: Option<Fallback>,
    /// The environment variable holding the endpoint's API key.
    #[serde(default)]
    pub api_key_env: Option<String>,
    /// The least confidence a reviewer's allow must come with.
    #[serde(default)]
    pub min_confidence: Option<Confidence>,
}

/// The model id that names the embedded heuristic reviewer in `[reviewer] model`.
pub const EMBEDDED_REVIEWER: &str = "embedded";

impl ReviewerConfig {
    /// Writes this role onto the `[evaluators]` tables (`classifier.openai`,
    /// `classifier.min_confidence`).
    ///
    /// # Errors
    ///
    /// A message naming the key: a model without an endpoint or the other way round, an
    /// endpoint also configured in `[evaluators.classifier.openai]`, or a value the reviewer
    /// refuses (URL, timeout, prompt version).
    pub fn apply(&self, evaluators: &mut Value) -> Result<(), String> {
        let model = self
            .model
            .as_deref()
            .map(str::trim)
            .filter(|m| !m.is_empty());
        let embedded = model.is_none_or(|m| m.eq_ignore_ascii_case(EMBEDDED_REVIEWER));
        let endpoint = self.endpoint.as_deref().map(str::trim);
        if !evaluators.is_object() {
            *evaluators = json!({});
        }
        let classifier = evaluators
            .as_object_mut()
            .map(|t| t.entry("classifier").or_insert_with(|| json!({})))
            .ok_or("[evaluators] is not a table")?;
        if !classifier.is_object() {
            return Err("[evaluators.classifier] is not a table".to_owned());
        }
        let table: &mut Map<String, Value> = classifier.as_object_mut().expect("a table");
        if let Some(min) = self.min_confidence {
            // Set in one place only: a second, different value would silently win.
            match table.get("min_confidence").filter(|v| !v.is_null()) {
                Some(set) if *set != json!(min) => {
                    return Err(
                        "min_confidence is configured twice, in [reviewer] and in [evaluators.classifier]; keep one"
                            .to_owned(),
                    );
                }
                _ => {
                    table.insert("min_confidence".into(), json!(min));
                }
            }
        }
        let openai_set = table.get("openai").is_some_and(|v| !v.is_null());
        match (embedded, endpoint) {
            (true, None) => {
                if self.fallback.is_some()
                    || self.prompt_version.is_some()
                    || self.timeout_ms.is_some()
                    || self.api_key_env.is_some()
                {
                    return Err(
                        "[reviewer]: fallback, prompt_version, timeout_ms and api_key_env apply to a model reviewer; set model and endpoint, or remove them"
                            .to_owned(),
                    );
                }
                if self.model.is_some() && openai_set {
                    return Err(
                        "[reviewer] model = \"embedded\" but [evaluators.classifier.openai] configures a model reviewer; keep one"
                            .to_owned(),
                    );
                }
                return Ok(());
            }
            (true, Some(endpoint)) => {
                return Err(format!(
                    "[reviewer]: endpoint {endpoint:?} needs the model to ask (model = \"…\")"
                ));
            }
            (false, None) => {
                return Err(format!(
                    "[reviewer]: model {:?} needs an endpoint (endpoint = \"http://…/v1\"), or use model = \"embedded\"",
                    model.unwrap_or_default()
                ));
            }
            (false, Some(_)) => {}
        }
        let mut openai = Map::new();
        openai.insert("base_url".into(), json!(endpoint));
        openai.insert("model".into(), json!(model));
        if let Some(v) = self.timeout_ms {
            openai.insert("timeout_ms".into(), json!(v));
        }
        if let Some(v) = self.fallback {
            openai.insert("fallback".into(), json!(v.as_str()));
        }
        if let Some(v) = &self.prompt_version {
            openai.insert("prompt_version".into(), json!(v));
        }
        if let Some(v) = &self.api_key_env {
            openai.insert("api_key_env".into(), json!(v));
        }
        let openai = Value::Object(openai);
        if openai_set {
            // Applied already (the same mapping again) is fine; anything else is twice.
            if table.get("openai") == Some(&openai) {
                return Ok(());
            }
            return Err(
                "the reviewer is configured twice, in [reviewer] and in [evaluators.classifier.openai]; keep one"
                    .to_owned(),
            );
        }
        let checked: OpenAiCompatibleConfig =
            serde_json::from_value(openai.clone()).map_err(|e| format!("[reviewer]: {e}"))?;
        OpenAiCompatibleClassifier::new(&checked).map_err(|e| format!("[reviewer]: {e}"))?;
        table.insert("openai".into(), openai);
        Ok(())
    }
}

/// Telemetry, `[telemetry]`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TelemetryConfig {
    /// The OTLP/HTTP collector decision spans are exported to (`http://127.0.0.1:4318`;
    /// `/v1/traces` is added). Needs a build with the `otel` feature.
    pub otlp_endpoint: Option<String>,
}

impl TelemetryConfig {
    /// Checks the settings against this build.
    ///
    /// # Errors
    ///
    /// A message naming the key and value when the endpoint is unusable, or when it is set
    /// in a build without the `otel` feature.
    pub fn check(&self) -> Result<(), String> {
        let Some(endpoint) = &self.otlp_endpoint else {
            return Ok(());
        };
        #[cfg(feature = "otel")]
        {
            warrant_server::telemetry::otel::OtlpConfig::new(endpoint)
                .traces_url()
                .map(drop)
        }
        #[cfg(not(feature = "otel"))]
        {
            Err(format!(
                "telemetry.otlp_endpoint {endpoint:?} is set, but this warrant was built without OpenTelemetry export (build it with --features otel)"
            ))
        }
    }
}

/// The store, by its name in the plugin registry (`warrant plugins` lists them):
///
/// ```toml
/// [store]
/// kind = "sqlite"          # the default; "memory" keeps nothing across restarts
/// busy_timeout_ms = 5000   # the store's own keys (for sqlite: path, event_retention, …)
/// ```
#[derive(Clone, PartialEq, Deserialize)]
pub struct StoreSelection {
    /// The registered store's name.
    #[serde(default = "default_store_kind")]
    pub kind: String,
    /// The store's own keys, handed to it as its configuration table.
    #[serde(flatten)]
    pub options: serde_json::Map<String, serde_json::Value>,
}

/// The store used when `[store]` names none.
pub const DEFAULT_STORE: &str = "sqlite";

fn default_store_kind() -> String {
    DEFAULT_STORE.to_owned()
}

impl Default for StoreSelection {
    fn default() -> Self {
        Self {
            kind: default_store_kind(),
            options: serde_json::Map::new(),
        }
    }
}

impl std::fmt::Debug for StoreSelection {
    // A store's keys may hold a password (a database URL): only their names are shown.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StoreSelection")
            .field("kind", &self.kind)
            .field("keys", &self.options.keys().collect::<Vec<_>>())
            .finish()
    }
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
            // A section may hold a secret (`classifier.openai.api_key`): names only.
            .field(
                "evaluators",
                &self
                    .evaluators
                    .as_object()
                    .map(|o| o.keys().collect::<Vec<_>>()),
            )
            .field("plugins", &self.plugins)
            .field("store", &self.store)
            .field("reviewer", &self.reviewer)
            .field("telemetry", &self.telemetry)
            .finish()
    }
}

fn default_addr() -> String {
    "127.0.0.1:7878".to_owned()
}

/// The data directory when none is named: the current directory's own folder in the user's
/// data directory ([`project_data_dir`]), else `./.warrant` when the environment names no
/// user directory (`warrant hook` and `warrant mcp` refuse that one: [`Config::agent_data_dir`]).
fn default_data_dir() -> PathBuf {
    std::env::current_dir()
        .ok()
        .and_then(|cwd| project_data_dir(&cwd))
        .unwrap_or_else(|| PathBuf::from(LEGACY_DATA_DIR))
}

/// The data directory of earlier versions, relative to the current directory.
pub const LEGACY_DATA_DIR: &str = ".warrant";

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
            store: StoreSelection::default(),
            reviewer: None,
            telemetry: TelemetryConfig::default(),
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
    "store",
    "reviewer",
    "telemetry",
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

/// The user's own configuration directory: `$XDG_CONFIG_HOME/warrant`, else
/// `~/.config/warrant` (absolute paths only); `None` when neither variable names one.
pub fn user_config_dir() -> Option<PathBuf> {
    absolute_var("XDG_CONFIG_HOME")
        .or_else(|| absolute_var("HOME").map(|home| home.join(".config")))
        .map(|config| config.join("warrant"))
}

/// The user's own data directory: `$XDG_DATA_HOME/warrant`, else `~/.local/share/warrant`
/// (absolute paths only); `None` when neither variable names one.
pub fn user_data_dir() -> Option<PathBuf> {
    absolute_var("XDG_DATA_HOME")
        .or_else(|| absolute_var("HOME").map(|home| home.join(".local").join("share")))
        .map(|data| data.join("warrant"))
}

/// The data directory of the project in `dir`: `<user data dir>/projects/<name>-<hash>`, where
/// `name` is the directory's last component (letters, digits, `.`, `_`, `-`; others become
/// `_`) and `hash` the first 16 hex digits of the SHA-256 of its canonical path. The project
/// directory itself holds nothing of Warrant's: a checkout cannot come with decisions,
/// grants or settings that then apply. `None` when there is no user data directory.
pub fn project_data_dir(dir: &Path) -> Option<PathBuf> {
    use sha2::Digest as _;
    let canonical = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
    let digest = sha2::Sha256::digest(canonical.as_os_str().as_encoded_bytes());
    let name: String = canonical
        .file_name()
        .map(|n| n.to_string_lossy())
        .unwrap_or_default()
        .chars()
        .take(40)
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') {
                c
            } else {
                '_'
            }
        })
        .collect();
    let name = if name.is_empty() || name.chars().all(|c| c == '.') {
        "root".to_owned()
    } else {
        name
    };
    let key = format!("{name}-{}", hex::encode(&digest[..8]));
    user_data_dir().map(|data| data.join("projects").join(key))
}

/// An environment variable holding an absolute path.
fn absolute_var(name: &str) -> Option<PathBuf> {
    std::env::var_os(name)
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
}

impl Config {
    /// Reads the configuration a process the agent starts uses (`warrant hook`, `warrant
    /// mcp`): the named file, else the user's own `warrant.toml` in [`user_config_dir`] when
    /// it exists — never a `warrant.toml` of the working directory. That directory is the
    /// agent's project, which may be a checkout that came with its own `warrant.toml`: its
    /// rules, mode, plugins and data directory would otherwise decide for the person.
    /// `warrant init` names the file it was set up with in the hook's command line.
    ///
    /// The data directory is `data_dir` when given (`--data-dir`), else the configured one; a
    /// relative one is the configuration file's, never the working directory's.
    ///
    /// # Errors
    ///
    /// As [`Config::load`]; also when the data directory would be relative to the working
    /// directory (no user data directory, no file to anchor it).
    pub fn load_for_agent(
        file: Option<&Path>,
        data_dir: Option<&Path>,
    ) -> Result<Self, ConfigError> {
        let user = user_config_dir()
            .map(|dir| dir.join(DEFAULT_CONFIG_FILE))
            .filter(|path| path.exists());
        let mut config = match file.map(Path::to_path_buf).or(user) {
            Some(path) => Self::load(Some(&path))?,
            None => Self::load_from(None)?,
        };
        // A relative data directory would be the agent's project's, which a checkout can ship
        // with grants in it: it is the configuration file's, or refused. One named on the
        // command line is the person's.
        if let Some(dir) = data_dir {
            config.data_dir = dir.to_path_buf();
        } else if config.data_dir.is_relative() {
            let base = config.source.as_deref().and_then(|source| {
                let absolute = std::path::absolute(source).ok()?;
                absolute.parent().map(Path::to_path_buf)
            });
            config.data_dir = match base {
                Some(base) => base.join(&config.data_dir),
                None => {
                    return Err(ConfigError::Invalid(format!(
                        "the data directory {} would be in the agent's working directory, which \
                         a checkout controls: set XDG_DATA_HOME or HOME, name one with \
                         --data-dir, or set data_dir in the configuration file",
                        config.data_dir.display()
                    )));
                }
            };
        }
        Ok(config)
    }

    /// A line for the person when `./.warrant`, the data directory of earlier versions, exists
    /// but another one is in use.
    pub fn legacy_data_dir_note(&self) -> Option<String> {
        let legacy = Path::new(LEGACY_DATA_DIR);
        if !legacy.is_dir() {
            return None;
        }
        let same = match (
            std::fs::canonicalize(legacy),
            std::fs::canonicalize(&self.data_dir),
        ) {
            (Ok(a), Ok(b)) => a == b,
            _ => false,
        };
        (!same).then(|| {
            format!(
                "./{LEGACY_DATA_DIR} (the data directory of earlier versions) is not read: the \
                 data directory is {}; pass --data-dir {LEGACY_DATA_DIR} to keep using it",
                self.data_dir.display()
            )
        })
    }

    /// Reads defaults, then the config file (the named one, or `warrant.toml` when it exists),
    /// then `WARRANT_*` variables (`WARRANT_DATA_DIR`, `WARRANT_TOKEN`,
    /// `WARRANT_EVALUATORS__…` for nested keys).
    ///
    /// # Errors
    ///
    /// A [`ConfigError`] naming the file, the key and what was expected.
    pub fn load(file: Option<&Path>) -> Result<Self, ConfigError> {
        match file {
            Some(path) => Self::load_from(Some(path)),
            None if Path::new(DEFAULT_CONFIG_FILE).exists() => {
                Self::load_from(Some(Path::new(DEFAULT_CONFIG_FILE)))
            }
            // No file named and no ./warrant.toml: the defaults and the environment suffice.
            None => Self::load_from(None),
        }
    }

    /// Reads defaults, then `file` when given, then the environment.
    fn load_from(file: Option<&Path>) -> Result<Self, ConfigError> {
        let mut figment = Figment::new();
        match file {
            Some(path) if !path.exists() => return Err(ConfigError::Missing(path.to_owned())),
            Some(path) => figment = figment.merge(Toml::file_exact(path)),
            None => {}
        }
        figment = figment.merge(environment());
        let mut config: Config = figment
            .extract()
            .map_err(|e| ConfigError::Invalid(describe(e)))?;
        config.source = file.map(Path::to_path_buf);
        if figment.contains("evaluators") {
            figment
                .extract_inner::<warrant_evaluators::EvaluatorsConfig>("evaluators")
                .map_err(|e| ConfigError::Invalid(describe(under("evaluators", e))))?;
        }
        config.settle().map_err(ConfigError::Invalid)?;
        Ok(config)
    }

    /// The last steps of loading, for a configuration read some other way (a posted
    /// proposal): maps the `[reviewer]` role onto `[evaluators.classifier]` and checks the
    /// result and `[telemetry]`.
    ///
    /// # Errors
    ///
    /// A message naming the key and what was expected.
    pub fn settle(&mut self) -> Result<(), String> {
        if let Some(reviewer) = &self.reviewer {
            reviewer.apply(&mut self.evaluators)?;
            serde_json::from_value::<warrant_evaluators::EvaluatorsConfig>(self.evaluators.clone())
                .map_err(|e| format!("[reviewer]: {e}"))?;
        }
        self.telemetry.check()
    }
}

/// The `WARRANT_*` variables that are settings (`WARRANT_DATA_DIR`, `WARRANT_EVALUATORS__…`);
/// other `WARRANT_*` variables (`WARRANT_LOG`) are not.
pub fn environment() -> Env {
    Env::prefixed("WARRANT_")
        .split("__")
        .filter(|key| is_setting(key.as_str()))
}

/// The errors of `extract_inner(section)` with their keys written from the top: figment
/// puts the section last (`rules.user.ask.evaluators` for `evaluators.rules.user.ask`).
fn under(section: &str, error: figment::Error) -> Vec<figment::Error> {
    error
        .into_iter()
        .map(|mut e| {
            if e.path.last().is_some_and(|last| last == section) {
                e.path.pop();
                e.path.insert(0, section.to_owned());
            }
            e
        })
        .collect()
}

/// One line per problem: where (file or variable), which key, and what was expected.
fn describe(errors: impl IntoIterator<Item = figment::Error>) -> String {
    errors
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_setting_given_twice_is_refused_and_settling_again_changes_nothing() {
        let twice = error(
            "[reviewer]\nmin_confidence = \"low\"\n\n[evaluators.classifier]\nmin_confidence = \"high\"\n",
        );
        assert!(
            twice.contains("min_confidence is configured twice"),
            "{twice}"
        );
        let embedded = error(
            "[reviewer]\nmodel = \"embedded\"\n\n[evaluators.classifier.openai]\nbase_url = \"http://127.0.0.1:9/v1\"\nmodel = \"m\"\n",
        );
        assert!(embedded.contains("keep one"), "{embedded}");
        let ignored = error("[reviewer]\ntimeout_ms = 5000\n");
        assert!(ignored.contains("apply to a model reviewer"), "{ignored}");

        let mut config = load(
            "[reviewer]\nmodel = \"m\"\nendpoint = \"http://127.0.0.1:9/v1\"\nmin_confidence = \"high\"\n",
        )
        .expect("loads");
        let loaded = config.evaluators.clone();
        config.settle().expect("settling again is fine");
        assert_eq!(config.evaluators, loaded);
    }

    #[test]
    fn debug_shows_no_secret_of_a_section() {
        let config = load(
            "[evaluators.classifier.openai]\nbase_url = \"http://127.0.0.1:9/v1\"\nmodel = \"m\"\napi_key = \"sk-live-0123456789abcdef0123456789\"\n",
        )
        .expect("loads");
        let shown = format!("{config:?}");
        assert!(!shown.contains("sk-live"), "{shown}");
        assert!(shown.contains("classifier"), "{shown}");
    }

    fn load(text: &str) -> Result<Config, ConfigError> {
        let dir = tempfile::tempdir().expect("a directory");
        let path = dir.path().join("warrant.toml");
        std::fs::write(&path, text).expect("written");
        Config::load(Some(&path))
    }

    fn error(text: &str) -> String {
        match load(text) {
            Ok(_) => panic!("accepted:\n{text}"),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn the_reviewer_role_maps_onto_the_classifier() {
        let config = load(
            r#"
            [reviewer]
            model = "qwen2.5:7b"
            endpoint = "http://127.0.0.1:11434/v1"
            prompt_version = "review-v1"
            timeout_ms = 1500
            fallback = "embedded"
            min_confidence = "high"
            "#,
        )
        .unwrap();
        let evaluators: warrant_evaluators::EvaluatorsConfig =
            serde_json::from_value(config.evaluators).unwrap();
        let openai = evaluators.classifier.openai.unwrap();
        assert_eq!(openai.model, "qwen2.5:7b");
        assert_eq!(openai.base_url, "http://127.0.0.1:11434/v1");
        assert_eq!(openai.timeout_ms, 1500);
        assert_eq!(openai.fallback, Fallback::Embedded);
        assert_eq!(openai.prompt_version.as_deref(), Some("review-v1"));
        assert_eq!(evaluators.classifier.min_confidence, Some(Confidence::High));
    }

    #[test]
    fn the_embedded_reviewer_needs_no_endpoint() {
        let config = load("[reviewer]\nmodel = \"embedded\"\n").unwrap();
        let evaluators: warrant_evaluators::EvaluatorsConfig =
            serde_json::from_value(config.evaluators).unwrap();
        assert_eq!(evaluators.classifier.openai, None);
    }

    #[test]
    fn the_classifier_section_still_works_alone() {
        let config = load(
            "[evaluators.classifier.openai]\nbase_url = \"http://127.0.0.1:1/v1\"\nmodel = \"m\"\n",
        )
        .unwrap();
        assert!(config.reviewer.is_none());
        assert_eq!(
            config.evaluators["classifier"]["openai"]["model"],
            serde_json::json!("m")
        );
    }

    #[test]
    fn bad_reviewer_settings_are_named() {
        for (text, named) in [
            ("[reviewer]\nmodel = \"m\"\n", "\"m\" needs an endpoint"),
            (
                "[reviewer]\nendpoint = \"http://x/v1\"\n",
                "\"http://x/v1\" needs the model",
            ),
            (
                "[reviewer]\nmodel = \"m\"\nendpoint = \"ftp://x\"\n",
                "\"ftp://x\" is not an http(s) URL",
            ),
            (
                "[reviewer]\nmodel = \"m\"\nendpoint = \"http://x/v1\"\nprompt_version = \"v0\"\n",
                "prompt_version \"v0\" is unknown",
            ),
            (
                "[reviewer]\nmodel = \"m\"\nendpoint = \"http://x/v1\"\nfallback = \"allow\"\n",
                "allow",
            ),
            ("[reviewer]\nmodle = \"m\"\n", "modle"),
            (
                "[reviewer]\nmodel = \"m\"\nendpoint = \"http://x/v1\"\n[evaluators.classifier.openai]\nbase_url = \"http://y/v1\"\nmodel = \"n\"\n",
                "configured twice",
            ),
        ] {
            let e = error(text);
            assert!(e.contains(named), "{e:?} does not name {named:?}");
        }
    }

    #[test]
    fn telemetry_settings_are_checked() {
        assert!(load("[telemetry]\n").is_ok());
        let e = error("[telemetry]\notlp_endpont = \"http://x\"\n");
        assert!(e.contains("otlp_endpont"), "{e}");
        let e = error("[telemetry]\notlp_endpoint = \"collector:4318\"\n");
        assert!(e.contains("collector:4318"), "{e}");
    }
}
