//! The evaluating process's environment variables that decisions read, read once.
//!
//! Some answers depend on the environment of the process that decides (the agent's, for a
//! hook; the sidecar's): the `PATH` whose directories are protected and whose programs a
//! name runs, `HOME`, a `CDPATH` every `cd NAME` searches, the variables naming git's and
//! Go's configuration. A process's environment changes only when the process changes it
//! itself, and in Rust only through `unsafe` code (`std::env::set_var`), which nothing in
//! Warrant calls. So the variables below are read together when the first one is needed
//! and kept for the life of the process: each decision is spared a dozen look-ups, each of
//! which takes the environment's lock, scans every variable and copies the value. An
//! embedding program that changes these variables after its first decision must start a
//! new process for the change to count. Other names are read when asked for.

use std::borrow::Cow;
use std::ffi::{OsStr, OsString};
use std::sync::OnceLock;

/// The variables read once.
const KEPT: [&str; 10] = [
    "PATH",
    "HOME",
    "CDPATH",
    "CARGO_HOME",
    "GIT_CONFIG_GLOBAL",
    "GIT_CONFIG_SYSTEM",
    "GIT_CONFIG_COUNT",
    "XDG_CONFIG_HOME",
    "GOENV",
    "GOTOOLCHAIN",
];

/// The values of [`KEPT`], in its order.
static VALUES: OnceLock<[Option<OsString>; KEPT.len()]> = OnceLock::new();

/// The variable `name` of the evaluating process, as set (an empty value included): for
/// the names in [`KEPT`], as it was when the first was needed; any other, as it is now.
pub(crate) fn var(name: &str) -> Option<Cow<'static, OsStr>> {
    match KEPT.iter().position(|k| *k == name) {
        Some(at) => {
            let values = VALUES.get_or_init(|| KEPT.map(std::env::var_os));
            values[at].as_deref().map(Cow::Borrowed)
        }
        None => std::env::var_os(name).map(Cow::Owned),
    }
}

/// [`var`] when it is set and not empty.
pub(crate) fn non_empty(name: &str) -> Option<Cow<'static, OsStr>> {
    var(name).filter(|v| !v.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kept_variables_are_the_process_values_and_others_are_read_live() {
        for name in KEPT {
            assert_eq!(
                var(name).map(Cow::into_owned),
                std::env::var_os(name),
                "{name}"
            );
        }
        // A name outside the kept ones is read as it is (no test here sets one: the value
        // is whatever the process was started with).
        assert_eq!(
            var("WARRANT_TEST_UNSET_VARIABLE_3c1f").map(Cow::into_owned),
            std::env::var_os("WARRANT_TEST_UNSET_VARIABLE_3c1f")
        );
        assert_eq!(
            non_empty("PATH").is_some(),
            std::env::var_os("PATH").is_some_and(|p| !p.is_empty())
        );
    }
}
