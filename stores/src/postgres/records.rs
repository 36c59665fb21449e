//! Messages and tool parts, pending approvals, grants and the session event log on
//! PostgreSQL.

use deadpool_postgres::ClientWrapper;
use warrant_core::event::{Event, now_millis};
use warrant_core::grant::Grant;
use warrant_core::part::{Message, MessagePart};
use warrant_core::store::{PendingApproval, StoreError, StoredEvent};
use warrant_core::workspace::check_session_id;

use super::error::{Context, from_db, to_db};
use super::listen::EVENT_CHANNEL;
use crate::error::{corrupt, to_json};
pub(crate) use crate::rows::{PartRow, PendingRow};
use crate::stored_part::StoredPart;

/// Inserts or replaces a part (its message created when new, role `assistant`), and keeps
/// its decision in the message's map, which holds the `limit` newest calls of the message.
/// The message row stays locked until the commit, so parts of one message are numbered one
/// at a time.
pub(crate) async fn upsert_part(
    client: &mut ClientWrapper,
    row: &PartRow,
    limit: usize,
) -> Result<(), StoreError> {
    let tx = client
        .transaction()
        .await
        .context("starting a tool part write")?;
    upsert_part_in(&tx, row, limit).await?;
    tx.commit().await.context("committing a tool part")
}

/// [`upsert_part`] inside `tx` (durable once it commits).
pub(crate) async fn upsert_part_in(
    tx: &deadpool_postgres::Transaction<'_>,
    row: &PartRow,
    limit: usize,
) -> Result<(), StoreError> {
    let message = tx
        .prepare_cached(
            "INSERT INTO messages (session_id, message_id, role) VALUES ($1, $2, 'assistant') \
             ON CONFLICT (session_id, message_id) DO UPDATE SET role = messages.role \
             RETURNING id",
        )
        .await
        .context("creating a message")?;
    let message: i64 = tx
        .query_one(&message, &[&row.session_id, &row.message_id])
        .await
        .context("creating a message")?
        .try_get(0)
        .context("message id")?;
    let part = tx
        .prepare_cached(
            "INSERT INTO tool_parts (message, tool_call_id, ordinal, part, tool_name) \
             VALUES ($1, $2, (SELECT coalesce(max(ordinal), 0) + 1 FROM tool_parts WHERE message = $1), $3, $4) \
             ON CONFLICT (message, tool_call_id) \
             DO UPDATE SET part = excluded.part, tool_name = excluded.tool_name",
        )
        .await
        .context("writing a tool part")?;
    tx.execute(
        &part,
        &[&message, &row.tool_call_id, &row.json, &row.tool_name],
    )
    .await
    .context("writing a tool part")?;
    if row.decision.is_some() || row.resolution.is_some() {
        let map = tx
            .prepare_cached(
                "INSERT INTO part_decisions (message, tool_call_id, ordinal, decision, resolution) \
                 SELECT message, tool_call_id, ordinal, $3::text, $4::text FROM tool_parts \
                 WHERE message = $1 AND tool_call_id = $2 \
                 ON CONFLICT (message, tool_call_id) DO UPDATE \
                 SET decision = excluded.decision, resolution = excluded.resolution",
            )
            .await
            .context("writing a decision map entry")?;
        tx.execute(
            &map,
            &[&message, &row.tool_call_id, &row.decision, &row.resolution],
        )
        .await
        .context("writing a decision map entry")?;
        let bound = tx
            .prepare_cached(
                "DELETE FROM part_decisions WHERE message = $1 AND ordinal <= \
                 (SELECT ordinal FROM part_decisions WHERE message = $1 \
                  ORDER BY ordinal DESC LIMIT 1 OFFSET $2)",
            )
            .await
            .context("bounding the decision map")?;
        let keep = i64::try_from(limit.max(1)).unwrap_or(i64::MAX);
        tx.execute(&bound, &[&message, &keep])
            .await
            .context("bounding the decision map")?;
    }
    Ok(())
}

/// A session's messages with their parts, in order. A part whose JSON cannot be read is
/// rebuilt from what can be: its columns, the readable fields, and the decision map.
pub(crate) async fn messages(
    client: &ClientWrapper,
    session_id: &str,
) -> Result<Vec<Message>, StoreError> {
    let stmt = client
        .prepare_cached(
            "SELECT m.id, m.message_id, m.role, p.tool_call_id, p.tool_name, p.part, \
                    d.decision, d.resolution \
             FROM messages m \
             LEFT JOIN tool_parts p ON p.message = m.id \
             LEFT JOIN part_decisions d ON d.message = p.message AND d.tool_call_id = p.tool_call_id \
             WHERE m.session_id = $1 ORDER BY m.id, p.ordinal",
        )
        .await
        .context("reading messages")?;
    let rows = client
        .query(&stmt, &[&session_id])
        .await
        .context("reading messages")?;
    let mut out: Vec<(i64, Message)> = Vec::new();
    for row in rows {
        let id: i64 = row.try_get(0).context("message id")?;
        if out.last().is_none_or(|(last, _)| *last != id) {
            let message = Message {
                id: row.try_get(1).context("message id")?,
                role: row.try_get(2).context("message role")?,
                parts: Vec::new(),
            };
            out.push((id, message));
        }
        let Some(tool_call_id) = row.try_get::<_, Option<&str>>(3).context("tool call id")? else {
            continue;
        };
        let stored = StoredPart {
            tool_call_id,
            tool_name: row.try_get(4).context("tool name")?,
            json: row.try_get(5).context("tool part")?,
            decision: row.try_get(6).context("decision map entry")?,
            resolution: row.try_get(7).context("decision map entry")?,
        };
        if let Some((_, message)) = out.last_mut() {
            message.parts.push(MessagePart::Tool(stored.restore()));
        }
    }
    Ok(out.into_iter().map(|(_, m)| m).collect())
}

/// Records a pending approval; a request put again replaces the earlier one and moves last.
pub(crate) async fn put_pending(
    client: &ClientWrapper,
    row: &PendingRow,
) -> Result<(), StoreError> {
    let stmt = client
        .prepare_cached(
            "INSERT INTO pending_approvals (tool_call_id, session_id, message_id, request) \
             VALUES ($1, $2, $3, $4) \
             ON CONFLICT (tool_call_id) DO UPDATE SET session_id = excluded.session_id, \
             message_id = excluded.message_id, request = excluded.request, ordinal = DEFAULT",
        )
        .await
        .context("recording a pending approval")?;
    client
        .execute(
            &stmt,
            &[
                &row.tool_call_id,
                &row.session_id,
                &row.message_id,
                &row.request,
            ],
        )
        .await
        .context("recording a pending approval")?;
    Ok(())
}

/// Forgets a pending approval (nothing happens for an unknown id).
pub(crate) async fn remove_pending(
    client: &ClientWrapper,
    tool_call_id: &str,
) -> Result<(), StoreError> {
    let stmt = client
        .prepare_cached("DELETE FROM pending_approvals WHERE tool_call_id = $1")
        .await
        .context("removing a pending approval")?;
    client
        .execute(&stmt, &[&tool_call_id])
        .await
        .context("removing a pending approval")?;
    Ok(())
}

/// Every pending approval, oldest first.
///
/// # Errors
///
/// A request that cannot be read is an error naming it, never skipped: a pending approval
/// is never lost silently.
pub(crate) async fn pending(client: &ClientWrapper) -> Result<Vec<PendingApproval>, StoreError> {
    let rows = client
        .query(
            "SELECT tool_call_id, session_id, message_id, request FROM pending_approvals \
             ORDER BY ordinal",
            &[],
        )
        .await
        .context("reading pending approvals")?;
    pending_rows(rows)
}

/// The pending approval of one tool call, `None` when there is none.
///
/// # Errors
///
/// As [`pending`].
pub(crate) async fn pending_one(
    client: &ClientWrapper,
    tool_call_id: &str,
) -> Result<Option<PendingApproval>, StoreError> {
    let rows = client
        .query(
            "SELECT tool_call_id, session_id, message_id, request FROM pending_approvals \
             WHERE tool_call_id = $1",
            &[&tool_call_id],
        )
        .await
        .context("reading a pending approval")?;
    Ok(pending_rows(rows)?.pop())
}

fn pending_rows(rows: Vec<tokio_postgres::Row>) -> Result<Vec<PendingApproval>, StoreError> {
    let mut out = Vec::with_capacity(rows.len());
    for row in rows {
        let id: String = row.try_get(0).context("pending approval")?;
        let request: String = row.try_get(3).context("pending approval")?;
        let request = serde_json::from_str(&request).map_err(|e| {
            corrupt(
                format!(
                    "the pending approval of tool call \"{id}\" cannot be read (resolve it by \
                     deleting its row from pending_approvals)"
                ),
                e,
            )
        })?;
        out.push(PendingApproval {
            session_id: row
                .try_get::<_, String>(1)
                .context("pending approval")?
                .into(),
            message_id: row.try_get(2).context("pending approval")?,
            request,
        });
    }
    Ok(out)
}

/// Records a grant.
pub(crate) async fn put_grant(
    client: &ClientWrapper,
    session_id: &str,
    body: &str,
) -> Result<(), StoreError> {
    client
        .execute(
            "INSERT INTO grants (session_id, body) VALUES ($1, $2)",
            &[&session_id, &body],
        )
        .await
        .context("recording a grant")?;
    Ok(())
}

/// Every readable grant with its row id, oldest first; an unreadable one is logged and left
/// out (it would only have allowed more).
fn readable_grants(rows: Vec<tokio_postgres::Row>) -> Result<Vec<(i64, Grant)>, StoreError> {
    let mut out = Vec::with_capacity(rows.len());
    for row in rows {
        let id: i64 = row.try_get(0).context("grant id")?;
        let body: String = row.try_get(1).context("grant")?;
        match serde_json::from_str(&body) {
            Ok(grant) => out.push((id, grant)),
            Err(e) => tracing::warn!(grant = id, error = %e, "an unreadable grant is ignored"),
        }
    }
    Ok(out)
}

/// Every grant, oldest first.
pub(crate) async fn grants(client: &ClientWrapper) -> Result<Vec<Grant>, StoreError> {
    let rows = client
        .query("SELECT id, body FROM grants ORDER BY id", &[])
        .await
        .context("reading grants")?;
    Ok(readable_grants(rows)?.into_iter().map(|(_, g)| g).collect())
}

/// Deletes the grants whose id (recorded, or derived for grants recorded without one) is
/// `grant_id`; answers whether one went.
pub(crate) async fn remove_grant(
    client: &mut ClientWrapper,
    grant_id: &str,
) -> Result<bool, StoreError> {
    let tx = client
        .transaction()
        .await
        .context("starting to revoke a grant")?;
    let rows = tx
        .query("SELECT id, body FROM grants ORDER BY id FOR UPDATE", &[])
        .await
        .context("reading grants")?;
    let doomed: Vec<i64> = readable_grants(rows)?
        .into_iter()
        .filter(|(_, g)| g.clone().with_id().id == grant_id)
        .map(|(id, _)| id)
        .collect();
    let removed = if doomed.is_empty() {
        0
    } else {
        tx.execute("DELETE FROM grants WHERE id = ANY($1)", &[&doomed])
            .await
            .context("revoking a grant")?
    };
    tx.commit().await.context("committing a revocation")?;
    Ok(removed > 0)
}

/// An event ready to append to its session's log.
pub(crate) struct EventRow {
    session_id: String,
    at: i64,
    body: String,
}

impl EventRow {
    /// Encodes an event of a session, refusing an over-long session id.
    pub(crate) fn new(session_id: &str, event: &Event) -> Result<Self, StoreError> {
        check_session_id(session_id)?;
        Ok(Self {
            session_id: session_id.to_owned(),
            at: now_millis(),
            body: to_json("an event", event)?,
        })
    }
}

/// Appends an event: takes the session's next position from its `event_heads` row (locked
/// until the commit, so positions have no gaps and follow the commits), drops the events
/// beyond the latest `retention`, and notifies [`EVENT_CHANNEL`] with the commit. Returns the
/// event's position once committed.
pub(crate) async fn append_event(
    client: &mut ClientWrapper,
    row: &EventRow,
    retention: usize,
) -> Result<u64, StoreError> {
    let tx = client
        .transaction()
        .await
        .context("starting an event append")?;
    let seq = append_event_in(&tx, row, retention).await?;
    tx.commit().await.context("committing an event")?;
    Ok(seq)
}

/// [`append_event`] inside `tx`: the event's position, durable (and notified) once `tx`
/// commits.
pub(crate) async fn append_event_in(
    tx: &deadpool_postgres::Transaction<'_>,
    row: &EventRow,
    retention: usize,
) -> Result<u64, StoreError> {
    let next = tx
        .prepare_cached(
            "INSERT INTO event_heads (session_id, last_seq) VALUES ($1, 1) \
             ON CONFLICT (session_id) DO UPDATE SET last_seq = event_heads.last_seq + 1 \
             RETURNING last_seq",
        )
        .await
        .context("numbering an event")?;
    let seq: i64 = tx
        .query_one(&next, &[&row.session_id])
        .await
        .context("numbering an event")?
        .try_get(0)
        .context("event seq")?;
    let insert = tx
        .prepare_cached("INSERT INTO events (session_id, seq, at, body) VALUES ($1, $2, $3, $4)")
        .await
        .context("appending an event")?;
    tx.execute(&insert, &[&row.session_id, &seq, &row.at, &row.body])
        .await
        .context("appending an event")?;
    let keep = i64::try_from(retention.max(1)).unwrap_or(i64::MAX);
    if seq > keep {
        let trim = tx
            .prepare_cached("DELETE FROM events WHERE session_id = $1 AND seq <= $2")
            .await
            .context("dropping old events")?;
        tx.execute(&trim, &[&row.session_id, &(seq - keep)])
            .await
            .context("dropping old events")?;
    }
    let notify = tx
        .prepare_cached("SELECT pg_notify($1, $2)")
        .await
        .context("notifying an event")?;
    let payload = format!("{}:{seq}", row.session_id);
    tx.execute(&notify, &[&EVENT_CHANNEL, &payload])
        .await
        .context("notifying an event")?;
    from_db(seq, "event seq")
}

/// At most `limit` events of a session after `after_seq`, oldest first.
pub(crate) async fn events_since(
    client: &ClientWrapper,
    session_id: &str,
    after_seq: u64,
    limit: usize,
) -> Result<Vec<StoredEvent>, StoreError> {
    let limit = i64::try_from(limit).unwrap_or(i64::MAX);
    let stmt = client
        .prepare_cached(
            "SELECT seq, body FROM events WHERE session_id = $1 AND seq > $2 \
             ORDER BY seq LIMIT $3",
        )
        .await
        .context("reading events")?;
    let rows = client
        .query(&stmt, &[&session_id, &to_db(after_seq), &limit])
        .await
        .context("reading events")?;
    let mut out = Vec::with_capacity(rows.len());
    for row in rows {
        let seq = from_db(row.try_get(0).context("event seq")?, "event seq")?;
        let body: String = row.try_get(1).context("event")?;
        let event = serde_json::from_str(&body).map_err(|e| {
            corrupt(
                format!("event {seq} of session \"{session_id}\" cannot be read"),
                e,
            )
        })?;
        out.push(StoredEvent { seq, event });
    }
    Ok(out)
}
