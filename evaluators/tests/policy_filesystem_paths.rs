//! File tools are judged by where their paths resolve: `..`, `~` and symlinks included.

mod support;

use serde_json::{Value, json};
use support::{
    HOME, assert_codes, call, context_with_catalog, decided, policy, verdict, workspace,
};
use warrant_core::call::PermissionMode;
use warrant_evaluators::policy::codes::*;

async fn check(root: &std::path::Path, rows: &[(&str, Value, &str)]) {
    let cx = context_with_catalog(PermissionMode::Default, root);
    let rows: Vec<_> = rows
        .iter()
        .map(|(tool, input, code)| (call(tool, input.clone()), Some(*code)))
        .collect();
    assert_codes(&policy(), &cx, &rows).await;
}

#[tokio::test]
async fn reads_inside_are_allowed_and_reads_outside_ask() {
    let ws = workspace();
    let abs = ws.path().join("src/main.rs").display().to_string();
    check(
        ws.path(),
        &[
            ("view", json!({"path": "src/main.rs"}), READ_ONLY_TOOL),
            ("view", json!({"path": abs}), READ_ONLY_TOOL),
            (
                "view",
                json!({"path": "src/../src/main.rs"}),
                READ_ONLY_TOOL,
            ),
            (
                "grep",
                json!({"pattern": "fn", "path": "src"}),
                READ_ONLY_TOOL,
            ),
            ("glob", json!({"pattern": "**/*.rs"}), READ_ONLY_TOOL),
            (
                "lsp_ts_hover",
                json!({"uri": format!("file://{}", ws.path().join("src/main.rs").display())}),
                READ_ONLY_TOOL,
            ),
            ("lsp_ts_references", json!({}), READ_ONLY_TOOL),
            (
                "view",
                json!({"path": "../elsewhere.txt"}),
                FILESYSTEM_OUTSIDE_WORKSPACE,
            ),
            (
                "view",
                json!({"path": "/etc/hosts"}),
                FILESYSTEM_OUTSIDE_WORKSPACE,
            ),
            (
                "view",
                json!({"path": "~/notes.txt"}),
                FILESYSTEM_OUTSIDE_WORKSPACE,
            ),
            (
                "glob",
                json!({"pattern": "../**/*.rs"}),
                FILESYSTEM_OUTSIDE_WORKSPACE,
            ),
            // A file outside; a tree outside is searched for secrets first (a secret found
            // there is the hard deny, as for `grep -r`).
            (
                "grep",
                json!({"pattern": "x", "path": "/etc/hosts"}),
                FILESYSTEM_OUTSIDE_WORKSPACE,
            ),
        ],
    )
    .await;
}

#[tokio::test]
async fn writes_inside_stay_open_and_writes_elsewhere_ask_or_deny() {
    let ws = workspace();
    check(
        ws.path(),
        &[
            (
                "Edit",
                json!({"path": "src/main.rs"}),
                FILESYSTEM_WRITE_INSIDE_WORKSPACE,
            ),
            (
                "Write",
                json!({"path": "new/dir/file.txt"}),
                FILESYSTEM_WRITE_INSIDE_WORKSPACE,
            ),
            (
                "Write",
                json!({"path": "../outside.txt"}),
                FILESYSTEM_OUTSIDE_WORKSPACE,
            ),
            (
                "Edit",
                json!({"path": "~/notes.txt"}),
                FILESYSTEM_OUTSIDE_WORKSPACE,
            ),
            (
                "Write",
                json!({"path": "/etc/passwd"}),
                FILESYSTEM_SYSTEM_PATH,
            ),
            (
                "Write",
                json!({"path": "/usr/local/bin/tool"}),
                FILESYSTEM_SYSTEM_PATH,
            ),
            ("Write", json!({"path": "/dev/sda"}), FILESYSTEM_SYSTEM_PATH),
            ("Write", json!({"content": "x"}), VALIDATION_INVALID_INPUT),
        ],
    )
    .await;
}

#[tokio::test]
async fn secrets_are_denied_for_reads_and_writes() {
    let ws = workspace();
    check(
        ws.path(),
        &[
            (
                "view",
                json!({"path": "~/.ssh/id_ed25519"}),
                FILESYSTEM_SENSITIVE_PATH,
            ),
            (
                "view",
                json!({"path": format!("{HOME}/.aws/credentials")}),
                FILESYSTEM_SENSITIVE_PATH,
            ),
            ("view", json!({"path": ".env"}), FILESYSTEM_SENSITIVE_PATH),
            (
                "view",
                json!({"path": "config/.env.production"}),
                FILESYSTEM_SENSITIVE_PATH,
            ),
            (
                "view",
                json!({"path": "certs/server.pem"}),
                FILESYSTEM_SENSITIVE_PATH,
            ),
            (
                "view",
                json!({"path": "/etc/shadow"}),
                FILESYSTEM_SENSITIVE_PATH,
            ),
            (
                "view",
                json!({"path": "~/Library/Keychains/login.keychain-db"}),
                FILESYSTEM_SENSITIVE_PATH,
            ),
            ("Edit", json!({"path": ".env"}), FILESYSTEM_SENSITIVE_PATH),
            ("view", json!({"path": ".env.example"}), READ_ONLY_TOOL),
        ],
    )
    .await;
}

#[tokio::test]
async fn symlinks_are_followed_to_where_they_lead() {
    let ws = workspace();
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(outside.path().join("id_rsa"), "key").unwrap();
    std::os::unix::fs::symlink(outside.path(), ws.path().join("linked")).unwrap();
    std::os::unix::fs::symlink(
        outside.path().join("id_rsa"),
        ws.path().join("innocent.txt"),
    )
    .unwrap();
    check(
        ws.path(),
        &[
            (
                "Write",
                json!({"path": "linked/new.txt"}),
                FILESYSTEM_OUTSIDE_WORKSPACE,
            ),
            (
                "view",
                json!({"path": "innocent.txt"}),
                FILESYSTEM_SENSITIVE_PATH,
            ),
        ],
    )
    .await;
}

#[tokio::test]
async fn configured_secrets_are_protected_too() {
    let ws = workspace();
    let p = warrant_evaluators::PolicyEvaluator::new(&warrant_evaluators::PolicyConfig {
        home_dir: Some(HOME.into()),
        sensitive_paths: vec!["vault/**".to_owned()],
        protected_paths: Vec::new(),
    })
    .unwrap();
    let cx = context_with_catalog(PermissionMode::Default, ws.path());
    let (_, r) = decided(verdict(&p, &call("view", json!({"path": "vault/a.txt"})), &cx).await);
    assert_eq!(r.reason_code, FILESYSTEM_SENSITIVE_PATH);
    let bad = warrant_evaluators::PolicyConfig {
        home_dir: None,
        sensitive_paths: vec!["[".to_owned()],
        protected_paths: Vec::new(),
    };
    let e = warrant_evaluators::PolicyEvaluator::new(&bad)
        .unwrap_err()
        .to_string();
    assert!(e.starts_with("sensitive path glob \"[\" is invalid"), "{e}");
}

#[tokio::test]
async fn escaped_characters_of_a_pattern_are_read_as_a_glob_reads_them() {
    use warrant_core::evaluator::Stance;
    let ws = workspace();
    std::fs::write(ws.path().join(".env"), "KEY=v\n").expect(".env");
    std::fs::create_dir_all(ws.path().join(".git/hooks")).expect("hooks");
    let abs = ws.path().display().to_string();
    let p = policy();
    let cx = context_with_catalog(PermissionMode::FullAccess, ws.path());
    let rows = [
        // `\x` in a glob is `x`: each pattern matches a secret or protected configuration.
        ("view", json!({"path": ".\\en?"}), true),
        ("view", json!({"path": "[.]e\\nv"}), true),
        ("view", json!({"path": format!("{abs}/.\\e\\n*")}), true),
        ("view", json!({"path": "\\.en[v]"}), true),
        (
            "Write",
            json!({"path": "/root/.bash\\r?", "content": "x"}),
            true,
        ),
        (
            "Write",
            json!({"path": ".git/hook\\s/pre-commi?", "content": "x"}),
            true,
        ),
        (
            "Edit",
            json!({"path": "~/.zsh\\rc*", "old_string": "a", "new_string": "b"}),
            true,
        ),
        // Patterns of ordinary names stay open, settled by the mode.
        ("view", json!({"path": "README.md"}), false),
        ("view", json!({"path": "src/ma\\in.r?"}), false),
        ("view", json!({"path": "src/main.r\\s"}), false),
    ];
    let mut wrong = Vec::new();
    for (tool, input, binds) in rows {
        let (stance, r) = decided(verdict(&p, &call(tool, input.clone()), &cx).await);
        let bound = matches!(stance, Stance::RequireAsk | Stance::HardDeny);
        if bound != binds {
            wrong.push(format!("{tool} {input}: {stance:?} ({})", r.reason));
        }
    }
    assert!(wrong.is_empty(), "\n{}", wrong.join("\n"));
}

/// A search tool's pattern, glob, include or type that starts with `-` is open: a runtime
/// that hands it to `rg` as an argument of its own runs `rg --pre=sh PATH`, and `--pre` runs
/// a program on every file searched. What starts otherwise is read as before.
#[tokio::test]
async fn search_arguments_that_read_as_options_are_open() {
    let ws = workspace();
    check(
        ws.path(),
        &[
            (
                "Grep",
                json!({"pattern": "--pre=sh", "path": "src"}),
                FILESYSTEM_OUTSIDE_WORKSPACE,
            ),
            (
                "Grep",
                json!({"pattern": "-z", "path": "src"}),
                FILESYSTEM_OUTSIDE_WORKSPACE,
            ),
            (
                "Grep",
                json!({"pattern": "x", "path": "src", "glob": "--pre=sh"}),
                FILESYSTEM_OUTSIDE_WORKSPACE,
            ),
            (
                "search_file_content",
                json!({"pattern": "x", "include": ["*.rs", "--pre=sh"]}),
                FILESYSTEM_OUTSIDE_WORKSPACE,
            ),
            (
                "grep_search",
                json!({"query": "--pre=sh"}),
                FILESYSTEM_OUTSIDE_WORKSPACE,
            ),
            (
                "Glob",
                json!({"pattern": "-delete"}),
                FILESYSTEM_OUTSIDE_WORKSPACE,
            ),
            (
                "Grep",
                json!({"pattern": "fn -x", "path": "src"}),
                READ_ONLY_TOOL,
            ),
            (
                "Grep",
                json!({"pattern": "TODO", "path": "src", "glob": "*.rs"}),
                READ_ONLY_TOOL,
            ),
        ],
    )
    .await;
}
