//! `list_approval_tool_definitions`: the tool identity contract.

mod approval_support;

use approval_support::*;
use serde_json::json;
use warrant_core::catalog::{
    RuntimeTool, ToolCatalog, ToolKind, builtin_runtime_tools, list_approval_tool_definitions,
};
use warrant_core::workspace::{LspProfile, McpServer, Tooling};

fn tooling() -> Tooling {
    seed_workspace().settings.tooling
}

fn listed_ids(tooling: &Tooling, runtime: Option<&[RuntimeTool]>) -> Vec<String> {
    let tools = list_approval_tool_definitions(tooling, runtime);
    tools.into_iter().map(|t| t.id).collect()
}

#[test]
fn lsp_profile_ts_offers_five_tool_ids() {
    let ts = Tooling {
        lsp_profiles: vec![LspProfile {
            id: "ts".into(),
            name: "TypeScript".into(),
        }],
        ..Tooling::default()
    };
    let runtime = runtime_tools(&["view"]);
    let listed = list_approval_tool_definitions(&ts, Some(&runtime));
    let lsp: Vec<&str> = listed
        .iter()
        .filter(|t| t.kind == ToolKind::Lsp)
        .map(|t| t.id.as_str())
        .collect();
    assert_eq!(
        lsp,
        [
            "lsp_ts_workspace_symbols",
            "lsp_ts_document_symbols",
            "lsp_ts_definition",
            "lsp_ts_hover",
            "lsp_ts_references",
        ]
    );
    let hover = listed
        .iter()
        .find(|t| t.id == "lsp_ts_hover")
        .expect("listed");
    assert_eq!(hover.label, "TypeScript: Hover");
    assert_eq!(hover.provider_ids, ["ts"]);
    assert_eq!(hover.provider_names, ["TypeScript"]);
}

#[test]
fn mcp_tools_are_listed_by_their_raw_names() {
    let listed = list_approval_tool_definitions(&tooling(), None);
    let status = listed
        .iter()
        .find(|t| t.id == "git.status")
        .expect("listed");
    assert_eq!(status.label, "git.status");
    assert_eq!(status.kind, ToolKind::Mcp);
    assert_eq!(status.provider_ids, ["git"]);
    assert_eq!(status.provider_names, ["Git"]);
    assert_eq!(status.description, None);
}

#[test]
fn runtime_tools_come_from_the_capability_payload_when_known() {
    let runtime = runtime_tools(&["web_fetch", "task"]);
    let listed = list_approval_tool_definitions(&Tooling::default(), Some(&runtime));
    let ids: Vec<&str> = listed.iter().map(|t| t.id.as_str()).collect();
    assert_eq!(
        ids,
        ["web_fetch", "task"],
        "the built-in catalog steps aside"
    );
    assert_eq!(listed[1].kind, ToolKind::Builtin);
    assert_eq!(listed[1].description.as_deref(), Some("The task tool."));
}

#[test]
fn builtin_catalog_stands_in_until_runtime_tools_load() {
    let builtin: Vec<String> = builtin_runtime_tools()
        .into_iter()
        .map(|t| t.name)
        .collect();
    assert_eq!(listed_ids(&Tooling::default(), None), builtin);
    assert_eq!(
        listed_ids(&Tooling::default(), Some(&[])),
        builtin,
        "an empty report is no report"
    );
    assert!(builtin.iter().any(|id| id == "view"));
}

#[test]
fn an_id_offered_by_several_kinds_is_one_mixed_item() {
    let mut tooling = tooling();
    tooling.mcp_servers.push(McpServer {
        id: "fs".into(),
        name: "Files".into(),
        tools: ids(&["view", "lsp_ts_hover"]),
    });
    let listed = list_approval_tool_definitions(&tooling, None);
    let views: Vec<_> = listed.iter().filter(|t| t.id == "view").collect();
    assert_eq!(views.len(), 1);
    assert_eq!(views[0].kind, ToolKind::Mixed);
    assert_eq!(views[0].provider_ids, ["runtime", "fs"]);
    assert_eq!(views[0].provider_names, ["Runtime", "Files"]);
    assert!(
        views[0].description.is_some(),
        "the runtime's description is kept"
    );
    let hover = listed
        .iter()
        .find(|t| t.id == "lsp_ts_hover")
        .expect("listed");
    assert_eq!(hover.kind, ToolKind::Mixed);
    assert_eq!(hover.provider_ids, ["fs", "ts"]);
}

#[test]
fn an_id_offered_by_two_providers_of_one_kind_keeps_that_kind() {
    let mut tooling = tooling();
    tooling.mcp_servers.push(McpServer {
        id: "git2".into(),
        name: String::new(),
        tools: ids(&["git.status"]),
    });
    let listed = list_approval_tool_definitions(&tooling, None);
    let status = listed
        .iter()
        .find(|t| t.id == "git.status")
        .expect("listed");
    assert_eq!(status.kind, ToolKind::Mcp);
    assert_eq!(status.provider_ids, ["git", "git2"]);
    assert_eq!(
        status.provider_names,
        ["Git", "git2"],
        "a nameless provider shows its id"
    );
}

#[test]
fn order_is_runtime_then_mcp_then_lsp_and_stable() {
    let runtime = runtime_tools(&["view", "glob"]);
    let first = listed_ids(&tooling(), Some(&runtime));
    assert_eq!(
        first,
        [
            "view",
            "glob",
            "git.status",
            "git.diff",
            "lsp_ts_workspace_symbols",
            "lsp_ts_document_symbols",
            "lsp_ts_definition",
            "lsp_ts_hover",
            "lsp_ts_references",
        ]
    );
    assert_eq!(listed_ids(&tooling(), Some(&runtime)), first);
}

#[test]
fn blank_names_and_blank_profile_ids_offer_nothing() {
    let tooling = Tooling {
        mcp_servers: vec![McpServer {
            id: "x".into(),
            name: "X".into(),
            tools: ids(&["", " "]),
        }],
        lsp_profiles: vec![LspProfile {
            id: " ".into(),
            name: "Blank".into(),
        }],
    };
    let runtime = runtime_tools(&["view", ""]);
    assert_eq!(listed_ids(&tooling, Some(&runtime)), ["view"]);
}

#[test]
fn catalog_suggests_the_nearest_known_id() {
    let catalog = ToolCatalog::new(&tooling(), None);
    assert_eq!(catalog.suggest("lsp_ts_hovr"), Some("lsp_ts_hover"));
    assert_eq!(catalog.suggest("git.stats"), Some("git.status"));
    assert_eq!(catalog.suggest("deploy_to_production"), None);
}

#[test]
fn catalog_remembers_whether_the_runtime_reported_its_tools() {
    assert_eq!(ToolCatalog::new(&tooling(), None).runtime_tools(), None);
    let runtime = runtime_tools(&["task"]);
    assert_eq!(
        ToolCatalog::new(&tooling(), Some(&runtime)).runtime_tools(),
        Some(&runtime[..])
    );
    assert!(ToolCatalog::builtin().contains("view"));
}

#[test]
fn tool_definition_serializes_with_the_seed_field_names() {
    let listed = list_approval_tool_definitions(&tooling(), None);
    let status = listed
        .iter()
        .find(|t| t.id == "git.status")
        .expect("listed");
    assert_eq!(
        serde_json::to_value(status).expect("serializes"),
        json!({
            "id": "git.status",
            "label": "git.status",
            "kind": "mcp",
            "providerIds": ["git"],
            "providerNames": ["Git"]
        })
    );
}
