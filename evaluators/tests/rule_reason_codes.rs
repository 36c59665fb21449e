//! Every reason code of the `rule` evaluator, one table row each.

mod support;

use std::collections::BTreeSet;
use std::sync::Arc;

use serde_json::json;
use support::{
    assert_every_code, bash, call, context_with_catalog, decided, user_rules, verdict, workspace,
};
use warrant_core::call::PermissionMode;
use warrant_core::decision::{AutoApprovalOrigin, Provenance, Scope};
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
        // Every rule verdict says which kind of user decision it is.
        let kind = match r.provenance {
            Some(Provenance::UserRule {
                ref layer,
                ref origin,
                ..
            }) => {
                assert_eq!(layer, "user");
                assert!(origin.starts_with("configuration, user."), "{origin}");
                "user_rule"
            }
            Some(Provenance::AutoApproved { from }) => {
                assert_eq!(from, AutoApprovalOrigin::Pattern);
                "auto_approved"
            }
            Some(Provenance::CheckpointsOff { ref agent }) => {
                assert_eq!(agent, "primary");
                "checkpoints_off"
            }
            ref other => panic!("{code}: unexpected provenance {other:?}"),
        };
        let expected = match code {
            codes::EXPLICIT_TOOL_AUTO_APPROVED => "auto_approved",
            codes::EXPLICIT_TOOL_CHECKPOINT_OFF => "checkpoints_off",
            _ => "user_rule",
        };
        assert_eq!(kind, expected, "{code}");
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
async fn a_grant_covering_the_call_is_a_user_allow_of_the_chain_naming_the_approval() {
    let ws = workspace();
    let mut cx = context_with_catalog(PermissionMode::Default, ws.path());
    let key = GrantKey {
        tool_name: "Bash".to_owned(),
        specifier: Some("git push".to_owned()),
        workspace: None,
    };
    cx.grants = Arc::new(vec![Grant {
        id: Grant::id_for(&"s1".into(), &"earlier".into()),
        action_id: "allow_session".to_owned(),
        keys: vec![key.clone()],
        scope: Scope::Session,
        session_id: "s1".to_owned().into(),
        tool_call_id: "earlier".to_owned().into(),
        granted_at: 7,
        description: "Allow all \"git push\" commands for this session".to_owned(),
    }]);
    cx.grant_keys = vec![key];
    let call = bash("git push origin main");
    // The rule evaluator leaves grants to the chain: any chain honours them, even one
    // without the rule evaluator.
    assert_eq!(
        verdict(&user_rules(&[], &[], &[]), &call, &cx).await,
        warrant_core::evaluator::Verdict::Abstain
    );
    for chain in [
        warrant_core::chain::Chain::builder().build(),
        warrant_core::chain::Chain::builder()
            .evaluator(user_rules(&[], &[], &[]))
            .build(),
    ] {
        let d = chain.decide(&call, &cx).await.decision;
        assert_eq!(
            (d.behavior, d.source, d.reason_code.as_str()),
            (
                warrant_core::decision::Behavior::Allow,
                warrant_core::decision::PermissionDecisionSource::Rule,
                codes::NORMALIZED_RULE_ALLOW
            )
        );
        assert!(
            d.reason
                .contains("Allow all \"git push\" commands for this session"),
            "{}",
            d.reason
        );
        assert_eq!(
            d.provenance,
            Some(warrant_core::decision::Provenance::Grant {
                grant_id: Grant::id_for(&"s1".into(), &"earlier".into()),
                scope: Scope::Session,
                granted_at: 7,
                tool_call_id: "earlier".to_owned().into(),
                action_id: "allow_session".to_owned(),
                description: "Allow all \"git push\" commands for this session".to_owned(),
            })
        );
        assert_eq!(d.evaluator.map(|e| e.name), Some("grants".to_owned()));
    }
    // The user's own ask rule still wins over a grant.
    let chain = warrant_core::chain::Chain::builder()
        .evaluator(user_rules(&[], &["Bash(git push:*)"], &[]))
        .build();
    let d = chain.decide(&call, &cx).await.decision;
    assert_eq!(d.behavior, warrant_core::decision::Behavior::Ask);
    assert!(matches!(
        d.provenance,
        Some(warrant_core::decision::Provenance::UserRule { .. })
    ));
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
