//! The reviewer and the repository's configuration: a git write is routine only where the
//! policy proves the repository's configuration runs nothing, and a file that configuration
//! includes is git configuration. Each case runs real git in a scratch repository.

mod support;

use std::path::Path;
use std::process::{Command, Stdio};

use serde_json::json;
use support::{bash, call, context, policy};
use warrant_core::call::{PermissionMode, ToolCall};
use warrant_core::decision::Behavior;
use warrant_evaluators::classifier::{Classifier, HeuristicClassifier, Review};

fn sh(root: &Path, script: &str) {
    let ok = Command::new("sh")
        .args(["-c", script])
        .current_dir(root)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("HOME", root)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    assert!(ok, "{script} failed");
}

async fn review(root: &Path, c: &ToolCall) -> (Behavior, String) {
    let cx = context(PermissionMode::Auto, root);
    let out = HeuristicClassifier::new(policy())
        .classify(&Review {
            call: c,
            context: &cx,
        })
        .await
        .expect("review");
    (out.behavior, out.reason)
}

fn repository(config: &str) -> tempfile::TempDir {
    let ws = tempfile::tempdir().expect("dir");
    std::fs::write(ws.path().join("a.txt"), "a\n").expect("write");
    sh(
        ws.path(),
        "git init -q . && git config user.email a@b && git config user.name a && git add -A && git commit -qm init",
    );
    if !config.is_empty() {
        let path = ws.path().join(".git/config");
        let mut text = std::fs::read_to_string(&path).expect("config");
        text.push_str(config);
        std::fs::write(path, text).expect("config");
    }
    ws
}

#[tokio::test]
async fn routine_git_writes_need_a_proven_repository() {
    let clean = repository("");
    for command in [
        "git add a.txt",
        "git commit -am wip",
        "git checkout -b feat",
    ] {
        let (b, why) = review(clean.path(), &bash(command)).await;
        assert_eq!(b, Behavior::Allow, "{command}: {why}");
    }
    let included = repository("[include]\n\tpath = ../shared.gitconfig\n");
    for command in [
        "git add a.txt",
        "git commit -am wip",
        "git checkout -b feat",
    ] {
        let (b, why) = review(included.path(), &bash(command)).await;
        assert_eq!(b, Behavior::Ask, "{command}: {why}");
    }
    let fsmonitor = repository("[core]\n\tfsmonitor = \"touch pwned\"\n");
    let (b, why) = review(fsmonitor.path(), &bash("git add a.txt")).await;
    assert_eq!(b, Behavior::Ask, "{why}");
    // Signing set up by the repository runs gpg or `ssh-keygen` with the key it names.
    for config in [
        "[commit]\n\tgpgsign = true\n",
        "[gpg]\n\tformat = ssh\n[user]\n\tsigningkey = /root/.ssh/id_ed25519\n",
        "[tag]\n\tgpgSign = true\n",
    ] {
        let signing = repository(config);
        let (b, why) = review(signing.path(), &bash("git commit -am wip")).await;
        assert_eq!(b, Behavior::Ask, "{config}: {why}");
    }
    // A verbose dry run prints the staged diff; a plain one what `git status` prints.
    let (b, why) = review(clean.path(), &bash("git commit --dry-run -v")).await;
    assert_eq!(b, Behavior::Ask, "{why}");
    let (b, why) = review(clean.path(), &bash("git commit --dry-run")).await;
    assert_eq!(b, Behavior::Allow, "{why}");
}

#[tokio::test]
async fn a_file_the_repository_configuration_includes_is_git_configuration() {
    let ws = repository(
        "[include]\n\tpath = ../shared.gitconfig\n[includeIf \"gitdir:/\"]\n\tpath = ../conf/more.gitconfig\n",
    );
    for (tool, path) in [
        ("Write", "shared.gitconfig"),
        ("Edit", "shared.gitconfig"),
        ("Write", "conf/more.gitconfig"),
    ] {
        let c = call(
            tool,
            json!({"file_path": path, "content": "[core]\n\tfsmonitor = x\n", "old_string": "a", "new_string": "b"}),
        );
        let (b, why) = review(ws.path(), &c).await;
        assert_eq!(b, Behavior::Ask, "{tool} {path}: {why}");
    }
    let (b, why) = review(
        ws.path(),
        &bash("printf '[core]\\n\\tfsmonitor = x\\n' > shared.gitconfig"),
    )
    .await;
    assert_eq!(b, Behavior::Ask, "{why}");
    let (b, why) = review(
        ws.path(),
        &call("Write", json!({"file_path": "notes.txt", "content": "x"})),
    )
    .await;
    assert_eq!(b, Behavior::Allow, "{why}");
    std::fs::write(
        ws.path().join(".git/config.worktree"),
        "[include]\n\tpath = ../wt.gitconfig\n",
    )
    .expect("write");
    let (b, why) = review(
        ws.path(),
        &call(
            "Write",
            json!({"file_path": "wt.gitconfig", "content": "x"}),
        ),
    )
    .await;
    assert_eq!(b, Behavior::Ask, "{why}");
    // A hooks directory named in an included file is the repository's hooks directory.
    std::fs::write(
        ws.path().join("shared.gitconfig"),
        "[core]\n\thooksPath = tools/hooks\n",
    )
    .expect("write");
    let (b, why) = review(
        ws.path(),
        &call(
            "Write",
            json!({"file_path": "tools/hooks/pre-commit", "content": "x"}),
        ),
    )
    .await;
    assert_eq!(b, Behavior::Ask, "{why}");
}

#[tokio::test]
async fn hook_manager_configuration_is_protected() {
    let ws = repository("");
    for path in [
        "lefthook-local.toml",
        "lefthook.json",
        ".lefthook-local/pre-commit/x.sh",
        "commitlint.config.js",
        "lint-staged.config.ts",
        ".rusty-hook.toml",
        ".simple-git-hooks.json",
        ".overcommit.yml",
        ".pre-commit-config.yaml",
        ".husky/pre-commit",
    ] {
        let c = call("Write", json!({"file_path": path, "content": "x"}));
        let (b, why) = review(ws.path(), &c).await;
        assert_eq!(b, Behavior::Ask, "{path}: {why}");
    }
    let c = call(
        "Edit",
        json!({"file_path": "package.json", "old_string": "{", "new_string": "{\"lint-staged\": {\"*\": \"sh -c x\"},"}),
    );
    let (b, why) = review(ws.path(), &c).await;
    assert_eq!(b, Behavior::Ask, "{why}");
}

/// A linked work tree reads the configuration of the repository's common directory (its git
/// directory's `commondir`): the hooks directory and the includes named there are git's in
/// the linked work tree too.
#[tokio::test]
async fn a_linked_work_tree_reads_the_common_configuration() {
    let main = repository("");
    let parent = tempfile::tempdir().expect("dir");
    let linked = parent.path().join("linked");
    sh(
        main.path(),
        &format!("git worktree add -q {} -b side", linked.display()),
    );
    let config = main.path().join(".git/config");
    let mut text = std::fs::read_to_string(&config).expect("config");
    text.push_str(&format!(
        "[core]\n\thooksPath = tools/hooks\n[include]\n\tpath = {}\n",
        linked.join("inc.gitconfig").display()
    ));
    std::fs::write(&config, text).expect("config");
    for path in ["tools/hooks/pre-commit", "inc.gitconfig"] {
        let c = call("Write", json!({"file_path": path, "content": "x"}));
        let (b, why) = review(&linked, &c).await;
        assert_eq!(b, Behavior::Ask, "{path}: {why}");
    }
    let c = call("Write", json!({"file_path": "notes.txt", "content": "x"}));
    let (b, why) = review(&linked, &c).await;
    assert_eq!(b, Behavior::Allow, "{why}");
}
