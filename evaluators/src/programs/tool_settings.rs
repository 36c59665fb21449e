//! The settings of the projects' own checkers (tsc, mypy, Prettier, ESLint, Jest, Vitest,
//! Ruff, coverage.py), read for places outside the project: code they load (`plugins`,
//! `setupFiles`, `testSequencer`, a shared configuration) and places they write (`outDir`,
//! `tsBuildInfoFile`, `cache-dir`, `data_file`, `debug_file`, `generateTrace`). Every value
//! of the tool's settings is looked at whatever its key, its line or its spelling: JSON and
//! TOML are parsed (escapes decoded, values on any line), INI values are joined with their
//! continuation lines, YAML and JavaScript are read as text without their comments. A
//! settings file another names (`extends`, `extend`, `references`, `preset`, `projects`)
//! inside the project is read the same way.

use std::path::{Component, Path, PathBuf};

use super::build_config::{ESLINT_FILES, JEST_FILES, MYPY_FILES, PRETTIER_FILES, TSC_FILES};

/// The checkers, each with the files it reads its settings from.
const TOOL_SETTINGS: &[(&str, &[&str])] = &[
    ("tsc", TSC_FILES),
    ("mypy", MYPY_FILES),
    ("prettier", PRETTIER_FILES),
    ("eslint", ESLINT_FILES),
    ("jest", JEST_FILES),
    (
        "vitest",
        &[
            "vitest.config.ts",
            "vitest.config.js",
            "vitest.config.mts",
            "vitest.config.mjs",
            "vitest.config.cts",
            "vitest.config.cjs",
            "vitest.workspace.ts",
            "vitest.workspace.js",
            "vitest.workspace.json",
            "vite.config.ts",
            "vite.config.js",
            "vite.config.mts",
            "vite.config.mjs",
            "vite.config.cts",
            "vite.config.cjs",
        ],
    ),
    ("ruff", RUFF_FILES),
    // coverage.py, which `pytest --cov` runs.
    ("pytest", COVERAGE_FILES),
    ("coverage", COVERAGE_FILES),
];

/// Ruff's settings files (it looks for them in every directory above too).
pub(crate) const RUFF_FILES: &[&str] = &["ruff.toml", ".ruff.toml", "pyproject.toml"];

/// The files coverage.py reads its settings from.
const COVERAGE_FILES: &[&str] = &[".coveragerc", "setup.cfg", "tox.ini", "pyproject.toml"];

/// The most settings files one check reads, those named by others included.
const MAX_FILES: usize = 32;

/// Where a file holds a tool's settings.
#[derive(Clone, Copy)]
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

/// Where `file` holds `tool`'s settings.
fn part(tool: &str, file: &str) -> Part {
    match (file, tool) {
        ("package.json", "jest") => Part::JsonMember("jest"),
        ("package.json", "prettier") => Part::JsonMember("prettier"),
        ("package.json", "eslint") => Part::JsonMember("eslintConfig"),
        ("package.yaml", "prettier") => Part::YamlMember("prettier"),
        ("pyproject.toml", "mypy") => Part::TomlTable(&["tool", "mypy"]),
        ("pyproject.toml", "ruff") => Part::TomlTable(&["tool", "ruff"]),
        ("pyproject.toml", _) => Part::TomlTable(&["tool", "coverage"]),
        ("setup.cfg" | "tox.ini", "mypy") => Part::IniSections(&["mypy"]),
        ("setup.cfg" | "tox.ini", _) => Part::IniSections(&["coverage:"]),
        _ => Part::Whole,
    }
}

/// Why a settings file in `dir` of a checker among `programs` may have it load code from or
/// write outside the project at `root` (both resolved), in words: a value naming a place
/// outside (absolute, `~`, a parent above the root), one only known when it runs (an
/// environment variable, an escape in YAML or JavaScript), or a file that cannot be read.
/// `None` when none does.
pub(crate) fn tool_settings_outside(root: &Path, dir: &Path, programs: &[&str]) -> Option<String> {
    let mut queue: Vec<(PathBuf, Part)> = TOOL_SETTINGS
        .iter()
        .filter(|(tool, _)| programs.contains(tool))
        .flat_map(|(tool, files)| files.iter().map(move |f| (dir.join(f), part(tool, f))))
        .filter(|(path, _)| std::fs::symlink_metadata(path).is_ok())
        .collect();
    let mut seen: Vec<PathBuf> = Vec::new();
    while let Some((path, part)) = queue.pop() {
        if seen.len() >= MAX_FILES {
            return Some(format!(
                "the checkers' settings name more than {MAX_FILES} files"
            ));
        }
        seen.push(path.clone());
        let shown = path
            .strip_prefix(root)
            .unwrap_or(&path)
            .display()
            .to_string();
        let Some(text) = crate::paths::small_file::read_text(&path).ok().flatten() else {
            return Some(format!("`{shown}` cannot be read"));
        };
        let here = path.parent().unwrap_or(root);
        let values = match settings_values(&path, &text, part) {
            Ok(values) => values,
            Err(why) => return Some(format!("`{shown}` {why}")),
        };
        for value in &values {
            if let Some(why) = value_outside(root, here, value) {
                return Some(format!("`{shown}` {why}"));
            }
            // Another settings file it names, read as a whole.
            if let Some(named) = named_settings(root, here, value)
                && !seen.contains(&named)
                && !queue.iter().any(|(p, _)| *p == named)
            {
                queue.push((named, Part::Whole));
            }
        }
    }
    None
}

/// The values `text` (the file at `path`) gives in its `part`, each a string as the tool
/// reads it; an error says why they are not known.
fn settings_values(path: &Path, text: &str, part: Part) -> Result<Vec<String>, String> {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    let ext = name.rsplit_once('.').map_or("", |(_, e)| e);
    match part {
        Part::JsonMember(member) => {
            let json: serde_json::Value =
                serde_json::from_str(text).map_err(|e| format!("is not JSON ({e})"))?;
            let mut out = Vec::new();
            if let Some(v) = json.get(member) {
                json_strings(v, &mut out);
            }
            Ok(out)
        }
        Part::TomlTable(keys) => {
            let toml: toml::Table = text
                .parse()
                .map_err(|e: toml::de::Error| format!("is not TOML ({})", e.message()))?;
            let mut at = Some(&toml::Value::Table(toml));
            for k in keys {
                at = at.and_then(|v| v.get(k));
            }
            let mut out = Vec::new();
            if let Some(v) = at {
                toml_strings(v, &mut out);
            }
            Ok(out)
        }
        Part::IniSections(prefixes) => Ok(ini_values(text, Some(prefixes))),
        Part::YamlMember(member) => text_words(&yaml_member(text, member), Comments::Hash),
        Part::Whole => match ext {
            "toml" => settings_values(path, text, Part::TomlTable(&[])),
            "ini" | "cfg" | "coveragerc" => Ok(ini_values(text, None)),
            "yaml" | "yml" => text_words(text, Comments::Hash),
            "js" | "cjs" | "mjs" | "ts" | "cts" | "mts" => text_words(text, Comments::Slash),
            // JSON, JSON with comments (`tsconfig.json`), JSON5, and `.prettierrc` or
            // `.eslintrc`, which are JSON or YAML: parsed when they parse, else read as text.
            _ => match serde_json::from_str::<serde_json::Value>(&strip_slash_comments(text)) {
                Ok(json) => {
                    let mut out = Vec::new();
                    json_strings(&json, &mut out);
                    Ok(out)
                }
                Err(_) => text_words(text, Comments::Both),
            },
        },
    }
}

/// Every string of a JSON value, keys of objects left out (a Jest `transform`'s keys are
/// regular expressions), except the values of keys that hold patterns
/// ([`pattern_key`]).
fn json_strings(v: &serde_json::Value, out: &mut Vec<String>) {
    match v {
        serde_json::Value::String(s) => out.push(s.clone()),
        serde_json::Value::Array(items) => items.iter().for_each(|i| json_strings(i, out)),
        serde_json::Value::Object(map) => map
            .iter()
            .filter(|(k, _)| !pattern_key(k))
            .for_each(|(_, v)| json_strings(v, out)),
        _ => {}
    }
}

/// Every string of a TOML value ([`json_strings`]).
fn toml_strings(v: &toml::Value, out: &mut Vec<String>) {
    match v {
        toml::Value::String(s) => out.push(s.clone()),
        toml::Value::Array(items) => items.iter().for_each(|i| toml_strings(i, out)),
        toml::Value::Table(t) => t
            .iter()
            .filter(|(k, _)| !pattern_key(k))
            .for_each(|(_, v)| toml_strings(v, out)),
        _ => {}
    }
}

/// Whether a key's values are regular expressions or globs matched against paths rather
/// than paths (`testPathIgnorePatterns`, `testRegex`, `exclude_lines`): `/node_modules/` is
/// no directory at the root.
fn pattern_key(key: &str) -> bool {
    let lower = key.to_ascii_lowercase();
    [
        "patterns",
        "pattern",
        "regex",
        "exclude_lines",
        "exclude_also",
        "partial_branches",
    ]
    .iter()
    .any(|end| lower.ends_with(end))
}

/// The values of an INI file's keys, each joined with its continuation lines (indented lines
/// below it), in the sections whose names begin with one of `prefixes` (every section when
/// `None`); comment lines (`#`, `;`) left out.
fn ini_values(text: &str, prefixes: Option<&[&str]>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut inside = prefixes.is_none();
    let mut continuing = false;
    for line in text.lines() {
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with(['#', ';']) {
            continue;
        }
        if trimmed.starts_with('[') {
            let name = trimmed.trim_matches(['[', ']']).trim().to_ascii_lowercase();
            inside = prefixes.is_none_or(|p| p.iter().any(|p| name.starts_with(p)));
            continuing = false;
            continue;
        }
        if !inside {
            continue;
        }
        let indented = line.starts_with([' ', '\t']);
        if indented && continuing {
            if let Some(last) = out.last_mut() {
                last.push('\n');
                last.push_str(trimmed);
            }
            continue;
        }
        // An indented line is also read as a key of its own (configparser and pytest differ).
        if let Some((_, value)) = trimmed.split_once(['=', ':']) {
            out.push(value.trim().to_owned());
            continuing = true;
        } else if indented {
            out.push(trimmed.to_owned());
        }
    }
    out
}

/// The lines of a YAML document's top-level member `member` (`prettier:` and the lines
/// indented below it).
fn yaml_member(text: &str, member: &str) -> String {
    let mut out = String::new();
    let mut inside = false;
    for line in text.lines() {
        let top = !line.starts_with([' ', '\t', '-']) && !line.trim().is_empty();
        if top {
            let key = line.split(':').next().unwrap_or_default().trim();
            inside = key.trim_matches(['"', '\'']) == member;
        }
        if inside {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

/// The comments of a text format.
#[derive(Clone, Copy, PartialEq)]
enum Comments {
    /// `#` to the end of the line (YAML).
    Hash,
    /// `//` to the end of the line and `/* … */` (JavaScript, JSON with comments).
    Slash,
    /// Either (a file that may be JSON or YAML).
    Both,
}

/// The words of a text read without its comments (outside quotes); an escape that may spell
/// a character otherwise (`\u002f`, `\x2f`) or a value taken from the environment makes them
/// unknown.
fn text_words(text: &str, comments: Comments) -> Result<Vec<String>, String> {
    let bare = strip_comments(text, comments);
    // In JavaScript a backslash is everyday in a regular expression (`/\/__tests__\//`),
    // whose words are then no paths ([`words`]); in YAML and JSON5 `\/` spells `/`.
    if comments != Comments::Slash && bare.contains("\\/") {
        return Err("spells a character by an escape (`\\/`)".to_owned());
    }
    for (marker, what) in [
        ("\\u", "spells a character by an escape"),
        ("\\x", "spells a character by an escape"),
        ("\\U", "spells a character by an escape"),
        ("process.env", "takes a value from the environment"),
        ("import.meta.env", "takes a value from the environment"),
        ("homedir", "names the home directory"),
    ] {
        if bare.contains(marker) {
            return Err(format!("{what} (`{marker}`)"));
        }
    }
    Ok(vec![bare])
}

/// `text` without its JavaScript comments.
fn strip_slash_comments(text: &str) -> String {
    strip_comments(text, Comments::Slash)
}

/// `text` without the comments of `comments`, quotes honoured (`"…"`, `'…'`, `` `…` ``, a
/// backslash escaping the next character inside them).
fn strip_comments(text: &str, comments: Comments) -> String {
    let slash = matches!(comments, Comments::Slash | Comments::Both);
    let hash = matches!(comments, Comments::Hash | Comments::Both);
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    let mut quote: Option<char> = None;
    let mut previous = '\n';
    while let Some(c) = chars.next() {
        if let Some(q) = quote {
            out.push(c);
            if c == '\\' {
                if let Some(n) = chars.next() {
                    out.push(n);
                }
            } else if c == q || (c == '\n' && q != '`') {
                quote = None;
            }
            previous = c;
            continue;
        }
        match c {
            '"' | '\'' | '`' => {
                quote = Some(c);
                out.push(c);
            }
            '/' if slash && chars.peek() == Some(&'/') => {
                for n in chars.by_ref() {
                    if n == '\n' {
                        out.push('\n');
                        break;
                    }
                }
            }
            '/' if slash && chars.peek() == Some(&'*') => {
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
            '#' if hash && previous.is_whitespace() => {
                for n in chars.by_ref() {
                    if n == '\n' {
                        out.push('\n');
                        break;
                    }
                }
            }
            _ => out.push(c),
        }
        previous = c;
    }
    out
}

/// Why `value`, read in a settings file in `here`, may name a place outside the project at
/// `root`, in words; `None` when each of its words stays inside or names no place.
fn value_outside(root: &Path, here: &Path, value: &str) -> Option<String> {
    if value.contains("${") && !value.contains("${configDir}") {
        return Some(format!(
            "takes a value from the environment (`{}`)",
            shorten(value)
        ));
    }
    words(value).find_map(|word| {
        word_outside(root, here, word).then(|| format!("names `{word}`, outside the project"))
    })
}

/// The first characters of a long value, for a reason.
fn shorten(value: &str) -> String {
    value.chars().take(60).collect()
}

/// The words of a value that may be paths: between blanks, quotes, brackets, commas, `=`,
/// `;` and `:` (`xml:out/cov.xml`), URLs left out.
fn words(value: &str) -> impl Iterator<Item = &str> {
    value
        .split(|c: char| c.is_whitespace() || "\"'`,[]{}()=;".contains(c))
        .filter(|w| !w.contains("://"))
        .flat_map(|w| w.split(':'))
        .filter(|w| !w.is_empty())
        // A regular expression's words (`\/__tests__\/`): an escape in a value left in is
        // refused by [`text_words`] where it may spell a path.
        .filter(|w| !w.contains('\\'))
}

/// Whether `word`, read in `here`, names a place outside `root`: `~…`, an environment
/// variable (`$HOME/…`), an absolute path not under the root whose first directory exists
/// (`/node_modules/` of a pattern names none), or a relative path whose `..` parts climb
/// above the root (`<rootDir>/` and `${configDir}/` are `here`).
fn word_outside(root: &Path, here: &Path, word: &str) -> bool {
    if word.starts_with('~') {
        return true;
    }
    if let Some(rest) = word.strip_prefix('$') {
        return rest.starts_with(|c: char| c.is_ascii_uppercase() || c == '{');
    }
    if word.starts_with('/') {
        let path = Path::new(word);
        if path.starts_with(root) {
            return climbs_above(root, root, path.strip_prefix(root).unwrap_or(path));
        }
        let first = path.components().nth(1);
        return first.is_some_and(|c| Path::new("/").join(c).exists());
    }
    let word = ["<rootDir>/", "${configDir}/", "<rootdir>/"]
        .iter()
        .find_map(|p| word.strip_prefix(p))
        .unwrap_or(word);
    climbs_above(root, here, Path::new(word))
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

/// The settings file `value`, read in `here`, names inside the project at `root`, when it
/// names one: a file that exists with a settings file's extension (`./base.json`,
/// `cfg/base.toml`, `./jest.preset.js`), or a directory holding a `tsconfig.json` (a
/// project reference).
fn named_settings(root: &Path, here: &Path, value: &str) -> Option<PathBuf> {
    let value = value.trim();
    if value.is_empty() || value.contains(['\n', '*']) || value.contains("://") {
        return None;
    }
    let value = ["<rootDir>/", "${configDir}/"]
        .iter()
        .find_map(|p| value.strip_prefix(p))
        .unwrap_or(value);
    let path = std::fs::canonicalize(here.join(value)).ok()?;
    if !path.starts_with(root) {
        return None;
    }
    if path.is_dir() {
        let config = path.join("tsconfig.json");
        return config.is_file().then_some(config);
    }
    let name = path.file_name()?.to_string_lossy().to_ascii_lowercase();
    let ext = name.rsplit_once('.').map_or("", |(_, e)| e);
    let settings = matches!(
        ext,
        "json" | "json5" | "jsonc" | "toml" | "yaml" | "yml" | "ini" | "cfg"
    ) || (matches!(ext, "js" | "cjs" | "mjs" | "ts" | "cts" | "mts")
        && ["config", "rc", "preset", "eslint", "prettier", "jest"]
            .iter()
            .any(|k| name.contains(k)));
    (settings && path.is_file()).then_some(path)
}

#[cfg(test)]
mod tests {
    use super::tool_settings_outside;

    /// A checker's settings name code to load or a place to write: one outside the project
    /// counts whatever its key, its line or its spelling; a pattern does not.
    #[test]
    fn checker_settings_outside_the_project_count() {
        let dir = tempfile::tempdir().expect("dir");
        let root = std::fs::canonicalize(dir.path()).expect("root");
        let put = |name: &str, text: &str| {
            let path = root.join(name);
            std::fs::create_dir_all(path.parent().expect("parent")).expect("dirs");
            std::fs::write(path, text).expect("write");
        };
        let outside = |programs: &[&str]| tool_settings_outside(&root, &root, programs);
        let outside_in =
            |sub: &str, programs: &[&str]| tool_settings_outside(&root, &root.join(sub), programs);
        put(
            "tsconfig.json",
            "// generated\n{\n  /* options */\n  \"$schema\": \"https://json.schemastore.org/tsconfig\",\n  \"compilerOptions\": {\"outDir\": \"dist\", \"strict\": true, \"paths\": {\"@/*\": [\"./src/*\"]}},\n  \"include\": [\"src/**/*\"],\n}\n",
        );
        assert_eq!(outside(&["tsc"]), None);
        for text in [
            r#"{"compilerOptions":{"incremental":true,"tsBuildInfoFile":"/home/u/.bashrc"}}"#,
            "{\"compilerOptions\": {\"tsBuildInfoFile\":\n  \"/root/.bashrc\"}}",
            r#"{"compilerOptions":{"tsBuild\u0049nfoFile":"\u002fetc/x"}}"#,
            r#"{"compilerOptions":{"generateTrace":"~/.config/autostart"}}"#,
            r#"{"compilerOptions":{"outDir":"../out"}}"#,
            r#"{"compilerOptions":{"outDir":"${HOME}/out"}}"#,
        ] {
            put("tsconfig.json", text);
            assert!(outside(&["tsc"]).is_some(), "{text}");
            assert_eq!(outside(&["jest"]), None, "{text}");
        }
        // A settings file another names, inside: read too.
        put(
            "tsconfig.json",
            r#"{"extends": "./cfg/base.json", "files": ["a.ts"]}"#,
        );
        put("cfg/base.json", r#"{"compilerOptions":{"outDir":"dist"}}"#);
        assert_eq!(outside(&["tsc"]), None);
        put(
            "cfg/base.json",
            r#"{"compilerOptions":{"tsBuildInfoFile":"/tmp/x/.bashrc"}}"#,
        );
        assert!(outside(&["tsc"]).is_some());
        put(
            "tsconfig.json",
            r#"{"files": [], "references": [{"path": "./sub"}]}"#,
        );
        put(
            "sub/tsconfig.json",
            r#"{"compilerOptions":{"outDir":"../../x"}}"#,
        );
        assert!(outside(&["tsc"]).is_some());
        // A subproject's parent inside the project is no place outside.
        put(
            "sub/tsconfig.json",
            r#"{"extends":"../tsconfig.json","compilerOptions":{"outDir":"../dist/sub"}}"#,
        );
        assert_eq!(outside_in("sub", &["tsc"]), None);
        put(
            "mypy.ini",
            "[mypy]\nplugins = pydantic.mypy\nstrict = True\n",
        );
        assert_eq!(outside(&["mypy"]), None);
        for text in [
            "[mypy]\nfiles = ~/.git-credentials\npretty = True\n",
            "[mypy]\nplugins =\n    /tmp/x/mplug.py\n",
        ] {
            put("mypy.ini", text);
            assert!(outside(&["mypy"]).is_some(), "{text}");
        }
        std::fs::remove_file(root.join("mypy.ini")).expect("removed");
        put(
            "package.json",
            "{\n  \"scripts\": {\"clean\": \"rm -rf /tmp/build\"},\n  \"jest\": {\n    \"testPathIgnorePatterns\": [\"/node_modules/\"],\n    \"transform\": {\"^.+\\\\.tsx?$\": \"ts-jest\"},\n    \"setupFiles\": [\n      \"<rootDir>/setup.js\"\n    ]\n  }\n}\n",
        );
        assert_eq!(outside(&["jest"]), None);
        for jest in [
            r#"{"setupFiles": ["./setup.js", "../../evil.js"]}"#,
            r#"{"testSequencer": "/tmp/x/seq.cjs"}"#,
            r#"{"projects": ["/tmp/x/proj"]}"#,
            r#"{"haste": {"hasteImplModulePath": "/tmp/x/h.cjs"}}"#,
            r#"{"coverageReporters": [["/tmp/x/r.cjs", {}]]}"#,
        ] {
            put(
                "package.json",
                &format!(r#"{{"name": "x", "jest": {jest}}}"#),
            );
            assert!(outside(&["jest"]).is_some(), "{jest}");
        }
        std::fs::remove_file(root.join("package.json")).expect("removed");
        for (file, text) in [
            (".prettierrc", r#"{"plugins":["/tmp/evil.mjs"]}"#),
            (".prettierrc", "\"/tmp/evil.mjs\"\n"),
            (".prettierrc", "plugins:\n  - /tmp/evil.mjs\n"),
            (
                "package.yaml",
                "name: x\nprettier:\n  plugins:\n    - /tmp/evil.mjs\n",
            ),
            ("package.yaml", "prettier: ../outside/evil.mjs\n"),
        ] {
            put(file, text);
            assert!(outside(&["prettier"]).is_some(), "{file}: {text}");
            std::fs::remove_file(root.join(file)).expect("removed");
        }
        put(
            "package.yaml",
            "name: x\nscripts:\n  clean: rm -rf /tmp/x\n",
        );
        assert_eq!(outside(&["prettier"]), None);
        put(
            ".eslintrc.json",
            r#"{"extends":["eslint:recommended"], "ignorePatterns": ["/dist"]}"#,
        );
        assert_eq!(outside(&["eslint"]), None);
        for text in [
            r#"{"extends":["/tmp/evil.cjs"]}"#,
            "{\"extends\":\n  [\"/tmp/evil.cjs\"]}",
        ] {
            put(".eslintrc.json", text);
            assert!(outside(&["eslint"]).is_some(), "{text}");
        }
        std::fs::remove_file(root.join(".eslintrc.json")).expect("removed");
        put(
            ".eslintrc.yml",
            "extends:\n  - eslint:recommended\n# see /etc/notes\n",
        );
        assert_eq!(outside(&["eslint"]), None);
        put(".eslintrc.yml", "extends:\n  - /tmp/evil.cjs\n");
        assert!(outside(&["eslint"]).is_some());
        put(
            "jest.config.js",
            "// https://jestjs.io/docs/configuration\nmodule.exports = {\n  testRegex: /(\\/__tests__\\/.*|\\.test)\\.js$/,\n  testPathIgnorePatterns: ['/node_modules/'],\n};\n",
        );
        assert_eq!(outside(&["jest"]), None);
        put(
            "jest.config.js",
            "module.exports = { setupFiles: [process.env.SETUP] };\n",
        );
        assert!(outside(&["jest"]).is_some());
        put(
            "jest.config.js",
            "module.exports = {\n  setupFiles: [\n    '/tmp/x/evil.cjs',\n  ],\n};\n",
        );
        assert!(outside(&["jest"]).is_some());
        put(
            "ruff.toml",
            "line-length = 100\n[lint]\nselect = [\"E\", \"F\"]\n",
        );
        assert_eq!(outside(&["ruff"]), None);
        for text in [
            "cache-dir = \"\"\"\n/tmp/x/.ssh/rc\"\"\"\n",
            "\"cache\\u002ddir\" = \"/tmp/x/rc\"\n",
            "extend = \"cfg/base.toml\"\n",
        ] {
            put("cfg/base.toml", "cache-dir = \"/tmp/x/rc\"\n");
            put("ruff.toml", text);
            assert!(outside(&["ruff"]).is_some(), "{text}");
        }
        std::fs::remove_file(root.join("ruff.toml")).expect("removed");
        put(
            "pyproject.toml",
            "[project]\nname = \"x\"\n[tool.poetry]\npackages = [{include = \"x\", from = \"../libs\"}]\n[tool.coverage.report]\nexclude_lines = [\"pragma: no cover\", \"if TYPE_CHECKING:\"]\n",
        );
        assert_eq!(outside(&["pytest", "ruff", "mypy"]), None);
        put(
            "pyproject.toml",
            "[tool.coverage.run]\ndata_file = \"\"\"\n/tmp/x/.bashrc\"\"\"\n",
        );
        assert!(outside(&["pytest"]).is_some());
        assert_eq!(outside(&["ruff"]), None);
        put(
            ".coveragerc",
            "[run]\ndebug = config\ndebug_file = /tmp/x/.bashrc\n",
        );
        assert!(outside(&["coverage"]).is_some());
    }
}
