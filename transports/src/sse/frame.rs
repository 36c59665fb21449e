//! SSE frames as AG-UI clients parse them: LF line ends only, one `data:` line of one-line
//! JSON per event, preceded by its `id:` line.

use axum::body::Bytes;
use warrant_core::event::Event;

/// The keep-alive frame: a comment, ignored by every SSE parser.
pub const KEEP_ALIVE: &[u8] = b": keep-alive\n\n";

/// `id: <seq>\ndata: <json>\n\n`. JSON escapes every line break inside strings, so the data
/// is always one line.
pub fn event_frame(seq: u64, event: &Event) -> Bytes {
    let json = serde_json::to_string(event).unwrap_or_else(|e| {
        // Unreachable for Warrant's event types; fail visibly rather than emit a broken frame.
        serde_json::json!({"type": "RUN_ERROR", "message": format!("event not encodable: {e}"), "code": "encoding_failed"})
            .to_string()
    });
    Bytes::from(format!("id: {seq}\ndata: {json}\n\n"))
}

/// A comment frame (`: text\n\n`); line breaks in `text` become spaces.
pub fn comment_frame(text: &str) -> Bytes {
    let one_line: String = text
        .chars()
        .map(|c| if c == '\n' || c == '\r' { ' ' } else { c })
        .collect();
    Bytes::from(format!(": {one_line}\n\n"))
}
