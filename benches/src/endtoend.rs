//! The engine end to end: calls authorized through the built-in chain, each decision's audit
//! entry durable in the store (SQLite, or PostgreSQL when a server is named) before its
//! events leave, every event logged and streamed by the SSE hub to one subscriber per
//! session.

use std::sync::Arc;
use std::time::{Duration, Instant};
use warrant_core::ids::SessionId;

use serde_json::json;
use tempfile::TempDir;
use warrant_core::call::{PermissionMode, ToolCall};
use warrant_core::decision::Behavior;
use warrant_core::engine::{AuthorizeOptions, Engine};
use warrant_core::store::Store;
use warrant_evaluators::{EvaluatorsConfig, default_chain};
use warrant_stores::postgres::{PostgresConfig, PostgresStore};
use warrant_stores::sqlite::{AuditKey, SqliteStore};
use warrant_transports::sse::{Item, SseHub};

use crate::rules::{self, GROUP};
use crate::timing::Stats;
use crate::warrant::workspace_root;

/// Events the engine emits per announced decision: `TOOL_CALL_START`, `_ARGS`, `_END` and
/// `tool_permission_decision`.
pub const EVENTS_PER_DECISION: u64 = 4;

/// How long subscribers may take to catch up before the run is declared stuck.
const CATCH_UP: Duration = Duration::from_secs(120);

/// The `i`th command of the engine benches over `rules` generated rules: allowed by a rule,
/// allowed as read-only (`git status`), or denied by a rule, in turn; none asks.
pub fn command(rules: usize, i: usize) -> String {
    let g = (i / 3) % (rules / GROUP).max(1);
    match i % 3 {
        0 => format!("prog{g} build release"),
        1 => "git status".to_owned(),
        _ => format!("prog{g} push origin main"),
    }
}

/// An engine over a store (by default SQLite in a temporary directory), streaming through
/// an SSE hub.
pub struct Rig<S = SqliteStore> {
    /// The engine.
    pub engine: Engine,
    /// The hub its events go through.
    pub hub: Arc<SseHub>,
    /// The store.
    pub store: Arc<S>,
    rules: usize,
    _dir: TempDir,
    /// The PostgreSQL database made for the run, dropped with the rig.
    _database: Option<ScratchDatabase>,
}

/// What one run measured.
#[derive(Debug, Clone, Copy)]
pub struct Throughput {
    /// Decisions per second, until every subscriber had every event.
    pub per_second: f64,
    /// The latency of one `authorize` call.
    pub latency: Stats,
}

impl Rig {
    /// An engine with the built-in chain over `rules` generated rules, on a SQLite store in
    /// a temporary directory.
    ///
    /// # Panics
    ///
    /// When the store cannot be opened or the engine cannot be built.
    pub async fn new(rules: usize) -> Self {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let store = Arc::new(SqliteStore::open(dir.path().join("warrant.db")).expect("opens"));
        Self::over(store, rules, dir, None).await
    }
}

impl Rig<PostgresStore> {
    /// An engine with the built-in chain over `rules` generated rules, on the PostgreSQL
    /// store in a database of its own made on the server `server_url` names (dropped with
    /// the rig), with a fresh audit key and a checkpoint file as `warrant serve` keeps one.
    ///
    /// # Errors
    ///
    /// A message naming what failed: the server, the database, the store.
    ///
    /// # Panics
    ///
    /// When the engine cannot be built.
    pub async fn postgres(rules: usize, server_url: &str) -> Result<Self, String> {
        let dir = tempfile::tempdir().map_err(|e| format!("a temporary directory: {e}"))?;
        let database = ScratchDatabase::create(server_url).await?;
        let key = AuditKey::generate().map_err(|e| e.to_string())?;
        let config = PostgresConfig::new(database.url.clone())
            .audit_key(key)
            .checkpoint_file(Some(&dir.path().join("postgres.audit-head")));
        let store = config
            .connect()
            .await
            .map_err(|e| format!("the PostgreSQL store: {e}"))?;
        Ok(Self::over(Arc::new(store), rules, dir, Some(database)).await)
    }

    /// What the server is, and whether its commits are durable: `PostgreSQL 15.4, fsync on,
    /// synchronous_commit on`.
    ///
    /// # Errors
    ///
    /// When the server cannot be asked.
    pub async fn server(&self) -> Result<String, String> {
        match &self._database {
            Some(database) => database.describe().await,
            None => Err("no database".to_owned()),
        }
    }
}

impl<S: Store + 'static> Rig<S> {
    /// The engine with the built-in chain over `rules` generated rules, on `store`.
    async fn over(
        store: Arc<S>,
        rules: usize,
        dir: TempDir,
        database: Option<ScratchDatabase>,
    ) -> Self {
        let hub = Arc::new(SseHub::new(store.clone()));
        let config = EvaluatorsConfig {
            rules: rules::to_warrant(&rules::generate(rules)),
            ..EvaluatorsConfig::default()
        };
        let chain = default_chain(&config, &rules::catalog()).expect("the chain builds");
        let engine = Engine::builder(chain)
            .store(store.clone())
            .transport(hub.clone())
            .workspace_root(workspace_root())
            .build()
            .await
            .expect("the engine builds");
        Self {
            engine,
            hub,
            store,
            rules,
            _dir: dir,
            _database: database,
        }
    }

    /// A command that one of the rules or the policy settles without asking: allowed by a
    /// rule, allowed as read-only, or denied by a rule.
    pub fn command(&self, i: usize) -> String {
        command(self.rules, i)
    }

    /// Authorizes one announced shell call; returns how long it took.
    ///
    /// # Panics
    ///
    /// When the engine fails, or asks (the commands are chosen so that nothing waits for a
    /// user).
    pub async fn decide(
        &self,
        session: &str,
        message: &str,
        id: String,
        command: String,
    ) -> Duration {
        let mut call = ToolCall::new(session, id, "Bash", json!({ "command": command }));
        call.message_id = Some(message.to_owned());
        let options = AuthorizeOptions {
            mode: PermissionMode::Default,
            announce: true,
        };
        let started = Instant::now();
        let authorization = self
            .engine
            .authorize(call, options)
            .await
            .expect("authorized");
        let took = started.elapsed();
        assert_ne!(
            authorization.decision.behavior,
            Behavior::Ask,
            "the bench commands never ask: {:?}",
            authorization.decision
        );
        took
    }

    /// Runs `per_session` decisions in each of `sessions` concurrent sessions (named after
    /// `run`), one subscriber per session, and waits until every subscriber has every event.
    ///
    /// # Panics
    ///
    /// When a decision fails or a subscriber misses events.
    pub async fn run(
        self: &Arc<Self>,
        run: &str,
        sessions: usize,
        per_session: usize,
    ) -> Throughput {
        let expected = per_session as u64 * EVENTS_PER_DECISION;
        let started = Instant::now();
        let mut subscribers = Vec::with_capacity(sessions);
        let mut deciders = Vec::with_capacity(sessions);
        for s in 0..sessions {
            let session = format!("{run}-s{s}");
            let mut sub = self.hub.subscribe(&SessionId::from(&session), 0);
            subscribers.push(tokio::spawn(async move {
                let mut seen = 0;
                while seen < expected {
                    match sub.next().await {
                        Some(Item::Event(_)) => seen += 1,
                        other => panic!(
                            "subscriber of {} got {other:?} after {seen} events",
                            sub.session_id()
                        ),
                    }
                }
            }));
            let rig = Arc::clone(self);
            deciders.push(tokio::spawn(async move {
                let mut took = Vec::with_capacity(per_session);
                for i in 0..per_session {
                    let id = format!("{session}-c{i}");
                    took.push(rig.decide(&session, "m0", id, rig.command(s + i)).await);
                }
                took
            }));
        }
        let mut latencies = Vec::with_capacity(sessions * per_session);
        for d in deciders {
            latencies.extend(d.await.expect("a session's decisions"));
        }
        let caught_up = async {
            for s in subscribers {
                s.await.expect("a subscriber");
            }
        };
        tokio::time::timeout(CATCH_UP, caught_up)
            .await
            .expect("every subscriber catches up");
        let elapsed = started.elapsed();
        Throughput {
            per_second: (sessions * per_session) as f64 / elapsed.as_secs_f64(),
            latency: Stats::of(latencies),
        }
    }

    /// The durable audit entries so far.
    ///
    /// # Panics
    ///
    /// When the store cannot be read.
    pub async fn audit_entries(&self) -> usize {
        let query = warrant_core::store::AuditQuery::default();
        self.store
            .audit_records(&query)
            .await
            .expect("readable")
            .len()
    }
}

/// The variable naming the PostgreSQL server the engine benches also run on (a role that
/// may `CREATE DATABASE`).
pub const POSTGRES_URL_ENV: &str = "WARRANT_BENCH_POSTGRES_URL";

/// The variable `scripts/with-postgres` sets, used when [`POSTGRES_URL_ENV`] is not set.
pub const TEST_POSTGRES_URL_ENV: &str = "WARRANT_TEST_POSTGRES_URL";

/// The PostgreSQL server to run on: [`POSTGRES_URL_ENV`], else [`TEST_POSTGRES_URL_ENV`];
/// `None` when neither names one.
pub fn postgres_server() -> Option<String> {
    [POSTGRES_URL_ENV, TEST_POSTGRES_URL_ENV]
        .iter()
        .filter_map(|name| std::env::var(name).ok())
        .find(|url| !url.trim().is_empty())
}

/// A database of its own for one run on a PostgreSQL server, dropped with it.
#[derive(Debug)]
pub struct ScratchDatabase {
    /// Its connection string: the server's, with the database replaced.
    pub url: String,
    server: String,
    name: String,
}

impl ScratchDatabase {
    /// Creates an empty database on the server `server_url` names (a URL, or libpq's
    /// `key=value` form; its role may `CREATE DATABASE`).
    ///
    /// # Errors
    ///
    /// A message naming the server (never its password) and what it said.
    pub async fn create(server_url: &str) -> Result<Self, String> {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        let name = format!("warrant_bench_{}_{nanos}", std::process::id());
        admin(server_url, &format!("CREATE DATABASE \"{name}\"")).await?;
        let url =
            if server_url.starts_with("postgres://") || server_url.starts_with("postgresql://") {
                // A URL's query parameters override its path.
                let separator = if server_url.contains('?') { '&' } else { '?' };
                format!("{server_url}{separator}dbname={name}")
            } else {
                format!("{server_url} dbname={name}")
            };
        Ok(Self {
            url,
            server: server_url.to_owned(),
            name,
        })
    }

    /// The server's version and whether its commits reach the disk: `PostgreSQL 15.4, fsync
    /// on, synchronous_commit on`.
    ///
    /// # Errors
    ///
    /// When the server cannot be asked.
    pub async fn describe(&self) -> Result<String, String> {
        let client = connect(&self.url).await?;
        let mut shown = Vec::new();
        for setting in ["server_version", "fsync", "synchronous_commit"] {
            let row = client
                .query_one(&format!("SHOW {setting}"), &[])
                .await
                .map_err(|e| format!("SHOW {setting}: {e}"))?;
            let value: String = row.try_get(0).map_err(|e| format!("SHOW {setting}: {e}"))?;
            shown.push(match setting {
                // `15.4 (Debian 15.4-1)`: the version alone.
                "server_version" => format!(
                    "PostgreSQL {}",
                    value.split_whitespace().next().unwrap_or_default()
                ),
                _ => format!("{setting} {value}"),
            });
        }
        Ok(shown.join(", "))
    }
}

impl Drop for ScratchDatabase {
    fn drop(&mut self) {
        let (server, sql) = (
            self.server.clone(),
            format!("DROP DATABASE IF EXISTS \"{}\" WITH (FORCE)", self.name),
        );
        // A thread and a runtime of its own: a drop cannot await, and may run on a runtime.
        let dropped = std::thread::spawn(move || {
            tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .map_err(|e| e.to_string())?
                .block_on(admin(&server, &sql))
        })
        .join();
        if let Ok(Err(e)) | Err(e) = dropped.map_err(|_| "the thread panicked".to_owned()) {
            eprintln!("the bench database {} was not dropped: {e}", self.name);
        }
    }
}

/// A connection to `url`, driven by a task of its own.
async fn connect(url: &str) -> Result<tokio_postgres::Client, String> {
    let (client, connection) = tokio_postgres::connect(url, tokio_postgres::NoTls)
        .await
        .map_err(|e| format!("connecting to the PostgreSQL server: {e}"))?;
    tokio::spawn(connection);
    Ok(client)
}

/// Runs `sql` on the server `url` names.
async fn admin(url: &str, sql: &str) -> Result<(), String> {
    connect(url)
        .await?
        .batch_execute(sql)
        .await
        .map_err(|e| format!("{sql}: {e}"))
}
