//! The behaviour every [`Evaluator`] must show, as a suite any evaluator runs.
//!
//! The [`Evaluator`] contract, with the chain's rules: a judge ([`Role::Judge`]) decides or
//! abstains; a settler ([`Role::Settle`]) settles or abstains, and only in its mode; the same
//! call in the same context gets the same answer; a call whose input is malformed or
//! oversized is never allowed by a judge; a decision carries a stable snake-case reason code
//! and a reason in words; a failure is an error naming what failed, never an allow; the
//! chain stamps the evaluator's declared name, version and source on the decisions it makes;
//! and every answer comes within the evaluator's [time limit](Evaluator::time_limit).
//!
//! Each behaviour runs over a [`Subject`]: the evaluator, the workspace its contexts name,
//! and the calls it is asked about (a built-in [corpus] of ordinary, destructive,
//! malformed and oversized calls, plus any the subject adds).
//!
//! ```no_run
//! use std::sync::Arc;
//! use warrant_core::prelude::*;
//! use warrant_testkit::evaluator::Subject;
//!
//! fn subject() -> Subject {
//!     let no_deploys = warrant_testkit::evaluator_fn(
//!         "no_deploys",
//!         PermissionDecisionSource::Policy,
//!         |call, _cx| {
//!             if call.tool_name == "deploy" {
//!                 Verdict::decide(
//!                     Stance::HardDeny,
//!                     Rationale::new("plugin_no_deploys_deny", "Deploys are off.", Risk::High),
//!                 )
//!             } else {
//!                 Verdict::Abstain
//!             }
//!         },
//!     );
//!     Subject::new(Arc::new(no_deploys))
//!         .with_call(ToolCall::new("s1", "c-deploy", "deploy", serde_json::json!({})))
//! }
//!
//! warrant_testkit::evaluator_behaviours!(subject);
//! # fn main() {}
//! ```

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use serde_json::{Value, json};
use warrant_core::call::{EvaluationContext, PermissionMode, ToolCall};
use warrant_core::chain::Chain;
use warrant_core::decision::Behavior;
use warrant_core::evaluator::{Evaluator, EvaluatorError, Rationale, Role, Verdict};

/// How long an evaluator that declares no [time limit](Evaluator::time_limit) may take to
/// answer one call.
pub const DEFAULT_TIME_LIMIT: Duration = Duration::from_secs(10);

/// How many bytes the oversized calls of the [corpus] carry in one string.
pub const OVERSIZED_BYTES: usize = 1 << 20;

/// The modes every behaviour runs in.
pub const MODES: [PermissionMode; 3] = [
    PermissionMode::Default,
    PermissionMode::Auto,
    PermissionMode::FullAccess,
];

/// A call of the corpus: what it is, and whether its input is malformed or oversized.
#[derive(Debug, Clone)]
pub struct Sample {
    /// The call.
    pub call: ToolCall,
    /// Its input is malformed (a missing or mistyped field, not an object) or oversized: no
    /// judge may allow it.
    pub bad_input: bool,
}

fn sample(id: &str, tool: &str, input: Value, bad_input: bool) -> Sample {
    Sample {
        call: ToolCall::new("s1", id, tool, input),
        bad_input,
    }
}

/// The built-in calls every evaluator is asked about: reads, writes inside and outside the
/// workspace, harmless and destructive commands, an unknown tool, malformed inputs of the
/// built-in tools, a command of [`OVERSIZED_BYTES`] and a path as long.
pub fn corpus() -> Vec<Sample> {
    let big = "a".repeat(OVERSIZED_BYTES);
    vec![
        sample("c-view", "view", json!({"path": "README.md"}), false),
        sample("c-ls", "Bash", json!({"command": "ls -la"}), false),
        sample("c-test", "Bash", json!({"command": "cargo test"}), false),
        sample("c-rm", "Bash", json!({"command": "rm -rf /"}), false),
        sample(
            "c-push",
            "Bash",
            json!({"command": "git push --force origin main"}),
            false,
        ),
        sample(
            "c-write",
            "Write",
            json!({"path": "src/main.rs", "content": "fn main() {}\n"}),
            false,
        ),
        sample(
            "c-write-outside",
            "Write",
            json!({"path": "/etc/passwd", "content": "root::0:0::/:/bin/sh\n"}),
            false,
        ),
        sample(
            "c-fetch",
            "web_fetch",
            json!({"url": "https://example.com/"}),
            false,
        ),
        sample(
            "c-unknown",
            "no_such_tool",
            json!({"anything": true}),
            false,
        ),
        sample("c-bash-empty", "Bash", json!({}), true),
        sample("c-bash-number", "Bash", json!({"command": 42}), true),
        sample("c-bash-string", "Bash", json!("rm -rf /"), true),
        sample("c-view-null", "view", Value::Null, true),
        sample("c-write-list", "Write", json!({"path": ["a", "b"]}), true),
        sample(
            "c-bash-huge",
            "Bash",
            json!({"command": format!("echo {big}")}),
            true,
        ),
        // Well-formed, however long: reading it fails at the file system, and no contract
        // bounds a path's length, so it is asked for time limits and determinism only.
        sample("c-view-huge", "view", json!({"path": big}), false),
    ]
}

/// An evaluator under test, the workspace its contexts name, and the calls it is asked about.
#[derive(Clone)]
pub struct Subject {
    /// The evaluator.
    pub evaluator: Arc<dyn Evaluator>,
    /// The workspace root of every context.
    pub workspace: PathBuf,
    /// The calls every behaviour asks about: the [corpus] and the subject's own.
    pub samples: Vec<Sample>,
}

impl std::fmt::Debug for Subject {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Subject")
            .field("evaluator", &self.evaluator.name())
            .field("workspace", &self.workspace)
            .field("samples", &self.samples.len())
            .finish()
    }
}

impl Subject {
    /// A subject asked about the [corpus], in the system's temporary directory as its
    /// workspace.
    pub fn new(evaluator: Arc<dyn Evaluator>) -> Self {
        Self {
            evaluator,
            workspace: std::env::temp_dir(),
            samples: corpus(),
        }
    }

    /// The same subject, with `root` as the workspace of its contexts.
    #[must_use]
    pub fn in_workspace(mut self, root: impl Into<PathBuf>) -> Self {
        self.workspace = root.into();
        self
    }

    /// The same subject, also asked about `call` (one its evaluator has something to say
    /// about), whose input is well-formed.
    #[must_use]
    pub fn with_call(mut self, call: ToolCall) -> Self {
        self.samples.push(Sample {
            call,
            bad_input: false,
        });
        self
    }

    /// The same subject, also asked about `call`, whose input is malformed or oversized: no
    /// judge may allow it.
    #[must_use]
    pub fn with_bad_call(mut self, call: ToolCall) -> Self {
        self.samples.push(Sample {
            call,
            bad_input: true,
        });
        self
    }

    /// A context in `mode` for the subject's workspace.
    pub fn context(&self, mode: PermissionMode) -> EvaluationContext {
        EvaluationContext::new(mode, &self.workspace)
    }

    /// What the evaluator answers for a call in `mode`, within its time limit.
    ///
    /// # Panics
    ///
    /// When it takes longer than its [time limit](Evaluator::time_limit) (or
    /// [`DEFAULT_TIME_LIMIT`]).
    pub async fn ask(
        &self,
        call: &ToolCall,
        mode: PermissionMode,
    ) -> Result<Verdict, EvaluatorError> {
        let limit = self.evaluator.time_limit().unwrap_or(DEFAULT_TIME_LIMIT);
        let cx = self.context(mode);
        match tokio::time::timeout(limit, self.evaluator.evaluate(call, &cx)).await {
            Ok(answer) => answer,
            Err(_) => panic!(
                "\"{}\" took longer than its time limit ({limit:?}) on call \"{}\" in mode {mode:?}",
                self.evaluator.name(),
                call.tool_call_id
            ),
        }
    }

    /// Every (sample, mode, answer) of the subject, asked one after another.
    async fn answers(&self) -> Vec<(&Sample, PermissionMode, Result<Verdict, String>)> {
        let mut answers = Vec::new();
        for sample in &self.samples {
            for mode in MODES {
                let answer = self.ask(&sample.call, mode).await;
                answers.push((sample, mode, comparable(answer)));
            }
        }
        answers
    }
}

/// An answer as the behaviours compare it: without the measured latency of a review, the
/// error as its message.
fn comparable(answer: Result<Verdict, EvaluatorError>) -> Result<Verdict, String> {
    let mut verdict = answer.map_err(|e| e.to_string())?;
    if let Verdict::Decide { rationale, .. } | Verdict::Settle { rationale, .. } = &mut verdict {
        rationale.review.reviewer_latency_ms = None;
    }
    Ok(verdict)
}

/// The behaviour a verdict stands for, and its rationale, when it says something.
fn said(verdict: &Verdict) -> Option<(Behavior, &Rationale)> {
    match verdict {
        Verdict::Abstain => None,
        Verdict::Decide { stance, rationale } => Some((stance.behavior(), rationale)),
        Verdict::Settle {
            behavior,
            rationale,
        } => Some((*behavior, rationale)),
    }
}

/// The same call in the same context gets the same answer, asked again and asked by
/// several callers at once.
pub async fn the_same_call_gets_the_same_answer(s: Subject) {
    let first = s.answers().await;
    let again = s.answers().await;
    for ((sample, mode, one), (_, _, two)) in first.iter().zip(&again) {
        assert_eq!(
            one, two,
            "call \"{}\" in mode {mode:?} changed its answer",
            sample.call.tool_call_id
        );
    }
    let at_once = futures::future::join_all(s.samples.iter().flat_map(|sample| {
        MODES.map(|mode| {
            let s = &s;
            async move { comparable(s.ask(&sample.call, mode).await) }
        })
    }))
    .await;
    for ((sample, mode, alone), together) in first.iter().zip(&at_once) {
        assert_eq!(
            alone, together,
            "call \"{}\" in mode {mode:?} answered differently beside other calls",
            sample.call.tool_call_id
        );
    }
}

/// Every call of the subject, in every mode, is answered within the evaluator's
/// [time limit](Evaluator::time_limit) (or [`DEFAULT_TIME_LIMIT`]), oversized ones included.
pub async fn every_answer_comes_within_its_time_limit(s: Subject) {
    let answered = s.answers().await.len();
    assert_eq!(answered, s.samples.len() * MODES.len());
}

/// A judge decides or abstains in every mode; a settler settles or abstains, and says
/// nothing outside its mode.
pub async fn it_answers_as_its_role_allows(s: Subject) {
    let role = s.evaluator.role();
    for (sample, mode, answer) in s.answers().await {
        let id = &sample.call.tool_call_id;
        let Ok(verdict) = answer else { continue };
        match role {
            Role::Judge => assert!(
                !matches!(verdict, Verdict::Settle { .. }),
                "a judge settled call \"{id}\" in mode {mode:?}: {verdict:?}"
            ),
            Role::Settle(own) => {
                assert!(
                    !matches!(verdict, Verdict::Decide { .. }),
                    "a settler decided call \"{id}\" in mode {mode:?}: {verdict:?}"
                );
                if mode != own {
                    assert_eq!(
                        verdict,
                        Verdict::Abstain,
                        "a settler for {own:?} spoke on call \"{id}\" in mode {mode:?}"
                    );
                }
            }
        }
    }
}

/// No judge allows a call whose input is malformed or oversized, in any mode (a settler is
/// only consulted for calls the judges left open).
pub async fn a_judge_never_allows_a_malformed_or_oversized_call(s: Subject) {
    if s.evaluator.role() != Role::Judge {
        return;
    }
    for (sample, mode, answer) in s.answers().await {
        if !sample.bad_input {
            continue;
        }
        if let Ok(verdict) = &answer
            && let Some((behavior, rationale)) = said(verdict)
        {
            assert_ne!(
                behavior,
                Behavior::Allow,
                "call \"{}\" with a bad input was allowed in mode {mode:?}: {}",
                sample.call.tool_call_id,
                rationale.reason_code
            );
        }
    }
}

/// Every decision carries a stable reason code (lower snake case) and a reason in words;
/// every failure is an error whose message says what failed.
pub async fn every_answer_explains_itself(s: Subject) {
    for (sample, mode, answer) in s.answers().await {
        let id = &sample.call.tool_call_id;
        match answer {
            Ok(verdict) => {
                let Some((_, rationale)) = said(&verdict) else {
                    continue;
                };
                let code = &rationale.reason_code;
                let snake = code.starts_with(|c: char| c.is_ascii_lowercase())
                    && code
                        .chars()
                        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
                assert!(
                    snake,
                    "call \"{id}\" in mode {mode:?}: reason code \"{code}\" is not snake case"
                );
                assert!(
                    !rationale.reason.trim().is_empty(),
                    "call \"{id}\" in mode {mode:?}: reason code \"{code}\" comes with no reason"
                );
            }
            Err(message) => assert!(
                message.trim().len() > "evaluator:".len(),
                "call \"{id}\" in mode {mode:?}: an error that names nothing: \"{message}\""
            ),
        }
    }
}

/// A decision the chain takes on this evaluator's word carries the name, version and source
/// the evaluator declares; and no call it answers is allowed by the chain after it failed.
pub async fn the_chain_stamps_what_it_declares(s: Subject) {
    let name = s.evaluator.name().to_owned();
    assert!(!name.trim().is_empty(), "an evaluator needs a name");
    let version = s.evaluator.version().map(str::to_owned);
    let chain = Chain::builder().evaluator(Arc::clone(&s.evaluator)).build();
    for sample in &s.samples {
        for mode in MODES {
            let id = &sample.call.tool_call_id;
            let own = s.ask(&sample.call, mode).await;
            let outcome = chain.decide(&sample.call, &s.context(mode)).await;
            let decision = outcome.decision;
            if outcome.trace.decided_by.as_deref() == Some(name.as_str()) {
                assert_eq!(
                    decision.source,
                    s.evaluator.source(),
                    "call \"{id}\" in mode {mode:?}"
                );
                let stamped = decision.evaluator.as_ref().expect("the deciding evaluator");
                assert_eq!(stamped.name, name, "call \"{id}\" in mode {mode:?}");
                assert_eq!(stamped.version, version, "call \"{id}\" in mode {mode:?}");
            }
            if own.is_err() {
                assert_ne!(
                    decision.behavior,
                    Behavior::Allow,
                    "call \"{id}\" in mode {mode:?}: a failure became an allow"
                );
            }
        }
    }
}

/// Instantiates one `#[test]` per evaluator behaviour of
/// [`warrant_testkit::evaluator`](crate::evaluator), each on a fresh
/// [`Subject`](crate::evaluator::Subject) from `$factory` (a path to a `fn() -> Subject`,
/// called on the behaviour's tokio runtime). Invoke it once per evaluator, in a module of its
/// own.
#[macro_export]
macro_rules! evaluator_behaviours {
    ($factory:path) => {
        $crate::evaluator_behaviours!(@tests $factory;
            the_same_call_gets_the_same_answer,
            every_answer_comes_within_its_time_limit,
            it_answers_as_its_role_allows,
            a_judge_never_allows_a_malformed_or_oversized_call,
            every_answer_explains_itself,
            the_chain_stamps_what_it_declares,
        );
    };
    (@tests $factory:path; $($test:ident),* $(,)?) => {
        $(
            #[test]
            fn $test() {
                $crate::run(async { $crate::evaluator::$test($factory()).await });
            }
        )*
    };
}
