//! Several instances on one database ([`Arbiter`]): a request pending on any of them is found
//! and claimed here, a call's result is taken, and the workspace is changed, each once across
//! all of them.

use async_trait::async_trait;
use warrant_core::engine::{Arbiter, WorkspaceLock};
use warrant_core::event::now_millis;
use warrant_core::store::{PendingApproval, StoreError};

use super::PostgresStore;
use super::error::Context;

/// The advisory lock key that serializes workspace changes across instances ("wrkspace").
const WORKSPACE_LOCK: i64 = 0x7772_6b73_7061_6365;

#[async_trait]
impl Arbiter for PostgresStore {
    async fn pending_approval(
        &self,
        tool_call_id: &str,
    ) -> Result<Option<PendingApproval>, StoreError> {
        let (client, _) = self.ready_client().await?;
        super::records::pending_one(&client, tool_call_id).await
    }

    /// Deletes the request's row: the one transaction that deletes it wins, whichever
    /// instance it runs on, and every other sees no row.
    async fn claim_pending_approval(&self, tool_call_id: &str) -> Result<bool, StoreError> {
        let (client, _) = self.ready_client().await?;
        let stmt = client
            .prepare_cached("DELETE FROM pending_approvals WHERE tool_call_id = $1")
            .await
            .context("claiming a pending approval")?;
        let deleted = client
            .execute(&stmt, &[&tool_call_id])
            .await
            .context("claiming a pending approval")?;
        Ok(deleted == 1)
    }

    /// Inserts the call's row in `result_claims`: the one transaction that inserts it wins,
    /// whichever instance it runs on; every later one finds it.
    async fn claim_result(&self, tool_call_id: &str) -> Result<bool, StoreError> {
        let (client, _) = self.ready_client().await?;
        let stmt = client
            .prepare_cached(
                "INSERT INTO result_claims (tool_call_id, taken_at) VALUES ($1, $2) \
                 ON CONFLICT (tool_call_id) DO NOTHING",
            )
            .await
            .context("taking a call's result")?;
        let inserted = client
            .execute(&stmt, &[&tool_call_id, &now_millis()])
            .await
            .context("taking a call's result")?;
        Ok(inserted == 1)
    }

    /// A session-level advisory lock on a connection of its own, outside the pool: dropping
    /// the lock closes the connection, and the server releases the lock with it, so a lock
    /// is never left behind in a pooled connection (nor by an instance that died holding
    /// it). Waits at most the configured connect timeout for another instance's change.
    async fn lock_workspace(&self) -> Result<WorkspaceLock, StoreError> {
        self.ready().await?;
        let (client, connection) = self
            .pg_config
            .connect(self.tls.clone())
            .await
            .context("connecting to lock the workspace")?;
        let connection = tokio::spawn(connection);
        let timeout_ms = self.config.connect_timeout_ms.max(1);
        client
            .batch_execute(&format!("SET lock_timeout = {timeout_ms}"))
            .await
            .context("locking the workspace")?;
        client
            .execute("SELECT pg_advisory_lock($1)", &[&WORKSPACE_LOCK])
            .await
            .context("waiting for another instance's workspace change")?;
        Ok(WorkspaceLock::new(Held {
            _client: client,
            connection,
        }))
    }
}

/// The connection holding the workspace lock; dropped, it closes and the lock goes with it.
struct Held {
    _client: tokio_postgres::Client,
    connection: tokio::task::JoinHandle<Result<(), tokio_postgres::Error>>,
}

impl Drop for Held {
    fn drop(&mut self) {
        // Dropping the client ends the session; aborting the task closes its socket at once,
        // should the server be slow to answer the goodbye.
        self.connection.abort();
    }
}
