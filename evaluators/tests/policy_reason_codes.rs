//! Every reason code of the `policy` evaluator, one table row each.

mod support;

use std::collections::BTreeSet;

use serde_json::json;
use support::{assert_every_code, bash, call, context, decided, policy, verdict, workspace};
use warrant_core::call::PermissionMode;
use warrant_core::decision::Risk;
use warrant_core::evaluator::Stance;
use warrant_evaluators::policy::codes;

#[tokio::test]
async fn every_policy_reason_code_has_a_row() {
    let ws = workspace();
    std::fs::create_dir_all(ws.path().join("conf")).expect("conf");
    std::fs::write(ws.path().join("conf/.env"), "TOKEN=x\n").expect(".env");
    let cx = context(PermissionMode::Default, ws.path());
    let rows = [
        (
            bash("grep -rn TOKEN conf"),
            Stance::RequireAsk,
            codes::FILESYSTEM_SENSITIVE_TREE,
            Risk::High,
        ),
        (
            bash("ls -la && git status"),
            Stance::PolicyAllow,
            codes::SHELL_READ_ONLY,
            Risk::Safe,
        ),
        (
            call("Bash", json!({"command": 5})),
            Stance::HardDeny,
            codes::VALIDATION_INVALID_INPUT,
            Risk::High,
        ),
        (
            bash("ls && rm -rf /"),
            Stance::HardDeny,
            codes::SHELL_DESTRUCTIVE,
            Risk::Critical,
        ),
        (
            bash("rm build.log"),
            Stance::DefaultAsk,
            codes::SHELL_WRITE,
            Risk::Medium,
        ),
        (
            bash("curl https://example.com"),
            Stance::DefaultAsk,
            codes::SHELL_NETWORK,
            Risk::Medium,
        ),
        (
            bash("sudo ls"),
            Stance::DefaultAsk,
            codes::SHELL_PRIVILEGED,
            Risk::High,
        ),
        (
            bash("cargo build"),
            Stance::DefaultAsk,
            codes::SHELL_UNKNOWN_COMMAND,
            Risk::Medium,
        ),
        (
            bash("echo 'unterminated"),
            Stance::RequireAsk,
            codes::SHELL_UNPARSEABLE,
            Risk::Medium,
        ),
        (
            call(
                "Write",
                json!({"path": ".claude/settings.json", "content": "{}"}),
            ),
            Stance::HardDeny,
            codes::FILESYSTEM_PROTECTED_CONFIG,
            Risk::Critical,
        ),
        (
            call("view", json!({"path": "~/.ssh/id_rsa"})),
            Stance::HardDeny,
            codes::FILESYSTEM_SENSITIVE_PATH,
            Risk::Critical,
        ),
        (
            call("Write", json!({"path": "/etc/hosts", "content": "x"})),
            Stance::HardDeny,
            codes::FILESYSTEM_SYSTEM_PATH,
            Risk::Critical,
        ),
        (
            call("Write", json!({"path": "../outside.txt"})),
            Stance::DefaultAsk,
            codes::FILESYSTEM_OUTSIDE_WORKSPACE,
            Risk::High,
        ),
        (
            call("Edit", json!({"path": "src/main.rs"})),
            Stance::DefaultAsk,
            codes::FILESYSTEM_WRITE_INSIDE_WORKSPACE,
            Risk::Low,
        ),
        (
            call("view", json!({"path": "src/main.rs"})),
            Stance::PolicyAllow,
            codes::READ_ONLY_TOOL,
            Risk::Safe,
        ),
    ];
    let p = policy();
    let mut seen = BTreeSet::new();
    for (c, stance, code, risk) in rows {
        let (got_stance, r) = decided(verdict(&p, &c, &cx).await);
        assert_eq!(
            (got_stance, r.reason_code.as_str(), r.risk),
            (stance, code, risk),
            "{:?}: {}",
            c.input,
            r.reason
        );
        assert!(
            r.confidence.is_none() && r.reviewer_model.is_none(),
            "policy decisions carry no classifier metadata"
        );
        seen.insert(code);
    }
    assert_every_code(&seen, codes::ALL);
}

#[tokio::test]
async fn tools_the_policy_does_not_know_are_left_to_others() {
    let ws = workspace();
    let cx = context(PermissionMode::Default, ws.path());
    let v = verdict(
        &policy(),
        &call("web_fetch", json!({"url": "https://example.com"})),
        &cx,
    )
    .await;
    assert_eq!(v, warrant_core::evaluator::Verdict::Abstain);
}

#[tokio::test]
async fn an_invalid_input_names_the_offending_field() {
    let ws = workspace();
    let cx = context(PermissionMode::Default, ws.path());
    let (_, r) = decided(verdict(&policy(), &call("view", json!({"path": ["a"]})), &cx).await);
    assert_eq!(
        r.reason,
        "Invalid input for \"view\": field \"path\" must be string, not an array."
    );
}
