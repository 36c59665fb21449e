//! Secrets in real formats never survive sanitizing, and lengths are bounded.

use warrant_core::sanitize::{self, REDACTED};

const SECRETS: &[(&str, &str)] = &[
    ("openai", "sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcd"),
    (
        "openai legacy",
        "sk-4f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a",
    ),
    (
        "anthropic",
        "sk-ant-api03-Xy9_Zw8-Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0FeDcBa-abcdefghij",
    ),
    ("github classic", "ghp_1234567890abcdefghijABCDEFGHIJklmnop"),
    (
        "github fine-grained",
        "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyzABCDEF",
    ),
    ("aws access key", "AKIAIOSFODNN7EXAMPLE"),
    (
        "slack",
        "xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx",
    ),
    (
        "jwt",
        "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4ifQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c",
    ),
    ("google", "AIzaSyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY"),
    ("stripe", "sk_live_4eC39HqLyjWDarjtT1zdp7dc"),
];

#[test]
fn provider_keys_are_redacted() {
    for (what, secret) in SECRETS {
        let text = format!("The agent ran curl with {secret} inside.");
        let out = sanitize::redact(&text);
        assert!(!out.contains(secret), "{what} survived: {out}");
        assert!(out.contains(REDACTED), "{what}: {out}");
        assert!(
            out.starts_with("The agent ran curl with "),
            "{what}: surrounding text kept: {out}"
        );
    }
}

#[test]
fn authorization_headers_and_bearer_values_are_redacted() {
    for text in [
        "curl -H 'Authorization: Bearer abc.def-123456' https://api.example.com",
        "Authorization: Basic dXNlcjpwYXNzd29yZA==",
        "proxy-authorization=token s3cr3tvalue",
        "sent bearer zyx987654321 upstream",
    ] {
        let out = sanitize::redact(text);
        for secret in [
            "abc.def-123456",
            "dXNlcjpwYXNzd29yZA==",
            "s3cr3tvalue",
            "zyx987654321",
        ] {
            assert!(!out.contains(secret), "{text} -> {out}");
        }
        assert!(out.contains(REDACTED), "{out}");
    }
}

#[test]
fn secret_assignments_are_redacted_keeping_the_name() {
    let text = "export OPENAI_API_KEY=abcd1234efgh GITHUB_TOKEN=tok_zzz999 DB_PASSWORD=hunter22 AWS_SECRET=xyzxyz99 PASSWORD='p4ss'";
    let out = sanitize::redact(text);
    for secret in ["abcd1234efgh", "tok_zzz999", "hunter22", "xyzxyz99", "p4ss"] {
        assert!(!out.contains(secret), "{secret} survived: {out}");
    }
    assert!(out.contains("OPENAI_API_KEY="), "{out}");
    assert!(out.contains("GITHUB_TOKEN="), "{out}");
}

#[test]
fn pem_private_keys_are_redacted_whole() {
    let pem = "key:\n-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA7bq98\nZ2x1ZQ==\n-----END RSA PRIVATE KEY-----\nafter";
    let out = sanitize::redact(pem);
    assert!(!out.contains("MIIEowIBAAKCAQEA7bq98"), "{out}");
    assert!(out.contains("after"));
    let cut = "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA";
    assert!(!sanitize::redact(cut).contains("b3BlbnNzaC1rZXktdjEAAAAA"));
}

#[test]
fn json_inputs_are_redacted_by_key_and_by_value() {
    let input = serde_json::json!({
        "command": "curl -H 'Authorization: Bearer tok123456' https://x",
        "headers": {"x-api-key": "plainvalue"},
        "password": "hunter2",
        "nested": ["ghp_1234567890abcdefghijABCDEFGHIJklmnop"]
    });
    let out = sanitize::redact_value(&input).to_string();
    for secret in ["tok123456", "hunter2", "ghp_1234567890abcdefghij"] {
        assert!(!out.contains(secret), "{secret}: {out}");
    }
    assert!(out.contains("https://x"));
}

#[test]
fn ordinary_text_is_left_alone() {
    for text in [
        "git status",
        "ls -la src/",
        "npm run test:unit",
        "The skeleton key of the task is risk.",
    ] {
        assert_eq!(sanitize::redact(text), text);
    }
}

#[test]
fn reasons_are_bounded_and_flattened() {
    let long = "a".repeat(5000) + "\nsecond line";
    let out = sanitize::clean(&long, sanitize::MAX_REASON_CHARS);
    assert_eq!(out.chars().count(), sanitize::MAX_REASON_CHARS);
    assert!(out.ends_with('…'));
    assert!(!sanitize::clean("one\ntwo\u{7}three", 100).contains(['\n', '\u{7}']));
}

#[test]
fn decision_metadata_is_sanitized_and_bounded() {
    use warrant_core::prelude::*;
    let mut d = ToolPermissionDecision {
        tool_call_id: "c".into(),
        behavior: Behavior::Allow,
        source: PermissionDecisionSource::AutoClassifier,
        reason: format!("uses key {} {}", SECRETS[0].1, "x".repeat(3000)),
        reason_code: "auto_classifier_allow".into(),
        risk: Risk::Low,
        confidence: Some(Confidence::High),
        risk_categories: Some(
            (0..50)
                .map(|i| format!("cat{i}{}", "y".repeat(200)))
                .collect(),
        ),
        reviewer_model: Some("m".repeat(1000)),
        provenance: Some(Provenance::UserRule {
            rule: format!("Bash(curl -H 'Authorization: Bearer {}')", SECRETS[0].1),
            layer: "user".into(),
            origin: format!("/rules.toml:{}", "9".repeat(5000)),
        }),
        evaluator: Some(DecidingEvaluator {
            name: "n".repeat(1000),
            version: None,
        }),
        review: warrant_core::decision::ReviewDetails {
            reviewer_embedded: Some(false),
            reviewer_prompt_version: Some("v".repeat(1000)),
            reviewer_latency_ms: Some(u64::MAX),
            reviewer_fallback: Some(warrant_core::decision::ReviewerFallback::Ask),
            reviewer_fallback_reason: Some(format!(
                "401 from the endpoint with key {} {}",
                SECRETS[0].1,
                "z".repeat(3000)
            )),
        },
    };
    sanitize::decision(&mut d);
    assert_eq!(
        d.review.reviewer_latency_ms,
        Some(sanitize::MAX_REVIEW_LATENCY_MS),
        "bounded so every JSON reader holds it exactly"
    );
    let why = d.review.reviewer_fallback_reason.as_deref().unwrap();
    assert!(!why.contains(SECRETS[0].1), "{why}");
    assert!(why.chars().count() <= sanitize::MAX_FALLBACK_REASON_CHARS);
    assert!(
        d.review
            .reviewer_prompt_version
            .as_deref()
            .unwrap()
            .chars()
            .count()
            <= sanitize::MAX_MODEL_CHARS
    );
    let Some(Provenance::UserRule { rule, origin, .. }) = &d.provenance else {
        panic!("provenance kept: {:?}", d.provenance);
    };
    assert!(!rule.contains(SECRETS[0].1), "{rule}");
    assert!(origin.chars().count() <= sanitize::MAX_LABEL_CHARS);
    assert!(d.evaluator.as_ref().unwrap().name.chars().count() <= sanitize::MAX_MODEL_CHARS);
    assert!(!d.reason.contains(SECRETS[0].1));
    assert!(d.reason.chars().count() <= sanitize::MAX_REASON_CHARS);
    let cats = d.risk_categories.unwrap();
    assert_eq!(cats.len(), sanitize::MAX_CATEGORIES);
    assert!(
        cats.iter()
            .all(|c| c.chars().count() <= sanitize::MAX_CATEGORY_CHARS)
    );
    assert!(d.reviewer_model.unwrap().chars().count() <= sanitize::MAX_MODEL_CHARS);
}

#[test]
fn url_credentials_and_password_options_are_redacted() {
    for (text, secret) in [
        (
            "git clone https://user:s3cr3tPassw0rd@github.com/x/y",
            "s3cr3tPassw0rd",
        ),
        (
            "export DATABASE_URL=postgres://u:pw1234567@h/db",
            "pw1234567",
        ),
        ("mysqldump --password=Hunter2secret db", "Hunter2secret"),
        ("psql --password Hunter3secret", "Hunter3secret"),
    ] {
        let out = sanitize::redact(text);
        assert!(!out.contains(secret), "{text} -> {out}");
    }
    assert_eq!(
        sanitize::redact("see https://example.com:8080/path"),
        "see https://example.com:8080/path"
    );
}
