//! Messages and their tool parts, and the bounded per-message decision map that serves when
//! a part's JSON can no longer be restored.

use rusqlite::{Connection, OptionalExtension, params};
use warrant_core::part::{Message, MessagePart};
use warrant_core::store::StoreError;

use crate::error::{Context, corrupt};
pub(crate) use crate::rows::PartRow;
use crate::stored_part::StoredPart;

/// Inserts or replaces a part (its message created when new, role `assistant`), and keeps
/// its decision in the message's map, which holds the `limit` newest calls of the message.
pub(crate) fn upsert(conn: &Connection, row: &PartRow, limit: usize) -> Result<(), StoreError> {
    // Most parts land in a message that exists: looked up first, created only when missing.
    let message = match message_of(conn, row)? {
        Some(message) => message,
        None => {
            conn.prepare_cached(
                "INSERT INTO messages (session_id, message_id, role) VALUES (?1, ?2, 'assistant') \
                 ON CONFLICT (session_id, message_id) DO NOTHING",
            )
            .and_then(|mut s| s.execute(params![row.session_id, row.message_id]))
            .context("creating a message")?;
            message_of(conn, row)?
                .ok_or_else(|| corrupt("a message just created", "it cannot be found"))?
        }
    };
    conn.prepare_cached(
        "INSERT INTO tool_parts (message, tool_call_id, ordinal, part, tool_name) \
         VALUES (?1, ?2, (SELECT coalesce(max(ordinal), 0) + 1 FROM tool_parts WHERE message = ?1), ?3, ?4) \
         ON CONFLICT (message, tool_call_id) DO UPDATE SET part = excluded.part, tool_name = excluded.tool_name",
    )
    .and_then(|mut s| s.execute(params![message, row.tool_call_id, row.json, row.tool_name]))
    .context("writing a tool part")?;
    if row.decision.is_none() && row.resolution.is_none() {
        return Ok(());
    }
    conn.prepare_cached(
        "INSERT INTO part_decisions (message, tool_call_id, ordinal, decision, resolution) \
         SELECT message, tool_call_id, ordinal, ?3, ?4 FROM tool_parts \
         WHERE message = ?1 AND tool_call_id = ?2 \
         ON CONFLICT (message, tool_call_id) DO UPDATE \
         SET decision = excluded.decision, resolution = excluded.resolution",
    )
    .and_then(|mut s| {
        s.execute(params![
            message,
            row.tool_call_id,
            row.decision,
            row.resolution
        ])
    })
    .context("writing a decision map entry")?;
    let limit = i64::try_from(limit.max(1)).unwrap_or(i64::MAX);
    conn.prepare_cached(
        "DELETE FROM part_decisions WHERE message = ?1 AND ordinal <= \
         (SELECT ordinal FROM part_decisions WHERE message = ?1 ORDER BY ordinal DESC LIMIT 1 OFFSET ?2)",
    )
    .and_then(|mut s| s.execute(params![message, limit]))
    .context("bounding the decision map")?;
    Ok(())
}

/// The row id of the part's message, if the message exists.
fn message_of(conn: &Connection, row: &PartRow) -> Result<Option<i64>, StoreError> {
    conn.prepare_cached("SELECT id FROM messages WHERE session_id = ?1 AND message_id = ?2")
        .and_then(|mut s| {
            s.query_row(params![row.session_id, row.message_id], |r| r.get(0))
                .optional()
        })
        .context("finding a message")
}

/// A session's messages with their parts, in order. A part whose JSON cannot be read is
/// rebuilt from what can be: its columns, the readable fields, and the decision map.
pub(crate) fn messages(conn: &Connection, session_id: &str) -> Result<Vec<Message>, StoreError> {
    let mut stmt = conn
        .prepare_cached(
            "SELECT m.id, m.message_id, m.role, p.tool_call_id, p.tool_name, p.part, \
                    d.decision, d.resolution \
             FROM messages m \
             LEFT JOIN tool_parts p ON p.message = m.id \
             LEFT JOIN part_decisions d ON d.message = p.message AND d.tool_call_id = p.tool_call_id \
             WHERE m.session_id = ?1 ORDER BY m.id, p.ordinal",
        )
        .context("reading messages")?;
    let mut rows = stmt.query([session_id]).context("reading messages")?;
    let mut out: Vec<(i64, Message)> = Vec::new();
    while let Some(row) = rows.next().context("reading messages")? {
        let id: i64 = row.get(0).context("message id")?;
        if out.last().is_none_or(|(last, _)| *last != id) {
            let message = Message {
                id: row.get(1).context("message id")?,
                role: row.get(2).context("message role")?,
                parts: Vec::new(),
            };
            out.push((id, message));
        }
        let Some(tool_call_id) = row.get::<_, Option<String>>(3).context("tool call id")? else {
            continue;
        };
        let stored = StoredPart {
            tool_call_id,
            tool_name: row.get(4).context("tool name")?,
            json: row.get(5).context("tool part")?,
            decision: row.get(6).context("decision map entry")?,
            resolution: row.get(7).context("decision map entry")?,
        };
        if let Some((_, message)) = out.last_mut() {
            message.parts.push(MessagePart::Tool(stored.restore()));
        }
    }
    Ok(out.into_iter().map(|(_, m)| m).collect())
}
