//! What the workspace holds changes what a command does: configuration that names programs,
//! repositories nested in it, secrets its repository tracks, names that word splitting
//! changes, directories a `cd` cannot enter. Each case here builds the workspace it needs.

mod support;

use std::path::Path;
use std::process::{Command, Stdio};

use serde_json::{Value, json};
use support::{call, context, decided, policy, verdict};
use warrant_core::call::PermissionMode;
use warrant_core::evaluator::Stance;

fn put(root: &Path, rel: &str, text: &str) {
    let path = root.join(rel);
    std::fs::create_dir_all(path.parent().expect("parent")).expect("dirs");
    std::fs::write(path, text).expect("write");
}

fn git(root: &Path, args: &[&str]) -> bool {
    Command::new("git")
        .args(args)
        .current_dir(root)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

async fn stance(root: &Path, command: &str) -> (Stance, String) {
    let cx = context(PermissionMode::Default, root);
    let (s, r) =
        decided(verdict(&policy(), &call("Bash", json!({ "command": command })), &cx).await);
    (s, format!("{} ({})", r.reason_code, r.reason))
}

async fn allowed(root: &Path, command: &str) {
    let (s, why) = stance(root, command).await;
    assert_eq!(s, Stance::PolicyAllow, "{command}: {why}");
}

async fn not_allowed(root: &Path, command: &str) {
    let (s, why) = stance(root, command).await;
    assert_ne!(
        s,
        Stance::PolicyAllow,
        "{command} must not be allowed: {why}"
    );
}

#[tokio::test]
async fn toolchain_configuration_in_the_workspace_can_run_its_programs() {
    let ws = tempfile::tempdir().expect("dir");
    put(ws.path(), "Cargo.toml", "[package]\nname = \"x\"\n");
    allowed(ws.path(), "cargo metadata --format-version 1 --no-deps").await;
    allowed(ws.path(), "rustc --version").await;
    put(
        ws.path(),
        ".cargo/config.toml",
        "[build]\nrustc-wrapper = \"./evil\"\n",
    );
    not_allowed(ws.path(), "cargo metadata --format-version 1 --no-deps").await;
    not_allowed(ws.path(), "cd src 2>/dev/null; cargo --version").await;
    let other = tempfile::tempdir().expect("dir");
    put(
        other.path(),
        "rust-toolchain.toml",
        "[toolchain]\npath = \"./tc\"\n",
    );
    not_allowed(other.path(), "rustc --version").await;
    // A module asking for a newer Go makes an installed `go` download and run that one; with
    // no `go` on PATH nothing runs (the logic itself is tested with a made-up installation
    // in `programs::go_toolchain`).
    put(other.path(), "go.mod", "module x\n\ngo 1.99\n");
    let go_installed = std::env::var_os("PATH")
        .is_some_and(|p| std::env::split_paths(&p).any(|d| d.join("go").is_file()));
    if go_installed {
        not_allowed(other.path(), "go version").await;
    } else {
        allowed(other.path(), "go version").await;
    }
}

#[tokio::test]
async fn git_in_a_repository_nested_in_the_workspace_is_not_trusted() {
    let ws = tempfile::tempdir().expect("dir");
    assert!(
        git(ws.path(), &["init", "-q"]),
        "git is needed to build this workspace"
    );
    allowed(ws.path(), "git status").await;
    // A bare repository committed as plain files.
    for f in ["HEAD", "config"] {
        put(
            ws.path(),
            &format!("evil/{f}"),
            "[core]\n\tfsmonitor = touch PWNED\n",
        );
    }
    std::fs::create_dir_all(ws.path().join("evil/objects")).expect("objects");
    not_allowed(ws.path(), "git -C evil status").await;
    not_allowed(ws.path(), "cd evil && git log").await;
    put(
        ws.path(),
        "vendor/lib/.git/config",
        "[core]\n\tpager = sh\n",
    );
    not_allowed(ws.path(), "cd vendor/lib && git status").await;
}

#[tokio::test]
async fn history_of_a_repository_that_tracks_a_secret_is_a_secret() {
    let ws = tempfile::tempdir().expect("dir");
    assert!(
        git(ws.path(), &["init", "-q"]),
        "git is needed to build this workspace"
    );
    put(ws.path(), "README.md", "hello\n");
    assert!(git(ws.path(), &["add", "README.md"]));
    allowed(ws.path(), "git show HEAD").await;
    allowed(ws.path(), "git log -p -n 3").await;
    put(ws.path(), "config/.env", "TOKEN=canary\n");
    assert!(git(ws.path(), &["add", "config/.env"]));
    for c in [
        "git show HEAD",
        "git log -p",
        "git diff HEAD~1 HEAD",
        "git cat-file -p 4b825dc642cb6eb9a060e54bf8d69288fbee4904",
        "git stash show -p",
        "git grep TOKEN",
        "git ls-files | xargs cat",
    ] {
        not_allowed(ws.path(), c).await;
    }
    allowed(ws.path(), "git log --oneline -n 5").await;
}

#[tokio::test]
async fn names_that_splitting_or_xargs_would_change_are_not_paths() {
    let ws = tempfile::tempdir().expect("dir");
    put(ws.path(), "src/main.rs", "fn main() {}\n");
    allowed(ws.path(), "find src -name '*.rs' | xargs wc -l").await;
    allowed(ws.path(), "for f in src/*.rs; do cat $f; done").await;
    put(ws.path(), "src/x .env y.rs", "x\n");
    put(ws.path(), ".env", "TOKEN=canary\n");
    not_allowed(ws.path(), "find src -name '*.rs' | xargs wc -l").await;
    not_allowed(ws.path(), "cat $(find src -type f)").await;
    not_allowed(ws.path(), "for f in 'a .env'; do cat $f; done").await;
    allowed(ws.path(), "for f in 'a b'; do echo \"$f\"; done").await;
}

#[tokio::test]
async fn the_directory_is_followed_only_where_it_is_certain() {
    let ws = tempfile::tempdir().expect("dir");
    put(ws.path(), "src/inner/main.rs", "fn main() {}\n");
    put(ws.path(), "README.md", "hello\n");
    // From `src/inner`, `../../README.md` is inside; from anywhere else it is not.
    allowed(ws.path(), "cd src/inner && cat ../../README.md").await;
    allowed(ws.path(), "cd src/inner; cat ../../README.md").await;
    for c in [
        "false && cd src/inner; cat ../../README.md",
        "if false; then cd src/inner; fi; cat ../../README.md",
        "cd src/inner; for i in 1 2; do cd ..; done; cat ../README.md",
        "cd src/nonexistent; cat ../../README.md",
        "cd src/inner | :; cat ../../README.md",
        "cd src/inner & cat ../../README.md",
        "cd(){ :; }; cd src/inner; cat ../../README.md",
        "cd src/inner || true; cat ../../README.md",
        "builtin cd src/inner; cat ../../README.md",
    ] {
        not_allowed(ws.path(), c).await;
    }
}

/// An agent's shell may live from one command to the next: a command that may leave it
/// outside the workspace, or where the text does not tell, asks, since the next command is
/// judged as run in the workspace. Moves that stay inside are allowed.
#[tokio::test]
async fn a_shell_left_outside_the_workspace_asks() {
    let ws = tempfile::tempdir().expect("dir");
    put(ws.path(), "src/inner/main.rs", "fn main() {}\n");
    std::os::unix::fs::symlink("/etc", ws.path().join("etc")).expect("link");
    for c in [
        "cd src",
        "cd src/inner && ls",
        "cd src; cd ..",
        "pushd src",
        "cd src && ls && cd ..",
        // Back where the shell was: each move to get there was judged.
        "pushd src && ls && popd",
        "cd src && ls && cd -",
        "popd",
        "cd -",
        "pushd",
    ] {
        allowed(ws.path(), c).await;
    }
    for c in [
        "cd",
        "cd ~",
        "cd ..",
        "cd /tmp",
        "cd etc",
        "pushd ~",
        "pushd /tmp && popd",
        "OLDPWD=/tmp; cd -",
        "DIRSTACK[0]=/tmp; popd",
        "popd x",
        "cd src/none",
        "cd src && cd ../..",
        "ls; cd /tmp",
        "cd /tmp | cat",
        "bash -c 'cd /tmp'",
        "true && cd ..",
    ] {
        not_allowed(ws.path(), c).await;
    }
}

#[tokio::test]
async fn diff_reads_directories_and_follows_links() {
    let ws = tempfile::tempdir().expect("dir");
    let home = tempfile::tempdir().expect("home");
    put(home.path(), ".ssh/id_rsa", "KEY\n");
    put(ws.path(), "d1/a.txt", "a\n");
    put(ws.path(), "d2/a.txt", "b\n");
    allowed(ws.path(), "diff -r d1 d2").await;
    allowed(ws.path(), "diff d1 d2").await;
    std::os::unix::fs::symlink(home.path().join(".ssh/id_rsa"), ws.path().join("d1/k"))
        .expect("link");
    not_allowed(ws.path(), "diff -rN d1 d2").await;
    not_allowed(ws.path(), "diff d1 d2").await;
    not_allowed(ws.path(), "diff d1/ README.md").await;
}

#[tokio::test]
async fn producers_print_paths_only_when_the_table_says_so() {
    let ws = tempfile::tempdir().expect("dir");
    let home = tempfile::tempdir().expect("home");
    put(home.path(), ".ssh/id_rsa", "KEY\n");
    put(ws.path(), "src/a.rs", "fn a() {}\n");
    put(
        ws.path(),
        "notes.txt",
        &format!("{}\n", home.path().join(".ssh/id_rsa").display()),
    );
    put(ws.path(), "etc/passwd", "x\n");
    put(ws.path(), ".env", "TOKEN=x\n");
    allowed(
        ws.path(),
        "find src -name '*.rs' | grep -v test | xargs wc -l",
    )
    .await;
    allowed(ws.path(), "find src -name '*.rs' -print0 | xargs -0 wc -l").await;
    std::os::unix::fs::symlink("../notes.txt", ws.path().join("src/l")).expect("link");
    for c in [
        "git ls-files | grep -ee notes.txt | xargs cat",
        "find . -name passwd | tac -s. | xargs cat",
        "find src -type l -ls | xargs cat --",
        "find . -iname .ENV | xargs cat",
    ] {
        not_allowed(ws.path(), c).await;
    }
}

#[tokio::test]
async fn the_glob_tool_reaches_as_far_as_its_braces() {
    let ws = tempfile::tempdir().expect("dir");
    let cx = context(PermissionMode::Default, ws.path());
    for pattern in ["{../home/.ssh,x}/*", "{/etc,x}/*"] {
        let (s, r) =
            decided(verdict(&policy(), &call("glob", json!({ "pattern": pattern })), &cx).await);
        assert_ne!(s, Stance::PolicyAllow, "{pattern}: {}", r.reason);
    }
}

#[tokio::test]
async fn names_that_read_as_options_or_split_are_never_operands() {
    let ws = tempfile::tempdir().expect("dir");
    put(ws.path(), "README.md", "hello\n");
    put(ws.path(), "notes.md", "notes\n");
    put(ws.path(), "src/a.rs", "fn a() {}\n");
    allowed(ws.path(), "sort *.md").await;
    allowed(ws.path(), "for f in src/*.rs; do cat $f; done").await;
    allowed(ws.path(), "ls *.md | xargs cat").await;
    put(ws.path(), "-oREADME.md", "x\n");
    put(ws.path(), ".env", "TOKEN=x\n");
    put(ws.path(), "src/x .env y.rs", "x\n");
    put(ws.path(), "a .env", "x\n");
    for c in [
        "sort *.md",
        "for f in src/*.rs; do cat $f; done",
        "ls a* | xargs cat",
        "printf '%s\\n' a* | xargs cat",
        "cat $(ls a*)",
    ] {
        not_allowed(ws.path(), c).await;
    }
}

#[tokio::test]
async fn exclusions_are_matched_as_the_program_matches_them() {
    let ws = tempfile::tempdir().expect("dir");
    put(ws.path(), "src/a.rs", "fn a() {}\n");
    put(ws.path(), "certs/server.pem", "KEY\n");
    allowed(ws.path(), "grep -rn --exclude='*.pem' KEY .").await;
    allowed(ws.path(), "rg -g '!*.pem' KEY").await;
    for c in [
        "grep -rn --exclude='*.PEM' KEY .",
        "rg -g '!*.PEM' KEY",
        "grep -r --exclude='*.pem' --include='*.pem' KEY .",
        "rg -g '*.pem' KEY",
    ] {
        not_allowed(ws.path(), c).await;
    }
}

#[tokio::test]
async fn cargo_tree_reads_only_when_its_lock_file_answers_every_dependency() {
    let ws = tempfile::tempdir().expect("dir");
    put(
        ws.path(),
        "Cargo.toml",
        "[package]\nname = \"app\"\nversion = \"0.1.0\"\n\
         [dependencies]\nutil = { path = \"util\" }\n",
    );
    put(
        ws.path(),
        "util/Cargo.toml",
        "[package]\nname = \"util\"\nversion = \"0.1.0\"\n",
    );
    // No lock file yet: cargo would write one.
    not_allowed(ws.path(), "cargo tree").await;
    put(
        ws.path(),
        "Cargo.lock",
        "version = 4\n[[package]]\nname = \"app\"\nversion = \"0.1.0\"\n\
         dependencies = [\"util\"]\n\
         [[package]]\nname = \"util\"\nversion = \"0.1.0\"\n",
    );
    for c in [
        "cargo tree",
        "cargo tree -e normal --depth 1",
        "cargo metadata --format-version 1",
    ] {
        allowed(ws.path(), c).await;
    }
    // A dependency the lock file does not pin: cargo resolves it again, over the network.
    put(
        ws.path(),
        "util/Cargo.toml",
        "[package]\nname = \"util\"\nversion = \"0.1.0\"\n[dependencies]\nserde = \"1\"\n",
    );
    not_allowed(ws.path(), "cargo tree").await;
    not_allowed(ws.path(), "cargo metadata --format-version 1").await;
    // Pinned, but not in the cache of the policy's home: cargo would download it.
    put(
        ws.path(),
        "Cargo.lock",
        "version = 4\n[[package]]\nname = \"app\"\nversion = \"0.1.0\"\n\
         dependencies = [\"util\"]\n\
         [[package]]\nname = \"util\"\nversion = \"0.1.0\"\ndependencies = [\"serde\"]\n\
         [[package]]\nname = \"serde\"\nversion = \"1.0.0\"\n\
         source = \"registry+https://github.com/rust-lang/crates.io-index\"\nchecksum = \"ab\"\n",
    );
    not_allowed(ws.path(), "cargo tree").await;
    // A git dependency is fetched whatever the lock file says.
    put(
        ws.path(),
        "util/Cargo.toml",
        "[package]\nname = \"util\"\nversion = \"0.1.0\"\n\
         [dependencies]\nx = { git = \"https://example.com/x\" }\n",
    );
    not_allowed(ws.path(), "cargo tree").await;
}

#[tokio::test]
async fn toolchain_configuration_above_the_workspace_can_run_its_programs() {
    // The configuration sits in a directory above the workspace: cargo and rustup read
    // every directory up to the filesystem's root.
    let outer = tempfile::tempdir().expect("dir");
    let ws = outer.path().join("project");
    put(&ws, "Cargo.toml", "[package]\nname = \"x\"\n");
    put(&ws, "Cargo.lock", "version = 3\n");
    for c in [
        "cargo metadata --offline --format-version 1",
        "cargo tree --offline",
        "cargo -V",
    ] {
        allowed(&ws, c).await;
    }
    put(
        outer.path(),
        ".cargo/config.toml",
        "[build]\nrustc = \"/tmp/evil-rustc\"\n",
    );
    for c in [
        "cargo metadata --offline --format-version 1",
        "cargo tree --offline",
        "cargo -V",
        "rustup show",
    ] {
        not_allowed(&ws, c).await;
    }
    let other = tempfile::tempdir().expect("dir");
    let ws = other.path().join("deep/project");
    put(&ws, "Cargo.toml", "[package]\nname = \"x\"\n");
    put(other.path(), "rust-toolchain", "evil\n");
    not_allowed(&ws, "cargo -V").await;
    not_allowed(&ws, "rustup show").await;
    let old = tempfile::tempdir().expect("dir");
    put(
        old.path(),
        ".cargo/config",
        "[build]\nrustc-wrapper = \"./w\"\n",
    );
    not_allowed(old.path(), "cargo metadata --format-version 1 --no-deps").await;
}

#[tokio::test]
async fn the_workspace_repository_configuration_that_runs_programs_is_not_trusted() {
    let ws = tempfile::tempdir().expect("dir");
    assert!(
        git(ws.path(), &["init", "-q"]),
        "git is needed to build this workspace"
    );
    allowed(ws.path(), "git status").await;
    allowed(ws.path(), "git log --oneline").await;
    for (key, value) in [
        ("core.fsmonitor", "touch PWNED"),
        ("core.pager", "sh -c 'touch PWNED'"),
        ("core.sshCommand", "touch PWNED"),
        ("diff.x.textconv", "touch PWNED"),
        ("filter.x.clean", "touch PWNED"),
        ("include.path", "../elsewhere"),
    ] {
        let repo = tempfile::tempdir().expect("dir");
        assert!(git(repo.path(), &["init", "-q"]));
        assert!(git(repo.path(), &["config", key, value]));
        not_allowed(repo.path(), "git status").await;
        not_allowed(repo.path(), "git log --oneline").await;
    }
}

#[tokio::test]
async fn a_git_file_is_followed_to_the_configuration_git_uses() {
    let ws = tempfile::tempdir().expect("dir");
    if !git(ws.path(), &["init", "-q", "--bare", ".bare"]) {
        eprintln!("git is not installed: repository configuration is not checked here");
        return;
    }
    put(ws.path(), ".git", "gitdir: ./.bare\n");
    allowed(ws.path(), "git log --oneline").await;
    assert!(git(
        &ws.path().join(".bare"),
        &["config", "core.pager", "touch PWNED"]
    ));
    not_allowed(ws.path(), "git log --oneline").await;
    put(ws.path(), ".git", "gitdir: ./missing\n");
    not_allowed(ws.path(), "git log --oneline").await;
    put(ws.path(), ".git", "not a git file\n");
    not_allowed(ws.path(), "git log --oneline").await;
}

#[tokio::test]
async fn git_grep_of_a_revision_is_not_a_path() {
    let ws = tempfile::tempdir().expect("dir");
    assert!(
        git(ws.path(), &["init", "-q"]),
        "git is needed to build this workspace"
    );
    put(ws.path(), "src/main.rs", "fn main() {}\n");
    allowed(ws.path(), "git grep -n main src").await;
    not_allowed(ws.path(), "git grep -e BEGIN HEAD~1").await;
    not_allowed(ws.path(), "git grep BEGIN main").await;
    not_allowed(ws.path(), "git grep -e BEGIN HEAD -- src").await;
}

#[tokio::test]
async fn remote_urls_are_not_printed_when_the_repository_configuration_holds_a_credential() {
    let ws = tempfile::tempdir().expect("dir");
    assert!(
        git(ws.path(), &["init", "-q"]),
        "git is needed to build this workspace"
    );
    assert!(git(
        ws.path(),
        &["remote", "add", "origin", "https://github.com/o/r.git"]
    ));
    allowed(ws.path(), "git remote -v").await;
    allowed(ws.path(), "git remote").await;
    not_allowed(ws.path(), "git remote get-url origin").await;
    for (key, value) in [
        (
            "remote.origin.url",
            "https://x-access-token:ghp_canary@github.com/o/r.git",
        ),
        ("remote.origin.url", "https://ghp_canary@github.com/o/r.git"),
        ("http.extraHeader", "Authorization: Bearer canary"),
    ] {
        assert!(git(ws.path(), &["config", key, value]));
        not_allowed(ws.path(), "git remote -v").await;
        not_allowed(ws.path(), "git config remote.origin.url").await;
        assert!(git(ws.path(), &["config", "--unset-all", key]));
    }
    assert!(git(
        ws.path(),
        &["config", "remote.origin.url", "https://github.com/o/r.git"]
    ));
    allowed(ws.path(), "git remote -v").await;
}

#[tokio::test]
async fn listings_that_follow_links_stop_at_a_link_leaving_the_workspace() {
    let ws = tempfile::tempdir().expect("dir");
    let outside = tempfile::tempdir().expect("dir");
    put(outside.path(), "id_rsa", "key\n");
    put(ws.path(), "d2/readme.txt", "x\n");
    put(ws.path(), "src/main.rs", "fn main() {}\n");
    std::os::unix::fs::symlink(outside.path(), ws.path().join("d2/r")).expect("link");
    // A link back up the tree is walked once; one up to the root reaches `d2/r` too.
    put(ws.path(), "lib/a.rs", "\n");
    std::os::unix::fs::symlink(".", ws.path().join("lib/again")).expect("link");
    std::os::unix::fs::symlink("..", ws.path().join("src/up")).expect("link");
    for command in [
        "find -L d2 -name id_rsa",
        "find d2 -follow -name id_rsa",
        "tree -la d2",
        "du -aL d2",
        "du --dereference -a .",
        "fd -L . d2",
        "ls -RL d2",
        "find -L src -name '*.rs'",
    ] {
        not_allowed(ws.path(), command).await;
    }
    for command in [
        "find d2 -name id_rsa",
        "find -L lib -name '*.rs'",
        "tree -a d2",
        "du -a d2",
        "fd . d2",
        "ls -R d2",
        "tree -l lib",
        // One level: the names in `d2`, the link's target's size, nothing below it.
        "ls -lL d2",
    ] {
        allowed(ws.path(), command).await;
    }
}

#[tokio::test]
async fn commits_named_by_message_reflog_or_stash_reach_beyond_the_branch() {
    let ws = tempfile::tempdir().expect("dir");
    assert!(
        git(ws.path(), &["init", "-q"]),
        "git is needed to build this workspace"
    );
    put(ws.path(), "README.md", "x\n");
    put(ws.path(), ".env", "SECRET=2\n");
    let id = ["-c", "user.name=t", "-c", "user.email=t@t"];
    let commit = |message: &str| {
        let mut args = id.to_vec();
        args.extend(["commit", "-qm", message]);
        args.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>()
    };
    assert!(git(ws.path(), &["add", "."]));
    let first = commit("add env");
    assert!(git(
        ws.path(),
        &first.iter().map(String::as_str).collect::<Vec<_>>()
    ));
    assert!(git(ws.path(), &["rm", "-q", "--cached", ".env"]));
    let second = commit("untrack env");
    assert!(git(
        ws.path(),
        &second.iter().map(String::as_str).collect::<Vec<_>>()
    ));
    std::fs::remove_file(ws.path().join(".env")).expect("remove");
    for command in [
        "git show :/add",
        "git diff :/add",
        "git log -p :/add",
        "git show HEAD@{1}",
        "git diff HEAD@{1}",
        "git diff 'HEAD^{/add}'",
        "git show stash",
    ] {
        not_allowed(ws.path(), command).await;
    }
    allowed(ws.path(), "git log --oneline").await;
}

async fn tool_stance(root: &Path, tool: &str, input: serde_json::Value) -> (Stance, String) {
    let cx = context(PermissionMode::Default, root);
    let (s, r) = decided(verdict(&policy(), &call(tool, input), &cx).await);
    (s, format!("{} ({})", r.reason_code, r.reason))
}

#[tokio::test]
async fn a_tree_copied_into_a_directory_is_judged_by_the_files_it_creates() {
    let ws = tempfile::tempdir().expect("dir");
    put(ws.path(), "stage/settings.json", "{}");
    put(ws.path(), "stage/sub/.mcp.json", "{}");
    put(ws.path(), "tree/a.txt", "a");
    std::fs::create_dir_all(ws.path().join(".claude")).expect("dir");
    for command in [
        "cp -r stage .claude",
        "cp -R stage/. .claude",
        "cp -rT stage .claude",
        "cp -a stage .",
        "mv stage .claude",
        "rsync -a stage/ .claude",
        "cp -r tree/../stage .claude/",
    ] {
        let (s, why) = stance(ws.path(), command).await;
        assert_eq!(s, Stance::HardDeny, "{command}: {why}");
    }
    // A tree without protected configuration is an ordinary write.
    let (s, why) = stance(ws.path(), "cp -r tree docs").await;
    assert_eq!(s, Stance::DefaultAsk, "{why}");
}

#[tokio::test]
async fn links_of_the_process_file_system_are_never_inside_the_workspace() {
    let ws = tempfile::tempdir().expect("dir");
    put(ws.path(), "src/a.txt", "a");
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink("/proc/self/cwd", ws.path().join("here")).expect("link");
        std::os::unix::fs::symlink("/proc/self/fd", ws.path().join("fds")).expect("link");
    }
    for path in [
        "here/a.txt",
        "fds/0",
        "/proc/self/cwd/src/a.txt",
        "/proc/thread-self/fd/0",
    ] {
        let (s, why) = tool_stance(ws.path(), "Read", json!({ "file_path": path })).await;
        assert_ne!(s, Stance::PolicyAllow, "{path}: {why}");
    }
    let (s, why) = tool_stance(ws.path(), "Read", json!({ "file_path": "src/a.txt" })).await;
    assert_eq!(s, Stance::PolicyAllow, "{why}");
}

#[tokio::test]
async fn a_search_tool_is_taken_to_follow_the_links_of_its_tree() {
    let ws = tempfile::tempdir().expect("dir");
    let out = tempfile::tempdir().expect("dir");
    put(ws.path(), ".env", "API_KEY=x");
    put(ws.path(), "lib/a.txt", "a");
    put(ws.path(), "plain/a.txt", "a");
    put(out.path(), "notes.txt", "n");
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink("../.env", ws.path().join("lib/cfg")).expect("link");
        std::os::unix::fs::symlink(out.path(), ws.path().join("lib/o")).expect("link");
    }
    for tool in ["Grep", "grep", "mcp__fs__grep", "search_file_content"] {
        let (s, why) =
            tool_stance(ws.path(), tool, json!({ "pattern": "API", "path": "lib" })).await;
        assert_ne!(s, Stance::PolicyAllow, "{tool}: {why}");
    }
    let (s, why) = tool_stance(
        ws.path(),
        "Grep",
        json!({ "pattern": "a", "path": "plain" }),
    )
    .await;
    assert_eq!(s, Stance::PolicyAllow, "{why}");
}

#[tokio::test]
async fn a_search_filter_s_brace_group_admits_each_of_its_alternatives() {
    let ws = tempfile::tempdir().expect("dir");
    put(ws.path(), ".env", "API_KEY=x");
    put(ws.path(), "src/app.ts", "a");
    for glob in ["*.{ts,tsx}", "src/*.{ts,{tsx,js}}", "*.ts"] {
        let (s, why) =
            tool_stance(ws.path(), "Grep", json!({ "pattern": "a", "glob": glob })).await;
        assert_eq!(s, Stance::PolicyAllow, "{glob}: {why}");
    }
    // An alternative may name the secret, or a group may not be one.
    for glob in [
        "{*.ts,**/.env}",
        ".{en,x}v",
        "*.{ts,tsx",
        "*.ts,.env",
        "!*.ts",
    ] {
        let (s, why) =
            tool_stance(ws.path(), "Grep", json!({ "pattern": "a", "glob": glob })).await;
        assert_ne!(s, Stance::PolicyAllow, "{glob}: {why}");
    }
}

#[tokio::test]
async fn a_recursive_search_reads_credentials_git_keeps_anywhere_under_git() {
    let ws = tempfile::tempdir().expect("dir");
    assert!(
        git(ws.path(), &["init", "-q"]),
        "git is needed to build this workspace"
    );
    put(ws.path(), "src/main.rs", "fn main() {}\n");
    allowed(ws.path(), "grep -rv foo .").await;
    let config = ws.path().join(".git/config");
    let clean = std::fs::read_to_string(&config).expect("config");
    // Git reads each of these as holding a credential; a line-by-line match did not.
    for extra in [
        "[http] extraheader = Authorization: Bearer canary\n",
        "[sendemail] smtppass = canary\n",
        "[remote \"o\"]\n\turl = https://x:ghp_canary\\\n@github.com/a/b\n",
        "[remote \"o\"]\n\turl = ftp://u:canary@h/x\n",
        "[remote \"o\"]\n\turl = https://github.com/a/b?access_token=canary\n",
        "[github]\n\tapi = ghp_canary\n",
        "[include]\n\tpath = ../../creds\n",
    ] {
        std::fs::write(&config, format!("{clean}{extra}")).expect("write");
        not_allowed(ws.path(), "grep -rv foo .").await;
        not_allowed(ws.path(), "grep -r foo .").await;
    }
    std::fs::write(&config, &clean).expect("write");
    allowed(ws.path(), "grep -rv foo .").await;
    // Configurations elsewhere under `.git` are read by a tree search too.
    for (rel, text) in [
        (
            ".git/modules/sub/config",
            "[remote \"o\"]\n\turl = https://x:canary@h/a\n",
        ),
        (
            ".git/config.worktree",
            "[remote \"o\"]\n\turl = https://x:canary@h/a\n",
        ),
        (
            ".git/worktrees/w/config.worktree",
            "[http]\n\textraheader = canary\n",
        ),
    ] {
        put(ws.path(), rel, text);
        not_allowed(ws.path(), "grep -rv foo .").await;
        not_allowed(ws.path(), "grep -rv foo .git").await;
        std::fs::remove_file(ws.path().join(rel)).expect("remove");
    }
    allowed(ws.path(), "grep -rv foo .").await;
    // A FIFO named as the configuration is not read (it would block), and is not proven.
    std::fs::remove_file(&config).expect("remove");
    assert!(
        Command::new("mkfifo")
            .arg(&config)
            .status()
            .is_ok_and(|s| s.success())
    );
    not_allowed(ws.path(), "grep -rv foo .").await;
}

#[tokio::test]
async fn a_toolchain_configuration_that_is_not_a_small_regular_file_is_not_read() {
    let ws = tempfile::tempdir().expect("dir");
    put(ws.path(), ".tool-versions", "nodejs 20.11.0\n");
    allowed(ws.path(), "node --version").await;
    // Too long to read in full: not proven, where a shim reads it.
    put(
        ws.path(),
        ".tool-versions",
        &"nodejs 20.11.0\n".repeat(10_000),
    );
    let shim = support::version_manager_shim("node");
    if shim {
        not_allowed(ws.path(), "node --version").await;
    }
    // A FIFO would block a read forever: it is not read, and not proven.
    for name in [".tool-versions", "bunfig.toml"] {
        let _ = std::fs::remove_file(ws.path().join(name));
        assert!(
            Command::new("mkfifo")
                .arg(ws.path().join(name))
                .status()
                .is_ok_and(|s| s.success())
        );
    }
    let decided = tokio::time::timeout(std::time::Duration::from_secs(20), async {
        if shim {
            not_allowed(ws.path(), "node --version").await;
        }
        not_allowed(ws.path(), "bun --version").await;
    })
    .await;
    assert!(decided.is_ok(), "a FIFO blocked the evaluator");
}

#[tokio::test]
async fn find_that_follows_links_deletes_where_they_lead() {
    let ws = tempfile::tempdir().expect("dir");
    let outside = tempfile::tempdir().expect("dir");
    put(outside.path(), "a", "x\n");
    put(ws.path(), "src/main.rs", "fn main() {}\n");
    std::os::unix::fs::symlink(outside.path(), ws.path().join("homelink")).expect("link");
    let cx = context(PermissionMode::FullAccess, ws.path());
    for command in [
        "find -L . -delete",
        "find . -follow -delete",
        "find -L . -exec rm {} +",
        "find -L src homelink -exec shred -u {} +",
    ] {
        let (s, r) =
            decided(verdict(&policy(), &call("Bash", json!({ "command": command })), &cx).await);
        assert_eq!(s, Stance::HardDeny, "{command}: {}", r.reason);
    }
    for command in ["find -H homelink -delete", "find -L homelink -delete"] {
        not_allowed(ws.path(), command).await;
    }
    // Without following links, the link itself is what is found and deleted.
    let (s, _) = decided(
        verdict(
            &policy(),
            &call("Bash", json!({ "command": "find src -delete" })),
            &cx,
        )
        .await,
    );
    assert_ne!(s, Stance::HardDeny);
}

#[tokio::test]
async fn git_server_queries_are_modeled_only_from_the_git_server_with_a_known_input() {
    let ws = tempfile::tempdir().expect("dir");
    assert!(
        git(ws.path(), &["init", "-q"]),
        "git is needed to build this workspace"
    );
    let root = ws.path().to_string_lossy().into_owned();
    let stance_of = |cx: warrant_core::call::EvaluationContext, tool: &str, input| {
        let c = call(tool, input);
        async move {
            match verdict(&policy(), &c, &cx).await {
                warrant_core::evaluator::Verdict::Decide { stance, .. } => Some(stance),
                _ => None,
            }
        }
    };
    let plain = || context(PermissionMode::Default, ws.path());
    let listed = || support::context_with_catalog(PermissionMode::Default, ws.path());
    let at_root = json!({ "repo_path": root });
    assert_eq!(
        stance_of(plain(), "mcp__git__git_status", at_root.clone()).await,
        Some(Stance::PolicyAllow)
    );
    assert_eq!(
        stance_of(listed(), "git.status", at_root.clone()).await,
        Some(Stance::PolicyAllow)
    );
    // A bare name any server may offer; a relative directory the server resolves against
    // its own; inputs that are no object of known fields.
    for (cx, tool, input) in [
        (plain(), "git_log", at_root.clone()),
        (plain(), "git.status", at_root.clone()),
        (plain(), "mcp__git__git_status", json!({ "repo_path": "." })),
        (
            plain(),
            "mcp__git__git_status",
            json!({ "repo_path": "src" }),
        ),
        (plain(), "mcp__git__git_status", json!({ "repo_path": "~" })),
        (plain(), "mcp__git__git_status", json!({})),
        (plain(), "mcp__git__git_status", json!([1, 2])),
        (plain(), "mcp__git__git_status", json!("x")),
        (plain(), "mcp__git__git_status", Value::Null),
        (
            plain(),
            "mcp__git__git_status",
            json!({ "repo_path": root, "x": 1 }),
        ),
        (
            plain(),
            "write_todos",
            json!({ "todos": "x", "path": "/root/.bashrc" }),
        ),
        (plain(), "TodoWrite", json!([1])),
    ] {
        let shown = format!("{tool} {input}");
        assert_ne!(
            stance_of(cx, tool, input).await,
            Some(Stance::PolicyAllow),
            "{shown}"
        );
    }
    assert_eq!(
        stance_of(plain(), "TodoWrite", json!({ "todos": [] })).await,
        Some(Stance::PolicyAllow)
    );
}

// Repository state besides its files: hooks an index refresh fires, configuration keys that
// name programs or another work tree, partial clones that fetch what they lack, submodules
// with their own configuration, and the directory repeated `-C` options reach.

/// Runs git in `dir` with a fixed identity and local file transport allowed.
fn git_committing(dir: &Path, args: &[&str]) -> bool {
    let mut all = vec![
        "-c",
        "user.name=t",
        "-c",
        "user.email=t@example.com",
        "-c",
        "protocol.file.allow=always",
    ];
    all.extend_from_slice(args);
    git(dir, &all)
}

/// A repository with one commit in a new directory; `None` when git is not installed.
fn repository() -> Option<tempfile::TempDir> {
    let ws = tempfile::tempdir().expect("dir");
    if !git_committing(ws.path(), &["init", "-q"]) {
        eprintln!("git is not installed: repository state is not checked here");
        return None;
    }
    std::fs::write(ws.path().join("a.txt"), "hi\n").expect("write");
    assert!(git_committing(ws.path(), &["add", "a.txt"]));
    assert!(git_committing(ws.path(), &["commit", "-qm", "i"]));
    Some(ws)
}

fn executable(path: &Path, text: &str) {
    use std::os::unix::fs::PermissionsExt as _;
    std::fs::create_dir_all(path.parent().expect("parent")).expect("dirs");
    std::fs::write(path, text).expect("write");
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).expect("chmod");
}

const EVERYDAY: &[&str] = &[
    "git status",
    "git diff",
    "git log --oneline",
    "git log -p",
    "git show",
    "git blame a.txt",
    "git branch -a",
    "git remote -v",
    "git ls-files",
];

#[tokio::test]
async fn an_ordinary_repository_stays_readable() {
    let Some(ws) = repository() else { return };
    for command in EVERYDAY {
        allowed(ws.path(), command).await;
    }
    // Names and URLs that hold words of program keys are data.
    assert!(git_committing(ws.path(), &["branch", "fix-pager-bug"]));
    assert!(git_committing(
        ws.path(),
        &["config", "branch.fix-pager-bug.remote", "origin"]
    ));
    assert!(git_committing(
        ws.path(),
        &[
            "remote",
            "add",
            "origin",
            "https://github.com/acme/command-palette.git"
        ]
    ));
    for command in EVERYDAY {
        allowed(ws.path(), command).await;
    }
    // A CI checkout's header runs nothing (it is a credential: `git remote -v` asks).
    assert!(git_committing(
        ws.path(),
        &[
            "config",
            "http.https://github.com/.extraheader",
            "AUTHORIZATION: basic eA=="
        ]
    ));
    for command in ["git status", "git log -p", "git diff"] {
        allowed(ws.path(), command).await;
    }
}

#[tokio::test]
async fn a_hook_an_index_refresh_runs_is_not_trusted() {
    let Some(ws) = repository() else { return };
    // Samples and hooks only commands that write run change nothing.
    executable(&ws.path().join(".git/hooks/pre-commit"), "#!/bin/sh\n");
    executable(&ws.path().join(".git/hooks/pre-push"), "#!/bin/sh\n");
    allowed(ws.path(), "git status").await;
    let repo_path = json!({ "repo_path": ws.path().to_string_lossy() });
    for name in ["post-index-change", "reference-transaction", "future-hook"] {
        let hook = ws.path().join(".git/hooks").join(name);
        executable(&hook, "#!/bin/sh\ntouch PWNED\n");
        not_allowed(ws.path(), "git status").await;
        not_allowed(ws.path(), "git diff").await;
        let (s, why) = tool_stance(ws.path(), "mcp__git__git_status", repo_path.clone()).await;
        assert_ne!(s, Stance::PolicyAllow, "{why}");
        std::fs::remove_file(&hook).expect("rm");
    }
    // A relative hooks path is the work tree's: a committed directory is live.
    executable(
        &ws.path().join(".githooks/post-index-change"),
        "#!/bin/sh\ntouch PWNED\n",
    );
    allowed(ws.path(), "git status").await;
    assert!(git_committing(
        ws.path(),
        &["config", "core.hooksPath", ".githooks"]
    ));
    not_allowed(ws.path(), "git status").await;
    // Hooks of commands that write only, as husky installs them.
    std::fs::remove_file(ws.path().join(".githooks/post-index-change")).expect("rm");
    executable(&ws.path().join(".githooks/commit-msg"), "#!/bin/sh\n");
    allowed(ws.path(), "git status").await;
}

#[tokio::test]
async fn only_configuration_keys_known_to_run_nothing_are_trusted() {
    for (key, value) in [
        ("remote.origin.uploadpack", "touch PWNED; git-upload-pack"),
        ("remote.origin.receivepack", "touch PWNED"),
        ("remote.origin.vcs", "x"),
        ("core.gitProxy", "touch-pwned"),
        ("core.sshCommand", "touch PWNED"),
        ("credential.helper", "!touch PWNED"),
        ("protocol.ext.allow", "always"),
        ("url.ext::sh -c touch% PWNED.insteadOf", "https://x/"),
        ("core.fsmonitor", "touch PWNED"),
        ("core.pager", "touch PWNED"),
        ("log.showSignature", "true"),
        ("core.excludesFile", "/etc/elsewhere"),
        ("some-tool.setting", "1"),
    ] {
        let Some(ws) = repository() else { return };
        assert!(git_committing(ws.path(), &["config", key, value]), "{key}");
        not_allowed(ws.path(), "git status").await;
        not_allowed(ws.path(), "git log --oneline").await;
    }
}

#[tokio::test]
async fn a_work_tree_other_than_the_workspace_is_not_trusted() {
    let Some(ws) = repository() else { return };
    let outside = tempfile::tempdir().expect("dir");
    let top = ws.path().to_str().expect("utf-8").to_owned();
    assert!(git_committing(
        ws.path(),
        &["config", "core.worktree", &top]
    ));
    allowed(ws.path(), "git diff").await;
    let elsewhere = outside.path().to_str().expect("utf-8");
    assert!(git_committing(
        ws.path(),
        &["config", "core.worktree", elsewhere]
    ));
    not_allowed(ws.path(), "git diff").await;
    not_allowed(ws.path(), "git status").await;
    not_allowed(ws.path(), "git grep -e TOKEN").await;
}

#[tokio::test]
async fn a_partial_clone_asks_before_reading_contents_it_may_fetch() {
    let Some(server) = repository() else { return };
    assert!(git_committing(
        server.path(),
        &["config", "uploadpack.allowFilter", "true"]
    ));
    let ws = tempfile::tempdir().expect("dir");
    let url = format!("file://{}", server.path().display());
    assert!(git_committing(
        ws.path(),
        &["clone", "-q", "--filter=blob:none", &url, "."]
    ));
    for command in [
        "git log -p",
        "git log --stat",
        "git blame a.txt",
        "git show",
        "git diff HEAD~0",
        // A file's id, read from the trees down to it (a tree-less clone fetches them).
        "git rev-parse HEAD:a.txt",
        "git rev-parse --verify HEAD~0:a.txt",
        // What files hold (line endings, sizes) and the ignore rules the index holds.
        "git ls-files --eol",
        "git ls-files --format='%(objectsize) %(path)'",
        "git ls-files -ci --exclude-standard",
        "git check-ignore -v a.txt",
    ] {
        not_allowed(ws.path(), command).await;
    }
    for command in ["git branch -a", "git ls-files", "git rev-parse HEAD"] {
        allowed(ws.path(), command).await;
    }
}

#[tokio::test]
async fn submodules_are_repositories_of_their_own() {
    let Some(sub) = repository() else { return };
    let Some(ws) = repository() else { return };
    let url = sub.path().to_str().expect("utf-8");
    assert!(git_committing(
        ws.path(),
        &["submodule", "add", "-q", url, "sub"]
    ));
    assert!(git_committing(ws.path(), &["commit", "-qm", "sub"]));
    allowed(ws.path(), "git status").await;
    allowed(ws.path(), "git diff").await;
    // Its configuration, under `.git/modules`.
    assert!(git_committing(
        &ws.path().join("sub"),
        &["config", "core.fsmonitor", "touch PWNED; false"]
    ));
    not_allowed(ws.path(), "git status").await;
    not_allowed(ws.path(), "git diff").await;
    assert!(git_committing(
        &ws.path().join("sub"),
        &["config", "--unset", "core.fsmonitor"]
    ));
    allowed(ws.path(), "git status").await;
    // Its hooks.
    executable(
        &ws.path().join(".git/modules/sub/hooks/post-index-change"),
        "#!/bin/sh\ntouch PWNED\n",
    );
    not_allowed(ws.path(), "git status").await;

    // A repository committed as a gitlink, with its own `.git`.
    let Some(ws) = repository() else { return };
    let inner = ws.path().join("inner");
    std::fs::create_dir(&inner).expect("dir");
    assert!(git_committing(&inner, &["init", "-q"]));
    std::fs::write(inner.join("i"), "i\n").expect("write");
    assert!(git_committing(&inner, &["add", "i"]));
    assert!(git_committing(&inner, &["commit", "-qm", "i"]));
    assert!(git_committing(ws.path(), &["add", "inner"]));
    assert!(git_committing(ws.path(), &["commit", "-qm", "link"]));
    allowed(ws.path(), "git status").await;
    assert!(git_committing(
        &inner,
        &["config", "core.fsmonitor", "touch PWNED; false"]
    ));
    not_allowed(ws.path(), "git status").await;
}

#[tokio::test]
async fn repeated_directory_options_reach_where_git_goes() {
    let Some(ws) = repository() else { return };
    let nested = ws.path().join("nested");
    std::fs::create_dir(&nested).expect("dir");
    assert!(git_committing(&nested, &["init", "-q"]));
    for command in [
        "git -C nested status",
        "git -C nested -C . status",
        "git -C nested -C ./ status",
        "git -C nested -C '' status",
        "git -C nested -C '' log",
    ] {
        not_allowed(ws.path(), command).await;
    }
    allowed(ws.path(), "git -C . -C . status").await;
    allowed(ws.path(), "git -C '' status").await;
    allowed(ws.path(), "git -C nested -C .. status").await;
}

#[tokio::test]
async fn names_git_prints_from_a_commit_are_not_vetted_for_xargs() {
    let Some(ws) = repository() else { return };
    std::fs::write(ws.path().join(".env x"), "n\n").expect("write");
    assert!(git_committing(ws.path(), &["add", ".env x"]));
    assert!(git_committing(ws.path(), &["commit", "-qm", "add"]));
    assert!(git_committing(ws.path(), &["rm", "-q", ".env x"]));
    for command in [
        "git diff --cached --name-only | xargs cat",
        "git diff --staged --name-only | xargs cat",
        "git diff HEAD~1 --name-only | xargs cat",
        "cat $(git diff --cached --name-only)",
    ] {
        not_allowed(ws.path(), command).await;
    }
    allowed(ws.path(), "git diff --name-only | xargs cat").await;
}

#[tokio::test]
async fn python_imports_standard_modules_only_when_no_file_of_the_directory_replaces_one() {
    let ws = tempfile::tempdir().expect("dir");
    put(ws.path(), "package.json", "{\"version\": \"1.0.0\"}\n");
    put(ws.path(), "app/__init__.py", "");
    put(ws.path(), "setup.py", "");
    let commands = [
        "python3 -c \"import json; print(json.load(open('package.json'))['version'])\"",
        "python3 -c 'import platform; print(platform.python_version())'",
        "python3 -m json.tool package.json",
        "cat package.json | python3 -m json.tool --sort-keys",
    ];
    for c in commands {
        allowed(ws.path(), c).await;
    }
    // Python runs a planted `json.py` (or `re.py`, which json imports) in place of the
    // standard module: the same commands then ask.
    for planted in ["json.py", "re.py", "_json.py", "collections/__init__.py"] {
        put(ws.path(), planted, "import os\n");
        for c in commands {
            not_allowed(ws.path(), c).await;
        }
        let first = planted.split('/').next().expect("name");
        let path = ws.path().join(first);
        if path.is_dir() {
            std::fs::remove_dir_all(path).expect("rm");
        } else {
            std::fs::remove_file(path).expect("rm");
        }
    }
    // In a subdirectory, its own entries count.
    put(ws.path(), "sub/json.py", "");
    not_allowed(ws.path(), "cd sub && python3 -c 'import json'").await;
    allowed(ws.path(), "python3 -c 'import json'").await;
    // A module not of the standard library runs its own code, wherever it is found.
    not_allowed(
        ws.path(),
        "python3 -c 'import yaml; print(yaml.__version__)'",
    )
    .await;
    not_allowed(ws.path(), "python3 -m json.tool package.json out.json").await;
}

#[tokio::test]
async fn node_parses_a_json_file_it_requires_only_when_it_is_a_regular_file() {
    let ws = tempfile::tempdir().expect("dir");
    put(
        ws.path(),
        "package.json",
        "{\"name\": \"x\", \"version\": \"1.0.0\"}\n",
    );
    put(ws.path(), "conf/settings.json", "{}\n");
    let commands = [
        "node -p \"require('./package.json').version\"",
        "node -e \"console.log(require('./conf/settings.json'))\"",
    ];
    for c in commands {
        allowed(ws.path(), c).await;
    }
    // A directory of that name runs its index.js; a link is loaded by its target's
    // extension; a missing file may be found with an extension added.
    std::fs::remove_file(ws.path().join("package.json")).expect("rm");
    not_allowed(ws.path(), commands[0]).await;
    put(
        ws.path(),
        "package.json/index.js",
        "require('child_process').execSync('id')\n",
    );
    not_allowed(ws.path(), commands[0]).await;
    std::fs::remove_dir_all(ws.path().join("package.json")).expect("rm");
    put(
        ws.path(),
        "evil.js",
        "require('child_process').execSync('id')\n",
    );
    std::os::unix::fs::symlink("evil.js", ws.path().join("package.json")).expect("link");
    not_allowed(ws.path(), commands[0]).await;
    // A secret is judged as the read it is.
    put(ws.path(), ".env.json", "{\"token\": \"canary\"}\n");
    put(
        ws.path(),
        "secrets/credentials.json",
        "{\"token\": \"canary\"}\n",
    );
    not_allowed(
        ws.path(),
        "node -p \"require('./secrets/credentials.json')\"",
    )
    .await;
}

/// What git reads besides the repository's own objects, index and names as the checks read
/// them: objects borrowed from another repository, submodules searched as well, names git
/// prints quoted. Each makes a read unproven.
#[tokio::test]
async fn a_repository_git_reads_beyond_what_is_checked_is_not_proven() {
    let ws = tempfile::tempdir().expect("dir");
    assert!(
        git(ws.path(), &["init", "-q"]),
        "git is needed to build this workspace"
    );
    put(ws.path(), "a.md", "hello\n");
    assert!(git(ws.path(), &["add", "a.md"]));
    assert!(git(
        ws.path(),
        &[
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@t",
            "commit",
            "-qm",
            "one"
        ]
    ));
    allowed(ws.path(), "git log --oneline").await;
    allowed(ws.path(), "git grep -h hello").await;
    allowed(ws.path(), "cat $(git ls-files)").await;
    // Objects of another repository.
    let other = tempfile::tempdir().expect("dir");
    put(
        ws.path(),
        ".git/objects/info/alternates",
        &format!("{}\n", other.path().display()),
    );
    not_allowed(ws.path(), "git log --oneline").await;
    std::fs::remove_file(ws.path().join(".git/objects/info/alternates")).expect("rm");
    allowed(ws.path(), "git log --oneline").await;
    // Submodules searched too.
    assert!(git(ws.path(), &["config", "submodule.recurse", "true"]));
    not_allowed(ws.path(), "git grep -h hello").await;
    assert!(git(ws.path(), &["config", "--unset", "submodule.recurse"]));
    // A name git prints quoted, which the reader opens as written.
    put(ws.path(), "é.md", "x\n");
    assert!(git(ws.path(), &["add", "é.md"]));
    not_allowed(ws.path(), "cat $(git ls-files)").await;
    not_allowed(ws.path(), "git ls-files | xargs cat").await;
}

/// `git ARGS…` as a committer of its own (no user configuration needed).
/// Makes `root` a repository whose first branch is `main`.
fn init_main(root: &Path) {
    assert!(
        git(root, &["init", "-q", "-b", "main"]),
        "git is needed to build this workspace"
    );
}

fn as_committer(root: &Path, args: &[&str]) -> bool {
    let mut all = vec!["-c", "user.email=a@b", "-c", "user.name=a"];
    all.extend_from_slice(args);
    git(root, &all)
}

#[tokio::test]
async fn a_secret_in_a_commit_or_tag_message_is_printed_by_what_prints_messages() {
    let ws = tempfile::tempdir().expect("dir");
    let root = ws.path();
    assert!(
        git(root, &["init", "-q"]),
        "git is needed to build this workspace"
    );
    let commit =
        |message: &str| as_committer(root, &["commit", "-q", "--allow-empty", "-m", message]);
    assert!(commit("first"));
    let prints = [
        "git log -2",
        "git log --oneline",
        "git log --format='%h %s'",
        "git show -s HEAD",
        "git cat-file -p HEAD",
        "git branch -v",
        "git reflog",
        "git show-branch",
        "git tag -n99",
        "git for-each-ref --format='%(contents)'",
        "git rev-list --format=%B -1 HEAD",
        // An option's value that reads like a format is that option's.
        "git log --grep --format=%H -1",
        "git log --author --format=%H",
        // Identities are checked with the messages.
        "git log --pretty=format:'%h %an %ad'",
        "git blame README",
    ];
    for c in [
        "git log -1",
        "git log --oneline",
        "git show -s HEAD",
        "git reflog",
    ] {
        allowed(root, c).await;
    }
    assert!(commit(
        "fix: use token ghp_R8s7dK2mQ9xL4vT6yB1nZ3cF5hJ0wP8aE2uS for the mirror"
    ));
    assert!(commit("later"));
    for c in prints {
        not_allowed(root, c).await;
    }
    // Formats that print no message, commands that print none, and a walk of the commits
    // after it.
    for c in [
        "git log -1",
        "git log -n 1 --oneline",
        "git log --format=%H",
        "git log --pretty=format:'%h %ad'",
        "git status",
    ] {
        allowed(root, c).await;
    }
    // An annotated tag's message.
    let tagged = tempfile::tempdir().expect("dir");
    let root = tagged.path();
    assert!(git(root, &["init", "-q"]));
    assert!(as_committer(
        root,
        &["commit", "-q", "--allow-empty", "-m", "one"]
    ));
    allowed(root, "git tag -n").await;
    assert!(as_committer(
        root,
        &[
            "tag",
            "-a",
            "v1",
            "-m",
            "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXk\n-----END OPENSSH PRIVATE KEY-----"
        ]
    ));
    not_allowed(root, "git tag -n").await;
    not_allowed(root, "git show v1").await;
    not_allowed(root, "git show -s --format=%H v1").await;
    not_allowed(root, "git tag -l --format='%(refname) %(*trailers:only)'").await;
    allowed(root, "git tag -l").await;
}

/// Writes the raw object `body` of `kind` into the repository at `root`; its id.
fn raw_object(root: &Path, kind: &str, body: &str) -> String {
    use std::io::Write as _;
    let mut child = std::process::Command::new("git")
        .args(["hash-object", "-w", "-t", kind, "--stdin", "--literally"])
        .current_dir(root)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("git hash-object");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(body.as_bytes())
        .expect("object written");
    let out = child.wait_with_output().expect("git hash-object ran");
    assert!(out.status.success(), "{kind} object written");
    String::from_utf8(out.stdout).expect("id").trim().to_owned()
}

#[tokio::test]
async fn every_commit_and_tag_object_s_message_is_checked_raw_whatever_reaches_it() {
    let token = "ghp_aB3dE5fG7hJ9kL1mN2pQ4rS6tU8vW0xY2zA4";
    // Each workspace: a clean history, and one object holding the token that no branch or
    // `refs/tags` ref reaches.
    let fresh = || {
        let ws = tempfile::tempdir().expect("dir");
        assert!(git(ws.path(), &["init", "-q"]), "git is needed");
        assert!(as_committer(
            ws.path(),
            &["commit", "-q", "--allow-empty", "-m", "one"]
        ));
        ws
    };
    let head = |root: &Path| {
        let out = std::process::Command::new("git")
            .args(["rev-parse", "HEAD"])
            .current_dir(root)
            .output()
            .expect("rev-parse");
        String::from_utf8(out.stdout).expect("id").trim().to_owned()
    };
    let tag_of = |root: &Path, object: &str, kind: &str, name: &str, message: &str| {
        raw_object(
            root,
            "tag",
            &format!(
                "object {object}\ntype {kind}\ntag {name}\ntagger a <a@b> 1700000000 +0000\n\n{message}\n"
            ),
        )
    };
    // A tag object kept under a ref outside `refs/tags`.
    let ws = fresh();
    let root = ws.path();
    allowed(root, "git show -s").await;
    let tag = tag_of(root, &head(root), "commit", "rel", token);
    assert!(git(root, &["update-ref", "refs/keep/rel", &tag]));
    for c in [
        "git show refs/keep/rel",
        "git for-each-ref --format='%(contents)' refs/keep",
    ] {
        not_allowed(root, c).await;
    }
    // A tag of a tag: the inner one's message.
    let ws = fresh();
    let root = ws.path();
    let inner = tag_of(root, &head(root), "commit", "inner", token);
    let outer = tag_of(root, &inner, "tag", "v1", "release");
    assert!(git(root, &["update-ref", "refs/tags/v1", &outer]));
    not_allowed(root, "git show v1").await;
    // A commit no ref or reflog reaches (a dangling id), and one whose message says it is
    // in another encoding (printed raw by `cat-file -p`, re-encoded by `git log`).
    let ws = fresh();
    let root = ws.path();
    let tree = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";
    let dangling = raw_object(
        root,
        "commit",
        &format!(
            "tree {tree}\nauthor a <a@b> 1700000000 +0000\ncommitter a <a@b> 1700000000 +0000\n\n{token}\n"
        ),
    );
    not_allowed(root, &format!("git rev-list --format=%B -1 {dangling}")).await;
    not_allowed(root, "git rev-list --oneline HEAD").await;
    let ws = fresh();
    let root = ws.path();
    raw_object(
        root,
        "commit",
        &format!(
            "tree {tree}\nauthor a <a@b> 1700000000 +0000\ncommitter a <a@b> 1700000000 +0000\nencoding IBM037\n\nhello\n"
        ),
    );
    not_allowed(root, "git show -s").await;
    // None of it: what prints messages is allowed.
    let ws = fresh();
    for c in [
        "git show -s --format=%H",
        "git rev-list --oneline HEAD",
        "git cat-file -p HEAD",
    ] {
        allowed(ws.path(), c).await;
    }
}

#[tokio::test]
async fn blame_at_a_revision_and_a_verbose_status_print_what_the_objects_hold() {
    let ws = tempfile::tempdir().expect("dir");
    let root = ws.path();
    assert!(
        git(root, &["init", "-q"]),
        "git is needed to build this workspace"
    );
    put(
        root,
        "notes.txt",
        "notes\nAWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYzzzzzzzzzz\n",
    );
    assert!(git(root, &["add", "."]));
    assert!(as_committer(root, &["commit", "-qm", "one"]));
    put(root, "notes.txt", "notes\n");
    assert!(as_committer(root, &["commit", "-qam", "two"]));
    for c in [
        "git blame notes.txt",
        "git blame HEAD -- notes.txt",
        "git blame notes.txt HEAD",
        "git status",
    ] {
        allowed(root, c).await;
    }
    for c in [
        "git blame HEAD~1 -- notes.txt",
        "git blame notes.txt HEAD~1",
        "git blame -- notes.txt HEAD~1",
        "git blame HEAD~1 notes.txt",
        "git annotate notes.txt HEAD~1",
        "git blame --reverse HEAD~1 -- notes.txt",
        "git status -v",
        "git status -vv",
    ] {
        not_allowed(root, c).await;
    }
}

#[tokio::test]
async fn go_list_and_go_doc_only_read_when_the_module_cache_holds_what_the_module_requires() {
    let ws = tempfile::tempdir().expect("dir");
    let root = ws.path();
    put(root, "go.mod", "module example.com/demo\n\ngo 1.16\n");
    put(root, "main.go", "package main\n\nfunc main() {}\n");
    for c in [
        "go list ./...",
        "go list -m all",
        "go doc fmt.Println",
        "gofmt -l main.go",
    ] {
        allowed(root, c).await;
    }
    for c in [
        "go list -u -m all",
        "go list -export ./...",
        "gofmt -w main.go",
    ] {
        not_allowed(root, c).await;
    }
    put(
        root,
        "go.mod",
        "module example.com/demo\n\ngo 1.16\n\nrequire example.com/never/fetched v1.2.3\n",
    );
    for c in ["go list ./...", "go doc fmt.Println"] {
        not_allowed(root, c).await;
    }
}

#[tokio::test]
async fn what_the_git_directory_keeps_beside_the_objects_is_checked_where_it_is_printed() {
    let ws = tempfile::tempdir().expect("dir");
    let root = ws.path();
    assert!(
        git(root, &["init", "-q"]),
        "git is needed to build this workspace"
    );
    let token = "ghp_R8s7dK2mQ9xL4vT6yB1nZ3cF5hJ0wP8aE2uS";
    assert!(as_committer(
        root,
        &["commit", "-q", "--allow-empty", "-m", "first"]
    ));
    // A credential in a remote's URL is not what `git status` prints.
    assert!(git(
        root,
        &[
            "remote",
            "add",
            "origin",
            &format!("https://u:{token}@example.com/r")
        ]
    ));
    put(root, ".gitignore", "target/\n");
    put(root, "a.txt", "a\n");
    for c in [
        "git status",
        "git check-ignore -v a.txt",
        "git worktree list -v",
        "git log --oneline",
        "git var GIT_EDITOR",
    ] {
        allowed(root, c).await;
    }
    // An ignore pattern is printed by `check-ignore -v` only.
    put(root, "sub/.gitignore", &format!("{token}\n"));
    not_allowed(root, "git check-ignore -v a.txt").await;
    allowed(root, "git check-ignore a.txt").await;
    allowed(root, "git status").await;
    std::fs::remove_file(root.join("sub/.gitignore")).unwrap();
    // An attribute's value is printed by `check-attr`, from the tree or `info/attributes`.
    allowed(root, "git check-attr -a a.txt").await;
    put(root, "sub/.gitattributes", &format!("*.txt key={token}\n"));
    not_allowed(root, "git check-attr -a a.txt").await;
    not_allowed(root, "git check-attr --all -- a.txt").await;
    allowed(root, "git status -s").await;
    std::fs::remove_file(root.join("sub/.gitattributes")).unwrap();
    put(
        root,
        ".git/info/attributes",
        &format!("a.txt foo={token}\n"),
    );
    not_allowed(root, "git check-attr -a a.txt").await;
    std::fs::remove_file(root.join(".git/info/attributes")).unwrap();
    allowed(root, "git check-attr -a a.txt").await;
    // Another tree's attributes are not the work tree's files.
    not_allowed(root, "git check-attr --source=HEAD -a a.txt").await;
    not_allowed(root, "git check-attr --cached -a a.txt").await;
    // A rebase's todo list is printed by `git status` in its long form.
    let todo = root.join(".git/rebase-merge");
    std::fs::create_dir_all(&todo).unwrap();
    std::fs::write(todo.join("git-rebase-todo"), format!("exec echo {token}\n")).unwrap();
    not_allowed(root, "git status").await;
    allowed(root, "git status -s").await;
    std::fs::remove_dir_all(&todo).unwrap();
    // The upstream a branch names.
    assert!(git(
        root,
        &[
            "config",
            "branch.master.merge",
            &format!("refs/heads/{token}")
        ]
    ));
    not_allowed(root, "git status").await;
    assert!(git(root, &["config", "--unset", "branch.master.merge"]));
    allowed(root, "git status").await;
    // A reflog entry's message, printed by `git reflog` and walks of every commit.
    assert!(git(
        root,
        &[
            "update-ref",
            "-m",
            &format!("moved for {token}"),
            "refs/heads/x",
            "HEAD"
        ]
    ));
    not_allowed(root, "git reflog").await;
    // A setting's value read whatever its key, and the editor `git var` prints.
    assert!(git(root, &["update-ref", "-d", "refs/heads/x"]));
    assert!(git(
        root,
        &[
            "config",
            "core.editor",
            &format!("env GH_TOKEN={token} vim")
        ]
    ));
    not_allowed(root, "git config core.editor").await;
    not_allowed(root, "git var GIT_EDITOR").await;
    allowed(root, "git config user.name").await;
}

#[tokio::test]
async fn the_names_of_refs_and_remotes_are_checked_where_they_may_be_printed() {
    let ws = tempfile::tempdir().expect("dir");
    let root = ws.path();
    init_main(root);
    assert!(as_committer(
        root,
        &["commit", "-q", "--allow-empty", "-m", "first"]
    ));
    let token = "ghp_R8s7dK2mQ9xL4vT6yB1nZ3cF5hJ0wP8aE2uS";
    let printers = [
        "git branch",
        "git branch -a",
        "git tag",
        "git show-ref",
        "git for-each-ref",
        "git log --oneline --decorate",
        "git describe --all",
        "git status -sb",
        "git remote",
    ];
    for c in printers {
        allowed(root, c).await;
    }
    // A loose branch, a packed tag, a remote: each name is printed by one of them.
    assert!(git(root, &["branch", &format!("fix-{token}")]));
    for c in printers {
        not_allowed(root, c).await;
    }
    allowed(root, "git ls-files").await;
    allowed(root, "git diff --stat").await;
    assert!(git(root, &["branch", "-D", &format!("fix-{token}")]));
    allowed(root, "git branch").await;
    assert!(git(root, &["tag", &format!("v1-{token}")]));
    assert!(git(root, &["pack-refs", "--all"]));
    assert!(
        std::fs::read_to_string(root.join(".git/packed-refs"))
            .unwrap()
            .contains(token)
    );
    not_allowed(root, "git tag").await;
    not_allowed(root, "git describe --tags").await;
    assert!(git(root, &["tag", "-d", &format!("v1-{token}")]));
    allowed(root, "git tag").await;
    assert!(git(
        root,
        &["remote", "add", token, "https://example.com/r.git"]
    ));
    not_allowed(root, "git remote").await;
    not_allowed(root, "git branch -vv").await;
    assert!(git(root, &["remote", "remove", token]));
    allowed(root, "git remote").await;
    // The branch checked out, printed by `git status` and `git branch --show-current`.
    assert!(git(
        root,
        &["checkout", "-q", "-b", &format!("wip/{token}")]
    ));
    not_allowed(root, "git branch --show-current").await;
    not_allowed(root, "git rev-parse --abbrev-ref HEAD").await;
}

#[tokio::test]
async fn a_branch_s_upstream_is_a_ref_not_a_reflog_entry() {
    let ws = tempfile::tempdir().expect("dir");
    let root = ws.path();
    init_main(root);
    put(root, "a.txt", "a\n");
    assert!(git(root, &["add", "."]));
    assert!(as_committer(root, &["commit", "-q", "-m", "one"]));
    assert!(git(
        root,
        &["remote", "add", "origin", "https://example.com/r.git"]
    ));
    assert!(git(
        root,
        &["update-ref", "refs/remotes/origin/main", "HEAD"]
    ));
    assert!(git(root, &["config", "branch.main.remote", "origin"]));
    assert!(git(
        root,
        &["config", "branch.main.merge", "refs/heads/main"]
    ));
    put(root, "a.txt", "b\n");
    assert!(git(root, &["commit", "-qam", "two"]));
    for c in [
        "git log @{u}..",
        "git log --oneline @{upstream}..HEAD",
        "git diff @{u}",
        "git diff @{U} --stat",
        "git log -p @{u}..",
        "git show @{u}",
    ] {
        allowed(root, c).await;
    }
    // A reflog entry and the branch checked out before are not refs.
    for c in ["git diff @{1}", "git diff @{-1}", "git show main@{1}"] {
        not_allowed(root, c).await;
    }
    // Without an upstream, git cannot say what it names.
    assert!(git(root, &["config", "--unset", "branch.main.merge"]));
    not_allowed(root, "git diff @{u}").await;
}

/// Commits what the index holds in `root`, as a made-up author.
fn commit(root: &Path, message: &str) {
    assert!(git(
        root,
        &[
            "-c",
            "user.name=a",
            "-c",
            "user.email=a@example.com",
            "commit",
            "-qm",
            message
        ]
    ));
}

/// A repository with three commits on `main` whose files say nothing, for the names cases.
fn named_repository() -> tempfile::TempDir {
    let ws = tempfile::tempdir().expect("dir");
    let root = ws.path();
    assert!(git(root, &["init", "-q", "-b", "main"]));
    put(root, "README.md", "# x\n");
    put(root, "src/main.rs", "fn main() {}\n");
    for n in 0..3 {
        put(root, "notes.md", &format!("note {n}\n"));
        assert!(git(root, &["add", "."]));
        commit(root, "work");
    }
    ws
}

/// Where a secret is only a name, and the commands that print that name.
#[tokio::test]
async fn names_holding_a_secret_are_printed_by_listings_globs_walks_and_git() {
    let token = "ghp_R8s7dK2mQ9xL4vT6yB1nZ3cF5hJ0wP8aE2uS";
    let listings = [
        "ls",
        "ls -la",
        "ls -R",
        "find .",
        "find . -name '*.rs'",
        "du -a",
        "tree",
        "echo *",
        "printf '%s\\n' */*",
        "for f in *; do echo \"$f\"; done",
        "grep -r main .",
        "ls -R .git/refs",
        "find .git",
        "du -a .git",
        "stat .git/refs/heads/*",
        "echo .git/refs/heads/*",
        "head .git/refs/heads/*",
        "wc -c .git/refs/heads/*",
        "grep -r . .git/refs",
        "ls .git/refs/heads",
        "git ls-files",
        "git status",
        "git status -s",
        "git ls-tree -r HEAD --name-only",
        "git show --stat",
        "git log --stat",
        "git log --name-only --all",
        "git rev-list --all --objects",
        "git whatchanged --all",
        "git branch",
        "git worktree list",
    ];
    let clean = named_repository();
    for command in listings {
        allowed(clean.path(), command).await;
    }
    // Each workspace holds the token in one name only; each command that prints it asks,
    // and no reason repeats it.
    let asks = async |root: &Path, commands: &[&str]| {
        for command in commands {
            let (s, why) = stance(root, command).await;
            assert_ne!(s, Stance::PolicyAllow, "{command} must ask: {why}");
            assert!(!why.contains(token), "{command}: {why}");
        }
    };
    let tracked = named_repository();
    put(tracked.path(), &format!("src/cfg-{token}.txt"), "x\n");
    assert!(git(tracked.path(), &["add", "."]));
    asks(
        tracked.path(),
        &[
            "ls src",
            "ls -R",
            "find .",
            "du -a",
            "tree",
            "echo src/*",
            "for f in src/*; do echo \"$f\"; done",
            "grep -r x src",
            "git ls-files",
            "git status -s",
            "git diff --cached --stat",
        ],
    )
    .await;
    let branch = named_repository();
    assert!(git(branch.path(), &["branch", &format!("b-{token}")]));
    asks(
        branch.path(),
        &[
            "ls .git/refs/heads",
            "ls -R .git/refs",
            "find .git",
            "find .",
            "du -a .git",
            "stat .git/refs/heads/*",
            "echo .git/refs/heads/*",
            "head .git/refs/heads/*",
            "grep -r . .git/refs",
            "git branch",
        ],
    )
    .await;
    // Committed, then removed: only the history holds the name.
    let history = named_repository();
    put(history.path(), &format!("cfg-{token}.txt"), "x\n");
    assert!(git(history.path(), &["add", "."]));
    commit(history.path(), "add");
    assert!(git(
        history.path(),
        &["rm", "-q", &format!("cfg-{token}.txt")]
    ));
    commit(history.path(), "remove");
    allowed(history.path(), "ls -la").await;
    allowed(history.path(), "git log --oneline").await;
    asks(
        history.path(),
        &[
            "git log --stat",
            "git log --name-only --all",
            "git show --stat HEAD~1",
            "git ls-tree -r HEAD~1",
            "git rev-list --all --objects",
            "git whatchanged --all",
            "git diff --stat HEAD~1",
            "git cat-file -p HEAD~1:",
            "git ls-files --with-tree=HEAD~1",
        ],
    )
    .await;
    // Staged for deletion: only HEAD holds the name.
    let staged = named_repository();
    put(staged.path(), &format!("cfg-{token}.txt"), "x\n");
    assert!(git(staged.path(), &["add", "."]));
    commit(staged.path(), "add");
    assert!(git(
        staged.path(),
        &["rm", "-q", &format!("cfg-{token}.txt")]
    ));
    asks(
        staged.path(),
        &[
            "git status",
            "git status -s",
            "git diff --cached --stat",
            "git diff --cached --name-only",
        ],
    )
    .await;
    // Only another branch holds it.
    let branch_only = named_repository();
    assert!(git(branch_only.path(), &["checkout", "-q", "-b", "other"]));
    put(branch_only.path(), &format!("cfg-{token}.txt"), "x\n");
    assert!(git(branch_only.path(), &["add", "."]));
    commit(branch_only.path(), "add");
    assert!(git(branch_only.path(), &["checkout", "-q", "main"]));
    allowed(branch_only.path(), "git status").await;
    allowed(branch_only.path(), "git diff --stat").await;
    asks(
        branch_only.path(),
        &[
            "git diff main other --stat",
            "git diff --name-only main..other",
            "git grep -l x other",
            "git ls-tree -r other",
        ],
    )
    .await;
    let untracked = named_repository();
    put(untracked.path(), &format!("cfg-{token}.txt"), "x\n");
    asks(
        untracked.path(),
        &[
            "git status",
            "git status -s",
            "git ls-files -o",
            "ls",
            // Globs the shell expands later, or inside braces.
            "f=*; echo $f",
            "f='*'; echo $f",
            "f=(*); printf '%s\\n' \"${f[@]}\"",
            "echo {a,*}",
            // A process's own view of the workspace.
            "echo /proc/$$/cwd/*",
            "ls /proc/self/cwd/",
        ],
    )
    .await;
    // Ignored: only what names ignored files prints it.
    let ignored = named_repository();
    put(ignored.path(), ".gitignore", "*.log\n");
    put(ignored.path(), &format!("cfg-{token}.log"), "x\n");
    allowed(ignored.path(), "git status").await;
    allowed(ignored.path(), "git clean -n").await;
    asks(
        ignored.path(),
        &[
            "git status --ignored",
            "git ls-files -o",
            "git ls-files -oi --exclude-standard",
            "git clean -ndx",
            "git clean -nX",
        ],
    )
    .await;
    // A link whose target is the token: the link's listing prints it.
    let link = named_repository();
    std::os::unix::fs::symlink(format!("/opt/keys/{token}"), link.path().join("keylink"))
        .expect("link");
    asks(
        link.path(),
        &[
            "ls -l keylink",
            "readlink keylink",
            "stat keylink",
            "ls -la",
            "find . -type l -ls",
        ],
    )
    .await;
    // A linked worktree whose path holds it.
    let main = named_repository();
    let outer = tempfile::tempdir().expect("dir");
    let wt = outer.path().join(format!("wt-{token}"));
    assert!(git(
        main.path(),
        &[
            "worktree",
            "add",
            "-q",
            wt.to_str().expect("utf-8"),
            "-b",
            "wtb"
        ]
    ));
    asks(
        main.path(),
        &[
            "git worktree list",
            "git worktree list --porcelain",
            "ls .git/worktrees",
        ],
    )
    .await;
}
