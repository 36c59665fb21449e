//! Relaying: lines from the client and from the server, classified and passed on; the
//! server's answers to `tools/list` and to forwarded calls are read on the way.

use std::sync::Arc;

use serde_json::Value;

use super::{Forwarded, Gateway, OWN_ID_PREFIX, Out, gone, lock};
use crate::hints::ToolHints;
use crate::jsonrpc::{self, IdKey, LineError, Message};

/// The most text of a result recorded on the tool part.
const MAX_RECORDED_RESULT: usize = 16 * 1024;

/// The client requests forwarded to the server without a decision: they list, describe,
/// complete or configure, and run nothing. `tools/call` and `resources/read` (which hands the
/// client a file's or a record's contents) are decided; any other method is refused, since
/// what the server does with it is not known (a method is matched exactly, as JSON-RPC does:
/// `TOOLS/CALL` is another method, and refused).
const FORWARDED_REQUESTS: &[&str] = &[
    "initialize",
    "ping",
    "tools/list",
    "resources/list",
    "resources/templates/list",
    "resources/subscribe",
    "resources/unsubscribe",
    "prompts/list",
    "prompts/get",
    "completion/complete",
    "logging/setLevel",
    "tasks/get",
    "tasks/list",
    "tasks/result",
    "tasks/cancel",
];

/// The client notifications forwarded to the server; any other is dropped (a notification
/// has no answer to refuse with).
const FORWARDED_NOTIFICATIONS: &[&str] = &[
    "notifications/initialized",
    "notifications/cancelled",
    "notifications/progress",
    "notifications/roots/list_changed",
    "notifications/tasks/status",
];

/// The client requests decided like a tool call before they reach the server.
pub(super) const DECIDED_REQUESTS: &[&str] = &["tools/call", "resources/read"];

impl Gateway {
    pub(super) fn from_client(self: &Arc<Self>, line: &str) {
        let messages = match jsonrpc::parse_line(line) {
            Ok(messages) => messages,
            Err(e) => {
                eprintln!("warrant mcp: malformed line from the client ({e}); not forwarded");
                let id = match &e {
                    LineError::NotMessage { id: Some(id), .. } => id.clone(),
                    _ => Value::Null,
                };
                self.send_client(jsonrpc::error_response(&id, e.code(), &e.to_string()));
                return;
            }
        };
        for message in messages {
            self.client_message(message);
        }
    }

    fn client_message(self: &Arc<Self>, message: Message) {
        match message {
            Message::Request {
                id, method, params, ..
            } if DECIDED_REQUESTS.contains(&method.as_str()) => {
                self.hold(id, &method, params);
            }
            Message::Request { id, method, .. }
                if !FORWARDED_REQUESTS.contains(&method.as_str()) =>
            {
                eprintln!(
                    "warrant mcp: a {method:?} request from the client, a method the gateway does not know; not forwarded"
                );
                self.send_client(jsonrpc::error_response(
                    &id,
                    -32601,
                    &format!(
                        "the Warrant gateway does not forward the method {method:?}: only methods it knows are passed to the server"
                    ),
                ));
            }
            Message::Request {
                id,
                method,
                params,
                raw,
            } => {
                let mut state = lock(&self.state);
                if method == "initialize" {
                    // Only with --elicitation: the client's answer then stands for the user's.
                    state.elicitation = self.options.elicitation
                        && params
                            .as_ref()
                            .and_then(|p| p.pointer("/capabilities/elicitation"))
                            .is_some_and(Value::is_object);
                }
                if state.closed {
                    drop(state);
                    self.send_client(gone(&id, "the MCP server has exited"));
                    return;
                }
                let next_page = params.as_ref().and_then(|p| p.get("cursor")).is_some();
                state.forwarded.insert(
                    IdKey::of(&id),
                    Forwarded {
                        id,
                        method,
                        tool_call_id: None,
                        next_page,
                    },
                );
                drop(state);
                let _ = self.to_child.send(Out::Line(raw));
            }
            Message::Notification { method, .. }
                if !FORWARDED_NOTIFICATIONS.contains(&method.as_str()) =>
            {
                eprintln!(
                    "warrant mcp: a {method:?} notification from the client, which the gateway does not forward (a call without an id, or a method it does not know)"
                );
            }
            Message::Notification {
                method,
                params,
                raw,
            } => {
                if method == "notifications/cancelled"
                    && let Some(request_id) = params.as_ref().and_then(|p| p.get("requestId"))
                {
                    let held = lock(&self.state).held.remove(&IdKey::of(request_id));
                    if let Some(held) = held {
                        // The call never reached the server: stop holding it, answer nothing.
                        let _ = held.cancel.send(());
                        return;
                    }
                    lock(&self.state).forwarded.remove(&IdKey::of(request_id));
                }
                let _ = self.to_child.send(Out::Line(raw));
            }
            Message::Response { id, raw, .. } => {
                let own = lock(&self.state).own.remove(&IdKey::of(&id));
                match own {
                    Some(waiter) => {
                        let _ = waiter.send(Message::Response {
                            id,
                            result: None,
                            error: None,
                            raw,
                        });
                    }
                    // A late answer to a question the gateway withdrew: not the child's.
                    None if id.as_str().is_some_and(|id| id.starts_with(OWN_ID_PREFIX)) => {}
                    None => {
                        let _ = self.to_child.send(Out::Line(raw));
                    }
                }
            }
        }
    }

    pub(super) fn from_child(self: &Arc<Self>, line: &str) {
        let messages = match jsonrpc::parse_line(line) {
            Ok(messages) => messages,
            Err(e) => {
                eprintln!("warrant mcp: malformed line from the MCP server ({e}); not forwarded");
                return;
            }
        };
        for message in messages {
            if let Message::Request { id, method, .. } = &message
                && id.as_str().is_some_and(|id| id.starts_with(OWN_ID_PREFIX))
            {
                // The client's answer could be taken for the user's answer to the gateway.
                eprintln!(
                    "warrant mcp: the MCP server sent a {method} request with id {id}, which only the gateway's own requests use; not forwarded"
                );
                continue;
            }
            if let Message::Response {
                id, result, raw, ..
            } = &message
            {
                let key = IdKey::of(id);
                let mut state = lock(&self.state);
                if state.held.contains_key(&key) {
                    drop(state);
                    eprintln!(
                        "warrant mcp: the MCP server answered request {id}, which it was never sent; not forwarded"
                    );
                    continue;
                }
                let forwarded = state.forwarded.remove(&key);
                drop(state);
                if let Some(f) = forwarded {
                    if f.method == "tools/list"
                        && let Some(result) = result
                    {
                        self.listed(result, f.next_page);
                    }
                    if let Some(tool_call_id) = f.tool_call_id {
                        let content = recorded_result(&message);
                        let gateway = self.clone();
                        tokio::spawn(async move {
                            let session = &gateway.options.session_id;
                            gateway
                                .decider
                                .completed(session, &tool_call_id, &content)
                                .await;
                        });
                    }
                }
                self.send_client(raw.clone());
                continue;
            }
            self.send_client(message.raw().to_owned());
        }
    }

    /// A `tools/list` result: the tools' hints, and the catalog, by raw name.
    fn listed(self: &Arc<Self>, result: &Value, next_page: bool) {
        let tools = result
            .get("tools")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        let names = {
            let mut state = lock(&self.state);
            if !next_page {
                state.listed.clear();
                state.hints.clear();
            }
            for tool in &tools {
                let Some(name) = tool
                    .get("name")
                    .and_then(Value::as_str)
                    .filter(|n| !n.trim().is_empty())
                else {
                    continue;
                };
                state
                    .hints
                    .insert(name.to_owned(), ToolHints::of_tool(tool));
                if !state.listed.iter().any(|n| n == name) {
                    state.listed.push(name.to_owned());
                }
            }
            state.listed.clone()
        };
        let gateway = self.clone();
        tokio::spawn(async move {
            let _one_at_a_time = gateway.registering.lock().await;
            if let Err(e) = gateway
                .decider
                .register_tools(&gateway.options.server_id, names)
                .await
            {
                eprintln!("warrant mcp: the tool catalog was not updated: {e}");
            }
        });
    }
}

/// The text recorded for a call's response: its text content, or its error.
fn recorded_result(response: &Message) -> String {
    let Message::Response { result, error, .. } = response else {
        return String::new();
    };
    let text = match (result, error) {
        (Some(result), _) => {
            // A tool's `content`, a resource's `contents`.
            let parts: Vec<String> = result
                .get("content")
                .or_else(|| result.get("contents"))
                .and_then(Value::as_array)
                .map(|items| {
                    items
                        .iter()
                        .map(|item| match item.get("text").and_then(Value::as_str) {
                            Some(text) => text.to_owned(),
                            None => format!(
                                "[{}]",
                                item.get("type")
                                    .and_then(Value::as_str)
                                    .unwrap_or("content")
                            ),
                        })
                        .collect()
                })
                .unwrap_or_default();
            let mut text = parts.join("\n");
            if result.get("isError") == Some(&Value::Bool(true)) {
                text = format!("error: {text}");
            }
            text
        }
        (None, Some(error)) => format!(
            "error: {}",
            error.get("message").and_then(Value::as_str).unwrap_or("")
        ),
        (None, None) => String::new(),
    };
    if text.len() <= MAX_RECORDED_RESULT {
        return text;
    }
    let mut end = MAX_RECORDED_RESULT;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &text[..end])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn response(line: &str) -> Message {
        jsonrpc::parse_line(line).unwrap().remove(0)
    }

    #[test]
    fn a_result_is_recorded_as_its_text() {
        let ok = response(
            r#"{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"hi"},{"type":"image","data":"x"}]}}"#,
        );
        assert_eq!(recorded_result(&ok), "hi\n[image]");
        let failed = response(r#"{"jsonrpc":"2.0","id":1,"error":{"code":1,"message":"boom"}}"#);
        assert_eq!(recorded_result(&failed), "error: boom");
    }
}
