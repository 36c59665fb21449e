//! The MCP gateway: `warrant mcp -- CMD ARGS…` is a stdio MCP server that starts the real
//! server as its child, passes every message through, and decides every `tools/call` with
//! Warrant before forwarding it.
//!
//! ```text
//! MCP client ──stdin──▶ warrant mcp ──stdin──▶ MCP server (child)
//!            ◀─stdout── (decides tools/call) ◀─stdout──
//! ```
//!
//! - allow: the call is forwarded and its result recorded on the session's tool part;
//! - deny: the client gets a `tools/call` result with `isError: true` whose text is the reason;
//! - ask: the call is held until the user resolves it (the `warrant serve` dock or HTTP API,
//!   or, with [`GatewayOptions::elicitation`], MCP elicitation when the client declares it), or
//!   until the timeout, which denies.
//!
//! Every message other than a `tools/call` request passes through as it arrived, ids
//! included; `tools/list` results feed the tool catalog and the tools' annotations become
//! [untrusted hints](hints::ToolHints).

pub mod decide;
pub mod hints;
pub mod jsonrpc;
mod proxy;
pub mod snippet;

use std::time::Duration;

use warrant_core::call::PermissionMode;

pub use decide::{Decider, RemoteServer};
pub use proxy::run;

/// How the gateway runs.
#[derive(Debug, Clone)]
pub struct GatewayOptions {
    /// The MCP server's id in the tool catalog (`--name`, default the command's file name).
    pub server_id: String,
    /// The session the calls belong to.
    pub session_id: warrant_core::ids::SessionId,
    /// The permission mode calls are decided in.
    pub mode: PermissionMode,
    /// How long a call may wait for the user before it is denied.
    pub ask_timeout: Duration,
    /// Whether a call that asks may be answered through the client with MCP elicitation
    /// (`--elicitation`, off by default). The client's own UI then speaks for the user: an
    /// agent that is its own MCP client could approve its own calls, so only a client trusted
    /// to put the question to the person should get it.
    pub elicitation: bool,
    /// The server's command and its arguments.
    pub command: Vec<String>,
}

/// The server id a command gets when no `--name` is given: the command's file name without
/// its extension (`/usr/bin/npx` → `npx`, `server.py` → `server`).
pub fn default_server_id(command: &str) -> String {
    let file = std::path::Path::new(command)
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or(command);
    if file.trim().is_empty() {
        "mcp".to_owned()
    } else {
        file.to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_server_id_is_the_command_file_name() {
        assert_eq!(default_server_id("/usr/local/bin/npx"), "npx");
        assert_eq!(default_server_id("server.py"), "server");
        assert_eq!(default_server_id("uvx"), "uvx");
    }
}
