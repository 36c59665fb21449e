//! Programs that copy, move, create or filter files: which paths they read and which they write.

use warrant_core::decision::Risk;

use super::judge::{Judge, has_flag, positional};
use super::programs::reads;
use crate::shell::{SimpleCommand, Word};

/// The options of a writing program that take the next word as their value.
fn value_options(program: &str) -> &'static [&'static str] {
    match program {
        "truncate" => &["-s", "--size", "-r", "--reference"],
        "mkdir" | "mkfifo" | "mknod" => &["-m", "--mode"],
        "install" => &[
            "-m", "--mode", "-o", "--owner", "-g", "--group", "-S", "--suffix",
        ],
        "cp" | "mv" | "ln" => &["-S", "--suffix"],
        "touch" => &["-d", "--date", "-t", "-r", "--reference"],
        _ => &[],
    }
}

pub(super) fn writer(j: &mut Judge<'_>, cmd: &SimpleCommand, program: &str) {
    let args = cmd.args();
    let moves = matches!(program, "cp" | "mv" | "ln" | "install");
    let mut pos: Vec<&Word> = Vec::new();
    let mut target_dir = None;
    let mut i = 0;
    while let Some(w) = args.get(i) {
        i += 1;
        match w.literal() {
            Some("-t" | "--target-directory") if moves => {
                target_dir = args.get(i);
                i += 1;
            }
            Some(t) if value_options(program).contains(&t) => i += 1,
            Some(t) if t.starts_with('-') && t != "-" => {}
            _ => pos.push(w),
        }
    }
    let (sources, dests): (Vec<&Word>, Vec<&Word>) = match target_dir {
        Some(dir) => (pos, vec![dir]),
        None if moves && pos.len() > 1 => {
            let dest = pos.pop().into_iter().collect();
            (pos, dest)
        }
        None => (Vec::new(), pos),
    };
    for s in sources {
        if program == "mv" {
            j.write(cmd, s, Some(false));
        } else {
            j.read(cmd, s);
        }
    }
    for d in dests {
        j.write(cmd, d, None);
    }
    if cmd.extra_args {
        j.write_inside(cmd, "changes paths only known when it runs", Risk::High);
    }
}

pub(super) fn sed(j: &mut Judge<'_>, cmd: &SimpleCommand) {
    let args = cmd.args();
    // `None` stands for a script the text does not show (`-f FILE`, a dynamic word).
    let mut scripts: Vec<Option<&str>> = Vec::new();
    let mut files: Vec<&Word> = Vec::new();
    let (mut in_place, mut explicit, mut options_done) = (false, false, false);
    let mut i = 0;
    while let Some(w) = args.get(i) {
        i += 1;
        let t = match w.literal() {
            Some(t) if !options_done && t.starts_with('-') && t != "-" => t,
            _ => {
                files.push(w);
                continue;
            }
        };
        let short = !t.starts_with("--");
        if t == "--" {
            options_done = true;
        } else if let Some(script) = t.strip_prefix("--expression=") {
            explicit = true;
            scripts.push(Some(script));
        } else if t.starts_with("--file=") {
            explicit = true;
            scripts.push(None);
        } else if t.starts_with("--in-place") || (short && t.contains('i')) {
            // `-i[SUFFIX]`: whatever follows the `i` is a backup suffix.
            in_place = true;
        } else if t == "--expression"
            || t == "--file"
            || (short && (t.ends_with('e') || t.ends_with('f')))
        {
            explicit = true;
            let from_file = t == "--file" || t.ends_with('f');
            scripts.push(args.get(i).and_then(Word::literal).filter(|_| !from_file));
            i += 1;
        }
    }
    if !explicit && !files.is_empty() {
        scripts.push(files.remove(0).literal());
    }
    if in_place {
        for f in files {
            j.write(cmd, f, None);
        }
    } else if scripts.iter().any(|s| s.is_none_or(sed_script_writes)) {
        j.write_inside(
            cmd,
            "writes files or runs commands from its script",
            Risk::High,
        );
    } else {
        reads(j, cmd, &files);
    }
}

/// Whether a sed script writes files (`w`, `W`, an `s///w` flag) or runs commands (`e`).
fn sed_script_writes(script: &str) -> bool {
    script.split(['\n', ';']).any(|command| {
        let c = command.trim_start_matches(|c: char| c.is_ascii_digit() || " ,$!~".contains(c));
        match c.chars().next() {
            Some('w' | 'W' | 'e') => true,
            Some('s') => {
                let Some(delim) = c.chars().nth(1) else {
                    return false;
                };
                let flags = c.splitn(4, delim).nth(3).unwrap_or_default();
                flags.contains(['w', 'e'])
            }
            _ => false,
        }
    })
}

pub(super) fn awk(j: &mut Judge<'_>, cmd: &SimpleCommand) {
    let args = cmd.args();
    let pos = positional(args);
    let from_file = has_flag(args, 'f', "--file");
    let program = if from_file {
        None
    } else {
        pos.first().and_then(|w| w.literal())
    };
    let risky = program.is_none_or(|p| {
        ["system", "getline", ">", "|"]
            .iter()
            .any(|s| p.contains(s))
    });
    if risky {
        return j.unknown(
            cmd,
            "runs an awk program that may write files or run commands",
            Risk::Medium,
        );
    }
    reads(j, cmd, &pos[1..]);
}

pub(super) fn sort(j: &mut Judge<'_>, cmd: &SimpleCommand) {
    let args = cmd.args();
    if args
        .iter()
        .filter_map(Word::literal)
        .any(|t| t.starts_with("--compress-program"))
    {
        return j.unknown(cmd, "runs a compression program it is given", Risk::Medium);
    }
    let mut out = None;
    for (i, w) in args.iter().enumerate() {
        match w.literal() {
            Some("-o" | "--output") => out = args.get(i + 1),
            Some(t) if t.starts_with("--output=") => out = Some(w),
            _ => {}
        }
    }
    match out {
        Some(file) => {
            let target = file
                .literal()
                .and_then(|t| t.strip_prefix("--output="))
                .map(Word::literal_text);
            j.write(cmd, target.as_ref().unwrap_or(file), None);
        }
        None => reads(j, cmd, &positional(args)),
    }
}

pub(super) fn tar(j: &mut Judge<'_>, cmd: &SimpleCommand) {
    let args = cmd.args();
    let first = args.first().and_then(Word::literal).unwrap_or_default();
    let listing = has_flag(args, 't', "--list") || (!first.starts_with('-') && first.contains('t'));
    if listing {
        // A listing the program table does not prove harmless (its options run programs).
        return j.read_only(cmd);
    }
    let mut dir = None;
    for (i, w) in args.iter().enumerate() {
        if matches!(w.literal(), Some("-C" | "--directory")) {
            dir = args.get(i + 1);
        }
    }
    match dir {
        Some(d) => j.write(cmd, d, None),
        None => j.write_inside(cmd, "creates or extracts an archive", Risk::Medium),
    }
}
