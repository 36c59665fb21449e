//! SIGKILL while decisions stream through the store, many times over: every record a caller
//! saw acknowledged is in the audit log after restart, the chain verifies, and the database
//! opens cleanly.
//!
//! The test binary plays both parts: run plainly it is the parent; with `WARRANT_CRASH_DB`
//! set it is the child, which appends audit records and tool parts from concurrent writers
//! and prints `seq toolCallId` for each record once `append_audit` has returned. Half the
//! writers record decisions as one unit instead (`write_decision`: the audit record, the
//! tool part and the decision event) and print `seq toolCallId` once it has returned: each
//! such record's part and event must be there too.

use std::collections::HashMap;
use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::sync::Arc;

use rusqlite::Connection;
use warrant_core::event::WarrantEvent;
use warrant_core::store::{AuditLog, AuditQuery, Conversations, EventLog, Store};
use warrant_stores::SqliteConfig;
use warrant_stores::sqlite::SqliteStore;
use warrant_testkit::store::decisions::record;

#[path = "common/mod.rs"]
mod sample;

const CHILD_DB: &str = "WARRANT_CRASH_DB";
const CHILD_ROUND: &str = "WARRANT_CRASH_ROUND";
const ROUNDS: usize = 20;
const WRITERS: usize = 8;
/// How many acknowledgements the parent reads before it kills, round by round (0: the kill
/// lands while the database opens).
const KILL_AFTER: [usize; 10] = [0, 1, 2, 5, 13, 34, 89, 3, 144, 8];
/// The session of the decision units, and the prefix of their tool call ids.
const UNIT_SESSION: &str = "crash-units";
const UNIT_PREFIX: &str = "u-";

fn main() {
    // Answer a test runner's listing and `--ignored` runs as libtest would: one test, none ignored.
    let args: Vec<String> = std::env::args().collect();
    if args.iter().any(|a| a == "--list") {
        println!("sigkill_rounds: test");
        return;
    }
    if args.iter().any(|a| a == "--ignored") {
        return;
    }
    match std::env::var(CHILD_DB) {
        Ok(path) => child(&path),
        Err(_) => parent(),
    }
}

fn child(path: &str) {
    let round = std::env::var(CHILD_ROUND).unwrap_or_default();
    sample::runtime().block_on(async {
        // Every decision event is kept, to be checked after the kill.
        let config = SqliteConfig::new(path).event_retention(usize::MAX / 2);
        let store: Arc<dyn Store> =
            Arc::new(SqliteStore::with_config(config).expect("the database opens"));
        let (acked, mut printer) = tokio::sync::mpsc::unbounded_channel();
        for writer in 0..WRITERS {
            let (store, acked, round) = (Arc::clone(&store), acked.clone(), round.clone());
            tokio::spawn(async move {
                for n in 0.. {
                    let id = format!("r{round}-w{writer}-{n}");
                    if writer % 2 == 1 {
                        let unit = record(UNIT_SESSION, &format!("{UNIT_PREFIX}{id}"));
                        let recorded = store.write_decision(unit).await;
                        let seq = recorded.expect("the unit is committed").audit_seq;
                        let _ = acked.send((seq, format!("{UNIT_PREFIX}{id}")));
                        continue;
                    }
                    let seq = store.append_audit(sample::evaluation("crash", &id)).await;
                    let seq = seq.expect("the record is committed");
                    let _ = acked.send((seq, id.clone()));
                    let part = sample::decided_part(&id);
                    let message = format!("m-{round}-{writer}");
                    store
                        .upsert_tool_part(&"crash".into(), &message, &part)
                        .await
                        .expect("the part is saved");
                }
            });
        }
        while let Some((seq, id)) = printer.recv().await {
            println!("{seq} {id}");
        }
    });
}

fn parent() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = dir.path().join("warrant.db");
    let exe = std::env::current_exe().expect("the test binary's path");
    let mut acked: HashMap<u64, String> = HashMap::new();
    let runtime = sample::runtime();
    for round in 0..ROUNDS {
        let mut child = Command::new(&exe)
            .env(CHILD_DB, &path)
            .env(CHILD_ROUND, round.to_string())
            .stdout(Stdio::piped())
            .spawn()
            .expect("the child starts");
        let mut lines = BufReader::new(child.stdout.take().expect("piped")).lines();
        for _ in 0..KILL_AFTER[round % KILL_AFTER.len()] {
            match lines.next() {
                Some(Ok(line)) => note(&mut acked, &line),
                _ => panic!(
                    "round {round}: the child stopped on its own: {:?}",
                    child.wait()
                ),
            }
        }
        child.kill().expect("SIGKILL");
        child.wait().expect("the child is reaped");
        // What was printed before the kill was acknowledged too.
        for line in lines.map_while(Result::ok) {
            note(&mut acked, &line);
        }
        runtime.block_on(check(round, &path, &acked));
    }
    println!(
        "{} acknowledged records survived {ROUNDS} SIGKILLs",
        acked.len()
    );
    println!("crash: {ROUNDS} passed, 0 failed");
}

fn note(acked: &mut HashMap<u64, String>, line: &str) {
    let (seq, id) = line.split_once(' ').expect("`seq id` lines");
    let seq = seq.parse().expect("a seq");
    let previous = acked.insert(seq, id.to_owned());
    assert!(previous.is_none(), "seq {seq} was acknowledged twice");
}

async fn check(round: usize, path: &std::path::Path, acked: &HashMap<u64, String>) {
    let store = SqliteStore::open(path).unwrap_or_else(|e| panic!("round {round}: reopen: {e}"));
    let integrity: String = Connection::open(path)
        .and_then(|c| c.query_row("PRAGMA integrity_check", [], |r| r.get(0)))
        .expect("integrity check runs");
    assert_eq!(integrity, "ok", "round {round}");
    let report = store.verify_audit().await.expect("verify runs");
    assert!(report.is_intact(), "round {round}: {report}");
    let records = store
        .audit_records(&AuditQuery::all())
        .await
        .expect("the log reads");
    let logged: HashMap<u64, &str> = records
        .iter()
        .map(|r| (r.seq, r.record.tool_call_id.as_str()))
        .collect();
    for (seq, id) in acked {
        assert_eq!(
            logged.get(seq),
            Some(&id.as_str()),
            "round {round}: acknowledged record {seq} lost"
        );
    }
    store
        .messages(&"crash".into())
        .await
        .expect("the tool parts load");

    // Every acknowledged unit has its part and its decision event too.
    let session = UNIT_SESSION.into();
    let parts: std::collections::HashSet<String> =
        sample::tool_parts(store.messages(&session).await.expect("the unit parts load"))
            .into_iter()
            .map(|p| p.tool_call_id.as_str().to_owned())
            .collect();
    let mut events = std::collections::HashSet::new();
    let mut after = 0;
    loop {
        let page = store
            .events_since(&session, after, 1_000)
            .await
            .expect("the event log reads");
        let Some(last) = page.last() else { break };
        after = last.seq;
        for event in &page {
            if let Some(Ok(WarrantEvent::Decision(d))) = event.event.warrant() {
                events.insert(d.tool_call_id.as_str().to_owned());
            }
        }
    }
    for id in acked.values().filter(|id| id.starts_with(UNIT_PREFIX)) {
        assert!(
            parts.contains(id),
            "round {round}: the part of unit {id} lost"
        );
        assert!(
            events.contains(id),
            "round {round}: the event of unit {id} lost"
        );
    }
}
