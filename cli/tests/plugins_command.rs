//! `warrant plugins` lists the configured process and library plugins with their kind, name,
//! version and origin, as a table or as JSON.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The example library, built when needed.
fn hours_plugin() -> PathBuf {
    let status = Command::new(env!("CARGO"))
        .args(["build", "-p", "warrant-hours-plugin"])
        .status()
        .expect("cargo runs");
    assert!(status.success(), "building the example plugin failed");
    let target = Path::new(env!("CARGO_BIN_EXE_warrant"))
        .parent()
        .expect("target/<profile>");
    let file = format!(
        "{}warrant_hours_plugin{}",
        std::env::consts::DLL_PREFIX,
        std::env::consts::DLL_SUFFIX
    );
    target.join(file)
}

fn config(dir: &Path) -> PathBuf {
    let script =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/process-evaluator/branch_guard.py");
    let text = format!(
        "[[plugins.process]]\nname = \"branch_guard\"\ncommand = \"python3\"\nargs = [{:?}]\n\n\
         [[plugins.library]]\nname = \"office_hours\"\npath = {:?}\n",
        script.display().to_string(),
        hours_plugin().display().to_string(),
    );
    let file = dir.join("warrant.toml");
    std::fs::write(&file, text).expect("the config is written");
    file
}

fn plugins(args: &[&str]) -> (String, bool) {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let output = Command::new(env!("CARGO_BIN_EXE_warrant"))
        .arg("plugins")
        .args(args)
        .arg("--config")
        .arg(config(dir.path()))
        .current_dir(dir.path())
        .output()
        .expect("warrant runs");
    (
        String::from_utf8_lossy(&output.stdout).into_owned(),
        output.status.success(),
    )
}

#[test]
fn the_table_shows_the_process_and_the_library_plugin() {
    let (table, ok) = plugins(&[]);
    assert!(ok, "{table}");
    assert!(table.starts_with("KIND"), "{table}");
    let row = |name: &str| {
        table
            .lines()
            .find(|l| l.contains(name))
            .unwrap_or_default()
            .to_owned()
    };
    let process = row("branch_guard");
    assert!(
        process.contains("evaluator") && process.contains("1.0.0") && process.contains("process"),
        "{table}"
    );
    let library = row("office_hours");
    assert!(
        library.contains(env!("CARGO_PKG_VERSION")) && library.contains("library"),
        "{table}"
    );
}

#[test]
fn json_lists_kind_name_version_and_origin() {
    let (json, ok) = plugins(&["--json"]);
    assert!(ok, "{json}");
    let list: Vec<serde_json::Value> = serde_json::from_str(&json).expect("a JSON array");
    let guard = list
        .iter()
        .find(|p| p["name"] == "branch_guard")
        .expect("listed");
    assert_eq!(guard["kind"], "evaluator");
    assert_eq!(guard["origin"], "process");
    assert_eq!(guard["version"], "1.0.0");
    let hours = list
        .iter()
        .find(|p| p["name"] == "office_hours")
        .expect("listed");
    assert_eq!(hours["origin"], "library");
    // What the configuration uses: the default chain, then the store and the transports.
    let selected = |kind: &str, name: &str| {
        list.iter()
            .find(|p| p["kind"] == kind && p["name"] == name)
            .and_then(|p| p["selected"].as_str())
            .map(str::to_owned)
    };
    assert_eq!(selected("evaluator", "policy").as_deref(), Some("chain 1"));
    assert_eq!(
        selected("evaluator", "full_access").as_deref(),
        Some("chain 4")
    );
    assert_eq!(selected("store", "sqlite").as_deref(), Some("store"));
    assert_eq!(selected("store", "memory"), None);
    assert_eq!(
        selected("transport", "sse").as_deref(),
        Some("warrant serve")
    );
}
