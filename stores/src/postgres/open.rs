//! The store a `[store]` table with `kind = "postgres"` describes.

use std::path::Path;

use super::{PostgresConfig, PostgresStore};

impl PostgresStore {
    /// The store a `[store]` table describes (its keys as [`PostgresConfig`] reads them),
    /// with the audit key and the head checkpoint in files of `data_dir` unless the table
    /// names others (the directory is made when missing). Not connected yet: the first
    /// operation connects, as with [`connect_lazy`](Self::connect_lazy).
    ///
    /// # Errors
    ///
    /// A message naming the bad key or value, or the data directory that cannot be made.
    pub fn from_table(table: &serde_json::Value, data_dir: &Path) -> Result<Self, String> {
        let mut table = match table {
            serde_json::Value::Null => serde_json::Map::new(),
            serde_json::Value::Object(table) => table.clone(),
            other => return Err(format!("[store] must be a table, not {other}")),
        };
        let mut defaulted = false;
        for (key, name) in [
            ("audit_key_file", "postgres.audit-key"),
            ("checkpoint_file", "postgres.audit-head"),
        ] {
            if !table.contains_key(key) {
                defaulted = true;
                let file = data_dir.join(name);
                let value = serde_json::to_value(&file)
                    .map_err(|_| format!("the path {} is not valid UTF-8", file.display()))?;
                table.insert(key.to_owned(), value);
            }
        }
        if defaulted {
            crate::files::create_private_dir(data_dir).map_err(|e| {
                format!(
                    "cannot create the data directory {}: {e}",
                    data_dir.display()
                )
            })?;
        }
        let config: PostgresConfig = serde_json::from_value(serde_json::Value::Object(table))
            .map_err(|e| format!("[store] (postgres): {e}"))?;
        Self::connect_lazy(config).map_err(|e| e.to_string())
    }
}
