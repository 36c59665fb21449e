//! Project runners and the shell recipes they run: `make`'s targets, the scripts of
//! `package.json` that `npm test`/`npm run NAME` (pnpm, yarn, bun) run with their `pre`/`post`
//! hooks, and `just`'s recipes. A runner call is only as routine as the worst recipe it runs,
//! each judged as the shell command it is ([`recipes`]); the reviewer reads them when it
//! decides. What cannot be read through here — make's functions (`$(shell …)`, `$(wildcard
//! …)`), includes, conditionals, pattern and suffix rules, `$(MAKE)`, variables from the
//! environment, a changed `SHELL`, just's interpolation and settings, npm workspaces — is
//! unmodeled: the reviewer asks. Files are read up to a size cap, expansion to a depth.
//!
//! A shell script of the workspace (`./scripts/build.sh`, `bash scripts/x.sh`) is a runner
//! too: its whole text is the one recipe it runs, in the caller's directory, with the
//! arguments it is given as its positional parameters ([`script_run`]). A script that is not
//! a regular text file of the workspace, is too long, or whose `#!` line names an interpreter
//! other than a POSIX shell or bash is not read: the reviewer asks.
//!
//! The files that define what runners run ([`runner_file`]) are judged when written: by the
//! recipes of their new content when it is given whole ([`written_recipes`]), else not
//! routine. Program code the project's own tools compile and run (`build.rs`, `conftest.py`,
//! test code) is not shell text: the reviewer does not read it.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use crate::shell;

/// The most variable expansions one word may go through.
const MAX_EXPANSION_DEPTH: usize = 16;
/// The most targets or scripts a runner call may reach.
const MAX_RECIPES: usize = 256;

/// One shell command a runner runs: the directory it runs in (relative to the workspace,
/// empty for its root), its text, and where it comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Recipe {
    /// The directory, relative to the workspace.
    pub dir: String,
    /// The shell text.
    pub text: String,
    /// Where it is defined (`Makefile: test`), for reasons.
    pub origin: String,
}

/// What a file defines for a runner to run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum RunnerFile {
    /// A makefile (`Makefile`, `GNUmakefile`, `makefile`, `*.mk`).
    Make,
    /// A `package.json` (its `scripts`).
    Package,
    /// A justfile.
    Just,
    /// Code a build or test runner runs itself (`build.rs`, `conftest.py`, `setup.py`,
    /// `noxfile.py`, `tox.ini`): not shell text the reviewer reads.
    Code,
}

/// What the file named `path` defines for a runner to run, if anything.
pub(super) fn runner_file(path: &str) -> Option<RunnerFile> {
    let name = path.rsplit(['/', '\\']).next().unwrap_or(path);
    let lower = name.to_ascii_lowercase();
    match lower.as_str() {
        "makefile" | "gnumakefile" => Some(RunnerFile::Make),
        _ if lower.ends_with(".mk") || lower.ends_with(".make") => Some(RunnerFile::Make),
        "package.json" => Some(RunnerFile::Package),
        "justfile" | ".justfile" => Some(RunnerFile::Just),
        _ if lower.ends_with(".just") => Some(RunnerFile::Just),
        "build.rs" | "conftest.py" | "setup.py" | "noxfile.py" | "tox.ini" | "pytest.ini"
        | ".pytest.ini" | "pyproject.toml" | "setup.cfg" | "jest.config.js" | "jest.config.ts"
        | "jest.config.mjs" | "jest.config.cjs" | "vitest.config.ts" | "vitest.config.js"
        | "vitest.config.mts" | "vitest.config.mjs" => Some(RunnerFile::Code),
        _ => None,
    }
}

/// Every recipe the new content `text` of a file of `kind` defines that a routine runner
/// call runs — the default goal and the targets or scripts named `routine` (with their
/// prerequisites, dependencies and `pre`/`post` hooks) — for a write of it; `Err` with why
/// when they cannot all be read.
pub(super) fn written_recipes(
    kind: RunnerFile,
    text: &str,
    routine: &[&str],
) -> Result<Vec<String>, String> {
    let named = |names: Vec<&String>, first: Option<&String>| -> Vec<String> {
        first
            .into_iter()
            .chain(names.into_iter().filter(|n| routine.contains(&n.as_str())))
            .cloned()
            .collect()
    };
    match kind {
        RunnerFile::Make => {
            let file = Makefile::parse(text)?;
            let first = file.default_goal.as_ref().or_else(|| file.order.first());
            let goals = named(file.order.iter().collect(), first);
            let mut out = Vec::new();
            for goal in goals {
                out.extend(file.run(&[goal], "", None)?.into_iter().map(|(_, t)| t));
            }
            Ok(out)
        }
        RunnerFile::Package => {
            let scripts = package_scripts(text)?;
            Ok(scripts
                .into_iter()
                .filter(|(k, _)| {
                    let base = k
                        .strip_prefix("pre")
                        .or_else(|| k.strip_prefix("post"))
                        .filter(|b| scripts_named(routine, b))
                        .unwrap_or(k);
                    scripts_named(routine, base)
                })
                .map(|(_, v)| v)
                .collect())
        }
        RunnerFile::Just => {
            let file = Justfile::parse(text)?;
            let goals = named(file.recipes.keys().collect(), file.first.as_ref());
            let mut out = Vec::new();
            for goal in goals {
                out.extend(file.run(&[goal])?.into_iter().map(|(_, t)| t));
            }
            Ok(out)
        }
        RunnerFile::Code => Err("its content is program code, not shell text".to_owned()),
    }
}

/// The recipes the command `cmd` runs, if it is a project runner: `None` for any other
/// command, `Some(Err(why))` when they cannot be read through. `root` is the workspace.
pub(super) fn recipes(
    cmd: &shell::SimpleCommand,
    root: &Path,
) -> Option<Result<Vec<Recipe>, String>> {
    let program = cmd.program()?;
    let runner = matches!(program, "make" | "just" | "npm" | "pnpm" | "yarn" | "bun");
    let script = script_run(cmd);
    if !runner && script.is_none() {
        return None;
    }
    let words: Option<Vec<&str>> = cmd.args().iter().map(shell::Word::literal).collect();
    let Some(words) = words else {
        return Some(Err("an argument is only known when it runs".to_owned()));
    };
    let dir = match &cmd.cwd {
        shell::WorkingDir::Root => String::new(),
        shell::WorkingDir::Dir(d) => d.trim_end_matches('/').to_owned(),
        shell::WorkingDir::Unknown => {
            return Some(Err(
                "it runs in a directory only known when it runs".to_owned()
            ));
        }
    };
    if let Some(run) = script {
        let first = cmd.words.first().and_then(shell::Word::literal)?;
        return Some(shell_script(root, &dir, run, first, &words));
    }
    Some(match program {
        "make" => make(root, &dir, &words),
        "just" => just(root, &dir, &words),
        _ => node(root, &dir, program, &words),
    })
}

/// The shells whose script files the reviewer reads as shell text: a POSIX shell or bash,
/// which the policy's reading of a command models.
const SCRIPT_SHELLS: &[&str] = &["sh", "bash", "dash"];

/// The largest script file the reviewer reads.
const MAX_SCRIPT_BYTES: u64 = 64 * 1024;

/// How a command runs a shell script of the workspace.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum ScriptRun {
    /// The file itself is the program (`./scripts/build.sh`, `tools/x.sh`): the kernel
    /// runs the interpreter its `#!` line names, or the calling shell runs it.
    Direct,
    /// A shell is given the file to read (`bash scripts/x.sh`, `sh -e x.sh`): its `#!`
    /// line is a comment.
    Shell,
}

/// Whether `cmd` runs a shell script of the workspace, and how: a program named by a
/// relative path, or `sh`/`bash`/`dash` (by name or from `/bin`, `/usr/bin`) given a file.
/// A shell given `-c` or nothing to read is not (the policy reads what it runs).
pub(super) fn script_run(cmd: &shell::SimpleCommand) -> Option<ScriptRun> {
    let first = cmd.words.first()?.literal()?;
    let program = cmd.program()?;
    if SCRIPT_SHELLS.contains(&program)
        && (first == program
            || first
                .strip_suffix(program)
                .is_some_and(|d| matches!(d, "/bin/" | "/usr/bin/")))
    {
        let reads_file = cmd
            .args()
            .iter()
            .map(shell::Word::literal)
            .find(|w| w.is_none_or(|w| !w.starts_with(['-', '+'])))
            .is_some();
        let code = cmd.args().iter().any(|w| {
            w.literal().is_some_and(|w| {
                w.starts_with('-') && !w.starts_with("--") && w.contains(['c', 's'])
            })
        });
        return (reads_file && !code).then_some(ScriptRun::Shell);
    }
    (first.contains('/') && !first.starts_with(['/', '~'])).then_some(ScriptRun::Direct)
}

/// Whether a `#!` line names a shell whose text the policy models, with options that
/// change nothing it runs (`-e`, `-u`, `-x`, `-v`).
fn modeled_shebang(line: &str) -> bool {
    let mut words = line.split_ascii_whitespace();
    let Some(mut interpreter) = words.next() else {
        return false;
    };
    if matches!(interpreter, "/usr/bin/env" | "/bin/env") {
        match words.next() {
            Some(next) => interpreter = next,
            None => return false,
        }
    }
    let name = interpreter.rsplit('/').next().unwrap_or(interpreter);
    let known = SCRIPT_SHELLS.contains(&name)
        && (interpreter == name
            || matches!(interpreter.strip_suffix(name), Some("/bin/" | "/usr/bin/")));
    // Linux hands everything after the interpreter over as one argument.
    let rest: Vec<&str> = words.collect();
    known
        && match rest.as_slice() {
            [] => true,
            [flags] => {
                flags.len() > 1
                    && flags.starts_with('-')
                    && flags[1..]
                        .chars()
                        .all(|c| matches!(c, 'e' | 'u' | 'x' | 'v'))
            }
            _ => false,
        }
}

/// The shell script a command runs (`run`, with the command's literal `args`) in `dir`,
/// as one recipe run in that directory: its whole text, read when the call is decided.
/// The arguments it is given are its positional parameters, which the policy reads as only
/// known when it runs. `Err` with why when the script is not read: not a regular file of the
/// workspace (a link leading out of it), too long, not text, a `#!` line naming another
/// interpreter, options of the shell not read here, or a name the shell looks up elsewhere.
fn shell_script(
    root: &Path,
    dir: &str,
    run: ScriptRun,
    program: &str,
    args: &[&str],
) -> Result<Vec<Recipe>, String> {
    let (file, named, params) = match run {
        ScriptRun::Direct => (program, true, args),
        ScriptRun::Shell => {
            let mut options = true;
            let mut at = None;
            for (k, word) in args.iter().enumerate() {
                match *word {
                    "--" if options => options = false,
                    w if options && w.len() > 1 && w.starts_with('-') => {
                        if !w[1..].chars().all(|c| matches!(c, 'e' | 'u' | 'x' | 'v')) {
                            return Err(format!("`{program} {w}` is not read here"));
                        }
                    }
                    _ => {
                        at = Some(k);
                        break;
                    }
                }
            }
            let at = at.ok_or("the shell reads no file")?;
            let file = args[at];
            (file, file.contains('/'), &args[at + 1..])
        }
    };
    let rel = join(dir, file);
    if rel.starts_with(['/', '~']) {
        return Err(format!("`{rel}` is not a file of the workspace"));
    }
    if !named && !root.join(&rel).exists() {
        // bash looks a name without a slash up in the `PATH` when it is not there.
        return Err(format!(
            "`{file}` is not there: the shell looks it up in the PATH"
        ));
    }
    if rel.split('/').any(|c| c == "..") {
        return Err(format!("`{rel}` may lie outside the workspace"));
    }
    let path = root.join(&rel);
    let canonical_root =
        std::fs::canonicalize(root).map_err(|e| format!("the workspace cannot be read ({e})"))?;
    let real = std::fs::canonicalize(&path).map_err(|e| format!("`{rel}` cannot be read ({e})"))?;
    if !real.starts_with(&canonical_root) {
        return Err(format!("`{rel}` leads outside the workspace"));
    }
    let bytes = crate::paths::small_file::read_bytes(&real, MAX_SCRIPT_BYTES)
        .map_err(|why| format!("`{rel}` is not read ({why})"))?
        .ok_or_else(|| format!("`{rel}` is not there"))?;
    let text = String::from_utf8(bytes).map_err(|_| format!("`{rel}` is not text"))?;
    if text.contains(['\0', '\r']) {
        return Err(format!("`{rel}` holds bytes a shell reads otherwise"));
    }
    if run == ScriptRun::Direct
        && let Some(line) = text.lines().next().and_then(|l| l.strip_prefix("#!"))
        && !modeled_shebang(line)
    {
        return Err(format!(
            "`{rel}` is run by `{}`, not a shell read here",
            line.trim()
        ));
    }
    // The arguments are the script's positional parameters, set as they are given.
    let mut body = String::new();
    if !params.is_empty() {
        body.push_str("set --");
        for a in params {
            body.push(' ');
            body.push_str(&parameter(a));
        }
        body.push('\n');
    }
    body.push_str(&text);
    Ok(vec![Recipe {
        dir: dir.to_owned(),
        text: body,
        origin: rel,
    }])
}

/// Whether a script of this name is one a routine runner call runs.
fn scripts_named(routine: &[&str], name: &str) -> bool {
    routine.contains(&name)
}

/// `dir/name` relative to the workspace, without a leading `./`.
fn join(dir: &str, name: &str) -> String {
    let dir = dir.trim_start_matches("./");
    if dir.is_empty() || dir == "." {
        name.to_owned()
    } else {
        format!("{dir}/{name}")
    }
}

/// The text of the workspace file `rel`; `Ok(None)` when there is none.
fn read(root: &Path, rel: &str) -> Result<Option<String>, String> {
    if rel.starts_with('/') || rel.split('/').any(|c| c == "..") {
        return Err(format!("`{rel}` may lie outside the workspace"));
    }
    crate::paths::small_file::read_text(&root.join(rel))
        .map_err(|why| format!("`{rel}` cannot be read here ({why})"))
}

/// The recipes `make ARGS` runs in `dir`.
fn make(root: &Path, dir: &str, args: &[&str]) -> Result<Vec<Recipe>, String> {
    let mut dir = dir.to_owned();
    let mut files = Vec::new();
    let mut goals = Vec::new();
    let mut k = 0;
    while let Some(word) = args.get(k).copied() {
        k += 1;
        let value = |k: &mut usize| {
            let v = args.get(*k).copied();
            *k += 1;
            v.ok_or_else(|| format!("`make {word}` lacks its value"))
        };
        match word {
            "-k"
            | "--keep-going"
            | "-s"
            | "--silent"
            | "--quiet"
            | "-B"
            | "--always-make"
            | "-i"
            | "--ignore-errors"
            | "-w"
            | "--print-directory"
            | "--no-print-directory"
            | "-n"
            | "--dry-run"
            | "--just-print"
            | "--recon"
            | "-q"
            | "--question"
            | "-r"
            | "--no-builtin-rules"
            | "-R"
            | "--no-builtin-variables"
            | "-O"
            | "--help"
            | "--version" => {}
            "-j" | "-l" => {
                if args.get(k).is_some_and(|v| v.parse::<f64>().is_ok()) {
                    k += 1;
                }
            }
            "-f" | "--file" | "--makefile" => files.push(value(&mut k)?.to_owned()),
            "-C" | "--directory" => dir = join(&dir, value(&mut k)?),
            _ if word.starts_with("--file=") || word.starts_with("--makefile=") => {
                files.push(
                    word.split_once('=')
                        .map(|(_, v)| v)
                        .unwrap_or_default()
                        .to_owned(),
                );
            }
            _ if word.starts_with("--directory=") => {
                dir = join(
                    &dir,
                    word.split_once('=').map(|(_, v)| v).unwrap_or_default(),
                );
            }
            _ if (word.starts_with("-j") || word.starts_with("-l") || word.starts_with("-O"))
                && word[2..].chars().all(|c| c.is_ascii_digit() || c == '.') => {}
            _ if word.starts_with("--jobs") || word.starts_with("--output-sync") => {}
            _ if word.starts_with('-') => {
                return Err(format!("`make {word}` is not read here"));
            }
            _ if word.contains('=') => {
                return Err(format!("`make {word}` sets a variable"));
            }
            _ => goals.push(word.to_owned()),
        }
    }
    if files.is_empty() {
        for name in ["GNUmakefile", "makefile", "Makefile"] {
            if read(root, &join(&dir, name))?.is_some() {
                files.push(name.to_owned());
                break;
            }
        }
    }
    let [file] = files.as_slice() else {
        return Err(if files.is_empty() {
            "no makefile is there to read".to_owned()
        } else {
            "it reads several makefiles".to_owned()
        });
    };
    let rel = join(&dir, file);
    let text = read(root, &rel)?.ok_or_else(|| format!("`{rel}` is not there"))?;
    let parsed = Makefile::parse(&text).map_err(|why| format!("`{rel}`: {why}"))?;
    // Before any goal, make remakes the makefile it read: with a rule whose target it is
    // (its own name, a pattern, `.DEFAULT`), or a built-in rule from a file beside it
    // (`Makefile.sh` is copied over it, `Makefile.c` compiled into it), then reads it again.
    let remade = parsed.rules.keys().any(|target| {
        target == file
            || target == ".DEFAULT"
            || target.split_once('%').is_some_and(|(pre, suf)| {
                file.len() >= pre.len() + suf.len() && file.starts_with(pre) && file.ends_with(suf)
            })
    }) || built_in_source(&root.join(&dir), file);
    if remade {
        return Err(format!(
            "make first remakes `{rel}` (a rule or a built-in rule makes it), with recipes not read here"
        ));
    }
    Ok(parsed
        .run(&goals, &rel, Some(&root.join(&dir)))?
        .into_iter()
        .map(|(origin, text)| Recipe {
            dir: dir.clone(),
            text,
            origin,
        })
        .collect())
}

/// One rule of a makefile.
#[derive(Debug, Default, Clone)]
struct Rule {
    /// Its prerequisites (normal and order-only), unexpanded.
    prereqs: Vec<String>,
    /// Its recipe lines, unexpanded, prefixes (`@`, `-`, `+`) kept.
    recipe: Vec<String>,
    /// How many rule lines name it (each may add prerequisites).
    lines: usize,
}

/// How a makefile variable was set.
#[derive(Debug, Clone)]
enum Value {
    /// Expanded when used (`=`).
    Recursive(String),
    /// Expanded when set (`:=`, `::=`).
    Simple(String),
    /// Set only if the environment does not (`?=`): only known when make runs.
    FromEnvironment,
}

/// The part of a makefile that the reviewer reads: explicit rules, plain variables.
#[derive(Debug, Default)]
struct Makefile {
    rules: BTreeMap<String, Rule>,
    /// Targets in the order they appear.
    order: Vec<String>,
    vars: BTreeMap<String, Value>,
    phony: BTreeSet<String>,
    default_goal: Option<String>,
}

/// Special targets that change nothing a recipe runs.
const INERT_SPECIAL_TARGETS: &[&str] = &[
    ".PHONY",
    ".SILENT",
    ".PRECIOUS",
    ".DELETE_ON_ERROR",
    ".NOTPARALLEL",
    ".SECONDARY",
    ".INTERMEDIATE",
    ".NOTINTERMEDIATE",
    ".IGNORE",
    ".POSIX",
];

/// Directives of make the reviewer does not follow.
const MAKE_DIRECTIVES: &[&str] = &[
    "include", "-include", "sinclude", "define", "endef", "ifeq", "ifneq", "ifdef", "ifndef",
    "else", "endif", "export", "unexport", "override", "vpath", "private", "undefine", "load",
    "-load",
];

/// Variables that steer make itself, or which built-in rules run.
const STEERING_VARIABLES: &[&str] = &[
    "MAKEFLAGS",
    "GNUMAKEFLAGS",
    "MAKEFILES",
    "MAKEOVERRIDES",
    "MAKE",
    "MAKECMDGOALS",
    "VPATH",
    "CURDIR",
    "SUFFIXES",
    "MAKESHELL",
    "MAKE_RESTARTS",
];

/// Whether a makefile variable named `name` steers the programs recipes run: make exports a
/// variable the environment holds with the makefile's value (`PATH := tools:/bin` runs
/// `tools/ls` for `ls`), and these are in most environments or read by the shell itself.
fn steers_recipes(name: &str) -> bool {
    const NAMES: &[&str] = &[
        "PATH",
        "HOME",
        "IFS",
        "CDPATH",
        "SHELLOPTS",
        "BASHOPTS",
        "PS4",
        "PROMPT_COMMAND",
        "ZDOTDIR",
        "XDG_CONFIG_HOME",
        "TMPDIR",
    ];
    const PREFIXES: &[&str] = &["LD_", "DYLD_", "GIT_", "PYTHON", "NODE_", "RUBY", "PERL5"];
    NAMES.contains(&name)
        || crate::programs::table::SOURCED_VARIABLES.contains(&name)
        || PREFIXES.iter().any(|p| name.starts_with(p))
}

/// Variables built-in rules run (or put on their command lines).
fn built_in_rule_variable(name: &str) -> bool {
    const NAMES: &[&str] = &[
        "CC",
        "CXX",
        "CPP",
        "AS",
        "LD",
        "AR",
        "FC",
        "PC",
        "LEX",
        "YACC",
        "RM",
        "M2C",
        "TEX",
        "TEXI2DVI",
        "MAKEINFO",
        "WEAVE",
        "CWEAVE",
        "TANGLE",
        "CTANGLE",
        "GET",
        "CO",
        "LINT",
        "OUTPUT_OPTION",
        "TARGET_ARCH",
        "LDLIBS",
        "LOADLIBES",
    ];
    NAMES.contains(&name)
        || name.ends_with("FLAGS")
        || ["COMPILE.", "LINK.", "PREPROCESS.", "LINT."]
            .iter()
            .any(|p| name.starts_with(p))
}

/// Whether `SHELL` (or `.SHELLFLAGS`) is set to a value that runs recipes as a POSIX shell
/// reads them.
fn plain_shell(name: &str, value: &str) -> bool {
    match name {
        "SHELL" => matches!(
            value.trim(),
            "/bin/sh" | "/bin/bash" | "/usr/bin/bash" | "/usr/bin/sh" | "sh" | "bash"
        ),
        // The recipe is the value of `-c`, which must come last: otherwise the shell reads
        // it as the name of a script file to run (`sh -e make` runs `./make`).
        _ => {
            value
                .split_whitespace()
                .last()
                .is_some_and(|w| w.starts_with('-') && w.ends_with('c'))
                && value.split_whitespace().all(|w| {
                    w == "pipefail"
                        || w == "errexit"
                        || w == "nounset"
                        || (w.len() > 1
                            && w.starts_with('-')
                            && w[1..]
                                .chars()
                                .all(|c| matches!(c, 'e' | 'u' | 'x' | 'o' | 'c')))
                })
        }
    }
}

impl Makefile {
    /// Reads a makefile; `Err` with why for anything not followed here.
    fn parse(text: &str) -> Result<Self, String> {
        let mut file = Self::default();
        let mut current: Option<Vec<String>> = None;
        let mut expanded_prereqs = false;
        let mut lines = text.lines().peekable();
        while let Some(raw) = lines.next() {
            let mut line = raw.to_owned();
            if let Some(recipe) = line.strip_prefix('\t') {
                let Some(targets) = &current else {
                    return Err("a recipe line comes before any rule".to_owned());
                };
                // A continued recipe line goes to the shell with its backslash-newline (which
                // does not continue a comment, nor is removed inside single quotes); the next
                // line's leading tab is make's.
                let mut recipe = recipe.to_owned();
                while recipe.ends_with('\\') {
                    let Some(next) = lines.next() else { break };
                    recipe.push('\n');
                    recipe.push_str(next.strip_prefix('\t').unwrap_or(next));
                }
                for t in targets {
                    file.rules
                        .entry(t.clone())
                        .or_default()
                        .recipe
                        .push(recipe.clone());
                }
                continue;
            }
            while line.ends_with('\\') {
                let Some(next) = lines.next() else { break };
                line.pop();
                line.push(' ');
                line.push_str(next.trim_start());
            }
            if line.contains("\\#") {
                return Err("an escaped `#` is not read here".to_owned());
            }
            // After a rule's `;`, the text is recipe, where `#` is the shell's to read.
            if line.contains('#') && line.split('#').next().is_some_and(|l| l.contains(';')) {
                return Err("a recipe on a rule's line with a `#` is not read here".to_owned());
            }
            let line = line.split('#').next().unwrap_or_default().trim();
            if line.is_empty() {
                continue;
            }
            let first = line.split_whitespace().next().unwrap_or_default();
            if MAKE_DIRECTIVES.contains(&first) {
                return Err(format!("the directive `{first}` is not followed here"));
            }
            if let Some((name, op, value)) = assignment(line) {
                current = None;
                // Prerequisites are expanded when their rule is read: a value set after such
                // a rule is not the one it got.
                if expanded_prereqs {
                    return Err(
                        "a variable set after a rule whose prerequisites use variables is not followed here"
                            .to_owned(),
                    );
                }
                file.assign(name, op, value)?;
                continue;
            }
            let Some((targets, rest)) = line.split_once(':') else {
                return Err(format!("the line `{line}` is not read here"));
            };
            if rest.starts_with(':') || targets.ends_with('&') {
                return Err("double-colon and grouped rules are not followed here".to_owned());
            }
            let (prereqs, inline) = match rest.split_once(';') {
                Some((p, r)) => (p, Some(r.trim())),
                None => (rest, None),
            };
            if prereqs.contains('=') {
                return Err("target-specific variables are not followed here".to_owned());
            }
            if prereqs.contains(':') {
                return Err("static pattern rules are not followed here".to_owned());
            }
            // A variable in the prerequisites may hold a `;` that starts a recipe there.
            if prereqs.contains('$') {
                expanded_prereqs = true;
                if file.vars.values().any(|v| match v {
                    Value::Recursive(t) | Value::Simple(t) => t.contains(';'),
                    Value::FromEnvironment => true,
                }) {
                    return Err("a variable in a rule's prerequisites holds a `;`".to_owned());
                }
            }
            let targets: Vec<String> = targets.split_whitespace().map(str::to_owned).collect();
            if targets.is_empty() {
                return Err("a rule without a target".to_owned());
            }
            let prereqs: Vec<String> = prereqs
                .split_whitespace()
                .filter(|p| *p != "|")
                .map(str::to_owned)
                .collect();
            for t in &targets {
                if t.contains(['%', '$']) {
                    return Err(format!("the rule for `{t}` is a pattern or computed"));
                }
                if t.starts_with('.') && !t.contains('/') {
                    if t == ".PHONY" {
                        file.phony.extend(prereqs.iter().cloned());
                    }
                    if INERT_SPECIAL_TARGETS.contains(&t.as_str()) {
                        continue;
                    }
                    return Err(format!("the special target `{t}` is not followed here"));
                }
                if !file.order.contains(t) {
                    file.order.push(t.clone());
                }
                let rule = file.rules.entry(t.clone()).or_default();
                rule.lines += 1;
                rule.prereqs.extend(prereqs.iter().cloned());
                if let Some(r) = inline.filter(|r| !r.is_empty()) {
                    rule.recipe.push(r.to_owned());
                }
            }
            current = Some(
                targets
                    .into_iter()
                    .filter(|t| !t.starts_with('.') || t.contains('/'))
                    .collect(),
            );
        }
        // `$<` and its kin take the prerequisites in an order make chooses among the rules
        // that name the target (the recipe's first, not the first written).
        for (target, rule) in &file.rules {
            let automatic = rule.recipe.iter().any(|r| {
                ["$<", "$^", "$+", "$?", "$(<", "$(^", "${<", "${^"]
                    .iter()
                    .any(|a| r.contains(a))
            });
            if rule.lines > 1 && automatic {
                return Err(format!(
                    "the prerequisites of `{target}` come from several rules and its recipe names them by `$<` or `$^`"
                ));
            }
        }
        Ok(file)
    }

    /// Records `name OP value`.
    fn assign(&mut self, name: &str, op: &str, value: &str) -> Result<(), String> {
        if STEERING_VARIABLES.contains(&name) {
            return Err(format!("it sets `{name}`, which steers make"));
        }
        if steers_recipes(name) {
            return Err(format!(
                "it sets `{name}`, which make passes to its recipes (where the programs they run are found, or what those load)"
            ));
        }
        if matches!(name, "SHELL" | ".SHELLFLAGS") {
            if op == "+=" || !plain_shell(name, value) {
                return Err(format!("it sets `{name}` to a shell not read here"));
            }
            return Ok(());
        }
        if name == ".DEFAULT_GOAL" {
            self.default_goal = Some(value.trim().to_owned());
            return Ok(());
        }
        if name.starts_with('.') || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            return Err(format!("the variable `{name}` is not followed here"));
        }
        let v = match op {
            "=" => Value::Recursive(value.to_owned()),
            ":=" | "::=" => Value::Simple(self.expand(value, None, 0)?),
            "?=" => match self.vars.get(name) {
                Some(_) => return Ok(()),
                None => Value::FromEnvironment,
            },
            "+=" => match self.vars.get(name) {
                Some(Value::Recursive(old)) => Value::Recursive(format!("{old} {value}")),
                Some(Value::Simple(old)) => {
                    Value::Simple(format!("{old} {}", self.expand(value, None, 0)?))
                }
                Some(Value::FromEnvironment) => Value::FromEnvironment,
                None => Value::Recursive(value.to_owned()),
            },
            _ => return Err(format!("`{name} {op}` is not followed here")),
        };
        self.vars.insert(name.to_owned(), v);
        Ok(())
    }

    /// `text` with its variables expanded, for the rule of `auto` (target, prerequisites)
    /// when in a recipe.
    fn expand(
        &self,
        text: &str,
        auto: Option<(&str, &[String])>,
        depth: usize,
    ) -> Result<String, String> {
        if depth > MAX_EXPANSION_DEPTH {
            return Err("its variables expand too deep".to_owned());
        }
        let mut out = String::new();
        let mut chars = text.char_indices().peekable();
        while let Some((at, c)) = chars.next() {
            if c != '$' {
                out.push(c);
                continue;
            }
            let Some((_, next)) = chars.next() else {
                return Err("a lone `$` ends a line".to_owned());
            };
            let name: String = match next {
                '$' => {
                    out.push('$');
                    continue;
                }
                '(' | '{' => {
                    let close = if next == '(' { ')' } else { '}' };
                    let start = at + 2;
                    let end = text[start..]
                        .find(close)
                        .map(|e| start + e)
                        .ok_or("an unclosed variable reference")?;
                    while chars.peek().is_some_and(|(i, _)| *i <= end) {
                        chars.next();
                    }
                    text[start..end].to_owned()
                }
                other => other.to_string(),
            };
            if name.contains(|c: char| c.is_whitespace() || matches!(c, ',' | ':' | '$' | '(')) {
                return Err(format!("`$({name})` is a make function or a computed name"));
            }
            let value = match (name.as_str(), auto) {
                ("@", Some((target, _))) => target.to_owned(),
                ("<", Some((_, pre))) => pre.first().cloned().unwrap_or_default(),
                ("^" | "+" | "?", Some((_, pre))) => pre.join(" "),
                _ => match self.vars.get(&name) {
                    Some(Value::Recursive(v)) => self.expand(v, auto, depth + 1)?,
                    Some(Value::Simple(v)) => v.clone(),
                    Some(Value::FromEnvironment) => {
                        return Err(format!("`$({name})` may come from the environment"));
                    }
                    None if name == "MAKE" => {
                        return Err("`$(MAKE)` runs make again".to_owned());
                    }
                    None => match name.as_str() {
                        "CC" => "cc".to_owned(),
                        "CXX" => "g++".to_owned(),
                        "RM" => "rm -f".to_owned(),
                        _ if name.ends_with("FLAGS") || name == "LDLIBS" => String::new(),
                        _ => {
                            return Err(format!(
                                "`$({name})` is not set in the makefile: it comes from the environment"
                            ));
                        }
                    },
                },
            };
            out.push_str(&value);
        }
        Ok(out)
    }

    /// The recipes making `goals` (or the default goal) runs, with their origins, in the
    /// order make would reach them.
    /// `dir` is where make runs, when it does: a target without a recipe is made by a
    /// built-in rule only from a file of its name there; without it, every one may be.
    fn run(
        &self,
        goals: &[String],
        name: &str,
        dir: Option<&Path>,
    ) -> Result<Vec<(String, String)>, String> {
        let goals: Vec<String> = if goals.is_empty() {
            let default = self
                .default_goal
                .clone()
                .or_else(|| self.order.first().cloned());
            default.into_iter().collect()
        } else {
            goals.to_vec()
        };
        let mut out = Vec::new();
        let mut seen = BTreeSet::new();
        let mut stack: Vec<String> = goals.into_iter().rev().collect();
        let rule_vars = self.vars.keys().any(|k| built_in_rule_variable(k));
        while let Some(target) = stack.pop() {
            if !seen.insert(target.clone()) {
                continue;
            }
            if seen.len() > MAX_RECIPES {
                return Err("it reaches too many targets".to_owned());
            }
            let rule = self.rules.get(&target);
            let no_recipe = rule.is_none_or(|r| r.recipe.is_empty());
            if no_recipe
                && rule_vars
                && !self.phony.contains(&target)
                && dir.is_none_or(|d| implicit_sources(d, &target))
            {
                return Err(format!(
                    "`{target}` has no recipe: built-in rules may make it with variables the makefile sets"
                ));
            }
            let Some(rule) = rule else { continue };
            let prereqs = rule
                .prereqs
                .iter()
                .map(|p| self.expand(p, None, 0))
                .collect::<Result<Vec<_>, _>>()?;
            let prereqs: Vec<String> = prereqs
                .iter()
                .flat_map(|p| p.split_whitespace().map(str::to_owned))
                .collect();
            for line in &rule.recipe {
                let expanded = self.expand(line, Some((&target, &prereqs)), 0)?;
                let command = expanded.trim_start_matches(['@', '-', '+', ' ', '\t']);
                if !command.trim().is_empty() {
                    out.push((format!("{name}: {target}"), command.to_owned()));
                }
            }
            stack.extend(prereqs.into_iter().rev());
        }
        Ok(out)
    }
}

/// Whether any entry of the directory `sub` of `dir` is one `source` says a built-in rule
/// may start from; also when the directory cannot be listed (but is there), an entry cannot
/// be read, or it holds more than [`MAX_LISTED`] entries.
fn any_source_beside(dir: &Path, sub: &str, source: impl Fn(&str) -> bool) -> bool {
    let dir = dir.join(sub);
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return dir.exists();
    };
    for (count, entry) in entries.enumerate() {
        if count >= MAX_LISTED {
            return true;
        }
        let Ok(entry) = entry else { return true };
        let file = entry.file_name();
        let file = file.to_string_lossy();
        if source(&file) {
            return true;
        }
    }
    false
}

/// The most entries of a directory read for built-in rules' sources.
const MAX_LISTED: usize = 10_000;

/// Whether a built-in rule may make `target` in `dir`: a file there shares its name or its
/// stem (`main.c` for `main.o` or `main`), a version-control directory built-in rules read
/// (`RCS`, `SCCS`) is there, or the directory cannot be listed.
fn implicit_sources(dir: &Path, target: &str) -> bool {
    let (sub, name) = target.rsplit_once('/').unwrap_or(("", target));
    let stem = name.rsplit_once('.').map_or(name, |(s, _)| s);
    any_source_beside(dir, sub, |file| {
        if file == name {
            return false;
        }
        if matches!(file, "RCS" | "SCCS") {
            return true;
        }
        // Objects, headers and libraries are the source of no built-in rule but linking
        // (`%: %.o`), which makes a name without an extension.
        let ext = file.rsplit_once('.').map_or("", |(_, e)| e);
        let product = matches!(ext, "o" | "h" | "hpp" | "a" | "so" | "d") && name.contains('.');
        (file.starts_with(&format!("{stem}.")) && !product)
            || file.starts_with(&format!("{name}."))
            || file == format!("{name},v")
    })
}

/// Whether a built-in rule of GNU make may make the makefile `name` in `dir` from a file
/// beside it: `NAME.EXT` for an extension a built-in rule (or a chain of them) starts from
/// (`Makefile.sh` is copied over it, `Makefile.c` compiled into it, `Makefile.y` through
/// C), a version-control file (`Makefile,v`, `s.Makefile`, `RCS/`, `SCCS/`); or the
/// directory cannot be listed. `Makefile.in` and `Makefile.am` (autotools') start none.
fn built_in_source(dir: &Path, name: &str) -> bool {
    const SOURCES: &[&str] = &[
        "o", "c", "cc", "C", "cpp", "p", "f", "F", "r", "s", "S", "mod", "sh", "l", "y", "w",
        "web", "ch", "texinfo", "texi", "txinfo", "tex", "dvi", "def", "sym", "ln", "m",
    ];
    let (sub, name) = name.rsplit_once('/').unwrap_or(("", name));
    any_source_beside(dir, sub, |file| {
        matches!(file, "RCS" | "SCCS")
            || file
                .strip_prefix(name)
                .and_then(|rest| rest.strip_prefix('.'))
                .is_some_and(|ext| SOURCES.contains(&ext))
            || file == format!("{name},v")
            || file == format!("s.{name}")
    })
}

/// A makefile line's variable assignment (name, operator, value), if it is one.
fn assignment(line: &str) -> Option<(&str, &str, &str)> {
    let end = line.find(|c: char| c.is_whitespace() || matches!(c, ':' | '=' | '?' | '+' | '!'))?;
    let name = &line[..end];
    if name.is_empty() {
        return None;
    }
    let rest = line[end..].trim_start();
    for op in ["::=", ":::=", ":=", "?=", "+=", "!=", "="] {
        if let Some(value) = rest.strip_prefix(op) {
            return Some((name, op, value.trim()));
        }
    }
    None
}

/// The scripts of a `package.json`'s text: name → command.
fn package_scripts(text: &str) -> Result<BTreeMap<String, String>, String> {
    let value: serde_json::Value =
        serde_json::from_str(text).map_err(|e| format!("`package.json` is not JSON: {e}"))?;
    let mut out = BTreeMap::new();
    match value.get("scripts") {
        None | Some(serde_json::Value::Null) => {}
        Some(serde_json::Value::Object(map)) => {
            for (k, v) in map {
                let Some(s) = v.as_str() else {
                    return Err(format!("the script `{k}` is not a string"));
                };
                out.insert(k.clone(), s.to_owned());
            }
        }
        Some(_) => return Err("`scripts` is not an object".to_owned()),
    }
    Ok(out)
}

/// The scripts `npm`, `pnpm`, `yarn` or `bun` ARGS runs in `dir`, with their hooks.
fn node(root: &Path, dir: &str, program: &str, args: &[&str]) -> Result<Vec<Recipe>, String> {
    let mut operands = Vec::new();
    let mut passed: Vec<&str> = Vec::new();
    let mut rest = args.iter();
    for word in rest.by_ref() {
        match *word {
            "--" => break,
            "-s" | "--silent" | "-q" | "--quiet" | "--if-present" => {}
            _ if word.starts_with("--loglevel") => {}
            _ if word.starts_with('-') => {
                return Err(format!("`{program} {word}` is not read here"));
            }
            _ => operands.push(*word),
        }
    }
    passed.extend(rest);
    let script = match operands.as_slice() {
        // These read or list; they run no script.
        ["ls" | "audit" | "outdated", ..] => return Ok(Vec::new()),
        // bun's own test runner runs the test files, no script.
        ["test"] if program == "bun" => return Ok(Vec::new()),
        ["test" | "t" | "tst"] => "test",
        ["run" | "run-script", name, extra @ ..] => {
            passed.splice(0..0, extra.iter().copied());
            name
        }
        [name] if matches!(program, "pnpm" | "yarn") => name,
        _ => {
            return Err(format!(
                "`{program} {}` is not read here",
                operands.join(" ")
            ));
        }
    };
    let rel = join(dir, "package.json");
    let text = read(root, &rel)?.ok_or_else(|| format!("`{rel}` is not there"))?;
    let scripts = package_scripts(&text)?;
    let mut out = Vec::new();
    for name in [
        format!("pre{script}"),
        script.to_owned(),
        format!("post{script}"),
    ] {
        if let Some(command) = scripts.get(&name) {
            let mut text = command.clone();
            if name == script {
                for a in &passed {
                    text.push(' ');
                    text.push_str(&shell_quote(a));
                }
            }
            out.push(Recipe {
                dir: dir.to_owned(),
                text,
                origin: format!("{rel}: scripts.{name}"),
            });
        }
    }
    // npm stops at a missing script; the others run a program of that name instead.
    if !scripts.contains_key(script) && program != "npm" {
        return Err(format!("`{rel}` has no script `{script}`"));
    }
    if !scripts.contains_key(script) {
        out.clear();
    }
    Ok(out)
}

/// Whether the recipe `text` only runs a file of the project with its interpreter
/// (`node test.js`, `python3 tests/run.py`): the project's own code, which the reviewer
/// does not read, as it does not read the tests `cargo test` runs.
pub(super) fn runs_project_file(root: &Path, dir: &str, text: &str) -> bool {
    let words: Vec<&str> = text.split_whitespace().collect();
    let [interpreter, file] = words.as_slice() else {
        return false;
    };
    let plain = |w: &str| {
        !w.is_empty()
            && !w.starts_with(['-', '/', '.'])
            && w.split('/').all(|c| !c.is_empty() && c != "..")
            && w.chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | '/'))
    };
    matches!(*interpreter, "node" | "python" | "python3")
        && plain(file)
        && file.rsplit_once('.').is_some_and(|(_, ext)| {
            matches!(ext, "js" | "mjs" | "cjs" | "py")
        })
        // A link may lead anywhere; a file not there runs nothing.
        && std::fs::symlink_metadata(root.join(join(dir, file))).map_or_else(
            |e| e.kind() == std::io::ErrorKind::NotFound,
            |m| m.is_file(),
        )
}

/// The shell text of a script's parameter whose value is `word`: quoted, but for a leading
/// `~` or `~user`, which a word's value keeps for the home it expands to.
fn parameter(word: &str) -> String {
    if let Some(rest) = word.strip_prefix('~') {
        let (user, tail) = rest
            .split_once('/')
            .map_or((rest, None), |(u, t)| (u, Some(t)));
        if user
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
        {
            return match tail {
                Some(t) => format!("~{user}/{}", shell_quote(t)),
                None => format!("~{user}"),
            };
        }
    }
    shell_quote(word)
}

/// `word` quoted for a POSIX shell.
pub(super) fn shell_quote(word: &str) -> String {
    format!("'{}'", word.replace('\'', "'\\''"))
}

/// The part of a justfile that the reviewer reads: recipes without parameters, their
/// dependencies and bodies, no interpolation.
#[derive(Debug, Default)]
struct Justfile {
    /// Recipe → (dependencies, body lines).
    recipes: BTreeMap<String, (Vec<String>, Vec<String>)>,
    first: Option<String>,
}

impl Justfile {
    /// Reads a justfile; `Err` with why for anything not followed here.
    fn parse(text: &str) -> Result<Self, String> {
        let mut file = Self::default();
        let mut current: Option<String> = None;
        for raw in text.lines() {
            if raw.contains("{{") || raw.contains('`') && current.is_none() {
                return Err("interpolation and backticks are not followed here".to_owned());
            }
            if raw.starts_with([' ', '\t']) {
                let Some(name) = &current else {
                    if raw.trim().is_empty() {
                        continue;
                    }
                    return Err("an indented line outside a recipe".to_owned());
                };
                let body = raw.trim();
                if body.is_empty() {
                    continue;
                }
                if body.starts_with("#!") {
                    return Err(format!(
                        "the recipe `{name}` is a script of another language"
                    ));
                }
                let line = body.trim_start_matches(['@', '-']);
                if let Some(r) = file.recipes.get_mut(name) {
                    r.1.push(line.to_owned());
                }
                continue;
            }
            current = None;
            let line = raw.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            if line.starts_with('[')
                || line.contains(":=")
                || line.starts_with("set ")
                || line.starts_with("import")
                || line.starts_with("mod ")
                || line.starts_with("alias ")
                || line.starts_with("export ")
            {
                return Err(format!("`{line}` is not followed here"));
            }
            let Some((head, deps)) = line.split_once(':') else {
                return Err(format!("the line `{line}` is not read here"));
            };
            let head = head.trim().trim_start_matches('@');
            if head.is_empty()
                || !head
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-'))
            {
                return Err(format!(
                    "the recipe `{head}` takes parameters or is not read here"
                ));
            }
            let deps: Vec<String> = deps
                .split_whitespace()
                .filter(|d| *d != "&&")
                .map(str::to_owned)
                .collect();
            if deps.iter().any(|d| d.contains(['(', '"', '\'', '#', '='])) {
                return Err(format!("the dependencies of `{head}` are not read here"));
            }
            if file
                .recipes
                .insert(head.to_owned(), (deps, Vec::new()))
                .is_some()
            {
                return Err(format!("the recipe `{head}` is defined twice"));
            }
            file.first.get_or_insert_with(|| head.to_owned());
            current = Some(head.to_owned());
        }
        Ok(file)
    }

    /// The bodies running `goals` (or the first recipe) runs, with their origins.
    fn run(&self, goals: &[String]) -> Result<Vec<(String, String)>, String> {
        let mut stack: Vec<String> = if goals.is_empty() {
            self.first.clone().into_iter().collect()
        } else {
            goals.iter().rev().cloned().collect()
        };
        let mut seen = BTreeSet::new();
        let mut out = Vec::new();
        while let Some(name) = stack.pop() {
            if !seen.insert(name.clone()) {
                continue;
            }
            if seen.len() > MAX_RECIPES {
                return Err("it reaches too many recipes".to_owned());
            }
            let (deps, body) = self
                .recipes
                .get(&name)
                .ok_or_else(|| format!("there is no recipe `{name}`"))?;
            out.extend(
                body.iter()
                    .map(|l| (format!("justfile: {name}"), l.clone())),
            );
            stack.extend(deps.iter().rev().cloned());
        }
        Ok(out)
    }
}

/// The recipes `just ARGS` runs in `dir` (the justfile's directory).
fn just(root: &Path, dir: &str, args: &[&str]) -> Result<Vec<Recipe>, String> {
    let mut goals = Vec::new();
    for word in args {
        match *word {
            "-q" | "--quiet" | "-v" | "--verbose" | "-n" | "--dry-run" => {}
            "-l" | "--list" | "--summary" => return Ok(Vec::new()),
            _ if word.starts_with('-') || word.contains('=') => {
                return Err(format!("`just {word}` is not read here"));
            }
            _ => goals.push((*word).to_owned()),
        }
    }
    let mut found = None;
    for name in ["justfile", "Justfile", "JUSTFILE", ".justfile"] {
        let rel = join(dir, name);
        if let Some(text) = read(root, &rel)? {
            found = Some((rel, text));
            break;
        }
    }
    let (rel, text) = found.ok_or("no justfile in its directory (just looks further up)")?;
    let file = Justfile::parse(&text).map_err(|why| format!("`{rel}`: {why}"))?;
    Ok(file
        .run(&goals)?
        .into_iter()
        .map(|(origin, text)| Recipe {
            dir: dir.to_owned(),
            text,
            origin: origin.replacen("justfile", &rel, 1),
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn make_recipes(text: &str, goals: &[&str]) -> Result<Vec<String>, String> {
        let goals: Vec<String> = goals.iter().map(|g| (*g).to_owned()).collect();
        Ok(Makefile::parse(text)?
            .run(&goals, "Makefile", None)?
            .into_iter()
            .map(|(_, t)| t)
            .collect())
    }

    #[test]
    fn make_runs_the_default_goal_and_its_prerequisites() {
        let text = "CC = gcc\n.PHONY: all test\nall: build\n\t@echo done\nbuild: prep\n\tcargo build --release\nprep:\n\tmkdir -p build\ntest:\n\tcargo test\n";
        assert_eq!(
            make_recipes(text, &[]).unwrap(),
            ["echo done", "cargo build --release", "mkdir -p build"]
        );
        assert_eq!(make_recipes(text, &["test"]).unwrap(), ["cargo test"]);
    }

    #[test]
    fn make_variables_and_automatic_variables_are_expanded() {
        let text =
            "OUT := build\nhello: hello.c\n\t$(CC) $(CFLAGS) -o $(OUT)/$@ $<\n\techo $$HOME\n";
        assert_eq!(
            make_recipes(text, &[]).unwrap(),
            ["cc  -o build/hello hello.c", "echo $HOME"]
        );
        let secret = "KEY = ~/.ssh/id_rsa\nall:\n\tcat $(KEY)\n";
        assert_eq!(make_recipes(secret, &[]).unwrap(), ["cat ~/.ssh/id_rsa"]);
        assert_eq!(
            make_recipes("all: ; cat ~/.ssh/id_rsa\n", &[]).unwrap(),
            ["cat ~/.ssh/id_rsa"]
        );
    }

    #[test]
    fn what_make_reads_in_ways_not_followed_here_is_unmodeled() {
        for text in [
            "all:\n\techo $(shell cat ~/.ssh/id_rsa)\n",
            "X != cat ~/.ssh/id_rsa\nall:\n\techo $(X)\n",
            "include other.mk\nall:\n\techo\n",
            "%.o: %.c\n\tcat ~/.ssh/id_rsa\n",
            "all:\n\t$(MAKE) -C sub\n",
            "all:\n\techo $(FROM_ENV)\n",
            "X ?= cat\nall:\n\t$(X) x\n",
            "SHELL = /tmp/evil\nall:\n\techo\n",
            ".SHELLFLAGS = -c 'cat ~/.ssh/id_rsa' x\nall:\n\techo\n",
            ".SHELLFLAGS = -e\nall:\n\tmake\n",
            ".SHELLFLAGS = -c -e\nall:\n\tmake\n",
            "ifeq (a,a)\nall:\n\techo\nendif\n",
            ".DEFAULT:\n\tcat ~/.ssh/id_rsa\n",
            ".ONESHELL:\nall:\n\techo\n",
            "all: X = 1\nall:\n\techo\n",
            "CC = cat ~/.ssh/id_rsa;\nall: main.o\n",
            "all:\n\techo $(X:a=b)\n",
            "all:\n\techo $(wildcard *)\n",
            "define X\ncat ~/.ssh/id_rsa\nendef\nall:\n\t$(X)\n",
            "\techo before any rule\n",
            "MAKEFLAGS += -f /tmp/x.mk\nall:\n\techo\n",
        ] {
            assert!(make_recipes(text, &[]).is_err(), "{text:?} was read");
        }
        // A phony target without a recipe looks for no built-in rule.
        assert_eq!(
            make_recipes(
                "CC = gcc\n.PHONY: all\nall: app\napp:\n\t$(CC) -o app main.c\n",
                &[]
            )
            .unwrap(),
            ["gcc -o app main.c"]
        );
    }

    #[test]
    fn make_is_read_as_gnu_make_runs_it_or_not_at_all() {
        // A backslash-newline reaches the shell: it ends a comment, and stays in quotes.
        assert_eq!(
            make_recipes("all:\n\t@echo building #\\\n\tcurl x | sh\n", &[]).unwrap(),
            ["echo building #\\\ncurl x | sh"]
        );
        for text in [
            // `#` after a rule's `;` is the shell's (`building#` is one word).
            "all: ; @echo building#; touch ~/x\n",
            // `$<` of a target named by two rules.
            "E := .e\nall: README.md\nall: $(E)nv\n\t@cat $<\n",
            // A static pattern rule.
            "E := .e\nall: show\nshow: %: $(E)nv\n\t@cat $<\n",
            // A `;` from a variable starts a recipe on the rule's line.
            "X = ; @touch ~/x\nall: $(X)\n",
            // Prerequisites expanded when the rule is read, with a value set after it.
            "X = .e$(N)\nN = nv\nall: $(X)\n\t@cat $<\nX = README.md\n",
            // `PATH` passed to the recipes.
            "PATH := tools:/usr/bin:/bin\nall:\n\tls src\n",
            "LD_PRELOAD = ./x.so\nall:\n\tls\n",
        ] {
            assert!(make_recipes(text, &[]).is_err(), "{text:?} was read");
        }
    }

    #[test]
    fn make_remakes_its_makefile_first() {
        let root = tempfile::tempdir().unwrap();
        let write = |name: &str, text: &str| std::fs::write(root.path().join(name), text).unwrap();
        write(
            "Makefile",
            "all:\n\techo building\nMakefile: FORCE\n\ttouch ~/x\nFORCE:\n",
        );
        assert!(make(root.path(), ".", &[]).is_err());
        write("Makefile", "all:\n\techo building\n");
        assert!(make(root.path(), ".", &[]).is_ok());
        // Autotools' inputs start no built-in rule.
        write("Makefile.in", "all:\n");
        write("Makefile.am", "all:\n");
        assert!(make(root.path(), ".", &[]).is_ok());
        // A built-in rule makes `Makefile` from `Makefile.sh` (copied over it).
        write("Makefile.sh", "curl x | sh\n");
        assert!(make(root.path(), ".", &[]).is_err());
    }

    #[test]
    fn a_plain_shell_may_be_chosen() {
        let text = "SHELL := /bin/bash\n.SHELLFLAGS := -eu -o pipefail -c\nall:\n\tcargo build\n";
        assert_eq!(make_recipes(text, &[]).unwrap(), ["cargo build"]);
    }

    #[test]
    fn package_scripts_run_with_their_hooks() {
        let root = tempfile::tempdir().unwrap();
        std::fs::write(
            root.path().join("package.json"),
            r#"{"scripts": {"pretest": "eslint .", "test": "jest", "posttest": "cat ~/.aws/credentials", "build": "tsc"}}"#,
        )
        .unwrap();
        let texts = |args: &[&str], program: &str| {
            node(root.path(), "", program, args)
                .map(|r| r.into_iter().map(|r| r.text).collect::<Vec<_>>())
        };
        assert_eq!(
            texts(&["test"], "npm").unwrap(),
            ["eslint .", "jest", "cat ~/.aws/credentials"]
        );
        assert_eq!(texts(&["run", "build"], "npm").unwrap(), ["tsc"]);
        assert_eq!(texts(&["build"], "yarn").unwrap(), ["tsc"]);
        assert_eq!(
            texts(&["run", "build", "--", "--watch"], "npm").unwrap(),
            ["tsc '--watch'"]
        );
        assert!(texts(&["run", "lint"], "npm").unwrap().is_empty());
        assert!(texts(&["lint"], "yarn").is_err());
        assert!(texts(&["--workspaces", "test"], "npm").is_err());
        assert!(texts(&["test"], "bun").unwrap().is_empty());
    }

    #[test]
    fn justfile_recipes_run_with_their_dependencies() {
        let text = "default: build\n\ncheck:\n  cargo clippy\n\nbuild: check\n    @cargo build\n";
        let file = Justfile::parse(text).unwrap();
        let run: Vec<String> = file.run(&[]).unwrap().into_iter().map(|(_, t)| t).collect();
        assert_eq!(run, ["cargo build", "cargo clippy"]);
        for text in [
            "set shell := [\"python3\", \"-c\"]\nall:\n  print(1)\n",
            "x := `cat ~/.ssh/id_rsa`\nall:\n  echo\n",
            "all:\n  echo {{x}}\n",
            "all:\n  #!/usr/bin/env python3\n  print(open('/root/.ssh/id_rsa').read())\n",
            "all arg:\n  echo {{arg}}\n",
            "[script]\nall:\n  echo\n",
        ] {
            assert!(Justfile::parse(text).is_err(), "{text:?} was read");
        }
    }

    #[test]
    fn only_a_plain_project_file_run_by_its_interpreter_is_the_projects_code() {
        let root = tempfile::tempdir().unwrap();
        std::fs::write(root.path().join("test.js"), "").unwrap();
        std::os::unix::fs::symlink("/etc/passwd", root.path().join("l.js")).unwrap();
        assert!(runs_project_file(root.path(), "", "node test.js"));
        assert!(runs_project_file(root.path(), "", "python3 tests/run.py"));
        for text in [
            "node l.js",
            "node /tmp/x.js",
            "node ../x.js",
            "node -e x.js",
            "node test.js; cat ~/.ssh/id_rsa",
            "sh test.js",
            "node $X.js",
        ] {
            assert!(!runs_project_file(root.path(), "", text), "{text}");
        }
    }

    #[test]
    fn shell_scripts_are_read_with_their_parameters_or_not_at_all() {
        let root = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(root.path().join("s")).unwrap();
        for (name, text) in [
            ("s/a.sh", "#!/bin/sh\ncat \"$1\"\n"),
            ("s/env.sh", "#!/usr/bin/env bash\nls\n"),
            ("s/e.sh", "#!/bin/bash -eu\nls\n"),
            ("s/py.sh", "#!/usr/bin/env python3\nprint(1)\n"),
            ("s/l.sh", "#!/bin/bash -l\nls\n"),
            ("s/two.sh", "#!/bin/bash -e -u\nls\n"),
            ("s/crlf.sh", "ls\r\n"),
        ] {
            std::fs::write(root.path().join(name), text).unwrap();
        }
        std::os::unix::fs::symlink("/etc/passwd", root.path().join("s/out.sh")).unwrap();
        let texts = |run: ScriptRun, program: &str, args: &[&str]| {
            shell_script(root.path(), "", run, program, args)
                .map(|r| r.into_iter().map(|r| r.text).collect::<Vec<_>>())
        };
        assert_eq!(
            texts(ScriptRun::Direct, "./s/a.sh", &["~/x y", "a'b"]).unwrap(),
            ["set -- ~/'x y' 'a'\\''b'\n#!/bin/sh\ncat \"$1\"\n"]
        );
        assert_eq!(
            texts(ScriptRun::Shell, "bash", &["-e", "s/py.sh", "x"]).unwrap(),
            ["set -- 'x'\n#!/usr/bin/env python3\nprint(1)\n"]
        );
        assert!(texts(ScriptRun::Direct, "s/env.sh", &[]).is_ok());
        assert!(texts(ScriptRun::Direct, "s/e.sh", &[]).is_ok());
        for (run, program, args) in [
            (ScriptRun::Direct, "s/py.sh", &[][..]),
            (ScriptRun::Direct, "s/l.sh", &[]),
            (ScriptRun::Direct, "s/two.sh", &[]),
            (ScriptRun::Direct, "s/crlf.sh", &[]),
            (ScriptRun::Direct, "s/out.sh", &[]),
            (ScriptRun::Direct, "s/none.sh", &[]),
            (ScriptRun::Direct, "../s/a.sh", &[]),
            (ScriptRun::Shell, "bash", &["a.sh"]),
            (ScriptRun::Shell, "bash", &["-l", "s/a.sh"]),
            (ScriptRun::Shell, "bash", &["--rcfile", "x", "s/a.sh"]),
            (ScriptRun::Shell, "sh", &["-o", "pipefail", "s/a.sh"]),
        ] {
            assert!(texts(run, program, args).is_err(), "{program} {args:?}");
        }
    }

    #[test]
    fn files_that_define_what_runners_run_are_known() {
        for (p, kind) in [
            ("Makefile", Some(RunnerFile::Make)),
            ("sub/GNUmakefile", Some(RunnerFile::Make)),
            ("rules.mk", Some(RunnerFile::Make)),
            ("web/package.json", Some(RunnerFile::Package)),
            ("Justfile", Some(RunnerFile::Just)),
            ("build.rs", Some(RunnerFile::Code)),
            ("tests/conftest.py", Some(RunnerFile::Code)),
            ("src/main.rs", None),
            ("Makefile.md", None),
        ] {
            assert_eq!(runner_file(p), kind, "{p}");
        }
    }
}
