//! [`Approvals`]: pending approval requests and the grants resolutions leave.

use crate::ids::ToolCallId;
use async_trait::async_trait;

use super::{PendingApproval, StoreError};
use crate::grant::Grant;

/// Approvals and grants: the tool calls waiting for a person, and the standing permissions
/// ("allow for this session", …) their resolutions recorded.
///
/// # Contract
///
/// - **Durability.** Every write is durable when it returns: a pending approval survives a
///   restart, so the call can still be resolved; a grant survives, so it still applies.
/// - **Identity.** A pending approval is keyed by its tool call id: putting one with the id
///   of a stored one replaces it. A grant is keyed by its id (see [`Grant::id_for`]).
/// - **Ordering.** Reads return entries in the order they were first put.
/// - **Invalid.** A session id longer than
///   [`MAX_SESSION_ID_BYTES`](crate::workspace::MAX_SESSION_ID_BYTES) is refused with kind
///   [`Invalid`](super::StoreErrorKind::Invalid), naming it. There is no duplicate: putting
///   the same entry twice keeps one.
/// - **Errors.** A backend failure is an error, never an empty list: an approval or grant
///   that silently vanished would change a decision.
#[async_trait]
pub trait Approvals: Send + Sync {
    /// Records an unresolved approval request.
    async fn put_pending_approval(&self, pending: &PendingApproval) -> Result<(), StoreError>;

    /// Forgets an approval request once it is resolved or expired.
    async fn remove_pending_approval(&self, tool_call_id: &ToolCallId) -> Result<(), StoreError>;

    /// Every unresolved approval request.
    async fn pending_approvals(&self) -> Result<Vec<PendingApproval>, StoreError>;

    /// Records a grant.
    async fn put_grant(&self, grant: &Grant) -> Result<(), StoreError>;

    /// Every grant, of every session.
    async fn grants(&self) -> Result<Vec<Grant>, StoreError>;

    /// Forgets the grant with this id (see [`Grant::id_for`]: grants recorded without an id
    /// are matched by the id derived from them); answers whether one was removed.
    async fn remove_grant(&self, grant_id: &str) -> Result<bool, StoreError>;
}
