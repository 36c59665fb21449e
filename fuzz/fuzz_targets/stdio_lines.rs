//! `warrant stdio`'s input decoders: the length-bounded line reader (`Lines`, over a pipe that
//! delivers the bytes in arbitrary chunks) and the line parser (`parse`).
//!
//! Asserts: no panic; `Lines` agrees with a plain reference splitter (LF ends, one CR before
//! it dropped, a line over the bound is `TooLong`, bytes that are not UTF-8 are `NotUtf8`,
//! numbers count from 1); a parsed command never has a blank id.
#![no_main]

use libfuzzer_sys::fuzz_target;
use warrant_fuzz::{Chunked, runtime};
use warrant_transports::stdio::{Command, Line, Lines, parse};

/// What `Lines` should yield for `data`, bound `max`.
fn reference(data: &[u8], max: usize) -> Vec<Line> {
    let mut out = Vec::new();
    let mut rest = data;
    while !rest.is_empty() {
        let (raw, next) = match rest.iter().position(|&b| b == b'\n') {
            Some(i) => (&rest[..i], &rest[i + 1..]),
            None => (rest, &rest[rest.len()..]),
        };
        rest = next;
        if raw.len() > max {
            out.push(Line::TooLong);
            continue;
        }
        let text = raw.strip_suffix(b"\r").unwrap_or(raw);
        out.push(match String::from_utf8(text.to_vec()) {
            Ok(t) => Line::Text(t),
            Err(_) => Line::NotUtf8,
        });
    }
    out
}

fuzz_target!(|data: &[u8]| {
    // Byte 0: the bound; bytes 1..3: the chunk sizes of the pipe; the rest: the input.
    if data.len() < 3 {
        return;
    }
    let max = match data[0] {
        0 => 0,
        b if b < 200 => usize::from(b),
        _ => 1 << 20,
    };
    let sizes = vec![usize::from(data[1]), usize::from(data[2]) + 1];
    let input = data[3..].to_vec();
    let expected = reference(&input, max);

    let rt = runtime();
    let got = rt.block_on(async {
        let mut lines = Lines::new(Chunked::new(input.clone(), sizes), max);
        let mut got = Vec::new();
        while let Some((number, line)) = lines.next().await.expect("in-memory reads never fail") {
            assert_eq!(number, got.len() + 1, "lines are numbered from 1 without gaps");
            got.push(line);
        }
        got
    });
    assert_eq!(got, expected, "Lines disagrees with the reference splitter (max {max})");

    for (i, line) in got.into_iter().enumerate() {
        let number = i + 1;
        let was_text = matches!(line, Line::Text(_));
        match parse(number, line, max) {
            Ok(command) => {
                assert!(was_text, "only text parses");
                let ids: Vec<&str> = match &command {
                    Command::ToolCall(c) => {
                        vec![c.session_id.as_str(), c.tool_call_id.as_str(), &c.tool_name]
                    }
                    Command::Approval(a) => vec![a.tool_call_id.as_str(), &a.action_id],
                    Command::ToolResult(r) => vec![r.tool_call_id.as_str()],
                    Command::SessionSettings(s) => vec![s.session_id.as_str()],
                    Command::RevokeGrant(g) => vec![&g.grant_id],
                    Command::RuntimeTools(t) => t.tools.iter().map(|t| t.name.as_str()).collect(),
                };
                assert!(ids.iter().all(|v| !v.trim().is_empty()), "a blank id passed: {command:?}");
            }
            Err(e) => {
                assert!(
                    e.message.starts_with(&format!("line {number}: ")),
                    "the error names its line: {e:?}"
                );
            }
        }
    }
});
