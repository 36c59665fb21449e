//! `warrant audit --verify [--expect-head SEQ:HASH]`: exit 0 for an intact log, 1 for a
//! broken one (a rolled-back copy included, when the head kept elsewhere is expected), 2
//! with one line on stderr for bad arguments; the audit key never shows.

use std::path::Path;
use std::process::{Command, Output};

use serde_json::Value;
use warrant_core::audit::{AuditEvent, AuditRecord};
use warrant_core::call::PermissionMode;
use warrant_core::chain::ChainTrace;
use warrant_core::decision::{Behavior, PermissionDecisionSource, Risk, ToolPermissionDecision};
use warrant_core::store::AuditLog;
use warrant_stores::SqliteConfig;
use warrant_stores::sqlite::{AUDIT_KEY_ENV, AuditKey};

fn evaluation(tool_call_id: &str) -> AuditRecord {
    AuditRecord {
        at: 1_700_000_000_000,
        session_id: "s1".to_owned().into(),
        tool_call_id: tool_call_id.to_owned().into(),
        tool_name: "view".to_owned(),
        event: AuditEvent::Evaluation {
            mode: PermissionMode::Default,
            input_digest: "ab".repeat(32),
            decision: ToolPermissionDecision {
                tool_call_id: tool_call_id.to_owned().into(),
                behavior: Behavior::Allow,
                source: PermissionDecisionSource::Policy,
                reason: "Reading a file changes nothing.".to_owned(),
                reason_code: "read_only_tool".to_owned(),
                risk: Risk::Safe,
                confidence: None,
                risk_categories: None,
                reviewer_model: None,
                review: Default::default(),
                provenance: None,
                evaluator: None,
            },
            trace: ChainTrace::default(),
        },
    }
}

/// Appends evaluations `from..=to` to the database in `data_dir`.
fn append(config: SqliteConfig, from: u32, to: u32) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let store = config.open().unwrap();
        for i in from..=to {
            store
                .append_audit(evaluation(&format!("c{i}")))
                .await
                .unwrap();
        }
    });
}

fn audit(data_dir: &Path, args: &[&str], key: Option<&str>) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_warrant"));
    command
        .arg("audit")
        .arg("--data-dir")
        .arg(data_dir)
        .args(args)
        .current_dir(data_dir)
        .env_remove(AUDIT_KEY_ENV);
    if let Some(key) = key {
        command.env(AUDIT_KEY_ENV, key);
    }
    command.output().unwrap()
}

/// The verification object of `--verify`'s last stdout line.
fn verification(out: &Output) -> Value {
    let stdout = String::from_utf8_lossy(&out.stdout);
    let last = stdout.lines().last().expect("a verification line");
    serde_json::from_str::<Value>(last).unwrap()["verification"].clone()
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), to.join(entry.file_name())).unwrap();
    }
}

#[test]
fn an_intact_log_verifies_and_prints_its_head() {
    let dir = tempfile::tempdir().unwrap();
    append(SqliteConfig::in_dir(dir.path()), 1, 3);
    let out = audit(dir.path(), &["--verify"], None);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report = verification(&out);
    assert_eq!(report["records"], 3);
    assert_eq!(report["headSeq"], 3);
    assert_eq!(report["checkpointSeq"], 3);
    let head = format!("3:{}", report["headHash"].as_str().unwrap());
    let again = audit(dir.path(), &["--verify", "--expect-head", &head], None);
    assert_eq!(again.status.code(), Some(0));
}

#[test]
fn a_rolled_back_copy_is_named_by_the_expected_head() {
    let dir = tempfile::tempdir().unwrap();
    let live = dir.path().join("live");
    append(SqliteConfig::in_dir(&live), 1, 3);
    // The copy an attacker keeps, to put back later with its own checkpoint file.
    let rolled_back = dir.path().join("rolled-back");
    copy_dir(&live, &rolled_back);
    append(SqliteConfig::in_dir(&live), 4, 5);
    let head = verification(&audit(&live, &["--verify"], None));
    let head = format!("{}:{}", head["headSeq"], head["headHash"].as_str().unwrap());

    let unanchored = audit(&rolled_back, &["--verify"], None);
    assert_eq!(
        unanchored.status.code(),
        Some(0),
        "the copy is consistent in itself"
    );
    let out = audit(&rolled_back, &["--verify", "--expect-head", &head], None);
    assert_eq!(out.status.code(), Some(1));
    let report = verification(&out);
    assert_eq!(report["firstBad"]["seq"], 4);
    assert_eq!(report["firstBad"]["problem"], "missing");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("audit record 4 is missing"), "{stderr}");
}

#[test]
fn a_malformed_expected_head_is_one_line_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    append(SqliteConfig::in_dir(dir.path()), 1, 1);
    let out = audit(dir.path(), &["--verify", "--expect-head", "seven"], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
    assert!(stderr.contains("\"seven\""), "{stderr}");
}

#[test]
fn the_key_comes_from_the_environment_and_never_shows() {
    let dir = tempfile::tempdir().unwrap();
    let hex_key = "5a".repeat(32);
    let key = AuditKey::from_hex(&hex_key, "the test key").unwrap();
    append(SqliteConfig::in_dir(dir.path()).audit_key(key), 1, 2);
    assert!(!dir.path().join("warrant.db.audit-key").exists());

    let out = audit(dir.path(), &["--verify"], Some(&hex_key));
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );

    let without = audit(dir.path(), &["--verify"], None);
    assert_eq!(without.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&without.stderr);
    assert!(stderr.contains("is missing"), "{stderr}");
    assert!(stderr.contains(AUDIT_KEY_ENV), "{stderr}");

    let wrong = audit(dir.path(), &["--verify"], Some(&"11".repeat(32)));
    assert_eq!(wrong.status.code(), Some(2));
    for out in [&out, &without, &wrong] {
        let all = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(!all.contains(&hex_key), "the key leaked: {all}");
        assert!(!all.contains(&"11".repeat(32)), "the key leaked: {all}");
    }
}

#[test]
fn the_store_is_read_as_store_configures_it() {
    // The database elsewhere than the data directory, with its key and checkpoint beside it.
    let dir = tempfile::tempdir().unwrap();
    let elsewhere = dir.path().join("elsewhere");
    std::fs::create_dir(&elsewhere).unwrap();
    append(SqliteConfig::in_dir(&elsewhere), 1, 2);
    // A stale log in the data directory must not be the one verified.
    append(SqliteConfig::in_dir(dir.path()), 1, 5);
    std::fs::write(
        dir.path().join("warrant.toml"),
        format!(
            "[store]\nkind = \"sqlite\"\npath = {:?}\n",
            elsewhere.join("warrant.db").display().to_string()
        ),
    )
    .unwrap();
    let out = audit(dir.path(), &["--verify"], None);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(verification(&out)["records"], 2);

    // Another kind of store is named, not silently replaced by a file.
    std::fs::write(
        dir.path().join("warrant.toml"),
        "[store]\nkind = \"memory\"\n",
    )
    .unwrap();
    let out = audit(dir.path(), &["--verify"], None);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("kind is \"memory\""), "{stderr}");
}
