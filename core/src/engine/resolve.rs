//! Accepting the user's resolution of a pending approval request, and expiring the oldest
//! requests beyond the limit.
//!
//! # Several instances on one store
//!
//! Instances sharing a store ([`Engine::join_instances`]) end each request exactly once
//! across all of them: whichever instance resolves, expires or cancels a request first
//! takes it out of the store's pending list ([`Arbiter::claim_pending_approval`], one
//! atomic step in the database), and only then records the end. An instance that loses the
//! claim answers as it does for a second local resolution (409); the instance the request
//! was pending on learns the resolution from the shared event log (the
//! `tool_permission_resolution` event another instance logged) and wakes its waiter with it.

use crate::ids::{SessionId, ToolCallId};
use std::sync::{Arc, Weak};
use std::time::Duration;

use async_trait::async_trait;

use crate::approval::{ApprovalAction, ToolApprovalRequest};
use crate::audit::{AuditEvent, AuditRecord};
use crate::call::{PermissionMode, ToolCall};
use crate::decision::{ResolutionBehavior, ResolutionSource, Scope, ToolPermissionResolution};
use crate::event::{Event, WarrantEvent, now_millis};
use crate::events::{Following, LoggedElsewhere, NoticeSource};
use crate::grant::{Grant, GrantKey};
use crate::part::ToolPart;
use crate::store::{AuditQuery, PendingApproval, StoreError, StoredEvent};

use super::calls::{Outcome, Stage, Tracked, lock};
use super::{Engine, Inner, Pending, ResolveError};

/// What the instances sharing one store arbitrate, so that each of these steps happens once
/// across all of them: ending an approval request, accepting a call's result, and changing
/// the workspace.
///
/// Each claim is the one step that decides which instance goes on: of any number of
/// concurrent claims of one thing, across instances, exactly one succeeds.
#[async_trait]
pub trait Arbiter: Send + Sync {
    /// The request pending in the shared store under this tool call id, whichever instance
    /// opened it; `None` when none is (never asked, or already ended).
    ///
    /// # Errors
    ///
    /// A [`StoreError`] when the store cannot be read.
    async fn pending_approval(
        &self,
        tool_call_id: &ToolCallId,
    ) -> Result<Option<PendingApproval>, StoreError>;

    /// Takes the request out of the shared store's pending list, atomically: `true` when
    /// this call took it (the caller alone may end it), `false` when it was not there.
    ///
    /// # Errors
    ///
    /// A [`StoreError`] when the store failed; the request is then not claimed.
    async fn claim_pending_approval(&self, tool_call_id: &ToolCallId) -> Result<bool, StoreError>;

    /// Marks the call's result as taken, atomically: `true` when this call marked it (the
    /// caller alone records the result), `false` when a result was taken before, on any
    /// instance.
    ///
    /// # Errors
    ///
    /// A [`StoreError`] when the store failed; the result is then not taken.
    async fn claim_result(&self, tool_call_id: &ToolCallId) -> Result<bool, StoreError>;

    /// Gives back a result [taken](Self::claim_result) and then not recorded (the store
    /// failed before it was), so that a later post may take it.
    ///
    /// # Errors
    ///
    /// A [`StoreError`] when the store failed; the result then stays taken.
    async fn release_result(&self, tool_call_id: &ToolCallId) -> Result<(), StoreError>;

    /// Waits until no other instance is changing the workspace, and keeps them waiting until
    /// the returned lock is dropped: a change reads the stored workspace, changes it and
    /// saves it under this lock, so no change made at the same moment elsewhere is lost.
    ///
    /// # Errors
    ///
    /// A [`StoreError`] when the lock cannot be taken (the change is then refused).
    async fn lock_workspace(&self) -> Result<WorkspaceLock, StoreError>;
}

/// Held while one instance changes the shared workspace (see [`Arbiter::lock_workspace`]);
/// dropping it lets the next instance in.
pub struct WorkspaceLock {
    _held: Box<dyn Send + Sync>,
    still_held: Option<Box<dyn Fn() -> bool + Send + Sync>>,
}

impl WorkspaceLock {
    /// A lock held as long as `held` lives (a connection holding a database lock, a mutex
    /// guard); it is dropped with the lock.
    pub fn new(held: impl Send + Sync + 'static) -> Self {
        Self {
            _held: Box::new(held),
            still_held: None,
        }
    }

    /// A lock that can be lost while held (its connection closed, the server ending the
    /// session): `still_held` says whether it still is, and a change is saved only then.
    pub fn losable(
        held: impl Send + Sync + 'static,
        still_held: impl Fn() -> bool + Send + Sync + 'static,
    ) -> Self {
        Self {
            _held: Box::new(held),
            still_held: Some(Box::new(still_held)),
        }
    }

    /// Whether the lock is still held (always, for one that cannot be lost).
    pub fn is_held(&self) -> bool {
        self.still_held.as_ref().is_none_or(|f| f())
    }
}

impl std::fmt::Debug for WorkspaceLock {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("WorkspaceLock")
    }
}

/// What a resolution needs of the request it ends.
struct Claimed {
    session_id: SessionId,
    /// The grant a `session` or `global` action leaves.
    grant_keys: Vec<GrantKey>,
    /// The agent waiting here, when the request was opened by this instance.
    waiter: Option<tokio::sync::oneshot::Sender<ToolPermissionResolution>>,
}

impl Engine {
    /// Joins the instances sharing this engine's store: their requests can be resolved
    /// here and this instance's there, and a call's result posted to any of them, each
    /// exactly once (`arbiter` decides), and this engine's event hub hands its subscribers
    /// the events they log (woken by `notices`, catching up every `catch_up_every`). Every
    /// `catch_up_every` the workspace and the grants the others saved are read again, so a
    /// pattern, a setting, a grant or a revocation made on any instance applies here within
    /// that period; a workspace change made here holds the arbiter's workspace lock while it
    /// reads the stored state, changes it and saves it, so changes made at the same moment
    /// on two instances are both kept.
    ///
    /// Call it once, right after building the engine, within a Tokio runtime; a second call
    /// keeps the first `arbiter`.
    pub fn join_instances(
        &self,
        arbiter: Arc<dyn Arbiter>,
        notices: Arc<dyn NoticeSource>,
        catch_up_every: Duration,
    ) -> Following {
        if self.inner.instances.set(arbiter).is_err() {
            tracing::warn!("join_instances called again; the first arbiter stays");
        }
        let observer = Arc::new(Instances {
            engine: Arc::downgrade(&self.inner),
        });
        let engine = Arc::downgrade(&self.inner);
        tokio::spawn(async move {
            let mut every = tokio::time::interval(catch_up_every.max(Duration::from_millis(10)));
            every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            every.tick().await;
            loop {
                every.tick().await;
                let Some(inner) = engine.upgrade() else {
                    return;
                };
                Engine { inner }.refresh_shared_state().await;
            }
        });
        self.inner
            .events
            .follow(notices, Some(observer), catch_up_every)
    }

    /// Accepts the user's action on a pending approval request.
    ///
    /// Accepted only for a pending request, only with an offered action, only once. The
    /// resolution is audited, emitted as `tool_permission_resolution`, merged into the tool
    /// part, and a `session` or `global` scope becomes a grant. With
    /// [other instances](Self::join_instances), a request pending on any of them is accepted
    /// here, and only once across all.
    ///
    /// # Errors
    ///
    /// [`ResolveError`]: unknown call (404), not pending (409, also while a concurrent
    /// resolution of the same call is being recorded, here or on another instance), action
    /// not offered (422), or a store failure (the request then stays pending).
    pub async fn resolve(
        &self,
        tool_call_id: &ToolCallId,
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
        tool_call_id: &ToolCallId,
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
        tool_call_id: &ToolCallId,
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
            None => None,
            Some(p) if p.resolving => {
                return Err(ResolveError::NotPending(tool_call_id.to_owned()));
            }
            Some(mut p) => {
                let a = chosen_action(&p.request, action_id, message.as_deref())?;
                p.resolving = true;
                Some(a)
            }
        };
        let Some(action) = action else {
            return self
                .resolve_from_store(tool_call_id, action_id, message)
                .await;
        };
        let shared = inner.instances.get().cloned();
        if let Some(shared) = &shared {
            match shared.claim_pending_approval(tool_call_id).await {
                Ok(true) => {}
                Ok(false) => {
                    // Another instance ended it first: learn how, as the audit log says.
                    if let Some((_, pending)) = inner.pending.remove(tool_call_id) {
                        self.ended_elsewhere(pending).await;
                    }
                    return Err(ResolveError::NotPending(tool_call_id.to_owned()));
                }
                Err(e) => {
                    self.unmark(tool_call_id);
                    return Err(ResolveError::Store(e));
                }
            }
        }
        let (session_id, message_id, tool_name, request) = match inner.pending.get(tool_call_id) {
            Some(p) => (
                p.session_id.clone(),
                p.message_id.clone(),
                p.tool_name.clone(),
                p.request.clone(),
            ),
            None => return Err(ResolveError::NotPending(tool_call_id.to_owned())),
        };
        let resolution = resolution_of(tool_call_id, &action, message);
        if let Err(e) = self
            .audit_resolution(&session_id, tool_call_id, &tool_name, &resolution)
            .await
        {
            self.unmark(tool_call_id);
            if shared.is_some() {
                self.reopen(&PendingApproval {
                    session_id,
                    message_id,
                    request,
                })
                .await;
            }
            return Err(ResolveError::Store(e));
        }
        // The call's part is in memory before the request leaves the pending map, so a late
        // concurrent resolution still finds the call (409).
        self.restore_part_if_missing(&session_id, &message_id, tool_call_id, &tool_name)
            .await;
        let Some((_, mut pending)) = inner.pending.remove(tool_call_id) else {
            return Err(ResolveError::NotPending(tool_call_id.to_owned()));
        };
        if shared.is_none()
            && let Err(e) = inner.store.remove_pending_approval(tool_call_id).await
        {
            tracing::warn!(%tool_call_id, error = %e, "resolved approval stays in the store's pending list");
        }
        let claimed = Claimed {
            session_id: pending.session_id.clone(),
            grant_keys: std::mem::take(&mut pending.grant_keys),
            waiter: pending.waiter.take(),
        };
        self.conclude(claimed, &action, &resolution, None).await;
        Ok(resolution)
    }

    /// Resolves a request this instance does not hold: one another instance sharing the
    /// store opened. 404 or 409 as for a local request when there is none.
    async fn resolve_from_store(
        &self,
        tool_call_id: &ToolCallId,
        action_id: &str,
        message: Option<String>,
    ) -> Result<ToolPermissionResolution, ResolveError> {
        let inner = &self.inner;
        let known_here =
            inner.tracked.contains_key(tool_call_id) || inner.settled.contains_key(tool_call_id);
        let Some(shared) = inner.instances.get().cloned() else {
            return Err(if known_here {
                ResolveError::NotPending(tool_call_id.to_owned())
            } else {
                ResolveError::Unknown(tool_call_id.to_owned())
            });
        };
        if known_here {
            return Err(ResolveError::NotPending(tool_call_id.to_owned()));
        }
        let Some(pending) = shared.pending_approval(tool_call_id).await? else {
            // Ended already (here or elsewhere), or never evaluated by any instance.
            return Err(match inner.store.evaluation_of(tool_call_id).await? {
                Some(_) => ResolveError::NotPending(tool_call_id.to_owned()),
                None => ResolveError::Unknown(tool_call_id.to_owned()),
            });
        };
        let tool_name = pending.request.tool_name.clone().unwrap_or_default();
        // A grant is made only when it can be derived here as the user was shown it;
        // otherwise the request offers its one-call actions alone.
        let regrant = self.grant_keys_of_stored(&pending, &tool_name);
        let mut request = pending.request.clone();
        if regrant.is_none() {
            request.actions.retain(|a| a.scope == Scope::Once);
        }
        let action = chosen_action(&request, action_id, message.as_deref())?;
        if !shared.claim_pending_approval(tool_call_id).await? {
            return Err(ResolveError::NotPending(tool_call_id.to_owned()));
        }
        let resolution = resolution_of(tool_call_id, &action, message);
        if let Err(e) = self
            .audit_resolution(&pending.session_id, tool_call_id, &tool_name, &resolution)
            .await
        {
            self.reopen(&pending).await;
            return Err(ResolveError::Store(e));
        }
        self.restore_part_if_missing(
            &pending.session_id,
            &pending.message_id,
            tool_call_id,
            &tool_name,
        )
        .await;
        let grant_keys = match action.scope {
            Scope::Once => Vec::new(),
            _ => regrant.unwrap_or_default(),
        };
        let claimed = Claimed {
            session_id: pending.session_id,
            grant_keys,
            waiter: None,
        };
        self.conclude(claimed, &action, &resolution, None).await;
        Ok(resolution)
    }

    /// The grant a stored request's `session` and `global` actions promise, derived again
    /// here from its stored input, when that derivation is provably the one the user was
    /// shown: the stored input was not redacted (redaction can change the paths, hosts or
    /// words a grant is built from, so a grant derived from it could reach further than the
    /// label promised), and the actions the derived grant would offer are exactly the stored
    /// ones (same labels: same scope, same workspace reading). `None` otherwise: then only
    /// the request's one-call actions may be taken.
    pub(super) fn grant_keys_of_stored(
        &self,
        pending: &PendingApproval,
        tool_name: &str,
    ) -> Option<Vec<GrantKey>> {
        let input = pending.request.input.as_ref()?;
        if crate::sanitize::was_redacted(input) {
            return None;
        }
        let call = ToolCall::new(
            pending.session_id.clone(),
            pending.request.tool_call_id.clone(),
            tool_name,
            input.clone(),
        );
        let keys = self.context(&call, PermissionMode::Default).grant_keys;
        let offered = crate::grant::offered_actions(self.inner.scoper.as_ref(), &keys);
        (!keys.is_empty() && offered == pending.request.actions).then_some(keys)
    }

    /// Audits a resolution; durable when it returns `Ok`.
    async fn audit_resolution(
        &self,
        session_id: &SessionId,
        tool_call_id: &ToolCallId,
        tool_name: &str,
        resolution: &ToolPermissionResolution,
    ) -> Result<u64, StoreError> {
        let record = AuditRecord {
            at: now_millis(),
            session_id: session_id.to_owned(),
            tool_call_id: tool_call_id.to_owned(),
            tool_name: tool_name.to_owned(),
            event: AuditEvent::Resolution {
                resolution: resolution.clone(),
            },
        };
        self.inner.store.append_audit(record).await
    }

    /// The call's part in memory (from the store) unless it is there already.
    async fn restore_part_if_missing(
        &self,
        session_id: &SessionId,
        message_id: &str,
        tool_call_id: &ToolCallId,
        tool_name: &str,
    ) {
        let needs_part = self
            .inner
            .tracked
            .get(tool_call_id)
            .is_none_or(|t| t.part.is_none());
        if needs_part {
            self.restore_part(session_id, message_id, tool_call_id, tool_name)
                .await;
        }
    }

    /// Ends a resolved request here: the call's stage, the grant, and (unless `logged`, the
    /// resolution event another instance logged, which is only merged into the part) the
    /// resolution event; then the waiter learns it.
    async fn conclude(
        &self,
        mut claimed: Claimed,
        action: &ApprovalAction,
        resolution: &ToolPermissionResolution,
        logged: Option<&Event>,
    ) {
        let inner = &self.inner;
        let tool_call_id = &resolution.tool_call_id;
        if let Some(mut t) = inner.tracked.get_mut(tool_call_id) {
            t.stage = match resolution.behavior {
                ResolutionBehavior::Allow => Stage::Allowed,
                // Still tracked until the resolution is merged into its part.
                ResolutionBehavior::Deny => Stage::Pending,
            };
        }
        // A resolution recorded elsewhere left its grant in the shared store, where it may be
        // revoked already: the periodic refresh brings it here, never a second write that
        // could bring a revoked grant back.
        if logged.is_none() && resolution.scope != Scope::Once && !claimed.grant_keys.is_empty() {
            self.keep_grant(Grant {
                id: Grant::id_for(&claimed.session_id, tool_call_id),
                keys: std::mem::take(&mut claimed.grant_keys),
                scope: resolution.scope,
                session_id: claimed.session_id.clone(),
                tool_call_id: tool_call_id.clone(),
                granted_at: now_millis(),
                description: action.label.clone(),
                action_id: action.id.clone(),
            })
            .await;
        }
        match logged {
            None => {
                self.send(
                    &claimed.session_id,
                    WarrantEvent::Resolution(resolution.clone()).into_event(Some(now_millis())),
                )
                .await;
            }
            Some(event) => {
                // Logged and persisted in the part by the instance that resolved it.
                if let Some(mut tracked) = inner.tracked.get_mut(tool_call_id)
                    && let Some(part) = tracked.part.as_mut()
                {
                    part.apply(event);
                }
            }
        }
        match resolution.behavior {
            ResolutionBehavior::Allow => self.await_result(tool_call_id),
            ResolutionBehavior::Deny => self.untrack(tool_call_id, Outcome::Denied),
        }
        if let Some(waiter) = claimed.waiter.take() {
            let _ = waiter.send(resolution.clone());
        }
    }

    /// A resolution another instance recorded (its `tool_permission_resolution` event in
    /// the shared log): the request pending here, if any, ends with it and its waiter learns
    /// it. Nothing happens for a request this instance does not hold or is resolving itself
    /// (it then loses the claim and learns the outcome from the audit log).
    async fn resolved_elsewhere(&self, resolution: &ToolPermissionResolution, event: &Event) {
        let inner = &self.inner;
        let id = resolution.tool_call_id.as_str();
        let Some((_, pending)) = inner.pending.remove_if(id, |_, p| !p.resolving) else {
            return;
        };
        self.conclude_elsewhere(pending, resolution, event).await;
    }

    /// Ends a request taken out of the pending map with a resolution recorded elsewhere.
    async fn conclude_elsewhere(
        &self,
        mut pending: Pending,
        resolution: &ToolPermissionResolution,
        event: &Event,
    ) {
        let id = resolution.tool_call_id.clone();
        tracing::info!(tool_call_id = %id, "approval request resolved on another instance");
        self.restore_part_if_missing(
            &pending.session_id,
            &pending.message_id,
            &id,
            &pending.tool_name,
        )
        .await;
        let action = pending
            .request
            .action(&resolution.action_id)
            .cloned()
            .unwrap_or_else(|| ApprovalAction {
                id: resolution.action_id.clone(),
                label: resolution.action_id.clone(),
                behavior: resolution.behavior,
                scope: resolution.scope,
            });
        let claimed = Claimed {
            session_id: pending.session_id.clone(),
            grant_keys: std::mem::take(&mut pending.grant_keys),
            waiter: pending.waiter.take(),
        };
        self.conclude(claimed, &action, resolution, Some(event))
            .await;
    }

    /// A request this instance held was ended by another (it lost the claim): the audit
    /// log says how. A resolution is applied as [`resolved_elsewhere`](Self::resolved_elsewhere)
    /// applies it; an expiry or a cancellation ends it here unresolved. When the log does
    /// not say yet, the request waits here again for the resolution event.
    async fn ended_elsewhere(&self, pending: Pending) {
        let inner = &self.inner;
        let id = pending.request.tool_call_id.clone();
        let session_id = pending.session_id.clone();
        if let Some(ended) = self.recorded_end(&session_id, &id).await {
            return self.apply_end(pending, ended).await;
        }
        let mut pending = pending;
        pending.resolving = false;
        inner.pending.insert(id.clone(), pending);
        // The winner records its end before it logs the resolution event: had the follower
        // read that event while the request was out of the map here, the record is there
        // now. Whichever of the two takes the request back applies the end, once.
        if let Some(ended) = self.recorded_end(&session_id, &id).await
            && let Some((_, pending)) = inner.pending.remove_if(&id, |_, p| !p.resolving)
        {
            self.apply_end(pending, ended).await;
        }
    }

    /// Ends here the requests another instance ended without this one learning it (a
    /// cancellation or an expiry there logs no event; a resolution event may not have been
    /// logged, or was read before the request was in this instance's map): a request held
    /// here whose row left the shared pending list is ended as the audit log says. One
    /// whose end is not recorded yet is looked at again next round.
    pub(super) async fn sweep_ended_elsewhere(&self) {
        let inner = &self.inner;
        if inner.instances.get().is_none() || inner.pending.is_empty() {
            return;
        }
        let stored = match inner.store.pending_approvals().await {
            Ok(stored) => stored,
            Err(e) => {
                tracing::warn!(error = %e, "the shared pending approval requests were not read");
                return;
            }
        };
        let still: std::collections::HashSet<&str> = stored
            .iter()
            .map(|p| p.request.tool_call_id.as_str())
            .collect();
        let gone: Vec<(ToolCallId, SessionId)> = inner
            .pending
            .iter()
            .filter(|p| !p.resolving && !still.contains(p.key().as_str()))
            .map(|p| (p.key().clone(), p.session_id.clone()))
            .collect();
        for (id, session_id) in gone {
            let Some(ended) = self.recorded_end(&session_id, &id).await else {
                continue;
            };
            if let Some((_, pending)) = inner.pending.remove_if(&id, |_, p| !p.resolving) {
                self.apply_end(pending, ended).await;
            }
        }
    }

    /// How the audit log says a request ended: `Some(Some(resolution))`, `Some(None)` for an
    /// expiry or a cancellation, `None` when it records no end (yet).
    async fn recorded_end(
        &self,
        session_id: &SessionId,
        tool_call_id: &ToolCallId,
    ) -> Option<Option<ToolPermissionResolution>> {
        let query = AuditQuery {
            text: Some(tool_call_id.as_str().to_owned()),
            ..AuditQuery::session(session_id)
        };
        match self.inner.store.audit_records(&query).await {
            Ok(records) => records
                .into_iter()
                .rev()
                .filter(|r| r.record.tool_call_id == tool_call_id)
                .find_map(|r| match r.record.event {
                    AuditEvent::Resolution { resolution } => Some(Some(resolution)),
                    AuditEvent::Expiry { .. } | AuditEvent::Cancel { .. } => Some(None),
                    _ => None,
                }),
            Err(e) => {
                tracing::warn!(%tool_call_id, error = %e, "cannot read how another instance ended an approval request");
                None
            }
        }
    }

    /// Ends a request here as another instance ended it.
    async fn apply_end(&self, pending: Pending, ended: Option<ToolPermissionResolution>) {
        match ended {
            Some(resolution) => {
                let event =
                    WarrantEvent::Resolution(resolution.clone()).into_event(Some(now_millis()));
                self.conclude_elsewhere(pending, &resolution, &event).await;
            }
            None => {
                let id = pending.request.tool_call_id.clone();
                tracing::info!(tool_call_id = %id, "approval request ended unresolved on another instance");
                self.inner.tracked.remove(&id);
                self.settle(&id, &pending.session_id, Outcome::Expired);
                // Dropping the waiter tells the agent the request was abandoned.
                drop(pending.waiter);
            }
        }
    }

    /// Lets a request being resolved here be resolved again (the resolution failed).
    fn unmark(&self, tool_call_id: &ToolCallId) {
        if let Some(mut p) = self.inner.pending.get_mut(tool_call_id) {
            p.resolving = false;
        }
    }

    /// Puts a claimed request back in the shared store's pending list: its end could not be
    /// recorded, so it stays pending for every instance.
    async fn reopen(&self, pending: &PendingApproval) {
        if let Err(e) = self.inner.store.put_pending_approval(pending).await {
            tracing::error!(tool_call_id = %pending.request.tool_call_id, error = %e, "a claimed approval request could not be put back; only this instance can resolve it");
        }
    }

    /// Brings a call's part back from the store (a request restored after a restart, or a
    /// large part left there to save memory).
    pub(super) async fn restore_part(
        &self,
        session_id: &SessionId,
        message_id: &str,
        tool_call_id: &ToolCallId,
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
        session_id: &SessionId,
        tool_call_id: &ToolCallId,
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
    pub async fn cancel(
        &self,
        tool_call_id: &ToolCallId,
        reason: &str,
    ) -> Result<(), ResolveError> {
        let pending = self.take_unresolved(tool_call_id)?;
        tracing::info!(%tool_call_id, reason, "approval request cancelled");
        let ended = self
            .end_unresolved(
                pending,
                AuditEvent::Cancel {
                    reason: reason.to_owned(),
                },
                "Cancelled: the agent withdrew this request, so the call never ran.",
            )
            .await;
        if !ended {
            // Another instance resolved or ended it first.
            return Err(ResolveError::NotPending(tool_call_id.to_owned()));
        }
        Ok(())
    }

    /// Expires a request that waited longer than [`EngineLimits::approval_timeout`]; nothing
    /// happens when it was resolved or ended meanwhile.
    ///
    /// [`EngineLimits::approval_timeout`]: super::EngineLimits::approval_timeout
    pub(super) async fn expire_if_waiting(
        &self,
        tool_call_id: &ToolCallId,
        waited: std::time::Duration,
    ) {
        let Ok(pending) = self.take_unresolved(tool_call_id) else {
            return;
        };
        tracing::info!(%tool_call_id, "approval request expired unanswered");
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
    fn take_unresolved(&self, tool_call_id: &ToolCallId) -> Result<Pending, ResolveError> {
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
    /// call must not run. `false` when another instance sharing the store ended it first
    /// (its end is then applied here as that instance recorded it).
    pub(super) async fn end_unresolved(
        &self,
        pending: Pending,
        event: AuditEvent,
        note: &str,
    ) -> bool {
        let inner = &self.inner;
        let id = pending.request.tool_call_id.clone();
        if let Some(shared) = inner.instances.get() {
            match shared.claim_pending_approval(&id).await {
                Ok(true) => {}
                Ok(false) => {
                    self.ended_elsewhere(pending).await;
                    return false;
                }
                Err(e) => {
                    // Not claimed: another instance may still resolve it; this one's
                    // waiter learns the call must not run.
                    tracing::warn!(tool_call_id = %id, error = %e, "approval request not claimed; ended here only");
                    inner.tracked.remove(&id);
                    self.settle(&id, &pending.session_id, Outcome::Expired);
                    drop(pending.waiter);
                    return true;
                }
            }
        }
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
        if inner.instances.get().is_none()
            && let Err(e) = inner.store.remove_pending_approval(&id).await
        {
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
        true
    }
}

/// The offered action `action_id` names, refused when the message cannot ride with it.
fn chosen_action(
    request: &ToolApprovalRequest,
    action_id: &str,
    message: Option<&str>,
) -> Result<ApprovalAction, ResolveError> {
    match request.action(action_id) {
        Some(a) if message.is_some() && a.behavior != ResolutionBehavior::Deny => {
            Err(ResolveError::MessageRefused(format!(
                "action \"{action_id}\" allows the call; only a denial carries a message to the agent"
            )))
        }
        Some(a) => Ok(a.clone()),
        None => {
            let offered: Vec<&str> = request.actions.iter().map(|a| a.id.as_str()).collect();
            Err(ResolveError::ActionNotOffered {
                tool_call_id: request.tool_call_id.clone(),
                action_id: action_id.to_owned(),
                offered: offered.join(", "),
            })
        }
    }
}

/// The user's resolution of a call with an action.
fn resolution_of(
    tool_call_id: &ToolCallId,
    action: &ApprovalAction,
    message: Option<String>,
) -> ToolPermissionResolution {
    ToolPermissionResolution {
        tool_call_id: tool_call_id.to_owned(),
        behavior: action.behavior,
        source: ResolutionSource::User,
        action_id: action.id.clone(),
        scope: action.scope,
        message,
    }
}

/// The engine as the event follower's observer: resolutions other instances log end the
/// requests pending here.
struct Instances {
    engine: Weak<Inner>,
}

#[async_trait]
impl LoggedElsewhere for Instances {
    fn follows(&self, session_id: &SessionId) -> bool {
        self.engine
            .upgrade()
            .is_some_and(|inner| inner.pending.iter().any(|p| p.session_id == session_id))
    }

    fn sessions(&self) -> Vec<SessionId> {
        let Some(inner) = self.engine.upgrade() else {
            return Vec::new();
        };
        let mut sessions: Vec<SessionId> =
            inner.pending.iter().map(|p| p.session_id.clone()).collect();
        sessions.sort_unstable();
        sessions.dedup();
        sessions
    }

    async fn logged(&self, _session_id: &SessionId, event: &StoredEvent) {
        let Some(Ok(WarrantEvent::Resolution(resolution))) = event.event.warrant() else {
            return;
        };
        let Some(inner) = self.engine.upgrade() else {
            return;
        };
        Engine { inner }
            .resolved_elsewhere(&resolution, &event.event)
            .await;
    }
}

#[cfg(test)]
mod tests {
    use futures::StreamExt;

    use super::*;
    use crate::call::ToolCall;
    use crate::chain::Chain;
    use crate::decision::Behavior;
    use crate::engine::AuthorizeOptions;
    use crate::events::EventNotices;
    use crate::store::{MemoryStore, Store};

    /// The shared pending list of a store two engines share, claimed under one lock as a
    /// database claims a row.
    struct Claims {
        store: Arc<dyn Store>,
        lock: tokio::sync::Mutex<()>,
        results: std::sync::Mutex<std::collections::HashSet<String>>,
        workspace: Arc<tokio::sync::Mutex<()>>,
    }

    #[async_trait]
    impl Arbiter for Claims {
        async fn pending_approval(
            &self,
            id: &ToolCallId,
        ) -> Result<Option<PendingApproval>, StoreError> {
            Ok(self
                .store
                .pending_approvals()
                .await?
                .into_iter()
                .find(|p| p.request.tool_call_id == id))
        }

        async fn claim_pending_approval(&self, id: &ToolCallId) -> Result<bool, StoreError> {
            let _one_at_a_time = self.lock.lock().await;
            let there = self.pending_approval(id).await?.is_some();
            if there {
                self.store.remove_pending_approval(id).await?;
            }
            Ok(there)
        }

        async fn claim_result(&self, id: &ToolCallId) -> Result<bool, StoreError> {
            Ok(self.results.lock().unwrap().insert(id.as_str().to_owned()))
        }

        async fn release_result(&self, id: &ToolCallId) -> Result<(), StoreError> {
            self.results.lock().unwrap().remove(id.as_str());
            Ok(())
        }

        async fn lock_workspace(&self) -> Result<WorkspaceLock, StoreError> {
            Ok(WorkspaceLock::new(
                Arc::clone(&self.workspace).lock_owned().await,
            ))
        }
    }

    /// No notices: the follower's catch-up reads the log.
    struct Silent {
        store: Arc<dyn Store>,
    }

    #[async_trait]
    impl NoticeSource for Silent {
        async fn listen(&self) -> Result<EventNotices, StoreError> {
            Ok(futures::stream::pending().boxed())
        }

        async fn last_seq(&self, session_id: &SessionId) -> Result<Option<u64>, StoreError> {
            let mut last = None;
            loop {
                let page = self
                    .store
                    .events_since(session_id, last.unwrap_or(0), 256)
                    .await?;
                match page.last() {
                    Some(e) => last = Some(e.seq),
                    None => return Ok(last),
                }
            }
        }
    }

    /// Two engines on one store, joined, catching up every 20 ms.
    async fn two_instances() -> (Engine, Engine) {
        two_instances_every(Duration::from_millis(20)).await
    }

    /// Two engines on one store, joined, catching up every `every`.
    async fn two_instances_every(every: Duration) -> (Engine, Engine) {
        let store: Arc<dyn Store> = Arc::new(MemoryStore::new());
        let claims = Arc::new(Claims {
            store: Arc::clone(&store),
            lock: tokio::sync::Mutex::new(()),
            results: std::sync::Mutex::default(),
            workspace: Arc::default(),
        });
        let notices = Arc::new(Silent {
            store: Arc::clone(&store),
        });
        let mut engines = Vec::new();
        for _ in 0..2 {
            let engine = Engine::builder(Chain::builder().build())
                .store(Arc::clone(&store))
                .build()
                .await
                .unwrap();
            drop(engine.join_instances(Arc::clone(&claims) as _, Arc::clone(&notices) as _, every));
            engines.push(engine);
        }
        let b = engines.pop().unwrap();
        (engines.pop().unwrap(), b)
    }

    /// Waits (5 s at most) until `done` holds.
    async fn eventually(what: &str, done: impl Fn() -> bool) {
        let start = tokio::time::Instant::now();
        while !done() {
            assert!(
                start.elapsed() < Duration::from_secs(5),
                "never happened: {what}"
            );
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }

    /// A session grant of `deploy` calls, as a resolution of `tool_call_id` leaves it.
    fn deploy_grant(tool_call_id: &str) -> crate::grant::Grant {
        crate::grant::Grant {
            id: String::new(),
            keys: vec![crate::grant::GrantKey {
                tool_name: "deploy".into(),
                specifier: None,
                workspace: None,
            }],
            scope: crate::decision::Scope::Session,
            session_id: "s1".into(),
            tool_call_id: tool_call_id.into(),
            granted_at: 1,
            description: "\"deploy\" calls".into(),
            action_id: String::new(),
        }
        .with_id()
    }

    #[tokio::test]
    async fn grants_revocations_and_workspace_changes_reach_the_other_instance() {
        let (a, b) = two_instances().await;
        // A grant another instance's resolution left in the shared store.
        let grant = deploy_grant("c9");
        a.store().put_grant(&grant).await.unwrap();
        eventually("both instances hold the grant", || {
            a.grant(&grant.id).is_some() && b.grant(&grant.id).is_some()
        })
        .await;
        // Revoked on A: it stops applying on B too.
        a.revoke_grant(&grant.id).await.unwrap();
        assert!(a.grant(&grant.id).is_none());
        eventually("B drops the revoked grant", || b.grant(&grant.id).is_none()).await;
        // It stays revoked: later rounds do not bring it back.
        tokio::time::sleep(Duration::from_millis(100)).await;
        assert!(a.grant(&grant.id).is_none() && b.grant(&grant.id).is_none());
        // A session added on A appears on B.
        assert!(a.add_session(&"s2".into()).await.unwrap());
        eventually("B sees the session added on A", || {
            b.workspace().session("s2").is_some()
        })
        .await;
    }

    #[tokio::test]
    async fn a_grant_made_elsewhere_and_not_read_here_yet_can_be_revoked_here() {
        // No catch-up during the test: B has not read the grant when it is asked to revoke it.
        let (_a, b) = two_instances_every(Duration::from_secs(3600)).await;
        let grant = deploy_grant("c10");
        b.store().put_grant(&grant).await.unwrap();
        assert!(b.grant(&grant.id).is_none(), "not read here yet");
        let revoked = b.revoke_grant(&grant.id).await.unwrap();
        assert_eq!(revoked.id, grant.id);
        assert!(b.store().grants().await.unwrap().is_empty());
        assert!(matches!(
            b.revoke_grant(&grant.id).await,
            Err(crate::engine::RevokeError::Unknown(_))
        ));
    }

    #[tokio::test]
    async fn a_request_cancelled_on_another_instance_without_an_event_ends_here_too() {
        let (a, b) = two_instances().await;
        let asked = a
            .authorize(deploy("c1"), AuthorizeOptions::default())
            .await
            .unwrap();
        assert_eq!(asked.decision.behavior, Behavior::Ask);
        // Another instance claims the request and records its cancellation, logging no event.
        let store = b.store();
        store.remove_pending_approval(&"c1".into()).await.unwrap();
        store
            .append_audit(crate::audit::AuditRecord {
                at: now_millis(),
                session_id: "s1".into(),
                tool_call_id: "c1".into(),
                tool_name: "deploy".into(),
                event: AuditEvent::Cancel {
                    reason: "the agent withdrew it".into(),
                },
            })
            .await
            .unwrap();
        // The agent waiting on A is told, and A no longer offers the request.
        let settled = tokio::time::timeout(Duration::from_secs(5), asked.settled())
            .await
            .expect("A learns the request ended");
        assert!(
            settled.is_err(),
            "an abandoned request, not a resolution: {settled:?}"
        );
        eventually("A drops the request", || a.pending_requests().is_empty()).await;
    }

    fn deploy(id: &str) -> ToolCall {
        ToolCall::new("s1", id, "deploy", serde_json::json!({"env": "prod"}))
    }

    #[tokio::test]
    async fn a_request_pending_on_one_instance_is_resolved_on_the_other_once() {
        let (a, b) = two_instances().await;
        let asked = a
            .authorize(deploy("c1"), AuthorizeOptions::default())
            .await
            .unwrap();
        assert_eq!(asked.decision.behavior, Behavior::Ask);
        let resolution = b.resolve(&"c1".into(), "allow_once").await.unwrap();
        assert_eq!(resolution.behavior, ResolutionBehavior::Allow);
        // The agent waiting on A learns it from the shared log.
        let (behavior, learned) = tokio::time::timeout(Duration::from_secs(5), asked.settled())
            .await
            .expect("A learns the resolution")
            .unwrap();
        assert_eq!(behavior, crate::decision::Behavior::Allow);
        assert_eq!(learned, Some(resolution));
        assert!(a.pending_requests().is_empty());
        for engine in [&a, &b] {
            assert!(matches!(
                engine.resolve(&"c1".into(), "deny").await,
                Err(ResolveError::NotPending(_))
            ));
        }
        // Audited once.
        let resolutions = a
            .store()
            .audit_records(&AuditQuery {
                kind: Some(crate::store::AuditKind::Resolution),
                ..AuditQuery::all()
            })
            .await
            .unwrap();
        assert_eq!(resolutions.len(), 1);
    }

    #[tokio::test]
    async fn an_adopted_request_offers_and_grants_what_it_promised() {
        let store: Arc<dyn Store> = Arc::new(MemoryStore::new());
        let build = |adopt: bool| {
            let builder = Engine::builder(Chain::builder().build()).store(Arc::clone(&store));
            async move {
                let builder = if adopt {
                    builder.adopt_pending()
                } else {
                    builder
                };
                builder.build().await.unwrap()
            }
        };
        let first = build(false).await;
        let asked = first
            .authorize(deploy("c1"), AuthorizeOptions::default())
            .await
            .unwrap();
        assert_eq!(asked.decision.behavior, Behavior::Ask);
        let offered = first.pending_requests()[0].actions.clone();
        assert!(
            offered
                .iter()
                .any(|a| a.id == crate::approval::ALLOW_SESSION),
            "{offered:?}"
        );
        drop(asked);
        // A process sharing the store adopts the request with every action it offered.
        let adopting = build(true).await;
        let adopted = adopting.pending_requests();
        assert_eq!(adopted.len(), 1);
        assert_eq!(adopted[0].actions, offered);
        adopting
            .resolve(&"c1".into(), crate::approval::ALLOW_SESSION)
            .await
            .unwrap();
        // The grant it promised is made: a later deploy in the session is allowed.
        let later = adopting
            .authorize(deploy("c2"), AuthorizeOptions::default())
            .await
            .unwrap();
        assert_eq!(later.decision.behavior, Behavior::Allow);
    }

    #[tokio::test]
    async fn a_request_stored_redacted_grants_nothing_elsewhere() {
        // Redaction can change what a grant is built from, so a grant derived from the stored
        // input might not be the one the user was shown: only one-call actions stay.
        let secret_call = |id: &str| {
            ToolCall::new(
                "s1",
                id,
                "deploy",
                serde_json::json!({"env": "prod", "token": "s3cr3t-value-123"}),
            )
        };
        let (a, b) = two_instances_every(Duration::from_secs(3600)).await;
        let asked = a
            .authorize(secret_call("c1"), AuthorizeOptions::default())
            .await
            .unwrap();
        assert_eq!(asked.decision.behavior, Behavior::Ask);
        match b
            .resolve(&"c1".into(), crate::approval::ALLOW_SESSION)
            .await
        {
            Err(ResolveError::ActionNotOffered { offered, .. }) => {
                assert!(!offered.contains("allow_session"), "{offered}");
            }
            other => panic!("a session grant from a redacted input: {other:?}"),
        }
        b.resolve(&"c1".into(), "allow_once").await.unwrap();
        assert!(b.store().grants().await.unwrap().is_empty());

        // Adopted by a process sharing the store: the same.
        let store: Arc<dyn Store> = Arc::new(MemoryStore::new());
        let first = Engine::builder(Chain::builder().build())
            .store(Arc::clone(&store))
            .build()
            .await
            .unwrap();
        drop(
            first
                .authorize(secret_call("c2"), AuthorizeOptions::default())
                .await
                .unwrap(),
        );
        let adopting = Engine::builder(Chain::builder().build())
            .store(Arc::clone(&store))
            .adopt_pending()
            .build()
            .await
            .unwrap();
        let adopted = adopting.pending_requests();
        assert_eq!(adopted.len(), 1);
        assert!(
            adopted[0].actions.iter().all(|a| a.scope == Scope::Once),
            "{:?}",
            adopted[0].actions
        );
    }

    /// An arbiter that takes its time to take a result.
    struct SlowResults {
        claims: Arc<Claims>,
        delay: Duration,
    }

    #[async_trait]
    impl Arbiter for SlowResults {
        async fn pending_approval(
            &self,
            id: &ToolCallId,
        ) -> Result<Option<PendingApproval>, StoreError> {
            self.claims.pending_approval(id).await
        }

        async fn claim_pending_approval(&self, id: &ToolCallId) -> Result<bool, StoreError> {
            self.claims.claim_pending_approval(id).await
        }

        async fn claim_result(&self, id: &ToolCallId) -> Result<bool, StoreError> {
            tokio::time::sleep(self.delay).await;
            self.claims.claim_result(id).await
        }

        async fn release_result(&self, id: &ToolCallId) -> Result<(), StoreError> {
            self.claims.release_result(id).await
        }

        async fn lock_workspace(&self) -> Result<WorkspaceLock, StoreError> {
            self.claims.lock_workspace().await
        }
    }

    /// An arbiter whose workspace lock is lost as soon as it is taken.
    struct LosingLocks(Arc<Claims>);

    #[async_trait]
    impl Arbiter for LosingLocks {
        async fn pending_approval(
            &self,
            id: &ToolCallId,
        ) -> Result<Option<PendingApproval>, StoreError> {
            self.0.pending_approval(id).await
        }

        async fn claim_pending_approval(&self, id: &ToolCallId) -> Result<bool, StoreError> {
            self.0.claim_pending_approval(id).await
        }

        async fn claim_result(&self, id: &ToolCallId) -> Result<bool, StoreError> {
            self.0.claim_result(id).await
        }

        async fn release_result(&self, id: &ToolCallId) -> Result<(), StoreError> {
            self.0.release_result(id).await
        }

        async fn lock_workspace(&self) -> Result<WorkspaceLock, StoreError> {
            Ok(WorkspaceLock::losable((), || false))
        }
    }

    #[tokio::test]
    async fn a_workspace_change_whose_lock_was_lost_saves_nothing() {
        use crate::workspace::{ApprovalPolicy, Pattern, save_pattern};
        let store: Arc<dyn Store> = Arc::new(MemoryStore::new());
        let engine = Engine::builder(Chain::builder().build())
            .store(Arc::clone(&store))
            .build()
            .await
            .unwrap();
        let claims = Arc::new(Claims {
            store: Arc::clone(&store),
            lock: tokio::sync::Mutex::new(()),
            results: std::sync::Mutex::default(),
            workspace: Arc::default(),
        });
        let notices = Arc::new(Silent {
            store: Arc::clone(&store),
        });
        drop(engine.join_instances(
            Arc::new(LosingLocks(claims)),
            notices,
            Duration::from_secs(3600),
        ));
        let err = engine
            .update_workspace(|state, tools| {
                let pattern = Pattern {
                    id: "p1".into(),
                    name: "p1".into(),
                    approval_policy: ApprovalPolicy::checkpoints_on(),
                };
                save_pattern(state, pattern, tools)
            })
            .await
            .unwrap_err();
        assert!(err.to_string().contains("lock was lost"), "{err}");
        let stored = store.load_workspace().await.unwrap();
        assert!(stored.is_none_or(|w| w.pattern("p1").is_none()));
        assert!(engine.workspace().pattern("p1").is_none());
    }

    #[tokio::test]
    async fn a_call_forgotten_while_its_result_is_taken_still_takes_it() {
        let store: Arc<dyn Store> = Arc::new(MemoryStore::new());
        let claims = Arc::new(Claims {
            store: Arc::clone(&store),
            lock: tokio::sync::Mutex::new(()),
            results: std::sync::Mutex::default(),
            workspace: Arc::default(),
        });
        let engine = Engine::builder(Chain::builder().build())
            .store(Arc::clone(&store))
            .limits(crate::engine::EngineLimits {
                max_awaiting_results: 1,
                ..Default::default()
            })
            .build()
            .await
            .unwrap();
        let slow = Arc::new(SlowResults {
            claims,
            delay: Duration::from_millis(300),
        });
        let notices = Arc::new(Silent {
            store: Arc::clone(&store),
        });
        drop(engine.join_instances(slow, notices, Duration::from_secs(3600)));
        let allowed = |id: &'static str| {
            let engine = engine.clone();
            async move {
                let asked = engine
                    .authorize(deploy(id), AuthorizeOptions::default())
                    .await
                    .unwrap();
                engine.resolve(&id.into(), "allow_once").await.unwrap();
                asked.settled().await.unwrap();
            }
        };
        allowed("c1").await;
        let posting = {
            let engine = engine.clone();
            tokio::spawn(async move { engine.complete(&"s1".into(), &"c1".into(), "done").await })
        };
        // While c1's result is being taken, a second allowed call pushes c1 out of memory.
        tokio::time::sleep(Duration::from_millis(50)).await;
        allowed("c2").await;
        posting.await.unwrap().expect("the result is recorded");
        let (_, part) = engine
            .stored_part(&"s1".into(), &"c1".into())
            .await
            .unwrap()
            .unwrap();
        assert_eq!(part.output.as_deref(), Some("done"));
        assert!(matches!(
            engine.complete(&"s1".into(), &"c1".into(), "again").await,
            Err(crate::engine::ResultError::NotAccepted { .. })
        ));
    }

    #[tokio::test]
    async fn a_result_posted_to_two_instances_is_accepted_once() {
        let (a, b) = two_instances().await;
        for n in 0..6 {
            let id = format!("r{n}");
            let (sid, cid): (SessionId, ToolCallId) = ("s1".into(), id.as_str().into());
            let asked = a
                .authorize(deploy(&id), AuthorizeOptions::default())
                .await
                .unwrap();
            b.resolve(&id.as_str().into(), "allow_once").await.unwrap();
            let (behavior, _) = tokio::time::timeout(Duration::from_secs(5), asked.settled())
                .await
                .expect("A learns the resolution")
                .unwrap();
            assert_eq!(behavior, Behavior::Allow, "{id}");
            // Sequential on even calls (A first, then B), concurrent on odd ones.
            let (here, there) = if n % 2 == 0 {
                let here = a.complete(&sid, &cid, "done on A").await;
                (here, b.complete(&sid, &cid, "done on B").await)
            } else {
                tokio::join!(
                    a.complete(&sid, &cid, "done on A"),
                    b.complete(&sid, &cid, "done on B")
                )
            };
            match (&here, &there) {
                (Ok(()), Err(crate::engine::ResultError::NotAccepted { reason, .. }))
                | (Err(crate::engine::ResultError::NotAccepted { reason, .. }), Ok(())) => {
                    assert!(reason.contains("already has a result"), "{id}: {reason}");
                }
                other => panic!("{id}: exactly one result must be accepted, got {other:?}"),
            }
            // The stored part holds the accepted result, not the refused one.
            let (_, part) = a.stored_part(&sid, &cid).await.unwrap().unwrap();
            let accepted = if here.is_ok() {
                "done on A"
            } else {
                "done on B"
            };
            assert_eq!(part.output.as_deref(), Some(accepted), "{id}");
        }
    }

    #[tokio::test]
    async fn a_workspace_change_does_not_put_back_a_session_another_writer_changed() {
        use crate::workspace::{ApprovalPolicy, Pattern, SessionStatus, save_pattern};
        let engine = Engine::builder(Chain::builder().build())
            .build()
            .await
            .unwrap();
        assert!(engine.add_session(&"s1".into()).await.unwrap());
        // Another writer (a hook beside this engine) marks the session running.
        let mut running = engine.workspace().session("s1").unwrap().clone();
        running.status = SessionStatus::Running;
        engine.store().put_session(&running).await.unwrap();
        // This engine, with its older copy, saves an unrelated change.
        engine
            .update_workspace(|state, tools| {
                let pattern = Pattern {
                    id: "p1".into(),
                    name: "p1".into(),
                    approval_policy: ApprovalPolicy::checkpoints_on(),
                };
                save_pattern(state, pattern, tools)
            })
            .await
            .unwrap();
        let stored = engine.store().load_workspace().await.unwrap().unwrap();
        assert!(stored.pattern("p1").is_some());
        assert_eq!(stored.session("s1").unwrap().status, SessionStatus::Running);
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 3)]
    async fn workspace_changes_made_at_once_on_two_instances_are_both_kept() {
        use crate::workspace::{ApprovalPolicy, Pattern, save_pattern};
        let (a, b) = two_instances_every(Duration::from_secs(3600)).await;
        let pattern = |id: &str| Pattern {
            id: id.to_owned(),
            name: id.to_owned(),
            approval_policy: ApprovalPolicy::checkpoints_on(),
        };
        // A reads the stored workspace and, before saving its change, lets B try its own.
        let (read, read_seen) = std::sync::mpsc::channel::<()>();
        let (go, go_seen) = std::sync::mpsc::channel::<()>();
        let on_a = {
            let a = a.clone();
            tokio::spawn(async move {
                a.update_workspace(move |state, tools| {
                    read.send(()).unwrap();
                    go_seen.recv_timeout(Duration::from_secs(10)).unwrap();
                    save_pattern(state, pattern("from-a"), tools)
                })
                .await
            })
        };
        tokio::task::spawn_blocking(move || read_seen.recv_timeout(Duration::from_secs(10)))
            .await
            .unwrap()
            .unwrap();
        let on_b = {
            let b = b.clone();
            tokio::spawn(async move {
                b.update_workspace(move |state, tools| {
                    save_pattern(state, pattern("from-b"), tools)
                })
                .await
            })
        };
        // B waits for A's change to be saved.
        tokio::time::sleep(Duration::from_millis(200)).await;
        assert!(
            !on_b.is_finished(),
            "B changed the workspace while A was changing it"
        );
        go.send(()).unwrap();
        on_a.await.unwrap().unwrap();
        let after_b = on_b.await.unwrap().unwrap();
        assert!(after_b.pattern("from-a").is_some() && after_b.pattern("from-b").is_some());
        let stored = a.store().load_workspace().await.unwrap().unwrap();
        assert!(
            stored.pattern("from-a").is_some() && stored.pattern("from-b").is_some(),
            "both changes are saved: {:?}",
            stored.patterns.iter().map(|p| &p.id).collect::<Vec<_>>()
        );
    }

    #[tokio::test]
    async fn of_two_concurrent_resolutions_on_two_instances_one_wins() {
        let (a, b) = two_instances().await;
        for n in 0..8 {
            let id = format!("c{n}");
            let call_id = ToolCallId::from(&id);
            let asked = a
                .authorize(deploy(&id), AuthorizeOptions::default())
                .await
                .unwrap();
            let (here, there) = tokio::join!(
                a.resolve(&call_id, "deny"),
                b.resolve(&call_id, "allow_once")
            );
            let winner = match (&here, &there) {
                (Ok(r), Err(ResolveError::NotPending(_)))
                | (Err(ResolveError::NotPending(_)), Ok(r)) => r.clone(),
                other => panic!("{id}: exactly one resolution must win, got {other:?}"),
            };
            let (_, learned) = tokio::time::timeout(Duration::from_secs(5), asked.settled())
                .await
                .expect("A learns the winner")
                .unwrap();
            assert_eq!(learned, Some(winner), "{id}");
        }
        assert!(a.pending_requests().is_empty());
        assert!(b.pending_requests().is_empty());
    }

    #[tokio::test]
    async fn a_withdrawal_after_another_instance_resolved_is_409_and_the_waiter_learns() {
        let (a, b) = two_instances().await;
        let asked = a
            .authorize(deploy("c1"), AuthorizeOptions::default())
            .await
            .unwrap();
        let resolution = b.resolve(&"c1".into(), "allow_once").await.unwrap();
        assert!(matches!(
            a.cancel(&"c1".into(), "the agent stopped waiting").await,
            Err(ResolveError::NotPending(_))
        ));
        let (_, learned) = tokio::time::timeout(Duration::from_secs(5), asked.settled())
            .await
            .expect("A learns the resolution")
            .unwrap();
        assert_eq!(learned, Some(resolution));
        let ends = a.store().audit_records(&AuditQuery::all()).await.unwrap();
        assert!(
            !ends
                .iter()
                .any(|r| matches!(r.record.event, AuditEvent::Cancel { .. })),
            "no cancellation is recorded after the resolution"
        );
    }

    #[tokio::test]
    async fn an_unknown_call_is_404_on_every_instance() {
        let (a, b) = two_instances().await;
        for engine in [&a, &b] {
            assert!(matches!(
                engine.resolve(&"nobody".into(), "allow_once").await,
                Err(ResolveError::Unknown(_))
            ));
        }
    }
}
