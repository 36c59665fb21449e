//! Grants: what a `session` or `global` approval covers from then on.

use crate::ids::{SessionId, ToolCallId};
use serde::{Deserialize, Serialize};

use crate::call::ToolCall;
use crate::decision::Scope;

/// The canonical form of what an approval covers: a tool, and optionally what within it
/// (for a shell command, its program and subcommand, never "every command").
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GrantKey {
    /// The runtime tool id.
    pub tool_name: String,
    /// The canonical specifier within the tool (`git push`); the whole tool when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub specifier: Option<String>,
    /// The workspace root the approval was given in: a grant covers calls of that workspace
    /// only, even when several workspaces share one data directory. Absent for scopers that
    /// know no workspace.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub workspace: Option<String>,
}

impl GrantKey {
    /// How the key reads in an approval action: `"git push" commands`, `"Edit" calls`.
    pub fn describe(&self) -> String {
        match &self.specifier {
            Some(spec) if crate::catalog::is_shell_tool(&self.tool_name) => {
                format!("\"{spec}\" commands")
            }
            Some(spec) => format!("\"{}\" calls on \"{spec}\"", self.tool_name),
            None => format!("\"{}\" calls", self.tool_name),
        }
    }
}

/// A standing approval that later calls match through the `rule` evaluator.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Grant {
    /// Its stable id (`grt_…`), derived from the session and the call whose approval made it
    /// ([`Grant::id_for`]); grants recorded before ids existed get theirs when loaded.
    #[serde(default)]
    pub id: String,
    /// What it covers.
    pub keys: Vec<GrantKey>,
    /// `session` or `global`.
    pub scope: Scope,
    /// The session it was granted in (it applies only there when the scope is `session`).
    pub session_id: SessionId,
    /// The call whose approval created it.
    pub tool_call_id: ToolCallId,
    /// When it was granted (Unix milliseconds).
    pub granted_at: i64,
    /// How it was described to the user.
    pub description: String,
    /// The action the user chose on that call (empty for grants recorded before it was kept).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub action_id: String,
}

impl Grant {
    /// The id of the grant made by approving `tool_call_id` in `session_id`: `grt_` and 16
    /// hex digits of their SHA-256, so the same approval always names the same grant.
    pub fn id_for(session_id: &SessionId, tool_call_id: &ToolCallId) -> String {
        use sha2::{Digest, Sha256};
        let mut h = Sha256::new();
        h.update(session_id.as_str().as_bytes());
        h.update([0]);
        h.update(tool_call_id.as_str().as_bytes());
        format!("grt_{}", &hex::encode(h.finalize())[..16])
    }

    /// Gives a grant recorded before ids existed its id.
    pub fn with_id(mut self) -> Self {
        if self.id.is_empty() {
            self.id = Self::id_for(&self.session_id, &self.tool_call_id);
        }
        self
    }

    /// Whether `other` allows exactly what this grant allows, in the same place: a second
    /// such grant adds nothing and is not kept.
    pub fn same_reach(&self, other: &Grant) -> bool {
        let mut a = self.keys.clone();
        let mut b = other.keys.clone();
        a.sort();
        b.sort();
        a == b
            && self.scope == other.scope
            && (self.scope == Scope::Global || self.session_id == other.session_id)
    }

    /// Whether the grant applies in `session_id`.
    pub fn applies_in(&self, session_id: &SessionId) -> bool {
        self.scope == Scope::Global || self.session_id == session_id
    }

    /// Whether the grant covers every key of a call.
    pub fn covers(&self, keys: &[GrantKey]) -> bool {
        !keys.is_empty() && keys.iter().all(|k| self.keys.contains(k))
    }
}

/// Derives the canonical keys a grant for a call covers.
///
/// A call is covered by a grant when every key it derives is in the grant, so a compound
/// shell command derives one key per part.
pub trait GrantScoper: Send + Sync {
    /// The keys of a call.
    fn keys(&self, call: &ToolCall) -> Vec<GrantKey>;

    /// The keys of a call being evaluated in `cx`: a scoper may reuse the call's shared
    /// analysis ([`EvaluationContext::analysis`](crate::call::EvaluationContext::analysis)).
    fn keys_in(&self, call: &ToolCall, cx: &crate::call::EvaluationContext) -> Vec<GrantKey> {
        let _ = cx;
        self.keys(call)
    }

    /// The phrase an approval action uses to say how broad its grant is.
    fn describe(&self, keys: &[GrantKey]) -> String {
        let parts: Vec<String> = keys.iter().map(GrantKey::describe).collect();
        parts.join(" and ")
    }
}

/// The narrowest scoper: a grant covers the exact same input of the same tool.
///
/// Used when no evaluator crate provides a better one; never broader than what was approved.
#[derive(Debug, Clone, Copy, Default)]
pub struct ExactInputScoper;

impl GrantScoper for ExactInputScoper {
    fn keys(&self, call: &ToolCall) -> Vec<GrantKey> {
        let command = crate::catalog::shell_command(&call.input);
        let specifier = match command.as_deref() {
            Some(command) => command.to_owned(),
            None => call.input.to_string(),
        };
        vec![GrantKey {
            tool_name: call.tool_name.clone(),
            specifier: Some(specifier),
            workspace: None,
        }]
    }
}

/// A scoper whose panics become "no grant": the keys of a call that panicked are empty (an
/// empty key list is covered by no grant, and an approval for it offers its one-call actions
/// only), and a description that panicked is a neutral phrase. A grant scoper runs outside the
/// chain's guard, so without this wrapper a panic in it would end the authorization instead of
/// leaving the call to the chain.
pub struct GuardedScoper(pub std::sync::Arc<dyn GrantScoper>);

impl GuardedScoper {
    fn guarded<T>(what: &str, run: impl FnOnce() -> T, fallback: impl FnOnce() -> T) -> T {
        match std::panic::catch_unwind(std::panic::AssertUnwindSafe(run)) {
            Ok(value) => value,
            Err(panic) => {
                tracing::error!(
                    panic = %crate::chain::panic_message(panic.as_ref()),
                    "the grant scoper panicked while {what}; the call gets no grant"
                );
                fallback()
            }
        }
    }
}

impl GrantScoper for GuardedScoper {
    fn keys(&self, call: &ToolCall) -> Vec<GrantKey> {
        Self::guarded("deriving keys", || self.0.keys(call), Vec::new)
    }

    fn keys_in(&self, call: &ToolCall, cx: &crate::call::EvaluationContext) -> Vec<GrantKey> {
        Self::guarded("deriving keys", || self.0.keys_in(call, cx), Vec::new)
    }

    fn describe(&self, keys: &[GrantKey]) -> String {
        Self::guarded(
            "describing keys",
            || self.0.describe(keys),
            || "calls like this one".to_owned(),
        )
    }
}

/// The actions an approval for a call with these grant keys offers: the standard four, or
/// only the one-call actions when there is nothing a `session` or `global` grant could cover.
pub(crate) fn offered_actions(
    scoper: &dyn GrantScoper,
    keys: &[GrantKey],
) -> Vec<crate::approval::ApprovalAction> {
    let mut actions = crate::approval::standard_actions(&scoper.describe(keys));
    if keys.is_empty() {
        actions.retain(|a| a.scope == Scope::Once);
    }
    actions
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn key(tool: &str, spec: Option<&str>) -> GrantKey {
        GrantKey {
            tool_name: tool.to_owned(),
            specifier: spec.map(str::to_owned),
            workspace: None,
        }
    }

    fn grant(keys: Vec<GrantKey>, scope: Scope) -> Grant {
        Grant {
            id: Grant::id_for(&"s1".into(), &"c".into()),
            action_id: "allow_session".into(),
            keys,
            scope,
            session_id: "s1".into(),
            tool_call_id: "c".into(),
            granted_at: 0,
            description: String::new(),
        }
    }

    #[test]
    fn shell_keys_read_as_commands() {
        assert_eq!(
            key("Bash", Some("git push")).describe(),
            "\"git push\" commands"
        );
        assert_eq!(key("Edit", None).describe(), "\"Edit\" calls");
        assert_eq!(
            key("Edit", Some("src/")).describe(),
            "\"Edit\" calls on \"src/\""
        );
    }

    #[test]
    fn a_grant_covers_a_call_only_when_every_key_is_granted() {
        let g = grant(
            vec![
                key("Bash", Some("git push")),
                key("Bash", Some("git status")),
            ],
            Scope::Session,
        );
        assert!(g.covers(&[key("Bash", Some("git push"))]));
        assert!(!g.covers(&[key("Bash", Some("git push")), key("Bash", Some("rm"))]));
        assert!(!g.covers(&[]), "a call with no keys is never covered");
    }

    #[test]
    fn ids_are_stable_and_given_to_old_grants() {
        let id = Grant::id_for(&"s1".into(), &"c".into());
        assert!(id.starts_with("grt_") && id.len() == 20, "{id}");
        assert_ne!(id, Grant::id_for(&"s1".into(), &"d".into()));
        assert_ne!(
            Grant::id_for(&"s1c".into(), &"".into()),
            Grant::id_for(&"s1".into(), &"c".into())
        );
        let old: Grant = serde_json::from_value(json!({
            "keys": [], "scope": "session", "sessionId": "s1", "toolCallId": "c",
            "grantedAt": 0, "description": ""
        }))
        .unwrap();
        assert_eq!(old.with_id().id, id);
    }

    #[test]
    fn grants_of_the_same_reach_are_recognised() {
        let a = grant(
            vec![key("Bash", Some("ls")), key("Bash", Some("pwd"))],
            Scope::Session,
        );
        let mut b = grant(
            vec![key("Bash", Some("pwd")), key("Bash", Some("ls"))],
            Scope::Session,
        );
        b.tool_call_id = "other".into();
        assert!(a.same_reach(&b));
        b.session_id = "s2".into();
        assert!(!a.same_reach(&b), "session grants of two sessions differ");
        let mut g = grant(vec![key("Bash", Some("ls"))], Scope::Global);
        let mut h = g.clone();
        h.session_id = "s2".into();
        assert!(g.same_reach(&h), "global grants reach every session");
        g.scope = Scope::Session;
        assert!(!g.same_reach(&h));
    }

    #[test]
    fn session_grants_apply_only_in_their_session() {
        assert!(grant(vec![], Scope::Session).applies_in(&"s1".into()));
        assert!(!grant(vec![], Scope::Session).applies_in(&"s2".into()));
        assert!(grant(vec![], Scope::Global).applies_in(&"s2".into()));
    }

    #[test]
    fn exact_scoper_keys_the_whole_command() {
        let call = ToolCall::new("s", "c", "Bash", json!({"command": "git push origin main"}));
        assert_eq!(
            ExactInputScoper.keys(&call),
            vec![key("Bash", Some("git push origin main"))]
        );
        let call = ToolCall::new("s", "c", "Edit", json!({"path": "a"}));
        assert_eq!(
            ExactInputScoper.keys(&call),
            vec![key("Edit", Some("{\"path\":\"a\"}"))]
        );
    }
}
