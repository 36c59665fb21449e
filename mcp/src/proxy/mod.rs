//! The proxy: two newline-delimited JSON-RPC streams joined through the child's pipes, with
//! every `tools/call` request decided before it reaches the child.

use std::collections::HashMap;
use std::process::Stdio;
use std::sync::{Arc, Mutex, MutexGuard};
use warrant_core::ids::ToolCallId;

use serde_json::Value;
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::process::Command;
use tokio::sync::{mpsc, oneshot};

mod hold;
mod relay;

use crate::GatewayOptions;
use crate::decide::Decider;
use crate::hints::ToolHints;
use crate::jsonrpc::{self, IdKey, Message};

/// The longest line read from either side; a longer one is reported and dropped.
const MAX_LINE: usize = 64 * 1024 * 1024;
/// How the ids of the gateway's own requests to the client begin; a request of the child's
/// whose id begins so is dropped.
const OWN_ID_PREFIX: &str = "warrant-elicitation-";
/// How long the child gets to exit once the client has closed its input.
const CHILD_GRACE: std::time::Duration = std::time::Duration::from_secs(5);

/// A line for one side, a request to confirm everything before it was written, or the end
/// of that side's input once everything before it was written.
enum Out {
    Line(String),
    Flush(oneshot::Sender<()>),
    Close,
}

/// A client request forwarded to the child, awaiting its response.
struct Forwarded {
    id: Value,
    method: String,
    /// For `tools/call`: the call's id in Warrant.
    tool_call_id: Option<ToolCallId>,
    /// For `tools/list`: whether it asked for a further page.
    next_page: bool,
}

/// A `tools/call` being decided or awaiting the user.
struct Held {
    id: Value,
    cancel: oneshot::Sender<()>,
}

#[derive(Default)]
struct State {
    forwarded: HashMap<IdKey, Forwarded>,
    held: HashMap<IdKey, Held>,
    /// Requests of the gateway's own to the client (elicitation), by id: `OWN_ID_PREFIX`
    /// and a random UUID, so that no request of the child's can be taken for one.
    own: HashMap<IdKey, oneshot::Sender<Message>>,
    /// `--elicitation` was given and the client declared the capability.
    elicitation: bool,
    hints: HashMap<String, ToolHints>,
    listed: Vec<String>,
    /// The child is gone: nothing more is forwarded to it.
    closed: bool,
}

struct Gateway {
    options: GatewayOptions,
    decider: Decider,
    to_client: mpsc::UnboundedSender<Out>,
    to_child: mpsc::UnboundedSender<Out>,
    state: Mutex<State>,
    registering: tokio::sync::Mutex<()>,
}

fn lock(state: &Mutex<State>) -> MutexGuard<'_, State> {
    state
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Runs the gateway between a client (`client_in`, `client_out`) and the child started from
/// `options.command`, until the child exits; returns the child's exit code (128 + the signal
/// for a child killed by one).
///
/// # Errors
///
/// The child could not be started, or the session could not be opened.
pub async fn run<R, W>(
    options: GatewayOptions,
    decider: Decider,
    client_in: R,
    client_out: W,
) -> Result<i32, String>
where
    R: AsyncRead + Unpin + Send + 'static,
    W: AsyncWrite + Unpin + Send + 'static,
{
    let Some((program, args)) = options.command.split_first() else {
        return Err("no MCP server command given (warrant mcp -- CMD ARGS…)".to_owned());
    };
    decider.open_session(&options.session_id).await?;
    let mut child = Command::new(program)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .kill_on_drop(true)
        .spawn()
        .map_err(|e| format!("cannot start the MCP server {program:?}: {e}"))?;
    let child_in = child.stdin.take().ok_or("the child has no stdin")?;
    let child_out = child.stdout.take().ok_or("the child has no stdout")?;

    let (to_client, client_rx) = mpsc::unbounded_channel();
    let (to_child, child_rx) = mpsc::unbounded_channel();
    let client_writer = tokio::spawn(write_lines(client_out, client_rx));
    let (close_child_in, close_rx) = oneshot::channel::<()>();
    tokio::spawn(async move {
        // The child's stdin closes when the client's input ends (or the gateway stops).
        tokio::select! {
            _ = write_lines(child_in, child_rx) => {}
            _ = close_rx => {}
        }
    });
    let gateway = Arc::new(Gateway {
        options,
        decider,
        to_client,
        to_child,
        state: Mutex::new(State::default()),
        registering: tokio::sync::Mutex::new(()),
    });

    let from_child = {
        let gateway = gateway.clone();
        tokio::spawn(async move {
            read_lines(child_out, "server", |line| gateway.from_child(line)).await
        })
    };
    let from_client = {
        let gateway = gateway.clone();
        tokio::spawn(async move {
            read_lines(client_in, "client", |line| gateway.from_client(line)).await;
        })
    };

    let mut from_child = from_child;
    let (stopping, client_gone) = tokio::select! {
        _ = &mut from_child => ("its output closed", false),
        // The client is gone: let the server finish, as MCP's stdio shutdown says.
        _ = from_client => ("its input closed", true),
    };
    let close_child_in = if client_gone {
        // What the client sent last still reaches the child, then its stdin closes.
        let _ = gateway.to_child.send(Out::Close);
        Some(close_child_in)
    } else {
        drop(close_child_in);
        None
    };
    if tokio::time::timeout(CHILD_GRACE, child.wait())
        .await
        .is_err()
    {
        eprintln!("warrant mcp: the MCP server did not exit after {stopping}; stopping it");
        let _ = child.start_kill();
    }
    drop(close_child_in);
    let status = child
        .wait()
        .await
        .map_err(|e| format!("cannot read the MCP server's exit status: {e}"))?;
    // What the server wrote before it exited still reaches the client.
    if !from_child.is_finished()
        && tokio::time::timeout(CHILD_GRACE, &mut from_child)
            .await
            .is_err()
    {
        from_child.abort();
    }
    gateway.child_gone(&describe(&status));
    let (done, flushed) = oneshot::channel();
    if gateway.to_client.send(Out::Flush(done)).is_ok() {
        let _ = flushed.await;
    }
    drop(gateway);
    client_writer.abort();
    Ok(exit_code(&status))
}

fn describe(status: &std::process::ExitStatus) -> String {
    match status.code() {
        Some(code) => format!("exit status {code}"),
        None => format!("{status}"),
    }
}

fn exit_code(status: &std::process::ExitStatus) -> i32 {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(signal) = status.signal() {
            return 128 + signal;
        }
    }
    status.code().unwrap_or(1)
}

async fn write_lines<W: AsyncWrite + Unpin>(mut out: W, mut rx: mpsc::UnboundedReceiver<Out>) {
    while let Some(item) = rx.recv().await {
        match item {
            Out::Line(line) => {
                let mut bytes = line.into_bytes();
                bytes.push(b'\n');
                if out.write_all(&bytes).await.is_err() || out.flush().await.is_err() {
                    return;
                }
            }
            Out::Flush(done) => {
                let _ = done.send(());
            }
            Out::Close => return,
        }
    }
}

/// Reads lines until the end of the input, handing each non-empty one to `handle`.
async fn read_lines<R: AsyncRead + Unpin>(input: R, side: &str, mut handle: impl FnMut(&str)) {
    let mut reader = BufReader::new(input);
    let mut buffer = Vec::new();
    loop {
        buffer.clear();
        let read = {
            let mut limited = (&mut reader).take(MAX_LINE as u64 + 1);
            limited.read_until(b'\n', &mut buffer).await
        };
        match read {
            Ok(0) => return,
            Ok(_) if buffer.len() > MAX_LINE && buffer.last() != Some(&b'\n') => {
                eprintln!(
                    "warrant mcp: a line from the {side} is longer than {MAX_LINE} bytes; dropped"
                );
                // Skip the rest of the line.
                loop {
                    buffer.clear();
                    let mut limited = (&mut reader).take(MAX_LINE as u64);
                    match limited.read_until(b'\n', &mut buffer).await {
                        Ok(0) | Err(_) => return,
                        Ok(_) if buffer.last() == Some(&b'\n') => break,
                        Ok(_) => {}
                    }
                }
            }
            Ok(_) => match std::str::from_utf8(&buffer) {
                Ok(line) if line.trim().is_empty() => {}
                Ok(line) => handle(line),
                Err(e) => {
                    eprintln!("warrant mcp: a line from the {side} is not UTF-8 ({e}); dropped")
                }
            },
            Err(e) => {
                eprintln!("warrant mcp: reading from the {side} failed: {e}");
                return;
            }
        }
    }
}

impl Gateway {
    fn send_client(&self, line: String) {
        let _ = self.to_client.send(Out::Line(line));
    }

    /// The server exited: every request it will never answer gets an error.
    fn child_gone(&self, status: &str) {
        let (forwarded, held) = {
            let mut state = lock(&self.state);
            state.closed = true;
            state.own.clear();
            (
                std::mem::take(&mut state.forwarded),
                std::mem::take(&mut state.held),
            )
        };
        let message = format!("the MCP server exited ({status}) before answering");
        if !forwarded.is_empty() || !held.is_empty() {
            eprintln!("warrant mcp: {message}");
        }
        for f in forwarded.into_values() {
            self.send_client(gone(&f.id, &message));
        }
        for h in held.into_values() {
            let _ = h.cancel.send(());
            self.send_client(gone(&h.id, &message));
        }
    }
}

fn gone(id: &Value, message: &str) -> String {
    jsonrpc::error_response(id, jsonrpc::SERVER_GONE, message)
}
