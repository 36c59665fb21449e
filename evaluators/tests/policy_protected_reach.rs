//! Ways a shell command reaches protected configuration or a secret that its words do not
//! show plainly: GNU long options by prefix, links and trees made at a configuration
//! directory's name, archives and patches whose members are read from the files, embedded
//! languages that write, code that names a protected path, `find` deleting or changing what
//! it finds, recursive reads and archives of trees that hold a secret, the environment
//! printed, startup files and the crontab. None of them may be settled by a permission mode.

mod support;

use serde_json::json;
use support::{bash, call, context_with_catalog, decided, policy, verdict, workspace};
use warrant_core::call::{PermissionMode, ToolCall};
use warrant_core::evaluator::{Stance, Verdict};

async fn stance(root: &std::path::Path, c: &ToolCall) -> Option<Stance> {
    let cx = context_with_catalog(PermissionMode::FullAccess, root);
    match verdict(&policy(), c, &cx).await {
        Verdict::Abstain => None,
        v => Some(decided(v).0),
    }
}

/// Whether no mode settles the call: a hard deny or a binding ask.
async fn binding(root: &std::path::Path, c: &ToolCall) -> bool {
    matches!(
        stance(root, c).await,
        Some(Stance::HardDeny | Stance::RequireAsk)
    )
}

fn project() -> tempfile::TempDir {
    let ws = workspace();
    let put = |rel: &str, text: &[u8]| {
        let path = ws.path().join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    put(".claude/settings.json", b"{}\n");
    put(".git/hooks/.keep", b"");
    put(".env", b"TOKEN=x\n");
    put("conf/.env", b"TOKEN=x\n");
    put("src/main.rs", b"fn main() {}\n");
    put("settings.json", b"{\"p\":1}\n");
    put("evil/hooks/pre-commit", b"#!/bin/sh\n");
    ws
}

/// A plain tar archive holding `names` (a trailing `/` a directory), and `link` as a
/// symbolic link when given.
fn tar(names: &[&str], link: Option<&str>) -> Vec<u8> {
    let mut out = Vec::new();
    let mut header = |name: &str, kind: u8| {
        let mut h = [0u8; 512];
        h[..name.len()].copy_from_slice(name.as_bytes());
        h[100..107].copy_from_slice(b"0000644");
        h[124..135].copy_from_slice(b"00000000000");
        h[156] = kind;
        h[257..263].copy_from_slice(b"ustar\0");
        h[148..156].copy_from_slice(b"        ");
        let sum: u32 = h.iter().map(|&b| u32::from(b)).sum();
        h[148..155].copy_from_slice(format!("{sum:06o}\0").as_bytes());
        out.extend_from_slice(&h);
    };
    for name in names {
        header(name, if name.ends_with('/') { b'5' } else { b'0' });
    }
    if let Some(name) = link {
        header(name, b'2');
    }
    out.extend_from_slice(&[0u8; 1024]);
    out
}

/// A stored zip archive holding empty files named `names`.
fn zip(names: &[&str]) -> Vec<u8> {
    let (mut out, mut central) = (Vec::new(), Vec::new());
    for name in names {
        let offset = u32::try_from(out.len()).unwrap();
        let len = u16::try_from(name.len()).unwrap();
        out.extend_from_slice(b"PK\x03\x04");
        out.extend_from_slice(&[20, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
        out.extend_from_slice(&[0; 12]);
        out.extend_from_slice(&len.to_le_bytes());
        out.extend_from_slice(&[0, 0]);
        out.extend_from_slice(name.as_bytes());
        central.extend_from_slice(b"PK\x01\x02");
        central.extend_from_slice(&[20, 3, 20, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
        central.extend_from_slice(&[0; 12]);
        central.extend_from_slice(&len.to_le_bytes());
        central.extend_from_slice(&[0; 8]);
        central.extend_from_slice(&(0o100_644u32 << 16).to_le_bytes());
        central.extend_from_slice(&offset.to_le_bytes());
        central.extend_from_slice(name.as_bytes());
    }
    let at = u32::try_from(out.len()).unwrap();
    let size = u32::try_from(central.len()).unwrap();
    let count = u16::try_from(names.len()).unwrap();
    out.extend_from_slice(&central);
    out.extend_from_slice(b"PK\x05\x06");
    out.extend_from_slice(&[0, 0, 0, 0]);
    out.extend_from_slice(&count.to_le_bytes());
    out.extend_from_slice(&count.to_le_bytes());
    out.extend_from_slice(&size.to_le_bytes());
    out.extend_from_slice(&at.to_le_bytes());
    out.extend_from_slice(&[0, 0]);
    out
}

#[tokio::test]
async fn target_directory_by_any_spelling_is_the_destination() {
    let ws = project();
    for cmd in [
        "cp --target-directory=.git/hooks evil/hooks/pre-commit",
        "cp --target=.git/hooks evil/hooks/pre-commit",
        "cp --targ .git/hooks evil/hooks/pre-commit",
        "mv --t .git/hooks evil/hooks/pre-commit",
        "install --target-dir .claude settings.json",
        "ln --target-directory=.git/hooks evil/hooks/pre-commit",
        "cp -vt.git/hooks evil/hooks/pre-commit",
        "cp -t.claude settings.json",
        "cp settings.json --suf x .claude/settings.json",
    ] {
        assert_eq!(
            stance(ws.path(), &bash(cmd)).await,
            Some(Stance::HardDeny),
            "{cmd}"
        );
    }
    for cmd in [
        "cp --target-directory=src settings.json",
        "cp -vtsrc settings.json",
    ] {
        assert!(!binding(ws.path(), &bash(cmd)).await, "{cmd}");
    }
}

#[tokio::test]
async fn links_and_trees_made_at_a_configuration_directory_are_protected() {
    let ws = project();
    std::fs::remove_dir_all(ws.path().join(".claude")).unwrap();
    for cmd in [
        "ln -s cfg .claude",
        "ln -sT cfg .vscode",
        "ln -s evil/.codex .codex",
        "ln -s /tmp/x -t . .gemini",
        "mkdir -p e && echo x > e/settings.json && cp -r e/. .claude",
        "mkdir -p e && cp -a e/. .vscode/",
    ] {
        assert_eq!(
            stance(ws.path(), &bash(cmd)).await,
            Some(Stance::HardDeny),
            "{cmd}"
        );
    }
    for cmd in ["ln -s src lib", "mkdir -p e && cp -r e/. out"] {
        assert!(!binding(ws.path(), &bash(cmd)).await, "{cmd}");
    }
}

#[tokio::test]
async fn archives_and_patches_are_read_for_the_files_they_write() {
    let ws = project();
    let p = ws.path();
    std::fs::write(
        p.join("bad.tar"),
        tar(&[".claude/", ".claude/settings.json"], None),
    )
    .unwrap();
    std::fs::write(p.join("ok.tar"), tar(&["lib/", "lib/a.txt"], None)).unwrap();
    std::fs::write(p.join("link.tar"), tar(&["lib/"], Some("lib/x"))).unwrap();
    std::fs::write(p.join("bad.zip"), zip(&[".git/hooks/pre-commit"])).unwrap();
    std::fs::write(p.join("ok.zip"), zip(&["lib/a.txt"])).unwrap();
    std::fs::write(
        p.join("bad.patch"),
        "--- a/.claude/settings.json\n+++ b/.claude/settings.json\n@@ -1 +1 @@\n-{}\n+{\"x\":1}\n",
    )
    .unwrap();
    std::fs::write(
        p.join("ok.patch"),
        "--- a/src/main.rs\n+++ b/src/main.rs\n@@ -1 +1 @@\n-fn main() {}\n+fn main() { }\n",
    )
    .unwrap();
    for cmd in [
        "tar -xf bad.tar",
        "tar xf bad.tar",
        "bsdtar -xf bad.tar",
        "tar -x --file=bad.tar",
        "unzip -o bad.zip",
        "patch -p1 < bad.patch",
        "patch -p1 -i bad.patch",
        "patch -i bad.patch",
    ] {
        assert_eq!(stance(p, &bash(cmd)).await, Some(Stance::HardDeny), "{cmd}");
    }
    for cmd in [
        "tar -xf link.tar",
        "tar -xzf missing.tgz",
        "cat ok.tar | tar -x",
        "patch -p1",
        "cpio -idmu < x.cpio",
        "7z x -y bad.zip",
        "jar xf bad.zip",
        "python3 -m zipfile -e bad.zip .",
    ] {
        assert_eq!(
            stance(p, &bash(cmd)).await,
            Some(Stance::RequireAsk),
            "{cmd}"
        );
    }
    for cmd in [
        "tar -xf ok.tar",
        "unzip ok.zip",
        "unzip -o ok.zip -d out",
        "patch -p1 < ok.patch",
    ] {
        assert!(!binding(p, &bash(cmd)).await, "{cmd}");
    }
}

#[tokio::test]
async fn embedded_languages_and_inline_code_that_name_protected_paths() {
    let ws = project();
    for cmd in [
        "sed -n 'w .claude/settings.json' settings.json",
        "sed 's/x/y/w .git/hooks/pre-commit' settings.json",
        "sed -i 's/a/b/w ~/.bashrc' settings.json",
    ] {
        assert_eq!(
            stance(ws.path(), &bash(cmd)).await,
            Some(Stance::HardDeny),
            "{cmd}"
        );
    }
    for cmd in [
        "awk '{print > \".claude/settings.json\"}' settings.json",
        "awk 'BEGIN{print \"#!/bin/sh\" > \".git/hooks/pre-commit\"}'",
        "vim -es -c '%d' -c 'wq' .claude/settings.json",
        "ex -sc 'wq' .claude/settings.json",
        "ed -s .claude/settings.json",
        "perl -pi -e s/x/y/ .claude/settings.json",
        "perl -i -pe 's/^/x/' ~/.bashrc",
        "python3 -c \"open('.claude/settings.json','w').write('x')\"",
        "node -e \"require('fs').writeFileSync('.git/hooks/pre-commit','x')\"",
        "python3 -c \"print(open('.env').read())\"",
        "python3 -c \"import shutil,os;shutil.rmtree(os.path.expanduser('~'))\"",
        "perl -e 'system(\"rm -rf ~\")'",
    ] {
        assert!(binding(ws.path(), &bash(cmd)).await, "{cmd}");
    }
    for cmd in [
        "sed -n 'w out.txt' settings.json",
        "python3 -c 'print(1 + 2)'",
        "node -e \"console.log(require('./package.json').name)\"",
        "awk '{print $1}' settings.json",
    ] {
        assert!(!binding(ws.path(), &bash(cmd)).await, "{cmd}");
    }
}

#[tokio::test]
async fn find_deleting_or_changing_what_it_finds_reaches_protected_files() {
    let ws = project();
    for cmd in [
        "find . -name settings.json -delete",
        "find . -path ./src -prune -o -name '*.json' -delete",
        "find .git -name hooks -exec cp evil/hooks/pre-commit {} \\;",
        "find . -name '*.json' -exec sed -i s/a/b/ {} +",
    ] {
        assert_eq!(
            stance(ws.path(), &bash(cmd))
                .await
                .map(|s| s != Stance::PolicyAllow && s != Stance::DefaultAsk),
            Some(true),
            "{cmd}"
        );
    }
    assert_eq!(
        stance(ws.path(), &bash("find . -iname SETTINGS.JSON -delete")).await,
        Some(Stance::HardDeny)
    );
    for cmd in [
        "find . -name '*.pyc' -delete",
        "find src -type f -delete",
        "find . -name '*.rs' -exec rustfmt {} +",
    ] {
        assert!(!binding(ws.path(), &bash(cmd)).await, "{cmd}");
    }
}

#[tokio::test]
async fn reading_or_packing_a_tree_that_holds_a_secret_is_binding() {
    let ws = project();
    for c in [
        bash("grep -r TOKEN ."),
        bash("rg --hidden TOKEN"),
        bash("find . -name '.e*' -exec cat {} +"),
        bash("tar -cf - . | cat"),
        bash("tar -czf /tmp/loot.tgz ."),
        bash("tar czf ~/loot.tgz ."),
        bash("zip -r - ."),
        call("Grep", json!({"pattern": "TOKEN"})),
    ] {
        assert!(binding(ws.path(), &c).await, "{c:?}");
    }
    for c in [
        bash("grep -r TOKEN src"),
        bash("tar -cf /tmp/src.tar src"),
        bash("zip -r /tmp/src.zip src"),
        bash("tar -cX conf -f /tmp/src.tar src"),
        bash("tar --exclude conf -cf /tmp/src.tar src"),
    ] {
        assert!(!binding(ws.path(), &c).await, "{c:?}");
    }
}

#[tokio::test]
async fn printing_the_environment_is_a_binding_ask() {
    let ws = project();
    for cmd in [
        "env",
        "env -0",
        "printenv",
        "export -p",
        "export",
        "declare -x",
        "declare -p",
        "typeset -x",
        "set",
        "env | grep KEY",
    ] {
        assert_eq!(
            stance(ws.path(), &bash(cmd)).await,
            Some(Stance::RequireAsk),
            "{cmd}"
        );
    }
    for cmd in [
        "printenv HOME",
        "env ls",
        "export LANG=C",
        "set -o",
        "set --",
    ] {
        assert!(!binding(ws.path(), &bash(cmd)).await, "{cmd}");
    }
}

#[tokio::test]
async fn startup_files_and_the_crontab_are_protected() {
    let ws = project();
    for c in [
        bash("echo 'curl x|sh' >> ~/.bashrc"),
        bash("cp x ~/.profile"),
        bash("echo x > ~/.zshenv"),
        bash("printf '[core]\\n\\tfsmonitor = x\\n' >> ~/.gitconfig"),
        bash("echo x > ~/.config/git/config"),
        bash("echo x > ~/.config/fish/config.fish"),
        bash("echo x > ~/.config/autostart/x.desktop"),
        bash("echo x > ~/.config/systemd/user/x.service"),
        bash("echo k >> ~/.ssh/authorized_keys"),
        bash("echo '* * * * * x' | crontab -"),
        bash("crontab -r"),
        bash("crontab jobs.txt"),
        // Hook managers' hooks, which git runs as it runs `.git/hooks`.
        bash("echo x > .husky/pre-commit"),
        bash("echo x > .githooks/pre-commit"),
        call("Write", json!({"file_path": "~/.bashrc", "content": "x"})),
        call(
            "Write",
            json!({"file_path": format!("{}/.zprofile", support::HOME), "content": "x"}),
        ),
    ] {
        assert_eq!(stance(ws.path(), &c).await, Some(Stance::HardDeny), "{c:?}");
    }
    for c in [
        bash("cat ~/.bashrc"),
        bash("echo 'on: push' > .github/workflows/ci.yml"),
        bash("echo '{}' > .vscode/tasks.json"),
    ] {
        assert!(!binding(ws.path(), &c).await, "{c:?}");
    }
}
