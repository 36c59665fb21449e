//! The argument cursor: reads a command's arguments the way GNU getopt does (clusters of short
//! options, values attached or in the next word, `--name=value`, `--`), against the options a
//! program's table entry lists. Anything it cannot read with certainty is an error that makes
//! the command unmodeled: an unknown option, an abbreviated long option (unless it abbreviates
//! an option that writes or runs, read as that option), an option only known when it runs.

use super::spec::{Opt, Options, Value};
use crate::shell::Word;

/// How a program reads its options.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Syntax {
    /// GNU getopt: options anywhere among the operands (permutation).
    Gnu,
    /// Options only before the first operand (POSIX, wrappers).
    Posix,
    /// As [`Syntax::Gnu`], but a short option's value is always the next argument, even
    /// inside a cluster, whose next letters are options still: tree's own reading
    /// (`tree -Lo 1 f` is `-L 1 -o f`).
    Separate,
    /// As [`Syntax::Gnu`], but a short option's attached value drops a leading `=`, as
    /// clap reads it (`rg -f=list` reads the file `list`).
    Clap,
}

/// One argument as the program reads it.
#[derive(Debug, Clone)]
pub(crate) enum Item<'a> {
    /// An option and its value.
    Opt(&'a Opt, Option<Word>),
    /// An operand, and its position among the arguments.
    Operand(usize, Word),
}

/// The words a brace expansion stands for, when braces are the word's only run-time part.
fn word_braces(word: &Word) -> Option<Vec<String>> {
    let raw = word.raw.as_str();
    let plain = !raw.contains(['$', '`', '"', '\'', '\\']);
    if !plain || !super::may_split(word) || !raw.contains('{') {
        return None;
    }
    let mut out = Vec::new();
    crate::shell::expand_braces(raw, &mut out);
    (out.len() > 1 || out.first().is_some_and(|o| o != raw)).then_some(out)
}

/// An option's value taken from the next word: it must stay one word (`-s **` would give
/// the option the first expansion and the program the rest).
pub(super) fn single(word: &Word) -> Result<&Word, String> {
    if super::may_split(word) {
        return Err(format!(
            "`{}` may become several words where one value is read",
            word.raw
        ));
    }
    Ok(word)
}

/// Reads `args` against `options`.
///
/// `numeric` accepts `-NUM` (`head -5`). Words whose value is only known when they run are
/// operands when their literal prefix shows they cannot be an option (`src/$F`), or when
/// they come after `--` or after the first operand of a POSIX program, and errors otherwise.
///
/// # Errors
///
/// Why the arguments cannot be read with certainty, in words.
pub(crate) fn read<'a>(
    args: &[Word],
    options: &'a Options,
    syntax: Syntax,
    numeric: bool,
) -> Result<Vec<Item<'a>>, String> {
    read_with(args, options, syntax, numeric, false)
}

/// Reads `args` against `options` that list every option the program has, as GNU
/// `getopt_long` does: a long option may be abbreviated to any prefix that names one option
/// (`rm --rec --forc`), and a prefix that names several is refused, as the program refuses
/// it. A word whose value is only known when it runs is an operand, which the caller judges
/// (that it may be an option is the caller's to weigh).
///
/// # Errors
///
/// Why the program would refuse the arguments (an unknown option, an ambiguous prefix, a
/// missing value), in words.
pub(crate) fn read_complete<'a>(
    args: &[Word],
    options: &'a Options,
    syntax: Syntax,
) -> Result<Vec<Item<'a>>, String> {
    read_with(args, options, syntax, false, true)
}

/// The long option `name` names: exactly, or with `prefixes` as its unambiguous prefix.
///
/// Without `prefixes` (a table that may not list every option) an abbreviation is still
/// read as the one listed option it begins when that option writes, runs or changes
/// something (`sort --ou FILE`, `sed --in-pl`): the program reads it so unless it has an
/// unlisted option of exactly that name, and reading the stronger option only makes the
/// verdict stricter. An abbreviation of a harmless option stays an error.
fn long_option<'a>(options: &'a Options, name: &str, prefixes: bool) -> Result<&'a Opt, String> {
    if let Some(opt) = options.long(name) {
        return Ok(opt);
    }
    if !prefixes
        && !name.is_empty()
        && let [opt] = options.long_prefixed(name).as_slice()
        && (opt.value == Value::Writes || opt.has('x') || opt.has('w'))
    {
        return Ok(opt);
    }
    if prefixes && !name.is_empty() {
        match options.long_prefixed(name).as_slice() {
            [opt] => return Ok(opt),
            [] => {}
            several => {
                let names: Vec<&str> = several.iter().map(|o| o.display.as_str()).collect();
                return Err(format!(
                    "the option `--{name}` is ambiguous ({})",
                    names.join(", ")
                ));
            }
        }
    }
    Err(format!("it does not know the option `--{name}`"))
}

fn read_with<'a>(
    args: &[Word],
    options: &'a Options,
    syntax: Syntax,
    numeric: bool,
    prefixes: bool,
) -> Result<Vec<Item<'a>>, String> {
    let mut out = Vec::with_capacity(args.len());
    let mut options_done = false;
    let mut i = 0;
    while let Some(word) = args.get(i) {
        i += 1;
        let at = i - 1;
        if options_done {
            out.push(Item::Operand(at, word.clone()));
            continue;
        }
        let Some(text) = word.literal() else {
            if prefixes {
                out.push(Item::Operand(at, word.clone()));
                continue;
            }
            if let Some(domain) = word.domain.as_ref().filter(|_| options.checked_operands) {
                if let Some(v) = domain.values.iter().find(|v| v.starts_with('-')) {
                    return Err(format!("`{}` may be `{v}`, an option", word.raw));
                }
                if syntax == Syntax::Posix {
                    options_done = true;
                }
                out.push(Item::Operand(at, word.clone()));
                continue;
            }
            // Brace expansion alone (`{src,tests}/*.rs`): its words are known.
            let alternatives = word_braces(word);
            if let Some(alternatives) = &alternatives
                && alternatives.iter().all(|a| !a.starts_with('-'))
            {
                if syntax == Syntax::Posix {
                    options_done = true;
                }
                out.push(Item::Operand(at, word.clone()));
                continue;
            }
            // Options each (`--include=*.{ts,tsx}`, `--exclude-dir={.git,target}`): each word
            // read as an option of its own, its value attached.
            if let Some(alternatives) = &alternatives
                && alternatives
                    .iter()
                    .all(|a| a.starts_with('-') && a != "-" && a != "--")
            {
                for a in alternatives {
                    let alone = [Word::literal_text(a)];
                    for item in read_with(&alone, options, syntax, numeric, prefixes)? {
                        if let Item::Operand(..) = item {
                            return Err(format!("`{}` may expand into other words", word.raw));
                        }
                        out.push(item);
                    }
                }
                continue;
            }
            if (word.prefix.is_empty() || word.prefix.starts_with('-')) && !options.inert {
                return Err(format!(
                    "`{}` may be an option, and it is only known when it runs",
                    word.raw
                ));
            }
            if syntax == Syntax::Posix {
                options_done = true;
            }
            out.push(Item::Operand(at, word.clone()));
            continue;
        };
        if text == "--" {
            options_done = true;
            continue;
        }
        if text.starts_with('-') && word_braces(word).is_some() {
            // `-{s,x}` is two words.
            return Err(format!("`{}` may expand into other words", word.raw));
        }
        if text == "-" || !text.starts_with('-') {
            if syntax == Syntax::Posix {
                options_done = true;
            }
            out.push(Item::Operand(at, word.clone()));
            continue;
        }
        if let Some(long) = text.strip_prefix("--") {
            let (name, attached) = match long.split_once('=') {
                Some((n, v)) => (n, Some(v)),
                None => (long, None),
            };
            let opt = long_option(options, name, prefixes)?;
            let value = match (opt.value, attached) {
                (Value::None, Some(_)) => {
                    return Err(format!("`--{name}` takes no value"));
                }
                (Value::None | Value::Optional, None) => None,
                (_, Some(v)) => Some(Word::literal_text(v)),
                (_, None) if opt.has('o') && args.get(i).is_none() => None,
                (_, None) => {
                    let v = args
                        .get(i)
                        .ok_or_else(|| format!("`--{name}` lacks its value"))?;
                    i += 1;
                    Some(single(v)?.clone())
                }
            };
            if opt.has('2') {
                args.get(i)
                    .ok_or_else(|| format!("`--{name}` lacks its second value"))?;
                i += 1;
            }
            out.push(Item::Opt(opt, value));
            continue;
        }
        let cluster = &text[1..];
        if numeric && cluster.chars().all(|c| c.is_ascii_digit()) {
            continue;
        }
        for (at, c) in cluster.char_indices() {
            let opt = options
                .short(c)
                .ok_or_else(|| format!("it does not know the option `-{c}`"))?;
            let rest = &cluster[at + c.len_utf8()..];
            match opt.value {
                Value::None => out.push(Item::Opt(opt, None)),
                Value::Optional => {
                    let rest = match syntax {
                        Syntax::Clap => rest.strip_prefix('=').unwrap_or(rest),
                        _ => rest,
                    };
                    let v = (!rest.is_empty()).then(|| Word::literal_text(rest));
                    out.push(Item::Opt(opt, v));
                    break;
                }
                _ if syntax == Syntax::Separate => {
                    let v = args
                        .get(i)
                        .ok_or_else(|| format!("`-{c}` lacks its value"))?;
                    i += 1;
                    out.push(Item::Opt(opt, Some(single(v)?.clone())));
                }
                _ if !rest.is_empty() => {
                    let rest = match syntax {
                        Syntax::Clap => rest.strip_prefix('=').unwrap_or(rest),
                        _ => rest,
                    };
                    out.push(Item::Opt(opt, Some(Word::literal_text(rest))));
                    break;
                }
                _ if opt.has('o') && args.get(i).is_none() => {
                    out.push(Item::Opt(opt, None));
                    break;
                }
                _ => {
                    let v = args
                        .get(i)
                        .ok_or_else(|| format!("`-{c}` lacks its value"))?;
                    i += 1;
                    out.push(Item::Opt(opt, Some(single(v)?.clone())));
                    break;
                }
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &[&str]) -> Vec<Word> {
        text.iter().map(|t| Word::literal_text(*t)).collect()
    }

    fn shown(items: &[Item<'_>]) -> Vec<String> {
        items
            .iter()
            .map(|i| match i {
                Item::Opt(o, v) => format!("{}={}", o.display, v.as_ref().map_or("", Word::text)),
                Item::Operand(_, w) => w.text().to_owned(),
            })
            .collect()
    }

    #[test]
    fn clusters_attached_values_and_permutation() {
        let o = Options::parse("n|lines=n v|verbose o|output=w");
        let items = read(
            &words(&["-vn5", "a", "-ofile", "--lines=3", "b"]),
            &o,
            Syntax::Gnu,
            false,
        )
        .unwrap();
        assert_eq!(shown(&items), ["-v=", "-n=5", "a", "-o=file", "-n=3", "b"]);
        let items = read(&words(&["-o", "out", "--", "-v"]), &o, Syntax::Gnu, false).unwrap();
        assert_eq!(shown(&items), ["-o=out", "-v"]);
    }

    #[test]
    fn tree_gives_a_clusters_values_the_next_arguments_and_clap_drops_an_equals_sign() {
        let o = Options::parse("L=v o=w a f=r");
        let items = read(
            &words(&["-aLo", "1", "out", "dir"]),
            &o,
            Syntax::Separate,
            false,
        )
        .unwrap();
        assert_eq!(shown(&items), ["-a=", "-L=1", "-o=out", "dir"]);
        assert!(read(&words(&["-Lo", "1"]), &o, Syntax::Separate, false).is_err());
        let items = read(&words(&["-f=list", "x"]), &o, Syntax::Clap, false).unwrap();
        assert_eq!(shown(&items), ["-f=list", "x"]);
        let items = read(&words(&["-f=list", "x"]), &o, Syntax::Gnu, false).unwrap();
        assert_eq!(shown(&items), ["-f==list", "x"]);
    }

    #[test]
    fn unknown_abbreviated_and_run_time_options_are_errors() {
        let o = Options::parse("i|in-place=?!w n quiet");
        assert!(read(&words(&["--qui", "x"]), &o, Syntax::Gnu, false).is_err());
        assert!(read(&words(&["-nz"]), &o, Syntax::Gnu, false).is_err());
        let dynamic = [Word::dynamic("$X", "")];
        assert!(read(&dynamic, &o, Syntax::Gnu, false).is_err());
        let below = [Word::dynamic("src/$X", "src/")];
        assert!(read(&below, &o, Syntax::Gnu, false).is_ok());
    }

    #[test]
    fn complete_tables_read_unambiguous_long_prefixes() {
        let o = Options::parse(
            "r|R|recursive!R f|force i interactive=? no-preserve-root!D preserve-root=? reference=r",
        );
        let items = read_complete(&words(&["--rec", "--forc", "~"]), &o, Syntax::Gnu).unwrap();
        assert_eq!(shown(&items), ["-r=", "-f=", "~"]);
        let items = read_complete(&words(&["--no", "--int=never", "x"]), &o, Syntax::Gnu).unwrap();
        assert_eq!(
            shown(&items),
            ["--no-preserve-root=", "--interactive=never", "x"]
        );
        // `--re` may be `--recursive` or `--reference`: the program refuses it.
        assert!(read_complete(&words(&["--re", "x"]), &o, Syntax::Gnu).is_err());
        // An exact name wins over the longer names it begins.
        let o = Options::parse("color=? color-output");
        let items = read_complete(&words(&["--color", "--color-o"]), &o, Syntax::Gnu).unwrap();
        assert_eq!(shown(&items), ["--color=", "--color-output="]);
        // Abbreviations stay errors where the table may not list every option.
        assert!(read(&words(&["--color-o"]), &o, Syntax::Gnu, false).is_err());
        let dynamic = [Word::dynamic("$X", "")];
        assert_eq!(
            shown(&read_complete(&dynamic, &o, Syntax::Gnu).unwrap()),
            ["$X"]
        );
    }

    #[test]
    fn abbreviations_of_options_that_write_are_read_as_them() {
        // A table that may be incomplete: the abbreviation of an option that writes is that
        // option (getopt_long reads it so), one of a harmless option stays an error.
        let o = Options::parse("o|output=w i|in-place=?!w pre=v!x pre-glob=v q|quiet");
        let items = read(
            &words(&["--ou", "f", "--in-pl", "x"]),
            &o,
            Syntax::Gnu,
            false,
        )
        .unwrap();
        assert_eq!(shown(&items), ["-o=f", "-i=", "x"]);
        let items = read(&words(&["--outp=f"]), &o, Syntax::Gnu, false).unwrap();
        assert_eq!(shown(&items), ["-o=f"]);
        assert!(read(&words(&["--qu"]), &o, Syntax::Gnu, false).is_err());
        // `--pr` may be `--pre` or `--pre-glob`: refused.
        assert!(read(&words(&["--pr=./x"]), &o, Syntax::Gnu, false).is_err());
        assert!(read(&words(&["--pre-g=x"]), &o, Syntax::Gnu, false).is_err());
    }

    #[test]
    fn posix_programs_stop_at_the_first_operand() {
        let o = Options::parse("n");
        let items = read(&words(&["-n", "cmd", "-x"]), &o, Syntax::Posix, false).unwrap();
        assert_eq!(shown(&items), ["-n=", "cmd", "-x"]);
    }
}
