//! The engine end to end: calls authorized through the built-in chain, each decision's audit
//! entry durable in SQLite before its events leave, every event logged and streamed by the
//! SSE hub to one subscriber per session.

use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::json;
use tempfile::TempDir;
use warrant_core::call::{PermissionMode, ToolCall};
use warrant_core::decision::Behavior;
use warrant_core::engine::{AuthorizeOptions, Engine};
use warrant_core::store::Store;
use warrant_evaluators::{EvaluatorsConfig, default_chain};
use warrant_stores::sqlite::SqliteStore;
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

/// An engine over a SQLite store in a temporary directory, streaming through an SSE hub.
pub struct Rig {
    /// The engine.
    pub engine: Engine,
    /// The hub its events go through.
    pub hub: Arc<SseHub>,
    /// The store.
    pub store: Arc<SqliteStore>,
    rules: usize,
    _dir: TempDir,
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
    /// An engine with the built-in chain over `rules` generated rules.
    ///
    /// # Panics
    ///
    /// When the store cannot be opened or the engine cannot be built.
    pub async fn new(rules: usize) -> Self {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let store = Arc::new(SqliteStore::open(dir.path().join("warrant.db")).expect("opens"));
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
            let mut sub = self.hub.subscribe(&session, 0);
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
