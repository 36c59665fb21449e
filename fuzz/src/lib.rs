//! What the fuzz targets share: a runtime per input, the default chain built once, an empty
//! workspace directory, and a writer whose bytes can be read back.

use std::path::{Path, PathBuf};
use std::pin::Pin;
use std::sync::{Arc, Mutex, OnceLock};
use std::task::{Context, Poll};

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use warrant_core::catalog::ToolCatalog;
use warrant_core::chain::{Chain, TraceOutcome};
use warrant_core::decision::ToolPermissionDecision;
use warrant_evaluators::{EvaluatorsConfig, default_chain};

/// A fresh single-threaded runtime: dropping it at the end of an input drops every task the
/// input left behind (pending approvals, streams, runs), so inputs never leak into each other.
pub fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .expect("a runtime")
}

/// An empty directory standing for the workspace root, so that no decision depends on the
/// files of the machine the fuzzer runs on.
pub fn workspace() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("fuzz-warrant-ws-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a workspace directory");
        dir
    })
}

/// The chain `warrant check` builds with an empty configuration: `policy`, `rule`,
/// `auto_classifier` (the embedded heuristic reviewer) and `full_access`.
pub fn chain() -> Chain {
    static CHAIN: OnceLock<Chain> = OnceLock::new();
    CHAIN
        .get_or_init(|| {
            default_chain(&EvaluatorsConfig::default(), &ToolCatalog::builtin())
                .expect("the default chain")
        })
        .clone()
}

/// The built-in evaluators' configuration, for the grant scoper.
pub fn evaluators_config() -> EvaluatorsConfig {
    EvaluatorsConfig::default()
}

/// The chain swallows an evaluator's panic into an `ask` (fail closed). For the fuzzer a panic
/// is still a bug: this fails on one, naming the evaluator.
pub fn assert_no_evaluator_panicked(trace: &warrant_core::chain::ChainTrace, what: &str) {
    for entry in &trace.entries {
        if let TraceOutcome::Failed { kind, error } = &entry.outcome {
            assert!(
                kind != "panic",
                "evaluator {:?} panicked on {what}: {error}",
                entry.evaluator
            );
        }
    }
}

/// Checks the shape of a decision: an id, a reason code, a reason.
pub fn assert_decision_well_formed(decision: &ToolPermissionDecision, what: &str) {
    assert!(
        !decision.reason_code.trim().is_empty(),
        "a decision without a reason code for {what}: {decision:?}"
    );
}

/// A writer that keeps everything written, readable through its clone.
#[derive(Clone, Default)]
pub struct Sink(pub Arc<Mutex<Vec<u8>>>);

impl Sink {
    /// Everything written so far.
    pub fn bytes(&self) -> Vec<u8> {
        self.0.lock().expect("not poisoned").clone()
    }
}

impl AsyncWrite for Sink {
    fn poll_write(self: Pin<&mut Self>, _: &mut Context<'_>, buf: &[u8]) -> Poll<std::io::Result<usize>> {
        self.0.lock().expect("not poisoned").extend_from_slice(buf);
        Poll::Ready(Ok(buf.len()))
    }
    fn poll_flush(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Poll::Ready(Ok(()))
    }
    fn poll_shutdown(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Poll::Ready(Ok(()))
    }
}

/// A reader that hands out its bytes in chunks of the given sizes (cycling), so that line
/// ends fall on every buffer boundary a pipe could produce.
pub struct Chunked {
    data: Vec<u8>,
    at: usize,
    sizes: Vec<usize>,
    turn: usize,
}

impl Chunked {
    /// `data`, read `sizes` bytes at a time (each at least 1).
    pub fn new(data: Vec<u8>, sizes: Vec<usize>) -> Self {
        let sizes = if sizes.is_empty() { vec![usize::MAX] } else { sizes };
        Self {
            data,
            at: 0,
            sizes: sizes.into_iter().map(|s| s.max(1)).collect(),
            turn: 0,
        }
    }
}

impl AsyncRead for Chunked {
    fn poll_read(
        mut self: Pin<&mut Self>,
        _: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        let size = self.sizes[self.turn % self.sizes.len()];
        self.turn += 1;
        let left = self.data.len() - self.at;
        let n = size.min(left).min(buf.remaining());
        let at = self.at;
        buf.put_slice(&self.data[at..at + n]);
        self.at += n;
        Poll::Ready(Ok(()))
    }
}

/// A single-threaded runtime whose clock is paused and jumps ahead whenever every task waits,
/// so that keep-alives and timeouts happen at once instead of in real time.
pub fn paused_runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .start_paused(true)
        .build()
        .expect("a runtime")
}

/// The stack of a tokio worker thread (2 MiB), where the server decides calls.
pub const WORKER_STACK: usize = 2 << 20;

/// Runs `f` on a thread with a tokio worker's stack, so that deep recursion overflows here
/// as it would in `warrant serve`, not only past libFuzzer's larger main stack. One worker
/// thread serves every input (a thread per input costs more than most inputs). A panic is
/// passed on.
pub fn on_worker_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    type Job = Box<dyn FnOnce() + Send>;
    static WORKER: OnceLock<Mutex<std::sync::mpsc::Sender<Job>>> = OnceLock::new();
    let worker = WORKER.get_or_init(|| {
        let (jobs, queue) = std::sync::mpsc::channel::<Job>();
        std::thread::Builder::new()
            .name("fuzz-worker".to_owned())
            .stack_size(WORKER_STACK)
            .spawn(move || {
                for job in queue {
                    job();
                }
            })
            .expect("a thread");
        Mutex::new(jobs)
    });
    let (answer, answered) = std::sync::mpsc::sync_channel(1);
    let job: Job = Box::new(move || {
        let _ = answer.send(std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)));
    });
    worker.lock().expect("not poisoned").send(job).expect("the worker runs");
    match answered.recv().expect("the worker answers") {
        Ok(value) => value,
        Err(panic) => std::panic::resume_unwind(panic),
    }
}
