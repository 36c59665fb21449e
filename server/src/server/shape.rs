//! Gives hyper's own error responses the JSON error shape.
//!
//! hyper answers a request it cannot parse (a malformed request line or header: 400; a URI
//! over 65,534 bytes: 414; a head too large: 431) itself, with an empty body, before any
//! route sees it. Such a response is written as one bodiless head starting a write; this
//! wrapper replaces exactly those with the same status and a `{"error":{"code","message"}}`
//! body. Every other byte passes through untouched.

use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

/// A connection whose bodiless 400, 414 and 431 heads become JSON error responses.
pub(super) struct ErrorShaped<T> {
    inner: T,
    /// Replacement bytes still to write.
    pending: Vec<u8>,
    written: usize,
}

impl<T> ErrorShaped<T> {
    pub(super) fn new(inner: T) -> Self {
        Self {
            inner,
            pending: Vec::new(),
            written: 0,
        }
    }
}

/// The JSON response replacing hyper's bodiless head, when `head` is one.
fn replacement(head: &[u8]) -> Option<Vec<u8>> {
    let (status, code, message) = if head.starts_with(b"HTTP/1.1 414 ") {
        (
            "414 URI Too Long",
            "uri_too_long",
            "the request URI is longer than 65534 bytes",
        )
    } else if head.starts_with(b"HTTP/1.1 431 ") {
        (
            "431 Request Header Fields Too Large",
            "headers_too_large",
            "the request's headers are too large",
        )
    } else if head.starts_with(b"HTTP/1.1 400 ") {
        (
            "400 Bad Request",
            "malformed_request",
            "the request is not valid HTTP/1.1 (its request line or a header is malformed)",
        )
    } else {
        return None;
    };
    let text = std::str::from_utf8(head).ok()?;
    let lower = text.to_ascii_lowercase();
    if !lower.ends_with("\r\n\r\n") || !lower.contains("\r\ncontent-length: 0\r\n") {
        return None;
    }
    let body = serde_json::json!({"error": {"code": code, "message": message}}).to_string();
    Some(
        format!(
            "HTTP/1.1 {status}\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
            body.len()
        )
        .into_bytes(),
    )
}

impl<T: AsyncWrite + Unpin> ErrorShaped<T> {
    /// Writes what is left of a replacement.
    fn poll_drain(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        while self.written < self.pending.len() {
            let n = match Pin::new(&mut self.inner).poll_write(cx, &self.pending[self.written..]) {
                Poll::Ready(Ok(n)) => n,
                Poll::Ready(Err(e)) => return Poll::Ready(Err(e)),
                Poll::Pending => return Poll::Pending,
            };
            if n == 0 {
                return Poll::Ready(Err(io::ErrorKind::WriteZero.into()));
            }
            self.written += n;
        }
        self.pending.clear();
        self.written = 0;
        Poll::Ready(Ok(()))
    }
}

impl<T: AsyncRead + Unpin> AsyncRead for ErrorShaped<T> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_read(cx, buf)
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for ErrorShaped<T> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = &mut *self;
        match this.poll_drain(cx) {
            Poll::Ready(Ok(())) => {}
            Poll::Ready(Err(e)) => return Poll::Ready(Err(e)),
            Poll::Pending => return Poll::Pending,
        }
        if let Some(json) = replacement(buf) {
            // The head counts as written; the JSON response goes out on the next drain.
            this.pending = json;
            let _ = this.poll_drain(cx);
            return Poll::Ready(Ok(buf.len()));
        }
        Pin::new(&mut this.inner).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = &mut *self;
        match this.poll_drain(cx) {
            Poll::Ready(Ok(())) => Pin::new(&mut this.inner).poll_flush(cx),
            other => other,
        }
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = &mut *self;
        match this.poll_drain(cx) {
            Poll::Ready(Ok(())) => Pin::new(&mut this.inner).poll_shutdown(cx),
            other => other,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::replacement;

    #[test]
    fn a_bodiless_414_head_becomes_a_json_error() {
        let head = b"HTTP/1.1 414 URI Too Long\r\ncontent-length: 0\r\ndate: x\r\n\r\n";
        let out = String::from_utf8(replacement(head).expect("replaced")).unwrap();
        assert!(out.starts_with("HTTP/1.1 414 URI Too Long\r\n"), "{out}");
        assert!(out.ends_with(r#"{"error":{"code":"uri_too_long","message":"the request URI is longer than 65534 bytes"}}"#), "{out}");
    }

    #[test]
    fn responses_with_a_body_pass_untouched() {
        let head = b"HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\ncontent-length: 12\r\n\r\n{\"error\":{}}";
        assert!(replacement(head).is_none());
        assert!(replacement(b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n").is_none());
    }
}
