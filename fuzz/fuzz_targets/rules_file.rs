//! The rules file (`[[rules.files]]`, TOML with positions) through its public entry point
//! `RuleEvaluator::new`, the same text as inline rules, and as a whole `[evaluators]` table
//! through `default_chain`.
//!
//! Asserts: no panic; a rule file and the same rule set written inline are accepted or refused
//! alike (the file reader only adds `file:line:column` origins), with the same number of
//! rules, and refused for the same kind of reason; text that is not UTF-8 or not a rule set is
//! refused as a rule file error; an accepted rule set decides sample calls without panicking.
#![no_main]

use std::path::PathBuf;
use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use serde_json::json;
use warrant_core::call::{EvaluationContext, PermissionMode, ToolCall};
use warrant_core::catalog::ToolCatalog;
use warrant_core::evaluator::Evaluator;
use warrant_evaluators::rule::{Layer, RuleEvaluator, RuleFile, RuleSet, RulesConfig};
use warrant_evaluators::{ConfigError, EvaluatorsConfig, default_chain};
use warrant_fuzz::{runtime, workspace};

fn file() -> &'static PathBuf {
    static PATH: OnceLock<PathBuf> = OnceLock::new();
    PATH.get_or_init(|| std::env::temp_dir().join(format!("fuzz-warrant-rules-{}.toml", std::process::id())))
}

fn kind(e: &ConfigError) -> std::mem::Discriminant<ConfigError> {
    std::mem::discriminant(e)
}

fuzz_target!(|data: &[u8]| {
    let catalog = ToolCatalog::builtin();
    let home = Some(PathBuf::from("/home/fuzz"));
    std::fs::write(file(), data).expect("a scratch file");
    let from_file = RuleEvaluator::new(
        &RulesConfig {
            files: vec![RuleFile { path: file().clone(), layer: Layer::Project }],
            ..RulesConfig::default()
        },
        &catalog,
        home.clone(),
    );
    let text = std::str::from_utf8(data);
    let set = text.ok().map(toml::from_str::<RuleSet>);
    match set {
        None | Some(Err(_)) => match &from_file {
            Err(ConfigError::RuleFile { .. }) => {}
            other => panic!("not a rule set, yet the file gave {other:?}"),
        },
        Some(Ok(set)) => {
            let inline = RuleEvaluator::new(
                &RulesConfig { project: set, ..RulesConfig::default() },
                &catalog,
                home.clone(),
            );
            match (&from_file, &inline) {
                (Ok(f), Ok(i)) => assert_eq!(f.len(), i.len(), "the file and inline rules differ in number"),
                (Err(f), Err(i)) => assert_eq!(kind(f), kind(i), "refused for different reasons: {f} / {i}"),
                (f, i) => panic!("the file gave {f:?}, the same rules inline {i:?}"),
            }
        }
    }
    if let Ok(rules) = from_file {
        let rt = runtime();
        rt.block_on(async {
            let calls = [
                ToolCall::new("s", "c1", "Bash", json!({"command": "git push origin main"})),
                ToolCall::new("s", "c2", "Bash", json!({"command": "npm run test -- --watch"})),
                ToolCall::new("s", "c3", "view", json!({"path": "src/main.rs"})),
                ToolCall::new("s", "c4", "Edit", json!({"path": "/etc/passwd"})),
                ToolCall::new("s", "c5", "web_fetch", json!({"url": "https://x.internal.example.com/a"})),
            ];
            for call in &calls {
                let cx = EvaluationContext::new(PermissionMode::Default, workspace());
                let _ = rules.evaluate(call, &cx).await;
            }
        });
    }

    // The same text as a whole `[evaluators]` table; rule files it names are not read (a
    // fuzzed path could name a device that never ends).
    if let Some(Ok(mut config)) = text.ok().map(toml::from_str::<EvaluatorsConfig>) {
        config.rules.files.clear();
        let _ = default_chain(&config, &catalog);
    }
});
