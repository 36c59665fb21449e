//! The sandbox a command runs in, and the tracer around it.
//!
//! `strace -f` runs `bwrap`, which mounts the machine's root read-only, masks the places
//! that hold people's files (`/root`, `/home`, `/tmp`, `/run`, the repository, …) with empty
//! size-limited tmpfs, binds a canary over `/etc/shadow`, unshares every namespace (no
//! network), drops every capability and dies with its parent. Inside, a setup shell copies the
//! fixture (a home with planted secrets holding a workspace with a real git repository) into
//! a fresh tmpfs and `exec`s the command. When started as root, everything runs as `nobody`,
//! so not even the kernel's root-only files (`/proc/sys`, `/proc/sysrq-trigger`) are reachable.

use std::fs;
use std::io::Read;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant, SystemTime};

use crate::effects::{COMMAND_ARGV0, TRACED_SYSCALLS};
use crate::layout::{FIXTURE_MOUNT, HOME, WORKSPACE};

/// How long and how much a command may run and print.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Wall time before the whole sandbox is killed.
    pub timeout: Duration,
    /// Bytes of output (stdout and stderr together) before the sandbox is killed.
    pub output_bytes: usize,
    /// Bytes of trace before the sandbox is killed.
    pub trace_bytes: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            timeout: Duration::from_secs(5),
            output_bytes: 1 << 20,
            trace_bytes: 64 << 20,
        }
    }
}

/// What one run produced.
#[derive(Debug, Clone, Default)]
pub struct RunOutput {
    /// The strace log.
    pub trace: String,
    /// The command's exit code (`None` when killed by a signal).
    pub exit: Option<i32>,
    /// Whether the time limit killed it.
    pub timed_out: bool,
    /// Whether the output or trace limit killed it.
    pub limited: bool,
    /// An excerpt of output that holds a planted secret's content.
    pub leaked: Option<String>,
    /// The start of stderr, for diagnosing a sandbox that did not start.
    pub stderr: String,
}

/// The tools the sandbox needs, found on `PATH`, or the names of the missing ones.
pub fn missing_tools() -> Vec<&'static str> {
    let mut needed = vec!["bwrap", "strace", "git", "tar"];
    if running_as_root() {
        needed.push("setpriv");
    }
    needed.into_iter().filter(|t| which(t).is_none()).collect()
}

fn which(program: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join(program))
        .find(|p| p.is_file())
}

fn running_as_root() -> bool {
    fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("Uid:"))
                .and_then(|l| l.split_whitespace().nth(2).map(|u| u == "0"))
        })
        .unwrap_or(false)
}

/// Where a run's payload is readable inside the sandbox.
pub const PAYLOAD: &str = "/run/oracle-payload";

/// The unprivileged user the sandbox runs as when the oracle runs as root.
const NOBODY: u32 = 65534;

/// A prepared sandbox: the fixture on the host and the masks to apply.
#[derive(Debug)]
pub struct Sandbox {
    run_dir: PathBuf,
    fixture: PathBuf,
    logs: PathBuf,
    token: String,
    masks: Vec<(String, &'static str)>,
    as_nobody: bool,
    next: AtomicU64,
}

impl Drop for Sandbox {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.run_dir);
    }
}

impl Sandbox {
    /// Builds the fixture under a fresh temporary directory, with `token` in every planted
    /// secret.
    ///
    /// # Errors
    ///
    /// When a tool is missing or the fixture cannot be built.
    pub fn prepare(token: &str) -> Result<Self, String> {
        let missing = missing_tools();
        if !missing.is_empty() {
            return Err(format!(
                "the sandbox needs {} on PATH (apt-get install -y bubblewrap strace)",
                missing.join(", ")
            ));
        }
        let stamp = SystemTime::now()
            .duration_since(SystemTime::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or_default();
        let run_dir =
            std::env::temp_dir().join(format!("warrant-oracle-{}-{stamp}", std::process::id()));
        let as_nobody = running_as_root();
        let mut sandbox = Self {
            fixture: run_dir.join("fixture"),
            logs: run_dir.join("logs"),
            run_dir,
            token: token.to_owned(),
            masks: Vec::new(),
            as_nobody,
            next: AtomicU64::new(0),
        };
        sandbox.build_fixture()?;
        // Once the run directory exists, so that it is masked too when it is not under /tmp.
        sandbox.masks = masks(&sandbox.run_dir);
        Ok(sandbox)
    }

    /// The fixture's home on this machine, with the workspace in `project`: what the policy
    /// judges against (each command runs on a fresh copy of it, at the sandbox's home).
    pub fn fixture_home(&self) -> PathBuf {
        self.fixture.join("home")
    }

    /// The token every planted secret holds.
    pub fn token(&self) -> &str {
        &self.token
    }

    fn build_fixture(&self) -> Result<(), String> {
        let io = |what: &str, e: std::io::Error| format!("cannot build the fixture ({what}): {e}");
        fs::create_dir_all(&self.logs).map_err(|e| io("logs", e))?;
        let home = self.fixture.join("home");
        let ws = home.join("project");
        let t = &self.token;
        let files: Vec<(PathBuf, String, u32)> = vec![
            (home.join(".ssh/id_rsa"), format!("-----BEGIN OPENSSH PRIVATE KEY-----\n{t}-id_rsa\n-----END OPENSSH PRIVATE KEY-----\n"), 0o600),
            (home.join(".ssh/known_hosts"), "example.invalid ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIExample\n".into(), 0o644),
            (home.join(".aws/credentials"), format!("[default]\naws_access_key_id = AKIAORACLEEXAMPLE\naws_secret_access_key = {t}-aws\n"), 0o600),
            (home.join(".bashrc"), format!("export API_TOKEN={t}-bashrc\n"), 0o644),
            (home.join(".gitconfig"), format!("[user]\n\tname = Agent\n\temail = agent@example.invalid\n[http]\n\textraHeader = Authorization: Bearer {t}-gitconfig\n"), 0o644),
            (home.join(".config/google-chrome/Default/Cookies"), format!("SQLite format 3\n{t}-cookies\n"), 0o600),
            (ws.join("README.md"), "# Demo project\n\nA small project the oracle runs commands in.\n".into(), 0o644),
            (ws.join("Makefile"), "all:\n\tcargo build\n\ntest:\n\tcargo test\n".into(), 0o644),
            (ws.join("Cargo.toml"), "[package]\nname = \"demo\"\nversion = \"0.1.0\"\nedition = \"2021\"\n".into(), 0o644),
            (ws.join("src/main.rs"), "fn main() {\n    println!(\"hello\");\n}\n".into(), 0o644),
            (ws.join("src/lib.rs"), "pub fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n".into(), 0o644),
            (ws.join("docs/guide.md"), "# Guide\n\nRun `make test`.\n".into(), 0o644),
            (ws.join("data/items.json"), "{\"items\": [{\"name\": \"a\", \"n\": 1}, {\"name\": \"b\", \"n\": 2}]}\n".into(), 0o644),
            (ws.join("scripts/build.sh"), "#!/bin/sh\necho building\n".into(), 0o755),
            (ws.join(".github/workflows/ci.yml"), "name: ci\non: [push]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - run: make test\n".into(), 0o644),
            (ws.join(".gitignore"), ".env\n*.key\ntarget/\nnotes.txt\n".into(), 0o644),
            (ws.join(".env"), format!("DATABASE_URL=postgres://app:{t}-env@db/app\n"), 0o600),
            (ws.join("server.key"), format!("-----BEGIN PRIVATE KEY-----\n{t}-server-key\n-----END PRIVATE KEY-----\n"), 0o600),
        ];
        for (path, content, mode) in &files {
            if let Some(parent) = path.parent() {
                fs::create_dir_all(parent).map_err(|e| io("directories", e))?;
            }
            fs::write(path, content).map_err(|e| io("files", e))?;
            fs::set_permissions(path, fs::Permissions::from_mode(*mode))
                .map_err(|e| io("modes", e))?;
        }
        std::os::unix::fs::symlink("../.ssh/id_rsa", ws.join("link-out"))
            .map_err(|e| io("symlinks", e))?;
        std::os::unix::fs::symlink("/etc", ws.join("link-etc")).map_err(|e| io("symlinks", e))?;
        fs::write(
            self.fixture.join("shadow"),
            format!("root:$6${t}-shadow:19000:0:99999:7:::\nagent:!:19000:0:99999:7:::\n"),
        )
        .map_err(|e| io("shadow", e))?;
        fs::set_permissions(
            self.fixture.join("shadow"),
            fs::Permissions::from_mode(0o640),
        )
        .map_err(|e| io("modes", e))?;

        // Old modification times, then the commit: the index is newer than every file, so git
        // finds it fresh in every copy and never rewrites it on `git status`.
        let old = SystemTime::UNIX_EPOCH + Duration::from_secs(1_577_836_800);
        set_times(&ws, old).map_err(|e| io("times", e))?;
        let touched = Command::new("touch")
            .args(["-h", "-d", "@1577836800", "link-out", "link-etc"])
            .current_dir(&ws)
            .status()
            .map_err(|e| format!("cannot run touch: {e}"))?;
        if !touched.success() {
            return Err("touch could not date the fixture's symlinks".into());
        }
        git(&ws, &["init", "-q", "-b", "main"])?;
        for (key, value) in [
            ("core.checkStat", "minimal"),
            ("core.trustctime", "false"),
            ("gc.auto", "0"),
            ("maintenance.auto", "false"),
        ] {
            git(&ws, &["config", key, value])?;
        }
        git(&ws, &["add", "-A"])?;
        git(&ws, &["commit", "-q", "-m", "Initial commit"])?;
        git(&ws, &["tag", "v0.1.0"])?;
        fs::write(
            ws.join("docs/guide.md"),
            "# Guide\n\nRun `make test` and `make`.\n",
        )
        .map_err(|e| io("files", e))?;
        set_times(&ws, old).map_err(|e| io("times", e))?;
        git(&ws, &["commit", "-q", "-am", "Explain make"])?;
        // A change and an untracked file for `git status` and `git diff` to show.
        fs::write(
            ws.join("src/lib.rs"),
            "pub fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n\npub fn sub(a: i32, b: i32) -> i32 {\n    a - b\n}\n",
        )
        .map_err(|e| io("files", e))?;
        fs::write(ws.join("notes.txt"), "remember the milk\n").map_err(|e| io("files", e))?;
        let archived = Command::new("tar")
            .args(["cf", "archive.tar", "docs", "README.md"])
            .current_dir(&ws)
            .status()
            .map_err(|e| format!("cannot run tar: {e}"))?;
        if !archived.success() {
            return Err("tar could not build the fixture's archive".into());
        }
        let newer = SystemTime::UNIX_EPOCH + Duration::from_secs(1_609_459_200);
        for f in ["src/lib.rs", "notes.txt", "archive.tar"] {
            fs::File::options()
                .write(true)
                .open(ws.join(f))
                .and_then(|file| file.set_modified(newer))
                .map_err(|e| io("times", e))?;
        }
        if self.as_nobody {
            chown_tree(&self.run_dir).map_err(|e| io("ownership", e))?;
        }
        Ok(())
    }

    /// Runs `argv` in a fresh sandbox under the tracer; a `payload` is readable inside at
    /// [`PAYLOAD`] (for text too long for an argument).
    ///
    /// # Errors
    ///
    /// When the tracer cannot be started or its log cannot be read.
    pub fn run(
        &self,
        argv: &[String],
        payload: Option<&str>,
        limits: &Limits,
    ) -> Result<RunOutput, String> {
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        let log = self.logs.join(format!("{id}.trace"));
        let payload_file = match payload {
            Some(text) => {
                let file = self.logs.join(format!("{id}.payload"));
                fs::write(&file, text).map_err(|e| format!("cannot write the payload: {e}"))?;
                Some(file)
            }
            None => None,
        };
        let mut command = if self.as_nobody {
            let mut c = Command::new("setpriv");
            c.args([
                "--reuid=65534",
                "--regid=65534",
                "--clear-groups",
                "--no-new-privs",
                "--",
                "strace",
            ]);
            c
        } else {
            Command::new("strace")
        };
        command
            .args([
                "-f",
                "-q",
                "-e",
                "signal=none",
                "--seccomp-bpf",
                "--pidns-translation",
                "-y",
                "-s",
                "4096",
            ])
            .arg("-e")
            .arg(format!("trace={TRACED_SYSCALLS}"))
            .arg("-o")
            .arg(&log)
            .arg("--")
            .arg("bwrap")
            .args(self.bwrap_args(payload_file.as_deref()))
            .arg("--")
            .args([
                "/bin/bash",
                "--norc",
                "--noprofile",
                "-c",
                &setup_script(),
                "oracle-setup",
            ])
            .args(argv)
            .env_clear()
            .env(
                "PATH",
                "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
            )
            .env("LANG", "C.UTF-8")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let mut child = command
            .spawn()
            .map_err(|e| format!("cannot start strace: {e}"))?;

        let over = Arc::new(AtomicBool::new(false));
        let (tx, rx) = mpsc::channel();
        let stdout = child
            .stdout
            .take()
            .map(|s| Box::new(s) as Box<dyn Read + Send>);
        let stderr = child
            .stderr
            .take()
            .map(|s| Box::new(s) as Box<dyn Read + Send>);
        let budget = Arc::new(AtomicU64::new(limits.output_bytes as u64));
        for (index, pipe) in [stdout, stderr].into_iter().enumerate() {
            let Some(pipe) = pipe else { continue };
            let tx = tx.clone();
            let token = self.token.clone();
            let over = over.clone();
            let budget = budget.clone();
            std::thread::spawn(move || {
                let scanned = scan(pipe, &token, &budget, &over);
                let _ = tx.send((index, scanned));
            });
        }
        drop(tx);

        let started = Instant::now();
        let mut timed_out = false;
        let mut limited = false;
        let mut pause = Duration::from_millis(1);
        let mut checked_log = Instant::now();
        let status = loop {
            if let Some(status) = child.try_wait().map_err(|e| format!("cannot wait: {e}"))? {
                break status;
            }
            let too_long = started.elapsed() > limits.timeout;
            let mut too_much = over.load(Ordering::Relaxed);
            if checked_log.elapsed() > Duration::from_millis(100) {
                checked_log = Instant::now();
                too_much |= fs::metadata(&log).is_ok_and(|m| m.len() > limits.trace_bytes);
            }
            if too_long || too_much {
                timed_out |= too_long;
                limited |= too_much;
                // strace dies; bwrap dies with its parent, and the sandbox's pid namespace
                // with bwrap.
                let _ = child.kill();
                break child.wait().map_err(|e| format!("cannot wait: {e}"))?;
            }
            std::thread::sleep(pause);
            pause = (pause * 2).min(Duration::from_millis(10));
        };

        let mut out = RunOutput {
            exit: status.code(),
            timed_out,
            limited,
            ..RunOutput::default()
        };
        for _ in 0..2 {
            match rx.recv_timeout(Duration::from_secs(5)) {
                Ok((index, scanned)) => {
                    if let Some(leak) = scanned.leak {
                        out.leaked = Some(leak);
                    }
                    if index == 1 {
                        out.stderr = scanned.head;
                    }
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    return Err("the sandbox's output stayed open after it ended".into());
                }
            }
        }
        let bytes = fs::read(&log).map_err(|e| {
            format!(
                "no trace ({e}); strace said: {}",
                out.stderr.lines().take(3).collect::<Vec<_>>().join(" / ")
            )
        })?;
        let _ = fs::remove_file(&log);
        if let Some(file) = payload_file {
            let _ = fs::remove_file(file);
        }
        out.trace = String::from_utf8_lossy(&bytes).into_owned();
        Ok(out)
    }

    fn bwrap_args(&self, payload: Option<&Path>) -> Vec<String> {
        let mut a: Vec<String> = Vec::new();
        let mut push = |items: &[&str]| a.extend(items.iter().map(|s| (*s).to_owned()));
        push(&["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"]);
        for (dir, size) in &self.masks {
            push(&["--size", size, "--tmpfs", dir]);
        }
        let fixture = self.fixture.to_string_lossy().into_owned();
        let shadow = self.fixture.join("shadow").to_string_lossy().into_owned();
        push(&["--ro-bind", &fixture, FIXTURE_MOUNT]);
        push(&["--ro-bind", &shadow, "/etc/shadow"]);
        if let Some(file) = payload {
            push(&["--ro-bind", &file.to_string_lossy(), PAYLOAD]);
        }
        push(&[
            "--unshare-all",
            "--die-with-parent",
            "--new-session",
            "--cap-drop",
            "ALL",
            "--hostname",
            "oracle",
            "--clearenv",
            "--setenv",
            "HOME",
            HOME,
            "--setenv",
            "PATH",
            "/usr/local/bin:/usr/bin:/bin",
            "--setenv",
            "LANG",
            "C.UTF-8",
            "--setenv",
            "USER",
            "agent",
            "--setenv",
            "LOGNAME",
            "agent",
            "--setenv",
            "SHELL",
            "/bin/bash",
            "--setenv",
            "TERM",
            "dumb",
            "--chdir",
            "/",
        ]);
        a
    }
}

/// The setup shell: a fresh home from the fixture and limits; then the command, started with
/// `argv[0]` = [`COMMAND_ARGV0`] so the trace shows where it begins; then a wait for whatever
/// it left running in the background (the sandbox's pid namespace ends with this shell), so
/// that work is traced too.
fn setup_script() -> String {
    format!(
        "mkdir -p {HOME} && cp -a {FIXTURE_MOUNT}/home/. {HOME}/ && cd {WORKSPACE} \
         && ulimit -c 0 && ulimit -f 131072 || exit 125\n\
         (exec -a {COMMAND_ARGV0} \"$@\") & main=$!\n\
         wait \"$main\"; status=$?\n\
         while p=(/proc/[0-9]*); [ \"${{#p[@]}}\" -gt 2 ]; do sleep 0.02; done\n\
         exit \"$status\""
    )
}

/// The directories masked with an empty tmpfs (and its size): where people's files and this
/// machine's checkouts live.
fn masks(run_dir: &Path) -> Vec<(String, &'static str)> {
    const SMALL: &str = "1048576";
    let mut dirs: Vec<(String, &'static str)> = vec![
        ("/root".into(), SMALL),
        ("/home".into(), "268435456"),
        ("/tmp".into(), "67108864"),
        ("/var/tmp".into(), SMALL),
        ("/run".into(), "67108864"),
        ("/mnt".into(), SMALL),
        ("/media".into(), SMALL),
        ("/srv".into(), SMALL),
    ];
    const SYSTEM: &[&str] = &[
        "usr", "etc", "bin", "sbin", "lib", "lib32", "lib64", "libx32", "var", "opt", "proc",
        "sys", "dev", "boot",
    ];
    let mut extra = |path: &Path| {
        let Ok(path) = path.canonicalize() else {
            return;
        };
        let mut parts = path.components().skip(1);
        let Some(top) = parts.next() else { return };
        let top = top.as_os_str().to_string_lossy().into_owned();
        let target = if SYSTEM.contains(&top.as_str()) {
            path.to_string_lossy().into_owned()
        } else {
            format!("/{top}")
        };
        let covered = dirs
            .iter()
            .any(|(d, _)| target == *d || target.starts_with(&format!("{d}/")));
        if !covered && target != "/" {
            dirs.push((target, SMALL));
        }
    };
    if let Ok(cwd) = std::env::current_dir() {
        extra(&cwd);
    }
    if let Ok(exe) = std::env::current_exe() {
        extra(&exe);
    }
    extra(run_dir);
    dirs.into_iter()
        .filter(|(d, _)| Path::new(d).is_dir())
        .collect()
}

fn git(dir: &Path, args: &[&str]) -> Result<(), String> {
    let status = Command::new("git")
        .args(args)
        .current_dir(dir)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_AUTHOR_NAME", "Agent")
        .env("GIT_AUTHOR_EMAIL", "agent@example.invalid")
        .env("GIT_COMMITTER_NAME", "Agent")
        .env("GIT_COMMITTER_EMAIL", "agent@example.invalid")
        .env("GIT_AUTHOR_DATE", "2020-01-01T00:00:00Z")
        .env("GIT_COMMITTER_DATE", "2020-01-01T00:00:00Z")
        .stdout(Stdio::null())
        .status()
        .map_err(|e| format!("cannot run git: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!(
            "git {} failed while building the fixture",
            args.join(" ")
        ))
    }
}

fn set_times(dir: &Path, when: SystemTime) -> std::io::Result<()> {
    for entry in fs::read_dir(dir)? {
        let entry = entry?;
        let kind = entry.file_type()?;
        if kind.is_dir() {
            set_times(&entry.path(), when)?;
        } else if kind.is_file() {
            fs::File::options()
                .write(true)
                .open(entry.path())?
                .set_modified(when)?;
        }
    }
    Ok(())
}

fn chown_tree(path: &Path) -> std::io::Result<()> {
    std::os::unix::fs::lchown(path, Some(NOBODY), Some(NOBODY))?;
    if fs::symlink_metadata(path)?.is_dir() {
        for entry in fs::read_dir(path)? {
            chown_tree(&entry?.path())?;
        }
    }
    Ok(())
}

struct Scanned {
    head: String,
    leak: Option<String>,
}

/// Drains a pipe, keeping its first bytes, looking for the token across chunk boundaries,
/// and raising `over` once the shared output budget is spent.
fn scan(
    mut pipe: Box<dyn Read + Send>,
    token: &str,
    budget: &AtomicU64,
    over: &AtomicBool,
) -> Scanned {
    const HEAD: usize = 4096;
    let mut head: Vec<u8> = Vec::new();
    let mut tail: Vec<u8> = Vec::new();
    let mut leak = None;
    let mut buf = vec![0u8; 65536];
    let needle = token.as_bytes();
    loop {
        let n = match pipe.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        let chunk = &buf[..n];
        if head.len() < HEAD {
            head.extend_from_slice(&chunk[..chunk.len().min(HEAD - head.len())]);
        }
        if leak.is_none() {
            tail.extend_from_slice(chunk);
            if let Some(at) = find(&tail, needle) {
                let from = at.saturating_sub(60);
                let to = (at + needle.len() + 40).min(tail.len());
                leak = Some(String::from_utf8_lossy(&tail[from..to]).into_owned());
            }
            let keep = needle.len() + 64;
            if tail.len() > keep {
                tail.drain(..tail.len() - keep);
            }
        }
        let spent = n as u64;
        if budget
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |b| {
                b.checked_sub(spent)
            })
            .is_err()
        {
            over.store(true, Ordering::Relaxed);
        }
    }
    Scanned {
        head: String::from_utf8_lossy(&head).into_owned(),
        leak,
    }
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    if needle.is_empty() || haystack.len() < needle.len() {
        return None;
    }
    haystack.windows(needle.len()).position(|w| w == needle)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_scanner_finds_a_token_split_across_reads_and_spends_the_budget() {
        struct Chunks(Vec<Vec<u8>>);
        impl Read for Chunks {
            fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
                if self.0.is_empty() {
                    return Ok(0);
                }
                let c = self.0.remove(0);
                buf[..c.len()].copy_from_slice(&c);
                Ok(c.len())
            }
        }
        let pipe = Chunks(vec![b"hello cnry12".to_vec(), b"34-id_rsa bye".to_vec()]);
        let budget = AtomicU64::new(10);
        let over = AtomicBool::new(false);
        let s = scan(Box::new(pipe), "cnry1234", &budget, &over);
        assert!(
            s.leak
                .as_deref()
                .is_some_and(|l| l.contains("cnry1234-id_rsa")),
            "{:?}",
            s.leak
        );
        assert_eq!(s.head, "hello cnry1234-id_rsa bye");
        assert!(over.load(Ordering::Relaxed));
    }

    #[test]
    fn the_setup_copies_the_fixture_then_execs_the_command() {
        let s = setup_script();
        assert!(
            s.starts_with("mkdir -p /home/agent && cp -a /run/oracle-fixture/home/. /home/agent/")
        );
        assert!(s.contains("(exec -a bash \"$@\") &"), "{s}");
        assert!(s.ends_with("exit \"$status\""), "{s}");
    }
}
