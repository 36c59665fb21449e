//! Pending approvals, grants and the session event log.

use std::collections::HashMap;

use rusqlite::{Connection, Statement, params};
use warrant_core::event::Event;
use warrant_core::grant::Grant;
use warrant_core::ids::SessionId;
use warrant_core::store::{PendingApproval, StoreError, StoredEvent};
use warrant_core::workspace::check_session_id;

use super::known::Known;
use crate::error::{Context, corrupt, to_json};
pub(crate) use crate::rows::PendingRow;

/// Records a pending approval; a request put again replaces the earlier one and moves last.
pub(crate) fn put_pending(conn: &Connection, row: &PendingRow) -> Result<(), StoreError> {
    conn.prepare_cached(
        "INSERT OR REPLACE INTO pending_approvals (tool_call_id, session_id, message_id, request) \
         VALUES (?1, ?2, ?3, ?4)",
    )
    .and_then(|mut s| {
        s.execute(params![
            row.tool_call_id,
            row.session_id,
            row.message_id,
            row.request
        ])
    })
    .context("recording a pending approval")?;
    Ok(())
}

/// Forgets a pending approval (nothing happens for an unknown id).
pub(crate) fn remove_pending(conn: &Connection, tool_call_id: &str) -> Result<(), StoreError> {
    conn.prepare_cached("DELETE FROM pending_approvals WHERE tool_call_id = ?1")
        .and_then(|mut s| s.execute([tool_call_id]))
        .context("removing a pending approval")?;
    Ok(())
}

/// Every pending approval, oldest first.
///
/// # Errors
///
/// A request that cannot be read is an error naming it, never skipped: a pending approval
/// is never lost silently.
pub(crate) fn pending(conn: &Connection) -> Result<Vec<PendingApproval>, StoreError> {
    let mut stmt = conn
        .prepare_cached(
            "SELECT tool_call_id, session_id, message_id, request FROM pending_approvals ORDER BY rowid",
        )
        .context("reading pending approvals")?;
    let rows = stmt
        .query_map([], |r| {
            Ok((
                r.get::<_, String>(0)?,
                SessionId::from(r.get::<_, String>(1)?),
                r.get(2)?,
                r.get::<_, String>(3)?,
            ))
        })
        .context("reading pending approvals")?;
    let mut out = Vec::new();
    for row in rows {
        let (id, session_id, message_id, request) = row.context("reading pending approvals")?;
        let request = serde_json::from_str(&request).map_err(|e| {
            corrupt(format!("the pending approval of tool call \"{id}\" cannot be read (resolve it by deleting its row from pending_approvals)"), e)
        })?;
        out.push(PendingApproval {
            session_id,
            message_id,
            request,
        });
    }
    Ok(out)
}

/// Records a grant.
pub(crate) fn put_grant(conn: &Connection, session_id: &str, body: &str) -> Result<(), StoreError> {
    conn.prepare_cached("INSERT INTO grants (session_id, body) VALUES (?1, ?2)")
        .and_then(|mut s| s.execute(params![session_id, body]))
        .context("recording a grant")?;
    Ok(())
}

/// Deletes the grant whose id (recorded, or derived for grants recorded without one) is
/// `grant_id`; answers how many rows went.
pub(crate) fn remove_grant(conn: &Connection, grant_id: &str) -> Result<u64, StoreError> {
    let mut removed = 0;
    for (row_id, _) in stored_grants(conn)?
        .into_iter()
        .filter(|(_, g)| g.clone().with_id().id == grant_id)
    {
        removed += conn
            .prepare_cached("DELETE FROM grants WHERE id = ?1")
            .and_then(|mut s| s.execute(params![row_id]))
            .context("revoking a grant")?;
    }
    Ok(u64::try_from(removed).unwrap_or(u64::MAX))
}

/// Every grant, oldest first. A grant that cannot be read is left out (it would only have
/// allowed more) and logged.
pub(crate) fn grants(conn: &Connection) -> Result<Vec<Grant>, StoreError> {
    Ok(stored_grants(conn)?.into_iter().map(|(_, g)| g).collect())
}

/// Every readable grant with its row id, oldest first; an unreadable one is logged and left
/// out.
fn stored_grants(conn: &Connection) -> Result<Vec<(i64, Grant)>, StoreError> {
    let mut stmt = conn
        .prepare_cached("SELECT id, body FROM grants ORDER BY id")
        .context("reading grants")?;
    let rows = stmt
        .query_map([], |r| Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?)))
        .context("reading grants")?;
    let mut out = Vec::new();
    for row in rows {
        let (id, body) = row.context("reading grants")?;
        match serde_json::from_str(&body) {
            Ok(grant) => out.push((id, grant)),
            Err(e) => tracing::warn!(grant = id, error = %e, "an unreadable grant is ignored"),
        }
    }
    Ok(out)
}

/// An event ready to append to its session's log.
pub(crate) struct EventRow {
    session_id: String,
    at: i64,
    body: String,
}

impl EventRow {
    /// Encodes an event of a session.
    pub(crate) fn new(session_id: &str, event: &Event) -> Result<Self, StoreError> {
        check_session_id(session_id)?;
        Ok(Self {
            session_id: session_id.to_owned(),
            at: warrant_core::event::now_millis(),
            body: to_json("an event", event)?,
        })
    }
}

/// Appends an event (see [`append_event`]), `insert` prepared from it.
pub(crate) const APPEND_EVENT: &str =
    "INSERT INTO events (session_id, seq, at, body) VALUES (?1, ?2, ?3, ?4)";

/// Appends an event and returns its seq; `known` gives the session's last seq when the writer
/// knows it (the log is read otherwise), and gets this one. The events beyond the retention
/// are dropped by [`trim_events`], once per write rather than once per event.
pub(crate) fn append_event(
    conn: &Connection,
    insert: &mut Statement<'_>,
    row: &EventRow,
    known: &mut Known,
) -> Result<u64, StoreError> {
    // Plain statements: an `INSERT … SELECT` from the table it inserts into runs the select
    // into a temporary table first and journals the statement, and `RETURNING` keeps its
    // rows in another temporary table; with four events per decision, that was a third of
    // the writer thread's instructions.
    let seq = match known.event_seq(&row.session_id) {
        Some(last) => last + 1,
        None => conn
            .prepare_cached("SELECT coalesce(max(seq), 0) + 1 FROM events WHERE session_id = ?1")
            .and_then(|mut s| s.query_row([&row.session_id], |r| r.get(0)))
            .context("numbering an event")?,
    };
    insert
        .execute(params![row.session_id, seq, row.at, row.body])
        .context("appending an event")?;
    known.set_event_seq(&row.session_id, seq);
    Ok(seq)
}

/// Drops a session's events beyond the latest `retention`, its last seq being `last`. Called
/// in the transaction that appended `last` (by its write, or once for the transaction: see
/// [`Trims`]): a reader sees the log bounded after every commit, as when each append dropped
/// what fell out.
pub(crate) fn trim_events(
    conn: &Connection,
    session_id: &str,
    last: u64,
    retention: usize,
) -> Result<(), StoreError> {
    let keep = u64::try_from(retention.max(1)).unwrap_or(u64::MAX);
    if last > keep {
        conn.prepare_cached("DELETE FROM events WHERE session_id = ?1 AND seq <= ?2")
            .and_then(|mut s| s.execute(params![session_id, last - keep]))
            .context("dropping old events")?;
    }
    Ok(())
}

/// The sessions whose event logs the writes of a transaction appended to, each with its last
/// seq, when the logs are bounded once before the commit rather than by each write: with a
/// commit holding several writes of a session (a call's announcement and its decision), most
/// `DELETE`s of old events go.
#[derive(Debug, Default)]
pub(crate) struct Trims(HashMap<String, u64>);

impl Trims {
    /// Notes that a session's log now ends at `last`.
    pub(crate) fn note(&mut self, session_id: &str, last: u64) {
        match self.0.get_mut(session_id) {
            Some(seq) => *seq = last,
            None => {
                self.0.insert(session_id.to_owned(), last);
            }
        }
    }

    /// Bounds every noted log to its latest `retention` events.
    pub(crate) fn apply(&self, conn: &Connection, retention: usize) -> Result<(), StoreError> {
        for (session_id, &last) in &self.0 {
            trim_events(conn, session_id, last, retention)?;
        }
        Ok(())
    }
}

impl EventRow {
    /// The session the event goes to.
    pub(crate) fn session_id(&self) -> &str {
        &self.session_id
    }
}

/// At most `limit` events of a session after `after_seq`, oldest first.
pub(crate) fn events_since(
    conn: &Connection,
    session_id: &str,
    after_seq: u64,
    limit: usize,
) -> Result<Vec<StoredEvent>, StoreError> {
    let limit = i64::try_from(limit).unwrap_or(i64::MAX);
    let mut stmt = conn
        .prepare_cached(
            "SELECT seq, body FROM events WHERE session_id = ?1 AND seq > ?2 ORDER BY seq LIMIT ?3",
        )
        .context("reading events")?;
    let rows = stmt
        .query_map(params![session_id, after_seq, limit], |r| {
            Ok((r.get::<_, u64>(0)?, r.get::<_, String>(1)?))
        })
        .context("reading events")?;
    let mut out = Vec::new();
    for row in rows {
        let (seq, body) = row.context("reading events")?;
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
