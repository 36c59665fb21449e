//! A running `warrant serve` as the hook's backend: one store and one UI for every agent on
//! the machine. Requests carry the bearer token from `WARRANT_TOKEN` (the person's token:
//! hooks also resolve approvals and mark sessions running); the token is never printed.

use std::time::Duration;

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use warrant_core::approval::ToolApprovalRequest;
use warrant_core::call::{PermissionMode, ToolCall};
use warrant_core::decision::ToolPermissionDecision;
use warrant_core::part::{Message, ToolPart};

use super::backend::{Backend, tool_parts};

/// The variable holding the server's bearer token.
pub(crate) const TOKEN_VARIABLE: &str = "WARRANT_TOKEN";

/// A server reached over HTTP.
pub(crate) struct Remote {
    client: reqwest::Client,
    base: String,
    token: String,
    mode: Option<PermissionMode>,
}

impl Remote {
    /// A backend for the server at `url` (`http://127.0.0.1:7878`).
    ///
    /// # Errors
    ///
    /// The URL is not `http://` or `https://`, or `WARRANT_TOKEN` is not set.
    pub(crate) fn new(
        url: &str,
        mode: Option<PermissionMode>,
        timeout: Duration,
    ) -> Result<Self, String> {
        let base = url.trim().trim_end_matches('/').to_owned();
        if !(base.starts_with("http://") || base.starts_with("https://")) {
            return Err(format!(
                "--server \"{url}\" is not an http:// or https:// URL (try http://127.0.0.1:7878)"
            ));
        }
        let token = std::env::var(TOKEN_VARIABLE)
            .ok()
            .map(|t| t.trim().to_owned())
            .filter(|t| !t.is_empty())
            .ok_or_else(|| {
                format!("--server needs the server's bearer token in {TOKEN_VARIABLE}")
            })?;
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
    async fn start(&self, session_id: &str, agent: &str, cwd: &str) -> Result<(), String> {
        let path = format!("/v1/sessions/{}/run", segment(session_id));
        let body = json!({"action": "start", "agent": agent, "cwd": cwd});
        self.expect(Method::POST, &path, Some(body)).await.map(drop)
    }

    async fn decide(&self, call: ToolCall) -> Result<ToolPermissionDecision, String> {
        let path = format!("/v1/sessions/{}/tool-calls", segment(&call.session_id));
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
        let value = self.expect(Method::POST, &path, Some(body)).await?;
        serde_json::from_value(value).map_err(|e| format!("POST {path}: not a decision ({e})"))
    }

    async fn resolve(&self, tool_call_id: &str, action_id: &str) -> Result<bool, String> {
        let path = format!("/v1/approvals/{}", segment(tool_call_id));
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
        session_id: &str,
        tool_call_id: &str,
        content: &str,
    ) -> Result<(), String> {
        let path = format!(
            "/v1/sessions/{}/tool-calls/{}/result",
            segment(session_id),
            segment(tool_call_id)
        );
        self.expect(Method::POST, &path, Some(json!({"content": content})))
            .await
            .map(drop)
    }

    async fn pending(&self, session_id: &str) -> Result<Vec<String>, String> {
        let value = self.expect(Method::GET, "/v1/approvals", None).await?;
        let requests: Vec<ToolApprovalRequest> = serde_json::from_value(value)
            .map_err(|e| format!("GET /v1/approvals: not a list of requests ({e})"))?;
        Ok(requests
            .into_iter()
            .filter(|r| r.session_id.as_deref() == Some(session_id))
            .map(|r| r.tool_call_id)
            .collect())
    }

    async fn parts(&self, session_id: &str) -> Result<Vec<ToolPart>, String> {
        let path = format!("/v1/sessions/{}/messages", segment(session_id));
        let value = self.expect(Method::GET, &path, None).await?;
        let messages: Vec<Message> = serde_json::from_value(value)
            .map_err(|e| format!("GET {path}: not a list of messages ({e})"))?;
        Ok(tool_parts(messages))
    }

    async fn finish(&self, session_id: &str) -> Result<(), String> {
        let path = format!("/v1/sessions/{}/run", segment(session_id));
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
    use super::segment;

    #[test]
    fn path_segments_are_percent_encoded() {
        assert_eq!(segment("a b/c"), "a%20b%2Fc");
        assert_eq!(segment("toolu_01-x.y~"), "toolu_01-x.y~");
    }
}
