//! `warrant hook gemini` over Gemini CLI's real payload shapes: `{"decision", "reason"}` on
//! stdout with exit 0; an unreadable payload is blocked (exit 2); an ask, which Gemini CLI's
//! `BeforeTool` cannot put to the user, is a deny that says how to approve.

mod hook_support;

use hook_support::{Answer, Workspace};

const AGENT: &str = "gemini";

fn decision(answer: &Answer) -> (String, Option<String>) {
    assert_eq!(answer.code, 0, "{answer:?}");
    let json = answer.json();
    let decision = json["decision"].as_str().unwrap().to_owned();
    assert!(["allow", "deny"].contains(&decision.as_str()), "{json}");
    (decision, json["reason"].as_str().map(str::to_owned))
}

/// The one call of the audit log (Gemini CLI gives no call id: Warrant makes one).
fn only_call(ws: &Workspace) -> Vec<serde_json::Value> {
    let audit = ws.audit();
    let id = audit[0]["toolCallId"].as_str().unwrap().to_owned();
    assert!(id.starts_with("gemini-"), "{id}");
    ws.audit_of(&id)
}

#[test]
fn a_read_inside_the_workspace_is_allowed() {
    let ws = Workspace::new();
    let (decision, _) = decision(&ws.hook(AGENT, &ws.payload(AGENT, "before_tool_read")));
    assert_eq!(decision, "allow");
    assert_eq!(only_call(&ws)[0]["toolName"], "view");
}

#[test]
fn rm_rf_root_is_denied_with_a_reason() {
    let ws = Workspace::new();
    let (decision, reason) = decision(&ws.hook(AGENT, &ws.payload(AGENT, "before_tool_rm_rf")));
    assert_eq!(decision, "deny");
    assert!(reason.unwrap().contains("rm -rf /"));
}

#[test]
fn an_ask_is_a_deny_that_says_how_to_approve() {
    let ws = Workspace::new();
    let (decision, reason) = decision(&ws.hook(AGENT, &ws.payload(AGENT, "before_tool_ask")));
    assert_eq!(decision, "deny");
    assert!(reason.unwrap().contains("approve it in Warrant"));
    let records = only_call(&ws);
    assert_eq!(records[0]["decision"]["behavior"], "ask");
    assert_eq!(records[0]["toolName"], "Write");
}

#[test]
fn a_payload_that_is_not_json_is_blocked_with_exit_code_2() {
    let ws = Workspace::new();
    let answer = ws.hook(AGENT, "BeforeTool run_shell_command");
    assert_eq!(answer.code, 2, "{answer:?}");
    assert!(
        answer.stderr.contains("not valid JSON"),
        "{}",
        answer.stderr
    );
}

#[test]
fn a_before_tool_payload_missing_its_tool_is_denied_naming_the_field() {
    let ws = Workspace::new();
    let (decision, reason) =
        decision(&ws.hook(AGENT, &ws.payload(AGENT, "before_tool_no_tool_name")));
    assert_eq!(decision, "deny");
    assert!(reason.unwrap().contains("\"tool_name\""));
}

#[test]
fn an_after_tool_event_finds_its_call_by_tool_and_input() {
    let ws = Workspace::new();
    decision(&ws.hook(AGENT, &ws.payload(AGENT, "before_tool_read")));
    let answer = ws.hook(AGENT, &ws.payload(AGENT, "after_tool"));
    assert_eq!(answer.code, 0, "{answer:?}");
    assert_eq!(answer.json(), serde_json::json!({}));
    assert!(answer.stderr.is_empty(), "the call was found: {answer:?}");
    let answer = ws.hook(AGENT, &ws.payload(AGENT, "after_agent"));
    assert_eq!(answer.json(), serde_json::json!({}));
}
