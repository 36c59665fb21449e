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
            Lang::Php => allowed_only(text, PHP_SAFE),
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

/// Python modules that neither write, delete nor run anything, nor reach what does.
const PYTHON_SAFE_MODULES: &[&str] = &[
    "json",
    "sys",
    "math",
    "cmath",
    "re",
    "datetime",
    "time",
    "platform",
    "hashlib",
    "base64",
    "itertools",
    "functools",
    "collections",
    "string",
    "textwrap",
    "pprint",
    "statistics",
    "random",
    "uuid",
    "decimal",
    "fractions",
    "struct",
    "binascii",
    "csv",
    "tomllib",
    "operator",
    "unicodedata",
    "calendar",
    "heapq",
    "bisect",
    "keyword",
    "html",
    "enum",
    "dataclasses",
    "typing",
    "copy",
    "numbers",
    "zlib",
    "secrets",
    "hmac",
    "difflib",
    "ast",
];

/// Python builtins and names that reach any module, any attribute or code built at run time.
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
    "modules",
    "memoryview",
    "__import__",
];

fn python(code: &str, writes: &mut Vec<String>) -> Option<String> {
    let ids = identifiers(code);
    for (k, (id, _)) in ids.iter().enumerate() {
        if id.starts_with("__") || PYTHON_DYNAMIC.contains(id) {
            return Some(format!(
                "it uses `{id}`, which reaches code or names built at run time"
            ));
        }
        if *id == "import" {
            // `import a.b as c, d`; `from a import b` (the `from` judged the module).
            let module = ids.get(k + 1).map(|(m, _)| *m).unwrap_or_default();
            let after_from = (1..=4).any(|back| k > back && ids[k - back - 1].0 == "from");
            if !after_from {
                // Every name after `import` up to the end of the statement is a module, or
                // an alias (`as x`): aliases of safe modules are safe.
                let end = code[ids[k].1..]
                    .find([';', '\n'])
                    .map_or(code.len(), |e| ids[k].1 + e);
                for (m, at) in ids.iter().skip(k + 1) {
                    if *at > end {
                        break;
                    }
                    if *m != "as" && !PYTHON_SAFE_MODULES.contains(m) && !aliased(&ids, m) {
                        return Some(format!("it imports `{m}`"));
                    }
                }
            } else if module.is_empty() {
                return Some("it imports a module that cannot be read".to_owned());
            }
        }
        if *id == "from" {
            let module = ids.get(k + 1).map(|(m, _)| *m).unwrap_or_default();
            if !PYTHON_SAFE_MODULES.contains(&module) {
                return Some(format!("it imports from `{module}`"));
            }
        }
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

/// Whether `name` is only an alias given with `as` (`import json as j`).
fn aliased(ids: &[(&str, usize)], name: &str) -> bool {
    ids.windows(2).any(|w| w[0].0 == "as" && w[1].0 == name)
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
];

fn node(code: &str) -> Option<String> {
    for (id, at) in identifiers(code) {
        if NODE_UNSAFE.contains(&id) {
            return Some(format!("it uses `{id}`"));
        }
        if id == "require"
            || id == "process" && code[at..].trim_start().starts_with(".getBuiltinModule")
        {
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
    "open", "sysopen", "system", "exec", "qx", "readpipe", "unlink", "rename", "mkdir", "rmdir",
    "eval", "do", "require", "use", "symlink", "link", "chmod", "chown", "truncate", "utime",
    "fork", "syscall", "kill", "dbmopen", "CORE", "pipe", "socket", "chdir", "chroot", "dump",
    "glob",
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
    for bad in ["`", "$^I", "&{", "&$", "*{", "\\&", "->$", "${^"] {
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
    if code.contains('`') || code.contains("%x") {
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
            ("python3", &["-cimport os"]),
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
