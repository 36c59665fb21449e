//! The checkpoint file: an append-only record of the audit head (`SEQ:HASH`, one line per
//! commit that appended records), kept outside the database so that a truncated or emptied
//! log no longer matches it.

pub use warrant_core::audit::AuditHead;

pub(crate) use crate::audit_chain::{append_checkpoint as append, read_checkpoints as read};
