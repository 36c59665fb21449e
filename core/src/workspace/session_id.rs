//! The bound on session ids: every store keys rows by them, so their length is limited.

use std::fmt;

/// The longest session id accepted, in bytes (UTF-8).
pub const MAX_SESSION_ID_BYTES: usize = 256;

/// How much of an over-long id an error quotes: enough to recognise it, never megabytes.
const QUOTED_BYTES: usize = 320;

/// A session id longer than [`MAX_SESSION_ID_BYTES`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionIdTooLong {
    /// The id, cut to its first few hundred bytes when it is longer.
    pub quoted: String,
    /// Its length in bytes.
    pub bytes: usize,
}

impl fmt::Display for SessionIdTooLong {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let cut = if self.quoted.len() < self.bytes {
            "…"
        } else {
            ""
        };
        write!(
            f,
            "session id \"{}{cut}\" is {} bytes long; session ids are at most {MAX_SESSION_ID_BYTES} bytes",
            self.quoted, self.bytes
        )
    }
}

impl std::error::Error for SessionIdTooLong {}

/// Checks that a session id (a [`SessionId`](crate::ids::SessionId) or its text) fits the
/// bound.
///
/// ```
/// use warrant_core::workspace::{MAX_SESSION_ID_BYTES, check_session_id};
///
/// assert!(check_session_id("s1").is_ok());
/// let err = check_session_id(&"x".repeat(MAX_SESSION_ID_BYTES + 1)).unwrap_err();
/// assert_eq!(err.bytes, 257);
/// ```
///
/// # Errors
///
/// [`SessionIdTooLong`] naming the id (its first few hundred bytes) and its length.
pub fn check_session_id<S: AsRef<str> + ?Sized>(id: &S) -> Result<(), SessionIdTooLong> {
    let id = id.as_ref();
    if id.len() <= MAX_SESSION_ID_BYTES {
        return Ok(());
    }
    let mut end = QUOTED_BYTES.min(id.len());
    while !id.is_char_boundary(end) {
        end -= 1;
    }
    Err(SessionIdTooLong {
        quoted: id[..end].to_owned(),
        bytes: id.len(),
    })
}
