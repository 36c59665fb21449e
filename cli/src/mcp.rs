//! `warrant mcp -- CMD ARGS…`: the MCP gateway, a stdio MCP server in front of the real one
//! that decides every `tools/call` before forwarding it; and the client configuration
//! snippet `warrant init --mcp NAME -- CMD…` prints.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use warrant_core::call::PermissionMode;
use warrant_mcp::{Decider, GatewayOptions, RemoteServer};
use warrant_transports::sse::SseHub;

use crate::config::Config;
use crate::engine::build_shared_engine;
use crate::engine::open_store;

/// Arguments of `warrant mcp`.
#[derive(Debug, clap::Args)]
pub struct McpArgs {
    /// The MCP server's id in the tool catalog (default: the command's file name).
    #[arg(long, value_name = "NAME")]
    name: Option<String>,
    /// The permission mode: default, auto or full_access (default: the configured mode).
    #[arg(long, value_name = "MODE")]
    mode: Option<PermissionMode>,
    /// Decide through a running `warrant serve` instead of the SQLite store in the data
    /// directory. Its bearer token must be given in WARRANT_TOKEN: the configuration's token
    /// (the person's) is never used.
    #[arg(long, value_name = "URL")]
    server: Option<String>,
    /// Let a client that declares MCP elicitation answer a call that asks (Allow once /
    /// Deny). Off by default: the client's own UI then speaks for the user, and a client that
    /// answers by itself would approve its own calls.
    #[arg(long)]
    elicitation: bool,
    /// The session the calls belong to (default: mcp-NAME).
    #[arg(long, value_name = "ID")]
    session: Option<String>,
    /// Seconds a call that asks waits for the user before it is denied.
    #[arg(long, value_name = "SECS", default_value_t = 120.0)]
    ask_timeout: f64,
    /// Where the SQLite database lives in standalone mode (default: the configured one,
    /// else the working directory's own folder in the user's data directory; never a folder
    /// of the project).
    #[arg(long, value_name = "DIR")]
    data_dir: Option<PathBuf>,
    /// The MCP server's command and its arguments, after `--`.
    #[arg(last = true, required = true, value_name = "CMD")]
    command: Vec<String>,
}

/// Runs the gateway until the MCP server exits, and exits with its status. Bad arguments or
/// configuration: one line on stderr, exit 2; a failure to start: exit 1.
pub fn run(args: McpArgs, config_file: Option<&Path>) -> ExitCode {
    let config = match Config::load_for_agent(config_file, args.data_dir.as_deref()) {
        Ok(config) => config,
        Err(e) => return fail(2, &e.to_string()),
    };
    if !(args.ask_timeout.is_finite() && args.ask_timeout > 0.0) {
        return fail(2, "--ask-timeout must be a positive number of seconds");
    }
    let server_id = args
        .name
        .clone()
        .unwrap_or_else(|| warrant_mcp::default_server_id(&args.command[0]));
    if server_id.trim().is_empty() {
        return fail(2, "--name must not be blank");
    }
    // With --server, the token is named explicitly: falling back to the configuration's (the
    // person's, from ./warrant.toml) would hand the gateway, and through it the client, the
    // right to approve.
    let token = match &args.server {
        Some(_) => match std::env::var("WARRANT_TOKEN") {
            Ok(token) if !token.trim().is_empty() => Some(token),
            _ => {
                return fail(
                    2,
                    "--server needs the bearer token in WARRANT_TOKEN (the configuration's \
                     token is never used for it)",
                );
            }
        },
        None => None,
    };
    let options = GatewayOptions {
        session_id: (args
            .session
            .clone()
            .unwrap_or_else(|| format!("mcp-{server_id}")))
        .into(),
        server_id,
        mode: args.mode.unwrap_or(config.mode),
        ask_timeout: Duration::from_secs_f64(args.ask_timeout),
        elicitation: args.elicitation,
        command: args.command.clone(),
    };
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(e) => return fail(1, &format!("cannot start the runtime: {e}")),
    };
    let outcome = runtime.block_on(async {
        let decider = match &args.server {
            Some(url) => Decider::Remote(RemoteServer::new(url, token)?),
            None => {
                let store = open_store(&config)?;
                let hub = Arc::new(SseHub::new(Arc::clone(&store)));
                // The data directory may be shared with `warrant serve`, hooks or other
                // gateways: their pending requests are adopted, not ended, and their sessions
                // are left running.
                Decider::Local(build_shared_engine(&config, store, hub).await?)
            }
        };
        warrant_mcp::run(options, decider, tokio::io::stdin(), tokio::io::stdout()).await
    });
    // A blocked read of stdin must not keep the process alive.
    runtime.shutdown_timeout(Duration::from_millis(200));
    match outcome {
        Ok(code) => ExitCode::from(u8::try_from(code.clamp(0, 255)).unwrap_or(1)),
        Err(message) => fail(1, &message),
    }
}

fn fail(code: u8, message: &str) -> ExitCode {
    eprintln!("warrant mcp: {}", message.replace('\n', " "));
    ExitCode::from(code)
}

/// `warrant init --mcp NAME [--write FILE] -- CMD…`: prints the client configuration that
/// runs the server through the gateway, or writes it into FILE (other settings kept).
pub fn init_snippet(
    name: &str,
    write: Option<&Path>,
    command: &[String],
    config_file: Option<&Path>,
) -> ExitCode {
    let config = match crate::init::pinned_config(config_file) {
        Ok(config) => config,
        Err(message) => {
            eprintln!("warrant init: {message}");
            return ExitCode::from(2);
        }
    };
    let config = config.as_deref();
    let outcome = match write {
        Some(file) => warrant_mcp::snippet::write_into(file, name, command, config).map(|_| {
            eprintln!(
                "warrant init: wrote mcpServers.{name} to {}",
                file.display()
            );
        }),
        None => warrant_mcp::snippet::snippet(name, command, config).map(|value| {
            println!(
                "{}",
                serde_json::to_string_pretty(&value).unwrap_or_default()
            );
        }),
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("warrant init: {message}");
            ExitCode::from(2)
        }
    }
}
