//! A second look at the names a script writes and reads, for what they reach beyond their
//! spelling: globs and braces the shell expands into other names, names an earlier part of
//! the script made links to (or moved, or copied with their links), `file:` URLs, the views
//! of other processes' files under `/proc`, and git work trees outside the workspace.
//!
//! Each part is judged again with the paths it stands for, and only what binds in every mode
//! is kept: a hard deny found that way, or a binding ask when what a name stands for cannot
//! be told. Everything else was judged already.

use std::path::{Path, PathBuf};

use warrant_core::decision::Risk;
use warrant_core::evaluator::Stance;

use super::judge::{Judge, braces_only, expand_braces};
use crate::paths::{Place, Places};
use crate::policy::codes::{SHELL_DESTRUCTIVE, SHELL_UNKNOWN_COMMAND, SHELL_WRITE};
use crate::policy::finding::{Finding, quote};
use crate::shell::{Redirect, RedirectKind, SimpleCommand, Word, WorkingDir};

/// The most names one glob word is replaced by in one judgment; more are judged in turns.
const CHUNK: usize = 256;

/// The most judgments of one command this look makes; past it the call is a binding ask.
const MAX_VARIANTS: usize = 64;

/// Programs that print their arguments and touch no file named by them.
const PRINTERS: &[&str] = &["echo", "printf", ":", "true", "false", "test", "[", "[["];

/// Programs that create, change or delete the files they are given.
const WRITERS: &[&str] = &[
    "tee", "cp", "mv", "ln", "link", "install", "touch", "truncate", "mkdir", "rm", "rmdir",
    "unlink", "shred", "chmod", "chown", "chgrp", "sed", "perl", "dd", "rsync", "tar", "unzip",
    "patch", "sort", "curl", "wget",
];

/// Looks again at every part of the script (see the module's documentation).
pub(super) fn judge(j: &mut Judge<'_>) {
    let made = made_names(j);
    for (index, cmd) in j.script.commands.iter().enumerate() {
        globs(j, cmd);
        through_made(j, index, cmd, &made);
        file_urls(j, cmd);
        process_views(j, cmd);
        work_tree(j, cmd);
        tree_copies(j, cmd);
        input_writes(j, cmd);
        run_time_writes(j, cmd);
        unknown_writes(j, cmd);
        downloads(j, cmd);
        split_options(j, cmd);
        domain_trees(j, cmd);
    }
}

/// A tree read from a root only known when it runs whose values are known (`d=.; grep -r x
/// "$d"`, `for d in src ~; do grep -r x "$d"; done`, `grep -r x $(echo .)`, `tar czf a.tgz
/// "$d"`) is read as the tree of each value: the first look reads each value as one path,
/// not as a tree. Every finding of those readings counts, settled by the mode or not.
fn domain_trees(j: &mut Judge<'_>, cmd: &SimpleCommand) {
    let reads_trees = match j.script.model_of(cmd).as_ref() {
        crate::programs::Model::Modeled(e) => !e.trees.is_empty(),
        crate::programs::Model::Unmodeled(_) => false,
    } || copies_tree(cmd);
    if !reads_trees {
        return;
    }
    let mut variants = Vec::new();
    for (i, word) in cmd.words.iter().enumerate().skip(1) {
        let Some(domain) = word.domain.as_ref().filter(|_| word.literal().is_none()) else {
            continue;
        };
        let mut values = domain.values.clone();
        for &p in &domain.producers {
            let outputs = match super::producer::domain_outputs(j.script, cmd, p, domain) {
                Ok(o) => o,
                Err(why) => {
                    let reason = format!(
                        "reads every file under `{}`, trees printed by a command that {why}",
                        word.raw
                    );
                    j.unknown(cmd, &reason, Risk::Medium);
                    continue;
                }
            };
            for out in outputs {
                match out {
                    super::producer::Output::Value(v) | super::producer::Output::Listed(v) => {
                        values.push(v);
                    }
                    super::producer::Output::Tree { root, cwd, .. } if cwd == cmd.cwd => {
                        values.push(root);
                    }
                    super::producer::Output::Tree { .. } => {
                        let reason = format!(
                            "reads every file under `{}`, trees printed in another directory",
                            word.raw
                        );
                        j.unknown(cmd, &reason, Risk::Medium);
                    }
                }
            }
        }
        for v in values {
            let mut variant = cmd.clone();
            variant.words[i] = Word::literal_text(v);
            variants.push(variant);
        }
    }
    if variants.len() > MAX_VARIANTS {
        let why = "reads every file under more trees only known when it runs than can be checked";
        return j.unknown(cmd, why, Risk::Medium);
    }
    let mut found = Vec::new();
    for variant in &variants {
        let mut scratch = Judge {
            places: j.places,
            script: j.script,
            findings: Vec::new(),
            unmodeled: None,
            digest: false,
        };
        super::programs::judge(&mut scratch, variant);
        tree_copies(&mut scratch, variant);
        found.extend(
            scratch
                .findings
                .into_iter()
                .filter(|f| f.stance != Stance::PolicyAllow),
        );
    }
    for f in found {
        j.add_once(f.stance, f.code, f.risk, f.reason);
    }
}

/// The names `cmd` writes: its redirections' targets, and what the program table says it
/// writes; for a writer the table does not model, its operands (`dd`'s `of=`).
fn written_words(script: &crate::shell::Script, cmd: &SimpleCommand) -> Vec<Word> {
    let mut out: Vec<Word> = cmd
        .redirects
        .iter()
        .filter(|r| r.kind == RedirectKind::Write)
        .map(|r| r.target.clone())
        .collect();
    match script.model_of(cmd).as_ref() {
        crate::programs::Model::Modeled(e) => out.extend(e.writes.iter().cloned()),
        crate::programs::Model::Unmodeled(_) => match cmd.program() {
            Some("dd") => out.extend(
                cmd.args()
                    .iter()
                    .filter(|w| w.raw.starts_with("of="))
                    .cloned(),
            ),
            Some(p @ ("curl" | "wget")) => match download_targets(p, cmd) {
                Ok(words) => out.extend(words),
                Err(_) => out.extend(cmd.args().iter().filter(|w| w.literal().is_none()).cloned()),
            },
            Some(p @ ("sed" | "perl")) => out.extend(edited_in_place(p, cmd)),
            Some(p) if WRITERS.contains(&p) => {
                out.extend(
                    cmd.args()
                        .iter()
                        .filter(|w| !w.prefix.starts_with('-'))
                        .cloned(),
                );
            }
            _ => {}
        },
    }
    out
}

use crate::programs::table::Output as Effect;

/// The options of downloader `program` whose value is the next word (the table's).
fn valued(program: &str) -> &'static [&'static str] {
    crate::programs::table::downloader(program).map_or(&[], |d| d.valued)
}

/// The effect of a downloader's option on what it writes, by its full name, if any (the
/// table's).
fn effect(program: &str, option: &str) -> Option<Effect> {
    crate::programs::table::downloader(program)?
        .outputs
        .iter()
        .find(|(o, _)| *o == option)
        .map(|(_, e)| *e)
}

/// The long options of a downloader that change what it writes (see [`effect`]).
fn writing_long_options(program: &str) -> impl Iterator<Item = &'static str> {
    crate::programs::table::downloader(program)
        .map_or(&[][..], |d| d.outputs)
        .iter()
        .map(|(o, _)| *o)
        .filter(|o| o.starts_with("--"))
}

/// The full name of long option `name` (`--output-doc` is `--output-document`, as both
/// programs take an unambiguous abbreviation); `Err` when it abbreviates more than one
/// option that writes, or one that writes and others.
fn long_name(program: &str, name: &str) -> Result<String, ()> {
    let valued = valued(program);
    if writing_long_options(program).any(|o| o == name) || valued.contains(&name) {
        return Ok(name.to_owned());
    }
    let hits: Vec<&str> = writing_long_options(program)
        .filter(|o| o.starts_with(name))
        .collect();
    match hits.as_slice() {
        [] => Ok(name.to_owned()),
        [one] if !valued.iter().any(|o| o.starts_with(name) && o != one) => Ok((*one).to_owned()),
        _ => Err(()),
    }
}

/// The file name a download of `url` is saved under by its name (`curl -O`, `wget`), if it
/// can be told: the last part of its path, without a query.
fn remote_name(program: &str, url: &str) -> Option<String> {
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    let path = rest.split(['?', '#']).next().unwrap_or_default();
    let path = path.split_once('/').map_or("", |(_, p)| p);
    let name = path.rsplit('/').next().unwrap_or_default();
    if name.contains(['%', '[', ']', '{', '}', '\\']) || name == "." || name == ".." {
        return None;
    }
    match name {
        "" if program == "wget" => Some("index.html".to_owned()),
        "" => None,
        n => Some(n.to_owned()),
    }
}

/// An option whose value holds an unquoted expansion (`sort -o$HOME/.bashrc`, `cp a
/// --target-directory=$HOME/.ssh`) is one word only if the value holds no blank or glob when
/// it runs: the first look does not read it. It is judged with the value as one word, and
/// when that option writes, what it writes is only known when it runs: a binding ask.
fn split_options(j: &mut Judge<'_>, cmd: &SimpleCommand) {
    let mut variants = Vec::new();
    for (slot, w) in cmd.words.iter().enumerate().skip(1) {
        // The option's name: up to `=`, or its letter (`-o`).
        let head = |t: &str| match t.split_once('=') {
            Some((h, _)) if h.starts_with("--") => Some(format!("{h}=")),
            _ if !t.starts_with("--") => t.get(..2).map(str::to_owned),
            _ => None,
        };
        let (text, head) = match w.literal() {
            Some(t) if crate::programs::may_split(w) && t.len() > 2 => (Some(t), head(t)),
            None => (
                None,
                head(&w.prefix).filter(|_| w.prefix.len() > 2 || !w.prefix.starts_with("--")),
            ),
            Some(_) => continue,
        };
        let Some(head) = head.filter(|h| h.len() >= 2 && h.starts_with('-')) else {
            continue;
        };
        // The option writes its value when a protected name there is a hard deny.
        let mut probe = cmd.clone();
        probe.words[slot] = Word::literal_text(format!("{head}.git/hooks/pre-commit"));
        if !hard_denies(j, &probe).is_empty() {
            binding_ask(
                j,
                cmd,
                SHELL_WRITE,
                &format!(
                    "writes `{}`, a name only known when it runs, which may be protected configuration",
                    w.raw
                ),
            );
        }
        if let Some(t) = text {
            let mut v = cmd.clone();
            v.words[slot] = Word::literal_text(t);
            variants.push(v);
        }
    }
    keep_binding(j, &variants);
}

/// What `curl` or `wget` writes ([`download_targets`]) is judged as a write of each name,
/// and what binds of that is kept; when it cannot be told, a binding ask.
fn downloads(j: &mut Judge<'_>, cmd: &SimpleCommand) {
    let Some(program @ ("curl" | "wget")) = cmd.program() else {
        return;
    };
    match download_targets(program, cmd) {
        Err(why) => binding_ask(
            j,
            cmd,
            SHELL_WRITE,
            &format!("writes names it is given {why}, which may be protected configuration"),
        ),
        Ok(words) => {
            let mut scratch = Judge {
                places: j.places,
                script: j.script,
                findings: Vec::new(),
                unmodeled: None,
                digest: false,
            };
            // A relative name is also judged where the text puts it: the working directory
            // may not be there yet (`mkdir -p d && cd d && curl -O …`).
            let mut at_root = cmd.clone();
            at_root.cwd = WorkingDir::Root;
            for w in words
                .iter()
                .filter(|w| w.literal().is_some_and(|t| t != "-"))
            {
                scratch.write(cmd, w, None);
                let placed = w
                    .literal()
                    .filter(|t| !t.starts_with(['/', '~']))
                    .and_then(|t| lexical(j.places, t, &cmd.cwd));
                if let Some(path) = placed {
                    let path = Word::literal_text(path.display().to_string());
                    scratch.write(&at_root, &path, None);
                }
            }
            for f in scratch.findings {
                if matches!(f.stance, Stance::HardDeny | Stance::RequireAsk) {
                    j.add_once(f.stance, f.code, f.risk, f.reason);
                }
            }
        }
    }
}

/// The names `curl` or `wget` writes, read as their option parsers read them: short options
/// clustered (`-sSLo FILE`), a value attached (`-oFILE`, `--output=FILE`) or in the next word,
/// long options abbreviated, names under `--output-dir` or `-P`, and the URL's file name
/// (`curl -O`, `wget` without `-O`). `Err` says why they cannot be told. Words only known when
/// they run are among the names (which may be one).
pub(super) fn download_targets(program: &str, cmd: &SimpleCommand) -> Result<Vec<Word>, String> {
    let args = cmd.args();
    let valued = valued(program);
    let mut files: Vec<String> = Vec::new();
    let mut dir: Option<String> = None;
    let mut remote =
        crate::programs::table::downloader(program).is_some_and(|d| d.saves_by_default);
    let mut named_output = false;
    let mut urls: Vec<String> = Vec::new();
    let mut run_time_urls: Vec<Word> = Vec::new();
    let mut out = Vec::new();
    let mut i = 0;
    let mut options_end = false;
    let apply = |option: &str,
                 value: Option<&str>,
                 files: &mut Vec<String>,
                 dir: &mut Option<String>,
                 remote: &mut bool,
                 named: &mut bool|
     -> Result<(), String> {
        match effect(program, option) {
            Some(Effect::File) => {
                if let Some(v) = value {
                    *named |= matches!(option, "-O" | "--output-document") && program == "wget";
                    files.push(v.to_owned());
                }
            }
            Some(Effect::Dir) => *dir = value.map(str::to_owned),
            Some(Effect::RemoteName) => *remote = true,
            Some(Effect::Unknown) => {
                return Err(format!(
                    "with `{option}`, whose effect on what it writes cannot be told"
                ));
            }
            None => {}
        }
        Ok(())
    };
    while let Some(w) = args.get(i) {
        i += 1;
        let Some(t) = w.literal() else {
            // A word that may be an option is one that may write; a URL only known when it
            // runs (`http://h/$P`) names what is written when saved under its file name.
            if w.prefix.is_empty() || w.prefix.starts_with('-') {
                out.push(w.clone());
            } else {
                run_time_urls.push(w.clone());
            }
            continue;
        };
        if options_end || !t.starts_with('-') || t == "-" {
            urls.push(t.to_owned());
            continue;
        }
        if t == "--" {
            options_end = program == "wget";
            continue;
        }
        if let Some(long) = t.strip_prefix("--") {
            let (name, attached) = match long.split_once('=') {
                Some((n, v)) => (format!("--{n}"), Some(v)),
                None => (format!("--{long}"), None),
            };
            let name = long_name(program, &name)
                .map_err(|()| format!("with `{t}`, an abbreviation of more than one option"))?;
            let value = match attached {
                Some(v) => Some(v.to_owned()),
                None if valued.contains(&name.as_str())
                    || effect(program, &name)
                        .is_some_and(|e| matches!(e, Effect::File | Effect::Dir)) =>
                {
                    let v = args.get(i);
                    i += 1;
                    match v.map(|v| (v, v.literal())) {
                        Some((_, Some(l))) => Some(l.to_owned()),
                        Some((v, None)) => {
                            out.push(v.clone());
                            None
                        }
                        None => None,
                    }
                }
                None => None,
            };
            // `curl --url URL` names a URL as an operand does.
            if name == "--url"
                && program == "curl"
                && let Some(v) = &value
            {
                urls.push(v.clone());
            }
            apply(
                &name,
                value.as_deref(),
                &mut files,
                &mut dir,
                &mut remote,
                &mut named_output,
            )?;
            continue;
        }
        // A cluster of short options: the first that takes a value takes the rest of the
        // word, or the next word.
        for (k, c) in t.char_indices().skip(1) {
            let option = format!("-{c}");
            if valued.contains(&option.as_str()) {
                let rest = &t[k + c.len_utf8()..];
                let value = if rest.is_empty() {
                    let v = args.get(i);
                    i += 1;
                    match v.map(|v| (v, v.literal())) {
                        Some((_, Some(l))) => Some(l.to_owned()),
                        Some((v, None)) => {
                            out.push(v.clone());
                            None
                        }
                        None => None,
                    }
                } else {
                    Some(rest.to_owned())
                };
                apply(
                    &option,
                    value.as_deref(),
                    &mut files,
                    &mut dir,
                    &mut remote,
                    &mut named_output,
                )?;
                break;
            }
            apply(
                &option,
                None,
                &mut files,
                &mut dir,
                &mut remote,
                &mut named_output,
            )?;
        }
    }
    let under = |name: &str| match &dir {
        Some(d) if !name.starts_with('/') && !name.starts_with('~') => {
            format!("{}/{name}", d.trim_end_matches('/'))
        }
        _ => name.to_owned(),
    };
    for f in &files {
        // `wget -P` does not move `-O`, `-o` or `-a`; `curl --output-dir` moves `-o`.
        let f = if program == "curl" && f != "-" {
            under(f)
        } else {
            f.clone()
        };
        out.push(Word::literal_text(f));
    }
    if remote && !(program == "wget" && named_output) {
        out.extend(run_time_urls);
        for url in urls.iter().filter(|u| u.as_str() != "-") {
            let name = remote_name(program, url)
                .ok_or_else(|| format!("saves `{url}` under a name that cannot be told"))?;
            out.push(Word::literal_text(under(&name)));
        }
    }
    Ok(out)
}

/// The files `sed -i` or `perl -i` edits: its operands after the script (`-e CODE` or the
/// first operand), and every word only known when it runs (which may be one).
fn edited_in_place(program: &str, cmd: &SimpleCommand) -> Vec<Word> {
    let args = cmd.args();
    let short = |t: &str, c: char| t.starts_with('-') && !t.starts_with("--") && t.contains(c);
    let in_place = args.iter().any(|w| {
        w.literal()
            .is_none_or(|t| t.starts_with("--in-place") || short(t, 'i'))
    });
    if !in_place {
        return Vec::new();
    }
    let code_given = args
        .iter()
        .filter_map(Word::literal)
        .any(|t| matches!(t, "--expression" | "--file") || short(t, 'e') || short(t, 'f'));
    let mut out = Vec::new();
    let mut script_seen = code_given || program == "perl";
    let mut i = 0;
    while let Some(w) = args.get(i) {
        i += 1;
        match w.literal() {
            // The option's value is code or a script's file: skipped.
            Some(t)
                if t.starts_with('-')
                    && (t.ends_with('e') || t.ends_with('f') || t.ends_with('E'))
                    && !t.starts_with("--") =>
            {
                i += 1;
            }
            Some(t) if t.starts_with('-') => {}
            _ if !script_seen => script_seen = true,
            _ => out.push(w.clone()),
        }
    }
    out
}

/// A written name whose value the text does not tell (`read f; echo x > "$f"`,
/// `"$(cmd)/settings.json"`, `"${f%x}"`), or a relative one written in a directory only known
/// when it runs (`cd "$(…)" && echo x > settings.json`), may be protected configuration: no
/// mode settles it. A relative name written in a directory the script makes first is judged
/// where the text puts it. Names the script's own variables, loops and modeled producers give known
/// values are judged as those values instead ([`run_time_writes`]).
fn unknown_writes(j: &mut Judge<'_>, cmd: &SimpleCommand) {
    let mut variants = Vec::new();
    unplaced_writes(j, cmd, &mut variants);
    for w in written_words(j.script, cmd) {
        if w.literal().is_none() && w.domain.is_none() {
            binding_ask(
                j,
                cmd,
                SHELL_WRITE,
                &format!(
                    "writes `{}`, a name only known when it runs, which may be protected configuration",
                    w.raw
                ),
            );
        }
    }
    keep_binding(j, &variants);
}

/// Relative names `cmd` writes whose place is not known: in a directory an earlier part
/// makes (`mkdir -p .claude && cd .claude`), which is not there yet, each is judged where the
/// text puts it (a variant of `cmd` added to `variants`); in a directory only known when it
/// runs, a binding ask.
fn unplaced_writes(j: &mut Judge<'_>, cmd: &SimpleCommand, variants: &mut Vec<SimpleCommand>) {
    for w in written_words(j.script, cmd) {
        let Some(written) = w.literal() else { continue };
        let t = written.strip_prefix("of=").unwrap_or(written);
        if t.starts_with(['/', '~'])
            || t.is_empty()
            || t == "-"
            || j.places.locate(t, &cmd.cwd).place != Place::Unknown
        {
            continue;
        }
        let made_first = match &cmd.cwd {
            WorkingDir::Dir(d) => {
                lexical(j.places, d, &WorkingDir::Root).is_some_and(|p| !p.exists())
            }
            _ => false,
        };
        match lexical(j.places, t, &cmd.cwd).filter(|_| made_first) {
            Some(path) => {
                let mut v = cmd.clone();
                v.cwd = WorkingDir::Root;
                // The word itself, or an option's value (`of=NAME`).
                for slot in v
                    .words
                    .iter_mut()
                    .skip(1)
                    .chain(v.redirects.iter_mut().map(|r| &mut r.target))
                {
                    let Some(head) = slot.literal().and_then(|l| l.strip_suffix(t)) else {
                        continue;
                    };
                    if head.is_empty() || head.ends_with('=') {
                        *slot = Word::literal_text(format!("{head}{}", path.display()));
                    }
                }
                variants.push(v);
            }
            None => binding_ask(
                j,
                cmd,
                SHELL_WRITE,
                &format!(
                    "writes `{t}` in a directory only known when it runs, which may hold protected configuration"
                ),
            ),
        }
    }
}

/// The most files of a tree a producer prints that are looked at for protected ones.
const MAX_TREE_FILES: usize = 20_000;

/// The protected configuration among the files under `root` whose name matches `names`
/// (all when `None`), if any; `Err` past [`MAX_TREE_FILES`] or for a tree that cannot be
/// read.
fn protected_file_below(
    j: &Judge<'_>,
    root: &str,
    names: Option<&str>,
    cwd: &WorkingDir,
    tracked: bool,
) -> Result<Option<String>, ()> {
    let matcher = match names {
        Some(glob) => Some(
            crate::paths::compile(glob)
                .map_err(|_| ())?
                .compile_matcher(),
        ),
        None => None,
    };
    let start = j.places.locate(root, cwd).path;
    // Files git tracks: the index names them all (the work tree may hold many more).
    if tracked && let Some(files) = crate::paths::git_index::tracked(j.places.root()) {
        for path in files.iter().map(|rel| j.places.root().join(rel)) {
            let named = matcher
                .as_ref()
                .is_none_or(|m| path.file_name().is_some_and(|n| m.is_match(n)));
            let text = path.to_string_lossy();
            if path.starts_with(&start)
                && named
                && j.places
                    .protected(&j.places.locate(&text, cwd), &text, cwd)
                    .is_some()
            {
                return Ok(Some(text.into_owned()));
            }
        }
        return Ok(None);
    }
    let mut stack = vec![start];
    let mut seen = 0usize;
    while let Some(path) = stack.pop() {
        seen += 1;
        if seen > MAX_TREE_FILES {
            return Err(());
        }
        let Ok(meta) = std::fs::symlink_metadata(&path) else {
            continue;
        };
        if meta.is_dir() {
            for entry in std::fs::read_dir(&path).map_err(|_| ())?.flatten() {
                stack.push(entry.path());
            }
            continue;
        }
        let named = matcher
            .as_ref()
            .is_none_or(|m| path.file_name().is_some_and(|n| m.is_match(n)));
        let text = path.to_string_lossy();
        if named
            && j.places
                .protected(&j.places.locate(&text, cwd), &text, cwd)
                .is_some()
        {
            return Ok(Some(text.into_owned()));
        }
    }
    Ok(None)
}

/// A written name only known when it runs whose values are known (a loop over a list or a
/// glob, `$(ls *.toml)`, `$(git ls-files)`, what `xargs` appends, `find -exec`'s `{}`) is
/// judged as each value: `for f in *.toml; do sed -i … "$f"; done` writes `warrant.toml`.
/// A written name printed by a producer whose output is not known (`ls -d .*/ | while read
/// d`, `… | xargs -I{} cp x {}`) may be protected configuration: a binding ask.
fn run_time_writes(j: &mut Judge<'_>, cmd: &SimpleCommand) {
    if !writes(cmd) {
        return;
    }
    let written = written_words(j.script, cmd);
    let mut variants = Vec::new();
    let slots = cmd.words.len() + cmd.redirects.len();
    for slot in 1..slots {
        let word = match slot.checked_sub(cmd.words.len()) {
            None => &cmd.words[slot],
            Some(r) => &cmd.redirects[r].target,
        };
        let Some(domain) = word.domain.as_ref().filter(|_| word.literal().is_none()) else {
            continue;
        };
        let mut values: Vec<String> = domain.values.clone();
        for &p in &domain.producers {
            let outputs = match super::producer::domain_outputs(j.script, cmd, p, domain) {
                Ok(o) => o,
                Err(_) if !written.contains(word) => continue,
                Err(why) => {
                    binding_ask(
                        j,
                        cmd,
                        SHELL_WRITE,
                        &format!(
                            "writes `{}`, names printed by a command that {why}, which may be protected configuration",
                            word.raw
                        ),
                    );
                    continue;
                }
            };
            for out in outputs {
                match out {
                    super::producer::Output::Value(v) | super::producer::Output::Listed(v) => {
                        values.push(v);
                    }
                    super::producer::Output::Tree {
                        root,
                        names,
                        cwd,
                        tracked,
                        ..
                    } => match protected_file_below(j, &root, names.as_deref(), &cwd, tracked) {
                        Ok(None) => {}
                        Ok(Some(found)) => values.push(found),
                        Err(()) => binding_ask(
                            j,
                            cmd,
                            SHELL_WRITE,
                            &format!(
                                "writes the files printed from `{root}`, more than can be checked"
                            ),
                        ),
                    },
                }
            }
        }
        let unquoted = !word.raw.starts_with('"');
        for v in values {
            let pieces: Vec<&str> = if unquoted {
                v.split_whitespace().collect()
            } else {
                vec![v.as_str()]
            };
            for piece in pieces {
                let mut variant = cmd.clone();
                let replaced = Word::literal_text(piece);
                match slot.checked_sub(cmd.words.len()) {
                    None => variant.words[slot] = replaced,
                    Some(r) => {
                        if let Some(Redirect { target, .. }) = variant.redirects.get_mut(r) {
                            *target = replaced;
                        }
                    }
                }
                variants.push(variant);
            }
        }
    }
    if variants.len() > MAX_VARIANTS * 4 {
        return binding_ask(
            j,
            cmd,
            SHELL_WRITE,
            "writes more names only known when it runs than can be checked",
        );
    }
    // Each variant may hold a glob of its own (`for f in *.toml`): expanded as the shell does,
    // and a relative name whose place is not known is judged as such.
    let mut placed = Vec::new();
    for v in &variants {
        globs(j, v);
        unplaced_writes(j, v, &mut placed);
    }
    variants.extend(placed);
    keep_binding(j, &variants);
}

/// Whether writing `text` writes the command's input or a descriptor it inherited
/// (`/dev/stdin`, `/dev/fd/0`, `/proc/self/fd/0`, `/dev/fd/3`): its own output and error
/// (`/dev/stdout`, `/dev/fd/1`, `/dev/fd/2`) are not.
fn names_input(text: &str) -> bool {
    let fd = text
        .strip_prefix("/dev/fd/")
        .or_else(|| text.strip_prefix("/proc/self/fd/"))
        .or_else(|| text.strip_prefix("/proc/thread-self/fd/"));
    text == "/dev/stdin" || fd.is_some_and(|n| n != "1" && n != "2")
}

/// Writing the command's input (`echo … > /dev/stdin`) writes where its input comes from:
/// a pipe feeding the shell the agent runs commands in (what is written then runs as
/// commands, unjudged), a file it truncates, or the user's terminal. Never a harmless sink:
/// a binding ask.
fn input_writes(j: &mut Judge<'_>, cmd: &SimpleCommand) {
    let mut written: Vec<&Word> = cmd
        .redirects
        .iter()
        .filter(|r| r.kind == RedirectKind::Write)
        .map(|r| &r.target)
        .collect();
    if matches!(
        cmd.program(),
        Some("tee" | "cp" | "dd" | "truncate" | "install")
    ) {
        written.extend(cmd.args());
    }
    let named: Vec<String> = written
        .iter()
        .filter_map(|w| w.literal())
        .map(|t| t.strip_prefix("of=").unwrap_or(t))
        .filter(|t| names_input(t))
        .map(str::to_owned)
        .collect();
    for text in named {
        binding_ask(
            j,
            cmd,
            SHELL_WRITE,
            &format!(
                "writes `{text}`, the command's input: a pipe the shell may read commands from, a file, or the terminal"
            ),
        );
    }
}

/// Whether the command line sends output to its input's descriptor (`>&0`, `2>&0`,
/// `>& 0`) outside quotes: that writes the user's terminal, or whatever the input is open
/// for writing on. The shell's reading drops descriptor copies, so the text is looked at.
pub(super) fn duplicates_input(command: &str) -> bool {
    if !command.contains(">&") {
        return false;
    }
    let chars: Vec<char> = command.chars().collect();
    let open = unquoted(&chars);
    (0..chars.len()).any(|i| {
        if !(open[i] && chars[i] == '>' && chars.get(i + 1) == Some(&'&')) {
            return false;
        }
        let mut k = i + 2;
        while chars.get(k).is_some_and(|c| *c == ' ' || *c == '\t') {
            k += 1;
        }
        chars.get(k) == Some(&'0') && !chars.get(k + 1).is_some_and(char::is_ascii_digit)
    })
}

/// Whether the command line names a descriptor's alias (`/dev/stdin`, `/dev/stdout`,
/// `/dev/stderr`, `/dev/fd/N`, `/proc/self/fd/N`, in any spelling) while a redirection (in
/// quotes too: a shell may read them again) opens a descriptor on a file for reading (`2<README.md`, `< src/app.py`, `exec 3<f`, `<>`,
/// `0<&3`): opening the alias opens that file again, for writing too (`echo x 2<README.md
/// >/dev/stderr` overwrites README.md). Here-documents and here-strings (`<<`, `<<<`) and
/// process substitutions (`<(…)`) open no file of the workspace.
pub(super) fn reopens_redirected_descriptor(command: &str) -> bool {
    // Any spelling of a device or a process's descriptor (`/dev/./stderr`, `/dev/std''err`,
    // `$'/dev/std\145rr'`, `/proc/self/fd/2`) holds `/dev/` or `/proc/`; the sinks and
    // sources that are no descriptor are left aside.
    if !command.contains('<') {
        return false;
    }
    let mut rest = command.to_owned();
    for plain in ["/dev/null", "/dev/zero", "/dev/urandom", "/dev/random"] {
        rest = rest.replace(plain, "");
    }
    if !rest.contains('<') || !(rest.contains("/dev/") || rest.contains("/proc/")) {
        return false;
    }
    // Quotes do not hide a `<`: a `$(…)` inside double quotes and the code `bash -c` is
    // given are read by a shell again.
    let chars: Vec<char> = rest.chars().collect();
    (0..chars.len()).any(|i| {
        chars[i] == '<'
            && chars.get(i + 1).is_none_or(|c| *c != '<' && *c != '(')
            && (i == 0 || chars[i - 1] != '<')
    })
}

/// Whether a here-document's end may be found by bash elsewhere than the parser finds it:
/// bash joins a backslash-newline before it compares a line with the delimiter (`EO\⏎F`
/// ends `<<EOF`), and inside `$(…)` a line holding the delimiter and more (`EOF)`) ends it.
/// Either way the lines after are commands bash runs that the policy read as text.
pub(super) fn here_document_end_unsure(command: &str) -> bool {
    let bytes = command.as_bytes();
    // No here-document without a `<`: one scan of the bytes tells so for most commands.
    if !bytes.contains(&b'<') {
        return false;
    }
    let mut delimiters = Vec::new();
    let mut i = 0;
    while let Some(at) = command[i..].find("<<") {
        let mut k = i + at + 2;
        i = k;
        if bytes.get(k) == Some(&b'<') {
            i = k + 1;
            continue;
        }
        if bytes.get(k) == Some(&b'-') {
            k += 1;
        }
        while bytes.get(k).is_some_and(|b| *b == b' ' || *b == b'\t') {
            k += 1;
        }
        let raw: String = command[k..]
            .chars()
            .take_while(|c| !c.is_whitespace() && !";|&<>()".contains(*c))
            .collect();
        // bash removes quotes from the delimiter as from any word (`$'EOF'` is `EOF`, a
        // backslash in single quotes stays): any but plain quoting may end it elsewhere.
        if raw.contains(['$', '\\']) || (raw.contains('\'') && raw.contains('"')) {
            return true;
        }
        let word: String = raw.chars().filter(|c| !"'\"".contains(*c)).collect();
        if !word.is_empty() {
            delimiters.push(word);
        }
    }
    if delimiters.is_empty() {
        return false;
    }
    command.contains("\\\n")
        || command.lines().any(|line| {
            let line = line.trim_start_matches('\t');
            delimiters
                .iter()
                .any(|d| line.starts_with(d.as_str()) && line.len() > d.len())
        })
}

/// Whether the parser may read the command otherwise than bash, which would run text the
/// policy never read as commands: an escaped `$` or `$$` before a quote (`\$'…'`, `$$'…'`,
/// which the parser takes for the start of `$'…'`); a comment inside `$(…)` after a blank
/// with a `)` in it (the parser ends the substitution there); a `<<` after a `${` or a `[[`
/// (inside a parameter expansion's operand or a `[[ =~ ]]` regex it is text to bash, a
/// here-document to the parser); a process substitution after a `${` (bash runs it inside
/// an expansion's operand, the parser reads text). Quotes are not followed: broad on
/// purpose.
pub(super) fn parser_reads_otherwise(command: &str) -> bool {
    // Every form below holds a `$` or a `[[`: one scan of the bytes tells most commands
    // hold neither.
    if !command.bytes().any(|b| b == b'$' || b == b'[') {
        return false;
    }
    if command.contains("\\$'") || command.contains("$$'") {
        return true;
    }
    if let Some(start) = command.find("$(") {
        let after = &command[start..];
        let commented = after.lines().any(|line| {
            line.match_indices('#')
                .any(|(at, _)| line[..at].ends_with([' ', '\t', '(']) && line[at..].contains(')'))
        });
        if commented {
            return true;
        }
    }
    let opened = [command.find("${"), command.find("[[")]
        .into_iter()
        .flatten()
        .min();
    if let Some(open) = opened {
        let after = &command[open..];
        let here = after
            .match_indices("<<")
            .any(|(at, _)| !after[at..].starts_with("<<<") && !after[..at].ends_with('<'));
        if here {
            return true;
        }
    }
    if let Some(open) = command.find("${") {
        let after = &command[open..];
        if after.contains("<(") || after.contains(">(") {
            return true;
        }
    }
    false
}

/// For each character, whether the shell reads it outside quotes and unescaped.
fn unquoted(chars: &[char]) -> Vec<bool> {
    let (mut single, mut double, mut escaped) = (false, false, false);
    chars
        .iter()
        .map(|&c| {
            if escaped {
                escaped = false;
                return false;
            }
            match c {
                '\\' if !single => escaped = true,
                '\'' if !double => single = !single,
                '"' if !single => double = !double,
                _ => return !single && !double,
            }
            false
        })
        .collect()
}

/// Programs that read every file of a tree they are given, and copy, pack or print them.
fn copies_tree(cmd: &SimpleCommand) -> bool {
    let args = cmd.args();
    let flag = |short: &[char], long: &[&str]| {
        args.iter().filter_map(Word::literal).any(|t| {
            long.contains(&t) || (t.starts_with('-') && !t.starts_with("--") && t.contains(short))
        })
    };
    match cmd.program() {
        Some("tar" | "gtar" | "bsdtar" | "7z" | "7za" | "7zz" | "7zr" | "rar" | "pax") => true,
        Some("zip") => flag(&['r', 'R'], &["--recurse-paths", "--recurse-patterns"]),
        Some("cp") => crate::programs::changers::recursive("cp", args).unwrap_or(true),
        Some("scp") => flag(&['r', 'R', 'a'], &["--recursive", "--archive"]),
        Some("rsync") => true,
        Some("grep" | "egrep" | "fgrep" | "zgrep") => {
            flag(&['r', 'R'], &["--recursive", "--dereference-recursive"])
        }
        Some("rg" | "ag" | "ack") => true,
        _ => false,
    }
}

/// A tree outside the workspace that holds a secret by its place (`~/.ssh/id_rsa`,
/// `~/.aws/credentials`), copied, packed or searched whole (`tar czf /tmp/a.tgz ~`,
/// `zip -r x.zip ~`, `cp -r ~ /tmp/h`, `grep -r . ~`), reads that secret: the hard deny of
/// reading it. A tree too large to look through is a binding ask.
fn tree_copies(j: &mut Judge<'_>, cmd: &SimpleCommand) {
    if !copies_tree(cmd) {
        return;
    }
    let is_tar = matches!(cmd.program(), Some("tar" | "gtar" | "bsdtar"));
    let mut dir: Option<String> = None;
    let mut roots: Vec<String> = Vec::new();
    let args = cmd.args();
    let mut i = 0;
    while let Some(w) = args.get(i) {
        i += 1;
        let Some(t) = w.literal() else { continue };
        if is_tar && (t == "-C" || t == "--directory") {
            dir = args.get(i).and_then(Word::literal).map(str::to_owned);
            i += 1;
            continue;
        }
        if is_tar && let Some(d) = t.strip_prefix("--directory=") {
            dir = Some(d.to_owned());
            continue;
        }
        let t = t.rsplit('=').next().unwrap_or(t);
        if t.is_empty() || t.starts_with('-') {
            continue;
        }
        let path = match &dir {
            Some(d) if !t.starts_with(['/', '~']) => format!("{}/{t}", d.trim_end_matches('/')),
            _ => t.to_owned(),
        };
        roots.push(path);
    }
    let root = j.places.root().to_path_buf();
    for text in roots {
        let located = j.places.locate(&text, &cmd.cwd);
        if matches!(
            located.place,
            Place::Inside | Place::Unknown | Place::Sensitive(_)
        ) || located.path.starts_with(&root)
            || !located.path.is_dir()
        {
            continue;
        }
        match j.places.tree_secret(&located.path, true, false) {
            Ok(None) => {}
            // Outside the workspace a key is no test fixture: by its place or its content,
            // it is the secret read.
            Ok(Some((found, what))) => {
                let shown = format!("{text}` holding `{}", found.display());
                j.sensitive(cmd, &shown, &what);
            }
            Err(_) => binding_ask(
                j,
                cmd,
                crate::policy::codes::FILESYSTEM_SENSITIVE_TREE,
                &format!("reads every file under `{text}`, more than can be checked for secrets"),
            ),
        }
    }
}

/// The hard denies of `cmd` judged on its own (as the first look judges every part).
fn hard_denies(j: &Judge<'_>, cmd: &SimpleCommand) -> Vec<Finding> {
    binding(j, cmd, false)
}

/// The findings of `cmd` judged on its own that no mode settles: its hard denies, and with
/// `asks` its binding asks too.
pub(super) fn binding(j: &Judge<'_>, cmd: &SimpleCommand, asks: bool) -> Vec<Finding> {
    let mut scratch = Judge {
        places: j.places,
        script: j.script,
        findings: Vec::new(),
        unmodeled: None,
        digest: false,
    };
    super::programs::judge(&mut scratch, cmd);
    scratch
        .findings
        .into_iter()
        .filter(|f| f.stance == Stance::HardDeny || (asks && f.stance == Stance::RequireAsk))
        .collect()
}

/// Adds what binds of every variant of `cmd`, a command the shell runs with a value in
/// place of a word only known when it runs: its hard denies and binding asks, as the
/// command written with that value would get them (`perl -pi -e … "$f"` with `f` a
/// settings file).
fn keep_binding(j: &mut Judge<'_>, variants: &[SimpleCommand]) {
    for v in variants {
        for f in binding(j, v, true) {
            j.add_once(f.stance, f.code, f.risk, f.reason);
        }
    }
}

/// Adds the hard denies of every variant of `cmd`, once each.
fn keep_hard_denies(j: &mut Judge<'_>, variants: &[SimpleCommand]) {
    for v in variants {
        for f in hard_denies(j, v) {
            j.add_once(f.stance, f.code, f.risk, f.reason);
        }
    }
}

/// A binding ask: what `cmd` reaches cannot be told, and no mode settles it. Rated
/// critical, it decides over the asks a mode settles (the most restrictive, then the
/// riskiest finding decides).
fn binding_ask(j: &mut Judge<'_>, cmd: &SimpleCommand, code: &'static str, why: &str) {
    let reason = format!("{} {why}.", quote(cmd));
    j.add_once(Stance::RequireAsk, code, Risk::Critical, reason);
}

/// Whether a glob character of the word is outside quotes, so the shell expands it.
fn active_glob(raw: &str) -> bool {
    // Most words hold no glob character at all: nothing to read quoting for.
    if !raw.contains(['*', '?', '[']) {
        return false;
    }
    let chars: Vec<char> = raw.chars().collect();
    chars
        .iter()
        .zip(unquoted(&chars))
        .any(|(c, open)| open && matches!(c, '*' | '?' | '['))
}

/// Whether the script turns on a shell option under which globs match names starting with
/// `.` (or fold case): expansions are then made as if it were on everywhere.
fn dotglob(j: &Judge<'_>) -> bool {
    const OPTIONS: [&str; 5] = [
        "dotglob",
        "globdots",
        "dot_glob",
        "GLOBIGNORE",
        "nocaseglob",
    ];
    j.script.commands.iter().any(|c| {
        c.assignments.iter().any(|a| a == "GLOBIGNORE")
            || c.words
                .iter()
                .any(|w| OPTIONS.iter().any(|k| w.raw.contains(k)))
    })
}

/// The names a word stands for once the shell expanded its braces and globs, as the shell
/// expands them now (a glob matching nothing stays as written); `None` when the word has
/// nothing to expand, `Some(Err(()))` when the expansion cannot be made.
fn expansions(j: &Judge<'_>, cmd: &SimpleCommand, word: &Word) -> Option<Result<Vec<String>, ()>> {
    let text = match (word.literal(), braces_only(word)) {
        (Some(t), _) if active_glob(&word.raw) => t,
        (None, Some(raw)) => raw,
        _ => return None,
    };
    if text.starts_with('-') {
        return None;
    }
    let mut alternatives = Vec::new();
    expand_braces(text, &mut alternatives);
    let dotglob = dotglob(j);
    let mut out = Vec::new();
    for alt in alternatives {
        if !alt.contains(['*', '?', '[']) {
            out.push(alt);
            continue;
        }
        match j.places.expand_glob(&alt, &cmd.cwd, dotglob) {
            Ok(found) if found.is_empty() => out.push(alt),
            Ok(found) => out.extend(found),
            Err(_) => return Some(Err(())),
        }
    }
    Some(Ok(out))
}

/// A written or read name holding a glob or braces is judged again as each name it expands
/// to: `echo x > .claude/settings.js?n` writes `.claude/settings.json` when it exists, and
/// `sed -i … *.toml` every TOML file, `warrant.toml` among them.
fn globs(j: &mut Judge<'_>, cmd: &SimpleCommand) {
    if cmd.program().is_some_and(|p| PRINTERS.contains(&p)) && cmd.redirects.is_empty() {
        return;
    }
    let mut variants = Vec::new();
    let mut failed = false;
    for (i, w) in cmd.words.iter().enumerate().skip(1) {
        match expansions(j, cmd, w) {
            None => {}
            Some(Err(())) => failed = true,
            Some(Ok(names)) => {
                for chunk in names.chunks(CHUNK) {
                    let mut v = cmd.clone();
                    v.words
                        .splice(i..=i, chunk.iter().map(|n| Word::literal_text(n.clone())));
                    variants.push(v);
                }
            }
        }
    }
    for (i, r) in cmd.redirects.iter().enumerate() {
        match expansions(j, cmd, &r.target) {
            None => {}
            Some(Err(())) => failed = true,
            // A redirection expands only to one name; each is judged as that one.
            Some(Ok(names)) => {
                for n in names {
                    let mut v = cmd.clone();
                    if let Some(slot) = v.redirects.get_mut(i) {
                        slot.target = Word::literal_text(n);
                    }
                    variants.push(v);
                }
            }
        }
    }
    let known_dir = !matches!(cmd.cwd, WorkingDir::Unknown);
    if (failed && known_dir && writes(cmd)) || variants.len() > MAX_VARIANTS {
        return binding_ask(
            j,
            cmd,
            SHELL_WRITE,
            "writes names a glob expands to, more than can be checked",
        );
    }
    keep_hard_denies(j, &variants);
}

/// Whether the command writes a file: through a redirection, or as a program that creates,
/// changes or deletes the files it is given.
fn writes(cmd: &SimpleCommand) -> bool {
    cmd.redirects.iter().any(|r| r.kind == RedirectKind::Write)
        || cmd.program().is_some_and(|p| WRITERS.contains(&p))
}

/// The path `text` names when used in `cwd`, absolute, `.` and `..` removed as text (no
/// symlink followed); `None` when unknown.
pub(super) fn lexical(places: &Places<'_>, text: &str, cwd: &WorkingDir) -> Option<PathBuf> {
    let home = |t: &str| -> Option<PathBuf> {
        match t.strip_prefix('~') {
            None => Some(PathBuf::from(t)),
            Some("") => places.home().map(Path::to_path_buf),
            Some(rest) if rest.starts_with('/') => {
                Some(places.home()?.join(rest.trim_start_matches('/')))
            }
            // `~user`: another user's home, not known here.
            Some(_) => None,
        }
    };
    let path = home(text)?;
    let absolute = if path.is_absolute() {
        path
    } else {
        let base = match cwd {
            WorkingDir::Root => places.root().to_path_buf(),
            WorkingDir::Dir(dir) => {
                let dir = home(dir)?;
                if dir.is_absolute() {
                    dir
                } else {
                    places.root().join(dir)
                }
            }
            WorkingDir::Unknown => return None,
        };
        base.join(path)
    };
    Some(crate::paths::normalize(&absolute))
}

/// How a name came to stand for another path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Made {
    /// A link (`ln -s`, `ln`, `link`): writing the name writes the target.
    Link,
    /// A move: the name is the same files.
    Moved,
    /// A copy keeping links (`cp -r`, `cp -a`, `cp -P`): a link below it leads where the
    /// original one does.
    Copied,
}

/// A name a part of the script made to stand for another path.
#[derive(Debug, Clone)]
struct MadeName {
    /// The part that made it.
    by: usize,
    /// How.
    how: Made,
    /// The name (absolute, as written); `None` when only known when it runs.
    name: Option<PathBuf>,
    /// What it stands for (absolute, as written); `None` when only known when it runs.
    target: Option<PathBuf>,
}

/// The operands of `ln`, `cp` or `mv` (after options) and the directory of `-t`, with
/// whether `ln` makes symbolic links relative to the link (`-s` without `-r`), and whether
/// `cp` keeps links.
struct Operands<'w> {
    positional: Vec<&'w Word>,
    target_dir: Option<Word>,
    symbolic: bool,
    relative: bool,
    keeps_links: bool,
}

fn operands(cmd: &SimpleCommand) -> Operands<'_> {
    use super::files::OptionValue;
    let program = cmd.program().unwrap_or_default();
    let mut out = Operands {
        positional: Vec::new(),
        target_dir: None,
        symbolic: false,
        relative: false,
        keeps_links: false,
    };
    let args = cmd.args();
    let mut i = 0;
    let mut done = false;
    while let Some(w) = args.get(i) {
        i += 1;
        let text = match w.literal() {
            Some(t) if !done && t.starts_with('-') && t != "-" => t,
            _ => {
                out.positional.push(w);
                continue;
            }
        };
        if text == "--" {
            done = true;
            continue;
        }
        // The options' values as the program reads them (clusters, attached values,
        // abbreviations: `-st DIR`, `--target=DIR`, `--targ DIR`).
        match super::files::option_value(program, text) {
            OptionValue::Flag => {}
            OptionValue::Attached(name, value) => {
                if name == "t" {
                    out.target_dir = Some(Word::literal_text(value));
                }
            }
            OptionValue::Next(name) => {
                if name == "t" {
                    out.target_dir = args.get(i).cloned();
                }
                i += 1;
            }
        }
        if let Some(long) = text.strip_prefix("--") {
            // A flag by any prefix of its name (`--sym`), an ambiguous one counted as each.
            let name = long.split_once('=').map_or(long, |(n, _)| n);
            let abbreviates = |full: &str| name.len() >= 2 && full.starts_with(name);
            out.symbolic |= abbreviates("symbolic");
            out.relative |= abbreviates("relative");
            out.keeps_links |= ["recursive", "archive", "no-dereference", "preserve"]
                .iter()
                .any(|f| abbreviates(f))
                || name.starts_with("preserve");
        } else {
            for c in super::files::short_flags(program, text) {
                match c {
                    's' => out.symbolic = true,
                    'r' => out.relative = true,
                    _ => {}
                }
                if matches!(c, 'r' | 'R' | 'a' | 'd' | 'P' | 's') {
                    out.keeps_links = true;
                }
            }
        }
    }
    out
}

/// The last component of a path as written.
fn base_name(text: &str) -> &str {
    let trimmed = text.trim_end_matches('/');
    trimmed.rsplit('/').next().unwrap_or(trimmed)
}

/// The names the script's links, moves and link-keeping copies make.
fn made_names(j: &Judge<'_>) -> Vec<MadeName> {
    let mut out = Vec::new();
    for (by, cmd) in j.script.commands.iter().enumerate() {
        let how = match cmd.program() {
            Some("ln" | "link") => Made::Link,
            Some("mv") => Made::Moved,
            Some("cp") => Made::Copied,
            _ => continue,
        };
        let ops = operands(cmd);
        if how == Made::Copied && !ops.keeps_links {
            continue;
        }
        // `ln -s` makes the link's text relative to the link's directory (unless `-r`).
        let link_relative = how == Made::Link && ops.symbolic && !ops.relative;
        let mut pos = ops.positional.clone();
        let (sources, dest, into_dir): (Vec<&Word>, Option<Word>, bool) = match ops.target_dir {
            Some(dir) => (pos, Some(dir), true),
            None if pos.len() >= 2 => {
                let dest = pos.pop().cloned();
                let many = pos.len() > 1;
                (pos, dest, many)
            }
            // `ln -s TARGET`: a link named as the target's last component, here.
            None if how == Made::Link => (pos, Some(Word::literal_text(".")), true),
            None => continue,
        };
        let dest = dest.unwrap_or_else(|| Word::dynamic("…", ""));
        for source in sources {
            let source_text = source.literal();
            // The names the copy may get: the destination itself, or (when it is a
            // directory) the source's name inside it.
            let mut names: Vec<Option<PathBuf>> = Vec::new();
            match dest.literal() {
                Some(d) => {
                    let dir = lexical(j.places, d, &cmd.cwd);
                    if !into_dir || source_text.is_none() {
                        names.push(dir.clone());
                    }
                    match source_text {
                        Some(s) => names.push(dir.map(|d| d.join(base_name(s)))),
                        None => names.push(None),
                    }
                }
                None => names.push(None),
            }
            for name in names {
                let target = source_text.and_then(|s| {
                    if link_relative && !s.starts_with(['/', '~']) {
                        let parent = name.as_deref()?.parent()?;
                        Some(crate::paths::normalize(&parent.join(s)))
                    } else {
                        lexical(j.places, s, &cmd.cwd)
                    }
                });
                out.push(MadeName {
                    by,
                    how,
                    name,
                    target,
                });
            }
        }
    }
    out
}

/// A name some part of the script made to stand for another path is judged as that path
/// wherever another part uses it: `ln -s .claude c; echo x > c/settings.json` writes
/// `.claude/settings.json`, `ln -s ~/.ssh/id_rsa k; cat k` reads the key. A name or target
/// only known when it runs is a binding ask for the names it may stand for.
fn through_made(j: &mut Judge<'_>, index: usize, cmd: &SimpleCommand, made: &[MadeName]) {
    let made: Vec<&MadeName> = made
        .iter()
        .filter(|m| m.by != index && !is_wrapper_of(j, m.by, index))
        .collect();
    if made.is_empty() || cmd.words.is_empty() && cmd.redirects.is_empty() {
        return;
    }
    if made.iter().any(|m| m.how == Made::Link && m.name.is_none()) && writes(cmd) {
        return binding_ask(
            j,
            cmd,
            SHELL_WRITE,
            "writes after the script makes a link whose name is only known when it runs",
        );
    }
    let mut variants = Vec::new();
    let slots = cmd.words.len() + cmd.redirects.len();
    // The program's name is no path; every argument and redirection may be.
    for slot in usize::from(!cmd.words.is_empty())..slots {
        let word = match slot.checked_sub(cmd.words.len()) {
            None => &cmd.words[slot],
            Some(r) => &cmd.redirects[r].target,
        };
        let Some(text) = word.literal() else { continue };
        if text.starts_with('-') {
            continue;
        }
        let Some(path) = lexical(j.places, text, &cmd.cwd) else {
            continue;
        };
        for m in &made {
            let Some(rest) = m.name.as_ref().and_then(|n| path.strip_prefix(n).ok()) else {
                continue;
            };
            let Some(target) = &m.target else {
                if m.how != Made::Moved || !rest.as_os_str().is_empty() {
                    binding_ask(
                        j,
                        cmd,
                        SHELL_WRITE,
                        &format!(
                            "uses `{text}`, a name the script makes stand for a path only known when it runs"
                        ),
                    );
                }
                continue;
            };
            let stands_for = if rest.as_os_str().is_empty() {
                target.clone()
            } else {
                target.join(rest)
            };
            let stands_for = if m.how == Made::Copied {
                // A copy is a new file unless a link on the way was copied as a link.
                match crate::paths::resolve(&stands_for) {
                    Some(real) if real != stands_for => real,
                    Some(_) => continue,
                    None => {
                        binding_ask(
                            j,
                            cmd,
                            SHELL_WRITE,
                            &format!("uses `{text}`, a copy of more links than can be followed"),
                        );
                        continue;
                    }
                }
            } else {
                stands_for
            };
            let mut v = cmd.clone();
            let replaced = Word::literal_text(stands_for.to_string_lossy().into_owned());
            match slot.checked_sub(cmd.words.len()) {
                None => v.words[slot] = replaced,
                Some(r) => {
                    if let Some(Redirect { target, .. }) = v.redirects.get_mut(r) {
                        *target = replaced;
                    }
                }
            }
            variants.push(v);
        }
    }
    if variants.len() > MAX_VARIANTS {
        return binding_ask(
            j,
            cmd,
            SHELL_WRITE,
            "uses more names the script makes stand for other paths than can be checked",
        );
    }
    keep_hard_denies(j, &variants);
}

/// Whether the part `outer` wraps the part `inner` (`sudo ln -s …` holds `ln -s …`).
fn is_wrapper_of(j: &Judge<'_>, outer: usize, inner: usize) -> bool {
    j.script.ancestors(inner).any(|(i, _)| i == outer)
        || j.script.ancestors(outer).any(|(i, _)| i == inner)
}

/// The path a `file:` URL names (`file:///p`, `file://localhost/p`, `file:/p`), its
/// percent-escapes decoded; `None` when the text holds none.
fn file_url_path(text: &str) -> Option<String> {
    let lower = text.to_ascii_lowercase();
    let at = lower.find("file:")?;
    let rest = &text[at + 5..];
    let rest = rest.split(char::is_whitespace).next().unwrap_or_default();
    let path = match rest.strip_prefix("//") {
        // `file://HOST/PATH`: the host is skipped (only the local one is read).
        Some(after) => &after[after.find('/')?..],
        None => rest,
    };
    if !path.starts_with('/') {
        return None;
    }
    let bytes = path.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        let hex = |k: usize| bytes.get(k).and_then(|c| (*c as char).to_digit(16));
        match (b, hex(i + 1), hex(i + 2)) {
            (b'%', Some(h), Some(l)) => {
                // Two hex digits make one byte.
                out.push(u8::try_from(h * 16 + l).unwrap_or(b'%'));
                i += 3;
            }
            _ => {
                out.push(b);
                i += 1;
            }
        }
    }
    // Query and fragment are not part of the path.
    let text = String::from_utf8_lossy(&out).into_owned();
    Some(text.split(['?', '#']).next().unwrap_or_default().to_owned())
}

/// A `file:` URL given to any program (`curl file:///home/u/.ssh/id_rsa`) reads the file it
/// names: judged as reading that path.
fn file_urls(j: &mut Judge<'_>, cmd: &SimpleCommand) {
    if cmd.program().is_none_or(|p| PRINTERS.contains(&p)) {
        return;
    }
    let mut variants = Vec::new();
    // `file:` in any case, found without a copy of each word.
    let names_file_url = |text: &str| {
        text.as_bytes()
            .windows(5)
            .any(|b| b.eq_ignore_ascii_case(b"file:"))
    };
    for w in cmd.args() {
        let text = match w.literal() {
            Some(t) if names_file_url(t) => t.to_owned(),
            Some(_) => continue,
            None => {
                if !names_file_url(&w.raw) {
                    continue;
                }
                let home = j
                    .places
                    .home()
                    .map_or_else(|| "$HOME".to_owned(), |h| h.display().to_string());
                let t = w
                    .raw
                    .replace("${HOME}", &home)
                    .replace("$HOME", &home)
                    .replace(['\'', '"'], "");
                if t.contains(['$', '`']) {
                    binding_ask(
                        j,
                        cmd,
                        SHELL_UNKNOWN_COMMAND,
                        &format!("reads `{}`, a file URL only known when it runs", w.raw),
                    );
                    continue;
                }
                t
            }
        };
        if let Some(path) = file_url_path(&text) {
            variants.push(reader(cmd, path));
        }
    }
    keep_hard_denies(j, &variants);
}

/// `cat PATH`, run where `cmd` runs.
fn reader(cmd: &SimpleCommand, path: String) -> SimpleCommand {
    SimpleCommand {
        words: vec![Word::literal_text("cat"), Word::literal_text(path)],
        cwd: cmd.cwd.clone(),
        ..SimpleCommand::default()
    }
}

/// What of another process `/proc/PID/…` shows: its directories (`cwd`, `root`), its open
/// files (`fd`, `map_files`), its environment and memory. Only the command's own output and
/// error are known.
fn process_view(text: &str) -> Option<&str> {
    let rest = text.strip_prefix("/proc/")?;
    let mut parts = rest.split('/').filter(|p| !p.is_empty() && *p != ".");
    let pid = parts.next()?;
    let mut what = parts.next()?;
    if what == "task" {
        parts.next()?;
        what = parts.next()?;
    }
    let process = pid.chars().all(|c| c.is_ascii_digit())
        || matches!(pid, "self" | "thread-self")
        || pid.contains(['*', '?', '[']);
    if !process {
        return None;
    }
    let own_output = matches!(pid, "self" | "thread-self")
        && what == "fd"
        && matches!(parts.next(), Some("1" | "2"))
        && parts.next().is_none();
    let shows = matches!(
        what,
        "cwd" | "root" | "fd" | "map_files" | "environ" | "mem" | "exe"
    );
    (shows && !own_output && !(pid == "self" && matches!(what, "root" | "environ"))).then_some(what)
}

/// Reading or writing through `/proc/PID/cwd`, `/proc/PID/root` or `/proc/PID/fd` reaches
/// files of whatever directory or file another process has open, which the text does not
/// tell: a binding ask (`/proc/self/root` and the environment of the command itself are
/// judged by the first look).
fn process_views(j: &mut Judge<'_>, cmd: &SimpleCommand) {
    if cmd.program().is_some_and(|p| PRINTERS.contains(&p)) && cmd.redirects.is_empty() {
        return;
    }
    let words = cmd
        .args()
        .iter()
        .chain(cmd.redirects.iter().map(|r| &r.target));
    let mut asks = Vec::new();
    for w in words {
        let Some(text) = w.literal() else { continue };
        let text = text.rsplit('=').next().unwrap_or(text);
        if let Some(what) = process_view(text) {
            asks.push(format!(
                "reaches `{text}`, a process's `{what}`, whose files the text does not tell"
            ));
        }
    }
    for why in asks {
        binding_ask(j, cmd, SHELL_UNKNOWN_COMMAND, &why);
    }
}

/// Git subcommands that overwrite or delete files of the work tree.
fn changes_work_tree(sub: &str, rest: &[Word]) -> bool {
    let texts = || rest.iter().filter_map(Word::literal);
    match sub {
        "clean" | "checkout" | "restore" | "rm" | "mv" | "read-tree" | "checkout-index"
        | "apply" | "am" | "merge" | "pull" | "rebase" | "cherry-pick" | "revert" | "switch"
        | "worktree" | "sparse-checkout" | "submodule" | "filter-branch" | "clone" => true,
        "reset" => texts().any(|t| matches!(t, "--hard" | "--merge" | "--keep")),
        "stash" => !texts().next().is_some_and(|t| matches!(t, "list" | "show")),
        _ => false,
    }
}

/// The value a variable gets for `cmd`: assigned for it, or anywhere in the script (an
/// `export NAME=…`, a bare `NAME=…`); `Some(None)` when it is given one only known when it
/// runs.
fn variable(j: &Judge<'_>, cmd: &SimpleCommand, name: &str) -> Option<Option<String>> {
    let own = cmd
        .assignments
        .iter()
        .zip(&cmd.assignment_values)
        .find(|(n, _)| n.as_str() == name)
        .map(|(_, v)| v.clone());
    if own.is_some() {
        return own;
    }
    for c in &j.script.commands {
        if c.words.is_empty() {
            if let Some((_, v)) = c
                .assignments
                .iter()
                .zip(&c.assignment_values)
                .find(|(n, _)| n.as_str() == name)
            {
                return Some(v.clone());
            }
            continue;
        }
        // What a declaring builtin gives it (the variable domain's reading of one).
        for d in crate::shell::declared(c) {
            match d {
                crate::shell::Declared::Value(n, w) if n == name => {
                    return Some(w.literal().map(str::to_owned));
                }
                crate::shell::Declared::Appended(n) if n == name => return Some(None),
                crate::shell::Declared::Dynamic => return Some(None),
                _ => {}
            }
        }
    }
    None
}

/// A git command that overwrites or deletes work-tree files (`clean -fdx`, `reset --hard`,
/// `checkout -- .`) in a work tree outside the workspace (`git -C ~`, `--work-tree=/`,
/// `GIT_WORK_TREE=~`, after `cd ~`) destroys that tree as `rm -rf` would: a hard deny in or
/// above the home directory, at the root or above the workspace, a binding ask elsewhere
/// outside or where the tree is only known when it runs.
fn work_tree(j: &mut Judge<'_>, cmd: &SimpleCommand) {
    if cmd.program() != Some("git") {
        return;
    }
    let args = cmd.args();
    let mut dir: Option<String> = None;
    let mut unknown = false;
    let mut tree: Option<Option<String>> = None;
    let mut i = 0;
    let value = |w: Option<&Word>| -> Option<String> {
        let w = w?;
        match w.literal() {
            Some(t) => Some(t.to_owned()),
            None => {
                let t = w
                    .raw
                    .replace("${HOME}", "~")
                    .replace("$HOME", "~")
                    .replace(['\'', '"'], "");
                (!t.contains(['$', '`'])).then_some(t)
            }
        }
    };
    let sub = loop {
        let Some(w) = args.get(i) else { return };
        i += 1;
        let Some(text) = w.literal() else {
            break None;
        };
        if !text.starts_with('-') {
            break Some(text);
        }
        match text {
            "-C" => {
                match value(args.get(i)) {
                    Some(d) => {
                        dir = Some(match dir {
                            Some(prev) if !d.starts_with(['/', '~']) => {
                                format!("{}/{d}", prev.trim_end_matches('/'))
                            }
                            _ => d,
                        });
                    }
                    None => unknown = true,
                }
                i += 1;
            }
            "--work-tree" => {
                tree = Some(value(args.get(i)));
                i += 1;
            }
            "-c" | "--git-dir" | "--namespace" | "--exec-path" | "--config-env" => i += 1,
            t if t.starts_with("--work-tree=") => {
                tree = Some(value(Some(&Word::literal_text(&t[12..]))));
            }
            _ => {}
        }
    };
    // A subcommand only known when it runs may be any of them.
    if sub.is_some_and(|s| !changes_work_tree(s, &args[i.min(args.len())..])) {
        return;
    }
    if tree.is_none() {
        tree = variable(j, cmd, "GIT_WORK_TREE");
    }
    // Without a work tree named, git's is the directory it runs in (with `--git-dir` or
    // `GIT_DIR`) or the repository's there: judged by that directory.
    let base = match (&dir, &cmd.cwd) {
        _ if unknown => None,
        (_, WorkingDir::Unknown) => None,
        (None, cwd) => lexical(j.places, ".", cwd),
        (Some(d), cwd) => lexical(j.places, d, cwd),
    };
    let place = match tree {
        Some(Some(t)) => {
            base.and_then(|b| lexical(j.places, &t, &WorkingDir::Dir(b.display().to_string())))
        }
        Some(None) => None,
        None => base,
    };
    verdict_on_work_tree(j, cmd, place);
}

/// The verdict on a git command that changes the work tree at `place` (`None`: unknown).
fn verdict_on_work_tree(j: &mut Judge<'_>, cmd: &SimpleCommand, place: Option<PathBuf>) {
    let Some(path) = place else {
        return binding_ask(
            j,
            cmd,
            SHELL_DESTRUCTIVE,
            "overwrites or deletes files of a work tree only known when it runs",
        );
    };
    let real = crate::paths::resolve(&path).unwrap_or_else(|| path.clone());
    let root = j.places.root();
    if real.starts_with(root) || path.starts_with(root) {
        return;
    }
    let home = j.places.home();
    let everything = real == Path::new("/")
        || root.starts_with(&real)
        || home.is_none_or(|h| h.starts_with(&real))
        || matches!(
            j.places
                .locate(&real.to_string_lossy(), &WorkingDir::Root)
                .place,
            Place::System | Place::Device
        );
    let shown = real.display();
    if everything {
        j.destructive(
            cmd,
            &format!(
                "overwrites or deletes files of the work tree `{shown}`, in or above the home directory, the workspace or the system"
            ),
        );
    } else {
        binding_ask(
            j,
            cmd,
            SHELL_DESTRUCTIVE,
            &format!(
                "overwrites or deletes files of the work tree `{shown}`, outside the workspace"
            ),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_descriptors_alias_while_a_descriptor_is_open_on_a_file() {
        for yes in [
            "echo x 2<README.md >/dev/stderr",
            "sort -o /dev/stdin a < b",
            "exec 3<f; echo x >/dev/fd/3",
            "{ echo x >/dev/stderr; } 2<f",
            "cat /proc/self/fd/0 0<>f",
            "echo x 2<f >/dev/./stderr",
            "echo x 2<f >/dev/std''err",
            "echo \"$(echo x 2<f >/dev/stderr)\"",
            "bash -c 'echo x 2<f >/dev/stderr'",
        ] {
            assert!(reopens_redirected_descriptor(yes), "{yes}");
        }
        for no in [
            "echo x >/dev/stderr",
            "cat < README.md",
            "cat <<EOF\n/dev/stderr\nEOF",
            "wc -l <<< /dev/stdin",
            "diff <(ls) /dev/stdin",
            "grep '<div' index.html 2>/dev/null",
        ] {
            assert!(!reopens_redirected_descriptor(no), "{no}");
        }
    }

    #[test]
    fn a_here_documents_end_bash_may_find_elsewhere() {
        for yes in [
            "cat <<EOF\nEO\\\nF\nid\nEOF",
            "echo $(cat <<EOF\nfoo\nEOF)\nid\nEOF\n)",
            "cat <<-'EOF'\n\tEOFX\nEOF",
        ] {
            assert!(here_document_end_unsure(yes), "{yes}");
        }
        for no in [
            "cat <<EOF\nhello\nEOF",
            "wc -l <<< x\\\ny",
            "cat <<'EOF'\na\nEOF\n",
            "echo a \\\n b",
        ] {
            assert!(!here_document_end_unsure(no), "{no}");
        }
    }

    #[test]
    fn output_sent_to_the_input() {
        for yes in ["echo x >&0", "echo x 1>&0", "echo x 2>& 0", "echo x >&0-"] {
            assert!(duplicates_input(yes), "{yes}");
        }
        for no in [
            "echo x >&2",
            "echo '>&0'",
            "echo x >&10",
            "cat <&0",
            "echo \\>&0",
        ] {
            assert!(!duplicates_input(no), "{no}");
        }
        assert!(names_input("/dev/stdin") && names_input("/dev/fd/0"));
        assert!(names_input("/proc/self/fd/0") && names_input("/dev/fd/3"));
        assert!(!names_input("/dev/fd/1") && !names_input("/dev/stdout"));
    }

    #[test]
    fn globs_outside_quotes_expand() {
        assert!(active_glob(".claude/settings.js?n"));
        assert!(active_glob("\"a\"*"));
        assert!(!active_glob("'*.toml'"));
        assert!(!active_glob("\"*.toml\""));
        assert!(!active_glob("a\\*"));
    }

    #[test]
    fn file_urls_name_their_paths() {
        assert_eq!(
            file_url_path("file:///etc/passwd").as_deref(),
            Some("/etc/passwd")
        );
        assert_eq!(
            file_url_path("FILE://localhost/home/u/.ssh/id%5Frsa").as_deref(),
            Some("/home/u/.ssh/id_rsa")
        );
        assert_eq!(file_url_path("file:/x?y#z").as_deref(), Some("/x"));
        assert_eq!(file_url_path("--url=file:///k").as_deref(), Some("/k"));
        assert_eq!(file_url_path("https://x/file:y"), None);
    }

    #[test]
    fn process_views_of_other_processes() {
        assert_eq!(process_view("/proc/1/cwd/x"), Some("cwd"));
        assert_eq!(process_view("/proc/1/root/etc"), Some("root"));
        assert_eq!(process_view("/proc/*/environ"), Some("environ"));
        assert_eq!(process_view("/proc/1/task/1/cwd"), Some("cwd"));
        assert_eq!(process_view("/proc/self/fd/1"), None);
        assert_eq!(process_view("/proc/self/fd/0"), Some("fd"));
        assert_eq!(process_view("/proc/cpuinfo"), None);
        assert_eq!(process_view("/proc/1/status"), None);
    }
}

#[cfg(test)]
mod download_tests {
    use super::*;

    fn targets(command: &str) -> Result<Vec<String>, String> {
        let script = crate::shell::parse(command).expect("parses");
        let cmd = &script.commands[0];
        let program = cmd.program().expect("a program");
        download_targets(program, cmd).map(|w| w.iter().map(|w| w.text().to_owned()).collect())
    }

    #[test]
    fn every_output_option_of_the_table_is_read() {
        for d in crate::programs::table::DOWNLOADERS {
            for (option, how) in d.outputs {
                let cmd = format!("{} {option} out.txt http://h/x.bin", d.name);
                match how {
                    Effect::File => assert!(
                        targets(&cmd).unwrap().contains(&"out.txt".to_owned()),
                        "{cmd}"
                    ),
                    Effect::Dir => {
                        // Saved under the URL's name, in that directory.
                        let remote = if d.saves_by_default {
                            ""
                        } else {
                            "--remote-name "
                        };
                        let cmd = format!("{} {remote}{option} out.txt http://h/x.bin", d.name);
                        assert_eq!(targets(&cmd).unwrap(), ["out.txt/x.bin"], "{cmd}");
                    }
                    Effect::RemoteName => assert!(
                        targets(&format!("{} {option} http://h/x.bin", d.name))
                            .unwrap()
                            .contains(&"x.bin".to_owned()),
                        "{cmd}"
                    ),
                    Effect::Unknown => assert!(targets(&cmd).is_err(), "{cmd}"),
                }
            }
        }
    }

    #[test]
    fn curl_short_options_cluster_and_take_attached_values() {
        assert_eq!(
            targets("curl -so a/b.json http://h/x").unwrap(),
            ["a/b.json"]
        );
        assert_eq!(
            targets("curl -sSLo a/b.json http://h/x").unwrap(),
            ["a/b.json"]
        );
        assert_eq!(targets("curl -oa/b.json http://h/x").unwrap(), ["a/b.json"]);
        assert_eq!(
            targets("curl -sD h.txt -c j.txt http://h/x").unwrap(),
            ["h.txt", "j.txt"]
        );
        // `-H` takes its value: the header is no URL.
        assert!(targets("curl -sH 'A: b' http://h/x").unwrap().is_empty());
        assert_eq!(
            targets("curl -fsSL http://h/x.json -o build/x.json").unwrap(),
            ["build/x.json"]
        );
    }

    #[test]
    fn curl_remote_names_and_output_dir() {
        assert_eq!(
            targets("curl -O http://h/d/settings.json?x=1").unwrap(),
            ["settings.json"]
        );
        assert_eq!(
            targets("curl --output-dir .claude -sO http://h/settings.json").unwrap(),
            [".claude/settings.json"]
        );
        assert_eq!(
            targets("curl --output-d .claude --remote-name-all http://h/a http://h/b").unwrap(),
            [".claude/a", ".claude/b"]
        );
        assert_eq!(
            targets("curl --output-dir d -o f http://h/x").unwrap(),
            ["d/f"]
        );
        assert!(targets("curl -O http://h/").is_err());
        assert_eq!(
            targets("curl -O --url http://h/s.json").unwrap(),
            ["s.json"]
        );
        assert!(targets("curl -O 'http://h/[1-3].json'").is_err());
    }

    #[test]
    fn written_option_values_only_known_when_they_run() {
        let written = |command: &str| {
            let script = crate::shell::parse(command).expect("parses");
            written_words(&script, &script.commands[0])
                .iter()
                .map(|w| w.raw.clone())
                .collect::<Vec<_>>()
        };
        assert_eq!(written("curl -o\"$F\" http://h/x"), ["-o\"$F\""]);
    }

    #[test]
    fn options_whose_writes_cannot_be_told() {
        for unknown in [
            "curl -K cfg http://h/x",
            "curl -sK cfg http://h/x",
            "curl --config=cfg http://h/x",
            "curl -OJ http://h/x",
            "curl --outp f http://h/x",
            "wget -e output_document=f http://h/x",
            "wget --execute=x http://h/x",
            "wget -i urls",
            "wget -x http://h/x",
            "wget -qr http://h/x",
            "wget --recursive http://h/x",
            "wget --content-disposition http://h/x",
            "wget --input-metalink=m.meta4",
            "wget --metalink-over-http http://h/x",
        ] {
            assert!(targets(unknown).is_err(), "{unknown}");
        }
    }

    #[test]
    fn wget_names_and_prefixes() {
        assert_eq!(targets("wget -q http://h/a/b.tgz").unwrap(), ["b.tgz"]);
        assert_eq!(targets("wget http://h/").unwrap(), ["index.html"]);
        assert_eq!(
            targets("wget -P .claude http://h/settings.json").unwrap(),
            [".claude/settings.json"]
        );
        assert_eq!(
            targets("wget --directory-p=.claude http://h/settings.json").unwrap(),
            [".claude/settings.json"]
        );
        assert_eq!(
            targets("wget -O.claude/s.json http://h/x").unwrap(),
            [".claude/s.json"]
        );
        assert_eq!(targets("wget --output-doc=f http://h/x").unwrap(), ["f"]);
        assert_eq!(targets("wget -qO- http://h/x").unwrap(), ["-"]);
        assert_eq!(targets("wget -nv -o log http://h/x").unwrap(), ["log", "x"]);
    }
}

#[cfg(test)]
mod link_operand_tests {
    use super::*;

    /// The target directory, operands and flags `operands` reads in `command`.
    fn read(command: &str) -> (Option<String>, Vec<String>, bool, bool) {
        let script = crate::shell::parse(command).expect("parses");
        let ops = operands(&script.commands[0]);
        (
            ops.target_dir.map(|w| w.text().to_owned()),
            ops.positional.iter().map(|w| w.text().to_owned()).collect(),
            ops.symbolic,
            ops.keeps_links,
        )
    }

    #[test]
    fn link_options_are_read_as_gnu_getopt_reads_them() {
        let into_d = |cmd: &str| {
            let (dir, pos, symbolic, _) = read(cmd);
            assert_eq!(dir.as_deref(), Some("d"), "{cmd}");
            assert_eq!(pos, ["x"], "{cmd}");
            assert!(symbolic, "{cmd}");
        };
        into_d("ln -s -t d x");
        into_d("ln -st d x");
        into_d("ln -std x");
        into_d("ln -s --target-directory d x");
        into_d("ln -s --target-directory=d x");
        // Abbreviated long options, as getopt takes them.
        into_d("ln -s --target d x");
        into_d("ln -s --targ=d x");
        into_d("ln --sym --target-d d x");
        into_d("ln --sym --suf .bak -t d x");
        into_d("ln -s --suf=.bak -t d x");
        into_d("ln -sS .bak -t d x");
        // Not options after `--`.
        let (dir, pos, _, _) = read("ln -s -- -t d");
        assert_eq!(dir, None);
        assert_eq!(pos, ["-t", "d"]);
        // Copies that keep links, by any prefix.
        assert!(read("cp --arch a b").3);
        assert!(read("cp --preserve=links a b").3);
        assert!(read("cp -a a b").3);
        assert!(!read("cp -f a b").3);
    }
}

/// What the other parts of the script put into the tree a copy of `cmd` reads at `source`
/// (`mkdir -p d && echo x > d/.bashrc && cp -r d/. ~`): the tree is copied as it is when the
/// copy runs, not as it is now.
pub(super) struct Fills {
    /// The names below the tree, relative to it, that other parts write.
    pub names: Vec<PathBuf>,
    /// Whether other parts may put files there whose names the text does not show (a tree
    /// copied or extracted into it, a name only known when it runs, a program that writes
    /// what it likes), or the tree is not there now and no part makes it.
    pub unknown: bool,
}

/// Programs that only make the names they are given, directories or empty files, never a
/// tree of other names below them.
const NAMERS: &[&str] = &[
    "mkdir", "touch", "tee", "truncate", "dd", "sed", "perl", "sort",
];

/// What the other parts of the script put into the tree at `source` (see [`Fills`]).
pub(super) fn fills(j: &Judge<'_>, cmd: &SimpleCommand, source: &str) -> Fills {
    let mut out = Fills {
        names: Vec::new(),
        unknown: false,
    };
    let Some(root) = lexical(j.places, source, &cmd.cwd) else {
        out.unknown = true;
        return out;
    };
    let index = j.script.position(cmd);
    let mut made = false;
    for (i, c) in j.script.commands.iter().enumerate() {
        if index.is_some_and(|x| x == i || is_wrapper_of(j, i, x)) {
            continue;
        }
        let program = c.program();
        let unmodeled = matches!(
            j.script.model_of(c).as_ref(),
            crate::programs::Model::Unmodeled(_)
        );
        // A program run for what it does, whose writes no word names (`python3 gen.py`,
        // `git clone URL d`, `make`).
        if unmodeled && program.is_none_or(|p| !WRITERS.contains(&p) && p != "cd") {
            out.unknown = true;
        }
        let names_only = program.is_some_and(|p| NAMERS.contains(&p));
        let redirected: Vec<&Word> = c
            .redirects
            .iter()
            .filter(|r| r.kind == RedirectKind::Write)
            .map(|r| &r.target)
            .collect();
        for w in written_words(j.script, c) {
            let Some(text) = w.literal() else {
                out.unknown = true;
                continue;
            };
            let text = text.strip_prefix("of=").unwrap_or(text);
            let Some(path) = lexical(j.places, text, &c.cwd) else {
                out.unknown = true;
                continue;
            };
            let by_name = names_only || redirected.contains(&&w);
            match path.strip_prefix(&root) {
                Ok(rel) if rel.as_os_str().is_empty() => {
                    if by_name {
                        made = true;
                    } else {
                        out.unknown = true;
                    }
                }
                Ok(rel) => {
                    out.names.push(rel.to_path_buf());
                    made = true;
                    if !by_name {
                        out.unknown = true;
                    }
                }
                // A tree written into a directory holding the source may fill it.
                Err(_) if root.starts_with(&path) && !by_name => out.unknown = true,
                Err(_) => {}
            }
        }
    }
    if !made && std::fs::symlink_metadata(&root).is_err() {
        out.unknown = true;
    }
    out
}
