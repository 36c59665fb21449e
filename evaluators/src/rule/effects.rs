//! Rules over effects: what a call reads, searches, writes and reaches, whichever tool does
//! it. `Read(secrets/**)`, `Write(.github/**)` and `Net(docs.rs)` name effects; so does a path
//! rule written on a file tool (`view(secrets/**)` is a read, `Edit(.github/**)` a write).
//! A deny or ask rule on an effect applies to every call with that effect: the shell's
//! `cat secrets/x`, a grep over `secrets`, `Write` as well as `Edit`. An allow rule on an
//! effect covers only a file tool's call whose every path it matches.

use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use globset::{Glob, GlobSet, GlobSetBuilder};
use serde_json::Value;
use warrant_core::call::{EvaluationContext, ToolCall};
use warrant_core::catalog::{ToolCatalog, is_shell_tool};

use super::config::RuleAction;
use super::hosts::{self, Reach};
use super::index::{Doubt, Hit, WordHasher};
use crate::paths::Places;
use crate::policy::filesystem::{self, Access};
use crate::programs::{self, Model};
use crate::shell::{RedirectKind, Script, SimpleCommand, Word, WorkingDir};

/// The most files looked at when a search's tree is compared with a rule's glob; past it,
/// the tree counts as reaching the glob.
const MAX_TREE_FILES: usize = 20_000;

/// What a path effect is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// File contents are read (a search reads its whole tree).
    Read,
    /// A file is created, changed or removed.
    Write,
}

/// A path as a rule sees it: relative to the workspace root when inside it (relative globs
/// match only this form), and absolute (absolute globs match only this form). The relative
/// form is the tail of the absolute one, so a form is one string.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Form {
    absolute: String,
    /// Where the relative form starts in `absolute`, when the path is inside the root.
    relative_at: Option<usize>,
}

impl Form {
    /// The path relative to the workspace root, when it is inside it (`""`: the root).
    pub(crate) fn relative(&self) -> Option<&str> {
        self.relative_at.map(|i| &self.absolute[i..])
    }

    /// The absolute path.
    pub(crate) fn absolute(&self) -> &str {
        &self.absolute
    }
}

/// A path a call names: as written (`..` removed as text) and as resolved (symlinks
/// followed). A deny or ask rule matching either form applies; an allow rule must match the
/// resolved one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct NamedPath {
    /// As written, when it differs from the resolved form (`None`: the same).
    written: Option<Form>,
    pub real: Form,
}

impl NamedPath {
    /// A path whose written and resolved forms are the same.
    fn same(form: Form) -> Self {
        Self {
            written: None,
            real: form,
        }
    }

    /// The path as written (`..` removed as text).
    pub(crate) fn written(&self) -> &Form {
        self.written.as_ref().unwrap_or(&self.real)
    }

    /// Whether it resolves to what is written.
    pub(crate) fn resolves_as_written(&self) -> bool {
        self.written.is_none()
    }

    /// Its forms: written and resolved, once when they are the same.
    fn forms(&self) -> impl Iterator<Item = &Form> {
        self.written.iter().chain(std::iter::once(&self.real))
    }
}

/// A call's effects.
#[derive(Debug, Default)]
pub(crate) struct CallEffects {
    /// Files read.
    pub reads: Vec<NamedPath>,
    /// Trees whose every file is read (searches, recursive reads).
    pub trees: Vec<NamedPath>,
    /// Files written.
    pub writes: Vec<NamedPath>,
    /// Words of command parts whose effects cannot be read: each may name a file read,
    /// written or searched.
    pub opaque: Vec<NamedPath>,
    /// Hosts reached (URLs of fetch tools, URLs on command lines, the operands of network
    /// clients), each in normal form ([`hosts::normalize`]).
    pub hosts: Vec<String>,
    /// Hosts reached that cannot be told for certain: no rule may take them for another
    /// host than its own.
    pub unknown_hosts: Vec<String>,
    /// Whether a path of each kind (`[read, write]`) is only known when the call runs: a
    /// deny or ask rule on paths of that kind may apply.
    pub unread: [bool; 2],
    /// The access of a file tool, when the call is one.
    pub file_tool: Option<Access>,
    /// Whether the call is a fetch: neither a shell nor a file tool, with URLs.
    pub fetch: bool,
    /// Whether it prints file contents from the repository whose paths the call does not
    /// name (`git log -p`, `git show REV`, `git diff`): any path of the workspace may be
    /// among them.
    pub history: bool,
}

/// Reads a call's effects. `named` are the paths of the call's input
/// ([`filesystem::paths`]), each named by [`name`] from the workspace root. A shell
/// command's paths are read only for the kinds `rules` restrict (an allow on a path effect
/// covers file tools only); `models` holds what its commands do.
pub(crate) fn of_call(
    call: &ToolCall,
    cx: &EvaluationContext,
    places: &Places<'_>,
    script: Option<(&Script, &Models<'_>)>,
    rules: &EffectRules,
    named: Vec<NamedPath>,
) -> CallEffects {
    let mut out = CallEffects::default();
    let tool = call.tool_name.as_str();
    if is_shell_tool(tool) {
        if let Some((script, models)) = script {
            let needs = [rules.restricts(Kind::Read), rules.restricts(Kind::Write)];
            let steered = (needs[0] || needs[1]) && steers_environment(script);
            for (i, cmd) in script.commands.iter().enumerate() {
                shell_effects(cmd, || models.of(i), places, (needs, steered), &mut out);
            }
        }
    } else if let Some(access) = filesystem::access_of(tool, &call.input, &cx.catalog) {
        out.file_tool = Some(access);
        let search = filesystem::is_search(tool);
        match access {
            Access::Write => out.writes.extend(named),
            Access::Read if search && named.is_empty() => {
                out.trees.push(name(places, ".", &WorkingDir::Root));
            }
            Access::Read if search => out.trees.extend(named),
            Access::Read => out.reads.extend(named),
        }
        if let Some(base) = filesystem::glob_base(tool, &call.input) {
            out.trees.push(name(places, &base, &WorkingDir::Root));
        }
    }
    // A git server's tools that print file contents (`git_diff_unstaged`, `git_show`,
    // `git_log` with patches): reads of files the call does not name.
    if !is_shell_tool(tool) && out.file_tool.is_none() {
        let name = tool
            .rsplit("__")
            .next()
            .unwrap_or(tool)
            .to_ascii_lowercase();
        out.history = name.starts_with("git")
            && ["diff", "show", "log", "blame", "cat", "grep", "patch"]
                .iter()
                .any(|w| name.contains(w));
    }
    let mut reaches = Vec::new();
    urls(&call.input, &mut reaches);
    out.reach(reaches);
    let reaches_any = !(out.hosts.is_empty() && out.unknown_hosts.is_empty());
    out.fetch =
        !is_shell_tool(tool) && out.file_tool.is_none() && reaches_any && plain_fetch(&call.input);
    out
}

/// Fields of a fetch tool's input that only choose what is read from the URL and how it is
/// shown. Any other (`method`, `body`, `headers`, a `Host` header, cookies, credentials)
/// makes a request a host rule does not describe: an allow on the host does not cover it.
const PLAIN_FETCH_FIELDS: &[&str] = &[
    "url",
    "prompt",
    "format",
    "timeout",
    "max_length",
    "start_index",
    "raw",
    "description",
];

/// Whether a fetch's input has only [`PLAIN_FETCH_FIELDS`].
pub(crate) fn plain_fetch(input: &Value) -> bool {
    input
        .as_object()
        .is_some_and(|m| m.keys().all(|k| PLAIN_FETCH_FIELDS.contains(&k.as_str())))
}

impl CallEffects {
    /// Adds what URLs and host words reach.
    fn reach(&mut self, reaches: Vec<Reach>) {
        for r in reaches {
            match r {
                Reach::Host(h) => self.hosts.push(h),
                Reach::Unknown(text) => self.unknown_hosts.push(text),
            }
        }
    }
}

/// What the commands of a script do by the program table ([`programs::model`]), each read
/// once when first asked for, however many rules look at it.
pub(crate) struct Models<'s> {
    script: &'s Script,
}

impl<'s> Models<'s> {
    /// The models of `script`'s commands (kept by the script for every evaluator).
    pub(crate) fn new(script: &'s Script) -> Self {
        Self { script }
    }

    /// What command `i` does.
    pub(crate) fn of(&self, i: usize) -> &Model {
        self.script.model(i)
    }
}

/// What the URLs in a tool's input reach, at any depth.
fn urls(input: &Value, out: &mut Vec<Reach>) {
    match input {
        Value::String(s) => hosts::text_reaches(s, out),
        Value::Array(items) => items.iter().for_each(|v| urls(v, out)),
        Value::Object(map) => map.values().for_each(|v| urls(v, out)),
        _ => {}
    }
}

/// A path (in normal form, as [`Places`] gives them) as a rule sees it.
fn form(places: &Places<'_>, path: &Path) -> Form {
    let absolute = match path.to_str() {
        Some(text) => text.to_owned(),
        None => path.to_string_lossy().into_owned(),
    };
    let root = places.root();
    let root = root
        .to_str()
        .map_or_else(|| root.to_string_lossy(), Cow::Borrowed);
    let relative_at = match absolute.strip_prefix(root.as_ref()) {
        Some("") => Some(absolute.len()),
        Some(rest) if rest.starts_with('/') => Some(root.len() + 1),
        Some(_) if root.ends_with('/') => Some(root.len()),
        _ => None,
    };
    Form {
        absolute,
        relative_at,
    }
}

/// A path word used in `cwd`, named both ways.
pub(crate) fn name(places: &Places<'_>, raw: &str, cwd: &WorkingDir) -> NamedPath {
    places.with_located_paths(raw, cwd, |located, lexical| NamedPath {
        written: lexical.filter(|&w| w != located).map(|w| form(places, w)),
        real: form(places, located),
    })
}

fn word_name(places: &Places<'_>, word: &Word, cwd: &WorkingDir) -> Option<NamedPath> {
    word.literal().map(|t| name(places, t, cwd))
}

/// The paths a word names, glob expansions included; for a word only known when it runs,
/// the literal values of its domain (a loop over a list), else `None`: the word may name any
/// path.
fn word_paths(places: &Places<'_>, word: &Word, cwd: &WorkingDir) -> Option<Vec<NamedPath>> {
    let values: Vec<Word> = match (word.literal(), &word.domain) {
        (Some(_), _) => vec![word.clone()],
        (None, Some(d)) if d.producers.is_empty() && !d.values.is_empty() => {
            d.values.iter().map(Word::literal_text).collect()
        }
        _ => return None,
    };
    let mut out = Vec::new();
    for w in &values {
        if !w.literal().is_some_and(|t| placed(t, cwd)) {
            return None;
        }
        out.extend(word_name(places, w, cwd));
        out.extend(glob_names(places, w, cwd));
    }
    Some(out)
}

/// The paths a glob word (`priv*/p.txt`) expands to in the workspace as it is now: a rule
/// on `private/**` sees the files the shell will hand the program. None for other words.
fn glob_names(places: &Places<'_>, word: &Word, cwd: &WorkingDir) -> Vec<NamedPath> {
    let text = word
        .literal()
        .or_else(|| crate::policy::shell::judge::braces_only(word));
    let Some(text) = text.filter(|t| t.contains(['*', '?', '[', '{'])) else {
        return Vec::new();
    };
    let mut alternatives = Vec::new();
    crate::policy::shell::judge::expand_braces(text, &mut alternatives);
    let mut out = Vec::new();
    for alt in &alternatives {
        if !alt.contains(['*', '?', '[']) {
            out.push(name(places, alt, cwd));
        } else if let Ok(found) = places.expand_glob(alt, cwd, false) {
            out.extend(found.iter().map(|p| name(places, p, cwd)));
        }
    }
    out
}

/// The effects of one command of a shell script: its hosts always, its paths of each kind
/// `needs` says (`[read, write]`; words whose effect cannot be read, for either). A path or
/// host only known when the command runs is recorded as such ([`CallEffects::unread`],
/// [`CallEffects::unknown_hosts`]), never taken for another.
fn shell_effects<'m>(
    cmd: &SimpleCommand,
    model: impl FnOnce() -> &'m Model,
    places: &Places<'_>,
    (needs, steered): ([bool; 2], bool),
    out: &mut CallEffects,
) {
    // A program only known when it runs may do anything with any word.
    let unknown_program = !cmd.words.is_empty() && cmd.program().is_none();
    let network = unknown_program
        || cmd
            .program()
            .is_some_and(|p| programs::NETWORK.contains(&p));
    let mut reaches = Vec::new();
    for w in cmd.args() {
        match w.literal() {
            Some(t) if network => hosts::host_word_reaches(t, &mut reaches),
            Some(t) => hosts::text_reaches(t, &mut reaches),
            None => hosts::dynamic_reaches(&w.prefix, &w.raw, network, &mut reaches),
        }
    }
    let host_file = cmd.program().is_some_and(|p| {
        cmd.args()
            .iter()
            .any(|w| programs::table::names_host_file(p, w.text()))
    });
    if unknown_program || (network && cmd.extra_args) || host_file {
        let first = cmd.words.first().map_or("", |w| w.raw.as_str());
        reaches.push(Reach::Unknown(first.to_owned()));
    }
    out.reach(reaches);
    let [read, write] = needs;
    if !(read || write) {
        return;
    }
    for r in &cmd.redirects {
        let (list, at) = match r.kind {
            RedirectKind::Read if read => (&mut out.reads, Kind::Read.at()),
            RedirectKind::Write if write => (&mut out.writes, Kind::Write.at()),
            _ => continue,
        };
        match word_paths(places, &r.target, &cmd.cwd) {
            Some(paths) => list.extend(paths),
            None => out.unread[at] = true,
        }
    }
    if unknown_program {
        out.unread = [true, true];
    }
    if cmd.words.is_empty() || cmd.wraps {
        return;
    }
    let model = model();
    // What the table models, in the directory it runs in (`git -C DIR` moves it).
    let modeled = match model {
        Model::Modeled(e) => moved(&cmd.cwd, e.cwd.as_ref()).map(|cwd| (e, cwd)),
        Model::Unmodeled(_) => None,
    };
    let history = modeled.as_ref().map(|(e, _)| e.history);
    git_reads(cmd, places, (history, steered), out);
    match modeled {
        Some((e, cwd)) => {
            let add = |out: &mut CallEffects,
                       words: &mut dyn Iterator<Item = &Word>,
                       kind,
                       cwd: &WorkingDir| {
                for w in words {
                    match word_paths(places, w, cwd) {
                        Some(paths) => match kind {
                            Kind::Read => out.reads.extend(paths),
                            Kind::Write => out.writes.extend(paths),
                        },
                        None => out.unread[Kind::at(kind)] = true,
                    }
                }
            };
            if read {
                add(out, &mut e.reads.iter().chain(&e.meta), Kind::Read, &cwd);
                // The directory it moves to is named where the command starts.
                if e.cwd.is_some() {
                    add(out, &mut e.meta.iter(), Kind::Read, &cmd.cwd);
                }
                // What git prints from the repository is a read of the paths it names:
                // `REV:PATH` blobs ([`git_object_names`]), pathspecs (a directory: every file
                // below), blamed files.
                for w in &e.objects {
                    let Some(text) = w.literal() else {
                        out.unread[Kind::Read.at()] = true;
                        continue;
                    };
                    if git_object_names(places, text, &cwd, out) {
                        continue;
                    }
                    match word_paths(places, w, &cwd) {
                        Some(paths) => out.trees.extend(paths),
                        None => out.unread[Kind::Read.at()] = true,
                    }
                }
                out.history |= e.history;
                // A word git reads as a revision unless it is a path (`git grep x HEAD`):
                // a revision's files may be any.
                out.history |= e.paths_not_revisions.iter().any(|w| {
                    w.literal()
                        .is_none_or(|t| !placed(t, &cwd) || !places.locate(t, &cwd).path.exists())
                });
                for t in &e.trees {
                    // A pathspec with magic (`git grep x -- :/secrets`).
                    if e.repository
                        && let Some(text) = t.root.literal().filter(|t| t.starts_with(':'))
                        && git_object_names(places, text, &cwd, out)
                    {
                        continue;
                    }
                    match word_paths(places, &t.root, &cwd) {
                        Some(paths) => out.trees.extend(paths),
                        None => out.unread[Kind::Read.at()] = true,
                    }
                }
            }
            if write {
                add(out, &mut e.writes.iter(), Kind::Write, &cwd);
            }
            // Arguments given when it runs (`xargs cat`): paths only known then.
            if cmd.extra_args {
                out.unread[0] |= read;
                out.unread[1] |= write && !e.writes.is_empty();
            }
        }
        // What it does cannot be read (or happens in a directory not known): every word may
        // be a path it reads or writes.
        None => {
            for w in cmd.args() {
                let Some(text) = w.literal() else {
                    let option = w.prefix.starts_with('-') && !w.prefix.contains('=');
                    if !option {
                        out.unread = [true, true];
                    }
                    continue;
                };
                let value = text.rsplit('=').next().unwrap_or(text);
                if value.is_empty() || (value.starts_with('-') && !text.contains('=')) {
                    continue;
                }
                if !placed(value, &cmd.cwd) {
                    out.unread = [true, true];
                    continue;
                }
                out.opaque.push(name(places, value, &cmd.cwd));
                out.opaque.extend(glob_names(places, w, &cmd.cwd));
            }
            if cmd.extra_args {
                out.unread = [true, true];
            }
        }
    }
}

/// Whether a path word used in `cwd` names a place the text tells: not a relative path
/// after a change of directory to somewhere only known when it runs.
fn placed(text: &str, cwd: &WorkingDir) -> bool {
    *cwd != WorkingDir::Unknown || text.starts_with(['/', '~'])
}

/// The directory a modeled command works in: where it runs, moved by the directory the
/// program itself changes to (`git -C DIR`); `None` when that is not known.
pub(crate) fn moved(from: &WorkingDir, to: Option<&WorkingDir>) -> Option<WorkingDir> {
    let dir = match to {
        None => return Some(from.clone()),
        Some(WorkingDir::Dir(dir)) => dir,
        Some(_) => return None,
    };
    match from {
        _ if dir.starts_with(['/', '~']) => Some(WorkingDir::Dir(dir.clone())),
        WorkingDir::Root => Some(WorkingDir::Dir(dir.clone())),
        WorkingDir::Dir(base) => Some(WorkingDir::Dir(
            [base.trim_end_matches('/'), dir.as_str()].join("/"),
        )),
        WorkingDir::Unknown => None,
    }
}

/// The most directories above a git command's directory taken as where its repository's
/// top may be; deeper, any path of the workspace may be the one it names.
const MAX_REPOSITORY_DEPTH: usize = 64;

/// Reads a git object name `REV:PATH` (or an index entry `:PATH`, `:N:PATH`) or a pathspec
/// with magic of a command working in `cwd` as the files it names, into `out`'s trees: a
/// `./` or `../` path from `cwd`, any other (and `:/PATH`, `:(top)PATH`) from the top of the
/// repository, which is `cwd` or a directory above it (a nested repository's top is not the
/// workspace's). Where that is not known, or with other magic (`:!PATH` and `:^PATH` exclude
/// it and match the rest, `:(icase)`, `:(glob)`, `:(attr:…)`), the command may print any
/// file. `false` for a word that names no path that way (no colon).
fn git_object_names(
    places: &Places<'_>,
    text: &str,
    cwd: &WorkingDir,
    out: &mut CallEffects,
) -> bool {
    let magic = |rest: &str| rest.starts_with(['(', '!', '^']);
    let (path, from_top) = if let Some(rest) = text
        .strip_prefix(":/")
        .or_else(|| text.strip_prefix(":(top)"))
    {
        if magic(rest) {
            out.history = true;
            return true;
        }
        (rest.strip_prefix(':').unwrap_or(rest), true)
    } else if text.strip_prefix(':').is_some_and(magic) {
        out.history = true;
        return true;
    } else {
        let Some((_, path)) = text.split_once(':') else {
            return false;
        };
        // `:0:PATH`: a stage of the index.
        let path = match path.split_once(':') {
            Some(("0" | "1" | "2" | "3", rest)) => rest,
            _ => path,
        };
        let near = path.starts_with("./") || path.starts_with("../") || path.starts_with('/');
        (path, !near)
    };
    let path = if path.is_empty() { "." } else { path };
    if !placed(path, cwd) {
        out.history = true;
        return true;
    }
    if !from_top {
        out.trees.push(name(places, path, cwd));
        return true;
    }
    let below = match cwd {
        WorkingDir::Dir(dir) => Path::new(dir),
        _ => Path::new(""),
    };
    if below.ancestors().nth(MAX_REPOSITORY_DEPTH).is_some() {
        out.history = true;
        return true;
    }
    out.trees.push(name(places, path, &WorkingDir::Root));
    for top in below.ancestors().filter_map(Path::to_str) {
        if !top.is_empty() {
            out.trees
                .push(name(places, path, &WorkingDir::Dir(top.to_owned())));
        }
    }
    true
}

/// Whether a script may give its programs variables that steer them beyond a command's own
/// assignments: `export`, `declare` and their kin naming a variable that is not harmless, an
/// assignment in the shell itself that is not harmless (exported already, or by `set -a`),
/// `env NAME=value` before a program, `set`, `source`.
fn steers_environment(script: &Script) -> bool {
    let not_harmless = |word: &Word| {
        let Some(text) = word.literal() else {
            return true;
        };
        if text.starts_with('-') {
            return false;
        }
        let (name, value) = text
            .split_once('=')
            .map_or((text, None), |(n, v)| (n, Some(v)));
        !programs::harmless_shell_assignment(name, value)
    };
    script.commands.iter().any(|c| match c.program() {
        Some("export" | "declare" | "typeset" | "readonly" | "local") => {
            c.args().iter().any(not_harmless)
        }
        Some("env") => c.args().iter().any(|w| {
            w.literal()
                .is_none_or(|t| t.contains('=') && !t.starts_with('-'))
                && not_harmless(w)
        }),
        // `set -a`: every later assignment is exported.
        Some("set") => c.args().iter().any(|w| {
            w.literal().is_none_or(|t| {
                t == "allexport" || t.starts_with('-') && !t.starts_with("--") && t.contains('a')
            })
        }),
        Some("source" | ".") => true,
        Some(_) => false,
        None => {
            c.words.is_empty()
                && c.assignments
                    .iter()
                    .zip(&c.assignment_values)
                    .any(|(n, v)| !programs::harmless_shell_assignment(n, v.as_deref()))
        }
    })
}

/// git subcommands that print file contents from the repository: its history, index, work
/// tree or object database.
const GIT_PRINTS: &[&str] = &[
    "show",
    "log",
    "whatchanged",
    "diff",
    "diff-tree",
    "diff-index",
    "diff-files",
    "difftool",
    "range-diff",
    "grep",
    "archive",
    "cat-file",
    "format-patch",
    "stash",
    "reflog",
    "blame",
    "annotate",
    "fast-export",
    "bundle",
    "pack-objects",
    "upload-pack",
    "upload-archive",
    "notes",
    "merge-tree",
    "merge-file",
    "request-pull",
    "unpack-file",
    "send-email",
    "instaweb",
];

/// What a git command prints from the repository, read from its words whatever the program
/// table makes of it (`history`: whether the table says it prints contents it does not
/// name, when it models the command). A command that prints contents and is not modeled
/// (`git show HEAD@{0}:x`, `git show SHA`, `git grep x HEAD`, `git archive HEAD`,
/// `git cat-file --batch`), a subcommand only known from configuration (an alias), a
/// repository chosen elsewhere (`--git-dir`, `--work-tree`), a diff shown by a command that
/// mostly does something else (`status -v`, `commit -v`, `add -p`, `--show-current-patch`):
/// every file of the repository may be among what it prints. The `REV:PATH` names of an
/// unmodeled one are read as the files they name (from the directory `-C` moves it to).
fn git_reads(
    cmd: &SimpleCommand,
    places: &Places<'_>,
    (history, steered): (Option<bool>, bool),
    out: &mut CallEffects,
) {
    let Some(program) = cmd
        .program()
        .filter(|p| *p == "git" || *p == "hub" || p.starts_with("git-"))
    else {
        return;
    };
    let words: Vec<&str> = std::iter::once(program)
        .chain(cmd.args().iter().map_while(Word::literal))
        .collect();
    let spelled = super::index::front_end(cmd, &words);
    let words: Vec<&str> = match &spelled {
        Some(super::index::FrontEnd::Any(_)) => {
            out.history = true;
            return;
        }
        Some(super::index::FrontEnd::As(other)) => other.iter().map(String::as_str).collect(),
        None if program == "git" => words,
        None => return,
    };
    // git's own options: the directories it moves to, and configuration given on the
    // command line or in the environment, which may run any program (`core.fsmonitor` runs
    // for `status`, `diff.external`, `GIT_EXTERNAL_DIFF`, `GIT_CONFIG_*`): it may then read or
    // write any file.
    let mut cwd = Some(cmd.cwd.clone());
    let mut configured = steered
        || cmd
            .assignments
            .iter()
            .zip(&cmd.assignment_values)
            .any(|(name, value)| !programs::harmless_assignment(name, value.as_deref()));
    let mut i = 1;
    while let Some(&w) = words.get(i) {
        if !w.starts_with('-') {
            break;
        }
        i += 1;
        match w {
            "-C" => {
                let dir = words.get(i).map(|d| WorkingDir::Dir((*d).to_owned()));
                cwd = cwd.and_then(|c| moved(&c, Some(dir.as_ref()?)));
                i += 1;
            }
            "-c" | "--config-env" => {
                configured = true;
                i += 1;
            }
            "--namespace" | "--super-prefix" | "--git-dir" | "--work-tree" => i += 1,
            _ => configured |= w.starts_with("-c") || w.starts_with("--config-env"),
        }
    }
    if configured {
        out.history = true;
        out.unread = [true, true];
    }
    let Some(&sub) = words.get(i) else {
        // Past the words that can be read: any subcommand.
        out.history |= words.len() < cmd.words.len();
        return;
    };
    // The words after the subcommand, with those brace expansion may change as written
    // (`HEAD@{0}:x`).
    let args: Vec<&str> = cmd
        .args()
        .iter()
        .skip(i)
        .filter_map(|w| {
            w.literal().or_else(|| {
                (!w.raw.contains(['$', '`', '"', '\'', '\\'])).then_some(w.raw.as_str())
            })
        })
        .collect();
    let args = if spelled.is_none() {
        &args[..]
    } else {
        &words[i + 1..]
    };
    let short = |letter: char| {
        args.iter().any(|a| {
            a.strip_prefix('-')
                .is_some_and(|c| !c.starts_with('-') && c.contains(letter))
        })
    };
    let long = |name: &str| args.contains(&name);
    // A word only known when it runs may be one of those options, unless it is the value
    // of the option before it (`-m "$msg"`); `status` takes no separate values.
    let dynamic_option = spelled.is_none()
        && cmd.args().iter().enumerate().skip(i).any(|(k, w)| {
            let after_option = k > i
                && cmd.args()[k - 1]
                    .literal()
                    .is_some_and(|p| p.starts_with('-'));
            w.literal().is_none()
                && !w.prefix.starts_with('-')
                && (sub == "status" || !after_option)
        });
    let shows_diff = match sub {
        "status" | "commit" => short('v') || long("--verbose") || dynamic_option,
        "add" | "checkout" | "reset" | "restore" => {
            short('p') || short('i') || long("--patch") || long("--interactive") || dynamic_option
        }
        "am" | "rebase" => dynamic_option,
        _ => false,
    } || long("--show-current-patch");
    out.history |= shows_diff;
    // A modeled command's contents are the table's to tell.
    let unmodeled_prints = history.is_none()
        && (GIT_PRINTS.contains(&sub) || !super::index::GIT_COMMANDS.contains(&sub));
    if unmodeled_prints {
        out.history = true;
        let cwd = cwd.unwrap_or(WorkingDir::Unknown);
        for a in args {
            git_object_names(places, a, &cwd, out);
        }
    }
}

/// One rule on a path effect.
#[derive(Debug)]
struct PathRule {
    rule: usize,
    kind: Kind,
    action: RuleAction,
    /// Whether the glob is absolute (matched against absolute forms only).
    absolute: bool,
}

/// One rule on a host.
#[derive(Debug)]
struct HostRule {
    rule: usize,
    action: RuleAction,
    /// `*.example.com`: subdomains only; `example.com`: that host only.
    subdomains: bool,
}

/// The globs of some path rules compiled together: relative and absolute globs, each set
/// mapping back to [`EffectRules`]' rules.
#[derive(Debug, Default)]
struct PathGlobs {
    relative: Option<GlobSide>,
    absolute: Option<GlobSide>,
}

/// Globs of one side (relative or absolute) compiled into one set.
#[derive(Debug)]
struct GlobSide {
    set: GlobSet,
    /// The rule (among [`EffectRules`]' path rules) of each glob of the set.
    index: Vec<usize>,
    /// When every glob starts with a literal component (`src` for `src/secret/**`, `etc` for
    /// `/etc/*.conf`): those components. Globs match from the start of a path and those
    /// components hold no glob character, so a path whose first component is none of them
    /// matches no glob here, and the set is not asked. Folded, as candidates are compared.
    firsts: Option<WordSet>,
    /// The globs are folded (deny and ask rules): matched against the path in lower case.
    folded: bool,
}

/// A set of path components, hashed as the rule index hashes words.
type WordSet = std::collections::HashSet<String, std::hash::BuildHasherDefault<WordHasher>>;

/// The first component of a path or glob, past a leading `/`.
fn first_component(text: &str) -> &str {
    let text = text.strip_prefix('/').unwrap_or(text);
    text.split('/').next().unwrap_or(text)
}

impl GlobSide {
    fn new(set: GlobSet, index: Vec<usize>, globs: &[&Glob], folded: bool) -> Self {
        let firsts = globs
            .iter()
            .map(|g| {
                let first = first_component(g.glob());
                let literal =
                    !first.is_empty() && !first.contains(['*', '?', '[', ']', '{', '}', '\\']);
                // Folded: a filter only (the glob set has the last word on every
                // candidate), so one case serves folded and plain sides alike.
                literal.then(|| crate::paths::fold(first).into_owned())
            })
            .collect::<Option<WordSet>>();
        Self {
            set,
            index,
            firsts,
            folded,
        }
    }

    /// The globs (by their index in `index`) that match `text`, into `found` (cleared).
    fn matches_into(&self, text: &str, found: &mut Vec<usize>) {
        if let Some(firsts) = &self.firsts
            && !firsts.contains(crate::paths::fold(first_component(text)).as_ref())
        {
            found.clear();
            return;
        }
        if self.folded {
            self.set
                .matches_into(crate::paths::fold(text).as_ref(), found);
        } else {
            self.set.matches_into(text, found);
        }
    }
}

impl PathGlobs {
    /// The globs of `rules` (each with its index among all path rules); `folded`: globs in
    /// lower case, matched against paths in lower case.
    fn build<'a>(
        rules: impl Iterator<Item = (usize, &'a PathRule, &'a Glob)>,
        folded: bool,
    ) -> Result<Self, globset::Error> {
        let mut relative = (GlobSetBuilder::new(), Vec::new(), Vec::new());
        let mut absolute = (GlobSetBuilder::new(), Vec::new(), Vec::new());
        for (i, rule, glob) in rules {
            let side = if rule.absolute {
                &mut absolute
            } else {
                &mut relative
            };
            side.0.add(glob.clone());
            side.1.push(i);
            side.2.push(glob);
        }
        let finish = |(builder, index, globs): (GlobSetBuilder, Vec<usize>, Vec<&Glob>)| {
            if index.is_empty() {
                Ok(None)
            } else {
                builder
                    .build()
                    .map(|set| Some(GlobSide::new(set, index, &globs, folded)))
            }
        };
        Ok(Self {
            relative: finish(relative)?,
            absolute: finish(absolute)?,
        })
    }

    fn is_empty(&self) -> bool {
        self.relative.is_none() && self.absolute.is_none()
    }

    /// Whether rules of one side (absolute globs, or relative ones) are here.
    fn has_side(&self, absolute: bool) -> bool {
        if absolute {
            self.absolute.is_some()
        } else {
            self.relative.is_some()
        }
    }

    /// Adds to `out` the rules whose glob matches a form of `path` (`real_only`: the
    /// resolved form only).
    fn matching(&self, path: &NamedPath, real_only: bool, out: &mut Vec<usize>) {
        if self.is_empty() {
            return;
        }
        let written = path.written.as_ref().filter(|_| !real_only);
        let mut found = Vec::new();
        for f in written.into_iter().chain(std::iter::once(&path.real)) {
            if let (Some(rel), Some(side)) = (f.relative(), &self.relative) {
                side.matches_into(rel, &mut found);
                out.extend(found.iter().map(|&i| side.index[i]));
            }
            if let Some(side) = &self.absolute {
                side.matches_into(f.absolute(), &mut found);
                out.extend(found.iter().map(|&i| side.index[i]));
            }
        }
    }
}

/// Rules on effects, compiled once.
#[derive(Debug, Default)]
pub(crate) struct EffectRules {
    paths: Vec<PathRule>,
    /// The globs of deny and ask rules, by kind (see [`Kind::at`]): any effect of that kind
    /// they match makes them hit.
    restricting: [PathGlobs; 2],
    /// The globs of allow rules, by kind: they cover a file tool's call whose every path they
    /// match, as resolved.
    allowing: [PathGlobs; 2],
    /// Deny and ask rules on reads (the only rules a searched tree can make hit) by the
    /// literal directory their glob starts with (`secrets` for `secrets/**`), to find those a
    /// searched tree may reach.
    prefixes: Prefixes,
    /// The same, for exact lookups (a tree's own directory and those above it).
    prefix_of: HashMap<String, Vec<usize>>,
    /// Deny and ask rules on writes by the literal directory their glob starts with: a
    /// write into a directory (`cp -r x .github`, `tar -C .github`) may create any file below.
    write_prefixes: Prefixes,
    hosts: HashMap<String, Vec<HostRule>>,
}

/// Rules by the literal directory their glob starts with, in the order of those texts: the
/// texts that start with a tree's text are one run found by a binary search (a sorted slice
/// compares fewer keys than a b-tree's nodes, which are scanned key by key).
#[derive(Debug, Default)]
struct Prefixes(Vec<(String, Vec<usize>)>);

impl Prefixes {
    /// The entries from `text` on, in order: `text` itself when `inclusive`.
    fn from(&self, text: &str, inclusive: bool) -> &[(String, Vec<usize>)] {
        let at = self.0.partition_point(|(k, _)| {
            if inclusive {
                k.as_str() < text
            } else {
                k.as_str() <= text
            }
        });
        &self.0[at..]
    }
}

impl Kind {
    /// Its place in arrays by kind.
    fn at(self) -> usize {
        match self {
            Self::Read => 0,
            Self::Write => 1,
        }
    }
}

/// Builds [`EffectRules`].
#[derive(Debug, Default)]
pub(crate) struct EffectRulesBuilder {
    paths: Vec<(PathRule, Glob)>,
    hosts: HashMap<String, Vec<HostRule>>,
}

impl EffectRulesBuilder {
    /// A rule on a path effect.
    pub(crate) fn path(&mut self, rule: usize, kind: Kind, action: RuleAction, glob: Glob) {
        let absolute = glob.glob().starts_with('/');
        self.paths.push((
            PathRule {
                rule,
                kind,
                action,
                absolute,
            },
            glob,
        ));
    }

    /// A rule on a host (`docs.rs`, `*.example.com`), its name in normal form
    /// ([`hosts::normalize`]: the caller has checked that it has one).
    pub(crate) fn host(&mut self, rule: usize, action: RuleAction, pattern: &str) {
        let pattern = pattern.trim();
        let (name, subdomains) = match pattern.strip_prefix("*.") {
            Some(rest) => (rest, true),
            None => (pattern, false),
        };
        let host = hosts::normalize(name).unwrap_or_else(|| name.to_ascii_lowercase());
        self.hosts.entry(host).or_default().push(HostRule {
            rule,
            action,
            subdomains,
        });
    }

    /// The compiled rules.
    ///
    /// # Errors
    ///
    /// When the globs cannot be compiled together.
    pub(crate) fn build(self) -> Result<EffectRules, globset::Error> {
        let (paths, globs): (Vec<PathRule>, Vec<Glob>) = self.paths.into_iter().unzip();
        let globs_of = |restricting: bool, kind: Kind| {
            PathGlobs::build(
                paths
                    .iter()
                    .zip(&globs)
                    .enumerate()
                    .filter(move |(_, (r, _))| {
                        r.kind == kind && (r.action != RuleAction::Allow) == restricting
                    })
                    .map(|(i, (r, g))| (i, r, g)),
                // Deny and ask rules (restricting) have folded globs.
                restricting,
            )
        };
        let mut prefixes: BTreeMap<String, Vec<usize>> = BTreeMap::new();
        let mut write_prefixes: BTreeMap<String, Vec<usize>> = BTreeMap::new();
        for (i, (rule, glob)) in paths.iter().zip(&globs).enumerate() {
            if rule.action == RuleAction::Allow {
                continue;
            }
            let into = match rule.kind {
                Kind::Read => &mut prefixes,
                Kind::Write => &mut write_prefixes,
            };
            into.entry(literal_prefix(glob.glob())).or_default().push(i);
        }
        Ok(EffectRules {
            restricting: [globs_of(true, Kind::Read)?, globs_of(true, Kind::Write)?],
            allowing: [globs_of(false, Kind::Read)?, globs_of(false, Kind::Write)?],
            paths,
            prefix_of: prefixes
                .iter()
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect(),
            prefixes: Prefixes(prefixes.into_iter().collect()),
            write_prefixes: Prefixes(write_prefixes.into_iter().collect()),
            hosts: self.hosts,
        })
    }
}

/// The directories of a glob before its first glob character (`secrets` for `secrets/**`,
/// `/etc` for `/etc/*.conf`, empty for `**/*.pem`).
fn literal_prefix(glob: &str) -> String {
    let parts: Vec<&str> = glob
        .split('/')
        .take_while(|p| !p.contains(['*', '?', '[', '{']))
        .collect();
    let mut prefix = parts.join("/");
    if parts.len() == glob.split('/').count() {
        // No glob character at all: the prefix is the path's directory.
        prefix = match prefix.rsplit_once('/') {
            Some((dir, _)) => dir.to_owned(),
            None => String::new(),
        };
    }
    if prefix.is_empty() && glob.starts_with('/') {
        "/".to_owned()
    } else {
        prefix
    }
}

impl EffectRules {
    /// Whether there are no rules on effects.
    pub(crate) fn is_empty(&self) -> bool {
        self.paths.is_empty() && self.hosts.is_empty()
    }

    /// Whether a deny or ask rule names a path effect of this kind: only then do a shell
    /// command's paths of that kind need reading (an allow on a path effect covers file
    /// tools only).
    pub(crate) fn restricts(&self, kind: Kind) -> bool {
        !self.restricting[kind.at()].is_empty()
    }

    /// The deny and ask rules on reads a tree may reach: its own path matches, or a file
    /// under it does. (The tree's own path is compared by [`PathGlobs::matching`], by the
    /// caller.)
    fn reaching(&self, tree: &NamedPath, places: &Places<'_>, out: &mut Vec<usize>) {
        let globs = &self.restricting[Kind::Read.at()];
        let mut candidates: Vec<usize> = Vec::new();
        for f in tree.forms() {
            for (text, absolute) in [(f.relative(), false), (Some(f.absolute()), true)] {
                let Some(text) = text else { continue };
                // The literal parts of deny and ask globs are folded.
                let text = crate::paths::fold(text);
                let text = text.as_ref();
                // No rule of this side: nothing it finds would be taken.
                if !globs.has_side(absolute) {
                    continue;
                }
                let mut take = |rules: &Vec<usize>| {
                    candidates.extend(
                        rules
                            .iter()
                            .filter(|&&i| self.paths[i].absolute == absolute),
                    );
                };
                // Globs whose literal part lies below the tree: after it in order, starting
                // with its text and a `/` (the root: every glob of its kind).
                let whole = text.is_empty() || text == "/";
                for (prefix, rules) in self.prefixes.from(text, false) {
                    let Some(rest) = prefix.strip_prefix(text) else {
                        break;
                    };
                    if whole || rest.starts_with('/') {
                        take(rules);
                    }
                }
                // Globs whose literal part is the tree or a directory above it (`a/b/c`,
                // `a/b`, `a`, and the root), looked up as slices of its text.
                let ancestors = std::iter::once(text.len())
                    .chain(text.match_indices('/').map(|(i, _)| i).filter(|&i| i > 0))
                    .map(|end| &text[..end])
                    .chain(std::iter::once(if absolute { "/" } else { "" }));
                for dir in ancestors {
                    if let Some(rules) = self.prefix_of.get(dir) {
                        take(rules);
                    }
                }
            }
        }
        candidates.sort_unstable();
        candidates.dedup();
        candidates.retain(|i| !out.contains(i));
        if candidates.is_empty() {
            return;
        }
        // Ground truth: the files under the tree, each matched once against every glob.
        let root = PathBuf::from(tree.real.absolute());
        if !root.is_dir() {
            return;
        }
        let mut seen = 0usize;
        let mut stack = vec![root];
        let mut hits = Vec::new();
        while let Some(dir) = stack.pop() {
            let Ok(entries) = std::fs::read_dir(&dir) else {
                continue;
            };
            for entry in entries.flatten() {
                seen += 1;
                if seen > MAX_TREE_FILES {
                    out.extend(candidates);
                    return;
                }
                let path = entry.path();
                let f = form(places, &path);
                globs.matching(&NamedPath::same(f), true, &mut hits);
                candidates.retain(|i| {
                    let hit = hits.contains(i);
                    if hit {
                        out.push(*i);
                    }
                    !hit
                });
                hits.clear();
                if candidates.is_empty() {
                    return;
                }
                if entry.file_type().is_ok_and(|t| t.is_dir()) {
                    stack.push(path);
                }
            }
        }
    }

    /// The deny and ask rules on writes whose glob starts at or below the path written (a
    /// directory may receive any file: `Write(.github/**)` for a copy into `.github`). The
    /// workspace root and `/` are left out: a write into them is judged by its own name.
    fn below_write(&self, p: &NamedPath, out: &mut Vec<usize>) {
        let globs = &self.restricting[Kind::Write.at()];
        for f in p.forms() {
            for (text, absolute) in [(f.relative(), false), (Some(f.absolute()), true)] {
                // No rule of this side (the same rules as the write prefixes): nothing it
                // finds would be taken.
                if !globs.has_side(absolute) {
                    continue;
                }
                let Some(text) = text.map(|t| t.trim_end_matches('/')) else {
                    continue;
                };
                if text.is_empty() {
                    continue;
                }
                // The literal parts of deny and ask globs are folded.
                let text = crate::paths::fold(text);
                let text = text.as_ref();
                for (prefix, rules) in self.write_prefixes.from(text, true) {
                    let Some(rest) = prefix.strip_prefix(text) else {
                        break;
                    };
                    if rest.is_empty() || rest.starts_with('/') {
                        out.extend(
                            rules
                                .iter()
                                .filter(|&&i| self.paths[i].absolute == absolute),
                        );
                    }
                }
            }
        }
    }

    /// The hits of effect rules on a call. Deny and ask rules hit on any matching effect;
    /// an allow rule hits (covers) only a file tool's call of its kind whose every path it
    /// matches as resolved.
    pub(crate) fn lookup(&self, effects: &CallEffects, places: &Places<'_>) -> Vec<Hit> {
        let mut hits = Vec::new();
        if self.is_empty() {
            return hits;
        }
        let restricting = |i: usize| Hit {
            rule: self.paths[i].rule,
            command: None,
            loose: true,
            words: 0,
            doubt: None,
        };
        // A path of a kind only known when the call runs: every deny or ask rule on paths of
        // that kind may apply.
        for kind in [Kind::Read, Kind::Write] {
            if effects.unread[kind.at()] {
                let rules = self
                    .paths
                    .iter()
                    .filter(|r| r.kind == kind && r.action != RuleAction::Allow);
                hits.extend(rules.map(|r| Hit {
                    rule: r.rule,
                    command: None,
                    loose: true,
                    words: 0,
                    doubt: Some(Doubt::Path),
                }));
            }
        }
        // Contents printed from the repository, paths unnamed: every deny or ask rule on
        // reads may apply.
        if effects.history {
            let rules = self
                .paths
                .iter()
                .filter(|r| r.kind == Kind::Read && r.action != RuleAction::Allow);
            hits.extend(rules.map(|r| Hit {
                rule: r.rule,
                command: None,
                loose: true,
                words: 0,
                doubt: Some(Doubt::History),
            }));
        }
        // A host that cannot be told: every deny or ask rule on hosts may apply.
        if !effects.unknown_hosts.is_empty() {
            let rules = self.hosts.values().flatten();
            hits.extend(
                rules
                    .filter(|r| r.action != RuleAction::Allow)
                    .map(|r| Hit {
                        rule: r.rule,
                        command: None,
                        loose: true,
                        words: 0,
                        doubt: Some(Doubt::Host),
                    }),
            );
        }
        let mut scratch = Vec::new();
        // The resolved form's matches of each path a file tool names, for its allows.
        let mut real_matches: Vec<Vec<usize>> = Vec::new();
        let allow_list = match effects.file_tool {
            Some(Access::Read) if effects.trees.is_empty() => Some(Kind::Read),
            Some(Access::Write) => Some(Kind::Write),
            _ => None,
        };
        for (list, kinds, covers) in [
            (&effects.reads, &[Kind::Read][..], true),
            (&effects.writes, &[Kind::Write][..], true),
            (&effects.opaque, &[Kind::Read, Kind::Write][..], false),
            (&effects.trees, &[Kind::Read][..], false),
        ] {
            // The allows of a file tool's kind, when this list holds its paths.
            let allows = allow_list
                .filter(|k| covers && kinds == [*k])
                .map(|k| &self.allowing[k.at()]);
            for p in list {
                for kind in kinds {
                    self.restricting[kind.at()].matching(p, false, &mut scratch);
                    hits.extend(scratch.drain(..).map(restricting));
                }
                if let Some(allows) = allows {
                    let mut real = Vec::new();
                    allows.matching(p, true, &mut real);
                    real_matches.push(real);
                }
            }
        }
        if self.restricts(Kind::Write) {
            for p in effects.writes.iter().chain(&effects.opaque) {
                self.below_write(p, &mut scratch);
                hits.extend(scratch.drain(..).map(restricting));
            }
        }
        if self.restricts(Kind::Read) {
            for t in effects.trees.iter().chain(&effects.opaque) {
                self.reaching(t, places, &mut scratch);
                hits.extend(scratch.drain(..).map(restricting));
            }
        }
        // Hosts: a deny or ask rule hits on any host; an allow rule covers a fetch (a tool
        // that is neither a shell nor a file tool) whose every host it names.
        let mut allowed: Option<Vec<usize>> = None;
        for host in &effects.hosts {
            let mut here = Vec::new();
            for (suffix, subdomain) in host_suffixes(host) {
                for r in self.hosts.get(suffix).into_iter().flatten() {
                    if r.subdomains != subdomain {
                        continue;
                    }
                    if r.action == RuleAction::Allow {
                        here.push(r.rule);
                    } else {
                        hits.push(Hit {
                            rule: r.rule,
                            command: None,
                            loose: true,
                            words: 0,
                            doubt: None,
                        });
                    }
                }
            }
            allowed = Some(match allowed {
                None => here,
                Some(a) => a.into_iter().filter(|r| here.contains(r)).collect(),
            });
        }
        if effects.fetch && effects.unknown_hosts.is_empty() {
            hits.extend(allowed.unwrap_or_default().into_iter().map(|rule| Hit {
                rule,
                command: None,
                loose: false,
                words: 0,
                doubt: None,
            }));
        }
        if let Some(kind) = allow_list {
            hits.extend(self.covering_allows(kind, &real_matches));
        }
        // One hit a rule, the surest: read for certain before in doubt, then covering.
        hits.sort_unstable_by_key(|h| (h.rule, h.doubt.is_some(), h.loose));
        hits.dedup_by_key(|h| h.rule);
        hits
    }

    /// Allow rules on a path effect that cover a file tool's call: every path, as resolved,
    /// matches the rule (`real_matches`: each path's matches among the allows of `kind`).
    fn covering_allows(&self, kind: Kind, real_matches: &[Vec<usize>]) -> Vec<Hit> {
        let Some((first, rest)) = real_matches.split_first() else {
            return Vec::new();
        };
        first
            .iter()
            .copied()
            .filter(|&i| {
                let rule = &self.paths[i];
                rule.kind == kind
                    && rule.action == RuleAction::Allow
                    && rest.iter().all(|m| m.contains(&i))
            })
            .map(|i| Hit {
                rule: self.paths[i].rule,
                command: None,
                loose: false,
                words: 0,
                doubt: None,
            })
            .collect()
    }
}

/// A host and each parent domain: `(host, false)` then `(parent, true)` for each parent
/// (`a.b.c` → `a.b.c`, then `b.c` and `c` as subdomain matches).
fn host_suffixes(host: &str) -> Vec<(&str, bool)> {
    let mut out = vec![(host, false)];
    let mut rest = host;
    while let Some((_, parent)) = rest.split_once('.') {
        out.push((parent, true));
        rest = parent;
    }
    out
}

/// How a rule names an effect: `Read(glob)`, `Write(glob)`, `Net(host)`, `Run(command)`, or
/// a path rule on a file tool.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Named {
    /// A path effect.
    Path(Kind),
    /// A host.
    Net,
    /// A command that runs (a shell command prefix on every shell tool).
    Run,
}

/// The effect a rule on `tool` names, if it names one.
pub(crate) fn named(tool: &str, catalog: &ToolCatalog) -> Option<Named> {
    match tool {
        "Read" => Some(Named::Path(Kind::Read)),
        "Write" => Some(Named::Path(Kind::Write)),
        "Net" => Some(Named::Net),
        "Run" => Some(Named::Run),
        _ => match filesystem::access(tool, catalog)? {
            Access::Read => Some(Named::Path(Kind::Read)),
            Access::Write => Some(Named::Path(Kind::Write)),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literal_prefixes_stop_at_the_first_glob() {
        assert_eq!(literal_prefix("secrets/**"), "secrets");
        assert_eq!(literal_prefix("**/*.pem"), "");
        assert_eq!(literal_prefix("/etc/*.conf"), "/etc");
        assert_eq!(literal_prefix("a/b/c.txt"), "a/b");
        assert_eq!(literal_prefix(".env"), "");
    }

    #[test]
    fn host_rules_match_the_host_or_its_subdomains_only() {
        let mut b = EffectRulesBuilder::default();
        b.host(0, RuleAction::Deny, "docs.rs");
        b.host(1, RuleAction::Deny, "*.example.com");
        let rules = b.build().unwrap();
        let hits = |host: &str| {
            let effects = CallEffects {
                hosts: vec![host.to_owned()],
                ..CallEffects::default()
            };
            let places = Places::new(Path::new("/nonexistent"), None, None);
            rules
                .lookup(&effects, &places)
                .into_iter()
                .map(|h| h.rule)
                .collect::<Vec<_>>()
        };
        assert_eq!(hits("docs.rs"), vec![0]);
        assert!(hits("evil-docs.rs").is_empty());
        assert!(hits("docs.rs.evil.com").is_empty());
        assert_eq!(hits("api.example.com"), vec![1]);
        assert!(hits("example.com").is_empty());
    }
}
