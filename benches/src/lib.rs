//! Warrant's benchmarks: decision latency against Cedar and Rego, engine and stream
//! throughput, and the quick run that rewrites `BENCHMARKS.md`.
//!
//! Every figure is measured, never asserted: the tests here check that the engines agree and
//! that the harness works, not how fast anything is.
//!
//! - [`rules`] generates the rule sets, [`calls`] the calls they are measured with;
//! - [`warrant`] and [`peers`] decide them; [`compare`] builds all three side by side and
//!   refuses to time engines that disagree;
//! - [`latency`], [`endtoend`], [`fanout`] and [`reload`] measure, and [`sidecar`] the
//!   HTTP and stdio transports around the engine;
//! - [`report`] writes the results as `BENCHMARKS.md`.

pub mod calls;
pub mod compare;
pub mod endtoend;
pub mod fanout;
pub mod latency;
pub mod peers;
pub mod reload;
pub mod report;
pub mod rules;
pub mod sidecar;
pub mod timing;
pub mod warrant;

/// Whether the process runs as a benchmark (`cargo bench`), rather than once as a test:
/// `cargo test --all-targets` runs bench targets without `--bench` (and `cargo bench --
/// --test` with `--test`), and they then use their smallest sizes.
pub fn benchmarking() -> bool {
    let flag = |f: &str| std::env::args().any(|a| a == f);
    flag("--bench") && !flag("--test")
}
