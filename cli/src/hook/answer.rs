//! Answers in each agent's own schema and exit-code convention.
//!
//! - Claude Code: `hookSpecificOutput.permissionDecision` `allow`/`ask`/`deny` with
//!   `permissionDecisionReason`, exit 0.
//! - Codex: a `PreToolUse` hook may only deny (`permissionDecision: "deny"` with a reason);
//!   `allow` and `ask` are unsupported there, so an allow says nothing (Codex's own approval
//!   policy goes on) and an ask is a deny that says how to approve.
//! - Gemini CLI: `decision` `allow`/`deny` with `reason`, exit 0; other events answer `{}`.
//!
//! A payload that cannot be read at all is refused with exit code 2 (every agent's blocking
//! error, stderr as the reason), never let through.

use serde_json::json;

use super::Agent;

/// What Warrant says about a call, in its own terms.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Verdict {
    /// The call may run.
    Allow(String),
    /// The user must approve it.
    Ask(String),
    /// It must not run.
    Deny(String),
    /// Not a decision (post-tool and lifecycle events).
    Nothing,
}

/// What the hook prints and how it exits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Answer {
    /// stdout (one JSON object), if anything.
    pub stdout: Option<String>,
    /// stderr, if anything.
    pub stderr: Option<String>,
    /// The exit code.
    pub code: u8,
}

impl Answer {
    fn json(value: serde_json::Value) -> Self {
        Self {
            stdout: Some(value.to_string()),
            stderr: None,
            code: 0,
        }
    }

    fn silent() -> Self {
        Self {
            stdout: None,
            stderr: None,
            code: 0,
        }
    }
}

/// The agent's answer to a verdict.
pub(crate) fn render(agent: Agent, verdict: &Verdict) -> Answer {
    match (agent, verdict) {
        (Agent::ClaudeCode, Verdict::Nothing) | (Agent::Codex, Verdict::Nothing) => {
            Answer::silent()
        }
        (Agent::Gemini, Verdict::Nothing) => Answer::json(json!({})),
        (Agent::ClaudeCode, v) => {
            let decision = match v {
                Verdict::Allow(_) => "allow",
                Verdict::Deny(_) => "deny",
                _ => "ask",
            };
            Answer::json(json!({
                "hookSpecificOutput": {
                    "hookEventName": "PreToolUse",
                    "permissionDecision": decision,
                    "permissionDecisionReason": reason_of(v),
                }
            }))
        }
        (Agent::Codex, Verdict::Allow(_)) => Answer::silent(),
        (Agent::Codex, v) => Answer::json(json!({
            "hookSpecificOutput": {
                "hookEventName": "PreToolUse",
                "permissionDecision": "deny",
                "permissionDecisionReason": blocking_reason(agent, v),
            }
        })),
        (Agent::Gemini, Verdict::Allow(_)) => Answer::json(json!({"decision": "allow"})),
        (Agent::Gemini, v) => Answer::json(json!({
            "decision": "deny",
            "reason": blocking_reason(agent, v),
        })),
    }
}

fn reason_of(verdict: &Verdict) -> &str {
    match verdict {
        Verdict::Allow(r) | Verdict::Ask(r) | Verdict::Deny(r) => r,
        Verdict::Nothing => "",
    }
}

/// A deny's reason; for an ask the agent cannot put to the user, how to approve it.
fn blocking_reason(agent: Agent, verdict: &Verdict) -> String {
    match verdict {
        Verdict::Ask(reason) => format!(
            "Warrant asks for approval and {} hooks cannot ask, so the call is blocked. {reason} To run it, approve it in Warrant (once, for the session or always) and retry.",
            agent.display_name()
        ),
        other => reason_of(other).to_owned(),
    }
}

/// The answer to a payload that cannot be read. A pre-tool event that names itself is
/// answered as one (ask for Claude Code, deny for the others); anything unreadable beyond
/// that is a blocking error (exit 2); a broken post-tool or lifecycle event is a warning
/// (exit 1), since nothing is left to block.
pub(crate) fn unreadable(agent: Agent, event: Option<&str>, message: &str) -> Answer {
    let reason = format!("Warrant could not read this call, so it is not allowed: {message}");
    match event {
        Some(event) if super::event::is_pre_tool(agent, event) => {
            render(agent, &Verdict::Ask(reason))
        }
        None => Answer {
            stdout: None,
            stderr: Some(reason),
            code: 2,
        },
        Some(_) => Answer {
            stdout: None,
            stderr: Some(format!("warrant hook: {message}")),
            code: 1,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_agent_is_ever_told_allow_for_an_ask_or_a_deny() {
        for agent in [Agent::ClaudeCode, Agent::Codex, Agent::Gemini] {
            for verdict in [Verdict::Ask("r".into()), Verdict::Deny("r".into())] {
                let answer = render(agent, &verdict);
                let out = answer.stdout.unwrap_or_default();
                assert!(!out.contains("\"allow\""), "{agent:?} {verdict:?}: {out}");
                assert!(
                    !out.is_empty(),
                    "{agent:?} {verdict:?}: silence lets the call run"
                );
            }
        }
    }

    #[test]
    fn an_unreadable_payload_blocks_with_exit_code_2() {
        for agent in [Agent::ClaudeCode, Agent::Codex, Agent::Gemini] {
            let answer = unreadable(agent, None, "not JSON");
            assert_eq!(answer.code, 2);
            assert!(answer.stderr.unwrap().contains("not JSON"));
        }
    }
}
