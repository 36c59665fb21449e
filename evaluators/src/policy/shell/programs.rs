//! Programs the policy knows: which only read, which write, which destroy, which talk to the
//! network, and which run code fed to them.

use warrant_core::decision::Risk;
use warrant_core::evaluator::Stance;

use super::files;
use super::judge::{Judge, has_flag, positional};
use crate::policy::codes::{
    SHELL_NETWORK, SHELL_PRIVILEGED, SHELL_READ_ONLY, SHELL_UNKNOWN_COMMAND, SHELL_WRITE,
};
use crate::policy::finding::quote;
use crate::programs::{self, Model, NETWORK};
use crate::shell::{SimpleCommand, Word};

/// Programs that only read, and take no path arguments (not `date`, which reads the file
/// `-f`/`--file` and `-r` name, nor `hostname`, which reads `-F FILE`).
const READ_ONLY_NO_PATHS: &[&str] = &[
    "echo", "printf", "pwd", "true", "false", ":", "whoami", "id", "uname", "which", "whereis",
    "type", "basename", "dirname", "seq", "sleep", "expr", "test", "[", "[[", "printenv", "locale",
    "nproc", "arch", "tty", "groups", "uptime", "free", "ps", "cd", "pushd", "popd", "export",
    "set", "unset", "shift", "local", "declare", "typeset", "wait", "exit", "return", "break",
    "continue", "alias", "hash", "help", "history", "jobs", "umask", "command", "tr", "env",
    "lsblk", "lscpu", "getconf",
];

/// Programs that only read, and whose positional arguments are the paths they read.
const READ_ONLY_PATHS: &[&str] = &[
    "ls",
    "cat",
    "head",
    "tail",
    "less",
    "more",
    "wc",
    "stat",
    "file",
    "du",
    "df",
    "tree",
    "diff",
    "cmp",
    "comm",
    "cut",
    "nl",
    "od",
    "xxd",
    "hexdump",
    "strings",
    "md5sum",
    "sha1sum",
    "sha256sum",
    "sha512sum",
    "cksum",
    "b2sum",
    "realpath",
    "readlink",
    "paste",
    "join",
    "tac",
    "rev",
    "column",
    "fold",
    "expand",
    "unexpand",
    "bat",
    "exa",
    "eza",
    "dir",
    "vdir",
    "fd",
    "shasum",
    "sum",
    "look",
    "zcat",
    "bzcat",
    "xzcat",
];

/// Programs whose first positional argument is a pattern or a filter, the rest paths read.
const READ_ONLY_PATTERN_THEN_PATHS: &[&str] = &[
    "grep", "egrep", "fgrep", "rg", "ag", "ack", "jq", "yq", "zgrep",
];

/// Programs that destroy filesystems, disks or the running system whatever their arguments.
const ALWAYS_DESTRUCTIVE: &[&str] = &[
    "mkfs", "mke2fs", "mkswap", "wipefs", "fdisk", "sfdisk", "parted", "gdisk", "sgdisk",
    "shutdown", "reboot", "halt", "poweroff",
];

/// Programs that download.
pub(super) const DOWNLOADERS: &[&str] = &[
    "curl",
    "wget",
    "fetch",
    "aria2c",
    "http",
    "https",
    "xh",
    "lwp-request",
    "GET",
];

/// Programs that create or change the paths they are given.
const WRITERS: &[&str] = &[
    "touch", "mkdir", "tee", "truncate", "mkfifo", "mknod", "mv", "cp", "ln", "install",
];

/// Wrappers judged by what they run (the wrapped command follows in the script).
const NEUTRAL_WRAPPERS: &[&str] = &[
    "env", "timeout", "nice", "ionice", "stdbuf", "time", "exec", "nohup", "builtin", "busybox",
    "unbuffer", "setsid", "chronic", "command", "xargs", "eval", "watch", "sh", "bash", "zsh",
    "dash", "ksh", "ash", "mksh", "fish",
];

/// The variable assigned for the command (or by `env NAME=value`) that may steer what
/// programs run, read or load, if any: only the harmless ones of the program table are not.
fn steering_variable(cmd: &SimpleCommand) -> Option<String> {
    let bare = cmd.words.is_empty();
    cmd.assignments
        .iter()
        .enumerate()
        .find(|(i, name)| {
            let value = cmd.assignment_values.get(*i).cloned().flatten();
            // `IFS` only splits what `read` reads.
            let read_ifs = name.as_str() == "IFS" && cmd.program() == Some("read");
            if read_ifs {
                return false;
            }
            if bare {
                !programs::harmless_shell_assignment(name, value.as_deref())
            } else {
                !programs::harmless_assignment(name, value.as_deref())
            }
        })
        .map(|(_, name)| name.clone())
}

/// The literal values the script assigns to its variables (`f=.env`, `d=.aws`), every one of
/// them whatever the order or the branch it is assigned in.
fn assigned_values(script: &crate::shell::Script) -> Vec<(&str, String)> {
    let mut out: Vec<(&str, String)> = script
        .commands
        .iter()
        .filter(|c| c.words.is_empty())
        .flat_map(|c| c.assignments.iter().zip(&c.assignment_values))
        .filter_map(|(name, value)| Some((name.as_str(), value.clone()?)))
        .collect();
    // What declaring builtins give (`export f=…`), as the variable domain reads them.
    for c in &script.commands {
        for d in crate::shell::declared(c) {
            // A value read as text (`~/x`) counts as written; one that expands further
            // (`$(…)`, `$d`) is dropped by [`with_assigned_values`].
            if let crate::shell::Declared::Value(name, w) = d {
                out.push((name, w.literal().unwrap_or(&w.raw).to_owned()));
            }
        }
    }
    out
}

/// The most bytes of one text [`with_assigned_values`] builds; a longer one gives up.
const MAX_ASSIGNED_TEXT: usize = 4096;

/// The texts `raw` (a word only known when it runs) stands for with the script's own values
/// of its variables, when they are all it depends on; at most a few dozen, each at most
/// [`MAX_ASSIGNED_TEXT`] bytes (none when one would be longer). A value holding `$` or a
/// backquote is not substituted: the text it gives is not final, and substituting into it
/// again would grow without bound (`a='$b$b'; b='$c$c'; …`).
fn with_assigned_values(raw: &str, values: &[(&str, &str)]) -> Vec<String> {
    let values: Vec<(&str, &str)> = values
        .iter()
        .filter(|(_, v)| !v.contains(['$', '`']))
        .copied()
        .collect();
    let values = values.as_slice();
    let mut texts = vec![raw.replace(['"', '\''], "")];
    for (name, _) in values {
        let forms = [format!("${{{name}}}"), format!("${name}")];
        if !texts
            .iter()
            .any(|t| forms.iter().any(|f| t.contains(f.as_str())))
        {
            continue;
        }
        let mut next = Vec::new();
        for t in &texts {
            for (_, value) in values.iter().filter(|(n, _)| n == name) {
                // `${name}` first, then `$name` not followed by more of a name.
                let mut out = t.replace(&forms[0], value);
                let mut rest = out.as_str();
                let mut built = String::new();
                while let Some(at) = rest.find(&forms[1]) {
                    let after = &rest[at + forms[1].len()..];
                    built.push_str(&rest[..at]);
                    if after.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_') {
                        built.push_str(&forms[1]);
                    } else {
                        built.push_str(value);
                    }
                    rest = after;
                }
                built.push_str(rest);
                out = built;
                if out.len() > MAX_ASSIGNED_TEXT {
                    return Vec::new();
                }
                next.push(out);
            }
        }
        next.truncate(32);
        texts = next;
    }
    texts.retain(|t| !t.contains(['$', '`']));
    texts
}

/// Denies what the command would be denied for were its words only known when they run
/// given the values the script itself assigns their variables (`f=.env; cat $f`,
/// `d=.aws; cat ~/$d/credentials`, `P=grep; $P -rn x .`): the command is judged again with
/// those values in place, as loop lists are, and only what binds in every mode is kept, its
/// hard denies and binding asks (what the values allow proves nothing: the variable may
/// hold something else when it runs).
fn assigned_secrets(j: &mut Judge<'_>, cmd: &SimpleCommand) {
    let owned = assigned_values(j.script);
    if owned.is_empty() {
        return;
    }
    let values: Vec<(&str, &str)> = owned.iter().map(|(n, v)| (*n, v.as_str())).collect();
    let variants = |w: &Word| {
        if w.literal().is_some() {
            Vec::new()
        } else {
            with_assigned_values(&w.raw, &values)
        }
    };
    let words: Vec<Vec<String>> = cmd.words.iter().map(variants).collect();
    let targets: Vec<Vec<String>> = cmd.redirects.iter().map(|r| variants(&r.target)).collect();
    let most = words
        .iter()
        .chain(&targets)
        .map(Vec::len)
        .max()
        .unwrap_or(0);
    let mut denies = Vec::new();
    for i in 0..most {
        // The i-th value of every word that has values (its last when it has fewer): every
        // word that has them is known in the command judged again, so that judgment looks
        // for no further values.
        let pick = |vs: &Vec<String>| vs.get(i).or(vs.last()).cloned();
        let mut again = cmd.clone();
        // An unquoted value is split on blanks (`P="grep -rn"; $P x .` runs `grep`).
        again.words = cmd
            .words
            .iter()
            .zip(&words)
            .flat_map(|(w, vs)| match pick(vs) {
                Some(v) if !w.raw.starts_with('"') && v.contains(char::is_whitespace) => v
                    .split_whitespace()
                    .map(|piece| Word::literal_text(piece.to_owned()))
                    .collect::<Vec<_>>(),
                Some(v) => vec![Word::literal_text(v)],
                None => vec![w.clone()],
            })
            .collect();
        for (r, vs) in again.redirects.iter_mut().zip(&targets) {
            if let Some(v) = pick(vs) {
                r.target = Word::literal_text(v);
            }
        }
        denies.extend(super::reach::binding(j, &again, true));
    }
    j.findings.extend(denies);
}

/// Judges one simple command.
pub(super) fn judge(j: &mut Judge<'_>, cmd: &SimpleCommand) {
    if let Some(split) = split_on_ifs(cmd) {
        return judge(j, &split);
    }
    match with_globs_expanded(j, cmd) {
        Ok(Some(expanded)) => return judge(j, &expanded),
        Ok(None) => {}
        Err(why) => return j.unknown(cmd, &why, Risk::Medium),
    }
    if cmd
        .program()
        .is_none_or(|p| !READ_ONLY_NO_PATHS.contains(&p))
    {
        assigned_secrets(j, cmd);
    }
    super::destructive::variables_run_code(j, cmd);
    if cmd.extra_args {
        // `find ~/.ssh | xargs cat`: the program is given the files found below a secret
        // directory, whatever it does with them.
        for (i, root) in super::destructive::found_by_feeding_find(j, cmd) {
            if let Some(text) = root.literal()
                && let Some(feed) = j.script.commands.get(i)
                && let crate::paths::Place::Sensitive(what) = j.places.locate(text, &feed.cwd).place
            {
                j.sensitive(cmd, text, &what);
            }
        }
    }
    for r in &cmd.redirects {
        match r.kind {
            crate::shell::RedirectKind::Read => j.read(cmd, &r.target),
            crate::shell::RedirectKind::Write => j.write(cmd, &r.target, None),
        }
    }
    if let Some(name) = steering_variable(cmd) {
        let what = format!("sets {name}, which may steer what programs run, read or load");
        j.unknown(cmd, &what, Risk::High);
        if cmd.words.is_empty() {
            return;
        }
    }
    if cmd.words.is_empty() {
        if cmd.redirects.is_empty() {
            let reason = "Setting shell variables only changes the shell itself.".to_owned();
            j.add(Stance::PolicyAllow, SHELL_READ_ONLY, Risk::Safe, reason);
        }
        return;
    }
    if super::destructive::runs_downloaded_code(j, cmd) {
        return j.destructive(cmd, "runs code downloaded from the network");
    }
    super::destructive::runs_downloaded_file(j, cmd);
    super::destructive::code_from_input(j, cmd);
    if cmd.runs_dynamic_code {
        // Code that was never read (`sh -c "$(printf rm) -rf ~"`): its hard denies were not
        // checked, so no mode settles it.
        let reason = format!("{} runs code that only exists when it runs.", quote(cmd));
        return j.add(
            Stance::RequireAsk,
            SHELL_UNKNOWN_COMMAND,
            Risk::High,
            reason,
        );
    }
    if let Some(f) = cmd
        .program()
        .filter(|p| j.script.functions.iter().any(|f| f == p))
    {
        let why =
            format!("calls `{f}`, a function the command defines, where it cannot be followed");
        return j.unknown(cmd, &why, Risk::Medium);
    }
    // An option word with a glob (`--include=*.md`) stays one word unless files match it:
    // then it is those files' names, which may read as other options.
    for w in cmd.args() {
        if w.literal().is_some_and(|t| t.starts_with('-')) && crate::programs::may_split(w) {
            let mut names = Vec::new();
            crate::shell::expand_braces(w.literal().unwrap_or_default(), &mut names);
            // Only a pattern expands (`$F` holding `-f` is one word, judged below).
            let matches = names
                .iter()
                .filter(|n| n.contains(['*', '?', '[']))
                .any(|n| {
                    j.places
                        .expand_glob(n, &cmd.cwd, false)
                        .map_or(true, |found| !found.is_empty())
                });
            if matches {
                let why = format!("`{}` expands to names of files when it runs", w.raw);
                return j.unknown(cmd, &why, Risk::Medium);
            }
        }
    }
    // What git does to its own configuration, hooks and untracked files, modeled or not.
    if cmd.program() == Some("git") {
        super::git_state::judge(j, cmd);
    }
    // What the program does through its own subcommands (the table's effects) and servers.
    super::effects::judge(j, cmd);
    // The program table proves what it can; everything else is judged by the older readers
    // for what they can deny, and is never allowed.
    let script = j.script;
    let model = script.model_of(cmd);
    let why = match model.as_ref() {
        // What `xargs` appends is a word of its own (`…`, its input's domain), and what it
        // replaces (`-I {}`) a word only known when it runs: the table saw every argument.
        Model::Modeled(_) if cmd.extra_args && cmd.ancestors_are_xargs_free(j.script) => {
            "is given more arguments when it runs".to_owned()
        }
        Model::Modeled(effects) => {
            j.unmodeled = None;
            return j.effects(cmd, effects);
        }
        Model::Unmodeled(why) => why.clone(),
    };
    // An option written as an abbreviation the program expands (`grep -r --inv x .`): what
    // binds of the command with it written out binds (a secret a recursive search prints).
    if let Some(written_out) = programs::abbreviations_written_out(cmd) {
        let binding = super::reach::binding(j, &written_out, true);
        j.findings.extend(binding);
    }
    // The older readers name what they can (a write, the network, a deny); whatever they
    // leave unsaid, or call harmless, is an ask saying why the table cannot prove it.
    j.unmodeled = Some(why.clone());
    let before = j.findings.len();
    unmodeled(j, cmd);
    // What the older readers take for a write is no routine one when the command may also
    // run a program or command it is given (`tar -I PROG`, sed's `e`): a high risk, which
    // the auto reviewer never allows.
    if let Some(why) = programs::runs_given(cmd) {
        j.unknown(cmd, &why, Risk::High);
    }
    if j.findings.len() == before {
        j.unknown(
            cmd,
            &format!("cannot be proven harmless: {why}"),
            Risk::Medium,
        );
    }
}

/// The older readers of a command the program table does not model: they deny, ask and name
/// writes and network use; they never allow.
fn unmodeled(j: &mut Judge<'_>, cmd: &SimpleCommand) {
    if cmd
        .program()
        .is_none_or(|p| !READ_ONLY_NO_PATHS.contains(&p))
    {
        j.scan_for_secrets(cmd);
    }
    let Some(program) = cmd.program() else {
        if let Some(what) = super::destructive::unnamed_remove(j, cmd) {
            return j.destructive(cmd, &what);
        }
        // What runs is unseen: no mode lets it pass unasked (`$(echo cat) ~/.ssh/id_rsa`,
        // `"${a[@]}" …`, `read P <<< git; $P init --template=…`); braces alone (`{ls,-la}`)
        // are words the shell makes of the text, judged as such.
        let first = cmd.words.first();
        let braces = first.is_some_and(|w| super::judge::braces_only(w).is_some());
        // A variable from the environment is already a binding part no one could read.
        let unread = first.is_some_and(|w| {
            j.script
                .unreadable
                .iter()
                .any(|u| !u.code.is_empty() && w.raw.contains(u.code.as_str()))
        });
        let stance = if braces || unread {
            Stance::DefaultAsk
        } else {
            Stance::RequireAsk
        };
        let reason = format!(
            "{} runs a program whose name is only known when it runs.",
            quote(cmd)
        );
        return j.add(stance, SHELL_UNKNOWN_COMMAND, Risk::High, reason);
    };
    let args = cmd.args();
    unknown_wrapper(j, cmd, program);
    super::destructive::code_names(j, cmd);
    super::destructive::inline_code(j, cmd);
    super::destructive::zip_runs_code(j, cmd);
    super::destructive::options_run_code(j, cmd);
    match program {
        "sudo" | "doas" | "su" | "sudoedit" | "pkexec" => {
            let reason = format!("{} runs with raised privileges.", quote(cmd));
            j.add(Stance::DefaultAsk, SHELL_PRIVILEGED, Risk::High, reason);
        }
        "find" => super::destructive::find(j, cmd),
        "crontab" => super::destructive::crontab(j, cmd),
        p if crate::programs::table::scheduler(p).is_some() => {
            super::destructive::schedules(j, cmd);
        }
        _ if super::destructive::prints_environment(cmd) => {
            j.unknown_binding(
                cmd,
                "prints the environment, which may hold tokens and keys",
            );
        }
        _ if cmd.wraps && NEUTRAL_WRAPPERS.contains(&program) => {}
        p if ALWAYS_DESTRUCTIVE.contains(&p) || p.starts_with("mkfs.") => {
            j.destructive(cmd, "erases disks or stops the system");
        }
        "rm" | "rmdir" | "unlink" | "shred" | "srm" => super::destructive::remove(j, cmd),
        "chmod" | "chown" | "chgrp" => super::destructive::permissions(j, cmd),
        "dd" => super::destructive::dd(j, cmd),
        "kill" | "pkill" | "killall" | "killall5" => super::destructive::kill(j, cmd),
        p @ ("zip" | "7z" | "7za" | "7zz" | "7zr")
            if super::destructive::archive_moves(p, args) =>
        {
            super::destructive::archive_move(j, cmd);
        }
        "init" | "telinit" if args.iter().any(|a| matches!(a.literal(), Some("0" | "6"))) => {
            j.destructive(cmd, "stops the system");
        }
        "git" => super::git::judge(j, cmd),
        "sed" => files::sed(j, cmd),
        "awk" | "gawk" | "mawk" | "nawk" => files::awk(j, cmd),
        "sort" => files::sort(j, cmd),
        "ssh-keygen" => files::ssh_keygen(j, cmd),
        p @ ("split" | "csplit") => files::split(j, cmd, p),
        "tar" | "gtar" | "bsdtar" => files::tar(j, cmd),
        "patch" => files::patch(j, cmd),
        p if super::destructive::extracts_unread(p, args) => {
            let reason = format!(
                "{} extracts an archive whose members are not read: it may create any file, protected configuration included.",
                quote(cmd)
            );
            j.add(Stance::RequireAsk, SHELL_WRITE, Risk::High, reason);
            j.read_only(cmd);
        }
        "unzip" => files::unzip(j, cmd),
        "zip" => files::zip(j, cmd),
        "rsync" => files::rsync(j, cmd),
        p if WRITERS.contains(&p) => files::writer(j, cmd, p),
        // A network client the table models asked only for its version (`wget --version`)
        // reaches nothing (`curl --version` was seen resolving a host: not modeled).
        p if NETWORK.contains(&p)
            && !matches!(j.script.model_of(cmd).as_ref(), Model::Modeled(_)) =>
        {
            network(j, cmd, p);
        }
        // What `-x`/`-X` runs is a command of its own in the script, given what `fd` finds.
        "fd" | "fdfind" if fd_executes(args) => {
            j.unknown(cmd, "runs a command on every file it finds", Risk::High);
        }
        "bat" | "batcat" if any_starts_with(args, &["--pager"]) => {
            j.unknown(cmd, "runs the pager program it is given", Risk::High);
        }
        "rg" if any_starts_with(args, &["--pre", "--hostname-bin"]) => {
            j.unknown(cmd, "runs a program it is given", Risk::High);
        }
        "read" | "mapfile" | "readarray" => {
            j.unknown(
                cmd,
                "sets shell variables (such as PATH) from its input",
                Risk::High,
            );
        }
        "hash"
            if args.iter().any(|w| {
                w.literal()
                    .is_none_or(|t| t.starts_with('-') && t.contains('p'))
            }) =>
        {
            j.unknown(cmd, "changes which program a command name runs", Risk::High);
        }
        "alias"
            if args
                .iter()
                .any(|w| w.literal().is_none_or(|t| t.contains('='))) =>
        {
            j.unknown(cmd, "changes what a command name runs", Risk::High);
        }
        "printf"
            if args
                .first()
                .is_some_and(|w| w.literal().is_none_or(|t| t.starts_with('-') && t != "--")) =>
        {
            j.unknown(cmd, "may set a shell variable (such as PATH)", Risk::High);
        }
        p if READ_ONLY_PATHS.contains(&p) => reads(j, cmd, &positional(args)),
        p if READ_ONLY_PATTERN_THEN_PATHS.contains(&p) => {
            let pos = positional(args);
            let pattern_given = has_flag(args, 'e', "--regexp") || has_flag(args, 'f', "--file");
            let skip = usize::from(!pattern_given && !pos.is_empty());
            reads(j, cmd, &pos[skip..]);
        }
        _ => j.read_only(cmd),
    }
}

/// A program the table does not know may run a command it is given (`flock F rm -rf ~`,
/// `taskset -c 0 git push -f`, `script -qc 'CMD' /dev/null`, `trap 'CMD' EXIT`): what
/// binds of the command its arguments would be from the first word naming a program, and
/// of each argument that reads as shell code, binds (the rest of the command is unproven
/// anyway).
fn unknown_wrapper(j: &mut Judge<'_>, cmd: &SimpleCommand, program: &str) {
    if crate::programs::program_named(program).is_some() {
        return;
    }
    let args = cmd.args();
    let mut found = Vec::new();
    // A program named with arguments after it (`pkill node` names a program as data).
    if let Some(at) = args.iter().position(|w| {
        w.literal()
            .is_some_and(|t| !t.starts_with('-') && names_program(t))
    }) && args.len() > at + 1
    {
        let mut inner = cmd.clone();
        inner.words = args[at..].to_vec();
        found.extend(super::reach::binding(j, &inner, true));
    }
    // The value of an option that takes code (`-c`, `-qc`, `-e`, `--command`, `--exec`).
    let code_option = |t: &str| {
        matches!(
            t,
            "--command" | "--exec" | "--eval" | "--execute" | "--run" | "--shell-command"
        ) || (t.starts_with('-') && !t.starts_with("--") && t.ends_with(['c', 'e']))
    };
    for code in args
        .windows(2)
        .filter(|pair| pair[0].literal().is_some_and(code_option))
        .filter_map(|pair| pair[1].literal())
        .filter(|t| t.contains(char::is_whitespace))
    {
        match crate::shell::parse_given(code, cmd.cwd.clone(), false) {
            Ok(script) if script.unreadable.is_empty() => {
                for inner in &script.commands {
                    let scratch = Judge {
                        places: j.places,
                        script: &script,
                        findings: Vec::new(),
                        unmodeled: None,
                        digest: false,
                    };
                    found.extend(super::reach::binding(&scratch, inner, true));
                }
            }
            _ => {}
        }
    }
    for f in found {
        j.add_once(f.stance, f.code, f.risk, f.reason);
    }
}

/// Whether `word` names a program a shell would run: a builtin that runs or changes
/// something, or a name found in a directory of `PATH`.
fn names_program(word: &str) -> bool {
    if word.contains('/') || word.is_empty() {
        return false;
    }
    if matches!(
        word,
        "eval" | "exec" | "source" | "." | "command" | "builtin" | "cd" | "export" | "trap"
    ) {
        return true;
    }
    crate::process_env::var("PATH").is_some_and(|path| {
        std::env::split_paths(&path)
            .any(|dir| std::fs::metadata(dir.join(word)).is_ok_and(|m| m.is_file()))
    })
}

/// Whether any argument starts with one of `prefixes` (or is only known when it runs).
fn any_starts_with(args: &[Word], prefixes: &[&str]) -> bool {
    args.iter().any(|w| {
        w.literal()
            .is_none_or(|t| prefixes.iter().any(|p| t.starts_with(p)))
    })
}

/// `fd -x CMD`, `-X`, `--exec`, `--exec-batch` (also inside clustered short flags).
fn fd_executes(args: &[Word]) -> bool {
    args.iter().any(|w| {
        w.literal().is_none_or(|t| {
            t.starts_with("--exec")
                || (t.starts_with('-') && !t.starts_with("--") && t.contains(['x', 'X']))
        })
    })
}

/// The most names the globs of one command are expanded into for it to be judged with them.
const MAX_GLOB_NAMES: usize = 4_096;

/// The command with each argument the shell expands to file names (an unquoted glob that
/// matches names now) written as those names, sorted as the shell sorts them, when any is:
/// the program is given the names, never the pattern, and a name may mean more to it than a
/// path (`perl -ne print *` opens a file named `touch x|` as a pipe, `tar -tf e*` reads
/// `host:x.tar` from a host, `python3 -m json.tool *.json` writes its second operand). Past
/// [`MAX_GLOB_NAMES`], or where the names cannot be listed, the words stay as written and
/// are judged as they are. `Err` when a name the shell gives is itself a glob (a file named
/// `[ab]`): written in, it would read as a pattern again.
fn with_globs_expanded(
    j: &Judge<'_>,
    cmd: &SimpleCommand,
) -> Result<Option<SimpleCommand>, String> {
    let glob_text = |t: &str| t.contains(['*', '?', '[']);
    let globbed = |w: &Word| w.literal().is_some_and(glob_text) && programs::may_split(w);
    if !cmd.args().iter().any(globbed) {
        return Ok(None);
    }
    let dotglob = j.dotglob();
    let Some(program) = cmd.words.first() else {
        return Ok(None);
    };
    let mut words = vec![program.clone()];
    let mut expanded = false;
    for w in cmd.args() {
        if globbed(w)
            && let Some(t) = w.literal()
            && let Ok(mut names) = j.places.expand_glob(t, &cmd.cwd, dotglob)
            && !names.is_empty()
        {
            if let Some(name) = names.iter().find(|n| glob_text(n)) {
                return Err(format!(
                    "`{t}` expands to `{name}`, a name that reads as a pattern itself"
                ));
            }
            names.sort();
            expanded = true;
            words.extend(names.into_iter().map(Word::literal_text));
            if words.len() > MAX_GLOB_NAMES {
                return Ok(None);
            }
            continue;
        }
        words.push(w.clone());
    }
    Ok(expanded.then(|| SimpleCommand {
        words,
        ..cmd.clone()
    }))
}

/// The command with every word holding `$IFS`/`${IFS}` split where the shell splits it
/// (`rm${IFS}-rf${IFS}~` is `rm -rf ~`), when any word holds one.
fn split_on_ifs(cmd: &SimpleCommand) -> Option<SimpleCommand> {
    const IFS: [&str; 2] = ["${IFS}", "$IFS"];
    // Both start with `$`, which a byte search finds (or not) for less than either search.
    let holds = |w: &Word| w.raw.contains('$') && IFS.iter().any(|i| w.raw.contains(i));
    if !cmd.words.iter().any(holds) {
        return None;
    }
    let mut words = Vec::new();
    for w in &cmd.words {
        if !holds(w) {
            words.push(w.clone());
            continue;
        }
        let raw = w.raw.replace("${IFS}", "$IFS");
        for piece in raw.split("$IFS").filter(|p| !p.is_empty()) {
            let piece = piece.replace("${HOME}", "~").replace("$HOME", "~");
            if piece.contains(['$', '`', '\'', '"', '\\']) {
                let prefix = piece
                    .split(['$', '`', '\'', '"', '\\'])
                    .next()
                    .unwrap_or_default()
                    .to_owned();
                words.push(Word::dynamic(piece, prefix));
            } else {
                words.push(Word::literal_text(piece));
            }
        }
    }
    Some(SimpleCommand {
        words,
        ..cmd.clone()
    })
}

/// A read-only command reading `paths`.
pub(super) fn reads(j: &mut Judge<'_>, cmd: &SimpleCommand, paths: &[&Word]) {
    let before = j.findings.len();
    for p in paths {
        j.read(cmd, p);
    }
    if cmd.extra_args {
        j.unknown(cmd, "reads paths only known when it runs", Risk::Low);
    }
    if j.findings.len() == before {
        j.read_only(cmd);
    }
}

/// A network client talks to the network; what a downloader writes (the table's output
/// options, read as [`super::reach::download_targets`] reads them) is judged as written.
fn network(j: &mut Judge<'_>, cmd: &SimpleCommand, program: &str) {
    if crate::programs::table::downloader(program).is_some()
        && let Ok(files) = super::reach::download_targets(program, cmd)
    {
        for file in files.iter().filter(|f| f.literal() != Some("-")) {
            j.write(cmd, file, None);
        }
    }
    let reason = format!("{} talks to the network.", quote(cmd));
    j.add(Stance::DefaultAsk, SHELL_NETWORK, Risk::Medium, reason);
}

#[cfg(test)]
mod assigned_value_tests {
    use super::{assigned_values, with_assigned_values};

    #[test]
    fn declaring_builtins_give_values_as_assignments_do() {
        let script = crate::shell::parse(
            "f=a; export g=.env; declare -r h=~/.ssh/id_rsa; local i+=x; readonly j=$(x); k=1 cmd; eval :",
        )
        .unwrap();
        let values = assigned_values(&script);
        let values: Vec<(&str, &str)> = values.iter().map(|(n, v)| (*n, v.as_str())).collect();
        assert_eq!(
            values,
            [
                ("f", "a"),
                ("g", ".env"),
                ("h", "~/.ssh/id_rsa"),
                ("j", "$(x)")
            ]
        );
    }

    #[test]
    fn words_take_every_value_the_script_assigns() {
        let values = [("f", ".env"), ("f", "README.md"), ("d", ".aws")];
        assert_eq!(with_assigned_values("$f", &values), [".env", "README.md"]);
        assert_eq!(
            with_assigned_values("\"${f}\"", &values),
            [".env", "README.md"]
        );
        assert_eq!(
            with_assigned_values("~/$d/credentials", &values),
            ["~/.aws/credentials"]
        );
        // `$fx` is another variable; a word still only known when it runs has no value.
        assert!(with_assigned_values("$fx", &values).is_empty());
        assert!(with_assigned_values("$f/$OTHER", &values).is_empty());
    }

    #[test]
    fn values_that_expand_further_or_grow_too_long_are_not_substituted() {
        // `v1='$v2$v2'; v2='$v3$v3'; …`: doubling per variable must not be built.
        let names: Vec<String> = (1..=40).map(|i| format!("v{i}")).collect();
        let mut values: Vec<(&str, String)> = names
            .windows(2)
            .map(|w| (w[0].as_str(), format!("${0}${0}", w[1])))
            .collect();
        values.push((names[39].as_str(), "x".to_owned()));
        let values: Vec<(&str, &str)> = values.iter().map(|(n, v)| (*n, v.as_str())).collect();
        let started = std::time::Instant::now();
        assert!(with_assigned_values("$v1", &values).is_empty());
        assert!(started.elapsed() < std::time::Duration::from_secs(2));
        let long = "a".repeat(3000);
        let values = [("l", long.as_str())];
        assert!(with_assigned_values("$l$l", &values).is_empty());
    }
}
