//! Read connections: reads run beside the writer (WAL lets them), on tokio's blocking pool
//! when there is a runtime.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rusqlite::{Connection, OpenFlags};
use warrant_core::store::StoreError;

use super::schema;
use crate::error::{Context, unavailable};

/// How many idle read connections are kept for reuse.
const IDLE_READERS: usize = 4;

/// A pool of read connections to one database.
pub(crate) struct Readers {
    path: PathBuf,
    busy_timeout: Duration,
    idle: Mutex<Vec<Connection>>,
}

impl Readers {
    /// A pool for the database at `path`.
    pub(crate) fn new(path: PathBuf, busy_timeout: Duration) -> Arc<Self> {
        Arc::new(Self {
            path,
            busy_timeout,
            idle: Mutex::new(Vec::new()),
        })
    }

    /// Runs a read on a pooled connection, off the async threads.
    pub(crate) async fn run<T: Send + 'static>(
        self: &Arc<Self>,
        read: impl FnOnce(&Connection) -> Result<T, StoreError> + Send + 'static,
    ) -> Result<T, StoreError> {
        let this = Arc::clone(self);
        let job = move || {
            let conn = this.take()?;
            let result = read(&conn);
            this.give(conn);
            result
        };
        match tokio::runtime::Handle::try_current() {
            Ok(runtime) => runtime
                .spawn_blocking(job)
                .await
                .map_err(|e| unavailable("a sqlite read", e))?,
            Err(_) => job(),
        }
    }

    fn take(&self) -> Result<Connection, StoreError> {
        let pooled = self.idle.lock().unwrap_or_else(|p| p.into_inner()).pop();
        match pooled {
            Some(conn) => Ok(conn),
            None => {
                let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX;
                let conn = Connection::open_with_flags(&self.path, flags)
                    .context("opening a read connection")?;
                conn.busy_timeout(self.busy_timeout)
                    .context("busy timeout")?;
                schema::version(&conn)?;
                Ok(conn)
            }
        }
    }

    fn give(&self, conn: Connection) {
        let mut idle = self.idle.lock().unwrap_or_else(|p| p.into_inner());
        if idle.len() < IDLE_READERS {
            idle.push(conn);
        }
    }
}
