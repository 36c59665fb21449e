//! The option language of the program table: one short string per program lists its options,
//! their arity and their effect, so the table stays data.
//!
//! Each entry is `NAMES[=VALUE][!MARK…]`, entries separated by spaces:
//! - `NAMES`: `|`-separated; one character is a short option (`-n`), more a long one (`--lines`).
//! - `=v` takes a plain value; `=r` a path that is read; `=w` a path that is written;
//!   `=?` an optional value (`--color[=WHEN]`, attached only); `=n` a number.
//! - `!x` the option is not read-only (runs a program, writes, talks to the network): the
//!   command is unmodeled whatever else it does; `!w` the operands are written in place;
//!   `!R` the operands are read as whole trees; `!L` trees are followed through symlinks;
//!   `!H` hidden files are searched too; `!p` the pattern is given by this option, so every
//!   operand is a path; `!F` the program lists files instead of searching them; `!N` the
//!   operands are plain paths (`git diff --no-index`); `!o` the value is optional when the
//!   option is the last argument; `!2` the option takes a second value (`--arg NAME VALUE`);
//!   `!S` the operands are lists of sums, each file a list names read too (`sha256sum -c`);
//!   `!M` the option is a mode, not a flag (`chmod -w FILE`); `!D` the option turns off the
//!   protection of the filesystem root (`--no-preserve-root`); `!K` symbolic links are kept
//!   as links, not followed (`cp -P`, `-d`, `-a`: the last of `!L` and `!K` decides); `!c`
//!   the program then prints only counts, names or a status of what it reads (`grep -c`,
//!   `-l`, `-q`); `!C` it prints bytes of what it reads although it otherwise prints a
//!   digest (`cmp -l`).

use std::collections::HashMap;

/// What an option's value is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Value {
    /// A flag: no value.
    None,
    /// A required value, not a path.
    Plain,
    /// A required value that is a path the program reads.
    Reads,
    /// A required value that is a path the program writes.
    Writes,
    /// An optional value, only ever attached (`--color=auto`, `-i.bak`).
    Optional,
}

/// One option of a program.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Opt {
    /// The first name it was listed with, for reasons (`-n` or `--lines`).
    pub display: String,
    /// What its value is.
    pub value: Value,
    /// Marks: `x` not read-only, `w` in place, `R` recursive, `L` follows links, `H` hidden
    /// files, `p` pattern given, `m` metadata only.
    pub marks: String,
}

impl Opt {
    /// Whether the option carries `mark`.
    pub(crate) fn has(&self, mark: char) -> bool {
        self.marks.contains(mark)
    }
}

/// A program's options, indexed by name.
#[derive(Debug, Clone, Default)]
pub(crate) struct Options {
    short: HashMap<char, usize>,
    long: HashMap<String, usize>,
    all: Vec<Opt>,
    /// Whether every option the program really has is listed and harmless, so that a word
    /// only known when it runs changes nothing the policy judges even if it is an option
    /// (set by the table for such programs only: `basename`, `dirname`).
    pub inert: bool,
    /// Whether the program's operands are paths whose values the policy checks one by one
    /// (names that read as options included): only then is a word with a known domain an
    /// operand.
    pub checked_operands: bool,
}

impl Options {
    /// Parses a table string.
    ///
    /// # Panics
    ///
    /// On a malformed table string: the table is data compiled into the program, and a test
    /// reads every entry.
    pub(crate) fn parse(spec: &str) -> Self {
        let mut out = Self::default();
        for entry in spec.split_whitespace() {
            let (head, marks) = match entry.split_once('!') {
                Some((h, m)) => (h, m.replace('!', "")),
                None => (entry, String::new()),
            };
            let (names, value) = match head.split_once('=') {
                Some((n, "v" | "n")) => (n, Value::Plain),
                Some((n, "r")) => (n, Value::Reads),
                Some((n, "w")) => (n, Value::Writes),
                Some((n, "?")) => (n, Value::Optional),
                Some((_, other)) => panic!("option entry {entry:?}: unknown value kind {other:?}"),
                None => (head, Value::None),
            };
            let index = out.all.len();
            let mut display = None;
            for name in names.split('|') {
                let mut chars = name.chars();
                match (chars.next(), chars.next()) {
                    (Some(c), None) => {
                        out.short.insert(c, index);
                        display.get_or_insert_with(|| format!("-{c}"));
                    }
                    (Some(_), Some(_)) => {
                        out.long.insert(name.to_owned(), index);
                        display.get_or_insert_with(|| format!("--{name}"));
                    }
                    _ => panic!("option entry {entry:?}: empty name"),
                }
            }
            out.all.push(Opt {
                display: display.unwrap_or_else(|| panic!("option entry {entry:?}: no name")),
                value,
                marks,
            });
        }
        out
    }

    /// The short option `c`.
    pub(crate) fn short(&self, c: char) -> Option<&Opt> {
        self.short.get(&c).map(|&i| &self.all[i])
    }

    /// The long option named exactly `name` (abbreviations are not accepted: see the
    /// cursor).
    pub(crate) fn long(&self, name: &str) -> Option<&Opt> {
        self.long.get(name).map(|&i| &self.all[i])
    }

    /// The long names `opt` is listed under (`invert-match` of `-v|--invert-match`).
    pub(crate) fn long_names_of(&self, opt: &Opt) -> Vec<&str> {
        let Some(at) = self.all.iter().position(|o| std::ptr::eq(o, opt)) else {
            return Vec::new();
        };
        let mut names: Vec<&str> = self
            .long
            .iter()
            .filter(|(_, i)| **i == at)
            .map(|(n, _)| n.as_str())
            .collect();
        names.sort_unstable();
        names
    }

    /// The options some long name of which begins with `prefix`, each once (an option
    /// listed under two long names is one option), in the order they were listed.
    pub(crate) fn long_prefixed(&self, prefix: &str) -> Vec<&Opt> {
        let mut found: Vec<usize> = self
            .long
            .iter()
            .filter(|(name, _)| name.starts_with(prefix))
            .map(|(_, &i)| i)
            .collect();
        found.sort_unstable();
        found.dedup();
        found.into_iter().map(|i| &self.all[i]).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_read_names_values_and_marks() {
        let o = Options::parse("n|lines=n q|quiet i|in-place=?!w r|recursive!R!L");
        assert_eq!(o.short('n').unwrap().value, Value::Plain);
        assert_eq!(o.long("lines").unwrap().display, "-n");
        assert_eq!(o.long("in-place").unwrap().value, Value::Optional);
        assert!(o.short('i').unwrap().has('w'));
        assert!(o.short('r').unwrap().has('R') && o.short('r').unwrap().has('L'));
        assert!(o.short('x').is_none() && o.long("in").is_none());
    }
}
