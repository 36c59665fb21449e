//! `warrant init --agent`: installs and removes Warrant's hook entries in each agent's
//! settings file, keeping every other key (in its order), atomically, with a backup,
//! idempotently, and refuses a file that is not valid JSON.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::{Value, json};

struct Home {
    _dir: tempfile::TempDir,
    home: PathBuf,
    project: PathBuf,
}

impl Home {
    fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        let home = dir.path().join("home");
        let project = dir.path().join("project");
        std::fs::create_dir_all(&home).unwrap();
        std::fs::create_dir_all(&project).unwrap();
        Self {
            _dir: dir,
            home,
            project,
        }
    }

    fn init(&self, args: &[&str]) -> Output {
        Command::new(env!("CARGO_BIN_EXE_warrant"))
            .arg("init")
            .args(args)
            .current_dir(&self.project)
            .env("HOME", &self.home)
            .env_remove("XDG_CONFIG_HOME")
            .output()
            .unwrap()
    }
}

fn ok(out: &Output) -> String {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout.clone()).unwrap()
}

fn read(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn commands(settings: &Value, event: &str) -> Vec<String> {
    settings["hooks"][event]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|g| g["hooks"].as_array().unwrap().clone())
        .map(|h| h["command"].as_str().unwrap().to_owned())
        .collect()
}

const EXISTING: &str = r#"{
  "model": "opus",
  "permissions": {"allow": ["Bash(ls:*)"], "deny": []},
  "hooks": {
    "PreToolUse": [
      {"matcher": "Write", "hooks": [{"type": "command", "command": "prettier --check", "timeout": 5}]}
    ],
    "Notification": [{"hooks": [{"type": "command", "command": "notify-send hi"}]}]
  },
  "env": {"FOO": "1"}
}
"#;

#[test]
fn claude_code_settings_keep_every_other_key_and_hook() {
    let h = Home::new();
    let path = h.home.join(".claude/settings.json");
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, EXISTING).unwrap();
    let before: Value = serde_json::from_str(EXISTING).unwrap();

    let said = ok(&h.init(&["--agent", "claude-code"]));
    assert!(said.contains("installed"), "{said}");
    let after = read(&path);
    for key in ["model", "permissions", "env"] {
        assert_eq!(after[key], before[key], "{key}");
    }
    assert_eq!(
        after["hooks"]["Notification"],
        before["hooks"]["Notification"]
    );
    let pre = commands(&after, "PreToolUse");
    assert_eq!(pre[0], "prettier --check", "the user's hook stays first");
    assert!(pre[1].ends_with(" hook claude-code"), "{pre:?}");
    for event in [
        "PostToolUse",
        "PostToolUseFailure",
        "PermissionDenied",
        "Stop",
    ] {
        assert_eq!(commands(&after, event).len(), 1, "{event}");
    }
    // The file's keys keep their order.
    let text = std::fs::read_to_string(&path).unwrap();
    let at = |k: &str| text.find(&format!("\"{k}\"")).unwrap();
    assert!(
        at("model") < at("permissions")
            && at("permissions") < at("hooks")
            && at("hooks") < at("env")
    );
    // The previous file is backed up as it was.
    let backup = h.home.join(".claude/settings.json.warrant-backup");
    assert_eq!(std::fs::read_to_string(backup).unwrap(), EXISTING);
}

#[test]
fn the_hook_is_pinned_to_the_configuration_it_was_set_up_with() {
    // The hook never reads a `warrant.toml` of the agent's working directory, so the file
    // in the directory `init` runs in is named in the command, by its absolute path.
    let h = Home::new();
    std::fs::write(h.project.join("warrant.toml"), "mode = \"auto\"\n").unwrap();
    ok(&h.init(&["--agent", "claude-code"]));
    let pre = commands(&read(&h.home.join(".claude/settings.json")), "PreToolUse");
    let pinned = format!("--config {}", h.project.join("warrant.toml").display());
    assert!(pre[0].contains(&pinned), "{pre:?}");
    // Without a file there, nothing is pinned.
    let bare = Home::new();
    ok(&bare.init(&["--agent", "claude-code"]));
    let pre = commands(
        &read(&bare.home.join(".claude/settings.json")),
        "PreToolUse",
    );
    assert!(!pre[0].contains("--config"), "{pre:?}");
    // The MCP gateway's entry too.
    let out = ok(&h.init(&["--mcp", "files", "--", "srv"]));
    let entry: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        entry["mcpServers"]["files"]["args"][1],
        json!(h.project.join("warrant.toml").display().to_string())
    );
}

#[test]
fn installing_twice_changes_nothing() {
    let h = Home::new();
    ok(&h.init(&["--agent", "claude-code"]));
    let path = h.home.join(".claude/settings.json");
    let first = std::fs::read_to_string(&path).unwrap();
    let said = ok(&h.init(&["--agent", "claude-code"]));
    assert!(said.contains("already"), "{said}");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), first);
    assert_eq!(commands(&read(&path), "PreToolUse").len(), 1);
}

#[test]
fn removing_leaves_the_settings_as_they_were() {
    let h = Home::new();
    let path = h.home.join(".claude/settings.json");
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, EXISTING).unwrap();
    ok(&h.init(&["--agent", "claude-code"]));
    let said = ok(&h.init(&["--agent", "claude-code", "--remove"]));
    assert!(said.contains("removed"), "{said}");
    assert_eq!(
        read(&path),
        serde_json::from_str::<Value>(EXISTING).unwrap()
    );
    let said = ok(&h.init(&["--agent", "claude-code", "--remove"]));
    assert!(said.contains("no Warrant hook"), "{said}");
}

#[test]
fn a_settings_file_that_is_not_json_is_refused_and_left_alone() {
    let h = Home::new();
    let path = h.home.join(".gemini/settings.json");
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, "{ \"theme\": \"dark\", }").unwrap();
    let out = h.init(&["--agent", "gemini"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains(path.to_str().unwrap()), "{stderr}");
    assert!(stderr.contains("not valid JSON"), "{stderr}");
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        "{ \"theme\": \"dark\", }"
    );
}

#[test]
fn hooks_that_are_not_an_object_are_refused() {
    let h = Home::new();
    let path = h.home.join(".claude/settings.json");
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, r#"{"hooks": []}"#).unwrap();
    let out = h.init(&["--agent", "claude-code"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("hooks must be an object"));
}

#[test]
fn codex_hooks_json_is_created_with_pre_post_and_stop() {
    let h = Home::new();
    ok(&h.init(&["--agent", "codex", "--server", "http://127.0.0.1:7878"]));
    let settings = read(&h.home.join(".codex/hooks.json"));
    for event in ["PreToolUse", "PostToolUse", "Stop"] {
        let c = commands(&settings, event);
        assert_eq!(c.len(), 1, "{event}");
        assert!(
            c[0].contains(" hook codex --server http://127.0.0.1:7878"),
            "{c:?}"
        );
    }
    assert_eq!(
        settings["hooks"]["PreToolUse"][0]["hooks"][0]["timeout"],
        json!(30)
    );
}

#[test]
fn server_mode_says_where_the_token_goes_and_never_the_environment() {
    let h = Home::new();
    let said = ok(&h.init(&["--agent", "codex", "--server", "http://127.0.0.1:7878"]));
    let default = h.home.join(".config/warrant/hook-token");
    assert!(said.contains(default.to_str().unwrap()), "{said}");
    assert!(said.contains("chmod 600"), "{said}");
    assert!(!said.contains("WARRANT_TOKEN="), "{said}");
    // The hook reads the very file named here, whatever the agent's environment says.
    let c = &commands(&read(&h.home.join(".codex/hooks.json")), "PreToolUse")[0];
    assert!(
        c.ends_with(&format!(" --token-file {}", default.display())),
        "{c}"
    );

    let file = h.home.join("secrets/token");
    let said = ok(&h.init(&[
        "--agent",
        "claude-code",
        "--server",
        "http://127.0.0.1:7878",
        "--token-file",
        file.to_str().unwrap(),
    ]));
    assert!(said.contains(file.to_str().unwrap()), "{said}");
    let settings = read(&h.home.join(".claude/settings.json"));
    let c = &commands(&settings, "PreToolUse")[0];
    assert!(
        c.ends_with(&format!(
            " hook claude-code --server http://127.0.0.1:7878 --token-file {}",
            file.display()
        )),
        "{c}"
    );
    // --token-file without --server is a usage error.
    let out = h.init(&["--agent", "gemini", "--token-file", "/x"]);
    assert_eq!(out.status.code(), Some(2));
}

#[cfg(unix)]
#[test]
fn a_symlink_at_the_backup_path_is_replaced_never_written_through() {
    use std::os::unix::fs::PermissionsExt;
    let h = Home::new();
    // An untrusted repository plants a link where the backup goes.
    let victim = h.home.join("victim.txt");
    std::fs::write(&victim, "precious\n").unwrap();
    let dir = h.project.join(".claude");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("settings.json"), EXISTING).unwrap();
    let backup = dir.join("settings.json.warrant-backup");
    std::os::unix::fs::symlink(&victim, &backup).unwrap();

    ok(&h.init(&["--agent", "claude-code", "--project"]));
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious\n");
    let meta = std::fs::symlink_metadata(&backup).unwrap();
    assert!(meta.file_type().is_file(), "the link itself was replaced");
    assert_eq!(meta.permissions().mode() & 0o777, 0o600);
    assert_eq!(std::fs::read_to_string(&backup).unwrap(), EXISTING);
    // No temporary file is left behind.
    let left: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.ends_with(".tmp"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

#[cfg(unix)]
#[test]
fn a_symlinked_settings_file_is_written_where_it_points_and_stays_a_link() {
    use std::os::unix::fs::PermissionsExt;
    let h = Home::new();
    let real = h.home.join("dotfiles/claude-settings.json");
    std::fs::create_dir_all(real.parent().unwrap()).unwrap();
    std::fs::write(&real, EXISTING).unwrap();
    std::fs::set_permissions(&real, std::fs::Permissions::from_mode(0o600)).unwrap();
    let link = h.home.join(".claude/settings.json");
    std::fs::create_dir_all(link.parent().unwrap()).unwrap();
    std::os::unix::fs::symlink(&real, &link).unwrap();

    ok(&h.init(&["--agent", "claude-code"]));
    let meta = std::fs::symlink_metadata(&link).unwrap();
    assert!(meta.file_type().is_symlink(), "the link stays a link");
    assert_eq!(std::fs::read_link(&link).unwrap(), real);
    let written = read(&real);
    assert_eq!(commands(&written, "PreToolUse").len(), 2, "{written}");
    assert_eq!(
        std::fs::metadata(&real).unwrap().permissions().mode() & 0o777,
        0o600,
        "the file keeps its permissions"
    );
    let backup = h.home.join(".claude/settings.json.warrant-backup");
    assert_eq!(std::fs::read_to_string(backup).unwrap(), EXISTING);

    ok(&h.init(&["--agent", "claude-code", "--remove"]));
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(
        read(&real),
        serde_json::from_str::<Value>(EXISTING).unwrap()
    );
}

#[test]
fn gemini_project_settings_use_milliseconds_and_the_project_directory() {
    let h = Home::new();
    ok(&h.init(&["--agent", "gemini", "--project"]));
    assert!(!h.home.join(".gemini/settings.json").exists());
    let settings = read(&h.project.join(".gemini/settings.json"));
    let group = &settings["hooks"]["BeforeTool"][0];
    assert_eq!(group["matcher"], ".*");
    assert_eq!(group["hooks"][0]["timeout"], json!(30000));
    assert_eq!(group["hooks"][0]["name"], "warrant");
    assert_eq!(commands(&settings, "AfterTool").len(), 1);
    assert_eq!(commands(&settings, "AfterAgent").len(), 1);
}

#[test]
fn init_without_an_agent_says_what_to_name() {
    let h = Home::new();
    let out = h.init(&[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--agent"));
}

#[test]
fn an_installed_hook_command_runs() {
    let h = Home::new();
    ok(&h.init(&["--agent", "claude-code"]));
    let settings = read(&h.home.join(".claude/settings.json"));
    let command = &commands(&settings, "PreToolUse")[0];
    let payload = json!({
        "session_id": "s", "transcript_path": "/t", "cwd": h.project, "permission_mode": "default",
        "hook_event_name": "PreToolUse", "tool_name": "Bash",
        "tool_input": {"command": "rm -rf /"}, "tool_use_id": "toolu_x"
    });
    let mut child = Command::new("sh")
        .args(["-c", command])
        .current_dir(&h.project)
        .env("HOME", &h.home)
        .env_remove("XDG_DATA_HOME")
        .env_remove("XDG_CONFIG_HOME")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(payload.to_string().as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let answer: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(answer["hookSpecificOutput"]["permissionDecision"], "deny");
    // Its records are in the person's data directory, not the project.
    assert!(!h.project.join(".warrant").exists());
    let projects = h.home.join(".local/share/warrant/projects");
    assert_eq!(std::fs::read_dir(&projects).unwrap().count(), 1);
}

#[test]
fn a_project_whose_settings_link_out_of_it_is_refused() {
    let h = Home::new();
    // An untrusted repository's `.claude` points at the user's own settings directory.
    let outside = h.home.join("elsewhere");
    std::fs::create_dir_all(&outside).unwrap();
    std::fs::write(outside.join("settings.json"), EXISTING).unwrap();
    std::os::unix::fs::symlink(&outside, h.project.join(".claude")).unwrap();
    let out = h.init(&["--agent", "claude-code", "--project"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("outside the project"), "{err}");
    assert_eq!(
        read(&outside.join("settings.json")),
        serde_json::from_str::<Value>(EXISTING).unwrap(),
        "nothing written through the link"
    );
    // Another agent's settings, really inside the project, are written as usual.
    ok(&h.init(&["--agent", "gemini", "--project"]));
}
