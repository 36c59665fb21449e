//! `warrant demo`: the server, the demo agent and the web UI on the embedded default store,
//! with no configuration, and the address to open.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::config::Config;
use crate::serve::{Launch, run_sidecar, start};

/// Arguments of `warrant demo`.
#[derive(Debug, clap::Args)]
pub struct DemoArgs {
    /// The address to bind (default: the configured one, else 127.0.0.1:7878; a free port
    /// when that one is taken).
    #[arg(long, value_name = "ADDR")]
    addr: Option<String>,
    /// Where the demo's SQLite database lives (default: the configured data directory, else
    /// this directory's own folder in the user's data directory).
    #[arg(long, value_name = "DIR")]
    data_dir: Option<PathBuf>,
}

/// Serves the demo until Ctrl-C, printing the UI's address (with its token) on stdout.
pub fn run(args: DemoArgs, config_file: Option<&Path>) -> ExitCode {
    let flags = |config: &mut Config| {
        if let Some(addr) = args.addr {
            config.addr = addr;
        }
        if let Some(dir) = args.data_dir {
            config.data_dir = dir;
        }
    };
    run_sidecar("demo", config_file, flags, |config| {
        start(config, Launch::Demo)
    })
}
