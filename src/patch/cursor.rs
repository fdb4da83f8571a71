//! The line cursor: one `memchr` per line, the current line kept so that peeking is free, and
//! line-ending statistics gathered on the way (CRLF is reported, never stripped).

use super::Span;

/// One input line without its `\n` (a `\r` stays).
#[derive(Clone, Copy, Debug)]
pub(super) struct Raw<'a> {
    /// The bytes of the line, without the final `\n`.
    pub text: &'a [u8],
    /// Where the line starts.
    pub span: Span,
}

impl<'a> Raw<'a> {
    /// The line without a trailing `\r`: how header lines are read.
    pub fn trimmed(&self) -> &'a [u8] {
        self.text.strip_suffix(b"\r").unwrap_or(self.text)
    }

    /// The first byte, if any.
    pub fn first(&self) -> Option<u8> {
        self.text.first().copied()
    }
}

/// Counts of line endings, with the first line of each kind.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Endings {
    pub crlf: usize,
    pub lf: usize,
    pub first_crlf: Option<Span>,
    /// The last line, when it has no final `\n`.
    pub unterminated: Option<Span>,
}

/// A forward-only cursor over the input's lines. The current line is kept as plain offsets
/// (not a cached `Raw`), so the hot loop reads scalars instead of reloading a struct it has
/// just written.
#[derive(Debug)]
pub(super) struct Cursor<'a> {
    input: &'a [u8],
    /// Start of the current line; the input length at the end.
    start: usize,
    /// End of the current line: its `\n`, or the input length.
    end: usize,
    /// 1-based number of the current line.
    line: usize,
    pub endings: Endings,
}

impl<'a> Cursor<'a> {
    pub fn new(input: &'a [u8]) -> Self {
        let mut cursor = Self { input, start: 0, end: 0, line: 1, endings: Endings::default() };
        cursor.locate();
        cursor
    }

    /// Find the end of the line at `start` and count its ending.
    #[inline]
    fn locate(&mut self) {
        let Some(rest) = self.input.get(self.start..).filter(|r| !r.is_empty()) else {
            self.end = self.start;
            return;
        };
        if let Some(i) = memchr::memchr(b'\n', rest) {
            self.end = self.start + i;
            if i > 0 && rest[i - 1] == b'\r' {
                self.endings.crlf += 1;
                self.endings.first_crlf.get_or_insert(self.span());
            } else {
                self.endings.lf += 1;
            }
        } else {
            self.end = self.input.len();
            self.endings.unterminated = Some(self.span());
        }
    }

    fn span(&self) -> Span {
        Span { offset: self.start, line: self.line }
    }

    /// The current line, or `None` at the end of the input.
    #[inline]
    pub fn peek(&self) -> Option<Raw<'a>> {
        (self.start < self.input.len())
            .then(|| Raw { text: &self.input[self.start..self.end], span: self.span() })
    }

    /// The `n`th line after the current one (computed on demand: only header detection
    /// needs it).
    pub fn peek_nth(&self, n: usize) -> Option<Raw<'a>> {
        let mut raw = self.peek()?;
        for _ in 0..n {
            let start = raw.span.offset + raw.text.len() + 1;
            let rest = self.input.get(start..).filter(|r| !r.is_empty())?;
            let text = &rest[..memchr::memchr(b'\n', rest).unwrap_or(rest.len())];
            raw = Raw { text, span: Span { offset: start, line: raw.span.line + 1 } };
        }
        Some(raw)
    }

    /// The line after the current one.
    pub fn peek_next(&self) -> Option<Raw<'a>> {
        self.peek_nth(1)
    }

    /// Move to the next line.
    #[inline]
    pub fn bump(&mut self) {
        if self.start < self.input.len() {
            self.start = (self.end + 1).min(self.input.len());
            self.line += 1;
            self.locate();
        }
    }

    /// Whether everything from the current line on is empty lines (`\n` or `\r\n`).
    pub fn rest_is_blank(&self) -> bool {
        self.input[self.start..].iter().all(|&b| b == b'\n' || b == b'\r')
    }

    /// Byte offset where the current line starts (the input length at the end).
    pub fn offset(&self) -> usize {
        self.start
    }

    /// The input bytes from `start` up to the current line.
    pub fn since(&self, start: usize) -> &'a [u8] {
        &self.input[start..self.start]
    }

    /// The whole input.
    pub fn input(&self) -> &'a [u8] {
        self.input
    }
}
