//! `warrant audit`: print the audit log as JSON lines, and verify its keyed chain against the
//! checkpoint file and, when given, a head kept elsewhere.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use warrant_core::store::AuditQuery;
use warrant_stores::sqlite::AuditHead;

use crate::config::Config;

/// Arguments of `warrant audit`.
#[derive(Debug, clap::Args)]
pub struct AuditArgs {
    /// Only this session's entries.
    #[arg(long, value_name = "ID")]
    session: Option<String>,
    /// Walk the keyed chain, compare it with the checkpoint file, and report the first
    /// edited, forged or deleted entry (exit 1 if any).
    #[arg(long)]
    verify: bool,
    /// With --verify: the log must also hold this link, as an earlier --verify printed it
    /// (`headSeq:headHash`), so a log truncated or emptied below it is reported even when
    /// the checkpoint file went with it.
    #[arg(long, value_name = "SEQ:HASH", requires = "verify")]
    expect_head: Option<String>,
    /// The data directory holding the database (default: the configured one, `./.warrant`).
    #[arg(long, value_name = "DIR")]
    data_dir: Option<PathBuf>,
}

/// Prints every matching entry as one JSON line (`{seq, prevHash, hash, record}`); with
/// `--verify`, prints the verification as the last line (`{"verification": {...}}`, with the
/// head to keep for `--expect-head`) and exits 1 when the chain is broken.
pub fn run(args: AuditArgs, config_file: Option<&Path>) -> ExitCode {
    match audit(args, config_file) {
        Ok(code) => code,
        Err(message) => {
            eprintln!("warrant audit: {message}");
            ExitCode::from(2)
        }
    }
}

fn audit(args: AuditArgs, config_file: Option<&Path>) -> Result<ExitCode, String> {
    let expected = args
        .expect_head
        .as_deref()
        .map(|text| {
            text.parse::<AuditHead>()
                .map_err(|e| format!("--expect-head: {}", e.message))
        })
        .transpose()?;
    let mut config = Config::load(config_file).map_err(|e| e.to_string())?;
    if let Some(dir) = args.data_dir {
        config.data_dir = dir;
    }
    // The store as `[store]` configures it: its file, audit key and checkpoint.
    let sqlite = crate::engine::sqlite_config(&config)?;
    let path = sqlite.path.clone();
    if !path.exists() {
        return Err(format!(
            "no audit log at {} (is --data-dir right?)",
            path.display()
        ));
    }
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the runtime: {e}"))?;
    runtime.block_on(async {
        // Reading the log changes nothing else: no session expires on the way.
        let store = sqlite
            .session_idle_expiry_secs(0)
            .open()
            .map_err(|e| e.to_string())?;
        let query = AuditQuery {
            session_id: args.session,
            ..AuditQuery::all()
        };
        let entries = store
            .audit_entries(&query)
            .await
            .map_err(|e| e.to_string())?;
        let mut out = std::io::stdout().lock();
        for entry in &entries {
            let line = serde_json::to_string(entry).map_err(|e| e.to_string())?;
            writeln!(out, "{line}").map_err(|e| e.to_string())?;
        }
        if !args.verify {
            return Ok(ExitCode::SUCCESS);
        }
        let report = match &expected {
            Some(head) => store.verify_audit_expecting(head).await,
            None => store.verify_audit().await,
        }
        .map_err(|e| e.to_string())?;
        let line = serde_json::to_string(&serde_json::json!({ "verification": report }))
            .map_err(|e| e.to_string())?;
        writeln!(out, "{line}").map_err(|e| e.to_string())?;
        eprintln!("{report}");
        Ok(if report.is_intact() {
            ExitCode::SUCCESS
        } else {
            ExitCode::from(1)
        })
    })
}
