//! Copies that follow links and outputs the option readers must see: a recursive copy that
//! dereferences links (`cp -rL`, `cp -a --dereference`, `rsync -rL`) reads the files its
//! links lead to, as `tar -ch` does; GNU long options by any unambiguous prefix
//! (`sed --in-pl`, `sort --ou`); outputs named by operands or options (`xxd IN OUT`,
//! `sdiff -o`, `tree -o`, `ss -D`) and by a prefix (`split`, `csplit`). None of the
//! harmful ones may be settled by a permission mode.

mod support;

use support::{bash, context_with_catalog, decided, policy, verdict, workspace};
use warrant_core::call::PermissionMode;
use warrant_core::evaluator::{Stance, Verdict};

async fn stance(root: &std::path::Path, mode: PermissionMode, cmd: &str) -> Option<Stance> {
    let cx = context_with_catalog(mode, root);
    match verdict(&policy(), &bash(cmd), &cx).await {
        Verdict::Abstain => None,
        v => Some(decided(v).0),
    }
}

/// A workspace whose `src` holds a link to its `.env` and a plain file.
fn project() -> tempfile::TempDir {
    let ws = workspace();
    let p = ws.path();
    std::fs::create_dir_all(p.join("src")).unwrap();
    std::fs::create_dir_all(p.join("docs")).unwrap();
    std::fs::create_dir_all(p.join(".git/hooks")).unwrap();
    std::fs::write(p.join(".env"), b"TOKEN=x\n").unwrap();
    std::fs::write(p.join("src/main.rs"), b"fn main() {}\n").unwrap();
    std::fs::write(p.join("docs/a.md"), b"# a\n").unwrap();
    std::fs::write(p.join("README.md"), b"# r\n").unwrap();
    std::os::unix::fs::symlink("../.env", p.join("src/env.txt")).unwrap();
    ws
}

#[tokio::test]
async fn recursive_copies_through_links_read_what_the_links_lead_to() {
    let ws = project();
    for cmd in [
        "cp -rL src out",
        "cp -RL src out",
        "cp -a --dereference src out",
        "cp -a --deref src out",
        "cp -P -r -L src out",
        "cp --recursive --dereference src out",
        "rsync -rL src out",
        "rsync -a --copy-links src out",
        "rsync -a --copy-unsafe-links src out",
        "rsync -ak src out",
    ] {
        for mode in [PermissionMode::FullAccess, PermissionMode::Auto] {
            let s = stance(ws.path(), mode, cmd).await;
            assert!(
                matches!(s, Some(Stance::HardDeny | Stance::RequireAsk)),
                "{cmd} ({mode:?}): {s:?}"
            );
        }
    }
    // Links kept as links (the last of `-L`/`-P`/`-d`/`-a` decides), or a tree without a
    // link to a secret: no secret is read.
    for cmd in [
        "cp -r src out",
        "cp -a src out",
        "cp -L -a src out",
        "cp -rL docs out",
    ] {
        let s = stance(ws.path(), PermissionMode::FullAccess, cmd).await;
        assert!(
            !matches!(s, Some(Stance::HardDeny | Stance::RequireAsk)),
            "{cmd}: {s:?}"
        );
    }
}

#[tokio::test]
async fn long_option_prefixes_and_unmodeled_outputs_are_writes() {
    let ws = project();
    for cmd in [
        "sed --in-pl '1i touch X' ~/.bashrc",
        "sed --in-place=.bak '1i touch X' ~/.bashrc",
        "sed --i '1i touch X' .git/hooks/pre-commit",
        "sort --ou ~/.bashrc README.md",
        "sort --outp=.git/hooks/pre-commit README.md",
        "xxd -r README.md ~/.bashrc",
        "xxd README.md .git/hooks/pre-commit",
        "sdiff -o ~/.bashrc README.md README.md",
        "sdiff --out .git/hooks/pre-commit README.md README.md",
        "tree -o ~/.bashrc",
        "ss -D ~/.bashrc",
        "split -l 1 -a 1 README.md ~/.bashr",
        "split -l 1 README.md .git/hooks/pre",
        "csplit -f ~/.bashr README.md 1",
        "csplit -b 'rc%.0d' -f ~/.bash README.md 1",
    ] {
        assert_eq!(
            stance(ws.path(), PermissionMode::FullAccess, cmd).await,
            Some(Stance::HardDeny),
            "{cmd}"
        );
    }
    // A script file named by an abbreviation is a script not shown.
    let s = stance(
        ws.path(),
        PermissionMode::Default,
        "sed --fi=w.sed README.md",
    )
    .await;
    assert!(!matches!(s, Some(Stance::PolicyAllow)), "{s:?}");
    for cmd in ["sort README.md", "sed -n 1p README.md", "xxd README.md"] {
        assert_eq!(
            stance(ws.path(), PermissionMode::Default, cmd).await,
            Some(Stance::PolicyAllow),
            "{cmd}"
        );
    }
    // Pieces written inside the workspace are a write, not protected configuration.
    for cmd in [
        "split -l 100 README.md part_",
        "csplit -f docs/part README.md 1",
    ] {
        let s = stance(ws.path(), PermissionMode::Default, cmd).await;
        assert!(
            !matches!(s, Some(Stance::HardDeny | Stance::PolicyAllow)),
            "{cmd}: {s:?}"
        );
    }
}
