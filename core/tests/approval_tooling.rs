//! Saving and deleting MCP servers and LSP profiles prunes the ids they no longer provide.

mod approval_support;

use approval_support::*;
use warrant_core::workspace::{
    ApprovalError, LspProfile, McpServer, SessionApprovalSettings, delete_lsp_profile,
    delete_mcp_server, save_lsp_profile, save_mcp_server,
};

const TS_IDS: [&str; 5] = [
    "lsp_ts_workspace_symbols",
    "lsp_ts_document_symbols",
    "lsp_ts_definition",
    "lsp_ts_hover",
    "lsp_ts_references",
];

fn git(tools: &[&str]) -> McpServer {
    McpServer {
        id: "git".into(),
        name: "Git".into(),
        tools: ids(tools),
    }
}

#[test]
fn saving_an_mcp_server_prunes_the_tools_it_no_longer_offers() {
    let state = with_override(
        &seed_workspace(),
        "inherits",
        Some(&["git.status", "git.diff"]),
    );
    let next = save_mcp_server(&state, git(&["git.diff", "git.log"]), None).expect("saved");
    assert_eq!(defaults_of(&next, "reviewed"), Some(ids(&["lsp_ts_hover"])));
    assert_eq!(override_of(&next, "inherits"), Some(ids(&["git.diff"])));
}

#[test]
fn deleting_an_mcp_server_prunes_its_tools_from_patterns_and_sessions() {
    let state = with_override(&seed_workspace(), "inherits", Some(&["view", "git.diff"]));
    let next = delete_mcp_server(&state, "git", None).expect("deleted");
    assert!(next.settings.tooling.mcp_servers.is_empty());
    assert_eq!(defaults_of(&next, "reviewed"), Some(ids(&["lsp_ts_hover"])));
    assert_eq!(override_of(&next, "inherits"), Some(ids(&["view"])));
}

#[test]
fn deleting_an_lsp_profile_prunes_its_five_ids() {
    let state = with_override(&seed_workspace(), "inherits", Some(&TS_IDS));
    let next = delete_lsp_profile(&state, "ts", None).expect("deleted");
    assert_eq!(defaults_of(&next, "reviewed"), Some(ids(&["git.status"])));
    assert_eq!(override_of(&next, "inherits"), Some(vec![]));
}

#[test]
fn saving_an_lsp_profile_keeps_its_ids_and_adds_new_ones() {
    let renamed = LspProfile {
        id: "ts".into(),
        name: "TS (renamed)".into(),
    };
    let next = save_lsp_profile(&seed_workspace(), renamed, None).expect("saved");
    assert_eq!(
        defaults_of(&next, "reviewed"),
        Some(ids(&["lsp_ts_hover", "git.status"]))
    );
    let rust = LspProfile {
        id: "rs".into(),
        name: "Rust".into(),
    };
    let next = save_lsp_profile(&next, rust, None).expect("saved");
    let state = with_override(&next, "inherits", Some(&["lsp_rs_hover"]));
    assert_eq!(
        override_of(&state, "inherits"),
        Some(ids(&["lsp_rs_hover"]))
    );
}

#[test]
fn pruning_keeps_an_id_another_provider_still_offers() {
    let state = with_override(&seed_workspace(), "inherits", Some(&["view", "git.diff"]));
    let shadow = McpServer {
        id: "fs".into(),
        name: "Files".into(),
        tools: ids(&["view"]),
    };
    let state = save_mcp_server(&state, shadow, None).expect("saved");
    let next = delete_mcp_server(&state, "fs", None).expect("deleted");
    assert_eq!(
        override_of(&next, "inherits"),
        Some(ids(&["view", "git.diff"]))
    );
}

#[test]
fn retooling_leaves_ids_it_never_offered_for_runtime_pruning() {
    let mut state = seed_workspace();
    let task_only = SessionApprovalSettings {
        auto_approved_tool_names: ids(&["task"]),
    };
    state.sessions[0].approval_settings = Some(task_only);
    let next = delete_mcp_server(&state, "git", None).expect("deleted");
    assert_eq!(override_of(&next, "inherits"), Some(ids(&["task"])));
}

#[test]
fn saving_an_mcp_server_cleans_its_tool_names() {
    let next = save_mcp_server(&seed_workspace(), git(&["git.diff", "", "git.diff"]), None)
        .expect("saved");
    assert_eq!(
        next.settings.tooling.mcp_servers[0].tools,
        ids(&["git.diff"])
    );
}

#[test]
fn tooling_without_an_id_or_unknown_is_rejected() {
    let blank = McpServer {
        id: "".into(),
        ..McpServer::default()
    };
    let err = save_mcp_server(&seed_workspace(), blank, None).expect_err("blank");
    assert_eq!(err, ApprovalError::BlankId { what: "MCP server" });
    let err = delete_mcp_server(&seed_workspace(), "svn", None).expect_err("unknown");
    assert_eq!(
        err,
        ApprovalError::UnknownMcpServer {
            server_id: "svn".into()
        }
    );
    let err = delete_lsp_profile(&seed_workspace(), "py", None).expect_err("unknown");
    assert_eq!(
        err,
        ApprovalError::UnknownLspProfile {
            profile_id: "py".into()
        }
    );
    assert!(err.to_string().contains("\"py\""), "{err}");
}
