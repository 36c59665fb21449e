//! Programs that copy, move, create or filter files: which paths they read and which they write.

use std::path::{Path, PathBuf};

use warrant_core::decision::Risk;

use warrant_core::evaluator::Stance;

use super::judge::{Judge, has_flag, positional};
use super::programs::reads;
use crate::policy::codes::{SHELL_NETWORK, SHELL_PRIVILEGED};
use crate::policy::finding::quote;
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
    // `mknod NAME b|c|u MAJOR MINOR` makes a door to a device (a disk, kernel memory): what
    // is read or written through it is the device's, wherever the node is. A FIFO (`p`) is
    // only a file.
    if program == "mknod" && pos.get(1).is_none_or(|t| t.literal() != Some("p")) {
        let reason = format!(
            "{} creates a device node, through which a later read or write reaches the device.",
            quote(cmd)
        );
        j.add(Stance::RequireAsk, SHELL_PRIVILEGED, Risk::Critical, reason);
    }
    let (sources, dests): (Vec<&Word>, Vec<&Word>) = match target_dir {
        Some(dir) => (pos, vec![dir]),
        None if moves && pos.len() > 1 => {
            let dest = pos.pop().into_iter().collect();
            (pos, dest)
        }
        None => (Vec::new(), pos),
    };
    for &s in &sources {
        if program == "mv" {
            j.write(cmd, s, Some(false));
            // Moving a directory away moves the configuration it holds (`mv .claude x`).
            j.protected_tree(cmd, s, false);
        } else {
            j.read(cmd, s);
        }
    }
    let recursive = program == "mv"
        || args.iter().filter_map(Word::literal).any(|t| {
            matches!(t, "--recursive" | "--archive")
                || (t.starts_with('-') && !t.starts_with("--") && t.contains(['r', 'R', 'a']))
        });
    for d in &dests {
        j.write(cmd, d, None);
        landing(j, cmd, &sources, d, recursive);
    }
    if cmd.extra_args {
        j.write_inside(cmd, "changes paths only known when it runs", Risk::High);
    }
}

/// The files a copy, move or link of `sources` into the directory `dest` creates: `dest`
/// joined with each source's name (`cp x/settings.json .claude` writes
/// `.claude/settings.json`), and for a tree every file below it; a tree whose files are not
/// known may create any name below.
pub(super) fn landing(
    j: &mut Judge<'_>,
    cmd: &SimpleCommand,
    sources: &[&Word],
    dest: &Word,
    recursive: bool,
) {
    let Some(dir) = dest.literal() else { return };
    let dir = dir.trim_end_matches('/');
    let dir = if dir.is_empty() { "/" } else { dir };
    for source in sources {
        let Some(text) = source.literal() else {
            // A source only known when it runs may have any name.
            j.protected_tree(cmd, dest, recursive);
            continue;
        };
        let trimmed = text.trim_end_matches('/');
        let name = trimmed.rsplit('/').next().unwrap_or(trimmed);
        // `cp -r src/. dest`, `rsync src/ dest`: the contents land in `dest` itself.
        let contents = matches!(name, "" | "." | "..") || (text.ends_with('/') && recursive);
        let landed = if contents {
            dir.to_owned()
        } else {
            format!("{dir}/{name}")
        };
        if !contents {
            j.write(cmd, &Word::literal_text(landed.clone()), None);
        }
        if !recursive {
            continue;
        }
        if text.contains(['*', '?', '[', '{']) {
            j.protected_tree(cmd, &Word::literal_text(landed), true);
            continue;
        }
        let located = j.places.locate(text, &cmd.cwd);
        if !located.path.is_dir() {
            continue;
        }
        // Every file of the tree, under both names it may land as (`dest` new or existing).
        let mut files = Vec::new();
        if tree_files(&located.path, Path::new(""), &mut files).is_err() {
            j.protected_tree(cmd, &Word::literal_text(landed), true);
            continue;
        }
        for rel in files {
            for base in [landed.as_str(), dir] {
                let path = format!("{base}/{}", rel.display());
                let placed = j.places.locate(&path, &cmd.cwd);
                if j.places.protected(&placed, &path, &cmd.cwd).is_some() {
                    j.write(cmd, &Word::literal_text(path), None);
                }
            }
        }
    }
}

/// `rsync [OPTION…] SOURCE… DEST`: the files it creates in a local `DEST`; a copy to or from
/// another machine talks to it.
pub(super) fn rsync(j: &mut Judge<'_>, cmd: &SimpleCommand) {
    let args = cmd.args();
    let pos: Vec<&Word> = args
        .iter()
        .filter(|w| w.literal().is_none_or(|t| !t.starts_with('-')))
        .collect();
    let remote = pos
        .iter()
        .any(|w| w.literal().is_none_or(|t| t.contains(':')));
    let recursive = args.iter().filter_map(Word::literal).any(|t| {
        matches!(t, "--recursive" | "--archive")
            || (t.starts_with('-') && !t.starts_with("--") && t.contains(['r', 'a']))
    });
    // `--delete*` deletes what the destination holds beyond the sources, up to all of it;
    // `--remove-source-files` deletes every file sent: judged as deleting those trees.
    let options = || args.iter().filter_map(Word::literal);
    let deletes_dest = options().any(|t| t.starts_with("--del"));
    let deletes_sources =
        options().any(|t| t.starts_with("--remove-source") || t.starts_with("--remove-sent"));
    if let Some((dest, sources)) = pos.split_last()
        && !sources.is_empty()
    {
        for s in sources {
            j.read(cmd, s);
            if deletes_sources {
                j.write(cmd, s, Some(recursive));
            }
        }
        j.write(cmd, dest, deletes_dest.then_some(true));
        landing(j, cmd, sources, dest, recursive);
    }
    if remote {
        let reason = format!("{} copies files to or from another machine.", quote(cmd));
        j.add(Stance::DefaultAsk, SHELL_NETWORK, Risk::High, reason);
    }
    j.write_inside(cmd, "synchronizes files", Risk::High);
}

/// The paths of the files of the tree at `dir`, relative to it (below `rel`); an error when
/// there are more than a few thousand or the tree cannot be read.
fn tree_files(dir: &Path, rel: &Path, out: &mut Vec<PathBuf>) -> Result<(), ()> {
    for entry in std::fs::read_dir(dir).map_err(|_| ())? {
        let entry = entry.map_err(|_| ())?;
        if out.len() >= 5_000 {
            return Err(());
        }
        let name = rel.join(entry.file_name());
        let kind = entry.file_type().map_err(|_| ())?;
        if kind.is_dir() {
            out.push(name.clone());
            tree_files(&entry.path(), &name, out)?;
        } else {
            out.push(name);
        }
    }
    Ok(())
}

/// `unzip ARCHIVE [MEMBER…] [-x EXCLUDED…] [-d DIR]`: the members named are written into
/// `DIR`; without names any file may be.
pub(super) fn unzip(j: &mut Judge<'_>, cmd: &SimpleCommand) {
    let args = cmd.args();
    let mut dir: Option<Word> = None;
    let mut pos: Vec<&Word> = Vec::new();
    let (mut i, mut excluded) = (0, false);
    while let Some(w) = args.get(i) {
        i += 1;
        match w.literal() {
            Some("-d") => {
                dir = args.get(i).cloned();
                i += 1;
            }
            Some("-x") => excluded = true,
            Some(t) if t.starts_with("-d") && t.len() > 2 => {
                dir = Some(Word::literal_text(&t[2..]));
            }
            Some(t) if t.starts_with('-') => {}
            _ if excluded => {}
            _ => pos.push(w),
        }
    }
    if let Some(archive) = pos.first() {
        j.read(cmd, archive);
    }
    let dir = dir.unwrap_or_else(|| Word::literal_text("."));
    let named = pos.get(1..).unwrap_or_default();
    if named.is_empty() {
        j.protected_tree(cmd, &dir, false);
        return j.extract_tree(cmd, &dir);
    }
    j.write(cmd, &dir, None);
    let base = dir
        .literal()
        .unwrap_or(".")
        .trim_end_matches('/')
        .to_owned();
    for m in named {
        match m.literal() {
            Some(t) => j.write(cmd, &Word::literal_text(format!("{base}/{t}")), None),
            None => j.protected_tree(cmd, &dir, true),
        }
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

/// Reads tar's options the way GNU tar does (old-style letters first, clusters with attached
/// or following values, long options by any unambiguous beginning): where it extracts
/// (`-C`, `--directory`), whether member names may be absolute (`-P`), and the members named.
pub(super) fn tar(j: &mut Judge<'_>, cmd: &SimpleCommand) {
    let args = cmd.args();
    let first = args.first().and_then(Word::literal).unwrap_or_default();
    let listing = has_flag(args, 't', "--list") || (!first.starts_with('-') && first.contains('t'));
    if listing {
        // A listing the program table does not prove harmless (its options run programs).
        return j.read_only(cmd);
    }
    let long = |t: &str, name: &str| t.len() >= 5 && name.starts_with(t);
    // Each `-C DIR` is relative to the one before (an absolute one starts again); a directory
    // only known when it runs stays unknown whatever follows it.
    let fold = |dir: &mut Option<Word>, value: Option<Word>| {
        let Some(value) = value else {
            return;
        };
        *dir = match (dir.take(), value.literal()) {
            (Some(prev), Some(t)) if !t.starts_with(['/', '~']) => match prev.literal() {
                Some(p) => Some(Word::literal_text(format!(
                    "{}/{t}",
                    p.trim_end_matches('/')
                ))),
                None => Some(prev),
            },
            _ => Some(value),
        };
    };
    let mut dir: Option<Word> = None;
    let mut absolute = false;
    let mut pos: Vec<&Word> = Vec::new();
    let mut i = 0;
    while let Some(w) = args.get(i) {
        i += 1;
        let Some(t) = w.literal() else {
            pos.push(w);
            continue;
        };
        if t == "--" {
            pos.extend(&args[i..]);
            break;
        }
        if let Some(rest) = t.strip_prefix("--") {
            let (name, value) = match rest.split_once('=') {
                Some((n, v)) => (format!("--{n}"), Some(Word::literal_text(v))),
                None => (t.to_owned(), None),
            };
            if long(&name, "--directory") {
                fold(&mut dir, value.or_else(|| args.get(i).cloned()));
                i += usize::from(!t.contains('='));
            } else if long(&name, "--one-top-level") && value.is_some() {
                // Members go into this directory, under the `-C` one (or anywhere, absolute).
                fold(&mut dir, value);
            } else if long(&name, "--file") && !t.contains('=') {
                i += 1;
            } else if long(&name, "--absolute-names") {
                absolute = true;
            }
            continue;
        }
        // A cluster (`-xvf`, `-C/`), or old-style letters as the first word (`xfC a.tar /`),
        // whose values follow in order.
        let old_style = i == 1 && !t.starts_with('-');
        if !(old_style || t.starts_with('-')) {
            pos.push(w);
            continue;
        }
        let letters = t.trim_start_matches('-');
        for (k, c) in letters.char_indices() {
            match c {
                'P' => absolute = true,
                'f' | 'C' => {
                    let attached = &letters[k + 1..];
                    let value = if !old_style && !attached.is_empty() {
                        Some(Word::literal_text(attached))
                    } else {
                        i += 1;
                        args.get(i - 1).cloned()
                    };
                    if c == 'C' {
                        fold(&mut dir, value);
                    }
                    if !old_style {
                        break;
                    }
                }
                _ => {}
            }
        }
    }
    let extracting = has_flag(args, 'x', "--extract")
        || args.iter().any(|w| w.literal() == Some("--get"))
        || (!first.starts_with('-') && first.contains('x'));
    // `--remove-files` deletes every file it archives: the operands are deleted trees.
    let removes = args.iter().filter_map(Word::literal).any(|t| {
        t.strip_prefix("--")
            .is_some_and(|n| n.len() >= 3 && "remove-files".starts_with(n))
    });
    if removes && !extracting {
        let base = dir.as_ref().and_then(Word::literal).unwrap_or(".");
        for w in &pos {
            match w.literal() {
                Some(t) if !t.starts_with(['/', '~']) && base != "." => {
                    let member = Word::literal_text(format!("{}/{t}", base.trim_end_matches('/')));
                    j.write(cmd, &member, Some(true));
                }
                _ => j.write(cmd, w, Some(true)),
            }
        }
    }
    if !extracting {
        pos.clear();
    }
    let here = Word::literal_text(".");
    let into = dir.as_ref().unwrap_or(&here);
    // Members named on the line are written where they are extracted.
    let base = into.literal().unwrap_or(".").trim_end_matches('/');
    for m in &pos {
        match m.literal() {
            Some(t) => {
                let member = Word::literal_text(format!("{base}/{t}"));
                j.protected_tree(cmd, &member, false);
                j.write(cmd, &member, None);
            }
            None => j.protected_tree(cmd, into, true),
        }
    }
    if extracting && absolute {
        // Absolute member names are written where they say, anywhere.
        return j.extract_tree(cmd, &Word::literal_text("/"));
    }
    if extracting {
        j.protected_tree(cmd, into, false);
        if pos.is_empty() || pos.iter().any(|m| m.literal().is_none()) {
            return j.extract_tree(cmd, into);
        }
    }
    match &dir {
        Some(d) => j.write(cmd, d, None),
        None => j.write_inside(cmd, "creates or extracts an archive", Risk::Medium),
    }
}
