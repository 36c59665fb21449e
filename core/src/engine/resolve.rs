//! Accepting the user's resolution of a pending approval request.

use crate::audit::{AuditEvent, AuditRecord};
use crate::decision::{ResolutionSource, Scope, ToolPermissionResolution};
use crate::event::{WarrantEvent, now_millis};
use crate::grant::Grant;
use crate::part::ToolPart;

use super::{Engine, Pending, ResolveError, SETTLED_MEMORY, Tracked};
use std::sync::atomic::Ordering;

impl Engine {
    /// Accepts the user's action on a pending approval request.
    ///
    /// Accepted only for a pending request, only with an offered action, only once. The
    /// resolution is audited, emitted as `tool_permission_resolution`, merged into the tool
    /// part, and a `session` or `global` scope becomes a grant.
    ///
    /// # Errors
    ///
    /// [`ResolveError`]: unknown call (404), not pending (409), action not offered (422), or
    /// a store failure (the request then stays pending).
    pub async fn resolve(
        &self,
        tool_call_id: &str,
        action_id: &str,
    ) -> Result<ToolPermissionResolution, ResolveError> {
        let inner = &self.inner;
        let action = match inner.pending.get(tool_call_id) {
            None if inner.settled.contains_key(tool_call_id) => {
                return Err(ResolveError::NotPending(tool_call_id.to_owned()));
            }
            None => return Err(ResolveError::Unknown(tool_call_id.to_owned())),
            Some(p) => match p.request.action(action_id) {
                Some(a) => a.clone(),
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
        // Removing is the one atomic step: of two concurrent resolutions, one wins.
        let Some((_, mut pending)) = inner.pending.remove(tool_call_id) else {
            return Err(ResolveError::NotPending(tool_call_id.to_owned()));
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
            session_id: pending.session_id.clone(),
            tool_call_id: tool_call_id.to_owned(),
            tool_name: pending.tool_name.clone(),
            event: AuditEvent::Resolution {
                resolution: resolution.clone(),
            },
        };
        if let Err(e) = inner.store.append_audit(record).await {
            inner.pending.insert(tool_call_id.to_owned(), pending);
            return Err(ResolveError::Store(e));
        }
        self.remember_settled(tool_call_id);
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
        if !inner.tracked.contains_key(tool_call_id) {
            // A request restored after a restart: its part lives in the store.
            self.restore_part(&pending).await;
        }
        self.emit(
            &pending.session_id,
            WarrantEvent::Resolution(resolution.clone()).into_event(Some(now_millis())),
        )
        .await;
        if let Some(waiter) = pending.waiter.take() {
            let _ = waiter.send(resolution.clone());
        }
        Ok(resolution)
    }

    async fn restore_part(&self, pending: &Pending) {
        let messages = self
            .inner
            .store
            .messages(&pending.session_id)
            .await
            .unwrap_or_default();
        let part = messages
            .into_iter()
            .flat_map(|m| m.parts)
            .find_map(|p| match p {
                crate::part::MessagePart::Tool(t)
                    if t.tool_call_id == pending.request.tool_call_id =>
                {
                    Some(t)
                }
                _ => None,
            })
            .unwrap_or_else(|| {
                ToolPart::new(
                    pending.request.tool_call_id.clone(),
                    pending.tool_name.clone(),
                )
            });
        self.inner.tracked.insert(
            pending.request.tool_call_id.clone(),
            Tracked {
                session_id: pending.session_id.clone(),
                message_id: pending.message_id.clone(),
                part,
            },
        );
    }

    pub(super) fn remember_settled(&self, tool_call_id: &str) {
        let inner = &self.inner;
        let n = inner.settled_count.fetch_add(1, Ordering::Relaxed);
        inner.settled.insert(tool_call_id.to_owned(), n);
        if n > 0 && n.is_multiple_of(SETTLED_MEMORY) {
            let floor = n.saturating_sub(SETTLED_MEMORY);
            inner.settled.retain(|_, seen| *seen >= floor);
        }
    }
}
