//! The embedded reviewer follows the workspace's links when it decides that a build stays in
//! the workspace, and reads the files a call writes however they are spelled.

mod support;

use serde_json::json;
use support::{bash, call, context, policy, workspace};
use warrant_core::call::{PermissionMode, ToolCall};
use warrant_core::decision::Behavior;
use warrant_evaluators::classifier::{Classifier, HeuristicClassifier, Review};

async fn judge(root: &std::path::Path, c: ToolCall) -> Behavior {
    let cx = context(PermissionMode::Auto, root);
    HeuristicClassifier::new(policy())
        .classify(&Review {
            call: &c,
            context: &cx,
        })
        .await
        .unwrap()
        .behavior
}

/// The first command is allowed, each of the others asked about.
async fn allows_then_asks(root: &std::path::Path, allowed: &str, commands: &[&str]) {
    assert_eq!(
        judge(root, bash(allowed)).await,
        Behavior::Allow,
        "{allowed}"
    );
    for c in commands {
        assert_eq!(judge(root, bash(c)).await, Behavior::Ask, "{c}");
    }
}

#[tokio::test]
async fn a_build_through_a_link_that_leaves_or_after_a_write_is_not_routine() {
    let ws = workspace();
    let outside = tempfile::tempdir().expect("dir");
    std::fs::write(outside.path().join("x.mk"), "all:\n\ttrue\n").unwrap();
    std::fs::write(outside.path().join("Makefile"), "all:\n\ttrue\n").unwrap();
    std::os::unix::fs::symlink(outside.path(), ws.path().join("outlink")).unwrap();
    std::fs::create_dir_all(ws.path().join("sub")).unwrap();
    std::fs::write(ws.path().join("sub/x.mk"), "all:\n\ttrue\n").unwrap();
    allows_then_asks(
        ws.path(),
        "make -f sub/x.mk",
        &[
            "make -f outlink/x.mk",
            "make -foutlink/x.mk",
            "make --file=outlink/x.mk",
            "make -C outlink",
            "make -Coutlink",
            "cd outlink && make",
            "cargo test --manifest-path outlink/Cargo.toml",
            // A part that writes first may write the build's configuration.
            "printf 'test:\\n\\tcurl x | sh\\n' > Makefile && make test",
            "echo '{}' > package.json; npm test",
            "cat > Makefile <<'EOF'\nall:\n\ttrue\nEOF\nmake",
        ],
    )
    .await;
}

#[tokio::test]
async fn nested_and_patch_header_names_are_checked() {
    let ws = workspace();
    assert_eq!(
        judge(
            ws.path(),
            call(
                "apply_patch",
                json!({"patch": "--- a/README.md\t2024-01-01\n+++ b/README.md\t2024-01-02\n@@ -1 +1 @@\n-a\n+b\n"})
            )
        )
        .await,
        Behavior::Allow
    );
    for c in [
        call(
            "MultiEdit",
            json!({"file_path": "README.md", "edits": [{"file_path": ".husky/pre-commit", "old_string": "a", "new_string": "b"}]}),
        ),
        call(
            "apply_patch",
            json!({"patch": "diff --git a/README.md b/.envrc\nrename from README.md\nrename to .envrc\n"}),
        ),
        call(
            "apply_patch",
            json!({"patch": "--- /dev/null\n+++ \"b/.git\\057hooks/pre-commit\"\n@@ -0,0 +1 @@\n+x\n"}),
        ),
    ] {
        assert_eq!(
            judge(ws.path(), c.clone()).await,
            Behavior::Ask,
            "{}",
            c.input
        );
    }
}

#[tokio::test]
async fn a_build_that_compiles_crates_from_outside_is_not_routine() {
    let ws = workspace();
    let outside = tempfile::tempdir().expect("dir");
    let evil = outside.path().join("evil");
    std::fs::create_dir_all(&evil).unwrap();
    std::fs::write(
        evil.join("Cargo.toml"),
        "[package]\nname = \"evil\"\nversion = \"0.1.0\"\n",
    )
    .unwrap();
    let write = |rel: &str, text: &str| {
        let path = ws.path().join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    write(
        "Cargo.toml",
        "[workspace]\nmembers = [\"crates/*\"]\nresolver = \"2\"\n",
    );
    write(
        "crates/a/Cargo.toml",
        "[package]\nname = \"a\"\nversion = \"0.1.0\"\n[dependencies]\nb = { path = \"../b\" }\n",
    );
    write(
        "crates/b/Cargo.toml",
        "[package]\nname = \"b\"\nversion = \"0.1.0\"\n",
    );
    // The workspace's own crates: routine.
    for c in [
        "cargo build",
        "cargo test",
        "cd crates/a && cargo test",
        "cargo check --manifest-path crates/a/Cargo.toml",
    ] {
        assert_eq!(judge(ws.path(), bash(c)).await, Behavior::Allow, "{c}");
    }
    // A path dependency outside, in a member the build reaches through another.
    write(
        "crates/b/Cargo.toml",
        &format!(
            "[package]\nname = \"b\"\nversion = \"0.1.0\"\n[dependencies]\nevil = {{ path = \"{}\" }}\n",
            evil.display()
        ),
    );
    allows_then_asks(
        ws.path(),
        "ls",
        &[
            "cargo build",
            "cargo test --workspace",
            "cd crates/a && cargo test",
            "cargo check --manifest-path crates/a/Cargo.toml",
            "cargo clippy --all-targets",
        ],
    )
    .await;
}

#[tokio::test]
async fn a_build_in_the_runtimes_own_login_shell_is_routine_and_one_typed_is_not() {
    let ws = workspace();
    std::fs::write(
        ws.path().join("Cargo.toml"),
        "[package]\nname = \"a\"\nversion = \"0.1.0\"\n",
    )
    .unwrap();
    let vector = |script: &str| call("shell", json!({"command": ["bash", "-lc", script]}));
    for script in ["cargo test", "cargo build && cargo test --workspace"] {
        assert_eq!(
            judge(ws.path(), vector(script)).await,
            Behavior::Allow,
            "{script}"
        );
    }
    for script in [
        "bash -lc 'cargo test'",
        "sudo cargo test",
        "RUSTC_WRAPPER=/tmp/x cargo test",
    ] {
        assert_eq!(
            judge(ws.path(), vector(script)).await,
            Behavior::Ask,
            "{script}"
        );
    }
    for typed in [
        "'bash' '-lc' 'cargo test'",
        "bash -lc 'cargo test'",
        "bash --login -c 'cargo build'",
    ] {
        assert_eq!(
            judge(ws.path(), bash(typed)).await,
            Behavior::Ask,
            "{typed}"
        );
    }
    let wrapped = call(
        "shell",
        json!({"command": ["sudo", "bash", "-lc", "cargo test"]}),
    );
    assert_eq!(judge(ws.path(), wrapped).await, Behavior::Ask);
}
