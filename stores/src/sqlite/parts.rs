//! Messages and their tool parts, and the bounded per-message decision map that serves when
//! a part's JSON can no longer be restored.

use rusqlite::types::ValueRef;
use rusqlite::{Connection, OptionalExtension, Row, params};
use warrant_core::part::{Message, MessagePart};
use warrant_core::store::StoreError;

use super::known::Known;
use crate::error::{Context, corrupt};
pub(crate) use crate::rows::PartRow;
use crate::stored_part::StoredPart;

/// Inserts or replaces a part (its message created when new, role `assistant`), and keeps
/// its decision in the message's decision map: the `decision` and `resolution` columns of the
/// `limit` newest parts of the message, those above the message's `map_floor` (a part written
/// without either keeps what the map held for it).
///
/// `known` gives the message's row id and last ordinal when the writer knows them (they are
/// read otherwise), and gets them.
pub(crate) fn upsert(
    conn: &Connection,
    row: &PartRow,
    limit: usize,
    known: &mut Known,
) -> Result<(), StoreError> {
    // Most parts land in a message that exists: looked up first, created only when missing.
    let message = match known.message(&row.session_id, &row.message_id) {
        Some(message) => message,
        None => message_or_new(conn, row)?,
    };
    known.set_message(&row.session_id, &row.message_id, message);
    write_part(conn, row, limit, message, known)
}

/// The row id of the part's message, created (role `assistant`) when missing.
fn message_or_new(conn: &Connection, row: &PartRow) -> Result<i64, StoreError> {
    Ok(match message_of(conn, row)? {
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
    })
}

/// Inserts or replaces a part in its message (see [`upsert`]).
fn write_part(
    conn: &Connection,
    row: &PartRow,
    limit: usize,
    message: i64,
    known: &mut Known,
) -> Result<(), StoreError> {
    let decided = row.decision.is_some() || row.resolution.is_some();
    if let Some(Existing { id, ordinal }) = existing(conn, message, &row.tool_call_id)? {
        if decided {
            lower_floor_below(conn, message, ordinal)?;
        }
        conn.prepare_cached(
            "UPDATE tool_parts SET part = ?2, tool_name = ?3, \
             decision = CASE WHEN ?6 THEN ?4 ELSE decision END, \
             resolution = CASE WHEN ?6 THEN ?5 ELSE resolution END \
             WHERE id = ?1",
        )
        .and_then(|mut s| {
            s.execute(params![
                id,
                row.json,
                row.tool_name,
                row.decision,
                row.resolution,
                decided
            ])
        })
        .context("writing a tool part")?;
        return Ok(());
    }
    let ordinal: i64 = match known.ordinal(message) {
        Some(last) => last + 1,
        None => conn
            .prepare_cached(
                "SELECT coalesce(max(ordinal), 0) + 1 FROM tool_parts WHERE message = ?1",
            )
            .and_then(|mut s| s.query_row([message], |r| r.get(0)))
            .context("numbering a tool part")?,
    };
    conn.prepare_cached(
        "INSERT INTO tool_parts (message, tool_call_id, ordinal, part, tool_name, decision, resolution) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
    )
    .and_then(|mut s| {
        s.execute(params![
            message,
            row.tool_call_id,
            ordinal,
            row.json,
            row.tool_name,
            row.decision,
            row.resolution
        ])
    })
    .context("writing a tool part")?;
    // The part's entry under its tool call id: beside the id's evaluation claim, so a
    // decision's claim and part dirty one leaf of `calls`. A second part of the id in this
    // message is refused by its key (the lookup above found none, so none is written).
    let id = conn.last_insert_rowid();
    conn.prepare_cached(
        "INSERT INTO calls (tool_call_id, kind, message, target) VALUES (?1, 1, ?2, ?3)",
    )
    .and_then(|mut s| s.execute(params![row.tool_call_id, message, id]))
    .context("indexing a tool part")?;
    known.set_ordinal(message, ordinal);
    // Parts are numbered one after the other and never removed: the part that falls out of
    // the map is the one `limit` places back. (A limit lowered between two opens applies to
    // the parts written after it.) When that part is the one just above the message's floor
    // (always, while the limit stays), the floor moves up to it: the message's row is written
    // and the old part's page is not. Otherwise (the limit changed) its columns are cleared.
    let limit = i64::try_from(limit.max(1)).unwrap_or(i64::MAX);
    if ordinal > limit {
        let out = ordinal - limit;
        let moved = conn
            .prepare_cached(
                "UPDATE messages SET map_floor = ?2 WHERE id = ?1 AND map_floor = ?2 - 1",
            )
            .and_then(|mut s| s.execute(params![message, out]))
            .context("bounding the decision map")?;
        if moved == 0 {
            conn.prepare_cached(
                "UPDATE tool_parts SET decision = NULL, resolution = NULL \
                 WHERE message = ?1 AND ordinal = ?2 \
                 AND (decision IS NOT NULL OR resolution IS NOT NULL)",
            )
            .and_then(|mut s| s.execute(params![message, out]))
            .context("bounding the decision map")?;
        }
    }
    Ok(())
}

/// A part already written: its row id and its ordinal in its message.
struct Existing {
    id: i64,
    ordinal: i64,
}

/// The part of a tool call id in a message, found through the id's entries in `calls`. An
/// entry naming a part that is not there (or another part) is corrupt, never taken for a
/// new part.
fn existing(
    conn: &Connection,
    message: i64,
    tool_call_id: &str,
) -> Result<Option<Existing>, StoreError> {
    let found: Option<(i64, Option<i64>)> = conn
        .prepare_cached(
            "SELECT c.target, p.ordinal FROM calls c LEFT JOIN tool_parts p \
             ON p.id = c.target AND p.message = c.message AND p.tool_call_id = c.tool_call_id \
             WHERE c.tool_call_id = ?2 AND c.kind = 1 AND c.message = ?1",
        )
        .and_then(|mut s| {
            s.query_row(params![message, tool_call_id], |r| {
                Ok((r.get(0)?, r.get(1)?))
            })
            .optional()
        })
        .context("finding a tool part")?;
    match found {
        None => Ok(None),
        Some((id, Some(ordinal))) => Ok(Some(Existing { id, ordinal })),
        Some((id, None)) => Err(corrupt(
            "a tool part",
            format!(
                "the entry of tool call \"{tool_call_id}\" names part {id}, which is not that \
                 call's part in its message"
            ),
        )),
    }
}

/// Before a part at or below its message's floor takes a decision again (the map keeps a
/// decision written to a part after it fell out, as it did when falling out cleared the
/// part's columns): clears the columns of the parts between it and the floor, then puts the
/// floor just below it, so the map serves the part and nothing else it did not serve.
fn lower_floor_below(conn: &Connection, message: i64, ordinal: i64) -> Result<(), StoreError> {
    let floor: i64 = conn
        .prepare_cached("SELECT map_floor FROM messages WHERE id = ?1")
        .and_then(|mut s| s.query_row([message], |r| r.get(0)))
        .context("reading the decision map's floor")?;
    if ordinal > floor {
        return Ok(());
    }
    conn.prepare_cached(
        "UPDATE tool_parts SET decision = NULL, resolution = NULL \
         WHERE message = ?1 AND ordinal > ?2 AND ordinal <= ?3 \
         AND (decision IS NOT NULL OR resolution IS NOT NULL)",
    )
    .and_then(|mut s| s.execute(params![message, ordinal, floor]))
    .context("lowering the decision map's floor")?;
    conn.prepare_cached("UPDATE messages SET map_floor = ?2 WHERE id = ?1")
        .and_then(|mut s| s.execute(params![message, ordinal - 1]))
        .context("lowering the decision map's floor")?;
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
/// rebuilt from what can be: its columns, the readable fields, and the decision map (the
/// columns of a part above its message's floor).
///
/// The rows come in the order the indexes give (messages by their id in the session, each
/// message's parts by ordinal), so SQLite streams them without sorting the parts' JSON; the
/// few messages are put in row order afterwards. Text is decoded where SQLite holds it.
pub(crate) fn messages(conn: &Connection, session_id: &str) -> Result<Vec<Message>, StoreError> {
    let mut stmt = conn
        .prepare_cached(
            "SELECT m.id, m.message_id, m.role, p.tool_call_id, p.tool_name, p.part, \
                    CASE WHEN p.ordinal > m.map_floor THEN p.decision END, \
                    CASE WHEN p.ordinal > m.map_floor THEN p.resolution END \
             FROM messages m \
             LEFT JOIN tool_parts p ON p.message = m.id \
             WHERE m.session_id = ?1 ORDER BY m.message_id, p.ordinal",
        )
        .context("reading messages")?;
    let mut rows = stmt.query([session_id]).context("reading messages")?;
    let mut out: Vec<(i64, Message)> = Vec::new();
    while let Some(row) = rows.next().context("reading messages")? {
        let id: i64 = row.get(0).context("message id")?;
        if out.last().is_none_or(|(last, _)| *last != id) {
            // Messages of a session tend to hold alike numbers of parts: room for as many as
            // the last one held spares most of the growing (and copying) of the list.
            let room = out.last().map_or(0, |(_, m)| m.parts.len());
            let message = Message {
                id: row.get(1).context("message id")?,
                role: row.get(2).context("message role")?,
                parts: Vec::with_capacity(room),
            };
            out.push((id, message));
        }
        let Some(tool_call_id) = text(row, 3, "tool call id")? else {
            continue;
        };
        let stored = StoredPart {
            tool_call_id,
            tool_name: required(row, 4, "tool name")?,
            json: required(row, 5, "tool part")?,
            decision: text(row, 6, "decision map entry")?,
            resolution: text(row, 7, "decision map entry")?,
        };
        let part = MessagePart::Tool(stored.restore());
        if let Some((_, message)) = out.last_mut() {
            message.parts.push(part);
        }
    }
    out.sort_unstable_by_key(|(id, _)| *id);
    Ok(out.into_iter().map(|(_, m)| m).collect())
}

/// A text column borrowed from the row (`None` when NULL); a column that is not text is an
/// error, as reading it into a `String` would be.
fn text<'r>(row: &'r Row<'_>, index: usize, what: &str) -> Result<Option<&'r str>, StoreError> {
    match row.get_ref(index).context(what)? {
        ValueRef::Null => Ok(None),
        ValueRef::Text(bytes) => std::str::from_utf8(bytes)
            .map(Some)
            .map_err(|e| corrupt(what, e)),
        other => Err(corrupt(
            what,
            format!("a {} where text was stored", other.data_type()),
        )),
    }
}

/// A text column that may not be NULL, borrowed from the row.
fn required<'r>(row: &'r Row<'_>, index: usize, what: &str) -> Result<&'r str, StoreError> {
    text(row, index, what)?.ok_or_else(|| corrupt(what, "NULL where text was stored"))
}
