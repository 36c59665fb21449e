//! Accepting a call's result: only for an allowed call of that session, and only once.

use crate::decision::{Behavior, ResolutionBehavior};
use crate::event::{Event, ToolCallResult, now_millis};
use crate::ids::{SessionId, ToolCallId};
use crate::part::{ToolPart, ToolState};
use crate::sanitize;

use super::calls::{Outcome, Stage};
use super::{Engine, ResultError};

impl Engine {
    /// Reports the result of a call run under `permit` (see [`Authorization::permit`]).
    ///
    /// [`Authorization::permit`]: super::Authorization::permit
    ///
    /// # Errors
    ///
    /// As [`complete`](Self::complete) (a store failure, or a result already reported).
    pub async fn report(&self, permit: super::Permit, content: &str) -> Result<(), ResultError> {
        self.complete(&permit.session_id, &permit.tool_call_id, content)
            .await
    }

    /// Reports an allowed call's result (`TOOL_CALL_RESULT`); its tool part completes and is
    /// persisted with its decision and resolution.
    ///
    /// # Errors
    ///
    /// [`ResultError::Unknown`] (404) when no call with this id is known in the session;
    /// [`ResultError::NotAccepted`] (409) when the call belongs to another session, was
    /// denied, awaits the user, is still being decided, or already has a result;
    /// [`ResultError::Store`] when the store could not be read.
    pub async fn complete(
        &self,
        session_id: &SessionId,
        tool_call_id: &ToolCallId,
        content: &str,
    ) -> Result<(), ResultError> {
        let mut taken_across_instances = false;
        let outcome = self
            .accept_result(
                session_id,
                tool_call_id,
                content,
                &mut taken_across_instances,
            )
            .await;
        if outcome.is_err() && taken_across_instances {
            // Taken from the other instances but not recorded: give it back, so a retry
            // (here or there) can record it.
            self.release_result_across_instances(tool_call_id).await;
        }
        outcome
    }

    async fn accept_result(
        &self,
        session_id: &SessionId,
        tool_call_id: &ToolCallId,
        content: &str,
        taken: &mut bool,
    ) -> Result<(), ResultError> {
        let inner = &self.inner;
        let refuse = |reason: &str| {
            Err(ResultError::NotAccepted {
                tool_call_id: tool_call_id.to_owned(),
                reason: reason.to_owned(),
            })
        };
        let tracked = inner
            .tracked
            .get(tool_call_id)
            .map(|t| (t.session_id.clone(), t.stage, t.part.is_some()));
        match tracked {
            Some((sid, _, _)) if sid != session_id => return refuse(OTHER_SESSION),
            Some((_, Stage::Deciding, _)) => return refuse("it is still being decided"),
            Some((_, Stage::Pending, _)) => return refuse("it awaits the user's approval"),
            Some((_, Stage::Allowed, has_part)) => {
                // Everything that can fail is done before the call is marked completed.
                let stored = if has_part {
                    None
                } else {
                    self.stored_part(session_id, tool_call_id)
                        .await?
                        .map(|(_, p)| p)
                };
                if !self
                    .take_result_across_instances(tool_call_id, taken)
                    .await?
                {
                    return refuse(Outcome::Completed.refusal());
                }
                if let Some((_, mut t)) = inner
                    .tracked
                    .remove_if(tool_call_id, |_, t| t.stage == Stage::Allowed)
                {
                    self.done_awaiting(tool_call_id);
                    self.settle(tool_call_id, session_id, Outcome::Completed);
                    let part = t
                        .part
                        .take()
                        .or(stored)
                        .unwrap_or_else(|| ToolPart::new(tool_call_id, ""));
                    self.finish(session_id, &t.message_id, part, content).await;
                    return Ok(());
                }
                // Forgotten from memory meanwhile (beyond the limit of calls awaiting a
                // result): the store has the last word, below.
            }
            None => {}
        }
        if let Some(s) = inner.settled.get(tool_call_id) {
            if s.session_id != session_id {
                return refuse(OTHER_SESSION);
            }
            if s.outcome != Outcome::Allowed {
                return refuse(s.outcome.refusal());
            }
        }
        // Forgotten from memory (or decided before a restart): the store has the last word.
        let Some((message_id, part)) = self.stored_part(session_id, tool_call_id).await? else {
            return Err(ResultError::Unknown(tool_call_id.to_owned()));
        };
        if part.state == ToolState::Completed {
            return refuse(Outcome::Completed.refusal());
        }
        let allowed = match (&part.permission_resolution, &part.permission_decision) {
            (Some(r), _) => r.behavior == ResolutionBehavior::Allow,
            (None, Some(d)) => d.behavior == Behavior::Allow,
            (None, None) => false,
        };
        if !allowed {
            let why = match (&part.permission_resolution, &part.permission_decision) {
                (None, Some(d)) if d.behavior == Behavior::Ask => "it awaits the user's approval",
                (None, None) => "it was never decided",
                _ => Outcome::Denied.refusal(),
            };
            return refuse(why);
        }
        // Of two concurrent results, the one that marks the call completed wins.
        let claimed = match inner.settled.get(tool_call_id) {
            Some(s) => s.outcome == Outcome::Allowed,
            None => true,
        };
        if !claimed
            || !self
                .take_result_across_instances(tool_call_id, taken)
                .await?
            || !self.claim_completed(tool_call_id, session_id)
        {
            return refuse(Outcome::Completed.refusal());
        }
        self.finish(session_id, &message_id, part, content).await;
        Ok(())
    }

    /// With [other instances](Self::join_instances), takes the call's result for this one,
    /// once per post (`taken` remembers it): `false` when another instance (or an earlier
    /// post here) took it. Alone, `true`: the engine's own state refuses a second result.
    async fn take_result_across_instances(
        &self,
        tool_call_id: &ToolCallId,
        taken: &mut bool,
    ) -> Result<bool, ResultError> {
        if *taken {
            return Ok(true);
        }
        match self.inner.instances.get() {
            Some(arbiter) => {
                *taken = arbiter.claim_result(tool_call_id).await?;
                Ok(*taken)
            }
            None => Ok(true),
        }
    }

    /// Gives back a result taken from the other instances and then not recorded; a failure
    /// is logged (the call then refuses further results, which never accepts one twice).
    async fn release_result_across_instances(&self, tool_call_id: &ToolCallId) {
        if let Some(arbiter) = self.inner.instances.get()
            && let Err(e) = arbiter.release_result(tool_call_id).await
        {
            tracing::warn!(tool_call_id = %tool_call_id, error = %e, "a result taken and not recorded was not given back");
        }
    }
    /// Reports that a call did not run (`TOOL_CALL_RESULT` reading `Not run: <why>`): only
    /// for a call that was denied or whose approval request expired or was abandoned.
    ///
    /// # Errors
    ///
    /// [`ResultError::NotAccepted`] for a call that may run; [`ResultError::Unknown`] for an
    /// unknown one; [`ResultError::Store`] when the store could not be read.
    pub async fn report_not_run(
        &self,
        session_id: &SessionId,
        tool_call_id: &ToolCallId,
        why: &str,
    ) -> Result<(), ResultError> {
        let inner = &self.inner;
        let outcome = inner
            .settled
            .get(tool_call_id)
            .filter(|s| s.session_id == session_id)
            .map(|s| s.outcome);
        match outcome {
            Some(Outcome::Denied | Outcome::Expired) => {}
            Some(other) => {
                return Err(ResultError::NotAccepted {
                    tool_call_id: tool_call_id.to_owned(),
                    reason: other.refusal().to_owned(),
                });
            }
            None if inner.tracked.contains_key(tool_call_id) => {
                return Err(ResultError::NotAccepted {
                    tool_call_id: tool_call_id.to_owned(),
                    reason: "it may still run".to_owned(),
                });
            }
            None => return Err(ResultError::Unknown(tool_call_id.to_owned())),
        }
        if !self.claim_completed(tool_call_id, session_id) {
            return Err(ResultError::NotAccepted {
                tool_call_id: tool_call_id.to_owned(),
                reason: Outcome::Completed.refusal().to_owned(),
            });
        }
        let (message_id, part) = self
            .stored_part(session_id, tool_call_id)
            .await?
            .unwrap_or_else(|| {
                (
                    format!("msg-{tool_call_id}"),
                    ToolPart::new(tool_call_id, ""),
                )
            });
        self.finish(session_id, &message_id, part, &format!("Not run: {why}"))
            .await;
        Ok(())
    }

    /// Merges the result into the part, persists it, and sends the event.
    async fn finish(
        &self,
        session_id: &SessionId,
        message_id: &str,
        mut part: ToolPart,
        content: &str,
    ) {
        let event = Event::ToolCallResult(ToolCallResult {
            message_id: format!("{}-result", part.tool_call_id),
            tool_call_id: part.tool_call_id.as_str().to_owned(),
            content: sanitize::redact(content),
            role: Some("tool".to_owned()),
            timestamp: Some(now_millis()),
        });
        part.apply(&event);
        let write = self.start_part_write(session_id, message_id, &part);
        self.persist_and_publish(session_id, &event, write).await;
    }
}

const OTHER_SESSION: &str = "it belongs to another session";
