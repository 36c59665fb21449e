//! What runs after a command: the directory a `cd` moves to, the commands a wrapper runs, and
//! functions that call themselves without end.

use brush_parser::ast;

use super::Lowering;
use crate::shell::unwrap::{Inner, unwrap};
use crate::shell::{MAX_INNER_DEPTH, Word, WorkingDir};

impl Lowering<'_> {
    /// `cd DIR` moves the commands after it.
    pub(super) fn track_cwd(&mut self, index: usize) {
        let cmd = &self.script.commands[index];
        // `CDPATH` set for this command alone (`CDPATH=~ cd x`) or before.
        let cdpath = sets_cdpath(cmd);
        let searched = self.cdpath || cdpath;
        self.cdpath |= cdpath && cmd.program().is_none_or(|p| p != "cd" && p != "pushd");
        if cmd
            .program()
            .is_some_and(|p| self.script.functions.iter().any(|f| f == p))
        {
            self.moved(WorkingDir::Unknown);
            return;
        }
        if enters_toplevel(&self.script.commands, index, &self.cwd) {
            self.script.commands[index].enters_toplevel = true;
            return;
        }
        let next = match cmd.program() {
            Some(program @ ("cd" | "pushd")) => match cd_target(program, cmd.args()) {
                Some(CdTarget::Home) if self.home => WorkingDir::Unknown,
                Some(CdTarget::Home) => WorkingDir::Dir("~".to_owned()),
                // A relative name that does not start with `.` or `..` is looked up in each
                // directory of `CDPATH` first.
                Some(CdTarget::Dir(dir)) if searched && searches_cdpath(dir) => WorkingDir::Unknown,
                Some(CdTarget::Dir(dir)) => join(&self.cwd, dir),
                None => WorkingDir::Unknown,
            },
            Some("popd") => WorkingDir::Unknown,
            _ => return,
        };
        if next == WorkingDir::Unknown && returns_to_visited(cmd) {
            // Somewhere the shell was before: in this command, where its moves were
            // recorded, or before it, where every earlier command's moves were judged.
            self.cwd = next;
            return;
        }
        self.moved(next);
    }

    /// A command moves the shell to `dir`: the commands after it run there, and the shell
    /// may be left there ([`crate::shell::Script::moves`]). A move the text does not tell
    /// stands for all of them, alone.
    fn moved(&mut self, dir: WorkingDir) {
        let moves = &mut self.script.moves;
        if dir == WorkingDir::Unknown {
            *moves = vec![WorkingDir::Unknown];
        } else if !moves.contains(&dir) && !moves.contains(&WorkingDir::Unknown) {
            moves.push(dir.clone());
        }
        self.cwd = dir;
    }

    /// Adds what a wrapper runs after it.
    pub(super) fn unwrap(&mut self, index: usize, depth: usize) {
        if depth > MAX_INNER_DEPTH {
            // A limit reached is never a reason to stop looking: the rest is unread.
            self.script.unreadable.push(crate::shell::Unreadable {
                code: raw_text(&self.script.commands[index]),
                error: crate::shell::ShellError::TooDeep,
            });
            return;
        }
        if self.script.commands[index].program() == Some("git") {
            self.git_code(index, depth);
        }
        self.git_dashed(index, depth);
        let mut unwrapping = unwrap(&self.script.commands[index]);
        if unwrapping.inner.is_empty() {
            return;
        }
        let outer = self.script.commands[index].clone();
        self.script.commands[index].wraps = true;
        let elevated = outer.elevated || unwrapping.elevated;
        for inner in std::mem::take(&mut unwrapping.inner) {
            match inner {
                Inner::Command(mut words, cwd) => {
                    // Words standing for what the wrapper passes (`xargs` input, `find`'s
                    // paths) take their values from its producers.
                    let walks = matches!(outer.program(), Some("find" | "fd" | "fdfind"));
                    let producers = if walks {
                        vec![index]
                    } else {
                        last_producers(&self.script.commands, &outer.feeds)
                    };
                    // With no producer (`xargs cat` reading the caller's input) or an input
                    // redirected (`xargs cat < list`, `<<< PATH`, a here-document), the words
                    // are only known when it runs.
                    let unknown = !walks && (producers.is_empty() || self.stdin_redirected);
                    for w in &mut words {
                        if let Some(d) = &mut w.domain
                            && d.producers.is_empty()
                            && d.values.is_empty()
                        {
                            if unknown {
                                w.domain = None;
                            } else {
                                d.producers.clone_from(&producers);
                            }
                        }
                    }
                    let at = self.push(words, Vec::new(), outer.feeds.clone());
                    let c = &mut self.script.commands[at];
                    c.cwd = match cwd.or_else(|| unwrapping.cwd.clone()) {
                        None => outer.cwd.clone(),
                        Some(WorkingDir::Unknown) => WorkingDir::Unknown,
                        Some(d) => join(&outer.cwd, d.text()),
                    };
                    c.parent = Some(index);
                    c.elevated = elevated;
                    c.extra_args = unwrapping.extra_args;
                    // An inner command may itself be a wrapper (`sudo env timeout rm …`).
                    self.unwrap(at, depth + 1);
                }
                Inner::Code(code) => {
                    let start = match &unwrapping.cwd {
                        None => outer.cwd.clone(),
                        Some(WorkingDir::Unknown) => WorkingDir::Unknown,
                        Some(d) => join(&outer.cwd, d.text()),
                    };
                    self.code(index, &outer, &code, start, depth, elevated);
                }
                Inner::DynamicCode => self.script.commands[index].runs_dynamic_code = true,
                Inner::Unmodeled(why) => {
                    self.script.unreadable.push(crate::shell::Unreadable {
                        code: raw_text(&outer),
                        error: crate::shell::ShellError::Unsettled(why),
                    });
                }
            }
        }
        // `builtin cd`, `command cd`, `eval cd`: only a plain literal `cd DIR` is followed.
        let moves = self.script.commands[index + 1..]
            .iter()
            .any(|c| matches!(c.program(), Some("cd" | "pushd" | "popd" | "chdir")));
        if moves {
            self.moved(WorkingDir::Unknown);
        }
    }

    /// Lowers shell code the command `index` (`outer`) runs in a new shell started in
    /// `start`, as its children.
    pub(super) fn code(
        &mut self,
        index: usize,
        outer: &crate::shell::SimpleCommand,
        code: &str,
        start: WorkingDir,
        depth: usize,
        elevated: bool,
    ) {
        let saved = std::mem::replace(&mut self.cwd, start.clone());
        // A login shell first runs the person's start-up files (`~/.profile`), which may
        // export `CDPATH`: a relative `cd NAME` in its code may leave the workspace.
        if logs_in(outer) {
            self.cdpath = true;
        }
        // A new shell sees the environment, not the caller's unexported variables: none of
        // the script's values (which are exported is not followed) and none of its
        // assignments.
        let outer_assigned = std::mem::take(&mut self.assigned);
        // The values the code gives its own variables are known when the script's are (its
        // second reading; not below a nested new shell, which would read each level again).
        let own = (!self.first && depth <= 1)
            .then(|| self.new_shell_variables(code, depth, &start))
            .flatten();
        let outer_variables = self.variables.take();
        self.variables = own.or_else(|| outer_variables.as_ref().map(|v| v.in_new_shell()));
        // `eval` runs code in this shell, with its positional parameters; a new shell has
        // those it is given after its code (`sh -c CODE NAME ARGS…`).
        let (positional, exact, zero) = if outer.program() == Some("eval") {
            (self.positional.clone(), self.exact, None)
        } else {
            super::functions::shell_arguments(outer, code)
        };
        if let Some(args) = &positional {
            self.variables = self
                .variables
                .as_ref()
                .map(|v| v.with_positional(args, exact, zero.as_ref()));
        }
        let saved_positional = std::mem::replace(&mut self.positional, positional);
        let saved_exact = std::mem::replace(&mut self.exact, exact);
        let added = self.nested(code, depth);
        self.positional = saved_positional;
        self.exact = saved_exact;
        self.variables = outer_variables;
        self.assigned = outer_assigned;
        self.cwd = saved;
        for c in &mut self.script.commands[added] {
            c.parent.get_or_insert(index);
            c.elevated |= elevated;
            c.feeds.extend(outer.feeds.iter().copied());
        }
    }

    /// A function that calls itself through a pipe or in the background is a fork bomb.
    pub(super) fn fork_bomb_check(&mut self, def: &ast::FunctionDefinition) {
        let name = def.fname.value.as_str();
        let body = def.body.0.to_string();
        let calls_itself = body
            .split(|c: char| {
                c.is_whitespace() || matches!(c, '|' | '&' | ';' | '{' | '}' | '(' | ')')
            })
            .any(|t| t == name);
        if calls_itself && (body.contains('|') || body.contains('&')) {
            self.script.fork_bombs.push(name.to_owned());
        }
    }
}

impl WorkingDir {
    pub(super) fn text(&self) -> &str {
        match self {
            WorkingDir::Dir(d) => d,
            WorkingDir::Root | WorkingDir::Unknown => ".",
        }
    }
}

/// Where a `cd` or `pushd` whose arguments are `args` moves, when its shape tells.
enum CdTarget<'a> {
    /// `cd` alone: the home directory.
    Home,
    /// The one literal operand.
    Dir(&'a str),
}

/// The target of `cd [-L|-P|-e]... [--] DIR` or `pushd DIR`: exactly one literal operand
/// after options the builtin knows (`cd` alone goes home). Any other shape (two operands,
/// which bash refuses and so moves nothing, and zsh reads as a substitution in `$PWD`; an
/// unknown option, `-@` among them where the system lacks extended attributes; `-`, `+N` or `-N` of the
/// directory stack; `pushd -n`, which moves nothing; a word known only when it runs) is
/// `None`: where the commands after it run is not told by the text.
/// Whether `cmd` moves the shell back to a directory it was in before and nowhere else: `cd
/// -` (`OLDPWD`), `popd` (the top of the directory stack), `pushd` alone or `pushd +N`/`-N`,
/// `popd +N`/`-N`/`-n` (the stack turned or trimmed). Setting `OLDPWD` or `DIRSTACK` is judged
/// on its own.
fn returns_to_visited(cmd: &crate::shell::SimpleCommand) -> bool {
    let Some(args) = cmd
        .args()
        .iter()
        .map(Word::literal)
        .collect::<Option<Vec<&str>>>()
    else {
        return false;
    };
    let turn = |t: &str| {
        t.len() > 1 && t.starts_with(['+', '-']) && t[1..].bytes().all(|b| b.is_ascii_digit())
    };
    match cmd.program() {
        Some("cd") => args == ["-"],
        Some("pushd") => matches!(args.as_slice(), [] | [_]) && args.iter().all(|t| turn(t)),
        Some("popd") => args.iter().all(|t| *t == "-n" || turn(t)),
        _ => false,
    }
}

fn cd_target<'a>(program: &str, args: &'a [Word]) -> Option<CdTarget<'a>> {
    let mut operands = Vec::new();
    let mut options_done = false;
    for w in args {
        // A word of the script's variables that can take one value only is that value.
        let t = w.literal().or_else(|| {
            w.domain
                .as_ref()
                .filter(|d| d.producers.is_empty())
                .and_then(|d| match d.values.as_slice() {
                    [one] => Some(one.as_str()),
                    _ => None,
                })
        })?;
        if !options_done && t == "--" {
            options_done = true;
            continue;
        }
        if !options_done && t.len() > 1 && t.starts_with('-') {
            let known = program == "cd" && t[1..].chars().all(|c| matches!(c, 'L' | 'P' | 'e'));
            if !known {
                return None;
            }
            continue;
        }
        options_done = true;
        operands.push(t);
    }
    match operands.as_slice() {
        [] if program == "cd" => Some(CdTarget::Home),
        [dir]
            if !dir.is_empty() && *dir != "-" && !(program == "pushd" && dir.starts_with('+')) =>
        {
            Some(CdTarget::Dir(dir))
        }
        _ => None,
    }
}

/// Whether the command `index` is `cd "$(git rev-parse --show-toplevel)"` (or with quoted
/// backquotes) run in the workspace root, `cwd`, by git in the same place: git prints the top
/// level of the repository it finds from there, the workspace root when it is that
/// repository's, or nothing when it finds none, and `cd ""` stays. Unquoted, nothing printed
/// would leave `cd` alone, which goes home. The judge checks that no repository lies above
/// the root ([`crate::shell::SimpleCommand::enters_toplevel`]).
fn enters_toplevel(
    commands: &[crate::shell::SimpleCommand],
    index: usize,
    cwd: &WorkingDir,
) -> bool {
    let cmd = &commands[index];
    let quoted = |raw: &str| {
        raw.strip_prefix('"')
            .and_then(|r| r.strip_suffix('"'))
            .is_some_and(|r| r.starts_with("$(") || r.starts_with('`'))
    };
    let [word] = cmd.args() else { return false };
    let printer = match (word.domain.as_ref(), cmd.feeds.as_slice()) {
        (Some(d), [p]) if d.values.is_empty() && d.producers == [*p] => commands.get(*p),
        _ => None,
    };
    *cwd == WorkingDir::Root
        && cmd.program() == Some("cd")
        && cmd.assignments.is_empty()
        && cmd.parent.is_none()
        && quoted(&word.raw)
        && super::simple::whole_substitution(&word.raw)
        && printer.is_some_and(|p| {
            p.program() == Some("git")
                && p.cwd == WorkingDir::Root
                && p.assignments.is_empty()
                && p.parent.is_none()
                && !p.elevated
                && p.literals()
                    .eq([Some("git"), Some("rev-parse"), Some("--show-toplevel")])
        })
}

/// Whether a command may set `CDPATH`: it assigns it (for itself or the shell), or names it
/// among its arguments (`export CDPATH=…`, `declare -x CDPATH`, `read CDPATH`), or has an
/// argument only known when it runs that may (`declare "$x"`).
fn sets_cdpath(cmd: &crate::shell::SimpleCommand) -> bool {
    let names = |t: &str| t == "CDPATH" || t.starts_with("CDPATH=") || t.starts_with("CDPATH+=");
    cmd.assignments.iter().any(|a| a == "CDPATH")
        || (cmd.args().iter().any(|w| w.literal().is_none_or(names))
            && cmd
                .program()
                .is_some_and(|p| crate::programs::assigns_variables(p).is_some()))
}

/// Whether `outer` starts a login shell (`bash -l`, `-lc`, `--login`): one whose start-up
/// files run before its code.
fn logs_in(outer: &crate::shell::SimpleCommand) -> bool {
    let shell = outer
        .program()
        .is_some_and(|p| matches!(p, "bash" | "sh" | "zsh" | "dash" | "ksh" | "mksh"));
    shell
        && outer.args().iter().any(|w| {
            w.literal().is_some_and(|t| {
                t == "--login" || (t.starts_with('-') && !t.starts_with("--") && t.contains('l'))
            })
        })
}

/// Whether the environment the command runs in (the one it is judged in) has a `CDPATH`:
/// then every `cd NAME` searches its directories first.
pub(super) fn inherited_cdpath() -> bool {
    crate::process_env::non_empty("CDPATH").is_some()
}

/// Whether `cd DIR` looks `DIR` up in `CDPATH`: a name that is neither absolute nor starts
/// with `.` or `..` as its first component.
fn searches_cdpath(dir: &str) -> bool {
    let first = dir.split('/').next().unwrap_or_default();
    !(dir.starts_with('/') || dir.starts_with('~') || first == "." || first == "..")
}

/// The words of a command as written, joined by spaces.
pub(super) fn raw_text(cmd: &crate::shell::SimpleCommand) -> String {
    cmd.words
        .iter()
        .map(|w| w.raw.as_str())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The directory `dir` names when entered from `from`.
fn join(from: &WorkingDir, dir: &str) -> WorkingDir {
    if dir.starts_with('/') || dir.starts_with('~') {
        return WorkingDir::Dir(dir.to_owned());
    }
    match from {
        WorkingDir::Root => WorkingDir::Dir(dir.to_owned()),
        WorkingDir::Dir(base) => WorkingDir::Dir(format!("{}/{dir}", base.trim_end_matches('/'))),
        WorkingDir::Unknown => WorkingDir::Unknown,
    }
}

/// The commands among `feeds` whose output reaches the consumer: those no other feed reads.
fn last_producers(commands: &[crate::shell::SimpleCommand], feeds: &[usize]) -> Vec<usize> {
    feeds
        .iter()
        .copied()
        .filter(|&i| {
            commands.get(i).is_some_and(|c| !c.wraps)
                && !feeds
                    .iter()
                    .any(|&j| commands.get(j).is_some_and(|c| c.feeds.contains(&i)))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::{CdTarget, cd_target};
    use crate::shell::Word;

    fn target(program: &str, args: &[&str]) -> Option<String> {
        let words: Vec<Word> = args.iter().map(|a| Word::literal_text(*a)).collect();
        cd_target(program, &words).map(|t| match t {
            CdTarget::Home => "~".to_owned(),
            CdTarget::Dir(d) => d.to_owned(),
        })
    }

    #[test]
    fn only_a_cd_of_one_operand_and_known_options_is_followed() {
        assert_eq!(target("cd", &["src"]).as_deref(), Some("src"));
        assert_eq!(target("cd", &["-P", "--", "src"]).as_deref(), Some("src"));
        assert_eq!(target("cd", &[]).as_deref(), Some("~"));
        assert_eq!(target("pushd", &["src"]).as_deref(), Some("src"));
        for args in [
            &["src", "x"][..],
            &["-x", "src"],
            &["-@", "src"],
            &["--foo", "src"],
            &["-"],
            &[""],
        ] {
            assert_eq!(target("cd", args), None, "cd {args:?}");
        }
        for args in [&["-n", "src"][..], &["+1"], &[], &["a", "b"]] {
            assert_eq!(target("pushd", args), None, "pushd {args:?}");
        }
    }
}
