//! The shortcuts a decision takes must never skip a rule: a shell command's words are
//! resolved on disk only for the kinds of effects a deny or ask rule names, a searched tree is
//! compared only with deny and ask rules on reads, and a path resolved as text falls back to
//! the walk that follows links when it meets one. Each test names a path that only matches
//! its deny or ask rule once symlinks (and the `..` after them) are resolved.

use std::path::Path;

use serde_json::json;
use warrant_core::call::{EvaluationContext, PermissionMode, ToolCall};
use warrant_core::catalog::ToolCatalog;
use warrant_core::evaluator::{Evaluator, Verdict};

use super::{RuleEvaluator, RuleSet, RulesConfig, codes};

fn rules(allow: &[&str], ask: &[&str], deny: &[&str]) -> RuleEvaluator {
    let list = |rules: &[&str]| rules.iter().map(|r| (*r).to_owned()).collect();
    let config = RulesConfig {
        user: RuleSet {
            allow: list(allow),
            ask: list(ask),
            deny: list(deny),
            ..RuleSet::default()
        },
        ..RulesConfig::default()
    };
    RuleEvaluator::new(&config, &ToolCatalog::builtin(), None).expect("the rules compile")
}

fn bash(command: &str) -> ToolCall {
    ToolCall::new("s", "c", "Bash", json!({ "command": command }))
}

fn edit(path: &str) -> ToolCall {
    ToolCall::new(
        "s",
        "c",
        "Edit",
        json!({ "path": path, "old_string": "a", "new_string": "b" }),
    )
}

/// The reason code the rules decide `call` with in a workspace at `root` (`None`: abstain).
async fn code(rules: &RuleEvaluator, call: &ToolCall, root: &Path) -> Option<String> {
    let cx = EvaluationContext::new(PermissionMode::Default, root);
    let verdict = rules
        .evaluate(call, &cx)
        .await
        .expect("the rule evaluator answers");
    match verdict {
        Verdict::Decide { rationale, .. } => Some(rationale.reason_code),
        _ => None,
    }
}

const ALLOW: Option<&str> = Some(codes::NORMALIZED_RULE_ALLOW);
const ASK: Option<&str> = Some(codes::NORMALIZED_RULE_ASK);
const DENY: Option<&str> = Some(codes::NORMALIZED_RULE_DENY);

/// A workspace with `src/secret/key.pem`, `secrets/token`, and links to both.
fn workspace() -> tempfile::TempDir {
    let ws = tempfile::tempdir().expect("a workspace");
    let root = ws.path();
    std::fs::create_dir_all(root.join("src/secret")).expect("src/secret");
    std::fs::write(root.join("src/secret/key.pem"), "k").expect("key.pem");
    std::fs::create_dir_all(root.join("secrets")).expect("secrets");
    std::fs::write(root.join("secrets/token"), "t").expect("token");
    // `out` is the key itself; `alias` is the directory of the key; `data` is `secrets`.
    std::os::unix::fs::symlink(root.join("src/secret/key.pem"), root.join("out")).expect("out");
    std::os::unix::fs::symlink(root.join("src/secret"), root.join("alias")).expect("alias");
    std::os::unix::fs::symlink("secrets", root.join("data")).expect("data");
    ws
}

#[tokio::test]
async fn a_word_linked_to_a_denied_write_is_denied_when_only_writes_are_restricted() {
    let ws = workspace();
    // The only path rules restrict writes (`Edit`): a command's words are still resolved.
    let rules = rules(&["Bash(prog:*)"], &[], &["Edit(src/secret/**)"]);
    let root = ws.path();
    assert_eq!(
        code(&rules, &bash("prog other"), root).await.as_deref(),
        ALLOW
    );
    assert_eq!(code(&rules, &bash("prog out"), root).await.as_deref(), DENY);
    // `alias/../secret/key.pem` reads as `secret/key.pem`, but `alias` leads into
    // `src/secret`, so `..` is `src`: the key.
    assert_eq!(
        code(&rules, &bash("prog alias/../secret/key.pem"), root)
            .await
            .as_deref(),
        DENY
    );
    assert_eq!(
        code(&rules, &bash("prog > out"), root).await.as_deref(),
        DENY
    );
}

#[tokio::test]
async fn a_word_linked_to_a_tree_of_denied_reads_is_denied() {
    let ws = workspace();
    let rules = rules(&["Bash(prog:*)"], &["Read(secrets/**)"], &[]);
    let root = ws.path();
    // `data` is a link to `secrets`: a word that may be a tree it reads reaches the rule.
    assert_eq!(code(&rules, &bash("prog data"), root).await.as_deref(), ASK);
    assert_eq!(
        code(&rules, &bash("cat data/token"), root).await.as_deref(),
        ASK
    );
    assert_eq!(
        code(&rules, &bash("grep -r x data"), root).await.as_deref(),
        ASK
    );
    assert_eq!(
        code(&rules, &bash("prog src"), root).await.as_deref(),
        ALLOW
    );
}

#[tokio::test]
async fn a_file_tool_path_through_a_link_meets_the_deny_rule() {
    let ws = workspace();
    let rules = rules(
        &["Edit(src/**)", "Edit(alias/**)"],
        &[],
        &["Edit(src/secret/**)"],
    );
    let root = ws.path();
    assert_eq!(
        code(&rules, &edit("src/lib.rs"), root).await.as_deref(),
        ALLOW
    );
    assert_eq!(
        code(&rules, &edit("alias/key.pem"), root).await.as_deref(),
        DENY
    );
    assert_eq!(code(&rules, &edit("out"), root).await.as_deref(), DENY);
    assert_eq!(
        code(&rules, &edit("alias/../secret/key.pem"), root)
            .await
            .as_deref(),
        DENY
    );
}

#[tokio::test]
async fn a_shell_call_is_judged_by_its_command_whatever_paths_its_input_holds() {
    let ws = workspace();
    // No rule on the shell tool looks at paths: the input's own `path` field is not read,
    // and the command's words still are.
    let rules = rules(&["Bash(prog:*)"], &[], &["Edit(src/secret/**)"]);
    let call = ToolCall::new(
        "s",
        "c",
        "Bash",
        json!({ "command": "prog out", "path": "src/lib.rs" }),
    );
    assert_eq!(code(&rules, &call, ws.path()).await.as_deref(), DENY);
}

/// The workspace of [`workspace`] with a directory `sub` holding its own `secrets/token`.
fn workspace_with_sub() -> tempfile::TempDir {
    let ws = workspace();
    std::fs::create_dir_all(ws.path().join("sub/secrets")).expect("sub/secrets");
    std::fs::write(ws.path().join("sub/secrets/token"), "s").expect("sub token");
    ws
}

async fn each(rules: &RuleEvaluator, root: &Path, expect: Option<&str>, commands: &[&str]) {
    for c in commands {
        assert_eq!(
            code(rules, &bash(c), root).await.as_deref(),
            expect,
            "`{c}`"
        );
    }
}

#[tokio::test]
async fn git_objects_named_from_another_directory_meet_read_rules() {
    let ws = workspace_with_sub();
    let rules = rules(&["Bash(git:*)"], &[], &["Read(secrets/**)"]);
    // `REV:PATH` is from the repository's top (the workspace, or a nested repository at or
    // above the directory `-C` or `cd` moves to); `./` and `../` from that directory.
    each(
        &rules,
        ws.path(),
        DENY,
        &[
            "git show HEAD:secrets/token",
            "git -C sub show HEAD:secrets/token",
            "git -C sub show HEAD:../secrets/token",
            "git -C src -C secret show HEAD:secrets/token",
            "git -C src show HEAD:../secrets/token",
            "cd sub && git show HEAD:secrets/token",
            "cd sub && git show HEAD:../secrets/token",
            "git -C sub cat-file -p HEAD:../secrets/token",
            // Unmodeled spellings still name the file.
            "git show HEAD@{0}:secrets/token",
            "git show 'HEAD^{tree}:secrets/token'",
            "git show main:secrets/token",
            "git -C sub show HEAD@{0}:../secrets/token",
            "git --no-pager show :0:secrets/token",
            "git --no-pager -C sub show HEAD:../secrets/token",
            "git -C sub/.. show HEAD:secrets/token",
            "git show HEAD:./secrets/../secrets/token",
            "git show HEAD:SECRETS/token",
            // Pathspecs from the top of the repository.
            "git -C sub grep x -- :/secrets",
            "git -C sub grep x -- ':(top)secrets'",
            "git -C sub grep x -- :/:secrets/token",
            "git -C sub log -p -- :/secrets",
            "cd sub && git diff -- :/secrets/token",
            "git -C sub grep x -- :/",
        ],
    )
    .await;
    // A nested repository's `secrets/token` is `sub/secrets/token` of the workspace.
    let nested = rules_only_deny("Read(sub/secrets/**)");
    each(
        &nested,
        ws.path(),
        DENY,
        &[
            "git -C sub show HEAD:secrets/token",
            "git -C sub show HEAD:./secrets/token",
            "cd sub && git show HEAD:./secrets/token",
        ],
    )
    .await;
}

fn rules_only_deny(rule: &str) -> RuleEvaluator {
    rules(&["Bash(git:*)"], &[], &[rule])
}

#[tokio::test]
async fn git_dumps_naming_no_path_read_everything() {
    let ws = workspace_with_sub();
    let rules = rules(&["Bash(git:*)", "Bash(hub:*)"], &[], &["Read(secrets/**)"]);
    // Each prints files of the repository without naming them (a commit, a blob by its id,
    // a revision's tree, the object database, a diff shown on the side): the deny rule may
    // apply, so the call asks, and the allow rule never covers it.
    each(
        &rules,
        ws.path(),
        ASK,
        &[
            "git show e021b4d2666559b8761ac9f88fd2e0bef9f46ff4",
            "git show f34aee8",
            "git show HEAD~1",
            "git -C sub show HEAD",
            "git grep x HEAD",
            "git grep x HEAD~1",
            "git -C sub grep x HEAD",
            "git archive HEAD",
            "git archive --format=tar HEAD",
            "git cat-file --batch",
            "git cat-file --batch-all-objects --batch",
            "git cat-file -p e021b4d",
            "git cat-file blob e021b4d",
            "git log -p",
            "git -C sub log -p",
            "git log -p -1 f34aee8",
            "git diff HEAD~1",
            "git diff 4b825dc642cb6eb9a060e54bf8d69288fbee4904",
            "git -C sub diff HEAD~1",
            "git fast-export --all",
            "git format-patch --stdout HEAD~2",
            "git status -v",
            "git status -sv",
            "git -C sub status --verbose",
            "git commit --dry-run -v",
            "git add -p",
            "git am --show-current-patch",
            "git --git-dir=.git show HEAD",
            "git --work-tree=sub show HEAD",
            "git -c alias.s=show s HEAD",
            "git -c core.fsmonitor=\"$C\" status",
            "git -ccore.fsmonitor=x status",
            "git --config-env=core.fsmonitor=V status",
            "GIT_EXTERNAL_DIFF=./x git status",
            "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.fsmonitor GIT_CONFIG_VALUE_0=x git status",
            "env GIT_EXTERNAL_DIFF=x git status",
            "export GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.fsmonitor GIT_CONFIG_VALUE_0=x; git status",
            "GIT_CONFIG_COUNT=1; export GIT_CONFIG_COUNT; git status",
            "source ./env.sh && git status",
            "set -a; GIT_DIR=x; git status",
            "set -o allexport; GIT_DIR=x; git status",
            "git s HEAD",
            "git $cmd HEAD",
            "git -C \"$d\" show HEAD:secrets/token",
            "cd \"$d\" && git show HEAD:secrets/token",
            "GIT_DIR=.git git show HEAD",
            // Pathspecs that may match any file.
            "git grep x -- ':!docs'",
            "git grep x -- ':^docs'",
            "git grep x -- ':(icase)SECRETS'",
            "git grep x -- ':(glob)s*/token'",
            "git -C sub grep x -- ':/!docs'",
            "hub show HEAD",
            "git-show HEAD",
            "echo HEAD:secrets/token | xargs git show",
            "git show $(echo HEAD:secrets/token)",
            "for r in HEAD:secrets/$(cat name); do git show $r; done",
            "git status $flags",
            "git commit $flags",
        ],
    )
    .await;
    // A loop over plain values runs its body with each one written in: the deny rule meets
    // the path the revision names.
    each(
        &rules,
        ws.path(),
        DENY,
        &["for r in HEAD:secrets/token; do git show $r; done"],
    )
    .await;
    // What prints no file contents stays allowed.
    each(
        &rules,
        ws.path(),
        ALLOW,
        &["git status", "git log --oneline", "git rev-parse HEAD"],
    )
    .await;
    // A harmless variable: no rule applies (no allow covers an assignment).
    each(
        &rules,
        ws.path(),
        None,
        &[
            "LANG=C git status",
            "export LANG=C; git status",
            "env LC_ALL=C git status",
            "set -euo pipefail; git status",
        ],
    )
    .await;
}

#[tokio::test]
async fn a_privileged_runner_is_never_covered_by_an_allow_rule() {
    let ws = workspace();
    let rules = rules(
        &[
            "Bash(npm test)",
            "Bash(npm:*)",
            "Bash(sudo:*)",
            "Bash(pkexec npm test)",
        ],
        &[],
        &[],
    );
    let root = ws.path();
    assert_eq!(
        code(&rules, &bash("npm test"), root).await.as_deref(),
        ALLOW
    );
    for c in [
        "sudo npm test",
        "sudo -u root npm test",
        "sudo -E npm test",
        "doas npm test",
        "su -c 'npm test'",
        "su root -c 'npm test'",
        "env sudo npm test",
        "timeout 5 sudo npm test",
        "sh -c 'sudo npm test'",
        "pkexec npm test",
        "run0 npm test",
        "runuser -u root -- npm test",
        "setpriv --reuid=0 npm test",
        "chroot / npm test",
        "systemd-run npm test",
        "npm test && sudo npm test",
        "sudo",
    ] {
        assert_eq!(code(&rules, &bash(c), root).await, None, "`{c}`");
    }
    // A whole-tool allow does not cover it either.
    let whole = rules_whole_bash();
    assert_eq!(
        code(&whole, &bash("ls"), root).await.as_deref(),
        EXPLICIT_ALLOW
    );
    assert_eq!(code(&whole, &bash("sudo ls"), root).await, None);
    assert_eq!(code(&whole, &bash("pkexec ls"), root).await, None);
}

const EXPLICIT_ALLOW: Option<&str> = Some(codes::EXPLICIT_TOOL_ALLOW);

fn rules_whole_bash() -> RuleEvaluator {
    rules(&["Bash"], &[], &[])
}

#[tokio::test]
async fn deny_rules_see_what_a_privileged_runner_runs() {
    let ws = workspace();
    let rules = rules(
        &["Bash(pkexec:*)"],
        &[],
        &["Bash(rm:*)", "Bash(git push:*)"],
    );
    let root = ws.path();
    each(
        &rules,
        root,
        DENY,
        &[
            "sudo rm -rf x",
            "pkexec rm -rf x",
            "pkexec --user root rm -rf x",
            "run0 -u root rm -rf x",
            "run0 --user=root rm -rf x",
            "runuser -u root -- rm -rf x",
            "runuser -l root -c 'rm -rf x'",
            "setpriv --reuid=0 --regid=0 --clear-groups rm -rf x",
            "chroot / rm -rf x",
            "chroot --userspec=0:0 / rm -rf x",
            "nsenter -t 1 -m rm -rf x",
            "pkexec sh -c 'rm -rf x'",
            "pkexec env rm -rf x",
            "pkexec git -C . push origin main",
            "pkexec pkexec pkexec rm -rf x",
            "sudo -iu root rm -rf x",
            "sudo -Eu root rm -rf x",
            "doas -u root rm -rf x",
            "sudo -u \"$U\" rm -rf x",
            "systemd-run --uid=0 rm -rf x",
        ],
    )
    .await;
    // What it runs cannot be read: any deny rule may apply, so it asks.
    each(
        &rules,
        root,
        ASK,
        &["pkexec \"$cmd\" -rf x", "chroot / $(echo rm) -rf x"],
    )
    .await;
    // What the shell reads under sudo with a word only known when it runs: no other rule.
    assert_eq!(
        code(&rules, &bash("sudo systemctl restart \"$svc\""), root).await,
        None
    );
}

#[tokio::test]
async fn a_working_directory_in_the_workspace_keeps_allow_rules() {
    let ws = workspace_with_sub();
    let root = ws.path();
    let rules = rules(
        &["Bash(npm test)", "Bash(cat:*)"],
        &[],
        &["Read(secrets/**)"],
    );
    let call = |command: &str, field: &str, dir: &str| {
        ToolCall::new("s", "c", "Bash", json!({ "command": command, field: dir }))
    };
    let inside = root.join("src").to_string_lossy().into_owned();
    for (field, dir) in [
        ("workdir", "src"),
        ("cwd", "src"),
        ("workdir", "."),
        ("workdir", inside.as_str()),
        // A link to a directory inside.
        ("workdir", "alias"),
    ] {
        assert_eq!(
            code(&rules, &call("npm test", field, dir), root)
                .await
                .as_deref(),
            ALLOW,
            "{field}: {dir}"
        );
    }
    let outside = tempfile::tempdir().expect("outside");
    std::os::unix::fs::symlink(outside.path(), root.join("out-link")).expect("out-link");
    let outside_text = outside.path().to_string_lossy().into_owned();
    for (field, dir) in [
        ("workdir", outside_text.as_str()),
        ("workdir", ".."),
        ("workdir", "out-link"),
        ("cwd", "~"),
    ] {
        assert_eq!(
            code(&rules, &call("npm test", field, dir), root).await,
            None,
            "{field}: {dir}"
        );
    }
    // Not one directory: no allow (and a word may be a path the deny rule names).
    let both = ToolCall::new(
        "s",
        "c",
        "Bash",
        json!({ "command": "npm test", "workdir": "src", "cwd": "sub" }),
    );
    assert_eq!(code(&rules, &both, root).await.as_deref(), ASK);
    let number = ToolCall::new(
        "s",
        "c",
        "Bash",
        json!({ "command": "npm test", "workdir": 3 }),
    );
    assert_eq!(code(&rules, &number, root).await.as_deref(), ASK);
    // Paths are read from that directory: the deny rule holds there.
    assert_eq!(
        code(&rules, &call("cat token", "workdir", "secrets"), root)
            .await
            .as_deref(),
        DENY
    );
    assert_eq!(
        code(&rules, &call("cat ../secrets/token", "cwd", "src"), root)
            .await
            .as_deref(),
        DENY
    );
    assert_eq!(
        code(&rules, &call("cat lib.rs", "workdir", "src"), root)
            .await
            .as_deref(),
        ALLOW
    );
    // Unknown: the deny rule may apply.
    let unknown = ToolCall::new(
        "s",
        "c",
        "Bash",
        json!({ "command": "cat token", "workdir": ["secrets"] }),
    );
    assert_eq!(code(&rules, &unknown, root).await.as_deref(), ASK);
}

#[tokio::test]
async fn a_relative_path_after_an_unknown_cd_may_be_any() {
    let ws = workspace();
    let rules = rules(&["Bash(cat:*)"], &[], &["Read(secrets/**)"]);
    each(
        &rules,
        ws.path(),
        ASK,
        &["cd \"$D\" && cat secrets/token", "cd \"$D\" && cat < token"],
    )
    .await;
}

#[tokio::test]
async fn a_directory_git_moves_to_inside_the_workspace_keeps_allow_rules() {
    let ws = workspace_with_sub();
    let root = ws.path();
    let rules = rules(&["Bash(git:*)"], &[], &[]);
    let inside = format!("git -C {} status", root.join("src").display());
    each(
        &rules,
        root,
        ALLOW,
        &[
            "git -C src status",
            "git -C sub log --oneline -3",
            "git -C src -C .. status",
            "cd src && git -C ../sub status",
            inside.as_str(),
        ],
    )
    .await;
    each(
        &rules,
        root,
        None,
        &[
            "git -C .. status",
            "git -C / status",
            "git -C ~ status",
            "git -C src -C ../.. status",
            "cd src && git -C ../.. status",
            "git -C \"$d\" status",
        ],
    )
    .await;
}

#[tokio::test]
async fn a_command_under_a_wrapper_the_table_does_not_model_is_not_covered() {
    let ws = workspace();
    let rules = rules(&["Bash(cargo test:*)", "Bash(ls)"], &[], &[]);
    let root = ws.path();
    for c in [
        "cargo test",
        "bash -c 'cargo test'",
        "sh -c 'cargo test'",
        "timeout 600 cargo test",
        "ls",
    ] {
        assert_eq!(
            code(&rules, &bash(c), root).await.as_deref(),
            ALLOW,
            "`{c}`"
        );
    }
    // A login or interactive shell typed into the command first runs the person's start-up
    // files; an argument vector's (the runtime's own) is judged elsewhere.
    for c in [
        "bash -lc 'cargo test'",
        "bash --login -c 'cargo test'",
        "'bash' '-lc' 'cargo test'",
        "bash -ic ls",
        "sh -l -c ls",
        "bash -c \"bash -lc 'cargo test'\"",
    ] {
        assert_eq!(code(&rules, &bash(c), root).await, None, "`{c}`");
    }
}

#[tokio::test]
async fn the_top_level_git_prints_keeps_allow_rules_only_with_no_repository_above() {
    let top = tempfile::tempdir().expect("a directory");
    let root = top.path().join("app");
    std::fs::create_dir_all(&root).expect("app");
    let rules = rules(
        &["Bash(cd:*)", "Bash(git rev-parse:*)", "Bash(npm test)"],
        &[],
        &[],
    );
    let command = "cd \"$(git rev-parse --show-toplevel)\" && npm test";
    assert_eq!(code(&rules, &bash(command), &root).await.as_deref(), ALLOW);
    // git finds the repository above when the workspace holds none it accepts.
    std::fs::create_dir_all(top.path().join(".git")).expect(".git");
    assert_eq!(code(&rules, &bash(command), &root).await, None);
    assert_eq!(
        code(&rules, &bash("npm test"), &root).await.as_deref(),
        ALLOW
    );
}
