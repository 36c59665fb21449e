//! The reason codes the `auto_classifier` evaluator answers with.

/// The reviewer allowed the call.
pub const AUTO_CLASSIFIER_ALLOW: &str = "auto_classifier_allow";
/// The reviewer escalated the call for the user's review.
pub const AUTO_CLASSIFIER_ASK: &str = "auto_classifier_ask";
/// The reviewer denied the call.
pub const AUTO_CLASSIFIER_DENY: &str = "auto_classifier_deny";
/// The reviewer could not be reached (HTTP error, timeout): ask.
pub const AUTO_CLASSIFIER_UNAVAILABLE: &str = "auto_classifier_unavailable";
/// The reviewer's reply broke the schema (not JSON, unknown fields, values off the scale): ask.
pub const AUTO_CLASSIFIER_INVALID_OUTPUT: &str = "auto_classifier_invalid_output";

/// Every code the classifier evaluator can answer with.
pub const ALL: &[&str] = &[
    AUTO_CLASSIFIER_ALLOW,
    AUTO_CLASSIFIER_ASK,
    AUTO_CLASSIFIER_DENY,
    AUTO_CLASSIFIER_UNAVAILABLE,
    AUTO_CLASSIFIER_INVALID_OUTPUT,
];
