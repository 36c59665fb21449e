//! Reads input lines with a length bound: an overlong line is skipped (and reported), never
//! buffered whole.

use tokio::io::{AsyncBufReadExt, AsyncRead, BufReader};

/// The longest input line accepted unless configured (1 MiB).
pub const DEFAULT_MAX_LINE: usize = 1024 * 1024;

/// One input line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Line {
    /// The line's text, without its line end.
    Text(String),
    /// The line was longer than the bound; its text was dropped.
    TooLong,
    /// The line was not UTF-8.
    NotUtf8,
}

/// Numbered lines of a reader (LF or CRLF ends; the last line may lack one).
pub struct Lines<R> {
    reader: BufReader<R>,
    max: usize,
    number: usize,
}

impl<R> std::fmt::Debug for Lines<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Lines")
            .field("max", &self.max)
            .field("number", &self.number)
            .finish_non_exhaustive()
    }
}

impl<R: AsyncRead + Unpin> Lines<R> {
    /// Lines of `reader`, each at most `max` bytes.
    pub fn new(reader: R, max: usize) -> Self {
        Self {
            reader: BufReader::new(reader),
            max,
            number: 0,
        }
    }

    /// The next line with its number (1 is the first); `None` at the end of the input.
    ///
    /// # Errors
    ///
    /// An I/O error of the reader.
    pub async fn next(&mut self) -> std::io::Result<Option<(usize, Line)>> {
        let mut text = Vec::new();
        let mut too_long = false;
        let mut seen_any = false;
        loop {
            let available = self.reader.fill_buf().await?;
            if available.is_empty() {
                if !seen_any {
                    return Ok(None);
                }
                break;
            }
            seen_any = true;
            let (chunk, used, end) = match available.iter().position(|&b| b == b'\n') {
                Some(i) => (&available[..i], i + 1, true),
                None => (available, available.len(), false),
            };
            if !too_long && text.len() + chunk.len() > self.max {
                too_long = true;
                text = Vec::new();
            }
            if !too_long {
                text.extend_from_slice(chunk);
            }
            self.reader.consume(used);
            if end {
                break;
            }
        }
        self.number += 1;
        if too_long {
            return Ok(Some((self.number, Line::TooLong)));
        }
        if text.last() == Some(&b'\r') {
            text.pop();
        }
        Ok(Some((
            self.number,
            String::from_utf8(text).map_or(Line::NotUtf8, Line::Text),
        )))
    }
}
