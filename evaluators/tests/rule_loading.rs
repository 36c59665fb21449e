//! Rules are checked when they load: unknown tool ids are rejected with the nearest known id,
//! malformed rules name the rule, its file and its position. No rule is silently ignored.

mod support;

use support::{HOME, catalog, rule_set};
use warrant_evaluators::rule::{Layer, RuleAction, RuleFile, RuleSet, TableRule};
use warrant_evaluators::{ConfigError, RuleEvaluator, RulesConfig};

fn load(config: &RulesConfig) -> Result<RuleEvaluator, ConfigError> {
    RuleEvaluator::new(config, &catalog(), Some(HOME.into()))
}

fn user(set: RuleSet) -> RulesConfig {
    RulesConfig {
        user: set,
        ..RulesConfig::default()
    }
}

fn message(config: &RulesConfig) -> String {
    load(config).expect_err("rules are rejected").to_string()
}

#[test]
fn an_unknown_tool_id_suggests_the_nearest_known_one() {
    let m = message(&user(rule_set(&["lsp_ts_hovr"], &[], &[])));
    assert_eq!(
        m,
        "unknown tool id \"lsp_ts_hovr\" (did you mean \"lsp_ts_hover\"?) in rule \"lsp_ts_hovr\" (configuration, user.allow[0])"
    );
    let m = message(&user(rule_set(&[], &[], &["Bsh(rm:*)"])));
    assert!(m.contains("(did you mean \"Bash\"?)"), "{m}");
    let m = message(&user(rule_set(&["mcp__gti__*"], &[], &[])));
    assert!(m.contains("(did you mean \"mcp__git__*\"?)"), "{m}");
}

#[test]
fn mcp_ids_and_whole_servers_are_known() {
    let rules = load(&user(rule_set(
        &["mcp__git__git.status", "mcp__git__*", "git.push"],
        &[],
        &[],
    )))
    .unwrap();
    assert_eq!(rules.len(), 3);
}

#[test]
fn malformed_rules_are_rejected_with_their_problem() {
    for (rule, problem) in [
        ("Bash(npm run", "the specifier must end with \")\""),
        ("git.status(x)", "takes no specifier"),
        (
            "Bash(ls && rm x:*)",
            "a command prefix must be one plain command",
        ),
        ("Edit([)", "bad path glob"),
        ("mcp__git__*(x)", "a specifier needs one tool id"),
    ] {
        let m = message(&user(rule_set(&[rule], &[], &[])));
        assert!(
            m.starts_with(&format!(
                "malformed rule {rule:?} (configuration, user.allow[0])"
            )),
            "{m}"
        );
        assert!(m.contains(problem), "{rule}: {m}");
    }
}

#[test]
fn table_rules_are_checked_too() {
    let table = |tool: &str, command: Option<&str>, path: Option<&str>| RuleSet {
        rule: vec![TableRule {
            action: RuleAction::Deny,
            tool: tool.to_owned(),
            command: command.map(str::to_owned),
            path: path.map(str::to_owned),
            argument: None,
        }],
        ..RuleSet::default()
    };
    let m = message(&user(table("nothing_*", None, None)));
    assert!(m.contains("matches no known tool id"), "{m}");
    let m = message(&user(table("Bash", Some("git push"), Some("src/**"))));
    assert!(
        m.contains("at most one of command, path and argument"),
        "{m}"
    );
    let m = message(&user(table("view", Some("git push"), None)));
    assert!(
        m.contains("command prefixes apply to the shell tool"),
        "{m}"
    );
    assert!(load(&user(table("lsp_*", None, None))).is_ok());
}

#[test]
fn a_malformed_rule_in_a_file_names_the_file_line_and_column() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("rules.toml");
    std::fs::write(
        &path,
        "allow = [\n  \"Bash(npm run test:*)\",\n  \"Bash(npm run\",\n]\n",
    )
    .unwrap();
    let config = RulesConfig {
        files: vec![RuleFile {
            path: path.clone(),
            layer: Layer::Project,
        }],
        ..RulesConfig::default()
    };
    let m = message(&config);
    assert_eq!(
        m,
        format!(
            "malformed rule \"Bash(npm run\" ({}:3:3): the specifier must end with \")\"",
            path.display()
        )
    );
}

#[test]
fn a_rule_file_that_is_not_toml_names_the_position() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("rules.toml");
    std::fs::write(&path, "allow = [\"view\"]\ndeny = \n").unwrap();
    let config = RulesConfig {
        files: vec![RuleFile {
            path: path.clone(),
            layer: Layer::User,
        }],
        ..RulesConfig::default()
    };
    let m = message(&config);
    assert!(
        m.starts_with(&format!("rule file {}: 2:", path.display())),
        "{m}"
    );
    let missing = RulesConfig {
        files: vec![RuleFile {
            path: dir.path().join("missing.toml"),
            layer: Layer::User,
        }],
        ..RulesConfig::default()
    };
    assert!(message(&missing).contains("missing.toml"));
}

#[test]
fn rules_from_a_file_carry_their_position_into_the_reason() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("rules.toml");
    std::fs::write(
        &path,
        "deny = [\"web_fetch\"]\n\n[[rule]]\naction = \"ask\"\ntool = \"mcp__git__*\"\n",
    )
    .unwrap();
    let config = RulesConfig {
        files: vec![RuleFile {
            path,
            layer: Layer::Managed,
        }],
        ..RulesConfig::default()
    };
    assert_eq!(load(&config).unwrap().len(), 2);
}
