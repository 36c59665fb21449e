//! A tool call as the engine sees it, and the context it is evaluated in.

use std::path::PathBuf;
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::catalog::ToolCatalog;
use crate::decision::Risk;
use crate::grant::Grant;
use crate::ids::{SessionId, ToolCallId};
use crate::workspace::EffectivePolicy;

/// How prompts are settled for calls that no rule or hard policy decides.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PermissionMode {
    /// Open calls ask the user.
    #[default]
    Default,
    /// Open calls are reviewed by the classifier.
    Auto,
    /// Open calls are allowed without review.
    FullAccess,
}

impl PermissionMode {
    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Default => "default",
            Self::Auto => "auto",
            Self::FullAccess => "full_access",
        }
    }
}

impl std::str::FromStr for PermissionMode {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "default" => Ok(Self::Default),
            "auto" => Ok(Self::Auto),
            "full_access" | "full-access" => Ok(Self::FullAccess),
            other => Err(format!(
                "unknown permission mode \"{other}\" (expected default, auto or full_access)"
            )),
        }
    }
}

/// One tool call an agent wants to make.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolCall {
    /// The call's id, shared by every event about it.
    pub tool_call_id: ToolCallId,
    /// The session the call belongs to.
    pub session_id: SessionId,
    /// The runtime tool identifier (`Bash`, `view`, `lsp_ts_hover`, `git.status`).
    pub tool_name: String,
    /// The call's arguments.
    #[serde(default)]
    pub input: Value,
    /// The agent that makes the call, when known (`primary` otherwise).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent_id: Option<String>,
    /// The assistant message the call belongs to, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message_id: Option<String>,
}

impl ToolCall {
    /// A call with the given ids, tool and input.
    ///
    /// Plain strings convert into either id; typed ids keep their place:
    ///
    /// ```compile_fail
    /// use warrant_core::prelude::*;
    ///
    /// let session = SessionId::new("s1");
    /// let call = ToolCallId::new("call_1");
    /// ToolCall::new(call, session, "Bash", serde_json::Value::Null);
    /// ```
    pub fn new(
        session_id: impl Into<SessionId>,
        tool_call_id: impl Into<ToolCallId>,
        tool_name: impl Into<String>,
        input: Value,
    ) -> Self {
        Self {
            tool_call_id: tool_call_id.into(),
            session_id: session_id.into(),
            tool_name: tool_name.into(),
            input,
            agent_id: None,
            message_id: None,
        }
    }

    /// The agent that makes the call (`primary` when not given).
    pub fn agent(&self) -> &str {
        self.agent_id
            .as_deref()
            .unwrap_or(crate::workspace::PRIMARY_AGENT)
    }
}

/// Everything an evaluator may look at besides the call itself.
#[derive(Debug, Clone)]
pub struct EvaluationContext {
    /// The active permission mode.
    pub mode: PermissionMode,
    /// The workspace root; relative paths resolve against it.
    pub workspace_root: PathBuf,
    /// The session's effective approval policy (pattern rules plus session override).
    pub policy: Arc<EffectivePolicy>,
    /// The tool catalog (ids, labels, input schemas when known).
    pub catalog: Arc<ToolCatalog>,
    /// Grants from earlier `session` and `global` approvals that apply to this session.
    pub grants: Arc<Vec<Grant>>,
    /// The canonical keys a grant for this call would cover (see [`GrantScoper`](crate::grant::GrantScoper)).
    pub grant_keys: Vec<crate::grant::GrantKey>,
    /// For evaluators asked to settle an open call: the highest risk the others rated.
    pub open_risk: Option<Risk>,
    /// What the evaluators of this call computed about it and share (the parsed command), so
    /// that the call is analyzed once however many evaluators read it.
    pub analysis: Analysis,
}

/// A per-call slot for an analysis that every evaluator of the call reads: the first to need
/// it computes it, the others reuse it. Clones share the slot.
#[derive(Clone, Default)]
pub struct Analysis(Arc<std::sync::OnceLock<Arc<dyn std::any::Any + Send + Sync>>>);

impl Analysis {
    /// The analysis of type `T`, computed by `make` if the slot is empty. When the slot holds
    /// another type, `make`'s result is returned without being kept.
    pub fn get_or_insert_with<T: std::any::Any + Send + Sync>(
        &self,
        make: impl FnOnce() -> T,
    ) -> Arc<T> {
        if let Some(held) = self.0.get() {
            return match Arc::clone(held).downcast::<T>() {
                Ok(value) => value,
                Err(_) => Arc::new(make()),
            };
        }
        let value = Arc::new(make());
        let shared: Arc<dyn std::any::Any + Send + Sync> = value.clone();
        let held = self.0.get_or_init(|| shared);
        Arc::clone(held).downcast::<T>().unwrap_or(value)
    }
}

impl std::fmt::Debug for Analysis {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.0.get().is_some() {
            "Analysis(computed)"
        } else {
            "Analysis(empty)"
        })
    }
}

impl EvaluationContext {
    /// A context with the default policy, the built-in catalog and no grants.
    pub fn new(mode: PermissionMode, workspace_root: impl Into<PathBuf>) -> Self {
        Self {
            mode,
            workspace_root: workspace_root.into(),
            policy: Arc::new(EffectivePolicy::default()),
            catalog: Arc::new(ToolCatalog::builtin()),
            grants: Arc::new(Vec::new()),
            grant_keys: Vec::new(),
            open_risk: None,
            analysis: Analysis::default(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modes_parse_from_their_wire_names_and_reject_others_by_name() {
        for mode in [
            PermissionMode::Default,
            PermissionMode::Auto,
            PermissionMode::FullAccess,
        ] {
            assert_eq!(mode.as_str().parse::<PermissionMode>(), Ok(mode));
        }
        let err = "yolo".parse::<PermissionMode>().unwrap_err();
        assert!(err.contains("\"yolo\""), "{err}");
    }

    #[test]
    fn calls_without_an_agent_belong_to_the_primary_agent() {
        let call = ToolCall::new("s", "c", "Bash", Value::Null);
        assert_eq!(call.agent(), "primary");
    }
}

#[cfg(test)]
mod analysis_tests {
    use super::*;

    #[test]
    fn an_analysis_is_computed_once_and_shared_by_clones() {
        let cx = EvaluationContext::new(PermissionMode::Default, "/w");
        let copy = cx.clone();
        let mut runs = 0;
        let first = cx.analysis.get_or_insert_with(|| {
            runs += 1;
            String::from("parsed")
        });
        let second = copy.analysis.get_or_insert_with(|| {
            runs += 1;
            String::from("again")
        });
        assert_eq!(runs, 1);
        assert!(Arc::ptr_eq(&first, &second));
        let other: Arc<u32> = copy.analysis.get_or_insert_with(|| 7);
        assert_eq!(*other, 7, "another type is computed, not confused");
    }
}
