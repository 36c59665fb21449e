//! Helpers shared by the example agents: finding the `warrant` binary and reading its events.
//!
//! The examples themselves live in `examples/` (`cargo run -p warrant-examples --example
//! NAME`): `embedded_mock`, `stdio_sidecar` and `http_approval`.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

/// The `warrant` binary of this workspace, built first so that it is current.
///
/// # Panics
///
/// When cargo cannot build it: an example cannot run without it.
pub fn warrant_binary() -> PathBuf {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let status = Command::new(cargo)
        .args(["build", "--quiet", "-p", "warrant", "--bin", "warrant"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .status()
        .expect("cargo runs");
    assert!(status.success(), "building the warrant binary failed");
    // Examples live in target/<profile>/examples; the binary one level up.
    let exe = std::env::current_exe().expect("the example has a path");
    let profile = exe
        .parent()
        .and_then(Path::parent)
        .expect("target/<profile>");
    profile.join(format!("warrant{}", std::env::consts::EXE_SUFFIX))
}

/// A fresh directory for one run of an example (its workspace and data directory).
///
/// # Panics
///
/// When the directory cannot be made.
pub fn scratch_dir(example: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("warrant-example-{example}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("the scratch directory is made");
    dir
}

/// The value of a `CUSTOM` AG-UI event named `name` about `tool_call_id`, if `event` is one.
pub fn custom<'a>(event: &'a Value, name: &str, tool_call_id: &str) -> Option<&'a Value> {
    let value = event.get("value")?;
    let is_it = event.get("type")? == "CUSTOM"
        && event.get("name")? == name
        && value.get("toolCallId")? == tool_call_id;
    is_it.then_some(value)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_custom_event_is_found_by_name_and_call() {
        let event = json!({"type": "CUSTOM", "name": "tool_permission_decision",
                           "value": {"toolCallId": "c1", "behavior": "ask"}});
        assert_eq!(
            custom(&event, "tool_permission_decision", "c1").unwrap()["behavior"],
            "ask"
        );
        assert!(custom(&event, "tool_permission_decision", "c2").is_none());
        assert!(custom(&event, "tool_approval_request", "c1").is_none());
    }
}
