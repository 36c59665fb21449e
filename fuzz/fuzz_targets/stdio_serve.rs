//! `warrant stdio` end to end: the input stream through `serve` with the default chain, the
//! output collected.
//!
//! Asserts: no panic; `serve` returns `Ok` at the end of the input; every output line is one
//! JSON object with an upper-case AG-UI `type`; every tool call whose line parses gets a
//! decision (a `tool_permission_decision` event for its id) unless an error was reported;
//! no decision is made for an id never sent.
#![no_main]

use std::collections::BTreeSet;
use std::sync::Arc;

use libfuzzer_sys::fuzz_target;
use serde_json::Value;
use warrant_core::engine::Engine;
use warrant_core::event::TOOL_PERMISSION_DECISION;
use warrant_core::store::MemoryStore;
use warrant_fuzz::{Chunked, Sink, chain, evaluators_config, runtime, workspace};
use warrant_transports::stdio::{Command, LineTransport, Lines, StdioOptions, parse, serve};

fuzz_target!(|data: &[u8]| {
    let options = StdioOptions::default();
    let rt = runtime();
    rt.block_on(async {
        // The tool calls the input holds, as `serve` reads them.
        let mut sent = BTreeSet::new();
        let mut lines = Lines::new(Chunked::new(data.to_vec(), vec![]), options.max_line);
        while let Some((n, line)) = lines.next().await.expect("in-memory") {
            if let Ok(Command::ToolCall(c)) = parse(n, line, options.max_line) {
                sent.insert(c.tool_call_id.into_string());
            }
        }

        let sink = Sink::default();
        let out = Arc::new(LineTransport::new(sink.clone()));
        let engine = Engine::builder(chain())
            .store(Arc::new(MemoryStore::new()))
            .transport(out.clone())
            .grant_scoper(Arc::new(warrant_evaluators::grant_scoper(
                &evaluators_config(),
                workspace(),
            )))
            .workspace_root(workspace())
            .build()
            .await
            .expect("an engine");
        serve(Chunked::new(data.to_vec(), vec![7, 4096]), engine, out, options)
            .await
            .expect("serve ends cleanly at the end of its input");

        let bytes = sink.bytes();
        let text = String::from_utf8(bytes).expect("the output is UTF-8");
        assert!(text.is_empty() || text.ends_with('\n'), "the output ends its last line");
        let mut decided = BTreeSet::new();
        let mut errors = 0usize;
        for line in text.lines() {
            let event: Value = serde_json::from_str(line)
                .unwrap_or_else(|e| panic!("an output line is not JSON ({e}): {line:?}"));
            let kind = event["type"].as_str().unwrap_or_default();
            assert!(
                !kind.is_empty() && kind.chars().all(|c| c.is_ascii_uppercase() || c == '_'),
                "an output line without an AG-UI type: {line}"
            );
            if kind == "RUN_ERROR" {
                errors += 1;
            }
            if kind == "CUSTOM" && event["name"] == TOOL_PERMISSION_DECISION {
                let id = event["value"]["toolCallId"].as_str().expect("a decision names its call");
                assert!(
                    ["allow", "ask", "deny"].contains(&event["value"]["behavior"].as_str().unwrap_or("")),
                    "a decision without a behavior: {line}"
                );
                decided.insert(id.to_owned());
            }
        }
        for id in &decided {
            assert!(sent.contains(id), "a decision for call {id:?}, never sent");
        }
        if errors == 0 {
            for id in &sent {
                assert!(decided.contains(id), "call {id:?} parsed but got no decision and no error");
            }
        }
    });
});
