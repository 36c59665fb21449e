//! The rules as a Rego package (`regorus`): a body of `deny`, `ask` or `allow` per rule, and
//! `decision` taking the most restrictive; compiled once, evaluated with each call as input.

use regorus::{CompiledPolicy, Engine, Rc, Value};
use warrant_core::call::ToolCall;

use super::{Fields, plain};
use crate::calls::Outcome;
use crate::rules::{Effect, Rule, Shape};

/// Rules per module, well within regorus's bounds on the size of one module.
const RULES_PER_MODULE: usize = 1_000;

/// The rule `decision` is read from.
const ENTRYPOINT: &str = "data.warrant.decision";

const HEADER: &str = r#"package warrant

default decision := "none"

decision := "deny" if {
	deny
} else := "ask" if {
	ask
} else := "allow" if {
	allow
}

"#;

/// The rules compiled by regorus.
pub struct RegoRules {
    policy: CompiledPolicy,
}

/// One rule's bodies (a command prefix needs two: the exact words, or more after them).
fn bodies(shape: &Shape) -> Vec<String> {
    match shape {
        Shape::Tool(id) => vec![format!("input.tool == \"{}\"", plain(id))],
        Shape::Server(s) => vec![format!("startswith(input.tool, \"mcp__{}__\")", plain(s))],
        Shape::CommandPrefix(p) => {
            let p = plain(p);
            vec![
                format!("input.tool == \"Bash\"\n\tinput.command == \"{p}\""),
                format!("input.tool == \"Bash\"\n\tstartswith(input.command, \"{p} \")"),
            ]
        }
        Shape::CommandExact(c) => {
            vec![format!(
                "input.tool == \"Bash\"\n\tinput.command == \"{}\"",
                plain(c)
            )]
        }
        Shape::PathBelow(d) => vec![format!(
            "input.tool == \"Edit\"\n\tglob.match(\"{}/**\", [\"/\"], input.path)",
            plain(d)
        )],
    }
}

/// The rules as Rego modules of one package: the decision, then the rules,
/// [`RULES_PER_MODULE`] to a module (regorus bounds the size of one module).
pub fn source(rules: &[Rule]) -> Vec<String> {
    let mut modules = vec![HEADER.to_owned()];
    for chunk in rules.chunks(RULES_PER_MODULE) {
        let mut module = "package warrant\n\n".to_owned();
        for r in chunk {
            for body in bodies(&r.shape) {
                module.push_str(&format!("{} if {{\n\t{body}\n}}\n\n", r.effect.as_str()));
            }
        }
        modules.push(module);
    }
    modules
}

impl RegoRules {
    /// Compiles the rules' Rego module, with the glob cache large enough for every path rule
    /// (the peer at its best).
    ///
    /// # Panics
    ///
    /// When regorus rejects the module (the renderer and regorus disagree on syntax).
    pub fn new(rules: &[Rule]) -> Self {
        regorus::cache::configure(regorus::cache::Config {
            regex: 256,
            glob: rules.len().clamp(128, regorus::cache::Config::MAX_CAPACITY),
        });
        let mut engine = Engine::new();
        for (i, module) in source(rules).into_iter().enumerate() {
            engine
                .add_policy(format!("warrant{i}.rego"), module)
                .unwrap_or_else(|e| panic!("regorus parses module {i} of the rules: {e}"));
        }
        let policy = engine
            .compile_with_entrypoint(&Rc::from(ENTRYPOINT))
            .unwrap_or_else(|e| panic!("regorus compiles the rules: {e}"));
        Self { policy }
    }

    /// Decides a call: input built from the call, `decision` evaluated.
    ///
    /// # Panics
    ///
    /// When the evaluation fails or yields something other than a decision.
    pub fn decide(&self, call: &ToolCall) -> Outcome {
        let f = Fields::of(call);
        let mut input = Value::new_object();
        let map = input.as_object_mut().expect("an object");
        map.insert(Value::from("tool"), Value::from(f.tool));
        map.insert(Value::from("command"), Value::from(f.command));
        map.insert(Value::from("path"), Value::from(f.path));
        let decision = self
            .policy
            .eval_with_input(input)
            .unwrap_or_else(|e| panic!("regorus evaluates {call:?}: {e}"));
        match decision.as_string().map(|s| s.as_ref()) {
            Ok("allow") => Outcome::Ruled(Effect::Allow),
            Ok("ask") => Outcome::Ruled(Effect::Ask),
            Ok("deny") => Outcome::Ruled(Effect::Deny),
            Ok("none") => Outcome::NoRule,
            _ => panic!("regorus decided {decision} for {call:?}"),
        }
    }
}
