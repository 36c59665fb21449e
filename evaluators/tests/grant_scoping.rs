//! Grants key exactly what was approved and nothing wider: each shell command's words (with
//! the directory a `cd` moved it to), the directory for a file tool, the parsed host for a
//! web URL; every key names the workspace it was given in.

mod support;

use std::sync::Arc;

use serde_json::json;
use support::{HOME, bash, call, workspace};
use warrant_core::approval::standard_actions;
use warrant_core::call::PermissionMode;
use warrant_core::decision::{Behavior, PermissionDecisionSource, Scope};
use warrant_core::engine::{AuthorizeOptions, Engine};
use warrant_core::grant::{Grant, GrantKey, GrantScoper};
use warrant_evaluators::rule::codes;
use warrant_evaluators::{CanonicalGrantScoper, EvaluatorsConfig, default_chain};

fn scoper(root: &std::path::Path) -> CanonicalGrantScoper {
    CanonicalGrantScoper::new(root, Some(HOME.into()))
}

fn specs(
    s: &CanonicalGrantScoper,
    c: &warrant_core::call::ToolCall,
) -> Vec<(String, Option<String>)> {
    s.keys(c)
        .into_iter()
        .map(|k| (k.tool_name, k.specifier))
        .collect()
}

fn shell(spec: &str) -> (String, Option<String>) {
    ("Bash".to_owned(), Some(spec.to_owned()))
}

#[test]
fn shell_commands_key_by_their_exact_words() {
    let ws = workspace();
    let s = scoper(ws.path());
    let rows = [
        ("git push origin dev", vec![shell("git push origin dev")]),
        (
            "git -C sub push --tags",
            vec![shell("git -C sub push --tags")],
        ),
        (
            "npm run test && npm run build",
            vec![shell("npm run test"), shell("npm run build")],
        ),
        (
            "git status && git push",
            vec![shell("git status"), shell("git push")],
        ),
        ("ls -la src", vec![shell("ls -la src")]),
        ("timeout 60 cargo test", vec![shell("cargo test")]),
        (
            "sudo apt install ripgrep",
            vec![shell("sudo apt install ripgrep")],
        ),
        ("python -c 'print(1)'", vec![shell("python -c 'print(1)'")]),
        ("cd src && cargo test", vec![shell("cd src && cargo test")]),
        ("echo 'unterminated", vec![shell("echo 'unterminated")]),
        ("$TOOL run", vec![shell("$TOOL run")]),
        (
            "git diff | xargs wc -l",
            vec![shell("git diff | xargs wc -l")],
        ),
    ];
    for (command, expected) in rows {
        assert_eq!(specs(&s, &bash(command)), expected, "{command}");
    }
    assert_eq!(
        specs(&s, &call("bash", json!({"command": "git push"}))),
        vec![shell("git push")]
    );
    let root = ws.path().to_string_lossy().into_owned();
    assert!(
        s.keys(&bash("git push"))
            .iter()
            .all(|k| k.workspace.as_deref() == Some(root.as_str())),
        "every key names its workspace"
    );
}

#[test]
fn a_grant_given_in_one_workspace_covers_nothing_in_another() {
    let (a, b) = (workspace(), workspace());
    let grant = Grant {
        id: String::new(),
        action_id: String::new(),
        keys: scoper(a.path()).keys(&bash("npm test")),
        scope: Scope::Global,
        session_id: "s1".to_owned().into(),
        tool_call_id: "c0".to_owned().into(),
        granted_at: 0,
        description: String::new(),
    };
    assert!(grant.covers(&scoper(a.path()).keys(&bash("npm test"))));
    assert!(!grant.covers(&scoper(b.path()).keys(&bash("npm test"))));
}

#[test]
fn other_tools_key_narrowly() {
    let ws = workspace();
    let s = scoper(ws.path());
    let rows = [
        (
            call("Edit", json!({"path": "src/main.rs"})),
            ("Edit", Some("src/")),
        ),
        (
            call("Write", json!({"path": "README.md"})),
            ("Write", Some("./")),
        ),
        (
            call("web_fetch", json!({"url": "https://docs.rs/globset?x=1"})),
            ("web_fetch", Some("docs.rs")),
        ),
        (
            call("web_fetch", json!({"url": "https://docs.rs:1@evil.com/"})),
            ("web_fetch", Some("evil.com")),
        ),
        (
            call("web_fetch", json!({"url": "file:///tmp/notes.txt"})),
            ("web_fetch", Some("file:///tmp/notes.txt")),
        ),
        (call("git.status", json!({})), ("git.status", None)),
    ];
    for (c, (tool, spec)) in rows {
        assert_eq!(
            specs(&s, &c),
            vec![(tool.to_owned(), spec.map(str::to_owned))],
            "{}",
            c.tool_name
        );
    }
    let outside = specs(&s, &call("Write", json!({"path": "/tmp/x/y.txt"})));
    assert_eq!(
        outside,
        vec![("Write".to_owned(), Some("/tmp/x/".to_owned()))]
    );
}

#[test]
fn the_approval_request_says_how_broad_the_grant_will_be() {
    let ws = workspace();
    let s = scoper(ws.path());
    let actions = standard_actions(&s.describe(&s.keys(&bash("git push origin dev"))));
    let labels: Vec<&str> = actions.iter().map(|a| a.label.as_str()).collect();
    assert!(
        labels.contains(&"Allow all \"git push origin dev\" commands for this session"),
        "{labels:?}"
    );
    assert!(
        labels.contains(&"Allow all \"git push origin dev\" commands in every session"),
        "{labels:?}"
    );
    let two = s.describe(&s.keys(&bash("git status && git push")));
    assert_eq!(two, "\"git status\" and \"git push\" commands");
}

#[test]
fn a_grant_covers_what_was_approved_only() {
    let ws = workspace();
    let s = scoper(ws.path());
    let grant = Grant {
        id: String::new(),
        action_id: String::new(),
        keys: s.keys(&bash("git push origin dev")),
        scope: Scope::Session,
        session_id: "s1".to_owned().into(),
        tool_call_id: "c0".to_owned().into(),
        granted_at: 0,
        description: String::new(),
    };
    assert!(grant.covers(&s.keys(&bash("git push origin dev"))));
    assert!(grant.covers(&s.keys(&bash("timeout 30 git push origin dev"))));
    for wider in [
        "git push origin main",
        "git push --force origin dev",
        "git push --receive-pack=./evil origin dev",
        "git -C /tmp/elsewhere push origin dev",
        "cd sub && git push origin dev",
        "git status",
        "git push origin dev && rm -rf build",
    ] {
        assert!(!grant.covers(&s.keys(&bash(wider))), "{wider}");
    }
    assert!(!grant.covers(&[GrantKey {
        tool_name: "Bash".to_owned(),
        specifier: None,
        workspace: None,
    }]));
}

#[tokio::test]
async fn approving_for_the_session_allows_the_same_call_again_and_nothing_wider() {
    let ws = workspace();
    let config = EvaluatorsConfig::default();
    let chain = default_chain(&config, &warrant_core::catalog::ToolCatalog::builtin()).unwrap();
    let engine = Engine::builder(chain)
        .grant_scoper(Arc::new(scoper(ws.path())))
        .workspace_root(ws.path())
        .build()
        .await
        .unwrap();
    let options = AuthorizeOptions {
        mode: PermissionMode::Default,
        announce: false,
    };
    let with_id = |id: &str, command: &str| {
        let mut c = bash(command);
        c.tool_call_id = id.to_owned().into();
        c
    };

    let first = engine
        .authorize(with_id("c1", "git push origin dev"), options)
        .await
        .unwrap();
    assert_eq!(first.decision.behavior, Behavior::Ask);
    let request = &first.approval.as_ref().unwrap().request;
    assert!(
        request
            .actions
            .iter()
            .any(|a| a.label == "Allow all \"git push origin dev\" commands for this session")
    );
    engine.resolve(&"c1".into(), "allow_session").await.unwrap();

    let later = engine
        .authorize(with_id("c2", "git push origin dev"), options)
        .await
        .unwrap();
    assert_eq!(later.decision.behavior, Behavior::Allow);
    assert_eq!(later.decision.source, PermissionDecisionSource::Rule);
    assert_eq!(later.decision.reason_code, codes::NORMALIZED_RULE_ALLOW);

    let other = engine
        .authorize(with_id("c3", "git pull"), options)
        .await
        .unwrap();
    assert_eq!(
        other.decision.behavior,
        Behavior::Ask,
        "a grant for git push covers no other subcommand"
    );
    let elsewhere = engine
        .authorize(with_id("c5", "git push origin main"), options)
        .await
        .unwrap();
    assert_eq!(
        elsewhere.decision.behavior,
        Behavior::Ask,
        "a grant for one branch covers no other"
    );
    let forced = engine
        .authorize(with_id("c4", "git push --force"), options)
        .await
        .unwrap();
    assert_eq!(
        forced.decision.behavior,
        Behavior::Deny,
        "a grant never beats a hard deny"
    );
}

#[test]
fn a_grant_does_not_widen_over_assignments_redirections_or_git_overrides() {
    let ws = workspace();
    let s = scoper(ws.path());
    for command in [
        "GIT_SSH_COMMAND=\"sh -c ./evil\" git push",
        "git -c core.sshCommand=./evil push",
        "git -ccore.sshCommand=./evil push",
        "git --exec-path=./evil push",
        "git --git-dir=/tmp/e push",
        "git --work-tree=/tmp/e push",
        "LD_PRELOAD=./x.so git push",
        "env LD_PRELOAD=./x.so git push",
        "git push > ~/.bashrc",
        "./git push",
        "/tmp/x/git push",
    ] {
        assert_eq!(
            specs(&s, &bash(command)),
            vec![shell(command)],
            "{command} must key by its exact text"
        );
    }
    assert_eq!(
        specs(&s, &bash("git push origin main > /dev/null")),
        vec![shell("git push origin main")]
    );
}

#[test]
fn a_file_tool_grant_needs_every_directory_the_call_names() {
    let ws = workspace();
    let s = scoper(ws.path());
    let patch = |files: &[&str]| {
        let mut text = "*** Begin Patch\n".to_owned();
        for f in files {
            text.push_str(&format!("*** Add File: {f}\n+x\n"));
        }
        text.push_str("*** End Patch\n");
        call("apply_patch", json!({ "input": text }))
    };
    let grant = Grant {
        id: String::new(),
        action_id: String::new(),
        keys: s.keys(&patch(&["src/ok.rs"])),
        scope: Scope::Session,
        session_id: "s1".into(),
        tool_call_id: "c0".into(),
        granted_at: 0,
        description: String::new(),
    };
    assert!(grant.covers(&s.keys(&patch(&["src/ok2.rs"]))));
    for wider in [
        patch(&["src/ok2.rs", ".git/hooks/pre-commit"]),
        patch(&["src/ok2.rs", "/root/.bashrc"]),
        call(
            "apply_patch",
            json!({ "input": "*** Begin Patch\n*** Add File: src/x.rs\n+x\n*** End Patch\n", "workdir": "/root" }),
        ),
    ] {
        assert!(!grant.covers(&s.keys(&wider)), "{wider:?}");
    }
    // A move names both directories, and its label shows both.
    let moved = call(
        "move_file",
        json!({ "source": "src/a.txt", "destination": "/root/.bashrc" }),
    );
    let keys = s.keys(&moved);
    assert_eq!(keys.len(), 2, "{keys:?}");
    assert!(
        s.describe(&keys).contains("/root/"),
        "{}",
        s.describe(&keys)
    );
}
