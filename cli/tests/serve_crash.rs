//! Kills `warrant serve` with SIGKILL while tool calls stream through it, many times over:
//! every decision a client saw is in the audit log after the restart, the hash chain
//! verifies, and the database opens cleanly.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::Value;

const TOKEN: &str = "crash-test-token";
const ROUNDS: usize = 8;
const CLIENTS: usize = 4;

fn start(data_dir: &Path) -> (Child, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_warrant"))
        .args(["serve", "--addr", "127.0.0.1:0", "--data-dir"])
        .arg(data_dir)
        .current_dir(data_dir.parent().unwrap())
        .env("WARRANT_TOKEN", TOKEN)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
    let addr = loop {
        let line = lines.next().expect("serve prints its address").unwrap();
        if let Some(rest) = line.strip_prefix("warrant listening on http://") {
            break rest.trim().to_owned();
        }
    };
    // Keep draining stderr so the server never blocks on it.
    std::thread::spawn(move || for _ in lines {});
    (child, addr)
}

/// POSTs one tool call; the decision's `toolCallId` when the server answered 200.
fn post_call(addr: &str, id: &str) -> Option<String> {
    let body =
        format!(r#"{{"toolCallId":"{id}","toolName":"Bash","input":{{"command":"ls -la"}}}}"#);
    let mut stream = TcpStream::connect(addr).ok()?;
    stream.set_read_timeout(Some(Duration::from_secs(5))).ok()?;
    let request = format!(
        "POST /v1/sessions/crash/tool-calls HTTP/1.1\r\nHost: {addr}\r\nAuthorization: Bearer {TOKEN}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).ok()?;
    let mut response = String::new();
    stream.read_to_string(&mut response).ok()?;
    if !response.starts_with("HTTP/1.1 200") {
        return None;
    }
    let json: Value = serde_json::from_str(response.split("\r\n\r\n").nth(1)?).ok()?;
    json["toolCallId"].as_str().map(str::to_owned)
}

fn audited_ids(data_dir: &Path) -> Vec<String> {
    let out = Command::new(env!("CARGO_BIN_EXE_warrant"))
        .args(["audit", "--verify", "--data-dir"])
        .arg(data_dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "the audit log verifies: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter_map(|v| v["record"]["toolCallId"].as_str().map(str::to_owned))
        .collect()
}

#[test]
fn every_decision_a_client_saw_survives_sigkill() {
    let dir = tempfile::tempdir().unwrap();
    let data_dir = dir.path().join("data");
    let seen = Arc::new(Mutex::new(Vec::<String>::new()));
    for round in 0..ROUNDS {
        let (mut child, addr) = start(&data_dir);
        let stop = Arc::new(AtomicBool::new(false));
        let clients: Vec<_> = (0..CLIENTS)
            .map(|c| {
                let (addr, seen, stop) = (addr.clone(), seen.clone(), stop.clone());
                std::thread::spawn(move || {
                    let mut n = 0;
                    while !stop.load(Ordering::Relaxed) {
                        if let Some(id) = post_call(&addr, &format!("r{round}-c{c}-{n}")) {
                            seen.lock().unwrap().push(id);
                        }
                        n += 1;
                    }
                })
            })
            .collect();
        // Let calls flow for a while that differs per round, then kill mid-stream.
        std::thread::sleep(Duration::from_millis(60 + 35 * round as u64));
        child.kill().unwrap();
        child.wait().unwrap();
        stop.store(true, Ordering::Relaxed);
        for c in clients {
            c.join().unwrap();
        }
    }
    let seen = seen.lock().unwrap().clone();
    assert!(
        seen.len() >= ROUNDS,
        "calls went through before each kill: {}",
        seen.len()
    );
    let audited = audited_ids(&data_dir);
    let missing: Vec<&String> = seen.iter().filter(|id| !audited.contains(id)).collect();
    assert!(
        missing.is_empty(),
        "decisions seen but not audited: {missing:?}"
    );
    // The database opens cleanly for a new server after the last kill.
    let (mut child, addr) = start(&data_dir);
    assert!(post_call(&addr, "after-restart").is_some());
    child.kill().unwrap();
    child.wait().unwrap();
}
