//! One running plugin process: spawn, handshake, and one request and reply at a time.

use std::process::Stdio;
use std::time::Duration;

use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::process::{Child, ChildStdin, ChildStdout, Command};
use warrant_plugin_sdk::wire::{EvaluationRequest, Manifest, Reply};

use super::ProcessConfig;
use super::protocol::{HostMessage, PROTOCOL_VERSION, read_hello, read_reply};

/// The longest line read from a plugin.
const MAX_LINE_BYTES: u64 = 1 << 20;

/// A started plugin process that answered the handshake.
pub(crate) struct Running {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    /// Set while a request is out: a call cancelled half-way leaves it set, and the process
    /// (whose next line would answer the old request) is replaced.
    pub busy: bool,
    pub manifest: Manifest,
}

impl Running {
    /// Starts the process and exchanges hellos within `timeout`.
    pub async fn start(config: &ProcessConfig, timeout: Duration) -> Result<Self, String> {
        let mut child = Command::new(&config.command)
            .args(&config.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .kill_on_drop(true)
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", config.command.display()))?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            return Err("the process has no stdin or stdout".to_owned());
        };
        let mut running = Self {
            child,
            stdin,
            stdout: BufReader::new(stdout),
            busy: false,
            manifest: Manifest::new(config.name.clone(), String::new()),
        };
        let hello = HostMessage::Hello {
            protocol: PROTOCOL_VERSION,
            host: "warrant",
            host_version: env!("CARGO_PKG_VERSION"),
            config: &config.config,
        };
        let handshake = async {
            running.write(&hello).await?;
            let line = running.read_line().await?;
            read_hello(&line)
        };
        running.manifest = match tokio::time::timeout(timeout, handshake).await {
            Ok(result) => result?,
            Err(_) => return Err(format!("no hello within {} ms", timeout.as_millis())),
        };
        Ok(running)
    }

    /// Whether the process has exited since it was started.
    pub fn exited(&mut self) -> bool {
        !matches!(self.child.try_wait(), Ok(None))
    }

    /// Sends request `id` and reads its reply.
    pub async fn exchange(
        &mut self,
        id: u64,
        request: &EvaluationRequest,
    ) -> Result<Reply, String> {
        self.write(&HostMessage::Evaluate { id, request }).await?;
        let line = self.read_line().await?;
        read_reply(&line, id)
    }

    async fn write(&mut self, message: &HostMessage<'_>) -> Result<(), String> {
        let mut line = serde_json::to_vec(message).map_err(|e| e.to_string())?;
        line.push(b'\n');
        let sent = async {
            self.stdin.write_all(&line).await?;
            self.stdin.flush().await
        };
        match sent.await {
            Ok(()) => Ok(()),
            Err(e) => Err(self.death(&format!("cannot write to it ({e})")).await),
        }
    }

    async fn read_line(&mut self) -> Result<String, String> {
        let mut bytes = Vec::new();
        let read = (&mut self.stdout)
            .take(MAX_LINE_BYTES)
            .read_until(b'\n', &mut bytes)
            .await;
        match read {
            Err(e) => Err(self.death(&format!("cannot read from it ({e})")).await),
            Ok(0) => Err(self.death("it closed its stdout").await),
            Ok(_) if bytes.last() != Some(&b'\n') => {
                if bytes.len() as u64 >= MAX_LINE_BYTES {
                    Err(format!("wrote a line longer than {MAX_LINE_BYTES} bytes"))
                } else {
                    Err(self.death("it stopped in the middle of a line").await)
                }
            }
            Ok(_) => {
                String::from_utf8(bytes).map_err(|_| "wrote a line that is not UTF-8".to_owned())
            }
        }
    }

    /// Describes a process that stopped talking, with its exit status when it has one.
    async fn death(&mut self, what: &str) -> String {
        let status = tokio::time::timeout(Duration::from_millis(100), self.child.wait()).await;
        match status {
            Ok(Ok(status)) => format!("the process exited ({status}): {what}"),
            _ => what.to_owned(),
        }
    }
}
