//! What the writer knows of the database between its transactions: each session's last event
//! seq, each message's row id and last part ordinal. With these, a decision's part and events
//! are written without first reading the log's and the message's ends (three statements of
//! about eleven per decision).
//!
//! Only the writer's own commits move these while nothing else writes the database, and
//! SQLite says when something else did: `PRAGMA data_version` changes when another connection
//! (the side connection that expires sessions, another handle or process on the same file)
//! committed. So everything is forgotten when that number moved since the writer's last
//! commit, and whenever a transaction or a write of it is rolled back or fails, since the
//! rows it counted may be gone. What is known is only ever a shortcut for a `SELECT` that
//! would give the same answer.

use std::collections::HashMap;

use rusqlite::Connection;
use warrant_core::store::StoreError;

use crate::error::Context;

/// Entries kept before everything is forgotten (rebuilt from the database as writes come):
/// bounds the memory of a long-lived writer that saw many sessions.
const MAX_ENTRIES: usize = 16_384;

/// The writer's knowledge (see the [module documentation](self)).
#[derive(Debug, Default)]
pub(crate) struct Known {
    /// `PRAGMA data_version` at the start of the writer's last transaction; `None` when
    /// nothing known may be trusted.
    data_version: Option<i64>,
    /// The last event seq of each session.
    event_seqs: HashMap<String, u64>,
    /// Each message's row id, by session and message id.
    messages: HashMap<String, HashMap<String, i64>>,
    /// The last part ordinal of each message, by the message's row id.
    ordinals: HashMap<i64, i64>,
    /// How many entries the maps hold.
    entries: usize,
}

impl Known {
    /// To call once the write transaction began (under the write lock): forgets everything
    /// when another connection committed since the writer's last transaction.
    pub(crate) fn begin(&mut self, conn: &Connection) -> Result<(), StoreError> {
        let version: i64 = match conn
            .prepare_cached("PRAGMA data_version")
            .and_then(|mut s| s.query_row([], |r| r.get(0)))
            .context("reading the data version")
        {
            Ok(version) => version,
            Err(e) => {
                self.forget();
                return Err(e);
            }
        };
        if self.data_version != Some(version) || self.entries > MAX_ENTRIES {
            self.clear();
        }
        self.data_version = Some(version);
        Ok(())
    }

    /// Forgets everything, and trusts nothing until the next [`begin`](Self::begin): after
    /// a rollback of all or part of a transaction, or a failed commit.
    pub(crate) fn forget(&mut self) {
        self.clear();
        self.data_version = None;
    }

    fn clear(&mut self) {
        self.event_seqs.clear();
        self.messages.clear();
        self.ordinals.clear();
        self.entries = 0;
    }

    /// The last event seq of a session, if known.
    pub(crate) fn event_seq(&self, session_id: &str) -> Option<u64> {
        self.event_seqs.get(session_id).copied()
    }

    /// Notes a session's last event seq.
    pub(crate) fn set_event_seq(&mut self, session_id: &str, seq: u64) {
        match self.event_seqs.get_mut(session_id) {
            Some(last) => *last = seq,
            None => {
                self.event_seqs.insert(session_id.to_owned(), seq);
                self.entries += 1;
            }
        }
    }

    /// A message's row id, if known.
    pub(crate) fn message(&self, session_id: &str, message_id: &str) -> Option<i64> {
        self.messages.get(session_id)?.get(message_id).copied()
    }

    /// Notes a message's row id.
    pub(crate) fn set_message(&mut self, session_id: &str, message_id: &str, id: i64) {
        let of_session = match self.messages.get_mut(session_id) {
            Some(map) => map,
            None => self.messages.entry(session_id.to_owned()).or_default(),
        };
        if of_session.insert(message_id.to_owned(), id).is_none() {
            self.entries += 1;
        }
    }

    /// A message's last part ordinal (0 when it has none), if known.
    pub(crate) fn ordinal(&self, message: i64) -> Option<i64> {
        self.ordinals.get(&message).copied()
    }

    /// Notes a message's last part ordinal.
    pub(crate) fn set_ordinal(&mut self, message: i64, ordinal: i64) {
        if self.ordinals.insert(message, ordinal).is_none() {
            self.entries += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn version(conn: &Connection) -> i64 {
        conn.query_row("PRAGMA data_version", [], |r| r.get(0))
            .expect("a data version")
    }

    #[test]
    fn another_connections_commit_forgets_everything() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let path = dir.path().join("k.db");
        let writer = Connection::open(&path).expect("opens");
        writer
            .execute_batch("PRAGMA journal_mode = WAL; CREATE TABLE t (x)")
            .expect("a table");
        let mut known = Known::default();
        known.begin(&writer).expect("begins");
        known.set_event_seq("s", 7);
        known.set_message("s", "m", 3);
        known.set_ordinal(3, 9);
        // The writer's own commits keep what is known.
        writer
            .execute("INSERT INTO t VALUES (1)", [])
            .expect("writes");
        known.begin(&writer).expect("begins");
        assert_eq!(known.event_seq("s"), Some(7));
        assert_eq!(known.message("s", "m"), Some(3));
        assert_eq!(known.ordinal(3), Some(9));
        // Another connection's commit forgets it.
        let before = version(&writer);
        let other = Connection::open(&path).expect("opens");
        other
            .execute("INSERT INTO t VALUES (2)", [])
            .expect("writes");
        assert_ne!(version(&writer), before);
        known.begin(&writer).expect("begins");
        assert_eq!(known.event_seq("s"), None);
        assert_eq!(known.message("s", "m"), None);
        assert_eq!(known.ordinal(3), None);
    }

    #[test]
    fn a_forgotten_state_trusts_nothing_until_it_begins_again() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let writer = Connection::open(dir.path().join("k.db")).expect("opens");
        let mut known = Known::default();
        known.begin(&writer).expect("begins");
        known.set_event_seq("s", 1);
        known.forget();
        assert_eq!(known.event_seq("s"), None);
        known.set_event_seq("s", 2);
        // Nothing else committed, but a forgotten state starts over at its next begin.
        known.begin(&writer).expect("begins");
        assert_eq!(known.event_seq("s"), None);
    }
}
