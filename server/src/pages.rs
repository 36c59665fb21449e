//! The routes without a token: the UI's page, liveness, and the JSON answers for unknown
//! routes and methods.

use axum::Json;
use axum::http::{Method, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

use warrant_transports::error::ApiError;

/// `GET /` and `GET /assets/{*path}`: the web UI, embedded in the binary by `warrant-web`.
pub(super) async fn ui(uri: Uri) -> Response {
    let Some(asset) = warrant_web::asset(uri.path()) else {
        return not_found(Method::GET, uri).await.into_response();
    };
    let headers = [
        (header::CONTENT_TYPE, asset.content_type),
        (
            header::CONTENT_SECURITY_POLICY,
            warrant_web::CONTENT_SECURITY_POLICY,
        ),
        (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        (header::REFERRER_POLICY, "no-referrer"),
        (header::CACHE_CONTROL, "no-cache"),
    ];
    (headers, asset.bytes).into_response()
}

/// `GET /healthz`: liveness.
pub(super) async fn healthz() -> Json<Value> {
    Json(json!({"status": "ok"}))
}

/// Any unknown route: 404.
pub(super) async fn not_found(method: Method, uri: Uri) -> ApiError {
    ApiError::not_found("not_found", format!("no route for {method} {}", uri.path()))
}

/// A known route with another method: 405.
pub(super) async fn method_not_allowed(method: Method, uri: Uri) -> ApiError {
    ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        "method_not_allowed",
        format!("{} does not accept {method}", uri.path()),
    )
}
