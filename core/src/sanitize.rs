//! Redacts secrets and bounds lengths before anything is streamed or persisted.

use std::borrow::Cow;
use std::sync::LazyLock;

use regex::{Regex, RegexSet};
use serde_json::Value;

use crate::approval::ToolApprovalRequest;
use crate::decision::ToolPermissionDecision;

/// What a redacted secret is replaced with.
pub const REDACTED: &str = "[REDACTED]";
/// The longest reason kept, in characters.
pub const MAX_REASON_CHARS: usize = 1000;
/// The most risk categories kept.
pub const MAX_CATEGORIES: usize = 8;
/// The longest risk category kept, in characters.
pub const MAX_CATEGORY_CHARS: usize = 64;
/// The longest model id kept, in characters.
pub const MAX_MODEL_CHARS: usize = 128;
/// The longest title, detail or action label kept, in characters.
pub const MAX_LABEL_CHARS: usize = 300;

/// What [`WHOLE`] searches for.
const WHOLE_PATTERN: &str = concat!(
    // PEM private keys, whole block (or to the end when the block is cut).
    r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----(?s:.*?)(?:-----END [A-Z0-9 ]*PRIVATE KEY-----|\z)",
    // Provider API keys.
    r"|(?:\b|_)sk-ant-[A-Za-z0-9_\-]{8,}",
    r"|(?:\b|_)sk-(?:proj-|live-|test-)?[A-Za-z0-9_\-]{16,}",
    r"|\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{20,}",
    r"|\bgithub_pat_[A-Za-z0-9_]{20,}",
    r"|\b(?:AKIA|ASIA)[0-9A-Z]{16}\b",
    r"|\bxox[abposr]-[A-Za-z0-9\-]{8,}",
    r"|\bAIza[0-9A-Za-z_\-]{35}",
    r"|\b(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,}",
    // JWTs.
    r"|\beyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}",
);

/// Secrets replaced whole.
static WHOLE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(WHOLE_PATTERN).expect("secret patterns compile"));

/// What [`LABELLED`] searches for.
const LABELLED_PATTERN: &str = concat!(
    r#"(?i)(?P<label>\b(?:proxy-)?authorization\s*[:=]\s*"?(?:bearer|basic|token)?\s*"#,
    r#"|\bbearer\s+"#,
    r#"|\b[A-Z0-9_]*(?:_KEY|_TOKEN|_SECRET|PASSWORD|PASSWD|_PAT)\s*[=:]\s*["']?"#,
    r#"|"(?:api_?key|access_?token|secret|password|client_secret)"\s*:\s*""#,
    // Password options.
    r#"|--password[= ]\s*)"#,
    r#"(?P<value>[^\s"',;@]{3,})"#,
);

/// Secrets whose label is kept and whose value is replaced (`Authorization: [REDACTED]`).
static LABELLED: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(LABELLED_PATTERN).expect("labelled secret patterns compile"));

/// What [`URL_CREDENTIALS`] searches for.
const URL_CREDENTIALS_PATTERN: &str =
    r#"(?i)(?P<pre>\b[a-z][a-z0-9+.\-]*://[^\s:/@'"]+:)[^\s/@'"]+@"#;

/// Credentials inside a URL (`https://user:pass@host`): the password is replaced.
static URL_CREDENTIALS: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(URL_CREDENTIALS_PATTERN).expect("URL credential pattern compiles"));

/// What a URL's password is replaced with (the text before it kept).
const URL_CREDENTIALS_REPLACEMENT: &str = "${pre}[REDACTED]@";

/// Whether any of the three kinds of secret occurs in a text: one scan, so that a text
/// holding none (nearly every one) is not searched three times nor copied by each
/// replacement. It is the union of the very patterns the replacements search for, so a
/// text it finds nothing in is one they would leave unchanged.
static ANY_SECRET: LazyLock<RegexSet> = LazyLock::new(|| {
    RegexSet::new([WHOLE_PATTERN, URL_CREDENTIALS_PATTERN, LABELLED_PATTERN])
        .expect("secret patterns compile as a set")
});

/// Replaces every secret in `text` with [`REDACTED`].
pub fn redact(text: &str) -> String {
    redacted(text).into_owned()
}

/// `text` with every secret replaced with [`REDACTED`]; borrowed when it holds none.
fn redacted(text: &str) -> Cow<'_, str> {
    if !ANY_SECRET.is_match(text) {
        return Cow::Borrowed(text);
    }
    Cow::Owned(replace_secrets(text))
}

/// `text` with every secret replaced with [`REDACTED`], by the three replacements in turn.
fn replace_secrets(text: &str) -> String {
    let once = WHOLE.replace_all(text, REDACTED);
    let once = URL_CREDENTIALS.replace_all(&once, URL_CREDENTIALS_REPLACEMENT);
    LABELLED
        .replace_all(&once, |c: &regex::Captures<'_>| {
            if &c["value"] == REDACTED {
                c[0].to_owned()
            } else {
                format!("{}{REDACTED}", &c["label"])
            }
        })
        .into_owned()
}

/// Cuts `text` to at most `max` characters, marking the cut with `…`.
pub fn bound(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_owned();
    }
    let mut cut: String = text.chars().take(max.saturating_sub(1)).collect();
    cut.push('…');
    cut
}

/// Redacts, drops control characters (newlines and tabs become spaces) and bounds.
pub fn clean(text: &str, max: usize) -> String {
    let redacted = redacted(text);
    // Most texts are clean already: no secret, no control character, nothing to trim, within
    // the bound. They are copied as they are.
    if !redacted.chars().any(char::is_control)
        && redacted.trim().len() == redacted.len()
        && redacted.chars().nth(max).is_none()
    {
        return redacted.into_owned();
    }
    flatten_and_bound(&redacted, max)
}

/// Drops control characters (newlines and tabs become spaces), trims and bounds.
fn flatten_and_bound(text: &str, max: usize) -> String {
    let flat: String = text
        .chars()
        .map(|c| {
            if c == '\n' || c == '\t' || c == '\r' {
                ' '
            } else {
                c
            }
        })
        .filter(|c| !c.is_control())
        .collect();
    bound(flat.trim(), max)
}

/// Whether a value [redacted](redact_value) holds a redaction (a string or a key containing
/// [`REDACTED`]): what was stored is then not what was sent. A value that held the marker
/// literally counts as redacted too, which only ever errs toward caution.
pub fn was_redacted(value: &Value) -> bool {
    match value {
        Value::String(s) => s.contains(REDACTED),
        Value::Array(items) => items.iter().any(was_redacted),
        Value::Object(map) => map
            .iter()
            .any(|(k, v)| k.contains(REDACTED) || was_redacted(v)),
        _ => false,
    }
}

/// Redacts every string inside a JSON value (keys included), keeping its shape.
pub fn redact_value(value: &Value) -> Value {
    match value {
        Value::String(s) => Value::String(redact(s)),
        Value::Array(items) => Value::Array(items.iter().map(redact_value).collect()),
        Value::Object(map) => {
            let mut out = serde_json::Map::new();
            for (k, v) in map {
                let v = if is_secret_key(k) && v.is_string() {
                    Value::String(REDACTED.to_owned())
                } else {
                    redact_value(v)
                };
                out.insert(redact(k), v);
            }
            Value::Object(out)
        }
        other => other.clone(),
    }
}

fn is_secret_key(key: &str) -> bool {
    let k = key.to_ascii_lowercase();
    [
        "password",
        "passwd",
        "secret",
        "token",
        "api_key",
        "apikey",
        "authorization",
        "private_key",
    ]
    .iter()
    .any(|s| k.contains(s))
}

/// Sanitizes a decision's display metadata in place.
pub fn decision(d: &mut ToolPermissionDecision) {
    d.reason = clean(&d.reason, MAX_REASON_CHARS);
    d.reason_code = clean(&d.reason_code, MAX_CATEGORY_CHARS);
    classifier_metadata(&mut d.risk_categories, &mut d.reviewer_model);
    review(&mut d.review);
    if let Some(p) = d.provenance.as_mut() {
        provenance(p);
    }
    if let Some(e) = d.evaluator.as_mut() {
        e.name = clean(&e.name, MAX_MODEL_CHARS);
        if let Some(v) = e.version.as_mut() {
            *v = clean(v, MAX_CATEGORY_CHARS);
        }
    }
}

/// Redacts and bounds a provenance's texts (a rule, where it was written, a grant's label).
fn provenance(p: &mut crate::decision::Provenance) {
    use crate::decision::Provenance;
    match p {
        Provenance::UserRule {
            rule,
            layer,
            origin,
        } => {
            *rule = clean(rule, MAX_REASON_CHARS);
            *layer = clean(layer, MAX_CATEGORY_CHARS);
            *origin = clean(origin, MAX_LABEL_CHARS);
        }
        Provenance::Grant {
            grant_id,
            tool_call_id,
            action_id,
            description,
            ..
        } => {
            *grant_id = clean(grant_id, MAX_CATEGORY_CHARS);
            *tool_call_id = clean(tool_call_id.as_str(), MAX_LABEL_CHARS).into();
            *action_id = clean(action_id, MAX_CATEGORY_CHARS);
            *description = clean(description, MAX_LABEL_CHARS);
        }
        Provenance::AutoApproved { .. } => {}
        Provenance::CheckpointsOff { agent } => *agent = clean(agent, MAX_LABEL_CHARS),
    }
}

fn classifier_metadata(categories: &mut Option<Vec<String>>, model: &mut Option<String>) {
    if let Some(categories) = categories.as_mut() {
        categories.truncate(MAX_CATEGORIES);
        for c in categories.iter_mut() {
            *c = clean(c, MAX_CATEGORY_CHARS);
        }
    }
    if let Some(model) = model.as_mut() {
        *model = clean(model, MAX_MODEL_CHARS);
    }
}

/// The longest reason a reviewer fallback keeps, in characters.
pub const MAX_FALLBACK_REASON_CHARS: usize = 200;

/// The longest review time kept, in milliseconds (a day; also within what every JSON reader
/// holds exactly).
pub const MAX_REVIEW_LATENCY_MS: u64 = 86_400_000;

fn review(r: &mut crate::decision::ReviewDetails) {
    if let Some(ms) = r.reviewer_latency_ms.as_mut() {
        *ms = (*ms).min(MAX_REVIEW_LATENCY_MS);
    }
    if let Some(v) = r.reviewer_prompt_version.as_mut() {
        *v = clean(v, MAX_MODEL_CHARS);
    }
    if let Some(why) = r.reviewer_fallback_reason.as_mut() {
        *why = clean(why, MAX_FALLBACK_REASON_CHARS);
    }
}

/// Redacts and bounds the error texts of a chain trace (plugin and backend messages) in place.
pub fn trace(trace: &mut crate::chain::ChainTrace) {
    for entry in &mut trace.entries {
        if let crate::chain::TraceOutcome::Failed { error, .. } = &mut entry.outcome {
            *error = clean(error, MAX_REASON_CHARS);
        }
    }
}

/// Sanitizes an approval request's display text in place.
pub fn approval_request(r: &mut ToolApprovalRequest) {
    r.title = clean(&r.title, MAX_LABEL_CHARS);
    r.detail = clean(&r.detail, MAX_LABEL_CHARS);
    r.reason = clean(&r.reason, MAX_REASON_CHARS);
    for a in r.actions.iter_mut() {
        a.label = clean(&a.label, MAX_LABEL_CHARS);
    }
    let rec = &mut r.recommendation;
    rec.reason_code = clean(&rec.reason_code, MAX_CATEGORY_CHARS);
    classifier_metadata(&mut rec.risk_categories, &mut rec.reviewer_model);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Texts with and without secrets, of each kind the patterns know and near misses.
    const TEXTS: &[&str] = &[
        "",
        "git status",
        "prog7 build release",
        "  padded  ",
        "tab\there",
        "line\nbreak\r\n",
        "bell\u{7}",
        "Allowed by rule Bash(prog7 build:*) in the workspace's settings",
        "export OPENAI_API_KEY=sk-proj-abcdefghijklmnopqrstuv",
        "curl -H 'Authorization: Bearer abc.def.ghi' https://x",
        "git clone https://user:s3cr3tPassw0rd@github.com/x/y",
        "see https://example.com:8080/path",
        "-----BEGIN RSA PRIVATE KEY-----\nMIIE\n-----END RSA PRIVATE KEY-----",
        "AKIAABCDEFGHIJKLMNOP and ghp_abcdefghijklmnopqrstuvwxyz",
        "{\"password\": \"hunter2hunter2\"}",
        "mysqldump --password=Hunter2secret db",
        "DB_PASSWORD=[REDACTED] stays",
        "été ünïcode sk-ant-abcdefghijkl",
        "eyJhbGciOiJI.eyJzdWIiOiIx.SflKxwRJSMeKKF2QT4",
    ];

    #[test]
    fn the_one_scan_finds_a_secret_in_every_text_a_replacement_changes() {
        for text in TEXTS {
            let replaced = replace_secrets(text);
            assert_eq!(redacted(text), replaced.as_str(), "{text:?}");
            if !ANY_SECRET.is_match(text) {
                assert_eq!(replaced, *text, "{text:?}");
            }
        }
    }

    #[test]
    fn a_clean_text_copied_as_it_is_is_what_cleaning_makes_of_it() {
        for text in TEXTS {
            for max in [0, 1, 5, 10, 1000] {
                assert_eq!(
                    clean(text, max),
                    flatten_and_bound(&replace_secrets(text), max),
                    "{text:?} at {max}"
                );
            }
        }
    }

    #[test]
    fn a_url_password_is_replaced_with_the_marker() {
        assert_eq!(URL_CREDENTIALS_REPLACEMENT, format!("${{pre}}{REDACTED}@"));
    }
}
