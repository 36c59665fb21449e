//! `warrant serve`'s connection handling, against a real server in a child process (this
//! test binary run again as `child_server`): idle and slow connections are closed, open
//! connections are capped below the descriptor limit, hyper's own rejections are JSON, and
//! SIGTERM ends the server within its deadline.

mod support;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use warrant_core::engine::Engine;
use warrant_core::store::MemoryStore;
use warrant_server::{ServerConfig, ServerState, TcpListener, serve, shutdown_signal};
use warrant_transports::sse::SseHub;

const CHILD: &str = "WARRANT_TEST_SERVER_CHILD";

/// The server these tests talk to: run only as a child of the other tests, which set
/// `WARRANT_TEST_SERVER_CHILD` to the header timeout in seconds.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "the server child of the other tests in this file"]
async fn child_server() {
    let header_secs: u64 = std::env::var(CHILD)
        .expect("run by the other tests")
        .parse()
        .expect("seconds");
    let store = Arc::new(MemoryStore::new());
    let hub = Arc::new(SseHub::new(store.clone()));
    let engine = Engine::builder(support::chain::demo())
        .store(store)
        .transport(hub.clone())
        .build()
        .await
        .expect("an engine");
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("a port");
    let addr = listener.local_addr().expect("an address");
    let mut config = ServerConfig::new(support::TOKEN);
    config.header_timeout = Duration::from_secs(header_secs);
    config.body_timeout = Duration::from_secs(2);
    config.shutdown_deadline = Duration::from_secs(2);
    let state = ServerState::new(engine, hub, config, addr);
    println!("ADDR {addr}");
    serve(listener, state, shutdown_signal())
        .await
        .expect("served");
    println!("STOPPED");
}

/// A child server, possibly under `prlimit`.
struct ChildServer {
    child: Child,
    addr: SocketAddr,
    lines: std::io::Lines<BufReader<std::process::ChildStdout>>,
}

impl ChildServer {
    fn start(header_secs: u64, nofile: Option<u64>) -> Self {
        let exe = std::env::current_exe().expect("this test binary");
        let mut command = match nofile {
            Some(n) => {
                let mut c = Command::new("prlimit");
                c.arg(format!("--nofile={n}:{n}")).arg("--").arg(exe);
                c
            }
            None => Command::new(exe),
        };
        command
            .args(["child_server", "--exact", "--ignored", "--nocapture"])
            .env(CHILD, header_secs.to_string())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        let mut child = command.spawn().expect("the child server starts");
        let mut lines = BufReader::new(child.stdout.take().expect("stdout")).lines();
        let addr = loop {
            let line = lines.next().expect("the child prints its address").unwrap();
            if let Some(addr) = line.strip_prefix("ADDR ") {
                break addr.parse().expect("an address");
            }
        };
        Self { child, addr, lines }
    }

    fn connect(&self) -> TcpStream {
        let stream =
            TcpStream::connect_timeout(&self.addr, Duration::from_secs(5)).expect("connects");
        stream
            .set_read_timeout(Some(Duration::from_secs(30)))
            .unwrap();
        stream
    }

    /// Sends raw bytes on a new connection and reads the whole response (the server closes).
    fn exchange(&self, request: &[u8]) -> String {
        let mut stream = self.connect();
        stream.write_all(request).unwrap();
        let mut response = Vec::new();
        let _ = stream.read_to_end(&mut response);
        String::from_utf8_lossy(&response).into_owned()
    }

    fn get(&self, path: &str) -> String {
        let host = self.addr;
        self.exchange(
            format!("GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n").as_bytes(),
        )
    }

    fn open_descriptors(&self) -> usize {
        std::fs::read_dir(format!("/proc/{}/fd", self.child.id()))
            .map(|d| d.count())
            .unwrap_or(0)
    }
}

impl Drop for ChildServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn status_line(response: &str) -> &str {
    response.lines().next().unwrap_or_default()
}

fn json_body(response: &str) -> serde_json::Value {
    let body = response.split("\r\n\r\n").nth(1).unwrap_or_default();
    serde_json::from_str(body).unwrap_or_else(|e| panic!("not JSON ({e}): {response}"))
}

#[test]
fn eleven_hundred_idle_connections_at_a_1024_descriptor_limit_do_not_stop_real_requests() {
    // Slow clients are not timed out during this test: only the connection cap and the
    // shedding of connections that serve no request keep the server answering.
    let server = ChildServer::start(60, Some(1024));
    let started = Instant::now();
    let idle: Vec<TcpStream> = (0..1100)
        .filter_map(|_| TcpStream::connect_timeout(&server.addr, Duration::from_secs(2)).ok())
        .collect();
    let opened = idle.len();
    std::thread::sleep(Duration::from_millis(300));
    let descriptors = server.open_descriptors();
    let asked = Instant::now();
    let response = server.get("/healthz");
    let answered = asked.elapsed();
    eprintln!(
        "{opened} idle connections opened in {:?}; server holds {descriptors} descriptors (limit 1024); /healthz answered in {answered:?}",
        asked - started
    );
    assert_eq!(opened, 1100, "every idle connection was at least queued");
    assert!(
        descriptors < 1024,
        "the server stays below its limit: {descriptors}"
    );
    assert!(status_line(&response).contains(" 200 "), "{response}");
    assert!(
        answered < Duration::from_secs(5),
        "answered in {answered:?}"
    );
    // The server is still whole: a second request answers too.
    assert!(status_line(&server.get("/healthz")).contains(" 200 "));
    drop(idle);
}

#[test]
fn partial_headers_and_idle_keep_alive_connections_are_closed_after_the_header_timeout() {
    let server = ChildServer::start(2, None);
    let mut partial = server.connect();
    partial
        .write_all(b"GET /healthz HTTP/1.1\r\nHost: 127.")
        .unwrap();
    let started = Instant::now();
    let mut buf = [0u8; 256];
    let read = partial.read(&mut buf).unwrap_or(0);
    let closed_after = started.elapsed();
    assert_eq!(read, 0, "closed without a response: {:?}", &buf[..read]);
    assert!(
        closed_after >= Duration::from_millis(1500) && closed_after < Duration::from_secs(6),
        "closed after {closed_after:?}"
    );

    let mut kept = server.connect();
    let host = server.addr;
    kept.write_all(format!("GET /healthz HTTP/1.1\r\nHost: {host}\r\n\r\n").as_bytes())
        .unwrap();
    let n = kept.read(&mut buf).unwrap();
    assert!(String::from_utf8_lossy(&buf[..n]).starts_with("HTTP/1.1 200"));
    let idle_since = Instant::now();
    let read = kept.read(&mut buf).unwrap_or(0);
    assert_eq!(read, 0, "the idle keep-alive connection is closed");
    assert!(
        idle_since.elapsed() < Duration::from_secs(6),
        "{:?}",
        idle_since.elapsed()
    );
}

#[test]
fn a_body_that_stops_arriving_is_408_json() {
    let server = ChildServer::start(10, None);
    let host = server.addr;
    let mut stream = server.connect();
    let head = format!(
        "PUT /v1/patterns/p1 HTTP/1.1\r\nHost: {host}\r\nAuthorization: Bearer {}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{{\"name\":",
        support::TOKEN
    );
    stream.write_all(head.as_bytes()).unwrap();
    let started = Instant::now();
    let mut response = vec![0u8; 4096];
    let n = stream.read(&mut response).unwrap();
    let response = String::from_utf8_lossy(&response[..n]).into_owned();
    assert!(status_line(&response).contains(" 408 "), "{response}");
    assert_eq!(json_body(&response)["error"]["code"], "body_timeout");
    assert!(
        started.elapsed() < Duration::from_secs(6),
        "{:?}",
        started.elapsed()
    );
}

#[test]
fn hypers_own_rejections_are_json_errors() {
    let server = ChildServer::start(10, None);
    let long = format!("/{}", "a".repeat(100_000));
    let response = server.get(&long);
    assert!(
        status_line(&response).contains(" 414 "),
        "{}",
        status_line(&response)
    );
    assert_eq!(json_body(&response)["error"]["code"], "uri_too_long");

    let response = server.exchange(b"GET / HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n");
    assert!(status_line(&response).contains(" 400 "), "{response}");
    assert_eq!(json_body(&response)["error"]["code"], "malformed_request");

    let response = server.get("/v1/sessions/%zz/messages");
    assert!(status_line(&response).contains(" 4"), "{response}");
    assert!(
        json_body(&response)["error"]["code"].is_string(),
        "{response}"
    );
}

#[test]
fn sigterm_ends_the_server_within_its_deadline_while_a_slow_connection_is_open() {
    let mut server = ChildServer::start(120, None);
    let mut slow = server.connect();
    slow.write_all(b"POST /v1/agent HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Le")
        .unwrap();
    std::thread::sleep(Duration::from_millis(200));
    let signalled = Instant::now();
    let killed = Command::new("kill")
        .args(["-TERM", &server.child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(killed.success());
    let status = loop {
        if let Some(status) = server.child.try_wait().unwrap() {
            break status;
        }
        assert!(
            signalled.elapsed() < Duration::from_secs(8),
            "still running {:?} after SIGTERM",
            signalled.elapsed()
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    let took = signalled.elapsed();
    eprintln!("exited {status} {took:?} after SIGTERM (deadline 2 s)");
    assert!(status.success(), "{status}");
    assert!(took < Duration::from_secs(5), "{took:?}");
    let printed: Vec<String> = server.lines.by_ref().map_while(Result::ok).collect();
    assert!(printed.iter().any(|l| l == "STOPPED"), "{printed:?}");
}
