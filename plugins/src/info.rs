//! What `warrant plugins` shows about one plugin: kind, name, version and origin.

use serde::Serialize;

use crate::library::LibraryEvaluator;
use crate::process::ProcessEvaluator;
use crate::registry::{BuiltinPlugin, PluginKind};

/// Where a plugin comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Origin {
    /// Linked into the binary and registered by name.
    BuiltIn,
    /// An executable speaking the process protocol.
    Process,
    /// A dynamic library loaded through the C ABI.
    Library,
}

impl Origin {
    /// The name used in listings.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::BuiltIn => "built-in",
            Self::Process => "process",
            Self::Library => "library",
        }
    }
}

/// One registered or loaded plugin.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PluginInfo {
    /// What it is.
    pub kind: PluginKind,
    /// Its configured name.
    pub name: String,
    /// Its version, when it could be asked.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    /// Where it comes from.
    pub origin: Origin,
    /// One line on what it does.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub description: String,
    /// The command line or the library path.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub location: Option<String>,
    /// Why it cannot run, when it cannot (its calls then ask).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// Where the configuration uses it (`chain 1`, `store`, `warrant serve`); absent when
    /// it is only available.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub selected: Option<String>,
}

impl PluginInfo {
    /// A built-in plugin.
    pub fn builtin(plugin: &BuiltinPlugin) -> Self {
        Self {
            kind: plugin.kind(),
            name: plugin.name.to_owned(),
            version: Some(plugin.version.to_owned()),
            origin: Origin::BuiltIn,
            description: plugin.description.to_owned(),
            location: None,
            error: None,
            selected: None,
        }
    }

    /// A process plugin, with what its hello said (or why there was none).
    pub async fn process(evaluator: &ProcessEvaluator) -> Self {
        let config = evaluator.config();
        let location = std::iter::once(config.command.display().to_string())
            .chain(config.args.iter().cloned())
            .collect::<Vec<_>>()
            .join(" ");
        let hello = evaluator.handshake().await;
        let (version, description, error) = match hello {
            Ok(m) => (Some(m.version), m.description, None),
            Err(e) => (None, String::new(), Some(e.message)),
        };
        Self {
            kind: PluginKind::Evaluator,
            name: config.name.clone(),
            version,
            origin: Origin::Process,
            description,
            location: Some(location),
            error,
            selected: None,
        }
    }

    /// A library plugin, with what it declared (or why it was refused).
    pub fn library(evaluator: &LibraryEvaluator) -> Self {
        let manifest = evaluator.manifest();
        Self {
            kind: PluginKind::Evaluator,
            name: evaluator.config().name.clone(),
            version: manifest.map(|m| m.version.clone()),
            origin: Origin::Library,
            description: manifest.map(|m| m.description.clone()).unwrap_or_default(),
            location: Some(evaluator.config().path.display().to_string()),
            error: evaluator.refusal().map(str::to_owned),
            selected: None,
        }
    }
}

/// The plugins as a table: kind, name, version, origin, where the configuration uses it, and
/// where or why.
pub fn render_table(plugins: &[PluginInfo]) -> String {
    let rows: Vec<[String; 6]> = plugins
        .iter()
        .map(|p| {
            let note = match (&p.error, &p.location) {
                (Some(e), _) => format!("error: {e}"),
                (None, Some(l)) => l.clone(),
                (None, None) => p.description.clone(),
            };
            [
                p.kind.to_string(),
                p.name.clone(),
                p.version.clone().unwrap_or_else(|| "-".to_owned()),
                p.origin.as_str().to_owned(),
                p.selected.clone().unwrap_or_else(|| "-".to_owned()),
                note,
            ]
        })
        .collect();
    let header = ["KIND", "NAME", "VERSION", "ORIGIN", "SELECTED", "DETAIL"].map(str::to_owned);
    let mut widths = header.clone().map(|h| h.len());
    for row in &rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    std::iter::once(&header)
        .chain(&rows)
        .map(|row| {
            let cells: Vec<String> = row
                .iter()
                .zip(widths)
                .map(|(cell, w)| format!("{cell:<w$}"))
                .collect();
            cells.join("  ").trim_end().to_owned() + "\n"
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_aligns_columns_and_shows_why_a_plugin_cannot_run() {
        let plugins = [
            PluginInfo {
                kind: PluginKind::Evaluator,
                name: "office_hours".to_owned(),
                version: None,
                origin: Origin::Library,
                description: String::new(),
                location: Some("/x.so".to_owned()),
                error: Some("refused".to_owned()),
                selected: Some("chain 5".to_owned()),
            },
            PluginInfo {
                kind: PluginKind::Store,
                name: "sqlite".to_owned(),
                version: Some("0.1.0".to_owned()),
                origin: Origin::BuiltIn,
                description: "SQLite.".to_owned(),
                location: None,
                error: None,
                selected: None,
            },
        ];
        let table = render_table(&plugins);
        assert_eq!(
            table,
            "KIND       NAME          VERSION  ORIGIN    SELECTED  DETAIL\n\
             evaluator  office_hours  -        library   chain 5   error: refused\n\
             store      sqlite        0.1.0    built-in  -         SQLite.\n"
        );
    }
}
