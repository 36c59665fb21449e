//! `warrant plugins`: every registered and loaded plugin, with its kind, name, version and
//! origin (built-in, process, library).

use std::path::Path;
use std::process::ExitCode;

use crate::config::Config;

/// Arguments of `warrant plugins`.
#[derive(Debug, clap::Args)]
pub struct PluginsArgs {
    /// Print a JSON array instead of a table.
    #[arg(long)]
    json: bool,
}

/// Lists the plugins on stdout and exits 0; a configuration error is one line on stderr and
/// exit 2. Process plugins are started and library plugins loaded to ask their versions; one
/// that cannot start is listed with the reason.
pub fn run(args: PluginsArgs, config_file: Option<&Path>) -> ExitCode {
    match list(&args, config_file) {
        Ok(text) => {
            print!("{text}");
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("warrant plugins: {}", message.replace('\n', " "));
            ExitCode::from(2)
        }
    }
}

fn list(args: &PluginsArgs, config_file: Option<&Path>) -> Result<String, String> {
    let config = Config::load(config_file).map_err(|e| e.to_string())?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the runtime: {e}"))?;
    crate::engine::link_builtin_plugins();
    let mut plugins = runtime
        .block_on(warrant_plugins::list(&config.plugins))
        .map_err(|e| e.to_string())?;
    mark_selected(&mut plugins, &config);
    if args.json {
        serde_json::to_string_pretty(&plugins)
            .map(|json| json + "\n")
            .map_err(|e| e.to_string())
    } else {
        Ok(warrant_plugins::render_table(&plugins))
    }
}

/// Marks what the configuration uses: the chain's evaluators by position, the store, and each
/// transport with the command that runs it.
fn mark_selected(plugins: &mut [warrant_plugins::PluginInfo], config: &Config) {
    use warrant_plugins::PluginKind;
    let chain = config.plugins.evaluator_names();
    for p in plugins {
        p.selected = match p.kind {
            PluginKind::Evaluator => chain
                .iter()
                .position(|n| *n == p.name)
                .map(|i| format!("chain {}", i + 1)),
            PluginKind::Store => (p.name == config.store.kind).then(|| "store".to_owned()),
            PluginKind::Transport => match p.name.as_str() {
                "sse" => Some("warrant serve".to_owned()),
                "stdio" => Some("warrant stdio".to_owned()),
                _ => None,
            },
            _ => None,
        };
    }
}
