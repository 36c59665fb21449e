//! `warrant serve`: the HTTP API with the AG-UI endpoint and the web UI, on loopback by
//! default, guarded by a bearer token; and the engine both sidecar commands share.

use std::future::Future;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use warrant_server::TcpListener;
use warrant_server::telemetry::{Metrics, Observer};
use warrant_server::{
    AgentCredential, ServerConfig, ServerState, generate_token, serve, shutdown_signal,
};
use warrant_transports::sse::SseHub;

use crate::config::Config;
use crate::engine::{build_engine, open_store};

/// Arguments of `warrant serve`.
#[derive(Debug, clap::Args)]
pub struct ServeArgs {
    /// The address to bind (default: the configured one, else 127.0.0.1:7878; port 0 picks a
    /// free port). The bound address is printed on stderr.
    #[arg(long, value_name = "ADDR")]
    addr: Option<String>,
    /// Where the SQLite database and everything else written lives (default: the configured
    /// one, else this directory's own folder in the user's data directory).
    #[arg(long, value_name = "DIR")]
    data_dir: Option<PathBuf>,
}

/// Serves until Ctrl-C. Configuration errors print one line and exit 2; a failure to start
/// (the address is taken, the database cannot be opened) exits 1.
pub fn run(args: ServeArgs, config_file: Option<&Path>) -> ExitCode {
    let flags = |config: &mut Config| {
        config.addr = args.addr.unwrap_or(std::mem::take(&mut config.addr));
        config.data_dir = args
            .data_dir
            .unwrap_or(std::mem::take(&mut config.data_dir));
    };
    run_sidecar("serve", config_file, flags, |config| {
        start(config, Launch::Serve)
    })
}

/// Loads the configuration, applies the command's `flags`, and runs `start` to its end on a
/// runtime: a configuration error prints one line and exits 2, a failure exits 1.
pub(crate) fn run_sidecar<F>(
    command: &str,
    config_file: Option<&Path>,
    flags: impl FnOnce(&mut Config),
    start: impl FnOnce(Config) -> F,
) -> ExitCode
where
    F: Future<Output = Result<(), String>>,
{
    let mut config = match Config::load(config_file) {
        Ok(config) => config,
        Err(e) => {
            eprintln!("warrant {command}: {e}");
            return ExitCode::from(2);
        }
    };
    flags(&mut config);
    if let Some(note) = config.legacy_data_dir_note() {
        eprintln!("warrant {command}: {note}");
    }
    let outcome = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the runtime: {e}"))
        .and_then(|runtime| {
            let outcome = runtime.block_on(start(config));
            // Whatever is left (a blocked stdin read, a connection past the shutdown
            // deadline) must not keep the process alive.
            runtime.shutdown_timeout(RUNTIME_GRACE);
            outcome
        });
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("warrant {command}: {message}");
            ExitCode::from(1)
        }
    }
}

/// How long leftover tasks get once the command is done.
const RUNTIME_GRACE: Duration = Duration::from_millis(500);

/// The connection settings of `warrant serve` read from the environment:
/// `WARRANT_ALLOWED_HOSTS` (comma-separated host names, `*` for any),
/// `WARRANT_HEADER_TIMEOUT_SECS`, `WARRANT_BODY_TIMEOUT_SECS`, `WARRANT_MAX_CONNECTIONS` and
/// `WARRANT_SHUTDOWN_DEADLINE_SECS`.
fn connection_settings(server: &mut ServerConfig) -> Result<(), String> {
    fn number(name: &str) -> Result<Option<u64>, String> {
        match std::env::var(name) {
            Err(_) => Ok(None),
            Ok(text) => match text.trim().parse::<u64>() {
                Ok(n) if n > 0 => Ok(Some(n)),
                _ => Err(format!(
                    "invalid {name} \"{text}\": expected a whole number above 0"
                )),
            },
        }
    }
    if let Ok(hosts) = std::env::var("WARRANT_ALLOWED_HOSTS") {
        server.allowed_hosts = hosts
            .split(',')
            .map(str::trim)
            .filter(|h| !h.is_empty())
            .map(str::to_owned)
            .collect();
    }
    if let Some(secs) = number("WARRANT_HEADER_TIMEOUT_SECS")? {
        server.header_timeout = Duration::from_secs(secs);
    }
    if let Some(secs) = number("WARRANT_BODY_TIMEOUT_SECS")? {
        server.body_timeout = Duration::from_secs(secs);
    }
    if let Some(n) = number("WARRANT_MAX_CONNECTIONS")? {
        server.max_connections = usize::try_from(n).unwrap_or(usize::MAX);
    }
    if let Some(secs) = number("WARRANT_SHUTDOWN_DEADLINE_SECS")? {
        server.shutdown_deadline = Duration::from_secs(secs);
    }
    Ok(())
}

/// How the server was launched.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Launch {
    /// `warrant serve`: bind the configured address or fail.
    Serve,
    /// `warrant demo`: fall back to a free port when the configured one is taken, and print
    /// the UI's address with its token for a newcomer to open.
    Demo,
}

pub(crate) async fn start(config: Config, launch: Launch) -> Result<(), String> {
    // Settings first: a bad one fails before anything is opened or printed.
    let mut server = ServerConfig {
        allowed_origins: config.allowed_origins.clone(),
        body_limit: config.body_limit,
        keep_alive: Duration::from_secs(config.keep_alive_secs.max(1)),
        mode: config.mode,
        agent_modes: config.agent_modes.clone(),
        ..ServerConfig::new(String::new())
    };
    connection_settings(&mut server)?;
    let store = open_store(&config)?;
    let hub = Arc::new(SseHub::new(Arc::clone(&store)));
    let replayer = crate::replay::ServerReplayer::new(config.clone(), Arc::clone(&store));
    let engine = build_engine(&config, store, observed(&config, hub.clone())?).await?;
    let listener = match TcpListener::bind(&config.addr).await {
        Ok(listener) => listener,
        Err(e) if launch == Launch::Demo => {
            eprintln!(
                "warrant demo: {} is taken ({e}); using a free port",
                config.addr
            );
            TcpListener::bind("127.0.0.1:0")
                .await
                .map_err(|e| format!("cannot bind 127.0.0.1:0: {e}"))?
        }
        Err(e) => return Err(format!("cannot bind {}: {e}", config.addr)),
    };
    let addr = listener
        .local_addr()
        .map_err(|e| format!("cannot read the bound address: {e}"))?;
    let (token, generated) = match config.token.clone() {
        Some(token) if !token.trim().is_empty() => (token, false),
        _ => (generate_token(), true),
    };
    // The agents' credentials: configured, `WARRANT_AGENT_TOKEN` (agent `agent`), or one
    // made now, so an agent never needs the person's token.
    server.agents = config
        .agents
        .iter()
        .map(|a| AgentCredential::new(&a.id, &a.token))
        .collect();
    let mut agent_generated = None;
    if server.agents.is_empty() {
        let agent_token = match std::env::var("WARRANT_AGENT_TOKEN") {
            Ok(t) if !t.trim().is_empty() => t.trim().to_owned(),
            _ => {
                let t = generate_token();
                agent_generated = Some(t.clone());
                t
            }
        };
        server
            .agents
            .push(AgentCredential::new("agent", agent_token));
    }
    if let Some(a) = server.agents.iter().find(|a| a.token == token) {
        return Err(format!(
            "the agent \"{}\" has the person's token: an agent's token must be its own",
            a.id
        ));
    }
    eprintln!("warrant listening on http://{addr}");
    if generated {
        // A person's token: the UI, approvals, patterns and settings.
        eprintln!("warrant token: {token}");
        eprintln!("warrant UI: http://{addr}/#token={token}");
    }
    if let Some(agent_token) = agent_generated {
        // An agent's token: its tool calls and their results only.
        eprintln!("warrant agent token (agent \"agent\"): {agent_token}");
    }
    if launch == Launch::Demo {
        // The token rides in the fragment, which browsers never send to a server.
        println!("Warrant demo is running. Open http://{addr}/#token={token}");
        println!(
            "Type a message (try \"tour\") and press Send: the demo agent shows every kind of decision. Ctrl-C stops."
        );
    }
    server.token = token;
    let state = ServerState::new(engine, hub, server, addr);
    state.set_replayer(Arc::new(replayer));
    serve(listener, state, shutdown_signal())
        .await
        .map_err(|e| format!("the server stopped: {e}"))
}

/// The engine's transports: the hub, and the observer that counts decisions for
/// `GET /metrics` (the reviewer's account included) and, with the `otel` feature and
/// `[telemetry] otlp_endpoint`, exports a span per decision.
fn observed(
    config: &Config,
    hub: Arc<SseHub>,
) -> Result<Arc<dyn warrant_core::transport::Transport>, String> {
    let observer = Observer::new(Arc::clone(Metrics::global()));
    #[cfg(feature = "otel")]
    let observer = match &config.telemetry.otlp_endpoint {
        Some(endpoint) => {
            use warrant_server::telemetry::otel::{OtlpConfig, OtlpDecisions};
            let exporter =
                OtlpDecisions::new(&OtlpConfig::new(endpoint), Arc::clone(Metrics::global()))?;
            observer.with_sink(Arc::new(exporter))
        }
        None => observer,
    };
    #[cfg(not(feature = "otel"))]
    let _ = config;
    let transports: Vec<Arc<dyn warrant_core::transport::Transport>> =
        vec![hub, Arc::new(observer)];
    Ok(Arc::new(transports))
}
