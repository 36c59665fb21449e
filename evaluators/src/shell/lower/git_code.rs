//! Shell code a git command runs: `git submodule foreach CODE`, `git rebase --exec CODE`,
//! `git bisect run CMD ARGS`, `git difftool --extcmd CODE`, `git filter-branch --tree-filter
//! CODE` (and its other filters), `git push --receive-pack CODE`, `git fetch --upload-pack
//! CODE`, and an alias `git -c alias.NAME='!CODE' NAME`. git hands each to a shell, so it is
//! lowered as `sh -c CODE` is: its commands are judged as any others, in every mode.

use super::Lowering;
use crate::shell::{SimpleCommand, Word};

/// What a git command hands to a shell.
enum Code {
    /// Shell code.
    Text(String),
    /// Code only known when it runs.
    Dynamic,
}

/// Whether `t` is the long option `--NAME` or a prefix of it at least `min` letters long
/// (git takes any unique prefix; `min` is where the prefix becomes unique).
fn long(t: &str, name: &str, min: usize) -> bool {
    t.strip_prefix("--")
        .is_some_and(|p| p.len() >= min && name.starts_with(p))
}

/// The value of the option at `words[k]` when it is `--NAME` (a unique prefix from `min`
/// letters, the value attached with `=` or the next word) or the short `-S` (`-SVALUE` or
/// the next word), with the number of words it spans.
fn value<'w>(
    words: &'w [Word],
    k: usize,
    name: &str,
    min: usize,
    short: Option<char>,
) -> Option<(Option<&'w Word>, Option<String>, usize)> {
    let t = words[k].literal()?;
    if let Some((opt, v)) = t.split_once('=')
        && long(opt, name, min)
    {
        return Some((None, Some(v.to_owned()), 1));
    }
    if long(t, name, min) {
        return Some((words.get(k + 1), None, 2));
    }
    let s = short?;
    let rest = t.strip_prefix('-').filter(|r| !r.starts_with('-'))?;
    // The short option may close a cluster of flags (`-ix CMD`); git's short options that
    // take a value end a cluster.
    let at = rest.find(s)?;
    let attached = &rest[at + s.len_utf8()..];
    if attached.is_empty() {
        Some((words.get(k + 1), None, 2))
    } else {
        Some((None, Some(attached.to_owned()), 1))
    }
}

/// Shell words quoted as git's `sq_quote_argv` quotes them.
fn quoted(words: &[Word]) -> Option<String> {
    let mut out = Vec::new();
    for w in words {
        let t = w.literal()?;
        out.push(format!("'{}'", t.replace('\'', "'\\''")));
    }
    Some(out.join(" "))
}

/// The code a git command runs through a shell.
fn codes(cmd: &SimpleCommand) -> Vec<Code> {
    let args = cmd.args();
    let mut found = Vec::new();
    // git's own options, with the aliases `-c alias.NAME=!CODE` defines.
    let mut aliases: Vec<(String, Option<String>)> = Vec::new();
    let mut i = 0;
    while let Some(t) = args.get(i).and_then(Word::literal) {
        if !t.starts_with('-') {
            break;
        }
        if t == "-c" {
            match args.get(i + 1).map(Word::literal) {
                Some(Some(pair)) => {
                    // Section and variable names are case-insensitive.
                    if let Some((key, v)) = pair.split_once('=')
                        && let Some(name) = key.to_ascii_lowercase().strip_prefix("alias.")
                    {
                        aliases.push((name.to_owned(), Some(v.to_owned())));
                    }
                }
                // A setting only known when it runs may define any alias.
                Some(None) => aliases.push((String::new(), None)),
                None => {}
            }
        }
        // A setting taken from a variable may define any alias.
        if t.starts_with("--config-env") {
            aliases.push((String::new(), None));
        }
        i += if matches!(
            t,
            "-C" | "-c" | "--git-dir" | "--work-tree" | "--namespace" | "--config-env"
        ) {
            2
        } else {
            1
        };
    }
    let Some(sub) = args.get(i) else {
        return found;
    };
    let rest = &args[i + 1..];
    let Some(name) = sub.literal() else {
        if !aliases.is_empty() {
            found.push(Code::Dynamic);
        }
        return found;
    };
    for (alias, v) in &aliases {
        match v {
            None => found.push(Code::Dynamic),
            Some(v) if *alias == name.to_ascii_lowercase() => {
                if let Some(code) = v.strip_prefix('!') {
                    // git runs `sh -c 'CODE "$@"' CODE ARGS…`.
                    let args = quoted(rest).map(|a| format!("{code} {a}"));
                    found.push(args.map_or(Code::Dynamic, Code::Text));
                }
            }
            Some(_) => {}
        }
    }
    let dashdash = rest
        .iter()
        .position(|w| w.literal() == Some("--"))
        .unwrap_or(rest.len());
    match name {
        "submodule" => {
            // `git submodule [--quiet] foreach [--recursive] [--] CODE [ARGS…]`.
            let Some(at) = rest.iter().position(|w| w.literal() == Some("foreach")) else {
                return found;
            };
            let mut k = at + 1;
            while let Some(t) = rest.get(k).and_then(Word::literal) {
                if t == "--" {
                    k += 1;
                    break;
                }
                if !t.starts_with('-') {
                    break;
                }
                k += 1;
            }
            if let Some(first) = rest.get(k) {
                let tail = quoted(&rest[k + 1..]);
                match (first.literal(), tail) {
                    (Some(code), Some(tail)) if tail.is_empty() => {
                        found.push(Code::Text(code.to_owned()));
                    }
                    (Some(code), Some(tail)) => found.push(Code::Text(format!("{code} {tail}"))),
                    _ => found.push(Code::Dynamic),
                }
            }
        }
        "bisect" if rest.first().and_then(Word::literal) == Some("run") => {
            // git quotes each word and hands the line to a shell.
            found.push(quoted(&rest[1..]).map_or(Code::Dynamic, Code::Text));
        }
        "rebase" | "difftool" | "push" | "fetch" | "pull" | "clone" | "ls-remote" | "archive"
        | "filter-branch" => {
            let mut k = 0;
            while k < dashdash {
                let w = &rest[k];
                let Some(t) = w.literal() else {
                    k += 1;
                    continue;
                };
                let hit = match name {
                    "rebase" => value(rest, k, "exec", 2, Some('x')),
                    "difftool" => value(rest, k, "extcmd", 1, Some('x')),
                    "push" => value(rest, k, "receive-pack", 4, None)
                        .or_else(|| value(rest, k, "exec", 1, None)),
                    // `--u` is also `--update-shallow`, `--unshallow`, … there.
                    "fetch" | "pull" => value(rest, k, "upload-pack", 3, None),
                    "ls-remote" => value(rest, k, "upload-pack", 1, None),
                    "clone" => value(rest, k, "upload-pack", 2, Some('u')),
                    "archive" => value(rest, k, "exec", 1, None),
                    _ => [
                        "setup",
                        "env-filter",
                        "tree-filter",
                        "index-filter",
                        "parent-filter",
                        "msg-filter",
                        "commit-filter",
                        "tag-name-filter",
                    ]
                    .iter()
                    .find(|f| t == format!("--{f}"))
                    .map(|_| (rest.get(k + 1), None, 2)),
                };
                match hit {
                    Some((w, attached, span)) => {
                        found.push(match (attached, w.and_then(Word::literal)) {
                            (Some(text), _) => Code::Text(text),
                            (None, Some(text)) => Code::Text(text.to_owned()),
                            (None, None) => Code::Dynamic,
                        });
                        k += span;
                    }
                    None => k += 1,
                }
            }
        }
        _ => {}
    }
    found
}

/// Directories git installs its dashed programs in (`git --exec-path`).
const EXEC_PATHS: &[&str] = &[
    "/usr/lib/git-core/",
    "/usr/libexec/git-core/",
    "/usr/local/libexec/git-core/",
    "/opt/homebrew/libexec/git-core/",
    "/Library/Developer/CommandLineTools/usr/libexec/git-core/",
    "/Applications/Xcode.app/Contents/Developer/usr/libexec/git-core/",
];

/// The subcommand a program named `git-NAME` is, found on the `PATH` or in git's exec path:
/// `git NAME` runs that program, and git's own (`git-credential-store`) are git itself,
/// which reads its name. A `git-NAME` found elsewhere (`./git-x`) is not git's.
fn dashed(program: &str) -> Option<&str> {
    let name = match program.rsplit_once('/') {
        None => program,
        Some((dir, name)) if EXEC_PATHS.iter().any(|p| p.trim_end_matches('/') == dir) => name,
        Some(_) => return None,
    };
    name.strip_prefix("git-").filter(|sub| !sub.is_empty())
}

impl Lowering<'_> {
    /// A program named `git-NAME` is also judged as `git NAME` (a command of its own after
    /// it, which runs as it does): a restriction of git's subcommand applies to it.
    pub(super) fn git_dashed(&mut self, index: usize, depth: usize) {
        let outer = self.script.commands[index].clone();
        let Some(sub) = outer.words.first().and_then(Word::literal).and_then(dashed) else {
            return;
        };
        let mut words = vec![Word::literal_text("git"), Word::literal_text(sub)];
        words.extend(outer.args().iter().cloned());
        let at = self.push(words, outer.redirects.clone(), outer.feeds.clone());
        let c = &mut self.script.commands[at];
        c.cwd = outer.cwd.clone();
        c.parent = Some(index);
        c.elevated = outer.elevated;
        c.assignments.clone_from(&outer.assignments);
        c.assignment_values.clone_from(&outer.assignment_values);
        self.unwrap(at, depth + 1);
    }

    /// Lowers the shell code the git command `index` runs, as its children; code only known
    /// when it runs marks the command as running it.
    pub(super) fn git_code(&mut self, index: usize, depth: usize) {
        let outer = self.script.commands[index].clone();
        for code in codes(&outer) {
            match code {
                Code::Text(text) => {
                    let elevated = outer.elevated;
                    self.code(index, &outer, &text, outer.cwd.clone(), depth, elevated);
                }
                Code::Dynamic => self.script.commands[index].runs_dynamic_code = true,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::shell::parse;

    /// The programs a command runs, the git command aside.
    fn inner(code: &str) -> Vec<String> {
        let script = parse(code).expect("parse");
        script
            .commands
            .iter()
            .filter(|c| c.parent.is_some())
            .map(|c| {
                c.words
                    .iter()
                    .map(|w| w.raw.clone())
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect()
    }

    fn dynamic(code: &str) -> bool {
        let script = parse(code).expect("parse");
        script.commands.iter().any(|c| c.runs_dynamic_code)
    }

    #[test]
    fn code_git_hands_to_a_shell_is_lowered() {
        assert_eq!(inner("git submodule foreach 'cat .env'"), ["cat .env"]);
        assert_eq!(
            inner("git submodule --quiet foreach --recursive -- 'cat .env'"),
            ["cat .env"]
        );
        assert_eq!(inner("git rebase -x 'cat .env' main"), ["cat .env"]);
        assert_eq!(inner("git rebase -ix 'cat .env' main"), ["cat .env"]);
        assert_eq!(inner("git rebase --exec='cat .env' main"), ["cat .env"]);
        assert_eq!(inner("git rebase --exe 'cat .env' main"), ["cat .env"]);
        assert_eq!(
            inner("git bisect run sh -c 'cat .env'"),
            ["'sh' '-c' 'cat .env'", "cat .env"]
        );
        assert_eq!(inner("git difftool -x 'cat .env'"), ["cat .env"]);
        assert_eq!(inner("git difftool --extc='cat .env'"), ["cat .env"]);
        assert_eq!(
            inner("git filter-branch --tree-filter 'cat .env' HEAD"),
            ["cat .env"]
        );
        assert_eq!(
            inner("git push --receive-pack='cat .env' ../r"),
            ["cat .env"]
        );
        assert_eq!(
            inner("git fetch --upload-pack 'cat .env' ../r"),
            ["cat .env"]
        );
        assert_eq!(inner("git -c alias.x='!cat .env' x"), ["cat .env"]);
        assert!(dynamic("git rebase -x \"$C\" main"));
        assert!(dynamic("git -c \"$A\" x"));
        assert_eq!(inner("git -c ALIAS.X='!cat .env' x"), ["cat .env"]);
    }

    #[test]
    fn gits_dashed_programs_are_also_its_subcommands() {
        assert_eq!(
            inner("git-credential-store get"),
            ["git credential-store get"]
        );
        assert_eq!(
            inner("/usr/lib/git-core/git-credential-cache get"),
            ["git credential-cache get"]
        );
        assert_eq!(
            inner("sudo git-credential-libsecret get")[1],
            "git credential-libsecret get"
        );
        assert!(inner("./git-credential-store get").is_empty());
        assert!(inner("/tmp/git-credential-store get").is_empty());
        assert!(inner("git- get").is_empty());
    }

    #[test]
    fn git_commands_that_run_no_code_have_none() {
        for code in [
            "git rebase main",
            "git rebase -i main",
            "git push origin main",
            "git push -u origin feature",
            "git submodule update --init",
            "git bisect start",
            "git -c alias.x=log x",
            "git commit -m 'cat .env'",
        ] {
            assert!(inner(code).is_empty(), "{code}");
            assert!(!dynamic(code), "{code}");
        }
    }
}
