//! One run of the demo agent: it speaks, makes its tool calls through the engine, runs the
//! allowed ones (mocked), and ends finished, interrupted or failed.

use std::collections::HashMap;
use warrant_core::ids::{SessionId, ToolCallId};

use warrant_core::call::ToolCall;
use warrant_core::decision::{Behavior, ResolutionBehavior};
use warrant_core::engine::{AuthorizeOptions, Engine, ResolveError};
use warrant_core::event::{
    AgentEvent, Interrupt, RunError, RunFinished, RunOutcome, TextMessageContent, TextMessageEnd,
    TextMessageStart, now_millis,
};

use super::input::RunOptions;
use super::resume::{Suspended, Waiting, interrupt_for};
use super::script::Step;
use warrant_transports::error::ApiError;

/// How a run ended.
pub(super) enum Ending {
    /// Every step is done.
    Finished,
    /// A call waits for the user; the rest of the script waits with it.
    Interrupted(Suspended),
    /// A call could not be authorized (it did not run).
    Failed(ApiError),
}

/// The run's last event: `RUN_FINISHED` (success or interrupt) or `RUN_ERROR`.
pub(super) enum Finish {
    Success,
    Interrupt(Vec<Interrupt>),
    Error(ApiError),
}

/// A run in progress.
pub(super) struct Run {
    pub engine: Engine,
    pub thread_id: SessionId,
    pub run_id: String,
    pub options: RunOptions,
    messages: usize,
}

impl Run {
    pub fn new(engine: Engine, thread_id: SessionId, run_id: String, options: RunOptions) -> Self {
        Self {
            engine,
            thread_id,
            run_id,
            options,
            messages: 0,
        }
    }

    /// Runs the steps in order; stops at the first call that waits for the user.
    pub async fn execute(&mut self, steps: Vec<Step>, closing: &'static str) -> Ending {
        let mut steps = steps.into_iter();
        while let Some(step) = steps.next() {
            match self.step(step).await {
                Err(e) => return Ending::Failed(e),
                Ok(None) => {}
                Ok(Some(waiting)) => {
                    return Ending::Interrupted(Suspended {
                        waiting: vec![waiting],
                        remaining: steps.collect(),
                        closing,
                    });
                }
            }
        }
        self.say(closing).await;
        Ending::Finished
    }

    /// Resolves the calls an earlier run waited on (with the resume's actions), then runs or
    /// skips each by its resolution.
    pub async fn settle(
        &mut self,
        waiting: Vec<Waiting>,
        actions: &HashMap<ToolCallId, String>,
    ) -> Result<(), ApiError> {
        for w in waiting {
            let mut resolved = None;
            if let Some(action) = actions.get(w.tool_call_id.as_str()) {
                match self.engine.resolve(&w.tool_call_id, action).await {
                    Ok(r) => resolved = Some(r.behavior),
                    // Resolved meanwhile by someone else: the waiter learns how.
                    Err(ResolveError::NotPending(_)) => {}
                    Err(e) => return Err(e.into()),
                }
            }
            if resolved.is_none()
                && let Some(pending) = w.pending
            {
                resolved = pending.resolution().await.ok().map(|r| r.behavior);
            }
            let outcome = match resolved {
                Some(ResolutionBehavior::Allow) => Ok(()),
                Some(ResolutionBehavior::Deny) => Err("the user denied it"),
                None => Err("its approval was settled elsewhere and the outcome is unknown here"),
            };
            self.conclude(&w.tool_call_id, w.step.as_ref(), outcome)
                .await;
        }
        Ok(())
    }

    /// Emits the run's last event.
    pub async fn finish(&self, finish: Finish) {
        let outcome = match finish {
            Finish::Error(e) => {
                let event = AgentEvent::RunError(RunError {
                    message: e.message,
                    code: Some(e.code),
                    timestamp: Some(now_millis()),
                });
                self.engine.emit(&self.thread_id, event).await;
                return;
            }
            Finish::Success => RunOutcome::Success,
            Finish::Interrupt(interrupts) => RunOutcome::Interrupt { interrupts },
        };
        let event = AgentEvent::RunFinished(RunFinished {
            thread_id: self.thread_id.as_str().to_owned(),
            run_id: self.run_id.clone(),
            result: None,
            outcome: Some(outcome),
            timestamp: Some(now_millis()),
        });
        self.engine.emit(&self.thread_id, event).await;
    }

    /// One step: say, call, then run it, deny it, or wait for the user.
    async fn step(&mut self, step: Step) -> Result<Option<Waiting>, ApiError> {
        let message_id = self.say(step.say).await;
        let id = ToolCallId::new(format!(
            "call-{}",
            &uuid::Uuid::new_v4().simple().to_string()[..12]
        ));
        let mut call = ToolCall::new(&self.thread_id, &id, step.tool, step.input.clone());
        call.message_id = Some(message_id);
        let mode = self.options.mode.unwrap_or(step.mode);
        let announce = true;
        let authorization = self
            .engine
            .authorize(call, AuthorizeOptions { mode, announce })
            .await?;
        let decision = &authorization.decision;
        let outcome = match (decision.behavior, authorization.approval) {
            (Behavior::Allow, _) => Ok(()),
            (Behavior::Ask, Some(pending)) if !self.options.wait_for_approval => {
                return Ok(Some(Waiting {
                    interrupt: interrupt_for(&pending.request),
                    tool_call_id: id,
                    step: Some(step),
                    pending: Some(pending),
                }));
            }
            (Behavior::Ask, Some(pending)) => match pending.resolution().await {
                Ok(r) if r.behavior == ResolutionBehavior::Allow => Ok(()),
                Ok(_) => Err("the user denied it".to_owned()),
                Err(e) => Err(e.to_string()),
            },
            (Behavior::Ask, None) => Err("no approval request could be opened".to_owned()),
            (Behavior::Deny, _) => Err(decision.reason.clone()),
        };
        let outcome = outcome.as_ref().map(drop).map_err(String::as_str);
        self.conclude(&id, Some(&step), outcome).await;
        Ok(None)
    }

    /// Reports a call's (mocked) result, or why it did not run.
    async fn conclude(
        &self,
        tool_call_id: &ToolCallId,
        step: Option<&Step>,
        outcome: Result<(), &str>,
    ) {
        let reported = match outcome {
            Ok(()) => {
                let content = step.map_or("Done.", |s| s.output);
                self.engine
                    .complete(&self.thread_id, tool_call_id, content)
                    .await
            }
            Err(why) => {
                self.engine
                    .report_not_run(&self.thread_id, tool_call_id, why)
                    .await
            }
        };
        if let Err(e) = reported {
            tracing::warn!(%tool_call_id, error = %e, "the demo's tool result was not reported");
        }
    }

    /// One assistant text message; returns its id (the parent of the call that follows).
    async fn say(&mut self, text: &str) -> String {
        self.messages += 1;
        let id = format!("{}-m{}", self.run_id, self.messages);
        let now = Some(now_millis());
        let events = [
            AgentEvent::TextMessageStart(TextMessageStart {
                message_id: id.clone(),
                role: Some("assistant".to_owned()),
                timestamp: now,
            }),
            AgentEvent::TextMessageContent(TextMessageContent {
                message_id: id.clone(),
                delta: text.to_owned(),
                timestamp: now,
            }),
            AgentEvent::TextMessageEnd(TextMessageEnd {
                message_id: id.clone(),
                timestamp: now,
            }),
        ];
        for event in events {
            self.engine.emit(&self.thread_id, event).await;
        }
        id
    }
}
