//! Wrappers: commands that run another command (`sudo`, `env`, `timeout`, `xargs`,
//! `find -exec`, …) or another piece of code (`bash -c`, `eval`, `watch`, `su -c`).

use super::{SHELLS, SimpleCommand, Word, WorkingDir};

/// What a wrapper runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Inner {
    /// A command given as words, run in `cwd` when the wrapper moves it.
    Command(Vec<Word>, Option<WorkingDir>),
    /// Shell code given as literal text.
    Code(String),
    /// Shell code only known at run time.
    DynamicCode,
    /// Shell code given as literal text that the shell running it may read otherwise than
    /// bash does (why, for the reason shown).
    Unmodeled(String),
}

/// How a wrapper runs what it wraps.
#[derive(Debug, Default)]
pub(super) struct Unwrapping {
    pub inner: Vec<Inner>,
    /// The inner commands run with raised privileges.
    pub elevated: bool,
    /// Arguments are appended to the inner command at run time.
    pub extra_args: bool,
    /// The directory every inner command and code runs in, when the wrapper moves them
    /// (`sudo -D DIR`, a login shell of `sudo -i` or `su -`).
    pub cwd: Option<WorkingDir>,
}

/// What a command wraps; nothing for a command that is not a wrapper.
pub(super) fn unwrap(cmd: &SimpleCommand) -> Unwrapping {
    let Some(program) = cmd.program() else {
        return Unwrapping::default();
    };
    let args = cmd.args();
    let command = |rest: &[Word]| -> Vec<Inner> {
        if rest.is_empty() {
            Vec::new()
        } else {
            vec![Inner::Command(rest.to_vec(), None)]
        }
    };
    let mut out = Unwrapping::default();
    match program {
        _ if super::is_privileged_runner(program) => {
            return super::unwrap_privileged::privileged(program, args);
        }
        // Wrappers of the program table: their options are read by the table's cursor, so
        // the command found is the one they run.
        "env" | "timeout" | "nice" | "nohup" | "stdbuf" | "time" | "builtin" | "exec" => {
            out.inner = match crate::programs::wrapped_command(program, args) {
                Ok(Some(at)) => command(&args[at..]),
                Ok(None) => Vec::new(),
                Err(_) => vec![Inner::DynamicCode],
            };
        }
        "command" => {
            out.inner = match crate::programs::wrapped_command(program, args) {
                // `command -v NAME` only looks a name up: it runs nothing.
                Ok(Some(at)) if crate::programs::command_lookup(&args[..at]) => Vec::new(),
                Ok(Some(at)) => command(&args[at..]),
                Ok(None) => Vec::new(),
                Err(_) => vec![Inner::DynamicCode],
            };
        }
        "ionice" => out.inner = command(after_options(args, &["-c", "-n", "-p", "-P", "-u"])),
        "busybox" | "unbuffer" => out.inner = command(args),
        "setsid" | "chronic" => out.inner = command(after_options(args, &[])),
        "xargs" => {
            let rest = match crate::programs::wrapped_command(program, args) {
                Ok(Some(at)) => &args[at..],
                Ok(None) => &[][..],
                Err(_) => {
                    out.inner = vec![Inner::DynamicCode];
                    return out;
                }
            };
            let (_, replace) = xargs_options(args);
            let words = if rest.is_empty() {
                vec![Word::literal_text("echo")]
            } else {
                rest.iter()
                    .map(|w| replaced(w, replace.as_deref()))
                    .collect()
            };
            let mut words = words;
            // With `-a FILE` the input is the file's, not the pipe's; with a delimiter other
            // than a newline, the input is cut into other words than its lines: its words are
            // unknown either way.
            let options = &args[..args.len() - rest.len()];
            let from_file = options.iter().enumerate().any(|(k, w)| {
                w.literal().is_none_or(|t| {
                    let delimiter = if t == "-d" || t == "--delimiter" {
                        options.get(k + 1).and_then(Word::literal)
                    } else {
                        t.strip_prefix("--delimiter=")
                            .or_else(|| t.strip_prefix("-d").filter(|v| !v.is_empty()))
                    };
                    t.starts_with("--arg-file")
                        || (t.starts_with('-') && !t.starts_with("--") && t.contains('a'))
                        || delimiter.is_some_and(|d| d != "\\n")
                        || ((t == "-d" || t == "--delimiter") && delimiter.is_none())
                })
            });
            if from_file {
                for w in &mut words {
                    w.domain = None;
                }
            }
            if replace.is_none() {
                // What `xargs` appends: the words of its input (filled in by the caller).
                let appended = Word::dynamic(XARGS_INPUT, "");
                words.push(if from_file {
                    appended
                } else {
                    appended.with_domain(crate::shell::Domain::default())
                });
            }
            out.inner = vec![Inner::Command(words, None)];
            out.extra_args = true;
        }
        "find" => out.inner = find_exec(args),
        // The found paths are the words `fd_exec` adds: nothing else is given.
        "fd" | "fdfind" => out.inner = fd_exec(args),
        "eval" => out.inner = joined_code(args),
        "watch" => {
            let rest = after_options(args, &["-n", "--interval", "-q", "--equexit"]);
            let exec = args
                .iter()
                .any(|a| matches!(a.literal(), Some("-x" | "--exec")));
            // `watch` hands its command to `sh -c`.
            out.inner = if exec {
                command(rest)
            } else {
                in_dialect("sh", joined_code(rest))
            };
        }
        shell if SHELLS.contains(&shell) => out.inner = shell_code(shell, args),
        _ => {}
    }
    out
}

/// How the words `xargs` appends from its input stand in the command it runs: one word for
/// all of them, whose domain is what its input's commands print.
pub(crate) const XARGS_INPUT: &str = "…";

pub(super) fn code(word: &Word) -> Vec<Inner> {
    vec![match word.literal() {
        Some(code) => Inner::Code(code.to_owned()),
        None => Inner::DynamicCode,
    }]
}

fn joined_code(words: &[Word]) -> Vec<Inner> {
    if words.is_empty() {
        return Vec::new();
    }
    let parts: Option<Vec<&str>> = words.iter().map(Word::literal).collect();
    vec![match parts {
        Some(parts) => Inner::Code(parts.join(" ")),
        None => Inner::DynamicCode,
    }]
}

/// The words after a wrapper's options; `with_value` lists options that take the next word.
fn after_options<'a>(args: &'a [Word], with_value: &[&str]) -> &'a [Word] {
    let mut i = 0;
    while let Some(w) = args.get(i) {
        let Some(text) = w.literal() else { break };
        if text == "--" {
            return args.get(i + 1..).unwrap_or(&[]);
        }
        if !text.starts_with('-') || text == "-" {
            break;
        }
        i += if with_value.contains(&text) { 2 } else { 1 };
    }
    args.get(i..).unwrap_or(&[])
}

fn xargs_options(args: &[Word]) -> (&[Word], Option<String>) {
    const WITH_VALUE: &[&str] = &[
        "-d",
        "-E",
        "-L",
        "-n",
        "-P",
        "-s",
        "-a",
        "--delimiter",
        "--max-args",
        "--max-procs",
        "--arg-file",
        "--max-lines",
    ];
    let mut replace = None;
    let mut i = 0;
    while let Some(w) = args.get(i) {
        let Some(text) = w.literal() else { break };
        if text == "--" {
            i += 1;
            break;
        }
        if !text.starts_with('-') {
            break;
        }
        if text == "-I" {
            replace = args.get(i + 1).and_then(Word::literal).map(str::to_owned);
            i += 2;
        } else if let Some(r) = text.strip_prefix("-I") {
            replace = Some(r.to_owned());
            i += 1;
        } else if let Some(r) = text.strip_prefix("--replace") {
            replace = Some(r.trim_start_matches('=').to_owned()).filter(|r| !r.is_empty());
            replace.get_or_insert_with(|| "{}".to_owned());
            i += 1;
        } else if let Some(r) = text.strip_prefix("-i") {
            replace = Some(if r.is_empty() {
                "{}".to_owned()
            } else {
                r.to_owned()
            });
            i += 1;
        } else {
            i += if WITH_VALUE.contains(&text) { 2 } else { 1 };
        }
    }
    (args.get(i..).unwrap_or(&[]), replace)
}

/// A word with xargs' replacement string in it becomes unknown.
fn replaced(word: &Word, replace: Option<&str>) -> Word {
    match (word.literal(), replace) {
        // The input line itself: its values are what feeds `xargs` (filled in by the caller).
        (Some(text), Some(r)) if text == r => {
            Word::dynamic(word.raw.clone(), "").with_domain(crate::shell::Domain::default())
        }
        (Some(text), Some(r)) if text.contains(r) => {
            let prefix = text.split(r).next().unwrap_or_default();
            Word::dynamic(word.raw.clone(), prefix)
        }
        _ => word.clone(),
    }
}

/// `fd … -x CMD…` (`--exec`, `-X`, `--exec-batch`; each up to `;` or the end): the commands
/// run, with a found path (`{}`, or appended when the command names no placeholder) taking
/// its values from what `fd` finds; a part of one (`{/}`, `{.}`, `x{}`) is only known when
/// it runs.
/// The placeholders `fd -x`/`-X` replaces in its command's words (fd 8 to 10).
const FD_PLACEHOLDERS: &[&str] = &["{}", "{/}", "{//}", "{.}", "{/.}"];

fn fd_exec(args: &[Word]) -> Vec<Inner> {
    let found = || Word::dynamic("{}", "").with_domain(crate::shell::Domain::default());
    let mut inner = Vec::new();
    let mut i = 0;
    while let Some(w) = args.get(i) {
        i += 1;
        let starts = w.literal().is_none_or(|t| {
            matches!(t, "-x" | "-X" | "--exec" | "--exec-batch")
                || t.starts_with("--exec=")
                || t.starts_with("--exec-batch=")
        });
        if !starts {
            continue;
        }
        let mut words: Vec<Word> = Vec::new();
        let mut placeholder = false;
        while let Some(w) = args.get(i) {
            i += 1;
            match w.literal() {
                Some(";") => break,
                Some("{}") => {
                    placeholder = true;
                    words.push(found());
                }
                // fd's placeholders; any other braces (`{x}`) are text, and fd then appends
                // the path found as a word of its own.
                Some(t) if FD_PLACEHOLDERS.iter().any(|p| t.contains(p)) => {
                    placeholder = true;
                    let prefix = t.split('{').next().unwrap_or_default();
                    words.push(Word::dynamic(w.raw.clone(), prefix));
                }
                _ => words.push(w.clone()),
            }
        }
        if !words.is_empty() {
            if !placeholder {
                words.push(found());
            }
            inner.push(Inner::Command(words, None));
        }
    }
    inner
}

/// `find ROOTS… -exec CMD {} ;`: the commands run, with `{}` standing for the roots searched.
fn find_exec(args: &[Word]) -> Vec<Inner> {
    let is_expr = |w: &Word| {
        w.literal()
            .is_some_and(|t| t.starts_with('-') || t == "(" || t == "!" || t == ",")
    };
    let mut roots: Vec<Word> = args.iter().take_while(|w| !is_expr(w)).cloned().collect();
    if roots.is_empty() {
        roots.push(Word::literal_text("."));
    }
    let mut inner = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let primary = args[i].literal();
        let starts = matches!(primary, Some("-exec" | "-execdir" | "-ok" | "-okdir"));
        // `-execdir` runs in the directory of each path found.
        let in_found_dir = matches!(primary, Some("-execdir" | "-okdir"));
        i += 1;
        if !starts {
            continue;
        }
        let mut words: Vec<Word> = Vec::new();
        while let Some(w) = args.get(i) {
            i += 1;
            match w.literal() {
                Some(";") => break,
                Some("+") if words.last().is_some_and(|l| l.raw == "{}") => break,
                // `{}` is each path found under a root: only known when it runs.
                Some("{}") => words.extend(roots.iter().map(|r| {
                    let root = r.text().trim_end_matches('/');
                    Word::dynamic("{}", format!("{root}/"))
                        .with_domain(crate::shell::Domain::default())
                })),
                Some(t) if t.contains("{}") => {
                    let prefix = t.split("{}").next().unwrap_or_default();
                    words.push(Word::dynamic(w.raw.clone(), prefix));
                }
                _ => words.push(w.clone()),
            }
        }
        if !words.is_empty() {
            let cwd = in_found_dir.then_some(WorkingDir::Unknown);
            inner.push(Inner::Command(words, cwd));
        }
    }
    inner
}

/// `bash -c CODE`, `sh -lc CODE`, `bash -o pipefail -c CODE`: the code; a shell reading a
/// script file or its input wraps nothing. Code for `shell` when it is not bash is also
/// [`Inner::Unmodeled`] unless bash and that shell read it alike.
fn shell_code(shell: &str, args: &[Word]) -> Vec<Inner> {
    let mut takes_code = false;
    let mut i = 0;
    while let Some(w) = args.get(i) {
        let Some(text) = w.literal() else { break };
        if text == "--" || !(text.starts_with('-') || text.starts_with('+')) || text.len() < 2 {
            break;
        }
        if matches!(text, "-o" | "+o" | "-O" | "+O" | "--rcfile" | "--init-file") {
            i += 2;
            continue;
        }
        if !text.starts_with("--") && text[1..].contains('c') {
            takes_code = true;
        }
        i += 1;
    }
    match (takes_code, args.get(i)) {
        (true, Some(word)) => in_dialect(shell, code(word)),
        _ => Vec::new(),
    }
}

/// Code that `shell` runs: still read with bash's grammar (its commands are judged, hard
/// denies included), and [`Inner::Unmodeled`] too when that shell may read it otherwise.
pub(super) fn in_dialect(shell: &str, mut inner: Vec<Inner>) -> Vec<Inner> {
    if let Some(Inner::Code(text)) = inner.first()
        && let Some(why) = super::posix::differs_from_bash(shell, text)
    {
        inner.push(Inner::Unmodeled(why));
    }
    inner
}
