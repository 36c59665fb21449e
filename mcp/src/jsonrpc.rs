//! The JSON-RPC 2.0 framing MCP uses over stdio: one message (or batch) per line, classified
//! without being changed, so that everything but a decided `tools/call` passes through as sent.

use std::fmt;

use serde_json::{Map, Value, json};

/// One JSON-RPC message, with the text it arrived as.
#[derive(Debug, Clone, PartialEq)]
pub enum Message {
    /// A request: it has a method and an id, and expects a response with the same id.
    Request {
        /// The id, exactly as sent (a string or a number).
        id: Value,
        /// The method.
        method: String,
        /// The params, when given.
        params: Option<Value>,
        /// The text to forward.
        raw: String,
    },
    /// A notification: a method without an id; nothing answers it.
    Notification {
        /// The method.
        method: String,
        /// The params, when given.
        params: Option<Value>,
        /// The text to forward.
        raw: String,
    },
    /// A response to a request: a result or an error, with the request's id.
    Response {
        /// The id of the request it answers (`null` for an unparseable request).
        id: Value,
        /// The result, for a success.
        result: Option<Value>,
        /// The error, for a failure.
        error: Option<Value>,
        /// The text to forward.
        raw: String,
    },
}

impl Message {
    /// The text to forward, as it arrived (for a message of a batch, the message alone).
    pub fn raw(&self) -> &str {
        match self {
            Self::Request { raw, .. }
            | Self::Notification { raw, .. }
            | Self::Response { raw, .. } => raw,
        }
    }

    /// The method of a request or notification.
    pub fn method(&self) -> Option<&str> {
        match self {
            Self::Request { method, .. } | Self::Notification { method, .. } => Some(method),
            Self::Response { .. } => None,
        }
    }
}

/// Why a line is not a JSON-RPC message. Such a line is reported, never forwarded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LineError {
    /// The line is not JSON at all (JSON-RPC's parse error, -32700).
    NotJson(String),
    /// The line holds a bare carriage return (`\r`) before its end (JSON-RPC's parse error,
    /// -32700). JSON reads it as whitespace, but stdio readers with universal newlines (the
    /// Python SDK's) end a line there: one line here could be several messages to the child.
    BareCarriageReturn,
    /// The line is JSON but not a valid JSON-RPC 2.0 message (invalid request, -32600).
    NotMessage {
        /// What is wrong with it.
        reason: String,
        /// The id, when the line had a usable one (so the sender can be answered).
        id: Option<Value>,
    },
}

impl LineError {
    /// The JSON-RPC error code for this problem.
    pub fn code(&self) -> i64 {
        match self {
            Self::NotJson(_) | Self::BareCarriageReturn => PARSE_ERROR,
            Self::NotMessage { .. } => INVALID_REQUEST,
        }
    }
}

impl fmt::Display for LineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NotJson(e) => write!(f, "not JSON ({e})"),
            Self::BareCarriageReturn => f.write_str(
                "a bare carriage return (\\r) inside the line, which stdio readers may take for a line end; \
                 write none (inside a string it is \"\\r\")",
            ),
            Self::NotMessage { reason, .. } => write!(f, "not a JSON-RPC 2.0 message: {reason}"),
        }
    }
}

/// JSON-RPC's parse error code.
pub const PARSE_ERROR: i64 = -32700;
/// JSON-RPC's invalid request code.
pub const INVALID_REQUEST: i64 = -32600;
/// JSON-RPC's internal error code.
pub const INTERNAL_ERROR: i64 = -32603;
/// The code this gateway answers pending requests with when the server is gone.
pub const SERVER_GONE: i64 = -32000;

/// Reads one line: a message, or the messages of a batch, each with its own text.
///
/// # Errors
///
/// [`LineError`] when the line is not JSON, or is JSON but not a JSON-RPC 2.0 message (a
/// repeated top-level key included: two `method`s could be read differently by the server
/// than here). An empty batch and a batch holding an invalid message are errors as a whole.
/// A bare `\r` anywhere but in the line's ending (`\n` or `\r\n`) is refused: valid JSON never
/// needs one (a string holds it escaped), and a reader that splits lines on it would see other
/// messages than the one classified here.
pub fn parse_line(line: &str) -> Result<Vec<Message>, LineError> {
    let text = line.strip_suffix('\n').unwrap_or(line);
    let text = text.strip_suffix('\r').unwrap_or(text);
    if text.contains('\r') {
        return Err(LineError::BareCarriageReturn);
    }
    let value: Value = serde_json::from_str(text).map_err(|e| LineError::NotJson(e.to_string()))?;
    match value {
        Value::Array(items) => {
            if items.is_empty() {
                return Err(not_message("an empty batch", None));
            }
            items
                .into_iter()
                .map(|item| {
                    let raw = item.to_string();
                    check_unique_keys(&raw)?;
                    classify(item, raw)
                })
                .collect()
        }
        value => {
            check_unique_keys(text)?;
            Ok(vec![classify(value, text.to_owned())?])
        }
    }
}

fn not_message(reason: impl Into<String>, id: Option<Value>) -> LineError {
    LineError::NotMessage {
        reason: reason.into(),
        id,
    }
}

fn classify(value: Value, raw: String) -> Result<Message, LineError> {
    let Value::Object(mut map) = value else {
        return Err(not_message("a message must be a JSON object", None));
    };
    let id = map.remove("id");
    let usable_id = id.clone().filter(valid_id);
    if map.get("jsonrpc") != Some(&Value::String("2.0".to_owned())) {
        return Err(not_message("\"jsonrpc\" must be \"2.0\"", usable_id));
    }
    if let Some(id) = &id
        && !valid_id(id)
        && !(id.is_null() && map.contains_key("error"))
    {
        return Err(not_message(
            format!("the id must be a string or a number, got {id}"),
            None,
        ));
    }
    match map.remove("method") {
        Some(Value::String(method)) => {
            let params = map.remove("params");
            if params
                .as_ref()
                .is_some_and(|p| !p.is_object() && !p.is_array())
            {
                return Err(not_message(
                    "\"params\" must be an object or an array",
                    usable_id,
                ));
            }
            Ok(match id {
                Some(id) => Message::Request {
                    id,
                    method,
                    params,
                    raw,
                },
                None => Message::Notification {
                    method,
                    params,
                    raw,
                },
            })
        }
        Some(_) => Err(not_message("\"method\" must be a string", usable_id)),
        None => {
            let result = map.remove("result");
            let error = map.remove("error");
            let Some(id) = id else {
                return Err(not_message("neither a method nor an id", None));
            };
            match (&result, &error) {
                (Some(_), None) | (None, Some(_)) => Ok(Message::Response {
                    id,
                    result,
                    error,
                    raw,
                }),
                _ => Err(not_message(
                    "a response has exactly one of \"result\" and \"error\"",
                    usable_id,
                )),
            }
        }
    }
}

fn valid_id(id: &Value) -> bool {
    id.is_string() || id.is_number()
}

/// Refuses a message with a repeated key at any depth: parsers disagree on which one wins,
/// and the server may read the arguments another way than the gateway judged them.
fn check_unique_keys(text: &str) -> Result<(), LineError> {
    match warrant_core::json::repeated_key(text) {
        Some(path) => Err(not_message(format!("the key `{path}` is repeated"), None)),
        None => Ok(()),
    }
}

/// A map key for an id: ids compare by their JSON text (`1` and `"1"` differ).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct IdKey(String);

impl IdKey {
    /// The key of an id.
    pub fn of(id: &Value) -> Self {
        Self(id.to_string())
    }
}

/// A success response line.
pub fn response(id: &Value, result: Value) -> String {
    json!({"jsonrpc": "2.0", "id": id, "result": result}).to_string()
}

/// An error response line.
pub fn error_response(id: &Value, code: i64, message: &str) -> String {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}}).to_string()
}

/// A request line.
pub fn request(id: &Value, method: &str, params: Value) -> String {
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}).to_string()
}

/// Rebuilds a request's text from its parts: the exact form that was decided is the form
/// forwarded.
pub fn rebuild_request(id: &Value, method: &str, params: Option<&Value>) -> String {
    let mut map = Map::new();
    map.insert("jsonrpc".to_owned(), json!("2.0"));
    map.insert("id".to_owned(), id.clone());
    map.insert("method".to_owned(), json!(method));
    if let Some(params) = params {
        map.insert("params".to_owned(), params.clone());
    }
    Value::Object(map).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(line: &str) -> Message {
        let mut messages = parse_line(line).expect("a message");
        assert_eq!(messages.len(), 1);
        messages.remove(0)
    }

    #[test]
    fn a_request_keeps_its_id_and_text() {
        let line = r#"{"jsonrpc":"2.0","id":"abc-1","method":"tools/list","params":{}}"#;
        let Message::Request {
            id, method, raw, ..
        } = one(line)
        else {
            panic!("not a request")
        };
        assert_eq!(id, json!("abc-1"));
        assert_eq!(method, "tools/list");
        assert_eq!(raw, line);
    }

    #[test]
    fn numeric_ids_pass_through_unchanged() {
        let line = r#"{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}"#;
        let message = one(line);
        assert_eq!(message.raw(), line);
        let Message::Request { id, .. } = message else {
            panic!()
        };
        assert_eq!(IdKey::of(&id), IdKey::of(&json!(9_007_199_254_740_993_u64)));
        assert_ne!(IdKey::of(&json!(1)), IdKey::of(&json!("1")));
    }

    #[test]
    fn unknown_methods_and_fields_are_kept() {
        let line = r#"{"jsonrpc":"2.0","method":"vendor/thing","params":{"x":[1,2]},"extra":true}"#;
        let message = one(line);
        assert_eq!(message.method(), Some("vendor/thing"));
        assert!(matches!(message, Message::Notification { .. }));
        assert_eq!(message.raw(), line);
    }

    #[test]
    fn responses_are_told_apart_from_requests() {
        let ok = one(r#"{"jsonrpc":"2.0","id":3,"result":{"tools":[]}}"#);
        assert!(matches!(
            ok,
            Message::Response {
                result: Some(_),
                error: None,
                ..
            }
        ));
        let err = one(r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"x"}}"#);
        assert!(matches!(err, Message::Response { error: Some(_), .. }));
    }

    #[test]
    fn a_line_that_is_not_json_is_a_parse_error() {
        let e = parse_line("{not json").unwrap_err();
        assert_eq!(e.code(), PARSE_ERROR);
        assert!(e.to_string().starts_with("not JSON"));
    }

    #[test]
    fn malformed_messages_are_invalid_requests() {
        for line in [
            r#"[]"#,
            r#"42"#,
            r#"{"id":1,"method":"ping"}"#,
            r#"{"jsonrpc":"1.0","id":1,"method":"ping"}"#,
            r#"{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":7}"#,
            r#"{"jsonrpc":"2.0","id":1}"#,
            r#"{"jsonrpc":"2.0","id":1,"result":1,"error":{}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":"x"}"#,
        ] {
            let e = parse_line(line).unwrap_err();
            assert_eq!(e.code(), INVALID_REQUEST, "{line}");
        }
    }

    #[test]
    fn an_invalid_request_keeps_its_id_for_the_answer() {
        let e = parse_line(r#"{"jsonrpc":"2.0","id":5,"method":7}"#).unwrap_err();
        assert_eq!(
            e,
            LineError::NotMessage {
                reason: "\"method\" must be a string".to_owned(),
                id: Some(json!(5))
            }
        );
    }

    #[test]
    fn a_repeated_key_is_refused() {
        let line = r#"{"jsonrpc":"2.0","id":1,"method":"ping","method":"tools/call"}"#;
        let e = parse_line(line).unwrap_err();
        assert!(e.to_string().contains("`/method` is repeated"), "{e}");
        // Inside a call's arguments too: the server may keep the other one.
        let line = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"read","arguments":{"path":"a.txt","path":"/etc/shadow"}}}"#;
        let e = parse_line(line).unwrap_err();
        assert!(
            e.to_string()
                .contains("`/params/arguments/path` is repeated"),
            "{e}"
        );
    }

    #[test]
    fn a_batch_splits_into_its_messages() {
        let line = r#"[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/initialized"}]"#;
        let messages = parse_line(line).unwrap();
        assert_eq!(messages.len(), 2);
        assert!(matches!(messages[0], Message::Request { .. }));
        assert!(matches!(messages[1], Message::Notification { .. }));
        // One bad member spoils the batch: nothing of it is forwarded.
        assert!(parse_line(r#"[{"jsonrpc":"2.0","id":1,"method":"ping"},{}]"#).is_err());
    }

    #[test]
    fn a_rebuilt_request_is_the_decided_one() {
        let params = json!({"name": "echo", "arguments": {"text": "hi"}});
        let line = rebuild_request(&json!(7), "tools/call", Some(&params));
        let Message::Request {
            id,
            method,
            params: p,
            ..
        } = one(&line)
        else {
            panic!()
        };
        assert_eq!(
            (id, method.as_str(), p),
            (json!(7), "tools/call", Some(params))
        );
    }

    #[test]
    fn crlf_line_endings_are_accepted() {
        let message = one("{\"jsonrpc\":\"2.0\",\"method\":\"x\"}\r\n");
        assert_eq!(message.raw(), "{\"jsonrpc\":\"2.0\",\"method\":\"x\"}");
    }

    #[test]
    fn a_bare_carriage_return_inside_a_line_is_refused() {
        // JSON whitespace to serde_json, a line end to a universal-newline reader: the child
        // would read a ping, then an undecided tools/call.
        let smuggled = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"x\":\r\
            {\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"wipe\"}}\r}}";
        assert!(
            serde_json::from_str::<Value>(smuggled).is_ok(),
            "valid JSON"
        );
        for line in [
            smuggled.to_owned(),
            format!("{smuggled}\n"),
            format!("{smuggled}\r\n"),
            "\r{\"jsonrpc\":\"2.0\",\"method\":\"x\"}".to_owned(),
            "{\"jsonrpc\":\"2.0\",\"method\":\"x\"}\r\r\n".to_owned(),
            "[{\"jsonrpc\":\"2.0\",\"method\":\"x\"},\r{\"jsonrpc\":\"2.0\",\"method\":\"y\"}]"
                .to_owned(),
        ] {
            let e = parse_line(&line).unwrap_err();
            assert_eq!(e, LineError::BareCarriageReturn, "{line:?}");
            assert_eq!(e.code(), PARSE_ERROR);
            assert!(e.to_string().contains("carriage return (\\r)"), "{e}");
        }
        // Escaped inside a string, it is a character like any other.
        let escaped = r#"{"jsonrpc":"2.0","method":"x","params":{"t":"a\rb"}}"#;
        assert_eq!(one(escaped).raw(), escaped);
        assert_eq!(
            one("{\"jsonrpc\":\"2.0\",\"method\":\"x\"}\r").raw(),
            "{\"jsonrpc\":\"2.0\",\"method\":\"x\"}"
        );
    }
}
