//! Configuration files that make a build tool, a package manager or a toolchain selector run a
//! program named in them: a `rustc-wrapper`, a `script-shell`, a `yarnPath` outside the
//! project, a toolchain `path`, a package manager downloaded from a URL. Tools read them from
//! the directory they start in and every directory above it, so the callers look in each.

use std::path::Path;

/// Files that may name programs whatever they hold (their languages are too rich to read:
/// cargo's `[build]`/`[target]` tables, Maven's JVM options and extensions, Bazel's rc, mise's
/// tasks, hooks and `[env]` sources).
const ALWAYS: &[&str] = &[
    ".cargo/config.toml",
    ".cargo/config",
    ".mvn/jvm.config",
    ".mvn/extensions.xml",
    ".mvn/maven.config",
    ".bazelrc",
    "mise.toml",
    ".mise.toml",
    "mise.local.toml",
    ".mise.local.toml",
    ".mise/config.toml",
    ".config/mise.toml",
    ".config/mise/config.toml",
    ".rtx.toml",
];

/// `KEY=VALUE` / `key: value` files whose keys the tool reads, and the keys among them whose
/// value is a program, a shell or code to run whatever it looks like. Any other key whose value
/// names a place outside the project (absolute, `~`, `..`, a URL that is not a registry) runs or
/// loads something from there.
const KEYED: &[(&str, &[&str])] = &[
    (
        ".npmrc",
        &[
            "script-shell",
            "node-options",
            "shell",
            "git",
            "editor",
            "onload-script",
            "init-module",
            "use-node-version",
            "globalconfig",
            "userconfig",
        ],
    ),
    (".yarnrc", &["yarn-path", "script-shell"]),
    (".yarnrc.yml", &["nodeOptions"]),
    // pnpm 10 reads its settings there too.
    (
        "pnpm-workspace.yaml",
        &[
            "scriptShell",
            "nodeOptions",
            "shellEmulator",
            "pnpmfile",
            "globalPnpmfile",
            "useNodeVersion",
            "executionEnv",
            "node-options",
            "script-shell",
        ],
    ),
    ("bunfig.toml", &["shell"]),
    (".tool-versions", &[]),
];

/// Whether a configuration value names a place outside the project: an absolute path, the home
/// directory, a parent directory, a URL, or an asdf/mise `path:`/`ref:` version.
fn outside(value: &str) -> bool {
    let value = value.trim().trim_matches(['"', '\'']);
    value.contains("://")
        || value
            .split([' ', '\t', ',', '=', '[', ']', '"', '\''])
            .filter(|piece| !piece.is_empty())
            .any(|piece| {
                piece.starts_with(['/', '~', '\\'])
                    || (piece.len() > 5 && piece.starts_with("path:"))
                    || (piece.len() > 4 && piece.starts_with("ref:"))
                    || piece.split(['/', '\\']).any(|c| c == "..")
            })
}

/// Whether the text of a `KEY=VALUE` / `key: value` configuration names a program to run.
///
/// Each line is read alone, so only lines that say all they mean on their own are modeled:
/// a line that continues a value (no separator: a YAML plain scalar on the next line, a
/// TOML array's element), a multi-line string (`"""`), a YAML block scalar (`|`, `>`),
/// anchor, alias, tag or flow map, or a section header that is not a plain name counts as
/// naming a program. So does a value the tool expands (`${VAR}`, `$VAR`, `%VAR%`: Yarn
/// Berry and npm expand environment variables in their files) outside a registry line.
fn keyed_names_program(text: &str, code_keys: &[&str]) -> bool {
    text.lines().any(|line| {
        let line = line.trim();
        if line.is_empty() || line.starts_with(['#', ';']) || line == "---" {
            return false;
        }
        if line.contains("\"\"\"") || line.contains("'''") {
            return true;
        }
        if line.starts_with('[') {
            // `[toolchain]`, `[install.scopes]`, `[[x]]`; anything else is a value.
            return !line.ends_with(']')
                || !line
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "[]._-\" ".contains(c));
        }
        let Some(at) = line.find(['=', ':', ' ', '\t']) else {
            return true;
        };
        let (key, value) = (line[..at].trim(), &line[at + 1..]);
        let key = key.trim_matches(['"', '\'']);
        if value.trim().starts_with(['|', '>', '&', '*', '!', '{']) {
            return true;
        }
        // `registry=…`, `@scope:registry=…`, `//host/:_authToken=…`, `npmRegistryServer: …`.
        let registry = line.starts_with("//")
            || line
                .split(['=', ' ', '\t'])
                .next()
                .is_some_and(|k| k.to_ascii_lowercase().contains("registry"));
        let expands = value.contains(['$', '%']);
        code_keys.iter().any(|k| k.eq_ignore_ascii_case(key))
            || (!registry && (outside(value) || outside(key) || expands))
    })
}

/// Whether a `package.json` has corepack fetch its package manager from a URL
/// (`"packageManager": "yarn@https://…"`); an unreadable one may.
fn package_manager_from_url(text: &str) -> bool {
    let Ok(json) = serde_json::from_str::<serde_json::Value>(text) else {
        return true;
    };
    json.get("packageManager").is_some_and(|v| {
        v.as_str()
            .is_none_or(|s| s.contains(':') || s.contains('/'))
    })
}

/// The settings files of the projects' own checkers, which they look for in the directory they
/// start in and, for some, in every directory above it (read by
/// [`super::tool_settings`] and by the reviewer's look above the workspace).
pub(crate) const TSC_FILES: &[&str] = &["tsconfig.json"];

/// mypy's settings files ([`TSC_FILES`]).
pub(crate) const MYPY_FILES: &[&str] = &["mypy.ini", ".mypy.ini", "pyproject.toml", "setup.cfg"];

/// ESLint's settings files ([`TSC_FILES`]).
pub(crate) const ESLINT_FILES: &[&str] = &[
    "package.json",
    "eslint.config.js",
    "eslint.config.mjs",
    "eslint.config.cjs",
    "eslint.config.ts",
    "eslint.config.mts",
    "eslint.config.cts",
    ".eslintrc",
    ".eslintrc.js",
    ".eslintrc.cjs",
    ".eslintrc.json",
    ".eslintrc.yaml",
    ".eslintrc.yml",
];

/// Prettier's settings files ([`TSC_FILES`]).
pub(crate) const PRETTIER_FILES: &[&str] = &[
    "package.json",
    "package.yaml",
    ".prettierrc",
    ".prettierrc.json",
    ".prettierrc.json5",
    ".prettierrc.yaml",
    ".prettierrc.yml",
    ".prettierrc.toml",
    ".prettierrc.js",
    ".prettierrc.cjs",
    ".prettierrc.mjs",
    ".prettierrc.ts",
    ".prettierrc.cts",
    ".prettierrc.mts",
    "prettier.config.js",
    "prettier.config.cjs",
    "prettier.config.mjs",
    "prettier.config.ts",
    "prettier.config.cts",
    "prettier.config.mts",
];

/// Jest's settings files ([`TSC_FILES`]).
pub(crate) const JEST_FILES: &[&str] = &[
    "package.json",
    "jest.config.js",
    "jest.config.ts",
    "jest.config.mjs",
    "jest.config.cjs",
    "jest.config.json",
];

/// The files pytest reads its settings from, each with the section that holds them.
const PYTEST_FILES: &[(&str, &str)] = &[
    ("pytest.ini", "[pytest]"),
    (".pytest.ini", "[pytest]"),
    ("pytest.toml", "[pytest]"),
    (".pytest.toml", "[pytest]"),
    ("tox.ini", "[pytest]"),
    ("setup.cfg", "[tool:pytest]"),
    ("pyproject.toml", "[tool.pytest.ini_options]"),
    ("pyproject.toml", "[tool.pytest]"),
];

/// The names of the files pytest reads its settings from ([`PYTEST_FILES`]).
pub(crate) fn pytest_settings_files() -> impl Iterator<Item = &'static str> {
    PYTEST_FILES.iter().map(|(name, _)| *name)
}

/// Options pytest's `addopts` may give that only change what it reports or which tests it
/// runs (`-ra`, `--tb=short`, `-n auto`); each name followed by `=` takes any value. Any
/// other option may load a plugin (`-p`), write a file (`--junitxml`, `--basetemp`, which
/// pytest empties first), or read a configuration or code from elsewhere.
const PYTEST_PLAIN_OPTIONS: &[&str] = &[
    "-q",
    "-qq",
    "-v",
    "-vv",
    "-vvv",
    "-x",
    "-s",
    "-l",
    "--quiet",
    "--verbose",
    "--exitfirst",
    "--showlocals",
    "--strict-markers",
    "--strict-config",
    "--strict",
    "--disable-warnings",
    "--disable-pytest-warnings",
    "--doctest-modules",
    "--doctest-continue-on-failure",
    "--no-header",
    "--no-summary",
    "--tb=",
    "--durations=",
    "--durations-min=",
    "--color=",
    "--code-highlight=",
    "--import-mode=",
    "--maxfail=",
    "--capture=",
    "--dist=",
    "--ff",
    "--lf",
    "--nf",
];

/// Whether the pytest settings in `text` (the part under `section`, a file of
/// [`PYTEST_FILES`]) may have pytest run or load a program from elsewhere or write outside
/// the run's own files: `addopts` with an option not in [`PYTEST_PLAIN_OPTIONS`] (`-p PLUGIN`,
/// `--junitxml=~/.bashrc`, `--basetemp=~/.ssh`, which pytest empties), a `cache_dir`, or a
/// `pythonpath`, `testpaths`, `rootdir` or `confcutdir` naming a place outside the project.
fn pytest_runs_programs(text: &str, section: &str) -> bool {
    // A header or a key as pytest's readers take it: no blanks, no quotes, any case.
    let norm = |t: &str| -> String {
        t.chars()
            .filter(|c| !c.is_whitespace() && !matches!(c, '"' | '\''))
            .collect::<String>()
            .to_ascii_lowercase()
    };
    let wanted = norm(section);
    let table = wanted
        .trim_start_matches('[')
        .trim_end_matches(']')
        .to_owned();
    let mut inside = false;
    let mut key = String::new();
    // Brackets still open in the current value: its next lines are elements (TOML).
    let mut open = 0i32;
    for line in text.lines() {
        let trimmed = line.trim();
        let continued = open > 0 || (line.starts_with([' ', '\t']) && !key.is_empty());
        if !continued && trimmed.starts_with('[') {
            // A header, a comment after it left out (`[pytest] # x`).
            let header = trimmed.split(['#', ';']).next().unwrap_or(trimmed);
            inside = norm(header) == wanted;
            key.clear();
            continue;
        }
        if trimmed.is_empty() || trimmed.starts_with(['#', ';']) {
            continue;
        }
        // An indented line may as well be a key of its own (TOML allows any indent): read
        // both ways, the riskier counts.
        if continued
            && open <= 0
            && inside
            && let Some((k, v)) = trimmed.split_once(['=', ':'])
            && pytest_setting_risky(&norm(k), v)
        {
            return true;
        }
        let value = if continued {
            trimmed
        } else {
            let Some((k, v)) = trimmed.split_once(['=', ':']) else {
                if inside {
                    return true;
                }
                continue;
            };
            let k = norm(k);
            // A dotted key reaching the table from elsewhere (`tool.pytest.ini_options.addopts`).
            match k.strip_prefix(&format!("{table}.")) {
                Some(rest) => rest.clone_into(&mut key),
                None if inside => key = k,
                None => {
                    key.clear();
                    continue;
                }
            }
            open = 0;
            v
        };
        let brackets = |c: char| i32::try_from(value.matches(c).count()).unwrap_or(i32::MAX);
        open = open
            .saturating_add(brackets('['))
            .saturating_sub(brackets(']'));
        if pytest_setting_risky(&key, value) {
            return true;
        }
    }
    false
}

/// Whether the pytest setting `key` (lower case) with `value` (or a line of it) may load a
/// plugin, write elsewhere or read code from outside the project.
fn pytest_setting_risky(key: &str, value: &str) -> bool {
    match key {
        "addopts" => !plain_pytest_options(value),
        "cache_dir" | "log_file" => true,
        "pythonpath" | "testpaths" | "rootdir" | "confcutdir" => {
            outside(value) || value.contains(['$', '%'])
        }
        _ => false,
    }
}

/// Whether every option of an `addopts` value (INI words or a TOML array's strings) is one of
/// [`PYTEST_PLAIN_OPTIONS`], `-r` with report letters, `-p no:NAME` (a plugin turned off) or
/// `-n` with a number or `auto`.
fn plain_pytest_options(value: &str) -> bool {
    let words: Vec<&str> = value
        .split(|c: char| c.is_whitespace() || "[],\"'".contains(c))
        .filter(|w| !w.is_empty())
        .collect();
    let mut it = words.iter().peekable();
    while let Some(w) = it.next() {
        let plain = PYTEST_PLAIN_OPTIONS.iter().any(|o| {
            if o.ends_with('=') {
                w.starts_with(o)
            } else {
                w == o
            }
        }) || (w.len() > 2
            && w.starts_with("-r")
            && w[2..].bytes().all(|b| b"fEsxXpPaAN".contains(&b)));
        if plain {
            continue;
        }
        match (*w, it.peek()) {
            ("-p", Some(v)) if v.starts_with("no:") => {
                it.next();
            }
            ("-n", Some(v)) if *v == &"auto" || v.bytes().all(|b| b.is_ascii_digit()) => {
                it.next();
            }
            _ => return false,
        }
    }
    true
}

/// Whether a `package.json` has corepack run a package manager from elsewhere: one fetched
/// from a URL ([`package_manager_from_url`]), or a release its cache does not hold, which
/// corepack's `yarn` and `pnpm` download and run (`"packageManager": "yarn@4.1.0"`).
fn package_manager_elsewhere(text: &str) -> bool {
    package_manager_from_url(text) || !package_manager_cached(text, &corepack_caches())
}

/// The directories corepack keeps the package managers it downloaded in: `COREPACK_HOME`, or
/// `node/corepack` under the cache directory (`XDG_CACHE_HOME`, `~/.cache`).
fn corepack_caches() -> Vec<std::path::PathBuf> {
    let var = |n: &str| crate::process_env::var(n).map(|v| std::path::PathBuf::from(&*v));
    if let Some(home) = var("COREPACK_HOME") {
        return vec![home];
    }
    var("XDG_CACHE_HOME")
        .or_else(|| var("HOME").map(|h| h.join(".cache")))
        .map(|cache| vec![cache.join("node/corepack")])
        .unwrap_or_default()
}

/// Whether the package manager a `package.json` pins (`"packageManager": "NAME@VERSION"`,
/// a `+HASH` after it) is in one of corepack's `caches` (`v1/NAME/VERSION`, or `NAME/VERSION`
/// of older releases); true when it pins none.
fn package_manager_cached(text: &str, caches: &[std::path::PathBuf]) -> bool {
    let Ok(json) = serde_json::from_str::<serde_json::Value>(text) else {
        return false;
    };
    // corepack takes the pin from `devEngines.packageManager` when `packageManager` is
    // absent: a version range there is not one release it holds.
    if json.pointer("/devEngines/packageManager").is_some() && json.get("packageManager").is_none()
    {
        return false;
    }
    let Some(pin) = json.get("packageManager") else {
        return true;
    };
    let Some((name, version)) = pin.as_str().and_then(|p| p.split_once('@')) else {
        return false;
    };
    let version = version.split('+').next().unwrap_or(version);
    let plain = |t: &str| {
        !t.is_empty()
            && !t.starts_with('.')
            && t.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"._-".contains(&b))
    };
    plain(name)
        && plain(version)
        && caches.iter().any(|c| {
            c.join("v1").join(name).join(version).is_dir() || c.join(name).join(version).is_dir()
        })
}

/// Whether running `program` (`yarn`, `pnpm`) goes through corepack's shim (found on `PATH`
/// as a link into corepack) with no release of it pinned by the `package.json` in `dir`
/// that its cache holds: corepack then downloads its default release (`lastKnownGood.json`
/// names it) and runs it.
pub(crate) fn corepack_downloads(program: &str, dir: &Path) -> bool {
    if !matches!(program, "yarn" | "yarnpkg" | "pnpm" | "pnpx") {
        return false;
    }
    let Some(path) = crate::process_env::var("PATH") else {
        return false;
    };
    let shim = std::env::split_paths(&*path)
        .map(|d| d.join(program))
        .find(|p| p.is_file())
        .and_then(|p| std::fs::canonicalize(p).ok())
        .is_some_and(|real| real.components().any(|c| c.as_os_str() == "corepack"));
    if !shim {
        return false;
    }
    let pinned = read(&dir.join("package.json")).filter(|t| {
        serde_json::from_str::<serde_json::Value>(t)
            .is_ok_and(|json| json.get("packageManager").is_some())
    });
    if let Some(text) = pinned {
        return !package_manager_cached(&text, &corepack_caches());
    }
    // No pin: the release `lastKnownGood.json` names must be in the cache.
    let name = if program.starts_with("pnp") {
        "pnpm"
    } else {
        "yarn"
    };
    !corepack_caches().iter().any(|cache| {
        read(&cache.join("lastKnownGood.json"))
            .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
            .and_then(|j| j.get(name).and_then(|v| v.as_str()).map(str::to_owned))
            .is_some_and(|v| {
                let pin = format!("{{\"packageManager\":\"{name}@{v}\"}}");
                package_manager_cached(&pin, std::slice::from_ref(cache))
            })
    })
}

/// The first file in `dir` that configures a tool to run a program from elsewhere, as the path
/// from `dir`; a file that cannot be read counts.
pub(crate) fn runs_programs(dir: &Path) -> Option<&'static str> {
    runs_programs_read(dir, &|_| true)
}

/// [`runs_programs`] among the files for which `counts` holds.
fn runs_programs_read(dir: &Path, counts: &dyn Fn(&str) -> bool) -> Option<&'static str> {
    if let Some(name) = ALWAYS
        .iter()
        .filter(|n| counts(n))
        .find(|n| std::fs::symlink_metadata(dir.join(n)).is_ok())
    {
        return Some(name);
    }
    for (name, code_keys) in KEYED.iter().filter(|(n, _)| counts(n)) {
        let path = dir.join(name);
        if std::fs::symlink_metadata(&path).is_err() {
            continue;
        }
        match read(&path) {
            Some(text) if !keyed_names_program(&text, code_keys) => {}
            _ => return Some(name),
        }
    }
    let gradle = dir.join("gradle.properties");
    if std::fs::symlink_metadata(&gradle).is_ok()
        && read(&gradle).is_none_or(|text| {
            let text = text.to_ascii_lowercase();
            ["jvmargs", "javaagent", "initscript", "java.home"]
                .iter()
                .any(|k| text.contains(k))
        })
    {
        return Some("gradle.properties");
    }
    if let Some(name) =
        PYTEST_FILES
            .iter()
            .filter(|(n, _)| counts(n))
            .find_map(|(name, section)| {
                let path = dir.join(name);
                std::fs::symlink_metadata(&path).is_ok().then_some(())?;
                read(&path)
                    .is_none_or(|text| pytest_runs_programs(&text, section))
                    .then_some(*name)
            })
    {
        return Some(name);
    }
    let package = dir.join("package.json");
    if counts("package.json")
        && std::fs::symlink_metadata(&package).is_ok()
        && read(&package).is_none_or(|t| package_manager_elsewhere(&t))
    {
        return Some("package.json");
    }
    None
}

/// Files in a person's home directory that make a build tool run a program, besides those it
/// reads in every directory ([`runs_programs`]: `~/.cargo/config.toml`, `~/.npmrc`, …):
/// Maven's start-up script (`mvn` sources `~/.mavenrc`), Gradle's init scripts and JVM
/// options, Go's environment file (`GOFLAGS=-toolexec=…`), bun's global configuration, mypy's
/// user configuration (its plugins).
const USER_FILES: &[&str] = &[
    ".mavenrc",
    ".m2/extensions.xml",
    ".gradle/init.gradle",
    ".gradle/init.gradle.kts",
    ".gradle/init.d",
    ".gradle/gradle.properties",
    ".config/go/env",
    ".bunfig.toml",
    ".config/.bunfig.toml",
    ".config/mypy/config",
];

/// Configuration files in a person's home directory that only the Node package managers and
/// the helpers they run read (`~/.npmrc`'s `nodedir=`, `script-shell=`; Yarn's and bun's
/// settings), and those programs. Another build reaches them only through the workspace's own
/// code running one of these, which the build runs anyway.
const NODE_PACKAGE_FILES: &[&str] = &[
    ".npmrc",
    ".yarnrc",
    ".yarnrc.yml",
    "bunfig.toml",
    ".bunfig.toml",
    ".config/.bunfig.toml",
    "package.json",
];

/// The programs that read [`NODE_PACKAGE_FILES`].
const NODE_PACKAGE_PROGRAMS: &[&str] = &[
    "npm", "npx", "pnpm", "pnpx", "yarn", "yarnpkg", "bun", "bunx", "node-gyp", "corepack", "node",
];

/// The first file in the home directory `home` that configures a build run by `programs` (the
/// programs of the command) to run a program from elsewhere, as the path from `home`; a file
/// that cannot be read counts. The Node package managers' files count only for a command
/// that runs one of them.
pub(crate) fn user_runs_programs(home: &Path, programs: &[&str]) -> Option<&'static str> {
    let node = programs.iter().any(|p| {
        let base = p.rsplit('/').next().unwrap_or(p);
        NODE_PACKAGE_PROGRAMS.contains(&base)
    });
    let counts = |name: &str| node || !NODE_PACKAGE_FILES.contains(&name);
    runs_programs_read(home, &counts).or_else(|| {
        USER_FILES
            .iter()
            .filter(|n| counts(n))
            .find(|n| std::fs::symlink_metadata(home.join(n)).is_ok())
            .copied()
    })
}

/// The first of cargo's configuration files (those [`ALWAYS`] names under `.cargo/`) in
/// cargo's home directory `cargo_home` (`CARGO_HOME`), which cargo reads besides those above
/// the directory it starts in.
pub(crate) fn cargo_home_config(cargo_home: &Path) -> Option<&'static str> {
    ALWAYS
        .iter()
        .filter_map(|n| n.strip_prefix(".cargo/"))
        .find(|n| std::fs::symlink_metadata(cargo_home.join(n)).is_ok())
}

/// Whether the configuration file at `path` (one of the names a toolchain reads) may name a
/// program to run: files whose keys are read are judged by what they hold, others count.
pub(crate) fn names_program(path: &Path) -> bool {
    let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
        return true;
    };
    if name == "package.json" {
        return read(path).is_none_or(|t| package_manager_elsewhere(&t));
    }
    if matches!(name, "rust-toolchain.toml" | "rust-toolchain") {
        return read(path).is_none_or(|t| !installed_channel(&t));
    }
    let Some((_, code_keys)) = KEYED.iter().find(|(n, _)| *n == name) else {
        return true;
    };
    read(path).is_none_or(|text| keyed_names_program(&text, code_keys))
}

/// Whether a Rust toolchain file (`rust-toolchain.toml`, or `rust-toolchain` in either of
/// its forms) names nothing but a channel rustup has installed for this machine: then the
/// proxies run that toolchain's own binaries and download nothing. A `path`, components,
/// targets, any other key, or a channel not installed (rustup would download it) do not.
fn installed_channel(text: &str) -> bool {
    let home = crate::process_env::non_empty("RUSTUP_HOME")
        .map(|h| std::path::PathBuf::from(h.into_owned()))
        .or_else(|| {
            crate::process_env::non_empty("HOME")
                .map(|h| std::path::PathBuf::from(h.into_owned()).join(".rustup"))
        });
    home.is_some_and(|h| installed_channel_in(text, &h.join("toolchains")))
}

/// [`installed_channel`] with rustup's toolchains in `toolchains`.
fn installed_channel_in(text: &str, toolchains: &Path) -> bool {
    let channel = match text.parse::<toml::Table>() {
        Ok(table) => {
            let Some(toml::Value::Table(toolchain)) = table.get("toolchain") else {
                return false;
            };
            if table.len() != 1
                || toolchain
                    .keys()
                    .any(|k| !matches!(k.as_str(), "channel" | "profile"))
            {
                return false;
            }
            match toolchain.get("channel") {
                Some(toml::Value::String(c)) => c.clone(),
                _ => return false,
            }
        }
        // The legacy form: the channel's name alone.
        Err(_) => match text.split_whitespace().collect::<Vec<_>>()[..] {
            [c] if text.lines().filter(|l| !l.trim().is_empty()).count() == 1 => c.to_owned(),
            _ => return false,
        },
    };
    if channel.is_empty()
        || !channel
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b'_'))
    {
        return false;
    }
    // `stable-x86_64-unknown-linux-gnu`: the channel, then this machine's triple (not a
    // dated one, `nightly-2024-01-01-…`, which `nightly` does not select), a directory of
    // its own (a linked toolchain is a link to anywhere).
    let Ok(entries) = std::fs::read_dir(toolchains) else {
        return false;
    };
    entries.flatten().any(|entry| {
        let name = entry.file_name();
        name.to_str()
            .and_then(|n| n.strip_prefix(channel.as_str()))
            .and_then(|rest| rest.strip_prefix('-'))
            .and_then(|triple| triple.strip_prefix(std::env::consts::ARCH))
            .is_some_and(|rest| rest.starts_with('-'))
            && entry.file_type().is_ok_and(|t| t.is_dir())
    })
}

/// Whether `program` runs a binary of its own rather than a version manager's shim, which
/// picks the binary from selector files ([`super::VERSION_SELECTORS`]): the first `program`
/// in the directories of the evaluator's `PATH` is, links followed, an ELF executable named
/// for the program (`python3` may be `python3.12`) or rustup (whose proxies read Rust's own
/// toolchain files only), outside any version manager's directory.
/// A script (asdf's, pyenv's and nodenv's shims), a link to another program (mise's and
/// Volta's shims link to their own binary), or a relative directory in `PATH` is not.
pub(crate) fn runs_directly(program: &str) -> bool {
    runs_directly_in(
        program,
        &crate::process_env::var("PATH").unwrap_or_default(),
    )
}

/// [`runs_directly`] with `path` as `PATH`.
fn runs_directly_in(program: &str, path: &std::ffi::OsStr) -> bool {
    use std::io::Read;
    use std::os::unix::fs::PermissionsExt;
    if program.is_empty() || program.contains('/') {
        return false;
    }
    for dir in std::env::split_paths(path) {
        if !dir.is_absolute() {
            return false;
        }
        let candidate = dir.join(program);
        let Ok(meta) = std::fs::metadata(&candidate) else {
            continue;
        };
        if !meta.is_file() || meta.permissions().mode() & 0o111 == 0 {
            continue;
        }
        let Ok(real) = std::fs::canonicalize(&candidate) else {
            return false;
        };
        const MANAGERS: &[&str] = &[
            "shims", ".volta", "volta", "mise", ".mise", "rtx", ".asdf", "asdf", ".proto", "proto",
            ".sdkman", "sdkman", ".nodenv", ".pyenv", ".rbenv", ".goenv", ".jenv",
        ];
        let managed = real.components().any(|c| {
            c.as_os_str()
                .to_str()
                .is_some_and(|c| MANAGERS.contains(&c))
        });
        let named = real
            .file_name()
            .and_then(|n| n.to_str())
            // rustup's proxies (`cargo`, `rustc`) read Rust's own toolchain files only.
            .is_some_and(|n| n.starts_with(program) || n == "rustup");
        let mut magic = [0u8; 4];
        let elf = std::fs::File::open(&real)
            .and_then(|mut f| f.read_exact(&mut magic))
            .is_ok()
            && magic == *b"\x7fELF";
        return elf && named && !managed;
    }
    false
}

/// The most cargo manifests read for one build; past it, the build counts as compiling code
/// from elsewhere.
const MAX_MANIFESTS: usize = 256;

/// The target tables of a cargo manifest, whose `path` names the source they compile.
const TARGET_TABLES: &[&str] = &["lib", "bin", "example", "test", "bench"];

/// What a cargo build started in any of `starts` (directories inside the workspace `root`,
/// resolved) compiles or runs from outside the workspace, in words; `None` when every crate
/// it builds is the workspace's own or the registry's.
///
/// The manifests cargo reads are followed: the nearest `Cargo.toml` above each start, the
/// workspace's members, and every `path` dependency. A dependency, `[patch]` or `[replace]`
/// entry with a `path` outside the workspace (its `build.rs` runs at build time), a `git`
/// source or an index of its own, a target, build script or workspace root named outside, a
/// manifest that cannot be read, one above the workspace that may be its workspace root, or
/// more manifests than are read, all count.
pub(crate) fn cargo_code_outside(root: &Path, starts: &[std::path::PathBuf]) -> Option<String> {
    let mut queue: Vec<std::path::PathBuf> = Vec::new();
    for start in starts {
        let mut at = Some(start.as_path());
        while let Some(dir) = at.filter(|d| d.starts_with(root)) {
            if dir.join("Cargo.toml").exists() {
                queue.push(dir.to_path_buf());
            }
            at = dir.parent();
        }
    }
    if queue.is_empty() {
        return None;
    }
    let mut seen: Vec<std::path::PathBuf> = Vec::new();
    let mut workspace_root_inside = false;
    while let Some(dir) = queue.pop() {
        if seen.contains(&dir) {
            continue;
        }
        if seen.len() >= MAX_MANIFESTS {
            return Some(format!(
                "the build reads more than {MAX_MANIFESTS} manifests, more than are checked"
            ));
        }
        seen.push(dir.clone());
        let shown = dir
            .strip_prefix(root)
            .map(|r| r.join("Cargo.toml"))
            .unwrap_or_else(|_| dir.join("Cargo.toml"));
        let manifest = match read(&dir.join("Cargo.toml")).map(|t| t.parse::<toml::Table>()) {
            Some(Ok(m)) => m,
            // A member or dependency that does not exist fails the build before it runs.
            None if !dir.join("Cargo.toml").exists() => continue,
            _ => return Some(format!("`{}` cannot be read", shown.display())),
        };
        if dir == root && manifest.contains_key("workspace") {
            workspace_root_inside = true;
        }
        let mut found = Vec::new();
        manifest_places(&manifest, &mut found);
        for place in found {
            match place {
                Place::Elsewhere(what) => {
                    return Some(format!("`{}` {what}", shown.display()));
                }
                Place::Path(rel, dependency) => {
                    let Some(inside) = inside_root(root, &dir, &rel) else {
                        return Some(format!(
                            "`{}` names `{rel}`, outside the workspace",
                            shown.display()
                        ));
                    };
                    if dependency {
                        queue.push(inside);
                    }
                }
                Place::Members(pattern) => match members(root, &dir, &pattern) {
                    Ok(dirs) => queue.extend(dirs),
                    Err(()) => {
                        return Some(format!(
                            "`{}` names members `{pattern}` that are not read inside the workspace",
                            shown.display()
                        ));
                    }
                },
            }
        }
    }
    // With no workspace root of its own, cargo looks for one in every directory above.
    if !workspace_root_inside {
        let mut at = root.parent();
        while let Some(dir) = at {
            if dir.join("Cargo.toml").exists() {
                return Some(format!(
                    "`{}` above the workspace may be its workspace root",
                    dir.join("Cargo.toml").display()
                ));
            }
            at = dir.parent();
        }
    }
    None
}

/// A place a cargo manifest names.
enum Place {
    /// A path relative to the manifest's directory; whether cargo reads a manifest there (a
    /// `path` dependency) rather than a source file.
    Path(String, bool),
    /// Workspace members, a path or a pattern.
    Members(String),
    /// Code from elsewhere, in words.
    Elsewhere(String),
}

/// Every place a cargo manifest names: dependencies (in every dependency table, the
/// workspace's, `[patch.*]` and `[replace]`), targets' sources, the build script, the
/// workspace root and members.
fn manifest_places(manifest: &toml::Table, out: &mut Vec<Place>) {
    use super::cargo_lock::DEPENDENCY_TABLES;
    use toml::Value;
    let mut tables: Vec<&toml::Table> = DEPENDENCY_TABLES
        .iter()
        .filter_map(|t| manifest.get(*t)?.as_table())
        .collect();
    if let Some(targets) = manifest.get("target").and_then(Value::as_table) {
        for platform in targets.values().filter_map(Value::as_table) {
            tables.extend(
                DEPENDENCY_TABLES
                    .iter()
                    .filter_map(|t| platform.get(*t)?.as_table()),
            );
        }
    }
    let workspace = manifest.get("workspace").and_then(Value::as_table);
    if let Some(deps) = workspace
        .and_then(|w| w.get("dependencies"))
        .and_then(Value::as_table)
    {
        tables.push(deps);
    }
    if let Some(patch) = manifest.get("patch").and_then(Value::as_table) {
        tables.extend(patch.values().filter_map(Value::as_table));
    }
    if let Some(replace) = manifest.get("replace").and_then(Value::as_table) {
        tables.push(replace);
    }
    for (name, spec) in tables.iter().flat_map(|t| t.iter()) {
        let Some(spec) = spec.as_table() else {
            continue;
        };
        for key in ["git", "registry-index", "base"] {
            if let Some(value) = spec.get(key) {
                out.push(Place::Elsewhere(format!(
                    "takes `{name}` from `{key} = {value}`, outside the workspace"
                )));
            }
        }
        match spec.get("path") {
            Some(Value::String(path)) => out.push(Place::Path(path.clone(), true)),
            Some(other) => out.push(Place::Elsewhere(format!(
                "gives `{name}` a path that is not read (`{other}`)"
            ))),
            None => {}
        }
    }
    let package = manifest
        .get("package")
        .or_else(|| manifest.get("project"))
        .and_then(Value::as_table);
    for key in ["build", "workspace"] {
        match package.and_then(|p| p.get(key)) {
            Some(Value::String(path)) => out.push(Place::Path(path.clone(), key == "workspace")),
            Some(Value::Boolean(_)) | None => {}
            Some(other) => out.push(Place::Elsewhere(format!(
                "sets `package.{key}` to `{other}`, which is not read"
            ))),
        }
    }
    for key in TARGET_TABLES {
        let targets: Vec<&toml::Table> = match manifest.get(*key) {
            Some(Value::Table(t)) => vec![t],
            Some(Value::Array(a)) => a.iter().filter_map(Value::as_table).collect(),
            _ => Vec::new(),
        };
        for target in targets {
            if let Some(path) = target.get("path") {
                match path.as_str() {
                    Some(p) => out.push(Place::Path(p.to_owned(), false)),
                    None => out.push(Place::Elsewhere(format!(
                        "gives a `{key}` target a path that is not read"
                    ))),
                }
            }
        }
    }
    if let Some(workspace) = workspace {
        for key in ["members", "default-members"] {
            for member in workspace
                .get(key)
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                match member.as_str() {
                    Some(m) => out.push(Place::Members(m.to_owned())),
                    None => out.push(Place::Elsewhere(format!(
                        "names `workspace.{key}` that are not read"
                    ))),
                }
            }
        }
    }
    if manifest.contains_key("cargo-features") {
        out.push(Place::Elsewhere(
            "enables unstable `cargo-features`, which are not read".to_owned(),
        ));
    }
}

/// `path` (relative to `dir`, or absolute) resolved, when it stays inside `root` once `..`
/// and links are followed (the nearest part that exists is resolved: a file that does not
/// exist yet below a link that leaves is outside too); `None` when it leaves.
fn inside_root(root: &Path, dir: &Path, path: &str) -> Option<std::path::PathBuf> {
    use std::path::Component;
    let mut full = std::path::PathBuf::new();
    for c in dir.join(path).components() {
        match c {
            Component::ParentDir => {
                full.pop();
            }
            Component::CurDir => {}
            other => full.push(other),
        }
    }
    if !full.starts_with(root) {
        return None;
    }
    let real = full
        .ancestors()
        .find_map(|a| std::fs::canonicalize(a).ok())?;
    real.starts_with(root).then_some(full)
}

/// The member directories a workspace's `members` entry names from `dir`: the path itself, or
/// for a pattern (`crates/*`) the directories below its fixed part that match it. `Err` when
/// a member or the directory a pattern is read in leaves the workspace, or the pattern cannot
/// be read.
fn members(root: &Path, dir: &Path, pattern: &str) -> Result<Vec<std::path::PathBuf>, ()> {
    let is_pattern = |c: &str| c.contains(['*', '?', '[', '{']);
    let parts: Vec<&str> = pattern.split('/').filter(|p| !p.is_empty()).collect();
    let fixed = parts.iter().take_while(|p| !is_pattern(p)).count();
    let lead = if pattern.starts_with('/') { "/" } else { "" };
    let base = inside_root(root, dir, &format!("{lead}{}", parts[..fixed].join("/"))).ok_or(())?;
    if fixed == parts.len() {
        return Ok(vec![base]);
    }
    let rest = parts[fixed..].join("/");
    let matcher = globset::GlobBuilder::new(&rest)
        .literal_separator(true)
        .build()
        .map_err(|_| ())?
        .compile_matcher();
    let depth = parts.len() - fixed;
    let mut out = Vec::new();
    let mut level = vec![base.clone()];
    for _ in 0..depth {
        let mut next = Vec::new();
        for d in &level {
            let Ok(entries) = std::fs::read_dir(d) else {
                continue;
            };
            for entry in entries.flatten().take(MAX_MANIFESTS * 4) {
                if entry
                    .file_type()
                    .is_ok_and(|t| t.is_dir() || t.is_symlink())
                {
                    next.push(entry.path());
                }
            }
        }
        level = next;
    }
    for candidate in level {
        let Ok(rel) = candidate.strip_prefix(&base) else {
            continue;
        };
        if matcher.is_match(rel) {
            let name = rel.to_string_lossy().into_owned();
            out.push(inside_root(root, &base, &name).ok_or(())?);
        }
    }
    Ok(out)
}

/// The text of a configuration file, read without blocking and up to a size cap; `None`
/// when it cannot be read in full (missing, not a regular file, too long), which callers count
/// as naming a program.
fn read(path: &Path) -> Option<String> {
    crate::paths::small_file::read_text(path).ok().flatten()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rust_toolchain_file_naming_an_installed_channel_alone_names_no_program() {
        let home = tempfile::tempdir().expect("dir");
        let arch = std::env::consts::ARCH;
        for d in [
            format!("stable-{arch}-unknown-linux-gnu"),
            format!("nightly-2024-01-01-{arch}-unknown-linux-gnu"),
        ] {
            std::fs::create_dir(home.path().join(d)).unwrap();
        }
        let linked = home.path().join(format!("beta-{arch}-unknown-linux-gnu"));
        std::os::unix::fs::symlink("/tmp", &linked).unwrap();
        for text in [
            "[toolchain]\nchannel = \"stable\"\n",
            "[toolchain]\nchannel = \"stable\"\nprofile = \"minimal\"\n",
            "stable\n",
        ] {
            assert!(installed_channel_in(text, home.path()), "{text}");
        }
        for text in [
            "[toolchain]\nchannel = \"stable\"\ncomponents = [\"rustfmt\"]\n",
            "[toolchain]\nchannel = \"stable\"\ntargets = [\"wasm32-unknown-unknown\"]\n",
            "[toolchain]\npath = \"/tmp/evil\"\n",
            "[toolchain]\nchannel = \"1.70\"\n",
            // A dated nightly is not what `nightly` selects; a linked toolchain may be anywhere.
            "nightly\n",
            "beta\n",
            "[toolchain]\nchannel = \"../stable\"\n",
            "stable\nnightly\n",
            "channel = \"stable\"\n",
            "",
        ] {
            assert!(!installed_channel_in(text, home.path()), "{text}");
        }
    }

    #[test]
    fn only_a_binary_of_its_own_runs_directly_not_a_shim() {
        let dir = tempfile::tempdir().expect("dir");
        let bin = dir.path().join("bin");
        let shims = dir.path().join("shims");
        std::fs::create_dir_all(&bin).unwrap();
        std::fs::create_dir_all(&shims).unwrap();
        let elf = std::fs::canonicalize("/bin/true").expect("a binary to copy");
        std::fs::copy(&elf, bin.join("node")).unwrap();
        std::fs::copy(&elf, bin.join("mise")).unwrap();
        std::fs::copy(&elf, shims.join("ruby")).unwrap();
        std::os::unix::fs::symlink(bin.join("mise"), bin.join("python3")).unwrap();
        std::fs::write(bin.join("go"), "#!/bin/sh\nexec asdf exec go \"$@\"\n").unwrap();
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::Permissions::from_mode(0o755);
            std::fs::set_permissions(bin.join("go"), mode).unwrap();
        }
        let path = std::env::join_paths([&bin, &shims]).unwrap();
        assert!(runs_directly_in("node", &path));
        for program in ["python3", "go", "ruby", "missing", "a/node", ""] {
            assert!(!runs_directly_in(program, &path), "{program}");
        }
        assert!(!runs_directly_in(
            "node",
            std::ffi::OsStr::new("bin:/usr/bin")
        ));
    }

    #[test]
    fn node_package_files_in_home_count_only_for_node_package_builds() {
        let home = tempfile::tempdir().expect("dir");
        std::fs::write(home.path().join(".npmrc"), "nodedir=/opt/node\n").expect("write");
        for p in [
            "npm",
            "npx",
            "pnpm",
            "yarn",
            "bun",
            "node-gyp",
            "/usr/bin/npm",
        ] {
            assert_eq!(
                user_runs_programs(home.path(), &["cd", p]),
                Some(".npmrc"),
                "{p}"
            );
        }
        for p in ["cargo", "pytest", "go", "make"] {
            assert_eq!(user_runs_programs(home.path(), &[p]), None, "{p}");
        }
        // Files every build tool reads still count for every build.
        std::fs::create_dir(home.path().join(".cargo")).expect("dir");
        std::fs::write(home.path().join(".cargo/config.toml"), "").expect("write");
        assert_eq!(
            user_runs_programs(home.path(), &["go"]),
            Some(".cargo/config.toml")
        );
    }

    #[test]
    fn keyed_files_name_programs_by_code_keys_and_places_outside() {
        let npm = KEYED[0].1;
        assert!(keyed_names_program("script-shell=/tmp/evil.sh\n", npm));
        assert!(keyed_names_program("node-options=--require ./x.js", npm));
        assert!(!keyed_names_program(
            "registry=https://registry.npmjs.org/\n//registry.npmjs.org/:_authToken=${T}\nsave-exact=true",
            npm
        ));
        assert!(keyed_names_program("yarnPath: /tmp/evil.cjs", &[]));
        assert!(!keyed_names_program(
            "yarnPath: .yarn/releases/yarn-4.1.0.cjs\nnodeLinker: node-modules\nnpmRegistryServer: \"https://r.example\"",
            &["nodeOptions"]
        ));
        assert!(keyed_names_program("nodejs path:/tmp/evil-node", &[]));
        assert!(!keyed_names_program("nodejs 20.11.0\npython 3.12.1", &[]));
        assert!(keyed_names_program(
            "[toolchain]\npath = \"/tmp/evil-tc\"",
            &["path"]
        ));
        assert!(!keyed_names_program(
            "[toolchain]\nchannel = \"1.80\"\ncomponents = [\"clippy\"]",
            &["path"]
        ));
        assert!(keyed_names_program("[run]\nshell = \"bun\"", &["shell"]));
    }

    #[test]
    fn values_that_continue_or_expand_name_programs() {
        let yarn = KEYED[2].1;
        for text in [
            "yarnPath:\n  /tmp/evil.cjs",
            "yarnPath: >-\n  /tmp/evil.cjs",
            "yarnPath: |\n  /tmp/evil.cjs",
            "yarnPath: ${HOME}/evil.cjs",
            "yarnPath: \"${EVIL}\"",
            "yarnPath: $EVIL",
            "yarnPath: *anchor",
            "yarnPath: {a: /tmp/x}",
        ] {
            assert!(keyed_names_program(text, yarn), "{text}");
        }
        assert!(keyed_names_program("cache=${HOME}/x", KEYED[0].1));
        assert!(keyed_names_program(
            "preload = [\n\"/tmp/x.ts\"\n]",
            KEYED[3].1
        ));
        assert!(keyed_names_program(
            "preload = [\n  \"/tmp/x.ts\", \"./b.ts\"\n]",
            KEYED[3].1
        ));
        assert!(keyed_names_program(
            "x = \"\"\"\n/tmp/y\n\"\"\"",
            KEYED[3].1
        ));
        assert!(!keyed_names_program(
            "---\nyarnPath: .yarn/releases/yarn-4.1.0.cjs\nnodeLinker: node-modules",
            yarn
        ));
        assert!(!keyed_names_program(
            "[install]\nexact = true\npreload = [\"./setup.ts\"]",
            KEYED[3].1
        ));
    }

    /// A manifest's text, given the path of the crate outside.
    type ManifestText = Box<dyn Fn(&str) -> String>;

    /// A workspace of two members, `a` depending on `b` by path, and a crate outside it.
    fn cargo_workspace() -> (tempfile::TempDir, tempfile::TempDir, std::path::PathBuf) {
        let ws = tempfile::tempdir().expect("dir");
        let outside = tempfile::tempdir().expect("dir");
        let root = std::fs::canonicalize(ws.path()).expect("root");
        let write = |rel: &str, text: &str| {
            let path = root.join(rel);
            std::fs::create_dir_all(path.parent().expect("parent")).expect("dirs");
            std::fs::write(path, text).expect("write");
        };
        write(
            "Cargo.toml",
            "[workspace]\nmembers = [\"crates/*\"]\nresolver = \"2\"\n",
        );
        write(
            "crates/a/Cargo.toml",
            "[package]\nname = \"a\"\nversion = \"0.1.0\"\n[dependencies]\nb = { path = \"../b\" }\nserde = \"1\"\n",
        );
        write(
            "crates/b/Cargo.toml",
            "[package]\nname = \"b\"\nversion = \"0.1.0\"\nbuild = \"build.rs\"\n",
        );
        std::fs::create_dir_all(outside.path().join("evil")).expect("dir");
        std::fs::write(
            outside.path().join("evil/Cargo.toml"),
            "[package]\nname = \"evil\"\nversion = \"0.1.0\"\n",
        )
        .expect("write");
        (ws, outside, root)
    }

    #[test]
    fn cargo_builds_of_the_workspaces_own_crates_take_nothing_from_outside() {
        let (_ws, _outside, root) = cargo_workspace();
        assert_eq!(cargo_code_outside(&root, std::slice::from_ref(&root)), None);
        assert_eq!(
            cargo_code_outside(&root, &[root.join("crates/a")]),
            None,
            "from a member"
        );
        // No manifest at all: nothing cargo builds.
        let empty = tempfile::tempdir().expect("dir");
        let empty = std::fs::canonicalize(empty.path()).expect("root");
        assert_eq!(
            cargo_code_outside(&empty, std::slice::from_ref(&empty)),
            None
        );
    }

    #[test]
    fn cargo_sources_outside_the_workspace_are_code_from_elsewhere() {
        let evil_dir = |o: &tempfile::TempDir| {
            std::fs::canonicalize(o.path().join("evil"))
                .expect("evil")
                .to_string_lossy()
                .into_owned()
        };
        let cases: Vec<(&str, ManifestText)> = vec![
            (
                "crates/b/Cargo.toml",
                Box::new(|e| {
                    format!(
                        "[package]\nname = \"b\"\nversion = \"0.1.0\"\n[dependencies]\nevil = {{ path = \"{e}\" }}\n"
                    )
                }),
            ),
            (
                "crates/b/Cargo.toml",
                Box::new(|_| {
                    "[package]\nname = \"b\"\nversion = \"0.1.0\"\n[dependencies]\nevil = { path = \"../../..\" }\n".to_owned()
                }),
            ),
            (
                "crates/b/Cargo.toml",
                Box::new(|_| {
                    "[package]\nname = \"b\"\nversion = \"0.1.0\"\n[dependencies]\nevil = { git = \"https://example.com/evil\" }\n".to_owned()
                }),
            ),
            (
                "crates/b/Cargo.toml",
                Box::new(|e| {
                    format!(
                        "[package]\nname = \"b\"\nversion = \"0.1.0\"\n[target.'cfg(unix)'.build-dependencies]\nevil = {{ path = \"{e}\" }}\n"
                    )
                }),
            ),
            (
                "crates/b/Cargo.toml",
                Box::new(|e| {
                    format!(
                        "[package]\nname = \"b\"\nversion = \"0.1.0\"\nbuild = \"{e}/build.rs\"\n"
                    )
                }),
            ),
            (
                "crates/b/Cargo.toml",
                Box::new(|e| {
                    format!(
                        "[package]\nname = \"b\"\nversion = \"0.1.0\"\n[lib]\npath = \"{e}/lib.rs\"\n"
                    )
                }),
            ),
            (
                "crates/b/Cargo.toml",
                Box::new(|e| {
                    format!(
                        "[package]\nname = \"b\"\nversion = \"0.1.0\"\n[[bin]]\nname = \"x\"\npath = \"{e}/main.rs\"\n"
                    )
                }),
            ),
            (
                "crates/b/Cargo.toml",
                Box::new(|_| {
                    "[package]\nname = \"b\"\nversion = \"0.1.0\"\n[dependencies]\nx = { version = \"1\", registry-index = \"file:///tmp/index\" }\n".to_owned()
                }),
            ),
            (
                "crates/b/Cargo.toml",
                Box::new(|_| "[package\nname = ".to_owned()),
            ),
            (
                "Cargo.toml",
                Box::new(|e| {
                    format!(
                        "[workspace]\nmembers = [\"crates/*\"]\n[patch.crates-io]\nserde = {{ path = \"{e}\" }}\n"
                    )
                }),
            ),
            (
                "Cargo.toml",
                Box::new(|e| {
                    format!(
                        "[workspace]\nmembers = [\"crates/*\"]\n[replace]\n\"serde:1.0.0\" = {{ path = \"{e}\" }}\n"
                    )
                }),
            ),
            (
                "Cargo.toml",
                Box::new(|e| {
                    format!(
                        "[workspace]\nmembers = [\"crates/*\"]\n[workspace.dependencies]\nevil = {{ path = \"{e}\" }}\n"
                    )
                }),
            ),
            (
                "Cargo.toml",
                Box::new(|e| format!("[workspace]\nmembers = [\"crates/*\", \"{e}\"]\n")),
            ),
            (
                "Cargo.toml",
                Box::new(|_| "[workspace]\nmembers = [\"../*\"]\n".to_owned()),
            ),
            (
                "Cargo.toml",
                Box::new(|_| {
                    "cargo-features = [\"profile-rustflags\"]\n[workspace]\nmembers = [\"crates/*\"]\n".to_owned()
                }),
            ),
        ];
        for (k, (file, text)) in cases.iter().enumerate() {
            let (_ws, outside, root) = cargo_workspace();
            let text = text(&evil_dir(&outside));
            std::fs::write(root.join(file), &text).expect("write");
            assert!(
                cargo_code_outside(&root, std::slice::from_ref(&root)).is_some(),
                "{k}: {file}: {text}"
            );
        }
        // A link inside the workspace that leads outside.
        let (_ws, outside, root) = cargo_workspace();
        std::os::unix::fs::symlink(outside.path().join("evil"), root.join("vendor")).expect("link");
        std::fs::write(
            root.join("crates/b/Cargo.toml"),
            "[package]\nname = \"b\"\nversion = \"0.1.0\"\n[dependencies]\nevil = { path = \"../../vendor\" }\n",
        )
        .expect("write");
        assert!(cargo_code_outside(&root, std::slice::from_ref(&root)).is_some());
        // A package with no workspace of its own, below a manifest above the workspace.
        let above = tempfile::tempdir().expect("dir");
        let above_root = std::fs::canonicalize(above.path()).expect("root");
        std::fs::write(
            above_root.join("Cargo.toml"),
            "[workspace]\nmembers = [\"ws\"]\n",
        )
        .expect("write");
        let inner = above_root.join("ws");
        std::fs::create_dir_all(&inner).expect("dir");
        std::fs::write(
            inner.join("Cargo.toml"),
            "[package]\nname = \"w\"\nversion = \"0.1.0\"\n",
        )
        .expect("write");
        assert!(cargo_code_outside(&inner, std::slice::from_ref(&inner)).is_some());
    }

    #[test]
    fn corepack_urls_are_programs_from_elsewhere() {
        assert!(package_manager_from_url(
            r#"{"packageManager":"yarn@https://evil.example/yarn.tgz"}"#
        ));
        assert!(!package_manager_from_url(
            r#"{"name":"x","packageManager":"pnpm@9.1.0+sha512.abc"}"#
        ));
        assert!(!package_manager_from_url(r#"{"name":"x"}"#));
        assert!(!keyed_names_program(
            "@acme:registry=https://npm.pkg.github.com\nplugins:\n  - path: .yarn/plugins/p.cjs",
            &[]
        ));
        assert!(package_manager_from_url("{ not json"));
    }

    /// pytest's settings make it load a plugin, write anywhere or read code from elsewhere
    /// only through `addopts` options beyond the plain ones, a `cache_dir`, or paths outside.
    #[test]
    fn pytest_settings_name_programs_by_their_options_and_places() {
        for (text, section, risky) in [
            ("[pytest]\naddopts = -ra -q --tb=short\n", "[pytest]", false),
            (
                "[pytest]\naddopts = -p no:cacheprovider -n auto\ntestpaths = tests\n",
                "[pytest]",
                false,
            ),
            (
                "[pytest]\npythonpath = /tmp/evil\naddopts = -p evilplug\n",
                "[pytest]",
                true,
            ),
            (
                "[pytest]\naddopts = --junitxml=/home/u/.bashrc\n",
                "[pytest]",
                true,
            ),
            (
                "[pytest]\naddopts = -q\n    --basetemp=/home/u/.ssh\n",
                "[pytest]",
                true,
            ),
            ("[pytest]\ncache_dir = .git/hooks\n", "[pytest]", true),
            ("[pytest]\ntestpaths = ../other\n", "[pytest]", true),
            ("[flake8]\naddopts = -p evil\n", "[pytest]", false),
            (
                "[tool.pytest.ini_options]\naddopts = [\"-ra\", \"-q\"]\n",
                "[tool.pytest.ini_options]",
                false,
            ),
            (
                "[tool.pytest.ini_options]\naddopts = [\n  \"-q\",\n  \"-p\", \"evil\",\n]\n",
                "[tool.pytest.ini_options]",
                true,
            ),
            (
                "[tool:pytest]\naddopts = --confcutdir=/\n",
                "[tool:pytest]",
                true,
            ),
            ("[pytest] # settings\naddopts = -p evil\n", "[pytest]", true),
            ("[ pytest ]\n\"addopts\" = \"-p evil\"\n", "[pytest]", true),
            (
                "tool.pytest.ini_options.addopts = \"-p evil\"\n",
                "[tool.pytest.ini_options]",
                true,
            ),
            (
                "[tool.pytest.ini_options]\naddopts = [\n[\"-q\"],\n\"-p\", \"evil\",\n]\n",
                "[tool.pytest.ini_options]",
                true,
            ),
            ("[pytest]\nlog_file = /home/u/.bashrc\n", "[pytest]", true),
            ("[pytest]\naddopts = --cov\n", "[pytest]", true),
            (
                "[tool.pytest.ini_options]\ntestpaths = [\"tests\"]\n  addopts = \"-p evil\"\n",
                "[tool.pytest.ini_options]",
                true,
            ),
            (
                "[pytest]\naddopts = -q\n[other]\naddopts = -p x\n",
                "[pytest]",
                false,
            ),
        ] {
            assert_eq!(pytest_runs_programs(text, section), risky, "{text}");
        }
    }

    /// corepack downloads and runs a pinned release its cache does not hold: only one it
    /// holds, or no pin, is no program from elsewhere.
    #[test]
    fn a_pinned_package_manager_counts_unless_corepack_holds_it() {
        let cache = tempfile::tempdir().expect("dir");
        let caches = [cache.path().to_path_buf()];
        std::fs::create_dir_all(cache.path().join("v1/yarn/4.1.0")).expect("dirs");
        std::fs::create_dir_all(cache.path().join("pnpm/9.0.0")).expect("dirs");
        for (text, cached) in [
            (r#"{"name":"x"}"#, true),
            (r#"{"packageManager":"yarn@4.1.0"}"#, true),
            (r#"{"packageManager":"yarn@4.1.0+sha512.ab12"}"#, true),
            (r#"{"packageManager":"pnpm@9.0.0"}"#, true),
            (r#"{"packageManager":"yarn@4.2.0"}"#, false),
            (r#"{"packageManager":"pnpm@9.1.0+sha512.abc"}"#, false),
            (r#"{"packageManager":"yarn@../../x"}"#, false),
            (r#"{"packageManager":"yarn"}"#, false),
            (r#"{"packageManager":7}"#, false),
            ("{ not json", false),
        ] {
            assert_eq!(package_manager_cached(text, &caches), cached, "{text}");
        }
    }
}
