//! How a program that deletes or changes the files it is given (`rm`, `chmod`, `chown`, …)
//! reads its arguments: through the cursor, against the complete option list of its entry
//! in [`super::table::CHANGERS`], so that every check of what it destroys sees the options
//! the program sees (`rm --rec --forc ~` is `rm -rf ~`).

use rustc_hash::FxHashMap as HashMap;
use std::sync::OnceLock;

use super::cursor::{self, Item, Syntax};
use super::spec::Options;
use super::table::CHANGERS;
use crate::shell::Word;

/// What a changer's arguments ask of it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Changes {
    /// Whether it reaches its operands as whole trees (`-r`, `-R`, `--rec`).
    pub recursive: bool,
    /// Whether it follows the symbolic links it meets in those trees (`cp -L`, `--deref`):
    /// the last of the options that choose (`-L`, `-P`, `-d`, `-a`) decides, as getopt
    /// reads them in turn.
    pub follows: bool,
    /// Whether the protection of the filesystem root is off (`--no-preserve-root`, `--no-p`).
    pub unprotected_root: bool,
    /// Whether an option gives the mode (`chmod -w FILE`): then every operand is a file.
    pub mode_given: bool,
    /// Whether a reference file gives the mode or owner (`--reference=FILE`).
    pub by_reference: bool,
    /// Whether processes are chosen by owner or group (`pkill -u USER`, `killall --user`).
    pub by_owner: bool,
    /// Whether the names given are regular expressions (`killall -r`).
    pub regex: bool,
    /// Whether the processes chosen are those the names do not match (`pkill -v`).
    pub inverse: bool,
    /// Whether a pattern must match the whole name or command line (`pkill -x`).
    pub exact: bool,
    /// The signal sent, when named (`-9`, `-KILL`, `--signal=0`, `-s 0`).
    pub signal: Option<String>,
    /// Its operands, option values left out.
    pub operands: Vec<Word>,
    /// Why the program would refuse its arguments, when it would (an ambiguous prefix, an
    /// option it lacks): the other fields are then the most destructive reading.
    pub refused: Option<String>,
}

/// The parsed option lists of [`CHANGERS`], by program name.
fn options(program: &str) -> Option<&'static Options> {
    static PARSED: OnceLock<HashMap<&'static str, Options>> = OnceLock::new();
    PARSED
        .get_or_init(|| {
            CHANGERS
                .iter()
                .flat_map(|(names, spec)| names.iter().map(|n| (*n, Options::parse(spec))))
                .collect()
        })
        .get(program)
}

/// How `program` (as written, maybe with a directory) reads `args`, if it is a changer.
pub(crate) fn read(program: &str, args: &[Word]) -> Option<Changes> {
    let program = program.rsplit('/').next().unwrap_or(program);
    let options = options(program)?;
    let mut out = Changes::default();
    // `pkill -9`, `killall -KILL`: a signal named as an option, read before getopt.
    let mut rest: Vec<Word> = Vec::with_capacity(args.len());
    for w in args {
        let signal = w
            .literal()
            .and_then(|t| t.strip_prefix('-'))
            .filter(|_| matches!(program, "pkill" | "killall"))
            .filter(|s| {
                s.chars().all(|c| c.is_ascii_digit()) && !s.is_empty()
                    || s.starts_with("SIG")
                    || (s.len() >= 3
                        && s.chars()
                            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit()))
            });
        match signal {
            Some(s) => out.signal = Some(s.to_owned()),
            None => rest.push(w.clone()),
        }
    }
    let args = &rest[..];
    match cursor::read_complete(args, options, Syntax::Gnu) {
        Ok(items) => {
            for item in items {
                match item {
                    Item::Opt(opt, value) => {
                        out.recursive |= opt.has('R');
                        if opt.has('L') {
                            out.follows = true;
                        } else if opt.has('K') {
                            out.follows = false;
                        }
                        out.unprotected_root |= opt.has('D');
                        out.mode_given |= opt.has('M');
                        out.by_owner |= opt.has('U');
                        out.regex |= opt.has('X');
                        out.inverse |= opt.has('V');
                        out.exact |= program == "pkill" && opt.display == "-x";
                        out.by_reference |= opt.display == "--reference";
                        if opt.display == "--signal"
                            || (program == "killall" && opt.display == "-s")
                        {
                            out.signal = value.map(|v| v.text().to_owned());
                        }
                    }
                    Item::Operand(_, word) => out.operands.push(word),
                }
            }
        }
        Err(why) => {
            out = most_destructive(args, options);
            out.refused = Some(why);
        }
    }
    Some(out)
}

/// Whether `program` reaches its operands as whole trees with `args` (`cp --rec`, `rm -R`),
/// read as [`read`] reads them; `None` when the program is not a changer.
pub(crate) fn recursive(program: &str, args: &[Word]) -> Option<bool> {
    read(program, args).map(|c| c.recursive)
}

/// The most destructive reading of arguments the program would refuse (or that a later
/// version may accept): every option word is each option it may abbreviate or cluster, and
/// every other word an operand.
fn most_destructive(args: &[Word], options: &Options) -> Changes {
    let mut out = Changes::default();
    let mut options_done = false;
    for word in args {
        let text = match word.literal() {
            Some("--") if !options_done => {
                options_done = true;
                continue;
            }
            Some(t) if !options_done && t.starts_with('-') && t != "-" => t,
            _ => {
                out.operands.push(word.clone());
                continue;
            }
        };
        let opts: Vec<&super::spec::Opt> = match text.strip_prefix("--") {
            Some(long) => {
                let name = long.split_once('=').map_or(long, |(n, _)| n);
                options.long_prefixed(name)
            }
            None => text[1..].chars().filter_map(|c| options.short(c)).collect(),
        };
        for opt in opts {
            out.recursive |= opt.has('R');
            out.follows |= opt.has('L');
            out.unprotected_root |= opt.has('D');
            out.by_owner |= opt.has('U');
            out.regex |= opt.has('X');
            out.inverse |= opt.has('V');
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn changes(program: &str, args: &[&str]) -> Changes {
        let words: Vec<Word> = args.iter().map(|a| Word::literal_text(*a)).collect();
        read(program, &words).expect("a changer")
    }

    fn operands(c: &Changes) -> Vec<&str> {
        c.operands.iter().map(Word::text).collect()
    }

    #[test]
    fn long_option_prefixes_are_read_as_getopt_long_reads_them() {
        for args in [
            &["--rec", "--forc", "~"][..],
            &["--r", "--f", "~"],
            &["-rf", "~"],
            &["~", "-R"],
            &["--recursive", "~"],
        ] {
            let c = changes("rm", args);
            assert!(c.recursive && c.refused.is_none(), "{args:?}");
            assert_eq!(operands(&c), ["~"], "{args:?}");
        }
        assert!(!changes("rm", &["-f", "x"]).recursive);
        assert!(!changes("rm", &["--", "-r"]).recursive);
        assert!(changes("/bin/rm", &["--no", "/"]).unprotected_root);
        assert!(changes("chmod", &["--no-p", "-R", "777", "/"]).unprotected_root);
        assert!(changes("chmod", &["--rec", "000", "~"]).recursive);
        assert!(changes("chown", &["--recu", "me", "~"]).recursive);
        assert!(changes("chgrp", &["-hR", "g", "~"]).recursive);
    }

    #[test]
    fn refused_arguments_are_read_at_their_most_destructive() {
        // `chmod --re` may be `--recursive` or `--reference`: chmod refuses it.
        let c = changes("chmod", &["--re", "000", "~"]);
        assert!(c.refused.is_some() && c.recursive);
        let c = changes("rm", &["--bogus", "-qr", "x"]);
        assert!(c.refused.is_some() && c.recursive);
        assert_eq!(operands(&c), ["x"]);
    }

    #[test]
    fn process_killers_read_owners_patterns_and_signals() {
        let c = changes("pkill", &["--eu", "root"]);
        assert!(c.by_owner && c.operands.is_empty());
        assert!(changes("pkill", &["--exa", "sh"]).exact);
        assert!(!changes("pkill", &["-f", "sh"]).exact);
        assert!(!changes("killall", &["-e", "sh"]).exact);
        let c = changes("pkill", &["-9", "-u", "me"]);
        assert!(c.by_owner && c.signal.as_deref() == Some("9"));
        let c = changes("killall", &["--reg", "."]);
        assert!(c.regex);
        assert_eq!(operands(&c), ["."]);
        let c = changes("killall", &["-s", "0", "-r", "."]);
        assert_eq!(c.signal.as_deref(), Some("0"));
        let c = changes("pkill", &["--sig=0", "-u", "me"]);
        assert_eq!(c.signal.as_deref(), Some("0"));
        let c = changes("pkill", &["--inv", "xyz"]);
        assert!(c.inverse && c.operands.len() == 1);
        let c = changes("pkill", &["-v", "xyz"]);
        assert!(c.inverse);
        let c = changes("pkill", &["-KILL", "node"]);
        assert!(!c.by_owner && c.signal.as_deref() == Some("KILL"));
        assert_eq!(operands(&c), ["node"]);
    }

    #[test]
    fn copies_read_trees_by_any_spelling() {
        for args in [
            &["--rec", "a", "b"][..],
            &["--arch", "a", "b"],
            &["-va", "a", "b"],
            &["-R", "a", "b"],
        ] {
            assert_eq!(recursive("cp", &words(args)), Some(true), "{args:?}");
        }
        assert_eq!(
            recursive("cp", &words(&["--verbose", "a", "b"])),
            Some(false)
        );
        assert_eq!(recursive("cat", &words(&["-r"])), None);
    }

    fn words(args: &[&str]) -> Vec<Word> {
        args.iter().map(|a| Word::literal_text(*a)).collect()
    }

    #[test]
    fn modes_values_and_references() {
        let c = changes("chmod", &["-w", "~/.bashrc"]);
        assert!(c.mode_given && !c.recursive);
        assert_eq!(operands(&c), ["~/.bashrc"]);
        let c = changes("chmod", &["-R", "u+x", "bin"]);
        assert!(c.recursive && !c.mode_given);
        assert_eq!(operands(&c), ["u+x", "bin"]);
        let c = changes("chmod", &["--reference=a", "b"]);
        assert!(c.by_reference);
        assert_eq!(operands(&c), ["b"]);
        let c = changes("shred", &["-n", "3", "-u", "f"]);
        assert_eq!(operands(&c), ["f"]);
        let c = changes("truncate", &["-s", "0", "log"]);
        assert_eq!(operands(&c), ["log"]);
        assert!(read("cat", &[]).is_none());
    }
}
