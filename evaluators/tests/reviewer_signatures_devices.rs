//! The reviewer in auto mode: formats that verify signatures run gpg, device nodes are
//! devices, setuid bits outlive the session, git writes through links, staging a whole tree stages its secrets, and endless
//! output fills the disk.

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
    std::fs::write(ws.path().join("README.md"), "hi\n").unwrap();
    let git = |args: &[&str]| {
        let ok = std::process::Command::new("git")
            .args(["-c", "user.name=t", "-c", "user.email=t@example.com"])
            .args(args)
            .current_dir(ws.path())
            .status()
            .is_ok_and(|s| s.success());
        assert!(ok, "git {args:?}");
    };
    git(&["init", "-q"]);
    git(&["add", "."]);
    git(&["commit", "-q", "-m", "init"]);
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

#[tokio::test]
async fn git_moves_and_inits_through_a_link_leaving_the_workspace_are_not_routine() {
    let ws = repository();
    let home = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(home.path(), ws.path().join("hm")).unwrap();
    for c in ["git mv README.md docs.md", "git init sub"] {
        assert_eq!(review(ws.path(), &bash(c)).await, Behavior::Allow, "{c}");
    }
    for c in [
        "git mv README.md hm/x",
        "git mv -k README.md hm/bin/ls",
        "git mv README.md src hm/",
        "git mv README.md h?/x",
        "git mv README.md [h]m/x",
        "git init hm/r",
    ] {
        assert_eq!(review(ws.path(), &bash(c)).await, Behavior::Ask, "{c}");
    }
}

#[tokio::test]
async fn staging_a_tree_holding_a_secret_git_does_not_ignore_is_not_routine() {
    let ws = repository();
    let whole = [
        "git add -A",
        "git add .",
        "git add --all",
        "git add -- .",
        "git add :/",
        "git add -A && git commit -m wip",
        "git stash -u",
        "git stash --include-untracked",
    ];
    for c in whole {
        assert_eq!(
            review(ws.path(), &bash(c)).await,
            Behavior::Allow,
            "clean: {c}"
        );
    }
    std::fs::write(ws.path().join(".env"), "API_KEY=x\n").unwrap();
    for c in whole {
        assert_eq!(review(ws.path(), &bash(c)).await, Behavior::Ask, "{c}");
    }
    assert_eq!(
        review(ws.path(), &bash("git add -u")).await,
        Behavior::Allow
    );
    std::fs::write(ws.path().join(".gitignore"), ".env\n").unwrap();
    for c in whole {
        assert_eq!(
            review(ws.path(), &bash(c)).await,
            Behavior::Allow,
            "ignored: {c}"
        );
    }
    // `--all` stashes ignored files too.
    assert_eq!(
        review(ws.path(), &bash("git stash -a")).await,
        Behavior::Ask
    );
}

#[tokio::test]
async fn endless_output_into_a_file_is_not_routine() {
    let ws = repository();
    for c in [
        "yes > big",
        "yes | tee big",
        "dd if=/dev/zero of=big bs=1M count=100000",
        "dd if=/dev/urandom of=big",
        "head -c 50G /dev/zero > big",
        "seq 1 10000000000 > big",
        "cat /dev/urandom > big",
        "tr -dc a-z < /dev/urandom > big",
    ] {
        assert_eq!(review(ws.path(), &bash(c)).await, Behavior::Ask, "{c}");
    }
    for c in [
        "head -c 16 /dev/urandom > key.bin",
        "cat /dev/urandom | head -c 32 > k",
        "dd if=/dev/zero of=img bs=1M count=10",
        "seq 1 100 > nums.txt",
        "yes | head -n 5 > y.txt",
    ] {
        assert_eq!(review(ws.path(), &bash(c)).await, Behavior::Allow, "{c}");
    }
}

#[tokio::test]
async fn setting_the_setuid_or_setgid_bit_is_never_routine() {
    let ws = repository();
    std::fs::create_dir_all(ws.path().join("src")).unwrap();
    for c in [
        "chmod 755 README.md",
        "chmod u+x,go-w README.md",
        "chmod 1777 src",
        "mkdir -m 755 d",
        "install -m 0644 README.md r2",
    ] {
        assert_eq!(review(ws.path(), &bash(c)).await, Behavior::Allow, "{c}");
    }
    for c in [
        "chmod 4755 README.md",
        "chmod 04755 README.md",
        "chmod =4755 README.md",
        "chmod u+s README.md",
        "chmod a+rwxs README.md",
        "chmod u-x+s README.md",
        "chmod g+s src",
        "chmod 2755 src",
        "chmod -R u+s src",
        "chmod --reference=/usr/bin/passwd README.md",
        "chmod \"$MODE\" README.md",
        "mkdir -m 4755 d",
        "mkdir --mode=u+s d",
        "install -m u+s README.md r2",
        "install -d -m 4755 d3",
    ] {
        assert_eq!(review(ws.path(), &bash(c)).await, Behavior::Ask, "{c}");
    }
}
