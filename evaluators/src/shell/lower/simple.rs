//! Simple commands: their words, assignments, redirections and substitutions.

use brush_parser::ast::{
    self, CommandPrefixOrSuffixItem, IoFileRedirectKind, IoFileRedirectTarget, IoRedirect,
};

use super::Lowering;
use crate::programs::Assigns;
use crate::shell::words::{LoweredWord, heredoc_substitutions, lower};
use crate::shell::{Domain, Redirect, RedirectKind, ShellError, SimpleCommand, Unreadable, Word};

/// What a simple command is made of, gathered item by item.
#[derive(Default)]
pub(super) struct Parts {
    words: Vec<Word>,
    redirects: Vec<Redirect>,
    feeds: Vec<usize>,
    assignments: Vec<String>,
    values: Vec<Option<String>>,
    /// Names assigned with `+=`: they append to the environment's value, and stay its.
    appended: Vec<String>,
    /// Glob patterns in assigned values ([`crate::shell::SimpleCommand::assigned_globs`]).
    globs: Vec<String>,
}

impl Lowering<'_> {
    pub(super) fn simple(&mut self, simple: &ast::SimpleCommand, depth: usize, pipe: &[usize]) {
        let mut parts = Parts {
            feeds: pipe.to_vec(),
            ..Parts::default()
        };
        for item in simple.prefix.iter().flat_map(|p| p.0.iter()) {
            self.item(item, depth, false, &mut parts);
        }
        if let Some(name) = &simple.word_or_name {
            self.words_into(&name.value, depth, &mut parts.words, &mut parts.feeds);
        }
        for item in simple.suffix.iter().flat_map(|s| s.0.iter()) {
            self.item(item, depth, true, &mut parts);
        }
        let index = self.push(parts.words, parts.redirects, parts.feeds);
        self.script.commands[index].assignments = parts.assignments;
        self.script.commands[index].assignment_values = parts.values;
        self.script.commands[index].assigned_globs = parts.globs;
        // `exec` with redirections alone rewires the shell's own input and output for all
        // that runs after it: a shell that reads its commands from its input (an agent's
        // shell that lives on) runs what it is given (`exec <<< 'touch x'`).
        let redirects = simple
            .prefix
            .iter()
            .flat_map(|p| p.0.iter())
            .chain(simple.suffix.iter().flat_map(|s| s.0.iter()))
            .any(|item| matches!(item, CommandPrefixOrSuffixItem::IoRedirect(_)));
        let command = &self.script.commands[index];
        if command.program() == Some("exec") && command.args().is_empty() && redirects {
            self.script.unreadable.push(Unreadable {
                code: "exec".to_owned(),
                error: ShellError::Unsettled(
                    "`exec` with redirections alone rewires the shell's own input or output for all that runs after it"
                        .to_owned(),
                ),
            });
        }
        self.call(index, depth);
        self.alias(index, depth);
        self.track_cwd(index);
        self.note_assigned(index, &parts.appended);
        // A wrapper whose input is redirected (`xargs cat <<< x`, `bash -c 'xargs cat' < f`)
        // passes on what it reads from there, not what a pipe before it prints.
        let redirected = simple
            .prefix
            .iter()
            .flat_map(|p| p.0.iter())
            .chain(simple.suffix.iter().flat_map(|s| s.0.iter()))
            .any(|item| {
                matches!(
                    item,
                    CommandPrefixOrSuffixItem::IoRedirect(r) if super::reads_input(r)
                )
            });
        let saved = self.stdin_redirected;
        self.stdin_redirected |= redirected;
        self.unwrap(index, depth);
        self.stdin_redirected = saved;
    }

    /// Reads one item; `argument` for items after the program name, where `x=y` is a word.
    pub(super) fn item(
        &mut self,
        item: &CommandPrefixOrSuffixItem,
        depth: usize,
        argument: bool,
        parts: &mut Parts,
    ) {
        let Parts {
            words,
            redirects,
            feeds,
            assignments,
            values,
            appended,
            globs,
        } = parts;
        match item {
            CommandPrefixOrSuffixItem::IoRedirect(r) => {
                if let Some(r) = self.redirect(r, depth, feeds) {
                    redirects.push(r);
                }
            }
            CommandPrefixOrSuffixItem::Word(w) => self.words_into(&w.value, depth, words, feeds),
            CommandPrefixOrSuffixItem::AssignmentWord(_, word) if argument => {
                words.push(self.word(&word.value, depth, feeds));
            }
            CommandPrefixOrSuffixItem::AssignmentWord(assignment, _) => {
                let variable = match &assignment.name {
                    ast::AssignmentName::VariableName(name)
                    | ast::AssignmentName::ArrayElementName(name, _) => name.clone(),
                };
                match &assignment.name {
                    ast::AssignmentName::VariableName(name) => {
                        if assignment.append {
                            appended.push(name.clone());
                        }
                        assignments.push(name.clone());
                    }
                    ast::AssignmentName::ArrayElementName(name, index) => {
                        // The subscript is an arithmetic expression: `a[$(cmd)]=1` runs `cmd`.
                        if !index.chars().all(|c| c.is_ascii_digit()) {
                            self.script.unreadable.push(Unreadable {
                                code: format!("{name}[{index}]"),
                                error: ShellError::EvaluatesCode(format!("{name}[{index}]")),
                            });
                        }
                        assignments.push(format!("{name}[]"));
                    }
                }
                let texts: Vec<&str> = match &assignment.value {
                    ast::AssignmentValue::Scalar(w) => vec![w.value.as_str()],
                    ast::AssignmentValue::Array(items) => {
                        items.iter().map(|(_, v)| v.value.as_str()).collect()
                    }
                };
                globs.extend(
                    texts
                        .into_iter()
                        .filter(|t| t.contains(['*', '?', '[']))
                        .map(|t| t.replace(['\'', '"'], "")),
                );
                // `f+=x` makes a value of the environment's and more.
                let append = assignment.append
                    && matches!(assignment.value, ast::AssignmentValue::Scalar(_));
                values.push(self.assignment_value(
                    &variable,
                    append,
                    &assignment.value,
                    depth,
                    feeds,
                ));
            }
            CommandPrefixOrSuffixItem::ProcessSubstitution(kind, sub) => {
                self.process_substitution(kind, sub, depth, feeds);
                // The command reads or writes a pipe, `/dev/fd/N`.
                words.push(Word::dynamic("<(…)", "").with_domain(Domain {
                    values: vec!["/dev/fd/63".to_owned()],
                    ..Domain::default()
                }));
            }
        }
    }

    /// Substitutions in an assigned value still run; the value, when literal.
    /// The value is noted among the places the script assigns `name` (each element of an
    /// array is one of its values).
    fn assignment_value(
        &mut self,
        name: &str,
        append: bool,
        value: &ast::AssignmentValue,
        depth: usize,
        feeds: &mut Vec<usize>,
    ) -> Option<String> {
        use super::variables::Site;
        match value {
            ast::AssignmentValue::Scalar(w) => {
                let word = self.word(&w.value, depth, feeds);
                let literal = word.literal().map(str::to_owned);
                let site = if append {
                    Site::Unknown
                } else {
                    Site::Word(word)
                };
                self.sites.add(name, site);
                literal
            }
            ast::AssignmentValue::Array(items) => {
                if items.is_empty() {
                    self.sites.add(name, Site::Word(Word::literal_text("")));
                }
                for (k, v) in items {
                    if let Some(k) = k {
                        // `a=([KEY]=v)`: the key, expanded, is an arithmetic expression (of an
                        // indexed array), which runs a `$(cmd)` its text or a variable holds.
                        if !k.value.chars().all(|c| c.is_ascii_digit()) {
                            self.script.unreadable.push(Unreadable {
                                code: format!("{name}=([{}]=…)", k.value),
                                error: ShellError::EvaluatesCode(format!("[{}]", k.value)),
                            });
                        }
                        self.word(&k.value, depth, feeds);
                    }
                    let word = self.word(&v.value, depth, feeds);
                    self.sites.add(name, Site::Word(word));
                }
                None
            }
        }
    }

    pub(super) fn redirect(
        &mut self,
        r: &IoRedirect,
        depth: usize,
        feeds: &mut Vec<usize>,
    ) -> Option<Redirect> {
        let (kind, target) = match r {
            IoRedirect::File(_, kind, target) => {
                let kind = match kind {
                    IoFileRedirectKind::Read => RedirectKind::Read,
                    IoFileRedirectKind::Write
                    | IoFileRedirectKind::Append
                    | IoFileRedirectKind::ReadAndWrite
                    | IoFileRedirectKind::Clobber => RedirectKind::Write,
                    IoFileRedirectKind::DuplicateInput | IoFileRedirectKind::DuplicateOutput => {
                        return self.duplicate(target, depth, feeds);
                    }
                };
                match target {
                    IoFileRedirectTarget::Filename(w) => (kind, w),
                    IoFileRedirectTarget::Fd(_) => return None,
                    IoFileRedirectTarget::ProcessSubstitution(kind, sub) => {
                        self.process_substitution(kind, sub, depth, feeds);
                        return None;
                    }
                    IoFileRedirectTarget::Duplicate(w) => (kind, w),
                }
            }
            IoRedirect::OutputAndError(w, _) => (RedirectKind::Write, w),
            IoRedirect::HereDocument(_, doc) => {
                if doc.requires_expansion {
                    self.heredoc(&doc.doc.value, depth, feeds);
                }
                return None;
            }
            IoRedirect::HereString(_, w) => {
                {
                    self.word(&w.value, depth, feeds);
                };
                return None;
            }
        };
        let target = self.word(&target.value, depth, feeds);
        Some(Redirect { kind, target })
    }

    /// `>&2` duplicates a descriptor; `>& file` (a word that is not a number or `-`) writes.
    pub(super) fn duplicate(
        &mut self,
        target: &IoFileRedirectTarget,
        depth: usize,
        feeds: &mut Vec<usize>,
    ) -> Option<Redirect> {
        let (IoFileRedirectTarget::Duplicate(w) | IoFileRedirectTarget::Filename(w)) = target
        else {
            return None;
        };
        let word = self.word(&w.value, depth, feeds);
        let is_fd = word
            .literal()
            .is_some_and(|t| t.trim_end_matches('-').chars().all(|c| c.is_ascii_digit()));
        (!is_fd).then_some(Redirect {
            kind: RedirectKind::Write,
            target: word,
        })
    }

    pub(super) fn redirect_only(
        &mut self,
        redirects: Option<&ast::RedirectList>,
        depth: usize,
        pipe: &[usize],
    ) {
        let Some(list) = redirects else { return };
        let mut feeds = pipe.to_vec();
        let found: Vec<Redirect> = list
            .0
            .iter()
            .filter_map(|r| self.redirect(r, depth, &mut feeds))
            .collect();
        if !found.is_empty() {
            self.push(Vec::new(), found, feeds);
        }
    }

    /// Reads a word of a command into `words`: the call's arguments when it is exactly an
    /// expansion of a function's positional parameters (`"$@"` may be none or several).
    fn words_into(
        &mut self,
        raw: &str,
        depth: usize,
        words: &mut Vec<Word>,
        feeds: &mut Vec<usize>,
    ) {
        match self.positional_words(raw) {
            Some(found) => words.extend(found),
            None => words.push(self.word(raw, depth, feeds)),
        }
    }

    /// Reads a word; the commands of its substitutions are lowered and feed the caller.
    pub(super) fn word(&mut self, raw: &str, depth: usize, feeds: &mut Vec<usize>) -> Word {
        // In a copy of an unrolled loop's body, its variable is the copy's value.
        let written = super::unroll::substitute(raw, &self.bound);
        let raw = written.as_deref().unwrap_or(raw);
        match lower(raw) {
            Ok(LoweredWord {
                mut word,
                substitutions,
                code,
                environment,
            }) => {
                self.environment_reads(raw, &environment);
                let whole = whole_substitution(raw);
                for code in substitutions {
                    let added = self.nested(&code, depth);
                    if whole {
                        word.domain = Some(Domain {
                            producers: output_commands(&self.script.commands, added.clone()),
                            ..Domain::default()
                        });
                    }
                    feeds.extend(added);
                }
                if let Some(var) = loop_variable(raw)
                    && let Some((_, d)) = self.loops.iter().rev().find(|(v, _)| v == var)
                {
                    word.domain = Some(d.clone());
                }
                // A word made of the script's own variables is one of the values they give it.
                if word.literal().is_none()
                    && word.domain.is_none()
                    && let Some(known) = &self.variables
                {
                    word.domain = known.word(raw, 0, self.cwd != crate::shell::WorkingDir::Unknown);
                    // One plain value (`b=main; git log "$b"..feat`): every check reads the
                    // word as that text, as it reads a revision git prints.
                    if let Some(value) = word
                        .domain
                        .as_ref()
                        .and_then(|d| single_plain_value(raw, d))
                    {
                        word = Word::read_as(raw, &value);
                    }
                }
                // `~` and `$HOME` once the script may have given `HOME` its own value.
                if self.home && (raw.contains('~') || raw.contains("HOME")) {
                    word = Word::dynamic(raw, "");
                }
                self.sites.defaults_in(raw);
                for c in code {
                    if self.own_values_only(&c) {
                        continue;
                    }
                    // `${ cmd; }` runs `cmd` in the current shell: besides being unreadable as
                    // a word, its commands are judged (a hard deny inside stays one).
                    if crate::shell::words::invalid_parameter(&c)
                        && let Some(body) = c.strip_prefix("${").and_then(|b| b.strip_suffix('}'))
                    {
                        let body = body.strip_prefix('|').unwrap_or(body);
                        let added = self.nested(body, depth);
                        feeds.extend(added);
                    }
                    self.script.unreadable.push(Unreadable {
                        code: raw.to_owned(),
                        error: ShellError::EvaluatesCode(c),
                    });
                }
                for part in super::unmodeled::word_parts(raw) {
                    self.script.unreadable.push(Unreadable {
                        code: raw.to_owned(),
                        error: ShellError::Unmodeled(part),
                    });
                }
                word
            }
            Err(e) => {
                self.script.unreadable.push(Unreadable {
                    code: raw.to_owned(),
                    error: ShellError::Syntax(e),
                });
                Word::dynamic(raw, "")
            }
        }
    }

    /// Whether the variable `name` holds the script's own value wherever it is read now:
    /// assigned on every path before (not the environment's), or bound by a loop or as an
    /// arithmetic loop's counter.
    fn own_variable(&self, name: &str) -> bool {
        self.assigned.iter().any(|a| a == name)
            || self.counters.iter().any(|a| a == name)
            || self.loops.iter().any(|(a, _)| a == name)
    }

    /// Whether an expansion a word evaluates as code or from the environment only reads
    /// values the script gave: `$NAME` of a variable of the script's own
    /// ([`Self::own_variable`]; `export NO_COLOR=1; echo $NO_COLOR`), or `$((EXPR))` whose
    /// every name is such a variable whose every value is a number (`i=0; i=$((i+1))`), so
    /// that evaluating it runs nothing and reads no secret.
    fn own_values_only(&self, code: &str) -> bool {
        if let Some(name) = code.strip_prefix('$')
            && crate::programs::is_identifier(name)
        {
            return self.own_variable(name);
        }
        let Some(expr) = code.strip_prefix("$((").and_then(|r| r.strip_suffix("))")) else {
            return false;
        };
        let Some(known) = &self.variables else {
            return false;
        };
        // Numbers, names and operators only: no expansion, subscript, quote or base.
        if !expr
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || " \t_+-*/%()<>=!&|^~?:,".contains(c))
        {
            return false;
        }
        let mut rest = expr;
        while let Some(start) = rest.find(|c: char| c.is_ascii_alphanumeric() || c == '_') {
            let tail = &rest[start..];
            let end = tail
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(tail.len());
            let token = &tail[..end];
            // A number (`10`, `0x1f` — a constant whatever its letters).
            let number = token.starts_with(|c: char| c.is_ascii_digit());
            if !(number || self.own_variable(token) && known.numeric(token)) {
                return false;
            }
            rest = &tail[end..];
        }
        true
    }

    /// Expansions in `raw` of variables with a lower-case letter the script did not assign
    /// before (nor bind as a loop's variable or counter) read the environment, whose values
    /// are not known to be public: each is code evaluated from the environment.
    fn environment_reads(&mut self, raw: &str, names: &[String]) {
        for name in names {
            if !self.own_variable(name) {
                self.script.unreadable.push(Unreadable {
                    code: raw.to_owned(),
                    error: ShellError::EvaluatesCode(format!("${name}")),
                });
            }
        }
    }

    /// Notes the variables the command at `index` assigns in the shell itself: a bare
    /// assignment's (`x=1`, not `x+=1`, which appends to the environment's value, named in
    /// `appended`), the names `declare`, `local`, `export`, `readonly` and `typeset` give a
    /// value (`declare x` keeps the environment's), and those `read`, `mapfile`,
    /// `readarray`, `getopts` and `printf -v` set. Where the assignment counts is the
    /// lowering's: assignments in code that may not run (a branch, a loop's body, after
    /// `&&`/`||`, a function's body) or runs in a subshell (`( … )`, `$( … )`, a part of a
    /// pipeline, a background job) are forgotten after it.
    fn note_assigned(&mut self, index: usize, appended: &[String]) {
        let cmd = &self.script.commands[index];
        let identifier = |t: &str| {
            let name = t.split(['=', '[']).next().unwrap_or_default();
            let name = name.strip_suffix('+').unwrap_or(name);
            (!name.is_empty()
                && !name.starts_with(|c: char| c.is_ascii_digit())
                && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
            .then(|| name.to_owned())
        };
        let mut names = Vec::new();
        let args: Vec<Option<&str>> = cmd.args().iter().map(Word::literal).collect();
        match cmd.program() {
            None if cmd.words.is_empty() => names.extend(
                cmd.assignments
                    .iter()
                    .filter(|a| !appended.contains(a))
                    .cloned(),
            ),
            Some(p) if crate::programs::assigns_variables(p) == Some(Assigns::Declares) => names
                .extend(
                    args.iter()
                        .flatten()
                        .filter(|t| !t.starts_with(['-', '+']))
                        .filter(|t| {
                            t.contains('=')
                                && !t.split('=').next().is_some_and(|n| n.ends_with('+'))
                        })
                        .filter_map(|t| identifier(t)),
                ),
            // Options taking a value (`-p PROMPT`, `-d DELIM`, …; the table's) are skipped;
            // `-a NAME` names an array it sets.
            Some(p @ ("read" | "mapfile" | "readarray")) => {
                let mut i = 0;
                while let Some(arg) = args.get(i) {
                    i += 1;
                    let Some(t) = arg else { continue };
                    if t.len() > 1 && t.starts_with('-') {
                        for (at, c) in t[1..].char_indices() {
                            if crate::programs::takes_value(p, c) {
                                let rest = &t[1 + at + c.len_utf8()..];
                                let value = if rest.is_empty() {
                                    i += 1;
                                    args.get(i - 1).copied().flatten()
                                } else {
                                    Some(rest)
                                };
                                if c == 'a' && p == "read" {
                                    names.extend(value.and_then(identifier));
                                }
                                break;
                            }
                        }
                        continue;
                    }
                    names.extend(identifier(t));
                }
            }
            Some("getopts") => names.extend(args.get(1).copied().flatten().and_then(identifier)),
            Some("printf") => {
                if let Some(at) = args.iter().position(|a| *a == Some("-v")) {
                    names.extend(args.get(at + 1).copied().flatten().and_then(identifier));
                }
            }
            _ => {}
        }
        self.assigned.extend(names);
    }

    /// `<(cmd)` feeds the command its output; `>(cmd)` reads the command's output, so it is
    /// fed by the command once that is pushed.
    pub(super) fn process_substitution(
        &mut self,
        kind: &ast::ProcessSubstitutionKind,
        sub: &ast::SubshellCommand,
        depth: usize,
        feeds: &mut Vec<usize>,
    ) {
        let start = self.script.commands.len();
        let cwd = self.cwd.clone();
        let readers = std::mem::take(&mut self.readers);
        self.list(&sub.list, depth, &[]);
        self.cwd = cwd;
        self.readers = readers;
        let added = start..self.script.commands.len();
        // Nothing waits for a process substitution: one that does not end by itself keeps
        // running after the command ends (`echo <(sleep 100)`, `ls > >(tail -f log)`).
        if let Some(cmd) = self.script.commands[added.clone()]
            .iter()
            .find(|c| never_ends(c))
        {
            self.script.unreadable.push(Unreadable {
                code: super::wrappers::raw_text(cmd),
                error: ShellError::Unsettled(
                    "a process substitution nothing waits for may keep running after the command ends"
                        .to_owned(),
                ),
            });
        }
        match kind {
            ast::ProcessSubstitutionKind::Read => feeds.extend(added),
            ast::ProcessSubstitutionKind::Write => self.readers.extend(added),
        }
    }

    pub(super) fn heredoc(&mut self, body: &str, depth: usize, feeds: &mut Vec<usize>) {
        match heredoc_substitutions(body) {
            Ok((codes, environment)) => {
                self.environment_reads(body, &environment);
                for code in codes {
                    feeds.extend(self.nested(&code, depth));
                }
            }
            Err(e) => self.script.unreadable.push(Unreadable {
                code: body.to_owned(),
                error: ShellError::Syntax(e),
            }),
        }
    }

    pub(super) fn push(
        &mut self,
        words: Vec<Word>,
        redirects: Vec<Redirect>,
        feeds: Vec<usize>,
    ) -> usize {
        self.script.commands.push(SimpleCommand {
            words,
            redirects,
            cwd: self.cwd.clone(),
            feeds,
            ..SimpleCommand::default()
        });
        let index = self.script.commands.len() - 1;
        for reader in std::mem::take(&mut self.readers) {
            self.script.commands[reader].feeds.push(index);
        }
        self.script.commands.len() - 1
    }
}

/// The one value a word made of the script's own variables can take, when it is plain text
/// (letters, digits, `. / _ - + , : @ % = ^`, `~` past the start), comes from no command's
/// output and no value the shell gives itself (`$$`, `$RANDOM`, `$PWD`: the domain stands
/// for all of them).
fn single_plain_value(raw: &str, domain: &Domain) -> Option<String> {
    let [value] = domain.values.as_slice() else {
        return None;
    };
    let plain = |c: char| c.is_ascii_alphanumeric() || "./_-+,:@%=^~".contains(c);
    let shells = raw.contains("$$")
        || raw.contains("PWD")
        || super::variables::NUMERIC.iter().any(|n| raw.contains(n));
    let home = value.starts_with('~');
    (domain.producers.is_empty()
        && !shells
        && !home
        && !value.is_empty()
        && value.chars().all(plain))
    .then(|| value.clone())
}

/// Whether a word is exactly one command substitution (`$(cmd)`, `"$(cmd)"`, `` `cmd` ``).
pub(super) fn whole_substitution(raw: &str) -> bool {
    let inner = raw
        .strip_prefix('"')
        .and_then(|r| r.strip_suffix('"'))
        .unwrap_or(raw);
    let body = inner
        .strip_prefix("$(")
        .and_then(|r| r.strip_suffix(')'))
        .or_else(|| inner.strip_prefix('`').and_then(|r| r.strip_suffix('`')));
    // One substitution: no other `$(` or backquote opens after the first.
    body.is_some_and(|b| !b.contains("$(") && !b.contains('`') && !b.starts_with('('))
}

/// The loop variable a word is exactly (`$f`, `"$f"`, `${f}`, `"${f}"`), if it is one.
pub(super) fn loop_variable(raw: &str) -> Option<&str> {
    let inner = raw
        .strip_prefix('"')
        .and_then(|r| r.strip_suffix('"'))
        .unwrap_or(raw);
    let name = inner.strip_prefix('$')?;
    let name = name
        .strip_prefix('{')
        .and_then(|n| n.strip_suffix('}'))
        .unwrap_or(name);
    let ok = !name.is_empty()
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !name.starts_with(|c: char| c.is_ascii_digit());
    ok.then_some(name)
}

/// The commands among `range` whose output leaves it: those no other command of the range
/// reads from, wrappers excepted (what they run produces the output).
pub(super) fn output_commands(
    commands: &[SimpleCommand],
    range: std::ops::Range<usize>,
) -> Vec<usize> {
    range
        .clone()
        .filter(|&i| {
            !commands[i].wraps && !commands[range.clone()].iter().any(|c| c.feeds.contains(&i))
        })
        .collect()
}

/// Whether a command may run without end by itself: `sleep`, `yes`, `watch`, and a `tail`
/// that follows its files.
fn never_ends(cmd: &SimpleCommand) -> bool {
    match cmd.program() {
        Some("sleep" | "yes" | "watch") => true,
        Some("tail") => cmd.args().iter().any(|w| {
            w.literal().is_none_or(|t| {
                t.starts_with("--f")
                    || (t.starts_with('-') && !t.starts_with("--") && t.contains(['f', 'F']))
            })
        }),
        _ => false,
    }
}
