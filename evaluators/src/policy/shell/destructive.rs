//! Commands that can destroy: deleting, changing permissions, writing devices, killing every
//! process, and running code downloaded from the network.

use warrant_core::decision::Risk;
use warrant_core::evaluator::Stance;

use super::judge::{Judge, has_flag, positional};
use super::programs::DOWNLOADERS;
use crate::paths::Place;
use crate::shell::{INTERPRETERS, SimpleCommand, Word};

/// `rm`, `rmdir`, `unlink`, `shred`: every target is deleted; `-r` deletes trees.
pub(super) fn remove(j: &mut Judge<'_>, cmd: &SimpleCommand) {
    let args = cmd.args();
    if args
        .iter()
        .any(|a| a.literal() == Some("--no-preserve-root"))
    {
        return j.destructive(cmd, "turns off the protection of the filesystem root");
    }
    let recursive = cmd.program() == Some("rm")
        && (has_flag(args, 'r', "--recursive") || has_flag(args, 'R', "--recursive"));
    for target in positional(args) {
        j.write(cmd, target, Some(recursive));
    }
    if cmd.extra_args {
        // `… | xargs rm -rf`: the trees deleted come from the input, which may name `~` or `/`.
        if recursive
            && cmd.parent.is_some()
            && !xargs_input_is_literal_inside(j, cmd)
            && j.script.commands.iter().any(|c| c == cmd)
        {
            return j.destructive(
                cmd,
                "deletes trees named by its input, which may lie outside the workspace",
            );
        }
        let risk = if recursive { Risk::High } else { Risk::Medium };
        j.write_inside(cmd, "deletes paths only known when it runs", risk);
    }
}

/// Why a command whose program is only known when it runs (`$(echo rm) -rf /`, `$a -rf ~`)
/// is destructive, if it is: with `rm`'s recursive flag it would delete a tree outside the
/// workspace, the root or the home directory were the program `rm`.
pub(super) fn unnamed_remove(j: &Judge<'_>, cmd: &SimpleCommand) -> Option<String> {
    if cmd.words.first().is_none_or(|w| w.literal().is_some()) {
        return None;
    }
    let args = cmd.args();
    if !(has_flag(args, 'r', "--recursive") || has_flag(args, 'R', "--recursive")) {
        return None;
    }
    let mut as_rm = cmd.clone();
    as_rm.words[0] = Word::literal_text("rm");
    let mut scratch = Judge {
        places: j.places,
        script: j.script,
        findings: Vec::new(),
        unmodeled: Some(String::new()),
    };
    remove(&mut scratch, &as_rm);
    scratch
        .findings
        .iter()
        .any(|f| f.stance == Stance::HardDeny)
        .then(|| {
            "runs a program named only when it runs with `rm -r`-like arguments on a tree \
             outside the workspace"
                .to_owned()
        })
}

/// Whether the paths `xargs` appends to the command come only from a literal list of paths
/// inside the workspace (`printf '%s\n' a b | xargs rm -rf`).
fn xargs_input_is_literal_inside(j: &Judge<'_>, cmd: &SimpleCommand) -> bool {
    let Some((_, xargs)) = j
        .script
        .ancestors(
            j.script
                .commands
                .iter()
                .position(|c| c == cmd)
                .unwrap_or(usize::MAX),
        )
        .find(|(_, c)| c.program() == Some("xargs"))
    else {
        return false;
    };
    let from_file = xargs.args().iter().any(|w| {
        w.literal()
            .is_none_or(|t| t.starts_with("-a") || t.starts_with("--arg-file"))
    });
    if from_file || !xargs.redirects.is_empty() || xargs.feeds.is_empty() {
        return false;
    }
    xargs.feeds.iter().all(|&i| {
        let Some(feed) = j.script.commands.get(i) else {
            return false;
        };
        let words = match feed.program() {
            Some("echo") => feed.args(),
            Some("printf") => feed.args().get(1..).unwrap_or(&[]),
            _ => return false,
        };
        feed.redirects.is_empty()
            && words.iter().all(|w| {
                w.literal().is_some_and(|t| {
                    !t.contains(['*', '?', '[', '~', '$'])
                        && !t.starts_with('-')
                        && t.split_whitespace().all(|p| {
                            let l = j.places.locate(p, &feed.cwd);
                            l.place == Place::Inside && l.path != j.places.root()
                        })
                })
            })
    })
}

/// `chmod`, `chown`, `chgrp`: the first positional is the mode or owner; `-R` reaches trees.
pub(super) fn permissions(j: &mut Judge<'_>, cmd: &SimpleCommand) {
    let args = cmd.args();
    let recursive = has_flag(args, 'R', "--recursive");
    let by_reference = args
        .iter()
        .filter_map(Word::literal)
        .any(|t| t.starts_with("--reference"));
    let pos = positional(args);
    let skip = usize::from(!by_reference && !pos.is_empty());
    for target in &pos[skip..] {
        j.write(cmd, target, recursive.then_some(true));
    }
    if cmd.extra_args {
        j.write_inside(
            cmd,
            "changes permissions of paths only known when it runs",
            Risk::High,
        );
    }
}

/// `dd`: `of=` is written (a device means a wiped disk), `if=` is read.
pub(super) fn dd(j: &mut Judge<'_>, cmd: &SimpleCommand) {
    let mut wrote = false;
    for w in cmd.args() {
        let Some(text) = w.literal() else {
            j.unknown(
                cmd,
                "copies data to or from a place only known when it runs",
                Risk::High,
            );
            continue;
        };
        if let Some(out) = text.strip_prefix("of=") {
            j.write(cmd, &Word::literal_text(out), None);
            wrote = true;
        } else if let Some(input) = text.strip_prefix("if=") {
            j.read(cmd, &Word::literal_text(input));
        }
    }
    if !wrote {
        j.read_only(cmd);
    }
}

/// `kill -9 -1` and `killall5` stop every process; other signals ask.
pub(super) fn kill(j: &mut Judge<'_>, cmd: &SimpleCommand) {
    let everything =
        cmd.program() == Some("kill") && cmd.args().iter().any(|w| w.literal() == Some("-1"));
    if everything {
        j.destructive(cmd, "stops every process");
    } else {
        j.unknown(cmd, "stops processes", Risk::Medium);
    }
}

/// `find` reads its roots; `-delete` deletes what it finds, `-fprint FILE` writes FILE.
/// What `-exec` runs follows in the script and is judged on its own.
pub(super) fn find(j: &mut Judge<'_>, cmd: &SimpleCommand) {
    let args = cmd.args();
    let is_expr = |w: &Word| {
        w.literal()
            .is_some_and(|t| t.starts_with('-') || t == "(" || t == "!" || t == ",")
    };
    let roots: Vec<&Word> = args.iter().take_while(|w| !is_expr(w)).collect();
    let dot = Word::literal_text(".");
    let roots = if roots.is_empty() { vec![&dot] } else { roots };
    let before = j.findings.len();
    let deletes = args.iter().any(|w| w.literal() == Some("-delete"));
    for root in &roots {
        if deletes {
            j.write(cmd, root, Some(true));
        } else {
            j.read(cmd, root);
        }
    }
    for (i, w) in args.iter().enumerate() {
        if matches!(
            w.literal(),
            Some("-fprint" | "-fprint0" | "-fprintf" | "-fls")
        ) && let Some(file) = args.get(i + 1)
        {
            j.write(cmd, file, None);
        }
    }
    if j.findings.len() == before {
        j.read_only(cmd);
    }
}

/// Whether the command runs code that a downloader fed it: `curl … | sh`,
/// `bash <(wget …)`, `sh -c "$(curl …)"`, `eval "$(curl …)"`.
pub(super) fn runs_downloaded_code(j: &Judge<'_>, cmd: &SimpleCommand) -> bool {
    let fed_by_download = cmd.feeds.iter().any(|&i| {
        j.script
            .commands
            .get(i)
            .and_then(SimpleCommand::program)
            .is_some_and(|p| DOWNLOADERS.contains(&p))
    });
    fed_by_download && reads_code_from_outside(cmd)
}

/// Whether the code the command runs comes from its input or from a word built at run time,
/// rather than from a named script file or a literal argument.
fn reads_code_from_outside(cmd: &SimpleCommand) -> bool {
    let Some(program) = cmd.program() else {
        return false;
    };
    let args = cmd.args();
    if matches!(program, "eval" | "source" | ".") {
        return args.iter().any(|w| w.literal().is_none());
    }
    let base = program.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.');
    if !INTERPRETERS.contains(&program) && !INTERPRETERS.contains(&base) {
        return false;
    }
    let mut i = 0;
    while let Some(w) = args.get(i) {
        let Some(text) = w.literal() else { return true };
        let code_flag = matches!(text, "-c" | "-e" | "-E" | "--eval" | "-r" | "-p")
            || (text.starts_with('-') && !text.starts_with("--") && text.ends_with('c'));
        if code_flag {
            return args.get(i + 1).is_none_or(|code| code.literal().is_none());
        }
        if text == "-" || text == "-s" {
            return true;
        }
        if text == "-m" {
            return false;
        }
        if !text.starts_with('-') {
            return false;
        }
        i += 1;
    }
    true
}
