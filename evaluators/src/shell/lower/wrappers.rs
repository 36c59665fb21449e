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
        if cmd
            .program()
            .is_some_and(|p| self.script.functions.iter().any(|f| f == p))
        {
            self.cwd = WorkingDir::Unknown;
            return;
        }
        let next = match cmd.program() {
            Some("cd" | "pushd") => {
                let target = cmd
                    .args()
                    .iter()
                    .find(|w| w.literal().is_none_or(|t| !t.starts_with('-') || t == "-"));
                match target.map(Word::literal) {
                    None => WorkingDir::Dir("~".to_owned()),
                    Some(Some("-")) | Some(None) => WorkingDir::Unknown,
                    Some(Some(dir)) => join(&self.cwd, dir),
                }
            }
            Some("popd") => WorkingDir::Unknown,
            _ => return,
        };
        self.cwd = next;
    }

    /// Adds what a wrapper runs after it.
    pub(super) fn unwrap(&mut self, index: usize, depth: usize) {
        if depth > MAX_INNER_DEPTH {
            // A limit reached is never a reason to stop looking: the rest is unread.
            let code = self.script.commands[index]
                .words
                .iter()
                .map(|w| w.raw.as_str())
                .collect::<Vec<_>>()
                .join(" ");
            self.script.unreadable.push(crate::shell::Unreadable {
                code,
                error: crate::shell::ShellError::TooDeep,
            });
            return;
        }
        let unwrapping = unwrap(&self.script.commands[index]);
        if unwrapping.inner.is_empty() {
            return;
        }
        let outer = self.script.commands[index].clone();
        self.script.commands[index].wraps = true;
        let elevated = outer.elevated || unwrapping.elevated;
        for inner in unwrapping.inner {
            match inner {
                Inner::Command(mut words, cwd) => {
                    // Words standing for what the wrapper passes (`xargs` input, `find`'s
                    // paths) take their values from its producers.
                    let producers = if outer.program() == Some("find") {
                        vec![index]
                    } else {
                        last_producers(&self.script.commands, &outer.feeds)
                    };
                    // With no producer (`xargs cat` reading the caller's input) or an input
                    // redirected (`xargs cat < list`, `<<< PATH`, a here-document), the words
                    // are only known when it runs.
                    let unknown = outer.program() != Some("find")
                        && (producers.is_empty() || self.stdin_redirected);
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
                    c.cwd = match cwd {
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
                    let saved = std::mem::replace(&mut self.cwd, outer.cwd.clone());
                    let added = self.nested(&code, depth);
                    self.cwd = saved;
                    for c in &mut self.script.commands[added] {
                        c.parent.get_or_insert(index);
                        c.elevated |= elevated;
                        c.feeds.extend(outer.feeds.iter().copied());
                    }
                }
                Inner::DynamicCode => self.script.commands[index].runs_dynamic_code = true,
            }
        }
        // `builtin cd`, `command cd`, `eval cd`: only a plain literal `cd DIR` is followed.
        let moves = self.script.commands[index + 1..]
            .iter()
            .any(|c| matches!(c.program(), Some("cd" | "pushd" | "popd" | "chdir")));
        if moves {
            self.cwd = WorkingDir::Unknown;
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
