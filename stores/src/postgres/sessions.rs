//! The workspace and its sessions on PostgreSQL: the settings and patterns as one document,
//! each session a row of its own, idle empty sessions expiring.

use std::collections::{HashMap, HashSet};

use deadpool_postgres::ClientWrapper;
use serde::Serialize;
use tokio_postgres::IsolationLevel;
use warrant_core::event::now_millis;
use warrant_core::store::StoreError;
use warrant_core::workspace::{
    Pattern, SessionRecord, WorkspaceSettings, WorkspaceState, check_session_id,
};

use super::error::Context;
use crate::audit_chain::canonical_json;
use crate::error::corrupt;

/// A value's JSON with sorted keys, so an unchanged value always has the same text and a
/// save can tell what changed.
fn stable_json(what: &str, value: &impl Serialize) -> Result<String, StoreError> {
    let value =
        serde_json::to_value(value).map_err(|e| corrupt(format!("cannot encode {what}"), e))?;
    Ok(canonical_json(&value))
}

/// A session ready to write.
pub(crate) struct SessionRow {
    id: String,
    json: String,
}

impl SessionRow {
    /// Encodes a session, refusing an over-long id.
    pub(crate) fn new(session: &SessionRecord) -> Result<Self, StoreError> {
        check_session_id(&session.id)?;
        Ok(Self {
            id: session.id.as_str().to_owned(),
            json: stable_json("a session", session)?,
        })
    }
}

/// The workspace document as stored: everything but the sessions.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Document<'a> {
    settings: &'a WorkspaceSettings,
    patterns: &'a [Pattern],
}

/// A workspace save, encoded: its document, the sessions to add or change, and those that
/// only change when still stored.
pub(crate) struct Change {
    document: String,
    /// Ids and JSON of the sessions to insert or replace, in the workspace's order.
    upsert: (Vec<String>, Vec<String>),
    /// Sessions this handle expired, saved back blank: replaced only if still stored.
    update_only: (Vec<String>, Vec<String>),
}

impl Change {
    /// Encodes a workspace, refusing it whole when one session id is too long. A session id
    /// listed twice is written once, with its last record, at its first place.
    pub(crate) fn new(
        workspace: &WorkspaceState,
        expired: &HashSet<String>,
    ) -> Result<Self, StoreError> {
        let document = stable_json(
            "the workspace state",
            &Document {
                settings: &workspace.settings,
                patterns: &workspace.patterns,
            },
        )?;
        let mut rows: Vec<(SessionRow, bool)> = Vec::with_capacity(workspace.sessions.len());
        let mut index: HashMap<&str, usize> = HashMap::new();
        for session in &workspace.sessions {
            let row = SessionRow::new(session)?;
            let stays_expired = session.is_blank() && expired.contains(session.id.as_str());
            match index.get(session.id.as_str()) {
                Some(&i) => rows[i] = (row, stays_expired),
                None => {
                    index.insert(session.id.as_str(), rows.len());
                    rows.push((row, stays_expired));
                }
            }
        }
        let mut change = Self {
            document,
            upsert: (Vec::new(), Vec::new()),
            update_only: (Vec::new(), Vec::new()),
        };
        for (row, stays_expired) in rows {
            let list = if stays_expired {
                &mut change.update_only
            } else {
                &mut change.upsert
            };
            list.0.push(row.id);
            list.1.push(row.json);
        }
        Ok(change)
    }
}

/// Saves a workspace in one transaction: the document when it changed, new sessions at the
/// end, changed ones in place (and touched); sessions it does not hold are kept.
pub(crate) async fn save(client: &mut ClientWrapper, change: &Change) -> Result<(), StoreError> {
    let now = now_millis();
    let tx = client
        .transaction()
        .await
        .context("starting a workspace save")?;
    tx.execute(
        "INSERT INTO workspace (id, state) VALUES (1, $1) \
         ON CONFLICT (id) DO UPDATE SET state = excluded.state \
         WHERE workspace.state IS DISTINCT FROM excluded.state",
        &[&change.document],
    )
    .await
    .context("saving the workspace")?;
    if !change.upsert.0.is_empty() {
        let stmt = tx
            .prepare_cached(
                "INSERT INTO sessions (id, record, touched_at) \
                 SELECT u.id, u.record, $3 \
                 FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS u(id, record, n) \
                 ORDER BY u.n \
                 ON CONFLICT (id) DO UPDATE SET record = excluded.record, \
                 touched_at = excluded.touched_at \
                 WHERE sessions.record IS DISTINCT FROM excluded.record",
            )
            .await
            .context("saving sessions")?;
        tx.execute(&stmt, &[&change.upsert.0, &change.upsert.1, &now])
            .await
            .context("saving sessions")?;
    }
    if !change.update_only.0.is_empty() {
        tx.execute(
            "UPDATE sessions s SET record = u.record, touched_at = $3 \
             FROM unnest($1::text[], $2::text[]) AS u(id, record) \
             WHERE s.id = u.id AND s.record IS DISTINCT FROM u.record",
            &[&change.update_only.0, &change.update_only.1, &now],
        )
        .await
        .context("saving sessions")?;
    }
    tx.commit().await.context("committing the workspace")
}

/// Inserts or replaces one session (a replaced session keeps its place) and touches it.
pub(crate) async fn put(client: &ClientWrapper, row: &SessionRow) -> Result<(), StoreError> {
    let stmt = client
        .prepare_cached(
            "INSERT INTO sessions (id, record, touched_at) VALUES ($1, $2, $3) \
             ON CONFLICT (id) DO UPDATE SET record = excluded.record, \
             touched_at = excluded.touched_at",
        )
        .await
        .context("writing a session")?;
    client
        .execute(&stmt, &[&row.id, &row.json, &now_millis()])
        .await
        .context("writing a session")?;
    Ok(())
}

/// The workspace: its document with the session rows (one snapshot), `None` before anything
/// was saved.
///
/// # Errors
///
/// A document or session that cannot be read is an error rather than a silent reset.
pub(crate) async fn load_workspace(
    client: &mut ClientWrapper,
) -> Result<Option<WorkspaceState>, StoreError> {
    let tx = client
        .build_transaction()
        .isolation_level(IsolationLevel::RepeatableRead)
        .read_only(true)
        .start()
        .await
        .context("starting a read")?;
    let body: Option<String> = tx
        .query_opt("SELECT state FROM workspace WHERE id = 1", &[])
        .await
        .context("reading the workspace")?
        .map(|r| r.try_get(0))
        .transpose()
        .context("reading the workspace")?;
    let rows = tx
        .query("SELECT id, record FROM sessions ORDER BY ordinal", &[])
        .await
        .context("reading sessions")?;
    tx.commit().await.context("ending a read")?;
    let mut sessions = Vec::with_capacity(rows.len());
    for row in rows {
        let id: String = row.try_get(0).context("session id")?;
        let record: String = row.try_get(1).context("session")?;
        let session = serde_json::from_str(&record)
            .map_err(|e| corrupt(format!("session \"{id}\" cannot be read"), e))?;
        sessions.push(session);
    }
    let mut state = match body {
        Some(body) => serde_json::from_str::<WorkspaceState>(&body)
            .map_err(|e| corrupt("the saved workspace state cannot be read", e))?,
        None if sessions.is_empty() => return Ok(None),
        None => WorkspaceState::default(),
    };
    state.sessions = sessions;
    Ok(Some(state))
}

/// Deletes, in one transaction, the sessions that are blank, hold no message, pending
/// approval or grant, and were neither written nor sent an event since `untouched_since`;
/// their events and event numbering go with them.
pub(crate) async fn expire(
    client: &mut ClientWrapper,
    untouched_since: i64,
) -> Result<Vec<String>, StoreError> {
    let tx = client
        .transaction()
        .await
        .context("starting to expire sessions")?;
    let rows = tx
        .query(
            "SELECT id, record FROM sessions s WHERE touched_at < $1 \
             AND NOT EXISTS (SELECT 1 FROM messages m WHERE m.session_id = s.id) \
             AND NOT EXISTS (SELECT 1 FROM pending_approvals p WHERE p.session_id = s.id) \
             AND NOT EXISTS (SELECT 1 FROM grants g WHERE g.session_id = s.id) \
             AND NOT EXISTS (SELECT 1 FROM events e WHERE e.session_id = s.id AND e.at >= $1) \
             ORDER BY ordinal FOR UPDATE OF s",
            &[&untouched_since],
        )
        .await
        .context("finding idle sessions")?;
    let mut expired = Vec::new();
    for row in rows {
        let id: String = row.try_get(0).context("session id")?;
        let record: String = row.try_get(1).context("session")?;
        // An unreadable record is kept: only a session known to be blank expires.
        if serde_json::from_str::<SessionRecord>(&record).is_ok_and(|s| s.is_blank()) {
            expired.push(id);
        }
    }
    if !expired.is_empty() {
        for sql in [
            "DELETE FROM sessions WHERE id = ANY($1)",
            "DELETE FROM events WHERE session_id = ANY($1)",
            "DELETE FROM event_heads WHERE session_id = ANY($1)",
        ] {
            tx.execute(sql, &[&expired])
                .await
                .context("expiring sessions")?;
        }
    }
    tx.commit().await.context("committing expired sessions")?;
    Ok(expired)
}
