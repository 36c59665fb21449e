//! Accepting the user's resolution of a pending approval request, and expiring the oldest
//! requests beyond the limit.

use crate::audit::{AuditEvent, AuditRecord};
use crate::decision::{ResolutionBehavior, ResolutionSource, Scope, ToolPermissionResolution};
use crate::event::{WarrantEvent, now_millis};
use crate::grant::Grant;
use crate::part::ToolPart;

use super::calls::{Outcome, Stage, Tracked, lock};
use super::{Engine, Pending, ResolveError};

impl Engine {
    /// Accepts the user's action on a pending approval request.
    ///
    /// Accepted only for a pending request, only with an offered action, only once. The
    /// resolution is audited, emitted as `tool_permission_resolution`, merged into the tool
    /// part, and a `session` or `global` scope becomes a grant.
    ///
    /// # Errors
    ///
    /// [`ResolveError`]: unknown call (404), not pending (409, also while a concurrent
    /// resolution of the same call is being recorded), action not offered (422), or a store
    /// failure (the request then stays pending).
    pub async fn resolve(
        &self,
        tool_call_id: &str,
        action_id: &str,
    ) -> Result<ToolPermissionResolution, ResolveError> {
        self.resolve_with_message(tool_call_id, action_id, None)
            .await
    }

    /// [`resolve`](Self::resolve) with a typed choice among the standard actions.
    ///
    /// # Errors
    ///
    /// As [`resolve`](Self::resolve).
    pub async fn resolve_choice(
        &self,
        tool_call_id: &str,
        choice: crate::approval::ApprovalChoice,
    ) -> Result<ToolPermissionResolution, ResolveError> {
        self.resolve(tool_call_id, choice.action_id()).await
    }

    /// Like [`resolve`](Self::resolve), with a message the user tells the agent along with a
    /// denial (redacted; it rides on the resolution event and in the audit log).
    ///
    /// # Errors
    ///
    /// As [`resolve`](Self::resolve), and [`ResolveError::MessageRefused`] (422) for a message
    /// with an allowing action or longer than
    /// [`MAX_DENIAL_MESSAGE_CHARS`](crate::decision::MAX_DENIAL_MESSAGE_CHARS).
    #[tracing::instrument(level = "debug", name = "resolve", skip(self, message))]
    pub async fn resolve_with_message(
        &self,
        tool_call_id: &str,
        action_id: &str,
        message: Option<&str>,
    ) -> Result<ToolPermissionResolution, ResolveError> {
        let inner = &self.inner;
        let message = match message {
            None => None,
            Some(m) if m.chars().count() > crate::decision::MAX_DENIAL_MESSAGE_CHARS => {
                return Err(ResolveError::MessageRefused(format!(
                    "the message has {} characters; at most {} are accepted",
                    m.chars().count(),
                    crate::decision::MAX_DENIAL_MESSAGE_CHARS
                )));
            }
            Some(m) => Some(crate::sanitize::redact(m)),
        };
        // Claiming the request is the one atomic step: of two concurrent resolutions, one
        // wins and the other sees a request being resolved (409), never a missing one.
        let action = match inner.pending.get_mut(tool_call_id) {
            None if inner.tracked.contains_key(tool_call_id)
                || inner.settled.contains_key(tool_call_id) =>
            {
                return Err(ResolveError::NotPending(tool_call_id.to_owned()));
            }
            None => return Err(ResolveError::Unknown(tool_call_id.to_owned())),
            Some(p) if p.resolving => {
                return Err(ResolveError::NotPending(tool_call_id.to_owned()));
            }
            Some(mut p) => match p.request.action(action_id) {
                Some(a) if message.is_some() && a.behavior != ResolutionBehavior::Deny => {
                    return Err(ResolveError::MessageRefused(format!(
                        "action \"{action_id}\" allows the call; only a denial carries a message to the agent"
                    )));
                }
                Some(a) => {
                    let a = a.clone();
                    p.resolving = true;
                    a
                }
                None => {
                    let offered: Vec<&str> =
                        p.request.actions.iter().map(|a| a.id.as_str()).collect();
                    return Err(ResolveError::ActionNotOffered {
                        tool_call_id: tool_call_id.to_owned(),
                        action_id: action_id.to_owned(),
                        offered: offered.join(", "),
                    });
                }
            },
        };
        let (session_id, tool_name) = match inner.pending.get(tool_call_id) {
            Some(p) => (p.session_id.clone(), p.tool_name.clone()),
            None => return Err(ResolveError::NotPending(tool_call_id.to_owned())),
        };
        let resolution = ToolPermissionResolution {
            tool_call_id: tool_call_id.to_owned(),
            behavior: action.behavior,
            source: ResolutionSource::User,
            action_id: action.id.clone(),
            scope: action.scope,
            message,
        };
        let record = AuditRecord {
            at: now_millis(),
            session_id: session_id.clone(),
            tool_call_id: tool_call_id.to_owned(),
            tool_name,
            event: AuditEvent::Resolution {
                resolution: resolution.clone(),
            },
        };
        if let Err(e) = inner.store.append_audit(record).await {
            if let Some(mut p) = inner.pending.get_mut(tool_call_id) {
                p.resolving = false;
            }
            return Err(ResolveError::Store(e));
        }
        // The call's part is in memory before the request leaves the pending map, so a late
        // concurrent resolution still finds the call (409).
        let needs_part = inner
            .tracked
            .get(tool_call_id)
            .is_none_or(|t| t.part.is_none());
        if needs_part && let Some(p) = inner.pending.get(tool_call_id) {
            let (sid, mid, request_id, tool) = (
                p.session_id.clone(),
                p.message_id.clone(),
                p.request.tool_call_id.clone(),
                p.tool_name.clone(),
            );
            drop(p);
            self.restore_part(&sid, &mid, &request_id, &tool).await;
        }
        let Some((_, mut pending)) = inner.pending.remove(tool_call_id) else {
            return Err(ResolveError::NotPending(tool_call_id.to_owned()));
        };
        if let Some(mut t) = inner.tracked.get_mut(tool_call_id) {
            t.stage = match resolution.behavior {
                ResolutionBehavior::Allow => Stage::Allowed,
                // Still tracked until the resolution is merged into its part.
                ResolutionBehavior::Deny => Stage::Pending,
            };
        }
        if let Err(e) = inner.store.remove_pending_approval(tool_call_id).await {
            tracing::warn!(tool_call_id, error = %e, "resolved approval stays in the store's pending list");
        }
        if resolution.scope != Scope::Once && !pending.grant_keys.is_empty() {
            self.keep_grant(Grant {
                id: Grant::id_for(&pending.session_id, tool_call_id),
                keys: pending.grant_keys.clone(),
                scope: resolution.scope,
                session_id: pending.session_id.clone(),
                tool_call_id: tool_call_id.to_owned(),
                granted_at: now_millis(),
                description: action.label.clone(),
                action_id: action.id.clone(),
            })
            .await;
        }
        self.send(
            &pending.session_id,
            WarrantEvent::Resolution(resolution.clone()).into_event(Some(now_millis())),
        )
        .await;
        match resolution.behavior {
            ResolutionBehavior::Allow => self.await_result(tool_call_id),
            ResolutionBehavior::Deny => self.untrack(tool_call_id, Outcome::Denied),
        }
        if let Some(waiter) = pending.waiter.take() {
            let _ = waiter.send(resolution.clone());
        }
        Ok(resolution)
    }

    /// Brings a call's part back from the store (a request restored after a restart, or a
    /// large part left there to save memory).
    pub(super) async fn restore_part(
        &self,
        session_id: &str,
        message_id: &str,
        tool_call_id: &str,
        tool_name: &str,
    ) {
        let part = self
            .stored_part(session_id, tool_call_id)
            .await
            .ok()
            .flatten()
            .map(|(_, part)| part)
            .unwrap_or_else(|| ToolPart::new(tool_call_id, tool_name));
        let size = part
            .input
            .as_ref()
            .and_then(|i| serde_json::to_vec(i).ok())
            .map_or(0, |v| v.len());
        self.inner
            .tracked
            .entry(tool_call_id.to_owned())
            .and_modify(|t| {
                if t.part.is_none() {
                    t.part = Some(part.clone());
                }
            })
            .or_insert_with(|| Tracked {
                session_id: session_id.to_owned(),
                message_id: message_id.to_owned(),
                part: Some(part),
                stage: Stage::Pending,
                size,
            });
    }

    /// A call's tool part as the store holds it, with its message's id.
    pub(super) async fn stored_part(
        &self,
        session_id: &str,
        tool_call_id: &str,
    ) -> Result<Option<(String, ToolPart)>, crate::store::StoreError> {
        let messages = self.inner.store.messages(session_id).await?;
        Ok(messages.into_iter().find_map(|m| {
            let id = m.id;
            m.parts.into_iter().find_map(|p| match p {
                crate::part::MessagePart::Tool(t) if t.tool_call_id == tool_call_id => {
                    Some((id.clone(), t))
                }
                _ => None,
            })
        }))
    }

    /// Expires the oldest pending requests beyond the limit: each is audited as expired, its
    /// waiter learns it was abandoned, and its call never runs.
    pub(super) async fn expire_beyond_limit(&self) {
        let inner = &self.inner;
        let max = inner.limits.max_pending_approvals.max(1);
        loop {
            if inner.pending.len() <= max {
                break;
            }
            let oldest = {
                let mut order = lock(&inner.pending_order);
                if order.len() > 2 * max + 16 {
                    order.retain(|id| inner.pending.contains_key(id));
                }
                order.pop_front()
            };
            let Some(id) = oldest else { break };
            let Some((_, pending)) = inner.pending.remove_if(&id, |_, p| !p.resolving) else {
                continue;
            };
            self.expire(pending).await;
        }
    }

    async fn expire(&self, pending: Pending) {
        let reason = format!(
            "more than {} approval requests awaited the user; the oldest expired",
            self.inner.limits.max_pending_approvals
        );
        tracing::warn!(tool_call_id = %pending.request.tool_call_id, "approval request expired: too many requests await the user");
        self.end_unresolved(
            pending,
            AuditEvent::Expiry { reason },
            "Expired: too many approval requests awaited you, so this call never ran.",
        )
        .await;
    }

    /// Withdraws a pending approval request: the agent gave up on it (or will not run the
    /// call). Audited as `Cancel`; its part says it never ran; a later resolution is 409.
    ///
    /// # Errors
    ///
    /// [`ResolveError::Unknown`] (404) or [`ResolveError::NotPending`] (409), as for
    /// [`resolve`](Self::resolve).
    pub async fn cancel(&self, tool_call_id: &str, reason: &str) -> Result<(), ResolveError> {
        let pending = self.take_unresolved(tool_call_id)?;
        tracing::info!(tool_call_id, reason, "approval request cancelled");
        self.end_unresolved(
            pending,
            AuditEvent::Cancel {
                reason: reason.to_owned(),
            },
            "Cancelled: the agent withdrew this request, so the call never ran.",
        )
        .await;
        Ok(())
    }

    /// Expires a request that waited longer than [`EngineLimits::approval_timeout`]; nothing
    /// happens when it was resolved or ended meanwhile.
    ///
    /// [`EngineLimits::approval_timeout`]: super::EngineLimits::approval_timeout
    pub(super) async fn expire_if_waiting(&self, tool_call_id: &str, waited: std::time::Duration) {
        let Ok(pending) = self.take_unresolved(tool_call_id) else {
            return;
        };
        tracing::info!(tool_call_id, "approval request expired unanswered");
        self.end_unresolved(
            pending,
            AuditEvent::Expiry {
                reason: format!("no resolution within {} s", waited.as_secs()),
            },
            "Expired: nobody answered this request in time, so the call never ran.",
        )
        .await;
    }

    /// Takes a pending request out of the pending map, unless a resolution is being recorded.
    fn take_unresolved(&self, tool_call_id: &str) -> Result<Pending, ResolveError> {
        let inner = &self.inner;
        match inner.pending.remove_if(tool_call_id, |_, p| !p.resolving) {
            Some((_, pending)) => Ok(pending),
            None if inner.pending.contains_key(tool_call_id)
                || inner.tracked.contains_key(tool_call_id)
                || inner.settled.contains_key(tool_call_id) =>
            {
                Err(ResolveError::NotPending(tool_call_id.to_owned()))
            }
            None => Err(ResolveError::Unknown(tool_call_id.to_owned())),
        }
    }

    /// Ends a request that will never be resolved: audited (`event`: expired or cancelled), out of
    /// the store's pending list, its part marked interrupted with `note`, its call settled as
    /// expired (a resolution or a result is refused from then on), and its waiter told the
    /// call must not run.
    pub(super) async fn end_unresolved(&self, pending: Pending, event: AuditEvent, note: &str) {
        let inner = &self.inner;
        let id = pending.request.tool_call_id.clone();
        let record = AuditRecord {
            at: now_millis(),
            session_id: pending.session_id.clone(),
            tool_call_id: id.clone(),
            tool_name: pending.tool_name.clone(),
            event,
        };
        if let Err(e) = inner.store.append_audit(record).await {
            tracing::warn!(tool_call_id = %id, error = %e, "expiry not audited");
        }
        if let Err(e) = inner.store.remove_pending_approval(&id).await {
            tracing::warn!(tool_call_id = %id, error = %e, "expired approval stays in the store's pending list");
        }
        let tracked = inner.tracked.remove(&id).map(|(_, t)| t);
        let part = match tracked.as_ref().and_then(|t| t.part.clone()) {
            Some(part) => Some(part),
            None => self
                .stored_part(&pending.session_id, &id)
                .await
                .ok()
                .flatten()
                .map(|(_, part)| part),
        };
        if let Some(mut part) = part {
            part.state = crate::part::ToolState::Completed;
            part.output = Some(note.to_owned());
            part.interrupted = true;
            if let Err(e) = inner
                .store
                .upsert_tool_part(&pending.session_id, &pending.message_id, &part)
                .await
            {
                tracing::warn!(tool_call_id = %id, error = %e, "interrupted part not recorded");
            }
        }
        self.settle(&id, &pending.session_id, Outcome::Expired);
        // Dropping the waiter tells the agent the request was abandoned: the call must not run.
        drop(pending.waiter);
    }
}
