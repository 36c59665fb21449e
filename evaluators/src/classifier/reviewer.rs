//! The security reviewer role around a backend: who answered, how fast, and what stood in when
//! the configured reviewer was down or slow. The classifier puts that account on every decision
//! it makes ([`ReviewDetails`], streamed and audited with the decision).

use std::sync::Arc;
use std::time::{Duration, Instant};

use async_trait::async_trait;
use warrant_core::decision::ReviewDetails;
use warrant_core::sanitize;

use super::{Classification, Classifier, ClassifierError, Review};

/// The version of the review prompt the model reviewers are sent, reported as
/// `reviewerPromptVersion`. Pinning it (`prompt_version`) makes an upgrade that changes the
/// prompt fail at start instead of changing the reviews silently.
pub const PROMPT_VERSION: &str = "review-v1";

/// Every prompt version this build can send.
pub const PROMPT_VERSIONS: &[&str] = &[PROMPT_VERSION];

/// What decides a call when the configured reviewer is down or slow (`fallback`): `ask` (the
/// default) or `embedded`.
pub use warrant_core::decision::ReviewerFallback as Fallback;

/// One review as it happened: the verdict (or why there is none), which reviewer gave it, how
/// long it took, and the fallback that stood in, if any.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reviewed {
    /// The verdict, or why no usable verdict came back.
    pub outcome: Result<Classification, ClassifierError>,
    /// The model that gave `outcome` (the embedded reviewer's id when it stood in).
    pub model: String,
    /// Whether the embedded heuristic reviewer gave `outcome`.
    pub embedded: bool,
    /// The version of the prompt sent, when a model was prompted.
    pub prompt_version: Option<String>,
    /// How long the review took, fallback included.
    pub latency: Duration,
    /// The fallback that stood in for the configured reviewer, and why.
    pub fallback: Option<(Fallback, String)>,
}

/// The account of `reviewed` that goes on the decision, sanitized for the wire.
pub fn details(reviewed: &Reviewed) -> ReviewDetails {
    ReviewDetails {
        reviewer_embedded: Some(reviewed.embedded),
        reviewer_prompt_version: reviewed
            .prompt_version
            .as_deref()
            .map(|v| sanitize::clean(v, sanitize::MAX_MODEL_CHARS)),
        reviewer_latency_ms: Some(u64::try_from(reviewed.latency.as_millis()).unwrap_or(u64::MAX)),
        reviewer_fallback: reviewed.fallback.as_ref().map(|(f, _)| *f),
        reviewer_fallback_reason: reviewed
            .fallback
            .as_ref()
            .map(|(_, why)| sanitize::clean(why, sanitize::MAX_FALLBACK_REASON_CHARS)),
    }
}

/// A configured model reviewer with its fallback: when the model is down or slow
/// ([`ClassifierError::Unavailable`]), the fallback decides (`ask`, or the embedded
/// reviewer). An answer outside the schema always asks.
pub struct WithFallback {
    primary: Arc<dyn Classifier>,
    fallback: Fallback,
    embedded: Arc<dyn Classifier>,
}

impl std::fmt::Debug for WithFallback {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WithFallback")
            .field("primary", &self.primary.model_id())
            .field("fallback", &self.fallback)
            .finish()
    }
}

impl WithFallback {
    /// `primary`, with `fallback` when it is down or slow; `embedded` decides for
    /// [`Fallback::Embedded`].
    pub fn new(
        primary: Arc<dyn Classifier>,
        fallback: Fallback,
        embedded: Arc<dyn Classifier>,
    ) -> Self {
        Self {
            primary,
            fallback,
            embedded,
        }
    }
}

#[async_trait]
impl Classifier for WithFallback {
    fn model_id(&self) -> &str {
        self.primary.model_id()
    }

    fn prompt_version(&self) -> Option<&str> {
        self.primary.prompt_version()
    }

    fn reads_whole_input(&self) -> bool {
        self.primary.reads_whole_input()
    }

    async fn classify(&self, review: &Review<'_>) -> Result<Classification, ClassifierError> {
        self.review(review).await.outcome
    }

    async fn review(&self, review: &Review<'_>) -> Reviewed {
        let started = Instant::now();
        let first = self.primary.classify(review).await;
        let mut reviewed = Reviewed {
            outcome: first,
            model: self.primary.model_id().to_owned(),
            embedded: self.primary.is_embedded(),
            prompt_version: self.primary.prompt_version().map(str::to_owned),
            latency: started.elapsed(),
            fallback: None,
        };
        match (&reviewed.outcome, self.fallback) {
            (Err(ClassifierError::Unavailable(why)), Fallback::Embedded) => {
                tracing::warn!(model = self.primary.model_id(), error = %why, "the security reviewer is unavailable; the embedded reviewer decides");
                let why = why.clone();
                reviewed.outcome = self.embedded.classify(review).await;
                reviewed.model = self.embedded.model_id().to_owned();
                reviewed.embedded = self.embedded.is_embedded();
                reviewed.prompt_version = self.embedded.prompt_version().map(str::to_owned);
                reviewed.latency = started.elapsed();
                reviewed.fallback = Some((Fallback::Embedded, why));
            }
            (Err(e), _) => reviewed.fallback = Some((Fallback::Ask, e.to_string())),
            (Ok(_), _) => {}
        }
        reviewed
    }
}
