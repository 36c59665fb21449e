//! The settings of the projects' own checkers (tsc, mypy, Prettier, ESLint, Jest, Vitest,
//! Ruff, coverage.py), read for places outside the project: code they load (`plugins`,
//! `setupFiles`, `testSequencer`, a shared configuration) and places they write (`outDir`,
//! `tsBuildInfoFile`, `cache-dir`, `data_file`, `debug_file`, `generateTrace`). Every value
//! of the tool's declarative settings is looked at whatever its key, its line or its spelling:
//! JSON (comments and trailing commas allowed), YAML (anchors and aliases resolved) and TOML
//! are parsed, INI values are read with their continuation lines as Python's `configparser`
//! reads them. A settings file another names (`extends`, `extend`, `references`, `preset`,
//! `projects`) inside the project is read the same way, resolved as the tool resolves it
//! (an extension added, a package of `node_modules`, a directory's own settings, a glob's
//! directories); the per-directory settings ESLint, Prettier and Ruff apply to the files below
//! them are read wherever they are. A configuration written in JavaScript or TypeScript is
//! the project's code, as its tests are, and is not read.

use std::path::{Component, Path, PathBuf};

use super::build_config::{ESLINT_FILES, JEST_FILES, MYPY_FILES, PRETTIER_FILES, TSC_FILES};

/// The checkers, each with the files it reads its settings from.
const TOOL_SETTINGS: &[(&str, &[&str])] = &[
    ("tsc", TSC_FILES),
    ("mypy", MYPY_FILES),
    ("prettier", PRETTIER_FILES),
    ("eslint", ESLINT_FILES),
    ("jest", JEST_FILES),
    ("vitest", &["vitest.workspace.json"]),
    ("ruff", RUFF_FILES),
    // coverage.py, which `pytest --cov` runs.
    ("pytest", COVERAGE_FILES),
    ("coverage", COVERAGE_FILES),
];

/// The checkers that apply the settings nearest to each file they check, wherever below
/// the directory they start in (ESLint's `.eslintrc.*`, Prettier's, Ruff's).
const CASCADING: &[&str] = &["eslint", "prettier", "ruff"];

/// Ruff's settings files (it looks for them in every directory above too).
pub(crate) const RUFF_FILES: &[&str] = &["ruff.toml", ".ruff.toml", "pyproject.toml"];

/// The files coverage.py reads its settings from.
const COVERAGE_FILES: &[&str] = &[".coveragerc", "setup.cfg", "tox.ini", "pyproject.toml"];

/// The most settings files one check reads, those named by others included.
const MAX_FILES: usize = 64;

/// The most entries the look for per-directory settings ([`CASCADING`]) reads.
const MAX_WALKED: usize = 100_000;

/// The keys whose values name another settings file a tool reads: tsc's `extends` and a
/// reference's `path`, Ruff's `extend`, ESLint's `extends`, Jest's `preset` and `projects`,
/// a `config` or `configFile` given.
const FOLLOWED_KEYS: &[&str] = &[
    "extends",
    "extend",
    "path",
    "preset",
    "projects",
    "config",
    "configfile",
];

/// Where a file holds a tool's settings.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Part {
    /// The whole file.
    Whole,
    /// One member of a JSON object (`package.json`'s `"jest"`).
    JsonMember(&'static str),
    /// One top-level member of a YAML map (`package.yaml`'s `prettier:`).
    YamlMember(&'static str),
    /// One table of a TOML file (`pyproject.toml`'s `[tool.ruff]`).
    TomlTable(&'static [&'static str]),
    /// The INI sections whose names begin with one of these (`mypy`, `coverage:`).
    IniSections(&'static [&'static str]),
}

/// Where `file` holds `tool`'s settings; `None` for a configuration in JavaScript or
/// TypeScript (the project's code, not read).
fn part(tool: &str, file: &str) -> Option<Part> {
    let ext = file.rsplit_once('.').map_or("", |(_, e)| e);
    if matches!(ext, "js" | "cjs" | "mjs" | "ts" | "cts" | "mts") {
        return None;
    }
    Some(match (file, tool) {
        ("package.json", "jest") => Part::JsonMember("jest"),
        ("package.json", "prettier") => Part::JsonMember("prettier"),
        ("package.json", "eslint") => Part::JsonMember("eslintConfig"),
        ("package.json", _) => return None,
        ("package.yaml", "prettier") => Part::YamlMember("prettier"),
        ("pyproject.toml", "mypy") => Part::TomlTable(&["tool", "mypy"]),
        ("pyproject.toml", "ruff") => Part::TomlTable(&["tool", "ruff"]),
        ("pyproject.toml", _) => Part::TomlTable(&["tool", "coverage"]),
        ("setup.cfg" | "tox.ini", "mypy") => Part::IniSections(&["mypy"]),
        ("setup.cfg" | "tox.ini", _) => Part::IniSections(&["coverage:"]),
        _ => Part::Whole,
    })
}

/// Why a settings file of a checker among `programs` in one of `dirs` (each resolved, inside
/// the project at the resolved `root`), or below `root` for the checkers that apply settings
/// per directory, may have it load code from or write outside the project, in words: a value
/// naming a place outside (absolute, `~`, a parent above the root), one only known when it
/// runs (an environment variable), a file that cannot be read or parsed. `None` when none
/// does.
///
/// `named` are the files the command names (`tsc -p tsconfig.build.json`, `eslint -c
/// cfg.yml`): those in a settings file's language are read as settings too.
pub(crate) fn tool_settings_outside(
    root: &Path,
    dirs: &[PathBuf],
    named: &[PathBuf],
    programs: &[&str],
) -> Option<String> {
    let tools: Vec<(&str, &[&str])> = TOOL_SETTINGS
        .iter()
        .filter(|(tool, _)| programs.contains(tool))
        .copied()
        .collect();
    if tools.is_empty() {
        return None;
    }
    let mut queue: Vec<(PathBuf, Part)> = Vec::new();
    for dir in dirs {
        for (tool, files) in &tools {
            for f in *files {
                if let Some(part) = part(tool, f) {
                    queue.push((dir.join(f), part));
                }
            }
        }
    }
    for file in named {
        let name = file
            .file_name()
            .map(|n| n.to_string_lossy().to_ascii_lowercase())
            .unwrap_or_default();
        let ext = name.rsplit_once('.').map_or("", |(_, e)| e);
        if file.starts_with(root)
            && !matches!(ext, "js" | "cjs" | "mjs" | "ts" | "cts" | "mts")
            && !name.eq_ignore_ascii_case("package.json")
        {
            queue.push((file.clone(), Part::Whole));
        }
    }
    // Per-directory settings anywhere below the root.
    let cascading: Vec<(&str, &[&str])> = tools
        .iter()
        .filter(|(tool, _)| CASCADING.contains(tool))
        .copied()
        .collect();
    if !cascading.is_empty() {
        let walker = ignore::WalkBuilder::new(root)
            .hidden(false)
            .parents(false)
            .filter_entry(|e| e.file_name() != ".git" && e.file_name() != "node_modules")
            .build();
        for (seen, entry) in walker.enumerate() {
            if seen > MAX_WALKED {
                return Some(format!(
                    "the project holds more than {MAX_WALKED} entries, more than are looked through for the checkers' settings"
                ));
            }
            let Ok(entry) = entry else {
                return Some("an entry of the project cannot be read".to_owned());
            };
            let name = entry.file_name().to_string_lossy();
            for (tool, files) in &cascading {
                if files.contains(&name.as_ref())
                    && let Some(part) = part(tool, &name)
                {
                    queue.push((entry.path().to_path_buf(), part));
                }
            }
        }
    }
    queue.retain(|(path, _)| std::fs::symlink_metadata(path).is_ok());
    queue.dedup();
    let above = modules_above(root);
    let mut seen: Vec<(PathBuf, Part)> = Vec::new();
    while let Some((path, part)) = queue.pop() {
        if seen.len() >= MAX_FILES {
            return Some(format!(
                "the checkers' settings are more than {MAX_FILES} files"
            ));
        }
        seen.push((path.clone(), part));
        let shown = path
            .strip_prefix(root)
            .unwrap_or(&path)
            .display()
            .to_string();
        let Some(text) = crate::paths::small_file::read_text(&path).ok().flatten() else {
            return Some(format!("`{shown}` cannot be read"));
        };
        let here = path.parent().unwrap_or(root);
        let ext = path
            .extension()
            .map(|e| e.to_string_lossy().to_ascii_lowercase())
            .unwrap_or_default();
        let cwd_relative = matches!(part, Part::IniSections(_) | Part::TomlTable(_))
            || matches!(ext.as_str(), "ini" | "cfg" | "coveragerc" | "conf" | "toml")
            || path.file_name().is_some_and(|n| n == ".coveragerc");
        let settings = match settings_values(&path, &text, part) {
            Ok(settings) => settings,
            Err(why) => return Some(format!("`{shown}` {why}")),
        };
        for (key, value) in &settings {
            let why = if skipped_key(key) {
                existing_outside(root, here, value)
            } else {
                value_outside(root, here, value)
                    .or_else(|| {
                        cwd_relative
                            .then(|| climbs_from_root(root, value))
                            .flatten()
                    })
                    .or_else(|| package_above(&above, value))
            };
            if let Some(why) = why {
                return Some(format!("`{shown}` {why}"));
            }
            if FOLLOWED_KEYS.contains(&key.as_str()) {
                for named in named_settings(root, here, value) {
                    if !seen.contains(&named) && !queue.contains(&named) {
                        queue.push(named);
                    }
                }
            }
        }
    }
    None
}

/// The settings `text` (the file at `path`) gives in its `part`, each with the innermost key
/// it is given to (lower case; empty for a value of a list at the top): the strings as the
/// tool reads them, the values of keys holding patterns ([`skipped_key`]) left out; an
/// error says why they are not known.
fn settings_values(path: &Path, text: &str, part: Part) -> Result<Vec<(String, String)>, String> {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    let ext = name.rsplit_once('.').map_or("", |(_, e)| e);
    let mut out = Vec::new();
    match part {
        Part::JsonMember(member) => {
            let json = parse_json(text).ok_or("is not JSON")?;
            if let Some(v) = json.get(member) {
                json_strings(v, member, &mut out);
            }
        }
        Part::TomlTable(keys) => {
            let toml: toml::Table = text
                .parse()
                .map_err(|e: toml::de::Error| format!("is not TOML ({})", e.message()))?;
            let mut at = Some(&toml::Value::Table(toml));
            for k in keys {
                at = at.and_then(|v| v.get(k));
            }
            if let Some(v) = at {
                toml_strings(v, "", &mut out);
            }
        }
        Part::IniSections(prefixes) => out = ini_values(text, Some(prefixes)),
        Part::YamlMember(member) => {
            let yaml: serde_yaml::Value =
                serde_yaml::from_str(text).map_err(|e| format!("is not YAML ({e})"))?;
            if let Some(v) = yaml.get(member) {
                yaml_strings(v, member, &mut out);
            }
        }
        Part::Whole => match ext {
            "toml" => return settings_values(path, text, Part::TomlTable(&[])),
            "ini" | "cfg" | "coveragerc" => out = ini_values(text, None),
            // JSON with comments (`tsconfig.json`), JSON5 as far as JSON reads it, YAML, and
            // `.prettierrc` or `.eslintrc`, which are JSON or YAML: every reading that
            // succeeds counts (a text may be JSON with comments to one reader and YAML to the
            // tool). A name in no settings language the tool is given by an option
            // (`mypy --config-file mypy.conf`) is read in each, INI and TOML too.
            _ => {
                let mut read = false;
                if let Some(json) = parse_json(text) {
                    json_strings(&json, "", &mut out);
                    read = true;
                }
                if let Ok(yaml) = serde_yaml::from_str::<serde_yaml::Value>(text) {
                    yaml_strings(&yaml, "", &mut out);
                    read = true;
                }
                let known = matches!(ext, "json" | "json5" | "jsonc" | "yaml" | "yml")
                    || (ext.is_empty() && name.starts_with('.'))
                    || name.starts_with(".prettierrc")
                    || name.starts_with(".eslintrc");
                if !known {
                    if let Ok(table) = text.parse::<toml::Table>() {
                        toml_strings(&toml::Value::Table(table), "", &mut out);
                    }
                    out.extend(ini_values(text, None));
                    read = true;
                }
                if !read {
                    return Err("is neither JSON nor YAML".to_owned());
                }
            }
        },
    }
    Ok(out)
}

/// `text` parsed as JSON once its comments and trailing commas are taken out (JSON with
/// comments, as tsc and ESLint read it).
fn parse_json(text: &str) -> Option<serde_json::Value> {
    serde_json::from_str(text)
        .ok()
        .or_else(|| serde_json::from_str(&without_trailing_commas(&strip_comments(text))).ok())
}

/// Every string of a JSON value with the innermost key it is given to (below a skipped key,
/// [`skipped_key`], that key), keys of objects themselves left out (a Jest `transform`'s keys
/// are regular expressions).
fn json_strings(v: &serde_json::Value, key: &str, out: &mut Vec<(String, String)>) {
    match v {
        serde_json::Value::String(s) => out.push((key.to_ascii_lowercase(), s.clone())),
        serde_json::Value::Array(items) => items.iter().for_each(|i| json_strings(i, key, out)),
        serde_json::Value::Object(map) => map
            .iter()
            .for_each(|(k, v)| json_strings(v, below(key, k), out)),
        _ => {}
    }
}

/// Every string of a TOML value ([`json_strings`]).
fn toml_strings(v: &toml::Value, key: &str, out: &mut Vec<(String, String)>) {
    match v {
        toml::Value::String(s) => out.push((key.to_ascii_lowercase(), s.clone())),
        toml::Value::Array(items) => items.iter().for_each(|i| toml_strings(i, key, out)),
        toml::Value::Table(t) => t
            .iter()
            .for_each(|(k, v)| toml_strings(v, below(key, k), out)),
        _ => {}
    }
}

/// Every string of a YAML value ([`json_strings`]); aliases are their anchors' values, and a
/// key that is no string is read as a value too.
fn yaml_strings(v: &serde_yaml::Value, key: &str, out: &mut Vec<(String, String)>) {
    match v {
        serde_yaml::Value::String(s) => out.push((key.to_ascii_lowercase(), s.clone())),
        serde_yaml::Value::Sequence(items) => items.iter().for_each(|i| yaml_strings(i, key, out)),
        serde_yaml::Value::Mapping(map) => {
            for (k, v) in map {
                match k.as_str() {
                    Some(k) => yaml_strings(v, below(key, k), out),
                    None => {
                        yaml_strings(k, key, out);
                        yaml_strings(v, key, out);
                    }
                }
            }
        }
        serde_yaml::Value::Tagged(t) => yaml_strings(&t.value, key, out),
        _ => {}
    }
}

/// The key a value below `key`'s member `member` is reported under: `key` itself when it is
/// skipped ([`skipped_key`]), so that everything below a pattern's key is judged as one.
fn below<'a>(key: &'a str, member: &'a str) -> &'a str {
    if !key.is_empty() && skipped_key(key) {
        key
    } else {
        member
    }
}

/// Whether a key's values are, by the tools' documentation, no places the tool reads or
/// writes (a value of such a key is still judged when it names an existing file outside,
/// since the key is the file's author's to choose: a Jest `transform` regular expression
/// ending in `exclude` maps files to a transformer): regular expressions or
/// globs matched against paths (`testPathIgnorePatterns`, `testRegex`, `ignorePatterns`,
/// `exclude_lines`; `/node_modules/` is no directory at the root), files and directories
/// only left out of a run (`exclude`, `extend-exclude`, `omit`, `norecursedirs`, `ignore`),
/// and the path aliases and remappings of `paths` (tsconfig's module aliases, coverage.py's
/// `[paths]`, which renames the files a combined run recorded).
fn skipped_key(key: &str) -> bool {
    let lower = key.to_ascii_lowercase();
    let last = lower.rsplit(['.', '/']).next().unwrap_or(&lower);
    lower == "paths"
        || matches!(last, "omit" | "norecursedirs" | "ignore")
        || [
            "patterns",
            "pattern",
            "regex",
            "exclude",
            "exclude_lines",
            "exclude_also",
            "partial_branches",
        ]
        .iter()
        .any(|end| lower.ends_with(end))
}

/// The values of an INI file's keys as Python's `configparser` reads them, each with its key
/// (lower case): a line indented deeper than its key's continues its value (whatever it
/// holds, `[x]` included), comment lines (`#`, `;`) are left out; in the sections whose
/// names begin with one of `prefixes` (every section when `None`), coverage.py's `paths`
/// sections aside ([`skipped_key`]).
fn ini_values(text: &str, prefixes: Option<&[&str]>) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    let mut inside = prefixes.is_none();
    let mut section = String::new();
    // The indentation of the key whose value the next deeper lines continue.
    let mut key_indent: Option<usize> = None;
    for line in text.lines() {
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with(['#', ';']) {
            continue;
        }
        let indent = line.len() - line.trim_start().len();
        if let Some(k) = key_indent
            && indent > k
        {
            if inside && let Some((_, last)) = out.last_mut() {
                last.push('\n');
                last.push_str(trimmed);
            }
            continue;
        }
        if trimmed.starts_with('[') {
            let name = trimmed.trim_matches(['[', ']']).trim().to_ascii_lowercase();
            section = name.rsplit(':').next().unwrap_or_default().to_owned();
            // configparser gives `[DEFAULT]`'s keys to every section.
            inside =
                name == "default" || prefixes.is_none_or(|p| p.iter().any(|p| name.starts_with(p)));
            key_indent = None;
            continue;
        }
        key_indent = Some(indent);
        if !inside {
            continue;
        }
        let (key, value) = match trimmed.split_once(['=', ':']) {
            Some((key, value)) => (key.trim().to_ascii_lowercase(), value.trim().to_owned()),
            None => (String::new(), trimmed.to_owned()),
        };
        // A skipped section's values are reported under its name (coverage's `[paths]`).
        let key = if skipped_key(&section) {
            section.clone()
        } else {
            key
        };
        out.push((key, value));
    }
    out
}

/// `text` without its JavaScript-style comments (`//…`, `/* … */`), quotes honoured (a
/// backslash escaping the next character inside them).
fn strip_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    let mut quote: Option<char> = None;
    while let Some(c) = chars.next() {
        if let Some(q) = quote {
            out.push(c);
            if c == '\\' {
                if let Some(n) = chars.next() {
                    out.push(n);
                }
            } else if c == q {
                quote = None;
            }
            continue;
        }
        match c {
            '"' => {
                quote = Some(c);
                out.push(c);
            }
            '/' if chars.peek() == Some(&'/') => {
                for n in chars.by_ref() {
                    if n == '\n' {
                        out.push('\n');
                        break;
                    }
                }
            }
            '/' if chars.peek() == Some(&'*') => {
                chars.next();
                let mut last = ' ';
                for n in chars.by_ref() {
                    if last == '*' && n == '/' {
                        break;
                    }
                    last = n;
                }
                out.push(' ');
            }
            _ => out.push(c),
        }
    }
    out
}

/// `text` (JSON without comments) without a comma that only blanks separate from the `}` or
/// `]` closing it, quotes honoured.
fn without_trailing_commas(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut quoted = false;
    let mut escaped = false;
    let chars: Vec<char> = text.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        if quoted {
            out.push(c);
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                quoted = false;
            }
            continue;
        }
        if c == '"' {
            quoted = true;
        }
        if c == ','
            && chars[i + 1..]
                .iter()
                .find(|n| !n.is_whitespace())
                .is_some_and(|n| matches!(n, '}' | ']'))
        {
            continue;
        }
        out.push(c);
    }
    out
}

/// Why `value`, read in a settings file in `here`, may name a place outside the project at
/// `root`, in words; `None` when each of its words stays inside or names no place.
fn value_outside(root: &Path, here: &Path, value: &str) -> Option<String> {
    let value = &unescaped(value);
    // `${configDir}/dist`: the prefix is this directory, and its braces no separator.
    let value = &HERE_PREFIXES
        .iter()
        .fold(value.clone(), |v, p| v.replace(p, "./"));
    let known = ["${configDir}", "${MYPY_CONFIG_FILE_DIR}"];
    if value.contains("${") && !known.iter().any(|k| value.contains(k)) {
        return Some(format!(
            "takes a value from the environment (`{}`)",
            shorten(value)
        ));
    }
    words(value).find_map(|word| {
        word_outside(root, here, word).then(|| format!("names `{word}`, outside the project"))
    })
}

/// Why `value`, given to a key whose values are patterns or exclusions ([`skipped_key`]),
/// still names a place outside the project: one of its words is an existing file outside
/// (a pattern or a directory left out names none the tool loads).
fn existing_outside(root: &Path, here: &Path, value: &str) -> Option<String> {
    let value = unescaped(value);
    words(&value).find_map(|word| {
        let word = from_here(word);
        let path = if word.starts_with('/') {
            PathBuf::from(word)
        } else {
            here.join(word)
        };
        (word_outside(root, here, word) && std::fs::metadata(&path).is_ok_and(|m| m.is_file()))
            .then(|| format!("names `{word}`, a file outside the project"))
    })
}

/// `value` as the tools read a path in it: JSON5's `\xHH` and `\uHHHH` escapes decoded,
/// and a backslash taken as a directory separator (tsc and Node read `\tmp\x` as `/tmp/x`).
fn unescaped(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    let mut chars = value.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        let digits = match chars.peek() {
            Some('x') => 2,
            Some('u') => 4,
            _ => 0,
        };
        if digits > 0 {
            let rest: String = chars.clone().skip(1).take(digits).collect();
            if rest.len() == digits
                && let Some(decoded) = u32::from_str_radix(&rest, 16).ok().and_then(char::from_u32)
            {
                for _ in 0..=digits {
                    chars.next();
                }
                out.push(decoded);
                continue;
            }
        }
        out.push('/');
    }
    out
}

/// The first characters of a long value, for a reason.
fn shorten(value: &str) -> String {
    value.chars().take(60).collect()
}

/// The words of a value that may be paths: between blanks, quotes, brackets, commas, `=`,
/// `;` and `:` (`xml:out/cov.xml`); a `file:` URL is its path, other URLs are left out.
fn words(value: &str) -> impl Iterator<Item = &str> {
    value
        .split(|c: char| c.is_whitespace() || "\"'`,[]{}()=;".contains(c))
        .filter_map(|w| match w.strip_prefix("file:") {
            Some(path) => Some(path.trim_start_matches("//")),
            None => (!w.contains("://")).then_some(w),
        })
        .flat_map(|w| w.split(':'))
        .filter(|w| !w.is_empty())
}

/// The prefixes a tool replaces with the directory of the settings file (or the project's
/// root directory, which a `rootDir` setting read on its own names).
const HERE_PREFIXES: &[&str] = &[
    "<rootDir>/",
    "<rootdir>/",
    "${configDir}/",
    "$MYPY_CONFIG_FILE_DIR/",
    "${MYPY_CONFIG_FILE_DIR}/",
];

/// `word` without a prefix of [`HERE_PREFIXES`].
fn from_here(word: &str) -> &str {
    HERE_PREFIXES
        .iter()
        .find_map(|p| word.strip_prefix(p))
        .unwrap_or(word)
}

/// Whether `word`, read in `here`, names a place outside `root`: `~…`, an environment
/// variable (`$HOME/…`), an absolute path not under the root (`/` itself included; a tool
/// running as root makes the directories it writes into, so one that does not exist yet is
/// no safer; `/dev/null` is nowhere), or a relative path whose `..` parts climb above the
/// root (after a prefix of [`HERE_PREFIXES`]). Patterns that only leave files out are not
/// read at all ([`skipped_key`]).
fn word_outside(root: &Path, here: &Path, word: &str) -> bool {
    let word = from_here(word);
    if word.starts_with('~') {
        return true;
    }
    // Any variable the tool expands (`os.path.expandvars` reads `$_`, `$home` too).
    if let Some(rest) = word.strip_prefix('$') {
        return rest.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_' || c == '{');
    }
    if word.starts_with('/') {
        let path = Path::new(word);
        if path == Path::new("/dev/null") {
            return false;
        }
        if path.starts_with(root) {
            return climbs_above(root, root, path.strip_prefix(root).unwrap_or(path));
        }
        return true;
    }
    climbs_above(root, here, Path::new(word))
}

/// Why `value`, in a settings file of a Python tool (mypy, coverage, pytest), names a place
/// outside the project at `root`: those tools read a relative path from the directory they
/// run in, not the file's, and from the root (the least deep) it climbs above.
fn climbs_from_root(root: &Path, value: &str) -> Option<String> {
    words(&unescaped(value)).find_map(|word| {
        let relative = !word.starts_with(['/', '~', '$']);
        (relative && climbs_above(root, root, Path::new(word)))
            .then(|| format!("names `{word}`, outside the project from where the tool runs"))
    })
}

/// Whether `relative`, read from `here` (inside `root`), climbs above `root` at any point.
fn climbs_above(root: &Path, here: &Path, relative: &Path) -> bool {
    let mut depth = here
        .strip_prefix(root)
        .map_or(0, |r| r.components().count());
    for c in relative.components() {
        match c {
            Component::ParentDir => {
                if depth == 0 {
                    return true;
                }
                depth -= 1;
            }
            Component::Normal(_) => depth += 1,
            _ => {}
        }
    }
    false
}

/// The extensions a tool tries after a settings file's name given without one.
const SETTINGS_EXTENSIONS: &[&str] = &["json", "yaml", "yml", "toml"];

/// The settings files a directory named as a settings file stands for: tsc's project, a
/// Jest preset or project, ESLint's and Prettier's files, Ruff's.
const DIRECTORY_SETTINGS: &[(&str, Part)] = &[
    ("tsconfig.json", Part::Whole),
    ("jest-preset.json", Part::Whole),
    ("jest.config.json", Part::Whole),
    ("package.json", Part::JsonMember("jest")),
    (".eslintrc.json", Part::Whole),
    (".eslintrc.yaml", Part::Whole),
    (".eslintrc.yml", Part::Whole),
    (".eslintrc", Part::Whole),
    (".prettierrc", Part::Whole),
    ("ruff.toml", Part::Whole),
    (".ruff.toml", Part::Whole),
];

/// The most directories a glob of settings (`projects: ["<rootDir>/packages/*"]`) stands for.
const MAX_GLOBBED: usize = 64;

/// The settings files `value`, given to a key naming one ([`FOLLOWED_KEYS`]) in a file in
/// `here`, stands for inside the project at `root`, resolved as the tools resolve them: a
/// path relative to `here` (a prefix of [`HERE_PREFIXES`] taken off), or a package of a
/// `node_modules` directory in `here` or above it up to the root; as named, or with an
/// extension of [`SETTINGS_EXTENSIONS`] added; a directory standing for its own settings
/// ([`DIRECTORY_SETTINGS`]); a glob standing for every directory it matches. A file in
/// JavaScript or TypeScript is the project's code and is left out.
fn named_settings(root: &Path, here: &Path, value: &str) -> Vec<(PathBuf, Part)> {
    let value = from_here(value.trim());
    if value.is_empty() || value.contains('\n') || value.contains("://") {
        return Vec::new();
    }
    let mut bases: Vec<PathBuf> = Vec::new();
    if value.contains(['*', '?', '[']) {
        bases.extend(globbed(root, here, value));
    } else if value.starts_with('.') || value.starts_with('/') {
        bases.push(here.join(value));
    } else {
        // A package (`@tsconfig/node20/tsconfig.json`, `my-preset`, ESLint's shorthand
        // `airbnb` for `eslint-config-airbnb`), looked for from here up; a plain relative
        // name (`base.json`, `cfg/base`) too.
        bases.push(here.join(value));
        let mut at = Some(here);
        while let Some(dir) = at.filter(|d| d.starts_with(root)) {
            for name in package_names(value) {
                bases.push(dir.join("node_modules").join(name));
            }
            at = dir.parent();
        }
    }
    let mut out = Vec::new();
    for base in bases {
        let mut candidates: Vec<(PathBuf, Part)> = vec![(base.clone(), Part::Whole)];
        for ext in SETTINGS_EXTENSIONS {
            let mut name = base.clone().into_os_string();
            name.push(".");
            name.push(ext);
            candidates.push((PathBuf::from(name), Part::Whole));
        }
        candidates.extend(
            DIRECTORY_SETTINGS
                .iter()
                .map(|(name, part)| (base.join(name), *part)),
        );
        // A package's entry, as Node resolves the package's name (`main`; tsc's `tsconfig`).
        if let Some(manifest) = crate::paths::small_file::read_text(&base.join("package.json"))
            .ok()
            .flatten()
            .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
        {
            for field in ["tsconfig", "main"] {
                if let Some(entry) = manifest.get(field).and_then(serde_json::Value::as_str) {
                    candidates.push((base.join(entry), Part::Whole));
                }
            }
        }
        for (path, part) in candidates {
            let Ok(real) = std::fs::canonicalize(&path) else {
                continue;
            };
            let name = real
                .file_name()
                .map(|n| n.to_string_lossy().to_ascii_lowercase())
                .unwrap_or_default();
            let ext = name.rsplit_once('.').map_or("", |(_, e)| e);
            let code = matches!(ext, "js" | "cjs" | "mjs" | "ts" | "cts" | "mts");
            if real.starts_with(root) && real.is_file() && !code {
                out.push((real, part));
            }
        }
    }
    out
}

/// The `node_modules` directories of the directories above the project at `root`: where
/// Node looks for a package the project does not hold. Looked up once per check.
fn modules_above(root: &Path) -> Vec<PathBuf> {
    root.ancestors()
        .skip(1)
        .map(|a| a.join("node_modules"))
        .filter(|d| d.is_dir())
        .collect()
}

/// The names of the packages a settings value may stand for: the value, and the names the
/// tools make of a short one (ESLint's `eslint-config-`, `eslint-plugin-`; Jest's
/// `jest-environment-`; Prettier's `prettier-plugin-`), a scope kept in front.
fn package_names(value: &str) -> Vec<String> {
    let mut names = vec![value.to_owned()];
    let (scope, bare) = match value.strip_prefix('@').and_then(|v| v.split_once('/')) {
        Some((scope, rest)) => (format!("@{scope}/"), rest),
        None => (String::new(), value),
    };
    for prefix in [
        "eslint-config-",
        "eslint-plugin-",
        "jest-environment-",
        "prettier-plugin-",
    ] {
        if !bare.starts_with(prefix) {
            names.push(format!("{scope}{prefix}{bare}"));
        }
    }
    names
}

/// Why the bare package name `value` may be loaded from outside the project: Node looks for
/// a package in the `node_modules` of every directory up to `/`, and one of
/// `modules_above` (those of the directories above the project, [`modules_above`]) holds
/// it ([`package_names`]).
fn package_above(modules_above: &[PathBuf], value: &str) -> Option<String> {
    if modules_above.is_empty() {
        return None;
    }
    let value = value.trim();
    let bare = !value.is_empty()
        && !value.starts_with(['.', '/', '~', '$', '-'])
        && value
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_.@/".contains(&b));
    if !bare {
        return None;
    }
    let names = package_names(value);
    modules_above.iter().find_map(|modules| {
        names
            .iter()
            .map(|n| modules.join(n))
            .find(|p| p.exists())
            .map(|p| {
                format!(
                    "names `{value}`, a package Node finds outside the project (`{}`)",
                    p.display()
                )
            })
    })
}

/// The directories below the project at `root` the glob `pattern`, relative to `here`,
/// matches ([`MAX_GLOBBED`] at most, four levels below the glob's first fixed directory).
fn globbed(root: &Path, here: &Path, pattern: &str) -> Vec<PathBuf> {
    let fixed: PathBuf = Path::new(pattern)
        .components()
        .take_while(|c| !c.as_os_str().to_string_lossy().contains(['*', '?', '[']))
        .collect();
    let start = here.join(&fixed);
    let Ok(glob) = globset::Glob::new(&here.join(pattern).to_string_lossy()) else {
        return Vec::new();
    };
    let matcher = glob.compile_matcher();
    let mut out = Vec::new();
    let mut dirs = vec![(start, 0)];
    while let Some((dir, depth)) = dirs.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if !path.starts_with(root) || entry.file_name() == "node_modules" {
                continue;
            }
            if matcher.is_match(&path) {
                out.push(path.clone());
                if out.len() >= MAX_GLOBBED {
                    return out;
                }
            }
            if depth < 4 && entry.file_type().is_ok_and(|t| t.is_dir()) {
                dirs.push((path, depth + 1));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::tool_settings_outside;
    use std::path::{Path, PathBuf};

    /// A project to write settings into, resolved.
    struct Project {
        _dir: tempfile::TempDir,
        root: PathBuf,
    }

    impl Project {
        fn new() -> Self {
            let dir = tempfile::tempdir().expect("dir");
            let root = std::fs::canonicalize(dir.path()).expect("root");
            Self { _dir: dir, root }
        }

        fn put(&self, name: &str, text: &str) {
            let path = self.root.join(name);
            std::fs::create_dir_all(path.parent().expect("parent")).expect("dirs");
            std::fs::write(path, text).expect("write");
        }

        fn remove(&self, name: &str) {
            std::fs::remove_file(self.root.join(name)).expect("removed");
        }

        /// Why the checkers among `programs` started at the root may reach outside.
        fn outside(&self, programs: &[&str]) -> Option<String> {
            self.outside_in(Path::new(""), programs)
        }

        /// The same, started in `sub` (and the directories up to the root).
        fn outside_in(&self, sub: &Path, programs: &[&str]) -> Option<String> {
            let mut dirs = vec![self.root.clone()];
            let mut at = self.root.join(sub);
            while at != self.root {
                dirs.push(at.clone());
                at = at.parent().expect("parent").to_path_buf();
            }
            tool_settings_outside(&self.root, &dirs, &[], programs)
        }

        /// Asserts `programs` reach outside with `text` in `name`, then removes it.
        fn reaches(&self, name: &str, text: &str, programs: &[&str]) {
            self.put(name, text);
            assert!(self.outside(programs).is_some(), "{name}: {text}");
            self.remove(name);
        }

        /// Asserts `programs` stay inside with `text` in `name`, then removes it.
        fn stays(&self, name: &str, text: &str, programs: &[&str]) {
            self.put(name, text);
            assert_eq!(self.outside(programs), None, "{name}: {text}");
            self.remove(name);
        }
    }

    /// A settings file read the way each of its readers may read it: a name given by an
    /// option in any language, JSON5 escapes and backslashes as separators, `[DEFAULT]`,
    /// any variable, a relative path from where the tool runs, a package Node finds above
    /// the project or through a package's entry, and a pattern's key naming an existing file.
    #[test]
    fn settings_are_read_as_every_reader_may_read_them() {
        let p = Project::new();
        let named = |name: &str, text: &str, programs: &[&str]| {
            p.put(name, text);
            let found = tool_settings_outside(
                &p.root,
                std::slice::from_ref(&p.root),
                &[p.root.join(name)],
                programs,
            );
            p.remove(name);
            found
        };
        assert!(named("mypy.conf", "[mypy]\ncache_dir = /tmp/x\n", &["mypy"]).is_some());
        assert!(named("lintrc", "parser: /tmp/x/evil.js\n", &["eslint"]).is_some());
        assert!(
            named(
                "tsconfig.build.conf",
                r#"{"compilerOptions":{"outDir":"/tmp/x"}}"#,
                &["tsc"]
            )
            .is_some()
        );
        assert_eq!(
            named("mypy.conf", "[mypy]\nstrict = True\n", &["mypy"]),
            None
        );
        for (file, text, programs) in [
            (
                ".prettierrc.json5",
                r"{plugins: ['\x2ftmp\x2fx\x2fevil.js']}",
                &["prettier"][..],
            ),
            (
                "tsconfig.json",
                r#"{"compilerOptions":{"outDir":"\\tmp\\x"}}"#,
                &["tsc"],
            ),
            (
                "tsconfig.json",
                r#"{"compilerOptions":{"outDir":"..\\..\\x"}}"#,
                &["tsc"],
            ),
            (
                ".prettierrc.yaml",
                "{/*: 1, \"plugins\": [\"/tmp/x/evil.js\"], a*/ \"semi\": true}\n",
                &["prettier"],
            ),
            (
                "setup.cfg",
                "[DEFAULT]\ncache_dir = /tmp/x\n[mypy]\nstrict = True\n",
                &["mypy"],
            ),
            (".coveragerc", "[run]\ndata_file = $_-x\n", &["coverage"]),
            ("sub/mypy.ini", "[mypy]\ncache_dir = ../x\n", &["mypy"]),
        ] {
            p.put(file, text);
            let dirs = [p.root.clone(), p.root.join("sub")];
            assert!(
                tool_settings_outside(&p.root, &dirs, &[], programs).is_some(),
                "{file}: {text}"
            );
            p.remove(file);
        }
        // A pattern's key whose value is an existing file outside: a Jest transform.
        let outside = tempfile::tempdir().expect("dir");
        let transformer = outside.path().join("t.js");
        std::fs::write(&transformer, "").expect("write");
        p.reaches(
            "jest.config.json",
            &format!(
                r#"{{"transform": {{"\\.js$|_exclude": "{}"}}}}"#,
                transformer.display()
            ),
            &["jest"],
        );
        p.stays(
            "jest.config.json",
            r#"{"testPathIgnorePatterns": ["/node_modules/", "/tmp/"], "transform": {"^.+\\.tsx?$": "ts-jest"}}"#,
            &["jest"],
        );
        p.stays(
            "tsconfig.json",
            r#"{"compilerOptions":{"outDir":"${configDir}/dist"}}"#,
            &["tsc"],
        );
        // A package through its entry inside the project.
        p.put(
            "node_modules/shared-cfg/package.json",
            r#"{"name":"shared-cfg","tsconfig":"./inner/cfg.json"}"#,
        );
        p.put(
            "node_modules/shared-cfg/inner/cfg.json",
            r#"{"compilerOptions":{"outDir":"/tmp/x"}}"#,
        );
        p.reaches("tsconfig.json", r#"{"extends":"shared-cfg"}"#, &["tsc"]);
        p.put(
            "node_modules/eslint-config-house/package.json",
            r#"{"name":"eslint-config-house","main":"config.json"}"#,
        );
        p.put(
            "node_modules/eslint-config-house/config.json",
            r#"{"parser":"/tmp/x/evil.js"}"#,
        );
        p.reaches(".eslintrc.json", r#"{"extends":"house"}"#, &["eslint"]);
    }

    /// A package Node would find above the project counts; none there, a name is a name.
    #[test]
    fn packages_found_above_the_project_count() {
        let above = tempfile::tempdir().expect("dir");
        let base = std::fs::canonicalize(above.path()).expect("base");
        let root = base.join("ws");
        std::fs::create_dir_all(root.join("src")).expect("dirs");
        std::fs::write(root.join(".prettierrc"), r#"{"plugins":["house-plugin"]}"#).expect("write");
        let dirs = [root.clone()];
        assert_eq!(
            tool_settings_outside(&root, &dirs, &[], &["prettier"]),
            None
        );
        std::fs::create_dir_all(base.join("node_modules/house-plugin")).expect("dirs");
        assert!(tool_settings_outside(&root, &dirs, &[], &["prettier"]).is_some());
        std::fs::write(
            root.join("jest.config.json"),
            r#"{"testEnvironment":"house"}"#,
        )
        .expect("write");
        std::fs::create_dir_all(base.join("node_modules/jest-environment-house")).expect("dirs");
        assert!(tool_settings_outside(&root, &dirs, &[], &["jest"]).is_some());
    }

    /// A checker's settings name code to load or a place to write: one outside the project
    /// counts whatever its key, its line or its spelling; a pattern or an alias does not.
    #[test]
    fn checker_settings_outside_the_project_count() {
        let p = Project::new();
        p.stays(
            "tsconfig.json",
            "// generated\n{\n  /* options */\n  \"$schema\": \"https://json.schemastore.org/tsconfig\",\n  \"compilerOptions\": {\"outDir\": \"dist\", \"strict\": true, \"paths\": {\"~/*\": [\"./*\"], \"@/*\": [\"./src/*\"]},},\n  \"include\": [\"src/**/*\"],\n}\n",
            &["tsc"],
        );
        for text in [
            r#"{"compilerOptions":{"incremental":true,"tsBuildInfoFile":"/home/u/.bashrc"}}"#,
            "{\"compilerOptions\": {\"tsBuildInfoFile\":\n  \"/root/.bashrc\"}}",
            r#"{"compilerOptions":{"tsBuild\u0049nfoFile":"\u002fetc/x"}}"#,
            r#"{"compilerOptions":{"generateTrace":"~/.config/autostart"}}"#,
            r#"{"compilerOptions":{"outDir":"../out"}}"#,
            r#"{"compilerOptions":{"outDir":"${HOME}/out"}}"#,
            "{\"compilerOptions\": {\"outDir\": \"/tmp/x\",},}",
            // tsc, running as root, makes a directory that does not exist yet.
            r#"{"compilerOptions":{"outDir":"/nonexistent-dir/etc"}}"#,
            r#"{"compilerOptions":{"outDir":"/"}}"#,
        ] {
            p.put("tsconfig.json", text);
            assert!(p.outside(&["tsc"]).is_some(), "{text}");
            assert_eq!(p.outside(&["jest"]), None, "{text}");
        }
        p.remove("tsconfig.json");
        // What only leaves files out of a run names no place, wherever it points.
        p.stays(
            "tsconfig.json",
            r#"{"compilerOptions":{"outDir":"dist"},"exclude":["/nonexistent-dir/**", "/tmp/**"]}"#,
            &["tsc"],
        );
        p.stays(
            "pyproject.toml",
            "[tool.ruff]\nextend-exclude = [\"/tmp/gen\"]\n[tool.ruff.lint]\nignore = [\"E501\"]\n[tool.coverage.run]\nomit = [\"/usr/*\"]\n[tool.pytest.ini_options]\nnorecursedirs = [\"/opt/x\"]\n",
            &["ruff", "coverage", "pytest"],
        );
        p.stays("mypy.ini", "[mypy]\nplugins = pydantic.mypy\nstrict = True\nmypy_path = $MYPY_CONFIG_FILE_DIR/stubs\ncache_dir = /dev/null\n", &["mypy"]);
        p.reaches(
            "mypy.ini",
            "[mypy]\nfiles = ~/.git-credentials\n",
            &["mypy"],
        );
        p.reaches(
            "mypy.ini",
            "[mypy]\nplugins =\n    /tmp/x/mplug.py\n",
            &["mypy"],
        );
        // configparser reads an indented line below a key as its value, `[x]` included.
        p.reaches(
            "setup.cfg",
            "[mypy]\nstrict = True\nnote =\n  [x]\nplugins = /tmp/x/mplug.py\n",
            &["mypy"],
        );
        p.reaches(
            "setup.cfg",
            "[coverage:run]\nomit =\n  a\n  [coverage:other]\ndata_file = /tmp/x/.bashrc\n",
            &["coverage"],
        );
        p.stays(
            "package.json",
            "{\n  \"scripts\": {\"clean\": \"rm -rf /tmp/build\", \"docker\": \"docker run -v $PWD:/app x\"},\n  \"jest\": {\n    \"testPathIgnorePatterns\": [\"/node_modules/\", \"/lib/\"],\n    \"transform\": {\"^.+\\\\.tsx?$\": \"ts-jest\"},\n    \"moduleNameMapper\": {\"^@/(.*)$\": \"<rootDir>/src/$1\"},\n    \"setupFiles\": [\n      \"<rootDir>/setup.js\"\n    ]\n  }\n}\n",
            &["jest", "tsc", "eslint"],
        );
        for jest in [
            r#"{"setupFiles": ["./setup.js", "../../evil.js"]}"#,
            r#"{"testSequencer": "/tmp/x/seq.cjs"}"#,
            r#"{"projects": ["/tmp/x/proj"]}"#,
            r#"{"haste": {"hasteImplModulePath": "/tmp/x/h.cjs"}}"#,
            r#"{"coverageReporters": [["/tmp/x/r.cjs", {}]]}"#,
            r#"{"setupFiles": ["file:///tmp/x/evil.cjs"]}"#,
        ] {
            p.reaches(
                "package.json",
                &format!(r#"{{"name": "x", "jest": {jest}}}"#),
                &["jest"],
            );
        }
        for (file, text) in [
            (".prettierrc", r#"{"plugins":["/tmp/evil.mjs"]}"#),
            (".prettierrc", "\"/tmp/evil.mjs\"\n"),
            (".prettierrc", "plugins:\n  - /tmp/evil.mjs\n"),
            (".prettierrc", "plugins: [\"file:///tmp/evil.mjs\"]\n"),
            // A glob before the value (not a comment), an alias, a flow map, an escaped break.
            (
                ".prettierrc",
                "overrides:\n  - files: src/*\n    options: {}\nplugins: [/tmp/evil.mjs]\n",
            ),
            (
                ".prettierrc.yaml",
                "x: &p /tmp/evil.mjs\nplugins:\n  - *p\n",
            ),
            (".prettierrc.yaml", "plugins: \"/tmp/\\\n  evil.mjs\"\n"),
            (
                "package.yaml",
                "name: x\nprettier:\n  plugins:\n    - /tmp/evil.mjs\n",
            ),
            (
                "package.yaml",
                "name: x\nprettier: {plugins: [/tmp/evil.mjs]}\n",
            ),
            ("package.yaml", "prettier: ../outside/evil.mjs\n"),
        ] {
            p.reaches(file, text, &["prettier"]);
        }
        p.stays(
            "package.yaml",
            "name: x\nscripts:\n  clean: rm -rf /tmp/x\n",
            &["prettier"],
        );
        p.stays(
            ".eslintrc.json",
            r#"{"extends":["eslint:recommended"], "ignorePatterns": ["/dist", "/lib/"]}"#,
            &["eslint"],
        );
        p.stays(
            ".eslintrc.yml",
            "extends:\n  - eslint:recommended\n# see /etc/notes\nignorePatterns:\n  - /lib/\n  - /coverage/\n",
            &["eslint"],
        );
        p.reaches(
            ".eslintrc.json",
            "{\"extends\":\n  [\"/tmp/evil.cjs\"]}",
            &["eslint"],
        );
        p.reaches(
            ".eslintrc.yml",
            "extends:\n  - /tmp/evil.cjs\n",
            &["eslint"],
        );
        // A configuration in JavaScript is the project's code, as its tests are.
        p.stays(
            "jest.config.js",
            "module.exports = {\n  testPathIgnorePatterns: ['/lib/'],\n  reporters: process.env.CI ? ['default'] : ['default'],\n};\n",
            &["jest"],
        );
        p.stays(
            "ruff.toml",
            "line-length = 100\n[lint]\nselect = [\"E\", \"F\"]\n",
            &["ruff"],
        );
        for text in [
            "cache-dir = \"\"\"\n/tmp/x/.ssh/rc\"\"\"\n",
            "\"cache\\u002ddir\" = \"/tmp/x/rc\"\n",
        ] {
            p.reaches("ruff.toml", text, &["ruff"]);
        }
        p.stays(
            "pyproject.toml",
            "[project]\nname = \"x\"\n[tool.poetry]\npackages = [{include = \"x\", from = \"../libs\"}]\n[tool.coverage.report]\nexclude_lines = [\"pragma: no cover\", \"if TYPE_CHECKING:\"]\n[tool.coverage.paths]\nsource = [\"src/\", \"/home/runner/work/demo/demo/src\"]\n",
            &["pytest", "ruff", "mypy"],
        );
        p.reaches(
            "pyproject.toml",
            "[tool.coverage.run]\ndata_file = \"\"\"\n/tmp/x/.bashrc\"\"\"\n",
            &["pytest"],
        );
        p.stays(
            ".coveragerc",
            "[run]\nsource = src\n[paths]\nsource =\n    src/\n    /home/runner/work/app/app/src/\n",
            &["coverage"],
        );
        p.reaches(
            ".coveragerc",
            "[run]\ndebug = config\ndebug_file = /tmp/x/.bashrc\n",
            &["coverage"],
        );
        p.reaches(".prettierrc", "{", &["prettier"]);
    }

    /// A settings file another names is read as the tool finds it.
    #[test]
    fn settings_files_other_settings_name_are_read() {
        let p = Project::new();
        let bad = r#"{"compilerOptions":{"tsBuildInfoFile":"/tmp/x/.bashrc"}}"#;
        for (extends, file) in [
            ("./cfg/base.json", "cfg/base.json"),
            ("./base", "base.json"),
            (
                "@tsconfig/evil/tsconfig.json",
                "node_modules/@tsconfig/evil/tsconfig.json",
            ),
            (
                "@tsconfig/evil",
                "node_modules/@tsconfig/evil/tsconfig.json",
            ),
        ] {
            p.put(
                "tsconfig.json",
                &format!(r#"{{"extends": "{extends}", "files": ["a.ts"]}}"#),
            );
            p.put(file, r#"{"compilerOptions":{"outDir":"dist"}}"#);
            assert_eq!(p.outside(&["tsc"]), None, "{extends}");
            p.put(file, bad);
            assert!(p.outside(&["tsc"]).is_some(), "{extends}");
            p.remove(file);
        }
        p.put(
            "tsconfig.json",
            r#"{"files": [], "references": [{"path": "./sub"}]}"#,
        );
        p.put(
            "sub/tsconfig.json",
            r#"{"compilerOptions":{"outDir":"../../x"}}"#,
        );
        assert!(p.outside(&["tsc"]).is_some());
        // A subproject's parent inside the project is no place outside; a file a setting
        // only includes is not read as settings.
        p.put(
            "sub/tsconfig.json",
            r#"{"extends":"../tsconfig.json","compilerOptions":{"outDir":"../dist/sub"},"include":["../package.json"]}"#,
        );
        p.put(
            "package.json",
            r#"{"scripts": {"x": "cd $PWD && rm -rf /tmp/y"}}"#,
        );
        assert_eq!(p.outside_in(Path::new("sub"), &["tsc"]), None);
        p.remove("tsconfig.json");
        p.put("ruff.toml", "extend = \"cfg/base\"\n");
        p.put("cfg/base.toml", "cache-dir = \"/tmp/x/rc\"\n");
        assert!(p.outside(&["ruff"]).is_some());
        p.remove("ruff.toml");
        p.put(".eslintrc.json", r#"{"extends": ["./cfg/shared"]}"#);
        p.put("cfg/shared.yaml", "extends:\n  - /tmp/evil.cjs\n");
        assert!(p.outside(&["eslint"]).is_some());
        p.remove(".eslintrc.json");
        for jest in [
            r#"{"preset": "evil-preset"}"#,
            r#"{"projects": ["<rootDir>/packages/*"]}"#,
            r#"{"projects": ["<rootDir>/packages/a"]}"#,
        ] {
            p.put(
                "node_modules/evil-preset/jest-preset.json",
                r#"{"setupFiles": ["/tmp/x/e.cjs"]}"#,
            );
            p.put(
                "packages/a/package.json",
                r#"{"jest": {"testSequencer": "/tmp/x/s.cjs"}}"#,
            );
            p.put("package.json", &format!(r#"{{"jest": {jest}}}"#));
            assert!(p.outside(&["jest"]).is_some(), "{jest}");
            p.put(
                "node_modules/evil-preset/jest-preset.json",
                r#"{"setupFiles": ["./e.cjs"]}"#,
            );
            p.put(
                "packages/a/package.json",
                r#"{"jest": {"testSequencer": "./s.cjs"}}"#,
            );
            assert_eq!(p.outside(&["jest"]), None, "{jest}");
        }
    }

    /// ESLint, Prettier and Ruff apply the settings nearest to each file they check.
    #[test]
    fn per_directory_settings_below_are_read() {
        let p = Project::new();
        p.put("src/a.js", "x\n");
        assert_eq!(p.outside(&["eslint", "prettier", "ruff"]), None);
        for (file, tool) in [
            ("src/.eslintrc.json", "eslint"),
            ("src/deep/.prettierrc", "prettier"),
            ("pkg/ruff.toml", "ruff"),
        ] {
            let text = if tool == "ruff" {
                "cache-dir = \"/tmp/x/rc\"\n"
            } else {
                r#"{"plugins": ["/tmp/x/evil.mjs"]}"#
            };
            p.put(file, text);
            assert!(p.outside(&[tool]).is_some(), "{file}");
            assert_eq!(p.outside(&["tsc"]), None, "{file}");
            p.remove(file);
        }
        // What `node_modules` holds applies to no file the checkers look at.
        p.put(
            "node_modules/x/.eslintrc.json",
            r#"{"plugins": ["/tmp/x/evil.mjs"]}"#,
        );
        assert_eq!(p.outside(&["eslint"]), None);
    }
}
