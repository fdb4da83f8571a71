//! A hunk's body lines, packed: the parser stores 8 bytes per line (where its text sits in the
//! input, how long it is, its kind and final newline) instead of a 32-byte [`Line`], and counts
//! added and removed lines as they come, so a large patch's model stays small next to its text.
//! [`Line`]s are built on demand when the lines are read. Lines built by hand (tests, other
//! callers) are kept as they are.

use super::{Line, LineKind};
use std::fmt;

/// The body lines of a [`Hunk`](super::Hunk), in patch order.
///
/// Read them with [`Lines::iter`] (or `for line in &hunk.lines`), which yields [`Line`] values;
/// build them from a `Vec<Line>` or by collecting [`Line`]s.
#[derive(Clone, Default)]
pub struct Lines<'a> {
    /// The input packed records point into (empty for lines given one by one).
    input: &'a [u8],
    repr: Repr<'a>,
    added: usize,
    removed: usize,
}

#[derive(Clone)]
enum Repr<'a> {
    /// Lines of `input`, as the parser reads them: consecutive patch lines, except that
    /// `\ No newline at end of file` markers take patch lines of their own.
    Packed(Packed),
    /// Lines given one by one, or lines that did not fit the packed form.
    Loose(Vec<Line<'a>>),
}

impl Default for Repr<'_> {
    fn default() -> Self {
        Repr::Loose(Vec::new())
    }
}

#[derive(Clone, Debug)]
struct Packed {
    /// Offset in the input that record offsets count from.
    base: usize,
    /// The patch line of the first record.
    first_line: usize,
    /// Indexes of the records that come after a marker line (so one patch line further than
    /// their index says), ascending; `u32::MAX` for none. A hunk has at most two markers:
    /// each closes a side, and a closed side takes no more lines.
    skips: [u32; 2],
    records: Vec<Record>,
}

/// One line: its text's offset from `base`, and its length with the kind and newline flag in
/// the low bits.
#[derive(Clone, Copy, Debug)]
struct Record {
    offset: u32,
    meta: u32,
}

const FLAG_BITS: u32 = 3;
const NO_NEWLINE: u32 = 1 << 2;

impl Record {
    #[inline]
    fn new(offset: usize, len: usize, kind: LineKind) -> Option<Self> {
        let offset = u32::try_from(offset).ok()?;
        let len = u32::try_from(len).ok().filter(|&l| l < 1 << (32 - FLAG_BITS))?;
        let kind = match kind {
            LineKind::Context => 0,
            LineKind::Add => 1,
            LineKind::Remove => 2,
        };
        Some(Record { offset, meta: len << FLAG_BITS | kind })
    }

    fn kind(self) -> LineKind {
        match self.meta & 3 {
            0 => LineKind::Context,
            1 => LineKind::Add,
            _ => LineKind::Remove,
        }
    }
}

impl Packed {
    /// The patch line of record `i` (or of the next record, for `i` the length).
    fn line_number(&self, i: usize) -> usize {
        let index = u32::try_from(i).unwrap_or(u32::MAX);
        let skipped = usize::from(self.skips[0] <= index) + usize::from(self.skips[1] <= index);
        self.first_line + i + skipped
    }

    fn line<'a>(&self, input: &'a [u8], i: usize) -> Line<'a> {
        let record = self.records[i];
        let start = self.base + record.offset as usize;
        let len = (record.meta >> FLAG_BITS) as usize;
        Line {
            kind: record.kind(),
            text: &input[start..start + len],
            has_newline: record.meta & NO_NEWLINE == 0,
            line: self.line_number(i),
        }
    }

    /// Add a record; false when the line does not fit the packed form.
    #[inline]
    fn push(&mut self, start: usize, len: usize, kind: LineKind) -> bool {
        let record = start.checked_sub(self.base).and_then(|o| Record::new(o, len, kind));
        match record {
            Some(record) if self.records.len() < u32::MAX as usize => {
                self.records.push(record);
                true
            }
            _ => false,
        }
    }

    /// Mark the last record as followed by a marker line; false when there is no record, it
    /// is marked already, or no skip is left.
    fn close_last(&mut self) -> Option<LineKind> {
        let next = u32::try_from(self.records.len()).ok()?;
        let slot = self.skips.iter().position(|&s| s == u32::MAX)?;
        let last = self.records.last_mut().filter(|r| r.meta & NO_NEWLINE == 0)?;
        last.meta |= NO_NEWLINE;
        self.skips[slot] = next;
        Some(last.kind())
    }
}

impl<'a> Lines<'a> {
    /// No lines yet, with room for `capacity` of them, the first on patch line `first_line`,
    /// their texts in `input` at or after `base` (the parser's form). Consecutive patch lines
    /// follow, except that [`Lines::close_last`] notes a marker line in between.
    pub(super) fn packed(input: &'a [u8], base: usize, first_line: usize, capacity: usize) -> Self {
        let packed = Packed {
            base,
            first_line,
            skips: [u32::MAX; 2],
            records: Vec::with_capacity(capacity),
        };
        Lines { input, repr: Repr::Packed(packed), added: 0, removed: 0 }
    }

    /// Add the next patch line, whose text is `input[start..start + len]`.
    #[inline]
    pub(super) fn push_text(&mut self, start: usize, len: usize, kind: LineKind) {
        let line = match &mut self.repr {
            Repr::Packed(packed) => {
                (!packed.push(start, len, kind)).then(|| packed.line_number(packed.records.len()))
            }
            Repr::Loose(lines) => {
                Some(lines.last().map_or(0, |l| l.line + 1 + usize::from(!l.has_newline)))
            }
        };
        match line {
            None => self.count(kind),
            Some(line) => {
                let text = &self.input[start..start + len];
                self.push(Line { kind, text, has_newline: true, line });
            }
        }
    }

    #[inline]
    fn count(&mut self, kind: LineKind) {
        match kind {
            LineKind::Add => self.added += 1,
            LineKind::Remove => self.removed += 1,
            LineKind::Context => {}
        }
    }

    /// Add `line`.
    pub fn push(&mut self, line: Line<'a>) {
        self.loosen().push(line);
        self.count(line.kind);
    }

    /// The lines one by one, converted from the packed form once.
    fn loosen(&mut self) -> &mut Vec<Line<'a>> {
        if let Repr::Packed(packed) = &self.repr {
            let lines = (0..packed.records.len()).map(|i| packed.line(self.input, i)).collect();
            self.repr = Repr::Loose(lines);
        }
        match &mut self.repr {
            Repr::Loose(lines) => lines,
            Repr::Packed(_) => unreachable!("converted above"),
        }
    }

    /// Mark the last line as followed by `\ No newline at end of file` (a patch line of its
    /// own); its kind, or `None` when there is no line or it is already marked.
    pub(super) fn close_last(&mut self) -> Option<LineKind> {
        if let Repr::Packed(packed) = &mut self.repr {
            if packed.records.last().is_some_and(|r| r.meta & NO_NEWLINE != 0) {
                return None;
            }
            if let Some(kind) = packed.close_last() {
                return Some(kind);
            }
        }
        // A marker the packed form cannot note (none can: see `skips`).
        let last = self.loosen().last_mut().filter(|l| l.has_newline)?;
        last.has_newline = false;
        Some(last.kind)
    }

    /// Give back room reserved beyond the lines read.
    pub(super) fn shrink_to_fit(&mut self) {
        match &mut self.repr {
            Repr::Packed(packed) => packed.records.shrink_to_fit(),
            Repr::Loose(lines) => lines.shrink_to_fit(),
        }
    }

    /// How many lines there is room for without reallocating.
    #[cfg(test)]
    pub(crate) fn capacity(&self) -> usize {
        match &self.repr {
            Repr::Packed(packed) => packed.records.capacity(),
            Repr::Loose(lines) => lines.capacity(),
        }
    }

    /// How many lines there are.
    #[must_use]
    pub fn len(&self) -> usize {
        match &self.repr {
            Repr::Packed(packed) => packed.records.len(),
            Repr::Loose(lines) => lines.len(),
        }
    }

    /// Whether there is no line.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The `i`th line (0-based).
    #[must_use]
    pub fn get(&self, i: usize) -> Option<Line<'a>> {
        match &self.repr {
            Repr::Packed(packed) => (i < packed.records.len()).then(|| packed.line(self.input, i)),
            Repr::Loose(lines) => lines.get(i).copied(),
        }
    }

    /// The first line.
    #[must_use]
    pub fn first(&self) -> Option<Line<'a>> {
        self.get(0)
    }

    /// The last line.
    #[must_use]
    pub fn last(&self) -> Option<Line<'a>> {
        self.len().checked_sub(1).and_then(|i| self.get(i))
    }

    /// The stretch of the input the lines lie in, from the first line's text to the end of the
    /// last one's, for lines the parser packed (consecutive lines of its input, so every line's
    /// text lies inside it); `None` for lines given one by one, and for no lines.
    #[must_use]
    pub fn input_span(&self) -> Option<&'a [u8]> {
        let Repr::Packed(packed) = &self.repr else { return None };
        let (first, last) = (packed.records.first()?, packed.records.last()?);
        let start = packed.base + first.offset as usize;
        let end = packed.base + last.offset as usize + (last.meta >> FLAG_BITS) as usize;
        self.input.get(start..end)
    }

    /// The lines in order.
    #[must_use]
    pub fn iter(&self) -> Iter<'_, 'a> {
        Iter { lines: self, front: 0, back: self.len() }
    }

    /// Lines of kind [`LineKind::Add`].
    #[must_use]
    pub fn added(&self) -> usize {
        self.added
    }

    /// Lines of kind [`LineKind::Remove`].
    #[must_use]
    pub fn removed(&self) -> usize {
        self.removed
    }
}

/// The lines of a [`Lines`], as [`Line`] values.
#[derive(Clone, Debug)]
pub struct Iter<'l, 'a> {
    lines: &'l Lines<'a>,
    front: usize,
    back: usize,
}

impl<'a> Iterator for Iter<'_, 'a> {
    type Item = Line<'a>;

    #[inline]
    fn next(&mut self) -> Option<Line<'a>> {
        if self.front == self.back {
            return None;
        }
        self.front += 1;
        self.lines.get(self.front - 1)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.back - self.front;
        (n, Some(n))
    }
}

impl DoubleEndedIterator for Iter<'_, '_> {
    fn next_back(&mut self) -> Option<Self::Item> {
        if self.front == self.back {
            return None;
        }
        self.back -= 1;
        self.lines.get(self.back)
    }
}

impl ExactSizeIterator for Iter<'_, '_> {}

impl<'l, 'a> IntoIterator for &'l Lines<'a> {
    type Item = Line<'a>;
    type IntoIter = Iter<'l, 'a>;

    fn into_iter(self) -> Iter<'l, 'a> {
        self.iter()
    }
}

impl<'a> From<Vec<Line<'a>>> for Lines<'a> {
    fn from(lines: Vec<Line<'a>>) -> Self {
        let count = |kind| lines.iter().filter(|l| l.kind == kind).count();
        let (added, removed) = (count(LineKind::Add), count(LineKind::Remove));
        Lines { input: &[], repr: Repr::Loose(lines), added, removed }
    }
}

impl<'a> FromIterator<Line<'a>> for Lines<'a> {
    fn from_iter<I: IntoIterator<Item = Line<'a>>>(iter: I) -> Self {
        Lines::from(iter.into_iter().collect::<Vec<_>>())
    }
}

impl PartialEq for Lines<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

impl Eq for Lines<'_> {}

impl fmt::Debug for Lines<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}
