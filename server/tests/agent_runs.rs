//! The demo agent over `POST /v1/agent`: real decisions of every kind, well-formed runs, and
//! AG-UI interrupts resumed through the engine.

mod support;

use axum::http::{Method, StatusCode};
use serde_json::{Value, json};
use warrant_server::ServerConfig;

use support::failing::FailingStore;
use support::sse::parse;
use support::{Server, TOKEN};

fn input(thread: &str, run: &str, text: &str) -> Value {
    json!({
        "threadId": thread,
        "runId": run,
        "messages": [{"id": format!("u-{run}"), "role": "user", "content": text}],
        "tools": [], "context": [], "state": {}, "forwardedProps": {}
    })
}

/// Runs the agent and returns the run's events.
async fn run(server: &Server, body: Value) -> Vec<Value> {
    let reply = server.send(Method::POST, "/v1/agent", Some(body)).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    assert_eq!(reply.content_type, "text/event-stream");
    parse(&reply.text)
        .iter()
        .filter_map(|f| f.event().cloned())
        .collect()
}

fn customs<'a>(events: &'a [Value], name: &str) -> Vec<&'a Value> {
    events
        .iter()
        .filter(|e| e["type"] == "CUSTOM" && e["name"] == name)
        .map(|e| &e["value"])
        .collect()
}

fn outcome(events: &[Value]) -> &Value {
    let last = events.last().expect("events");
    assert_eq!(last["type"], "RUN_FINISHED", "{last}");
    &last["outcome"]
}

/// The AG-UI client's rules: one run, every tool call and text message closed before it ends.
fn assert_well_formed(events: &[Value], run_id: &str) {
    assert_eq!(events[0]["type"], "RUN_STARTED");
    assert_eq!(events[0]["runId"], run_id);
    let mut open = std::collections::HashSet::new();
    for e in &events[1..events.len() - 1] {
        assert_ne!(e["type"], "RUN_STARTED", "{e}");
        assert_ne!(e["type"], "RUN_FINISHED", "{e}");
        let id = e["toolCallId"]
            .as_str()
            .or(e["messageId"].as_str())
            .unwrap_or("")
            .to_owned();
        match e["type"].as_str().unwrap() {
            "TOOL_CALL_START" | "TEXT_MESSAGE_START" => assert!(open.insert(id), "{e}"),
            "TOOL_CALL_ARGS" | "TEXT_MESSAGE_CONTENT" => assert!(open.contains(&id), "{e}"),
            "TOOL_CALL_END" | "TEXT_MESSAGE_END" => assert!(open.remove(&id), "{e}"),
            _ => {}
        }
        assert!(
            e.as_object().unwrap().values().all(|v| !v.is_null()),
            "no nulls: {e}"
        );
    }
    assert!(open.is_empty(), "closed before the run ends: {open:?}");
    assert_eq!(events.last().unwrap()["runId"], run_id);
}

#[tokio::test]
async fn the_tour_shows_every_kind_of_decision_and_resumes_after_approval() {
    let server = Server::new().await;
    let first = run(&server, input("t1", "r1", "show me around")).await;
    assert_well_formed(&first, "r1");
    let decisions: Vec<(String, String)> = customs(&first, "tool_permission_decision")
        .iter()
        .map(|d| {
            (
                d["behavior"].as_str().unwrap().to_owned(),
                d["source"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    let pairs = |v: &[(&str, &str)]| {
        v.iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        decisions,
        pairs(&[("allow", "policy"), ("deny", "policy"), ("ask", "policy")])
    );
    let request = customs(&first, "tool_approval_request")[0];
    let call = request["toolCallId"].as_str().unwrap();
    let interrupts = &outcome(&first)["interrupts"];
    assert_eq!(outcome(&first)["type"], "interrupt");
    assert_eq!(interrupts[0]["reason"], "tool_call");
    assert_eq!(interrupts[0]["toolCallId"], call);
    assert!(interrupts[0]["responseSchema"]["properties"]["actionId"]["enum"].is_array());
    let denied = first.iter().find(|e| {
        e["type"] == "TOOL_CALL_RESULT" && e["content"].as_str().unwrap().starts_with("Not run")
    });
    assert!(denied.is_some(), "the denied call reports its denial");

    let mut resume = input("t1", "r2", "show me around");
    resume["resume"] = json!([{"interruptId": interrupts[0]["id"], "status": "resolved", "payload": {"actionId": "allow_once"}}]);
    let second = run(&server, resume).await;
    assert_well_formed(&second, "r2");
    let resolution = customs(&second, "tool_permission_resolution")[0];
    assert_eq!(resolution["toolCallId"], call);
    assert_eq!(resolution["actionId"], "allow_once");
    let pushed = second
        .iter()
        .find(|e| e["type"] == "TOOL_CALL_RESULT" && e["toolCallId"] == call)
        .expect("the approved call ran");
    assert!(pushed["content"].as_str().unwrap().contains("main -> main"));
    let decisions: Vec<&str> = customs(&second, "tool_permission_decision")
        .iter()
        .map(|d| d["source"].as_str().unwrap())
        .collect();
    assert_eq!(decisions, ["auto_classifier", "full_access"]);
    assert_eq!(outcome(&second)["type"], "success");
}

#[tokio::test]
async fn every_decision_event_precedes_its_result_and_follows_its_call() {
    let server = Server::new().await;
    let events = run(&server, input("t1", "r1", "read the readme")).await;
    let types: Vec<&str> = events.iter().map(|e| e["type"].as_str().unwrap()).collect();
    assert_eq!(
        types,
        [
            "RUN_STARTED",
            // The user's message, echoed into the thread's log.
            "TEXT_MESSAGE_START",
            "TEXT_MESSAGE_CONTENT",
            "TEXT_MESSAGE_END",
            "TEXT_MESSAGE_START",
            "TEXT_MESSAGE_CONTENT",
            "TEXT_MESSAGE_END",
            "TOOL_CALL_START",
            "TOOL_CALL_ARGS",
            "TOOL_CALL_END",
            "CUSTOM",
            "TOOL_CALL_RESULT",
            "TEXT_MESSAGE_START",
            "TEXT_MESSAGE_CONTENT",
            "TEXT_MESSAGE_END",
            "RUN_FINISHED",
        ]
    );
    assert_eq!(events[1]["role"], "user");
    assert_eq!(
        events[1]["messageId"], "u-r1",
        "the client's own message id"
    );
    assert_eq!(events[2]["delta"], "read the readme");
    assert_eq!(events[7]["parentMessageId"], events[4]["messageId"]);
    assert!(
        events
            .iter()
            .all(|e| e["timestamp"].is_i64() || e["timestamp"].is_null())
    );
}

#[tokio::test]
async fn a_cancelled_interrupt_denies_the_call() {
    let server = Server::new().await;
    let first = run(&server, input("t1", "r1", "push please")).await;
    let interrupt = &outcome(&first)["interrupts"][0];
    let mut resume = input("t1", "r2", "push please");
    resume["resume"] = json!([{"interruptId": interrupt["id"], "status": "cancelled"}]);
    let second = run(&server, resume).await;
    let resolution = customs(&second, "tool_permission_resolution")[0];
    assert_eq!(
        (
            resolution["behavior"].as_str(),
            resolution["actionId"].as_str()
        ),
        (Some("deny"), Some("deny"))
    );
    let result = second
        .iter()
        .find(|e| e["type"] == "TOOL_CALL_RESULT")
        .unwrap();
    assert_eq!(result["content"], "Not run: the user denied it");
}

#[tokio::test]
async fn approved_false_denies_and_approved_true_allows_once() {
    for (approved, behavior) in [(false, "deny"), (true, "allow")] {
        let server = Server::new().await;
        let first = run(&server, input("t1", "r1", "push")).await;
        let interrupt = &outcome(&first)["interrupts"][0];
        let mut resume = input("t1", "r2", "push");
        resume["resume"] = json!([{"interruptId": interrupt["id"], "status": "resolved", "payload": {"approved": approved}}]);
        let second = run(&server, resume).await;
        assert_eq!(
            customs(&second, "tool_permission_resolution")[0]["behavior"],
            behavior
        );
    }
}

#[tokio::test]
async fn an_approval_made_elsewhere_lets_the_next_run_continue() {
    let server = Server::new().await;
    let first = run(&server, input("t1", "r1", "push")).await;
    let call = outcome(&first)["interrupts"][0]["toolCallId"]
        .as_str()
        .unwrap()
        .to_owned();
    let reply = server
        .send(
            Method::POST,
            &format!("/v1/approvals/{call}"),
            Some(json!({"actionId": "allow_session"})),
        )
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    let second = run(&server, input("t1", "r2", "go on")).await;
    let result = second
        .iter()
        .find(|e| e["type"] == "TOOL_CALL_RESULT")
        .unwrap();
    assert_eq!(result["toolCallId"], call.as_str());
    assert!(!result["content"].as_str().unwrap().starts_with("Not run"));
    assert_eq!(outcome(&second)["type"], "success");
}

#[tokio::test]
async fn resume_errors_leave_the_interrupt_open() {
    let server = Server::new().await;
    let first = run(&server, input("t1", "r1", "push")).await;
    let id = outcome(&first)["interrupts"][0]["id"].clone();
    let attempt = |resume: Value| {
        let mut body = input("t1", "rx", "push");
        if !resume.is_null() {
            body["resume"] = resume;
        }
        body
    };
    let cases = [
        (json!(null), StatusCode::CONFLICT, "interrupt_pending"),
        (
            json!([{"interruptId": "approval:nope", "status": "cancelled"}]),
            StatusCode::CONFLICT,
            "interrupt_not_open",
        ),
        (
            json!([{"interruptId": id, "status": "resolved"}]),
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid_resume_payload",
        ),
        (
            json!([{"interruptId": id, "status": "resolved", "payload": {"actionId": "maybe"}}]),
            StatusCode::UNPROCESSABLE_ENTITY,
            "action_not_offered",
        ),
    ];
    for (resume, status, code) in cases {
        server
            .send(Method::POST, "/v1/agent", Some(attempt(resume)))
            .await
            .assert_error(status, code);
    }
    let mut body = attempt(
        json!([{"interruptId": id, "status": "resolved", "payload": {"actionId": "allow_once"}}]),
    );
    body["runId"] = json!("r2");
    assert_eq!(outcome(&run(&server, body).await)["type"], "success");
}

#[tokio::test]
async fn a_resume_must_answer_every_open_interrupt() {
    let server = Server::new().await;
    for id in ["c1", "c2"] {
        let body = json!({"toolCallId": id, "toolName": "Bash", "input": {"command": "git push"}});
        server
            .send(Method::POST, "/v1/sessions/t1/tool-calls", Some(body))
            .await;
    }
    let mut body = input("t1", "r1", "");
    body["resume"] = json!([{"interruptId": "approval:c1", "status": "cancelled"}]);
    server
        .send(Method::POST, "/v1/agent", Some(body.clone()))
        .await
        .assert_error(StatusCode::UNPROCESSABLE_ENTITY, "resume_incomplete");
    body["resume"] = json!([
        {"interruptId": "approval:c1", "status": "cancelled"},
        {"interruptId": "approval:c2", "status": "resolved", "payload": {"approved": true}}
    ]);
    let events = run(&server, body).await;
    let behaviors: Vec<&str> = customs(&events, "tool_permission_resolution")
        .iter()
        .map(|r| r["behavior"].as_str().unwrap())
        .collect();
    assert_eq!(behaviors, ["deny", "allow"]);
}

#[tokio::test]
async fn a_run_waiting_for_approval_stays_open_and_blocks_a_second_run() {
    let server = Server::new().await;
    let mut body = input("t1", "r1", "push");
    body["forwardedProps"] = json!({"waitForApproval": true});
    let router = server.router.clone();
    let request = support::request(Method::POST, "/v1/agent")
        .header("authorization", format!("Bearer {TOKEN}"))
        .body(axum::body::Body::from(body.to_string()))
        .unwrap();
    let response = tower::ServiceExt::oneshot(router, request).await.unwrap();
    let mut reader = support::sse::Reader::new(response.into_body());
    let mut call = None;
    while call.is_none() {
        let (_, event) = reader.events(1).await.pop().unwrap();
        if event["name"] == "tool_approval_request" {
            call = event["value"]["toolCallId"].as_str().map(str::to_owned);
        }
    }
    server
        .send(Method::POST, "/v1/agent", Some(input("t1", "r9", "hi")))
        .await
        .assert_error(StatusCode::CONFLICT, "run_active");
    let path = format!("/v1/approvals/{}", call.unwrap());
    assert_eq!(
        server
            .send(Method::POST, &path, Some(json!({"actionId": "allow_once"})))
            .await
            .status,
        StatusCode::OK
    );
    let mut last = json!(null);
    while let Some(frame) = reader.frame().await {
        if let Some(event) = frame.event() {
            last = event.clone();
        }
    }
    assert_eq!(last["type"], "RUN_FINISHED");
    assert_eq!(last["outcome"]["type"], "success");
}

#[tokio::test]
async fn a_malformed_input_is_400() {
    let server = Server::new().await;
    let mut blank = input(" ", "r1", "hi");
    let mut bad_mode = input("t1", "r1", "hi");
    bad_mode["forwardedProps"] = json!({"mode": "yolo"});
    blank["messages"] = json!([]);
    for (body, code) in [
        (blank, "invalid_input"),
        (bad_mode, "invalid_input"),
        (json!({"threadId": "t1", "runId": "r1"}), "invalid_body"),
    ] {
        server
            .send(Method::POST, "/v1/agent", Some(body))
            .await
            .assert_error(StatusCode::BAD_REQUEST, code);
    }
}

#[tokio::test]
async fn the_mode_option_overrides_the_script() {
    let server = Server::new().await;
    let mut body = input("t1", "r1", "push");
    body["forwardedProps"] = json!({"mode": "full_access"});
    let events = run(&server, body).await;
    assert_eq!(
        customs(&events, "tool_permission_decision")[0]["source"],
        "full_access"
    );
    assert_eq!(outcome(&events)["type"], "success");
}

#[tokio::test]
async fn a_run_that_cannot_be_logged_is_503() {
    let store = FailingStore::new();
    let server = Server::with(store.clone(), ServerConfig::new(TOKEN)).await;
    store.fail();
    server
        .send(Method::POST, "/v1/agent", Some(input("t1", "r1", "hi")))
        .await
        .assert_error(StatusCode::SERVICE_UNAVAILABLE, "store_unavailable");
}
