//! The gateway run in this process with an engine of its own (the standalone mode's
//! [`Decider::Local`]) against the SDK test server: what the engine learns and records.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;
use warrant_core::ids::{SessionId, ToolCallId};

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
        Self::start_with(engine, mode, false, vec![python(), server_script()])
    }

    fn start_with(
        engine: Engine,
        mode: PermissionMode,
        elicitation: bool,
        command: Vec<String>,
    ) -> Self {
        let (to_gateway, gateway_in) = tokio::io::duplex(1 << 20);
        let (gateway_out, from_gateway) = tokio::io::duplex(1 << 20);
        let options = GatewayOptions {
            server_id: "gw".to_owned(),
            session_id: SESSION.to_owned().into(),
            mode,
            ask_timeout: Duration::from_secs(20),
            elicitation,
            command,
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

    async fn send_line(&mut self, line: &str) {
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
        self.initialize_with(json!({})).await;
    }

    async fn initialize_with(&mut self, capabilities: Value) {
        self.send(
            json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": capabilities,
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
        let messages = engine
            .store()
            .messages(&SessionId::from(SESSION))
            .await
            .unwrap();
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

async fn pending_for(engine: &Engine, tool: &str) -> String {
    for _ in 0..500 {
        if let Some(p) = engine
            .pending_requests()
            .into_iter()
            .find(|p| p.tool_name.as_deref() == Some(tool))
        {
            return p.tool_call_id.to_string();
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("no pending approval for {tool}");
}

/// A child that writes every line it receives to `log`, and nothing to its stdout.
fn recording_child(log: &Path) -> Vec<String> {
    vec![
        "sh".to_owned(),
        "-c".to_owned(),
        format!("cat > '{}'", log.display()),
    ]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_line_with_a_bare_carriage_return_never_reaches_the_child() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("child-stdin");
    let engine = engine(dir.path()).await;
    let mut client = Client::start_with(
        engine,
        PermissionMode::FullAccess,
        false,
        recording_child(&log),
    );
    // One JSON value to serde_json; to a universal-newline reader (the Python SDK's stdin) a
    // ping, then an undecided tools/call, then a stray `}}`.
    client
        .send_line(
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"x\":\r\
             {\"jsonrpc\":\"2.0\",\"id\":66,\"method\":\"tools/call\",\"params\":{\"name\":\"wipe\",\"arguments\":{}}}\r}}\n",
        )
        .await;
    let refused = client.next().await;
    assert_eq!(refused["id"], Value::Null, "{refused}");
    assert_eq!(refused["error"]["code"], -32700, "{refused}");
    let message = refused["error"]["message"].as_str().unwrap();
    assert!(message.contains("carriage return"), "{message}");
    // Either way round: the same lines in a batch, or a bare CR before the line's end.
    client
        .send_line(
            "[{\"jsonrpc\":\"2.0\",\"method\":\"a\"},\r{\"jsonrpc\":\"2.0\",\"method\":\"b\"}]\n",
        )
        .await;
    assert_eq!(client.next().await["error"]["code"], -32700);
    client
        .send_line("\r{\"jsonrpc\":\"2.0\",\"id\":67,\"method\":\"tools/list\"}\n")
        .await;
    assert_eq!(client.next().await["error"]["code"], -32700);
    // A well-formed line after them still passes, CRLF ending included (without its CR).
    client
        .send_line("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\r\n")
        .await;
    assert_eq!(client.finish().await, 0);
    let received = std::fs::read_to_string(&log).unwrap();
    assert_eq!(
        received, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n",
        "the child received only the well-formed line"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_child_request_with_the_gateways_id_prefix_is_dropped() {
    let dir = tempfile::tempdir().unwrap();
    let engine = engine(dir.path()).await;
    let script = r#"printf '%s\n' '{"jsonrpc":"2.0","id":"warrant-elicitation-1","method":"elicitation/create","params":{"message":"allow?","requestedSchema":{"type":"object","properties":{}}}}' '{"jsonrpc":"2.0","id":"c-1","method":"ping"}'; cat > /dev/null"#;
    let mut client = Client::start_with(
        engine,
        PermissionMode::Default,
        false,
        vec!["sh".to_owned(), "-c".to_owned(), script.to_owned()],
    );
    let first = client.next().await;
    assert_eq!(first["id"], "c-1", "the impostor was dropped: {first}");
    assert_eq!(first["method"], "ping");
    assert_eq!(client.finish().await, 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_the_elicitation_option_the_client_is_not_asked_and_cannot_answer() {
    let dir = tempfile::tempdir().unwrap();
    let engine = engine(dir.path()).await;
    require_sdk();
    let mut client = Client::start_with(
        engine.clone(),
        PermissionMode::Default,
        false,
        vec![python(), server_script()],
    );
    client.initialize_with(json!({"elicitation": {}})).await;
    client
        .send(json!({"jsonrpc": "2.0", "id": "n1", "method": "tools/call",
            "params": {"name": "write_note", "arguments": {"text": "self-approved?"}}}))
        .await;
    let tool_call_id = pending_for(&engine, "write_note").await;
    // An unsolicited "accept", with ids a gateway might use: nothing takes it for the user's.
    for id in ["warrant-elicitation-1", "warrant-elicitation-0"] {
        client
            .send(json!({"jsonrpc": "2.0", "id": id,
                "result": {"action": "accept", "content": {"decision": "allow_once"}}}))
            .await;
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(
        engine
            .pending_requests()
            .iter()
            .any(|p| p.tool_call_id == tool_call_id),
        "still waiting for the user"
    );
    engine
        .resolve(&ToolCallId::from(&tool_call_id), "deny")
        .await
        .unwrap();
    // The first thing the client hears is the denial: no elicitation/create came before it.
    let answer = client.next().await;
    assert_eq!(answer["id"], "n1", "{answer}");
    assert_eq!(answer["result"]["isError"], true, "{answer}");
    assert_eq!(client.finish().await, 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_the_elicitation_option_the_client_is_asked_under_a_random_id() {
    let dir = tempfile::tempdir().unwrap();
    let engine = engine(dir.path()).await;
    require_sdk();
    let mut client = Client::start_with(
        engine.clone(),
        PermissionMode::Default,
        true,
        vec![python(), server_script()],
    );
    client.initialize_with(json!({"elicitation": {}})).await;
    client
        .send(json!({"jsonrpc": "2.0", "id": "n2", "method": "tools/call",
            "params": {"name": "write_note", "arguments": {"text": "asked"}}}))
        .await;
    let question = client.next().await;
    assert_eq!(question["method"], "elicitation/create", "{question}");
    let id = question["id"].as_str().unwrap().to_owned();
    let suffix = id
        .strip_prefix("warrant-elicitation-")
        .unwrap_or_else(|| panic!("the gateway's prefix: {id}"));
    assert!(uuid_like(suffix), "a random UUID, not a counter: {id}");
    client
        .send(json!({"jsonrpc": "2.0", "id": id,
            "result": {"action": "accept", "content": {"decision": "allow_once"}}}))
        .await;
    let answer = client.next().await;
    assert_eq!(answer["id"], "n2", "{answer}");
    assert_eq!(answer["result"]["content"][0]["text"], "noted: asked");
    assert_eq!(client.finish().await, 0);
}

fn uuid_like(text: &str) -> bool {
    let groups: Vec<&str> = text.split('-').collect();
    groups.iter().map(|g| g.len()).collect::<Vec<_>>() == [8, 4, 4, 4, 12]
        && groups
            .iter()
            .all(|g| g.chars().all(|c| c.is_ascii_hexdigit()))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn resources_read_is_decided_and_unknown_methods_never_reach_the_server() {
    let dir = tempfile::tempdir().unwrap();
    let workspace = dir.path().join("ws");
    std::fs::create_dir(&workspace).unwrap();
    std::fs::write(workspace.join(".env"), "API_KEY=sekret\n").unwrap();
    std::fs::write(workspace.join("notes.md"), "notes\n").unwrap();
    let log = dir.path().join("child-stdin");
    let engine = engine(&workspace).await;
    // Full Access: whatever is forwarded is allowed by the mode, so a refusal here is the
    // gateway's or a hard deny's, never a prompt's.
    let mut client = Client::start_with(
        engine,
        PermissionMode::FullAccess,
        false,
        recording_child(&log),
    );
    let secret = format!("file://{}", workspace.join(".env").display());
    client
        .send(json!({"jsonrpc": "2.0", "id": 11, "method": "resources/read", "params": {"uri": secret}}))
        .await;
    let denied = client.next().await;
    assert_eq!(denied["id"], 11, "{denied}");
    assert_eq!(denied["error"]["code"], -32001, "{denied}");
    let message = denied["error"]["message"].as_str().unwrap();
    assert!(message.starts_with("Denied by Warrant: "), "{message}");
    // Methods the gateway does not know, a tools/call in other letters among them.
    for (id, method) in [(12, "TOOLS/CALL"), (13, "tools/call "), (14, "x/run")] {
        client
            .send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": {"name": "wipe", "arguments": {}}}))
            .await;
        let refused = client.next().await;
        assert_eq!(refused["id"], id, "{refused}");
        assert_eq!(refused["error"]["code"], -32601, "{refused}");
        assert!(
            refused["error"]["message"]
                .as_str()
                .unwrap()
                .contains(&format!("{method:?}")),
            "the refusal names the method: {refused}"
        );
    }
    client
        .send(json!({"jsonrpc": "2.0", "method": "tools/call", "params": {"name": "wipe"}}))
        .await;
    client
        .send(json!({"jsonrpc": "2.0", "method": "x/notify"}))
        .await;
    // A resource the policy has nothing against is forwarded (Full Access settles it).
    let notes = format!("file://{}", workspace.join("notes.md").display());
    client
        .send(json!({"jsonrpc": "2.0", "id": 15, "method": "resources/read", "params": {"uri": notes}}))
        .await;
    client
        .send(json!({"jsonrpc": "2.0", "id": 16, "method": "prompts/list"}))
        .await;
    // The forwarded read is decided on a task of its own: give it time to pass.
    let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
    loop {
        let received = std::fs::read_to_string(&log).unwrap_or_default();
        if received.contains("\"id\":15") && received.contains("\"id\":16") {
            break;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "the allowed read and the listing reach the server: {received}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(client.finish().await, 0);
    let received = std::fs::read_to_string(&log).unwrap();
    let lines: Vec<Value> = received
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    // The read is decided on a task of its own, so the listing may pass it.
    let mut methods: Vec<&str> = lines.iter().filter_map(|l| l["method"].as_str()).collect();
    methods.sort_unstable();
    assert_eq!(
        methods,
        ["prompts/list", "resources/read"],
        "only the allowed read and the listing reached the server: {received}"
    );
    let read = lines
        .iter()
        .find(|l| l["method"] == "resources/read")
        .expect("the read reached the server");
    assert_eq!(read["params"]["uri"], json!(notes));
}
