//! Where Warrant keeps its records when no data directory is named: the project's own folder
//! in the user's data directory, never a folder of the project, which a checkout could ship
//! with grants that would then allow calls.

mod hook_support;

use std::path::Path;

use hook_support::Workspace;
use serde_json::json;
use warrant::{Config, Setup};
use warrant_core::prelude::*;

const AGENT: &str = "claude-code";

fn behavior(answer: &hook_support::Answer) -> String {
    let json = answer.json();
    let out = &json["hookSpecificOutput"];
    format!(
        "{} ({})",
        out["permissionDecision"].as_str().unwrap_or("?"),
        out["permissionDecisionReason"].as_str().unwrap_or("")
    )
}

/// Makes `dir` a real store in which `npm install` is allowed everywhere by a global grant.
async fn store_with_a_global_grant(workspace: &Path, dir: &Path) {
    let config = Config {
        workspace: Some(workspace.to_path_buf()),
        data_dir: dir.to_path_buf(),
        ..Config::default()
    };
    let engine = Setup::new(config).build().await.unwrap();
    let call = ToolCall::new("shipped", "c1", "Bash", json!({ "command": "npm install" }));
    let authorization = engine
        .authorize(call, AuthorizeOptions::default())
        .await
        .unwrap();
    assert_eq!(authorization.decision.behavior, Behavior::Ask);
    engine
        .resolve(&ToolCallId::new("c1"), "allow_global")
        .await
        .unwrap();
    drop(engine);
}

#[tokio::test]
async fn a_data_directory_shipped_in_the_project_grants_nothing() {
    let ws = Workspace::new();
    let data_home = tempfile::tempdir().unwrap();
    let shipped = ws.root.join(".warrant");
    store_with_a_global_grant(&ws.root, &shipped).await;
    let payload = ws.payload(AGENT, "pre_tool_use_ask");

    // Named on the command line, that store's grant applies: it is a real one.
    let named = ws.run_hook(
        AGENT,
        &payload,
        &["--data-dir".as_ref(), shipped.as_os_str()],
        &[("XDG_DATA_HOME", Some(data_home.path()))],
    );
    assert!(
        behavior(&named).starts_with("allow"),
        "{}",
        behavior(&named)
    );

    // Without one, the hook's records are the person's, and the shipped grant is not read.
    let payload = payload.replace("toolu_01NpmInstall", "toolu_01NpmInstall2");
    let default = ws.run_hook::<&str>(
        AGENT,
        &payload,
        &[],
        &[("XDG_DATA_HOME", Some(data_home.path()))],
    );
    assert!(
        behavior(&default).starts_with("ask"),
        "{}",
        behavior(&default)
    );
    let projects: Vec<_> = std::fs::read_dir(data_home.path().join("warrant/projects"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(projects.len(), 1, "{projects:?}");
    let name = projects[0].file_name().unwrap().to_str().unwrap();
    assert!(
        name.starts_with("project-") && name.len() == "project-".len() + 16,
        "{name}"
    );
    assert!(projects[0].join("warrant.db").exists());
}

#[test]
fn the_same_directory_keeps_the_same_records_and_another_gets_its_own() {
    let ws = Workspace::new();
    let data_home = tempfile::tempdir().unwrap();
    let env = [("XDG_DATA_HOME", Some(data_home.path()))];
    let first = ws.run_hook::<&str>(AGENT, &ws.payload(AGENT, "pre_tool_use_read"), &[], &env);
    assert!(
        behavior(&first).starts_with("allow"),
        "{}",
        behavior(&first)
    );
    let again = ws
        .payload(AGENT, "pre_tool_use_read")
        .replace("toolu_01ReadNotes", "toolu_02");
    ws.run_hook::<&str>(AGENT, &again, &[], &env);
    let other = Workspace::new();
    other.run_hook::<&str>(AGENT, &other.payload(AGENT, "pre_tool_use_read"), &[], &env);
    let projects: Vec<_> = std::fs::read_dir(data_home.path().join("warrant/projects"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(projects.len(), 2, "{projects:?}");
    // Both calls of the first workspace are in one audit log.
    let audit = std::process::Command::new(env!("CARGO_BIN_EXE_warrant"))
        .args(["audit"])
        .current_dir(&ws.root)
        .env("XDG_DATA_HOME", data_home.path())
        .env_remove("WARRANT_DATA_DIR")
        .output()
        .unwrap();
    assert!(
        audit.status.success(),
        "{}",
        String::from_utf8_lossy(&audit.stderr)
    );
    let lines = String::from_utf8(audit.stdout).unwrap();
    assert!(
        lines.contains("toolu_01ReadNotes") && lines.contains("toolu_02"),
        "{lines}"
    );
    assert!(!ws.root.join(".warrant").exists());
}

#[test]
fn without_a_user_data_directory_the_hook_asks_instead_of_using_the_project() {
    let ws = Workspace::new();
    let answer = ws.run_hook::<&str>(
        AGENT,
        &ws.payload(AGENT, "pre_tool_use_read"),
        &[],
        &[("HOME", None), ("XDG_DATA_HOME", None)],
    );
    let said = behavior(&answer);
    assert!(said.starts_with("ask"), "{said}");
    assert!(said.contains("XDG_DATA_HOME"), "{said}");
    assert!(!ws.root.join(".warrant").exists());
}
