//! Shell code a git command runs: `git submodule foreach CODE`, `git rebase --exec CODE`,
//! `git bisect run CMD ARGS`, `git difftool --extcmd CODE`, `git filter-branch --tree-filter
//! CODE` (and its other filters), `git push --receive-pack CODE`, `git fetch --upload-pack
//! CODE`, and an alias `git -c alias.NAME='!CODE' NAME`. git hands each to a shell, so it is
//! lowered as `sh -c CODE` is: its commands are judged as any others, in every mode.

use super::Lowering;
use crate::shell::{SimpleCommand, Word};

/// What a git command hands to a shell.
enum Code {
    /// Shell code.
    Text(String),
    /// Code only known when it runs.
    Dynamic,
}

/// Whether `t` is the long option `--NAME` or a prefix of it at least `min` letters long
/// (git takes any unique prefix; `min` is where the prefix becomes unique).
fn long(t: &str, name: &str, min: usize) -> bool {
    t.strip_prefix("--")
        .is_some_and(|p| p.len() >= min && name.starts_with(p))
}

/// The value of the option at `words[k]` when it is `--NAME` (a unique prefix from `min`
/// letters, the value attached with `=` or the next word) or the short `-S` (`-SVALUE` or
/// the next word), with the number of words it spans.
fn value<'w>(
    words: &'w [Word],
    k: usize,
    name: &str,
    min: usize,
    short: Option<char>,
) -> Option<(Option<&'w Word>, Option<String>, usize)> {
    let t = words[k].literal()?;
    if let Some((opt, v)) = t.split_once('=')
        && long(opt, name, min)
    {
        return Some((None, Some(v.to_owned()), 1));
    }
    if long(t, name, min) {
        return Some((words.get(k + 1), None, 2));
    }
    let s = short?;
    let rest = t.strip_prefix('-').filter(|r| !r.starts_with('-'))?;
    // The short option may close a cluster of flags (`-ix CMD`); git's short options that
    // take a value end a cluster.
    let at = rest.find(s)?;
    let attached = &rest[at + s.len_utf8()..];
    if attached.is_empty() {
        Some((words.get(k + 1), None, 2))
    } else {
        Some((None, Some(attached.to_owned()), 1))
    }
}

/// Options of git's subcommands whose value is code git hands to a shell or runs as a
/// program: the subcommand, the long name, how many of its letters git needs (a unique
/// prefix of it; `git filter-branch` reads whole names) and its short spelling.
const CODE_OPTIONS: &[(&str, &str, usize, Option<char>)] = &[
    ("rebase", "exec", 2, Some('x')),
    ("difftool", "extcmd", 1, Some('x')),
    ("push", "receive-pack", 4, None),
    ("push", "exec", 1, None),
    // `--u` is also `--update-shallow`, `--unshallow`, … there.
    ("fetch", "upload-pack", 3, None),
    ("pull", "upload-pack", 3, None),
    ("ls-remote", "upload-pack", 1, None),
    ("clone", "upload-pack", 2, Some('u')),
    ("archive", "exec", 1, None),
    // Programs that name recipients, or send the mail in place of an SMTP server.
    ("send-email", "to-cmd", 4, None),
    ("send-email", "cc-cmd", 4, None),
    ("send-email", "sendmail-cmd", 5, None),
    ("send-email", "smtp-server", 11, None),
    ("filter-branch", "setup", 5, None),
    ("filter-branch", "env-filter", 10, None),
    ("filter-branch", "tree-filter", 11, None),
    ("filter-branch", "index-filter", 12, None),
    ("filter-branch", "parent-filter", 13, None),
    ("filter-branch", "msg-filter", 10, None),
    ("filter-branch", "commit-filter", 13, None),
    ("filter-branch", "tag-name-filter", 15, None),
];

/// Shell words quoted as git's `sq_quote_argv` quotes them.
fn quoted(words: &[Word]) -> Option<String> {
    let mut out = Vec::new();
    for w in words {
        let t = w.literal()?;
        out.push(format!("'{}'", t.replace('\'', "'\\''")));
    }
    Some(out.join(" "))
}

/// What a configuration setting given for one run (`-c`, `--config-env`, `GIT_CONFIG_*`)
/// makes git run.
enum Setting {
    /// An alias: its name (lower case) and its definition when known.
    Alias(String, Option<String>),
    /// Code git runs.
    Code(Code),
    /// Configuration the command does not show (a file, home or git directory the
    /// environment names): what git runs is only known when it runs, unless it only reads
    /// or writes the configuration itself (`git config`).
    Unread,
    /// A setting that makes `git push` force or mirror: a remote's `mirror`, a `push`
    /// refspec that forces (`+`) or deletes (`:`), or a key or value only known when it runs.
    ForcesPush,
}

/// Keys (lower case, `*` one subsection) whose value git runs through a shell, or runs as a
/// program.
const CODE_KEYS: &[&str] = &[
    "core.fsmonitor",
    "core.pager",
    "pager.*",
    "core.editor",
    "sequence.editor",
    "core.sshcommand",
    "core.askpass",
    "core.gitproxy",
    "core.alternaterefscommand",
    "diff.external",
    "diff.*.command",
    "diff.*.textconv",
    "difftool.*.cmd",
    "difftool.*.path",
    "mergetool.*.cmd",
    "mergetool.*.path",
    "merge.*.driver",
    "filter.*.clean",
    "filter.*.smudge",
    "filter.*.process",
    "gpg.program",
    "gpg.*.program",
    "gpg.ssh.defaultkeycommand",
    "credential.helper",
    "credential.*.helper",
    "interactive.difffilter",
    "sendemail.tocmd",
    "sendemail.cccmd",
    "sendemail.sendmailcmd",
    "sendemail.smtpserver",
    "browser.*.cmd",
    "browser.*.path",
    "man.*.cmd",
    "man.*.path",
    "uploadpack.packobjectshook",
    "remote.*.uploadpack",
    "remote.*.receivepack",
    "trailer.*.command",
    "trailer.*.cmd",
    "hook.*.command",
    "submodule.*.update",
];

/// Keys whose value makes git run code the policy cannot read from the command: hooks of a
/// directory, included configuration files, transports and helpers chosen by name.
const DYNAMIC_KEYS: &[&str] = &[
    "core.hookspath",
    "include.path",
    "includeif.*.path",
    "protocol.allow",
    "protocol.*.allow",
    "remote.*.vcs",
    "url.*.insteadof",
    "url.*.pushinsteadof",
    "web.browser",
];

/// Whether the configuration key `key` (lower case) is named by `pattern`.
fn key_is(key: &str, pattern: &str) -> bool {
    match pattern.split_once(".*.") {
        None => match pattern.strip_suffix(".*") {
            Some(section) => key
                .strip_prefix(section)
                .and_then(|r| r.strip_prefix('.'))
                .is_some_and(|r| !r.is_empty()),
            None => key == pattern,
        },
        Some((section, variable)) => key
            .strip_prefix(section)
            .and_then(|r| r.strip_prefix('.'))
            .and_then(|r| r.rsplit_once('.'))
            .is_some_and(|(_, v)| v == variable),
    }
}

/// The key of a setting in lower case: git's section and variable names are case-insensitive
/// (a subsection is not, but no pattern here names one).
fn setting(key: &str, value: Option<&str>) -> Option<Setting> {
    let key = key.to_ascii_lowercase();
    if forces_push(&key, value) {
        return Some(Setting::ForcesPush);
    }
    if let Some(name) = key.strip_prefix("alias.") {
        return Some(Setting::Alias(name.to_owned(), value.map(str::to_owned)));
    }
    if DYNAMIC_KEYS.iter().any(|p| key_is(&key, p)) {
        let off = value.is_some_and(|v| key == "core.hookspath" && v == "/dev/null");
        return (!off).then_some(Setting::Code(Code::Dynamic));
    }
    if !CODE_KEYS.iter().any(|p| key_is(&key, p)) {
        return None;
    }
    let Some(v) = value else {
        return Some(Setting::Code(Code::Dynamic));
    };
    let lower = v.to_ascii_lowercase();
    let boolean = matches!(
        lower.as_str(),
        "" | "true" | "false" | "yes" | "no" | "on" | "off" | "1" | "0"
    );
    // `core.fsmonitor=true` is git's own daemon, `pager.CMD=false` no pager.
    if boolean && (key == "core.fsmonitor" || key.starts_with("pager.")) || v.is_empty() {
        return None;
    }
    let code = if key == "credential.helper" || key_is(&key, "credential.*.helper") {
        // `!CODE` is shell code, an absolute path a program, NAME `git credential-NAME`.
        match v.strip_prefix('!') {
            Some(code) => code.to_owned(),
            None if v.starts_with('/') => v.to_owned(),
            None => format!("git credential-{v}"),
        }
    } else if key_is(&key, "submodule.*.update") {
        v.strip_prefix('!')?.to_owned()
    } else if key == "sendemail.smtpserver" {
        // A server given as an absolute path is a program run as sendmail is.
        v.starts_with('/').then(|| v.to_owned())?
    } else {
        v.to_owned()
    };
    Some(Setting::Code(Code::Text(code)))
}

/// Whether setting `key` (lower case) to `value` (`None`: only known when it runs) makes
/// `git push` mirror the remote or force or delete its branches.
fn forces_push(key: &str, value: Option<&str>) -> bool {
    let Some(rest) = key.strip_prefix("remote.") else {
        return false;
    };
    if rest.ends_with(".mirror") {
        let off = value.is_some_and(|v| {
            matches!(
                v.to_ascii_lowercase().as_str(),
                "false" | "no" | "off" | "0"
            )
        });
        return !off;
    }
    rest.ends_with(".push") && value.is_none_or(|v| v.starts_with(['+', ':']))
}

/// Settings only known when they run: any code, any alias, a push that mirrors.
fn unknown(found: &mut Vec<Setting>) {
    found.push(Setting::Code(Code::Dynamic));
    found.push(Setting::ForcesPush);
}

/// A `KEY=VALUE` pair of `-c` (a key alone is `true`).
fn pair(text: &str) -> Option<Setting> {
    match text.split_once('=') {
        Some((key, v)) => setting(key, Some(v)),
        None => setting(text, Some("true")),
    }
}

/// The variables a command is given and the values (when literal): its own assignments,
/// those of the commands it was unwrapped from, and their `NAME=VALUE` words (`env`, `sudo`),
/// after those an earlier command of the script exports.
type Environment = Vec<(String, Option<String>)>;

/// What a variable git reads changes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Steers {
    /// Configuration entries (`GIT_CONFIG_COUNT`, `GIT_CONFIG_KEY_<n>`,
    /// `GIT_CONFIG_VALUE_<n>`, `GIT_CONFIG_PARAMETERS`).
    Settings,
    /// Code git runs, as the configuration key it stands for names it (`GIT_EXTERNAL_DIFF`
    /// is `diff.external`, `GIT_SSH_COMMAND` `core.sshCommand`, …).
    Code,
    /// Where git finds its configuration: a file, a home or a git directory whose
    /// configuration the command does not show (`/dev/null` and a `.git` directory, which
    /// no call writes, aside).
    Configuration,
    /// Where git finds the programs it runs for its own commands.
    Programs,
}

/// The variables git reads that change what it runs ([`Steers`]); a name ending in `_`
/// stands for every name it starts (`GIT_CONFIG_KEY_0`). Those other programs read too
/// (`PAGER`, `EDITOR`, `VISUAL`) are the program table's
/// ([`crate::programs::table::COMMAND_VARIABLES`]), judged for every command.
const VARIABLES: &[(&str, Steers)] = &[
    ("GIT_CONFIG_COUNT", Steers::Settings),
    ("GIT_CONFIG_KEY_", Steers::Settings),
    ("GIT_CONFIG_VALUE_", Steers::Settings),
    ("GIT_CONFIG_PARAMETERS", Steers::Settings),
    ("GIT_EXTERNAL_DIFF", Steers::Code),
    ("GIT_SSH_COMMAND", Steers::Code),
    ("GIT_SSH", Steers::Code),
    ("GIT_PAGER", Steers::Code),
    ("GIT_EDITOR", Steers::Code),
    ("GIT_SEQUENCE_EDITOR", Steers::Code),
    ("GIT_ASKPASS", Steers::Code),
    ("SSH_ASKPASS", Steers::Code),
    ("GIT_PROXY_COMMAND", Steers::Code),
    ("GIT_CONFIG_GLOBAL", Steers::Configuration),
    ("GIT_CONFIG_SYSTEM", Steers::Configuration),
    ("XDG_CONFIG_HOME", Steers::Configuration),
    ("HOME", Steers::Configuration),
    ("GIT_DIR", Steers::Configuration),
    ("GIT_COMMON_DIR", Steers::Configuration),
    ("GIT_EXEC_PATH", Steers::Programs),
];

/// What the variable `name` changes for git, if anything.
fn steers(name: &str) -> Option<Steers> {
    VARIABLES.iter().find_map(|(v, s)| {
        let hit = if v.ends_with('_') {
            name.strip_prefix(*v)
                .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
        } else {
            name == *v
        };
        hit.then_some(*s)
    })
}

/// Whether a configuration place `name` is set to is one whose configuration runs nothing
/// the command does not show: no file (`/dev/null`), or a `.git` directory, whose
/// `config` is protected by its name.
fn shown_place(name: &str, value: &str) -> bool {
    match name {
        "GIT_CONFIG_GLOBAL" | "GIT_CONFIG_SYSTEM" => value == "/dev/null",
        "GIT_DIR" => value == ".git" || value.ends_with("/.git"),
        _ => false,
    }
}

/// The settings and code the variables in the environment give git: the entries of
/// `GIT_CONFIG_COUNT`, `GIT_CONFIG_KEY_N`/`GIT_CONFIG_VALUE_N` and `GIT_CONFIG_PARAMETERS`,
/// the code of [`Steers::Code`] variables, and configuration or programs only known when
/// it runs for the others.
fn environment_settings(env: &Environment, found: &mut Vec<Setting>) {
    let get = |name: &str| {
        env.iter()
            .rev()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.clone())
    };
    let mut names: Vec<&str> = env.iter().map(|(n, _)| n.as_str()).collect();
    names.sort_unstable();
    names.dedup();
    for name in names {
        let value = get(name).flatten();
        match steers(name) {
            Some(Steers::Code) => match value {
                Some(v) if v.is_empty() => {}
                Some(v) => found.push(Setting::Code(Code::Text(v))),
                None => found.push(Setting::Code(Code::Dynamic)),
            },
            // Configuration the command does not show: what it runs and whether a push
            // mirrors are only known when it runs.
            Some(Steers::Configuration) if value.is_none_or(|v| !shown_place(name, &v)) => {
                found.push(Setting::Unread);
            }
            Some(Steers::Programs) => found.push(Setting::Code(Code::Dynamic)),
            _ => {}
        }
    }
    if get("GIT_CONFIG_PARAMETERS").is_some() {
        unknown(found);
    }
    let Some(count) = get("GIT_CONFIG_COUNT") else {
        return;
    };
    let Some(count) = count.and_then(|c| c.trim().parse::<usize>().ok()) else {
        unknown(found);
        return;
    };
    for n in 0..count.min(64) {
        match get(&format!("GIT_CONFIG_KEY_{n}")) {
            Some(Some(key)) => {
                let v = match get(&format!("GIT_CONFIG_VALUE_{n}")) {
                    Some(v) => v,
                    None => Some(String::new()),
                };
                found.extend(setting(&key, v.as_deref()));
            }
            Some(None) => unknown(found),
            None => {}
        }
    }
    if count > 64 {
        unknown(found);
    }
}

/// The settings git's own options and the command's environment give, and where its
/// subcommand starts (`None` after an option git does not know: what it runs is then only
/// known when it runs).
fn settings(cmd: &SimpleCommand, env: &Environment) -> (Vec<Setting>, Option<usize>) {
    let args = cmd.args();
    let mut found = Vec::new();
    environment_settings(env, &mut found);
    let mut i = 0;
    while let Some(w) = args.get(i) {
        let Some(t) = w.literal() else {
            break;
        };
        if !t.starts_with('-') {
            break;
        }
        let Some(span) = crate::programs::global_option_span(t) else {
            unknown(&mut found);
            return (found, None);
        };
        let value = if span == 2 {
            args.get(i + 1).map(Word::literal)
        } else {
            t.split_once('=').map(|(_, v)| Some(v))
        };
        let name = t.split_once('=').map_or(t, |(n, _)| n);
        match (name, value) {
            ("-c", Some(Some(text))) => found.extend(pair(text)),
            // `--config-env KEY=VARIABLE`: the value is only known when it runs.
            ("--config-env", Some(Some(text))) => {
                found.extend(setting(text.split_once('=').map_or(text, |(k, _)| k), None));
            }
            ("-c" | "--config-env", Some(None)) => unknown(&mut found),
            // Another git directory's configuration, and programs of another directory.
            ("--git-dir", v) if v.flatten().is_none_or(|v| !shown_place("GIT_DIR", v)) => {
                found.push(Setting::Unread);
            }
            ("--exec-path", Some(v))
                if v.is_none_or(|v| !EXEC_PATHS.iter().any(|p| p.trim_end_matches('/') == v)) =>
            {
                found.push(Setting::Code(Code::Dynamic));
            }
            _ => {}
        }
        i += span;
    }
    (found, Some(i))
}

/// Words of an alias that is a git command, split as git splits them; `None` when quoting or
/// an option of git's own makes them something the policy does not read.
fn alias_words(def: &str) -> Option<Vec<Word>> {
    if def.contains(['\'', '"', '\\']) || def.trim_start().starts_with('-') {
        return None;
    }
    let words: Vec<Word> = def.split_whitespace().map(Word::literal_text).collect();
    (!words.is_empty()).then_some(words)
}

/// How many aliases naming aliases git follows here before the code is taken as only known
/// when it runs.
const ALIAS_DEPTH: usize = 16;

/// The code a git command runs through a shell.
fn codes(cmd: &SimpleCommand, env: &Environment) -> Vec<Code> {
    let (settings, start) = settings(cmd, env);
    let mut found = Vec::new();
    let mut aliases: Vec<(String, Option<String>)> = Vec::new();
    let (mut forced, mut unread) = (false, false);
    for s in settings {
        match s {
            Setting::Code(code) => found.push(code),
            Setting::Alias(name, def) => aliases.push((name, def)),
            Setting::ForcesPush => forced = true,
            Setting::Unread => unread = true,
        }
    }
    let Some(i) = start else {
        return found;
    };
    let args = cmd.args();
    let Some(sub) = args.get(i) else {
        return found;
    };
    let Some(first) = sub.literal() else {
        if !aliases.is_empty() || unread {
            found.push(Code::Dynamic);
        }
        return found;
    };
    if unread && first != "config" {
        found.push(Code::Dynamic);
    }
    // Aliases, followed as git follows them (the last definition of a name counts).
    let mut name = first.to_owned();
    let mut words: Vec<Word> = args[i + 1..].to_vec();
    let mut depth = 0;
    while let Some((_, def)) = aliases
        .iter()
        .rev()
        .find(|(n, _)| *n == name.to_ascii_lowercase())
    {
        let Some(def) = def else {
            found.push(Code::Dynamic);
            return found;
        };
        if let Some(code) = def.strip_prefix('!') {
            // git runs `sh -c 'CODE "$@"' CODE ARGS…`.
            let text = quoted(&words).map(|a| format!("{code} {a}"));
            found.push(text.map_or(Code::Dynamic, Code::Text));
            return found;
        }
        depth += 1;
        let Some(mut expanded) = alias_words(def).filter(|_| depth <= ALIAS_DEPTH) else {
            found.push(Code::Dynamic);
            return found;
        };
        name = expanded.remove(0).literal().unwrap_or_default().to_owned();
        expanded.append(&mut words);
        words = expanded;
    }
    let name = name.as_str();
    let rest = words.as_slice();
    // The git command an alias stands for is judged as that command; a push the settings
    // make force or mirror as `git push --force`.
    let tail = quoted(rest).unwrap_or_default();
    if forced && name == "push" {
        found.push(Code::Text(format!("git push --force {tail}")));
    } else if depth > 0 {
        let sub = quoted(&[Word::literal_text(name)]).unwrap_or_default();
        found.push(Code::Text(format!("git {sub} {tail}")));
    }
    let dashdash = rest
        .iter()
        .position(|w| w.literal() == Some("--"))
        .unwrap_or(rest.len());
    match name {
        "submodule" => {
            // `git submodule [--quiet] foreach [--recursive] [--] CODE [ARGS…]`.
            let Some(at) = rest.iter().position(|w| w.literal() == Some("foreach")) else {
                return found;
            };
            let mut k = at + 1;
            while let Some(t) = rest.get(k).and_then(Word::literal) {
                if t == "--" {
                    k += 1;
                    break;
                }
                if !t.starts_with('-') {
                    break;
                }
                k += 1;
            }
            if let Some(first) = rest.get(k) {
                let tail = quoted(&rest[k + 1..]);
                match (first.literal(), tail) {
                    (Some(code), Some(tail)) if tail.is_empty() => {
                        found.push(Code::Text(code.to_owned()));
                    }
                    (Some(code), Some(tail)) => found.push(Code::Text(format!("{code} {tail}"))),
                    _ => found.push(Code::Dynamic),
                }
            }
        }
        "bisect" if rest.first().and_then(Word::literal) == Some("run") => {
            // git quotes each word and hands the line to a shell.
            found.push(quoted(&rest[1..]).map_or(Code::Dynamic, Code::Text));
        }
        "grep" => {
            // `-O[PAGER]` / `--open-files-in-pager[=PAGER]` runs PAGER (the configured pager
            // when none is attached) on the files found.
            for w in &rest[..dashdash] {
                let Some(t) = w.literal() else {
                    continue;
                };
                let pager = if let Some(long) = t.strip_prefix("--") {
                    let (opt, v) = long
                        .split_once('=')
                        .map_or((long, None), |(o, v)| (o, Some(v)));
                    (opt.len() >= 2 && "open-files-in-pager".starts_with(opt)).then_some(v)
                } else if let Some(cluster) = t.strip_prefix('-') {
                    // Short options that take a value end a cluster.
                    let at = cluster.find(|c| "eOfABCm".contains(c));
                    at.filter(|&a| cluster[a..].starts_with('O'))
                        .map(|a| Some(&cluster[a + 1..]).filter(|v| !v.is_empty()))
                } else {
                    None
                };
                match pager {
                    Some(Some(code)) => found.push(Code::Text(code.to_owned())),
                    Some(None) => found.push(Code::Dynamic),
                    None => {}
                }
            }
        }
        _ if CODE_OPTIONS.iter().any(|(sub, ..)| *sub == name) => {
            // `git send-email` reads its options after `--` too.
            let end = if name == "send-email" {
                rest.len()
            } else {
                dashdash
            };
            let mut k = 0;
            while k < end {
                let hit = CODE_OPTIONS
                    .iter()
                    .filter(|(sub, ..)| *sub == name)
                    .find_map(|&(_, long, min, short)| {
                        let (w, attached, span) = value(rest, k, long, min, short)?;
                        let text =
                            attached.or_else(|| w.and_then(Word::literal).map(str::to_owned));
                        // A server given as an absolute path is a program run as sendmail is.
                        if long == "smtp-server"
                            && text.as_deref().is_some_and(|v| !v.starts_with('/'))
                        {
                            return None;
                        }
                        Some((text.map_or(Code::Dynamic, Code::Text), span))
                    });
                match hit {
                    Some((code, span)) => {
                        found.push(code);
                        k += span;
                    }
                    None => k += 1,
                }
            }
        }
        _ => {}
    }
    found
}

/// The variables git reads ([`steers`]) that the commands `earlier` export, with their
/// values when the text shows them: a declaring builtin's `NAME=VALUE` (`export`,
/// `declare -gx`, `typeset -x`, `readonly -x`; any of them counts, exported or not), a
/// name it exports alone with the value a plain assignment gave it before, and plain
/// assignments once `set -a` (`set -o allexport`) exports every variable assigned. An
/// argument only known when it runs may export any: the configuration is then only known
/// when git runs. Under `set -a`, a variable of git's that a command sets to a value the
/// text does not show (`read`, `printf -v`, `mapfile`; `eval`, `source`, code that may set
/// any) is exported with a value only known when it runs.
fn exported_before(earlier: &[SimpleCommand]) -> Environment {
    let mut env = Environment::new();
    let mut all_exported = false;
    let assigned = |env: &Environment, name: &str| {
        env.iter()
            .rev()
            .find(|(n, _)| n == name)
            .and_then(|(_, v)| v.clone())
    };
    // Plain assignments before, which `export NAME` exports with their value.
    let mut plain = Environment::new();
    for c in earlier {
        if c.words.is_empty() {
            for (name, value) in c.assignments.iter().zip(&c.assignment_values) {
                if steers(name).is_some() {
                    plain.push((name.clone(), value.clone()));
                    if all_exported {
                        env.push((name.clone(), value.clone()));
                    }
                }
            }
            continue;
        }
        if c.program() == Some("set") {
            all_exported |= c.args().iter().enumerate().any(|(k, w)| {
                w.literal().is_none_or(|t| {
                    (t.starts_with('-') && !t.starts_with("--") && t.contains('a'))
                        || (t == "-o"
                            && c.args()
                                .get(k + 1)
                                .is_none_or(|o| o.literal().is_none_or(|o| o == "allexport")))
                })
            });
        }
        for d in crate::shell::declared(c) {
            match d {
                crate::shell::Declared::Value(name, w) if steers(name).is_some() => {
                    env.push((name.to_owned(), w.literal().map(str::to_owned)));
                }
                crate::shell::Declared::Bare(name) if steers(name).is_some() => {
                    env.push((name.to_owned(), assigned(&plain, name)));
                }
                crate::shell::Declared::Appended(name) if steers(name).is_some() => {
                    env.push((name.to_owned(), None));
                }
                crate::shell::Declared::Dynamic => {
                    env.push(("GIT_CONFIG_PARAMETERS".to_owned(), None));
                }
                _ => {}
            }
        }
    }
    if all_exported {
        let mut sites = super::variables::Sites::default();
        for c in earlier {
            let sets = c.runs_dynamic_code
                || c.program().is_none_or(|p| {
                    matches!(
                        crate::programs::assigns_variables(p),
                        Some(crate::programs::Assigns::Sets | crate::programs::Assigns::RunsCode)
                    )
                });
            if sets && !c.words.is_empty() {
                sites.command(c);
            }
        }
        for (name, _) in VARIABLES {
            let names: Vec<String> = if name.ends_with('_') {
                (0..64).map(|n| format!("{name}{n}")).collect()
            } else {
                vec![(*name).to_owned()]
            };
            for n in names {
                if sites.assigns(&n) {
                    env.push((n, None));
                }
            }
        }
    }
    env
}

/// Directories git installs its dashed programs in (`git --exec-path`).
const EXEC_PATHS: &[&str] = &[
    "/usr/lib/git-core/",
    "/usr/libexec/git-core/",
    "/usr/local/libexec/git-core/",
    "/opt/homebrew/libexec/git-core/",
    "/Library/Developer/CommandLineTools/usr/libexec/git-core/",
    "/Applications/Xcode.app/Contents/Developer/usr/libexec/git-core/",
];

/// The subcommand a program named `git-NAME` is, found on the `PATH` or in git's exec path:
/// `git NAME` runs that program, and git's own (`git-credential-store`) are git itself,
/// which reads its name. A `git-NAME` found elsewhere (`./git-x`) is not git's.
fn dashed(program: &str) -> Option<&str> {
    let name = match program.rsplit_once('/') {
        None => program,
        Some((dir, name)) if EXEC_PATHS.iter().any(|p| p.trim_end_matches('/') == dir) => name,
        Some(_) => return None,
    };
    name.strip_prefix("git-").filter(|sub| !sub.is_empty())
}

impl Lowering<'_> {
    /// A program named `git-NAME` is also judged as `git NAME` (a command of its own after
    /// it, which runs as it does): a restriction of git's subcommand applies to it.
    pub(super) fn git_dashed(&mut self, index: usize, depth: usize) {
        // Most commands are no `git-NAME`: the command is copied only once it is one.
        let Some(sub) = self.script.commands[index]
            .words
            .first()
            .and_then(Word::literal)
            .and_then(dashed)
        else {
            return;
        };
        let sub = Word::literal_text(sub);
        let outer = self.script.commands[index].clone();
        let mut words = vec![Word::literal_text("git"), sub];
        words.extend(outer.args().iter().cloned());
        let at = self.push(words, outer.redirects.clone(), outer.feeds.clone());
        let c = &mut self.script.commands[at];
        c.cwd = outer.cwd.clone();
        c.parent = Some(index);
        c.elevated = outer.elevated;
        c.assignments.clone_from(&outer.assignments);
        c.assignment_values.clone_from(&outer.assignment_values);
        self.unwrap(at, depth + 1);
    }

    /// Lowers the shell code the git command `index` runs, as its children; code only known
    /// when it runs marks the command as running it.
    pub(super) fn git_code(&mut self, index: usize, depth: usize) {
        let outer = self.script.commands[index].clone();
        let mut env = Environment::new();
        let mut at = Some(index);
        while let Some(i) = at {
            let c = &self.script.commands[i];
            let assigned = c
                .assignments
                .iter()
                .cloned()
                .zip(c.assignment_values.iter().cloned());
            // The words of a wrapper (`env NAME=VALUE git`), not git's own.
            let words = c.words.iter().filter(|_| i != index).filter_map(|w| {
                let (name, v) = w.literal()?.split_once('=')?;
                steers(name).map(|_| (name.to_owned(), Some(v.to_owned())))
            });
            // An outer command's come first: the nearest one's values count.
            let mut mine: Environment = words.chain(assigned).collect();
            mine.append(&mut env);
            env = mine;
            at = c.parent;
        }
        let mut before = exported_before(&self.script.commands[..index]);
        before.append(&mut env);
        let env = before;
        for code in codes(&outer, &env) {
            match code {
                Code::Text(text) => {
                    let elevated = outer.elevated;
                    self.code(index, &outer, &text, outer.cwd.clone(), depth, elevated);
                }
                Code::Dynamic => self.script.commands[index].runs_dynamic_code = true,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::shell::parse;

    /// The programs a command runs, the git command aside.
    fn inner(code: &str) -> Vec<String> {
        let script = parse(code).expect("parse");
        script
            .commands
            .iter()
            .filter(|c| c.parent.is_some())
            .map(|c| {
                c.words
                    .iter()
                    .map(|w| w.raw.clone())
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect()
    }

    /// Asserts that `code` runs `ran`, besides the git command.
    fn assert_runs(code: &str, ran: &str) {
        let found = inner(code);
        assert!(found.iter().any(|c| c == ran), "{code}: {found:?}");
    }

    fn dynamic(code: &str) -> bool {
        let script = parse(code).expect("parse");
        script.commands.iter().any(|c| c.runs_dynamic_code)
    }

    #[test]
    fn code_git_hands_to_a_shell_is_lowered() {
        assert_eq!(inner("git submodule foreach 'cat .env'"), ["cat .env"]);
        assert_eq!(
            inner("git submodule --quiet foreach --recursive -- 'cat .env'"),
            ["cat .env"]
        );
        assert_eq!(inner("git rebase -x 'cat .env' main"), ["cat .env"]);
        assert_eq!(inner("git rebase -ix 'cat .env' main"), ["cat .env"]);
        assert_eq!(inner("git rebase --exec='cat .env' main"), ["cat .env"]);
        assert_eq!(inner("git rebase --exe 'cat .env' main"), ["cat .env"]);
        assert_eq!(
            inner("git bisect run sh -c 'cat .env'"),
            ["'sh' '-c' 'cat .env'", "cat .env"]
        );
        assert_eq!(inner("git difftool -x 'cat .env'"), ["cat .env"]);
        assert_eq!(inner("git difftool --extc='cat .env'"), ["cat .env"]);
        assert_eq!(
            inner("git filter-branch --tree-filter 'cat .env' HEAD"),
            ["cat .env"]
        );
        assert_eq!(
            inner("git push --receive-pack='cat .env' ../r"),
            ["cat .env"]
        );
        assert_eq!(
            inner("git fetch --upload-pack 'cat .env' ../r"),
            ["cat .env"]
        );
        assert_eq!(inner("git -c alias.x='!cat .env' x"), ["cat .env"]);
        assert!(dynamic("git rebase -x \"$C\" main"));
        assert!(dynamic("git -c \"$A\" x"));
        assert_eq!(inner("git -c ALIAS.X='!cat .env' x"), ["cat .env"]);
    }

    #[test]
    fn configuration_whose_value_git_runs_is_lowered() {
        for (code, ran) in [
            ("git -c core.fsmonitor='cat .env' status", "cat .env"),
            ("git -c core.pager='cat .env' log", "cat .env"),
            ("git -c Pager.log='cat .env' log", "cat .env"),
            ("git -c core.editor='cat .env' commit", "cat .env"),
            ("git -c sequence.editor='cat .env' rebase -i x", "cat .env"),
            ("git -c diff.external='cat .env' diff", "cat .env"),
            ("git -c diff.x.textconv='cat .env' diff", "cat .env"),
            ("git -c core.sshCommand='cat .env' fetch", "cat .env"),
            ("git -c gpg.program='cat .env' log", "cat .env"),
            ("git -c gpg.ssh.program='cat .env' log", "cat .env"),
            ("git -c merge.x.driver='cat .env' merge y", "cat .env"),
            ("git -c filter.lfs.smudge='cat .env' checkout .", "cat .env"),
            ("git -c credential.helper='!cat .env' fetch", "cat .env"),
            (
                "git -c credential.helper=store fetch",
                "git credential-store",
            ),
            ("git grep -O'cat .env' x", "cat .env"),
            ("git grep -nO'cat .env' x", "cat .env"),
            ("git grep --open-files='cat .env' x", "cat .env"),
            ("git send-email --to-cmd='cat .env' p", "cat .env"),
            ("git send-email --cc-cmd 'cat .env' p", "cat .env"),
            ("git send-email --sendmail-cmd='cat .env' p", "cat .env"),
            ("git send-email --smtp-server=/tmp/x p", "/tmp/x"),
            // Alias chains, options with values before them, the environment.
            ("git -c alias.y='!cat .env' -c alias.x=y x", "cat .env"),
            (
                "git -c alias.z='!cat .env' -c alias.y='z -v' -c alias.x=y x",
                "cat .env '-v'",
            ),
            (
                "git --attr-source HEAD -c alias.x='!cat .env' x",
                "cat .env",
            ),
            ("git --super-prefix p -c alias.x='!cat .env' x", "cat .env"),
            (
                "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.x GIT_CONFIG_VALUE_0='!cat .env' git x",
                "cat .env",
            ),
            (
                "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.pager GIT_CONFIG_VALUE_0='cat .env' git log",
                "cat .env",
            ),
        ] {
            assert_runs(code, ran);
        }
        assert_runs(
            "env GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.pager GIT_CONFIG_VALUE_0='cat .env' git log",
            "cat .env",
        );
        for code in [
            "GIT_CONFIG_PARAMETERS=\"'alias.x'='!cat .env'\" git x",
            "git --config-env=core.pager=P log",
            "git --config-env alias.x=P x",
            "git --frobnicate -c alias.x='!cat .env' x",
            "git -c alias.x=x x",
            "git -c core.hooksPath=h commit",
            "GIT_CONFIG_COUNT=\"$N\" git log",
            "git grep -O x",
            "git --git-dir=x --work-tree y log",
            "git --git-dir x log",
            "git --exec-path=/tmp/x status",
        ] {
            assert!(dynamic(code), "{code}");
        }
    }

    #[test]
    fn configuration_that_runs_nothing_is_not_code() {
        for code in [
            "git -c color.ui=always log",
            "git -c core.quotepath=off status",
            "git -c core.fsmonitor=false status",
            "git -c pager.log=false log",
            "git -c core.hooksPath=/dev/null commit",
            "git --no-pager log",
            "git -C sub status",
            "git --git-dir=.git --work-tree y log",
            "git --git-dir=../r/.git log",
            "git --exec-path",
            "git --exec-path=/usr/lib/git-core status",
            "git grep -n -e x",
            "git send-email --smtp-server=smtp.example.com p",
            "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=user.name GIT_CONFIG_VALUE_0=x git log",
        ] {
            assert!(inner(code).is_empty(), "{code}: {:?}", inner(code));
            assert!(!dynamic(code), "{code}");
        }
    }

    #[test]
    fn settings_that_make_a_push_force_are_a_forced_push() {
        for code in [
            "git -c remote.origin.mirror=true push origin",
            "git -c remote.origin.mirror push",
            "git -c Remote.origin.MIRROR=yes push",
            "git -c remote.origin.push=+main:main push",
            "git -c remote.origin.push=:main push",
            "git --config-env=remote.origin.push=V push",
            "git -c \"$K\" push",
            "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=remote.o.mirror GIT_CONFIG_VALUE_0=1 git push",
        ] {
            let inner = inner(code);
            assert!(
                inner.iter().any(|c| c.starts_with("git push --force")),
                "{code}: {inner:?}"
            );
        }
        for code in [
            "git -c remote.origin.mirror=false push",
            "git -c remote.origin.push=main:main push",
            "git -c remote.origin.mirror=true fetch",
        ] {
            assert!(inner(code).is_empty(), "{code}: {:?}", inner(code));
        }
        // An alias standing for a git command is judged as that command.
        assert_eq!(inner("git -c alias.x=log x"), ["git 'log'"]);
        assert_eq!(
            inner("git -c alias.p='push --mirror' p origin"),
            ["git 'push' '--mirror' 'origin'"]
        );
    }

    #[test]
    fn variables_an_earlier_command_exports_are_git_configuration() {
        for (code, ran) in [
            (
                "export GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.x GIT_CONFIG_VALUE_0='!cat .env'; git x",
                "cat .env",
            ),
            (
                "GIT_CONFIG_COUNT=1; GIT_CONFIG_KEY_0=alias.x; GIT_CONFIG_VALUE_0='!cat .env'; export GIT_CONFIG_COUNT GIT_CONFIG_KEY_0 GIT_CONFIG_VALUE_0; git x",
                "cat .env",
            ),
            (
                "set -a; GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.fsmonitor GIT_CONFIG_VALUE_0='cat .env'; git status",
                "cat .env",
            ),
            (
                "set -o allexport; GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.x GIT_CONFIG_VALUE_0='!cat .env'; git x",
                "cat .env",
            ),
            (
                "set -ea; GIT_EXTERNAL_DIFF='cat .env'; git diff",
                "cat .env",
            ),
            (
                "declare -gx GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.pager GIT_CONFIG_VALUE_0='cat .env'; git log",
                "cat .env",
            ),
            (
                "readonly -x GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.x GIT_CONFIG_VALUE_0='!cat .env'; git x",
                "cat .env",
            ),
            ("export GIT_EXTERNAL_DIFF='cat .env'; git diff", "cat .env"),
            (
                "typeset -x GIT_SSH_COMMAND='cat .env'; git fetch",
                "cat .env",
            ),
        ] {
            assert_runs(code, ran);
        }
        for code in [
            "export \"$V\"=1; git status",
            "declare -x GIT_CONFIG_COUNT; GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.fsmonitor GIT_CONFIG_VALUE_0=x; git status",
            "export GIT_CONFIG_PARAMETERS=\"$P\"; git log",
            "export GIT_EXTERNAL_DIFF+=x; git diff",
            "export GIT_DIR=r.git; git x",
            "set \"$O\"; GIT_DIR=r; git x",
            "set -a; read -r GIT_EXTERNAL_DIFF < f; git diff",
            "set -a; printf -v GIT_SSH_COMMAND '%s' x; git fetch",
            "set -a; mapfile -t GIT_CONFIG_KEY_0 < f; GIT_CONFIG_COUNT=1; git x",
            "set -a; eval \"$E\"; git status",
            "set -a; source ./vars.sh; git status",
        ] {
            assert!(dynamic(code), "{code}");
        }
        // Without `set -a` a plain assignment stays the shell's; other variables are not git's.
        for code in [
            "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.pager GIT_CONFIG_VALUE_0=x; git log",
            "set -e -o pipefail; GIT_EXTERNAL_DIFF=x; git diff",
            "set -a; read -r line < f; git diff",
            "read -r GIT_EXTERNAL_DIFF < f; git diff",
            "export LANG=C; git status",
            "export GIT_PAGER=; git log",
            "export GIT_CONFIG_GLOBAL=/dev/null GIT_DIR=.git; git log",
        ] {
            assert!(inner(code).is_empty(), "{code}: {:?}", inner(code));
            assert!(!dynamic(code), "{code}");
        }
    }

    #[test]
    fn variables_naming_code_git_runs_are_lowered() {
        for (code, ran) in [
            ("GIT_EXTERNAL_DIFF='cat .env' git diff", "cat .env"),
            ("GIT_SSH_COMMAND='cat .env' git fetch", "cat .env"),
            ("GIT_SSH=/tmp/ssh git fetch", "/tmp/ssh"),
            ("GIT_PAGER='cat .env' git log", "cat .env"),
            ("GIT_EDITOR='cat .env' git commit", "cat .env"),
            ("GIT_SEQUENCE_EDITOR='cat .env' git rebase -i x", "cat .env"),
            ("GIT_ASKPASS='cat .env' git fetch", "cat .env"),
            ("GIT_PROXY_COMMAND='cat .env' git fetch", "cat .env"),
            ("env GIT_EXTERNAL_DIFF='cat .env' git diff", "cat .env"),
            ("sudo -u u GIT_PAGER='cat .env' git log", "cat .env"),
        ] {
            assert_runs(code, ran);
        }
        for code in [
            "GIT_EXTERNAL_DIFF=\"$D\" git diff",
            "GIT_CONFIG_GLOBAL=cfg git x",
            "GIT_CONFIG_SYSTEM=./cfg git status",
            "XDG_CONFIG_HOME=. git x",
            "HOME=/tmp/h git x",
            "GIT_DIR=r.git git x",
            "GIT_COMMON_DIR=r git log",
            "GIT_EXEC_PATH=/tmp/x git status",
        ] {
            assert!(dynamic(code), "{code}");
        }
        for code in [
            "GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_SYSTEM=/dev/null git log",
            "GIT_DIR=.git git log",
            "GIT_CONFIG_GLOBAL=cfg git config -l",
            "git --git-dir=r.git config --get user.name",
            "GIT_PAGER= git log",
            "GIT_TERMINAL_PROMPT=0 git fetch",
            "git commit -m PAGER=x",
        ] {
            assert!(inner(code).is_empty(), "{code}: {:?}", inner(code));
            assert!(!dynamic(code), "{code}");
        }
    }

    #[test]
    fn gits_dashed_programs_are_also_its_subcommands() {
        assert_eq!(
            inner("git-credential-store get"),
            ["git credential-store get"]
        );
        assert_eq!(
            inner("/usr/lib/git-core/git-credential-cache get"),
            ["git credential-cache get"]
        );
        assert_eq!(
            inner("sudo git-credential-libsecret get")[1],
            "git credential-libsecret get"
        );
        assert!(inner("./git-credential-store get").is_empty());
        assert!(inner("/tmp/git-credential-store get").is_empty());
        assert!(inner("git- get").is_empty());
    }

    #[test]
    fn git_commands_that_run_no_code_have_none() {
        for code in [
            "git rebase main",
            "git rebase -i main",
            "git push origin main",
            "git push -u origin feature",
            "git submodule update --init",
            "git bisect start",
            "git commit -m 'cat .env'",
        ] {
            assert!(inner(code).is_empty(), "{code}");
            assert!(!dynamic(code), "{code}");
        }
    }
}
