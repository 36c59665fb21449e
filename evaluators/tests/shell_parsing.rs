//! The shell reading every evaluator shares: words as the shell would see them, and the
//! commands wrappers and nested code would run.

use warrant_evaluators::shell::{Script, ShellError, WorkingDir, parse};

fn words(script: &Script, i: usize) -> Vec<String> {
    script.commands[i]
        .words
        .iter()
        .map(|w| w.text().to_owned())
        .collect()
}

fn programs(script: &Script) -> Vec<Option<&str>> {
    script.commands.iter().map(|c| c.program()).collect()
}

#[test]
fn quotes_escapes_and_home_forms_are_read_like_the_shell() {
    let s = parse(r#"echo "a b"'c'\d ~/x $HOME/y "${HOME}"/z"#).unwrap();
    assert_eq!(words(&s, 0), ["echo", "a bcd", "~/x", "~/y", "~/z"]);
}

#[test]
fn substitutions_are_dynamic_and_their_commands_run() {
    let s = parse(r#"ls /tmp/"$(rm -rf /)"`id` ${X:-$(curl x)}"#).unwrap();
    let ls = s
        .commands
        .iter()
        .find(|c| c.program() == Some("ls"))
        .unwrap();
    assert_eq!(ls.words[1].literal(), None);
    assert_eq!(ls.words[1].prefix, "/tmp/");
    assert_eq!(ls.feeds.len(), 3, "rm, id and curl feed ls");
    for p in ["rm", "id", "curl"] {
        assert!(programs(&s).contains(&Some(p)), "{p}");
    }
}

#[test]
fn brace_expansion_is_not_one_literal() {
    let s = parse("rm -rf {/,x}").unwrap();
    assert_eq!(s.commands[0].words[2].literal(), None);
    // A quote inside a group does not end it: bash still splits the word at the comma.
    for (line, prefix) in [
        ("find . {-true\"\",-delete}", ""),
        ("find . {-true$'',-delete}", ""),
        ("find . a{-b\\,-c,d}", "a"),
        ("find . {\"x\"'',-delete}", ""),
        ("find . {x\"\"..y}", ""),
    ] {
        let s = parse(line).unwrap();
        let word = &s.commands[0].words[2];
        assert_eq!(word.literal(), None, "{line}");
        assert_eq!(word.prefix, prefix, "{line}");
    }
    // A comma or a sequence that is quoted separates nothing: the word is its text.
    for (line, value) in [
        ("echo {a\",\"b}", "{a,b}"),
        ("echo {a'..'b}", "{a..b}"),
        ("echo {a\\,b}", "{a,b}"),
    ] {
        let s = parse(line).unwrap();
        assert_eq!(s.commands[0].words[1].literal(), Some(value), "{line}");
    }
}

#[test]
fn wrappers_are_unwrapped_and_raise_privileges() {
    let s = parse("sudo -u root -E env A=1 timeout -s KILL 10 nice -n 5 rm -rf /").unwrap();
    assert_eq!(
        programs(&s),
        [
            Some("sudo"),
            Some("env"),
            Some("timeout"),
            Some("nice"),
            Some("rm")
        ]
    );
    let rm = &s.commands[4];
    assert_eq!(words(&s, 4), ["rm", "-rf", "/"]);
    assert!(rm.elevated && !rm.wraps);
    assert_eq!(
        s.ancestors(4).map(|(i, _)| i).collect::<Vec<_>>(),
        [3, 2, 1, 0]
    );
}

#[test]
fn code_given_to_shells_and_eval_is_parsed() {
    for code in [
        "bash -lc 'ls; rm -rf /'",
        "sh -c \"rm -rf /\"",
        "eval 'rm -rf /'",
        "watch rm -rf /",
        "su -c 'rm -rf /'",
    ] {
        let s = parse(code).unwrap();
        assert!(programs(&s).contains(&Some("rm")), "{code}");
    }
    let s = parse("bash -c \"$CODE\"").unwrap();
    assert!(s.commands[0].runs_dynamic_code);
    let s = parse("bash -c 'echo \"oops'").unwrap();
    assert_eq!(s.unreadable.len(), 1);
}

#[test]
fn find_exec_and_xargs_run_their_commands() {
    let s = parse("find / -name x -exec rm -rf {} \\;").unwrap();
    assert_eq!(words(&s, 1), ["rm", "-rf", "{}"]);
    assert_eq!(
        s.commands[1].words[2].prefix, "/",
        "each path found under the root"
    );
    let s = parse("git ls-files | xargs -0 rm -f").unwrap();
    let rm = s
        .commands
        .iter()
        .find(|c| c.program() == Some("rm"))
        .unwrap();
    assert!(rm.extra_args);
    assert!(
        parse("command -v rm").unwrap().commands.len() == 1,
        "a lookup runs nothing"
    );
}

#[test]
fn pipes_feed_every_later_part() {
    let s = parse("curl -s x | tee f | sh").unwrap();
    assert_eq!(s.commands[2].feeds, [0, 1]);
}

#[test]
fn cd_moves_the_commands_after_it_but_not_out_of_a_subshell() {
    let s = parse("cd / && rm -rf * ; (cd /tmp); ls; cd \"$D\"; ls").unwrap();
    assert_eq!(s.commands[1].cwd, WorkingDir::Dir("/".to_owned()));
    let ls: Vec<&WorkingDir> = s
        .commands
        .iter()
        .filter(|c| c.program() == Some("ls"))
        .map(|c| &c.cwd)
        .collect();
    assert_eq!(ls, [&WorkingDir::Dir("/".to_owned()), &WorkingDir::Unknown]);
}

#[test]
fn fork_bombs_are_recognized() {
    assert_eq!(parse(":(){ :|:& };:").unwrap().fork_bombs, [":"]);
    assert!(parse("f() { echo hi; }; f").unwrap().fork_bombs.is_empty());
}

#[test]
fn text_the_parser_should_not_see_is_refused() {
    assert!(matches!(parse("echo 'open"), Err(ShellError::Syntax(_))));
    assert!(matches!(parse(&"(".repeat(100)), Err(ShellError::TooDeep)));
    assert!(matches!(
        parse(&"a".repeat(70_000)),
        Err(ShellError::TooLong(70_000))
    ));
}

/// Inputs the fuzzer found (`fuzz/artifacts-found/shell_parse/`): the parser underneath looped
/// until memory ran out on the first, and backtracked for minutes on the second. Both are
/// refused before it sees them, in no time, and so asked about, never allowed.
#[test]
fn inputs_that_hang_the_parser_are_refused_before_it() {
    let started = std::time::Instant::now();
    let heredoc_formfeed =
        include_bytes!("../../fuzz/artifacts-found/shell_parse/oom-heredoc-formfeed-tag");
    let text = String::from_utf8_lossy(heredoc_formfeed);
    assert!(matches!(
        parse(&text),
        Err(ShellError::ControlCharacter('\u{c}'))
    ));
    for c in ['\u{b}', '\0', '\u{1b}', '\u{85}'] {
        assert!(
            matches!(
                parse(&format!("cat <<{c} x")),
                Err(ShellError::ControlCharacter(_))
            ),
            "{c:?}"
        );
    }
    let parens = include_bytes!("../../fuzz/artifacts-found/shell_parse/timeout-nested-parens");
    assert!(matches!(
        parse(&String::from_utf8_lossy(parens)),
        Err(ShellError::TooDeep)
    ));
    // Numbers the parser underneath would overflow on (it unwraps their parse).
    let fd = include_bytes!("../../fuzz/artifacts-found/shell_parse/panic-fd-number-overflow");
    assert!(matches!(
        parse(&String::from_utf8_lossy(fd)),
        Err(ShellError::NumberTooLong)
    ));
    for text in [
        "echo 99999999999>x",
        "echo {1..9999999999999999999999}",
        "cd ~+99999999999999999999999",
        "cd ~-99999999999999999999999",
    ] {
        assert!(
            matches!(parse(text), Err(ShellError::NumberTooLong)),
            "{text}"
        );
    }
    assert!(parse("echo 2>/dev/null 123456789>x; sleep 100000000000000000").is_ok());
    // Tabs and line ends stay ordinary.
    assert!(parse("ls\t-la\r\nls").is_ok());
    assert!(
        started.elapsed() < std::time::Duration::from_secs(5),
        "refused quickly: {:?}",
        started.elapsed()
    );
}
