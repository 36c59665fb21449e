//! The tool ids rules may name: the catalog's ids, the shell's spellings, and for MCP tools
//! `mcp__{server}__{tool}` and `mcp__{server}__*`; and the nearest one to a misspelt id.

use std::collections::HashSet;

use warrant_core::catalog::{ToolCatalog, ToolKind};

/// The tool ids and MCP servers rules may name.
pub(crate) struct KnownTools {
    /// Every id a rule may name.
    pub ids: HashSet<String>,
    /// The MCP servers that offer tools.
    pub servers: HashSet<String>,
    /// The ids in order, for suggestions and glob checks.
    pub sorted: Vec<String>,
}

/// The MCP servers offering `tool` by the catalog.
pub(crate) fn mcp_servers<'c>(catalog: &'c ToolCatalog, tool: &str) -> Vec<&'c str> {
    catalog
        .get(tool)
        .filter(|t| matches!(t.kind, ToolKind::Mcp | ToolKind::Mixed))
        .map(|t| t.provider_ids.iter().map(String::as_str).collect())
        .unwrap_or_default()
}

impl KnownTools {
    pub(crate) fn new(catalog: &ToolCatalog) -> Self {
        let mut ids: HashSet<String> = ["Bash", "bash", "shell", "Shell"].map(str::to_owned).into();
        let mut servers = HashSet::new();
        for t in &catalog.tools {
            ids.insert(t.id.clone());
            for server in mcp_servers(catalog, &t.id) {
                servers.insert(server.to_owned());
                ids.insert(format!("mcp__{server}__{}", t.id));
            }
        }
        let mut sorted: Vec<String> = ids.iter().cloned().collect();
        sorted.sort();
        Self {
            ids,
            servers,
            sorted,
        }
    }

    pub(crate) fn nearest(&self, id: &str) -> Option<String> {
        let candidates = self
            .sorted
            .iter()
            .cloned()
            .chain(self.servers.iter().map(|s| format!("mcp__{s}__*")));
        candidates
            .map(|c| (edit_distance(id, &c), c))
            .filter(|(d, c)| *d <= (c.chars().count() / 3).max(2))
            .min()
            .map(|(_, c)| c)
    }
}

/// Levenshtein distance, by characters.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != *cb)).min(row[j] + 1).min(cur + 1);
            prev = cur;
        }
    }
    row[b.len()]
}
