//! Shell words: what the text alone says a word will be, and the code it runs to become it.

use brush_parser::ParserOptions;
use brush_parser::word::{Parameter, ParameterExpr, TildeExpr, WordPiece, WordPieceWithSource};

/// One shell word: its source text, and its value when the text alone decides it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Word {
    /// The word as written.
    pub raw: String,
    /// The value with quotes removed, when nothing in it is computed at run time. A tilde and
    /// `$HOME` stay `~`.
    value: Option<String>,
    /// The literal text before the first part computed at run time (the whole value when
    /// literal).
    pub prefix: String,
    /// The values the word can take when they are known although the word is computed at run
    /// time: a loop variable over a list, a command substitution, arguments `xargs` appends.
    pub domain: Option<Domain>,
}

/// The values a run-time word can take.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Domain {
    /// Literal values (globs among them are expanded by the shell).
    pub values: Vec<String>,
    /// Commands (indices into the script) whose output lines or words are the values.
    pub producers: Vec<usize>,
    /// The loop variable the word reads, when it comes from a loop.
    pub var: Option<String>,
    /// How `while read VAR` takes the producers' lines, when the values are lines it reads.
    pub lines: Option<LineRead>,
}

/// How `read [-r] VAR` (one variable) takes a line into its variable.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LineRead {
    /// Whether backslashes are kept (`-r`); otherwise `read` drops each one and joins a line
    /// ending with one to the next.
    pub raw: bool,
    /// Whether blanks at either end are kept (`IFS=`); otherwise `read` trims the default
    /// `IFS` whitespace (space, tab, newline) there.
    pub blanks: bool,
}

impl LineRead {
    /// Whether `read` takes `line` into its variable as it is: the only lines whose value is
    /// the line itself.
    pub fn keeps(self, line: &str) -> bool {
        (self.raw || !line.contains('\\'))
            && (self.blanks || line.trim_matches([' ', '\t', '\n']) == line)
    }
}

impl Word {
    /// A word whose value is `text`.
    pub fn literal_text(text: impl Into<String>) -> Self {
        let text = text.into();
        Self {
            raw: text.clone(),
            value: Some(text.clone()),
            prefix: text,
            domain: None,
        }
    }

    /// A word only known at run time, written as `raw`, with a literal `prefix`.
    pub fn dynamic(raw: impl Into<String>, prefix: impl Into<String>) -> Self {
        Self {
            raw: raw.into(),
            value: None,
            prefix: prefix.into(),
            domain: None,
        }
    }

    /// A word written as `raw` that every check reads as `value`: the id of a revision git
    /// prints, read by git as that revision (see `lower::revisions::mark`).
    pub(crate) fn read_as(raw: impl Into<String>, value: &str) -> Self {
        Self {
            raw: raw.into(),
            value: Some(value.to_owned()),
            prefix: value.to_owned(),
            domain: None,
        }
    }

    /// A run-time word whose values are known to lie in `domain`.
    pub fn with_domain(mut self, domain: Domain) -> Self {
        self.domain = Some(domain);
        self
    }

    /// The value, when the text alone decides it.
    pub fn literal(&self) -> Option<&str> {
        self.value.as_deref()
    }

    /// The value when literal, else the source text.
    pub fn text(&self) -> &str {
        self.value.as_deref().unwrap_or(&self.raw)
    }
}

/// A word read from its source, with the code it runs.
pub(crate) struct LoweredWord {
    pub word: Word,
    /// Command substitutions inside the word, as source text.
    pub substitutions: Vec<String>,
    /// Expansions that bash evaluates as code (`${!x}`, `${x@P}`, `$((x))`, `${a[i]}`).
    pub code: Vec<String>,
    /// Variables with a lower-case letter it expands ([`environment_variable`]): the
    /// environment's unless the script assigned them before.
    pub environment: Vec<String>,
}

/// The value of ANSI-C quoted text (`$'…'`) as bash decodes it; `None` when it holds a NUL
/// or an escape that is not decoded here.
pub(crate) fn ansi_c(text: &str) -> Option<String> {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        let Some(e) = chars.next() else {
            out.push('\\');
            break;
        };
        let digits =
            |chars: &mut std::iter::Peekable<std::str::Chars<'_>>, radix: u32, max: usize| {
                let mut v = 0u32;
                let mut n = 0;
                while n < max {
                    match chars.peek().and_then(|c| c.to_digit(radix)) {
                        Some(d) => {
                            v = v * radix + d;
                            chars.next();
                            n += 1;
                        }
                        None => break,
                    }
                }
                (n > 0).then_some(v)
            };
        let decoded = match e {
            'a' => '\u{7}',
            'b' => '\u{8}',
            'e' | 'E' => '\u{1b}',
            'f' => '\u{c}',
            'n' => '\n',
            'r' => '\r',
            't' => '\t',
            'v' => '\u{b}',
            '\\' | '\'' | '"' | '?' => e,
            'x' => char::from_u32(digits(&mut chars, 16, 2)?)?,
            'u' => char::from_u32(digits(&mut chars, 16, 4)?)?,
            'U' => char::from_u32(digits(&mut chars, 16, 8)?)?,
            '0'..='7' => {
                let mut v = e.to_digit(8)?;
                for _ in 0..2 {
                    match chars.peek().and_then(|c| c.to_digit(8)) {
                        Some(d) => {
                            v = v * 8 + d;
                            chars.next();
                        }
                        None => break,
                    }
                }
                char::from_u32(v & 0xff)?
            }
            'c' => {
                let ctl = chars.next()?;
                char::from_u32(u32::from(ctl.to_ascii_uppercase()) ^ 0x40)?
            }
            _ => {
                out.push('\\');
                e
            }
        };
        if decoded == '\0' {
            return None;
        }
        out.push(decoded);
    }
    Some(out)
}

/// Variables whose value is no secret: the shell's own and the usual directories.
const PUBLIC_VARIABLES: &[&str] = &[
    "HOME",
    "USER",
    "LOGNAME",
    "SHELL",
    "PWD",
    "OLDPWD",
    "PATH",
    "LANG",
    "LC_ALL",
    "TERM",
    "HOSTNAME",
    "HOSTTYPE",
    "OSTYPE",
    "MACHTYPE",
    "SHLVL",
    "TMPDIR",
    "EDITOR",
    "VISUAL",
    "PAGER",
    "BASH",
    "BASH_VERSION",
    "BASHPID",
    "BASH_SOURCE",
    "BASH_LINENO",
    "BASH_SUBSHELL",
    "FUNCNAME",
    "LINENO",
    "RANDOM",
    "SECONDS",
    "EPOCHSECONDS",
    "EPOCHREALTIME",
    "UID",
    "EUID",
    "PPID",
    "PIPESTATUS",
    "COLUMNS",
    "LINES",
    "IFS",
    "OPTIND",
    "OPTARG",
    "REPLY",
    "GOPATH",
    "GOROOT",
    "CARGO_HOME",
    "RUSTUP_HOME",
    "RUSTUP_TOOLCHAIN",
    "JAVA_HOME",
    "NVM_DIR",
    "PYENV_ROOT",
    "CONDA_PREFIX",
    "CONDA_DEFAULT_ENV",
    "NODE_ENV",
    "VIRTUAL_ENV",
    "CI",
    "XDG_CONFIG_HOME",
    "XDG_DATA_HOME",
    "XDG_CACHE_HOME",
    "XDG_RUNTIME_DIR",
    "DISPLAY",
    "TZ",
    // Toolchains' diagnostics and locations: filters, switches and directories.
    "RUST_LOG",
    "RUST_BACKTRACE",
    "RUST_LIB_BACKTRACE",
    "RUST_TEST_THREADS",
    "CARGO_TARGET_DIR",
    "CARGO_INCREMENTAL",
    "GOOS",
    "GOARCH",
    "GOBIN",
    "GOCACHE",
    "GOMODCACHE",
    "NODE_PATH",
    "PYTHONPATH",
    "LOG_LEVEL",
];

/// Parts of a variable's name (lower-cased) that mark it as holding a credential, whatever
/// its case: lower-case names are environment variables too (`https_proxy` with a password,
/// npm's `npm_config__authtoken`, names users export).
const SECRET_NAME_PARTS: &[&str] = &[
    "token",
    "secret",
    "key",
    "pass",
    "pwd",
    "auth",
    "cred",
    "proxy",
    "session",
    "cookie",
    "private",
    "database",
    "dsn",
    "conn",
    "npm_config_",
    "signature",
    "cert",
    "bearer",
    "jwt",
    "webhook",
    "salt",
    "mongo",
    "redis",
    "postgres",
    "mysql",
    "amqp",
];

/// Whether a variable's name reads as that of a credential (`github_token`, `db_password`,
/// `all_proxy`), in any case.
pub(crate) fn secret_like_name(name: &str) -> bool {
    let bytes = name.as_bytes();
    !name.eq_ignore_ascii_case("pwd")
        && !name.eq_ignore_ascii_case("oldpwd")
        && SECRET_NAME_PARTS.iter().any(|part| {
            bytes
                .windows(part.len())
                .any(|w| w.eq_ignore_ascii_case(part.as_bytes()))
        })
}

/// The environment variable a parameter expansion (its source) prints, when it may be a
/// secret: any upper-case name that is not one of the [`PUBLIC_VARIABLES`], and any name
/// with a lower-case letter that reads as a credential's ([`secret_like_name`]). Other
/// lower-case names are taken for the script's own variables.
pub(crate) fn secret_variable(source: &str) -> Option<&str> {
    let inner = source
        .strip_prefix("${")
        .and_then(|s| s.strip_suffix('}'))
        .or_else(|| source.strip_prefix('$'))?;
    let inner = inner.trim_start_matches(['#', '!']);
    let end = inner
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(inner.len());
    let name = &inner[..end];
    if name.is_empty() || name.starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    if name.chars().any(|c| c.is_ascii_lowercase()) {
        return secret_like_name(name).then_some(name);
    }
    (!PUBLIC_VARIABLES.contains(&name)).then_some(name)
}

/// The variable a parameter expansion (its source) expands when its name has a lower-case
/// letter and reads as no credential's (those are [`secret_variable`]s): the script's own
/// variable when the script assigned it earlier, else the environment's, which may hold
/// anything (`github_pat`, `slack_hook_url`): the caller tells which.
pub(crate) fn environment_variable(source: &str) -> Option<&str> {
    let inner = source
        .strip_prefix("${")
        .and_then(|s| s.strip_suffix('}'))
        .or_else(|| source.strip_prefix('$'))?;
    let inner = inner.trim_start_matches(['#', '!']);
    let end = inner
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(inner.len());
    let name = &inner[..end];
    let own = name.is_empty()
        || name.starts_with(|c: char| c.is_ascii_digit())
        || !name.chars().any(|c| c.is_ascii_lowercase())
        || PUBLIC_VARIABLES.contains(&name);
    (!own).then_some(name)
}

/// Whether the environment variable `name` is one of the few whose value is public (`HOME`,
/// `PATH`, `LANG`, …), compared with its case.
pub(crate) fn public_variable(name: &str) -> bool {
    PUBLIC_VARIABLES.contains(&name)
}

/// Whether a `${…}` (its source) is a command substitution that runs in the current shell
/// (`${ cmd; }`, `${| cmd; }`, bash 5.3, ksh93, mksh): `${` followed by a blank, a newline
/// or `|`, which no parameter expansion starts with.
fn nonforking_substitution(source: &str) -> bool {
    source
        .strip_prefix("${")
        .is_some_and(|rest| rest.starts_with([' ', '\t', '\n', '|']))
}

/// Whether a `${…}` (its source) is no parameter expansion bash 5.2 reads (`${touch p;}`,
/// `${}`): a newer shell may read it as code ([`nonforking_substitution`]), an older one
/// refuses it; either way it is not an inert expansion.
pub(crate) fn invalid_parameter(source: &str) -> bool {
    let Some(inner) = source.strip_prefix("${") else {
        return false;
    };
    let inner = inner
        .strip_prefix(['#', '!'])
        .filter(|r| !r.is_empty() && !r.starts_with('}'))
        .unwrap_or(inner);
    let name_end = parameter_name_len(inner);
    if name_end == 0 {
        return true;
    }
    let rest = &inner[name_end..];
    !(rest.is_empty()
        || rest.starts_with([
            ':', '-', '=', '?', '+', '#', '%', '/', '^', ',', '@', '[', '}',
        ]))
}

/// Whether an arithmetic expression names a variable: bash evaluates a variable's value as
/// an arithmetic expression in turn, and `a[$(cmd)]` there runs `cmd`.
pub(crate) fn arithmetic_evaluates_code(text: &str) -> bool {
    text.chars()
        .any(|c| c.is_ascii_alphabetic() || c == '_' || c == '$' || c == '`')
}

/// The length of the parameter name `inner` (a `${…}`'s text after `${` and any `#`) starts
/// with: a name, a positional number, or one special parameter (`@ * # ? - $ ! 0`).
fn parameter_name_len(inner: &str) -> usize {
    if inner.starts_with(|c: char| c.is_ascii_digit()) {
        inner
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(inner.len())
    } else if inner.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
        inner
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(inner.len())
    } else if inner.starts_with(['@', '*', '#', '?', '-', '$', '!']) {
        1
    } else {
        0
    }
}

/// Whether a parameter expansion (its source, `${…}` or `$x`) makes bash evaluate text as
/// code: indirection (`${!x}`), prompt expansion (`${x@P}`, `${@@P}`), a subscript or a
/// substring offset that is not a plain number (both are arithmetic), for named, positional
/// and special parameters (`${@:x}`, `${-:x}`) alike.
pub(crate) fn parameter_evaluates_code(source: &str) -> bool {
    let Some(inner) = source.strip_prefix("${").and_then(|s| s.strip_suffix('}')) else {
        return false;
    };
    if inner.starts_with('!') {
        return true;
    }
    let inner = inner
        .strip_prefix('#')
        .filter(|r| !r.is_empty())
        .unwrap_or(inner);
    let mut rest = &inner[parameter_name_len(inner)..];
    if let Some(sub) = rest.strip_prefix('[') {
        let Some(close) = sub.find(']') else {
            return true;
        };
        let index = &sub[..close];
        if !(index == "@"
            || index == "*"
            || (!index.is_empty() && index.chars().all(|c| c.is_ascii_digit())))
        {
            return true;
        }
        rest = &sub[close + 1..];
    }
    if rest.starts_with("@P") {
        return true;
    }
    if let Some(offsets) = rest.strip_prefix(':')
        && !offsets.starts_with(['-', '=', '?', '+'])
    {
        return !offsets
            .chars()
            .all(|c| c.is_ascii_digit() || " :-".contains(c));
    }
    false
}

#[derive(Default)]
struct Builder {
    value: String,
    dynamic: bool,
    prefix: String,
    substitutions: Vec<String>,
    /// Parts of the word that bash evaluates as code when it runs.
    code: Vec<String>,
    /// Variables it expands that are the environment's unless the script assigned them.
    environment: Vec<String>,
    /// The word's unquoted text, read whole, may brace-expand: a quote inside a group does
    /// not end it (`{-true"",-delete}` is two words).
    braces: bool,
}

impl Builder {
    fn text(&mut self, s: &str) {
        if !self.dynamic {
            self.prefix.push_str(s);
        }
        self.value.push_str(s);
    }

    fn unknown(&mut self) {
        self.dynamic = true;
    }

    /// Reads pieces; their offsets count from the start of `raw`, the outermost word.
    fn pieces(&mut self, raw: &str, pieces: &[WordPieceWithSource], quoted: bool) {
        for (i, p) in pieces.iter().enumerate() {
            let source = raw.get(p.start_index..p.end_index).unwrap_or_default();
            // The parser underneath reads `${ cmd; }` (and any `${…}` no parameter expansion
            // is) as the text `$` and the text `{…}`: bash 5.3, ksh and mksh run it as code.
            if let (WordPiece::Text(dollar), Some(next)) = (&p.piece, pieces.get(i + 1))
                && dollar.ends_with('$')
                && let WordPiece::Text(braced) = &next.piece
                && braced.starts_with('{')
            {
                let end = braced.find('}').map_or(braced.len(), |e| e + 1);
                let candidate = format!("${}", &braced[..end]);
                if invalid_parameter(&candidate) {
                    self.code.push(candidate);
                }
            }
            self.piece(&p.piece, raw, source, quoted);
        }
    }

    fn piece(&mut self, piece: &WordPiece, raw: &str, source: &str, quoted: bool) {
        if let WordPiece::ParameterExpansion(_) = piece {
            // `${ cmd; }` and `${| cmd; }` (bash 5.3, ksh, mksh) are command substitutions run
            // in the current shell, not parameter expansions: code, and not read here.
            if nonforking_substitution(source) || invalid_parameter(source) {
                self.code.push(source.to_owned());
            }
            if parameter_evaluates_code(source) {
                self.code.push(source.to_owned());
            }
            if let Some(name) = secret_variable(source) {
                self.code.push(format!("${name}"));
            } else if let Some(name) = environment_variable(source) {
                self.environment.push(name.to_owned());
            }
        }
        match piece {
            WordPiece::Text(s) => {
                // Unquoted braces may expand into several words (`{/,x}`): not one literal.
                if !quoted && self.braces && s.contains('{') {
                    let before = s.split('{').next().unwrap_or_default();
                    self.text(before);
                    self.unknown();
                }
                self.text(s);
            }
            WordPiece::SingleQuotedText(s) => self.text(s),
            WordPiece::AnsiCQuotedText(s) => match ansi_c(s) {
                Some(decoded) => self.text(&decoded),
                // A NUL ends the word where bash cuts it; anything else undecodable is unknown.
                None => self.unknown(),
            },
            WordPiece::DoubleQuotedSequence(inner)
            | WordPiece::GettextDoubleQuotedSequence(inner) => self.pieces(raw, inner, true),
            WordPiece::TildeExpansion(TildeExpr::Home) => self.text("~"),
            WordPiece::TildeExpansion(TildeExpr::UserHome(user)) => self.text(&format!("~{user}")),
            WordPiece::TildeExpansion(_) => self.unknown(),
            WordPiece::ParameterExpansion(ParameterExpr::Parameter {
                parameter: Parameter::Named(name),
                indirect: false,
            }) if name == "HOME" => self.text("~"),
            WordPiece::ParameterExpansion(ParameterExpr::Parameter { .. }) => self.unknown(),
            WordPiece::ParameterExpansion(_) => {
                // `${X:-$(cmd)}`: defaults and patterns may hold substitutions of their own.
                self.unknown();
                // One `${` and one `}` only: the closing brace of a nested expansion ends
                // the word (`${HOME:+${GITHUB_TOKEN}}`).
                let inner = source.strip_prefix('$').unwrap_or(source);
                let inner = inner.strip_prefix('{').unwrap_or(inner);
                let inner = inner.strip_suffix('}').unwrap_or(inner);
                self.nested(inner);
                // Inside double quotes a single quote in the word of `${x:+word}`, `${x-word}`,
                // `${x=word}` or `${x?word}` is a character, not a quote: what it seems to
                // quote is expanded (`"${HOME:+'$(id)'}"` runs `id`). Read it again without
                // them (every operator: reading more of a word as live only finds more).
                if quoted && inner.contains('\'') {
                    self.nested(&inner.replace('\'', " "));
                    // The same word as one double-quoted string: the code a substitution in
                    // it holds keeps its own quotes (`'$(echo '"'; id; echo '"')'`).
                    self.nested(&format!("\"{inner}\""));
                }
            }
            WordPiece::CommandSubstitution(code) => {
                self.unknown();
                self.substitutions.push(code.clone());
            }
            WordPiece::BackquotedCommandSubstitution(code) => {
                self.unknown();
                // The code bash runs is the text between the backquotes with a backslash
                // removed before `$`, a backquote and a backslash (`` `echo "\$(id)"` `` runs
                // `echo "$(id)"`; the parser underneath removes it before a backquote only).
                // Where the substitution stands decides whether `\"` loses its backslash too,
                // and a backslash before a line break may be read first: every reading is
                // judged ([`backquoted_codes`]), the worst decides.
                // Without the source text, the parser's reading and those of its text.
                let inner = source.strip_prefix('`').and_then(|s| s.strip_suffix('`'));
                let mut codes = backquoted_codes(inner.unwrap_or(code), quoted);
                if inner.is_none() {
                    codes.push(code.clone());
                }
                for code in codes {
                    if !self.substitutions.contains(&code) {
                        self.substitutions.push(code);
                    }
                }
            }
            WordPiece::EscapeSequence(s) => {
                if s != "\\\n" {
                    self.text(s.strip_prefix('\\').unwrap_or(s));
                }
            }
            WordPiece::ArithmeticExpression(expr) => {
                self.unknown();
                if arithmetic_evaluates_code(&expr.value) {
                    self.code.push(source.to_owned());
                }
                self.nested(&expr.value);
            }
        }
    }

    /// Collects what an expression's text expands: its substitutions, code, secret and
    /// environment variables. Every nested word of a parameter expansion (default, alternate,
    /// pattern, replacement, offset) counts: `${HOME:+$GITHUB_TOKEN}` prints the token.
    fn nested(&mut self, text: &str) {
        if !(text.contains('$') || text.contains('`')) {
            return;
        }
        match brush_parser::word::parse(text, &ParserOptions::default()) {
            Ok(pieces) => {
                let mut inner = Builder::default();
                inner.pieces(text, &pieces, true);
                self.substitutions.extend(inner.substitutions);
                self.code.extend(inner.code);
                self.environment.extend(inner.environment);
            }
            // Unreadable code is still code: hand the whole text on to be judged unreadable.
            Err(_) => self.substitutions.push(text.to_owned()),
        }
    }
}

/// The readings of a backquoted command substitution's code ([`backquoted_code`]): with a
/// backslash before a line break dropped first (bash's reader) and not, and, when it may
/// stand inside double quotes, with `\"` unescaped and kept.
fn backquoted_codes(inner: &str, quoted: bool) -> Vec<String> {
    let joined = inner.replace("\\\n", "");
    let mut codes = Vec::new();
    for text in [inner, joined.as_str()] {
        for dquoted in [false, quoted] {
            let code = backquoted_code(text, dquoted);
            if !codes.contains(&code) {
                codes.push(code);
            }
        }
    }
    codes
}

/// The code of a backquoted command substitution whose text between the backquotes is
/// `inner`, as bash reads it: a backslash is dropped before `$`, a backquote and a backslash, and
/// before `"` when the substitution is inside double quotes; any other stays.
fn backquoted_code(inner: &str, quoted: bool) -> String {
    let mut code = String::with_capacity(inner.len());
    let mut chars = inner.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\\'
            && let Some(&next) = chars.peek()
            && (matches!(next, '$' | '`' | '\\') || (quoted && next == '"'))
        {
            code.push(next);
            chars.next();
            continue;
        }
        code.push(c);
    }
    code
}

/// Whether unquoted text may be a brace expansion: a `{` whose group holds a `,` or a `..`
/// (`{a,b}`, `{1..3}`), or one not closed in the text with either after it (the rest may be
/// quoted, `{a'x',b}`). A group holding neither is text (`@{u}..`, `HEAD@{1}`).
pub(crate) fn may_expand_braces(s: &str) -> bool {
    s.match_indices('{').any(|(open, _)| {
        let rest = &s[open + 1..];
        let mut depth = 0usize;
        let close = rest.char_indices().find_map(|(at, c)| match c {
            '{' => {
                depth += 1;
                None
            }
            '}' if depth == 0 => Some(at),
            '}' => {
                depth -= 1;
                None
            }
            _ => None,
        });
        let group = close.map_or(rest, |at| &rest[..at]);
        group.contains(',') || group.contains("..")
    })
}

/// A word's unquoted text with every other piece (quoted, escaped, expanded) standing as one
/// `_`: what brace expansion reads, since quotes only protect what they hold.
fn unquoted_text(pieces: &[WordPieceWithSource]) -> String {
    let mut text = String::new();
    for p in pieces {
        match &p.piece {
            WordPiece::Text(s) => text.push_str(s),
            _ => text.push('_'),
        }
    }
    text
}

/// Whether the shell reads `raw` as itself: it holds only characters that start no
/// expansion, quoting, escape, glob, brace, tilde, history or pattern form (letters, digits
/// and `_ . / - + , : @ % =`), so the word's value is its text.
fn plain_text(raw: &str) -> bool {
    !raw.is_empty()
        && raw.bytes().all(|b| {
            b.is_ascii_alphanumeric()
                || matches!(
                    b,
                    b'_' | b'.' | b'/' | b'-' | b'+' | b',' | b':' | b'@' | b'%' | b'='
                )
        })
}

/// Whether `value` reads the same wherever a `$NAME` holding it stands, quoted or not: it
/// is [plain text](plain_text) without `=`, so that it is never read as an assignment. A
/// loop value or a program's output made of these is the word the command is given.
pub(crate) fn reads_as_written(value: &str) -> bool {
    plain_text(value) && !value.contains('=')
}

/// Reads a word from its source text.
pub(crate) fn lower(raw: &str) -> Result<LoweredWord, String> {
    // A word of plain text is its own value: what the word parser would make of it, without
    // running it (a test compares the two).
    if plain_text(raw) {
        return Ok(LoweredWord {
            word: Word {
                raw: raw.to_owned(),
                value: Some(raw.to_owned()),
                prefix: raw.to_owned(),
                domain: None,
            },
            substitutions: Vec::new(),
            code: Vec::new(),
            environment: Vec::new(),
        });
    }
    parsed(raw)
}

/// Reads a word from its source text with the word parser.
fn parsed(raw: &str) -> Result<LoweredWord, String> {
    let pieces = brush_parser::word::parse(raw, &ParserOptions::default())
        .map_err(|e| format!("word {raw:?}: {e}"))?;
    let mut b = Builder {
        braces: may_expand_braces(&unquoted_text(&pieces)),
        ..Builder::default()
    };
    b.pieces(raw, &pieces, false);
    let word = Word {
        raw: raw.to_owned(),
        value: (!b.dynamic).then_some(b.value),
        prefix: b.prefix,
        domain: None,
    };
    Ok(LoweredWord {
        word,
        substitutions: b.substitutions,
        code: b.code,
        environment: b.environment,
    })
}

/// The substitutions in an expanding here-document's body (quotes there are plain text),
/// and the variables with a lower-case letter it expands ([`LoweredWord::environment`]).
pub(crate) fn heredoc_substitutions(body: &str) -> Result<(Vec<String>, Vec<String>), String> {
    // bash joins a line ending in an unescaped backslash to the next before it expands the
    // body: `$\⏎(cmd)` is `$(cmd)`.
    let joined = join_continued_lines(body);
    let body = joined.as_str();
    let pieces = brush_parser::word::parse_heredoc(body, &ParserOptions::default())
        .map_err(|e| format!("here-document: {e}"))?;
    let mut b = Builder::default();
    b.pieces(body, &pieces, true);
    if let Some(code) = b.code.first() {
        return Err(format!("here-document evaluates `{code}` as code"));
    }
    Ok((b.substitutions, b.environment))
}

/// `text` with each backslash-newline pair removed, as bash reads an unquoted
/// here-document's body (an escaped backslash, `\\`, stays, and joins nothing).
fn join_continued_lines(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('\n') => {}
            Some(next) => {
                out.push(c);
                out.push(next);
            }
            None => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod here_documents {
    #[test]
    fn a_backslash_newline_joins_what_the_body_expands() {
        let (subs, _) = super::heredoc_substitutions("$\\\n(touch x)\n").unwrap();
        assert_eq!(subs, ["touch x"]);
        assert!(super::heredoc_substitutions("$\\\nTOKEN\n").is_err());
        // An escaped backslash joins nothing.
        let (subs, _) = super::heredoc_substitutions("a\\\\\n(b)\n").unwrap();
        assert!(subs.is_empty(), "{subs:?}");
    }
}

#[cfg(test)]
mod plain_words {
    use super::*;

    fn same(raw: &str) {
        let fast = lower(raw).expect("a plain word reads");
        let slow = parsed(raw).expect("the word parser reads it");
        assert_eq!(fast.word, slow.word, "{raw:?}");
        assert_eq!(fast.substitutions, slow.substitutions, "{raw:?}");
        assert_eq!(fast.code, slow.code, "{raw:?}");
    }

    #[test]
    fn a_plain_word_reads_as_the_word_parser_reads_it() {
        for raw in [
            "build",
            "release",
            "src/main.rs",
            "--release",
            "-la",
            "a=b",
            "--opt=x/y",
            "user@host:path",
            "50%",
            "a,b",
            "+x",
            "..",
            "../..",
            "/etc/passwd",
            "-",
            "--",
            "=",
            "v1.2.3-rc+4",
        ] {
            assert!(plain_text(raw), "{raw:?} is plain");
            same(raw);
        }
        // Every short word over the plain alphabet.
        let alphabet = b"a0_./-+,:@%=";
        for &x in alphabet {
            for &y in alphabet {
                for &z in alphabet {
                    same(std::str::from_utf8(&[x, y, z]).expect("ASCII"));
                }
            }
        }
    }

    #[test]
    fn words_with_any_other_character_go_to_the_word_parser() {
        for raw in [
            "~", "~/x", "$HOME", "a*", "a?", "[ab]", "{a,b}", "'a'", "\"a\"", "a\\b", "$(x)",
            "`x`", "!x", "a#b", "a^b", "a b", "é", "",
        ] {
            assert!(!plain_text(raw), "{raw:?} is not plain");
        }
    }

    #[test]
    fn only_values_that_read_the_same_anywhere_read_as_written() {
        for v in [
            "node",
            "feature/x",
            "v0.1.0",
            "-n",
            "a,b",
            "x@y:1",
            "%s",
            "c++",
        ] {
            assert!(reads_as_written(v), "{v}");
        }
        for v in [
            "", "a b", "*.rs", "a?", "[ab]", "~", "~/x", "a=b", "{a,b}", "$x", "a'b", "a\"b",
            "a\\b", "a;b", "a\tb", "é",
        ] {
            assert!(!reads_as_written(v), "{v}");
        }
    }
}

#[cfg(test)]
mod parameters {
    use super::{environment_variable, invalid_parameter, parameter_evaluates_code};

    #[test]
    fn a_special_parameter_offset_or_prompt_expansion_is_code() {
        for s in [
            "${@:x}", "${*:x}", "${@:0:x}", "${@:x+1}", "${@: x}", "${-:x}", "${$:x}", "${?:x}",
            "${#:x}", "${!:x}", "${0:x}", "${1:x}", "${10:x}", "${_:x}", "${@@P}", "${*@P}",
            "${1@P}", "${x@P}", "${x:i}",
        ] {
            assert!(parameter_evaluates_code(s), "{s}");
        }
        for s in [
            "${@}", "${@:1}", "${@:1:2}", "${@: -1}", "${*:2}", "${@:-x}", "${#}", "${##}",
            "${#@}", "${?}", "${@@Q}", "${@@E}", "${@@A}", "${1:-a}",
        ] {
            assert!(!parameter_evaluates_code(s), "{s}");
        }
    }

    #[test]
    fn a_brace_that_is_no_parameter_expansion_is_code() {
        for s in [
            "${ cmd; }",
            "${|cmd;}",
            "${touch p;}",
            "${}",
            "${ x }",
            "${a b}",
        ] {
            assert!(invalid_parameter(s), "{s}");
        }
        for s in [
            "${HOME}",
            "${x:-a b}",
            "${#PATH}",
            "${PATH%%:*}",
            "${@}",
            "${1}",
            "${a[0]}",
            "${!x}",
            "${x/a/b}",
        ] {
            assert!(!invalid_parameter(s), "{s}");
        }
    }

    #[test]
    fn a_lower_case_name_may_be_the_environments() {
        assert_eq!(environment_variable("$github_pat"), Some("github_pat"));
        assert_eq!(environment_variable("${Gh_Pat:-x}"), Some("Gh_Pat"));
        assert_eq!(environment_variable("$HOME"), None);
        assert_eq!(environment_variable("$1"), None);
    }
}

#[cfg(test)]
mod secret_variables {
    use super::{parsed, secret_variable};

    #[test]
    fn a_braced_expansion_nested_in_a_default_is_read() {
        for raw in [
            "${HOME:+${AWS_SECRET_ACCESS_KEY}}",
            "\"${HOME:+${GH_TOKEN}}\"",
            "${NODE_ENV:-${GH_TOKEN}}",
            "${HOME#${GH_TOKEN}}",
            "${HOME:+x${GH_TOKEN}y}",
            "${HOME:+${PATH:+${GH_TOKEN}}}",
            "${HOME/x/${GH_TOKEN}}",
        ] {
            let lowered = parsed(raw).unwrap();
            assert!(
                lowered
                    .code
                    .iter()
                    .any(|c| c == "$GH_TOKEN" || c == "$AWS_SECRET_ACCESS_KEY"),
                "{raw}: {:?}",
                lowered.code
            );
        }
        let lowered = parsed("${HOME:+${github_pat}}").unwrap();
        assert_eq!(lowered.environment, ["github_pat"]);
    }

    #[test]
    fn toolchains_diagnostics_are_public_and_credentials_are_not() {
        for s in [
            "$RUST_LOG",
            "${RUST_LOG:-unset}",
            "${RUST_BACKTRACE-0}",
            "${CARGO_TARGET_DIR:-target}",
            "${GOOS}",
        ] {
            assert_eq!(secret_variable(s), None, "{s}");
        }
        for (s, name) in [
            ("${AWS_SECRET_ACCESS_KEY:-x}", "AWS_SECRET_ACCESS_KEY"),
            ("${GITHUB_TOKEN:-none}", "GITHUB_TOKEN"),
            ("$RUST_LOG_TOKEN", "RUST_LOG_TOKEN"),
            ("${RUST_LOGS}", "RUST_LOGS"),
            ("$MY_APP_SETTING", "MY_APP_SETTING"),
        ] {
            assert_eq!(secret_variable(s), Some(name), "{s}");
        }
    }
}

#[cfg(test)]
mod braces {
    use super::may_expand_braces;

    #[test]
    fn a_group_with_a_comma_or_a_sequence_expands_and_a_reflog_suffix_does_not() {
        // A group closed without a comma or a sequence inside is text, whatever follows it;
        // one not closed is text only when nothing after it is a comma or a sequence.
        for s in [
            "@{u}..",
            "HEAD@{1}..main",
            "@{upstream}...HEAD",
            "{}",
            "a{b}c",
            "{a",
        ] {
            assert!(!may_expand_braces(s), "{s}");
        }
        for s in [
            "{a,b}",
            "x{1..3}",
            "{a,",
            "{.en,",
            "a{b{c,d}}",
            "{x}{a,b}",
            "{a,{b}}",
        ] {
            assert!(may_expand_braces(s), "{s}");
        }
    }
}
