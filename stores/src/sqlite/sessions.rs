//! Sessions as rows of their own: a new session is one insert, never a rewrite of every
//! session; the workspace document keeps only settings and patterns. Idle empty sessions
//! expire.

use std::collections::{HashMap, HashSet};
use warrant_core::ids::SessionId;

use rusqlite::{Connection, OptionalExtension, params};
use serde::Serialize;
use warrant_core::event::now_millis;
use warrant_core::store::StoreError;
use warrant_core::workspace::{
    Pattern, SessionRecord, WorkspaceSettings, WorkspaceState, check_session_id,
};

use crate::error::{Context, corrupt, to_json};

/// A session ready to write.
#[derive(Debug, Clone)]
pub(crate) struct SessionRow {
    record: SessionRecord,
    json: String,
}

impl SessionRow {
    /// Encodes a session, refusing an over-long id.
    pub(crate) fn new(session: &SessionRecord) -> Result<Self, StoreError> {
        check_session_id(&session.id)?;
        Ok(Self {
            record: session.clone(),
            json: to_json("a session", session)?,
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

/// The workspace document's JSON (settings and patterns).
pub(crate) fn document(workspace: &WorkspaceState) -> Result<String, StoreError> {
    let doc = Document {
        settings: &workspace.settings,
        patterns: &workspace.patterns,
    };
    to_json("the workspace state", &doc)
}

/// A change of the workspace: its document when it changed, and the sessions to write.
#[derive(Debug, Clone, Default)]
pub(crate) struct WorkspaceChange {
    pub document: Option<String>,
    pub upserts: Vec<SessionRow>,
    /// Where each upsert goes in [`Written`]'s list when known: `Some(i)` replaces the
    /// session at `i`, `None` appends; empty when the list is merged by id.
    places: Vec<Option<usize>>,
}

impl WorkspaceChange {
    /// Whether there is nothing to write.
    pub(crate) fn is_empty(&self) -> bool {
        self.document.is_none() && self.upserts.is_empty()
    }
}

/// What this handle last wrote (or read) of the workspace, to write only what changes.
#[derive(Debug, Default)]
pub(crate) struct Written {
    document: Option<String>,
    /// The sessions the database holds, in order.
    sessions: Vec<SessionRecord>,
    /// Where each session is in `sessions`, by id.
    index: HashMap<SessionId, usize>,
    /// Sessions expired while a caller may still hold them: saved back unchanged, they stay
    /// expired.
    expired: HashSet<String>,
}

impl Written {
    /// What the database holds.
    pub(crate) fn load(conn: &Connection) -> Result<Self, StoreError> {
        let document = conn
            .query_row("SELECT state FROM workspace WHERE id = 1", [], |r| r.get(0))
            .optional()
            .context("reading the workspace")?;
        let sessions = all(conn)?;
        Ok(Self {
            document,
            index: index_of(&sessions),
            sessions,
            expired: HashSet::new(),
        })
    }

    /// Whether a caller's copy of an expired session is to stay expired.
    fn stays_expired(&self, session: &SessionRecord) -> bool {
        !self.expired.is_empty() && self.expired.contains(session.id.as_str()) && session.is_blank()
    }

    /// The change that writes `workspace`: its document if it changed, and its sessions that
    /// are new or changed. Sessions it does not hold are kept.
    ///
    /// The usual change keeps the known sessions in place and appends new ones: it is found
    /// by one walk over both lists, with no hashing. Anything else compares by id.
    pub(crate) fn diff(&self, workspace: &WorkspaceState) -> Result<WorkspaceChange, StoreError> {
        let document = document(workspace)?;
        let mut change = WorkspaceChange {
            document: (self.document.as_deref() != Some(&document)).then_some(document),
            ..WorkspaceChange::default()
        };
        let (known, given) = (&self.sessions, &workspace.sessions);
        let same_place =
            known.len() <= given.len() && known.iter().zip(given).all(|(k, g)| k.id == g.id);
        if same_place {
            for (i, (k, g)) in known.iter().zip(given).enumerate() {
                if k != g {
                    change.upserts.push(SessionRow::new(g)?);
                    change.places.push(Some(i));
                }
            }
            for g in &given[known.len()..] {
                if !self.stays_expired(g) {
                    change.upserts.push(SessionRow::new(g)?);
                    change.places.push(None);
                }
            }
            return Ok(change);
        }
        for g in given {
            match self.index.get(g.id.as_str()).map(|&i| &known[i]) {
                Some(k) if k == g => {}
                None if self.stays_expired(g) => {}
                _ => change.upserts.push(SessionRow::new(g)?),
            }
        }
        Ok(change)
    }

    /// Records a committed change.
    pub(crate) fn apply(&mut self, change: WorkspaceChange) {
        if let Some(doc) = change.document {
            self.document = Some(doc);
        }
        if change.places.len() != change.upserts.len() {
            for row in change.upserts {
                self.put(&row.record);
            }
            return;
        }
        for (row, place) in change.upserts.into_iter().zip(change.places) {
            if !self.expired.is_empty() {
                self.expired.remove(row.record.id.as_str());
            }
            match place {
                Some(i) => self.sessions[i] = row.record,
                None => {
                    self.index
                        .insert(row.record.id.clone(), self.sessions.len());
                    self.sessions.push(row.record);
                }
            }
        }
    }

    /// Records one committed session: replaced in place, or appended.
    pub(crate) fn put(&mut self, session: &SessionRecord) {
        if !self.expired.is_empty() {
            self.expired.remove(session.id.as_str());
        }
        match self.index.get(session.id.as_str()) {
            Some(&i) => self.sessions[i] = session.clone(),
            None => {
                self.index.insert(session.id.clone(), self.sessions.len());
                self.sessions.push(session.clone());
            }
        }
    }

    /// Records expired sessions.
    pub(crate) fn expire(&mut self, ids: &[String]) {
        let gone: HashSet<&str> = ids.iter().map(String::as_str).collect();
        self.sessions.retain(|s| !gone.contains(s.id.as_str()));
        self.index = index_of(&self.sessions);
        self.expired.extend(ids.iter().cloned());
    }
}

fn index_of(sessions: &[SessionRecord]) -> HashMap<SessionId, usize> {
    sessions
        .iter()
        .enumerate()
        .map(|(i, s)| (s.id.clone(), i))
        .collect()
}

/// Writes a workspace change.
pub(crate) fn write_change(conn: &Connection, change: &WorkspaceChange) -> Result<(), StoreError> {
    if let Some(doc) = &change.document {
        conn.prepare_cached(
            "INSERT INTO workspace (id, state) VALUES (1, ?1) \
             ON CONFLICT (id) DO UPDATE SET state = excluded.state",
        )
        .and_then(|mut s| s.execute([doc]))
        .context("saving the workspace")?;
    }
    for row in &change.upserts {
        upsert(conn, row)?;
    }
    Ok(())
}

/// Inserts or replaces one session (a replaced session keeps its place).
pub(crate) fn upsert(conn: &Connection, row: &SessionRow) -> Result<(), StoreError> {
    conn.prepare_cached(
        "INSERT INTO sessions (id, record, touched_at) VALUES (?1, ?2, ?3) \
         ON CONFLICT (id) DO UPDATE SET record = excluded.record, touched_at = excluded.touched_at",
    )
    .and_then(|mut s| s.execute(params![row.record.id.as_str(), row.json, now_millis()]))
    .context("writing a session")?;
    Ok(())
}

/// Every session, in the order they were added.
///
/// # Errors
///
/// A session that cannot be read is an error naming it, never a silent reset.
pub(crate) fn all(conn: &Connection) -> Result<Vec<SessionRecord>, StoreError> {
    let mut stmt = conn
        .prepare_cached("SELECT id, record FROM sessions ORDER BY ordinal")
        .context("reading sessions")?;
    let rows = stmt
        .query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?)))
        .context("reading sessions")?;
    let mut out = Vec::new();
    for row in rows {
        let (id, record) = row.context("reading sessions")?;
        let session = serde_json::from_str(&record)
            .map_err(|e| corrupt(format!("session \"{id}\" cannot be read"), e))?;
        out.push(session);
    }
    Ok(out)
}

/// The workspace: its document with the session rows, `None` before anything was saved.
///
/// # Errors
///
/// A document or session that cannot be read is an error rather than a silent reset.
pub(crate) fn load_workspace(conn: &Connection) -> Result<Option<WorkspaceState>, StoreError> {
    let tx = conn.unchecked_transaction().context("starting a read")?;
    let body: Option<String> = tx
        .query_row("SELECT state FROM workspace WHERE id = 1", [], |r| r.get(0))
        .optional()
        .context("reading the workspace")?;
    let sessions = all(&tx)?;
    let mut state = match body {
        Some(body) => serde_json::from_str::<WorkspaceState>(&body)
            .map_err(|e| corrupt("the saved workspace state cannot be read", e))?,
        None if sessions.is_empty() => return Ok(None),
        None => WorkspaceState::default(),
    };
    state.sessions = sessions;
    Ok(Some(state))
}

/// Deletes the sessions that are blank, hold no message, pending approval or grant, and were
/// neither written nor sent an event since `untouched_since`; their events go with them.
pub(crate) fn expire(conn: &Connection, untouched_since: i64) -> Result<Vec<String>, StoreError> {
    let candidates: Vec<(String, String)> = {
        let mut stmt = conn
            .prepare(
                "SELECT id, record FROM sessions s WHERE touched_at < ?1 \
                 AND NOT EXISTS (SELECT 1 FROM messages m WHERE m.session_id = s.id) \
                 AND NOT EXISTS (SELECT 1 FROM pending_approvals p WHERE p.session_id = s.id) \
                 AND NOT EXISTS (SELECT 1 FROM grants g WHERE g.session_id = s.id) \
                 AND NOT EXISTS (SELECT 1 FROM events e WHERE e.session_id = s.id AND e.at >= ?1)",
            )
            .context("finding idle sessions")?;
        stmt.query_map([untouched_since], |r| Ok((r.get(0)?, r.get(1)?)))
            .context("finding idle sessions")?
            .collect::<Result<_, _>>()
            .context("finding idle sessions")?
    };
    let mut expired = Vec::new();
    for (id, record) in candidates {
        // An unreadable record is kept: only a session known to be blank expires.
        let blank = serde_json::from_str::<SessionRecord>(&record).is_ok_and(|s| s.is_blank());
        if !blank {
            continue;
        }
        conn.execute("DELETE FROM sessions WHERE id = ?1", [&id])
            .context("expiring a session")?;
        conn.execute("DELETE FROM events WHERE session_id = ?1", [&id])
            .context("expiring a session's events")?;
        expired.push(id);
    }
    Ok(expired)
}
