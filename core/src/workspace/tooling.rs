//! The tooling a workspace configures: MCP servers and LSP profiles, the sources of the
//! non-runtime tool ids.

use serde::{Deserialize, Serialize};

/// A configured MCP server and the tools it offers.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct McpServer {
    /// The server's id.
    pub id: String,
    /// Its display name.
    #[serde(default)]
    pub name: String,
    /// The raw names of the tools it offers (the runtime ids).
    #[serde(default)]
    pub tools: Vec<String>,
}

/// A configured language-server profile.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LspProfile {
    /// The profile's id (`ts`), part of its tool ids (`lsp_ts_hover`).
    pub id: String,
    /// Its display name.
    #[serde(default)]
    pub name: String,
}

/// The tooling a workspace configures.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Tooling {
    /// MCP servers.
    #[serde(default)]
    pub mcp_servers: Vec<McpServer>,
    /// LSP profiles.
    #[serde(default)]
    pub lsp_profiles: Vec<LspProfile>,
}

/// Workspace settings.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WorkspaceSettings {
    /// The configured tooling.
    #[serde(default)]
    pub tooling: Tooling,
}
