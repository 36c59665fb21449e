//! [`Conversations`]: each session's messages and the tool parts in them.

use crate::ids::SessionId;
use async_trait::async_trait;
use futures::future::BoxFuture;

use super::StoreError;
use crate::part::{Message, ToolPart};

/// Each session's conversation: its messages, in order, and the tool parts (one per tool
/// call, carrying its state and decision) inside them.
///
/// # Contract
///
/// - **Durability.** [`upsert_tool_part`](Self::upsert_tool_part) returns once the part is
///   durable.
/// - **Ordering.** Messages keep the order in which they were first written; parts keep
///   their place in their message. Upserting a part with the id of a stored part replaces it
///   in place; a new part is added at the end of its message, and a new message (role
///   `assistant`) at the end of the session.
/// - **Invalid.** A session id longer than
///   [`MAX_SESSION_ID_BYTES`](crate::workspace::MAX_SESSION_ID_BYTES) is refused with kind
///   [`Invalid`](super::StoreErrorKind::Invalid), naming it. There is no duplicate: an upsert
///   of the same part is idempotent.
/// - **Errors.** A backend failure is an error, never a shorter conversation.
#[async_trait]
pub trait Conversations: Send + Sync {
    /// Inserts or replaces a tool part in its message (created when new, role `assistant`).
    async fn upsert_tool_part(
        &self,
        session_id: &SessionId,
        message_id: &str,
        part: &ToolPart,
    ) -> Result<(), StoreError>;

    /// Starts [upserting](Self::upsert_tool_part) a tool part without waiting for it to be
    /// durable: queued now, the future resolves once durable; writes started one after
    /// another (audit, parts, events) become durable in the order they were started, so
    /// awaiting the last proves the earlier ones durable. `None` when the store cannot
    /// promise that order.
    ///
    /// The default is `None`: callers then await [`upsert_tool_part`](Self::upsert_tool_part).
    fn start_upsert_tool_part(
        &self,
        session_id: &SessionId,
        message_id: &str,
        part: &ToolPart,
    ) -> Option<BoxFuture<'static, Result<(), StoreError>>> {
        let _ = (session_id, message_id, part);
        None
    }

    /// A session's messages with their parts, in order.
    async fn messages(&self, session_id: &SessionId) -> Result<Vec<Message>, StoreError>;
}
