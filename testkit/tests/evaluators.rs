//! The evaluator behaviour suite, run against the four built-in evaluators, built as
//! configuration builds them: `policy`, `rule` (no rules: the default pattern), the
//! `auto_classifier` over the embedded heuristic reviewer, and `full_access`.

use std::sync::Arc;

use warrant_core::catalog::ToolCatalog;
use warrant_evaluators::{
    ClassifierConfig, FullAccess, PolicyConfig, PolicyEvaluator, RuleEvaluator, RulesConfig,
};
use warrant_testkit::evaluator::Subject;

fn policy() -> Subject {
    let policy = PolicyEvaluator::new(&PolicyConfig::default()).expect("the default policy");
    Subject::new(Arc::new(policy))
}

fn rule() -> Subject {
    let rules = RuleEvaluator::new(&RulesConfig::default(), &ToolCatalog::builtin(), None)
        .expect("no rules compile");
    Subject::new(Arc::new(rules))
}

fn auto_classifier() -> Subject {
    let policy = PolicyEvaluator::new(&PolicyConfig::default()).expect("the default policy");
    let (classifier, _) = ClassifierConfig::default()
        .evaluator(&policy)
        .expect("the embedded reviewer");
    Subject::new(Arc::new(classifier))
}

fn full_access() -> Subject {
    Subject::new(Arc::new(FullAccess))
}

mod policy_evaluator {
    warrant_testkit::evaluator_behaviours!(crate::policy);
}

mod rule_evaluator {
    warrant_testkit::evaluator_behaviours!(crate::rule);
}

mod auto_classifier_evaluator {
    warrant_testkit::evaluator_behaviours!(crate::auto_classifier);
}

mod full_access_evaluator {
    warrant_testkit::evaluator_behaviours!(crate::full_access);
}
