//! What the traced command did, as effects: programs run, files opened (for reading or
//! writing), files changed, sockets used. Only the command's own processes count: the
//! sandbox's setup (bubblewrap, the copy of the fixture) is cut off at the command's `exec`.

use std::collections::{BTreeMap, BTreeSet};

use crate::trace::{Event, EventKind, Outcome, Syscall, fd_arg, string_arg};

/// One thing the command did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Effect {
    /// A program ran (a successful `execve`); the path as given to the kernel.
    Exec {
        /// The program's path.
        path: String,
    },
    /// A file was opened.
    Open {
        /// The path as given, made absolute against the directory it is relative to.
        path: String,
        /// The kernel's path for the opened file (symlinks resolved), when it opened.
        resolved: Option<String>,
        /// Whether it was opened to write, create, truncate or append.
        write: bool,
        /// Whether only a handle was taken (`O_PATH`) or a directory was opened: no content read.
        metadata_only: bool,
        /// Whether the open succeeded.
        ok: bool,
        /// Whether it certainly created the file (`O_CREAT|O_EXCL` or `O_TMPFILE`, and it
        /// succeeded).
        created: bool,
    },
    /// A file was changed without an open: unlink, rename, link, symlink, chmod, chown,
    /// truncate, mkdir, mknod, utimes, mount.
    Change {
        /// The system call.
        op: String,
        /// The path changed (absolute when it could be made so).
        path: String,
        /// Whether the path is gone afterwards (unlink, rmdir, the source of a rename).
        gone: bool,
        /// Whether it certainly created the path (a successful mkdir or mknod).
        created: bool,
    },
    /// A socket was connected, bound or sent to an address.
    Network {
        /// The system call.
        op: String,
        /// The address as strace printed it.
        address: String,
    },
}

/// An effect, with who did it and the trace line that shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Observed {
    /// The process id.
    pub pid: u32,
    /// The basename of the program the process was running, when it exec'd one.
    pub program: Option<String>,
    /// The effect.
    pub effect: Effect,
    /// The trace line.
    pub line: String,
}

/// Why a trace does not show a command running.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HarnessError(pub String);

impl std::fmt::Display for HarnessError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for HarnessError {}

/// The `argv[0]` the sandbox's setup gives the command's shell, so its `execve` marks where
/// the command starts (the setup's own shell is `/bin/bash`).
pub const COMMAND_ARGV0: &str = "bash";

/// The effects of the command in a trace of `bwrap … -- /bin/bash -c SETUP …`, where the setup
/// starts the command with `exec -a bash`.
///
/// The command is the process whose successful `execve` first has [`COMMAND_ARGV0`] as
/// `argv[0]`, and every process and thread it starts (followed through `clone`, `fork` and
/// `vfork`, whose results strace translates into its own pid namespace). Everything else —
/// bubblewrap, the setup's copy of the fixture, its waiting for stragglers — is the harness.
///
/// # Errors
///
/// A [`HarnessError`] when the trace does not show the command starting, or when an effect's
/// arguments cannot be read.
pub fn command_effects(events: &[Event]) -> Result<Vec<Observed>, HarnessError> {
    let marker = events.iter().position(|e| match &e.kind {
        EventKind::Syscall(s) => {
            s.name == "execve" && s.outcome.is_ok() && argv0(s).as_deref() == Some(COMMAND_ARGV0)
        }
        EventKind::Exit => false,
    });
    let Some(marker) = marker else {
        return Err(HarnessError(
            "the sandbox never started the command (no execve of its shell in the trace)".into(),
        ));
    };
    let root = events[marker].pid;
    let mut children: BTreeMap<u32, Vec<u32>> = BTreeMap::new();
    for event in &events[marker..] {
        if let EventKind::Syscall(call) = &event.kind
            && let Some(child) = spawned(call)
        {
            children.entry(event.pid).or_default().push(child);
        }
    }
    let mut command: BTreeSet<u32> = BTreeSet::new();
    let mut queue = vec![root];
    while let Some(pid) = queue.pop() {
        if command.insert(pid) {
            queue.extend(children.get(&pid).into_iter().flatten().copied());
        }
    }

    let mut programs: BTreeMap<u32, String> = BTreeMap::new();
    let mut out = Vec::new();
    for event in &events[marker..] {
        if !command.contains(&event.pid) {
            continue;
        }
        let EventKind::Syscall(call) = &event.kind else {
            continue;
        };
        if let Some(child) = spawned(call) {
            if let Some(program) = programs.get(&event.pid).cloned() {
                programs.entry(child).or_insert(program);
            }
            continue;
        }
        let effects = effects_of(call).map_err(|e| HarnessError(format!("{e}: {}", event.line)))?;
        if is_exec(call)
            && call.outcome.is_ok()
            && let Some(Effect::Exec { path }) = effects.first()
        {
            programs.insert(event.pid, basename(path).to_owned());
        }
        for effect in effects {
            out.push(Observed {
                pid: event.pid,
                program: programs.get(&event.pid).cloned(),
                effect,
                line: event.line.clone(),
            });
        }
    }
    Ok(out)
}

/// The process or thread a successful `clone`, `clone3`, `fork` or `vfork` started, as a pid
/// of the tracer's namespace.
fn spawned(call: &Syscall) -> Option<u32> {
    if !matches!(call.name.as_str(), "clone" | "clone3" | "fork" | "vfork") {
        return None;
    }
    match &call.outcome {
        Outcome::Ok {
            translated: Some(pid),
            ..
        } => Some(*pid),
        Outcome::Ok { value, .. } if *value > 0 => u32::try_from(*value).ok(),
        _ => None,
    }
}

/// The first element of an `execve`'s argument vector.
fn argv0(call: &Syscall) -> Option<String> {
    let argv = call.args.get(1)?.strip_prefix('[')?;
    string_arg(argv).map(|(s, _)| s)
}

fn is_exec(call: &Syscall) -> bool {
    call.name == "execve" || call.name == "execveat"
}

/// The last path component.
pub fn basename(path: &str) -> &str {
    let trimmed = path.trim_end_matches('/');
    trimmed.rsplit('/').next().unwrap_or(trimmed)
}

/// Makes `path` absolute against the directory decoration of `dirfd` and normalizes `.`,
/// `..` and repeated slashes lexically. A relative path against an unknown directory keeps a
/// `?/` prefix, so it never looks like a harmless absolute path.
pub fn absolute(dir: Option<&str>, path: &str) -> String {
    let joined = if path.starts_with('/') {
        path.to_owned()
    } else {
        match dir {
            Some(d) if d.starts_with('/') => format!("{d}/{path}"),
            _ => return format!("?/{path}"),
        }
    };
    normalize(&joined)
}

/// Lexical normalization of an absolute path.
pub fn normalize(path: &str) -> String {
    let mut parts: Vec<&str> = Vec::new();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            other => parts.push(other),
        }
    }
    format!("/{}", parts.join("/"))
}

fn arg(call: &Syscall, i: usize) -> Result<&str, String> {
    call.args
        .get(i)
        .map(String::as_str)
        .ok_or_else(|| format!("{} has no argument {i}", call.name))
}

/// A path argument; a `NULL` path is `None`.
fn path_arg(call: &Syscall, i: usize) -> Result<Option<String>, String> {
    let a = arg(call, i)?;
    if a == "NULL" {
        return Ok(None);
    }
    match string_arg(a) {
        // A path longer than strace prints is longer than the kernel takes: the call failed
        // (ENAMETOOLONG) and touched nothing.
        Some((_, true)) if !call.outcome.is_ok() && call.outcome != Outcome::Unknown => Ok(None),
        Some((_, true)) => Err(format!("{} argument {i} was cut short", call.name)),
        Some((s, false)) => Ok(Some(s)),
        // A pointer strace could not read (EFAULT): no path, nothing happened.
        None if a.starts_with("0x") => Ok(None),
        None => Err(format!("{} argument {i} is not a string", call.name)),
    }
}

/// The directory a dirfd argument stands for.
fn dir_arg(call: &Syscall, i: usize) -> Result<Option<String>, String> {
    let a = arg(call, i)?;
    let (_, decoration) =
        fd_arg(a).ok_or_else(|| format!("{} argument {i} is not a descriptor", call.name))?;
    Ok(decoration.map(|d| d.trim_end_matches(" (deleted)").to_owned()))
}

/// A path argument made absolute against a dirfd argument.
fn at_path(call: &Syscall, dir: usize, path: usize) -> Result<Option<String>, String> {
    let Some(p) = path_arg(call, path)? else {
        return Ok(None);
    };
    let d = dir_arg(call, dir)?;
    Ok(Some(absolute(d.as_deref(), &p)))
}

/// The path a descriptor argument refers to, or a `fd:` placeholder for pipes and sockets.
fn fd_path(call: &Syscall, i: usize) -> Result<String, String> {
    let a = arg(call, i)?;
    let (n, decoration) =
        fd_arg(a).ok_or_else(|| format!("{} argument {i} is not a descriptor", call.name))?;
    Ok(match decoration {
        Some(d) if d.starts_with('/') => d.trim_end_matches(" (deleted)").to_owned(),
        Some(d) => format!("fd:{d}"),
        None => format!("fd:{}", n.map_or("AT_FDCWD".to_owned(), |n| n.to_string())),
    })
}

const WRITE_FLAGS: &[&str] = &[
    "O_WRONLY",
    "O_RDWR",
    "O_CREAT",
    "O_TRUNC",
    "O_APPEND",
    "O_TMPFILE",
];

fn flag_set(flags: &str) -> BTreeSet<&str> {
    flags.split('|').map(str::trim).collect()
}

fn open_effect(
    call: &Syscall,
    path: Option<String>,
    flags: &str,
    forced_write: bool,
) -> Vec<Effect> {
    let Some(path) = path else {
        return Vec::new();
    };
    let set = flag_set(flags);
    let write = forced_write || WRITE_FLAGS.iter().any(|f| set.contains(f));
    let metadata_only = !write && (set.contains("O_PATH") || set.contains("O_DIRECTORY"));
    let created = call.outcome.is_ok()
        && ((set.contains("O_CREAT") && set.contains("O_EXCL")) || set.contains("O_TMPFILE"));
    let (ok, resolved) = match &call.outcome {
        Outcome::Ok { decoration, .. } => (
            true,
            decoration
                .as_ref()
                .map(|d| d.trim_end_matches(" (deleted)").to_owned()),
        ),
        _ => (false, None),
    };
    vec![Effect::Open {
        path,
        resolved,
        write,
        metadata_only,
        ok,
        created,
    }]
}

fn change(call: &Syscall, path: Option<String>) -> Vec<Effect> {
    let op = call.name.as_str();
    let gone = matches!(op, "unlink" | "unlinkat" | "rmdir");
    let created = call.outcome.is_ok() && matches!(op, "mkdir" | "mkdirat" | "mknod" | "mknodat");
    path.map(|path| Effect::Change {
        op: op.to_owned(),
        path,
        gone,
        created,
    })
    .into_iter()
    .collect()
}

/// The effects of one system call.
fn effects_of(call: &Syscall) -> Result<Vec<Effect>, String> {
    let name = call.name.as_str();
    Ok(match name {
        "execve" => {
            if !call.outcome.is_ok() {
                return Ok(Vec::new());
            }
            path_arg(call, 0)?
                .map(|path| Effect::Exec { path })
                .into_iter()
                .collect()
        }
        "execveat" => {
            if !call.outcome.is_ok() {
                return Ok(Vec::new());
            }
            at_path(call, 0, 1)?
                .map(|path| Effect::Exec { path })
                .into_iter()
                .collect()
        }
        "open" => open_effect(
            call,
            path_arg(call, 0)?.map(|p| absolute(None, &p)),
            arg(call, 1)?,
            false,
        ),
        "openat" => open_effect(call, at_path(call, 0, 1)?, arg(call, 2)?, false),
        "openat2" => {
            let how = arg(call, 2)?;
            let flags = how
                .split("flags=")
                .nth(1)
                .and_then(|s| s.split([',', '}']).next())
                .unwrap_or("O_RDWR");
            open_effect(call, at_path(call, 0, 1)?, flags, false)
        }
        "creat" => open_effect(
            call,
            path_arg(call, 0)?.map(|p| absolute(None, &p)),
            "O_CREAT",
            true,
        ),
        "unlink" | "rmdir" | "chmod" | "chown" | "lchown" | "truncate" | "mkdir" | "mknod"
        | "utime" | "utimes" | "umount2" | "umount" => {
            change(call, path_arg(call, 0)?.map(|p| absolute(None, &p)))
        }
        "unlinkat" | "fchmodat" | "fchmodat2" | "fchownat" | "mkdirat" | "mknodat"
        | "futimesat" => change(call, at_path(call, 0, 1)?),
        "utimensat" => {
            let path = match path_arg(call, 1)? {
                Some(p) => Some(absolute(dir_arg(call, 0)?.as_deref(), &p)),
                None => Some(fd_path(call, 0)?),
            };
            change(call, path)
        }
        "fchmod" | "fchown" | "ftruncate" => change(call, Some(fd_path(call, 0)?)),
        "rename" | "link" => {
            let mut v = change(call, path_arg(call, 0)?.map(|p| absolute(None, &p)));
            v.extend(change(call, path_arg(call, 1)?.map(|p| absolute(None, &p))));
            if name == "link" && v.len() == 2 {
                v.remove(0);
            } else if let [Effect::Change { gone, .. }, _] = v.as_mut_slice() {
                *gone = true;
            }
            v
        }
        "renameat" | "renameat2" | "linkat" => {
            let mut v = change(call, at_path(call, 0, 1)?);
            v.extend(change(call, at_path(call, 2, 3)?));
            if name == "linkat" && v.len() == 2 {
                v.remove(0);
            } else if let [Effect::Change { gone, .. }, _] = v.as_mut_slice() {
                *gone = true;
            }
            v
        }
        "symlink" => change(call, path_arg(call, 1)?.map(|p| absolute(None, &p))),
        "symlinkat" => change(call, at_path(call, 1, 2)?),
        "mount" => change(call, path_arg(call, 1)?),
        "connect" | "bind" => vec![Effect::Network {
            op: name.to_owned(),
            address: arg(call, 1)?.to_owned(),
        }],
        "sendto" => {
            let address = arg(call, 4)?;
            if address == "NULL" {
                Vec::new()
            } else {
                vec![Effect::Network {
                    op: name.to_owned(),
                    address: address.to_owned(),
                }]
            }
        }
        "sendmsg" | "sendmmsg" => {
            let msg = arg(call, 1)?;
            if msg.contains("msg_name=NULL") || !msg.contains("msg_name=") {
                Vec::new()
            } else {
                vec![Effect::Network {
                    op: name.to_owned(),
                    address: msg.to_owned(),
                }]
            }
        }
        _ => Vec::new(),
    })
}

/// The system calls the tracer records (names strace may not know are prefixed with `?`).
pub const TRACED_SYSCALLS: &str = "clone,?clone3,fork,vfork,execve,execveat,open,openat,?openat2,creat,unlink,unlinkat,rmdir,\
rename,renameat,?renameat2,link,linkat,symlink,symlinkat,chmod,fchmod,fchmodat,?fchmodat2,chown,\
fchown,lchown,fchownat,truncate,ftruncate,mkdir,mkdirat,mknod,mknodat,utimensat,?utime,utimes,\
?futimesat,mount,umount2,connect,bind,sendto,sendmsg,sendmmsg";

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trace::parse_trace;

    const HARNESS: &str = r#"100 execve("/usr/bin/bwrap", ["bwrap"], 0x1 /* 3 vars */) = 0
100 openat(AT_FDCWD</tmp>, "/etc/ld.so.cache", O_RDONLY|O_CLOEXEC) = 3</etc/ld.so.cache>
100 clone(child_stack=NULL, flags=CLONE_NEWNS|CLONE_NEWPID|SIGCHLD) = 101
101 mkdir("/newroot/dev/shm", 0755) = 0
101 clone(child_stack=NULL, flags=SIGCHLD) = 2 /* 102 in strace's PID NS */
102 execve("/bin/bash", ["/bin/bash", "--norc"], 0x1 /* 5 vars */) = 0
102 clone(child_stack=NULL, flags=SIGCHLD) = 3 /* 103 in strace's PID NS */
103 execve("/usr/bin/cp", ["cp", "-a"], 0x1 /* 5 vars */) = 0
103 openat(AT_FDCWD</>, "/home/agent/.ssh/id_rsa", O_WRONLY|O_CREAT|O_EXCL, 0600) = 4</home/agent/.ssh/id_rsa>
103 +++ exited with 0 +++
102 clone(child_stack=NULL, flags=SIGCHLD) = 4 /* 104 in strace's PID NS */
104 execve("/bin/bash", ["bash", "-c", "touch x"], 0x1 /* 5 vars */) = 0
"#;

    fn effects(body: &str) -> Vec<Observed> {
        let events = parse_trace(&format!("{HARNESS}{body}")).unwrap();
        command_effects(&events).unwrap()
    }

    #[test]
    fn the_setup_is_cut_off_and_the_command_starts_at_its_exec() {
        let got = effects("");
        assert_eq!(got.len(), 1, "{got:?}");
        assert_eq!(
            got[0].effect,
            Effect::Exec {
                path: "/bin/bash".into()
            }
        );
        assert_eq!(got[0].program.as_deref(), Some("bash"));
    }

    #[test]
    fn relative_paths_resolve_against_their_directory() {
        let got = effects(
            "104 clone(child_stack=NULL, flags=SIGCHLD) = 5 /* 105 in strace's PID NS */\n105 openat(AT_FDCWD</home/agent/project>, \"../x/./y\", O_WRONLY|O_CREAT|O_TRUNC, 0666) = 3</home/agent/x/y>\n",
        );
        assert_eq!(
            got[1].effect,
            Effect::Open {
                path: "/home/agent/x/y".into(),
                resolved: Some("/home/agent/x/y".into()),
                write: true,
                metadata_only: false,
                ok: true,
                created: false
            }
        );
        assert_eq!(got[1].program.as_deref(), Some("bash"));
    }

    #[test]
    fn changes_name_every_path_they_touch() {
        let got = effects(concat!(
            "104 unlinkat(AT_FDCWD</w>, \"a\", 0) = 0\n",
            "104 renameat2(AT_FDCWD</w>, \"a\", 4</d>, \"b\", RENAME_NOREPLACE) = 0\n",
            "104 linkat(AT_FDCWD</w>, \"a\", AT_FDCWD</w>, \"c\", 0) = 0\n",
            "104 symlinkat(\"/etc/shadow\", AT_FDCWD</w>, \"s\") = 0\n",
            "104 utimensat(3</w/f>, NULL, NULL, 0) = 0\n",
            "104 ftruncate(1<pipe:[5]>, 0) = -1 EINVAL (Invalid argument)\n",
            "104 mkdir(\"d\", 0777) = -1 EROFS (Read-only file system)\n",
        ));
        let changes: Vec<(String, String)> = got
            .iter()
            .filter_map(|o| match &o.effect {
                Effect::Change { op, path, .. } => Some((op.clone(), path.clone())),
                _ => None,
            })
            .collect();
        let expected: Vec<(String, String)> = [
            ("unlinkat", "/w/a"),
            ("renameat2", "/w/a"),
            ("renameat2", "/d/b"),
            ("linkat", "/w/c"),
            ("symlinkat", "/w/s"),
            ("utimensat", "/w/f"),
            ("ftruncate", "fd:pipe:[5]"),
            ("mkdir", "?/d"),
        ]
        .iter()
        .map(|(a, b)| ((*a).to_owned(), (*b).to_owned()))
        .collect();
        assert_eq!(changes, expected);
        assert_eq!(got[1].program.as_deref(), Some("bash"));
    }

    #[test]
    fn failed_execs_are_not_programs_and_sockets_are_network() {
        let got = effects(concat!(
            "104 clone(child_stack=NULL, flags=SIGCHLD) = 5 /* 105 in strace's PID NS */\n",
            "105 execve(\"/usr/local/bin/cat\", [\"cat\"], 0x1 /* 5 vars */) = -1 ENOENT (No such file or directory)\n",
            "105 execve(\"/usr/bin/cat\", [\"cat\"], 0x1 /* 5 vars */) = 0\n",
            "105 connect(3<socket:[1]>, {sa_family=AF_INET, sin_port=htons(443), sin_addr=inet_addr(\"1.2.3.4\")}, 16) = -1 ENETUNREACH (Network is unreachable)\n",
            "105 sendto(3<socket:[1]>, \"x\", 1, 0, NULL, 0) = 1\n",
        ));
        assert_eq!(
            got[1].effect,
            Effect::Exec {
                path: "/usr/bin/cat".into()
            }
        );
        assert_eq!(got[2].program.as_deref(), Some("cat"));
        assert!(
            matches!(&got[2].effect, Effect::Network { op, address } if op == "connect" && address.contains("1.2.3.4"))
        );
        assert_eq!(got.len(), 3);
    }

    #[test]
    fn only_the_commands_descendants_count_and_they_inherit_its_program() {
        let got = effects(concat!(
            "104 clone(child_stack=NULL, flags=CLONE_VM|CLONE_THREAD) = 6 /* 106 in strace's PID NS */\n",
            "106 openat(AT_FDCWD</w>, \"thread\", O_WRONLY|O_CREAT, 0644) = 3</w/thread>\n",
            "102 clone(child_stack=NULL, flags=SIGCHLD) = 7 /* 107 in strace's PID NS */\n",
            "107 execve(\"/usr/bin/sleep\", [\"sleep\", \"0.02\"], 0x1 /* 5 vars */) = 0\n",
            "100 openat(AT_FDCWD</>, \"/harness\", O_WRONLY|O_CREAT, 0644) = 3</harness>\n",
        ));
        // The setup's sleep (107) and bwrap (100) are the harness; the thread (106) is the command's.
        assert_eq!(got.len(), 2, "{got:?}");
        assert!(matches!(&got[1].effect, Effect::Open { path, .. } if path == "/w/thread"));
        assert_eq!(got[1].program.as_deref(), Some("bash"));
    }

    #[test]
    fn paths_too_long_for_the_kernel_did_nothing_but_cut_successes_are_errors() {
        let long = "a/".repeat(2100);
        let cut = &long[..4096];
        let failed = format!(
            "104 openat(AT_FDCWD</w>, \"{cut}\"..., O_WRONLY|O_CREAT, 0644) = -1 ENAMETOOLONG (File name too long)\n"
        );
        assert_eq!(effects(&failed).len(), 1);
        let worked = format!("104 openat(AT_FDCWD</w>, \"{cut}\"..., O_RDONLY) = 3</w/x>\n");
        let events = parse_trace(&format!("{HARNESS}{worked}")).unwrap();
        assert!(command_effects(&events).is_err());
    }

    #[test]
    fn a_trace_without_the_command_is_an_error() {
        let events = parse_trace(
            "100 execve(\"/usr/bin/bwrap\", [\"bwrap\"], 0x1 /* 3 vars */) = 0\n100 +++ exited with 1 +++\n",
        )
        .unwrap();
        assert!(command_effects(&events).is_err());
        let setup_only = &HARNESS[..HARNESS.rfind("104 execve").unwrap()];
        let events = parse_trace(setup_only).unwrap();
        assert!(command_effects(&events).is_err());
    }

    #[test]
    fn normalizing_never_climbs_above_the_root() {
        assert_eq!(normalize("/a/../../b//./c/"), "/b/c");
        assert_eq!(absolute(None, "x"), "?/x");
        assert_eq!(absolute(Some("/w"), "/abs"), "/abs");
        assert_eq!(basename("/usr/bin/git"), "git");
    }
}
