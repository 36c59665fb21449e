//! Code given to an interpreter on its command line (`python3 -c CODE`, `node -e CODE`,
//! `perl -e CODE`, `ruby -e CODE`, `php -r CODE`, `lua -e CODE`): whether it is proven to
//! write, delete and run nothing. Each language is read for what can reach the filesystem or
//! other programs (modules and functions that write, delete, run programs or reach them
//! by a name built at run time); code that uses any, or that cannot be read, is unproven.
//! A Python `open(LITERAL, MODE)` that writes is given back as a write of that literal path,
//! for the policy to judge.

use crate::shell::{SimpleCommand, Word};

/// What inline code was found to do.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Inline {
    /// Why the code may write, delete or run something not proven harmless, if it may.
    pub unproven: Option<String>,
    /// Literal paths the code writes (`open("out.txt", "w")`).
    pub writes: Vec<String>,
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
        "ruby" => (Lang::Ruby, f("e", &[], "IrCEFx0")),
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
        _ => return None,
    })
}

/// The inline code words of `cmd` (`-c CODE`, `-e CODE`, clusters such as `perl -lne CODE`,
/// attached `-cCODE`), with the options that load modules (`perl -MMod`, `ruby -rlib`).
fn code_words(cmd: &SimpleCommand, flags: &Flags) -> (Vec<Word>, Vec<String>) {
    let args = cmd.args();
    let mut code = Vec::new();
    let mut modules = Vec::new();
    let mut i = 0;
    if cmd.program() == Some("deno") {
        return (Vec::new(), Vec::new());
    }
    while let Some(w) = args.get(i) {
        i += 1;
        let Some(t) = w.literal() else {
            // A word only known when it runs may be a code option.
            if code.is_empty() {
                code.push(w.clone());
            }
            break;
        };
        if t == "--" || !t.starts_with('-') || t == "-" {
            break;
        }
        if let Some(long) = flags
            .long_code
            .iter()
            .find(|l| t == **l || t.strip_prefix(**l).is_some_and(|r| r.starts_with('=')))
        {
            match t.strip_prefix(*long).and_then(|r| r.strip_prefix('=')) {
                Some(v) => code.push(Word::literal_text(v)),
                None => {
                    code.extend(args.get(i).cloned());
                    i += 1;
                }
            }
            continue;
        }
        if t.starts_with("--") {
            continue;
        }
        let mut skip_digits = false;
        for (at, c) in t[1..].char_indices() {
            if skip_digits && c.is_ascii_digit() {
                continue;
            }
            skip_digits = flags.digits.contains(c);
            if skip_digits {
                continue;
            }
            let rest = &t[1 + at + c.len_utf8()..];
            if flags.code.contains(c) {
                if rest.is_empty() {
                    code.extend(args.get(i).cloned());
                    i += 1;
                } else {
                    code.push(Word::literal_text(rest));
                }
                break;
            }
            if flags.valued.contains(c) {
                let value = if rest.is_empty() && "WXmIMrCEdcfl".contains(c) {
                    i += 1;
                    args.get(i - 1).and_then(Word::literal).unwrap_or("?")
                } else {
                    rest
                };
                if matches!(c, 'M' | 'm' | 'r') {
                    modules.push(value.to_owned());
                }
                break;
            }
        }
        // Python's code ends its options: what follows is the code's argv.
        if flags.code == "c" && !code.is_empty() {
            break;
        }
    }
    (code, modules)
}

/// What the inline code of `cmd` does ([`Inline`]); `None` when `cmd` runs no inline code
/// of an interpreter read here.
pub(crate) fn read(cmd: &SimpleCommand) -> Option<Inline> {
    let program = cmd.program()?;
    let (lang, flags) = if program == "deno" {
        // `deno eval CODE`.
        let args = cmd.args();
        if args.first().and_then(Word::literal) != Some("eval") {
            return None;
        }
        let code: Vec<Word> = args[1..]
            .iter()
            .filter(|w| w.literal().is_none_or(|t| !t.starts_with('-')))
            .take(1)
            .cloned()
            .collect();
        return Some(judge(Lang::Node, &code, &[]));
    } else {
        lang(program)?
    };
    let (code, modules) = code_words(cmd, &flags);
    if code.is_empty() {
        return None;
    }
    Some(judge(lang, &code, &modules))
}

fn judge(lang: Lang, code: &[Word], modules: &[String]) -> Inline {
    let mut out = Inline::default();
    for word in code {
        let Some(text) = word.literal() else {
            out.unproven = Some("its code is only known when it runs".to_owned());
            return out;
        };
        let why = match lang {
            Lang::Python => python(text, &mut out.writes),
            Lang::Node => node(text),
            Lang::Perl => perl(text, modules),
            Lang::Ruby => ruby(text, modules),
            Lang::Php => php_calls(text).or_else(|| allowed_only(text, PHP_SAFE)),
            Lang::Lua => allowed_only(text, LUA_SAFE),
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
/// them (no module, nothing that runs code named at run time): `(module, attributes)`.
const PYTHON_MODULE_ATTRS: &[(&str, &[&str])] = &[
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
            "clock_settime",
            "clock_settime_ns",
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
    (
        "platform",
        &[
            "architecture",
            "freedesktop_os_release",
            "java_ver",
            "libc_ver",
            "mac_ver",
            "machine",
            "node",
            "platform",
            "processor",
            "python_branch",
            "python_build",
            "python_compiler",
            "python_implementation",
            "python_revision",
            "python_version",
            "python_version_tuple",
            "release",
            "system",
            "system_alias",
            "uname",
            "uname_result",
            "version",
            "win32_edition",
            "win32_is_iot",
            "win32_ver",
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
            "getnode",
            "int_",
            "uuid1",
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

fn python(code: &str, writes: &mut Vec<String>) -> Option<String> {
    let ids = identifiers(code);
    for (id, _) in &ids {
        if id.len() > 1 && id.starts_with('_') || PYTHON_DYNAMIC.contains(id) {
            return Some(format!(
                "it uses `{id}`, which reaches code, modules or names built at run time"
            ));
        }
    }
    // Names bound to modules, and the spans of the import statements.
    let mut bound: Vec<(String, String)> = Vec::new();
    let mut spans: Vec<(usize, usize)> = Vec::new();
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
            match from {
                Some("os") if name == "path" => {
                    bound.push((alias.unwrap_or(name).to_owned(), "os.path".to_owned()));
                }
                Some(m) if python_attr_allowed(m, name) => {}
                Some(m) => return Some(format!("it imports `{name}` from `{m}`")),
                None if python_module_known(name) => {
                    let (b, m) = match alias {
                        Some(a) => (a, name),
                        None => {
                            let first = name.split('.').next().unwrap_or(name);
                            (first, first)
                        }
                    };
                    bound.push((b.to_owned(), m.to_owned()));
                }
                None => return Some(format!("it imports `{name}`")),
            }
        }
    }
    // Every use of a module goes through an attribute known to only compute or read.
    for (id, at) in &ids {
        let start = at - id.len();
        if spans.iter().any(|(s, e)| (*s..*e).contains(&start))
            || code[..start].trim_end().ends_with('.')
        {
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
            if !python_attr_allowed(&module, attr) {
                return Some(format!(
                    "it uses `{module}.{attr}`, not known to only compute"
                ));
            }
            break;
        }
    }
    for (k, (id, _)) in ids.iter().enumerate() {
        if *id == "open" {
            let at = ids[k].1;
            let Some(args) = call_args(code, at) else {
                return Some("it uses `open` other than by calling it".to_owned());
            };
            match open_writes(&args) {
                None => {}
                Some(Some(path)) => writes.push(path),
                Some(None) => {
                    return Some("it opens for writing a file named at run time".to_owned());
                }
            }
        }
    }
    None
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
    for (k, a) in args.iter().enumerate().skip(1) {
        let a = a.trim();
        if let Some(v) = a.strip_prefix("mode") {
            let v = v.trim_start().strip_prefix('=')?;
            mode = string_literal(v);
        } else if k == 1 && !a.contains('=') {
            mode = string_literal(a);
        } else if a.contains('=') {
            // `encoding=`, `newline=`: no effect on what is written.
        } else {
            mode = None;
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
        let member = prev.is_some_and(|p| p.is_ascii_alphanumeric() || b")]}'\"`._$".contains(&p));
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

fn node(code: &str) -> Option<String> {
    if let Some(why) = node_computed_access(code) {
        return Some(why);
    }
    for (id, at) in identifiers(code) {
        if NODE_UNSAFE.contains(&id)
            || id.starts_with("__") && !matches!(id, "__dirname" | "__filename")
        {
            return Some(format!("it uses `{id}`"));
        }
        if id == "process" {
            let attr = next_is(code, at, '.').and_then(|p| ident_at(code, p));
            if !attr.is_some_and(|(a, _)| NODE_PROCESS_ATTRS.contains(&a))
                && !code[..at - id.len()].trim_end().ends_with('.')
            {
                return Some("it uses `process` other than by a known attribute".to_owned());
            }
        }
        if id == "require" {
            let arg = call_args(code, at)
                .and_then(|a| (a.len() == 1).then(|| a[0].clone()))
                .and_then(|a| string_literal(&a).map(str::to_owned));
            // A file of the workspace named by a literal relative path runs or reads what
            // `node ./file` would, which is judged as running the workspace's own code.
            let safe = arg.as_deref().is_some_and(|m| {
                NODE_SAFE_MODULES.contains(&m.strip_prefix("node:").unwrap_or(m))
                    || m.starts_with("./") && !m.split(['/', '\\']).any(|c| c == "..")
            });
            if !safe {
                return Some(format!(
                    "it loads `{}`",
                    arg.as_deref().unwrap_or("a module named at run time")
                ));
            }
        }
        if id == "getBuiltinModule" {
            return Some("it loads a module by name".to_owned());
        }
    }
    None
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

fn perl(code: &str, modules: &[String]) -> Option<String> {
    if let Some(m) = modules
        .iter()
        .find(|m| !PERL_SAFE_MODULES.contains(&m.split(['=', ' ']).next().unwrap_or(m)))
    {
        return Some(format!("it loads `{m}`"));
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
        if flags.contains(&b'e') {
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

fn ruby(code: &str, modules: &[String]) -> Option<String> {
    if let Some(m) = modules
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
        ] {
            assert!(unproven(p, args), "{p} {args:?}");
        }
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
                &["-c", "import platform; print(platform.system())"],
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
    }
}
