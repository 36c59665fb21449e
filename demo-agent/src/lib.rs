//! The demo agent behind `POST /v1/agent`: a scripted agent whose tools are mocked but whose
//! every tool call is authorized for real by the engine.
//!
//! A run follows the script the latest user message picks (see [`scenario_for`]). A call
//! that asks ends the run with an AG-UI interrupt (`RUN_FINISHED` with
//! `outcome: {type: "interrupt"}`); a new run on the thread with `resume` resolves it through
//! the engine and goes on with the rest of the script. With `forwardedProps.waitForApproval`
//! the run instead stays open until the request is resolved (`POST /v1/approvals/…`).

use warrant_core::ids::{SessionId, ToolCallId};
mod input;
mod resume;
mod run;
mod script;

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use dashmap::DashMap;
use tokio::sync::{Mutex, OwnedMutexGuard, oneshot};
use warrant_core::engine::Engine;
use warrant_core::event::{
    AgentEvent, Event, RunStarted, TextMessageContent, TextMessageEnd, TextMessageStart, now_millis,
};
use warrant_core::workspace::SessionStatus;

pub use input::{ResumeEntry, ResumeStatus, RunAgentInput, RunOptions};
pub use resume::{TOOL_CALL_REASON, interrupt_for, interrupt_id};
pub use script::{Scenario, Step, scenario_for};

use resume::{Suspended, answers, restored};
use run::{Ending, Finish, Run};
use warrant_transports::error::ApiError;
use warrant_transports::sse::SseHub;
use warrant_transports::workspace::{ensure_session, set_session_status};

/// A run that started: where its events begin in the thread's log.
#[derive(Debug)]
pub struct StartedRun {
    /// The thread (the session whose log holds the run's events).
    pub thread_id: SessionId,
    /// The run.
    pub run_id: String,
    /// The log position of its `RUN_STARTED`.
    pub first_seq: u64,
    /// Fires (or is dropped) when the run's task is over.
    pub done: oneshot::Receiver<()>,
}

/// Runs the demo script, one run per thread at a time.
pub struct DemoAgent {
    engine: Engine,
    hub: Arc<SseHub>,
    threads: DashMap<String, ThreadSlot>,
    suspended: DashMap<String, Suspended>,
}

impl std::fmt::Debug for DemoAgent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DemoAgent")
            .field("threads", &self.threads.len())
            .field("suspended", &self.suspended.len())
            .finish_non_exhaustive()
    }
}

#[derive(Default)]
struct ThreadSlot {
    run: Arc<Mutex<()>>,
    finishing: Arc<AtomicBool>,
}

/// The right to run on a thread; released when dropped.
struct Claim {
    _run: OwnedMutexGuard<()>,
    finishing: Arc<AtomicBool>,
}

enum Plan {
    Fresh(Scenario),
    Resume {
        actions: HashMap<ToolCallId, String>,
        restored: Option<Suspended>,
    },
}

impl DemoAgent {
    /// An agent deciding through `engine`, whose run events are logged through `hub` (the
    /// engine's transport).
    pub fn new(engine: Engine, hub: Arc<SseHub>) -> Arc<Self> {
        Arc::new(Self {
            engine,
            hub,
            threads: DashMap::new(),
            suspended: DashMap::new(),
        })
    }

    /// Starts a run: checks the input and any resume, logs `RUN_STARTED`, and runs the rest
    /// in a task of its own (a client that leaves does not stop it).
    ///
    /// # Errors
    ///
    /// 400 for a malformed input; 409 `run_active` while another run of the thread is going
    /// on; the errors of resuming (see [`ResumeEntry`]); 503 when the log is unavailable.
    pub async fn start(self: &Arc<Self>, input: RunAgentInput) -> Result<StartedRun, ApiError> {
        let options = input.options()?;
        let thread_id = SessionId::from(input.thread_id.clone());
        let claim = self.claim(thread_id.as_str()).await?;
        ensure_session(&self.engine, &thread_id).await?;
        let plan = self.plan(&input)?;
        // The thread runs until its run ends: its approval settings hold still meanwhile.
        set_session_status(&self.engine, &thread_id, SessionStatus::Running).await?;
        let started = Event::RunStarted(RunStarted {
            thread_id: input.thread_id.clone(),
            run_id: input.run_id.clone(),
            parent_run_id: input.parent_run_id.clone(),
            timestamp: Some(now_millis()),
        });
        let first_seq = match self.hub.publish(&thread_id, &started).await {
            Ok(seq) => seq,
            Err(e) => {
                let _ = set_session_status(&self.engine, &thread_id, SessionStatus::Idle).await;
                return Err(e.into());
            }
        };
        // The user's new message joins the thread's log, so every tab (and a reload) shows it.
        if input.resume.as_deref().is_none_or(<[_]>::is_empty)
            && let Some((id, text)) = input.last_user_message()
            && !text.is_empty()
        {
            let id = id.unwrap_or_else(|| format!("{}-user", input.run_id));
            let now = Some(now_millis());
            for event in [
                AgentEvent::TextMessageStart(TextMessageStart {
                    message_id: id.clone(),
                    role: Some("user".to_owned()),
                    timestamp: now,
                }),
                AgentEvent::TextMessageContent(TextMessageContent {
                    message_id: id.clone(),
                    delta: warrant_core::sanitize::redact(&text),
                    timestamp: now,
                }),
                AgentEvent::TextMessageEnd(TextMessageEnd {
                    message_id: id,
                    timestamp: now,
                }),
            ] {
                self.engine.emit(&thread_id, event).await;
            }
        }
        let (done_tx, done) = oneshot::channel();
        let run = Run::new(
            self.engine.clone(),
            thread_id.clone(),
            input.run_id.clone(),
            options,
        );
        let agent = Arc::clone(self);
        tokio::spawn(async move {
            agent.drive(run, plan, claim).await;
            drop(done_tx);
        });
        Ok(StartedRun {
            thread_id,
            run_id: input.run_id,
            first_seq,
            done,
        })
    }

    /// Waits for a thread's run that is only emitting its last event; refuses otherwise.
    async fn claim(&self, thread_id: &str) -> Result<Claim, ApiError> {
        let (run, finishing) = {
            let slot = self.threads.entry(thread_id.to_owned()).or_default();
            (Arc::clone(&slot.run), Arc::clone(&slot.finishing))
        };
        let guard = match Arc::clone(&run).try_lock_owned() {
            Ok(guard) => guard,
            Err(_) if finishing.load(Ordering::Acquire) => run.lock_owned().await,
            Err(_) => {
                return Err(ApiError::conflict(
                    "run_active",
                    format!(
                        "thread \"{thread_id}\" already has a run in progress; wait for its RUN_FINISHED"
                    ),
                ));
            }
        };
        finishing.store(false, Ordering::Release);
        Ok(Claim {
            _run: guard,
            finishing,
        })
    }

    fn plan(&self, input: &RunAgentInput) -> Result<Plan, ApiError> {
        let thread_id = &input.thread_id;
        let resume = input.resume.as_deref().filter(|r| !r.is_empty());
        let pending = self.engine.pending_requests();
        if let Some(suspended) = self.suspended.get(thread_id) {
            let actions = answers(thread_id, &suspended.waiting, resume, &pending)?;
            return Ok(Plan::Resume {
                actions,
                restored: None,
            });
        }
        if let Some(resume) = resume {
            let restored = restored(thread_id, &pending);
            let waiting = restored.as_ref().map_or(&[][..], |s| &s.waiting[..]);
            let actions = answers(thread_id, waiting, Some(resume), &pending)?;
            return Ok(Plan::Resume { actions, restored });
        }
        Ok(Plan::Fresh(scenario_for(&input.last_user_text())))
    }

    async fn drive(&self, mut run: Run, plan: Plan, claim: Claim) {
        let ending = match plan {
            Plan::Fresh(scenario) => run.execute(scenario.steps, scenario.closing).await,
            Plan::Resume { actions, restored } => {
                let suspended = self
                    .suspended
                    .remove(run.thread_id.as_str())
                    .map(|(_, s)| s)
                    .or(restored);
                match suspended {
                    None => run.execute(Vec::new(), "Nothing was waiting.").await,
                    Some(s) => match run.settle(s.waiting, &actions).await {
                        Err(e) => Ending::Failed(e),
                        Ok(()) => run.execute(s.remaining, s.closing).await,
                    },
                }
            }
        };
        let finish = match ending {
            Ending::Finished => Finish::Success,
            Ending::Failed(e) => Finish::Error(e),
            Ending::Interrupted(s) => {
                let interrupts = s.waiting.iter().map(|w| w.interrupt.clone()).collect();
                // Stored before RUN_FINISHED leaves: the resume may follow at once.
                self.suspended.insert(run.thread_id.as_str().to_owned(), s);
                Finish::Interrupt(interrupts)
            }
        };
        if let Err(e) = set_session_status(&self.engine, &run.thread_id, SessionStatus::Idle).await
        {
            tracing::warn!(thread_id = %run.thread_id, error = %e, "the session stays marked running");
        }
        claim.finishing.store(true, Ordering::Release);
        run.finish(finish).await;
        drop(claim);
    }
}
