//! The line cursor: one stateful scan for the input's newlines (a 64-byte block at a time, not a
//! search per line), the current line kept so that peeking is free, and line-ending statistics
//! gathered on the way (CRLF is reported, never stripped).

use super::Span;
use crate::bytemask::{self, BLOCK};

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

/// An empty or whitespace-only line (`\r` included): what git skips outside the entries.
pub(super) fn is_blank(text: &[u8]) -> bool {
    text.iter().all(u8::is_ascii_whitespace)
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
    /// The newlines after the current line's start.
    newlines: Newlines<'a>,
    pub endings: Endings,
}

impl<'a> Cursor<'a> {
    pub fn new(input: &'a [u8]) -> Self {
        let newlines = Newlines::new(input);
        let mut cursor =
            Self { input, start: 0, end: 0, line: 1, newlines, endings: Endings::default() };
        cursor.locate();
        cursor
    }

    /// Find the end of the line at `start` and count its ending.
    #[allow(clippy::inline_always, reason = "once per input line: measured 3% fewer instructions")]
    #[inline(always)]
    fn locate(&mut self) {
        if self.start >= self.input.len() {
            self.end = self.start;
            return;
        }
        if let Some(i) = self.newlines.next() {
            debug_assert!(i >= self.start, "the scan is at the current line");
            self.end = i;
            if self.newlines.has_cr && i > self.start && self.input[i - 1] == b'\r' {
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
            raw = self.line_after(raw)?;
        }
        Some(raw)
    }

    /// The line after `raw` (a line of this input), computed on demand.
    pub fn line_after(&self, raw: Raw<'a>) -> Option<Raw<'a>> {
        let start = raw.span.offset + raw.text.len() + 1;
        let rest = self.input.get(start..).filter(|r| !r.is_empty())?;
        let text = &rest[..memchr::memchr(b'\n', rest).unwrap_or(rest.len())];
        Some(Raw { text, span: Span { offset: start, line: raw.span.line + 1 } })
    }

    /// The lines from `raw` on, computed on demand (for looking ahead without moving).
    pub fn lines_from(&self, raw: Raw<'a>) -> impl Iterator<Item = Raw<'a>> + '_ {
        std::iter::successors(Some(raw), |&line| self.line_after(line))
    }

    /// The line after the current one.
    pub fn peek_next(&self) -> Option<Raw<'a>> {
        self.peek_nth(1)
    }

    /// Move to the next line.
    #[allow(clippy::inline_always, reason = "once per input line: measured 3% fewer instructions")]
    #[inline(always)]
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

    /// 1-based number of the current line.
    pub fn line(&self) -> usize {
        self.line
    }

    /// Whether the input up to the end of the current line may hold a NUL byte (false means
    /// it holds none, so the line needs no search).
    pub fn may_hold_nul(&self) -> bool {
        self.newlines.has_nul
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

/// The offsets of the input's `\n` bytes, in order: a 64-bit mask per 64-byte block, so each
/// line costs a bit scan instead of a search of its own. The same pass notes whether a `\r` or
/// a NUL byte has been seen, so that lines are searched for them only when the input has them.
#[derive(Debug)]
struct Newlines<'a> {
    input: &'a [u8],
    /// Offset of the block `mask` covers.
    base: usize,
    /// The block's newlines not returned yet (bit `i` is `input[base + i]`).
    mask: u64,
    /// A `\r` is in a block scanned so far.
    has_cr: bool,
    /// A NUL byte is in a block scanned so far.
    has_nul: bool,
}

impl<'a> Newlines<'a> {
    fn new(input: &'a [u8]) -> Self {
        let mut newlines = Self { input, base: 0, mask: 0, has_cr: false, has_nul: false };
        newlines.read_block(0);
        newlines
    }

    /// Scan the block at `base`.
    #[inline]
    fn read_block(&mut self, base: usize) {
        let block = Block::at(self.input, base);
        self.base = base;
        self.mask = block.newlines;
        self.has_cr |= block.has_cr;
        self.has_nul |= block.has_nul;
    }

    /// Move to the next block with a newline; false at the end of the input.
    #[inline(never)]
    fn refill(&mut self) -> bool {
        while self.mask == 0 {
            let next = self.base + BLOCK;
            if next >= self.input.len() {
                return false;
            }
            self.read_block(next);
        }
        true
    }
}

impl Iterator for Newlines<'_> {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        if self.mask == 0 && !self.refill() {
            return None;
        }
        let at = self.base + self.mask.trailing_zeros() as usize;
        self.mask &= self.mask - 1;
        Some(at)
    }
}

/// What one block holds.
struct Block {
    /// Bit `i` set when byte `i` is `\n`.
    newlines: u64,
    has_cr: bool,
    has_nul: bool,
}

impl Block {
    /// The block at `base` (the input's end reads as zero bytes, which count as no NUL).
    #[inline]
    fn at(input: &[u8], base: usize) -> Self {
        if let Some(block) = input.get(base..base + BLOCK) {
            return Block::of(block.try_into().expect("the range is BLOCK bytes"));
        }
        let tail = input.get(base..).unwrap_or_default();
        let mut padded = [b' '; BLOCK];
        padded[..tail.len()].copy_from_slice(tail);
        Block::of(&padded)
    }

    #[inline]
    fn of(block: &[u8; BLOCK]) -> Self {
        let newlines = bytemask::of(block, |b| b == b'\n');
        // The least of each byte and its difference from `\r` is 0 only when the block holds a
        // NUL or a `\r` (a min reduction vectorizes; which one is looked up only then).
        let least = block.iter().fold(u8::MAX, |least, &b| least.min(b).min(b ^ b'\r'));
        let (has_cr, has_nul) =
            if least == 0 { (block.contains(&b'\r'), block.contains(&0)) } else { (false, false) };
        Block { newlines, has_cr, has_nul }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The block scan finds exactly the newlines a byte-by-byte search finds, at every block
    /// boundary and in a tail shorter than a block.
    #[test]
    fn newlines_are_every_newline_in_order() {
        let mut input = Vec::new();
        for i in 0..700usize {
            input.extend(std::iter::repeat_n(b'x', i % 131));
            input.push(if i % 7 == 0 { b'\r' } else { b'\n' });
            input.push(b'\n');
        }
        for len in (0..input.len()).step_by(37).chain([input.len()]) {
            let input = &input[..len];
            let expected: Vec<usize> =
                input.iter().enumerate().filter(|(_, b)| **b == b'\n').map(|(i, _)| i).collect();
            let mut newlines = Newlines::new(input);
            assert_eq!(newlines.by_ref().collect::<Vec<_>>(), expected, "length {len}");
            assert_eq!(newlines.has_cr, input.contains(&b'\r'), "length {len}");
            assert!(!newlines.has_nul);
        }
        let all = [b'\n'; 200];
        assert_eq!(Newlines::new(&all).count(), 200);
    }

    /// A NUL byte is noted by the time the line holding it is found, in any block.
    #[test]
    fn a_nul_is_seen_by_the_end_of_its_line() {
        for at in [0, 63, 64, 100, 190, 199] {
            let mut input = [b'x'; 200];
            input[150] = b'\n';
            input[at] = 0;
            let mut newlines = Newlines::new(&input);
            let end = newlines.next().unwrap_or(input.len());
            assert!(newlines.has_nul || at > end, "NUL at {at}");
            assert_eq!(newlines.next(), None);
            assert!(newlines.has_nul && !newlines.has_cr, "NUL at {at}");
        }
    }
}
