//! Calls of the functions a command defines: the body runs with the call's arguments as its
//! positional parameters (`$1`, `"$@"`, `$#`), so it is lowered again at each call with them
//! bound, and what it does with them is judged as if written out (`f() { cat "$1"; }; f .env`
//! reads `.env`).
//!
//! When the body may change its positional parameters (`shift`, `set --`), a positional
//! parameter stands for any of the call's arguments: each is judged where it may be used.

use super::{Lowering, MAX_CALLS};
use crate::shell::{Domain, MAX_INNER_DEPTH, ShellError, SimpleCommand, Unreadable, Word};

/// The positional parameters a word is, when it is exactly one expansion of them.
enum Whole {
    /// `$@`, `$*` (all of them; `quoted`: `"$@"`, or `"$*"` as one word).
    All { quoted: bool, joined: bool },
    /// `$N`, `${N}`.
    One { n: usize, quoted: bool },
    /// `$#`.
    Count,
}

impl Lowering<'_> {
    /// When the command at `index` calls a function the command defined, lowers each
    /// definition of it with the call's arguments bound; a limit reached makes the call
    /// unreadable.
    pub(super) fn call(&mut self, index: usize, depth: usize) {
        let cmd = &self.script.commands[index];
        let Some(name) = cmd.words.first().and_then(Word::literal) else {
            return;
        };
        // A name with a slash is a file, never a function.
        if name.contains('/') {
            return;
        }
        let definitions: Vec<_> = self
            .definitions
            .iter()
            .filter(|(n, _)| n == name)
            .map(|(_, d)| d.clone())
            .collect();
        if definitions.is_empty() {
            return;
        }
        if depth >= MAX_INNER_DEPTH || self.calls >= MAX_CALLS {
            self.script.unreadable.push(Unreadable {
                code: super::wrappers::raw_text(cmd),
                error: ShellError::TooDeep,
            });
            return;
        }
        let args = cmd.args().to_vec();
        let feeds = cmd.feeds.clone();
        for def in definitions {
            self.calls += 1;
            // The body may change its positional parameters: each then stands for any
            // argument.
            let exact = !changes_positional(&def.body.to_string());
            let saved_positional = self.positional.replace(args.clone());
            let saved_exact = std::mem::replace(&mut self.exact, exact);
            let saved_variables = self.variables.take();
            self.variables = saved_variables
                .as_ref()
                .map(|v| v.with_positional(&args, exact, None));
            // The body runs in the shell: its directory is the caller's, and what it assigns
            // is known after the call only where it runs on every path (never assumed here).
            let kept = self.assigned.len();
            self.compound(&def.body.0, depth + 1, &feeds);
            self.redirect_only(def.body.1.as_ref(), depth + 1, &feeds);
            self.assigned.truncate(kept);
            self.positional = saved_positional;
            self.exact = saved_exact;
            self.variables = saved_variables;
        }
    }

    /// `alias NAME=VALUE`: VALUE is code the shell runs in place of NAME later (with
    /// `expand_aliases`, on a later line), so it is lowered as if it ran; a value only known
    /// when it runs is code that was never read.
    pub(super) fn alias(&mut self, index: usize, depth: usize) {
        let cmd = &self.script.commands[index];
        if cmd.program() != Some("alias") {
            return;
        }
        let mut values = Vec::new();
        let mut dynamic = false;
        for w in cmd.args() {
            match w.literal() {
                Some(t) => values.extend(t.split_once('=').map(|(_, v)| v.to_owned())),
                None => dynamic = true,
            }
        }
        self.script.commands[index].runs_dynamic_code |= dynamic;
        for code in values {
            self.nested(&code, depth);
        }
    }

    /// The words a word of a function's body is when it is exactly an expansion of the
    /// positional parameters of the call being lowered (`"$@"` is each argument, `$1` the
    /// first); `None` when it is not one, or they may have changed.
    pub(super) fn positional_words(&self, raw: &str) -> Option<Vec<Word>> {
        let args = self.positional.as_ref().filter(|_| self.exact)?;
        Some(match whole(raw)? {
            Whole::Count => vec![Word::literal_text(args.len().to_string())],
            Whole::One { n, quoted: true } => {
                vec![
                    args.get(n - 1)
                        .cloned()
                        .unwrap_or_else(|| Word::literal_text("")),
                ]
            }
            Whole::One { n, quoted: false } => args.get(n - 1).map(split).unwrap_or_default(),
            Whole::All {
                quoted: true,
                joined: false,
            } => args.clone(),
            Whole::All {
                quoted: true,
                joined: true,
            } => vec![match args.as_slice() {
                [] => Word::literal_text(""),
                [one] => one.clone(),
                more => {
                    let texts: Option<Vec<&str>> = more.iter().map(Word::literal).collect();
                    match texts {
                        Some(t) => Word::literal_text(t.join(" ")),
                        None => Word::dynamic(raw, ""),
                    }
                }
            }],
            Whole::All { quoted: false, .. } => args.iter().flat_map(split).collect(),
        })
    }

    /// The values the positional parameters can take in `for NAME; do` (the loop runs over
    /// them): each argument's, when known.
    pub(super) fn positional_domain(&self) -> Option<Domain> {
        let mut out = Domain::default();
        for w in self.positional.as_ref()? {
            match (w.literal(), &w.domain) {
                (Some(t), _) => out.values.push(t.to_owned()),
                (None, Some(d)) => {
                    out.values.extend(d.values.iter().cloned());
                    out.producers.extend(d.producers.iter().copied());
                }
                (None, None) => return None,
            }
        }
        Some(out)
    }
}

/// The positional parameters of a new shell that runs `code` for the command `outer`, and
/// whether they are exactly known: for a shell given its code with `-c`, the words after the
/// code and the name it takes for `$0` (none known when more are appended when it runs, as
/// `xargs` does), and `$0`. When the code's word is not found, each parameter is any of the
/// command's words.
pub(super) fn shell_arguments(
    outer: &SimpleCommand,
    code: &str,
) -> (Option<Vec<Word>>, bool, Option<Word>) {
    if !outer
        .program()
        .is_some_and(|p| crate::shell::SHELLS.contains(&p))
        || outer.extra_args
    {
        return (None, false, None);
    }
    let args = outer.args();
    match args.iter().position(|w| w.literal() == Some(code)) {
        Some(at) => (
            Some(args.get(at + 2..).unwrap_or_default().to_vec()),
            !changes_positional(code),
            args.get(at + 1).cloned(),
        ),
        None => (Some(args.to_vec()), false, None),
    }
}

/// The words an argument becomes when a body expands it unquoted: a literal value is split on
/// blanks, and a part with a glob expands to the names it matches then.
fn split(arg: &Word) -> Vec<Word> {
    let Some(text) = arg.literal() else {
        return vec![arg.clone()];
    };
    text.split([' ', '\t', '\n'])
        .filter(|p| !p.is_empty())
        .map(|p| {
            if p.contains(['*', '?', '[']) {
                Word::dynamic(p, "").with_domain(Domain {
                    values: vec![p.to_owned()],
                    ..Domain::default()
                })
            } else {
                Word::literal_text(p)
            }
        })
        .collect()
}

/// What a word is when it is exactly one expansion of the positional parameters.
fn whole(raw: &str) -> Option<Whole> {
    let (inner, quoted) = match raw.strip_prefix('"').and_then(|r| r.strip_suffix('"')) {
        Some(inner) => (inner, true),
        None => (raw, false),
    };
    let name = inner.strip_prefix('$')?;
    let name = name
        .strip_prefix('{')
        .and_then(|n| n.strip_suffix('}'))
        .map_or_else(
            || {
                // Unbraced, only one digit is the parameter (`$10` is `$1` and `0`).
                (name.len() == 1).then_some(name)
            },
            Some,
        )?;
    Some(match name {
        "@" => Whole::All {
            quoted,
            joined: false,
        },
        "*" => Whole::All {
            quoted,
            joined: true,
        },
        "#" => Whole::Count,
        n if !n.is_empty() && n.len() <= 4 && n.bytes().all(|b| b.is_ascii_digit()) => {
            let n: usize = n.parse().ok()?;
            if n == 0 {
                return None;
            }
            Whole::One { n, quoted }
        }
        _ => return None,
    })
}

/// Whether code may change its positional parameters: it names `shift` or `set` (both
/// builtins; a word of the code, wherever it stands).
fn changes_positional(code: &str) -> bool {
    code.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
        .any(|w| matches!(w, "shift" | "set"))
}

#[cfg(test)]
mod tests {
    use crate::shell::{Script, parse};

    fn script(code: &str) -> Script {
        parse(code).unwrap_or_else(|e| panic!("{code}: {e}"))
    }

    /// The literal argument lists of the commands running `program`.
    fn runs(code: &str, program: &str) -> Vec<Vec<String>> {
        script(code)
            .commands
            .iter()
            .filter(|c| c.program() == Some(program))
            .map(|c| {
                c.args()
                    .iter()
                    .map(|w| match (w.literal(), &w.domain) {
                        (Some(t), _) => t.to_owned(),
                        (None, Some(d)) => format!("{{{}}}", d.values.join(",")),
                        (None, None) => format!("?{}", w.raw),
                    })
                    .collect()
            })
            .collect()
    }

    fn has(code: &str, program: &str, args: &[&str]) -> bool {
        runs(code, program)
            .iter()
            .any(|a| a.iter().map(String::as_str).eq(args.iter().copied()))
    }

    #[test]
    fn a_call_reads_its_body_with_its_arguments() {
        assert!(has(r#"f() { cat "$@"; }; f .env"#, "cat", &[".env"]));
        assert!(has(r#"f() { cat "$1"; }; f .env"#, "cat", &[".env"]));
        assert!(has(r#"f() { cat $1; }; f .env"#, "cat", &[".env"]));
        assert!(has(r#"f() { cat "${2}"; }; f a .env"#, "cat", &[".env"]));
        assert!(has(
            r#"function f { cat "$@"; }; f a .env"#,
            "cat",
            &["a", ".env"]
        ));
        assert!(has(
            r#"function f() { cat $*; }; f a .env"#,
            "cat",
            &["a", ".env"]
        ));
        assert!(has(r#"f() { cat "$*"; }; f '.env'"#, "cat", &[".env"]));
        assert!(has(
            r#"f() { head -n "$#" "$1"; }; f .env"#,
            "head",
            &["-n", "1", ".env"]
        ));
        // A missing argument is empty, quoted; gone, unquoted.
        assert!(has(r#"f() { cat "$2" x; }; f .env"#, "cat", &["", "x"]));
        assert!(has(r#"f() { cat $2 x; }; f .env"#, "cat", &["x"]));
        // Unquoted, an argument is split and globbed again.
        assert!(has(r#"f() { cat $1; }; f 'a .env'"#, "cat", &["a", ".env"]));
        assert!(has(r#"f() { cat $1; }; f '.e*'"#, "cat", &["{.e*}"]));
        // Each call with its own arguments.
        assert!(has(r#"f() { cat "$1"; }; f a; f .env"#, "cat", &[".env"]));
        assert!(has(r#"f() { cat "$1"; }; f a; f .env"#, "cat", &["a"]));
    }

    #[test]
    fn a_call_is_followed_through_pipes_nesting_and_other_functions() {
        assert!(has(r#"f() { cat "$1"; }; echo | f .env"#, "cat", &[".env"]));
        assert!(has(
            r#"f() { cat "$1"; }; g() { f "$2"; }; g x .env"#,
            "cat",
            &[".env"]
        ));
        // Defined after the function that calls it, before the call.
        assert!(has(
            r#"g() { f "$1"; }; f() { cat "$1"; }; g .env"#,
            "cat",
            &[".env"]
        ));
        assert!(has(r#"f() { cat "$1"; }; x=$(f .env)"#, "cat", &[".env"]));
        assert!(has(
            r#"f() { cat "$1"; }; if true; then f .env; fi"#,
            "cat",
            &[".env"]
        ));
        assert!(has(
            r#"f() { for x in "$@"; do cat "$x"; done; }; f a .env"#,
            "cat",
            &["{a,.env}"]
        ));
        assert!(has(
            r#"f() { for x; do cat "$x"; done; }; f a .env"#,
            "cat",
            &["{a,.env}"]
        ));
        assert!(has(r#"f() { cat "./$1"; }; f .env"#, "cat", &["./.env"]));
        assert!(has(
            r#"f() { cat "${1:-x}"; }; f .env"#,
            "cat",
            &["{.env,x}"]
        ));
        // The caller's loop variable, seen by the body.
        assert!(has(
            r#"f() { cat "$x"; }; for x in .env; do f; done"#,
            "cat",
            &["{.env}"]
        ));
    }

    #[test]
    fn a_body_that_shifts_takes_any_argument_for_each_parameter() {
        let code = r#"f() { shift; cat "$1"; }; f x .env"#;
        assert!(has(code, "cat", &["{x,.env}"]), "{:?}", runs(code, "cat"));
        let code = r#"f() { set -- .env; cat "$1"; }; f x"#;
        assert!(
            runs(code, "cat").iter().any(|a| a[0].contains(".env")),
            "{:?}",
            runs(code, "cat")
        );
    }

    #[test]
    fn recursion_and_fan_out_stop_at_a_limit_that_fails_closed() {
        let s = script("f() { f; }; f");
        assert!(!s.unreadable.is_empty());
        let s = script("f() { f; f; f; f; f; f; f; f; }; f");
        assert!(!s.unreadable.is_empty());
        assert!(s.commands.len() < 10_000);
    }

    #[test]
    fn a_positional_parameter_outside_a_call_is_what_set_gives_it() {
        assert!(has(r#"set -- .env; cat "$1""#, "cat", &[".env"]));
        assert!(has(
            r#"set -- a .env; shift; cat "$1""#,
            "cat",
            &["{a,.env}"]
        ));
        assert!(has(r#"set -- a .env; cat "$@""#, "cat", &["{a,.env}"]));
    }

    #[test]
    fn a_new_shell_has_the_arguments_after_its_code() {
        assert!(has(r#"bash -c 'cat "$1"' _ .env"#, "cat", &[".env"]));
        assert!(has(r#"sh -c 'cat "$@"' sh a .env"#, "cat", &["a", ".env"]));
        assert!(has(r#"sh -c 'cat "$0"' .env"#, "cat", &[".env"]));
        assert!(has(r#"f() { eval 'cat "$1"'; }; f .env"#, "cat", &[".env"]));
        // A new shell does not see the function's parameters.
        assert!(has(r#"f() { sh -c 'cat "$1"'; }; f .env"#, "cat", &[""]));
    }

    #[test]
    fn an_alias_value_is_code_that_runs() {
        assert!(has(
            "shopt -s expand_aliases\nalias c='cat .env'\nc",
            "cat",
            &[".env"]
        ));
        assert!(has("alias a='ls -la' c=\"head .env\"", "head", &[".env"]));
        let s = script(r#"alias c="$x""#);
        assert!(s.commands.iter().any(|c| c.runs_dynamic_code));
    }

    #[test]
    fn command_and_a_path_do_not_call_the_function() {
        // `command f` and `./f` run a program named `f`.
        assert!(!has(
            r#"f() { cat "$1"; }; command f .env"#,
            "cat",
            &[".env"]
        ));
        assert!(!has(r#"f() { cat "$1"; }; ./f .env"#, "cat", &[".env"]));
    }
}
