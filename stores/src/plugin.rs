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
        constructor: Constructor::Store(|cx| match cx.table("memory") {
            serde_json::Value::Null => Ok(Arc::new(MemoryStore::new()) as Arc<dyn Store>),
            serde_json::Value::Object(t) if t.is_empty() => {
                Ok(Arc::new(MemoryStore::new()) as Arc<dyn Store>)
            }
            serde_json::Value::Object(t) => Err(format!(
                "[store] (memory): the memory store has no settings, but {} is set",
                t.keys().map(|k| format!("`{k}`")).collect::<Vec<_>>().join(", ")
            )),
            other => Err(format!("[store] must be a table, not {other}")),
        }),
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
                    .map_err(|e| format!("[store] (sqlite): {e}"))?,
            };
            let path = config.path.clone();
            config
                .open()
                .map(|s| Arc::new(s) as Arc<dyn Store>)
                .map_err(|e| format!("the database {}: {e}", path.display()))
        }),
    }
}

#[cfg(feature = "postgres")]
inventory::submit! {
    BuiltinPlugin {
        name: "postgres",
        version: env!("CARGO_PKG_VERSION"),
        description: "PostgreSQL, shared by several Warrant instances: one gap-free audit chain (head row locked per append), events numbered per session and announced with NOTIFY.",
        constructor: Constructor::Store(|cx| {
            // The key and the head checkpoint default to the data directory, like SQLite's.
            crate::postgres::PostgresStore::from_table(cx.table("postgres"), &cx.data_dir)
                .map(|s| Arc::new(s) as Arc<dyn Store>)
        }),
    }
}
