//! The reload on its own, for a profiler and for comparing builds on one database: fills a
//! session as the quick run does and keeps a copy of the database, or reads a session of a
//! kept database back many times.
//!
//! ```text
//! cargo build --release -p warrant-benches --bin reload
//! target/release/reload fill /tmp/reload.db
//! target/release/reload read /tmp/reload.db 50
//! valgrind --tool=callgrind target/release/reload read /tmp/reload.db 3
//! ```
//!
//! Arguments: `fill DATABASE [PARTS PER_MESSAGE WRITERS]` (10,000, 100 and 64 by default, the
//! quick run's figures; the engine's other sessions of the quick run are written first), or
//! `read DATABASE RUNS` (the session is read from a copy of `DATABASE`, which is left as it
//! is).

/// The allocator the program runs with, as the quick run does.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use warrant_benches::endtoend::Rig;
use warrant_benches::reload;
use warrant_benches::timing::Stats;
use warrant_core::store::Conversations;
use warrant_stores::sqlite::SqliteStore;

/// The quick run's engine runs on the same rig before the reload: (sessions, decisions each).
const ENGINE_RUNS: [(usize, usize); 4] = [(1, 300), (8, 80), (16, 40), (256, 8)];

fn usage() -> ! {
    eprintln!("usage: reload fill DATABASE [PARTS PER_MESSAGE WRITERS]");
    eprintln!("       reload read DATABASE RUNS");
    std::process::exit(2)
}

/// Copies the database, its WAL and its audit key (the writer idle) to `to`.
fn copy(from: &Path, to: &Path) {
    for suffix in ["", "-wal", ".audit-key"] {
        let source = PathBuf::from(format!("{}{suffix}", from.display()));
        let target = PathBuf::from(format!("{}{suffix}", to.display()));
        let _ = std::fs::remove_file(&target);
        if source.exists() {
            std::fs::copy(&source, &target).expect("the database copies");
        }
    }
    let _ = std::fs::remove_file(format!("{}-shm", to.display()));
}

fn fill(out: &Path, parts: usize, per_message: usize, writers: usize) {
    reload::runtime().block_on(async {
        let rig = Arc::new(Rig::new(1_000).await);
        for (sessions, per_session) in ENGINE_RUNS {
            rig.run(&format!("engine-{sessions}"), sessions, per_session)
                .await;
        }
        let took = reload::fill(&rig, parts, per_message, writers).await;
        eprintln!("filled {parts} parts in {took:?}");
        let first = reload::read(&rig, parts).await;
        eprintln!("first read {first:?}");
        // Let the checkpoint thread settle before the files are copied.
        tokio::time::sleep(Duration::from_secs(2)).await;
        copy(rig.store.path(), out);
    });
}

fn read(database: &Path, runs: usize) {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = dir.path().join("reload.db");
    copy(database, &path);
    reload::runtime().block_on(async {
        let store = SqliteStore::open(&path).expect("opens");
        let parts: usize = store
            .messages(&"reload".into())
            .await
            .expect("readable")
            .iter()
            .map(|m| m.parts.len())
            .sum();
        let mut timings = Vec::with_capacity(runs);
        let cpu = cpu_time();
        for _ in 0..runs {
            let started = std::time::Instant::now();
            let messages = store.messages(&"reload".into()).await.expect("readable");
            timings.push(started.elapsed());
            std::hint::black_box(messages);
        }
        let cpu = cpu_time().saturating_sub(cpu);
        let stats = Stats::of(timings);
        println!(
            "{parts} parts: median {:.2} ms, p99 {:.2} ms, mean {:.2} ms, CPU {:.2} ms a read \
             ({runs} reads)",
            stats.median.as_secs_f64() * 1e3,
            stats.p99.as_secs_f64() * 1e3,
            stats.mean.as_secs_f64() * 1e3,
            cpu.as_secs_f64() * 1e3 / runs as f64,
        );
    });
}

/// The CPU time the process has used (user and system, from `/proc/self/stat`, in clock
/// ticks of 10 ms); zero where that file cannot be read.
fn cpu_time() -> Duration {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // The fields after the command name, which is in parentheses and may hold spaces.
    let fields: Vec<&str> = stat
        .rsplit_once(')')
        .map(|(_, rest)| rest.split_whitespace().collect())
        .unwrap_or_default();
    // utime and stime, fields 14 and 15 of the line: the 12th and 13th after the name.
    let ticks: u64 = [11, 12]
        .iter()
        .filter_map(|&i| fields.get(i).and_then(|f| f.parse::<u64>().ok()))
        .sum();
    Duration::from_millis(ticks * 10)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let number = |s: &String| s.parse::<usize>().unwrap_or_else(|_| usage());
    match args.as_slice() {
        [what, out] if what == "fill" => fill(Path::new(out), 10_000, 100, 64),
        [what, out, parts, per_message, writers] if what == "fill" => fill(
            Path::new(out),
            number(parts),
            number(per_message),
            number(writers),
        ),
        [what, database, runs] if what == "read" => read(Path::new(database), number(runs)),
        _ => usage(),
    }
}
