//! The store behaviour suite of `warrant-testkit`, run against every store this crate ships:
//! `memory`, `sqlite` and `postgres`. Each module instantiates every behaviour with
//! [`warrant_testkit::store_behaviours!`] over a factory of fresh subjects.
//!
//! The PostgreSQL subjects need a server: `scripts/with-postgres cargo test -p warrant-stores`
//! starts a throwaway one; without `WARRANT_TEST_POSTGRES_URL` their tests fail.

#[cfg(feature = "postgres")]
#[path = "../postgres_common/mod.rs"]
mod pg;

use std::sync::Arc;

use warrant_core::store::Store;
use warrant_stores::SqliteConfig;
use warrant_stores::memory::MemoryStore;
use warrant_stores::sqlite::SqliteStore;
use warrant_testkit::store::{EVENT_RETENTION, Subject};

/// A memory store; a restart keeps the same one (there is no process to restart).
fn memory() -> Subject {
    let store: Arc<dyn Store> = Arc::new(MemoryStore::with_event_retention(EVENT_RETENTION));
    Subject::new(EVENT_RETENTION, move || Arc::clone(&store))
}

/// A SQLite store in a temporary directory; a restart opens the same files again.
fn sqlite() -> Subject {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let config = SqliteConfig::in_dir(dir.path()).event_retention(EVENT_RETENTION);
    Subject::new(EVENT_RETENTION, move || -> Arc<dyn Store> {
        Arc::new(SqliteStore::with_config(config.clone()).expect("the database opens"))
    })
    .keeping(dir)
}

/// A store on a fresh database of the test server (dropped with the subject); a restart
/// connects a new store to it.
#[cfg(feature = "postgres")]
fn postgres() -> Subject {
    use warrant_stores::postgres::{PostgresConfig, PostgresStore};

    let database = pg::Database::create();
    let dir = tempfile::tempdir().expect("a temporary directory");
    let config = PostgresConfig::new(database.url.clone())
        .event_retention(EVENT_RETENTION)
        .audit_key_file(dir.path().join("audit-key"))
        .checkpoint_file(Some(&dir.path().join("audit-head")));
    Subject::new(EVENT_RETENTION, move || -> Arc<dyn Store> {
        Arc::new(PostgresStore::connect_lazy(config.clone()).expect("the configuration is valid"))
    })
    .keeping((database, dir))
}

mod memory_store {
    warrant_testkit::store_behaviours!(crate::memory);
}

mod sqlite_store {
    warrant_testkit::store_behaviours!(crate::sqlite);
}

#[cfg(feature = "postgres")]
mod postgres_store {
    warrant_testkit::store_behaviours!(crate::postgres);
}
