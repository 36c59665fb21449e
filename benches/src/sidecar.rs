//! Warrant beside an agent: `warrant serve`'s sidecar route driven over HTTP/1.1 by
//! keep-alive clients, and `warrant stdio` fed a file of `tool_call` lines. Both run the
//! engine of [`crate::endtoend`] (the built-in chain over generated rules, audit durable in
//! SQLite in a temporary directory before a decision is emitted) behind the transports'
//! own server code: [`warrant_server::serve`] on a real TCP listener bound to
//! `127.0.0.1:0`, and [`warrant_transports::stdio::serve`].

use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use hyper::client::conn::http1::SendRequest;
use hyper::{Request, StatusCode, header};
use hyper_util::rt::TokioIo;
use serde_json::{Value, json};
use tokio::io::AsyncWrite;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::oneshot;
use tokio::task::JoinHandle;
use warrant_core::engine::Engine;
use warrant_evaluators::{EvaluatorsConfig, default_chain};
use warrant_server::{AgentCredential, ServerConfig, ServerState, serve};
use warrant_stores::sqlite::SqliteStore;
use warrant_transports::stdio::{self, LineTransport, StdioOptions};

use crate::endtoend::{self, EVENTS_PER_DECISION, Rig};
use crate::rules;
use crate::timing::Stats;
use crate::warrant::workspace_root;

/// The person's bearer token of the bench server.
const PERSON_TOKEN: &str = "bench-person-token";
/// The agent the bench clients post as, and its bearer token.
const AGENT: (&str, &str) = ("bench-agent", "bench-agent-token");
/// How long the server gets to finish open requests once the run is over.
const SHUTDOWN: Duration = Duration::from_secs(10);

/// `warrant serve` on `127.0.0.1:0` in this process: the server crate's `serve` (hyper
/// HTTP/1.1 with keep-alive, the router, the guards) over a [`Rig`].
pub struct Sidecar {
    /// The engine, its hub and its SQLite store.
    pub rig: Arc<Rig>,
    /// Where the server listens.
    pub addr: SocketAddr,
    stop: Option<oneshot::Sender<()>>,
    server: Option<JoinHandle<std::io::Result<()>>>,
}

impl Sidecar {
    /// Serves a new [`Rig`] with `rules` generated rules; one agent credential.
    ///
    /// # Panics
    ///
    /// When the listener cannot be bound.
    pub async fn start(rules: usize) -> Self {
        let rig = Arc::new(Rig::new(rules).await);
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("binds");
        let addr = listener.local_addr().expect("a local address");
        let mut config = ServerConfig::new(PERSON_TOKEN);
        config.agents = vec![AgentCredential::new(AGENT.0, AGENT.1)];
        let state = ServerState::new(rig.engine.clone(), Arc::clone(&rig.hub), config, addr);
        let (stop, stopped) = oneshot::channel::<()>();
        let server = tokio::spawn(serve(listener, state, async move {
            let _ = stopped.await;
        }));
        Self {
            rig,
            addr,
            stop: Some(stop),
            server: Some(server),
        }
    }

    /// A client on its own keep-alive connection, posting as the agent in `session`.
    ///
    /// # Panics
    ///
    /// When the connection cannot be made.
    pub async fn client(&self, session: &str) -> Client {
        let stream = TcpStream::connect(self.addr).await.expect("connects");
        stream.set_nodelay(true).expect("sets TCP_NODELAY");
        let (sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
            .await
            .expect("an HTTP/1.1 connection");
        tokio::spawn(async move {
            let _ = connection.await;
        });
        Client {
            sender,
            host: self.addr.to_string(),
            path: format!("/v1/sessions/{session}/tool-calls"),
            session: session.to_owned(),
            next: 0,
        }
    }

    /// Stops the server and waits for it (open requests get a few seconds).
    ///
    /// # Panics
    ///
    /// When the server failed.
    pub async fn stop(mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(server) = self.server.take() {
            tokio::time::timeout(SHUTDOWN, server)
                .await
                .expect("the server stops")
                .expect("the server task")
                .expect("the server");
        }
    }
}

impl Drop for Sidecar {
    fn drop(&mut self) {
        if let Some(server) = self.server.take() {
            server.abort();
        }
    }
}

/// One keep-alive HTTP/1.1 connection posting tool calls to one session.
pub struct Client {
    sender: SendRequest<Full<Bytes>>,
    host: String,
    path: String,
    session: String,
    next: usize,
}

impl Client {
    /// Posts the shell call `command` with the body the README documents (no `messageId`:
    /// the engine files each call under a message of its own, as `warrant stdio` does) and
    /// returns the decision's behaviour (`allow`, `deny` or `ask`).
    ///
    /// # Panics
    ///
    /// When the connection fails or the server answers anything but 200 with a decision.
    pub async fn decide(&mut self, command: &str) -> String {
        self.post(command, true).await
    }

    /// Posts the shell call `command` as [`decide`](Self::decide) does, with `"announce":
    /// false` unless `announce`.
    ///
    /// # Panics
    ///
    /// As [`decide`](Self::decide).
    pub async fn post(&mut self, command: &str, announce: bool) -> String {
        let id = format!("{}-c{}", self.session, self.next);
        self.next += 1;
        let mut body = json!({
            "toolCallId": id,
            "toolName": "Bash",
            "input": { "command": command },
        });
        if !announce {
            body["announce"] = Value::Bool(false);
        }
        let request = Request::post(self.path.as_str())
            .header(header::HOST, self.host.as_str())
            .header(header::AUTHORIZATION, format!("Bearer {}", AGENT.1))
            .header(header::CONTENT_TYPE, "application/json")
            .body(Full::new(Bytes::from(body.to_string())))
            .expect("a request");
        self.sender.ready().await.expect("the connection is open");
        let response = self.sender.send_request(request).await.expect("a response");
        let status = response.status();
        let bytes = response
            .into_body()
            .collect()
            .await
            .expect("the response body")
            .to_bytes();
        assert_eq!(
            status,
            StatusCode::OK,
            "{}",
            String::from_utf8_lossy(&bytes)
        );
        let decision: Value = serde_json::from_slice(&bytes).expect("a decision");
        decision["behavior"]
            .as_str()
            .unwrap_or_else(|| panic!("a decision with a behaviour: {decision}"))
            .to_owned()
    }
}

/// How hard the HTTP clients drive the server, and for how long.
#[derive(Debug, Clone, Copy)]
pub struct HttpLoad {
    /// Concurrent clients, each on its own keep-alive connection and its own session.
    pub clients: usize,
    /// Calls before this long are not counted (connections warm, caches filled).
    pub warm_up: Duration,
    /// How long calls are counted after the warm-up, at most.
    pub measure: Duration,
    /// The most calls counted, over all clients.
    pub max_calls: usize,
    /// Whether calls are announced (`TOOL_CALL_START`/`ARGS`/`END` before the decision: the
    /// route's default); `false` posts `"announce": false`.
    pub announce: bool,
}

/// What the HTTP run measured.
#[derive(Debug, Clone, Copy)]
pub struct HttpThroughput {
    /// Concurrent clients.
    pub clients: usize,
    /// Whether the calls were announced (see [`HttpLoad::announce`]).
    pub announce: bool,
    /// Calls counted.
    pub calls: usize,
    /// Calls counted per second of the counted period.
    pub per_second: f64,
    /// One call's round trip, as a client sees it.
    pub latency: Stats,
}

/// Drives a new [`Sidecar`] over `rules` rules with `load`: each client posts the engine
/// bench's commands (allowed by a rule, allowed as read-only, denied by a rule) one after
/// another on its connection.
///
/// # Panics
///
/// When a call fails, asks, or a decision is missing from the audit log.
pub async fn http(rules: usize, load: HttpLoad) -> HttpThroughput {
    let sidecar = Sidecar::start(rules).await;
    let per_client = load.max_calls.div_ceil(load.clients.max(1));
    let started = Instant::now();
    let counted_from = started + load.warm_up;
    let until = counted_from + load.measure;
    let mut clients = Vec::with_capacity(load.clients);
    for k in 0..load.clients {
        let mut client = sidecar.client(&format!("http-s{k}")).await;
        let rig = Arc::clone(&sidecar.rig);
        clients.push(tokio::spawn(async move {
            let (mut took, mut made) = (Vec::with_capacity(per_client), 0);
            let mut i = k;
            loop {
                let now = Instant::now();
                if now >= until || took.len() >= per_client {
                    break;
                }
                let behavior = client.post(&rig.command(i), load.announce).await;
                assert_ne!(behavior, "ask", "the bench commands never ask");
                made += 1;
                if now >= counted_from {
                    took.push(now.elapsed());
                }
                i += 1;
            }
            (took, made, Instant::now())
        }));
    }
    let (mut latencies, mut made, mut last) = (Vec::new(), 0, counted_from);
    for c in clients {
        let (took, n, done) = c.await.expect("a client");
        latencies.extend(took);
        made += n;
        last = last.max(done);
    }
    let counted = last.saturating_duration_since(counted_from);
    let audited = sidecar.rig.audit_entries().await;
    assert_eq!(audited, made, "every decision is in the audit log");
    sidecar.stop().await;
    HttpThroughput {
        clients: load.clients,
        announce: load.announce,
        calls: latencies.len(),
        per_second: latencies.len() as f64 / counted.as_secs_f64().max(1e-9),
        latency: Stats::of(latencies),
    }
}

/// What the stdio run measured.
#[derive(Debug, Clone, Copy)]
pub struct StdioThroughput {
    /// Input lines, one `tool_call` each.
    pub lines: usize,
    /// Sessions the calls were spread over.
    pub sessions: usize,
    /// Input lines per second, from the first read until every decision was written.
    pub per_second: f64,
}

/// Counts the lines written through it, and the error events among them; keeps nothing.
#[derive(Debug, Default)]
struct Counter {
    lines: AtomicU64,
    errors: AtomicU64,
}

/// An output that counts into a [`Counter`]. [`LineTransport`] writes each event whole.
struct Counting(Arc<Counter>);

impl AsyncWrite for Counting {
    fn poll_write(
        self: Pin<&mut Self>,
        _: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        let lines = buf.iter().filter(|&&b| b == b'\n').count() as u64;
        self.0.lines.fetch_add(lines, Ordering::Relaxed);
        if buf.windows(9).any(|w| w == b"RUN_ERROR") {
            self.0.errors.fetch_add(1, Ordering::Relaxed);
        }
        Poll::Ready(Ok(buf.len()))
    }

    fn poll_flush(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Poll::Ready(Ok(()))
    }

    fn poll_shutdown(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Poll::Ready(Ok(()))
    }
}

/// `lines` `tool_call` lines as `warrant stdio` reads them, spread round-robin over
/// `sessions` sessions, with the commands of [`endtoend::command`] over `rules` rules.
pub fn stdio_input(rules: usize, lines: usize, sessions: usize) -> Vec<u8> {
    let mut input = Vec::with_capacity(lines * 160);
    for i in 0..lines {
        let command = endtoend::command(rules, i);
        let line = json!({
            "type": "tool_call",
            "sessionId": format!("stdio-s{}", i % sessions.max(1)),
            "toolCallId": format!("stdio-c{i}"),
            "toolName": "Bash",
            "input": { "command": command },
            "mode": "default",
        });
        input.extend_from_slice(line.to_string().as_bytes());
        input.push(b'\n');
    }
    input
}

/// Serves `input` (from [`stdio_input`]) as `warrant stdio` does, over a new engine with
/// `rules` rules and a SQLite store in a temporary directory; returns how long it took until
/// the input was read and every decision written, and how many lines were written.
///
/// # Panics
///
/// When the engine cannot be built, serving fails, or a line is answered with an error.
pub async fn serve_stdio(rules: usize, input: &[u8]) -> (Duration, u64) {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let store = Arc::new(SqliteStore::open(dir.path().join("warrant.db")).expect("opens"));
    let counter = Arc::new(Counter::default());
    let out = Arc::new(LineTransport::new(Counting(Arc::clone(&counter))));
    let config = EvaluatorsConfig {
        rules: rules::to_warrant(&rules::generate(rules)),
        ..EvaluatorsConfig::default()
    };
    let chain = default_chain(&config, &rules::catalog()).expect("the chain builds");
    let engine = Engine::builder(chain)
        .store(store)
        .transport(out.clone())
        .workspace_root(workspace_root())
        .build()
        .await
        .expect("the engine builds");
    let started = Instant::now();
    stdio::serve(input, engine, out, StdioOptions::default())
        .await
        .expect("serves");
    let took = started.elapsed();
    assert_eq!(
        counter.errors.load(Ordering::Relaxed),
        0,
        "no line is answered with RUN_ERROR"
    );
    (took, counter.lines.load(Ordering::Relaxed))
}

/// Feeds `lines` `tool_call` lines over `sessions` sessions to `warrant stdio`'s server and
/// times it end to end.
///
/// # Panics
///
/// As [`serve_stdio`], and when a call's events are missing.
pub async fn stdio(rules: usize, lines: usize, sessions: usize) -> StdioThroughput {
    let input = stdio_input(rules, lines, sessions);
    let (took, written) = serve_stdio(rules, &input).await;
    assert_eq!(
        written,
        lines as u64 * EVENTS_PER_DECISION,
        "every call's events are written"
    );
    StdioThroughput {
        lines,
        sessions,
        per_second: lines as f64 / took.as_secs_f64().max(1e-9),
    }
}
