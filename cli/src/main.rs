//! The `warrant` command: decide, serve, record and inspect tool-call authorizations.

/// The allocator the program runs with (the benchmarks measure the same): a decision makes
/// about a hundred small allocations, which mimalloc serves in fewer instructions than the
/// system allocator.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

mod audit;
mod check;
mod demo;
mod hook;
mod init;
mod mcp;
mod plugins;
mod replay;
mod serve;
mod stdio;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use warrant::{config, engine};

/// Decides, explains and records how every tool call of an AI agent was authorized.
#[derive(Debug, Parser)]
#[command(name = "warrant", version, about, long_about = None)]
struct Cli {
    /// A configuration file (default: ./warrant.toml when it exists; for `hook` and `mcp`,
    /// which an agent starts in its project, $XDG_CONFIG_HOME/warrant/warrant.toml instead).
    #[arg(long, global = true, value_name = "FILE")]
    config: Option<PathBuf>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Run the demo: server, demo agent and web UI on the embedded default, no configuration.
    ///
    /// Prints the address to open (with the access token in its fragment).
    Demo(demo::DemoArgs),
    /// Decide one tool call and print the decision as one JSON object.
    ///
    /// Exits 0 whatever the behaviour; bad arguments or bad JSON print one line on stderr
    /// and exit 2.
    Check(check::CheckArgs),
    /// List every registered and loaded plugin: kind, name, version and origin.
    Plugins(plugins::PluginsArgs),
    /// Print the audit log as JSON lines; `--verify` checks its keyed chain and checkpoints.
    Audit(audit::AuditArgs),
    /// Decide the recorded calls again under a proposed configuration (`--with NEW.toml`)
    /// and print those that would be allowed, asked or denied differently, grouped by
    /// reason code. Writes nothing.
    ///
    /// Reads the data directory of the current configuration (`--config`, else
    /// ./warrant.toml); `--json` prints the report as one JSON object.
    Replay(replay::ReplayArgs),
    /// Serve the HTTP API, the AG-UI endpoint (POST /v1/agent) and the web UI.
    ///
    /// Binds 127.0.0.1:7878 by default and prints the bound address on stderr; every /v1/
    /// route needs the bearer token (WARRANT_TOKEN or `token` in warrant.toml, else generated
    /// and printed at start).
    Serve(serve::ServeArgs),
    /// Decide tool calls over stdin/stdout: JSON lines in, AG-UI events out, one per line.
    ///
    /// Input lines: tool_call, approval, tool_result and session_settings objects. A
    /// malformed line is answered with a RUN_ERROR event; the end of the input exits 0.
    Stdio(stdio::StdioArgs),
    /// Guard an MCP server: a stdio MCP server that runs `CMD ARGS…` as its child, passes
    /// every message through, and decides every tools/call before forwarding it.
    ///
    /// Exits with the server's exit status.
    Mcp(mcp::McpArgs),
    /// Decide an agent's tool call from its hook payload on stdin (claude-code, codex,
    /// gemini) and answer in that agent's schema.
    ///
    /// Fails closed: a payload that cannot be read, an error or a timeout is an ask (Claude
    /// Code) or a deny (Codex, Gemini CLI), never an allow.
    Hook(hook::HookArgs),
    /// Set Warrant up where an agent runs: `--agent NAME` installs the hook entries in that
    /// agent's settings file (`--project` for the project's, `--remove` to take them out).
    Init(init::InitArgs),
}

fn main() -> ExitCode {
    warrant::engine::link_builtin_plugins();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return usage_error(e),
    };
    init_logging();
    match cli.command {
        Command::Demo(args) => demo::run(args, cli.config.as_deref()),
        Command::Check(args) => check::run(args, cli.config.as_deref()),
        Command::Plugins(args) => plugins::run(args, cli.config.as_deref()),
        Command::Audit(args) => audit::run(args, cli.config.as_deref()),
        Command::Replay(args) => replay::run(args, cli.config.as_deref()),
        Command::Serve(args) => serve::run(args, cli.config.as_deref()),
        Command::Stdio(args) => stdio::run(args, cli.config.as_deref()),
        Command::Mcp(args) => mcp::run(args, cli.config.as_deref()),
        Command::Hook(args) => hook::run(args, cli.config.as_deref()),
        Command::Init(args) => init::run(args, cli.config.as_deref()),
    }
}

/// Prints help and version as clap does; any other parse error as one line, exit 2.
fn usage_error(e: clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    if matches!(
        e.kind(),
        ErrorKind::DisplayHelp
            | ErrorKind::DisplayVersion
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
    ) {
        let _ = e.print();
        return if e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
            ExitCode::from(2)
        } else {
            ExitCode::SUCCESS
        };
    }
    // clap spreads a message over several lines, then usage and help: keep the message only.
    let rendered = e.render().to_string();
    let message: Vec<&str> = rendered
        .lines()
        .map(str::trim)
        .take_while(|l| !l.starts_with("Usage:") && !l.starts_with("For more information"))
        .filter(|l| !l.is_empty())
        .collect();
    eprintln!("{}", message.join(" "));
    ExitCode::from(2)
}

/// Logs go to stderr only, so stdout stays the protocol channel.
fn init_logging() {
    let filter = tracing_subscriber::EnvFilter::try_from_env("WARRANT_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn"));
    // Colour codes only for a terminal: a log file or a pipe gets plain text.
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .try_init();
}
