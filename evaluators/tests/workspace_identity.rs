//! What a path names depends on more than its text: a directory git takes for a repository
//! by a `commondir` file, a repository above the workspace, a `cd` through a symlink that bash
//! reads logically, a hard link whose other name lies outside, a file whose content is a key,
//! a zsh `**` glob, build configuration in the directory a build runs in. Each case builds the
//! workspace it needs.

mod support;

use std::path::Path;
use std::process::{Command, Stdio};

use serde_json::json;
use support::{call, context, decided, policy, verdict};
use warrant_core::call::{PermissionMode, ToolCall};
use warrant_core::decision::Behavior;
use warrant_core::evaluator::Stance;
use warrant_evaluators::classifier::{Classifier, HeuristicClassifier, Review};

fn put(root: &Path, rel: &str, text: &str) {
    let path = root.join(rel);
    std::fs::create_dir_all(path.parent().expect("parent")).expect("dirs");
    std::fs::write(path, text).expect("write");
}

fn git(root: &Path, args: &[&str]) -> bool {
    Command::new("git")
        .args(args)
        .current_dir(root)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

async fn stance_of(root: &Path, c: &ToolCall) -> (Stance, String) {
    let cx = context(PermissionMode::Default, root);
    let (s, r) = decided(verdict(&policy(), c, &cx).await);
    (s, format!("{} ({})", r.reason_code, r.reason))
}

async fn allowed(root: &Path, command: &str) {
    let (s, why) = stance_of(root, &call("Bash", json!({ "command": command }))).await;
    assert_eq!(s, Stance::PolicyAllow, "{command}: {why}");
}

async fn not_allowed(root: &Path, command: &str) {
    let (s, why) = stance_of(root, &call("Bash", json!({ "command": command }))).await;
    assert_ne!(
        s,
        Stance::PolicyAllow,
        "{command} must not be allowed: {why}"
    );
}

async fn reviewed(root: &Path, command: &str) -> Behavior {
    let cx = context(PermissionMode::Auto, root);
    let h = HeuristicClassifier::new(policy());
    let c = call("Bash", json!({ "command": command }));
    h.classify(&Review {
        call: &c,
        context: &cx,
    })
    .await
    .expect("review")
    .behavior
}

#[tokio::test]
async fn a_directory_git_takes_for_a_repository_by_its_commondir_is_not_trusted() {
    let ws = tempfile::tempdir().expect("dir");
    assert!(
        git(ws.path(), &["init", "-q"]),
        "git is needed to build this workspace"
    );
    put(ws.path(), "src/main.rs", "fn main() {}\n");
    assert!(git(ws.path(), &["add", "-A"]));
    allowed(ws.path(), "git -C src diff").await;
    // No objects and no config of its own: git reads both from the directory it names.
    put(ws.path(), "vendor/nb/HEAD", "ref: refs/heads/main\n");
    put(ws.path(), "vendor/nb/commondir", "../nbc\n");
    not_allowed(ws.path(), "git -C vendor/nb diff HEAD~1 HEAD").await;
    not_allowed(ws.path(), "cd vendor/nb && git log -p").await;
}

#[tokio::test]
async fn a_repository_above_the_workspace_is_judged_before_git_runs_in_it() {
    let top = tempfile::tempdir().expect("dir");
    assert!(
        git(top.path(), &["init", "-q"]),
        "git is needed to build this workspace"
    );
    let ws = top.path().join("app");
    put(&ws, "README.md", "hi\n");
    allowed(&ws, "git status").await;
    allowed(&ws, "git log --oneline").await;
    // Its diffs and objects are files of the whole repository, outside the workspace.
    not_allowed(&ws, "git log -p").await;
    not_allowed(&ws, "git show HEAD:other/notes.txt").await;
    // Its configuration may run programs on any git command.
    assert!(git(
        top.path(),
        &["config", "core.fsmonitor", "touch pwned"]
    ));
    not_allowed(&ws, "git status").await;
}

#[tokio::test]
async fn the_top_level_git_prints_is_the_workspace_only_with_no_repository_above() {
    let top = tempfile::tempdir().expect("dir");
    let ws = top.path().join("app");
    put(&ws, "README.md", "hi\n");
    put(&ws, "src/main.rs", "fn main() {}\n");
    assert!(
        git(&ws, &["init", "-q"]),
        "git is needed to build this workspace"
    );
    let entering = [
        "cd \"$(git rev-parse --show-toplevel)\" && ls && cat README.md",
        "cd \"`git rev-parse --show-toplevel`\"; git status",
        "cd \"$(git rev-parse --show-toplevel 2>/dev/null)\" && cat src/main.rs",
    ];
    for command in entering {
        allowed(&ws, command).await;
    }
    for command in [
        // Nothing printed leaves `cd` alone, which goes home.
        "cd $(git rev-parse --show-toplevel) && ls",
        // From elsewhere, or another repository's.
        "cd src && cd \"$(git rev-parse --show-toplevel)\" && ls",
        "cd \"$(git -C src rev-parse --show-toplevel)\" && ls",
        "cd \"$(cd src && git rev-parse --show-toplevel)\" && ls",
        "cd \"$(GIT_DIR=/tmp/x git rev-parse --show-toplevel)\" && ls",
        "cd \"$(git rev-parse --show-toplevel)/..\" && ls",
        "cd \"$(git rev-parse --show-cdup)\" && ls",
    ] {
        not_allowed(&ws, command).await;
    }
    // A repository above: git prints its top level once it takes the workspace's `.git` for
    // none (a `HEAD` it cannot read), so the commands would run above the workspace.
    assert!(git(top.path(), &["init", "-q"]));
    put(&ws, ".git/HEAD", "not a ref\n");
    for command in entering {
        not_allowed(&ws, command).await;
    }
}

#[tokio::test]
async fn a_cd_is_followed_only_where_bash_and_the_kernel_agree() {
    let ws = tempfile::tempdir().expect("dir");
    put(ws.path(), "src/a/b/x.rs", "\n");
    put(ws.path(), "README.md", "hi\n");
    allowed(ws.path(), "cd src && ls && cd .. && cat README.md").await;
    allowed(ws.path(), "cd src/a; cat ../../README.md").await;
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink("src/a/b", ws.path().join("deeplink")).expect("link");
        // bash: `deeplink/../..` is the workspace's parent; the kernel: `src`.
        not_allowed(ws.path(), "cd deeplink/../.. && cat README.md").await;
        not_allowed(ws.path(), "cd deeplink && cd ../.. && ls").await;
        allowed(ws.path(), "cd deeplink && ls").await;
    }
    // Two operands: bash refuses the `cd`, the shell stays where it was.
    not_allowed(ws.path(), "cd src extra; cat ../README.md").await;
    not_allowed(ws.path(), "coproc cd src; cat ../README.md").await;
}

#[cfg(unix)]
#[tokio::test]
async fn a_file_with_another_name_may_be_a_file_outside_the_workspace() {
    let outside = tempfile::tempdir().expect("dir");
    let ws = tempfile::tempdir().expect("dir");
    put(outside.path(), "secret.txt", "token\n");
    put(ws.path(), "plain.txt", "hi\n");
    std::fs::hard_link(outside.path().join("secret.txt"), ws.path().join("hl")).expect("link");
    allowed(ws.path(), "cat plain.txt").await;
    not_allowed(ws.path(), "cat hl").await;
    let (s, why) = stance_of(ws.path(), &call("Read", json!({ "file_path": "hl" }))).await;
    assert_ne!(s, Stance::PolicyAllow, "{why}");
    // Writing through it changes the file outside: the reviewer does not call it routine.
    assert_eq!(reviewed(ws.path(), "echo x >> hl").await, Behavior::Ask);
    assert_eq!(reviewed(ws.path(), "truncate -s0 hl").await, Behavior::Ask);
    // Removing a name removes only that name.
    assert_eq!(reviewed(ws.path(), "rm hl").await, Behavior::Allow);
}

#[tokio::test]
async fn a_file_whose_content_is_a_key_is_not_read_freely_whatever_its_name() {
    let ws = tempfile::tempdir().expect("dir");
    put(
        ws.path(),
        "deploy/dk",
        "-----BEGIN OPENSSH PRIVATE KEY-----\nAAAA\n-----END OPENSSH PRIVATE KEY-----\n",
    );
    put(
        ws.path(),
        "sa.json",
        "{\n  \"type\": \"service_account\",\n  \"private_key\": \"x\"\n}\n",
    );
    put(ws.path(), "src/main.rs", "fn main() {}\n");
    allowed(ws.path(), "cat src/main.rs").await;
    not_allowed(ws.path(), "cat deploy/dk").await;
    not_allowed(ws.path(), "head -n 3 sa.json").await;
    let (s, why) = stance_of(
        ws.path(),
        &call("Read", json!({ "file_path": "deploy/dk" })),
    )
    .await;
    assert_ne!(s, Stance::PolicyAllow, "{why}");
    // Searches and walks over the tree read it too.
    allowed(ws.path(), "grep -r KEY src").await;
    for command in [
        "grep -r KEY .",
        "grep -r KEY deploy",
        "rg KEY",
        "find deploy -type f -exec cat {} +",
    ] {
        not_allowed(ws.path(), command).await;
    }
}

#[tokio::test]
async fn a_zsh_recursive_glob_reads_the_whole_tree_below_it() {
    let ws = tempfile::tempdir().expect("dir");
    put(ws.path(), "src/main.rs", "fn main() {}\n");
    put(
        ws.path(),
        "src/a/b/credentials.json",
        "{\"key\": \"canary\"}\n",
    );
    allowed(ws.path(), "cat src/*.rs").await;
    not_allowed(ws.path(), "cat src/**/*.json").await;
    not_allowed(ws.path(), "grep -h key ***/*.json").await;
}

#[tokio::test]
async fn build_configuration_is_looked_for_where_the_build_runs() {
    let ws = tempfile::tempdir().expect("dir");
    put(ws.path(), "Cargo.toml", "[package]\nname = \"x\"\n");
    put(ws.path(), "sub/Cargo.toml", "[package]\nname = \"y\"\n");
    assert_eq!(
        reviewed(ws.path(), "cd sub && cargo build").await,
        Behavior::Allow
    );
    put(
        ws.path(),
        "sub/.cargo/config.toml",
        "[build]\nrustc-wrapper = \"/tmp/evil\"\n",
    );
    assert_eq!(
        reviewed(ws.path(), "cd sub && cargo build").await,
        Behavior::Ask
    );
    assert_eq!(reviewed(ws.path(), "cargo build").await, Behavior::Allow);
    // A toolchain chosen by path runs a binary from anywhere; one chosen by channel does not.
    put(
        ws.path(),
        "rust-toolchain.toml",
        "[toolchain]\nchannel = \"stable\"\n",
    );
    assert_eq!(reviewed(ws.path(), "cargo build").await, Behavior::Allow);
    put(
        ws.path(),
        "rust-toolchain.toml",
        "[toolchain]\npath = \"/tmp/tc\"\n",
    );
    assert_eq!(reviewed(ws.path(), "cargo build").await, Behavior::Ask);
}
