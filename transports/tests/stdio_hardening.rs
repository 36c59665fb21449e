//! `warrant stdio` under pressure: an approval on the line right after its call is accepted,
//! every error names its line, and a closed output stops the process.

mod support;

use std::sync::Arc;
use std::time::Duration;

use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use warrant_core::engine::Engine;
use warrant_core::store::MemoryStore;
use warrant_transports::stdio::{LineTransport, StdioOptions, serve};

async fn engine(out: Arc<LineTransport>) -> Engine {
    Engine::builder(support::chain::demo())
        .store(Arc::new(MemoryStore::new()))
        .transport(out)
        .build()
        .await
        .expect("an engine")
}

/// Runs `input` (all lines at once) to its end and returns every event written.
async fn run(input: &str) -> Vec<Value> {
    let (mut writer, server_in) = tokio::io::duplex(1 << 20);
    let (server_out, output) = tokio::io::duplex(1 << 20);
    let out = Arc::new(LineTransport::new(server_out));
    let engine = engine(out.clone()).await;
    let server = tokio::spawn(serve(server_in, engine, out, StdioOptions::default()));
    writer.write_all(input.as_bytes()).await.unwrap();
    drop(writer);
    server.await.unwrap().expect("served");
    let mut lines = BufReader::new(output).lines();
    let mut events = Vec::new();
    while let Ok(Some(line)) = lines.next_line().await {
        events.push(serde_json::from_str(&line).unwrap());
    }
    events
}

fn tool_call(id: &str, command: &str) -> String {
    json!({"type": "tool_call", "sessionId": "s1", "toolCallId": id, "toolName": "Bash",
           "input": {"command": command}})
    .to_string()
}

#[tokio::test]
async fn an_approval_on_the_line_right_after_its_call_is_accepted() {
    let approval = json!({"type": "approval", "toolCallId": "c1", "actionId": "allow_once"});
    let events = run(&format!("{}\n{approval}\n", tool_call("c1", "git push"))).await;
    let errors: Vec<&Value> = events.iter().filter(|e| e["type"] == "RUN_ERROR").collect();
    assert!(errors.is_empty(), "{errors:?}");
    let resolution = events
        .iter()
        .find(|e| e["name"] == "tool_permission_resolution")
        .expect("a resolution");
    assert_eq!(resolution["value"]["actionId"], "allow_once");
}

#[tokio::test]
async fn errors_raised_while_handling_a_line_name_the_line() {
    let input = format!(
        "{}\n\n{}\n{}\n",
        tool_call("c1", "rm -rf /"),
        json!({"type": "approval", "toolCallId": "nope", "actionId": "deny"}),
        json!({"type": "tool_result", "toolCallId": "c1", "content": "gone"}),
    );
    let events = run(&input).await;
    let errors: Vec<(String, String)> = events
        .iter()
        .filter(|e| e["type"] == "RUN_ERROR")
        .map(|e| {
            (
                e["code"].as_str().unwrap().to_owned(),
                e["message"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    assert_eq!(errors.len(), 2, "{errors:?}");
    let approval = errors
        .iter()
        .find(|(c, _)| c == "approval_not_found")
        .unwrap();
    assert!(approval.1.starts_with("line 3: "), "{approval:?}");
    let result = errors
        .iter()
        .find(|(c, _)| c == "result_not_accepted")
        .unwrap();
    assert!(result.1.starts_with("line 4: "), "{result:?}");
    assert!(result.1.contains("denied"), "{result:?}");
}

#[tokio::test]
async fn a_closed_output_stops_serving_while_the_input_stays_open() {
    let (mut writer, server_in) = tokio::io::duplex(1 << 16);
    let (server_out, output) = tokio::io::duplex(1 << 16);
    drop(output);
    let out = Arc::new(LineTransport::new(server_out));
    let engine = engine(out.clone()).await;
    let server = tokio::spawn(serve(server_in, engine, out, StdioOptions::default()));
    writer
        .write_all(format!("{}\n", tool_call("c1", "git status")).as_bytes())
        .await
        .unwrap();
    let ended = tokio::time::timeout(Duration::from_secs(5), server)
        .await
        .expect("serve stops although the input is still open")
        .unwrap();
    let error = ended.expect_err("a closed output is an error");
    assert_eq!(error.kind(), std::io::ErrorKind::BrokenPipe, "{error}");
    drop(writer);
}
