//! The preprocessing directives of a C or C++ source that make a compiler read a file
//! (`#include`, `#include_next`, `#import`, `#embed`, C++20's `import "…"`), found the way a
//! preprocessor finds them: trigraphs replaced, spliced lines joined, comments read as a
//! space, string and character literals skipped whole, directives only where a logical line
//! begins, spelled `#` or `%:`. Dialects differ in those steps (trigraphs, `//` comments,
//! raw strings, digit separators, what splices a line), so every combination that matters
//! for the text is read and the directives of all are kept: a compiler uses one of them,
//! and reads no file the union does not name.

/// How a directive names the file it reads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Header {
    /// `"name"`: looked up beside the including file, then where `<name>` is.
    Quoted(String),
    /// `<name>`: looked up in the include directories, then the system's.
    Angle(String),
    /// Anything else: a macro names the file, or the directive is malformed.
    Other,
}

/// What a source holds that makes a compiler read files.
#[derive(Debug, Default, PartialEq, Eq)]
pub(super) struct Scan {
    /// The files its directives name, each once, in the order first found.
    pub(super) headers: Vec<Header>,
    /// Whether it may hand the assembler text of its own (an `asm` statement, a token
    /// pasted together that may be one, an attribute naming a section or symbol, an
    /// `.incbin` or `.include` spelled anywhere): the
    /// assembler reads the files that text names, and quotes them in its errors.
    pub(super) assembly: bool,
}

/// The steps of translation a dialect takes.
#[derive(Debug, Clone, Copy)]
struct Dialect {
    /// `??=` is `#`, `??/` a backslash (ISO C before C23, `-trigraphs`).
    trigraphs: bool,
    /// `//` begins a comment (all but C89).
    line_comments: bool,
    /// `R"delim(…)delim"` is a string, over lines, with trigraphs and splices undone
    /// (C++11, GNU C).
    raw_strings: bool,
    /// `1'000` is one number (C++14, C23).
    digit_separators: bool,
    /// A backslash followed by blanks and then a newline splices the lines (gcc, clang).
    blank_splice: bool,
    /// A carriage return not before a newline ends a line.
    lone_cr: bool,
}

/// The directives and assembly of the source `text`, in every dialect.
pub(super) fn scan(text: &[u8]) -> Scan {
    let has = |needle: &[u8]| text.windows(needle.len()).any(|w| w == needle);
    let both = |relevant: bool| {
        if relevant {
            vec![false, true]
        } else {
            vec![false]
        }
    };
    let mut out = Scan::default();
    for trigraphs in both(has(b"??")) {
        for line_comments in both(has(b"//")) {
            for raw_strings in both(has(b"R\"")) {
                for digit_separators in both(has(b"'")) {
                    for blank_splice in both(has(b"\\ ") || has(b"\\\t") || has(b"??/")) {
                        for lone_cr in both(has(b"\r")) {
                            let dialect = Dialect {
                                trigraphs,
                                line_comments,
                                raw_strings,
                                digit_separators,
                                blank_splice,
                                lone_cr,
                            };
                            read(text, dialect, &mut out);
                        }
                    }
                }
            }
        }
    }
    out
}

/// The text after translation phases 1 and 2 (trigraphs, newlines as `\n`, spliced lines),
/// and for each of its bytes the offset in `text` it comes from.
fn translate(text: &[u8], d: Dialect) -> (Vec<u8>, Vec<usize>) {
    let mut first = Vec::with_capacity(text.len());
    let mut from = Vec::with_capacity(text.len());
    let mut i = 0;
    while i < text.len() {
        let c = text[i];
        if d.trigraphs && c == b'?' && text.get(i + 1) == Some(&b'?') {
            let replaced = match text.get(i + 2) {
                Some(b'=') => Some(b'#'),
                Some(b'/') => Some(b'\\'),
                Some(b'\'') => Some(b'^'),
                Some(b'(') => Some(b'['),
                Some(b')') => Some(b']'),
                Some(b'!') => Some(b'|'),
                Some(b'<') => Some(b'{'),
                Some(b'>') => Some(b'}'),
                Some(b'-') => Some(b'~'),
                _ => None,
            };
            if let Some(r) = replaced {
                first.push(r);
                from.push(i);
                i += 3;
                continue;
            }
        }
        if c == b'\r' && text.get(i + 1) == Some(&b'\n') {
            first.push(b'\n');
            from.push(i);
            i += 2;
            continue;
        }
        first.push(if c == b'\r' && d.lone_cr { b'\n' } else { c });
        from.push(i);
        i += 1;
    }
    let mut out = Vec::with_capacity(first.len());
    let mut map = Vec::with_capacity(first.len());
    let mut i = 0;
    while i < first.len() {
        if first[i] == b'\\' {
            let mut j = i + 1;
            if d.blank_splice {
                while j < first.len() && matches!(first[j], b' ' | b'\t' | b'\x0b' | b'\x0c') {
                    j += 1;
                }
            }
            if first.get(j) == Some(&b'\n') {
                i = j + 1;
                continue;
            }
        }
        out.push(first[i]);
        map.push(from[i]);
        i += 1;
    }
    (out, map)
}

/// Whether `c` continues an identifier (letters, digits, `_`, `$`, any byte of UTF-8 beyond
/// ASCII).
fn ident_byte(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'$' || c >= 0x80
}

/// Whether `c` is a blank within a line (a NUL is ignored as one).
fn blank(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\x0b' | b'\x0c' | b'\r' | 0)
}

/// The offset past the blanks and comments at `i` within the line (a block comment may span
/// lines and still is one space).
fn skip_blanks(p: &[u8], mut i: usize, d: Dialect) -> usize {
    loop {
        match p.get(i) {
            Some(&c) if blank(c) => i += 1,
            Some(b'/') if p.get(i + 1) == Some(&b'*') => i = comment_end(p, i),
            Some(b'/') if d.line_comments && p.get(i + 1) == Some(&b'/') => {
                while i < p.len() && p[i] != b'\n' {
                    i += 1;
                }
            }
            _ => return i,
        }
    }
}

/// The offset past the block comment beginning at `i` (the end of the text when it is not
/// closed).
fn comment_end(p: &[u8], i: usize) -> usize {
    p[i + 2..]
        .windows(2)
        .position(|w| w == b"*/")
        .map_or(p.len(), |e| i + 2 + e + 2)
}

/// The offset past the identifier at `i`.
fn ident_end(p: &[u8], mut i: usize) -> usize {
    while i < p.len() && ident_byte(p[i]) {
        i += 1;
    }
    i
}

/// The offset past the string or character literal whose quote `q` is at `i`; one not
/// closed ends with its line.
fn literal_end(p: &[u8], i: usize, q: u8) -> usize {
    let mut j = i + 1;
    while j < p.len() && p[j] != q && p[j] != b'\n' {
        j += if p[j] == b'\\' && p.get(j + 1) != Some(&b'\n') {
            2
        } else {
            1
        };
    }
    if j < p.len() && p[j] == q {
        j + 1
    } else {
        j.min(p.len())
    }
}

/// The offset past the raw string whose quote is at `i` of the translated text, found in
/// the original `text` (a raw string undoes trigraphs and splices); `None` when there is
/// none (a bad delimiter, no end).
fn raw_end(text: &[u8], map: &[usize], i: usize) -> Option<usize> {
    let start = map[i] + 1;
    let open = start + text[start..].iter().take(17).position(|&c| c == b'(')?;
    let delim = &text[start..open];
    if delim.len() > 16
        || delim.iter().any(|c| {
            matches!(
                c,
                b' ' | b')' | b'\\' | b'\t' | b'\x0b' | b'\x0c' | b'\n' | b'\r'
            )
        })
    {
        return None;
    }
    let mut close = Vec::with_capacity(delim.len() + 2);
    close.push(b')');
    close.extend_from_slice(delim);
    close.push(b'"');
    let end = open
        + 1
        + text[open + 1..]
            .windows(close.len())
            .position(|w| w == close.as_slice())?
        + close.len();
    // The first translated byte from at or past the end.
    Some(map.partition_point(|&o| o < end))
}

/// The header name at `i` (after the directive's name), and the offset past it.
fn header(p: &[u8], i: usize) -> (Header, usize) {
    let (close, angle) = match p.get(i) {
        Some(b'<') => (b'>', true),
        Some(b'"') => (b'"', false),
        _ => return (Header::Other, i),
    };
    let Some(len) = p[i + 1..].iter().position(|&c| c == close || c == b'\n') else {
        return (Header::Other, p.len());
    };
    let end = i + 1 + len;
    if p[end] != close {
        return (Header::Other, end);
    }
    let Ok(name) = std::str::from_utf8(&p[i + 1..end]) else {
        return (Header::Other, end + 1);
    };
    let name = name.to_owned();
    (
        if angle {
            Header::Angle(name)
        } else {
            Header::Quoted(name)
        },
        end + 1,
    )
}

/// The directive names that read a file.
const READING: &[&[u8]] = &[b"include", b"include_next", b"import", b"embed"];

/// The prefixes of raw strings.
const RAW_PREFIXES: &[&[u8]] = &[b"R", b"LR", b"uR", b"UR", b"u8R"];

/// The spellings of the `asm` keyword.
const ASM: &[&[u8]] = &[b"asm", b"__asm", b"__asm__"];

/// The attributes whose string a compiler writes into the assembly it hands the assembler
/// as it is (a section's or a symbol's name): a newline in it starts a directive.
const ASM_ATTRIBUTES: &[&[u8]] = &[
    b"section",
    b"__section__",
    b"alias",
    b"__alias__",
    b"weakref",
    b"__weakref__",
    b"symver",
    b"__symver__",
    b"ifunc",
    b"__ifunc__",
];

/// Adds to `out` what `text` holds read in `dialect`.
fn read(text: &[u8], d: Dialect, out: &mut Scan) {
    let (p, map) = translate(text, d);
    let lower = p.to_ascii_lowercase();
    if [b"incbin".as_slice(), b".include"]
        .iter()
        .any(|n| lower.windows(n.len()).any(|w| w == *n))
    {
        out.assembly = true;
    }
    let found = |h: Header, out: &mut Scan| {
        if !out.headers.contains(&h) {
            out.headers.push(h);
        }
    };
    let attributes = p.windows(13).any(|w| w == b"__attribute__")
        || p.windows(2).any(|w| w == b"[[")
        || p.windows(9).any(|w| w == b"__declspec");
    let mut line_start = true;
    let mut i = 0;
    while i < p.len() {
        let c = p[i];
        let next = p.get(i + 1).copied();
        if c == b'\n' {
            line_start = true;
            i += 1;
        } else if blank(c) {
            i += 1;
        } else if c == b'/' && next == Some(b'*') {
            i = comment_end(&p, i);
        } else if c == b'/' && next == Some(b'/') && d.line_comments {
            while i < p.len() && p[i] != b'\n' {
                i += 1;
            }
        } else if c == b'#' || (c == b'%' && next == Some(b':')) {
            let after = if c == b'#' { i + 1 } else { i + 2 };
            if p.get(after) == Some(&b'#') || p[after..].starts_with(b"%:") {
                // `##`: tokens pasted together may spell `asm`.
                out.assembly = true;
            }
            if line_start {
                let name_at = skip_blanks(&p, after, d);
                let name_end = ident_end(&p, name_at);
                if READING.contains(&&p[name_at..name_end]) {
                    let (h, end) = header(&p, skip_blanks(&p, name_end, d));
                    found(h, out);
                    i = end;
                } else {
                    i = name_end.max(after);
                }
            } else {
                i = after;
            }
            line_start = false;
        } else if ident_byte(c) && !c.is_ascii_digit() {
            let end = ident_end(&p, i);
            let word = &p[i..end];
            if ASM.contains(&word) || (attributes && ASM_ATTRIBUTES.contains(&word)) {
                out.assembly = true;
            }
            i = end;
            if line_start && (word == b"import" || word == b"export") {
                // C++20's `import "name";` (a header unit) reads the header.
                let mut at = skip_blanks(&p, end, d);
                if word == b"export" {
                    let e = ident_end(&p, at);
                    at = if &p[at..e] == b"import" {
                        skip_blanks(&p, e, d)
                    } else {
                        p.len() + 1
                    };
                }
                if matches!(p.get(at), Some(b'<' | b'"')) {
                    let (h, end) = header(&p, at);
                    if h != Header::Other {
                        found(h, out);
                        i = end;
                    }
                }
            } else if d.raw_strings
                && p.get(end) == Some(&b'"')
                && RAW_PREFIXES.contains(&word)
                && let Some(e) = raw_end(text, &map, end)
            {
                i = e;
            }
            line_start = false;
        } else if c.is_ascii_digit() || (c == b'.' && next.is_some_and(|n| n.is_ascii_digit())) {
            let mut j = i + 1;
            while j < p.len() {
                let b = p[j];
                let sign =
                    matches!(b, b'+' | b'-') && matches!(p[j - 1], b'e' | b'E' | b'p' | b'P');
                if sign || ident_byte(b) || b == b'.' {
                    j += 1;
                } else if b == b'\''
                    && d.digit_separators
                    && p.get(j + 1).is_some_and(|&n| ident_byte(n))
                {
                    j += 2;
                } else {
                    break;
                }
            }
            i = j;
            line_start = false;
        } else if c == b'"' || c == b'\'' {
            i = literal_end(&p, i, c);
            line_start = false;
        } else {
            i += 1;
            line_start = false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(text: &str) -> Vec<Header> {
        scan(text.as_bytes()).headers
    }

    fn q(name: &str) -> Header {
        Header::Quoted(name.to_owned())
    }

    #[test]
    fn every_spelling_of_an_include_is_found() {
        for text in [
            "#include \"../.env\"\n",
            "  #  include \"../.env\" // c\n",
            "%:include \"../.env\"\n",
            "#\\\ninclude \"../.env\"\n",
            "#\\  \ninclude \"../.env\"\n",
            "# /**/ include \"../.env\"\n",
            "# /*\n*/ include \"../.env\"\n",
            "??=include \"../.env\"\n",
            "#inc??/\nlude \"../.env\"\n",
            "int x; /* a */ \n#include \"../.env\"\n",
            "x\r#include \"../.env\"\n",
            "#include_next \"../.env\"\n",
            "#import \"../.env\"\n",
            "#embed \"../.env\" limit(10)\n",
            "import \"../.env\";\n",
            "export import \"../.env\";\n",
        ] {
            assert_eq!(headers(text), [q("../.env")], "{text:?}");
        }
        assert_eq!(
            headers("#include <../../etc/shadow>\n"),
            [Header::Angle("../../etc/shadow".to_owned())]
        );
        assert_eq!(headers("#include FILE\n"), [Header::Other]);
    }

    #[test]
    fn comments_and_literals_hide_directives_only_where_every_dialect_agrees() {
        assert!(headers("/*\n#include \"a\"\n*/\n").is_empty());
        assert!(headers("x; #include \"a\"\n").is_empty());
        assert!(headers("const char *s = \"\\\n#include \\\"a\\\"\";\n").is_empty());
        // A comment marker inside a string is no comment.
        assert_eq!(
            headers("const char *s = \"/*\";\n#include \"a\"\n// */\n"),
            [q("a")]
        );
        // A raw string over lines hides a directive in C++, not in C: both count.
        assert_eq!(headers("auto s = R\"(\n#include \"a\"\n)\";\n"), [q("a")]);
        // In C++ the raw string holds the `/*`; in C it opens a comment.
        assert_eq!(
            headers("auto s = R\"x(\"/*)x\";\n#include \"a\"\n// */\n"),
            [q("a")]
        );
        // A digit separator keeps `'` from opening a character literal (C++14).
        assert_eq!(headers("int n = 1'0'; /*\n#include \"a\"\n*/\n"), [q("a")]);
        // `//` is no comment in C89: the `/*` after it opens one there, not elsewhere.
        assert_eq!(headers("// /*\n#include \"a\"\n// */\n"), [q("a")]);
    }

    #[test]
    fn assembly_is_noticed() {
        for text in [
            "asm(\".incbin \\\"/etc/shadow\\\"\");\n",
            "void f(void) { __asm__ volatile (\"nop\"); }\n",
            "#define J(a, b) a##b\n",
            "#define J(a, b) a %:%: b\n",
            "const char *s = \".INCLUDE\";\n",
            "int x __attribute__((section(\"s\\n\\x2eincbin \\\"k\\\"\\n#\"))) = 1;\n",
            "[[gnu::alias(\"s\")]] void f(void);\n",
        ] {
            assert!(scan(text.as_bytes()).assembly, "{text:?}");
        }
        assert!(!scan(b"#include <stdio.h>\nint main(void) { return 0; }\n").assembly);
        assert!(!scan(b"int section = 1;\n").assembly);
    }
}
