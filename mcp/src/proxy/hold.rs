//! Holding a `tools/call`: the decision, and for `ask` the user's answer (through Warrant or
//! MCP elicitation) or the timeout. Every failure is a denial.

use std::sync::Arc;
use warrant_core::ids::ToolCallId;

use serde_json::{Value, json};
use tokio::sync::oneshot;
use warrant_core::call::ToolCall;
use warrant_core::decision::Behavior;

use super::{Forwarded, Gateway, Held, OWN_ID_PREFIX, Out, gone, lock};
use crate::hints::ToolHints;
use crate::jsonrpc::{self, IdKey, Message};

/// How long a resolution that someone else recorded first may take to arrive.
const LATE_RESOLUTION: std::time::Duration = std::time::Duration::from_secs(5);
/// How often (at most) a held call that carries a progress token reports that it waits.
const PROGRESS_EVERY: std::time::Duration = std::time::Duration::from_secs(10);

/// What a held call may be interrupted by, and what it tells while it waits.
struct Hold {
    /// Why the tool's annotations call for the user, when they do.
    hint: Option<&'static str>,
    /// The client's progress token for the call.
    progress: Option<Value>,
    /// Fires when the client cancels the call or the server exits.
    cancelled: oneshot::Receiver<()>,
}

/// What became of a held call.
enum Verdict {
    Allow,
    Deny(String),
}

impl Gateway {
    /// Takes a `tools/call` or another decided request ([`super::relay::DECIDED_REQUESTS`])
    /// into `held` at once (so that a cancellation right behind it finds it), then decides it
    /// on a task of its own. A `tools/call` is the call of the tool it names, with its
    /// arguments; any other is a call of the tool named as the method (`resources/read`)
    /// with the request's parameters as input (`{"uri": …}`).
    pub(super) fn hold(self: &Arc<Self>, id: Value, method: &str, params: Option<Value>) {
        let key = IdKey::of(&id);
        let name = if method == "tools/call" {
            params
                .as_ref()
                .and_then(|p| p.get("name"))
                .and_then(Value::as_str)
                .filter(|n| !n.trim().is_empty())
                .map(str::to_owned)
        } else {
            Some(method.to_owned())
        };
        let Some(name) = name else {
            eprintln!("warrant mcp: a tools/call without a tool name; not forwarded");
            self.send_client(jsonrpc::error_response(
                &id,
                -32602,
                "tools/call needs params.name, the tool's name",
            ));
            return;
        };
        let method = method.to_owned();
        let (cancel, cancelled) = oneshot::channel();
        let hints = {
            let mut state = lock(&self.state);
            if state.closed {
                drop(state);
                self.send_client(gone(&id, "the MCP server has exited"));
                return;
            }
            state.held.insert(
                key.clone(),
                Held {
                    id: id.clone(),
                    cancel,
                },
            );
            state.hints.get(&name).copied().unwrap_or_default()
        };
        let gateway = self.clone();
        tokio::spawn(async move {
            gateway
                .call(key, &method, name, params, hints, cancelled)
                .await;
        });
    }

    /// Decides one held `tools/call` and forwards it, answers it with the denial, or holds
    /// it for the user.
    async fn call(
        self: Arc<Self>,
        key: IdKey,
        method: &str,
        name: String,
        params: Option<Value>,
        hints: ToolHints,
        cancelled: oneshot::Receiver<()>,
    ) {
        let tool_call = method == "tools/call";
        let input = if tool_call {
            params.as_ref().and_then(|p| p.get("arguments")).cloned()
        } else {
            // The request's parameters, the gateway's own (`_meta`) left out.
            params.as_ref().and_then(Value::as_object).map(|p| {
                let mut p = p.clone();
                p.remove("_meta");
                Value::Object(p)
            })
        }
        .unwrap_or_else(|| json!({}));
        let progress = params
            .as_ref()
            .and_then(|p| p.pointer("/_meta/progressToken"))
            .filter(|t| t.is_string() || t.is_number())
            .cloned();
        let tool_call_id = ToolCallId::new(format!("mcp-{}", uuid::Uuid::new_v4().simple()));
        let mode = hints.mode_for(self.options.mode);
        if mode != self.options.mode
            && let Some(why) = hints.asks_because()
        {
            eprintln!("warrant mcp: {name}: {why}; decided in default mode");
        }
        let session = self.options.session_id.clone();
        let call = ToolCall::new(&session, &tool_call_id, &name, input);
        // Deciding is not interrupted (the engine's record stays whole); waiting for the
        // user is, by the client's cancellation or the server's exit.
        let hold = Hold {
            hint: hints.asks_because(),
            progress,
            cancelled,
        };
        let verdict = self.verdict(call, mode, &name, hold).await;
        // Whoever takes the call out of `held` answers it: a cancellation or the server's
        // exit may have answered it already.
        let answered = {
            let mut state = lock(&self.state);
            match state.held.remove(&key) {
                None => None,
                Some(held) => {
                    if matches!(verdict, Verdict::Allow) && !state.closed {
                        state.forwarded.insert(
                            key,
                            Forwarded {
                                id: held.id.clone(),
                                method: method.to_owned(),
                                tool_call_id: Some(tool_call_id.clone()),
                                next_page: false,
                            },
                        );
                    }
                    Some((held.id, state.closed))
                }
            }
        };
        let Some((id, closed)) = answered else {
            if let Verdict::Deny(why) = verdict {
                self.decider.not_run(&session, &tool_call_id, &why).await;
            }
            return;
        };
        match verdict {
            Verdict::Allow if !closed => {
                let line = jsonrpc::rebuild_request(&id, method, params.as_ref());
                let _ = self.to_child.send(Out::Line(line));
            }
            Verdict::Allow => self.send_client(gone(&id, "the MCP server has exited")),
            Verdict::Deny(reason) if !tool_call => {
                // Only a tool's result can say it failed: another request gets an error.
                self.send_client(jsonrpc::error_response(
                    &id,
                    -32001,
                    &format!("Denied by Warrant: {reason}"),
                ));
                self.decider.not_run(&session, &tool_call_id, &reason).await;
            }
            Verdict::Deny(reason) => {
                self.send_client(jsonrpc::response(
                    &id,
                    json!({
                        "content": [{"type": "text", "text": format!("Denied by Warrant: {reason}")}],
                        "isError": true,
                    }),
                ));
                self.decider.not_run(&session, &tool_call_id, &reason).await;
            }
        }
    }

    /// The decision, and for `ask` the user's answer or the timeout. Fails closed: an error
    /// is a denial.
    async fn verdict(
        &self,
        call: ToolCall,
        mode: warrant_core::call::PermissionMode,
        name: &str,
        hold: Hold,
    ) -> Verdict {
        let tool_call_id = call.tool_call_id.clone();
        let decided = match self.decider.decide(call, mode).await {
            Ok(decided) => decided,
            Err(e) => {
                eprintln!("warrant mcp: {name}: the call could not be decided: {e}");
                return Verdict::Deny(format!(
                    "the call could not be decided, so it did not run ({e})"
                ));
            }
        };
        match decided.behavior {
            Behavior::Allow => Verdict::Allow,
            Behavior::Deny => Verdict::Deny(decided.reason),
            Behavior::Ask => {
                let reason = match hold.hint {
                    Some(hint) => format!("{} Also, {hint}.", decided.reason),
                    None => decided.reason,
                };
                self.ask(&tool_call_id, name, &reason, decided.pending, hold)
                    .await
            }
        }
    }

    async fn ask(
        &self,
        tool_call_id: &ToolCallId,
        name: &str,
        reason: &str,
        pending: Option<warrant_core::engine::PendingResolution>,
        hold: Hold,
    ) -> Verdict {
        let Hold {
            progress,
            mut cancelled,
            ..
        } = hold;
        let session = &self.options.session_id;
        let timeout = self.options.ask_timeout;
        let mut resolution = Box::pin(self.decider.resolution(session, tool_call_id, pending));
        let elicitation = lock(&self.state).elicitation;
        let mut elicited: std::pin::Pin<Box<dyn Future<Output = Option<Message>> + Send>> =
            if elicitation {
                Box::pin(self.elicit(name, reason, timeout))
            } else {
                Box::pin(std::future::pending())
            };
        let deadline = tokio::time::sleep(timeout);
        tokio::pin!(deadline);
        // A client that asked for progress hears that the call is waiting, which also keeps
        // clients whose request timeout restarts on progress from giving up on it.
        let started = tokio::time::Instant::now();
        let every = PROGRESS_EVERY
            .min(timeout / 4)
            .max(std::time::Duration::from_millis(100));
        let mut ticker = tokio::time::interval_at(started + every, every);
        let outcome = loop {
            tokio::select! {
                resolved = &mut resolution => break Some(resolved),
                _ = &mut cancelled => {
                    // Nothing answers a cancelled request; its approval request is withdrawn.
                    let why = "the MCP client cancelled the call while it waited";
                    if let Err(e) = self.decider.withdraw(tool_call_id, why).await {
                        eprintln!("warrant mcp: {name}: the withdrawal could not be recorded: {e}");
                    }
                    return Verdict::Deny("the call was cancelled while it waited".to_owned());
                }
                _ = ticker.tick(), if progress.is_some() => {
                    // Progress must grow with each notification: milliseconds, as seconds.
                    let waited = (started.elapsed().as_millis() as f64) / 1000.0;
                    self.send_client(json!({
                        "jsonrpc": "2.0",
                        "method": "notifications/progress",
                        "params": {
                            "progressToken": progress,
                            "progress": waited,
                            "message": format!("Waiting for approval of {name} ({waited:.0} s)"),
                        },
                    }).to_string());
                }
                answer = &mut elicited => {
                    let Some(answer) = answer else {
                        elicited = Box::pin(std::future::pending());
                        continue;
                    };
                    let Some(action) = elicited_action(&answer) else {
                        // The client could not ask: the other ways stay open.
                        elicited = Box::pin(std::future::pending());
                        continue;
                    };
                    if let Err(e) = self.decider.resolve(tool_call_id, action).await {
                        eprintln!("warrant mcp: {name}: the answer could not be recorded: {e}");
                    }
                    break None;
                }
                () = &mut deadline => {
                    let why = format!("no approval within {} s", timeout.as_secs_f64());
                    if let Err(e) = self.decider.withdraw(tool_call_id, &why).await {
                        eprintln!("warrant mcp: {name}: the timeout's withdrawal could not be recorded: {e}");
                    }
                    let late = tokio::time::timeout(LATE_RESOLUTION, &mut resolution).await;
                    return match late {
                        Ok(Ok(Behavior::Allow)) => Verdict::Allow,
                        _ => Verdict::Deny(format!(
                            "no approval within {} s ({reason})",
                            timeout.as_secs_f64()
                        )),
                    };
                }
            }
        };
        let resolved = match outcome {
            Some(resolved) => resolved,
            // Recorded (or someone else's resolution came first): the engine's word is final.
            None => match tokio::time::timeout(LATE_RESOLUTION, &mut resolution).await {
                Ok(resolved) => resolved,
                Err(_) => Err("the answer could not be recorded".to_owned()),
            },
        };
        match resolved {
            Ok(Behavior::Allow) => Verdict::Allow,
            Ok(_) => Verdict::Deny(format!("the user denied the call ({reason})")),
            Err(e) => Verdict::Deny(format!("the approval was not settled ({e})")),
        }
    }

    /// Asks the user through the client (`elicitation/create`); `None` when the client
    /// does not answer in time or the server is gone.
    fn elicit(
        &self,
        name: &str,
        reason: &str,
        timeout: std::time::Duration,
    ) -> impl Future<Output = Option<Message>> + Send + 'static {
        let (tx, rx) = oneshot::channel();
        // A random id: the child, whose requests to the client share the id space, cannot
        // foresee it (and its requests with the prefix are dropped).
        let id = json!(format!("{OWN_ID_PREFIX}{}", uuid::Uuid::new_v4()));
        lock(&self.state).own.insert(IdKey::of(&id), tx);
        let message = format!(
            "Warrant: allow the tool \"{name}\" of MCP server \"{}\"? {reason}",
            self.options.server_id
        );
        self.send_client(jsonrpc::request(
            &id,
            "elicitation/create",
            json!({
                "message": message,
                "requestedSchema": {
                    "type": "object",
                    "properties": {
                        "decision": {
                            "type": "string",
                            "title": "Decision",
                            "enum": ["allow_once", "deny"],
                            "enumNames": ["Allow once", "Deny"],
                        }
                    },
                    "required": ["decision"],
                },
            }),
        ));
        let to_client = self.to_client.clone();
        async move {
            match tokio::time::timeout(timeout, rx).await {
                Ok(Ok(answer)) => Some(answer),
                _ => {
                    // No answer: withdraw the question.
                    let _ = to_client.send(Out::Line(
                        json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
                               "params": {"requestId": id, "reason": "no longer needed"}})
                        .to_string(),
                    ));
                    None
                }
            }
        }
    }
}

/// The action an elicitation answer stands for: `allow_once` only for an accepted
/// `allow_once`; `None` when the client answered with an error (it could not ask).
fn elicited_action(answer: &Message) -> Option<&'static str> {
    let parsed = jsonrpc::parse_line(answer.raw()).ok()?;
    let Some(Message::Response { result, error, .. }) = parsed.into_iter().next() else {
        return None;
    };
    if error.is_some() {
        return None;
    }
    let result = result?;
    let accepted = result.get("action").and_then(Value::as_str) == Some("accept");
    let allow = result.pointer("/content/decision").and_then(Value::as_str) == Some("allow_once");
    Some(if accepted && allow {
        "allow_once"
    } else {
        "deny"
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn response(line: &str) -> Message {
        jsonrpc::parse_line(line).unwrap().remove(0)
    }

    #[test]
    fn only_an_accepted_allow_allows() {
        let accept = response(
            r#"{"jsonrpc":"2.0","id":"w","result":{"action":"accept","content":{"decision":"allow_once"}}}"#,
        );
        assert_eq!(elicited_action(&accept), Some("allow_once"));
        for line in [
            r#"{"jsonrpc":"2.0","id":"w","result":{"action":"accept","content":{"decision":"deny"}}}"#,
            r#"{"jsonrpc":"2.0","id":"w","result":{"action":"decline"}}"#,
            r#"{"jsonrpc":"2.0","id":"w","result":{"action":"cancel"}}"#,
            r#"{"jsonrpc":"2.0","id":"w","result":{"action":"accept","content":{"decision":"allow_always"}}}"#,
        ] {
            assert_eq!(elicited_action(&response(line)), Some("deny"), "{line}");
        }
        let error =
            response(r#"{"jsonrpc":"2.0","id":"w","error":{"code":-32601,"message":"no"}}"#);
        assert_eq!(elicited_action(&error), None);
    }
}
