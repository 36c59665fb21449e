//! Forging the audit log without the audit key: every edit, recomputed chain, truncation and
//! emptying is reported by verification (truncation and emptying through the checkpoint
//! file or an expected head).

use rusqlite::{Connection, params};
use warrant_core::store::{AuditLog, StoreErrorKind};
use warrant_stores::SqliteConfig;
use warrant_stores::sqlite::{AuditHead, AuditKey, AuditProblem, GENESIS, SqliteStore};

#[path = "common/mod.rs"]
mod sample;

/// A database of five records, a raw connection to tamper with it, and its head.
async fn five_records() -> (tempfile::TempDir, SqliteStore, Connection, AuditHead) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("warrant.db");
    let store = SqliteStore::open(&path).unwrap();
    for i in 1..=5 {
        store
            .append_audit(sample::evaluation("s1", format!("c{i}")))
            .await
            .unwrap();
    }
    let report = store.verify_audit().await.unwrap();
    assert!(report.is_intact() && report.is_keyed(), "{report}");
    (dir, store, Connection::open(&path).unwrap(), report.head())
}

async fn first_bad(store: &SqliteStore) -> (u64, AuditProblem) {
    let report = store.verify_audit().await.unwrap();
    let bad = report.first_bad.expect("the forgery is detected");
    (bad.seq, bad.problem)
}

/// Rewrites every link from `from` on as a forger without the key would: each hash
/// recomputed with `link` from the previous one, and the head moved to the last.
fn rechain(raw: &Connection, from: u64, link: impl Fn(&str, &str) -> String) {
    let mut prev: String = if from == 1 {
        GENESIS.to_owned()
    } else {
        raw.query_row("SELECT hash FROM audit WHERE seq = ?1", [from - 1], |r| {
            r.get(0)
        })
        .unwrap()
    };
    let rows: Vec<(u64, String)> = raw
        .prepare("SELECT seq, record FROM audit WHERE seq >= ?1 ORDER BY seq")
        .unwrap()
        .query_map([from], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    for (seq, record) in rows {
        let hash = link(&prev, &record);
        raw.execute(
            "UPDATE audit SET prev_hash = ?2, hash = ?3 WHERE seq = ?1",
            params![seq, prev, hash],
        )
        .unwrap();
        raw.execute(
            "UPDATE audit_head SET seq = ?1, hash = ?2",
            params![seq, hash],
        )
        .unwrap();
        prev = hash;
    }
}

fn sha256_link(prev: &str, record: &str) -> String {
    use sha2::{Digest, Sha256};
    hex::encode(Sha256::digest(format!("{prev}\n{record}").as_bytes()))
}

/// A forger's guess at a keyed link: HMAC with a key of their own.
fn guessed_hmac_link(prev: &str, record: &str) -> String {
    use hmac::{Hmac, Mac};
    let mut mac = Hmac::<sha2::Sha256>::new_from_slice(&[7u8; 32]).unwrap();
    mac.update(prev.as_bytes());
    mac.update(record.as_bytes());
    hex::encode(mac.finalize().into_bytes())
}

#[tokio::test]
async fn an_edit_with_every_later_hash_and_the_head_recomputed_is_named() {
    let (_dir, store, raw, _) = five_records().await;
    raw.execute(
        "UPDATE audit SET record = replace(record, '\"allow\"', '\"deny\"') WHERE seq = 2",
        [],
    )
    .unwrap();
    rechain(&raw, 2, sha256_link);
    assert_eq!(first_bad(&store).await, (2, AuditProblem::Edited));
}

#[tokio::test]
async fn a_chain_recomputed_with_a_guessed_key_is_named() {
    let (_dir, store, raw, _) = five_records().await;
    raw.execute(
        "UPDATE audit SET record = replace(record, '\"allow\"', '\"deny\"') WHERE seq = 4",
        [],
    )
    .unwrap();
    rechain(&raw, 1, guessed_hmac_link);
    assert_eq!(first_bad(&store).await, (1, AuditProblem::Edited));
}

#[tokio::test]
async fn records_renumbered_over_a_deleted_one_are_named() {
    let (_dir, store, raw, _) = five_records().await;
    raw.execute_batch(
        "DELETE FROM audit WHERE seq = 3; UPDATE audit SET seq = seq - 1 WHERE seq > 3;",
    )
    .unwrap();
    rechain(&raw, 3, sha256_link);
    assert_eq!(first_bad(&store).await, (3, AuditProblem::Edited));
}

#[tokio::test]
async fn an_edited_tool_call_id_column_is_named() {
    let (_dir, store, raw, _) = five_records().await;
    raw.execute("UPDATE audit SET tool_call_id = 'c9' WHERE seq = 3", [])
        .unwrap();
    assert_eq!(first_bad(&store).await, (3, AuditProblem::Edited));
}

#[tokio::test]
async fn an_edited_at_column_is_named() {
    let (_dir, store, raw, _) = five_records().await;
    raw.execute("UPDATE audit SET at = at + 1 WHERE seq = 5", [])
        .unwrap();
    assert_eq!(first_bad(&store).await, (5, AuditProblem::Edited));
}

#[tokio::test]
async fn an_edited_session_column_is_named() {
    let (_dir, store, raw, _) = five_records().await;
    raw.execute(
        "UPDATE audit SET session_id = 'elsewhere' WHERE seq = 1",
        [],
    )
    .unwrap();
    assert_eq!(first_bad(&store).await, (1, AuditProblem::Edited));
}

#[tokio::test]
async fn a_truncated_tail_with_a_moved_head_is_named_by_the_checkpoint_file() {
    let (_dir, store, raw, _) = five_records().await;
    raw.execute("DELETE FROM audit WHERE seq >= 4", []).unwrap();
    raw.execute(
        "UPDATE audit_head SET seq = 3, hash = (SELECT hash FROM audit WHERE seq = 3)",
        [],
    )
    .unwrap();
    let report = store.verify_audit().await.unwrap();
    let bad = report
        .first_bad
        .clone()
        .expect("the truncation is detected");
    assert_eq!(
        (bad.seq, bad.problem),
        (4, AuditProblem::Missing),
        "{report}"
    );
    assert!(bad.detail.contains("checkpoint file"), "{report}");
}

#[tokio::test]
async fn an_emptied_log_is_named_by_the_checkpoint_file() {
    let (_dir, store, raw, _) = five_records().await;
    raw.execute_batch(
        "DELETE FROM audit; DELETE FROM audit_head; DELETE FROM calls WHERE kind = 0;",
    )
    .unwrap();
    let report = store.verify_audit().await.unwrap();
    assert_eq!(report.records, 0);
    let bad = report.first_bad.expect("the emptying is detected");
    assert_eq!((bad.seq, bad.problem), (1, AuditProblem::Missing));
}

#[tokio::test]
async fn truncation_and_emptying_without_the_checkpoint_file_are_named_by_the_expected_head() {
    let (_dir, store, raw, head) = five_records().await;
    std::fs::remove_file(store.checkpoint_path()).unwrap();
    raw.execute("DELETE FROM audit WHERE seq >= 5", []).unwrap();
    raw.execute(
        "UPDATE audit_head SET seq = 4, hash = (SELECT hash FROM audit WHERE seq = 4)",
        [],
    )
    .unwrap();
    // Without an anchor outside the database, the report says it cannot tell.
    let (seq, problem) = first_bad(&store).await;
    assert_eq!((seq, problem), (4, AuditProblem::Unanchored));
    let report = store.verify_audit_expecting(&head).await.unwrap();
    let bad = report.first_bad.expect("the truncation is detected");
    assert_eq!((bad.seq, bad.problem), (5, AuditProblem::Missing));

    raw.execute_batch("DELETE FROM audit; DELETE FROM audit_head;")
        .unwrap();
    let report = store.verify_audit_expecting(&head).await.unwrap();
    let bad = report.first_bad.expect("the emptying is detected");
    assert_eq!((bad.seq, bad.problem), (1, AuditProblem::Missing));
}

#[tokio::test]
async fn an_expected_head_with_another_hash_is_named() {
    let (_dir, store, _raw, head) = five_records().await;
    let other = AuditHead {
        seq: head.seq,
        hash: "ab".repeat(32),
    };
    let report = store.verify_audit_expecting(&other).await.unwrap();
    assert_eq!(
        report.first_bad.map(|b| (b.seq, b.problem)),
        Some((5, AuditProblem::Edited))
    );
    assert!(
        store
            .verify_audit_expecting(&head)
            .await
            .unwrap()
            .is_intact()
    );
}

#[tokio::test]
async fn a_log_that_grew_past_the_expected_head_verifies() {
    let (_dir, store, _raw, head) = five_records().await;
    store
        .append_audit(sample::evaluation("s1", "c6"))
        .await
        .unwrap();
    let report = store.verify_audit_expecting(&head).await.unwrap();
    assert!(report.is_intact(), "{report}");
    assert_eq!(report.head_seq, 6);
    assert_eq!(report.checkpoint_seq, Some(6));
}

#[tokio::test]
async fn the_checkpoint_file_holds_every_committed_head() {
    let (_dir, store, _raw, head) = five_records().await;
    let text = std::fs::read_to_string(store.checkpoint_path()).unwrap();
    let last: AuditHead = text.lines().last().unwrap().parse().unwrap();
    assert_eq!(last, head);
    assert_eq!(text.lines().count(), 5, "one line per commit that appended");
}

#[tokio::test]
async fn a_database_opened_with_another_key_is_refused_without_showing_a_key() {
    let (dir, store, _raw, _) = five_records().await;
    let logged_id = store.audit_key_id();
    drop(store);
    let other = AuditKey::from_bytes(vec![9u8; 32]).unwrap();
    let config = SqliteConfig::in_dir(dir.path()).audit_key(other.clone());
    let err = SqliteStore::with_config(config.clone()).unwrap_err();
    assert_eq!(err.kind, StoreErrorKind::Corrupt);
    assert!(err.message.contains(&logged_id), "{err}");
    assert!(err.message.contains(&other.id()), "{err}");
    let key_file = std::fs::read_to_string(dir.path().join("warrant.db.audit-key")).unwrap();
    let secrets = [key_file.trim().to_owned(), hex::encode([9u8; 32])];
    for shown in [
        err.message.clone(),
        format!("{config:?}"),
        format!("{other:?}"),
    ] {
        for secret in &secrets {
            assert!(!shown.contains(secret.as_str()), "a key leaked: {shown}");
        }
    }
}

#[tokio::test]
async fn a_missing_key_file_is_not_replaced_while_the_log_holds_keyed_records() {
    let (dir, store, _raw, _) = five_records().await;
    drop(store);
    let key_file = dir.path().join("warrant.db.audit-key");
    std::fs::remove_file(&key_file).unwrap();
    let err = SqliteStore::open(dir.path().join("warrant.db")).unwrap_err();
    assert!(err.message.contains("warrant.db.audit-key"), "{err}");
    assert!(err.message.contains("is missing"), "{err}");
    assert!(!key_file.exists(), "no new key was made");
}

#[tokio::test]
async fn a_key_that_is_too_short_is_refused_without_quoting_it() {
    let err = AuditKey::from_hex("00112233", "WARRANT_AUDIT_KEY").unwrap_err();
    assert_eq!(err.kind, StoreErrorKind::Invalid);
    assert!(err.message.contains("WARRANT_AUDIT_KEY"), "{err}");
    assert!(err.message.contains("at least 32 bytes"), "{err}");
    assert!(!err.message.contains("00112233"), "{err}");
    let err = AuditKey::from_hex("not hex at all", "the audit key file k").unwrap_err();
    assert!(!err.message.contains("not hex at all"), "{err}");
}

#[test]
fn a_malformed_expected_head_is_refused_naming_it() {
    for bad in ["5", "x:ab", "5:", "5:zz"] {
        let err = bad.parse::<AuditHead>().unwrap_err();
        assert_eq!(err.kind, StoreErrorKind::Invalid);
        assert!(err.message.contains(&format!("\"{bad}\"")), "{err}");
    }
}
