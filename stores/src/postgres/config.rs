//! Configuration of the PostgreSQL store.

use std::fmt;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use warrant_core::store::{DEFAULT_EVENT_RETENTION, StoreError};

use super::PostgresStore;
use crate::sqlite::AuditKey;

/// The audit key file unless configured: `.warrant/postgres.audit-key`.
pub const DEFAULT_AUDIT_KEY_FILE: &str = ".warrant/postgres.audit-key";

/// The checkpoint file unless configured: `.warrant/postgres.audit-head`.
pub const DEFAULT_CHECKPOINT_FILE: &str = ".warrant/postgres.audit-head";

/// How the PostgreSQL store connects. Every field but [`url`](Self::url) has a default.
///
/// The audit key is, in order: [`audit_key`](Self::audit_key) when set, the
/// `WARRANT_AUDIT_KEY` environment variable (hex), the [key file](Self::audit_key_file)
/// (created with mode 0600 when neither exists and the database records no key yet). The
/// database keeps only the key's id, so whoever can write the database cannot forge a link;
/// every instance on one database needs the same key. `Debug` never shows the key, nor the
/// URL's password; the configuration deserializes (from a configuration file) but does not
/// serialize, so the URL's password is never written back out.
///
/// ```
/// use warrant_stores::postgres::PostgresConfig;
///
/// let config = PostgresConfig::new("postgresql://warrant@db.internal/warrant").event_retention(500);
/// assert!(!format!("{config:?}").contains("secret"));
/// ```
#[derive(Clone, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PostgresConfig {
    /// Where the database is: a URL (`postgresql://user:password@host:5432/dbname`) or
    /// libpq's `key=value` form (`host=/run/postgresql dbname=warrant`). The tables live in
    /// the connection's schema (choose one with `options=-csearch_path%3Dwarrant`). Its
    /// `sslmode` chooses TLS: `disable`, `prefer` (the default: TLS when the server offers
    /// it) or `require`; a TLS connection always verifies the server's certificate and host
    /// name (libpq's `verify-full`) against [`tls_ca_file`](Self::tls_ca_file).
    pub url: String,
    /// The certificates (PEM) a server's TLS certificate must chain to, such as a private
    /// CA's; `None`: the public web roots. Give an absolute path: a relative one is read from
    /// the process's working directory. When set, `sslmode=prefer` is taken as `require`.
    pub tls_ca_file: Option<PathBuf>,
    /// How many of the latest events per session the event log keeps: SSE resumption reaches
    /// back this far (at least 1).
    pub event_retention: usize,
    /// How many permission decisions per message the fallback map keeps (at least 1).
    pub decision_map_limit: usize,
    /// The most connections this instance opens.
    pub pool_size: usize,
    /// How long opening a connection, or waiting for a free one, may take, in milliseconds.
    pub connect_timeout_ms: u64,
    /// How long a workspace change waits for one another instance is making, in
    /// milliseconds, before it fails (and changes nothing).
    pub workspace_lock_timeout_ms: u64,
    /// The audit key file, read when neither [`audit_key`](Self::audit_key) nor
    /// `WARRANT_AUDIT_KEY` gives the key; created (mode 0600) when missing and the database
    /// has no keyed record yet. Every instance on the database needs a copy of it.
    pub audit_key_file: PathBuf,
    /// The append-only file this instance records the audit head in after each append, so a
    /// log truncated in the database no longer matches it; `None`: none is kept, and
    /// verification needs an expected head to be anchored.
    pub checkpoint_file: Option<PathBuf>,
    /// The audit key itself, for embedders that keep it in a secret store; never read from
    /// or written to a configuration file.
    #[serde(skip)]
    pub audit_key: Option<AuditKey>,
}

impl Default for PostgresConfig {
    fn default() -> Self {
        Self {
            url: String::new(),
            tls_ca_file: None,
            event_retention: DEFAULT_EVENT_RETENTION,
            decision_map_limit: 256,
            pool_size: 16,
            connect_timeout_ms: 10_000,
            workspace_lock_timeout_ms: 10_000,
            audit_key_file: PathBuf::from(DEFAULT_AUDIT_KEY_FILE),
            checkpoint_file: Some(PathBuf::from(DEFAULT_CHECKPOINT_FILE)),
            audit_key: None,
        }
    }
}

impl fmt::Debug for PostgresConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PostgresConfig")
            .field("url", &redacted(&self.url))
            .field("tls_ca_file", &self.tls_ca_file)
            .field("event_retention", &self.event_retention)
            .field("decision_map_limit", &self.decision_map_limit)
            .field("pool_size", &self.pool_size)
            .field("connect_timeout_ms", &self.connect_timeout_ms)
            .field("workspace_lock_timeout_ms", &self.workspace_lock_timeout_ms)
            .field("audit_key_file", &self.audit_key_file)
            .field("checkpoint_file", &self.checkpoint_file)
            .field("audit_key", &self.audit_key)
            .finish()
    }
}

/// Where a connection string points, without its password: host, port, user and database.
pub(crate) fn redacted(url: &str) -> String {
    match url.parse::<tokio_postgres::Config>() {
        Ok(config) => {
            let hosts: Vec<String> = config
                .get_hosts()
                .iter()
                .map(|h| match h {
                    tokio_postgres::config::Host::Tcp(name) => name.clone(),
                    #[cfg(unix)]
                    tokio_postgres::config::Host::Unix(path) => path.display().to_string(),
                })
                .collect();
            let ports: Vec<String> = config.get_ports().iter().map(u16::to_string).collect();
            format!(
                "host={} port={} user={} dbname={}",
                hosts.join(","),
                ports.join(","),
                config.get_user().unwrap_or("(default)"),
                config.get_dbname().unwrap_or("(default)")
            )
        }
        Err(_) => "(not a valid connection string)".to_owned(),
    }
}

impl PostgresConfig {
    /// The defaults, with the database at `url`.
    pub fn new(url: impl Into<String>) -> Self {
        Self {
            url: url.into(),
            ..Self::default()
        }
    }

    /// Sets the certificates (PEM) a server's TLS certificate must chain to.
    pub fn tls_ca_file(mut self, path: impl Into<PathBuf>) -> Self {
        self.tls_ca_file = Some(path.into());
        self
    }

    /// Sets how many of the latest events per session the event log keeps.
    pub fn event_retention(mut self, events: usize) -> Self {
        self.event_retention = events;
        self
    }

    /// Sets the audit key (instead of `WARRANT_AUDIT_KEY` or the key file).
    pub fn audit_key(mut self, key: AuditKey) -> Self {
        self.audit_key = Some(key);
        self
    }

    /// Sets the audit key file.
    pub fn audit_key_file(mut self, path: impl Into<PathBuf>) -> Self {
        self.audit_key_file = path.into();
        self
    }

    /// Sets the checkpoint file (`None`: keep none).
    pub fn checkpoint_file(mut self, path: Option<&Path>) -> Self {
        self.checkpoint_file = path.map(Path::to_path_buf);
        self
    }

    /// Sets the most connections this instance opens.
    pub fn pool_size(mut self, connections: usize) -> Self {
        self.pool_size = connections;
        self
    }

    /// Connects, creates or migrates the schema, and checks the audit key against the one
    /// the database records.
    ///
    /// # Errors
    ///
    /// See [`PostgresStore::connect`].
    pub async fn connect(self) -> Result<PostgresStore, StoreError> {
        PostgresStore::connect(self).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debug_hides_the_password_and_the_key() {
        let config = PostgresConfig::new("postgresql://warrant:hunter2@db.internal:6543/audit")
            .audit_key(AuditKey::from_bytes(vec![1u8; 32]).unwrap());
        let shown = format!("{config:?}");
        assert!(!shown.contains("hunter2"), "{shown}");
        assert!(
            shown.contains("host=db.internal port=6543 user=warrant dbname=audit"),
            "{shown}"
        );
        assert!(!shown.contains("0101"), "{shown}");
        let key_value = PostgresConfig::new("host=/run/pg password=hunter2 dbname=w");
        assert!(!format!("{key_value:?}").contains("hunter2"));
        assert!(!redacted("postgresql://a:hunter2@[").contains("hunter2"));
    }
}
