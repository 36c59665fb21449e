//! How PostgreSQL and pool failures become [`StoreError`]s: connections, locks and the server
//! going away may pass (a retry can help); damaged data will not.

use std::error::Error as _;

use warrant_core::store::{StoreError, StoreErrorKind};

/// The kind of a PostgreSQL failure: data exceptions, integrity violations and the server's
/// internal errors (`XX`: data or index corrupted) are `Corrupt`, values that cannot be
/// converted too; the rest (connections, locks, shutdowns, serialization) `Unavailable`.
fn kind_of(error: &tokio_postgres::Error) -> StoreErrorKind {
    if let Some(code) = error.code() {
        let class = &code.code()[..2];
        return match class {
            "22" | "23" | "XX" => StoreErrorKind::Corrupt,
            _ => StoreErrorKind::Unavailable,
        };
    }
    // A conversion of a column's value, not a failure of the connection.
    let conversion = error
        .source()
        .is_some_and(|s| s.to_string().contains("cannot convert"))
        || error.to_string().starts_with("error deserializing column");
    if conversion {
        StoreErrorKind::Corrupt
    } else {
        StoreErrorKind::Unavailable
    }
}

/// The text of a failure: the server's message and code for a database error, the chain of
/// causes otherwise. Neither holds the connection string.
fn describe(error: &tokio_postgres::Error) -> String {
    if let Some(db) = error.as_db_error() {
        return format!("{} ({}): {}", db.severity(), db.code().code(), db.message());
    }
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    if let Some(hint) = tls_hint(&text) {
        text.push_str("; ");
        text.push_str(hint);
    }
    text
}

/// What to do about a TLS failure, when the text is one.
fn tls_hint(text: &str) -> Option<&'static str> {
    if text.contains("invalid peer certificate") {
        Some(
            "the server's TLS certificate is not trusted for this host: set the store's \
             tls_ca_file to the CA (PEM) it chains to and name the host the certificate names, \
             or connect with sslmode=disable over a network you trust",
        )
    } else if text.contains("no hostname provided for TLS") {
        Some(
            "a TLS certificate is checked against a host name: name it with host= (an address \
             given only as hostaddr= cannot be checked), or use sslmode=disable",
        )
    } else {
        None
    }
}

/// Names what a failing PostgreSQL call was doing.
pub(crate) trait Context<T> {
    /// The result, its error turned into a [`StoreError`] that says what failed.
    fn context(self, what: &str) -> Result<T, StoreError>;
}

impl<T> Context<T> for Result<T, tokio_postgres::Error> {
    fn context(self, what: &str) -> Result<T, StoreError> {
        self.map_err(|e| {
            StoreError::new(kind_of(&e), format!("postgres, {what}: {}", describe(&e)))
        })
    }
}

impl<T> Context<T> for Result<T, deadpool_postgres::PoolError> {
    fn context(self, what: &str) -> Result<T, StoreError> {
        self.map_err(|e| {
            let text = match &e {
                deadpool_postgres::PoolError::Backend(pg) => describe(pg),
                other => other.to_string(),
            };
            StoreError::new(
                StoreErrorKind::Unavailable,
                format!("postgres, {what}: no connection ({text})"),
            )
        })
    }
}

/// A seq as the database keeps it (`BIGINT`).
pub(crate) fn to_db(seq: u64) -> i64 {
    i64::try_from(seq).unwrap_or(i64::MAX)
}

/// A seq read from the database; a negative one is damage.
pub(crate) fn from_db(seq: i64, what: &str) -> Result<u64, StoreError> {
    u64::try_from(seq).map_err(|_| {
        StoreError::new(
            StoreErrorKind::Corrupt,
            format!("postgres, {what}: a negative position ({seq})"),
        )
    })
}
