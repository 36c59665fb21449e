//! The reason codes the `rule` evaluator answers with.

/// A rule with a specifier, a glob or a table allows the call (user allow), or an earlier
/// `session`/`global` approval covers it.
pub const NORMALIZED_RULE_ALLOW: &str = "normalized_rule_allow";
/// A rule with a specifier, a glob or a table asks (in every mode).
pub const NORMALIZED_RULE_ASK: &str = "normalized_rule_ask";
/// A rule with a specifier, a glob or a table denies (in every mode).
pub const NORMALIZED_RULE_DENY: &str = "normalized_rule_deny";
/// A rule naming the bare tool allows it.
pub const EXPLICIT_TOOL_ALLOW: &str = "explicit_tool_allow";
/// A rule naming the bare tool asks.
pub const EXPLICIT_TOOL_ASK: &str = "explicit_tool_ask";
/// A rule naming the bare tool denies.
pub const EXPLICIT_TOOL_DENY: &str = "explicit_tool_deny";
/// `tool-call` checkpoints are on and the tool is in the effective `autoApprovedToolNames`.
pub const EXPLICIT_TOOL_AUTO_APPROVED: &str = "explicit_tool_auto_approved";
/// `tool-call` checkpoints are off for the agent: calls run as before, unasked.
pub const EXPLICIT_TOOL_CHECKPOINT_OFF: &str = "explicit_tool_checkpoint_off";

/// Every code the rule evaluator can answer with.
pub const ALL: &[&str] = &[
    NORMALIZED_RULE_ALLOW,
    NORMALIZED_RULE_ASK,
    NORMALIZED_RULE_DENY,
    EXPLICIT_TOOL_ALLOW,
    EXPLICIT_TOOL_ASK,
    EXPLICIT_TOOL_DENY,
    EXPLICIT_TOOL_AUTO_APPROVED,
    EXPLICIT_TOOL_CHECKPOINT_OFF,
];
