//! Reading SSE bodies: frames, with their ids and events.

use axum::body::Body;
use futures::StreamExt;
use serde_json::Value;

/// One frame of an SSE body.
#[derive(Debug, Clone, PartialEq)]
pub enum Frame {
    /// An event: its `id:` and its `data:` JSON.
    Event { id: u64, data: Value },
    /// A comment line (keep-alive, missed events).
    Comment(String),
}

impl Frame {
    pub fn event(&self) -> Option<&Value> {
        match self {
            Frame::Event { data, .. } => Some(data),
            Frame::Comment(_) => None,
        }
    }
}

/// Parses a whole SSE text into frames, asserting the framing: LF only, each event an
/// `id:` line and one `data:` line.
pub fn parse(text: &str) -> Vec<Frame> {
    assert!(!text.contains('\r'), "LF only: {text:?}");
    assert!(
        text.is_empty() || text.ends_with("\n\n"),
        "ends with a blank line: {text:?}"
    );
    text.split_terminator("\n\n").map(parse_frame).collect()
}

fn parse_frame(frame: &str) -> Frame {
    let lines: Vec<&str> = frame.split('\n').collect();
    if let [comment] = lines[..]
        && let Some(text) = comment.strip_prefix(": ")
    {
        return Frame::Comment(text.to_owned());
    }
    match lines[..] {
        [id, data] => {
            let id = id
                .strip_prefix("id: ")
                .unwrap_or_else(|| panic!("an id line: {frame:?}"));
            let data = data
                .strip_prefix("data: ")
                .unwrap_or_else(|| panic!("a data line: {frame:?}"));
            Frame::Event {
                id: id.parse().expect("a numeric id"),
                data: serde_json::from_str(data).expect("one-line JSON"),
            }
        }
        _ => panic!("a frame is an id line and a data line: {frame:?}"),
    }
}

/// Reads an endless SSE body frame by frame.
pub struct Reader {
    stream: axum::body::BodyDataStream,
    buffer: String,
}

impl Reader {
    pub fn new(body: Body) -> Self {
        Self {
            stream: body.into_data_stream(),
            buffer: String::new(),
        }
    }

    /// The next frame; `None` at the end of the body.
    pub async fn frame(&mut self) -> Option<Frame> {
        loop {
            if let Some(end) = self.buffer.find("\n\n") {
                let frame: String = self.buffer.drain(..end + 2).collect();
                return parse(&frame).pop();
            }
            let chunk = self.stream.next().await?.expect("a readable body");
            self.buffer
                .push_str(std::str::from_utf8(&chunk).expect("UTF-8"));
        }
    }

    /// The next `n` event frames, skipping comments.
    pub async fn events(&mut self, n: usize) -> Vec<(u64, Value)> {
        let mut out = Vec::new();
        while out.len() < n {
            match self.frame().await.expect("more frames") {
                Frame::Event { id, data } => out.push((id, data)),
                Frame::Comment(_) => {}
            }
        }
        out
    }
}
