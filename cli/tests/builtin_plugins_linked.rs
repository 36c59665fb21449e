//! The binary keeps every built-in crate's registrations (the linker drops those of crates
//! nothing references).

use std::process::Command;

use serde_json::Value;

#[test]
fn every_builtin_plugin_is_registered_in_the_binary() {
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_warrant"))
        .args(["plugins", "--json"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let plugins: Vec<Value> = serde_json::from_slice(&out.stdout).unwrap();
    let listed: Vec<(String, String)> = plugins
        .iter()
        .map(|p| {
            (
                p["kind"].as_str().unwrap().to_owned(),
                p["name"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    for (kind, name) in [
        ("evaluator", "policy"),
        ("evaluator", "rule"),
        ("evaluator", "auto_classifier"),
        ("evaluator", "full_access"),
        ("classifier_backend", "openai"),
        ("classifier_backend", "heuristic"),
        ("store", "memory"),
        ("store", "sqlite"),
        ("transport", "sse"),
        ("transport", "stdio"),
    ] {
        assert!(
            listed.contains(&(kind.to_owned(), name.to_owned())),
            "{kind} {name} missing from {listed:?}"
        );
    }
    assert!(
        plugins
            .iter()
            .all(|p| p["origin"] == "built-in" || p["origin"] == "builtin"),
        "{plugins:?}"
    );
}
