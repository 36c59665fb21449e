//! The messages of the process protocol, version [`PROTOCOL_VERSION`] (see `PROTOCOL.md`).

use serde::{Deserialize, Serialize};
use serde_json::Value;
use warrant_plugin_sdk::wire::{EvaluationRequest, Manifest, Reply};

/// The protocol version this host speaks.
pub const PROTOCOL_VERSION: u32 = 1;

/// What the host writes, one JSON object per line.
#[derive(Debug, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub(crate) enum HostMessage<'a> {
    /// The first line: the protocol version and the plugin's configuration table.
    Hello {
        protocol: u32,
        host: &'static str,
        #[serde(rename = "hostVersion")]
        host_version: &'static str,
        config: &'a Value,
    },
    /// One call to evaluate.
    Evaluate {
        id: u64,
        #[serde(flatten)]
        request: &'a EvaluationRequest,
    },
}

/// The plugin's answer to the host's hello.
#[derive(Debug, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum HelloReply {
    Hello {
        #[serde(flatten)]
        manifest: Manifest,
    },
    Error {
        message: String,
    },
}

/// The plugin's answer to one request.
#[derive(Debug, Deserialize)]
pub(crate) struct PluginReply {
    pub id: u64,
    #[serde(flatten)]
    pub reply: Reply,
}

/// Reads the plugin's hello: the protocol version first, then the manifest.
pub(crate) fn read_hello(line: &str) -> Result<Manifest, String> {
    let value: Value =
        serde_json::from_str(line).map_err(|e| format!("malformed hello ({e}): {}", clip(line)))?;
    match value.get("protocol").and_then(Value::as_u64) {
        Some(v) if v == u64::from(PROTOCOL_VERSION) => {}
        Some(v) => {
            return Err(format!(
                "speaks protocol version {v}, this host speaks {PROTOCOL_VERSION}"
            ));
        }
        None if value.get("type").and_then(Value::as_str) == Some("error") => {}
        None => return Err(format!("hello without a protocol version: {}", clip(line))),
    }
    match serde_json::from_value(value) {
        Ok(HelloReply::Hello { manifest }) => Ok(manifest),
        Ok(HelloReply::Error { message }) => Err(format!("refused to start: {message}")),
        Err(e) => Err(format!("malformed hello ({e}): {}", clip(line))),
    }
}

/// Reads the plugin's reply to request `id`.
pub(crate) fn read_reply(line: &str, id: u64) -> Result<Reply, String> {
    let reply: PluginReply =
        serde_json::from_str(line).map_err(|e| format!("malformed reply ({e}): {}", clip(line)))?;
    if reply.id != id {
        return Err(format!(
            "replied to request {} while {id} was asked",
            reply.id
        ));
    }
    Ok(reply.reply)
}

/// At most 200 characters of a line, for error messages.
fn clip(line: &str) -> String {
    let line = line.trim_end();
    match line.char_indices().nth(200) {
        Some((i, _)) => format!("{}…", &line[..i]),
        None => line.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hello_of_another_protocol_version_is_refused_before_anything_else_is_read() {
        let err = read_hello(r#"{"type":"hello","protocol":2}"#).unwrap_err();
        assert_eq!(err, "speaks protocol version 2, this host speaks 1");
    }

    #[test]
    fn a_hello_names_the_plugin() {
        let manifest =
            read_hello(r#"{"type":"hello","protocol":1,"name":"guard","version":"2.0.0"}"#)
                .unwrap();
        assert_eq!(
            (manifest.name.as_str(), manifest.version.as_str()),
            ("guard", "2.0.0")
        );
    }

    #[test]
    fn a_reply_to_another_request_is_malformed() {
        let err = read_reply(r#"{"type":"abstain","id":3}"#, 4).unwrap_err();
        assert!(err.contains("request 3 while 4"), "{err}");
    }

    #[test]
    fn garbage_is_malformed_and_quoted() {
        let err = read_reply("hello there", 1).unwrap_err();
        assert!(
            err.starts_with("malformed reply") && err.contains("hello there"),
            "{err}"
        );
    }
}
