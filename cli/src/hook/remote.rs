//! A running `warrant serve` as the hook's backend: one store and one UI for every agent on
//! the machine. Requests carry the person's bearer token (hooks also resolve approvals and
//! mark sessions running), read from a file only its owner can read (`--token-file`, default
//! `$XDG_CONFIG_HOME/warrant/hook-token`, else `~/.config/warrant/hook-token`), not from the
//! agent's environment, which the agent's own tools inherit: an agent that could read the
//! token could approve its own asks over HTTP. `WARRANT_TOKEN` is read only when asked for
//! (`--token-from-env`), for agents whose tools cannot read the environment. The token is
//! never printed.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::time::Duration;
use warrant_core::ids::{SessionId, ToolCallId};

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use warrant_core::approval::ToolApprovalRequest;
use warrant_core::call::{PermissionMode, ToolCall};
use warrant_core::decision::ToolPermissionDecision;
use warrant_core::part::{Message, ToolPart};

use super::backend::{Backend, DecideError, tool_parts};

/// The variable holding the server's bearer token with `--token-from-env`.
pub(crate) const TOKEN_VARIABLE: &str = "WARRANT_TOKEN";

/// The largest token file read, in bytes.
const MAX_TOKEN_BYTES: u64 = 4096;

/// The default token file: `$XDG_CONFIG_HOME/warrant/hook-token`, else
/// `~/.config/warrant/hook-token`; `None` when neither variable is set.
pub(crate) fn default_token_file() -> Option<PathBuf> {
    crate::config::user_config_dir().map(|dir| dir.join("hook-token"))
}

/// The server's bearer token: from `file` (else the default token file), or from
/// `WARRANT_TOKEN` when `from_env`.
///
/// # Errors
///
/// The file is missing, unreadable, empty, or readable by group or others (naming the path
/// and its mode); with `from_env`, the variable is not set.
pub(crate) fn token(file: Option<&Path>, from_env: bool) -> Result<String, String> {
    if from_env {
        return std::env::var(TOKEN_VARIABLE)
            .ok()
            .map(|t| t.trim().to_owned())
            .filter(|t| !t.is_empty())
            .ok_or_else(|| {
                format!("--token-from-env needs the server's bearer token in {TOKEN_VARIABLE}")
            });
    }
    let path = match file {
        Some(path) => path.to_path_buf(),
        None => default_token_file().ok_or(
            "--server needs the server's bearer token in a file (--token-file PATH): neither \
             XDG_CONFIG_HOME nor HOME is set to find the default one",
        )?,
    };
    read_token_file(&path)
}

fn read_token_file(path: &Path) -> Result<String, String> {
    let shown = path.display();
    let mut file = std::fs::File::open(path).map_err(|e| {
        format!(
            "--server needs the server's bearer token in {shown} (readable by you only: chmod \
             600 {shown}): cannot open it: {e}"
        )
    })?;
    let meta = file
        .metadata()
        .map_err(|e| format!("cannot read the token file {shown}: {e}"))?;
    if !meta.is_file() {
        return Err(format!("the token file {shown} is not a regular file"));
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = meta.permissions().mode() & 0o777;
        if mode & 0o077 != 0 {
            return Err(format!(
                "the token file {shown} has mode {mode:04o}: it must not be readable or \
                 writable by group or others (chmod 600 {shown})"
            ));
        }
    }
    let mut text = String::new();
    (&mut file)
        .take(MAX_TOKEN_BYTES + 1)
        .read_to_string(&mut text)
        .map_err(|e| format!("cannot read the token file {shown}: {e}"))?;
    if text.len() as u64 > MAX_TOKEN_BYTES {
        return Err(format!(
            "the token file {shown} is larger than {MAX_TOKEN_BYTES} bytes: it must hold the \
             token alone"
        ));
    }
    let token = text.trim();
    if token.is_empty() {
        return Err(format!("the token file {shown} is empty"));
    }
    Ok(token.to_owned())
}

/// A server reached over HTTP.
pub(crate) struct Remote {
    client: reqwest::Client,
    base: String,
    token: String,
    mode: Option<PermissionMode>,
}

impl Remote {
    /// A backend for the server at `url` (`http://127.0.0.1:7878`) with the bearer `token`
    /// (see [`token`]).
    ///
    /// # Errors
    ///
    /// The URL is not `http://` or `https://`.
    pub(crate) fn new(
        url: &str,
        token: String,
        mode: Option<PermissionMode>,
        timeout: Duration,
    ) -> Result<Self, String> {
        let base = url.trim().trim_end_matches('/').to_owned();
        if !(base.starts_with("http://") || base.starts_with("https://")) {
            return Err(format!(
                "--server \"{url}\" is not an http:// or https:// URL (try http://127.0.0.1:7878)"
            ));
        }
        let client = reqwest::Client::builder()
            .timeout(timeout)
            .build()
            .map_err(|e| format!("cannot set up the HTTP client: {e}"))?;
        Ok(Self {
            client,
            base,
            token,
            mode,
        })
    }

    /// Sends a request; a 2xx answer's JSON body (`null` when empty), or the server's error.
    async fn send(
        &self,
        method: Method,
        path: &str,
        body: Option<Value>,
    ) -> Result<(StatusCode, Value), String> {
        let url = format!("{}{path}", self.base);
        let mut request = self
            .client
            .request(method.clone(), &url)
            .bearer_auth(&self.token);
        if let Some(body) = body {
            request = request.json(&body);
        }
        let response = request
            .send()
            .await
            .map_err(|e| format!("{method} {url}: {}", e.without_url()))?;
        let status = response.status();
        let text = response
            .text()
            .await
            .map_err(|e| format!("{method} {url}: {}", e.without_url()))?;
        let value = if text.trim().is_empty() {
            Value::Null
        } else {
            serde_json::from_str(&text)
                .map_err(|e| format!("{method} {url}: the answer is not JSON ({e})"))?
        };
        Ok((status, value))
    }

    /// Like [`send`](Self::send), but any status other than 2xx is an error naming the
    /// server's message.
    async fn expect(
        &self,
        method: Method,
        path: &str,
        body: Option<Value>,
    ) -> Result<Value, String> {
        let (status, value) = self.send(method.clone(), path, body).await?;
        if status.is_success() {
            Ok(value)
        } else {
            Err(server_error(&method, path, status, &value))
        }
    }
}

fn server_error(method: &Method, path: &str, status: StatusCode, body: &Value) -> String {
    let message = body
        .pointer("/error/message")
        .and_then(Value::as_str)
        .unwrap_or("no error message");
    format!("{method} {path}: the server answered {status}: {message}")
}

/// A path segment, percent-encoded.
fn segment(text: &str) -> String {
    let mut out = String::new();
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'.' | b'_' | b'~') {
            out.push(char::from(byte));
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

impl Backend for Remote {
    async fn start(&self, session_id: &SessionId, agent: &str, cwd: &str) -> Result<(), String> {
        let path = format!("/v1/sessions/{}/run", segment(session_id.as_str()));
        let body = json!({"action": "start", "agent": agent, "cwd": cwd});
        self.expect(Method::POST, &path, Some(body)).await.map(drop)
    }

    async fn decide(&self, call: ToolCall) -> Result<ToolPermissionDecision, DecideError> {
        let path = format!(
            "/v1/sessions/{}/tool-calls",
            segment(call.session_id.as_str())
        );
        let mut body = json!({
            "toolCallId": call.tool_call_id,
            "toolName": call.tool_name,
            "input": call.input,
            "announce": true,
        });
        if let Some(agent) = &call.agent_id {
            body["agentId"] = json!(agent);
        }
        if let Some(mode) = self.mode {
            body["mode"] = json!(mode.as_str());
        }
        let (status, value) = self.send(Method::POST, &path, Some(body)).await?;
        if !status.is_success() {
            return Err(DecideError {
                duplicate: status == StatusCode::CONFLICT
                    && value.pointer("/error/code").and_then(Value::as_str)
                        == Some("duplicate_tool_call"),
                message: server_error(&Method::POST, &path, status, &value),
            });
        }
        serde_json::from_value(value)
            .map_err(|e| DecideError::failed(format!("POST {path}: not a decision ({e})")))
    }

    async fn resolve(&self, tool_call_id: &ToolCallId, action_id: &str) -> Result<bool, String> {
        let path = format!("/v1/approvals/{}", segment(tool_call_id.as_str()));
        let (status, value) = self
            .send(Method::POST, &path, Some(json!({"actionId": action_id})))
            .await?;
        match status {
            s if s.is_success() => Ok(true),
            StatusCode::NOT_FOUND | StatusCode::CONFLICT => Ok(false),
            s => Err(server_error(&Method::POST, &path, s, &value)),
        }
    }

    async fn complete(
        &self,
        session_id: &SessionId,
        tool_call_id: &ToolCallId,
        content: &str,
    ) -> Result<(), String> {
        let path = format!(
            "/v1/sessions/{}/tool-calls/{}/result",
            segment(session_id.as_str()),
            segment(tool_call_id.as_str())
        );
        self.expect(Method::POST, &path, Some(json!({"content": content})))
            .await
            .map(drop)
    }

    async fn pending(&self, session_id: &SessionId) -> Result<Vec<ToolCallId>, String> {
        let value = self.expect(Method::GET, "/v1/approvals", None).await?;
        let requests: Vec<ToolApprovalRequest> = serde_json::from_value(value)
            .map_err(|e| format!("GET /v1/approvals: not a list of requests ({e})"))?;
        Ok(requests
            .into_iter()
            .filter(|r| r.session_id.as_ref() == Some(session_id))
            .map(|r| r.tool_call_id)
            .collect())
    }

    async fn parts(&self, session_id: &SessionId) -> Result<Vec<ToolPart>, String> {
        let path = format!("/v1/sessions/{}/messages", segment(session_id.as_str()));
        let value = self.expect(Method::GET, &path, None).await?;
        let messages: Vec<Message> = serde_json::from_value(value)
            .map_err(|e| format!("GET {path}: not a list of messages ({e})"))?;
        Ok(tool_parts(messages))
    }

    async fn finish(&self, session_id: &SessionId) -> Result<(), String> {
        let path = format!("/v1/sessions/{}/run", segment(session_id.as_str()));
        let (status, value) = self
            .send(Method::POST, &path, Some(json!({"action": "finish"})))
            .await?;
        match status {
            s if s.is_success() || s == StatusCode::NOT_FOUND => Ok(()),
            s => Err(server_error(&Method::POST, &path, s, &value)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{read_token_file, segment};

    #[test]
    fn path_segments_are_percent_encoded() {
        assert_eq!(segment("a b/c"), "a%20b%2Fc");
        assert_eq!(segment("toolu_01-x.y~"), "toolu_01-x.y~");
    }

    #[cfg(unix)]
    #[test]
    fn a_token_file_others_can_read_is_refused_naming_its_path_and_mode() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("hook-token");
        std::fs::write(&path, "secret\n").unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
        let e = read_token_file(&path).unwrap_err();
        assert!(
            e.contains(path.to_str().unwrap()) && e.contains("0644"),
            "{e}"
        );
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
        assert_eq!(read_token_file(&path).unwrap(), "secret");
        std::fs::write(&path, " \n").unwrap();
        assert!(read_token_file(&path).unwrap_err().contains("empty"));
    }
}
