//! Out-of-process evaluators: any executable that speaks the JSON-lines protocol of
//! `PROTOCOL.md` on stdin/stdout.
//!
//! A crash, a timeout, a wrong protocol version or a malformed reply is an `Err`, which the
//! chain turns into `ask` and records in the trace (and so in the audit log); the process is
//! then replaced before the next call.

mod child;
mod protocol;

use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use async_trait::async_trait;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use tokio::sync::Mutex;
use warrant_core::call::{EvaluationContext, PermissionMode, ToolCall};
use warrant_core::decision::PermissionDecisionSource;
use warrant_core::evaluator::{Evaluator, EvaluatorError, Role, Verdict};
use warrant_plugin_sdk::wire::{EvaluationRequest, Manifest};

pub use protocol::PROTOCOL_VERSION;

use child::Running;

/// One out-of-process evaluator as configured (`[[plugins.process]]`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProcessConfig {
    /// The name configuration selects it by, and traces show.
    pub name: String,
    /// The executable (a path, or a name looked up on `PATH`).
    pub command: PathBuf,
    /// Its arguments.
    #[serde(default)]
    pub args: Vec<String>,
    /// How long one call may take, in milliseconds.
    #[serde(default = "default_timeout_ms")]
    pub timeout_ms: u64,
    /// How long the process may take to answer the hello, in milliseconds.
    #[serde(default = "default_startup_timeout_ms")]
    pub startup_timeout_ms: u64,
    /// The provenance stamped on its decisions.
    #[serde(default = "default_source")]
    pub source: PermissionDecisionSource,
    /// Set to a mode to make it settle that mode's open calls instead of judging every call.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub settles: Option<PermissionMode>,
    /// Its configuration table, sent in the hello.
    #[serde(default)]
    pub config: Value,
}

fn default_timeout_ms() -> u64 {
    5_000
}

fn default_startup_timeout_ms() -> u64 {
    10_000
}

fn default_source() -> PermissionDecisionSource {
    PermissionDecisionSource::Policy
}

impl ProcessConfig {
    /// A judging evaluator `name` run as `command args…`, with the default timeouts.
    pub fn new(name: impl Into<String>, command: impl Into<PathBuf>, args: &[&str]) -> Self {
        Self {
            name: name.into(),
            command: command.into(),
            args: args.iter().map(|a| (*a).to_owned()).collect(),
            timeout_ms: default_timeout_ms(),
            startup_timeout_ms: default_startup_timeout_ms(),
            source: default_source(),
            settles: None,
            config: Value::Null,
        }
    }

    /// How long one call may take.
    pub fn timeout(&self) -> Duration {
        Duration::from_millis(self.timeout_ms)
    }
}

/// An evaluator that runs in its own process.
///
/// Calls to one process are answered one at a time, in order. The process starts with the
/// first call (or [`ProcessEvaluator::handshake`]) and is replaced after it crashed, timed
/// out or broke the protocol.
pub struct ProcessEvaluator {
    config: ProcessConfig,
    running: Mutex<Option<Running>>,
    next_id: AtomicU64,
    starts: AtomicU64,
}

impl std::fmt::Debug for ProcessEvaluator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ProcessEvaluator")
            .field("name", &self.config.name)
            .field("command", &self.config.command)
            .finish()
    }
}

impl ProcessEvaluator {
    /// An evaluator for `config`; nothing is started yet.
    pub fn new(config: ProcessConfig) -> Self {
        Self {
            config,
            running: Mutex::new(None),
            next_id: AtomicU64::new(1),
            starts: AtomicU64::new(0),
        }
    }

    /// Its configuration.
    pub fn config(&self) -> &ProcessConfig {
        &self.config
    }

    /// How many times a process was started (the first start included).
    pub fn starts(&self) -> u64 {
        self.starts.load(Ordering::Relaxed)
    }

    /// Starts the process when it is not running, and returns what it said in its hello.
    ///
    /// # Errors
    ///
    /// Why the process could not be started or did not answer the hello as the protocol says.
    pub async fn handshake(&self) -> Result<Manifest, EvaluatorError> {
        let mut running = self.running.lock().await;
        let process = self.ensure_running(&mut running).await?;
        Ok(process.manifest.clone())
    }

    async fn ensure_running<'a>(
        &self,
        slot: &'a mut Option<Running>,
    ) -> Result<&'a mut Running, EvaluatorError> {
        if slot.as_mut().is_some_and(|r| r.busy || r.exited()) {
            *slot = None;
        }
        if slot.is_none() {
            self.starts.fetch_add(1, Ordering::Relaxed);
            let startup = Duration::from_millis(self.config.startup_timeout_ms);
            let process = Running::start(&self.config, startup)
                .await
                .map_err(|e| self.error(&e))?;
            *slot = Some(process);
        }
        slot.as_mut()
            .ok_or_else(|| self.error("the process is not running"))
    }

    fn error(&self, message: &str) -> EvaluatorError {
        crate::failure::error("process", &self.config.name, message)
    }
}

#[async_trait]
impl Evaluator for ProcessEvaluator {
    fn name(&self) -> &str {
        &self.config.name
    }

    fn source(&self) -> PermissionDecisionSource {
        self.config.source
    }

    fn role(&self) -> Role {
        self.config.settles.map_or(Role::Judge, Role::Settle)
    }

    async fn evaluate(
        &self,
        call: &ToolCall,
        cx: &EvaluationContext,
    ) -> Result<Verdict, EvaluatorError> {
        let request = EvaluationRequest::new(call, cx);
        let mut slot = self.running.lock().await;
        let process = self.ensure_running(&mut slot).await?;
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        process.busy = true;
        let timeout = self.config.timeout();
        let answer = match tokio::time::timeout(timeout, process.exchange(id, &request)).await {
            Ok(answer) => answer,
            Err(_) => Err(format!("no reply within {} ms", timeout.as_millis())),
        };
        match answer {
            Ok(reply) => {
                process.busy = false;
                crate::failure::verdict("process", &self.config.name, reply)
            }
            Err(problem) => {
                *slot = None;
                Err(self.error(&format!(
                    "{problem} (the process is restarted for the next call)"
                )))
            }
        }
    }
}
