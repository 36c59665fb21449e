//! A file is a secret by what it holds as well as by its name: every family of key headers
//! and credential markers, wherever in a bundle of PEM blocks the key is. Also links that
//! leave the workspace and implicit operands. Each case builds the workspace it needs.

mod support;

use std::path::Path;

use serde_json::json;
use support::{call, context, decided, policy, verdict};
use warrant_core::call::PermissionMode;
use warrant_core::evaluator::Stance;

fn put(root: &Path, rel: &str, bytes: &[u8]) {
    let path = root.join(rel);
    std::fs::create_dir_all(path.parent().expect("parent")).expect("dirs");
    std::fs::write(path, bytes).expect("write");
}

async fn stance(root: &Path, tool: &str, input: serde_json::Value) -> (Stance, String) {
    let cx = context(PermissionMode::Default, root);
    let (s, r) = decided(verdict(&policy(), &call(tool, input), &cx).await);
    (s, format!("{} ({})", r.reason_code, r.reason))
}

async fn not_allowed(root: &Path, command: &str) {
    let (s, why) = stance(root, "Bash", json!({ "command": command })).await;
    assert_ne!(
        s,
        Stance::PolicyAllow,
        "{command} must not be allowed: {why}"
    );
}

async fn allowed(root: &Path, command: &str) {
    let (s, why) = stance(root, "Bash", json!({ "command": command })).await;
    assert_eq!(s, Stance::PolicyAllow, "{command}: {why}");
}

#[tokio::test]
async fn every_family_of_private_key_content_is_a_secret() {
    let ws = tempfile::tempdir().expect("dir");
    let root = ws.path();
    put(root, "sec/plain.txt", b"just notes\n");
    put(
        root,
        "sec/signing.asc",
        b"-----BEGIN PGP PRIVATE KEY BLOCK-----\n\nlQOYBGX\n-----END PGP PRIVATE KEY BLOCK-----\n",
    );
    put(
        root,
        "sec/age.txt",
        b"# created: 2024\nAGE-SECRET-KEY-1QQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQ\n",
    );
    put(
        root,
        "sec/deploy.txt",
        b"PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nPrivate-Lines: 1\nAAAA\n",
    );
    // A certificate chain longer than the first look, then the key.
    let mut bundle = Vec::new();
    for _ in 0..3 {
        bundle.extend_from_slice(b"-----BEGIN CERTIFICATE-----\n");
        bundle.extend(std::iter::repeat_n(b'A', 2000));
        bundle.extend_from_slice(b"\n-----END CERTIFICATE-----\n");
    }
    bundle.extend_from_slice(
        b"-----BEGIN RSA PRIVATE KEY-----\nMIIE\n-----END RSA PRIVATE KEY-----\n",
    );
    put(root, "sec/bundle.txt", &bundle);
    put(
        root,
        "sec/keyring.bin",
        &[0x95, 0x01, 0xd8, 0x04, 0x65, 0x00, 0x00, 0x00],
    );
    put(
        root,
        "sec/keys.csv",
        b"Access key ID,Secret access key\nAKIAXXXXXXXXXXXXXXXX,abc\n",
    );
    put(
        root,
        "sec/registry.txt",
        b"//registry.npmjs.org/:_authToken=npm_x\n",
    );
    allowed(root, "cat sec/plain.txt").await;
    for f in [
        "signing.asc",
        "age.txt",
        "deploy.txt",
        "bundle.txt",
        "keyring.bin",
        "keys.csv",
        "registry.txt",
    ] {
        not_allowed(root, &format!("cat sec/{f}")).await;
        let (s, why) = stance(root, "Read", json!({ "file_path": format!("sec/{f}") })).await;
        assert_ne!(s, Stance::PolicyAllow, "Read {f}: {why}");
    }
}

#[tokio::test]
async fn credential_files_by_name_are_secrets() {
    let ws = tempfile::tempdir().expect("dir");
    let root = ws.path();
    for f in [
        "sec/secring.gpg",
        "sec/accessKeys.csv",
        "sec/rootkey.csv",
        "sec/credentials.tfrc.json",
        "sec/.clasprc.json",
        "sec/.circleci/cli.yml",
        "sec/keystore.properties",
        "sec/.yarnrc",
        "sec/.sops/age/keys.txt",
    ] {
        put(root, f, b"x\n");
        not_allowed(root, &format!("cat {f}")).await;
    }
}

#[cfg(unix)]
#[tokio::test]
async fn links_out_of_the_workspace_are_outside_for_secret_directories_and_implicit_operands() {
    let ws = tempfile::tempdir().expect("dir");
    let home = tempfile::tempdir().expect("home");
    let root = ws.path();
    put(home.path(), ".ssh/id_rsa", b"FAKEKEY\n");
    put(home.path(), ".aws/credentials", b"[default]\n");
    put(home.path(), "proj/notes.txt", b"x\n");
    put(root, "README.md", b"hi\n");
    std::os::unix::fs::symlink(home.path(), root.join("hl")).expect("link");
    // A look one level down prints names, sizes and types, never a file's contents.
    for command in [
        "ls -la hl/.ssh",
        "ls hl/.aws",
        "stat hl/.ssh/id_rsa",
        "ls hl/proj",
    ] {
        allowed(root, command).await;
    }
    for command in [
        "cat hl/.ssh/id_rsa",
        "du -a hl/.ssh",
        "du -aL",
        "du -L",
        "du --dereference",
        "ls -RL",
        "ls -LR",
        "tree -l",
        "tree -la",
    ] {
        not_allowed(root, command).await;
    }
    allowed(root, "ls -la").await;
    allowed(root, "du -a").await;
}

#[tokio::test]
async fn version_manager_selector_files_make_version_queries_unproven() {
    for (file, command) in [
        (".volta/hooks.json", "node --version"),
        (".node-version", "node -v"),
        (".python-version", "python3 --version"),
        (".ruby-version", "ruby --version"),
        (".nvmrc", "node --version"),
    ] {
        let ws = tempfile::tempdir().expect("dir");
        allowed(ws.path(), command).await;
        put(ws.path(), file, b"99.0.0\n");
        // Only a shim reads them; a program's own binary runs whatever they say.
        let program = command.split(' ').next().expect("a program");
        if support::version_manager_shim(program) {
            not_allowed(ws.path(), command).await;
        } else {
            allowed(ws.path(), command).await;
        }
    }
}

/// Runs git in `root` with a fixed identity; `false` when git is not installed.
fn git(root: &Path, args: &[&str]) -> bool {
    std::process::Command::new("git")
        .args(["-c", "user.name=t", "-c", "user.email=t@example.com"])
        .args(args)
        .current_dir(root)
        .env_remove("GIT_DIR")
        .env_remove("GIT_INDEX_FILE")
        .env_remove("GIT_WORK_TREE")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// A repository on `main` with one commit of `README.md`; `None` when git is not installed.
fn committed() -> Option<tempfile::TempDir> {
    let ws = tempfile::tempdir().expect("dir");
    let root = ws.path();
    if !git(root, &["init", "-q", "-b", "main"]) {
        return None;
    }
    put(root, "README.md", b"hello\n");
    assert!(git(root, &["add", "."]));
    assert!(git(root, &["commit", "-qm", "one"]));
    Some(ws)
}

#[tokio::test]
async fn git_prints_a_tracked_key_by_its_content_or_a_hard_link_as_cat_would() {
    let ws = tempfile::tempdir().expect("dir");
    let elsewhere = tempfile::tempdir().expect("dir");
    let root = ws.path();
    if !git(root, &["init", "-q", "-b", "main"]) {
        eprintln!("git is not installed; skipped");
        return;
    }
    put(root, "README.md", b"hello\n");
    put(root, "src/main.rs", b"fn main() {}\n");
    put(
        root,
        "config/deploy.txt",
        b"-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXk\n-----END OPENSSH PRIVATE KEY-----\n",
    );
    assert!(git(root, &["add", "."]));
    assert!(git(root, &["commit", "-qm", "one"]));
    // git reads the work tree's file, and prints what it stored of it, whatever its name.
    for command in [
        "git grep -A3 BEGIN",
        "git grep -h KEY -- config",
        "git grep KEY HEAD",
        "git show HEAD:config/deploy.txt",
        "git show main:./config/deploy.txt",
        "git cat-file -p HEAD:config/deploy.txt",
        "git show",
        "git log -p",
        "git log -p -- config",
        "git diff --cached HEAD~0",
        "cat $(git ls-files)",
    ] {
        not_allowed(root, command).await;
    }
    for command in [
        "git show HEAD:README.md",
        "git log -p -- src",
        "git grep main -- src",
        "git log --stat",
    ] {
        allowed(root, command).await;
    }
    // A tracked file with a second name may be a secret elsewhere (another project's `.env`).
    let ws = tempfile::tempdir().expect("dir");
    let root = ws.path();
    assert!(git(root, &["init", "-q", "-b", "main"]));
    put(elsewhere.path(), ".env", b"TOKEN=abc\n");
    put(root, "README.md", b"hello\n");
    std::fs::hard_link(elsewhere.path().join(".env"), root.join("notes.txt")).expect("link");
    assert!(git(root, &["add", "."]));
    assert!(git(root, &["commit", "-qm", "one"]));
    for command in ["git grep -h TOKEN", "git show HEAD:notes.txt", "git log -p"] {
        not_allowed(root, command).await;
    }
    allowed(root, "git show HEAD:README.md").await;
}

#[tokio::test]
async fn a_ref_format_printing_objects_whole_is_not_proven() {
    let Some(ws) = committed() else {
        eprintln!("git is not installed; skipped");
        return;
    };
    let root = ws.path();
    // A tag may name a blob: `%(raw)` prints it whole, as `git cat-file -p` does.
    for command in [
        "git for-each-ref --format='%(raw)'",
        "git for-each-ref --format '%(refname) %(*raw)'",
        "git tag -l --format='%(raw)'",
        "git branch --format=%\\(raw\\)",
    ] {
        not_allowed(root, command).await;
    }
    for command in [
        "git for-each-ref --format='%(refname) %(objecttype) %(raw:size)'",
        "git tag -l --format='%(refname:short) %(subject)'",
    ] {
        allowed(root, command).await;
    }
}

#[tokio::test]
async fn notes_are_printed_objects_when_the_repository_holds_notes() {
    let Some(ws) = committed() else {
        eprintln!("git is not installed; skipped");
        return;
    };
    let root = ws.path();
    allowed(root, "git log").await;
    allowed(root, "git show -s").await;
    // Any blob of the objects (a file removed since) may be made a note, which git log prints.
    put(root, "key.txt", b"TOKEN=abc\n");
    assert!(git(root, &["add", "key.txt"]));
    assert!(git(root, &["commit", "-qm", "two"]));
    assert!(git(root, &["rm", "-q", "key.txt"]));
    assert!(git(root, &["commit", "-qm", "three"]));
    assert!(git(root, &["notes", "add", "-C", "HEAD~1:key.txt", "HEAD"]));
    for command in [
        "git log",
        "git log -1",
        "git show -s",
        "git whatchanged -1",
        "git log --oneline --notes",
        "git log --format=%H%n%N",
        "git notes show",
        "git notes show HEAD",
    ] {
        not_allowed(root, command).await;
    }
    for command in [
        "git log --oneline",
        "git log --format=%H",
        "git log --no-notes",
        "git notes list",
    ] {
        allowed(root, command).await;
    }
}

#[tokio::test]
async fn git_show_of_every_ref_prints_a_tagged_blob_whole() {
    let Some(ws) = committed() else {
        eprintln!("git is not installed; skipped");
        return;
    };
    let root = ws.path();
    assert!(git(root, &["tag", "v1"]));
    for command in [
        "git show -s --tags",
        "git show --stat --all",
        "git show --name-only --branches",
        "git show --no-patch --glob=refs/tags/*",
    ] {
        not_allowed(root, command).await;
    }
    allowed(root, "git show -s").await;
    allowed(root, "git log --tags --oneline").await;
}

#[tokio::test]
async fn a_revisions_printed_id_is_judged_as_the_revision_never_as_a_path() {
    let Some(ws) = committed() else {
        eprintln!("git is not installed; skipped");
        return;
    };
    let root = ws.path();
    put(root, "README.md", b"hello again\n");
    assert!(git(root, &["commit", "-qam", "two"]));
    // A tag naming a blob no commit holds, and a directory of the same name: `git rev-parse
    // notes` prints the blob's id, which `git show` prints whole.
    put(root, "blob.txt", b"printed whole\n");
    let blob = std::process::Command::new("git")
        .args(["hash-object", "-w", "blob.txt"])
        .current_dir(root)
        .output()
        .expect("git");
    let id = String::from_utf8_lossy(&blob.stdout).trim().to_owned();
    assert!(git(root, &["tag", "notes", &id]));
    put(root, "notes/README.md", b"notes\n");
    for command in [
        "git show $(git rev-parse notes)",
        "git show notes",
        "for r in $(git rev-parse notes); do git show $r; done",
        "git show $(cd notes && git rev-parse HEAD)",
        "git show $(git rev-parse --short HEAD~1)",
    ] {
        not_allowed(root, command).await;
    }
    for command in [
        "git log -1 --format=%s $(git rev-parse HEAD~1)",
        "git show -s --format=%an $(git rev-parse main)",
        "git diff --stat $(git merge-base main HEAD~1) HEAD",
        "for c in $(git rev-list -n2 HEAD); do git log -1 --format=%s $c; done",
        "git log --format=%H -2 | while read c; do git show --stat $c; done",
    ] {
        allowed(root, command).await;
    }
}

#[tokio::test]
async fn a_range_from_a_printed_id_is_its_end() {
    let Some(ws) = committed() else {
        eprintln!("git is not installed; skipped");
        return;
    };
    let root = ws.path();
    assert!(git(root, &["tag", "v1"]));
    put(root, "README.md", b"hello again\n");
    assert!(git(root, &["commit", "-qam", "two"]));
    for command in [
        "git log --oneline $(git merge-base main HEAD~1)..HEAD",
        "git log \"$(git rev-parse v1)\"..HEAD --format=%s",
        "git shortlog -sn $(git rev-parse v1 2>/dev/null)..",
        "git rev-list --count `git merge-base main v1`..main",
    ] {
        allowed(root, command).await;
    }
    for command in [
        // Not a walk of the range's end: a diff shows the start's files, `--not` walks them.
        "git diff $(git merge-base main HEAD~1)..HEAD",
        "git log --not $(git rev-parse v1)..HEAD",
        "git log $(git rev-parse v1)...HEAD",
        // Two words, the first walked whole; a tag's name is the tag object's own text.
        "git log -p $(echo v1; echo HEAD)..HEAD",
        "git log $(git rev-parse v1 || echo HEAD)..HEAD",
        "git log --oneline $(git describe --tags --abbrev=0)..HEAD",
        "git log $(git rev-parse v1)..HEAD:.env",
        "git log $(git rev-parse v1)..HEAD $X",
    ] {
        not_allowed(root, command).await;
    }
}

/// Credentials in the forms their tools keep them, whatever the file's name: each member of
/// a JSON map written on one line, a netrc entry laid over lines, a `.pgpass` line, shell
/// forms of an assignment (`setenv`, fish's `set -x`, PowerShell's `$env:`), gpg-agent's key
/// files, Java key stores and Kerberos caches by their magic numbers, and issuers' token
/// forms. Text that only looks alike stays readable.
#[tokio::test]
async fn credentials_in_their_tools_forms_are_secrets() {
    let ws = tempfile::tempdir().expect("dir");
    let root = ws.path();
    let value = "q8Xz3Lk9Pm2Nv7Bc4Rt6Yw1Hs5Df0Gj8Ka3Ue7Wi";
    let secrets: Vec<(&str, Vec<u8>)> = vec![
        (
            "a/oneline.json",
            format!("{{\"access_token\":\"{value}\"}}\n").into_bytes(),
        ),
        (
            "a/second.json",
            format!("{{\"user\":\"a\",\"api_key\":\"{value}\"}}").into_bytes(),
        ),
        ("a/flow.yml", format!("x: 1, token: {value}\n").into_bytes()),
        (
            "a/netrc_copy",
            format!("machine api.example.com\n  login me\n  password {value}\n").into_bytes(),
        ),
        (
            "a/pg",
            format!("db.example.com:5432:app:admin:{value}\n").into_bytes(),
        ),
        (
            "a/env.csh",
            format!("setenv API_KEY {value}\n").into_bytes(),
        ),
        (
            "a/env.fish",
            format!("set -x DB_PASS {value}\n").into_bytes(),
        ),
        (
            "a/env.ps1",
            format!("$env:API_KEY = \"{value}\"\n").into_bytes(),
        ),
        (
            "a/gems",
            format!("---\n:rubygems_api_key: {value}\n").into_bytes(),
        ),
        (
            "a/wpa",
            format!("network={{\n  ssid=\"home\"\n  psk={value}\n}}\n").into_bytes(),
        ),
        (
            "a/agentkey",
            b"Key: (private-key (ecc (curve Ed25519)(q #40AB#)(d #340AA8CD#)))\n".to_vec(),
        ),
        ("a/store", [0xFE, 0xED, 0xFE, 0xED, 0, 0, 0, 2].to_vec()),
        ("a/store2", [0xCE, 0xCE, 0xCE, 0xCE, 0, 0, 0, 2].to_vec()),
        ("a/cc", [0x05, 0x04, 0x00, 0x0C, 0, 1, 0, 8].to_vec()),
        ("a/kt", [0x05, 0x02, 0x00, 0x00, 0, 0x40, 0, 1].to_vec()),
        (
            "a/t1",
            b"hvb.AAAAAQJqZ8Xz3Lk9Pm2Nv7Bc4Rt6Yw1Hs5Df0\n".to_vec(),
        ),
        ("a/t2", format!("HRKU-{value}\n").into_bytes()),
        (
            "a/t3",
            b"ya29.a0AfB_byC8Xz3Lk9Pm2Nv7Bc4Rt6Yw1Hs5Df0Gj8Ka3\n".to_vec(),
        ),
        (
            "a/t4",
            format!("sk-{}T3BlbkFJ{}\n", &value[..20], &value[..20]).into_bytes(),
        ),
        (
            "a/t5",
            format!("rubygems_{}\n", "0a1b2c3d4e5f".repeat(4)).into_bytes(),
        ),
        (
            "a/t6",
            format!("sbp_{}\n", "0a1b2c3d4e".repeat(4)).into_bytes(),
        ),
        (
            "a/t7",
            b"123456789:AAHq8Xz3Lk9Pm2Nv7Bc4Rt6Yw1Hs5Df0Gj8\n".to_vec(),
        ),
        ("a/t8", format!("gsk_{value}0123456789AB\n").into_bytes()),
        ("a/t9", format!("GOCSPX-{}\n", &value[..28]).into_bytes()),
        ("a/n1", format!("PASSWORD_PROD={value}\n").into_bytes()),
        ("a/n2", format!("API_KEY_2={value}\n").into_bytes()),
        ("a/n3", format!("password1={value}\n").into_bytes()),
        (
            "a/php1",
            format!("<?php define( 'DB_PASSWORD', '{value}' );\n").into_bytes(),
        ),
        (
            "a/php2",
            format!("$config['db_password'] = '{value}';\n").into_bytes(),
        ),
        (
            "a/php3",
            format!("return ['password' => '{value}'];\n").into_bytes(),
        ),
        (
            "a/py",
            format!("client = OpenAI(api_key=\"{value}\")\n").into_bytes(),
        ),
        (
            "a/netrc2",
            format!("machine h\n  login me\n# rotated monthly\n  password {value}\n").into_bytes(),
        ),
        (
            "a/pg2",
            format!("\\:\\:1:5432:app:admin:{value}:\n").into_bytes(),
        ),
    ];
    let plain: Vec<(&str, &[u8])> = vec![
        (
            "b/readme.md",
            b"Machine learning: reset your password in settings.\n",
        ),
        ("b/times.txt", b"12:30:45:99:done\n"),
        (
            "b/conf.json",
            b"{\"name\":\"demo\",\"version\":\"1.0.0\",\"private\":true}\n",
        ),
        (
            "b/keys.md",
            b"Press the key-combination and the token list shows.\n",
        ),
        (
            "b/gitconfig",
            b"[user]\n\tsigningkey = 0123456789ABCDEF0123\n",
        ),
        (
            "b/code.py",
            b"client = OpenAI(api_key=os.environ[\"OPENAI_API_KEY\"])\n",
        ),
        ("b/version.txt", b"VERSION_2=1.4.7\n"),
        (
            "b/login.md",
            b"Log in with the default password is admin, then change it.\n",
        ),
        (
            "b/setup.md",
            b"default password is admin\nSet the machine with login root password prompts off.\n",
        ),
    ];
    for (rel, bytes) in &secrets {
        put(root, rel, bytes);
    }
    for (rel, bytes) in &plain {
        put(root, rel, bytes);
    }
    for (rel, _) in &secrets {
        not_allowed(root, &format!("cat {rel}")).await;
    }
    for (rel, _) in &plain {
        allowed(root, &format!("cat {rel}")).await;
    }
}

/// A command that prints only a digest of what it reads (a count, a sum, a name, a kind, a
/// status) prints no byte of a file that is a secret by its content alone: `wc`, the sums,
/// `cmp`, `grep -c/-l/-L/-q`, `rg -l/-c`, line counters. An option that prints the
/// bytes (`cmp -l`), a search that prints lines, and a secret by its name still ask.
#[tokio::test]
async fn a_digest_of_a_secret_by_its_content_prints_none_of_it() {
    let ws = tempfile::tempdir().expect("dir");
    let root = ws.path();
    put(
        root,
        "mysite/settings.py",
        b"SECRET_KEY = 'django-insecure-8f3k2j4h5g6f7d8s9a0q1w2e3r4t5y6u7i8o9p'\nDEBUG = True\n# TODO: x\n",
    );
    put(root, "mysite/views.py", b"# TODO y\n");
    for command in [
        "wc -l mysite/settings.py",
        "wc -l mysite/*.py",
        "md5sum mysite/settings.py",
        "sha256sum mysite/settings.py",
        "cmp mysite/settings.py mysite/views.py",
        "grep -c DEBUG mysite/settings.py",
        "grep -l DEBUG mysite/settings.py",
        "grep -rl TODO .",
        "grep -rL TODO mysite",
        "grep -rq TODO .",
        "grep -rc TODO . | sort -t: -k2 -n",
        "rg -l TODO",
        "rg -c TODO mysite",
        "rg --files-with-matches TODO",
        "tokei .",
    ] {
        allowed(root, command).await;
    }
    for command in [
        "cat mysite/settings.py",
        "grep -n DEBUG mysite/settings.py",
        "grep -rn TODO .",
        "rg TODO",
        "cmp -l mysite/settings.py mysite/views.py",
        "cmp --print-bytes mysite/settings.py mysite/views.py",
        "grep -l TODO mysite/settings.py | xargs cat",
        // A list of sums prints its lines back; a pattern file's text is printed in an error
        // about it; debugging output shows the patterns.
        "md5sum -c mysite/settings.py",
        "rg -c -f mysite/settings.py .",
        "grep -c -f mysite/settings.py mysite/views.py",
        "rg -l --debug TODO",
        // `file` quotes a first line it takes for HP-GL; a digest's pattern only known when
        // it runs asks a question about the file each run.
        "file mysite/settings.py",
        "s=; for c in a b c; do grep -q \"SECRET_KEY = '$s$c\" mysite/settings.py && s=$s$c; done; echo $s",
        "grep -c \"$x\" mysite/settings.py",
    ] {
        not_allowed(root, command).await;
    }
    // A secret by its name is one whatever is printed of it.
    put(root, ".env", b"X=1\n");
    for command in ["wc -l .env", "grep -rc TODO .", "rg -l --hidden TODO"] {
        not_allowed(root, command).await;
    }
}
