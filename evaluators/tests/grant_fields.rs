//! A grant covers a call only with the fields it was approved with: a shell command's
//! directory and environment fields, a URL tool's method, body and headers. A grant never
//! covers a call the policy hard-denies. It keys everything that chooses who and how its
//! command runs: a privileged runner's options (the user, the group, the environment kept,
//! the root) and a wrapper whose options are not modeled (a login shell typed into the
//! command); its label says what it covers, fields and all.

mod support;

use std::sync::Arc;

use serde_json::{Value, json};
use support::{HOME, bash, call, workspace};
use warrant_core::call::PermissionMode;
use warrant_core::decision::{Behavior, Scope};
use warrant_core::engine::{AuthorizeOptions, Engine};
use warrant_core::grant::{Grant, GrantScoper};
use warrant_evaluators::{CanonicalGrantScoper, EvaluatorsConfig, default_chain};

fn scoper(root: &std::path::Path) -> CanonicalGrantScoper {
    CanonicalGrantScoper::new(root, Some(HOME.into()))
}

fn grant_for(s: &CanonicalGrantScoper, c: &warrant_core::call::ToolCall) -> Grant {
    Grant {
        id: String::new(),
        action_id: String::new(),
        keys: s.keys(c),
        scope: Scope::Session,
        session_id: "s1".to_owned().into(),
        tool_call_id: "c0".to_owned().into(),
        granted_at: 0,
        description: String::new(),
    }
}

fn with(command: &str, field: &str, value: Value) -> Value {
    let mut input = json!({ "command": command });
    input[field] = value;
    input
}

#[test]
fn a_shell_grant_covers_no_call_run_elsewhere_or_with_another_environment() {
    let ws = workspace();
    let s = scoper(ws.path());
    let plain = grant_for(&s, &bash("make test"));
    assert!(plain.covers(&s.keys(&bash("make test"))));
    assert!(plain.covers(&s.keys(&call(
        "Bash",
        json!({"command": "make test", "description": "run the tests", "timeout": 60000})
    ))));
    let elsewhere = [
        ("workdir", json!("/tmp/evil")),
        ("cwd", json!("/tmp/evil")),
        ("dir_path", json!("/tmp")),
        ("directory", json!("/tmp")),
        ("working_directory", json!("/tmp/evil")),
        ("env", json!({"MAKEFILES": "/tmp/evil.mk"})),
        ("env", json!({})),
    ];
    for (field, value) in &elsewhere {
        for tool in ["Bash", "shell", "run_shell_command"] {
            let c = call(tool, with("make test", field, value.clone()));
            assert!(!plain.covers(&s.keys(&c)), "{tool} {field}={value}");
        }
    }
    let argv = call(
        "shell",
        json!({"command": ["make", "test"], "workdir": "/tmp/evil"}),
    );
    assert!(!plain.covers(&s.keys(&argv)));
    // Given with a directory, a grant covers that very directory and no other, nor none.
    let there = grant_for(
        &s,
        &call("Bash", with("make test", "workdir", json!("sub"))),
    );
    assert!(there.covers(&s.keys(&call("Bash", with("make test", "workdir", json!("sub"))))));
    assert!(!there.covers(&s.keys(&call(
        "Bash",
        with("make test", "workdir", json!("/tmp/evil"))
    ))));
    assert!(!there.covers(&s.keys(&bash("make test"))));
    let push = grant_for(&s, &bash("git push origin main"));
    assert!(!push.covers(&s.keys(&call(
        "Bash",
        with("git push origin main", "workdir", json!("/other/repo"))
    ))));
}

#[test]
fn a_url_grant_covers_plain_reads_only() {
    let ws = workspace();
    let s = scoper(ws.path());
    let url = "https://api.github.com/repos/a/b";
    let get = grant_for(
        &s,
        &call("mcp__http__request", json!({"url": url, "method": "GET"})),
    );
    assert!(get.covers(&s.keys(&call("mcp__http__request", json!({"url": url})))));
    assert!(get.covers(&s.keys(&call(
        "mcp__http__request",
        json!({"url": "https://api.github.com/other", "method": "head"})
    ))));
    for input in [
        json!({"url": url, "method": "DELETE"}),
        json!({"url": url, "method": "POST", "body": "{}"}),
        json!({"url": url, "body": "x"}),
        json!({"url": url, "headers": {"Authorization": "x"}}),
        json!({"url": url, "data": "x"}),
        json!({"url": url, "file": format!("{HOME}/.bashrc")}),
        json!({"url": url, "method": ["GET"]}),
    ] {
        let c = call("mcp__http__request", input.clone());
        assert!(!get.covers(&s.keys(&c)), "{input}");
    }
    let fetch = grant_for(
        &s,
        &call("WebFetch", json!({"url": url, "prompt": "summarize"})),
    );
    assert!(fetch.covers(&s.keys(&call(
        "WebFetch",
        json!({"url": "https://api.github.com/x", "prompt": "other"})
    ))));
}

#[tokio::test]
async fn a_grant_for_an_unknown_tool_never_beats_the_policy_hard_deny() {
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
    let with_id = |id: &str, input: Value| {
        let mut c = call("mcp__desktop_commander__write_file", input);
        c.tool_call_id = id.to_owned().into();
        c
    };
    let first = engine
        .authorize(
            with_id("c1", json!({"path": "src/a.rs", "content": "x"})),
            options,
        )
        .await
        .unwrap();
    assert_eq!(first.decision.behavior, Behavior::Ask);
    let request = &first.approval.as_ref().unwrap().request;
    assert!(
        request.actions.iter().any(|a| a.label
            == "Allow all \"mcp__desktop_commander__write_file\" calls for this session"),
        "the label says the grant covers every call of the tool"
    );
    engine.resolve(&"c1".into(), "allow_session").await.unwrap();
    let again = engine
        .authorize(
            with_id("c2", json!({"path": "src/b.rs", "content": "x"})),
            options,
        )
        .await
        .unwrap();
    assert_eq!(again.decision.behavior, Behavior::Allow);
    for (k, path) in [
        ".claude/settings.json",
        "warrant.toml",
        ".git/config",
        ".env",
    ]
    .into_iter()
    .enumerate()
    {
        let denied = engine
            .authorize(
                with_id(&format!("d{k}"), json!({"path": path, "content": "x"})),
                options,
            )
            .await
            .unwrap();
        assert_eq!(
            denied.decision.behavior,
            Behavior::Deny,
            "{path}: a grant never beats a hard deny"
        );
    }
}

#[test]
fn a_grant_under_a_privileged_runner_covers_no_other_identity_or_environment() {
    let ws = workspace();
    let s = scoper(ws.path());
    let grant = grant_for(&s, &bash("sudo make test"));
    assert_eq!(s.describe(&grant.keys), "\"sudo make test\" commands");
    assert!(grant.covers(&s.keys(&bash("sudo make test"))));
    assert!(grant.covers(&s.keys(&bash("sudo timeout 60 make test"))));
    for other in [
        "sudo -u nobody make test",
        "sudo -unobody make test",
        "sudo --user=nobody make test",
        "sudo -g adm make test",
        "sudo -E make test",
        "sudo --preserve-env make test",
        "sudo --preserve-env=PATH make test",
        "sudo -H make test",
        "sudo -s make test",
        "sudo -D /tmp make test",
        "sudo -T 5 make test",
        "sudo -n -E make test",
        "sudo sudo -u nobody make test",
        "doas make test",
        "doas -u nobody make test",
        "run0 make test",
        "run0 --setenv=PATH=/tmp make test",
        "setpriv --reuid=1000 make test",
        "runuser -u nobody -- make test",
        "su -c 'make test'",
        "pkexec make test",
        "make test",
    ] {
        assert!(!grant.covers(&s.keys(&bash(other))), "{other}");
    }
    // Each runner's options are keyed and shown: the grant for one covers it alone.
    let nobody = grant_for(&s, &bash("sudo -u nobody make test"));
    assert_eq!(
        s.describe(&nobody.keys),
        "\"sudo -u nobody make test\" commands"
    );
    assert!(nobody.covers(&s.keys(&bash("sudo -u nobody make test"))));
    assert!(!nobody.covers(&s.keys(&bash("sudo -u root make test"))));
    assert!(!nobody.covers(&s.keys(&bash("sudo make test"))));
    let kept = grant_for(&s, &bash("sudo --preserve-env=PATH make test"));
    assert!(!kept.covers(&s.keys(&bash("sudo --preserve-env=LD_PRELOAD make test"))));
}

#[test]
fn a_grant_covers_no_login_shell_the_command_starts() {
    let ws = workspace();
    let s = scoper(ws.path());
    let plain = grant_for(&s, &bash("cargo test"));
    for login in [
        "bash -lc 'cargo test'",
        "'bash' '-lc' 'cargo test'",
        "bash --login -c 'cargo test'",
        "bash -ic 'cargo test'",
        "sh -lc 'cargo test'",
    ] {
        assert!(!plain.covers(&s.keys(&bash(login))), "{login}");
    }
    // Wrappers that move the command or read another file: not the approved command.
    for moved in [
        "env -C /tmp cargo test",
        "env --chdir=/tmp cargo test",
        "env -S 'cargo test'",
        "sudo cargo test",
        "nohup cargo test",
    ] {
        assert!(!plain.covers(&s.keys(&bash(moved))), "{moved}");
    }
    // The runtime's own login shell (an argument vector) runs the same script.
    let vector = call("shell", json!({"command": ["bash", "-lc", "cargo test"]}));
    assert!(plain.covers(&s.keys(&vector)));
    assert!(plain.covers(&s.keys(&bash("bash -c 'cargo test'"))));
    assert!(plain.covers(&s.keys(&bash("timeout 60 cargo test"))));
}

#[test]
fn a_whole_input_grant_says_what_it_covers_in_words() {
    let ws = workspace();
    let s = scoper(ws.path());
    let describe = |input: serde_json::Value| s.describe(&s.keys(&call("Bash", input)));
    assert_eq!(
        describe(json!({"command": "make test", "workdir": "/tmp/evil"})),
        "\"make test\" commands run in \"/tmp/evil\" (`workdir`)"
    );
    assert_eq!(
        describe(
            json!({"command": "make test", "env": {"MAKEFILES": "/tmp/evil.mk"}, "timeout": 5})
        ),
        "\"make test\" commands with `env` {\"MAKEFILES\":\"/tmp/evil.mk\"}"
    );
    assert_eq!(
        describe(json!({"command": ["make", "test"], "cwd": "sub"})),
        "\"'make' 'test'\" commands (an argument vector) run in \"sub\" (`cwd`)"
    );
    assert_eq!(
        describe(json!({"command": "ls", "cmd": "rm -rf x"})),
        "\"ls\" commands with `cmd` \"rm -rf x\""
    );
    assert_eq!(
        describe(json!({"command": 7, "cwd": "/"})),
        "shell calls with `command` 7, run in \"/\" (`cwd`)"
    );
    let label = describe(json!({"command": "make test", "cwd": "/tmp"}));
    assert!(!label.contains("{\""), "no raw JSON: {label}");
}

#[test]
fn a_command_line_never_shares_its_key_with_a_whole_input() {
    let ws = workspace();
    let s = scoper(ws.path());
    let input = json!({"command": "cat <<E", "cwd": "/"});
    // A line typed to read like that input, which the shell cannot read as words.
    let typed = grant_for(&s, &bash(&input.to_string()));
    assert!(!typed.covers(&s.keys(&call("Bash", input.clone()))));
    assert_eq!(
        s.describe(&typed.keys),
        format!("\"{input}\" commands"),
        "the line is shown as typed"
    );
    let whole = grant_for(&s, &call("Bash", input.clone()));
    assert!(!whole.covers(&s.keys(&bash(&input.to_string()))));
}
