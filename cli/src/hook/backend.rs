//! Where a hook's calls are decided and recorded: the local engine over the SQLite store
//! (safe beside a running server: WAL, a busy timeout, and an audit chain whose head is read
//! under the write lock), or a running `warrant serve` (see [`super::remote`]).

use std::sync::{Arc, Mutex};
use warrant_core::ids::{SessionId, ToolCallId};

use warrant_core::call::{PermissionMode, ToolCall};
use warrant_core::decision::ToolPermissionDecision;
use warrant_core::engine::{AuthorizeOptions, Engine, EngineError, ResolveError};
use warrant_core::event::Event;
use warrant_core::part::{MessagePart, ToolPart};
use warrant_core::store::Store;
use warrant_core::transport::{Transport, TransportError};
use warrant_core::workspace::{SessionRecord, SessionStatus};

use crate::config::Config;
use crate::engine::build_shared_engine;
use crate::engine::open_store;

/// What a hook needs of Warrant.
pub(crate) trait Backend {
    /// The session is running (added when new).
    async fn start(&self, session_id: &SessionId, agent: &str, cwd: &str) -> Result<(), String>;
    /// Decides a call, records it and its tool part, and returns the decision.
    async fn decide(&self, call: ToolCall) -> Result<ToolPermissionDecision, DecideError>;
    /// Resolves a pending request with one of its actions; `false` when nothing is pending
    /// under that id.
    async fn resolve(&self, tool_call_id: &ToolCallId, action_id: &str) -> Result<bool, String>;
    /// Reports what an allowed call returned.
    async fn complete(
        &self,
        session_id: &SessionId,
        tool_call_id: &ToolCallId,
        content: &str,
    ) -> Result<(), String>;
    /// The ids of the session's requests awaiting the user.
    async fn pending(&self, session_id: &SessionId) -> Result<Vec<ToolCallId>, String>;
    /// The session's tool parts, oldest first.
    async fn parts(&self, session_id: &SessionId) -> Result<Vec<ToolPart>, String>;
    /// The session is idle again.
    async fn finish(&self, session_id: &SessionId) -> Result<(), String>;
}

/// Why a call was not decided.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct DecideError {
    /// Whether a call with this id was decided before (the engine's duplicate call, the
    /// server's 409 `duplicate_tool_call`): only then may a recorded decision answer.
    pub duplicate: bool,
    /// What went wrong.
    pub message: String,
}

impl DecideError {
    /// Any failure other than a duplicate call.
    pub(crate) fn failed(message: impl Into<String>) -> Self {
        Self {
            duplicate: false,
            message: message.into(),
        }
    }
}

impl From<String> for DecideError {
    fn from(message: String) -> Self {
        Self::failed(message)
    }
}

/// The engine of this process, over the configured store.
pub(crate) struct Local {
    engine: Engine,
    mode: PermissionMode,
    log: Arc<DeferredLog>,
}

/// The session events of one hook the engine could not log itself (it logs every event it
/// emits), logged in the store once the hook's event is handled. The audit record and the
/// tool part are written by the engine as it decides; these events only feed the UI's
/// stream.
struct DeferredLog {
    store: Arc<dyn Store>,
    events: Mutex<Vec<(SessionId, Event)>>,
}

#[warrant_core::async_trait]
impl Transport for DeferredLog {
    async fn emit(&self, session_id: &SessionId, event: &Event) -> Result<(), TransportError> {
        self.events
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .push((session_id.clone(), event.clone()));
        Ok(())
    }

    /// The engine logged this event in the store already: only the events it could not log
    /// (handed over through `emit`) are left to log here.
    async fn emit_logged(
        &self,
        _session_id: &SessionId,
        _event: &Arc<warrant_core::store::StoredEvent>,
        _hub: &warrant_core::events::EventHub,
    ) -> Result<(), TransportError> {
        Ok(())
    }
}

impl DeferredLog {
    /// Logs every queued event, in order.
    async fn flush(&self) -> Result<(), String> {
        let events = std::mem::take(
            &mut *self
                .events
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner),
        );
        // Polled in order, the appends reach the writer's queue in order (their seqs follow
        // the events' order) and are committed together.
        let logged = futures::future::join_all(
            events
                .iter()
                .map(|(session, event)| self.store.append_event(session, event)),
        )
        .await;
        match logged.into_iter().find_map(Result::err) {
            Some(e) => Err(format!("session events not logged: {e}")),
            None => Ok(()),
        }
    }
}

impl Local {
    /// Opens the store under the configured data directory and builds the configured engine,
    /// adopting (never ending) the requests other processes left pending; events are logged
    /// in the store, where the UI of a server reads them.
    pub(crate) async fn open(config: &Config, mode: PermissionMode) -> Result<Self, String> {
        let store = open_store(config)?;
        let log = Arc::new(DeferredLog {
            store: Arc::clone(&store),
            events: Mutex::new(Vec::new()),
        });
        let engine = build_shared_engine(config, store, log.clone()).await?;
        Ok(Self { engine, mode, log })
    }

    /// Logs the session events this hook produced (see [`DeferredLog`]).
    pub(crate) async fn flush(&self) -> Result<(), String> {
        self.log.flush().await
    }

    /// Writes the session's own row with `status`, leaving every other session and pattern
    /// as the store has them (a server may be changing those meanwhile).
    async fn set_status(
        &self,
        session_id: &SessionId,
        status: SessionStatus,
        agent: &str,
        cwd: &str,
    ) -> Result<(), String> {
        let mut record = self
            .engine
            .workspace()
            .session(session_id)
            .cloned()
            .unwrap_or_else(|| SessionRecord::new(session_id));
        let origin = |text: &str, max: usize| {
            (!text.is_empty()).then(|| {
                text.chars()
                    .filter(|c| !c.is_control())
                    .take(max)
                    .collect::<String>()
            })
        };
        let agent = origin(agent, warrant_core::workspace::MAX_SESSION_AGENT_CHARS);
        let cwd = origin(cwd, warrant_core::workspace::MAX_SESSION_CWD_CHARS);
        let agent = agent.or_else(|| record.agent.clone());
        let cwd = cwd.or_else(|| record.cwd.clone());
        if record.status == status && record.agent == agent && record.cwd == cwd {
            return Ok(());
        }
        record.status = status;
        record.agent = agent;
        record.cwd = cwd;
        self.engine
            .store()
            .put_session(&record)
            .await
            .map_err(|e| e.to_string())
    }
}

impl Backend for Local {
    async fn start(&self, session_id: &SessionId, agent: &str, cwd: &str) -> Result<(), String> {
        warrant_core::workspace::check_session_id(session_id).map_err(|e| e.to_string())?;
        self.engine
            .add_session(session_id)
            .await
            .map_err(|e| e.to_string())?;
        self.set_status(session_id, SessionStatus::Running, agent, cwd)
            .await
    }

    async fn decide(&self, call: ToolCall) -> Result<ToolPermissionDecision, DecideError> {
        let options = AuthorizeOptions {
            mode: self.mode,
            announce: true,
        };
        self.engine
            .authorize(call, options)
            .await
            .map(|a| a.decision)
            .map_err(|e| DecideError {
                duplicate: matches!(e, EngineError::DuplicateCall(_)),
                message: e.to_string(),
            })
    }

    async fn resolve(&self, tool_call_id: &ToolCallId, action_id: &str) -> Result<bool, String> {
        match self.engine.resolve(tool_call_id, action_id).await {
            Ok(_) => Ok(true),
            Err(ResolveError::Unknown(_) | ResolveError::NotPending(_)) => Ok(false),
            Err(e) => Err(e.to_string()),
        }
    }

    async fn complete(
        &self,
        session_id: &SessionId,
        tool_call_id: &ToolCallId,
        content: &str,
    ) -> Result<(), String> {
        self.engine
            .complete(session_id, tool_call_id, content)
            .await
            .map_err(|e| e.to_string())
    }

    async fn pending(&self, session_id: &SessionId) -> Result<Vec<ToolCallId>, String> {
        Ok(self
            .engine
            .pending_requests()
            .into_iter()
            .filter(|r| r.session_id.as_ref() == Some(session_id))
            .map(|r| r.tool_call_id)
            .collect())
    }

    async fn parts(&self, session_id: &SessionId) -> Result<Vec<ToolPart>, String> {
        let messages = self
            .engine
            .store()
            .messages(session_id)
            .await
            .map_err(|e| e.to_string())?;
        Ok(tool_parts(messages))
    }

    async fn finish(&self, session_id: &SessionId) -> Result<(), String> {
        if self.engine.workspace().session(session_id).is_none() {
            return Ok(());
        }
        self.set_status(session_id, SessionStatus::Idle, "", "")
            .await
    }
}

/// The tool parts of a session's messages, in order.
pub(crate) fn tool_parts(messages: Vec<warrant_core::part::Message>) -> Vec<ToolPart> {
    messages
        .into_iter()
        .flat_map(|m| m.parts)
        .filter_map(|p| match p {
            MessagePart::Tool(t) => Some(t),
            _ => None,
        })
        .collect()
}
