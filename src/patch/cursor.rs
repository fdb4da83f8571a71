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
    /// Whether a `\n` ends the line (false only for the input's last line).
    pub has_lf: bool,
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

/// A forward-only cursor over the input's lines.
#[derive(Debug)]
pub(super) struct Cursor<'a> {
    input: &'a [u8],
    current: Option<Raw<'a>>,
    next_offset: usize,
    pub endings: Endings,
}

impl<'a> Cursor<'a> {
    pub fn new(input: &'a [u8]) -> Self {
        let mut cursor = Self { input, current: None, next_offset: 0, endings: Endings::default() };
        cursor.load(0, 1);
        cursor
    }

    fn read_at(input: &'a [u8], offset: usize, line: usize) -> Option<(Raw<'a>, usize)> {
        let rest = input.get(offset..).filter(|rest| !rest.is_empty())?;
        let (text, has_lf, next) = match memchr::memchr(b'\n', rest) {
            Some(i) => (&rest[..i], true, offset + i + 1),
            None => (rest, false, input.len()),
        };
        Some((Raw { text, span: Span { offset, line }, has_lf }, next))
    }

    fn load(&mut self, offset: usize, line: usize) {
        match Self::read_at(self.input, offset, line) {
            Some((raw, next)) => {
                if !raw.has_lf {
                    self.endings.unterminated = Some(raw.span);
                } else if raw.text.last() == Some(&b'\r') {
                    self.endings.crlf += 1;
                    self.endings.first_crlf.get_or_insert(raw.span);
                } else {
                    self.endings.lf += 1;
                }
                self.current = Some(raw);
                self.next_offset = next;
            }
            None => self.current = None,
        }
    }

    /// The current line, or `None` at the end of the input.
    #[inline]
    pub fn peek(&self) -> Option<Raw<'a>> {
        self.current
    }

    /// The line after the current one (computed on demand: only header detection needs it).
    pub fn peek_next(&self) -> Option<Raw<'a>> {
        let line = self.current?.span.line + 1;
        Self::read_at(self.input, self.next_offset, line).map(|(raw, _)| raw)
    }

    /// The `n`th line after the current one (`n == 1` is [`Cursor::peek_next`]).
    pub fn peek_nth(&self, n: usize) -> Option<Raw<'a>> {
        let mut raw = self.current?;
        let mut offset = self.next_offset;
        for _ in 0..n {
            let (next, after) = Self::read_at(self.input, offset, raw.span.line + 1)?;
            raw = next;
            offset = after;
        }
        Some(raw)
    }

    /// Move to the next line.
    #[inline]
    pub fn bump(&mut self) {
        if let Some(cur) = self.current {
            self.load(self.next_offset, cur.span.line + 1);
        }
    }

    /// Byte offset where the current line starts (the input length at the end).
    pub fn offset(&self) -> usize {
        self.current.map_or(self.input.len(), |c| c.span.offset)
    }

    /// The input bytes from `start` up to the current line.
    pub fn since(&self, start: usize) -> &'a [u8] {
        &self.input[start..self.offset()]
    }

    /// The whole input.
    pub fn input(&self) -> &'a [u8] {
        self.input
    }
}
