//! Rules as written, before they are checked against the catalog: the short syntax
//! (`Tool`, `Tool(specifier)`) and `[[rule]]` tables, each with its origin.

use super::config::{ArgumentPattern, Layer, RuleAction, RuleSet, TableRule};
use crate::error::ConfigError;

/// One rule as written, with where it came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Draft {
    /// The rule's text, as the user would recognize it.
    pub text: String,
    /// Where it came from: `file:line:column`, or the layer and list position.
    pub origin: String,
    /// Its layer.
    pub layer: Layer,
    /// What it does.
    pub action: RuleAction,
    /// The tool id or tool glob.
    pub tool: String,
    /// The short syntax's specifier (its meaning depends on the tool).
    pub specifier: Option<String>,
    /// A table's command prefix.
    pub command: Option<String>,
    /// A table's path glob.
    pub path: Option<String>,
    /// A table's argument pattern.
    pub argument: Option<ArgumentPattern>,
}

impl Draft {
    /// Whether the rule names one tool and nothing within it (`explicit_tool_*` codes).
    pub(crate) fn is_bare_tool(&self) -> bool {
        self.specifier.is_none()
            && self.command.is_none()
            && self.path.is_none()
            && self.argument.is_none()
            && !has_glob(&self.tool)
    }

    /// A configuration error about this rule.
    pub(crate) fn malformed(&self, problem: impl Into<String>) -> ConfigError {
        ConfigError::MalformedRule {
            rule: self.text.clone(),
            origin: self.origin.clone(),
            problem: problem.into(),
        }
    }
}

/// Whether a tool name is a glob.
pub(crate) fn has_glob(tool: &str) -> bool {
    tool.contains(['*', '?', '[', '{'])
}

/// Reads the short syntax: `Tool` or `Tool(specifier)`.
pub(crate) fn short(
    text: &str,
    origin: String,
    layer: Layer,
    action: RuleAction,
) -> Result<Draft, ConfigError> {
    let mut draft = Draft {
        text: text.to_owned(),
        origin,
        layer,
        action,
        tool: String::new(),
        specifier: None,
        command: None,
        path: None,
        argument: None,
    };
    let trimmed = text.trim();
    let (tool, specifier) = match trimmed.split_once('(') {
        None if trimmed.contains(')') => return Err(draft.malformed("\")\" without \"(\"")),
        None => (trimmed, None),
        Some((tool, rest)) => {
            let Some(spec) = rest.strip_suffix(')') else {
                return Err(draft.malformed("the specifier must end with \")\""));
            };
            if spec.trim().is_empty() {
                return Err(draft.malformed("the specifier between the parentheses is empty"));
            }
            (tool.trim(), Some(spec.trim().to_owned()))
        }
    };
    if tool.is_empty() {
        return Err(draft.malformed("the rule names no tool"));
    }
    if tool.contains(char::is_whitespace) {
        return Err(draft.malformed(format!("the tool id {tool:?} contains whitespace")));
    }
    draft.tool = tool.to_owned();
    draft.specifier = specifier;
    Ok(draft)
}

/// Reads a `[[rule]]` table.
pub(crate) fn table(rule: &TableRule, origin: String, layer: Layer) -> Result<Draft, ConfigError> {
    let mut text = format!(
        "[[rule]] action = \"{}\", tool = {:?}",
        rule.action.as_str(),
        rule.tool
    );
    if let Some(c) = &rule.command {
        text.push_str(&format!(", command = {c:?}"));
    }
    if let Some(p) = &rule.path {
        text.push_str(&format!(", path = {p:?}"));
    }
    if let Some(a) = &rule.argument {
        text.push_str(&format!(
            ", argument = {{ name = {:?}, pattern = {:?} }}",
            a.name, a.pattern
        ));
    }
    let draft = Draft {
        text,
        origin,
        layer,
        action: rule.action,
        tool: rule.tool.trim().to_owned(),
        specifier: None,
        command: rule.command.clone(),
        path: rule.path.clone(),
        argument: rule.argument.clone(),
    };
    let conditions = [
        draft.command.is_some(),
        draft.path.is_some(),
        draft.argument.is_some(),
    ];
    if conditions.iter().filter(|c| **c).count() > 1 {
        return Err(draft.malformed("a table takes at most one of command, path and argument"));
    }
    if draft.tool.is_empty() {
        return Err(draft.malformed("the rule names no tool"));
    }
    Ok(draft)
}

/// Reads the rules of one layer written inline in the configuration.
pub(crate) fn inline(set: &RuleSet, layer: Layer) -> Result<Vec<Draft>, ConfigError> {
    let mut out = Vec::new();
    for (action, list) in [
        (RuleAction::Allow, &set.allow),
        (RuleAction::Ask, &set.ask),
        (RuleAction::Deny, &set.deny),
    ] {
        for (i, text) in list.iter().enumerate() {
            let origin = format!("configuration, {}.{}[{i}]", layer.as_str(), action.as_str());
            out.push(short(text, origin, layer, action)?);
        }
    }
    for (i, rule) in set.rule.iter().enumerate() {
        let origin = format!("configuration, {}.rule[{i}]", layer.as_str());
        out.push(table(rule, origin, layer)?);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Draft, ConfigError> {
        short(text, "test".to_owned(), Layer::User, RuleAction::Allow)
    }

    #[test]
    fn reads_tools_and_specifiers() {
        let d = parse("Bash(npm run test:*)").unwrap();
        assert_eq!(
            (d.tool.as_str(), d.specifier.as_deref()),
            ("Bash", Some("npm run test:*"))
        );
        let d = parse("mcp__git__*").unwrap();
        assert_eq!(
            (d.tool.as_str(), d.specifier.as_deref()),
            ("mcp__git__*", None)
        );
        assert!(!d.is_bare_tool());
        assert!(parse("view").unwrap().is_bare_tool());
    }

    #[test]
    fn rejects_malformed_rules_naming_the_problem() {
        for (text, problem) in [
            ("Bash(npm run", "the specifier must end with \")\""),
            ("Bash()", "the specifier between the parentheses is empty"),
            ("(ls)", "the rule names no tool"),
            ("Bash)", "\")\" without \"(\""),
            ("my tool", "the tool id \"my tool\" contains whitespace"),
        ] {
            match parse(text) {
                Err(ConfigError::MalformedRule { problem: p, .. }) => {
                    assert_eq!(p, problem, "{text}")
                }
                other => panic!("{text}: {other:?}"),
            }
        }
    }
}
