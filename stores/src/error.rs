//! How SQLite and JSON failures become [`StoreError`]s: I/O and locking may pass (a retry
//! can help), damaged data will not.

use std::fmt::Display;

use rusqlite::ErrorCode;
use warrant_core::store::{StoreError, StoreErrorKind};

/// A failure that a retry will not mend, naming what was being read or written.
pub(crate) fn corrupt(what: impl Display, cause: impl Display) -> StoreError {
    StoreError::new(StoreErrorKind::Corrupt, format!("{what}: {cause}"))
}

/// A failure that a retry may mend.
pub(crate) fn unavailable(what: impl Display, cause: impl Display) -> StoreError {
    StoreError::new(StoreErrorKind::Unavailable, format!("{what}: {cause}"))
}

/// The kind of a SQLite failure.
fn kind_of(error: &rusqlite::Error) -> StoreErrorKind {
    match error {
        rusqlite::Error::SqliteFailure(e, _)
            if matches!(e.code, ErrorCode::DatabaseCorrupt | ErrorCode::NotADatabase) =>
        {
            StoreErrorKind::Corrupt
        }
        rusqlite::Error::FromSqlConversionFailure(..)
        | rusqlite::Error::InvalidColumnType(..)
        | rusqlite::Error::IntegralValueOutOfRange(..) => StoreErrorKind::Corrupt,
        _ => StoreErrorKind::Unavailable,
    }
}

/// Names what a failing SQLite call was doing.
pub(crate) trait Context<T> {
    /// The result, its error turned into a [`StoreError`] that says what failed.
    fn context(self, what: &str) -> Result<T, StoreError>;
}

impl<T> Context<T> for Result<T, rusqlite::Error> {
    fn context(self, what: &str) -> Result<T, StoreError> {
        self.map_err(|e| StoreError::new(kind_of(&e), format!("sqlite, {what}: {e}")))
    }
}

/// Serializes a value for storage.
pub(crate) fn to_json(what: &str, value: &impl serde::Serialize) -> Result<String, StoreError> {
    serde_json::to_string(value).map_err(|e| corrupt(format!("cannot encode {what}"), e))
}
