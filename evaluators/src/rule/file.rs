//! Rule files: TOML with the shape of a rule set, read with positions so that every rule
//! carries its `file:line:column`.

use serde::Deserialize;
use toml::Spanned;

use super::config::{RuleAction, RuleFile, TableRule};
use super::draft::{Draft, short, table};
use crate::error::ConfigError;

#[derive(Deserialize, Default)]
#[serde(default, deny_unknown_fields)]
struct SpannedRuleSet {
    allow: Vec<Spanned<String>>,
    ask: Vec<Spanned<String>>,
    deny: Vec<Spanned<String>>,
    rule: Vec<Spanned<TableRule>>,
}

/// Reads a rule file's rules.
///
/// # Errors
///
/// [`ConfigError::RuleFile`] when the file cannot be read or is not a rule set (with the line
/// and column), [`ConfigError::MalformedRule`] for a rule that cannot be read.
pub(crate) fn load(file: &RuleFile) -> Result<Vec<Draft>, ConfigError> {
    let error = |message: String| ConfigError::RuleFile {
        path: file.path.clone(),
        message,
    };
    let text = std::fs::read_to_string(&file.path).map_err(|e| error(e.to_string()))?;
    parse(&text, &file.path.display().to_string(), file).map_err(|e| match e {
        Parse::Toml(message) => error(message),
        Parse::Rule(e) => e,
    })
}

enum Parse {
    Toml(String),
    Rule(ConfigError),
}

fn parse(text: &str, name: &str, file: &RuleFile) -> Result<Vec<Draft>, Parse> {
    let set: SpannedRuleSet = toml::from_str(text).map_err(|e| {
        let at = e
            .span()
            .map(|s| format!("{}: ", position(text, s.start)))
            .unwrap_or_default();
        Parse::Toml(format!("{at}{}", e.message().trim()))
    })?;
    let origin = |offset: usize| format!("{name}:{}", position(text, offset));
    let mut out = Vec::new();
    for (action, list) in [
        (RuleAction::Allow, &set.allow),
        (RuleAction::Ask, &set.ask),
        (RuleAction::Deny, &set.deny),
    ] {
        for rule in list {
            let draft = short(
                rule.get_ref(),
                origin(rule.span().start),
                file.layer,
                action,
            );
            out.push(draft.map_err(Parse::Rule)?);
        }
    }
    for rule in &set.rule {
        let draft = table(rule.get_ref(), origin(rule.span().start), file.layer);
        out.push(draft.map_err(Parse::Rule)?);
    }
    Ok(out)
}

/// `line:column` (both from 1) of a byte offset.
fn position(text: &str, offset: usize) -> String {
    let before = text.get(..offset).unwrap_or(text);
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    format!("{line}:{column}")
}
