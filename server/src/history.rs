//! `GET /v1/audit` and `GET /v1/audit/export`: the decision history, read from the audit log
//! itself, newest first, filtered and paged; and the same records as CSV or JSON lines.
//!
//! Every answer carries the state of the log's chain (`chain`, or the `Warrant-Audit-Chain`
//! header of an export) and only records the verification vouched for: when the chain
//! breaks at record N, records from N on are withheld and the break is reported, never
//! hidden. Both routes are a person's: an agent's token may not read the log.

use std::sync::Arc;

use axum::Json;
use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::{HeaderValue, Uri, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use warrant_core::audit::{AuditChainState as Chain, AuditEvent};
use warrant_core::decision::{Behavior, PermissionDecisionSource, Provenance};
use warrant_core::store::{AuditKind, AuditQuery, Store, StoreError, StoredAuditRecord};
use warrant_core::workspace::MAX_SESSION_ID_BYTES;

use super::ServerState;
use warrant_transports::error::ApiError;

/// How many records a page holds unless `limit` says otherwise.
pub const DEFAULT_PAGE_SIZE: usize = 50;

/// The most records a page may hold.
pub const MAX_PAGE_SIZE: usize = 200;

/// How many records an export reads from the store at a time.
const EXPORT_BATCH: usize = 500;

/// The longest free-text filter, in characters.
const MAX_TEXT_CHARS: usize = 200;

/// The longest tool name or reason-code filter, in characters.
const MAX_NAME_CHARS: usize = 256;

/// The response header of an export that carries the chain's state.
const CHAIN_HEADER: &str = "warrant-audit-chain";

/// The parameters every history route reads; any other is refused.
const FILTERS: [&str; 9] = [
    "session",
    "tool",
    "kind",
    "outcome",
    "source",
    "reasonCode",
    "since",
    "until",
    "q",
];

/// One page of the history.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct Page {
    /// The records, newest first, without the chain's trace ([`shown_record`]).
    records: Vec<serde_json::Value>,
    /// The `cursor` of the next (older) page; `None` on the last page.
    next_cursor: Option<String>,
    /// The page size asked for.
    limit: usize,
    /// What verifying the log found.
    chain: Chain,
}

/// The query string's parameters, decoded.
struct Params(Vec<(String, String)>);

impl Params {
    /// Decodes `uri`'s query, refusing a parameter not in `known`, a repeated one, and text
    /// that is not UTF-8 once decoded.
    fn read(uri: &Uri, known: &[&str]) -> Result<Self, ApiError> {
        let mut out: Vec<(String, String)> = Vec::new();
        for pair in uri.query().unwrap_or_default().split('&') {
            if pair.is_empty() {
                continue;
            }
            let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
            let name = decode(name)?;
            let value = decode(value)?;
            if !known.contains(&name.as_str()) {
                return Err(ApiError::bad_request(
                    "unknown_parameter",
                    format!(
                        "unknown query parameter {:?}; this route reads {}",
                        shown(&name),
                        known.join(", ")
                    ),
                ));
            }
            if out.iter().any(|(n, _)| *n == name) {
                return Err(ApiError::bad_request(
                    "repeated_parameter",
                    format!("the query parameter {name:?} is given twice; give it once"),
                ));
            }
            out.push((name, value));
        }
        Ok(Self(out))
    }

    /// A parameter's value; an empty value counts as absent (a form's untouched field).
    fn get(&self, name: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
            .filter(|v| !v.is_empty())
    }

    /// The filters of the query.
    fn query(&self) -> Result<AuditQuery, ApiError> {
        let mut query = AuditQuery::all();
        if let Some(session) = self.get("session") {
            if session.len() > MAX_SESSION_ID_BYTES {
                return Err(invalid(
                    "session",
                    session,
                    &format!("session ids are at most {MAX_SESSION_ID_BYTES} bytes"),
                ));
            }
            query.session_id = Some(session.into());
        }
        if let Some(tool) = self.get("tool") {
            if tool.chars().count() > MAX_NAME_CHARS {
                return Err(invalid(
                    "tool",
                    tool,
                    &format!("tool names are at most {MAX_NAME_CHARS} characters"),
                ));
            }
            query.tool_name = Some(tool.to_owned());
        }
        if let Some(kind) = self.get("kind") {
            query.kind = Some(AuditKind::parse(kind).ok_or_else(|| {
                invalid(
                    "kind",
                    kind,
                    "use evaluation, resolution, expiry, cancel or grant_revoked",
                )
            })?);
        }
        if let Some(outcome) = self.get("outcome") {
            query.outcome = Some(match outcome {
                "allow" => Behavior::Allow,
                "ask" => Behavior::Ask,
                "deny" => Behavior::Deny,
                _ => return Err(invalid("outcome", outcome, "use allow, ask or deny")),
            });
        }
        if let Some(source) = self.get("source") {
            query.source = Some(match source {
                "policy" => PermissionDecisionSource::Policy,
                "rule" => PermissionDecisionSource::Rule,
                "auto_classifier" => PermissionDecisionSource::AutoClassifier,
                "full_access" => PermissionDecisionSource::FullAccess,
                _ => {
                    return Err(invalid(
                        "source",
                        source,
                        "use policy, rule, auto_classifier or full_access (a user's resolution is kind=resolution)",
                    ));
                }
            });
        }
        if let Some(code) = self.get("reasonCode") {
            let stem = code.strip_suffix('*').unwrap_or(code);
            let well_formed = code.chars().count() <= MAX_NAME_CHARS
                && stem
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.' | b':'));
            if !well_formed {
                return Err(invalid(
                    "reasonCode",
                    code,
                    "a reason code is letters, digits and _ - . : (at most 256), optionally ending in * to match a family",
                ));
            }
            query.reason_code = Some(code.to_owned());
        }
        query.since = self.get("since").map(|t| time("since", t)).transpose()?;
        query.until = self.get("until").map(|t| time("until", t)).transpose()?;
        if let (Some(since), Some(until)) = (query.since, query.until)
            && since >= until
        {
            return Err(ApiError::bad_request(
                "invalid_filter",
                format!(
                    "since ({since}) must be before until ({until}): the range is since included, until excluded"
                ),
            ));
        }
        if let Some(text) = self.get("q") {
            if text.chars().count() > MAX_TEXT_CHARS {
                return Err(invalid(
                    "q",
                    text,
                    &format!("the text to search is at most {MAX_TEXT_CHARS} characters"),
                ));
            }
            query.text = Some(text.to_owned());
        }
        Ok(query)
    }

    /// `cursor`: the seq the page starts below.
    fn cursor(&self) -> Result<Option<u64>, ApiError> {
        self.get("cursor")
            .map(|text| {
                text.parse::<u64>()
                    .ok()
                    .filter(|seq| (1..=i64::MAX as u64).contains(seq))
                    .ok_or_else(|| {
                        ApiError::bad_request(
                            "invalid_cursor",
                            format!(
                                "cursor {:?} is not a cursor: pass the nextCursor of the previous page (a record's seq, 1 or more)",
                                shown(text)
                            ),
                        )
                    })
            })
            .transpose()
    }

    /// `limit`: the page size.
    fn limit(&self) -> Result<usize, ApiError> {
        let Some(text) = self.get("limit") else {
            return Ok(DEFAULT_PAGE_SIZE);
        };
        text.parse::<usize>()
            .ok()
            .filter(|n| (1..=MAX_PAGE_SIZE).contains(n))
            .ok_or_else(|| {
                ApiError::bad_request(
                    "invalid_limit",
                    format!(
                        "limit {:?} must be a whole number from 1 to {MAX_PAGE_SIZE}",
                        shown(text)
                    ),
                )
            })
    }
}

/// A bad filter value: 400 `invalid_filter`, naming the parameter, its value and the fix.
fn invalid(name: &str, value: &str, fix: &str) -> ApiError {
    ApiError::bad_request(
        "invalid_filter",
        format!("{name} {:?} is not a valid filter: {fix}", shown(value)),
    )
}

/// A value as an error message quotes it: at most 100 characters.
fn shown(value: &str) -> String {
    let mut out: String = value.chars().take(100).collect();
    if value.chars().count() > 100 {
        out.push('…');
    }
    out
}

/// Percent-decodes a query component (`+` is a space).
fn decode(text: &str) -> Result<String, ApiError> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' => {
                let hex = bytes
                    .get(i + 1..i + 3)
                    .and_then(|h| std::str::from_utf8(h).ok())
                    .and_then(|h| u8::from_str_radix(h, 16).ok());
                let Some(byte) = hex else {
                    return Err(ApiError::bad_request(
                        "invalid_query",
                        format!(
                            "the query text {:?} has a % that is not followed by two hex digits",
                            shown(text)
                        ),
                    ));
                };
                out.push(byte);
                i += 2;
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8(out).map_err(|_| {
        ApiError::bad_request(
            "invalid_query",
            format!("the query text {:?} does not decode to UTF-8", shown(text)),
        )
    })
}

/// A time filter: Unix milliseconds, or an RFC 3339 date-time (`2026-11-30T22:00:00Z`,
/// `2026-11-30T23:00:00.5+01:00`) or date (`2026-11-30`, midnight UTC).
fn time(name: &str, text: &str) -> Result<i64, ApiError> {
    parse_instant(text).ok_or_else(|| {
        invalid(
            name,
            text,
            "write Unix milliseconds or an RFC 3339 time such as 2026-11-30T22:00:00Z",
        )
    })
}

/// Unix milliseconds of a time: Unix milliseconds themselves (`1796025600000`), an RFC 3339
/// date-time (`2026-11-30T22:00:00Z`, `…+01:00`, fractions of a second, seconds optional,
/// `t`/space for the `T`, `z` for `Z`, an RFC 9557 `[zone]` suffix) or a date (`2026-11-30`,
/// midnight UTC); `None` when it is none of these. The one grammar of times for the history
/// and policy replay.
pub fn parse_instant(text: &str) -> Option<i64> {
    let text = text.trim();
    if let Ok(ms) = text.parse::<i64>() {
        return Some(ms);
    }
    if let Ok(timestamp) = text.parse::<jiff::Timestamp>() {
        return Some(timestamp.as_millisecond());
    }
    let date = text.parse::<jiff::civil::Date>().ok()?;
    // A date alone is the whole text: `2026-11-30`, not a date-time without an offset.
    (date.to_string() == text)
        .then(|| date.to_zoned(jiff::tz::TimeZone::UTC).ok())
        .flatten()
        .map(|z| z.timestamp().as_millisecond())
}

/// An RFC 3339 UTC time of Unix milliseconds (`2026-11-30T22:00:00.000Z`).
fn format_rfc3339(ms: i64) -> String {
    match jiff::Timestamp::from_millisecond(ms) {
        Ok(t) => format!("{t:.3}"),
        Err(_) => ms.to_string(),
    }
}

/// Verifies the log and reports its chain.
async fn chain(store: &Arc<dyn Store>) -> Result<Chain, ApiError> {
    let report = store.verify_audit(None).await?;
    Ok(Chain::of(&report))
}

/// The seq the records served start below: the cursor, and never past what verified.
fn below(cursor: Option<u64>, chain: &Chain) -> u64 {
    let verified_end = chain.verified_through.saturating_add(1);
    cursor.map_or(verified_end, |c| c.min(verified_end))
}

/// `GET /v1/audit`: one page of the history, newest first.
///
/// Parameters: the filters `session`, `tool`, `kind`, `outcome`, `source`, `reasonCode`,
/// `since`, `until`, `q`; `cursor` (the previous page's `nextCursor`) and `limit` (1 to
/// [`MAX_PAGE_SIZE`], default [`DEFAULT_PAGE_SIZE`]). 400 naming the parameter for a bad
/// value, an unknown or a repeated parameter.
pub(super) async fn list(
    State(state): State<ServerState>,
    uri: Uri,
) -> Result<Json<Page>, ApiError> {
    let known: Vec<&str> = FILTERS.iter().copied().chain(["cursor", "limit"]).collect();
    let params = Params::read(&uri, &known)?;
    let mut query = params.query()?;
    let cursor = params.cursor()?;
    let limit = params.limit()?;
    let store = state.engine().store();
    let chain = chain(store).await?;
    query.before_seq = Some(below(cursor, &chain));
    // One more than the page: whether an older page exists.
    query.limit = Some(limit + 1);
    let mut records = store.audit_records(&query).await?;
    let more = records.len() > limit;
    if more {
        records.remove(0);
    }
    records.reverse();
    let next_cursor = more
        .then(|| records.last().map(|r| r.seq.to_string()))
        .flatten();
    Ok(Json(Page {
        records: records.iter().map(shown_record).collect(),
        next_cursor,
        limit,
        chain,
    }))
}

/// A record as the history serves it: everything but the chain's trace (which evaluator
/// did what, with timings), which is kept in the log for `warrant audit` and never sent to
/// a UI or an export.
fn shown_record(stored: &StoredAuditRecord) -> serde_json::Value {
    let mut value = serde_json::to_value(stored).unwrap_or_default();
    if let Some(map) = value.as_object_mut() {
        map.remove("trace");
    }
    value
}

/// The first row of a CSV export: the chain's state, one cell a spreadsheet shows as text
/// (`# chain: broken; verified-through=4; first-bad=5; problem=edited`).
fn csv_chain_row(chain: &Chain) -> String {
    csv_row([format!("# chain: {}", chain.header())])
}

/// What an export is written as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Format {
    Csv,
    Jsonl,
}

/// `GET /v1/audit/export?format=csv|jsonl`: every verified record that matches the filters
/// (those of [`list`], and `cursor`), newest first, streamed in batches.
///
/// The `Warrant-Audit-Chain` header carries the chain's state; a CSV export repeats it in its
/// first row (`# chain: …`, before the column names), a JSON-lines export ends with a line
/// `{"chain": {...}}`. Records never carry the chain's trace. CSV cells that a spreadsheet would read as a formula (starting
/// with `=`, `+`, `-`, `@`, a tab or a carriage return) are prefixed with `'`.
pub(super) async fn export(
    State(state): State<ServerState>,
    uri: Uri,
) -> Result<Response, ApiError> {
    let known: Vec<&str> = FILTERS
        .iter()
        .copied()
        .chain(["cursor", "format"])
        .collect();
    let params = Params::read(&uri, &known)?;
    let format = match params.get("format").unwrap_or("jsonl") {
        "csv" => Format::Csv,
        "jsonl" => Format::Jsonl,
        other => {
            return Err(ApiError::bad_request(
                "invalid_format",
                format!(
                    "format {:?} is not an export format: use csv or jsonl",
                    shown(other)
                ),
            ));
        }
    };
    let mut query = params.query()?;
    let cursor = params.cursor()?;
    let store = Arc::clone(state.engine().store());
    let chain = chain(&store).await?;
    query.limit = Some(EXPORT_BATCH);
    let header_value = chain.header();
    let first = match format {
        Format::Csv => Some(format!(
            "{}{}",
            csv_chain_row(&chain),
            csv_row(CSV_COLUMNS.iter().map(|c| c.to_string()))
        )),
        Format::Jsonl => None,
    };
    let start = Export {
        store,
        query,
        below: below(cursor, &chain),
        format,
        chain: Some(chain),
        done: false,
    };
    let head = futures::stream::iter(first.map(|line| Ok::<Bytes, StoreError>(Bytes::from(line))));
    let batches = futures::stream::unfold(start, Export::next);
    let body = Body::from_stream(futures::StreamExt::chain(head, batches));
    let (content_type, file) = match format {
        Format::Csv => ("text/csv; charset=utf-8", "warrant-audit.csv"),
        Format::Jsonl => ("application/x-ndjson; charset=utf-8", "warrant-audit.jsonl"),
    };
    let mut response = body.into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    headers.insert(
        header::CONTENT_DISPOSITION,
        HeaderValue::from_str(&format!("attachment; filename=\"{file}\""))
            .unwrap_or_else(|_| HeaderValue::from_static("attachment")),
    );
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    if let Ok(value) = HeaderValue::from_str(&header_value) {
        headers.insert(CHAIN_HEADER, value);
    }
    Ok(response)
}

/// Where a streaming export is.
struct Export {
    store: Arc<dyn Store>,
    query: AuditQuery,
    /// The seq the next batch starts below.
    below: u64,
    format: Format,
    /// The chain's state, written after the last record of a JSON-lines export.
    chain: Option<Chain>,
    done: bool,
}

impl Export {
    /// The next batch of lines; a store failure ends the body with an error, so a client
    /// never takes a cut export for a whole one.
    async fn next(mut self) -> Option<(Result<Bytes, StoreError>, Self)> {
        if self.done {
            return None;
        }
        let mut out = String::new();
        if self.below > 1 {
            self.query.before_seq = Some(self.below);
            let batch = match self.store.audit_records(&self.query).await {
                Ok(batch) => batch,
                Err(e) => {
                    self.done = true;
                    return Some((Err(e), self));
                }
            };
            if batch.len() == EXPORT_BATCH {
                self.below = batch.first().map_or(1, |r| r.seq);
            } else {
                self.below = 1;
            }
            for record in batch.iter().rev() {
                match self.format {
                    Format::Csv => out.push_str(&csv_row(csv_cells(record))),
                    Format::Jsonl => {
                        out.push_str(&shown_record(record).to_string());
                        out.push('\n');
                    }
                }
            }
        }
        if self.below <= 1 {
            self.done = true;
            if let (Format::Jsonl, Some(chain)) = (self.format, self.chain.take()) {
                let line = serde_json::json!({ "chain": chain });
                out.push_str(&line.to_string());
                out.push('\n');
            }
        }
        Some((Ok(Bytes::from(out)), self))
    }
}

/// The columns of a CSV export.
const CSV_COLUMNS: [&str; 20] = [
    "seq",
    "time",
    "at",
    "sessionId",
    "toolCallId",
    "toolName",
    "kind",
    "outcome",
    "source",
    "reasonCode",
    "risk",
    "mode",
    "reason",
    "actionId",
    "scope",
    "message",
    "evaluator",
    "reviewerModel",
    "provenance",
    "inputDigest",
];

/// A record's cells, in the order of [`CSV_COLUMNS`].
fn csv_cells(stored: &StoredAuditRecord) -> Vec<String> {
    let r = &stored.record;
    let mut cells = vec![String::new(); CSV_COLUMNS.len()];
    let mut set = |column: &str, value: String| {
        if let Some(i) = CSV_COLUMNS.iter().position(|c| *c == column) {
            cells[i] = value;
        }
    };
    set("seq", stored.seq.to_string());
    set("time", format_rfc3339(r.at));
    set("at", r.at.to_string());
    set("sessionId", r.session_id.as_str().to_owned());
    set("toolCallId", r.tool_call_id.as_str().to_owned());
    set("toolName", r.tool_name.clone());
    set("kind", AuditKind::of(&r.event).as_str().to_owned());
    match &r.event {
        AuditEvent::Evaluation {
            mode,
            input_digest,
            decision,
            ..
        } => {
            set("outcome", decision.behavior.as_str().to_owned());
            set("source", decision.source.as_str().to_owned());
            set("reasonCode", decision.reason_code.clone());
            set("risk", decision.risk.as_str().to_owned());
            set(
                "mode",
                serde_json::to_value(mode)
                    .ok()
                    .and_then(|v| v.as_str().map(str::to_owned))
                    .unwrap_or_default(),
            );
            set("reason", decision.reason.clone());
            if let Some(e) = &decision.evaluator {
                let version = e.version.as_deref().map(|v| format!(" {v}"));
                set(
                    "evaluator",
                    format!("{}{}", e.name, version.unwrap_or_default()),
                );
            }
            set(
                "reviewerModel",
                decision.reviewer_model.clone().unwrap_or_default(),
            );
            set("provenance", provenance(decision.provenance.as_ref()));
            set("inputDigest", input_digest.clone());
        }
        AuditEvent::Resolution { resolution } => {
            set(
                "outcome",
                Behavior::from(resolution.behavior).as_str().to_owned(),
            );
            set("source", "user".to_owned());
            set("actionId", resolution.action_id.clone());
            set(
                "scope",
                serde_json::to_value(resolution.scope)
                    .ok()
                    .and_then(|v| v.as_str().map(str::to_owned))
                    .unwrap_or_default(),
            );
            set("message", resolution.message.clone().unwrap_or_default());
        }
        AuditEvent::Expiry { reason } | AuditEvent::Cancel { reason } => {
            set("reason", reason.clone());
        }
        AuditEvent::GrantRevoked {
            grant_id,
            description,
        } => {
            set("reason", description.clone());
            set("provenance", format!("grant {grant_id}"));
        }
        #[allow(unreachable_patterns)]
        _ => {}
    }
    cells
}

/// A decision's provenance in a few words.
fn provenance(provenance: Option<&Provenance>) -> String {
    match provenance {
        Some(Provenance::UserRule {
            rule,
            layer,
            origin,
        }) => {
            format!("user rule {rule} ({layer}, {origin})")
        }
        Some(Provenance::Grant {
            grant_id,
            description,
            ..
        }) => format!("grant {grant_id}: {description}"),
        Some(Provenance::AutoApproved { .. }) => "auto-approved".to_owned(),
        Some(Provenance::CheckpointsOff { agent }) => format!("checkpoints off for {agent}"),
        Some(_) => "other".to_owned(),
        None => String::new(),
    }
}

/// One CSV line (RFC 4180: quoted when needed, quotes doubled, CRLF at the end); a cell a
/// spreadsheet would run as a formula is prefixed with `'`.
fn csv_row(cells: impl IntoIterator<Item = String>) -> String {
    let mut line = String::new();
    for (i, cell) in cells.into_iter().enumerate() {
        if i > 0 {
            line.push(',');
        }
        line.push_str(&csv_cell(&cell));
    }
    line.push_str("\r\n");
    line
}

/// One CSV cell, neutralized and escaped.
fn csv_cell(cell: &str) -> String {
    let neutral = if cell.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        format!("'{cell}")
    } else {
        cell.to_owned()
    };
    if neutral.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", neutral.replace('"', "\"\""))
    } else {
        neutral
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use warrant_core::audit::{AuditProblem, AuditVerification};

    #[test]
    fn csv_cells_are_escaped_and_never_formulas() {
        assert_eq!(csv_cell("plain"), "plain");
        assert_eq!(csv_cell("a,b"), "\"a,b\"");
        assert_eq!(csv_cell("say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(csv_cell("two\nlines"), "\"two\nlines\"");
        assert_eq!(csv_cell("=HYPERLINK(\"x\")"), "\"'=HYPERLINK(\"\"x\"\")\"");
        assert_eq!(csv_cell("+1"), "'+1");
        assert_eq!(csv_cell("-2"), "'-2");
        assert_eq!(csv_cell("@SUM(A1)"), "'@SUM(A1)");
        assert_eq!(csv_cell("\tx"), "'\tx");
        assert_eq!(csv_row(["a".into(), "".into(), "b c".into()]), "a,,b c\r\n");
    }

    #[test]
    fn times_read_as_milliseconds_or_rfc_3339() {
        assert_eq!(time("since", "1700000000000").unwrap(), 1_700_000_000_000);
        assert_eq!(parse_instant("1970-01-01"), Some(0));
        assert_eq!(parse_instant("1970-01-01T00:00:01Z"), Some(1_000));
        assert_eq!(parse_instant("1970-01-01T01:00:00.25+01:00"), Some(250));
        assert_eq!(parse_instant("2000-02-29T00:00:00Z"), Some(951_782_400_000));
        assert_eq!(parse_instant("2001-02-29"), None);
        assert_eq!(parse_instant("2026-13-01"), None);
        assert_eq!(parse_instant("2026-11-30T25:00:00Z"), None);
        assert_eq!(parse_instant("yesterday"), None);
        let err = time("until", "yesterday").unwrap_err();
        assert!(
            err.message.contains("until \"yesterday\""),
            "{}",
            err.message
        );
    }

    #[test]
    fn times_format_back_as_utc() {
        for ms in [0, 1_000, 951_782_400_000, 1_764_540_000_123] {
            let text = format_rfc3339(ms);
            assert_eq!(parse_instant(&text), Some(ms), "{text}");
        }
        assert_eq!(format_rfc3339(250), "1970-01-01T00:00:00.250Z");
    }

    fn report(records: u64, first_bad: Option<(u64, AuditProblem)>) -> AuditVerification {
        AuditVerification {
            records,
            head_seq: records,
            head_hash: "ab".into(),
            key_id: "k1".into(),
            legacy_records: 0,
            checkpoint_seq: None,
            first_bad: first_bad.map(|(seq, problem)| warrant_core::audit::AuditBreak {
                seq,
                problem,
                detail: "evidence".into(),
            }),
        }
    }

    #[test]
    fn the_chain_serves_what_verified_and_no_more() {
        let intact = Chain::of(&report(9, None));
        assert_eq!(
            (intact.status, intact.verified_through, intact.verified),
            ("intact", 9, true)
        );
        assert!(intact.keyed);
        assert_eq!(intact.legacy_records, 0);
        assert_eq!(intact.header(), "intact; verified-through=9");
        // Keyed, with older records covered only by the unkeyed chain: both said apart.
        let mixed = Chain::of(&AuditVerification {
            legacy_records: 3,
            ..report(9, None)
        });
        assert!(mixed.keyed);
        assert_eq!(mixed.legacy_records, 3);
        let unkeyed = Chain::of(&AuditVerification {
            key_id: String::new(),
            ..report(9, None)
        });
        assert!(!unkeyed.keyed);
        let edited = Chain::of(&report(9, Some((4, AuditProblem::Edited))));
        assert_eq!(
            (edited.status, edited.verified_through, edited.verified),
            ("broken", 3, false)
        );
        assert_eq!(
            edited.header(),
            "broken; verified-through=3; first-bad=4; problem=edited"
        );
        let first = Chain::of(&report(9, Some((1, AuditProblem::Missing))));
        assert_eq!((first.status, first.verified_through), ("broken", 0));
        // Every record checked, only the end unanchored: all are served, with a warning.
        let unanchored = Chain::of(&report(9, Some((9, AuditProblem::Unanchored))));
        assert_eq!(
            (unanchored.status, unanchored.verified_through),
            ("unanchored", 9)
        );
        assert!(!unanchored.verified);
        // An unreadable checkpoint file stops the check before any record: none is served.
        let unread = Chain::of(&report(0, Some((0, AuditProblem::Unanchored))));
        assert_eq!((unread.status, unread.verified_through), ("broken", 0));
        assert_eq!(below(None, &unread), 1);
        assert_eq!(
            below(Some(5), &edited),
            4,
            "a cursor never reaches past the break"
        );
        assert_eq!(below(Some(2), &edited), 2);
    }

    #[test]
    fn query_components_are_percent_decoded() {
        assert_eq!(decode("a+b%2Cc%C3%A9").unwrap(), "a b,cé");
        assert_eq!(decode("%zz").unwrap_err().code, "invalid_query");
        assert_eq!(decode("%ff").unwrap_err().code, "invalid_query");
    }
}
