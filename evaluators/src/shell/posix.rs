//! Code for a shell that is not bash (`sh -c`, `dash -c`, `ksh -c`): the policy reads it with
//! a bash grammar, so it is read only when it keeps to a subset that bash and a POSIX shell
//! (dash, the `/bin/sh` of Debian and Ubuntu) read the same way.
//!
//! The check runs on the text, quotes and all: a construct is refused wherever it appears,
//! inside quotes too, which refuses more than needed and never less.

/// Shells whose inline code is read when it keeps to the subset: POSIX shells and the Korn
/// shells, whose grammar agrees with bash's on it.
const POSIX_SHELLS: &[&str] = &["sh", "dash", "ash", "ksh", "mksh", "posh"];

/// Why `code`, given with `-c` to `shell`, may mean something else in that shell than bash
/// reads; `None` when `shell` is bash or the code keeps to the common subset.
pub(super) fn differs_from_bash(shell: &str, code: &str) -> Option<String> {
    if shell == "bash" {
        return None;
    }
    if !POSIX_SHELLS.contains(&shell) {
        return Some(format!(
            "`{shell}` reads its code with a grammar of its own, not bash's"
        ));
    }
    bash_only(code).map(|what| {
        format!("`{shell}` may read {what} otherwise than bash (`/bin/sh` is often dash)")
    })
}

/// The first construct of `code` that bash and a POSIX shell may read differently.
fn bash_only(code: &str) -> Option<String> {
    const SEQUENCES: &[(&str, &str)] = &[
        ("$'", "`$'…'`"),
        ("$\"", "`$\"…\"`"),
        ("$[", "`$[…]`"),
        ("[[", "`[[`"),
        ("<(", "`<(…)`"),
        (">(", "`>(…)`"),
        ("&>", "`&>`"),
        ("|&", "`|&`"),
        (";&", "`;&`"),
        ("<<<", "`<<<`"),
        ("=(", "an array"),
        ("+=", "`+=`"),
        ("?(", "an extended glob"),
        ("*(", "an extended glob"),
        ("+(", "an extended glob"),
        ("@(", "an extended glob"),
        ("!(", "an extended glob"),
        ("[^", "`[^…]`"),
        ("~+", "`~+`"),
        ("~-", "`~-`"),
        // Bash expands a `~` after `=` or `:` in any word that looks like an assignment
        // (`--file=~/x`); a POSIX shell only in assignments, and only after the `=`.
        ("=~", "`=~`"),
        (":~", "`:~`"),
    ];
    for (seq, what) in SEQUENCES {
        if code.contains(seq) {
            return Some((*what).to_owned());
        }
    }
    let bytes = code.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        let next = bytes.get(i + 1).copied();
        let prev = i.checked_sub(1).and_then(|p| bytes.get(p)).copied();
        match b {
            // Escapes: `echo` and `printf` of a POSIX shell decode them, and their rules
            // inside double quotes and backquotes differ in corners.
            b'\\' => return Some("a backslash".to_owned()),
            b'`' => return Some("a backquote substitution".to_owned()),
            b'(' if next == Some(b'(') && prev != Some(b'$') => {
                return Some("`((…))`".to_owned());
            }
            b'>' | b'<' if next == Some(b'&') => {
                let target = bytes.get(i + 2).copied();
                if !target.is_some_and(|t| t.is_ascii_digit() || t == b'-') {
                    return Some("a redirection to a word with `>&`".to_owned());
                }
            }
            b'~' if next.is_some_and(|n| n.is_ascii_digit()) => {
                return Some("`~N`".to_owned());
            }
            // dash's `.*` and `.?*` match `.` and `..` too (bash skips them).
            b'.' if matches!(next, Some(b'*' | b'?'))
                && prev.is_none_or(|p| b" \t\n/'\"=".contains(&p)) =>
            {
                return Some("a glob for dot-files (dash matches `..` with it)".to_owned());
            }
            b'{' if prev == Some(b'$') => {
                if let Some(what) = parameter(&code[i + 1..]) {
                    return Some(what);
                }
            }
            // A brace group opens with a `{` standing alone as a word: any other is a brace
            // expansion to bash (or a named descriptor) and a literal to a POSIX shell.
            b'{' => {
                let alone_before = prev.is_none_or(|p| b" \t\n;&|(".contains(&p));
                let alone_after = next.is_none_or(|n| b" \t\n".contains(&n));
                if !(alone_before && alone_after) {
                    return Some("a brace expansion".to_owned());
                }
            }
            _ if !b.is_ascii() => return Some("a character outside ASCII".to_owned()),
            _ if b.is_ascii_control() && !matches!(b, b'\n' | b'\t') => {
                return Some("a control character".to_owned());
            }
            _ => {}
        }
    }
    for word in code.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')) {
        if matches!(word, "function" | "select" | "coproc" | "time") {
            return Some(format!("`{word}`"));
        }
    }
    None
}

/// Why the parameter expansion whose text after `${` is `rest` is not one of POSIX's
/// (`${NAME}`, `${#NAME}`, `${NAME:-WORD}` and its kin with a plain word); `None` when it is.
fn parameter(rest: &str) -> Option<String> {
    let bad = || Some("a parameter expansion other than POSIX's".to_owned());
    let Some(end) = rest.find('}') else {
        return bad();
    };
    let body = &rest[..end];
    let body = match body.strip_prefix('#') {
        Some(name) if !name.is_empty() => name,
        _ => body,
    };
    let special = body
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_digit() || "@*#?$!-".contains(c));
    let name_len = if special {
        1
    } else {
        body.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(body.len())
    };
    if name_len == 0 {
        return bad();
    }
    let rest = &body[name_len..];
    if rest.is_empty() {
        return None;
    }
    let word = [
        "##", "%%", ":-", ":=", ":?", ":+", "-", "=", "?", "+", "#", "%",
    ]
    .iter()
    .find_map(|op| rest.strip_prefix(op));
    match word {
        Some(w)
            if w.chars()
                .all(|c| c.is_ascii_alphanumeric() || "_./*?:@,=+- ".contains(c)) =>
        {
            None
        }
        _ => bad(),
    }
}

#[cfg(test)]
mod tests {
    use super::differs_from_bash;

    #[test]
    fn code_bash_and_dash_read_alike_is_read() {
        for code in [
            "ls -la",
            "cat a.txt | wc -l; echo done",
            "for f in *.txt; do wc -l \"$f\"; done",
            "if [ -f a ]; then cat a; fi",
            "{ echo a; echo b; } > /dev/null",
            "echo ${HOME} ${x:-default} ${#x} ${1} ${x%.txt}",
            "echo $((1 + 2)) 2>&1 >&2",
            "f() { echo hi; }; f",
            "find . -name '*.rs'",
        ] {
            assert_eq!(differs_from_bash("sh", code), None, "{code}");
        }
    }

    #[test]
    fn constructs_bash_reads_otherwise_are_refused() {
        for code in [
            "echo $'a\\'\ntouch PWN\n#'",
            "echo $\"x\"",
            "[[ a > b ]]",
            "(( x = 1 ))",
            "cat <(ls)",
            "ls &> out",
            "ls |& cat",
            "cat {a,b}",
            "echo {1..3}",
            "function f { ls; }",
            "a=(1 2)",
            "echo ${x/a/b}",
            "echo ${x:1:2}",
            "echo ${!x}",
            "echo ${x^^}",
            "cat <<< .env",
            "ls ?(a|b)",
            "echo `ls`",
            "echo 'a\\nb'",
            "ls >& out",
            "cat ~+/x",
            "grep --file=~/x y",
            "PATH=/bin:~/bin ls",
            "grep -r x .*",
            "cat sub/.?*",
            "exec {fd}> f",
            "coproc cat",
            "echo \u{a0}x",
        ] {
            assert!(differs_from_bash("dash", code).is_some(), "{code}");
        }
        assert!(differs_from_bash("bash", "cat {a,b}").is_none());
        assert!(differs_from_bash("zsh", "ls").is_some());
        assert!(differs_from_bash("fish", "ls").is_some());
    }
}
