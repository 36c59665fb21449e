//! The decision history: `GET /v1/audit` (every filter, paging from the newest record back
//! with each edge, the chain's state) and `GET /v1/audit/export` (CSV and JSON lines).

use warrant_core::ids::{SessionId, ToolCallId};
mod support;

use std::sync::Arc;

use async_trait::async_trait;
use axum::body::Body;
use axum::http::{Method, StatusCode, header};
use serde_json::{Value, json};
use warrant_core::audit::{AuditEvent, AuditRecord};
use warrant_core::call::PermissionMode;
use warrant_core::chain::ChainTrace;
use warrant_core::decision::{
    Behavior, PermissionDecisionSource, ResolutionBehavior, ResolutionSource, Risk, Scope,
    ToolPermissionDecision, ToolPermissionResolution,
};
use warrant_core::event::Event;
use warrant_core::grant::Grant;
use warrant_core::part::{Message, ToolPart};
use warrant_core::store::*;
use warrant_core::workspace::WorkspaceState;
use warrant_server::{AgentCredential, ServerConfig};

use support::failing::FailingStore;
use support::{Reply, Server, TOKEN, request};

const AGENT_TOKEN: &str = "agent-token-for-history";

/// An evaluation of `tool` in `session` at `at` that decided `behavior` from `source` with
/// `code` and `reason`.
fn evaluation(
    session: &str,
    call: &str,
    tool: &str,
    at: i64,
    (behavior, source, code): (Behavior, PermissionDecisionSource, &str),
    reason: &str,
) -> AuditRecord {
    AuditRecord {
        at,
        session_id: session.into(),
        tool_call_id: call.into(),
        tool_name: tool.into(),
        event: AuditEvent::Evaluation {
            mode: PermissionMode::Default,
            input_digest: "ab".repeat(32),
            decision: ToolPermissionDecision {
                tool_call_id: call.into(),
                behavior,
                source,
                reason: reason.into(),
                reason_code: code.into(),
                risk: Risk::Medium,
                confidence: None,
                risk_categories: None,
                reviewer_model: None,
                review: Default::default(),
                provenance: None,
                evaluator: None,
            },
            trace: ChainTrace::default(),
        },
    }
}

fn resolution(
    session: &str,
    call: &str,
    tool: &str,
    at: i64,
    behavior: ResolutionBehavior,
) -> AuditRecord {
    AuditRecord {
        at,
        session_id: session.into(),
        tool_call_id: call.into(),
        tool_name: tool.into(),
        event: AuditEvent::Resolution {
            resolution: ToolPermissionResolution {
                tool_call_id: call.into(),
                behavior,
                source: ResolutionSource::User,
                action_id: "allow_once".into(),
                scope: Scope::Once,
                message: None,
            },
        },
    }
}

const POLICY_ALLOW: (Behavior, PermissionDecisionSource, &str) = (
    Behavior::Allow,
    PermissionDecisionSource::Policy,
    "read_only_view",
);
const POLICY_DENY: (Behavior, PermissionDecisionSource, &str) = (
    Behavior::Deny,
    PermissionDecisionSource::Policy,
    "shell_destructive",
);
const RULE_ASK: (Behavior, PermissionDecisionSource, &str) = (
    Behavior::Ask,
    PermissionDecisionSource::Rule,
    "normalized_rule_ask",
);
const CLASSIFIER_ALLOW: (Behavior, PermissionDecisionSource, &str) = (
    Behavior::Allow,
    PermissionDecisionSource::AutoClassifier,
    "auto_classifier_allow",
);

/// 2026-11-30T00:00:00Z in Unix milliseconds.
const DAY: i64 = 1_795_996_800_000;

/// Seven records, `at` one hour apart from `DAY`:
/// 1 view allow s1 · 2 Bash deny s1 · 3 Bash ask s2 · 4 its allow by the user s2 ·
/// 5 Write allow (classifier) s1 · 6 Write ask s1 · 7 view allow s2.
async fn seven(server: &Server) {
    let hour = 3_600_000;
    let records = [
        evaluation("s1", "c1", "view", DAY, POLICY_ALLOW, "Reads a file"),
        evaluation(
            "s1",
            "c2",
            "Bash",
            DAY + hour,
            POLICY_DENY,
            "rm -rf removes the tree",
        ),
        evaluation(
            "s2",
            "c3",
            "Bash",
            DAY + 2 * hour,
            RULE_ASK,
            "Your rule asks for git push",
        ),
        resolution(
            "s2",
            "c3",
            "Bash",
            DAY + 3 * hour,
            ResolutionBehavior::Allow,
        ),
        evaluation(
            "s1",
            "c5",
            "Write",
            DAY + 4 * hour,
            CLASSIFIER_ALLOW,
            "A local edit",
        ),
        evaluation(
            "s1",
            "c6",
            "Write",
            DAY + 5 * hour,
            RULE_ASK,
            "Writes .github/workflows",
        ),
        evaluation(
            "s2",
            "c7",
            "view",
            DAY + 6 * hour,
            POLICY_ALLOW,
            "Reads README.md",
        ),
    ];
    for record in records {
        server.engine().store().append_audit(record).await.unwrap();
    }
}

async fn get(server: &Server, path: &str) -> Reply {
    server.send(Method::GET, path, None).await
}

/// The seqs of a page, in the order served.
fn seqs(page: &Value) -> Vec<u64> {
    page["records"]
        .as_array()
        .unwrap_or_else(|| panic!("no records: {page}"))
        .iter()
        .map(|r| r["seq"].as_u64().unwrap())
        .collect()
}

async fn page(server: &Server, path: &str) -> Value {
    let reply = get(server, path).await;
    assert_eq!(reply.status, StatusCode::OK, "{path}: {}", reply.text);
    reply.json()
}

async fn filtered(server: &Server, query: &str) -> Vec<u64> {
    seqs(&page(server, &format!("/v1/audit?{query}")).await)
}

#[tokio::test]
async fn an_empty_log_is_an_empty_intact_page() {
    let server = Server::new().await;
    let body = page(&server, "/v1/audit").await;
    assert_eq!(body["records"], json!([]));
    assert_eq!(body["nextCursor"], Value::Null);
    assert_eq!(body["limit"], 50);
    assert_eq!(body["chain"]["status"], "intact");
    assert_eq!(body["chain"]["verified"], true);
    assert_eq!(body["chain"]["verifiedThrough"], 0);
}

#[tokio::test]
async fn a_decided_call_is_in_the_history_without_its_input() {
    let server = Server::new().await;
    let call = json!({"toolCallId": "call-1", "toolName": "view", "input": {"path": "notes/very-private-name.txt"}});
    let reply = server
        .send(Method::POST, "/v1/sessions/s1/tool-calls", Some(call))
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    let reply = get(&server, "/v1/audit").await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    let body = reply.json();
    let record = &body["records"][0];
    assert_eq!(record["seq"], 1);
    assert_eq!(record["kind"], "evaluation");
    assert_eq!(record["sessionId"], "s1");
    assert_eq!(record["toolCallId"], "call-1");
    assert_eq!(record["toolName"], "view");
    assert_eq!(record["decision"]["behavior"], "allow");
    assert_eq!(record["decision"]["source"], "policy");
    assert!(
        !reply.text.contains("very-private-name"),
        "the call's input never reaches the history: {}",
        reply.text
    );
    assert_eq!(body["chain"]["status"], "intact");
    assert_eq!(body["chain"]["verifiedThrough"], 1);
}

#[tokio::test]
async fn pages_run_newest_first_to_a_short_last_page() {
    let server = Server::new().await;
    seven(&server).await;
    let first = page(&server, "/v1/audit?limit=3").await;
    assert_eq!(seqs(&first), [7, 6, 5]);
    assert_eq!(first["nextCursor"], "5");
    assert_eq!(first["limit"], 3);
    let second = page(&server, "/v1/audit?limit=3&cursor=5").await;
    assert_eq!(seqs(&second), [4, 3, 2]);
    assert_eq!(second["nextCursor"], "2");
    let last = page(&server, "/v1/audit?limit=3&cursor=2").await;
    assert_eq!(seqs(&last), [1]);
    assert_eq!(
        last["nextCursor"],
        Value::Null,
        "the last page names no next"
    );
    // A page that ends exactly at the first record names no next page either.
    let exact = page(&server, "/v1/audit?limit=7").await;
    assert_eq!(seqs(&exact), [7, 6, 5, 4, 3, 2, 1]);
    assert_eq!(exact["nextCursor"], Value::Null);
    let default = page(&server, "/v1/audit").await;
    assert_eq!(seqs(&default), [7, 6, 5, 4, 3, 2, 1]);
    // The chain's trace stays in the log: never sent to a UI.
    for record in default["records"].as_array().unwrap() {
        assert!(record.get("trace").is_none(), "{record}");
        assert!(record.get("seq").is_some(), "{record}");
    }
}

#[tokio::test]
async fn a_cursor_past_either_end_is_a_page_not_an_error() {
    let server = Server::new().await;
    seven(&server).await;
    let beyond = page(&server, "/v1/audit?limit=2&cursor=1000").await;
    assert_eq!(
        seqs(&beyond),
        [7, 6],
        "a cursor past the newest record reads from the end"
    );
    let before_first = page(&server, "/v1/audit?cursor=1").await;
    assert_eq!(
        seqs(&before_first),
        Vec::<u64>::new(),
        "nothing lies before record 1"
    );
    assert_eq!(before_first["nextCursor"], Value::Null);
}

#[tokio::test]
async fn a_bad_cursor_is_refused_naming_it() {
    let server = Server::new().await;
    seven(&server).await;
    for bad in ["abc", "0", "-1", "1.5", "99999999999999999999"] {
        let reply = get(&server, &format!("/v1/audit?cursor={bad}")).await;
        reply.assert_error(StatusCode::BAD_REQUEST, "invalid_cursor");
        assert!(
            reply.json()["error"]["message"]
                .as_str()
                .unwrap()
                .contains(&format!("\"{bad}\"")),
            "{}",
            reply.text
        );
    }
}

#[tokio::test]
async fn the_page_size_is_bounded() {
    let server = Server::new().await;
    seven(&server).await;
    assert_eq!(filtered(&server, "limit=1").await, [7]);
    assert_eq!(filtered(&server, "limit=200").await.len(), 7);
    for bad in ["0", "201", "ten", "-3"] {
        let reply = get(&server, &format!("/v1/audit?limit={bad}")).await;
        reply.assert_error(StatusCode::BAD_REQUEST, "invalid_limit");
        let message = reply.json()["error"]["message"]
            .as_str()
            .unwrap()
            .to_owned();
        assert!(message.contains(&format!("\"{bad}\"")), "{message}");
        assert!(message.contains("1 to 200"), "{message}");
    }
}

#[tokio::test]
async fn each_filter_selects_its_records() {
    let server = Server::new().await;
    seven(&server).await;
    assert_eq!(filtered(&server, "session=s2").await, [7, 4, 3]);
    assert_eq!(filtered(&server, "tool=Bash").await, [4, 3, 2]);
    assert_eq!(filtered(&server, "tool=bash").await, Vec::<u64>::new());
    assert_eq!(filtered(&server, "kind=resolution").await, [4]);
    assert_eq!(filtered(&server, "outcome=allow").await, [7, 5, 4, 1]);
    assert_eq!(filtered(&server, "outcome=ask").await, [6, 3]);
    assert_eq!(filtered(&server, "outcome=deny").await, [2]);
    assert_eq!(filtered(&server, "source=rule").await, [6, 3]);
    assert_eq!(filtered(&server, "source=auto_classifier").await, [5]);
    assert_eq!(filtered(&server, "reasonCode=shell_destructive").await, [2]);
    assert_eq!(
        filtered(&server, "reasonCode=normalized_rule_*").await,
        [6, 3]
    );
    // The range includes `since` and excludes `until`; both read milliseconds or RFC 3339.
    let (one, three) = (DAY + 3_600_000, DAY + 3 * 3_600_000);
    assert_eq!(
        filtered(&server, &format!("since={one}&until={three}")).await,
        [3, 2]
    );
    assert_eq!(
        filtered(
            &server,
            "since=2026-11-30T01:00:00Z&until=2026-11-30T03:00:00Z"
        )
        .await,
        [3, 2]
    );
    assert_eq!(
        filtered(
            &server,
            "since=2026-11-30T02:00:00%2B01:00&until=2026-11-30T03:00:00%2B01:00"
        )
        .await,
        [2],
        "an offset is honoured"
    );
    assert_eq!(
        filtered(&server, "until=2026-11-30").await,
        Vec::<u64>::new()
    );
    assert_eq!(
        filtered(&server, "q=GIT+PUSH").await,
        [3],
        "text ignores case"
    );
    assert_eq!(filtered(&server, "q=.github").await, [6]);
    assert_eq!(
        filtered(&server, "q=c3").await,
        [4, 3],
        "call ids are searched"
    );
    // Filters combine, and empty values count as absent (a form's untouched fields).
    assert_eq!(
        filtered(&server, "session=s1&outcome=allow&tool=").await,
        [5, 1]
    );
    assert_eq!(
        filtered(&server, "session=s1&tool=Write&outcome=ask").await,
        [6]
    );
}

#[tokio::test]
async fn filtered_pages_hold_matches_only() {
    let server = Server::new().await;
    seven(&server).await;
    let first = page(&server, "/v1/audit?outcome=allow&limit=2").await;
    assert_eq!(seqs(&first), [7, 5]);
    assert_eq!(first["nextCursor"], "5");
    let second = page(&server, "/v1/audit?outcome=allow&limit=2&cursor=5").await;
    assert_eq!(seqs(&second), [4, 1]);
    assert_eq!(second["nextCursor"], Value::Null);
}

#[tokio::test]
async fn a_bad_filter_is_refused_naming_the_parameter_and_value() {
    let server = Server::new().await;
    let long = "x".repeat(300);
    let cases: Vec<(String, &str, &str)> = vec![
        (
            "outcome=maybe".into(),
            "invalid_filter",
            "outcome \"maybe\"",
        ),
        ("source=user".into(), "invalid_filter", "source \"user\""),
        (
            "kind=decision".into(),
            "invalid_filter",
            "kind \"decision\"",
        ),
        (
            "since=yesterday".into(),
            "invalid_filter",
            "since \"yesterday\"",
        ),
        (
            "until=2026-02-30".into(),
            "invalid_filter",
            "until \"2026-02-30\"",
        ),
        (
            "since=2000&until=1000".into(),
            "invalid_filter",
            "since (2000) must be before until (1000)",
        ),
        (
            "reasonCode=a%20b".into(),
            "invalid_filter",
            "reasonCode \"a b\"",
        ),
        (format!("tool={long}"), "invalid_filter", "tool \"xxx"),
        (
            format!("session={long}"),
            "invalid_filter",
            "at most 256 bytes",
        ),
        (
            format!("q={long}"),
            "invalid_filter",
            "at most 200 characters",
        ),
        ("tools=Bash".into(), "unknown_parameter", "\"tools\""),
        ("tool=a&tool=b".into(), "repeated_parameter", "\"tool\""),
        ("q=%E2%28".into(), "invalid_query", "UTF-8"),
        ("q=100%".into(), "invalid_query", "two hex digits"),
        ("format=csv".into(), "unknown_parameter", "\"format\""),
    ];
    for (query, code, named) in cases {
        let reply = get(&server, &format!("/v1/audit?{query}")).await;
        reply.assert_error(StatusCode::BAD_REQUEST, code);
        let message = reply.json()["error"]["message"]
            .as_str()
            .unwrap()
            .to_owned();
        assert!(message.contains(named), "{query}: {message}");
    }
}

#[tokio::test]
async fn the_history_is_a_persons_route() {
    let mut config = ServerConfig::new(TOKEN);
    config.agents = vec![AgentCredential::new("bot", AGENT_TOKEN)];
    let server = Server::with(Arc::new(MemoryStore::new()), config).await;
    seven(&server).await;
    for path in ["/v1/audit", "/v1/audit/export?format=csv"] {
        let agent = server
            .raw(
                request(Method::GET, path)
                    .header(header::AUTHORIZATION, format!("Bearer {AGENT_TOKEN}"))
                    .body(Body::empty())
                    .unwrap(),
            )
            .await;
        agent.assert_error(StatusCode::FORBIDDEN, "person_only");
        assert!(!agent.text.contains("c1"), "{}", agent.text);
        let anonymous = server
            .raw(request(Method::GET, path).body(Body::empty()).unwrap())
            .await;
        anonymous.assert_error(StatusCode::UNAUTHORIZED, "missing_token");
    }
}

#[tokio::test]
async fn a_failing_store_is_a_503() {
    let store = FailingStore::new();
    let server = Server::with(store.clone(), ServerConfig::new(TOKEN)).await;
    store.fail();
    get(&server, "/v1/audit")
        .await
        .assert_error(StatusCode::SERVICE_UNAVAILABLE, "store_unavailable");
    get(&server, "/v1/audit/export")
        .await
        .assert_error(StatusCode::SERVICE_UNAVAILABLE, "store_unavailable");
}

/// A memory store that has lost one audit record: the log skips it, as a deleted row would.
struct Gapped {
    inner: MemoryStore,
    lost: u64,
}

#[async_trait]
impl AuditLog for Gapped {
    async fn append_audit(&self, record: AuditRecord) -> Result<u64, StoreError> {
        self.inner.append_audit(record).await
    }

    async fn audit_records(
        &self,
        query: &AuditQuery,
    ) -> Result<Vec<StoredAuditRecord>, StoreError> {
        let mut records = self.inner.audit_records(query).await?;
        records.retain(|r| r.seq != self.lost);
        Ok(records)
    }
}

#[async_trait]
impl EventLog for Gapped {
    async fn append_event(&self, session_id: &SessionId, event: &Event) -> Result<u64, StoreError> {
        self.inner.append_event(session_id, event).await
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
impl Conversations for Gapped {
    async fn upsert_tool_part(
        &self,
        session_id: &SessionId,
        message_id: &str,
        part: &ToolPart,
    ) -> Result<(), StoreError> {
        self.inner
            .upsert_tool_part(session_id, message_id, part)
            .await
    }

    async fn messages(&self, session_id: &SessionId) -> Result<Vec<Message>, StoreError> {
        self.inner.messages(session_id).await
    }
}

#[async_trait]
impl Approvals for Gapped {
    async fn put_pending_approval(&self, pending: &PendingApproval) -> Result<(), StoreError> {
        self.inner.put_pending_approval(pending).await
    }

    async fn remove_pending_approval(&self, tool_call_id: &ToolCallId) -> Result<(), StoreError> {
        self.inner.remove_pending_approval(tool_call_id).await
    }

    async fn pending_approvals(&self) -> Result<Vec<PendingApproval>, StoreError> {
        self.inner.pending_approvals().await
    }

    async fn put_grant(&self, grant: &Grant) -> Result<(), StoreError> {
        self.inner.put_grant(grant).await
    }

    async fn grants(&self) -> Result<Vec<Grant>, StoreError> {
        self.inner.grants().await
    }

    async fn remove_grant(&self, grant_id: &str) -> Result<bool, StoreError> {
        self.inner.remove_grant(grant_id).await
    }
}

#[async_trait]
impl WorkspaceStore for Gapped {
    async fn load_workspace(&self) -> Result<Option<WorkspaceState>, StoreError> {
        self.inner.load_workspace().await
    }

    async fn save_workspace(&self, workspace: &WorkspaceState) -> Result<(), StoreError> {
        self.inner.save_workspace(workspace).await
    }
}

#[tokio::test]
async fn a_broken_chain_is_reported_and_only_verified_records_are_served() {
    let store = Arc::new(Gapped {
        inner: MemoryStore::new(),
        lost: 5,
    });
    let server = Server::with(store, ServerConfig::new(TOKEN)).await;
    seven(&server).await;
    let body = page(&server, "/v1/audit").await;
    let chain = &body["chain"];
    assert_eq!(chain["status"], "broken", "{chain}");
    assert_eq!(chain["verified"], false);
    assert_eq!(chain["verifiedThrough"], 4);
    assert_eq!(chain["firstBad"]["seq"], 5);
    assert_eq!(chain["firstBad"]["problem"], "missing");
    // A store without an audit key: not keyed, every record checked against the unkeyed
    // chain only, and both are said.
    assert_eq!(chain["keyed"], false);
    assert!(chain["legacyRecords"].as_u64().unwrap() > 0, "{chain}");
    assert!(
        chain["message"]
            .as_str()
            .unwrap()
            .contains("audit record 5 is missing"),
        "{chain}"
    );
    assert_eq!(
        seqs(&body),
        [4, 3, 2, 1],
        "records past the break are not served as verified"
    );
    // A cursor cannot reach past the break either.
    assert_eq!(filtered(&server, "cursor=7").await, [4, 3, 2, 1]);

    let export = server
        .open(
            request(Method::GET, "/v1/audit/export?format=jsonl")
                .header(header::AUTHORIZATION, format!("Bearer {TOKEN}"))
                .body(Body::empty())
                .unwrap(),
        )
        .await;
    assert_eq!(
        export.headers()["warrant-audit-chain"],
        "broken; verified-through=4; first-bad=5; problem=missing"
    );
    let text = String::from_utf8(
        axum::body::to_bytes(export.into_body(), usize::MAX)
            .await
            .unwrap()
            .to_vec(),
    )
    .unwrap();
    let lines: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 5, "{text}");
    assert_eq!(lines[0]["seq"], 4);
    assert!(lines[0].get("trace").is_none(), "{}", lines[0]);
    assert_eq!(
        lines[4]["chain"]["status"], "broken",
        "the export says so at its end"
    );

    // A CSV export says so in the file itself, in its first row.
    let csv = get(&server, "/v1/audit/export?format=csv").await;
    assert_eq!(csv.status, StatusCode::OK, "{}", csv.text);
    let mut rows = csv.text.split("\r\n");
    assert_eq!(
        rows.next().unwrap(),
        "# chain: broken; verified-through=4; first-bad=5; problem=missing"
    );
    assert!(rows.next().unwrap().starts_with("seq,time,"));
    assert!(rows.next().unwrap().starts_with("4,"));
}

#[tokio::test]
async fn a_csv_export_is_escaped_and_never_a_formula() {
    let server = Server::new().await;
    seven(&server).await;
    let hostile = evaluation(
        "s3",
        "c8",
        "=HYPERLINK(\"http://evil\",\"x\")",
        DAY + 7 * 3_600_000,
        POLICY_DENY,
        "-2+3, and \"quoted\"\nsecond line",
    );
    server.engine().store().append_audit(hostile).await.unwrap();
    let reply = get(&server, "/v1/audit/export?format=csv").await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    assert_eq!(reply.content_type, "text/csv; charset=utf-8");
    let mut lines = reply.text.split("\r\n");
    assert_eq!(lines.next().unwrap(), "# chain: intact; verified-through=8");
    assert_eq!(
        lines.next().unwrap(),
        "seq,time,at,sessionId,toolCallId,toolName,kind,outcome,source,reasonCode,risk,mode,reason,actionId,scope,message,evaluator,reviewerModel,provenance,inputDigest"
    );
    let first = lines.next().unwrap();
    assert!(
        first.starts_with("8,2026-11-30T07:00:00.000Z,1796022000000,s3,c8,\"'=HYPERLINK(\"\"http://evil\"\",\"\"x\"\")\",evaluation,deny,policy,shell_destructive,medium,default,\"'-2+3, and \"\"quoted\"\"\nsecond line\","),
        "{first}"
    );
    let rows: Vec<&str> = reply.text.trim_end().split("\r\n").skip(2).collect();
    assert_eq!(rows.len(), 8, "{}", reply.text);
    assert!(rows[1].starts_with("7,"), "newest first: {}", rows[1]);
    assert!(
        rows.iter().any(|r| r.starts_with("4,")
            && r.contains(",resolution,allow,user,")
            && r.contains(",allow_once,once,")),
        "{}",
        reply.text
    );

    let filtered = get(
        &server,
        "/v1/audit/export?format=csv&session=s2&outcome=allow",
    )
    .await;
    let rows: Vec<&str> = filtered.text.trim_end().split("\r\n").skip(2).collect();
    assert_eq!(
        rows.iter()
            .map(|r| r.split(',').next().unwrap())
            .collect::<Vec<_>>(),
        ["7", "4"]
    );
}

#[tokio::test]
async fn a_jsonl_export_streams_every_record_in_batches() {
    let server = Server::new().await;
    let store = server.engine().store();
    for i in 1..=1_234 {
        let behaviour = if i % 3 == 0 {
            POLICY_DENY
        } else {
            POLICY_ALLOW
        };
        store
            .append_audit(evaluation(
                "s1",
                &format!("c{i}"),
                "view",
                DAY + i,
                behaviour,
                "r",
            ))
            .await
            .unwrap();
    }
    let response = server
        .open(
            request(Method::GET, "/v1/audit/export")
                .header(header::AUTHORIZATION, format!("Bearer {TOKEN}"))
                .body(Body::empty())
                .unwrap(),
        )
        .await;
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(
        response.headers()[header::CONTENT_TYPE],
        "application/x-ndjson; charset=utf-8",
        "JSON lines unless told otherwise"
    );
    assert_eq!(
        response.headers()[header::CONTENT_DISPOSITION],
        "attachment; filename=\"warrant-audit.jsonl\""
    );
    assert_eq!(
        response.headers()["warrant-audit-chain"],
        "intact; verified-through=1234"
    );
    let text = String::from_utf8(
        axum::body::to_bytes(response.into_body(), usize::MAX)
            .await
            .unwrap()
            .to_vec(),
    )
    .unwrap();
    let lines: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 1_235);
    let order: Vec<u64> = lines[..1_234]
        .iter()
        .map(|l| l["seq"].as_u64().unwrap())
        .collect();
    assert_eq!(order, (1..=1_234).rev().collect::<Vec<u64>>());
    assert_eq!(lines[1_234]["chain"]["status"], "intact");

    let denials = get(
        &server,
        "/v1/audit/export?format=jsonl&outcome=deny&cursor=1000",
    )
    .await;
    let seqs: Vec<u64> = denials
        .text
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).unwrap()["seq"].as_u64())
        .collect();
    assert_eq!(seqs.len(), 333, "every third record below 1000");
    assert!(seqs.iter().all(|s| s % 3 == 0 && *s < 1000));
}

#[tokio::test]
async fn an_unknown_export_format_is_refused() {
    let server = Server::new().await;
    let reply = get(&server, "/v1/audit/export?format=xlsx").await;
    reply.assert_error(StatusCode::BAD_REQUEST, "invalid_format");
    assert!(
        reply.text.contains("\\\"xlsx\\\"") || reply.text.contains("\"xlsx\""),
        "{}",
        reply.text
    );
    get(&server, "/v1/audit/export?limit=3")
        .await
        .assert_error(StatusCode::BAD_REQUEST, "unknown_parameter");
}
