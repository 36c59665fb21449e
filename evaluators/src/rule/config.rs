//! How rules are written: lists of `Tool(specifier)` strings per action, and `[[rule]]` tables,
//! in layers of precedence, inline in the configuration or in rule files.

use std::path::PathBuf;

use serde::Deserialize;

/// Where a rule comes from; a higher layer wins over a lower one whatever the actions.
///
/// Declared from the highest precedence down: `managed` > `project` > `user` > `session`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Layer {
    /// Set by an administrator; wins over everything.
    Managed,
    /// Shared with the project.
    Project,
    /// The user's own.
    User,
    /// For the current session only.
    Session,
}

impl Layer {
    /// The name used in configuration and reasons.
    pub fn as_str(self) -> &'static str {
        match self {
            Layer::Managed => "managed",
            Layer::Project => "project",
            Layer::User => "user",
            Layer::Session => "session",
        }
    }
}

/// What a rule does to the calls it matches.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RuleAction {
    /// Allow without asking.
    Allow,
    /// Always ask, in every mode.
    Ask,
    /// Deny, in every mode.
    Deny,
}

impl RuleAction {
    /// The name used in configuration and reason codes.
    pub fn as_str(self) -> &'static str {
        match self {
            RuleAction::Allow => "allow",
            RuleAction::Ask => "ask",
            RuleAction::Deny => "deny",
        }
    }
}

/// An argument pattern of a `[[rule]]` table: a glob over one input field's value, where `*`
/// matches any characters.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArgumentPattern {
    /// The input field (`url`, `query`).
    pub name: String,
    /// The glob its value must match.
    pub pattern: String,
}

/// A rule written as a table, for what the short syntax cannot say.
///
/// ```toml
/// [[rule]]
/// action = "deny"
/// tool = "mcp__github__*"          # a tool id or a glob over tool ids
///
/// [[rule]]
/// action = "ask"
/// tool = "web_fetch"
/// argument = { name = "url", pattern = "https://*.internal.example.com/*" }
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TableRule {
    /// What the rule does.
    pub action: RuleAction,
    /// A tool id (`Bash`, `lsp_ts_hover`, `mcp__git__git.status`) or a glob over tool ids.
    pub tool: String,
    /// A command prefix, for the shell tool (`git push`).
    #[serde(default)]
    pub command: Option<String>,
    /// A path glob, for file tools (`src/**`).
    #[serde(default)]
    pub path: Option<String>,
    /// An argument pattern.
    #[serde(default)]
    pub argument: Option<ArgumentPattern>,
}

/// The rules of one layer.
///
/// ```toml
/// allow = ["Bash(npm run test:*)", "Edit(src/**)", "mcp__git__*"]
/// ask = ["Bash(git push:*)"]
/// deny = ["Bash(curl:*)", "web_fetch"]
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RuleSet {
    /// Rules that allow.
    pub allow: Vec<String>,
    /// Rules that ask.
    pub ask: Vec<String>,
    /// Rules that deny.
    pub deny: Vec<String>,
    /// Rules written as tables.
    pub rule: Vec<TableRule>,
}

/// A rule file and the layer its rules belong to. The file has the shape of a [`RuleSet`].
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RuleFile {
    /// The file.
    pub path: PathBuf,
    /// Its layer.
    pub layer: Layer,
}

/// Every rule, by layer, plus rule files.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RulesConfig {
    /// Administrator rules.
    pub managed: RuleSet,
    /// Project rules.
    pub project: RuleSet,
    /// The user's rules.
    pub user: RuleSet,
    /// This session's rules.
    pub session: RuleSet,
    /// Rule files, each in its layer.
    pub files: Vec<RuleFile>,
}
