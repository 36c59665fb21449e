//! `warrant replay --with NEW.toml [--session ID] [--since T] [--json]`: tightening a rule
//! turns recorded allows into asks and denies, and the report says so (counts, grouped by
//! reason code); the filters select the calls; bad inputs name the bad value; nothing is
//! written; secrets kept in the chat never show.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use warrant_core::ids::SessionId;

use serde_json::{Value, json};
use warrant_core::audit::{AuditEvent, AuditRecord, digest};
use warrant_core::call::PermissionMode;
use warrant_core::chain::ChainTrace;
use warrant_core::decision::{Behavior, PermissionDecisionSource, Risk, ToolPermissionDecision};
use warrant_core::event::Event;
use warrant_core::part::ToolPart;
use warrant_core::store::{
    Approvals, AuditLog, AuditQuery, Conversations, EventLog, WorkspaceStore,
};
use warrant_stores::SqliteConfig;
use warrant_stores::sqlite::AUDIT_KEY_ENV;

/// The secret one recorded input carries; the chat keeps it, the report must not show it.
const SECRET: &str = "ghp_abcdefghijklmnopqrstuvwx1234";

const JAN_10: i64 = 1_768_003_200_000;
const JAN_11: i64 = 1_768_089_600_000;
const JAN_12: i64 = 1_768_176_000_000;
const JUN_1_0900: i64 = 1_780_304_400_000;
const JUN_2: i64 = 1_780_358_400_000;

/// One recorded call: its evaluation record and, unless `part` is false, its tool part.
struct Recorded {
    at: i64,
    session: &'static str,
    id: &'static str,
    input: Value,
    behavior: Behavior,
    reason_code: &'static str,
    part: bool,
}

fn record(call: &Recorded) -> AuditRecord {
    record_in(call, PermissionMode::Default, "Bash")
}

fn record_in(call: &Recorded, mode: PermissionMode, tool: &str) -> AuditRecord {
    AuditRecord {
        at: call.at,
        session_id: call.session.to_owned().into(),
        tool_call_id: call.id.to_owned().into(),
        tool_name: tool.to_owned(),
        event: AuditEvent::Evaluation {
            mode,
            input_digest: digest(&call.input),
            decision: ToolPermissionDecision {
                tool_call_id: call.id.to_owned().into(),
                behavior: call.behavior,
                source: PermissionDecisionSource::Policy,
                reason: "recorded".to_owned(),
                reason_code: call.reason_code.to_owned(),
                risk: Risk::Safe,
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

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
}

/// A data directory with five recorded calls in two sessions (what the policy decided for
/// them), four with their tool parts, and one event in each session's event log.
fn seed(data_dir: &Path) {
    let calls = [
        Recorded {
            at: JAN_10,
            session: "s1",
            id: "c1",
            input: json!({"command": "git status"}),
            behavior: Behavior::Allow,
            reason_code: "shell_read_only",
            part: true,
        },
        Recorded {
            at: JAN_11,
            session: "s1",
            id: "c2",
            input: json!({"command": "git log"}),
            behavior: Behavior::Allow,
            reason_code: "shell_read_only",
            part: true,
        },
        Recorded {
            at: JAN_12,
            session: "s1",
            id: "c5",
            input: json!({"command": "git status"}),
            behavior: Behavior::Allow,
            reason_code: "shell_read_only",
            part: false,
        },
        Recorded {
            at: JUN_1_0900,
            session: "s2",
            id: "c3",
            input: json!({"command": "git status", "description": format!("GITHUB_TOKEN={SECRET}")}),
            behavior: Behavior::Allow,
            reason_code: "shell_read_only",
            part: true,
        },
        Recorded {
            at: JUN_2,
            session: "s2",
            id: "c4",
            input: json!({"command": "git push"}),
            behavior: Behavior::Ask,
            reason_code: "shell_network",
            part: true,
        },
    ];
    runtime().block_on(async {
        let store = SqliteConfig::in_dir(data_dir).open().unwrap();
        for call in &calls {
            store.append_audit(record(call)).await.unwrap();
            if call.part {
                let mut part = ToolPart::new(call.id, "Bash");
                part.input = Some(call.input.clone());
                store
                    .upsert_tool_part(
                        &SessionId::from(call.session),
                        &format!("msg-{}", call.id),
                        &part,
                    )
                    .await
                    .unwrap();
            }
        }
        let event: Event =
            serde_json::from_value(json!({"type": "RUN_ERROR", "message": "an earlier run"}))
                .unwrap();
        for session in ["s1", "s2"] {
            store
                .append_event(&SessionId::from(session), &event)
                .await
                .unwrap();
        }
    });
}

/// Appends one more recorded call of `tool` in `mode`, with its tool part.
fn append(data_dir: &Path, call: &Recorded, mode: PermissionMode, tool: &str) {
    runtime().block_on(async {
        let store = SqliteConfig::in_dir(data_dir)
            .session_idle_expiry_secs(0)
            .open()
            .unwrap();
        store
            .append_audit(record_in(call, mode, tool))
            .await
            .unwrap();
        let mut part = ToolPart::new(call.id, tool);
        part.input = Some(call.input.clone());
        store
            .upsert_tool_part(
                &SessionId::from(call.session),
                &format!("msg-{}", call.id),
                &part,
            )
            .await
            .unwrap();
    });
}

/// Everything the store holds that a replay could touch, as JSON.
fn snapshot(data_dir: &Path) -> Value {
    runtime().block_on(async {
        let store = SqliteConfig::in_dir(data_dir)
            .session_idle_expiry_secs(0)
            .open()
            .unwrap();
        let mut sessions = serde_json::Map::new();
        for session in ["s1", "s2"] {
            sessions.insert(
                session.to_owned(),
                json!({
                    "messages": store.messages(&SessionId::from(session)).await.unwrap(),
                    "events": store.events_since(&SessionId::from(session), 0, 1000).await.unwrap(),
                }),
            );
        }
        json!({
            "audit": store.audit_records(&AuditQuery::all()).await.unwrap(),
            "sessions": sessions,
            "grants": store.grants().await.unwrap(),
            "pending": store.pending_approvals().await.unwrap(),
            "workspace": store.load_workspace().await.unwrap(),
        })
    })
}

struct Fixture {
    dir: tempfile::TempDir,
    current: PathBuf,
    tightened: PathBuf,
}

impl Fixture {
    fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        let data = dir.path().join("data");
        let workspace = dir.path().join("workspace");
        std::fs::create_dir_all(&workspace).unwrap();
        seed(&data);
        let current = dir.path().join("warrant.toml");
        std::fs::write(
            &current,
            format!(
                "data_dir = {:?}\nworkspace = {:?}\n",
                data.display().to_string(),
                workspace.display().to_string()
            ),
        )
        .unwrap();
        // The proposal: `git status` asks, `git log` is denied.
        let tightened = dir.path().join("tightened.toml");
        std::fs::write(
            &tightened,
            "[evaluators.rules.user]\nask = [\"Run(git status)\"]\ndeny = [\"Run(git log)\"]\n",
        )
        .unwrap();
        Self {
            dir,
            current,
            tightened,
        }
    }

    fn data(&self) -> PathBuf {
        self.dir.path().join("data")
    }

    fn replay(&self, with: &Path, args: &[&str]) -> Output {
        Command::new(env!("CARGO_BIN_EXE_warrant"))
            .arg("--config")
            .arg(&self.current)
            .arg("replay")
            .arg("--with")
            .arg(with)
            .args(args)
            .current_dir(self.dir.path())
            .env_remove(AUDIT_KEY_ENV)
            .output()
            .unwrap()
    }

    fn report(&self, args: &[&str]) -> Value {
        let mut all = vec!["--json"];
        all.extend_from_slice(args);
        let out = self.replay(&self.tightened, &all);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let stdout = String::from_utf8(out.stdout).unwrap();
        assert_eq!(
            stdout.trim().lines().count(),
            1,
            "one JSON object: {stdout}"
        );
        serde_json::from_str(&stdout).unwrap()
    }
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// `(to, reasonCode, count)` of each group, in the report's order.
fn groups(report: &Value) -> Vec<(String, String, u64)> {
    report["groups"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            (
                g["to"].as_str().unwrap().to_owned(),
                g["reasonCode"].as_str().unwrap().to_owned(),
                g["count"].as_u64().unwrap(),
            )
        })
        .collect()
}

fn changed_ids(report: &Value) -> Vec<String> {
    let mut ids: Vec<String> = report["groups"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|g| g["calls"].as_array().unwrap().iter())
        .map(|c| c["toolCallId"].as_str().unwrap().to_owned())
        .collect();
    ids.sort();
    ids
}

#[test]
fn tightening_rules_turns_recorded_allows_into_asks_and_denies_grouped_by_reason_code() {
    let fixture = Fixture::new();
    let before = snapshot(&fixture.data());
    let report = fixture.report(&[]);

    assert_eq!(report["considered"], 5, "{report}");
    assert_eq!(report["replayed"], 4, "{report}");
    assert_eq!(report["changed"], 3, "{report}");
    assert_eq!(report["unchanged"], 1, "git push still asks: {report}");
    assert_eq!(report["skipped"], json!({"no_input": 1}), "{report}");
    assert_eq!(
        report["now"],
        json!({"allowed": 0, "asked": 2, "denied": 1})
    );
    assert_eq!(
        report["transitions"],
        json!([
            {"from": "allow", "to": "ask", "count": 2},
            {"from": "allow", "to": "deny", "count": 1},
        ])
    );
    assert_eq!(
        groups(&report),
        [
            ("deny".into(), "normalized_rule_deny".into(), 1),
            ("ask".into(), "normalized_rule_ask".into(), 2),
        ]
    );
    let asks = &report["groups"][1];
    assert_eq!(asks["from"], json!({"allow": 2}));
    let first = &asks["calls"][0];
    assert_eq!(first["toolCallId"], "c1");
    assert_eq!(first["before"]["behavior"], "allow");
    assert_eq!(first["before"]["reasonCode"], "shell_read_only");
    assert_eq!(first["after"]["behavior"], "ask");
    assert_eq!(first["after"]["source"], "rule");
    assert_eq!(first["inputRedacted"], false);
    assert_eq!(changed_ids(&report), ["c1", "c2", "c3"]);

    // The secret the chat kept is redacted in the report, and the report says so.
    let text = report.to_string();
    assert!(!text.contains(SECRET), "{text}");
    let c3 = &asks["calls"][1];
    assert_eq!(c3["toolCallId"], "c3");
    assert_eq!(c3["inputRedacted"], true);
    assert!(c3["input"].as_str().unwrap().contains("[REDACTED]"), "{c3}");

    // Nothing was written: audit log, tool parts, event log, grants, workspace.
    assert_eq!(snapshot(&fixture.data()), before);
}

#[test]
fn the_text_report_lists_the_changes_under_their_reason_code() {
    let fixture = Fixture::new();
    let out = fixture.replay(&fixture.tightened, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("Replayed 4 recorded calls (every session)"),
        "{text}"
    );
    assert!(
        text.contains("3 would be decided differently: 0 now allowed, 2 now asked, 1 now denied."),
        "{text}"
    );
    assert!(
        text.contains("now ask · normalized_rule_ask (2: 2 from allow)"),
        "{text}"
    );
    assert!(
        text.contains("now deny · normalized_rule_deny (1: 1 from allow)"),
        "{text}"
    );
    assert!(text.contains("allow → ask  s1 c1 Bash"), "{text}");
    assert!(
        text.contains("1 unchanged. 1 skipped (1 no_input)."),
        "{text}"
    );
    assert!(!text.contains(SECRET), "{text}");
}

#[test]
fn the_session_and_since_filters_select_the_calls_replayed() {
    let fixture = Fixture::new();

    let s1 = fixture.report(&["--session", "s1"]);
    assert_eq!(s1["filters"], json!({"session": "s1"}));
    assert_eq!(s1["replayed"], 2, "{s1}");
    assert_eq!(s1["skipped"], json!({"no_input": 1}));
    assert_eq!(changed_ids(&s1), ["c1", "c2"]);

    // A plain date: midnight UTC.
    let march = fixture.report(&["--since", "2026-03-01"]);
    assert_eq!(march["filters"]["sinceMillis"], 1_772_323_200_000_i64);
    assert_eq!(march["replayed"], 2, "{march}");
    assert_eq!(changed_ids(&march), ["c3"]);

    // RFC 3339 with an offset: 10:00 UTC, after c3 (09:00 UTC), before c4.
    let later = fixture.report(&["--since", "2026-06-01T12:00:00+02:00"]);
    assert_eq!(later["replayed"], 1, "{later}");
    assert_eq!(later["changed"], 0, "{later}");
    assert_eq!(later["unchanged"], 1);

    // Both filters combine.
    let both = fixture.report(&["--session", "s1", "--since", "2026-01-11T00:00:00Z"]);
    assert_eq!(both["considered"], 2, "{both}");
    assert_eq!(changed_ids(&both), ["c2"]);
}

#[test]
fn an_unchanged_configuration_changes_nothing() {
    let fixture = Fixture::new();
    let same = fixture.dir.path().join("same.toml");
    std::fs::write(&same, "mode = \"default\"\n").unwrap();
    let out = fixture.replay(&same, &["--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["changed"], 0, "{report}");
    assert_eq!(report["unchanged"], 4, "{report}");
    assert_eq!(report["groups"], json!([]));
}

#[test]
fn bad_inputs_fail_naming_the_bad_value() {
    let fixture = Fixture::new();
    let before = snapshot(&fixture.data());
    let failing = |with: &Path, args: &[&str], expected: &[&str]| {
        let out = fixture.replay(with, args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        let err = stderr(&out);
        assert_eq!(err.trim().lines().count(), 1, "one line: {err}");
        assert!(err.starts_with("warrant replay: "), "{err}");
        for part in expected {
            assert!(err.contains(part), "{args:?}: {err} should name {part}");
        }
        assert!(out.stdout.is_empty());
    };

    failing(
        &fixture.tightened,
        &["--session", "nope"],
        &["unknown session \"nope\""],
    );
    failing(
        &fixture.tightened,
        &["--since", "yesterday"],
        &["\"yesterday\""],
    );
    failing(
        &fixture.tightened,
        &["--since", "2026-02-30"],
        &["\"2026-02-30\""],
    );
    // Not ASCII where the clock goes: named, never a panic.
    for since in ["2026-11-30T0000000€", "2026-11-30T00:00:0€", "2026-11-3€"] {
        failing(
            &fixture.tightened,
            &["--since", since],
            &[&format!("\"{since}\"")],
        );
    }

    let missing = fixture.dir.path().join("missing.toml");
    failing(&missing, &[], &["missing.toml", "does not exist"]);

    let wrong_type = fixture.dir.path().join("wrong-type.toml");
    std::fs::write(&wrong_type, "[evaluators.rules.user]\nask = 5\n").unwrap();
    failing(
        &wrong_type,
        &[],
        &[
            "wrong-type.toml",
            "key \"evaluators.rules.user.ask\"",
            "expected a sequence",
        ],
    );

    let unknown_key = fixture.dir.path().join("unknown-key.toml");
    std::fs::write(&unknown_key, "[evaluators.rulez]\nask = []\n").unwrap();
    failing(&unknown_key, &[], &["unknown-key.toml", "rulez"]);

    let unknown_plugin = fixture.dir.path().join("unknown-plugin.toml");
    std::fs::write(
        &unknown_plugin,
        "[plugins]\nevaluators = [\"policy\", \"nosuch\"]\n",
    )
    .unwrap();
    failing(&unknown_plugin, &[], &["nosuch"]);

    // The proposal is not the current configuration: `--with` is required.
    let out = Command::new(env!("CARGO_BIN_EXE_warrant"))
        .arg("--config")
        .arg(&fixture.tightened)
        .arg("replay")
        .current_dir(fixture.dir.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--with"), "{}", stderr(&out));

    assert_eq!(snapshot(&fixture.data()), before);
}

#[test]
fn a_missing_database_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let new = dir.path().join("new.toml");
    std::fs::write(&new, "").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_warrant"))
        .arg("replay")
        .arg("--with")
        .arg(&new)
        .arg("--data-dir")
        .arg(dir.path().join("nothing-here"))
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains("nothing-here"), "{}", stderr(&out));
    assert!(
        !dir.path().join("nothing-here").exists(),
        "nothing is created"
    );
}

// `POST /v1/replay` on `warrant serve`: the same report over HTTP, a person's route.

const TOKEN: &str = "replay-person-token";
const AGENT_TOKEN: &str = "replay-agent-token";

/// `warrant serve` on the fixture's configuration; killed when dropped.
struct Served {
    child: std::process::Child,
    addr: String,
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Served {
    fn start(fixture: &Fixture) -> Self {
        use std::io::BufRead;
        let mut child = Command::new(env!("CARGO_BIN_EXE_warrant"))
            .arg("--config")
            .arg(&fixture.current)
            .args(["serve", "--addr", "127.0.0.1:0"])
            .current_dir(fixture.dir.path())
            .env("WARRANT_TOKEN", TOKEN)
            .env("WARRANT_AGENT_TOKEN", AGENT_TOKEN)
            .env_remove(AUDIT_KEY_ENV)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let mut lines = std::io::BufReader::new(child.stderr.take().unwrap()).lines();
        let addr = loop {
            let line = lines.next().expect("serve prints its address").unwrap();
            if let Some(rest) = line.strip_prefix("warrant listening on http://") {
                break rest.trim().to_owned();
            }
        };
        std::thread::spawn(move || for _ in lines {});
        Self { child, addr }
    }

    /// POSTs `body` to `/v1/replay` with `token`: the status and the JSON answer.
    fn replay(&self, token: &str, body: &str) -> (u16, Value) {
        use std::io::{Read, Write};
        let mut stream = std::net::TcpStream::connect(&self.addr).unwrap();
        stream
            .set_read_timeout(Some(std::time::Duration::from_secs(30)))
            .unwrap();
        let request = format!(
            "POST /v1/replay HTTP/1.1\r\nHost: {}\r\nAuthorization: Bearer {token}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            self.addr,
            body.len()
        );
        stream.write_all(request.as_bytes()).unwrap();
        let mut response = String::new();
        stream.read_to_string(&mut response).unwrap();
        let status = response[9..12].parse().unwrap();
        let (head, rest) = response.split_once("\r\n\r\n").unwrap();
        let body = if head
            .to_ascii_lowercase()
            .contains("transfer-encoding: chunked")
        {
            dechunk(rest)
        } else {
            rest.to_owned()
        };
        (status, serde_json::from_str(&body).unwrap_or(Value::Null))
    }
}

fn dechunk(mut rest: &str) -> String {
    let mut out = String::new();
    while let Some((size, tail)) = rest.split_once("\r\n") {
        let size = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if size == 0 {
            break;
        }
        out.push_str(&tail[..size]);
        rest = &tail[size + 2..];
    }
    out
}

fn tightened_toml() -> String {
    "[evaluators.rules.user]\nask = [\"Run(git status)\"]\ndeny = [\"Run(git log)\"]\n".to_owned()
}

#[test]
fn the_http_route_answers_the_same_report_and_writes_nothing() {
    let fixture = Fixture::new();
    let served = Served::start(&fixture);
    let before = snapshot(&fixture.data());

    let body = json!({"config": tightened_toml()}).to_string();
    let (status, report) = served.replay(TOKEN, &body);
    assert_eq!(status, 200, "{report}");
    assert_eq!(
        report["config"],
        "the posted configuration merged over the server's"
    );
    assert_eq!(report["chain"]["status"], "intact", "{report}");
    assert_eq!(report["needsReviewer"], 0);
    assert_eq!(report["changed"], 3, "{report}");
    assert_eq!(
        report["now"],
        json!({"allowed": 0, "asked": 2, "denied": 1})
    );
    assert_eq!(
        groups(&report),
        [
            ("deny".into(), "normalized_rule_deny".into(), 1),
            ("ask".into(), "normalized_rule_ask".into(), 2),
        ]
    );
    assert!(!report.to_string().contains(SECRET));

    // JSON of the same shape, with the filters.
    let body = json!({
        "config": {"evaluators": {"rules": {"user": {"ask": ["Run(git status)"]}}}},
        "session": "s2",
        "since": "2026-06-01",
    })
    .to_string();
    let (status, report) = served.replay(TOKEN, &body);
    assert_eq!(status, 200, "{report}");
    assert_eq!(report["filters"]["session"], "s2");
    assert_eq!(changed_ids(&report), ["c3"]);

    // A proposed pattern not yet saved: tool-call checkpoints off lets the open call run.
    let body = json!({
        "patterns": [{"id": "default", "name": "Default", "approvalPolicy": {"rules": [], "autoApprovedToolNames": []}}],
    })
    .to_string();
    let (status, report) = served.replay(TOKEN, &body);
    assert_eq!(status, 200, "{report}");
    assert_eq!(report["config"], "the server's configuration");
    assert_eq!(changed_ids(&report), ["c4"]);
    assert_eq!(report["groups"][0]["to"], "allow");
    assert_eq!(report["groups"][0]["from"], json!({"ask": 1}));

    assert_eq!(snapshot(&fixture.data()), before, "nothing was written");
}

#[test]
fn the_http_route_refuses_bad_proposals_and_agents_by_name() {
    let fixture = Fixture::new();
    let served = Served::start(&fixture);
    let error = |token: &str, body: Value, status: u16, code: &str, names: &[&str]| {
        let (got, answer) = served.replay(token, &body.to_string());
        assert_eq!(got, status, "{body}: {answer}");
        assert_eq!(answer["error"]["code"], code, "{answer}");
        let message = answer["error"]["message"].as_str().unwrap();
        for name in names {
            assert!(message.contains(name), "{message} should name {name}");
        }
    };
    error(
        TOKEN,
        json!({"config": "[evaluators.rules.user]\nask = 5\n"}),
        422,
        "invalid_config",
        &["\"evaluators.rules.user.ask\""],
    );
    error(
        TOKEN,
        json!({"config": "[evaluators.rules.user]\nask = [\"Run(\"]\n"}),
        422,
        "invalid_config",
        &["Run("],
    );
    error(
        TOKEN,
        json!({"config": "mode = \"sideways\"\n"}),
        422,
        "invalid_config",
        &["\"mode\"", "sideways"],
    );
    error(
        TOKEN,
        json!({"config": {"plugins": {"evaluators": ["policy"]}}}),
        422,
        "invalid_config",
        &["\"plugins\""],
    );
    error(
        TOKEN,
        json!({"config": "[[evaluators.rules.files]]\npath = \"/etc/passwd\"\nlayer = \"user\"\n"}),
        422,
        "invalid_config",
        &["evaluators.rules.files", "/etc/passwd"],
    );
    error(
        TOKEN,
        json!({"patterns": [{"name": "no id"}]}),
        422,
        "invalid_config",
        &["patterns[0]", "id"],
    );
    error(
        TOKEN,
        json!({"session": "nope"}),
        404,
        "unknown_session",
        &["\"nope\""],
    );
    error(
        TOKEN,
        json!({"since": "last week"}),
        400,
        "invalid_filter",
        &["\"last week\""],
    );
    error(
        TOKEN,
        json!({"since": "2026-11-30T0000000€"}),
        400,
        "invalid_filter",
        &["\"2026-11-30T0000000€\""],
    );
    error(
        TOKEN,
        json!({"config": "", "sessions": "s1"}),
        400,
        "invalid_body",
        &["sessions"],
    );
    error(AGENT_TOKEN, json!({}), 403, "person_only", &["/v1/replay"]);
}

#[test]
fn only_the_records_the_audit_chain_verified_are_replayed() {
    let fixture = Fixture::new();
    // Record 4 (c3) edited behind Warrant's back: the chain breaks there.
    let db = SqliteConfig::in_dir(fixture.data()).path;
    let out = Command::new("sqlite3")
        .arg(&db)
        .arg("UPDATE audit SET record = replace(record, 'shell_read_only', 'shell_read_onlx') WHERE seq = 4")
        .output()
        .expect("the sqlite3 command edits the test database");
    assert!(out.status.success(), "{}", stderr(&out));

    let report = fixture.report(&[]);
    let chain = &report["chain"];
    assert_eq!(chain["status"], "broken", "{report}");
    assert_eq!(chain["verified"], false);
    assert_eq!(chain["verifiedThrough"], 3);
    assert_eq!(chain["headSeq"], 5);
    assert_eq!(chain["firstBad"]["seq"], 4);
    assert_eq!(chain["keyed"], true);
    assert_eq!(chain["legacyRecords"], 0);
    assert!(chain["message"].as_str().unwrap().contains('4'), "{chain}");
    // c1, c2 and c5 (no input) verified; c3 and c4 are past the break.
    assert_eq!(report["considered"], 3, "{report}");
    assert_eq!(changed_ids(&report), ["c1", "c2"]);

    let out = fixture.replay(&fixture.tightened, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("Audit log broken: only records 1 to 3 verified and were replayed"),
        "{text}"
    );
}

#[test]
fn the_live_configuration_stays_protected_in_the_replayed_chain() {
    let fixture = Fixture::new();
    // The live configuration inside the workspace, where a proposal's rule could reach it.
    let workspace = fixture.dir.path().join("workspace");
    // Not named warrant.toml, which is protected by name anyway.
    let live = workspace.join("live-policy.toml");
    std::fs::write(
        &live,
        format!(
            "data_dir = {:?}\nworkspace = {:?}\n",
            fixture.data().display().to_string(),
            workspace.display().to_string()
        ),
    )
    .unwrap();
    let write = Recorded {
        at: JUN_2 + 1,
        session: "s2",
        id: "w1",
        input: json!({"path": live.display().to_string(), "content": "mode = \"full_access\"\n"}),
        behavior: Behavior::Deny,
        reason_code: "filesystem_protected_config",
        part: true,
    };
    append(&fixture.data(), &write, PermissionMode::Default, "Write");
    let permissive = fixture.dir.path().join("permissive.toml");
    std::fs::write(
        &permissive,
        "mode = \"full_access\"\n[evaluators.rules.user]\nallow = [\"Write(**)\"]\n",
    )
    .unwrap();

    let out = Command::new(env!("CARGO_BIN_EXE_warrant"))
        .arg("--config")
        .arg(&live)
        .args(["replay", "--json", "--session", "s2", "--with"])
        .arg(&permissive)
        .current_dir(fixture.dir.path())
        .env_remove(AUDIT_KEY_ENV)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(
        !changed_ids(&report).contains(&"w1".to_owned()),
        "the write to the live configuration stays a deny: {report}"
    );
    assert!(report["unchanged"].as_u64().unwrap() >= 1, "{report}");

    // The same over HTTP, on a server started with the live configuration.
    let served = Served::start(&Fixture {
        dir: tempfile::tempdir().unwrap(),
        current: live.clone(),
        tightened: permissive.clone(),
    });
    let body = json!({"config": std::fs::read_to_string(&permissive).unwrap(), "session": "s2"});
    let (status, report) = served.replay(TOKEN, &body.to_string());
    assert_eq!(status, 200, "{report}");
    assert!(
        !changed_ids(&report).contains(&"w1".to_owned()),
        "over HTTP too: {report}"
    );
}

/// A server configuration with a model reviewer on a port nobody listens on (it must never
/// be called) and a rule of its own.
fn reviewed_config(fixture: &Fixture) {
    let dead = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = dead.local_addr().unwrap().port();
    drop(dead);
    std::fs::write(
        &fixture.current,
        format!(
            "data_dir = {:?}\nworkspace = {:?}\n\n[reviewer]\nmodel = \"reviewer-model\"\nendpoint = \"http://127.0.0.1:{port}/v1\"\ntimeout_ms = 30000\n\n[evaluators.rules.user]\ndeny = [\"Run(git log)\"]\n",
            fixture.data().display().to_string(),
            fixture.dir.path().join("workspace").display().to_string()
        ),
    )
    .unwrap();
}

#[test]
fn over_http_a_proposal_is_merged_over_the_server_configuration_and_no_model_is_called() {
    let fixture = Fixture::new();
    reviewed_config(&fixture);
    // A call recorded in auto mode that the reviewer decided.
    let open = Recorded {
        at: JUN_2 + 1,
        session: "s2",
        id: "a1",
        input: json!({"command": "make deploy"}),
        behavior: Behavior::Allow,
        reason_code: "classifier_allow",
        part: true,
    };
    append(&fixture.data(), &open, PermissionMode::Auto, "Bash");
    let served = Served::start(&fixture);
    let before = snapshot(&fixture.data());

    // One rule: the server's `[reviewer]` and its own rule are kept.
    let body = json!({"config": "[evaluators.rules.user]\nask = [\"Run(git status)\"]\n"});
    let started = std::time::Instant::now();
    let (status, report) = served.replay(TOKEN, &body.to_string());
    assert_eq!(status, 200, "{report}");
    assert!(
        started.elapsed() < std::time::Duration::from_secs(20),
        "the model reviewer was not waited for"
    );
    assert_eq!(
        groups(&report),
        [
            ("deny".into(), "normalized_rule_deny".into(), 1),
            ("ask".into(), "normalized_rule_ask".into(), 2),
        ],
        "the server's deny of git log is kept beside the proposed ask: {report}"
    );
    assert_eq!(report["needsReviewer"], 1, "{report}");
    assert_eq!(report["skipped"]["needs_reviewer"], 1, "{report}");
    assert!(!changed_ids(&report).contains(&"a1".to_owned()));

    // A proposal that changes the reviewer is refused by name.
    let body = json!({"config": "[reviewer]\ntimeout_ms = 1000\n"});
    let (status, answer) = served.replay(TOKEN, &body.to_string());
    assert_eq!(status, 422, "{answer}");
    assert!(
        answer["error"]["message"]
            .as_str()
            .unwrap()
            .contains("\"reviewer\""),
        "{answer}"
    );
    assert_eq!(snapshot(&fixture.data()), before, "nothing was written");
}

#[test]
fn the_store_is_opened_as_the_configuration_says() {
    let fixture = Fixture::new();
    // The database named by `[store] path`, not found in the data directory.
    let elsewhere = fixture.dir.path().join("elsewhere");
    std::fs::write(
        &fixture.current,
        format!(
            "data_dir = {:?}\nworkspace = {:?}\n\n[store]\npath = {:?}\n",
            elsewhere.display().to_string(),
            fixture.dir.path().join("workspace").display().to_string(),
            SqliteConfig::in_dir(fixture.data())
                .path
                .display()
                .to_string()
        ),
    )
    .unwrap();
    let report = fixture.report(&[]);
    assert_eq!(report["changed"], 3, "{report}");
    assert_eq!(report["chain"]["status"], "intact", "{report}");
}
