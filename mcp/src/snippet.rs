//! The client configuration that wraps an existing MCP server with the gateway
//! (`warrant init --mcp NAME -- CMD…`).

use std::path::Path;

use serde_json::{Map, Value, json};

/// The `mcpServers` entry that runs `command` through `warrant mcp --name NAME`.
pub fn server_entry(name: &str, command: &[String]) -> Value {
    let mut args = vec![
        "mcp".to_owned(),
        "--name".to_owned(),
        name.to_owned(),
        "--".to_owned(),
    ];
    args.extend(command.iter().cloned());
    json!({"command": "warrant", "args": args})
}

/// The whole snippet: `{"mcpServers": {NAME: {"command": "warrant", "args": [...]}}}`.
///
/// # Errors
///
/// A blank name, or no command to wrap.
pub fn snippet(name: &str, command: &[String]) -> Result<Value, String> {
    check(name, command)?;
    let mut servers = Map::new();
    servers.insert(name.to_owned(), server_entry(name, command));
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

/// Writes the entry into a client configuration file: created when missing; otherwise the
/// file's other settings and servers are kept and only `mcpServers.NAME` is set.
///
/// # Errors
///
/// The file is not a JSON object (or its `mcpServers` is not one), or cannot be read or written.
pub fn write_into(path: &Path, name: &str, command: &[String]) -> Result<Value, String> {
    check(name, command)?;
    let mut config = match std::fs::read_to_string(path) {
        Ok(text) if text.trim().is_empty() => json!({}),
        Ok(text) => serde_json::from_str::<Value>(&text)
            .map_err(|e| format!("{} is not JSON ({e}); fix or move it", path.display()))?,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => json!({}),
        Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
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
    servers.insert(name.to_owned(), server_entry(name, command));
    let text = serde_json::to_string_pretty(&config).map_err(|e| e.to_string())?;
    std::fs::write(path, format!("{text}\n"))
        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    Ok(config)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cmd(words: &[&str]) -> Vec<String> {
        words.iter().map(|w| (*w).to_owned()).collect()
    }

    #[test]
    fn the_snippet_wraps_the_command() {
        let value = snippet("files", &cmd(&["npx", "-y", "server", "."])).unwrap();
        assert_eq!(
            value,
            json!({"mcpServers": {"files": {"command": "warrant",
                "args": ["mcp", "--name", "files", "--", "npx", "-y", "server", "."]}}})
        );
    }

    #[test]
    fn a_snippet_needs_a_name_and_a_command() {
        assert!(snippet(" ", &cmd(&["x"])).is_err());
        assert!(snippet("x", &[]).unwrap_err().contains("after `--`"));
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
        write_into(&file, "files", &cmd(&["srv"])).unwrap();
        let written: Value =
            serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
        assert_eq!(written["theme"], "dark");
        assert_eq!(written["mcpServers"]["other"]["command"], "x");
        assert_eq!(written["mcpServers"]["files"]["args"][4], "srv");
        std::fs::write(&file, "[1]").unwrap();
        assert!(write_into(&file, "files", &cmd(&["srv"])).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
