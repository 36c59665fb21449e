//! `warrant check`: decide one tool call with the configured chain and print the decision.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use serde_json::Value;
use warrant_core::call::{PermissionMode, ToolCall};
use warrant_core::engine::AuthorizeOptions;
use warrant_core::store::MemoryStore;
use warrant_core::transport::MemoryTransport;

use crate::config::Config;
use crate::engine::build_engine;

/// Arguments of `warrant check`.
#[derive(Debug, clap::Args)]
pub struct CheckArgs {
    /// The runtime tool id (`Bash`, `view`, `Edit`, `lsp_ts_hover`, `git.status`).
    #[arg(long, value_name = "NAME")]
    tool: String,
    /// The call's input as JSON (`{"command": "ls"}` for `Bash`, `{"path": "…"}` for `view`).
    #[arg(long, value_name = "JSON")]
    input: String,
    /// The permission mode: default, auto or full_access (default: the configured mode).
    #[arg(long, value_name = "MODE")]
    mode: Option<PermissionMode>,
    /// The session whose patterns and grants apply.
    #[arg(long, value_name = "ID", default_value = "cli")]
    session: String,
    /// The workspace root (default: the configured one, else the current directory).
    #[arg(long, value_name = "DIR")]
    workspace: Option<PathBuf>,
}

/// Runs the command: one decision JSON object on stdout and exit 0, or one line on stderr
/// and exit 2.
pub fn run(args: CheckArgs, config_file: Option<&Path>) -> ExitCode {
    match decide(args, config_file) {
        Ok(json) => {
            println!("{json}");
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("warrant check: {}", message.replace('\n', " "));
            ExitCode::from(2)
        }
    }
}

fn decide(args: CheckArgs, config_file: Option<&Path>) -> Result<String, String> {
    let input: Value = warrant_core::json::from_str_unique(&args.input)
        .map_err(|e| format!("--input is not valid JSON ({e}): {}", args.input))?;
    if args.tool.trim().is_empty() {
        return Err("--tool must name a tool".to_owned());
    }
    let mut config = Config::load(config_file).map_err(|e| e.to_string())?;
    if let Some(dir) = args.workspace {
        config.workspace = Some(dir);
    }
    let mode = args.mode.unwrap_or(config.mode);
    let call = ToolCall::new(args.session, "cli-check", args.tool, input);

    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the runtime: {e}"))?;
    let decision = runtime.block_on(async {
        // A dry run: nothing is persisted or streamed.
        let engine = build_engine(
            &config,
            Arc::new(MemoryStore::new()),
            Arc::new(MemoryTransport::new()),
        )
        .await?;
        engine
            .authorize(
                call,
                AuthorizeOptions {
                    mode,
                    announce: false,
                },
            )
            .await
            .map(|a| a.decision)
            .map_err(|e| e.to_string())
    })?;
    serde_json::to_string(&decision).map_err(|e| e.to_string())
}
