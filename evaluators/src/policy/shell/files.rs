//! Programs that copy, move, create or filter files: which paths they read and which they write.

use std::path::{Path, PathBuf};

use warrant_core::decision::Risk;

use warrant_core::evaluator::Stance;

use super::judge::{Judge, has_flag, positional};
use super::programs::reads;
use crate::policy::codes::{SHELL_NETWORK, SHELL_PRIVILEGED};
use crate::policy::finding::quote;
use crate::shell::{SimpleCommand, Word};

/// The options of a writing program that take a value, as `(short, long)` (`-` for none):
/// the value follows attached (`-tDIR`, `--target-directory=DIR`) or as the next word.
fn value_options(program: &str) -> &'static [(&'static str, &'static str)] {
    match program {
        "truncate" => &[("s", "size"), ("r", "reference")],
        "mkdir" | "mkfifo" | "mknod" => &[("m", "mode")],
        "install" => &[
            ("m", "mode"),
            ("o", "owner"),
            ("g", "group"),
            ("S", "suffix"),
            ("t", "target-directory"),
            ("-", "strip-program"),
        ],
        "cp" | "mv" | "ln" => &[("S", "suffix"), ("t", "target-directory")],
        "touch" => &[("d", "date"), ("t", "-"), ("r", "reference"), ("-", "time")],
        _ => &[],
    }
}

/// How one option word of a writing program reads, as GNU getopt reads it: clusters of
/// short options (`-vt DIR`, `-vtDIR`), long options by any unambiguous prefix
/// (`--targ DIR`, `--target=DIR`).
pub(super) enum OptionValue<'t> {
    /// Only flags.
    Flag,
    /// An option (by its short name, or its long one when it has none) with its value.
    Attached(&'static str, &'t str),
    /// An option whose value is the next word.
    Next(&'static str),
}

pub(super) fn option_value<'t>(program: &str, t: &'t str) -> OptionValue<'t> {
    let options = value_options(program);
    let named = |short: &'static str, long: &'static str| if short == "-" { long } else { short };
    if let Some(long) = t.strip_prefix("--") {
        let (name, value) = match long.split_once('=') {
            Some((n, v)) => (n, Some(v)),
            None => (long, None),
        };
        // An exact name first, then the one option the prefix abbreviates.
        let exact = options.iter().find(|(_, l)| *l == name);
        let mut prefixed = options
            .iter()
            .filter(|(_, l)| *l != "-" && !name.is_empty() && l.starts_with(name));
        let found = exact.or_else(|| {
            let first = prefixed.next();
            first.filter(|_| prefixed.next().is_none())
        });
        return match (found, value) {
            (Some((s, l)), Some(v)) => OptionValue::Attached(named(s, l), v),
            (Some((s, l)), None) => OptionValue::Next(named(s, l)),
            (None, _) => OptionValue::Flag,
        };
    }
    for (k, c) in t[1..].char_indices() {
        if let Some((s, l)) = options
            .iter()
            .find(|(s, _)| s.len() == 1 && s.starts_with(c))
        {
            let rest = &t[1 + k + c.len_utf8()..];
            return if rest.is_empty() {
                OptionValue::Next(named(s, l))
            } else {
                OptionValue::Attached(named(s, l), rest)
            };
        }
    }
    OptionValue::Flag
}

/// The flags of the short-option word `t` (`-sft`): its letters up to the first that takes
/// a value ([`option_value`] reads that one).
pub(super) fn short_flags<'t>(program: &str, t: &'t str) -> impl Iterator<Item = char> + 't {
    let options = value_options(program);
    t.chars().skip(1).take_while(move |c| {
        !options
            .iter()
            .any(|(s, _)| s.len() == 1 && s.starts_with(*c))
    })
}

/// Whether a file mode (`4755`, `u+s`, `g=rwxs`, `--reference`'s: `None`, only known when
/// it runs) may set the setuid or setgid bit: the file then runs as its owner or group for
/// whoever runs it, a way to keep the agent's privileges (root's, when it runs as root)
/// after the session. An octal mode with either bit, or a symbolic clause adding or setting
/// `s`.
pub(super) fn sets_special_bits(mode: Option<&str>) -> bool {
    let Some(mode) = mode else { return true };
    if !mode.is_empty() && mode.bytes().all(|b| (b'0'..=b'7').contains(&b)) {
        return u32::from_str_radix(mode, 8).map_or(true, |m| m & 0o6000 != 0);
    }
    let mut adds = false;
    let mut digits = String::new();
    for c in mode.chars().chain([',']) {
        if c.is_ascii_digit() {
            digits.push(c);
            continue;
        }
        // An octal part after an operator (`=4755`, `+2000`: GNU's) is read as a number.
        if adds && !digits.is_empty() && sets_special_bits(Some(&digits)) {
            return true;
        }
        digits.clear();
        match c {
            '+' | '=' => adds = true,
            '-' | ',' => adds = false,
            's' if adds => return true,
            _ => {}
        }
    }
    false
}

/// The special-bits ask ([`sets_special_bits`]) for `cmd` giving `mode`.
pub(super) fn special_bits(j: &mut Judge<'_>, cmd: &SimpleCommand, mode: Option<&str>) {
    if sets_special_bits(mode) {
        let reason = format!(
            "{} may set the setuid or setgid bit, which runs the file as its owner or group for whoever runs it.",
            quote(cmd)
        );
        j.add(Stance::RequireAsk, SHELL_PRIVILEGED, Risk::High, reason);
    }
}

pub(super) fn writer(j: &mut Judge<'_>, cmd: &SimpleCommand, program: &str) {
    let args = cmd.args();
    let moves = matches!(program, "cp" | "mv" | "ln" | "install");
    let moded = matches!(program, "mkdir" | "install" | "mkfifo" | "mknod");
    let mut pos: Vec<&Word> = Vec::new();
    let mut target_dir: Option<Word> = None;
    let mut i = 0;
    let mut done = false;
    while let Some(w) = args.get(i) {
        i += 1;
        let t = match w.literal() {
            Some(t) if !done && t.starts_with('-') && t != "-" => t,
            _ => {
                pos.push(w);
                continue;
            }
        };
        if t == "--" {
            done = true;
            continue;
        }
        match option_value(program, t) {
            OptionValue::Flag => {}
            OptionValue::Attached(name, value) => {
                if moves && name == "t" {
                    target_dir = Some(Word::literal_text(value));
                }
                if moded && name == "m" {
                    special_bits(j, cmd, Some(value));
                }
            }
            OptionValue::Next(name) => {
                if moves && name == "t" {
                    target_dir = args.get(i).cloned();
                }
                if moded && name == "m" {
                    special_bits(j, cmd, args.get(i).and_then(Word::literal));
                }
                i += 1;
            }
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
    let (sources, dests): (Vec<&Word>, Vec<&Word>) = match &target_dir {
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
    // `cp -rL`, `cp -a --dereference`: every file the trees' links lead to is read and
    // copied as a plain file, as `tar -ch` packs it.
    if program == "cp"
        && crate::programs::changers::read(program, args).is_some_and(|c| c.recursive && c.follows)
    {
        followed_trees(j, cmd, &sources);
    }
    let recursive = program == "mv"
        || crate::programs::changers::recursive(program, args).unwrap_or_else(|| {
            args.iter().filter_map(Word::literal).any(|t| {
                matches!(t, "--recursive" | "--archive")
                    || (t.starts_with('-') && !t.starts_with("--") && t.contains(['r', 'R', 'a']))
            })
        });
    for d in &dests {
        j.write(cmd, d, None);
        if program == "ln" {
            // A link made at a configuration directory's name (`ln -s cfg .claude`) makes
            // every file of its target that directory's files; so does one made inside it.
            j.protected_tree(cmd, d, false);
            if let Some(dir) = d.literal() {
                for name in sources.iter().filter_map(|s| s.literal()) {
                    let name = name
                        .trim_end_matches('/')
                        .rsplit('/')
                        .next()
                        .unwrap_or(name);
                    let inside = format!("{}/{name}", dir.trim_end_matches('/'));
                    j.protected_tree(cmd, &Word::literal_text(inside), false);
                }
            }
        }
        landing(j, cmd, &sources, d, recursive);
    }
    if cmd.extra_args {
        j.write_inside(cmd, "changes paths only known when it runs", Risk::High);
    }
}

/// The trees at `roots`, copied whole through their symbolic links (`cp -rL`, `rsync -rL`):
/// every file of each, hidden ones included, and every file its links lead to, is read.
fn followed_trees(j: &mut Judge<'_>, cmd: &SimpleCommand, roots: &[&Word]) {
    for root in roots {
        j.tree(cmd, &crate::programs::Tree::whole((*root).clone(), true));
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
        // What other parts of the command put into the tree before it is copied: each name
        // is judged where it lands; names not known may be any protected configuration
        // the destination may hold (a home's start-up files) and no name of the tree is.
        let filled = super::reach::fills(j, cmd, text);
        let bases: Vec<&str> = if landed == dir {
            vec![dir]
        } else {
            vec![landed.as_str(), dir]
        };
        for rel in &filled.names {
            for base in &bases {
                let path = format!("{base}/{}", rel.display());
                let placed = j.places.locate(&path, &cmd.cwd);
                if j.places.protected(&placed, &path, &cmd.cwd).is_some() {
                    j.write(cmd, &Word::literal_text(path), None);
                }
            }
        }
        if filled.unknown {
            for base in &bases {
                let placed = j.places.locate(base, &cmd.cwd);
                if let Some(what) = j.places.protected_any_name_below(&placed, base, &cmd.cwd) {
                    let reason = format!(
                        "{} copies `{text}`, a tree filled by the command itself whose files are not known, into `{base}`, where they may be {what}.",
                        quote(cmd)
                    );
                    super::destructive::may_reach_protected(j, reason);
                }
            }
        }
        let located = j.places.locate(text, &cmd.cwd);
        if std::fs::symlink_metadata(&located.path).is_err() {
            // A tree the command itself makes first (`mkdir e && … && cp -r e/. .claude`):
            // its files are not known, and any configuration file may be among them, under
            // either name it may land as (`dest` new or existing, `-T`).
            j.protected_tree(cmd, &Word::literal_text(landed), false);
            j.protected_tree(cmd, &Word::literal_text(dir), false);
            continue;
        }
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
    if let Ok(items) = crate::programs::cursor::read_complete(
        args,
        rsync_options(),
        crate::programs::cursor::Syntax::Gnu,
    ) {
        return rsync_read(j, cmd, &items);
    }
    // Arguments rsync would refuse (an option it lacks, an ambiguous abbreviation): read
    // at their most reaching, every option word checked for what it may mean.
    let pos: Vec<&Word> = args
        .iter()
        .filter(|w| w.literal().is_none_or(|t| !t.starts_with('-')))
        .collect();
    // Any abbreviation of `--recursive` or `--archive`, any cluster holding `r` or `a`.
    let recursive = args.iter().filter_map(Word::literal).any(|t| {
        let long = t.split_once('=').map_or(t, |(n, _)| n);
        (long.len() > 2 && ("--recursive".starts_with(long) || "--archive".starts_with(long)))
            || (t.starts_with('-') && !t.starts_with("--") && t.contains(['r', 'a']))
    });
    // Any word that may be an option following links (`--copy-l`, `--copy`, `-rL`, `-k`).
    let follows = args.iter().filter_map(Word::literal).any(|t| {
        let long = t.split_once('=').map_or(t, |(n, _)| n);
        (long.len() > 2
            && ["--copy-links", "--copy-unsafe-links", "--copy-dirlinks"]
                .iter()
                .any(|f| f.starts_with(long)))
            || (t.starts_with('-') && !t.starts_with("--") && t.contains(['L', 'k']))
    });
    if recursive
        && follows
        && let Some((_, sources)) = pos.split_last()
    {
        followed_trees(j, cmd, sources);
    }
    // `--delete*` deletes what the destination holds beyond the sources, up to all of it;
    // `--remove-source-files` deletes every file sent: judged as deleting those trees.
    let options = || args.iter().filter_map(Word::literal);
    let deletes_dest = options().any(|t| t.starts_with("--del"));
    let deletes_sources =
        options().any(|t| t.starts_with("--remove-source") || t.starts_with("--remove-sent"));
    rsync_copies(j, cmd, &pos, recursive, deletes_dest, deletes_sources);
}

/// What rsync does with its operands `pos` (sources, then the destination): reads the
/// sources (deletes them once sent with `deletes_sources`), writes the destination (deleting
/// what the sources lack with `deletes_dest`), and talks to another machine when an operand
/// names one (`host:path`).
fn rsync_copies(
    j: &mut Judge<'_>,
    cmd: &SimpleCommand,
    pos: &[&Word],
    recursive: bool,
    deletes_dest: bool,
    deletes_sources: bool,
) {
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
    if pos
        .iter()
        .any(|w| w.literal().is_none_or(|t| t.contains(':')))
    {
        let reason = format!("{} copies files to or from another machine.", quote(cmd));
        j.add(Stance::DefaultAsk, SHELL_NETWORK, Risk::High, reason);
    }
    j.write_inside(cmd, "synchronizes files", Risk::High);
}

/// rsync's options ([`crate::programs::table::RSYNC_OPTIONS`]), parsed once.
fn rsync_options() -> &'static crate::programs::spec::Options {
    static PARSED: std::sync::OnceLock<crate::programs::spec::Options> = std::sync::OnceLock::new();
    PARSED.get_or_init(|| {
        crate::programs::spec::Options::parse(crate::programs::table::RSYNC_OPTIONS)
    })
}

/// `rsync` read by the cursor against its table entry: the operands are the sources and
/// the destination; the files options name are read (`--files-from`) or written
/// (`--log-file`, `--backup-dir`); `!R` copies trees, `!d` deletes in the destination, `!s`
/// deletes the sources sent.
fn rsync_read(j: &mut Judge<'_>, cmd: &SimpleCommand, items: &[crate::programs::cursor::Item<'_>]) {
    use crate::programs::cursor::Item;
    use crate::programs::spec::Value;
    let mut pos: Vec<&Word> = Vec::new();
    let (mut recursive, mut deletes_dest, mut deletes_sources) = (false, false, false);
    let mut follows = false;
    for item in items {
        match item {
            Item::Operand(_, w) => pos.push(w),
            Item::Opt(opt, value) => {
                recursive |= opt.has('R');
                follows |= opt.has('L');
                deletes_dest |= opt.has('d');
                deletes_sources |= opt.has('s');
                match (opt.value, value) {
                    (Value::Reads, Some(v)) => j.read(cmd, v),
                    (Value::Writes, Some(v)) => j.write(cmd, v, None),
                    _ => {}
                }
            }
        }
    }
    // `-L`, `--copy-unsafe-links`, `-k`: the files links lead to are copied as plain files.
    if recursive
        && follows
        && let Some((_, sources)) = pos.split_last()
    {
        followed_trees(j, cmd, sources);
    }
    rsync_copies(j, cmd, &pos, recursive, deletes_dest, deletes_sources);
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
    // `-l`, `-v`, `-t`, `-Z` list or test the archive, `-p` prints members: nothing is
    // written (checked: `unzip -l/-t/-p/-Z/-v a.zip` created no file).
    let writes_nothing = args.iter().any(|w| {
        w.literal().is_some_and(|t| {
            // `-d DIR` and `-P PASSWORD` take the rest of the word.
            t.starts_with('-')
                && !t.starts_with("--")
                && t[1..]
                    .chars()
                    .take_while(|c| !matches!(c, 'd' | 'P'))
                    .any(|c| matches!(c, 'l' | 'v' | 't' | 'Z' | 'p'))
        })
    });
    if writes_nothing && args.iter().all(|w| w.literal().is_some()) {
        return j.read_only(cmd);
    }
    let dir = dir.unwrap_or_else(|| Word::literal_text("."));
    let named = pos.get(1..).unwrap_or_default();
    if named.is_empty() {
        j.protected_tree(cmd, &dir, false);
        members(j, cmd, pos.first().copied(), &dir);
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

/// The members an extraction of `archive` into `into` writes, read from the archive's
/// headers now (a tar or zip file): each file member is judged as written there (protected
/// configuration among them is the hard deny). An archive whose members cannot be read
/// (standard input, compressed, another format, absent), or that holds links (which may
/// lead later members anywhere) or names climbing out with `..`, may create any file below
/// `into`, protected configuration included: a binding ask.
fn members(j: &mut Judge<'_>, cmd: &SimpleCommand, archive: Option<&Word>, into: &Word) {
    let read = archive
        .and_then(Word::literal)
        .filter(|t| *t != "-")
        .and_then(|t| archive_members(&j.places.locate(t, &cmd.cwd).path));
    let base = into.literal().unwrap_or(".").trim_end_matches('/');
    let why = match read {
        None => "extracts an archive whose members are not read",
        Some(list) => {
            let mut odd = false;
            for m in &list {
                let name = m.name.trim_start_matches('/').trim_start_matches("./");
                if name.split('/').any(|c| c == "..") || m.link {
                    odd = true;
                }
                if name.is_empty() || m.dir {
                    continue;
                }
                let member = Word::literal_text(format!("{base}/{name}"));
                j.protected_tree(cmd, &member, false);
                j.write(cmd, &member, None);
            }
            if !odd {
                return;
            }
            "extracts an archive holding links or names with `..`, which may write anywhere below"
        }
    };
    let reason = format!(
        "{} {why} into `{}`, protected configuration included.",
        quote(cmd),
        into.raw
    );
    super::destructive::may_reach_protected(j, reason);
}

/// One member of an archive, as its header gives it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Member {
    /// Its name.
    pub name: String,
    /// Whether it is a directory.
    pub dir: bool,
    /// Whether it is a symbolic or hard link (or a device, a fifo: anything but a file or a
    /// directory).
    pub link: bool,
}

/// How many members an archive may hold for its list to be read.
const MAX_MEMBERS: usize = 10_000;

/// The members of the tar or zip archive at `path`, read from its headers; `None` when it is
/// neither (compressed, another format), cannot be read, or holds more than [`MAX_MEMBERS`].
pub(super) fn archive_members(path: &Path) -> Option<Vec<Member>> {
    use std::io::Read;
    let mut file = std::fs::File::open(path).ok()?;
    let mut head = [0u8; 512];
    file.read_exact(&mut head[..4]).ok()?;
    if head[..4] == *b"PK\x03\x04" || head[..4] == *b"PK\x05\x06" {
        return zip_members(path);
    }
    tar_members(path)
}

/// The members of a plain (uncompressed) tar archive: POSIX ustar, GNU long names, pax
/// `path` records; each header's checksum must hold.
fn tar_members(path: &Path) -> Option<Vec<Member>> {
    use std::io::{Read, Seek, SeekFrom};
    let octal = |field: &[u8]| -> Option<u64> {
        let text = std::str::from_utf8(field).ok()?;
        let text = text.trim_matches(|c: char| c == '\0' || c == ' ');
        if text.is_empty() {
            return Some(0);
        }
        u64::from_str_radix(text, 8).ok()
    };
    let text = |field: &[u8]| -> String {
        let end = field.iter().position(|&b| b == 0).unwrap_or(field.len());
        String::from_utf8_lossy(&field[..end]).into_owned()
    };
    let mut file = std::fs::File::open(path).ok()?;
    let mut out = Vec::new();
    let mut long_name: Option<String> = None;
    let mut header = [0u8; 512];
    loop {
        file.read_exact(&mut header).ok()?;
        if header.iter().all(|&b| b == 0) {
            return Some(out);
        }
        let sum: u64 = header
            .iter()
            .enumerate()
            .map(|(i, &b)| {
                if (148..156).contains(&i) {
                    32
                } else {
                    u64::from(b)
                }
            })
            .sum();
        if octal(&header[148..156])? != sum {
            return None;
        }
        let size = octal(&header[124..136])?;
        let kind = header[156];
        let data = size.div_ceil(512) * 512;
        match kind {
            // GNU long name, pax extended header: the next member's name.
            b'L' | b'x' => {
                if size > 1 << 20 {
                    return None;
                }
                let mut body = vec![0u8; usize::try_from(data).ok()?];
                file.read_exact(&mut body).ok()?;
                let body = &body[..usize::try_from(size).ok()?];
                if kind == b'L' {
                    long_name = Some(text(body));
                } else {
                    for record in String::from_utf8_lossy(body).split('\n') {
                        if let Some((_, value)) = record.split_once(" path=") {
                            long_name = Some(value.to_owned());
                        }
                    }
                }
                continue;
            }
            // A GNU long link target, a pax global header: no member.
            b'K' | b'g' => {
                file.seek(SeekFrom::Current(i64::try_from(data).ok()?))
                    .ok()?;
                continue;
            }
            _ => {}
        }
        let name = long_name.take().unwrap_or_else(|| {
            let name = text(&header[..100]);
            let prefix = if &header[257..262] == b"ustar" {
                text(&header[345..500])
            } else {
                String::new()
            };
            if prefix.is_empty() {
                name
            } else {
                format!("{prefix}/{name}")
            }
        });
        let dir = kind == b'5';
        out.push(Member {
            name,
            dir,
            link: !matches!(kind, b'0' | 0 | b'5' | b'7'),
        });
        if out.len() > MAX_MEMBERS {
            return None;
        }
        file.seek(SeekFrom::Current(i64::try_from(data).ok()?))
            .ok()?;
    }
}

/// The members of a zip archive, from its central directory (the names `unzip`, `jar` and
/// Python's `zipfile` extract by); a symlink is a member whose Unix mode says so.
fn zip_members(path: &Path) -> Option<Vec<Member>> {
    /// The largest zip file read whole (a larger one's members are not read).
    const MAX_ZIP_BYTES: u64 = 64 << 20;
    if std::fs::metadata(path).ok()?.len() > MAX_ZIP_BYTES {
        return None;
    }
    let bytes = std::fs::read(path).ok()?;
    let u16_at = |at: usize| -> Option<usize> {
        Some(usize::from(u16::from_le_bytes(
            bytes.get(at..at + 2)?.try_into().ok()?,
        )))
    };
    let u32_at = |at: usize| -> Option<u32> {
        Some(u32::from_le_bytes(bytes.get(at..at + 4)?.try_into().ok()?))
    };
    let from = bytes.len().saturating_sub(22 + 65_535);
    let end = (from..=bytes.len().checked_sub(22)?)
        .rev()
        .find(|&i| bytes[i..i + 4] == *b"PK\x05\x06")?;
    let count = u16_at(end + 10)?;
    let mut at = usize::try_from(u32_at(end + 16)?).ok()?;
    if count > MAX_MEMBERS || u32_at(end + 16)? == u32::MAX {
        return None;
    }
    let mut out = Vec::with_capacity(count);
    for _ in 0..count {
        if bytes.get(at..at + 4)? != b"PK\x01\x02" {
            return None;
        }
        let made_on_unix = bytes.get(at + 5)? == &3;
        let name_len = u16_at(at + 28)?;
        let extra = u16_at(at + 30)?;
        let comment = u16_at(at + 32)?;
        let mode = u32_at(at + 38)? >> 16;
        let name = String::from_utf8_lossy(bytes.get(at + 46..at + 46 + name_len)?).into_owned();
        let kind = mode & 0o170_000;
        out.push(Member {
            dir: name.ends_with('/'),
            link: made_on_unix && kind != 0 && kind != 0o100_000 && kind != 0o040_000,
            name,
        });
        at += 46 + name_len + extra + comment;
    }
    Some(out)
}

/// `patch`: the files a patch changes are the names its headers give (at every strip
/// level, as `-p` may choose any), below `-d DIR`; a file named on the line is the one
/// changed. A patch read from a pipe or a file that cannot be read, or one that makes
/// symlinks, may change any file: a binding ask. Then as any command the table does not
/// model.
pub(super) fn patch(j: &mut Judge<'_>, cmd: &SimpleCommand) {
    let args = cmd.args();
    let mut input: Option<Word> = cmd
        .redirects
        .iter()
        .rev()
        .find(|r| r.kind == crate::shell::RedirectKind::Read)
        .map(|r| r.target.clone());
    let mut dir: Option<Word> = None;
    let mut pos: Vec<&Word> = Vec::new();
    let mut i = 0;
    while let Some(w) = args.get(i) {
        i += 1;
        let Some(t) = w.literal() else {
            pos.push(w);
            continue;
        };
        let (name, attached) = match t.split_once('=') {
            Some((n, v)) if n.starts_with("--") => (n, Some(v)),
            _ => (t, None),
        };
        let value = |i: &mut usize| {
            attached.map(Word::literal_text).or_else(|| {
                *i += 1;
                args.get(*i - 1).cloned()
            })
        };
        match name {
            "-i" | "--input" => input = value(&mut i),
            "-d" | "--directory" => dir = value(&mut i),
            "-o" | "--output" | "-r" | "--reject-file" | "-D" | "--ifdef" | "-B" | "--prefix"
            | "-Y" | "--basename-prefix" | "-z" | "--suffix" | "-F" | "--fuzz" | "-V"
            | "--version-control" | "-g" | "--get" | "--quoting-style" => {
                let _ = value(&mut i);
            }
            _ if t.starts_with("-i") && t.len() > 2 => input = Some(Word::literal_text(&t[2..])),
            _ if t.starts_with("-d") && t.len() > 2 => dir = Some(Word::literal_text(&t[2..])),
            _ if t.starts_with('-') && t != "-" => {}
            _ => pos.push(w),
        }
    }
    if input.is_none() && pos.len() > 1 {
        input = pos.pop().cloned();
    }
    let base = dir.as_ref().map_or(Some("."), Word::literal);
    let join = |name: &str| match base {
        Some(".") | None => name.to_owned(),
        Some(b) => format!("{}/{name}", b.trim_end_matches('/')),
    };
    if let Some(original) = pos.first() {
        match original.literal() {
            Some(t) => j.write(cmd, &Word::literal_text(join(t)), None),
            None => j.write(cmd, original, None),
        }
    }
    let text = input
        .as_ref()
        .and_then(Word::literal)
        .filter(|t| *t != "-")
        .map(|t| j.places.locate(t, &cmd.cwd).path)
        .filter(|p| std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.len() < 16 << 20))
        .and_then(|p| std::fs::read_to_string(p).ok());
    let odd = match (&text, base) {
        (Some(text), Some(_)) => {
            let mut names = Vec::new();
            crate::policy::filesystem::patch_names(text, &mut names);
            for name in names {
                let name = name.trim_start_matches('/');
                // Every strip level: `-pN` takes that many leading components off.
                let mut rest = name;
                loop {
                    if !rest.is_empty() && !rest.split('/').any(|c| c == "..") {
                        let path = Word::literal_text(join(rest));
                        j.protected_tree(cmd, &path, false);
                        j.write(cmd, &path, None);
                    }
                    match rest.split_once('/') {
                        Some((_, tail)) => rest = tail,
                        None => break,
                    }
                }
            }
            text.contains(" 120000") || text.contains("\n*** ") && text.contains("symlink")
        }
        _ => true,
    };
    if odd {
        let reason = format!(
            "{} applies a patch whose files are not read, or that makes links: it may change any file, protected configuration included.",
            quote(cmd)
        );
        super::destructive::may_reach_protected(j, reason);
    }
    j.read_only(cmd);
}

/// Whether a tar option word takes the next word as its value: a long option (by any
/// beginning of five characters or more) whose value is required, or a cluster of short
/// options ending in one.
fn takes_next_value(t: &str) -> bool {
    const LONG: &[&str] = &[
        "--exclude",
        "--exclude-from",
        "--exclude-tag",
        "--exclude-tag-under",
        "--exclude-tag-all",
        "--files-from",
        "--transform",
        "--xform",
        "--owner",
        "--group",
        "--mode",
        "--mtime",
        "--label",
        "--newer",
        "--after-date",
        "--newer-mtime",
        "--format",
        "--blocking-factor",
        "--record-size",
        "--tape-length",
        "--strip-components",
        "--sort",
        "--owner-map",
        "--group-map",
        "--listed-incremental",
        "--starting-file",
        "--suffix",
    ];
    if let Some(long) = t.strip_prefix("--") {
        return !long.contains('=') && t.len() >= 5 && LONG.iter().any(|o| o.starts_with(t));
    }
    t.starts_with('-')
        && t.len() > 1
        && t[1..]
            .chars()
            .position(|c| "bFgHIKLNTVX".contains(c))
            .is_some_and(|at| at == t.len() - 2)
}

/// `zip [OPTION…] ARCHIVE [FILE…]`: with `-r`/`-R` every file of each tree (hidden ones
/// included) goes into the archive, which is judged as reading those trees; then as any
/// command the table does not model.
pub(super) fn zip(j: &mut Judge<'_>, cmd: &SimpleCommand) {
    let args = cmd.args();
    let recursive = args
        .iter()
        .filter_map(Word::literal)
        .any(|t| matches!(t, "--recurse-paths" | "--recurse-patterns") || short_has(t, ['r', 'R']));
    let mut pos: Vec<&Word> = Vec::new();
    for w in args {
        match w.literal() {
            // `-x`/`-i` lists of patterns run to the end (or the next option): no inputs.
            Some("-x" | "-i" | "--exclude" | "--include") => break,
            Some(t) if t.starts_with('-') && t != "-" => {}
            _ => pos.push(w),
        }
    }
    if recursive {
        followed_trees(j, cmd, pos.get(1..).unwrap_or_default());
    }
    j.read_only(cmd);
}

/// Whether `t` is a cluster of short options holding one of `letters`.
fn short_has<const N: usize>(t: &str, letters: [char; N]) -> bool {
    t.starts_with('-') && !t.starts_with("--") && t[1..].contains(letters)
}

/// The options of the program table's entry for `program` (sed, sort), parsed once.
fn table_options(program: &str) -> Option<&'static crate::programs::spec::Options> {
    use rustc_hash::FxHashMap as HashMap;
    static PARSED: std::sync::OnceLock<HashMap<&'static str, crate::programs::spec::Options>> =
        std::sync::OnceLock::new();
    PARSED
        .get_or_init(|| {
            ["sed", "sort"]
                .into_iter()
                .filter_map(|name| {
                    let entry = crate::programs::table::lookup(name)?;
                    Some((name, crate::programs::spec::Options::parse(entry.options)))
                })
                .collect()
        })
        .get(program)
}

/// `program`'s arguments read as GNU `getopt_long` reads them, against its table entry
/// (clusters, attached values, long options by any unambiguous prefix: `--in-pl`, `--ou`);
/// `None`, with the command judged unmodeled, when the program would refuse them.
fn getopt_items(
    j: &mut Judge<'_>,
    cmd: &SimpleCommand,
    program: &str,
) -> Option<Vec<crate::programs::cursor::Item<'static>>> {
    let Some(options) = table_options(program) else {
        j.unknown(
            cmd,
            "cannot be proven harmless: its options are not known",
            Risk::Medium,
        );
        return None;
    };
    match crate::programs::cursor::read_complete(
        cmd.args(),
        options,
        crate::programs::cursor::Syntax::Gnu,
    ) {
        Ok(items) => Some(items),
        Err(why) => {
            j.unknown(
                cmd,
                &format!("cannot be proven harmless: {why}"),
                Risk::Medium,
            );
            None
        }
    }
}

pub(super) fn sed(j: &mut Judge<'_>, cmd: &SimpleCommand) {
    use crate::programs::cursor::Item;
    // `None` stands for a script the text does not show (`-f FILE`, a dynamic word).
    let mut scripts: Vec<Option<String>> = Vec::new();
    let mut operands: Vec<Word> = Vec::new();
    let (mut in_place, mut explicit) = (false, false);
    let Some(items) = getopt_items(j, cmd, "sed") else {
        return;
    };
    for item in items {
        match item {
            Item::Operand(_, w) => operands.push(w),
            Item::Opt(opt, value) => {
                // `-i[SUFFIX]`, `--in-pl`: in place (whatever follows is a backup suffix).
                in_place |= opt.has('w');
                match opt.display.as_str() {
                    "-e" => {
                        explicit = true;
                        scripts.push(value.as_ref().and_then(Word::literal).map(str::to_owned));
                    }
                    "-f" => {
                        explicit = true;
                        scripts.push(None);
                    }
                    _ => {}
                }
            }
        }
    }
    let mut files: Vec<&Word> = operands.iter().collect();
    if !explicit && !files.is_empty() {
        scripts.push(files.remove(0).literal().map(str::to_owned));
    }
    // The files a script writes (`w FILE`, `s///w FILE`) are judged as any write is
    // (`sed -n 'w .claude/settings.json'` writes protected configuration).
    for script in scripts.iter().flatten() {
        if let Ok(written) = crate::programs::sed::written(script) {
            for file in written {
                j.write(cmd, &Word::literal_text(file), None);
            }
        }
    }
    if in_place {
        for f in files {
            j.write(cmd, f, None);
        }
    } else if scripts
        .iter()
        .any(|s| s.as_deref().is_none_or(sed_script_writes))
    {
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

/// `sort`, its options read as it reads them (`--ou FILE` is `--output FILE`): the file
/// `-o` names is written, the operands and `--random-source` read; `--files0-from` and
/// options the table lacks (`--compress-program`) leave it unmodeled.
pub(super) fn sort(j: &mut Judge<'_>, cmd: &SimpleCommand) {
    use crate::programs::cursor::Item;
    use crate::programs::spec::Value;
    let Some(items) = getopt_items(j, cmd, "sort") else {
        return;
    };
    let mut operands: Vec<Word> = Vec::new();
    let mut out: Option<Word> = None;
    for item in items {
        match item {
            Item::Operand(_, w) => operands.push(w),
            Item::Opt(opt, _) if opt.has('x') => {
                let why = format!("runs or changes more than it reads with `{}`", opt.display);
                return j.unknown(cmd, &why, Risk::Medium);
            }
            Item::Opt(opt, Some(v)) => match opt.value {
                Value::Writes => out = Some(v),
                Value::Reads => j.read(cmd, &v),
                _ => {}
            },
            Item::Opt(..) => {}
        }
    }
    // With `-o` the operands are still read (their lines land in the file).
    reads(j, cmd, &operands.iter().collect::<Vec<_>>());
    if let Some(file) = out {
        j.write(cmd, &file, None);
    }
}

/// `ssh-keygen` other than a query (`-l`, `-y`, `-F`, `-B`): generating a key (`-t T -f
/// FILE`), changing its passphrase or comment, hashing or editing a hosts file, writes
/// the file `-f` names and `FILE.pub` (checked: `ssh-keygen -f K -N ''` creates `K` and
/// `K.pub`). A word only known when it runs may be that file.
pub(super) fn ssh_keygen(j: &mut Judge<'_>, cmd: &SimpleCommand) {
    use crate::programs::table::{SSH_KEYGEN_QUERIES, SSH_KEYGEN_VALUES};
    let args = cmd.args();
    let mut files: Vec<Word> = Vec::new();
    let mut query = false;
    let mut k = 0;
    while let Some(w) = args.get(k) {
        k += 1;
        let Some(t) = w.literal() else {
            files.push(w.clone());
            continue;
        };
        if t == "--" {
            break;
        }
        let Some(cluster) = t.strip_prefix('-').filter(|c| !c.is_empty()) else {
            continue;
        };
        for (at, c) in cluster.char_indices() {
            query |= SSH_KEYGEN_QUERIES.contains(c);
            if SSH_KEYGEN_VALUES.contains(c) {
                let attached = &cluster[at + c.len_utf8()..];
                let value = if attached.is_empty() {
                    k += 1;
                    args.get(k - 1).cloned()
                } else {
                    Some(Word::literal_text(attached))
                };
                if c == 'f'
                    && let Some(v) = value
                {
                    files.push(v);
                }
                break;
            }
        }
    }
    if query {
        return;
    }
    for file in files {
        j.write(cmd, &file, None);
        if let Some(t) = file.literal() {
            j.write(cmd, &Word::literal_text(format!("{t}.pub")), None);
        }
    }
}

/// `split [OPTION]… [INPUT [PREFIX]]` and `csplit [OPTION]… INPUT PATTERN…`: the input is
/// read and the pieces are written as PREFIX (`-f` for csplit) followed by a suffix of the
/// program's making: letters or digits, as many as `-a`/`-n` give or as split widens them
/// itself, then `--additional-suffix`; csplit's `-b` format may add any text.
/// Each length is judged as the glob `PREFIX??…SUFFIX` (`split -a 1 l.txt ~/.bashr`
/// writes `~/.bashrc`), and the pieces as the write of `PREFIX*`.
pub(super) fn split(j: &mut Judge<'_>, cmd: &SimpleCommand, program: &str) {
    use crate::programs::cursor::Item;
    let spec = if program == "csplit" {
        crate::programs::table::CSPLIT_OPTIONS
    } else {
        crate::programs::table::SPLIT_OPTIONS
    };
    let options = crate::programs::spec::Options::parse(spec);
    let items = match crate::programs::cursor::read_complete(
        cmd.args(),
        &options,
        crate::programs::cursor::Syntax::Gnu,
    ) {
        Ok(items) => items,
        Err(why) => {
            return j.unknown(
                cmd,
                &format!("cannot be proven harmless: {why}"),
                Risk::Medium,
            );
        }
    };
    let mut operands: Vec<Word> = Vec::new();
    let mut prefix: Option<Word> = None;
    // The suffix's length when fixed, and what follows it (`None`: any text).
    let mut length: Option<usize> = None;
    let mut after: Option<String> = Some(String::new());
    for item in items {
        match item {
            Item::Operand(_, w) => operands.push(w),
            Item::Opt(opt, _) if opt.has('x') => {
                let why = format!("runs the command `{}` names", opt.display);
                return j.unknown(cmd, &why, Risk::High);
            }
            Item::Opt(opt, value) => {
                let text = value.as_ref().and_then(Word::literal).map(str::to_owned);
                match opt.display.as_str() {
                    "-f" => prefix = value,
                    "-a" if program == "split" => length = text.and_then(|t| t.parse().ok()),
                    "-n" if program == "csplit" => length = text.and_then(|t| t.parse().ok()),
                    "--additional-suffix" => after = text,
                    "-b" => after = None,
                    _ => {}
                }
            }
        }
    }
    let mut operands = operands.into_iter();
    let input = operands.next();
    if program == "split" {
        prefix = operands.next();
    }
    if let Some(input) = input.filter(|w| w.literal() != Some("-")) {
        j.read(cmd, &input);
    }
    let default = if program == "csplit" { "xx" } else { "x" };
    let prefix = prefix.unwrap_or_else(|| Word::literal_text(default));
    let Some(text) = prefix.literal() else {
        return j.write(cmd, &prefix, None);
    };
    let pattern = format!("{text}*");
    // The suffixes: `-a N` (csplit `-n N`) characters; else two, which split widens once
    // they run out by keeping a last `z` (or `9`) and adding two more (`zaaa`, `9000`).
    let suffixes: Vec<String> = match length {
        Some(n) => vec!["?".repeat(n.clamp(1, 8))],
        None => (0..4)
            .flat_map(|k| {
                let free = "?".repeat(2 * k + 2 - k);
                ["z", "9"].map(|last| format!("{}{free}", last.repeat(k)))
            })
            .collect(),
    };
    let names: Vec<String> = match &after {
        Some(after) => suffixes
            .iter()
            .map(|suffix| format!("{text}{suffix}{after}"))
            .collect(),
        None => vec![pattern.clone()],
    };
    let found = names.iter().find_map(|name| {
        let absolute = super::reach::lexical(j.places, name, &cmd.cwd)?;
        let what = j.places.pattern_protected(&absolute.to_string_lossy())?;
        Some((name.clone(), what))
    });
    if let Some((name, what)) = found {
        let reason = format!(
            "{} writes files named `{name}`, which may be {what}: a person edits it, never a call.",
            quote(cmd)
        );
        return j.add(
            Stance::HardDeny,
            crate::policy::codes::FILESYSTEM_PROTECTED_CONFIG,
            Risk::Critical,
            reason,
        );
    }
    j.write(cmd, &Word::literal_text(pattern), None);
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
    let mut archive: Option<Word> = None;
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
            } else if long(&name, "--file") {
                archive = value.or_else(|| args.get(i).cloned());
                i += usize::from(!t.contains('='));
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
                    } else {
                        archive = value;
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
    // An archive created, appended to or updated holds every file of its operands' trees,
    // hidden ones included (`tar -cf - . | cat`, `tar -czf ~/x.tgz .` pack `.env`): each tree
    // is read.
    let packing = !extracting
        && (has_flag(args, 'c', "--create")
            || has_flag(args, 'r', "--append")
            || has_flag(args, 'u', "--update")
            || (!first.starts_with('-') && first.contains(['c', 'r', 'u'])));
    if packing {
        let follow = has_flag(args, 'h', "--dereference");
        let base = dir.as_ref().map_or(Some("."), Word::literal);
        // The values of options given as the next word (`--exclude .env`, `-X list`) are no
        // operands.
        let values: Vec<&Word> = args
            .iter()
            .zip(args.iter().skip(1))
            .filter(|(o, _)| o.literal().is_some_and(takes_next_value))
            .map(|(_, v)| v)
            .collect();
        for w in pos
            .iter()
            .filter(|w| !values.iter().any(|v| std::ptr::eq(*v, **w)))
        {
            let root = match (base, w.literal()) {
                (Some(b), Some(t)) if b != "." && !t.starts_with(['/', '~']) => {
                    Word::literal_text(format!("{}/{t}", b.trim_end_matches('/')))
                }
                (Some(_), _) => (*w).clone(),
                (None, _) => dir.clone().unwrap_or_else(|| (*w).clone()),
            };
            j.tree(cmd, &crate::programs::Tree::whole(root, follow));
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
            members(j, cmd, archive.as_ref(), into);
            return j.extract_tree(cmd, into);
        }
    }
    match &dir {
        Some(d) => j.write(cmd, d, None),
        None => j.write_inside(cmd, "creates or extracts an archive", Risk::Medium),
    }
}

/// The most bytes of a list of sums read now.
const MAX_SUMS_BYTES: u64 = 1 << 20;

/// A list of sums (`sha256sum -c SUMS`): every file it names is read, relative to the working
/// directory. The list is read now, as archives' members are: a list that is not a file in
/// the workspace, cannot be read, is too large, holds a line not read as the program reads it
/// (the `HASH  NAME`, `HASH *NAME` and `ALGO (NAME) = HASH` forms only; an escaped name, a
/// name with a control character, a parenthesis in a tagged one) or that a part of the
/// command may write first leaves the files read unknown.
pub(super) fn listed_reads(j: &mut Judge<'_>, cmd: &SimpleCommand, list: &Word) {
    // A part of the command may write the list before it is read.
    let written = j.script.commands.iter().any(|c| {
        c.redirects
            .iter()
            .any(|r| r.kind == crate::shell::RedirectKind::Write)
            || match j.script.model_of(c).as_ref() {
                crate::programs::Model::Modeled(e) => !e.writes.is_empty(),
                crate::programs::Model::Unmodeled(_) => true,
            }
    });
    let names = list
        .literal()
        .filter(|t| *t != "-" && !written)
        .and_then(|t| {
            let located = j.places.locate(t, &cmd.cwd);
            matches!(located.place, crate::paths::Place::Inside)
                .then(|| listed_names(&located.path))
                .flatten()
        });
    let Some(names) = names else {
        let why = format!(
            "reads the files `{}` names, which are not read now",
            list.raw
        );
        return j.unknown(cmd, &why, Risk::Medium);
    };
    for name in names {
        j.read(cmd, &Word::literal_text(name));
    }
}

/// The names a list of sums at `path` holds, as GNU `sha256sum -c` reads them; `None` when
/// the list is not a plain file, is larger than [`MAX_SUMS_BYTES`], or holds a line not
/// read here (see [`listed_reads`]).
fn listed_names(path: &Path) -> Option<Vec<String>> {
    let meta = std::fs::symlink_metadata(path).ok()?;
    if !meta.is_file() || meta.len() > MAX_SUMS_BYTES {
        return None;
    }
    let text = std::fs::read_to_string(path).ok()?;
    let hex = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_hexdigit());
    let mut names = Vec::new();
    for line in text.lines() {
        if line.is_empty() {
            continue;
        }
        let name = if let Some((head, tail)) = line.split_once(" (") {
            // `SHA256 (NAME) = HASH`.
            let (name, sum) = tail.rsplit_once(") = ")?;
            let algorithm = head.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-');
            if !algorithm || !hex(sum) || name.contains(['(', ')']) {
                return None;
            }
            name
        } else {
            // `HASH  NAME` or `HASH *NAME`.
            let at = line.find(' ')?;
            let (sum, rest) = line.split_at(at);
            if !hex(sum) {
                return None;
            }
            rest.strip_prefix("  ")
                .or_else(|| rest.strip_prefix(" *"))?
        };
        if name.is_empty()
            || name == "-"
            || name.contains('\\')
            || name.chars().any(char::is_control)
        {
            return None;
        }
        names.push(name.to_owned());
    }
    Some(names)
}

#[cfg(test)]
mod sum_list_tests {
    use super::listed_names;

    fn names(text: &str) -> Option<Vec<String>> {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("SUMS");
        std::fs::write(&path, text).unwrap();
        listed_names(&path)
    }

    #[test]
    fn lists_are_read_as_gnu_sha256sum_reads_them() {
        assert_eq!(
            names("ab12  a.txt\nAB12 *b c.bin\n\nSHA256 (d/e.md) = 00ff\n").unwrap(),
            ["a.txt", "b c.bin", "d/e.md"]
        );
        assert_eq!(names("00  *x\n").unwrap(), ["*x"]);
        assert_eq!(names("").unwrap(), Vec::<String>::new());
        // Anything else is not read: escaped names, stdin, control characters, other
        // separators, a tagged name with parentheses.
        for text in [
            "\\ab12  a\\nb\n",
            "ab12  -\n",
            "ab12  a\tb\n",
            "ab12  a\0.env\n",
            "ab12 a.txt\n",
            "ab12\ta.txt\n",
            " ab12  a.txt\n",
            "zz12  a.txt\n",
            "SHA256 (a) b) = 00\n",
            "# comment\n",
            "ab12  \n",
        ] {
            assert_eq!(names(text), None, "{text:?}");
        }
    }
}

#[cfg(test)]
mod copier_tests {
    use warrant_core::evaluator::Stance;

    /// The decision on `command`, `HOME` standing for the home directory's path.
    fn decided(command: &str) -> Stance {
        let ws = tempfile::tempdir().expect("workspace");
        std::fs::create_dir_all(ws.path().join("src")).expect("src");
        std::fs::create_dir_all(ws.path().join(".claude")).expect(".claude");
        std::fs::write(ws.path().join(".claude/settings.json"), "{}").expect("settings");
        let home = tempfile::tempdir().expect("home");
        let sensitive = crate::paths::SensitivePaths::new(&[]).expect("sensitive");
        let places = crate::paths::Places::new(ws.path(), Some(home.path()), Some(&sensitive));
        let command = command.replace("HOME", &home.path().display().to_string());
        let script = crate::shell::parse(&command).expect("parses");
        super::super::judge_script(&script, &places).0.stance
    }

    #[test]
    fn git_archive_and_ssh_keygen_output_files_are_writes() {
        // `git archive -o FILE` and a generated key's FILE and FILE.pub are written.
        for c in [
            "git archive -o HOME/.bashrc HEAD",
            "git archive -vo HOME/.bashrc HEAD",
            "git archive -oHOME/.bashrc HEAD",
            "git archive -o .claude/settings.json HEAD",
            "ssh-keygen -t ed25519 -f .claude/settings.json -N ''",
            "ssh-keygen -f HOME/.bashrc -N '' -q",
            "ssh-keygen -qf HOME/.bashrc -N ''",
            "ssh-keygen -N '' -fHOME/.profile",
            "ssh-keygen -p -f .claude/settings.json -N x -P y",
        ] {
            assert_eq!(decided(c), Stance::HardDeny, "{c}");
        }
        // A key file only known when it runs may be any file.
        assert_eq!(
            decided("ssh-keygen -t ed25519 -f \"$F\" -N ''"),
            Stance::RequireAsk
        );
        // Queries write nothing; other option values are no file.
        for c in [
            "ssh-keygen -l -f HOME/.ssh/known_hosts.pub",
            "ssh-keygen -C HOME/.bashrc -t ed25519 -f src/key -N ''",
            "git archive --format tar -o out.tar HEAD",
        ] {
            assert_ne!(decided(c), Stance::HardDeny, "{c}");
        }
    }

    #[test]
    fn rsync_options_are_read_with_their_values_from_the_table() {
        // Files its options write or read are judged as written or read.
        for c in [
            "rsync -a --log-file=.claude/settings.json src/ dst/",
            "rsync -a --log-file .claude/settings.json src/ dst/",
            "rsync -a --write-batch=.claude/settings.json src/ dst/",
        ] {
            assert_eq!(decided(c), Stance::HardDeny, "{c}");
        }
        // A valued option's value is not a source: the destination stays the last operand.
        for c in [
            "rsync -av src/ dst/",
            "rsync -a --exclude .git src/ dst/",
            "rsync -a -f '- *.o' src/ dst/",
            "rsync -av --delete src/ dst/",
        ] {
            let stance = decided(c);
            assert!(
                !matches!(stance, Stance::HardDeny | Stance::RequireAsk),
                "{c}: {stance:?}"
            );
        }
        // Listing, testing or printing an archive writes nothing.
        for c in [
            "unzip -l a.zip",
            "unzip -t a.zip",
            "unzip -p a.zip f",
            "unzip -Z a.zip",
        ] {
            assert_ne!(decided(c), Stance::RequireAsk, "{c}");
        }
        for c in ["unzip a.zip", "unzip a.zip -dplace", "unzip -Pl0l a.zip"] {
            assert_eq!(decided(c), Stance::RequireAsk, "{c}");
        }
        let items = crate::programs::cursor::read_complete(
            &[
                crate::shell::Word::literal_text("--exclude"),
                crate::shell::Word::literal_text("x"),
                crate::shell::Word::literal_text("-e"),
                crate::shell::Word::literal_text("ssh"),
                crate::shell::Word::literal_text("a"),
                crate::shell::Word::literal_text("b"),
            ],
            super::rsync_options(),
            crate::programs::cursor::Syntax::Gnu,
        )
        .expect("read");
        let operands = items
            .iter()
            .filter(|i| matches!(i, crate::programs::cursor::Item::Operand(..)))
            .count();
        assert_eq!(operands, 2);
    }
}

#[cfg(test)]
mod tests {
    use super::sets_special_bits;

    #[test]
    fn modes_that_add_the_setuid_or_setgid_bit_are_found_in_every_spelling() {
        for mode in [
            "4755", "04755", "2755", "6755", "4777", "u+s", "+s", "g+s", "ug+s", "u+s,g+s",
            "u=rwxs", "a+rwxs", "=4755", "+2000", "o+x,u+s", "u-x+s",
        ] {
            assert!(sets_special_bits(Some(mode)), "{mode}");
        }
        assert!(sets_special_bits(None));
        for mode in [
            "755", "0755", "1777", "644", "u+x", "a-s", "u-s", "go-rwx", "=640", "+t", "u+x,g-s",
            "-R", "-w", "-s",
        ] {
            assert!(!sets_special_bits(Some(mode)), "{mode}");
        }
    }
}
