//! The peers: the same rules written as Cedar policies and as a Rego module, deciding the
//! same calls. A rule that asks or denies is a `forbid` in Cedar (which overrides `permit`)
//! and tells which through an annotation; in Rego, `deny` wins over `ask` over `allow`.

mod cedar;
mod rego;

pub use cedar::CedarRules;
pub use rego::RegoRules;

use warrant_core::call::ToolCall;

/// What a peer sees of a call: the tool id, the shell command and the path (empty when the
/// call has none). The peers have no shell parser and no catalog: they read strings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fields<'a> {
    /// The tool id.
    pub tool: &'a str,
    /// The `command` input, for the shell tool.
    pub command: &'a str,
    /// The `path` input, for file tools.
    pub path: &'a str,
}

impl<'a> Fields<'a> {
    /// The fields of a call.
    pub fn of(call: &'a ToolCall) -> Self {
        let field = |name: &str| {
            call.input
                .get(name)
                .and_then(serde_json::Value::as_str)
                .unwrap_or_default()
        };
        Self {
            tool: &call.tool_name,
            command: field("command"),
            path: field("path"),
        }
    }
}

/// Rule text that both Cedar and Rego read back unchanged inside a string literal, and that
/// holds no wildcard: plain ASCII without quotes, backslashes or `*`.
///
/// # Panics
///
/// On other text, which would need escaping (the generator never produces it).
fn plain(text: &str) -> &str {
    assert!(
        text.chars().all(|c| c.is_ascii_graphic() || c == ' ') && !text.contains(['"', '\\', '*']),
        "rule text {text:?} needs escaping, which the generator never produces"
    );
    text
}
