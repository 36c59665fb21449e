//! `warrant audit`: print the audit log as JSON lines, and verify its keyed chain against the
//! checkpoint file and, when given, a head kept elsewhere.
//!
//! The log is read from the store `[store]` selects. The SQLite store is read from its file
//! (which must exist), with every link of the chain printed; any other store (PostgreSQL) is
//! opened by name through the plugin registry, exactly as `warrant serve` opens it, and
//! verified through its own
//! [`verify_audit`](warrant_core::store::AuditLog::verify_audit).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use warrant_core::audit::{AuditHead, AuditVerification};
use warrant_core::store::{AuditQuery, Store, StoreErrorKind};
use warrant_stores::postgres::DEFAULT_AUDIT_KEY_FILE;
use warrant_stores::sqlite::AUDIT_KEY_ENV;

use crate::config::{Config, DEFAULT_STORE};

/// The store that keeps everything in its process's memory: another process has nothing to
/// read from it.
const MEMORY_STORE: &str = "memory";

/// The PostgreSQL store's registered name.
const POSTGRES_STORE: &str = "postgres";

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
    /// The data directory holding the database, or for PostgreSQL the audit key and
    /// checkpoint files when `[store]` names none (default: the configured one, else this
    /// directory's own folder in the user's data directory).
    #[arg(long, value_name = "DIR")]
    data_dir: Option<PathBuf>,
}

/// Prints every matching entry as one JSON line (`{seq, prevHash, hash, record}` from SQLite,
/// `{seq, record}` from other stores); with `--verify`, prints the verification as the last
/// line (`{"verification": {...}}`, with the head to keep for `--expect-head`) and exits 1
/// when the chain is broken, 2 (one line on stderr) when the log cannot be read.
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
    if let Some(dir) = &args.data_dir {
        config.data_dir.clone_from(dir);
    }
    if let Some(note) = config.legacy_data_dir_note() {
        eprintln!("warrant audit: {note}");
    }
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the runtime: {e}"))?;
    let query = AuditQuery {
        session_id: args.session.clone().map(Into::into),
        ..AuditQuery::all()
    };
    let mut out = std::io::stdout().lock();
    let verify = args.verify.then_some(expected.as_ref());
    if config.store.kind == DEFAULT_STORE {
        runtime.block_on(sqlite(&config, &query, verify, &mut out))
    } else {
        runtime.block_on(by_name(&config, &query, verify, &mut out))
    }
}

/// The SQLite store as `[store]` configures it: its file (which must exist), audit key and
/// checkpoint; every entry is printed with its link in the chain.
async fn sqlite(
    config: &Config,
    query: &AuditQuery,
    verify: Option<Option<&AuditHead>>,
    out: &mut impl Write,
) -> Result<ExitCode, String> {
    let sqlite = crate::engine::sqlite_config(config)?;
    if !sqlite.path.exists() {
        return Err(format!(
            "no audit log at {} (is --data-dir right?)",
            sqlite.path.display()
        ));
    }
    // Reading the log changes nothing else: no session expires on the way.
    let store = sqlite
        .session_idle_expiry_secs(0)
        .open()
        .map_err(|e| e.to_string())?;
    let entries = store
        .audit_entries(query)
        .await
        .map_err(|e| e.to_string())?;
    for entry in &entries {
        print_line(out, entry)?;
    }
    let Some(expected) = verify else {
        return Ok(ExitCode::SUCCESS);
    };
    let report = match expected {
        Some(head) => store.verify_audit_expecting(head).await,
        None => store.verify_audit().await,
    }
    .map_err(|e| e.to_string())?;
    Ok(conclude(out, &report, None))
}

/// Any other store but the memory store, opened by its registered name as `warrant serve`
/// opens it (for PostgreSQL: the database `url`, the audit key and the checkpoint file of
/// `[store]`, by default in the data directory), and verified by the store itself.
async fn by_name(
    config: &Config,
    query: &AuditQuery,
    verify: Option<Option<&AuditHead>>,
    out: &mut impl Write,
) -> Result<ExitCode, String> {
    let kind = &config.store.kind;
    if kind == MEMORY_STORE {
        return Err(format!(
            "[store] kind is \"{kind}\": that store keeps nothing across processes, so there \
             is no audit log for this command to read"
        ));
    }
    if kind == POSTGRES_STORE {
        postgres_key_exists(config)?;
    }
    let store: Arc<dyn Store> = crate::engine::open_store(config)?;
    let unreadable = match store.audit_records(query).await {
        Ok(records) => {
            for stored in &records {
                print_line(
                    out,
                    &serde_json::json!({ "seq": stored.seq, "record": stored.record }),
                )?;
            }
            None
        }
        // A record that cannot be read is what verifying is for: name where the chain
        // breaks, then fail on the listing.
        Err(e) if verify.is_some() && e.kind == StoreErrorKind::Corrupt => {
            Some(format!("reading the audit log of the {kind} store: {e}"))
        }
        Err(e) => return Err(format!("reading the audit log of the {kind} store: {e}")),
    };
    let Some(expected) = verify else {
        return Ok(ExitCode::SUCCESS);
    };
    let report = store
        .verify_audit(expected)
        .await
        .map_err(|e| format!("verifying the audit log of the {kind} store: {e}"))?;
    Ok(conclude(out, &report, unreadable))
}

/// The PostgreSQL store makes an audit key when it finds none and the database records none
/// yet; reading the log must not, so the key the instances use must be there: the
/// `WARRANT_AUDIT_KEY` variable, or the key file `[store]` names (by default in the data
/// directory).
fn postgres_key_exists(config: &Config) -> Result<(), String> {
    if std::env::var_os(AUDIT_KEY_ENV).is_some() {
        return Ok(());
    }
    let file = match config
        .store
        .options
        .get("audit_key_file")
        .and_then(serde_json::Value::as_str)
    {
        Some(file) => PathBuf::from(file),
        None => {
            let name = Path::new(DEFAULT_AUDIT_KEY_FILE)
                .file_name()
                .unwrap_or_default();
            config.data_dir.join(name)
        }
    };
    if file.exists() {
        return Ok(());
    }
    Err(format!(
        "the audit key file {} is missing and {AUDIT_KEY_ENV} is not set: verifying needs the \
         key the instances write with (is --data-dir right?); this command never makes one",
        file.display()
    ))
}

fn print_line(out: &mut impl Write, value: &impl serde::Serialize) -> Result<(), String> {
    let line = serde_json::to_string(value).map_err(|e| e.to_string())?;
    writeln!(out, "{line}").map_err(|e| format!("writing to stdout: {e}"))
}

/// Prints the verification line (stdout) and its summary (stderr): exit 0 when intact, 1
/// when broken, 2 when the chain is intact but the listing failed.
fn conclude(
    out: &mut impl Write,
    report: &AuditVerification,
    unreadable: Option<String>,
) -> ExitCode {
    if let Err(message) = print_line(out, &serde_json::json!({ "verification": report })) {
        eprintln!("warrant audit: {message}");
        return ExitCode::from(2);
    }
    eprintln!("{report}");
    if !report.is_intact() {
        return ExitCode::from(1);
    }
    match unreadable {
        Some(message) => {
            eprintln!("warrant audit: {message}");
            ExitCode::from(2)
        }
        None => ExitCode::SUCCESS,
    }
}
