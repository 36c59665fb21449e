//! The grants in force: made by `session`/`global` resolutions (one per reach, never a
//! duplicate), listed, and revoked by the user.

use crate::audit::{AuditEvent, AuditRecord};
use crate::event::now_millis;
use crate::grant::Grant;

use super::{Engine, RevokeError};

impl Engine {
    /// The grant with this id, when it is in force.
    pub fn grant(&self, grant_id: &str) -> Option<Grant> {
        self.inner
            .grants
            .load()
            .iter()
            .find(|g| g.id == grant_id)
            .cloned()
    }

    /// Revokes a grant: it is removed from the store and from memory with every grant of the
    /// same reach (calls it covered ask again from now on), and the revocation is audited.
    ///
    /// # Errors
    ///
    /// [`RevokeError::Unknown`] (HTTP 404) when no grant in force has this id;
    /// [`RevokeError::Store`] when the store could not remove it (it stays in force) or the
    /// revocation could not be audited (it is revoked; the error says so).
    pub async fn revoke_grant(&self, grant_id: &str) -> Result<Grant, RevokeError> {
        let inner = &self.inner;
        let _writer = inner.workspace_writer.lock().await;
        let grant = match self.grant(grant_id) {
            Some(grant) => grant,
            // Another instance may have made it since this one last read the store.
            None if inner.instances.get().is_some() => inner
                .store
                .grants()
                .await
                .map_err(RevokeError::Store)?
                .into_iter()
                .map(Grant::with_id)
                .find(|g| g.id == grant_id)
                .ok_or_else(|| RevokeError::Unknown(grant_id.to_owned()))?,
            None => return Err(RevokeError::Unknown(grant_id.to_owned())),
        };
        // Every stored grant of the same reach goes too: a duplicate another process (or an
        // older version) recorded would otherwise allow again at the next start.
        let stored = inner.store.grants().await.map_err(RevokeError::Store)?;
        let mut ids: Vec<String> = stored
            .into_iter()
            .map(Grant::with_id)
            .filter(|g| g.same_reach(&grant))
            .map(|g| g.id)
            .collect();
        if !ids.iter().any(|id| id == grant_id) {
            ids.push(grant_id.to_owned());
        }
        for id in &ids {
            inner
                .store
                .remove_grant(id)
                .await
                .map_err(RevokeError::Store)?;
        }
        inner.grants.rcu(|grants| {
            grants
                .iter()
                .filter(|g| g.id != grant_id && !g.same_reach(&grant))
                .cloned()
                .collect::<Vec<_>>()
        });
        let record = AuditRecord {
            at: now_millis(),
            session_id: grant.session_id.clone(),
            tool_call_id: grant.tool_call_id.clone(),
            tool_name: grant
                .keys
                .first()
                .map(|k| k.tool_name.clone())
                .unwrap_or_default(),
            event: AuditEvent::GrantRevoked {
                grant_id: grant.id.clone(),
                description: grant.description.clone(),
            },
        };
        inner
            .store
            .append_audit(record)
            .await
            .map_err(RevokeError::Unaudited)?;
        Ok(grant)
    }

    /// Verifies the audit log through the store, whichever it is (see
    /// [`AuditLog::verify_audit`](crate::store::AuditLog::verify_audit)).
    ///
    /// # Errors
    ///
    /// A store error when the log cannot be read; a broken log is a report, not an error.
    pub async fn verify_audit(
        &self,
        expected: Option<&crate::audit::AuditHead>,
    ) -> Result<crate::audit::AuditVerification, crate::store::StoreError> {
        self.inner.store.verify_audit(expected).await
    }

    /// Keeps a new grant unless one of the same reach is in force; answers the grant that
    /// stands (the earlier one when it was a duplicate).
    pub(super) async fn keep_grant(&self, grant: Grant) -> Grant {
        let inner = &self.inner;
        let _writer = inner.workspace_writer.lock().await;
        if let Some(existing) = inner.grants.load().iter().find(|g| g.same_reach(&grant)) {
            return existing.clone();
        }
        if let Err(e) = inner.store.put_grant(&grant).await {
            tracing::warn!(grant_id = %grant.id, error = %e, "grant kept in memory only");
        }
        inner.grants.rcu(|grants| {
            let mut next = Vec::clone(grants);
            next.push(grant.clone());
            next
        });
        grant
    }
}

/// Grants as loaded from a store: each with its id, duplicates of an earlier grant's reach
/// left out.
pub(super) fn loaded(grants: Vec<Grant>) -> Vec<Grant> {
    let mut out: Vec<Grant> = Vec::with_capacity(grants.len());
    for g in grants.into_iter().map(Grant::with_id) {
        if !out.iter().any(|k| k.same_reach(&g)) {
            out.push(g);
        }
    }
    out
}
