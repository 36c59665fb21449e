//! The calls every engine decides: a corpus covering each rule shape, hits and misses, with
//! the outcome the rules of [`generate`](crate::rules::generate) call for.

use serde_json::json;
use warrant_core::call::ToolCall;

use crate::rules::{Effect, GROUP, mcp_tool};

/// What the rules make of a call.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// A rule decides, with this effect.
    Ruled(Effect),
    /// No rule matches.
    NoRule,
}

/// A call and the outcome expected for it.
#[derive(Debug, Clone)]
pub struct Case {
    /// What the call exercises (`command prefix allow, group 5`).
    pub name: String,
    /// The call.
    pub call: ToolCall,
    /// What the rules make of it.
    pub expected: Outcome,
}

fn bash(command: &str) -> ToolCall {
    ToolCall::new("bench", "call", "Bash", json!({ "command": command }))
}

fn edit(path: &str) -> ToolCall {
    ToolCall::new(
        "bench",
        "call",
        "Edit",
        json!({ "path": path, "old_string": "a", "new_string": "b" }),
    )
}

fn tool(id: &str) -> ToolCall {
    ToolCall::new("bench", "call", id, json!({}))
}

fn case(name: impl Into<String>, call: ToolCall, expected: Outcome) -> Case {
    Case {
        name: name.into(),
        call,
        expected,
    }
}

use Effect::{Allow, Ask, Deny};
use Outcome::{NoRule, Ruled};

/// The calls of group `g` (see [`generate`](crate::rules::generate)) and what they meet:
/// what each exercises, the tool (`Bash` or `Edit`), its command or path (`{g}` stands for
/// the group), and the outcome.
const GROUP_CASES: [(&str, &str, &str, Outcome); 10] = [
    (
        "command prefix allow",
        "Bash",
        "prog{g} build release",
        Ruled(Allow),
    ),
    ("command prefix alone", "Bash", "prog{g}", Ruled(Allow)),
    (
        "deny prefix over allow",
        "Bash",
        "prog{g} push origin main",
        Ruled(Deny),
    ),
    (
        "ask prefix over allow",
        "Bash",
        "prog{g} deploy staging",
        Ruled(Ask),
    ),
    ("exact command", "Bash", "tool{g} status", Ruled(Allow)),
    (
        "exact command with more words",
        "Bash",
        "tool{g} status --short",
        NoRule,
    ),
    (
        "exact deny over prefix allow",
        "Bash",
        "prog{g} reset --hard",
        Ruled(Deny),
    ),
    (
        "path glob allow",
        "Edit",
        "src/module{g}/lib.rs",
        Ruled(Allow),
    ),
    (
        "deny glob over allow glob",
        "Edit",
        "src/module{g}/secret/key.pem",
        Ruled(Deny),
    ),
    ("ask glob", "Edit", "docs/section{g}/intro.md", Ruled(Ask)),
];

fn group_cases(g: usize) -> impl Iterator<Item = Case> {
    GROUP_CASES
        .iter()
        .map(move |&(what, tool, text, expected)| {
            let text = text.replace("{g}", &g.to_string());
            let call = if tool == "Bash" {
                bash(&text)
            } else {
                edit(&text)
            };
            case(format!("{what}, group {g}"), call, expected)
        })
}

/// The corpus for `n` rules (`n` a multiple of [`GROUP`], at least 100): the calls of the
/// first, middle and last groups, MCP calls, and calls no rule matches.
///
/// # Panics
///
/// When `n` is not such a size.
pub fn corpus(n: usize) -> Vec<Case> {
    assert!(
        n >= 100 && n.is_multiple_of(GROUP),
        "corpus sizes are multiples of {GROUP}, at least 100 (got {n})"
    );
    let groups = n / GROUP;
    let mut cases: Vec<Case> = [0, groups / 2, groups - 1]
        .into_iter()
        .flat_map(group_cases)
        .collect();
    // Tool 1 of server 2 is named by group 10, present from 110 rules on.
    let named_ask = if groups > 10 {
        Ruled(Ask)
    } else {
        Ruled(Allow)
    };
    cases.extend([
        case(
            "MCP tool deny over server allow",
            tool(&mcp_tool(0, 0)),
            Ruled(Deny),
        ),
        case(
            "MCP server wildcard allow",
            tool(&mcp_tool(1, 7)),
            Ruled(Allow),
        ),
        case(
            "MCP tool ask over server allow (from 110 rules)",
            tool(&mcp_tool(2, 1)),
            named_ask,
        ),
        case(
            "MCP tool of a server without rules",
            tool(&mcp_tool(9, 0)),
            NoRule,
        ),
        case("command of no rule", bash("cargo build --release"), NoRule),
        case(
            "command near a rule",
            bash(&format!("prog{groups} build")),
            NoRule,
        ),
        case("path of no rule", edit("README.md"), NoRule),
        case("path beside a rule", edit("src/other/lib.rs"), NoRule),
        case(
            "unruled tool on a ruled path",
            ToolCall::new(
                "bench",
                "call",
                "view",
                json!({"path": "src/module0/lib.rs"}),
            ),
            NoRule,
        ),
    ]);
    cases
}

/// A call for the latency tables.
#[derive(Debug, Clone)]
pub struct Probe {
    /// The kind of call (`path`, `command`).
    pub kind: &'static str,
    /// Whether a rule matches it.
    pub hit: bool,
    /// The call.
    pub call: ToolCall,
}

/// The calls the latency tables time for `n` rules: a path and a command, each once matched
/// by a rule of the middle group and once matched by none.
pub fn probes(n: usize) -> Vec<Probe> {
    let g = n / GROUP / 2;
    vec![
        Probe {
            kind: "path",
            hit: true,
            call: edit(&format!("src/module{g}/lib.rs")),
        },
        Probe {
            kind: "path",
            hit: false,
            call: edit("docs/readme.md"),
        },
        Probe {
            kind: "command",
            hit: true,
            call: bash(&format!("prog{g} build release")),
        },
        Probe {
            kind: "command",
            hit: false,
            call: bash("cargo build --release"),
        },
    ]
}
