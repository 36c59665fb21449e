//! WAL checkpoints off the writer thread: a thread of its own copies committed pages from the
//! WAL into the database file (`PRAGMA wal_checkpoint(PASSIVE)` on a connection of its own),
//! so the writer's commits rarely carry a checkpoint's page writes and `fsync`s.
//!
//! The writer keeps SQLite's automatic checkpoint, at a higher threshold, as the bound on the
//! WAL's size when this thread falls behind; a checkpoint only copies what the writer already
//! committed, so nothing durable depends on when or where it runs.

use std::path::Path;
use std::sync::mpsc;
use std::thread::JoinHandle;
use std::time::Duration;

use rusqlite::Connection;
use warrant_core::store::StoreError;

use crate::error::{Context, unavailable};

/// The writer's own automatic checkpoint runs once the WAL holds this many pages (SQLite's
/// default is 1,000): the bound when the checkpoint thread falls behind.
pub(crate) const WRITER_AUTOCHECKPOINT_PAGES: i64 = 4_000;

/// The least time between two checkpoints of the thread: each copies what gathered since
/// the last and syncs the database file, so fewer, larger ones cost fewer `fsync`s. At
/// 10 ms the thread made 564 `fsync`s where the writer alone made 320 (20,000 decisions);
/// at 50 ms it checkpoints at most 20 times a second, about as often as the writer's own
/// 1,000-page checkpoint at 7,000 decisions a second (2.7 pages each), and under the
/// 4,000-page bound up to about 30,000.
const CHECKPOINT_PAUSE: Duration = Duration::from_millis(50);

/// The checkpoint thread; dropping it stops the thread (the writer's own checkpoint remains).
pub(crate) struct Checkpointer {
    wake: Option<mpsc::SyncSender<()>>,
    thread: Option<JoinHandle<()>>,
}

impl Checkpointer {
    /// Starts the thread on a connection of its own to the database at `path`.
    pub(crate) fn spawn(path: &Path, busy_timeout: Duration) -> Result<Self, StoreError> {
        let conn = Connection::open(path).context("opening the checkpoint connection")?;
        conn.busy_timeout(busy_timeout).context("busy timeout")?;
        // A checkpoint syncs the WAL before copying it and the database file before the WAL
        // may be reused; with `synchronous = OFF` (the default of some builds) it would not, and
        // a power loss after the writer restarts the WAL could lose committed pages.
        conn.pragma_update(None, "synchronous", "FULL")
            .context("syncing checkpoints")?;
        let (wake, woken) = mpsc::sync_channel(1);
        let thread = std::thread::Builder::new()
            .name("warrant-sqlite-checkpoint".to_owned())
            .spawn(move || run(&conn, &woken))
            .map_err(|e| unavailable("starting the sqlite checkpoint thread", e))?;
        Ok(Self {
            wake: Some(wake),
            thread: Some(thread),
        })
    }

    /// Called by the writer after a commit: wakes the thread unless it is awake already
    /// (wakes coalesce; the thread checks the WAL's size itself).
    pub(crate) fn committed(&self) {
        if let Some(wake) = &self.wake {
            let _ = wake.try_send(());
        }
    }
}

impl Drop for Checkpointer {
    fn drop(&mut self) {
        self.wake.take();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

fn run(conn: &Connection, woken: &mpsc::Receiver<()>) {
    // Logged when checkpoints start failing and when they work again, not at every wake (a
    // full disk would otherwise log a hundred lines a second).
    let mut failing = false;
    while woken.recv().is_ok() {
        // Passive: never waits for the writer or readers; copies what it can (a checkpoint
        // running elsewhere answers "busy" in the row, not as an error).
        let done = conn.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |_| Ok(()));
        match done {
            Err(e) if !failing => {
                failing = true;
                tracing::warn!(error = %e, "WAL checkpoints fail; the writer's own bounds the WAL");
            }
            Ok(()) if failing => {
                failing = false;
                tracing::info!("WAL checkpoints work again");
            }
            _ => {}
        }
        std::thread::sleep(CHECKPOINT_PAUSE);
    }
}
