//! How rules match calls: command prefixes over every part of a shell command, path globs,
//! MCP ids, tool globs and argument patterns; layers first, then deny > ask > allow.

mod support;

use serde_json::json;
use support::{
    HOME, assert_codes, bash, call, catalog, code, context_with_catalog, rule_set, user_rules,
    verdict, workspace,
};
use warrant_core::call::{PermissionMode, ToolCall};
use warrant_evaluators::rule::{ArgumentPattern, RuleAction, RuleSet, TableRule, codes};
use warrant_evaluators::{RuleEvaluator, RulesConfig};

async fn codes_for(rules: &RuleEvaluator, calls: &[(ToolCall, Option<&str>)]) {
    let ws = workspace();
    std::fs::create_dir_all(ws.path().join("secrets")).unwrap();
    std::fs::write(ws.path().join("secrets/key.txt"), "k").unwrap();
    std::fs::create_dir_all(ws.path().join("src")).unwrap();
    std::fs::write(ws.path().join("src/lib.rs"), "").unwrap();
    let cx = context_with_catalog(PermissionMode::Default, ws.path());
    assert_codes(rules, &cx, calls).await;
}

const ALLOW: Option<&str> = Some(codes::NORMALIZED_RULE_ALLOW);
const ASK: Option<&str> = Some(codes::NORMALIZED_RULE_ASK);
const DENY: Option<&str> = Some(codes::NORMALIZED_RULE_DENY);

#[tokio::test]
async fn command_prefixes_match_every_part_of_a_shell_command() {
    let rules = user_rules(
        &["Bash(npm run test:*)", "Bash(git status)"],
        &["Bash(git push:*)"],
        &["Bash(rm:*)"],
    );
    codes_for(
        &rules,
        &[
            (bash("npm run test"), ALLOW),
            (bash("npm run test unit"), ALLOW),
            // Never wider than its plain form: an option the rule does not name (here one
            // the script reads) stays open, whatever the prefix.
            (bash("npm run test -- --watch"), None),
            (bash("npm run test --script-shell=./evil.sh"), None),
            (bash("npm run test ../../elsewhere/x"), None),
            (bash("cd app && npm run test"), ALLOW),
            (bash("npm run testing"), None),
            (bash("npm run build"), None),
            (bash("npm run test && curl x"), None),
            (bash("git status"), ALLOW),
            (bash("git status --short"), None),
            (bash("git status $X"), None),
            (bash("git push origin main"), ASK),
            (bash("npm run test && git push"), ASK),
            (bash("rm -rf build"), DENY),
            (bash("/bin/rm x"), DENY),
            (bash("echo $(rm x)"), DENY),
            (bash("sudo rm x"), DENY),
            (bash("bash -c 'rm x'"), DENY),
            (bash("find . -exec rm {} +"), DENY),
            (call("bash", json!({"command": "rm x"})), DENY),
        ],
    )
    .await;
}

#[tokio::test]
async fn within_a_layer_deny_beats_ask_beats_allow() {
    let rules = user_rules(
        &["Bash(git:*)", "Bash"],
        &["Bash(git push:*)"],
        &["Bash(git push --force:*)"],
    );
    codes_for(
        &rules,
        &[
            (bash("git log"), ALLOW),
            (bash("git push"), ASK),
            (bash("git push --force"), DENY),
            (bash("ls"), Some(codes::EXPLICIT_TOOL_ALLOW)),
        ],
    )
    .await;
}

#[tokio::test]
async fn a_higher_layer_wins_whatever_the_actions() {
    let config = RulesConfig {
        managed: rule_set(&["Bash(npm publish:*)"], &[], &[]),
        project: rule_set(&[], &[], &["Bash(npm:*)"]),
        user: rule_set(&["Bash(npm:*)"], &[], &[]),
        session: rule_set(&[], &["Bash(npm test:*)"], &[]),
        files: Vec::new(),
    };
    let rules = RuleEvaluator::new(&config, &catalog(), Some(HOME.into())).unwrap();
    codes_for(
        &rules,
        &[
            (bash("npm publish"), ALLOW),
            (bash("npm test"), DENY),
            (bash("npm ci"), DENY),
        ],
    )
    .await;
}

#[tokio::test]
async fn path_globs_match_resolved_paths() {
    let rules = user_rules(
        &["Edit(src/**)", "view(~/notes/**)"],
        &[],
        &["Write(secrets/*)"],
    );
    codes_for(
        &rules,
        &[
            (call("Edit", json!({"path": "src/main.rs"})), ALLOW),
            (call("Edit", json!({"path": "./src/a/b.rs"})), ALLOW),
            (call("Edit", json!({"path": "src/../src/x.rs"})), ALLOW),
            (call("Edit", json!({"path": "../src/x.rs"})), None),
            (call("Edit", json!({"path": "lib/x.rs"})), None),
            (
                call("view", json!({"path": format!("{HOME}/notes/todo.md")})),
                ALLOW,
            ),
            (call("Write", json!({"path": "secrets/a"})), DENY),
            (call("Write", json!({"path": "secrets/deeper/a"})), None),
        ],
    )
    .await;
}

#[tokio::test]
async fn a_path_rule_does_not_follow_a_symlink_out_of_the_workspace() {
    let ws = workspace();
    let outside = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(outside.path(), ws.path().join("src/escape")).unwrap();
    let cx = context_with_catalog(PermissionMode::Default, ws.path());
    let rules = user_rules(&["Edit(src/**)"], &[], &[]);
    let v = verdict(&rules, &call("Edit", json!({"path": "src/escape/x"})), &cx).await;
    assert_eq!(code(v), None);
}

#[tokio::test]
async fn mcp_rules_match_by_server_and_tool() {
    let rules = user_rules(&["mcp__git__git.status"], &[], &[]);
    let server = user_rules(&[], &["mcp__git__*"], &[]);
    codes_for(
        &rules,
        &[
            (
                call("git.status", json!({})),
                Some(codes::EXPLICIT_TOOL_ALLOW),
            ),
            (call("git.push", json!({})), None),
        ],
    )
    .await;
    codes_for(
        &server,
        &[
            (call("git.status", json!({})), ASK),
            (call("git.push", json!({})), ASK),
            (call("mcp__git__anything", json!({})), ASK),
            (call("view", json!({"path": "a"})), None),
        ],
    )
    .await;
}

#[tokio::test]
async fn tables_match_tool_globs_and_argument_patterns() {
    let table = |action, tool: &str, argument: Option<ArgumentPattern>| TableRule {
        action,
        tool: tool.to_owned(),
        command: None,
        path: None,
        argument,
    };
    let config = RulesConfig {
        user: RuleSet {
            allow: vec!["web_fetch(domain:docs.rs)".to_owned()],
            rule: vec![
                table(RuleAction::Deny, "lsp_*_references", None),
                table(
                    RuleAction::Ask,
                    "web_fetch",
                    Some(ArgumentPattern {
                        name: "url".to_owned(),
                        pattern: "https://*.internal.example.com/*".to_owned(),
                    }),
                ),
            ],
            ..RuleSet::default()
        },
        ..RulesConfig::default()
    };
    let rules = RuleEvaluator::new(&config, &catalog(), Some(HOME.into())).unwrap();
    codes_for(
        &rules,
        &[
            (call("lsp_ts_references", json!({})), DENY),
            (call("lsp_ts_hover", json!({})), None),
            (
                call("web_fetch", json!({"url": "https://docs.rs/globset"})),
                ALLOW,
            ),
            (
                call("web_fetch", json!({"url": "https://docs.rs.evil.com/x"})),
                None,
            ),
            (
                call(
                    "web_fetch",
                    json!({"url": "https://wiki.internal.example.com/page"}),
                ),
                ASK,
            ),
        ],
    )
    .await;
}

#[tokio::test]
async fn an_allow_rule_does_not_cover_redirections_assignments_or_other_programs() {
    let rules = user_rules(&["Bash(npm run test:*)", "Bash(git status)"], &[], &[]);
    codes_for(
        &rules,
        &[
            (bash("npm run test > ~/.bashrc"), None),
            (bash("npm run test >> .git/hooks/pre-commit"), None),
            (bash("PATH=./bin npm run test"), None),
            (bash("LD_PRELOAD=./x.so npm run test"), None),
            (bash("env LD_PRELOAD=./x.so npm run test"), None),
            (bash("./npm run test"), None),
            (bash("/tmp/x/npm run test"), None),
            (bash("GIT_DIR=/tmp/e git status"), None),
            (bash("npm run test > /dev/null"), ALLOW),
            (bash("npm run test 2>&1 | npm run test"), ALLOW),
            (bash("git status"), ALLOW),
        ],
    )
    .await;
}

#[tokio::test]
async fn deny_and_ask_rules_are_not_dodged_by_options_before_the_subcommand() {
    let rules = user_rules(
        &["Bash(git push:*)", "Bash(kubectl get:*)"],
        &["Bash(kubectl delete:*)"],
        &["Bash(git push:*)", "Bash(npm publish:*)"],
    );
    codes_for(
        &rules,
        &[
            (bash("git -C . push"), DENY),
            (bash("git --no-pager push"), DENY),
            (bash("git -c x=y push origin main"), DENY),
            (bash("npm --registry x publish"), DENY),
            (bash("npm publish"), DENY),
            (bash("kubectl -n prod delete pod x"), ASK),
            (bash("kubectl --context prod delete pod x"), ASK),
            (bash("kubectl delete pod x"), ASK),
            (bash("kubectl -n prod get pods"), None),
            (bash("kubectl get pods"), ALLOW),
            (bash("npm run build"), None),
        ],
    )
    .await;
}

#[tokio::test]
async fn an_allow_rule_covers_nothing_wider_than_its_plain_form() {
    let rules = user_rules(
        &["Bash(git diff:*)", "Bash(cp:*)", "Bash(make:*)"],
        &[],
        &[],
    );
    codes_for(
        &rules,
        &[
            // Read-only options of a modeled command: its effects stay the plain form's.
            (bash("git diff --stat HEAD~3"), ALLOW),
            (bash("git diff --name-only -- src"), ALLOW),
            // An option that writes (the plain `git diff` never writes) or runs a program.
            (bash("git diff --output=out.patch"), None),
            (bash("git diff --ext-diff"), None),
            // A program the table does not model (`cp`): plain operands inside the
            // workspace, no option the rule does not name.
            (bash("cp a.txt b.txt"), ALLOW),
            (bash("cp -r src backup"), None),
            (bash("cp a.txt ~/.bashrc"), None),
            (bash("cp a.txt ../elsewhere.txt"), None),
            // An unmodeled program: plain operands only.
            (bash("make test"), ALLOW),
            (bash("make --eval=x"), None),
            (bash("make CC=./evil"), None),
            (bash("make -f /tmp/evil.mk"), None),
        ],
    )
    .await;
}

#[tokio::test]
async fn deny_and_ask_rules_on_effects_hold_for_every_tool() {
    let rules = user_rules(
        &[],
        &["Run(git push)"],
        &["Read(secrets/**)", "Edit(.github/**)", "Net(evil.example)"],
    );
    codes_for(
        &rules,
        &[
            (bash("cat secrets/key.txt"), DENY),
            (bash("grep -r token secrets"), DENY),
            (call("view", json!({"path": "secrets/key.txt"})), DENY),
            (
                call("Write", json!({"path": ".github/workflows/ci.yml"})),
                DENY,
            ),
            (bash("sed -i s/a/b/ .github/workflows/ci.yml"), DENY),
            (
                call("web_fetch", json!({"url": "https://EVIL.example./x"})),
                DENY,
            ),
            (bash("curl -s https://evil.example/p"), DENY),
            (
                call(
                    "web_fetch",
                    json!({"url": "https://example.com/?u=evil.example"}),
                ),
                None,
            ),
            (bash("git send-pack origin main"), ASK),
            (bash("env git push"), ASK),
            (bash("cat README.md"), None),
        ],
    )
    .await;
}

#[tokio::test]
async fn an_mcp_wildcard_covers_a_tool_only_when_every_provider_is_covered() {
    use warrant_core::catalog::ToolKind;
    // `git.status` is offered by the `git` server and by another one, `evil`.
    let mut shared = catalog();
    for t in shared.tools.iter_mut().filter(|t| t.id == "git.status") {
        t.kind = ToolKind::Mcp;
        t.provider_ids = vec!["git".to_owned(), "evil".to_owned()];
    }
    let rules = |allow: &[&str]| {
        let config = RulesConfig {
            user: rule_set(allow, &[], &[]),
            ..Default::default()
        };
        RuleEvaluator::new(&config, &shared, Some(HOME.into())).expect("rules compile")
    };
    let ws = workspace();
    let mut cx = context_with_catalog(PermissionMode::Default, ws.path());
    cx.catalog = std::sync::Arc::new(shared.clone());
    let status = call("git.status", json!({}));
    let push = call("git.push", json!({}));
    // One provider's wildcard: not enough for the shared tool; enough for `git.push`.
    let one = rules(&["mcp__git__*"]);
    assert_eq!(code(verdict(&one, &status, &cx).await), None);
    assert_eq!(code(verdict(&one, &push, &cx).await).as_deref(), ALLOW);
    let one_exact = rules(&["mcp__git__git.status"]);
    assert_eq!(code(verdict(&one_exact, &status, &cx).await), None);
    // Every provider covered, or the tool named by its own id: allowed.
    let both = rules(&["mcp__git__*", "mcp__evil__*"]);
    assert_eq!(code(verdict(&both, &status, &cx).await).as_deref(), ALLOW);
}

#[tokio::test]
async fn deny_rules_hold_for_other_spellings_and_run_time_words() {
    let rules = user_rules(
        &[],
        &[],
        &["Run(git push)", "Run(rm -rf)", "Run(npm publish)"],
    );
    codes_for(
        &rules,
        &[
            (bash("x=push; git $x"), DENY),
            (bash("echo push | xargs git"), DENY),
            (bash("rm -fr src"), DENY),
            (bash("rm -r -f src"), DENY),
            (bash("rm -Rf src"), DENY),
            (bash("rm --recursive --force src"), DENY),
            (bash("npm pub"), DENY),
            (bash("git status $X"), None),
            (bash("rm -r src"), None),
            (bash("npm test"), None),
        ],
    )
    .await;
}

#[tokio::test]
async fn deny_and_ask_path_rules_match_without_case_and_compile_by_the_ten_thousand() {
    // 30,000 deny and ask globs: folded globs keep the glob set's cheap strategies, so they
    // compile together (a case-insensitive regex per glob did not, past a few thousand).
    let deny: Vec<String> = (0..20_000)
        .map(|i| format!("Write(private/module{i}/**)"))
        .collect();
    let ask: Vec<String> = (0..10_000)
        .map(|i| format!("Read(Vault/Shelf{i}/*.txt)"))
        .collect();
    let deny: Vec<&str> = deny.iter().map(String::as_str).collect();
    let ask: Vec<&str> = ask.iter().map(String::as_str).collect();
    let rules = user_rules(&["Edit(src/**)"], &ask, &deny);
    codes_for(
        &rules,
        &[
            (call("Write", json!({"path": "private/module7/a.rs"})), DENY),
            (call("Write", json!({"path": "PRIVATE/Module7/a.rs"})), DENY),
            (
                call("Write", json!({"path": "private/module7x/a.rs"})),
                None,
            ),
            (call("view", json!({"path": "vault/shelf9/notes.txt"})), ASK),
            (call("view", json!({"path": "VAULT/SHELF9/NOTES.TXT"})), ASK),
            (call("view", json!({"path": "vault/shelf9/notes.md"})), None),
            // Allow rules match as written.
            (call("Edit", json!({"path": "src/lib.rs"})), ALLOW),
            (call("Edit", json!({"path": "SRC/lib.rs"})), None),
        ],
    )
    .await;
}
