//! The demo agent's script: what it says, and which tool calls it makes in which mode, chosen
//! so that every kind of decision shows up.

use serde_json::{Value, json};
use warrant_core::call::PermissionMode;

/// One step: a sentence, then a tool call whose result is mocked.
#[derive(Debug, Clone, PartialEq)]
pub struct Step {
    /// What the agent says before the call.
    pub say: &'static str,
    /// The runtime tool id.
    pub tool: &'static str,
    /// The call's input.
    pub input: Value,
    /// The mode the call is authorized in (the run's options may override it).
    pub mode: PermissionMode,
    /// The mocked result, when the call is allowed to run.
    pub output: &'static str,
}

/// A script: its steps and the closing sentence.
#[derive(Debug, Clone, PartialEq)]
pub struct Scenario {
    /// Its name (`tour`, `read`, `deny`, `ask`, `auto`, `full_access`).
    pub name: &'static str,
    /// The steps, in order.
    pub steps: Vec<Step>,
    /// What the agent says at the end.
    pub closing: &'static str,
}

/// A read-only call: the policy allows it.
fn read_readme() -> Step {
    Step {
        say: "Let me read the project's README first.",
        tool: "view",
        input: json!({"path": "README.md"}),
        mode: PermissionMode::Default,
        output: "# demo-service\nA small HTTP service with a test suite.\n",
    }
}

/// A destructive command: a hard deny in every mode.
fn wipe_disk() -> Step {
    Step {
        say: "Clearing out old build files the quick way.",
        tool: "Bash",
        input: json!({"command": "rm -rf /"}),
        mode: PermissionMode::Default,
        output: "(the demo's tools are mocked: nothing was removed)",
    }
}

/// A command with side effects outside the workspace: the user is asked.
fn push_branch() -> Step {
    Step {
        say: "The tests pass; pushing the branch.",
        tool: "Bash",
        input: json!({"command": "git push origin main"}),
        mode: PermissionMode::Default,
        output: "To origin\n   1a2b3c4..5d6e7f8  main -> main\n",
    }
}

/// A workspace edit in auto mode: the classifier reviews it.
fn edit_changelog() -> Step {
    Step {
        say: "Noting the fix in the changelog (auto mode: the security reviewer decides).",
        tool: "Edit",
        input: json!({
            "path": "CHANGELOG.md",
            "old_string": "## Unreleased",
            "new_string": "## Unreleased\n- Fix the flaky retry test"
        }),
        mode: PermissionMode::Auto,
        output: "Edited CHANGELOG.md (1 replacement).",
    }
}

/// A write in Full Access mode: allowed without review.
fn write_notes() -> Step {
    Step {
        say: "Writing the release notes (Full Access: no prompts).",
        tool: "Write",
        input: json!({"path": "NOTES.md", "content": "Release 1.4.1: fixes the flaky retry test.\n"}),
        mode: PermissionMode::FullAccess,
        output: "Wrote NOTES.md (44 bytes).",
    }
}

/// The scenario a user message asks for: a single step when it names one (`read`, `deny`,
/// `ask`/`approve`/`push`, `auto`, `full`), else the whole tour.
pub fn scenario_for(text: &str) -> Scenario {
    let text = text.to_lowercase();
    let has = |words: &[&str]| words.iter().any(|w| text.contains(w));
    let (name, steps) = if has(&["deny", "delete", "wipe"]) {
        ("deny", vec![wipe_disk()])
    } else if has(&["ask", "approve", "push"]) {
        ("ask", vec![push_branch()])
    } else if has(&["auto", "classifier", "review"]) {
        ("auto", vec![edit_changelog()])
    } else if has(&["full"]) {
        ("full_access", vec![write_notes()])
    } else if has(&["read", "view"]) {
        ("read", vec![read_readme()])
    } else {
        (
            "tour",
            vec![
                read_readme(),
                wipe_disk(),
                push_branch(),
                edit_changelog(),
                write_notes(),
            ],
        )
    };
    Scenario {
        name,
        steps,
        closing: "That's all for now.",
    }
}
