//! What a recursive search prints of the files it reads: with literal patterns and options
//! that keep its output to the lines that match, `grep -rn TODO .` prints nothing of a file
//! in which no pattern occurs. A secret file of the tree (`.env`) that holds none of the
//! patterns is then read but never shown, which the policy checks against the file's
//! content at decision time ([`cannot_print`]).

use super::cursor::Item;
use crate::shell::SimpleCommand;

/// The options of `grep` (by the table's display name) after which only lines holding a
/// match are printed, or names and counts: `-v` prints the lines that do not match and
/// `-f` reads patterns from a file, so neither is here, nor is any option not named.
const GREP_MATCHING_ONLY: &[&str] = &[
    "-E",
    "-F",
    "-G",
    "-P",
    "-e",
    "-i",
    "--no-ignore-case",
    "-w",
    "-x",
    "-y",
    "-c",
    "--color",
    "-L",
    "-l",
    "-m",
    "-o",
    "-q",
    "-s",
    "-b",
    "-H",
    "-h",
    "-n",
    "-T",
    "-u",
    "-Z",
    "-z",
    "-A",
    "-B",
    "-C",
    "-a",
    "-I",
    "--binary-files",
    "-D",
    "--exclude",
    "--exclude-dir",
    "--include",
    "-r",
    "-R",
    "--line-buffered",
    "-U",
];

/// The programs whose recursive search is read here: `grep` under its names. (`zgrep`
/// decompresses what it reads, so the bytes of a file are not what it searches.)
const SEARCHERS: &[&str] = &["grep", "egrep", "fgrep"];

/// The most bytes of a file searched for the patterns; a larger file is not proven.
const MAX_BYTES: u64 = 1024 * 1024;

/// The literal patterns of a recursive search that prints only lines holding one of them,
/// or `None` when what it prints of a file is not bounded that way (another program, an
/// option outside [`GREP_MATCHING_ONLY`], a pattern with a run-time part or any character a
/// regular expression may read as more than itself).
pub(crate) fn only_lines_holding(cmd: &SimpleCommand) -> Option<Vec<String>> {
    let program = cmd.program()?;
    let program = program.rsplit('/').next().unwrap_or(program);
    if !SEARCHERS.contains(&program) {
        return None;
    }
    let entry = super::entries().get(program)?;
    let items = super::read_args(entry, cmd.words.get(1..)?).ok()?;
    let mut patterns = Vec::new();
    let mut given = false;
    let mut first_operand = None;
    for item in items {
        match item {
            Item::Opt(opt, value) => {
                if !GREP_MATCHING_ONLY.contains(&opt.display.as_str()) {
                    return None;
                }
                if opt.display == "-e" {
                    given = true;
                    patterns.push(value?.literal()?.to_owned());
                }
            }
            Item::Operand(_, word) => {
                if first_operand.is_none() {
                    first_operand = Some(word);
                }
            }
        }
    }
    if !given {
        patterns.push(first_operand?.literal()?.to_owned());
    }
    patterns.iter().all(|p| literal(p)).then_some(patterns)
}

/// Whether `pattern` matches only itself in every syntax the searchers read (basic,
/// extended and Perl regular expressions, fixed strings): letters, digits and punctuation
/// no syntax gives a meaning, never empty.
fn literal(pattern: &str) -> bool {
    !pattern.is_empty()
        && pattern
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b" _-:/=,@%'\"<>!&;~".contains(&b))
}

/// Whether a search that prints only lines holding one of `patterns` prints nothing of the
/// file at `path`: a regular file (not a link) of at most [`MAX_BYTES`] bytes, all of them
/// ASCII without NUL, in which no pattern occurs, letters compared without case (a search
/// with `-i` or a smart case finds no more). Any doubt answers `false`.
pub(crate) fn cannot_print(path: &std::path::Path, patterns: &[String]) -> bool {
    let Ok(meta) = std::fs::symlink_metadata(path) else {
        return false;
    };
    if !meta.file_type().is_file() || meta.len() > MAX_BYTES {
        return false;
    }
    let Ok(mut bytes) = std::fs::read(path) else {
        return false;
    };
    if bytes.len() as u64 > MAX_BYTES || bytes.iter().any(|&b| b == 0 || !b.is_ascii()) {
        return false;
    }
    bytes.make_ascii_lowercase();
    patterns.iter().all(|p| {
        let needle = p.to_ascii_lowercase();
        !bytes.windows(needle.len()).any(|w| w == needle.as_bytes())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn patterns(command: &str) -> Option<Vec<String>> {
        let script = crate::shell::parse(command).expect("parses");
        only_lines_holding(&script.commands[0])
    }

    #[test]
    fn literal_patterns_of_searches_that_print_matching_lines() {
        assert_eq!(patterns("grep -rn TODO ."), Some(vec!["TODO".to_owned()]));
        assert_eq!(
            patterns("grep -rni -e fixme -e 'XXX:' --exclude-dir=target ."),
            Some(vec!["fixme".to_owned(), "XXX:".to_owned()])
        );
        assert_eq!(
            patterns("grep -rl 'fn main' src ."),
            Some(vec!["fn main".to_owned()])
        );
    }

    #[test]
    fn anything_else_prints_unbounded_lines() {
        for command in [
            "grep -rv TODO .",
            "grep -r --invert-match TODO .",
            "grep -rf pats .",
            "grep -r 'a.*b' .",
            "grep -r 'KEY|TODO' .",
            "grep -r '' .",
            "grep -r \"$X\" .",
            "grep -r -e \"$X\" .",
            "grep -r 'TO\\DO' .",
            "zgrep TODO x.gz",
            "rg TODO",
            "grep --version",
        ] {
            assert_eq!(patterns(command), None, "{command}");
        }
    }

    #[test]
    fn a_file_prints_nothing_only_when_no_pattern_occurs_in_it() {
        let dir = tempfile::tempdir().expect("a directory");
        let file = dir.path().join(".env");
        let todo = vec!["TODO".to_owned()];
        std::fs::write(&file, "API_KEY=abc\n").expect("written");
        assert!(cannot_print(&file, &todo));
        std::fs::write(&file, "API_KEY=abc # todo rotate\n").expect("written");
        assert!(!cannot_print(&file, &todo), "case is not compared");
        std::fs::write(&file, "API_KEY=\u{e9}\n").expect("written");
        assert!(!cannot_print(&file, &todo), "non-ASCII text is not proven");
        std::fs::write(&file, b"\xff\xfeT\0O\0D\0O\0").expect("written");
        assert!(!cannot_print(&file, &todo), "UTF-16 text is not proven");
        std::fs::write(&file, vec![b'a'; MAX_BYTES as usize + 1]).expect("written");
        assert!(!cannot_print(&file, &todo), "a larger file is not proven");
        let link = dir.path().join("link");
        std::os::unix::fs::symlink("/proc/self/environ", &link).expect("a link");
        assert!(!cannot_print(&link, &todo), "a link is not proven");
        assert!(
            !cannot_print(dir.path(), &todo),
            "a directory is not proven"
        );
        assert!(!cannot_print(&dir.path().join("gone"), &todo));
    }
}
