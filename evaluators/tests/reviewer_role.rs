//! The security reviewer role against a fake OpenAI-compatible endpoint on 127.0.0.1: a
//! reviewer that is slow or down falls back to the embedded reviewer or to ask, as
//! configured, and every review reports its model, prompt version, latency and fallback.

mod support;

use std::time::Duration;

use axum::Json;
use axum::routing::post;
use serde_json::{Value, json};
use support::{bash, context, workspace};
use warrant_core::call::PermissionMode;
use warrant_core::catalog::ToolCatalog;
use warrant_core::decision::ReviewDetails;
use warrant_core::decision::{Behavior, PermissionDecisionSource};
use warrant_evaluators::classifier::{
    AutoClassifier, Fallback, HEURISTIC_MODEL_ID, OpenAiCompatibleConfig, PROMPT_VERSION, codes,
};
use warrant_evaluators::{ClassifierConfig, EvaluatorsConfig, default_chain};

const GOOD: &str = r#"{"behavior":"ask","risk":"medium","confidence":"high","riskCategories":[],"reason":"Worth a look."}"#;

/// A chat-completions endpoint that answers `GOOD` after `delay`.
async fn endpoint(delay: Duration) -> String {
    answering(GOOD, delay).await
}

/// A chat-completions endpoint that allows every call with medium confidence.
async fn allowing_endpoint() -> String {
    const ALLOW: &str = r#"{"behavior":"allow","risk":"low","confidence":"medium","riskCategories":[],"reason":"Looks routine."}"#;
    answering(ALLOW, Duration::ZERO).await
}

/// A chat-completions endpoint on 127.0.0.1 whose reviewer answers `content` after `delay`.
async fn answering(content: &'static str, delay: Duration) -> String {
    let app = axum::Router::new().route(
        "/v1/chat/completions",
        post(move |Json(_): Json<Value>| async move {
            tokio::time::sleep(delay).await;
            Json(json!({"choices": [{"message": {"role": "assistant", "content": content}}]}))
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    format!("http://{addr}/v1")
}

#[tokio::test]
async fn the_configured_chain_honours_min_confidence_like_the_default_chain() {
    // `warrant serve` builds its chain through the plugin registry: the classifier it makes
    // there must read `min_confidence` as `default_chain` does.
    let base = allowing_endpoint().await;
    let tables = json!({
        "classifier": {
            "min_confidence": "high",
            "openai": { "base_url": base, "model": "test/reviewer-2", "api_key_env": null }
        }
    });
    let cx = warrant_plugins::BuildContext::new(tables.clone());
    let chain = warrant_plugins::assemble(&warrant_plugins::PluginsConfig::default(), &cx)
        .await
        .unwrap()
        .chain;
    let ws = workspace();
    let outcome = chain
        .decide(
            &bash("touch notes.txt"),
            &context(PermissionMode::Auto, ws.path()),
        )
        .await;
    assert_eq!(outcome.decision.behavior, Behavior::Ask, "{outcome:?}");
    assert!(
        outcome.decision.reason.contains("not sure"),
        "{}",
        outcome.decision.reason
    );
    // The same configuration through `default_chain` gives the same answer.
    let config: EvaluatorsConfig = serde_json::from_value(tables).unwrap();
    let chain = default_chain(&config, &ToolCatalog::builtin()).unwrap();
    let again = chain
        .decide(
            &bash("touch notes.txt"),
            &context(PermissionMode::Auto, ws.path()),
        )
        .await;
    assert_eq!(again.decision.behavior, Behavior::Ask);
}

/// The base URL of a port nobody listens on.
async fn down() -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    drop(listener);
    format!("http://{addr}/v1")
}

fn reviewer(base_url: &str, fallback: Fallback) -> ClassifierConfig {
    let mut c = OpenAiCompatibleConfig::new(base_url, "test/reviewer-2");
    c.timeout_ms = 200;
    c.api_key_env = None;
    c.fallback = fallback;
    ClassifierConfig {
        openai: Some(c),
        min_confidence: None,
    }
}

/// Reviews `touch notes.txt` (open in `auto` mode) with `config`: the behaviour, reason code,
/// reviewer model and the account of the review the decision carries.
async fn review(config: &ClassifierConfig, id: &str) -> (Behavior, String, String, ReviewDetails) {
    let ws = workspace();
    let policy = support::policy();
    let (backend, _) = config.backend(&policy).unwrap();
    let e = AutoClassifier::new(backend);
    let mut call = bash("touch notes.txt");
    call.tool_call_id = id.to_owned().into();
    let cx = context(PermissionMode::Auto, ws.path());
    use warrant_core::evaluator::{Evaluator, Verdict};
    let Verdict::Settle {
        behavior,
        rationale,
    } = e.evaluate(&call, &cx).await.unwrap()
    else {
        panic!("expected a settling verdict");
    };
    (
        behavior,
        rationale.reason_code,
        rationale.reviewer_model.unwrap_or_default(),
        rationale.review,
    )
}

#[tokio::test]
async fn a_working_reviewer_reports_its_model_prompt_version_and_latency() {
    let base = endpoint(Duration::from_millis(20)).await;
    let (behavior, code, model, report) = review(&reviewer(&base, Fallback::Embedded), "c1").await;
    assert_eq!(
        (behavior, code.as_str()),
        (Behavior::Ask, codes::AUTO_CLASSIFIER_ASK)
    );
    assert_eq!(model, "test/reviewer-2");
    assert_eq!(report.reviewer_embedded, Some(false));
    assert_eq!(
        report.reviewer_prompt_version.as_deref(),
        Some(PROMPT_VERSION)
    );
    assert!(report.reviewer_latency_ms.unwrap() >= 20, "{report:?}");
    assert_eq!(
        (report.reviewer_fallback, report.reviewer_fallback_reason),
        (None, None)
    );
}

#[tokio::test]
async fn a_slow_reviewer_falls_back_to_the_embedded_reviewer_when_configured() {
    let base = endpoint(Duration::from_secs(5)).await;
    let (_, code, model, report) = review(&reviewer(&base, Fallback::Embedded), "c2").await;
    // The embedded reviewer decided, and says so.
    assert_eq!(model, HEURISTIC_MODEL_ID);
    assert_ne!(code, codes::AUTO_CLASSIFIER_UNAVAILABLE);
    assert_eq!(report.reviewer_embedded, Some(true));
    assert_eq!(report.reviewer_fallback, Some(Fallback::Embedded));
    assert!(
        report
            .reviewer_fallback_reason
            .as_deref()
            .unwrap()
            .contains("no answer within 200 ms"),
        "{report:?}"
    );
    assert_eq!(report.reviewer_prompt_version, None);
    assert!(report.reviewer_latency_ms.unwrap() >= 200, "{report:?}");
}

#[tokio::test]
async fn a_down_reviewer_asks_when_configured_to() {
    let base = down().await;
    let (behavior, code, model, report) = review(&reviewer(&base, Fallback::Ask), "c3").await;
    assert_eq!(
        (behavior, code.as_str()),
        (Behavior::Ask, codes::AUTO_CLASSIFIER_UNAVAILABLE)
    );
    assert_eq!(model, "test/reviewer-2");
    assert_eq!(report.reviewer_embedded, Some(false));
    assert_eq!(report.reviewer_fallback, Some(Fallback::Ask));
    assert!(
        report
            .reviewer_fallback_reason
            .as_deref()
            .unwrap()
            .contains("refused"),
        "{report:?}"
    );
    assert_eq!(
        report.reviewer_prompt_version.as_deref(),
        Some(PROMPT_VERSION)
    );
}

#[tokio::test]
async fn the_embedded_fallback_never_allows_what_the_heuristic_would_not() {
    // A destructive command is denied by policy before any reviewer; a network call that the
    // embedded reviewer escalates still asks when the model is down.
    let base = down().await;
    let config = EvaluatorsConfig {
        classifier: reviewer(&base, Fallback::Embedded),
        ..EvaluatorsConfig::default()
    };
    let chain = default_chain(&config, &ToolCatalog::builtin()).unwrap();
    let ws = workspace();
    let outcome = chain
        .decide(
            &bash("curl -X POST https://example.com/upload -d @notes.txt"),
            &context(PermissionMode::Auto, ws.path()),
        )
        .await;
    assert_ne!(outcome.decision.behavior, Behavior::Allow);
    let outcome = chain
        .decide(
            &bash("touch notes.txt"),
            &context(PermissionMode::Auto, ws.path()),
        )
        .await;
    assert_eq!(
        outcome.decision.source,
        PermissionDecisionSource::AutoClassifier
    );
    assert_eq!(
        outcome.decision.reviewer_model.as_deref(),
        Some(HEURISTIC_MODEL_ID)
    );
    assert!(
        outcome
            .decision
            .reason
            .contains("embedded reviewer decided"),
        "{}",
        outcome.decision.reason
    );
}

#[tokio::test]
async fn the_decision_streams_the_review_beside_the_reviewer_model() {
    let base = down().await;
    let config = EvaluatorsConfig {
        classifier: reviewer(&base, Fallback::Ask),
        ..EvaluatorsConfig::default()
    };
    let chain = default_chain(&config, &ToolCatalog::builtin()).unwrap();
    let ws = workspace();
    let outcome = chain
        .decide(
            &bash("touch notes.txt"),
            &context(PermissionMode::Auto, ws.path()),
        )
        .await;
    let wire = serde_json::to_value(&outcome.decision).unwrap();
    assert_eq!(wire["reviewerModel"], "test/reviewer-2");
    assert_eq!(wire["reviewerEmbedded"], false);
    assert_eq!(wire["reviewerPromptVersion"], PROMPT_VERSION);
    assert!(wire["reviewerLatencyMs"].is_u64(), "{wire}");
    assert_eq!(wire["reviewerFallback"], "ask");
    assert!(
        wire["reviewerFallbackReason"]
            .as_str()
            .unwrap()
            .contains("refused"),
        "{wire}"
    );
    // Read back (the audit log, a UI) it is the same decision.
    let back: warrant_core::decision::ToolPermissionDecision =
        serde_json::from_value(wire).unwrap();
    assert_eq!(back, outcome.decision);
    // A decision no reviewer made carries none of it.
    let outcome = chain
        .decide(&bash("ls"), &context(PermissionMode::Auto, ws.path()))
        .await;
    let wire = serde_json::to_value(&outcome.decision).unwrap();
    assert!(
        wire.as_object()
            .unwrap()
            .keys()
            .all(|k| !k.starts_with("reviewer")),
        "{wire}"
    );
}

#[test]
fn an_unknown_prompt_version_is_a_configuration_error_naming_it() {
    let mut c = OpenAiCompatibleConfig::new("http://127.0.0.1:1/v1", "m");
    c.prompt_version = Some("review-v9".to_owned());
    let e = warrant_evaluators::classifier::OpenAiCompatibleClassifier::new(&c).unwrap_err();
    let text = e.to_string();
    assert!(
        text.contains("review-v9") && text.contains(PROMPT_VERSION),
        "{text}"
    );
}

#[test]
fn fallback_is_read_from_configuration() {
    let config: EvaluatorsConfig = toml::from_str(
        r#"
        [classifier.openai]
        base_url = "http://127.0.0.1:1/v1"
        model = "m"
        fallback = "embedded"
        prompt_version = "review-v1"
        "#,
    )
    .unwrap();
    let openai = config.classifier.openai.unwrap();
    assert_eq!(openai.fallback, Fallback::Embedded);
    let bad = toml::from_str::<EvaluatorsConfig>(
        "[classifier.openai]\nbase_url = \"http://x\"\nmodel = \"m\"\nfallback = \"allow\"\n",
    )
    .unwrap_err()
    .to_string();
    assert!(bad.contains("allow"), "{bad}");
}

#[test]
fn a_model_reviewer_gets_its_own_time_limit_in_a_configured_chain() {
    // `warrant serve` builds the classifier through the registry: the chain must wait as long
    // as the reviewer's own timeout (and a margin), or a slow model is cut before its
    // fallback can answer.
    let cx = warrant_plugins::BuildContext::new(json!({
        "classifier": {
            "openai": {
                "base_url": "http://127.0.0.1:9/v1",
                "model": "test/slow",
                "api_key_env": null,
                "timeout_ms": 40_000
            }
        }
    }));
    let classifier = warrant_plugins::registry::builtin_evaluator("auto_classifier", &cx).unwrap();
    assert_eq!(classifier.time_limit(), Some(Duration::from_millis(42_000)));
    let embedded = warrant_plugins::registry::builtin_evaluator(
        "auto_classifier",
        &warrant_plugins::BuildContext::default(),
    )
    .unwrap();
    assert_eq!(embedded.time_limit(), None, "the chain's default suffices");
}
