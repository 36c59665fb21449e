//! The built-in evaluators and classifier backends, registered by name in the plugin registry.
//!
//! Each reads its own section of the `[evaluators]` configuration (`policy`, `rules`,
//! `classifier`) from the [`BuildContext`], exactly as [`default_chain`](crate::default_chain)
//! builds them.

use std::any::Any;
use std::sync::Arc;

use serde::de::DeserializeOwned;
use warrant_core::evaluator::Evaluator;
use warrant_plugins::{BuildContext, BuiltinPlugin, Constructor, inventory};

use crate::classifier::{
    Classifier, ClassifierConfig, HeuristicClassifier, OpenAiCompatibleClassifier,
};
use crate::{FullAccess, PolicyConfig, PolicyEvaluator, RuleEvaluator, RulesConfig};

const VERSION: &str = env!("CARGO_PKG_VERSION");

/// One section of `[evaluators]`, its default when absent.
fn section<T: DeserializeOwned + Default>(cx: &BuildContext, name: &str) -> Result<T, String> {
    match cx.table(name) {
        serde_json::Value::Null => Ok(T::default()),
        table => {
            serde_json::from_value(table.clone()).map_err(|e| format!("[evaluators.{name}]: {e}"))
        }
    }
}

fn policy(cx: &BuildContext) -> Result<PolicyEvaluator, String> {
    PolicyEvaluator::new(&section::<PolicyConfig>(cx, "policy")?).map_err(|e| e.to_string())
}

fn arc<E: Evaluator + 'static>(evaluator: E) -> Arc<dyn Evaluator> {
    Arc::new(evaluator)
}

inventory::submit! {
    BuiltinPlugin::evaluator("policy", VERSION,
        "Deterministic policy: input validation, shell commands (real parser), filesystem paths, read-only tools.",
        |cx| policy(cx).map(arc))
}

inventory::submit! {
    BuiltinPlugin::evaluator("rule", VERSION,
        "The user's rules (managed > project > user > session), grants and the tool auto-approval checkpoints.",
        |cx| {
            let rules = section::<RulesConfig>(cx, "rules")?;
            let home = section::<PolicyConfig>(cx, "policy")?.home();
            RuleEvaluator::new(&rules, &cx.catalog, home)
                .map(arc)
                .map_err(|e| e.to_string())
        })
}

inventory::submit! {
    BuiltinPlugin::evaluator("auto_classifier", VERSION,
        "The security reviewer for open calls in auto mode (an OpenAI-compatible model, or the embedded heuristic reviewer).",
        |cx| {
            let config = section::<ClassifierConfig>(cx, "classifier")?;
            let (classifier, _wait) = config.evaluator(&policy(cx)?).map_err(|e| e.to_string())?;
            Ok(arc(classifier))
        })
}

inventory::submit! {
    BuiltinPlugin::evaluator("full_access", VERSION,
        "Full Access mode: allows open calls without review.",
        |_| Ok(arc(FullAccess)))
}

fn backend(classifier: Arc<dyn Classifier>) -> Arc<dyn Any + Send + Sync> {
    Arc::new(classifier)
}

inventory::submit! {
    BuiltinPlugin {
        name: "openai",
        version: VERSION,
        description: "An OpenAI-compatible chat-completions reviewer (vLLM, Ollama, llama.cpp, …).",
        constructor: Constructor::ClassifierBackend(|cx| {
            let config = section::<ClassifierConfig>(cx, "classifier")?;
            let openai = config
                .openai
                .ok_or("[evaluators.classifier.openai] is required for the openai backend")?;
            OpenAiCompatibleClassifier::new(&openai)
                .map(|c| backend(Arc::new(c)))
                .map_err(|e| e.to_string())
        }),
    }
}

inventory::submit! {
    BuiltinPlugin {
        name: "heuristic",
        version: VERSION,
        description: "The embedded deterministic reviewer (warrant/heuristic-v1); needs no network.",
        constructor: Constructor::ClassifierBackend(|cx| {
            Ok(backend(Arc::new(HeuristicClassifier::new(policy(cx)?))))
        }),
    }
}
