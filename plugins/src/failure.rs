//! How a plugin's failures read in the trace: which plugin, of which origin, what went wrong.

use warrant_core::evaluator::{EvaluatorError, Verdict};
use warrant_plugin_sdk::wire::Reply;

/// A failure of the `origin` (`process`, `library`) evaluator `name`.
pub(crate) fn error(origin: &str, name: &str, message: &str) -> EvaluatorError {
    EvaluatorError::new(format!("{origin} evaluator \"{name}\": {message}"))
}

/// The verdict a plugin's reply stands for; its own error report is a failure too.
pub(crate) fn verdict(origin: &str, name: &str, reply: Reply) -> Result<Verdict, EvaluatorError> {
    reply.into_verdict().map_err(|message| {
        error(
            origin,
            name,
            &format!("the plugin reported an error: {message}"),
        )
    })
}
