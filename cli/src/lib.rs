//! Warrant as a library: the engine `warrant serve` runs, from configuration, in one call.
//!
//! [`Setup`] reads the same configuration as the `warrant` command (`warrant.toml`,
//! `WARRANT_*` variables, defaults that work) and builds the production engine: the chain
//! named by `[plugins]` (by default `policy`, `rule`, `auto_classifier`, `full_access`), the
//! canonical grant scoper, the workspace root, the SQLite store in the data directory, and
//! Warrant's own files protected from every call. Add an evaluator of your own with
//! [`Setup::evaluator`]; it is made from the same context as the configured ones.
//!
//! # Quick start
//!
//! ```
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> Result<(), Box<dyn std::error::Error>> {
//! use warrant::{Config, Setup};
//! use warrant_core::prelude::*;
//!
//! # let workspace = tempfile::tempdir()?;
//! # let data = tempfile::tempdir()?;
//! let config = Config {
//!     workspace: Some(workspace.path().to_path_buf()),
//!     data_dir: data.path().to_path_buf(),
//!     ..Config::default()
//! };
//! let engine = Setup::new(config).build().await?;
//!
//! // Reading the repository's state is proven harmless: allowed without asking.
//! let call = ToolCall::new("s1", "c1", "Bash", serde_json::json!({ "command": "git status" }));
//! let authorization = engine.authorize(call, AuthorizeOptions::default()).await?;
//! assert_eq!(authorization.decision.behavior, Behavior::Allow);
//!
//! // Pushing is not: the call waits for a person, who allows it once.
//! let call = ToolCall::new("s1", "c2", "Bash", serde_json::json!({ "command": "git push" }));
//! let authorization = engine.authorize(call, AuthorizeOptions::default()).await?;
//! assert_eq!(authorization.decision.behavior, Behavior::Ask);
//! engine.resolve(&ToolCallId::new("c2"), "allow_once").await?;
//! let (behavior, _) = authorization.settled().await?;
//! assert_eq!(behavior, Behavior::Allow);
//!
//! // Every decision is in the hash-chained audit log.
//! assert!(engine.verify_audit(None).await?.is_intact());
//! # Ok(())
//! # }
//! ```

pub mod config;
pub mod engine;

pub use config::{Config, ConfigError};
pub use engine::{Setup, SetupError, engine};
