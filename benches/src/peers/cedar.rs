//! The rules as Cedar policies (`cedar-policy`): `permit` for allow rules, `forbid` with an
//! `@effect` annotation for ask and deny rules; the call's fields are the request context.

use std::collections::HashSet;
use std::str::FromStr;

use cedar_policy::{
    Authorizer, Context, Decision, Entities, EntityId, EntityTypeName, EntityUid, PolicyId,
    PolicySet, Request, RestrictedExpression,
};
use warrant_core::call::ToolCall;

use super::{Fields, plain};
use crate::calls::Outcome;
use crate::rules::{Effect, Rule, Shape};

/// The rules compiled into a Cedar policy set, and what a request needs besides the call.
pub struct CedarRules {
    policies: PolicySet,
    denies: HashSet<PolicyId>,
    authorizer: Authorizer,
    entities: Entities,
    principal: EntityUid,
    action: EntityUid,
    tool_type: EntityTypeName,
}

/// One rule's condition over `context`.
fn condition(shape: &Shape) -> String {
    match shape {
        Shape::Tool(id) => format!("context.tool == \"{}\"", plain(id)),
        Shape::Server(s) => format!("context.tool like \"mcp__{}__*\"", plain(s)),
        Shape::CommandPrefix(p) => {
            let p = plain(p);
            format!(
                "context.tool == \"Bash\" && (context.command == \"{p}\" || context.command like \"{p} *\")"
            )
        }
        Shape::CommandExact(c) => {
            format!(
                "context.tool == \"Bash\" && context.command == \"{}\"",
                plain(c)
            )
        }
        Shape::PathBelow(d) => {
            format!(
                "context.tool == \"Edit\" && context.path like \"{}/*\"",
                plain(d)
            )
        }
    }
}

/// The rules as Cedar source, one policy per rule.
pub fn source(rules: &[Rule]) -> String {
    let mut out = String::new();
    for r in rules {
        let head = match r.effect {
            Effect::Allow => "permit",
            Effect::Ask | Effect::Deny => "forbid",
        };
        out.push_str(&format!(
            "@effect(\"{}\")\n{head} (principal, action, resource) when {{ {} }};\n",
            r.effect.as_str(),
            condition(&r.shape)
        ));
    }
    out
}

fn uid(type_name: &str, id: &str) -> EntityUid {
    EntityUid::from_type_name_and_id(
        EntityTypeName::from_str(type_name).expect("a valid entity type"),
        EntityId::new(id),
    )
}

impl CedarRules {
    /// Parses the rules' Cedar source.
    ///
    /// # Panics
    ///
    /// When Cedar rejects the source (the renderer and Cedar disagree on syntax).
    pub fn new(rules: &[Rule]) -> Self {
        let policies = PolicySet::from_str(&source(rules))
            .unwrap_or_else(|e| panic!("Cedar parses the rules: {e:?}"));
        let denies = policies
            .policies()
            .filter(|p| p.annotation("effect") == Some("deny"))
            .map(|p| p.id().clone())
            .collect();
        Self {
            policies,
            denies,
            authorizer: Authorizer::new(),
            entities: Entities::empty(),
            principal: uid("Agent", "primary"),
            action: uid("Action", "call"),
            tool_type: EntityTypeName::from_str("Tool").expect("a valid entity type"),
        }
    }

    /// Decides a call: request built from the call, authorized, and the determining policies
    /// read for deny over ask.
    ///
    /// # Panics
    ///
    /// When Cedar rejects the request or a policy fails to evaluate.
    pub fn decide(&self, call: &ToolCall) -> Outcome {
        let f = Fields::of(call);
        let context = Context::from_pairs([
            (
                "tool".to_owned(),
                RestrictedExpression::new_string(f.tool.to_owned()),
            ),
            (
                "command".to_owned(),
                RestrictedExpression::new_string(f.command.to_owned()),
            ),
            (
                "path".to_owned(),
                RestrictedExpression::new_string(f.path.to_owned()),
            ),
        ])
        .expect("a context of strings");
        let resource =
            EntityUid::from_type_name_and_id(self.tool_type.clone(), EntityId::new(f.tool));
        let request = Request::new(
            self.principal.clone(),
            self.action.clone(),
            resource,
            context,
            None,
        )
        .expect("a request without a schema");
        let response = self
            .authorizer
            .is_authorized(&request, &self.policies, &self.entities);
        let diagnostics = response.diagnostics();
        if let Some(error) = diagnostics.errors().next() {
            panic!("a Cedar policy failed on {call:?}: {error}");
        }
        match response.decision() {
            Decision::Allow => Outcome::Ruled(Effect::Allow),
            Decision::Deny => {
                let mut forbidden = false;
                for id in diagnostics.reason() {
                    if self.denies.contains(id) {
                        return Outcome::Ruled(Effect::Deny);
                    }
                    forbidden = true;
                }
                if forbidden {
                    Outcome::Ruled(Effect::Ask)
                } else {
                    Outcome::NoRule
                }
            }
        }
    }
}
