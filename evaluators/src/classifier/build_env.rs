//! The environment a build runs in, as far as it makes the build run a program or load code
//! from elsewhere: cargo reads every `CARGO_*` variable as its configuration (a
//! `CARGO_BUILD_RUSTC_WRAPPER`, a `CARGO_TARGET_<triple>_RUNNER`), rustc's flags may name a
//! linker or a codegen backend, npm reads `npm_config_*` (a `script-shell`), Go reads
//! `GOFLAGS` (`-toolexec`), make its flags and extra makefiles, the JVM its agents, pytest its
//! plugins, and C compilers are named by `CC`/`CXX`. The embedded reviewer judges the
//! environment of the process it runs in, which is the agent's when Warrant runs as its hook
//! or beside it.

/// Variables that steer a build whatever their value.
const STEERING: &[&str] = &[
    "RUSTC",
    "RUSTC_WRAPPER",
    "RUSTC_WORKSPACE_WRAPPER",
    "RUSTDOC",
    "RUSTC_BOOTSTRAP",
    "NODE_OPTIONS",
    "NODE_PATH",
    "GOFLAGS",
    "GOENV",
    "GOWORK",
    "GOTOOLCHAIN",
    "CC",
    "CXX",
    "CPP",
    "LD",
    "AR",
    "CFLAGS",
    "CXXFLAGS",
    "CPPFLAGS",
    "LDFLAGS",
    // The C compilers' own: where they find the programs they run, options they add, files
    // they write.
    "GCC_EXEC_PREFIX",
    "COMPILER_PATH",
    "CCC_OVERRIDE_OPTIONS",
    "DEPENDENCIES_OUTPUT",
    "SUNPRO_DEPENDENCIES",
    "MAKEFLAGS",
    "MFLAGS",
    "GNUMAKEFLAGS",
    "MAKEFILES",
    "MAVEN_OPTS",
    "MAVEN_ARGS",
    "JAVA_TOOL_OPTIONS",
    "JDK_JAVA_OPTIONS",
    "_JAVA_OPTIONS",
    "GRADLE_OPTS",
    "GRADLE_USER_HOME",
    "PYTEST_ADDOPTS",
    "PYTEST_PLUGINS",
    "PYTHONPATH",
    "PYTHONHOME",
];

/// Beginnings of names whose variables are a tool's configuration, any of which may name a
/// program (compared without case: npm reads `npm_config_*` and `NPM_CONFIG_*`).
const STEERING_PREFIXES: &[&str] = &["CARGO_", "NPM_CONFIG_", "YARN_", "BUN_CONFIG_"];

/// `CARGO_*` variables that only say what cargo prints, how hard it works, or what a build
/// script or test is told (cargo sets them itself for the programs it runs).
const CARGO_HARMLESS: &[&str] = &[
    "CARGO_HOME",
    "CARGO_MANIFEST_DIR",
    "CARGO_MANIFEST_PATH",
    "CARGO_CRATE_NAME",
    "CARGO_BIN_NAME",
    "CARGO_PRIMARY_PACKAGE",
    "CARGO_TARGET_DIR",
    "CARGO_TARGET_TMPDIR",
    "CARGO_INCREMENTAL",
    "CARGO_LOG",
    "CARGO_BUILD_JOBS",
    "CARGO_NET_OFFLINE",
    "CARGO_NET_RETRY",
    "CARGO_NET_GIT_FETCH_WITH_CLI",
    "CARGO_REGISTRIES_CRATES_IO_PROTOCOL",
    "CARGO_HTTP_TIMEOUT",
    "CARGO_HTTP_MULTIPLEXING",
];

/// Beginnings of `CARGO_*` names that steer nothing a build runs: output, package metadata
/// cargo gives a program, profile settings (none names a program).
const CARGO_HARMLESS_PREFIXES: &[&str] = &[
    "CARGO_TERM_",
    "CARGO_PKG_",
    "CARGO_BIN_EXE_",
    "CARGO_PROFILE_",
];

/// rustc flags that only change which lints warn or fail and which `cfg`s are set.
const LINT_FLAGS: &[&str] = &[
    "-D",
    "-W",
    "-A",
    "-F",
    "--cap-lints",
    "--cfg",
    "--check-cfg",
];

/// Whether a value of rustc's flags (`RUSTFLAGS`, space-separated; `CARGO_ENCODED_RUSTFLAGS`,
/// separated by 0x1f) holds only lint levels and `cfg`s: any other flag may name a linker, a
/// codegen backend, a sysroot or a library (`-C linker=/tmp/x`).
fn only_lint_flags(value: &str) -> bool {
    let mut words = value
        .split(|c: char| c.is_ascii_whitespace() || c == '\u{1f}')
        .filter(|w| !w.is_empty());
    while let Some(word) = words.next() {
        if LINT_FLAGS.contains(&word) {
            if words.next().is_none() {
                return false;
            }
        } else if !LINT_FLAGS.iter().any(|f| {
            word.strip_prefix(f)
                .is_some_and(|rest| !rest.is_empty() && (f.len() == 2 || rest.starts_with('=')))
        }) {
            return false;
        }
    }
    true
}

/// Why the variable `name` with `value` makes a build run a program or load code from
/// elsewhere, if it does.
fn steers(name: &str, value: &str) -> Option<String> {
    if value.is_empty() {
        return None;
    }
    let upper = name.to_ascii_uppercase();
    let flags = matches!(
        upper.as_str(),
        "RUSTFLAGS"
            | "RUSTDOCFLAGS"
            | "CARGO_ENCODED_RUSTFLAGS"
            | "CARGO_ENCODED_RUSTDOCFLAGS"
            | "CARGO_BUILD_RUSTFLAGS"
            | "CARGO_BUILD_RUSTDOCFLAGS"
    );
    if flags {
        return (!only_lint_flags(value))
            .then(|| format!("`{name}` gives rustc flags beyond lint levels"));
    }
    // A toolchain named by a path runs that toolchain's cargo and rustc.
    if upper == "RUSTUP_TOOLCHAIN" {
        return value
            .contains(['/', '\\'])
            .then(|| format!("`{name}` names a toolchain by its path"));
    }
    let harmless = CARGO_HARMLESS.contains(&upper.as_str())
        || CARGO_HARMLESS_PREFIXES.iter().any(|p| upper.starts_with(p));
    let steering = STEERING.contains(&name)
        || (!harmless && STEERING_PREFIXES.iter().any(|p| upper.starts_with(p)));
    steering.then(|| format!("the environment sets `{name}`"))
}

/// Why the environment `vars` makes a build run a program or load code from elsewhere, if it
/// does: a variable that steers one, or cargo's configuration in `CARGO_HOME` (see
/// [`crate::programs::build_config::cargo_home_config`]).
pub(super) fn steering(vars: &[(String, String)]) -> Option<String> {
    for (name, value) in vars {
        if let Some(why) = steers(name, value) {
            return Some(why);
        }
    }
    let home = vars
        .iter()
        .find(|(n, v)| n == "CARGO_HOME" && !v.is_empty())?;
    crate::programs::build_config::cargo_home_config(std::path::Path::new(&home.1)).map(|f| {
        format!(
            "`{}` in `CARGO_HOME` may name a program cargo runs",
            std::path::Path::new(&home.1).join(f).display()
        )
    })
}

/// The variables of this process that [`steering`] reads: those that steer a build, and
/// `CARGO_HOME`.
pub(super) fn captured() -> Vec<(String, String)> {
    std::env::vars_os()
        .filter_map(|(n, v)| Some((n.into_string().ok()?, v.into_string().ok()?)))
        .filter(|(n, v)| n == "CARGO_HOME" || steers(n, v).is_some())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::steering;

    fn vars(list: &[(&str, &str)]) -> Vec<(String, String)> {
        list.iter()
            .map(|(n, v)| ((*n).to_owned(), (*v).to_owned()))
            .collect()
    }

    #[test]
    fn variables_that_make_a_build_run_a_program_are_found() {
        for (name, value) in [
            ("RUSTC_WRAPPER", "/tmp/evil"),
            ("CARGO_BUILD_RUSTC_WRAPPER", "/tmp/evil"),
            ("CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUNNER", "/tmp/evil"),
            ("CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_LINKER", "/tmp/evil"),
            ("CARGO_HOST_LINKER", "/tmp/evil"),
            ("CARGO_UNSTABLE_BUILD_STD", "true"),
            ("RUSTFLAGS", "-Clinker=/tmp/evil"),
            ("RUSTFLAGS", "-D warnings -C link-arg=-B/tmp"),
            ("RUSTFLAGS", "-Zcodegen-backend=/tmp/x.so"),
            ("CARGO_ENCODED_RUSTFLAGS", "-C\u{1f}linker=/tmp/evil"),
            ("RUSTUP_TOOLCHAIN", "/tmp/toolchain"),
            ("npm_config_script_shell", "/tmp/evil"),
            ("NPM_CONFIG_USERCONFIG", "/tmp/npmrc"),
            ("NODE_OPTIONS", "--require /tmp/x.js"),
            ("YARN_YARN_PATH", "/tmp/yarn.js"),
            ("GOFLAGS", "-toolexec=/tmp/evil"),
            ("CC", "/tmp/cc"),
            ("MAKEFILES", "/tmp/x.mk"),
            ("JAVA_TOOL_OPTIONS", "-javaagent:/tmp/a.jar"),
            ("PYTEST_PLUGINS", "evil"),
            ("PYTHONPATH", "/tmp/mods"),
        ] {
            assert!(
                steering(&vars(&[(name, value)])).is_some(),
                "{name}={value}"
            );
        }
        // What cargo and rustup set for the programs they run, and settings of output,
        // effort and lint levels.
        let quiet = vars(&[
            ("CARGO", "/usr/bin/cargo"),
            ("CARGO_MANIFEST_DIR", "/w"),
            ("CARGO_PKG_NAME", "demo"),
            ("CARGO_BIN_EXE_demo", "/w/target/debug/demo"),
            ("CARGO_TARGET_TMPDIR", "/w/target/tmp"),
            ("CARGO_TERM_COLOR", "always"),
            ("CARGO_INCREMENTAL", "0"),
            ("CARGO_PROFILE_RELEASE_DEBUG", "true"),
            ("RUSTFLAGS", "-D warnings"),
            ("RUSTFLAGS", "-Dwarnings --cfg tokio_unstable"),
            ("RUSTDOCFLAGS", "-D warnings"),
            ("RUSTUP_TOOLCHAIN", "stable-x86_64-unknown-linux-gnu"),
            ("RUST_BACKTRACE", "1"),
            ("RUSTC_WRAPPER", ""),
            ("PATH", "/usr/bin"),
        ]);
        assert_eq!(steering(&quiet), None);
    }

    #[test]
    fn cargo_configuration_in_cargo_home_is_found() {
        let home = tempfile::tempdir().expect("dir");
        let set = vars(&[("CARGO_HOME", &home.path().to_string_lossy())]);
        assert_eq!(steering(&set), None);
        std::fs::write(
            home.path().join("config.toml"),
            "[build]\nrustc-wrapper = \"/x\"\n",
        )
        .expect("config");
        assert!(steering(&set).is_some());
    }
}
