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
    lex(program, false, None)?;
    lex(program, true, None)
}

/// A token of an awk program, as [`commands`] reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Token<'a> {
    /// A string literal, its text as written between the quotes.
    Str(&'a str),
    /// A name.
    Name(&'a str),
    /// `|` or `|&`: a pipe to or from a command.
    Pipe,
    /// `(`.
    Open,
    /// `)`.
    Close,
    /// `;`, `{`, `}`, a newline: where an expression surely ends.
    End,
    /// Anything else.
    Other,
}

/// The shell commands `awk ARGS…` runs ([`commands`] of its program); none when its
/// program is not given literally (`-f FILE`, a word only known when it runs), which the
/// table's model never proves.
pub(crate) fn runs(args: &[Word]) -> Vec<Option<String>> {
    let Some(entry) = super::entries().get("awk") else {
        return Vec::new();
    };
    let Ok(items) = read_args(entry, args) else {
        return Vec::new();
    };
    let program = items.into_iter().find_map(|item| match item {
        Item::Operand(_, w) => Some(w),
        Item::Opt(..) => None,
    });
    program
        .as_ref()
        .and_then(Word::literal)
        .map(commands)
        .unwrap_or_default()
}

/// The shell commands an awk program runs (`system(CMD)`, `CMD | getline`, `print … | CMD`,
/// gawk's `|&`), each as its text when it is one string literal, `None` for a command
/// built when it runs (`system("rm -rf " ENVIRON["HOME"])`, a variable). A program that
/// cannot be read runs what it runs unknown (`None`), unless it names no command at all.
pub(crate) fn commands(program: &str) -> Vec<Option<String>> {
    let mut first = Vec::new();
    let mut second = Vec::new();
    let read = lex(program, false, Some(&mut first)).and(lex(program, true, Some(&mut second)));
    if read.is_err() || first != second {
        return if program.contains("system") || program.contains('|') {
            vec![None]
        } else {
            Vec::new()
        };
    }
    let t = &first;
    let text = |k: usize| match t.get(k) {
        Some(Token::Str(s)) => unescape(s),
        _ => None,
    };
    let mut out = Vec::new();
    for (k, token) in t.iter().enumerate() {
        match token {
            Token::Name("system") => out.push(
                (t.get(k + 1) == Some(&Token::Open) && t.get(k + 3) == Some(&Token::Close))
                    .then(|| text(k + 2))
                    .flatten(),
            ),
            Token::Pipe => {
                let before = k
                    .checked_sub(1)
                    .filter(|_| t.get(k + 1) == Some(&Token::Name("getline")))
                    // A literal standing alone before it (not the end of a concatenation).
                    .filter(|&b| b == 0 || matches!(t.get(b - 1), Some(Token::End | Token::Open)))
                    .and_then(text);
                let after = text(k + 1)
                    .filter(|_| matches!(t.get(k + 2), None | Some(Token::End | Token::Close)));
                out.push(before.or(after));
            }
            _ => {}
        }
    }
    out
}

/// The text of an awk string literal written as `raw`, when its escapes are plain (`\"`,
/// `\\`, `\/`, `\n`, `\t`); `None` for any other.
fn unescape(raw: &str) -> Option<String> {
    let mut out = String::new();
    let mut chars = raw.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        out.push(match chars.next()? {
            c @ ('"' | '\\' | '/') => c,
            'n' => '\n',
            't' => '\t',
            _ => return None,
        });
    }
    Some(out)
}

/// Reads `program` token by token: `Err` at the first construct that is not harmless, or,
/// when `tokens` is given, the tokens (then only an unreadable program is an error).
fn lex<'a>(
    program: &'a str,
    regex_after_paren: bool,
    mut tokens: Option<&mut Vec<Token<'a>>>,
) -> Result<()> {
    let collecting = tokens.is_some();
    let mut push = |t: Token<'a>| {
        if let Some(v) = tokens.as_mut() {
            v.push(t);
        }
    };
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
                push(Token::End);
            }
            b';' | b'{' | b'}' => {
                push(Token::End);
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
                let start = i;
                while i < s.len() && s[i] != b'"' {
                    i += if s[i] == b'\\' { 2 } else { 1 };
                }
                if i >= s.len() {
                    return Err("its awk program leaves a string open".to_owned());
                }
                push(Token::Str(&program[start..i]));
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
                push(Token::Other);
            }
            b'|' if s.get(i + 1) == Some(&b'|') => {
                i += 2;
                after_operand = false;
                push(Token::Other);
            }
            b'|' if collecting => {
                i += if s.get(i + 1) == Some(&b'&') { 2 } else { 1 };
                after_operand = false;
                push(Token::Pipe);
            }
            b'|' => return Err("its awk program pipes to or from a command".to_owned()),
            b'>' if printing == Some(depth) && !collecting => {
                return Err("its awk program prints into a file".to_owned());
            }
            b'@' => return Err("its awk program loads code (`@include`, `@load`)".to_owned()),
            b'(' | b'[' => {
                depth += 1;
                after_operand = false;
                i += 1;
                push(if c == b'(' { Token::Open } else { Token::Other });
            }
            b')' | b']' => {
                depth = depth.saturating_sub(1);
                after_operand = !(regex_after_paren && c == b')');
                i += 1;
                push(if c == b')' {
                    Token::Close
                } else {
                    Token::Other
                });
            }
            c if c.is_ascii_alphabetic() || c == b'_' => {
                let start = i;
                while i < s.len() && (s[i].is_ascii_alphanumeric() || s[i] == b'_') {
                    i += 1;
                }
                let word = &program[start..i];
                if FORBIDDEN.contains(&word) && !collecting {
                    return Err(format!("its awk program uses `{word}`"));
                }
                push(Token::Name(word));
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
                push(Token::Other);
            }
            b'$' => {
                i += 1;
                after_operand = false;
                push(Token::Other);
            }
            _ => {
                i += 1;
                after_operand = false;
                push(Token::Other);
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
    use super::{check, commands};

    #[test]
    fn literal_commands_are_given_back_and_built_ones_are_unknown() {
        let some = |t: &str| Some(t.to_owned());
        assert_eq!(commands("BEGIN{system(\"cat .env\")}"), [some("cat .env")]);
        assert_eq!(commands("BEGIN{system (\"rm -rf ~\")}"), [some("rm -rf ~")]);
        assert_eq!(
            commands("BEGIN{\"cat .env\" | getline x; print x}"),
            [some("cat .env")]
        );
        assert_eq!(
            commands("BEGIN{ while ((\"ls\" | getline l) > 0) print l }"),
            [some("ls")]
        );
        assert_eq!(commands("{print $1 | \"sort -u\"}"), [some("sort -u")]);
        assert_eq!(commands("BEGIN{print \"x\" |& \"sh\"}"), [some("sh")]);
        assert_eq!(
            commands("BEGIN{system(\"echo \\\"q\\\"\")}"),
            [some("echo \"q\"")]
        );
        for p in [
            "BEGIN{system(\"cat \" \".\" \"env\")}",
            "BEGIN{system(\"rm -rf \" ENVIRON[\"HOME\"])}",
            "BEGIN{ c = \"cat .env\"; c | getline x }",
            "{ print | cmd }",
            "BEGIN{ \"a\" \"b\" | getline x }",
            "BEGIN{ print \"x\" | \"cat \" f }",
            "BEGIN{system(\"a\\qb\")}",
            "BEGIN{system(\"id\"",
        ] {
            assert_eq!(commands(p), [None], "{p}");
        }
        for p in [
            "{print $1}",
            "{ a = b || c }",
            "/x|y/ {print}",
            "{print > \"out\"}",
        ] {
            assert!(commands(p).is_empty(), "{p}");
        }
    }

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
