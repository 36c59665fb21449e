//! Warrant's execution oracle: it runs the calls the policy allows in a sandbox under a
//! syscall tracer and checks the policy's claim that they only read, so a false allow becomes
//! a failing test.
//!
//! - [`sandbox`]: bubblewrap with a read-only root, no network, planted secrets and limits,
//!   under `strace -f`;
//! - [`trace`] and [`effects`]: strace's output as events, then as effects of the command;
//! - [`verdict`]: which effects break the claim (writes, unnamed programs, connections,
//!   secret reads, secrets in the output);
//! - [`decide`], [`analysis`]: the decisions under test and what the analysis says runs;
//! - [`corpus`], [`generate`]: the calls to check;
//! - [`run`]: one run, with its [`run::Report`].

pub mod analysis;
pub mod corpus;
pub mod decide;
pub mod effects;
pub mod generate;
pub mod layout;
pub mod run;
pub mod sandbox;
pub mod trace;
pub mod verdict;
