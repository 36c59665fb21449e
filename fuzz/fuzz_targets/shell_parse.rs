//! The shell front end: `warrant_evaluators::shell::parse` (brush-parser plus the lowering
//! into simple commands, wrappers unwrapped), on a thread with a tokio worker's stack.
//!
//! Asserts: no panic and no stack overflow; text over `MAX_COMMAND_BYTES` is `TooLong`;
//! parsing is deterministic; the script's indices are sound: a command's wrapper comes before
//! it and is a wrapper (`wraps`) or the git command running it, feeds and producers name
//! commands that exist, and the wrapper chain ends.
#![no_main]

use libfuzzer_sys::fuzz_target;
use warrant_evaluators::shell::{MAX_COMMAND_BYTES, Script, ShellError, WorkingDir, parse, parse_from};
use warrant_fuzz::on_worker_stack;

fn check(script: &Script, command: &str) {
    let n = script.commands.len();
    for (i, c) in script.commands.iter().enumerate() {
        if let Some(p) = c.parent {
            assert!(p < i, "command {i} is unwrapped from {p}, which does not come before it: {command:?}");
            // A wrapper, or a git command running code it is given (judged itself, so no wrapper).
            let runs_git_code = script.commands[p]
                .program()
                .is_some_and(|name| name == "git" || name.starts_with("git-"));
            assert!(
                script.commands[p].wraps || runs_git_code,
                "command {i}'s parent {p} is neither a wrapper nor git: {command:?}"
            );
        }
        for &f in &c.feeds {
            assert!(f < n, "command {i} is fed by {f} of {n}: {command:?}");
        }
        for w in c.words.iter().chain(c.redirects.iter().map(|r| &r.target)) {
            if let Some(d) = &w.domain {
                for &p in &d.producers {
                    assert!(p < n, "a word of command {i} is produced by {p} of {n}: {command:?}");
                }
            }
        }
        assert_eq!(c.assignments.len(), c.assignment_values.len(), "assignments and values: {command:?}");
        assert!(script.ancestors(i).take(n + 1).count() <= n, "a wrapper cycle: {command:?}");
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(command) = std::str::from_utf8(data) else {
        return;
    };
    let command = command.to_owned();
    on_worker_stack(move || {
        let first = parse(&command);
        if command.len() > MAX_COMMAND_BYTES {
            assert_eq!(first, Err(ShellError::TooLong(command.len())));
            return;
        }
        assert_eq!(parse(&command), first, "parsing is not deterministic: {command:?}");
        if let Ok(script) = &first {
            check(script, &command);
        }
        if let Ok(script) = parse_from(&command, WorkingDir::Unknown) {
            check(&script, &command);
        }
    });
});
