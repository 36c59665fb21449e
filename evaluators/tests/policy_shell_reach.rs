//! What a command reaches beyond its spelling: globs in written names, names the script links
//! or moves, trees deleted by a name only known when it runs, git work trees outside the
//! workspace, `file:` URLs, other processes' files and the command's own input. What reaches
//! protected configuration, a secret or the home directory binds in every mode; ordinary
//! work stays open (settled by the mode).

mod support;

use support::{bash, context, decided, verdict, workspace};
use warrant_core::call::PermissionMode;
use warrant_core::evaluator::Stance;
use warrant_evaluators::{PolicyConfig, PolicyEvaluator};

/// A workspace holding Warrant's configuration, Claude Code's settings and a repository's
/// configuration, and a home holding a private key.
fn fixture() -> (tempfile::TempDir, tempfile::TempDir) {
    let ws = workspace();
    let root = ws.path();
    for (rel, text) in [
        ("warrant.toml", "mode = \"default\"\n"),
        ("Cargo.toml", "[package]\n"),
        (".claude/settings.json", "{}\n"),
        (".git/config", "[core]\n"),
        (".git/HEAD", "ref: refs/heads/main\n"),
        ("src/main.rs", "fn main() {}\n"),
    ] {
        let path = root.join(rel);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("dir");
        std::fs::write(path, text).expect("file");
    }
    let home = tempfile::tempdir().expect("home");
    std::fs::create_dir_all(home.path().join(".ssh")).expect(".ssh");
    std::fs::write(
        home.path().join(".ssh/id_rsa"),
        "-----BEGIN OPENSSH PRIVATE KEY-----\nx\n-----END OPENSSH PRIVATE KEY-----\n",
    )
    .expect("key");
    (ws, home)
}

/// The stance of the policy on each command, every mismatch listed at once.
async fn stances(rows: &[(&str, Stance)]) {
    let (ws, home) = fixture();
    let policy = PolicyEvaluator::new(&PolicyConfig {
        home_dir: Some(home.path().to_path_buf()),
        sensitive_paths: Vec::new(),
        protected_paths: Vec::new(),
    })
    .expect("policy");
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
async fn globs_in_written_names_are_judged_as_what_they_expand_to() {
    stances(&[
        ("echo x > .claude/settings.js?n", Stance::HardDeny),
        ("echo x >> .git/confi?", Stance::HardDeny),
        ("sed -i s/a/b/ *.toml", Stance::HardDeny),
        ("cp x .claude/settings.js*", Stance::HardDeny),
        ("echo x | tee .claude/*", Stance::HardDeny),
        ("echo x | tee .claude/settings.{json,bak}", Stance::HardDeny),
        // Quoted, the glob is a name of its own; unmatched, it stays as written.
        ("echo x > '.claude/settings.js?n'", Stance::DefaultAsk),
        ("echo x > .claude/nothing-*", Stance::DefaultAsk),
        ("sed -i s/a/b/ src/*.rs", Stance::DefaultAsk),
        ("rm -f target/*.o", Stance::DefaultAsk),
    ])
    .await;
}

#[tokio::test]
async fn names_the_script_links_or_moves_are_judged_as_what_they_stand_for() {
    stances(&[
        (
            "ln -s .claude c; echo x > c/settings.json",
            Stance::HardDeny,
        ),
        (
            "ln -s .claude/settings.json s && echo x >> s",
            Stance::HardDeny,
        ),
        (
            "mkdir -p d && ln -s ../.claude d/g && cp x d/g/settings.json",
            Stance::HardDeny,
        ),
        (
            "mkdir -p d && cd d && ln -s ../.claude g && echo x > g/settings.json",
            Stance::HardDeny,
        ),
        ("ln -s ~/.ssh/id_rsa k; cat k", Stance::HardDeny),
        ("ln -s ~/.ssh k && cat k/id_rsa", Stance::HardDeny),
        (
            "mv .claude c && echo x > c/settings.json && mv c .claude",
            Stance::HardDeny,
        ),
        (
            "ln -s \"$X\" h; echo x > h/settings.json",
            Stance::RequireAsk,
        ),
        // Links and copies of ordinary files stay ordinary writes.
        ("ln -s src s2 && echo x > s2/new.rs", Stance::DefaultAsk),
        (
            "cp -r src /tmp/bk-reach && sed -i s/a/b/ /tmp/bk-reach/main.rs",
            Stance::DefaultAsk,
        ),
        (
            "mv src/main.rs src/lib.rs && sed -i s/a/b/ src/lib.rs",
            Stance::DefaultAsk,
        ),
    ])
    .await;
}

#[tokio::test]
async fn trees_deleted_by_names_only_known_when_they_run_bind() {
    stances(&[
        ("rm -rf \"$(echo ~)\"", Stance::HardDeny),
        ("rm -rf `echo ~`", Stance::HardDeny),
        ("rm -rf \"$DIR\"", Stance::RequireAsk),
        ("find \"$(echo ~)\" -delete", Stance::RequireAsk),
        ("rm -rf \"$(dirname \"$PWD\")\"", Stance::RequireAsk),
        ("for d in ~ x; do rm -rf $d; done", Stance::HardDeny),
        ("rm -rf \"$PWD/..\"", Stance::HardDeny),
        ("rm -rf target", Stance::DefaultAsk),
        // `$X` may be `../..`: what it names is known only when it runs, which binds.
        ("rm -rf build/$X", Stance::RequireAsk),
        ("rm -rf \"$PWD/target\"", Stance::DefaultAsk),
        ("echo build dist | xargs rm -rf", Stance::DefaultAsk),
    ])
    .await;
}

#[tokio::test]
async fn deleting_or_moving_a_directory_of_configuration_deletes_the_configuration() {
    stances(&[
        ("rm -rf .claude", Stance::HardDeny),
        ("rm -r .claude/", Stance::HardDeny),
        ("find .claude -delete", Stance::HardDeny),
        ("mv .claude /tmp/c", Stance::HardDeny),
        ("rm -rf .[!.]*", Stance::HardDeny),
        ("rm -rf src", Stance::DefaultAsk),
        ("mv src lib", Stance::DefaultAsk),
        ("rm -rf .", Stance::DefaultAsk),
    ])
    .await;
}

#[tokio::test]
async fn git_changing_a_work_tree_outside_the_workspace_binds() {
    stances(&[
        ("git --work-tree=$HOME clean -fdx", Stance::HardDeny),
        ("git -C ~ clean -fdx", Stance::HardDeny),
        ("GIT_WORK_TREE=~ git checkout -- .", Stance::HardDeny),
        (
            "git --git-dir=.git --work-tree=/ reset --hard",
            Stance::HardDeny,
        ),
        ("export GIT_WORK_TREE=~; git clean -fdx", Stance::HardDeny),
        ("cd ~ && git clean -fdx", Stance::HardDeny),
        ("git -C \"$D\" reset --hard", Stance::RequireAsk),
        (
            "git -C /nonexistent/elsewhere reset --hard",
            Stance::RequireAsk,
        ),
        // The workspace's untracked `warrant.toml` and Claude Code settings are deleted too.
        ("git clean -fdx", Stance::RequireAsk),
        ("git -C ~ status", Stance::DefaultAsk),
    ])
    .await;
}

#[tokio::test]
async fn file_urls_other_processes_and_whole_trees_read_what_they_name() {
    stances(&[
        ("curl \"file://$HOME/.ssh/id_rsa\"", Stance::HardDeny),
        ("curl -s \"file:$HOME/.ssh/id_rsa\"", Stance::HardDeny),
        (
            "curl \"FILE://localhost$HOME/.ssh/id%5Frsa\"",
            Stance::HardDeny,
        ),
        ("curl \"file://$K\"", Stance::RequireAsk),
        ("zip -r /tmp/h.zip ~", Stance::HardDeny),
        ("tar czf /tmp/h.tgz ~", Stance::HardDeny),
        ("tar czf /tmp/h.tgz -C ~ .", Stance::HardDeny),
        ("grep -r . ~", Stance::HardDeny),
        ("cat /proc/1/cwd/notes.txt", Stance::RequireAsk),
        ("cat /proc/1/environ", Stance::HardDeny),
        ("tar czf /tmp/src.tgz src", Stance::DefaultAsk),
    ])
    .await;
}

#[tokio::test]
async fn writing_the_commands_input_is_no_harmless_sink() {
    stances(&[
        ("echo 'rm -rf ~' > /dev/stdin", Stance::RequireAsk),
        ("printf x > /dev/fd/0", Stance::RequireAsk),
        ("echo x | tee /proc/self/fd/0", Stance::HardDeny),
        ("echo x >&0", Stance::DefaultAsk),
        ("echo x 1>&0", Stance::DefaultAsk),
        ("echo x > /dev/null", Stance::PolicyAllow),
        ("echo x >&2", Stance::PolicyAllow),
        ("echo '>&0'", Stance::PolicyAllow),
    ])
    .await;
}

#[tokio::test]
async fn written_names_only_known_when_they_run_are_judged_as_their_values() {
    stances(&[
        (
            "for f in *.toml; do sed -i s/a/b/ \"$f\"; done",
            Stance::HardDeny,
        ),
        (
            "for f in warrant.toml x; do echo y > \"$f\"; done",
            Stance::HardDeny,
        ),
        ("sed -i s/a/b/ $(ls *.toml)", Stance::HardDeny),
        (
            "find . -name '*.toml' -exec sed -i s/a/b/ {} +",
            Stance::HardDeny,
        ),
        ("ls *.toml | xargs sed -i s/a/b/", Stance::HardDeny),
        ("echo x > $(echo .claude/settings.json)", Stance::HardDeny),
        (
            "for f in src/*.rs; do sed -i s/a/b/ \"$f\"; done",
            Stance::DefaultAsk,
        ),
        (
            "find src -name '*.rs' -exec sed -i s/a/b/ {} +",
            Stance::DefaultAsk,
        ),
    ])
    .await;
}

#[tokio::test]
async fn variables_the_script_assigns_are_judged_as_their_values() {
    stances(&[
        ("f=.claude/settings.json; echo x > $f", Stance::HardDeny),
        ("f=.claude/settings.json; echo x > \"$f\"", Stance::HardDeny),
        ("d=.claude; echo x > \"$d/settings.json\"", Stance::HardDeny),
        ("f=.git/config; echo x >> \"$f\"", Stance::HardDeny),
        ("export f=warrant.toml; echo x > \"$f\"", Stance::HardDeny),
        (
            "declare f=warrant.toml; truncate -s0 \"$f\"",
            Stance::HardDeny,
        ),
        (
            "a=(.claude); echo x > ${a[0]}/settings.json",
            Stance::HardDeny,
        ),
        (
            "d=.claude; f=$d/settings.json; echo x > $f",
            Stance::HardDeny,
        ),
        ("f=$(echo warrant.toml); echo x > \"$f\"", Stance::HardDeny),
        (
            "if true; then f=warrant.toml; else f=out.txt; fi; echo x > \"$f\"",
            Stance::HardDeny,
        ),
        ("f=warrant.toml; dd if=Cargo.toml of=$f", Stance::HardDeny),
        (
            "d=.claude; cd \"$d\" && echo x > settings.json",
            Stance::HardDeny,
        ),
        // Values the script gives, none of them protected: settled by the mode.
        ("out=target/x.txt; echo hi > \"$out\"", Stance::DefaultAsk),
        ("out=target/x.txt; echo hi > $out", Stance::DefaultAsk),
        ("d=target; mkdir -p \"$d/sub\"", Stance::DefaultAsk),
        ("d=target; cd \"$d\" && echo hi > x.txt", Stance::DefaultAsk),
        ("f=Cargo.toml; cp \"$f\" \"$f.bak\"", Stance::DefaultAsk),
        (
            "for f in a b; do echo $f > \"target/$f.txt\"; done",
            Stance::DefaultAsk,
        ),
        (
            "name=report; echo hi > \"target/${name}.txt\"",
            Stance::DefaultAsk,
        ),
        ("tmp=$(mktemp); echo x > \"$tmp\"", Stance::DefaultAsk),
        ("echo hi > /tmp/out.$$", Stance::DefaultAsk),
        (
            "mkdir -p build && cd build && echo x > out.txt",
            Stance::DefaultAsk,
        ),
        // A variable only read is read as its values.
        ("f=Cargo.toml; cat \"$f\"", Stance::PolicyAllow),
    ])
    .await;
}

#[tokio::test]
async fn written_names_the_text_does_not_tell_bind() {
    stances(&[
        ("read f; echo x > \"$f\"", Stance::RequireAsk),
        (
            "read f <<< warrant.toml; echo x > \"$f\"",
            Stance::RequireAsk,
        ),
        (
            "printf -v f '%s' warrant.toml; echo x > \"$f\"",
            Stance::RequireAsk,
        ),
        ("f=x; echo x > \"${f/x/warrant.toml}\"", Stance::RequireAsk),
        ("f=warrant.tomlx; echo x > \"${f%x}\"", Stance::RequireAsk),
        (
            "f=.claude; f=$f/settings.json; echo x > $f",
            Stance::RequireAsk,
        ),
        ("f=a; f+=.toml; cp Cargo.toml \"$f\"", Stance::RequireAsk),
        (
            "a=(Cargo.toml warrant.toml); cp \"${a[@]}\"",
            Stance::RequireAsk,
        ),
        ("f=x; source ./env.sh; echo x > \"$f\"", Stance::RequireAsk),
        ("RANDOM=x; echo x > \"out.$RANDOM\"", Stance::RequireAsk),
        (
            "mv Cargo.toml \"$(echo .claude)/settings.json\"",
            Stance::RequireAsk,
        ),
        (
            "cd $(echo .claude) && echo x > settings.json",
            Stance::RequireAsk,
        ),
        (
            "read d; cd \"$d\" && echo x > settings.json",
            Stance::RequireAsk,
        ),
        (
            "ls -d .*/ | while read d; do echo x > \"$d/settings.json\"; done",
            Stance::RequireAsk,
        ),
        (
            "cat list | while read f; do echo x > \"$f\"; done",
            Stance::RequireAsk,
        ),
        (
            "awk '{print $1}' Cargo.toml | xargs -I{} cp Cargo.toml {}",
            Stance::RequireAsk,
        ),
    ])
    .await;
}

#[tokio::test]
async fn a_directory_the_script_makes_is_judged_where_the_text_puts_it() {
    stances(&[
        (
            "mkdir -p .gemini && cd .gemini && echo x > settings.json",
            Stance::HardDeny,
        ),
        (
            "mkdir -p .codex; cd .codex; echo x > config.toml",
            Stance::HardDeny,
        ),
    ])
    .await;
}

#[tokio::test]
async fn trees_read_from_roots_the_script_gives_are_read_as_each_root() {
    stances(&[
        ("d=~; grep -r x \"$d\"", Stance::HardDeny),
        (
            "for d in src ~; do grep -rn x \"$d\"; done",
            Stance::HardDeny,
        ),
        ("grep -r x $(echo ~)", Stance::HardDeny),
        ("d=~; tar czf /tmp/h.tgz \"$d\"", Stance::HardDeny),
    ])
    .await;
}

#[tokio::test]
async fn values_that_expand_again_or_land_elsewhere_are_not_taken_as_written() {
    stances(&[
        // Unquoted, an assigned glob expands to the names it matches.
        ("f='.claude/*'; echo x > $f", Stance::RequireAsk),
        ("f='.claude/*'; echo x > \"$f\"", Stance::HardDeny),
        // A `cd` that fails leaves the shell where it was.
        (
            "cd nothere; echo x > \"$PWD/.claude/settings.json\"",
            Stance::HardDeny,
        ),
        (
            "mkdir -p .codex && cd .codex && dd if=../Cargo.toml of=config.toml",
            Stance::HardDeny,
        ),
    ])
    .await;
}

#[tokio::test]
async fn downloads_and_edits_in_place_to_names_the_text_does_not_tell_bind() {
    stances(&[
        (
            "read f; curl -o \"$f\" https://example.com",
            Stance::RequireAsk,
        ),
        (
            "read f; wget -O \"$f\" https://example.com",
            Stance::RequireAsk,
        ),
        ("read f; sed -i s/a/b/ \"$f\"", Stance::RequireAsk),
        ("read f; perl -pi -e s/a/b/ \"$f\"", Stance::RequireAsk),
        (
            "f=.claude/settings.json; curl -o \"$f\" https://example.com",
            Stance::HardDeny,
        ),
        (
            "f=.claude/settings.json; perl -pi -e s/a/b/ \"$f\"",
            Stance::HardDeny,
        ),
        // Known, ordinary names stay settled by the mode.
        (
            "x=a; for f in src/*.rs; do sed -i \"s/$x/b/\" \"$f\"; done",
            Stance::DefaultAsk,
        ),
        (
            "u=https://example.com; curl -sSL \"$u\" -o target/x",
            Stance::DefaultAsk,
        ),
    ])
    .await;
}

#[tokio::test]
async fn variables_assigned_through_subscripts_and_home_are_not_the_texts() {
    stances(&[
        (
            "a=(ok.txt); : \"${a[1]:=.claude/settings.json}\"; echo '{}' > \"${a[1]}\"",
            Stance::RequireAsk,
        ),
        (
            "a=(ok.txt); : ${a[3]=.claude/settings.json}; echo '{}' > ${a[3]}",
            Stance::RequireAsk,
        ),
        (
            "HOME=.claude; echo '{}' > \"$HOME/settings.json\"",
            Stance::RequireAsk,
        ),
        (
            "export HOME=.claude; echo '{}' > ~/settings.json",
            Stance::RequireAsk,
        ),
        (
            "HOME=.git; cd; echo x > hooks/pre-commit",
            Stance::RequireAsk,
        ),
        (
            "cd .git/hooks; d=$PWD; cd ../..; cp /tmp/x \"$d/pre-commit\"",
            Stance::RequireAsk,
        ),
        ("f=ok.txt; bash -c 'echo {} > \"$f\"'", Stance::RequireAsk),
        (
            "a=(ok.txt); echo x > \"${a[0]:-b.txt}\"",
            Stance::DefaultAsk,
        ),
    ])
    .await;
}

#[tokio::test]
async fn a_tree_the_command_fills_is_copied_as_filled() {
    stances(&[
        // Names an earlier part writes into the tree land in the home: its start-up files.
        (
            "mkdir -p d && echo x > d/.bashrc && cp -r d/. ~",
            Stance::HardDeny,
        ),
        (
            "echo id > src/.bashrc && rsync -a src/ ~/",
            Stance::HardDeny,
        ),
        (
            "mkdir -p d/.local/bin && echo id > d/.local/bin/ls && cp -a d/. ~/",
            Stance::HardDeny,
        ),
        (
            "echo x > src/.profile && rsync --recurs src/ ~/",
            Stance::HardDeny,
        ),
        (
            "echo x > src/.zshrc && rsync --arc src/ ~",
            Stance::HardDeny,
        ),
        (
            "mkdir -p d && echo x > d/.zshrc && cp -R d/. /root",
            Stance::HardDeny,
        ),
        (
            "mkdir -p d && echo x > d/.bash_profile && cp -r d/. /tmp/elsewhere/",
            Stance::HardDeny,
        ),
        // Files not known (a program's output, an archive extracted over it, a tree not
        // there now) may be any start-up file.
        (
            "python3 gen.py && cp -a out/. /tmp/elsewhere/",
            Stance::RequireAsk,
        ),
        (
            "tar -xf a.tar && cp -r src/. /tmp/elsewhere",
            Stance::RequireAsk,
        ),
        ("cp -r gone/. /tmp/elsewhere", Stance::RequireAsk),
        (
            "echo x > src/$n && rsync -r src/ /tmp/elsewhere",
            Stance::RequireAsk,
        ),
        // In the workspace a name is what it is in the tree it comes from.
        ("cp -r src/. build/", Stance::DefaultAsk),
        ("rsync -a src/ dist/", Stance::DefaultAsk),
        ("mkdir e && cp -r e/. build/", Stance::DefaultAsk),
        (
            "echo x > src/new.rs && cp -r src/. build/",
            Stance::DefaultAsk,
        ),
        ("mkdir -p build && rsync -a src/ build/", Stance::DefaultAsk),
        ("python3 gen.py && cp -r out/. public/", Stance::DefaultAsk),
    ])
    .await;
}
