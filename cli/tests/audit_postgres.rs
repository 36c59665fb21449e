//! `warrant audit [--verify [--expect-head SEQ:HASH]]` on the PostgreSQL store that `[store]`
//! selects: the log `warrant serve` wrote is listed and verifies (exit 0, the head named); a
//! row edited, made unreadable or deleted through a direct SQL connection is named by its
//! seq (exit 1); a wrong or missing audit key is named (exit 2, one line, nothing printed).
//!
//! Needs a server: `scripts/with-postgres cargo test -p warrant --test audit_postgres`.

use std::path::PathBuf;

use tempfile::TempDir;

mod postgres_support;

use postgres_support::{Database, Serve, audit, evaluated_ids, shown, verification};

/// A database whose log holds the evaluations of `calls` (session `audit`), written by
/// `warrant serve` with its key and checkpoint in the data directory.
struct Written {
    database: Database,
    _dir: TempDir,
    config: PathBuf,
    data_dir: PathBuf,
}

impl Written {
    fn new(calls: &[&str]) -> Self {
        let database = Database::create();
        let dir = tempfile::tempdir().unwrap();
        let config = postgres_support::write_config(dir.path(), &database, &[]);
        let data_dir = dir.path().join("data");
        let serve = Serve::start(&config, &data_dir);
        for id in calls {
            assert_eq!(
                postgres_support::post_call(&serve.addr, "audit", id).as_deref(),
                Some(*id),
                "warrant serve decides {id}"
            );
        }
        serve.kill();
        Self {
            database,
            _dir: dir,
            config,
            data_dir,
        }
    }

    fn audit(&self, args: &[&str]) -> std::process::Output {
        audit(&self.config, &self.data_dir, args, None)
    }

    /// The seq of a tool call's evaluation record.
    fn seq_of(&self, id: &str) -> u64 {
        let out = self.audit(&[]);
        assert_eq!(out.status.code(), Some(0), "{}", shown(&out));
        postgres_support::lines(&out)
            .iter()
            .find(|v| v["record"]["toolCallId"] == id && v["record"]["kind"] == "evaluation")
            .and_then(|v| v["seq"].as_u64())
            .unwrap_or_else(|| panic!("{id} is in the log: {}", shown(&out)))
    }
}

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn an_intact_log_is_listed_and_verifies_naming_its_head() {
    let log = Written::new(&["c1", "c2", "c3"]);
    let listed = log.audit(&[]);
    assert_eq!(listed.status.code(), Some(0), "{}", shown(&listed));
    assert_eq!(evaluated_ids(&listed), ["c1", "c2", "c3"]);

    let out = log.audit(&["--verify"]);
    assert_eq!(out.status.code(), Some(0), "{}", shown(&out));
    assert_eq!(evaluated_ids(&out), ["c1", "c2", "c3"]);
    let report = verification(&out);
    let records = report["records"].as_u64().unwrap();
    assert!(records >= 3, "{report}");
    assert_eq!(report["headSeq"], records);
    assert_eq!(
        report["checkpointSeq"], records,
        "serve checkpointed its head"
    );
    assert!(report["firstBad"].is_null(), "{report}");
    let head = format!("{records}:{}", report["headHash"].as_str().unwrap());
    let said = stderr(&out);
    assert!(said.contains("audit log intact"), "{said}");
    assert!(said.contains(&format!("head {head}")), "{said}");

    // The head it printed is accepted as the head to expect.
    let again = log.audit(&["--verify", "--expect-head", &head]);
    assert_eq!(again.status.code(), Some(0), "{}", shown(&again));
    // A session of its own: none of these records.
    let other = log.audit(&["--session", "another"]);
    assert_eq!(other.status.code(), Some(0), "{}", shown(&other));
    assert!(other.stdout.is_empty(), "{}", shown(&other));
}

#[test]
fn an_edited_row_fails_naming_the_first_bad_seq() {
    let log = Written::new(&["c1", "c2", "c3"]);
    let seq = log.seq_of("c2");
    log.database.execute(&format!(
        "UPDATE audit SET record = replace(record, 'c2', 'cX') WHERE seq = {seq}"
    ));
    let out = log.audit(&["--verify"]);
    assert_eq!(out.status.code(), Some(1), "{}", shown(&out));
    let report = verification(&out);
    assert_eq!(report["firstBad"]["seq"], seq, "{report}");
    assert_eq!(report["firstBad"]["problem"], "edited", "{report}");
    let said = stderr(&out);
    assert!(said.contains("audit log broken"), "{said}");
    assert!(said.contains(&format!("audit record {seq}")), "{said}");
}

#[test]
fn an_unreadable_row_is_named_by_verification_before_the_listing_fails() {
    let log = Written::new(&["c1", "c2"]);
    let seq = log.seq_of("c1");
    log.database.execute(&format!(
        "UPDATE audit SET record = 'not json' WHERE seq = {seq}"
    ));
    let out = log.audit(&["--verify"]);
    assert_eq!(out.status.code(), Some(1), "{}", shown(&out));
    let report = verification(&out);
    assert_eq!(report["firstBad"]["seq"], seq, "{report}");
    assert_eq!(report["firstBad"]["problem"], "edited", "{report}");
    // Without --verify the listing fails with one line naming the record.
    let listed = log.audit(&[]);
    assert_eq!(listed.status.code(), Some(2), "{}", shown(&listed));
    let said = stderr(&listed);
    assert!(
        said.contains(&format!("audit record {seq} cannot be read")),
        "{said}"
    );
}

#[test]
fn a_deleted_row_and_a_rolled_back_tail_are_named() {
    let log = Written::new(&["c1", "c2", "c3"]);
    let intact = verification(&log.audit(&["--verify"]));
    let head = format!(
        "{}:{}",
        intact["headSeq"],
        intact["headHash"].as_str().unwrap()
    );
    let last = intact["headSeq"].as_u64().unwrap();
    // The tail cut off, the head row moved back to match, the checkpoint file gone: only
    // the head noted earlier tells.
    log.database.execute(&format!(
        "DELETE FROM audit WHERE seq = {last}; \
         UPDATE audit_head SET seq = {prev}, hash = (SELECT hash FROM audit WHERE seq = {prev})",
        prev = last - 1
    ));
    std::fs::remove_file(log.data_dir.join("postgres.audit-head")).unwrap();
    let unanchored = log.audit(&["--verify"]);
    assert_eq!(unanchored.status.code(), Some(1), "{}", shown(&unanchored));
    assert_eq!(
        verification(&unanchored)["firstBad"]["problem"],
        "unanchored"
    );
    let out = log.audit(&["--verify", "--expect-head", &head]);
    assert_eq!(out.status.code(), Some(1), "{}", shown(&out));
    let report = verification(&out);
    assert_eq!(report["firstBad"]["seq"], last, "{report}");
    assert_eq!(report["firstBad"]["problem"], "missing", "{report}");

    // A row deleted from the middle.
    let seq = log.seq_of("c1");
    log.database
        .execute(&format!("DELETE FROM audit WHERE seq = {seq}"));
    let out = log.audit(&["--verify"]);
    assert_eq!(out.status.code(), Some(1), "{}", shown(&out));
    let report = verification(&out);
    assert_eq!(report["firstBad"]["seq"], seq, "{report}");
    assert_eq!(report["firstBad"]["problem"], "missing", "{report}");
    let said = stderr(&out);
    assert!(
        said.contains(&format!("audit record {seq} is missing")),
        "{said}"
    );
}

/// One line on stderr, nothing on stdout, exit 2.
fn refused(out: &std::process::Output) -> String {
    assert_eq!(out.status.code(), Some(2), "{}", shown(out));
    assert!(out.stdout.is_empty(), "{}", shown(out));
    let said = stderr(out);
    assert_eq!(said.trim_end().lines().count(), 1, "{said}");
    said
}

#[test]
fn a_wrong_key_is_named_by_its_id_and_never_shown() {
    let log = Written::new(&["c1"]);
    let wrong = "7".repeat(64);
    let out = audit(&log.config, &log.data_dir, &["--verify"], Some(&wrong));
    let said = refused(&out);
    assert!(said.contains("the audit key"), "{said}");
    assert!(said.contains("was written with the key of id"), "{said}");
    assert!(!said.contains(&wrong), "the key itself never shows: {said}");
}

#[test]
fn a_missing_key_file_is_named_and_not_replaced() {
    let log = Written::new(&["c1"]);
    let key_file = log.data_dir.join("postgres.audit-key");
    std::fs::remove_file(&key_file).unwrap();
    let said = refused(&log.audit(&["--verify"]));
    assert!(
        said.contains(&format!(
            "the audit key file {} is missing",
            key_file.display()
        )),
        "{said}"
    );
    assert!(
        !key_file.exists(),
        "no new key was made for an existing log"
    );
    // Listing needs the key too: it is what the database was opened with.
    refused(&log.audit(&[]));
}

#[test]
fn verifying_without_the_key_makes_none_and_claims_no_database() {
    let database = Database::create();
    let dir = tempfile::tempdir().unwrap();
    let config = postgres_support::write_config(dir.path(), &database, &[]);
    let elsewhere = dir.path().join("elsewhere");
    let key_file = elsewhere.join("postgres.audit-key");
    let said = refused(&audit(&config, &elsewhere, &["--verify"], None));
    assert!(
        said.contains(&format!(
            "the audit key file {} is missing",
            key_file.display()
        )),
        "{said}"
    );
    assert!(!key_file.exists(), "no key was made");
    // The database records no key of the command's making: an instance starts with its own.
    let serve = Serve::start(&config, &dir.path().join("data"));
    assert!(postgres_support::post_call(&serve.addr, "audit", "c1").is_some());
}

#[test]
fn a_store_that_cannot_be_reached_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("warrant.toml");
    std::fs::write(
        &config,
        "[store]\nkind = \"postgres\"\nurl = \"postgresql://warrant:hunter2@127.0.0.1:1/warrant\"\n\
         connect_timeout_ms = 2000\n",
    )
    .unwrap();
    let key = "5a".repeat(32);
    let said = refused(&audit(
        &config,
        &dir.path().join("data"),
        &["--verify"],
        Some(&key),
    ));
    assert!(
        said.contains("reading the audit log of the postgres store"),
        "{said}"
    );
    assert!(said.contains("connecting"), "{said}");
    assert!(
        !said.contains("hunter2"),
        "the password never shows: {said}"
    );
}
