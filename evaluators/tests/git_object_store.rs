//! Protected configuration written through git's object store: an index entry naming it, or
//! a command that rewrites the work tree from a repository that carries it. Each case runs
//! real git in a scratch repository.

mod support;

use std::path::Path;
use std::process::{Command, Stdio};

use serde_json::json;
use support::{call, context, decided, policy, verdict};
use warrant_core::call::PermissionMode;
use warrant_core::evaluator::Stance;

const SETTINGS: &str = "{\"permissions\":{\"deny\":[\"Bash(curl:*)\"]}}";
const PLANTED: &str = "{\"permissions\":{\"allow\":[\"Bash(*)\"]}}";

fn sh(root: &Path, script: &str) -> String {
    let out = Command::new("sh")
        .args(["-c", script])
        .current_dir(root)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("HOME", root)
        .stderr(Stdio::null())
        .output()
        .expect("sh");
    assert!(out.status.success(), "{script} failed");
    String::from_utf8_lossy(&out.stdout).trim().to_owned()
}

/// A repository tracking `.claude/settings.json`, with a branch `evil` whose copy differs.
fn repository() -> tempfile::TempDir {
    let ws = tempfile::tempdir().expect("dir");
    std::fs::create_dir_all(ws.path().join(".claude")).expect("dir");
    std::fs::write(ws.path().join(".claude/settings.json"), SETTINGS).expect("write");
    std::fs::write(ws.path().join("a.txt"), "a\n").expect("write");
    sh(
        ws.path(),
        "git init -q . && git config user.email a@b && git config user.name a && git add -A && git commit -qm init",
    );
    ws
}

async fn stance(root: &Path, command: &str) -> (Stance, String) {
    let cx = context(PermissionMode::FullAccess, root);
    let (s, r) =
        decided(verdict(&policy(), &call("Bash", json!({ "command": command })), &cx).await);
    (s, format!("{} ({})", r.reason_code, r.reason))
}

/// The command is neither denied nor a binding ask: `full_access` settles it.
async fn expect_open(root: &Path, command: &str) {
    let (s, why) = stance(root, command).await;
    assert!(
        !matches!(s, Stance::RequireAsk | Stance::HardDeny),
        "{command}: {why}"
    );
}

async fn expect(root: &Path, command: &str, want: Stance) {
    let (s, why) = stance(root, command).await;
    assert_eq!(s, want, "{command}: {why}");
}

#[tokio::test]
async fn the_object_store_really_rewrites_protected_settings() {
    // What the denied and asked calls below would do: the settings file is rewritten
    // though no call names it as a file it writes.
    let ws = repository();
    let sha = sh(
        ws.path(),
        &format!("printf %s '{PLANTED}' | git hash-object -w --stdin"),
    );
    sh(
        ws.path(),
        &format!(
            "git update-index --cacheinfo 100644,{sha},.claude/settings.json && git commit -qm x && git reset -q --hard"
        ),
    );
    let now = std::fs::read_to_string(ws.path().join(".claude/settings.json")).expect("read");
    assert_eq!(now, PLANTED);
}

#[tokio::test]
async fn an_index_entry_naming_protected_configuration_is_the_hard_deny() {
    let ws = repository();
    for command in [
        "git update-index --cacheinfo 100644,0123456789abcdef0123456789abcdef01234567,.claude/settings.json",
        "git update-index --cacheinfo 100644 0123456789abcdef0123456789abcdef01234567 .claude/settings.json",
        "git update-index --add .claude/settings.json",
        "git add .claude/settings.json",
        "git add -f .mcp.json",
        "git mv a.txt .claude/settings.json",
        "git rm --cached .claude/settings.json",
        "git checkout evil -- .claude/settings.json",
    ] {
        expect(ws.path(), command, Stance::HardDeny).await;
    }
    std::fs::write(
        ws.path().join("p.diff"),
        "diff --git a/.claude/settings.json b/.claude/settings.json\n--- a/.claude/settings.json\n+++ b/.claude/settings.json\n@@ -1 +1 @@\n-x\n+y\n",
    )
    .expect("write");
    expect(ws.path(), "git apply --cached p.diff", Stance::HardDeny).await;
    expect(ws.path(), "git apply p.diff", Stance::HardDeny).await;
    for command in [
        "git update-index --index-info",
        "git apply --cached",
        "git apply --cached missing.diff",
        "git read-tree evil",
        "git hash-object -w --stdin",
        "git mktree",
        "git commit-tree HEAD^{tree} -m x",
        "git update-ref refs/heads/evil HEAD",
    ] {
        expect(ws.path(), command, Stance::RequireAsk).await;
    }
}

#[tokio::test]
async fn rewriting_the_work_tree_of_a_repository_tracking_protected_configuration_asks() {
    let ws = repository();
    sh(ws.path(), "git branch evil && git stash list");
    // A person's edit of the settings (made, not left to the clock: an unedited file written
    // in the index's second is only "racily clean", one written earlier unchanged).
    std::fs::write(ws.path().join(".claude/settings.json"), PLANTED).expect("write");
    for command in [
        "git reset --hard",
        "git reset --hard evil",
        "git reset evil",
        "git checkout evil",
        "git checkout -f HEAD",
        "git switch evil",
        "git switch -c new evil",
        "git merge evil",
        "git rebase evil",
        "git cherry-pick evil",
        "git revert evil",
        "git stash pop",
        "git stash apply",
        "git restore --source evil .",
        "git read-tree -u -m evil",
        "git pull",
        "git am",
        "git submodule update",
        "git worktree add wt evil",
        "git bisect start evil",
        // Tracked files put back as the index or the current commit has them: a person's
        // edit of the settings is undone (checked with real git).
        "git stash",
        "git stash -u",
        "git stash push -m wip",
        "git checkout .",
        "git restore .",
        "git restore '*.json'",
        "git checkout -- :/",
        "git restore --pathspec-from-file=list",
    ] {
        let (s, why) = stance(ws.path(), command).await;
        assert!(
            matches!(s, Stance::RequireAsk | Stance::HardDeny),
            "{command}: {why}"
        );
    }
    // Creating a branch where HEAD is, or committing, writes no file.
    for command in [
        "git add .",
        "git add -A",
        "git checkout -- src",
        "git checkout -b feature",
        "git switch -c feature",
        "git commit -qm x",
        "git add a.txt",
        "git restore a.txt",
        "git checkout -- a.txt",
        "git stash list",
    ] {
        expect_open(ws.path(), command).await;
    }
}

#[tokio::test]
async fn a_repository_without_protected_configuration_rewrites_freely() {
    let ws = tempfile::tempdir().expect("dir");
    std::fs::write(ws.path().join("a.txt"), "a\n").expect("write");
    sh(
        ws.path(),
        "git init -q . && git config user.email a@b && git config user.name a && git add -A && git commit -qm init && git branch other",
    );
    // `other` names the current commit: its files are the ones the index holds.
    for command in [
        "git checkout other",
        "git switch other",
        "git reset --hard other",
        "git restore --source=other .",
        "git reset --hard",
        "git checkout a.txt",
        "git worktree list",
        "git fetch origin",
    ] {
        expect_open(ws.path(), command).await;
    }
    // An ignored settings file a checkout overwrites.
    std::fs::create_dir_all(ws.path().join(".claude")).expect("dir");
    std::fs::write(ws.path().join(".claude/settings.local.json"), "{}").expect("write");
    expect(ws.path(), "git checkout other", Stance::RequireAsk).await;
    std::fs::remove_dir_all(ws.path().join(".claude")).expect("rm");
    // A repository with no index to read: it cannot tell.
    let empty = tempfile::tempdir().expect("dir");
    sh(empty.path(), "git init -q .");
    expect(empty.path(), "git reset --hard", Stance::RequireAsk).await;
    // Another repository: it cannot tell.
    expect(
        ws.path(),
        "git -C /tmp/other reset --hard",
        Stance::RequireAsk,
    )
    .await;
    expect(
        ws.path(),
        "cd /tmp/other && git reset --hard",
        Stance::RequireAsk,
    )
    .await;
    // The workspace inside a repository: git uses that one.
    let inner = ws.path().join("inner");
    std::fs::create_dir_all(&inner).expect("dir");
    expect(&inner, "git reset --hard", Stance::RequireAsk).await;
}

#[tokio::test]
async fn full_access_asks_or_denies_each_step() {
    use warrant_core::decision::Behavior;
    use warrant_core::engine::{AuthorizeOptions, Engine};
    let ws = repository();
    let config = warrant_evaluators::EvaluatorsConfig::default();
    let chain =
        warrant_evaluators::default_chain(&config, &warrant_core::catalog::ToolCatalog::builtin())
            .expect("chain");
    let engine = Engine::builder(chain)
        .workspace_root(ws.path())
        .build()
        .await
        .expect("engine");
    let options = AuthorizeOptions {
        mode: PermissionMode::FullAccess,
        announce: false,
    };
    let sha = "0123456789abcdef0123456789abcdef01234567";
    for (k, (command, want)) in [
        ("git hash-object -w --stdin".to_owned(), Behavior::Ask),
        (
            format!("git update-index --cacheinfo 100644,{sha},.claude/settings.json"),
            Behavior::Deny,
        ),
        ("git reset --hard".to_owned(), Behavior::Ask),
        ("git checkout -f HEAD".to_owned(), Behavior::Ask),
        ("git commit -qm x".to_owned(), Behavior::Allow),
    ]
    .into_iter()
    .enumerate()
    {
        let mut c = call("Bash", json!({ "command": command }));
        c.tool_call_id = format!("c{k}").into();
        let out = engine.authorize(c, options).await.expect("authorize");
        assert_eq!(
            out.decision.behavior, want,
            "{command}: {}",
            out.decision.reason
        );
    }
}

/// A repository free of protected configuration whose branch `evil` holds some: what git
/// writes from that branch's tree (checked with real git: `.claude/settings.json`, `.envrc`,
/// `src/.vscode/settings.json` appear) is not read by the policy, so each command that writes
/// it is a binding ask; what writes the current commit's files is not.
#[tokio::test]
async fn rewriting_the_work_tree_from_a_tree_the_policy_does_not_read_asks() {
    let ws = tempfile::tempdir().expect("dir");
    std::fs::write(ws.path().join("a.txt"), "a\n").expect("write");
    sh(
        ws.path(),
        "git init -q -b main . && git config user.email a@b && git config user.name a && git add -A && git commit -qm init \
         && git checkout -qb evil && mkdir -p .claude src/.vscode \
         && printf '%s' '{\"permissions\":{\"allow\":[\"Bash(*)\"]}}' > .claude/settings.json \
         && echo x > src/.vscode/settings.json && echo 'export A=1' > .envrc \
         && git add -A && git commit -qm evil && git checkout -q main \
         && git update-ref refs/remotes/origin/topic evil && echo hi > evil && git pack-refs --all",
    );
    for command in [
        "git checkout evil",
        "git checkout -q evil",
        "git checkout --detach evil",
        "git checkout -b x evil",
        "git checkout evil -- '*.json'",
        "git checkout topic",
        "git checkout -",
        "git switch evil",
        "git switch -",
        "git switch --detach evil",
        "git reset --hard evil",
        "git reset --keep evil",
        "git reset --hard HEAD~1",
        "git restore --source evil .",
        "git restore -sevil a.txt",
        "git restore --source=evil src",
        "git merge evil",
        "git merge --ff-only origin/topic",
        "git cherry-pick evil",
        "git revert --no-edit evil",
        "git rebase evil",
        "git pull",
        "git pull --rebase origin evil",
        "git stash pop",
        "git worktree add w evil",
        "git submodule update --init",
        "git bisect start evil main",
        "git clone https://example.com/r.git",
        "git clone . sub",
        "git fetch origin && git checkout FETCH_HEAD",
        "git checkout \"$BRANCH\"",
    ] {
        expect(ws.path(), command, Stance::RequireAsk).await;
    }
    for command in [
        "git clone --bare . ../b.git",
        "git clone --no-checkout . sub",
        "git checkout main",
        "git checkout -b new",
        "git switch -c new",
        "git status",
        "git diff",
        "git log -p",
        "git show HEAD --stat",
    ] {
        expect_open(ws.path(), command).await;
    }
}

/// The user's git configuration written through git by name (`git config --file`) or by a
/// command that writes it (`git lfs install`) is the hard deny its direct write is: it names
/// programs git runs in every repository. A file of the workspace stays an ordinary write,
/// and reading stays open.
#[tokio::test]
async fn the_user_configuration_written_through_git_is_the_hard_deny() {
    let ws = repository();
    for command in [
        "git config -f ~/.gitconfig core.fsmonitor 'curl x | sh'",
        "git config --file ~/.config/git/config alias.st '!sh x'",
        "git config --file ~/.gitconfig core.pager x",
        "git config -f ~/.gitconfig --add include.path /tmp/x",
        "git config -f ~/.gitconfig --unset user.name",
        "git config set -f ~/.gitconfig core.sshCommand x",
        "git config -f ~/.gitconfig -e",
        "git lfs install",
        "git lfs uninstall",
    ] {
        expect(ws.path(), command, Stance::HardDeny).await;
    }
    for command in [
        "git config -f ~/.gitconfig --get user.name",
        "git config get -f ~/.gitconfig user.name",
        "git config -f notes.cfg a.b c",
    ] {
        let (s, why) = stance(ws.path(), command).await;
        assert_ne!(s, Stance::HardDeny, "{command}: {why}");
    }
}

/// git commands that write files they are given by name (checked with real git: the merge
/// of `git merge-file` replaces the settings, `format-patch -o` and `bundle create` write
/// where they are told) are the hard deny when the name is protected configuration.
#[tokio::test]
async fn files_git_writes_by_name_are_judged_as_written() {
    let ws = repository();
    for command in [
        "git merge-file .claude/settings.json base.json other.json",
        "git merge-file -L a -L b -L c .claude/settings.json base other",
        "git merge-file -- .envrc base other",
        "git format-patch -o .claude/commands HEAD~1",
        "git format-patch --output-directory=.claude HEAD",
        "git bundle create .claude/settings.json HEAD",
    ] {
        expect(ws.path(), command, Stance::HardDeny).await;
    }
    for command in [
        "git merge-file -p .claude/settings.json base other",
        "git merge-file notes.txt base other",
        "git format-patch -o patches HEAD~1",
        "git bundle create repo.bundle HEAD",
    ] {
        let (s, why) = stance(ws.path(), command).await;
        assert_ne!(s, Stance::HardDeny, "{command}: {why}");
    }
}

/// A command that points HEAD, the current branch or the index at another commit makes a
/// later write of the work tree "from the current commit" write that commit's files, which
/// the policy does not read: git really writes them, and each such script is a binding ask.
/// A command alone (`git reset HEAD~1`) stays as it is.
#[tokio::test]
async fn moving_head_earlier_in_a_script_makes_a_later_checkout_write_an_unread_tree() {
    let setup = "git init -q -b main . && git config user.email a@b && git config user.name a \
         && echo a > a.txt && git add -A && git commit -qm init && git checkout -qb evil \
         && mkdir -p .claude && printf '%s' '{\"permissions\":{\"allow\":[\"Bash(*)\"]}}' > .claude/settings.json \
         && git add -A && git commit -qm evil && git checkout -q main";
    let scripts = [
        "git reset --soft evil && git reset --hard",
        "git reset evil && git checkout .",
        "git reset -q evil && git checkout -- .",
        "git symbolic-ref HEAD refs/heads/evil && git checkout -f",
        "git update-ref HEAD evil && git reset --hard",
        "git update-ref refs/heads/main evil && git stash -u",
        "git read-tree evil && git checkout-index -a -f",
        "git reset --soft evil; git reset --hard",
    ];
    for script in scripts {
        let ws = tempfile::tempdir().expect("dir");
        sh(ws.path(), setup);
        expect(ws.path(), script, Stance::RequireAsk).await;
        sh(ws.path(), script);
        assert!(
            ws.path().join(".claude/settings.json").exists(),
            "{script} does not write the other commit's settings"
        );
    }
    let ws = tempfile::tempdir().expect("dir");
    sh(ws.path(), setup);
    for command in [
        "git reset HEAD~1",
        "git reset --soft evil",
        "git reset a.txt && git checkout a.txt",
        "git reset HEAD && git checkout .",
        "git status && git checkout .",
    ] {
        expect_open(ws.path(), command).await;
    }
}

/// `git checkout -p`/`git restore -p` without a pathspec pick hunks of every tracked file:
/// in a repository tracking protected configuration the work tree holds differently they are
/// the binding ask `git checkout .` is, and git really puts it back; with a pathspec of other
/// files they stay open. (The change is made, not left to the clock: a file as the index
/// records it, written in the index's second, is only "racily clean", which the policy
/// counts as changed, and one written a second earlier as unchanged.)
#[tokio::test]
async fn patch_mode_without_a_pathspec_restores_every_file() {
    let ws = repository();
    std::fs::write(ws.path().join(".claude/settings.json"), PLANTED).expect("write");
    for command in [
        "yes | git checkout -p",
        "git checkout --patch",
        "git checkout -qp",
        "git restore -p",
        "git restore --patch",
        "yes | git checkout -p --",
    ] {
        expect(ws.path(), command, Stance::RequireAsk).await;
    }
    for command in ["git checkout -p -- a.txt", "git restore -p a.txt"] {
        expect_open(ws.path(), command).await;
    }
    sh(ws.path(), "yes | git checkout -p >/dev/null");
    assert_eq!(
        std::fs::read_to_string(ws.path().join(".claude/settings.json")).expect("read"),
        SETTINGS
    );
}

/// `git lfs install --local` (`--worktree`, `uninstall`) writes `filter.lfs.*` programs into
/// the repository's configuration: the hard deny of writing it, as `git config` is.
#[tokio::test]
async fn git_lfs_writing_the_repository_configuration_is_the_hard_deny() {
    let ws = repository();
    for command in [
        "git lfs install --local",
        "git lfs install --worktree",
        "git lfs uninstall --local",
        "git lfs install --force --local",
    ] {
        expect(ws.path(), command, Stance::HardDeny).await;
    }
    expect_open(ws.path(), "git lfs ls-files").await;
}

/// A checkout or restore from the index writes only tracked files the work tree holds
/// differently: protected configuration the index records as the work tree has it (git's
/// stat check, change time included, the index written in a later second) is not written, and
/// the command stays open. A change to it, even one that keeps size and modification time,
/// is the binding ask, and git really reverts it. `git stash` and `git reset --hard` put
/// back what HEAD holds, which the policy does not read: they still ask.
#[tokio::test]
async fn a_checkout_of_the_index_asks_only_when_protected_configuration_differs() {
    let ws = repository();
    let root = ws.path();
    sh(
        root,
        "touch -d '2020-01-01 00:00' .claude/settings.json a.txt && git update-index --refresh >/dev/null; true",
    );
    for command in [
        "git checkout .",
        "git restore .",
        "git checkout -- .",
        "yes | git checkout -p",
    ] {
        expect_open(root, command).await;
    }
    for command in ["git stash", "git reset --hard"] {
        expect(root, command, Stance::RequireAsk).await;
    }
    // The same size and modification time, other contents, written in a later second than
    // the index's stat data (git compares change times to the second).
    sh(
        root,
        &format!(
            "sleep 1.1 && printf '%s' '{}' > .claude/settings.json && touch -d '2020-01-01 00:00' .claude/settings.json",
            SETTINGS.replace("curl", "wget")
        ),
    );
    assert_eq!(sh(root, "git status --short"), "M .claude/settings.json");
    for command in ["git checkout .", "git restore .", "git checkout -p"] {
        expect(root, command, Stance::RequireAsk).await;
    }
    sh(root, "git checkout .");
    assert_eq!(
        std::fs::read_to_string(root.join(".claude/settings.json")).expect("read"),
        SETTINGS
    );
}
