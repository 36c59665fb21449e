//! `warrant hook codex` over Codex's real payload shapes. A Codex `PreToolUse` hook can only
//! deny (`permissionDecision: "deny"` with a reason); `allow` and `ask` are unsupported there,
//! so an allow prints nothing and an ask is a deny that says how to approve.

mod hook_support;

use hook_support::{Answer, Workspace};

const AGENT: &str = "codex";

fn denial(answer: &Answer) -> String {
    assert_eq!(answer.code, 0, "{answer:?}");
    let json = answer.json();
    let out = &json["hookSpecificOutput"];
    assert_eq!(out["hookEventName"], "PreToolUse", "{json}");
    assert_eq!(out["permissionDecision"], "deny", "{json}");
    assert_eq!(
        json.as_object().unwrap().len(),
        1,
        "nothing Codex refuses: {json}"
    );
    let reason = out["permissionDecisionReason"].as_str().unwrap().to_owned();
    assert!(!reason.trim().is_empty());
    reason
}

#[test]
fn a_read_inside_the_workspace_is_allowed_by_saying_nothing() {
    let ws = Workspace::new();
    let answer = ws.hook(AGENT, &ws.payload(AGENT, "pre_tool_use_read"));
    assert_eq!(answer.code, 0, "{answer:?}");
    assert!(answer.stdout.is_empty(), "{answer:?}");
    let records = ws.audit_of("call_ReadNotes");
    assert_eq!(records[0]["decision"]["behavior"], "allow", "{records:?}");
    assert_eq!(records[0]["toolName"], "Bash");
}

#[test]
fn rm_rf_root_is_denied() {
    let ws = Workspace::new();
    let reason = denial(&ws.hook(AGENT, &ws.payload(AGENT, "pre_tool_use_rm_rf")));
    assert!(reason.contains("rm -rf /"), "{reason}");
}

#[test]
fn an_ask_is_a_deny_that_says_how_to_approve() {
    let ws = Workspace::new();
    let reason = denial(&ws.hook(AGENT, &ws.payload(AGENT, "pre_tool_use_ask")));
    assert!(reason.contains("cannot ask"), "{reason}");
    assert!(reason.contains("approve it in Warrant"), "{reason}");
    let records = ws.audit_of("call_Patch");
    assert_eq!(records[0]["decision"]["behavior"], "ask");
    // A one-file patch is decided as an Edit of that file.
    assert_eq!(records[0]["toolName"], "Edit");
}

#[test]
fn a_payload_that_is_not_json_is_blocked_with_exit_code_2() {
    let ws = Workspace::new();
    let answer = ws.hook(AGENT, "[1, 2");
    assert_eq!(answer.code, 2, "{answer:?}");
    assert!(
        answer.stderr.contains("not valid JSON"),
        "{}",
        answer.stderr
    );
}

#[test]
fn a_pre_tool_use_payload_missing_its_tool_is_denied_naming_the_field() {
    let ws = Workspace::new();
    let reason = denial(&ws.hook(AGENT, &ws.payload(AGENT, "pre_tool_use_no_tool_name")));
    assert!(reason.contains("\"tool_name\""), "{reason}");
}

#[test]
fn a_post_tool_use_event_completes_the_allowed_call_and_stop_says_nothing() {
    let ws = Workspace::new();
    ws.hook(AGENT, &ws.payload(AGENT, "pre_tool_use_read"));
    let answer = ws.hook(AGENT, &ws.payload(AGENT, "post_tool_use"));
    assert_eq!(answer.code, 0, "{answer:?}");
    assert!(
        answer.stdout.is_empty() && answer.stderr.is_empty(),
        "{answer:?}"
    );
    let answer = ws.hook(AGENT, &ws.payload(AGENT, "stop"));
    assert_eq!(answer.code, 0, "{answer:?}");
    assert!(
        answer.stdout.is_empty(),
        "a Stop hook must not block: {answer:?}"
    );
}

#[test]
fn a_shell_call_is_judged_in_its_workdir_not_the_workspace() {
    let ws = Workspace::new();
    // `cat passwd` with `workdir: "/etc"` reads /etc/passwd, not a file of the workspace.
    let reason = denial(&ws.hook(AGENT, &ws.payload(AGENT, "pre_tool_use_workdir")));
    let records = ws.audit_of("call_CatPasswd");
    assert_ne!(
        records[0]["decision"]["behavior"], "allow",
        "{reason} {records:?}"
    );
    assert_eq!(records[0]["toolName"], "Bash");
}

#[test]
fn a_shell_call_with_a_field_the_policy_does_not_model_asks() {
    let ws = Workspace::new();
    let payload = ws.codex_pre_tool(
        "call_Env",
        "Bash",
        serde_json::json!({"command": ["cat", "notes.txt"], "env": {"LD_PRELOAD": "/tmp/x.so"}}),
    );
    let reason = denial(&ws.hook(AGENT, &payload));
    assert!(reason.contains("cannot ask"), "{reason}");
    let records = ws.audit_of("call_Env");
    assert_eq!(records[0]["decision"]["behavior"], "ask", "{records:?}");
    // Without the field, the same read is allowed: the field is what asks.
    let payload = ws.codex_pre_tool(
        "call_NoEnv",
        "Bash",
        serde_json::json!({"command": ["cat", "notes.txt"]}),
    );
    let answer = ws.hook(AGENT, &payload);
    assert!(answer.stdout.is_empty(), "{answer:?}");
}

#[test]
fn a_patch_that_moves_its_file_elsewhere_is_not_an_edit_of_that_file() {
    let ws = Workspace::new();
    denial(&ws.hook(AGENT, &ws.payload(AGENT, "pre_tool_use_patch_move")));
    let records = ws.audit_of("call_PatchMove");
    assert_eq!(records[0]["toolName"], "apply_patch", "{records:?}");
    assert_ne!(records[0]["decision"]["behavior"], "allow", "{records:?}");
}
