//! Installing and removing Warrant's hook entries in an agent's settings file, changing
//! nothing else: keys keep their order, other hooks stay, the file is replaced atomically
//! (a temporary file renamed over it) after a backup, and a file that is not valid JSON is
//! refused, never rewritten. Neither the backup nor the temporary file is ever written
//! through a symlink; a settings file that is a symlink is written where it points.
//!
//! - Claude Code: `~/.claude/settings.json` (`.claude/settings.json` in the project),
//!   `hooks.{PreToolUse,PostToolUse,PostToolUseFailure,PermissionDenied,Stop}`.
//! - Codex: `~/.codex/hooks.json` (`.codex/hooks.json`), `hooks.{PreToolUse,PostToolUse,Stop}`.
//! - Gemini CLI: `~/.gemini/settings.json` (`.gemini/settings.json`),
//!   `hooks.{BeforeTool,AfterTool,AfterAgent}` (timeouts in milliseconds).

use std::fmt;
use std::path::{Path, PathBuf};

use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::ser::{SerializeMap, SerializeSeq, Serializer};
use serde::{Deserialize, Serialize};

use super::Agent;

/// Seconds the agent waits for the hook: above the hook's own default deadline (10 s), so
/// the hook always answers (fail-closed) before the agent gives up on it.
const AGENT_TIMEOUT_SECS: u64 = 30;

/// The settings file of `agent`: the user's under `home`, or the project's under `project`.
pub(crate) fn settings_path(agent: Agent, home: &Path, project: Option<&Path>) -> PathBuf {
    let (dir, file) = match agent {
        Agent::ClaudeCode => (".claude", "settings.json"),
        Agent::Codex => (".codex", "hooks.json"),
        Agent::Gemini => (".gemini", "settings.json"),
    };
    project.unwrap_or(home).join(dir).join(file)
}

/// What a change did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Change {
    /// The entries were written (`backup` holds the previous file, when there was one).
    Installed { backup: Option<PathBuf> },
    /// The entries were there already: nothing was written.
    AlreadyInstalled,
    /// The entries were removed (`backup` holds the previous file).
    Removed { backup: PathBuf },
    /// No entry of Warrant's was there: nothing was written.
    NothingToRemove,
}

/// Installs the hook entries running `command` for every event of `agent` in `path`.
///
/// # Errors
///
/// A message naming the file: unreadable, not valid JSON, not an object where the agent
/// expects one, or not writable.
pub(crate) fn install(path: &Path, agent: Agent, command: &str) -> Result<Change, String> {
    let (mut doc, existed) = read(path)?;
    if is_installed(&doc, agent, command) {
        return Ok(Change::AlreadyInstalled);
    }
    remove_ours(&mut doc, agent, path)?;
    let hooks = object_entry(&mut doc, "hooks", path)?;
    for (event, matcher) in events(agent) {
        let list = match hooks.iter_mut().find(|(k, _)| k == event) {
            Some((_, list)) => list,
            None => {
                hooks.push(((*event).to_owned(), Json::Array(Vec::new())));
                &mut hooks.last_mut().expect("just pushed").1
            }
        };
        let Json::Array(groups) = list else {
            return Err(shape_error(path, &format!("hooks.{event}"), "an array"));
        };
        groups.push(group(agent, *matcher, command));
    }
    let backup = write(path, &doc, existed)?;
    Ok(Change::Installed { backup })
}

/// Removes every hook entry of Warrant's for `agent` from `path`.
///
/// # Errors
///
/// As [`install`].
pub(crate) fn remove(path: &Path, agent: Agent) -> Result<Change, String> {
    let (mut doc, existed) = read(path)?;
    if !existed || !remove_ours(&mut doc, agent, path)? {
        return Ok(Change::NothingToRemove);
    }
    let backup = write(path, &doc, true)?.expect("the file existed");
    Ok(Change::Removed { backup })
}

/// The events hooked for each agent, with the matcher of their group (`None`: no matcher,
/// the event is not about a tool or the agent matches every tool without one).
fn events(agent: Agent) -> &'static [(&'static str, Option<&'static str>)] {
    match agent {
        Agent::ClaudeCode => &[
            ("PreToolUse", Some("*")),
            ("PostToolUse", Some("*")),
            ("PostToolUseFailure", Some("*")),
            ("PermissionDenied", Some("*")),
            ("Stop", None),
        ],
        Agent::Codex => &[("PreToolUse", None), ("PostToolUse", None), ("Stop", None)],
        Agent::Gemini => &[
            ("BeforeTool", Some(".*")),
            ("AfterTool", Some(".*")),
            ("AfterAgent", None),
        ],
    }
}

/// One hook handler running `command`, in the agent's shape.
fn handler(agent: Agent, command: &str) -> Json {
    let string = |s: &str| Json::String(s.to_owned());
    let mut fields = Vec::new();
    if agent == Agent::Gemini {
        fields.push(("name".to_owned(), string("warrant")));
    }
    fields.push(("type".to_owned(), string("command")));
    fields.push(("command".to_owned(), string(command)));
    let timeout = match agent {
        Agent::Gemini => AGENT_TIMEOUT_SECS * 1000,
        Agent::ClaudeCode | Agent::Codex => AGENT_TIMEOUT_SECS,
    };
    fields.push(("timeout".to_owned(), Json::Number(timeout.into())));
    Json::Object(fields)
}

fn group(agent: Agent, matcher: Option<&str>, command: &str) -> Json {
    let mut fields = Vec::new();
    if let Some(m) = matcher {
        fields.push(("matcher".to_owned(), Json::String(m.to_owned())));
    }
    fields.push((
        "hooks".to_owned(),
        Json::Array(vec![handler(agent, command)]),
    ));
    Json::Object(fields)
}

/// Whether a hook handler is Warrant's hook for `agent`: its command runs a program named
/// `warrant` with the arguments `hook <agent>`.
fn is_ours(handler: &Json, agent: Agent) -> bool {
    let Some(Json::String(command)) = handler.get("command") else {
        return false;
    };
    let words: Vec<&str> = command.split_whitespace().collect();
    words.windows(2).enumerate().any(|(at, pair)| {
        pair[0] == "hook"
            && pair[1] == agent.id()
            && words[..at].iter().any(|w| {
                let w = w.trim_matches(|c| c == '"' || c == '\'');
                let name = Path::new(w).file_name().and_then(|n| n.to_str());
                matches!(name, Some("warrant" | "warrant.exe"))
            })
    })
}

/// Whether exactly the wanted entries are there: one per event, in a group with the wanted
/// matcher, and no other entry of Warrant's for the agent.
fn is_installed(doc: &Json, agent: Agent, command: &str) -> bool {
    let Some(Json::Object(hooks)) = doc.get("hooks") else {
        return false;
    };
    let wanted = handler(agent, command);
    let mut ours = 0;
    for (event, list) in hooks {
        let Json::Array(groups) = list else { continue };
        for g in groups {
            let Some(Json::Array(handlers)) = g.get("hooks") else {
                continue;
            };
            for h in handlers.iter().filter(|h| is_ours(h, agent)) {
                ours += 1;
                let matcher = events(agent)
                    .iter()
                    .find(|(e, _)| e == event)
                    .map(|(_, m)| *m);
                let matches = match matcher {
                    Some(m) => g.get("matcher").and_then(Json::as_str) == m,
                    None => false,
                };
                if !matches || *h != wanted {
                    return false;
                }
            }
        }
    }
    ours == events(agent).len()
}

/// Removes Warrant's handlers for `agent`, then the groups, event lists and `hooks` object
/// that only they left empty. Returns whether anything was removed.
fn remove_ours(doc: &mut Json, agent: Agent, path: &Path) -> Result<bool, String> {
    let Json::Object(top) = doc else {
        return Err(shape_error(path, "the top level", "an object"));
    };
    let Some(at) = top.iter().position(|(k, _)| k == "hooks") else {
        return Ok(false);
    };
    let Json::Object(hooks) = &mut top[at].1 else {
        return Err(shape_error(path, "hooks", "an object"));
    };
    let mut removed = false;
    hooks.retain_mut(|(_, list)| {
        let Json::Array(groups) = list else {
            return true;
        };
        let before = groups.len();
        groups.retain_mut(|g| {
            let Some(Json::Array(handlers)) = g.get_mut("hooks") else {
                return true;
            };
            let count = handlers.len();
            handlers.retain(|h| !is_ours(h, agent));
            if handlers.len() == count {
                return true;
            }
            removed = true;
            !handlers.is_empty()
        });
        groups.len() == before || !groups.is_empty()
    });
    if removed && hooks.is_empty() {
        top.remove(at);
    }
    Ok(removed)
}

/// The object under `key` of the top-level object, added when missing.
fn object_entry<'a>(
    doc: &'a mut Json,
    key: &str,
    path: &Path,
) -> Result<&'a mut Vec<(String, Json)>, String> {
    let Json::Object(top) = doc else {
        return Err(shape_error(path, "the top level", "an object"));
    };
    if !top.iter().any(|(k, _)| k == key) {
        top.push((key.to_owned(), Json::Object(Vec::new())));
    }
    let (_, value) = top
        .iter_mut()
        .find(|(k, _)| k == key)
        .expect("just ensured");
    match value {
        Json::Object(fields) => Ok(fields),
        _ => Err(shape_error(path, key, "an object")),
    }
}

fn shape_error(path: &Path, what: &str, expected: &str) -> String {
    format!(
        "cannot edit {}: {what} must be {expected}; fix the file (or move it away) and run warrant init again",
        path.display()
    )
}

/// The file's document (an empty object when it does not exist) and whether it existed.
fn read(path: &Path) -> Result<(Json, bool), String> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Ok((Json::Object(Vec::new()), false));
        }
        Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
    };
    if text.trim().is_empty() {
        return Ok((Json::Object(Vec::new()), true));
    }
    let doc: Json = serde_json::from_str(&text).map_err(|e| {
        format!(
            "cannot edit {}: it is not valid JSON ({e}); fix the file (or move it away) and run warrant init again",
            path.display()
        )
    })?;
    if !matches!(doc, Json::Object(_)) {
        return Err(shape_error(path, "the top level", "an object"));
    }
    Ok((doc, true))
}

/// Writes `doc` to `path` atomically, after copying the old file to `<name>.warrant-backup`
/// beside it. Returns the backup's path.
///
/// Nothing is written through a link an attacker may have planted (`--project` edits files
/// of a repository that may not be trusted): the backup and the temporary file are new files
/// (`O_EXCL`, mode 0600) renamed into place, so a symlink at the backup path is replaced,
/// never followed. A settings file that is itself a symlink (dotfiles kept elsewhere) is
/// written where it points, the link left as it is.
fn write(path: &Path, doc: &Json, existed: bool) -> Result<Option<PathBuf>, String> {
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)
        .map_err(|e| format!("cannot create the directory {}: {e}", dir.display()))?;
    let name = path
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("settings.json");
    let target = resolved(path)?;
    let backup = if existed {
        let backup = dir.join(format!("{name}.warrant-backup"));
        let old =
            std::fs::read(&target).map_err(|e| format!("cannot read {}: {e}", target.display()))?;
        replace_with(&backup, &old, None).map_err(|e| {
            format!(
                "cannot back {} up to {}: {e}",
                path.display(),
                backup.display()
            )
        })?;
        Some(backup)
    } else {
        None
    };
    let mut text = serde_json::to_string_pretty(doc)
        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    text.push('\n');
    // Keep the file's permissions (settings may be private).
    let permissions = std::fs::metadata(&target).ok().map(|m| m.permissions());
    replace_with(&target, text.as_bytes(), permissions)
        .map_err(|e| format!("cannot write {}: {e}", target.display()))?;
    Ok(backup)
}

/// Where the settings at `path` live: `path` itself, or, when it is a symlink, the file it
/// points to (a link to a missing file is refused).
fn resolved(path: &Path) -> Result<PathBuf, String> {
    match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_symlink() => std::fs::canonicalize(path).map_err(|e| {
            format!(
                "cannot edit {}: it is a symlink whose target cannot be resolved ({e}); fix the \
                 link (or move it away) and run warrant init again",
                path.display()
            )
        }),
        _ => Ok(path.to_path_buf()),
    }
}

/// Replaces whatever is at `path` (a file or a symlink, never followed) with a new file
/// holding `bytes`: written to a new temporary file beside it (unpredictable name, created
/// exclusively with mode 0600, then given `permissions`), flushed, and renamed over `path`.
fn replace_with(
    path: &Path,
    bytes: &[u8],
    permissions: Option<std::fs::Permissions>,
) -> std::io::Result<()> {
    use std::io::Write;
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("settings.json");
    let temp = dir.join(format!(
        ".{name}.warrant-{}.tmp",
        uuid::Uuid::new_v4().simple()
    ));
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    let mut file = options.open(&temp)?;
    let written = file
        .write_all(bytes)
        .and_then(|()| match permissions {
            Some(p) => file.set_permissions(p),
            None => Ok(()),
        })
        .and_then(|()| file.sync_all())
        .and_then(|()| std::fs::rename(&temp, path));
    if written.is_err() {
        let _ = std::fs::remove_file(&temp);
    }
    written
}

/// A JSON value whose objects keep their keys in the file's order.
#[derive(Debug, Clone, PartialEq)]
enum Json {
    Null,
    Bool(bool),
    Number(serde_json::Number),
    String(String),
    Array(Vec<Json>),
    Object(Vec<(String, Json)>),
}

impl Json {
    fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Object(fields) => fields.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    fn get_mut(&mut self, key: &str) -> Option<&mut Json> {
        match self {
            Json::Object(fields) => fields.iter_mut().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    fn as_str(&self) -> Option<&str> {
        match self {
            Json::String(s) => Some(s),
            _ => None,
        }
    }
}

impl Serialize for Json {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Json::Null => serializer.serialize_unit(),
            Json::Bool(b) => serializer.serialize_bool(*b),
            Json::Number(n) => n.serialize(serializer),
            Json::String(s) => serializer.serialize_str(s),
            Json::Array(items) => {
                let mut seq = serializer.serialize_seq(Some(items.len()))?;
                for item in items {
                    seq.serialize_element(item)?;
                }
                seq.end()
            }
            Json::Object(fields) => {
                let mut map = serializer.serialize_map(Some(fields.len()))?;
                for (k, v) in fields {
                    map.serialize_entry(k, v)?;
                }
                map.end()
            }
        }
    }
}

impl<'de> Deserialize<'de> for Json {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(JsonVisitor)
    }
}

struct JsonVisitor;

impl<'de> Visitor<'de> for JsonVisitor {
    type Value = Json;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_unit<E: de::Error>(self) -> Result<Json, E> {
        Ok(Json::Null)
    }

    fn visit_none<E: de::Error>(self) -> Result<Json, E> {
        Ok(Json::Null)
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Json, E> {
        Ok(Json::Bool(v))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Json, E> {
        Ok(Json::Number(v.into()))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Json, E> {
        Ok(Json::Number(v.into()))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Json, E> {
        serde_json::Number::from_f64(v)
            .map(Json::Number)
            .ok_or_else(|| E::custom("a number JSON cannot hold"))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Json, E> {
        Ok(Json::String(v.to_owned()))
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<Json, E> {
        Ok(Json::String(v))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Json, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Json::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Json, A::Error> {
        let mut fields = Vec::new();
        while let Some((k, v)) = map.next_entry::<String, Json>()? {
            fields.push((k, v));
        }
        Ok(Json::Object(fields))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_handler_is_ours_only_when_it_runs_warrant_hook_for_the_agent() {
        let h = |c: &str| handler(Agent::ClaudeCode, c);
        assert!(is_ours(
            &h("/usr/bin/warrant hook claude-code"),
            Agent::ClaudeCode
        ));
        assert!(is_ours(
            &h("'/opt/my tools/warrant' --config x hook claude-code --server http://x"),
            Agent::ClaudeCode
        ));
        assert!(!is_ours(&h("warrant hook codex"), Agent::ClaudeCode));
        assert!(!is_ours(
            &h("my-linter hook claude-code"),
            Agent::ClaudeCode
        ));
    }

    #[test]
    fn keys_keep_their_order_through_a_round_trip() {
        let text = r#"{"z":1,"a":{"y":[1,2.5,"x"],"b":null}}"#;
        let doc: Json = serde_json::from_str(text).unwrap();
        assert_eq!(serde_json::to_string(&doc).unwrap(), text);
    }
}
