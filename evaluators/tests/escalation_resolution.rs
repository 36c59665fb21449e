//! An escalated call shows the reviewer's recommendation before the user acts, and keeps it
//! beside the user's resolution afterwards.

mod support;

use std::sync::Arc;

use support::{HOME, bash, workspace};
use warrant_core::call::PermissionMode;
use warrant_core::decision::{Behavior, PermissionDecisionSource, ResolutionBehavior};
use warrant_core::engine::{AuthorizeOptions, Engine};
use warrant_core::event::WarrantEvent;
use warrant_core::transport::MemoryTransport;
use warrant_evaluators::{CanonicalGrantScoper, EvaluatorsConfig, default_chain};

#[tokio::test]
async fn a_resolved_escalation_keeps_the_recommendation_and_the_resolution() {
    let ws = workspace();
    let chain = default_chain(
        &EvaluatorsConfig::default(),
        &warrant_core::catalog::ToolCatalog::builtin(),
    )
    .unwrap();
    let transport = Arc::new(MemoryTransport::new());
    let mut events = transport.subscribe(&"s1".into());
    let engine = Engine::builder(chain)
        .transport(transport.clone())
        .grant_scoper(Arc::new(CanonicalGrantScoper::new(
            ws.path(),
            Some(HOME.into()),
        )))
        .workspace_root(ws.path())
        .build()
        .await
        .unwrap();

    let auth = engine
        .authorize(
            bash("curl https://example.com"),
            AuthorizeOptions {
                mode: PermissionMode::Auto,
                announce: false,
            },
        )
        .await
        .unwrap();
    assert_eq!(
        (auth.decision.behavior, auth.decision.source),
        (Behavior::Ask, PermissionDecisionSource::AutoClassifier)
    );
    let request = &auth.approval.as_ref().unwrap().request;
    assert_eq!(
        request.recommendation.source,
        PermissionDecisionSource::AutoClassifier
    );
    assert!(
        request.recommendation.confidence.is_some()
            && request.recommendation.reviewer_model.is_some()
    );

    let resolution = engine
        .resolve(&"call-1".into(), "allow_once")
        .await
        .unwrap();
    assert_eq!(resolution.behavior, ResolutionBehavior::Allow);

    let mut seen = Vec::new();
    while let Ok(event) = events.try_recv() {
        if let Some(Ok(w)) = event.warrant() {
            seen.push(w);
        }
    }
    assert!(
        matches!(&seen[..], [WarrantEvent::Decision(d), WarrantEvent::ApprovalRequest(_), WarrantEvent::Resolution(r)]
        if d.source == PermissionDecisionSource::AutoClassifier && d.reason_code == "auto_classifier_ask" && r.action_id == "allow_once"),
        "{seen:?}"
    );
}
