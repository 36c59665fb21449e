//! The writer: one thread owns the write connection and commits every write waiting for it
//! in one transaction, so concurrent callers share one fsync.

use std::path::PathBuf;
use std::sync::mpsc;
use std::thread::JoinHandle;

use rusqlite::{Connection, Statement, Transaction, TransactionBehavior};
use tokio::sync::oneshot;
use warrant_core::store::{DecisionRecord, RecordedDecision, StoreError};

use super::chain::{AuditRow, Head};
use super::checkpoint::{self, AuditHead};
use super::key::AuditKey;
use super::known::Known;
use super::parts::{self, PartRow};
use super::records::{self, Trims};
use super::sessions::{self, SessionRow, WorkspaceChange};
use super::wal::Checkpointer;
use crate::error::{Context, unavailable};

/// One write, already encoded by its caller.
pub(crate) enum Write {
    /// Append an audit record; answers its seq.
    Audit(AuditRow),
    /// Insert or replace a tool part in its message.
    ToolPart(PartRow),
    /// Record an unresolved approval request.
    PutPending(records::PendingRow),
    /// Forget an approval request.
    RemovePending(String),
    /// Record a grant.
    Grant {
        /// The session it was granted in.
        session_id: String,
        /// The grant's JSON.
        body: String,
    },
    /// Forget a grant by its id; answers how many rows went.
    RemoveGrant(String),
    /// Write what changed of the workspace.
    Workspace(WorkspaceChange),
    /// Insert or replace one session.
    Session(SessionRow),
    /// Append to a session's event log; answers the event's seq.
    Event(records::EventRow),
    /// Record a decision as one unit: its audit record, then its tool part, then its events,
    /// all in one savepoint, so a refused audit record writes nothing of it; answers where
    /// the record and the events landed.
    Decision(Box<DecisionRows>),
}

/// A decision record, encoded (see [`warrant_core::store::DecisionRecord`]).
pub(crate) struct DecisionRows {
    pub audit: AuditRow,
    pub part: Option<PartRow>,
    pub events: Vec<records::EventRow>,
}

impl DecisionRows {
    /// Encodes a decision record (refusing an over-long session id).
    pub(crate) fn new(record: DecisionRecord) -> Result<Self, StoreError> {
        let session_id = record.audit.session_id.clone();
        let part = record
            .part
            .as_ref()
            .map(|part| PartRow::new(session_id.as_str(), &record.message_id, part))
            .transpose()?;
        let events = record
            .events
            .iter()
            .map(|event| records::EventRow::new(session_id.as_str(), event))
            .collect::<Result<_, _>>()?;
        Ok(Self {
            audit: AuditRow::new(record.audit)?,
            part,
            events,
        })
    }
}

/// What a write answers.
pub(crate) enum Answer {
    /// A seq (or a count, or 0: see [`Write`]).
    Seq(u64),
    /// Where a decision record landed.
    Decision(RecordedDecision),
}

/// Bounds the writer keeps.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Limits {
    pub event_retention: usize,
    pub decision_map_limit: usize,
    pub max_batch: usize,
}

/// What keys the audit chain and where its head is exported.
pub(crate) struct ChainConfig {
    /// The audit key.
    pub key: AuditKey,
    /// The checkpoint file.
    pub checkpoint: PathBuf,
}

struct Job {
    write: Write,
    reply: oneshot::Sender<Done>,
}

/// What the writer hands back for a job: the answer, and the write itself, so that its rows
/// are freed by the caller's thread (which allocated them) rather than by the writer, which
/// every commit waits on.
struct Done {
    answer: Result<Answer, StoreError>,
    _write: Write,
}

/// The handle callers queue writes on. Dropping it lets the thread finish what is queued.
pub(crate) struct Writer {
    queue: Option<mpsc::Sender<Job>>,
    thread: Option<JoinHandle<()>>,
}

impl Writer {
    /// Starts the writer thread around a configured, migrated connection.
    /// The checkpoint thread is woken by the connection's WAL hook once the WAL passed its
    /// threshold, and stops after the writer's last commit.
    pub(crate) fn spawn(
        conn: Connection,
        limits: Limits,
        chain: ChainConfig,
        checkpointer: Checkpointer,
    ) -> Result<Self, StoreError> {
        tune(&conn)?;
        let (queue, jobs) = mpsc::channel();
        let thread = std::thread::Builder::new()
            .name("warrant-sqlite-writer".to_owned())
            .spawn(move || run(conn, limits, &chain, &checkpointer, jobs))
            .map_err(|e| unavailable("starting the sqlite writer", e))?;
        Ok(Self {
            queue: Some(queue),
            thread: Some(thread),
        })
    }

    /// Queues a write and waits until its transaction is committed (on disk).
    pub(crate) async fn submit(&self, write: Write) -> Result<u64, StoreError> {
        self.queue(write).await
    }

    /// Queues a write now (writes are applied in the order they were queued) and returns a
    /// future resolving once its transaction is committed (on disk).
    pub(crate) fn queue(
        &self,
        write: Write,
    ) -> impl std::future::Future<Output = Result<u64, StoreError>> + Send + 'static {
        let answer = self.queue_answer(write);
        async move {
            match answer.await? {
                Answer::Seq(seq) => Ok(seq),
                Answer::Decision(recorded) => Ok(recorded.audit_seq),
            }
        }
    }

    /// [`queue`](Self::queue) for a decision record, answering where it landed.
    pub(crate) fn queue_decision(
        &self,
        rows: DecisionRows,
    ) -> impl std::future::Future<Output = Result<RecordedDecision, StoreError>> + Send + 'static
    {
        let answer = self.queue_answer(Write::Decision(Box::new(rows)));
        async move {
            match answer.await? {
                Answer::Decision(recorded) => Ok(recorded),
                Answer::Seq(_) => Err(unavailable(
                    "sqlite writer",
                    "a decision record was answered as another write",
                )),
            }
        }
    }

    fn queue_answer(
        &self,
        write: Write,
    ) -> impl std::future::Future<Output = Result<Answer, StoreError>> + Send + 'static {
        let (reply, committed) = oneshot::channel();
        let queued = match self.queue.as_ref() {
            Some(queue) => queue.send(Job { write, reply }).map_err(|_| stopped()),
            None => Err(stopped()),
        };
        async move {
            queued?;
            committed.await.map_err(|_| stopped())?.answer
        }
    }
}

impl Drop for Writer {
    fn drop(&mut self) {
        self.queue.take();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// How many KiB of pages the write connection caches (SQLite's default is 2,000): the pages
/// a commit touches at random (an evaluated tool call id, a new message) are read from the
/// cache rather than from the file.
const WRITER_CACHE_KIB: i64 = 32 * 1024;

/// Sets up the write connection for many small writes per transaction (its WAL checkpoints
/// are left to the checkpoint thread up to a bound: see [`Checkpointer::watch`]). A write
/// may run in a savepoint, and a statement in a statement journal, which copy each page
/// they change into a sub-journal first; kept in memory (`temp_store = MEMORY`), that copy
/// costs no system call, where a sub-journal on disk costs two `pwrite`s per page. The
/// sub-journal only ever serves rolling back inside the open transaction, so nothing durable
/// depends on it.
fn tune(conn: &Connection) -> Result<(), StoreError> {
    conn.pragma_update(None, "temp_store", "MEMORY")
        .context("keeping savepoint journals in memory")?;
    conn.pragma_update(None, "cache_size", -WRITER_CACHE_KIB)
        .context("sizing the writer's page cache")
}

fn stopped() -> StoreError {
    unavailable("sqlite writer", "it stopped; the write was not committed")
}

/// The statements every decision runs (its audit record, the claim of its tool call id, its
/// events), prepared once for the write connection. Found in rusqlite's statement cache
/// instead, each use hashed the statement's text twice and copied it into a new key: about
/// 11k instructions per decision of the writer's, which is the serial part.
pub(crate) struct Statements<'c> {
    /// [`chain::APPEND_AUDIT`](super::chain::APPEND_AUDIT).
    pub(crate) append_audit: Statement<'c>,
    /// [`chain::CLAIM_EVALUATION`](super::chain::CLAIM_EVALUATION).
    pub(crate) claim_evaluation: Statement<'c>,
    /// [`records::APPEND_EVENT`].
    pub(crate) append_event: Statement<'c>,
}

impl<'c> Statements<'c> {
    fn prepare(conn: &'c Connection) -> Result<Self, StoreError> {
        let prepare = |sql| {
            conn.prepare(sql)
                .context("preparing the writer's statements")
        };
        Ok(Self {
            append_audit: prepare(super::chain::APPEND_AUDIT)?,
            claim_evaluation: prepare(super::chain::CLAIM_EVALUATION)?,
            append_event: prepare(records::APPEND_EVENT)?,
        })
    }
}

fn run(
    conn: Connection,
    limits: Limits,
    chain: &ChainConfig,
    checkpointer: &Checkpointer,
    jobs: mpsc::Receiver<Job>,
) {
    // Dropped before the checkpointer (which the thread's closure owns).
    let _watching = checkpointer.watch(&conn);
    let mut statements = match Statements::prepare(&conn) {
        Ok(statements) => statements,
        Err(e) => {
            // Nothing can be written: every write fails, none is lost silently.
            tracing::error!(error = %e, "the sqlite writer cannot prepare its statements");
            while let Ok(job) = jobs.recv() {
                let answer = Err(StoreError::new(e.kind, e.message.clone()));
                let _ = job.reply.send(Done {
                    answer,
                    _write: job.write,
                });
            }
            return;
        }
    };
    let mut known = Known::default();
    // Writes that queue while a commit is on its way to disk go together in the next one.
    while let Ok(first) = jobs.recv() {
        let mut batch = vec![first];
        while batch.len() < limits.max_batch.max(1) {
            match jobs.try_recv() {
                Ok(job) => batch.push(job),
                Err(_) => break,
            }
        }
        let results = commit(&conn, &mut statements, limits, chain, &mut known, &batch);
        for (job, answer) in batch.into_iter().zip(results) {
            let _ = job.reply.send(Done {
                answer,
                _write: job.write,
            });
        }
    }
}

/// Commits a batch in one transaction, each write in its own savepoint so that one failing
/// write fails alone. When the commit itself fails, every write of the batch fails.
///
/// A savepoint copies every page a write changes into a sub-journal first (the copy that
/// `ROLLBACK TO` restores), once per write: most of a batch's pages (the audit log's last
/// leaf, each session's event leaf) are copied again for every write that touches them. So
/// the batch is first applied without savepoints; only when a write of it fails is that
/// transaction rolled back and the batch applied again, one savepoint per write. Both ways
/// apply the same statements to the same rows in the same order, so a batch whose writes
/// all succeed leaves exactly what the savepoint path would.
///
/// The audit head is read under the write lock, so another handle or process appending to
/// the same database never forks the chain; it is written once, before the commit. Once the
/// commit is on disk, a moved head is appended to the checkpoint file.
fn commit(
    conn: &Connection,
    statements: &mut Statements<'_>,
    limits: Limits,
    chain: &ChainConfig,
    known: &mut Known,
    batch: &[Job],
) -> Vec<Result<Answer, StoreError>> {
    let outcome = match commit_together(conn, statements, limits, chain, known, batch) {
        Ok(Some(results)) => Ok(results),
        Ok(None) => {
            // The rolled-back writes moved what is known.
            known.forget();
            commit_each(conn, statements, limits, chain, known, batch)
        }
        Err(e) => Err(e),
    };
    outcome.unwrap_or_else(|e| {
        known.forget();
        tracing::error!(error = %e, writes = batch.len(), "a group commit failed");
        batch
            .iter()
            .map(|_| Err(StoreError::new(e.kind, e.message.clone())))
            .collect()
    })
}

/// Applies and commits a batch without savepoints; `None` (the transaction rolled back,
/// nothing written) when one of its writes failed.
fn commit_together(
    conn: &Connection,
    statements: &mut Statements<'_>,
    limits: Limits,
    chain: &ChainConfig,
    known: &mut Known,
    batch: &[Job],
) -> Result<Option<Vec<Result<Answer, StoreError>>>, StoreError> {
    // The write connection is borrowed by the held statements; the writer thread alone
    // uses it, and never opens a transaction inside another.
    let tx = Transaction::new_unchecked(conn, TransactionBehavior::Immediate)
        .context("starting a write")?;
    let mut head = Head::load(&tx)?;
    known.begin(&tx)?;
    let start = head.seq;
    let mut results = Vec::with_capacity(batch.len());
    // Every write of the batch stays: the event logs are bounded once, before the commit.
    let mut trims = Trims::default();
    for job in batch {
        match apply(
            &tx,
            statements,
            &mut head,
            known,
            limits,
            &chain.key,
            &job.write,
            Some(&mut trims),
        ) {
            Ok(answer) => results.push(Ok(answer)),
            Err(_) => {
                // Dropping the transaction rolls it back; the batch is applied again.
                drop(tx);
                return Ok(None);
            }
        }
    }
    if trims.apply(&tx, limits.event_retention).is_err() {
        drop(tx);
        return Ok(None);
    }
    if head.seq != start {
        head.store(&tx)?;
    }
    tx.commit().context("committing writes")?;
    if head.seq != start {
        export_head(chain, head);
    }
    Ok(Some(results))
}

/// Applies and commits a batch, each write in its own savepoint.
fn commit_each(
    conn: &Connection,
    statements: &mut Statements<'_>,
    limits: Limits,
    chain: &ChainConfig,
    known: &mut Known,
    batch: &[Job],
) -> Result<Vec<Result<Answer, StoreError>>, StoreError> {
    // The write connection is borrowed by the held statements; the writer thread alone
    // uses it, and never opens a transaction inside another.
    let tx = Transaction::new_unchecked(conn, TransactionBehavior::Immediate)
        .context("starting a write")?;
    let mut head = Head::load(&tx)?;
    known.begin(&tx)?;
    let start = head.seq;
    let mut results = Vec::with_capacity(batch.len());
    for job in batch {
        let job_head = head.clone();
        let run = |sql: &str| {
            tx.prepare_cached(sql)
                .and_then(|mut s| s.execute([]))
                .map(drop)
        };
        run("SAVEPOINT w").context("starting a write")?;
        let result = apply(
            &tx, statements, &mut head, known, limits, &chain.key, &job.write, None,
        )
        .and_then(|answer| run("RELEASE w").context("a write").map(|()| answer));
        if result.is_err() {
            head = job_head;
            // The rollback may undo events, parts and messages this write added.
            known.forget();
            run("ROLLBACK TO w")
                .and_then(|()| run("RELEASE w"))
                .context("undoing a write")?;
        }
        results.push(result);
    }
    if head.seq != start {
        head.store(&tx)?;
    }
    tx.commit().context("committing writes")?;
    if head.seq != start {
        export_head(chain, head);
    }
    Ok(results)
}

/// Appends the committed head to the checkpoint file. The records are durable already, so a
/// failure is logged, not returned: the checkpoint then lags, which verification tolerates.
fn export_head(chain: &ChainConfig, head: Head) {
    let head = AuditHead {
        seq: head.seq,
        hash: head.hash,
    };
    if let Err(e) = checkpoint::append(&chain.checkpoint, &head) {
        tracing::error!(error = %e, seq = head.seq, "the audit head was not checkpointed");
    }
}

/// Applies one write. Its events' logs are bounded by the write itself when `trims` is
/// `None` (a write that may be rolled back alone), noted in `trims` otherwise.
#[allow(clippy::too_many_arguments)]
fn apply(
    conn: &Connection,
    statements: &mut Statements<'_>,
    head: &mut Head,
    known: &mut Known,
    limits: Limits,
    key: &AuditKey,
    write: &Write,
    mut trims: Option<&mut Trims>,
) -> Result<Answer, StoreError> {
    let mut bound = |session_id: &str, last: u64| match trims.as_deref_mut() {
        Some(trims) => {
            trims.note(session_id, last);
            Ok(())
        }
        None => records::trim_events(conn, session_id, last, limits.event_retention),
    };
    let seq = match write {
        Write::Audit(row) => head.append(conn, statements, key, row)?,
        Write::ToolPart(row) => {
            parts::upsert(conn, row, limits.decision_map_limit, known).map(|()| 0)?
        }
        Write::PutPending(row) => records::put_pending(conn, row).map(|()| 0)?,
        Write::RemovePending(id) => records::remove_pending(conn, id).map(|()| 0)?,
        Write::Grant { session_id, body } => {
            records::put_grant(conn, session_id, body).map(|()| 0)?
        }
        Write::RemoveGrant(id) => records::remove_grant(conn, id)?,
        Write::Workspace(change) => sessions::write_change(conn, change).map(|()| 0)?,
        Write::Session(row) => sessions::upsert(conn, row).map(|()| 0)?,
        Write::Event(row) => {
            let seq = records::append_event(conn, &mut statements.append_event, row, known)?;
            bound(row.session_id(), seq)?;
            seq
        }
        Write::Decision(rows) => {
            // In the write's savepoint: an error below undoes the audit record too.
            let audit_seq = head.append(conn, statements, key, &rows.audit)?;
            if let Some(part) = &rows.part {
                parts::upsert(conn, part, limits.decision_map_limit, known)?;
            }
            let event_seqs: Vec<u64> = rows
                .events
                .iter()
                .map(|row| records::append_event(conn, &mut statements.append_event, row, known))
                .collect::<Result<_, _>>()?;
            // Once for the write's events (which are all of the record's session).
            if let (Some(row), Some(&seq)) = (rows.events.last(), event_seqs.last()) {
                bound(row.session_id(), seq)?;
            }
            return Ok(Answer::Decision(RecordedDecision {
                audit_seq,
                event_seqs,
            }));
        }
    };
    Ok(Answer::Seq(seq))
}
