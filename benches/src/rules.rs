//! The rule sets every engine is measured with: one list of rules in the shapes users write
//! (tool-name equality, command prefix, exact command, path glob, MCP server wildcard, and
//! narrower denies and asks overriding broader allows), rendered for each engine.

use warrant_core::catalog::ToolCatalog;
use warrant_core::workspace::{McpServer, Tooling};
use warrant_evaluators::RulesConfig;
use warrant_evaluators::rule::RuleSet;

/// MCP servers in the catalog; the first [`SERVERS_WITH_RULES`] have rules, the rest none.
pub const SERVERS: usize = 10;
/// MCP servers that rules name.
pub const SERVERS_WITH_RULES: usize = 8;
/// Tools per MCP server.
pub const TOOLS_PER_SERVER: usize = 8;
/// Rules per group: one group of related rules per index `g` (see [`generate`]).
pub const GROUP: usize = 10;

/// What a matching rule does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Effect {
    /// Allow without asking.
    Allow,
    /// Ask the user.
    Ask,
    /// Deny.
    Deny,
}

impl Effect {
    /// The lowercase name (`allow`, `ask`, `deny`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Allow => "allow",
            Self::Ask => "ask",
            Self::Deny => "deny",
        }
    }
}

/// What a rule selects.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Shape {
    /// Calls of one tool, by its full id (`mcp__srv0__op0_0`).
    Tool(String),
    /// Every tool of one MCP server (`mcp__srv0__*`).
    Server(String),
    /// Shell commands whose words start with these (`Bash(prog1 push:*)`).
    CommandPrefix(String),
    /// Exactly this shell command (`Bash(tool1 status)`).
    CommandExact(String),
    /// Edits below this directory (`Edit(src/module1/**)`).
    PathBelow(String),
}

/// One rule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rule {
    /// What it does.
    pub effect: Effect,
    /// What it selects.
    pub shape: Shape,
}

impl Rule {
    /// The rule in Warrant's short syntax.
    pub fn warrant_text(&self) -> String {
        match &self.shape {
            Shape::Tool(id) => id.clone(),
            Shape::Server(s) => format!("mcp__{s}__*"),
            Shape::CommandPrefix(p) => format!("Bash({p}:*)"),
            Shape::CommandExact(c) => format!("Bash({c})"),
            Shape::PathBelow(d) => format!("Edit({d}/**)"),
        }
    }
}

/// The name of MCP server `s`.
pub fn server(s: usize) -> String {
    format!("srv{s}")
}

/// The full id of tool `t` of MCP server `s`.
pub fn mcp_tool(s: usize, t: usize) -> String {
    format!("mcp__srv{s}__op{s}_{t}")
}

/// The workspace tooling the rules name: [`SERVERS`] MCP servers of [`TOOLS_PER_SERVER`] tools.
pub fn tooling() -> Tooling {
    Tooling {
        mcp_servers: (0..SERVERS)
            .map(|s| McpServer {
                id: server(s),
                name: format!("Server {s}"),
                tools: (0..TOOLS_PER_SERVER)
                    .map(|t| format!("op{s}_{t}"))
                    .collect(),
            })
            .collect(),
        lsp_profiles: Vec::new(),
    }
}

/// The tool catalog of [`tooling`] and the built-in runtime tools.
pub fn catalog() -> ToolCatalog {
    ToolCatalog::new(&tooling(), None)
}

/// `n` rules (a multiple of [`GROUP`] is best), in groups of ten related rules per `g`:
///
/// | slot | rule |
/// |---|---|
/// | 0 | allow `Bash(prog{g}:*)` |
/// | 1 | deny `Bash(prog{g} push:*)` (overrides slot 0) |
/// | 2 | ask `Bash(prog{g} deploy:*)` (overrides slot 0) |
/// | 3 | allow `Bash(tool{g} status)` |
/// | 4 | allow `Edit(src/module{g}/**)` |
/// | 5 | deny `Edit(src/module{g}/secret/**)` (overrides slot 4) |
/// | 6 | ask `Edit(docs/section{g}/**)` |
/// | 7 | a tool of a ruled MCP server by id: deny for its first tool (overriding the server's allow), ask for the second, allow for the rest; once every such tool is named, ask `Bash(task{g} run:*)` |
/// | 8 | allow `mcp__srv{g}__*` for the first [`SERVERS_WITH_RULES`] groups, then allow `Edit(lib/crate{g}/**)` |
/// | 9 | deny `Bash(prog{g} reset --hard)` |
pub fn generate(n: usize) -> Vec<Rule> {
    (0..n).map(|i| rule(i / GROUP, i % GROUP)).collect()
}

fn rule(g: usize, slot: usize) -> Rule {
    let (effect, shape) = match slot {
        0 => (Effect::Allow, Shape::CommandPrefix(format!("prog{g}"))),
        1 => (Effect::Deny, Shape::CommandPrefix(format!("prog{g} push"))),
        2 => (Effect::Ask, Shape::CommandPrefix(format!("prog{g} deploy"))),
        3 => (
            Effect::Allow,
            Shape::CommandExact(format!("tool{g} status")),
        ),
        4 => (Effect::Allow, Shape::PathBelow(format!("src/module{g}"))),
        5 => (
            Effect::Deny,
            Shape::PathBelow(format!("src/module{g}/secret")),
        ),
        6 => (Effect::Ask, Shape::PathBelow(format!("docs/section{g}"))),
        7 if g < SERVERS_WITH_RULES * TOOLS_PER_SERVER => {
            let (s, t) = (g % SERVERS_WITH_RULES, g / SERVERS_WITH_RULES);
            let effect = match t {
                0 => Effect::Deny,
                1 => Effect::Ask,
                _ => Effect::Allow,
            };
            (effect, Shape::Tool(mcp_tool(s, t)))
        }
        7 => (Effect::Ask, Shape::CommandPrefix(format!("task{g} run"))),
        8 if g < SERVERS_WITH_RULES => (Effect::Allow, Shape::Server(server(g))),
        8 => (Effect::Allow, Shape::PathBelow(format!("lib/crate{g}"))),
        _ => (
            Effect::Deny,
            Shape::CommandExact(format!("prog{g} reset --hard")),
        ),
    };
    Rule { effect, shape }
}

/// The rules as Warrant's configuration (all in the user's layer).
pub fn to_warrant(rules: &[Rule]) -> RulesConfig {
    let mut user = RuleSet::default();
    for r in rules {
        let list = match r.effect {
            Effect::Allow => &mut user.allow,
            Effect::Ask => &mut user.ask,
            Effect::Deny => &mut user.deny,
        };
        list.push(r.warrant_text());
    }
    RulesConfig {
        user,
        ..RulesConfig::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_shape_and_effect_appears_in_a_hundred_rules() {
        let rules = generate(100);
        assert_eq!(rules.len(), 100);
        for effect in [Effect::Allow, Effect::Ask, Effect::Deny] {
            assert!(rules.iter().any(|r| r.effect == effect));
        }
        assert!(rules.iter().any(|r| matches!(r.shape, Shape::Tool(_))));
        assert!(rules.iter().any(|r| matches!(r.shape, Shape::Server(_))));
        assert!(rules.iter().any(|r| matches!(r.shape, Shape::PathBelow(_))));
    }

    #[test]
    fn warrant_compiles_the_rules_against_the_catalog() {
        let config = to_warrant(&generate(1_000));
        let evaluator = warrant_evaluators::RuleEvaluator::new(&config, &catalog(), None)
            .expect("the generated rules compile");
        assert_eq!(evaluator.len(), 1_000);
    }
}
