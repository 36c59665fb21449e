//! The `rule` evaluator: the user's rules (`Tool`, `Tool(specifier)`, MCP ids, `[[rule]]`
//! tables) in layers, grants from earlier `session`/`global` approvals, and the approval
//! checkpoint flow of the workspace's effective policy.

pub mod codes;
mod compile;
mod config;
mod decide;
mod draft;
mod effects;
mod file;
mod hosts;
mod index;
mod known;
#[cfg(test)]
mod tests;

use std::path::PathBuf;

use async_trait::async_trait;
use warrant_core::call::{EvaluationContext, ToolCall};
use warrant_core::catalog::{SHELL_TOOL, ToolCatalog, is_shell_tool};
use warrant_core::decision::{AutoApprovalOrigin, PermissionDecisionSource, Provenance, Risk};
use warrant_core::evaluator::{Evaluator, EvaluatorError, Rationale, Stance, Verdict};

pub use config::{ArgumentPattern, Layer, RuleAction, RuleFile, RuleSet, RulesConfig, TableRule};
pub(crate) use effects::plain_fetch;
pub(crate) use hosts::host_of;

use crate::error::ConfigError;
use crate::paths::Places;
use crate::policy::filesystem;
use crate::shell::WorkingDir;
use compile::CompiledRule;
use index::{CallView, Selectors};
use known::mcp_servers;

/// The name the rule evaluator goes by in traces and configuration.
pub const NAME: &str = "rule";

/// Applies the user's rules, grants and auto-approvals.
///
/// Rules are checked against the tool catalog and compiled once, when the evaluator is built;
/// a decision then costs time in proportion to the call, not to the number of rules. Among the
/// rules that match, the highest layer (`managed` > `project` > `user` > `session`) decides,
/// and within a layer deny > ask > allow. With no rule matching, a grant covering the call, a
/// `tool-call` checkpoint that is off, or an auto-approved tool allows it; otherwise the
/// evaluator abstains.
#[derive(Debug)]
pub struct RuleEvaluator {
    rules: Vec<CompiledRule>,
    selectors: Selectors,
    effects: effects::EffectRules,
    home: Option<PathBuf>,
}

impl RuleEvaluator {
    /// Reads, checks and compiles the rules of `config`, rule files included. Tool ids are
    /// checked against `catalog`: an MCP tool `T` offered by server `S` is also `mcp__S__T`,
    /// and `mcp__S__*` names every tool of `S`. `home` is what `~` in path globs stands for.
    ///
    /// # Errors
    ///
    /// [`ConfigError::UnknownTool`] (with the nearest known id), [`ConfigError::MalformedRule`]
    /// or [`ConfigError::RuleFile`], naming the rule and where it was written.
    pub fn new(
        config: &RulesConfig,
        catalog: &ToolCatalog,
        home: Option<PathBuf>,
    ) -> Result<Self, ConfigError> {
        let mut drafts = Vec::new();
        for (layer, set) in [
            (Layer::Managed, &config.managed),
            (Layer::Project, &config.project),
            (Layer::User, &config.user),
            (Layer::Session, &config.session),
        ] {
            drafts.extend(draft::inline(set, layer)?);
        }
        for f in &config.files {
            drafts.extend(file::load(f)?);
        }
        let (rules, selectors, effects) = compile::compile(drafts, catalog, home.as_deref())?;
        Ok(Self {
            rules,
            selectors,
            effects,
            home,
        })
    }

    /// How many rules were compiled.
    pub fn len(&self) -> usize {
        self.rules.len()
    }

    /// Whether there are no rules.
    pub fn is_empty(&self) -> bool {
        self.rules.is_empty()
    }

    /// The rule that decides the call, if one matches.
    fn matching_rule(
        &self,
        call: &ToolCall,
        cx: &EvaluationContext,
    ) -> Option<(&CompiledRule, decide::Decided)> {
        if self.rules.is_empty() {
            return None;
        }
        let tool = call.tool_name.as_str();
        let canonical = if is_shell_tool(tool) {
            SHELL_TOOL
        } else {
            tool
        };
        let mut mcp_ids = Vec::new();
        let mut servers: Vec<&str> = Vec::new();
        for s in mcp_servers(&cx.catalog, tool) {
            mcp_ids.push(format!("mcp__{s}__{tool}"));
            servers.push(s);
        }
        if let Some((server, _)) = tool.strip_prefix("mcp__").and_then(|r| r.split_once("__")) {
            servers.push(server);
        }
        let parsed = is_shell_tool(tool)
            .then(|| warrant_core::catalog::shell_command_text(&call.input))
            .flatten()
            .map(|c| {
                // A shell command runs from the tool's working-directory field, when it names
                // one (read for a shell tool only: no other tool's input has a command).
                let vector = warrant_core::catalog::shell_command_is_vector(&call.input);
                match crate::policy::shell_start(&call.input) {
                    WorkingDir::Root => crate::shell::parse_in(cx, &c, vector),
                    start => std::sync::Arc::new(crate::shell::parse_given(&c, start, vector)),
                }
            });
        let script = parsed.as_deref().and_then(|r| r.as_ref().ok());
        let models = script.map(effects::Models::new);
        let script = script.zip(models.as_ref());
        let places = Places::new(&cx.workspace_root, self.home.as_deref(), None).sharing(cx);
        let mut view = CallView {
            tool: canonical,
            mcp_ids,
            servers,
            script: script.map(|(s, _)| s),
            paths: Vec::new(),
            input: &call.input,
            in_workspace: Vec::new(),
            run_as_depth: 0,
        };
        // Where each command runs (from the tool's working-directory field, then `cd`): an
        // allow rule on a command covers it only in the workspace, links followed.
        if let Some((script, _)) = script {
            // `cd "$(git rev-parse --show-toplevel)"` stays in the root unless a repository
            // above it is the one git finds.
            let moved_above = script.commands.iter().any(|c| c.enters_toplevel)
                && crate::paths::git_index::repository_above(&cx.workspace_root).is_some();
            view.in_workspace = script
                .commands
                .iter()
                .map(|cmd| match &cmd.cwd {
                    _ if moved_above => false,
                    WorkingDir::Root => true,
                    WorkingDir::Dir(d) => {
                        places.locate(d, &WorkingDir::Root).place == crate::paths::Place::Inside
                    }
                    WorkingDir::Unknown => false,
                })
                .collect();
        }
        // A shell call's input names paths only for rules on the shell tool that look at
        // paths (its command's paths are read as effects); another tool's paths are read for
        // its effects too.
        if !is_shell_tool(tool) || self.selectors.wants_paths(&view) {
            view.paths = filesystem::paths(&call.input)
                .iter()
                .map(|raw| effects::name(&places, raw, &WorkingDir::Root))
                .collect();
        }
        let mut hits = self.selectors.lookup(&view);
        // A tool several MCP servers offer: an allow stands only when every provider is
        // covered (`mcp__github__*` says nothing of another server's tool of the same name).
        if view.servers.len() > 1 {
            let every_provider = view.servers.iter().all(|server| {
                let one = CallView {
                    tool: canonical,
                    mcp_ids: vec![format!("mcp__{server}__{tool}")],
                    servers: vec![*server],
                    script: view.script,
                    paths: view.paths.clone(),
                    input: view.input,
                    in_workspace: view.in_workspace.clone(),
                    run_as_depth: 0,
                };
                self.selectors
                    .lookup(&one)
                    .iter()
                    .any(|h| self.rules[h.rule].action == RuleAction::Allow && !h.loose)
            });
            if !every_provider {
                for h in &mut hits {
                    if self.rules[h.rule].action == RuleAction::Allow {
                        h.loose = true;
                    }
                }
            }
        }
        if !self.effects.is_empty() {
            let done = effects::of_call(
                call,
                cx,
                &places,
                script,
                &self.effects,
                std::mem::take(&mut view.paths),
            );
            hits.extend(self.effects.lookup(&done, &places));
        }
        let decided = decide::decide(&self.rules, &hits, script, &places)?;
        let rule = &self.rules[decided.rule];
        if decided.action == RuleAction::Allow
            && !is_shell_tool(tool)
            && !allow_covers_whole_call(rule, call, &cx.catalog)
        {
            return None;
        }
        Some((rule, decided))
    }
}

/// Whether an allow rule that matched a call other than a shell command covers all of it: a
/// file tool's input holds nothing that may move where it reads or writes (`cwd`, a path
/// field that is not a path); a host rule covers a call that names no path beside its URL,
/// and a URL read the same way by every parser (no backslash, `http`/`https` only).
fn allow_covers_whole_call(rule: &CompiledRule, call: &ToolCall, catalog: &ToolCatalog) -> bool {
    let tool = call.tool_name.as_str();
    if filesystem::access(tool, catalog).is_some() {
        return filesystem::modeled_input(tool, &call.input, catalog);
    }
    let host_rule = rule.text.starts_with("Net(") || rule.text.starts_with("WebFetch(");
    if !host_rule {
        return true;
    }
    if filesystem::names_paths(&call.input) {
        return false;
    }
    // Any other field whose text reads as a file name (`output: ".git/hooks/x"`) may be
    // where the tool writes what it fetched.
    const TEXT_FIELDS: &[&str] = &["url", "uri", "prompt", "query", "description", "method"];
    if let Some(map) = call.input.as_object() {
        let mut others = Vec::new();
        for (k, v) in map {
            if !TEXT_FIELDS.contains(&k.as_str()) {
                filesystem::strings_of(v, &mut others);
            }
        }
        let file_like =
            |t: &&str| !t.contains("://") && (t.contains('/') || t.starts_with(['.', '~']));
        if others.iter().any(file_like) {
            return false;
        }
    }
    let mut urls = Vec::new();
    filesystem::strings_of(&call.input, &mut urls);
    urls.iter().filter(|u| u.contains("://")).all(|u| {
        let lower = u.trim_start().to_ascii_lowercase();
        (lower.starts_with("http://") || lower.starts_with("https://")) && !u.contains('\\')
    })
}

/// The verdict of the rule that decides (`decided`: what it does, and whether only in doubt).
fn rule_verdict(rule: &CompiledRule, decided: decide::Decided) -> Verdict {
    if let Some(doubt) = decided.doubt {
        return doubtful_rule_verdict(rule, doubt);
    }
    let (stance, risk, verb) = match rule.action {
        RuleAction::Deny => (Stance::HardDeny, Risk::High, "denies"),
        RuleAction::Ask => (Stance::RequireAsk, Risk::Medium, "asks for approval of"),
        RuleAction::Allow => (Stance::UserAllow, Risk::Low, "allows"),
    };
    let code = match (rule.explicit, rule.action) {
        (true, RuleAction::Allow) => codes::EXPLICIT_TOOL_ALLOW,
        (true, RuleAction::Ask) => codes::EXPLICIT_TOOL_ASK,
        (true, RuleAction::Deny) => codes::EXPLICIT_TOOL_DENY,
        (false, RuleAction::Allow) => codes::NORMALIZED_RULE_ALLOW,
        (false, RuleAction::Ask) => codes::NORMALIZED_RULE_ASK,
        (false, RuleAction::Deny) => codes::NORMALIZED_RULE_DENY,
    };
    // "The {layer} rule \"{text}\" ({origin}) {verb} this call.", written without the
    // formatting machinery: a decision's reason is made once per call.
    let layer = rule.layer.as_str();
    let parts = [
        "The ",
        layer,
        " rule \"",
        &rule.text,
        "\" (",
        &rule.origin,
        ") ",
        verb,
        " this call.",
    ];
    let mut reason = String::with_capacity(parts.iter().map(|p| p.len()).sum());
    parts.iter().for_each(|p| reason.push_str(p));
    let provenance = Provenance::UserRule {
        rule: rule.text.clone(),
        layer: layer.to_owned(),
        origin: rule.origin.clone(),
    };
    Verdict::decide(
        stance,
        Rationale::new(code, reason, risk).with_provenance(provenance),
    )
}

/// A deny or ask rule that may apply to a call that cannot be read well enough to tell: the
/// call asks, in every mode, with the rule named.
fn doubtful_rule_verdict(rule: &CompiledRule, doubt: index::Doubt) -> Verdict {
    let code = if rule.explicit {
        codes::EXPLICIT_TOOL_ASK
    } else {
        codes::NORMALIZED_RULE_ASK
    };
    let reason = format!(
        "The {} rule \"{}\" ({}) may apply to this call: {}, so it asks.",
        rule.layer.as_str(),
        rule.text,
        rule.origin,
        doubt.why()
    );
    let provenance = Provenance::UserRule {
        rule: rule.text.clone(),
        layer: rule.layer.as_str().to_owned(),
        origin: rule.origin.clone(),
    };
    Verdict::decide(
        Stance::RequireAsk,
        Rationale::new(code, reason, Risk::Medium).with_provenance(provenance),
    )
}

fn user_allow(code: &str, reason: String, provenance: Provenance) -> Verdict {
    Verdict::decide(
        Stance::UserAllow,
        Rationale::new(code, reason, Risk::Low).with_provenance(provenance),
    )
}

/// Whether the effective policy auto-approves the tool (shell spellings count as one).
fn auto_approved(tool: &str, cx: &EvaluationContext) -> bool {
    !tool.is_empty()
        && (cx.policy.auto_approves(tool)
            || is_shell_tool(tool)
                && cx
                    .policy
                    .auto_approved_tool_names
                    .iter()
                    .any(|t| is_shell_tool(t)))
}

#[async_trait]
impl Evaluator for RuleEvaluator {
    fn name(&self) -> &str {
        NAME
    }

    fn source(&self) -> PermissionDecisionSource {
        PermissionDecisionSource::Rule
    }

    fn version(&self) -> Option<&str> {
        Some(crate::VERSION)
    }

    async fn evaluate(
        &self,
        call: &ToolCall,
        cx: &EvaluationContext,
    ) -> Result<Verdict, EvaluatorError> {
        if let Some((rule, decided)) = self.matching_rule(call, cx) {
            return Ok(rule_verdict(rule, decided));
        }
        // Grants are applied by the chain itself, whatever evaluators it holds.
        let agent = call.agent();
        if !cx.policy.tool_call_checkpoint(agent) {
            let reason = format!(
                "Tool-call approval is off for agent \"{agent}\", so its calls run without asking."
            );
            let provenance = Provenance::CheckpointsOff {
                agent: agent.to_owned(),
            };
            return Ok(user_allow(
                codes::EXPLICIT_TOOL_CHECKPOINT_OFF,
                reason,
                provenance,
            ));
        }
        if auto_approved(&call.tool_name, cx) {
            let (by, from) = if cx.policy.session_override {
                ("this session's settings", AutoApprovalOrigin::Session)
            } else {
                ("the pattern's defaults", AutoApprovalOrigin::Pattern)
            };
            let reason = format!("\"{}\" is auto-approved by {by}.", call.tool_name);
            return Ok(user_allow(
                codes::EXPLICIT_TOOL_AUTO_APPROVED,
                reason,
                Provenance::AutoApproved { from },
            ));
        }
        Ok(Verdict::Abstain)
    }
}
