//! The values the script's own variables can hold, whatever the order or the branch they are
//! assigned in: every place that assigns a variable (`f=…`, `export f=…`, `declare f=…`,
//! `a=(…)`, `a[1]=…`, `for f in …`) gives values, and the variable is known only when each
//! of them is, and nothing assigns it in a way the text does not show (`read`, `printf -v`,
//! `mapfile`, `getopts`, `unset`, `+=`, `${f:=…}`; `eval`, `source`, a nameref, `IFS` or a
//! program only known when it runs may assign any). A word made of known variables and
//! literal text is then known to be one of the values it can take ([`Domain`]): a write to
//! `$f` is judged as a write to each value the script gives `f`.
//!
//! Whether the variable may still hold the environment's value where it is used (assigned on
//! no path before) is the lowering's other question ([`super::Lowering`]'s `assigned`): such
//! an expansion is judged as reading the environment.

use brush_parser::ParserOptions;
use brush_parser::word::{
    Parameter, ParameterExpr, SpecialParameter, TildeExpr, WordPiece, WordPieceWithSource,
};

use crate::programs::Assigns;
use crate::shell::{Domain, SimpleCommand, Word};

/// The most values one word or variable is given; past it, it is unknown.
const MAX_VALUES: usize = 64;

/// How deep a variable's value may be made of other variables (`f=$d/x`).
const MAX_DEPTH: usize = 4;

/// Variables whose value is always a number (as long as the script gives them none): a
/// number holds no `/`, so one stands for all of them in a path.
pub(super) const NUMERIC: &[&str] = &[
    "RANDOM",
    "SRANDOM",
    "SECONDS",
    "EPOCHSECONDS",
    "LINENO",
    "UID",
    "EUID",
    "PPID",
    "BASHPID",
];

/// The names under which the positional parameters are kept among the variables: `$1` to
/// `$9`, `$@` and `$*` (`$#` is `#`).
const POSITIONAL: &[&str] = &["1", "2", "3", "4", "5", "6", "7", "8", "9", "@", "*"];

/// The name a positional parameter is kept under among the variables.
fn positional_name(n: u32) -> String {
    n.to_string()
}

/// How one place in the script sets a variable.
#[derive(Debug, Clone)]
pub(super) enum Site {
    /// To a word's value (a scalar, or one element of an array).
    Word(Word),
    /// To each value of a loop's list (`None`: not known).
    Loop(Option<Domain>),
    /// To a value the text does not show.
    Unknown,
}

/// The places the script assigns its variables, gathered while it is lowered.
#[derive(Debug, Clone, Default)]
pub(super) struct Sites {
    sites: Vec<(String, Site)>,
    /// Something may assign any variable.
    opaque: bool,
}

impl Sites {
    /// Whether the script may assign one of the shell's own variables (`RANDOM`, `PWD`, …),
    /// or any variable.
    pub(super) fn assign_shells(&self) -> bool {
        self.opaque
            || self
                .sites
                .iter()
                .any(|(n, _)| n == "PWD" || NUMERIC.contains(&n.as_str()))
    }

    /// Whether the script may assign `name` (or any variable).
    pub(super) fn assigns(&self, name: &str) -> bool {
        self.opaque || self.sites.iter().any(|(n, _)| n == name)
    }

    /// Forgets the values made of `$PWD`: the shell stores the directory itself, which a
    /// later `cd` does not move, while `.` would follow it.
    pub(super) fn moved(&mut self) {
        for (_, site) in &mut self.sites {
            if matches!(site, Site::Word(w) if w.raw.contains("PWD")) {
                *site = Site::Unknown;
            }
        }
    }

    /// Notes that `name` is assigned as `site`.
    pub(super) fn add(&mut self, name: &str, site: Site) {
        self.sites.push((name.to_owned(), site));
    }

    /// `set [OPTIONS] [--] WORDS`: each positional parameter may be any of the words (a
    /// `shift` after it makes `$1` any of them).
    fn set_positional(&mut self, args: &[Word]) {
        let mut operands = false;
        for w in args {
            match w.literal() {
                Some("--") if !operands => operands = true,
                Some(t) if !operands && (t.starts_with('-') || t.starts_with('+')) => {}
                _ => {
                    operands = true;
                    for name in POSITIONAL {
                        self.add(name, Site::Word(w.clone()));
                    }
                }
            }
        }
        if operands {
            self.add("#", Site::Unknown);
        }
    }

    /// Notes the variables a word assigns as it expands (`${f:=x}`, `${f=x}`, `${a[1]:=x}`).
    pub(super) fn defaults_in(&mut self, raw: &str) {
        for name in assigning_expansions(raw) {
            self.add(name, Site::Unknown);
        }
    }

    /// Notes the variables a command assigns through its arguments (`export f=x`, `read f`,
    /// `printf -v f`, `unset f`), and whether it may assign any.
    pub(super) fn command(&mut self, cmd: &SimpleCommand) {
        // `IFS` set in the shell splits words otherwise than on blanks (`IFS= read` sets it
        // for `read` alone).
        if cmd.runs_dynamic_code
            || (cmd.words.is_empty() && cmd.assignments.iter().any(|a| a == "IFS"))
        {
            self.opaque = true;
        }
        let Some(first) = cmd.words.first() else {
            return;
        };
        let Some(program) = cmd.program() else {
            // A program only known when it runs may be `read` or `declare`.
            self.opaque |= first.literal().is_none();
            return;
        };
        let args = cmd.args();
        if program == "set" {
            self.set_positional(args);
        }
        let identifier = |t: &str| crate::programs::is_identifier(t).then(|| t.to_owned());
        match crate::programs::assigns_variables(program) {
            Some(Assigns::Declares) => {
                for d in declared(cmd) {
                    match d {
                        // `export f=$(…)`: a name written out, its value computed.
                        Declared::Value(n, w) if w.literal().is_none() => {
                            self.add(n, Site::Word(w));
                        }
                        Declared::Value(n, w) => {
                            self.opaque |= n.starts_with("IFS");
                            self.add(n, Site::Word(w));
                        }
                        Declared::Appended(n) => {
                            self.opaque |= n.starts_with("IFS");
                            self.add(n, Site::Unknown);
                        }
                        // `local f` and `declare f` may leave it empty.
                        Declared::Bare(n) => {
                            self.opaque |= n.starts_with("IFS");
                            if matches!(program, "local" | "declare" | "typeset") {
                                self.add(n, Site::Unknown);
                            }
                        }
                        // A nameref assigns the variable it names; integer and case
                        // attributes change every value assigned.
                        Declared::Options(t) => {
                            self.opaque |= t.contains(['n', 'i', 'l', 'u', 'c'])
                        }
                        Declared::Dynamic => self.opaque = true,
                    }
                }
            }
            Some(Assigns::Sets) => {
                // `mapfile -C CODE` runs code.
                if matches!(program, "mapfile" | "readarray")
                    && args.iter().any(|w| {
                        w.literal()
                            .is_none_or(|t| t.starts_with('-') && t.contains('C'))
                    })
                {
                    self.opaque = true;
                }
                for w in args {
                    match w.literal() {
                        // A name attached to its option (`read -aNAME`, `read -raNAME`,
                        // `compgen -VNAME`, `printf -vNAME`): each tail of the option word
                        // may be the name.
                        Some(t) if t.starts_with('-') => {
                            for (i, _) in t.char_indices().skip(1) {
                                if let Some(n) = identifier(&t[i..]) {
                                    self.add(&n, Site::Unknown);
                                }
                            }
                        }
                        // `let f=1`, `read f`.
                        Some(t) => {
                            let t = t.strip_prefix("-v").unwrap_or(t);
                            let name = t.split(['=', '[', '+']).next().unwrap_or(t);
                            if let Some(n) = identifier(name) {
                                self.add(&n, Site::Unknown);
                            }
                        }
                        None => self.opaque = true,
                    }
                }
            }
            // Code run later or elsewhere (a trap, an alias, a callback) may assign any.
            Some(Assigns::RunsCode) => self.opaque = true,
            None => {}
        }
    }
}

/// Whether `text` is a decimal integer (`7`, `-12`).
fn integer(text: &str) -> bool {
    let digits = text.strip_prefix('-').unwrap_or(text);
    !digits.is_empty() && digits.len() <= 18 && digits.bytes().all(|b| b.is_ascii_digit())
}

/// Whether the word `raw` is one arithmetic expansion alone (`$((i+1))`): its value is a
/// number whatever the expression (which is judged where the word stands).
fn arithmetic_alone(raw: &str) -> bool {
    let Some(inner) = raw.strip_prefix("$((").and_then(|r| r.strip_suffix("))")) else {
        return false;
    };
    // The opening parentheses close at the end, not before (`$((a))x$((b))`).
    let mut depth = 0usize;
    for c in inner.chars() {
        match c {
            '(' => depth += 1,
            ')' if depth == 0 => return false,
            ')' => depth -= 1,
            _ => {}
        }
    }
    depth == 0
}

/// What one argument of a declaring builtin (`declare`, `export`, `local`, `readonly`,
/// `typeset`: [`Assigns::Declares`]) does.
#[derive(Debug, Clone)]
pub(crate) enum Declared<'c> {
    /// `NAME=VALUE` or `NAME[K]=VALUE`: NAME is given the word VALUE (literal, or computed
    /// when the argument is not literal).
    Value(&'c str, Word),
    /// `NAME+=VALUE`: NAME is given more than the text shows.
    Appended(&'c str),
    /// `NAME` alone: it keeps its value (`export f`), or may be left empty (`local f`).
    Bare(&'c str),
    /// Options (`-x`, `-n`, `+r`).
    Options(&'c str),
    /// An argument only known when it runs, which may be any of these.
    Dynamic,
}

/// What each argument of `cmd` does when it is a declaring builtin ([`Declared`]); none
/// when it is not.
pub(crate) fn declared(cmd: &SimpleCommand) -> Vec<Declared<'_>> {
    if cmd.program().and_then(crate::programs::assigns_variables) != Some(Assigns::Declares) {
        return Vec::new();
    }
    cmd.args()
        .iter()
        .map(|w| {
            let Some(t) = w.literal() else {
                return match w.raw.split_once('=') {
                    Some((n, v)) if crate::programs::is_identifier(n) => {
                        Declared::Value(n, Word::dynamic(v, ""))
                    }
                    _ => Declared::Dynamic,
                };
            };
            if t.starts_with(['-', '+']) {
                return Declared::Options(t);
            }
            match t.split_once('=') {
                Some((n, _)) if n.ends_with('+') => Declared::Appended(n.trim_end_matches('+')),
                Some((n, v)) => {
                    Declared::Value(n.split('[').next().unwrap_or(n), Word::literal_text(v))
                }
                None => Declared::Bare(t),
            }
        })
        .collect()
}

/// The variables a word assigns as it expands: `NAME` of each `${NAME=…}` or `${NAME:=…}`,
/// with or without a subscript (`${a[1]:=x}` assigns an element of `a`).
pub(super) fn assigning_expansions(raw: &str) -> impl Iterator<Item = &str> {
    let mut rest = raw;
    std::iter::from_fn(move || {
        // A scan of the bytes: every word is looked at, and few hold `${`, which a string
        // search would set itself up for each time.
        while let Some(at) = rest.as_bytes().windows(2).position(|w| w == b"${") {
            let body = &rest[at + 2..];
            rest = body;
            let end = body
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(body.len());
            let mut after = &body[end..];
            if let Some(sub) = after.strip_prefix('[') {
                // The subscript, brackets nested (`${a[b[1]]:=x}`).
                let mut depth = 1usize;
                let close = sub.char_indices().find_map(|(i, c)| {
                    match c {
                        '[' => depth += 1,
                        ']' => depth -= 1,
                        _ => {}
                    }
                    (depth == 0).then_some(i)
                });
                match close {
                    Some(i) => after = &sub[i + 1..],
                    // Unclosed: whatever follows may assign.
                    None if end > 0 => return Some(&body[..end]),
                    None => continue,
                }
            }
            if end > 0 && (after.starts_with(":=") || after.starts_with('=')) {
                return Some(&body[..end]);
            }
        }
        None
    })
}

/// What the script's variables can hold.
#[derive(Debug, Clone, Default)]
pub(crate) struct Variables {
    sites: Vec<(String, Site)>,
    /// Whether the shell's own variables ([`NUMERIC`] and `PWD`) are taken to hold what the
    /// shell gives them: true unless the script may assign them.
    shells: bool,
    /// Whether a word was given a value of one of the shell's own variables.
    used_shells: std::cell::Cell<bool>,
}

impl Variables {
    /// The variables of `sites`; `None` when the script assigns none, or something may
    /// assign any of them.
    pub(super) fn of(sites: Sites) -> Option<Self> {
        (!sites.opaque && !sites.sites.is_empty()).then_some(Self {
            sites: sites.sites,
            shells: true,
            used_shells: std::cell::Cell::new(false),
        })
    }

    /// What is known before the script is read: `$$` and `$HOME`, and, with `shells`, the
    /// shell's own variables (`$RANDOM`, `$PWD`, …), until the script is found to assign
    /// them ([`Sites::assign_shells`]).
    pub(super) fn specials(shells: bool) -> Self {
        Self {
            shells,
            ..Self::default()
        }
    }

    /// What code run by a new shell (`bash -c CODE`) knows when CODE gives its variables
    /// values ([`Sites`] gathered from CODE alone): those, and the shell's own variables as
    /// here; `None` when CODE assigns none, may assign any, or assigns the shell's own.
    pub(super) fn of_new_shell(sites: Sites, outer: &Self) -> Option<Self> {
        (!sites.assign_shells() && !sites.assigns("HOME"))
            .then(|| Self::of(sites))
            .flatten()
            .map(|known| Self {
                shells: outer.shells,
                ..known
            })
    }

    /// What code run by a new shell (`bash -c`) knows: the shell's own variables as here,
    /// none of the script's.
    pub(super) fn in_new_shell(&self) -> Self {
        Self::specials(self.shells)
    }

    /// The variables with the positional parameters of a function's call: `args`. With
    /// `exact`, `$N` is the N-th argument (empty when there is none) and `$#` their number;
    /// without (the body may `shift` or `set` them), each is any of them or any word a `set`
    /// of the script gives them.
    /// `zero` is `$0` when known (a new shell's name).
    pub(super) fn with_positional(&self, args: &[Word], exact: bool, zero: Option<&Word>) -> Self {
        let mut out = if exact {
            self.without_positional()
        } else {
            self.clone()
        };
        if let Some(w) = zero {
            out.sites.push(("0".to_owned(), Site::Word(w.clone())));
        }
        let numbered = args.len().max(9);
        for n in 1..=numbered {
            let name = positional_name(u32::try_from(n).unwrap_or(u32::MAX));
            if exact {
                let w = args
                    .get(n - 1)
                    .cloned()
                    .unwrap_or_else(|| Word::literal_text(""));
                out.sites.push((name, Site::Word(w)));
            } else {
                for w in args {
                    out.sites.push((name.clone(), Site::Word(w.clone())));
                }
            }
        }
        for name in ["@", "*"] {
            for w in args {
                out.sites.push((name.to_owned(), Site::Word(w.clone())));
            }
            if args.is_empty() {
                out.sites
                    .push((name.to_owned(), Site::Word(Word::literal_text(""))));
            }
        }
        let count = if exact {
            Site::Word(Word::literal_text(args.len().to_string()))
        } else {
            Site::Unknown
        };
        out.sites.push(("#".to_owned(), count));
        out
    }

    /// The variables with nothing known of the positional parameters (a function's body read
    /// on its own).
    pub(super) fn without_positional(&self) -> Self {
        let mut out = self.clone();
        out.sites.retain(|(n, _)| {
            !(n == "#" || n == "@" || n == "*" || n.bytes().all(|b| b.is_ascii_digit()))
        });
        out
    }

    /// Whether every value the script gives `name` is a number, so that bash evaluating it
    /// as an arithmetic expression runs nothing: the script assigns it somewhere, and each
    /// place gives a literal integer, an arithmetic expansion alone (`i=$((i+1))`, whose
    /// result is one) or each word of a loop's list of literal integers.
    pub(super) fn numeric(&self, name: &str) -> bool {
        let mut found = false;
        for (n, site) in &self.sites {
            if n != name {
                continue;
            }
            found = true;
            let number = match site {
                Site::Word(w) => w
                    .literal()
                    .map_or_else(|| arithmetic_alone(&w.raw), integer),
                Site::Loop(Some(d)) => {
                    d.producers.is_empty() && d.values.iter().all(|v| integer(v))
                }
                Site::Loop(None) | Site::Unknown => false,
            };
            if !number {
                return false;
            }
        }
        found
    }

    /// Whether a word was given a value of one of the shell's own variables.
    pub(super) fn used_shells(&self) -> bool {
        self.used_shells.get()
    }

    /// Whether the script assigns `name` a word anywhere (not only as a loop's variable).
    fn assigned_words(&self, name: &str) -> bool {
        self.sites
            .iter()
            .any(|(n, s)| n == name && matches!(s, Site::Word(_)))
    }

    /// Whether the script assigns `name` anywhere.
    fn assigns(&self, name: &str) -> bool {
        self.sites.iter().any(|(n, _)| n == name)
    }

    /// The values the script gives `name`; `None` when one is not known.
    fn values(&self, name: &str, depth: usize) -> Option<Domain> {
        if depth > MAX_DEPTH {
            return None;
        }
        let mut out = Domain::default();
        let mut any = false;
        for (_, site) in self.sites.iter().filter(|(n, _)| n == name) {
            any = true;
            let d = match site {
                Site::Unknown | Site::Loop(None) => return None,
                Site::Loop(Some(d)) => d.clone(),
                Site::Word(w) => match (w.literal(), &w.domain) {
                    (Some(t), _) => Domain {
                        values: vec![t.to_owned()],
                        ..Domain::default()
                    },
                    (None, Some(d)) => d.clone(),
                    (None, None) => self.word(&w.raw, depth + 1, false)?,
                },
            };
            out.values.extend(d.values);
            out.producers.extend(d.producers);
            if out.values.len() > MAX_VALUES {
                return None;
            }
        }
        any.then_some(out)
    }

    /// The values a word (its source) can take, when it is made of literal text and the
    /// script's own variables; `None` otherwise. A word that is one variable keeps the
    /// commands whose output its value is (`f=$(…)`).
    pub(crate) fn word(&self, raw: &str, depth: usize, here: bool) -> Option<Domain> {
        if depth > MAX_DEPTH || !raw.contains('$') {
            return None;
        }
        let pieces = brush_parser::word::parse(raw, &ParserOptions::default()).ok()?;
        let mut acc = Acc {
            vars: self,
            depth,
            here,
            values: vec![String::new()],
            whole: None,
            parts: 0,
        };
        acc.pieces(&pieces, false)?;
        if let Some(d) = acc.whole {
            // Only a word that is one variable alone keeps the commands it is the output of.
            return (acc.parts == 1).then_some(d);
        }
        Some(Domain {
            values: acc.values,
            ..Domain::default()
        })
    }
}

/// The values of a word read so far.
struct Acc<'v> {
    vars: &'v Variables,
    depth: usize,
    /// Whether the directory the word is used in is known.
    here: bool,
    values: Vec<String>,
    /// The last variable's values, with the commands whose output they are.
    whole: Option<Domain>,
    /// How many pieces the word has (literal ones included).
    parts: usize,
}

impl Acc<'_> {
    fn text(&mut self, s: &str) {
        self.parts += 1;
        for v in &mut self.values {
            v.push_str(s);
        }
    }

    /// Every value so far followed by each of `options`.
    fn each(&mut self, options: &[String]) -> Option<()> {
        self.parts += 1;
        if self.values.len() * options.len() > MAX_VALUES {
            return None;
        }
        self.values = self
            .values
            .iter()
            .flat_map(|v| options.iter().map(move |o| format!("{v}{o}")))
            .collect();
        Some(())
    }

    /// A variable's values; unquoted, each must stay one word (no blank splits it, and it is
    /// not empty).
    fn variable(&mut self, name: &str, quoted: bool) -> Option<()> {
        let domain = match self.vars.values(name, self.depth) {
            Some(d) => d,
            None if self.vars.shells && NUMERIC.contains(&name) && !self.vars.assigns(name) => {
                self.vars.used_shells.set(true);
                Domain {
                    values: vec!["0".to_owned()],
                    ..Domain::default()
                }
            }
            // The directory the command runs in, when the lowering knows it: `.` there.
            None if self.vars.shells && self.here && name == "PWD" && !self.vars.assigns(name) => {
                self.vars.used_shells.set(true);
                Domain {
                    values: vec![".".to_owned()],
                    ..Domain::default()
                }
            }
            None => return None,
        };
        if !quoted
            && domain
                .values
                .iter()
                .any(|v| v.is_empty() || v.contains(char::is_whitespace))
        {
            return None;
        }
        // Unquoted, a glob in an assigned value expands to the names it matches then (a
        // loop's values are names its list already expanded to).
        if !quoted
            && self.vars.assigned_words(name)
            && domain.values.iter().any(|v| v.contains(['*', '?', '[']))
        {
            return None;
        }
        if !domain.producers.is_empty() {
            // Only a word that is this variable alone keeps its producers.
            self.parts += 1;
            self.whole = Some(domain);
            return Some(());
        }
        self.each(&domain.values)
    }

    fn pieces(&mut self, pieces: &[WordPieceWithSource], quoted: bool) -> Option<()> {
        for p in pieces {
            match &p.piece {
                WordPiece::Text(s) => {
                    if !quoted && s.contains('{') {
                        return None;
                    }
                    self.text(s);
                }
                WordPiece::SingleQuotedText(s) => self.text(s),
                WordPiece::AnsiCQuotedText(s) => {
                    let decoded = crate::shell::words::ansi_c(s)?;
                    self.text(&decoded);
                }
                WordPiece::EscapeSequence(s) => {
                    if s != "\\\n" {
                        self.text(s.strip_prefix('\\').unwrap_or(s));
                    }
                }
                WordPiece::DoubleQuotedSequence(inner)
                | WordPiece::GettextDoubleQuotedSequence(inner) => {
                    if inner.is_empty() {
                        self.text("");
                    }
                    self.pieces(inner, true)?;
                }
                WordPiece::TildeExpansion(TildeExpr::Home) => self.text("~"),
                WordPiece::ParameterExpansion(expr) => self.parameter(expr, quoted)?,
                _ => return None,
            }
        }
        Some(())
    }

    fn parameter(&mut self, expr: &ParameterExpr, quoted: bool) -> Option<()> {
        let (parameter, default) = match expr {
            ParameterExpr::Parameter {
                parameter,
                indirect: false,
            } => (parameter, None),
            // `${f:-x}`, `${f-x}`: the variable's values or the default's.
            ParameterExpr::UseDefaultValues {
                parameter,
                indirect: false,
                default_value,
                ..
            } => (parameter, Some(default_value.clone().unwrap_or_default())),
            _ => return None,
        };
        let owned: String;
        let name = match parameter {
            Parameter::Named(n) if n == "HOME" => {
                self.text("~");
                return Some(());
            }
            Parameter::Named(n) => n.as_str(),
            // An element of an array, or all of them: any of its values.
            Parameter::NamedWithIndex { name, index }
                if index.chars().all(|c| c.is_ascii_digit()) =>
            {
                name.as_str()
            }
            // All elements are as many words: known only when there is one.
            Parameter::NamedWithAllIndices { name, .. } => {
                let one = self
                    .vars
                    .values(name, self.depth)
                    .is_some_and(|d| d.values.len() == 1 && d.producers.is_empty());
                if !one {
                    return None;
                }
                name.as_str()
            }
            // The shell's process number, which names temporary files (`out.$$`).
            Parameter::Special(SpecialParameter::ProcessId) => {
                self.text("0");
                return Some(());
            }
            // The positional parameters, when a function's call or `set` gives them.
            Parameter::Positional(n) => {
                owned = positional_name(*n);
                owned.as_str()
            }
            Parameter::Special(SpecialParameter::AllPositionalParameters { .. }) => "@",
            Parameter::Special(SpecialParameter::PositionalParameterCount) => "#",
            Parameter::Special(SpecialParameter::ShellName) => "0",
            _ => return None,
        };
        let Some(default) = default else {
            return self.variable(name, quoted);
        };
        let mut values = self.vars.values(name, self.depth)?;
        if !values.producers.is_empty() {
            return None;
        }
        let of_default = if default.contains('$') {
            self.vars
                .word(&format!("\"{default}\""), self.depth + 1, self.here)?
        } else {
            Domain {
                values: vec![default],
                ..Domain::default()
            }
        };
        if !of_default.producers.is_empty() {
            return None;
        }
        values.values.extend(of_default.values);
        if !quoted
            && values.values.iter().any(|v| {
                v.is_empty() || v.contains(char::is_whitespace) || v.contains(['*', '?', '['])
            })
        {
            return None;
        }
        self.each(&values.values)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vars(sites: &[(&str, &str)]) -> Variables {
        let mut s = Sites::default();
        for (n, v) in sites {
            s.add(n, Site::Word(Word::literal_text(*v)));
        }
        Variables::of(s).expect("known")
    }

    fn values(v: &Variables, raw: &str) -> Option<Vec<String>> {
        v.word(raw, 0, true).map(|d| d.values)
    }

    #[test]
    fn words_of_known_variables_take_their_values() {
        let v = vars(&[
            ("f", ".claude/settings.json"),
            ("d", ".claude"),
            ("d", "src"),
        ]);
        assert_eq!(values(&v, "$f").unwrap(), [".claude/settings.json"]);
        assert_eq!(values(&v, "\"${f}\"").unwrap(), [".claude/settings.json"]);
        assert_eq!(
            values(&v, "$d/settings.json").unwrap(),
            [".claude/settings.json", "src/settings.json"]
        );
        assert_eq!(
            values(&v, "\"${x:-.claude/settings.json}\""),
            None,
            "x has no value the script gives"
        );
        assert_eq!(
            values(&v, "${d:-.git}/config").unwrap(),
            [".claude/config", "src/config", ".git/config"]
        );
        assert_eq!(values(&v, "out.$$").unwrap(), ["out.0"]);
        // Operations on the value are not followed.
        assert_eq!(values(&v, "${f/x/y}"), None);
        assert_eq!(values(&v, "${f%x}"), None);
        assert_eq!(values(&v, "$(echo x)/y"), None);
        assert_eq!(values(&v, "$1"), None);
    }

    #[test]
    fn a_value_that_splits_or_vanishes_unquoted_is_unknown() {
        let v = vars(&[("f", "a .env"), ("e", "")]);
        assert_eq!(values(&v, "$f"), None);
        assert_eq!(values(&v, "$e"), None);
        assert_eq!(values(&v, "\"$f\"").unwrap(), ["a .env"]);
        let v = vars(&[("g", ".claude/*")]);
        assert_eq!(values(&v, "$g"), None);
        assert_eq!(values(&v, "\"$g\"").unwrap(), [".claude/*"]);
    }

    #[test]
    fn a_variable_assigned_unseen_is_unknown() {
        let mut s = Sites::default();
        s.add("f", Site::Word(Word::literal_text("a")));
        s.add("f", Site::Unknown);
        let v = Variables::of(s).expect("known");
        assert_eq!(values(&v, "$f"), None);
        let mut s = Sites::default();
        s.command(&SimpleCommand {
            assignments: vec!["IFS".to_owned()],
            assignment_values: vec![Some("/".to_owned())],
            ..SimpleCommand::default()
        });
        s.add("f", Site::Word(Word::literal_text("a")));
        assert!(Variables::of(s).is_none());
        let mut s = Sites::default();
        s.add("f", Site::Word(Word::literal_text("a")));
        s.defaults_in("${f:=.claude}");
        let v = Variables::of(s).expect("known");
        assert_eq!(values(&v, "$f"), None);
        for raw in [
            "\"${a[1]:=.env}\"",
            "${a[3]=.env}",
            "${a[b[1]]:=x}",
            "x${a[$i]=y}",
        ] {
            let mut s = Sites::default();
            s.add("a", Site::Word(Word::literal_text("ok")));
            s.defaults_in(raw);
            let v = Variables::of(s).expect("known");
            assert_eq!(values(&v, "${a[1]}"), None, "{raw}");
        }
        assert_eq!(assigning_expansions("${a[1]:-x} ${b} ${c[0]}").count(), 0);
        for line in [
            "read -aa",
            "read -raa",
            "compgen -Va",
            "mapfile -ta",
            "readarray -Ota",
            "printf -va x",
        ] {
            let mut s = Sites::default();
            s.add("a", Site::Word(Word::literal_text("ok")));
            let words: Vec<Word> = line.split(' ').map(Word::literal_text).collect();
            s.command(&SimpleCommand {
                words,
                ..SimpleCommand::default()
            });
            let v = Variables::of(s).expect("known");
            assert_eq!(values(&v, "${a[0]}"), None, "{line}");
        }
    }

    #[test]
    fn variables_made_of_variables() {
        let mut s = Sites::default();
        s.add("d", Site::Word(Word::literal_text(".claude")));
        s.add("f", Site::Word(Word::dynamic("$d/settings.json", "")));
        let v = Variables::of(s).expect("known");
        assert_eq!(values(&v, "$f").unwrap(), [".claude/settings.json"]);
        // A variable made of itself is never known.
        let mut s = Sites::default();
        s.add("f", Site::Word(Word::literal_text(".claude")));
        s.add("f", Site::Word(Word::dynamic("$f/settings.json", "")));
        let v = Variables::of(s).expect("known");
        assert_eq!(values(&v, "$f"), None);
    }
}
