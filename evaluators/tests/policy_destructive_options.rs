//! Destructive commands are read with the options the program sees: abbreviated long
//! options (`rm --rec --forc ~`), clusters, options after the operands and modes given as
//! options (`chmod -w FILE`) stop the call as their spelled-out forms do.

mod support;

use support::{bash, context, policy, verdict, workspace};
use warrant_core::call::PermissionMode;
use warrant_core::evaluator::{Stance, Verdict};

/// The policy's stance on `command` in full access (`None`: it does not judge it).
async fn stance(command: &str) -> Option<Stance> {
    let ws = workspace();
    std::fs::create_dir_all(ws.path().join(".claude")).expect(".claude");
    std::fs::write(ws.path().join(".claude/settings.json"), "{}").expect("settings");
    let cx = context(PermissionMode::FullAccess, ws.path());
    match verdict(&policy(), &bash(command), &cx).await {
        Verdict::Decide { stance, .. } => Some(stance),
        Verdict::Settle { .. } | Verdict::Abstain => None,
    }
}

#[tokio::test]
async fn abbreviated_long_options_destroy_as_the_full_ones_do() {
    let mut wrong = Vec::new();
    for command in [
        "rm --rec --forc ~",
        "rm --r --f ~",
        "rm --rec ~/.config",
        "rm --rec ..",
        "rm ~ --recu",
        "rm --no x",
        "chmod --rec 000 ~",
        "chown --recur nobody ~",
        "chgrp --rec nogroup /etc",
        "chmod -w .claude/settings.json",
        "chmod -R -w .claude",
        "chmod --rec 000 .claude",
    ] {
        let got = stance(command).await;
        if got != Some(Stance::HardDeny) {
            wrong.push(format!("{command}: {got:?}"));
        }
    }
    assert!(wrong.is_empty(), "\n{}", wrong.join("\n"));
}

#[tokio::test]
async fn changes_inside_the_workspace_are_not_stopped_in_full_access() {
    let mut wrong = Vec::new();
    for command in [
        "rm --force build.log",
        "rm --rec --forc target",
        "chmod --rec u+x src",
        "chmod -x src/main.rs",
        "chmod --verbose 644 src/main.rs",
    ] {
        let got = stance(command).await;
        if matches!(got, Some(Stance::HardDeny | Stance::RequireAsk)) {
            wrong.push(format!("{command}: {got:?}"));
        }
    }
    assert!(wrong.is_empty(), "\n{}", wrong.join("\n"));
}
