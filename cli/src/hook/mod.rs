//! `warrant hook claude-code|codex|gemini`: the command an agent runs before (and after)
//! every tool call. It reads the agent's hook payload on stdin, decides the call through the
//! same engine as every other command, records it in the audit log and the session's tool
//! part, and answers in that agent's schema and exit-code convention.
//!
//! It fails closed in the agent's terms: a payload that cannot be read, an error, a panic or
//! no decision within `--timeout` is an ask (Claude Code) or a deny (Codex, Gemini CLI),
//! never an allow.

mod answer;
mod backend;
mod event;
mod flow;
pub(crate) mod install;
mod remote;
mod tools;

use std::io::{Read, Write};
use std::panic::AssertUnwindSafe;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::mpsc;
use std::time::Duration;

use warrant_core::call::PermissionMode;

use answer::{Answer, Verdict, render, unreadable};
use backend::Local;
use event::{EventKind, HookEvent};
use remote::Remote;
pub(crate) use remote::default_token_file;

use crate::config::Config;

/// The largest payload read, in bytes: a tool input beyond it is refused, not cut.
const MAX_PAYLOAD_BYTES: u64 = 8 * 1024 * 1024;

/// The agents Warrant hooks into.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum Agent {
    /// Claude Code (`PreToolUse`, `PostToolUse`, `PostToolUseFailure`, `PermissionDenied`,
    /// `Stop`).
    ClaudeCode,
    /// Codex (`PreToolUse`, `PostToolUse`, `Stop`).
    Codex,
    /// Gemini CLI (`BeforeTool`, `AfterTool`, `AfterAgent`).
    Gemini,
}

impl Agent {
    /// The id its calls carry (`agentId`) and its name on the command line.
    pub(crate) fn id(self) -> &'static str {
        match self {
            Self::ClaudeCode => "claude-code",
            Self::Codex => "codex",
            Self::Gemini => "gemini",
        }
    }

    /// Its name for people.
    pub(crate) fn display_name(self) -> &'static str {
        match self {
            Self::ClaudeCode => "Claude Code",
            Self::Codex => "Codex",
            Self::Gemini => "Gemini CLI",
        }
    }
}

/// Arguments of `warrant hook`.
#[derive(Debug, Clone, clap::Args)]
pub struct HookArgs {
    /// The agent whose hook payload arrives on stdin.
    #[arg(value_enum)]
    agent: Agent,
    /// Forward to a running `warrant serve` at this URL (bearer token from --token-file)
    /// instead of opening the store here.
    #[arg(long, value_name = "URL")]
    server: Option<String>,
    /// With --server: the file holding the server's bearer token, readable by its owner only
    /// (default: $XDG_CONFIG_HOME/warrant/hook-token, else ~/.config/warrant/hook-token).
    #[arg(long, value_name = "PATH", requires = "server")]
    token_file: Option<PathBuf>,
    /// With --server: read the token from WARRANT_TOKEN instead of a file. Unsafe when the
    /// agent's tools can read the environment they inherit: the agent could then approve
    /// its own asks.
    #[arg(long, requires = "server", conflicts_with = "token_file")]
    token_from_env: bool,
    /// Where the SQLite database lives when deciding locally (default: the configured one,
    /// else the working directory's own folder in the user's data directory; never a folder
    /// of the project).
    #[arg(long, value_name = "DIR")]
    data_dir: Option<PathBuf>,
    /// The permission mode: default, auto or full_access (default: the configured mode; with
    /// --server, the server's).
    #[arg(long, value_name = "MODE")]
    mode: Option<PermissionMode>,
    /// Seconds to decide before failing closed; keep it below the agent's own hook timeout.
    #[arg(long, value_name = "SECONDS", default_value_t = 10)]
    timeout: u64,
}

/// Runs the hook: the agent's answer on stdout/stderr and its exit code.
pub fn run(args: HookArgs, config_file: Option<&Path>) -> ExitCode {
    let answer = answer(&args, config_file);
    if let Some(out) = &answer.stdout {
        let mut stdout = std::io::stdout().lock();
        let _ = writeln!(stdout, "{out}");
        let _ = stdout.flush();
    }
    if let Some(err) = &answer.stderr {
        eprintln!("{}", err.replace('\n', " "));
    }
    ExitCode::from(answer.code)
}

fn answer(args: &HookArgs, config_file: Option<&Path>) -> Answer {
    let agent = args.agent;
    let deadline = Duration::from_secs(args.timeout.max(1));
    let text = match read_payload(deadline) {
        Ok(text) => text,
        Err(why) => return unreadable(agent, None, &why),
    };
    let event = match event::parse(agent, &text) {
        Ok(event) => event,
        Err(e) => return unreadable(agent, e.event.as_deref(), &e.message),
    };
    match handle_within(args, config_file, &event, deadline) {
        Ok(verdict) => render(agent, &verdict),
        Err(why) => fail_closed(agent, &event, &why),
    }
}

/// Handles the event on a thread of its own and waits for it at most `deadline`: opening the
/// store, reading the configuration or building the engine block the thread they run on,
/// which no timer of that thread can interrupt. When the deadline passes, the answer fails
/// closed and the process exits with the thread still blocked.
fn handle_within(
    args: &HookArgs,
    config_file: Option<&Path>,
    event: &HookEvent,
    deadline: Duration,
) -> Result<Verdict, String> {
    let (tx, rx) = mpsc::channel();
    let (args, config_file, event) = (
        args.clone(),
        config_file.map(Path::to_path_buf),
        event.clone(),
    );
    let spawned = std::thread::Builder::new()
        .name("warrant-hook".to_owned())
        .spawn(move || {
            let outcome = std::panic::catch_unwind(AssertUnwindSafe(|| {
                handle(&args, config_file.as_deref(), &event, deadline)
            }))
            .unwrap_or_else(|_| Err("an internal error interrupted Warrant".to_owned()));
            let _ = tx.send(outcome);
        });
    if let Err(e) = spawned {
        return Err(format!("cannot start the hook's thread: {e}"));
    }
    match rx.recv_timeout(deadline) {
        Ok(outcome) => outcome,
        Err(mpsc::RecvTimeoutError::Timeout) => {
            Err(format!("no decision within {} seconds", deadline.as_secs()))
        }
        Err(mpsc::RecvTimeoutError::Disconnected) => {
            Err("an internal error interrupted Warrant".to_owned())
        }
    }
}

/// The answer when Warrant could not handle an event: a pre-tool event is an ask (a deny for
/// agents that cannot ask); anything else is a warning on stderr.
fn fail_closed(agent: Agent, event: &HookEvent, why: &str) -> Answer {
    if event.kind == EventKind::PreTool {
        return render(
            agent,
            &Verdict::Ask(format!(
                "Warrant could not decide this call, so it is not allowed without you: {why}"
            )),
        );
    }
    let mut answer = render(agent, &Verdict::Nothing);
    answer.stderr = Some(format!("warrant hook: {why}"));
    answer
}

/// Reads stdin to its end, within the deadline and the size bound.
fn read_payload(deadline: Duration) -> Result<String, String> {
    let (tx, rx) = mpsc::channel();
    // A thread of its own: an agent that never closes stdin must not hold the answer back.
    std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let read = std::io::stdin()
            .lock()
            .take(MAX_PAYLOAD_BYTES + 1)
            .read_to_end(&mut bytes);
        let _ = tx.send(read.map(|_| bytes));
    });
    let bytes = rx
        .recv_timeout(deadline)
        .map_err(|_| format!("no hook payload arrived on stdin within {deadline:?}"))?
        .map_err(|e| format!("cannot read the hook payload from stdin: {e}"))?;
    if bytes.len() as u64 > MAX_PAYLOAD_BYTES {
        return Err(format!(
            "the hook payload is larger than {MAX_PAYLOAD_BYTES} bytes"
        ));
    }
    String::from_utf8(bytes).map_err(|_| "the hook payload is not UTF-8 text".to_owned())
}

/// The variables agents set for their hooks to the project's root (Claude Code's, Gemini
/// CLI's).
const PROJECT_DIR_VARS: [&str; 2] = ["CLAUDE_PROJECT_DIR", "GEMINI_PROJECT_DIR"];

/// The agent's project: the directory its project variable names (absolute, existing), else
/// the hook's own working directory, where the agent starts it. Not the event's `cwd`: an
/// agent whose shell ran `cd ~` reports its home there, and the home would become the
/// workspace every later call is judged in.
fn project_dir() -> Result<PathBuf, String> {
    let named = PROJECT_DIR_VARS.iter().find_map(|name| {
        std::env::var_os(name)
            .map(PathBuf::from)
            .filter(|p| p.is_absolute() && p.is_dir())
    });
    match named {
        Some(dir) => Ok(dir),
        None => std::env::current_dir()
            .map_err(|e| format!("cannot read the hook's working directory: {e}")),
    }
}

fn handle(
    args: &HookArgs,
    config_file: Option<&Path>,
    event: &HookEvent,
    deadline: Duration,
) -> Result<Verdict, String> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the runtime: {e}"))?;
    let project = project_dir()?;
    let work = async {
        match &args.server {
            Some(url) => {
                let token = remote::token(args.token_file.as_deref(), args.token_from_env)?;
                let remote = Remote::new(url, token, args.mode, deadline)?;
                flow::handle(args.agent, event, &remote, &project).await
            }
            None => {
                let mut config = Config::load_for_agent(config_file, args.data_dir.as_deref())
                    .map_err(|e| e.to_string())?;
                // The project is the workspace; the directory the agent's shell moved to
                // (the event's `cwd`) is where the call runs, not what it may touch.
                config.workspace = Some(project.clone());
                let mode = args.mode.unwrap_or(config.mode);
                let local = Local::open(&config, mode).await?;
                let verdict = flow::handle(args.agent, event, &local, &project).await;
                // The answer stands on the audit log; the UI's stream only misses these events.
                if let Err(e) = local.flush().await {
                    eprintln!("warrant hook: {e}");
                }
                verdict
            }
        }
    };
    let outcome = runtime.block_on(async {
        tokio::time::timeout(deadline, work)
            .await
            .map_err(|_| format!("no decision within {} seconds", deadline.as_secs()))?
    });
    runtime.shutdown_timeout(Duration::from_millis(200));
    outcome
}
