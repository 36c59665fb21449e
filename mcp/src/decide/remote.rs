//! A `warrant serve` as the place calls are decided: its HTTP API, and the resolution of an
//! `ask` read from the session's event stream.

use std::time::Duration;
use warrant_core::ids::{SessionId, ToolCallId};

use serde_json::Value;
use warrant_core::decision::Behavior;

/// A `warrant serve` reached over HTTP with a bearer token.
#[derive(Clone)]
pub struct RemoteServer {
    base: String,
    token: Option<String>,
    client: reqwest::Client,
}

impl std::fmt::Debug for RemoteServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The token stays out of logs.
        f.debug_struct("RemoteServer")
            .field("base", &self.base)
            .finish_non_exhaustive()
    }
}

/// How long one HTTP request to the server may take (event streams excepted).
const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);

impl RemoteServer {
    /// A server at `base` (`http://127.0.0.1:7878`), with the bearer token when given.
    ///
    /// # Errors
    ///
    /// The URL is not `http://` or `https://`, or the HTTP client cannot be built.
    pub fn new(base: &str, token: Option<String>) -> Result<Self, String> {
        let base = base.trim_end_matches('/').to_owned();
        if !(base.starts_with("http://") || base.starts_with("https://")) {
            return Err(format!(
                "--server {base:?} is not an http:// or https:// URL (e.g. http://127.0.0.1:7878)"
            ));
        }
        let client = reqwest::Client::builder()
            .connect_timeout(Duration::from_secs(10))
            .build()
            .map_err(|e| format!("cannot build the HTTP client: {e}"))?;
        Ok(Self {
            base,
            token,
            client,
        })
    }

    fn request(&self, method: reqwest::Method, path: &str) -> reqwest::RequestBuilder {
        let builder = self.client.request(method, format!("{}{path}", self.base));
        match &self.token {
            Some(token) => builder.bearer_auth(token),
            None => builder,
        }
    }

    pub(super) async fn post(&self, path: &str, body: Value) -> Result<Value, String> {
        self.send(reqwest::Method::POST, path, body).await
    }

    pub(super) async fn put(&self, path: &str, body: Value) -> Result<Value, String> {
        self.send(reqwest::Method::PUT, path, body).await
    }

    pub(super) async fn delete(&self, path: &str, body: Value) -> Result<Value, String> {
        self.send(reqwest::Method::DELETE, path, body).await
    }

    async fn send(
        &self,
        method: reqwest::Method,
        path: &str,
        body: Value,
    ) -> Result<Value, String> {
        let response = self
            .request(method, path)
            .timeout(REQUEST_TIMEOUT)
            .json(&body)
            .send()
            .await
            .map_err(|e| format!("{} is unreachable: {e}", self.base))?;
        let status = response.status();
        let text = response
            .text()
            .await
            .map_err(|e| format!("{}: the answer could not be read: {e}", self.base))?;
        if !status.is_success() {
            let message = serde_json::from_str::<Value>(&text)
                .ok()
                .and_then(|v| {
                    v.pointer("/error/message")
                        .and_then(Value::as_str)
                        .map(str::to_owned)
                })
                .unwrap_or_else(|| text.chars().take(200).collect());
            return Err(format!("{path}: {status}: {message}"));
        }
        if text.trim().is_empty() {
            return Ok(Value::Null);
        }
        serde_json::from_str(&text).map_err(|e| format!("{path}: the answer is not JSON: {e}"))
    }

    /// Waits on the session's event stream for the resolution of one call.
    pub(super) async fn resolution(
        &self,
        session_id: &SessionId,
        tool_call_id: &ToolCallId,
    ) -> Result<Behavior, String> {
        let path = format!("/v1/sessions/{}/events", segment(session_id.as_str()));
        let mut response = self
            .request(reqwest::Method::GET, &path)
            .header("accept", "text/event-stream")
            .send()
            .await
            .map_err(|e| format!("{} is unreachable: {e}", self.base))?;
        if !response.status().is_success() {
            return Err(format!("{path}: {}", response.status()));
        }
        let mut buffer: Vec<u8> = Vec::new();
        loop {
            let chunk = response
                .chunk()
                .await
                .map_err(|e| format!("{path}: the event stream broke: {e}"))?;
            let Some(chunk) = chunk else {
                return Err(format!("{path}: the event stream ended"));
            };
            buffer.extend_from_slice(&chunk);
            while let Some(end) = buffer.iter().position(|b| *b == b'\n') {
                let line: Vec<u8> = buffer.drain(..=end).collect();
                let line = String::from_utf8_lossy(&line);
                if let Some(behavior) = resolution_in(line.trim_end(), tool_call_id.as_str()) {
                    return Ok(behavior);
                }
            }
        }
    }
}

/// The resolution of `tool_call_id` when this SSE line carries it.
fn resolution_in(line: &str, tool_call_id: &str) -> Option<Behavior> {
    let data = line.strip_prefix("data:")?.trim_start();
    let event: Value = serde_json::from_str(data).ok()?;
    if event.get("type")? != "CUSTOM"
        || event.get("name")? != warrant_core::event::TOOL_PERMISSION_RESOLUTION
    {
        return None;
    }
    let value = event.get("value")?;
    if value.get("toolCallId")?.as_str()? != tool_call_id {
        return None;
    }
    match value.get("behavior")?.as_str()? {
        "allow" => Some(Behavior::Allow),
        // Anything else is a deny: nothing unreadable becomes an allow.
        _ => Some(Behavior::Deny),
    }
}

/// A path segment with the characters a URL path cannot hold escaped.
pub(super) fn segment(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_resolution_is_read_from_its_event_line() {
        let line = r#"data: {"type":"CUSTOM","name":"tool_permission_resolution","value":{"toolCallId":"c1","behavior":"allow","source":"user","actionId":"allow_once","scope":"once"}}"#;
        assert_eq!(resolution_in(line, "c1"), Some(Behavior::Allow));
        assert_eq!(resolution_in(line, "c2"), None);
        let odd = line.replace("\"allow\"", "\"maybe\"");
        assert_eq!(resolution_in(&odd, "c1"), Some(Behavior::Deny));
        assert_eq!(resolution_in(": keep-alive", "c1"), None);
    }

    #[test]
    fn path_segments_are_escaped() {
        assert_eq!(segment("mcp-files"), "mcp-files");
        assert_eq!(segment("a/b c"), "a%2Fb%20c");
    }

    #[test]
    fn a_server_url_must_be_http() {
        assert!(RemoteServer::new("ftp://x", None).is_err());
        assert!(RemoteServer::new("http://127.0.0.1:1/", None).is_ok());
    }
}
