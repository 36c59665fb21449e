//! `warrant stdio`: JSON lines in on stdin, AG-UI events out on stdout (one per line,
//! nothing else), logs on stderr.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use warrant_transports::stdio::{LineTransport, StdioOptions, serve};

use crate::config::Config;
use crate::engine::build_engine;
use crate::engine::open_store;
use crate::serve::run_sidecar;

/// Arguments of `warrant stdio`.
#[derive(Debug, clap::Args)]
pub struct StdioArgs {
    /// Where the SQLite database and everything else written lives (default: the configured
    /// one, else this directory's own folder in the user's data directory).
    #[arg(long, value_name = "DIR")]
    data_dir: Option<PathBuf>,
}

/// Serves until the end of the input, then exits 0. Configuration errors print one line on
/// stderr and exit 2; a failure to start or a broken output exits 1.
pub fn run(args: StdioArgs, config_file: Option<&Path>) -> ExitCode {
    let flags = |config: &mut Config| {
        config.data_dir = args
            .data_dir
            .unwrap_or(std::mem::take(&mut config.data_dir));
    };
    run_sidecar("stdio", config_file, flags, start)
}

async fn start(config: Config) -> Result<(), String> {
    let store = open_store(&config)?;
    let out = Arc::new(LineTransport::new(tokio::io::stdout()));
    let engine = build_engine(&config, store, out.clone()).await?;
    let options = StdioOptions {
        mode: config.mode,
        max_line: config.body_limit,
        ..StdioOptions::default()
    };
    serve(tokio::io::stdin(), engine, out, options)
        .await
        .map_err(|e| format!("stdin or stdout failed: {e}"))
}
