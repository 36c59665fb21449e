//! Every reason code of the `rule` evaluator, one table row each.

mod support;

use std::collections::BTreeSet;
use std::sync::Arc;

use serde_json::json;
use support::{
    assert_every_code, bash, call, context_with_catalog, decided, user_rules, verdict, workspace,
};
use warrant_core::call::PermissionMode;
use warrant_core::decision::Scope;
use warrant_core::evaluator::Stance;
use warrant_core::grant::{Grant, GrantKey};
use warrant_core::workspace::EffectivePolicy;
use warrant_evaluators::rule::codes;

#[tokio::test]
async fn every_rule_reason_code_has_a_row() {
    let ws = workspace();
    let rules = user_rules(
        &["Bash(npm run test:*)", "web_fetch"],
        &["Bash(git push:*)", "Write"],
        &["Edit(secrets/**)", "glob"],
    );
    let base = context_with_catalog(PermissionMode::Default, ws.path());
    let mut auto = base.clone();
    auto.policy = Arc::new(EffectivePolicy {
        auto_approved_tool_names: vec!["lsp_ts_hover".to_owned()],
        ..EffectivePolicy::default()
    });
    let mut off = base.clone();
    off.policy = Arc::new(EffectivePolicy {
        rules: Vec::new(),
        ..EffectivePolicy::default()
    });

    let rows = [
        (
            bash("npm run test unit"),
            &base,
            Stance::UserAllow,
            codes::NORMALIZED_RULE_ALLOW,
        ),
        (
            bash("git push origin main"),
            &base,
            Stance::RequireAsk,
            codes::NORMALIZED_RULE_ASK,
        ),
        (
            call("Edit", json!({"path": "secrets/key.txt"})),
            &base,
            Stance::HardDeny,
            codes::NORMALIZED_RULE_DENY,
        ),
        (
            call("web_fetch", json!({"url": "https://example.com"})),
            &base,
            Stance::UserAllow,
            codes::EXPLICIT_TOOL_ALLOW,
        ),
        (
            call("Write", json!({"path": "a.txt"})),
            &base,
            Stance::RequireAsk,
            codes::EXPLICIT_TOOL_ASK,
        ),
        (
            call("glob", json!({"pattern": "**/*.rs"})),
            &base,
            Stance::HardDeny,
            codes::EXPLICIT_TOOL_DENY,
        ),
        (
            call("lsp_ts_hover", json!({})),
            &auto,
            Stance::UserAllow,
            codes::EXPLICIT_TOOL_AUTO_APPROVED,
        ),
        (
            call("lsp_ts_hover", json!({})),
            &off,
            Stance::UserAllow,
            codes::EXPLICIT_TOOL_CHECKPOINT_OFF,
        ),
    ];
    let mut seen = BTreeSet::new();
    for (c, cx, stance, code) in rows {
        let (got, r) = decided(verdict(&rules, &c, cx).await);
        assert_eq!(
            (got, r.reason_code.as_str()),
            (stance, code),
            "{} {:?}: {}",
            c.tool_name,
            c.input,
            r.reason
        );
        seen.insert(code);
    }
    assert_every_code(&seen, codes::ALL);
}

#[tokio::test]
async fn a_rule_reason_names_the_rule_and_where_it_came_from() {
    let ws = workspace();
    let cx = context_with_catalog(PermissionMode::Default, ws.path());
    let (_, r) = decided(
        verdict(
            &user_rules(&[], &["Bash(git push:*)"], &[]),
            &bash("git push"),
            &cx,
        )
        .await,
    );
    assert_eq!(
        r.reason,
        "The user rule \"Bash(git push:*)\" (configuration, user.ask[0]) asks for approval of this call."
    );
}

#[tokio::test]
async fn a_grant_covering_the_call_is_a_user_allow_naming_the_approval() {
    let ws = workspace();
    let mut cx = context_with_catalog(PermissionMode::Default, ws.path());
    let key = GrantKey {
        tool_name: "Bash".to_owned(),
        specifier: Some("git push".to_owned()),
        workspace: None,
    };
    cx.grants = Arc::new(vec![Grant {
        keys: vec![key.clone()],
        scope: Scope::Session,
        session_id: "s1".to_owned(),
        tool_call_id: "earlier".to_owned(),
        granted_at: 0,
        description: "Allow all \"git push\" commands for this session".to_owned(),
    }]);
    cx.grant_keys = vec![key];
    let (stance, r) = decided(
        verdict(
            &user_rules(&[], &[], &[]),
            &bash("git push origin main"),
            &cx,
        )
        .await,
    );
    assert_eq!(
        (stance, r.reason_code.as_str()),
        (Stance::UserAllow, codes::NORMALIZED_RULE_ALLOW)
    );
    assert!(
        r.reason
            .contains("Allow all \"git push\" commands for this session"),
        "{}",
        r.reason
    );
}

#[tokio::test]
async fn with_checkpoints_on_and_nothing_auto_approved_the_rule_evaluator_abstains() {
    let ws = workspace();
    let cx = context_with_catalog(PermissionMode::Default, ws.path());
    let v = verdict(
        &user_rules(&[], &[], &[]),
        &call("lsp_ts_hover", json!({})),
        &cx,
    )
    .await;
    assert_eq!(v, warrant_core::evaluator::Verdict::Abstain);
}
