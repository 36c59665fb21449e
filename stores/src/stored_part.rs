//! Restoring a tool part from its stored JSON, and when that JSON cannot be read, from its
//! columns, its readable fields and the per-message decision map: what every store that
//! keeps parts as JSON shares.

use serde::de::DeserializeOwned;
use serde_json::Value;
use warrant_core::part::ToolPart;

/// A tool part as a store keeps it, borrowed from the row it was read from.
pub(crate) struct StoredPart<'a> {
    pub tool_call_id: &'a str,
    pub tool_name: &'a str,
    pub json: &'a str,
    pub decision: Option<&'a str>,
    pub resolution: Option<&'a str>,
}

impl StoredPart<'_> {
    /// The part: its JSON when it reads, otherwise rebuilt from what can be read; a missing
    /// decision or resolution is taken from the decision map.
    pub(crate) fn restore(self) -> ToolPart {
        let mut part = match serde_json::from_str::<ToolPart>(self.json) {
            Ok(part) => part,
            Err(e) => {
                tracing::warn!(tool_call_id = %self.tool_call_id, error = %e,
                    "a tool part cannot be restored; rebuilt from its readable fields and the decision map");
                self.salvage()
            }
        };
        if part.permission_decision.is_none() {
            part.permission_decision = self.decision.and_then(parse_lenient);
        }
        if part.permission_resolution.is_none() {
            part.permission_resolution = self.resolution.and_then(parse_lenient);
        }
        part
    }

    fn salvage(&self) -> ToolPart {
        let value = serde_json::from_str::<Value>(self.json).unwrap_or(Value::Null);
        let name = match field::<String>(&value, "toolName") {
            Some(name) if self.tool_name.is_empty() => name,
            _ => self.tool_name.to_owned(),
        };
        let mut part = ToolPart::new(self.tool_call_id, name);
        part.state = field(&value, "state").unwrap_or_default();
        part.input = field(&value, "input");
        part.output = field(&value, "output");
        part.permission = field(&value, "permission");
        part.permission_decision = field(&value, "permissionDecision");
        part.permission_resolution = field(&value, "permissionResolution");
        part
    }
}

fn field<T: DeserializeOwned>(value: &Value, name: &str) -> Option<T> {
    value
        .get(name)
        .and_then(|v| serde_json::from_value(v.clone()).ok())
}

fn parse_lenient<T: DeserializeOwned>(json: &str) -> Option<T> {
    serde_json::from_str(json).ok()
}
