//! The evaluator chain: every judge is asked, the strongest verdict wins, and an open call
//! is settled by the permission mode.

mod trace;

use std::panic::AssertUnwindSafe;
use std::sync::Arc;
use std::time::{Duration, Instant};

use futures::FutureExt;
use futures::future::join_all;

pub use trace::{ChainTrace, TraceEntry, TraceOutcome};

use crate::call::{EvaluationContext, PermissionMode, ToolCall};
use crate::decision::{
    Behavior, DecidingEvaluator, PermissionDecisionSource, Provenance, ReviewDetails, Risk,
    ToolPermissionDecision,
};
use crate::evaluator::{Evaluator, Rationale, Role, Stance, Verdict};

/// The time an evaluator gets before the chain gives up on it and asks.
pub const DEFAULT_EVALUATOR_TIMEOUT: Duration = Duration::from_secs(30);

/// Reason code when no evaluator decided an open call in `default` mode.
pub const POLICY_DEFAULT_ASK: &str = "policy_default_ask";

struct Link {
    evaluator: Arc<dyn Evaluator>,
    timeout: Duration,
}

/// An ordered set of evaluators that decides one call at a time.
///
/// Every judge is asked (concurrently); the verdict of the lowest strength wins (hard deny,
/// then the user's ask, then user allows, then policy allows), the most restrictive within a
/// strength, so configuration order never matters. A call no judge settles is *open*: `default`
/// mode asks the user, `auto` asks the classifier, `full_access` allows without review.
/// An evaluator that errors, panics or times out counts as a strength-2 `ask`.
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// use warrant_core::prelude::*;
/// use warrant_core::testkit::evaluator_fn;
///
/// let allow_reads = evaluator_fn("reads", PermissionDecisionSource::Policy, |call, _| {
///     match call.tool_name.as_str() {
///         "read" => Verdict::decide(Stance::PolicyAllow, Rationale::new("plugin_reads_allow", "A read.", Risk::Safe)),
///         _ => Verdict::Abstain,
///     }
/// });
/// let no_deploys = evaluator_fn("no_deploys", PermissionDecisionSource::Policy, |call, _| {
///     match call.tool_name.as_str() {
///         "deploy" => Verdict::decide(Stance::HardDeny, Rationale::new("plugin_no_deploys_deny", "Deploys are off.", Risk::High)),
///         _ => Verdict::Abstain,
///     }
/// });
/// let chain = Chain::builder().evaluator(allow_reads).evaluator(no_deploys).build();
/// let cx = EvaluationContext::new(PermissionMode::Default, "/srv/project");
///
/// let read = ToolCall::new("s1", "c1", "read", serde_json::json!({}));
/// assert_eq!(chain.decide(&read, &cx).await.decision.behavior, Behavior::Allow);
/// let deploy = ToolCall::new("s1", "c2", "deploy", serde_json::json!({}));
/// let outcome = chain.decide(&deploy, &cx).await;
/// assert_eq!(outcome.decision.behavior, Behavior::Deny);
/// assert_eq!(outcome.decision.evaluator.unwrap().name, "no_deploys");
/// // Nobody settles an unknown tool: it is open, and `default` mode asks.
/// let other = ToolCall::new("s1", "c3", "email", serde_json::json!({}));
/// assert_eq!(chain.decide(&other, &cx).await.decision.behavior, Behavior::Ask);
/// # }
/// ```
#[derive(Clone, Default)]
pub struct Chain {
    links: Arc<Vec<Link>>,
}

impl std::fmt::Debug for Chain {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list()
            .entries(self.links.iter().map(|l| l.evaluator.name().to_owned()))
            .finish()
    }
}

/// Builds a [`Chain`].
#[derive(Default)]
pub struct ChainBuilder {
    links: Vec<Link>,
}

impl std::fmt::Debug for ChainBuilder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list()
            .entries(self.links.iter().map(|l| l.evaluator.name().to_owned()))
            .finish()
    }
}

impl ChainBuilder {
    /// Adds an evaluator with the default timeout.
    pub fn evaluator(self, evaluator: impl Evaluator + 'static) -> Self {
        self.evaluator_with_timeout(evaluator, DEFAULT_EVALUATOR_TIMEOUT)
    }

    /// Adds a shared evaluator with the default timeout.
    pub fn shared(mut self, evaluator: Arc<dyn Evaluator>) -> Self {
        self.links.push(Link {
            evaluator,
            timeout: DEFAULT_EVALUATOR_TIMEOUT,
        });
        self
    }

    /// Adds an evaluator that gets `timeout` to answer.
    pub fn evaluator_with_timeout(
        mut self,
        evaluator: impl Evaluator + 'static,
        timeout: Duration,
    ) -> Self {
        self.links.push(Link {
            evaluator: Arc::new(evaluator),
            timeout,
        });
        self
    }

    /// The chain.
    pub fn build(self) -> Chain {
        Chain {
            links: Arc::new(self.links),
        }
    }
}

/// A decision with the trace of how it was reached.
#[derive(Debug, Clone, PartialEq)]
pub struct ChainOutcome {
    /// The decision, with its provenance.
    pub decision: ToolPermissionDecision,
    /// The stance that decided, when a judge decided (`None` when the mode settled the call).
    pub stance: Option<Stance>,
    /// What every evaluator did.
    pub trace: ChainTrace,
}

/// A candidate verdict, kept with who said it: names borrowed from the chain's links (or
/// [`GRANTS`]), since only the winner's are copied onto the decision.
struct Candidate<'a> {
    stance: Stance,
    behavior: Behavior,
    rationale: Rationale,
    source: PermissionDecisionSource,
    evaluator: &'a str,
    version: Option<&'a str>,
}

/// The name the chain's own grant check goes by in traces and on decisions.
pub const GRANTS: &str = "grants";

impl Candidate<'_> {
    /// Orders candidates so that the winner is the minimum, independent of input order.
    /// Between user allows, the user's own rule comes before a grant, a grant before
    /// checkpoints that are off, and those before auto-approval.
    fn rank(&self) -> impl Ord + '_ {
        let provenance = match &self.rationale.provenance {
            Some(Provenance::UserRule { .. }) => 0,
            Some(Provenance::Grant { .. }) => 1,
            Some(Provenance::CheckpointsOff { .. }) => 2,
            Some(Provenance::AutoApproved { .. }) => 3,
            None => 4,
        };
        (
            self.stance,
            std::cmp::Reverse(self.behavior.restrictiveness()),
            provenance,
            std::cmp::Reverse(self.rationale.risk),
            self.source,
            self.rationale.reason_code.as_str(),
            self.rationale.reason.as_str(),
            self.evaluator,
        )
    }
}

/// What one evaluator answered. A verdict is kept inline: it lives for one decision, and a box
/// would cost an allocation per evaluator per call.
#[allow(clippy::large_enum_variant)]
enum Answer {
    Verdict(Verdict),
    Failed { kind: &'static str, error: String },
}

impl Chain {
    /// Starts a chain.
    pub fn builder() -> ChainBuilder {
        ChainBuilder::default()
    }

    /// The configured evaluators' names, in configuration order.
    pub fn evaluator_names(&self) -> Vec<String> {
        self.links
            .iter()
            .map(|l| l.evaluator.name().to_owned())
            .collect()
    }

    /// Decides one call.
    #[tracing::instrument(
        level = "debug",
        name = "decide",
        skip_all,
        fields(tool_call_id = %call.tool_call_id, mode = ?cx.mode)
    )]
    pub async fn decide(&self, call: &ToolCall, cx: &EvaluationContext) -> ChainOutcome {
        let mut entries: Vec<Option<TraceEntry>> = (0..self.links.len()).map(|_| None).collect();
        let judges: Vec<usize> = (0..self.links.len())
            .filter(|&i| self.links[i].evaluator.role() == Role::Judge)
            .collect();

        let answers = join_all(judges.iter().map(|&i| self.ask(i, call, cx))).await;
        // Every judge's and a grant's: no growth on the way.
        let mut candidates = Vec::with_capacity(judges.len() + 1);
        for (&i, (answer, elapsed)) in judges.iter().zip(answers) {
            let (candidate, outcome) = judge(&self.links[i], answer, Role::Judge);
            entries[i] = Some(entry(&self.links[i], outcome, elapsed));
            candidates.extend(candidate);
        }
        candidates.extend(granted(cx));
        // The action's own risk, as the deterministic policy rates it: a decision carries it
        // whoever decided, so a grant or a rule never makes `git push` look harmless.
        let action_risk = candidates
            .iter()
            .filter(|c| c.source == PermissionDecisionSource::Policy)
            .map(|c| c.rationale.risk)
            .max();

        // The winner is taken out of the candidates, not copied: its rationale becomes the
        // decision's.
        let best = candidates
            .iter()
            .enumerate()
            .min_by(|(_, a), (_, b)| a.rank().cmp(&b.rank()))
            .map(|(i, _)| i);
        let stance = best
            .map(|i| candidates[i].stance)
            .filter(|&s| s != Stance::DefaultAsk);
        let (decision_parts, decided_by) = if let (Some(i), Some(_)) = (best, stance) {
            let c = candidates.swap_remove(i);
            (
                (c.behavior, c.source, c.rationale),
                Some((c.evaluator, c.version)),
            )
        } else {
            let open_risk = candidates.iter().map(|c| c.rationale.risk).max();
            let settled = self.settle(call, cx, open_risk, &mut entries).await;
            match settled {
                Some(c) => (
                    (c.behavior, c.source, c.rationale),
                    Some((c.evaluator, c.version)),
                ),
                None => match best.map(|i| candidates.swap_remove(i)) {
                    Some(c) => (
                        (Behavior::Ask, c.source, c.rationale),
                        Some((c.evaluator, c.version)),
                    ),
                    None => (
                        (
                            Behavior::Ask,
                            PermissionDecisionSource::Policy,
                            Rationale::new(
                                POLICY_DEFAULT_ASK,
                                "No rule or policy decides this call, so it needs approval.",
                                Risk::Medium,
                            ),
                        ),
                        None,
                    ),
                },
            }
        };

        let (behavior, source, rationale) = decision_parts;
        let entries = self
            .links
            .iter()
            .zip(entries)
            .map(|(link, e)| e.unwrap_or_else(|| entry(link, TraceOutcome::Skipped, 0)))
            .collect();
        ChainOutcome {
            decision: ToolPermissionDecision {
                tool_call_id: call.tool_call_id.clone(),
                behavior,
                source,
                reason: rationale.reason,
                reason_code: rationale.reason_code,
                risk: action_risk.map_or(rationale.risk, |r| r.max(rationale.risk)),
                confidence: rationale.confidence,
                risk_categories: rationale.risk_categories,
                reviewer_model: rationale.reviewer_model,
                provenance: rationale.provenance,
                // Only the security reviewer speaks of its review.
                review: if source == PermissionDecisionSource::AutoClassifier {
                    rationale.review
                } else {
                    ReviewDetails::default()
                },
                evaluator: decided_by.map(|(name, version)| DecidingEvaluator {
                    name: name.to_owned(),
                    version: version.map(str::to_owned),
                }),
            },
            stance,
            trace: ChainTrace {
                entries,
                decided_by: decided_by.map(|(name, _)| name.to_owned()),
            },
        }
    }

    /// Asks the settlers of the active mode about an open call.
    async fn settle(
        &self,
        call: &ToolCall,
        cx: &EvaluationContext,
        open_risk: Option<Risk>,
        entries: &mut [Option<TraceEntry>],
    ) -> Option<Candidate<'_>> {
        if cx.mode == PermissionMode::Default {
            return None;
        }
        let settlers: Vec<usize> = (0..self.links.len())
            .filter(|&i| self.links[i].evaluator.role() == Role::Settle(cx.mode))
            .collect();
        if settlers.is_empty() {
            return None;
        }
        let mut cx = cx.clone();
        cx.open_risk = open_risk;
        let answers = join_all(settlers.iter().map(|&i| self.ask(i, call, &cx))).await;
        let mut candidates = Vec::new();
        for (&i, (answer, elapsed)) in settlers.iter().zip(answers) {
            let (candidate, outcome) = judge(&self.links[i], answer, Role::Settle(cx.mode));
            entries[i] = Some(entry(&self.links[i], outcome, elapsed));
            candidates.extend(candidate);
        }
        candidates
            .into_iter()
            .min_by(|a, b| a.rank().cmp(&b.rank()))
    }

    /// Asks one evaluator, turning errors, panics and timeouts into failures.
    async fn ask(&self, i: usize, call: &ToolCall, cx: &EvaluationContext) -> (Answer, u64) {
        let link = &self.links[i];
        let started = Instant::now();
        // Through the trait object itself: `Arc<dyn Evaluator>` is an evaluator too, and its
        // `evaluate` would box another future around the evaluator's own. The evaluator is
        // called inside the future whose panics are caught, as the box called it: an
        // evaluator that panics before it returns its future fails closed too.
        let run = AssertUnwindSafe(async { link.evaluator.as_ref().evaluate(call, cx).await })
            .catch_unwind();
        let answer = match tokio::time::timeout(link.timeout, run).await {
            Err(_) => Answer::Failed {
                kind: "timeout",
                error: format!("no answer within {} ms", link.timeout.as_millis()),
            },
            Ok(Err(panic)) => Answer::Failed {
                kind: "panic",
                error: panic_message(panic.as_ref()),
            },
            Ok(Ok(Err(e))) => Answer::Failed {
                kind: "error",
                error: e.message,
            },
            Ok(Ok(Ok(verdict))) => Answer::Verdict(verdict),
        };
        let elapsed = u64::try_from(started.elapsed().as_micros()).unwrap_or(u64::MAX);
        tracing::debug!(
            evaluator = link.evaluator.name(),
            elapsed_micros = elapsed,
            outcome = match &answer {
                Answer::Verdict(Verdict::Abstain) => "abstained",
                Answer::Verdict(_) => "decided",
                Answer::Failed { kind, .. } => kind,
            },
            "evaluator answered"
        );
        (answer, elapsed)
    }
}

/// Turns one evaluator's answer into a candidate and its trace line. A verdict of the wrong
/// kind for the evaluator's role is a protocol failure, and fails closed like any other.
fn judge(link: &Link, answer: Answer, role: Role) -> (Option<Candidate<'_>>, TraceOutcome) {
    let source = link.evaluator.source();
    let evaluator = link.evaluator.name();
    let version = link.evaluator.version();
    let (kind, error) = match (answer, role) {
        (Answer::Verdict(Verdict::Abstain), _) => return (None, TraceOutcome::Abstained),
        (Answer::Verdict(Verdict::Decide { stance, rationale }), Role::Judge) => {
            let outcome = TraceOutcome::Decided {
                behavior: stance.behavior(),
                strength: Some(stance.strength()),
                reason_code: rationale.reason_code.clone(),
            };
            let candidate = Candidate {
                stance,
                behavior: stance.behavior(),
                rationale,
                source,
                evaluator,
                version,
            };
            return (Some(candidate), outcome);
        }
        (
            Answer::Verdict(Verdict::Settle {
                behavior,
                rationale,
            }),
            Role::Settle(_),
        ) => {
            let outcome = TraceOutcome::Decided {
                behavior,
                strength: None,
                reason_code: rationale.reason_code.clone(),
            };
            // Settling verdicts share one strength; restrictiveness decides between them.
            let candidate = Candidate {
                stance: Stance::DefaultAsk,
                behavior,
                rationale,
                source,
                evaluator,
                version,
            };
            return (Some(candidate), outcome);
        }
        (Answer::Verdict(Verdict::Decide { .. }), _) => (
            "protocol",
            "a settling evaluator answered with a judging verdict".to_owned(),
        ),
        (Answer::Verdict(Verdict::Settle { .. }), _) => (
            "protocol",
            "a judging evaluator answered with a settling verdict".to_owned(),
        ),
        (Answer::Failed { kind, error }, _) => (kind, error),
    };
    let candidate = Candidate {
        stance: Stance::RequireAsk,
        behavior: Behavior::Ask,
        rationale: Rationale::new(
            format!("policy_evaluator_{kind}"),
            format!("The \"{evaluator}\" evaluator failed ({kind}), so this call needs approval."),
            Risk::High,
        ),
        source: PermissionDecisionSource::Policy,
        evaluator,
        version,
    };
    (
        Some(candidate),
        TraceOutcome::Failed {
            kind: kind.to_owned(),
            error,
        },
    )
}

/// A grant from an earlier `session`/`global` approval that covers the call: a user allow the
/// chain itself applies, whatever evaluators it holds, so an "allow for this session" is
/// honoured by every chain. Rules still win over it by strength (a deny, the user's ask).
fn granted(cx: &EvaluationContext) -> Option<Candidate<'static>> {
    let grant = cx.grants.iter().find(|g| g.covers(&cx.grant_keys))?;
    let rationale = Rationale::new(
        "normalized_rule_allow",
        format!(
            "An earlier approval covers this call ({}).",
            grant.description
        ),
        Risk::Low,
    )
    .with_provenance(Provenance::Grant {
        grant_id: grant.id.clone(),
        scope: grant.scope,
        granted_at: grant.granted_at,
        tool_call_id: grant.tool_call_id.clone(),
        action_id: grant.action_id.clone(),
        description: grant.description.clone(),
    });
    Some(Candidate {
        stance: Stance::UserAllow,
        behavior: Behavior::Allow,
        rationale,
        source: PermissionDecisionSource::Rule,
        evaluator: GRANTS,
        version: None,
    })
}

fn entry(link: &Link, outcome: TraceOutcome, elapsed_micros: u64) -> TraceEntry {
    TraceEntry {
        evaluator: link.evaluator.name().to_owned(),
        outcome,
        elapsed_micros,
    }
}

/// The message of a caught panic.
pub(crate) fn panic_message(panic: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = panic.downcast_ref::<&str>() {
        (*s).to_owned()
    } else if let Some(s) = panic.downcast_ref::<String>() {
        s.clone()
    } else {
        "the evaluator panicked".to_owned()
    }
}
