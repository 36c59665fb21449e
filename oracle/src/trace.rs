//! A parser of `strace -f -y -s 4096 -o FILE` output: one [`Event`] per system call, with
//! calls split across lines (`<unfinished ...>` / `<... resumed>`) joined back together.
//!
//! Only the shape strace prints is read; what a call means is decided in
//! [`effects`](crate::effects). Anything that does not look like strace output is an error, so
//! a trace that cannot be read never passes silently.

use std::fmt;

/// One line the parser could not read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    /// The 1-based line number.
    pub line_number: usize,
    /// The line.
    pub line: String,
    /// What is wrong with it.
    pub problem: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "strace line {}: {} ({})",
            self.line_number, self.problem, self.line
        )
    }
}

impl std::error::Error for ParseError {}

/// What a system call returned.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// A non-negative value, with the path strace decorated it with (`= 3</etc/passwd>`).
    Ok {
        /// The value (file descriptor, count, 0).
        value: i64,
        /// The `-y` decoration: the kernel's path for a returned file descriptor.
        decoration: Option<String>,
        /// A process id returned from another pid namespace, translated into the tracer's
        /// (`= 3 /* 10137 in strace's PID NS */`).
        translated: Option<u32>,
    },
    /// A failure with its errno name (`ENOENT`).
    Err(String),
    /// `= ?`: the call never returned (the process exec'd or was killed).
    Unknown,
}

impl Outcome {
    /// Whether the call succeeded.
    pub fn is_ok(&self) -> bool {
        matches!(self, Outcome::Ok { .. })
    }
}

/// One complete system call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Syscall {
    /// The call's name (`openat`).
    pub name: String,
    /// The arguments, as strace printed them, split at the top level.
    pub args: Vec<String>,
    /// What it returned.
    pub outcome: Outcome,
}

/// What one event is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EventKind {
    /// A system call.
    Syscall(Syscall),
    /// The process ended (`+++ exited with 0 +++`, `+++ killed by SIGKILL +++`).
    Exit,
}

/// One event of the trace.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Event {
    /// The process (thread) id, in the tracer's namespace.
    pub pid: u32,
    /// What happened.
    pub kind: EventKind,
    /// The line as strace wrote it (both halves, for a call split across lines).
    pub line: String,
}

/// Parses a whole trace.
///
/// # Errors
///
/// A [`ParseError`] for the first line that is not strace output, for a `resumed` line
/// without its start, or for a call left unfinished by a process that is still running.
pub fn parse_trace(text: &str) -> Result<Vec<Event>, ParseError> {
    parse(text, false)
}

/// Parses the trace of a run that was killed (time, output or trace limit): strace died
/// mid-write, so a last line without its newline is dropped and calls left unfinished are
/// not errors.
///
/// # Errors
///
/// A [`ParseError`] for any complete line that is not strace output.
pub fn parse_cut_trace(text: &str) -> Result<Vec<Event>, ParseError> {
    let complete = match text.rfind('\n') {
        Some(end) => &text[..=end],
        None => "",
    };
    parse(complete, true)
}

fn parse(text: &str, cut: bool) -> Result<Vec<Event>, ParseError> {
    let mut events = Vec::new();
    // Calls started and not yet resumed, by pid: (name, argument text so far, line, number).
    let mut pending: Vec<(u32, String, String, String, usize)> = Vec::new();
    for (index, raw) in text.lines().enumerate() {
        let number = index + 1;
        let err = |problem: &str| ParseError {
            line_number: number,
            line: raw.to_owned(),
            problem: problem.to_owned(),
        };
        if raw.trim().is_empty() {
            continue;
        }
        let (pid, rest) = split_pid(raw).ok_or_else(|| err("no process id"))?;
        let rest = rest.trim_start();
        if rest.starts_with("+++ ") {
            // A process that ends in a call (exit_group, or killed mid-call) leaves it unfinished.
            pending.retain(|p| p.0 != pid);
            events.push(Event {
                pid,
                kind: EventKind::Exit,
                line: raw.to_owned(),
            });
            continue;
        }
        if rest.starts_with("--- ") || rest.starts_with("[ Process") {
            continue;
        }
        if let Some(after) = rest.strip_prefix("<... ") {
            let (name, tail) = after
                .split_once(" resumed>")
                .ok_or_else(|| err("a resumed call without \"resumed>\""))?;
            let at = pending
                .iter()
                .position(|p| p.0 == pid && p.1 == name)
                .ok_or_else(|| err("a resumed call that never started"))?;
            let (_, name, head, first_line, _) = pending.remove(at);
            let joined = format!("{name}({head}{tail}");
            let line = format!("{first_line} | {raw}");
            let call = parse_call(&joined).map_err(|p| err(&p))?;
            events.push(Event {
                pid,
                kind: EventKind::Syscall(call),
                line,
            });
            continue;
        }
        if let Some(head) = rest.strip_suffix(" <unfinished ...>") {
            let open = head
                .find('(')
                .ok_or_else(|| err("an unfinished call without \"(\""))?;
            let name = &head[..open];
            if !is_name(name) {
                return Err(err("an unfinished call without a name"));
            }
            pending.push((
                pid,
                name.to_owned(),
                head[open + 1..].to_owned(),
                raw.to_owned(),
                number,
            ));
            continue;
        }
        let call = parse_call(rest).map_err(|p| err(&p))?;
        events.push(Event {
            pid,
            kind: EventKind::Syscall(call),
            line: raw.to_owned(),
        });
    }
    if cut {
        return Ok(events);
    }
    if let Some((_, name, _, line, number)) = pending.into_iter().next() {
        // strace ends every unfinished call of a traced process with a resumed line or an
        // exit; a dangling one means the trace was cut short.
        return Err(ParseError {
            line_number: number,
            line,
            problem: format!("{name} never resumed"),
        });
    }
    Ok(events)
}

fn split_pid(line: &str) -> Option<(u32, &str)> {
    let end = line.find(|c: char| !c.is_ascii_digit())?;
    if end == 0 {
        return None;
    }
    let pid = line[..end].parse().ok()?;
    Some((pid, &line[end..]))
}

fn is_name(name: &str) -> bool {
    !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '?')
}

/// Parses `name(args) = result`.
fn parse_call(text: &str) -> Result<Syscall, String> {
    let open = text.find('(').ok_or("no \"(\" after the call's name")?;
    let name = &text[..open];
    if !is_name(name) {
        return Err(format!("\"{name}\" is not a system call name"));
    }
    let (args, close) = split_args(&text[open + 1..])?;
    let after = text[open + 1 + close + 1..].trim_start();
    let result = after
        .strip_prefix('=')
        .ok_or("no \"=\" after the arguments")?
        .trim();
    Ok(Syscall {
        name: name.to_owned(),
        args,
        outcome: parse_outcome(result)?,
    })
}

/// Splits the argument list at top-level commas; returns the arguments and the byte offset of
/// the closing parenthesis.
fn split_args(text: &str) -> Result<(Vec<String>, usize), String> {
    let bytes = text.as_bytes();
    let mut args = Vec::new();
    let mut depth = 0usize;
    let mut start = 0usize;
    let mut i = 0usize;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => i = skip_string(bytes, i)?,
            b'<' if i > 0 && (bytes[i - 1].is_ascii_digit() || text[..i].ends_with("AT_FDCWD")) => {
                i = skip_decoration(bytes, i)?;
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                let end = text[i + 2..].find("*/").ok_or("an unterminated comment")?;
                i += 2 + end + 1;
            }
            b'(' | b'[' | b'{' => depth += 1,
            b')' if depth == 0 => {
                let last = text[start..i].trim();
                if !last.is_empty() || !args.is_empty() {
                    args.push(last.to_owned());
                }
                return Ok((args, i));
            }
            b')' | b']' | b'}' => {
                depth = depth.checked_sub(1).ok_or("unbalanced brackets")?;
            }
            b',' if depth == 0 => {
                args.push(text[start..i].trim().to_owned());
                start = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    Err("the argument list never closes".to_owned())
}

/// The index of the closing quote of the string starting at `start`.
fn skip_string(bytes: &[u8], start: usize) -> Result<usize, String> {
    let mut i = start + 1;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b'"' => return Ok(i),
            _ => i += 1,
        }
    }
    Err("an unterminated string".to_owned())
}

/// The index of the `>` closing the `-y` decoration starting at `start` (`<`).
fn skip_decoration(bytes: &[u8], start: usize) -> Result<usize, String> {
    let mut i = start + 1;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b'>' => return Ok(i),
            _ => i += 1,
        }
    }
    Err("an unterminated file descriptor decoration".to_owned())
}

fn parse_outcome(text: &str) -> Result<Outcome, String> {
    if text == "?" || text.starts_with("? ") {
        return Ok(Outcome::Unknown);
    }
    if let Some(rest) = text.strip_prefix("-1 ") {
        let errno = rest.split_whitespace().next().unwrap_or_default();
        if errno.is_empty()
            || !errno
                .chars()
                .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit())
        {
            return Err(format!("\"{text}\" is not an errno"));
        }
        return Ok(Outcome::Err(errno.to_owned()));
    }
    let end = text
        .find(|c: char| !(c.is_ascii_hexdigit() || c == 'x' || c == '-'))
        .unwrap_or(text.len());
    let number = &text[..end];
    let value = if let Some(hex) = number.strip_prefix("0x") {
        i64::from_str_radix(hex, 16).or_else(|_| u64::from_str_radix(hex, 16).map(|v| v as i64))
    } else {
        number.parse::<i64>()
    }
    .map_err(|_| format!("\"{text}\" is not a result"))?;
    let rest = &text[end..];
    let decoration = if rest.starts_with('<') {
        let close = skip_decoration(rest.as_bytes(), 0)?;
        Some(unescape(&rest[1..close]))
    } else {
        None
    };
    let translated = rest
        .trim_start()
        .strip_prefix("/* ")
        .and_then(|c| c.strip_suffix(" in strace's PID NS */"))
        .and_then(|n| n.parse().ok());
    Ok(Outcome::Ok {
        value,
        decoration,
        translated,
    })
}

/// Decodes strace's C-style escapes (`\n`, `\"`, `\\`, `\303`, `\x41`).
pub fn unescape(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b'\\' || i + 1 >= bytes.len() {
            out.push(bytes[i]);
            i += 1;
            continue;
        }
        let next = bytes[i + 1];
        i += 2;
        match next {
            b'n' => out.push(b'\n'),
            b't' => out.push(b'\t'),
            b'r' => out.push(b'\r'),
            b'v' => out.push(0x0b),
            b'f' => out.push(0x0c),
            b'a' => out.push(0x07),
            b'b' => out.push(0x08),
            b'x' => {
                let end = (i..bytes.len().min(i + 2))
                    .take_while(|&j| bytes[j].is_ascii_hexdigit())
                    .last()
                    .map_or(i, |j| j + 1);
                let value = std::str::from_utf8(&bytes[i..end])
                    .ok()
                    .and_then(|h| u8::from_str_radix(h, 16).ok())
                    .unwrap_or(b'x');
                out.push(value);
                i = end;
            }
            b'0'..=b'7' => {
                let mut value: u32 = u32::from(next - b'0');
                let mut taken = 0;
                while taken < 2 && i < bytes.len() && (b'0'..=b'7').contains(&bytes[i]) {
                    value = value * 8 + u32::from(bytes[i] - b'0');
                    i += 1;
                    taken += 1;
                }
                out.push(u8::try_from(value & 0xff).unwrap_or(b'?'));
            }
            other => out.push(other),
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// A string argument: its decoded text and whether strace cut it short (`"…"...`).
pub fn string_arg(arg: &str) -> Option<(String, bool)> {
    let bytes = arg.as_bytes();
    if bytes.first() != Some(&b'"') {
        return None;
    }
    let close = skip_string(bytes, 0).ok()?;
    let truncated = arg[close + 1..].starts_with("...");
    Some((unescape(&arg[1..close]), truncated))
}

/// A file descriptor argument: the number (`None` for `AT_FDCWD`) and its `-y` decoration.
pub fn fd_arg(arg: &str) -> Option<(Option<i64>, Option<String>)> {
    // A descriptor of a deleted file prints as `4</tmp/x>(deleted)`.
    let arg = arg.strip_suffix("(deleted)").unwrap_or(arg);
    let (head, decoration) = match arg.find('<') {
        Some(open) if arg.ends_with('>') => {
            (&arg[..open], Some(unescape(&arg[open + 1..arg.len() - 1])))
        }
        _ => (arg, None),
    };
    if head == "AT_FDCWD" {
        return Some((None, decoration));
    }
    head.parse::<i64>().ok().map(|n| (Some(n), decoration))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(line: &str) -> Event {
        let mut events = parse_trace(line).unwrap();
        assert_eq!(events.len(), 1, "{events:?}");
        events.remove(0)
    }

    fn call(event: &Event) -> &Syscall {
        match &event.kind {
            EventKind::Syscall(s) => s,
            EventKind::Exit => panic!("not a call: {event:?}"),
        }
    }

    #[test]
    fn an_open_with_decorations_keeps_the_directory_the_path_and_the_kernels_target() {
        let e = one(
            r#"15449 openat(AT_FDCWD</home/agent/project>, ".git/config", O_RDONLY) = 3</home/agent/project/.git/config>"#,
        );
        assert_eq!(e.pid, 15449);
        let c = call(&e);
        assert_eq!(c.name, "openat");
        assert_eq!(
            c.args,
            [
                "AT_FDCWD</home/agent/project>",
                "\".git/config\"",
                "O_RDONLY"
            ]
        );
        assert_eq!(
            c.outcome,
            Outcome::Ok {
                value: 3,
                decoration: Some("/home/agent/project/.git/config".into()),
                translated: None
            }
        );
        assert_eq!(
            fd_arg(&c.args[0]),
            Some((None, Some("/home/agent/project".into())))
        );
        assert_eq!(string_arg(&c.args[1]), Some((".git/config".into(), false)));
    }

    #[test]
    fn pids_from_the_sandboxs_namespace_are_translated() {
        let e = one(
            "10136 clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD, child_tidptr=0x7f11bf6bba10) = 3 /* 10137 in strace's PID NS */",
        );
        assert_eq!(
            call(&e).outcome,
            Outcome::Ok {
                value: 3,
                decoration: None,
                translated: Some(10137)
            }
        );
    }

    #[test]
    fn failures_keep_their_errno() {
        let e = one(
            r#"15449 openat(AT_FDCWD</w>, ".git/packed-refs", O_RDONLY) = -1 ENOENT (No such file or directory)"#,
        );
        assert_eq!(call(&e).outcome, Outcome::Err("ENOENT".into()));
    }

    #[test]
    fn escapes_in_strings_and_decorations_are_decoded() {
        let e = one(
            r#"18303 openat(AT_FDCWD</tmp/esc>, "a>b\n\"\303\251", O_RDONLY) = 3</tmp/esc/a\76b\n\"\303\251>"#,
        );
        let c = call(&e);
        assert_eq!(string_arg(&c.args[1]).unwrap().0, "a>b\n\"é");
        assert_eq!(
            c.outcome,
            Outcome::Ok {
                value: 3,
                decoration: Some("/tmp/esc/a>b\n\"é".into()),
                translated: None
            }
        );
    }

    #[test]
    fn execve_arrays_structs_and_comments_stay_one_argument_each() {
        let e = one(
            r#"15446 execve("/bin/bash", ["/bin/bash", "-c", "a, b; (c)"], 0x563e9d2f06d0 /* 5 vars */) = 0"#,
        );
        let c = call(&e);
        assert_eq!(c.args.len(), 3, "{:?}", c.args);
        assert_eq!(c.args[1], r#"["/bin/bash", "-c", "a, b; (c)"]"#);
        assert_eq!(
            c.outcome,
            Outcome::Ok {
                value: 0,
                decoration: None,
                translated: None
            }
        );

        let e = one(
            r#"15450 connect(3<socket:[17623]>, {sa_family=AF_UNIX, sun_path="/var/run/nscd/socket"}, 110) = -1 ENOENT (No such file or directory)"#,
        );
        let c = call(&e);
        assert_eq!(c.args.len(), 3);
        assert_eq!(
            c.args[1],
            r#"{sa_family=AF_UNIX, sun_path="/var/run/nscd/socket"}"#
        );
        assert_eq!(
            fd_arg(&c.args[0]),
            Some((Some(3), Some("socket:[17623]".into())))
        );
    }

    #[test]
    fn a_call_split_across_lines_is_joined() {
        let text = "\
101 openat(AT_FDCWD</w>, \"a\", O_WRONLY|O_CREAT|O_TRUNC, 0666 <unfinished ...>
102 execve(\"/usr/bin/ls\", [\"ls\"], 0x1 /* 3 vars */) = 0
101 <... openat resumed>) = 3</w/a>
";
        let events = parse_trace(text).unwrap();
        assert_eq!(events.len(), 2);
        let c = call(&events[1]);
        assert_eq!(events[1].pid, 101);
        assert_eq!(c.name, "openat");
        assert_eq!(c.args[2], "O_WRONLY|O_CREAT|O_TRUNC");
        assert_eq!(c.args[3], "0666");
        assert!(events[1].line.contains("resumed"), "{}", events[1].line);
    }

    #[test]
    fn exits_are_events_and_signals_are_skipped() {
        let text = "7 --- SIGCHLD {si_signo=SIGCHLD} ---\n7 +++ exited with 0 +++\n8 +++ killed by SIGKILL +++\n";
        let events = parse_trace(text).unwrap();
        assert_eq!(events.len(), 2);
        assert!(events.iter().all(|e| e.kind == EventKind::Exit));
    }

    #[test]
    fn a_process_killed_mid_call_drops_its_unfinished_call() {
        let text = "9 execve(\"/x\", [\"x\"], 0x1 /* 1 var */ <unfinished ...>\n9 +++ killed by SIGKILL +++\n";
        let events = parse_trace(text).unwrap();
        assert_eq!(
            events,
            [Event {
                pid: 9,
                kind: EventKind::Exit,
                line: "9 +++ killed by SIGKILL +++".into()
            }]
        );
    }

    #[test]
    fn unknown_results_and_restarts_parse() {
        let e = one("5 execve(\"/bin/x\", [\"x\"], 0x1 /* 1 var */) = ?");
        assert_eq!(call(&e).outcome, Outcome::Unknown);
        let e = one(
            "5 openat(AT_FDCWD</>, \"f\", O_RDONLY) = ? ERESTARTSYS (To be restarted if SA_RESTART is set)",
        );
        assert_eq!(call(&e).outcome, Outcome::Unknown);
    }

    #[test]
    fn descriptors_of_deleted_files_keep_their_path() {
        assert_eq!(
            fd_arg("4</tmp/tac5WaJxE>(deleted)"),
            Some((Some(4), Some("/tmp/tac5WaJxE".into())))
        );
        let e = one("7519  ftruncate(4</tmp/tac5WaJxE>(deleted), 0) = 0");
        assert_eq!(call(&e).args, ["4</tmp/tac5WaJxE>(deleted)", "0"]);
    }

    #[test]
    fn truncated_strings_are_flagged() {
        assert_eq!(string_arg("\"abc\"..."), Some(("abc".into(), true)));
        assert_eq!(string_arg("NULL"), None);
    }

    #[test]
    fn a_killed_runs_trace_drops_its_torn_last_line_and_dangling_calls() {
        let text = "5 openat(AT_FDCWD</w>, \"a\", O_RDONLY <unfinished ...>\n6 unlinkat(AT_FDCWD</w>, \"b\", 0) = 0\n6 unlinkat(6</sys/dev";
        assert!(parse_trace(text).is_err());
        let events = parse_cut_trace(text).unwrap();
        assert_eq!(events.len(), 1);
        assert_eq!(call(&events[0]).name, "unlinkat");
        assert!(parse_cut_trace("garbage\n").is_err());
    }

    #[test]
    fn garbage_and_cut_traces_are_errors() {
        for bad in [
            "not strace output",
            "12 openat(AT_FDCWD, \"x\", O_RDONLY",
            "12 openat(AT_FDCWD, \"x\", O_RDONLY) 3",
            "12 <... openat resumed>) = 3",
            "12 openat(AT_FDCWD, \"x\", O_RDONLY <unfinished ...>",
            "12 openat(AT_FDCWD, \"x\", O_RDONLY) = -1 (oops)",
        ] {
            assert!(parse_trace(bad).is_err(), "{bad}");
        }
    }
}
