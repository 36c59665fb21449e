//! A shell command as Warrant judges it: parsed by a real shell parser (brush-parser) into the
//! simple commands it would run, with wrappers (`sudo`, `env`, `bash -c`, `xargs`, …) unwrapped.
//!
//! Nothing here decides anything: the policy, the rules and the grant scoper read the same
//! [`Script`] and judge it in their own terms.

mod lower;
mod posix;
mod unwrap;
mod unwrap_privileged;
mod words;

pub(crate) use crate::policy::shell::judge::expand_braces;
pub(crate) use lower::variables::{Declared, declared};
pub(crate) use unwrap::XARGS_INPUT;
pub use words::{Domain, LineRead, Word};
pub(crate) use words::{may_expand_braces, public_variable, reads_as_written};

/// The longest command text that is parsed; longer ones are [`ShellError::TooLong`].
pub const MAX_COMMAND_BYTES: usize = 64 * 1024;

/// The deepest nesting of brackets, braces and substitutions that is parsed.
///
/// The parser recurses per level; the bound keeps it far from the stack's end.
pub const MAX_NESTING: usize = 16;

/// The most digits in a row a command may hold (an `i64` has 19).
pub const MAX_NUMBER_DIGITS: usize = 18;

/// The most digits of a file descriptor number before `<` or `>` (a `u32` has 10).
pub const MAX_FD_DIGITS: usize = 9;

/// Shells: they take code with `-c`.
pub const SHELLS: &[&str] = &["sh", "bash", "zsh", "dash", "ksh", "ash", "mksh", "fish"];

/// Programs that run code: the shells and script interpreters.
pub const INTERPRETERS: &[&str] = &[
    "sh", "bash", "zsh", "dash", "ksh", "ash", "mksh", "fish", "python", "python2", "python3",
    "perl", "ruby", "node", "php", "lua", "deno", "bun", "tclsh", "wish", "expect", "julia",
    "guile",
];

/// How many times code inside code (`bash -c`, `eval`, `$(…)`) is parsed before giving up.
pub const MAX_INNER_DEPTH: usize = 8;

/// Why a command could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ShellError {
    /// The shell parser rejected it.
    #[error("the shell parser rejected it: {0}")]
    Syntax(String),
    /// It is longer than [`MAX_COMMAND_BYTES`].
    #[error("it is {0} bytes long, more than the {MAX_COMMAND_BYTES} that are read")]
    TooLong(usize),
    /// It nests deeper than [`MAX_NESTING`], or wrappers and code inside code go deeper than
    /// [`MAX_INNER_DEPTH`].
    #[error("it nests deeper than {MAX_NESTING} levels")]
    TooDeep,
    /// It holds a number longer than [`MAX_NUMBER_DIGITS`] digits, or a file descriptor
    /// number longer than [`MAX_FD_DIGITS`].
    #[error("it holds a number too long to read")]
    NumberTooLong,
    /// It holds a control character other than a tab or a line end.
    #[error("it holds the control character {0:?}")]
    ControlCharacter(char),
    /// Bash evaluates part of it as code when it runs (arithmetic on variables, indirection,
    /// prompt expansion, subscripts, `-v` tests), or it expands an environment variable that
    /// may hold a secret.
    #[error(
        "bash evaluates `{0}` when it runs, as code or from an environment that may hold secrets"
    )]
    EvaluatesCode(String),
    /// Bash gives it a meaning the policy does not model (an equivalence class in a glob, an
    /// extended glob, a variable assigned where it cannot be followed).
    #[error("bash gives `{0}` a meaning that is not modelled")]
    Unmodeled(String),
    /// The shell that runs it is not bash and may read it otherwise than bash does (`sh -c`
    /// with `$'…'`, which dash does not decode), or it leaves a process running after the
    /// command ends (`&` with no `wait`, `coproc`).
    #[error("{0}")]
    Unsettled(String),
}

/// Where a redirection sends or takes data.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RedirectKind {
    /// `<`: the target is read.
    Read,
    /// `>`, `>>`, `>|`, `<>`, `&>`: the target is written.
    Write,
}

/// One file redirection of a command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Redirect {
    /// Read or write.
    pub kind: RedirectKind,
    /// The file.
    pub target: Word,
}

/// The directory a command runs in, as far as the text tells.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum WorkingDir {
    /// The workspace root (no `cd` came before).
    #[default]
    Root,
    /// A directory named by an earlier `cd` (relative to the workspace root, absolute, or `~…`).
    Dir(String),
    /// An earlier `cd` went somewhere the text does not tell.
    Unknown,
}

/// One simple command the shell would run.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SimpleCommand {
    /// The program and its arguments (empty for a bare assignment or redirection).
    pub words: Vec<Word>,
    /// Its file redirections.
    pub redirects: Vec<Redirect>,
    /// The variables assigned for it (`PATH=. ls` assigns `PATH`).
    pub assignments: Vec<String>,
    /// The values assigned, in the same order, when literal.
    pub assignment_values: Vec<Option<String>>,
    /// The directory it runs in.
    pub cwd: WorkingDir,
    /// The wrapper (`sudo`, `env`, `bash -c`, …) this command was unwrapped from, or the git
    /// command that runs it (code git runs from its configuration or options, `git NAME` for a
    /// program named `git-NAME`); a git command stays a command judged itself, not a wrapper.
    pub parent: Option<usize>,
    /// Whether this command is a wrapper whose inner commands follow in the script.
    pub wraps: bool,
    /// Whether it runs with raised privileges (under `sudo`, `doas` or `su`).
    pub elevated: bool,
    /// Whether arguments are appended at run time (`xargs`), so the words are not all of them.
    pub extra_args: bool,
    /// Whether it runs code that only exists at run time (`bash -c "$X"`, `eval "$(…)"`).
    pub runs_dynamic_code: bool,
    /// The commands whose output this one consumes: earlier parts of its pipeline, and
    /// substitutions in its words and redirections.
    pub feeds: Vec<usize>,
    /// Whether it is the whole command and the tool's input gave it as an argument vector
    /// (Codex's `["bash", "-lc", SCRIPT]`, see [`parse_given`]): how such an agent starts
    /// the shell it runs every command in. Never read from the text: the same line typed as
    /// a string (`'bash' '-lc' 'ls'`) is a shell the command starts.
    pub argument_vector: bool,
    /// Whether it is `cd "$(git rev-parse --show-toplevel)"` run from the workspace root, read
    /// as staying there (see `lower::wrappers::enters_toplevel`): then no repository may lie
    /// above the workspace, whose top level git would print instead.
    pub enters_toplevel: bool,
    /// The glob patterns its assignments' values hold, quotes taken off (`f=*`, `f='*.txt'`,
    /// `a=(src/*)`): an array's are expanded when assigned, a scalar's wherever the variable
    /// is expanded unquoted; either way the names they match may be printed.
    pub assigned_globs: Vec<String>,
}

impl SimpleCommand {
    /// The program's name: the last path component of the first word, when it is literal.
    pub fn program(&self) -> Option<&str> {
        let first = self.words.first()?.literal()?;
        // A byte scan from the end: names are short, and this runs for every question any
        // judge asks of a command (`rsplit` costs a searcher each time).
        Some(match first.bytes().rposition(|b| b == b'/') {
            Some(slash) => &first[slash + 1..],
            None => first,
        })
    }

    /// Whether no `xargs` stands between this command and its wrappers: then arguments it is
    /// given at run time are not represented among its words.
    pub fn ancestors_are_xargs_free(&self, script: &Script) -> bool {
        let mut next = self.parent;
        while let Some(i) = next {
            let Some(c) = script.commands.get(i) else {
                return true;
            };
            if c.program() == Some("xargs") {
                return false;
            }
            next = c.parent;
        }
        true
    }

    /// The arguments after the program.
    pub fn args(&self) -> &[Word] {
        self.words.get(1..).unwrap_or(&[])
    }

    /// The literal words, with `None` for those computed at run time.
    pub fn literals(&self) -> impl Iterator<Item = Option<&str>> {
        self.words.iter().map(Word::literal)
    }
}

/// A code fragment inside the command that could not be read (`bash -c '…'` with bad syntax).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unreadable {
    /// The fragment.
    pub code: String,
    /// Why.
    pub error: ShellError,
}

/// Everything a command would run.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Script {
    /// Every simple command, nested ones included, roughly in the order they run.
    pub commands: Vec<SimpleCommand>,
    /// Inner code that could not be read.
    pub unreadable: Vec<Unreadable>,
    /// Functions that call themselves through a pipe or in the background: fork bombs.
    pub fork_bombs: Vec<String>,
    /// The functions the command defines: a call of one runs its body, not a program.
    pub functions: Vec<String>,
    /// Whether the script may send a command's standard error to an output another command
    /// reads ([`merges_errors`]): then no producer's output is known to be only what it
    /// prints on success (`find … 2>&1 | xargs cat` reads find's messages as paths).
    pub errors_to_output: bool,
    /// Every directory a `cd`, `pushd` or `popd` of the command may move a shell to (a
    /// subshell's too), [`WorkingDir::Unknown`] for one the text does not tell: the shell
    /// is left in one of them or where it started, and an agent's shell that lives from one
    /// command to the next runs the next one there.
    pub moves: Vec<WorkingDir>,
    /// What the program table makes of each command, read once for every evaluator.
    models: Models,
}

/// The program table's reading of a script's commands ([`crate::programs::model`]), each
/// made when first asked for and kept: every evaluator of a call asks for the same ones. A
/// copy of a script starts with none (it may be changed), and two scripts are equal whatever
/// they have read so far.
#[derive(Debug, Default)]
struct Models(std::sync::OnceLock<Box<[std::sync::OnceLock<crate::programs::Model>]>>);

impl Clone for Models {
    fn clone(&self) -> Self {
        Self::default()
    }
}

impl PartialEq for Models {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl Eq for Models {}

impl Script {
    /// What the program table makes of `cmd`: kept for every evaluator when `cmd` is one of
    /// this script's commands (the same value, not an equal one), else read now.
    pub(crate) fn model_of(
        &self,
        cmd: &SimpleCommand,
    ) -> std::borrow::Cow<'_, crate::programs::Model> {
        let Some(at) = self.commands.iter().position(|c| std::ptr::eq(c, cmd)) else {
            return std::borrow::Cow::Owned(crate::programs::model(cmd));
        };
        std::borrow::Cow::Borrowed(self.model(at))
    }

    /// What the program table makes of command `at` (which must be one of the script's).
    pub(crate) fn model(&self, at: usize) -> &crate::programs::Model {
        let models = self.models.0.get_or_init(|| {
            (0..self.commands.len())
                .map(|_| std::sync::OnceLock::new())
                .collect()
        });
        models[at].get_or_init(|| crate::programs::model(&self.commands[at]))
    }

    /// The index of the first of the script's commands equal to `cmd`; `cmd` itself is, and
    /// is known without comparing.
    pub(crate) fn position(&self, cmd: &SimpleCommand) -> Option<usize> {
        self.commands
            .iter()
            .position(|c| std::ptr::eq(c, cmd) || c == cmd)
    }

    /// The commands that are not wrappers: what actually runs.
    pub fn leaves(&self) -> impl Iterator<Item = (usize, &SimpleCommand)> {
        self.commands.iter().enumerate().filter(|(_, c)| !c.wraps)
    }

    /// The wrappers a command was unwrapped from, innermost first.
    pub fn ancestors(&self, index: usize) -> impl Iterator<Item = (usize, &SimpleCommand)> {
        let mut next = self.commands.get(index).and_then(|c| c.parent);
        std::iter::from_fn(move || {
            let i = next?;
            let c = self.commands.get(i)?;
            next = c.parent;
            Some((i, c))
        })
    }
}

/// Programs that run a command as another user, with other privileges or elsewhere
/// (`sudo`, `doas`, `su`, `setpriv`, `chroot`, …): their options choose the identity, the
/// environment and the root the command runs with.
const PRIVILEGED_RUNNERS: &[&str] = &[
    "sudo",
    "sudoedit",
    "doas",
    "su",
    "runuser",
    "pkexec",
    "run0",
    "setpriv",
    "chroot",
    "nsenter",
    "systemd-run",
];

/// Whether `program` runs a command as another user, with other privileges or elsewhere
/// (see [`PRIVILEGED_RUNNERS`]).
pub fn is_privileged_runner(program: &str) -> bool {
    PRIVILEGED_RUNNERS.contains(&program)
}

/// Parses a command line into the commands it would run.
///
/// One simple command of plain words (`cargo build --release`) is split into its words
/// without the shell parser, as the parser would read it (a test compares the two readings);
/// everything else goes through the parser.
///
/// # Errors
///
/// A [`ShellError`] when the top-level text cannot be parsed; code nested inside it that cannot
/// be parsed is kept in [`Script::unreadable`] instead.
pub fn parse(command: &str) -> Result<Script, ShellError> {
    parse_from(command, WorkingDir::Root)
}

/// Parses a command line that starts in the directory `start`.
///
/// # Errors
///
/// As [`parse`].
pub fn parse_from(command: &str, start: WorkingDir) -> Result<Script, ShellError> {
    parse_given(command, start, false)
}

/// Parses a shell tool's command line that starts in the directory `start`; `vector` tells
/// whether the tool's input gave it as an argument vector quoted back into this line
/// ([`warrant_core::catalog::shell_command_is_vector`]), which only the input can tell.
///
/// # Errors
///
/// As [`parse`].
pub fn parse_given(command: &str, start: WorkingDir, vector: bool) -> Result<Script, ShellError> {
    let mut script = Script::default();
    lower::Lowering::new(&mut script).program(command, 0, start)?;
    let whole = vector
        && script.commands.first().is_some_and(|first| {
            first.parent.is_none()
                && first.redirects.is_empty()
                && first.assignments.is_empty()
                && quoted_vector(&first.words).is_some_and(|line| line == command)
        });
    if whole && let Some(first) = script.commands.first_mut() {
        first.argument_vector = true;
    }
    script.errors_to_output = merges_errors(command);
    lower::revisions::mark(&mut script);
    Ok(script)
}

/// Whether `code` may redirect a command's standard error anywhere but the null device: a
/// duplication (`2>&1`, `>&`, `&>`, `|&`), a device or descriptor path naming an output
/// (`/dev/stdout`, `/dev/fd/1`, `/proc/self/fd/1`), or `2>` starting a word to anything but
/// `/dev/null` (`$2>5` in an awk program is no redirection).
fn merges_errors(code: &str) -> bool {
    // Every form below holds a `&`, a `>` or a `/`: most commands hold none, and one scan
    // of the bytes tells so.
    if !code.bytes().any(|b| matches!(b, b'&' | b'>' | b'/')) {
        return false;
    }
    ["&>", ">&", "|&", "/dev/stdout", "/dev/fd", "/proc/"]
        .iter()
        .any(|m| code.contains(m))
        || code.match_indices("2>").any(|(at, _)| {
            let starts_word = code[..at]
                .chars()
                .next_back()
                .is_none_or(|c| c.is_whitespace() || ";&|(){}".contains(c));
            starts_word
                && !code[at + 2..]
                    .trim_start_matches(['>', ' ', '\t'])
                    .starts_with("/dev/null")
        })
}

/// The line an argument vector of these words is quoted back into (each word in single
/// quotes, `'` as `'\''`, joined by spaces), when every word is literal.
fn quoted_vector(words: &[Word]) -> Option<String> {
    let parts: Option<Vec<String>> = words
        .iter()
        .map(|w| {
            w.literal()
                .map(|t| format!("'{}'", t.replace('\'', "'\\''")))
        })
        .collect();
    parts.map(|p| p.join(" "))
}

/// What the evaluators of one call share, kept in the call's analysis slot
/// ([`EvaluationContext::analysis`](warrant_core::call::EvaluationContext)): its command as
/// parsed, and the paths resolved on disk while judging it, so that the policy, the rules, the
/// grant scoper and the reviewer parse the command once and resolve each path once, and all
/// judge the same view of the filesystem.
#[derive(Default)]
pub(crate) struct CallAnalysis {
    /// The command parsed first (by whichever evaluator asked first), with its text and
    /// whether it was given as an argument vector.
    parsed: std::sync::OnceLock<(String, bool, SharedParse)>,
    /// The scopes of the places that share this analysis: their root (resolved), whether it
    /// is real, and their home.
    scopes: std::sync::Mutex<Vec<Scope>>,
    /// Words placed (see [`Places::locate`](crate::paths::Places)), by scope, word and
    /// directory: the policy's secret scan and the rules' effects look at the same words.
    words: std::sync::Mutex<Vec<PlacedEntry>>,
}

/// A parse shared by the evaluators of one call.
type SharedParse = std::sync::Arc<Result<Script, ShellError>>;

/// The root, whether it is real, and the home of places sharing a call's analysis.
type Scope = (std::path::PathBuf, bool, Option<std::path::PathBuf>);

/// A word placed in a call: the scope it was placed in (its home counts only for a word or
/// directory starting with `~`), the word, its directory, and what placing it found.
struct PlacedEntry {
    root: usize,
    home: Option<usize>,
    raw: String,
    cwd: WorkingDir,
    word: crate::paths::PlacedWord,
}

/// The most words one call keeps placed; past it, words are placed again when asked.
const MAX_PLACED: usize = 256;

impl CallAnalysis {
    /// The analysis of the call evaluated in `cx`, made empty by the first to ask.
    pub(crate) fn of(cx: &warrant_core::call::EvaluationContext) -> std::sync::Arc<Self> {
        cx.analysis.get_or_insert_with(Self::default)
    }

    /// The scope of places with this root and home (a number naming them in this analysis;
    /// `usize::MAX` when none can be kept).
    pub(crate) fn scope(
        &self,
        root: &std::path::Path,
        root_real: bool,
        home: Option<&std::path::Path>,
    ) -> usize {
        let Ok(mut scopes) = self.scopes.lock() else {
            return usize::MAX;
        };
        if let Some(i) = scopes
            .iter()
            .position(|(r, real, h)| r == root && *real == root_real && h.as_deref() == home)
        {
            return i;
        }
        scopes.push((
            root.to_path_buf(),
            root_real,
            home.map(std::path::Path::to_path_buf),
        ));
        scopes.len() - 1
    }

    /// The scope key of a word used in `cwd` by places of `scope`: the first scope with the
    /// same root (and, when the word or its directory starts with `~`, the same home).
    fn word_scope(
        &self,
        scope: usize,
        raw: &str,
        cwd: &WorkingDir,
    ) -> Option<(usize, Option<usize>)> {
        let scopes = self.scopes.lock().ok()?;
        let (root, real, _) = scopes.get(scope)?;
        let first = scopes
            .iter()
            .position(|(r, re, _)| r == root && re == real)?;
        let homed = raw.starts_with('~') || matches!(cwd, WorkingDir::Dir(d) if d.starts_with('~'));
        Some((first, homed.then_some(scope)))
    }

    /// What `use_it` makes of the word `raw` (used in `cwd`) as `places` (of `scope`) place
    /// it, placed once per call and scope, its secret looked up once per set of secrets.
    /// `use_it` runs while the words are locked: it must not place words itself.
    pub(crate) fn placed<T>(
        &self,
        scope: usize,
        raw: &str,
        cwd: &WorkingDir,
        places: &crate::paths::Places<'_>,
        use_it: impl FnOnce(&crate::paths::PlacedWord) -> T,
    ) -> T {
        let id = places.secrets_id();
        let key = self.word_scope(scope, raw, cwd);
        let (Some((root, home)), Ok(mut words)) = (key, self.words.lock()) else {
            return use_it(&places.place_word(raw, cwd));
        };
        if let Some(entry) = words
            .iter_mut()
            .find(|e| e.root == root && e.home == home && e.raw == raw && e.cwd == *cwd)
        {
            let word = &mut entry.word;
            if let Some(id) = id
                && !word.secrets.iter().any(|(k, _)| *k == id)
            {
                let secret = places.secret_of(word);
                word.secrets.push((id, secret));
            }
            return use_it(word);
        }
        let mut word = places.place_word(raw, cwd);
        if let Some(id) = id {
            let secret = places.secret_of(&word);
            word.secrets.push((id, secret));
        }
        let out = use_it(&word);
        if words.len() < MAX_PLACED {
            words.push(PlacedEntry {
                root,
                home,
                raw: raw.to_owned(),
                cwd: cwd.clone(),
                word,
            });
        }
        out
    }
}

/// The command of the call evaluated in `cx`, parsed once for all its evaluators: the policy,
/// the rules, the grant scoper and the reviewer read the same [`Script`].
/// `vector` as [`parse_given`] takes it.
pub fn parse_in(
    cx: &warrant_core::call::EvaluationContext,
    command: &str,
    vector: bool,
) -> std::sync::Arc<Result<Script, ShellError>> {
    let analysis = CallAnalysis::of(cx);
    let parse = || std::sync::Arc::new(parse_given(command, WorkingDir::Root, vector));
    let (text, given, script) = analysis
        .parsed
        .get_or_init(|| (command.to_owned(), vector, parse()));
    if text == command && *given == vector {
        std::sync::Arc::clone(script)
    } else {
        parse()
    }
}

/// Rejects text the parser should not see: too long or nested too deep.
fn precheck(code: &str) -> Result<(), ShellError> {
    if code.len() > MAX_COMMAND_BYTES {
        return Err(ShellError::TooLong(code.len()));
    }
    let mut depth = 0usize;
    // The length of the run of digits just read: the parser underneath reads numbers (a
    // file descriptor before `<` or `>`, a brace sequence, `~N`) into fixed-size integers and
    // panics when one overflows.
    let mut digits = 0usize;
    for c in code.chars() {
        if c.is_ascii_digit() {
            digits += 1;
            if digits > MAX_NUMBER_DIGITS {
                return Err(ShellError::NumberTooLong);
            }
            continue;
        }
        if matches!(c, '<' | '>') && digits > MAX_FD_DIGITS {
            return Err(ShellError::NumberTooLong);
        }
        digits = 0;
        // A control character (a form feed, a vertical tab, a NUL, an escape) is no part of
        // a command a person types; some make the parser loop (`<<` with a form feed for a
        // here-document tag).
        if c.is_control() && !matches!(c, '\t' | '\n' | '\r') {
            return Err(ShellError::ControlCharacter(c));
        }
        match c {
            '(' | '{' | '[' => {
                depth += 1;
                if depth > MAX_NESTING {
                    return Err(ShellError::TooDeep);
                }
            }
            ')' | '}' | ']' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    Ok(())
}

#[cfg(test)]
mod parse_once_tests {
    use super::*;
    use warrant_core::call::{EvaluationContext, PermissionMode};

    #[test]
    fn every_evaluator_of_a_call_reads_one_parse() {
        let cx = EvaluationContext::new(PermissionMode::Default, "/w");
        let a = parse_in(&cx, "ls | wc -l", false);
        let b = parse_in(&cx.clone(), "ls | wc -l", false);
        assert!(std::sync::Arc::ptr_eq(&a, &b));
        let other = parse_in(&cx, "pwd", false);
        assert!(
            !std::sync::Arc::ptr_eq(&a, &other),
            "another text is parsed on its own"
        );
    }

    #[test]
    fn only_a_command_given_as_an_argument_vector_is_one() {
        let first =
            |r: &Result<Script, ShellError>| r.as_ref().unwrap().commands[0].argument_vector;
        let line = "'bash' '-lc' 'ls'";
        assert!(first(&parse_given(line, WorkingDir::Root, true)));
        // The same line typed as a string, or another line: the command's own shell.
        assert!(!first(&parse(line)));
        assert!(!first(&parse_from(line, WorkingDir::Root)));
        assert!(!first(&parse_given("bash -lc ls", WorkingDir::Root, true)));
        assert!(!first(&parse_given(
            "'bash' '-lc' 'ls' > out",
            WorkingDir::Root,
            true
        )));
        // The one parse a call shares is the one of the way its command was given.
        let cx = EvaluationContext::new(PermissionMode::Default, "/w");
        assert!(!first(&parse_in(&cx, line, false)));
        assert!(first(&parse_in(&cx, line, true)));
        let cx = EvaluationContext::new(PermissionMode::Default, "/w");
        assert!(first(&parse_in(&cx, line, true)));
        assert!(!first(&parse_in(&cx, line, false)));
    }
}

#[cfg(test)]
mod error_output_tests {
    use super::merges_errors;

    #[test]
    fn standard_error_sent_to_an_output_is_found() {
        for code in [
            "find . 2>&1 | xargs cat",
            "find . |& xargs cat",
            "for f in $( { git ls-files; } 2>&1 ); do cat $f; done",
            "find . &> x",
            "ls >& x",
            "ls 2>/dev/stdout",
            "ls 2>/dev/fd/1",
            "ls 2>/proc/self/fd/1",
            "ls 2>err; cat $(cat err)",
            "ls;2>x",
        ] {
            assert!(merges_errors(code), "{code}");
        }
        for code in [
            "find . -name x 2>/dev/null | xargs cat",
            "find . 2> /dev/null",
            "find . 2>>/dev/null",
            "awk '$2>5' f",
            "ls | xargs wc -l",
        ] {
            assert!(!merges_errors(code), "{code}");
        }
    }
}
