//! The batch input, one line at a time, in bounded memory: a line longer than the limit is
//! skipped to its end without being held, and answered as too long.

use std::io::BufRead;

/// One non-blank input line.
#[derive(Debug)]
pub struct Line {
    /// 1-based line number in the input.
    pub number: usize,
    /// Bytes the line took in the input, its newline included (for progress).
    pub len: usize,
    /// The line without its newline, or `None` when it was over the limit (and not kept).
    pub bytes: Option<Vec<u8>>,
}

/// The lines of `input`, blank ones skipped. A read error ends the lines; [`Lines::error`]
/// then holds it (the run cannot go on: its input is unreadable).
#[derive(Debug)]
pub struct Lines<R> {
    input: R,
    max_bytes: usize,
    number: usize,
    error: Option<std::io::Error>,
}

impl<R: BufRead> Lines<R> {
    /// Read `input`, keeping lines of at most `max_bytes`.
    pub fn new(input: R, max_bytes: usize) -> Self {
        Self { input, max_bytes, number: 0, error: None }
    }

    /// The read error that ended the lines, if one did.
    pub fn error(self) -> Option<std::io::Error> {
        self.error
    }

    /// The next line, blank or not: `Ok(None)` at the end.
    fn next_line(&mut self) -> std::io::Result<Option<Line>> {
        let mut bytes = Some(Vec::new());
        let mut len = 0;
        loop {
            let chunk = match self.input.fill_buf() {
                Ok(chunk) => chunk,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if chunk.is_empty() {
                break;
            }
            let end = memchr::memchr(b'\n', chunk);
            let take = end.map_or(chunk.len(), |at| at + 1);
            len += take;
            if let Some(kept) = &mut bytes {
                if len > self.max_bytes {
                    bytes = None;
                } else {
                    kept.extend_from_slice(&chunk[..take]);
                }
            }
            self.input.consume(take);
            if end.is_some() {
                break;
            }
        }
        if len == 0 {
            return Ok(None);
        }
        self.number += 1;
        if let Some(kept) = &mut bytes {
            let content = kept.strip_suffix(b"\n").unwrap_or(kept);
            let content = content.strip_suffix(b"\r").unwrap_or(content);
            kept.truncate(content.len());
        }
        Ok(Some(Line { number: self.number, len, bytes }))
    }
}

impl<R: BufRead> Iterator for Lines<R> {
    type Item = Line;

    fn next(&mut self) -> Option<Line> {
        loop {
            match self.next_line() {
                Ok(Some(line)) if line.bytes.as_ref().is_some_and(|b| is_blank(b)) => {}
                Ok(line) => return line,
                Err(e) => {
                    self.error = Some(e);
                    return None;
                }
            }
        }
    }
}

fn is_blank(bytes: &[u8]) -> bool {
    bytes.iter().all(u8::is_ascii_whitespace)
}
