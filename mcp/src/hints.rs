//! Tool annotations as untrusted hints: a server's own word that a tool is destructive or
//! reaches the open world can make its calls ask, and nothing a server says can allow one.

use serde_json::Value;
use warrant_core::call::PermissionMode;

/// The annotations a server declared for one tool (`tools/list`), as given.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ToolHints {
    /// `readOnlyHint`.
    pub read_only: Option<bool>,
    /// `destructiveHint`.
    pub destructive: Option<bool>,
    /// `openWorldHint`.
    pub open_world: Option<bool>,
}

impl ToolHints {
    /// The hints of a tool object of a `tools/list` result (none when it has no annotations).
    pub fn of_tool(tool: &Value) -> Self {
        let flag = |name: &str| {
            tool.get("annotations")
                .and_then(|a| a.get(name))
                .and_then(Value::as_bool)
        };
        Self {
            read_only: flag("readOnlyHint"),
            destructive: flag("destructiveHint"),
            open_world: flag("openWorldHint"),
        }
    }

    /// Why the hints call for the user, when they do: the tool is declared destructive, or
    /// reaching the open world without being read-only. Only explicit hints count; a
    /// read-only hint never relaxes anything.
    pub fn asks_because(&self) -> Option<&'static str> {
        if self.destructive == Some(true) {
            Some("the server declares the tool destructive (destructiveHint)")
        } else if self.open_world == Some(true) && self.read_only != Some(true) {
            Some("the server declares the tool reaches the open world (openWorldHint)")
        } else {
            None
        }
    }

    /// The mode a call of this tool is decided in: a tool the hints flag is never settled by
    /// the mode (the classifier in `auto`, Full Access), so an open call of it asks the user.
    /// Hard denies, the user's rules, grants and auto-approved tools decide as always.
    pub fn mode_for(&self, requested: PermissionMode) -> PermissionMode {
        if self.asks_because().is_some() {
            PermissionMode::Default
        } else {
            requested
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_destructive_hint_takes_the_settling_out_of_the_mode() {
        let hints =
            ToolHints::of_tool(&json!({"name": "rm", "annotations": {"destructiveHint": true}}));
        assert_eq!(
            hints.mode_for(PermissionMode::FullAccess),
            PermissionMode::Default
        );
        assert_eq!(
            hints.mode_for(PermissionMode::Auto),
            PermissionMode::Default
        );
    }

    #[test]
    fn a_read_only_hint_never_relaxes_a_mode() {
        let hints = ToolHints::of_tool(
            &json!({"name": "ls", "annotations": {"readOnlyHint": true, "openWorldHint": true}}),
        );
        assert_eq!(hints.asks_because(), None);
        assert_eq!(
            hints.mode_for(PermissionMode::Default),
            PermissionMode::Default
        );
        assert_eq!(hints.mode_for(PermissionMode::Auto), PermissionMode::Auto);
    }

    #[test]
    fn an_open_world_tool_that_may_write_asks() {
        let hints = ToolHints::of_tool(&json!({"annotations": {"openWorldHint": true}}));
        assert!(hints.asks_because().is_some());
    }

    #[test]
    fn missing_or_malformed_annotations_are_no_hints() {
        assert_eq!(
            ToolHints::of_tool(&json!({"name": "x"})),
            ToolHints::default()
        );
        let odd = ToolHints::of_tool(&json!({"annotations": {"destructiveHint": "yes"}}));
        assert_eq!(odd, ToolHints::default());
    }
}
