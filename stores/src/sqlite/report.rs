//! What verifying the audit log reports (the types live in the core, so every store reports
//! the same way).

pub use warrant_core::audit::{AuditBreak, AuditProblem, AuditVerification};
