//! Loops over a few plain values, lowered once per value: in each copy of the body the
//! loop's variable is the value, written into the words that expand it. `for v in node
//! python3; do $v --version; done` runs `node --version`, then `python3 --version`, and
//! each is judged as written (a program, a revision, an option), where one reading of the
//! body only knows the word as "one of these values" and cannot place it.
//!
//! The copies are exact only while the variable holds the value the loop gave it and the
//! value reads the same wherever the word expands it, so a loop is unrolled only when:
//! - every value is plain ([`reads_as_written`]): splitting, globbing, tilde and brace
//!   expansion leave it whole, and unquoted it reads as quoted; and holds no `,` or `..`,
//!   which written into braces (`{$v}`) would read as an expansion the shell never makes;
//! - its body names the variable only to expand it, as `$NAME` or `${NAME}`
//!   ([`expanded_only`]): no assignment, `read NAME`, `${NAME:=…}`, `unset`, nameref or
//!   arithmetic names it (a builtin given a computed name is unmodeled on its own);
//! - the script defines no function ([`defines_function`]): a function called in the body
//!   could assign the variable where the body's text does not show it.
//!
//! Words are rewritten only where the shell expands `$NAME` ([`substitute`]); a word with a
//! command substitution or an ANSI-C quote keeps its expansion, read as before. Copies are
//! bounded per script ([`MAX_COPIES`]); past the bound a loop is lowered once, as before.

use super::super::words::reads_as_written;
use brush_parser::ast;

/// The most values of one loop that are unrolled.
pub(super) const MAX_VALUES: usize = 16;

/// The most copies of loop bodies one reading of a script makes; past it, loops are read
/// once with their variable's domain.
pub(super) const MAX_COPIES: usize = 32;

/// Whether `body` (the text of a loop's body) names `var` only to expand it: every
/// occurrence of the name as a whole identifier follows a `$`, or a `${` and is closed by
/// the `}` right after it.
pub(super) fn expanded_only(body: &str, var: &str) -> bool {
    let b = body.as_bytes();
    let identifier = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let mut i = 0;
    while i < b.len() {
        if !(b[i].is_ascii_alphabetic() || b[i] == b'_') || (i > 0 && identifier(b[i - 1])) {
            i += 1;
            continue;
        }
        let start = i;
        while i < b.len() && identifier(b[i]) {
            i += 1;
        }
        if &body[start..i] != var {
            continue;
        }
        let plain = start >= 1 && b[start - 1] == b'$';
        let braced = start >= 2 && &b[start - 2..start] == b"${" && b.get(i) == Some(&b'}');
        if !(plain || braced) {
            return false;
        }
    }
    true
}

/// Whether `code` may define a function: a `(` followed by `)` (spaces between allowed), or
/// the word `function`. Text that merely holds them (`echo "()"`) counts too.
pub(super) fn defines_function(code: &str) -> bool {
    let b = code.as_bytes();
    let parens = b.iter().enumerate().any(|(i, &c)| {
        c == b'('
            && b[i + 1..]
                .iter()
                .find(|c| !c.is_ascii_whitespace())
                .is_some_and(|&c| c == b')')
    });
    // A scan of the bytes for the keyword first: most commands do not hold it, and the
    // string search sets itself up each time.
    if parens || !b.windows(8).any(|w| w == b"function") {
        return parens;
    }
    code.match_indices("function").any(|(at, w)| {
        let before = code[..at].bytes().next_back();
        let after = code[at + w.len()..].bytes().next();
        let edge = |c: Option<u8>| c.is_none_or(|c| !(c.is_ascii_alphanumeric() || c == b'_'));
        edge(before) && edge(after)
    })
}

/// The values of a `for` loop to lower its body with, one copy each, when the loop may be
/// unrolled (see the module's documentation) within `budget` more copies.
pub(super) fn unrolled(
    var: &str,
    values: Vec<String>,
    body: &ast::DoGroupCommand,
    budget: usize,
) -> Option<Vec<String>> {
    let fits = !values.is_empty() && values.len() <= MAX_VALUES.min(budget);
    // `$_` is the last argument of the command before: the shell changes it every command.
    // A value with `,` or `..` written into braces (`{$v}`) would be a brace expansion the
    // shell never makes: it expands braces before variables.
    let braced = |v: &String| v.contains(',') || v.contains("..");
    if !fits || var == "_" || !values.iter().all(|v| reads_as_written(v) && !braced(v)) {
        return None;
    }
    expanded_only(&body.to_string(), var).then_some(values)
}

/// `raw` (a word as written) with each `$NAME` and `${NAME}` of a name `bound` gives a value
/// (the innermost binding first) replaced by it where the shell expands it: outside single
/// quotes, not escaped. `None` when nothing was replaced, or when the word holds a command
/// or arithmetic substitution, a backquote, or an ANSI-C or locale quote, whose insides
/// follow other quoting: such a word keeps its expansions.
pub(super) fn substitute(raw: &str, bound: &[(String, String)]) -> Option<String> {
    if bound.is_empty() || !raw.contains('$') {
        return None;
    }
    let value = |name: &str| {
        bound
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    };
    let identifier_len = |s: &str| {
        let b = s.as_bytes();
        if b.first()
            .is_none_or(|c| !(c.is_ascii_alphabetic() || *c == b'_'))
        {
            return 0;
        }
        b.iter()
            .take_while(|c| c.is_ascii_alphanumeric() || **c == b'_')
            .count()
    };
    let mut out = String::with_capacity(raw.len());
    let mut changed = false;
    let mut double = false;
    let mut rest = raw;
    while let Some(c) = rest.chars().next() {
        let after = &rest[c.len_utf8()..];
        match c {
            '\\' => {
                // The escaped character is taken as it is.
                let next = after.chars().next().map_or(0, char::len_utf8);
                out.push_str(&rest[..1 + next]);
                rest = &after[next..];
            }
            '\'' if !double => {
                let end = after.find('\'')?;
                out.push_str(&rest[..end + 2]);
                rest = &after[end + 1..];
            }
            '"' => {
                double = !double;
                out.push(c);
                rest = after;
            }
            '`' => return None,
            '$' => {
                if after.starts_with(['(', '\'', '"', '[']) {
                    return None;
                }
                // `$$`, `$#`, `$1`, …: a special parameter and what follows it.
                if let Some(s) = after
                    .chars()
                    .next()
                    .filter(|s| "$#?!-@*0123456789".contains(*s))
                {
                    out.push('$');
                    out.push(s);
                    rest = &after[s.len_utf8()..];
                    continue;
                }
                let (name, used) = match after.strip_prefix('{') {
                    Some(inner) => {
                        let n = identifier_len(inner);
                        if n > 0 && inner[n..].starts_with('}') {
                            (&inner[..n], n + 2)
                        } else {
                            ("", 0)
                        }
                    }
                    None => {
                        let n = identifier_len(after);
                        (&after[..n], n)
                    }
                };
                match value(name).filter(|_| used > 0) {
                    Some(v) => {
                        out.push_str(v);
                        changed = true;
                        rest = &after[used..];
                    }
                    None => {
                        out.push('$');
                        rest = after;
                    }
                }
            }
            _ => {
                out.push(c);
                rest = after;
            }
        }
    }
    changed.then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bound(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(n, v)| ((*n).to_owned(), (*v).to_owned()))
            .collect()
    }

    #[test]
    fn values_are_written_only_where_the_shell_expands_them() {
        let b = bound(&[("v", "node"), ("w", "main"), ("v", "inner")]);
        let cases = [
            ("$v", Some("inner")),
            ("\"$v\"", Some("\"inner\"")),
            ("${v}x", Some("innerx")),
            ("\"${w}p\"", Some("\"mainp\"")),
            ("--format=\"$w %cd\"", Some("--format=\"main %cd\"")),
            ("'$v'\"$v\"", Some("'$v'\"inner\"")),
            ("\\$v$w", Some("\\$vmain")),
            ("\\\\$w", Some("\\\\main")),
            ("$$w", Some("$$w")),
            ("$1$w", Some("$1main")),
            ("$vx", None),
            ("${v:-x}", None),
            ("${#v}", None),
            ("$other", None),
            ("plain", None),
            ("$(echo $v)", None),
            ("\"$(echo '$v')\"", None),
            ("`echo $v`", None),
            ("$'$v'", None),
            ("$((v+1))", None),
            ("'unterminated $v", None),
        ];
        for (raw, want) in cases {
            // `$$w` is the shell's process id and a literal `w`: nothing to replace.
            let want = want.filter(|w| *w != raw);
            assert_eq!(substitute(raw, &b).as_deref(), want, "{raw}");
        }
        assert_eq!(substitute("$v", &[]), None);
    }

    #[test]
    fn a_body_that_names_the_variable_other_than_to_expand_it_is_not_unrolled() {
        for body in [
            "echo $v; git log -1 ${v}",
            "printf '%s' \"$v\"; command -V $v",
            "echo $vv $v_x ${v}",
        ] {
            assert!(expanded_only(body, "v"), "{body}");
        }
        for body in [
            "v=rm; $v",
            "read v; $v",
            "echo ${v:=rm}",
            "echo ${v=rm}",
            "unset v",
            "declare -n r=v",
            "(( v++ ))",
            "echo $((v+1))",
            "for v in a; do :; done",
            "eval 'v=rm'",
            "[[ -v v ]]",
            "echo ${!v}",
            "export v",
            "printf -v v x",
        ] {
            assert!(!expanded_only(body, "v"), "{body}");
        }
    }

    #[test]
    fn function_definitions_are_found_in_any_form() {
        for code in [
            "f() { :; }",
            "f ( ) { :; }",
            "function f { :; }",
            "x; function f() { :; }",
            "echo '()'",
        ] {
            assert!(defines_function(code), "{code}");
        }
        for code in [
            "for v in a b; do $v; done",
            "echo $(date)",
            "functions",
            "my_function_x",
        ] {
            assert!(!defines_function(code), "{code}");
        }
    }

    /// The words of every command `code` lowers to, as written after lowering.
    fn commands(code: &str) -> Vec<Vec<String>> {
        crate::shell::parse(code)
            .unwrap()
            .commands
            .iter()
            .map(|c| c.words.iter().map(|w| w.raw.clone()).collect())
            .collect()
    }

    #[test]
    fn a_loop_over_plain_values_is_lowered_once_per_value() {
        assert_eq!(
            commands("for v in node python3; do $v --version; done"),
            [["node", "--version"], ["python3", "--version"]]
        );
        // Nested loops: every pair, the inner value innermost.
        assert_eq!(
            commands("for a in x y; do for b in 1 2; do echo $a$b; done; done"),
            [
                ["echo", "x1"],
                ["echo", "x2"],
                ["echo", "y1"],
                ["echo", "y2"]
            ]
        );
        // What the copy's value makes of a wrapper or a new shell is lowered as written.
        let script = crate::shell::parse("for v in env; do $v rm -rf x; done").unwrap();
        assert!(script.commands.iter().any(|c| c.program() == Some("rm")));
    }

    #[test]
    fn a_loop_is_lowered_once_when_a_copy_could_differ_from_what_runs() {
        for code in [
            // The body assigns the variable, or a function it calls may.
            "for v in ls; do v=rm; $v -rf x; done",
            "g() { v=rm; }; for v in ls; do g; $v -rf x; done",
            "for v in ls; do g; $v -rf x; done; function g { :; }",
            // Values that split, glob or expand differently unquoted.
            "for v in 'ls -la'; do $v x; done",
            "for v in l*; do $v x; done",
            "for v in \"\"; do $v x; done",
            // Values only known when it runs.
            "for v in $X ls; do $v x; done",
        ] {
            let words = commands(code);
            assert!(
                words
                    .iter()
                    .any(|w| w.first().is_some_and(|p| p.starts_with('$'))),
                "{code}: {words:?}"
            );
        }
        // More values than one loop or one script unrolls.
        let many: Vec<String> = (0..=MAX_VALUES).map(|i| format!("p{i}")).collect();
        let code = format!("for v in {}; do $v; done", many.join(" "));
        assert_eq!(commands(&code), [["$v"]]);
        let loops = "for v in a b c d e f g h; do $v; done; ".repeat(5);
        let words = commands(&loops);
        assert_eq!(words.len(), MAX_COPIES + 1);
        assert_eq!(words.last().unwrap(), &["$v"]);
    }
}
