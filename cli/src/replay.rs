//! `warrant replay` and the replayer behind `POST /v1/replay`: policy replay.
//!
//! The recorded calls (evaluation records of the audit log, with their inputs from the chat's
//! tool parts, stored redacted) are decided again by the chain a proposed configuration
//! builds, in the mode each was recorded in, with the grants given before it; the report
//! lists the calls whose behaviour would change, grouped by the new reason code. Nothing is
//! written: the store is read through [`ReadOnlyStore`], no engine is built, no event is sent.

use std::collections::{BTreeMap, HashMap};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;
use warrant_core::ids::{SessionId, ToolCallId};

use figment::Figment;
use figment::providers::{Format, Serialized, Toml};
use serde::Serialize;
use warrant_core::async_trait;
use warrant_core::audit::{AuditEvent, AuditHead, AuditRecord, AuditVerification, digest};
use warrant_core::call::{Analysis, EvaluationContext, PermissionMode, ToolCall};
use warrant_core::catalog::ToolCatalog;
use warrant_core::decision::{
    Behavior, PermissionDecisionSource, Provenance, ToolPermissionDecision,
};
use warrant_core::event::Event;
use warrant_core::grant::{Grant, GrantScoper};
use warrant_core::part::{Message, MessagePart, ToolPart};
use warrant_core::sanitize;
use warrant_core::store::{
    Approvals, AuditKind, AuditLog, AuditQuery, Conversations, EventLog, PendingApproval, Store,
    StoreError, StoreErrorKind, StoredAuditRecord, StoredEvent, WorkspaceStore,
};
use warrant_core::workspace::{Pattern, SessionRecord, WorkspaceState, load_workspace};
use warrant_evaluators::EvaluatorsConfig;
use warrant_server::{ProposedConfig, ReplayError, ReplayRequest, Replayer};
use warrant_stores::SqliteConfig;

use crate::config::{Config, DEFAULT_STORE};
use crate::engine::{configured_chain, open_store, workspace_root};

/// The most recorded calls one replay decides again: the newest ones (the report says when
/// older ones were left out).
pub const MAX_REPLAYED: usize = 10_000;

/// The longest input shown for a changed call, in characters.
const MAX_INPUT_CHARS: usize = 300;

/// Arguments of `warrant replay`.
#[derive(Debug, clap::Args)]
pub struct ReplayArgs {
    /// The proposed configuration file (TOML) to decide the recorded calls under. The
    /// recorded calls are read from the data directory of the current configuration
    /// (`--config`, else ./warrant.toml).
    #[arg(long = "with", value_name = "NEW.toml")]
    with: PathBuf,
    /// Only this session's calls.
    #[arg(long, value_name = "ID")]
    session: Option<String>,
    /// Only calls recorded at or after this time: RFC 3339 (`2026-11-30T08:00:00Z`) or a
    /// plain date (`2026-11-30`, midnight UTC).
    #[arg(long, value_name = "TIME")]
    since: Option<String>,
    /// Print the report as one JSON object.
    #[arg(long)]
    json: bool,
    /// The data directory holding the database (default: the current configuration's).
    #[arg(long, value_name = "DIR")]
    data_dir: Option<PathBuf>,
}

/// Prints the calls the proposed configuration would decide differently. Exits 0 whatever the
/// difference; a bad configuration, session or time prints one line and exits 2; a store
/// that cannot be read exits 1.
pub fn run(args: ReplayArgs, config_file: Option<&Path>) -> ExitCode {
    match replay_command(args, config_file) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("warrant replay: {e}");
            match e {
                ReplayError::Store(_) => ExitCode::from(1),
                _ => ExitCode::from(2),
            }
        }
    }
}

fn replay_command(args: ReplayArgs, config_file: Option<&Path>) -> Result<(), ReplayError> {
    let filter = Filter::new(args.session, args.since.as_deref())?;
    let current = Config::load(config_file)
        .map_err(|e| ReplayError::InvalidConfig(format!("current configuration: {e}")))?;
    // The `[evaluators]` tables first, so an error names its key from the top of the file.
    if args.with.exists() {
        Figment::new()
            .merge(Toml::file_exact(&args.with))
            .focus("evaluators")
            .extract::<EvaluatorsConfig>()
            .map_err(|e| {
                ReplayError::InvalidConfig(describe(
                    e,
                    "evaluators",
                    &args.with.display().to_string(),
                ))
            })?;
    }
    let mut proposed = Config::load(Some(&args.with))
        .map_err(|e| ReplayError::InvalidConfig(format!("--with {}: {e}", args.with.display())))?;
    let data_dir = args.data_dir.unwrap_or_else(|| current.data_dir.clone());
    // The proposed chain protects the data directory the calls were recorded in, the live
    // configuration file and the current store's files, and runs in the current workspace
    // unless the proposal names its own.
    proposed.data_dir = data_dir.clone();
    proposed.source = current.source.clone();
    proposed.store = current.store.clone();
    if proposed.workspace.is_none() {
        proposed.workspace = current.workspace.clone();
    }
    let mut located = current.clone();
    located.data_dir = data_dir.clone();
    if located.store.kind == DEFAULT_STORE {
        // Opening writes nothing on the way: no idle session expires.
        located
            .store
            .options
            .insert("session_idle_expiry_secs".to_owned(), serde_json::json!(0));
    }
    if located.store.kind == DEFAULT_STORE && !located.store.options.contains_key("path") {
        // The default store is the file in the data directory: a missing one is named, not
        // created.
        let path = SqliteConfig::in_dir(&data_dir).path;
        if !path.exists() {
            let legacy = located
                .legacy_data_dir_note()
                .map(|note| format!("; {note}"))
                .unwrap_or_default();
            return Err(ReplayError::Store(format!(
                "no database at {} (is --data-dir or the configuration's data_dir right?){legacy}",
                path.display()
            )));
        }
    }
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| ReplayError::Store(format!("cannot start the runtime: {e}")))?;
    let label = args.with.display().to_string();
    let report = runtime.block_on(async {
        let store = open_store(&located).map_err(ReplayError::Store)?;
        replay(
            store,
            proposed,
            None,
            &filter,
            &label,
            Reviewer::AsConfigured,
        )
        .await
    })?;
    let mut out = std::io::stdout().lock();
    let written = if args.json {
        serde_json::to_string(&report)
            .map_err(std::io::Error::other)
            .and_then(|line| writeln!(out, "{line}"))
    } else {
        write!(out, "{}", report.text())
    };
    written.map_err(|e| ReplayError::Store(format!("cannot write the report: {e}")))
}

/// Which recorded calls to replay.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Filter {
    /// Only this session's calls.
    pub session: Option<String>,
    /// Only calls recorded at or after this time, as written.
    pub since: Option<String>,
    /// `since` in Unix milliseconds.
    pub since_millis: Option<i64>,
}

impl Filter {
    /// The filter of a session and a `since` time (RFC 3339 or `YYYY-MM-DD`).
    ///
    /// # Errors
    ///
    /// [`ReplayError::InvalidFilter`] naming a time that cannot be read, or an empty session.
    pub fn new(session: Option<String>, since: Option<&str>) -> Result<Self, ReplayError> {
        if session.as_deref().is_some_and(|s| s.trim().is_empty()) {
            return Err(ReplayError::InvalidFilter(
                "the session filter is empty: name a session id".to_owned(),
            ));
        }
        let since_millis = since.map(parse_time).transpose()?;
        Ok(Self {
            session,
            since: since.map(str::to_owned),
            since_millis,
        })
    }
}

/// A time as Unix milliseconds: RFC 3339 (`2026-11-30T08:00:00Z`, `…+02:00`, fractions of a
/// second, a space for the `T`) or a plain date (`2026-11-30`, midnight UTC).
///
/// # Errors
///
/// [`ReplayError::InvalidFilter`] quoting the value.
pub fn parse_time(text: &str) -> Result<i64, ReplayError> {
    warrant_server::parse_instant(text).ok_or_else(|| {
        ReplayError::InvalidFilter(format!(
            "invalid time \"{}\": expected RFC 3339 (2026-11-30T08:00:00Z), a date (2026-11-30) \
             or Unix milliseconds",
            sanitize::clean(text, 64)
        ))
    })
}

/// One decision as the report shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Verdict {
    /// `allow`, `ask` or `deny`.
    pub behavior: Behavior,
    /// Who decided (`policy`, `rule`, `auto_classifier`, `full_access`).
    pub source: String,
    /// The stable reason code.
    pub reason_code: String,
    /// The reason, as a person reads it.
    pub reason: String,
}

impl Verdict {
    fn of(decision: &ToolPermissionDecision) -> Self {
        let source = serde_json::to_value(decision.source)
            .ok()
            .and_then(|v| v.as_str().map(str::to_owned))
            .unwrap_or_default();
        Self {
            behavior: decision.behavior,
            source,
            reason_code: decision.reason_code.clone(),
            reason: decision.reason.clone(),
        }
    }
}

/// A recorded call the proposed configuration decides with another behaviour.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Change {
    /// Its evaluation record's position in the audit log.
    pub seq: u64,
    /// When it was recorded (Unix milliseconds).
    pub at: i64,
    /// The session.
    pub session_id: SessionId,
    /// The call.
    pub tool_call_id: ToolCallId,
    /// The tool.
    pub tool_name: String,
    /// The permission mode it was decided in.
    pub mode: PermissionMode,
    /// Its input as the chat keeps it: secrets redacted, cut to a few hundred characters.
    pub input: String,
    /// Whether the input kept differs from the one decided (a secret was redacted): the
    /// replay decided the redacted input.
    pub input_redacted: bool,
    /// The recorded decision.
    pub before: Verdict,
    /// The decision under the proposed configuration.
    pub after: Verdict,
}

/// The changed calls that end in one behaviour for one reason code.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Group {
    /// The behaviour they would now get.
    pub to: Behavior,
    /// The reason code they would now get.
    pub reason_code: String,
    /// How many.
    pub count: usize,
    /// How many of them were recorded with each behaviour.
    pub from: BTreeMap<Behavior, usize>,
    /// The calls, oldest first.
    pub calls: Vec<Change>,
}

/// How many changed calls would now get each behaviour.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NowCounts {
    /// Would now be allowed (were asked or denied).
    pub allowed: usize,
    /// Would now ask (were allowed or denied).
    pub asked: usize,
    /// Would now be denied (were allowed or asked).
    pub denied: usize,
}

/// A count of changed calls by recorded and new behaviour.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Transition {
    /// The recorded behaviour.
    pub from: Behavior,
    /// The behaviour under the proposed configuration.
    pub to: Behavior,
    /// How many calls.
    pub count: usize,
}

/// The filters a report was made with.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Filters {
    /// The session, when filtered.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub session: Option<String>,
    /// The `since` time as given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub since: Option<String>,
    /// The `since` time in Unix milliseconds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub since_millis: Option<i64>,
}

/// What a replay found: `warrant replay --json` and `POST /v1/replay` answer this object.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ReplayReport {
    /// What the calls were decided under (the file, or `the posted configuration`).
    pub config: String,
    /// The filters.
    pub filters: Filters,
    /// Evaluation records that match the filters (at most [`MAX_REPLAYED`] are read).
    pub considered: usize,
    /// Whether older matching records were left out ([`MAX_REPLAYED`]).
    pub limited: bool,
    /// Calls decided again.
    pub replayed: usize,
    /// Calls that would get the same behaviour.
    pub unchanged: usize,
    /// Of those, calls that would get it for another reason code.
    pub reason_changed: usize,
    /// Calls that would get another behaviour.
    pub changed: usize,
    /// Changed calls by the behaviour they would now get.
    pub now: NowCounts,
    /// Changed calls by recorded and new behaviour.
    pub transitions: Vec<Transition>,
    /// Changed calls by new behaviour and reason code, the largest group first.
    pub groups: Vec<Group>,
    /// Calls not decided again, by why (`no_input`: the chat keeps no input for them;
    /// `needs_reviewer`: see [`ReplayReport::needs_reviewer`]).
    pub skipped: BTreeMap<String, usize>,
    /// Calls the proposed chain would put to a model reviewer, which a replay over HTTP
    /// never calls: they are left undecided (always 0 for `warrant replay`).
    pub needs_reviewer: usize,
    /// The state of the audit log's chain (the shape `GET /v1/audit` answers): only records
    /// up to `verifiedThrough` are replayed.
    pub chain: ChainState,
}

/// The state of the audit log's chain, as `GET /v1/audit` reports it (`chain`).
pub use warrant_core::audit::AuditChainState as ChainState;

/// The chain as one line of the text report.
fn chain_line(chain: &ChainState) -> String {
    let message = sanitize::clean(&chain.message, 1_000);
    match chain.status {
        "intact" => format!(
            "Audit log verified through record {}.",
            chain.verified_through
        ),
        "unanchored" => format!(
            "Audit log unanchored: records 1 to {} verified, but nothing outside the \
             database says where the log ends ({message}).",
            chain.verified_through
        ),
        _ if chain.verified_through == 0 => {
            format!("Audit log broken: no record verified, so none was replayed ({message}).")
        }
        _ => format!(
            "Audit log broken: only records 1 to {} verified and were replayed ({message}).",
            chain.verified_through
        ),
    }
}

impl ReplayReport {
    /// The report as a person reads it, one line per changed call.
    pub fn text(&self) -> String {
        use std::fmt::Write as _;
        let mut out = String::new();
        let mut scope = Vec::new();
        if let Some(session) = &self.filters.session {
            scope.push(format!("session {}", sanitize::clean(session, 200)));
        }
        if let Some(since) = &self.filters.since {
            scope.push(format!("since {}", sanitize::clean(since, 64)));
        }
        let scope = if scope.is_empty() {
            "every session".to_owned()
        } else {
            scope.join(", ")
        };
        let _ = writeln!(
            out,
            "Replayed {} recorded call{} ({scope}) under {}.",
            self.replayed,
            plural(self.replayed),
            self.config
        );
        let _ = writeln!(out, "{}", chain_line(&self.chain));
        if self.limited {
            let _ = writeln!(
                out,
                "Only the newest {MAX_REPLAYED} were read: narrow with --session or --since."
            );
        }
        if self.changed == 0 {
            let _ = writeln!(out, "No call would be decided differently.");
        } else {
            let _ = writeln!(
                out,
                "{} would be decided differently: {} now allowed, {} now asked, {} now denied.",
                self.changed, self.now.allowed, self.now.asked, self.now.denied
            );
            for group in &self.groups {
                let from: Vec<String> = group
                    .from
                    .iter()
                    .map(|(b, n)| format!("{n} from {}", behavior_name(*b)))
                    .collect();
                let _ = writeln!(
                    out,
                    "\nnow {} · {} ({}: {})",
                    behavior_name(group.to),
                    sanitize::clean(&group.reason_code, MAX_INPUT_CHARS),
                    group.count,
                    from.join(", ")
                );
                // Ids and names are printed without control characters: a terminal shows
                // them as text.
                let shown = |text: &str| sanitize::clean(text, MAX_INPUT_CHARS);
                for call in &group.calls {
                    let _ = writeln!(
                        out,
                        "  {} → {}  {} {} {} {}  (was {}: {})",
                        behavior_name(call.before.behavior),
                        behavior_name(call.after.behavior),
                        shown(call.session_id.as_str()),
                        shown(call.tool_call_id.as_str()),
                        shown(&call.tool_name),
                        call.input,
                        call.before.source,
                        shown(&call.before.reason_code)
                    );
                }
            }
            out.push('\n');
        }
        let _ = write!(out, "{} unchanged", self.unchanged);
        if self.reason_changed > 0 {
            let _ = write!(out, " ({} for another reason code)", self.reason_changed);
        }
        out.push('.');
        let skipped: usize = self.skipped.values().sum();
        if skipped > 0 {
            let why: Vec<String> = self
                .skipped
                .iter()
                .map(|(code, n)| format!("{n} {code}"))
                .collect();
            let _ = write!(out, " {skipped} skipped ({}).", why.join(", "));
        }
        if self.needs_reviewer > 0 {
            let _ = write!(
                out,
                " {} would be put to the model reviewer, which a replay over HTTP does not call.",
                self.needs_reviewer
            );
        }
        out.push('\n');
        out
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

fn behavior_name(b: Behavior) -> &'static str {
    match b {
        Behavior::Allow => "allow",
        Behavior::Ask => "ask",
        Behavior::Deny => "deny",
    }
}

/// Whether a replay may call a model reviewer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reviewer {
    /// The reviewer the proposed configuration names, model or embedded (`warrant replay`).
    AsConfigured,
    /// Never a model: with a model reviewer configured, the chain is built with the embedded
    /// one, and every call it would review is counted in `needsReviewer` instead of decided
    /// (`POST /v1/replay`).
    NoModel,
}

/// Decides the recorded calls `filter` selects again under `proposed` (with `patterns` in
/// place of the stored patterns of the same id) and reports the difference. `store` is only
/// read: it is wrapped in a [`ReadOnlyStore`] for the chain too. Only the records the audit
/// chain verified are replayed (those before the first bad one), and the report says how
/// far that is (`chain`).
///
/// # Errors
///
/// [`ReplayError::InvalidConfig`] for a configuration the chain cannot be built from,
/// [`ReplayError::UnknownSession`] for a session with no recorded call,
/// [`ReplayError::Store`] when the store cannot be read or verified.
pub async fn replay(
    store: Arc<dyn Store>,
    mut proposed: Config,
    patterns: Option<Vec<Pattern>>,
    filter: &Filter,
    label: &str,
    reviewer: Reviewer,
) -> Result<ReplayReport, ReplayError> {
    let store: Arc<dyn Store> = Arc::new(ReadOnlyStore::new(store));
    let read = |e: StoreError| ReplayError::Store(format!("cannot read the store: {e}"));
    let verification = store
        .verify_audit(None)
        .await
        .map_err(|e| ReplayError::Store(format!("cannot verify the audit log: {e}")))?;
    let chain_state = ChainState::of(&verification);
    let mut workspace = load_workspace(&*store).await.map_err(read)?;
    if let Some(patterns) = patterns {
        overlay_patterns(&mut workspace, patterns);
    }
    let query = AuditQuery {
        session_id: filter.session.clone().map(Into::into),
        kind: Some(AuditKind::Evaluation),
        since: filter.since_millis,
        // Only what verified: a record past the break is not taken for what was decided.
        before_seq: Some(chain_state.verified_through.saturating_add(1)),
        limit: Some(MAX_REPLAYED + 1),
        ..AuditQuery::all()
    };
    let mut records = store.audit_records(&query).await.map_err(read)?;
    if let Some(session) = &filter.session
        && records.is_empty()
        && !workspace.sessions.iter().any(|s| &s.id == session)
        && store
            .audit_records(&AuditQuery::session(session.clone()))
            .await
            .map_err(read)?
            .is_empty()
    {
        return Err(ReplayError::UnknownSession(format!(
            "unknown session \"{}\": no call of it is recorded",
            sanitize::clean(session, 200)
        )));
    }
    let limited = records.len() > MAX_REPLAYED;
    if limited {
        records.drain(..records.len() - MAX_REPLAYED);
    }

    let model_reviewer = proposed
        .evaluators
        .pointer("/classifier/openai")
        .is_some_and(|v| !v.is_null());
    let needs_reviewer_check = reviewer == Reviewer::NoModel && model_reviewer;
    if needs_reviewer_check
        && let Some(classifier) = proposed
            .evaluators
            .pointer_mut("/classifier")
            .and_then(serde_json::Value::as_object_mut)
    {
        // The embedded reviewer stands in: what it reviews is what the model would have.
        classifier.remove("openai");
    }
    let evaluators: EvaluatorsConfig = match &proposed.evaluators {
        serde_json::Value::Null => EvaluatorsConfig::default(),
        table => serde_json::from_value(table.clone())
            .map_err(|e| ReplayError::InvalidConfig(format!("[evaluators]: {e}")))?,
    };
    let root = workspace_root(&proposed).map_err(ReplayError::InvalidConfig)?;
    let catalog = Arc::new(ToolCatalog::new(&workspace.settings.tooling, None));
    let chain = configured_chain(&proposed, Arc::clone(&store), Arc::clone(&catalog))
        .await
        .map_err(|e| ReplayError::InvalidConfig(e.to_string()))?;
    let scoper = warrant_core::grant::GuardedScoper(Arc::new(warrant_evaluators::grant_scoper(
        &evaluators,
        &root,
    )));
    let grants = store.grants().await.map_err(read)?;

    // Per session, only the message id and input of each call, read when its first record
    // comes and dropped after its last.
    let mut remaining: HashMap<SessionId, usize> = HashMap::new();
    for stored in &records {
        *remaining
            .entry(stored.record.session_id.clone())
            .or_default() += 1;
    }
    let mut inputs: HashMap<SessionId, HashMap<ToolCallId, CallInput>> = HashMap::new();
    let mut tally = Tally::default();
    let considered = records.len();
    for stored in records {
        let StoredAuditRecord { seq, record } = stored;
        let AuditRecord {
            at,
            session_id,
            tool_call_id,
            tool_name,
            event,
        } = record;
        if !inputs.contains_key(&session_id) {
            let messages = store.messages(&session_id).await.map_err(read)?;
            inputs.insert(session_id.clone(), call_inputs(messages));
        }
        let found = inputs
            .get(&session_id)
            .and_then(|p| p.get(&tool_call_id))
            .cloned();
        if let Some(left) = remaining.get_mut(&session_id) {
            *left -= 1;
            if *left == 0 {
                inputs.remove(&session_id);
            }
        }
        let AuditEvent::Evaluation {
            mode,
            input_digest,
            decision: recorded,
            ..
        } = event
        else {
            continue;
        };
        let Some((message_id, input)) = found else {
            *tally.skipped.entry("no_input".to_owned()).or_default() += 1;
            continue;
        };
        let input = sanitize::redact_value(&input);
        let input_redacted = digest(&input) != input_digest;
        let call = ToolCall {
            tool_call_id: tool_call_id.clone(),
            session_id: session_id.clone(),
            tool_name: tool_name.clone(),
            input,
            agent_id: agent_of(&recorded),
            message_id: Some(message_id),
        };
        let mut cx = EvaluationContext {
            mode,
            workspace_root: root.clone(),
            policy: Arc::new(workspace.effective_policy(&session_id)),
            catalog: Arc::clone(&catalog),
            // The grants given before the call, as it was decided then.
            grants: Arc::new(
                grants
                    .iter()
                    .filter(|g| g.applies_in(&session_id) && g.granted_at <= at)
                    .cloned()
                    .collect::<Vec<Grant>>(),
            ),
            grant_keys: Vec::new(),
            open_risk: None,
            analysis: Analysis::default(),
        };
        cx.grant_keys = scoper.keys_in(&call, &cx);
        let mut decision = chain.decide(&call, &cx).await.decision;
        if needs_reviewer_check && decision.source == PermissionDecisionSource::AutoClassifier {
            tally.needs_reviewer += 1;
            *tally
                .skipped
                .entry("needs_reviewer".to_owned())
                .or_default() += 1;
            continue;
        }
        sanitize::decision(&mut decision);
        tally.replayed += 1;
        if decision.behavior == recorded.behavior {
            tally.unchanged += 1;
            if decision.reason_code != recorded.reason_code {
                tally.reason_changed += 1;
            }
            continue;
        }
        tally.changes.push(Change {
            seq,
            at,
            session_id,
            tool_call_id,
            tool_name,
            mode,
            input: sanitize::clean(&call.input.to_string(), MAX_INPUT_CHARS),
            input_redacted,
            before: Verdict::of(&recorded),
            after: Verdict::of(&decision),
        });
    }
    Ok(tally.report(
        label,
        Filters {
            session: filter.session.clone(),
            since: filter.since.clone(),
            since_millis: filter.since_millis,
        },
        considered,
        limited,
        chain_state,
    ))
}

/// A recorded call's message id and input, as the chat keeps it.
type CallInput = (String, serde_json::Value);

/// The input of every tool part of a session's messages by call id, with its message id;
/// the rest of the messages (outputs, text) is dropped.
fn call_inputs(messages: Vec<Message>) -> HashMap<ToolCallId, CallInput> {
    let mut out = HashMap::new();
    for message in messages {
        let Message { id, parts, .. } = message;
        for part in parts {
            if let MessagePart::Tool(ToolPart {
                tool_call_id,
                input: Some(input),
                ..
            }) = part
            {
                out.insert(tool_call_id, (id.clone(), input));
            }
        }
    }
    out
}

/// The agent a recorded decision names (checkpoints off for it), else the primary agent.
fn agent_of(decision: &ToolPermissionDecision) -> Option<String> {
    match &decision.provenance {
        Some(Provenance::CheckpointsOff { agent }) => Some(agent.clone()),
        _ => None,
    }
}

/// Puts each proposed pattern in place of the stored one with its id (or adds it).
fn overlay_patterns(workspace: &mut WorkspaceState, patterns: Vec<Pattern>) {
    for pattern in patterns {
        match workspace.patterns.iter_mut().find(|p| p.id == pattern.id) {
            Some(slot) => *slot = pattern,
            None => workspace.patterns.push(pattern),
        }
    }
}

#[derive(Default)]
struct Tally {
    replayed: usize,
    unchanged: usize,
    reason_changed: usize,
    changes: Vec<Change>,
    skipped: BTreeMap<String, usize>,
    needs_reviewer: usize,
}

impl Tally {
    fn report(
        self,
        label: &str,
        filters: Filters,
        considered: usize,
        limited: bool,
        chain: ChainState,
    ) -> ReplayReport {
        let mut now = NowCounts::default();
        let mut transitions: BTreeMap<(Behavior, Behavior), usize> = BTreeMap::new();
        let mut groups: BTreeMap<(Behavior, String), Group> = BTreeMap::new();
        let changed = self.changes.len();
        for change in self.changes {
            let (from, to) = (change.before.behavior, change.after.behavior);
            match to {
                Behavior::Allow => now.allowed += 1,
                Behavior::Ask => now.asked += 1,
                Behavior::Deny => now.denied += 1,
            }
            *transitions.entry((from, to)).or_default() += 1;
            let group = groups
                .entry((to, change.after.reason_code.clone()))
                .or_insert_with(|| Group {
                    to,
                    reason_code: change.after.reason_code.clone(),
                    count: 0,
                    from: BTreeMap::new(),
                    calls: Vec::new(),
                });
            group.count += 1;
            *group.from.entry(from).or_default() += 1;
            group.calls.push(change);
        }
        let mut groups: Vec<Group> = groups.into_values().collect();
        // The most restrictive outcome first, then the largest group.
        groups.sort_by(|a, b| {
            b.to.cmp(&a.to)
                .then(b.count.cmp(&a.count))
                .then(a.reason_code.cmp(&b.reason_code))
        });
        ReplayReport {
            config: label.to_owned(),
            filters,
            considered,
            limited,
            replayed: self.replayed,
            unchanged: self.unchanged,
            reason_changed: self.reason_changed,
            changed,
            now,
            transitions: transitions
                .into_iter()
                .map(|((from, to), count)| Transition { from, to, count })
                .collect(),
            groups,
            skipped: self.skipped,
            needs_reviewer: self.needs_reviewer,
            chain,
        }
    }
}

/// The longest a replay over HTTP may take before it is answered 503 `replay_timeout`.
pub const HTTP_REPLAY_DEADLINE: Duration = Duration::from_secs(60);

/// The replayer of `warrant serve`: decides the server's recorded calls again under a posted
/// configuration, in the server's workspace and data directory. One replay runs at a time
/// (another is answered 409 `replay_busy`), each within [`HTTP_REPLAY_DEADLINE`], and none
/// calls a model reviewer ([`Reviewer::NoModel`]).
pub struct ServerReplayer {
    current: Config,
    /// The server's configuration file as it was read at start, which a posted proposal is
    /// merged over; an error when it could not be read again.
    base: Result<Option<String>, String>,
    store: Arc<dyn Store>,
    running: tokio::sync::Semaphore,
    deadline: Duration,
}

impl ServerReplayer {
    /// A replayer over `store` (the server's), for the server's configuration `current`.
    pub fn new(current: Config, store: Arc<dyn Store>) -> Self {
        let base = match &current.source {
            Some(file) => std::fs::read_to_string(file).map(Some).map_err(|e| {
                format!(
                    "cannot read the server's configuration file {}: {e}",
                    file.display()
                )
            }),
            None => Ok(None),
        };
        Self {
            current,
            base,
            store,
            running: tokio::sync::Semaphore::new(1),
            deadline: HTTP_REPLAY_DEADLINE,
        }
    }

    /// The posted configuration merged over the server's own (its file, then its `WARRANT_*`
    /// variables): tables are merged key by key, and a key the proposal sets (a value or a
    /// list) replaces the server's. It is then loaded as [`Config::load`] loads a file (the
    /// `[reviewer]` role mapped onto `[evaluators.classifier]`, `[telemetry]` checked), in
    /// the server's workspace and data directory, with the server's configuration file and
    /// store (so their files stay protected).
    ///
    /// Over HTTP a proposal changes rules and policy settings, not what runs or what is
    /// reached: `[plugins]` and the reviewer must be the server's, and rule files only
    /// those the server reads.
    fn proposed(&self, posted: Option<ProposedConfig>) -> Result<Config, ReplayError> {
        let Some(posted) = posted else {
            return Ok(self.current.clone());
        };
        let base = self.base.clone().map_err(ReplayError::InvalidConfig)?;
        let mut figment = Figment::new();
        if let Some(text) = base {
            figment = figment.merge(Toml::string(&text));
        }
        figment = figment.merge(crate::config::environment());
        figment = match posted {
            ProposedConfig::Toml(text) => figment.merge(Toml::string(&text)),
            ProposedConfig::Json(map) => figment.merge(Serialized::defaults(map)),
        };
        let mut config: Config = figment
            .extract()
            .map_err(|e| ReplayError::InvalidConfig(describe(e, "", POSTED)))?;
        let evaluators: EvaluatorsConfig = if figment.contains("evaluators") {
            figment
                .focus("evaluators")
                .extract()
                .map_err(|e| ReplayError::InvalidConfig(describe(e, "evaluators", POSTED)))?
        } else {
            EvaluatorsConfig::default()
        };
        config
            .settle()
            .map_err(|e| ReplayError::InvalidConfig(format!("{POSTED}: {e}")))?;
        let applied: EvaluatorsConfig = match &config.evaluators {
            serde_json::Value::Null => EvaluatorsConfig::default(),
            table => serde_json::from_value(table.clone())
                .map_err(|e| ReplayError::InvalidConfig(format!("{POSTED}: [reviewer]: {e}")))?,
        };
        let current: EvaluatorsConfig = match &self.current.evaluators {
            serde_json::Value::Null => EvaluatorsConfig::default(),
            table => serde_json::from_value(table.clone()).unwrap_or_default(),
        };
        let refused = |key: &str, what: &str| {
            ReplayError::InvalidConfig(format!(
                "invalid configuration in the posted configuration: key \"{key}\": {what}; \
                 replay other values with `warrant replay --with FILE`"
            ))
        };
        if config.plugins != self.current.plugins {
            return Err(refused(
                "plugins",
                "a replay over HTTP runs the server's plugins only",
            ));
        }
        if applied.classifier != current.classifier {
            return Err(refused(
                if config.reviewer != self.current.reviewer {
                    "reviewer"
                } else {
                    "evaluators.classifier"
                },
                "a replay over HTTP uses the server's reviewer only",
            ));
        }
        if let Some(file) = evaluators
            .rules
            .files
            .iter()
            .find(|f| !current.rules.files.contains(f))
        {
            return Err(refused(
                "evaluators.rules.files",
                &format!(
                    "{} is not one of the server's rule files",
                    sanitize::clean(&file.path.display().to_string(), 200)
                ),
            ));
        }
        config.data_dir = self.current.data_dir.clone();
        config.workspace = self.current.workspace.clone();
        config.source = self.current.source.clone();
        config.store = self.current.store.clone();
        Ok(config)
    }

    async fn replay_now(&self, request: ReplayRequest) -> Result<serde_json::Value, ReplayError> {
        let filter = Filter::new(request.session, request.since.as_deref())?;
        let label = if request.config.is_some() {
            "the posted configuration merged over the server's"
        } else {
            "the server's configuration"
        };
        let config = self.proposed(request.config)?;
        let patterns = request
            .patterns
            .map(|list| {
                list.into_iter()
                    .enumerate()
                    .map(|(i, p)| {
                        serde_json::from_value::<Pattern>(p)
                            .map_err(|e| ReplayError::InvalidConfig(format!("patterns[{i}]: {e}")))
                    })
                    .collect::<Result<Vec<_>, _>>()
            })
            .transpose()?;
        let report = replay(
            Arc::clone(&self.store),
            config,
            patterns,
            &filter,
            label,
            Reviewer::NoModel,
        )
        .await?;
        serde_json::to_value(report).map_err(|e| ReplayError::Store(e.to_string()))
    }
}

/// Runs `work` if no other replay holds `running`, within `deadline`.
///
/// # Errors
///
/// [`ReplayError::Busy`] while another replay runs, [`ReplayError::Timeout`] past the
/// deadline (the work is dropped), else the work's own.
async fn limited<T>(
    running: &tokio::sync::Semaphore,
    deadline: Duration,
    work: impl std::future::Future<Output = Result<T, ReplayError>>,
) -> Result<T, ReplayError> {
    let _permit = running.try_acquire().map_err(|_| {
        ReplayError::Busy(
            "another policy replay is running on this server: try again when it is done".to_owned(),
        )
    })?;
    tokio::time::timeout(deadline, work).await.map_err(|_| {
        ReplayError::Timeout(format!(
            "the policy replay took longer than {} s and was stopped: narrow it with a session \
             or a since time",
            deadline.as_secs_f64()
        ))
    })?
}

#[async_trait]
impl Replayer for ServerReplayer {
    async fn replay(&self, request: ReplayRequest) -> Result<serde_json::Value, ReplayError> {
        limited(&self.running, self.deadline, self.replay_now(request)).await
    }
}

/// How errors name a configuration posted to `POST /v1/replay`.
const POSTED: &str = "the posted configuration";

/// One line per problem: which key of the configuration read from `origin` (under `table`,
/// when the error comes from one of its tables), and what was expected.
fn describe(error: figment::Error, table: &str, origin: &str) -> String {
    error
        .into_iter()
        .map(|e| {
            let path: Vec<&str> = std::iter::once(table)
                .filter(|t| !t.is_empty())
                .chain(e.path.iter().map(String::as_str))
                .collect();
            let key = if path.is_empty() {
                "(top level)".to_owned()
            } else {
                path.join(".")
            };
            format!(
                "invalid configuration in {origin}: key \"{key}\": {}",
                e.kind
            )
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// A store that reads through to another and refuses every write: what a replay hands the
/// chain it builds, so no evaluator or plugin can persist anything.
pub struct ReadOnlyStore {
    inner: Arc<dyn Store>,
}

impl ReadOnlyStore {
    /// Reads through to `inner`.
    pub fn new(inner: Arc<dyn Store>) -> Self {
        Self { inner }
    }
}

fn refused(what: &str) -> StoreError {
    StoreError::new(
        StoreErrorKind::Unavailable,
        format!("a policy replay writes nothing: {what} refused"),
    )
}

#[async_trait]
impl AuditLog for ReadOnlyStore {
    async fn append_audit(&self, _record: AuditRecord) -> Result<u64, StoreError> {
        Err(refused("appending an audit record"))
    }

    async fn evaluation_of(&self, tool_call_id: &ToolCallId) -> Result<Option<u64>, StoreError> {
        self.inner.evaluation_of(tool_call_id).await
    }

    async fn audit_records(
        &self,
        query: &AuditQuery,
    ) -> Result<Vec<StoredAuditRecord>, StoreError> {
        self.inner.audit_records(query).await
    }

    async fn verify_audit(
        &self,
        expected: Option<&AuditHead>,
    ) -> Result<AuditVerification, StoreError> {
        self.inner.verify_audit(expected).await
    }
}

#[async_trait]
impl EventLog for ReadOnlyStore {
    async fn append_event(
        &self,
        _session_id: &SessionId,
        _event: &Event,
    ) -> Result<u64, StoreError> {
        Err(refused("appending an event"))
    }

    async fn events_since(
        &self,
        session_id: &SessionId,
        after_seq: u64,
        limit: usize,
    ) -> Result<Vec<StoredEvent>, StoreError> {
        self.inner.events_since(session_id, after_seq, limit).await
    }
}

#[async_trait]
impl Conversations for ReadOnlyStore {
    async fn upsert_tool_part(
        &self,
        _session_id: &SessionId,
        _message_id: &str,
        _part: &ToolPart,
    ) -> Result<(), StoreError> {
        Err(refused("writing a tool part"))
    }

    async fn messages(&self, session_id: &SessionId) -> Result<Vec<Message>, StoreError> {
        self.inner.messages(session_id).await
    }
}

#[async_trait]
impl Approvals for ReadOnlyStore {
    async fn put_pending_approval(&self, _pending: &PendingApproval) -> Result<(), StoreError> {
        Err(refused("recording an approval request"))
    }

    async fn remove_pending_approval(&self, _tool_call_id: &ToolCallId) -> Result<(), StoreError> {
        Err(refused("removing an approval request"))
    }

    async fn pending_approvals(&self) -> Result<Vec<PendingApproval>, StoreError> {
        self.inner.pending_approvals().await
    }

    async fn put_grant(&self, _grant: &Grant) -> Result<(), StoreError> {
        Err(refused("recording a grant"))
    }

    async fn grants(&self) -> Result<Vec<Grant>, StoreError> {
        self.inner.grants().await
    }

    async fn remove_grant(&self, _grant_id: &str) -> Result<bool, StoreError> {
        Err(refused("removing a grant"))
    }
}

#[async_trait]
impl WorkspaceStore for ReadOnlyStore {
    async fn load_workspace(&self) -> Result<Option<WorkspaceState>, StoreError> {
        self.inner.load_workspace().await
    }

    async fn save_workspace(&self, _workspace: &WorkspaceState) -> Result<(), StoreError> {
        Err(refused("saving the workspace"))
    }

    async fn put_session(&self, _session: &SessionRecord) -> Result<(), StoreError> {
        Err(refused("saving a session"))
    }

    async fn expire_idle_sessions(
        &self,
        _untouched_since: i64,
    ) -> Result<Vec<SessionId>, StoreError> {
        Err(refused("expiring sessions"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_read_as_rfc_3339_or_plain_dates() {
        assert_eq!(parse_time("1970-01-01").ok(), Some(0));
        assert_eq!(parse_time("1970-01-02").ok(), Some(86_400_000));
        assert_eq!(
            parse_time("2026-11-30T08:00:00Z").ok(),
            Some(1_796_025_600_000)
        );
        assert_eq!(
            parse_time("2026-11-30T10:00:00.250+02:00").ok(),
            Some(1_796_025_600_250)
        );
        assert_eq!(
            parse_time("2000-03-01 00:00:00z").ok(),
            Some(951_868_800_000)
        );
        // Unix milliseconds, as the history reads them.
        assert_eq!(parse_time("1796025600000").ok(), Some(1_796_025_600_000));
        // Seconds may be left out: the time is still unambiguous.
        assert_eq!(
            parse_time("2026-11-30T08:00Z").ok(),
            Some(1_796_025_600_000)
        );
        for bad in [
            "",
            "yesterday",
            "2026-13-01",
            "2026-02-30",
            "2026-11-30T25:00:00Z",
            "2026-11-30T08:00:00",
            "2026-11-30T0000000€",
            "2026-11-30T00:00:0€",
            "2026-11-3€",
            "2026-11-30T00:00:00.5€",
        ] {
            let err = parse_time(bad).unwrap_err().to_string();
            assert!(err.contains(&format!("\"{bad}\"")), "{bad}: {err}");
        }
    }

    #[tokio::test]
    async fn one_replay_runs_at_a_time_within_its_deadline() {
        let running = tokio::sync::Semaphore::new(1);
        let (started, wait) = tokio::sync::oneshot::channel::<()>();
        let (release, done) = tokio::sync::oneshot::channel::<()>();
        let first = limited(&running, Duration::from_secs(30), async {
            let _ = started.send(());
            let _ = done.await;
            Ok::<_, ReplayError>(1)
        });
        let second = async {
            wait.await.unwrap();
            let busy = limited(&running, Duration::from_secs(30), async {
                Ok::<_, ReplayError>(2)
            })
            .await;
            release.send(()).unwrap();
            busy
        };
        let (first, second) = tokio::join!(first, second);
        assert_eq!(first, Ok(1));
        let busy = second.unwrap_err();
        assert!(matches!(busy, ReplayError::Busy(_)), "{busy:?}");
        assert!(busy.to_string().contains("another policy replay"), "{busy}");
        // Free again once the first is done.
        assert_eq!(
            limited(&running, Duration::from_secs(30), async {
                Ok::<_, ReplayError>(3)
            })
            .await,
            Ok(3)
        );

        let slow = limited(
            &running,
            Duration::from_millis(20),
            std::future::pending::<Result<(), ReplayError>>(),
        )
        .await
        .unwrap_err();
        assert!(matches!(slow, ReplayError::Timeout(_)), "{slow:?}");
        assert!(slow.to_string().contains("0.02 s"), "{slow}");
        // The permit went with the stopped replay.
        assert_eq!(running.available_permits(), 1);
    }

    #[test]
    fn a_report_groups_changes_by_new_behaviour_and_reason_code() {
        let verdict = |behavior, code: &str| Verdict {
            behavior,
            source: "rule".into(),
            reason_code: code.into(),
            reason: String::new(),
        };
        let change = |seq, from, to, code: &str| Change {
            seq,
            at: 0,
            session_id: "s".into(),
            tool_call_id: format!("c{seq}").into(),
            tool_name: "Bash".into(),
            mode: PermissionMode::Default,
            input: "{}".into(),
            input_redacted: false,
            before: verdict(from, "before"),
            after: verdict(to, code),
        };
        let tally = Tally {
            replayed: 5,
            unchanged: 2,
            reason_changed: 1,
            changes: vec![
                change(1, Behavior::Allow, Behavior::Ask, "rule_ask"),
                change(2, Behavior::Deny, Behavior::Ask, "rule_ask"),
                change(3, Behavior::Allow, Behavior::Deny, "rule_deny"),
            ],
            skipped: BTreeMap::new(),
            needs_reviewer: 0,
        };
        let verification = AuditVerification {
            records: 5,
            head_seq: 5,
            head_hash: "ab".into(),
            key_id: "k".into(),
            legacy_records: 0,
            checkpoint_seq: None,
            first_bad: None,
        };
        let report = tally.report(
            "new.toml",
            Filters::default(),
            5,
            false,
            ChainState::of(&verification),
        );
        assert_eq!(report.changed, 3);
        assert_eq!(
            report.now,
            NowCounts {
                allowed: 0,
                asked: 2,
                denied: 1
            }
        );
        let groups: Vec<(Behavior, &str, usize)> = report
            .groups
            .iter()
            .map(|g| (g.to, g.reason_code.as_str(), g.count))
            .collect();
        assert_eq!(
            groups,
            [
                (Behavior::Deny, "rule_deny", 1),
                (Behavior::Ask, "rule_ask", 2)
            ]
        );
        assert_eq!(report.groups[1].from.get(&Behavior::Allow), Some(&1));
        assert_eq!(report.groups[1].from.get(&Behavior::Deny), Some(&1));
        let text = report.text();
        assert!(
            text.contains("now ask · rule_ask (2: 1 from allow, 1 from deny)"),
            "{text}"
        );
        assert!(
            text.contains("2 unchanged (1 for another reason code)."),
            "{text}"
        );
    }
}
