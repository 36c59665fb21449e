//! A login shell runs the person's start-up files (`~/.bash_profile`, `~/.profile`) before its
//! script: code from outside the workspace that nothing judged. The one login shell the policy
//! allows is the one an agent's runtime starts itself, which only the tool's input tells (an
//! argument vector such as Codex's `["bash", "-lc", SCRIPT]`); the same line typed as a string
//! is a shell the command starts.

mod support;

use serde_json::json;
use support::{call, context, decided, policy, verdict, workspace};
use warrant_core::call::PermissionMode;
use warrant_core::evaluator::Stance;

async fn stance(tool: &str, input: serde_json::Value) -> Stance {
    let ws = workspace();
    let cx = context(PermissionMode::Default, ws.path());
    decided(verdict(&policy(), &call(tool, input), &cx).await).0
}

#[tokio::test]
async fn a_login_shell_given_as_an_argument_vector_is_the_runtimes_own() {
    for tool in ["shell", "local_shell", "Bash", "exec_command"] {
        for vector in [
            json!({"command": ["bash", "-lc", "ls"]}),
            json!({"command": ["bash", "--login", "-c", "git status"]}),
            json!({"cmd": ["bash", "-lc", "wc -l Cargo.toml"]}),
        ] {
            assert_eq!(
                stance(tool, vector.clone()).await,
                Stance::PolicyAllow,
                "{tool} {vector}"
            );
        }
    }
}

#[tokio::test]
async fn a_login_shell_typed_as_a_line_is_never_allowed() {
    for tool in ["shell", "Bash", "exec_command"] {
        for line in [
            "'bash' '-lc' 'ls'",
            "'bash' '--login' '-c' 'git status'",
            "bash -lc ls",
            "bash -lc 'ls'",
            "bash --login -c ls",
            "sh -lc ls",
            "bash -l -c ls",
            "ls && 'bash' '-lc' 'ls'",
            "'bash' '-ic' 'ls'",
        ] {
            for input in [json!({ "command": line }), json!({ "cmd": line })] {
                let found = stance(tool, input.clone()).await;
                assert_ne!(found, Stance::PolicyAllow, "{tool} {input}");
            }
        }
    }
    // A vector whose script starts a login shell of its own: that one is the command's.
    let nested = json!({"command": ["bash", "-lc", "bash -lc ls"]});
    assert_ne!(stance("shell", nested).await, Stance::PolicyAllow);
    // A vector that is not the whole command the runtime starts is not one either.
    let piped = json!({"command": "'bash' '-lc' 'ls' | cat"});
    assert_ne!(stance("shell", piped).await, Stance::PolicyAllow);
}
