//! Warrant, Cedar and Rego over the same rules, side by side: built together, and checked to
//! agree on every call of the corpus before anything is timed.

use warrant_core::call::{EvaluationContext, ToolCall};
use warrant_evaluators::RuleEvaluator;

use crate::calls::{Case, Outcome, corpus};
use crate::peers::{CedarRules, RegoRules};
use crate::rules::generate;
use crate::warrant::{context, rule_evaluator, rule_outcome};

/// The three engines over `n` rules, and the corpus they agree on.
pub struct SideBySide {
    /// How many rules.
    pub rules: usize,
    /// The calls they agree on.
    pub corpus: Vec<Case>,
    /// Warrant's `rule` evaluator.
    pub warrant: RuleEvaluator,
    /// The context Warrant decides in.
    pub cx: EvaluationContext,
    /// Cedar.
    pub cedar: CedarRules,
    /// Rego.
    pub rego: RegoRules,
}

impl SideBySide {
    /// Builds the three engines over `n` generated rules and checks that they agree on the
    /// corpus.
    ///
    /// # Panics
    ///
    /// When an engine cannot be built, or any engine decides a call of the corpus otherwise
    /// than expected: the message names the call and every engine's outcome.
    pub fn new(n: usize) -> Self {
        let rules = generate(n);
        let engines = Self {
            rules: n,
            corpus: corpus(n),
            warrant: rule_evaluator(&rules),
            cx: context(),
            cedar: CedarRules::new(&rules),
            rego: RegoRules::new(&rules),
        };
        engines.check_agreement();
        engines
    }

    /// What Warrant's `rule` evaluator makes of a call.
    pub fn warrant(&self, call: &ToolCall) -> Outcome {
        rule_outcome(&self.warrant, call, &self.cx)
    }

    fn check_agreement(&self) {
        for case in &self.corpus {
            let outcomes = [
                ("warrant", self.warrant(&case.call)),
                ("cedar", self.cedar.decide(&case.call)),
                ("rego", self.rego.decide(&case.call)),
            ];
            if outcomes.iter().any(|(_, o)| *o != case.expected) {
                panic!(
                    "the engines disagree at {} rules on \"{}\": {} {} — expected {:?}, got {:?}",
                    self.rules,
                    case.name,
                    case.call.tool_name,
                    case.call.input,
                    case.expected,
                    outcomes
                );
            }
        }
    }
}
