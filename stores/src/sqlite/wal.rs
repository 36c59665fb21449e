//! WAL checkpoints off the writer thread, driven by the WAL's size: after each commit SQLite
//! tells the writer how many frames the WAL holds (`sqlite3_wal_hook`); once that passes
//! [`SqliteConfig::checkpoint_pages`](crate::SqliteConfig::checkpoint_pages), the writer wakes
//! a thread of its own, which copies committed pages from the WAL into the database file
//! (`PRAGMA wal_checkpoint(PASSIVE)` on a connection of its own). The writer's commits then
//! rarely carry a checkpoint's page writes and `fsync`s, and checkpoints run about as often as
//! SQLite's own would (once per that many pages), not once per commit or per tick.
//!
//! The hook replaces SQLite's automatic checkpoint on the write connection, so it also keeps
//! that checkpoint's part: once the WAL holds [`WRITER_BOUND_FACTOR`] times the threshold
//! (the checkpoint thread fell behind, or a reader holds it back), the writer checkpoints
//! itself, as SQLite would. A checkpoint only copies what the writer already committed:
//! nothing durable depends on when or where it runs, and its failure fails no commit (the
//! hook runs after the commit is on disk and never reports an error).
//!
//! Nothing here changes what a commit waits for: the write connection keeps
//! `synchronous = FULL` (a commit returns once the WAL is synced), and the checkpoint
//! connection syncs too.

use std::cell::RefCell;
use std::ffi::c_int;
use std::path::Path;
use std::sync::mpsc;
use std::thread::JoinHandle;
use std::time::Duration;

use rusqlite::Connection;
use rusqlite::hooks::Wal;
use warrant_core::store::StoreError;

use crate::error::{Context, unavailable};

/// WAL frames between two wakes of the checkpoint thread unless configured (8 MiB of 4 KiB
/// pages). Twice SQLite's own threshold: a page written again before the next checkpoint is
/// copied once, so fewer, larger checkpoints copy fewer pages and make fewer `fsync`s. At
/// 1,000 the engine at 256 sessions spent about 20 µs of CPU per decision on checkpoints, at
/// 2,000 about 15 (the writer no more), and without the thread (the writer checkpointing at
/// 4,000) the writer about 10 µs more.
pub const DEFAULT_CHECKPOINT_PAGES: u32 = 2_000;

/// The writer checkpoints itself once the WAL holds this many times the threshold: the bound
/// on the WAL's size when the checkpoint thread falls behind (8,000 frames, about 32 MiB, by
/// default).
pub const WRITER_BOUND_FACTOR: u32 = 4;

/// How long the thread rests after a failed checkpoint before it tries again: a full disk
/// would otherwise be retried at every commit.
const RETRY_PAUSE: Duration = Duration::from_millis(50);

/// When the hook acts, in WAL frames.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Thresholds {
    /// Wake the checkpoint thread each time the WAL grew by this many.
    pub wake: c_int,
    /// Checkpoint on the writer itself from this many.
    pub bound: c_int,
}

impl Thresholds {
    /// The thresholds for a configured page count (at least 1).
    pub(crate) fn new(pages: u32) -> Self {
        let pages = pages.max(1);
        let clamp = |n: u32| c_int::try_from(n).unwrap_or(c_int::MAX);
        Self {
            wake: clamp(pages),
            bound: clamp(pages.saturating_mul(WRITER_BOUND_FACTOR)),
        }
    }
}

/// What the hook does after a commit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Action {
    /// Nothing: the WAL did not grow past another threshold.
    Nothing,
    /// Wake the checkpoint thread.
    Wake,
    /// The WAL reached the bound: checkpoint on the writer, as SQLite's automatic checkpoint.
    CheckpointHere,
}

/// Paces the checkpoint thread: one wake each time the WAL grew by the threshold, so that it
/// copies about as many frames per checkpoint as SQLite's own checkpoint would, rather than
/// once per commit while the WAL is large (a passive checkpoint that runs beside the writer
/// seldom catches up with it, so the WAL seldom starts over before the bound).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Pacer {
    thresholds: Thresholds,
    /// How many thresholds the WAL had passed at the last wake.
    woken_at: c_int,
    /// The WAL's frames after the last commit (fewer now: it started over).
    frames: c_int,
}

impl Pacer {
    /// A pacer for an empty WAL.
    pub(crate) fn new(thresholds: Thresholds) -> Self {
        Self {
            thresholds,
            woken_at: 0,
            frames: 0,
        }
    }

    /// What a commit that left `frames` frames in the WAL calls for.
    pub(crate) fn after_commit(&mut self, frames: c_int) -> Action {
        if frames < self.frames {
            self.woken_at = 0;
        }
        self.frames = frames;
        let passed = frames / self.thresholds.wake.max(1);
        if frames >= self.thresholds.bound {
            Action::CheckpointHere
        } else if passed > self.woken_at {
            self.woken_at = passed;
            Action::Wake
        } else {
            Action::Nothing
        }
    }
}

/// What the hook of the writer thread's connection reads (a hook is a plain function, and it
/// runs on the thread that commits).
struct Watch {
    pacer: Pacer,
    wake: mpsc::SyncSender<()>,
}

thread_local! {
    static WATCH: RefCell<Option<Watch>> = const { RefCell::new(None) };
}

/// Runs after every commit of the write connection, once the commit is on disk. Never
/// reports an error: SQLite would return it from the statement whose commit already
/// happened.
fn on_commit(wal: &Wal, frames: c_int) -> rusqlite::Result<()> {
    let action = WATCH.with(|watch| match &mut *watch.borrow_mut() {
        Some(w) => {
            let action = w.pacer.after_commit(frames);
            if action == Action::Wake {
                // A wake already pending covers this one.
                let _ = w.wake.try_send(());
            }
            action
        }
        // Not the writer thread: SQLite's own automatic checkpoint, at the bound.
        None if frames >= Thresholds::new(DEFAULT_CHECKPOINT_PAGES).bound => Action::CheckpointHere,
        None => Action::Nothing,
    });
    if action == Action::CheckpointHere {
        // Passive, as SQLite's automatic checkpoint, whose failure it ignores too: the WAL
        // keeps the pages until a later checkpoint copies them.
        if let Err(e) = wal.checkpoint() {
            tracing::debug!(error = %e, frames, "the writer's WAL checkpoint did not run");
        }
    }
    Ok(())
}

/// While alive, the hook of the connection it was made for wakes the checkpoint thread.
/// Made and dropped on the writer thread.
pub(crate) struct Watching(());

impl Drop for Watching {
    fn drop(&mut self) {
        WATCH.with(|watch| watch.borrow_mut().take());
    }
}

/// The checkpoint thread; dropping it stops the thread (the writer's own checkpoint remains).
pub(crate) struct Checkpointer {
    thresholds: Thresholds,
    wake: Option<mpsc::SyncSender<()>>,
    thread: Option<JoinHandle<()>>,
}

impl Checkpointer {
    /// Starts the thread on a connection of its own to the database at `path`; it checkpoints
    /// once the writer reports `pages` frames in the WAL.
    pub(crate) fn spawn(
        path: &Path,
        busy_timeout: Duration,
        pages: u32,
    ) -> Result<Self, StoreError> {
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
            thresholds: Thresholds::new(pages),
            wake: Some(wake),
            thread: Some(thread),
        })
    }

    /// Hooks the write connection (on the writer thread, which commits on it): after each
    /// commit it wakes this thread once the WAL passed the threshold, and checkpoints itself
    /// at the bound. This replaces SQLite's automatic checkpoint on that connection (setting
    /// `wal_autocheckpoint` afterwards would remove the hook). The hook wakes nothing once
    /// the returned guard is dropped, which must happen before this checkpointer is.
    pub(crate) fn watch(&self, conn: &Connection) -> Watching {
        if let Some(wake) = &self.wake {
            WATCH.with(|watch| {
                *watch.borrow_mut() = Some(Watch {
                    pacer: Pacer::new(self.thresholds),
                    wake: wake.clone(),
                });
            });
        }
        conn.wal_hook(Some(on_commit));
        Watching(())
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
    // full disk would otherwise log a line per commit).
    let mut failing = false;
    while woken.recv().is_ok() {
        // Passive: never waits for the writer or readers; copies what it can (a checkpoint
        // running elsewhere answers "busy" in the row, not as an error).
        let done = conn.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |_| Ok(()));
        match done {
            Err(e) => {
                if !failing {
                    failing = true;
                    tracing::warn!(error = %e, "WAL checkpoints fail; the writer's own bounds the WAL");
                }
                std::thread::sleep(RETRY_PAUSE);
            }
            Ok(()) if failing => {
                failing = false;
                tracing::info!("WAL checkpoints work again");
            }
            Ok(()) => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use std::ffi::c_int;

    use super::{Action, Pacer, Thresholds};

    #[test]
    fn the_thread_is_woken_once_per_threshold_and_the_writer_checkpoints_at_the_bound() {
        let mut p = Pacer::new(Thresholds::new(1_000));
        let acts: Vec<Action> = [
            10, 999, 1_000, 1_400, 1_999, 2_300, 2_400, 3_999, 4_000, 4_100,
        ]
        .into_iter()
        .map(|frames| p.after_commit(frames))
        .collect();
        use Action::{CheckpointHere as Here, Nothing as No, Wake};
        assert_eq!(acts, [No, No, Wake, No, No, Wake, No, Wake, Here, Here]);
    }

    #[test]
    fn a_wal_that_started_over_is_paced_from_its_start() {
        let mut p = Pacer::new(Thresholds::new(100));
        assert_eq!(p.after_commit(150), Action::Wake);
        assert_eq!(p.after_commit(40), Action::Nothing);
        assert_eq!(p.after_commit(120), Action::Wake);
    }

    #[test]
    fn a_commit_that_passes_several_thresholds_wakes_once() {
        let mut p = Pacer::new(Thresholds::new(100));
        assert_eq!(p.after_commit(350), Action::Wake);
        assert_eq!(p.after_commit(399), Action::Nothing);
        assert_eq!(p.after_commit(400), Action::CheckpointHere);
    }

    #[test]
    fn thresholds_are_at_least_one_frame_and_never_overflow() {
        assert_eq!(Thresholds::new(0), Thresholds::new(1));
        assert_eq!(Thresholds::new(1).bound, 4);
        assert_eq!(Thresholds::new(1_000).bound, 4_000);
        let huge = Thresholds::new(u32::MAX);
        assert_eq!((huge.wake, huge.bound), (c_int::MAX, c_int::MAX));
    }
}
