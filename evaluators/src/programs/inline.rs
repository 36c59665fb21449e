//! Code given to an interpreter on its command line (`python3 -c CODE`, `node -e CODE`,
//! `perl -e CODE`, `ruby -e CODE`, `php -r CODE`, `lua -e CODE`), judged twice:
//!
//! - **Proven** ([`proven`]): every name is on an allow-list of constructs that only compute,
//!   print, read standard input or read a literal path (given back for the policy to judge as
//!   a read, with the same secret and workspace checks as `cat`), the options are plain and
//!   the interpreter's start was checked (strace) to read nothing of the directory: Python
//!   (imports only of `sys` and `os`, loaded before the directory joins the module path),
//!   Node (built-in modules; `fs` only to read a literal path) and Perl (read token by token,
//!   [`super::inline_perl`]). Proven code is modeled and may be allowed.
//! - **Binding** ([`Inline::unproven`]): code that may run programs, write files not told,
//!   read secrets (the environment by a name not public, a file named at run time) or reach
//!   names built at run time. Everything neither proven nor binding is open: an ask in
//!   default mode, not binding in full access. An import of a module not read here runs that
//!   module's code as `python3 script.py` runs the script's: open, and binding only through
//!   what the code then uses of it (its `__version__` only).
//!
//! A literal path opened for writing is given back as a write, for the policy to judge.

use crate::shell::{SimpleCommand, Word};

/// What inline code was found to do.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Inline {
    /// Why the code may run programs, write files not told, or read secrets, if it may: a
    /// binding ask.
    pub unproven: Option<String>,
    /// Why the code is not proven to only compute, print and read the files told, if it is
    /// not (a name outside the allow-lists, an import a file of the directory may shadow,
    /// an interpreter whose start is not checked here): never allowed, but binding only
    /// through [`Inline::unproven`].
    pub unmodeled: Option<String>,
    /// Literal paths the code writes (`open("out.txt", "w")`, `perl -i FILE`).
    pub writes: Vec<String>,
    /// Literal paths the code reads (`open("README.md")`, `readFileSync("package.json")`,
    /// the files `perl -n` reads), for the policy to judge as reads.
    pub reads: Vec<String>,
    /// Literal directories whose entries' names the code lists (`os.listdir("src")`,
    /// `os.walk(".")`), for the policy to judge as `ls` and `find` look at them.
    pub meta: Vec<String>,
    /// Files of the directory whose presence makes the interpreter run them: modules Python
    /// may import after its directory joins the module path (printing a traceback imports
    /// `traceback` in some versions).
    pub forbids: Vec<String>,
    /// Whether the code imports standard modules Python does not load at start (`import
    /// json`, `-m json.tool`): Python looks for them first in the directory it runs in, so
    /// that no entry there may be named as a standard module ([`shadowing_entry`]).
    pub std_modules: bool,
    /// Literal paths the code loads as data only when each is a regular file, not a
    /// symlink nor a directory (`require('./package.json')`: Node parses a `.json` file, but
    /// runs `index.js` of a directory of that name, and a link's target by its own
    /// extension).
    pub regular_files: Vec<String>,
}

/// Modules the Python interpreter itself may import while `-c` code runs (to print an
/// error), found first in the directory: a file or package of that name there runs.
const PYTHON_LAZY_MODULES: &[&str] = &["traceback", "linecache", "tokenize", "token", "_colorize"];

impl Inline {
    fn unmodeled(&mut self, why: impl Into<String>) {
        if self.unmodeled.is_none() {
            self.unmodeled = Some(why.into());
        }
    }
}

/// The languages whose inline code is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Lang {
    Python,
    Node,
    Perl,
    Ruby,
    Php,
    Lua,
    /// A language not read here (`pwsh -c`, `osascript -e`, `Rscript -e`): never proven.
    Other,
}

/// An interpreter's options that hold inline code (short letters, long names) and the short
/// ones whose value follows (attached or in the next word).
struct Flags {
    code: &'static str,
    long_code: &'static [&'static str],
    valued: &'static str,
    /// Short options whose attached value is only digits (`perl -l`, `perl -0777`); the
    /// cluster goes on after them (`perl -lne`).
    digits: &'static str,
}

fn lang(program: &str) -> Option<(Lang, Flags)> {
    let base = program.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.');
    let f = |code, long_code, valued| Flags {
        code,
        long_code,
        valued,
        digits: "",
    };
    Some(match base {
        "python" | "pypy" => (Lang::Python, f("c", &[], "WXm")),
        "node" | "nodejs" | "bun" => (Lang::Node, f("ep", &["--eval", "--print"], "rC")),
        "perl" => (
            Lang::Perl,
            Flags {
                digits: "l0",
                ..f("eE", &[], "IMmCDix")
            },
        ),
        "ruby" => (Lang::Ruby, f("e", &[], "IrCEFx0i")),
        "php" => (Lang::Php, f("r", &[], "dcfBREF")),
        "lua" | "luajit" => (Lang::Lua, f("e", &[], "l")),
        "pwsh" | "powershell" => (
            Lang::Other,
            f(
                "c",
                &["-Command", "-command", "-EncodedCommand", "--command"],
                "",
            ),
        ),
        "osascript" | "Rscript" | "groovy" => (Lang::Other, f("e", &[], "")),
        // expect and Guile take code with `-c`, Julia with `-e`/`-E` (`tclsh` and `wish`
        // only from a file or their input).
        "expect" | "guile" => (Lang::Other, f("c", &[], "")),
        "julia" => (Lang::Other, f("eE", &["--eval", "--print"], "")),
        _ => return None,
    })
}

/// A command line of an interpreter as read here.
#[derive(Default)]
struct Parsed {
    /// The inline code words.
    code: Vec<Word>,
    /// The modules options load (`perl -MMod`, `ruby -rlib`, `lua -lmod`).
    modules: Vec<String>,
    /// Every short option letter seen, valued ones included (`perl -i` gives `i`).
    letters: String,
    /// Whether a long option other than a code option was seen.
    long: bool,
    /// The backup suffix of an in-place edit (`perl -i.bak`, `ruby -i`), when one is made.
    inplace: Option<String>,
    /// The words after the options and the code: the code's arguments (and, for Perl's
    /// `-n`/`-p`/`<>`, the files it reads).
    operands: Vec<Word>,
    /// Whether the interpreter may be Python 2 (`python`, `python2`, `pypy`: any Python not
    /// named for 3), whose builtins read files and run code ([`PYTHON2_BUILTINS`]).
    python2: bool,
}

/// The inline code words of `args` (`-c CODE`, `-e CODE`, clusters such as `perl -lne CODE`,
/// attached `-cCODE`), with the options that load modules (`perl -MMod`, `ruby -rlib`).
fn parse(program: &str, args: &[Word], flags: &Flags) -> Parsed {
    let mut p = Parsed {
        python2: !program.starts_with("python3") && !program.starts_with("pypy3"),
        ..Parsed::default()
    };
    let mut i = 0;
    if program == "deno" {
        return p;
    }
    while let Some(w) = args.get(i) {
        i += 1;
        let Some(t) = w.literal() else {
            // A word only known when it runs may be a code option.
            if p.code.is_empty() {
                p.code.push(w.clone());
            }
            break;
        };
        if t == "--" {
            p.operands = args[i..].to_vec();
            break;
        }
        if !t.starts_with('-') || t == "-" {
            p.operands = args[i - 1..].to_vec();
            break;
        }
        if let Some(long) = flags
            .long_code
            .iter()
            .find(|l| t == **l || t.strip_prefix(**l).is_some_and(|r| r.starts_with('=')))
        {
            match t.strip_prefix(*long).and_then(|r| r.strip_prefix('=')) {
                Some(v) => p.code.push(Word::literal_text(v)),
                None => {
                    p.code.extend(args.get(i).cloned());
                    i += 1;
                }
            }
            continue;
        }
        if t.starts_with("--") {
            p.long = true;
            continue;
        }
        let mut skip_digits = false;
        for (at, c) in t[1..].char_indices() {
            if skip_digits && c.is_ascii_digit() {
                continue;
            }
            p.letters.push(c);
            skip_digits = flags.digits.contains(c);
            if skip_digits {
                continue;
            }
            let rest = &t[1 + at + c.len_utf8()..];
            if flags.code.contains(c) {
                if rest.is_empty() {
                    p.code.extend(args.get(i).cloned());
                    i += 1;
                } else {
                    p.code.push(Word::literal_text(rest));
                }
                break;
            }
            if c == 'i' && matches!(flags.code, "eE" | "e") {
                p.inplace = Some(rest.to_owned());
                break;
            }
            if flags.valued.contains(c) {
                let value = if rest.is_empty() && "WXmIMrCEdcfl".contains(c) {
                    i += 1;
                    args.get(i - 1).and_then(Word::literal).unwrap_or("?")
                } else {
                    rest
                };
                if matches!(c, 'M' | 'm' | 'r' | 'l') && !flags.digits.contains(c) {
                    p.modules.push(value.to_owned());
                }
                break;
            }
        }
        // Python's code ends its options: what follows is the code's argv.
        if flags.code == "c" && !p.code.is_empty() {
            p.operands = args[i.min(args.len())..].to_vec();
            break;
        }
    }
    p
}

/// What the inline code of `cmd` does ([`Inline`]); `None` when `cmd` runs no inline code
/// of an interpreter read here.
pub(crate) fn read(cmd: &SimpleCommand) -> Option<Inline> {
    read_args(cmd.program()?, cmd.args())
}

/// [`read`] for `program` run with `args`.
fn read_args(program: &str, args: &[Word]) -> Option<Inline> {
    let (lang, flags) = if program == "deno" {
        // `deno eval CODE`.
        if args.first().and_then(Word::literal) != Some("eval") {
            return None;
        }
        let code: Vec<Word> = args[1..]
            .iter()
            .filter(|w| w.literal().is_none_or(|t| !t.starts_with('-')))
            .take(1)
            .cloned()
            .collect();
        let parsed = Parsed {
            code,
            ..Parsed::default()
        };
        let mut out = judge(Lang::Node, &parsed);
        out.unmodeled("`deno` reads configuration and import maps from the directory");
        return Some(out);
    } else {
        lang(program)?
    };
    let parsed = parse(program, args, &flags);
    if parsed.code.is_empty() {
        return None;
    }
    let mut out = judge(lang, &parsed);
    if matches!(program, "bun" | "pypy" | "pypy3") {
        out.unmodeled(format!("the start of `{program}` is not checked here"));
    }
    Some(out)
}

/// The shell commands that `program args…` runs from its own script (`sed '1e CMD'`, the
/// `e` flag of sed's `s`, awk's `system(CMD)` and pipes), each with what gives it, as its
/// text or `None` for one only known when it runs (the pattern space, a string built by
/// the program): for the policy to judge as the shell code they are.
pub(crate) fn shell_commands(program: &str, args: &[Word]) -> Vec<(String, Option<String>)> {
    let name = program.rsplit('/').next().unwrap_or(program);
    let (given, found) = match name {
        "sed" => ("its script's `e`", super::sed::commands(args)),
        "awk" | "gawk" | "mawk" | "nawk" => ("its awk program", super::awk::runs(args)),
        "sqlite3" => ("its dot-command", sqlite_commands(args)),
        "trap" => ("its handler", trap_handler(args)),
        _ => return Vec::new(),
    };
    found
        .into_iter()
        .map(|code| (given.to_owned(), code))
        .collect()
}

/// The command `trap CMD SIGNAL…` runs when a signal comes or the shell exits: its first
/// argument when a signal follows (`trap SIGNAL` and `trap - SIGNAL` reset, `-p` and `-l`
/// print); `None` when that argument is only known when it runs.
fn trap_handler(args: &[Word]) -> Vec<Option<String>> {
    let args: Vec<&Word> = args
        .iter()
        .skip_while(|w| w.literal() == Some("--"))
        .collect();
    match args.as_slice() {
        [first, _, ..] => match first.literal() {
            Some("-" | "-p" | "-l" | "-lp" | "-pl") => Vec::new(),
            Some(code) => vec![Some(code.to_owned())],
            None => vec![None],
        },
        _ => Vec::new(),
    }
}

/// The commands sqlite3's `.shell CMD` and `.system CMD` run (a dot-command is a whole
/// argument, SQL or `-cmd`'s value): the text after the name, `None` when it holds quotes or
/// backslashes (sqlite3 splits and requotes its arguments, not modeled here). The other
/// statements are judged with the database clients.
fn sqlite_commands(args: &[Word]) -> Vec<Option<String>> {
    args.iter()
        .filter_map(Word::literal)
        .filter_map(|t| {
            let t = t.trim_start();
            let rest = t
                .strip_prefix(".shell")
                .or_else(|| t.strip_prefix(".system"))?;
            if !rest.is_empty() && !rest.starts_with([' ', '\t']) {
                return None;
            }
            let rest = rest.trim();
            Some((!rest.is_empty() && !rest.contains(['"', '\'', '\\'])).then(|| rest.to_owned()))
        })
        .collect()
}

/// The paths the inline code of `program args…` reads and writes, when it is proven to only
/// compute, print and read them (Python, Node and Perl, whose start was checked to read
/// nothing of the directory but what the code names); `None` when the command runs no
/// inline code; `Err` why it is not proven.
pub(crate) fn proven(program: &str, args: &[Word]) -> Option<Result<Inline, String>> {
    let base = program.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.');
    if base == "python"
        && let Some(found) = module_main(args)
    {
        return Some(found);
    }
    let mut found = read_args(program, args)?;
    // Python imports standard modules its code never names, and finds them in the
    // directory first: a codec (`'x'.encode('idna')` imports `stringprep`), a `\N{…}` escape
    // (`unicodedata`). Any code it runs is proven only with the directory's entries checked.
    found.std_modules |= base == "python";
    Some(match (&found.unproven, &found.unmodeled) {
        (Some(why), _) | (None, Some(why)) => Err(why.clone()),
        _ if !matches!(base, "python" | "node" | "nodejs" | "perl") => {
            Err(format!("the start of `{program}` is not checked here"))
        }
        _ => Ok(found),
    })
}

/// `python3 -m MODULE ARGS…` for the standard modules whose command line only reads the
/// files it names and prints: `json.tool [OPTIONS] [INFILE [OUTFILE]]` (pretty-prints one
/// JSON document or JSON lines; an `OUTFILE` is written), `zipfile -l ZIP` and `tarfile -l
/// TAR` (list an archive's members). `None` when the command is not `-m` first (then it is
/// no module run here); `Err` for another module or an argument not read here.
fn module_main(args: &[Word]) -> Option<Result<Inline, String>> {
    let mut words = args.iter();
    if words.next()?.literal() != Some("-m") {
        return None;
    }
    let Some(module) = words.next().and_then(Word::literal) else {
        return Some(Err("its module is only known when it runs".to_owned()));
    };
    let mut rest = Vec::new();
    for w in words {
        let Some(t) = w.literal() else {
            return Some(Err(format!(
                "`{}` is only known when it runs, and may be an option",
                w.raw
            )));
        };
        rest.push(t);
    }
    let mut out = Inline {
        std_modules: true,
        ..Inline::default()
    };
    let unknown = |t: &str| {
        Err(format!(
            "`-m {module}` is not known to only read with `{t}`"
        ))
    };
    match module {
        "json.tool" => {
            const PLAIN: &[&str] = &[
                "--sort-keys",
                "--no-ensure-ascii",
                "--json-lines",
                "--compact",
                "--tab",
                "--no-indent",
            ];
            let mut operands = Vec::new();
            let mut i = 0;
            while let Some(t) = rest.get(i) {
                i += 1;
                if *t == "--indent" {
                    match rest.get(i) {
                        Some(v) if v.parse::<u8>().is_ok() => i += 1,
                        _ => return Some(unknown(t)),
                    }
                } else if t
                    .strip_prefix("--indent=")
                    .is_some_and(|v| v.parse::<u8>().is_ok())
                    || PLAIN.contains(t)
                {
                } else if t.starts_with('-') && *t != "-" {
                    return Some(unknown(t));
                } else {
                    operands.push(*t);
                }
            }
            match operands[..] {
                [] | ["-"] => {}
                [file] => out.reads.push(file.to_owned()),
                [file, target] => {
                    if file != "-" {
                        out.reads.push(file.to_owned());
                    }
                    out.writes.push(target.to_owned());
                }
                _ => return Some(Err("`-m json.tool` takes two files at most".to_owned())),
            }
        }
        "zipfile" | "tarfile" => match rest[..] {
            ["-l" | "--list", file] if !file.starts_with('-') => out.reads.push(file.to_owned()),
            _ => {
                return Some(unknown(rest.first().copied().unwrap_or("no argument")));
            }
        },
        _ => {
            return Some(Err(format!(
                "`-m {module}` runs a module not known here to only read"
            )));
        }
    }
    Some(Ok(out))
}

fn judge(lang: Lang, parsed: &Parsed) -> Inline {
    let mut out = Inline::default();
    for word in &parsed.code {
        let Some(text) = word.literal() else {
            out.unproven = Some("its code is only known when it runs".to_owned());
            return out;
        };
        let why = match lang {
            Lang::Python => python(text, parsed, &mut out),
            Lang::Node => node(text, parsed, &mut out),
            Lang::Perl => perl(text, parsed, &mut out),
            Lang::Ruby => ruby(text, parsed, &mut out),
            Lang::Php => {
                out.unmodeled("PHP's start is not checked here");
                php_calls(text).or_else(|| allowed_only(text, PHP_SAFE))
            }
            Lang::Lua => lua(text, parsed, &mut out),
            Lang::Other => Some("its code is in a language not read here".to_owned()),
        };
        if why.is_some() {
            out.unproven = why;
            return out;
        }
    }
    out
}

/// The identifiers of `text` (runs of letters, digits, `_` and `$` not starting with a digit),
/// each with the byte offset just after it; quoting is not told apart (a name in a string may
/// be a name called through it).
fn identifiers(text: &str) -> Vec<(&str, usize)> {
    let mut out = Vec::new();
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if c.is_ascii_alphabetic() || c == b'_' {
            let start = i;
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                i += 1;
            }
            out.push((&text[start..i], i));
        } else if c.is_ascii_digit() {
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                i += 1;
            }
        } else {
            i += 1;
        }
    }
    out
}

/// The first of `names` that `text` uses as an identifier.
fn uses<'a>(text: &str, names: &[&'a str]) -> Option<&'a str> {
    identifiers(text)
        .into_iter()
        .find_map(|(id, _)| names.iter().find(|n| **n == id).copied())
}

/// Attributes of each module read here that only compute, print or read what is given to
/// them (no module, nothing that runs code named at run time, no program, socket or file
/// other than those told, no change to the system): `(module, attributes)`.
const PYTHON_MODULE_ATTRS: &[(&str, &[&str])] = &[
    // Words split and quoted as a shell would (not `shlex.shlex`, which reads a stream it
    // is given).
    ("shlex", &["join", "quote", "split"]),
    // Names matched against shell patterns: strings only, no directory is listed.
    (
        "fnmatch",
        &["filter", "fnmatch", "fnmatchcase", "translate"],
    ),
    // URLs taken apart, quoted and joined as strings: nothing is fetched.
    (
        "urllib.parse",
        &[
            "parse_qs",
            "parse_qsl",
            "quote",
            "quote_plus",
            "unquote",
            "unquote_plus",
            "urldefrag",
            "urlencode",
            "urljoin",
            "urlparse",
            "urlsplit",
            "urlunparse",
            "urlunsplit",
        ],
    ),
    // The syntax tree of the source given, built without running it (`parse` compiles with
    // `PyCF_ONLY_AST`), its nodes, and what only walks, prints or evaluates literals of one.
    // Not `main` (reads the file its arguments name), nor `NodeVisitor`/`NodeTransformer`
    // (call methods looked up by name at run time).
    (
        "ast",
        &[
            "alias",
            "AnnAssign",
            "arg",
            "arguments",
            "Assert",
            "Assign",
            "AST",
            "AsyncFor",
            "AsyncFunctionDef",
            "AsyncWith",
            "Attribute",
            "AugAssign",
            "Await",
            "BinOp",
            "BoolOp",
            "Break",
            "Call",
            "ClassDef",
            "Compare",
            "comprehension",
            "Constant",
            "Continue",
            "copy_location",
            "Del",
            "Delete",
            "Dict",
            "DictComp",
            "dump",
            "ExceptHandler",
            "excepthandler",
            "Expr",
            "expr",
            "Expression",
            "fix_missing_locations",
            "For",
            "FormattedValue",
            "FunctionDef",
            "GeneratorExp",
            "get_docstring",
            "get_source_segment",
            "Global",
            "If",
            "IfExp",
            "Import",
            "ImportFrom",
            "increment_lineno",
            "Interactive",
            "iter_child_nodes",
            "iter_fields",
            "JoinedStr",
            "keyword",
            "Lambda",
            "List",
            "ListComp",
            "literal_eval",
            "Load",
            "mod",
            "Module",
            "Name",
            "Nonlocal",
            "parse",
            "Pass",
            "Raise",
            "Return",
            "Set",
            "SetComp",
            "Slice",
            "Starred",
            "stmt",
            "Store",
            "Subscript",
            "Try",
            "Tuple",
            "UnaryOp",
            "unparse",
            "walk",
            "While",
            "With",
            "withitem",
            "Yield",
            "YieldFrom",
        ],
    ),
    (
        "json",
        &[
            "JSONDecodeError",
            "JSONDecoder",
            "JSONEncoder",
            "detect_encoding",
            "dump",
            "dumps",
            "load",
            "loads",
        ],
    ),
    (
        "sys",
        &[
            "abiflags",
            "api_version",
            "argv",
            "base_exec_prefix",
            "base_prefix",
            "byteorder",
            "copyright",
            "exec_prefix",
            "executable",
            "exit",
            "flags",
            "float_info",
            "float_repr_style",
            "get_int_max_str_digits",
            "getallocatedblocks",
            "getdefaultencoding",
            "getfilesystemencodeerrors",
            "getfilesystemencoding",
            "getrecursionlimit",
            "getrefcount",
            "getsizeof",
            "getswitchinterval",
            "hash_info",
            "hexversion",
            "implementation",
            "int_info",
            "intern",
            "is_finalizing",
            "maxsize",
            "maxunicode",
            "orig_argv",
            "path",
            "platform",
            "platlibdir",
            "prefix",
            "set_int_max_str_digits",
            "setrecursionlimit",
            "stderr",
            "stdin",
            "stdout",
            "thread_info",
            "version",
            "version_info",
            "warnoptions",
        ],
    ),
    (
        "math",
        &[
            "acos",
            "acosh",
            "asin",
            "asinh",
            "atan",
            "atan2",
            "atanh",
            "cbrt",
            "ceil",
            "comb",
            "copysign",
            "cos",
            "cosh",
            "degrees",
            "dist",
            "e",
            "erf",
            "erfc",
            "exp",
            "exp2",
            "expm1",
            "fabs",
            "factorial",
            "floor",
            "fmod",
            "frexp",
            "fsum",
            "gamma",
            "gcd",
            "hypot",
            "inf",
            "isclose",
            "isfinite",
            "isinf",
            "isnan",
            "isqrt",
            "lcm",
            "ldexp",
            "lgamma",
            "log",
            "log10",
            "log1p",
            "log2",
            "modf",
            "nan",
            "nextafter",
            "perm",
            "pi",
            "pow",
            "prod",
            "radians",
            "remainder",
            "sin",
            "sinh",
            "sqrt",
            "tan",
            "tanh",
            "tau",
            "trunc",
            "ulp",
        ],
    ),
    (
        "cmath",
        &[
            "acos", "acosh", "asin", "asinh", "atan", "atanh", "cos", "cosh", "e", "exp", "inf",
            "infj", "isclose", "isfinite", "isinf", "isnan", "log", "log10", "nan", "nanj",
            "phase", "pi", "polar", "rect", "sin", "sinh", "sqrt", "tan", "tanh", "tau",
        ],
    ),
    (
        "re",
        &[
            "A",
            "ASCII",
            "DEBUG",
            "DOTALL",
            "I",
            "IGNORECASE",
            "L",
            "LOCALE",
            "M",
            "MULTILINE",
            "Match",
            "NOFLAG",
            "Pattern",
            "RegexFlag",
            "S",
            "Scanner",
            "T",
            "TEMPLATE",
            "U",
            "UNICODE",
            "VERBOSE",
            "X",
            "compile",
            "error",
            "escape",
            "findall",
            "finditer",
            "fullmatch",
            "match",
            "purge",
            "search",
            "split",
            "sub",
            "subn",
            "template",
        ],
    ),
    (
        "datetime",
        &[
            "MAXYEAR",
            "MINYEAR",
            "UTC",
            "date",
            "datetime",
            "datetime_CAPI",
            "time",
            "timedelta",
            "timezone",
            "tzinfo",
        ],
    ),
    (
        "time",
        &[
            "CLOCK_BOOTTIME",
            "CLOCK_MONOTONIC",
            "CLOCK_MONOTONIC_RAW",
            "CLOCK_PROCESS_CPUTIME_ID",
            "CLOCK_REALTIME",
            "CLOCK_TAI",
            "CLOCK_THREAD_CPUTIME_ID",
            "altzone",
            "asctime",
            "clock_getres",
            "clock_gettime",
            "clock_gettime_ns",
            // Not `clock_settime`: it sets the system's clock.
            "ctime",
            "daylight",
            "get_clock_info",
            "gmtime",
            "localtime",
            "mktime",
            "monotonic",
            "monotonic_ns",
            "perf_counter",
            "perf_counter_ns",
            "process_time",
            "process_time_ns",
            "pthread_getcpuclockid",
            "sleep",
            "strftime",
            "strptime",
            "struct_time",
            "thread_time",
            "thread_time_ns",
            "time",
            "time_ns",
            "timezone",
            "tzname",
            "tzset",
        ],
    ),
    // Not what asks the system: `architecture` runs `file`, `processor` and `platform` run
    // `uname -p` (and so did `uname()`, with `system`, `machine`, `node`, `release` and
    // `version`, up to Python 3.8), `libc_ver` reads any file it is given, `java_ver`
    // imports `java.lang`, the Windows and macOS ones import `winreg` or read a plist.
    (
        "platform",
        &[
            "freedesktop_os_release",
            "python_branch",
            "python_build",
            "python_compiler",
            "python_implementation",
            "python_revision",
            "python_version",
            "python_version_tuple",
            "system_alias",
        ],
    ),
    (
        "hashlib",
        &[
            "algorithms_available",
            "algorithms_guaranteed",
            "blake2b",
            "blake2s",
            "file_digest",
            "md5",
            "new",
            "pbkdf2_hmac",
            "scrypt",
            "sha1",
            "sha224",
            "sha256",
            "sha384",
            "sha3_224",
            "sha3_256",
            "sha3_384",
            "sha3_512",
            "sha512",
            "shake_128",
            "shake_256",
        ],
    ),
    (
        "base64",
        &[
            "MAXBINSIZE",
            "MAXLINESIZE",
            "a85decode",
            "a85encode",
            "b16decode",
            "b16encode",
            "b32decode",
            "b32encode",
            "b32hexdecode",
            "b32hexencode",
            "b64decode",
            "b64encode",
            "b85decode",
            "b85encode",
            "bytes_types",
            "decode",
            "decodebytes",
            "encode",
            "encodebytes",
            "standard_b64decode",
            "standard_b64encode",
            "urlsafe_b64decode",
            "urlsafe_b64encode",
        ],
    ),
    (
        "itertools",
        &[
            "accumulate",
            "chain",
            "combinations",
            "combinations_with_replacement",
            "compress",
            "count",
            "cycle",
            "dropwhile",
            "filterfalse",
            "groupby",
            "islice",
            "pairwise",
            "permutations",
            "product",
            "repeat",
            "starmap",
            "takewhile",
            "tee",
            "zip_longest",
        ],
    ),
    (
        "functools",
        &[
            "GenericAlias",
            "RLock",
            "WRAPPER_ASSIGNMENTS",
            "WRAPPER_UPDATES",
            "cache",
            "cached_property",
            "cmp_to_key",
            "get_cache_token",
            "lru_cache",
            "namedtuple",
            "partial",
            "partialmethod",
            "recursive_repr",
            "reduce",
            "singledispatch",
            "singledispatchmethod",
            "total_ordering",
            "update_wrapper",
            "wraps",
        ],
    ),
    (
        "collections",
        &[
            "ChainMap",
            "Counter",
            "OrderedDict",
            "UserDict",
            "UserList",
            "UserString",
            "defaultdict",
            "deque",
            "namedtuple",
        ],
    ),
    (
        "string",
        &[
            "Template",
            "ascii_letters",
            "ascii_lowercase",
            "ascii_uppercase",
            "capwords",
            "digits",
            "hexdigits",
            "octdigits",
            "printable",
            "punctuation",
            "whitespace",
        ],
    ),
    (
        "textwrap",
        &["TextWrapper", "dedent", "fill", "indent", "shorten", "wrap"],
    ),
    (
        "pprint",
        &[
            "PrettyPrinter",
            "isreadable",
            "isrecursive",
            "pformat",
            "pp",
            "pprint",
            "saferepr",
        ],
    ),
    (
        "statistics",
        &[
            "Counter",
            "Decimal",
            "Fraction",
            "LinearRegression",
            "NormalDist",
            "StatisticsError",
            "bisect_left",
            "bisect_right",
            "correlation",
            "covariance",
            "defaultdict",
            "erf",
            "exp",
            "fabs",
            "fmean",
            "fsum",
            "geometric_mean",
            "groupby",
            "harmonic_mean",
            "hypot",
            "linear_regression",
            "log",
            "mean",
            "median",
            "median_grouped",
            "median_high",
            "median_low",
            "mode",
            "mul",
            "multimode",
            "namedtuple",
            "pstdev",
            "pvariance",
            "quantiles",
            "reduce",
            "repeat",
            "sqrt",
            "stdev",
            "tau",
            "variance",
        ],
    ),
    (
        "random",
        &[
            "BPF",
            "LOG4",
            "NV_MAGICCONST",
            "RECIP_BPF",
            "Random",
            "SG_MAGICCONST",
            "SystemRandom",
            "TWOPI",
            "betavariate",
            "choice",
            "choices",
            "expovariate",
            "gammavariate",
            "gauss",
            "getrandbits",
            "getstate",
            "lognormvariate",
            "normalvariate",
            "paretovariate",
            "randbytes",
            "randint",
            "random",
            "randrange",
            "sample",
            "seed",
            "setstate",
            "shuffle",
            "triangular",
            "uniform",
            "vonmisesvariate",
            "weibullvariate",
        ],
    ),
    // Not `getnode` nor `uuid1`: finding the hardware address opens sockets and, where
    // `_uuid` is missing, runs `ip`, `ifconfig`, `arp` or `netstat` and resolves the host's
    // name.
    (
        "uuid",
        &[
            "Enum",
            "NAMESPACE_DNS",
            "NAMESPACE_OID",
            "NAMESPACE_URL",
            "NAMESPACE_X500",
            "RESERVED_FUTURE",
            "RESERVED_MICROSOFT",
            "RESERVED_NCS",
            "RFC_4122",
            "SafeUUID",
            "UUID",
            "bytes_",
            "int_",
            "uuid3",
            "uuid4",
            "uuid5",
        ],
    ),
    (
        "decimal",
        &[
            "BasicContext",
            "Clamped",
            "Context",
            "ConversionSyntax",
            "Decimal",
            "DecimalException",
            "DecimalTuple",
            "DefaultContext",
            "DivisionByZero",
            "DivisionImpossible",
            "DivisionUndefined",
            "ExtendedContext",
            "FloatOperation",
            "HAVE_CONTEXTVAR",
            "HAVE_THREADS",
            "Inexact",
            "InvalidContext",
            "InvalidOperation",
            "MAX_EMAX",
            "MAX_PREC",
            "MIN_EMIN",
            "MIN_ETINY",
            "Overflow",
            "ROUND_05UP",
            "ROUND_CEILING",
            "ROUND_DOWN",
            "ROUND_FLOOR",
            "ROUND_HALF_DOWN",
            "ROUND_HALF_EVEN",
            "ROUND_HALF_UP",
            "ROUND_UP",
            "Rounded",
            "Subnormal",
            "Underflow",
            "getcontext",
            "localcontext",
            "setcontext",
        ],
    ),
    ("fractions", &["Decimal", "Fraction"]),
    (
        "struct",
        &[
            "Struct",
            "calcsize",
            "error",
            "iter_unpack",
            "pack",
            "pack_into",
            "unpack",
            "unpack_from",
        ],
    ),
    (
        "binascii",
        &[
            "Error",
            "Incomplete",
            "a2b_base64",
            "a2b_hex",
            "a2b_qp",
            "a2b_uu",
            "b2a_base64",
            "b2a_hex",
            "b2a_qp",
            "b2a_uu",
            "crc32",
            "crc_hqx",
            "hexlify",
            "unhexlify",
        ],
    ),
    (
        "csv",
        &[
            "Dialect",
            "DictReader",
            "DictWriter",
            "Error",
            "QUOTE_ALL",
            "QUOTE_MINIMAL",
            "QUOTE_NONE",
            "QUOTE_NONNUMERIC",
            "Sniffer",
            "StringIO",
            "excel",
            "excel_tab",
            "field_size_limit",
            "get_dialect",
            "list_dialects",
            "reader",
            "register_dialect",
            "unix_dialect",
            "unregister_dialect",
            "writer",
        ],
    ),
    ("tomllib", &["TOMLDecodeError", "load", "loads"]),
    (
        "yaml",
        &[
            "YAMLError",
            "safe_dump",
            "safe_dump_all",
            "safe_load",
            "safe_load_all",
        ],
    ),
    (
        "operator",
        &[
            "abs",
            "add",
            "and_",
            "concat",
            "contains",
            "countOf",
            "delitem",
            "eq",
            "floordiv",
            "ge",
            "getitem",
            "gt",
            "iadd",
            "iand",
            "iconcat",
            "ifloordiv",
            "ilshift",
            "imatmul",
            "imod",
            "imul",
            "index",
            "indexOf",
            "inv",
            "invert",
            "ior",
            "ipow",
            "irshift",
            "is_",
            "is_not",
            "isub",
            "itemgetter",
            "itruediv",
            "ixor",
            "le",
            "length_hint",
            "lshift",
            "lt",
            "matmul",
            "mod",
            "mul",
            "ne",
            "neg",
            "not_",
            "or_",
            "pos",
            "pow",
            "rshift",
            "setitem",
            "sub",
            "truediv",
            "truth",
            "xor",
        ],
    ),
    (
        "unicodedata",
        &[
            "UCD",
            "bidirectional",
            "category",
            "combining",
            "decimal",
            "decomposition",
            "digit",
            "east_asian_width",
            "is_normalized",
            "lookup",
            "mirrored",
            "name",
            "normalize",
            "numeric",
            "ucd_3_2_0",
            "unidata_version",
        ],
    ),
    (
        "calendar",
        &[
            "Calendar",
            "EPOCH",
            "FRIDAY",
            "February",
            "HTMLCalendar",
            "IllegalMonthError",
            "IllegalWeekdayError",
            "January",
            "LocaleHTMLCalendar",
            "LocaleTextCalendar",
            "MONDAY",
            "SATURDAY",
            "SUNDAY",
            "THURSDAY",
            "TUESDAY",
            "TextCalendar",
            "WEDNESDAY",
            "c",
            "calendar",
            "day_abbr",
            "day_name",
            "different_locale",
            "error",
            "firstweekday",
            "format",
            "formatstring",
            "isleap",
            "leapdays",
            "mdays",
            "month",
            "month_abbr",
            "month_name",
            "monthcalendar",
            "monthrange",
            "prcal",
            "prmonth",
            "prweek",
            "repeat",
            "setfirstweekday",
            "timegm",
            "week",
            "weekday",
            "weekheader",
        ],
    ),
    (
        "heapq",
        &[
            "heapify",
            "heappop",
            "heappush",
            "heappushpop",
            "heapreplace",
            "merge",
            "nlargest",
            "nsmallest",
        ],
    ),
    (
        "bisect",
        &[
            "bisect",
            "bisect_left",
            "bisect_right",
            "insort",
            "insort_left",
            "insort_right",
        ],
    ),
    (
        "keyword",
        &["iskeyword", "issoftkeyword", "kwlist", "softkwlist"],
    ),
    ("html", &["escape", "unescape"]),
    (
        "copy",
        &["Error", "copy", "deepcopy", "dispatch_table", "error"],
    ),
    (
        "numbers",
        &[
            "ABCMeta",
            "Complex",
            "Integral",
            "Number",
            "Rational",
            "Real",
            "abstractmethod",
        ],
    ),
    (
        "zlib",
        &[
            "DEFLATED",
            "DEF_BUF_SIZE",
            "DEF_MEM_LEVEL",
            "MAX_WBITS",
            "ZLIB_RUNTIME_VERSION",
            "ZLIB_VERSION",
            "Z_BEST_COMPRESSION",
            "Z_BEST_SPEED",
            "Z_BLOCK",
            "Z_DEFAULT_COMPRESSION",
            "Z_DEFAULT_STRATEGY",
            "Z_FILTERED",
            "Z_FINISH",
            "Z_FIXED",
            "Z_FULL_FLUSH",
            "Z_HUFFMAN_ONLY",
            "Z_NO_COMPRESSION",
            "Z_NO_FLUSH",
            "Z_PARTIAL_FLUSH",
            "Z_RLE",
            "Z_SYNC_FLUSH",
            "Z_TREES",
            "adler32",
            "compress",
            "compressobj",
            "crc32",
            "decompress",
            "decompressobj",
            "error",
        ],
    ),
    (
        "secrets",
        &[
            "DEFAULT_ENTROPY",
            "SystemRandom",
            "choice",
            "compare_digest",
            "randbelow",
            "randbits",
            "token_bytes",
            "token_hex",
            "token_urlsafe",
        ],
    ),
    (
        "hmac",
        &[
            "HMAC",
            "compare_digest",
            "digest",
            "digest_size",
            "new",
            "trans_36",
            "trans_5C",
        ],
    ),
    (
        "difflib",
        &[
            "Differ",
            "GenericAlias",
            "HtmlDiff",
            "IS_CHARACTER_JUNK",
            "IS_LINE_JUNK",
            "Match",
            "SequenceMatcher",
            "context_diff",
            "diff_bytes",
            "get_close_matches",
            "ndiff",
            "restore",
            "unified_diff",
        ],
    ),
];

/// Attributes of `os` and `os.path` that only compute or tell about the process and paths;
/// `os.path` is itself a module, read through [`OS_PATH_ATTRS`].
const OS_ATTRS: &[&str] = &[
    "cpu_count",
    "getcwd",
    "sep",
    "linesep",
    "pathsep",
    "name",
    "curdir",
    "pardir",
    "extsep",
    "altsep",
    "devnull",
    "getpid",
    "getppid",
    "getuid",
    "geteuid",
    "getgid",
    "getegid",
    "getloadavg",
    "uname",
    "get_terminal_size",
];

/// Functions and constants of `os.path`, none of which writes or runs anything.
const OS_PATH_ATTRS: &[&str] = &[
    "join",
    "exists",
    "lexists",
    "isfile",
    "isdir",
    "islink",
    "isabs",
    "ismount",
    "basename",
    "dirname",
    "abspath",
    "realpath",
    "normpath",
    "normcase",
    "relpath",
    "commonpath",
    "commonprefix",
    "split",
    "splitext",
    "splitdrive",
    "expanduser",
    "getsize",
    "getmtime",
    "getatime",
    "getctime",
    "samefile",
    "sep",
    "pathsep",
    "curdir",
    "pardir",
    "extsep",
    "altsep",
    "devnull",
];

/// Whether `attr` of the Python module `module` is known to only compute, print or read.
fn python_attr_allowed(module: &str, attr: &str) -> bool {
    match module {
        "os" => OS_ATTRS.contains(&attr),
        "os.path" => OS_PATH_ATTRS.contains(&attr),
        _ => PYTHON_MODULE_ATTRS
            .iter()
            .any(|(m, attrs)| *m == module && attrs.contains(&attr)),
    }
}

/// Whether `module` is one whose attributes are read here.
fn python_module_known(module: &str) -> bool {
    matches!(module, "os" | "os.path") || PYTHON_MODULE_ATTRS.iter().any(|(m, _)| *m == module)
}

/// Python builtins and names that reach any module, any attribute, frames (whose globals hold
/// every module) or code built at run time.
const PYTHON_DYNAMIC: &[&str] = &[
    "exec",
    "eval",
    "compile",
    "getattr",
    "setattr",
    "delattr",
    "globals",
    "locals",
    "vars",
    "breakpoint",
    "help",
    "modules",
    "memoryview",
    "f_globals",
    "f_builtins",
    "f_locals",
    "f_back",
    "tb_frame",
    "tb_next",
    "gi_frame",
    "cr_frame",
    "ag_frame",
    "gi_code",
    "exc_info",
    "last_traceback",
    "importlib",
    "builtins",
];

/// Lists of `sys` Python reads to find what it imports (`sys.path`; `sys.warnoptions`, whose
/// categories `warnings` imports by name when it loads): code that changes them
/// (`sys.path.insert(0, "src")`, `operator.iadd(sys.path, …)`, a name bound to them) makes
/// `import json` run a file of another directory.
const PYTHON_IMPORT_STATE: &[&str] = &["path", "warnoptions"];

/// Calls that read a list given to them without changing it.
const PYTHON_LIST_READERS: &[&str] = &[
    "print",
    "len",
    "str",
    "repr",
    "list",
    "tuple",
    "sorted",
    "set",
    "join",
    "enumerate",
];

/// Whether the expression of `code` from `start` to `end` (`sys.path`) is only read: a whole
/// argument (followed by `)` or `,`) of a call of [`PYTHON_LIST_READERS`] directly, not
/// bound to a name, put in a container nor given to another call, which could change it.
fn python_read_only(code: &str, start: usize, end: usize) -> bool {
    if !matches!(code[end..].trim_start().chars().next(), Some(')' | ',')) {
        return false;
    }
    // The brackets open at `start`, strings skipped.
    let mut open: Vec<usize> = Vec::new();
    let mut quote: Option<char> = None;
    let mut escaped = false;
    for (k, c) in code[..start].char_indices() {
        match quote {
            Some(_) if escaped => escaped = false,
            Some(_) if c == '\\' => escaped = true,
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None => match c {
                '\'' | '"' => quote = Some(c),
                '(' | '[' | '{' => open.push(k),
                ')' | ']' | '}' => {
                    open.pop();
                }
                _ => {}
            },
        }
    }
    let Some(&paren) = open.last() else {
        return false;
    };
    if quote.is_some() || !code[paren..].starts_with('(') {
        return false;
    }
    let before = code[..paren].trim_end();
    let name_start = before
        .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .map_or(0, |p| p + 1);
    PYTHON_LIST_READERS.contains(&&before[name_start..])
}

/// Whether the subscript after `at` (`os.environ["TZ"]`) is assigned (`=`, `+=`), not
/// compared.
fn python_subscript_assigned(code: &str, at: usize) -> bool {
    let Some(rest) = code[at..].trim_start().strip_prefix('[') else {
        return false;
    };
    let Some((_, after)) = rest.split_once(']') else {
        return true;
    };
    let after = after.trim_start();
    let op_len = after
        .find(|c: char| !"+-*/%&|^<>@=".contains(c))
        .unwrap_or(after.len());
    let op = &after[..op_len];
    op.ends_with('=') && !matches!(op, "==" | "<=" | ">=")
}

/// The identifier starting at byte `at` of `code` (after spaces), with the offset after it.
fn ident_at(code: &str, at: usize) -> Option<(&str, usize)> {
    let rest = &code[at..];
    let start = at + (rest.len() - rest.trim_start().len());
    let len = code[start..]
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(code.len() - start);
    (len > 0).then(|| (&code[start..start + len], start + len))
}

/// Whether the next character of `code` at `at`, after spaces and line continuations, is `c`;
/// gives the offset after it.
fn next_is(code: &str, at: usize, c: char) -> Option<usize> {
    let rest = code[at..].trim_start_matches(|x: char| x.is_whitespace() || x == '\\');
    rest.strip_prefix(c).map(|r| code.len() - r.len())
}

/// Modules always loaded when Python starts, before the directory of `-c` code joins the
/// module path: importing them finds no file of the directory. Any other module may be
/// shadowed by a file there (`json.py`), which then runs.
const PYTHON_PRELOADED: &[&str] = &["sys", "os", "os.path"];

/// The names of Python's standard modules (`sys.stdlib_module_names` of 3.11, with those
/// removed since 3.6, added up to 3.14 and Python 2.7's library), lower-cased and sorted; names starting with `_`
/// are matched by their form ([`python_standard`]). A standard module imports standard
/// modules and those of [`PYTHON_STDLIB_IMPORTS`] only, so that a directory holding none of
/// these names cannot run its own code in place of one.
#[rustfmt::skip]
const PYTHON_STDLIB: &[&str] = &[
    "abc", "aifc", "annotationlib", "antigravity", "anydbm", "argparse", "array", "ast",
    "asynchat", "asyncio", "asyncore", "atexit", "audiodev", "audioop", "base64",
    "basehttpserver", "bastion", "bdb", "binascii", "binhex", "bisect", "bsddb", "builtins",
    "bz2", "calendar", "canvas", "cdrom", "cgi", "cgihttpserver", "cgitb", "chunk", "cmath",
    "cmd", "code", "codecs", "codeop", "collections", "colorsys", "commands", "compileall",
    "compiler", "compression", "concurrent", "configparser", "contextlib", "contextvars",
    "cookie", "cookielib", "copy", "copy_reg", "copyreg", "cpickle", "cprofile", "crypt",
    "cstringio", "csv", "ctypes", "curses", "dataclasses", "datetime", "dbhash", "dbm",
    "decimal", "dialog", "difflib", "dircache", "dis", "distutils", "dlfcn", "doctest",
    "docxmlrpcserver", "dumbdbm", "dummy_thread", "dummy_threading", "email", "encodings",
    "ensurepip", "enum", "errno", "exceptions", "faulthandler", "fcntl", "filecmp",
    "filedialog", "fileinput", "fixtk", "fnmatch", "formatter", "fpformat", "fractions",
    "ftplib", "functools", "future_builtins", "gc", "genericpath", "getopt", "getpass",
    "gettext", "glob", "graphlib", "grp", "gzip", "hashlib", "heapq", "hmac", "hotshot", "html",
    "htmlentitydefs", "htmllib", "htmlparser", "http", "httplib", "idlelib", "ihooks",
    "imaplib", "imghdr", "imp", "importlib", "imputil", "in", "inspect", "io", "ipaddress",
    "itertools", "json", "keyword", "lib2to3", "linecache", "linuxaudiodev", "locale",
    "logging", "lzma", "macpath", "macurl2path", "mailbox", "mailcap", "markupbase", "marshal",
    "math", "md5", "mhlib", "mimetools", "mimetypes", "mimewriter", "mimify", "mmap",
    "modulefinder", "msilib", "msvcrt", "multifile", "multiprocessing", "mutex", "netrc", "new",
    "nis", "nntplib", "nt", "ntpath", "nturl2path", "numbers", "opcode", "operator", "optparse",
    "os", "os2emxpath", "ossaudiodev", "parser", "pathlib", "pdb", "pickle", "pickletools",
    "pipes", "pkgutil", "platform", "plistlib", "popen2", "poplib", "posix", "posixfile",
    "posixpath", "pprint", "profile", "pstats", "pty", "pwd", "py_compile", "pyclbr", "pydoc",
    "pydoc_data", "pyexpat", "queue", "quopri", "random", "re", "readline", "repr", "reprlib",
    "resource", "rexec", "rfc822", "rlcompleter", "robotparser", "runpy", "sched",
    "scrolledtext", "secrets", "select", "selectors", "sets", "sgmllib", "sha", "shelve",
    "shlex", "shutil", "signal", "simpledialog", "simplehttpserver", "simplexmlrpcserver",
    "site", "smtpd", "smtplib", "sndhdr", "socket", "socketserver", "spwd", "sqlite3", "sre",
    "sre_compile", "sre_constants", "sre_parse", "ssl", "stat", "statistics", "statvfs",
    "string", "stringio", "stringold", "stringprep", "strop", "struct", "subprocess", "sunau",
    "sunaudio", "symbol", "symtable", "sys", "sysconfig", "syslog", "tabnanny", "tarfile",
    "telnetlib", "tempfile", "termios", "textwrap", "this", "thread", "threading", "time",
    "timeit", "tix", "tkcolorchooser", "tkcommondialog", "tkconstants", "tkdnd", "tkfiledialog",
    "tkfont", "tkinter", "tkmessagebox", "tksimpledialog", "toaiff", "token", "tokenize",
    "tomllib", "trace", "traceback", "tracemalloc", "ttk", "tty", "turtle", "turtledemo",
    "types", "typing", "unicodedata", "unittest", "urllib", "urllib2", "urlparse", "user",
    "userdict", "userlist", "userstring", "uu", "uuid", "venv", "warnings", "wave", "weakref",
    "webbrowser", "whichdb", "winreg", "winsound", "wsgiref", "xdrlib", "xml", "xmllib",
    "xmlrpc", "xmlrpclib", "xxsubtype", "zipapp", "zipfile", "zipimport", "zlib", "zoneinfo",
];

/// Modules outside the standard library that standard modules import when they find them:
/// Jython's `org.python.core` (`copy`, `pickle`, so `pprint` and `tarfile` too, and
/// `xml.sax`) and `java.lang` (`platform.java_ver`), OpenVMS's `vms_lib` (`platform`), the
/// Windows extensions of `logging.handlers`, `distutils` and `uuid` (`win32wnet`,
/// `netbios`), macOS's `Carbon`, `docutils`, `pip` (`ensurepip`), `pep517`
/// (`importlib.metadata`), `Mailman` (`smtpd`), lib2to3's `pgen2`, and
/// `sitecustomize`/`usercustomize` (`site`), lower-cased (found by reading the library of
/// Python 2.7 and 3.6 to 3.13). A package of the
/// directory need not hold `__init__` to be imported as one of them: no regular module of
/// that name comes later on the path to override it.
const PYTHON_STDLIB_IMPORTS: &[&str] = &[
    "carbon",
    "docutils",
    "java",
    "mailman",
    "netbios",
    "org",
    "pep517",
    "pgen2",
    "pip",
    "sitecustomize",
    "usercustomize",
    "vms_lib",
    "win32api",
    "win32con",
    "win32evtlog",
    "win32evtlogutil",
    "win32wnet",
];

/// Standard modules (lower-cased, sorted) that a Python may lack: Python 2's, those removed
/// by 3.8 to 3.13 or added since 3.7, Windows' own, those distributions ship apart (`tkinter`,
/// `lib2to3`, `distutils`, `ensurepip`, `idlelib`) and extensions a build may leave out
/// (`readline`, `zlib`). Where one is missing, a directory of that name without `__init__`
/// is imported as a namespace package, and `from NAME import x` runs its `x.py`.
#[rustfmt::skip]
const PYTHON_NOT_EVERYWHERE: &[&str] = &[
    "aifc", "annotationlib", "anydbm", "asynchat", "asyncore", "audioop", "binhex", "cgi",
    "cgitb", "chunk", "commands", "compression", "contextvars", "cookielib", "copy_reg",
    "cpickle", "crypt", "cstringio", "dataclasses", "dircache", "distutils", "dummy_thread",
    "dummy_threading", "ensurepip", "exceptions", "formatter", "graphlib", "htmlparser",
    "httplib", "idlelib", "imghdr", "imp", "lib2to3", "macpath", "mailcap", "md5", "mimetools",
    "msilib", "msvcrt", "new", "nis", "nntplib", "nt", "ossaudiodev", "parser", "pipes",
    "popen2", "readline", "repr", "rfc822", "sets", "sha", "smtpd", "sndhdr", "spwd",
    "stringio", "sunau", "symbol", "telnetlib", "thread", "tkinter", "tomllib", "turtle",
    "turtledemo", "urllib2", "urlparse", "user", "userdict", "userlist", "userstring", "uu",
    "whichdb", "winreg", "winsound", "xdrlib", "zlib", "zoneinfo",
];

/// Whether `module` (`json`, `os.path`) is a standard module of Python, or may be one of a
/// version not listed here (a private `_name`).
fn python_standard(module: &str) -> bool {
    let top = module
        .split('.')
        .next()
        .unwrap_or(module)
        .to_ascii_lowercase();
    top.starts_with('_') || PYTHON_STDLIB.binary_search(&top.as_str()).is_ok()
}

/// The first entry of `dir` Python would import in place of a standard module, when the
/// directory is first on its module path: a source, bytecode or extension file whose name
/// before its first dot is a standard module's or one of [`PYTHON_STDLIB_IMPORTS`], or such
/// a directory holding an `__init__` (a directory without one is a namespace portion, which
/// a module found later on the path overrides, unless no standard module of that name may
/// come: [`PYTHON_STDLIB_IMPORTS`], [`PYTHON_NOT_EVERYWHERE`]), compared without case (a
/// case-insensitive file system); a symlink counts whatever it points at. `Err` when the
/// directory cannot be listed.
pub(crate) fn shadowing_entry(dir: &std::path::Path) -> std::io::Result<Option<String>> {
    const SUFFIXES: &[&str] = &[".py", ".pyc", ".pyo", ".pyw", ".pyd", ".so"];
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let name = entry.file_name();
        let Some(name) = name.to_str() else {
            // A name Python may decode into a standard module's cannot be ruled out.
            return Ok(Some(name.to_string_lossy().into_owned()));
        };
        let stem = name.split('.').next().unwrap_or(name);
        let lower_stem = stem.to_ascii_lowercase();
        let outside = PYTHON_STDLIB_IMPORTS.contains(&lower_stem.as_str());
        if stem.is_empty() || !(outside || python_standard(stem)) {
            continue;
        }
        let lower = name.to_ascii_lowercase();
        let kind = entry.file_type()?;
        let shadows = if kind.is_symlink() {
            true
        } else if kind.is_dir() {
            outside
                || PYTHON_NOT_EVERYWHERE
                    .binary_search(&lower_stem.as_str())
                    .is_ok()
                || std::fs::read_dir(entry.path())?
                    .filter_map(std::result::Result::ok)
                    .any(|e| e.file_name().to_string_lossy().starts_with("__init__"))
        } else {
            SUFFIXES.iter().any(|s| lower.ends_with(s))
        };
        if shadows {
            return Ok(Some(name.to_owned()));
        }
    }
    Ok(None)
}

/// Standard modules whose import alone runs a program (a browser, a window).
const PYTHON_IMPORT_RUNS: &[&str] = &["antigravity", "idlelib", "turtledemo", "tkinter"];

/// Python's options that change nothing of what `-c` code reaches (`-B`, `-E`, `-s`, `-u`,
/// `-q`, `-I`); `-S` leaves `os` unloaded, so that importing it searches the directory.
const PYTHON_PLAIN_OPTIONS: &str = "cBEsuqI";

/// The argument `arg` of a call as a path: a string literal, or `sys.argv[K]` /
/// `process.argv[K]` naming a literal operand (`None`: named at run time).
fn path_argument(arg: &str, argv: &str, operands: &[Word]) -> Option<String> {
    if let Some(t) = string_literal(arg) {
        return Some(t.to_owned());
    }
    let k: usize = arg
        .trim()
        .strip_prefix(argv)?
        .strip_prefix('[')?
        .strip_suffix(']')?
        .trim()
        .parse()
        .ok()?;
    operands
        .get(k.checked_sub(1)?)?
        .literal()
        .map(str::to_owned)
}

/// Why `os.getenv(…)` / `os.environ[…]` / `os.environ.get(…)` after `at` may read a secret:
/// only a literal public name ([`crate::shell::public_variable`]) is read here.
fn python_env_secret(code: &str, attr: &str, at: usize) -> bool {
    let rest = code[at..].trim_start();
    let name = match attr {
        "getenv" => call_args(code, at).and_then(|a| a.first().cloned()),
        _ => {
            if let Some(r) = rest.strip_prefix('[') {
                r.split_once(']').map(|(n, _)| n.to_owned())
            } else {
                let get = next_is(code, at, '.')
                    .and_then(|p| ident_at(code, p))
                    .filter(|(a, _)| *a == "get");
                get.and_then(|(_, after)| call_args(code, after))
                    .and_then(|a| a.first().cloned())
            }
        }
    };
    !name
        .as_deref()
        .and_then(string_literal)
        .is_some_and(crate::shell::public_variable)
}

/// Builtins of Python 2 that read a file named at run time or run code: `file(PATH)` opens
/// as `open` does, `execfile(PATH)` runs a file, `input()` evaluates what it reads as code,
/// `reload(m)` runs a module's file again.
const PYTHON2_BUILTINS: &[&str] = &["execfile", "file", "input", "reload"];

/// The first of [`PYTHON2_BUILTINS`] Python code uses as a name, outside its strings and
/// comments, other than as an attribute (`x.file`) or a keyword argument (`file=`).
fn python2_builtin(code: &str) -> Option<&'static str> {
    // The code with the text of its strings (but an f-string's) and comments blanked.
    let mut bare = String::with_capacity(code.len());
    let mut chars = code.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        match c {
            '#' => {
                bare.push(' ');
                while chars.next_if(|(_, c)| !matches!(c, '\n' | '\r')).is_some() {
                    bare.push(' ');
                }
            }
            '\'' | '"' => {
                let prefix = code[..at].trim_end_matches(|p: char| p.is_ascii_alphabetic());
                let fstring = code[prefix.len()..at].contains(['f', 'F']);
                let close = if code[at..].starts_with(&c.to_string().repeat(3)) {
                    c.to_string().repeat(3)
                } else {
                    c.to_string()
                };
                bare.push_str(&close);
                for _ in 1..close.len() {
                    chars.next();
                }
                let mut escaped = false;
                while let Some((k, x)) = chars.next() {
                    if !escaped && code[k..].starts_with(&close) {
                        bare.push_str(&close);
                        for _ in 1..close.len() {
                            chars.next();
                        }
                        break;
                    }
                    escaped = !escaped && x == '\\';
                    bare.push(if fstring || x == '\n' { x } else { ' ' });
                }
            }
            c => bare.push(c),
        }
    }
    identifiers(&bare).into_iter().find_map(|(id, at)| {
        let name = PYTHON2_BUILTINS.iter().find(|n| **n == id)?;
        let after = bare[at..].trim_start();
        let keyword = after.starts_with('=') && !after.starts_with("==");
        (!member_dot(&bare[..at - id.len()]) && !keyword).then_some(*name)
    })
}

/// Whether Python code has a character outside ASCII outside its strings and comments (a
/// comment ends at `\n` or `\r`, as Python reads lines):
/// Python reads names in their NFKC form, so that `ｅｘｅｃ` is `exec`.
fn python_non_ascii_name(code: &str) -> bool {
    let mut chars = code.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        match c {
            // A comment ends at a carriage return too: Python reads `\r` as a line's end.
            '#' => while chars.next_if(|(_, c)| !matches!(c, '\n' | '\r')).is_some() {},
            '\'' | '"' => {
                // An f-string's fields are code.
                let prefix = code[..at].trim_end_matches(|p: char| p.is_ascii_alphabetic());
                let fstring = code[prefix.len()..at].contains(['f', 'F']);
                let triple = code[at..].starts_with(&c.to_string().repeat(3));
                let close = if triple {
                    c.to_string().repeat(3)
                } else {
                    c.to_string()
                };
                if triple {
                    chars.next();
                    chars.next();
                }
                loop {
                    match chars.next() {
                        Some((_, '\\')) => {
                            chars.next();
                        }
                        Some((k, x)) if x == c && code[k..].starts_with(&close) => {
                            for _ in 1..close.len() {
                                chars.next();
                            }
                            break;
                        }
                        Some((_, '\n' | '\r')) if !triple => return true,
                        Some((_, x)) if fstring && !x.is_ascii() => return true,
                        Some(_) => {}
                        None => return true,
                    }
                }
            }
            c if !c.is_ascii() => return true,
            _ => {}
        }
    }
    false
}

fn python(code: &str, parsed: &Parsed, out: &mut Inline) -> Option<String> {
    for m in PYTHON_LAZY_MODULES {
        for name in [format!("{m}.py"), format!("{m}.pyc"), (*m).to_owned()] {
            if !out.forbids.contains(&name) {
                out.forbids.push(name);
            }
        }
    }
    if python_non_ascii_name(code) {
        return Some(
            "it has a character outside ASCII outside its strings, which Python may read as another name"
                .to_owned(),
        );
    }
    if parsed.python2
        && let Some(name) = python2_builtin(code)
    {
        return Some(format!(
            "it uses `{name}`, which in Python 2 (what `python` may be) reads a file or runs code"
        ));
    }
    let ids = identifiers(code);
    for (id, at) in &ids {
        let attribute = member_dot(&code[..at - id.len()]);
        if *id == "__version__" && attribute {
            continue;
        }
        if id.len() > 1 && id.starts_with('_') || PYTHON_DYNAMIC.contains(id) {
            return Some(format!(
                "it uses `{id}`, which reaches code, modules or names built at run time"
            ));
        }
    }
    if let Some(c) = parsed
        .letters
        .chars()
        .find(|c| !PYTHON_PLAIN_OPTIONS.contains(*c))
    {
        out.unmodeled(format!("it is run with the option `-{c}`"));
    }
    if parsed.long {
        out.unmodeled("it is run with a long option");
    }
    if !parsed.operands.is_empty() {
        out.unmodeled("its code is given arguments");
    }
    // Names bound to modules, and the spans of the import statements.
    let mut bound: Vec<(String, String)> = Vec::new();
    let mut spans: Vec<(usize, usize)> = Vec::new();
    // Names bound to `pathlib.Path`.
    let mut path_names: Vec<String> = Vec::new();
    for (id, at) in &ids {
        if *id != "import" {
            continue;
        }
        let kw = at - "import".len();
        let start = code[..kw].rfind([';', '\n']).map_or(0, |p| p + 1);
        let end = code[*at..].find([';', '\n']).map_or(code.len(), |e| at + e);
        spans.push((start, end));
        let head = code[start..kw].trim();
        let body = &code[*at..end];
        if body.contains(['(', '\\', '*']) {
            return Some("it imports in a way not read here".to_owned());
        }
        let from = head
            .strip_prefix("from")
            .filter(|m| m.starts_with(char::is_whitespace))
            .map(str::trim);
        if from.is_none() && !head.is_empty() {
            return Some("it imports in a way not read here".to_owned());
        }
        for item in body.split(',') {
            let words: Vec<&str> = item.split_whitespace().collect();
            let (name, alias) = match words[..] {
                [n] => (n, None),
                [n, "as", a] => (n, Some(a)),
                _ => return Some("it imports in a way not read here".to_owned()),
            };
            let module = from.unwrap_or(name);
            if PYTHON_IMPORT_RUNS
                .iter()
                .any(|r| module == *r || module.starts_with(&format!("{r}.")))
            {
                return Some(format!("importing `{module}` runs a program"));
            }
            let preloaded =
                PYTHON_PRELOADED.contains(&module) || from == Some("os") && name == "path";
            if !preloaded && python_standard(module) {
                // Proven when no entry of the directory is named as a standard module.
                out.std_modules = true;
            } else if !preloaded {
                out.unmodeled(format!(
                    "it imports `{module}`, which a file of the directory may shadow"
                ));
            }
            match from {
                Some("os") if name == "path" => {
                    bound.push((alias.unwrap_or(name).to_owned(), "os.path".to_owned()));
                }
                Some("pathlib") if name == "Path" => {
                    path_names.push(alias.unwrap_or(name).to_owned());
                }
                Some("sys") if PYTHON_IMPORT_STATE.contains(&name) => {
                    out.unmodeled(format!(
                        "it binds `sys.{name}`, which steers the files Python imports, to a name"
                    ));
                }
                Some(m) if python_attr_allowed(m, name) => {}
                Some(m) => return Some(format!("it imports `{name}` from `{m}`")),
                None => {
                    if !python_module_known(name) {
                        // A module not read here runs its own code when imported, as a
                        // script of the workspace or the system would: unproven, and only
                        // its version may be used.
                        out.unmodeled(format!("it imports `{name}`, whose code runs then"));
                    }
                    let (b, m) = match alias {
                        Some(a) => (a, name),
                        None => {
                            let first = name.split('.').next().unwrap_or(name);
                            (first, first)
                        }
                    };
                    bound.push((b.to_owned(), m.to_owned()));
                }
            }
        }
    }
    // Every use of a module goes through an attribute known to only compute or read.
    for (id, at) in &ids {
        let start = at - id.len();
        if spans.iter().any(|(s, e)| (*s..*e).contains(&start)) || member_dot(&code[..start]) {
            continue;
        }
        let Some((_, module)) = bound.iter().find(|(b, _)| b == id) else {
            continue;
        };
        let mut module = module.clone();
        let mut pos = *at;
        loop {
            let attr = next_is(code, pos, '.').and_then(|p| ident_at(code, p));
            let Some((attr, after)) = attr else {
                return Some(format!(
                    "it uses the module `{module}` other than by an attribute"
                ));
            };
            if module == "os" && attr == "path" {
                module = "os.path".to_owned();
                pos = after;
                continue;
            }
            if module == "os" && matches!(attr, "getenv" | "environ") {
                if python_env_secret(code, attr, after) {
                    return Some(
                        "it reads the environment, which may hold secrets, by a name not known to be public"
                            .to_owned(),
                    );
                }
                if attr == "environ" && python_subscript_assigned(code, after) {
                    // `os.environ["TZ"] = PATH`: `time.tzset()` then reads that file.
                    out.unmodeled("it changes the environment, which steers what is read");
                }
                break;
            }
            if module == "sys"
                && PYTHON_IMPORT_STATE.contains(&attr)
                && !python_read_only(code, start, after)
            {
                out.unmodeled(format!(
                    "it may change `sys.{attr}`, which steers the files Python imports"
                ));
            }
            if module == "os" && matches!(attr, "listdir" | "walk") {
                // Names only, as `ls` and `find` print them (`walk` follows no link down):
                // the one directory given, named by a literal, is looked at.
                let Some(path) = call_args(code, after)
                    .filter(|args| args.len() == 1)
                    .and_then(|args| path_argument(&args[0], "sys.argv", &parsed.operands))
                else {
                    return Some(format!(
                        "it uses `os.{attr}` other than on one directory named by a literal"
                    ));
                };
                out.meta.push(path);
                break;
            }
            if module == "pathlib" && attr == "Path" {
                if let Some(why) = path_uses(code, after, parsed, out) {
                    return Some(why);
                }
                break;
            }
            if attr == "__version__" {
                break;
            }
            if !python_attr_allowed(&module, attr) {
                return Some(format!(
                    "it uses `{module}.{attr}`, not known to only compute"
                ));
            }
            break;
        }
    }
    for (id, at) in &ids {
        let start = at - id.len();
        if path_names.iter().any(|n| n == id)
            && !spans.iter().any(|(s, e)| (*s..*e).contains(&start))
            && !member_dot(&code[..start])
            && let Some(why) = path_uses(code, *at, parsed, out)
        {
            return Some(why);
        }
    }
    for (k, (id, _)) in ids.iter().enumerate() {
        if *id == "open" {
            let at = ids[k].1;
            let Some(args) = call_args(code, at) else {
                return Some("it uses `open` other than by calling it".to_owned());
            };
            match open_writes(&args) {
                None => match args
                    .first()
                    .and_then(|a| path_argument(a, "sys.argv", &parsed.operands))
                {
                    Some(path) => out.reads.push(path),
                    None => {
                        return Some(
                            "it opens a file named at run time, which may be a secret".to_owned(),
                        );
                    }
                },
                Some(Some(path)) => out.writes.push(path),
                Some(None) => {
                    return Some("it opens for writing a file named at run time".to_owned());
                }
            }
        }
    }
    None
}

/// `Path(PATH).read_text()` (`read_bytes`, `exists`, `is_file`, `is_dir`) after the name
/// `Path` ending at `at`: a read of a literal path, or of nothing; any other use of a
/// `Path` (writing, deleting, a path built at run time) is not read here.
fn path_uses(code: &str, at: usize, parsed: &Parsed, out: &mut Inline) -> Option<String> {
    let not_read = || Some("it uses `pathlib.Path` other than to read a literal path".to_owned());
    let Some(args) = call_args(code, at) else {
        return not_read();
    };
    let Some(path) = (args.len() == 1)
        .then(|| path_argument(&args[0], "sys.argv", &parsed.operands))
        .flatten()
    else {
        return Some("it makes a `pathlib.Path` of a path named at run time".to_owned());
    };
    // The offset after the call's closing parenthesis.
    let Some(open) = code[at..].find('(').map(|o| at + o) else {
        return not_read();
    };
    let mut depth = 0usize;
    let mut close = None;
    let mut quote: Option<char> = None;
    for (k, c) in code[open..].char_indices() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '\'' | '"') => quote = Some(c),
            (None, '(') => depth += 1,
            (None, ')') => {
                depth -= 1;
                if depth == 0 {
                    close = Some(open + k + 1);
                    break;
                }
            }
            _ => {}
        }
    }
    let method = close
        .and_then(|c| next_is(code, c, '.'))
        .and_then(|p| ident_at(code, p));
    match method {
        Some(("read_text" | "read_bytes", after)) if next_is(code, after, '(').is_some() => {
            out.reads.push(path);
            None
        }
        Some(("exists" | "is_file" | "is_dir", after)) if next_is(code, after, '(').is_some() => {
            None
        }
        _ => not_read(),
    }
}

/// The arguments of the call whose name ends at `at` (`open(` …`)`), split at the commas
/// outside brackets and quotes; `None` when no call follows.
fn call_args(code: &str, at: usize) -> Option<Vec<String>> {
    let rest = code[at..].trim_start();
    let rest = rest.strip_prefix('(')?;
    let mut args = vec![String::new()];
    let mut depth = 0usize;
    let mut quote: Option<char> = None;
    let mut escaped = false;
    for c in rest.chars() {
        if let Some(q) = quote {
            args.last_mut()?.push(c);
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == q {
                quote = None;
            }
            continue;
        }
        match c {
            '\'' | '"' => {
                quote = Some(c);
                args.last_mut()?.push(c);
            }
            '(' | '[' | '{' => {
                depth += 1;
                args.last_mut()?.push(c);
            }
            ')' | ']' | '}' if depth == 0 => return Some(args),
            ')' | ']' | '}' => {
                depth -= 1;
                args.last_mut()?.push(c);
            }
            ',' if depth == 0 => args.push(String::new()),
            _ => args.last_mut()?.push(c),
        }
    }
    None
}

/// A plain string literal's text (`'a'`, `"a"`, without prefixes or escapes).
fn string_literal(text: &str) -> Option<&str> {
    let t = text.trim();
    let q = t.chars().next().filter(|c| matches!(c, '\'' | '"'))?;
    let inner = t.strip_prefix(q)?.strip_suffix(q)?;
    (!inner.contains([q, '\\'])).then_some(inner)
}

/// Whether Python's `open(ARGS)` writes: `None` it only reads; `Some(Some(path))` it
/// writes that literal path; `Some(None)` it writes, or may, a path not told.
fn open_writes(args: &[String]) -> Option<Option<String>> {
    let mut mode: Option<&str> = Some("r");
    for (k, a) in args.iter().enumerate() {
        let a = a.trim();
        // `NAME=VALUE`: a keyword (not `==`, nor an `=` inside an expression).
        let keyword = a.split_once('=').filter(|(name, value)| {
            let name = name.trim();
            !value.starts_with('=')
                && !name.is_empty()
                && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
        });
        match keyword {
            Some((name, value)) => match name.trim() {
                "mode" => mode = string_literal(value),
                // What is written is the same whatever these say.
                "encoding" | "errors" | "newline" | "buffering" | "closefd" | "file" => {}
                // `opener=`, and names open takes none of: not known.
                _ => mode = None,
            },
            // The mode, a literal; `*args`/`**kwargs` may hold any.
            None if a.starts_with('*') => mode = None,
            None if k == 1 => mode = string_literal(a),
            // The file; then buffering, encoding, errors, newline, closefd positionally;
            // an opener (the eighth) runs code.
            None if k == 0 || k < 7 => {}
            None => mode = None,
        }
    }
    match mode {
        Some(m) if !m.contains(['w', 'a', 'x', '+']) => None,
        _ => Some(
            args.first()
                .and_then(|p| string_literal(p))
                .map(str::to_owned),
        ),
    }
}

/// Node modules that neither write, delete nor run anything.
const NODE_SAFE_MODULES: &[&str] = &[
    "path",
    "util",
    "url",
    "querystring",
    "os",
    "assert",
    "buffer",
    "string_decoder",
    "crypto",
    "events",
];

/// Names that reach the filesystem, other programs or code built at run time in Node.
const NODE_UNSAFE: &[&str] = &[
    "import",
    "eval",
    "Function",
    "constructor",
    "binding",
    "_linkedBinding",
    "dlopen",
    "mainModule",
    "module",
    "globalThis",
    "global",
    "Deno",
    "Bun",
    "kill",
    "WebAssembly",
    "prototype",
    "__proto__",
    "Reflect",
    "setTimeout",
    "setInterval",
    "setImmediate",
    "this",
    "with",
    "getOwnPropertyDescriptor",
    "getOwnPropertyDescriptors",
    "getPrototypeOf",
    "setPrototypeOf",
    "defineProperty",
    "defineProperties",
    "entries",
    "values",
    "fromEntries",
    "assign",
    "Proxy",
    // `crypto.setEngine(PATH)` loads a shared library: its constructor runs.
    "setEngine",
];

/// Attributes of Node's `process` that only tell about the process, print or read input.
const NODE_PROCESS_ATTRS: &[&str] = &[
    "version",
    "versions",
    "platform",
    "arch",
    "argv",
    "cwd",
    "stdout",
    "stderr",
    "stdin",
    "exit",
    "exitCode",
    "pid",
    "ppid",
    "env",
    "uptime",
    "hrtime",
    "memoryUsage",
    "release",
    "execPath",
];

/// Why a member access or property key of the Node code `code` is computed at run time
/// (`x["re"+"quire"]`, `x?.[k]`, `{[k]: v} = x`), if one is: only a numeric index (`a[0]`)
/// and array literals are read.
fn node_computed_access(code: &str) -> Option<String> {
    let bytes = code.as_bytes();
    let mut quote: Option<u8> = None;
    let mut escaped = false;
    for (i, &b) in bytes.iter().enumerate() {
        if let Some(q) = quote {
            if escaped {
                escaped = false;
            } else if b == b'\\' {
                escaped = true;
            } else if b == q {
                quote = None;
            }
            continue;
        }
        if b == b'\'' || b == b'"' {
            quote = Some(b);
            continue;
        }
        if b != b'[' {
            continue;
        }
        let prev = code[..i].trim_end().bytes().last();
        let mut depth = 0usize;
        let close = bytes[i..].iter().position(|&c| {
            match c {
                b'[' => depth += 1,
                b']' => depth -= 1,
                _ => {}
            }
            depth == 0
        });
        let Some(close) = close.map(|c| i + c) else {
            return Some("it has a bracket that is not closed".to_owned());
        };
        let index = code[i + 1..close].trim();
        // A spread (`...[a, b]`) is an array, not a member.
        let member = prev.is_some_and(|p| p.is_ascii_alphanumeric() || b")]}'\"`._$".contains(&p))
            && !code[..i].trim_end().ends_with("...");
        let numeric = !index.is_empty() && index.bytes().all(|c| c.is_ascii_digit());
        if member && !numeric {
            return Some(format!(
                "it reaches a member by a name computed at run time (`[{index}]`)"
            ));
        }
        let key = matches!(prev, Some(b'{' | b','))
            && matches!(
                code[close + 1..].trim_start().bytes().next(),
                Some(b':' | b'(')
            );
        if key {
            return Some("it names a property computed at run time".to_owned());
        }
    }
    None
}

/// Free names (not members, not object keys) that Node code proven to only compute, print
/// and read may use besides the names it declares: values, constructors of values, the
/// console, keywords.
const NODE_PROVEN_NAMES: &[&str] = &[
    "console",
    "JSON",
    "Math",
    "Object",
    "Array",
    "String",
    "Number",
    "Boolean",
    "Date",
    "RegExp",
    "Map",
    "Set",
    "BigInt",
    "Buffer",
    "parseInt",
    "parseFloat",
    "isNaN",
    "isFinite",
    "encodeURIComponent",
    "decodeURIComponent",
    "encodeURI",
    "decodeURI",
    "undefined",
    "null",
    "true",
    "false",
    "NaN",
    "Infinity",
    "require",
    "process",
    "const",
    "let",
    "var",
    "new",
    "return",
    "typeof",
    "instanceof",
    "of",
    "in",
    "for",
    "if",
    "else",
    "while",
    "break",
    "continue",
    "__dirname",
    "__filename",
];

/// Node modules whose functions proven code may call.
const NODE_PROVEN_MODULES: &[&str] = &[
    "path",
    "util",
    "url",
    "querystring",
    "assert",
    "buffer",
    "string_decoder",
    "crypto",
];

/// The functions of `fs` read here: `readFileSync(PATH[, ENCODING])` reads the literal
/// path, `existsSync(PATH)` only looks at it.
const NODE_FS_READS: &[&str] = &["readFileSync", "existsSync"];

/// A call `.readFileSync(…)` / `.existsSync(…)` after `at` (`require("fs")` or a name bound
/// to it ending there): the path it reads, or why it is not read here.
fn node_fs_call(code: &str, at: usize, parsed: &Parsed, out: &mut Inline) -> Option<String> {
    let not_read = || Some("it uses `fs` other than to read a literal path".to_owned());
    let Some((method, after)) = next_is(code, at, '.').and_then(|p| ident_at(code, p)) else {
        return not_read();
    };
    if !NODE_FS_READS.contains(&method) {
        return not_read();
    }
    let Some(args) = call_args(code, after) else {
        return not_read();
    };
    // An options object may open for writing (`{flag: "w"}`): only an encoding is read.
    if args.len() > 2 || args.len() == 2 && string_literal(&args[1]).is_none() {
        return not_read();
    }
    match args
        .first()
        .and_then(|a| path_argument(a, "process.argv", &parsed.operands))
    {
        Some(path) if method == "readFileSync" => {
            out.reads.push(path);
            None
        }
        Some(_) => None,
        None => Some("it reads a file named at run time, which may be a secret".to_owned()),
    }
}

/// Whether the code `before` a name (JavaScript, Python) ends with a member access's dot, so
/// that the name is an attribute (`x.name`, `x?.name`, `x . name`). Spaces and tabs may
/// stand around the dot; a line break after it may not (`x = 1.` or a comment ending in `.`,
/// then a line starting with the name: the name begins a statement). A spread's or an
/// ellipsis's dots (`{...process}`, `x = ...`) and a number's (`1.`) are no member dot.
pub(crate) fn member_dot(before: &str) -> bool {
    let Some(head) = before.trim_end_matches([' ', '\t']).strip_suffix('.') else {
        return false;
    };
    if head.ends_with('.') {
        return false;
    }
    let head = head.trim_end_matches([' ', '\t']);
    let word = &head[head
        .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '$'))
        .map_or(0, |p| p + 1)..];
    !word.starts_with(|c: char| c.is_ascii_digit())
}

/// The globals of Node's `-e`/`-p` code that are not [`NODE_PROVEN_NAMES`] (Node 20's, the
/// built-in modules it gives as globals in that code, and those of later versions): a name
/// declared where it may not be the one used (inside braces or parentheses, an arrow's
/// parameter) never stands for one of these.
const NODE_GLOBALS: &[&str] = &[
    "global",
    "globalThis",
    "eval",
    "Function",
    "Proxy",
    "Reflect",
    "process",
    "require",
    "module",
    "exports",
    "fetch",
    "WebSocket",
    "EventSource",
    "XMLHttpRequest",
    "navigator",
    "Navigator",
    "localStorage",
    "sessionStorage",
    "Storage",
    "Worker",
    "BroadcastChannel",
    "MessageChannel",
    "MessagePort",
    "setImmediate",
    "setInterval",
    "setTimeout",
    "queueMicrotask",
    "structuredClone",
    "WebAssembly",
    "SharedArrayBuffer",
    "Atomics",
    "FinalizationRegistry",
    "WeakRef",
    "performance",
    "crypto",
    "Request",
    "Response",
    "Headers",
    "FormData",
    "Blob",
    "File",
    "assert",
    "async_hooks",
    "buffer",
    "child_process",
    "cluster",
    "constants",
    "dgram",
    "diagnostics_channel",
    "dns",
    "domain",
    "events",
    "fs",
    "http",
    "http2",
    "https",
    "inspector",
    "net",
    "os",
    "path",
    "perf_hooks",
    "punycode",
    "querystring",
    "readline",
    "repl",
    "stream",
    "string_decoder",
    "sys",
    "timers",
    "tls",
    "trace_events",
    "tty",
    "url",
    "util",
    "v8",
    "vm",
    "wasi",
    "worker_threads",
    "zlib",
    "sqlite",
    "test",
    "sea",
];

/// The name a declaration binds to the value starting at `start` (`const fs = require(…)`).
fn declared_name(code: &str, start: usize) -> Option<&str> {
    let before = code[..start].trim_end().strip_suffix('=')?.trim_end();
    let name_start = before
        .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '$'))
        .map_or(0, |p| p + 1);
    let name = &before[name_start..];
    let keyword = before[..name_start].trim_end();
    (["const", "let", "var"].iter().any(|k| keyword.ends_with(k)) && !name.is_empty())
        .then_some(name)
}

fn node(code: &str, parsed: &Parsed, out: &mut Inline) -> Option<String> {
    if let Some(why) = node_computed_access(code) {
        return Some(why);
    }
    // `\u0072equire` is `require`.
    if code.contains("\\u") {
        return Some("it has an escape, which may spell a name".to_owned());
    }
    let ids = identifiers(code);
    let mut fs_names: Vec<&str> = Vec::new();
    for &(id, at) in &ids {
        if NODE_UNSAFE.contains(&id)
            || id.starts_with("__") && !matches!(id, "__dirname" | "__filename")
        {
            return Some(format!("it uses `{id}`"));
        }
        let member = member_dot(&code[..at - id.len()]);
        if id == "process" && !member {
            let attr = next_is(code, at, '.').and_then(|p| ident_at(code, p));
            match attr {
                Some(("env", after)) => {
                    let name = next_is(code, after, '.').and_then(|p| ident_at(code, p));
                    if !name.is_some_and(|(n, _)| crate::shell::public_variable(n)) {
                        return Some(
                            "it reads the environment, which may hold secrets, by a name not known to be public"
                                .to_owned(),
                        );
                    }
                }
                Some((a, _)) if NODE_PROCESS_ATTRS.contains(&a) => {}
                _ => {
                    return Some("it uses `process` other than by a known attribute".to_owned());
                }
            }
        }
        if id == "require" {
            let arg = call_args(code, at)
                .and_then(|a| (a.len() == 1).then(|| a[0].clone()))
                .and_then(|a| string_literal(&a).map(str::to_owned));
            let module = arg.as_deref().map(|m| m.strip_prefix("node:").unwrap_or(m));
            let start = at - id.len();
            let close = code[at..].find(')').map(|c| at + c + 1);
            if module == Some("fs") {
                // `require("fs").readFileSync(…)`, or `const fs = require("fs")` whose
                // every use is checked below.
                match (declared_name(code, start), close) {
                    (Some(name), Some(c)) if next_is(code, c, '.').is_none() => {
                        fs_names.push(name);
                    }
                    (_, Some(c)) => {
                        if let Some(why) = node_fs_call(code, c, parsed, out) {
                            return Some(why);
                        }
                    }
                    _ => return Some("it uses `fs` in a way not read here".to_owned()),
                }
                continue;
            }
            // A file of the workspace named by a literal relative path runs or reads what
            // `node ./file` would, which is judged as running the workspace's own code.
            let relative = module
                .is_some_and(|m| m.starts_with("./") && !m.split(['/', '\\']).any(|c| c == ".."));
            // A `.json` file is parsed, not run, when the name is a regular file (checked
            // when the call is judged, and judged as a read).
            let json =
                relative && module.is_some_and(|m| m.ends_with(".json") && !m.contains('\\'));
            if json {
                let m = module.unwrap_or_default().to_owned();
                out.reads.push(m.clone());
                out.regular_files.push(m);
                continue;
            }
            if relative {
                out.unmodeled(
                    "it loads a file of the directory, which may be a directory or a name with an extension added that runs code",
                );
            }
            let safe = module.is_some_and(|m| NODE_SAFE_MODULES.contains(&m));
            if !safe && !relative {
                return Some(format!(
                    "it loads `{}`",
                    arg.as_deref().unwrap_or("a module named at run time")
                ));
            }
            if !module.is_some_and(|m| NODE_PROVEN_MODULES.contains(&m)) {
                out.unmodeled(format!(
                    "it loads `{}`, whose functions are not all read here",
                    arg.as_deref().unwrap_or_default()
                ));
            }
        }
        if id == "getBuiltinModule" {
            return Some("it loads a module by name".to_owned());
        }
    }
    // Every use of a name bound to `fs` is a read of a literal path.
    for &(id, at) in &ids {
        let start = at - id.len();
        let quoted = code[..start].ends_with(['"', '\'']);
        let before = code[..start].trim_end();
        let after = code[at..].trim_start();
        let declaration = ["const", "let", "var"].iter().any(|k| before.ends_with(k))
            && after.starts_with('=')
            && !after.starts_with("==");
        if fs_names.contains(&id)
            && !quoted
            && !member_dot(&code[..start])
            && !declaration
            && let Some(why) = node_fs_call(code, at, parsed, out)
        {
            return Some(why);
        }
    }
    node_proof(code, parsed, out);
    None
}

/// Whether `code` has a `/` outside its string literals (`'…'`, `"…"`, backslash escapes
/// read), another comment (the HTML-like `<!--` and `-->` of scripts, a hashbang `#!`
/// first), a line terminator inside a string (`\r`, U+2028 and U+2029 end an HTML-like
/// comment as `\n` does), or a string left open: read left to right, the code holds no
/// comment and no pattern before its first such place, so that the strings found up to
/// there are the code's.
fn slash_outside_strings(code: &str) -> bool {
    if code.starts_with("#!") {
        return true;
    }
    let mut quote: Option<char> = None;
    let mut chars = code.char_indices();
    while let Some((at, c)) = chars.next() {
        match quote {
            Some(_) if c == '\\' => {
                chars.next();
            }
            Some(q) if c == q => quote = None,
            Some(_) if matches!(c, '\n' | '\r' | '\u{2028}' | '\u{2029}') => return true,
            Some(_) => {}
            None if c == '\'' || c == '"' => quote = Some(c),
            None if c == '/' => return true,
            None if code[at..].starts_with("<!--") || code[at..].starts_with("-->") => {
                return true;
            }
            None => {}
        }
    }
    quote.is_some()
}

/// Marks Node code unmodeled unless every free name it uses is one it declares or one of
/// [`NODE_PROVEN_NAMES`] (`fetch`, `WebSocket`, timers are not), with plain options and
/// no arguments. Strings are skipped; code with a `/` outside them (a pattern or a comment
/// may hide a quote) or a template literal is not read.
fn node_proof(code: &str, parsed: &Parsed, out: &mut Inline) {
    if parsed.letters.chars().any(|c| !"ep".contains(c)) || parsed.long {
        out.unmodeled("it is run with options not read here");
    }
    if !parsed.operands.is_empty() {
        out.unmodeled("its code is given arguments");
    }
    if code.contains('`') || slash_outside_strings(code) {
        return out.unmodeled("it has a `/`, a comment or a template literal, not read here");
    }
    // The code with its strings blanked.
    let mut bare = String::with_capacity(code.len());
    let mut quote: Option<char> = None;
    let mut escaped = false;
    for c in code.chars() {
        match quote {
            Some(q) => {
                if escaped {
                    escaped = false;
                } else if c == '\\' {
                    escaped = true;
                } else if c == q {
                    quote = None;
                }
                bare.push(if quote.is_none() { c } else { ' ' });
            }
            None => {
                if matches!(c, '\'' | '"') {
                    quote = Some(c);
                }
                bare.push(c);
            }
        }
    }
    if quote.is_some() {
        return out.unmodeled("a string is not closed");
    }
    let ids = identifiers(&bare);
    // A declaration at the top of the code binds its name for all of it; one inside braces
    // or parentheses, or an arrow's parameter, only there: such a name is taken as declared
    // only when no global has it (`{const fetch=1}; fetch(url)`, `fetch=>0; fetch(url)` call
    // the global).
    let nested = |at: usize| {
        bare[..at]
            .bytes()
            .map(|b| match b {
                b'{' | b'(' | b'[' => 1i64,
                b'}' | b')' | b']' => -1,
                _ => 0,
            })
            .sum::<i64>()
            != 0
    };
    let mut declared: Vec<&str> = Vec::new();
    let mut declare = |id, top: bool| {
        if top || !NODE_GLOBALS.contains(&id) {
            declared.push(id);
        }
    };
    for (k, &(id, at)) in ids.iter().enumerate() {
        if k > 0 && matches!(ids[k - 1].0, "const" | "let" | "var") {
            declare(id, !nested(at));
        }
        let rest = bare[at..].trim_start();
        if rest.starts_with("=>") {
            declare(id, false);
        }
    }
    // `(a, b) =>`: the parameters of an arrow function.
    for (i, _) in bare.match_indices("=>") {
        let before = bare[..i].trim_end();
        if let Some(inner) = before.strip_suffix(')')
            && let Some(open) = inner.rfind('(')
        {
            for (id, _) in identifiers(&bare[open..]) {
                declare(id, false);
            }
        }
    }
    for &(id, at) in &ids {
        let start = at - id.len();
        let before = bare[..start].trim_end();
        let member = member_dot(&bare[..start]);
        let key = (before.ends_with('{') || before.ends_with(','))
            && bare[at..].trim_start().starts_with(':');
        if member || key || declared.contains(&id) || NODE_PROVEN_NAMES.contains(&id) {
            continue;
        }
        return out.unmodeled(format!("it uses `{id}`, not known to only compute"));
    }
    if ids.iter().any(|(id, _)| *id == "setPriority") {
        out.unmodeled("it changes a process's priority");
    }
}

/// Perl functions that write, delete, run programs or code built at run time.
const PERL_UNSAFE: &[&str] = &[
    "open",
    "sysopen",
    "system",
    "exec",
    "qx",
    "readpipe",
    "unlink",
    "rename",
    "mkdir",
    "rmdir",
    "eval",
    "do",
    "require",
    "use",
    "symlink",
    "link",
    "chmod",
    "chown",
    "truncate",
    "utime",
    "fork",
    "syscall",
    "kill",
    "dbmopen",
    "CORE",
    "pipe",
    "socket",
    "chdir",
    "chroot",
    "dump",
    "glob",
    "can",
    "goto",
    "tie",
    "DynaLoader",
    "UNIVERSAL",
];

/// Perl modules that reach none of that.
const PERL_SAFE_MODULES: &[&str] = &[
    "strict",
    "warnings",
    "utf8",
    "feature",
    "List::Util",
    "Scalar::Util",
    "Data::Dumper",
    "JSON::PP",
];

/// Why a file name given to Perl's `<>` (`-n`, `-p`, `-i`) is opened as something else: the
/// two-argument open reads `CMD|` as a command to run, `>FILE` as a file to write, `-` as
/// standard input, and trims spaces.
fn perl_magic_name(name: &str) -> bool {
    name.is_empty()
        || name.starts_with(['<', '>', '|', '+', '-', ' ', '\t', '\n'])
        || name.ends_with(['|', ' ', '\t', '\n'])
}

/// The files Perl code reads or (in place) writes through `<>` and `@ARGV`, checked: each
/// must be a literal name the two-argument open reads as a file, and the code must not
/// change `@ARGV` (`@ARGV = ("id|"); print <>` runs `id`).
fn perl_argv(code: &str, parsed: &Parsed, out: &mut Inline) -> Option<String> {
    // The handle is reached by its name too (`$h = "ARGV"; <$h>`, `readline(ARGV)`): any
    // read may be one of it, and the names given are checked whatever the code.
    let reads = parsed.letters.contains(['n', 'p'])
        || parsed.inplace.is_some()
        || ["<", "eof", "read", "getc"]
            .iter()
            .any(|r| code.contains(r));
    if reads && code.matches("ARGV").count() > code.matches("<ARGV>").count() {
        return Some("it changes the files it opens (`@ARGV`), which may name commands".to_owned());
    }
    if let Some(suffix) = &parsed.inplace
        && suffix.contains(['*', '/'])
    {
        return Some("it writes backups to paths built from a pattern".to_owned());
    }
    for w in &parsed.operands {
        let Some(name) = w.literal() else {
            return Some(format!(
                "it opens `{}`, a name only known when it runs, which may be a command",
                w.raw
            ));
        };
        if perl_magic_name(name) {
            return Some(format!(
                "it opens `{name}` with a two-argument open, which runs or writes it"
            ));
        }
        match &parsed.inplace {
            Some(suffix) => {
                out.writes.push(name.to_owned());
                if !suffix.is_empty() {
                    out.writes.push(format!("{name}{suffix}"));
                }
            }
            None if reads => out.reads.push(name.to_owned()),
            None => {}
        }
    }
    None
}

/// Perl's options that change nothing of what the code reaches.
const PERL_PLAIN_OPTIONS: &str = "eEnlpaw0";

fn perl(code: &str, parsed: &Parsed, out: &mut Inline) -> Option<String> {
    if let Some(m) = parsed
        .modules
        .iter()
        .find(|m| !PERL_SAFE_MODULES.contains(&m.split(['=', ' ']).next().unwrap_or(m)))
    {
        return Some(format!("it loads `{m}`"));
    }
    if let Some(why) = perl_argv(code, parsed, out) {
        return Some(why);
    }
    // The environment only by a public name.
    for (id, at) in identifiers(code) {
        if id == "ENV" {
            let sub = code[at..]
                .strip_prefix('{')
                .and_then(|r| r.split_once('}'))
                .map(|(s, _)| s);
            if sub.is_none_or(super::inline_perl::env_subscript_secret) {
                return Some(
                    "it reads the environment, which may hold secrets, by a name not known to be public"
                        .to_owned(),
                );
            }
        }
    }
    if let Some(c) = parsed
        .letters
        .chars()
        .find(|c| !PERL_PLAIN_OPTIONS.contains(*c) && !matches!(c, 'i' | 'M' | 'm'))
    {
        out.unmodeled(format!("it is run with the option `-{c}`"));
    }
    if parsed.long {
        out.unmodeled("it is run with a long option");
    }
    if parsed
        .modules
        .iter()
        .any(|m| !matches!(m.as_str(), "strict" | "warnings"))
    {
        out.unmodeled("it loads a module whose functions are not all read here");
    }
    // Code the token reader proves harmless is not checked against the names below, which
    // are matched in strings too.
    match super::inline_perl::unproven(code) {
        None => return None,
        Some(why) => out.unmodeled(why),
    }
    if let Some(id) = uses(code, PERL_UNSAFE) {
        return Some(format!("it uses `{id}`"));
    }
    for bad in [
        "`", "$^I", "&{", "&$", "*{", "\\&", "->$", "${^", "->(", "::{", "%::", "%{", "& $",
    ] {
        if code.contains(bad) {
            return Some(format!("it uses `{bad}`"));
        }
    }
    // A substitution's `e` flag evaluates its replacement as code (`s/x/system…/e`).
    let bytes = code.as_bytes();
    for (k, &b) in bytes.iter().enumerate() {
        if !matches!(
            b,
            b'/' | b'|' | b'#' | b'!' | b'}' | b',' | b':' | b'"' | b'\''
        ) {
            continue;
        }
        let flags: Vec<u8> = bytes[k + 1..]
            .iter()
            .take_while(|c| c.is_ascii_lowercase())
            .copied()
            .collect();
        // Only a run of substitution flags can be one (`"hello"` is not).
        if flags.contains(&b'e') && flags.iter().all(|f| b"msixpodualngcer".contains(f)) {
            return Some("a substitution may evaluate its replacement as code".to_owned());
        }
    }
    None
}

/// Ruby names that write, delete, run programs or code built at run time.
const RUBY_UNSAFE: &[&str] = &[
    "File",
    "FileUtils",
    "IO",
    "Dir",
    "Pathname",
    "system",
    "exec",
    "spawn",
    "open",
    "eval",
    "instance_eval",
    "class_eval",
    "module_eval",
    "instance_exec",
    "send",
    "public_send",
    "__send__",
    "require",
    "require_relative",
    "load",
    "Kernel",
    "Process",
    "syscall",
    "fork",
    "const_get",
    "method",
    "define_method",
    "binding",
    "ObjectSpace",
    "Open3",
    "Object",
    "trap",
    "autoload",
    "popen",
    "Tempfile",
    "Marshal",
    "ENV",
    "to_sym",
    "intern",
    "to_proc",
    "instance_method",
    "public_method",
    "singleton_method",
    "define_singleton_method",
    "method_missing",
    "reopen",
    "ARGF",
    "inplace_mode",
    "Gem",
    "RubyVM",
    "class",
    "superclass",
    "singleton_class",
    "ancestors",
    "constants",
    "sysopen",
    "Signal",
    "BasicObject",
    "Module",
    "Class",
];

fn ruby(code: &str, parsed: &Parsed, out: &mut Inline) -> Option<String> {
    out.unmodeled("Ruby's start is not checked here");
    if let Some(m) = parsed
        .modules
        .iter()
        .find(|m| !matches!(m.as_str(), "json" | "set"))
    {
        return Some(format!("it loads `{m}`"));
    }
    if let Some(id) = uses(code, RUBY_UNSAFE) {
        return Some(format!("it uses `{id}`"));
    }
    if code.contains('`') || code.contains("%x") || code.contains("$-i") {
        return Some("it runs a command".to_owned());
    }
    // `ruby -i -pe CODE FILE` rewrites each file.
    if parsed.inplace.is_some() {
        if let Some(suffix) = &parsed.inplace
            && suffix.contains(['*', '/'])
        {
            return Some("it writes backups to paths built from a pattern".to_owned());
        }
        for w in &parsed.operands {
            match w.literal() {
                Some(name) => out.writes.push(name.to_owned()),
                None => {
                    return Some(format!(
                        "it rewrites `{}`, a name only known when it runs",
                        w.raw
                    ));
                }
            }
        }
    }
    None
}

/// PHP names that only compute and print.
const PHP_SAFE: &[&str] = &[
    "echo",
    "print",
    "printf",
    "sprintf",
    "var_dump",
    "var_export",
    "print_r",
    "json_encode",
    "json_decode",
    "phpversion",
    "PHP_VERSION",
    "PHP_EOL",
    "PHP_OS",
    "PHP_INT_MAX",
    "php_uname",
    "strlen",
    "strtoupper",
    "strtolower",
    "implode",
    "explode",
    "date",
    "time",
    "microtime",
    "array_sum",
    "count",
    "str_repeat",
    "number_format",
    "ini_get",
    "extension_loaded",
    "function_exists",
    "get_loaded_extensions",
    "true",
    "false",
    "null",
    "max",
    "min",
    "round",
    "floor",
    "ceil",
    "abs",
    "intdiv",
    "md5",
    "sha1",
    "hash",
    "base64_encode",
    "base64_decode",
    "trim",
    "str_replace",
    "ucfirst",
    "range",
    "array",
    "as",
    "foreach",
    "if",
    "else",
    "return",
    "n",
];

/// Why PHP code may call a function named at run time, if it may: a backtick command, a call
/// of a variable (`$f()`), of a string or of an expression's value (`("sys"."tem")()`).
fn php_calls(code: &str) -> Option<String> {
    if code.contains('`') {
        return Some("it runs a command".to_owned());
    }
    for (i, _) in code.match_indices('(') {
        let before = code[..i].trim_end();
        let Some(prev) = before.chars().last() else {
            continue;
        };
        let name = before.trim_end_matches(|c: char| c.is_ascii_alphanumeric() || c == '_');
        if matches!(prev, ')' | ']' | '}' | '\'' | '"')
            || name.len() < before.len() && name.ends_with('$')
        {
            return Some("it calls a function named at run time".to_owned());
        }
    }
    None
}

/// Lua names that only compute and print.
const LUA_SAFE: &[&str] = &[
    "print", "string", "math", "table", "tostring", "tonumber", "type", "pairs", "ipairs",
    "select", "_VERSION", "format", "rep", "sub", "upper", "lower", "len", "floor", "ceil", "max",
    "min", "abs", "sqrt", "huge", "pi", "concat", "insert", "remove", "sort", "unpack", "local",
    "function", "end", "return", "if", "then", "else", "elseif", "for", "do", "while", "in", "and",
    "or", "not", "nil", "true", "false", "byte", "char", "find", "gsub", "match", "gmatch",
    "reverse", "n",
];

/// Lua names that run programs, write or read files, load code, or reach every global by a
/// name built at run time (`_G["os"]`, `load`, `debug`); `io` is read separately
/// (`io.write`, `io.read` only print and read standard input).
const LUA_UNSAFE: &[&str] = &[
    "os",
    "load",
    "loadstring",
    "loadfile",
    "dofile",
    "require",
    "package",
    "debug",
    "_G",
    "_ENV",
    "getfenv",
    "setfenv",
    "module",
    "rawget",
    "rawset",
    "dump",
    "newproxy",
    "getmetatable",
    "setmetatable",
];

fn lua(code: &str, parsed: &Parsed, out: &mut Inline) -> Option<String> {
    out.unmodeled("Lua's start is not checked here");
    if let Some(id) = uses(code, LUA_UNSAFE) {
        return Some(format!("it uses `{id}`"));
    }
    for (id, at) in identifiers(code) {
        if id == "io" {
            let attr = next_is(code, at, '.').and_then(|p| ident_at(code, p));
            if !attr.is_some_and(|(a, _)| matches!(a, "write" | "read")) {
                return Some("it uses `io` other than to print or read standard input".to_owned());
            }
        }
    }
    if !parsed.modules.is_empty() {
        out.unmodeled("it loads modules (`-l`), whose code runs then");
    }
    if !parsed.operands.is_empty() {
        out.unmodeled("it runs the script given after its code");
    }
    if let Some(why) = allowed_only(code, LUA_SAFE) {
        out.unmodeled(why);
    }
    None
}

/// Code proven harmless only when every name it uses is one of `safe` (names inside strings
/// included: they may be called through the string).
fn allowed_only(code: &str, safe: &[&str]) -> Option<String> {
    identifiers(code)
        .into_iter()
        .find(|(id, _)| !safe.contains(id))
        .map(|(id, _)| format!("it uses `{id}`, which is not known to only compute"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn inline(program: &str, args: &[&str]) -> Option<Inline> {
        let mut words = vec![Word::literal_text(program)];
        words.extend(args.iter().map(|a| Word::literal_text(*a)));
        let cmd = SimpleCommand {
            words,
            ..SimpleCommand::default()
        };
        read(&cmd)
    }

    fn unproven(program: &str, args: &[&str]) -> bool {
        inline(program, args).is_some_and(|i| i.unproven.is_some())
    }

    #[test]
    fn code_that_may_write_or_run_is_unproven() {
        for (p, args) in [
            (
                "python3",
                &[
                    "-c",
                    r#"import os;open(os.path.expanduser("~")+"/.bash"+"rc","a").write("x")"#,
                ][..],
            ),
            (
                "python3",
                &["-c", r#"open(__import__("sys").argv[1],"w")"#, "f"],
            ),
            ("python3", &["-c", "import shutil; shutil.rmtree('x')"]),
            ("python3", &["-c", "import subprocess as s; s.run('id')"]),
            ("python3", &["-c", "from os import system; system('id')"]),
            ("python3", &["-c", "import json, os; os.remove('x')"]),
            ("python3", &["-c", "p='x'; open(p, 'w')"]),
            ("python3", &["-c", "o=open; o('x','w')"]),
            ("python3", &["-c", "getattr(json, 'lo'+'ads')"]),
            (
                "python3",
                &["-Ic", "import pathlib; pathlib.Path('x').write_text('y')"],
            ),
            ("python3", &["-cimport os;os.system('id')"]),
            (
                "node",
                &[
                    "-e",
                    "require('fs').writeFileSync(process.env.HOME+'/.bashrc','x')",
                ],
            ),
            (
                "node",
                &[
                    "-e",
                    "const fs=require('node:fs'); fs.appendFileSync(p,'x')",
                ],
            ),
            ("node", &["-e", "require('child_process').execSync('id')"]),
            ("node", &["-e", "require(m)"]),
            ("node", &["-e", "require('../x.js')"]),
            ("node", &["-e", "require('./a/../../x.js')"]),
            ("node", &["-e", "require('/tmp/x.js')"]),
            ("node", &["--eval", "import('fs')"]),
            (
                "node",
                &["-p", "this.constructor.constructor('return process')()"],
            ),
            ("perl", &["-e", "open(F, '>', $ARGV[0]); print F 1"]),
            ("perl", &["-e", "system('id')"]),
            ("perl", &["-e", "`id`"]),
            ("perl", &["-lne", "unlink $_"]),
            ("perl", &["-pe", "s/x/`id`/e"]),
            ("perl", &["-pe", "s/x/y/e"]),
            ("perl", &["-MFile::Path=rmtree", "-e", "rmtree('x')"]),
            ("ruby", &["-e", "File.write('x','y')"]),
            ("ruby", &["-e", "system 'id'"]),
            ("php", &["-r", "file_put_contents('x','y');"]),
            ("php", &["-r", "$f='sys'.'tem'; $f('id');"]),
            ("lua", &["-e", "os.remove('x')"]),
            ("pwsh", &["-c", "Remove-Item x"]),
            ("deno", &["eval", "Deno.writeTextFileSync('x','y')"]),
            ("julia", &["-e", r#"print(read(".env",String))"#]),
            ("julia", &["-E", "1+1"]),
            ("julia", &["--eval", "run(`id`)"]),
            ("expect", &["-c", "puts [exec cat .env]"]),
            ("guile", &["-c", "(system \"id\")"]),
        ] {
            assert!(unproven(p, args), "{p} {args:?}");
        }
    }

    #[test]
    fn commands_sed_and_awk_scripts_run_are_given_for_the_shell() {
        let words = |a: &[&str]| a.iter().map(|t| Word::literal_text(*t)).collect::<Vec<_>>();
        let found = super::shell_commands("sed", &words(&["1e rm -rf ~", "README.md"]));
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].1.as_deref(), Some("rm -rf ~"));
        let found = super::shell_commands(
            "/usr/bin/gawk",
            &words(&["-F:", r#"BEGIN{system("rm -rf " ENVIRON["HOME"])}"#]),
        );
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].1, None);
        assert!(super::shell_commands("sed", &words(&["-n", "1,5p", "f"])).is_empty());
        assert!(super::shell_commands("awk", &words(&["{print $1}", "f"])).is_empty());
        assert!(super::shell_commands("cat", &words(&["1e id"])).is_empty());
        let found = super::shell_commands("sqlite3", &words(&[":memory:", ".system rm -rf ~"]));
        assert_eq!(found[0].1.as_deref(), Some("rm -rf ~"));
        let found = super::shell_commands("sqlite3", &words(&["-cmd", ".shell 'a b'", "x.db"]));
        assert_eq!(found[0].1, None);
        assert!(super::shell_commands("sqlite3", &words(&["x.db", ".tables"])).is_empty());
        assert!(super::shell_commands("sqlite3", &words(&["x.db", ".shellx"])).is_empty());
    }

    #[test]
    fn names_reached_through_safe_modules_or_computed_members_are_unproven() {
        for (p, args) in [
            (
                "python3",
                &["-c", "import platform; platform.os.system('id')"][..],
            ),
            ("python3", &["-c", "import random; random._os.system('id')"]),
            ("python3", &["-c", "import uuid\nuuid . os.system('id')"]),
            (
                "python3",
                &["-c", "from platform import os; os.system('id')"],
            ),
            (
                "python3",
                &["-c", "from platform import *; os.system('id')"],
            ),
            ("python3", &["-c", "import json; json.decoder.re.sys"]),
            ("python3", &["-c", "import platform as p; m=p; m.os"]),
            (
                "python3",
                &[
                    "-c",
                    "import operator as o, platform as p; o.attrgetter('os')(p)",
                ],
            ),
            (
                "python3",
                &["-c", "import sys; sys.modules['os'].system('id')"],
            ),
            ("python3", &["-c", "import os; os.system('id')"]),
            (
                "python3",
                &["-c", "import os.path; os.path.os.system('id')"],
            ),
            (
                "python3",
                &["-c", "import dataclasses; dataclasses.inspect"],
            ),
            (
                "python3",
                &["-c", "import sys; sys.exc_info()[2].tb_frame.f_builtins"],
            ),
            (
                "python3",
                &["-c", "import sys; sys.settrace(lambda f,e,a: f)"],
            ),
            (
                "python3",
                &[
                    "-c",
                    "import string; string.Formatter().get_field('0', [1], {})",
                ],
            ),
            (
                "python3",
                &[
                    "-c",
                    "import base64, sys; sys.argv[1:] = ['f']; base64.main()",
                ],
            ),
            (
                "node",
                &["-e", "this['re'+'quire']('child_process').execSync('id')"],
            ),
            ("node", &["-e", "process['bin'+'ding']('spawn_sync')"]),
            ("node", &["-e", "process.binding('spawn_sync')"]),
            (
                "node",
                &["-e", "const {['bin'+'ding']: b} = process; b('x')"],
            ),
            ("node", &["-e", "const p = process; p.mainModule"]),
            (
                "node",
                &["-e", "[]['con'+'structor']['con'+'structor']('return 1')()"],
            ),
            ("node", &["-e", "x?.[k]"]),
            ("node", &["-e", "`${[][k]}`"]),
            (
                "node",
                &["-e", "Object.getOwnPropertyDescriptor(o, k).value"],
            ),
            ("perl", &["-e", r#"&{"sys"."tem"}("id")"#]),
            ("perl", &["-e", r#"$::{"sys"."tem"}"#]),
            ("perl", &["-e", r#"main->can("x")->()"#]),
            ("perl", &["-e", r#"$f="x"; $f->("id")"#]),
            ("ruby", &["-e", "Kernel.send(:system, 'id')"]),
            ("ruby", &["-e", "$stdout.class.write('x', 'y')"]),
            ("ruby", &["-e", "'sys'.+('tem').to_sym.to_proc"]),
            ("ruby", &["-e", "$stdout.reopen('x')"]),
            ("ruby", &["-e", "%x{id}"]),
            (
                "php",
                &["-r", r#"$n="\163\171\163\164\145\155"; $n("\151\144");"#],
            ),
            ("php", &["-r", r#"echo `\151\144`;"#]),
            ("php", &["-r", r#"("\163ystem")("\151\144");"#]),
        ] {
            assert!(unproven(p, args), "{p} {args:?}");
        }
    }

    #[test]
    fn plain_computations_and_prints_are_proven() {
        for (p, args) in [
            ("python3", &["-c", "print(1+1)"][..]),
            (
                "python3",
                &["-c", r#"import json,sys; print(json.load(sys.stdin)["a"])"#],
            ),
            ("python3", &["-c", "import sys; print(sys.version)"]),
            ("python3", &["-c", "print(open('package.json').read())"]),
            ("python3", &["-c", "print(open('a', 'rb').read())"]),
            ("node", &["-e", "console.log(process.version)"]),
            ("node", &["-p", "require('path').join('a','b')"]),
            (
                "node",
                &["-e", "console.log(JSON.parse(require('os').EOL))"],
            ),
            ("node", &["-p", "require('./package.json').name"]),
            ("perl", &["-ne", "print if /foo/"]),
            ("perl", &["-pe", "s/a/b/g"]),
            ("ruby", &["-e", "puts RUBY_VERSION"]),
            ("php", &["-r", "echo PHP_VERSION;"]),
            ("lua", &["-e", "print(_VERSION)"]),
            ("python3", &["-c", "import os; print(os.cpu_count())"]),
            (
                "python3",
                &[
                    "-c",
                    "import os.path as p, sys; print(p.join(os.getcwd(), 'a'))",
                ],
            ),
            (
                "python3",
                &["-c", "import os; print(os.path.exists('a'), os.sep)"],
            ),
            (
                "python3",
                &["-c", "from os import path; print(path.basename('a/b'))"],
            ),
            (
                "python3",
                &["-c", "from json import dumps; print(dumps([1]))"],
            ),
            (
                "python3",
                &["-c", "import platform; print(platform.python_version())"],
            ),
            ("node", &["-e", "const a=[1,2]; console.log(a[0], [3][0])"]),
            ("node", &["-p", "process.platform + process.arch"]),
            ("perl", &["-e", "print join(',', (1,2))"]),
            ("php", &["-r", "echo max(1, strlen(PHP_OS));"]),
        ] {
            assert!(!unproven(p, args), "{p} {args:?}");
        }
        // Not inline code: a script, a module.
        assert!(inline("python3", &["x.py"]).is_none());
        assert!(inline("python3", &["-m", "json.tool", "a.json"]).is_none());
    }

    fn proof(program: &str, args: &[&str]) -> Result<Inline, String> {
        let words: Vec<Word> = args.iter().map(|a| Word::literal_text(*a)).collect();
        proven(program, &words).expect("inline code")
    }

    #[test]
    fn perl_file_names_opened_as_commands_or_for_writing_are_binding() {
        for args in [
            &["-ne", "print", "touch x|"][..],
            &["-pe", "", ">x"],
            &["-lne", "print", "curl e.example|sh|"],
            &["-ne", "print", " x"],
            &["-ne", "print", "-"],
            &["-e", "@ARGV=('id|'); print <>"],
            &["-e", "push @ARGV, 'id|'; print while <ARGV>"],
            &["-i/tmp/*", "-pe", "s/a/b/", "x"],
            // `<$h>` and `readline` reach the handle `ARGV` by its name.
            &["-e", "$x='ARGV'; print <$x>", "touch x|"],
            &["-e", "print readline(ARGV)", "touch x|"],
            &["-e", "$x='ARGV'; @ARGV=('id|'); print <$x>"],
            &["-e", "print 1", "id|"],
        ] {
            assert!(unproven("perl", args), "perl {args:?}");
        }
        // `<<>>` opens with three arguments, but a name given to `-n` is opened with two.
        let i = inline("perl", &["-ne", "print", "a.txt"]).unwrap();
        assert_eq!((i.unproven, i.reads), (None, vec!["a.txt".to_owned()]));
        let i = inline("perl", &["-i.bak", "-pe", "s/a/b/", "x"]).unwrap();
        assert_eq!(i.writes, ["x", "x.bak"]);
        let i = inline("perl", &["-pi", "-e", "s/a/b/", "x"]).unwrap();
        assert_eq!((i.unproven, i.writes), (None, vec!["x".to_owned()]));
        let i = inline("ruby", &["-i", "-pe", "1", "y"]).unwrap();
        assert_eq!(i.writes, ["y"]);
    }

    #[test]
    fn environment_reads_are_binding_unless_the_name_is_public() {
        for (p, args) in [
            ("perl", &["-e", "print $ENV{AWS_SECRET_ACCESS_KEY}"][..]),
            ("perl", &["-le", "print \"$ENV{GITHUB_TOKEN}\""]),
            ("perl", &["-e", "print %ENV"]),
            ("perl", &["-e", "print for values %ENV"]),
            ("perl", &["-e", "$k='TOKEN'; print $ENV{$k}"]),
            (
                "python3",
                &["-c", "import os; print(os.environ['API_KEY'])"],
            ),
            (
                "python3",
                &["-c", "import os; print(os.getenv('GITHUB_TOKEN'))"],
            ),
            (
                "python3",
                &["-c", "import os; print(os.environ.get('X_TOKEN'))"],
            ),
            ("python3", &["-c", "import os; print(dict(os.environ))"]),
            ("node", &["-e", "console.log(process.env.NPM_TOKEN)"]),
            ("node", &["-p", "JSON.stringify(process.env)"]),
            ("node", &["-p", "process"]),
            ("ruby", &["-e", "puts ENV['GITHUB_TOKEN']"]),
            ("lua", &["-e", "print(os.getenv('GITHUB_TOKEN'))"]),
        ] {
            assert!(unproven(p, args), "{p} {args:?}");
        }
        for (p, args) in [
            ("perl", &["-e", "print $ENV{HOME}"][..]),
            ("perl", &["-e", "print \"$ENV{'USER'}\\n\""]),
            ("python3", &["-c", "import os; print(os.environ['HOME'])"]),
            ("python3", &["-c", "import os; print(os.getenv('PATH'))"]),
            ("node", &["-p", "process.env.HOME"]),
        ] {
            assert!(!unproven(p, args), "{p} {args:?}");
        }
    }

    #[test]
    fn names_spelled_by_escapes_or_other_characters_are_binding() {
        for (p, args) in [
            (
                "node",
                &["-e", r#"\u0072equire("child_process").execSync("id")"#][..],
            ),
            ("node", &["-e", r#"re\u0071uire("fs")"#]),
            (
                "python3",
                &["-c", "ｅｘｅｃ(bytes.fromhex('6964').decode())"],
            ),
            ("python3", &["-c", "print(f'{ｅｖａｌ(chr(49))}')"]),
            ("python3", &["-c", "ｇｅｔａｔｔｒ(1, 'real')"]),
        ] {
            assert!(unproven(p, args), "{p} {args:?}");
        }
        // Text in strings and comments is not a name.
        assert!(!unproven("python3", &["-c", "print('héllo') # ünïcode"]));
    }

    #[test]
    fn reads_of_files_named_at_run_time_are_binding() {
        for (p, args) in [
            (
                "python3",
                &[
                    "-c",
                    "import os; print(open(os.path.expanduser('~')+'/.n'+'etrc').read())",
                ][..],
            ),
            ("python3", &["-c", "p='x'; print(open(p).read())"]),
            (
                "python3",
                &[
                    "-c",
                    "import pathlib; print(pathlib.Path.home().read_text())",
                ],
            ),
            (
                "python3",
                &["-c", "import pathlib as p; p.Path('x').write_text('y')"],
            ),
            (
                "python3",
                &["-c", "from pathlib import Path; P = Path; P('x').unlink()"],
            ),
            (
                "node",
                &[
                    "-e",
                    "require('fs').readFileSync(require('os').homedir()+'/.npmrc')",
                ],
            ),
            (
                "node",
                &["-e", "require('fs').readFileSync('x', {flag: 'w'})"],
            ),
            (
                "node",
                &[
                    "-e",
                    "const fs=require('fs'); const w=fs; w.writeFileSync('x','y')",
                ],
            ),
            ("node", &["-e", "const fs=require('fs'); fs.rmSync('x')"]),
            (
                "node",
                &["-e", "let f = require('node:fs'); f.readFileSync(p)"],
            ),
        ] {
            assert!(unproven(p, args), "{p} {args:?}");
        }
    }

    #[test]
    fn read_only_one_liners_are_not_binding_and_give_their_reads() {
        let reads = |p: &str, args: &[&str]| {
            let i = inline(p, args).unwrap();
            assert_eq!(i.unproven, None, "{p} {args:?}");
            i.reads
        };
        assert_eq!(
            reads(
                "python3",
                &[
                    "-c",
                    "import pathlib; print(pathlib.Path('README.md').read_text())"
                ]
            ),
            ["README.md"]
        );
        assert_eq!(
            reads(
                "python3",
                &[
                    "-c",
                    "from pathlib import Path as P; print(P('a.txt').exists())"
                ]
            ),
            Vec::<String>::new()
        );
        assert_eq!(
            reads(
                "python3",
                &[
                    "-c",
                    "import json,sys; print(json.load(open(sys.argv[1])))",
                    "a.json"
                ]
            ),
            ["a.json"]
        );
        assert_eq!(
            reads(
                "node",
                &[
                    "-e",
                    "console.log(require('fs').readFileSync('package.json','utf8'))"
                ]
            ),
            ["package.json"]
        );
        assert_eq!(
            reads(
                "node",
                &[
                    "-e",
                    "const fs = require('fs'); console.log(fs.readFileSync('a'), fs.existsSync('b'))"
                ]
            ),
            ["a"]
        );
        // Imports run the package's code, as a script of the system would: unproven, never
        // binding for that alone; only the version of a package not read here is used.
        for (p, args) in [
            ("python3", &["-c", "import yaml"][..]),
            ("python3", &["-c", "import numpy; print(numpy.__version__)"]),
            (
                "python3",
                &["-c", "import yaml,sys; print(yaml.safe_load(sys.stdin))"],
            ),
            ("node", &["-e", "console.log(require('./index.js').x)"]),
            ("node", &["-e", "console.log(require('./lib').x)"]),
            ("lua", &["-e", "print(\"hello world\")"]),
            ("lua", &["-e", "io.write(string.rep('-', 3))"]),
            ("perl", &["-e", "print \"hello\\n\"; sleep 1"]),
        ] {
            let i = inline(p, args).unwrap();
            assert_eq!(i.unproven, None, "{p} {args:?}");
            assert!(i.unmodeled.is_some(), "{p} {args:?}");
        }
        for (p, args) in [
            ("python3", &["-c", "import numpy; numpy.save('x', 1)"][..]),
            ("python3", &["-c", "import antigravity"]),
            (
                "python3",
                &[
                    "-c",
                    "import yaml; yaml.load(open('x'), Loader=yaml.Loader)",
                ],
            ),
            ("lua", &["-e", "io.popen('id')"]),
            ("lua", &["-e", "_G['o'..'s'].execute('id')"]),
            ("lua", &["-e", "print(load('return 1')())"]),
            ("lua", &["-e", "print(string.dump(print))"]),
        ] {
            assert!(unproven(p, args), "{p} {args:?}");
        }
    }

    #[test]
    fn only_code_of_checked_interpreters_read_in_full_is_proven() {
        let ok = |p: &str, args: &[&str]| {
            proof(p, args).unwrap_or_else(|why| panic!("{p} {args:?}: {why}"))
        };
        assert_eq!(
            ok("python3", &["-c", "print(open('README.md').read())"]).reads,
            ["README.md"]
        );
        ok(
            "python3",
            &["-c", "import os, sys; print(os.cpu_count(), sys.version)"],
        );
        ok(
            "python3",
            &["-Bc", "from os import path; print(path.exists('x'))"],
        );
        ok("node", &["-e", "console.log(1 + 2, process.platform)"]);
        ok(
            "node",
            &["-p", "const a = [1, 2]; a.map(x => x * 2).join(',')"],
        );
        assert_eq!(
            ok(
                "node",
                &["-p", "require('fs').readFileSync('a.txt', 'utf8')"]
            )
            .reads,
            ["a.txt"]
        );
        assert_eq!(
            ok("perl", &["-lne", "print if /x/", "a.txt"]).reads,
            ["a.txt"]
        );
        ok("perl", &["-le", "print 1+1"]);
        ok(
            "perl",
            &[
                "-Mstrict",
                "-e",
                "print join ',', sort { $a <=> $b } (3, 1)",
            ],
        );
        // Python finds modules other than those loaded at its start in the directory first:
        // a standard module is proven only with the directory's entries checked.
        for args in [
            &["-c", "import json; print(json.dumps(1))"][..],
            &["-c", "from json import dumps; print(dumps(1))"],
            &["-c", "import platform; print(platform.python_version())"],
            &["-m", "json.tool", "--sort-keys", "--indent", "2", "a.json"],
            &["-m", "zipfile", "-l", "a.zip"],
        ] {
            assert!(ok("python3", args).std_modules, "{args:?}");
        }
        // Code that names none imports them too (a codec, a `\N{…}` escape).
        for args in [
            &["-c", "import os; print(os.sep)"][..],
            &["-c", "print('example.com'.encode('idna'))"],
            &["-c", "print('\\N{DEGREE SIGN}')"],
        ] {
            assert!(ok("python3", args).std_modules, "{args:?}");
        }
        assert_eq!(
            ok("python3", &["-m", "json.tool", "a.json", "b.json"]).writes,
            ["b.json"]
        );
        for (p, args) in [
            (
                "python3",
                &["-c", "import yaml; print(yaml.safe_load('1'))"][..],
            ),
            ("python3", &["-c", "import requests"]),
            ("python3", &["-m", "json.tool", "--unknown", "a.json"]),
            ("python3", &["-m", "json.tool", "a", "b", "c"]),
            ("python3", &["-m", "zipfile", "-e", "a.zip", "out"]),
            ("python3", &["-m", "tarfile", "-x", "a.tar"]),
            ("python3", &["-m", "pip", "list"]),
            ("python3", &["-Sc", "import os; print(os.sep)"]),
            ("python3", &["-c", "print(1)", "arg"]),
            ("node", &["-e", "fetch('https://example.com')"]),
            (
                "node",
                &["-e", "console.log(require('./x.json.js').version)"],
            ),
            ("node", &["-e", "console.log(require('./a/../../x.json'))"]),
            ("node", &["-e", "console.log(require('os').hostname())"]),
            (
                "node",
                &[
                    "-e",
                    "require('crypto').setEngine(require('path').resolve('x.so'))",
                ],
            ),
            ("node", &["-e", "console.log(1/2)"]),
            ("node", &["-r", "./x.js", "-e", "1"]),
            ("perl", &["-e", "print `id`"]),
            ("perl", &["-d", "-e", "1"]),
            ("perl", &["-MPOSIX", "-e", "print 1"]),
            ("perl", &["-e", "print time / 2; unlink 'x'; #/"]),
            ("ruby", &["-e", "puts 1"]),
            ("lua", &["-e", "print(1)"]),
            ("php", &["-r", "echo 1;"]),
            ("bun", &["-e", "console.log(1)"]),
        ] {
            assert!(proof(p, args).is_err(), "{p} {args:?}");
        }
        // A JSON file is parsed, once the policy finds it a regular file, and read.
        let json = ok(
            "node",
            &["-e", "console.log(require('./package.json').version)"],
        );
        assert_eq!(json.regular_files, ["./package.json"]);
        assert_eq!(json.reads, ["./package.json"]);
        // Python's tracebacks import modules the directory may shadow.
        // (The checked entries: see `a_directory_entry_named_as_a_standard_module_shadows_it`.)
        assert!(
            ok("python3", &["-c", "print(1)"])
                .forbids
                .contains(&"traceback.py".to_owned())
        );
    }

    #[test]
    fn literal_paths_opened_for_writing_are_given_back() {
        let i = inline("python3", &["-c", "open('out.txt', 'w').write('x')"]).unwrap();
        assert_eq!((i.unproven, i.writes), (None, vec!["out.txt".to_owned()]));
        let i = inline(
            "python3",
            &["-c", "open('.claude/settings.json', mode='a')"],
        )
        .unwrap();
        assert_eq!(i.writes, [".claude/settings.json"]);
        // A mode computed at run time, or given through `**`/`*` or an opener, may write.
        for code in [
            "open('out', dict(m='w')['m']).write('x')",
            "open('out', dict(m='w').get('m')).write('x')",
            "open('out', **dict(mode='w')).write('x')",
            "import base64; open('out', base64.b64decode('dw==').decode()).write('x')",
            "open('out', *['w']).write('x')",
            "open('out', opener=lambda p, f: 1)",
        ] {
            let i = inline("python3", &["-c", code]).unwrap();
            assert!(
                !i.writes.is_empty() || i.unproven.is_some(),
                "{code}: {:?}",
                i.reads
            );
        }
        // Keywords that change nothing written.
        let i = inline(
            "python3",
            &["-c", "print(open('a.txt', encoding='utf-8').read())"],
        )
        .unwrap();
        assert_eq!((i.unproven, i.writes.len()), (None, 0));
    }

    #[test]
    fn a_slash_is_read_only_inside_strings() {
        for code in ["require('./a.json')", "console.log(\"a/b\", 'c\\'/')", "x"] {
            assert!(!super::slash_outside_strings(code), "{code}");
        }
        for code in [
            "1 / 2",
            "x = /'/; require('./a.js')",
            "// '",
            "'unclosed",
            "'a\nb'",
            "'a' /* '*/",
            // HTML-like comments end at any line terminator, hiding what follows in a
            // string that seems to go on.
            "<!-- '\rfetch(\"http://x\") //'",
            "1 <!-- '\u{2028}fetch(\"http://x\") //'",
            "x\n--> '\u{2029}fetch(\"http://x\") //'",
            "#! '\rfetch(\"http://x\") //'",
            "'a\rb'",
        ] {
            assert!(super::slash_outside_strings(code), "{code}");
        }
    }

    #[test]
    fn a_python_comment_ends_at_a_carriage_return() {
        // `ｅｘｅｃ` is `exec` once Python reads names in their NFKC form; a comment opened
        // before it ends at the `\r`, as Python reads it.
        let code = "#\r\u{ff45}\u{ff58}\u{ff45}\u{ff43}(chr(105)+chr(100))";
        assert!(super::python_non_ascii_name(code));
        assert!(unproven("python3", &["-c", code]));
        assert!(super::python2_builtin("#\rprint(file('.env').read())").is_some());
        assert!(!super::python_non_ascii_name("# \u{e9}t\u{e9}\nprint(1)"));
    }

    #[test]
    fn the_module_tables_are_sorted_and_lower_case() {
        for table in [PYTHON_STDLIB, PYTHON_NOT_EVERYWHERE, PYTHON_STDLIB_IMPORTS] {
            assert!(table.is_sorted(), "{table:?}");
            assert!(table.iter().all(|n| n.to_ascii_lowercase() == *n));
        }
        assert!(PYTHON_NOT_EVERYWHERE.iter().all(|n| python_standard(n)));
    }

    #[test]
    fn a_directory_entry_named_as_a_standard_module_shadows_it() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        std::fs::create_dir_all(d.join("email")).unwrap();
        std::fs::create_dir_all(d.join("app")).unwrap();
        for f in [
            "setup.py",
            "string.txt",
            "README.md",
            "app/json.py",
            ".json.py",
        ] {
            std::fs::write(d.join(f), "").unwrap();
        }
        // A directory without `__init__` is a namespace portion: the standard one wins.
        assert_eq!(shadowing_entry(d).unwrap(), None);
        for (name, dir_init) in [
            ("json.py", false),
            ("JSON.PY", false),
            ("re.cpython-311-x86_64-linux-gnu.so", false),
            ("platform.pyc", false),
            ("_newthing.py", false),
            ("string", true),
        ] {
            let path = d.join(name);
            if dir_init {
                std::fs::create_dir(&path).unwrap();
                std::fs::write(path.join("__init__.py"), "").unwrap();
            } else {
                std::fs::write(&path, "").unwrap();
            }
            assert_eq!(shadowing_entry(d).unwrap().as_deref(), Some(name));
            if dir_init {
                std::fs::remove_dir_all(&path).unwrap();
            } else {
                std::fs::remove_file(&path).unwrap();
            }
        }
        // A module the standard library imports from outside it (`copy` imports
        // `org.python.core`, `platform` `java.lang`) runs from a namespace portion, and so
        // does a standard name the running Python may lack (`sets`, `winreg`).
        for (dir, file) in [
            ("org", "python/core.py"),
            ("java", "lang.py"),
            ("sets", "evil.py"),
            ("winreg", "evil.py"),
        ] {
            let path = d.join(dir);
            std::fs::create_dir_all(path.join(file).parent().unwrap()).unwrap();
            std::fs::write(path.join(file), "").unwrap();
            assert_eq!(shadowing_entry(d).unwrap().as_deref(), Some(dir));
            std::fs::remove_dir_all(&path).unwrap();
        }
        std::fs::write(d.join("vms_lib.py"), "").unwrap();
        assert_eq!(shadowing_entry(d).unwrap().as_deref(), Some("vms_lib.py"));
        std::fs::remove_file(d.join("vms_lib.py")).unwrap();
        std::os::unix::fs::symlink("/nowhere", d.join("csv")).unwrap();
        assert_eq!(shadowing_entry(d).unwrap().as_deref(), Some("csv"));
        assert!(shadowing_entry(&d.join("missing")).is_err());
    }

    #[test]
    fn python_code_changing_what_it_imports_or_asking_the_system_is_not_proven() {
        for code in [
            // `sys.path` changed, or bound to a name or given to a call that may change it.
            "import sys; sys.path.insert(0, 'src'); import json",
            "import sys; sys.path[0] = 'src'; import json",
            "import sys; sys.path += ['src']; import json",
            "import sys; sys.path[:0] = ['src']; import json",
            "import sys as s; s.path.append('src'); import json",
            "import sys, operator; operator.iadd(sys.path, ['src']); import json",
            "import sys; p = sys.path; p.insert(0, 'src'); import json",
            "import sys; print(list.insert(sys.path, 0, 'src')); import json",
            "import sys; print([sys.path][0].insert(0, 'src'))",
            "from sys import path; path.insert(0, 'src'); import json",
            "import sys; sys.warnoptions.append('ignore::evil.X'); import warnings",
            // The environment changed (`time.tzset()` reads the file `TZ` names).
            "import os, time; os.environ['TZ'] = '/home/u/.ssh/id_rsa'; time.tzset()",
            "import os; os.environ[\"LANG\"] += 'x'",
            // Programs run, files read by a name given, the clock set, sockets opened.
            "import platform; print(platform.architecture('/bin/ls'))",
            "import platform; print(platform.processor())",
            "import platform; print(platform.platform())",
            "import platform; print(platform.uname().processor)",
            "import platform; print(platform.libc_ver('/home/u/.ssh/id_rsa'))",
            "import platform; print(platform.java_ver())",
            "import uuid; print(uuid.getnode())",
            "import uuid; print(uuid.uuid1())",
            "import time; time.clock_settime(time.CLOCK_REALTIME, 0)",
        ] {
            assert!(proof("python3", &["-c", code]).is_err(), "{code}");
        }
        for code in [
            "import sys; print(sys.path)",
            "import sys; print(len(sys.path), sys.path)",
            "import sys; print('\\n'.join(sys.path))",
            "import os; print(os.environ['HOME'] == '/root')",
            "import platform; print(platform.python_version())",
            "import uuid; print(uuid.uuid4())",
        ] {
            assert!(proof("python3", &["-c", code]).is_ok(), "{code}");
        }
    }

    /// Asserts that each of `proven` is proven `python3 -c` code and none of `unproven` is.
    fn python_proofs(proven: &[&str], unproven: &[&str]) {
        for code in proven {
            assert!(proof("python3", &["-c", code]).is_ok(), "{code}");
        }
        for code in unproven {
            assert!(proof("python3", &["-c", code]).is_err(), "{code}");
        }
    }

    #[test]
    fn python_directory_listings_are_looked_at_as_ls_and_find_look() {
        let listed = |code: &str| proof("python3", &["-c", code]).map(|i| (i.meta, i.reads));
        assert_eq!(
            listed("import os; print(sorted(os.listdir('src')))"),
            Ok((vec!["src".to_owned()], vec![]))
        );
        assert_eq!(
            listed("import os as o; [print(r, f) for r, d, f in o.walk('.')]"),
            Ok((vec![".".to_owned()], vec![]))
        );
        python_proofs(
            &[],
            &[
                // No literal directory, another argument, a link followed, the function bound.
                "import os; print(os.listdir())",
                "import os; print(os.listdir(os.path.expanduser('~')))",
                "import os; print(list(os.walk('.', followlinks=True)))",
                "import os; f = os.listdir; print(f('/root'))",
                "import os; print(list(map(os.listdir, ['/root'])))",
                "from os import listdir; print(listdir('.'))",
                "import os; print(os.scandir('.'))",
                // The files listed are then read by names only known when it runs.
                "import os; [open(os.path.join(r, x)).read() for r, d, f in os.walk('.') for x in f]",
            ],
        );
    }

    #[test]
    fn python_words_patterns_and_urls_are_only_computed() {
        python_proofs(
            &[
                "import shlex; print(shlex.split('a \"b c\"'), shlex.quote('x y'))",
                "import fnmatch; print(fnmatch.filter(['a.py', 'b.md'], '*.py'))",
                "from urllib.parse import urlparse, quote; print(urlparse('https://x.example/a'), quote('a b'))",
            ],
            &[
                // A stream read, a program run with the words, a URL fetched.
                "import shlex; print(list(shlex.shlex(open('x'))))",
                "import shlex, os; os.system(shlex.join(['touch', 'x']))",
                "import urllib.parse; print(urllib.parse.quote('a'))",
                "from urllib.request import urlopen; urlopen('http://x.example')",
                "import urllib.parse as p; import urllib.request as r; r.urlopen(p.urljoin('http://x', 'y'))",
            ],
        );
    }

    #[test]
    fn python_syntax_trees_are_built_and_walked_without_running_code() {
        let proved = proof(
            "python3",
            &[
                "-c",
                "import ast; t = ast.parse(open('m.py').read()); \
                 print([n.name for n in ast.walk(t) if isinstance(n, ast.FunctionDef)])",
            ],
        )
        .unwrap();
        assert_eq!(proved.reads, ["m.py"]);
        // A file opened to write is one the judge weighs, as anywhere else.
        let written = "import ast; open('out.py', 'w').write(ast.unparse(ast.parse('x')))";
        assert_eq!(
            proof("python3", &["-c", written]).unwrap().writes,
            ["out.py"]
        );
        python_proofs(
            &[
                "import ast; print(len(ast.parse(open('m.py').read()).body))",
                "import ast; print(ast.dump(ast.parse('x = 1'), indent=2))",
                "import ast; print(ast.literal_eval('[1, 2]'))",
                "from ast import parse, unparse; print(unparse(parse('x=1')))",
                "import ast; print(ast.get_docstring(ast.parse(open('m.py').read())))",
            ],
            &[
                // Code built from the tree runs; `main` reads the file its arguments name.
                "import ast; exec(compile(ast.parse('x=1'), 'f', 'exec'))",
                "import ast; ast.main()",
                "import ast; ast.NodeVisitor().visit(ast.parse('x'))",
                "from ast import main; main()",
                "import ast; getattr(ast, 'main')()",
            ],
        );
    }

    #[test]
    fn python_2_builtins_reading_files_or_running_code_are_binding() {
        // `python` may be Python 2, where `file` opens, `execfile` runs a file and `input`
        // evaluates what it reads.
        for code in [
            "print(file('.env').read())",
            "execfile('setup.py')",
            "print(input())",
            "import sys; reload(sys)",
            "f = file; print(f('.env').read())",
            "'''a'b''';print(file('.env').read())",
            "print(f'{file(\"x\").read()}')",
        ] {
            for p in ["python", "python2", "python2.7"] {
                assert!(unproven(p, &["-c", code]), "{p} {code}");
            }
        }
        for code in [
            "print(open('file.txt').read())",
            "import sys; print(1, file=sys.stderr)",
            "print('input # file')",
            "'''file'''",
        ] {
            assert!(proof("python", &["-c", code]).is_ok(), "{code}");
        }
        assert!(proof("python3", &["-c", "print(input())"]).is_ok());
    }
}
