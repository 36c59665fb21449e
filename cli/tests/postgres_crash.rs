//! Two `warrant serve` processes on one PostgreSQL database, clients posting tool calls to
//! both; one is killed with SIGKILL mid-stream, round after round, and restarted: every
//! decision a client saw from either is in the audit log (as the survivor serves it, and as
//! `warrant audit` reads it), the one chain verifies, and the survivor kept serving through
//! every kill.
//!
//! Needs a server: `scripts/with-postgres cargo test -p warrant --test postgres_crash`.

use std::collections::HashSet;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::Value;

mod postgres_support;

use postgres_support::{Database, Serve, http, post_call, shown};

/// Kills of the victim.
const ROUNDS: usize = 8;
/// Clients per instance.
const CLIENTS: usize = 2;
/// The most calls one client posts, so the test is bounded in count as well as in time.
const MAX_CALLS: usize = 5_000;
/// The longest the whole test may take.
const DEADLINE: Duration = Duration::from_secs(120);

/// Clients posting to one instance until told to stop: the ids each got a 200 decision for.
struct Load {
    stop: Arc<AtomicBool>,
    threads: Vec<std::thread::JoinHandle<Vec<String>>>,
    decided: Arc<AtomicUsize>,
}

impl Load {
    /// `CLIENTS` clients posting to `session` on `addr`, with call ids `NAME-cC-N`.
    fn start(addr: &str, session: &str, name: &str) -> Self {
        let stop = Arc::new(AtomicBool::new(false));
        let decided = Arc::new(AtomicUsize::new(0));
        let threads = (0..CLIENTS)
            .map(|c| {
                let (addr, stop, decided) = (addr.to_owned(), stop.clone(), decided.clone());
                let session = session.to_owned();
                let prefix = format!("{name}-c{c}");
                std::thread::spawn(move || {
                    let mut seen = Vec::new();
                    let mut n = 0;
                    while !stop.load(Ordering::Relaxed) && n < MAX_CALLS {
                        if let Some(id) = post_call(&addr, &session, &format!("{prefix}-{n}")) {
                            seen.push(id);
                            decided.fetch_add(1, Ordering::Relaxed);
                        }
                        n += 1;
                    }
                    seen
                })
            })
            .collect();
        Self {
            stop,
            threads,
            decided,
        }
    }

    fn decided(&self) -> usize {
        self.decided.load(Ordering::Relaxed)
    }

    /// Stops the clients; the ids that got a decision.
    fn finish(self) -> Vec<String> {
        self.stop.store(true, Ordering::Relaxed);
        self.threads
            .into_iter()
            .flat_map(|t| t.join().unwrap())
            .collect()
    }
}

/// Waits until `load` has `n` more decisions than `from`, within the deadline.
fn wait_for(load: &Load, from: usize, n: usize, started: Instant, what: &str) {
    while load.decided() < from + n {
        assert!(
            started.elapsed() < DEADLINE,
            "{what}: {} decisions, not {} within {DEADLINE:?}",
            load.decided() - from,
            n
        );
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// Every evaluated tool call id of the survivor's `GET /v1/audit/export`, and its chain.
fn exported(addr: &str) -> (HashSet<String>, Value) {
    let (status, body) = http(
        addr,
        "GET",
        "/v1/audit/export?format=jsonl&kind=evaluation",
        None,
        Duration::from_secs(30),
    )
    .expect("the survivor answers");
    assert_eq!(status, 200, "{body}");
    let mut ids = HashSet::new();
    let mut chain = Value::Null;
    for line in body.lines() {
        let value: Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}"));
        if let Some(c) = value.get("chain") {
            chain = c.clone();
        } else if let Some(id) = value["toolCallId"].as_str() {
            ids.insert(id.to_owned());
        }
    }
    (ids, chain)
}

/// `warrant audit --verify` with an instance's data directory (its checkpoint file): the ids
/// it lists, after asserting the chain verifies.
fn verified_ids(config: &Path, data_dir: &Path) -> HashSet<String> {
    let out = postgres_support::audit(config, data_dir, &["--verify"], None);
    assert_eq!(out.status.code(), Some(0), "{}", shown(&out));
    postgres_support::evaluated_ids(&out).into_iter().collect()
}

#[test]
fn killing_one_of_two_instances_loses_no_acknowledged_decision() {
    let started = Instant::now();
    let database = Database::create();
    let dir = tempfile::tempdir().unwrap();
    let config = postgres_support::shared_config(dir.path(), &database);
    let (victim_dir, survivor_dir) = (dir.path().join("victim"), dir.path().join("survivor"));
    let survivor = Serve::start(&config, &survivor_dir);
    let survivor_load = Load::start(&survivor.addr, "crash-s", "s");
    let seen = Mutex::new(Vec::<String>::new());
    for round in 0..ROUNDS {
        let victim = Serve::start(&config, &victim_dir);
        let victim_load = Load::start(&victim.addr, "crash-v", &format!("v{round}"));
        // Calls flow to both for a while that differs per round, then the victim dies.
        wait_for(&victim_load, 0, 5, started, "the victim decides");
        std::thread::sleep(Duration::from_millis(20 + 30 * round as u64));
        victim.kill();
        let at_kill = survivor_load.decided();
        seen.lock().unwrap().extend(victim_load.finish());
        // The survivor keeps serving after the kill.
        wait_for(
            &survivor_load,
            at_kill,
            10,
            started,
            "the survivor after a kill",
        );
    }
    let survivor_count = survivor_load.decided();
    seen.lock().unwrap().extend(survivor_load.finish());
    let seen = seen.into_inner().unwrap();
    assert!(
        survivor_count >= 10 * ROUNDS && seen.len() > survivor_count,
        "calls went through on both: {} seen, {survivor_count} by the survivor",
        seen.len()
    );

    eprintln!(
        "{} decisions seen over {ROUNDS} kills, {survivor_count} of them by the survivor",
        seen.len()
    );
    // Every decision a client saw, as the survivor serves the log.
    let (ids, chain) = exported(&survivor.addr);
    let missing: Vec<&String> = seen.iter().filter(|id| !ids.contains(*id)).collect();
    assert!(
        missing.is_empty(),
        "decisions seen but not in the survivor's history: {missing:?}"
    );
    assert_eq!(chain["status"], "intact", "the chain verifies: {chain}");
    assert_eq!(chain["keyed"], true, "{chain}");
    // And as `warrant audit` reads the store, against each instance's checkpoint file.
    for data_dir in [&survivor_dir, &victim_dir] {
        let audited = verified_ids(&config, data_dir);
        let missing: Vec<&String> = seen.iter().filter(|id| !audited.contains(*id)).collect();
        assert!(
            missing.is_empty(),
            "decisions seen but not audited: {missing:?}"
        );
    }
    // The victim's data directory serves again after the last kill.
    let restarted = Serve::start(&config, &victim_dir);
    assert!(post_call(&restarted.addr, "crash-v", "after-restart").is_some());
    assert!(post_call(&survivor.addr, "crash-s", "after-all").is_some());
    assert!(started.elapsed() < DEADLINE, "took {:?}", started.elapsed());
}
