//! Commands whose output becomes the words of another (`$(git ls-files)`, `find … | xargs`,
//! a loop over `$(…)`): what paths they can print. Only producers whose every line is a path
//! inside a tree they name, or a literal value, are modeled; filters that keep whole lines
//! (`grep`, `head`, `sort`, …) pass their input's domain on.

use crate::programs::{self, Model, pathspec_tree};
use crate::shell::{Domain, Script, SimpleCommand, Word, WorkingDir};

/// What a producer can print.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Output {
    /// A literal value.
    Value(String),
    /// A path as `ls` prints it: itself when it is not a directory (a directory would print
    /// its entries instead).
    Listed(String),
    /// Any path under `root` (relative to `cwd` as printed), whose name matches `names`;
    /// only files git tracks when `tracked`; only files the ignore files (`.gitignore`,
    /// `.ignore`, `.rgignore`) leave in when `ignores`, as `rg` walks.
    Tree {
        root: String,
        names: Option<String>,
        cwd: WorkingDir,
        tracked: bool,
        ignores: bool,
    },
}

/// The deepest chain of filters followed back to a producer.
const MAX_FILTERS: usize = 8;

/// What command `index` of `script` can print.
///
/// # Errors
///
/// Why its output is not known to be paths inside the trees it names.
pub(super) fn outputs(script: &Script, index: usize, depth: usize) -> Result<Vec<Output>, String> {
    let cmd = script
        .commands
        .get(index)
        .ok_or_else(|| "is not in the command".to_owned())?;
    if depth > MAX_FILTERS {
        return Err("filters its input through too many commands".to_owned());
    }
    if script.errors_to_output {
        return Err(
            "may send its errors to its output (`2>&1`, `|&`), whose words are no paths it names"
                .to_owned(),
        );
    }
    let program = cmd.program().unwrap_or_default();
    let texts: Option<Vec<&str>> = cmd.args().iter().map(Word::literal).collect();
    let Some(args) = texts else {
        return Err(format!(
            "(`{program}`) has arguments only known when they run"
        ));
    };
    // What `mktemp` creates is judged as a command of its own; what it prints is known.
    if program == "mktemp" && cmd.redirects.is_empty() {
        return mktemp(script, cmd, &args).map(|name| vec![Output::Value(name)]);
    }
    // `fd`'s walk is judged without what its `-x`/`-X` runs (judged as its own command).
    let walk = matches!(program, "fd" | "fdfind").then(|| programs::fd_walk(cmd));
    let walking = walk.as_ref().unwrap_or(cmd);
    if !matches!(programs::model(walking), Model::Modeled(_)) || !cmd.redirects.is_empty() {
        return Err(format!("(`{program}`) is not proven to only read"));
    }
    let tree = |root: &str, names: Option<&str>| Output::Tree {
        root: root.to_owned(),
        names: names.map(str::to_owned),
        cwd: cmd.cwd.clone(),
        tracked: false,
        ignores: false,
    };
    // `git ls-files` without options that list untracked or ignored files prints tracked
    // files only.
    let tracked_tree = |root: &str, names: Option<&str>| Output::Tree {
        root: root.to_owned(),
        names: names.map(str::to_owned),
        cwd: cmd.cwd.clone(),
        tracked: !args.iter().any(|a| {
            a.starts_with("--others")
                || a.starts_with("--ignored")
                || a.starts_with("--directory")
                || (a.starts_with('-') && !a.starts_with("--") && a.contains(['o', 'i', 'k']))
        }),
        ignores: false,
    };
    match program {
        // Plain `echo` (no `-e`): its words as they are; quotes and backslashes would be read
        // again by `xargs`.
        "echo" => {
            // bash's `echo` takes leading words made of `-n`, `-e`, `-E` as options and prints
            // every other word, one beginning with `-` included (`echo -r` prints `-r`).
            let options = args
                .iter()
                .take_while(|a| {
                    a.strip_prefix('-')
                        .is_some_and(|o| !o.is_empty() && o.chars().all(|c| "neE".contains(c)))
                })
                .count();
            if args[..options].iter().any(|a| a.contains('e')) {
                return Err("(`echo -e`) decodes escapes".to_owned());
            }
            if args.iter().any(|a| a.contains(['\'', '"', '\\'])) {
                return Err("(`echo`) prints quotes or backslashes that are read again".to_owned());
            }
            Ok(args[options..]
                .iter()
                .flat_map(|a| a.split_whitespace())
                .map(|a| Output::Value(a.to_owned()))
                .collect())
        }
        "git" if args.first() == Some(&"ls-files") => {
            only_options(
                &args[1..],
                &[
                    "-z",
                    "--cached",
                    "-c",
                    "--exclude-standard",
                    "-o",
                    "--others",
                    "-m",
                    "--modified",
                    "--",
                ],
            )?;
            let specs: Vec<&&str> = args[1..].iter().filter(|a| !a.starts_with('-')).collect();
            if specs.is_empty() {
                return Ok(vec![tracked_tree(".", None)]);
            }
            specs
                .into_iter()
                .map(|s| pathspec(s, &tracked_tree))
                .collect()
        }
        // Names of changed files, relative to the repository's top: under the tree of the
        // working directory when it is the top, and checked as such. `--cached` (`--staged`)
        // also names files only HEAD has (a staged deletion), which are not vetted here.
        "git"
            if args.first() == Some(&"diff")
                && args.contains(&"--name-only")
                && cmd.cwd == WorkingDir::Root =>
        {
            only_options(&args[1..], &["--name-only", "-z", "--no-renames", "--"])?;
            // Without revisions, the changed files are tracked ones; a revision's files
            // (a file deleted since) are not vetted here.
            let before_paths = args[1..].iter().take_while(|a| **a != "--");
            if before_paths.clone().any(|a| !a.starts_with('-')) {
                return Err("(`git diff REV --name-only`) names files of a commit".to_owned());
            }
            Ok(vec![tracked_tree(".", None)])
        }
        "find" => find(&args, &tree, false),
        // `ls FILE…` prints the files as given (globs expanded by the shell); `printf '%s\n'
        // WORD…` prints its words a line each.
        "ls" if !args.is_empty()
            && args.iter().all(|a| !a.starts_with('-') || ls_names_only(a))
            && args.iter().any(|a| *a != "." && !a.starts_with('-')) =>
        {
            let directories = args.iter().any(|a| {
                *a == "--directory"
                    || (!a.starts_with("--") && a.starts_with('-') && a.contains('d'))
            });
            Ok(args
                .iter()
                .filter(|a| !a.starts_with('-'))
                .map(|a| {
                    if directories {
                        Output::Value((*a).to_owned())
                    } else {
                        Output::Listed((*a).to_owned())
                    }
                })
                .collect())
        }
        "printf"
            if matches!(args.first(), Some(&("%s\\n" | "%s\n")))
                && args[1..]
                    .iter()
                    .all(|a| !a.contains(['\'', '"', '\\', '%'])) =>
        {
            Ok(args[1..]
                .iter()
                .map(|a| Output::Value((*a).to_owned()))
                .collect())
        }
        "ls" if args.iter().all(|a| {
            matches!(*a, "-A" | "--almost-all" | ".") || (ls_names_only(a) && !a.contains('d'))
        }) =>
        {
            Ok(vec![tree(".", None)])
        }
        // `which NAME`: the first program of that name in a directory of `PATH`.
        "which" => match args.as_slice() {
            [name] => which(name).map(|path| vec![Output::Value(path)]),
            _ => Err("(`which`) is given options or several names".to_owned()),
        },
        "fd" | "fdfind" => {
            // What `-x`/`-X` runs on the paths is judged as its own command: the paths are
            // what the rest of the command finds.
            let args: Vec<&str> = walking.args().iter().filter_map(Word::literal).collect();
            only_options(
                &args,
                &[
                    "-t",
                    "--type",
                    "-e",
                    "--extension",
                    "-H",
                    "--hidden",
                    "-I",
                    "--no-ignore",
                    "-0",
                    "--print0",
                    "-d",
                    "--max-depth",
                    "-g",
                    "--glob",
                    "-i",
                    "-s",
                    "-F",
                ],
            )?;
            let names = fd_extensions(&args);
            Ok(walked_roots(walking)?
                .into_iter()
                .flat_map(|(root, _, _)| names.iter().map(move |n| tree(&root, n.as_deref())))
                .collect())
        }
        "rg" if args
            .iter()
            .any(|a| matches!(*a, "--files" | "-l" | "--files-with-matches")) =>
        {
            Ok(walked_roots(cmd)?
                .into_iter()
                .map(|(root, name, ignores)| Output::Tree {
                    root,
                    names: name,
                    cwd: cmd.cwd.clone(),
                    tracked: false,
                    ignores,
                })
                .collect())
        }
        "grep" | "head" | "tail" | "sort" | "uniq" | "tac" if keeps_lines(program, &args) => {
            // A filter of its input only: the table says it reads no file of its own.
            let reads_files = match programs::model(cmd) {
                Model::Modeled(e) => !e.reads.is_empty() || !e.trees.is_empty(),
                Model::Unmodeled(_) => true,
            };
            if reads_files {
                return Err(format!("(`{program}`) reads files of its own"));
            }
            let mut out = Vec::new();
            let upstream: Vec<usize> = cmd.feeds.clone();
            if upstream.is_empty() {
                return Err(format!("(`{program}`) filters nothing"));
            }
            for i in last(script, &upstream) {
                out.extend(outputs(script, i, depth + 1)?);
            }
            Ok(out)
        }
        _ => Err(format!("(`{program}`) is not known to print only paths")),
    }
}

/// Whether `ls` given option `arg` still prints names only, one a line when piped: `-1`,
/// `-d` (directories as themselves) and the options that only sort (`-t`, `-r`, `-S`, `-U`,
/// `-X`, `-v`, and `-c`/`-u`, which sort by another time without `-l`), alone or clustered.
fn ls_names_only(arg: &str) -> bool {
    matches!(arg, "--directory" | "--reverse")
        || arg
            .strip_prefix('-')
            .filter(|f| !f.is_empty() && !f.starts_with('-'))
            .is_some_and(|f| f.chars().all(|c| "1dtrSUXvcu".contains(c)))
}

/// The path `which NAME` prints: the first regular file named `NAME` with an execute bit in
/// the directories of the evaluator's `PATH` (the command's, unless the script sets its own,
/// which is judged for that). A name with a `/`, a relative or empty directory in `PATH` (the
/// working directory) or a path a shell would split or expand is not known; nor is a name
/// found nowhere, since `which` then prints nothing and the command runs without the word.
fn which(name: &str) -> Result<String, String> {
    use crate::shell::reads_as_written;
    use std::os::unix::fs::PermissionsExt;
    if !reads_as_written(name) || name.contains('/') || name.starts_with(['-', '.']) {
        return Err(format!(
            "(`which {name}`) is not given a plain program name"
        ));
    }
    let path = crate::process_env::var("PATH").unwrap_or_default();
    for dir in std::env::split_paths(&path) {
        if !dir.is_absolute() {
            return Err("(`which`) searches a relative directory of PATH".to_owned());
        }
        let candidate = dir.join(name);
        let Ok(meta) = std::fs::metadata(&candidate) else {
            continue;
        };
        if meta.is_file() && meta.permissions().mode() & 0o111 != 0 {
            let shown = candidate.to_string_lossy().into_owned();
            if !reads_as_written(&shown) {
                return Err(format!(
                    "(`which {name}`) prints `{shown}`, which the shell splits or expands"
                ));
            }
            return Ok(shown);
        }
    }
    Err(format!(
        "(`which {name}`) finds no program of that name and prints nothing"
    ))
}

/// The names `fd -e EXT…` narrows what it prints to (`*.EXT`, one per extension; the match
/// is made without case, as `fd` makes it), else one `None`: a value that is no plain
/// extension, or the `-e=EXT` spelling, narrows nothing.
fn fd_extensions(args: &[&str]) -> Vec<Option<String>> {
    let mut names = Vec::new();
    let mut i = 0;
    while let Some(&a) = args.get(i) {
        i += 1;
        let value = match a {
            "-e" | "--extension" => {
                i += 1;
                args.get(i - 1).copied()
            }
            _ if a.starts_with("--extension=") => Some(&a["--extension=".len()..]),
            _ if a.starts_with("-e") => None,
            // The values of the other options the producer lets through (`-t f`, `-d 2`).
            "-t" | "--type" | "-d" | "--max-depth" => {
                i += 1;
                continue;
            }
            _ => continue,
        };
        let ext = value.map(|v| v.trim_start_matches('.'));
        match ext {
            Some(ext)
                if !ext.is_empty()
                    && ext.chars().all(|c| {
                        c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-' | '+')
                    }) =>
            {
                names.push(Some(format!("*.{ext}")));
            }
            _ => return vec![None],
        }
    }
    if names.is_empty() {
        names.push(None);
    }
    names
}

/// Whether `rg --files` walks as the ignore files say: no option that overrides them
/// (`-u`, `--no-ignore…`, a `-g` glob) and only options known to leave the walk as it is.
fn rg_files_ignores(args: &[&str]) -> bool {
    let mut i = 0;
    while let Some(&a) = args.get(i) {
        i += 1;
        match a {
            "--files" | "--hidden" | "-." | "-0" | "--null" | "--follow" | "-L" => {}
            // Types narrow the files further.
            "-t" | "--type" | "-T" | "--type-not" => i += 1,
            _ if a.starts_with("--type=") || a.starts_with("--type-not=") => {}
            _ if a.starts_with('-') => return false,
            _ => {}
        }
    }
    true
}

/// The positive name globs of `rg --files -g GLOB…` (a glob without `/`, matched against
/// names), else one `None`: a negated glob, a path glob, `--iglob` or another option that
/// changes the walk narrows nothing.
fn rg_files_globs(args: &[&str]) -> Vec<Option<String>> {
    let mut names = Vec::new();
    let mut i = 0;
    while let Some(&a) = args.get(i) {
        i += 1;
        let glob = match a {
            "-g" | "--glob" => {
                i += 1;
                args.get(i - 1).copied()
            }
            _ if a.starts_with("--glob=") => Some(&a["--glob=".len()..]),
            "--files" | "--hidden" | "-." | "-0" | "--null" => continue,
            _ if a.starts_with('-') => return vec![None],
            _ => continue,
        };
        match glob {
            Some(g) if !g.is_empty() && !g.starts_with('!') && !g.contains(['/', '\\', '{']) => {
                names.push(Some(g.to_owned()));
            }
            _ => return vec![None],
        }
    }
    if names.is_empty() {
        names.push(None);
    }
    names
}

/// The roots a searcher (`fd`, `rg -l`, `rg --files`) walks, as the table reads its
/// arguments (an option's value is never taken for a root: `rg --files -g '*.pem'` walks
/// `.`), each with a name its files are narrowed to, if any (one root per name of a union),
/// and whether only what the ignore files leave in is printed (`rg`).
///
/// # Errors
///
/// Why they are not known.
fn walked_roots(cmd: &SimpleCommand) -> Result<Vec<(String, Option<String>, bool)>, String> {
    let program = cmd.program().unwrap_or_default();
    let Model::Modeled(effects) = programs::model(cmd) else {
        return Err(format!("(`{program}`) is not proven to only read"));
    };
    let literal = |w: &Word| {
        w.literal()
            .map(str::to_owned)
            .ok_or_else(|| format!("(`{program}`) walks a tree only known when it runs"))
    };
    let texts: Vec<&str> = cmd.args().iter().filter_map(Word::literal).collect();
    let rg_files = program == "rg" && texts.contains(&"--files");
    let (files_names, files_ignores) = if rg_files {
        (rg_files_globs(&texts), rg_files_ignores(&texts))
    } else {
        (vec![None], false)
    };
    let mut roots = Vec::new();
    for w in &effects.meta {
        let root = literal(w)?;
        for name in &files_names {
            roots.push((root.clone(), name.clone(), files_ignores));
        }
    }
    for t in &effects.trees {
        let root = literal(&t.root)?;
        if t.names.is_empty() {
            roots.push((root, None, t.ignores));
        } else {
            for name in &t.names {
                roots.push((root.clone(), Some(name.clone()), t.ignores));
            }
        }
    }
    if roots.is_empty() {
        return Err(format!("(`{program}`) walks no tree the table names"));
    }
    Ok(roots)
}

/// The name `mktemp` prints (its random letters left as the template's `X`s): the template
/// (`tmp.XXXXXXXXXX` by default) in the directory of `-p DIR` or `--tmpdir=DIR`, else in
/// `/tmp` with `-t`, `--tmpdir` or no template, else where it runs. The script's own
/// `TMPDIR` would move it: then it is not known.
///
/// # Errors
///
/// Why the name is not known.
fn mktemp(script: &Script, cmd: &SimpleCommand, args: &[&str]) -> Result<String, String> {
    let moved = !cmd.assignments.is_empty()
        || script.commands.iter().any(|c| {
            c.assignments.iter().any(|a| a == "TMPDIR")
                || c.words.iter().any(|w| w.raw.contains("TMPDIR"))
        });
    if moved {
        return Err("(`mktemp`) may create its file where the script's `TMPDIR` says".to_owned());
    }
    let mut dir: Option<&str> = None;
    let mut in_tmp = false;
    let mut suffix = "";
    let mut templates = Vec::new();
    let mut i = 0;
    let mut done = false;
    while let Some(&a) = args.get(i) {
        i += 1;
        if done || !a.starts_with('-') || a == "-" {
            templates.push(a);
            continue;
        }
        match a {
            "--" => done = true,
            "-d" | "--directory" | "-u" | "--dry-run" | "-q" | "--quiet" => {}
            "-t" | "--tmpdir" => in_tmp = true,
            "-p" => {
                dir = Some(
                    args.get(i)
                        .copied()
                        .ok_or("(`mktemp -p`) names no directory")?,
                );
                i += 1;
            }
            _ if a.starts_with("--tmpdir=") => dir = Some(&a[9..]),
            _ if a.starts_with("--suffix=") => suffix = &a[9..],
            _ if a.starts_with("-p") => dir = Some(&a[2..]),
            _ => {
                // Clusters of the options without a value (`-dq`, `-dt`).
                let letters = &a[1..];
                if !letters.chars().all(|c| matches!(c, 'd' | 'u' | 'q' | 't')) {
                    return Err(format!("(`mktemp`) has the option `{a}`"));
                }
                in_tmp |= letters.contains('t');
            }
        }
    }
    let template = match templates.as_slice() {
        [] => {
            in_tmp = true;
            "tmp.XXXXXXXXXX"
        }
        [t] => *t,
        _ => return Err("(`mktemp`) is given more than one template".to_owned()),
    };
    let name = format!("{template}{suffix}");
    Ok(match dir {
        Some(d) if !name.starts_with('/') => format!("{}/{name}", d.trim_end_matches('/')),
        None if in_tmp && !name.contains('/') => format!("/tmp/{name}"),
        _ => name,
    })
}

/// Fails when an option is not one of `allowed` (a value given to an option that takes one
/// is not an option: `-t f`).
fn only_options(args: &[&str], allowed: &[&str]) -> Result<(), String> {
    match args
        .iter()
        .filter(|a| a.starts_with('-'))
        .find(|a| !allowed.contains(&a.split('=').next().unwrap_or_default()))
    {
        Some(a) => Err(format!("prints more than paths with `{a}`")),
        None => Ok(()),
    }
}

/// The paths a `find` command matches (what its `-exec … {}` is given), whatever it prints.
///
/// # Errors
///
/// Why they are not known.
pub(super) fn find_matches(script: &Script, index: usize) -> Result<Vec<Output>, String> {
    let cmd = script
        .commands
        .get(index)
        .ok_or_else(|| "is not in the command".to_owned())?;
    let texts: Option<Vec<&str>> = cmd.args().iter().map(Word::literal).collect();
    let args = texts.ok_or_else(|| "(`find`) has arguments only known when they run".to_owned())?;
    let tree = |root: &str, names: Option<&str>| Output::Tree {
        root: root.to_owned(),
        names: names.map(str::to_owned),
        cwd: cmd.cwd.clone(),
        tracked: false,
        ignores: false,
    };
    find(&args, &tree, true)
}

/// What producer `p` of run-time word `domain` of `cmd` gives the word: the paths a `find`
/// matches for its own `-exec` (`{}`), else what it prints; when the values are lines
/// `while read VAR` takes, only outputs `read` keeps as they are.
///
/// # Errors
///
/// Why the values are not known.
pub(super) fn domain_outputs(
    script: &Script,
    cmd: &SimpleCommand,
    p: usize,
    domain: &Domain,
) -> Result<Vec<Output>, String> {
    let from_find = cmd.parent == Some(p)
        && script.commands.get(p).and_then(SimpleCommand::program) == Some("find");
    if from_find {
        return find_matches(script, p);
    }
    let found = outputs(script, p, 0)?;
    let Some(lines) = domain.lines else {
        return Ok(found);
    };
    if nul_separated(script, p, 0) {
        return Err(
            "ends names with NUL bytes, which `read` drops, joining names into another".to_owned(),
        );
    }
    for out in &found {
        // Names inside a tree with a backslash or a blank are found by the scan of the tree.
        let (Output::Value(text) | Output::Listed(text) | Output::Tree { root: text, .. }) = out;
        if !lines.keeps(text) {
            return Err(format!(
                "prints `{text}`, which `read` changes (a backslash, or a blank at an end)"
            ));
        }
    }
    Ok(found)
}

/// Whether command `index` of `script`, or one whose output it reads, may end what it prints
/// with NUL bytes (`-z`, `-0`, `--null`, `-print0`) instead of newlines.
fn nul_separated(script: &Script, index: usize, depth: usize) -> bool {
    let Some(cmd) = script.commands.get(index) else {
        return true;
    };
    if depth > MAX_FILTERS {
        return true;
    }
    let nul = cmd.args().iter().any(|w| {
        w.literal().is_none_or(|a| {
            a.contains("null")
                || a.contains("print0")
                || a.contains("zero")
                || a == "-0"
                || (a.starts_with('-') && !a.starts_with("--") && a.contains(['z', 'Z']))
        })
    });
    nul || cmd
        .feeds
        .iter()
        .any(|&f| f < index && nul_separated(script, f, depth + 1))
}

/// Whether a filter prints only whole lines of its input.
fn keeps_lines(program: &str, args: &[&str]) -> bool {
    match program {
        // Lines, never bytes (`-c` cuts a path in two).
        "head" | "tail" => args.iter().all(|a| {
            !a.starts_with('-')
                || a.trim_start_matches('-')
                    .chars()
                    .all(|c| c.is_ascii_digit() || "nqvz".contains(c))
                || a.starts_with("--lines")
        }),
        // `grep PATTERN` on its input: options that only select lines.
        "grep" => {
            let ops: Vec<&&str> = args.iter().filter(|a| !a.starts_with('-')).collect();
            ops.len() == 1
                && args.iter().filter(|a| a.starts_with('-')).all(|a| {
                    a.trim_start_matches('-')
                        .chars()
                        .all(|c| "viEFxwGPe".contains(c))
                })
        }
        "uniq" => !args.iter().any(|a| a.contains('c') && a.starts_with('-')),
        // `tac -s` splits records on another separator than a newline.
        "tac" => args.is_empty(),
        "sort" => args.iter().all(|a| {
            a.starts_with('-')
                && a.trim_start_matches('-')
                    .chars()
                    .all(|c| "bdfgihMnRrsuVz".contains(c))
        }),
        _ => true,
    }
}

/// The commands among `feeds` whose output reaches the consumer.
fn last(script: &Script, feeds: &[usize]) -> Vec<usize> {
    feeds
        .iter()
        .copied()
        .filter(|&i| {
            script.commands.get(i).is_some_and(|c| !c.wraps)
                && !feeds.iter().any(|&j| {
                    script
                        .commands
                        .get(j)
                        .is_some_and(|c: &SimpleCommand| c.feeds.contains(&i))
                })
        })
        .collect()
}

/// A git pathspec: a directory, a file, or a glob, as [`pathspec_tree`] reads it.
fn pathspec(spec: &str, tree: &dyn Fn(&str, Option<&str>) -> Output) -> Result<Output, String> {
    let (root, names) = pathspec_tree(spec)?;
    Ok(tree(root, names))
}

/// `find ROOTS … -name PAT …`: the roots, filtered by the name pattern when the expression
/// is a plain conjunction.
fn find(
    args: &[&str],
    tree: &dyn Fn(&str, Option<&str>) -> Output,
    matches: bool,
) -> Result<Vec<Output>, String> {
    let mut i = 0;
    while i < args.len() && matches!(args[i], "-H" | "-L" | "-P") {
        i += 1;
    }
    let mut roots = Vec::new();
    while i < args.len() && !args[i].starts_with('-') && !matches!(args[i], "(" | "!" | ",") {
        roots.push(args[i]);
        i += 1;
    }
    let prints_more = args.iter().any(|a| {
        matches!(
            *a,
            "-exec" | "-execdir" | "-ok" | "-okdir" | "-printf" | "-ls" | "-fls"
        )
    });
    if prints_more && !matches {
        return Err("(`find`) prints more than paths".to_owned());
    }
    // A name test narrows the paths when the expression is a conjunction; a negated one
    // (`! -name x`, `-not -name x`) does not. A disjunction without groups (`-name '*.c' -o
    // -name '*.h'`) narrows them to the union of its branches' names when every branch
    // tests one: a path any branch lets through has that branch's name.
    let expr = without_commands(&args[i..]);
    let expr = expr.as_slice();
    let grouped = expr.iter().any(|a| matches!(*a, "," | "(" | ")"));
    let names: Vec<Option<&str>> = if grouped {
        vec![None]
    } else {
        let branches: Vec<Option<&str>> = expr
            .split(|a| matches!(*a, "-o" | "-or"))
            .map(branch_name)
            .collect();
        if branches.iter().any(Option::is_none) {
            vec![None]
        } else {
            branches
        }
    };
    if roots.is_empty() {
        roots.push(".");
    }
    Ok(roots
        .into_iter()
        .flat_map(|r| names.iter().map(move |n| tree(r, *n)))
        .collect())
}

/// The primaries of `find` that act on the paths reaching them: run a command, print,
/// delete, stop.
const FIND_ACTIONS: &[&str] = &[
    "-exec", "-execdir", "-ok", "-okdir", "-print", "-print0", "-printf", "-fprint", "-fprint0",
    "-fprintf", "-ls", "-fls", "-delete", "-quit",
];

/// A `find` expression with the command of each `-exec`, `-execdir`, `-ok` and `-okdir` (up
/// to its `;`, or a `+` right after `{}`) left out, so that no word of a command reads as a
/// test or an operator (`-exec cat {} -o x ;`).
fn without_commands<'a>(expr: &[&'a str]) -> Vec<&'a str> {
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(&w) = expr.get(i) {
        out.push(w);
        i += 1;
        if matches!(w, "-exec" | "-execdir" | "-ok" | "-okdir") {
            while let Some(&c) = expr.get(i) {
                i += 1;
                if c == ";" || (c == "+" && expr[i - 2] == "{}") {
                    break;
                }
            }
        }
    }
    out
}

/// The name a conjunction of `find` tests narrows its paths to: its first name test
/// (`-name '*.rs'`, `-iname x`) that is neither negated (`! -name x`, `-not -name x`) nor
/// possibly the value of the word before it (`-newer -name -name x`), if any. Only the tests
/// before the branch's first action narrow what it acts on: find evaluates left to right,
/// so `-exec cat {} ; -name x` runs `cat` on every path. A pattern fnmatch(3) reads
/// otherwise than the walk's matcher (`\.env`, `.[[.e.]]nv`, a brace) narrows nothing.
fn branch_name<'a>(branch: &[&'a str]) -> Option<&'a str> {
    let acts = branch
        .iter()
        .position(|a| FIND_ACTIONS.contains(a))
        .unwrap_or(branch.len());
    let branch = &branch[..acts];
    (0..branch.len().saturating_sub(1))
        .find(|&k| {
            matches!(branch[k], "-name" | "-iname")
                && (k == 0 || !(branch[k - 1].starts_with('-') || branch[k - 1] == "!"))
        })
        .map(|k| branch[k + 1])
        .filter(|name| crate::paths::glob_read_exactly(name, false))
}

#[cfg(test)]
mod tests {
    use super::{Output, find};

    /// The name filters `find ARGS` narrows its matches to (`None`: every path).
    fn narrowed(args: &str) -> Vec<Option<String>> {
        let args: Vec<&str> = args.split(' ').collect();
        let tree = |_: &str, names: Option<&str>| Output::Tree {
            root: ".".to_owned(),
            names: names.map(str::to_owned),
            cwd: crate::shell::WorkingDir::Root,
            tracked: false,
            ignores: false,
        };
        find(&args, &tree, true)
            .expect("modeled")
            .into_iter()
            .map(|o| match o {
                Output::Tree { names, .. } => names,
                _ => panic!("not a tree"),
            })
            .collect()
    }

    #[test]
    fn only_the_tests_before_an_action_narrow_what_it_acts_on() {
        assert_eq!(
            narrowed(". -name *.rs -exec cat {} ;"),
            [Some("*.rs".to_owned())]
        );
        assert_eq!(narrowed(". -exec cat {} ; -name x"), [None]);
        assert_eq!(narrowed(". -exec cat {} + -name x"), [None]);
        assert_eq!(narrowed(". -ok cat {} ; -name x"), [None]);
        assert_eq!(narrowed(". -print -name x"), [None]);
        assert_eq!(
            narrowed(". -name *.md -exec cat {} ; -name *.rs"),
            [Some("*.md".to_owned())]
        );
        // The words of a command are neither tests nor operators.
        assert_eq!(narrowed(". -exec cat {} -o -name x ;"), [None]);
        assert_eq!(narrowed(". -exec grep -name {} ;"), [None]);
    }

    #[test]
    fn a_name_fnmatch_reads_otherwise_narrows_nothing() {
        for args in [
            r". -name \.env",
            r". -name .e\nv",
            r". -iname \.ENV",
            ". -name .[[.e.]]nv",
            ". -name .[[=e=]]nv",
            ". -name .[[:alpha:]]nv",
            ". -name {.env,x}",
            r". -type f -name \.env -exec cat {} ;",
        ] {
            assert_eq!(narrowed(args), [None], "{args}");
        }
        assert_eq!(narrowed(r". -name *.md -o -name \.env"), [None]);
        assert_eq!(
            narrowed(". -name *.py -o -name *.rs"),
            [Some("*.py".to_owned()), Some("*.rs".to_owned())]
        );
    }
}
