//! Checks rules against the tool catalog and compiles them into [`Selectors`].

use std::collections::HashMap;
use std::path::Path;

use globset::{Glob, GlobSetBuilder};
use serde_json::Value;
use warrant_core::catalog::{SHELL_TOOL, ToolCatalog, is_shell_tool};

use super::config::{Layer, RuleAction};
use super::draft::{Draft, has_glob};
use super::effects::{self, EffectRules, EffectRulesBuilder, Named};
use super::index::{BucketBuilder, Condition, Selectors, WordMap};
use super::known::KnownTools;
use crate::error::ConfigError;
use crate::policy::filesystem;

/// A rule as the evaluator reports it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct CompiledRule {
    pub text: String,
    pub origin: String,
    pub layer: Layer,
    pub action: RuleAction,
    /// Written as a bare tool id (`explicit_tool_*` codes).
    pub explicit: bool,
}

/// How a rule selects tools.
enum Selector {
    Exact(String),
    Server(String),
    Glob(String),
}

fn selector(d: &Draft, known: &KnownTools) -> Result<Selector, ConfigError> {
    let unknown = || ConfigError::UnknownTool {
        rule: d.text.clone(),
        origin: d.origin.clone(),
        id: d.tool.clone(),
        suggestion: known.nearest(&d.tool),
    };
    if let Some(server) = d
        .tool
        .strip_prefix("mcp__")
        .and_then(|r| r.strip_suffix("__*"))
        && !has_glob(server)
    {
        return if known.servers.contains(server) {
            Ok(Selector::Server(server.to_owned()))
        } else {
            Err(unknown())
        };
    }
    if has_glob(&d.tool) {
        let glob =
            Glob::new(&d.tool).map_err(|e| d.malformed(format!("bad tool glob: {}", e.kind())))?;
        let matcher = glob.compile_matcher();
        if !known.sorted.iter().any(|id| matcher.is_match(id)) {
            return Err(d.malformed(format!(
                "the tool glob {:?} matches no known tool id",
                d.tool
            )));
        }
        return Ok(Selector::Glob(d.tool.clone()));
    }
    if !known.ids.contains(&d.tool) {
        return Err(unknown());
    }
    Ok(Selector::Exact(if is_shell_tool(&d.tool) {
        SHELL_TOOL.to_owned()
    } else {
        d.tool.clone()
    }))
}

/// What a specifier means for a tool: a command prefix, a path glob or a URL.
fn specifier_condition(
    d: &Draft,
    tool: &str,
    spec: &str,
    catalog: &ToolCatalog,
    home: Option<&Path>,
) -> Result<Condition, ConfigError> {
    if tool == SHELL_TOOL {
        return command_condition(d, spec);
    }
    let schema_has = |field: &str| {
        catalog
            .get(tool)
            .and_then(|t| t.input_schema.as_ref())
            .and_then(|s| s.get("properties"))
            .and_then(Value::as_object)
            .is_some_and(|p| p.contains_key(field))
    };
    if filesystem::access(tool, catalog).is_some() || schema_has("path") {
        return path_condition(d, spec, home);
    }
    if schema_has("url") {
        return argument_condition(d, "url", &[spec.to_owned()]);
    }
    Err(d.malformed(format!(
        "the tool {tool:?} takes no specifier; use a [[rule]] table with an argument pattern"
    )))
}

fn command_condition(d: &Draft, spec: &str) -> Result<Condition, ConfigError> {
    let (text, prefix) = match spec.strip_suffix(":*") {
        Some(t) => (t, true),
        None => match spec.strip_suffix(" *") {
            Some(t) => (t, true),
            None => (spec, false),
        },
    };
    if text.trim() == "*" || text.trim().is_empty() && prefix {
        return Ok(Condition::Whole);
    }
    let script = crate::shell::parse(text)
        .map_err(|e| d.malformed(format!("the command prefix cannot be parsed: {e}")))?;
    let tops = script
        .commands
        .iter()
        .filter(|c| c.parent.is_none())
        .count();
    let first = script
        .commands
        .first()
        .filter(|_| tops == 1 && script.unreadable.is_empty());
    let words: Option<Vec<String>> = first
        .filter(|c| c.redirects.is_empty() && !c.words.is_empty())
        .and_then(|c| {
            c.words
                .iter()
                .map(|w| w.literal().map(str::to_owned))
                .collect()
        });
    let Some(mut words) = words else {
        return Err(
            d.malformed("a command prefix must be one plain command, such as `npm run test:*`")
        );
    };
    if let Some(program) = words.first_mut() {
        *program = program.rsplit('/').next().unwrap_or(program).to_owned();
    }
    Ok(Condition::Command { words, prefix })
}

fn path_condition(d: &Draft, spec: &str, home: Option<&Path>) -> Result<Condition, ConfigError> {
    Ok(Condition::Path {
        globs: vec![path_glob(d, spec, home)?],
        folded: folds(d.action),
    })
}

/// Whether the path globs of a rule with this action match without case: deny and ask rules
/// do (their globs are folded by [`path_glob`]), allow rules do not.
pub(crate) fn folds(action: RuleAction) -> bool {
    action != RuleAction::Allow
}

/// A path glob as a rule writes it: relative to the workspace root unless absolute, `~/` for
/// the home directory.
fn path_glob(d: &Draft, spec: &str, home: Option<&Path>) -> Result<Glob, ConfigError> {
    let spec = spec.strip_prefix("./").unwrap_or(spec);
    let spec = match spec.strip_prefix("~/") {
        Some(rest) => match home {
            Some(h) => format!("{}/{rest}", h.display()),
            None => {
                return Err(
                    d.malformed("the path glob starts with ~ but no home directory is known")
                );
            }
        },
        None => spec.to_owned(),
    };
    // A deny or ask rule matches without case: on a case-insensitive file system (macOS,
    // Windows) `PRIVATE/x` is `private/x`, and folding only ever adds matches to it. Its
    // glob is folded here and matched against folded paths ([`folds`]). An allow rule
    // matches as written.
    let compiled = if folds(d.action) {
        crate::paths::compile_folded(&spec)
    } else {
        crate::paths::compile(&spec)
    };
    compiled.map_err(|e| d.malformed(format!("bad path glob: {}", e.kind())))
}

fn argument_condition(
    d: &Draft,
    field: &str,
    patterns: &[String],
) -> Result<Condition, ConfigError> {
    let globs = patterns
        .iter()
        .map(|p| {
            Glob::new(p).map_err(|e| d.malformed(format!("bad argument pattern: {}", e.kind())))
        })
        .collect::<Result<_, _>>()?;
    Ok(Condition::Argument {
        field: field.to_owned(),
        globs,
    })
}

fn condition(
    d: &Draft,
    sel: &Selector,
    catalog: &ToolCatalog,
    home: Option<&Path>,
) -> Result<Condition, ConfigError> {
    let exact = match sel {
        Selector::Exact(t) => Some(t.as_str()),
        _ => None,
    };
    if let Some(spec) = &d.specifier {
        let tool = exact.ok_or_else(|| {
            d.malformed("a specifier needs one tool id, not a glob or a whole server")
        })?;
        return specifier_condition(d, tool, spec, catalog, home);
    }
    if let Some(command) = &d.command {
        if exact != Some(SHELL_TOOL) {
            return Err(d.malformed(format!(
                "command prefixes apply to the shell tool {SHELL_TOOL:?} only"
            )));
        }
        return command_condition(d, command);
    }
    if let Some(path) = &d.path {
        return path_condition(d, path, home);
    }
    if let Some(arg) = &d.argument {
        return argument_condition(d, &arg.name, std::slice::from_ref(&arg.pattern));
    }
    Ok(Condition::Whole)
}

/// Checks and compiles rules.
pub(crate) fn compile(
    drafts: Vec<Draft>,
    catalog: &ToolCatalog,
    home: Option<&Path>,
) -> Result<(Vec<CompiledRule>, Selectors, EffectRules), ConfigError> {
    let known = KnownTools::new(catalog);
    let mut rules = Vec::with_capacity(drafts.len());
    let mut exact: HashMap<String, BucketBuilder> = HashMap::new();
    let mut servers: HashMap<String, BucketBuilder> = HashMap::new();
    let mut globbed: HashMap<String, BucketBuilder> = HashMap::new();
    let mut on_effects = EffectRulesBuilder::default();
    for d in drafts {
        let id = rules.len();
        let spec = d.specifier.as_deref().or(d.path.as_deref());
        let host = d
            .specifier
            .as_deref()
            .and_then(|s| s.strip_prefix("domain:"));
        match (effects::named(&d.tool, catalog), spec) {
            // `Run(git push)`: that command (with any arguments) on every shell tool.
            (Some(Named::Run), _) => {
                let command = d
                    .specifier
                    .as_deref()
                    .or(d.command.as_deref())
                    .ok_or_else(|| d.malformed("`Run` names a command: `Run(git push)`"))?;
                let command = if command.ends_with(":*") || command.ends_with(" *") {
                    command.to_owned()
                } else {
                    format!("{command}:*")
                };
                let cond = command_condition(&d, &command)?;
                exact
                    .entry(SHELL_TOOL.to_owned())
                    .or_default()
                    .add(cond, id);
            }
            // `Net(docs.rs)`: calls that reach the host, whichever tool.
            (Some(Named::Net), Some(spec)) => {
                on_effects.host(id, d.action, &checked_host(&d, spec)?);
            }
            (Some(Named::Net), None) => {
                return Err(d.malformed("`Net` names a host: `Net(docs.rs)`"));
            }
            // A path rule of a file tool, `Read(…)` or `Write(…)`: the effect, whichever tool
            // has it; on a tool the catalog knows, that tool's rule too.
            (Some(Named::Path(kind)), Some(spec)) if d.argument.is_none() => {
                let glob = path_glob(&d, spec, home)?;
                on_effects.path(id, kind, d.action, glob.clone());
                if known.ids.contains(&d.tool) {
                    let sel = selector(&d, &known)?;
                    if let Selector::Exact(t) = sel {
                        exact.entry(t).or_default().add(
                            Condition::Path {
                                globs: vec![glob],
                                folded: folds(d.action),
                            },
                            id,
                        );
                    }
                }
            }
            // `WebFetch(domain:docs.rs)`: the host, parsed.
            _ if host.is_some() && selector(&d, &known).is_ok() => {
                on_effects.host(id, d.action, &checked_host(&d, host.unwrap_or_default())?);
            }
            _ => {
                let sel = selector(&d, &known)?;
                let cond = condition(&d, &sel, catalog, home)?;
                let bucket = match sel {
                    Selector::Exact(t) => exact.entry(t),
                    Selector::Server(s) => servers.entry(s),
                    Selector::Glob(g) => globbed.entry(g),
                };
                bucket.or_default().add(cond, id);
            }
        }
        rules.push(CompiledRule {
            explicit: d.is_bare_tool(),
            text: d.text,
            origin: d.origin,
            layer: d.layer,
            action: d.action,
        });
    }
    let too_many = |e: globset::Error| ConfigError::MalformedRule {
        rule: e.glob().unwrap_or_default().to_owned(),
        origin: "compiled rules".to_owned(),
        problem: e.kind().to_string(),
    };
    let build = |m: HashMap<String, BucketBuilder>| {
        m.into_iter()
            .map(|(k, b)| Ok((k, b.build()?)))
            .collect::<Result<WordMap<_, _>, globset::Error>>()
    };
    let mut set = GlobSetBuilder::new();
    let mut glob_buckets = Vec::new();
    for (g, b) in globbed {
        set.add(Glob::new(&g).map_err(too_many)?);
        glob_buckets.push(b.build().map_err(too_many)?);
    }
    let selectors = Selectors {
        exact: build(exact).map_err(too_many)?,
        servers: build(servers).map_err(too_many)?,
        globs: set.build().map_err(too_many)?,
        glob_buckets,
    };
    Ok((rules, selectors, on_effects.build().map_err(too_many)?))
}

/// A host as a rule names it: a name (`docs.rs`) or its subdomains (`*.example.com`), never
/// a URL or a pattern.
fn checked_host(d: &Draft, spec: &str) -> Result<String, ConfigError> {
    let host = spec.trim();
    let name = host.strip_prefix("*.").unwrap_or(host);
    let bad = name
        .chars()
        .any(|c| !(c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_')))
        || super::hosts::normalize(name).is_none();
    if bad {
        return Err(d.malformed(format!(
            "{host:?} is not a host name: write `docs.rs` or `*.example.com`"
        )));
    }
    Ok(host.to_owned())
}
