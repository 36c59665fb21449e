//! Two `warrant serve` processes on one PostgreSQL database: a call that asks is posted to
//! A and approved on B; an SSE subscriber on each sees the same events, with the same ids, in
//! the same order; A restarts and a subscriber resuming there with `Last-Event-ID` gets
//! exactly the rest; a result taken on A is refused on B; a request pending on B is resolved
//! on A; and of two concurrent resolutions of one request, on the two instances, exactly one
//! succeeds.
//!
//! Needs a server: `scripts/with-postgres cargo test -p warrant --test two_instances`.

use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;
use std::sync::mpsc;
use std::sync::{Arc, Barrier};
use std::time::{Duration, Instant};

use serde_json::Value;

mod postgres_support;

use postgres_support::{Database, Serve, TOKEN, http, path_setting};

/// The session every call of the test belongs to.
const SESSION: &str = "two-instances";
/// The longest any one wait may take.
const WAIT: Duration = Duration::from_secs(20);
/// The longest the whole test may take.
const DEADLINE: Duration = Duration::from_secs(150);

/// One SSE event as a subscriber received it: its id and its data line.
#[derive(Debug, Clone, PartialEq)]
struct Seen {
    id: u64,
    data: Value,
}

/// A subscriber to the session's events on one instance, reading on a thread of its own.
struct Subscriber {
    events: mpsc::Receiver<Seen>,
    seen: Vec<Seen>,
}

impl Subscriber {
    /// Subscribes on `addr`, after `last_event_id` when given.
    fn start(addr: &str, last_event_id: Option<u64>) -> Self {
        let mut stream = TcpStream::connect(addr).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(60)))
            .unwrap();
        let resume = last_event_id
            .map(|id| format!("Last-Event-ID: {id}\r\n"))
            .unwrap_or_default();
        let request = format!(
            "GET /v1/sessions/{SESSION}/events HTTP/1.0\r\nHost: {addr}\r\n\
             Authorization: Bearer {TOKEN}\r\nAccept: text/event-stream\r\n{resume}\r\n"
        );
        stream.write_all(request.as_bytes()).unwrap();
        let mut lines = BufReader::new(stream).lines();
        let status = lines.next().unwrap().unwrap();
        assert!(status.contains(" 200 "), "subscribing on {addr}: {status}");
        let (send, events) = mpsc::channel();
        std::thread::spawn(move || {
            let mut id = None;
            for line in lines {
                let Ok(line) = line else { return };
                if let Some(rest) = line.strip_prefix("id: ") {
                    id = rest.trim().parse::<u64>().ok();
                } else if let Some(rest) = line.strip_prefix("data: ") {
                    let data: Value = serde_json::from_str(rest).unwrap();
                    let id = id.take().expect("every event frame has an id");
                    if send.send(Seen { id, data }).is_err() {
                        return;
                    }
                }
            }
        });
        Self {
            events,
            seen: Vec::new(),
        }
    }

    /// Reads until an event satisfies `done`; panics after [`WAIT`].
    fn until(&mut self, what: &str, done: impl Fn(&Seen) -> bool) -> &[Seen] {
        let until = Instant::now() + WAIT;
        loop {
            if self.seen.iter().any(&done) {
                return &self.seen;
            }
            let left = until.saturating_duration_since(Instant::now());
            match self.events.recv_timeout(left) {
                Ok(event) => self.seen.push(event),
                Err(e) => panic!("no {what} within {WAIT:?} ({e}); seen: {:#?}", self.seen),
            }
        }
    }

    /// Reads what arrives within `quiet` more.
    fn settle(&mut self, quiet: Duration) -> &[Seen] {
        while let Ok(event) = self.events.recv_timeout(quiet) {
            self.seen.push(event);
        }
        &self.seen
    }
}

/// Whether an event is the resolution of `id`.
fn resolution_of(id: &str) -> impl Fn(&Seen) -> bool + '_ {
    move |e: &Seen| {
        e.data["type"] == "CUSTOM"
            && e.data["name"] == "tool_permission_resolution"
            && e.data["value"]["toolCallId"] == id
    }
}

/// Whether an event is the approval request of `id`.
fn request_of(id: &str) -> impl Fn(&Seen) -> bool + '_ {
    move |e: &Seen| {
        e.data["type"] == "CUSTOM"
            && e.data["name"] == "tool_approval_request"
            && e.data["value"]["toolCallId"] == id
    }
}

/// Posts a call that asks (a push) to `addr`; panics unless the decision is `ask`.
fn post_asking_call(addr: &str, id: &str) {
    let body = format!(
        r#"{{"toolCallId":"{id}","toolName":"Bash","input":{{"command":"git push origin main"}}}}"#
    );
    let path = format!("/v1/sessions/{SESSION}/tool-calls");
    let (status, body) = http(addr, "POST", &path, Some(&body), WAIT).expect("an answer");
    assert_eq!(status, 200, "posting {id} to {addr}: {body}");
    let decision: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(decision["behavior"], "ask", "{id}: {body}");
}

/// Resolves `id` on `addr` with `allow_once`: the status and body.
fn resolve(addr: &str, id: &str) -> (u16, String) {
    http(
        addr,
        "POST",
        &format!("/v1/approvals/{id}"),
        Some(r#"{"actionId":"allow_once"}"#),
        WAIT,
    )
    .expect("an answer")
}

/// The ids of the requests `addr` lists as pending.
fn pending_on(addr: &str) -> Vec<String> {
    let (status, body) = http(addr, "GET", "/v1/approvals", None, WAIT).expect("an answer");
    assert_eq!(status, 200, "{body}");
    let json: Value = serde_json::from_str(&body).unwrap();
    let list = json
        .as_array()
        .or_else(|| json["requests"].as_array())
        .or_else(|| json["pending"].as_array())
        .unwrap_or_else(|| panic!("an array of pending requests: {body}"));
    list.iter()
        .filter_map(|r| r["toolCallId"].as_str().map(str::to_owned))
        .collect()
}

/// Waits until `addr` no longer lists `id` as pending.
fn until_not_pending(addr: &str, id: &str) {
    let until = Instant::now() + WAIT;
    while pending_on(addr).iter().any(|p| p == id) {
        assert!(
            Instant::now() < until,
            "{addr} still lists {id} as pending after {WAIT:?}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Asserts a subscriber's events are numbered 1, 2, 3, … with no gap and no repeat.
fn assert_gap_free(seen: &[Seen], from: u64, who: &str) {
    for (i, event) in seen.iter().enumerate() {
        assert_eq!(
            event.id,
            from + i as u64,
            "{who}: event {i} has id {}, expected {}: {seen:#?}",
            event.id,
            from + i as u64
        );
    }
}

#[test]
fn two_instances_share_events_and_approvals() {
    let started = Instant::now();
    let database = Database::create();
    let dir = tempfile::tempdir().unwrap();
    // One audit key for both instances; each keeps its own checkpoint in its data directory.
    let key_file = dir.path().join("shared.audit-key");
    let config = postgres_support::write_config(
        dir.path(),
        &database,
        &[path_setting("audit_key_file", &key_file)],
    );
    let (a_dir, b_dir) = (dir.path().join("a"), dir.path().join("b"));
    let a = Serve::start(&config, &a_dir);
    let b = Serve::start(&config, &b_dir);
    let mut on_a = Subscriber::start(&a.addr, None);
    let mut on_b = Subscriber::start(&b.addr, None);

    // A call that asks, posted to A, approved on B.
    post_asking_call(&a.addr, "push-1");
    on_b.until("push-1's request on B", request_of("push-1"));
    let (status, body) = resolve(&b.addr, "push-1");
    let resolved = Instant::now();
    assert_eq!(status, 200, "B resolves A's request: {body}");
    let resolution: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(resolution["behavior"], "allow");
    on_a.until("push-1's resolution on A", resolution_of("push-1"));
    eprintln!(
        "B's resolution reached A's subscriber {:?} after B answered",
        resolved.elapsed()
    );
    on_b.until("push-1's resolution on B", resolution_of("push-1"));
    // A learned of the resolution: the request left its pending list, and the call it
    // allowed takes its result there.
    until_not_pending(&a.addr, "push-1");
    let (status, body) = http(
        &a.addr,
        "POST",
        &format!("/v1/sessions/{SESSION}/tool-calls/push-1/result"),
        Some(r#"{"content":"pushed"}"#),
        WAIT,
    )
    .expect("an answer");
    assert_eq!(status, 204, "A takes push-1's result: {body}");
    // The same result posted to B is a second result: refused there too.
    let (status, body) = http(
        &b.addr,
        "POST",
        &format!("/v1/sessions/{SESSION}/tool-calls/push-1/result"),
        Some(r#"{"content":"pushed again"}"#),
        WAIT,
    )
    .expect("an answer");
    assert_eq!(status, 409, "B refuses a second result of push-1: {body}");
    assert!(body.contains("already has a result"), "{body}");
    let is_result = |e: &Seen| e.data["type"] == "TOOL_CALL_RESULT";
    on_a.until("push-1's result on A", is_result);
    on_b.until("push-1's result on B", is_result);
    let quiet = Duration::from_millis(300);
    let seen_a = on_a.settle(quiet).to_vec();
    let seen_b = on_b.settle(quiet).to_vec();
    assert_gap_free(&seen_a, 1, "A's subscriber");
    assert_eq!(seen_a, seen_b, "both subscribers see the same events");
    let position = |seen: &[Seen], found: &dyn Fn(&Seen) -> bool| {
        seen.iter().position(found).expect("present")
    };
    assert!(
        position(&seen_a, &request_of("push-1")) < position(&seen_a, &resolution_of("push-1"))
            && position(&seen_a, &resolution_of("push-1")) < position(&seen_a, &is_result),
        "request, resolution, result, in that order: {seen_a:#?}"
    );

    // A stops; B goes on; A starts again and a subscriber resumes there.
    let last_on_a = seen_a.last().unwrap().id;
    drop(on_a);
    a.kill();
    post_asking_call(&b.addr, "push-2");
    on_b.until("push-2's request on B", request_of("push-2"));
    let a = Serve::start(&config, &a_dir);
    let mut resumed = Subscriber::start(&a.addr, Some(last_on_a));

    // A request pending on B, opened after A restarted, resolved on A.
    post_asking_call(&b.addr, "push-3");
    on_b.until("push-3's request on B", request_of("push-3"));
    let (status, body) = resolve(&a.addr, "push-3");
    assert_eq!(status, 200, "A resolves B's request: {body}");
    on_b.until("push-3's resolution on B", resolution_of("push-3"));
    resumed.until("push-3's resolution on A", resolution_of("push-3"));
    until_not_pending(&b.addr, "push-3");
    let (status, body) = resolve(&b.addr, "push-3");
    assert_eq!(status, 409, "a second resolution of push-3, on B: {body}");

    // Concurrent resolutions on both instances: exactly one wins, the other gets 409.
    // push-2 was pending on B before A restarted (A adopted it); the others are new.
    let mut raced = vec!["push-2".to_owned()];
    for n in 0..6 {
        let id = format!("race-{n}");
        let to = if n % 2 == 0 { &a.addr } else { &b.addr };
        post_asking_call(to, &id);
        raced.push(id);
    }
    on_b.until("the last race's request on B", request_of("race-5"));
    for id in &raced {
        let barrier = Arc::new(Barrier::new(2));
        let racers: Vec<_> = [a.addr.clone(), b.addr.clone()]
            .into_iter()
            .map(|addr| {
                let (barrier, id) = (Arc::clone(&barrier), id.clone());
                std::thread::spawn(move || {
                    barrier.wait();
                    resolve(&addr, &id)
                })
            })
            .collect();
        let answers: Vec<(u16, String)> = racers.into_iter().map(|r| r.join().unwrap()).collect();
        let mut statuses: Vec<u16> = answers.iter().map(|(s, _)| *s).collect();
        statuses.sort_unstable();
        assert_eq!(statuses, vec![200, 409], "{id}: {answers:?}");
    }
    for id in &raced {
        until_not_pending(&a.addr, id);
        until_not_pending(&b.addr, id);
    }
    on_b.until("race-5's resolution on B", resolution_of("race-5"));
    resumed.until("race-5's resolution on A", resolution_of("race-5"));
    let seen_b = on_b.settle(quiet).to_vec();
    let resumed_seen = resumed.settle(quiet).to_vec();
    assert_gap_free(&seen_b, 1, "B's subscriber");
    // Exactly the rest: everything after the id it resumed from, as B's subscriber saw it.
    assert_eq!(
        resumed_seen,
        seen_b[last_on_a as usize..].to_vec(),
        "the subscriber resumed on A gets exactly the events after {last_on_a}"
    );
    for id in raced
        .iter()
        .chain(["push-1".to_owned(), "push-3".to_owned()].iter())
    {
        let resolutions = seen_b.iter().filter(|e| resolution_of(id)(e)).count();
        assert_eq!(resolutions, 1, "{id} is resolved once: {seen_b:#?}");
    }
    drop(b);
    drop(a);
    assert!(
        started.elapsed() < DEADLINE,
        "the test took {:?}",
        started.elapsed()
    );
}
