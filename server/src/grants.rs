//! `GET /v1/grants` and `DELETE /v1/grants/{id}`: the standing approvals the user has given,
//! with their provenance, and revoking one.

use axum::Json;
use axum::extract::State;
use serde::Serialize;
use warrant_core::grant::Grant;

use super::{PathParams, ServerState};
use warrant_transports::error::ApiError;

/// Every grant in force.
#[derive(Debug, Serialize)]
pub(super) struct Grants {
    grants: Vec<Grant>,
}

/// A revoked grant.
#[derive(Debug, Serialize)]
pub(super) struct Revoked {
    revoked: Grant,
}

/// Every grant in force, session and global, oldest first.
pub(super) async fn list(State(state): State<ServerState>) -> Json<Grants> {
    Json(Grants {
        grants: state.engine().grants().to_vec(),
    })
}

/// Revokes a grant: 200 with the grant, 404 `grant_not_found`, 503 when the store failed.
pub(super) async fn revoke(
    State(state): State<ServerState>,
    PathParams(grant_id): PathParams<String>,
) -> Result<Json<Revoked>, ApiError> {
    let revoked = state.engine().revoke_grant(&grant_id).await?;
    Ok(Json(Revoked { revoked }))
}
