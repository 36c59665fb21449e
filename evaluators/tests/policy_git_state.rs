//! git's own state: writing its configuration is writing protected configuration, a template
//! given to `git init` installs hooks, `git clean` may delete protected configuration and
//! secrets, and remote URLs are not printed while the configuration puts a credential in
//! them. What runs a program it is given (`tar -I`, sed's `e`) is never routine work for the
//! auto reviewer.

mod support;

use support::{bash, context, decided, verdict, workspace};
use warrant_core::call::PermissionMode;
use warrant_core::decision::{Behavior, Risk};
use warrant_core::evaluator::Stance;
use warrant_evaluators::classifier::{Classifier, HeuristicClassifier, Review};
use warrant_evaluators::{PolicyConfig, PolicyEvaluator};

/// A workspace whose repository has a remote (with `token`, a credential in its URL), an
/// index-less repository, untracked Claude Code settings and, when `secrets`, an `.env`.
fn fixture(token: bool, secrets: bool) -> (tempfile::TempDir, tempfile::TempDir) {
    let ws = workspace();
    let root = ws.path();
    let url = if token {
        "https://user:ghp_CANARY@github.com/a/b"
    } else {
        "https://github.com/a/b"
    };
    let config = format!(
        "[core]\n\trepositoryformatversion = 0\n\tbare = false\n[remote \"origin\"]\n\turl = {url}\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n"
    );
    let mut files = vec![
        (".git/config", config.as_str()),
        (".git/HEAD", "ref: refs/heads/main\n"),
        ("src/main.rs", "fn main() {}\n"),
        ("tpl/hooks/pre-commit", "#!/bin/sh\n"),
    ];
    if secrets {
        files.push((".env", "KEY=1\n"));
        files.push((".claude/settings.json", "{}\n"));
    }
    for (rel, text) in files {
        let path = root.join(rel);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("dir");
        std::fs::write(path, text).expect("file");
    }
    // What git needs to take `.git` for a repository.
    for dir in [".git/objects", ".git/refs/heads"] {
        std::fs::create_dir_all(root.join(dir)).expect("dir");
    }
    let home = tempfile::tempdir().expect("home");
    (ws, home)
}

fn policy(home: &std::path::Path) -> PolicyEvaluator {
    PolicyEvaluator::new(&PolicyConfig {
        home_dir: Some(home.to_path_buf()),
        sensitive_paths: Vec::new(),
        protected_paths: Vec::new(),
    })
    .expect("policy")
}

/// The stance of the policy in Full Access on each command, every mismatch listed at once.
async fn stances(token: bool, secrets: bool, rows: &[(&str, Stance)]) {
    let (ws, home) = fixture(token, secrets);
    let policy = policy(home.path());
    let cx = context(PermissionMode::FullAccess, ws.path());
    let mut wrong = Vec::new();
    for (command, expected) in rows {
        let (stance, rationale) = decided(verdict(&policy, &bash(command), &cx).await);
        if stance != *expected {
            wrong.push(format!(
                "{command}: expected {expected:?}, got {stance:?} ({})",
                rationale.reason
            ));
        }
    }
    assert!(wrong.is_empty(), "\n{}", wrong.join("\n"));
}

#[tokio::test]
async fn writing_git_configuration_is_writing_protected_configuration() {
    use Stance::{DefaultAsk, HardDeny, PolicyAllow, RequireAsk};
    stances(
        false,
        false,
        &[
            ("git config core.fsmonitor 'touch p'", HardDeny),
            ("git config core.hooksPath evil/hooks", HardDeny),
            ("git config --local core.sshCommand 'sh -c x'", HardDeny),
            ("git config alias.st '!rm -rf ~'", HardDeny),
            ("git config --global alias.st '!rm -rf ~'", HardDeny),
            ("git config --add core.hooksPath x", HardDeny),
            ("git config set core.hooksPath x", HardDeny),
            ("git config --replace-all core.pager less", HardDeny),
            ("git config --unset core.fsmonitor", HardDeny),
            ("git config --remove-section core", HardDeny),
            ("git config --rename-section user core", HardDeny),
            ("git config -e", HardDeny),
            (
                "git config remote.origin.url https://evil.example/x",
                HardDeny,
            ),
            ("git config include.path ../x", HardDeny),
            ("git config \"$K\" x", HardDeny),
            ("git config $OPT core.pager", HardDeny),
            ("git config core.pager 'sh -c id' --get", HardDeny),
            ("git config -- core.fsmonitor 'sh -c id' --get", HardDeny),
            ("git config $OPT", RequireAsk),
            ("git config init.templateDir tpl && git init", HardDeny),
            (
                "git remote set-url origin https://evil.example/x",
                RequireAsk,
            ),
            ("git remote add evil 'ext::sh -c touch% p'", RequireAsk),
            ("git remote rename origin x", RequireAsk),
            // Keys that only choose among git's own behaviours stay open writes.
            ("git config user.name 'A B'", DefaultAsk),
            ("git config --global user.email a@b.c", DefaultAsk),
            ("git config pull.rebase true", DefaultAsk),
            // Reads stay as they were.
            ("git config --get user.name", PolicyAllow),
            ("git config user.name", PolicyAllow),
            ("git remote", PolicyAllow),
            ("git status", PolicyAllow),
        ],
    )
    .await;
}

#[tokio::test]
async fn a_template_given_to_init_installs_hooks() {
    use Stance::{DefaultAsk, HardDeny, RequireAsk};
    stances(
        false,
        false,
        &[
            ("git init --template=tpl", HardDeny),
            ("git init --template tpl .", HardDeny),
            ("git init --templ=tpl", HardDeny),
            ("git -c init.templateDir=tpl init", HardDeny),
            ("git -c init.templatedir=tpl clone https://x/y", HardDeny),
            ("GIT_TEMPLATE_DIR=tpl git init", HardDeny),
            ("export GIT_TEMPLATE_DIR=tpl; git init", HardDeny),
            ("git clone --template=tpl https://x/y", HardDeny),
            ("git init", DefaultAsk),
            ("git clone -c core.hooksPath=hooks https://x/y", HardDeny),
            (
                "git clone --config core.fsmonitor=x --no-checkout https://x/y",
                HardDeny,
            ),
            ("git clone --config=alias.st=!sh -n https://x/y", HardDeny),
            ("git clone -ccore.pager=x -n https://x/y", HardDeny),
            ("git init \"$D\"", RequireAsk),
            ("git init sub", DefaultAsk),
        ],
    )
    .await;
}

#[tokio::test]
async fn git_clean_asks_when_it_may_delete_protected_configuration_or_secrets() {
    use Stance::{DefaultAsk, HardDeny, PolicyAllow, RequireAsk};
    stances(
        false,
        true,
        &[
            ("git clean -fdx", RequireAsk),
            ("git clean -fdX", RequireAsk),
            ("git clean -f -d -x", RequireAsk),
            ("git clean --force -x", RequireAsk),
            ("git clean -fdx .claude", HardDeny),
            ("git clean -ffdx -- .claude", HardDeny),
            ("git clean -fdx $D", RequireAsk),
            // Paths that hold neither stay as they were; a dry run only lists names.
            ("git clean -fdx src", DefaultAsk),
            ("git clean -n", PolicyAllow),
        ],
    )
    .await;
    stances(false, false, &[("git clean -fdx", DefaultAsk)]).await;
}

#[tokio::test]
async fn remote_urls_holding_a_credential_are_not_printed_in_any_mode() {
    use Stance::{DefaultAsk, PolicyAllow, RequireAsk};
    stances(
        true,
        false,
        &[
            ("git remote -v", RequireAsk),
            ("git remote --verbose", RequireAsk),
            ("git remote get-url origin", RequireAsk),
            ("git remote show origin", RequireAsk),
            ("git config --get remote.origin.url", RequireAsk),
            ("git config remote.origin.url", RequireAsk),
            ("git config get remote.origin.url", RequireAsk),
            ("git config --list", RequireAsk),
            ("git config -l --show-origin", RequireAsk),
            ("git config --get-regexp url", RequireAsk),
            ("git config list", RequireAsk),
            ("git -C . remote -v", RequireAsk),
            ("git config --get user.name", PolicyAllow),
            ("git remote", PolicyAllow),
            ("git log --oneline", PolicyAllow),
        ],
    )
    .await;
    // Without a credential, nothing changes.
    stances(
        false,
        false,
        &[
            ("git remote -v", PolicyAllow),
            ("git config --get remote.origin.url", PolicyAllow),
            ("git config --list", DefaultAsk),
            ("git remote get-url origin", DefaultAsk),
        ],
    )
    .await;
}

#[tokio::test]
async fn a_global_configuration_with_a_credential_in_a_url_is_read_for_listings() {
    let (ws, home) = fixture(false, false);
    std::fs::write(
        home.path().join(".gitconfig"),
        "[url \"https://user:tok@github.com/\"]\n\tinsteadOf = https://github.com/\n",
    )
    .expect("global");
    let policy = policy(home.path());
    let cx = context(PermissionMode::FullAccess, ws.path());
    for command in [
        "git config --global --list",
        "git remote -v",
        "git config -l",
    ] {
        let (stance, _) = decided(verdict(&policy, &bash(command), &cx).await);
        assert_eq!(stance, Stance::RequireAsk, "{command}");
    }
    let (stance, _) = decided(verdict(&policy, &bash("git config --local --list"), &cx).await);
    assert_eq!(stance, Stance::DefaultAsk);
}

#[tokio::test]
async fn a_program_an_option_or_a_script_runs_is_never_a_routine_write() {
    let (ws, home) = fixture(false, false);
    let cx = context(PermissionMode::Auto, ws.path());
    let reviewer = HeuristicClassifier::new(policy(home.path()));
    let review = |command: &'static str| {
        let call = bash(command);
        let cx = &cx;
        let reviewer = &reviewer;
        async move {
            reviewer
                .classify(&Review {
                    call: &call,
                    context: cx,
                })
                .await
                .expect("review")
        }
    };
    for command in [
        "sed -i '1e touch p' src/main.rs",
        "sed -i 's/.*/&/e' src/main.rs",
        "sed -i -e 's/a/b/' -e '$e touch p' src/main.rs",
        "sed -i 'w /tmp/x' src/main.rs",
        "tar -cf x.tar -I 'touch p' src",
        "tar -cf x.tar --checkpoint=1 --checkpoint-action=exec='touch p' src",
        "tar --use-compress-program=./evil.sh -cf x.tar src",
        "tar -cf x.tar --rsh-command='touch p' h:/x src",
        "tar -cf x.tar -F 'touch p' -M src",
        "tar -cf x.tar --info-script='touch p' src",
    ] {
        let out = review(command).await;
        assert_eq!(out.behavior, Behavior::Ask, "{command}");
        assert!(out.risk >= Risk::High, "{command}: {:?}", out.risk);
    }
    for command in ["sed -i 's/a/b/' src/main.rs", "tar -czf x.tar.gz src"] {
        assert_eq!(review(command).await.behavior, Behavior::Allow, "{command}");
    }
}

/// git takes any unique prefix of a long option (`--mirr` is `--mirror`; checked with real
/// git: `git push --mirr` deleted the remote's other branches), and a push that deletes the
/// remote's branches (`--delete`, `-d`, `:main`, `--prune`) rewrites its history as a forced
/// one does: the hard deny of `git push -f`. A plain push stays open.
#[tokio::test]
async fn pushes_that_rewrite_or_delete_remote_branches_are_the_force_push_deny() {
    use Stance::{DefaultAsk, HardDeny, RequireAsk};
    stances(
        false,
        true,
        &[
            ("git push --mirr origin", HardDeny),
            ("git push --mi origin", HardDeny),
            ("git push --force-w origin main", HardDeny),
            ("git push --force-with-lease origin main", HardDeny),
            ("git push --force-i origin main", HardDeny),
            ("git push --delete origin main", HardDeny),
            ("git push --del origin main", HardDeny),
            ("git push -d origin main", HardDeny),
            ("git push -ud origin main", HardDeny),
            ("git push origin :main", HardDeny),
            ("git push origin main :old", HardDeny),
            ("git push origin +main", HardDeny),
            ("git push --prune origin", HardDeny),
            ("git push --pru origin 'refs/heads/*'", HardDeny),
            ("git -C . push --mirr origin", HardDeny),
            ("git --attr-source HEAD push --mirror origin", HardDeny),
            ("git --super-prefix x push --mirr origin", HardDeny),
            ("git --attr-source=HEAD --no-pager push -f origin", HardDeny),
            ("git clean --forc", RequireAsk),
            ("git push origin main", DefaultAsk),
            ("git push -u origin feature", DefaultAsk),
            ("git push --set-up origin feature", DefaultAsk),
            ("git push origin HEAD:main", DefaultAsk),
        ],
    )
    .await;
}

/// Shell code git hands to a shell (`submodule foreach`, `rebase --exec`, `bisect run`,
/// `difftool --extcmd`, `filter-branch`'s filters, `--receive-pack`/`--upload-pack`, a `!`
/// alias) is judged as the same code given to `bash -c`: reading a secret through it is the
/// deny it is there.
#[tokio::test]
async fn shell_code_git_runs_is_judged_as_bash_c_judges_it() {
    let bash_c = {
        let (ws, home) = fixture(false, true);
        let policy = policy(home.path());
        let cx = context(PermissionMode::FullAccess, ws.path());
        decided(verdict(&policy, &bash("bash -c 'c=.e; cat ${c}nv'"), &cx).await).0
    };
    assert_eq!(bash_c, Stance::HardDeny);
    stances(
        false,
        true,
        &[
            ("git submodule foreach 'c=.e; cat ${c}nv'", bash_c),
            ("git submodule foreach 'cat .env'", bash_c),
            (
                "git ls-files | git submodule foreach --recursive 'cat .env'",
                bash_c,
            ),
            ("git rebase -x 'cat .env' main", bash_c),
            ("git rebase --exec 'c=.e; cat ${c}nv' main", bash_c),
            ("git rebase --exe='cat .env' main", bash_c),
            ("git bisect run sh -c 'cat .env'", bash_c),
            ("git bisect run cat .env", bash_c),
            ("git difftool -x 'cat .env' HEAD", bash_c),
            ("git difftool --extcmd='cat .env' HEAD", bash_c),
            ("git filter-branch --tree-filter 'cat .env' HEAD", bash_c),
            ("git filter-branch --index-filter 'cat .env' HEAD", bash_c),
            ("git -c alias.x='!cat .env' x", bash_c),
            ("git push --receive-pack='cat .env' ../r main", bash_c),
            ("git fetch --upload-pack 'cat .env' ../r", bash_c),
        ],
    )
    .await;
}

/// git's credential helpers called by their own names (`git-credential-store get`, git's
/// exec path's `/usr/lib/git-core/git-credential-cache get`) print the passwords they keep
/// as `git credential-store get` does: the same binding ask. A `git-NAME` of the workspace
/// is not git's.
#[tokio::test]
async fn credential_helpers_called_by_their_own_names_are_the_binding_ask() {
    use Stance::RequireAsk;
    stances(
        false,
        true,
        &[
            (
                "echo host=github.com | git-credential-store get",
                RequireAsk,
            ),
            ("git-credential-cache get", RequireAsk),
            ("git-credential-libsecret get", RequireAsk),
            ("git-credential-osxkeychain get", RequireAsk),
            ("/usr/lib/git-core/git-credential-store get", RequireAsk),
            ("/usr/libexec/git-core/git-credential-store get", RequireAsk),
            ("sudo git-credential-store get", RequireAsk),
            ("git-credential-store get < q", RequireAsk),
        ],
    )
    .await;
}

/// Abbreviated options of `git config`, `git ls-remote` and `git remote` are read as git
/// reads them: a listing or a URL they print is checked as the option written out is, and an
/// option `git config` does not know is read as one that prints every value.
#[tokio::test]
async fn abbreviated_options_that_print_configuration_are_read_in_full() {
    use Stance::{PolicyAllow, RequireAsk};
    stances(
        true,
        false,
        &[
            ("git config --get-regex .", RequireAsk),
            ("git config --get-r extra", RequireAsk),
            ("git config --get-u http https://x", RequireAsk),
            ("git config --li", RequireAsk),
            ("git config --get- remote", RequireAsk),
            ("git config --frobnicate", RequireAsk),
            ("git ls-remote --get-u", RequireAsk),
            ("git ls-remote --get-ur origin", RequireAsk),
            ("git remote --verb", RequireAsk),
            ("git config --get user.name", PolicyAllow),
        ],
    )
    .await;
}

/// Configuration given for one run that makes `git push` mirror or force (a remote's
/// `mirror`, a `+` refspec in its `push`, `push.default=mirror`?) is the deny of the push
/// options that do the same.
#[tokio::test]
async fn configuration_that_makes_a_push_force_or_mirror_is_the_force_push_deny() {
    use Stance::{DefaultAsk, HardDeny};
    stances(
        false,
        true,
        &[
            ("git -c remote.origin.mirror=true push origin", HardDeny),
            ("git -c remote.origin.mirror push", HardDeny),
            ("git -c Remote.origin.Mirror=yes push origin", HardDeny),
            (
                "git -c remote.origin.push=+refs/heads/*:refs/heads/* push origin",
                HardDeny,
            ),
            ("git -c remote.origin.push=:refs/heads/main push origin", HardDeny),
            ("git -c remote.origin.prune=true push --all origin", DefaultAsk),
            (
                "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=remote.origin.mirror GIT_CONFIG_VALUE_0=true git push origin",
                HardDeny,
            ),
            (
                "env GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=remote.origin.push GIT_CONFIG_VALUE_0=+main:main git push",
                HardDeny,
            ),
            ("git --config-env=remote.origin.push=V push origin", HardDeny),
            ("git -c \"$K\" push origin", HardDeny),
            ("GIT_CONFIG_PARAMETERS=\"'remote.origin.mirror'='true'\" git push", HardDeny),
            ("git -c remote.origin.mirror=false push origin main", DefaultAsk),
            ("git -c push.autoSetupRemote=true push origin main", DefaultAsk),
            ("git -c color.ui=always push origin main", DefaultAsk),
        ],
    )
    .await;
}
