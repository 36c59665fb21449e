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
    /// Have the hook forward to a running `warrant serve` at this URL. The hook reads the
    /// person's bearer token from a file only its owner can read (--token-file), never from
    /// the agent's environment, which the agent's own tools inherit.
    #[arg(long, value_name = "URL")]
    server: Option<String>,
    /// With --server: the hook reads the token from this file (default:
    /// $XDG_CONFIG_HOME/warrant/hook-token, else ~/.config/warrant/hook-token).
    #[arg(long, value_name = "PATH", requires = "server")]
    token_file: Option<PathBuf>,
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

/// Runs the command: one line saying what changed (with --server, a second saying where the
/// hook reads its token), exit 0; an error on one line, exit 2.
pub fn run(args: InitArgs, config_file: Option<&Path>) -> ExitCode {
    if let Some(name) = &args.mcp {
        return crate::mcp::init_snippet(name, args.write.as_deref(), &args.command, config_file);
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

/// A project's settings file must really be in the project: a repository may hold a symlinked
/// `.claude` (or settings file) that points elsewhere, and `init` would write there.
fn inside_project(path: &Path, project: &Path) -> Result<(), String> {
    let project = std::fs::canonicalize(project).map_err(|e| {
        format!(
            "cannot resolve the project directory {}: {e}",
            project.display()
        )
    })?;
    // The deepest part of the path that exists, resolved (links followed).
    let mut existing = path;
    while std::fs::symlink_metadata(existing).is_err() {
        match existing.parent() {
            Some(parent) => existing = parent,
            None => break,
        }
    }
    let real = std::fs::canonicalize(existing).map_err(|e| {
        format!(
            "cannot resolve {} ({e}): a symlink there may point nowhere; fix it and run warrant init again",
            existing.display()
        )
    })?;
    if real.starts_with(&project) {
        Ok(())
    } else {
        Err(format!(
            "{} resolves to {}, outside the project {}: refusing to write there (a symlink in the \
             project points out of it)",
            path.display(),
            real.display(),
            project.display()
        ))
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
    if args.project {
        inside_project(&path, &cwd)?;
    }
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
    let said = match install::install(&path, agent, &command)? {
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
    };
    if args.server.is_none() {
        return Ok(said);
    }
    let where_ = token_file(args)?.map_or_else(
        || "the file named with --token-file".to_owned(),
        |f| f.display().to_string(),
    );
    Ok(format!(
        "{said}\nthe hook reads the server's token from {where_}: write the person's token there, \
         readable by you only (chmod 600); never put it in the agent's environment"
    ))
}

/// The token file the hook is told to read with --server: --token-file, else the default
/// one as this environment resolves it (pinned in the command, so the hook reads the file
/// named here whatever the agent's environment says).
fn token_file(args: &InitArgs) -> Result<Option<PathBuf>, String> {
    match &args.token_file {
        Some(file) => absolute(file, "--token-file").map(Some),
        None => Ok(crate::hook::default_token_file()),
    }
}

/// The configuration file a hook or gateway set up now is pinned to, by its absolute path:
/// the one named with `--config`, else `./warrant.toml` when it exists. The hook and the
/// gateway never read a `warrant.toml` of the directory the agent works in (see
/// `Config::load_for_agent`), so the file the person set up with is named in their command.
pub(crate) fn pinned_config(config_file: Option<&Path>) -> Result<Option<PathBuf>, String> {
    let default = Path::new(warrant::config::DEFAULT_CONFIG_FILE);
    match config_file {
        Some(file) => absolute(file, "--config").map(Some),
        None if default.is_file() => absolute(default, "--config").map(Some),
        None => Ok(None),
    }
}

fn absolute(file: &Path, flag: &str) -> Result<PathBuf, String> {
    std::path::absolute(file).map_err(|e| format!("cannot resolve {flag} {}: {e}", file.display()))
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
    if let Some(file) = pinned_config(config_file)? {
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
        if let Some(file) = token_file(args)? {
            words.push("--token-file".to_owned());
            words.push(shell_word(&file.display().to_string()));
        }
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
