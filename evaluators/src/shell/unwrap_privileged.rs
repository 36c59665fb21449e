//! Wrappers that run a command as another user: `sudo`, `sudoedit`, `doas`, `su`, `runuser`
//! and `pkexec`. Their options may move the command (`sudo -D DIR`; the login shell of
//! `sudo -i`, `su -` or `runuser -l` starts in the target user's home; `pkexec` starts
//! there too), hand its words to a shell that expands them again (`sudo -s`, `sudo -i`),
//! run it under another root directory (`sudo -R`) or edit files (`sudo -e`). Each option
//! is read as the program's getopt reads it (clusters, attached values, `--opt=value`,
//! `--`); one that is not known, or a word that may be an option only known when it runs,
//! leaves what runs unmodeled.

use super::unwrap::{Inner, Unwrapping, code, in_dialect};
use super::{SHELLS, Word, WorkingDir};

/// How an option takes its value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Arity {
    /// No value.
    Flag,
    /// A value, attached (`-uroot`, `--user=root`) or the next word.
    Value,
    /// A value only when attached (`-hHOST`, `--preserve-env=LIST`), else none.
    Attached,
}

/// A program's options: short letters and long names, each with the name it is known by.
struct Spec {
    short: &'static [(char, Arity)],
    /// Long name, the short letter (or name) it stands for, arity.
    long: &'static [(&'static str, &'static str, Arity)],
    /// Whether options may follow operands (GNU getopt's permutation), else the first
    /// operand ends them.
    permute: bool,
}

/// sudo(8) 1.9: the options of `sudo` and `sudoedit` (`+` in its getopt string: the first
/// operand ends them).
const SUDO: Spec = Spec {
    short: &[
        ('A', Arity::Flag),
        ('a', Arity::Value),
        ('B', Arity::Flag),
        ('b', Arity::Flag),
        ('C', Arity::Value),
        ('c', Arity::Value),
        ('D', Arity::Value),
        ('E', Arity::Flag),
        ('e', Arity::Flag),
        ('g', Arity::Value),
        ('H', Arity::Flag),
        ('h', Arity::Attached),
        ('i', Arity::Flag),
        ('K', Arity::Flag),
        ('k', Arity::Flag),
        ('l', Arity::Flag),
        ('N', Arity::Flag),
        ('n', Arity::Flag),
        ('P', Arity::Flag),
        ('p', Arity::Value),
        ('R', Arity::Value),
        ('r', Arity::Value),
        ('S', Arity::Flag),
        ('s', Arity::Flag),
        ('T', Arity::Value),
        ('t', Arity::Value),
        ('U', Arity::Value),
        ('u', Arity::Value),
        ('V', Arity::Flag),
        ('v', Arity::Flag),
    ],
    long: &[
        ("askpass", "A", Arity::Flag),
        ("auth-type", "a", Arity::Value),
        ("background", "b", Arity::Flag),
        ("bell", "B", Arity::Flag),
        ("close-from", "C", Arity::Value),
        ("login-class", "c", Arity::Value),
        ("chdir", "D", Arity::Value),
        ("preserve-env", "E", Arity::Attached),
        ("edit", "e", Arity::Flag),
        ("group", "g", Arity::Value),
        ("set-home", "H", Arity::Flag),
        ("help", "help", Arity::Flag),
        ("host", "host", Arity::Value),
        ("login", "i", Arity::Flag),
        ("remove-timestamp", "K", Arity::Flag),
        ("reset-timestamp", "k", Arity::Flag),
        ("list", "l", Arity::Flag),
        ("no-update", "N", Arity::Flag),
        ("non-interactive", "n", Arity::Flag),
        ("preserve-groups", "P", Arity::Flag),
        ("prompt", "p", Arity::Value),
        ("chroot", "R", Arity::Value),
        ("role", "r", Arity::Value),
        ("stdin", "S", Arity::Flag),
        ("shell", "s", Arity::Flag),
        ("command-timeout", "T", Arity::Value),
        ("type", "t", Arity::Value),
        ("other-user", "U", Arity::Value),
        ("user", "u", Arity::Value),
        ("version", "V", Arity::Flag),
        ("validate", "v", Arity::Flag),
    ],
    permute: false,
};

/// doas(1) (OpenBSD, and OpenDoas).
const DOAS: Spec = Spec {
    short: &[
        ('a', Arity::Value),
        ('C', Arity::Value),
        ('L', Arity::Flag),
        ('n', Arity::Flag),
        ('s', Arity::Flag),
        ('u', Arity::Value),
    ],
    long: &[],
    permute: false,
};

/// su(1) and runuser(1) of util-linux (GNU getopt: options may follow the user); `-u USER`
/// (run a command, no shell) is runuser's only.
const SU: Spec = Spec {
    short: &[
        ('c', Arity::Value),
        ('f', Arity::Flag),
        ('g', Arity::Value),
        ('G', Arity::Value),
        ('l', Arity::Flag),
        ('m', Arity::Flag),
        ('p', Arity::Flag),
        ('P', Arity::Flag),
        ('s', Arity::Value),
        ('u', Arity::Value),
        ('h', Arity::Flag),
        ('V', Arity::Flag),
        ('w', Arity::Value),
    ],
    long: &[
        ("command", "c", Arity::Value),
        ("session-command", "c", Arity::Value),
        ("fast", "f", Arity::Flag),
        ("group", "g", Arity::Value),
        ("supp-group", "G", Arity::Value),
        ("login", "l", Arity::Flag),
        ("preserve-environment", "m", Arity::Flag),
        ("pty", "P", Arity::Flag),
        ("shell", "s", Arity::Value),
        ("user", "u", Arity::Value),
        ("help", "h", Arity::Flag),
        ("version", "V", Arity::Flag),
        ("whitelist-environment", "w", Arity::Value),
    ],
    permute: true,
};

/// pkexec(1) of polkit: long options only.
const PKEXEC: Spec = Spec {
    short: &[],
    long: &[
        ("user", "user", Arity::Value),
        (
            "disable-internal-agent",
            "disable-internal-agent",
            Arity::Flag,
        ),
        ("keep-cwd", "keep-cwd", Arity::Flag),
        ("help", "help", Arity::Flag),
        ("version", "version", Arity::Flag),
    ],
    permute: false,
};

/// run0(1) of systemd.
const RUN0: Spec = Spec {
    short: &[
        ('u', Arity::Value),
        ('g', Arity::Value),
        ('D', Arity::Value),
        ('h', Arity::Flag),
        ('V', Arity::Flag),
    ],
    long: &[
        ("no-ask-password", "no-ask-password", Arity::Flag),
        ("unit", "unit", Arity::Value),
        ("property", "property", Arity::Value),
        ("description", "description", Arity::Value),
        ("slice", "slice", Arity::Value),
        ("slice-inherit", "slice-inherit", Arity::Flag),
        ("user", "u", Arity::Value),
        ("group", "g", Arity::Value),
        ("nice", "nice", Arity::Value),
        ("chdir", "D", Arity::Value),
        ("setenv", "setenv", Arity::Value),
        ("background", "background", Arity::Value),
        ("machine", "machine", Arity::Value),
        ("shell-prompt-prefix", "shell-prompt-prefix", Arity::Value),
        ("lightweight", "lightweight", Arity::Value),
        ("help", "h", Arity::Flag),
        ("version", "V", Arity::Flag),
    ],
    permute: false,
};

/// setpriv(1) of util-linux: it keeps the directory.
const SETPRIV: Spec = Spec {
    short: &[('d', Arity::Flag), ('h', Arity::Flag), ('V', Arity::Flag)],
    long: &[
        ("ruid", "ruid", Arity::Value),
        ("euid", "euid", Arity::Value),
        ("rgid", "rgid", Arity::Value),
        ("egid", "egid", Arity::Value),
        ("reuid", "reuid", Arity::Value),
        ("regid", "regid", Arity::Value),
        ("clear-groups", "clear-groups", Arity::Flag),
        ("keep-groups", "keep-groups", Arity::Flag),
        ("init-groups", "init-groups", Arity::Flag),
        ("groups", "groups", Arity::Value),
        ("inh-caps", "inh-caps", Arity::Value),
        ("ambient-caps", "ambient-caps", Arity::Value),
        ("bounding-set", "bounding-set", Arity::Value),
        ("securebits", "securebits", Arity::Value),
        ("pdeathsig", "pdeathsig", Arity::Value),
        ("selinux-label", "selinux-label", Arity::Value),
        ("apparmor-profile", "apparmor-profile", Arity::Value),
        ("nnp", "nnp", Arity::Flag),
        ("no-new-privs", "nnp", Arity::Flag),
        ("reset-env", "reset-env", Arity::Flag),
        ("dump", "d", Arity::Flag),
        ("help", "h", Arity::Flag),
        ("version", "V", Arity::Flag),
    ],
    permute: false,
};

/// chroot(1) of coreutils.
const CHROOT: Spec = Spec {
    short: &[],
    long: &[
        ("groups", "groups", Arity::Value),
        ("userspec", "userspec", Arity::Value),
        ("skip-chdir", "skip-chdir", Arity::Flag),
        ("help", "help", Arity::Flag),
        ("version", "version", Arity::Flag),
    ],
    permute: false,
};

/// The options and operands of a command line as its getopt reads them.
#[derive(Debug, Default)]
struct Parsed {
    /// Options by the name they are known by, with their values.
    options: Vec<(&'static str, Option<Word>)>,
    /// The operands, in order (after `--` too).
    operands: Vec<Word>,
}

impl Parsed {
    fn has(&self, name: &str) -> bool {
        self.options.iter().any(|(n, _)| *n == name)
    }

    /// The value of the last `name` (getopt's last one wins).
    fn value(&self, name: &str) -> Option<&Word> {
        self.options
            .iter()
            .rev()
            .find(|(n, _)| *n == name)
            .and_then(|(_, v)| v.as_ref())
    }
}

/// Why the options could not be read.
enum Unread {
    /// An option the program does not have, or one missing its value.
    Unknown(String),
    /// A word in the options only known when it runs: it may be an option.
    Dynamic,
}

fn parse(spec: &Spec, args: &[Word]) -> Result<Parsed, Unread> {
    let mut out = Parsed::default();
    let mut i = 0;
    while let Some(w) = args.get(i) {
        i += 1;
        let Some(text) = w.literal() else {
            // A word computed at run time may be an option where options may follow; where
            // the first operand ends them, it is taken for the command, whose program is
            // then only known when it runs.
            if spec.permute {
                return Err(Unread::Dynamic);
            }
            out.operands.push(w.clone());
            continue;
        };
        if !out.operands.is_empty() && !spec.permute {
            out.operands.push(w.clone());
            continue;
        }
        if text == "--" {
            out.operands.extend(args[i..].iter().cloned());
            break;
        }
        if let Some(long) = text.strip_prefix("--") {
            let (name, attached) = match long.split_once('=') {
                Some((n, v)) => (n, Some(v)),
                None => (long, None),
            };
            let Some(&(_, known, arity)) = spec.long.iter().find(|(n, _, _)| *n == name) else {
                return Err(Unread::Unknown(format!("--{name}")));
            };
            let value = match (arity, attached) {
                (Arity::Flag, Some(_)) => return Err(Unread::Unknown(text.to_owned())),
                (Arity::Flag | Arity::Attached, None) => None,
                (_, Some(v)) => Some(Word::literal_text(v)),
                (Arity::Value, None) => {
                    let Some(next) = args.get(i) else {
                        return Err(Unread::Unknown(text.to_owned()));
                    };
                    i += 1;
                    Some(next.clone())
                }
            };
            out.options.push((known, value));
            continue;
        }
        if text.len() < 2 || !text.starts_with('-') {
            out.operands.push(w.clone());
            continue;
        }
        let cluster = &text[1..];
        for (at, letter) in cluster.char_indices() {
            let Some(&(known, arity)) = spec.short.iter().find(|(c, _)| *c == letter) else {
                return Err(Unread::Unknown(format!("-{letter}")));
            };
            let name = short_name(known);
            let rest = &cluster[at + letter.len_utf8()..];
            match arity {
                Arity::Flag => out.options.push((name, None)),
                Arity::Attached => {
                    let value = (!rest.is_empty()).then(|| Word::literal_text(rest));
                    out.options.push((name, value));
                    break;
                }
                Arity::Value if !rest.is_empty() => {
                    out.options.push((name, Some(Word::literal_text(rest))));
                    break;
                }
                Arity::Value => {
                    let Some(next) = args.get(i) else {
                        return Err(Unread::Unknown(text.to_owned()));
                    };
                    i += 1;
                    out.options.push((name, Some(next.clone())));
                }
            }
        }
    }
    Ok(out)
}

/// The name a short option is known by: its letter.
fn short_name(letter: char) -> &'static str {
    const LETTERS: &str = "AaBbCcDEeGgHhiKklmNnPpRrSsTtUuVvwfLl";
    match LETTERS.char_indices().find(|(_, c)| *c == letter) {
        Some((at, c)) => &LETTERS[at..at + c.len_utf8()],
        None => "?",
    }
}

/// What a privileged wrapper (`program` with `args`) runs, and where.
pub(super) fn privileged(program: &str, args: &[Word]) -> Unwrapping {
    let mut out = Unwrapping {
        elevated: true,
        ..Unwrapping::default()
    };
    let spec = match program {
        "sudo" | "sudoedit" => &SUDO,
        "doas" => &DOAS,
        "su" | "runuser" => &SU,
        "run0" => &RUN0,
        "setpriv" => &SETPRIV,
        "chroot" => &CHROOT,
        "pkexec" => &PKEXEC,
        _ => {
            // `nsenter` enters another process's namespaces; `systemd-run` starts the
            // command as a unit of the service manager, in its directory and environment.
            out.inner = vec![unmodeled(format!(
                "`{program}` runs the command where its files and directory are not the shell's"
            ))];
            return out;
        }
    };
    let parsed = match parse(spec, args) {
        Ok(p) => p,
        Err(Unread::Dynamic) => {
            out.inner = vec![Inner::DynamicCode];
            return out;
        }
        Err(Unread::Unknown(option)) => {
            out.inner = vec![unmodeled(format!(
                "`{program}` is given `{option}`, an option it is not known to take: what it runs and where is not known"
            ))];
            return out;
        }
    };
    match program {
        "sudo" | "sudoedit" => sudo(program, parsed, &mut out),
        "doas" => doas(parsed, &mut out),
        "su" | "runuser" => su(program, parsed, &mut out),
        "run0" => run0(parsed, &mut out),
        "setpriv" => {
            if !(parsed.has("h") || parsed.has("V") || parsed.has("d")) {
                out.elevated = parsed.has("reuid") || parsed.has("ruid") || parsed.has("euid");
                out.inner = command_of(parsed.operands);
            }
        }
        "chroot" => chroot(parsed, &mut out),
        _ => pkexec(parsed, &mut out),
    }
    out
}

fn unmodeled(why: String) -> Inner {
    Inner::Unmodeled(why)
}

/// Whether a word is an environment assignment `NAME=value` (`sudo NAME=value CMD`).
fn assignment(word: &Word) -> bool {
    word.literal()
        .and_then(|t| t.split_once('='))
        .is_some_and(|(name, _)| {
            !name.is_empty()
                && !name.starts_with(|c: char| c.is_ascii_digit())
                && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        })
}

fn sudo(program: &str, parsed: Parsed, out: &mut Unwrapping) {
    if parsed.has("R") {
        out.inner = vec![unmodeled(
            "`sudo -R` runs the command under another root directory, where every path names another file"
                .to_owned(),
        )];
        return;
    }
    let split = parsed.operands.iter().take_while(|w| assignment(w)).count();
    let (assignments, command) = parsed.operands.split_at(split);
    if program == "sudoedit" || parsed.has("e") {
        // `sudo -e FILE…` copies each file, runs the editor the environment names on the
        // copy, and writes the copy back as the target user: each file is written.
        out.inner = vec![unmodeled(
            "`sudo -e` edits files with an editor the environment names".to_owned(),
        )];
        if !command.is_empty() {
            let mut words = vec![Word::literal_text("tee"), Word::literal_text("--")];
            words.extend(command.iter().cloned());
            out.inner.push(Inner::Command(words, None));
        }
        return;
    }
    let login = parsed.has("i");
    let shell = login || parsed.has("s");
    if shell && command.is_empty() {
        out.inner = vec![unmodeled(
            "runs an interactive shell as another user, reading commands from its input".to_owned(),
        )];
        return;
    }
    out.cwd = if login {
        // A login shell starts in the target user's home directory.
        Some(WorkingDir::Unknown)
    } else {
        parsed.value("D").map(|d| match d.literal() {
            Some(dir) => WorkingDir::Dir(dir.to_owned()),
            None => WorkingDir::Unknown,
        })
    };
    if command.is_empty() {
        return;
    }
    let mut words: Vec<Word> = Vec::new();
    if !assignments.is_empty() {
        words.push(Word::literal_text("env"));
        words.extend(assignments.iter().cloned());
    }
    for w in command {
        // With `-s` or `-i`, the words are handed to the shell with every character but
        // letters, digits, `_`, `-` and `$` escaped: the shell expands each `$`, in the
        // target user's environment.
        match w.literal() {
            Some(text) if shell && text.contains('$') => {
                let prefix = text.split('$').next().unwrap_or_default();
                words.push(Word::dynamic(w.raw.clone(), prefix));
            }
            _ => words.push(w.clone()),
        }
    }
    out.inner = vec![Inner::Command(words, None)];
}

fn doas(parsed: Parsed, out: &mut Unwrapping) {
    // `-C CONFIG` only checks a configuration; `-L` only forgets the remembered password.
    if parsed.has("C") || (parsed.has("L") && parsed.operands.is_empty()) {
        return;
    }
    if parsed.has("s") {
        out.inner = vec![unmodeled(
            "`doas -s` runs a shell as another user, reading commands from its input".to_owned(),
        )];
        return;
    }
    out.inner = command_of(parsed.operands);
}

fn su(program: &str, parsed: Parsed, out: &mut Unwrapping) {
    let mut operands = parsed.operands.as_slice();
    // `su -` (the first operand) is `su -l`.
    let mut login = parsed.has("l");
    if operands.first().and_then(Word::literal) == Some("-") {
        login = true;
        operands = &operands[1..];
    }
    if login {
        out.cwd = Some(WorkingDir::Unknown);
    }
    if parsed.has("h") || parsed.has("V") {
        return;
    }
    if program == "su" && parsed.has("u") {
        out.inner = vec![unmodeled(
            "`su` is given `-u`, an option it is not known to take".to_owned(),
        )];
        return;
    }
    if program == "runuser" && parsed.has("u") {
        // `runuser -u USER [--] COMMAND…` runs the command itself, no shell.
        if parsed.has("c") {
            return;
        }
        if operands.is_empty() {
            out.inner = vec![unmodeled(
                "runs an interactive shell as another user, reading commands from its input"
                    .to_owned(),
            )];
        } else {
            out.inner = vec![Inner::Command(operands.to_vec(), None)];
        }
        return;
    }
    // `su [USER [ARG…]]`: arguments after the user are handed to the user's shell.
    if operands.len() > 1 {
        out.inner = vec![unmodeled(format!(
            "`{program}` hands arguments to the target user's shell"
        ))];
        return;
    }
    let Some(code_word) = parsed.value("c") else {
        out.inner = vec![unmodeled(
            "runs an interactive shell as another user, reading commands from its input".to_owned(),
        )];
        return;
    };
    // The target user's shell runs the code (`-s SHELL` for root): read as `sh` reads it
    // unless the shell is named.
    let shell = match parsed.value("s") {
        None => "sh",
        Some(s) => {
            let name = s.literal().map(|t| t.rsplit('/').next().unwrap_or(t));
            match name.and_then(|n| SHELLS.iter().find(|s| **s == n)) {
                Some(known) => known,
                None => {
                    out.inner = vec![unmodeled(format!(
                        "`{program}` runs the code with the shell `{}`",
                        s.raw
                    ))];
                    return;
                }
            }
        }
    };
    out.inner = in_dialect(shell, code(code_word));
}

/// The command made of `operands`, if any.
fn command_of(operands: Vec<Word>) -> Vec<Inner> {
    if operands.is_empty() {
        Vec::new()
    } else {
        vec![Inner::Command(operands, None)]
    }
}

fn run0(parsed: Parsed, out: &mut Unwrapping) {
    if parsed.has("h") || parsed.has("V") {
        return;
    }
    if parsed.operands.is_empty() {
        out.inner = vec![unmodeled(
            "runs an interactive shell as another user, reading commands from its input".to_owned(),
        )];
        return;
    }
    // Without `--chdir`, the command runs in the current directory as root, in the target
    // user's home otherwise.
    let root = parsed
        .value("u")
        .is_none_or(|u| matches!(u.literal(), Some("root" | "0")));
    out.cwd = match parsed.value("D") {
        Some(d) => Some(
            d.literal()
                .map_or(WorkingDir::Unknown, |t| WorkingDir::Dir(t.to_owned())),
        ),
        None if root => None,
        None => Some(WorkingDir::Unknown),
    };
    out.inner = command_of(parsed.operands);
}

fn chroot(parsed: Parsed, out: &mut Unwrapping) {
    if parsed.has("help") || parsed.has("version") {
        return;
    }
    let skip_chdir = parsed.has("skip-chdir");
    let mut operands = parsed.operands.into_iter();
    let new_root = operands.next();
    let rest: Vec<Word> = operands.collect();
    // Under the same root, the command runs in `/` (the current directory with
    // `--skip-chdir`); under another, every path names another file.
    if new_root.as_ref().and_then(Word::literal) != Some("/") || rest.is_empty() {
        out.inner = vec![unmodeled(
            "`chroot` runs a command under another root directory, where every path names another file, or a shell".to_owned(),
        )];
        return;
    }
    if !skip_chdir {
        out.cwd = Some(WorkingDir::Dir("/".to_owned()));
    }
    out.inner = command_of(rest);
}

fn pkexec(parsed: Parsed, out: &mut Unwrapping) {
    if parsed.has("help") || parsed.has("version") {
        return;
    }
    // pkexec starts the program in the target user's home directory unless told to keep
    // the current one.
    if !parsed.has("keep-cwd") {
        out.cwd = Some(WorkingDir::Unknown);
    }
    out.inner = command_of(parsed.operands);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(args: &[&str]) -> Vec<Word> {
        args.iter().map(|a| Word::literal_text(*a)).collect()
    }

    fn run(program: &str, args: &[&str]) -> Unwrapping {
        privileged(program, &words(args))
    }

    fn command(u: &Unwrapping) -> Option<Vec<String>> {
        u.inner.iter().find_map(|i| match i {
            Inner::Command(w, _) => Some(w.iter().map(|w| w.text().to_owned()).collect()),
            _ => None,
        })
    }

    fn unmodeled(u: &Unwrapping) -> bool {
        u.inner.iter().any(|i| matches!(i, Inner::Unmodeled(_)))
    }

    #[test]
    fn sudo_options_that_move_the_command_are_followed() {
        let u = run("sudo", &["-iu", "root", "rm", "-rf", "x"]);
        assert_eq!(command(&u).unwrap(), ["rm", "-rf", "x"]);
        assert_eq!(u.cwd, Some(WorkingDir::Unknown));
        let u = run("sudo", &["--login", "--user=root", "find", "."]);
        assert_eq!(command(&u).unwrap(), ["find", "."]);
        assert_eq!(u.cwd, Some(WorkingDir::Unknown));
        let u = run("sudo", &["-D/", "find", "."]);
        assert_eq!(u.cwd, Some(WorkingDir::Dir("/".to_owned())));
        let u = run("sudo", &["--chdir", "~", "find", "."]);
        assert_eq!(u.cwd, Some(WorkingDir::Dir("~".to_owned())));
        let u = run("sudo", &["-u", "bob", "-g", "g", "make"]);
        assert_eq!(command(&u).unwrap(), ["make"]);
        assert_eq!(u.cwd, None);
        let u = run("sudo", &["--preserve-env=PATH", "-E", "--", "make"]);
        assert_eq!(command(&u).unwrap(), ["make"]);
        let u = run("sudo", &["-u", "root", "A=1", "rm", "-rf", "~"]);
        assert_eq!(command(&u).unwrap(), ["env", "A=1", "rm", "-rf", "~"]);
    }

    #[test]
    fn a_shell_of_sudo_expands_dollars_again() {
        let u = run("sudo", &["-s", "rm", "-rf", "$HOME"]);
        let Some(Inner::Command(w, _)) = u.inner.first() else {
            panic!("{u:?}")
        };
        assert!(w[2].literal().is_none());
    }

    #[test]
    fn sudo_options_not_modeled_leave_it_unmodeled() {
        for args in [
            &["-Z", "ls"][..],
            &["-R", "/mnt", "ls"],
            &["--chroot=/mnt", "ls"],
            &["--logi", "ls"],
            &["-u"],
            &["-i"],
            &["-s"],
            &["-e", "f"],
        ] {
            assert!(unmodeled(&run("sudo", args)), "sudo {args:?}");
        }
        let u = run("sudo", &["-e", ".claude/settings.json"]);
        assert_eq!(command(&u).unwrap(), ["tee", "--", ".claude/settings.json"]);
        let dynamic = privileged("su", &[Word::dynamic("$O", ""), Word::literal_text("ls")]);
        assert!(matches!(dynamic.inner.as_slice(), [Inner::DynamicCode]));
    }

    #[test]
    fn su_and_runuser_login_shells_run_in_an_unknown_directory() {
        for args in [
            &["-", "-c", "ls"][..],
            &["-l", "root", "-c", "ls"],
            &["--login", "--command=ls"],
            &["-s", "/bin/sh", "-c", "ls", "-"],
        ] {
            let u = run("su", args);
            assert_eq!(u.cwd, Some(WorkingDir::Unknown), "su {args:?}");
            assert!(matches!(u.inner.first(), Some(Inner::Code(c)) if c == "ls"));
        }
        let u = run("su", &["-c", "ls"]);
        assert_eq!(u.cwd, None);
        let u = run("runuser", &["-u", "root", "--", "rm", "-rf", "x"]);
        assert_eq!(command(&u).unwrap(), ["rm", "-rf", "x"]);
        assert!(unmodeled(&run("su", &["root", "-x"])));
        assert!(unmodeled(&run("su", &["root", "arg", "-c", "ls"])));
        assert!(unmodeled(&run(
            "su",
            &["-s", "/usr/bin/python3", "-c", "x"]
        )));
        assert!(unmodeled(&run("su", &[])));
        assert!(unmodeled(&run("su", &["-u", "root", "ls"])));
        assert!(unmodeled(&run("doas", &["-s"])));
        assert_eq!(
            command(&run("doas", &["-n", "-u", "root", "ls"])).unwrap(),
            ["ls"]
        );
        let u = run("run0", &["-D", "/", "find", "."]);
        assert_eq!(u.cwd, Some(WorkingDir::Dir("/".to_owned())));
        assert_eq!(run("run0", &["find", "."]).cwd, None);
        assert_eq!(
            run("run0", &["-u", "bob", "ls"]).cwd,
            Some(WorkingDir::Unknown)
        );
        let u = run("chroot", &["/", "find", "."]);
        assert_eq!(u.cwd, Some(WorkingDir::Dir("/".to_owned())));
        assert!(unmodeled(&run("chroot", &["/mnt", "ls"])));
        assert!(unmodeled(&run("nsenter", &["-t", "1", "-m", "ls"])));
        assert_eq!(
            command(&run("setpriv", &["--reuid=0", "--clear-groups", "ls"])).unwrap(),
            ["ls"]
        );
        let u = run("pkexec", &["--user", "root", "ls"]);
        assert_eq!(u.cwd, Some(WorkingDir::Unknown));
        assert_eq!(command(&u).unwrap(), ["ls"]);
    }
}
