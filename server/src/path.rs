//! The path-parameter extractor: a path that cannot be read (invalid percent-encoding, not
//! UTF-8) is a 400 JSON error naming it, like every other rejection.

use axum::extract::{FromRequestParts, Path};
use axum::http::request::Parts;
use serde::de::DeserializeOwned;

use warrant_transports::error::ApiError;

/// A route's path parameters, read as `T`.
#[derive(Debug, Clone)]
pub struct PathParams<T>(pub T);

impl<T, S> FromRequestParts<S> for PathParams<T>
where
    T: DeserializeOwned + Send,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        match Path::<T>::from_request_parts(parts, state).await {
            Ok(Path(value)) => Ok(Self(value)),
            Err(rejection) => Err(ApiError::bad_request(
                "invalid_path",
                format!(
                    "the path \"{}\" cannot be read: {}",
                    parts.uri.path(),
                    rejection.body_text()
                ),
            )),
        }
    }
}
