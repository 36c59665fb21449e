//! The behaviour every `Store` must show, run against every store this crate ships.
//!
//! Each behaviour is written once, as an async function taking a [`Subject`]; the
//! [`behaviours!`] list instantiates all of them for `memory`, `sqlite` and `postgres`. A new
//! store proves itself by adding one `mod` line with a factory for its [`Subject`].
//!
//! The PostgreSQL subjects need a server: `scripts/with-postgres cargo test -p warrant-stores`
//! starts a throwaway one; without `WARRANT_TEST_POSTGRES_URL` their tests fail.

mod approvals;
mod audit;
mod engine;
mod events;
mod history;
mod parts;
#[cfg(feature = "postgres")]
#[path = "../postgres_common/mod.rs"]
mod pg;
#[path = "../common/mod.rs"]
mod sample;
mod sessions;

use std::sync::Arc;

use warrant_core::store::Store;
use warrant_stores::SqliteConfig;
use warrant_stores::memory::MemoryStore;
use warrant_stores::sqlite::SqliteStore;

/// How many events per session the subjects' event logs keep.
pub const EVENT_RETENTION: usize = 8;

/// A store under test, and how to open it again as a restarted process would.
pub struct Subject {
    /// The store.
    pub store: Arc<dyn Store>,
    /// How many events per session its event log keeps.
    pub event_retention: usize,
    reopen: Box<dyn Fn() -> Arc<dyn Store> + Send + Sync>,
    _dir: Option<tempfile::TempDir>,
}

impl Subject {
    /// Replaces the store by a freshly opened one over the same data (the memory store has
    /// no process to restart, so it stays itself).
    pub fn restart(&mut self) {
        self.store = (self.reopen)();
    }
}

fn memory() -> Subject {
    let store: Arc<dyn Store> = Arc::new(MemoryStore::with_event_retention(EVENT_RETENTION));
    let same = Arc::clone(&store);
    Subject {
        store,
        event_retention: EVENT_RETENTION,
        reopen: Box::new(move || Arc::clone(&same)),
        _dir: None,
    }
}

fn sqlite() -> Subject {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let config = SqliteConfig::in_dir(dir.path()).event_retention(EVENT_RETENTION);
    let open = move || -> Arc<dyn Store> {
        Arc::new(SqliteStore::with_config(config.clone()).expect("the database opens"))
    };
    Subject {
        store: open(),
        event_retention: EVENT_RETENTION,
        reopen: Box::new(open),
        _dir: Some(dir),
    }
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
    let open = move || -> Arc<dyn Store> {
        let _database = &database;
        Arc::new(PostgresStore::connect_lazy(config.clone()).expect("the configuration is valid"))
    };
    Subject {
        store: open(),
        event_retention: EVENT_RETENTION,
        reopen: Box::new(open),
        _dir: Some(dir),
    }
}

/// Instantiates every behaviour for one store factory.
macro_rules! behaviours {
    ($factory:path) => {
        behaviours!(@tests $factory;
            approvals::a_pending_approval_is_listed_until_removed,
            approvals::putting_a_request_again_keeps_one,
            approvals::removing_an_unknown_approval_is_not_an_error,
            approvals::a_pending_approval_survives_a_restart,
            approvals::grants_read_back_in_order_after_a_restart,
            approvals::a_removed_grant_is_gone_after_a_restart,
            approvals::the_workspace_is_none_before_the_first_save,
            approvals::the_saved_workspace_survives_a_restart,
            audit::appended_records_are_numbered_from_one_in_order,
            audit::records_of_one_session_are_read_alone,
            audit::every_kind_of_record_reads_back_as_written,
            audit::concurrent_appends_get_distinct_consecutive_numbers,
            audit::records_survive_a_restart_and_numbering_continues,
            audit::a_tool_call_id_is_evaluated_once_even_after_a_restart,
            audit::an_evaluated_call_still_takes_its_resolution_and_expiry,
            audit::every_store_verifies_its_log_through_the_trait,
            engine::a_pending_approval_ends_as_interrupted_at_an_engine_restart,
            engine::a_decision_is_audited_before_it_is_emitted,
            engine::a_settled_call_never_enters_the_pending_list,
            events::events_are_numbered_per_session,
            history::every_history_filter_selects_its_records,
            history::the_text_filter_ignores_ascii_case_and_reads_quotes,
            history::history_pages_run_from_the_newest_record_back,
            events::events_since_returns_later_events_up_to_the_limit,
            events::the_event_log_keeps_only_the_latest_events,
            events::the_event_log_survives_a_restart_and_numbering_continues,
            parts::a_new_tool_part_creates_its_assistant_message,
            parts::upserting_a_part_replaces_it_in_place,
            parts::decision_and_resolution_survive_a_restart,
            parts::messages_belong_to_their_session,
            parts::parts_and_messages_keep_their_order,
            sessions::a_257_byte_session_id_is_refused_by_every_write_naming_it,
            sessions::a_256_byte_session_id_is_accepted,
            sessions::put_session_adds_or_replaces_one_session_and_survives_a_restart,
            sessions::saving_the_workspace_adds_and_changes_sessions_and_keeps_the_others,
            sessions::idle_empty_sessions_expire_and_the_others_stay,
        );
    };
    (@tests $factory:path; $($group:ident :: $test:ident),* $(,)?) => {
        $(
            #[tokio::test]
            async fn $test() {
                crate::$group::$test($factory()).await;
            }
        )*
    };
}

mod memory_store {
    behaviours!(crate::memory);
}

mod sqlite_store {
    behaviours!(crate::sqlite);
}

#[cfg(feature = "postgres")]
mod postgres_store {
    behaviours!(crate::postgres);
}
