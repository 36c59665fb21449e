//! What `fd` and `rg` print, as the words of another command (`fd -e rs | xargs wc -l`,
//! `rg -l foo | xargs head`): narrowed by `fd`'s extensions, `rg --files`' globs and `rg`'s
//! ignore files, never past a secret the narrowed walk may print.

mod support;

use support::{bash, context, decided, policy, verdict, workspace};
use warrant_core::call::PermissionMode;
use warrant_core::evaluator::Stance;

/// A private key, as a file holding one reads.
const PEM: &str =
    "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----\n";

/// Whether the policy allows `command` in default mode in a git work tree holding sources
/// and docs, the keys `deploy.pem` and `x.key` and a `.env`, with `.gitignore` leaving out
/// `.env` and `*.key` (not `deploy.pem`) when `ignored`.
async fn allowed(command: &str, ignored: bool) -> bool {
    let ws = workspace();
    let root = ws.path();
    std::fs::create_dir_all(root.join("docs")).expect("docs");
    std::fs::create_dir_all(root.join(".git")).expect(".git");
    std::fs::write(root.join("docs/guide.md"), "# guide foo\n").expect("guide");
    std::fs::write(root.join("Cargo.toml"), "[package]\nname = \"x\"\n").expect("toml");
    std::fs::write(root.join("README.md"), "# demo foo\n").expect("README.md");
    std::fs::write(root.join("x.key"), PEM).expect("x.key");
    std::fs::write(root.join(".env"), "TOKEN=foo\n").expect(".env");
    if ignored {
        std::fs::write(root.join(".gitignore"), ".env\n*.key\n").expect(".gitignore");
    } else {
        std::fs::write(root.join("deploy.pem"), PEM).expect("deploy.pem");
    }
    let cx = context(PermissionMode::Default, root);
    let (stance, _) = decided(verdict(&policy(), &bash(command), &cx).await);
    stance == Stance::PolicyAllow
}

async fn assert_allowed(commands: &[&str], ignored: bool) {
    for c in commands {
        assert!(allowed(c, ignored).await, "`{c}` should be allowed");
    }
}

async fn assert_open(commands: &[&str], ignored: bool) {
    for c in commands {
        assert!(!allowed(c, ignored).await, "`{c}` must not be allowed");
    }
}

#[tokio::test]
async fn fd_prints_only_the_extensions_it_is_given() {
    let near = [
        "fd -e rs | xargs wc -l",
        "fd -e rs -e toml | xargs wc -l",
        "fd --extension=md | xargs wc -l",
        "fd --extension .md | xargs head -3",
        "fd -t f -e md . docs | xargs wc -l",
        "fd -H -I -e rs | xargs wc -l",
    ];
    assert_allowed(&near, false).await;
    assert_allowed(&near, true).await;
    assert_open(
        &[
            // A secret's extension, whatever its case.
            "fd -e pem | xargs cat",
            "fd -e PEM | xargs cat",
            "fd -e rs -e key | xargs cat",
            "fd -H -e env | xargs cat",
            // Spellings that are no plain extension narrow nothing.
            "fd -e=rs | xargs cat",
            "fd -e 'p*' | xargs cat",
            "fd -e '[p]em' | xargs cat",
            "fd | xargs cat",
            "fd -t f | xargs cat",
            // A pattern is no extension.
            "fd rs | xargs cat",
            // Writing what it prints is judged as a write.
            "fd -e rs | xargs rm",
        ],
        false,
    )
    .await;
}

#[tokio::test]
async fn rg_prints_what_its_ignore_files_and_globs_leave_in() {
    assert_allowed(
        &[
            "rg --files | xargs wc -l",
            "rg --files --hidden | xargs wc -l",
            "rg --files -t rust | xargs wc -l",
            "rg -l foo | xargs head",
            "rg -l -i foo | xargs wc -l",
        ],
        true,
    )
    .await;
    let globbed = [
        "rg --files -g '*.rs' | xargs wc -l",
        "rg --files -g '*.rs' -g '*.md' | xargs wc -l",
        "rg --files --glob=*.toml | xargs cat",
    ];
    assert_allowed(&globbed, true).await;
    assert_allowed(&globbed, false).await;
    assert_open(
        &[
            // Options that override the ignore files.
            "rg --files -u | xargs cat",
            "rg --files -uu | xargs cat",
            "rg --files --no-ignore | xargs cat",
            "rg --files --no-ignore-vcs | xargs cat",
            "rg -l --no-ignore foo | xargs cat",
            "rg -l -u foo | xargs cat",
            // A glob overrides them too, and a negated or path glob narrows nothing.
            "rg --files -g '*.key' | xargs cat",
            "rg --files -g '*.KEY' | xargs cat",
            "rg --files -g '!*.md' | xargs cat",
            "rg --files -g '*.rs' -g '*.env' --hidden | xargs cat",
            "rg --files --iglob '*.rs' | xargs cat",
            "rg --files --sort path | xargs cat",
            // What it prints is still written, whatever the ignore files say.
            "rg -l foo | xargs sed -i s/a/b/",
        ],
        true,
    )
    .await;
    // Without ignore files every secret may be printed.
    assert_open(
        &[
            "rg --files | xargs cat",
            "rg -l foo | xargs cat",
            "rg -l PRIVATE | xargs head",
        ],
        false,
    )
    .await;
}
