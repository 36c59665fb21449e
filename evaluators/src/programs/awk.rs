//! awk programs, read token by token: a program is allowed only when it cannot run a command
//! (`system`, pipes, `getline`), write a file (`print > f`), read the environment (`ENVIRON`,
//! `PROCINFO`), change which files it reads (`ARGV`, `ARGC`) or load code (`@include`).

use super::cursor::Item;
use super::{Effects, Entry, Result, literal, read_args};
use crate::shell::Word;

/// Names whose use makes a program unmodeled.
const FORBIDDEN: &[&str] = &[
    "system",
    "getline",
    "close",
    "ENVIRON",
    "PROCINFO",
    "ARGV",
    "ARGC",
    "FILENAME_WRITE",
    "fflush",
    "SYMTAB",
    "FUNCTAB",
];

pub(super) fn model(entry: &Entry, args: &[Word], e: &mut Effects) -> Result<()> {
    let mut operands = Vec::new();
    for item in read_args(entry, args)? {
        match item {
            Item::Operand(_, w) => operands.push(w),
            Item::Opt(opt, value) => {
                if opt.display == "-v" {
                    let v = value.ok_or("`-v` lacks its assignment")?;
                    let t = literal(&v)?;
                    let name = t.split_once('=').map(|(n, _)| n).unwrap_or_default();
                    if name.is_empty() || FORBIDDEN.contains(&name) {
                        return Err(format!("`-v {t}` is not a plain assignment"));
                    }
                }
            }
        }
    }
    super::single_words(&operands, 1)?;
    let mut operands = operands.into_iter();
    let program = operands.next().ok_or("it is given no program")?;
    check(literal(&program)?)?;
    for w in operands {
        let t = literal(&w)?;
        // `name=value` operands assign variables; others are files read.
        let assigns = t.split_once('=').is_some_and(|(n, _)| {
            !n.is_empty()
                && n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                && !n.starts_with(|c: char| c.is_ascii_digit())
        });
        if assigns {
            let name = t.split_once('=').map(|(n, _)| n).unwrap_or_default();
            if FORBIDDEN.contains(&name) {
                return Err(format!("`{t}` assigns `{name}`"));
            }
        } else {
            e.reads.push(w);
        }
    }
    Ok(())
}

/// Why an awk program is not harmless, if it is not. A `/` after `)` may start a regex or
/// divide depending on the grammar around it: the program must pass either way.
pub(super) fn check(program: &str) -> Result<()> {
    lex(program, false)?;
    lex(program, true)
}

fn lex(program: &str, regex_after_paren: bool) -> Result<()> {
    let s = program.as_bytes();
    let mut i = 0;
    // Whether the last token ends an operand (so `/` divides rather than starting a regex).
    let mut after_operand = false;
    // Inside a `print`/`printf` statement: the paren depth it started at.
    let mut printing: Option<usize> = None;
    let mut depth = 0usize;
    while i < s.len() {
        let c = s[i];
        match c {
            b' ' | b'\t' | b'\r' => i += 1,
            b'\\' if s.get(i + 1) == Some(&b'\n') => i += 2,
            // A newline may continue a statement (after `,`, `&&`, `||`, `{`, `do`, `else`):
            // only `;` and `}` end a `print` for certain.
            b'\n' => {
                after_operand = false;
                i += 1;
            }
            b';' | b'{' | b'}' => {
                printing = None;
                // After `}` a new pattern may start, and a pattern may be a regex.
                after_operand = false;
                i += 1;
            }
            b'#' => {
                while i < s.len() && s[i] != b'\n' {
                    i += 1;
                }
            }
            b'"' => {
                i += 1;
                while i < s.len() && s[i] != b'"' {
                    i += if s[i] == b'\\' { 2 } else { 1 };
                }
                if i >= s.len() {
                    return Err("its awk program leaves a string open".to_owned());
                }
                i += 1;
                after_operand = true;
            }
            b'/' if !after_operand => {
                i += 1;
                let mut bracket = false;
                while i < s.len() && (s[i] != b'/' || bracket) {
                    match s[i] {
                        b'\\' => i += 1,
                        b'[' if !bracket => {
                            bracket = true;
                            // `[]…]` and `[^]…]` hold a literal `]`.
                            if s.get(i + 1) == Some(&b'^') {
                                i += 1;
                            }
                            if s.get(i + 1) == Some(&b']') {
                                i += 1;
                            }
                        }
                        // `[:alpha:]`, `[.x.]`, `[=x=]` inside a bracket expression.
                        b'[' if matches!(s.get(i + 1), Some(b':' | b'.' | b'=')) => {
                            let kind = s[i + 1];
                            let close = s[i + 2..]
                                .windows(2)
                                .position(|w| w[0] == kind && w[1] == b']')
                                .ok_or_else(|| "its awk program leaves a class open".to_owned())?;
                            i += close + 3;
                        }
                        b']' if bracket => bracket = false,
                        b'\n' => {
                            return Err(
                                "its awk program has a regex broken across lines".to_owned()
                            );
                        }
                        _ => {}
                    }
                    i += 1;
                }
                if i >= s.len() {
                    return Err("its awk program leaves a regex open".to_owned());
                }
                i += 1;
                after_operand = true;
            }
            b'|' if s.get(i + 1) == Some(&b'|') => {
                i += 2;
                after_operand = false;
            }
            b'|' => return Err("its awk program pipes to or from a command".to_owned()),
            b'>' if printing == Some(depth) => {
                return Err("its awk program prints into a file".to_owned());
            }
            b'@' => return Err("its awk program loads code (`@include`, `@load`)".to_owned()),
            b'(' | b'[' => {
                depth += 1;
                after_operand = false;
                i += 1;
            }
            b')' | b']' => {
                depth = depth.saturating_sub(1);
                after_operand = !(regex_after_paren && c == b')');
                i += 1;
            }
            c if c.is_ascii_alphabetic() || c == b'_' => {
                let start = i;
                while i < s.len() && (s[i].is_ascii_alphanumeric() || s[i] == b'_') {
                    i += 1;
                }
                let word = &program[start..i];
                if FORBIDDEN.contains(&word) {
                    return Err(format!("its awk program uses `{word}`"));
                }
                if matches!(word, "print" | "printf") {
                    printing = Some(depth);
                }
                after_operand = !matches!(
                    word,
                    "print" | "printf" | "return" | "in" | "if" | "while" | "for" | "do" | "else"
                );
            }
            c if c.is_ascii_digit() || c == b'.' => {
                while i < s.len() && (s[i].is_ascii_alphanumeric() || s[i] == b'.') {
                    i += 1;
                }
                after_operand = true;
            }
            b'$' => {
                i += 1;
                after_operand = false;
            }
            _ => {
                i += 1;
                after_operand = false;
            }
        }
        if s.get(i.wrapping_sub(1))
            .is_some_and(|b| *b == b'+' || *b == b'-')
            && s.get(i.wrapping_sub(2)) == s.get(i.wrapping_sub(1))
        {
            // `x++ / 2`: an increment ends an operand.
            after_operand = true;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::check;

    #[test]
    fn harmless_programs_pass() {
        for p in [
            "{print $1}",
            "$3 > 100 {print $1}",
            "{ s += $2 } END { print s / NR }",
            "/^fn/ {n++} END {print n}",
            "BEGIN{FS=\":\"} {print $1, $NF}",
            "NR==1, NR==5",
            "{ print ($1 > 5) }",
            "length($0) > 80",
            "{ a[$1]++ } END { for (k in a) print k, a[k] }",
        ] {
            check(p).unwrap_or_else(|e| panic!("{p}: {e}"));
        }
    }

    #[test]
    fn commands_files_and_environment_are_refused() {
        for p in [
            "BEGIN{system(\"id\")}",
            "{print > \"out\"}",
            "{print $1 >> \"/tmp/x\"}",
            "{printf \"%s\", $0 > \"f\"}",
            "{print | \"sh\"}",
            "BEGIN{\"id\" | getline x}",
            "BEGIN{getline < \"/etc/shadow\"}",
            "BEGIN{print ENVIRON[\"HOME\"]}",
            "BEGIN{ARGV[1]=\"/etc/shadow\"; ARGC=2}",
            "@include \"x\"",
            "BEGIN { print |& \"cmd\" }",
            "BEGIN{x=\"a\"} {print x > \"f\"}",
            "BEGIN{system (\"id\")}",
            "BEGIN{print \"x\",\n\"y\" > \"PWNED\"}",
            "BEGIN{ if (match(\"x\", /[]/\"]/)) {}; print \"touch P\" | \"sh\" } # \"",
            "BEGIN{ if (match(\"x\", /[[:alpha:]/\"]/)) {}; print \"t\" | \"sh\" } # \"",
            "BEGIN{} /#*/ { print \"touch P\" | \"sh\" }",
        ] {
            assert!(check(p).is_err(), "{p} should be refused");
        }
    }
}
