//! The `auto_classifier` evaluator: in `auto` mode, a security reviewer settles the calls
//! that no rule or hard policy decided, through a [`Classifier`] backend.

mod build_env;
mod build_links;
mod build_reads;
mod c_directives;
pub mod codes;
mod downloads;
mod heuristic;
mod input;
mod openai;
mod reply;
pub mod reviewer;
mod routine_options;
mod runners;
mod written;

use std::sync::Arc;

use async_trait::async_trait;
use warrant_core::call::{EvaluationContext, PermissionMode, ToolCall};
use warrant_core::decision::{Behavior, Confidence, PermissionDecisionSource, Risk};
use warrant_core::evaluator::{Evaluator, EvaluatorError, Rationale, Role, Verdict};
use warrant_core::sanitize;

pub(crate) use heuristic::runs_code_later;
pub use heuristic::{HEURISTIC_MODEL_ID, HeuristicClassifier};
pub use openai::{
    DEFAULT_API_KEY_ENV, DEFAULT_TIMEOUT_MS, OpenAiCompatibleClassifier, OpenAiCompatibleConfig,
    Secret,
};
pub use reviewer::{Fallback, PROMPT_VERSION, Reviewed, WithFallback};

/// The name the classifier evaluator goes by in traces and configuration.
pub const NAME: &str = "auto_classifier";

/// Which reviewer `auto` mode asks: the embedded heuristic reviewer unless an
/// OpenAI-compatible endpoint is configured.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ClassifierConfig {
    /// An OpenAI-compatible chat-completions endpoint.
    pub openai: Option<OpenAiCompatibleConfig>,
    /// The least confidence a reviewer's `allow` must come with (`low`, `medium`, `high`;
    /// default `medium`): a less confident allow asks.
    pub min_confidence: Option<Confidence>,
}

impl ClassifierConfig {
    /// The `auto_classifier` evaluator this configuration describes (its backend and
    /// `min_confidence`), and how long the chain should wait for it (`None`: the chain's
    /// default). The one place both the default chain and the plugin registry make it.
    ///
    /// # Errors
    ///
    /// As [`ClassifierConfig::backend`].
    pub fn evaluator(
        &self,
        policy: &crate::PolicyEvaluator,
    ) -> Result<(AutoClassifier, Option<std::time::Duration>), crate::ConfigError> {
        let (backend, wait) = self.backend(policy)?;
        let mut classifier = AutoClassifier::new(backend)
            .with_min_confidence(self.min_confidence.unwrap_or(Confidence::Medium));
        classifier.time_limit = wait;
        Ok((classifier, wait))
    }

    /// The configured backend, and how long the chain should wait for it (`None`: the
    /// chain's default). `policy` is what the heuristic reviewer reads calls with.
    ///
    /// # Errors
    ///
    /// [`ConfigError::Classifier`](crate::ConfigError::Classifier) for an unusable endpoint
    /// configuration.
    pub fn backend(
        &self,
        policy: &crate::PolicyEvaluator,
    ) -> Result<(Arc<dyn Classifier>, Option<std::time::Duration>), crate::ConfigError> {
        let embedded: Arc<dyn Classifier> = Arc::new(HeuristicClassifier::new(policy.clone()));
        Ok(match &self.openai {
            Some(c) => {
                let wait = std::time::Duration::from_millis(c.timeout_ms.saturating_add(2_000));
                let model: Arc<dyn Classifier> = Arc::new(OpenAiCompatibleClassifier::new(c)?);
                let reviewer = WithFallback::new(model, c.fallback, embedded);
                (Arc::new(reviewer), Some(wait))
            }
            None => (embedded, None),
        })
    }
}

/// One open call put to a reviewer.
#[derive(Debug, Clone, Copy)]
pub struct Review<'a> {
    /// The call.
    pub call: &'a ToolCall,
    /// Its context; `open_risk` is the highest risk the judges rated.
    pub context: &'a EvaluationContext,
}

/// A reviewer's verdict on one call, already checked against the schema.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Classification {
    /// Allow, ask or deny.
    pub behavior: Behavior,
    /// The reviewer's rating of the harm the call could do.
    pub risk: Risk,
    /// How sure the reviewer is.
    pub confidence: Confidence,
    /// What kinds of risk it saw.
    pub risk_categories: Vec<String>,
    /// Why (untrusted text: sanitized and bounded before it is shown).
    pub reason: String,
}

/// Why a reviewer gave no usable verdict. Both turn into `ask`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ClassifierError {
    /// The reviewer could not be reached: an HTTP error, a timeout, a refused connection.
    #[error("{0}")]
    Unavailable(String),
    /// The reviewer answered outside the schema: not JSON, a missing or unknown field, a value
    /// off the scale.
    #[error("{0}")]
    InvalidOutput(String),
}

/// A security reviewer backend.
///
/// ```
/// use async_trait::async_trait;
/// use warrant_core::decision::{Behavior, Confidence, Risk};
/// use warrant_evaluators::classifier::{Classification, Classifier, ClassifierError, Review};
///
/// /// Asks about everything.
/// struct Cautious;
///
/// #[async_trait]
/// impl Classifier for Cautious {
///     fn model_id(&self) -> &str { "example/cautious" }
///     async fn classify(&self, _review: &Review<'_>) -> Result<Classification, ClassifierError> {
///         Ok(Classification {
///             behavior: Behavior::Ask,
///             risk: Risk::Medium,
///             confidence: Confidence::Low,
///             risk_categories: Vec::new(),
///             reason: "Every call deserves a look.".to_owned(),
///         })
///     }
/// }
/// ```
///
/// # Errors
///
/// A [`ClassifierError`] when no usable verdict came back; the call then asks.
#[async_trait]
pub trait Classifier: Send + Sync {
    /// The reviewing model's id, reported as `reviewerModel`.
    fn model_id(&self) -> &str;

    /// Reviews one open call.
    async fn classify(&self, review: &Review<'_>) -> Result<Classification, ClassifierError>;

    /// Whether the reviewer reads the call's input whole (a local reader), rather than a
    /// quotation bounded for a model's prompt. A reviewer that sees only part of a call never
    /// allows it.
    fn reads_whole_input(&self) -> bool {
        false
    }

    /// The version of the prompt the reviewer is sent (`reviewerPromptVersion`); `None` for a
    /// reviewer that is not prompted.
    fn prompt_version(&self) -> Option<&str> {
        None
    }

    /// Whether this is the embedded heuristic reviewer (labelled as such wherever it decides).
    fn is_embedded(&self) -> bool {
        false
    }

    /// Reviews one open call and says who answered and how fast. The default asks
    /// [`classify`](Classifier::classify) and times it; a reviewer with a fallback says which
    /// one stood in.
    async fn review(&self, review: &Review<'_>) -> Reviewed {
        let started = std::time::Instant::now();
        let outcome = self.classify(review).await;
        let fallback = match &outcome {
            Err(e) => Some((Fallback::Ask, e.to_string())),
            Ok(_) => None,
        };
        Reviewed {
            outcome,
            model: self.model_id().to_owned(),
            embedded: self.is_embedded(),
            prompt_version: self.prompt_version().map(str::to_owned),
            latency: started.elapsed(),
            fallback,
        }
    }
}

/// Settles open calls in `auto` mode with a [`Classifier`]'s verdict.
///
/// The chain consults it only for open calls, so it can never turn a deny into an allow nor
/// override a user's rule. A failed review asks; so does an `allow` the reviewer itself rates
/// `high` or `critical`.
#[derive(Clone)]
pub struct AutoClassifier {
    backend: Arc<dyn Classifier>,
    min_confidence: Confidence,
    /// How long the chain should wait for the backend (its own timeout and a margin).
    time_limit: Option<std::time::Duration>,
}

fn confidence_word(c: Confidence) -> &'static str {
    match c {
        Confidence::Low => "low",
        Confidence::Medium => "medium",
        Confidence::High => "high",
    }
}

impl std::fmt::Debug for AutoClassifier {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AutoClassifier")
            .field("model", &self.backend.model_id())
            .finish()
    }
}

impl AutoClassifier {
    /// A classifier evaluator over `backend`.
    pub fn new(backend: Arc<dyn Classifier>) -> Self {
        Self {
            backend,
            min_confidence: Confidence::Medium,
            time_limit: None,
        }
    }

    /// The least confidence an `allow` must come with to stand (default `medium`): a
    /// less confident allow asks, as the reviewer was told to when unsure.
    #[must_use]
    pub fn with_min_confidence(mut self, min: Confidence) -> Self {
        self.min_confidence = min;
        self
    }

    /// The reviewing model's id.
    pub fn model_id(&self) -> &str {
        self.backend.model_id()
    }

    fn rationale(&self, model: &str, code: &str, reason: String, risk: Risk) -> Rationale {
        let mut r = Rationale::new(
            code,
            sanitize::clean(&reason, sanitize::MAX_REASON_CHARS),
            risk,
        );
        r.reviewer_model = Some(sanitize::clean(model, sanitize::MAX_MODEL_CHARS));
        r
    }

    fn settle(
        &self,
        c: Classification,
        model: &str,
        stood_in: Option<&str>,
        open_risk: Option<Risk>,
        cuts: &[String],
    ) -> Verdict {
        let risk = c.risk.max(open_risk.unwrap_or(Risk::Safe));
        let mut reason = if c.reason.trim().is_empty() {
            "The reviewer gave no reason.".to_owned()
        } else {
            c.reason.clone()
        };
        let behavior = match c.behavior {
            Behavior::Allow if risk >= Risk::High => Behavior::Ask,
            Behavior::Allow if !cuts.is_empty() => {
                reason = format!(
                    "The reviewer saw only part of this call ({}), so it needs approval. {reason}",
                    cuts.join("; ")
                );
                Behavior::Ask
            }
            Behavior::Allow if c.confidence < self.min_confidence => {
                reason = format!(
                    "The reviewer would allow this call but is not sure ({} confidence), so it \
                     needs approval. {reason}",
                    confidence_word(c.confidence)
                );
                Behavior::Ask
            }
            b => b,
        };
        if let Some(why) = stood_in {
            // First, so that bounding the reason never cuts it: the history shows who decided.
            reason = format!(
                "The security reviewer {:?} was unavailable ({}), so the embedded reviewer \
                 decided. {reason}",
                sanitize::bound(self.backend.model_id(), sanitize::MAX_MODEL_CHARS),
                sanitize::bound(why, 120)
            );
        }
        let code = match behavior {
            Behavior::Allow => codes::AUTO_CLASSIFIER_ALLOW,
            Behavior::Ask => codes::AUTO_CLASSIFIER_ASK,
            Behavior::Deny => codes::AUTO_CLASSIFIER_DENY,
        };
        let mut rationale = self.rationale(model, code, reason, risk);
        rationale.confidence = Some(c.confidence);
        rationale.risk_categories = Some(
            c.risk_categories
                .iter()
                .take(sanitize::MAX_CATEGORIES)
                .map(|s| sanitize::clean(s, sanitize::MAX_CATEGORY_CHARS))
                .filter(|s| !s.is_empty())
                .collect(),
        );
        Verdict::Settle {
            behavior,
            rationale,
        }
    }

    fn failed(&self, error: ClassifierError, model: &str, open_risk: Option<Risk>) -> Verdict {
        tracing::warn!(model, %error, "the security reviewer gave no usable verdict; the call asks");
        let risk = open_risk.unwrap_or(Risk::Medium);
        let (code, reason) = match error {
            ClassifierError::Unavailable(why) => (
                codes::AUTO_CLASSIFIER_UNAVAILABLE,
                format!(
                    "The security reviewer could not be reached ({why}), so this call needs approval."
                ),
            ),
            ClassifierError::InvalidOutput(why) => (
                codes::AUTO_CLASSIFIER_INVALID_OUTPUT,
                format!(
                    "The security reviewer's answer could not be used ({why}), so this call needs approval."
                ),
            ),
        };
        Verdict::Settle {
            behavior: Behavior::Ask,
            rationale: self.rationale(model, code, reason, risk),
        }
    }
}

#[async_trait]
impl Evaluator for AutoClassifier {
    fn name(&self) -> &str {
        NAME
    }

    fn source(&self) -> PermissionDecisionSource {
        PermissionDecisionSource::AutoClassifier
    }

    fn version(&self) -> Option<&str> {
        Some(crate::VERSION)
    }

    fn role(&self) -> Role {
        Role::Settle(PermissionMode::Auto)
    }

    fn time_limit(&self) -> Option<std::time::Duration> {
        self.time_limit
    }

    async fn evaluate(
        &self,
        call: &ToolCall,
        cx: &EvaluationContext,
    ) -> Result<Verdict, EvaluatorError> {
        if cx.mode != PermissionMode::Auto {
            return Ok(Verdict::Abstain);
        }
        let review = Review { call, context: cx };
        let cuts = if self.backend.reads_whole_input() {
            Vec::new()
        } else {
            reply::cuts(&call.input)
        };
        let reviewed = self.backend.review(&review).await;
        let details = reviewer::details(&reviewed);
        let stood_in = match &reviewed.fallback {
            Some((Fallback::Embedded, why)) => Some(why.as_str()),
            _ => None,
        };
        let mut verdict = match reviewed.outcome {
            Ok(c) => self.settle(c, &reviewed.model, stood_in, cx.open_risk, &cuts),
            Err(e) => self.failed(e, &reviewed.model, cx.open_risk),
        };
        // Every classifier decision says who reviewed it, how, and what stood in.
        if let Verdict::Settle { rationale, .. } = &mut verdict {
            rationale.review = details;
        }
        Ok(verdict)
    }
}
