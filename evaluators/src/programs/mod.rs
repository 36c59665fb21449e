//! The single source of shell knowledge: a declarative table of programs ([`table`]), the
//! argument cursor that reads options the way each program does ([`cursor`]), the parsers of
//! the embedded languages the policy allows at all (sed scripts, awk programs, jq filters,
//! find expressions, git subcommands), and [`model`], which turns one simple command into its
//! **effects**: the paths it reads, looks at, searches or writes, or the reason it cannot be
//! modeled.
//!
//! A command is modeled only when every word of it is understood; an unknown program, an
//! unknown or abbreviated option, an unparsed script or a word that may be an option only known
//! when it runs makes it [`Model::Unmodeled`], and the policy never allows what is unmodeled.

mod awk;
pub(crate) mod build_config;
pub(crate) mod cargo_lock;
pub(crate) mod changers;
pub mod cursor;
mod find;
mod git;
pub(crate) mod inline;
mod inline_perl;
pub(crate) use git::{
    display_setting, global_option_span, is_git_command, outside_repository, pathspec_tree,
    plain_revision, printed_revision, verifies_signatures,
};
mod given;
pub(crate) mod go_modules;
pub(crate) mod go_toolchain;
pub(crate) mod sed;
pub(crate) mod spec;
pub mod table;
pub(crate) mod tool_settings;

use rustc_hash::FxHashMap as HashMap;
use std::sync::OnceLock;

use crate::shell::{SimpleCommand, Word, WorkingDir};
use cursor::{Item, Syntax};
pub use given::runs_given;
use spec::{Options, Value};
pub use table::{Assigns, Family, NETWORK, Operands, Program, Special, assigns_variables, lookup};

/// A tree a command reads recursively.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tree {
    /// Its root.
    pub root: Word,
    /// Whether hidden files are read too.
    pub hidden: bool,
    /// Whether symlinks inside it are followed.
    pub follow: bool,
    /// Whether only the files git tracks are read (`git grep`).
    pub tracked: bool,
    /// Only files with these names are read (none: every file).
    pub names: Vec<String>,
    /// Files with these names are not read.
    pub excludes: Vec<String>,
    /// Whether ignore files (`.gitignore`, `.ignore`) are honoured, as `rg` does.
    pub ignores: bool,
}

impl Tree {
    /// Every file of the tree at `root`, hidden ones included, none left out by name or
    /// ignore file; the files its symlinks lead to too when `follow`.
    pub fn whole(root: Word, follow: bool) -> Self {
        Self {
            root,
            hidden: true,
            follow,
            tracked: false,
            names: Vec::new(),
            excludes: Vec::new(),
            ignores: false,
        }
    }
}

/// What one modeled command does to files.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Effects {
    /// Why what it does beyond the effects listed cannot be proven harmless, when it cannot:
    /// the effects are judged still (a secret it reads binds in every mode), and the command
    /// is unproven besides.
    pub unproven: Option<String>,
    /// Paths whose contents it reads.
    pub reads: Vec<Word>,
    /// Whether it prints only a digest of what it reads: counts, sums, names, types or a
    /// status, never the bytes (`wc`, `sha256sum`, `grep -c`, `rg -l`). A file that is a
    /// secret by its content alone is then read and not printed; one a name or a place makes
    /// a secret still counts.
    pub digest: bool,
    /// Paths it only looks at (names, sizes, types).
    pub meta: Vec<Word>,
    /// Trees whose files it reads.
    pub trees: Vec<Tree>,
    /// Paths it writes.
    pub writes: Vec<Word>,
    /// Repository objects it prints (`HEAD:path`, pathspecs): checked against secrets only.
    pub objects: Vec<Word>,
    /// Files that must exist for the command to only read (`Cargo.lock` for `cargo tree`).
    pub requires: Vec<Word>,
    /// Files of the workspace (from its root up to the command's directory) whose presence
    /// makes the command run programs they name (`.cargo/config.toml`).
    pub forbids: Vec<Word>,
    /// Words the program reads as a file when a file (not a directory) of that name exists,
    /// and as something else otherwise (mikefarah's `yq .env`): each one that names a file
    /// when the call is judged is judged as a read.
    pub reads_if_file: Vec<Word>,
    /// The directory its paths are relative to, when it moves (`git -C DIR`).
    pub cwd: Option<WorkingDir>,
    /// Whether it reads the configuration of the repository it runs in (git): only the
    /// workspace's own repository is trusted, never one nested in it.
    pub repository: bool,
    /// Whether it prints file contents from the repository's history (`git show`, `git log
    /// -p`, `git cat-file -p`): then the repository must track no secret.
    pub history: bool,
    /// Words that must name existing paths in the workspace, else the program reads them as
    /// revisions (`git grep PATTERN REV`, `git show v1.2`, `git diff main...topic`): each
    /// must then name commits the repository's refs reach, whose files the history's check
    /// covers; any other revision's files may hold a secret no check saw.
    pub paths_not_revisions: Vec<Word>,
    /// Whether the paths it looks at ([`Effects::meta`]) are walked through symlinks (`find
    /// -L`, `du -L`, `tree -l`, `fd -L`): then no link below them may leave the workspace, or
    /// the names and sizes of what lies outside are printed.
    pub walks_links: bool,
    /// Whether each path it reads ([`Effects::reads`]) is a list of names whose every file
    /// it reads as well (`sha256sum -c SUMS`): the names are only known from the lists'
    /// contents.
    pub lists: bool,
    /// Whether it prints the URLs of the repository's remotes (`git remote -v`, `git config
    /// remote.origin.url`): then the repository configuration must hold no credential.
    pub remote_urls: bool,
    /// Whether it resolves a cargo workspace's dependencies (`cargo tree`, `cargo metadata`):
    /// then it only reads when `Cargo.lock` answers every dependency and every locked package
    /// is in cargo's cache ([`cargo_lock::resolves_nothing`]).
    pub cargo_resolve: bool,
    /// Whether it is the `go` command, which switches to (downloads and runs) the toolchain
    /// a `go.mod` or `go.work` asks for when it is newer than the installed one
    /// ([`go_toolchain::keeps_local`]).
    pub go_toolchain: bool,
    /// Whether it prints messages of commits or annotated tags, or the names and addresses
    /// of their authors (`git log`, `git show`, `git cat-file -p HEAD`, `git blame`): then no
    /// message, identity, reflog entry or `.mailmap` line the repository holds may be a
    /// secret.
    pub messages: bool,
    /// Whether it prints what the git directory keeps beside the objects (`git status` in
    /// its long form: a rebase's todo list and done commands, the branch a bisect started
    /// from, the upstream the configuration names; `git worktree list -v`: why a worktree is
    /// locked; `git check-ignore -v`: the ignore patterns that match): then none of it may
    /// be a secret.
    pub in_progress: bool,
    /// Whether it may print the names of refs, branches' upstreams or remotes (`git branch`,
    /// `git tag`, `for-each-ref`, `describe`, `log --decorate`, `status -sb`, `remote`):
    /// then none of them may be a secret.
    pub ref_names: bool,
    /// Whether it may print the names of files the index holds or the work tree's walk
    /// finds (`git ls-files`, `git status`, `git diff --stat`): then none may hold a secret.
    pub path_names: bool,
    /// Whether it may print the names of files any commit holds (`git ls-tree`, `git show`,
    /// `git log --stat`, `git rev-list --objects`): then none may hold a secret.
    pub history_names: bool,
    /// Whether the names it may print include files the ignore rules leave out (`git status
    /// --ignored`, `git clean -x`): then the whole work tree's names are checked.
    pub ignored_names: bool,
    /// Whether what it prints of the git directory's state includes the ignore pattern that
    /// matches (`git check-ignore -v`): then every `.gitignore` of the work tree is read too.
    pub ignore_patterns: bool,
    /// Whether it prints the attributes the attribute files give paths, values and all
    /// (`git check-attr`): then every `.gitattributes` of the work tree and the repository's
    /// `info/attributes` are read too.
    pub attribute_values: bool,
    /// Whether it is the `go` command loading the module's packages (`go list`, `go doc`):
    /// it downloads the modules the module cache lacks ([`go_modules::downloads`]) and
    /// applies the build flags `GOFLAGS` names.
    pub go_packages: bool,
    /// Whether it looks at the paths of [`Effects::meta`] one level down at most (`ls`
    /// without `-R`, `stat`): the names, sizes and types of what they name and of a
    /// directory's entries, never a file's contents nor a whole tree's names, so that a
    /// secret directory or one outside the workspace may be looked at.
    pub meta_one_level: bool,
    /// Whether it runs Python code that imports standard modules Python does not load at
    /// start (`python3 -c 'import json'`, `python3 -m json.tool`): Python looks for them
    /// first in the directory it runs in, so no entry there may be named as a standard
    /// module ([`inline::shadowing_entry`]).
    pub python_std_modules: bool,
    /// Paths that must be regular files (not symlinks nor directories) for the command to
    /// only read them (`node -p "require('./package.json').name"` parses a JSON file, but
    /// runs a directory's `index.js`).
    pub regular_files: Vec<Word>,
}

/// A command as the table reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Model {
    /// Every word is understood; these are its effects (boxed: they are many times the size
    /// of an unmodeled command's reason).
    Modeled(Box<Effects>),
    /// Something in it is not understood: why, in words.
    Unmodeled(String),
}

type Result<T> = std::result::Result<T, String>;

/// A program with its options parsed.
struct Entry {
    program: &'static Program,
    options: Options,
}

/// The command with each long option it abbreviates written out (`grep -r --inv x .` as
/// `grep -r --invert-match x .`), when one of its words is an unambiguous prefix of exactly
/// one long option the table lists for its program, as getopt_long and the other option
/// readers of these programs expand it; `None` when no word is. The table may not list an
/// option of exactly that name, so the command so written is only judged for what binds
/// (its reading can make a verdict stricter, never looser).
pub fn abbreviations_written_out(cmd: &SimpleCommand) -> Option<SimpleCommand> {
    let program = cmd.program()?;
    let entry = entries().get(program.rsplit('/').next().unwrap_or(program))?;
    let mut out = cmd.clone();
    let mut changed = false;
    for w in out.words.iter_mut().skip(1) {
        let Some(text) = w.literal() else { continue };
        if text == "--" {
            break;
        }
        let Some(body) = text.strip_prefix("--") else {
            continue;
        };
        let (name, value) = match body.split_once('=') {
            Some((n, v)) => (n, Some(v)),
            None => (body, None),
        };
        if name.is_empty() || entry.options.long(name).is_some() {
            continue;
        }
        let matches = entry.options.long_prefixed(name);
        let [opt] = matches.as_slice() else {
            continue;
        };
        let Some(full) = entry
            .options
            .long_names_of(opt)
            .into_iter()
            .find(|n| n.starts_with(name))
        else {
            continue;
        };
        let written = match value {
            Some(v) => format!("--{full}={v}"),
            None => format!("--{full}"),
        };
        *w = Word::literal_text(written);
        changed = true;
    }
    changed.then_some(out)
}

/// The table's program of a name, found by its hash (the table is a list, searched from the
/// start for a name it does not hold).
pub(crate) fn program_named(name: &str) -> Option<&'static Program> {
    entries().get(name).map(|e| e.program)
}

/// Whether the table's short option `-c` of `program` takes a value (`read -p PROMPT`).
pub(crate) fn takes_value(program: &str, c: char) -> bool {
    entries()
        .get(program)
        .and_then(|e| e.options.short(c))
        .is_some_and(|o| o.value != Value::None)
}

fn entries() -> &'static HashMap<&'static str, Entry> {
    static ENTRIES: OnceLock<HashMap<&'static str, Entry>> = OnceLock::new();
    ENTRIES.get_or_init(|| {
        let mut map = HashMap::default();
        for program in table::PROGRAMS {
            for name in program.names {
                let mut options = Options::parse(program.options);
                options.inert = INERT.contains(name);
                options.checked_operands = matches!(
                    program.operands,
                    Operands::Paths
                        | Operands::Meta
                        | Operands::MetaTrees
                        | Operands::Trees
                        | Operands::Walked
                        | Operands::PatternPaths
                        | Operands::PatternMeta
                        | Operands::InOut
                        | Operands::Special(
                            Special::Jq | Special::Sed | Special::Awk | Special::Find
                        )
                );
                map.insert(*name, Entry { program, options });
            }
        }
        map
    })
}

/// Programs all of whose real options are in the table and harmless.
const INERT: &[&str] = &["basename", "dirname"];

/// Directories whose programs are the system's own: `/usr/bin/cat` is `cat`.
const SYSTEM_BIN: &[&str] = &["/usr/bin/", "/bin/", "/usr/local/bin/"];

/// Programs (GNU binutils, compilers and linkers, the JDK's tools) that read an argument
/// `@FILE` as more arguments from FILE: its words are printed back in their errors, and may be
/// options.
const RESPONSE_FILES: &[&str] = &[
    "strings",
    "nm",
    "objdump",
    "readelf",
    "size",
    "addr2line",
    "c++filt",
    "ar",
    "ranlib",
    "strip",
    "objcopy",
    "elfedit",
    "gprof",
    "as",
    "ld",
    "ld.bfd",
    "ld.gold",
    "ld.lld",
    "gcc",
    "g++",
    "cc",
    "c++",
    "cpp",
    "clang",
    "clang++",
    "javac",
    "java",
    "javadoc",
    "jar",
];

/// `fd` without the commands its `-x`/`--exec`/`-X`/`--exec-batch` runs (each up to `;` or
/// the end): the walk that finds the paths they are given.
pub(crate) fn fd_walk(cmd: &SimpleCommand) -> SimpleCommand {
    let mut walk = cmd.clone();
    let mut words = Vec::new();
    let mut running = false;
    for (i, w) in cmd.words.iter().enumerate() {
        let text = w.literal();
        if i > 0 && !running {
            running = text.is_some_and(|t| {
                matches!(t, "-x" | "-X" | "--exec" | "--exec-batch")
                    || t.starts_with("--exec=")
                    || t.starts_with("--exec-batch=")
            });
            if running {
                continue;
            }
        } else if running {
            running = text != Some(";");
            continue;
        }
        words.push(w.clone());
    }
    walk.words = words;
    walk
}

/// Reads one simple command.
pub fn model(cmd: &SimpleCommand) -> Model {
    // What `fd -x`/`-X` runs is a command of its own in the script (`shell::unwrap`), given
    // the paths found from fd's own directory: fd itself is its walk. Only the spellings
    // that are a word of their own are read so (`--exec=CMD` holds the program).
    if matches!(cmd.program(), Some("fd" | "fdfind")) {
        let walk = fd_walk(cmd);
        if walk.words.len() != cmd.words.len() {
            let attached = cmd
                .words
                .iter()
                .filter_map(Word::literal)
                .any(|t| t.starts_with("--exec=") || t.starts_with("--exec-batch="));
            if attached {
                return Model::Unmodeled(
                    "`fd --exec=CMD` names the program it runs inside an option".to_owned(),
                );
            }
            return model(&walk);
        }
    }
    match effects(cmd) {
        Ok(e) => Model::Modeled(Box::new(e)),
        Err(why) => Model::Unmodeled(why),
    }
}

/// The programs a command may run besides itself, by design (`cargo` runs `rustc`).
pub fn also_runs(program: &str) -> &'static [&'static str] {
    program_named(program).map_or(&[], |p| p.runs)
}

fn effects(cmd: &SimpleCommand) -> Result<Effects> {
    let first = cmd
        .words
        .first()
        .ok_or_else(|| "it runs nothing".to_owned())?;
    let Some(name) = first.literal() else {
        return Err("its program is only known when it runs".to_owned());
    };
    let system_program = SYSTEM_BIN.iter().any(|d| {
        name.strip_prefix(d)
            .is_some_and(|rest| !rest.is_empty() && !rest.contains('/') && rest != "..")
    });
    if name.contains('/') && !system_program {
        return Err(format!(
            "it runs `{name}` by path, not a program the policy knows"
        ));
    }
    let program = name.rsplit('/').next().unwrap_or(name);
    let entry = entries()
        .get(program)
        .ok_or_else(|| format!("the policy does not know what `{program}` does"))?;
    let args = cmd.args();
    // `--help` or `--version` alone: a GNU program that reads files, filters text, searches
    // or tells about the system prints its usage or version and exits before it reads or
    // runs anything (checked with strace: `find`, `tar`, `sed`, `awk`, `split`, `sort`,
    // `xargs`, `jq`, `rg`, `tree`, `dd`). Network clients resolve names first.
    let usage = matches!(args, [w] if matches!(w.literal(), Some("--help" | "--version")));
    // awk reads options only before its program, as POSIX says, yet knows these two.
    let gnu_usage = entry.program.syntax != Syntax::Posix
        || matches!(program, "awk" | "gawk" | "mawk" | "nawk");
    if usage
        && gnu_usage
        && matches!(
            entry.program.family,
            table::Family::FileReader
                | table::Family::TextFilter
                | table::Family::Search
                | table::Family::Info
        )
        && !NETWORK.contains(&program)
    {
        return Ok(Effects::default());
    }
    if RESPONSE_FILES.contains(&program)
        && let Some(w) = args.iter().find(|w| {
            w.literal()
                .map_or(w.prefix.is_empty(), |t| t.starts_with('@'))
                || w.prefix.starts_with('@')
        })
    {
        return Err(format!(
            "`{program}` reads `{}` as a response file: more arguments from a file, which may print it",
            w.raw
        ));
    }
    let mut e = Effects::default();
    match entry.program.operands {
        Operands::Special(special) => {
            self::special(
                special,
                program,
                entry,
                args,
                cmd.wraps,
                cmd.argument_vector,
                &mut e,
            )?;
        }
        Operands::Command => {
            let inner = wrapped_command(program, args)?;
            let before = &args[..inner.unwrap_or(args.len())];
            let mut flags = Flags::default();
            options(read_args(entry, before)?, &mut e, &mut flags)?;
            // `command -v NAME` prints an alias's definition, `command -V NAME` a function's
            // body too, as `alias` and `type` do.
            if program == "command" && command_lookup(before) {
                return Err("`command -v` and `-V` print the definitions of aliases (and `-V` the bodies of shell functions), which may hold tokens and keys; `which` finds a program".to_owned());
            }
            // A wrapper whose command the shell reader did not unwrap runs something unread.
            if inner.is_some()
                && !cmd.wraps
                && !(program == "command" && command_lookup(&args[..inner.unwrap_or(0)]))
            {
                return Err(format!("`{program}` runs a command that could not be read"));
            }
            if program == "nohup" {
                return Err("`nohup` writes `nohup.out` when its output is a terminal".to_owned());
            }
            if program == "env" {
                for w in &args[..inner.unwrap_or(args.len())] {
                    if let Some((name, _)) = w.literal().and_then(|t| t.split_once('='))
                        && !name.starts_with('-')
                        && !harmless_variable(name)
                    {
                        return Err(format!(
                            "`env` sets `{name}`, which may steer what programs run or read"
                        ));
                    }
                }
                if inner.is_none() {
                    return Err(
                        "`env` alone prints the environment, which may hold secrets".to_owned()
                    );
                }
            }
        }
        kind => generic(entry, kind, args, &mut e)?,
    }
    e.digest = digest_only(entry, args);
    Ok(e)
}

/// Whether the program of `entry` given `args` prints only a digest of what it reads: the
/// table marks the program so (`wc`) or one of the options given (`grep -c`, `!c`), no
/// option given makes it print the bytes (`cmp -l`, `sha256sum -c` printing its list's
/// lines, `rg --debug`: `!C`), and no option names a file it reads (a pattern file's text
/// is printed back in an error about it: `rg -c -f FILE`).
fn digest_only(entry: &Entry, args: &[Word]) -> bool {
    if !entry.program.digest && !entry.program.options.contains("!c") {
        return false;
    }
    // A word only known when it runs makes each run a question about the file (`grep -q
    // "KEY=$guess" f` in a loop): the answers together are its bytes.
    if args.iter().any(|w| w.literal().is_none()) {
        return false;
    }
    let Ok(items) = read_args(entry, args) else {
        return false;
    };
    let mut digest = entry.program.digest;
    for item in &items {
        if let Item::Opt(o, _) = item {
            if o.has('C') || o.value == Value::Reads {
                return false;
            }
            digest |= o.has('c');
        }
    }
    digest
}

/// What the options found say, for the generic readers.
#[derive(Default)]
struct Flags {
    in_place: bool,
    recursive: bool,
    follow: bool,
    hidden: bool,
    pattern_given: bool,
    files: bool,
    no_index: bool,
    /// Ignore files (`.gitignore`, …) are not honoured.
    no_ignore: bool,
    /// Name globs a search is limited to (`--include`, `rg -g`, `rg -t`); `None` inside
    /// when one of them is not known, which limits nothing.
    names: Vec<Option<String>>,
    /// Name globs a search leaves out.
    excludes: Vec<String>,
    /// The operands are lists of names it reads too (`sha256sum -c`).
    lists: bool,
    /// `rg -g`: globs override the ignore files.
    globbed: bool,
}

/// File names of the `rg` types the policy knows; another type limits nothing.
pub(crate) fn rg_type(name: &str) -> &'static [&'static str] {
    match name {
        "rust" => &["*.rs"],
        "py" | "python" => &["*.py", "*.pyi"],
        "go" => &["*.go"],
        "js" => &["*.js", "*.jsx", "*.mjs", "*.cjs", "*.vue"],
        "ts" | "typescript" => &["*.ts", "*.tsx", "*.mts", "*.cts"],
        "java" => &["*.java", "*.jsp", "*.jspx", "*.properties"],
        "c" => &["*.c", "*.h", "*.H"],
        "cpp" => &[
            "*.cpp", "*.cc", "*.cxx", "*.c++", "*.hpp", "*.hh", "*.hxx", "*.h", "*.inl", "*.C",
            "*.H",
        ],
        "md" | "markdown" => &[
            "*.md",
            "*.markdown",
            "*.mdx",
            "*.mkd",
            "*.mdwn",
            "*.mkdn",
            "*.mdown",
            "*.ron",
        ],
        "toml" => &["*.toml", "Cargo.lock"],
        "html" => &["*.html", "*.htm", "*.xhtml", "*.ejs"],
        "css" => &["*.css", "*.scss"],
        "rb" | "ruby" => &[
            "*.rb",
            "Gemfile",
            "*.gemspec",
            ".irbrc",
            "Rakefile",
            "config.ru",
        ],
        _ => &[],
    }
}

/// Applies the options' own effects; returns the operands.
fn options(items: Vec<Item<'_>>, e: &mut Effects, flags: &mut Flags) -> Result<Vec<Word>> {
    let mut operands = Vec::new();
    for item in items {
        match item {
            Item::Operand(_, w) => operands.push(w),
            Item::Opt(opt, value) => {
                if opt.has('x') {
                    return Err(format!("its option `{}` is not read-only", opt.display));
                }
                flags.in_place |= opt.has('w');
                flags.recursive |= opt.has('R');
                flags.follow |= opt.has('L');
                flags.hidden |= opt.has('H');
                flags.pattern_given |= opt.has('p');
                flags.files |= opt.has('F');
                flags.no_index |= opt.has('N');
                flags.no_ignore |= opt.has('I');
                flags.lists |= opt.has('S');
                let text = value.as_ref().and_then(Word::literal).map(str::to_owned);
                if opt.has('i') {
                    flags.names.push(text.clone());
                }
                if opt.has('e')
                    && let Some(t) = &text
                {
                    flags.excludes.push(t.clone());
                }
                if opt.has('g') {
                    flags.globbed |= text.as_deref().is_none_or(|t| !t.starts_with('!'));
                    match text.as_deref().map(|t| t.strip_prefix('!')) {
                        Some(Some(excluded)) => flags.excludes.push(excluded.to_owned()),
                        // A path glob (`src/**`) is matched against whole paths: no name filter.
                        Some(None) if text.as_deref().is_some_and(|t| !t.contains('/')) => {
                            flags.names.push(text.clone());
                        }
                        _ => flags.names.push(None),
                    }
                }
                if opt.has('t') {
                    let globs = text.as_deref().map(rg_type).unwrap_or(&[]);
                    if globs.is_empty() {
                        flags.names.push(None);
                    }
                    flags
                        .names
                        .extend(globs.iter().map(|g| Some((*g).to_owned())));
                }
                match (opt.value, value) {
                    (Value::Reads, Some(v)) => e.reads.push(v),
                    (Value::Writes, Some(v)) => e.writes.push(v),
                    _ => {}
                }
            }
        }
    }
    Ok(operands)
}

fn read_args<'a>(entry: &'a Entry, args: &[Word]) -> Result<Vec<Item<'a>>> {
    cursor::read(
        args,
        &entry.options,
        entry.program.syntax,
        entry.program.numeric,
    )
}

/// Whether a word may become several words when it runs: an unquoted glob, brace expansion
/// (judged over the word's unquoted text, where a quote inside a group does not end it:
/// `{-true"",-delete}` is two words), the words `xargs` appends, an expansion of every
/// element (`"$@"`, `"${a[@]}"`, quoted or not), or an unquoted expansion whose values are
/// not each one word (no domain, a command's output, a value that is empty, holds a blank
/// or a glob).
pub(crate) fn may_split(word: &Word) -> bool {
    if word.raw == crate::shell::XARGS_INPUT {
        return true;
    }
    let splits = |d: &crate::shell::Domain| {
        !d.producers.is_empty()
            || d.values.iter().any(|v| {
                v.is_empty() || v.contains(char::is_whitespace) || v.contains(['*', '?', '['])
            })
    };
    let raw = word.raw.as_str();
    let mut quote: Option<char> = None;
    let mut unquoted = String::with_capacity(raw.len());
    let mut chars = raw.char_indices();
    while let Some((at, c)) = chars.next() {
        match (quote, c) {
            (None, '\\') => {
                chars.next();
                unquoted.push('_');
            }
            (None, '\'' | '"') => {
                quote = Some(c);
                unquoted.push('_');
            }
            (Some(q), c) if c == q => quote = None,
            (Some('"'), '\\') => {
                chars.next();
            }
            (None, '*' | '?' | '[') => return true,
            (None | Some('"'), '$') if every_element(&raw[at + 1..]) => return true,
            (None, '$' | '`') if word.domain.as_ref().is_none_or(splits) => return true,
            (None, c) => unquoted.push(c),
            _ => {}
        }
    }
    crate::shell::may_expand_braces(&unquoted)
}

/// Whether the text after a `$` expands every positional parameter or array element, each
/// a word of its own even inside double quotes (`$@`, `${@:2}`, `${a[@]}`, `${!a[@]}`), or
/// joins them (`$*`, `${a[*]}`).
fn every_element(after: &str) -> bool {
    if after.starts_with(['@', '*']) {
        return true;
    }
    let Some(inner) = after.strip_prefix('{') else {
        return false;
    };
    let inner = &inner[..inner.find('}').unwrap_or(inner.len())];
    inner.starts_with(['@', '*', '!']) || inner.contains("[@]") || inner.contains("[*]")
}

/// Whether a run-time word's braces may expand into an option (`{x"",-delete}`): every
/// quote is read as absent, so a quoted comma counts as one that separates.
fn braces_give_option(word: &Word) -> bool {
    if word.literal().is_some() || !word.raw.contains('{') {
        return false;
    }
    let text: String = word
        .raw
        .chars()
        .filter(|c| !matches!(c, '"' | '\'' | '\\'))
        .collect();
    if !crate::shell::may_expand_braces(&text) {
        return false;
    }
    let mut alternatives = Vec::new();
    crate::shell::expand_braces(&text, &mut alternatives);
    alternatives.iter().any(|a| a.starts_with(['-', '+']))
}

/// Fails when one of the first `n` operands may become several words: the roles of the
/// operands after it would shift (`grep {x,.env}` is `grep x .env`).
fn single_words(operands: &[Word], n: usize) -> Result<()> {
    match operands.iter().take(n).find(|w| may_split(w)) {
        Some(w) => Err(format!(
            "`{}` may become several words, and the operands after it would change roles",
            w.raw
        )),
        None => Ok(()),
    }
}

fn generic(entry: &Entry, kind: Operands, args: &[Word], e: &mut Effects) -> Result<()> {
    let mut flags = Flags::default();
    let items = read_args(entry, args)?;
    let mut operands = options(items, e, &mut flags)?;
    match kind {
        Operands::PatternPaths | Operands::PatternMeta if !flags.pattern_given => {
            single_words(&operands, 1)?;
            // The pattern is never judged as a path, where what a command prints is checked
            // for options: printed into the pattern's place, `-r` or `-Xrm` is an option.
            if let Some(w) = operands.first()
                && w.domain.as_ref().is_some_and(|d| !d.producers.is_empty())
            {
                return Err(format!(
                    "`{}` is what a command prints when it runs, which may be an option",
                    w.raw
                ));
            }
        }
        Operands::InOut => single_words(&operands, operands.len())?,
        _ => {}
    }
    if flags.in_place {
        e.writes.append(&mut operands);
        return Ok(());
    }
    match kind {
        Operands::None if !operands.is_empty() => {
            return Err(format!(
                "it is given `{}`, and the policy knows no operand of it",
                operands[0].raw
            ));
        }
        Operands::None | Operands::Text | Operands::Command => {}
        Operands::Paths if flags.recursive => {
            e.trees.extend(
                operands
                    .into_iter()
                    .map(|root| tree(root, &flags, true, false)),
            );
        }
        // Without a list, the names are read from its input.
        Operands::Paths if flags.lists && operands.is_empty() => {
            return Err("it reads the files a list on its input names".to_owned());
        }
        Operands::Paths if flags.lists => {
            e.lists = true;
            e.reads.extend(operands);
        }
        Operands::Paths => e.reads.extend(operands),
        Operands::Meta | Operands::MetaTrees => {
            // `du -L` and `tree -l` walk whole trees; `ls -L` looks one level down unless
            // `-R` walks the tree.
            let one_level = kind == Operands::Meta && !flags.recursive;
            e.walks_links |= flags.follow && !one_level;
            e.meta_one_level = one_level;
            // With no operand, the program looks at `.`: that operand is judged too.
            if operands.is_empty() {
                e.meta.push(Word::literal_text("."));
            }
            e.meta.extend(operands);
        }
        // Line counters (`tokei`, `scc`) print counts, never a file's text.
        Operands::Walked => trees(operands, &flags, true, e),
        Operands::Trees => e.trees.extend(operands.into_iter().map(|root| Tree {
            follow: true,
            ..tree(root, &flags, true, false)
        })),
        Operands::PatternPaths | Operands::PatternMeta => {
            if !flags.pattern_given && !flags.files && !operands.is_empty() {
                operands.remove(0);
            }
            if kind == Operands::PatternMeta {
                e.walks_links |= flags.follow;
                let roots = if operands.is_empty() {
                    vec![Word::literal_text(".")]
                } else {
                    operands
                };
                e.meta.extend(roots);
            } else if flags.recursive {
                grep_globs(&mut flags);
                trees(operands, &flags, false, e);
            } else {
                e.reads.extend(operands);
            }
        }
        Operands::InOut => {
            let mut it = operands.into_iter();
            e.reads.extend(it.next());
            e.writes.extend(it);
        }
        Operands::Special(_) => unreachable_special()?,
    }
    Ok(())
}

/// Keeps only the `--exclude`/`--include` globs of `grep` that the tree walk reads as grep
/// does. GNU grep matches them with fnmatch(3) against a file's base name: no braces, `**` is
/// `*`, a `/` never matches, and brackets and escapes follow other rules than the walk's
/// glob matcher. An exclusion outside the plain subset (`*`, `?`, literal characters) is
/// dropped, so the files it may not exclude count as read; such an inclusion limits nothing.
fn grep_globs(flags: &mut Flags) {
    let plain = |g: &str| {
        !g.is_empty()
            && crate::paths::glob_read_exactly(g, false)
            && !g.contains(['[', ']', '/'])
            && !g.contains("**")
    };
    flags.excludes.retain(|g| plain(g));
    for name in &mut flags.names {
        if name.as_deref().is_some_and(|g| !plain(g)) {
            *name = None;
        }
    }
}

fn unreachable_special() -> Result<()> {
    Err("its arguments need a reader the table does not name".to_owned())
}

/// A tree searched as `flags` say; `ignores` for searchers that honour ignore files as `rg`
/// does, unless told not to.
fn tree(root: Word, flags: &Flags, hidden: bool, ignores: bool) -> Tree {
    // One unknown limit limits nothing; with both includes and excludes given, which one
    // decides depends on their order and on the program (grep: the last that matches, and a
    // file no option matches is read when an exclude came first): neither limits.
    let mixed = !flags.names.is_empty() && !flags.excludes.is_empty();
    let names = if mixed || flags.names.iter().any(Option::is_none) {
        Vec::new()
    } else {
        flags.names.iter().flatten().cloned().collect()
    };
    let excludes = if flags.names.is_empty() {
        flags.excludes.clone()
    } else {
        Vec::new()
    };
    Tree {
        root,
        hidden,
        follow: flags.follow,
        tracked: false,
        names,
        excludes,
        ignores: ignores && !flags.no_ignore && !flags.globbed,
    }
}

/// Recursive reads of `roots` (the working directory when none is named).
fn trees(roots: Vec<Word>, flags: &Flags, ignores: bool, e: &mut Effects) {
    let roots = if roots.is_empty() {
        vec![Word::literal_text(".")]
    } else {
        roots
    };
    for root in roots {
        if flags.files {
            e.meta.push(root);
        } else {
            // `rg -g` overrides ignore files and hidden-file rules alike.
            let hidden = flags.hidden || flags.globbed;
            e.trees.push(tree(root, flags, hidden, ignores));
        }
    }
}

fn special(
    special: Special,
    program: &str,
    entry: &Entry,
    args: &[Word],
    cmd_wraps: bool,
    argument_vector: bool,
    e: &mut Effects,
) -> Result<()> {
    if !matches!(special, Special::Echo | Special::Cd | Special::Printf)
        && let Some(w) = args.iter().find(|w| braces_give_option(w))
    {
        return Err(format!(
            "`{}` may become several words, an option among them, only when it runs",
            w.raw
        ));
    }
    match special {
        Special::Echo | Special::Cd => Ok(()),
        Special::Printf => printf(args),
        Special::Sed => sed::model(entry, args, e),
        Special::Awk => awk::model(entry, args, e),
        Special::Jq if matches!(program, "rg" | "ag") => rg(program, entry, args, e),
        Special::Jq => jq(program, entry, args, e),
        Special::Find => find::model(args, e),
        Special::Test => test(program, args),
        Special::Date => date(entry, args, e),
        Special::Query => query(program, args),
        Special::Ps => ps(args),
        Special::Git => git::model(args, e),
        Special::Tar => tar(args, e),
        Special::Dd => dd(args, e),
        Special::Declare => declare(program, args),
        Special::Set => set(args),
        Special::Xxd => xxd(args, e),
        Special::ArchiveList => archive_list(program, args, e),
        Special::Ip => ip(args),
        Special::Netstat => netstat(entry, args),
        Special::Terminal => terminal(program, entry, args),
        Special::ShellCode => shell_code(cmd_wraps, argument_vector, args, e),
        Special::Printenv => {
            let mut names = 0;
            for item in read_args(entry, args)? {
                if let Item::Operand(_, w) = item {
                    let name = literal(&w)?;
                    // `printenv` reads only the environment: whatever the name's case, only
                    // the variables known to be public are.
                    if !crate::shell::public_variable(name) {
                        return Err(format!("`printenv {name}` may print a secret"));
                    }
                    names += 1;
                }
            }
            if names == 0 {
                return Err(
                    "`printenv` alone prints the environment, which may hold secrets".to_owned(),
                );
            }
            Ok(())
        }
        Special::Fingerprint => {
            let items = read_args(entry, args)?;
            if !items
                .iter()
                .any(|i| matches!(i, Item::Opt(o, _) if o.display == "-l"))
            {
                return Err(
                    "`ssh-keygen` creates or changes keys unless it lists a fingerprint (`-l`)"
                        .to_owned(),
                );
            }
            let mut flags = Flags::default();
            let rest = options(items, e, &mut flags)?;
            if !rest.is_empty() {
                return Err("`ssh-keygen -l` takes no operand".to_owned());
            }
            Ok(())
        }
        Special::Read => {
            for item in read_args(entry, args)? {
                let name = match item {
                    Item::Operand(_, w) => w,
                    Item::Opt(o, Some(w)) if o.display == "-a" => w,
                    Item::Opt(..) => continue,
                };
                let name = literal(&name)?;
                // What it reads is only known when it runs: a locale or time zone read
                // (`read TZ <<< ~/.ssh/id_rsa`) may name a file to load.
                if !harmless_shell_assignment(name, None) {
                    return Err(format!(
                        "`{program}` sets `{name}`, which may steer what programs run or load"
                    ));
                }
            }
            Ok(())
        }
        Special::Toolchain => toolchain(program, args, e),
        Special::Listing => listing(program, args),
    }
}

fn literal(word: &Word) -> Result<&str> {
    word.literal()
        .ok_or_else(|| format!("`{}` is only known when it runs", word.raw))
}

/// `printf FORMAT ARGS…`: only `-v` (assigning a variable) is not harmless.
fn printf(args: &[Word]) -> Result<()> {
    match args.first() {
        None => Ok(()),
        Some(w) => match w.literal() {
            Some(t) if t.starts_with("-v") => {
                Err("`printf -v` assigns a shell variable".to_owned())
            }
            Some(_) => Ok(()),
            None if !w.prefix.is_empty() && !w.prefix.starts_with('-') => Ok(()),
            None => Err(format!(
                "its format `{}` may be `-v`, only known when it runs",
                w.raw
            )),
        },
    }
}

/// `rg` and `ag`: a pattern (unless `-e`/`-f` or `--files`), then trees.
fn rg(program: &str, entry: &Entry, args: &[Word], e: &mut Effects) -> Result<()> {
    let mut flags = Flags::default();
    let items = read_args(entry, args)?;
    let mut operands = options(items, e, &mut flags)?;
    if !flags.pattern_given && !flags.files && !operands.is_empty() {
        single_words(&operands, 1)?;
        operands.remove(0);
    }
    // Only `rg`'s ignore rules are the ones the tree walk applies (`.gitignore`, `.ignore`,
    // `.rgignore`, `**`, anchored and negated patterns). `ag` reads `.gitignore` only in
    // part (no `**`, `?` or `dir/glob` patterns, no `.rgignore`): every file it may not
    // ignore counts as searched.
    trees(operands, &flags, program == "rg", e);
    Ok(())
}

/// Words of a jq or yq filter that read the environment, files or modules.
const JQ_FORBIDDEN: &[&str] = &[
    "env",
    "$ENV",
    "ENV",
    "import",
    "include",
    "modulemeta",
    "get_search_list",
    "$__prog_args",
    "strenv",
    "load",
    "load_str",
    "load_base64",
    "load_xml",
    "load_props",
    "load_yaml",
    "eval",
    "getpath_env",
    "halt_error",
    // mikefarah yq: `"${TOKEN}" | envsubst` interpolates the environment.
    "envsubst",
];

/// The words of a jq or yq filter that may name a builtin: an object key accessed with one
/// dot (`.env`, `.scripts.load`) names no builtin and is left out; anything else stays in
/// (`..env`, `."env"`, `{env}`, `$ENV`).
fn jq_words(filter: &str) -> impl Iterator<Item = &str> {
    let bytes = filter.as_bytes();
    // Words are ASCII, so splitting the bytes gives each word's true offset: separators may
    // be characters of several bytes (`é`).
    bytes
        .split(|b| !(b.is_ascii_alphanumeric() || *b == b'_' || *b == b'$'))
        .filter(|w| !w.is_empty())
        .map(move |w| {
            let start = w.as_ptr() as usize - bytes.as_ptr() as usize;
            (start, &filter[start..start + w.len()])
        })
        .filter(move |(start, w)| {
            let start = *start;
            let key = !w.starts_with('$')
                && start >= 1
                && bytes[start - 1] == b'.'
                && (start < 2 || bytes[start - 2] != b'.');
            !key
        })
        .map(|(_, w)| w)
}

/// `jq FILTER FILES…` / `yq`: the filter is checked word by word.
///
/// `yq` is two programs under one name: the Python wrapper of jq (`yq FILTER FILES…`) and
/// mikefarah's Go yq, whose first operand may be a subcommand (`yq e FILTER FILES…`) and
/// whose lexer accepts spellings of its operators the list does not hold (`loadstr`,
/// `strload`). Only what both read alike is modeled: no subcommand, and every operand is
/// checked as a filter too.
fn jq(program: &str, entry: &Entry, args: &[Word], e: &mut Effects) -> Result<()> {
    const YQ_SUBCOMMANDS: &[&str] = &[
        "e",
        "eval",
        "ea",
        "eval-all",
        "completion",
        "shell-completion",
        "help",
        "__complete",
        "__completeNoDesc",
    ];
    // Alone, `--version` and `--help` print and exit before any filter is read.
    if let [only] = args
        && matches!(only.literal(), Some("--version" | "-V" | "--help" | "-h"))
    {
        return Ok(());
    }
    let mut flags = Flags::default();
    let items = read_args(entry, args)?;
    let operands = options(items, e, &mut flags)?;
    single_words(&operands, 1)?;
    let yq = program == "yq";
    if yq
        && let Some(sub) = operands
            .first()
            .and_then(Word::literal)
            .filter(|t| YQ_SUBCOMMANDS.contains(t))
    {
        return Err(format!(
            "`yq {sub}` is a subcommand of one `yq` and a filter of the other"
        ));
    }
    let checked = if yq { operands.len() } else { 1 };
    for (i, word) in operands.iter().enumerate().take(checked) {
        let text = literal(word)?;
        // A file name's characters make no call or pipe: such an operand is a file to both.
        let name_like = text.bytes().all(|b| {
            b.is_ascii_alphanumeric()
                || matches!(b, b'_' | b'.' | b'/' | b'-' | b'+' | b',' | b'@' | b'=')
        });
        if i > 0 && name_like {
            continue;
        }
        if let Some(word) = jq_words(text).find(|w| jq_forbidden(w)) {
            return Err(format!(
                "its filter uses `{word}`, which reads outside its input"
            ));
        }
    }
    let mut operands = operands.into_iter();
    let filter = operands
        .next()
        .ok_or_else(|| "it is given no filter".to_owned())?;
    if yq {
        yq_first_operand(filter, e)?;
    }
    e.reads.extend(operands);
    Ok(())
}

/// mikefarah's yq reads its first operand as a file, not a filter, whenever a file (not a
/// directory) of that name exists (`yq .env` prints `.env`, `yq ~/.ssh/id_rsa` the key):
/// the operand is judged as a read when it names a file ([`Effects::reads_if_file`]).
fn yq_first_operand(filter: Word, e: &mut Effects) -> Result<()> {
    literal(&filter)?;
    e.reads_if_file.push(filter);
    Ok(())
}

/// Whether a filter word names an operator that reads outside the input, in any spelling
/// the lexers accept: case and underscores aside, a listed name, or any name that loads
/// (`loadstr`, `strload`, `xmlload`) or reads the environment (`strenv`, `envsubst`).
fn jq_forbidden(word: &str) -> bool {
    let folded: String = word
        .chars()
        .filter(|c| *c != '_')
        .map(|c| c.to_ascii_lowercase())
        .collect();
    let bare = folded.trim_start_matches('$');
    JQ_FORBIDDEN.contains(&word)
        || JQ_FORBIDDEN.iter().any(|f| {
            let f: String = f
                .chars()
                .filter(|c| *c != '_' && *c != '$')
                .map(|c| c.to_ascii_lowercase())
                .collect();
            f == bare
        })
        || bare.contains("load")
        || bare.starts_with("env")
        || bare.ends_with("env")
}

/// `test` / `[`: never reads contents; `-v` evaluates its subscript as code.
fn test(program: &str, args: &[Word]) -> Result<()> {
    if program == "[[" {
        // The shell reader judged the operators; the operands are data.
        return Ok(());
    }
    if program == "[" && args.last().and_then(Word::literal) != Some("]") {
        return Err("`[` lacks its closing `]`".to_owned());
    }
    if args
        .iter()
        .any(|w| matches!(w.literal(), Some("-v" | "-R")))
    {
        return Err("`-v` evaluates a variable's subscript as code".to_owned());
    }
    let operands: &[Word] = if program == "[" {
        &args[..args.len() - 1]
    } else {
        args
    };
    // With at most four arguments, `test` reads them by their count, and in these shapes a
    // single run-time word can only be an operand: `X`, `OP X`, `X BINOP Y`, `! UNOP X`,
    // `( X )`, `! X BINOP Y`, `( UNOP X )`. Anything else is unmodeled.
    if operands.iter().all(|w| w.literal().is_some()) {
        return Ok(());
    }
    const BINARY: &[&str] = &[
        "=", "==", "!=", "<", ">", "-eq", "-ne", "-lt", "-le", "-gt", "-ge", "-nt", "-ot", "-ef",
    ];
    const UNARY: &[&str] = &[
        "-e", "-f", "-d", "-r", "-w", "-x", "-s", "-L", "-h", "-b", "-c", "-p", "-S", "-t", "-g",
        "-u", "-k", "-O", "-G", "-N", "-z", "-n",
    ];
    let lit = |i: usize| operands.get(i).and_then(Word::literal);
    let is = |i: usize, set: &[&str]| lit(i).is_some_and(|t| set.contains(&t));
    let single = operands
        .iter()
        .all(|w| w.literal().is_some() || !may_split(w));
    let fixed = match operands.len() {
        1 => true,
        2 => is(0, UNARY),
        3 => {
            is(1, BINARY)
                || (lit(0) == Some("!") && is(1, UNARY))
                || (lit(0) == Some("(") && lit(2) == Some(")"))
        }
        4 => {
            (lit(0) == Some("!") && is(2, BINARY))
                || (lit(0) == Some("(") && is(1, UNARY) && lit(3) == Some(")"))
        }
        _ => false,
    };
    if fixed && single {
        return Ok(());
    }
    let w = operands.iter().find(|w| w.literal().is_none());
    Err(format!(
        "`{}` may be an operator, only known when it runs",
        w.map_or("?", |w| w.raw.as_str())
    ))
}

/// `date`: formats only; any other operand sets the clock.
fn date(entry: &Entry, args: &[Word], e: &mut Effects) -> Result<()> {
    let items = read_args(entry, args)?;
    for item in items {
        match item {
            Item::Operand(_, w) => {
                let t = literal(&w)?;
                if !t.starts_with('+') {
                    return Err(format!("`date {t}` sets the system clock"));
                }
            }
            // `date -r FILE` prints the file's modification time: it looks at the file.
            Item::Opt(opt, Some(v)) if opt.display == "-r" => e.meta.push(v),
            // `date -f FILE` reads a date string from each line, where `TZ="FILE"` opens a
            // file (see [`date_string`]).
            Item::Opt(opt, Some(v)) if opt.display == "-f" => {
                e.reads.push(v);
                e.unproven = Some(
                    "`date -f` reads date strings from a file, and a `TZ=\"…\"` line there opens any file"
                        .to_owned(),
                );
            }
            Item::Opt(opt, Some(v)) if opt.display == "-d" => date_string(&v)?,
            Item::Opt(..) => {}
        }
    }
    Ok(())
}

/// A date string GNU programs read with gnulib's `parse_datetime` (`date -d`, `find
/// -newermt`): one beginning with `TZ="…"` loads that time zone as a file, which may be any
/// file (`TZ="/home/u/.ssh/id_rsa" now`, or `../` from the zone directory). A string holding
/// `TZ=` anywhere is unproven, and so is one known only when it runs unless its first
/// character is `@` (seconds since the epoch: `@$(stat -c %Y f)`).
pub(crate) fn date_string(w: &Word) -> Result<()> {
    match w.literal() {
        Some(t) if t.contains("TZ=") => Err(format!(
            "the date `{t}` names a time zone, which is loaded from a file that may be any file"
        )),
        Some(_) => Ok(()),
        None if w.raw.trim_start_matches(['"', '\'']).starts_with('@') => Ok(()),
        None => Err(format!(
            "the date `{}` is only known when it runs, and may name a time zone file to load",
            w.raw
        )),
    }
}

/// A program that changes files or processes, proven only when it prints and exits: its
/// version or help alone, or for `kill` the list of signals (`kill -l [SIGNAL…]`, `kill -L`).
fn query(program: &str, args: &[Word]) -> Result<()> {
    let texts: Vec<Option<&str>> = args.iter().map(Word::literal).collect();
    let lists_signals = program == "kill"
        && matches!(
            texts.first(),
            Some(Some("-l" | "-L" | "--list" | "--table"))
        )
        && texts[1..].iter().all(|t| {
            t.is_some_and(|t| !t.is_empty() && t.chars().all(|c| c.is_ascii_alphanumeric()))
        });
    // `tee` copying its input to standard output and to nothing else (`tee /dev/null`, as a
    // pipeline's sink): options that only change how it copies, every operand the null device.
    let copies_only = program == "tee"
        && texts.iter().all(|t| {
            matches!(
                t,
                Some("/dev/null" | "-a" | "--append" | "-i" | "--ignore-interrupts" | "-p")
            )
        });
    if lists_signals || copies_only || matches!(texts.as_slice(), [Some("--version" | "--help")]) {
        Ok(())
    } else {
        Err(format!(
            "`{program}` changes files or processes unless it only prints its version, help or signals"
        ))
    }
}

/// `ps`: never the environment (`e`, `-E`, `eww`).
fn ps(args: &[Word]) -> Result<()> {
    static OPTIONS: OnceLock<Options> = OnceLock::new();
    let options = OPTIONS.get_or_init(|| {
        Options::parse(
            "e A a d N f F l j H w L T M y c u|user=v U=v p|pid=v o|format=v O=v C=v G|Group=v \
             g|group=v t|tty=v s|sid=v q|quick-pid=v sort=v forest no-headers headers \
             cols|columns|width=v lines|rows=v help version V",
        )
    });
    // Other processes' command lines may hold secrets (`--password=…`, tokens), as
    // `/proc/N/cmdline` does: a format that shows arguments prints them whatever the
    // selection, since an agent's shell has no terminal and `ps`'s default selection (the
    // caller's terminal) is then every process of the user without one.
    let mut shows_args = false;
    let mut dashed = Vec::new();
    for (i, w) in args.iter().enumerate() {
        let t = literal(w)?;
        if i == 0 && !t.starts_with('-') {
            shows_args |= ps_bsd_letters(t)?;
            continue;
        }
        dashed.push(w.clone());
    }
    // procps reads the whole command line again as BSD letters (`-aux` as `aux`, `-auxe` as
    // `auxe`: every environment) when a value does not parse: a user, group or terminal that
    // does not exist, a process or session list that is not numbers. A value not proven to
    // parse makes the BSD reading count too.
    let mut bsd_fallback = false;
    for item in cursor::read(&dashed, options, Syntax::Gnu, false)? {
        if let Item::Opt(opt, Some(v)) = &item {
            bsd_fallback |= match opt.display.as_str() {
                "-p" | "-q" | "-s" => !literal(v)?
                    .split([',', ' '])
                    .all(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit())),
                "-C" | "-o" | "-O" | "--sort" => false,
                _ => true,
            };
        }
        match item {
            Item::Operand(_, w) => {
                return Err(format!(
                    "`{}` is not an option `ps` is known to take",
                    w.raw
                ));
            }
            Item::Opt(opt, Some(v)) if matches!(opt.display.as_str(), "-o" | "-O") => {
                let format = literal(&v)?.to_ascii_lowercase();
                if format.contains("env") {
                    return Err("`ps` prints processes' environments".to_owned());
                }
                shows_args |= format
                    .split([',', ' ', '\t'])
                    .filter(|f| !f.is_empty())
                    .any(|f| !ps_field_without_args(f));
            }
            Item::Opt(opt, _) => {
                shows_args |= matches!(opt.display.trim_start_matches('-'), "f" | "F");
            }
        }
    }
    if bsd_fallback {
        for w in &dashed {
            let t = literal(w)?;
            if !t.starts_with("--") {
                shows_args |= ps_bsd_letters(t.strip_prefix('-').unwrap_or(t))?;
            }
        }
    }
    if shows_args {
        return Err(
            "`ps` prints other processes' command lines, which may hold secrets".to_owned(),
        );
    }
    Ok(())
}

/// BSD letters of `ps` (`aux`, `axc`): whether they print whole command lines (all but `c`
/// do), or why they are not modeled (`e` prints environments).
fn ps_bsd_letters(t: &str) -> Result<bool> {
    if t.chars().all(|c| "auxfwljrTvhcSnm".contains(c)) {
        Ok(!t.contains('c'))
    } else {
        Err(format!("`ps {t}` may print other processes' environments"))
    }
}

/// Whether a `ps -o` field (`pid`, `user:20`, `comm=NAME`) is one of those known to show no
/// command-line arguments; any other (`args`, `cmd`, the AIX `%a`, an unknown keyword) may.
fn ps_field_without_args(field: &str) -> bool {
    const NO_ARGS: &[&str] = &[
        "pid",
        "ppid",
        "pgid",
        "pgrp",
        "sid",
        "sess",
        "session",
        "tty",
        "tt",
        "tname",
        "stat",
        "s",
        "state",
        "time",
        "etime",
        "etimes",
        "cputime",
        "cputimes",
        "start",
        "stime",
        "lstart",
        "bsdstart",
        "start_time",
        "user",
        "euser",
        "ruser",
        "suser",
        "fuser",
        "uname",
        "uid",
        "euid",
        "ruid",
        "suid",
        "fuid",
        "group",
        "egroup",
        "rgroup",
        "gid",
        "egid",
        "rgid",
        "comm",
        "ucmd",
        "ucomm",
        "fname",
        "%cpu",
        "pcpu",
        "cp",
        "%mem",
        "pmem",
        "rss",
        "rssize",
        "rsz",
        "vsz",
        "vsize",
        "sz",
        "size",
        "nice",
        "ni",
        "pri",
        "priority",
        "nlwp",
        "thcount",
        "lwp",
        "spid",
        "tid",
        "psr",
        "wchan",
        "nwchan",
        "f",
        "flag",
        "flags",
        "c",
        "class",
        "cls",
        "policy",
        "rtprio",
        "sched",
        "tpgid",
        "maj_flt",
        "min_flt",
        "majflt",
        "minflt",
        "pending",
        "blocked",
        "ignored",
        "caught",
        "sig",
        "sigmask",
        "sigignore",
        "sigcatch",
        "trs",
        "drs",
        "lim",
        "pss",
        "uss",
    ];
    // `NAME=HEADER` renames the column; `NAME:WIDTH` sizes it.
    let name = field.split('=').next().unwrap_or_default();
    let name = name.split(':').next().unwrap_or_default();
    NO_ARGS.contains(&name)
}

/// `tar` listing an archive (`tar tf x.tar`, `tar -tzvf x.tgz`, `tar --list --file=x`).
fn tar(args: &[Word], e: &mut Effects) -> Result<()> {
    const FLAGS: &str = "tvzjJZaw";
    const LONG: &[&str] = &[
        "list",
        "verbose",
        "gzip",
        "gunzip",
        "ungzip",
        "bzip2",
        "xz",
        "lzma",
        "zstd",
        "auto-compress",
        "wildcards",
        "no-wildcards",
        "numeric-owner",
        "full-time",
        "utc",
        "ignore-case",
        "anchored",
        "no-anchored",
        "null",
    ];
    let mut listing = false;
    let mut wants_file = 0usize;
    let mut options_done = false;
    for (i, w) in args.iter().enumerate() {
        let t = literal(w)?;
        if options_done || (i > 0 && !t.starts_with('-')) {
            if wants_file > 0 {
                wants_file -= 1;
                e.reads.push(w.clone());
            }
            // Other operands name members to list.
            continue;
        }
        if t == "--" {
            options_done = true;
        } else if let Some(long) = t.strip_prefix("--") {
            match long.split_once('=') {
                Some(("file", f)) => e.reads.push(Word::literal_text(f)),
                None if long == "file" => wants_file += 1,
                _ if LONG.contains(&long) => listing |= long == "list",
                _ => return Err(format!("`tar --{long}` is not known to only list")),
            }
        } else {
            let letters = t.trim_start_matches('-');
            for (at, c) in letters.char_indices() {
                match c {
                    'f' if i > 0 && at + 1 < letters.len() => {
                        e.reads.push(Word::literal_text(&letters[at + 1..]));
                        break;
                    }
                    'f' => wants_file += 1,
                    c if FLAGS.contains(c) => listing |= c == 't',
                    c => return Err(format!("`tar` option `{c}` is not known to only list")),
                }
            }
        }
    }
    if !listing {
        return Err("`tar` creates or extracts archives unless it lists one".to_owned());
    }
    if wants_file > 0 {
        return Err("`tar -f` lacks its archive".to_owned());
    }
    if e.reads.iter().any(|f| f.text().contains(':')) {
        return Err("`tar` reads an archive through a remote shell".to_owned());
    }
    Ok(())
}

/// `dd if=… of=…`: `key=value` operands.
fn dd(args: &[Word], e: &mut Effects) -> Result<()> {
    const PLAIN: &[&str] = &[
        "bs", "ibs", "obs", "cbs", "count", "skip", "seek", "iseek", "oseek", "conv", "iflag",
        "oflag", "status",
    ];
    for w in args {
        let t = literal(w)?;
        match t.split_once('=') {
            Some(("if", path)) => e.reads.push(Word::literal_text(path)),
            Some(("of", path)) => e.writes.push(Word::literal_text(path)),
            Some((key, _)) if PLAIN.contains(&key) => {}
            _ => return Err(format!("`dd` operand `{t}` is not known")),
        }
    }
    Ok(())
}

/// Environment variables that steer nothing: setting them never changes what a program
/// runs, reads or writes.
pub const HARMLESS_VARIABLES: &[&str] = &[
    "LANG",
    "LANGUAGE",
    "LC_ALL",
    "LC_CTYPE",
    "LC_COLLATE",
    "LC_MESSAGES",
    "LC_NUMERIC",
    "LC_TIME",
    "LC_MONETARY",
    "TZ",
    "NO_COLOR",
    "FORCE_COLOR",
    "CLICOLOR",
    "CLICOLOR_FORCE",
    "COLUMNS",
    "LINES",
    "TERM",
    "COLORTERM",
    "RUST_BACKTRACE",
    "RUST_LOG",
    "CARGO_TERM_COLOR",
    "PYTHONUNBUFFERED",
    "PYTHONDONTWRITEBYTECODE",
    "PYTHONIOENCODING",
    "NODE_ENV",
    "CI",
    "GREP_COLORS",
    "LS_COLORS",
    "TIME_STYLE",
];

/// Shell variables spelled in lower case that still steer the shell or the programs it runs.
///
/// The shell an agent runs may be zsh (macOS's login shell), where lower-case parameters are
/// tied to the upper-case ones or are the shell's own tables: `path` is `PATH`, `cdpath` is
/// `CDPATH`, `fpath` and `module_path` load code, `aliases`/`functions`/`commands` define
/// what a name runs, the `*_functions` arrays are hooks run on events.
const STEERING_LOWERCASE: &[&str] = &[
    "histchars",
    "auto_resume",
    "path",
    "cdpath",
    "fpath",
    "module_path",
    "manpath",
    "mailpath",
    "fignore",
    "psvar",
    "prompt",
    "watch",
    "dirstack",
    "aliases",
    "galiases",
    "saliases",
    "dis_aliases",
    "dis_galiases",
    "dis_saliases",
    "functions",
    "dis_functions",
    "functions_source",
    "builtins",
    "dis_builtins",
    "commands",
    "options",
    "nameddirs",
    "userdirs",
    "parameters",
    "modules",
    "widgets",
    "reswords",
    "dis_reswords",
    "zle_highlight",
    "chpwd_functions",
    "precmd_functions",
    "preexec_functions",
    "periodic_functions",
    "zshaddhistory_functions",
    "zshexit_functions",
    "zsh_scheduled_events",
    "http_proxy",
    "https_proxy",
    "ftp_proxy",
    "all_proxy",
    "no_proxy",
];

/// Whether assigning `name` for a command (`NAME=value cmd`, `export NAME`) steers nothing.
pub fn harmless_variable(name: &str) -> bool {
    HARMLESS_VARIABLES.contains(&name) || name.starts_with("LC_") && is_identifier(name)
}

/// Whether assigning `name` in the shell itself (`name=value` alone) steers nothing: a
/// harmless variable, or a lower-case name bash and programs do not read.
pub fn harmless_shell_variable(name: &str) -> bool {
    harmless_variable(name)
        || (is_identifier(name)
            && name.chars().any(|c| c.is_ascii_lowercase())
            && !STEERING_LOWERCASE.contains(&name))
}

/// Whether assigning `value` (`None`: only known when it runs) to `name` for a command
/// steers nothing: a harmless variable whose value, for the locale and time-zone variables,
/// names no file (`LANGUAGE=../../tmp/x`, `TZ=:/proc/self/environ` open files).
pub fn harmless_assignment(name: &str, value: Option<&str>) -> bool {
    plain_pager(name, value) || harmless_variable(name) && harmless_value(name, value)
}

/// Whether the assignment makes a pager `cat` or nothing (`GIT_PAGER=cat`, `PAGER=`),
/// which pages nothing.
fn plain_pager(name: &str, value: Option<&str>) -> bool {
    matches!(name, "PAGER" | "GIT_PAGER" | "MANPAGER") && matches!(value, Some("cat" | ""))
}

/// Like [`harmless_assignment`] for an assignment in the shell itself (`name=value` alone),
/// which reaches programs when the variable is already exported.
pub fn harmless_shell_assignment(name: &str, value: Option<&str>) -> bool {
    plain_pager(name, value) || harmless_shell_variable(name) && harmless_value(name, value)
}

/// Whether a locale or time-zone value is a plain name (`C.UTF-8`, `en_US.UTF-8`, `UTC`,
/// `Europe/Paris`); any other variable's value is not judged here.
fn harmless_value(name: &str, value: Option<&str>) -> bool {
    let locale = matches!(name, "LANG" | "LANGUAGE") || name.starts_with("LC_");
    if !locale && name != "TZ" {
        return true;
    }
    let Some(value) = value else { return false };
    if locale {
        // A locale name, or for `LANGUAGE` a `:`-separated list of them; no path.
        let names = !value.starts_with(':')
            && value.split(':').all(|part| {
                !part.starts_with('.')
                    && part
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '@' | '-'))
            });
        names && (name == "LANGUAGE" || !value.contains(':'))
    } else {
        zone_name(value)
    }
}

/// A time-zone name of the zoneinfo database or a plain POSIX zone (`UTC`, `EST5EDT`,
/// `Europe/Paris`, `Etc/GMT+3`): components of letters, digits, `_`, `+`, `-`, each starting
/// with a letter, joined by `/`; never absolute, never `.` or `..`, never `:`.
fn zone_name(value: &str) -> bool {
    value.is_empty()
        || value.split('/').all(|part| {
            part.starts_with(|c: char| c.is_ascii_alphabetic())
                && part
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '+' | '-'))
        })
}

/// Whether `name` is a shell variable name: a letter or `_`, then letters, digits or `_`.
pub(crate) fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// `export`, `declare`, `local`, `readonly`, `typeset`, `unset`.
fn declare(program: &str, args: &[Word]) -> Result<()> {
    // `declare -F` alone prints the names of the shell's functions, nothing of their bodies
    // or of any variable.
    if matches!(program, "declare" | "typeset") && matches!(args, [w] if w.literal() == Some("-F"))
    {
        return Ok(());
    }
    let allowed_flags: &str = match program {
        "export" => "n",
        "unset" => "vfn",
        _ => "aArxgltu",
    };
    let mut names = 0usize;
    for w in args {
        let dynamic = w.literal().is_none();
        let t = match w.literal() {
            Some(t) => t,
            None if w.prefix.contains('=') => w.prefix.as_str(),
            None => return Err(format!("`{}` is only known when it runs", w.raw)),
        };
        if t == "--" {
            continue;
        }
        if let Some(flags) = t.strip_prefix('-').or_else(|| t.strip_prefix('+')) {
            if let Some(c) = flags.chars().find(|c| !allowed_flags.contains(*c)) {
                return Err(format!(
                    "`{program} -{c}` prints variables, evaluates values as code or makes references"
                ));
            }
            continue;
        }
        names += 1;
        if t.split_once('=').is_some_and(|(_, v)| v.starts_with('('))
            || (program != "unset"
                && t.contains('=')
                && args.iter().any(|a| {
                    a.literal()
                        .is_some_and(|f| f.starts_with('-') && f.contains(['a', 'A']))
                }))
        {
            return Err(format!(
                "`{program}` evaluates the array value of `{t}`, subscripts and all"
            ));
        }
        let name = t.split_once('=').map_or(t, |(n, _)| n);
        let name = name.strip_suffix('+').unwrap_or(name);
        // The value assigned, `None` when only known at run time; `export NAME` alone keeps
        // the value the variable has.
        let value = match t.split_once('=') {
            Some(_) if dynamic => None,
            Some((_, v)) => Some(v),
            None => Some(""),
        };
        let functions = args.iter().any(|a| {
            a.literal()
                .is_some_and(|f| f.starts_with('-') && f.contains('f'))
        });
        let ok = if program == "unset" {
            // Unsetting `PATH` makes bash look names up in the working directory; `HOME`,
            // `IFS` and the like change what programs read as much as setting them.
            is_identifier(name) && (functions || harmless_shell_variable(name))
        } else if program == "export" || args.iter().any(|a| a.literal() == Some("-x")) {
            harmless_assignment(name, value)
        } else {
            harmless_shell_assignment(name, value)
        };
        if !ok {
            return Err(format!(
                "`{program}` sets `{name}`, which may steer what programs run or read"
            ));
        }
    }
    if names == 0 && program != "unset" {
        return Err(format!(
            "`{program}` alone prints variables, which may hold secrets"
        ));
    }
    Ok(())
}

/// `bash -c CODE [NAME ARGS…]`: harmless when the code was read (the shell reader unwrapped
/// it) and no start-up file is: a login or interactive shell (`-l`, `--login`, `-i`,
/// `--rcfile`, `--init-file`) first runs the user's start-up files (`/etc/profile`,
/// `~/.bash_profile`, `~/.profile`, `~/.bashrc`), whose commands (agents, version managers,
/// prompts that contact the network) are not judged: unmodeled.
///
/// One login shell is the agent's own: a shell tool given an argument vector
/// (`argument_vector`, Codex's `["bash", "-lc", SCRIPT]`) runs every command that way, the
/// person's start-up files included, whatever the command; the script it runs is judged.
fn shell_code(
    unwrapped: bool,
    argument_vector: bool,
    args: &[Word],
    e: &mut Effects,
) -> Result<()> {
    const FLAGS: &str = "ceuxvfnE";
    const NAMES: &[&str] = &[
        "errexit", "nounset", "pipefail", "xtrace", "verbose", "noglob",
    ];
    let login = |what: &str| {
        if argument_vector {
            Ok(())
        } else {
            Err(format!(
                "`{what}` makes a login shell, which first runs the user's start-up files"
            ))
        }
    };
    // Alone, `--version` and `--help` print and exit before any start-up file is read.
    if let [only] = args
        && matches!(only.literal(), Some("--version" | "--help"))
    {
        return Ok(());
    }
    let mut code = false;
    // `-n` (noexec): the shell reads its script and runs nothing, unless `+n` turns it off
    // again or a login shell first runs the user's start-up files.
    let mut noexec = false;
    let mut logs_in = false;
    let mut script = None;
    let mut i = 0;
    while let Some(w) = args.get(i) {
        let t = literal(w)?;
        i += 1;
        match t {
            "--noprofile" | "--norc" | "--posix" => continue,
            "--login" => {
                logs_in = true;
                login(t)?;
            }
            "--" => {
                script = args.get(i);
                break;
            }
            _ if t.starts_with("--") => {
                return Err(format!(
                    "`{t}` makes the shell read start-up files or is not known"
                ));
            }
            _ if (t.starts_with('-') || t.starts_with('+')) && t.len() > 1 => {
                for c in t[1..].chars() {
                    match c {
                        'o' | 'O' => {
                            let name = args.get(i).map(literal).transpose()?;
                            i += 1;
                            if !name.is_some_and(|n| NAMES.contains(&n)) {
                                return Err(
                                    "its `-o` option is not known to be harmless".to_owned()
                                );
                            }
                        }
                        'c' => code = true,
                        'n' => noexec = t.starts_with('-'),
                        'l' if t.starts_with('-') => {
                            logs_in = true;
                            login(t)?;
                        }
                        c if FLAGS.contains(c) => {}
                        c => {
                            return Err(format!(
                                "`-{c}` makes the shell read start-up files or input, or is not known"
                            ));
                        }
                    }
                }
            }
            _ => {
                script = Some(w);
                break;
            }
        }
    }
    if noexec && !code && !logs_in {
        // `bash -n script.sh`: a syntax check; `-v` prints the script's lines.
        if let Some(script) = script {
            if may_split(script) {
                return Err(format!("`{}` may become several words", script.raw));
            }
            e.reads.push(script.clone());
        }
        return Ok(());
    }
    if !code || !unwrapped {
        return Err("the shell runs a script or input the policy does not read".to_owned());
    }
    Ok(())
}

/// `xxd [OPTIONS] [INFILE]`: xxd matches its single-dash options by their first letters
/// (`-ps` is `-p`), so only exact spellings of the harmless ones are read; a second operand
/// is an output file, `-r` writes binary: neither is modeled.
fn xxd(args: &[Word], e: &mut Effects) -> Result<()> {
    const FLAGS: &[&str] = &[
        "-a",
        "-autoskip",
        "-b",
        "-bits",
        "-C",
        "-capitalize",
        "-E",
        "-EBCDIC",
        "-e",
        "-i",
        "-include",
        "-p",
        "-ps",
        "-postscript",
        "-plain",
        "-u",
        "-d",
        "-r",
        "-revert",
    ];
    const VALUES: &[&str] = &[
        "-c",
        "-cols",
        "-g",
        "-groupsize",
        "-l",
        "-len",
        "-o",
        "-offset",
        "-s",
        "-seek",
        "-n",
        "-name",
    ];
    let mut operands = Vec::new();
    let mut i = 0;
    while let Some(w) = args.get(i) {
        i += 1;
        let t = literal(w)?;
        // xxd reads options only before its first operand: `xxd README.md -ps` writes a
        // file named `-ps`.
        if !operands.is_empty() {
            if may_split(w) {
                return Err(format!("`{}` may become several files", w.raw));
            }
            operands.push(w.clone());
            continue;
        }
        if FLAGS.contains(&t) {
            continue;
        }
        if VALUES.contains(&t) {
            let v = args
                .get(i)
                .ok_or_else(|| format!("`xxd {t}` lacks its value"))?;
            literal(v)?;
            if may_split(v) {
                return Err(format!("`{}` may become several words", v.raw));
            }
            i += 1;
            continue;
        }
        if t.starts_with('-') && t != "-" {
            return Err(format!("`xxd {t}` is not an option the policy reads"));
        }
        if may_split(w) {
            return Err(format!(
                "`{}` may become several files, the second written",
                w.raw
            ));
        }
        operands.push(w.clone());
    }
    // `xxd [-r] IN OUT` writes its second operand (the dump, or with `-r` the bytes).
    if operands.len() > 2 {
        return Err("`xxd` takes at most an input and an output".to_owned());
    }
    if operands.len() == 2 {
        e.writes.extend(operands.pop());
    }
    e.reads.extend(operands);
    Ok(())
}

/// `ip [OPTIONS] OBJECT [show|list] [dev NAME] [up]`: the listings of addresses, links,
/// routes, neighbours and rules. `ip` reads single-dash long options and matches objects and
/// verbs by prefix in the order of its own tables (`ip link s` is `set`): only exact
/// spellings of harmless options and objects, and the verbs `show` and `list` written out,
/// are read. Never `-n`/`-netns` (enters a namespace), `-b`/`-batch` (reads commands from a
/// file), `-r`/`-resolve` (asks DNS).
fn ip(args: &[Word]) -> Result<()> {
    const OPTIONS: &[&str] = &[
        "-4",
        "-6",
        "-0",
        "-br",
        "-brief",
        "-c",
        "-color",
        "-color=auto",
        "-color=always",
        "-color=never",
        "-j",
        "-json",
        "-p",
        "-pretty",
        "-s",
        "-stats",
        "-statistics",
        "-d",
        "-details",
        "-o",
        "-oneline",
        "-h",
        "-human",
        "-human-readable",
        "-iec",
        "-V",
        "-Version",
    ];
    const OBJECTS: &[&str] = &[
        "a",
        "addr",
        "address",
        "l",
        "link",
        "r",
        "route",
        "n",
        "neigh",
        "neighbor",
        "neighbour",
        "rule",
    ];
    let texts: Vec<&str> = args.iter().map(literal).collect::<Result<_>>()?;
    let start = texts.iter().take_while(|t| t.starts_with('-')).count();
    if let Some(t) = texts[..start].iter().find(|t| !OPTIONS.contains(t)) {
        return Err(format!("`ip {t}` is not an option the policy reads"));
    }
    let rest = &texts[start..];
    let Some((object, rest)) = rest.split_first() else {
        return if start > 0
            && texts[..start]
                .iter()
                .all(|t| matches!(*t, "-V" | "-Version"))
        {
            Ok(())
        } else {
            Err("`ip` without an object prints its usage".to_owned())
        };
    };
    if !OBJECTS.contains(object) {
        return Err(format!("`ip {object}` is not a listing the policy reads"));
    }
    let rest = match rest {
        ["show" | "list", rest @ ..] => rest,
        rest => rest,
    };
    let mut words = rest.iter();
    while let Some(w) = words.next() {
        match *w {
            "up" => {}
            "dev" => {
                let name = words
                    .next()
                    .ok_or_else(|| "`ip … dev` lacks its device".to_owned())?;
                if !name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-' | '@'))
                    || name.starts_with('-')
                {
                    return Err(format!("`{name}` is not a device name"));
                }
            }
            other => {
                return Err(format!(
                    "`ip {object} {other}` may change the system: only `show`, `list`, `dev NAME` and `up` are read"
                ));
            }
        }
    }
    Ok(())
}

/// `netstat`: the table's options, no operands, and numeric addresses (`-n`,
/// `--numeric-hosts`): otherwise it asks DNS for the name of every address it prints.
fn netstat(entry: &Entry, args: &[Word]) -> Result<()> {
    let mut numeric = false;
    for item in read_args(entry, args)? {
        match item {
            Item::Operand(_, w) => {
                return Err(format!(
                    "`netstat {}` is not an option it is known to take",
                    w.raw
                ));
            }
            Item::Opt(opt, _) => {
                numeric |= matches!(opt.display.as_str(), "-n" | "--numeric-hosts")
                    || matches!(opt.display.as_str(), "-h" | "-V");
            }
        }
    }
    if numeric {
        Ok(())
    } else {
        Err("`netstat` without `-n` asks DNS for the names of the addresses it prints".to_owned())
    }
}

/// The capabilities `tput` only prints (sizes, names, the strings that set colours, move the
/// cursor or clear the screen), and the settings `stty` only prints.
const TERMINAL_QUERIES: &[(&str, &[&str])] = &[
    (
        "tput",
        &[
            "cols", "lines", "colors", "longname", "bold", "dim", "sgr0", "smul", "rmul", "rev",
            "blink", "smso", "rmso", "setaf", "setab", "op", "el", "ed", "clear", "cup", "civis",
            "cnorm", "sc", "rc", "hpa", "cuu", "cud", "cuf", "cub",
        ],
    ),
    ("stty", &["size", "speed"]),
];

/// `tput` and `stty` printing what the terminal is, never changing it: every operand a
/// capability or setting of [`TERMINAL_QUERIES`] (or a number, a capability's parameter).
fn terminal(program: &str, entry: &Entry, args: &[Word]) -> Result<()> {
    let known = TERMINAL_QUERIES
        .iter()
        .find(|(p, _)| *p == program)
        .map_or(&[][..], |(_, q)| q);
    for item in read_args(entry, args)? {
        // `tput -T NAME`: a terminal's entry, looked up by name, never a path.
        if let Item::Opt(_, Some(v)) = &item
            && !literal(v)?
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"-_.+".contains(&b))
        {
            return Err(format!("`{program} -T {}` names no terminal", v.raw));
        }
        if let Item::Operand(_, w) = item {
            let t = literal(&w)?;
            let number = !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
            if !(known.contains(&t) || (program == "tput" && number)) {
                return Err(format!(
                    "`{program} {t}` is not a query of the terminal known here"
                ));
            }
        }
    }
    Ok(())
}

/// `set`: shell options that change nothing outside the shell; `set` alone prints every
/// variable.
fn set(args: &[Word]) -> Result<()> {
    const LETTERS: &str = "euxvCfbBmHPhE";
    const NAMES: &[&str] = &[
        "errexit",
        "nounset",
        "pipefail",
        "xtrace",
        "verbose",
        "noclobber",
        "noglob",
        "errtrace",
        "braceexpand",
        "hashall",
    ];
    if args.is_empty() {
        return Err("`set` alone prints every variable, which may hold secrets".to_owned());
    }
    let mut i = 0;
    while let Some(w) = args.get(i) {
        i += 1;
        let t = literal(w)?;
        if t == "--" || t == "-" {
            return Ok(());
        }
        let Some(letters) = t.strip_prefix('-').or_else(|| t.strip_prefix('+')) else {
            return Ok(());
        };
        // Brace expansion turned off makes `{a,b}` one word, a file of that name: the words
        // after it read otherwise than the shell's model reads them.
        let off = t.starts_with('+');
        for c in letters.chars() {
            if c == 'o' {
                let name = args.get(i).map(literal).transpose()?;
                i += 1;
                match name {
                    Some("braceexpand") if off => {
                        return Err("`set +o braceexpand` turns brace expansion off".to_owned());
                    }
                    Some(n) if NAMES.contains(&n) => {}
                    Some(n) => return Err(format!("`set -o {n}` is not known to be harmless")),
                    // Last, `-o` (`+o`) prints the shell's options (as `set` commands): no
                    // variable, nothing changed.
                    None => {}
                }
            } else if c == 'B' && off {
                return Err("`set +B` turns brace expansion off".to_owned());
            } else if !LETTERS.contains(c) {
                return Err(format!("`set -{c}` is not known to be harmless"));
            }
        }
    }
    Ok(())
}

/// `hash`: listing only (`hash -r` forgets, `-t`/`-l` print). `alias` prints the definitions
/// of the shell's aliases, which a runtime's snapshot of the user's shell carries and which
/// may hold a token (`alias gh='GH_TOKEN=… gh'`), as `declare -f` prints functions: open.
/// So does `type NAME`, which prints a function's body or an alias's definition, unless it
/// is told to print only a kind or a file (`-t`, `-p`, `-P`).
fn listing(program: &str, args: &[Word]) -> Result<()> {
    if program == "alias" {
        return Err(
            "`alias` prints the definitions of the shell's aliases, which may hold tokens and keys"
                .to_owned(),
        );
    }
    if program == "type" {
        return type_lookup(args);
    }
    for w in args {
        let t = literal(w)?;
        let harmless_options = t
            .strip_prefix('-')
            .is_some_and(|o| !o.is_empty() && o.chars().all(|c| "rtl".contains(c)));
        if t.contains('=') || (t.starts_with('-') && !harmless_options) {
            return Err("it changes what a command name runs".to_owned());
        }
    }
    Ok(())
}

/// `type [-afptP] NAME…`: harmless when an option limits what it prints to a kind (`-t`) or
/// a program's file (`-p`, `-P`); otherwise it prints the body of a function and the
/// definition of an alias, which a runtime's snapshot of the user's shell may carry with a
/// token in it (`deploy() { curl -H "Authorization: Bearer …"; }`).
fn type_lookup(args: &[Word]) -> Result<()> {
    let mut limited = false;
    for w in args {
        let t = literal(w)?;
        if t == "--" || !t.starts_with('-') || t == "-" {
            break;
        }
        let letters = &t[1..];
        if let Some(c) = letters.chars().find(|c| !"afptP".contains(*c)) {
            return Err(format!("`type -{c}` is not known to be harmless"));
        }
        limited |= letters.contains(['t', 'p', 'P']);
    }
    if limited {
        Ok(())
    } else {
        Err("`type` prints the bodies of shell functions and the definitions of aliases, which may hold tokens and keys (`type -t`, `-p` or `-P` print only a kind or a file)".to_owned())
    }
}

/// Version managers' selector files: their shims pick the binary any toolchain name runs
/// from them, in the directory and above (asdf/mise `path:` versions, mise's tasks and
/// hooks). A program that is no shim reads none of them ([`build_config::runs_directly`]).
pub(crate) const VERSION_SELECTORS: &[&str] = &[
    ".tool-versions",
    "mise.toml",
    ".mise.toml",
    "mise.local.toml",
    ".mise.local.toml",
    ".mise/config.toml",
    ".config/mise.toml",
    ".config/mise/config.toml",
    ".rtx.toml",
    // Volta's project hooks name download URLs and programs to run.
    ".volta/hooks.json",
    // nodenv, pyenv, rbenv, jenv, goenv, tfenv, sdkman, nvm: a version manager's shim
    // chooses (and may install) the program from them.
    ".node-version",
    ".nvmrc",
    ".python-version",
    ".ruby-version",
    ".java-version",
    ".go-version",
    ".terraform-version",
    ".sdkmanrc",
];

/// Toolchains: version queries; `cargo metadata`/`cargo tree`/`cargo pkgid` and `go env` read only.
fn toolchain(program: &str, args: &[Word], e: &mut Effects) -> Result<()> {
    let texts: Vec<&str> = args.iter().map(literal).collect::<Result<_>>()?;
    // Configuration in the workspace can make these toolchains run its programs: a
    // `rust-toolchain.toml` names the toolchain, `.cargo/config.toml` a `rustc-wrapper`,
    // `go.mod` a toolchain to download (read by the judge: see [`Effects::go_toolchain`]).
    let config: &[&str] = match program {
        "cargo" | "rustc" | "rustup" | "rustfmt" => &[
            "rust-toolchain.toml",
            "rust-toolchain",
            ".cargo/config.toml",
            ".cargo/config",
        ],
        "npm" | "yarn" | "pnpm" => &[".npmrc", ".yarnrc", ".yarnrc.yml", "package.json"],
        "bun" => &["bunfig.toml"],
        _ => &[],
    };

    // Inline code proven to only compute, print and read literal paths (`python3 -c`).
    let proven = match inline::proven(program, args) {
        Some(found) => found.map(|i| {
            e.reads.extend(i.reads.into_iter().map(Word::literal_text));
            e.meta.extend(i.meta.into_iter().map(Word::literal_text));
            e.writes
                .extend(i.writes.into_iter().map(Word::literal_text));
            e.forbids
                .extend(i.forbids.into_iter().map(Word::literal_text));
            e.python_std_modules |= i.std_modules;
            e.regular_files
                .extend(i.regular_files.into_iter().map(Word::literal_text));
        }),
        None => toolchain_query(program, &texts, e),
    };
    e.go_toolchain = program == "go";
    if proven.is_ok() {
        e.forbids.extend(
            config
                .iter()
                .chain(VERSION_SELECTORS)
                .map(|c| Word::literal_text(*c)),
        );
    }
    proven
}

/// Whether `program texts…` is a toolchain query the table knows to only read.
fn toolchain_query(program: &str, texts: &[&str], e: &mut Effects) -> Result<()> {
    // Only `go` has a `version` subcommand; elsewhere `version` is a file or a target.
    let version = matches!(
        texts,
        ["--version" | "-V"] | ["-vV" | "-Vv"] | ["--version" | "-V", "--verbose"]
    ) || (texts == ["-version"] && matches!(program, "java" | "javac"))
        || (texts == ["version"] && program == "go")
        || (matches!(texts, ["-v"])
            && matches!(
                program,
                "node"
                    | "npm"
                    | "docker"
                    | "yarn"
                    | "pnpm"
                    | "deno"
                    | "bun"
                    | "tsc"
                    | "perl"
                    | "gcc"
                    | "g++"
                    | "cc"
                    | "c++"
                    | "clang"
            ));
    let version = version
        || (texts == ["version"] && program == "cargo")
        || (program == "cargo" && matches!(texts, ["fmt" | "clippy", "--version" | "-V"]));
    // Their usage, printed before anything is read or loaded (not cargo's or rustc's, whose
    // rustup proxies write their settings on start, nor docker's, which loads the
    // credentials of `~/.docker/config.json`).
    let help = texts == ["--help"]
        && matches!(
            program,
            "node"
                | "python"
                | "python3"
                | "gcc"
                | "g++"
                | "cc"
                | "c++"
                | "make"
                | "perl"
                | "openssl"
                | "wget"
                | "ld"
                | "nm"
                | "objdump"
                | "pkg-config"
        );
    let version = version || help;
    if version && !(program == "go" && texts == ["--version"]) {
        return Ok(());
    }
    match (program, texts) {
        // `-json` prints the same settings as JSON (`-w`, `-u` change them).
        ("go", ["env", rest @ ..]) if rest.iter().all(|t| !t.starts_with('-') || *t == "-json") => {
            Ok(())
        }
        ("rustup", ["toolchain" | "target" | "component", "list", rest @ ..])
            if rest
                .iter()
                .all(|t| matches!(*t, "--installed" | "-v" | "--verbose")) =>
        {
            Ok(())
        }
        // `rustup default` alone prints the default toolchain; with a name it sets it.
        ("rustup", ["show"] | ["show", "active-toolchain"] | ["default"]) => Ok(()),
        // The subcommands cargo knows, its aliases and the `cargo-*` programs on PATH: listed,
        // none run.
        ("cargo", ["--list"]) => Ok(()),
        // The manifest read and printed as JSON, or checked to parse: nothing is resolved,
        // built or downloaded (strace: no other program, no write).
        ("cargo", ["read-manifest" | "verify-project"]) => Ok(()),
        ("openssl", ["version", rest @ ..])
            if rest.iter().all(|t| {
                matches!(
                    *t,
                    "-a" | "-v" | "-b" | "-o" | "-f" | "-p" | "-d" | "-e" | "-m" | "-r" | "-c"
                )
            }) =>
        {
            Ok(())
        }
        // The path of the binary a proxy would run, in the toolchain the directory selects.
        ("rustup", ["which", tool])
            if !tool.is_empty()
                && !tool.starts_with('-')
                && tool
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_')) =>
        {
            Ok(())
        }
        ("cargo", ["locate-project", "--message-format", "plain" | "json"])
        | (
            "cargo",
            [
                "locate-project",
                "--workspace",
                "--message-format",
                "plain" | "json",
            ]
            | [
                "locate-project",
                "--message-format",
                "plain" | "json",
                "--workspace",
            ],
        ) => Ok(()),
        ("cargo", ["locate-project", rest @ ..])
            if rest.iter().all(|t| {
                matches!(
                    *t,
                    "--workspace"
                        | "--message-format=plain"
                        | "--message-format=json"
                        | "-q"
                        | "--quiet"
                )
            }) =>
        {
            Ok(())
        }
        ("rustc", [print]) if print.starts_with("--print=") => {
            toolchain_query(program, &["--print", &print["--print=".len()..]], e)
        }
        ("rustc", ["--print", what])
            if matches!(
                *what,
                "sysroot" | "target-list" | "cfg" | "target-libdir" | "host-tuple" | "crate-name"
            ) =>
        {
            Ok(())
        }
        // No `npm ls`: it writes a log under `~/.npm/_logs` and asks the registry whether npm
        // is out of date.
        ("cargo", ["metadata" | "tree" | "pkgid", rest @ ..]) => cargo(texts[0], rest, e),
        ("go", ["list" | "doc", rest @ ..]) => go_packages(texts[0], rest, e),
        // Help topics, the platforms the toolchain builds for, and `go.mod` printed as it
        // is (`-json`, `-print`; any other flag of `go mod edit` changes it).
        ("go", ["help", rest @ ..])
            if rest.len() <= 2
                && rest.iter().all(|t| {
                    !t.is_empty()
                        && t.bytes()
                            .all(|b| b.is_ascii_alphanumeric() || b"-.".contains(&b))
                        && !t.starts_with('-')
                }) =>
        {
            Ok(())
        }
        ("go", ["tool", "dist", "list", rest @ ..])
            if rest.iter().all(|t| matches!(*t, "-json" | "-v" | "-i")) =>
        {
            Ok(())
        }
        ("go", ["mod", "edit", "-json" | "-print"]) => Ok(()),
        // A syntax check: the script is parsed, none of it run; a syntax error prints the
        // line it is on.
        ("node", ["--check" | "-c", file]) if !file.starts_with('-') => {
            e.reads.push(Word::literal_text(*file));
            Ok(())
        }
        _ => Err(format!(
            "`{program}` may build, run or download code; only its version and metadata queries are known"
        )),
    }
}

/// `unzip -l|-v|-t|-z ARCHIVE [MEMBER…]`, `unzip -Z` and `zipinfo` (listings), `gzip -l|-t
/// FILE…` and `gunzip -t FILE…`: the archive is read, its members' names or sizes printed or
/// their checksums tested; nothing is extracted, printed whole (`unzip -p`) or compressed.
/// `gzip -c` and `gunzip -c` (`gzip -dc FILE` is `zcat FILE`) print what they make of each
/// file on standard output and write no file: they read the files, as `zcat` does.
/// Member names are names inside the archive, not paths.
fn archive_list(program: &str, args: &[Word], e: &mut Effects) -> Result<()> {
    let zip = matches!(program, "unzip" | "zipinfo");
    // Letters of single-dash clusters: the modes that only list or test, and modifiers that
    // change how they print (`unzip -Z` switches to zipinfo's letters, all listing).
    let (modes, modifiers): (&str, &str) = match program {
        "unzip" => ("lvtzZ", "q12smhMTC"),
        "zipinfo" => ("12smlvhMtTz", "C"),
        // `-d` (decompress), `-k` (keep), `-f` (force) and the levels change nothing a mode
        // writes: without `-c`, `-l` or `-t` the files are (de)compressed in place.
        _ => ("ltc", "vqdkf123456789"),
    };
    let long: &[(&str, bool)] = if zip {
        &[]
    } else {
        &[
            ("--list", true),
            ("--test", true),
            ("--stdout", true),
            ("--to-stdout", true),
            ("--verbose", false),
            ("--quiet", false),
            ("--decompress", false),
            ("--uncompress", false),
            ("--keep", false),
            ("--force", false),
        ]
    };
    let mut listed = program == "zipinfo";
    // Whether unzip reads its letters as zipinfo's (after `-Z`): there `-T` prints times as
    // numbers, while unzip's own `-T` sets the archive's time stamp, even when it lists.
    let mut zipinfo = program == "zipinfo";
    let mut operands = Vec::new();
    let mut options_end = false;
    for w in args {
        let t = literal(w)?;
        if !options_end && t == "--" {
            options_end = true;
        } else if !options_end && t.starts_with("--") {
            match long.iter().find(|(name, _)| *name == t) {
                Some((_, mode)) => listed |= mode,
                None => {
                    return Err(format!(
                        "`{program} {t}` is not a listing option known here"
                    ));
                }
            }
        } else if !options_end && t.starts_with('-') && t.len() > 1 {
            for c in t[1..].chars() {
                zipinfo |= zip && c == 'Z';
                if zip && c == 'T' && !zipinfo {
                    return Err(format!(
                        "`{program} -T` sets the archive's time stamp to its newest member's"
                    ));
                }
                if modes.contains(c) {
                    listed = true;
                } else if !modifiers.contains(c) {
                    return Err(format!(
                        "`{program} -{c}` is not a listing option known here"
                    ));
                }
            }
        } else {
            operands.push(w.clone());
        }
    }
    if !listed {
        return Err(format!(
            "`{program}` without a listing option extracts or compresses"
        ));
    }
    if zip {
        // The archive; the words after it name members.
        let archive = operands
            .into_iter()
            .next()
            .ok_or_else(|| "it is given no archive".to_owned())?;
        e.reads.push(archive);
    } else if operands.is_empty() {
        return Err("it reads its standard input".to_owned());
    } else {
        e.reads.extend(operands);
    }
    Ok(())
}

/// `cargo metadata` / `cargo tree`: without dependencies resolved, offline against an
/// existing `Cargo.lock`, or against a `Cargo.lock` that answers every dependency with
/// packages cargo has cached (otherwise cargo may download the index or write the lock file).
/// `go list` and `go doc` with `rest`: the module's packages (or the standard library's)
/// parsed and their names, fields or documentation printed. Nothing is built or run: not
/// `-export`, `-compiled` (they build), `-u`, `-versions`, `-retracted` (they ask the module
/// proxy), `-mod=mod` (it may rewrite `go.mod`), `-toolexec`, `-overlay`, `-modfile`, `-src`
/// (source printed whole). A package of `go list` is a relative pattern (`.`, `./...`) or a
/// meta-package (`std`, `cmd`, `all`); a symbol of `go doc` is a name, never a path. What
/// the module requires must be in the module cache ([`Effects::go_packages`]).
fn go_packages(sub: &str, rest: &[&str], e: &mut Effects) -> Result<()> {
    let flag = |t: &str| -> bool {
        let (name, value) = t.split_once('=').map_or((t, None), |(n, v)| (n, Some(v)));
        let name = name.strip_prefix('-').unwrap_or(name);
        match (sub, name, value) {
            ("list", "e" | "deps" | "test" | "find" | "m" | "json", _) => {
                value.is_none() || name == "json"
            }
            ("list", "f" | "tags", Some(_)) => true,
            ("list", "mod", Some(v)) => matches!(v, "readonly" | "vendor"),
            ("doc", "all" | "c" | "cmd" | "short" | "u", None) => true,
            _ => false,
        }
    };
    let mut words = rest.iter();
    let mut operands = 0;
    while let Some(&t) = words.next() {
        if let Some(option) = t.strip_prefix('-').filter(|o| !o.is_empty()) {
            // `-f FORMAT` and `-tags LIST` take the next word.
            if sub == "list" && matches!(option.trim_start_matches('-'), "f" | "tags") {
                words
                    .next()
                    .ok_or_else(|| format!("`go list {t}` has no value"))?;
                continue;
            }
            if !flag(t.strip_prefix('-').unwrap_or(t)) {
                return Err(format!("`go {sub}` is given `{t}`, not known to only read"));
            }
            continue;
        }
        operands += 1;
        // A package of the module by its directory (`./pkg/store`), below the working one.
        let below = t.starts_with("./") && !t.split('/').any(|c| c == "..");
        let known = match sub {
            "list" => matches!(t, "." | "./..." | "std" | "cmd" | "all") || below,
            // Its Go files' comments are printed: the directory is read.
            _ if below && operands == 1 => {
                e.reads.push(Word::literal_text(t));
                true
            }
            _ => {
                !t.starts_with(['.', '/', '~'])
                    && t.bytes().all(|b| {
                        b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'/' | b'-')
                    })
            }
        };
        if !known || (sub == "doc" && operands > 2) {
            return Err(format!(
                "`go {sub}` is given `{t}`, which is not a package of the module nor a name"
            ));
        }
    }
    e.go_packages = true;
    Ok(())
}

fn cargo(sub: &str, rest: &[&str], e: &mut Effects) -> Result<()> {
    const OPTIONS: &[&str] = &[
        "--format-version",
        "--no-deps",
        "--all-features",
        "--no-default-features",
        "--offline",
        "--frozen",
        "--locked",
        "-q",
        "--quiet",
        "--workspace",
        "--no-dedupe",
        "-d",
        "--duplicates",
        "--depth",
        "-e",
        "--edges",
        "-i",
        "--invert",
        "-p",
        "--package",
        "--prefix",
        "--charset",
        "-f",
        "--format",
        "--features",
        "-F",
        "--filter-platform",
        "--target",
        "--color",
    ];
    for t in rest {
        let name = t.split_once('=').map_or(*t, |(n, _)| n);
        if name.starts_with('-') && !OPTIONS.contains(&name) {
            return Err(format!("`cargo {sub} {name}` is not known to only read"));
        }
    }
    let no_deps = sub == "metadata" && rest.contains(&"--no-deps");
    let offline = rest.iter().any(|t| matches!(*t, "--offline" | "--frozen"));
    if !(no_deps || offline) {
        e.cargo_resolve = true;
    }
    if !no_deps {
        e.requires.push(Word::literal_text("Cargo.lock"));
    }
    Ok(())
}

/// Whether the options of `command` (the words before its operand) make it look a name up
/// (`-v`, `-V`) rather than run it.
pub fn command_lookup(options: &[Word]) -> bool {
    options.iter().any(|w| {
        w.literal()
            .is_some_and(|t| t.starts_with('-') && t.contains(['v', 'V']))
    })
}

/// Where a wrapper's command starts among its arguments (`timeout 5 ls` → 1), after its
/// options and its own operands (`timeout`'s duration, `env`'s `NAME=value`); `Ok(None)` when
/// it runs nothing.
///
/// # Errors
///
/// Why its options cannot be read with certainty.
pub fn wrapped_command(program: &str, args: &[Word]) -> std::result::Result<Option<usize>, String> {
    let Some(entry) = entries().get(program) else {
        return Err(format!(
            "the policy does not know how `{program}` reads its options"
        ));
    };
    let items = read_args(entry, args)?;
    for item in &items {
        if let Item::Opt(opt, _) = item
            && opt.has('x')
        {
            return Err(format!("its option `{}` is not modeled", opt.display));
        }
    }
    let mut operands = items.iter().filter_map(|i| match i {
        Item::Operand(at, w) => Some((*at, w)),
        Item::Opt(..) => None,
    });
    match program {
        "timeout" => {
            operands.next();
        }
        "env" => {
            for (at, w) in operands.by_ref() {
                match w.literal() {
                    Some(t) if t.contains('=') && !t.starts_with('=') => {}
                    Some(_) => return Ok(Some(at)),
                    None => return Err(format!("`{}` is only known when it runs", w.raw)),
                }
            }
            return Ok(None);
        }
        _ => {}
    }
    Ok(operands.next().map(|(at, _)| at))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_is_one_program_of_the_table_found_by_hash_as_by_search() {
        let mut seen = std::collections::HashSet::new();
        for program in table::PROGRAMS {
            for name in program.names {
                assert!(
                    seen.insert(*name),
                    "`{name}` names two programs of the table"
                );
                let hashed = program_named(name).expect("in the map");
                assert!(std::ptr::eq(hashed, lookup(name).expect("in the table")));
                assert!(std::ptr::eq(hashed, program));
            }
        }
        assert!(program_named("prog5").is_none() && lookup("prog5").is_none());
    }

    fn cmd(text: &str) -> SimpleCommand {
        let script = crate::shell::parse(text).unwrap();
        script.commands[0].clone()
    }

    fn modeled(text: &str) -> Effects {
        match model(&cmd(text)) {
            Model::Modeled(e) => *e,
            Model::Unmodeled(why) => panic!("{text}: unmodeled: {why}"),
        }
    }

    fn unmodeled(text: &str) -> String {
        match model(&cmd(text)) {
            Model::Modeled(e) => panic!("{text}: modeled as {e:?}"),
            Model::Unmodeled(why) => why,
        }
    }

    #[test]
    fn a_quote_inside_a_brace_group_does_not_keep_it_one_word() {
        for w in [
            r#"{-true"",-delete}"#,
            "{x$'',-y}",
            r#"{"a",b}"#,
            r"{a\,,b}",
            "x{1..3}",
        ] {
            let word = cmd(&format!("echo {w}")).words[1].clone();
            assert!(may_split(&word), "{w}");
        }
        for w in [r#"{a",b"}"#, "'{a,b}'", r"{a\,b}", "{a}", "HEAD@{1}"] {
            let word = cmd(&format!("echo {w}")).words[1].clone();
            assert!(!may_split(&word), "{w}");
        }
        // Each value of find, the word of every special program: an option may come of it.
        for line in [
            "find . -name {a,-delete}",
            r#"find . -name {"*.rs",-delete}"#,
            "find . -newer {a,-delete}",
            r"find . -exec echo {x,\;,-delete,-exec,echo} \;",
            r#"find . {-true"",-delete}"#,
            r#"jq {."",-L/tmp} f.json"#,
            r#"git status {."",--porcelain}"#,
        ] {
            unmodeled(line);
        }
        modeled(r#"find . -name "*.rs" -exec wc -l {} \;"#);
    }

    #[test]
    fn every_element_of_an_array_or_the_positional_parameters_is_a_word() {
        for w in [
            r#""$@""#,
            "$@",
            r#""${@:1}""#,
            r#""${a[@]}""#,
            r#""${a[@]:0:3}""#,
            r#""${!a[@]}""#,
            "$*",
            r#"x"${a[*]}""#,
        ] {
            let word = Word::dynamic(w, "").with_domain(crate::shell::Domain {
                values: vec!["x".to_owned()],
                ..crate::shell::Domain::default()
            });
            assert!(may_split(&word), "{w}");
        }
        // Unquoted, a value with a blank, an empty one, a glob or a command's output splits;
        // quoted, none does.
        for (values, producers) in [
            (vec!["x -o -delete"], vec![]),
            (vec![""], vec![]),
            (vec!["*.rs"], vec![]),
            (vec![], vec![0]),
        ] {
            let domain = crate::shell::Domain {
                values: values.iter().map(|v| (*v).to_owned()).collect(),
                producers,
                ..crate::shell::Domain::default()
            };
            let word = Word::dynamic("$x", "").with_domain(domain.clone());
            assert!(may_split(&word), "{values:?}");
            let quoted = Word::dynamic(r#""$x""#, "").with_domain(domain);
            assert!(!may_split(&quoted), "{values:?}");
        }
        let one = Word::dynamic("$x", "").with_domain(crate::shell::Domain {
            values: vec!["README.md".to_owned(), "src".to_owned()],
            ..crate::shell::Domain::default()
        });
        assert!(!may_split(&one));
        assert!(may_split(&Word::dynamic(crate::shell::XARGS_INPUT, "")));
    }

    #[test]
    fn git_listing_and_hashing_are_read_as_git_reads_them() {
        // A filter by commit or annotation lines makes `git tag` list, whatever names follow;
        // `--sort`, `--format`, `--column` and `git branch -v` do not (the name is created).
        for text in [
            "git tag -n9 v1",
            "git tag --contains HEAD 'v*'",
            "git tag --points-at HEAD v1",
            "git branch -a 'fe*'",
            "git branch -r origin/x",
            "git branch --merged HEAD 'fe*'",
        ] {
            modeled(text);
        }
        for text in [
            "git tag --sort=refname v9",
            "git tag --column v9",
            "git branch -v x",
            "git branch --format='%(refname)' x",
        ] {
            unmodeled(text);
        }
        // `git hash-object` reads its files; without `--no-filters` the clean filter their
        // attributes name runs.
        let e = modeled("git hash-object --no-filters src/main.rs");
        assert_eq!(
            e.reads.iter().map(|w| w.raw.as_str()).collect::<Vec<_>>(),
            ["src/main.rs"]
        );
        modeled("git hash-object --stdin");
        modeled("git hash-object -t blob --no-filters a b");
        for text in [
            "git hash-object src/main.rs",
            "git hash-object --stdin --path=a.txt",
            "git hash-object -w --no-filters src/main.rs",
            "git hash-object --stdin-paths",
        ] {
            unmodeled(text);
        }
        // Display settings only (`-c color.ui=never`); any other key is unmodeled.
        modeled("git -c color.ui=never log --oneline");
        modeled("git -c log.date=iso -c color.diff=always log");
        unmodeled("git -c color.ui=never -c core.pager=x log");
        unmodeled("git -c log.showSignature=true log");
    }

    #[test]
    fn yq_reads_its_first_operand_as_a_file_when_one_is_named_so() {
        let files = |text: &str| -> Vec<String> {
            let e = modeled(text);
            e.reads_if_file.iter().map(|w| w.raw.clone()).collect()
        };
        // mikefarah's yq prints `.env` when the file exists: the word is a read to judge
        // then.
        assert_eq!(files("yq .env"), [".env"]);
        assert_eq!(files("yq -p props .env"), [".env"]);
        assert_eq!(files("yq -o json ~/.ssh/id_rsa"), ["~/.ssh/id_rsa"]);
        assert_eq!(files("yq .name config.yaml"), [".name"]);
        assert_eq!(files("yq -r '.a[]' c.yml"), ["'.a[]'"]);
        assert_eq!(modeled("yq .name c.yml").reads.len(), 1);
        // jq never reads its filter as a file.
        assert!(files("jq .env package.json").is_empty());
    }

    #[test]
    fn git_diff_of_two_paths_of_the_file_system_reads_them_whole() {
        let trees = |text: &str| -> Vec<(String, bool)> {
            let e = modeled(text);
            e.trees
                .iter()
                .map(|t| (t.root.raw.clone(), t.hidden))
                .collect()
        };
        let whole = |roots: &[&str]| -> Vec<(String, bool)> {
            roots.iter().map(|r| ((*r).to_owned(), true)).collect()
        };
        // `--no-index` compares directories file by file, hidden and ignored ones too.
        assert_eq!(trees("git diff --no-index src ."), whole(&["src", "."]));
        // Two words, one outside the repository: git compares them as `--no-index` does.
        assert_eq!(
            trees("git diff -- /etc/passwd README.md"),
            whole(&["/etc/passwd", "README.md"])
        );
        assert_eq!(
            trees("git diff --stat ~/.bashrc x"),
            whole(&["~/.bashrc", "x"])
        );
        assert_eq!(trees("git diff -U0 -- ../a b"), whole(&["../a", "b"]));
        // Revisions and pathspecs of the repository are not paths compared.
        assert!(trees("git diff HEAD~1 HEAD").is_empty());
        assert!(trees("git diff -- src README.md").is_empty());
        assert!(trees("git diff /etc/passwd a b").is_empty());
        assert!(trees("git diff a /etc/passwd --stat").is_empty());
    }

    #[test]
    fn a_check_of_sums_reads_its_lists_and_what_they_name() {
        let e = modeled("sha256sum -c SUMS");
        assert!(e.lists);
        assert_eq!(e.reads, [Word::literal_text("SUMS")]);
        let e = modeled("md5sum --check --quiet --ignore-missing a.md5 b.md5");
        assert!(e.lists);
        assert_eq!(e.reads.len(), 2);
        assert!(modeled("sha256sum -wc SUMS").lists);
        // Without a list the names come from its input.
        unmodeled("sha256sum -c");
        unmodeled("sha256sum --check");
        // Computing sums reads the files given, no list.
        assert!(!modeled("sha256sum a b").lists);
        // `cksum -c` and `shasum -c` are not read as the GNU digests' check.
        unmodeled("cksum -c SUMS");
        unmodeled("shasum -c SUMS");
    }

    #[test]
    fn every_table_entry_parses() {
        assert!(entries().len() > 100);
        for p in table::PROGRAMS {
            Options::parse(p.options);
        }
    }

    #[test]
    fn readers_read_their_operands_and_option_values() {
        let e = modeled("head -n5 -q src/a.rs src/b.rs");
        assert_eq!(e.reads.len(), 2);
        let e = modeled("sort --random-source=list.txt x");
        assert_eq!(e.reads[0].text(), "list.txt");
        let e = modeled("grep -rn TODO src");
        assert_eq!(e.trees[0].root.text(), "src");
        let e = modeled("sort -o out.txt in.txt");
        assert_eq!(e.writes[0].text(), "out.txt");
        for writer in [
            "iconv -t ascii -o out.txt in.txt",
            "iconv --output=out.txt in.txt",
            "shuf -o out.txt in.txt",
            "shuf -eo out.txt a b",
        ] {
            assert_eq!(modeled(writer).writes[0].text(), "out.txt", "{writer}");
        }
        assert_eq!(
            modeled("shuf --random-source=seed.bin a.txt").reads[0].text(),
            "seed.bin"
        );
        let e = modeled("uniq in.txt out.txt");
        assert_eq!(e.writes[0].text(), "out.txt");
    }

    #[test]
    fn formats_that_verify_signatures_run_gpg() {
        for c in [
            "git log --format=%G?",
            "git for-each-ref --format='%(signature)'",
            "git for-each-ref --format='%(refname) %(signature:grade)'",
            "git branch -a --format='%(refname:short) %(signature:key)'",
            "git tag -l --format='%(signature:signer)'",
        ] {
            unmodeled(c);
        }
        modeled("git for-each-ref --format='%(refname) %(contents:signature)'");
        modeled("git branch --format='%(refname:short)'");
    }

    #[test]
    fn the_terminal_is_queried_never_changed() {
        for query in [
            "tput cols",
            "tput lines",
            "tput setaf 1",
            "tput -T xterm-256color colors",
            "stty size",
            "stty -a",
            "stty --save",
        ] {
            let e = modeled(query);
            assert!(e.reads.is_empty() && e.writes.is_empty(), "{query}");
        }
        for change in [
            "tput init",
            "tput reset",
            "tput -S",
            "tput -T ../x cols",
            "tput cols $X",
            "stty raw",
            "stty -echo",
            "stty -F /dev/ttyS0",
            "stty cols 80",
            "stty size 1",
        ] {
            unmodeled(change);
        }
    }

    #[test]
    fn unknown_programs_options_and_dumps_are_unmodeled() {
        unmodeled("frobnicate");
        unmodeled("./cat x");
        unmodeled("sort --compress-program=sh x");
        // An abbreviation of a harmless option is not read; one of an option that writes
        // is read as that option: its write is judged.
        unmodeled("sort --rev y");
        assert_eq!(modeled("sort --out=x y").writes[0].text(), "x");
        unmodeled("printenv");
        unmodeled("env");
        unmodeled("export -p");
        unmodeled("export PATH=.");
        unmodeled("declare -n x=PATH");
        unmodeled("set");
        unmodeled("set +B");
        unmodeled("set -e +B");
        unmodeled("set +eB");
        unmodeled("set +o braceexpand");
        modeled("set -B");
        modeled("set -o braceexpand");
        unmodeled("date -s 2020-01-01");
        unmodeled("date 0101000020");
        unmodeled("hostname evil");
        // The commits replace refs hide, which the history's check does not read.
        unmodeled("git --no-replace-objects log -p");
        unmodeled("ps e");
        unmodeled("jq -n env");
        unmodeled("jq '$ENV.HOME'");
        // Characters of several bytes before `env` do not make it read as an object key.
        unmodeled("jq '\"é\"|.|env' a.json");
        unmodeled("jq '\"éé\"|. |env' a.json");
        unmodeled("jq '\"é\"|.|env.HOME' a.json");
        modeled("jq '\"é\"|.env' a.json");
        unmodeled("printf -v x y");
        unmodeled("cargo build");
        // Modeled only as resolving nothing: the judge proves it from Cargo.lock.
        assert!(modeled("cargo tree").cargo_resolve);
        modeled("cargo tree --offline");
        modeled("cargo metadata --format-version 1 --no-deps");
        modeled("ls -la src");
        modeled("ps -e");
        // With no terminal, the default selection is every process of the user.
        unmodeled("ps -f");
        unmodeled("ps -F");
        unmodeled("ps -Ocmd");
        unmodeled("ps -o pid,args");
        modeled("ps axc");
        modeled("ps -eo pid,comm");
        unmodeled("ps aux");
        unmodeled("ps -ef");
        unmodeled("ps -eo args");
        // A value that may not parse makes procps read the line as BSD letters.
        for bsd in [
            "ps -aux",
            "ps -auxe",
            "ps -eux",
            "ps -uxwe",
            "ps -a -uxe",
            "ps -auxe --sort=pid",
            "ps -wwauxe",
            "ps -sxe",
            "ps -p1e",
            "ps -Uxe",
            "ps -u root",
        ] {
            unmodeled(bsd);
        }
        modeled("ps -p 1,2 -o pid,comm");
        modeled("ps -e --sort=pid");
        unmodeled("ps -A -o pid,cmd");
        unmodeled("ps -e -o %a");
        unmodeled("ps -e -o pid,args:80");
        unmodeled("ps -e -o pid=,command=CMD");
        unmodeled("ps -e -o pid,unknownfield");
        modeled("ps -e -o pid=,user:20,comm=NAME,%cpu");
        modeled("date +%s");
        modeled("export LANG=C");
        modeled("set -euo pipefail");
    }

    #[test]
    fn locale_and_zone_values_name_no_file() {
        for ok in [
            "export LANG=C",
            "export LC_ALL=C.UTF-8",
            "export LANG=en_US.UTF-8",
            "export TZ=UTC",
            "export TZ=Europe/Paris",
            "export TZ=America/Argentina/Buenos_Aires",
            "export LANGUAGE=en:fr",
        ] {
            modeled(ok);
        }
        for bad in [
            "export LANGUAGE=../../../../tmp/evil",
            "export TZ=:/proc/self/environ",
            "export TZ=/etc/localtime",
            "export TZ=../x",
            "export TZ=$HOME/.aws/credentials",
            "export LC_ALL=./x",
            "export LANG=:C",
            "export NLSPATH=/tmp/x",
            "unset PATH",
            "unset -v HOME",
            "unset IFS",
        ] {
            unmodeled(bad);
        }
        modeled("unset tmp");
        modeled("unset -f helper");
    }

    #[test]
    fn queries_of_writing_programs_only_print() {
        modeled("kill -l");
        modeled("kill -l 9");
        modeled("touch --version");
        modeled("rm --help");
        unmodeled("kill 123");
        unmodeled("kill -l 9 $(x)");
        unmodeled("touch x");
        unmodeled("rm --version x");
        modeled("date -r README.md");
        modeled("sort --parallel=4 a.txt");
        modeled("shopt extglob");
        unmodeled("shopt -s extglob");
        modeled("ss -tlnp");
        unmodeled("ss -K dst 1.2.3.4");
    }

    #[test]
    fn system_listings_are_read_only_in_their_exact_spellings() {
        for ok in [
            "ip addr",
            "ip a",
            "ip -br -c addr show",
            "ip -j -s link list dev eth0",
            "ip route show",
            "ip -4 a show up",
            "ip neigh",
            "ip -V",
            "netstat -tlnp",
            "netstat -an",
            "netstat -rn",
            "netstat --numeric-hosts -t",
            "pgrep -l node",
            "pgrep -c -x cargo",
            "jq --version",
            "yq -V",
            "tee /dev/null",
            "tee",
            "tee -a /dev/null",
            "bash --version",
            "sh --help",
            "bash -n scripts/build.sh",
            "sh -n scripts/build.sh",
            "bash -nv scripts/build.sh arg",
            "bash -n",
            "iconv -f utf-8 -t ascii//TRANSLIT README.md",
            "iconv -l",
            "shuf -n 1 a.txt",
            "shuf -e a b c",
            "vmstat 1 2",
            "vmstat -s",
            "rustup which cargo",
            "cargo locate-project --workspace --message-format plain",
            "cargo --list",
            "openssl version",
            "openssl version -a",
            "mapfile -t lines",
            "readarray -t -n 10 rows",
            "rustup default",
            "pr -2 -t a.txt",
            "yq -y . config.yaml",
            "set -o",
            "set +o",
            "set -eo",
        ] {
            modeled(ok);
        }
        for bad in [
            // Abbreviated verbs are matched in ip's own order: `s` is `set`.
            "ip link s eth0 down",
            "ip link set eth0 down",
            "ip addr add 10.0.0.1/24 dev eth0",
            "ip a flush dev eth0",
            "ip addr sh",
            "ip route get 1.1.1.1",
            "ip -r route",
            "ip -resolve route",
            "ip -n other addr",
            "ip -netns other addr",
            "ip netns exec other sh",
            "ip -b cmds.txt",
            "ip -batch cmds.txt",
            "ip -force -b cmds.txt",
            "ip monitor",
            "ip addr show dev $(x)",
            "ip",
            "netstat -t",
            "netstat -tlp",
            "netstat -an extra",
            "pgrep -a node",
            "pgrep -f token",
            "pgrep -lf node",
            "pgrep -F pid.txt",
            "pkill node",
            "lsb_release -a",
            "jq --version -n env",
            "tee out.txt",
            "tee /dev/null out.txt",
            "tee -a log.txt",
            "tee --output-error=warn /dev/null",
            "tee /dev/null/../../tmp/x",
            "tee /dev/nul",
            "tee $x",
            "bash --version -c 'rm -rf x'",
            "bash --login --version",
            "bash scripts/build.sh",
            "bash -n +n scripts/build.sh",
            "bash -n -l scripts/build.sh",
            "bash -n --login scripts/build.sh",
            "bash -n --rcfile x scripts/build.sh",
            "bash -n -i scripts/build.sh",
            "bash -n -s",
            "bash -n $f",
            "vmstat --frobnicate",
            "cargo --list --config x",
            "openssl version -in x.key",
            "openssl rsa -in x.key",
            "openssl s_client -connect example.com:443",
            "mapfile -t PATH",
            "mapfile -C 'rm -rf x' -c 1 lines",
            "mapfile -t BASH_ENV",
            "readarray -t PROMPT_COMMAND",
            "rustup default nightly",
            "yq -y -i .a=1 config.yaml",
            "yq --in-place . config.yaml",
            "set -o vi",
            "set -o history",
            "set -o posix x",
            "set",
            "rustup which --toolchain x cargo",
            "rustup which ../x",
            "cargo locate-project --message-format x",
            "cargo locate-project --manifest-path ../x/Cargo.toml",
            "bash --rcfile x --version",
            "iconv --from-code=utf-8 --unknown x",
        ] {
            unmodeled(bad);
        }
    }

    #[test]
    fn usage_and_version_alone_are_read_before_anything_else() {
        for text in [
            "find --help",
            "tar --help",
            "sed --version",
            "awk --help",
            "sort --version",
            "jq --help",
            "dpkg-query --version",
        ] {
            assert_eq!(modeled(text), Effects::default(), "{text}");
        }
        // Toolchains' versions (their configuration in the workspace is judged apart).
        for text in [
            "perl -v",
            "rustfmt --version",
            "cargo fmt --version",
            "cargo clippy -V",
        ] {
            modeled(text);
        }
        for text in [
            "rustc --print=sysroot",
            "go env -json",
            "declare -F",
            "typeset -F",
            "gcc -v",
            "cargo read-manifest",
            "cargo verify-project",
        ] {
            modeled(text);
        }
        // Archives listed or tested, never extracted, printed or compressed; gzip's output on
        // standard output (`-c`, what `zcat` prints) reads its file and writes none.
        for (text, read) in [
            ("gunzip -c a.gz", "a.gz"),
            ("gzip -dl a.gz", "a.gz"),
            ("gzip -dc a.gz", "a.gz"),
            ("unzip -l a.zip", "a.zip"),
            ("unzip -qql a.zip src/x.rs", "a.zip"),
            ("unzip -Z -1 a.zip", "a.zip"),
            ("unzip -ZT a.zip", "a.zip"),
            ("unzip -Z -T a.zip", "a.zip"),
            ("zipinfo a.zip", "a.zip"),
            ("zipinfo -T a.zip", "a.zip"),
            ("gzip -l a.gz", "a.gz"),
            ("gunzip -t a.gz", "a.gz"),
            ("gzip --list -- a.gz", "a.gz"),
        ] {
            let e = modeled(text);
            assert_eq!(
                e.reads.iter().map(|w| w.raw.as_str()).collect::<Vec<_>>(),
                [read],
                "{text}"
            );
        }
        for text in [
            "unzip a.zip",
            "unzip -p a.zip .env",
            "unzip -l a.zip -d out",
            "unzip -lo a.zip",
            // unzip's own `-T` sets the archive's time stamp, listing or testing.
            "unzip -lT a.zip",
            "unzip -tT a.zip",
            "unzip -T -l a.zip",
            "unzip -vT a.zip",
            "unzip -lqT a.zip",
            "gzip a.txt",
            "gzip -l",
            "gzip -d a.gz",
            "gunzip a.gz",
            "gzip -c -S .x a.gz",
            "zipinfo -x a.zip",
        ] {
            unmodeled(text);
        }
        modeled("git log -h");
        modeled("git diff -h");
        unmodeled("git log -h --output=x");
        unmodeled("git -c core.pager=id log -h");
        unmodeled("rustc --print=link-args");
        unmodeled("go env -w GOFLAGS=-x");
        for line in [
            "go list ./...",
            "go list -m all",
            "go list -f '{{.Dir}}' std",
            "go list -f={{.ImportPath}} -deps -test ./cmd/...",
            "go list -json=Dir,Name -e .",
            "go list -mod=vendor ./...",
            "go doc fmt.Println",
            "go doc -all encoding/json",
            "go doc ./internal/x",
        ] {
            assert!(modeled(line).go_packages, "{line}");
        }
        // What the go command prints of itself still selects a toolchain by `go.mod`.
        for line in [
            "go help modules",
            "go tool dist list -json",
            "go mod edit -json",
        ] {
            assert!(modeled(line).go_toolchain, "{line}");
        }
        assert_eq!(modeled("go doc ./internal/x").reads[0].raw, "./internal/x");
        assert_eq!(modeled("node --check src/a.js").reads[0].raw, "src/a.js");
        for line in [
            "go mod edit -require=x@v1",
            "go mod edit -json -fmt",
            "go help -x",
            // Build settings (`-ldflags=-X main.key=…`) are printed, of every binary below a
            // directory.
            "go version -m bin/app",
            "node --check",
            "node --check a.js b.js",
        ] {
            unmodeled(line);
        }
        for line in [
            "go list -u -m all",
            "go list -m -versions example.com/x",
            "go list -export ./...",
            "go list -compiled ./...",
            "go list -mod=mod ./...",
            "go list -toolexec=/tmp/x ./...",
            "go list example.com/other/pkg",
            "go list ./../elsewhere",
            "go list -f",
            "go doc -src fmt",
            "go doc ./internal/../../x",
            "go doc /etc/passwd",
            "go doc a b c",
        ] {
            unmodeled(line);
        }
        unmodeled("gcc -v main.c");
        unmodeled("cargo verify-project --manifest-path ../x/Cargo.toml");
        unmodeled("declare -F -p");
        unmodeled("declare -f");
        unmodeled("rustfmt src/main.rs");
        unmodeled("cargo fmt");
        unmodeled("cargo clippy --version --fix");
        // With anything else, or from a program that may build or reach the network first.
        unmodeled("find --help -delete");
        unmodeled("cargo build --help");
        unmodeled("git --help");
        unmodeled("curl --help");
        unmodeled("ldd ./a.out");
        unmodeled("dpkg -i x.deb");
        unmodeled("mount /dev/sda1 /mnt");
    }

    #[test]
    fn git_history_contents_beyond_the_current_branch_are_unmodeled() {
        modeled("git log -p");
        modeled("git log -p -- src/main.rs");
        modeled("git log -S foo --oneline");
        modeled("git show HEAD");
        modeled("git show --stat HEAD~3");
        modeled("git show HEAD~1:src/main.rs");
        modeled("git cat-file -p HEAD:src/main.rs");
        modeled("git cat-file -p :src/main.rs");
        // A file of another branch or tag, another commit's diff: the policy must find each
        // revision to be a commit the refs reach (whose files the history's check covers).
        let to_verify = |text: &str| -> Vec<String> {
            modeled(text)
                .paths_not_revisions
                .iter()
                .map(|w| w.raw.clone())
                .collect()
        };
        assert_eq!(
            to_verify("git show other:src/config.js"),
            ["other:src/config.js"]
        );
        assert_eq!(
            to_verify("git show -s other:src/config.js"),
            ["other:src/config.js"]
        );
        assert_eq!(to_verify("git show HEAD~1"), Vec::<String>::new());
        assert_eq!(to_verify("git show abc1234"), ["abc1234"]);
        assert_eq!(to_verify("git show v1.2 HEAD"), ["v1.2"]);
        assert_eq!(to_verify("git diff main...topic"), ["main...topic"]);
        assert_eq!(to_verify("git diff HEAD~2..HEAD"), Vec::<String>::new());
        assert_eq!(to_verify("git log -p main..topic"), ["main..topic"]);
        assert_eq!(to_verify("git grep -n x v1.2"), ["v1.2"]);
        // Before `--`, a revision whatever files exist (the judge reads it so).
        assert_eq!(to_verify("git grep -e BEGIN HEAD~1 -- src"), ["HEAD~1"]);
        // A stash, an earlier checkout, a commit named by its message: no ref reaches it.
        unmodeled("git cat-file -p other:src/config.js");
        unmodeled("git cat-file blob other:src/config.js");
        unmodeled("git cat-file -p stash@{0}:x");
        unmodeled("git cat-file -p @{-1}:src/config.js");
        unmodeled("git cat-file -p t1:src/main.rs");
        modeled("git help -a");
        modeled("git cat-file --batch-check");
        modeled("git remote -v");
        unmodeled("git log -p -S PRIVATE");
        unmodeled("git log -G secret --patch");
        unmodeled("git show -S token");
        unmodeled("git log -p --all");
        unmodeled("git log -p --reflog");
        unmodeled("git log -p -g");
        // `--not` turns the exclusions after it into revisions.
        unmodeled("git log -p --not ^other");
        unmodeled("git log -p HEAD --not ^t1");
        unmodeled("git whatchanged -p --not ^other");
        unmodeled("git log -p --bisect");
        unmodeled("git log -p --merge");
        modeled("git log --oneline --not ^other");
        unmodeled("git show stash@{0}");
        unmodeled("git show :/fix");
        unmodeled("git remote get-url origin");
        unmodeled("git remote show origin");
        unmodeled("git cat-file -p v1.0");
        // The repository git finds anyway; not a work tree that makes other files deleted.
        modeled("git --git-dir=.git log --oneline -2");
        unmodeled("git --work-tree=. status");
        unmodeled("git --git-dir=../r/.git log");
        // gofmt prints; `-w` writes, `-cpuprofile` writes a profile.
        assert_eq!(modeled("gofmt -l -s src").trees.len(), 1);
        modeled("gofmt -d main.go");
        unmodeled("gofmt -w main.go");
        unmodeled("gofmt -cpuprofile=/tmp/p main.go");
        unmodeled("git cat-file blob v1.0");
        unmodeled("git cat-file -p v1.0:src/config.js");
        // What `fd -x`/`-X` runs is judged as a command of its own: fd is its walk.
        modeled("fd -e rs -x wc -l");
        modeled("fdfind -t f -X grep -n TODO");
        unmodeled("fd --exec=cat");
        unmodeled("fd -e md --exec-batch=wc -l");
        unmodeled("fd -Hx cat");
        unmodeled("fd --base-directory /tmp -x cat");
        unmodeled("git help log");
    }

    #[test]
    fn git_archive_only_lists_its_formats() {
        for text in ["git archive --list", "git archive -l", "git archive -l -v"] {
            let e = modeled(text);
            assert!(e.writes.is_empty() && e.reads.is_empty(), "{text}: {e:?}");
        }
        // An archive written, fetched from a remote, or printed from the objects.
        unmodeled("git archive HEAD");
        unmodeled("git archive --list HEAD");
        unmodeled("git archive --list --remote=origin");
        unmodeled("git archive --remote origin --list");
        unmodeled("git archive --list -o out.tar");
        unmodeled("git archive --list --output=out.tar");
        unmodeled("git archive --format=tar HEAD");
        unmodeled("git archive -lo out.tar");
    }

    #[test]
    fn wrappers_find_their_command_with_the_cursor() {
        let words = |t: &str| cmd(t).args().to_vec();
        assert_eq!(
            wrapped_command("env", &words("env -iu ls rm -rf x")).unwrap(),
            Some(2)
        );
        assert_eq!(
            wrapped_command("timeout", &words("timeout --foreground 5 ls")).unwrap(),
            Some(2)
        );
        assert_eq!(wrapped_command("env", &words("env A=1 B=2")).unwrap(), None);
        assert!(wrapped_command("env", &words("env -P /tmp ls")).is_err());
        assert!(wrapped_command("nice", &words("nice --adj=5 ls")).is_err());
    }
}
