//! `warrant stdio` through the library with in-memory pipes: events out one per line, asks
//! never block later lines, malformed lines get error events, EOF drains and returns.

mod support;

use std::sync::Arc;

use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream, Lines};
use tokio::task::JoinHandle;
use warrant_core::engine::Engine;
use warrant_core::store::{MemoryStore, Store};
use warrant_transports::stdio::{LineTransport, StdioOptions, serve};

use support::failing::FailingStore;

struct Pipe {
    input: Option<DuplexStream>,
    output: Lines<BufReader<DuplexStream>>,
    task: JoinHandle<std::io::Result<()>>,
}

impl Pipe {
    async fn new(store: Arc<dyn Store>, options: StdioOptions) -> Self {
        let (input, server_in) = tokio::io::duplex(1 << 20);
        let (server_out, output) = tokio::io::duplex(1 << 20);
        let out = Arc::new(LineTransport::new(server_out));
        let engine = Engine::builder(support::chain::demo())
            .store(store)
            .transport(out.clone())
            .build()
            .await
            .expect("an engine");
        let task = tokio::spawn(serve(server_in, engine, out, options));
        Self {
            input: Some(input),
            output: BufReader::new(output).lines(),
            task,
        }
    }

    async fn default() -> Self {
        Self::new(Arc::new(MemoryStore::new()), StdioOptions::default()).await
    }

    async fn send(&mut self, line: impl AsRef<[u8]>) {
        let input = self.input.as_mut().expect("open");
        input.write_all(line.as_ref()).await.unwrap();
        input.write_all(b"\n").await.unwrap();
    }

    async fn next(&mut self) -> Value {
        let line = self
            .output
            .next_line()
            .await
            .unwrap()
            .expect("another line");
        let event: Value =
            serde_json::from_str(&line).unwrap_or_else(|e| panic!("not JSON ({e}): {line}"));
        assert!(
            event["type"]
                .as_str()
                .is_some_and(|t| t.chars().all(|c| c.is_ascii_uppercase() || c == '_')),
            "{event}"
        );
        event
    }

    /// Events up to and including the first that matches.
    async fn until(&mut self, mut done: impl FnMut(&Value) -> bool) -> Vec<Value> {
        let mut seen = Vec::new();
        loop {
            let event = self.next().await;
            let stop = done(&event);
            seen.push(event);
            if stop {
                return seen;
            }
        }
    }

    async fn error(&mut self) -> Value {
        let event = self.next().await;
        assert_eq!(event["type"], "RUN_ERROR", "{event}");
        event
    }

    async fn close(mut self) -> Vec<Value> {
        drop(self.input.take());
        self.task
            .await
            .expect("joined")
            .expect("serve returns Ok at EOF");
        let mut rest = Vec::new();
        while let Some(line) = self.output.next_line().await.unwrap() {
            rest.push(serde_json::from_str(&line).unwrap());
        }
        rest
    }
}

fn is_custom(name: &'static str) -> impl Fn(&Value) -> bool {
    move |e| e["type"] == "CUSTOM" && e["name"] == name
}

fn tool_call(id: &str, tool: &str, input: Value) -> String {
    json!({"type": "tool_call", "sessionId": "s1", "toolCallId": id, "toolName": tool, "input": input}).to_string()
}

#[tokio::test]
async fn an_allowed_call_streams_its_events_then_its_result() {
    let mut pipe = Pipe::default().await;
    pipe.send(tool_call("c1", "view", json!({"path": "README.md"})))
        .await;
    let events = pipe.until(is_custom("tool_permission_decision")).await;
    let types: Vec<&str> = events.iter().map(|e| e["type"].as_str().unwrap()).collect();
    assert_eq!(
        types,
        [
            "TOOL_CALL_START",
            "TOOL_CALL_ARGS",
            "TOOL_CALL_END",
            "CUSTOM"
        ]
    );
    assert_eq!(events[3]["value"]["behavior"], "allow");
    pipe.send(
        json!({"type": "tool_result", "toolCallId": "c1", "content": "# readme"}).to_string(),
    )
    .await;
    let result = pipe.next().await;
    assert_eq!(
        (result["type"].as_str(), result["content"].as_str()),
        (Some("TOOL_CALL_RESULT"), Some("# readme"))
    );
    assert!(pipe.close().await.is_empty());
}

#[tokio::test]
async fn a_call_that_asks_does_not_block_later_lines() {
    let mut pipe = Pipe::default().await;
    pipe.send(tool_call("c1", "Bash", json!({"command": "git push"})))
        .await;
    pipe.until(is_custom("tool_approval_request")).await;
    pipe.send(tool_call("c2", "view", json!({"path": "a"})))
        .await;
    let decision = pipe
        .until(is_custom("tool_permission_decision"))
        .await
        .pop()
        .unwrap();
    assert_eq!(
        (
            decision["value"]["toolCallId"].as_str(),
            decision["value"]["behavior"].as_str()
        ),
        (Some("c2"), Some("allow"))
    );
    pipe.send(
        json!({"type": "approval", "toolCallId": "c1", "actionId": "allow_once"}).to_string(),
    )
    .await;
    let resolution = pipe.next().await;
    assert_eq!(resolution["name"], "tool_permission_resolution");
    assert_eq!(resolution["value"]["toolCallId"], "c1");
}

#[tokio::test]
async fn malformed_lines_get_an_error_event_naming_the_problem_and_serving_goes_on() {
    let mut pipe = Pipe::default().await;
    let cases = [
        ("not json", "invalid_json", "line 1"),
        ("[1, 2]", "invalid_line", "\"type\""),
        (
            r#"{"type":"tool_call","sessionId":"s1","toolCallId":"c","toolName":"Bash","input":{"command":"rm -rf ~","command":"ls"}}"#,
            "invalid_json",
            "`/input/command` is repeated",
        ),
        (r#"{"type":"dance"}"#, "unknown_type", "\"dance\""),
        (
            r#"{"type":"tool_call","sessionId":"s1"}"#,
            "invalid_line",
            "toolCallId",
        ),
        (
            r#"{"type":"approval","toolCallId":" ","actionId":"deny"}"#,
            "invalid_line",
            "toolCallId must not be blank",
        ),
        (
            r#"{"type":"tool_call","sessionId":"s1","toolCallId":"c","toolName":"view","input":{},"mode":"yolo"}"#,
            "invalid_line",
            "yolo",
        ),
    ];
    for (line, code, mentions) in cases {
        pipe.send(line).await;
        let error = pipe.error().await;
        assert_eq!(error["code"], code, "{line}: {error}");
        assert!(
            error["message"].as_str().unwrap().contains(mentions),
            "{line}: {error}"
        );
    }
    pipe.send("").await;
    pipe.send(tool_call("c1", "view", json!({"path": "a"})))
        .await;
    assert_eq!(pipe.next().await["type"], "TOOL_CALL_START");
}

#[tokio::test]
async fn an_overlong_or_non_utf8_line_is_reported_and_skipped() {
    let options = StdioOptions {
        max_line: 128,
        ..StdioOptions::default()
    };
    let mut pipe = Pipe::new(Arc::new(MemoryStore::new()), options).await;
    pipe.send("x".repeat(200)).await;
    assert_eq!(pipe.error().await["code"], "line_too_long");
    pipe.send([0xff, 0xfe]).await;
    assert_eq!(pipe.error().await["code"], "invalid_utf8");
    pipe.send(tool_call("c1", "view", json!({}))).await;
    assert_eq!(pipe.next().await["type"], "TOOL_CALL_START");
}

#[tokio::test]
async fn approval_errors_are_reported() {
    let mut pipe = Pipe::default().await;
    let approve = |id: &str, action: &str| {
        json!({"type": "approval", "toolCallId": id, "actionId": action}).to_string()
    };
    pipe.send(approve("ghost", "deny")).await;
    assert_eq!(pipe.error().await["code"], "approval_not_found");
    pipe.send(tool_call("c1", "Bash", json!({"command": "git push"})))
        .await;
    pipe.until(is_custom("tool_approval_request")).await;
    pipe.send(approve("c1", "sometimes")).await;
    assert_eq!(pipe.error().await["code"], "action_not_offered");
    pipe.send(approve("c1", "deny")).await;
    assert_eq!(pipe.next().await["value"]["behavior"], "deny");
    pipe.send(approve("c1", "deny")).await;
    assert_eq!(pipe.error().await["code"], "approval_not_pending");
}

#[tokio::test]
async fn a_repeated_tool_call_id_is_refused() {
    let mut pipe = Pipe::default().await;
    pipe.send(tool_call("c1", "view", json!({}))).await;
    pipe.until(is_custom("tool_permission_decision")).await;
    pipe.send(tool_call("c1", "view", json!({}))).await;
    assert_eq!(pipe.error().await["code"], "duplicate_tool_call");
}

#[tokio::test]
async fn session_settings_answer_with_the_session_record() {
    let mut pipe = Pipe::default().await;
    let settings = |names: Value| {
        json!({"type": "session_settings", "sessionId": "s1", "autoApprovedToolNames": names})
            .to_string()
    };
    pipe.send(settings(json!(["view"]))).await;
    let event = pipe.next().await;
    assert_eq!(event["name"], "session_approval_settings");
    assert_eq!(event["value"]["id"], "s1");
    assert_eq!(
        event["value"]["approvalSettings"]["autoApprovedToolNames"],
        json!(["view"])
    );
    pipe.send(settings(json!(["web_fetc"]))).await;
    let error = pipe.error().await;
    assert_eq!(error["code"], "unknown_tool_ids");
    assert!(
        error["message"].as_str().unwrap().contains("web_fetch"),
        "{error}"
    );
    pipe.send(settings(Value::Null)).await;
    assert!(pipe.next().await["value"].get("approvalSettings").is_none());
}

#[tokio::test]
async fn a_result_for_an_unknown_call_is_refused_naming_its_line() {
    let mut pipe = Pipe::default().await;
    pipe.send(json!({"type": "tool_result", "toolCallId": "old", "content": "x"}).to_string())
        .await;
    let error = pipe.error().await;
    assert_eq!(error["code"], "unknown_tool_call");
    assert!(
        error["message"].as_str().unwrap().starts_with("line 1: "),
        "{error}"
    );
    pipe.send(json!({"type": "tool_result", "toolCallId": "old", "sessionId": "s1", "content": {"ok": true}}).to_string()).await;
    let error = pipe.error().await;
    assert_eq!(error["code"], "tool_call_not_found");
    assert!(
        error["message"].as_str().unwrap().starts_with("line 2: "),
        "{error}"
    );
}

#[tokio::test]
async fn a_call_that_cannot_be_audited_is_an_error_event_never_an_allow() {
    let store = FailingStore::new();
    let mut pipe = Pipe::new(store.clone(), StdioOptions::default()).await;
    pipe.send(json!({"type": "session_settings", "sessionId": "s1"}).to_string())
        .await;
    pipe.next().await;
    store.fail();
    pipe.send(tool_call("c1", "view", json!({}))).await;
    let events = pipe.until(|e| e["type"] == "RUN_ERROR").await;
    assert_eq!(events.last().unwrap()["code"], "store_unavailable");
    assert!(
        events.last().unwrap()["message"]
            .as_str()
            .unwrap()
            .contains("c1")
    );
    let rest = pipe.close().await;
    assert!(
        events
            .iter()
            .chain(&rest)
            .all(|e| e["name"] != "tool_permission_decision"),
        "{rest:?}"
    );
}

#[tokio::test]
async fn end_of_input_decides_calls_in_flight_then_returns() {
    let mut pipe = Pipe::default().await;
    pipe.send(tool_call("c1", "view", json!({"path": "README.md"})))
        .await;
    pipe.send(json!({"type": "tool_result", "toolCallId": "c1", "content": "late"}).to_string())
        .await;
    let rest = pipe.close().await;
    let types: Vec<&str> = rest.iter().map(|e| e["type"].as_str().unwrap()).collect();
    assert_eq!(
        types,
        [
            "TOOL_CALL_START",
            "TOOL_CALL_ARGS",
            "TOOL_CALL_END",
            "CUSTOM",
            "TOOL_CALL_RESULT"
        ]
    );
}

#[tokio::test]
async fn a_revoke_grant_line_revokes_and_answers_with_the_grant() {
    let mut pipe = Pipe::default().await;
    let push = json!({"command": "git push origin main"});
    pipe.send(tool_call("c1", "Bash", push.clone())).await;
    pipe.until(is_custom("tool_approval_request")).await;
    pipe.send(
        json!({"type": "approval", "toolCallId": "c1", "actionId": "allow_session"}).to_string(),
    )
    .await;
    pipe.until(is_custom("tool_permission_resolution")).await;
    pipe.send(tool_call("c2", "Bash", push.clone())).await;
    let decided = pipe.until(is_custom("tool_permission_decision")).await;
    let decision = &decided.last().unwrap()["value"];
    assert_eq!(decision["behavior"], "allow", "{decision}");
    let grant_id = decision["provenance"]["grantId"]
        .as_str()
        .unwrap()
        .to_owned();

    pipe.send(json!({"type": "revoke_grant", "grantId": grant_id}).to_string())
        .await;
    let answer = pipe.until(is_custom("grant_revoked")).await;
    assert_eq!(answer.last().unwrap()["value"]["id"], grant_id.as_str());
    pipe.send(json!({"type": "revoke_grant", "grantId": grant_id}).to_string())
        .await;
    let error = pipe.error().await;
    assert!(
        error["message"].as_str().unwrap().contains(&grant_id),
        "{error}"
    );
    pipe.send(json!({"type": "revoke_grant", "grantId": " "}).to_string())
        .await;
    let error = pipe.error().await;
    assert!(
        error["message"].as_str().unwrap().contains("grantId"),
        "{error}"
    );

    pipe.send(tool_call("c3", "Bash", push)).await;
    let decided = pipe.until(is_custom("tool_permission_decision")).await;
    assert_eq!(decided.last().unwrap()["value"]["behavior"], "ask");
    pipe.close().await;
}
