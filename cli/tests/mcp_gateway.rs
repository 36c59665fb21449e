//! `warrant mcp` end to end: a real MCP server written with the official MCP Python SDK,
//! driven through the gateway by the official SDK's client (`mcp/tests/sdk/`), and the raw
//! protocol for what an SDK client never sends (malformed lines, unknown methods).

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

const WARRANT: &str = env!("CARGO_BIN_EXE_warrant");
/// The pinned SDK version `.ci/run` installs.
const SDK: &str = "mcp==1.26.0";

fn sdk_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../mcp/tests/sdk")
}

fn python() -> String {
    std::env::var("WARRANT_TEST_PYTHON").unwrap_or_else(|_| "python3".to_owned())
}

/// Fails (never skips) when the official SDK is missing.
fn require_sdk() {
    let ok = Command::new(python())
        .args(["-c", "import mcp.client.stdio, mcp.server.fastmcp"])
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    assert!(
        ok,
        "the official MCP Python SDK is missing: run `{} -m pip install {SDK}` (.ci/run installs it)",
        python()
    );
}

fn server_command() -> Vec<String> {
    vec![python(), sdk_dir().join("server.py").display().to_string()]
}

/// Waits for a child with a deadline; kills it past the deadline.
fn wait_bounded(
    mut child: Child,
    limit: Duration,
    what: &str,
) -> (std::process::ExitStatus, String, String) {
    let started = Instant::now();
    let mut out = child.stdout.take().unwrap();
    let mut err = child.stderr.take().unwrap();
    let out_reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = out.read_to_string(&mut s);
        s
    });
    let err_reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = err.read_to_string(&mut s);
        s
    });
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > limit {
            let _ = child.kill();
            panic!("{what} took longer than {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    (
        status,
        out_reader.join().unwrap(),
        err_reader.join().unwrap(),
    )
}

/// Runs the SDK client scenario through `warrant <gateway…>`; returns its report.
fn client(
    scenario: &str,
    cwd: &Path,
    http: Option<&str>,
    env: &[(&str, &str)],
    gateway: &[String],
) -> Value {
    require_sdk();
    let mut command = Command::new(python());
    command
        .arg(sdk_dir().join("client.py"))
        .args(["--warrant", WARRANT, "--cwd"])
        .arg(cwd);
    if let Some(url) = http {
        command.args(["--http", url]);
    }
    command.arg(scenario).arg("--").args(gateway);
    command
        .env_remove("WARRANT_TOKEN")
        .env_remove("WARRANT_DATA_DIR");
    for (k, v) in env {
        command.env(k, v);
    }
    let child = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("python3 runs");
    let (status, out, err) = wait_bounded(child, Duration::from_secs(120), scenario);
    assert!(status.success(), "client {scenario} failed: {err}");
    let report: Value = serde_json::from_str(out.trim())
        .unwrap_or_else(|e| panic!("client {scenario} printed no report ({e}): {out}\n{err}"));
    assert!(
        report.get("failure").is_none(),
        "client {scenario}: {report}\n{err}"
    );
    report
}

fn gateway(data_dir: &Path, extra: &[&str]) -> Vec<String> {
    let mut args: Vec<String> = vec!["mcp".into(), "--data-dir".into()];
    args.push(data_dir.display().to_string());
    args.extend(extra.iter().map(|s| (*s).to_owned()));
    args.push("--".into());
    args.extend(server_command());
    args
}

fn audit(data_dir: &Path) -> Vec<Value> {
    let out = Command::new(WARRANT)
        .args(["audit", "--data-dir"])
        .arg(data_dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap()["record"].clone())
        .collect()
}

fn records_of<'a>(records: &'a [Value], tool: &str) -> Vec<&'a Value> {
    records
        .iter()
        .filter(|r| r.to_string().contains(&format!("\"{tool}\"")))
        .collect()
}

#[test]
fn the_sdk_client_sees_allowed_denied_asked_and_crashed_calls() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    // A first run lists the tools: the catalog learns them, so rules may name them.
    let listed = client(
        "list",
        dir.path(),
        None,
        &[],
        &gateway(&data, &["--name", "gw"]),
    );
    assert_eq!(listed["serverName"], "gateway-test-server");
    assert!(
        listed["protocolVersion"]
            .as_str()
            .unwrap()
            .starts_with("20")
    );
    let config = dir.path().join("warrant.toml");
    std::fs::write(
        &config,
        "[evaluators.rules.user]\nallow = [\"echo\", \"crash\"]\ndeny = [\"wipe\"]\n",
    )
    .unwrap();
    let config = config.display().to_string();
    let report = client(
        "standalone",
        dir.path(),
        None,
        &[],
        &gateway(
            &data,
            &["--name", "gw", "--config", &config, "--ask-timeout", "1.5"],
        ),
    );

    // initialize and tools/list pass through, annotations included.
    assert_eq!(report["serverName"], "gateway-test-server");
    assert_eq!(report["tools"]["wipe"]["destructiveHint"], true);
    assert_eq!(report["tools"]["echo"]["readOnlyHint"], true);
    // Allowed: the child's own result.
    assert_eq!(
        report["echo"],
        json!({"isError": false, "text": "echo: hi"})
    );
    // Denied: a tool error whose text is the reason.
    assert_eq!(report["wipe"]["isError"], true);
    let wipe = report["wipe"]["text"].as_str().unwrap();
    assert!(
        wipe.starts_with("Denied by Warrant: ") && wipe.contains("user rule \"wipe\""),
        "{wipe}"
    );
    // Asked, nobody answered: the timeout denies. A read-only hint never allows on its own.
    assert_eq!(report["peek"]["isError"], true);
    assert!(
        report["peek"]["text"]
            .as_str()
            .unwrap()
            .contains("no approval within 1.5 s")
    );
    // The child crashes with a call pending: a JSON-RPC error, not a hang.
    let crash = &report["crash"]["error"];
    assert_eq!(crash["code"], -32000, "{report}");
    assert!(crash["message"].as_str().unwrap().contains("exit status 3"));

    // Every decision and resolution is in the audit log.
    let records = audit(&data);
    let kinds = |tool: &str| -> Vec<String> {
        records_of(&records, tool)
            .iter()
            .map(|r| {
                if r["kind"] == "cancel" {
                    return "cancel".to_owned();
                }
                r.pointer("/decision/behavior")
                    .or_else(|| r.pointer("/resolution/behavior"))
                    .and_then(Value::as_str)
                    .map(|b| {
                        let kind = if r.get("resolution").is_some() {
                            "resolution"
                        } else {
                            "decision"
                        };
                        format!("{kind}:{b}")
                    })
                    .unwrap_or_default()
            })
            .collect()
    };
    assert_eq!(kinds("echo"), ["decision:allow"]);
    assert_eq!(kinds("wipe"), ["decision:deny"]);
    assert_eq!(kinds("peek"), ["decision:ask", "cancel"]);
    assert_eq!(kinds("crash"), ["decision:allow"]);
    assert!(records.iter().all(|r| r.to_string().contains("\"mcp-gw\"")));
}

#[test]
fn annotations_are_hints_that_only_make_calls_ask() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let report = client(
        "hints",
        dir.path(),
        None,
        &[],
        &gateway(&data, &["--mode", "full_access", "--ask-timeout", "1"]),
    );
    // Full Access allows what nobody objects to, read-only hint or none.
    assert_eq!(report["echo"]["text"], "echo: hi");
    assert_eq!(report["write_note"]["text"], "noted: n");
    // A tool its server calls destructive is not settled by the mode: it asks (and times out).
    let wipe = report["wipe"]["text"].as_str().unwrap();
    assert_eq!(report["wipe"]["isError"], true);
    assert!(
        wipe.contains("no approval within") && wipe.contains("destructiveHint"),
        "{wipe}"
    );
}

#[test]
fn elicitation_lets_the_client_answer_an_ask() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let report = client(
        "elicit",
        dir.path(),
        None,
        &[],
        &gateway(&data, &["--elicitation", "--ask-timeout", "20"]),
    );
    assert_eq!(
        report["elicitations"].as_array().unwrap().len(),
        2,
        "{report}"
    );
    assert!(
        report["elicitations"][0]
            .as_str()
            .unwrap()
            .contains("write_note")
    );
    assert_eq!(
        report["accepted"],
        json!({"isError": false, "text": "noted: yes"})
    );
    assert_eq!(report["declined"]["isError"], true);
    assert!(
        report["declined"]["text"]
            .as_str()
            .unwrap()
            .contains("the user denied")
    );
    let records = audit(&data);
    let resolutions: Vec<&str> = records
        .iter()
        .filter_map(|r| r.pointer("/resolution/actionId").and_then(Value::as_str))
        .collect();
    assert_eq!(resolutions, ["allow_once", "deny"]);
}

#[test]
fn without_the_elicitation_option_a_clients_answer_is_not_used() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    // The same client, ready to accept: it is never asked, and the calls wait for the user.
    let report = client(
        "elicit",
        dir.path(),
        None,
        &[],
        &gateway(&data, &["--ask-timeout", "1"]),
    );
    assert_eq!(report["elicitations"], json!([]), "{report}");
    for call in ["accepted", "declined"] {
        assert_eq!(report[call]["isError"], true, "{report}");
        assert!(
            report[call]["text"]
                .as_str()
                .unwrap()
                .contains("no approval within 1 s"),
            "{report}"
        );
    }
    let records = audit(&data);
    assert!(
        records.iter().all(|r| r.get("resolution").is_none()),
        "nothing was resolved: {records:?}"
    );
    assert_eq!(
        records.iter().filter(|r| r["kind"] == "cancel").count(),
        2,
        "{records:?}"
    );
}

#[test]
fn with_a_server_the_token_must_be_given_in_warrant_token() {
    let dir = tempfile::tempdir().unwrap();
    // The person's token in ./warrant.toml is not borrowed.
    std::fs::write(
        dir.path().join("warrant.toml"),
        "token = \"person-token-in-the-config\"\n",
    )
    .unwrap();
    let mut args = vec!["mcp", "--server", "http://127.0.0.1:9", "--"]
        .into_iter()
        .map(str::to_owned)
        .collect::<Vec<_>>();
    args.extend(server_command());
    for token in [None, Some(" ")] {
        let mut command = Command::new(WARRANT);
        command
            .args(&args)
            .current_dir(dir.path())
            .env_remove("WARRANT_TOKEN")
            .stdin(Stdio::null());
        if let Some(token) = token {
            command.env("WARRANT_TOKEN", token);
        }
        let out = command.output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{token:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("--server needs the bearer token in WARRANT_TOKEN"),
            "{err}"
        );
        assert!(out.stdout.is_empty());
    }
}

/// `warrant serve` on a free port; killed on drop.
struct Serve {
    child: Child,
    url: String,
}

impl Drop for Serve {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn serve(data_dir: &Path, token: &str) -> Serve {
    let mut child = Command::new(WARRANT)
        .args(["serve", "--addr", "127.0.0.1:0", "--data-dir"])
        .arg(data_dir)
        .env("WARRANT_TOKEN", token)
        .env("WARRANT_AGENT_TOKEN", "agent-token-for-the-gateway-test")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
    let deadline = Instant::now() + Duration::from_secs(30);
    let url = loop {
        assert!(Instant::now() < deadline, "warrant serve did not start");
        let line = lines
            .next()
            .expect("warrant serve printed its address")
            .unwrap();
        if let Some(url) = line.strip_prefix("warrant listening on ") {
            break url.trim().to_owned();
        }
    };
    // Keep draining its stderr so it never blocks.
    std::thread::spawn(move || for _ in lines {});
    Serve { child, url }
}

#[test]
fn an_ask_is_approved_denied_or_timed_out_through_warrant_serve() {
    let dir = tempfile::tempdir().unwrap();
    let token = "person-token-for-the-gateway-test";
    let server = serve(&dir.path().join("served"), token);
    let args: Vec<String> = [
        "mcp",
        "--server",
        &server.url,
        "--session",
        "mcp-gateway-test",
        "--ask-timeout",
        "2",
        "--",
    ]
    .iter()
    .map(|s| (*s).to_owned())
    .chain(server_command())
    .collect();
    let report = client(
        "server",
        dir.path(),
        Some(&server.url),
        &[("WARRANT_TOKEN", token)],
        &args,
    );
    assert_eq!(report["approval"]["behavior"], "allow");
    assert_eq!(
        report["allowed"],
        json!({"isError": false, "text": "noted: approved"})
    );
    assert_eq!(report["denial"]["behavior"], "deny");
    assert_eq!(report["denied"]["isError"], true);
    assert!(
        report["denied"]["text"]
            .as_str()
            .unwrap()
            .contains("the user denied")
    );
    assert!(
        report["timedOut"]["text"]
            .as_str()
            .unwrap()
            .contains("no approval within 2 s")
    );

    // tools/list registered the server's tools in the server's catalog, by raw name.
    let wipe = report["catalog"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["id"] == "wipe")
        .unwrap_or_else(|| panic!("the catalog lists wipe: {}", report["catalog"]));
    assert_eq!(wipe["kind"], "mcp");
    // No --name: the server id is the command's file name.
    let command = Path::new(&server_command()[0])
        .file_stem()
        .unwrap()
        .to_string_lossy()
        .into_owned();
    assert_eq!(wipe["providerIds"], json!([command]));

    // The session's tool parts show MCP calls like any other.
    let parts: Vec<&Value> = report["messages"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|m| m["parts"].as_array().unwrap().iter())
        .collect();
    let part = |tool: &str| {
        *parts
            .iter()
            .find(|p| p.to_string().contains(&format!("\"{tool}\"")))
            .unwrap_or_else(|| panic!("no tool part for {tool}: {parts:?}"))
    };
    let note = part("write_note");
    assert_eq!(
        note.pointer("/permissionDecision/behavior"),
        Some(&json!("ask")),
        "{note}"
    );
    assert_eq!(
        note.pointer("/permissionResolution/behavior"),
        Some(&json!("allow"))
    );
    assert!(note.to_string().contains("noted: approved"), "{note}");
    let peek = part("peek");
    assert_eq!(
        peek.pointer("/permissionResolution/behavior"),
        Some(&json!("deny"))
    );
    // Nobody answered in time: the gateway withdrew the request; the call never ran.
    let echo = part("echo");
    assert_eq!(echo.pointer("/permissionResolution"), None, "{echo}");
    assert_eq!(echo["interrupted"], json!(true), "{echo}");
    assert!(
        echo["output"].as_str().unwrap().starts_with("Cancelled"),
        "{echo}"
    );
}

/// The gateway spoken to line by line, without an SDK.
struct Raw {
    child: Child,
    stdin: std::process::ChildStdin,
    lines: std::sync::mpsc::Receiver<String>,
}

impl Raw {
    fn start(data_dir: &Path, cwd: &Path, extra: &[&str]) -> Self {
        require_sdk();
        let mut child = Command::new(WARRANT)
            .args(gateway(data_dir, extra))
            .current_dir(cwd)
            .env_remove("WARRANT_TOKEN")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                let _ = tx.send(line);
            }
        });
        Self {
            child,
            stdin,
            lines,
        }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
    }

    /// The next line on stdout; every one must be a JSON-RPC message.
    fn next(&self) -> Value {
        let line = self
            .lines
            .recv_timeout(Duration::from_secs(30))
            .expect("an answer within 30 s");
        let value: Value = serde_json::from_str(&line)
            .unwrap_or_else(|e| panic!("stdout carried a non-JSON line ({e}): {line}"));
        assert_eq!(value["jsonrpc"], "2.0", "{line}");
        value
    }
}

#[test]
fn the_raw_protocol_keeps_ids_refuses_malformed_lines_and_exits_with_the_server() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let mut raw = Raw::start(&data, dir.path(), &["--name", "raw", "--ask-timeout", "1"]);
    raw.send(r#"{"jsonrpc":"2.0","id":"init-ü-1","method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}"#);
    let init = raw.next();
    assert_eq!(init["id"], "init-ü-1");
    // The server negotiates the version; the gateway passes its answer through.
    assert_eq!(init["result"]["protocolVersion"], "2025-03-26");
    raw.send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);

    // Malformed lines are answered with an error and never reach the server.
    raw.send("{this is not json");
    let parse = raw.next();
    assert_eq!(
        (parse["id"].clone(), parse["error"]["code"].clone()),
        (Value::Null, json!(-32700))
    );
    // A bare CR is JSON whitespace, but the SDK server's stdin reader ends a line there: this
    // one line would reach it as a ping and an undecided tools/call.
    raw.send(
        "{\"jsonrpc\":\"2.0\",\"id\":40,\"method\":\"ping\",\"params\":{\"x\":\r\
         {\"jsonrpc\":\"2.0\",\"id\":66,\"method\":\"tools/call\",\"params\":{\"name\":\"write_note\",\"arguments\":{\"text\":\"smuggled\"}}}\r}}",
    );
    let smuggled = raw.next();
    assert_eq!(
        (smuggled["id"].clone(), smuggled["error"]["code"].clone()),
        (Value::Null, json!(-32700)),
        "{smuggled}"
    );
    assert!(
        smuggled["error"]["message"]
            .as_str()
            .unwrap()
            .contains("carriage return"),
        "{smuggled}"
    );
    raw.send(r#"{"jsonrpc":"2.0","id":41,"method":"tools/call","method":"ping"}"#);
    assert_eq!(raw.next()["error"]["code"], -32600);
    // A tools/call without an id is not forwarded (and nothing answers a notification).
    raw.send(r#"{"jsonrpc":"2.0","method":"tools/call","params":{"name":"wipe"}}"#);

    // An unknown method passes through with its id; the server answers it.
    raw.send(r#"{"jsonrpc":"2.0","id":9007199254740993,"method":"vendor/unknown","params":{}}"#);
    let unknown = raw.next();
    assert_eq!(unknown["id"], json!(9_007_199_254_740_993_u64));
    assert!(unknown.get("error").is_some(), "{unknown}");

    // An ask (default mode, nothing auto-approved) times out into a denial; a call with a
    // progress token hears that it waits meanwhile.
    raw.send(
        r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"write_note","arguments":{"text":"x"},"_meta":{"progressToken":"tok"}}}"#,
    );
    let mut progress = Vec::new();
    let denied = loop {
        let line = raw.next();
        if line["method"] == "notifications/progress" {
            progress.push(line["params"].clone());
            continue;
        }
        break line;
    };
    assert_eq!(denied["id"], 7);
    assert_eq!(denied["result"]["isError"], true);
    assert!(!progress.is_empty(), "progress while held");
    assert!(progress.iter().all(|p| p["progressToken"] == "tok"));
    let values: Vec<f64> = progress
        .iter()
        .map(|p| p["progress"].as_f64().unwrap())
        .collect();
    assert!(values.windows(2).all(|w| w[0] < w[1]), "{values:?}");

    // A cancelled held call is answered by nobody; the next request still is.
    raw.send(r#"{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"peek"}}"#);
    raw.send(r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":8,"reason":"user stop"}}"#);
    raw.send(r#"{"jsonrpc":"2.0","id":"p","method":"ping"}"#);
    assert_eq!(raw.next()["id"], "p");

    // The end of the client's input ends the server, and the gateway with its status.
    drop(raw.stdin);
    let started = Instant::now();
    let status = loop {
        if let Some(status) = raw.child.try_wait().unwrap() {
            break status;
        }
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "the gateway did not exit"
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    assert_eq!(status.code(), Some(0));
    let extra = raw.lines.recv_timeout(Duration::from_millis(200));
    assert!(extra.is_err(), "nothing more on stdout: {extra:?}");
    // The cancelled call's approval request was withdrawn, not left pending.
    let records = audit(&data);
    let peek = records_of(&records, "peek");
    assert_eq!(peek.len(), 2, "{records:?}");
    assert_eq!(peek[0].pointer("/decision/behavior"), Some(&json!("ask")));
    assert_eq!(peek[1]["kind"], "cancel", "{:?}", peek[1]);
    assert!(
        peek[1]["reason"].as_str().unwrap().contains("cancelled"),
        "{:?}",
        peek[1]
    );
    // Nothing malformed was decided, let alone forwarded: only the two real calls were.
    assert_eq!(
        records
            .iter()
            .filter(|r| r.get("decision").is_some())
            .count(),
        2
    );
}

#[test]
fn the_gateway_exits_with_the_crashed_servers_status() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    // Full Access allows the call, so it reaches the server.
    let mut raw = Raw::start(&data, dir.path(), &["--mode", "full_access"]);
    raw.send(r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}"#);
    assert_eq!(raw.next()["id"], 1);
    raw.send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
    raw.send(r#"{"jsonrpc":"2.0","id":"c","method":"tools/call","params":{"name":"crash","arguments":{}}}"#);
    let error = raw.next();
    assert_eq!(error["id"], "c");
    assert_eq!(error["error"]["code"], -32000);
    let started = Instant::now();
    let status = loop {
        if let Some(status) = raw.child.try_wait().unwrap() {
            break status;
        }
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "the gateway did not exit"
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    assert_eq!(status.code(), Some(3));
}

#[test]
fn a_second_gateway_on_the_data_directory_leaves_the_first_ones_requests_pending() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let init = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}"#;
    let mut first = Raw::start(&data, dir.path(), &["--name", "a", "--ask-timeout", "4"]);
    first.send(init);
    assert_eq!(first.next()["id"], 1);
    first.send(r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"write_note","arguments":{"text":"x"}}}"#);
    let started = Instant::now();
    while records_of(&audit(&data), "write_note").is_empty() {
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "the call was not decided"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    // A second gateway starts on the same directory while the first one's call waits.
    let mut second = Raw::start(&data, dir.path(), &["--name", "b"]);
    second.send(init);
    assert_eq!(second.next()["id"], 1);
    // The first call is still the user's to answer: it ends by its own timeout, not as
    // interrupted by the second gateway's start.
    let denied = first.next();
    assert_eq!(denied["id"], 7);
    assert!(
        denied["result"]["content"][0]["text"]
            .as_str()
            .unwrap()
            .contains("no approval within 4 s"),
        "{denied}"
    );
    let records = audit(&data);
    let kinds: Vec<&str> = records_of(&records, "write_note")
        .iter()
        .map(|r| r["kind"].as_str().unwrap_or_default())
        .collect();
    assert!(!kinds.contains(&"expiry"), "{records:?}");
    assert_eq!(kinds.last(), Some(&"cancel"), "{records:?}");
    drop(first.stdin);
    drop(second.stdin);
    for mut raw in [first.child, second.child] {
        let started = Instant::now();
        while raw.try_wait().unwrap().is_none() {
            assert!(started.elapsed() < Duration::from_secs(20));
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

#[test]
fn init_prints_and_writes_the_client_snippet() {
    let out = Command::new(WARRANT)
        .args([
            "init",
            "--mcp",
            "files",
            "--",
            "npx",
            "-y",
            "server-files",
            ".",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let printed: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        printed,
        json!({"mcpServers": {"files": {"command": "warrant",
            "args": ["mcp", "--name", "files", "--", "npx", "-y", "server-files", "."]}}})
    );
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join(".mcp.json");
    std::fs::write(&file, r#"{"mcpServers":{"kept":{"command":"x"}}}"#).unwrap();
    let out = Command::new(WARRANT)
        .args(["init", "--mcp", "files", "--write"])
        .arg(&file)
        .args(["--", "uvx", "srv"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let written: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(written["mcpServers"]["kept"]["command"], "x");
    assert_eq!(
        written["mcpServers"]["files"]["args"],
        json!(["mcp", "--name", "files", "--", "uvx", "srv"])
    );
    // The previous content is kept beside it.
    let backup = dir.path().join(".mcp.json.warrant-backup");
    assert_eq!(
        std::fs::read_to_string(&backup).unwrap(),
        r#"{"mcpServers":{"kept":{"command":"x"}}}"#
    );
    // Not JSON: refused, naming the file, which stays as it was.
    std::fs::write(&file, "{oops").unwrap();
    let out = Command::new(WARRANT)
        .args(["init", "--mcp", "files", "--write"])
        .arg(&file)
        .args(["--", "uvx", "srv"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(".mcp.json is not JSON"), "{err}");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "{oops");
    // No command to wrap: one line, exit 2.
    let out = Command::new(WARRANT)
        .args(["init", "--mcp", "files"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}
