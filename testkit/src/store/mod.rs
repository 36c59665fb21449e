//! The behaviour every [`Store`] must show, as a suite any store runs.
//!
//! Each behaviour is a public async function taking a [`Subject`]: a fresh, empty store and a
//! way to open it again over the same data, as a restarted process would.
//! [`store_behaviours!`](crate::store_behaviours) instantiates one test per behaviour for a
//! factory of subjects; the stores of `warrant-stores` (memory, SQLite, PostgreSQL) run the
//! same suite, so a third-party store that passes it behaves as they do.
//!
//! ```no_run
//! use std::sync::Arc;
//! use warrant_core::store::{MemoryStore, Store};
//! use warrant_testkit::store::{EVENT_RETENTION, Subject};
//!
//! /// A fresh store per test. A persistent store opens the same data again in the closure.
//! fn my_store() -> Subject {
//!     let store: Arc<dyn Store> = Arc::new(MemoryStore::with_event_retention(EVENT_RETENTION));
//!     Subject::new(EVENT_RETENTION, move || Arc::clone(&store))
//! }
//!
//! warrant_testkit::store_behaviours!(my_store);
//! # fn main() {}
//! ```
//!
//! The behaviours are grouped by the part of [`Store`] they exercise: [`audit`] and
//! [`history`] ([`AuditLog`](warrant_core::store::AuditLog)), [`decisions`] (a decision's
//! audit record, tool part and events as one unit, across the three), [`events`]
//! ([`EventLog`](warrant_core::store::EventLog)), [`parts`]
//! ([`Conversations`](warrant_core::store::Conversations)), [`approvals`]
//! ([`Approvals`](warrant_core::store::Approvals) and the workspace's load and save),
//! [`sessions`] ([`WorkspaceStore`](warrant_core::store::WorkspaceStore) and session ids
//! across every part), and [`engine`] (the store under a real engine).

pub mod approvals;
pub mod audit;
pub mod decisions;
pub mod engine;
pub mod events;
pub mod history;
pub mod parts;
pub mod sample;
pub mod sessions;

use std::any::Any;
use std::sync::Arc;

use warrant_core::store::Store;

/// How many events per session a subject's event log should keep: small, so that the
/// retention behaviour drops some.
pub const EVENT_RETENTION: usize = 8;

/// A store under test, and how to open it again as a restarted process would.
pub struct Subject {
    /// The store.
    pub store: Arc<dyn Store>,
    /// How many events per session its event log keeps (the retention behaviour appends more).
    pub event_retention: usize,
    reopen: Box<dyn Fn() -> Arc<dyn Store> + Send + Sync>,
    /// Kept alive until the subject is dropped, after the store (a temporary directory, a
    /// database to drop, …).
    guard: Option<Box<dyn Any + Send + Sync>>,
}

impl std::fmt::Debug for Subject {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Subject")
            .field("event_retention", &self.event_retention)
            .finish_non_exhaustive()
    }
}

impl Subject {
    /// A subject whose store is `open()`, and whose restart calls `open` again: it must open
    /// the same data as a new process would (a store that has no process to restart, like
    /// the memory store, returns the same store). `event_retention` is what the store was
    /// configured with (at least 1; [`EVENT_RETENTION`] suits the suite).
    ///
    /// # Panics
    ///
    /// When `event_retention` is 0: an event log keeps at least the latest event.
    pub fn new(
        event_retention: usize,
        open: impl Fn() -> Arc<dyn Store> + Send + Sync + 'static,
    ) -> Self {
        assert!(
            event_retention > 0,
            "an event log keeps at least one event per session, not {event_retention}"
        );
        Self {
            store: open(),
            event_retention,
            reopen: Box::new(open),
            guard: None,
        }
    }

    /// Keeps `guard` (a temporary directory, a throwaway database, …) alive as long as the
    /// subject, and drops it after the store.
    pub fn keeping(mut self, guard: impl Any + Send + Sync) -> Self {
        self.guard = Some(Box::new(guard));
        self
    }

    /// Replaces the store by a freshly opened one over the same data.
    pub fn restart(&mut self) {
        self.store = (self.reopen)();
    }
}

/// Instantiates one `#[test]` per store behaviour of [`warrant_testkit::store`](crate::store),
/// each on a fresh [`Subject`](crate::store::Subject) from `$factory` (a path to a
/// `fn() -> Subject`, called on the behaviour's tokio runtime). Invoke it once per store, in
/// a module of its own.
///
/// ```no_run
/// mod memory {
///     fn subject() -> warrant_testkit::store::Subject {
///         let store = std::sync::Arc::new(warrant_core::store::MemoryStore::with_event_retention(8));
///         warrant_testkit::store::Subject::new(8, move || store.clone())
///     }
///     warrant_testkit::store_behaviours!(subject);
/// }
/// # fn main() {}
/// ```
#[macro_export]
macro_rules! store_behaviours {
    ($factory:path) => {
        $crate::store_behaviours!(@tests $factory;
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
            decisions::a_decision_record_writes_its_audit_record_part_and_events,
            decisions::a_refused_decision_record_writes_nothing,
            decisions::decision_records_survive_a_restart,
            decisions::concurrent_decision_records_are_numbered_without_gaps,
            decisions::decision_records_racing_plain_writes_of_their_message_all_land,
            decisions::a_call_refused_as_a_duplicate_leaves_no_part_and_no_event,
            engine::a_pending_approval_ends_as_interrupted_at_an_engine_restart,
            engine::a_decision_is_audited_before_it_is_emitted,
            engine::a_decision_reaches_subscribers_only_once_audited,
            engine::a_settled_call_never_enters_the_pending_list,
            events::events_are_numbered_per_session,
            events::events_since_returns_later_events_up_to_the_limit,
            events::the_event_log_keeps_only_the_latest_events,
            events::the_event_log_survives_a_restart_and_numbering_continues,
            history::every_history_filter_selects_its_records,
            history::the_text_filter_ignores_ascii_case_and_reads_quotes,
            history::history_pages_run_from_the_newest_record_back,
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
            #[test]
            fn $test() {
                $crate::run(async { $crate::store::$group::$test($factory()).await });
            }
        )*
    };
}
