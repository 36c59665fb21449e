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
        let inner = &self.inner;
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
            let grant = Grant {
                keys: pending.grant_keys.clone(),
                scope: resolution.scope,
                session_id: pending.session_id.clone(),
                tool_call_id: tool_call_id.to_owned(),
                granted_at: now_millis(),
                description: action.label.clone(),
            };
            if let Err(e) = inner.store.put_grant(&grant).await {
                tracing::warn!(tool_call_id, error = %e, "grant kept in memory only");
            }
            inner.grants.rcu(|grants| {
                let mut next = Vec::clone(grants);
                next.push(grant.clone());
                next
            });
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
        let inner = &self.inner;
        let id = pending.request.tool_call_id.clone();
        tracing::warn!(tool_call_id = %id, "approval request expired: too many requests await the user");
        let record = AuditRecord {
            at: now_millis(),
            session_id: pending.session_id.clone(),
            tool_call_id: id.clone(),
            tool_name: pending.tool_name.clone(),
            event: AuditEvent::Expiry {
                reason: format!(
                    "more than {} approval requests awaited the user; the oldest expired",
                    inner.limits.max_pending_approvals
                ),
            },
        };
        if let Err(e) = inner.store.append_audit(record).await {
            tracing::warn!(tool_call_id = %id, error = %e, "expiry not audited");
        }
        if let Err(e) = inner.store.remove_pending_approval(&id).await {
            tracing::warn!(tool_call_id = %id, error = %e, "expired approval stays in the store's pending list");
        }
        match inner.tracked.remove(&id) {
            Some((_, t)) => self.settle(&id, &t.session_id, Outcome::Expired),
            None => self.settle(&id, &pending.session_id, Outcome::Expired),
        }
        // Dropping the waiter tells the agent the request was abandoned: the call must not run.
        drop(pending.waiter);
    }
}
