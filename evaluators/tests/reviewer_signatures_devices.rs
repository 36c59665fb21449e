//! The reviewer in auto mode: formats that verify signatures run gpg, device nodes are
//! devices.

mod support;

use support::{bash, context, policy, workspace};
use warrant_core::call::{PermissionMode, ToolCall};
use warrant_core::decision::Behavior;
use warrant_evaluators::classifier::{Classifier, HeuristicClassifier, Review};

async fn review(root: &std::path::Path, c: &ToolCall) -> Behavior {
    let cx = context(PermissionMode::Auto, root);
    let h = HeuristicClassifier::new(policy());
    h.classify(&Review {
        call: c,
        context: &cx,
    })
    .await
    .unwrap()
    .behavior
}

fn repository() -> tempfile::TempDir {
    let ws = workspace();
    let ok = std::process::Command::new("git")
        .args(["init", "-q"])
        .current_dir(ws.path())
        .status()
        .is_ok_and(|s| s.success());
    assert!(ok, "git init");
    std::fs::write(ws.path().join("README.md"), "hi\n").unwrap();
    ws
}

#[tokio::test]
async fn a_ref_format_verifying_signatures_is_not_routine() {
    let ws = repository();
    assert_eq!(
        review(ws.path(), &bash("git tag v1")).await,
        Behavior::Allow
    );
    for c in [
        "git tag --format='%(signature)'",
        "git tag --format='%(refname) %(signature:grade)'",
        "git branch --format='%(signature:key)'",
    ] {
        assert_eq!(review(ws.path(), &bash(c)).await, Behavior::Ask, "{c}");
    }
}

#[tokio::test]
async fn making_a_device_node_is_never_routine() {
    let ws = repository();
    assert_eq!(
        review(ws.path(), &bash("mkfifo pipe")).await,
        Behavior::Allow
    );
    for c in [
        "mknod disk b 254 0",
        "mknod -m 666 mem c 1 1",
        "mknod kmsg c 1 11 && echo hi > kmsg",
    ] {
        assert_ne!(review(ws.path(), &bash(c)).await, Behavior::Allow, "{c}");
    }
}
