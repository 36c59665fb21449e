//! A reviewer behind any OpenAI-compatible chat-completions endpoint (OpenAI, vLLM, Ollama,
//! llama.cpp's server).

use std::time::Duration;

use async_trait::async_trait;
use serde::Deserialize;
use serde_json::{Value, json};

use super::reply::{SYSTEM_PROMPT, parse, user_message};
use super::reviewer::{Fallback, PROMPT_VERSION, PROMPT_VERSIONS};
use super::{Classification, Classifier, ClassifierError, Review};
use crate::error::ConfigError;

/// The environment variable the API key is read from unless configured otherwise.
pub const DEFAULT_API_KEY_ENV: &str = "WARRANT_CLASSIFIER_API_KEY";
/// How long a review may take before the call asks instead, in milliseconds.
pub const DEFAULT_TIMEOUT_MS: u64 = 10_000;
/// The largest reply body read, in bytes.
const MAX_BODY_BYTES: usize = 256 * 1024;

/// A secret whose `Debug` never shows it.
#[derive(Clone, PartialEq, Eq, Deserialize)]
#[serde(transparent)]
pub struct Secret(String);

impl Secret {
    /// Wraps a secret.
    pub fn new(value: impl Into<String>) -> Self {
        Self(value.into())
    }

    /// The secret itself.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Debug for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("[REDACTED]")
    }
}

fn default_api_key_env() -> Option<String> {
    Some(DEFAULT_API_KEY_ENV.to_owned())
}

fn default_timeout_ms() -> u64 {
    DEFAULT_TIMEOUT_MS
}

fn default_true() -> bool {
    true
}

fn default_max_tokens() -> u32 {
    400
}

/// Where the reviewer lives and how to reach it.
///
/// ```toml
/// [classifier.openai]
/// base_url = "http://127.0.0.1:11434/v1"   # the part before /chat/completions
/// model = "qwen2.5:7b"
/// api_key_env = "OPENAI_API_KEY"            # default: WARRANT_CLASSIFIER_API_KEY
/// timeout_ms = 10000
/// fallback = "embedded"                     # when it is down or slow; default "ask"
/// prompt_version = "review-v1"              # pin the review prompt; default: this build's
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OpenAiCompatibleConfig {
    /// The API's base URL, the part before `/chat/completions`.
    pub base_url: String,
    /// The model id, sent to the server and reported as `reviewerModel`.
    pub model: String,
    /// The environment variable holding the API key (none is sent when it is unset).
    #[serde(default = "default_api_key_env")]
    pub api_key_env: Option<String>,
    /// The API key itself, when not taken from the environment.
    #[serde(default)]
    pub api_key: Option<Secret>,
    /// How long a review may take, in milliseconds.
    #[serde(default = "default_timeout_ms")]
    pub timeout_ms: u64,
    /// Whether to ask the server for JSON mode (`response_format`).
    #[serde(default = "default_true")]
    pub json_mode: bool,
    /// The most tokens the reply may use.
    #[serde(default = "default_max_tokens")]
    pub max_tokens: u32,
    /// What decides when the reviewer is down or slow: `ask` (default) or `embedded` (the
    /// embedded heuristic reviewer). An answer outside the schema always asks.
    #[serde(default)]
    pub fallback: Fallback,
    /// The review prompt's version to send ([`PROMPT_VERSION`] when unset); an unknown
    /// version is a configuration error.
    #[serde(default)]
    pub prompt_version: Option<String>,
}

impl OpenAiCompatibleConfig {
    /// A configuration with the defaults for everything but the endpoint and model.
    pub fn new(base_url: impl Into<String>, model: impl Into<String>) -> Self {
        Self {
            base_url: base_url.into(),
            model: model.into(),
            api_key_env: default_api_key_env(),
            api_key: None,
            timeout_ms: DEFAULT_TIMEOUT_MS,
            json_mode: true,
            max_tokens: default_max_tokens(),
            fallback: Fallback::Ask,
            prompt_version: None,
        }
    }
}

/// Reviews calls through an OpenAI-compatible chat-completions endpoint.
pub struct OpenAiCompatibleClassifier {
    endpoint: String,
    model: String,
    api_key: Option<Secret>,
    json_mode: bool,
    max_tokens: u32,
    timeout: Duration,
    prompt_version: &'static str,
    client: reqwest::Client,
}

impl std::fmt::Debug for OpenAiCompatibleClassifier {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OpenAiCompatibleClassifier")
            .field("endpoint", &self.endpoint)
            .field("model", &self.model)
            .field("api_key", &self.api_key)
            .field("timeout", &self.timeout)
            .finish()
    }
}

impl OpenAiCompatibleClassifier {
    /// A classifier for `config`; the API key is read from the environment now.
    ///
    /// # Errors
    ///
    /// [`ConfigError::Classifier`] for a base URL that is not `http(s)://…`, an empty model or
    /// a zero timeout.
    pub fn new(config: &OpenAiCompatibleConfig) -> Result<Self, ConfigError> {
        let base = config.base_url.trim().trim_end_matches('/');
        if reqwest::Url::parse(base).map_or(true, |u| !matches!(u.scheme(), "http" | "https")) {
            return Err(ConfigError::Classifier(format!(
                "base_url {:?} is not an http(s) URL",
                config.base_url
            )));
        }
        if config.model.trim().is_empty() {
            return Err(ConfigError::Classifier(
                "model is empty; name the model to ask".to_owned(),
            ));
        }
        let prompt_version = match config.prompt_version.as_deref().map(str::trim) {
            None => PROMPT_VERSION,
            Some(v) => PROMPT_VERSIONS
                .iter()
                .copied()
                .find(|k| *k == v)
                .ok_or_else(|| {
                    ConfigError::Classifier(format!(
                        "prompt_version {v:?} is unknown; this build sends {}",
                        PROMPT_VERSIONS.join(", ")
                    ))
                })?,
        };
        if config.timeout_ms == 0 {
            return Err(ConfigError::Classifier(
                "timeout_ms is 0; give the reviewer time to answer".to_owned(),
            ));
        }
        let from_env = config
            .api_key_env
            .as_deref()
            .and_then(|var| std::env::var(var).ok())
            .filter(|k| !k.is_empty())
            .map(Secret);
        let timeout = Duration::from_millis(config.timeout_ms);
        let client = reqwest::Client::builder()
            .timeout(timeout)
            .build()
            .map_err(|e| ConfigError::Classifier(format!("HTTP client: {e}")))?;
        Ok(Self {
            endpoint: format!("{base}/chat/completions"),
            model: config.model.trim().to_owned(),
            api_key: config.api_key.clone().or(from_env),
            json_mode: config.json_mode,
            max_tokens: config.max_tokens,
            timeout,
            prompt_version,
            client,
        })
    }

    fn body(&self, review: &Review<'_>) -> Value {
        let mut body = json!({
            "model": self.model,
            "temperature": 0,
            "max_tokens": self.max_tokens,
            "messages": [
                {"role": "system", "content": SYSTEM_PROMPT},
                {"role": "user", "content": user_message(review)},
            ],
        });
        if self.json_mode {
            body["response_format"] = json!({"type": "json_object"});
        }
        body
    }

    fn unavailable(&self, e: &reqwest::Error) -> ClassifierError {
        if e.is_timeout() {
            ClassifierError::Unavailable(format!(
                "no answer within {} ms",
                self.timeout.as_millis()
            ))
        } else if e.is_connect() {
            ClassifierError::Unavailable("the connection was refused".to_owned())
        } else {
            ClassifierError::Unavailable(format!(
                "the request failed: {}",
                e.to_string().replace(&self.endpoint, "the endpoint")
            ))
        }
    }
}

#[async_trait]
impl Classifier for OpenAiCompatibleClassifier {
    fn model_id(&self) -> &str {
        &self.model
    }

    fn prompt_version(&self) -> Option<&str> {
        Some(self.prompt_version)
    }

    async fn classify(&self, review: &Review<'_>) -> Result<Classification, ClassifierError> {
        let mut request = self.client.post(&self.endpoint).json(&self.body(review));
        if let Some(key) = &self.api_key {
            request = request.bearer_auth(key.expose());
        }
        let response = request.send().await.map_err(|e| self.unavailable(&e))?;
        let status = response.status();
        if !status.is_success() {
            return Err(ClassifierError::Unavailable(format!(
                "HTTP {}",
                status.as_u16()
            )));
        }
        let bytes = response.bytes().await.map_err(|e| self.unavailable(&e))?;
        if bytes.len() > MAX_BODY_BYTES {
            return Err(ClassifierError::InvalidOutput(format!(
                "the reply is larger than {MAX_BODY_BYTES} bytes"
            )));
        }
        let body: Value = serde_json::from_slice(&bytes).map_err(|_| {
            ClassifierError::InvalidOutput("the server's answer is not JSON".to_owned())
        })?;
        let content = body
            .pointer("/choices/0/message/content")
            .and_then(Value::as_str)
            .ok_or_else(|| {
                ClassifierError::InvalidOutput(
                    "the answer has no choices[0].message.content".to_owned(),
                )
            })?;
        parse(content)
    }
}
