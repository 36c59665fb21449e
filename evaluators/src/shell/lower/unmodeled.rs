//! Parts of a word, or of a command, to which bash gives a meaning the policy does not model:
//! they make the command unmodeled (open), never allowed.
//!
//! - Bracket expressions the glob matcher cannot read: equivalence classes `[[=c=]]`,
//!   collating symbols `[[.c.]]`, character classes `[[:alpha:]]` and backslash escapes
//!   inside brackets (`[n\]]`).
//! - Extended globs (`?(…)`, `*(…)`, `+(…)`, `@(…)`, `!(…)`), which match names when `extglob`
//!   is on.
//! - Expansions that assign (`${NAME:=value}`, `${NAME=value}`) a variable that may steer
//!   what programs run, read or load.
//! - A named descriptor (`{NAME}<file`), which assigns the descriptor's number to `NAME`.

use crate::programs::{harmless_shell_assignment, is_identifier as identifier};

/// What in the word `raw` bash reads in a way that is not modelled, each part quoted for a
/// reason.
pub(super) fn word_parts(raw: &str) -> Vec<String> {
    let mut out = Vec::new();
    if raw.is_empty() || !raw.contains(['[', '(', '{']) {
        return out;
    }
    if let Some(part) = glob_part(raw) {
        out.push(part);
    }
    if let Some(name) = assigning_expansion(raw) {
        out.push(format!("${{{name}=…}} (assigns {name})"));
    }
    if let Some(name) = named_descriptor(raw)
        && (name.contains('[') || !harmless_shell_assignment(name, None))
    {
        out.push(format!("{{{name}}} (a named descriptor assigns {name})"));
    }
    out
}

/// The variable a loop (`for NAME in …`) or a named descriptor binds, when binding it may
/// steer what programs run, read or load (`IFS`, `PATH`, `HOME`, …).
pub(super) fn steering_binding(name: &str) -> Option<String> {
    (!harmless_shell_assignment(name, None)).then(|| format!("for {name} in … (assigns {name})"))
}

/// The counters of an arithmetic `for ((INIT; COND; STEP))` that evaluates no text: `INIT`
/// sets each counter to a number (`i=0, j=10`), and `COND` and `STEP` name no other variable
/// and hold no expansion. `None` when the loop is not of that form.
pub(super) fn counters(init: &str, cond: &str, step: &str) -> Option<Vec<String>> {
    let mut names = Vec::new();
    for part in init.split(',') {
        let (name, value) = part.split_once('=')?;
        let (name, value) = (name.trim(), value.trim());
        let number = !value.is_empty() && value.chars().all(|c| c.is_ascii_digit());
        if !number || !harmless_shell_assignment(name, Some(value)) || !identifier(name) {
            return None;
        }
        names.push(name.to_owned());
    }
    let plain = |text: &str| {
        !text.contains(['$', '`', '[', '\\', '\'', '"'])
            && text
                .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .filter(|t| t.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_'))
                .all(|t| names.iter().any(|n| n == t))
    };
    (plain(cond) && plain(step)).then_some(names)
}

/// The first unquoted bracket expression or extended glob the matcher cannot read.
fn glob_part(raw: &str) -> Option<String> {
    let chars: Vec<char> = raw.chars().collect();
    let mut quote: Option<char> = None;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        match (quote, c) {
            (None, '\\') | (Some('"'), '\\') => i += 1,
            (None, '\'' | '"') => quote = Some(c),
            (Some(q), c) if c == q => quote = None,
            (None | Some('"'), '$') if matches!(chars.get(i + 1), Some('(' | '{')) => {
                // A substitution or expansion: its inside is read where it is lowered.
                i = skip_group(&chars, i + 1);
                continue;
            }
            // `$(`… and `$@`… are no globs; `!(` after `$` neither.
            (None, '?' | '*' | '+' | '@' | '!')
                if chars.get(i + 1) == Some(&'(') && (i == 0 || chars[i - 1] != '$') =>
            {
                return Some(format!("{c}(…) (an extended glob)"));
            }
            (None, '[') => {
                if let Some(inner) = unreadable_bracket(&chars[i + 1..]) {
                    return Some(format!("[{inner}] (a bracket expression)"));
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// The index after the group that opens at `open` (`(` or `{`) and its matching close, or
/// the end of the text when it does not close.
fn skip_group(chars: &[char], open: usize) -> usize {
    let (o, c) = if chars[open] == '(' {
        ('(', ')')
    } else {
        ('{', '}')
    };
    let mut depth = 0usize;
    for (k, &ch) in chars.iter().enumerate().skip(open) {
        if ch == o {
            depth += 1;
        } else if ch == c {
            depth -= 1;
            if depth == 0 {
                return k + 1;
            }
        }
    }
    chars.len()
}

/// Reads a bracket expression after its `[` as bash does; its text when it holds a part the
/// matcher does not read (`[=`, `[.`, `[:`, a backslash), `None` when it holds none or is no
/// bracket expression at all (no closing `]`: then `[` is a plain character).
fn unreadable_bracket(rest: &[char]) -> Option<String> {
    let mut i = 0;
    if matches!(rest.first(), Some('!' | '^')) {
        i += 1;
    }
    // A `]` first in the list is a member.
    if rest.get(i) == Some(&']') {
        i += 1;
    }
    let mut unreadable = false;
    while i < rest.len() {
        match rest[i] {
            ']' => {
                return unreadable.then(|| rest[..i].iter().collect());
            }
            '\\' => {
                unreadable = true;
                i += 2;
                continue;
            }
            '[' if matches!(rest.get(i + 1), Some('=' | '.' | ':')) => {
                unreadable = true;
                let close = rest[i + 1];
                // Skip to the matching `=]`, `.]` or `:]`; without one, `[` is a member.
                let end = (i + 2..rest.len().saturating_sub(1))
                    .find(|&k| rest[k] == close && rest[k + 1] == ']');
                i = end.map_or(i + 1, |k| k + 2);
                continue;
            }
            '\'' | '"' => {
                // Quotes inside brackets make members literal: not modelled either.
                unreadable = true;
            }
            _ => {}
        }
        i += 1;
    }
    // No closing `]`: the `[` was a plain character, but a backslash or quote may still have
    // made a later `]` literal; fail closed when anything unreadable was seen.
    unreadable.then(|| rest.iter().collect())
}

/// The variable an expansion in `raw` assigns (`${NAME:=v}`, `${NAME=v}`), when it may
/// steer what programs run, read or load.
fn assigning_expansion(raw: &str) -> Option<&str> {
    super::variables::assigning_expansions(raw).find(|name| !harmless_shell_assignment(name, None))
}

/// `NAME` when the word is `{NAME}` or `{NAME[SUBSCRIPT]}`, the form of a named descriptor
/// before a redirection (a subscript is an arithmetic expression, which may run code).
fn named_descriptor(raw: &str) -> Option<&str> {
    let name = raw.strip_prefix('{')?.strip_suffix('}')?;
    let base = match name.split_once('[') {
        Some((base, rest)) if rest.ends_with(']') => base,
        Some(_) => return None,
        None => name,
    };
    identifier(base).then_some(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bracket_expressions_the_matcher_cannot_read_are_unmodeled() {
        for raw in [
            ".e[[=n=]]v",
            "x.[[.k.]]ey",
            "terraform.tfstat[[=e=]]",
            ".e[n\\]]v",
            "x.k[e\\]]y",
            "[[:upper:]]*",
            "a[!\\x]b",
            "a[\"x\"]b",
        ] {
            assert!(glob_part(raw).is_some(), "{raw}");
        }
        for raw in [
            "*.md",
            "file[0-9].txt",
            "a[]b]c",
            "'[[=n=]]'",
            "\"[[=n=]]\"",
            "a[b",
        ] {
            assert!(glob_part(raw).is_none(), "{raw}");
        }
    }

    #[test]
    fn extended_globs_are_unmodeled() {
        for raw in [".e?(n)v", "*(x)", "+(a|b).env", "@(.env)", "!(*.md)"] {
            assert!(glob_part(raw).is_some(), "{raw}");
        }
        for raw in [
            "$(ls)",
            "\"$@\"",
            "'?(x)'",
            "a(b",
            "$(( i*(2+1) ))",
            "${x:-?(y)}",
        ] {
            assert!(glob_part(raw).is_none(), "{raw}");
        }
    }

    #[test]
    fn assigning_expansions_of_steering_variables_are_unmodeled() {
        assert_eq!(assigning_expansion("${PATH:=scripts}"), Some("PATH"));
        assert_eq!(assigning_expansion("a${IFS=1}b"), Some("IFS"));
        assert_eq!(assigning_expansion("\"${HOME:=/tmp}\""), Some("HOME"));
        assert_eq!(assigning_expansion("${name:=x}"), None);
        assert_eq!(assigning_expansion("${PATH:-x}"), None);
        assert_eq!(assigning_expansion("${PATH}"), None);
        assert_eq!(assigning_expansion("${PATH[0]:=x}"), Some("PATH"));
        assert_eq!(assigning_expansion("${IFS[1]=x}"), Some("IFS"));
    }

    #[test]
    fn counted_loops_evaluate_no_text() {
        assert_eq!(counters("i=0", "i<3", "i++"), Some(vec!["i".to_owned()]));
        assert_eq!(
            counters("i=0, j=9", "i<j", "i++, j--"),
            Some(vec!["i".to_owned(), "j".to_owned()])
        );
        assert_eq!(counters("i=0", "i<n", "i++"), None);
        assert_eq!(counters("i=x", "i<3", "i++"), None);
        assert_eq!(counters("i=0", "i<$(f)", "i++"), None);
        assert_eq!(counters("i=0", "i<a[$x]", "i++"), None);
        assert_eq!(counters("PATH=0", "PATH<3", "PATH++"), None);
        assert_eq!(counters("", "1", ""), None);
    }

    #[test]
    fn named_descriptors_bind_their_name() {
        assert!(!word_parts("{IFS}").is_empty());
        assert!(!word_parts("{PATH}").is_empty());
        assert!(word_parts("{fd}").is_empty());
        assert!(word_parts("{a,b}").is_empty());
        assert!(!word_parts("{a[x]}").is_empty());
        assert!(!word_parts("{IFS[0]}").is_empty());
        assert!(steering_binding("IFS").is_some());
        assert!(steering_binding("f").is_none());
    }
}
