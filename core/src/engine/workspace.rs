//! Changing the workspace the engine judges calls by, with its tool catalog.

use crate::ids::SessionId;
use std::sync::Arc;

use crate::catalog::{RuntimeTool, ToolCatalog};
use crate::workspace::{ApprovalError, SessionRecord, WorkspaceState, prune_stale_tool_ids};

use super::{Engine, EngineError, WorkspaceUpdateError};

impl Engine {
    /// Applies a change to the workspace (one of the operations of
    /// [`workspace`](crate::workspace), given the state and the runtime tools), persists the
    /// result and installs it with its catalog. Changes are serialized, across
    /// [instances](Self::join_instances) too; decisions never wait.
    ///
    /// # Errors
    ///
    /// The operation's [`ApprovalError`] (nothing changes), or a store error (the old state
    /// stays in force).
    pub async fn update_workspace<F>(
        &self,
        change: F,
    ) -> Result<Arc<WorkspaceState>, WorkspaceUpdateError>
    where
        F: FnOnce(&WorkspaceState, Option<&[RuntimeTool]>) -> Result<WorkspaceState, ApprovalError>,
    {
        let _writer = self.inner.workspace_writer.lock().await;
        // With other instances, theirs wait until this change is saved (and this one until
        // theirs is), so no change is lost to another made at the same moment.
        let _shared = match self.inner.instances.get() {
            Some(arbiter) => Some(arbiter.lock_workspace().await.map_err(EngineError::from)?),
            None => None,
        };
        self.reload_shared_workspace().await?;
        let catalog = self.inner.catalog.load_full();
        let runtime_tools = catalog.runtime_tools();
        let before = self.inner.workspace.load_full();
        let next = change(&before, runtime_tools)?;
        if _shared.as_ref().is_some_and(|lock| !lock.is_held()) {
            // Lost while changing: another instance may be changing the workspace now.
            return Err(EngineError::Store(crate::store::StoreError::new(
                crate::store::StoreErrorKind::Unavailable,
                "the workspace lock was lost before the change was saved; nothing changed, try again",
            ))
            .into());
        }
        self.install_workspace(next, &before, runtime_tools).await
    }

    /// Adds a session (when new) as one record of its own: the store writes one row, and the
    /// catalog is left as it is (a session changes no tool). Returns whether it was new.
    ///
    /// # Errors
    ///
    /// A store error, such as a session id longer than
    /// [`MAX_SESSION_ID_BYTES`](crate::workspace::MAX_SESSION_ID_BYTES); nothing changes.
    pub async fn add_session(&self, session_id: &SessionId) -> Result<bool, EngineError> {
        if self.inner.workspace.load().session(session_id).is_some() {
            return Ok(false);
        }
        let _writer = self.inner.workspace_writer.lock().await;
        let current = self.inner.workspace.load_full();
        if current.session(session_id).is_some() {
            return Ok(false);
        }
        let record = SessionRecord::new(session_id);
        self.inner.store.put_session(&record).await?;
        let mut next = WorkspaceState::clone(&current);
        next.sessions.push(record);
        self.inner.workspace.store(Arc::new(next));
        Ok(true)
    }

    /// Marks idle every session the last run left running: its run died with the process, and
    /// a session shown as running refuses settings changes. A store failure is logged and
    /// the session stays as it was.
    pub(super) async fn idle_sessions_of_the_last_run(&self) {
        let _writer = self.inner.workspace_writer.lock().await;
        let current = self.inner.workspace.load_full();
        let mut next = WorkspaceState::clone(&current);
        let mut changed = false;
        for session in next
            .sessions
            .iter_mut()
            .filter(|s| s.status == crate::workspace::SessionStatus::Running)
        {
            let mut idle = session.clone();
            idle.status = crate::workspace::SessionStatus::Idle;
            match self.inner.store.put_session(&idle).await {
                Ok(()) => {
                    *session = idle;
                    changed = true;
                }
                Err(e) => {
                    tracing::warn!(session_id = %session.id, error = %e, "session left running");
                }
            }
        }
        if changed {
            self.inner.workspace.store(Arc::new(next));
        }
    }

    /// Records the tools the runtime reported: stale ids are pruned from every pattern and
    /// session, and the catalog is rebuilt. With [other instances](Self::join_instances) on
    /// the same store, whose runtimes may report other tools, nothing is pruned from the
    /// shared workspace: only this instance's catalog changes (a pattern naming a tool this
    /// runtime lacks matches no call here).
    ///
    /// # Errors
    ///
    /// A store error; the old state stays in force.
    pub async fn set_runtime_tools(
        &self,
        tools: Vec<RuntimeTool>,
    ) -> Result<Arc<WorkspaceState>, WorkspaceUpdateError> {
        let _writer = self.inner.workspace_writer.lock().await;
        if self.inner.instances.get().is_some() {
            self.reload_shared_workspace().await?;
            let workspace = self.inner.workspace.load_full();
            return Ok(self.install_in_memory(workspace, Some(&tools)));
        }
        let before = self.inner.workspace.load_full();
        let next = prune_stale_tool_ids(WorkspaceState::clone(&before), &tools);
        self.install_workspace(next, &before, Some(&tools)).await
    }

    /// Saves `workspace` (changed from `before`) and puts it in force. Only the sessions the
    /// change touched are handed to the store: one written meanwhile by another writer
    /// (a hook marking it running, another instance) is left as that writer saved it, not
    /// put back to this engine's older copy.
    async fn install_workspace(
        &self,
        workspace: WorkspaceState,
        before: &WorkspaceState,
        runtime_tools: Option<&[RuntimeTool]>,
    ) -> Result<Arc<WorkspaceState>, WorkspaceUpdateError> {
        let changed = WorkspaceState {
            settings: workspace.settings.clone(),
            patterns: workspace.patterns.clone(),
            sessions: workspace
                .sessions
                .iter()
                .filter(|s| before.session(&s.id) != Some(*s))
                .cloned()
                .collect(),
        };
        self.inner
            .store
            .save_workspace(&changed)
            .await
            .map_err(EngineError::from)?;
        Ok(self.install_in_memory(Arc::new(workspace), runtime_tools))
    }

    /// Puts a workspace in force here with the catalog of its tooling and `runtime_tools`;
    /// nothing is saved.
    fn install_in_memory(
        &self,
        workspace: Arc<WorkspaceState>,
        runtime_tools: Option<&[RuntimeTool]>,
    ) -> Arc<WorkspaceState> {
        let catalog = ToolCatalog::new(&workspace.settings.tooling, runtime_tools);
        self.inner.workspace.store(workspace.clone());
        self.inner.catalog.store(Arc::new(catalog));
        workspace
    }

    /// With [other instances](Self::join_instances) on the same store, installs the workspace
    /// they saved (patterns, settings, sessions) when it differs from the one in force here,
    /// so that a change made on any instance applies on every one. Alone, does nothing.
    /// Callers hold the workspace writer lock.
    async fn reload_shared_workspace(&self) -> Result<(), EngineError> {
        if self.inner.instances.get().is_none() {
            return Ok(());
        }
        let Some(stored) = self.inner.store.load_workspace().await? else {
            return Ok(());
        };
        if stored == **self.inner.workspace.load() {
            return Ok(());
        }
        let catalog = self.inner.catalog.load_full();
        self.install_in_memory(Arc::new(stored), catalog.runtime_tools());
        Ok(())
    }

    /// Brings what other instances on the same store changed into this one: the requests
    /// they ended (see [`sweep_ended_elsewhere`](Self::sweep_ended_elsewhere)), their
    /// workspace (see [`reload_shared_workspace`](Self::reload_shared_workspace)) and the
    /// grants in force (a grant revoked there stops applying here). Runs under the workspace writer lock that
    /// local workspace changes, grants and revocations take, so none of them is undone. A store
    /// failure keeps what is in force and is logged.
    pub(super) async fn refresh_shared_state(&self) {
        self.sweep_ended_elsewhere().await;
        let _writer = self.inner.workspace_writer.lock().await;
        if let Err(e) = self.reload_shared_workspace().await {
            tracing::warn!(error = %e, "the workspace saved by other instances was not read");
        }
        match self.inner.store.grants().await {
            Ok(stored) => {
                let fresh = super::grants::loaded(stored);
                if fresh != **self.inner.grants.load() {
                    self.inner.grants.store(Arc::new(fresh));
                }
            }
            Err(e) => tracing::warn!(error = %e, "the grants of other instances were not read"),
        }
    }

    /// The current tool catalog (`listApprovalToolDefinitions` of the workspace's tooling and
    /// the runtime's tools).
    pub fn catalog(&self) -> Arc<ToolCatalog> {
        self.inner.catalog.load_full()
    }
}
