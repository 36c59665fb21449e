//! The client configuration that wraps an existing MCP server with the gateway
//! (`warrant init --mcp NAME -- CMD…`).

use std::path::Path;

use serde_json::{Map, Value, json};

/// The `mcpServers` entry that runs `command` through `warrant mcp --name NAME`, with
/// `--config FILE` first when a configuration file is named (the gateway never reads one from
/// the directory the client starts it in).
pub fn server_entry(name: &str, command: &[String], config: Option<&Path>) -> Value {
    let mut args = Vec::new();
    if let Some(file) = config {
        args.push("--config".to_owned());
        args.push(file.display().to_string());
    }
    args.extend([
        "mcp".to_owned(),
        "--name".to_owned(),
        name.to_owned(),
        "--".to_owned(),
    ]);
    args.extend(command.iter().cloned());
    json!({"command": "warrant", "args": args})
}

/// The whole snippet: `{"mcpServers": {NAME: {"command": "warrant", "args": [...]}}}`.
///
/// # Errors
///
/// A blank name, or no command to wrap.
pub fn snippet(name: &str, command: &[String], config: Option<&Path>) -> Result<Value, String> {
    check(name, command)?;
    let mut servers = Map::new();
    servers.insert(name.to_owned(), server_entry(name, command, config));
    Ok(json!({"mcpServers": servers}))
}

fn check(name: &str, command: &[String]) -> Result<(), String> {
    if name.trim().is_empty() {
        return Err("--mcp needs a server name (e.g. --mcp files)".to_owned());
    }
    if command.is_empty() {
        return Err(format!(
            "--mcp {name} needs the server's command after `--` (e.g. warrant init --mcp {name} -- npx -y @modelcontextprotocol/server-filesystem .)"
        ));
    }
    Ok(())
}

/// The suffix of the copy of a configuration file's previous content.
pub const BACKUP_SUFFIX: &str = ".warrant-backup";

/// Writes the entry into a client configuration file: created when missing; otherwise the
/// file's other settings and servers are kept and only `mcpServers.NAME` is set, and the
/// previous content is kept in `FILE.warrant-backup`.
///
/// Both files are written whole or not at all: each is a new file (mode 0600 on Unix) in the
/// same directory, renamed into place, so a crash or a full disk never leaves half a
/// configuration, and a symbolic link at the backup's path is replaced, never followed. When
/// FILE itself is a symbolic link, the file it points to is updated.
///
/// # Errors
///
/// The file is not a JSON object (or its `mcpServers` is not one), or cannot be read or written;
/// nothing is written then.
pub fn write_into(
    path: &Path,
    name: &str,
    command: &[String],
    config_file: Option<&Path>,
) -> Result<Value, String> {
    check(name, command)?;
    let target = match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_symlink() => std::fs::canonicalize(path).map_err(|e| {
            format!(
                "{} is a symbolic link to nothing readable ({e}); fix or remove it",
                path.display()
            )
        })?,
        _ => path.to_owned(),
    };
    let previous = match std::fs::read_to_string(&target) {
        Ok(text) => Some(text),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
    };
    let mut config = match previous.as_deref() {
        None => json!({}),
        Some(text) if text.trim().is_empty() => json!({}),
        Some(text) => serde_json::from_str::<Value>(text)
            .map_err(|e| format!("{} is not JSON ({e}); fix or move it", path.display()))?,
    };
    let Some(root) = config.as_object_mut() else {
        return Err(format!("{} must hold a JSON object", path.display()));
    };
    let servers = root
        .entry("mcpServers")
        .or_insert_with(|| Value::Object(Map::new()));
    let Some(servers) = servers.as_object_mut() else {
        return Err(format!(
            "\"mcpServers\" in {} must be a JSON object",
            path.display()
        ));
    };
    servers.insert(name.to_owned(), server_entry(name, command, config_file));
    let text = serde_json::to_string_pretty(&config).map_err(|e| e.to_string())?;
    if let Some(previous) = previous {
        let mut backup = path.as_os_str().to_owned();
        backup.push(BACKUP_SUFFIX);
        let backup = std::path::PathBuf::from(backup);
        replace_atomically(&backup, previous.as_bytes()).map_err(|e| {
            format!(
                "cannot back up {} to {}: {e}",
                path.display(),
                backup.display()
            )
        })?;
    }
    replace_atomically(&target, format!("{text}\n").as_bytes())
        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    Ok(config)
}

/// Puts `content` at `path` whole: written to a new file beside it (created exclusively, mode
/// 0600 on Unix), synced, then renamed over `path`. A rename replaces a symbolic link at `path`
/// itself; it never writes through one.
fn replace_atomically(path: &Path, content: &[u8]) -> std::io::Result<()> {
    use std::io::Write;

    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    let file_name = path
        .file_name()
        .ok_or_else(|| std::io::Error::other("not a file name"))?
        .to_string_lossy();
    let temp = dir.join(format!(
        ".{file_name}.{}.tmp",
        uuid::Uuid::new_v4().simple()
    ));
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    let written = options.open(&temp).and_then(|mut file| {
        file.write_all(content)?;
        file.sync_all()?;
        drop(file);
        std::fs::rename(&temp, path)
    });
    if written.is_err() {
        let _ = std::fs::remove_file(&temp);
    }
    written?;
    // The rename itself survives a crash once the directory is synced (where that is possible).
    if let Ok(dir) = std::fs::File::open(dir) {
        let _ = dir.sync_all();
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cmd(words: &[&str]) -> Vec<String> {
        words.iter().map(|w| (*w).to_owned()).collect()
    }

    #[test]
    fn the_snippet_wraps_the_command() {
        let value = snippet("files", &cmd(&["npx", "-y", "server", "."]), None).unwrap();
        assert_eq!(
            value,
            json!({"mcpServers": {"files": {"command": "warrant",
                "args": ["mcp", "--name", "files", "--", "npx", "-y", "server", "."]}}})
        );
        let pinned = snippet("files", &cmd(&["srv"]), Some(Path::new("/p/warrant.toml"))).unwrap();
        assert_eq!(
            pinned["mcpServers"]["files"]["args"],
            json!([
                "--config",
                "/p/warrant.toml",
                "mcp",
                "--name",
                "files",
                "--",
                "srv"
            ])
        );
    }

    #[test]
    fn a_snippet_needs_a_name_and_a_command() {
        assert!(snippet(" ", &cmd(&["x"]), None).is_err());
        assert!(snippet("x", &[], None).unwrap_err().contains("after `--`"));
    }

    #[test]
    fn writing_keeps_the_other_servers() {
        let dir = std::env::temp_dir().join(format!("warrant-snippet-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("mcp.json");
        std::fs::write(
            &file,
            r#"{"mcpServers":{"other":{"command":"x"}},"theme":"dark"}"#,
        )
        .unwrap();
        write_into(&file, "files", &cmd(&["srv"]), None).unwrap();
        let written: Value =
            serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
        assert_eq!(written["theme"], "dark");
        assert_eq!(written["mcpServers"]["other"]["command"], "x");
        assert_eq!(written["mcpServers"]["files"]["args"][4], "srv");
        std::fs::write(&file, "[1]").unwrap();
        assert!(write_into(&file, "files", &cmd(&["srv"]), None).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    fn names_in(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn writing_replaces_the_file_whole_and_keeps_a_backup() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("mcp.json");
        // A new file: no backup, nothing else left behind.
        write_into(&file, "one", &cmd(&["a"]), None).unwrap();
        assert_eq!(names_in(dir.path()), ["mcp.json"]);
        let first = std::fs::read_to_string(&file).unwrap();
        write_into(&file, "two", &cmd(&["b"]), None).unwrap();
        assert_eq!(
            names_in(dir.path()),
            ["mcp.json", "mcp.json.warrant-backup"]
        );
        let backup = dir.path().join("mcp.json.warrant-backup");
        assert_eq!(std::fs::read_to_string(&backup).unwrap(), first);
        let written: Value =
            serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
        assert_eq!(written["mcpServers"]["one"]["args"][4], "a");
        assert_eq!(written["mcpServers"]["two"]["args"][4], "b");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            for path in [&file, &backup] {
                let mode = std::fs::metadata(path).unwrap().permissions().mode();
                assert_eq!(mode & 0o777, 0o600, "{}", path.display());
            }
        }
    }

    #[test]
    fn invalid_json_is_refused_and_left_as_it_is() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("client.json");
        std::fs::write(&file, "{\"mcpServers\": {").unwrap();
        let e = write_into(&file, "files", &cmd(&["srv"]), None).unwrap_err();
        assert!(
            e.contains(&file.display().to_string()) && e.contains("not JSON"),
            "{e}"
        );
        assert_eq!(
            std::fs::read_to_string(&file).unwrap(),
            "{\"mcpServers\": {"
        );
        assert_eq!(
            names_in(dir.path()),
            ["client.json"],
            "no backup, no temp file"
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_symbolic_link_at_the_backup_path_is_replaced_not_followed() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("mcp.json");
        let victim = dir.path().join("victim");
        std::fs::write(&victim, "untouched").unwrap();
        std::fs::write(&file, r#"{"theme":"dark"}"#).unwrap();
        let backup = dir.path().join("mcp.json.warrant-backup");
        std::os::unix::fs::symlink(&victim, &backup).unwrap();
        write_into(&file, "files", &cmd(&["srv"]), None).unwrap();
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "untouched");
        assert!(
            !std::fs::symlink_metadata(&backup)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(
            std::fs::read_to_string(&backup).unwrap(),
            r#"{"theme":"dark"}"#
        );
        assert_eq!(
            names_in(dir.path()),
            ["mcp.json", "mcp.json.warrant-backup", "victim"]
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_configuration_behind_a_symbolic_link_is_updated_where_it_lives() {
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("real.json");
        std::fs::write(&real, r#"{"theme":"dark"}"#).unwrap();
        let link = dir.path().join("mcp.json");
        std::os::unix::fs::symlink(&real, &link).unwrap();
        write_into(&link, "files", &cmd(&["srv"]), None).unwrap();
        assert!(
            std::fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        let written: Value =
            serde_json::from_str(&std::fs::read_to_string(&real).unwrap()).unwrap();
        assert_eq!(written["theme"], "dark");
        assert_eq!(written["mcpServers"]["files"]["args"][4], "srv");
        assert_eq!(
            std::fs::read_to_string(dir.path().join("mcp.json.warrant-backup")).unwrap(),
            r#"{"theme":"dark"}"#
        );
    }
}
