//! `warrant stdio` writes the store's event log through the engine, like `warrant serve`: the
//! lines it prints are the events logged, in the same order, and a subscriber to the engine
//! sees them with their event ids.

mod support;

use std::sync::Arc;

use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use warrant_core::engine::Engine;
use warrant_core::events::Item;
use warrant_core::store::{EventLog, MemoryStore};
use warrant_transports::stdio::{LineTransport, StdioOptions, serve};

#[tokio::test]
async fn the_stdio_engine_logs_what_it_prints() {
    let store = Arc::new(MemoryStore::new());
    let (mut input, server_in) = tokio::io::duplex(1 << 16);
    let (server_out, output) = tokio::io::duplex(1 << 16);
    let out = Arc::new(LineTransport::new(server_out));
    let engine = Engine::builder(support::chain::demo())
        .store(store.clone())
        .transport(out.clone())
        .build()
        .await
        .expect("an engine");
    let mut subscribed = engine.subscribe(&"s1".into(), 0);
    let task = tokio::spawn(serve(server_in, engine, out, StdioOptions::default()));
    let call = json!({"type": "tool_call", "sessionId": "s1", "toolCallId": "c1",
        "toolName": "view", "input": {"path": "README.md"}});
    let result = json!({"type": "tool_result", "toolCallId": "c1", "content": "# readme"});
    for line in [call, result] {
        input.write_all(line.to_string().as_bytes()).await.unwrap();
        input.write_all(b"\n").await.unwrap();
    }
    drop(input);
    task.await.unwrap().unwrap();
    let mut printed = Vec::new();
    let mut lines = BufReader::new(output).lines();
    while let Some(line) = lines.next_line().await.unwrap() {
        printed.push(serde_json::from_str::<Value>(&line).unwrap());
    }
    let logged: Vec<Value> = store
        .events_since(&"s1".into(), 0, 100)
        .await
        .unwrap()
        .iter()
        .enumerate()
        .map(|(i, e)| {
            assert_eq!(e.seq, i as u64 + 1);
            serde_json::to_value(&e.event).unwrap()
        })
        .collect();
    let types: Vec<&str> = logged.iter().map(|e| e["type"].as_str().unwrap()).collect();
    assert_eq!(
        types,
        [
            "TOOL_CALL_START",
            "TOOL_CALL_ARGS",
            "TOOL_CALL_END",
            "CUSTOM",
            "TOOL_CALL_RESULT"
        ]
    );
    assert_eq!(printed, logged);
    for (n, expected) in logged.iter().enumerate() {
        let Some(Item::Event(e)) = subscribed.next().await else {
            panic!("an event")
        };
        assert_eq!(e.seq, n as u64 + 1);
        assert_eq!(&serde_json::to_value(&e.event).unwrap(), expected);
    }
}
