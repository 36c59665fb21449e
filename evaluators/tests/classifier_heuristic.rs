//! The embedded reviewer: deterministic, offline, honest about its model id.

mod support;

use serde_json::json;
use support::{bash, call, context, policy, workspace};
use warrant_core::call::{PermissionMode, ToolCall};
use warrant_core::decision::{Behavior, Confidence};
use warrant_evaluators::classifier::{Classifier, HEURISTIC_MODEL_ID, HeuristicClassifier, Review};

async fn review(c: &ToolCall) -> (Behavior, Confidence) {
    let ws = workspace();
    // The recipes the reviewer reads for `make` and `npm run` (an ordinary project's).
    std::fs::write(
        ws.path().join("Makefile"),
        "all:\n\tcargo build\ntest:\n\tcargo test\ncheck:\n\tcargo check\n",
    )
    .expect("Makefile");
    std::fs::create_dir_all(ws.path().join("app")).expect("app");
    std::fs::write(
        ws.path().join("app/package.json"),
        r#"{"scripts": {"test": "jest", "build": "tsc"}}"#,
    )
    .expect("package.json");
    let cx = context(PermissionMode::Auto, ws.path());
    let h = HeuristicClassifier::new(policy());
    let out = h
        .classify(&Review {
            call: c,
            context: &cx,
        })
        .await
        .unwrap();
    assert!(!out.reason.is_empty());
    (out.behavior, out.confidence)
}

#[tokio::test]
async fn routine_workspace_work_is_allowed() {
    assert_eq!(
        review(&call("Edit", json!({"path": "src/main.rs"}))).await,
        (Behavior::Allow, Confidence::High)
    );
    assert_eq!(
        review(&bash("mkdir -p build && touch build/x")).await.0,
        Behavior::Allow
    );
    assert_eq!(
        review(&bash("cargo test --workspace")).await.0,
        Behavior::Allow
    );
    assert_eq!(
        review(&bash("cd app && npm run test")).await.0,
        Behavior::Allow
    );
    assert_eq!(
        review(&call("list_issues", json!({}))).await.0,
        Behavior::Ask,
        "a name proves nothing"
    );
}

#[tokio::test]
async fn reaching_outside_is_escalated() {
    for c in [
        bash("curl https://example.com"),
        bash("sudo apt-get install x"),
        bash("./deploy.sh"),
        bash("git reset --hard"),
        call("Write", json!({"path": "../elsewhere.txt"})),
        call("deleteRepository", json!({})),
        call("frobnicate", json!({})),
    ] {
        assert_eq!(
            review(&c).await.0,
            Behavior::Ask,
            "{} {}",
            c.tool_name,
            c.input
        );
    }
}

#[tokio::test]
async fn the_same_call_always_gets_the_same_review() {
    let c = bash("npm install left-pad");
    let first = review(&c).await;
    for _ in 0..5 {
        assert_eq!(review(&c).await, first);
    }
}

#[test]
fn the_model_id_is_its_own() {
    assert_eq!(
        HeuristicClassifier::new(policy()).model_id(),
        HEURISTIC_MODEL_ID
    );
    assert_eq!(HEURISTIC_MODEL_ID, "warrant/heuristic-v1");
}

#[tokio::test]
async fn the_hooks_directory_a_repository_configures_is_protected() {
    let ws = tempfile::tempdir().expect("dir");
    std::fs::create_dir_all(ws.path().join(".git")).expect("dirs");
    std::fs::write(
        ws.path().join(".git/config"),
        "[core]\n\trepositoryformatversion = 0\n\thooksPath = tools/on-commit\n",
    )
    .expect("write");
    let cx = context(PermissionMode::Auto, ws.path());
    let h = HeuristicClassifier::new(policy());
    let judge = |c: ToolCall| {
        let h = h.clone();
        let cx = cx.clone();
        async move {
            h.classify(&Review {
                call: &c,
                context: &cx,
            })
            .await
            .unwrap()
            .behavior
        }
    };
    assert_eq!(judge(bash("echo x > notes.txt")).await, Behavior::Allow);
    for c in [
        bash("echo x > tools/on-commit/pre-commit"),
        bash("cp notes.txt ./tools/on-commit/post-checkout"),
        call(
            "Write",
            json!({"path": "tools/on-commit/pre-push", "content": "x"}),
        ),
    ] {
        assert_eq!(judge(c).await, Behavior::Ask);
    }
}

#[tokio::test]
async fn a_build_is_not_routine_when_workspace_configuration_brings_in_programs() {
    let ws = workspace();
    let h = HeuristicClassifier::new(policy());
    let judge = |c: ToolCall| {
        let cx = context(PermissionMode::Auto, ws.path());
        let h = &h;
        async move {
            h.classify(&Review {
                call: &c,
                context: &cx,
            })
            .await
            .unwrap()
            .behavior
        }
    };
    assert_eq!(judge(bash("mvn -o test")).await, Behavior::Allow);
    std::fs::create_dir_all(ws.path().join(".mvn")).unwrap();
    std::fs::write(
        ws.path().join(".mvn/jvm.config"),
        "-javaagent:/tmp/evil.jar\n",
    )
    .unwrap();
    assert_eq!(judge(bash("mvn -o test")).await, Behavior::Ask);
    for path in [
        ".mvn/extensions.xml",
        "gradle.properties",
        "Directory.Build.props",
        ".GIT/hooks/pre-commit",
        ".bazelrc",
    ] {
        let c = call("Write", json!({"path": path, "content": "x"}));
        assert_eq!(judge(c).await, Behavior::Ask, "{path}");
    }
}

/// A build is routine only when every option is one the reviewer knows to be harmless for
/// the tool, read as the tool reads it: pytest's `--basetemp` empties its directory,
/// `--pastebin` uploads the session's log, `--pyargs` and `-o addopts=-p X` run code from
/// elsewhere, and argparse accepts a unique prefix of each (`--basetem`, `--paste`).
#[tokio::test]
async fn build_options_the_reviewer_does_not_know_are_not_routine() {
    for line in [
        "pytest --basetemp=src",
        "pytest --basetem=src",
        "pytest --basetemp=./docs",
        "pytest --pastebin=all",
        "pytest --paste=all",
        "pytest --pastebin failed",
        "pytest --pyargs pkg",
        "pytest -o 'addopts=-p evil'",
        "pytest --override-ini=addopts=-pevil",
        "pytest --rootdir=src -q",
        "pytest -c other.ini",
        "cd tests && pytest --basetemp=../src",
        "cargo test --target-dir=out --config x=1",
        "cargo test --rel",
        "npm test --script-sh=x",
        "make --ev=x all",
        "mvn test deploy",
        // Fetches the dependencies and plugins the local repository lacks.
        "mvn test",
        "gradle test",
        "mvn test -Dmaven.ext.class.path=x.jar",
        "jest --config x.js",
        "eslint -f evil src",
    ] {
        assert_eq!(review(&bash(line)).await.0, Behavior::Ask, "{line}");
    }
    for line in [
        "pytest -q",
        "pytest -x -k name tests/",
        "pytest --maxfail=1",
        "cargo test --release",
        "make -j4 test",
        "mvn -q -o test -DskipTests",
        "go test ./...",
    ] {
        assert_eq!(review(&bash(line)).await.0, Behavior::Allow, "{line}");
    }
}

/// A Go package argument that is not a relative path is an import path: the standard
/// library, a meta-package or a module the `go` command downloads, whose code is not the
/// workspace's (`go test std`, `go run golang.org/x/…@latest`).
#[tokio::test]
async fn go_packages_outside_the_workspace_are_not_routine() {
    for line in [
        "go test std",
        "go test net/http",
        "go test all",
        "go run fmt",
        "go run golang.org/x/tools/cmd/stringer@latest",
        "go vet ./... cmd",
        "go test -run X -v net/http",
        "go generate ./...",
        "go test -exec ./wrap ./...",
    ] {
        assert_eq!(review(&bash(line)).await.0, Behavior::Ask, "{line}");
    }
    for line in [
        "go test ./...",
        "go build -o bin/app .",
        "go run . -v",
        "go vet",
    ] {
        assert_eq!(review(&bash(line)).await.0, Behavior::Allow, "{line}");
    }
}

/// Deleting or changing a tree asks however the option is spelled: getopt_long reads a
/// unique prefix of a long option (`rm --rec`, `chmod --rec`) and clusters (`-rf`).
#[tokio::test]
async fn recursive_deletes_ask_however_their_options_are_spelled() {
    for line in [
        "rm -r src",
        "rm --rec src",
        "rm --re -f src",
        "rm -fr src",
        "rm --recursive --force src",
        "timeout 5 rm --rec src",
        "/usr/bin/rm --rec src",
        "chmod -R 000 src",
        "chmod --rec 000 src",
    ] {
        assert_eq!(review(&bash(line)).await.0, Behavior::Ask, "{line}");
    }
    assert_eq!(review(&bash("rm src/a.txt")).await.0, Behavior::Allow);
}

/// make's `-j` and `-l` take a number only when one follows: the word after them is
/// otherwise a target (`make -j install` runs `install`, checked with GNU make).
#[tokio::test]
async fn a_target_after_make_jobs_is_a_target() {
    for line in [
        "make -j install",
        "make -l install",
        "make -j -k deploy",
        "make -j 4 -l install",
    ] {
        assert_eq!(review(&bash(line)).await.0, Behavior::Ask, "{line}");
    }
    for line in [
        "make -j 4 test",
        "make -j4 all",
        "make -l 2 check",
        "make -j",
    ] {
        assert_eq!(review(&bash(line)).await.0, Behavior::Allow, "{line}");
    }
}

/// The import path of the module a `go` command runs in names the workspace's own packages.
#[tokio::test]
async fn the_workspace_module_s_import_path_is_its_own() {
    let ws = tempfile::tempdir().expect("dir");
    std::fs::write(
        ws.path().join("go.mod"),
        "module example.com/demo\n\ngo 1.22\n",
    )
    .expect("go.mod");
    let cx = context(PermissionMode::Auto, ws.path());
    let review = |line: &'static str| {
        let cx = &cx;
        async move {
            HeuristicClassifier::new(policy())
                .classify(&Review {
                    call: &bash(line),
                    context: cx,
                })
                .await
                .expect("review")
                .behavior
        }
    };
    for line in [
        "go test example.com/demo/...",
        "go build example.com/demo/cmd/app",
    ] {
        assert_eq!(review(line).await, Behavior::Allow, "{line}");
    }
    for line in [
        "go test example.com/demox/...",
        "go run example.com/demo@latest",
        "go test std",
        "go test example.com/other",
    ] {
        assert_eq!(review(line).await, Behavior::Ask, "{line}");
    }
}
