//! Lowers brush-parser's syntax tree into the flat list of simple commands of a [`Script`].

mod functions;
mod git_code;
pub(super) mod revisions;
pub(super) mod simple;
mod unmodeled;
mod unroll;
pub(super) mod variables;
mod wrappers;

use brush_parser::ast::{self, Command, CompoundCommand, CompoundList, Pipeline};
use brush_parser::{Parser, ParserOptions};

use super::{Domain, MAX_INNER_DEPTH, Script, ShellError, Unreadable, Word, WorkingDir, precheck};

pub(super) struct Lowering<'s> {
    script: &'s mut Script,
    cwd: WorkingDir,
    /// Loop variables whose values are known, innermost last.
    loops: Vec<(String, Domain)>,
    /// Whether the compound command being lowered reads its input from a redirection.
    stdin_redirected: bool,
    /// Loop variables an inner loop bound again: their outer values are no longer known.
    rebound: Vec<String>,
    /// Counters of the arithmetic `for` loops being lowered: a loop inside that binds one
    /// rebinds it.
    counters: Vec<String>,
    /// Commands of `>(…)` substitutions waiting for the command whose output they read.
    readers: Vec<usize>,
    /// Variables the script assigned (or bound as a loop's) so far, in the shell and on
    /// every path to here: their expansions are the script's own values, not the
    /// environment's.
    assigned: Vec<String>,
    /// Whether the script may have set `CDPATH` (an assignment, `export`, `declare`, `read`
    /// …, on any path so far): a relative `cd NAME` then searches its directories first.
    cdpath: bool,
    /// Whether a single simple command of plain words skips the shell parser
    /// ([`plain_command`]); off only to compare the two readings in tests.
    fast: bool,
    /// Where the script assigns its variables, gathered as it is lowered.
    sites: variables::Sites,
    /// What the script's variables can hold, once the whole script was read: words made of
    /// them are given their values when it is lowered again.
    variables: Option<variables::Variables>,
    /// Whether this is the first reading of the script (a second one follows when its
    /// variables are known).
    first: bool,
    /// Whether the script may give `HOME` a value of its own (assign, export or unset it):
    /// `~`, `$HOME` and a bare `cd` then name a directory only known when it runs.
    home: bool,
    /// The functions defined so far, in the order they are read: a call of one lowers its
    /// body again with the call's arguments ([`Self::call`]).
    definitions: Vec<(String, ast::FunctionDefinition)>,
    /// The arguments of the function call whose body is being lowered: `$1`, `"$@"`, … are
    /// these words. `None` outside a call, or in a body read without a call.
    positional: Option<Vec<Word>>,
    /// Whether the body being lowered leaves its positional parameters as the call gave them
    /// (no `shift` or `set`): `$1` is then the first argument, not any of them.
    exact: bool,
    /// How many function bodies were lowered at their calls so far ([`MAX_CALLS`]).
    calls: usize,
    /// The loop variables whose body is being lowered for one of their values, innermost
    /// last: the words expanding them are written with the value ([`unroll`]).
    bound: Vec<(String, String)>,
    /// How many copies of loop bodies were made so far ([`unroll::MAX_COPIES`]).
    copies: usize,
    /// Whether the script may define a function: no loop is unrolled then.
    functions: bool,
}

/// The most function calls whose bodies are lowered with their arguments; past it, the call
/// is unreadable (a limit reached fails closed).
const MAX_CALLS: usize = 64;

impl<'s> Lowering<'s> {
    pub(super) fn new(script: &'s mut Script) -> Self {
        Self {
            script,
            cwd: WorkingDir::Root,
            loops: Vec::new(),
            stdin_redirected: false,
            cdpath: wrappers::inherited_cdpath(),
            rebound: Vec::new(),
            counters: Vec::new(),
            readers: Vec::new(),
            assigned: Vec::new(),
            fast: true,
            sites: variables::Sites::default(),
            home: false,
            variables: Some(variables::Variables::specials(true)),
            first: true,
            definitions: Vec::new(),
            positional: None,
            exact: false,
            calls: 0,
            bound: Vec::new(),
            copies: 0,
            functions: false,
        }
    }

    /// A lowering that sends every command through the shell parser.
    #[cfg(test)]
    pub(super) fn parser_only(script: &'s mut Script) -> Self {
        Self {
            fast: false,
            ..Self::new(script)
        }
    }

    /// Parses `code` and lowers it, starting in `cwd`.
    pub(super) fn program(
        &mut self,
        code: &str,
        depth: usize,
        cwd: WorkingDir,
    ) -> Result<(), ShellError> {
        if depth > MAX_INNER_DEPTH {
            return Err(ShellError::TooDeep);
        }
        precheck(code)?;
        self.functions |= unroll::defines_function(code);
        if self.fast
            && let Some(simple) = plain_command(code)
        {
            self.cwd = cwd;
            // What the parser makes of it: one list of one pipeline of this one command.
            self.simple(&simple, depth, &[]);
            return Ok(());
        }
        let mut parser = Parser::new(code.as_bytes(), &ParserOptions::default());
        let program = parser
            .parse_program()
            .map_err(|e| ShellError::Syntax(e.to_string()))?;
        self.cwd = cwd.clone();
        for list in &program.complete_commands {
            self.list(list, depth, &[]);
        }
        if depth == 0 && self.first {
            self.with_variables(&program, cwd);
        }
        Ok(())
    }

    /// Lowers the whole script again once the values its variables can hold are known
    /// (every place that assigns them was read): words made of them get those values, and a
    /// `cd` to one of them moves to it. The first reading stays when nothing is known, or
    /// when the second one does not run the same commands.
    fn with_variables(&mut self, program: &ast::Program, cwd: WorkingDir) {
        let mut sites = std::mem::take(&mut self.sites);
        for c in &self.script.commands {
            sites.command(c);
        }
        // The first reading took `$RANDOM` or `$PWD` for the shell's: wrong if the script
        // may assign them.
        let guessed = self
            .variables
            .as_ref()
            .is_some_and(variables::Variables::used_shells);
        if self.script.commands.iter().any(|c| {
            c.program()
                .is_some_and(|p| matches!(p, "cd" | "pushd" | "popd"))
        }) {
            sites.moved();
        }
        let home = sites.assigns("HOME");
        let shells = sites.assign_shells();
        if guessed && shells {
            return self.again(program, cwd, variables::Variables::specials(false), home);
        }
        match variables::Variables::of(sites) {
            Some(known) => self.again(program, cwd, known, home),
            None if home => self.again(program, cwd, variables::Variables::specials(!shells), home),
            None => {}
        }
    }

    /// What code run by a new shell (`bash -c CODE`) from `cwd` knows of its variables:
    /// the values CODE itself gives them, gathered by reading CODE on its own as
    /// [`Self::with_variables`] reads a script (`bash -c 'f=x; cat "$f"'` reads `x`); the
    /// shell's own variables only when CODE assigns none.
    pub(super) fn new_shell_variables(
        &self,
        code: &str,
        depth: usize,
        cwd: &WorkingDir,
    ) -> Option<variables::Variables> {
        let outer = self.variables.as_ref()?;
        let mut scratch = Script::default();
        let mut lowering = Lowering {
            fast: self.fast,
            first: false,
            home: self.home,
            functions: self.functions,
            variables: Some(outer.in_new_shell()),
            ..Lowering::new(&mut scratch)
        };
        let read = lowering.program(code, depth + 1, cwd.clone());
        let mut sites = std::mem::take(&mut lowering.sites);
        read.ok()?;
        for c in &scratch.commands {
            sites.command(c);
        }
        if scratch.commands.iter().any(|c| {
            c.program()
                .is_some_and(|p| matches!(p, "cd" | "pushd" | "popd"))
        }) {
            sites.moved();
        }
        variables::Variables::of_new_shell(sites, outer)
    }

    /// Lowers the whole script again with what its variables can hold.
    fn again(
        &mut self,
        program: &ast::Program,
        cwd: WorkingDir,
        known: variables::Variables,
        home: bool,
    ) {
        let mut again = Script::default();
        let mut lowering = Lowering {
            variables: Some(known),
            home,
            fast: self.fast,
            first: false,
            functions: self.functions,
            ..Lowering::new(&mut again)
        };
        lowering.cwd = cwd;
        for list in &program.complete_commands {
            lowering.list(list, 0, &[]);
        }
        let final_cwd = lowering.cwd.clone();
        let same = again.commands.len() == self.script.commands.len()
            && again
                .commands
                .iter()
                .zip(&self.script.commands)
                .all(|(a, b)| a.program() == b.program() && a.parent == b.parent);
        if same {
            *self.script = again;
            self.cwd = final_cwd;
        }
    }

    /// Lowers nested code (a substitution, `bash -c`); returns the indices it added.
    fn nested(&mut self, code: &str, depth: usize) -> std::ops::Range<usize> {
        let start = self.script.commands.len();
        let saved = self.cwd.clone();
        // Nested code runs in a subshell: what it assigns is not the caller's.
        let kept = self.assigned.len();
        if let Err(error) = self.program(code, depth + 1, saved.clone()) {
            self.script.unreadable.push(Unreadable {
                code: code.to_owned(),
                error,
            });
        }
        self.assigned.truncate(kept);
        // Nested code runs in a subshell: its `cd` does not move the caller.
        self.cwd = saved;
        start..self.script.commands.len()
    }

    /// Lowers a list. The directory is followed only where it is certain: after a `cd` in
    /// an and-or list, commands after `||` (which run when something failed) and everything
    /// after the list run in an unknown directory unless the `cd` came first; a command run
    /// in the background (`&`) moves nothing.
    fn list(&mut self, list: &CompoundList, depth: usize, pipe: &[usize]) {
        for (at, item) in list.0.iter().enumerate() {
            let and_or = &item.0;
            // A job sent to the background and not waited for by a later `wait` of the same
            // list keeps running after the command ends (`sleep 100 &`, `(tail -f log &)`).
            // Only other jobs may stand between it and the `wait` (run in the foreground, not
            // sent on): a command between may end the shell first (`exit`, `exec`, a failure
            // under `set -e`).
            let waited = || {
                let later = &list.0[at + 1..];
                let end = later
                    .iter()
                    .position(|l| !matches!(l.1, ast::SeparatorOperator::Async));
                end.is_some_and(|w| later[w].0.to_string().trim() == "wait")
            };
            if matches!(item.1, ast::SeparatorOperator::Async) && !waited() {
                let code = and_or
                    .to_string()
                    .split_whitespace()
                    .collect::<Vec<_>>()
                    .join(" ");
                self.script.unreadable.push(Unreadable {
                    error: ShellError::Unsettled(
                        "`&` sends a job to the background with no `wait`: it may keep running after the command ends"
                            .to_owned(),
                    ),
                    code,
                });
            }
            let entry = self.cwd.clone();
            // A background job runs in a subshell: what it assigns is not the shell's.
            let background = self.assigned.len();
            self.pipeline(&and_or.first, depth, pipe);
            let moved_first = self.cwd != entry;
            let mut moved_later = false;
            for next in &and_or.additional {
                let before = self.cwd.clone();
                // After `&&` or `||` a pipeline may not run: what it assigns is its own.
                let kept = self.assigned.len();
                match next {
                    ast::AndOr::And(p) => self.pipeline(p, depth, pipe),
                    ast::AndOr::Or(p) => {
                        if self.cwd != entry {
                            self.cwd = WorkingDir::Unknown;
                        }
                        self.pipeline(p, depth, pipe);
                    }
                }
                self.assigned.truncate(kept);
                moved_later |= self.cwd != before;
            }
            if matches!(item.1, ast::SeparatorOperator::Async) {
                self.assigned.truncate(background);
            }
            if moved_later || (moved_first && !and_or.additional.is_empty() && self.cwd != entry) {
                self.cwd = if moved_later {
                    WorkingDir::Unknown
                } else {
                    self.cwd.clone()
                };
            }
            if matches!(item.1, ast::SeparatorOperator::Async) {
                self.cwd = entry;
            }
        }
    }

    /// Lowers a pipeline: each of several parts runs in a subshell of its own, starting in
    /// the directory the pipeline starts in, and moves nothing after it.
    fn pipeline(&mut self, pipeline: &Pipeline, depth: usize, pipe: &[usize]) {
        let mut upstream = pipe.to_vec();
        let entry = self.cwd.clone();
        let subshells = pipeline.seq.len() > 1;
        let mut last_moved = false;
        for (i, command) in pipeline.seq.iter().enumerate() {
            if subshells {
                self.cwd = entry.clone();
            }
            let start = self.script.commands.len();
            // Each part of a pipeline of several runs in a subshell of its own.
            let kept = self.assigned.len();
            self.command(command, depth, &upstream);
            if subshells {
                self.assigned.truncate(kept);
            }
            last_moved = i + 1 == pipeline.seq.len() && self.cwd != entry;
            upstream.extend(start..self.script.commands.len());
        }
        if subshells {
            // zsh, ksh93 and bash with `lastpipe` run the last part in the current shell: a
            // `cd` there may or may not move what follows.
            self.cwd = if last_moved {
                WorkingDir::Unknown
            } else {
                entry
            };
        }
    }

    /// Lowers a body that may run several times or not at all (a loop, a branch): when it
    /// moves the directory, every command in it and after it runs in an unknown one.
    fn uncertain(&mut self, start: usize, entry: &WorkingDir) {
        if self.cwd == *entry {
            return;
        }
        for c in &mut self.script.commands[start..] {
            c.cwd = WorkingDir::Unknown;
        }
        self.cwd = WorkingDir::Unknown;
    }

    fn command(&mut self, command: &Command, depth: usize, pipe: &[usize]) {
        match command {
            Command::Simple(simple) => self.simple(simple, depth, pipe),
            Command::Compound(compound, redirects) => {
                // `while read -r f; do …; done < <(CMD)`: the loop reads what CMD prints, as
                // it would from a pipe.
                if let (CompoundCommand::WhileClause(_), Some(sub)) =
                    (compound, input_substitution(redirects.as_ref()))
                {
                    let mut feeds = Vec::new();
                    self.process_substitution(
                        &ast::ProcessSubstitutionKind::Read,
                        sub,
                        depth,
                        &mut feeds,
                    );
                    let saved = std::mem::replace(&mut self.stdin_redirected, false);
                    self.compound(compound, depth, &feeds);
                    self.stdin_redirected = saved;
                    return;
                }
                let reads_input = redirects
                    .as_ref()
                    .is_some_and(|r| r.0.iter().any(reads_input));
                // An inner compound reads the same redirected input: the flag is kept.
                let saved = self.stdin_redirected;
                self.stdin_redirected |= reads_input;
                self.compound(compound, depth, pipe);
                self.stdin_redirected = saved;
                self.redirect_only(redirects.as_ref(), depth, pipe);
            }
            Command::Function(def) => {
                self.fork_bomb_check(def);
                self.script.functions.push(def.fname.value.clone());
                self.definitions
                    .push((def.fname.value.clone(), def.clone()));
                // A function runs where and when it is called, maybe where the text does not
                // show (a trap, a new shell it is exported to): its body is also read on its
                // own, with no directory, loop values or arguments known.
                let cwd = std::mem::replace(&mut self.cwd, WorkingDir::Unknown);
                let loops = std::mem::take(&mut self.loops);
                let positional = self.positional.take();
                let variables = self.variables.take();
                self.variables = variables
                    .as_ref()
                    .map(variables::Variables::without_positional);
                // The body runs only when called: what it assigns is not the shell's before.
                let kept = self.assigned.len();
                self.compound(&def.body.0, depth, &[]);
                self.redirect_only(def.body.1.as_ref(), depth, &[]);
                self.assigned.truncate(kept);
                self.cwd = cwd;
                self.loops = loops;
                self.positional = positional;
                self.variables = variables;
            }
            Command::ExtendedTest(test, redirects) => {
                if let Some(code) = test_evaluates_code(&test.expr) {
                    self.script.unreadable.push(Unreadable {
                        code: code.clone(),
                        error: ShellError::EvaluatesCode(code),
                    });
                }
                let mut words = vec![Word::literal_text("[[")];
                let mut feeds = pipe.to_vec();
                for w in test_words(&test.expr) {
                    words.push(self.word(&w.value, depth, &mut feeds));
                }
                self.push(words, Vec::new(), feeds);
                self.redirect_only(redirects.as_ref(), depth, pipe);
            }
        }
    }

    fn compound(&mut self, compound: &CompoundCommand, depth: usize, pipe: &[usize]) {
        match compound {
            CompoundCommand::Arithmetic(a) => self.expression(&a.expr.value, depth, pipe),
            CompoundCommand::ArithmeticForClause(f) => {
                let parts = [&f.initializer, &f.condition, &f.updater];
                let texts: Vec<&str> = parts
                    .iter()
                    .map(|e| e.as_ref().map_or("", |e| e.value.as_str()))
                    .collect();
                let counters = unmodeled::counters(texts[0], texts[1], texts[2]);
                if counters.is_none() {
                    for e in parts.into_iter().flatten() {
                        self.expression(&e.value, depth, pipe);
                    }
                }
                let (start, entry) = (self.script.commands.len(), self.cwd.clone());
                let outer = self.counters.len();
                self.counters.extend(counters.iter().flatten().cloned());
                let kept = self.assigned.len();
                self.list(&f.body.list, depth, pipe);
                self.assigned.truncate(kept);
                self.counters.truncate(outer);
                self.uncertain(start, &entry);
                // Counters set to numbers and only compared and stepped evaluate no text,
                // unless the body assigns them.
                for name in counters.unwrap_or_default() {
                    if self.may_assign(&name, start) {
                        let code = format!("(({}; {}; {}))", texts[0], texts[1], texts[2]);
                        self.script.unreadable.push(Unreadable {
                            error: ShellError::EvaluatesCode(code.clone()),
                            code,
                        });
                    }
                }
            }
            CompoundCommand::BraceGroup(b) => self.list(&b.list, depth, pipe),
            CompoundCommand::Subshell(s) => {
                let saved = self.cwd.clone();
                let kept = self.assigned.len();
                self.list(&s.list, depth, pipe);
                self.assigned.truncate(kept);
                self.cwd = saved;
            }
            CompoundCommand::ForClause(f) => {
                // The loop assigns its variable as `NAME=value` would.
                if let Some(code) = unmodeled::steering_binding(&f.variable_name) {
                    self.script.unreadable.push(Unreadable {
                        error: ShellError::Unmodeled(code.clone()),
                        code,
                    });
                }
                let mut feeds = pipe.to_vec();
                // The values when every one is a literal word.
                let mut literals = f.values.as_ref().map(|_| Vec::new());
                // `for f; do`: the positional parameters, known only in a function's call.
                let mut domain = match &f.values {
                    Some(_) => Some(Domain::default()),
                    None => self.positional_domain(),
                }
                .map(|d| Domain {
                    var: Some(f.variable_name.clone()),
                    ..d
                });
                for w in f.values.iter().flatten() {
                    let word = self.word(&w.value, depth, &mut feeds);
                    literals = literals.and_then(|mut l: Vec<String>| {
                        l.push(word.literal()?.to_owned());
                        Some(l)
                    });
                    domain = domain.and_then(|mut d| {
                        match (word.literal(), word.domain.clone()) {
                            (Some(t), _) => d.values.push(t.to_owned()),
                            (None, Some(inner)) => {
                                d.values.extend(inner.values);
                                d.producers.extend(inner.producers);
                            }
                            (None, None) => return None,
                        }
                        Some(d)
                    });
                }
                self.sites
                    .add(&f.variable_name, variables::Site::Loop(domain.clone()));
                let start = self.script.commands.len();
                let entry = self.cwd.clone();
                // The variable is the loop's in its body; after it, it keeps the environment's
                // value when the list was empty.
                let kept = self.assigned.len();
                self.assigned.push(f.variable_name.clone());
                if self.loops.iter().any(|(v, _)| *v == f.variable_name)
                    || self.counters.contains(&f.variable_name)
                {
                    // An inner loop rebinds an outer loop's variable.
                    self.rebound.push(f.variable_name.clone());
                }
                if let Some(d) = &domain {
                    self.loops.push((f.variable_name.clone(), d.clone()));
                }
                let copies = literals
                    .filter(|_| !self.functions && self.definitions.is_empty())
                    .and_then(|l| {
                        let budget = unroll::MAX_COPIES - self.copies;
                        unroll::unrolled(&f.variable_name, l, &f.body, budget)
                    });
                match copies {
                    // One copy of the body for each value, the variable written as it.
                    Some(values) => {
                        self.copies += values.len();
                        for value in values {
                            self.bound.push((f.variable_name.clone(), value));
                            self.list(&f.body.list, depth, &feeds);
                            self.bound.pop();
                        }
                    }
                    None => self.list(&f.body.list, depth, &feeds),
                }
                self.assigned.truncate(kept);
                self.uncertain(start, &entry);
                if domain.is_some() {
                    self.loops.pop();
                    self.forget_if_reassigned(&f.variable_name, start);
                }
            }
            CompoundCommand::CaseClause(c) => {
                let mut feeds = pipe.to_vec();
                self.word(&c.value.value, depth, &mut feeds);
                let (start, entry) = (self.script.commands.len(), self.cwd.clone());
                let mut moved = false;
                for case in &c.cases {
                    for p in &case.patterns {
                        self.word(&p.value, depth, &mut feeds);
                    }
                    if let Some(cmd) = &case.cmd {
                        self.cwd = entry.clone();
                        let kept = self.assigned.len();
                        self.list(cmd, depth, pipe);
                        self.assigned.truncate(kept);
                        moved |= self.cwd != entry;
                    }
                }
                if moved {
                    self.cwd = WorkingDir::Unknown;
                    self.uncertain(start, &entry);
                }
            }
            CompoundCommand::IfClause(i) => {
                let (start, entry) = (self.script.commands.len(), self.cwd.clone());
                self.list(&i.condition, depth, pipe);
                let after_condition = self.cwd.clone();
                let mut moved = after_condition != entry;
                // Each branch may not run: what it assigns is its own.
                let kept = self.assigned.len();
                self.list(&i.then, depth, pipe);
                self.assigned.truncate(kept);
                moved |= self.cwd != after_condition;
                for e in i.elses.iter().flatten() {
                    self.cwd = after_condition.clone();
                    if let Some(c) = &e.condition {
                        self.list(c, depth, pipe);
                    }
                    self.list(&e.body, depth, pipe);
                    self.assigned.truncate(kept);
                    moved |= self.cwd != after_condition;
                }
                if moved {
                    self.cwd = WorkingDir::Unknown;
                    self.uncertain(start, &entry);
                }
            }
            CompoundCommand::WhileClause(w) | CompoundCommand::UntilClause(w) => {
                let start = self.script.commands.len();
                let entry = self.cwd.clone();
                self.list(&w.0, depth, pipe);
                // `… | while read -r VAR; do …; done`: VAR takes the lines of the pipe, unless
                // the condition reads another input (`read v <&3`, `read v <<< x`, `{ read v; }
                // <&3`), which the lowered command does not show.
                let var = read_variable(&self.script.commands[start..])
                    .filter(|_| !w.0.to_string().contains(['<', '>']));
                // A command between the producer and the loop (`… | { head -c 3; while read
                // …; }`) may take part of the input first: `read` then starts inside a line.
                let next_to_producer = pipe.iter().max().is_some_and(|&last| last + 1 == start);
                let domain = var
                    .filter(|_| next_to_producer && !self.stdin_redirected)
                    .map(|(v, lines)| {
                        (
                            v.clone(),
                            Domain {
                                producers: simple::output_commands(&self.script.commands, 0..start)
                                    .into_iter()
                                    .filter(|i| pipe.contains(i))
                                    .collect(),
                                var: Some(v),
                                lines: Some(lines),
                                ..Domain::default()
                            },
                        )
                    });
                let body = self.script.commands.len();
                if let Some(d) = &domain {
                    self.loops.push(d.clone());
                }
                let kept = self.assigned.len();
                self.list(&w.1.list, depth, pipe);
                self.assigned.truncate(kept);
                self.uncertain(start, &entry);
                if let Some((v, _)) = domain {
                    self.loops.pop();
                    self.forget_if_reassigned(&v, body);
                    // A body that reads the loop's input itself takes lines, or parts of
                    // lines, away from `read`: what it then reads is no line of the producer.
                    if self.script.commands[body..]
                        .iter()
                        .any(|c| !leaves_input(c, &v))
                    {
                        self.forget(&v, body);
                    }
                }
            }
            // A coprocess always runs in a forked subshell: a `cd` in it moves nothing after.
            CompoundCommand::Coprocess(c) => {
                // Nothing waits for a coprocess: it may keep running after the command ends.
                self.script.unreadable.push(Unreadable {
                    error: ShellError::Unsettled(
                        "a coprocess may keep running after the command ends".to_owned(),
                    ),
                    code: "coproc".to_owned(),
                });
                let saved = self.cwd.clone();
                let kept = self.assigned.len();
                self.command(&c.body, depth, pipe);
                self.assigned.truncate(kept);
                self.cwd = saved;
            }
        }
    }

    /// Drops the known values of loop variable `var` from the words of commands from `start`
    /// on, when one of those commands may assign it.
    fn forget_if_reassigned(&mut self, var: &str, start: usize) {
        if self.may_assign(var, start) {
            self.forget(var, start);
        }
    }

    /// Drops the known values of loop variable `var` from the words of commands from `start`
    /// on.
    fn forget(&mut self, var: &str, start: usize) {
        for c in &mut self.script.commands[start..] {
            for w in &mut c.words {
                if w.domain
                    .as_ref()
                    .is_some_and(|d| d.var.as_deref() == Some(var))
                {
                    w.domain = None;
                }
            }
        }
    }

    /// Whether a command from `start` on may assign the variable `var`.
    fn may_assign(&self, var: &str, start: usize) -> bool {
        let default_assigned = self.script.commands[start..].iter().any(|c| {
            c.words.iter().any(|w| {
                w.raw.contains(&format!("${{{var}:=")) || w.raw.contains(&format!("${{{var}="))
            })
        });
        let rebound = self.rebound.iter().any(|v| v == var);
        rebound
            || default_assigned
            || self.script.commands[start..].iter().any(|c| {
                c.assignments
                    .iter()
                    .any(|a| a.trim_end_matches("[]") == var)
                    || (c.program().is_some_and(|p| {
                        // `set --` assigns the positional parameters.
                        crate::programs::assigns_variables(p).is_some() || p == "set"
                    }) && c.args().iter().any(|w| w.raw.contains(var)))
            })
    }

    /// Substitutions inside arithmetic still run; variables in it are evaluated as code.
    fn expression(&mut self, text: &str, depth: usize, pipe: &[usize]) {
        if super::words::arithmetic_evaluates_code(text) {
            self.script.unreadable.push(Unreadable {
                code: format!("(({text}))"),
                error: ShellError::EvaluatesCode(format!("(({text}))")),
            });
        }
        let mut feeds = pipe.to_vec();
        self.word(&format!("$(({text}))"), depth, &mut feeds);
    }
}

/// Words the shell reserves where a command starts; such a command is left to the parser.
const RESERVED: &[&str] = &[
    "if", "then", "else", "elif", "fi", "do", "done", "case", "esac", "while", "until", "for",
    "in", "function", "select", "time", "coproc",
];

/// `code` as the shell parser reads it when it is one simple command of plain words: words of
/// letters, digits and `_ . / - + , : @ %` (and `=` after the first) separated by spaces or
/// tabs, the first not a reserved word. Anything else is `None` and goes through the parser;
/// a test compares both readings over a generated set of commands.
fn plain_command(code: &str) -> Option<ast::SimpleCommand> {
    fn plain(b: u8) -> bool {
        b.is_ascii_alphanumeric()
            || matches!(
                b,
                b'_' | b'.' | b'/' | b'-' | b'+' | b',' | b':' | b'@' | b'%' | b'='
            )
    }
    if !code.bytes().all(|b| plain(b) || matches!(b, b' ' | b'\t')) {
        return None;
    }
    let mut words = code.split([' ', '\t']).filter(|w| !w.is_empty());
    let first = words.next()?;
    if first.contains('=') || RESERVED.contains(&first) {
        return None;
    }
    let word = |w: &str| ast::Word {
        value: w.to_owned(),
        loc: None,
    };
    let suffix: Vec<ast::CommandPrefixOrSuffixItem> = words
        .map(|w| ast::CommandPrefixOrSuffixItem::Word(word(w)))
        .collect();
    Some(ast::SimpleCommand {
        prefix: None,
        word_or_name: Some(word(first)),
        suffix: (!suffix.is_empty()).then_some(ast::CommandSuffix(suffix)),
    })
}

/// The part of a `[[ … ]]` test that bash evaluates as code, if any: a `-v` test (its
/// subscript is arithmetic) or an arithmetic comparison of anything but plain integers.
fn test_evaluates_code(expr: &ast::ExtendedTestExpr) -> Option<String> {
    use ast::BinaryPredicate as B;
    use ast::ExtendedTestExpr as E;
    match expr {
        E::And(a, b) | E::Or(a, b) => test_evaluates_code(a).or_else(|| test_evaluates_code(b)),
        E::Not(a) | E::Parenthesized(a) => test_evaluates_code(a),
        E::UnaryTest(ast::UnaryPredicate::ShellVariableIsSetAndAssigned, w)
        | E::UnaryTest(ast::UnaryPredicate::ShellVariableIsSetAndNameRef, w) => {
            Some(format!("-v {}", w.value))
        }
        E::UnaryTest(..) => None,
        E::BinaryTest(op, a, b) => {
            let arithmetic = matches!(
                op,
                B::ArithmeticEqualTo
                    | B::ArithmeticNotEqualTo
                    | B::ArithmeticLessThan
                    | B::ArithmeticLessThanOrEqualTo
                    | B::ArithmeticGreaterThan
                    | B::ArithmeticGreaterThanOrEqualTo
            );
            let plain = |w: &ast::Word| {
                let t = w.value.trim_start_matches('-');
                !t.is_empty() && t.chars().all(|c| c.is_ascii_digit())
            };
            (arithmetic && !(plain(a) && plain(b))).then(|| format!("{} {}", a.value, b.value))
        }
    }
}

/// The variable of a loop condition that is exactly `read [-r] VAR`, maybe with `IFS=`
/// before it, and how it reads a line. Another `IFS` (or any other assignment) splits the
/// line otherwise: not modeled.
fn read_variable(
    condition: &[crate::shell::SimpleCommand],
) -> Option<(String, crate::shell::LineRead)> {
    let [cmd] = condition else { return None };
    if cmd.program() != Some("read") || !cmd.redirects.is_empty() {
        return None;
    }
    let blanks = match (cmd.assignments.as_slice(), cmd.assignment_values.as_slice()) {
        ([], _) => false,
        ([name], [Some(value)]) if name == "IFS" && value.is_empty() => true,
        _ => return None,
    };
    let (raw, var) = match cmd.args() {
        [v] => (false, v),
        [r, v] if r.literal() == Some("-r") => (true, v),
        _ => return None,
    };
    let var = var
        .literal()
        .filter(|v| crate::programs::is_identifier(v))?;
    Some((var.to_owned(), crate::shell::LineRead { raw, blanks }))
}

/// Whether a command in the body of `while read VAR` leaves the loop's input to `read`: a
/// program known to read no input at all, or one that reads its file operands instead when
/// given some, here only flags without a value and the loop's word last (`wc -l "$f"`,
/// `grep -c def "$f"`). An operand `-` or a device of the input makes it read the input.
fn leaves_input(cmd: &crate::shell::SimpleCommand, var: &str) -> bool {
    let args = cmd.args();
    let texts: Vec<&str> = args.iter().filter_map(Word::literal).collect();
    let names_input = texts
        .iter()
        .any(|a| (a.ends_with('-') && *a != "--") || a.contains("/dev/") || a.contains("/proc/"));
    if cmd.wraps || names_input {
        return false;
    }
    // Builtins that never read their input, whatever their words.
    if matches!(
        cmd.program(),
        Some("echo" | "printf" | "test" | "[" | "[[" | "true" | "false" | ":")
    ) {
        return true;
    }
    let loop_word = |w: &Word| {
        w.domain
            .as_ref()
            .is_some_and(|d| d.var.as_deref() == Some(var))
    };
    // A word only known at run time may be an option that reads the input.
    if !args.iter().all(|w| w.literal().is_some() || loop_word(w)) {
        return false;
    }
    let last_is_loop_word = args.last().is_some_and(loop_word);
    // Options made only of the letters of flags that take no value.
    let flags = |letters: &str| {
        texts
            .iter()
            .filter(|a| a.starts_with('-') && **a != "--")
            .all(|a| a[1..].chars().all(|c| letters.contains(c)))
    };
    let operands = || texts.iter().filter(|a| !a.starts_with('-')).count();
    match cmd.program() {
        Some("ls" | "stat" | "du" | "basename" | "dirname") => true,
        Some("wc") => last_is_loop_word && flags("lcwmL"),
        Some("cat") => last_is_loop_word && flags("nAbeEsTtuv"),
        Some("md5sum" | "sha1sum" | "sha256sum" | "file") => last_is_loop_word && flags(""),
        // `-5`, `-n5`: a count attached to its option.
        Some("head" | "tail") => {
            last_is_loop_word && flags("0123456789nqv") && {
                texts.iter().all(|a| *a != "-n" && !a.starts_with("--"))
            }
        }
        // The first operand is the pattern: the loop's word is a file after it.
        Some("grep") => last_is_loop_word && flags("cilnvwxHhEFqsoL") && operands() >= 1,
        // Git reads its input only when told to (`--stdin`, `--batch`, `-`), and `shortlog`
        // without a revision.
        Some("git") => {
            texts.first().is_some_and(|sub| {
                matches!(
                    *sub,
                    "log"
                        | "show"
                        | "rev-list"
                        | "rev-parse"
                        | "diff"
                        | "blame"
                        | "ls-tree"
                        | "ls-files"
                        | "describe"
                        | "for-each-ref"
                        | "merge-base"
                        | "branch"
                        | "tag"
                        | "status"
                        | "grep"
                        | "cat-file"
                )
            }) && !texts
                .iter()
                .any(|a| a.contains("stdin") || a.contains("batch"))
        }
        _ => false,
    }
}

fn test_words(expr: &ast::ExtendedTestExpr) -> Vec<ast::Word> {
    use ast::ExtendedTestExpr as E;
    match expr {
        E::And(a, b) | E::Or(a, b) => {
            let mut w = test_words(a);
            w.extend(test_words(b));
            w
        }
        E::Not(a) | E::Parenthesized(a) => test_words(a),
        E::UnaryTest(_, w) => vec![w.clone()],
        E::BinaryTest(_, a, b) => vec![a.clone(), b.clone()],
    }
}

/// The command of the only redirection of a list when it is `< <(CMD)`: the standard input
/// read from a process substitution.
fn input_substitution(redirects: Option<&ast::RedirectList>) -> Option<&ast::SubshellCommand> {
    match redirects?.0.as_slice() {
        [
            ast::IoRedirect::File(
                None | Some(0),
                ast::IoFileRedirectKind::Read,
                ast::IoFileRedirectTarget::ProcessSubstitution(
                    ast::ProcessSubstitutionKind::Read,
                    sub,
                ),
            ),
        ] => Some(sub),
        _ => None,
    }
}

/// Whether a redirection gives a command its standard input (`<`, `0<`, `<>`, `<&N`, a
/// here-document or here-string): then what it reads is not what a pipe before it prints.
pub(super) fn reads_input(r: &ast::IoRedirect) -> bool {
    let stdin = |fd: &Option<ast::IoFd>| fd.is_none_or(|fd| fd == 0);
    match r {
        ast::IoRedirect::File(fd, kind, _) => {
            stdin(fd)
                && matches!(
                    kind,
                    ast::IoFileRedirectKind::Read
                        | ast::IoFileRedirectKind::ReadAndWrite
                        | ast::IoFileRedirectKind::DuplicateInput
                )
        }
        ast::IoRedirect::HereDocument(fd, _) | ast::IoRedirect::HereString(fd, _) => stdin(fd),
        ast::IoRedirect::OutputAndError(..) => false,
    }
}

#[cfg(test)]
mod plain_command_tests {
    use super::*;

    /// The script `code` lowers to, through the fast path or through the parser only.
    fn lowered(code: &str, fast: bool) -> Result<Script, ShellError> {
        let mut script = Script::default();
        let mut lowering = if fast {
            Lowering::new(&mut script)
        } else {
            Lowering::parser_only(&mut script)
        };
        lowering.program(code, 0, WorkingDir::Root)?;
        Ok(script)
    }

    /// Whether `code` reads the environment variable `github_pat` (its expansion is
    /// unreadable as evaluated from the environment).
    fn reads_environment(code: &str) -> bool {
        lowered(code, true)
            .unwrap()
            .unreadable
            .iter()
            .any(|u| matches!(&u.error, ShellError::EvaluatesCode(c) if c == "$github_pat"))
    }

    #[test]
    fn a_variable_is_the_scripts_only_when_assigned_on_every_path_in_the_shell() {
        for code in [
            "echo $github_pat",
            "(github_pat=x); echo $github_pat",
            "false && github_pat=x; echo $github_pat",
            "true || github_pat=1; echo $github_pat",
            "github_pat=x | cat; echo $github_pat",
            "github_pat=x & echo $github_pat",
            "if false; then github_pat=1; fi; echo $github_pat",
            "if false; then :; else github_pat=1; fi; echo $github_pat",
            "while false; do github_pat=1; done; echo $github_pat",
            "case a in b) github_pat=1;; esac; echo $github_pat",
            "f() { github_pat=x; }; echo $github_pat",
            "for github_pat in; do :; done; echo $github_pat",
            "declare github_pat; echo $github_pat",
            "local github_pat; echo $github_pat",
            "export github_pat; echo $github_pat",
            "github_pat+=x; echo $github_pat",
            "declare github_pat+=x; echo $github_pat",
            "echo $(github_pat=x); echo $github_pat",
            "echo $github_pat; github_pat=x",
        ] {
            assert!(reads_environment(code), "{code}");
        }
        for code in [
            "github_pat=x; echo $github_pat",
            "github_pat=x && echo $github_pat",
            "declare github_pat=x; echo $github_pat",
            "{ github_pat=x; }; echo $github_pat",
            "if true; then github_pat=1; echo $github_pat; fi",
            "for github_pat in a b; do echo $github_pat; done",
            "while read -r github_pat; do echo $github_pat; done < f",
            "(github_pat=x; echo $github_pat)",
        ] {
            assert!(!reads_environment(code), "{code}");
        }
    }

    /// The `cat` command of the script `code` lowers to.
    fn cat_in(code: &str) -> crate::shell::SimpleCommand {
        let script = lowered(code, false).unwrap();
        script
            .commands
            .into_iter()
            .find(|c| c.program() == Some("cat"))
            .unwrap()
    }

    #[test]
    fn a_while_read_loop_takes_the_lines_its_producer_prints() {
        // How `read` takes the lines into `f` of `cat "$f"`, when its values are the lines of
        // `git ls-files` (the first command).
        let lines = |code: &str| {
            let script = lowered(code, false).unwrap();
            let cat = script
                .commands
                .iter()
                .rfind(|c| c.program() == Some("cat") && c.words.len() > 1)
                .unwrap();
            let domain = cat.words[1].domain.clone()?;
            assert_eq!(domain.producers, [0], "{code}");
            domain.lines
        };
        let read = |raw, blanks| Some(crate::shell::LineRead { raw, blanks });
        assert_eq!(
            lines("git ls-files | while read -r f; do cat \"$f\"; done"),
            read(true, false)
        );
        assert_eq!(
            lines("git ls-files | while read f; do cat \"$f\"; done"),
            read(false, false)
        );
        assert_eq!(
            lines("while IFS= read -r f; do cat \"$f\"; done < <(git ls-files '*.rs')"),
            read(true, true)
        );
        assert_eq!(
            lines("git ls-files | while read -r f; do echo \"$x\"; wc -l \"$f\"; cat \"$f\"; done"),
            read(true, false)
        );
        for code in [
            // Another way to read, or another input.
            "git ls-files | while read -r f g; do cat \"$f\"; done",
            "git ls-files | while read -d x f; do cat \"$f\"; done",
            "git ls-files | while read -a f; do cat \"$f\"; done",
            "git ls-files | while IFS=: read -r f; do cat \"$f\"; done",
            "git ls-files | while IFS=' ' read -r f; do cat \"$f\"; done",
            "git ls-files | while x= read -r f; do cat \"$f\"; done",
            "while read -r f; do cat \"$f\"; done < <(git ls-files) < x",
            "while read -r f; do cat \"$f\"; done 3< <(git ls-files)",
            "while read -r f; do cat \"$f\"; done < x",
            // The body reads the loop's input itself, or changes the variable.
            "git ls-files | while read -r f; do head -c 1; cat \"$f\"; done",
            "git ls-files | while read -r f; do cat \"$f\"; cat; done",
            "git ls-files | while read -r f; do cat \"$f\" -; done",
            "git ls-files | while read -r f; do cat \"$f\" $(cat); done",
            "git ls-files | while read -r f; do grep -f - \"$f\"; cat \"$f\"; done",
            "git ls-files | while read -r f; do grep -e x \"$f\" /dev/stdin; cat \"$f\"; done",
            "git ls-files | while read -r f; do wc \"$o\" \"$f\"; cat \"$f\"; done",
            "git ls-files | while read -r f; do git log --stdin \"$f\"; cat \"$f\"; done",
            "git ls-files | while read -r f; do git shortlog \"$f\"; cat \"$f\"; done",
            "git ls-files | while read -r f; do xargs wc; cat \"$f\"; done",
            "git ls-files | while read -r f; do f=.env; cat \"$f\"; done",
            // A command before the loop takes part of the input first.
            "git ls-files | { head -c 3; while read -r f; do cat \"$f\"; done; }",
            "git ls-files | { dd bs=1 count=3; while read -r f; do cat \"$f\"; done; }",
            "git ls-files | { read -r -n 3 x; while read -r f; do cat \"$f\"; done; }",
        ] {
            assert_eq!(lines(code), None, "{code}");
        }
    }

    #[test]
    fn read_keeps_only_lines_it_would_not_change() {
        let read = |raw, blanks| crate::shell::LineRead { raw, blanks };
        assert!(read(false, false).keeps("src/a.rs"));
        assert!(!read(false, false).keeps(".e\\nv"));
        assert!(read(true, false).keeps(".e\\nv"));
        assert!(!read(true, false).keeps(" .env"));
        assert!(!read(true, false).keeps(".env\t"));
        assert!(read(true, true).keeps(" .env"));
        assert!(!read(false, true).keeps("a\\"));
    }

    #[test]
    fn every_builtin_that_assigns_variables_rebinds_a_loop_variable_and_cdpath() {
        for (names, _) in crate::programs::table::ASSIGNING {
            for name in *names {
                // A loop's variable named by a builtin that may assign it loses its values.
                let code = format!("for f in a b; do {name} f; cat \"$f\"; done");
                assert!(cat_in(&code).words[1].domain.is_none(), "{code}");
                // `CDPATH` named by one makes a later `cd NAME` searched.
                let code = format!("{name} CDPATH; cd src; cat x");
                assert_eq!(cat_in(&code).cwd, WorkingDir::Unknown, "{code}");
            }
        }
        // A builtin that assigns nothing keeps both.
        let script = lowered("for f in a b; do echo f; cat \"$f\"; done", false).unwrap();
        assert!(script.commands[1].words[1].domain.is_some());
        let script = lowered("echo CDPATH; cd src; cat x", false).unwrap();
        assert_eq!(script.commands[2].cwd, WorkingDir::Dir("src".to_owned()));
    }

    #[test]
    fn a_new_shell_knows_the_values_its_own_code_gives() {
        // The values of `f` in the command `cat "$f"` of `code`, if known.
        // (one plain value makes the word that text).
        let values = |code: &str| {
            let word = &cat_in(code).words[1];
            word.literal()
                .map(|t| vec![t.to_owned()])
                .or_else(|| word.domain.clone().map(|d| d.values))
        };
        assert_eq!(
            values("bash -c 'f=a.txt; cat \"$f\"'"),
            Some(vec!["a.txt".to_owned()])
        );
        assert_eq!(
            values("sh -c 'f=a.txt; test -n x && f=b.txt; cat \"$f\"'"),
            Some(vec!["a.txt".to_owned(), "b.txt".to_owned()])
        );
        // Not the caller's values, nor values the code does not show.
        assert_eq!(values("f=a.txt; bash -c 'cat \"$f\"'"), None);
        assert_eq!(values("bash -c 'f=a.txt; read f; cat \"$f\"'"), None);
        assert_eq!(values("bash -c 'f=a.txt; eval x; cat \"$f\"'"), None);
        assert_eq!(values("bash -c 'f=a.txt; f=$OTHER; cat \"$f\"'"), None);
    }

    /// Words a command may hold: plain ones, reserved ones, wrappers, assignments, and
    /// characters the fast path leaves to the parser.
    const WORDS: &[&str] = &[
        "ls",
        "prog7",
        "build",
        "git",
        "rm",
        "-rf",
        "sudo",
        "env",
        "bash",
        "sh",
        "-c",
        "xargs",
        "cd",
        "/tmp",
        "..",
        ".",
        ":",
        "eval",
        "exec",
        "command",
        "builtin",
        "source",
        "export",
        "declare",
        "local",
        "readonly",
        "alias",
        "unset",
        "nice",
        "timeout",
        "nohup",
        "time",
        "if",
        "then",
        "fi",
        "for",
        "in",
        "do",
        "done",
        "case",
        "esac",
        "while",
        "until",
        "function",
        "select",
        "coproc",
        "!",
        "{",
        "}",
        "[[",
        "a=b",
        "A=1",
        "x=",
        "=x",
        "--x=y",
        "-n5",
        "%1",
        "@",
        "+x",
        "1",
        "2",
        "0",
        "/bin/ls",
        "../a",
        "a,b",
        "-",
        "--",
        "f.txt",
        "src/m7/**",
        "*.rs",
        "a?",
        "~",
        "~/x",
        "$HOME",
        "'q'",
        "\"d\"",
        "a\\b",
        "#c",
        "a#b",
        "x;",
        "a|b",
        "&",
        "(x)",
        "<f",
        ">f",
        "2>f",
        "`id`",
        "$(id)",
        "p=$(id)",
        "[a]",
        "a]",
        "PATH=.",
        "LD_PRELOAD=x",
        "doas",
        "su",
        "-u",
        "root",
        "find",
        "-exec",
        "awk",
        "sed",
        "-i",
        "python3",
        "-m",
        "http.server",
        "node",
        "-e",
        "dd",
        "of=/dev/sda",
        "if=/x",
    ];

    const SEPARATORS: &[&str] = &[" ", "\t", "  ", " \t "];

    fn check(code: &str, fast_taken: &mut usize) {
        if plain_command(code).is_some() {
            *fast_taken += 1;
        }
        assert_eq!(
            lowered(code, true),
            lowered(code, false),
            "the fast path and the parser read {code:?} differently"
        );
    }

    #[test]
    fn a_plain_command_reads_as_the_parser_reads_it() {
        let mut fast_taken = 0;
        let mut n = 0;
        for a in WORDS {
            for edge in ["", " ", "\t"] {
                check(&format!("{edge}{a}{edge}"), &mut fast_taken);
                n += 1;
            }
            for (i, b) in WORDS.iter().enumerate() {
                let sep = SEPARATORS[i % SEPARATORS.len()];
                check(&format!("{a}{sep}{b}"), &mut fast_taken);
                n += 1;
            }
        }
        // Longer commands: a deterministic pseudo-random sample.
        let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = |bound: usize| {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            usize::try_from(state >> 33).unwrap_or(0) % bound
        };
        for _ in 0..20_000 {
            let len = 3 + next(4);
            let mut code = String::new();
            if next(8) == 0 {
                code.push(' ');
            }
            for k in 0..len {
                if k > 0 {
                    code.push_str(SEPARATORS[next(SEPARATORS.len())]);
                }
                code.push_str(WORDS[next(WORDS.len())]);
            }
            check(&code, &mut fast_taken);
            n += 1;
        }
        for code in [
            "prog7 build release",
            "cargo build --release",
            "git status",
            "sudo env bash -c ls",
            "xargs rm",
            "cd src",
            "env A=1 ls",
            "",
            "   ",
            "\t",
        ] {
            check(code, &mut fast_taken);
        }
        assert!(
            fast_taken > n / 10,
            "only {fast_taken} of {n} commands took the fast path"
        );
    }
}
