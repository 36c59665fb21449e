//! The gateway run in this process with an engine of its own (the standalone mode's
//! [`Decider::Local`]) against the SDK test server: what the engine learns and records.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream, Lines};
use warrant_core::call::PermissionMode;
use warrant_core::catalog::ToolKind;
use warrant_core::engine::Engine;
use warrant_core::part::MessagePart;
use warrant_core::store::{MemoryStore, Store};
use warrant_core::transport::MemoryTransport;
use warrant_mcp::{Decider, GatewayOptions};

const SESSION: &str = "mcp-in-process";

fn python() -> String {
    std::env::var("WARRANT_TEST_PYTHON").unwrap_or_else(|_| "python3".to_owned())
}

fn server_script() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/sdk/server.py")
        .display()
        .to_string()
}

/// Fails (never skips) when the official SDK is missing.
fn require_sdk() {
    let ok = std::process::Command::new(python())
        .args(["-c", "import mcp.server.fastmcp"])
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    assert!(
        ok,
        "the official MCP Python SDK is missing: run mcp/tests/sdk/install.sh (.ci/run does)"
    );
}

async fn engine(root: &Path) -> Engine {
    let catalog = warrant_core::catalog::ToolCatalog::builtin();
    let chain = warrant_evaluators::default_chain(&Default::default(), &catalog).unwrap();
    Engine::builder(chain)
        .store(Arc::new(MemoryStore::new()) as Arc<dyn Store>)
        .transport(Arc::new(MemoryTransport::new()))
        .workspace_root(root)
        .build()
        .await
        .unwrap()
}

struct Client {
    to_gateway: DuplexStream,
    from_gateway: Lines<BufReader<DuplexStream>>,
    gateway: tokio::task::JoinHandle<Result<i32, String>>,
}

impl Client {
    fn start(engine: Engine, mode: PermissionMode) -> Self {
        require_sdk();
        let (to_gateway, gateway_in) = tokio::io::duplex(1 << 20);
        let (gateway_out, from_gateway) = tokio::io::duplex(1 << 20);
        let options = GatewayOptions {
            server_id: "gw".to_owned(),
            session_id: SESSION.to_owned(),
            mode,
            ask_timeout: Duration::from_secs(20),
            command: vec![python(), server_script()],
        };
        let gateway = tokio::spawn(warrant_mcp::run(
            options,
            Decider::Local(engine),
            gateway_in,
            gateway_out,
        ));
        Self {
            to_gateway,
            from_gateway: BufReader::new(from_gateway).lines(),
            gateway,
        }
    }

    async fn send(&mut self, message: Value) {
        let mut line = message.to_string();
        line.push('\n');
        self.to_gateway.write_all(line.as_bytes()).await.unwrap();
    }

    async fn next(&mut self) -> Value {
        let line = tokio::time::timeout(Duration::from_secs(30), self.from_gateway.next_line())
            .await
            .expect("an answer within 30 s")
            .unwrap()
            .expect("the gateway is still running");
        serde_json::from_str(&line).unwrap()
    }

    async fn initialize(&mut self) {
        self.send(
            json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "in-process", "version": "0"}}}),
        )
        .await;
        assert_eq!(self.next().await["id"], 0);
        self.send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
            .await;
        self.send(json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}))
            .await;
        assert!(self.next().await["result"]["tools"].is_array());
    }

    async fn finish(self) -> i32 {
        drop(self.to_gateway);
        tokio::time::timeout(Duration::from_secs(20), self.gateway)
            .await
            .expect("the gateway exits once its input ends")
            .unwrap()
            .unwrap()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tools_list_registers_the_server_and_its_tools_in_the_catalog() {
    let dir = tempfile::tempdir().unwrap();
    let engine = engine(dir.path()).await;
    let mut client = Client::start(engine.clone(), PermissionMode::Default);
    client.initialize().await;
    // Registration runs beside the forwarding: give it a moment.
    let mut found = None;
    for _ in 0..100 {
        found = engine.catalog().get("wipe").cloned();
        if found.is_some() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let wipe = found.expect("the catalog knows the listed tool by its raw name");
    assert_eq!(wipe.kind, ToolKind::Mcp);
    assert_eq!(wipe.provider_ids, ["gw"]);
    let servers = &engine.workspace().settings.tooling.mcp_servers;
    assert_eq!(servers.len(), 1);
    assert_eq!(servers[0].id, "gw");
    assert!(servers[0].tools.iter().any(|t| t == "echo"));
    assert!(engine.workspace().session(SESSION).is_some());
    assert_eq!(client.finish().await, 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_approval_from_warrant_releases_a_held_call_and_its_result_is_recorded() {
    let dir = tempfile::tempdir().unwrap();
    let engine = engine(dir.path()).await;
    let mut client = Client::start(engine.clone(), PermissionMode::Default);
    client.initialize().await;
    client
        .send(json!({"jsonrpc": "2.0", "id": "n1", "method": "tools/call",
            "params": {"name": "write_note", "arguments": {"text": "held"}}}))
        .await;
    // The call waits for the user (the dock, here the engine directly).
    let mut pending = Vec::new();
    for _ in 0..250 {
        pending = engine.pending_requests();
        if !pending.is_empty() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(pending.len(), 1, "one pending approval");
    assert_eq!(pending[0].tool_name.as_deref(), Some("write_note"));
    assert_eq!(pending[0].title, "Approve write_note");
    engine
        .resolve(&pending[0].tool_call_id, "allow_once")
        .await
        .unwrap();
    let answer = client.next().await;
    assert_eq!(answer["id"], "n1");
    assert_eq!(answer["result"]["content"][0]["text"], "noted: held");

    // The tool part carries the decision, the resolution and the result.
    let mut part = None;
    for _ in 0..100 {
        let messages = engine.store().messages(SESSION).await.unwrap();
        part = messages
            .into_iter()
            .flat_map(|m| m.parts)
            .find_map(|p| match p {
                MessagePart::Tool(t) if t.output.is_some() => Some(t),
                _ => None,
            });
        if part.is_some() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let part = serde_json::to_value(part.expect("a completed tool part")).unwrap();
    assert_eq!(part["permissionDecision"]["behavior"], "ask", "{part}");
    assert_eq!(part["permissionResolution"]["actionId"], "allow_once");
    assert!(part.to_string().contains("noted: held"), "{part}");
    assert_eq!(client.finish().await, 0);
}
