//! `warrant check`, exactly as README states: one decision JSON object on stdout and exit 0
//! whatever the behaviour; bad arguments or bad JSON, one line on stderr and exit 2.

use std::process::{Command, Output};

use serde_json::Value;

fn check(args: &[&str]) -> Output {
    let workspace = tempfile::tempdir().unwrap();
    Command::new(env!("CARGO_BIN_EXE_warrant"))
        .arg("check")
        .args(args)
        .current_dir(workspace.path())
        .env_remove("WARRANT_MODE")
        .output()
        .unwrap()
}

fn decision(args: &[&str]) -> Value {
    let out = check(args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        stdout.trim().lines().count(),
        1,
        "exactly one line: {stdout}"
    );
    serde_json::from_str(stdout.trim()).unwrap()
}

fn one_line_error(out: &Output) -> String {
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty(), "nothing on stdout");
    let stderr = String::from_utf8(out.stderr.clone()).unwrap();
    assert_eq!(stderr.trim_end().lines().count(), 1, "one line: {stderr:?}");
    stderr
}

#[test]
fn ls_prints_one_policy_allow_with_the_seeds_field_names() {
    let d = decision(&["--tool", "Bash", "--input", r#"{"command":"ls"}"#]);
    assert_eq!(d["toolCallId"], "cli-check");
    assert_eq!(d["behavior"], "allow");
    assert_eq!(d["source"], "policy");
    assert_eq!(d["reasonCode"], "shell_read_only");
    assert!(d["reason"].is_string() && d["risk"].is_string());
    assert!(d.get("confidence").is_none() && d.get("reviewerModel").is_none());
}

#[test]
fn ls_and_rm_rf_root_is_denied_in_every_mode() {
    for mode in ["default", "auto", "full_access"] {
        let d = decision(&[
            "--tool",
            "Bash",
            "--input",
            r#"{"command":"ls && rm -rf /"}"#,
            "--mode",
            mode,
        ]);
        assert_eq!(d["behavior"], "deny", "{mode}: {d}");
        assert_eq!(d["risk"], "critical");
    }
}

#[test]
fn full_access_allows_an_open_call_without_review() {
    let d = decision(&[
        "--tool",
        "Bash",
        "--input",
        r#"{"command":"make deploy"}"#,
        "--mode",
        "full_access",
    ]);
    assert_eq!(d["behavior"], "allow");
    assert_eq!(d["source"], "full_access");
    assert_eq!(d["reasonCode"], "mode_full_access");
    assert_eq!(
        d["reason"],
        "Approval prompts are disabled by the active permission mode."
    );
    assert!(d.get("confidence").is_none() && d.get("reviewerModel").is_none());
}

#[test]
fn auto_mode_with_no_configuration_gives_a_classifier_decision() {
    let d = decision(&[
        "--tool",
        "Bash",
        "--input",
        r#"{"command":"make deploy"}"#,
        "--mode",
        "auto",
    ]);
    assert_eq!(d["source"], "auto_classifier");
    assert!(d["confidence"].is_string(), "{d}");
    assert_eq!(d["reviewerModel"], "warrant/heuristic-v1");
}

#[test]
fn an_ask_still_exits_zero() {
    let d = decision(&["--tool", "Bash", "--input", r#"{"command":"make deploy"}"#]);
    assert_eq!(d["behavior"], "ask");
}

#[test]
fn bad_input_json_is_one_line_on_stderr_and_exit_2() {
    let stderr = one_line_error(&check(&["--tool", "Bash", "--input", "{nope"]));
    assert!(
        stderr.contains("--input") && stderr.contains("{nope"),
        "{stderr}"
    );
}

#[test]
fn a_repeated_input_key_is_refused_and_named() {
    // Judged by one value, run with the other: which wins depends on the agent's parser.
    let stderr = one_line_error(&check(&[
        "--tool",
        "Bash",
        "--input",
        r#"{"command":"rm -rf ~","command":"ls"}"#,
    ]));
    assert!(stderr.contains("`/command` is repeated"), "{stderr}");
}

#[test]
fn a_missing_argument_is_one_line_on_stderr_and_exit_2() {
    let stderr = one_line_error(&check(&["--input", "{}"]));
    assert!(stderr.contains("--tool"), "{stderr}");
}

#[test]
fn an_unknown_mode_is_named() {
    let stderr = one_line_error(&check(&[
        "--tool", "Bash", "--input", "{}", "--mode", "yolo",
    ]));
    assert!(stderr.contains("yolo"), "{stderr}");
}

#[test]
fn a_bad_config_file_names_the_file_and_the_key() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("warrant.toml");
    std::fs::write(&file, "mode = \"sometimes\"\n").unwrap();
    let stderr = one_line_error(&check(&[
        "--tool",
        "Bash",
        "--input",
        "{}",
        "--config",
        file.to_str().unwrap(),
    ]));
    assert!(
        stderr.contains("warrant.toml") && stderr.contains("mode"),
        "{stderr}"
    );
}

#[test]
fn a_bad_nested_key_is_named_from_the_top() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("warrant.toml");
    std::fs::write(&file, "[evaluators.policy]\nhome_dirr = \"/x\"\n").unwrap();
    let stderr = one_line_error(&check(&[
        "--tool",
        "Bash",
        "--input",
        "{}",
        "--config",
        file.to_str().unwrap(),
    ]));
    assert!(
        stderr.contains("key \"evaluators.policy.home_dirr\""),
        "{stderr}"
    );
}

#[test]
fn logs_to_a_pipe_carry_no_colour_codes() {
    let workspace = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_warrant"))
        .args(["check", "--tool", "Bash", "--input", r#"{"command":"ls"}"#])
        .current_dir(workspace.path())
        .env("WARRANT_LOG", "debug")
        .output()
        .unwrap();
    assert!(out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.trim().is_empty(), "debug logging writes to stderr");
    assert!(
        !stderr.contains('\u{1b}'),
        "no ANSI escape in piped logs: {:?}",
        stderr.chars().take(200).collect::<String>()
    );
}

#[test]
fn warrants_own_files_are_never_written_by_a_call() {
    let workspace = tempfile::tempdir().unwrap();
    let config = workspace.path().join("settings/warrant-local.toml");
    std::fs::create_dir_all(config.parent().unwrap()).unwrap();
    std::fs::write(&config, "mode = \"full_access\"\n").unwrap();
    for path in [
        "state/warrant.db",
        "state/warrant.db.audit-key",
        "settings/warrant-local.toml",
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_warrant"))
            .arg("--config")
            .arg(&config)
            .args(["check", "--tool", "Write", "--input"])
            .arg(serde_json::json!({"path": path, "content": "x"}).to_string())
            .current_dir(workspace.path())
            .env("WARRANT_DATA_DIR", workspace.path().join("state"))
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        let d: Value = serde_json::from_str(stdout.trim())
            .unwrap_or_else(|e| panic!("{e}: {stdout} {}", String::from_utf8_lossy(&out.stderr)));
        assert_eq!(d["behavior"], "deny", "{path}: {d}");
        assert_eq!(
            d["reasonCode"], "filesystem_protected_config",
            "{path}: {d}"
        );
    }
}

#[test]
fn a_data_directory_holding_the_workspace_protects_only_the_database() {
    let workspace = tempfile::tempdir().unwrap();
    let decide = |path: &str| -> Value {
        let out = Command::new(env!("CARGO_BIN_EXE_warrant"))
            .args(["check", "--tool", "Write", "--input"])
            .arg(serde_json::json!({"path": path, "content": "x"}).to_string())
            .current_dir(workspace.path())
            .env("WARRANT_DATA_DIR", ".")
            .output()
            .unwrap();
        serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)))
    };
    for db in ["warrant.db", "warrant.db-wal", "warrant.db.audit-key"] {
        let d = decide(db);
        assert_eq!(d["reasonCode"], "filesystem_protected_config", "{db}: {d}");
    }
    let d = decide("src/lib.rs");
    assert_ne!(
        d["behavior"], "deny",
        "the workspace's own files stay writable: {d}"
    );
    assert_eq!(d["reasonCode"], "filesystem_write_inside_workspace", "{d}");
}

#[test]
fn a_cdpath_in_the_environment_makes_a_relative_cd_go_anywhere() {
    let run = |cdpath: Option<&str>, command: &str| -> Value {
        let workspace = tempfile::tempdir().unwrap();
        std::fs::create_dir(workspace.path().join("src")).unwrap();
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_warrant"));
        cmd.arg("check")
            .args(["--tool", "Bash", "--input"])
            .arg(serde_json::json!({ "command": command }).to_string())
            .current_dir(workspace.path())
            .env_remove("WARRANT_MODE")
            .env_remove("CDPATH");
        if let Some(c) = cdpath {
            cmd.env("CDPATH", c);
        }
        let out = cmd.output().unwrap();
        serde_json::from_slice(&out.stdout).unwrap()
    };
    for command in [
        "cd src && cat lib.rs",
        "pushd src && cat main.rs",
        "cd src && cat *",
    ] {
        assert_eq!(run(None, command)["behavior"], "allow", "{command}");
        assert_eq!(run(Some(""), command)["behavior"], "allow", "{command}");
        assert_ne!(
            run(Some("/root"), command)["behavior"],
            "allow",
            "{command}"
        );
    }
    // `./` and `../` and absolute names are not looked up in `CDPATH`.
    assert_eq!(
        run(Some("/root"), "cd ./src && cat lib.rs")["behavior"],
        "allow"
    );
}
