//! Several instances on one database ([`Arbiter`]): a request pending on any of them is found
//! and claimed here, a call's result is taken, and the workspace is changed, each once across
//! all of them.

use async_trait::async_trait;
use warrant_core::engine::{Arbiter, WorkspaceLock};
use warrant_core::event::now_millis;
use warrant_core::ids::ToolCallId;
use warrant_core::store::{PendingApproval, StoreError};

use super::PostgresStore;
use super::error::Context;

/// The advisory lock key that serializes workspace changes across instances ("wrkspace").
const WORKSPACE_LOCK: i64 = 0x7772_6b73_7061_6365;

#[async_trait]
impl Arbiter for PostgresStore {
    async fn pending_approval(
        &self,
        tool_call_id: &ToolCallId,
    ) -> Result<Option<PendingApproval>, StoreError> {
        let (client, _) = self.ready_client().await?;
        super::records::pending_one(&client, tool_call_id.as_str()).await
    }

    /// Deletes the request's row: the one transaction that deletes it wins, whichever
    /// instance it runs on, and every other sees no row.
    async fn claim_pending_approval(&self, tool_call_id: &ToolCallId) -> Result<bool, StoreError> {
        let (client, _) = self.ready_client().await?;
        let stmt = client
            .prepare_cached("DELETE FROM pending_approvals WHERE tool_call_id = $1")
            .await
            .context("claiming a pending approval")?;
        let deleted = client
            .execute(&stmt, &[&tool_call_id.as_str()])
            .await
            .context("claiming a pending approval")?;
        Ok(deleted == 1)
    }

    /// Inserts the call's row in `result_claims`: the one transaction that inserts it wins,
    /// whichever instance it runs on; every later one finds it.
    async fn claim_result(&self, tool_call_id: &ToolCallId) -> Result<bool, StoreError> {
        let (client, _) = self.ready_client().await?;
        let stmt = client
            .prepare_cached(
                "INSERT INTO result_claims (tool_call_id, taken_at) VALUES ($1, $2) \
                 ON CONFLICT (tool_call_id) DO NOTHING",
            )
            .await
            .context("taking a call's result")?;
        let inserted = client
            .execute(&stmt, &[&tool_call_id.as_str(), &now_millis()])
            .await
            .context("taking a call's result")?;
        Ok(inserted == 1)
    }

    async fn release_result(&self, tool_call_id: &ToolCallId) -> Result<(), StoreError> {
        let (client, _) = self.ready_client().await?;
        let stmt = client
            .prepare_cached("DELETE FROM result_claims WHERE tool_call_id = $1")
            .await
            .context("giving back a call's result")?;
        client
            .execute(&stmt, &[&tool_call_id.as_str()])
            .await
            .context("giving back a call's result")?;
        Ok(())
    }

    /// A session-level advisory lock on a connection of its own, outside the pool: dropping
    /// the lock closes the connection, and the server releases the lock with it, so a lock
    /// is never left behind in a pooled connection (nor by an instance that died holding
    /// it). The session ends on the server after a minute idle (PostgreSQL 14 and later) and
    /// TCP keepalives notice a vanished peer within about half a minute, so a holder that
    /// stalls or disappears does not keep the others out for long; a holder whose lock went
    /// that way sees it lost ([`WorkspaceLock::is_held`]) and saves nothing. Waits at most
    /// `workspace_lock_timeout_ms` for another instance's change.
    async fn lock_workspace(&self) -> Result<WorkspaceLock, StoreError> {
        self.ready().await?;
        let mut config = self.pg_config.clone();
        config
            .keepalives(true)
            .keepalives_idle(std::time::Duration::from_secs(10))
            .keepalives_interval(std::time::Duration::from_secs(5))
            .keepalives_retries(3);
        let (client, connection) = config
            .connect(self.tls.clone())
            .await
            .context("connecting to lock the workspace")?;
        tokio::spawn(connection);
        let timeout_ms = self.config.workspace_lock_timeout_ms.max(1);
        client
            .batch_execute(&format!("SET lock_timeout = {timeout_ms}"))
            .await
            .context("locking the workspace")?;
        // Older servers lack the setting; the keepalives still apply there.
        let _ = client
            .batch_execute("SET idle_session_timeout = 60000")
            .await;
        client
            .execute("SELECT pg_advisory_lock($1)", &[&WORKSPACE_LOCK])
            .await
            .context("waiting for another instance's workspace change")?;
        let client = std::sync::Arc::new(client);
        let watched = std::sync::Arc::clone(&client);
        Ok(WorkspaceLock::losable(client, move || !watched.is_closed()))
    }
}
