//! Perl one-liners (`perl -e CODE`, `perl -lne CODE`) proven to only compute and print: the
//! code is read token by token, and it is proven only when every token is one of a small set
//! of harmless constructs (literals, variables, arithmetic, string and list functions,
//! printing, reading standard input and the files given on the command line). Every
//! construct whose reading is ambiguous (a `/` that may start a pattern or divide, a `<` that
//! may read a file or compare, here-documents, POD, formats) makes the code unproven, as does
//! anything that names a function or a variable at run time.

/// Perl functions, operators and keywords that only compute, print or read what the
/// one-liner is given (standard input, the files on its command line).
const ALLOWED: &[&str] = &[
    "print",
    "printf",
    "say",
    "length",
    "substr",
    "index",
    "rindex",
    "uc",
    "lc",
    "ucfirst",
    "lcfirst",
    "sprintf",
    "join",
    "split",
    "reverse",
    "sort",
    "keys",
    "values",
    "each",
    "map",
    "grep",
    "scalar",
    "defined",
    "exists",
    "delete",
    "push",
    "pop",
    "shift",
    "unshift",
    "splice",
    "abs",
    "int",
    "sqrt",
    "sin",
    "cos",
    "atan2",
    "exp",
    "log",
    "hex",
    "oct",
    "ord",
    "chr",
    "chomp",
    "chop",
    "my",
    "our",
    "local",
    "if",
    "elsif",
    "else",
    "unless",
    "while",
    "until",
    "for",
    "foreach",
    "last",
    "next",
    "and",
    "or",
    "not",
    "xor",
    "eq",
    "ne",
    "lt",
    "gt",
    "le",
    "ge",
    "cmp",
    "x",
    "time",
    "localtime",
    "gmtime",
    "pack",
    "unpack",
    "lc",
    "eof",
    "exit",
    "die",
    "warn",
    "STDIN",
    "STDOUT",
    "STDERR",
    "ARGV",
    "BEGIN",
    "END",
    "wantarray",
    "ref",
];

/// Words after which a `/` starts a pattern and a `<` reads a line (list operators and
/// keywords); after any other word the reading is ambiguous.
const TAKES_LIST: &[&str] = &[
    "split", "grep", "map", "if", "unless", "and", "or", "not", "while", "until", "print", "say",
    "push", "unshift", "return", "join", "xor",
];

/// Variables whose use is proven harmful or not read here: `%ENV` other than by a public
/// name ([`crate::shell::public_variable`]), signal and warning handlers named by strings
/// (`$SIG{__WARN__}`), the module path and cache, inheritance and autoloading.
const VARIABLES_NOT_READ: &[&str] = &["SIG", "INC", "ISA", "AUTOLOAD", "ENV"];

/// Why the Perl code is not proven to only compute, print and read its input; `None` when it is.
pub(crate) fn unproven(code: &str) -> Option<String> {
    Lexer {
        code,
        b: code.as_bytes(),
        i: 0,
        term: false,
        last_word: None,
    }
    .run()
    .err()
}

/// Why the environment variable read by `subscript` (`{HOME}`, `{'HOME'}`) may be a secret.
pub(crate) fn env_subscript_secret(subscript: &str) -> bool {
    let name = subscript.trim().trim_matches(['\'', '"']);
    !(!name.is_empty()
        && name.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'_')
        && crate::shell::public_variable(name))
}

struct Lexer<'a> {
    code: &'a str,
    b: &'a [u8],
    i: usize,
    /// Whether the token before is a term (a value): then `/` divides and `<` compares.
    term: bool,
    /// The word just before, when the token before is one.
    last_word: Option<&'a str>,
}

type Step = std::result::Result<(), String>;

fn ident_byte(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

impl<'a> Lexer<'a> {
    fn peek(&self, k: usize) -> Option<u8> {
        self.b.get(self.i + k).copied()
    }

    /// The next byte after spaces from `at`, with its offset.
    fn next_non_space(&self, at: usize) -> Option<(usize, u8)> {
        (at..self.b.len())
            .find(|&k| !self.b[k].is_ascii_whitespace())
            .map(|k| (k, self.b[k]))
    }

    fn word_at(&self, at: usize) -> &'a str {
        let end = (at..self.b.len())
            .find(|&k| !ident_byte(self.b[k]))
            .unwrap_or(self.b.len());
        &self.code[at..end]
    }

    fn run(mut self) -> Step {
        while self.i < self.b.len() {
            let c = self.b[self.i];
            let after_word = if matches!(c, b' ' | b'\t' | b'\r' | b'\n' | b'#') {
                None
            } else {
                self.last_word.take()
            };
            match c {
                b' ' | b'\t' | b'\r' => self.i += 1,
                b'\n' => {
                    self.i += 1;
                    // POD starts at a line beginning with `=`: a comment to Perl.
                    if self.peek(0) == Some(b'=') {
                        return Err("it has a line starting with `=` (documentation)".into());
                    }
                }
                b'#' => {
                    while self.i < self.b.len() && self.b[self.i] != b'\n' {
                        self.i += 1;
                    }
                }
                b'\'' => {
                    self.i += 1;
                    self.delimited(b'\'', false)?;
                    self.term = true;
                }
                b'"' => {
                    self.i += 1;
                    self.delimited(b'"', true)?;
                    self.term = true;
                }
                b'`' => return Err("it runs a command (backticks)".into()),
                b'$' | b'@' | b'%' if !(c == b'%' && self.term) => self.variable()?,
                b'&' => {
                    if self.peek(1) == Some(b'&') {
                        self.i += 2;
                        self.term = false;
                    } else {
                        return Err("it uses `&`, which may call a subroutine by name".into());
                    }
                }
                b'*' => {
                    if !self.term {
                        return Err("it uses a typeglob".into());
                    }
                    // `**` after a value is a power.
                    self.i += if self.peek(1) == Some(b'*') { 2 } else { 1 };
                    self.term = false;
                }
                b'\\' => match self.peek(1) {
                    Some(b'$' | b'@' | b'%') => {
                        self.i += 1;
                        self.term = false;
                    }
                    _ => return Err("it takes a reference not read here".into()),
                },
                b'-' => {
                    if self.peek(1) == Some(b'>') {
                        match self.next_non_space(self.i + 2) {
                            Some((k, b'[' | b'{')) => {
                                self.i = k;
                                self.term = false;
                            }
                            _ => return Err("it calls a method or a code reference".into()),
                        }
                    } else if !self.term && self.peek(1).is_some_and(|c| c.is_ascii_alphabetic()) {
                        return Err("it tests a file or uses an option-like word".into());
                    } else {
                        self.i += 1;
                        self.term = false;
                    }
                }
                b'/' => {
                    if self.term {
                        // `//` after a value is defined-or, never an empty pattern.
                        self.i += if self.peek(1) == Some(b'/') { 2 } else { 1 };
                        self.term = false;
                    } else if after_word.is_some_and(|w| !TAKES_LIST.contains(&w)) {
                        return Err(format!(
                            "its `/` after `{}` may divide or start a pattern",
                            after_word.unwrap_or_default()
                        ));
                    } else {
                        self.i += 1;
                        self.delimited(b'/', true)?;
                        self.flags(false)?;
                        self.term = true;
                    }
                }
                b'<' => self.angle(after_word)?,
                b'0'..=b'9' => {
                    self.number();
                    self.term = true;
                }
                b'.' if self.peek(1).is_some_and(|c| c.is_ascii_digit()) && !self.term => {
                    self.i += 1;
                    self.number();
                    self.term = true;
                }
                b')' | b']' => {
                    self.i += 1;
                    self.term = true;
                }
                b'}' => {
                    // A block's end or a subscript's: what follows may read either way.
                    self.i += 1;
                    self.term = true;
                    if let Some((_, b'/' | b'<' | b'%')) = self.next_non_space(self.i) {
                        return Err("it has a `/`, `<` or `%` after a `}`, read two ways".into());
                    }
                }
                c if c.is_ascii_alphabetic() || c == b'_' => self.word()?,
                b'(' | b'[' | b'{' | b',' | b';' | b'=' | b'!' | b'~' | b'.' | b'+' | b'?'
                | b':' | b'|' | b'^' | b'>' | b'%' => {
                    self.i += 1;
                    self.term = false;
                }
                _ => return Err(format!("it uses `{}`, not read here", c as char)),
            }
        }
        Ok(())
    }

    fn number(&mut self) {
        if self.peek(0) == Some(b'0') && matches!(self.peek(1), Some(b'x' | b'X' | b'b' | b'B')) {
            self.i += 2;
            while self
                .peek(0)
                .is_some_and(|c| c.is_ascii_hexdigit() || c == b'_')
            {
                self.i += 1;
            }
            return;
        }
        while self
            .peek(0)
            .is_some_and(|c| c.is_ascii_digit() || c == b'_')
        {
            self.i += 1;
        }
        if self.peek(0) == Some(b'.') && self.peek(1).is_some_and(|c| c.is_ascii_digit()) {
            self.i += 1;
            while self
                .peek(0)
                .is_some_and(|c| c.is_ascii_digit() || c == b'_')
            {
                self.i += 1;
            }
        }
        if matches!(self.peek(0), Some(b'e' | b'E'))
            && self
                .peek(1)
                .is_some_and(|c| c.is_ascii_digit() || c == b'-' || c == b'+')
        {
            self.i += 2;
            while self.peek(0).is_some_and(|c| c.is_ascii_digit()) {
                self.i += 1;
            }
        }
    }

    /// A variable (`$x`, `@a`, `%h`, `$_`, `$#a`, `${name}`), with the checks of
    /// [`VARIABLES_NOT_READ`].
    fn variable(&mut self) -> Step {
        let start = self.i;
        self.i += 1;
        if self.peek(0) == Some(b'#') {
            self.i += 1;
        }
        match self.peek(0) {
            Some(b'{') => {
                let end = self.b[self.i..].iter().position(|&c| c == b'}');
                let inner = end.map(|e| &self.code[self.i + 1..self.i + e]);
                match inner {
                    Some(n) if !n.is_empty() && n.bytes().all(ident_byte) => {
                        self.check_name(n, self.i + n.len() + 2)?;
                        self.i += n.len() + 2;
                    }
                    _ => return Err("it dereferences an expression or a name".into()),
                }
            }
            Some(b'^') => {
                if matches!(self.peek(1), Some(b'O' | b'V' | b'T' | b'W' | b'X'))
                    && self.b[start] == b'$'
                {
                    self.i += 2;
                } else {
                    return Err("it uses a special variable not read here (`$^…`)".into());
                }
            }
            Some(b':') => return Err("it reaches the symbol table".into()),
            Some(c) if c.is_ascii_alphabetic() || c == b'_' => {
                let name = self.word_at(self.i);
                if self.b.get(self.i + name.len()) == Some(&b':')
                    || self.b.get(self.i + name.len()) == Some(&b'\'')
                {
                    return Err("it names a variable of a package".into());
                }
                self.check_name(name, self.i + name.len())?;
                self.i += name.len();
            }
            // `$$x`, `@$x`: a dereference of a variable, read next.
            Some(b'$') => {}
            Some(c) if c.is_ascii_digit() => {
                while self.peek(0).is_some_and(|c| c.is_ascii_digit()) {
                    self.i += 1;
                }
            }
            // Punctuation variables (`$_` is a word): `$.`, `$/`, `$,`, `$\`, `$!`, `$0`…
            Some(c) if self.b[start] == b'$' && c.is_ascii_punctuation() => self.i += 1,
            _ if self.b[start] == b'$' => return Err("it has a `$` not read here".into()),
            // `@` and `%` alone: a sigil not followed by a name.
            _ => return Err("it has a sigil not followed by a name".into()),
        }
        self.term = true;
        Ok(())
    }

    /// A variable's name: `%ENV` only by a public name, and none of
    /// [`VARIABLES_NOT_READ`] otherwise.
    fn check_name(&self, name: &str, after: usize) -> Step {
        if name == "ENV" {
            let sub = (self.b.get(after) == Some(&b'{'))
                .then(|| {
                    self.b[after..]
                        .iter()
                        .position(|&c| c == b'}')
                        .map(|e| &self.code[after + 1..after + e])
                })
                .flatten();
            return match sub {
                Some(s) if !env_subscript_secret(s) => Ok(()),
                _ => Err("it reads the environment, which may hold secrets".into()),
            };
        }
        if VARIABLES_NOT_READ.contains(&name) {
            return Err(format!("it uses the variable `{name}`"));
        }
        Ok(())
    }

    /// `<STDIN>`, `<>`, `<<>>`, `<$fh>`: a line read; a comparison after a term; anything
    /// else (a glob, a here-document, a shift after a word) is not read here.
    fn angle(&mut self, after_word: Option<&str>) -> Step {
        if self.term {
            if self.peek(1) == Some(b'<') {
                // A shift: only by a number or a variable, never a here-document.
                match self.next_non_space(self.i + 2) {
                    Some((_, c)) if c.is_ascii_digit() || c == b'$' => {}
                    _ => return Err("it has a `<<` not read here".into()),
                }
                self.i += 2;
            } else {
                self.i += 1;
            }
            self.term = false;
            return Ok(());
        }
        if after_word.is_some_and(|w| !TAKES_LIST.contains(&w)) {
            return Err("its `<` after a word may compare or read a file".into());
        }
        let rest = &self.code[self.i..];
        for form in ["<<>>", "<>", "<STDIN>", "<ARGV>"] {
            if rest.starts_with(form) {
                self.i += form.len();
                self.term = true;
                return Ok(());
            }
        }
        if let Some(r) = rest.strip_prefix("<$") {
            let name = self.word_at(self.i + 2);
            if !name.is_empty() && r[name.len()..].starts_with('>') {
                self.i += 3 + name.len();
                self.term = true;
                return Ok(());
            }
        }
        Err("it reads a file list or a here-document (`<…>`)".into())
    }

    /// A word: a quote-like operator, a hash key, or one of [`ALLOWED`].
    fn word(&mut self) -> Step {
        let w = self.word_at(self.i);
        let end = self.i + w.len();
        match self.b.get(end) {
            Some(b'\'') => return Err(format!("`{w}'` names a package's function")),
            Some(b':') if self.b.get(end + 1) == Some(&b':') => {
                return Err(format!("it names `{w}::…`, a package's function"));
            }
            _ => {}
        }
        let next = self.next_non_space(end);
        // A hash key (`{key}`, `key => v`) is a string.
        let arrow = next.is_some_and(|(k, c)| c == b'=' && self.b.get(k + 1) == Some(&b'>'));
        let prev = self.code[..self.i].trim_end().bytes().last();
        let key = prev == Some(b'{') && next.is_some_and(|(_, c)| c == b'}');
        if arrow || key {
            self.i = end;
            self.term = true;
            return Ok(());
        }
        if w.starts_with("__") {
            return Err(format!("it uses `{w}`"));
        }
        if let Some(quote) = ["q", "qq", "qw", "m", "qr", "s", "tr", "y"]
            .iter()
            .find(|q| **q == w)
        {
            return self.quote_like(quote, end);
        }
        if !ALLOWED.contains(&w) {
            return Err(format!("it uses `{w}`, which is not known to only compute"));
        }
        if w == "sort" {
            match next {
                Some((_, b'{' | b'@')) => {}
                Some((k, _))
                    if ["keys", "values", "map", "grep", "split", "reverse"]
                        .contains(&self.word_at(k)) => {}
                _ => return Err("its `sort` may call a subroutine named by a value".into()),
            }
        }
        self.i = end;
        // `x` repeats after a value; words otherwise take what follows.
        self.term = false;
        self.last_word = Some(w);
        Ok(())
    }

    /// `q//`, `qq//`, `qw//`, `m//`, `qr//`, `s///`, `tr///`, `y///` with any delimiter.
    fn quote_like(&mut self, op: &str, end: usize) -> Step {
        let Some((k, open)) = self.next_non_space(end) else {
            return Err(format!("`{op}` ends the code"));
        };
        if k > end && open == b'#' || ident_byte(open) || open.is_ascii_whitespace() {
            return Err(format!("`{op}` has a delimiter not read here"));
        }
        if matches!(open, b'=' | b',' | b';' | b')') {
            return Err(format!("`{op}` is used as a name"));
        }
        let close = match open {
            b'(' => b')',
            b'[' => b']',
            b'{' => b'}',
            b'<' => b'>',
            c => c,
        };
        self.i = k + 1;
        let interpolates = open != b'\'' && matches!(op, "qq" | "m" | "qr" | "s");
        self.delimited_pair(open, close, interpolates)?;
        if matches!(op, "s" | "tr" | "y") {
            if open != close {
                match self.next_non_space(self.i) {
                    Some((k, c)) if c == open => self.i = k + 1,
                    _ => return Err(format!("`{op}` has a second part not read here")),
                }
            }
            let replacement = op == "s" && open != b'\'';
            self.delimited_pair(open, close, replacement)?;
        }
        self.flags(op == "s")?;
        self.term = true;
        Ok(())
    }

    /// A pattern's or substitution's flags; `e` evaluates the replacement as code.
    fn flags(&mut self, substitution: bool) -> Step {
        while let Some(c) = self.peek(0).filter(u8::is_ascii_alphabetic) {
            if substitution && c == b'e' {
                return Err("a substitution evaluates its replacement as code".into());
            }
            if !b"msixpodualngcr".contains(&c) {
                return Err(format!("a pattern has the flag `{}`", c as char));
            }
            self.i += 1;
        }
        Ok(())
    }

    fn delimited(&mut self, close: u8, interpolates: bool) -> Step {
        self.delimited_pair(close, close, interpolates)
    }

    /// The text up to the closing delimiter (nested pairs counted), checked as an
    /// interpolating string when it is one.
    fn delimited_pair(&mut self, open: u8, close: u8, interpolates: bool) -> Step {
        let start = self.i;
        let mut depth = 0usize;
        while let Some(c) = self.peek(0) {
            if c == b'\\' {
                self.i += 2;
                continue;
            }
            if c == close && depth == 0 {
                let text = &self.code[start..self.i];
                self.i += 1;
                return if interpolates {
                    interpolation(text)
                } else {
                    Ok(())
                };
            }
            if open != close && c == open {
                depth += 1;
            } else if open != close && c == close {
                depth -= 1;
            }
            self.i += 1;
        }
        Err("a string or pattern is not closed".into())
    }
}

/// Why an interpolating string or pattern may run code: a code block (`(?{…})`), a block
/// dereference (`@{[ … ]}`, `${\ … }`), or a subscript that is an expression (`$x[f()]`).
fn interpolation(text: &str) -> Step {
    if text.contains("(?{") || text.contains("(??{") || text.contains("(*{") {
        return Err("a pattern runs code".into());
    }
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'\\' => i += 2,
            b'$' | b'@' => {
                i += 1;
                match b.get(i) {
                    Some(b'{') => return Err("a string interpolates a block".into()),
                    Some(b'^') => return Err("a string interpolates `$^…`".into()),
                    Some(b':') => return Err("a string reaches the symbol table".into()),
                    Some(c) if c.is_ascii_alphabetic() || *c == b'_' => {
                        let end = (i..b.len()).find(|&k| !ident_byte(b[k])).unwrap_or(b.len());
                        let name = &text[i..end];
                        i = end;
                        if name == "ENV" {
                            let sub = text[i..]
                                .strip_prefix('{')
                                .and_then(|r| r.split_once('}'))
                                .map(|(s, _)| s);
                            if sub.is_none_or(env_subscript_secret) {
                                return Err("a string reads the environment".into());
                            }
                        } else if VARIABLES_NOT_READ.contains(&name) {
                            return Err(format!("a string uses `{name}`"));
                        }
                        if text[i..].starts_with("::") || text[i..].starts_with('\'') {
                            return Err("a string names a package's variable".into());
                        }
                        // Subscripts, also after `->`: plain numbers, names and variables.
                        loop {
                            let rest = text[i..].strip_prefix("->").unwrap_or(&text[i..]);
                            let skip = text.len() - i - rest.len();
                            let (open, close) = match rest.as_bytes().first() {
                                Some(b'[') => (b'[', ']'),
                                Some(b'{') => (b'{', '}'),
                                _ => break,
                            };
                            let Some((inner, _)) = rest[1..].split_once(close) else {
                                return Err("a string has a subscript not closed".into());
                            };
                            let plain = inner.trim_start_matches(['-', '$']);
                            let simple = !plain.is_empty()
                                && plain.bytes().all(ident_byte)
                                && (open == b'{' || !inner.contains('-') || inner.len() > 1);
                            if !simple {
                                return Err("a string has a subscript that is an expression".into());
                            }
                            i += skip + inner.len() + 2;
                        }
                    }
                    _ => {}
                }
            }
            _ => i += 1,
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_computations_prints_and_input_reads_are_proven() {
        for code in [
            "print 1+1",
            "print \"hello world\\n\"",
            "print 'a', \"b\\n\"",
            "print if /foo/",
            "s/a/b/g",
            "print join(',', (1,2))",
            "print $F[0]",
            "print \"$F[1] $F[-1]\\n\"",
            "print uc $_",
            "my %h; $h{$_}++ for split /,/; print join ' ', sort keys %h",
            "print scalar(localtime)",
            "while (<STDIN>) { chomp; print length, \"\\n\" }",
            "print $ENV{HOME}",
            "print \"$ENV{USER}\\n\"",
            "tr/a-z/A-Z/",
            "y/a/b/",
            "print 2*$x, $a*$b, 2**10",
            "print $x // 1, \"\\n\"",
            "$s += $_ for 1..10; print $s",
            "print $. if eof",
            "print sprintf('%05.2f', 3.14159)",
            "print for sort { $a <=> $b } @ARGV",
            "print qq{$_\\n} for qw(a b c)",
            "my $x = 0x1f; print $x",
            "print $h->{key}, $r->[0]",
            "END { print $t }",
        ] {
            assert_eq!(unproven(code), None, "{code}");
        }
    }

    #[test]
    fn calls_by_name_commands_files_and_secrets_are_unproven() {
        for code in [
            "print `id`",
            "print qx(id)",
            "print readpipe('id')",
            "&{\"sys\".\"tem\"}('id')",
            "*{\"main::sys\".\"tem\"}{CODE}->('id')",
            "$x='system'; &$x('id')",
            "eval 'system 1'",
            "do '/tmp/x.pl'",
            "require '/tmp/x.pl'",
            "open(F,'|sh'); print F 'id'",
            "open F, 'id|'",
            "print <~/.ssh/id_rsa>",
            "print <*>",
            "print %ENV",
            "print $ENV{AWS_SECRET_ACCESS_KEY}",
            "print \"$ENV{GITHUB_TOKEN}\"",
            "print values %ENV",
            "while(($k,$v)=each %ENV){print}",
            "$^I=''; print",
            "print \"@{[ system 'id' ]}\"",
            "print \"${\\ `id` }\"",
            "print \"$x[system('id')]\"",
            "s/x/system('id')/e",
            "s/x/1/ee",
            "main->can('x')->()",
            "$f->('id')",
            "main'system('id')",
            "CORE::system('id')",
            "POSIX::system('id')",
            "sort $f 1, 2",
            "print sort subname 1, 2",
            "$SIG{__WARN__} = 'x'; warn 1",
            "print time / 2; system('id'); #/",
            "print $x // system('id'); print '/'",
            "print $x //= unlink('x')",
            "print 1\n=pod '\n=cut\nsystem('id');#'",
            "print <<EOF\nx\nEOF",
            "print -s 'x'",
            "opendir D, '/'; print readdir D",
            "sub x { 1 } x()",
            "print \\&x",
            "/(?{ system('id') })/",
            "print $::{x}",
            "print %main::",
            "__END__\nsystem",
            "print STDOUT `id`",
            "unlink 'x'",
            "syswrite(STDOUT, 1)",
            "binmode STDOUT; print 1",
            "print FH 1",
            "exec 'id'",
            "format STDOUT =\n@<<\n$x\n.\nwrite",
            "print q(a) . system('id')",
            "print \"$h{system('id')}\"",
        ] {
            assert!(unproven(code).is_some(), "{code}");
        }
    }
}
