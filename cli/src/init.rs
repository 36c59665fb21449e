//! `warrant init`: sets Warrant up where an agent runs. `--agent` installs (or with
//! `--remove` removes) the hook entries in that agent's settings file.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::hook::Agent;
use crate::hook::install::{self, Change};

/// Arguments of `warrant init`.
#[derive(Debug, clap::Args)]
pub struct InitArgs {
    /// The agent to hook: claude-code, codex or gemini.
    #[arg(long, value_enum, value_name = "AGENT")]
    agent: Option<Agent>,
    /// Edit the project's settings (./.claude, ./.codex, ./.gemini) instead of the user's
    /// (under $HOME).
    #[arg(long)]
    project: bool,
    /// Remove Warrant's hook entries instead of installing them.
    #[arg(long)]
    remove: bool,
    /// Have the hook forward to a running `warrant serve` at this URL (it then needs
    /// WARRANT_TOKEN in the agent's environment).
    #[arg(long, value_name = "URL")]
    server: Option<String>,
    /// Print the MCP client configuration that runs the server given after `--` through
    /// `warrant mcp --name NAME`.
    #[arg(long, value_name = "NAME", conflicts_with = "agent")]
    mcp: Option<String>,
    /// With --mcp: write the entry into this client configuration file (other settings kept)
    /// instead of printing it.
    #[arg(long, value_name = "FILE", requires = "mcp")]
    write: Option<PathBuf>,
    /// With --mcp: the MCP server's command and its arguments.
    #[arg(last = true, value_name = "CMD")]
    command: Vec<String>,
}

/// Runs the command: one line saying what changed, exit 0; an error on one line, exit 2.
pub fn run(args: InitArgs, config_file: Option<&Path>) -> ExitCode {
    if let Some(name) = &args.mcp {
        return crate::mcp::init_snippet(name, args.write.as_deref(), &args.command);
    }
    let outcome = match args.agent {
        Some(agent) => init_agent(agent, &args, config_file),
        None => Err("name what to set up: --agent claude-code|codex|gemini".to_owned()),
    };
    match outcome {
        Ok(message) => {
            println!("{message}");
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("warrant init: {}", message.replace('\n', " "));
            ExitCode::from(2)
        }
    }
}

fn init_agent(agent: Agent, args: &InitArgs, config_file: Option<&Path>) -> Result<String, String> {
    let home = std::env::var_os("HOME")
        .filter(|h| !h.is_empty())
        .map(PathBuf::from)
        .ok_or("HOME is not set: cannot find the user's settings (use --project)")?;
    let cwd =
        std::env::current_dir().map_err(|e| format!("cannot read the current directory: {e}"))?;
    let path = install::settings_path(agent, &home, args.project.then_some(cwd.as_path()));
    let name = agent.display_name();
    if args.remove {
        return Ok(match install::remove(&path, agent)? {
            Change::Removed { backup } => format!(
                "removed the Warrant hook for {name} from {} (backup: {})",
                path.display(),
                backup.display()
            ),
            _ => format!("no Warrant hook for {name} in {}", path.display()),
        });
    }
    let command = hook_command(agent, args, config_file)?;
    Ok(match install::install(&path, agent, &command)? {
        Change::Installed { backup: Some(b) } => format!(
            "installed the Warrant hook for {name} in {} (backup: {})",
            path.display(),
            b.display()
        ),
        Change::Installed { backup: None } => {
            format!(
                "installed the Warrant hook for {name} in {}",
                path.display()
            )
        }
        _ => format!(
            "the Warrant hook for {name} is already in {}",
            path.display()
        ),
    })
}

/// The command the agent runs: this very program (by its absolute path), `hook <agent>`,
/// with the configuration file and server it was set up with.
fn hook_command(
    agent: Agent,
    args: &InitArgs,
    config_file: Option<&Path>,
) -> Result<String, String> {
    let exe = std::env::current_exe()
        .map_err(|e| format!("cannot find the warrant program's own path: {e}"))?;
    let mut words = vec![shell_word(&exe.display().to_string())];
    if let Some(file) = config_file {
        let file = std::path::absolute(file)
            .map_err(|e| format!("cannot resolve --config {}: {e}", file.display()))?;
        words.push("--config".to_owned());
        words.push(shell_word(&file.display().to_string()));
    }
    words.push("hook".to_owned());
    words.push(agent.id().to_owned());
    if let Some(url) = &args.server {
        if !(url.starts_with("http://") || url.starts_with("https://")) {
            return Err(format!(
                "--server \"{url}\" is not an http:// or https:// URL (try http://127.0.0.1:7878)"
            ));
        }
        words.push("--server".to_owned());
        words.push(shell_word(url));
    }
    Ok(words.join(" "))
}

/// A word as a shell reads it back: quoted when it holds anything but plain characters.
fn shell_word(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "/._-:=+@%,".contains(c));
    if plain {
        word.to_owned()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}
