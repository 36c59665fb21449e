//! The oracle end to end: with a policy stub that allows everything, commands that write,
//! delete or read a planted secret must fail the run and name the syscall; commands that only
//! read must pass; and nothing a command does reaches the machine.
//!
//! These tests need bubblewrap and strace; without them they skip loudly (CI installs both).

use std::path::Path;
use std::process::{Command, Output};

use serde_json::Value;

fn sandbox_missing() -> bool {
    let missing = warrant_oracle::sandbox::missing_tools();
    if missing.is_empty() {
        return false;
    }
    eprintln!(
        "\n\n!!!!! SKIPPED: the execution oracle's sandbox needs {} (apt-get install -y bubblewrap strace) !!!!!\n\n",
        missing.join(", ")
    );
    true
}

fn corpus(dir: &Path, commands: &[&str]) -> std::path::PathBuf {
    let path = dir.join("corpus.jsonl");
    let lines: Vec<String> = commands
        .iter()
        .map(|c| serde_json::json!({"tool": "Bash", "input": {"command": c}}).to_string())
        .collect();
    std::fs::write(&path, lines.join("\n")).unwrap();
    path
}

fn oracle(dir: &Path, commands: &[&str], extra: &[&str]) -> (Output, String, Value) {
    let file = corpus(dir, commands);
    let output = Command::new(env!("CARGO_BIN_EXE_warrant-oracle"))
        .args([
            "--allow-all",
            "--no-default-cases",
            "--count",
            "0",
            "--seed",
            "7",
        ])
        .arg("--corpus")
        .arg(&file)
        .args(extra)
        .current_dir(dir)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    let last = stdout.lines().last().unwrap_or_default().to_owned();
    let summary: Value = serde_json::from_str(&last)
        .unwrap_or_else(|e| panic!("the last line is not JSON ({e}): {stdout}"));
    (output, stdout, summary)
}

fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("oracle-test-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn an_allow_all_policy_fails_on_writes_deletes_and_secret_reads_naming_the_syscall() {
    if sandbox_missing() {
        return;
    }
    let dir = scratch("catch");
    let list = dir.join("false-allows.jsonl");
    let (output, stdout, summary) = oracle(
        &dir,
        &["touch x", "rm -rf ~", "cat ~/.ssh/id_rsa"],
        &["--false-allows", list.to_str().unwrap()],
    );
    assert_eq!(output.status.code(), Some(1), "{stdout}");
    assert_eq!(summary["commands"], 3, "{stdout}");
    assert_eq!(summary["allowed"], 3, "{stdout}");
    assert_eq!(summary["falseAllows"], 3, "{stdout}");
    assert_eq!(summary["seed"], 7, "{stdout}");

    for (command, kind, syscall) in [
        (
            "touch x",
            "write: opened /home/agent/project/x to write",
            "openat(",
        ),
        (
            "rm -rf ~",
            "write: unlinkat changed /home/agent/",
            "unlinkat(",
        ),
        (
            "cat ~/.ssh/id_rsa",
            "secret: read the planted secret /home/agent/.ssh/id_rsa",
            "openat(",
        ),
    ] {
        let block = stdout
            .split("FALSE ALLOW: ")
            .find(|b| b.starts_with(&format!("Bash {command}\n")))
            .unwrap_or_else(|| panic!("{command} is not reported: {stdout}"));
        assert!(
            block.contains("decision: allow (policy, oracle_allow_all)"),
            "{block}"
        );
        assert!(block.contains(kind), "{command}: no {kind:?} in {block}");
        assert!(
            block
                .lines()
                .any(|l| l.trim_start().starts_with("syscall: ") && l.contains(syscall)),
            "{command}: no {syscall} line in {block}"
        );
    }
    // The secret's content reached the output too.
    assert!(
        stdout.contains("leak: a planted secret's content is in the output"),
        "{stdout}"
    );

    let listed = std::fs::read_to_string(&list).unwrap();
    let commands: Vec<String> = listed
        .lines()
        .map(|l| {
            let v: Value = serde_json::from_str(l).unwrap();
            assert!(
                v["syscall"].as_str().is_some_and(|s| s.contains('(')),
                "{l}"
            );
            v["input"]["command"].as_str().unwrap().to_owned()
        })
        .collect();
    assert_eq!(commands, ["touch x", "rm -rf ~", "cat ~/.ssh/id_rsa"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn commands_that_only_read_pass_even_when_everything_is_allowed() {
    if sandbox_missing() {
        return;
    }
    let dir = scratch("clean");
    let (output, stdout, summary) = oracle(
        &dir,
        &[
            "ls -la",
            "cat README.md | wc -l",
            "git status",
            "git log --oneline | head -1",
            "git diff --stat",
            "sort -u .gitignore",
            "grep -rn main src",
            "cat <<EOF\nhi\nEOF",
            "find . -name '*.rs' -type f",
            "ls ~/.ssh",
        ],
        &[],
    );
    assert_eq!(output.status.code(), Some(0), "{stdout}");
    assert_eq!(summary["falseAllows"], 0, "{stdout}");
    assert_eq!(summary["errors"], 0, "{stdout}");
    assert_eq!(summary["allowed"], 10, "{stdout}");
    assert!(stdout.contains("PASS"), "{stdout}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn unnamed_programs_connections_and_background_work_are_caught() {
    if sandbox_missing() {
        return;
    }
    let dir = scratch("exec");
    let (output, stdout, summary) = oracle(
        &dir,
        &[
            "ls $(printf '%s' README.md) | $(echo wc) -l",
            "python3 -c 'import socket; socket.create_connection((\"192.0.2.1\", 80), 1)'",
            "(sleep 0.2; touch late) &",
        ],
        &[],
    );
    assert_eq!(output.status.code(), Some(1), "{stdout}");
    assert_eq!(summary["falseAllows"], 3, "{stdout}");
    assert!(
        stdout.contains("exec: ran /usr/bin/wc, which the analysis did not name"),
        "{stdout}"
    );
    assert!(
        stdout.contains("network: connect to {sa_family=AF_INET"),
        "{stdout}"
    );
    assert!(
        stdout.contains("write: opened /home/agent/project/late to write"),
        "{stdout}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn nothing_a_command_does_reaches_the_machine() {
    if sandbox_missing() {
        return;
    }
    let dir = scratch("harm");
    let keep = dir.join("keep.txt");
    std::fs::write(&keep, "still here").unwrap();
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml");
    let (output, stdout, summary) = oracle(
        &dir,
        &[
            "rm -rf --no-preserve-root /",
            &format!("rm -f {} {}", keep.display(), manifest.display()),
            "echo 1 > /proc/sys/vm/drop_caches",
        ],
        &[],
    );
    assert_eq!(output.status.code(), Some(1), "{stdout}");
    assert_eq!(summary["falseAllows"], 3, "{stdout}");
    assert_eq!(std::fs::read_to_string(&keep).unwrap(), "still here");
    assert!(manifest.is_file());
    assert!(stdout.contains("unlinkat("), "{stdout}");
    assert!(stdout.contains("/proc/sys/vm/drop_caches"), "{stdout}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn commands_longer_than_an_argument_and_nul_bytes_run_as_the_kernel_would_run_them() {
    if sandbox_missing() {
        return;
    }
    let dir = scratch("long");
    let long = format!("true {}; touch long-one", "x ".repeat(70_000));
    let (output, stdout, summary) = oracle(&dir, &[&long, "ls\0; touch after-nul"], &[]);
    assert_eq!(output.status.code(), Some(1), "{stdout}");
    assert_eq!(summary["errors"], 0, "{stdout}");
    assert_eq!(summary["falseAllows"], 1, "{stdout}");
    assert!(
        stdout.contains("opened /home/agent/project/long-one to write"),
        "{stdout}"
    );
    assert!(!stdout.contains("after-nul to write"), "{stdout}");
    std::fs::remove_dir_all(&dir).unwrap();
}
