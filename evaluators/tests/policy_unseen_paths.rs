//! Paths a call names where the policy used to not look, and files whose name does not tell
//! what they are: a tool's path field of any name, a patch in `command`, a hard link to
//! protected configuration, a shell tool's field that moves or changes its command. None of
//! them may be settled by a permission mode.

mod support;

use serde_json::json;
use support::{bash, call, context_with_catalog, decided, policy, verdict, workspace};
use warrant_core::call::{PermissionMode, ToolCall};
use warrant_core::evaluator::{Stance, Verdict};

async fn stance(root: &std::path::Path, c: &ToolCall) -> Option<Stance> {
    let cx = context_with_catalog(PermissionMode::FullAccess, root);
    match verdict(&policy(), c, &cx).await {
        Verdict::Abstain => None,
        v => Some(decided(v).0),
    }
}

fn project() -> tempfile::TempDir {
    let ws = workspace();
    std::fs::create_dir_all(ws.path().join(".claude")).unwrap();
    std::fs::write(ws.path().join(".claude/settings.json"), "{}\n").unwrap();
    std::fs::write(ws.path().join(".env"), "TOKEN=x\n").unwrap();
    ws
}

#[tokio::test]
async fn any_field_named_for_a_path_is_judged_as_one() {
    let ws = project();
    for c in [
        call(
            "mcp__serena__create_text_file",
            json!({"relative_path": ".claude/settings.json", "content": "{}"}),
        ),
        call("mcp__serena__read_file", json!({"relative_path": ".env"})),
        call(
            "mcp__jetbrains__get_file_text",
            json!({"pathInProject": ".env"}),
        ),
        call(
            "mcp__ide__open",
            json!({"target": {"dirPath": ".claude", "fileName": ".env"}}),
        ),
        // A word that reads as a relative path, whatever its field.
        call(
            "mcp__notes__append",
            json!({"note": ".claude/settings.json"}),
        ),
    ] {
        assert_eq!(stance(ws.path(), &c).await, Some(Stance::HardDeny), "{c:?}");
    }
    // Ordinary names and text stay what they were.
    for c in [
        call(
            "mcp__serena__read_file",
            json!({"relative_path": "src/main.rs"}),
        ),
        call(
            "mcp__notes__append",
            json!({"note": "remember the .env file", "file_text": "A=1\n.env\n"}),
        ),
    ] {
        assert_ne!(stance(ws.path(), &c).await, Some(Stance::HardDeny), "{c:?}");
    }
}

#[tokio::test]
async fn a_patch_in_command_is_read_for_the_files_it_writes() {
    let ws = project();
    let patch = "*** Begin Patch\n*** Add File: src/new.rs\n+x\n*** Add File: .claude/settings.json\n+{}\n*** End Patch";
    let c = call("apply_patch", json!({ "command": patch }));
    assert_eq!(stance(ws.path(), &c).await, Some(Stance::HardDeny));
}

#[tokio::test]
async fn a_hard_link_is_a_binding_ask_to_read_or_write() {
    let ws = project();
    std::fs::hard_link(ws.path().join(".claude/settings.json"), ws.path().join("s")).unwrap();
    let s = ws.path().join("s").display().to_string();
    for c in [
        call("Write", json!({"file_path": s, "content": "{}"})),
        call("Read", json!({"file_path": s})),
        bash("echo '{}' > s"),
        bash("cat s"),
    ] {
        assert_eq!(
            stance(ws.path(), &c).await,
            Some(Stance::RequireAsk),
            "{c:?}"
        );
    }
}

#[tokio::test]
async fn a_shell_field_that_moves_or_changes_the_command_is_a_binding_ask() {
    let ws = project();
    for input in [
        json!({"command": "find . -delete", "working_directory": "/home/tester"}),
        json!({"command": "make", "env": {"MAKEFILES": "/tmp/evil.mk"}}),
    ] {
        let c = call("Bash", input);
        assert_eq!(
            stance(ws.path(), &c).await,
            Some(Stance::RequireAsk),
            "{c:?}"
        );
    }
}
