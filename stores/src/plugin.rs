//! The built-in stores, registered by name in the plugin registry.

use std::sync::Arc;

use warrant_core::store::{MemoryStore, Store};
use warrant_plugins::{BuiltinPlugin, Constructor, inventory};

use crate::SqliteConfig;

inventory::submit! {
    BuiltinPlugin {
        name: "memory",
        version: env!("CARGO_PKG_VERSION"),
        description: "Everything in memory; nothing survives the process.",
        constructor: Constructor::Store(|_| Ok(Arc::new(MemoryStore::new()) as Arc<dyn Store>)),
    }
}

inventory::submit! {
    BuiltinPlugin {
        name: "sqlite",
        version: env!("CARGO_PKG_VERSION"),
        description: "The embedded default: one SQLite file (WAL) under the data directory, audit log chained with an HMAC keyed outside the database, sessions as rows.",
        constructor: Constructor::Store(|cx| {
            let config = match cx.table("sqlite") {
                serde_json::Value::Null => SqliteConfig::in_dir(&cx.data_dir),
                table => serde_json::from_value(table.clone())
                    .map_err(|e| format!("[sqlite]: {e}"))?,
            };
            config.open().map(|s| Arc::new(s) as Arc<dyn Store>).map_err(|e| e.to_string())
        }),
    }
}
