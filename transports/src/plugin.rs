//! The built-in transports, registered by name in the plugin registry.

use std::sync::Arc;

use warrant_core::transport::Transport;
use warrant_plugins::{BuiltinPlugin, Constructor, inventory};

use crate::sse::SseHub;
use crate::stdio::LineTransport;

inventory::submit! {
    BuiltinPlugin {
        name: "sse",
        version: env!("CARGO_PKG_VERSION"),
        description: "AG-UI events over HTTP server-sent events, resumable with Last-Event-ID.",
        constructor: Constructor::Transport(|cx| {
            let store = cx.store.clone().ok_or("the sse transport needs the host's store")?;
            Ok(Arc::new(SseHub::new(store)) as Arc<dyn Transport>)
        }),
    }
}

inventory::submit! {
    BuiltinPlugin {
        name: "stdio",
        version: env!("CARGO_PKG_VERSION"),
        description: "AG-UI events as JSON lines on standard output.",
        constructor: Constructor::Transport(|_| {
            Ok(Arc::new(LineTransport::new(tokio::io::stdout())) as Arc<dyn Transport>)
        }),
    }
}
