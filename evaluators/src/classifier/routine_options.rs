//! The options a routine build may take: for each development tool the reviewer calls
//! routine, the options it knows to be harmless, with their arity, in the program table's
//! option language. A build is routine only when every option it is given is one of these,
//! read the way the tool reads them (clusters, attached values, `--`); an option the list does
//! not know — one that deletes (`pytest --basetemp`), uploads (`--pastebin`), loads plugins or
//! code from elsewhere (`-p`, `-o addopts=…`, `--pyargs`, `--config`), or an abbreviation the
//! tool would expand (argparse, getopt_long and nopt accept unique prefixes) — is not.

use crate::programs::cursor::{self, Item, Syntax};
use crate::programs::spec::Options;
use crate::shell::Word;

/// Options every tool of the list reads the same way.
const COMMON: &str = "help version";

/// Options of cargo's routine subcommands (`--manifest-path` is judged by where it leads).
const CARGO: &str = "q|quiet v|verbose r|release workspace all lib bins tests benches examples \
     all-targets all-features no-default-features F|features=v p|package=v exclude=v \
     j|jobs=v locked offline frozen keep-going message-format=v color=v no-run no-fail-fast \
     doc bin=v test=v bench=v example=v profile=v target=v manifest-path=v check \
     format-version=n no-deps e|edges=v i|invert=v depth=n d|duplicates prefix=v";

/// Options of npm's, pnpm's, yarn's and bun's routine commands.
const NODE_RUNNERS: &str = "s|silent q|quiet loglevel=v w|workspace=v ws|workspaces \
     include-workspace-root if-present json parseable l|long depth=n a|all audit-level=v \
     omit=v production r|recursive F|filter=v parallel stream bail=n coverage watch";

/// Options of `go build`, `test`, `vet`, `fmt`, `run` and `list` (Go reads `-run` and
/// `--run` alike; no option that runs a program, loads a toolchain or build file from
/// elsewhere: `-exec`, `-toolexec`, `-vettool`, `-ldflags`, `-modfile`, `-overlay`, `-C`).
const GO: &str = "v x n a race msan asan cover covermode=v coverpkg=v coverprofile=v count=n \
     cpu=v failfast json list=v parallel=n run=v skip=v short timeout=v bench=v benchmem \
     benchtime=v tags=v o=v trimpath p=n vet=v f=v e deps test find shuffle=v";

/// Options of GNU make (`-f`/`-C`/`-I` are judged by where they lead; not `--eval`, `-E`).
const MAKE: &str = "k|keep-going j|jobs=? l|load-average|max-load=? s|silent|quiet \
     n|dry-run|just-print|recon B|always-make i|ignore-errors w|print-directory \
     no-print-directory q|question r|no-builtin-rules R|no-builtin-variables \
     f|file|makefile=v C|directory=v I|include-dir=v O|output-sync=?";

/// Options of pytest (`-c FILE` and `--cov-config FILE` read where they lead, see
/// [`SETTINGS_OPTIONS`]; not `-p`, `-o`/`--override-ini`, `--rootdir`, `--confcutdir`,
/// `--basetemp`, `--pastebin`, `--pyargs`, `--import-mode`, `-W`, `--junitxml`).
const PYTEST: &str = "q|quiet v|verbose x|exitfirst maxfail=n k=v m=v s capture=v \
     l|showlocals no-showlocals tb=v r=v lf|last-failed ff|failed-first nf|new-first \
     sw|stepwise sw-skip|stepwise-skip co|collect-only|collectonly durations=n \
     durations-min=v no-header no-summary color=v code-highlight=v strict-markers strict \
     disable-warnings|disable-pytest-warnings runxfail deselect=v ignore=v ignore-glob=v \
     doctest-modules full-trace setup-only setup-show setup-plan fixtures|funcargs \
     fixtures-per-test markers n|numprocesses=v cov=? cov-report=v no-cov \
     c|config-file=v cov-config=v";

/// Options of the C and C++ compilers that only choose what is compiled and how (not
/// `-wrapper`, `-B`, `-specs=`, `-fplugin=`, `-Wl,`/`-Wp,`/`-Xlinker` passing options on, or a
/// warning list this does not name).
const C_COMPILER: &str = "o=v c S E g=? O=? w pedantic Wall Wextra Werror Wpedantic Wshadow \
     Wconversion Wformat std=v I=v D=v U=v L=v l=v shared fPIC fpic pthread static MMD MP";

/// Whether `program` is one of the C and C++ compilers the reviewer knows.
pub(super) fn is_c_compiler(program: &str) -> bool {
    ROUTINE_OPTIONS
        .iter()
        .any(|(name, spec, _)| *name == program && *spec == C_COMPILER)
}

/// The options by which a checker names the settings file it reads (`tsc -p FILE`, `eslint -c
/// FILE`), each with its program. A checker only reads that file, so its name is no place the
/// command writes; what the file says is read for a routine build
/// ([`crate::programs::tool_settings`]), and a value outside the workspace leaves the build
/// unproven. Ruff's `--config` is not one: it also takes a setting inline (`--config
/// 'cache-dir="/elsewhere"'`).
const SETTINGS_OPTIONS: &[(&str, &[&str])] = &[
    ("tsc", &["-p", "--project"]),
    ("eslint", &["-c", "--config"]),
    ("jest", &["-c", "--config"]),
    ("vitest", &["-c", "--config"]),
    ("mypy", &["--config-file"]),
    ("prettier", &["--config"]),
    ("pytest", &["-c", "--config-file", "--cov-config"]),
    ("coverage", &["--rcfile"]),
];

/// Whether `option` names a settings file for some checker of [`SETTINGS_OPTIONS`] (the
/// settings files a build names are read whatever program is given them).
pub(super) fn names_settings(option: &str) -> bool {
    SETTINGS_OPTIONS.iter().any(|(_, o)| o.contains(&option))
}

/// Whether `option` names the settings file the checker `program` reads.
pub(super) fn settings_option(program: &str, option: &str) -> bool {
    SETTINGS_OPTIONS
        .iter()
        .any(|(p, o)| *p == program && o.contains(&option))
}

/// The indices in `args` (a command's arguments, literal or not) of the words that name the
/// settings file the checker `program` reads: the word after an option of
/// [`SETTINGS_OPTIONS`], or the option's own word when the value is attached with `=`.
pub(super) fn settings_values(program: &str, args: &[Option<&str>]) -> Vec<usize> {
    let mut out = Vec::new();
    for (i, w) in args.iter().enumerate() {
        let Some(w) = w else { continue };
        if w == &"--" {
            break;
        }
        if settings_option(program, w) {
            if args.get(i + 1).is_some_and(Option::is_some) {
                out.push(i + 1);
            }
        } else if w
            .split_once('=')
            .is_some_and(|(o, _)| o.starts_with("--") && settings_option(program, o))
        {
            out.push(i);
        }
    }
    out
}

/// The options of each routine tool: the tool, the options, and whether it reads long options
/// with one dash (`go test -run`, `mvn -pl`).
const ROUTINE_OPTIONS: &[(&str, &str, bool)] = &[
    ("cc", C_COMPILER, true),
    ("gcc", C_COMPILER, true),
    ("clang", C_COMPILER, true),
    ("c++", C_COMPILER, true),
    ("g++", C_COMPILER, true),
    ("clang++", C_COMPILER, true),
    ("cargo", CARGO, false),
    ("npm", NODE_RUNNERS, false),
    ("pnpm", NODE_RUNNERS, false),
    ("yarn", NODE_RUNNERS, false),
    ("bun", NODE_RUNNERS, false),
    ("go", GO, true),
    ("make", MAKE, false),
    (
        "just",
        "n|dry-run q|quiet v|verbose l|list summary f|justfile=v",
        false,
    ),
    (
        "mvn",
        "q|quiet B|batch-mode o|offline e|errors X|debug U|update-snapshots D|define=v \
         pl|projects=v am|also-make amd|also-make-dependents T|threads=v P|activate-profiles=v \
         f|file=v ntp|no-transfer-progress fae|fail-at-end ff|fail-fast",
        true,
    ),
    (
        "gradle",
        "q|quiet i|info w|warn S|stacktrace s|full-stacktrace offline build-cache parallel \
         continue x|exclude-task=v no-daemon console=v",
        false,
    ),
    (
        "dotnet",
        "c|configuration=v f|framework=v v|verbosity=v no-restore nologo filter=v no-build",
        false,
    ),
    ("pytest", PYTEST, false),
    (
        "jest",
        "ci coverage t|testNamePattern|test-name-pattern=v silent verbose \
         i|runInBand|run-in-band passWithNoTests|pass-with-no-tests u|updateSnapshot \
         bail=? watch watchAll c|config=v",
        false,
    ),
    (
        "vitest",
        "run coverage t|testNamePattern=v silent reporter=v u|update watch bail=n c|config=v",
        false,
    ),
    (
        "tsc",
        "noEmit p|project=v b|build pretty=? incremental strict",
        false,
    ),
    (
        "eslint",
        "fix quiet max-warnings=n ext=v cache color no-color c|config=v",
        false,
    ),
    (
        "prettier",
        "c|check w|write l|list-different log-level=v config=v",
        false,
    ),
    (
        "ruff",
        "fix diff check q|quiet statistics show-fixes no-cache select=v ignore=v \
         output-format=v",
        false,
    ),
    (
        "black",
        "check diff q|quiet v|verbose l|line-length=n fast",
        false,
    ),
    (
        "mypy",
        "strict ignore-missing-imports no-error-summary pretty show-error-codes config-file=v",
        false,
    ),
    ("rustfmt", "check edition=v v|verbose q|quiet", false),
];

/// The `-D` properties Maven may be given in a routine build (others set plugins'
/// parameters, which may name programs, extensions or places elsewhere).
const MAVEN_PROPERTIES: &[&str] = &[
    "skipTests",
    "maven.test.skip",
    "skipITs",
    "test",
    "it.test",
    "surefire.failIfNoSpecifiedTests",
    "maven.javadoc.skip",
];

/// Why the arguments `args` (literal words) of the development tool `program` are not a
/// routine build's, if they are not: an option the tool's list does not know, an operand of
/// Maven or Gradle that is not one of the phases or tasks `phases` (`mvn test deploy`), or a
/// package of Go's that is not the workspace's.
/// `module` is the import path of the Go module the command runs in, if known: its packages
/// are the workspace's.
pub(super) fn unproven(
    program: &str,
    phases: &[&str],
    args: &[&str],
    module: Option<&str>,
) -> Option<String> {
    let Some((_, spec, one_dash)) = ROUTINE_OPTIONS.iter().find(|(p, _, _)| *p == program) else {
        return Some(format!("the options of `{program}` are not known"));
    };
    let options = Options::parse(&format!("{COMMON} {spec}"));
    // Go's subcommand comes first; `go run PKG ARGS` gives the words after the package to
    // the program.
    let (sub, args) = match (program, args.split_first()) {
        ("go", Some((sub, rest))) if !sub.starts_with('-') => (Some(*sub), rest),
        _ => (None, args),
    };
    let words: Vec<Word> = args
        .iter()
        .map(|a| {
            Word::literal_text(if *one_dash {
                one_dash_long(a, &options)
            } else {
                (*a).to_owned()
            })
        })
        .collect();
    let syntax = if sub == Some("run") {
        Syntax::Posix
    } else {
        Syntax::Gnu
    };
    let items = match cursor::read(&words, &options, syntax, false) {
        Ok(items) => items,
        Err(why) => return Some(format!("`{program}`: {why}")),
    };
    let operands: Vec<&str> = items
        .iter()
        .filter_map(|i| match i {
            Item::Operand(_, w) => Some(w.text()),
            Item::Opt(..) => None,
        })
        .collect();
    if program == "mvn" {
        let property = items.iter().find_map(|i| match i {
            Item::Opt(o, v) if o.display == "-D" => {
                let v = v.as_ref().map_or("", Word::text);
                let key = v.split_once('=').map_or(v, |(k, _)| k);
                (!MAVEN_PROPERTIES.contains(&key)).then(|| key.to_owned())
            }
            _ => None,
        });
        if let Some(key) = property {
            return Some(format!("`mvn -D{key}` sets a plugin's parameter"));
        }
    }
    if matches!(program, "mvn" | "gradle")
        && let Some(other) = operands.iter().find(|o| !phases.contains(o))
    {
        return Some(format!(
            "`{program} {other}` is not a routine phase or task"
        ));
    }
    if program == "go" {
        return go_packages(sub, &operands, module);
    }
    None
}

/// The option word `arg` of a tool that reads long options with one dash (Go's flag package,
/// Maven's `-pl`), written the way the cursor reads long options: `-run=X` is `--run=X` when
/// `run` is a long option of the list, `--v` is `-v`.
fn one_dash_long(arg: &str, options: &Options) -> String {
    let Some(rest) = arg.strip_prefix('-').filter(|r| !r.is_empty() && *r != "-") else {
        return arg.to_owned();
    };
    let bare = rest.strip_prefix('-').unwrap_or(rest);
    let name = bare.split_once('=').map_or(bare, |(n, _)| n);
    if name.chars().count() == 1 {
        format!("-{bare}")
    } else if options.long(name).is_some() {
        format!("--{bare}")
    } else {
        arg.to_owned()
    }
}

/// Why the packages a `go` command names are not the workspace's own, if they are not.
///
/// The `go` command reads a package argument that does not begin with `.` or `/` as an
/// import path: the standard library (`std`, `net/http`, `fmt`), a meta-package (`all`,
/// `cmd`), or a module it downloads (`golang.org/x/tools/...@latest`); its code and tests
/// are not the workspace's. A relative path (`.`, `./...`, `./cmd/app`), a `.go` file, or
/// the import path of the module the command runs in (`example.com/m/...`), when its first
/// element names a host as a module's must, is. (`go run` gives the words after its
/// package to the program.)
fn go_packages(sub: Option<&str>, operands: &[&str], module: Option<&str>) -> Option<String> {
    let take = if sub == Some("run") {
        1
    } else {
        operands.len()
    };
    let own = |p: &str| {
        module
            .filter(|m| m.split('/').next().is_some_and(|host| host.contains('.')))
            .is_some_and(|m| {
                !p.contains('@')
                    && p.strip_prefix(m)
                        .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
            })
    };
    operands
        .iter()
        .take(take)
        .find(|p| !(**p == "." || p.starts_with("./") || p.ends_with(".go") || own(p)))
        .map(|p| {
            format!(
                "`go {}` builds `{p}`, which is not a package of the workspace",
                sub.unwrap_or_default()
            )
        })
}

#[cfg(test)]
mod tests {
    use super::unproven;

    fn routine(program: &str, line: &str) -> bool {
        let args: Vec<&str> = line.split_whitespace().collect();
        unproven(
            program,
            &["test", "compile", "build", "check"],
            &args,
            Some("example.com/m"),
        )
        .is_none()
    }

    #[test]
    fn pytest_options_that_delete_upload_or_load_code_are_not_routine() {
        for line in [
            "--basetemp=src",
            "--basetemp src",
            "--basetem=src",
            "--basetemp=./docs",
            "--pastebin=all",
            "--paste=all",
            "--pastebin failed",
            "--pyargs pkg",
            "-o addopts=-p",
            "--override-ini=addopts=-pevil",
            "-p evil",
            "-pevil",
            "-qp evil",
            "--rootdir=/",
            "--confcutdir=..",
            "--import-mode=importlib",
            "-W error::evil.Warning",
            "--junitxml=src/work.py",
            "--maxf=1",
        ] {
            assert!(!routine("pytest", line), "{line}");
        }
        for line in [
            "",
            "-q",
            "-x -k name tests/",
            "--maxfail=1",
            "-xvs tests/test_a.py",
            "-rs -q",
            "--lf -q",
            "-k 'not slow' -m unit",
            "tests -- -q",
        ] {
            assert!(routine("pytest", line), "{line}");
        }
    }

    #[test]
    fn every_routine_tool_refuses_options_it_does_not_know() {
        for (program, line) in [
            ("cargo", "test --config build.rustc-wrapper=x"),
            ("cargo", "build --target-dir /tmp/x"),
            ("cargo", "test -Zunstable-options"),
            ("cargo", "test --rel"),
            ("cargo", "doc --open"),
            ("npm", "test --script-shell=/tmp/sh"),
            ("npm", "test --scr=x"),
            ("npm", "run build --userconfig x"),
            ("yarn", "test --cache-folder=/tmp"),
            ("make", "--eval=x"),
            ("make", "-E x"),
            ("make", "--ev x"),
            ("mvn", "test -Dexec.executable=sh"),
            ("mvn", "test -Dmaven.ext.class.path=x.jar"),
            ("mvn", "test -s settings.xml"),
            ("gradle", "test -I init.gradle"),
            ("gradle", "test -Dorg.gradle.jvmargs=x"),
            ("jest", "--rootDir /tmp/x"),
            ("vitest", "run --root /tmp/x"),
            ("eslint", "-f evil src"),
            ("eslint", "--rulesdir x src"),
            ("prettier", "--plugin=x --write ."),
            ("mypy", "--python-executable /tmp/py"),
            ("tsc", "--outDir /tmp/x"),
            ("go", "test -exec foo ./..."),
            ("go", "test -ldflags=-extld=/tmp/x ./..."),
            ("go", "build -modfile=x.mod ./..."),
            ("go", "test -C .. ./..."),
            ("mvn", "test deploy"),
            ("mvn", "package exec:exec"),
            ("gradle", "build publish"),
        ] {
            assert!(!routine(program, line), "{program} {line}");
        }
        for (program, line) in [
            // A settings file given by name is read where it leads (`routine_builds`).
            ("jest", "--config jest.ci.json"),
            ("vitest", "run -c vitest.ci.config.ts"),
            ("cargo", "test --release"),
            ("cargo", "test --workspace -- --nocapture"),
            ("cargo", "clippy --all-targets -- -D warnings"),
            ("cargo", "fmt --check"),
            ("npm", "test"),
            ("npm", "run build --if-present"),
            ("pnpm", "-r test"),
            ("make", "-j4 test"),
            ("make", "-j 4 -k all"),
            ("mvn", "-q test -DskipTests"),
            ("gradle", "test --offline"),
            ("jest", "--ci --coverage"),
            ("tsc", "--noEmit -p tsconfig.json"),
            ("go", "test ./..."),
            ("go", "test -run TestX -v ./..."),
            ("go", "test --run=TestX -count=1 ./pkg/..."),
            ("go", "build -o bin/app ."),
            ("go", "run . --flag value"),
            ("go", "run -race ."),
            ("go", "run main.go -x"),
        ] {
            assert!(routine(program, line), "{program} {line}");
        }
    }

    #[test]
    fn go_packages_outside_the_workspace_are_not_routine() {
        for line in [
            "test std",
            "test net/http",
            "test all",
            "test cmd",
            "run fmt",
            "run golang.org/x/tools/cmd/stringer@latest",
            "build example.com/other/cmd/app",
            "build example.com/mm",
            "run example.com/m@latest",
            "vet ./... std",
            "list -deps std",
            "test -v -run X net/http",
        ] {
            assert!(!routine("go", line), "{line}");
        }
        for line in [
            "test",
            "build",
            "vet ./...",
            "run .",
            "test ./a ./b/...",
            "list ./...",
        ] {
            assert!(routine("go", line), "{line}");
        }
    }
}
