//! Several instances on one database: a request pending on any of them is found and claimed
//! here ([`SharedApprovals`]), once across all of them.

use async_trait::async_trait;
use warrant_core::engine::SharedApprovals;
use warrant_core::ids::ToolCallId;
use warrant_core::store::{PendingApproval, StoreError};

use super::PostgresStore;
use super::error::Context;

#[async_trait]
impl SharedApprovals for PostgresStore {
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
}
